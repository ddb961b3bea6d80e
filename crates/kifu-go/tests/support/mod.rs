//! Where the tests find their data: one home for the whole workspace,
//! `tests/common/fixtures.rs`.
#![allow(dead_code, unused_imports)]

#[path = "../../../../tests/common/fixtures.rs"]
mod fixtures;
pub use fixtures::*;
