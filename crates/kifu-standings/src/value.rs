//! Exact values in quarter points.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A score or tie-break value, held exactly as a whole number of quarter
/// points (SODOS multiplies a half-point score by a half-point result, so
/// quarters are the smallest unit any criterion needs).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Value(i64);

impl Value {
    /// Zero.
    pub const ZERO: Value = Value(0);

    /// A value from a count of quarter points.
    pub const fn from_quarters(quarters: i64) -> Value {
        Value(quarters)
    }

    /// A value from a count of half points.
    pub const fn from_halves(halves: i64) -> Value {
        Value(halves * 4 / 2)
    }

    /// A value from whole points.
    pub const fn from_points(points: i64) -> Value {
        Value(points * 4)
    }

    /// The value in quarter points.
    pub const fn quarters(self) -> i64 {
        self.0
    }

    /// Whole points, rounded toward zero, and the remaining quarters (0..=3
    /// for a non-negative value).
    fn split(self) -> (i64, i64) {
        (self.0 / 4, (self.0 % 4).abs())
    }

    /// The value written with OpenGotha's fraction glyphs: `32½`, `78¾`, `5`.
    pub fn glyphs(self) -> String {
        let (whole, frac) = self.split();
        let sign = if self.0 < 0 && whole == 0 { "-" } else { "" };
        let f = match frac {
            1 => "¼",
            2 => "½",
            3 => "¾",
            _ => "",
        };
        if whole == 0 && !f.is_empty() {
            format!("{sign}{f}")
        } else {
            format!("{sign}{whole}{f}")
        }
    }
}

impl std::ops::Add for Value {
    type Output = Value;
    fn add(self, rhs: Value) -> Value {
        Value(self.0 + rhs.0)
    }
}

impl std::ops::Sub for Value {
    type Output = Value;
    fn sub(self, rhs: Value) -> Value {
        Value(self.0 - rhs.0)
    }
}

impl std::iter::Sum for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        Value(iter.map(|v| v.0).sum())
    }
}

/// Decimal notation: `93.5`, `78.75`, `-0.5`, `32`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let whole = abs / 4;
        match abs % 4 {
            0 => write!(f, "{sign}{whole}"),
            1 => write!(f, "{sign}{whole}.25"),
            2 => write!(f, "{sign}{whole}.5"),
            _ => write!(f, "{sign}{whole}.75"),
        }
    }
}
