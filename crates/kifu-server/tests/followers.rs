//! Many followers of the live feed, woken together for each batch: every
//! one gets every event exactly once, in cursor order.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::ConnLimits;

mod common;

const FOLLOWERS: usize = 50;

/// Reads `want` SSE events from a raw connection; their ids.
fn follow(mut s: TcpStream, want: usize) -> Vec<u64> {
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let addr = s.peer_addr().unwrap();
    write!(s, "GET /feed/stream HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut ids = Vec::with_capacity(want);
    let mut line = String::new();
    while ids.len() < want {
        line.clear();
        match r.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Some(id) = line.strip_prefix("id: ") {
            ids.push(id.trim().parse::<u64>().unwrap());
        }
    }
    ids
}

fn post(url: &str, records: &[Record]) {
    let mut body = Vec::new();
    for r in records {
        body.extend_from_slice(&r.to_stored());
    }
    let r = ureq::post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body)
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[test]
fn every_follower_gets_every_event_once_in_order() {
    let server = common::start(None, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let cast = Cast::new();
    let mut games: Vec<ChainBuilder> = (0..5)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("board {i}")), 0))
        .collect();
    let per_game = 40;
    let total = games.len() * (per_game + 1);
    // Connected before anything is appended: they follow the live feed.
    let followers: Vec<_> = (0..FOLLOWERS)
        .map(|_| {
            let s = TcpStream::connect(server.addr).unwrap();
            std::thread::spawn(move || follow(s, total))
        })
        .collect();
    // Every follower has its response head before the first append.
    for _ in 0..600 {
        let m = ureq::get(&format!("{url}/metrics")).call().unwrap();
        let text = m.into_string().unwrap();
        if text.contains(&format!("kifu_feed_followers {FOLLOWERS}")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for g in &games {
        post(&url, &g.records[..1]);
    }
    // One event per request and several at once: batches of every size.
    for j in 0..per_game {
        let player = if j % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let recs: Vec<Record> = games
            .iter_mut()
            .map(|g| {
                g.push(&cast.recorder, Body::ClockPressed { player })
                    .clone()
            })
            .collect();
        if j % 3 == 0 {
            post(&url, &recs);
        } else {
            std::thread::scope(|s| {
                for r in &recs {
                    let url = &url;
                    s.spawn(move || post(url, std::slice::from_ref(r)));
                }
            });
        }
    }
    let want: Vec<u64> = (0..total as u64).collect();
    for f in followers {
        assert_eq!(f.join().unwrap(), want);
    }
}
