//! Followers that fall behind: one that stops reading for a while catches
//! up from the store in pages, in order, with no gap and no duplicate; one
//! that was keeping up and falls beyond the stated lag is asked to resume
//! from its cursor, and does, missing nothing; the compact form carries
//! the stored bytes.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use base64::Engine as _;
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::{ConnLimits, Limits};

mod common;
use common::metric;

/// Games appended while the follower does not read, and records each:
/// more than the shared cache holds (8,192 lines), so that the follower's
/// next record has left it.
const GAMES: usize = 16;
const PRESSES: usize = 1250;

/// One Server-Sent Event: its id and its event name (`None`: a record).
#[derive(Debug, PartialEq)]
struct Event {
    id: Option<u64>,
    event: Option<String>,
    data: String,
    retry: Option<u64>,
}

/// A raw follower with a small receive buffer, so that the server's
/// writes stop soon once it does not read.
fn connect(addr: SocketAddr, last_event_id: Option<u64>) -> BufReader<TcpStream> {
    let s = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    s.set_recv_buffer_size(8192).unwrap();
    s.connect(&addr.into()).unwrap();
    let mut s: TcpStream = s.into();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let resume = last_event_id
        .map(|i| format!("Last-Event-ID: {i}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "GET /feed/stream HTTP/1.1\r\nHost: {addr}\r\n{resume}\r\n"
    )
    .unwrap();
    BufReader::new(s)
}

/// Reads events until `want` records came, or a `resume` event, or the
/// stream ends.
fn read_events(r: &mut BufReader<TcpStream>, want: usize) -> Vec<Event> {
    let mut got = Vec::new();
    let mut records = 0;
    let (mut id, mut event, mut retry) = (None, None, None);
    let mut line = String::new();
    while records < want {
        line.clear();
        match r.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let l = line.trim_end();
        if let Some(v) = l.strip_prefix("id: ") {
            id = Some(v.parse::<u64>().unwrap());
        } else if let Some(v) = l.strip_prefix("event: ") {
            event = Some(v.to_string());
        } else if let Some(v) = l.strip_prefix("retry: ") {
            retry = Some(v.parse::<u64>().unwrap());
        } else if let Some(v) = l.strip_prefix("data: ") {
            let e = Event {
                id: id.take(),
                event: event.take(),
                data: v.to_string(),
                retry: retry.take(),
            };
            let resume = e.event.as_deref() == Some("resume");
            if e.event.is_none() {
                records += 1;
            }
            got.push(e);
            if resume {
                break;
            }
        }
    }
    got
}

fn post(url: &str, records: &[Record]) {
    let body: Vec<u8> = records.iter().flat_map(|r| r.to_stored()).collect();
    let r = ureq::post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body)
        .unwrap();
    assert_eq!(r.status(), 200);
}

fn wait_for_followers(url: &str, n: u64) {
    for _ in 0..600 {
        if metric(url, "kifu_feed_followers") == n {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{n} followers never connected");
}

/// The games' geneses, then every game's presses, each game's in one
/// submission; the number of records.
fn append_all(url: &str) -> usize {
    let cast = Cast::new();
    let mut games: Vec<ChainBuilder> = (0..GAMES)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("hall {i}")), 0))
        .collect();
    let geneses: Vec<Record> = games.iter().map(|g| g.records[0].clone()).collect();
    post(url, &geneses);
    for g in games.iter_mut() {
        let presses: Vec<Record> = (0..PRESSES)
            .map(|j| {
                let player = if j % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                g.push(&cast.recorder, Body::ClockPressed { player })
                    .clone()
            })
            .collect();
        post(url, &presses);
    }
    GAMES * (PRESSES + 1)
}

fn ids(events: &[Event]) -> Vec<u64> {
    events
        .iter()
        .filter(|e| e.event.is_none())
        .map(|e| e.id.unwrap())
        .collect()
}

#[test]
fn a_follower_that_stops_reading_catches_up_from_the_store_with_no_gap_and_no_duplicate() {
    // The cache as it was: 8,192 events, fewer than this test appends.
    let limits = Limits {
        feed_cached_lines: 8192,
        ..Limits::default()
    };
    let server = common::start_with(None, limits, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let mut follower = connect(server.addr, None);
    wait_for_followers(&url, 1);
    // It reads nothing while every record is appended.
    let total = append_all(&url);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        metric(&url, "kifu_feed_lag_max_records{class=\"live\"}")
            + metric(&url, "kifu_feed_lag_max_records{class=\"catching_up\"}")
            > 8192,
        "the follower that does not read is behind"
    );
    let events = read_events(&mut follower, total);
    assert_eq!(ids(&events), (0..total as u64).collect::<Vec<_>>());
    assert!(events.iter().all(|e| e.event.is_none()));
    assert!(
        metric(&url, "kifu_feed_catchup_pages_total") > 0,
        "what left the cache was read from the store"
    );
    assert_eq!(metric(&url, "kifu_feed_resumes_total"), 0);
}

