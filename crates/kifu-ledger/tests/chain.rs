//! Chains: canonical bytes, links, signatures, roles and forks.

use kifu_ledger::testkit::{sample_game, Cast, ChainBuilder};
use kifu_ledger::*;
use proptest::prelude::*;

#[test]
fn sample_game_verifies() {
    let cast = Cast::new();
    let c = sample_game(&cast, "t");
    let r = verify_records(&c.records);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.games.len(), 1);
    assert_eq!(r.games[0].events, c.records.len() as u64);
    assert_eq!(r.games[0].head.hash, c.head.hash);
}

#[test]
fn record_round_trips_through_stored_form() {
    let cast = Cast::new();
    let c = sample_game(&cast, "t");
    for r in &c.records {
        let back = Record::from_stored(&r.to_stored()).unwrap();
        assert_eq!(&back, r);
        let e = back.decode().unwrap();
        assert_eq!(e.to_bytes().unwrap(), r.event_bytes);
    }
}

#[test]
fn overlong_varint_is_refused_though_postcard_would_accept_it() {
    let cast = Cast::new();
    let c = sample_game(&cast, "t");
    let r = &c.records[1];
    // The version (1) is the first varint: 0x01. Write it overlong, 0x81 0x00,
    // and sign the new bytes so only canonicity can refuse it.
    assert_eq!(r.event_bytes[0], 0x01);
    let mut bytes = vec![0x81, 0x00];
    bytes.extend_from_slice(&r.event_bytes[1..]);
    let sig = {
        use ed25519_dalek::Signer;
        let sk = ed25519_dalek::SigningKey::from_bytes(&[3; 32]);
        sk.sign(&kifu_ledger::event::signed_message(&bytes))
            .to_bytes()
    };
    let forged = Record {
        event_bytes: bytes,
        signature: sig,
    };
    let err = forged.decode().unwrap_err();
    assert!(err.to_string().contains("not canonical"), "{err}");
}

#[test]
fn trailing_bytes_are_refused() {
    let cast = Cast::new();
    let c = sample_game(&cast, "t");
    let mut r = c.records[2].clone();
    r.event_bytes.push(0);
    assert!(r.header().unwrap_err().to_string().contains("trailing"));
}

#[test]
fn unknown_kind_is_checked_for_link_and_signature_only() {
    // A body whose kind index is beyond the known ones: encode by hand.
    let cast = Cast::new();
    let mut c = sample_game(&cast, "t");
    let known = c.next(
        &cast.referee,
        Body::ClockResumed {
            running: Color::White,
        },
    );
    let h = known.header().unwrap();
    // Replace the body (varint kind 6 + 1 byte) with kind 200 (two-byte varint) + payload.
    let body_start = known.event_bytes.len() - h.body_bytes.len();
    let mut bytes = known.event_bytes[..body_start - 1].to_vec();
    let new_body = [0xc8u8, 0x01, 0x07];
    bytes.push(new_body.len() as u8);
    bytes.extend_from_slice(&new_body);
    let sig = {
        use ed25519_dalek::Signer;
        let sk = ed25519_dalek::SigningKey::from_bytes(&[3; 32]);
        sk.sign(&kifu_ledger::event::signed_message(&bytes))
            .to_bytes()
    };
    let rec = Record {
        event_bytes: bytes,
        signature: sig,
    };
    assert!(matches!(rec.decode(), Err(LedgerError::UnknownKind(200))));
    c.records.push(rec);
    let r = verify_records(&c.records);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.uninterpreted.len(), 1);
}

#[test]
fn fork_is_reported_with_both_records_as_evidence() {
    let cast = Cast::new();
    let c = sample_game(&cast, "t");
    let mut records = c.records.clone();
    // A second, validly signed record at seq 3 by the same player.
    let mut alt = ChainBuilder {
        game: c.game,
        head: Head {
            seq: 2,
            hash: c.records[2].hash(),
        },
        records: vec![],
        at_ms: 5,
    };
    let other = alt
        .push(
            &cast.white,
            Body::StonePlaced {
                player: Color::White,
                stone: Color::White,
                point: Point { x: 0, y: 0 },
            },
        )
        .clone();
    records.push(other.clone());
    let r = verify_records(&records);
    assert!(!r.ok());
    assert_eq!(r.forks.len(), 1);
    let f = &r.forks[0];
    assert_eq!(f.seq, 3);
    let hashes = [f.first, f.second];
    assert!(hashes.contains(&other.hash()));
    assert!(hashes.contains(&c.records[3].hash()));
}

#[test]
fn a_gap_and_a_reordering_are_named() {
    let cast = Cast::new();
    let c = sample_game(&cast, "t");
    let mut records = c.records.clone();
    records.remove(5);
    let r = verify_records(&records);
    assert_eq!(r.problems[0].seq, Some(5), "{:?}", r.problems);
    assert!(r.problems[0].what.contains("gap"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Changing any byte of any stored record is detected.
    #[test]
    fn any_changed_byte_of_a_record_is_detected(which in 0usize..1000, pos in 0usize..10_000, xor in 1u8..=255) {
        let cast = Cast::new();
        let c = sample_game(&cast, "p");
        let mut records = c.records.clone();
        let i = which % records.len();
        let mut stored = records[i].to_stored();
        let p = pos % stored.len();
        stored[p] ^= xor;
        match Record::from_stored(&stored) {
            Err(_) => {} // framing broke: detected
            Ok(changed) => {
                records[i] = changed;
                let r = verify_records(&records);
                prop_assert!(!r.ok(), "byte {p} of record {i} changed but verification passed");
            }
        }
    }

    /// Changing any byte of an archive is detected, and the failure names a place.
    #[test]
    fn any_changed_byte_of_an_archive_is_detected(pos in 0usize..100_000, xor in 1u8..=255) {
        let cast = Cast::new();
        let c = sample_game(&cast, "p");
        let mut bytes = archive::write(&c.records);
        let p = pos % bytes.len();
        bytes[p] ^= xor;
        match archive::read(&bytes) {
            Err(e) => prop_assert!(e.to_string().contains("archive")),
            Ok(records) => {
                let r = verify_records(&records);
                prop_assert!(!r.ok(), "archive byte {p} changed but verification passed");
            }
        }
    }
}
