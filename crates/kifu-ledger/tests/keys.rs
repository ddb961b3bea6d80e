//! Keys along the chain (`docs/FORMAT.md` section 5.2): a key replaced or
//! revoked mid-game, checked at append, in whole-chain verification and in
//! archives.

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;

const T0: u64 = 1_767_225_600_000;

fn stone(c: Color, x: u8, y: u8) -> Body {
    Body::StonePlaced {
        player: c,
        stone: c,
        point: Point { x, y },
    }
}

/// Genesis, clock started, two moves each.
fn opening(cast: &Cast) -> ChainBuilder {
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("keys"), T0);
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    c.push(&cast.black, stone(Color::Black, 4, 4));
    c.push(&cast.white, stone(Color::White, 2, 2));
    c.push(&cast.black, stone(Color::Black, 6, 2));
    c.push(&cast.white, stone(Color::White, 2, 6));
    c
}

/// Appends `body` signed by `k` after checking it as a store would.
fn append(c: &mut ChainBuilder, k: &Keypair, body: Body) -> Result<Event, LedgerError> {
    let rec = c.next(k, body);
    let event = check_append(&c.game, &c.standing(), c.head, &rec)?;
    c.push_record(rec);
    Ok(event)
}

fn replace(participant: &Keypair, new_key: &Keypair) -> Body {
    Body::KeyReplaced {
        participant: participant.public(),
        new_key: new_key.public(),
        reason: "tablet lost".into(),
    }
}

fn revoke(key: &Keypair) -> Body {
    Body::KeyRevoked {
        key: key.public(),
        reason: "compromised".into(),
    }
}

