//! Game clocks of **kifu** as a pure projection of recorded facts.
//!
//! A game record stores facts about the clock: it was started, a player
//! pressed it, it was paused for a reason and resumed, the referee adjusted a
//! player's time, someone read what the physical clock showed. This crate
//! turns those facts into what an appeals committee needs to settle "my flag
//! had not fallen": the time each player had left after every event, whose
//! clock ran, and the exact instant a flag fell.
//!
//! # The design decision: state is a function of (time control, events)
//!
//! [`Clock`] holds nothing that is not derived from the [`TimeControl`] and
//! the [`ClockEvent`]s applied to it, in order. There is no I/O, no wall
//! clock and no randomness: time enters only as integer milliseconds carried
//! by the events, so replaying the same record always gives the same answer,
//! on any machine, years later. In particular the **flag instant is derived,
//! never stored** ([`Clock::flag_at`]): a recorded "flag fell at" could
//! disagree with the presses; a derived one cannot. Remaining time between
//! moves ([`PlayerClock`]) is what the projection keeps; what a clock shows
//! while running is computed on demand ([`Clock::face_at`]).
//!
//! # Map
//!
//! - [`TimeControl`] (the ledger's value; its serde shape is frozen) and its
//!   short text form (`sudden:30m`, `fischer:90m+30s`, `byoyomi:60m+5x30s`,
//!   `canadian:60m+25/10m`, `simple:30s`, `none`; see [`notation`]).
//! - [`ClockEvent`] and [`PauseReason`] (LGC 2023's twelve reasons).
//! - [`Clock`]: applies events, gives the [`Flag`], the faces and the
//!   [`Discrepancy`] with a recorded [`ClockReading`].
//! - [`format_time`] at a [`Resolution`] (the UEC Cup counts tenths), and
//!   [`format_face`]: a [`PlayerFace`] in words (`59:27 + 5 × 0:30`).
//! - SGF export: [`sgf_root_properties`] (`TM`, `OT`), [`sgf_move_properties`]
//!   and [`sgf_player_properties`] (`BL`/`WL`, `OB`/`OW`); the mapping is
//!   tabled in [`sgf`].
//! - [`Scenario`] / [`replay_scenario`] / [`ScenarioOutput`]: the shape of the
//!   shared clock vectors, for scripted queries.
//!
//! # SGF mapping
//!
//! | SGF | Written from |
//! |---|---|
//! | `TM` (root) | main time in seconds |
//! | `OT` (root) | `5x30 byo-yomi`, `25/600 Canadian`, `30 fischer`, `30 simple` |
//! | `BL` / `WL` (move) | seconds left in the current phase (main time, else the period, block or move), up to 3 decimals, cut to the millisecond |
//! | `OB` / `OW` (move) | in overtime: byo-yomi periods left, or Canadian stones left in the block |
//!
//! On move nodes the values are taken at the press, before a period or block
//! reset; details in [`sgf`].
//!
//! # Sources
//!
//! Rules are cited by short name and file in the project's `docs/rules/`:
//! LGC 2023 (`lgc-tournament-rules-2023.txt`: time systems, "Loss on time",
//! the twelve pause reasons, "Timing procedure for removing three or more
//! stones"), RIF (`rif-renju-world-championship-rules.txt`: Fischer from move
//! 1, a clock pressed by mistake), UEC Cup (`uec-cup-computer-go-rules.txt`:
//! time counted in tenths of a second). Boundary conventions follow the
//! shared clock notes (`notes/clocks.md`) and vectors
//! (`fixtures/clocks/vectors.json`).
//!
//! # Conventions (from the shared clock notes and vectors)
//!
//! - A press at or after the flag instant is too late: having used exactly
//!   the whole budget already loses.
//! - Using exactly the remaining main time consumes no byo-yomi period and
//!   starts no Canadian block.
//! - While paused, both clocks stop, no flag can fall, and the time already
//!   used in the current move is kept (a period or block is not reset).
//! - Fischer: the increment is added after every move completed in time,
//!   starting with move 1, then capped; a move that overstepped gets none.
//!
//! ```
//! use kifu_clock::{Clock, ClockEvent, PauseReason, Player};
//! let tc = "sudden:30m".parse().unwrap();
//! let clock = Clock::project(tc, &[
//!     ClockEvent::Started { at_ms: 0, running: Player::Black },
//!     ClockEvent::Pressed { at_ms: 60_000, player: Player::Black },
//!     ClockEvent::Paused { at_ms: 70_000, reason: PauseReason::Toilet },
//! ]).unwrap();
//! assert_eq!(clock.player(Player::Black).main_ms, 1_740_000);
//! assert_eq!(clock.flag_at(), None); // no flag can fall during a pause
//! ```
#![deny(missing_docs)]

mod clock;
mod display;
mod error;
mod event;
pub mod notation;
mod player;
mod reading;
mod scenario;
pub mod sgf;
mod time_control;

pub use clock::{Clock, Effect, Flag, MoveRecord, Overtime, PlayerClock};
pub use display::{format_face, format_time, Resolution};
pub use error::ClockError;
pub use event::{ClockEvent, PauseReason};
pub use notation::{format_duration, parse_duration, parse_time_control, ParseError};
pub use player::Player;
pub use reading::{
    ClockReading, Discrepancy, PlayerFace, ReadingSource, ShownTime, SideDiscrepancy,
};
pub use scenario::{
    replay_scenario, Params, PlayerState, Scenario, ScenarioEvent, ScenarioOutput, StateAfterEvent,
    System, TimeLoss, VectorCheck, VectorVerdict,
};
pub use sgf::{
    sgf_move_properties, sgf_player_properties, sgf_root_properties, sgf_seconds,
    sgf_time_properties,
};
pub use time_control::TimeControl;
