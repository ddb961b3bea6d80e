//! Seats and keys on the appeals committee, the log operator's statement,
//! and times read from records (`docs/FORMAT.md` sections 5, 5.1, 5.2, 6
//! and 9): what a store refuses at append is what verification refuses.

use kifu_ledger::standing::{time_backwards, TIME_TOLERANCE_MS};
use kifu_ledger::testkit::{committee_keys, Cast, ChainBuilder};
use kifu_ledger::*;
use proptest::prelude::*;

const T0: u64 = 1_767_225_600_000;

/// Appends `body` signed by `k` after checking it as a store would.
fn append(c: &mut ChainBuilder, k: &Keypair, body: Body) -> Result<Event, LedgerError> {
    let rec = c.next(k, body);
    let event = check_append(&c.game, &c.standing(), c.head, &rec)?;
    c.push_record(rec);
    Ok(event)
}

/// Signs `body` by `k` at the head without checking it: what a forger
/// writes into an archive.
fn force(c: &mut ChainBuilder, k: &Keypair, body: Body) {
    let rec = c.next(k, body);
    c.push_record(rec);
}

fn refusal(r: Result<Event, LedgerError>) -> String {
    match r {
        Ok(e) => panic!("seq {} was accepted", e.seq),
        Err(e) => e.to_string(),
    }
}

fn member(m: &[Keypair], i: usize) -> Participant {
    Participant {
        role: Role::Committee,
        name: format!("Member {i}"),
        key: m[i].public(),
    }
}

/// Genesis, a committee (members 0 to 2, reserve 3) and Black's appeal at
/// seq 2.
fn with_appeal(cast: &Cast, m: &[Keypair]) -> ChainBuilder {
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("seats"), T0);
    append(
        &mut c,
        &cast.director,
        Body::CommitteeFormed {
            members: vec![member(m, 0), member(m, 1), member(m, 2)],
            reserves: vec![member(m, 3)],
            formed_before_round: 1,
        },
    )
    .unwrap();
    append(
        &mut c,
        &cast.black,
        Body::AppealLodged {
            player: Color::Black,
            ruling_seq: 1,
            grounds: "g".into(),
        },
    )
    .unwrap();
    c
}

fn decision(verdict: CommitteeVerdict) -> Body {
    Body::CommitteeDecision {
        appeal_seq: 2,
        verdict,
        reasons: "r".into(),
    }
}

fn replace(participant: &Keypair, new_key: &Keypair) -> Body {
    Body::KeyReplaced {
        participant: participant.public(),
        new_key: new_key.public(),
        reason: "new tablet".into(),
    }
}

#[test]
fn a_member_who_replaced_their_key_has_still_voted() {
    let cast = Cast::new();
    let m = committee_keys();
    let mut c = with_appeal(&cast, &m);
    let upheld = || decision(CommitteeVerdict::Upheld);
    append(&mut c, &m[0], upheld()).unwrap();
    let new = Keypair::from_seed([30; 32]);
    append(&mut c, &m[0], replace(&m[0], &new)).expect("a member moves to a new key");
    let r = refusal(append(&mut c.clone(), &new, upheld()));
    assert!(r.contains("already signed a decision"), "{r}");
    // Forged into an archive, the second vote is a failure, and the appeal
    // is still pending: one person is not a majority.
    let mut forged = c.clone();
    force(&mut forged, &new, upheld());
    let report = verify_records(&forged.records);
    assert!(!report.ok());
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.seq == Some(5) && p.what.contains("already signed a decision")),
        "{:?}",
        report.problems
    );
    assert_eq!(report.games[0].pending_appeals, vec![2]);
    // Another member's vote makes the majority.
    append(&mut c, &m[1], upheld()).unwrap();
    assert_eq!(c.standing().appeals[&2].decided_at, Some(5));
    assert!(verify_records(&c.records).ok());
}

