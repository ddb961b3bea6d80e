//! Showing a time to people, at the resolution a tournament counts in.

use serde::{Deserialize, Serialize};

use crate::reading::PlayerFace;
use crate::time_control::TimeControl;

/// The smallest unit shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Resolution {
    /// `1:02:03.456`
    Millis,
    /// `1:02:03.4`: UEC Cup (uec-cup-computer-go-rules.txt), "Time limit": "The
    /// server will count time by 0.1 seconds".
    Tenths,
    /// `1:02:03`
    Seconds,
}

/// Formats `ms` as `H:MM:SS` (or `M:SS` under an hour) at `resolution`.
///
/// Digits below the resolution are cut off, never rounded up: a clock must not
/// show time a player no longer has, so `0:00` with 400 ms left is shown as
/// `0:00` at [`Resolution::Seconds`], and the flag falls only when the time
/// reaches exactly zero.
///
/// ```
/// use kifu_clock::{format_time, Resolution};
/// assert_eq!(format_time(3_723_456, Resolution::Millis), "1:02:03.456");
/// assert_eq!(format_time(59_999, Resolution::Tenths), "0:59.9");
/// assert_eq!(format_time(600_000, Resolution::Seconds), "10:00");
/// ```
pub fn format_time(ms: u64, resolution: Resolution) -> String {
    let hours = ms / 3_600_000;
    let minutes = ms / 60_000 % 60;
    let seconds = ms / 1_000 % 60;
    let millis = ms % 1_000;
    let mut out = if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    };
    match resolution {
        Resolution::Millis => out.push_str(&format!(".{millis:03}")),
        Resolution::Tenths => out.push_str(&format!(".{}", millis / 100)),
        Resolution::Seconds => {}
    }
    out
}