fn refusal(r: Result<Event, LedgerError>) -> String {
    match r {
        Ok(e) => panic!("seq {} was accepted", e.seq),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_lost_device_is_replaced_by_the_referee_and_play_continues_with_the_new_key() {
    let cast = Cast::new();
    let mut c = opening(&cast);
    let at = append(&mut c, &cast.referee, replace(&cast.black, &cast.black_new))
        .expect("a referee replaces a player's key")
        .seq;
    assert_eq!(at, 6);
    // The new key speaks for Black.
    append(&mut c, &cast.black_new, stone(Color::Black, 6, 6)).expect("the new key plays");
    append(&mut c, &cast.white, stone(Color::White, 4, 2)).expect("the opponent plays on");
    // It may not speak for White.
    let wrong = refusal(append(
        &mut c.clone(),
        &cast.black_new,
        stone(Color::White, 5, 5),
    ));
    assert!(wrong.contains("only the player concerned"), "{wrong}");
    // The old key is refused from the replacement on, whatever it signs.
    let old = refusal(append(
        &mut c.clone(),
        &cast.black,
        stone(Color::Black, 3, 3),
    ));
    assert!(old.contains("replaced at seq 6"), "{old}");
    let old_press = refusal(append(
        &mut c.clone(),
        &cast.black,
        Body::ClockPressed {
            player: Color::Black,
        },
    ));
    assert!(old_press.contains("replaced at seq 6"), "{old_press}");
    append(&mut c, &cast.black_new, stone(Color::Black, 3, 3)).expect("the new key plays");
    // The whole game verifies, the old key's moves before seq 6 included.
    let report = verify_records(&c.records);
    assert!(report.ok(), "{:?}", report.problems);
    assert_eq!(report.games[0].events, 10);
    let verdict = archive::verify_archive(&archive::write(&c.records)).expect("reads");
    assert!(verdict.report().ok(), "{:?}", verdict.report().problems);
    let standing = c.standing();
    assert_eq!(
        standing.key_end(&cast.black.public()),
        Some(KeyEnd::Replaced {
            seq: 6,
            by: cast.black_new.public()
        })
    );
    assert_eq!(
        standing.roles_of(&cast.black_new.public()),
        vec![Role::Black]
    );
    assert!(standing.roles_of(&cast.black.public()).is_empty());
}

#[test]
fn an_archive_with_an_event_signed_by_the_old_key_after_the_replacement_fails() {
    let cast = Cast::new();
    let mut c = opening(&cast);
    append(&mut c, &cast.referee, replace(&cast.black, &cast.black_new)).unwrap();
    // Written without the append check, as a forger or a stale device would.
    c.push(&cast.black, stone(Color::Black, 6, 6));
    let verdict = archive::verify_archive(&archive::write(&c.records)).expect("reads");
    let report = verdict.report();
    assert!(!report.ok());
    let p = report
        .problems
        .iter()
        .find(|p| p.seq == Some(7))
        .expect("a problem at seq 7");
    assert!(p.what.contains("replaced at seq 6"), "{p}");
    // The game verified is the chain up to the replacement.
    assert_eq!(report.games[0].head.seq, 6);
}

#[test]
fn a_revoked_key_signs_nothing_more_and_what_it_signed_before_stands() {
    let cast = Cast::new();
    let mut c = opening(&cast);
    // White's own key revokes itself (compromised, noticed by White).
    append(&mut c, &cast.white, revoke(&cast.white)).expect("a key revokes itself");
    let later = refusal(append(
        &mut c.clone(),
        &cast.white,
        stone(Color::White, 4, 2),
    ));
    assert!(later.contains("revoked at seq 6"), "{later}");
    // Revoked twice: refused.
    let twice = refusal(append(&mut c.clone(), &cast.referee, revoke(&cast.white)));
    assert!(twice.contains("already revoked"), "{twice}");
    // The chain so far, with White's moves before the revocation, verifies.
    assert!(verify_records(&c.records).ok());
    // The referee gives White's seat a new key; White plays on with it.
    let white_new = Keypair::from_seed([11; 32]);
    append(&mut c, &cast.referee, replace(&cast.white, &white_new))
        .expect("an official replaces a revoked key");
    append(&mut c, &cast.black, stone(Color::Black, 6, 6)).unwrap();
    append(&mut c, &white_new, stone(Color::White, 4, 2)).expect("the new key plays");
    let report = verify_records(&c.records);
    assert!(report.ok(), "{:?}", report.problems);
    // A revoked key stays revoked, also after its seat got a new key.
    assert_eq!(
        c.standing().key_end(&cast.white.public()),
        Some(KeyEnd::Revoked { seq: 6 })
    );
    // A later event signed with it, written past the checks, fails verification.
    c.push(&cast.white, stone(Color::White, 3, 3));
    let report = verify_records(&c.records);
    assert!(report
        .problems
        .iter()
        .any(|p| p.seq == Some(10) && p.what.contains("revoked at seq 6")));
}

#[test]
fn a_replacement_signed_without_the_power_is_refused() {
    let cast = Cast::new();
    let c = opening(&cast);
    let new = Keypair::from_seed([12; 32]);
    // The opponent may not replace a player's key.
    let r = refusal(append(
        &mut c.clone(),
        &cast.white,
        replace(&cast.black, &new),
    ));
    assert!(r.contains("a referee or the director"), "{r}");
    // The recorder neither.
    let r = refusal(append(
        &mut c.clone(),
        &cast.recorder,
        replace(&cast.black, &new),
    ));
    assert!(r.contains("a referee or the director"), "{r}");
    // A referee's key is the director's to replace, not another official's.
    let r = refusal(append(
        &mut c.clone(),
        &cast.recorder,
        replace(&cast.referee, &new),
    ));
    assert!(r.contains("the director"), "{r}");
    append(&mut c.clone(), &cast.director, replace(&cast.referee, &new))
        .expect("the director replaces a referee's key");
    // Nobody but the director replaces the director's key.
    let r = refusal(append(
        &mut c.clone(),
        &cast.referee,
        replace(&cast.director, &new),
    ));
    assert!(r.contains("its own holder only"), "{r}");
    append(
        &mut c.clone(),
        &cast.director,
        replace(&cast.director, &new),
    )
    .expect("the director replaces its own key");
    // A stranger revokes nothing.
    let r = refusal(append(&mut c.clone(), &cast.stranger, revoke(&cast.black)));
    assert!(r.contains("not in the game's roster"), "{r}");
    // A player replaces their own key.
    append(&mut c.clone(), &cast.black, replace(&cast.black, &new))
        .expect("a key's holder replaces it");
    // The new key may not already be in the game.
    let r = refusal(append(
        &mut c.clone(),
        &cast.referee,
        replace(&cast.black, &cast.white),
    ));
    assert!(r.contains("already used"), "{r}");
    // A key that is not in the roster cannot be replaced.
    let r = refusal(append(
        &mut c.clone(),
        &cast.referee,
        replace(&cast.stranger, &new),
    ));
    assert!(r.contains("not a key of the roster"), "{r}");
    // An already replaced key cannot be replaced again.
    let mut d = c.clone();
    append(&mut d, &cast.referee, replace(&cast.black, &new)).unwrap();
    let r = refusal(append(
        &mut d,
        &cast.referee,
        replace(&cast.black, &Keypair::from_seed([13; 32])),
    ));
    assert!(r.contains("already replaced at seq 6"), "{r}");
}

#[test]
fn forks_keep_their_own_keys() {
    // Two branches from one place: a replacement on one does not leak into
    // the other (each branch is verified with its own standing).
    let cast = Cast::new();
    let base = opening(&cast);
    let mut a = base.clone();
    append(&mut a, &cast.referee, replace(&cast.black, &cast.black_new)).unwrap();
    let mut b = base.clone();
    append(&mut b, &cast.black, stone(Color::Black, 6, 6)).unwrap();
    let mut all = a.records.clone();
    all.extend(b.records[6..].iter().cloned());
    let report = verify_records(&all);
    assert_eq!(report.forks.len(), 1);
    // Both branches are valid: the only problem is the fork itself.
    assert!(report.problems.iter().all(|p| p.what.starts_with("fork")));
}

#[test]
fn a_committee_members_key_is_replaced_by_the_director_and_the_member_still_sits() {
    let cast = Cast::new();
    let m = kifu_ledger::testkit::committee_keys();
    let member = |i: usize| Participant {
        role: Role::Committee,
        name: format!("Member {i}"),
        key: m[i].public(),
    };
    let mut c = opening(&cast);
    append(
        &mut c,
        &cast.director,
        Body::CommitteeFormed {
            members: vec![member(0), member(1), member(2)],
            reserves: vec![member(3)],
            formed_before_round: 1,
        },
    )
    .unwrap();
    let appeal = append(
        &mut c,
        &cast.black,
        Body::AppealLodged {
            player: Color::Black,
            ruling_seq: 1,
            grounds: "g".into(),
        },
    )
    .unwrap()
    .seq;
    let new = Keypair::from_seed([14; 32]);
    // Only the director has the power over a committee member's key.
    let r = refusal(append(&mut c.clone(), &cast.referee, replace(&m[0], &new)));
    assert!(r.contains("the director"), "{r}");
    append(&mut c, &cast.director, replace(&m[0], &new)).unwrap();
    let decision = Body::CommitteeDecision {
        appeal_seq: appeal,
        verdict: CommitteeVerdict::Rejected,
        reasons: "r".into(),
    };
    let r = refusal(append(&mut c.clone(), &m[0], decision.clone()));
    assert!(r.contains("replaced at seq 8"), "{r}");
    append(&mut c, &new, decision.clone()).expect("the member sits with the new key");
    append(&mut c, &m[1], decision).unwrap();
    let s = c.standing();
    assert_eq!(s.appeals[&appeal].decided_at, Some(10));
    assert_eq!(
        s.sitting(),
        vec![new.public(), m[1].public(), m[2].public()]
    );
    assert!(verify_records(&c.records).ok());
}

#[test]
fn a_committee_members_revoked_key_is_replaced_by_the_director() {
    let cast = Cast::new();
    let m = kifu_ledger::testkit::committee_keys();
    let member = |i: usize| Participant {
        role: Role::Committee,
        name: format!("Member {i}"),
        key: m[i].public(),
    };
    let mut c = opening(&cast);
    append(
        &mut c,
        &cast.director,
        Body::CommitteeFormed {
            members: vec![member(0), member(1), member(2)],
            reserves: vec![],
            formed_before_round: 1,
        },
    )
    .unwrap();
    append(&mut c, &m[2], revoke(&m[2])).expect("a member revokes its own key");
    let new = Keypair::from_seed([15; 32]);
    let r = refusal(append(&mut c.clone(), &m[2], replace(&m[2], &new)));
    assert!(r.contains("revoked at seq 7"), "{r}");
    append(&mut c, &cast.director, replace(&m[2], &new)).unwrap();
    assert!(c.standing().in_roster(&new.public()));
    assert_eq!(c.standing().sitting()[2], new.public());
    assert!(verify_records(&c.records).ok());
}
