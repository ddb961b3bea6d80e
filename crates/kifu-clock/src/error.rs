//! Why an event could not be applied.

use thiserror::Error;

use crate::player::Player;

/// Why a clock event (or a scenario) could not be applied. The clock is left
/// unchanged by an event that fails.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ClockError {
    /// The time control cannot be run.
    #[error("invalid time control: {reason}")]
    InvalidTimeControl {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An event other than a start, an adjustment or a reading came before
    /// the clock was started.
    #[error("{event} at {at_ms} ms before the clock was started")]
    NotStarted {
        /// The kind of event.
        event: &'static str,
        /// Its time.
        at_ms: u64,
    },
    /// The clock was started twice.
    #[error("clock started again at {at_ms} ms")]
    AlreadyStarted {
        /// Time of the second start.
        at_ms: u64,
    },
    /// An event is earlier than the one before it.
    #[error("event at {at_ms} ms is earlier than the previous event at {last_ms} ms")]
    TimeWentBackwards {
        /// Time of the offending event.
        at_ms: u64,
        /// Time of the previous event.
        last_ms: u64,
    },
    /// A player pressed the clock while it was the other player's turn.
    #[error("{player} pressed at {at_ms} ms but {to_move} is to move")]
    NotOnMove {
        /// Who pressed.
        player: Player,
        /// Who is to move.
        to_move: Player,
        /// When.
        at_ms: u64,
    },
    /// A pause while already paused.
    #[error("clock paused at {at_ms} ms while already paused")]
    AlreadyPaused {
        /// When.
        at_ms: u64,
    },
    /// A resume while the clock was running.
    #[error("clock resumed at {at_ms} ms but it was not paused")]
    NotPaused {
        /// When.
        at_ms: u64,
    },
    /// A negative adjustment larger than the main time still on the clock.
    #[error(
        "adjustment of {delta_ms} ms for {player} exceeds the {remaining_ms} ms of main time left"
    )]
    AdjustmentExceedsMainTime {
        /// Whose time.
        player: Player,
        /// Main time left at the adjustment.
        remaining_ms: u64,
        /// The adjustment asked for.
        delta_ms: i64,
    },
    /// A query for an instant before the last applied event.
    #[error("query at {at_ms} ms is before the last event at {last_ms} ms")]
    QueryInThePast {
        /// The instant asked for.
        at_ms: u64,
        /// The last event.
        last_ms: u64,
    },
    /// A scenario lacks a parameter its system needs.
    #[error("scenario system {system} needs parameter {param}")]
    MissingParameter {
        /// The system.
        system: &'static str,
        /// The missing parameter.
        param: &'static str,
    },
    /// A scenario event lacks a field its type needs.
    #[error("scenario event {index} ({kind}) needs field {field}")]
    MissingEventField {
        /// Position in the `events` array, from 0.
        index: usize,
        /// The event type.
        kind: &'static str,
        /// The missing field.
        field: &'static str,
    },
}
