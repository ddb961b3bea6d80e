//! The scripted query behind `kifu renju check`: one position, one point, one verdict.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::error::Error;
use crate::forbidden::{verdict, Verdict};
use crate::point::{Move, Point, Stone};
use crate::rule::Rule;

/// The answer to a [`check`] query (`kifu renju check --json`): what a
/// stone at the queried point would make, under the RIF rules of Renju
/// (9.2, 9.3) or the Gomoku rule given. Serialises to exactly
/// `{"verdict": "...", "forbidden": bool}`.
///
/// ```
/// use kifu_renju::{CheckOutput, Verdict};
/// let out = CheckOutput::from(Verdict::DoubleThree);
/// assert_eq!(
///     serde_json::to_string(&out).unwrap(),
///     r#"{"verdict":"double_three","forbidden":true}"#
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_points;

    fn pts(s: &str) -> Vec<Point> {
        parse_points(s).unwrap()
    }

    #[test]
    fn duplicate_stones_and_occupied_queries_are_errors() {
        let h8: Point = "h8".parse().unwrap();
        assert_eq!(
            check(&pts("a1,a1"), &[], h8, Stone::Black, Rule::RifRenju),
            Err(Error::DuplicateStone {
                point: "a1".parse().unwrap()
            })
        );
        assert_eq!(
            check(&pts("a1"), &pts("a1"), h8, Stone::Black, Rule::RifRenju),
            Err(Error::DuplicateStone {
                point: "a1".parse().unwrap()
            })
        );
        assert_eq!(
            check(&pts("h8"), &[], h8, Stone::White, Rule::RifRenju),
            Err(Error::QueryOccupied { point: h8 })
        );
        let moves = crate::point::parse_moves("h8,i9,h8").unwrap();
        assert!(matches!(
            stones_from_moves(&moves),
            Err(Error::DuplicateStone { .. })
        ));
    }

    #[test]
    fn four_three_is_legal_for_black() {
        // Row e8-g8 + h8 makes a four (closed by White at d8); column h9-h10 a three.
        let out = check(
            &pts("e8,f8,g8,h9,h10"),
            &pts("d8"),
            "h8".parse().unwrap(),
            Stone::Black,
            Rule::RifRenju,
        )
        .unwrap();
        assert_eq!(out.verdict, Verdict::Legal);
    }

    #[test]
    fn the_three_rule_values_judge_a_six_differently() {
        // d8 e8 f8 _ h8 i8: g8 makes six in a row.
        let black = pts("d8,e8,f8,h8,i8");
        let g8: Point = "g8".parse().unwrap();
        let v = |colour, rule| check(&black, &[], g8, colour, rule).unwrap().verdict;
        assert_eq!(v(Stone::Black, Rule::RifRenju), Verdict::Overline);
        assert_eq!(
            v(Stone::Black, Rule::GomokuFreestyle),
            Verdict::FiveOrOverlineWin
        );
        assert_eq!(v(Stone::Black, Rule::GomokuStandard), Verdict::Legal);
        // The same shape in White's stones.
        let w = |rule| check(&[], &black, g8, Stone::White, rule).unwrap().verdict;
        assert_eq!(w(Rule::RifRenju), Verdict::FiveOrOverlineWin);
        assert_eq!(w(Rule::GomokuStandard), Verdict::Legal);
        // Exact five: five under the exact rules, five-or-more under the others.
        let five = pts("d8,e8,f8,h8");
        assert_eq!(
            check(&five, &[], g8, Stone::Black, Rule::GomokuStandard)
                .unwrap()
                .verdict,
            Verdict::Five
        );
        assert_eq!(
            check(&[], &five, g8, Stone::White, Rule::RifRenju)
                .unwrap()
                .verdict,
            Verdict::FiveOrOverlineWin
        );
    }

    #[test]
    fn double_three_and_double_four_are_not_forbidden_in_gomoku() {
        let black = pts("f8,g8,h9,h10");
        for rule in [Rule::GomokuFreestyle, Rule::GomokuStandard] {
            let out = check(&black, &[], "h8".parse().unwrap(), Stone::Black, rule).unwrap();
            assert_eq!(out.verdict, Verdict::Legal);
            assert!(!out.forbidden);
        }
    }
}
