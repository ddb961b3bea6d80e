#![allow(missing_docs)]
//! HTTP load generator: a server on loopback, driven by many connections.
//!
//! `cargo bench -p kifu-server --bench http_load` runs every scenario;
//! `-- batches|single|latency|followers` runs one (the followers scenario
//! reads `FOLLOWERS`, `RATE` events/s and `SECS`: 1,000, 5,000 and 4). Figures are printed; the
//! ones in `docs/PERFORMANCE.md` come from this program.
//!
//! - batches: 64 connections, each its own game, sending batches of 100;
//! - single: 256 connections, each its own game, one record per request;
//! - latency: one connection, one record per request, p50/p99;
//! - followers: SSE followers while events are appended at a steady rate,
//!   latency from acknowledgement to delivery.

/// The allocator of the `kifu` binary, so the figures are the server's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::{Limits, Server};
use kifu_store::Store;
use tokio::net::TcpStream;

fn presses(c: &mut ChainBuilder, cast: &Cast, n: usize) -> Vec<Record> {
    (0..n)
        .map(|j| {
            let player = if j % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            c.push(&cast.recorder, Body::ClockPressed { player })
                .clone()
        })
        .collect()
}

fn body(records: &[Record]) -> Vec<u8> {
    let mut b = Vec::new();
    for r in records {
        b.extend_from_slice(&r.to_stored());
    }
    b
}

fn post(agent: &ureq::Agent, url: &str, records: &[Record]) {
    let r = agent
        .post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body(records))
        .expect("append accepted");
    assert_eq!(r.status(), 200);
}

fn new_games(url: &str, cast: &Cast, n: usize, tag: &str) -> Vec<ChainBuilder> {
    let agent = ureq::Agent::new();
    let chains: Vec<ChainBuilder> = (0..n)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("{tag} {i}")), 0))
        .collect();
    let genesis: Vec<Record> = chains.iter().map(|c| c.records[0].clone()).collect();
    for chunk in genesis.chunks(1000) {
        post(&agent, url, chunk);
    }
    chains
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Many connections, each its own game, each sending `per_request` records
/// per request, `requests` times.
fn connections(url: &str, cast: &Cast, conns: usize, per_request: usize, requests: usize) {
    let mut chains = new_games(url, cast, conns, &format!("c{conns}x{per_request}"));
    let work: Vec<Vec<Vec<Record>>> = chains
        .iter_mut()
        .map(|c| {
            (0..requests)
                .map(|_| presses(c, cast, per_request))
                .collect()
        })
        .collect();
    let lat = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    std::thread::scope(|s| {
        for w in &work {
            let lat = lat.clone();
            s.spawn(move || {
                let agent = ureq::Agent::new();
                let mut mine = Vec::with_capacity(w.len());
                for req in w {
                    let t = Instant::now();
                    post(&agent, url, req);
                    mine.push(t.elapsed());
                }
                lat.lock().unwrap().extend(mine);
            });
        }
    });
    let elapsed = started.elapsed();
    let events = conns * per_request * requests;
    let mut lat = lat.lock().unwrap().clone();
    lat.sort();
    println!(
        "{conns} connections x {requests} requests of {per_request}: {events} durable events in {:.2} s = {:.0} events/s; request p50 {} p99 {}",
        elapsed.as_secs_f64(),
        events as f64 / elapsed.as_secs_f64(),
        ms(percentile(&lat, 0.5)),
        ms(percentile(&lat, 0.99)),
    );
}

fn latency(url: &str, cast: &Cast, n: usize) {
    let mut chains = new_games(url, cast, 1, "latency");
    let recs = presses(&mut chains[0], cast, n);
    let agent = ureq::Agent::new();
    let mut lat = Vec::with_capacity(n);
    for r in &recs {
        let t = Instant::now();
        post(&agent, url, std::slice::from_ref(r));
        lat.push(t.elapsed());
    }
    lat.sort();
    println!(
        "one connection, one event per request, {n} requests: p50 {} p99 {} max {}",
        ms(percentile(&lat, 0.5)),
        ms(percentile(&lat, 0.99)),
        ms(*lat.last().unwrap_or(&Duration::ZERO)),
    );
}

