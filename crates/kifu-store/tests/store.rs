//! The store: durable appends, conflicts, refusals with nothing written, the
//! feed, imports.

use std::sync::{Arc, Barrier};

use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::*;
use kifu_store::{Expect, Store, StoreError};

fn fresh() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    (dir, store)
}

#[test]
fn appended_records_read_back_and_verify_after_reopen() {
    let (dir, store) = fresh();
    let cast = Cast::new();
    let c = sample_game(&cast, "a");
    for r in &c.records {
        store.append(r.clone()).unwrap();
    }
    drop(store);
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.read(&c.game, 0, None).unwrap(), c.records);
    assert_eq!(store.head(&c.game).unwrap().unwrap(), c.head);
    assert!(verify_records(&store.all_records().unwrap()).ok());
    assert_eq!(
        store.read(&c.game, 3, Some(5)).unwrap(),
        c.records[3..=5].to_vec()
    );
}

#[test]
fn two_racing_appenders_cannot_fork_a_game() {
    let (_dir, store) = fresh();
    let store = Arc::new(store);
    let cast = Arc::new(Cast::new());
    let c = sample_game(&cast, "race");
    store.append_batch(c.records.clone()).unwrap();
    let mut head = c.head;
    for round in 0..50u8 {
        // Both build a different event for the same place.
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = [(0u8, Color::Black), (1u8, Color::White)]
            .into_iter()
            .map(|(i, color)| {
                let store = store.clone();
                let cast = cast.clone();
                let barrier = barrier.clone();
                let game = c.game;
                std::thread::spawn(move || {
                    let k = if i == 0 { &cast.black } else { &cast.white };
                    let rec = Event::next(
                        game,
                        head,
                        round as u64,
                        k.public(),
                        Body::ClockPressed { player: color },
                    )
                    .sign(k)
                    .unwrap();
                    barrier.wait();
                    store.append(rec)
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let wins: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(wins.len(), 1, "round {round}: exactly one append wins");
        let lost = results.iter().find_map(|r| r.as_ref().err()).unwrap();
        assert!(
            matches!(lost, StoreError::Ledger(LedgerError::Conflict { .. })),
            "the loser gets a conflict: {lost}"
        );
        head = Head {
            seq: wins[0].seq,
            hash: wins[0].hash,
        };
    }
    let r = verify_records(&store.all_records().unwrap());
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.games[0].events, c.records.len() as u64 + 50);
}

#[test]
fn a_refused_append_writes_nothing() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let c = sample_game(&cast, "refuse");
    store.append_batch(c.records.clone()).unwrap();
    let before = (store.len(), store.head(&c.game).unwrap());
    let bad = [
        // Wrong signer for the kind.
        c.next(
            &cast.black,
            Body::ClockAdjusted {
                player: Color::Black,
                delta_ms: 1,
                reason: "".into(),
            },
        ),
        // Not in the roster.
        c.next(
            &cast.stranger,
            Body::ClockPressed {
                player: Color::Black,
            },
        ),
    ];
    for rec in bad {
        let e = store.append(rec).unwrap_err();
        assert!(
            matches!(e, StoreError::Ledger(LedgerError::Refused(_))),
            "{e}"
        );
    }
    // A bad signature.
    let mut rec = c.next(
        &cast.black,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    rec.signature[5] ^= 1;
    assert!(matches!(
        store.append(rec).unwrap_err(),
        StoreError::Ledger(LedgerError::BadSignature)
    ));
    assert_eq!((store.len(), store.head(&c.game).unwrap()), before);
}

#[test]
fn an_identical_retry_is_harmless() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let c = sample_game(&cast, "retry");
    store.append_batch(c.records.clone()).unwrap();
    let again = store.append(c.records[4].clone()).unwrap();
    assert!(!again.new);
    assert_eq!(again.seq, 4);
    assert_eq!(store.len(), c.records.len());
}

#[test]
fn the_feed_resumes_after_a_cursor_without_gap_or_duplicate() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let a = sample_game(&cast, "feed a");
    let b = sample_game(&cast, "feed b");
    // Interleave two games.
    for (x, y) in a.records.iter().zip(b.records.iter()) {
        store.append(x.clone()).unwrap();
        store.append(y.clone()).unwrap();
    }
    let all = store.feed(None, usize::MAX).unwrap();
    assert_eq!(all.len(), a.records.len() * 2);
    for (i, it) in all.iter().enumerate() {
        assert_eq!(it.cursor, i as u64);
    }
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store.feed(after, 7).unwrap();
        if page.is_empty() {
            break;
        }
        after = Some(page.last().unwrap().cursor);
        seen.extend(page.into_iter().map(|i| i.cursor));
    }
    assert_eq!(seen, (0..all.len() as u64).collect::<Vec<_>>());
}