/// A clock face in words, as the clock on the table shows it and in the
/// shape the time control is written (`byo-yomi, 1:00:00 + 5 × 0:30`):
///
/// | System | Face |
/// |---|---|
/// | sudden death, Fischer | main time left: `9:41` |
/// | byo-yomi | main time left plus the periods left: `59:27 + 5 × 0:30`; in overtime `0:00 + 3 × 0:30`, and while a period is under way the time left in it: `0:00 + 3 × 0:30 (0:12 left in the period)` |
/// | Canadian | main time left plus the stones of the block and the time for them: `59:27 + 25 stones in 10:00`, `0:00 + 12 stones in 4:31` |
/// | simple | time left for the move: `0:25` (with time the referee added: `1:00 + 0:25`) |
/// | no clock | `untimed` |
///
/// Byo-yomi periods count the period under way: LGC 2023
/// (`docs/rules/lgc-tournament-rules-2023.txt`, "Japanese byo-yomi"): "A
/// move must be completed within the byo-yomi time period", and a move
/// completed within a period does not use it up (`fixtures/clocks/vectors.json`,
/// `systems.byoyomi`). A paused clock shows the time left at the pause, the
/// part of the turn used before it included (LGC 2023, "Management of time":
/// both timepieces are stopped). Times are cut to `resolution` as
/// [`format_time`] cuts them.
///
/// ```
/// use kifu_clock::{format_face, PlayerFace, Resolution, TimeControl};
/// let tc: TimeControl = "byoyomi:60m+5x30s".parse().unwrap();
/// let face = PlayerFace { main_ms: 0, overtime_ms: Some(12_400), count: Some(3) };
/// assert_eq!(
///     format_face(&face, &tc, Resolution::Seconds),
///     "0:00 + 3 × 0:30 (0:12 left in the period)"
/// );
/// ```
pub fn format_face(face: &PlayerFace, control: &TimeControl, resolution: Resolution) -> String {
    let t = |ms: u64| format_time(ms, resolution);
    let main = t(face.main_ms);
    match *control {
        TimeControl::Untimed => "untimed".into(),
        TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => main,
        TimeControl::Simple { .. } => match face.overtime_ms {
            Some(left) if face.main_ms == 0 => t(left),
            Some(left) => format!("{main} + {}", t(left)),
            None => main,
        },
        TimeControl::Byoyomi { period_ms, .. } => {
            let periods = face.count.unwrap_or(0);
            let mut out = format!("{main} + {periods} × {}", t(period_ms));
            let under_way = face
                .overtime_ms
                .filter(|&left| face.main_ms == 0 && periods > 0 && left < period_ms);
            if let Some(left) = under_way {
                out.push_str(&format!(" ({} left in the period)", t(left)));
            }
            out
        }
        TimeControl::Canadian { .. } => {
            let stones = face.count.unwrap_or(0);
            let word = if stones == 1 { "stone" } else { "stones" };
            format!(
                "{main} + {stones} {word} in {}",
                t(face.overtime_ms.unwrap_or(0))
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(main_ms: u64, overtime_ms: Option<u64>, count: Option<u32>) -> PlayerFace {
        PlayerFace {
            main_ms,
            overtime_ms,
            count,
        }
    }

    #[test]
    fn faces_in_main_time_show_what_overtime_follows() {
        let byo: TimeControl = "byoyomi:60m+5x30s".parse().unwrap();
        assert_eq!(
            format_face(
                &face(3_567_500, Some(30_000), Some(5)),
                &byo,
                Resolution::Seconds
            ),
            "59:27 + 5 × 0:30"
        );
        let can: TimeControl = "canadian:60m+25/10m".parse().unwrap();
        assert_eq!(
            format_face(
                &face(3_567_500, Some(600_000), Some(25)),
                &can,
                Resolution::Seconds
            ),
            "59:27 + 25 stones in 10:00"
        );
        let sudden: TimeControl = "sudden:30m".parse().unwrap();
        assert_eq!(
            format_face(&face(1_781_900, None, None), &sudden, Resolution::Tenths),
            "29:41.9"
        );
        let fischer: TimeControl = "fischer:10m+10s".parse().unwrap();
        assert_eq!(
            format_face(&face(630_000, None, None), &fischer, Resolution::Seconds),
            "10:30"
        );
    }

    #[test]
    fn faces_in_overtime_show_periods_or_stones_left() {
        let byo: TimeControl = "byoyomi:60m+5x30s".parse().unwrap();
        // At the start of a turn: whole periods.
        assert_eq!(
            format_face(&face(0, Some(30_000), Some(3)), &byo, Resolution::Seconds),
            "0:00 + 3 × 0:30"
        );
        // A period under way: the time left in it, the count keeps it.
        assert_eq!(
            format_face(&face(0, Some(4_000), Some(1)), &byo, Resolution::Seconds),
            "0:00 + 1 × 0:30 (0:04 left in the period)"
        );
        // Every period used: the flag is down.
        assert_eq!(
            format_face(&face(0, Some(0), Some(0)), &byo, Resolution::Seconds),
            "0:00 + 0 × 0:30"
        );
        let can: TimeControl = "canadian:60m+25/10m".parse().unwrap();
        assert_eq!(
            format_face(&face(0, Some(271_000), Some(12)), &can, Resolution::Seconds),
            "0:00 + 12 stones in 4:31"
        );
        assert_eq!(
            format_face(&face(0, Some(11_000), Some(1)), &can, Resolution::Seconds),
            "0:00 + 1 stone in 0:11"
        );
        let simple: TimeControl = "simple:30s".parse().unwrap();
        assert_eq!(
            format_face(&face(0, Some(25_000), None), &simple, Resolution::Seconds),
            "0:25"
        );
        assert_eq!(
            format_face(
                &face(60_000, Some(30_000), None),
                &simple,
                Resolution::Seconds
            ),
            "1:00 + 0:30"
        );
        assert_eq!(
            format_face(
                &face(0, None, None),
                &TimeControl::Untimed,
                Resolution::Seconds
            ),
            "untimed"
        );
    }
}
