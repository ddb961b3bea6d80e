//! Opening rules: the stones, swaps and fifth-move alternatives before normal play.
//!
//! Each rule is a short script of steps. Swaps exchange which *player* holds which *colour*;
//! the stones keep their colours. "The other player" who may swap is always the opponent of
//! the player who placed the last stone.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::board::Board;
use crate::error::Error;
use crate::point::{Point, Stone};

/// An opening rule, parsed from a short name: `free`, `rif`, `yamaguchi`, `soosorv-N`
/// (`soosorv-8` is the World Championship rule), `taraguchi-N` (`taraguchi-10`).
///
/// ```
/// use kifu_renju::OpeningRule;
/// assert_eq!("soosorv-8".parse::<OpeningRule>().unwrap(), OpeningRule::Soosorv { max_fifths: 8 });
/// assert_eq!(OpeningRule::Taraguchi { fifths: 10 }.to_string(), "taraguchi-10");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum OpeningRule {
    /// No opening procedure: the first player holds Black and plays anywhere (for gomoku,
    /// analysis and position set-up).
    #[default]
    Free,
    /// RIF opening (1996): the tentative Black places the first three stones (one of the 26
    /// openings), the tentative White may swap, White plays the 4th anywhere, Black offers two
    /// non-symmetric 5th moves, White chooses one and plays the 6th.
    Rif,
    /// Yamaguchi: as RIF, but the tentative Black also declares the number of 5th-move
    /// alternatives, and Black later offers that many.
    Yamaguchi,
    /// Soosõrv-N: the first player places one of the 26 openings; the other may swap; White
    /// plays the 4th anywhere and declares the number of 5th moves (1..=N); the other may swap
    /// again; Black offers that many non-symmetric 5th moves; White chooses one.
    Soosorv {
        /// N: the largest number of fifth-move alternatives White may declare (8 in Soosõrv-8).
        max_fifths: u8,
    },
    /// Taraguchi-N: stones 1-4 in the central 1x1, 3x3, 5x5, 7x7 squares, each followed by a
    /// swap option; then Black either plays the 5th in the central 9x9 square (swap option,
    /// then White plays anywhere) or offers N non-symmetric 5th moves anywhere, of which White
    /// chooses one.
    Taraguchi {
        /// N: the number of fifth-move alternatives of the second option (10 in Taraguchi-10).
        fifths: u8,
    },
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningRule::Free => f.write_str("free"),
            OpeningRule::Rif => f.write_str("rif"),
            OpeningRule::Yamaguchi => f.write_str("yamaguchi"),
            OpeningRule::Soosorv { max_fifths } => write!(f, "soosorv-{max_fifths}"),
            OpeningRule::Taraguchi { fifths } => write!(f, "taraguchi-{fifths}"),
        }
    }
}

impl FromStr for OpeningRule {
    type Err = Error;

    fn from_str(s: &str) -> Result<OpeningRule, Error> {
        let bad = || Error::UnknownOpening {
            input: s.to_string(),
        };
        let lower = s.trim().to_ascii_lowercase().replace('õ', "o");
        let n = |rest: &str| -> Result<u8, Error> {
            rest.parse::<u8>()
                .ok()
                .filter(|n| (1..=50).contains(n))
                .ok_or_else(bad)
        };
        match lower.as_str() {
            "free" => Ok(OpeningRule::Free),
            "rif" => Ok(OpeningRule::Rif),
            "yamaguchi" => Ok(OpeningRule::Yamaguchi),
            _ => {
                if let Some(rest) = lower.strip_prefix("soosorv-") {
                    Ok(OpeningRule::Soosorv {
                        max_fifths: n(rest)?,
                    })
                } else if let Some(rest) = lower.strip_prefix("taraguchi-") {
                    Ok(OpeningRule::Taraguchi { fifths: n(rest)? })
                } else {
                    Err(bad())
                }
            }
        }
    }
}

