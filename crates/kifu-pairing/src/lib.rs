//! McMahon and Swiss pairing as OpenGotha 3.51.02 draws it, so a draw
//! signed into a tournament chain can be derived again by anyone holding
//! the chain.
//!
//! [`pair`] takes a [`kifu_standings::Tournament`] (players, earlier
//! rounds, absences) and a round, and returns the [`Draw`]: who plays whom
//! on which table, with which colours and handicap, and who has the bye.
//! Every weight and switch is a field of [`PairingSettings`], with
//! OpenGotha's defaults for each system.
//!
//! The one decision a reader must know: **the draw is OpenGotha's cost
//! function followed by a maximum weight matching, reproduced to the unit,
//! and nothing else.** For every two players to pair a cost is computed
//! from the main criteria (no second game between the same players, the
//! score difference, draw-ups and draw-downs, the seeding inside a score
//! group) and the secondary ones (colour balance, handicap, clubs and
//! countries), with OpenGotha's weights, order of operations and integer
//! truncations ([`draw_cost`] totals them for any set of pairs); then
//! Edmonds' blossom algorithm ([`matching`]) finds the pairing of
//! greatest total cost.
//! There is no other rule: what OpenGotha's weights prefer is what kifu
//! prefers, so a director who knows OpenGotha knows kifu's draw. Where
//! several pairings share the greatest cost the two programs may choose
//! different ones; the cost of each shows they are equally good.
//!
//! The bye, colours, handicaps and table numbers follow OpenGotha's own
//! steps as well (`docs/TOURNAMENTS.md`, "Pairing").
//!
//! This crate does no I/O, reads no clock and draws no random number: the
//! one "random" term of OpenGotha's costs is a number computed from the
//! players' names. [`explain()`] says why each board of a draw is paired as
//! it is; [`apply_swaps`] makes a director's changes to a draw.
//! [`generate`] makes seeded random tournaments for tests
//! and benchmarks.
#![deny(missing_docs)]

mod cost;
mod draw;
pub mod explain;
mod field;
pub mod generate;
pub mod matching;
pub mod settings;
pub mod swap;

use std::collections::HashMap;

pub use draw::{draw_cost, pair, Board, Draw, GROUP_MAX, GROUP_MIN};
pub use explain::{explain, BoardWhy, ByeWhy, DrawWhy, PlayerWhy};
pub use settings::{DrawPosition, ExtraOrder, HandicapSettings, PairingSettings, Seeding, System};
pub use swap::{apply_swaps, SwapError};

use kifu_standings::{ModelError, PlayerScores, Tournament};

/// The version of the draw's rules: a signed draw names it, and a kifu
/// that re-derives a draw refuses a version it does not know. It changes
/// whenever any draw could come out differently.
pub const ENGINE: &str = "kifu-pairing/1 (OpenGotha 3.51.02)";

/// Why a round cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// The tournament itself does not hold together.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// A settings value outside what OpenGotha accepts.
    #[error("pairing settings: {0}")]
    Settings(String),
    /// A round outside the tournament.
    #[error("round {round} is outside 1..={rounds}")]
    NoSuchRound {
        /// The round asked.
        round: u32,
        /// The tournament's rounds.
        rounds: u32,
    },
    /// An odd number of players to pair, and the round's bye is given.
    #[error("round {round}: an odd number of players to pair, and the bye is already given to {player:?}")]
    ByeAlreadyGiven {
        /// The round.
        round: u32,
        /// Who has it.
        player: String,
    },
    /// A player's score lies outside OpenGotha's score scale (an SMMS
    /// correction outside −1..=2, or bye points above one a round).
    #[error("player {player:?} has main score {score} before the round, outside the scale {lowest}..={highest}")]
    ScoreOutsideScale {
        /// The player.
        player: String,
        /// Their main score, whole points.
        score: i64,
        /// The scale's lowest score.
        lowest: i64,
        /// The scale's highest score.
        highest: i64,
    },
    /// The matching was refused its weights (cannot happen with the costs
    /// computed here; kept typed rather than a panic).
    #[error(transparent)]
    Matching(#[from] matching::MatchingError),
    /// A player was left out of the matching of their group.
    #[error("player {player:?} was left without an opponent")]
    Unmatched {
        /// The player.
        player: String,
    },
    /// A pair names an unregistered player.
    #[error("player {0:?} is not registered")]
    UnknownPlayer(String),
}

/// Every player's scores after `round`, by id.
pub(crate) fn scores_by_id(
    t: &Tournament,
    round: u32,
) -> Result<HashMap<String, PlayerScores>, PairingError> {
    Ok(kifu_standings::scores(t, round)?
        .into_iter()
        .map(|s| (s.player.clone(), s))
        .collect())
}
