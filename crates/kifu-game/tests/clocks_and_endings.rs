//! The remaining single-game clauses: clock handling, pauses, resignation,
//! the ending variants of the London Open and BGA rules, the referee
//! deciding in the UEC Cup, and Renju time.

mod support;
use support::*;

use kifu_game::{BoardState, Phase};
use kifu_ledger::*;

#[test]
fn lgc_2023_timing_procedure_for_removing_three_or_more_stones() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(10_000);
    g.play(B, "ee");
    g.push(
        B,
        Body::ClockPaused {
            reason: PauseReason::RemoveStones,
        },
    );
    assert_eq!(
        g.state().phase,
        Phase::Paused {
            reason: "STONE_REMOVAL".into()
        }
    );
    // 5 minutes removing stones: not on anybody's clock.
    g.at(5 * MIN);
    g.push(B, Body::ClockPressed { player: B });
    let st = g.state();
    assert_eq!(
        st.clock.running,
        Some(W),
        "the player restarts the opponent's clock"
    );
    assert_eq!(st.phase, Phase::Playing);
    // Black used 11 s (the pause came a second after the stone), plus the
    // 30 s Fischer increment.
    assert_eq!(st.clock.black.unwrap().main_ms, 60 * MIN - 11_000 + 30_000);
}

#[test]
fn lgc_2023_resignation_by_placing_two_stones() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let s = g.push(
        W,
        Body::Resigned {
            player: W,
            manner: Resignation::TwoStones,
        },
    );
    let st = g.state();
    assert_eq!(
        st.result.computed().unwrap().result,
        win(B, ResultBy::Resignation)
    );
    assert!(has_rule(&st, s, "\"Resignation\""));
}

#[test]
fn lgc_2023_timing_error_only_the_referee_corrects_the_elapsed_time() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let body = Body::ClockAdjusted {
        player: B,
        delta_ms: 60_000,
        reason: "mis-set".into(),
    };
    let black_roles = [Role::Black];
    assert!(
        roles::check(&black_roles, &body, 5).is_err(),
        "the ledger refuses a player's adjustment"
    );
    let before = g.state().clock.black.unwrap().main_ms;
    let s = g.referee(body);
    let st = g.state();
    assert_eq!(st.clock.black.unwrap().main_ms, before + 60_000);
    assert!(has_rule(&st, s, "\"Timing error\""));
}

#[test]
fn lgc_2023_faulty_clock_a_reading_that_differs_from_the_facts_is_shown() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(MIN);
    let s = g.referee(Body::ClockReading {
        black_ms: 60 * MIN,
        white_ms: 60 * MIN,
        black_overtime: None,
        white_overtime: None,
        read_by: "referee".into(),
    });
    let st = g.state();
    assert!(st
        .consequences_of(s)
        .any(|c| c.what.contains("1:00 more for Black")));
}

#[test]
fn lgc_2023_pausing_the_clocks_formal_adjournment() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.referee(Body::ClockPaused {
        reason: PauseReason::Adjournment,
    });
    assert_eq!(g.state().phase, Phase::Adjourned);
    g.referee(Body::ClockResumed { running: W });
    assert_eq!(g.state().phase, Phase::Playing);
}

#[test]
fn london_open_rule_7_passes_at_the_start_of_a_resumption_stop_the_game() {
    let mut g = G::go("london-open");
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    g.push(
        W,
        Body::StatusDisputed {
            player: W,
            statement: "e5 is dead".into(),
        },
    );
    assert_eq!(
        g.state().to_move,
        Some(W),
        "the opponent of the last player to pass"
    );
    g.pass(W);
    g.pass(B);
    // Black passed last: White must pass again (London Open 5, 7).
    assert!(g.state().result.computed().is_none());
    g.pass(W);
    let st = g.state();
    let d = st.result.computed().expect("the game stops");
    assert!(d.rule.contains("London Open"), "{}", d.rule);
}

