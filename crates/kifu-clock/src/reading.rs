//! Readings of a physical clock, and how far they are from the projection.
//!
//! A committee hearing "my flag had not fallen" compares what the clock on the
//! table showed (recorded as a [`ClockReading`]) with what the recorded facts
//! say it should have shown ([`crate::Clock::face_at`]);
//! [`crate::Clock::discrepancy`] gives the difference.

use serde::{Deserialize, Serialize};

use crate::player::Player;

/// Who read the clock.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReadingSource {
    /// The referee.
    Referee,
    /// One of the players.
    Player(Player),
    /// A tournament official other than the referee.
    Official,
    /// Anyone or anything else (a photo, an observer), as free text.
    Other(String),
}

/// What one side of a clock shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShownTime {
    /// Time on the display for the current phase: main time, or in overtime
    /// the time left in the period or block.
    pub time_ms: u64,
    /// In overtime, the periods left (byo-yomi, counting the running one) or
    /// the stones still to play in the block (Canadian); `None` in main time.
    pub count: Option<u32>,
}

/// A recorded reading of a physical clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockReading {
    /// When the clock was read.
    pub at_ms: u64,
    /// What Black's side showed.
    pub black: ShownTime,
    /// What White's side showed.
    pub white: ShownTime,
    /// Who read it.
    pub read_by: ReadingSource,
}

/// What one side of the clock should show at an instant, by the projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerFace {
    /// Main time left.
    pub main_ms: u64,
    /// Time left in the current period (byo-yomi), block (Canadian) or move
    /// (simple); `None` for systems without overtime.
    pub overtime_ms: Option<u64>,
    /// Periods left (byo-yomi, counting the running one) or stones left in the
    /// block (Canadian); `None` otherwise.
    pub count: Option<u32>,
}

impl PlayerFace {
    /// True when main time is gone and the system has overtime to show.
    pub fn in_overtime(&self) -> bool {
        self.main_ms == 0 && self.overtime_ms.is_some()
    }

    /// The face as a clock would display it: main time while there is some,
    /// then the overtime phase with its count.
    pub fn shown(&self) -> ShownTime {
        match self.overtime_ms {
            Some(left) if self.main_ms == 0 => ShownTime {
                time_ms: left,
                count: self.count,
            },
            _ => ShownTime {
                time_ms: self.main_ms,
                count: None,
            },
        }
    }

    /// True when nothing is left: the flag is down.
    pub fn exhausted(&self) -> bool {
        self.main_ms == 0 && self.overtime_ms.unwrap_or(0) == 0
    }
}

/// How one side of a reading differs from the projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideDiscrepancy {
    /// What the projection says the clock should have shown.
    pub expected: ShownTime,
    /// What it showed.
    pub shown: ShownTime,
    /// `shown.time_ms - expected.time_ms`: positive when the clock showed more
    /// time than the player had.
    pub time_ms: i64,
    /// `shown.count - expected.count` when both have a count.
    pub count: Option<i64>,
}

impl SideDiscrepancy {
    /// Compares one side.
    pub fn between(expected: ShownTime, shown: ShownTime) -> SideDiscrepancy {
        let time_ms = i128::from(shown.time_ms) - i128::from(expected.time_ms);
        let time_ms =
            i64::try_from(time_ms).unwrap_or(if time_ms < 0 { i64::MIN } else { i64::MAX });
        let count = match (shown.count, expected.count) {
            (Some(s), Some(e)) => Some(i64::from(s) - i64::from(e)),
            _ => None,
        };
        SideDiscrepancy {
            expected,
            shown,
            time_ms,
            count,
        }
    }

    /// True when the time differs by at most `tolerance_ms` and the counts
    /// (if both are present) agree; a reading in main time against an
    /// expectation in overtime (or the reverse) is never within tolerance.
    pub fn within(&self, tolerance_ms: u64) -> bool {
        self.time_ms.unsigned_abs() <= tolerance_ms
            && self.count.unwrap_or(0) == 0
            && self.expected.count.is_some() == self.shown.count.is_some()
    }
}

/// How a reading differs from the projection, for both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discrepancy {
    /// When the clock was read.
    pub at_ms: u64,
    /// Black's side.
    pub black: SideDiscrepancy,
    /// White's side.
    pub white: SideDiscrepancy,
}

impl Discrepancy {
    /// One side's difference.
    pub fn side(&self, player: Player) -> &SideDiscrepancy {
        match player {
            Player::Black => &self.black,
            Player::White => &self.white,
        }
    }

    /// True when both sides are within `tolerance_ms`.
    pub fn within(&self, tolerance_ms: u64) -> bool {
        self.black.within(tolerance_ms) && self.white.within(tolerance_ms)
    }
}
