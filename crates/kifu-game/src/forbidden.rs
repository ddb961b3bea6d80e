//! The points where a black stone would be forbidden, on the board a Renju
//! game shows at one event: what the replay page marks when asked.
//!
//! The verdicts are `kifu-renju`'s ([`kifu_renju::forbidden_points`]), so the
//! page and the referee's engine cannot disagree. Only the board's black
//! stones matter: after a swap of the opening the seat holding Black changes,
//! the colour does not. Under a rule without forbidden moves (free-style or
//! standard Gomoku) the list is empty; for a Go game, or before the genesis,
//! there is no list at all.

use kifu_renju::{Rule, Stone};
use serde::Serialize;

use crate::state::{BoardState, GameState};

/// One empty point where Black may not play, and why.
///
/// Serialises as `{"point": "h8", "reason": "double_three"}`: the point in
/// RIF notation (column `a`–`o` from the left, row `1`–`15` from the
/// bottom), the reason one of `double_three`, `double_four`, `overline`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ForbiddenPoint {
    /// The point, e.g. `h8`.
    pub point: String,
    /// `double_three`, `double_four` or `overline`.
    pub reason: &'static str,
}

/// The points forbidden to Black on the board of `state`, in board order
/// (row 1 first, then column `a` first), or `None` when the game has no
/// Renju board.
///
/// RIF rules of Renju 9.2 and 9.3: a black overline, double-four or
/// double-three is forbidden; White has no forbidden moves. The rule comes
/// from the game's genesis (its profile and overrides).
pub fn forbidden_for_black(state: &GameState) -> Option<Vec<ForbiddenPoint>> {
    let BoardState::Renju(board) = &state.board else {
        return None;
    };
    let game = board.game();
    let rule: Rule = game.settings().rule;
    if !rule.has_forbidden_moves(Stone::Black) {
        return Some(Vec::new());
    }
    Some(
        kifu_renju::forbidden_points(game.board())
            .into_iter()
            .filter(|(_, v)| v.is_forbidden())
            .map(|(p, v)| ForbiddenPoint {
                point: p.to_string(),
                reason: v.name(),
            })
            .collect(),
    )
}