/// Connects one SSE follower and reads its response head; the stream,
/// ready to be read.
async fn connect_follower(addr: SocketAddr, after: u64) -> Result<(TcpStream, Vec<u8>), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = s.set_nodelay(true);
    let req =
        format!("GET /feed/stream HTTP/1.1\r\nHost: {addr}\r\nLast-Event-ID: {after}\r\n\r\n");
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| format!("send: {e}"))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = s
            .read(&mut chunk)
            .await
            .map_err(|e| format!("read head: {e}"))?;
        if n == 0 {
            return Err("closed before the response head".into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            if !buf.starts_with(b"HTTP/1.1 200") {
                return Err(format!("answered {}", String::from_utf8_lossy(&buf[..i])));
            }
            return Ok((s, buf[i + 4..].to_vec()));
        }
    }
}

/// Reads a follower's stream until `want` events came (or 30 s of
/// silence); when each cursor arrived.
async fn read_follower(mut s: TcpStream, mut pending: Vec<u8>, want: usize) -> Vec<(u64, Instant)> {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::with_capacity(want);
    let mut chunk = vec![0u8; 64 << 10];
    let mut at = Instant::now();
    // Only the "id: N" lines matter; the data lines are skipped by a
    // vectorised search, so that a thousand followers in this process cost
    // the machine less than the server they measure.
    let id_line = memchr::memmem::Finder::new(b"id: ");
    loop {
        // Whole lines in what was read: "id: N" gives a cursor.
        let end = memchr::memrchr(b'\n', &pending).map(|e| e + 1).unwrap_or(0);
        for pos in id_line.find_iter(&pending[..end]) {
            if pos > 0 && pending[pos - 1] != b'\n' {
                continue;
            }
            let rest = &pending[pos + 4..end];
            let nl = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            if let Some(c) = std::str::from_utf8(&rest[..nl])
                .ok()
                .and_then(|t| t.trim().parse::<u64>().ok())
            {
                got.push((c, at));
            }
        }
        pending.drain(..end);
        if got.len() >= want {
            return got;
        }
        match tokio::time::timeout(Duration::from_secs(30), s.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => {
                at = Instant::now();
                pending.extend_from_slice(&chunk[..n]);
            }
            _ => return got,
        }
    }
}

