//! The EGD results table (`.h9`, the "T-file" the European Go Database
//! reads), laid out as OpenGotha's `ExternalDocument.generateH9File` writes
//! it.
//!
//! One player per line, in standings order: place (blank for an ex-aequo),
//! `Surname Given` in 30 columns, rank, country, club, the placement criteria,
//! then one entry per round, `<row><+|-|=|?><'/' or '!'><w|b><handicap>`.
//! The opponent is named by **row number** in this list (unique even when
//! places are shared). A round without a game is `0+`, `0=` or `0-` by the
//! points it gave. `!` marks a result by default.
//!
//! Differences from OpenGotha 3.51, on purpose: the text is UTF-8 and a half
//! is written `½` (OpenGotha writes ISO-8859-15, where `½` does not exist and
//! comes out as `?`); values are not cut to four characters; no ` 0`
//! filler columns are added when there are fewer than four criteria.

use crate::compute::standings;
use crate::info::EventInfo;
use crate::model::{GameResult, ModelError, Participation, Tournament};

/// Right-aligns `s` in `width` characters (never cuts).
fn right(s: &str, width: usize) -> String {
    format!("{s:>width$}")
}

/// A name part with its blanks joined by `_`, so the parser sees one word.
fn unblank(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join("_")
}

/// The `.h9` text after `after_round`, ordered on the tournament's criteria.
/// With `keep_by_default` false, games decided by default are written `0=`
/// (left out of the rating) instead of `!` entries. Refused
/// ([`ModelError::NoEgfClass`]) when `info` has no class or adjusted time.
pub fn write(
    t: &Tournament,
    info: &EventInfo,
    after_round: u32,
    keep_by_default: bool,
) -> Result<String, ModelError> {
    // The class and adjusted time are never guessed (an empty class or no
    // adjusted time is not known).
    if info.class.trim().is_empty() || info.adjusted_time_minutes == 0 {
        return Err(ModelError::NoEgfClass);
    }
    let st = standings(t, after_round, &[], &[])?;
    let mut out = String::new();
    out.push_str(&format!("; CL[{}]\n", info.class));
    out.push_str(&format!("; EV[{}]\n", info.name));
    out.push_str(&format!("; PC[{},{}]\n", info.country, info.city));
    out.push_str(&format!("; DT[{},{}]\n", info.start, info.finish));
    if info.handicap_reduction > 0 {
        out.push_str(&format!("; HA[h{}]\n", info.handicap_reduction));
    }
    out.push_str(&format!("; KM[{}]\n", info.komi));
    out.push_str(&format!("; TM[{}]\n", info.adjusted_time_minutes));
    out.push_str(&format!("; CM[{}]\n", info.overtime));
    out.push_str(";\n");
    out.push_str("; Pl Name                            Rk Co Club");
    for c in &st.criteria {
        out.push(' ');
        out.push_str(&right(c.name(), 4));
    }
    out.push('\n');

    let row_of = |id: &str| st.rows.iter().position(|r| r.player == id).map(|i| i + 1);
    // McMahon tournaments write a round without a game by its MMS points,
    // others by its NBW points (OpenGotha `halfGamesStrings`).
    let mcmahon = st.criteria.first() == Some(&crate::Criterion::Mms);
    let s = &t.settings;
    let free = |halves: u8| match halves {
        2.. => "0+",
        1 => "0=",
        0 => "0-",
    };
    for (k, row) in st.rows.iter().enumerate() {
        let Some(p) = t.player(&row.player) else {
            continue;
        };
        let shared = k > 0 && st.rows[k - 1].place == row.place;
        let place = if shared {
            String::new()
        } else {
            row.place.to_string()
        };
        let mut name: String = format!("{} {}", unblank(&p.surname), unblank(&p.given));
        name = name.chars().take(30).collect();
        let country = if p.country.trim().len() == 2 {
            p.country.trim().to_string()
        } else {
            "XX".to_string()
        };
        let club = p.club.trim();
        let club: String = if club.is_empty() {
            "xxxx".to_string()
        } else {
            let chars: Vec<char> = club.chars().collect();
            chars[chars.len().saturating_sub(4)..].iter().collect()
        };
        let mut line = format!(
            "{} {:<30} {} {} {}",
            right(&place, 4),
            name,
            right(&p.rank.to_string(), 3),
            country,
            right(&club, 4)
        );
        for (_, v) in &row.values {
            line.push(' ');
            line.push_str(&right(&v.glyphs(), 4));
        }
        for round in 1..=after_round {
            let entry = match t.participation(round, &p.id) {
                Participation::Paired(g) => {
                    let white = g.white == p.id;
                    let res = match (g.result, white) {
                        (GameResult::WhiteWins, true)
                        | (GameResult::BlackWins, false)
                        | (GameResult::BothWin, _) => '+',
                        (GameResult::WhiteWins, false)
                        | (GameResult::BlackWins, true)
                        | (GameResult::BothLose, _) => '-',
                        (GameResult::Jigo, _) => '=',
                        (GameResult::Unknown, _) => '?',
                    };
                    if g.by_default && !keep_by_default {
                        "0=".to_string()
                    } else {
                        let kind = if g.by_default { '!' } else { '/' };
                        // OpenGotha `generateH9File`: `?` when the
                        // colours were not noted.
                        let colour = match (g.colours_known, white) {
                            (false, _) => '?',
                            (true, true) => 'w',
                            (true, false) => 'b',
                        };
                        let opp = row_of(g.opponent_of(&p.id)).unwrap_or(0);
                        format!("{opp}{res}{kind}{colour}{}", g.handicap)
                    }
                }
                Participation::Bye => {
                    free(if mcmahon { s.mms2_bye } else { s.nbw2_bye }).to_string()
                }
                Participation::Absent => free(if mcmahon {
                    s.mms2_absent
                } else {
                    s.nbw2_absent
                })
                .to_string(),
                Participation::NotAssigned => "0-".to_string(),
            };
            line.push(' ');
            line.push_str(&right(&entry, 8));
        }
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}
