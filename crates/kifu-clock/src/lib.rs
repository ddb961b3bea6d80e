//! Game clocks as a pure projection.
//!
//! Placeholder: the time-control value is fixed here first because the ledger's
//! genesis event records it; the projection is built on top of it.

use serde::{Deserialize, Serialize};

/// A time control, as recorded in a game's genesis event.
///
/// All durations are integer milliseconds. The serde shape of this type is part
/// of the ledger's byte format (`docs/FORMAT.md`): variants may be appended,
/// never reordered or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
