//! Intersections of the board and their SGF and GTP spellings.

use serde::{Deserialize, Serialize};

use crate::Error;

/// Smallest board size the engine accepts.
pub const MIN_SIZE: u8 = 2;
/// Largest board size the engine accepts (SGF letters `a`..`y`, GTP letters `A`..`Z` without `I`).
pub const MAX_SIZE: u8 = 25;

/// Checks that `size` is a board size the engine supports (2 to 25).
pub fn check_size(size: u32) -> Result<u8, Error> {
    if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&size) {
        Ok(size as u8)
    } else {
        Err(Error::BoardSize(size))
    }
}

/// An intersection: `x` is the column counted from the left, `y` the row counted
/// from the top, both from 0 (the SGF convention).
///
/// ```
/// use kifu_go::Point;
/// let p = Point::from_sgf("dp", 19).unwrap();
/// assert_eq!((p.x, p.y), (3, 15));
/// assert_eq!(p.to_gtp(19), "D4");
/// assert_eq!(Point::from_gtp("D4", 19).unwrap(), p);
/// assert_eq!(p.to_sgf(), "dp");
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields, rename = "GoPoint")]
pub struct Point {
    /// Column from the left edge, 0-based.
    pub x: u8,
    /// Row from the top edge, 0-based.
    pub y: u8,
}

const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Point {
    /// A point from its column and row (no bounds check; see [`Point::on_board`]).
    pub fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Whether the point lies on a board of `size` lines.
    pub fn on_board(self, size: u8) -> bool {
        self.x < size && self.y < size
    }

    /// Reads a two-letter SGF point (`"dd"`). Passes (`""`, `"tt"`) are not points:
    /// see [`crate::sgf`] for how moves treat them.
    pub fn from_sgf(text: &str, size: u8) -> Result<Point, Error> {
        let bytes = text.as_bytes();
        let bad = || Error::SgfPoint {
            text: text.to_string(),
            size,
        };
        if bytes.len() != 2 {
            return Err(bad());
        }
        let coord = |b: u8| -> Option<u8> {
            match b {
                b'a'..=b'z' => Some(b - b'a'),
                b'A'..=b'Z' => Some(b - b'A' + 26),
                _ => None,
            }
        };
        let (x, y) = match (coord(bytes[0]), coord(bytes[1])) {
            (Some(x), Some(y)) => (x, y),
            _ => return Err(bad()),
        };
        let p = Point { x, y };
        if p.on_board(size) {
            Ok(p)
        } else {
            Err(bad())
        }
    }

    /// The two-letter SGF spelling (`"dd"`).
    pub fn to_sgf(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'a' + self.x) as char);
        s.push((b'a' + self.y) as char);
        s
    }

    /// Reads a GTP vertex (`"D4"`, `"q16"`): column letters skip `I`, row 1 is the bottom.
    pub fn from_gtp(text: &str, size: u8) -> Result<Point, Error> {
        let bad = || Error::GtpVertex {
            text: text.to_string(),
            size,
        };
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let x = GTP_LETTERS
            .iter()
            .position(|&c| c as char == letter)
            .ok_or_else(bad)?;
        let row: u32 = chars.as_str().parse().map_err(|_| bad())?;
        if row == 0 || row > size as u32 || x >= size as usize {
            return Err(bad());
        }
        Ok(Point {
            x: x as u8,
            y: size - row as u8,
        })
    }

    /// The GTP spelling on a board of `size` lines (`"D4"`).
    pub fn to_gtp(self, size: u8) -> String {
        let letter = GTP_LETTERS.get(self.x as usize).copied().unwrap_or(b'?') as char;
        format!("{}{}", letter, size as i32 - self.y as i32)
    }

    /// Index into a row-major array of `size * size` cells.
    pub(crate) fn index(self, size: u8) -> usize {
        self.y as usize * size as usize + self.x as usize
    }

    /// The point at row-major `index` on a board of `size` lines.
    pub(crate) fn from_index(index: usize, size: u8) -> Point {
        Point {
            x: (index % size as usize) as u8,
            y: (index / size as usize) as u8,
        }
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_sgf())
    }
}