#[test]
fn a_reserve_not_sitting_and_a_recused_member_retire_their_own_keys() {
    let cast = Cast::new();
    let m = committee_keys();
    let mut c = with_appeal(&cast, &m);
    assert!(!c.standing().sitting().contains(&m[3].public()));
    // The reserve holds no role: it may not recuse anyone...
    let r = refusal(append(
        &mut c.clone(),
        &m[3],
        Body::MemberRecused {
            member: m[0].public(),
            reason: "x".into(),
        },
    ));
    assert!(r.contains("holds no role"), "{r}");
    // ... nor change another's key, but it revokes its own.
    let r = refusal(append(&mut c.clone(), &m[3], replace(&m[2], &m[4])));
    assert!(r.contains("holds no role"), "{r}");
    append(
        &mut c,
        &m[3],
        Body::KeyRevoked {
            key: m[3].public(),
            reason: "tablet stolen".into(),
        },
    )
    .expect("a reserve revokes its own key");
    // A recused member replaces its own key.
    append(
        &mut c,
        &cast.director,
        Body::MemberRecused {
            member: m[2].public(),
            reason: "plays in the same club".into(),
        },
    )
    .unwrap();
    let new = Keypair::from_seed([31; 32]);
    append(&mut c, &m[2], replace(&m[2], &new)).expect("a recused member replaces its own key");
    let s = c.standing();
    assert!(s.key_end(&m[2].public()).is_some());
    assert!(s.key_end(&m[3].public()).is_some());
    assert!(verify_records(&c.records).ok(), "verification agrees");
}

#[test]
fn co_opting_a_sitting_member_a_reserve_an_ended_key_or_a_player_is_refused() {
    let cast = Cast::new();
    let m = committee_keys();
    let mut c = with_appeal(&cast, &m);
    let coopt = |k: PublicKey| Body::MemberCoopted {
        member: Participant {
            role: Role::Committee,
            name: "Co-opted".into(),
            key: k,
        },
    };
    let r = refusal(append(&mut c.clone(), &cast.director, coopt(m[1].public())));
    assert!(r.contains("already sits"), "{r}");
    let r = refusal(append(&mut c.clone(), &cast.director, coopt(m[3].public())));
    assert!(r.contains("already a member or reserve"), "{r}");
    let r = refusal(append(
        &mut c.clone(),
        &cast.director,
        coopt(cast.white.public()),
    ));
    assert!(r.contains("player of this game"), "{r}");
    let new = Keypair::from_seed([32; 32]);
    append(&mut c, &cast.director, replace(&m[0], &new)).unwrap();
    let r = refusal(append(&mut c.clone(), &cast.director, coopt(m[0].public())));
    assert!(r.contains("replaced at seq 3"), "{r}");
    append(&mut c, &cast.director, coopt(m[4].public())).expect("a new person is co-opted");
    let r = refusal(append(&mut c.clone(), &cast.director, coopt(m[4].public())));
    assert!(r.contains("already co-opted"), "{r}");
}

fn operator_genesis(origin: &str, key: PublicKey) -> Genesis {
    Genesis {
        game: GameKind::Go,
        ruleset: LOG_OPERATOR_RULESET.into(),
        overrides: vec![],
        board_size: 19,
        handicap: 0,
        komi_half_points: 0,
        time_control: TimeControl::Untimed,
        roster: vec![Participant {
            role: Role::Recorder,
            name: LOG_OPERATOR_NAME.into(),
            key,
        }],
        tournament: None,
        title: format!("{LOG_OPERATOR_TITLE}{origin}"),
        auto_declare: false,
    }
}

#[test]
fn a_log_key_rotation_is_accepted_only_in_the_operators_own_chain() {
    let cast = Cast::new();
    let rotated = |origin: &str| Body::LogKeyRotated {
        origin: origin.into(),
        new_key: cast.stranger.public(),
    };
    // The recorder of an ordinary game.
    let mut game = ChainBuilder::start(&cast.referee, cast.genesis("a game"), T0);
    let r = refusal(append(
        &mut game.clone(),
        &cast.recorder,
        rotated("log.example"),
    ));
    assert!(r.contains("log operator's own chain"), "{r}");
    force(&mut game, &cast.recorder, rotated("log.example"));
    assert!(!verify_records(&game.records).ok());
    // The operator's chain, for its own origin only.
    let op = &cast.recorder;
    let mut chain = ChainBuilder::start(op, operator_genesis("log.example", op.public()), T0);
    let r = refusal(append(&mut chain.clone(), op, rotated("other.example")));
    assert!(r.contains("log operator's own chain"), "{r}");
    append(&mut chain, op, rotated("log.example")).expect("the operator rotates its key");
    assert!(verify_records(&chain.records).ok());
}