#[test]
fn importing_twice_is_harmless_and_a_conflicting_archive_is_a_fork() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let c = sample_game(&cast, "import");
    let r = store.import(&verdict(&c.records), &mut |_, _| {}).unwrap();
    assert_eq!(r.written, c.records.len() as u64);
    let r = store.import(&verdict(&c.records), &mut |_, _| {}).unwrap();
    assert_eq!((r.written, r.already_present), (0, c.records.len() as u64));
    // Another history from seq 3 on, validly signed.
    let mut other = kifu_ledger::testkit::ChainBuilder {
        game: c.game,
        head: Head {
            seq: 2,
            hash: c.records[2].hash(),
        },
        records: c.records[..3].to_vec(),
        at_ms: 99,
    };
    other.push(
        &cast.white,
        Body::Pass {
            player: Color::White,
            pass_stone: true,
        },
    );
    let before = store.len();
    let e = store
        .import(&verdict(&other.records), &mut |_, _| {})
        .unwrap_err();
    assert!(matches!(e, StoreError::Fork { seq: 3, .. }), "{e}");
    assert_eq!(store.len(), before);
    // The other record is kept as evidence, and every verification of the
    // store reports the fork.
    assert_eq!(store.evidence().unwrap(), vec![other.records[3].clone()]);
    let r = verify_records(&store.records_for_verification().unwrap());
    assert!(!r.ok());
    assert_eq!(r.forks.len(), 1);
    assert_eq!(r.forks[0].seq, 3);
    drop(store);
    let store = Store::open(_dir.path()).unwrap();
    let r = verify_records(&store.records_for_verification().unwrap());
    assert_eq!(r.forks.len(), 1, "the evidence is durable");
}

fn verdict(records: &[Record]) -> kifu_ledger::archive::ArchiveVerdict {
    kifu_ledger::archive::ArchiveVerdict::of_records(records.to_vec())
}

#[test]
fn a_fork_inside_an_archive_is_kept_as_evidence_and_nothing_else_is_written() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let c = sample_game(&cast, "archive fork");
    let mut recs = c.records.clone();
    let mut alt = kifu_ledger::testkit::ChainBuilder {
        game: c.game,
        head: Head {
            seq: 2,
            hash: c.records[2].hash(),
        },
        records: vec![],
        at_ms: 7,
    };
    recs.push(
        alt.push(
            &cast.white,
            Body::ClockPressed {
                player: Color::White,
            },
        )
        .clone(),
    );
    let e = store.import(&verdict(&recs), &mut |_, _| {}).unwrap_err();
    assert!(matches!(e, StoreError::NotVerified(_)), "{e}");
    assert_eq!(store.len(), 0);
    assert_eq!(store.evidence().unwrap().len(), 2);
    assert_eq!(
        verify_records(&store.records_for_verification().unwrap())
            .forks
            .len(),
        1
    );
}

#[test]
fn a_retried_append_is_recognised_and_a_stale_one_refused() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let c = sample_game(&cast, "retry");
    store.append_batch(c.records.clone()).unwrap();
    let body = Body::ClockPressed {
        player: Color::Black,
    };
    let next = c.head.seq + 1;
    let a = store
        .append_expecting(&c.game, Expect::Seq(next), &cast.black, 10, body.clone())
        .unwrap();
    assert!(a.new);
    // The acknowledgement was lost; the client retries with a new timestamp.
    let b = store
        .append_expecting(&c.game, Expect::Seq(next), &cast.black, 11, body.clone())
        .unwrap();
    assert_eq!((b.seq, b.hash, b.new), (a.seq, a.hash, false));
    let b = store
        .append_expecting(
            &c.game,
            Expect::After(c.head.hash),
            &cast.black,
            12,
            body.clone(),
        )
        .unwrap();
    assert_eq!((b.seq, b.new), (a.seq, false));
    assert_eq!(store.head(&c.game).unwrap().unwrap().seq, next);
    // A client that has not seen seq `next` gets a conflict, not an append.
    let e = store
        .append_expecting(
            &c.game,
            Expect::After(c.head.hash),
            &cast.white,
            13,
            Body::ClockPressed {
                player: Color::White,
            },
        )
        .unwrap_err();
    assert!(
        matches!(e, StoreError::Stale { expected_seq, .. } if expected_seq == next),
        "{e}"
    );
    let e = store
        .append_expecting(&c.game, Expect::Seq(next + 5), &cast.black, 14, body)
        .unwrap_err();
    assert!(matches!(e, StoreError::Stale { .. }), "{e}");
    assert_eq!(store.head(&c.game).unwrap().unwrap().seq, next);
}

#[test]
fn a_second_open_is_reported_as_locked() {
    let (dir, _store) = fresh();
    // sled takes an exclusive flock on its data file: a second open, even
    // from the same process, is refused, and named.
    match Store::open(dir.path()) {
        Err(StoreError::Locked(_)) => {}
        Ok(_) => panic!("a second open succeeded"),
        Err(e) => panic!("expected Locked, got {e}"),
    }
}

#[test]
fn committee_seats_follow_the_chain_on_append() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let mut c = sample_game(&cast, "committee");
    let m: Vec<Keypair> = (30..34u8).map(|i| Keypair::from_seed([i; 32])).collect();
    let p = |k: &Keypair| Participant {
        role: Role::Committee,
        name: "m".into(),
        key: k.public(),
    };
    c.push(
        &cast.director,
        Body::CommitteeFormed {
            members: vec![p(&m[0]), p(&m[1]), p(&m[2])],
            reserves: vec![p(&m[3])],
            formed_before_round: 1,
        },
    );
    c.push(
        &cast.black,
        Body::AppealLodged {
            player: Color::Black,
            ruling_seq: 15,
            grounds: "g".into(),
        },
    );
    let appeal = c.head.seq;
    store.append_batch(c.records.clone()).unwrap();
    let d = Body::CommitteeDecision {
        appeal_seq: appeal,
        verdict: CommitteeVerdict::Upheld,
        reasons: "r".into(),
    };
    let reserve = c.next(&m[3], d.clone());
    assert!(matches!(
        store.append(reserve),
        Err(StoreError::Ledger(LedgerError::Refused(_)))
    ));
    let member = c.next(&m[0], d);
    store.append(member).unwrap();
}
