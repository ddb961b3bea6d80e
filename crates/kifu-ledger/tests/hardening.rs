//! One verdict for every verifier, in any order: strict signatures on the
//! fast path, order-independent archive verdicts, unknown kinds from outside
//! the roster, committee membership from the record, reported irregularities,
//! and archives of earlier versions.

use curve25519_dalek::constants::{ED25519_BASEPOINT_TABLE, EIGHT_TORSION};
use curve25519_dalek::edwards::EdwardsPoint;
use curve25519_dalek::scalar::Scalar;
use ed25519_dalek::hazmat::ExpandedSecretKey;
use ed25519_dalek::{Digest, Sha512};
use kifu_ledger::sig::{self, Item};
use kifu_ledger::testkit::{sample_game, Cast, ChainBuilder};
use kifu_ledger::*;
use proptest::prelude::*;

fn secret_scalar(seed: [u8; 32]) -> Scalar {
    ExpandedSecretKey::from(&seed).scalar
}

fn challenge(r: &[u8; 32], a: &[u8; 32], m: &[u8]) -> Scalar {
    Scalar::from_hash(
        Sha512::new()
            .chain_update(r)
            .chain_update(a)
            .chain_update(m),
    )
}

/// A signature `(R, S)` with `R = point` and `S = r + k·a`, where `point =
/// [r]B + T`: valid under the cofactorless equation only if `T` is zero.
fn forge(seed: [u8; 32], r: Scalar, torsion: EdwardsPoint, msg: &[u8]) -> [u8; 64] {
    let a = secret_scalar(seed);
    let pk = Keypair::from_seed(seed).public().0;
    let big_r = &r * ED25519_BASEPOINT_TABLE + torsion;
    let rb = big_r.compress().to_bytes();
    let s = r + challenge(&rb, &pk, msg) * a;
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&rb);
    sig[32..].copy_from_slice(s.as_bytes());
    sig
}

/// `R` = the identity, `S = H(R||A||M)·a`: the batch equation holds for it.
fn identity_r(seed: [u8; 32], msg: &[u8]) -> [u8; 64] {
    forge(seed, Scalar::ZERO, EdwardsPoint::default(), msg)
}

/// The next event of `c`, signed by `seed` with a forged signature.
fn forged_next(
    c: &ChainBuilder,
    seed: [u8; 32],
    body: Body,
    how: impl Fn(&[u8]) -> [u8; 64],
) -> Record {
    let kp = Keypair::from_seed(seed);
    let honest = c.next(&kp, body);
    let msg = event::signed_message(&honest.event_bytes);
    Record {
        event_bytes: honest.event_bytes,
        signature: how(&msg),
    }
}

fn press(p: Color) -> Body {
    Body::ClockPressed { player: p }
}

#[test]
fn a_small_order_r_is_refused_by_chain_verification() {
    let cast = Cast::new();
    let mut c = sample_game(&cast, "identity R");
    let rec = forged_next(&c, [1; 32], press(Color::Black), |m| identity_r([1; 32], m));
    // The forgery does satisfy the batch equation...
    let msg = event::signed_message(&rec.event_bytes);
    let vk = ed25519_dalek::VerifyingKey::from_bytes(&cast.black.public().0).unwrap();
    let sig = ed25519_dalek::Signature::from_bytes(&rec.signature);
    assert!(ed25519_dalek::verify_batch(&[&msg[..]], &[sig], &[vk]).is_ok());
    // ...but not the rule.
    assert!(vk.verify_strict(&msg, &sig).is_err());
    c.push_record(rec);
    let r = verify_records(&c.records);
    assert!(!r.ok(), "a small-order R was accepted");
    assert!(
        r.problems[0].what.contains("bad signature"),
        "{:?}",
        r.problems
    );
}

#[test]
fn a_mixed_order_r_is_refused_every_time() {
    let cast = Cast::new();
    // Each forgery passes a random batch with probability 1/2 (order 2) or
    // 1/8 (order 8); forty of them would slip through a bare batch.
    for (i, t) in [4usize, 1, 2, 4, 1, 3, 4, 5, 6, 7]
        .iter()
        .cycle()
        .take(40)
        .enumerate()
    {
        let mut c = sample_game(&cast, "mixed R");
        let r = Scalar::from((i as u64) + 7);
        let rec = forged_next(&c, [1; 32], press(Color::Black), |m| {
            forge([1; 32], r, EIGHT_TORSION[*t], m)
        });
        c.push_record(rec);
        let rep = verify_records(&c.records);
        assert!(
            !rep.ok(),
            "try {i}: an R with a torsion component was accepted"
        );
    }
}

