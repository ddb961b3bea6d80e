//! What the results files say about the event itself.

use serde::{Deserialize, Serialize};

/// The event's description for the EGD and AGA results files.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EventInfo {
    /// Event name (`EV[...]`, AGA `TOURNEY`).
    pub name: String,
    /// Two-letter country code (`PC[country,city]`).
    pub country: String,
    /// City.
    pub city: String,
    /// Location as the AGA line writes it (`Berlin, Germany`).
    pub location: String,
    /// First day, `YYYY-MM-DD`.
    pub start: String,
    /// Last day, `YYYY-MM-DD`.
    pub finish: String,
    /// EGF tournament class: `A`, `B` or `C`.
    pub class: String,
    /// Komi as written (`7`, `6.5`).
    pub komi: String,
    /// EGF adjusted time in minutes (basic time + 45 or 60 moves' overtime).
    pub adjusted_time_minutes: u32,
    /// Overtime system: `Sudden death`, `Standard byo-yomi`, `Canadian
    /// byo-yomi` or `Fischer`.
    pub overtime: String,
    /// Handicap reduction (`HA[hN]`), 0 for none.
    pub handicap_reduction: u32,
    /// Rules named on the AGA file (`AGA`, `Japanese`...).
    pub rules: String,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `2026-05-01`, `2026-05-02` → `May 1-2, 2026`; other spans spell both
/// ends. Dates that do not parse are written as given.
pub(crate) fn date_span(start: &str, finish: &str) -> String {
    let parse = |d: &str| -> Option<(u32, usize, u32)> {
        let mut it = d.split('-');
        let y = it.next()?.parse().ok()?;
        let m: usize = it.next()?.parse().ok()?;
        let day = it.next()?.parse().ok()?;
        (1..=12).contains(&m).then_some((y, m - 1, day))
    };
    match (parse(start), parse(finish)) {
        (Some((y1, m1, d1)), Some((y2, m2, d2))) if y1 == y2 && m1 == m2 && d1 == d2 => {
            format!("{} {d1}, {y1}", MONTHS[m1])
        }
        (Some((y1, m1, d1)), Some((y2, m2, d2))) if y1 == y2 && m1 == m2 => {
            format!("{} {d1}-{d2}, {y1}", MONTHS[m1])
        }
        (Some((y1, m1, d1)), Some((y2, m2, d2))) if y1 == y2 => {
            format!("{} {d1}-{} {d2}, {y1}", MONTHS[m1], MONTHS[m2])
        }
        (Some((y1, m1, d1)), Some((y2, m2, d2))) => {
            format!("{} {d1}, {y1}-{} {d2}, {y2}", MONTHS[m1], MONTHS[m2])
        }
        _ => format!("{start} - {finish}"),
    }
}
