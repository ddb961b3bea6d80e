//! Time properties for SGF export (FF\[4\]).
//!
//! | Property | Where | Value written |
//! |---|---|---|
//! | `TM` | root | main time in seconds (omitted for simple time and no clock) |
//! | `OT` | root | `5x30 byo-yomi`, `25/600 Canadian`, `30 fischer`, `30 simple` (seconds; the forms KGS writes and OGS reads); omitted for sudden death and no clock |
//! | `BL`/`WL` | move | seconds left in the current phase: main time, or in overtime the time left in the period, block or move |
//! | `OB`/`OW` | move | in overtime only: periods left (byo-yomi) or stones left in the block (Canadian) |
//!
//! Seconds are written as a decimal with up to three places, cut (not
//! rounded) to the millisecond, trailing zeros dropped: `1787.561`, `30`.
//!
//! This is SGF FF\[4\]'s reading of the properties (BL, WL: "time left for
//! black/white, after the move was made"; OB, OW: "number of moves left
//! (after the move was made) within the current byo-yomi period /
//! overtime"): `BL`/`WL` is never the whole budget (main time plus every
//! period). With `OT[3x30 byo-yomi]` and `TM[60]`:
//!
//! | Clock after the move | `BL` | `OB` |
//! |---|---|---|
//! | 20 s of main time left | `BL[20]` | none |
//! | in the periods, 3 left, the period under way reset | `BL[30]` | `OB[3]` |
//! | Canadian `OT[5/120 Canadian]`, 110 s and 4 stones left in the block | `BL[110]` | `OB[4]` |
//!
//! `kifu sgf export` writes both clocks on every move as the game
//! projection's faces show them at the press completing the move
//! ([`crate::PlayerFace::shown`]): a byo-yomi period or Canadian block reset
//! by the press shows its full time. `kifu sgf import` reads them back the
//! same way, each `BL` with its own `OB` (a `BL` without `OB` is a main-time
//! reading), into a clock reading per move that has one; exported and
//! imported again, the readings are the same.
//!
//! On a move node, [`sgf_move_properties`] writes the time left **at the
//! press, before any period or block reset** (so byo-yomi does not always
//! show the full period) and the count after the move; for Fischer the main
//! time after the increment. A Fischer cap, pauses and the referee's
//! adjustments have no FF\[4\] property; the ledger remains the record of them.

use crate::clock::{MoveRecord, PlayerClock};
use crate::player::Player;
use crate::reading::ShownTime;
use crate::time_control::TimeControl;

/// Milliseconds as SGF seconds: `1_787_561` is `1787.561`, `30_000` is `30`.
pub fn sgf_seconds(ms: u64) -> String {
    let whole = ms / 1_000;
    let frac = ms % 1_000;
    if frac == 0 {
        return whole.to_string();
    }
    let digits = format!("{frac:03}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// The root properties `TM` and `OT` for a time control, in that order.
///
/// ```
/// use kifu_clock::{sgf_root_properties, TimeControl};
/// let tc: TimeControl = "byoyomi:60m+5x30s".parse().unwrap();
/// assert_eq!(sgf_root_properties(&tc), vec![("TM", "3600".to_owned()), ("OT", "5x30 byo-yomi".to_owned())]);
/// ```
pub fn sgf_root_properties(control: &TimeControl) -> Vec<(&'static str, String)> {
    let s = sgf_seconds;
    let mut props = Vec::new();
    match *control {
        TimeControl::Untimed => {}
        TimeControl::SuddenDeath { main_ms } => props.push(("TM", s(main_ms))),
        TimeControl::Fischer {
            main_ms,
            increment_ms,
            ..
        } => {
            props.push(("TM", s(main_ms)));
            props.push(("OT", format!("{} fischer", s(increment_ms))));
        }
        TimeControl::Simple { per_move_ms } => {
            props.push(("OT", format!("{} simple", s(per_move_ms))));
        }
        TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => {
            props.push(("TM", s(main_ms)));
            props.push(("OT", format!("{periods}x{} byo-yomi", s(period_ms))));
        }
        TimeControl::Canadian {
            main_ms,
            stones,
            block_ms,
        } => {
            props.push(("TM", s(main_ms)));
            props.push(("OT", format!("{stones}/{} Canadian", s(block_ms))));
        }
    }
    props
}

/// `BL`/`WL` and, in overtime, `OB`/`OW` for what a clock shows.
pub fn sgf_time_properties(player: Player, shown: ShownTime) -> Vec<(&'static str, String)> {
    let (time, count) = match player {
        Player::Black => ("BL", "OB"),
        Player::White => ("WL", "OW"),
    };
    let mut props = vec![(time, sgf_seconds(shown.time_ms))];
    if let Some(n) = shown.count {
        props.push((count, n.to_string()));
    }
    props
}

/// `BL`/`WL` and `OB`/`OW` for a player's clock between moves (for example
/// at the end of a game record): main time while there is some, then the
/// overtime phase with its count.
///
/// ```
/// use kifu_clock::{sgf_player_properties, Overtime, Player, PlayerClock};
/// let clock = PlayerClock {
///     main_ms: 0,
///     overtime: Overtime::ByoYomi { periods_left: 2, period_ms: 30_000 },
///     used_ms: 3_600_000,
/// };
/// assert_eq!(sgf_player_properties(Player::White, &clock),
///            vec![("WL", "30".to_owned()), ("OW", "2".to_owned())]);
/// ```
pub fn sgf_player_properties(player: Player, clock: &PlayerClock) -> Vec<(&'static str, String)> {
    sgf_time_properties(player, clock.face(0).shown())
}

/// `BL`/`WL` and `OB`/`OW` for a move node, from what the move did.
pub fn sgf_move_properties(record: &MoveRecord) -> Vec<(&'static str, String)> {
    let count = if record.in_overtime {
        record.count
    } else {
        None
    };
    sgf_time_properties(
        record.player,
        ShownTime {
            time_ms: record.left_ms,
            count,
        },
    )
}