fn items_from(v: &[(Vec<u8>, [u8; 32], [u8; 64])]) -> Vec<Item<'_>> {
    v.iter().map(|(m, k, s)| (k, m.as_slice(), s)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Batch verification gives exactly the one-by-one verdict on valid,
    /// invalid and adversarial signatures mixed in one batch.
    #[test]
    fn batch_and_one_by_one_agree(kinds in proptest::collection::vec(0u8..8, 1..80), salt in any::<u64>()) {
        let mut v = Vec::new();
        for (i, k) in kinds.iter().enumerate() {
            let seed = [(i % 5) as u8 + 1; 32];
            let kp = Keypair::from_seed(seed);
            let msg = format!("message {salt} {i}").into_bytes();
            let pk = kp.public().0;
            let r = Scalar::from(salt.wrapping_add(i as u64) | 1);
            let (pk, sig) = match k {
                0 | 1 => (pk, kp.sign_raw(&msg)),
                2 => { let mut s = kp.sign_raw(&msg); s[40] ^= 1; (pk, s) }
                3 => (pk, identity_r(seed, &msg)),
                4 => (pk, forge(seed, r, EIGHT_TORSION[4], &msg)),
                5 => (pk, forge(seed, r, EIGHT_TORSION[1 + (i % 3)], &msg)),
                6 => {
                    // A key with a torsion component, and R chosen so that
                    // the cofactorless equation holds: verify_strict alone
                    // would accept it.
                    let a = secret_scalar(seed);
                    let t = EIGHT_TORSION[4];
                    let big_a = (&a * ED25519_BASEPOINT_TABLE + t).compress().to_bytes();
                    // R = rB - kT needs k, which needs R: search r until kT = T·(k mod 2) fits.
                    let mut found = None;
                    for j in 0..64u64 {
                        let rr = Scalar::from(1000 + j + salt % 1000);
                        for parity in [false, true] {
                            let big_r = &rr * ED25519_BASEPOINT_TABLE + if parity { t } else { EdwardsPoint::default() };
                            let rb = big_r.compress().to_bytes();
                            let kk = challenge(&rb, &big_a, &msg);
                            if (kk.as_bytes()[0] & 1 == 1) == parity {
                                let s = rr + kk * a;
                                let mut sig = [0u8; 64];
                                sig[..32].copy_from_slice(&rb);
                                sig[32..].copy_from_slice(s.as_bytes());
                                found = Some(sig);
                                break;
                            }
                        }
                        if found.is_some() { break; }
                    }
                    (big_a, found.unwrap_or([0; 64]))
                }
                _ => {
                    // S not reduced: add L to it.
                    let mut s = kp.sign_raw(&msg);
                    let l: [u8; 32] = [0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10];
                    let mut carry = 0u16;
                    for b in 0..32 {
                        let x = s[32 + b] as u16 + l[b] as u16 + carry;
                        s[32 + b] = x as u8;
                        carry = x >> 8;
                    }
                    (pk, s)
                }
            };
            v.push((msg, pk, sig));
        }
        let items = items_from(&v);
        let each = sig::verify_each(&items);
        // The reference: the key rule, then ed25519-dalek's verify_strict.
        for (i, (k, m, s)) in items.iter().enumerate() {
            let reference = sig::check_key(k).is_ok()
                && ed25519_dalek::VerifyingKey::from_bytes(k)
                    .map(|vk| vk.verify_strict(m, &ed25519_dalek::Signature::from_bytes(s)).is_ok())
                    .unwrap_or(false);
            prop_assert_eq!(each[i], reference, "kind {} at {}", kinds[i], i);
        }
        let batch = sig::verify_batch_exact(&items);
        prop_assert_eq!(&each, &batch);
        for m in [sig::Method::OneByOne, sig::Method::Batch] {
            prop_assert_eq!(&sig::verify_parallel(&items, m), &each);
        }
        for (i, k) in kinds.iter().enumerate() {
            prop_assert_eq!(each[i], *k <= 1, "kind {} at {}", k, i);
        }
    }
}

/// A sample game with junk around it: a badly signed record at a filled
/// seq, a non-canonical body at a filled seq, a duplicate, a record from a
/// stranger, and a fork.
fn messy(with_fork: bool) -> (ChainBuilder, Vec<Record>) {
    let cast = Cast::new();
    let c = sample_game(&cast, "messy");
    let mut recs = c.records.clone();
    let mut at3 = ChainBuilder {
        game: c.game,
        head: Head {
            seq: 2,
            hash: c.records[2].hash(),
        },
        records: vec![],
        at_ms: 0,
    };
    let mut bad = at3.next(&cast.white, press(Color::White));
    bad.signature[10] ^= 1;
    recs.push(bad);
    // Non-canonical body (trailing byte), validly signed, at seq 3.
    let mut body = postcard::to_allocvec(&press(Color::White)).unwrap();
    body.push(0);
    recs.push(at3.next_raw(&cast.white, body));
    recs.push(c.records[4].clone());
    if with_fork {
        recs.push(at3.push(&cast.white, press(Color::White)).clone());
    }
    (c, recs)
}

