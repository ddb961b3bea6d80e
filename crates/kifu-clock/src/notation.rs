//! The short text form of a time control, as a referee types it.
//!
//! | Text | Time control |
//! |---|---|
//! | `none` | [`TimeControl::Untimed`] |
//! | `sudden:30m` (alias `absolute:30m`) | [`TimeControl::SuddenDeath`] |
//! | `fischer:90m+30s` | [`TimeControl::Fischer`] without cap |
//! | `fischer:90m+30s/120m` | [`TimeControl::Fischer`] with `max_ms` = 120 min |
//! | `byoyomi:60m+5x30s` | [`TimeControl::Byoyomi`]: 5 periods of 30 s |
//! | `canadian:60m+25/10m` | [`TimeControl::Canadian`]: 25 stones in 10 min |
//! | `simple:30s` | [`TimeControl::Simple`] |
//!
//! A duration is one or more `<digits><unit>` parts with units `h`, `m`, `s`,
//! `ms`, largest first, each unit at most once: `1h30m`, `90m`, `2m30s`,
//! `1s500ms`, `0s`. Leading and trailing whitespace around the whole text is
//! ignored; system names are lowercase.
//!
//! The canonical form written by [`std::fmt::Display`] uses minutes as the
//! largest unit and omits zero parts (`90m`, not `1h30m`; `0s` for zero), so
//! `sudden:30m`, `fischer:90m+30s`, `byoyomi:60m+5x30s`,
//! `canadian:60m+25/10m` and `simple:30s` are all canonical and print back
//! unchanged.
//!
//! ```
//! use kifu_clock::TimeControl;
//! let tc: TimeControl = "byoyomi:1h+5x30s".parse().unwrap();
//! assert_eq!(tc, TimeControl::Byoyomi { main_ms: 3_600_000, periods: 5, period_ms: 30_000 });
//! assert_eq!(tc.to_string(), "byoyomi:60m+5x30s");
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::time_control::TimeControl;

/// What was wrong with a time-control text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The text was empty or only whitespace.
    #[error("empty time control")]
    Empty,
    /// The part before `:` is not a known system.
    #[error("unknown time system {system:?} (expected none, sudden, fischer, byoyomi, canadian or simple)")]
    UnknownSystem {
        /// The system name as given.
        system: String,
    },
    /// A system other than `none` was given without `:` and parameters.
    #[error("{system} needs parameters, e.g. {example}")]
    MissingParameters {
        /// The system name.
        system: &'static str,
        /// An example of the expected form.
        example: &'static str,
    },
    /// `none` was followed by parameters.
    #[error("\"none\" takes no parameters, got {given:?}")]
    UnexpectedParameters {
        /// The parameters as given.
        given: String,
    },
    /// The parameters do not have the shape the system needs.
    #[error("{system} parameters {given:?} do not match the form {expected}")]
    Malformed {
        /// The system name.
        system: &'static str,
        /// The parameters as given.
        given: String,
        /// The expected form.
        expected: &'static str,
    },
    /// A duration could not be read.
    #[error("bad duration {given:?}: {problem}")]
    BadDuration {
        /// The duration text as given.
        given: String,
        /// What was wrong with it.
        problem: &'static str,
    },
    /// A count (periods or stones) could not be read.
    #[error("bad {what} count {given:?}: {problem}")]
    BadCount {
        /// `"periods"` or `"stones"`.
        what: &'static str,
        /// The count as given.
        given: String,
        /// What was wrong with it.
        problem: &'static str,
    },
}

