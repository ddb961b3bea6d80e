//! Values as people write and read them: a result as SGF writes it
//! (`RE[B+3.5]`), colours and roles in words, game kinds by their one
//! spelling.

use std::fmt;
use std::str::FromStr;

use crate::body::{Color, GameKind, GameResult, Outcome, ResultBy, Role};

impl fmt::Display for Color {
    /// `Black` or `White`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

impl Role {
    /// The role in words: `Black`, `referee`, `appeals committee`.
    pub fn word(self) -> &'static str {
        match self {
            Role::Black => "Black",
            Role::White => "White",
            Role::Referee => "referee",
            Role::Recorder => "recorder",
            Role::Director => "tournament director",
            Role::Committee => "appeals committee",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl GameKind {
    /// The one spelling of a game kind, on the command line and in JSON alike:
    /// `go`, `renju`, `gomoku_freestyle`, `gomoku_standard`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Go => "go",
            GameKind::Renju => "renju",
            GameKind::GomokuFreestyle => "gomoku_freestyle",
            GameKind::GomokuStandard => "gomoku_standard",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game kind name that is none of the four.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (go, renju, gomoku_freestyle, gomoku_standard)")]
pub struct UnknownGameKind(pub String);

impl FromStr for GameKind {
    type Err = UnknownGameKind;

    /// The spelling [`GameKind::name`] writes; `-` is read as `_`
    /// (`gomoku-freestyle`), as command lines are typed.
    fn from_str(s: &str) -> Result<GameKind, UnknownGameKind> {
        let wanted = s.trim().to_ascii_lowercase().replace('-', "_");
        [
            GameKind::Go,
            GameKind::Renju,
            GameKind::GomokuFreestyle,
            GameKind::GomokuStandard,
        ]
        .into_iter()
        .find(|k| k.name() == wanted)
        .ok_or_else(|| UnknownGameKind(s.to_string()))
    }
}

/// Half points as points in a code or an SGF value: `3`, `3.5`, `-0.5`.
pub fn half_points_text(h: i64) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    if a.is_multiple_of(2) {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

impl GameResult {
    /// Reads an SGF `RE` value. `B+3.5`, `W+R`, `B+T`, `W+F`, `0`/`Draw`,
    /// `Void`, and `B`/`W` or `B+` (a win whose manner the record does not
    /// give) are read; anything else is `None`. The caller decides what to
    /// say about a value it could not read.
    pub fn from_sgf(re: &str) -> Option<GameResult> {
        let re = re.trim();
        match re.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" => {
                return Some(GameResult {
                    outcome: Outcome::Draw,
                    by: ResultBy::Score {
                        margin_half_points: 0,
                    },
                })
            }
            "void" | "?" => {
                return Some(GameResult {
                    outcome: Outcome::NoResult,
                    by: ResultBy::Other("void".into()),
                })
            }
            _ => {}
        }
        let (who, how) = re.split_once('+').unwrap_or((re, ""));
        let winner = match who {
            "B" | "b" => Color::Black,
            "W" | "w" => Color::White,
            _ => return None,
        };
        let by = match how {
            "R" | "Resign" => ResultBy::Resignation,
            "T" | "Time" => ResultBy::Time,
            "F" | "Forfeit" => ResultBy::Forfeit,
            "" => ResultBy::Other("unspecified".into()),
            n => {
                let v: f64 = n.parse().ok()?;
                let h = v * 2.0;
                if !h.is_finite() || h.fract() != 0.0 || h.abs() > 1.0e6 {
                    return None;
                }
                ResultBy::Score {
                    margin_half_points: h as i32,
                }
            }
        };
        Some(GameResult {
            outcome: Outcome::Win(winner),
            by,
        })
    }

    /// The SGF `RE` value: `B+3.5`, `W+R`, `B+T`, `W+F`, `B+` (other
    /// manners), `0` for a draw, `Void` for no result (and for both
    /// losing, which SGF cannot say). The winner's letter carries the
    /// side: a margin is written as its size.
    pub fn to_sgf(&self) -> String {
        match (&self.outcome, &self.by) {
            (Outcome::Win(c), by) => {
                let how = match by {
                    ResultBy::Resignation => "R".to_string(),
                    ResultBy::Time => "T".to_string(),
                    ResultBy::Forfeit => "F".to_string(),
                    ResultBy::Score { margin_half_points } => {
                        half_points_text(i64::from(*margin_half_points).abs())
                    }
                    _ => String::new(),
                };
                format!("{}+{how}", c.letter())
            }
            (Outcome::Draw, _) => "0".into(),
            (Outcome::NoResult, _) | (Outcome::BothLose, _) => "Void".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_results_read_and_write_back() {
        for re in ["B+3.5", "W+R", "B+T", "W+F", "0", "Void", "W+0.5", "B+12"] {
            let r = GameResult::from_sgf(re).expect(re);
            assert_eq!(r.to_sgf(), re);
        }
        let b = GameResult::from_sgf("B").expect("B");
        assert_eq!(b.outcome, Outcome::Win(Color::Black));
        assert_eq!(b.to_sgf(), "B+");
        assert_eq!(GameResult::from_sgf("B+x"), None);
        assert_eq!(GameResult::from_sgf("B+0.3"), None);
        assert_eq!(GameResult::from_sgf("Black wins"), None);
        assert_eq!(half_points_text(-1), "-0.5");
        // A margin is written as its size, the winner's letter saying who.
        let r = GameResult {
            outcome: Outcome::Win(Color::White),
            by: ResultBy::Score {
                margin_half_points: -7,
            },
        };
        assert_eq!(r.to_sgf(), "W+3.5");
        let both = GameResult {
            outcome: Outcome::BothLose,
            by: ResultBy::Forfeit,
        };
        assert_eq!(both.to_sgf(), "Void");
    }
}

/// A board result that is none of the six.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown result '{0}' (W+ or white, B+ or black, jigo or draw, both-lose, both-win, unknown)"
)]
pub struct UnknownBoardResult(pub String);

impl FromStr for crate::BoardResult {
    type Err = UnknownBoardResult;

    /// A board result as a director types it: `W+`/`W`/`white`,
    /// `B+`/`B`/`black`, `jigo`/`draw`/`=`, `both-lose`, `both-win`,
    /// `unknown`/`?` (any case).
    fn from_str(s: &str) -> Result<crate::BoardResult, UnknownBoardResult> {
        use crate::BoardResult as R;
        Ok(match s.to_ascii_lowercase().as_str() {
            "w+" | "w" | "white" => R::WhiteWins,
            "b+" | "b" | "black" => R::BlackWins,
            "jigo" | "draw" | "=" => R::Jigo,
            "both-lose" => R::BothLose,
            "both-win" => R::BothWin,
            "unknown" | "?" => R::Unknown,
            _ => return Err(UnknownBoardResult(s.to_string())),
        })
    }
}

/// Why a tournament sanction could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanctionParseError {
    /// None of the tournament's sanctions.
    #[error("unknown sanction '{0}' (removed-from-rounds, removed-from-tournament, debarment, disqualification)")]
    Unknown(String),
    /// The rounds are not a list of round numbers.
    #[error("--rounds '{0}' is not a list of rounds")]
    Rounds(String),
    /// A removal from rounds that names none.
    #[error("removed-from-rounds needs --rounds")]
    NoRounds,
}

impl crate::SanctionKind {
    /// A tournament sanction (LGC 2023, "Sanctions") by its name as typed
    /// (`removed-from-rounds`, `removed-from-tournament`, `debarment`,
    /// `disqualification`); `rounds` is the comma-separated list a removal
    /// from rounds names.
    ///
    /// # Errors
    ///
    /// An unknown name, or rounds that are not a list of round numbers.
    pub fn tournament(name: &str, rounds: &str) -> Result<Self, SanctionParseError> {
        Ok(match name {
            "removed-from-rounds" => {
                let list = rounds
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| s.trim().parse::<u32>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| SanctionParseError::Rounds(rounds.to_string()))?;
                if list.is_empty() {
                    return Err(SanctionParseError::NoRounds);
                }
                crate::SanctionKind::RemovedFromRounds { rounds: list }
            }
            "removed-from-tournament" => crate::SanctionKind::RemovedFromTournament,
            "debarment" => crate::SanctionKind::Debarment,
            "disqualification" => crate::SanctionKind::Disqualification,
            other => return Err(SanctionParseError::Unknown(other.to_string())),
        })
    }
}

#[cfg(test)]
mod parse_tests {
    use crate::{BoardResult, SanctionKind};

    #[test]
    fn board_results_read_as_typed() {
        for (s, r) in [
            ("W+", BoardResult::WhiteWins),
            ("black", BoardResult::BlackWins),
            ("=", BoardResult::Jigo),
            ("Both-Lose", BoardResult::BothLose),
            ("both-win", BoardResult::BothWin),
            ("?", BoardResult::Unknown),
        ] {
            assert_eq!(s.parse::<BoardResult>(), Ok(r), "{s}");
        }
        let e = "W+R".parse::<BoardResult>().unwrap_err();
        assert!(e.to_string().starts_with("unknown result 'W+R'"), "{e}");
    }

    #[test]
    fn tournament_sanctions_read_by_name() {
        assert_eq!(
            SanctionKind::tournament("removed-from-rounds", "2, 3"),
            Ok(SanctionKind::RemovedFromRounds { rounds: vec![2, 3] })
        );
        assert_eq!(
            SanctionKind::tournament("debarment", ""),
            Ok(SanctionKind::Debarment)
        );
        assert!(SanctionKind::tournament("removed-from-rounds", "").is_err());
        assert!(SanctionKind::tournament("removed-from-rounds", "two").is_err());
        assert!(SanctionKind::tournament("warning", "").is_err());
    }
}
