//! What a director types, read into the facts of a tournament chain: a
//! round's pairing as text (`kifu tournament pair --file`, pasted into the
//! director's page), the swaps of a drawn round, a result's words, an
//! absence's reason, and the results
//! files of the tournament (EGD `.h9`, AGA). The command line and the
//! server read the same words here, so a fact means the same whichever
//! face entered it.

use kifu_ledger::{AbsenceReason, BoardResult, Body, DrawSwap, Hash, Pairing};
use kifu_standings::{aga, h9};

use crate::Chain;

/// The reason a result entered by an official is given when none is typed.
pub const OFFICIAL_RESULT_REASON: &str = "entered by an official";

/// Why typed input is not a fact.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// A line of a pairing text is not `board white black [handicap] [?]`.
    #[error("line {line}: expected `board white black [handicap] [?]`")]
    PairingLine {
        /// The line, from 1.
        line: usize,
    },
    /// A pairing text with no pairing in it.
    #[error("no pairings")]
    NoPairings,
    /// A result not in the list.
    #[error("unknown result '{0}' (W+ or white, B+ or black, jigo or draw, both-lose, both-win, unknown)")]
    Result(String),
    /// An absence reason not in the list.
    #[error("unknown reason '{0}' (late, skip, withdrawal, sanction)")]
    Reason(String),
    /// A results file format not in the list.
    #[error("unknown format '{0}' (h9, aga)")]
    Format(String),
    /// The standings model or the file refused.
    #[error("{0}")]
    Results(String),
    /// A swap not written `FIRST:SECOND`.
    #[error("swap '{0}': expected two registration ids, `FIRST:SECOND`")]
    Swap(String),
    /// Swaps and reasons that do not go one with the other.
    #[error("{swaps} swaps and {reasons} reasons: each swap takes the reason given after it")]
    SwapReasons {
        /// Swaps given.
        swaps: usize,
        /// Reasons given.
        reasons: usize,
    },
}

