//! Showing a time to people, at the resolution a tournament counts in.

use serde::{Deserialize, Serialize};

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
