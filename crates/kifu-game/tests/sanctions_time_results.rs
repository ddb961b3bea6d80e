//! Sanctions, time and attendance, UEC Cup abnormal termination, Renju
//! claims and draws, and results beside declarations and signatures.

mod support;
use support::*;

use kifu_game::{sanction_history, GameState, Phase};
use kifu_ledger::*;

fn sanction(target: SanctionTarget, kind: SanctionKind) -> Body {
    Body::SanctionImposed(Sanction {
        target,
        kind,
        reason: "as recorded".into(),
    })
}

#[test]
fn lgc_2023_advice_is_recorded_without_consequence_for_the_result() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let s = g.referee(sanction(SanctionTarget::Player(B), SanctionKind::Advice));
    let st = g.state();
    assert_eq!(st.sanctions.len(), 1);
    assert!(st.result.computed().is_none());
    assert!(has_rule(&st, s, "\"Advice\""));
}

#[test]
fn lgc_2023_warning_a_second_warning_in_the_same_game_is_a_game_forfeit() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.referee(sanction(SanctionTarget::Player(W), SanctionKind::Warning));
    assert!(
        g.state().result.computed().is_none(),
        "one warning is only a warning"
    );
    g.referee(sanction(SanctionTarget::Player(B), SanctionKind::Warning));
    assert!(g.state().result.computed().is_none(), "one each");
    let s = g.referee(sanction(SanctionTarget::Player(W), SanctionKind::Warning));
    let st = g.state();
    assert_eq!(st.warnings(W), 2);
    assert_eq!(
        st.result.computed().unwrap().result,
        win(B, ResultBy::Forfeit)
    );
    assert!(has_rule(&st, s, "\"Warning\""));
    assert!(st
        .sanctions
        .iter()
        .any(|x| x.kind == SanctionKind::GameForfeit && x.source.contains("two warnings")));
}

#[test]
fn lgc_2023_game_forfeit_of_one_or_both_players() {
    let mut g = G::go("lgc-2023");
    g.referee(sanction(
        SanctionTarget::Player(B),
        SanctionKind::GameForfeit,
    ));
    assert_eq!(
        g.state().result.computed().unwrap().result,
        win(W, ResultBy::Forfeit)
    );
    let mut g = G::go("lgc-2023");
    g.referee(sanction(SanctionTarget::Both, SanctionKind::GameForfeit));
    assert_eq!(
        g.state().result.computed().unwrap().result,
        GameResult {
            outcome: Outcome::BothLose,
            by: ResultBy::Forfeit
        }
    );
}

#[test]
fn lgc_2023_other_sanctions_modification_of_time_limits() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let before = g.state().clock.black.unwrap().main_ms;
    g.referee(sanction(
        SanctionTarget::Player(B),
        SanctionKind::TimeModified { delta_ms: -300_000 },
    ));
    assert_eq!(g.state().clock.black.unwrap().main_ms, before - 5 * MIN);
}

#[test]
fn lgc_2023_other_sanctions_removal_from_rounds_tournament_and_debarment_are_recorded() {
    let mut g = G::go("lgc-2023");
    g.director(sanction(
        SanctionTarget::Player(B),
        SanctionKind::RemovedFromRounds { rounds: vec![4, 5] },
    ));
    g.director(sanction(
        SanctionTarget::Player(W),
        SanctionKind::RemovedFromTournament,
    ));
    let s = g.director(sanction(SanctionTarget::Player(W), SanctionKind::Debarment));
    let st = g.state();
    assert_eq!(st.sanctions.len(), 3);
    assert!(
        st.result.computed().is_none(),
        "none of them decides this game"
    );
    assert!(has_rule(&st, s, "Hindrance"));
}

