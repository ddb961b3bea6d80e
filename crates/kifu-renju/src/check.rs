//! The scripted query behind `kifu renju check`: one position, one point, one verdict.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::error::Error;
use crate::forbidden::{verdict, Verdict};
use crate::point::{Move, Point, Stone};
use crate::rule::Rule;

/// The answer to a [`check`] query. Serialises to exactly
/// `{"verdict": "...", "forbidden": bool}`.
///
/// ```
/// use kifu_renju::{CheckOutput, Verdict};
/// let out = CheckOutput::from(Verdict::DoubleThree);
/// assert_eq!(
///     serde_json_like(&out),
///     r#"{"verdict":"double_three","forbidden":true}"#
/// );
/// # fn serde_json_like(o: &CheckOutput) -> String {
/// #     format!(r#"{{"verdict":"{}","forbidden":{}}}"#, o.verdict, o.forbidden)
/// # }
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct CheckOutput {
    /// What the stone would make.
    pub verdict: Verdict,
    /// True iff the verdict is a forbidden move (overline, double-four, double-three).
    pub forbidden: bool,
}

impl From<Verdict> for CheckOutput {
    fn from(verdict: Verdict) -> CheckOutput {
        CheckOutput {
            verdict,
            forbidden: verdict.is_forbidden(),
        }
    }
}

/// The verdict for `color` playing `query` in the position made of `black` and `white` stones.
///
/// Errors: a point listed twice ([`Error::DuplicateStone`]) or an occupied query point
/// ([`Error::QueryOccupied`]). No side to move is assumed: the position is taken as given.
///
/// ```
/// use kifu_renju::{check, parse_points, Rule, Stone, Verdict};
/// let black = parse_points("d8,e8,f8,g8").unwrap();
/// let out = check(&black, &[], "h8".parse().unwrap(), Stone::Black, Rule::RifRenju).unwrap();
/// assert_eq!(out.verdict, Verdict::Five);
/// assert!(!out.forbidden);
/// ```
pub fn check(
    black: &[Point],
    white: &[Point],
    query: Point,
    color: Stone,
    rule: Rule,
) -> Result<CheckOutput, Error> {
    let board = Board::from_stones(black, white)?;
    verdict(&board, query, color, rule).map(CheckOutput::from)
}

/// Splits an alternating move list (Black first, `pass` allowed) into Black's and White's
/// stones, as `kifu renju check --moves h8,i9,...` needs. A point played twice is
/// [`Error::DuplicateStone`]. Also returns the colour to move after the list.
///
/// ```
/// use kifu_renju::{parse_moves, stones_from_moves, Stone};
/// let moves = parse_moves("h8,i9,pass,h10").unwrap();
/// let (black, white, to_move) = stones_from_moves(&moves).unwrap();
/// assert_eq!(black.len(), 1);
/// assert_eq!(white.len(), 2);
/// assert_eq!(to_move, Stone::Black);
/// ```
pub fn stones_from_moves(moves: &[Move]) -> Result<(Vec<Point>, Vec<Point>, Stone), Error> {
    let mut board = Board::new();
    let mut black = Vec::new();
    let mut white = Vec::new();
    let mut colour = Stone::Black;
    for m in moves {
        if let Move::Stone(p) = *m {
            board.place(p, colour)?;
            match colour {
                Stone::Black => black.push(p),
                Stone::White => white.push(p),
            }
        }
        colour = colour.opponent();
    }
    Ok((black, white, colour))
}
