//! The two sides of the clock.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A side of the clock: Black or White.
///
/// Serialized as `"B"` and `"W"`, the letters used by SGF (`BL`/`WL`) and by
/// the clock vectors.
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
#[schemars(deny_unknown_fields)]
pub enum Player {
    /// Black, whose clock is started first (LGC 2023 (lgc-tournament-rules-2023.txt), "Start").
    #[serde(rename = "B")]
    Black,
    /// White.
    #[serde(rename = "W")]
    White,
}

impl Player {
    /// The other side.
    pub fn opponent(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// 0 for Black, 1 for White: the index into per-player arrays.
    pub fn index(self) -> usize {
        match self {
            Player::Black => 0,
            Player::White => 1,
        }
    }

    /// The SGF colour letter, `"B"` or `"W"`.
    pub fn letter(self) -> &'static str {
        match self {
            Player::Black => "B",
            Player::White => "W",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Black => "Black",
            Player::White => "White",
        })
    }
}
