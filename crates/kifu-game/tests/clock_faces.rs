//! The clock faces a referee reads in `kifu replay` and on the replay page
//! (`GameState::text`): main time left with the byo-yomi periods or the
//! Canadian block left, and a paused clock at the time left at the pause.
//!
//! LGC 2023 (`docs/rules/lgc-tournament-rules-2023.txt`), "Management of
//! time": the clock is paused "with both player's timepieces being stopped
//! simultaneously", so the time the player to move used before the pause is
//! gone from his face; "Japanese byo-yomi": "A move must be completed within
//! the byo-yomi time period", a period not used up by a move completed
//! within it.

mod support;
use support::*;

use kifu_game::GameState;
use kifu_ledger::*;

fn byoyomi(main_ms: u64, periods: u32, period_ms: u64) -> TimeControl {
    TimeControl::Byoyomi {
        main_ms,
        periods,
        period_ms,
    }
}

fn game(tc: TimeControl) -> G {
    G::with(GameKind::Go, "lgc-2023", 19, tc, |_| {})
}

/// A stone at `at_ms`, its clock press a second later.
fn timed_move(g: &mut G, c: Color, at: &str, at_ms: u64) {
    g.at(at_ms);
    g.mv(c, at);
}

fn pause(g: &mut G, at_ms: u64) -> u64 {
    g.at(at_ms);
    g.referee(Body::ClockPaused {
        reason: PauseReason::CallReferee,
    })
}

fn faces(st: &GameState) -> (String, String) {
    let t = st.text();
    (
        t.black_clock.expect("Black's face"),
        t.white_clock.expect("White's face"),
    )
}

#[test]
fn paused_in_main_time_the_face_is_the_time_left_at_the_pause() {
    let mut g = game(byoyomi(60 * MIN, 5, 30_000));
    g.at(1_000);
    g.start_clock();
    // Black presses at 32 s: 31 s used.
    timed_move(&mut g, B, "dd", 31_000);
    // White places a stone and calls the referee before pressing: 13 s of
    // his turn used when the clocks stop.
    g.at(42_000);
    g.play(W, "pp");
    pause(&mut g, 45_000);
    let at_pause = g.state();
    assert_eq!(
        faces(&at_pause),
        ("59:29 + 5 × 0:30".into(), "59:47 + 5 × 0:30".into())
    );
    let [_, white] = at_pause.clock_faces().expect("faces");
    assert_eq!(white.main_ms, 60 * MIN - 13_000);
    assert_eq!(white.time_left_ms, 60 * MIN + 150_000 - 13_000);
    // Ten minutes later, still paused: the faces stand.
    g.at(645_000);
    g.push(W, Body::RefereeCalled { player: W });
    assert_eq!(faces(&g.state()), faces(&at_pause));
    assert_eq!(
        g.state().text().paused.as_deref(),
        Some("to call the referee")
    );
}

#[test]
fn paused_in_the_middle_of_a_period_keeps_the_time_used_in_it() {
    let mut g = game(byoyomi(MIN, 3, 30_000));
    g.at(1_000);
    g.start_clock();
    // Black: 81 s, main time gone and 21 s of a period, which a move
    // completed within it does not use up.
    timed_move(&mut g, B, "dd", 81_000);
    timed_move(&mut g, W, "pp", 91_000);
    let st = g.state();
    assert_eq!(
        faces(&st),
        ("0:00 + 3 × 0:30".into(), "0:50 + 3 × 0:30".into())
    );
    // Black thinks 12 s, then the clocks are paused.
    pause(&mut g, 104_000);
    let st = g.state();
    assert_eq!(
        faces(&st),
        (
            "0:00 + 3 × 0:30 (0:18 left in the period)".into(),
            "0:50 + 3 × 0:30".into()
        )
    );
    let [black, _] = st.clock_faces().expect("faces");
    assert_eq!(
        (
            black.main_ms,
            black.overtime_ms,
            black.count,
            black.overtime_left
        ),
        (0, Some(18_000), Some(3), Some(3))
    );
}

#[test]
fn byo_yomi_with_periods_used_shows_the_periods_left() {
    let mut g = game(byoyomi(MIN, 5, 30_000));
    g.at(1_000);
    g.start_clock();
    // 125 s: main time and two whole periods.
    timed_move(&mut g, B, "dd", 125_000);
    let st = g.state();
    assert_eq!(faces(&st).0, "0:00 + 3 × 0:30");
    // The replay JSON's text object says the same.
    let v = serde_json::to_value(st.text()).expect("json");
    assert_eq!(v["black_clock"], "0:00 + 3 × 0:30");
    assert_eq!(v["white_clock"], "1:00 + 5 × 0:30");
}

#[test]
fn canadian_shows_the_stones_and_the_time_left_in_the_block() {
    let tc = TimeControl::Canadian {
        main_ms: MIN,
        stones: 10,
        block_ms: 5 * MIN,
    };
    let mut g = game(tc);
    g.at(1_000);
    g.start_clock();
    // Black: 90 s, the move that ran out main time is the block's first
    // stone; then 29 s for the second.
    timed_move(&mut g, B, "dd", 90_000);
    timed_move(&mut g, W, "pp", 91_000);
    timed_move(&mut g, B, "dp", 120_000);
    assert_eq!(
        faces(&g.state()),
        (
            "0:00 + 8 stones in 4:01".into(),
            "0:59 + 10 stones in 5:00".into()
        )
    );
    // White thinks 10 s and the clocks are paused.
    pause(&mut g, 131_000);
    assert_eq!(faces(&g.state()).1, "0:49 + 10 stones in 5:00");
}

#[test]
fn sudden_death_and_fischer_faces_are_main_time() {
    let mut g = G::go("lgc-2023");
    g.at(1_000);
    g.start_clock();
    timed_move(&mut g, B, "ee", 61_000);
    // Fischer: 60:00 less 61 s plus 30 s.
    assert_eq!(faces(&g.state()), ("59:29".into(), "1:00:00".into()));
    // Untimed: no face.
    let untimed = G::with(GameKind::Go, "lgc-2023", 9, TimeControl::Untimed, |_| {});
    assert_eq!(untimed.state().text().black_clock, None);
}

#[test]
fn half_points_in_words_carry_the_half_sign() {
    let g = G::go("lgc-2023");
    let st = g.state();
    let created = &st.events.first().expect("the genesis told").summary;
    assert!(created.contains("komi 7½,"), "{created}");
}
