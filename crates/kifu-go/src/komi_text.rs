//! Komi as people type it: `7.5`, `-0.5`, `6`.

use std::str::FromStr;

use crate::Komi;

/// A komi that is not a number of points in halves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("komi {0:?} is not a multiple of 0.5 (e.g. 7.5, 6, -0.5)")]
pub struct KomiParseError(pub String);

impl FromStr for Komi {
    type Err = KomiParseError;

    /// ```
    /// use kifu_go::Komi;
    /// assert_eq!("7.5".parse::<Komi>(), Ok(Komi(15)));
    /// assert_eq!("-0.5".parse::<Komi>(), Ok(Komi(-1)));
    /// assert!("7.3".parse::<Komi>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Komi, KomiParseError> {
        let bad = || KomiParseError(s.to_string());
        let points: f64 = s.trim().parse().map_err(|_| bad())?;
        let komi = Komi::from_points(points).ok_or_else(bad)?;
        // Half points of more than 10,000 points are no komi a game has.
        if komi.0.unsigned_abs() > 20_000 {
            return Err(bad());
        }
        Ok(komi)
    }
}