impl Serialize for OpeningRule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for OpeningRule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OpeningRule, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Who acts in a script step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Actor {
    /// The first player, whatever colour he holds now.
    First,
    /// Whoever holds this colour now.
    Holder(Stone),
    /// The opponent of the player who placed the last stone.
    Other,
}

/// How many fifth moves Black must offer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FifthCount {
    Fixed(u8),
    Declared,
}

/// One step of an opening script.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Step {
    /// Stone `number` (odd = black) inside the central `region` x `region` square.
    Place {
        number: u8,
        by: Actor,
        region: u8,
    },
    Swap {
        by: Actor,
    },
    DeclareCount {
        by: Actor,
        max: u8,
    },
    Propose {
        by: Actor,
        count: FifthCount,
    },
    Choose {
        by: Actor,
    },
    /// Taraguchi: place the 5th in the region, or offer `count` fifth moves.
    FifthOrOffer {
        by: Actor,
        region: u8,
        count: u8,
    },
}

/// Anywhere on the board.
pub(crate) const ANYWHERE: u8 = 15;
/// Largest count Yamaguchi lets the tentative Black declare (no official cap; a sane bound).
pub(crate) const YAMAGUCHI_MAX: u8 = 50;

impl OpeningRule {
    /// The script of steps before normal play.
    pub(crate) fn script(self) -> Vec<Step> {
        use Actor::*;
        let b = Holder(Stone::Black);
        let w = Holder(Stone::White);
        // "One of the 26 openings": 1st at the centre, 2nd adjacent, 3rd in the central 5x5.
        let first_three = [
            Step::Place {
                number: 1,
                by: First,
                region: 1,
            },
            Step::Place {
                number: 2,
                by: First,
                region: 3,
            },
            Step::Place {
                number: 3,
                by: First,
                region: 5,
            },
        ];
        match self {
            OpeningRule::Free => Vec::new(),
            OpeningRule::Rif => {
                let mut s = first_three.to_vec();
                s.extend([
                    Step::Swap { by: Other },
                    Step::Place {
                        number: 4,
                        by: w,
                        region: ANYWHERE,
                    },
                    Step::Propose {
                        by: b,
                        count: FifthCount::Fixed(2),
                    },
                    Step::Choose { by: w },
                ]);
                s
            }
            OpeningRule::Yamaguchi => {
                let mut s = first_three.to_vec();
                s.extend([
                    Step::DeclareCount {
                        by: First,
                        max: YAMAGUCHI_MAX,
                    },
                    Step::Swap { by: Other },
                    Step::Place {
                        number: 4,
                        by: w,
                        region: ANYWHERE,
                    },
                    Step::Propose {
                        by: b,
                        count: FifthCount::Declared,
                    },
                    Step::Choose { by: w },
                ]);
                s
            }
            OpeningRule::Soosorv { max_fifths } => {
                let mut s = first_three.to_vec();
                s.extend([
                    Step::Swap { by: Other },
                    Step::Place {
                        number: 4,
                        by: w,
                        region: ANYWHERE,
                    },
                    Step::DeclareCount {
                        by: w,
                        max: max_fifths,
                    },
                    Step::Swap { by: Other },
                    Step::Propose {
                        by: b,
                        count: FifthCount::Declared,
                    },
                    Step::Choose { by: w },
                ]);
                s
            }
            OpeningRule::Taraguchi { fifths } => vec![
                Step::Place {
                    number: 1,
                    by: b,
                    region: 1,
                },
                Step::Swap { by: Other },
                Step::Place {
                    number: 2,
                    by: w,
                    region: 3,
                },
                Step::Swap { by: Other },
                Step::Place {
                    number: 3,
                    by: b,
                    region: 5,
                },
                Step::Swap { by: Other },
                Step::Place {
                    number: 4,
                    by: w,
                    region: 7,
                },
                Step::Swap { by: Other },
                Step::FifthOrOffer {
                    by: b,
                    region: 9,
                    count: fifths,
                },
            ],
        }
    }
}

/// The steps that follow a Taraguchi fifth-move choice.
pub(crate) fn taraguchi_after_stone() -> Vec<Step> {
    vec![Step::Swap { by: Actor::Other }]
}