fn followers(
    url: &str,
    addr: SocketAddr,
    cast: &Cast,
    n_followers: usize,
    rate: usize,
    secs: usize,
) {
    let mut chains = new_games(url, cast, 50, "followed");
    let agent = ureq::Agent::new();
    let (_, h) = {
        let r = agent.get(&format!("{url}/healthz")).call().unwrap();
        ((), r.into_json::<serde_json::Value>().unwrap())
    };
    let start_cursor = h["next_cursor"].as_u64().unwrap();
    let total = rate * secs;
    let per_game = total / chains.len();
    let work: Vec<Vec<Record>> = chains
        .iter_mut()
        .map(|c| presses(c, cast, per_game))
        .collect();
    let total = per_game * chains.len();
    let rss_before = rss_kib();
    // The followers live in a runtime of their own (two threads: one per
    // core), not a thread each: a thousand blocked threads woken for every
    // batch would measure the scheduler, not the server. They connect in
    // steps of RAMP, each step once the one before has its response heads,
    // as a thousand browsers arriving over a few seconds would.
    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("client runtime");
    let ramp = std::env::var("RAMP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100usize)
        .max(1);
    let connect_started = Instant::now();
    let (streams, failures) = clients.block_on(async {
        let mut streams = Vec::with_capacity(n_followers);
        let mut failures: Vec<String> = Vec::new();
        let mut left = n_followers;
        while left > 0 {
            let step = left.min(ramp);
            left -= step;
            let tasks: Vec<_> = (0..step)
                .map(|_| tokio::spawn(connect_follower(addr, start_cursor.saturating_sub(1))))
                .collect();
            for t in tasks {
                match t.await {
                    Ok(Ok(s)) => streams.push(s),
                    Ok(Err(e)) => failures.push(e),
                    Err(e) => failures.push(e.to_string()),
                }
            }
        }
        (streams, failures)
    });
    println!(
        "{} followers connected in {:.2} s in steps of {ramp}; {} failed{}",
        streams.len(),
        connect_started.elapsed().as_secs_f64(),
        failures.len(),
        failures
            .first()
            .map(|f| format!(" (first: {f})"))
            .unwrap_or_default()
    );
    let readers: Vec<_> = streams
        .into_iter()
        .map(|(s, pending)| clients.spawn(read_follower(s, pending, total)))
        .collect();
    // Append at a steady rate, one event per request from 50 boards.
    let acked = Arc::new(Mutex::new(Vec::with_capacity(total)));
    let interval = Duration::from_secs_f64(chains.len() as f64 / rate as f64);
    let started = Instant::now();
    std::thread::scope(|s| {
        for w in &work {
            let acked = acked.clone();
            s.spawn(move || {
                let agent = ureq::Agent::new();
                let mut next = Instant::now();
                for r in w {
                    let resp = agent
                        .post(&format!("{url}/records"))
                        .set("Content-Type", "application/octet-stream")
                        .send_bytes(&r.to_stored())
                        .expect("append");
                    let at = Instant::now();
                    let v: serde_json::Value = resp.into_json().unwrap();
                    acked
                        .lock()
                        .unwrap()
                        .push((v["results"][0]["cursor"].as_u64().unwrap(), at));
                    next += interval;
                    if let Some(d) = next.checked_duration_since(Instant::now()) {
                        std::thread::sleep(d);
                    }
                }
            });
        }
    });
    let append_secs = started.elapsed().as_secs_f64();
    let rss_during = rss_kib();
    let arrived: Vec<(u64, Instant)> = clients.block_on(async {
        let mut all = Vec::new();
        for r in readers {
            if let Ok(got) = r.await {
                all.extend(got);
            }
        }
        all
    });
    let acked: std::collections::HashMap<u64, Instant> =
        acked.lock().unwrap().iter().copied().collect();
    let mut lat: Vec<Duration> = arrived
        .iter()
        .filter_map(|(c, at)| acked.get(c).map(|a| at.saturating_duration_since(*a)))
        .collect();
    lat.sort();
    println!(
        "{n_followers} SSE followers, {total} events appended at {:.0}/s: {} deliveries; ack-to-delivery p50 {} p99 {} max {}; server process RSS {} MiB before, {} MiB while following",
        total as f64 / append_secs,
        lat.len(),
        ms(percentile(&lat, 0.5)),
        ms(percentile(&lat, 0.99)),
        ms(*lat.last().unwrap_or(&Duration::ZERO)),
        rss_before / 1024,
        rss_during / 1024,
    );
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() {
    let which: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let run = |name: &str| which.is_empty() || which.iter().any(|w| w == name);
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(Store::open(dir.path()).expect("store"));
    // One process drives every connection from one address: the
    // per-client bounds are raised to the scenario's.
    let most = std::env::var("FOLLOWERS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(1000)
        + 512;
    let limits = Limits {
        queue_records: 1 << 20,
        max_streams: most,
        max_streams_per_client: most,
        max_bodies: most,
        max_bodies_per_client: most,
        ..Limits::default()
    };
    let server = Server::new(store, limits)
        .expect("server")
        .with_conn_limits(kifu_server::ConnLimits {
            max_connections: most + 512,
            max_connections_per_client: most + 512,
            ..kifu_server::ConnLimits::default()
        });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (listener, addr) = rt
        .block_on(kifu_server::bind("127.0.0.1:0".parse().unwrap()))
        .expect("bind");
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let served = rt.spawn(server.run(listener, async {
        let _ = stop_rx.await;
    }));
    let url = format!("http://{addr}");
    let cast = Cast::new();
    if run("batches") {
        connections(&url, &cast, 64, 100, 10);
    }
    if run("single") {
        connections(&url, &cast, 256, 1, 40);
    }
    if run("latency") {
        latency(&url, &cast, 2000);
    }
    if run("followers") {
        let env = |k: &str, d: usize| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let (n, rate, secs) = (env("FOLLOWERS", 1000), env("RATE", 5000), env("SECS", 4));
        followers(&url, addr, &cast, n, rate, secs);
    }
    let _ = stop_tx.send(());
    let _ = rt.block_on(served);
}