/// Parses the short text form; the same as `text.parse::<TimeControl>()`.
///
/// # Errors
///
/// A [`ParseError`] saying which part of the text was wrong. Never panics.
pub fn parse_time_control(text: &str) -> Result<TimeControl, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    let (system, params) = match text.split_once(':') {
        Some((s, p)) => (s, Some(p)),
        None => (text, None),
    };
    match system {
        "none" => match params {
            None => Ok(TimeControl::Untimed),
            Some(p) => Err(ParseError::UnexpectedParameters {
                given: p.to_owned(),
            }),
        },
        "sudden" | "absolute" => {
            let p = need(params, "sudden", "sudden:30m")?;
            Ok(TimeControl::SuddenDeath {
                main_ms: parse_duration(p)?,
            })
        }
        "simple" => {
            let p = need(params, "simple", "simple:30s")?;
            Ok(TimeControl::Simple {
                per_move_ms: parse_duration(p)?,
            })
        }
        "fischer" => {
            const FORM: &str = "<main>+<increment>[/<cap>]";
            let p = need(params, "fischer", "fischer:90m+30s")?;
            let (main, rest) = split(p, '+', "fischer", FORM)?;
            let (increment, cap) = match rest.split_once('/') {
                Some((i, c)) => (i, Some(c)),
                None => (rest, None),
            };
            Ok(TimeControl::Fischer {
                main_ms: parse_duration(main)?,
                increment_ms: parse_duration(increment)?,
                max_ms: cap.map(parse_duration).transpose()?,
            })
        }
        "byoyomi" => {
            const FORM: &str = "<main>+<periods>x<period>";
            let p = need(params, "byoyomi", "byoyomi:60m+5x30s")?;
            let (main, rest) = split(p, '+', "byoyomi", FORM)?;
            let (periods, period) = split(rest, 'x', "byoyomi", FORM)?;
            Ok(TimeControl::Byoyomi {
                main_ms: parse_duration(main)?,
                periods: parse_count(periods, "periods")?,
                period_ms: parse_duration(period)?,
            })
        }
        "canadian" => {
            const FORM: &str = "<main>+<stones>/<block>";
            let p = need(params, "canadian", "canadian:60m+25/10m")?;
            let (main, rest) = split(p, '+', "canadian", FORM)?;
            let (stones, block) = split(rest, '/', "canadian", FORM)?;
            let stones = parse_count(stones, "stones")?;
            if stones == 0 {
                return Err(ParseError::BadCount {
                    what: "stones",
                    given: "0".to_owned(),
                    problem: "a block needs at least one stone",
                });
            }
            Ok(TimeControl::Canadian {
                main_ms: parse_duration(main)?,
                stones,
                block_ms: parse_duration(block)?,
            })
        }
        other => Err(ParseError::UnknownSystem {
            system: other.to_owned(),
        }),
    }
}

fn need<'a>(
    params: Option<&'a str>,
    system: &'static str,
    example: &'static str,
) -> Result<&'a str, ParseError> {
    params.ok_or(ParseError::MissingParameters { system, example })
}

fn split<'a>(
    text: &'a str,
    at: char,
    system: &'static str,
    expected: &'static str,
) -> Result<(&'a str, &'a str), ParseError> {
    text.split_once(at).ok_or_else(|| ParseError::Malformed {
        system,
        given: text.to_owned(),
        expected,
    })
}

fn parse_count(text: &str, what: &'static str) -> Result<u32, ParseError> {
    let bad = |problem| ParseError::BadCount {
        what,
        given: text.to_owned(),
        problem,
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("expected decimal digits"));
    }
    text.parse().map_err(|_| bad("too large"))
}

/// Parses a duration such as `1h30m`, `30s` or `1s500ms` into milliseconds.
///
/// # Errors
///
/// [`ParseError::BadDuration`] if a part has no digits or no known unit,
/// units are out of order or repeated, or the total overflows `u64`.
pub fn parse_duration(text: &str) -> Result<u64, ParseError> {
    let bad = |problem| ParseError::BadDuration {
        given: text.to_owned(),
        problem,
    };
    if text.is_empty() {
        return Err(bad("empty"));
    }
    let mut total: u64 = 0;
    // Rank of the last unit read: units must come largest first, once each.
    let mut last_rank = usize::MAX;
    let mut rest = text;
    while !rest.is_empty() {
        let digits_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits_end == 0 {
            return Err(bad("expected digits before a unit"));
        }
        let (digits, after) = rest.split_at(digits_end);
        let unit_end = after
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(after.len());
        let (unit, next) = after.split_at(unit_end);
        let (rank, factor) = match unit {
            "h" => (0, 3_600_000),
            "m" => (1, 60_000),
            "s" => (2, 1_000),
            "ms" => (3, 1),
            "" => return Err(bad("missing unit (h, m, s or ms)")),
            _ => return Err(bad("unknown unit (expected h, m, s or ms)")),
        };
        if last_rank != usize::MAX && rank <= last_rank {
            return Err(bad("units must be largest first and not repeated"));
        }
        last_rank = rank;
        let value: u64 = digits.parse().map_err(|_| bad("number too large"))?;
        total = value
            .checked_mul(factor)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(|| bad("duration too large"))?;
        rest = next;
    }
    Ok(total)
}

/// Writes a duration in canonical form: minutes, seconds, milliseconds, zero
/// parts omitted, `0s` for zero (`5_400_000` is `90m`, `1_500` is `1s500ms`).
pub fn format_duration(ms: u64) -> String {
    if ms == 0 {
        return "0s".to_owned();
    }
    let minutes = ms / 60_000;
    let seconds = ms % 60_000 / 1_000;
    let millis = ms % 1_000;
    let mut out = String::new();
    if minutes > 0 {
        out.push_str(&format!("{minutes}m"));
    }
    if seconds > 0 {
        out.push_str(&format!("{seconds}s"));
    }
    if millis > 0 {
        out.push_str(&format!("{millis}ms"));
    }
    out
}

