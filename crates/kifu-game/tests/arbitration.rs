//! Arbitration (LGC 2023): disputes, the referee, protests, appeals and the
//! appeals committee.

mod support;
use support::*;

use kifu_game::{Admissibility, DisputeStatus, Phase};
use kifu_ledger::*;

fn judgement(effects: Vec<RulingEffect>) -> Body {
    Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "White's flag had not fallen; play resumes with one minute added".into(),
        reasons: "the clock was paused when Black called".into(),
        rules_cited: vec!["LGC 2023, Timing error".into()],
        effects,
    })
}

fn member(g: &G, i: usize) -> Participant {
    Participant {
        role: Role::Committee,
        name: format!("Member {}", i + 1),
        key: g.m[i].public(),
    }
}

/// A game with a dispute, a judgement resuming play, a result and sheet.
fn disputed(g: &mut G, protest: bool, on_sheet: bool) -> (u64, u64) {
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    g.push(
        B,
        Body::DisputeRaised {
            player: B,
            matter: "White's flag".into(),
        },
    );
    g.push(B, Body::RefereeCalled { player: B });
    g.referee(Body::ClockPaused {
        reason: PauseReason::Arbitration,
    });
    let r = g.referee(judgement(vec![
        RulingEffect::AdjustClock {
            player: W,
            delta_ms: 60_000,
        },
        RulingEffect::Resume,
    ]));
    if protest {
        g.push(
            B,
            Body::ProtestDeclared {
                player: B,
                statement: "the flag had fallen".into(),
            },
        );
    }
    g.referee(Body::ClockResumed { running: B });
    g.push(
        B,
        Body::Resigned {
            player: B,
            manner: Resignation::Spoken,
        },
    );
    let res = win(W, ResultBy::Resignation);
    g.push(
        B,
        Body::ResultSheetSigned {
            result: res.clone(),
            under_protest: on_sheet,
        },
    );
    g.push(
        W,
        Body::ResultSheetSigned {
            result: res,
            under_protest: false,
        },
    );
    let a = g.push(
        B,
        Body::AppealLodged {
            player: B,
            ruling_seq: r,
            grounds: "the flag had fallen".into(),
        },
    );
    (r, a)
}

fn form_committee(g: &mut G) -> u64 {
    let (m0, m1, m2, m3, m4) = (
        member(g, 0),
        member(g, 1),
        member(g, 2),
        member(g, 3),
        member(g, 4),
    );
    g.director(Body::CommitteeFormed {
        members: vec![m0, m1, m2],
        reserves: vec![m3, m4],
        formed_before_round: 1,
    })
}

#[test]
fn lgc_2023_arbitration_a_clarification_makes_no_judgement_and_ends_the_matter() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.push(
        W,
        Body::DisputeRaised {
            player: W,
            matter: "do passes cost a stone?".into(),
        },
    );
    g.push(
        W,
        Body::ClockPaused {
            reason: PauseReason::CallReferee,
        },
    );
    let r = g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Clarification,
        decision: "a pass hands a stone to the opponent".into(),
        reasons: "rule text shown".into(),
        rules_cited: vec![],
        effects: vec![RulingEffect::SetResult(win(W, ResultBy::Forfeit))],
    }));
    let st = g.state();
    assert_eq!(st.disputes[0].status, DisputeStatus::Clarified);
    assert!(
        st.result.computed().is_none(),
        "a clarification's effects are not applied"
    );
    assert!(st
        .consequences_of(r)
        .any(|c| c.what.contains("no judgement")));
    assert_eq!(
        st.phase,
        Phase::Paused {
            reason: "CALL_REFEREE".into()
        }
    );
}

