//! What a clock face shows, in words, at the instants a referee looks at:
//! paused in main time, paused in the middle of a byo-yomi period, in
//! byo-yomi with periods used, in a Canadian block. Checked on the clock
//! vectors' pauses (`fixtures/clocks/vectors.json`) and on hand-made games.
//!
//! LGC 2023 (`docs/rules/lgc-tournament-rules-2023.txt`), "Management of
//! time": during a pause both timepieces are stopped, so a paused face shows
//! the time left at the pause (the part of the turn used before it counted).

use kifu_clock::{
    format_face, Clock, ClockEvent, PauseReason, Player, Resolution, Scenario, ScenarioEvent,
    TimeControl,
};

const B: Player = Player::Black;
const W: Player = Player::White;

fn project(control: &str, events: &[ClockEvent]) -> (Clock, TimeControl) {
    let tc: TimeControl = control.parse().expect("time control");
    (Clock::project(tc, events).expect("events apply"), tc)
}

fn start() -> ClockEvent {
    ClockEvent::Started {
        at_ms: 0,
        running: B,
    }
}

fn press(at_ms: u64, player: Player) -> ClockEvent {
    ClockEvent::Pressed { at_ms, player }
}

fn pause(at_ms: u64) -> ClockEvent {
    ClockEvent::Paused {
        at_ms,
        reason: PauseReason::CallReferee,
    }
}

/// Both faces in words at `at_ms`, whole seconds.
fn faces(clock: &Clock, tc: &TimeControl, at_ms: u64) -> [String; 2] {
    clock
        .face_at(at_ms)
        .expect("a face at or after the last event")
        .map(|f| format_face(&f, tc, Resolution::Seconds))
}

#[test]
fn paused_in_main_time_shows_the_time_left_at_the_pause() {
    // White thinks 2.5 s, then calls the referee; the pause lasts an hour.
    let (clock, tc) = project(
        "byoyomi:60m+5x30s",
        &[
            start(),
            press(70_500, B),
            press(101_000, W),
            press(111_500, B),
            pause(114_000),
        ],
    );
    let [black, white] = faces(&clock, &tc, 114_000 + 3_600_000);
    // Black: 70.5 s and 10.5 s used.
    assert_eq!(black, "58:39 + 5 × 0:30");
    // 60:00 less 30.5 s and the 2.5 s used before the pause: 59:27.
    assert_eq!(white, "59:27 + 5 × 0:30");
}

#[test]
fn paused_in_the_middle_of_a_period_keeps_the_time_used_in_it() {
    // Main time gone with Black's first move; White's periods untouched.
    let (clock, tc) = project(
        "byoyomi:1m+3x30s",
        &[start(), press(80_000, B), press(81_000, W), pause(93_000)],
    );
    // Black: 20 s into the first period, then 12 s of the next turn.
    let [black, white] = faces(&clock, &tc, 500_000);
    assert_eq!(black, "0:00 + 3 × 0:30 (0:18 left in the period)");
    assert_eq!(white, "0:59 + 3 × 0:30");
}

#[test]
fn byo_yomi_with_periods_used_counts_the_periods_left() {
    // Black runs through two whole periods and 5 s of the third.
    let (clock, tc) = project("byoyomi:1m+5x30s", &[start(), press(125_000, B)]);
    let [black, _] = faces(&clock, &tc, 125_000);
    assert_eq!(black, "0:00 + 3 × 0:30");
    // White's turn is running: 105 s in, main time and one period of his
    // five gone, 15 s of the second used.
    let [_, white] = faces(&clock, &tc, 125_000 + 105_000);
    assert_eq!(white, "0:00 + 4 × 0:30 (0:15 left in the period)");
}

#[test]
fn canadian_shows_the_stones_and_the_time_of_the_block() {
    let (clock, tc) = project(
        "canadian:1m+10/5m",
        &[
            start(),
            press(90_000, B),
            press(91_000, W),
            press(120_000, B),
        ],
    );
    // Black: 30 s of the block for the stone that ran out main time, then
    // 29 s for the second stone.
    let [black, white] = faces(&clock, &tc, 120_000);
    assert_eq!(black, "0:00 + 8 stones in 4:01");
    assert_eq!(white, "0:59 + 10 stones in 5:00");
    let (paused, tc) = project(
        "canadian:1m+10/5m",
        &[start(), press(90_000, B), press(91_000, W), pause(101_000)],
    );
    let [black, _] = faces(&paused, &tc, 900_000);
    assert_eq!(black, "0:00 + 9 stones in 4:20");
}

/// Every pause of the clock vectors: the face at the pause, and long after
/// it, is the time left at the pause, both in numbers and in words.
#[test]
fn every_vector_pause_shows_the_time_left_at_the_pause() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/clocks/vectors.json"
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("clock vectors missing at {path}: {e}; this test needs them"));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("vectors.json is JSON");
    let mut pauses = 0;
    for v in doc["vectors"].as_array().expect("vectors") {
        let scenario: Scenario = serde_json::from_value(v.clone()).expect("scenario");
        let tc = scenario.time_control().expect("time control");
        let mut clock = Clock::new(tc).expect("clock");
        clock
            .apply(&ClockEvent::Started {
                at_ms: scenario.start_ms,
                running: B,
            })
            .expect("start");
        let mut turn_from = scenario.start_ms;
        for e in &scenario.events {
            if let ScenarioEvent::Pause { t, .. } = e {
                let mover = clock.to_move();
                let before = *clock.player(mover);
                if clock.apply(&e.to_clock_event()).is_err() {
                    break;
                }
                let used = t - turn_from;
                let at_pause = clock.face_at(*t).expect("face at the pause");
                let later = clock.face_at(t + 1_000_000).expect("face later");
                assert_eq!(at_pause, later, "{:?}: a paused clock stands", scenario.id);
                assert_eq!(
                    at_pause[mover.index()],
                    before.face(used),
                    "{:?}: the time used before the pause counts",
                    scenario.id
                );
                let words = format_face(&at_pause[mover.index()], &tc, Resolution::Millis);
                let untouched = format_face(&before.face(0), &tc, Resolution::Millis);
                assert!(
                    used == 0 || words != untouched,
                    "{:?}: the words show the time used before the pause: {words}",
                    scenario.id
                );
                pauses += 1;
                continue;
            }
            if clock.apply(&e.to_clock_event()).is_err() {
                break;
            }
            if let ScenarioEvent::Press { t, .. } = e {
                turn_from = *t;
            }
            if let ScenarioEvent::Resume { t, .. } = e {
                // Time is counted again from the resumption; what was used
                // before the pause is already in `turn_from`'s difference.
                let paused_for = t - last_pause(&scenario, *t);
                turn_from += paused_for;
            }
        }
    }
    assert!(
        pauses >= 4,
        "the vectors pause at least four times: {pauses}"
    );
}

/// The instant of the last pause before `t`.
fn last_pause(s: &Scenario, t: u64) -> u64 {
    s.events
        .iter()
        .filter_map(|e| match e {
            ScenarioEvent::Pause { t: p, .. } if *p <= t => Some(*p),
            _ => None,
        })
        .max()
        .unwrap_or(t)
}
