//! Errors for positions, coordinates and scripted queries.

use thiserror::Error;

use crate::point::Point;

/// What was wrong with an input coordinate, position or query.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// A coordinate is not `a`-`o` followed by `1`-`15`.
    #[error("bad coordinate {input:?}: expected a column a-o and a row 1-15, e.g. h8")]
    BadCoordinate {
        /// The text as given.
        input: String,
    },
    /// A colour is neither black nor white.
    #[error("bad colour {input:?}: expected black or white")]
    BadColour {
        /// The text as given.
        input: String,
    },
    /// A rule name is not one of the known rule values.
    #[error("unknown rule {input:?}: expected rif-renju, gomoku-freestyle or gomoku-standard")]
    UnknownRule {
        /// The text as given.
        input: String,
    },
    /// An opening rule name is not one of the known presets.
    #[error(
        "unknown opening rule {input:?}: expected free, rif, yamaguchi, soosorv-N or taraguchi-N"
    )]
    UnknownOpening {
        /// The text as given.
        input: String,
    },
    /// A genesis override key the Renju settings do not know.
    #[error("unknown override {key:?} (known: opening)")]
    UnknownOverride {
        /// The key.
        key: String,
    },
    /// The same point holds more than one stone in the input.
    #[error("duplicate stone at {point}")]
    DuplicateStone {
        /// The point listed twice.
        point: Point,
    },
    /// The queried point already holds a stone.
    #[error("query point {point} is already occupied")]
    QueryOccupied {
        /// The occupied point.
        point: Point,
    },
}