/// The director's swaps of a drawn round as typed: each `FIRST:SECOND`
/// (two registration ids) with the reason in the same place of `reasons`.
/// Whether each can be made is the draw's to say
/// (`kifu_pairing::apply_swaps`).
pub fn swaps(given: &[String], reasons: &[String]) -> Result<Vec<DrawSwap>, EntryError> {
    if given.len() != reasons.len() {
        return Err(EntryError::SwapReasons {
            swaps: given.len(),
            reasons: reasons.len(),
        });
    }
    given
        .iter()
        .zip(reasons)
        .map(|(s, reason)| {
            let (a, b) = s
                .split_once(':')
                .map(|(a, b)| (a.trim(), b.trim()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                .ok_or_else(|| EntryError::Swap(s.clone()))?;
            Ok(DrawSwap {
                first: a.to_string(),
                second: b.to_string(),
                reason: reason.trim().to_string(),
            })
        })
        .collect()
}

/// One pairing as a fact: [`Body::Paired`], or [`Body::PairedColoursUnknown`]
/// when the colours were not noted.
pub fn pairing(
    round: u32,
    board: u32,
    white: &str,
    black: &str,
    handicap: u8,
    game: Option<Hash>,
    colours_known: bool,
) -> Body {
    let p = Pairing {
        round,
        board,
        white: white.to_string(),
        black: black.to_string(),
        handicap,
        game,
    };
    if colours_known {
        Body::Paired(p)
    } else {
        Body::PairedColoursUnknown(p)
    }
}

/// A whole round's pairing from text: one board a line, `board white black
/// [handicap] [?]` (`?`: the colours were not noted), `#` starts a comment.
/// With `colours_unknown`, no line's colours are known. Nothing is checked
/// against the tournament here: [`Chain::append`] does that.
pub fn pairing_text(
    text: &str,
    round: u32,
    colours_unknown: bool,
) -> Result<Vec<Body>, EntryError> {
    let mut bodies = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = EntryError::PairingLine { line: n + 1 };
        let mut f: Vec<&str> = line.split_whitespace().collect();
        let unknown = f.last() == Some(&"?");
        if unknown {
            f.pop();
        }
        if f.len() < 3 || f.len() > 4 {
            return Err(bad);
        }
        let board: u32 = f[0].parse().map_err(|_| bad.clone())?;
        let handicap: u8 = match f.get(3) {
            Some(h) => h.parse().map_err(|_| bad.clone())?,
            None => 0,
        };
        let known = !(unknown || colours_unknown);
        bodies.push(pairing(round, board, f[1], f[2], handicap, None, known));
    }
    if bodies.is_empty() {
        return Err(EntryError::NoPairings);
    }
    Ok(bodies)
}

/// A board's result from its words: `W+`/`white`, `B+`/`black`,
/// `jigo`/`draw`/`=`, `both-lose`, `both-win`, `unknown`/`?` (any case).
pub fn result_word(s: &str) -> Result<BoardResult, EntryError> {
    s.trim()
        .parse::<BoardResult>()
        .map_err(|_| EntryError::Result(s.to_string()))
}

/// An absence's reason from its word: `late`, `skip`, `withdrawal`,
/// `sanction` (or the long forms).
pub fn absence_reason(s: &str) -> Result<AbsenceReason, EntryError> {
    Ok(match s.trim() {
        "late" | "late-arrival" => AbsenceReason::LateArrival,
        "skip" | "round-skipped" => AbsenceReason::RoundSkipped,
        "withdrawal" | "withdraw" => AbsenceReason::Withdrawal,
        "sanction" => AbsenceReason::Sanction,
        other => return Err(EntryError::Reason(other.to_string())),
    })
}

/// Choices of a results file beyond the tournament's own settings.
#[derive(Debug, Clone, Default)]
pub struct ResultsOptions {
    /// The last round counted (default: the last round with pairings).
    pub after_round: Option<u32>,
    /// In the `.h9`, games decided by default are written `0=` (left out
    /// of rating) instead of as played.
    pub drop_by_default: bool,
    /// In the `.h9`, this EGF class instead of the tournament's.
    pub egf_class: Option<String>,
    /// In the `.h9`, this adjusted time (minutes) instead of the
    /// tournament's.
    pub adjusted_time: Option<u32>,
}

/// The round a results file or a standings table counts to: `after`, or
/// the last round with pairings (at least 1).
pub fn round_counted(chain: &Chain, after: Option<u32>) -> u32 {
    after.unwrap_or_else(|| chain.projection.last_round().max(1))
}

/// The tournament's results file: `h9` (EGD, `kifu_standings::h9`) or
/// `aga` (`kifu_standings::aga`).
pub fn results_file(chain: &Chain, format: &str, o: &ResultsOptions) -> Result<String, EntryError> {
    let p = &chain.projection;
    let round = round_counted(chain, o.after_round);
    let fail = |e: &dyn std::fmt::Display| EntryError::Results(e.to_string());
    let t = p.tournament().map_err(|e| fail(&e))?;
    let mut info = p.event_info();
    if let Some(c) = &o.egf_class {
        info.class = c.clone();
    }
    if let Some(m) = o.adjusted_time {
        info.adjusted_time_minutes = m;
    }
    match format {
        "h9" => h9::write(&t, &info, round, !o.drop_by_default).map_err(|e| fail(&e)),
        "aga" => aga::write(&t, &info, round).map_err(|e| fail(&e)),
        other => Err(EntryError::Format(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairing_text_reads_boards_handicaps_unknown_colours_and_comments() {
        let text = "# round 2\n1 A B\n2 C D 3\n\n3 E F ?  # not noted\n";
        let b = pairing_text(text, 2, false).expect("reads");
        assert_eq!(b.len(), 3);
        assert_eq!(b[0], pairing(2, 1, "A", "B", 0, None, true));
        assert_eq!(b[1], pairing(2, 2, "C", "D", 3, None, true));
        assert_eq!(b[2], pairing(2, 3, "E", "F", 0, None, false));
        let all_unknown = pairing_text("1 A B", 1, true).expect("reads");
        assert_eq!(all_unknown[0], pairing(1, 1, "A", "B", 0, None, false));
    }

    #[test]
    fn a_bad_line_is_named_and_an_empty_text_refused() {
        assert_eq!(
            pairing_text("1 A B\nx A B\n", 1, false),
            Err(EntryError::PairingLine { line: 2 })
        );
        assert_eq!(
            pairing_text("1 A\n", 1, false),
            Err(EntryError::PairingLine { line: 1 })
        );
        assert_eq!(
            pairing_text("1 A B 99999\n", 1, false),
            Err(EntryError::PairingLine { line: 1 })
        );
        assert_eq!(
            pairing_text("# none\n", 1, false),
            Err(EntryError::NoPairings)
        );
    }

    #[test]
    fn result_words_and_reasons() {
        assert_eq!(result_word("W+"), Ok(BoardResult::WhiteWins));
        assert_eq!(result_word("black"), Ok(BoardResult::BlackWins));
        assert_eq!(result_word("="), Ok(BoardResult::Jigo));
        assert!(result_word("W+R").is_err());
        assert_eq!(absence_reason("withdrawal"), Ok(AbsenceReason::Withdrawal));
        assert!(absence_reason("ill").is_err());
    }
}