/// The steps that follow a Taraguchi offer of alternatives.
pub(crate) fn taraguchi_after_offer() -> Vec<Step> {
    vec![Step::Choose {
        by: Actor::Holder(Stone::White),
    }]
}

/// A symmetry of the square, on coordinates.
type Transform = fn(i32, i32) -> (i32, i32);

/// The position's stones as (column, row, colour), reduced to a form shared by all positions
/// equal under the 8 symmetries of the square and translation.
fn canonical(stones: &[(i32, i32, Stone)]) -> Vec<(i32, i32, bool)> {
    let transforms: [Transform; 8] = [
        |x, y| (x, y),
        |x, y| (-x, y),
        |x, y| (x, -y),
        |x, y| (-x, -y),
        |x, y| (y, x),
        |x, y| (-y, x),
        |x, y| (y, -x),
        |x, y| (-y, -x),
    ];
    transforms
        .iter()
        .map(|t| {
            let moved: Vec<(i32, i32, bool)> = stones
                .iter()
                .map(|&(x, y, c)| {
                    let (a, b) = t(x, y);
                    (a, b, c == Stone::Black)
                })
                .collect();
            let min_x = moved.iter().map(|s| s.0).min().unwrap_or(0);
            let min_y = moved.iter().map(|s| s.1).min().unwrap_or(0);
            let mut shifted: Vec<_> = moved
                .into_iter()
                .map(|(x, y, c)| (x - min_x, y - min_y, c))
                .collect();
            shifted.sort_unstable();
            shifted
        })
        .min()
        .unwrap_or_default()
}

/// The first pair of offered fifth moves that give equivalent positions ("symmetrical moves
/// are not allowed"), if any. Equivalence is under the 8 symmetries of the square and
/// translation, as renju players count equal openings.
pub(crate) fn symmetric_pair(board: &Board, offered: &[Point]) -> Option<(Point, Point)> {
    let base: Vec<(i32, i32, Stone)> = Point::all()
        .filter_map(|p| {
            board
                .get(p)
                .map(|s| (i32::from(p.column()), i32::from(p.row()), s))
        })
        .collect();
    let forms: Vec<_> = offered
        .iter()
        .map(|p| {
            let mut stones = base.clone();
            stones.push((i32::from(p.column()), i32::from(p.row()), Stone::Black));
            canonical(&stones)
        })
        .collect();
    for i in 0..offered.len() {
        for j in i + 1..offered.len() {
            if forms[i] == forms[j] {
                return Some((offered[i], offered[j]));
            }
        }
    }
    None
}

/// An opening rule's schema: what its `Serialize` writes, the name
/// [`OpeningRule`]'s `Display` gives.
impl schemars::JsonSchema for OpeningRule {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OpeningRule".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "The opening procedure: `free`, `rif`, `yamaguchi`, `soosorv-N` or `taraguchi-N`.",
            "pattern": "^(free|rif|yamaguchi|soosorv-[0-9]+|taraguchi-[0-9]+)$",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn mirror_images_of_a_fifth_move_are_symmetric() {
        // h8 black, h9 white, h10 black: symmetric about the column h.
        let board = Board::from_stones(&[p("h8"), p("h10")], &[p("h9")]).unwrap();
        assert_eq!(
            symmetric_pair(&board, &[p("g7"), p("i7")]),
            Some((p("g7"), p("i7")))
        );
        assert_eq!(symmetric_pair(&board, &[p("g7"), p("i6")]), None);
    }

    #[test]
    fn opening_names_round_trip() {
        for name in ["free", "rif", "yamaguchi", "soosorv-8", "taraguchi-10"] {
            assert_eq!(name.parse::<OpeningRule>().unwrap().to_string(), name);
        }
        assert!("soosorv-0".parse::<OpeningRule>().is_err());
        assert!("sakata".parse::<OpeningRule>().is_err());
        assert_eq!(
            "Soosõrv-8".parse::<OpeningRule>().unwrap(),
            OpeningRule::Soosorv { max_fifths: 8 }
        );
    }
}
