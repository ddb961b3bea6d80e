#![allow(missing_docs)]
//! A tablet's read at move 250 in a congress-sized store: `cargo bench -p
//! kifu-server --bench state_read`.
//!
//! A store of `GAMES` games (default 3,500: 350 boards for 10 rounds), each
//! of `MOVES` moves with their clock presses (default 120, at most 340), and two
//! games of 250 moves. A server on loopback with its default limits, one
//! kept-alive connection. It prints:
//!
//! - resolving a 12-character id prefix in that store (the store seeks its
//!   ordered keys: `Store::resolve`), a mean over every game;
//! - the first device read of a game at move 250 (`GET
//!   /games/{id}/state?device=1`), made from the events;
//! - device reads at a head already read (the kept answer);
//! - a table's rhythm from move 251 on: each record appended, then the
//!   device read at the new head (`state?device=1&since=SEQ`), against the
//!   same appends to the other 250-move game without the reads. The
//!   difference of the two, a record, is what the read costs the server.
//!
//! CPU is the process's own (`CLOCK_PROCESS_CPUTIME_ID`): the server and
//! the one client that asks, so the figures are a bound on the server's.
//! `docs/PERFORMANCE.md` ("State reads") has the figures of this program.

mod common;
use common::exchange;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Point, Record};
use kifu_server::{Limits, Server};
use kifu_store::Store;

/// A 19x19 game of `moves` moves (at most 340), each with its clock press:
/// Black fills the even columns and White the odd ones, top to bottom, so
/// that a column is taken whole when its neighbours close on it (captures,
/// as in a real game, and no move the rules refuse).
fn game(cast: &Cast, title: &str, moves: u16) -> ChainBuilder {
    let mut genesis = cast.genesis(title);
    genesis.board_size = 19;
    let mut c = ChainBuilder::start(&cast.referee, genesis, 1_767_225_600_000);
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    let mut color = Color::Black;
    for i in 0..moves.min(340) {
        let k = i / 2;
        let point = Point {
            x: (2 * (k / 19) + i % 2) as u8,
            y: (k % 19) as u8,
        };
        let key = if color == Color::Black {
            &cast.black
        } else {
            &cast.white
        };
        c.push(
            key,
            Body::StonePlaced {
                player: color,
                stone: color,
                point,
            },
        );
        c.push(key, Body::ClockPressed { player: color });
        color = color.opponent();
    }
    c
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn append(s: &mut TcpStream, r: &Record) {
    let body = r.to_stored();
    let head = format!(
        "POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    assert_eq!(exchange(s, &head, &body).0, 200);
}

fn read(s: &mut TcpStream, path: &str) -> usize {
    let head = format!("GET {path} HTTP/1.1\r\nHost: kifu\r\n\r\n");
    let (status, len) = exchange(s, &head, b"");
    assert_eq!(status, 200, "{path}");
    len
}

fn per(d: Duration, n: usize) -> f64 {
    d.as_secs_f64() * 1e3 / n.max(1) as f64
}

fn quantile(lat: &mut [Duration], q: f64) -> f64 {
    lat.sort();
    lat[((lat.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e3
}

fn main() {
    let games = env("GAMES", 3_500);
    let moves = env("MOVES", 120).min(340) as u16;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let cast = Cast::new();

    // The store: two games at move 250 (genesis, clock start, 250 moves and
    // presses: seq 501), and the rest of the congress beside them.
    let t = Instant::now();
    let read_game = game(&cast, "read at move 250", 340);
    let quiet_game = game(&cast, "appended at move 250", 340);
    let at_250 = 2 + 2 * 250;
    for g in [&read_game, &quiet_game] {
        store
            .append_batch(g.records[..at_250].to_vec())
            .expect("appends");
    }
    let mut ids = vec![read_game.game, quiet_game.game];
    for i in 0..games.saturating_sub(2) {
        let g = game(
            &cast,
            &format!("board {} round {}", i % 350 + 1, i / 350 + 1),
            moves,
        );
        store.append_batch(g.records).expect("appends");
        ids.push(g.game);
        if (i + 1) % 500 == 0 {
            eprintln!(
                "{} games stored ({:.0} s)",
                i + 1,
                t.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "store: {} games ({} of {} moves, 2 of 250), built in {:.0} s",
        ids.len(),
        ids.len() - 2,
        moves,
        t.elapsed().as_secs_f64()
    );

    let prefixes: Vec<String> = ids.iter().map(|id| hex::encode(&id[..6])).collect();
    let c0 = cpu();
    let t0 = Instant::now();
    for (p, id) in prefixes.iter().zip(&ids) {
        assert_eq!(&store.resolve(p).expect("unique prefix"), id);
    }
    println!(
        "resolve a 12-character prefix: {:.1} µs a lookup ({:.1} µs CPU), over {} games",
        t0.elapsed().as_secs_f64() * 1e6 / ids.len() as f64,
        (cpu() - c0).as_secs_f64() * 1e6 / ids.len() as f64,
        ids.len()
    );

    let server = Server::new(store, Limits::default()).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (listener, addr): (_, SocketAddr) = rt
        .block_on(kifu_server::bind("127.0.0.1:0".parse().unwrap()))
        .unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let served = rt.spawn(server.run(listener, async {
        let _ = stop_rx.await;
    }));
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_nodelay(true).unwrap();

    let id = hex::encode(read_game.game);
    let device = format!("/games/{id}/state?device=1");
    let c0 = cpu();
    let t0 = Instant::now();
    let bytes = read(&mut s, &device);
    println!(
        "first device read at move 250: {:.2} ms, {:.2} ms CPU, {bytes} bytes",
        t0.elapsed().as_secs_f64() * 1e3,
        per(cpu() - c0, 1)
    );

    let n = env("READS", 2_000);
    let mut lat = Vec::with_capacity(n);
    let c0 = cpu();
    for _ in 0..n {
        let t = Instant::now();
        read(&mut s, &device);
        lat.push(t.elapsed());
    }
    println!(
        "device read, head unchanged: p50 {:.3} ms, p99 {:.3} ms; {:.3} ms CPU a read ({n} reads)",
        quantile(&mut lat, 0.5),
        quantile(&mut lat, 0.99),
        per(cpu() - c0, n)
    );

    // From move 251 to 340: the same records to both games; reads after
    // each to one of them only.
    let rest = read_game.records.len() - at_250;
    let c0 = cpu();
    for r in &quiet_game.records[at_250..] {
        append(&mut s, r);
    }
    let appends_alone = cpu() - c0;
    let mut lat = Vec::with_capacity(rest);
    let c0 = cpu();
    for (i, r) in read_game.records[at_250..].iter().enumerate() {
        append(&mut s, r);
        let t = Instant::now();
        read(&mut s, &format!("{device}&since={}", at_250 + i - 1));
        lat.push(t.elapsed());
    }
    let with_reads = cpu() - c0;
    println!(
        "append alone, moves 251 to 340: {:.3} ms CPU a record ({rest} records)",
        per(appends_alone, rest)
    );
    println!(
        "append then device read at the new head: read p50 {:.3} ms, p99 {:.3} ms; the read {:.3} ms CPU ({:.3} ms with its append)",
        quantile(&mut lat, 0.5),
        quantile(&mut lat, 0.99),
        per(with_reads.saturating_sub(appends_alone), rest),
        per(with_reads, rest)
    );
    let _ = stop_tx.send(());
    let _ = rt.block_on(served);
}