#[test]
fn uec_cup_j_cheating_loses_the_game_and_all_following_games() {
    let tc = TimeControl::SuddenDeath { main_ms: 30 * MIN };
    let mut g1 = G::with(GameKind::Go, "uec-cup", 19, tc, |g| {
        g.tournament = Some(TournamentRef {
            tournament: "UEC".into(),
            round: 1,
            board: 1,
        });
        g.title = "round 1".into();
    });
    g1.referee(sanction(
        SanctionTarget::Player(B),
        SanctionKind::Disqualification,
    ));
    let s1 = g1.state();
    assert_eq!(
        s1.result.computed().unwrap().result,
        win(W, ResultBy::Forfeit)
    );
    let g2 = G::with(GameKind::Go, "uec-cup", 19, tc, |g| {
        g.tournament = Some(TournamentRef {
            tournament: "UEC".into(),
            round: 2,
            board: 1,
        });
        g.title = "round 2".into();
    });
    let s2 = g2.state();
    let h = sanction_history(&[s2, s1]);
    let black = h.iter().find(|p| p.name == "Black").unwrap();
    assert_eq!(black.entries.len(), 1);
    assert_eq!(black.lost_to_disqualification, vec!["round 2".to_string()]);
}

#[test]
fn sanction_history_collects_each_players_sanctions_across_games() {
    let mut g1 = G::go("lgc-2023");
    g1.referee(sanction(SanctionTarget::Player(B), SanctionKind::Warning));
    let mut g2 = G::go("lgc-2023");
    g2.referee(sanction(SanctionTarget::Both, SanctionKind::Advice));
    let h = sanction_history(&[g1.state(), g2.state()]);
    let black = h.iter().find(|p| p.name == "Black").unwrap();
    let white = h.iter().find(|p| p.name == "White").unwrap();
    assert_eq!(black.entries.len(), 2);
    assert_eq!(white.entries.len(), 1);
}

#[test]
fn lgc_2023_start_late_by_30_minutes_or_more_forfeits() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(30 * MIN);
    let s = g.referee(Body::PlayerArrived { player: B });
    let st = g.state();
    assert!(has_rule(&st, s, "\"Start\""));
    assert_eq!(
        st.result.computed().unwrap().result,
        win(W, ResultBy::Forfeit)
    );
}

#[test]
fn lgc_2023_start_late_by_less_than_30_minutes_plays_on_with_less_time() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(29 * MIN);
    g.referee(Body::PlayerArrived { player: B });
    assert!(g.state().result.computed().is_none());
}

fn flag_falls(tc: TimeControl, after_ms: u64) -> GameState {
    let mut g = G::with(GameKind::Go, "lgc-2023", 9, tc, |_| {});
    g.at(0);
    g.start_clock();
    g.at(after_ms);
    g.play(B, "ee");
    g.state()
}

#[test]
fn lgc_2023_loss_on_time_sudden_death() {
    let tc = TimeControl::SuddenDeath { main_ms: 10 * MIN };
    assert!(flag_falls(tc, 10 * MIN - 1).result.computed().is_none());
    let st = flag_falls(tc, 10 * MIN);
    let d = st.result.computed().unwrap();
    assert_eq!(d.result, win(W, ResultBy::Time));
    assert!(d.rule.contains("Loss on time"));
}

#[test]
fn lgc_2023_loss_on_time_fischer() {
    let tc = TimeControl::Fischer {
        main_ms: 5 * MIN,
        increment_ms: 10_000,
        max_ms: None,
    };
    assert!(flag_falls(tc, 5 * MIN - 1).result.computed().is_none());
    assert_eq!(
        flag_falls(tc, 5 * MIN).result.computed().unwrap().result,
        win(W, ResultBy::Time)
    );
}

#[test]
fn lgc_2023_loss_on_time_japanese_byo_yomi() {
    let tc = TimeControl::Byoyomi {
        main_ms: MIN,
        periods: 3,
        period_ms: 10_000,
    };
    assert!(flag_falls(tc, 89_999).result.computed().is_none());
    assert_eq!(
        flag_falls(tc, 90_000).result.computed().unwrap().result,
        win(W, ResultBy::Time)
    );
}

