//! A crowd cannot stall the server: thousands of followers or idle
//! connections, oversized and slow bodies, slow headers, and still a
//! board's append from another client is answered at once.
//!
//! Every loop is bounded in count and time; clients are on loopback, other
//! clients on other loopback addresses (127.0.0.0/8 is all loopback). The
//! bounds on reads are bounds on the test, chosen well below what the
//! server did before it had budgets (an append waited for the crowd to
//! leave, or for the 10 s header deadline), and well above a normal
//! append's latency on a busy machine.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::{ConnLimits, Limits};

mod common;
use common::read_to_close;

/// How long the test waits for an answer that must come promptly.
const PROMPT: Duration = Duration::from_secs(5);

/// A connection to `server` from the loopback address `from`.
fn connect_from(from: Ipv4Addr, server: SocketAddr) -> std::io::Result<TcpStream> {
    let s = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    s.bind(&SocketAddr::new(IpAddr::V4(from), 0).into())?;
    s.connect(&server.into())?;
    Ok(s.into())
}

/// Reads an HTTP answer's head (up to the blank line), within `limit`.
fn read_head(s: &mut TcpStream, limit: Duration) -> std::io::Result<String> {
    s.set_read_timeout(Some(limit))?;
    let mut out = Vec::new();
    let mut b = [0u8; 1];
    while !out.ends_with(b"\r\n\r\n") {
        match s.read(&mut b)? {
            0 => break,
            _ => out.push(b[0]),
        }
        if out.len() > 64 << 10 {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn status(head: &str) -> u16 {
    head.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Appends `records` from the loopback address `from` on a connection of
/// its own; the answer's head and body, which must come within `PROMPT`.
fn append_from(from: Ipv4Addr, server: SocketAddr, records: &[Record]) -> (String, String) {
    let mut body = Vec::new();
    for r in records {
        body.extend_from_slice(&r.to_stored());
    }
    let mut s = connect_from(from, server).unwrap();
    write!(
        s,
        "POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(&body).unwrap();
    let started = Instant::now();
    let all = read_to_close(&mut s, PROMPT).expect("the append is answered promptly");
    let text = String::from_utf8_lossy(&all).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    assert!(
        started.elapsed() < PROMPT,
        "the append was not answered within {PROMPT:?}"
    );
    (head.to_string(), body.to_string())
}

fn metrics(server: SocketAddr, from: Ipv4Addr) -> String {
    let mut s = connect_from(from, server).unwrap();
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: kifu\r\nConnection: close\r\n\r\n")
        .unwrap();
    String::from_utf8_lossy(&read_to_close(&mut s, PROMPT).unwrap()).into_owned()
}

fn metric(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in the metrics"))
}

/// The tests with thousands of connections run one at a time.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|p| p.into_inner())
}

const HOME: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
const BOARD: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const OTHER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 3);

#[test]
fn two_thousand_streams_from_one_client_do_not_hold_up_an_append_from_another() {
    let _one_at_a_time = heavy();
    kifu_server::conn::raise_open_files_limit();
    let server = common::start(None, ConnLimits::default());
    let limits = Limits::default();
    let conn = ConnLimits::default();
    // 2,000 followers from one address, each sending its request.
    let mut streams: Vec<TcpStream> = (0..2000)
        .map(|_| {
            let mut s = connect_from(HOME, server.addr).unwrap();
            let _ = s.write_all(b"GET /feed/stream HTTP/1.1\r\nHost: kifu\r\n\r\n");
            s
        })
        .collect();
    // Each is answered at once: a stream, or a refusal with Retry-After.
    let mut followed = 0;
    let mut refused = 0;
    let mut first = None;
    for (i, s) in streams.iter_mut().enumerate() {
        let head = read_head(s, PROMPT).expect("every follower gets an answer at once");
        match status(&head) {
            200 => {
                followed += 1;
                first.get_or_insert(i);
            }
            429 => {
                assert!(header(&head, "retry-after").is_some(), "{head}");
                refused += 1;
            }
            other => panic!("a follower was answered {other}: {head}"),
        }
    }
    assert_eq!(
        followed, limits.max_streams_per_client,
        "streams held by one client"
    );
    assert_eq!(followed + refused, 2000);
    assert!(conn.max_connections_per_client < 2000);

    // A board on another address appends: acknowledged at once.
    let cast = Cast::new();
    let g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let (head, body) = append_from(BOARD, server.addr, &g.records);
    assert_eq!(status(&head), 200, "{head}\n{body}");
    assert!(body.contains("\"accepted\":1"), "{body}");

    // The followers that were let in get the event.
    let mut got = String::new();
    if let Some(s) = first.map(|i| &mut streams[i]) {
        s.set_read_timeout(Some(PROMPT)).unwrap();
        let mut b = [0u8; 1];
        while !got.contains("\n\n") && got.len() < 1 << 16 {
            match s.read(&mut b) {
                Ok(1) => got.push(b[0] as char),
                _ => break,
            }
        }
    }
    assert!(got.contains("id: 0"), "a follower saw: {got:?}");

    let m = metrics(server.addr, OTHER);
    assert_eq!(
        metric(&m, "kifu_in_flight{budget=\"streams\"}"),
        limits.max_streams_per_client as u64
    );
    let refused_connections = metric(&m, "kifu_refused_total{reason=\"connections_per_client\"}");
    let refused_streams = metric(&m, "kifu_refused_total{reason=\"streams_per_client\"}");
    assert_eq!(refused_connections + refused_streams, refused as u64);
    assert!(refused_connections > 0 && refused_streams > 0, "{m}");
}

#[test]
fn five_thousand_idle_connections_do_not_hold_up_an_append() {
    let _one_at_a_time = heavy();
    kifu_server::conn::raise_open_files_limit();
    let conn = ConnLimits::default();
    let server = common::start(None, conn.clone());
    // 5,000 connections that send nothing, from 25 addresses (each under
    // its share): more than the server serves at once.
    let mut idle = Vec::with_capacity(5000);
    for i in 0..5000u32 {
        let from = Ipv4Addr::new(127, 0, 1, 1 + (i % 25) as u8);
        idle.push(connect_from(from, server.addr).unwrap());
    }
    assert!(idle.len() > conn.max_connections);
    // The server has taken them all in (bounded wait): idle ones made
    // room for newer ones.
    let over = (idle.len() - conn.max_connections) as u64;
    let deadline = Instant::now() + Duration::from_secs(8);
    loop {
        let m = metrics(server.addr, OTHER);
        let evicted = metric(&m, "kifu_connections_closed_total{reason=\"idle_evicted\"}");
        if evicted >= over {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "only {evicted} idle connections made room:\n{m}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let cast = Cast::new();
    let g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let (head, body) = append_from(BOARD, server.addr, &g.records);
    assert_eq!(status(&head), 200, "{head}\n{body}");
    let m = metrics(server.addr, OTHER);
    assert!(
        metric(&m, "kifu_connections ") as usize <= conn.max_connections,
        "{m}"
    );
    drop(idle);
}

#[test]
fn a_declared_ten_gigabyte_body_is_refused_with_413_before_it_is_read() {
    let server = common::start(None, ConnLimits::default());
    let mut s = connect_from(HOME, server.addr).unwrap();
    s.write_all(
        b"POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: 10737418240\r\n\r\n",
    )
    .unwrap();
    // Nothing of the body is sent: the answer cannot wait for it.
    let head = read_head(&mut s, PROMPT).expect("answered at once");
    assert_eq!(status(&head), 413, "{head}");
    assert_eq!(header(&head, "connection"), Some("close"), "{head}");
    let m = metrics(server.addr, OTHER);
    assert_eq!(
        metric(&m, "kifu_refused_total{reason=\"body_too_large\"}"),
        1
    );
}

#[test]
fn slow_headers_and_slow_bodies_are_dropped_at_their_deadline_while_others_are_served() {
    let limits = Limits {
        body_timeout: Duration::from_millis(800),
        ..Limits::default()
    };
    let conn = ConnLimits {
        header_read_timeout: Duration::from_millis(800),
        ..ConnLimits::default()
    };
    let server = common::start_with(None, limits, conn);
    let addr = server.addr;
    let dribble = |s: &mut TcpStream, bytes: &[u8]| {
        // One byte every 100 ms, for at most 10 s: the server must close
        // the connection long before.
        for b in bytes.iter().cycle().take(100) {
            if s.write_all(std::slice::from_ref(b)).is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    };
    let slow_head = std::thread::spawn(move || {
        let mut s = connect_from(HOME, addr).unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\nX-Slow: ")
            .unwrap();
        let mut r = s.try_clone().unwrap();
        let reader = std::thread::spawn(move || read_to_close(&mut r, Duration::from_secs(20)));
        let cut = dribble(&mut s, b"abcdefgh");
        let _ = s.shutdown(std::net::Shutdown::Write);
        let got = reader.join().unwrap().expect("closed by the server");
        (cut, String::from_utf8_lossy(&got).into_owned())
    });
    let slow_body = std::thread::spawn(move || {
        let mut s = connect_from(HOME, addr).unwrap();
        s.write_all(
            b"POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n",
        )
        .unwrap();
        let mut r = s.try_clone().unwrap();
        let reader = std::thread::spawn(move || read_to_close(&mut r, Duration::from_secs(20)));
        let cut = dribble(&mut s, b"x");
        let got = reader.join().unwrap().expect("closed by the server");
        (cut, String::from_utf8_lossy(&got).into_owned())
    });
    // Meanwhile other clients are served, one after another.
    let cast = Cast::new();
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let (head, _) = append_from(BOARD, addr, &g.records);
    assert_eq!(status(&head), 200, "{head}");
    for i in 0..5u32 {
        let player = if i.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let r = g
            .push(&cast.recorder, Body::ClockPressed { player })
            .clone();
        let (head, _) = append_from(BOARD, addr, &[r]);
        assert_eq!(status(&head), 200, "{head}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (cut, text) = slow_head.join().unwrap();
    assert!(
        !text.contains("200 OK"),
        "a dribbled head was answered: {text}"
    );
    assert!(
        cut || text.is_empty() || text.starts_with("HTTP/1.1 408"),
        "{text}"
    );
    let (cut, text) = slow_body.join().unwrap();
    assert!(text.starts_with("HTTP/1.1 408"), "a dribbled body: {text}");
    assert!(text.contains("body_timeout"), "{text}");
    let _ = cut;
    let m = metrics(addr, OTHER);
    assert_eq!(metric(&m, "kifu_refused_total{reason=\"body_timeout\"}"), 1);
}

/// Reads SSE events (their ids) until `want` are read or the stream ends.
fn sse_ids(s: &mut TcpStream, want: usize) -> Vec<u64> {
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut ids = Vec::new();
    let mut text = String::new();
    let mut buf = [0u8; 4096];
    while ids.len() < want {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => text.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
        while let Some(i) = text.find("\n\n") {
            let frame: String = text.drain(..i + 2).collect();
            if let Some(id) = frame.lines().find_map(|l| l.strip_prefix("id: ")) {
                ids.push(id.trim().parse().unwrap());
            }
        }
    }
    ids
}

#[test]
fn a_refused_follower_resumes_with_last_event_id_and_sees_every_event_once() {
    let limits = Limits {
        max_streams_per_client: 1,
        ..Limits::default()
    };
    let server = common::start_with(None, limits, ConnLimits::default());
    let addr = server.addr;
    let cast = Cast::new();
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let next = |g: &mut ChainBuilder, i: usize| {
        let player = if i.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        g.push(&cast.recorder, Body::ClockPressed { player })
            .clone()
    };
    for i in 0..4 {
        next(&mut g, i);
    }
    let (head, _) = append_from(BOARD, addr, &g.records);
    assert_eq!(status(&head), 200, "{head}");

    // The follower reads the first five events, then its connection is lost.
    let mut a = connect_from(HOME, addr).unwrap();
    a.write_all(b"GET /feed/stream HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    let mut seen = sse_ids(&mut a, 5);
    assert_eq!(seen, vec![0, 1, 2, 3, 4]);
    drop(a);
    // Another stream of the same client takes its place once the server
    // has noticed the first one gone (an event makes it write to it and
    // find it closed); bounded.
    let deadline = Instant::now() + Duration::from_secs(20);
    let b = loop {
        let mut b = connect_from(HOME, addr).unwrap();
        b.write_all(b"GET /feed/stream?after=1000000 HTTP/1.1\r\nHost: kifu\r\n\r\n")
            .unwrap();
        let head = read_head(&mut b, PROMPT).unwrap();
        if status(&head) == 200 {
            break b;
        }
        assert_eq!(status(&head), 429, "{head}");
        assert!(
            Instant::now() < deadline,
            "the lost stream's place was never given back"
        );
        let (h, _) = append_from(BOARD, addr, &[next(&mut g, 10)]);
        assert_eq!(status(&h), 200);
        std::thread::sleep(Duration::from_millis(100));
    };

    // Now the follower comes back: refused, told when to retry.
    let mut again = connect_from(HOME, addr).unwrap();
    write!(
        again,
        "GET /feed/stream HTTP/1.1\r\nHost: kifu\r\nLast-Event-ID: {}\r\n\r\n",
        seen.last().unwrap()
    )
    .unwrap();
    let head = read_head(&mut again, PROMPT).unwrap();
    assert_eq!(status(&head), 429, "{head}");
    let retry: u64 = header(&head, "retry-after").unwrap().parse().unwrap();
    assert!(retry >= 1);
    drop(again);

    // More events while it waits.
    let more: Vec<Record> = (20..26).map(|i| next(&mut g, i)).collect();
    let (h, _) = append_from(BOARD, addr, &more);
    assert_eq!(status(&h), 200);
    // The other stream leaves (it is closed, and an event makes the server
    // notice).
    drop(b);
    let (h, _) = append_from(BOARD, addr, &[next(&mut g, 30)]);
    assert_eq!(status(&h), 200);
    let total = g.records.len();

    // It retries (bounded) with Last-Event-ID and gets the rest, once.
    let mut rest = Vec::new();
    for _ in 0..100 {
        let mut s = connect_from(HOME, addr).unwrap();
        write!(
            s,
            "GET /feed/stream HTTP/1.1\r\nHost: kifu\r\nLast-Event-ID: {}\r\n\r\n",
            seen.last().unwrap()
        )
        .unwrap();
        let head = read_head(&mut s, PROMPT).unwrap();
        if status(&head) == 200 {
            rest = sse_ids(&mut s, total - seen.len());
            break;
        }
        assert_eq!(status(&head), 429, "{head}");
        std::thread::sleep(Duration::from_millis(100));
    }
    seen.extend(rest);
    let want: Vec<u64> = (0..total as u64).collect();
    assert_eq!(seen, want, "every event once, in order");
}

#[test]
fn every_answer_carries_the_security_headers() {
    let server = common::start(None, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    for path in [
        "/healthz",
        "/games",
        "/web/replay.js",
        "/",
        "/metrics",
        "/nothing-here",
        "/games/zz",
    ] {
        let r = match ureq::get(&format!("{url}{path}")).call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{path}: {e}"),
        };
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        let csp = r.header("content-security-policy").unwrap_or("");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{path}");
        let cache = r.header("cache-control").unwrap_or("");
        assert!(
            cache.contains("no-store") || cache.contains("no-cache"),
            "{path}: {cache:?}"
        );
    }
    // A refusal at the connection, before any request is read, too.
    let limits = ConnLimits {
        max_connections_per_client: 1,
        ..ConnLimits::default()
    };
    let tight = common::start(None, limits);
    let _hold = connect_from(HOME, tight.addr).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let mut s = connect_from(HOME, tight.addr).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    let head = read_head(&mut s, PROMPT).unwrap();
    assert_eq!(status(&head), 429, "{head}");
    assert_eq!(header(&head, "x-content-type-options"), Some("nosniff"));
    assert!(header(&head, "retry-after").is_some());
}

#[test]
fn a_follower_that_stops_reading_is_disconnected_and_its_place_given_back() {
    let _one_at_a_time = heavy();
    let conn = ConnLimits {
        write_stall_timeout: Duration::from_millis(500),
        ..ConnLimits::default()
    };
    let server = common::start(None, conn);
    let addr = server.addr;
    // A follower with a small receive window that never reads.
    let s = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    s.set_recv_buffer_size(4096).unwrap();
    s.bind(&SocketAddr::new(IpAddr::V4(HOME), 0).into())
        .unwrap();
    s.connect(&addr.into()).unwrap();
    let mut stuck: TcpStream = s.into();
    stuck
        .write_all(b"GET /feed/stream HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    // Enough events to fill every buffer between the server and it
    // (bounded: 40 batches).
    let cast = Cast::new();
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let (h, _) = append_from(BOARD, addr, &g.records);
    assert_eq!(status(&h), 200);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut closed = 0;
    for batch in 0..40u32 {
        let recs: Vec<Record> = (0..500u32)
            .map(|i| {
                let player = if (batch * 500 + i).is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                g.push(&cast.recorder, Body::ClockPressed { player })
                    .clone()
            })
            .collect();
        let (h, _) = append_from(BOARD, addr, &recs);
        assert_eq!(status(&h), 200);
        let m = metrics(addr, OTHER);
        closed = metric(
            &m,
            "kifu_connections_closed_total{reason=\"write_stalled\"}",
        );
        if closed > 0 || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    // It may take a moment past the last batch.
    while closed == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        let m = metrics(addr, OTHER);
        closed = metric(
            &m,
            "kifu_connections_closed_total{reason=\"write_stalled\"}",
        );
    }
    assert_eq!(closed, 1, "the stuck follower was disconnected");
    let m = metrics(addr, OTHER);
    assert_eq!(metric(&m, "kifu_in_flight{budget=\"streams\"}"), 0, "{m}");
    drop(stuck);
}

/// Sends a request head from `from` that promises `what` and never sends
/// the rest: the connection is kept open by the caller.
fn promise(from: Ipv4Addr, server: SocketAddr, head: &str) -> TcpStream {
    let mut s = connect_from(from, server).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    s
}

/// A read from `from`: its status, within `PROMPT`.
fn read_status(from: Ipv4Addr, server: SocketAddr, path: &str) -> u16 {
    let mut s = connect_from(from, server).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: kifu\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let started = Instant::now();
    let head = read_head(&mut s, PROMPT).expect("the read is answered");
    assert!(started.elapsed() < PROMPT, "the read waited");
    status(&head)
}

#[test]
fn bodies_that_never_arrive_hold_no_place_an_append_or_a_read_needs() {
    let _one_at_a_time = heavy();
    kifu_server::conn::raise_open_files_limit();
    let limits = Limits::default();
    let server = common::start(None, ConnLimits::default());
    // 512 appends promising a one-byte body from two addresses, and 256
    // reads promising one from a third: none of the bodies is ever sent.
    let mut held = Vec::new();
    for i in 0..512u32 {
        let from = Ipv4Addr::new(127, 0, 2, 1 + (i % 2) as u8);
        held.push(promise(
            from,
            server.addr,
            "POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: 1\r\n\r\n",
        ));
    }
    for _ in 0..256 {
        held.push(promise(
            Ipv4Addr::new(127, 0, 2, 3),
            server.addr,
            "GET /games HTTP/1.1\r\nHost: kifu\r\nContent-Length: 1\r\n\r\n",
        ));
    }
    // Every promise beyond a client's share is refused at once with 429.
    let mut refused = 0;
    for s in held.iter_mut() {
        if let Ok(head) = read_head(s, Duration::from_millis(20)) {
            if status(&head) == 429 {
                assert!(header(&head, "retry-after").is_some(), "{head}");
                refused += 1;
            }
        }
    }
    let shares = 3 * limits.max_bodies_per_client;
    assert_eq!(refused, 768 - shares, "promises refused at once");
    // A board appends and reads from its own address: answered at once.
    let cast = Cast::new();
    let g = ChainBuilder::start(&cast.referee, cast.genesis("board 1"), 0);
    let (head, body) = append_from(BOARD, server.addr, &g.records);
    assert_eq!(status(&head), 200, "{head}\n{body}");
    assert_eq!(read_status(BOARD, server.addr, "/games"), 200);
    let m = metrics(server.addr, OTHER);
    assert_eq!(
        metric(&m, "kifu_in_flight{budget=\"bodies\"}"),
        shares as u64,
        "{m}"
    );
    assert_eq!(metric(&m, "kifu_in_flight{budget=\"writes\"}"), 0, "{m}");
    drop(held);
}

#[test]
fn a_percent_encoded_wait_is_a_stream_not_a_read() {
    let _one_at_a_time = heavy();
    let limits = Limits::default();
    let server = common::start(None, ConnLimits::default());
    // `wait=%36%30` is a wait of 60 s, as the handler decodes it: it draws
    // on the streams' budget (64 per client), never on the reads'.
    let mut held = Vec::new();
    for _ in 0..256 {
        held.push(promise(
            OTHER,
            server.addr,
            "GET /feed?wait=%36%30 HTTP/1.1\r\nHost: kifu\r\n\r\n",
        ));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(read_status(BOARD, server.addr, "/games"), 200);
    let m = metrics(server.addr, HOME);
    assert_eq!(
        metric(&m, "kifu_in_flight{budget=\"streams\"}"),
        limits.max_streams_per_client as u64,
        "{m}"
    );
    // The one read in flight is this answer's own.
    assert_eq!(metric(&m, "kifu_in_flight{budget=\"reads\"}"), 1, "{m}");
    drop(held);
}

#[test]
fn a_request_hyper_cannot_read_is_answered_in_words_with_the_security_headers() {
    let server = common::start(None, ConnLimits::default());
    for (request, want, code) in [
        ("NOT HTTP AT ALL\r\n\r\n".to_string(), 400, "bad_request"),
        (
            format!("GET /{} HTTP/1.1\r\nHost: kifu\r\n\r\n", "a".repeat(70_000)),
            414,
            "uri_too_long",
        ),
        // More headers than the server reads, in a few kilobytes: the
        // whole request is in the server's hands before it answers, so the
        // answer is not lost to a reset.
        (
            format!(
                "GET / HTTP/1.1\r\nHost: kifu\r\n{}\r\n",
                (0..200)
                    .map(|i| format!("X-Many-{i}: 1\r\n"))
                    .collect::<String>()
            ),
            431,
            "headers_too_large",
        ),
    ] {
        let mut s = connect_from(OTHER, server.addr).unwrap();
        let _ = s.write_all(request.as_bytes());
        let all = read_to_close(&mut s, PROMPT).unwrap_or_default();
        let text = String::from_utf8_lossy(&all);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        assert_eq!(status(head), want, "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("x-content-type-options: nosniff"),
            "{head}"
        );
        assert!(body.contains(&format!("\"code\":\"{code}\"")), "{body}");
    }
}
