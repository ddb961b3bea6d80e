//! How a game ended, and the clause behind it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::forbidden::Verdict;
use crate::point::{Point, Stone};

/// One of the two people at the board, independent of the colour they hold.
///
/// `First` is the player who starts the opening (the tentative Black); swaps during the
/// opening decide who ends up with Black ([`crate::RenjuGame::black_player`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum PlayerId {
    /// The player who begins the opening (tentative Black).
    First,
    /// The other player (tentative White).
    Second,
}

impl PlayerId {
    /// The other player.
    pub fn opponent(self) -> PlayerId {
        match self {
            PlayerId::First => PlayerId::Second,
            PlayerId::Second => PlayerId::First,
        }
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayerId::First => "first",
            PlayerId::Second => "second",
        })
    }
}

/// Why the game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum ResultReason {
    /// The winner declared the five (or, for White, the overline) made by this move.
    Five {
        /// Number of the winning move (1 = first stone).
        move_number: u16,
        /// Where the winning stone was put.
        point: Point,
    },
    /// White pointed out a forbidden move of Black and the claim held.
    ForbiddenMove {
        /// Number of the forbidden move.
        move_number: u16,
        /// Where Black put the stone.
        point: Point,
        /// The kind computed for the move when it was played.
        kind: Verdict,
    },
    /// The loser resigned.
    Resignation,
    /// The loser's time ran out.
    TimeExpired,
    /// One player offered a draw after his move and the other accepted.
    DrawAgreed,
    /// All 225 points are occupied and nobody claimed victory.
    FullBoard,
    /// Both players passed in succession.
    TwoPasses,
}

/// The result of a game: who won, with which colour, why, and under which clause.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RenjuResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<PlayerId>,
    /// The colour the winner held, or `None` for a draw.
    pub winner_colour: Option<Stone>,
    /// Why the game ended.
    #[serde(flatten)]
    pub reason: ResultReason,
    /// True when a referee's ruling decided the claim that ended the game.
    pub ruled_by_referee: bool,
}

impl RenjuResult {
    pub(crate) fn win(player: PlayerId, colour: Stone, reason: ResultReason) -> RenjuResult {
        RenjuResult {
            winner: Some(player),
            winner_colour: Some(colour),
            reason,
            ruled_by_referee: false,
        }
    }

    pub(crate) fn draw(reason: ResultReason) -> RenjuResult {
        RenjuResult {
            winner: None,
            winner_colour: None,
            reason,
            ruled_by_referee: false,
        }
    }

    /// True for a drawn game.
    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// The rule clause behind the result.
    pub fn rule_ref(&self) -> &'static str {
        match &self.reason {
            ResultReason::Five { .. } => {
                "RIF 9.1; RIF tournament rules: the player declares the five (\"five\" or pointing at the line)"
            }
            ResultReason::ForbiddenMove {
                kind: Verdict::Overline,
                ..
            } => "RIF 9.2a, claimed by White (RIF 9.8: an overline stays claimable)",
            ResultReason::ForbiddenMove { .. } => {
                "RIF 9.2, claimed by White before White's next move (RIF 9.8)"
            }
            ResultReason::Resignation => "RIF tournament rules: the opponent resigns the game",
            ResultReason::TimeExpired => {
                "RIF tournament rules: the opponent's time runs out (RIF 14.8)"
            }
            ResultReason::DrawAgreed => {
                "RIF 10.2; RIF tournament rules: draw offered after one's own move and accepted"
            }
            ResultReason::FullBoard => {
                "RIF 10.1; RIF tournament rules: the board is full and nobody claims victory"
            }
            ResultReason::TwoPasses => {
                "RIF 10.3; RIF tournament rules: two consecutive passes"
            }
        }
    }
}
