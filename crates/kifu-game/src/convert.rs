//! The one home of conversions between the ledger's values and the engines':
//! recorded facts as the clock projection's inputs, colours and points for
//! the Go and Renju engines. Functions, not `From` impls: both types are
//! foreign to this crate.

use kifu_clock::{ClockEvent, PauseReason as ClockPause, Player};
use kifu_ledger::{
    Body, Color, GameKind, GameResult, Outcome, PauseReason, Point, ResultBy, TimeControl,
};

/// The clock's time control for a recorded one (same variants, same values).
pub fn clock_time_control(tc: &TimeControl) -> kifu_clock::TimeControl {
    use kifu_clock::TimeControl as C;
    match *tc {
        TimeControl::Untimed => C::Untimed,
        TimeControl::SuddenDeath { main_ms } => C::SuddenDeath { main_ms },
        TimeControl::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        } => C::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        },
        TimeControl::Simple { per_move_ms } => C::Simple { per_move_ms },
        TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => C::Byoyomi {
            main_ms,
            periods,
            period_ms,
        },
        TimeControl::Canadian {
            main_ms,
            stones,
            block_ms,
        } => C::Canadian {
            main_ms,
            stones,
            block_ms,
        },
    }
}

/// The recorded time control for a clock's (same variants, same values).
pub fn ledger_time_control(tc: &kifu_clock::TimeControl) -> TimeControl {
    use kifu_clock::TimeControl as C;
    match *tc {
        C::Untimed => TimeControl::Untimed,
        C::SuddenDeath { main_ms } => TimeControl::SuddenDeath { main_ms },
        C::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        } => TimeControl::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        },
        C::Simple { per_move_ms } => TimeControl::Simple { per_move_ms },
        C::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms,
        },
        C::Canadian {
            main_ms,
            stones,
            block_ms,
        } => TimeControl::Canadian {
            main_ms,
            stones,
            block_ms,
        },
    }
}

/// The clock side of a seat's colour.
pub fn clock_player(c: Color) -> Player {
    match c {
        Color::Black => Player::Black,
        Color::White => Player::White,
    }
}

/// The clock's pause reason for a recorded one.
pub fn clock_pause(r: &PauseReason) -> ClockPause {
    match r {
        PauseReason::StatusAssessment => ClockPause::StatusAssessment,
        PauseReason::Counting => ClockPause::Counting,
        PauseReason::ResetClock => ClockPause::OvertimeReset,
        PauseReason::Toilet => ClockPause::Toilet,
        PauseReason::RemoveStones => ClockPause::StoneRemoval,
        PauseReason::ClockMalfunction => ClockPause::ClockMalfunction,
        PauseReason::Adjournment => ClockPause::Adjournment,
        // The ledger records one reason for both steps of sealing.
        PauseReason::Sealing => ClockPause::FetchSealingForm,
        PauseReason::CallReferee => ClockPause::CallReferee,
        PauseReason::Arbitration => ClockPause::Arbitration,
        PauseReason::Announcement => ClockPause::Announcement,
        PauseReason::Other(s) => ClockPause::Other(s.clone()),
    }
}

/// The clock event a recorded fact amounts to, if any.
///
/// Stones and passes do not move the clock: the press does. A referee's
/// adjustment is a clock event of its own.
pub fn clock_event(at_ms: u64, body: &Body) -> Option<ClockEvent> {
    Some(match body {
        Body::ClockStarted { running } => ClockEvent::Started {
            at_ms,
            running: clock_player(*running),
        },
        Body::ClockPressed { player } => ClockEvent::Pressed {
            at_ms,
            player: clock_player(*player),
        },
        Body::ClockPaused { reason } => ClockEvent::Paused {
            at_ms,
            reason: clock_pause(reason),
        },
        Body::ClockResumed { running } => ClockEvent::Resumed {
            at_ms,
            running: Some(clock_player(*running)),
        },
        Body::ClockAdjusted {
            player,
            delta_ms,
            reason,
        } => ClockEvent::Adjusted {
            at_ms,
            player: clock_player(*player),
            delta_ms: *delta_ms,
            reason: reason.clone(),
        },
        _ => return None,
    })
}

// Colours and points for the engines.

/// Ledger colour to engine colour.
pub fn go_color(c: Color) -> kifu_go::Color {
    match c {
        Color::Black => kifu_go::Color::Black,
        Color::White => kifu_go::Color::White,
    }
}

/// Engine colour to ledger colour.
pub fn ledger_color(c: kifu_go::Color) -> Color {
    match c {
        kifu_go::Color::Black => Color::Black,
        kifu_go::Color::White => Color::White,
    }
}

/// Ledger point to engine point (same convention: column from the left, row
/// from the top, from 0).
pub fn go_point(p: Point) -> kifu_go::Point {
    kifu_go::Point::new(p.x, p.y)
}

/// Engine point to ledger point (the same convention).
pub fn ledger_point(p: kifu_go::Point) -> Point {
    Point { x: p.x, y: p.y }
}

/// Ledger seat to engine player.
pub(crate) fn player_id(c: Color) -> kifu_renju::PlayerId {
    match c {
        Color::Black => kifu_renju::PlayerId::First,
        Color::White => kifu_renju::PlayerId::Second,
    }
}

/// Engine player to ledger seat.
pub(crate) fn seat(p: kifu_renju::PlayerId) -> Color {
    match p {
        kifu_renju::PlayerId::First => Color::Black,
        kifu_renju::PlayerId::Second => Color::White,
    }
}