impl FromStr for TimeControl {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_time_control(s)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = format_duration;
        match *self {
            TimeControl::Untimed => f.write_str("none"),
            TimeControl::SuddenDeath { main_ms } => write!(f, "sudden:{}", d(main_ms)),
            TimeControl::Fischer {
                main_ms,
                increment_ms,
                max_ms,
            } => {
                write!(f, "fischer:{}+{}", d(main_ms), d(increment_ms))?;
                match max_ms {
                    Some(cap) => write!(f, "/{}", d(cap)),
                    None => Ok(()),
                }
            }
            TimeControl::Simple { per_move_ms } => write!(f, "simple:{}", d(per_move_ms)),
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            } => {
                write!(f, "byoyomi:{}+{}x{}", d(main_ms), periods, d(period_ms))
            }
            TimeControl::Canadian {
                main_ms,
                stones,
                block_ms,
            } => {
                write!(f, "canadian:{}+{}/{}", d(main_ms), stones, d(block_ms))
            }
        }
    }
}

/// Reads an SGF `OT` value as [`crate::sgf_root_properties`] writes it (and
/// as KGS and OGS write it): `5x30 byo-yomi`, `25/600 Canadian`,
/// `30 fischer`, `30 simple` (seconds, decimals allowed, case ignored),
/// with `main_ms` from `TM`. `None` when the text is none of these forms.
///
/// ```
/// use kifu_clock::{notation::parse_sgf_overtime, sgf_root_properties, TimeControl};
/// let tc: TimeControl = "byoyomi:60m+5x30s".parse().unwrap();
/// let ot = &sgf_root_properties(&tc)[1].1;
/// assert_eq!(parse_sgf_overtime(3_600_000, ot), Some(tc));
/// ```
pub fn parse_sgf_overtime(main_ms: u64, ot: &str) -> Option<TimeControl> {
    let ot = ot.trim().to_ascii_lowercase();
    let secs = |s: &str| -> Option<u64> {
        let v: f64 = s.trim().parse().ok()?;
        (v.is_finite() && v > 0.0 && v < 1.0e9).then(|| (v * 1000.0).round() as u64)
    };
    if let Some(rest) = ot
        .strip_suffix("byo-yomi")
        .or_else(|| ot.strip_suffix("byoyomi"))
    {
        let (n, p) = rest.trim().split_once('x')?;
        let periods: u32 = n.trim().parse().ok().filter(|n| *n > 0)?;
        return Some(TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms: secs(p)?,
        });
    }
    if let Some(rest) = ot.strip_suffix("canadian") {
        let (n, b) = rest.trim().split_once('/')?;
        let stones: u32 = n.trim().parse().ok().filter(|n| *n > 0)?;
        return Some(TimeControl::Canadian {
            main_ms,
            stones,
            block_ms: secs(b)?,
        });
    }
    if let Some(rest) = ot.strip_suffix("fischer") {
        return Some(TimeControl::Fischer {
            main_ms,
            increment_ms: secs(rest)?,
            max_ms: None,
        });
    }
    if let Some(rest) = ot.strip_suffix("simple") {
        return Some(TimeControl::Simple {
            per_move_ms: secs(rest)?,
        });
    }
    None
}

/// Days since 1970-01-01 as a proleptic Gregorian `(year, month, day)`.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Howard Hinnant's algorithm (public domain), exact for every i64 day
    // count that fits.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A timestamp (ms since the Unix epoch) as an ISO 8601 date and time in
/// UTC, with the zone: `2026-01-01T09:30:05Z`.
///
/// ```
/// assert_eq!(kifu_clock::notation::iso8601_utc(1_767_225_600_000), "2026-01-01T00:00:00Z");
/// ```
pub fn iso8601_utc(ms: u64) -> String {
    let secs = (ms / 1_000) as i64;
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3_600,
        s / 60 % 60,
        s % 60
    )
}

/// The UTC date of a timestamp, `YYYY-MM-DD` (as SGF `DT` writes it).
///
/// ```
/// assert_eq!(kifu_clock::notation::iso_date_utc(1_767_225_600_000), "2026-01-01");
/// ```
pub fn iso_date_utc(ms: u64) -> String {
    let (y, mo, d) = civil_from_days(((ms / 1_000) as i64).div_euclid(86_400));
    format!("{y:04}-{mo:02}-{d:02}")
}