#[test]
fn lgc_2023_loss_on_time_canadian_overtime() {
    let tc = TimeControl::Canadian {
        main_ms: MIN,
        stones: 5,
        block_ms: MIN,
    };
    assert!(flag_falls(tc, 2 * MIN - 1).result.computed().is_none());
    assert_eq!(
        flag_falls(tc, 2 * MIN).result.computed().unwrap().result,
        win(W, ResultBy::Time)
    );
}

#[test]
fn lgc_2023_no_flag_falls_while_the_clocks_are_paused() {
    let mut g = G::with(
        GameKind::Go,
        "lgc-2023",
        9,
        TimeControl::SuddenDeath { main_ms: MIN },
        |_| {},
    );
    g.at(0);
    g.start_clock();
    g.at(30_000);
    g.push(
        B,
        Body::ClockPaused {
            reason: PauseReason::Toilet,
        },
    );
    g.at(10 * MIN);
    g.referee(Body::PlayerArrived { player: W });
    let st = g.state();
    assert!(st.result.computed().is_none());
    assert_eq!(
        st.phase,
        Phase::Paused {
            reason: "TOILET".into()
        }
    );
}

#[test]
fn uec_cup_3_time_measured_by_the_server_d_exceeding_it_loses() {
    let mut g = G::with(
        GameKind::Go,
        "uec-cup",
        19,
        TimeControl::SuddenDeath { main_ms: 30 * MIN },
        |_| {},
    );
    g.recorder(Body::ServerTimeUsed {
        player: W,
        used_ms: 20 * MIN,
    });
    assert!(g.state().result.computed().is_none());
    let s = g.recorder(Body::ServerTimeUsed {
        player: W,
        used_ms: 10 * MIN,
    });
    let st = g.state();
    assert_eq!(st.result.computed().unwrap().result, win(B, ResultBy::Time));
    assert!(has_rule(&st, s, "d) One player exceed the time limit"));
}

fn uec(edit: impl FnOnce(&mut Genesis)) -> G {
    let mut g = G::with(
        GameKind::Go,
        "uec-cup",
        19,
        TimeControl::SuddenDeath { main_ms: 30 * MIN },
        edit,
    );
    g.at(0);
    g.start_clock();
    g
}

#[test]
fn uec_cup_h1_abnormal_termination_with_under_40_minutes_left_loses() {
    let mut g = uec(|_| {});
    g.at(21 * MIN);
    g.recorder(Body::ProgramTerminated {
        player: B,
        statement: "crash".into(),
    });
    let d = g.state().result.computed().cloned().unwrap();
    assert_eq!(d.result, win(W, ResultBy::AbnormalTermination));
    assert!(d.rule.contains("h) Abnormal termination of programs, 1"));
}

#[test]
fn uec_cup_h2_abnormal_termination_with_40_minutes_or_more_left_means_a_new_game() {
    let mut g = uec(|_| {});
    g.at(10 * MIN);
    g.recorder(Body::ProgramTerminated {
        player: B,
        statement: "crash".into(),
    });
    let d = g.state().result.computed().cloned().unwrap();
    assert_eq!(d.result.outcome, Outcome::NoResult);
    assert!(d.rule.contains("h) Abnormal termination of programs, 2."));
    assert!(d
        .quote
        .as_deref()
        .is_some_and(|q| q.contains("20 minutes each")));
}

#[test]
fn uec_cup_h3_in_the_new_game_the_threshold_is_20_minutes() {
    let tc = TimeControl::SuddenDeath { main_ms: 20 * MIN };
    let mut g = G::with(GameKind::Go, "uec-cup", 19, tc, |g| {
        g.overrides
            .push(("abnormal_terminations".into(), "black".into()));
    });
    g.at(0);
    g.start_clock();
    g.at(5 * MIN);
    g.recorder(Body::ProgramTerminated {
        player: W,
        statement: "crash".into(),
    });
    let d = g.state().result.computed().cloned().unwrap();
    assert_eq!(
        d.result.outcome,
        Outcome::NoResult,
        "35 minutes left: another new game"
    );
}

