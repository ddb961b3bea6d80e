//! A read replica: its store is filled by someone else (the mirror of a
//! stream); it serves the feed, with the venue's cursor in each line, and
//! the games, and refuses every write with 421 naming the venue.

use std::sync::Arc;
use std::time::Duration;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color};
use kifu_server::replica::Replica;
use kifu_server::{Limits, Server};
use kifu_store::Store;

mod common;

const VENUE: &str = "https://venue.example:7447";

#[test]
fn a_replica_serves_what_its_mirror_stored_and_refuses_writes_naming_the_venue() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let (stored, rx) = tokio::sync::watch::channel(0u64);
    let replica = Replica {
        source: "nats://127.0.0.1:4222 (stream KIFU)".into(),
        venue: Some(VENUE.into()),
        stored: rx,
    };
    let server = common::start_server(Some((dir, store.clone())), move |s| {
        Server::replica(s, Limits::default(), None, replica).unwrap()
    });
    let url = format!("http://{}", server.addr);

    // A follower waiting on the replica's feed.
    let waiting = {
        let url = url.clone();
        std::thread::spawn(move || {
            ureq::get(&format!("{url}/feed?wait=30"))
                .call()
                .unwrap()
                .into_string()
                .unwrap()
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    // The mirror stores a game that had cursors 40 and 41 at the venue,
    // and says so.
    let cast = Cast::new();
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis("replicated"), 0);
    g.push(
        &cast.recorder,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    let notes: Vec<_> = g
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| (r.hash(), 40 + i as u64))
        .collect();
    store.note_venue_cursors(&notes).unwrap();
    store.append_batch(g.records.clone()).unwrap();
    stored.send_replace(store.next_cursor().unwrap());
    let text = waiting.join().unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    if lines.len() < 2 {
        let more = ureq::get(&format!("{url}/feed?after=0"))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        lines.extend(more.lines().map(|l| serde_json::from_str(l).unwrap()));
    }
    let cursors: Vec<(u64, u64)> = lines
        .iter()
        .map(|v| {
            (
                v["cursor"].as_u64().unwrap(),
                v["venue_cursor"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(cursors, vec![(0, 40), (1, 41)]);
    let compact = ureq::get(&format!("{url}/feed?form=compact"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(compact.contains("\"venue_cursor\":41"), "{compact}");

    // Reads are served.
    let game = hex::encode(g.game);
    let state = ureq::get(&format!("{url}/games/{game}/head"))
        .call()
        .unwrap();
    assert_eq!(state.status(), 200);
    let health: serde_json::Value = ureq::get(&format!("{url}/healthz"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(health["venue"].as_str(), Some(VENUE));
    assert_eq!(health["next_cursor"].as_u64(), Some(2));

    // A write is refused, before anything is stored, with the venue named.
    let mut more = g.clone();
    let next = more
        .push(
            &cast.recorder,
            Body::ClockPressed {
                player: Color::White,
            },
        )
        .clone();
    match ureq::post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&next.to_stored())
    {
        Err(ureq::Error::Status(421, r)) => {
            assert_eq!(r.header("Location"), Some(VENUE));
            let v: serde_json::Value = r.into_json().unwrap();
            assert_eq!(v["error"]["code"], "read_only_replica");
            assert_eq!(v["error"]["venue"], VENUE);
            let m = v["error"]["message"].as_str().unwrap();
            assert!(m.contains(VENUE) && m.contains("read replica"), "{m}");
        }
        other => panic!("expected 421, got {other:?}"),
    }
    assert_eq!(store.head(&g.game).unwrap().unwrap().seq, 1);
    match ureq::post(&format!("{url}/devices")).send_string("{}") {
        Err(ureq::Error::Status(421, _)) => {}
        other => panic!("expected 421 for a device's request, got {other:?}"),
    }
    let metrics = ureq::get(&format!("{url}/metrics"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(
        metrics.contains("kifu_refused_total{reason=\"read_only_replica\"} 2"),
        "{metrics}"
    );
}
