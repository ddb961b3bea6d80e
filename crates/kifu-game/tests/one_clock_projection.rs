//! One clock projection: the SGF export's `BL`/`WL`/`OB`/`OW` are the
//! clocks the game projection shows at the press completing each move (the
//! replay), on every clock vector that has moves and on a game where the
//! referee is called, a ruling adjusts a clock and a sanction modifies time.
//! Each is written as SGF FF\[4\] defines it (properties BL, WL, OB, OW:
//! "time left ... after the move was made", "number of moves left ... within
//! the current byo-yomi period / overtime"): the main time left, or in
//! overtime the time left in the period (Japanese byo-yomi) or block
//! (Canadian) with the periods or stones left, never the whole budget.

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
        // SGF FF[4], BL/WL/OB/OW: the phase under way, as the face shows it
        // (main time, else the period or block and its count).
        let [black, white] = shown.map(|f| f.shown().shown());
        assert_eq!(
            m.black_time_left_ms,
            Some(black.time_ms as i64),
            "BL of {seq}"
        );
        assert_eq!(
            m.white_time_left_ms,
            Some(white.time_ms as i64),
            "WL of {seq}"
        );
        assert_eq!(
            m.black_overtime_left.map(u32::from),
            black.count,
            "OB of {seq}"
        );
        assert_eq!(
            m.white_overtime_left.map(u32::from),
            white.count,
            "OW of {seq}"
        );
        // OB/OW only in overtime (FF[4]: "within the current byo-yomi
        // period / overtime").
        assert_eq!(
            black.count.is_some(),
            shown[0].main_ms == 0 && shown[0].count.is_some()
        );
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
    // before the call (62 s to 121 s) and 61 s after the judgement that
    // resumed play (721 s to the press at 782 s; the referee's restart of
    // the running clock at 722 s changes nothing), the ten minutes of the
    // call not counted, one minute added by the ruling.
    let white = 60 * MIN + 30_000 - 120_000 + 60_000;
    assert_eq!(rec.white.time_left_ms, white);
    // Black: one move of 61 s (press at 62 s), two minutes taken by the
    // sanction.
    assert_eq!(rec.black.time_left_ms, 60 * MIN + 30_000 - 61_000 - 120_000);
    assert_sgf_equals_replay(&g.events);
    let sgf = game_to_sgf(&g.events).expect("export");
    assert_eq!(sgf.moves[1].white_time_left_ms, Some(white as i64));
}

/// A 9x9 game under `tc` with its clock started; returns the builder.
fn timed(tc: TimeControl) -> G {
    let mut g = G::with(GameKind::Go, "lgc-2023", 9, tc, |_| {});
    g.at(1000);
    g.start_clock();
    g
}

/// A stone a second before its clock press, the press at `T0 + ms`.
fn press(g: &mut G, c: Color, at: &str, ms: u64) {
    g.at(ms - 1000);
    g.mv(c, at);
}

/// One move's (BL, OB, WL, OW), seconds cut to the second.
type Node = (Option<i64>, Option<u32>, Option<i64>, Option<u32>);

/// (BL, OB, WL, OW) of every move of the export, in seconds.
fn sgf_clocks(events: &[Event]) -> Vec<Node> {
    game_to_sgf(events)
        .expect("export")
        .moves
        .iter()
        .map(|m| {
            (
                m.black_time_left_ms.map(|v| v / 1000),
                m.black_overtime_left.map(u32::from),
                m.white_time_left_ms.map(|v| v / 1000),
                m.white_overtime_left.map(u32::from),
            )
        })
        .collect()
}

#[test]
fn japanese_byo_yomi_bl_is_main_time_then_the_period_with_ob_the_periods_left() {
    // One minute of main time, then 3 periods of 30 s (LGC 2023,
    // `docs/rules/lgc-tournament-rules-2023.txt`, "Japanese byo-yomi").
    let mut g = timed(TimeControl::Byoyomi {
        main_ms: MIN,
        periods: 3,
        period_ms: 30_000,
    });
    // Black thinks 40 s: 20 s of main time left, no OB.
    press(&mut g, B, "ee", 41_000);
    // White thinks 10 s.
    press(&mut g, W, "cc", 51_000);
    // Black thinks 30 s: main time gone after 20 s, 10 s into the first
    // period, which resets at the press: 30 s in the period, 3 periods.
    press(&mut g, B, "gg", 81_000);
    // White thinks 10 s more.
    press(&mut g, W, "cg", 91_000);
    // Black thinks 70 s: two periods used up, the third under way resets at
    // the press: one period of 30 s left.
    press(&mut g, B, "gc", 161_000);
    let got = sgf_clocks(&g.events);
    let whole = |f: kifu_game::ClockFace| f.time_left_ms / 1000;
    let state = GameState::replay(&g.events);
    let faces: Vec<_> = state.move_clocks.iter().map(|m| m.black).collect();
    // The old export wrote the whole budget (main time plus all periods).
    assert_eq!(whole(faces[0]), 20 + 90);
    assert_eq!(
        got[0].0,
        Some(20),
        "main time, not main time plus the periods"
    );
    assert_eq!(got[0].1, None, "no OB in main time");
    assert_eq!(got[2].0, Some(30), "the period's time");
    assert_eq!(got[2].1, Some(3), "three periods left");
    assert_eq!(got[4].0, Some(30));
    assert_eq!(got[4].1, Some(1), "one period left");
    // White stays in main time: 40 s left after 20 s used, no OW.
    assert_eq!(got[4].2, Some(40));
    assert_eq!(got[4].3, None);
    assert_sgf_equals_replay(&g.events);
}

#[test]
fn canadian_overtime_bl_is_the_block_time_with_ob_the_stones_left() {
    // One minute of main time, then blocks of 5 stones in 2 minutes (LGC
    // 2023, "Canadian overtime").
    let mut g = timed(TimeControl::Canadian {
        main_ms: MIN,
        stones: 5,
        block_ms: 2 * MIN,
    });
    // Black spends all but 10 s of main time.
    press(&mut g, B, "ee", 51_000);
    press(&mut g, W, "cc", 52_000);
    // Black thinks 20 s: main time gone, 10 s into the block, one stone of
    // five played: 110 s and 4 stones left.
    press(&mut g, B, "gg", 72_000);
    press(&mut g, W, "cg", 73_000);
    // 30 s more: 80 s and 3 stones left.
    press(&mut g, B, "gc", 103_000);
    let got = sgf_clocks(&g.events);
    assert_eq!(got[0].0, Some(10), "main time left");
    assert_eq!(got[0].1, None);
    assert_eq!(got[2].0, Some(110), "the block's time left");
    assert_eq!(got[2].1, Some(4), "stones left in the block");
    assert_eq!(got[4].0, Some(80));
    assert_eq!(got[4].1, Some(3));
    assert_sgf_equals_replay(&g.events);
}
