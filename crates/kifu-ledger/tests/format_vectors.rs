//! The byte-level test vectors in `fixtures/format/vectors.json` match the code.
//!
//! Regenerate (only when the format changes on purpose) with
//! `KIFU_WRITE_VECTORS=1 cargo test -p kifu-ledger --test format_vectors`.

use std::path::PathBuf;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;
use serde_json::{json, Value};

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/format/vectors.json")
}

fn build() -> Value {
    let cast = Cast::new();
    let keys: Vec<Value> = [
        ("black", [1u8; 32], &cast.black),
        ("white", [2u8; 32], &cast.white),
        ("referee", [3u8; 32], &cast.referee),
    ]
    .iter()
    .map(|(name, seed, k)| {
        json!({
            "name": name,
            "seed": hex::encode(seed),
            "public_key": k.public().to_hex(),
            "spki_pem": k.public().to_spki_pem().unwrap(),
            "pkcs8_pem": k.to_pkcs8_pem().unwrap(),
        })
    })
    .collect();
    let mut c = ChainBuilder::start(
        &cast.referee,
        cast.genesis("format vectors"),
        1_767_225_600_000,
    );
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    c.push(
        &cast.black,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 2, y: 3 },
        },
    );
    c.push(
        &cast.white,
        Body::Pass {
            player: Color::White,
            pass_stone: true,
        },
    );
    let events: Vec<Value> = c
        .records
        .iter()
        .map(|r| {
            let e = r.decode().unwrap();
            json!({
                "seq": e.seq,
                "signer": e.signer.to_hex(),
                "kind_index": e.body.kind_index(),
                "body_json": serde_json::to_value(&e.body).unwrap(),
                "event_bytes": hex::encode(&r.event_bytes),
                "body_bytes": hex::encode(r.header().unwrap().body_bytes),
                "signed_message": hex::encode(kifu_ledger::event::signed_message(&r.event_bytes)),
                "signature": hex::encode(r.signature),
                "hash": hex::encode(r.hash()),
            })
        })
        .collect();
    // A refused record: the version varint written overlong (0x81 0x00).
    let mut overlong = vec![0x81, 0x00];
    overlong.extend_from_slice(&c.records[1].event_bytes[1..]);
    json!({
        "sign_domain": String::from_utf8_lossy(SIGN_DOMAIN),
        "hash_domain": String::from_utf8_lossy(HASH_DOMAIN),
        "keys": keys,
        "game_id": hex::encode(c.game),
        "events": events,
        "archive": hex::encode(archive::write(&c.records)),
        "invalid": [{
            "why": "overlong varint for the version: not canonical",
            "event_bytes": hex::encode(overlong),
        }],
    })
}

#[test]
fn format_vectors_match_the_code() {
    let v = build();
    if std::env::var("KIFU_WRITE_VECTORS").is_ok() {
        std::fs::create_dir_all(path().parent().unwrap()).unwrap();
        std::fs::write(path(), serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    }
    let text = std::fs::read_to_string(path())
        .unwrap_or_else(|e| panic!("{}: {e} (the vectors must be present)", path().display()));
    let stored: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        stored, v,
        "the code no longer produces the documented bytes"
    );
}

#[test]
fn vectors_verify_from_their_hex_alone() {
    // What a verifier in another language does: only hex, blake3 and ed25519.
    let text = std::fs::read_to_string(path()).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let mut prev = [0u8; 32];
    for e in v["events"].as_array().unwrap() {
        let bytes = hex::decode(e["event_bytes"].as_str().unwrap()).unwrap();
        let sig: [u8; 64] = hex::decode(e["signature"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let pk: [u8; 32] = hex::decode(e["signer"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let mut msg = b"kifu/v1/event-signature\n".to_vec();
        msg.extend_from_slice(&bytes);
        let vk = ed25519_dalek::VerifyingKey::from_bytes(&pk).unwrap();
        vk.verify_strict(&msg, &ed25519_dalek::Signature::from_bytes(&sig))
            .unwrap();
        let mut h = blake3::Hasher::new();
        h.update(b"kifu/v1/event-hash\n");
        h.update(&bytes);
        h.update(&sig);
        assert_eq!(
            hex::encode(h.finalize().as_bytes()),
            e["hash"].as_str().unwrap()
        );
        // The previous hash sits after the version (1 byte), chain (32) and seq varint.
        let seq = e["seq"].as_u64().unwrap();
        assert!(seq < 128);
        assert_eq!(&bytes[34..66], &prev, "link at seq {seq}");
        prev = *h.finalize().as_bytes();
    }
    let bad = hex::decode(v["invalid"][0]["event_bytes"].as_str().unwrap()).unwrap();
    let r = Record {
        event_bytes: bad,
        signature: [0; 64],
    };
    assert!(r.header().is_err());
}
