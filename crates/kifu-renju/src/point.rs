//! Coordinates, stone colours and moves, written as RenjuNet writes them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;

/// Number of lines on the board in each direction (RIF 2: 15 vertical and 15 horizontal lines).
pub const BOARD_SIZE: u8 = 15;

/// Number of intersections on the board (RIF 2: 225).
pub const BOARD_POINTS: usize = (BOARD_SIZE as usize) * (BOARD_SIZE as usize);

/// An intersection of the 15x15 board.
///
/// Written as RenjuNet writes it: a column letter `a`-`o` from left to right (the letter
/// `i` is *not* skipped) followed by a row number `1`-`15` from bottom to top; `h8` is the
/// centre. Parsing accepts upper-case letters too; display is always lower-case.
///
/// ```
/// use kifu_renju::Point;
/// let p: Point = "h8".parse().unwrap();
/// assert_eq!(p, Point::CENTRE);
/// assert_eq!((p.column(), p.row()), (7, 7));
/// assert_eq!("I9".parse::<Point>().unwrap().to_string(), "i9");
/// assert!("p1".parse::<Point>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// 0-based column, 0 = `a`.
    column: u8,
    /// 0-based row, 0 = row `1` (bottom).
    row: u8,
}

impl Point {
    /// The centre of the board, `h8` (RIF 4.2: Black begins in the middle of the board).
    pub const CENTRE: Point = Point { column: 7, row: 7 };

    /// The point at 0-based `column` (0 = `a`) and `row` (0 = row `1`), or `None` when off the board.
    pub fn new(column: u8, row: u8) -> Option<Point> {
        (column < BOARD_SIZE && row < BOARD_SIZE).then_some(Point { column, row })
    }

    /// 0-based column, 0 = `a`.
    pub fn column(self) -> u8 {
        self.column
    }

    /// 0-based row, 0 = row `1` at the bottom.
    pub fn row(self) -> u8 {
        self.row
    }

    /// Index into a row-major array of [`BOARD_POINTS`] cells.
    pub fn index(self) -> usize {
        usize::from(self.row) * usize::from(BOARD_SIZE) + usize::from(self.column)
    }

    /// The point for a row-major index, or `None` when out of range.
    pub fn from_index(index: usize) -> Option<Point> {
        if index >= BOARD_POINTS {
            return None;
        }
        let size = usize::from(BOARD_SIZE);
        // Both values are below 15, so the narrowing is lossless.
        Point::new((index % size) as u8, (index / size) as u8)
    }

    /// Chebyshev distance from the centre: 0 for `h8`, 1 for the central 3x3, 2 for 5x5, ...
    pub fn distance_from_centre(self) -> u8 {
        self.column.abs_diff(7).max(self.row.abs_diff(7))
    }

    /// True when the point lies in the central `size` x `size` square (`size` odd).
    pub fn in_central_square(self, size: u8) -> bool {
        self.distance_from_centre() <= size / 2
    }

    /// Iterator over all 225 points in row-major order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..BOARD_POINTS).filter_map(Point::from_index)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.column), self.row + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Point {
    type Err = Error;

    fn from_str(s: &str) -> Result<Point, Error> {
        let bad = || Error::BadCoordinate {
            input: s.to_string(),
        };
        let trimmed = s.trim();
        let mut chars = trimmed.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !('a'..='o').contains(&letter) {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if digits.starts_with('0') {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        if !(1..=BOARD_SIZE).contains(&row) {
            return Err(bad());
        }
        Point::new(letter as u8 - b'a', row - 1).ok_or_else(bad)
    }
}

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Point, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A stone colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Stone {
    /// Black, who moves first and alone has forbidden moves under RIF rules.
    Black,
    /// White.
    White,
}

impl Stone {
    /// The other colour.
    pub fn opponent(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stone::Black => "black",
            Stone::White => "white",
        })
    }
}

impl FromStr for Stone {
    type Err = Error;

    fn from_str(s: &str) -> Result<Stone, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" => Ok(Stone::Black),
            "white" | "w" => Ok(Stone::White),
            _ => Err(Error::BadColour {
                input: s.to_string(),
            }),
        }
    }
}

/// One move: a stone on a point, or a pass (RIF 5: a player may give up the right to put a stone).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A stone put on this point.
    Stone(Point),
    /// The player to move gives up the move.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Stone(p) => write!(f, "{p}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = Error;

    fn from_str(s: &str) -> Result<Move, Error> {
        if s.trim().eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Stone)
        }
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses a comma-separated list of points such as `a1,b2,h8` (spaces allowed, empty list allowed).
pub fn parse_points(list: &str) -> Result<Vec<Point>, Error> {
    split_list(list).map(str::parse).collect()
}

/// Parses a comma-separated move list such as `h8,i9,pass,h10`.
pub fn parse_moves(list: &str) -> Result<Vec<Move>, Error> {
    split_list(list).map(str::parse).collect()
}

fn split_list(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// A point's schema: what its `Serialize` writes, the point in RIF
/// notation (column `a`–`o` from the left, row `1`–`15` from the bottom).
impl schemars::JsonSchema for Point {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RenjuPoint".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A point in RIF notation: column `a`–`o` from the left, row `1`–`15` from the bottom (`h8`).",
            "pattern": "^[a-o]([1-9]|1[0-5])$",
        })
    }
}

/// A move's schema: what its `Serialize` writes, a point in RIF notation
/// or `pass`.
impl schemars::JsonSchema for Move {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RenjuMove".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A point in RIF notation (`h8`) or `pass`.",
            "pattern": "^([a-o]([1-9]|1[0-5])|pass)$",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_round_trips_through_its_name() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>().ok(), Some(p));
        }
        assert_eq!(Point::all().count(), 225);
    }

    #[test]
    fn corners_and_centre_follow_renjunet_notation() {
        assert_eq!(
            Point::new(0, 0).map(|p| p.to_string()).as_deref(),
            Some("a1")
        );
        assert_eq!(
            Point::new(14, 14).map(|p| p.to_string()).as_deref(),
            Some("o15")
        );
        // The letter i is not skipped: the ninth column is i.
        assert_eq!(
            Point::new(8, 0).map(|p| p.to_string()).as_deref(),
            Some("i1")
        );
        assert_eq!(Point::CENTRE.to_string(), "h8");
    }

    #[test]
    fn bad_coordinates_are_errors_not_panics() {
        for bad in [
            "", "h", "h0", "h16", "p8", "z1", "8h", "h08", "h8x", "hh", "é1", "h-1", "h１",
        ] {
            assert!(bad.parse::<Point>().is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn move_lists_parse_with_passes() {
        let moves = parse_moves("h8, i9,PASS,h10").unwrap();
        assert_eq!(moves.len(), 4);
        assert_eq!(moves[2], Move::Pass);
        assert!(parse_moves("h8,,i9").is_ok());
        assert!(parse_moves("h8,x9").is_err());
    }
}