/// The rule a Gomoku game kind is (`gomoku_freestyle` is played under
/// `gomoku-freestyle`, whatever profile the genesis names); `None` for Go
/// and Renju, whose rule is the genesis' profile.
pub fn gomoku_rule(kind: GameKind) -> Option<kifu_renju::Rule> {
    match kind {
        GameKind::GomokuFreestyle => Some(kifu_renju::Rule::GomokuFreestyle),
        GameKind::GomokuStandard => Some(kifu_renju::Rule::GomokuStandard),
        GameKind::Go | GameKind::Renju => None,
    }
}

/// Ledger point (row from the top) to a Renju point (row from the bottom).
pub(crate) fn renju_point(p: Point) -> Option<kifu_renju::Point> {
    if p.y >= kifu_renju::BOARD_SIZE {
        return None;
    }
    kifu_renju::Point::new(p.x, kifu_renju::BOARD_SIZE - 1 - p.y)
}

/// 0 for Black, 1 for White: the index into per-side arrays.
pub(crate) fn idx(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The clock side of a colour.
pub(crate) fn player(c: Color) -> Player {
    clock_player(c)
}

/// The colour of a clock side.
pub(crate) fn colour_of(p: Player) -> Color {
    match p {
        Player::Black => Color::Black,
        Player::White => Color::White,
    }
}

/// The recorded result of a count: a win by the margin (in half points),
/// or a draw (jigo) by a margin of nothing.
pub fn score_result(r: &kifu_go::GameResult) -> GameResult {
    let (outcome, margin_half_points) = match *r {
        kifu_go::GameResult::Black(h) => (Outcome::Win(Color::Black), h as i32),
        kifu_go::GameResult::White(h) => (Outcome::Win(Color::White), h as i32),
        kifu_go::GameResult::Draw => (Outcome::Draw, 0),
    };
    GameResult {
        outcome,
        by: ResultBy::Score { margin_half_points },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_points_cross_the_line_and_come_back() {
        for c in [Color::Black, Color::White] {
            assert_eq!(ledger_color(go_color(c)), c);
            assert_eq!(seat(player_id(c)), c);
            assert_eq!(colour_of(clock_player(c)), c);
        }
        assert_eq!(go_color(Color::White), kifu_go::Color::White);
        assert_eq!(player_id(Color::Black), kifu_renju::PlayerId::First);
        assert_eq!(clock_player(Color::White), Player::White);
        assert_eq!([idx(Color::Black), idx(Color::White)], [0, 1]);
        let p = Point { x: 3, y: 15 };
        assert_eq!(go_point(p), kifu_go::Point::new(3, 15));
        assert_eq!(ledger_point(go_point(p)), p);
        // Renju counts rows from the bottom: the top row is 14.
        assert_eq!(
            renju_point(Point { x: 7, y: 0 }),
            kifu_renju::Point::new(7, 14)
        );
        assert_eq!(renju_point(Point { x: 7, y: 15 }), None);
        assert_eq!(
            gomoku_rule(GameKind::GomokuStandard),
            Some(kifu_renju::Rule::GomokuStandard)
        );
        assert_eq!(
            gomoku_rule(GameKind::GomokuFreestyle),
            Some(kifu_renju::Rule::GomokuFreestyle)
        );
        assert_eq!(gomoku_rule(GameKind::Renju), None);
        assert_eq!(gomoku_rule(GameKind::Go), None);
    }

    #[test]
    fn every_time_control_crosses_the_line_unchanged() {
        for tc in [
            TimeControl::Untimed,
            TimeControl::SuddenDeath { main_ms: 1_800_000 },
            TimeControl::Fischer {
                main_ms: 5_400_000,
                increment_ms: 30_000,
                max_ms: Some(7_200_000),
            },
            TimeControl::Simple {
                per_move_ms: 30_000,
            },
            TimeControl::Byoyomi {
                main_ms: 3_600_000,
                periods: 5,
                period_ms: 30_000,
            },
            TimeControl::Canadian {
                main_ms: 3_600_000,
                stones: 25,
                block_ms: 600_000,
            },
        ] {
            assert_eq!(ledger_time_control(&clock_time_control(&tc)), tc);
        }
        assert_eq!(
            clock_time_control(&TimeControl::Simple { per_move_ms: 7 }),
            kifu_clock::TimeControl::Simple { per_move_ms: 7 }
        );
    }

    #[test]
    fn a_count_is_a_result_by_score_in_half_points() {
        let r = score_result(&kifu_go::GameResult::White(7));
        assert_eq!(r.outcome, Outcome::Win(Color::White));
        assert_eq!(
            r.by,
            ResultBy::Score {
                margin_half_points: 7
            }
        );
        let r = score_result(&kifu_go::GameResult::Draw);
        assert_eq!(r.outcome, Outcome::Draw);
        assert_eq!(
            r.by,
            ResultBy::Score {
                margin_half_points: 0
            }
        );
        assert_eq!(
            score_result(&kifu_go::GameResult::Black(1)).outcome,
            Outcome::Win(Color::Black)
        );
    }

    #[test]
    fn recorded_facts_become_clock_events_and_moves_do_not() {
        assert_eq!(
            clock_event(
                5,
                &Body::ClockPressed {
                    player: Color::Black
                }
            ),
            Some(ClockEvent::Pressed {
                at_ms: 5,
                player: Player::Black
            })
        );
        assert_eq!(
            clock_pause(&PauseReason::Sealing),
            ClockPause::FetchSealingForm
        );
        assert_eq!(
            clock_event(
                5,
                &Body::StonePlaced {
                    player: Color::Black,
                    stone: Color::Black,
                    point: Point { x: 0, y: 0 }
                }
            ),
            None
        );
    }
}
