//! Verdicts for a stone: five, forbidden move (RIF 9.2, 9.3) or legal.
//!
//! The scan follows the RIF definitions (RIF 3) literally, for Black's stone `p`:
//!
//! 1. an unbroken row of exactly five through `p` wins, whatever else the stone makes (RIF 9.2);
//! 2. otherwise an unbroken row of six or more is an overline;
//! 3. otherwise two or more distinct fours through `p` are a double-four. A *four* is a row to
//!    which one stone can be added to attain five, and for Black five means exactly five, so
//!    `X.XXXX` is not a four; a straight four is one four; `X.XXX.X` on one line is two;
//! 4. otherwise two or more lines holding a *three* through `p` are a double-three. A three is a
//!    row to which one stone `q` can be added to attain a straight four, *without at the same
//!    time making a five* (RIF 3, "three"), where `q` is itself not forbidden (RIF 9.3). The
//!    second condition is checked by classifying `q` with this same procedure, recursively, on
//!    the board holding `p`: every level adds a stone, so the recursion ends, and it goes as
//!    deep as the position needs.
//!
//! The order of the checks fixes which reason is reported when a stone is forbidden for more
//! than one (five > overline > double-four > double-three, the Piskvork order); legality does
//! not depend on it.

use serde::{Deserialize, Serialize};

use crate::board::{cell_of, padded, Board, BLACK, DIRECTIONS, EMPTY};
use crate::error::Error;
use crate::point::{Point, Stone};
use crate::rule::Rule;

/// What a stone on a point would make, in the vocabulary of the test vectors.
///
/// Serialises as `five`, `overline`, `double_four`, `double_three`, `legal`,
/// `five_or_overline_win`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// An unbroken row of exactly five: wins, even if the same stone makes forbidden shapes (RIF 9.2).
    Five,
    /// Black makes six or more in a row without a five: forbidden (RIF 9.2a).
    Overline,
    /// Black makes two or more fours at once without a five: forbidden (RIF 9.2b).
    DoubleFour,
    /// Black makes two or more real threes at once without a five: forbidden (RIF 9.2c, 9.3).
    DoubleThree,
    /// None of the above: the stone neither wins nor is forbidden.
    Legal,
    /// A colour for which five or more wins (White under RIF 9.1, both in free-style gomoku)
    /// makes five or more in a row.
    FiveOrOverlineWin,
}

impl Verdict {
    /// True for the three forbidden kinds.
    pub fn is_forbidden(self) -> bool {
        matches!(
            self,
            Verdict::Overline | Verdict::DoubleFour | Verdict::DoubleThree
        )
    }

    /// True when the stone makes a winning row.
    pub fn is_win(self) -> bool {
        matches!(self, Verdict::Five | Verdict::FiveOrOverlineWin)
    }

