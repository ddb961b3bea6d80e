//! The time-control value recorded in a game's genesis event.

use serde::{Deserialize, Serialize};

use crate::error::ClockError;

/// A time control, as recorded in a game's genesis event.
///
/// All durations are integer milliseconds. The serde shape of this type is part
/// of the ledger's byte format (`docs/FORMAT.md`): variants may be appended,
/// never reordered or changed.
///
/// `kifu_ledger::TimeControl` has the same shape on purpose: the ledger,
/// the lowest floor, records a time control without knowing how a clock
/// runs, and this crate stands on no ledger. `kifu-game` converts one to the
/// other, and `crates/kifu-game/tests/time_control_layout.rs` fails when the
/// two stop encoding alike.
///
/// The short text form (`sudden:30m`, `fischer:90m+30s`, ...) is described in
/// [`crate::notation`]; it is available through [`std::str::FromStr`] and
/// [`std::fmt::Display`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields, rename = "ClockTimeControl")]
#[serde(rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock.
    Untimed,
    /// Sudden death (absolute): fixed main time, no overtime.
    SuddenDeath {
        /// Main time.
        main_ms: u64,
    },
    /// Fischer: main time plus an increment after every move completed in time.
    Fischer {
        /// Main time.
        main_ms: u64,
        /// Added after each move completed in time, from move 1.
        increment_ms: u64,
        /// Optional cap on the time a player may accumulate.
        max_ms: Option<u64>,
    },
    /// Simple: a fixed time per move, nothing carried over.
    Simple {
        /// Time per move.
        per_move_ms: u64,
    },
    /// Japanese byo-yomi: main time, then `periods` periods of `period_ms`.
    Byoyomi {
        /// Main time.
        main_ms: u64,
        /// Number of periods.
        periods: u32,
        /// Length of one period.
        period_ms: u64,
    },
    /// Canadian: main time, then blocks of `stones` moves in `block_ms`.
    Canadian {
        /// Main time.
        main_ms: u64,
        /// Moves to play in each block.
        stones: u32,
        /// Length of one block.
        block_ms: u64,
    },
}

impl TimeControl {
    /// Checks what the type cannot: a Canadian block must ask for at least
    /// one stone, otherwise the block could never be completed.
    ///
    /// # Errors
    ///
    /// [`ClockError::InvalidTimeControl`] naming the offending field.
    pub fn validate(&self) -> Result<(), ClockError> {
        match *self {
            TimeControl::Canadian { stones: 0, .. } => Err(ClockError::InvalidTimeControl {
                reason: "a Canadian block must require at least one stone",
            }),
            _ => Ok(()),
        }
    }

    /// True unless this is [`TimeControl::Untimed`].
    pub fn is_timed(&self) -> bool {
        !matches!(self, TimeControl::Untimed)
    }

    /// The main (basic) time, 0 for simple time and no clock.
    pub fn main_ms(&self) -> u64 {
        match *self {
            TimeControl::Untimed | TimeControl::Simple { .. } => 0,
            TimeControl::SuddenDeath { main_ms }
            | TimeControl::Fischer { main_ms, .. }
            | TimeControl::Byoyomi { main_ms, .. }
            | TimeControl::Canadian { main_ms, .. } => main_ms,
        }
    }
}