#[test]
fn lgc_2023_referee_judgement_effects_are_applied() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let first = g.mv(B, "ee");
    g.mv(W, "cc");
    g.push(
        W,
        Body::DisputeRaised {
            player: W,
            matter: "position disturbed".into(),
        },
    );
    g.referee(Body::ClockPaused {
        reason: PauseReason::Arbitration,
    });
    let before = g.state().clock.white.unwrap().main_ms;
    g.referee(judgement(vec![
        RulingEffect::UnwindTo { seq: first + 1 },
        RulingEffect::AdjustClock {
            player: W,
            delta_ms: 60_000,
        },
        RulingEffect::Sanction(Sanction {
            target: SanctionTarget::Player(W),
            kind: SanctionKind::Advice,
            reason: "call the referee at once".into(),
        }),
        RulingEffect::Resume,
    ]));
    let st = g.state();
    assert_eq!(
        cell(&g.rows(), "cc"),
        '.',
        "unwound to after Black's first move"
    );
    assert_eq!(st.clock.white.unwrap().main_ms, before + 60_000);
    assert_eq!(st.sanctions.len(), 1);
    assert_eq!(st.disputes[0].status, DisputeStatus::Judged);
    assert!(st.rulings[0].applied);
    // Play resumes from the position unwound to: White's move, White's
    // clock.
    assert_eq!(st.phase, Phase::Playing);
    assert_eq!(st.to_move, Some(W));
    assert_eq!(st.clock.running, Some(W));
}

#[test]
fn lgc_2023_referee_judgement_can_set_the_result_and_the_referee_must_sign() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.push(
        B,
        Body::DisputeRaised {
            player: B,
            matter: "study aid".into(),
        },
    );
    g.referee(judgement(vec![RulingEffect::SetResult(win(
        B,
        ResultBy::Forfeit,
    ))]));
    let st = g.state();
    assert_eq!(
        st.result.computed().unwrap().result,
        win(B, ResultBy::Forfeit)
    );
    assert!(st
        .result
        .missing_signatures
        .iter()
        .any(|s| s.contains("referee")));
}

#[test]
fn lgc_2023_player_responsibility_appeal_after_protest_declared_and_on_the_sheet_is_admissible() {
    let mut g = G::go("lgc-2023");
    let (_, a) = disputed(&mut g, true, true);
    let st = g.state();
    assert_eq!(st.appeals[0].admissibility, Admissibility::Admissible);
    assert!(has_rule(&st, a, "Player responsibility"));
}

#[test]
fn lgc_2023_player_responsibility_no_protest_means_the_appeal_is_inadmissible() {
    let mut g = G::go("lgc-2023");
    disputed(&mut g, false, false);
    let st = g.state();
    assert!(matches!(
        st.appeals[0].admissibility,
        Admissibility::Inadmissible { .. }
    ));
    assert_eq!(st.appeals.len(), 1, "recorded all the same");
}

#[test]
fn lgc_2023_player_responsibility_protest_not_stated_on_the_sheet_loses_the_right_to_appeal() {
    let mut g = G::go("lgc-2023");
    disputed(&mut g, true, false);
    let st = g.state();
    let Admissibility::Inadmissible { reason } = &st.appeals[0].admissibility else {
        panic!("inadmissible")
    };
    assert!(reason.contains("result sheet"));
}

#[test]
fn lgc_2023_appeals_committee_majority_of_three_decides_and_the_decision_is_final() {
    let mut g = G::go("lgc-2023");
    form_committee(&mut g);
    let (_, a) = disputed(&mut g, true, true);
    let replaced =
        CommitteeVerdict::Replaced(vec![RulingEffect::SetResult(win(B, ResultBy::Time))]);
    g.member(
        0,
        Body::CommitteeDecision {
            appeal_seq: a,
            verdict: replaced.clone(),
            reasons: "flag fell".into(),
        },
    );
    assert!(
        g.state().appeals[0].decision.is_none(),
        "one signature is not a majority"
    );
    g.member(
        1,
        Body::CommitteeDecision {
            appeal_seq: a,
            verdict: replaced,
            reasons: "agreed".into(),
        },
    );
    let st = g.state();
    let d = st.appeals[0].decision.as_ref().expect("decided");
    assert_eq!(d.signed_by.len(), 2);
    assert_eq!(st.result.computed().unwrap().result, win(B, ResultBy::Time));
    assert_eq!(st.disputes[0].status, DisputeStatus::DecidedFinally);
    assert!(
        st.result.mismatches.iter().any(|m| m.contains("W+R")),
        "the sheet disagrees, shown"
    );
    // A later ruling on the same matter changes nothing, and says so.
    let later = g.referee(judgement(vec![RulingEffect::SetResult(win(
        W,
        ResultBy::Resignation,
    ))]));
    let st = g.state();
    assert_eq!(st.result.computed().unwrap().result, win(B, ResultBy::Time));
    assert!(st.consequences_of(later).any(|c| c.what.contains("final")));
    assert!(!st.rulings.last().unwrap().applied);
    // So does a further committee signature.
    let again = g.member(
        2,
        Body::CommitteeDecision {
            appeal_seq: a,
            verdict: CommitteeVerdict::Upheld,
            reasons: "late".into(),
        },
    );
    assert!(g
        .state()
        .consequences_of(again)
        .any(|c| c.what.contains("final")));
}