    /// The name used in JSON and the test vectors.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Five => "five",
            Verdict::Overline => "overline",
            Verdict::DoubleFour => "double_four",
            Verdict::DoubleThree => "double_three",
            Verdict::Legal => "legal",
            Verdict::FiveOrOverlineWin => "five_or_overline_win",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict for `colour` putting a stone on the empty point `point` of `board` under `rule`.
///
/// ```
/// use kifu_renju::{verdict, Board, Point, Rule, Stone, Verdict};
/// let p = |s: &str| s.parse::<Point>().unwrap();
/// // Two open threes meet at h8.
/// let board = Board::from_stones(&[p("f8"), p("g8"), p("h9"), p("h10")], &[]).unwrap();
/// let v = verdict(&board, p("h8"), Stone::Black, Rule::RifRenju).unwrap();
/// assert_eq!(v, Verdict::DoubleThree);
/// // White has no forbidden moves (RIF 9.2).
/// assert_eq!(verdict(&board, p("h8"), Stone::White, Rule::RifRenju).unwrap(), Verdict::Legal);
/// ```
pub fn verdict(board: &Board, point: Point, colour: Stone, rule: Rule) -> Result<Verdict, Error> {
    if !board.is_empty_at(point) {
        return Err(Error::QueryOccupied { point });
    }
    if rule.has_forbidden_moves(colour) {
        let mut cells = board.cells_copy();
        let i = padded(point);
        cells[i] = BLACK;
        Ok(classify_black_placed(&mut cells, i))
    } else {
        Ok(line_verdict(board.cells(), padded(point), colour, rule))
    }
}

/// Verdict for colours without forbidden moves: only whether the stone makes a winning row.
fn line_verdict(cells: &[u8], i: usize, colour: Stone, rule: Rule) -> Verdict {
    let c = cell_of(colour);
    let exact = rule.needs_exact_five(colour);
    let mut win = false;
    for d in DIRECTIONS {
        // The point itself is empty; count as if the stone were there.
        let n = 1 + count_dir(cells, i, d, c) + count_dir(cells, i, -d, c);
        win |= if exact { n == 5 } else { n >= 5 };
    }
    match (win, exact) {
        (false, _) => Verdict::Legal,
        (true, true) => Verdict::Five,
        (true, false) => Verdict::FiveOrOverlineWin,
    }
}

/// Consecutive stones of cell value `c` from `i` (exclusive) stepping by `d`.
#[inline]
fn count_dir(cells: &[u8], i: usize, d: isize, c: u8) -> isize {
    let mut n = 0;
    let mut j = i.wrapping_add_signed(d);
    while cells[j] == c {
        n += 1;
        j = j.wrapping_add_signed(d);
    }
    n
}

#[inline]
fn at(i: usize, k: isize, d: isize) -> usize {
    i.wrapping_add_signed(k * d)
}

/// Classifies the black stone already placed at `i` (RIF 9.2, 9.3). `cells` is restored on return.
pub(crate) fn classify_black_placed(cells: &mut [u8], i: usize) -> Verdict {
    let mut five = false;
    let mut overline = false;
    for d in DIRECTIONS {
        let n = 1 + count_dir(cells, i, d, BLACK) + count_dir(cells, i, -d, BLACK);
        five |= n == 5;
        overline |= n >= 6;
    }
    // RIF 9.2: a five made at the same time wins, whatever else the stone makes.
    if five {
        return Verdict::Five;
    }
    if overline {
        return Verdict::Overline;
    }
    let mut fours = 0;
    for d in DIRECTIONS {
        fours += count_fours(cells, i, d);
        if fours >= 2 {
            return Verdict::DoubleFour;
        }
    }
    let mut threes = 0;
    for d in DIRECTIONS {
        if is_three(cells, i, d) {
            threes += 1;
            if threes >= 2 {
                return Verdict::DoubleThree;
            }
        }
    }
    Verdict::Legal
}

/// Number of distinct fours through the black stone at `i` on the line `d` (RIF 3, "four"):
/// sets of four stones with `i` among them that one added stone turns into exactly five.
fn count_fours(cells: &mut [u8], i: usize, d: isize) -> u32 {
    // A four is identified by its stones, as a bit set of offsets -8..=8 from `i`.
    let mut seen = [0u32; 8];
    let mut distinct = 0usize;
    for k in (-4..=4).filter(|&k| k != 0) {
        let q = at(i, k, d);
        if cells[q] != EMPTY {
            continue;
        }
        let back = count_dir(cells, q, -d, BLACK);
        let fwd = count_dir(cells, q, d, BLACK);
        if back + fwd + 1 != 5 {
            continue;
        }
        let (start, end) = (k - back, k + fwd);
        if start > 0 || end < 0 {
            continue;
        }
        let mask = (start..=end)
            .filter(|&o| o != k)
            .fold(0u32, |m, o| m | 1 << (o + 8));
        if !seen[..distinct].contains(&mask) {
            seen[distinct] = mask;
            distinct += 1;
        }
    }
    // At most two distinct fours fit on one line through one stone.
    distinct as u32
}

/// Whether the line `d` through the black stone at `i` holds a three (RIF 3, "three", with
/// RIF 9.3): some empty `q` turns it into a straight four containing `i`, and `q` is neither
/// a five nor forbidden for Black on the board that already holds `i`.
fn is_three(cells: &mut [u8], i: usize, d: isize) -> bool {
    for k in (-3..=3).filter(|&k| k != 0) {
        let q = at(i, k, d);
        if cells[q] != EMPTY {
            continue;
        }
        let back = count_dir(cells, q, -d, BLACK);
        let fwd = count_dir(cells, q, d, BLACK);
        if back + fwd + 1 != 4 {
            continue;
        }
        let (start, end) = (k - back, k + fwd);
        if start > 0 || end < 0 {
            continue;
        }
        // Straight four: both ends empty, and filling either end gives exactly five for
        // Black, so the point beyond each end must not be black.
        let straight = cells[at(i, start - 1, d)] == EMPTY
            && cells[at(i, end + 1, d)] == EMPTY
            && cells[at(i, start - 2, d)] != BLACK
            && cells[at(i, end + 2, d)] != BLACK;
        if !straight {
            continue;
        }
        cells[q] = BLACK;
        // RIF 3: "without at the same time a five in a row is made" (a Five here disqualifies
        // the three: the literal reading); RIF 9.3: q must not itself be forbidden.
        let real = classify_black_placed(cells, q) == Verdict::Legal;
        cells[q] = EMPTY;
        if real {
            return true;
        }
    }
    false
}

/// Every empty point where a black stone would be forbidden under RIF rules, with its kind.
///
/// ```
/// use kifu_renju::{forbidden_points, Board, Point, Verdict};
/// let p = |s: &str| s.parse::<Point>().unwrap();
/// let board = Board::from_stones(&[p("f8"), p("g8"), p("h9"), p("h10")], &[]).unwrap();
/// assert!(forbidden_points(&board).contains(&(p("h8"), Verdict::DoubleThree)));
/// ```
pub fn forbidden_points(board: &Board) -> Vec<(Point, Verdict)> {
    let mut cells = board.cells_copy();
    let mut out = Vec::new();
    for p in Point::all() {
        let i = padded(p);
        if cells[i] != EMPTY {
            continue;
        }
        cells[i] = BLACK;
        let v = classify_black_placed(&mut cells, i);
        cells[i] = EMPTY;
        if v.is_forbidden() {
            out.push((p, v));
        }
    }
    out
}