#[test]
fn a_follower_beyond_the_stated_lag_is_asked_to_resume_and_misses_nothing() {
    // More than one submission (1,250 records): a follower that keeps up
    // is never beyond it for a batch alone.
    let limits = Limits {
        max_follower_lag: 2000,
        ..Limits::default()
    };
    let server = common::start_with(None, limits, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let mut follower = connect(server.addr, None);
    wait_for_followers(&url, 1);
    let total = append_all(&url);
    // Reading again, it gets records in order, then the request to resume
    // naming the last one it got, and the stream ends.
    let first = read_events(&mut follower, total);
    let (resume, records) = first.split_last().unwrap();
    assert_eq!(resume.event.as_deref(), Some("resume"), "{resume:?}");
    assert_eq!(resume.retry, Some(kifu_server::feed::RESUME_RETRY_MS));
    let got = ids(records);
    let n = got.len() as u64;
    assert!(n < total as u64, "asked to resume before the end");
    assert_eq!(got, (0..n).collect::<Vec<_>>());
    let last = n.checked_sub(1);
    assert_eq!(resume.id, last);
    let data: serde_json::Value = serde_json::from_str(&resume.data).unwrap();
    assert_eq!(data["after"].as_u64(), last);
    assert!(data["lag"].as_u64().unwrap() > 2000, "{data}");
    // Then the body ends (the last chunk, of length 0), with nothing more.
    let mut rest = String::new();
    let mut line = String::new();
    while line.trim() != "0" {
        line.clear();
        assert!(follower.read_line(&mut line).unwrap_or(0) > 0, "{rest:?}");
        rest.push_str(&line);
    }
    assert!(!rest.contains("data:"), "{rest:?}");
    assert_eq!(metric(&url, "kifu_feed_resumes_total"), 1);
    // Back with Last-Event-ID: the rest, from the store, none twice. It
    // connects further behind than the lag and is not asked again before
    // it has read what it came back for; on a loaded machine the feed's
    // fan-out, which yields to appends, may publish a long run at once
    // and ask it again later, and then it comes back again, still missing
    // nothing.
    let mut seen = got;
    let mut after = last;
    let mut asked = 1;
    for _ in 0..10 {
        let mut again = connect(server.addr, after);
        let events = read_events(&mut again, total - seen.len());
        let records: Vec<&Event> = events.iter().filter(|e| e.event.is_none()).collect();
        seen.extend(records.iter().map(|e| e.id.unwrap()));
        match events.last() {
            Some(e) if e.event.as_deref() == Some("resume") => {
                assert!(
                    !records.is_empty(),
                    "asked again before reading anything: {e:?}"
                );
                asked += 1;
                after = e.id;
            }
            _ => break,
        }
    }
    assert_eq!(
        seen,
        (0..total as u64).collect::<Vec<_>>(),
        "every record once, in order"
    );
    assert_eq!(metric(&url, "kifu_feed_resumes_total"), asked);
}

#[test]
fn the_compact_form_carries_the_stored_bytes_and_the_cursor() {
    let server = common::start(None, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let cast = Cast::new();
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis("compact"), 0);
    g.push(
        &cast.recorder,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    post(&url, &g.records);
    let text = ureq::get(&format!("{url}/feed?form=compact"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for (i, (v, r)) in lines.iter().zip(&g.records).enumerate() {
        assert_eq!(v["cursor"].as_u64(), Some(i as u64));
        assert_eq!(v["seq"].as_u64(), Some(i as u64));
        assert_eq!(v["game"].as_str(), Some(hex::encode(g.game).as_str()));
        assert!(v.get("body").is_none(), "{v}");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(v["record"].as_str().unwrap())
            .unwrap();
        assert_eq!(&Record::from_stored(&bytes).unwrap(), r);
        assert_eq!(v["hash"].as_str(), Some(hex::encode(r.hash()).as_str()));
    }
    // The stream in the same form; a form it does not know is refused.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET /feed/stream?form=compact HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(s);
    let events = read_events(&mut r, 2);
    assert_eq!(ids(&events), vec![0, 1]);
    let v: serde_json::Value = serde_json::from_str(&events[1].data).unwrap();
    assert!(v["record"].is_string() && v.get("body").is_none(), "{v}");
    match ureq::get(&format!("{url}/feed?form=pretty")).call() {
        Err(ureq::Error::Status(400, _)) => {}
        other => panic!("expected 400 for an unknown form, got {other:?}"),
    }
}