#[test]
fn lgc_2023_appeals_committee_may_reject_a_case() {
    let mut g = G::go("lgc-2023");
    form_committee(&mut g);
    let (_, a) = disputed(&mut g, true, true);
    for i in [0, 2] {
        g.member(
            i,
            Body::CommitteeDecision {
                appeal_seq: a,
                verdict: CommitteeVerdict::Rejected,
                reasons: "obviously right".into(),
            },
        );
    }
    let st = g.state();
    assert_eq!(
        st.appeals[0].decision.as_ref().unwrap().verdict,
        CommitteeVerdict::Rejected
    );
    assert_eq!(
        st.result.computed().unwrap().result,
        win(W, ResultBy::Resignation)
    );
}

#[test]
fn lgc_2023_appeals_committee_recused_member_is_replaced_by_a_reserve() {
    let mut g = G::go("lgc-2023");
    form_committee(&mut g);
    let (_, a) = disputed(&mut g, true, true);
    let k = g.m[0].public();
    g.director(Body::MemberRecused {
        member: k,
        reason: "coaches Black".into(),
    });
    let s = g.member(
        0,
        Body::CommitteeDecision {
            appeal_seq: a,
            verdict: CommitteeVerdict::Upheld,
            reasons: "x".into(),
        },
    );
    assert!(g
        .state()
        .consequences_of(s)
        .any(|c| c.what.contains("does not count")));
    g.member(
        3,
        Body::CommitteeDecision {
            appeal_seq: a,
            verdict: CommitteeVerdict::Upheld,
            reasons: "x".into(),
        },
    );
    g.member(
        1,
        Body::CommitteeDecision {
            appeal_seq: a,
            verdict: CommitteeVerdict::Upheld,
            reasons: "x".into(),
        },
    );
    let st = g.state();
    let d = st.appeals[0]
        .decision
        .as_ref()
        .expect("reserve and member decide");
    assert!(d.signed_by.iter().any(|n| n.contains("Member 4")));
}

#[test]
fn lgc_2023_appeals_committee_a_player_in_the_dispute_does_not_sit_and_players_are_coopted() {
    let mut g = G::go("lgc-2023");
    // Black sits on the committee; only one reserve: Black must stand down.
    let black = Participant {
        role: Role::Committee,
        name: "Black".into(),
        key: g.cast.black.public(),
    };
    let (m1, m2) = (member(&g, 1), member(&g, 2));
    let f = g.director(Body::CommitteeFormed {
        members: vec![black, m1, m2],
        reserves: vec![],
        formed_before_round: 1,
    });
    let st = g.state();
    assert!(st.consequences_of(f).any(|c| c.what.contains("co-opted")));
    let m4 = member(&g, 4);
    g.referee(Body::MemberCoopted { member: m4 });
    let (_, a) = disputed(&mut g, true, true);
    for i in [4, 1] {
        g.member(
            i,
            Body::CommitteeDecision {
                appeal_seq: a,
                verdict: CommitteeVerdict::Upheld,
                reasons: "x".into(),
            },
        );
    }
    assert!(g.state().appeals[0].decision.is_some());
}

