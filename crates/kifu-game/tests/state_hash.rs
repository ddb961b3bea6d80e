//! The state hash after every event: deterministic, sensitive to the state,
//! blind to wording, and pinned by vectors
//! (`tests/vectors/state_hashes.json`; regenerate with
//! `KIFU_WRITE_VECTORS=1 cargo test -p kifu-game --test state_hash` after a
//! deliberate change of the digest, and bump its version).

mod support;
use support::*;

use kifu_game::digest::{state_hashes, DIGEST_VERSION};
use kifu_game::GameState;
use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::*;

fn games() -> Vec<(&'static str, Vec<Event>)> {
    let sample = sample_game(&Cast::new(), "vectors");
    let sample: Vec<Event> = sample.records.iter().map(|r| r.decode().unwrap()).collect();
    let mut ko = G::go("lgc-2023");
    let s = ko_game(&mut ko);
    ko.mv(B, "ee");
    ko.notice(B, s);
    let mut uec = G::go("uec-cup");
    uec.start_clock();
    uec.mv(B, "ee");
    let s = uec.mv(W, "ee");
    uec.notice(B, s);
    // Byo-yomi: a move into the periods, then a pause in the middle of one
    // (the face keeps the time used before the pause).
    let mut byo = G::with(
        GameKind::Go,
        "lgc-2023",
        19,
        TimeControl::Byoyomi {
            main_ms: MIN,
            periods: 3,
            period_ms: 30_000,
        },
        |_| {},
    );
    byo.at(1_000);
    byo.start_clock();
    byo.at(81_000);
    byo.mv(B, "dd");
    byo.at(91_000);
    byo.mv(W, "pp");
    byo.at(104_000);
    byo.referee(Body::ClockPaused {
        reason: PauseReason::CallReferee,
    });
    byo.at(704_000);
    byo.referee(Body::ClockResumed { running: B });
    vec![
        ("testkit sample game", sample),
        ("lgc-2023 ko retake unwound", ko.events),
        ("uec-cup occupied point loses", uec.events),
        ("lgc-2023 byo-yomi paused in a period", byo.events),
    ]
}

#[test]
fn state_hashes_are_pinned_by_the_vectors() {
    let computed: Vec<serde_json::Value> = games()
        .into_iter()
        .map(|(name, events)| {
            let hashes: Vec<serde_json::Value> = state_hashes(&events)
                .into_iter()
                .map(|(seq, h)| serde_json::json!({ "seq": seq, "state_hash": h }))
                .collect();
            serde_json::json!({ "game": name, "after_each_event": hashes })
        })
        .collect();
    let doc = serde_json::json!({
        "digest_version": DIGEST_VERSION,
        "what": "BLAKE3 of the postcard bytes of kifu_game::digest::StateDigest after each event",
        "games": computed,
    });
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/state_hashes.json");
    if std::env::var("KIFU_WRITE_VECTORS").is_ok() {
        std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
    }
    let text = std::fs::read_to_string(&path).expect("vectors");
    let pinned: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(pinned, doc, "the state hashes changed");
}

#[test]
fn the_state_hash_changes_with_the_state_and_not_with_wording() {
    for (_, events) in games() {
        let hashes = state_hashes(&events);
        // Replaying gives the same hashes (determinism).
        assert_eq!(hashes, state_hashes(&events));
        // Every stone changes the hash.
        for (i, e) in events.iter().enumerate().skip(1) {
            if matches!(e.body, Body::StonePlaced { .. }) {
                assert_ne!(hashes[i].1, hashes[i - 1].1, "event {}", e.seq);
            }
        }
        // Rewording a consequence does not.
        let mut s = GameState::replay(&events);
        let h = s.state_hash();
        if let Some(c) = s.consequences.first_mut() {
            c.what.push_str(" (reworded)");
        }
        assert_eq!(s.state_hash(), h);
    }
}
