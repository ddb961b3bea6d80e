//! The recorded facts the clock is projected from.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::player::Player;
use crate::reading::ClockReading;

/// One recorded fact about the clock. Times are milliseconds on the game's
/// monotonic time line; events must come in non-decreasing time order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockEvent {
    /// The clock is started with `running`'s clock running.
    ///
    /// LGC 2023 (lgc-tournament-rules-2023.txt), "Start": Black's clock is started by the referee
    /// or the players.
    Started {
        /// When.
        at_ms: u64,
        /// Whose clock starts running (normally Black).
        running: Player,
    },
    /// The player to move completed a move (or a pass) by pressing the clock.
    ///
    /// Pressed while paused, the move is completed with the time frozen at the pause and the
    /// opponent's clock starts at this instant: this is step 4 of LGC 2023
    /// (lgc-tournament-rules-2023.txt), "Timing procedure for removing three or more stones" ("The
    /// player restarts the opponent's clock").
    Pressed {
        /// When.
        at_ms: u64,
        /// Who pressed; must be the player to move.
        player: Player,
    },
    /// Both clocks are stopped at once.
    Paused {
        /// When.
        at_ms: u64,
        /// Why (LGC 2023's list, or another reason as text).
        reason: PauseReason,
    },
    /// The clocks are restarted.
    Resumed {
        /// When.
        at_ms: u64,
        /// Whose clock runs. `None` (or the player to move) continues the interrupted turn. Another
        /// player means the referee hands the turn to that player **without** a move being
        /// completed: the time the previous player used in the interrupted turn is charged to him,
        /// but he gets no increment, no stone counted and no period back. This is how a clock
        /// pressed by mistake is put right (RIF (rif-renju-world-championship-rules.txt), "The
        /// Rules for World Championship": the referee fixes it; pressing the opponent's clock
        /// instead "would cause adding 30 seconds to both players").
        running: Option<Player>,
    },
    /// The referee changes a player's main time.
    ///
    /// LGC 2023 (lgc-tournament-rules-2023.txt), "Timing error": "mistakes in the recorded elapsed
    /// time can only be corrected by the referee"; also time penalties ("modification of time
    /// limits"). Added time is consumed before overtime; time can be taken away only from the main
    /// time still on the clock. Ignored when the game is untimed.
    Adjusted {
        /// When.
        at_ms: u64,
        /// Whose time.
        player: Player,
        /// Milliseconds added (positive) or taken away (negative).
        delta_ms: i64,
        /// The referee's reason, as free text.
        reason: String,
    },
    /// What a physical clock showed; changes nothing, but can be compared with
    /// the projection (see [`crate::Clock::discrepancy`]).
    ReadingRecorded(ClockReading),
}

impl ClockEvent {
    /// When the event happened.
    pub fn at_ms(&self) -> u64 {
        match self {
            ClockEvent::Started { at_ms, .. }
            | ClockEvent::Pressed { at_ms, .. }
            | ClockEvent::Paused { at_ms, .. }
            | ClockEvent::Resumed { at_ms, .. }
            | ClockEvent::Adjusted { at_ms, .. } => *at_ms,
            ClockEvent::ReadingRecorded(r) => r.at_ms,
        }
    }
}

/// Why the clock was paused.
///
/// The twelve named reasons are LGC 2023's list ("Management of time", "The
/// clock may be paused with both player's timepieces being stopped
/// simultaneously in the following circumstances"), numbered as there. Who may
/// pause for which reason is checked by the tournament policy, not here.
///
/// Serialized as a bare string: the stable code shown on each variant, or the
/// text of [`PauseReason::Other`]. Deserializing a known code gives the named
/// variant; any other string gives `Other`. Codes are never renamed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum PauseReason {
    /// `STATUS_ASSESSMENT`: 1. after successive passes, at the start of each
    /// status assessment phase.
    StatusAssessment,
    /// `COUNTING`: 2. at the start of the counting procedure.
    Counting,
    /// `OVERTIME_RESET`: 3. to reset the clock or count overtime stones for the
    /// next overtime period.
    OvertimeReset,
    /// `TOILET`: 4. a toilet visit shortly before or during overtime.
    Toilet,
    /// `STONE_REMOVAL`: 5. to remove three or more stones without liberty.
    StoneRemoval,
    /// `CLOCK_MALFUNCTION`: 6. to deal with a clock malfunction or call the
    /// referee to deal with the clock.
    ClockMalfunction,
    /// `ADJOURNMENT`: 7. at the start of a formal adjournment.
    Adjournment,
    /// `FETCH_SEALING_FORM`: 8. to fetch a sealing form for an adjournment.
    FetchSealingForm,
    /// `COMPLETE_SEALING_FORM`: 9. to complete a sealing form.
    CompleteSealingForm,
    /// `CALL_REFEREE`: 10. to call an absent referee after informing the
    /// opponent.
    CallReferee,
    /// `ARBITRATION`: 11. by the referee at the start of arbitration or rule
    /// clarification.
    Arbitration,
    /// `ANNOUNCEMENT`: 12. during an urgent announcement on behalf of the
    /// tournament director.
    Announcement,
    /// Any other reason, as recorded (never one of the codes above).
    Other(String),
}

impl PauseReason {
    /// The twelve named reasons, in LGC order.
    pub const LGC_2023: [PauseReason; 12] = [
        PauseReason::StatusAssessment,
        PauseReason::Counting,
        PauseReason::OvertimeReset,
        PauseReason::Toilet,
        PauseReason::StoneRemoval,
        PauseReason::ClockMalfunction,
        PauseReason::Adjournment,
        PauseReason::FetchSealingForm,
        PauseReason::CompleteSealingForm,
        PauseReason::CallReferee,
        PauseReason::Arbitration,
        PauseReason::Announcement,
    ];

    /// The stable code (or the text of `Other`).
    pub fn code(&self) -> &str {
        match self {
            PauseReason::StatusAssessment => "STATUS_ASSESSMENT",
            PauseReason::Counting => "COUNTING",
            PauseReason::OvertimeReset => "OVERTIME_RESET",
            PauseReason::Toilet => "TOILET",
            PauseReason::StoneRemoval => "STONE_REMOVAL",
            PauseReason::ClockMalfunction => "CLOCK_MALFUNCTION",
            PauseReason::Adjournment => "ADJOURNMENT",
            PauseReason::FetchSealingForm => "FETCH_SEALING_FORM",
            PauseReason::CompleteSealingForm => "COMPLETE_SEALING_FORM",
            PauseReason::CallReferee => "CALL_REFEREE",
            PauseReason::Arbitration => "ARBITRATION",
            PauseReason::Announcement => "ANNOUNCEMENT",
            PauseReason::Other(text) => text,
        }
    }

    /// The reason for a code: a named variant for the twelve codes, `Other`
    /// for anything else.
    pub fn from_code(code: &str) -> PauseReason {
        PauseReason::LGC_2023
            .into_iter()
            .find(|r| r.code() == code)
            .unwrap_or_else(|| PauseReason::Other(code.to_owned()))
    }
}

impl From<String> for PauseReason {
    fn from(code: String) -> Self {
        PauseReason::from_code(&code)
    }
}

impl From<PauseReason> for String {
    fn from(reason: PauseReason) -> Self {
        reason.code().to_owned()
    }
}

impl fmt::Display for PauseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