#[test]
fn lgc_2023_appeals_committee_is_formed_of_three_before_the_first_round() {
    let mut g = G::go("lgc-2023");
    let (m0, m1) = (member(&g, 0), member(&g, 1));
    let f = g.director(Body::CommitteeFormed {
        members: vec![m0, m1],
        reserves: vec![],
        formed_before_round: 3,
    });
    let st = g.state();
    let whats: Vec<&str> = st.consequences_of(f).map(|c| c.what.as_str()).collect();
    assert!(whats.iter().any(|w| w.contains("not three")));
    assert!(whats.iter().any(|w| w.contains("first round")));
}

#[test]
fn lgc_2023_appeal_of_a_clarification_is_inadmissible() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let r = g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Clarification,
        decision: "rules shown".into(),
        reasons: "asked".into(),
        rules_cited: vec![],
        effects: vec![],
    }));
    g.push(
        W,
        Body::AppealLodged {
            player: W,
            ruling_seq: r,
            grounds: "unfair".into(),
        },
    );
    assert!(matches!(
        g.state().appeals[0].admissibility,
        Admissibility::Inadmissible { .. }
    ));
}

#[test]
fn rif_referees_all_the_referees_decisions_are_final() {
    let mut g = G::renju();
    g.start_clock();
    let r = g.referee(judgement(vec![RulingEffect::Resume]));
    g.push(
        B,
        Body::ProtestDeclared {
            player: B,
            statement: "no".into(),
        },
    );
    g.push(
        B,
        Body::AppealLodged {
            player: B,
            ruling_seq: r,
            grounds: "no".into(),
        },
    );
    let Admissibility::Inadmissible { reason } = &g.state().appeals[0].admissibility else {
        panic!()
    };
    assert!(reason.contains("final"));
}

#[test]
fn lgc_2023_management_of_time_calling_the_referee_stops_both_clocks() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.push(
        W,
        Body::DisputeRaised {
            player: W,
            matter: "noise".into(),
        },
    );
    g.push(W, Body::RefereeCalled { player: W });
    let st = g.state();
    assert_eq!(
        st.phase,
        Phase::Paused {
            reason: "CALL_REFEREE".into()
        }
    );
    assert!(st.disputes[0].referee_called);
    assert_eq!(st.clock.running, None);
    // The referee's own pause adds nothing and is not an error.
    let s = g.referee(Body::ClockPaused {
        reason: PauseReason::Arbitration,
    });
    assert!(g
        .state()
        .consequences_of(s)
        .all(|c| !c.what.contains("not applicable")));
}

#[test]
fn lgc_2023_appeals_committee_votes_are_counted_by_key_not_by_name() {
    let mut g = G::go("lgc-2023");
    let named = |g: &G, i: usize, name: &str| Participant {
        role: Role::Committee,
        name: name.into(),
        key: g.m[i].public(),
    };
    let (m0, m1, m2, m3) = (
        named(&g, 0, "Ann Smith"),
        named(&g, 1, "Ann Smith"),
        named(&g, 2, "Bo Lee"),
        named(&g, 3, "Cy Park"),
    );
    g.director(Body::CommitteeFormed {
        members: vec![m0, m1, m2],
        reserves: vec![m3],
        formed_before_round: 1,
    });
    let (_, a) = disputed(&mut g, true, true);
    for i in 0..2 {
        g.member(
            i,
            Body::CommitteeDecision {
                appeal_seq: a,
                verdict: CommitteeVerdict::Upheld,
                reasons: "the judgement is right".into(),
            },
        );
    }
    let st = g.state();
    let d = st.appeals[0]
        .decision
        .as_ref()
        .expect("two sitting members sharing a name are two votes");
    assert_eq!(d.signed_by, vec!["Ann Smith", "Ann Smith"]);
    assert_eq!(st.appeals[0].votes.len(), 2);
}

