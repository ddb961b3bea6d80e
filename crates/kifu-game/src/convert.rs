//! Recorded facts as the clock projection's inputs: the ledger's values
//! (`kifu-ledger`, which knows no rules) mapped to `kifu-clock`'s. Functions,
//! not `From` impls: both types are foreign to this crate.

use kifu_clock::{ClockEvent, PauseReason as ClockPause, Player};
use kifu_ledger::{Body, Color, PauseReason, TimeControl};

/// The clock's time control for a recorded one (same variants, same values).
pub fn clock_time_control(tc: &TimeControl) -> kifu_clock::TimeControl {
    use kifu_clock::TimeControl as C;
    match *tc {
        TimeControl::Untimed => C::Untimed,
        TimeControl::SuddenDeath { main_ms } => C::SuddenDeath { main_ms },
        TimeControl::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        } => C::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        },
        TimeControl::Simple { per_move_ms } => C::Simple { per_move_ms },
        TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => C::Byoyomi {
            main_ms,
            periods,
            period_ms,
        },
        TimeControl::Canadian {
            main_ms,
            stones,
            block_ms,
        } => C::Canadian {
            main_ms,
            stones,
            block_ms,
        },
    }
}

/// The recorded time control for a clock's (same variants, same values).
pub fn ledger_time_control(tc: &kifu_clock::TimeControl) -> TimeControl {
    use kifu_clock::TimeControl as C;
    match *tc {
        C::Untimed => TimeControl::Untimed,
        C::SuddenDeath { main_ms } => TimeControl::SuddenDeath { main_ms },
        C::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        } => TimeControl::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        },
        C::Simple { per_move_ms } => TimeControl::Simple { per_move_ms },
        C::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms,
        },
        C::Canadian {
            main_ms,
            stones,
            block_ms,
        } => TimeControl::Canadian {
            main_ms,
            stones,
            block_ms,
        },
    }
}

/// The clock side of a seat's colour.
pub fn clock_player(c: Color) -> Player {
    match c {
        Color::Black => Player::Black,
        Color::White => Player::White,
    }
}

/// The clock's pause reason for a recorded one.
pub fn clock_pause(r: &PauseReason) -> ClockPause {
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

/// The clock event a recorded fact amounts to, if any.
///
/// Stones and passes do not move the clock: the press does. A referee's
/// adjustment is a clock event of its own.
pub fn clock_event(at_ms: u64, body: &Body) -> Option<ClockEvent> {
    Some(match body {
        Body::ClockStarted { running } => ClockEvent::Started {
            at_ms,
            running: clock_player(*running),
        },
        Body::ClockPressed { player } => ClockEvent::Pressed {
            at_ms,
            player: clock_player(*player),
        },
        Body::ClockPaused { reason } => ClockEvent::Paused {
            at_ms,
            reason: clock_pause(reason),
        },
        Body::ClockResumed { running } => ClockEvent::Resumed {
            at_ms,
            running: Some(clock_player(*running)),
        },
        Body::ClockAdjusted {
            player,
            delta_ms,
            reason,
        } => ClockEvent::Adjusted {
            at_ms,
            player: clock_player(*player),
            delta_ms: *delta_ms,
            reason: reason.clone(),
        },
        _ => return None,
    })
}
