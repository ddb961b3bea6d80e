#![allow(missing_docs)]
//! Appends while a hostile client holds the server: `cargo bench -p
//! kifu-server --bench held`. A server on loopback with its default
//! limits; one board appends from its own address (127.0.0.2) on a
//! kept-alive connection, one record a request, and its round trips are
//! timed (p50, p99, max):
//!
//! - alone;
//! - while 512 `POST /records` promising a one-byte body (from 127.0.2.1
//!   and 127.0.2.2) and 256 `GET /games` promising one (from 127.0.2.3)
//!   are held open, never sending the body;
//! - while 4,096 signed device requests arrive from 64 addresses.
//!
//! The figures in `docs/PERFORMANCE.md` ("A hostile client") come from this
//! program, with the server's CPU per append beside them.

mod common;
use common::exchange;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu_game::seat::SignedRequest;
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Keypair, Record};
use kifu_server::{Limits, Server};
use kifu_store::Store;

fn connect_from(from: Ipv4Addr, server: SocketAddr) -> TcpStream {
    let s = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    s.bind(&SocketAddr::new(IpAddr::V4(from), 0).into())
        .unwrap();
    s.connect(&server.into()).unwrap();
    let s: TcpStream = s.into();
    s.set_nodelay(true).unwrap();
    s
}

fn appends(addr: SocketAddr, records: &[Record]) -> Vec<Duration> {
    let mut s = connect_from(Ipv4Addr::new(127, 0, 0, 2), addr);
    let mut lat = Vec::with_capacity(records.len());
    for r in records {
        let body = r.to_stored();
        let head = format!(
            "POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let t = Instant::now();
        let (status, _) = exchange(&mut s, &head, &body);
        lat.push(t.elapsed());
        assert_eq!(status, 200);
    }
    lat.sort();
    lat
}

fn report(what: &str, lat: &[Duration], cpu: Duration) {
    let p = |q: f64| lat[((lat.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{what}: {} appends, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; process CPU {:.0} µs an append",
        lat.len(),
        p(0.5),
        p(0.99),
        p(1.0),
        cpu.as_secs_f64() * 1e6 / lat.len() as f64
    );
}

/// This process's CPU time (user and system), from `/proc/self/stat`.
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    let ticks = f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0);
    Duration::from_secs_f64(ticks as f64 / rustix::param::clock_ticks_per_second() as f64)
}

fn main() {
    kifu_server::conn::raise_open_files_limit();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let server = Server::new(store, Limits::default()).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (listener, addr) = rt
        .block_on(kifu_server::bind("127.0.0.1:0".parse().unwrap()))
        .unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let served = rt.spawn(server.run(listener, async {
        let _ = stop_rx.await;
    }));
    let cast = Cast::new();
    let n = 2_000;
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis("held"), 0);
    let mut records = vec![g.records[0].clone()];
    for i in 0..3 * n {
        let player = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        records.push(
            g.push(&cast.recorder, Body::ClockPressed { player })
                .clone(),
        );
    }
    let (first, rest) = records.split_at(n + 1);
    let (second, third) = rest.split_at(n);

    let c0 = cpu();
    let lat = appends(addr, first);
    report("alone", &lat, cpu() - c0);

    let mut held = Vec::new();
    for i in 0..512u32 {
        let mut s = connect_from(Ipv4Addr::new(127, 0, 2, 1 + (i % 2) as u8), addr);
        s.write_all(b"POST /records HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/octet-stream\r\nContent-Length: 1\r\n\r\n").unwrap();
        held.push(s);
    }
    for _ in 0..256 {
        let mut s = connect_from(Ipv4Addr::new(127, 0, 2, 3), addr);
        s.write_all(b"GET /games HTTP/1.1\r\nHost: kifu\r\nContent-Length: 1\r\n\r\n")
            .unwrap();
        held.push(s);
    }
    std::thread::sleep(Duration::from_millis(500));
    let c0 = cpu();
    let lat = appends(addr, second);
    report(
        "512 body-less POSTs and 256 body-less GETs held",
        &lat,
        cpu() - c0,
    );
    drop(held);

    // 4,096 signed device requests from 64 addresses, while the board
    // appends.
    let requests = std::thread::spawn(move || {
        let mut answered = [0usize; 600];
        for i in 0..4096u32 {
            let mut seed = [5u8; 32];
            seed[..4].copy_from_slice(&i.to_le_bytes());
            let k = Keypair::from_seed(seed);
            let body = serde_json::to_vec(&serde_json::json!({
                "key": k.public(), "role": "black", "name": format!("device {i}"),
                "tournament": "Open", "round": 1, "board": i + 1, "signed_at_ms": 1,
            }))
            .unwrap();
            let sig = SignedRequest::sign(&k, &body);
            let mut s = connect_from(Ipv4Addr::new(127, 0, 3, 1 + (i % 64) as u8), addr);
            let head = format!(
                "POST /devices HTTP/1.1\r\nHost: kifu\r\nContent-Type: application/json\r\nKifu-Device-Signature: {sig}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            let (status, _) = exchange(&mut s, &head, &body);
            answered[status as usize] += 1;
        }
        answered
    });
    let c0 = cpu();
    let lat = appends(addr, third);
    report("while 4,096 device requests arrive", &lat, cpu() - c0);
    let answered = requests.join().unwrap();
    let answers: Vec<String> = answered
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(status, n)| format!("{n} answered {status}"))
        .collect();
    println!("device requests (64 addresses): {}", answers.join(", "));
    let _ = stop_tx.send(());
    let _ = rt.block_on(served);
}