#[test]
fn bga_white_passes_last_after_agreement() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    g.push(B, Body::StatusAgreed { dead: vec![] });
    g.push(W, Body::StatusAgreed { dead: vec![] });
    assert!(g.state().result.computed().is_none(), "White owes a pass");
    g.pass(W);
    let st = g.state();
    assert!(st.result.computed().is_some());
    let BoardState::Go(b) = &st.board else {
        panic!()
    };
    assert_eq!(b.view().black_pass_stones, 2);
}

#[test]
fn uec_cup_i_other_accidents_the_referee_decides_and_signs_the_sheet() {
    let mut g = G::with(
        GameKind::Go,
        "uec-cup",
        19,
        TimeControl::SuddenDeath { main_ms: 30 * MIN },
        |_| {},
    );
    g.start_clock();
    g.push(
        B,
        Body::DisputeRaised {
            player: B,
            matter: "network failure".into(),
        },
    );
    g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "White's side lost the connection by its own fault".into(),
        reasons: "the operator unplugged the machine".into(),
        rules_cited: vec!["UEC Cup, i)".into()],
        effects: vec![RulingEffect::SetResult(win(
            B,
            ResultBy::Other("accident".into()),
        ))],
    }));
    let res = win(B, ResultBy::Other("accident".into()));
    g.push(
        B,
        Body::ResultSheetSigned {
            result: res.clone(),
            under_protest: false,
        },
    );
    g.push(
        W,
        Body::ResultSheetSigned {
            result: res.clone(),
            under_protest: false,
        },
    );
    let st = g.state();
    assert_eq!(st.result.computed().unwrap().result, res);
    assert_eq!(
        st.result.missing_signatures,
        vec!["the referee, who decided the result".to_string()]
    );
    g.referee(Body::ResultSheetSigned {
        result: res,
        under_protest: false,
    });
    assert!(g.state().result.missing_signatures.is_empty());
}

#[test]
fn lgc_2023_warning_to_both_players_twice_both_forfeit() {
    let mut g = G::go("lgc-2023");
    for _ in 0..2 {
        g.referee(Body::SanctionImposed(Sanction {
            target: SanctionTarget::Both,
            kind: SanctionKind::Warning,
            reason: "talking".into(),
        }));
    }
    assert_eq!(
        g.state().result.computed().unwrap().result,
        GameResult {
            outcome: Outcome::BothLose,
            by: ResultBy::Forfeit
        }
    );
}

#[test]
fn london_open_states_no_late_arrival_forfeit() {
    let mut g = G::go("london-open");
    g.at(0);
    g.start_clock();
    g.at(45 * MIN);
    g.referee(Body::PlayerArrived { player: W });
    assert!(g.state().result.computed().is_none());
}

#[test]
fn rif_the_opponents_time_runs_out() {
    let tc = TimeControl::Fischer {
        main_ms: MIN,
        increment_ms: 30_000,
        max_ms: None,
    };
    let mut g = G::with(GameKind::Renju, "rif-renju", 15, tc, |_| {});
    g.at(0);
    g.start_clock();
    g.at(10_000);
    g.rplay(B, "h8");
    g.push(B, Body::ClockPressed { player: B });
    g.at(10_000 + MIN + 30_000);
    g.rplay(W, "h9");
    let st = g.state();
    let d = st.result.computed().expect("White's time ran out");
    assert_eq!(d.result, win(B, ResultBy::Time));
    assert!(d.rule.contains("RIF"));
}

#[test]
fn rif_a_clock_pressed_by_mistake_is_put_right_by_the_referee() {
    let mut g = G::renju();
    g.at(0);
    g.start_clock();
    g.at(5_000);
    g.rplay(B, "h8");
    g.push(B, Body::ClockPressed { player: B });
    // White presses by mistake before playing; the referee is called and
    // gives the move back to White without a second press.
    g.at(6_000);
    g.push(W, Body::ClockPressed { player: W });
    g.referee(Body::ClockPaused {
        reason: PauseReason::CallReferee,
    });
    g.referee(Body::ClockResumed { running: W });
    let st = g.state();
    assert_eq!(st.clock.running, Some(W));
}
