//! Conversions from recorded facts to the clock projection's inputs.

use kifu_clock::{ClockEvent, PauseReason as ClockPause, Player};

use crate::body::{Body, Color, PauseReason};

impl From<Color> for Player {
    fn from(c: Color) -> Player {
        match c {
            Color::Black => Player::Black,
            Color::White => Player::White,
        }
    }
}

impl From<&PauseReason> for ClockPause {
    fn from(r: &PauseReason) -> ClockPause {
        match r {
            PauseReason::StatusAssessment => ClockPause::StatusAssessment,
            PauseReason::Counting => ClockPause::Counting,
            PauseReason::ResetClock => ClockPause::OvertimeReset,
            PauseReason::Toilet => ClockPause::Toilet,
            PauseReason::RemoveStones => ClockPause::StoneRemoval,
            PauseReason::ClockMalfunction => ClockPause::ClockMalfunction,
            PauseReason::Adjournment => ClockPause::Adjournment,
            // The ledger records one reason for both steps of sealing.
            PauseReason::Sealing => ClockPause::FetchSealingForm,
            PauseReason::CallReferee => ClockPause::CallReferee,
            PauseReason::Arbitration => ClockPause::Arbitration,
            PauseReason::Announcement => ClockPause::Announcement,
            PauseReason::Other(s) => ClockPause::Other(s.clone()),
        }
    }
}

/// The clock event a recorded fact amounts to, if any.
///
/// Stones and passes do not move the clock: the press does. A referee's
/// adjustment and a recorded reading are clock events of their own.
pub fn clock_event(at_ms: u64, body: &Body) -> Option<ClockEvent> {
    Some(match body {
        Body::ClockStarted { running } => ClockEvent::Started {
            at_ms,
            running: (*running).into(),
        },
        Body::ClockPressed { player } => ClockEvent::Pressed {
            at_ms,
            player: (*player).into(),
        },
        Body::ClockPaused { reason } => ClockEvent::Paused {
            at_ms,
            reason: reason.into(),
        },
        Body::ClockResumed { running } => ClockEvent::Resumed {
            at_ms,
            running: Some((*running).into()),
        },
        Body::ClockAdjusted {
            player,
            delta_ms,
            reason,
        } => ClockEvent::Adjusted {
            at_ms,
            player: (*player).into(),
            delta_ms: *delta_ms,
            reason: reason.clone(),
        },
        _ => return None,
    })
}
