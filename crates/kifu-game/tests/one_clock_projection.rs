//! One clock projection: the SGF export's `BL`/`WL`/`OB`/`OW` are the
//! clocks the game projection shows at the press completing each move (the
//! replay), on every clock vector that has moves and on a game where the
//! referee is called, a ruling adjusts a clock and a sanction modifies time.

mod support;
use support::*;

use kifu_game::{sgf_export::game_to_sgf, GameState};
use kifu_ledger::*;

/// Every move of the export against the replay at the press that completed it.
fn assert_sgf_equals_replay(events: &[Event]) -> usize {
    let sgf = game_to_sgf(events).expect("export");
    let state = GameState::replay(events);
    let mut checked = 0;
    for rec in &state.move_clocks {
        let shown = GameState::at(events, rec.at_seq)
            .clock_faces()
            .expect("clock faces");
        assert_eq!(shown, [rec.black, rec.white], "at event {}", rec.at_seq);
    }
    let kifu_game::BoardState::Go(b) = &state.board else {
        panic!("go board")
    };
    let standing: Vec<u64> = b
        .ops
        .iter()
        .filter(|o| o.is_move())
        .map(|o| o.seq())
        .collect();
    assert_eq!(standing.len(), sgf.moves.len());
    for (seq, m) in standing.iter().zip(&sgf.moves) {
        let Some(rec) = state.clocks_after(*seq) else {
            assert_eq!(m.black_time_left_ms, None);
            continue;
        };
        let shown = GameState::at(events, rec.at_seq)
            .clock_faces()
            .expect("faces");
        assert_eq!(
            m.black_time_left_ms,
            Some(shown[0].time_left_ms as i64),
            "BL of {seq}"
        );
        assert_eq!(
            m.white_time_left_ms,
            Some(shown[1].time_left_ms as i64),
            "WL of {seq}"
        );
        assert_eq!(m.black_overtime_left, shown[0].overtime_left, "OB of {seq}");
        assert_eq!(m.white_overtime_left, shown[1].overtime_left, "OW of {seq}");
        checked += 1;
    }
    checked
}