#[test]
fn a_time_near_the_end_of_u64_is_no_warning_and_no_overflow() {
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("times"), T0);
    let far = Event::next(
        c.game,
        c.head,
        18_446_744_073_709_551_000,
        cast.referee.public(),
        Body::ClockStarted {
            running: Color::Black,
        },
    )
    .sign(&cast.referee)
    .unwrap();
    check_append(&c.game, &c.standing(), c.head, &far).expect("a time is a statement");
    c.push_record(far);
    let back = Event::next(
        c.game,
        c.head,
        0,
        cast.black.public(),
        Body::ClockPressed {
            player: Color::Black,
        },
    )
    .sign(&cast.black)
    .unwrap();
    c.push_record(back);
    let report = verify_records(&c.records);
    assert!(report.ok(), "{:?}", report.problems);
    // Forward by nearly 2^64 ms: no warning; then back to 0: one warning, by
    // the whole distance.
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert_eq!(report.warnings[0].seq, Some(2));
    assert!(
        report.warnings[0].what.contains("5124095576030:25:51"),
        "{}",
        report.warnings[0].what
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The warning rule over every pair of u64 times: exactly when
    /// `at + 5000 < prev` in exact arithmetic, by exactly `prev - at`.
    #[test]
    fn time_backwards_is_exact_over_all_u64(prev in any::<u64>(), at in any::<u64>()) {
        let exact = u128::from(at) + u128::from(TIME_TOLERANCE_MS) < u128::from(prev);
        let got = time_backwards(prev, at);
        prop_assert_eq!(got.is_some(), exact);
        if let Some(by) = got {
            prop_assert_eq!(u128::from(by), u128::from(prev) - u128::from(at));
        }
    }

    /// A chain stamped with arbitrary times (the edges of u64 included)
    /// verifies without a panic (tests build with overflow checks), and
    /// warns exactly where the rule says.
    #[test]
    fn chains_with_arbitrary_times_verify_and_warn_by_the_rule(
        times in proptest::collection::vec(
            prop_oneof![any::<u64>(), Just(0u64), Just(u64::MAX), (u64::MAX - 10_000)..=u64::MAX],
            1..8,
        ),
    ) {
        let cast = Cast::new();
        let mut c = ChainBuilder::start(&cast.referee, cast.genesis("times"), times[0]);
        let mut expected = 0;
        let mut prev = times[0];
        for &t in &times[1..] {
            let rec = Event::next(
                c.game,
                c.head,
                t,
                cast.referee.public(),
                Body::ClockReading {
                    black_ms: t,
                    white_ms: u64::MAX - t,
                    black_overtime: Some(u32::MAX),
                    white_overtime: None,
                    read_by: "r".into(),
                },
            )
            .sign(&cast.referee)
            .unwrap();
            check_append(&c.game, &c.standing(), c.head, &rec).unwrap();
            c.push_record(rec);
            if time_backwards(prev, t).is_some() {
                expected += 1;
            }
            prev = t;
        }
        let report = verify_records(&c.records);
        prop_assert!(report.ok());
        prop_assert_eq!(report.warnings.len(), expected);
    }
}

fn judgement(decision: &str) -> Body {
    Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: decision.into(),
        reasons: String::new(),
        rules_cited: vec![],
        effects: vec![],
    })
}

#[test]
fn the_committee_s_decision_is_final_until_a_new_matter_opens() {
    // LGC 2023, "Appeals committee": "The appeals committee's decision is
    // final."
    let cast = Cast::new();
    let m = committee_keys();
    let mut c = with_appeal(&cast, &m);
    append(&mut c, &m[0], decision(CommitteeVerdict::Upheld)).unwrap();
    // One vote decides nothing: the referee may still rule.
    let mut open = c.clone();
    append(&mut open, &cast.referee, judgement("before the majority")).unwrap();
    append(&mut c, &m[1], decision(CommitteeVerdict::Upheld)).unwrap();
    let why = refusal(append(&mut c, &cast.referee, judgement("W+F")));
    assert!(
        why.contains("its decision is final") && why.contains("Appeals committee"),
        "{why}"
    );
    // A forger's archive with the ruling fails verification, with the rule.
    let mut forged = c.clone();
    force(&mut forged, &cast.referee, judgement("W+F"));
    let report = verify_records(&forged.records);
    assert!(!report.ok());
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.to_string().contains("its decision is final")),
        "{:?}",
        report.problems
    );
    // A new call for the referee opens a new matter.
    append(
        &mut c,
        &cast.white,
        Body::RefereeCalled {
            player: Color::White,
        },
    )
    .unwrap();
    append(&mut c, &cast.referee, judgement("the new matter")).unwrap();
}
