//! The 15x15 board: which point holds which stone.

use std::fmt;

use crate::error::Error;
use crate::point::{Point, Stone, BOARD_POINTS, BOARD_SIZE};

/// Width of the wall around the playing area. Line scans look at most five points beyond a
/// stone, so a margin of five lets them run without bounds checks.
pub(crate) const MARGIN: usize = 5;
/// Width of a padded row.
pub(crate) const STRIDE: usize = BOARD_SIZE as usize + 2 * MARGIN;
const CELLS: usize = STRIDE * STRIDE;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const WALL: u8 = 3;

/// The four line directions as steps in the padded array: row, column and both diagonals.
pub(crate) const DIRECTIONS: [isize; 4] =
    [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

pub(crate) fn cell_of(stone: Stone) -> u8 {
    match stone {
        Stone::Black => BLACK,
        Stone::White => WHITE,
    }
}

/// A position: stones on points. No side to move and no history; see [`crate::RenjuGame`] for that.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
    stones: u16,
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// The empty board.
    pub fn new() -> Board {
        let mut cells = [WALL; CELLS];
        for p in Point::all() {
            cells[padded(p)] = EMPTY;
        }
        Board { cells, stones: 0 }
    }

    /// Builds a position from Black's and White's stones. A point listed twice, in the same
    /// list or in both, is an error.
    ///
    /// ```
    /// use kifu_renju::{Board, Point, Stone};
    /// let h8: Point = "h8".parse().unwrap();
    /// let board = Board::from_stones(&[h8], &[]).unwrap();
    /// assert_eq!(board.get(h8), Some(Stone::Black));
    /// assert!(Board::from_stones(&[h8], &[h8]).is_err());
    /// ```
    pub fn from_stones(black: &[Point], white: &[Point]) -> Result<Board, Error> {
        let mut board = Board::new();
        for (list, stone) in [(black, Stone::Black), (white, Stone::White)] {
            for &p in list {
                board.place(p, stone)?;
            }
        }
        Ok(board)
    }

    /// The stone on `p`, if any.
    pub fn get(&self, p: Point) -> Option<Stone> {
        match self.cells[padded(p)] {
            BLACK => Some(Stone::Black),
            WHITE => Some(Stone::White),
            _ => None,
        }
    }

    /// True when `p` holds no stone.
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.cells[padded(p)] == EMPTY
    }

    /// Puts `stone` on `p`; an occupied point is [`Error::DuplicateStone`].
    pub fn place(&mut self, p: Point, stone: Stone) -> Result<(), Error> {
        let i = padded(p);
        if self.cells[i] != EMPTY {
            return Err(Error::DuplicateStone { point: p });
        }
        self.cells[i] = cell_of(stone);
        self.stones += 1;
        Ok(())
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        usize::from(self.stones)
    }

    /// True when all 225 points are occupied (RIF 10.1).
    pub fn is_full(&self) -> bool {
        self.stone_count() == BOARD_POINTS
    }

    /// All stones of one colour, in row-major order.
    pub fn stones_of(&self, stone: Stone) -> Vec<Point> {
        Point::all()
            .filter(|&p| self.get(p) == Some(stone))
            .collect()
    }

    /// The padded cell array used by the line scans.
    pub(crate) fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// A copy of the padded cell array, for scans that place and lift stones tentatively.
    pub(crate) fn cells_copy(&self) -> [u8; CELLS] {
        self.cells
    }
}

/// Index of `p` in the padded array.
pub(crate) fn padded(p: Point) -> usize {
    (usize::from(p.row()) + MARGIN) * STRIDE + usize::from(p.column()) + MARGIN
}

/// Shows the board as RenjuNet diagrams do: row 15 at the top, `X` Black, `O` White.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..BOARD_SIZE).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for column in 0..BOARD_SIZE {
                let c = match Point::new(column, row).and_then(|p| self.get(p)) {
                    Some(Stone::Black) => 'X',
                    Some(Stone::White) => 'O',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for column in 0..BOARD_SIZE {
            write!(f, " {}", char::from(b'a' + column))?;
        }
        writeln!(f)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