#[test]
fn uec_cup_h4_the_second_abnormal_termination_of_the_same_program_loses() {
    let mut g = uec(|g| {
        g.overrides
            .push(("abnormal_terminations".into(), "black".into()))
    });
    g.at(MIN);
    g.recorder(Body::ProgramTerminated {
        player: B,
        statement: "again".into(),
    });
    let d = g.state().result.computed().cloned().unwrap();
    assert_eq!(d.result, win(W, ResultBy::AbnormalTermination));
    assert!(d.rule.contains(", 4"));
}

#[test]
fn uec_cup_b_a_program_resigns() {
    let mut g = uec(|_| {});
    g.recorder(Body::Resigned {
        player: W,
        manner: Resignation::Program,
    });
    assert_eq!(
        g.state().result.computed().unwrap().result,
        win(B, ResultBy::Resignation)
    );
}

#[test]
fn results_a_declared_result_that_disagrees_is_shown_never_resolved() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.push(
        W,
        Body::Resigned {
            player: W,
            manner: Resignation::Spoken,
        },
    );
    let wrong = win(W, ResultBy::Resignation);
    g.referee(Body::ResultDeclared(wrong.clone()));
    g.push(
        B,
        Body::ResultSheetSigned {
            result: win(B, ResultBy::Resignation),
            under_protest: false,
        },
    );
    let st = g.state();
    assert_eq!(
        st.result.computed().unwrap().result,
        win(B, ResultBy::Resignation)
    );
    assert_eq!(st.result.declared[0].matches, Some(false));
    assert_eq!(st.result.signatures[0].matches, Some(true));
    assert_eq!(st.result.mismatches.len(), 1);
    assert_eq!(
        st.result.missing_signatures.len(),
        1,
        "White has not signed"
    );
}

#[test]
fn rif_five_must_be_declared_and_play_continues_until_it_is() {
    let mut g = G::renju();
    g.start_clock();
    for (b, w) in [("h8", "a1"), ("i8", "a3"), ("j8", "a5"), ("k8", "a7")] {
        g.rplay(B, b);
        g.rplay(W, w);
    }
    g.rplay(B, "l8");
    assert!(
        g.state().result.computed().is_none(),
        "a five not declared: play goes on"
    );
    let s = g.push(B, Body::FiveDeclared { player: B });
    let st = g.state();
    assert_eq!(st.result.computed().unwrap().result, win(B, ResultBy::Five));
    assert!(st.consequences_of(s).any(|c| c.rule.contains("RIF")));
}

#[test]
fn rif_a_forbidden_move_of_black_pointed_out_by_white_loses() {
    let mut g = G::renju();
    g.start_clock();
    for (b, w) in [("f8", "a1"), ("g8", "a3"), ("h9", "a5"), ("h10", "a7")] {
        g.rplay(B, b);
        g.rplay(W, w);
    }
    g.rplay(B, "h8");
    assert!(
        g.state().result.computed().is_none(),
        "not until White points it out"
    );
    g.push(
        W,
        Body::ForbiddenMovePointedOut {
            player: W,
            point: None,
        },
    );
    assert_eq!(
        g.state().result.computed().unwrap().result,
        win(W, ResultBy::ForbiddenMove)
    );
}

#[test]
fn rif_draw_offered_after_ones_move_and_accepted() {
    let mut g = G::renju();
    g.rplay(B, "h8");
    g.push(B, Body::DrawOffered { player: B });
    g.push(W, Body::DrawAccepted { player: W });
    let r = g.state().result.computed().unwrap().result.clone();
    assert_eq!(
        r,
        GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Agreement
        }
    );
}