#[test]
fn junk_at_a_filled_place_fails_whichever_comes_first() {
    let (c, recs) = messy(false);
    let junk_last = verify_records(&recs);
    let mut first = recs[c.records.len()..].to_vec();
    first.extend_from_slice(&c.records);
    let junk_first = verify_records(&first);
    assert!(!junk_last.ok());
    assert_eq!(junk_last, junk_first);
    assert_eq!(junk_last.problems.len(), 2, "{:#?}", junk_last.problems);
    assert_eq!(junk_last.duplicates.len(), 1);
    assert_eq!(junk_last.duplicates[0].seq, 4);
    assert_eq!(junk_last.distinct, junk_last.records - 1);
    assert_eq!(junk_last.games[0].events, c.records.len() as u64);
}

#[test]
fn an_identical_copy_is_a_duplicate_not_an_extra_event() {
    let cast = Cast::new();
    let c = sample_game(&cast, "dup");
    let mut recs = c.records.clone();
    recs.push(c.records[7].clone());
    let r = verify_records(&recs);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.games[0].events, c.records.len() as u64);
    assert_eq!(r.duplicates.len(), 1);
    assert_eq!(r.duplicates[0].copies, 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any permutation of the records gives the same verdict and report.
    #[test]
    fn any_permutation_gives_the_same_report(seed in any::<u64>(), fork in any::<bool>()) {
        let (_, recs) = messy(fork);
        let want = verify_records(&recs);
        let mut shuffled = recs.clone();
        let mut x = seed | 1;
        for i in (1..shuffled.len()).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            shuffled.swap(i, (x % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(verify_records(&shuffled), want);
    }
}

fn unknown_kind_body() -> Vec<u8> {
    // Kind 200 (varint 0xc8 0x01) and a payload byte.
    vec![0xc8, 0x01, 0x07]
}

#[test]
fn an_unknown_kind_from_outside_the_roster_fails() {
    let cast = Cast::new();
    let mut c = sample_game(&cast, "stranger");
    let rec = c.next_raw(&cast.stranger, unknown_kind_body());
    c.push_record(rec);
    let r = verify_records(&c.records);
    assert!(!r.ok());
    assert!(
        r.problems[0].what.contains("not in the game's roster"),
        "{:?}",
        r.problems
    );
    assert!(r.uninterpreted.is_empty());
}

#[test]
fn an_unknown_kind_from_a_roster_key_is_reported_not_failed() {
    let cast = Cast::new();
    let mut c = sample_game(&cast, "roster");
    let rec = c.next_raw(&cast.referee, unknown_kind_body());
    c.push_record(rec);
    c.push(&cast.black, press(Color::Black));
    let r = verify_records(&c.records);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.uninterpreted.len(), 1);
    assert_eq!(r.games[0].events, c.records.len() as u64);
}

#[test]
fn an_overlong_kind_index_is_refused_for_unknown_kinds_too() {
    let cast = Cast::new();
    let mut c = sample_game(&cast, "overlong");
    // Kind 200 written in three bytes: 0xc8 0x81 0x00.
    let rec = c.next_raw(&cast.referee, vec![0xc8, 0x81, 0x00, 0x07]);
    assert!(rec.header().is_err());
    c.push_record(rec);
    assert!(!verify_records(&c.records).ok());
}

fn member(name: &str, k: &Keypair) -> Participant {
    Participant {
        role: Role::Committee,
        name: name.into(),
        key: k.public(),
    }
}

/// A game with an appeal, and a committee of three with one reserve.
fn appealed() -> (Cast, Vec<Keypair>, ChainBuilder, u64) {
    let cast = Cast::new();
    let com: Vec<Keypair> = (20..25u8).map(|i| Keypair::from_seed([i; 32])).collect();
    let mut c = sample_game(&cast, "appeal");
    c.push(
        &cast.director,
        Body::CommitteeFormed {
            members: vec![
                member("m1", &com[0]),
                member("m2", &com[1]),
                member("m3", &com[2]),
            ],
            reserves: vec![member("r1", &com[3])],
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
    (cast, com, c, appeal)
}

fn decision(appeal_seq: u64) -> Body {
    Body::CommitteeDecision {
        appeal_seq,
        verdict: CommitteeVerdict::Upheld,
        reasons: "r".into(),
    }
}

#[test]
fn a_reserve_cannot_decide_until_seated() {
    let (_, com, mut c, appeal) = appealed();
    let rec = c.next(&com[3], decision(appeal));
    let mut bad = c.records.clone();
    bad.push(rec);
    let r = verify_records(&bad);
    assert!(!r.ok());
    assert!(r.problems[0].what.contains("sitting"), "{:?}", r.problems);
    // Once a member is recused, the reserve sits and may decide.
    let cast = Cast::new();
    c.push(
        &cast.director,
        Body::MemberRecused {
            member: com[0].public(),
            reason: "coach of Black".into(),
        },
    );
    let seated = c.next(&com[3], decision(appeal));
    let refused = c.next(&com[0], decision(appeal));
    let mut with_recused = c.records.clone();
    with_recused.push(refused);
    assert!(
        !verify_records(&with_recused).ok(),
        "a recused member decided"
    );
    c.push_record(seated);
    assert!(verify_records(&c.records).ok());
}

#[test]
fn a_coopted_person_sits_when_too_few_remain() {
    let (cast, com, mut c, appeal) = appealed();
    for k in [&com[0], &com[1], &com[3]] {
        c.push(
            &cast.director,
            Body::MemberRecused {
                member: k.public(),
                reason: "involved".into(),
            },
        );
    }
    let refused = c.next(&com[4], decision(appeal));
    let mut early = c.records.clone();
    early.push(refused);
    assert!(
        !verify_records(&early).ok(),
        "not yet co-opted, yet decided"
    );
    c.push(
        &cast.director,
        Body::MemberCoopted {
            member: member("co", &com[4]),
        },
    );
    c.push(&com[4], decision(appeal));
    c.push(&com[2], decision(appeal));
    let r = verify_records(&c.records);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.games[0].decided_appeals, vec![(appeal, c.head.seq)]);
}

#[test]
fn a_majority_of_the_three_decides_and_a_member_votes_once() {
    let (_, com, mut c, appeal) = appealed();
    c.push(&com[0], decision(appeal));
    let r = verify_records(&c.records);
    assert!(r.ok());
    assert_eq!(r.games[0].pending_appeals, vec![appeal]);
    assert!(!r.games[0].finished());
    let twice = c.next(&com[0], decision(appeal));
    let mut bad = c.records.clone();
    bad.push(twice);
    assert!(!verify_records(&bad).ok(), "a member signed twice");
    c.push(&com[1], decision(appeal));
    let r = verify_records(&c.records);
    assert!(r.games[0].pending_appeals.is_empty());
    assert!(r.games[0].finished());
}

#[test]
fn a_decision_without_a_committee_or_an_appeal_is_refused() {
    let cast = Cast::new();
    let k = Keypair::from_seed([20; 32]);
    let mut g = cast.genesis("no committee");
    g.roster.push(member("m1", &k));
    let mut c = ChainBuilder::start(&cast.referee, g, 0);
    let rec = c.next(&k, decision(0));
    c.push_record(rec);
    assert!(
        !verify_records(&c.records).ok(),
        "a roster committee key decided with no committee formed"
    );
    let (_, com, c2, _) = appealed();
    let rec = c2.next(&com[0], decision(3));
    let mut recs = c2.records.clone();
    recs.push(rec);
    assert!(
        !verify_records(&recs).ok(),
        "a decision on something not an appeal"
    );
}

#[test]
fn off_board_points_and_time_going_backwards_are_reported() {
    let cast = Cast::new();
    let mut c = sample_game(&cast, "facts");
    c.push(
        &cast.black,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 200, y: 3 },
        },
    );
    let back = Event::next(
        c.game,
        c.head,
        c.at_ms - 6 * 365 * 86_400_000,
        cast.white.public(),
        press(Color::White),
    )
    .sign(&cast.white)
    .unwrap();
    c.push_record(back);
    let r = verify_records(&c.records);
    assert!(r.ok(), "facts are recorded as stated: {:?}", r.problems);
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(r.warnings[0].what.contains("off the 9x9 board"));
    assert!(r.warnings[1].what.contains("time goes backwards"));
    // Within the tolerance nothing is said.
    let mut c = sample_game(&cast, "skew");
    let skew = Event::next(
        c.game,
        c.head,
        c.at_ms - 2_000,
        cast.white.public(),
        press(Color::White),
    )
    .sign(&cast.white)
    .unwrap();
    c.push_record(skew);
    assert!(verify_records(&c.records).warnings.is_empty());
}

#[test]
fn an_archive_written_by_version_0_1_0_still_verifies() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/format/archives/demo-0.1.0.kifu");
    let bytes = std::fs::read(path).unwrap();
    let v = archive::verify_archive(&bytes).unwrap();
    assert!(v.report().ok(), "{:?}", v.report().problems);
    assert_eq!(v.report().games.len(), 1);
    assert_eq!(v.report().games[0].events, 63);
    assert!(v.report().games[0].finished());
    assert!(v.manifest().is_none());
}