#[test]
fn every_clock_vector_with_moves_exports_the_clocks_the_replay_shows() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/clocks/vectors.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("fixture {} is missing: {e}", path.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let vectors = doc["vectors"].as_array().expect("vectors");
    let mut games = 0;
    let mut with_moves = 0;
    for v in vectors {
        let scenario: kifu_clock::Scenario = serde_json::from_value(v.clone()).expect("scenario");
        if !scenario
            .events
            .iter()
            .any(|e| matches!(e, kifu_clock::ScenarioEvent::Press { .. }))
        {
            continue;
        }
        with_moves += 1;
        let tc = scenario.time_control().expect("time control");
        let mut g = G::with(
            GameKind::Go,
            "lgc-2023",
            19,
            kifu_game::convert::ledger_time_control(&tc),
            |_| {},
        );
        g.at(scenario.start_ms + 1000);
        g.start_clock();
        let expected = kifu_clock::replay_scenario(&scenario).expect("replay");
        let mut to_move = B;
        let mut n = 0u8;
        for e in &scenario.events {
            // The stone a second before the press (the builder's step), the
            // press at the vector's instant; everything else at its instant.
            g.at(e.t() + 1000);
            match e {
                kifu_clock::ScenarioEvent::Press { player, .. } => {
                    g.at(e.t());
                    let c = if *player == kifu_clock::Player::Black {
                        B
                    } else {
                        W
                    };
                    let at = format!("{}{}", (b'a' + n % 19) as char, (b'a' + n / 19) as char);
                    n += 1;
                    g.play(c, &at);
                    g.push(c, Body::ClockPressed { player: c });
                    to_move = c.opponent();
                }
                kifu_clock::ScenarioEvent::Pause { reason, .. } => {
                    let reason = match reason.as_ref().map(|r| r.code()) {
                        Some("CLOCK_MALFUNCTION") => PauseReason::ClockMalfunction,
                        Some("TOILET") => PauseReason::Toilet,
                        Some("ADJOURNMENT") => PauseReason::Adjournment,
                        Some("CALL_REFEREE") => PauseReason::CallReferee,
                        Some("ARBITRATION") => PauseReason::Arbitration,
                        Some(other) => PauseReason::Other(other.to_string()),
                        None => PauseReason::Other(String::new()),
                    };
                    g.referee(Body::ClockPaused { reason });
                }
                kifu_clock::ScenarioEvent::Resume { player, .. } => {
                    let c = match player {
                        Some(kifu_clock::Player::Black) => B,
                        Some(kifu_clock::Player::White) => W,
                        None => to_move,
                    };
                    g.referee(Body::ClockResumed { running: c });
                }
                kifu_clock::ScenarioEvent::Adjust {
                    player, delta_ms, ..
                } => {
                    let c = if *player == kifu_clock::Player::Black {
                        B
                    } else {
                        W
                    };
                    g.referee(Body::ClockAdjusted {
                        player: c,
                        delta_ms: *delta_ms,
                        reason: "vector".into(),
                    });
                }
            }
        }
        let checked = assert_sgf_equals_replay(&g.events);
        // And the projection agrees with the clock vectors' own answers for
        // every move completed before a flag fell.
        let state = GameState::replay(&g.events);
        let presses: Vec<&kifu_clock::StateAfterEvent> = expected
            .states_after_each_event
            .iter()
            .zip(&scenario.events)
            .filter(|(_, e)| matches!(e, kifu_clock::ScenarioEvent::Press { .. }))
            .map(|(s, _)| s)
            .collect();
        for (rec, want) in state.move_clocks.iter().zip(presses) {
            let budget = |p: &kifu_clock::PlayerState| {
                p.main_ms.unwrap_or(0)
                    + p.periods_left
                        .map_or(0, |n| u64::from(n) * p.period_ms_left.unwrap_or(0))
                    + p.block_ms_left.unwrap_or(0)
                    + p.period_ms.unwrap_or(0)
            };
            let (mover, face) = if want.to_move == kifu_clock::Player::White {
                (&want.black, rec.black)
            } else {
                (&want.white, rec.white)
            };
            assert_eq!(face.time_left_ms, budget(mover), "vector {:?}", scenario.id);
        }
        assert!(checked > 0 || state.move_clocks.is_empty());
        games += 1;
    }
    assert_eq!(
        games, with_moves,
        "every clock vector with moves is checked"
    );
    assert!(games > 0);
}

#[test]
fn lgc_2023_management_of_time_the_export_carries_the_referees_pause_adjustment_and_sanction() {
    let mut g = G::go("lgc-2023");
    g.at(1000);
    g.start_clock();
    g.at(61_000);
    g.mv(B, "ee");
    g.at(121_000);
    g.push(B, Body::RefereeCalled { player: B });
    g.at(721_000);
    g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "one minute to White".into(),
        reasons: "a timing error".into(),
        rules_cited: vec!["LGC 2023, Timing error".into()],
        effects: vec![
            RulingEffect::AdjustClock {
                player: W,
                delta_ms: 60_000,
            },
            RulingEffect::Resume,
        ],
    }));
    g.referee(Body::ClockResumed { running: W });
    g.referee(Body::SanctionImposed(Sanction {
        target: SanctionTarget::Player(B),
        kind: SanctionKind::TimeModified { delta_ms: -120_000 },
        reason: "hindrance".into(),
    }));
    g.at(781_000);
    let w = g.mv(W, "cc");
    let state = GameState::replay(&g.events);
    let rec = state.clocks_after(w).expect("clocks after White's move");
    // The clock started at 1 s. White: 30 s Fischer increment; 59 s used
    // before the call (62 s to 121 s) and 60 s after the resumption (722 s to
    // the press at 782 s), the ten minutes of the call not counted, one
    // minute added by the ruling.
    let white = 60 * MIN + 30_000 - 119_000 + 60_000;
    assert_eq!(rec.white.time_left_ms, white);
    // Black: one move of 61 s (press at 62 s), two minutes taken by the
    // sanction.
    assert_eq!(rec.black.time_left_ms, 60 * MIN + 30_000 - 61_000 - 120_000);
    assert_sgf_equals_replay(&g.events);
    let sgf = game_to_sgf(&g.events).expect("export");
    assert_eq!(sgf.moves[1].white_time_left_ms, Some(white as i64));
}
