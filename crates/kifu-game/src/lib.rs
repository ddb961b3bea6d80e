//! The game projection of **kifu**: the whole state of a Go, Renju or Gomoku
//! game at any recorded event, derived from the signed facts alone, with the
//! rule behind every consequence.
//!
//! An appeals committee opens a game here. [`GameState`] holds the board and
//! prisoners, whose turn it is, both clocks (running, paused and why, flags
//! fallen), the phase, illegal moves pointed out and their remedies,
//! irregularities and their fixes, disputes, referee rulings and what they
//! changed, protests, appeals, the committee and its decisions, sanctions,
//! and the result the rules give beside every result declared and signed.
//! Each [`Consequence`] names its rule: document (file in the project's
//! `docs/rules/`) and clause.
//!
//! # The one design decision: facts in, meaning out, nothing refused
//!
//! [`GameState::apply`] takes any validly signed event and never refuses it
//! and never panics: the ledger records what happened, and the projection
//! says what it means. An out-of-turn move is applied and flagged; a ruling
//! on a matter the committee already decided is kept and shown to have no
//! effect; a result sheet that disagrees with the rules is shown beside them,
//! never corrected. The projection is a pure function of the events (no I/O,
//! no wall clock, no randomness), so [`GameState::replay`] of a prefix and
//! applying the same events one at a time give equal states.
//!
//! Remedies that take moves back (an illegal move unwound, a referee's
//! unwinding, a game restarted after a colour error) are applied by keeping
//! the list of board operations that stand and rebuilding the board from the
//! setup; see [`go`].
//!
//! ```
//! use kifu_game::GameState;
//! use kifu_ledger::testkit::{sample_game, Cast};
//! let chain = sample_game(&Cast::new(), "doc");
//! let events: Vec<_> = chain.records.iter().map(|r| r.decode().unwrap()).collect();
//! let state = GameState::replay(&events);
//! assert_eq!(state.result.declared.len(), 1);
//! assert_eq!(GameState::at(&events, 3).at_seq, Some(3));
//! ```
#![deny(missing_docs)]

pub mod agreed;
mod arbitration;
pub mod case;
pub mod cite;
mod clock;
pub mod convert;
pub mod demo;
pub mod digest;
pub mod document;
mod ending;
pub mod explanation;
pub mod forbidden;
mod genesis_check;
pub mod go;
mod illegal;
mod irregular;
pub mod listing;
mod moves;
pub mod new_game;
mod notation;
mod pairing;
pub mod powers;
pub mod preview;
pub mod record;
pub mod renju;
mod renju_input;
mod results;
pub mod rules_of;
pub mod sanctions;
pub mod seat;
pub mod sgf_export;
pub mod sgf_import;
pub mod start;
pub mod state;
pub mod state_text;
pub mod story;
pub mod text;
pub mod view;
pub mod words;

pub use cite::Consequence;

/// Checks a genesis's overrides against the rules it names, with the one
/// override rule every ruleset follows (`kifu_go::Ruleset::apply_override`,
/// `kifu_renju::GameSettings::apply_override`): applied in order, unknown
/// keys and values refused. A command that creates games calls it before
/// signing; the projection itself never refuses a recorded genesis.
///
/// # Errors
///
/// The first override refused, in words.
pub fn check_overrides(g: &kifu_ledger::Genesis) -> Result<(), String> {
    let rules = rules_of::rules_of(g, None);
    if let (rules_of::GameRules::Go(_), Some((why, _))) = (&rules.rules, rules.unknown_profile) {
        return Err(why);
    }
    match rules.refused_overrides.into_iter().next() {
        Some(why) => Err(why),
        None => Ok(()),
    }
}
pub use clock::{ClockFace, MoveClocks};
pub use genesis_check::{
    check_genesis_values, default_ruleset, profile_komi, tournament_game_komi, GenesisError,
};
pub use new_game::NewGame;
pub use notation::Notation;
pub use record::*;
pub use results::LATE_ARRIVAL_FORFEIT_MS;
pub use sanctions::{sanction_history, HistoryEntry, PlayerHistory};
pub use state::{BoardState, ClockState, GameState};
pub use state_text::StateText;
pub use text::{half_points, result_text, sgf_point};