#[test]
fn lgc_2023_arbitration_a_member_involved_in_the_dispute_is_shown_out_with_the_reserve_seated() {
    let mut g = G::go("lgc-2023");
    let black = g.cast.black.public();
    let m = |g: &G, i: usize| member(g, i);
    let involved = Participant {
        role: Role::Committee,
        name: "Black Player".into(),
        key: black,
    };
    let (m1, m2, m3) = (m(&g, 1), m(&g, 2), m(&g, 3));
    g.director(Body::CommitteeFormed {
        members: vec![involved, m1, m2],
        reserves: vec![m3],
        formed_before_round: 1,
    });
    let (_, _a) = disputed(&mut g, true, true);
    let st = g.state();
    let panel = st.appeals[0]
        .panel
        .as_ref()
        .expect("a panel for the appeal");
    assert_eq!(panel.sitting.len(), 3);
    assert!(panel.sitting.iter().all(|p| p.key != black));
    assert_eq!(panel.out.len(), 1);
    assert_eq!(
        panel.out[0].reason,
        kifu_game::OutReason::InvolvedByTheRecord
    );
    assert_eq!(
        panel.out[0].reason.to_string(),
        "involved in the dispute, by the record"
    );
    assert_eq!(panel.seated_reserves.len(), 1);
    assert_eq!(panel.seated_reserves[0].name, "Member 4");
    assert_eq!(
        panel.to_string(),
        "sitting: Member 2, Member 3, Member 4; out: Black Player (involved in the dispute, by the record); seated in their place: Member 4"
    );
}

/// The referee called while White thinks: a judgement "play resumes" starts
/// White's clock again, and the preview, the story and the state say the
/// same thing.
#[test]
fn lgc_2023_player_responsibility_a_judgement_that_play_resumes_restarts_the_clock_that_ran() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(10_000);
    g.mv(B, "ee");
    g.at(20_000);
    g.push(B, Body::RefereeCalled { player: B });
    let st = g.state();
    assert_eq!(st.clock.paused.as_deref(), Some("CALL_REFEREE"));
    assert_eq!(st.clock.running, None);
    g.at(80_000);
    let body = judgement(vec![
        RulingEffect::AdjustClock {
            player: W,
            delta_ms: 60_000,
        },
        RulingEffect::Resume,
    ]);
    // The preview of the draft, before the referee signs it.
    let draft = Event::next(
        g.chain.game,
        g.chain.head,
        g.chain.at_ms + 1000,
        g.cast.referee.public(),
        body.clone(),
    );
    let preview = kifu_game::preview::preview(&g.events, &draft);
    assert_eq!(preview.state.clock.running, Some(W));
    let s = g.referee(body);
    let st = g.state();
    assert_eq!(st.clock.paused, None, "the clocks run again");
    assert_eq!(
        st.clock.running,
        Some(W),
        "White's clock, which ran before the pause"
    );
    assert_eq!(st.phase, Phase::Playing);
    let said: Vec<String> = st.consequences_of(s).map(|c| c.what.clone()).collect();
    assert!(
        said.iter()
            .any(|w| w == "play resumes: the clocks run again, White's running"),
        "{said:?}"
    );
    let previewed: Vec<String> = preview
        .consequences
        .iter()
        .map(|c| c.what.clone())
        .collect();
    assert_eq!(said, previewed);
    let story = kifu_game::explanation::explanation_text(&g.chain.game, &g.events, true);
    assert!(
        story.contains("play resumes: the clocks run again, White's running"),
        "{story}"
    );
    // White used 9 s before the call (the press came a second after the
    // stone); the minute of the pause is nobody's.
    let faces = st.clock_faces().unwrap();
    assert_eq!(faces[1].main_ms, 60 * MIN - 9_000 + 60_000);
    // The referee's own restart of the same clock afterwards changes nothing.
    g.at(81_000);
    g.referee(Body::ClockResumed { running: W });
    let st = g.state();
    assert_eq!(st.clock.running, Some(W));
    assert!(!st
        .consequences
        .iter()
        .any(|c| c.what.contains("not applicable")));
}
