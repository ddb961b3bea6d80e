//! Points as people read them: Go as a printed board and GTP write them,
//! Renju as the RIF writes them. SGF letters belong to SGF files only.
//!
//! The ledger stores a point as a column and a row counted from the top-left
//! corner from 0 (the SGF convention, `docs/FORMAT.md`). A referee reads the
//! board's own labels instead:
//!
//! - Go: column letters `A`–`T` without `I`, rows numbered from the bottom,
//!   as on a printed board and in GTP (`Q16` is the upper-right star point of
//!   a 19x19 board);
//! - Renju and Gomoku: column letters `a`–`o` (no letter skipped) and rows
//!   `1`–`15` from the bottom; `h8` is the centre, as the RIF's game
//!   records and RenjuNet write them (the spelling of `kifu_renju::Point`).
//!
//! A point the board does not have is never given a label it could be
//! mistaken for: it is written by its distance from the top-left corner.

use kifu_ledger::{GameKind, Genesis, Point};

/// Go's column letters: the letter `I` is skipped (GTP, printed boards).
const GO_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
/// Renju's column letters: no letter is skipped.
const RIF_LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";

/// How the points of one game are written: the game's labels and board size.
///
/// ```
/// use kifu_game::Notation;
/// use kifu_ledger::{GameKind, Point};
/// let go = Notation::new(GameKind::Go, 19);
/// assert_eq!(go.point(Point { x: 15, y: 3 }), "Q16");
/// assert_eq!(go.point(Point { x: 8, y: 18 }), "J1");
/// let renju = Notation::new(GameKind::Renju, 15);
/// assert_eq!(renju.point(Point { x: 7, y: 7 }), "h8");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notation {
    letters: &'static [u8],
    size: u8,
}

impl Default for Notation {
    /// A 19x19 Go board: the labels used before a genesis says otherwise.
    fn default() -> Notation {
        Notation::new(GameKind::Go, 19)
    }
}

impl Notation {
    /// The labels of a board of `size` lines for `game`.
    pub fn new(game: GameKind, size: u8) -> Notation {
        let letters = match game {
            GameKind::Go => GO_LETTERS,
            GameKind::Renju | GameKind::GomokuFreestyle | GameKind::GomokuStandard => RIF_LETTERS,
        };
        Notation { letters, size }
    }

    /// The labels of the game a genesis creates.
    pub fn of(genesis: &Genesis) -> Notation {
        Notation::new(genesis.game, genesis.board_size)
    }

    /// Whether the board has this point.
    pub fn on_board(&self, p: Point) -> bool {
        p.x < self.size && p.y < self.size && usize::from(p.x) < self.letters.len()
    }

    /// A point as the board labels it (`Q16`, `h8`); a point off the board
    /// by its place from the top-left corner.
    pub fn point(&self, p: Point) -> String {
        if !self.on_board(p) {
            return off_board(p, self.size);
        }
        let letter = char::from(self.letters[usize::from(p.x)]);
        format!("{letter}{}", self.size - p.y)
    }

    /// The column labels along the board's edge, left to right (`A`–`J`
    /// without `I` on a 9x9 Go board, `a`–`o` in Renju).
    pub fn column_labels(&self) -> Vec<char> {
        self.letters
            .iter()
            .take(usize::from(self.size))
            .map(|b| char::from(*b))
            .collect()
    }

    /// Points as the board labels them, joined with commas; `none` for none.
    pub fn points(&self, ps: &[Point]) -> String {
        if ps.is_empty() {
            return "none".into();
        }
        ps.iter()
            .map(|p| self.point(*p))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A point the board does not have, by its place from the top-left corner:
/// `off the 19x19 board (column 21, row 4 from the top left)`.
pub fn off_board(p: Point, size: u8) -> String {
    format!(
        "off the {size}x{size} board (column {}, row {} from the top left)",
        u32::from(p.x) + 1,
        u32::from(p.y) + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    #[test]
    fn the_columns_are_labelled_as_the_board_is() {
        let go: String = Notation::new(GameKind::Go, 9)
            .column_labels()
            .iter()
            .collect();
        assert_eq!(go, "ABCDEFGHJ");
        assert_eq!(Notation::new(GameKind::Go, 19).column_labels()[18], 'T');
        let renju: String = Notation::new(GameKind::Renju, 15)
            .column_labels()
            .iter()
            .collect();
        assert_eq!(renju, "abcdefghijklmno");
    }

    #[test]
    fn go_points_read_as_on_a_printed_board() {
        let n = Notation::new(GameKind::Go, 19);
        // The four corners and the star points a referee names.
        assert_eq!(n.point(at(0, 0)), "A19");
        assert_eq!(n.point(at(18, 18)), "T1");
        assert_eq!(n.point(at(3, 15)), "D4");
        assert_eq!(n.point(at(15, 3)), "Q16");
        assert_eq!(n.point(at(9, 9)), "K10");
        // The column after H is J: there is no I on a Go board.
        assert_eq!(n.point(at(7, 0)), "H19");
        assert_eq!(n.point(at(8, 0)), "J19");
        let nine = Notation::new(GameKind::Go, 9);
        assert_eq!(nine.point(at(4, 4)), "E5");
        assert_eq!(nine.point(at(8, 0)), "J9");
    }

    #[test]
    fn renju_points_read_as_the_rif_writes_them() {
        let n = Notation::new(GameKind::Renju, 15);
        assert_eq!(n.point(at(7, 7)), "h8");
        assert_eq!(n.point(at(0, 14)), "a1");
        assert_eq!(n.point(at(14, 0)), "o15");
        // The RIF does not skip i.
        assert_eq!(n.point(at(8, 7)), "i8");
        let gomoku = Notation::new(GameKind::GomokuFreestyle, 15);
        assert_eq!(gomoku.point(at(7, 7)), "h8");
    }

    #[test]
    fn off_board_points_get_no_board_label() {
        let n = Notation::new(GameKind::Go, 19);
        assert_eq!(
            n.point(at(20, 3)),
            "off the 19x19 board (column 21, row 4 from the top left)"
        );
        assert_eq!(
            Notation::new(GameKind::Go, 25).point(at(25, 0)),
            "off the 25x25 board (column 26, row 1 from the top left)"
        );
        assert!(!Notation::new(GameKind::Renju, 15).on_board(at(15, 0)));
    }

    #[test]
    fn lists_of_points() {
        let n = Notation::new(GameKind::Go, 9);
        assert_eq!(n.points(&[]), "none");
        assert_eq!(n.points(&[at(0, 8), at(2, 6)]), "A1, C3");
    }
}
