//! Tournament standings: scores and placement criteria exactly as OpenGotha
//! computes them, and the EGD `.h9` and AGA results files written from them.
//!
//! The input is a [`Tournament`]: players, the games of each round with their
//! results, byes and absences, and the [`Settings`] that fix how unplayed
//! rounds count. [`standings`] orders the players after any round on any list
//! of [`Criterion`]s; [`scores`] gives every criterion's value for every player.
//!
//! The one decision a reader must know: **all arithmetic is in integers of
//! quarter points** ([`Value`]). OpenGotha keeps scores ×2 and SODOS ×4 to
//! stay exact; we keep everything ×4, which orders the same way, and never
//! use floating point, so a committee recomputing the standings gets the same
//! places bit for bit.
//!
//! Every definition mirrors OpenGotha 3.51 (`Tournament.java`,
//! "fillBaseScoringInfoIfNecessary" and "defineDirForExAequoGroup");
//! `docs/TOURNAMENTS.md` gives each criterion's definition and source.
//!
//! This crate does no I/O.
#![deny(missing_docs)]

pub mod aga;
mod breakdown;
mod compute;
mod criterion;
mod direct;
pub mod h9;
mod info;

mod model;
mod value;

pub use breakdown::{breakdown, breakdown_all, Breakdown, Part};
pub use compute::{scores, standings, PlayerScores, Row, Standings};
pub use criterion::Criterion;
pub use info::EventInfo;
pub use model::{Game, GameResult, ModelError, Participation, Player, Rank, Settings, Tournament};
pub use value::Value;
