//! Many followers of the live feed, woken together for each batch: every
//! one gets every event exactly once, in cursor order.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::ConnLimits;

mod common;
use common::metric;

const FOLLOWERS: usize = 50;

/// Reads `want` SSE events from a raw connection; their ids.
fn follow(s: TcpStream, want: usize) -> Vec<u64> {
    follow_path(s, "/feed/stream", want)
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

/// Reads `want` SSE events of `path` from a raw connection; their ids and
/// the games their lines name.
fn follow_path(mut s: TcpStream, path: &str, want: usize) -> Vec<(u64, String)> {
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let addr = s.peer_addr().unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut got = Vec::with_capacity(want);
    let mut id = None;
    let mut line = String::new();
    while got.len() < want {
        line.clear();
        match r.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Some(i) = line.strip_prefix("id: ") {
            id = Some(i.trim().parse::<u64>().unwrap());
        } else if let Some(data) = line.strip_prefix("data: ") {
            let v: serde_json::Value = serde_json::from_str(data).unwrap();
            got.push((id.take().unwrap(), v["game"].as_str().unwrap().to_string()));
        }
    }
    got
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

#[test]
fn a_follower_of_one_game_gets_that_games_events_with_the_stores_cursors() {
    let server = common::start(None, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let cast = Cast::new();
    let mut games: Vec<ChainBuilder> = (0..3)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("table {i}")), 0))
        .collect();
    let mine = hex::encode(games[1].game);
    let per_game = 10;
    let s = TcpStream::connect(server.addr).unwrap();
    let path = format!("/feed/stream?game={mine}");
    let follower = std::thread::spawn(move || follow_path(s, &path, per_game + 1));
    for _ in 0..600 {
        let text = ureq::get(&format!("{url}/metrics"))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        if text.contains("kifu_feed_followers 1") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for j in 0..=per_game {
        for g in games.iter_mut() {
            if j > 0 {
                g.push(
                    &cast.recorder,
                    Body::ClockPressed {
                        player: Color::Black,
                    },
                );
            }
            post(&url, std::slice::from_ref(g.records.last().unwrap()));
        }
    }
    // Game 1's events are the 2nd, 5th, 8th... of the store: every third
    // cursor from 1, each naming the game.
    let got = follower.join().unwrap();
    let want: Vec<(u64, String)> = (0..=per_game as u64)
        .map(|j| (3 * j + 1, mine.clone()))
        .collect();
    assert_eq!(got, want);
    // Resuming from one of them with Last-Event-ID gives the rest, and a
    // game that is not an id is refused in words.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET /feed/stream?game={mine} HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 25\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(s);
    let mut ids = Vec::new();
    let mut line = String::new();
    while ids.len() < 2 {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        if let Some(i) = line.strip_prefix("id: ") {
            ids.push(i.trim().parse::<u64>().unwrap());
        }
    }
    assert_eq!(ids, vec![28, 31]);
    // A prefix of the id names the game too.
    let short = &mine[..12];
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET /feed/stream?game={short}&after=30 HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(s);
    let mut first = None;
    while first.is_none() {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        first = line
            .strip_prefix("id: ")
            .map(|i| i.trim().parse::<u64>().unwrap());
    }
    assert_eq!(first, Some(31));
    // Neither an id nor the prefix of a stored game's: refused in words.
    for bad in ["nothex", "ffffffffffff"] {
        match ureq::get(&format!("{url}/feed/stream?game={bad}")).call() {
            Err(ureq::Error::Status(400 | 404, r)) => {
                let text = r.into_string().unwrap();
                assert!(text.contains("\"message\""), "{text}");
            }
            other => panic!("expected a refusal for {bad}, got {other:?}"),
        }
    }
}

#[test]
fn a_followers_thread_sleeps_before_writing_to_its_socket_while_an_append_is_in_flight() {
    use std::sync::atomic::Ordering;
    use std::time::Instant;
    let (app_tx, app_rx) = std::sync::mpsc::channel();
    let defer = Duration::from_secs(2);
    let server = common::start_server(None, move |store| {
        let limits = kifu_server::Limits {
            feed_defer: defer,
            ..kifu_server::Limits::default()
        };
        let s = kifu_server::Server::new(store, limits).unwrap();
        app_tx.send(s.app()).unwrap();
        s
    });
    let app = app_rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let url = format!("http://{}", server.addr);
    // A follower of the whole feed, its answer's head read.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(s, "GET /feed/stream HTTP/1.1\r\nHost: kifu\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut line = String::new();
    while line != "\r\n" {
        line.clear();
        assert!(r.read_line(&mut line).unwrap() > 0, "no answer");
    }
    assert_eq!(metric(&url, "kifu_follower_writes_gave_way_total"), 0);
    // An append in flight that is not answered until the test says so.
    let fences = &app.metrics.fences;
    fences.writes.fetch_add(1, Ordering::SeqCst);
    let cast = Cast::new();
    let g = ChainBuilder::start(&cast.referee, cast.genesis("gives way"), 0);
    let appended = Instant::now();
    post(&url, &g.records[..1]);
    let got = std::thread::spawn(move || {
        let mut line = String::new();
        loop {
            line.clear();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                return None;
            }
            if line.starts_with("data: ") {
                return Some(Instant::now());
            }
        }
    });
    // The follower's task gives way for `defer`, then its thread sleeps
    // before the write, at most `defer` more: answered in between.
    std::thread::sleep((defer + defer / 2).saturating_sub(appended.elapsed()));
    fences.writes.fetch_sub(1, Ordering::SeqCst);
    fences.appends_first.done();
    fences.writers_idle.notify_waiters();
    let at = got.join().unwrap().expect("the event reached the follower");
    assert!(
        at - appended >= defer,
        "sent while the append was in flight"
    );
    assert!(metric(&url, "kifu_follower_writes_gave_way_total") >= 1);
}
