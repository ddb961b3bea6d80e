//! The ledger's time control and the clock's have one layout: every variant
//! serialises to the same bytes and converts both ways unchanged.

use kifu_game::convert::{clock_time_control, ledger_time_control};
use kifu_ledger::TimeControl;

fn all() -> Vec<TimeControl> {
    vec![
        TimeControl::Untimed,
        TimeControl::SuddenDeath { main_ms: 1_800_000 },
        TimeControl::Fischer {
            main_ms: 5_400_000,
            increment_ms: 30_000,
            max_ms: Some(7_200_000),
        },
        TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 1,
            max_ms: None,
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
    ]
}

#[test]
fn ledger_and_clock_time_controls_have_the_same_bytes_and_round_trip() {
    for tc in all() {
        let clock = clock_time_control(&tc);
        assert_eq!(ledger_time_control(&clock), tc);
        assert_eq!(
            serde_json::to_string(&tc).expect("json"),
            serde_json::to_string(&clock).expect("json")
        );
        assert_eq!(
            postcard::to_allocvec(&tc).expect("postcard"),
            postcard::to_allocvec(&clock).expect("postcard")
        );
        assert_eq!(tc.main_ms(), clock.main_ms());
    }
}