#[test]
fn rif_draw_offer_rejected_by_playing_the_next_move() {
    let mut g = G::renju();
    g.rplay(B, "h8");
    g.push(B, Body::DrawOffered { player: B });
    let s = g.rplay(W, "h9");
    let st = g.state();
    assert!(st
        .consequences_of(s)
        .any(|c| c.what.contains("rejects the draw")));
    g.push(W, Body::DrawAccepted { player: W });
    assert!(g.state().result.computed().is_none());
}

#[test]
fn rif_two_consecutive_passes_draw() {
    let mut g = G::renju();
    g.rplay(B, "h8");
    g.push(
        W,
        Body::Pass {
            player: W,
            pass_stone: false,
        },
    );
    g.push(
        B,
        Body::Pass {
            player: B,
            pass_stone: false,
        },
    );
    assert_eq!(
        g.state().result.computed().unwrap().result.outcome,
        Outcome::Draw
    );
}

#[test]
fn rif_opening_swap_changes_who_holds_black() {
    let mut g = G::with(GameKind::Renju, "rif-renju", 15, fischer(), |g| {
        g.overrides.push(("opening".into(), "soosorv-8".into()))
    });
    g.rplay(B, "h8");
    g.rplay(B, "h9");
    g.rplay(B, "i10");
    g.push(
        W,
        Body::OpeningSwap {
            player: W,
            swap: true,
        },
    );
    let st = g.state();
    let kifu_game::BoardState::Renju(r) = &st.board else {
        panic!()
    };
    assert_eq!(r.view().black_seat, W, "the second seat now holds Black");
}

#[test]
fn rif_a_forbidden_double_three_white_lets_pass_can_no_longer_be_claimed() {
    let mut g = G::renju();
    for (b, w) in [("f8", "a1"), ("g8", "a3"), ("h9", "a5"), ("h10", "a7")] {
        g.rplay(B, b);
        g.rplay(W, w);
    }
    g.rplay(B, "h8");
    g.rplay(W, "a9");
    let s = g.push(
        W,
        Body::ForbiddenMovePointedOut {
            player: W,
            point: Some(rp("h8")),
        },
    );
    let st = g.state();
    assert!(
        st.result.computed().is_none(),
        "White played on: the right is lost"
    );
    assert!(st
        .consequences_of(s)
        .any(|c| c.what.contains("does not hold")));
}

#[test]
fn rif_referees_a_disputed_claim_waits_for_the_referee() {
    let mut g = G::renju();
    g.rplay(B, "h8");
    g.rplay(W, "h9");
    // Black declares a five he does not have; the claim fails; he disputes.
    g.push(B, Body::FiveDeclared { player: B });
    g.push(
        B,
        Body::DisputeRaised {
            player: B,
            matter: "my five".into(),
        },
    );
    assert_eq!(g.state().phase, Phase::AwaitingReferee);
    g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "there is no five".into(),
        reasons: "counted on the board".into(),
        rules_cited: vec!["RIF".into()],
        effects: vec![RulingEffect::Resume],
    }));
    let st = g.state();
    assert_eq!(st.phase, Phase::Playing);
    assert!(st.result.computed().is_none());
}

#[test]
fn rif_referees_a_judgement_can_unwind_a_renju_game() {
    let mut g = G::renju();
    g.rplay(B, "h8");
    let keep = g.rplay(W, "h9");
    g.rplay(B, "i9");
    g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "the stone at i9 was knocked onto the board".into(),
        reasons: "seen by the referee".into(),
        rules_cited: vec!["RIF".into()],
        effects: vec![RulingEffect::UnwindTo { seq: keep }],
    }));
    let st = g.state();
    let kifu_game::BoardState::Renju(r) = &st.board else {
        panic!()
    };
    assert_eq!(r.view().stones, 2);
    assert_eq!(st.to_move, Some(B));
}
