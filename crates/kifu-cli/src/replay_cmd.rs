//! `kifu replay` and `kifu explain`.

use std::path::Path;

use crate::cli::{ExplainArgs, ReplayArgs};
use crate::{CmdResult, Failure};

/// `kifu replay GAME [--at SEQ] [--json]`.
pub fn replay(_data: &Path, _a: ReplayArgs) -> CmdResult {
    Err(Failure::new("kifu replay is not available in this build"))
}

/// `kifu explain GAME [--json]`.
pub fn explain(_data: &Path, _a: ExplainArgs) -> CmdResult {
    Err(Failure::new("kifu explain is not available in this build"))
}
