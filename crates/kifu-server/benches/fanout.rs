#![allow(missing_docs)]
//! The server's own cost of fan-out, with the followers out of the picture:
//! the server runs in a child process of its own (this program started
//! again with `--server-process`), and its CPU time and resident memory are
//! read from `/proc/PID` while this process connects the followers and
//! appends. So the figures are the server's, not those of the followers
//! that share the machine.
//!
//! ```text
//! cargo bench -p kifu-server --bench fanout
//! FOLLOWERS=1000 RATE=2000 SECS=5 IDLE=5000 cargo bench -p kifu-server --bench fanout
//! FORM=compact cargo bench -p kifu-server --bench fanout
//! ```
//!
//! `FORM=compact` has the followers ask for the compact line (the record's
//! bytes and cursor, not the decoded body: `/feed/stream?form=compact`),
//! so that the cost per delivery of the two forms can be compared; the
//! bytes received per delivery are printed with it. `FEED_DEFER_MS` sets
//! how long a follower's write gives way to appends in flight (default 2;
//! 0: never), to compare the append latency with and without.
//! `REALTIME=N` runs the server's async workers real-time (`kifu serve
//! --realtime-priority N`, `kifu_server::sched`) and this process's boards
//! and probe too (they stand for the boards' tablets).
//! `FOLLOWER_NICE` (default 19; 0: none) is how much later than the
//! boards' the followers' threads in this process are scheduled (they
//! stand for spectators' own machines). `FOLLOWERS_APART=0` serves the
//! followers on the appends' own threads instead of threads of lower
//! scheduling priority (`conn::Followers`).
//!
//! Over loopback the kernel's receive work for what the server sends (the
//! TCP receive path of a thousand followers' sockets) runs on the
//! *sender's* core, the server's, whatever core the followers are pinned
//! to; over a network it runs on the spectators' machines. To keep it with
//! the followers, steer loopback's receive processing to their core
//! (receive packet steering, as root): `echo 2 >
//! /sys/class/net/lo/queues/rx-0/rps_cpus` for core 1 (`echo 0` undoes
//! it). The bench prints the mask it ran with, each core's system and
//! softirq time while appending, and the server's own acknowledgement
//! times (`kifu_ack_seconds`).
//!
//! Pin the server to its own cores for clean figures (`SERVER_CPUS=0-1`
//! runs the child under `taskset -c 0-1`; run the bench itself under
//! `taskset -c 2-7`). It prints:
//!
//! - append latency (one record per request, one connection) alone: p50,
//!   p99; and the same while `RATE` events/s are appended with no
//!   follower (what the load itself costs the appends);
//! - memory per follower: the server's resident memory with `FOLLOWERS`
//!   streams open, less before, divided by `FOLLOWERS`;
//! - the same latency while `RATE` events/s are appended and delivered to
//!   every follower, and the server's CPU time per delivered event (and
//!   per appended event);
//! - the same latency with `IDLE` idle connections held open (from other
//!   loopback addresses, under the per-client bound).

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::{ConnLimits, Limits, Server};
use kifu_store::Store;

fn env(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// `REALTIME=N`: the server's appending threads under `SCHED_FIFO` at N
/// (`kifu serve --realtime-priority N`), and this process's boards and
/// probe too (they stand for the boards' own tablets).
fn realtime() -> Option<u8> {
    std::env::var("REALTIME").ok().and_then(|v| v.parse().ok())
}

/// Asks for [`realtime`] on the calling thread (a board's or the probe's).
fn board_thread() {
    if let Some(p) = realtime() {
        kifu_server::sched::realtime(p).expect("REALTIME: real-time priority");
    }
}

/// [`latency`] on a thread of its own, a board's ([`board_thread`]).
fn probe(url: &str, n: usize, tag: &str) -> (Duration, Duration) {
    let (url, tag) = (url.to_string(), tag.to_string());
    std::thread::spawn(move || {
        board_thread();
        latency(&url, &Cast::new(), n, &tag)
    })
    .join()
    .expect("the probe")
}

/// The child: a server with room for the followers, until stdin closes.
fn server_process() {
    kifu_server::conn::raise_open_files_limit();
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(Store::open(dir.path()).expect("store"));
    let followers = env("FOLLOWERS", 1000);
    let limits = Limits {
        feed_defer: Duration::from_millis(env("FEED_DEFER_MS", 2) as u64),
        queue_records: 1 << 20,
        max_streams: followers + 16,
        max_streams_per_client: followers + 16,
        ..Limits::default()
    };
    let conn = ConnLimits {
        max_connections: followers + env("IDLE", 5000) + 256,
        max_connections_per_client: followers + 256,
        followers_apart: env("FOLLOWERS_APART", 1) != 0,
        ..ConnLimits::default()
    };
    let server = Server::new(store, limits)
        .expect("server")
        .with_conn_limits(conn);
    let rt = kifu_server::sched::runtime(realtime())
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let (listener, addr) = kifu_server::bind("127.0.0.1:0".parse().unwrap())
            .await
            .expect("bind");
        println!("{addr}");
        let stdin_closed = async {
            let _ = tokio::task::spawn_blocking(|| {
                let mut sink = Vec::new();
                let _ = std::io::stdin().read_to_end(&mut sink);
            })
            .await;
        };
        server.run(listener, stdin_closed).await.expect("serve");
    });
}

/// The child's CPU time (user and system) and resident memory.
fn usage(pid: u32) -> (Duration, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces) in parentheses.
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12
    // after the state.
    let hz = rustix::param::clock_ticks_per_second().max(1);
    let cpu = Duration::from_millis((ticks(11) + ticks(12)) * 1000 / hz);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kib = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    (cpu, rss_kib)
}

/// Each CPU's time in the kernel so far, from `/proc/stat`: (system,
/// softirq) in clock ticks, and the CPU time of the kernel threads that
/// run network processing left over from interrupts (`ksoftirqd/N`).
fn kernel_time() -> (Vec<(u64, u64)>, Vec<u64>) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let cpus = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && !l.starts_with("cpu "))
        .map(|l| {
            let f: Vec<u64> = l
                .split_whitespace()
                .skip(1)
                .filter_map(|v| v.parse().ok())
                .collect();
            (
                f.get(2).copied().unwrap_or(0),
                f.get(6).copied().unwrap_or(0),
            )
        })
        .collect::<Vec<_>>();
    let mut soft = vec![0; cpus.len()];
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let comm = std::fs::read_to_string(e.path().join("comm")).unwrap_or_default();
        let Some(n) = comm.trim().strip_prefix("ksoftirqd/") else {
            continue;
        };
        let (Ok(n), Ok(pid)) = (
            n.parse::<usize>(),
            e.file_name().to_string_lossy().parse::<u32>(),
        ) else {
            continue;
        };
        if let Some(s) = soft.get_mut(n) {
            *s = usage(pid).0.as_millis() as u64;
        }
    }
    (cpus, soft)
}

/// What the kernel did between two [`kernel_time`]s, `secs` apart.
fn kernel_line(
    a: &(Vec<(u64, u64)>, Vec<u64>),
    b: &(Vec<(u64, u64)>, Vec<u64>),
    secs: f64,
) -> String {
    let hz = rustix::param::clock_ticks_per_second().max(1) as f64;
    let pct = |t: u64| 100.0 * t as f64 / hz / secs.max(1e-9);
    (0..a.0.len().min(b.0.len()))
        .map(|i| {
            format!(
                "cpu{i}: system {:.0} %, softirq {:.0} %, ksoftirqd {:.0} %",
                pct(b.0[i].0.saturating_sub(a.0[i].0)),
                pct(b.0[i].1.saturating_sub(a.0[i].1)),
                100.0
                    * b.1
                        .get(i)
                        .unwrap_or(&0)
                        .saturating_sub(*a.1.get(i).unwrap_or(&0)) as f64
                    / 1000.0
                    / secs.max(1e-9)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The server's own histogram `name` (`kifu_ack_seconds`: from a record
/// entering its queue to its acknowledgement; its stages), by upper bound.
fn acks(url: &str, name: &str) -> Vec<(String, u64)> {
    let m = ureq::get(&format!("{url}/metrics"))
        .call()
        .ok()
        .and_then(|r| r.into_string().ok())
        .unwrap_or_default();
    let prefix = format!("{name}_bucket{{le=\"");
    m.lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .filter_map(|l| l.split_once("\"} "))
        .filter_map(|(le, n)| Some((le.to_string(), n.trim().parse().ok()?)))
        .collect()
}

/// The share of acknowledgements between two [`acks`] under each bound.
fn acks_line(a: &[(String, u64)], b: &[(String, u64)]) -> String {
    let total = b.last().map(|x| x.1).unwrap_or(0) - a.last().map(|x| x.1).unwrap_or(0);
    b.iter()
        .zip(a)
        .map(|((le, nb), (_, na))| {
            format!(
                "≤{le} s {:.2} %",
                100.0 * (nb - na) as f64 / total.max(1) as f64
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn body(records: &[Record]) -> Vec<u8> {
    records.iter().flat_map(|r| r.to_stored()).collect()
}

fn post(agent: &ureq::Agent, url: &str, records: &[Record]) {
    let r = agent
        .post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body(records))
        .expect("append accepted");
    assert_eq!(r.status(), 200);
}

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

/// p50 and p99 of `n` appends, one record per request on one connection.
fn latency(url: &str, cast: &Cast, n: usize, tag: &str) -> (Duration, Duration) {
    let agent = ureq::AgentBuilder::new().build();
    let mut g = ChainBuilder::start(&cast.referee, cast.genesis(tag), 0);
    post(&agent, url, &g.records[..1]);
    let mut took: Vec<Duration> = presses(&mut g, cast, n)
        .into_iter()
        .map(|r| {
            let t = Instant::now();
            post(&agent, url, &[r]);
            t.elapsed()
        })
        .collect();
    took.sort();
    let at = |p: f64| took[((took.len() as f64 * p) as usize).min(took.len() - 1)];
    (at(0.5), at(0.99))
}

/// `rate` events/s for `secs` s from 10 boards while the probe times 1,000
/// appends of its own: the boards' appends, and the probe's p50 and p99.
fn load(url: &str, rate: usize, secs: usize, tag: &str) -> (u64, Duration, Duration) {
    let boards = 10;
    let per_board = rate * secs / boards;
    let appended = Arc::new(AtomicU64::new(0));
    let appenders: Vec<_> = (0..boards)
        .map(|b| {
            let (url, cast, appended) = (url.to_string(), Cast::new(), appended.clone());
            let title = format!("{tag} b{b}");
            std::thread::spawn(move || {
                board_thread();
                let agent = ureq::AgentBuilder::new().build();
                let mut g = ChainBuilder::start(&cast.referee, cast.genesis(&title), 0);
                post(&agent, &url, &g.records[..1]);
                appended.fetch_add(1, Ordering::Relaxed);
                let every = Duration::from_secs_f64(boards as f64 / rate.max(1) as f64);
                let t0 = Instant::now();
                for (i, r) in presses(&mut g, &cast, per_board).into_iter().enumerate() {
                    let due = t0 + every * i as u32;
                    if let Some(w) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(w);
                    }
                    post(&agent, &url, &[r]);
                    appended.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let (q50, q99) = probe(url, 1000, tag);
    for a in appenders {
        let _ = a.join();
    }
    (appended.load(Ordering::Relaxed), q50, q99)
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// A follower on a thread of its own: counts the events it reads.
fn follower(
    addr: SocketAddr,
    after: Option<u64>,
    seen: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
) -> std::io::Result<()> {
    let mut s = TcpStream::connect(addr)?;
    let from = after.map(|a| format!("after={a}")).unwrap_or_default();
    let form = std::env::var("FORM").unwrap_or_else(|_| "full".into());
    write!(
        s,
        "GET /feed/stream?form={form}&{from} HTTP/1.1\r\nHost: kifu\r\n\r\n"
    )?;
    s.set_read_timeout(Some(Duration::from_millis(500)))?;
    let mut buf = vec![0u8; 64 << 10];
    const MARK: &[u8] = b"\nid: ";
    let finder = memchr::memmem::Finder::new(MARK);
    // The last bytes of the read before, for a mark split between reads.
    let mut tail: Vec<u8> = Vec::with_capacity(2 * MARK.len());
    while !stop.load(Ordering::Relaxed) {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut count = finder.find_iter(&buf[..n]).count() as u64;
                // Marks that begin in the read before and end in this one.
                let kept = tail.len();
                tail.extend_from_slice(&buf[..n.min(MARK.len() - 1)]);
                count += finder
                    .find_iter(&tail)
                    .filter(|&i| i < kept && i + MARK.len() > kept)
                    .count() as u64;
                tail.clear();
                tail.extend_from_slice(&buf[n.saturating_sub(MARK.len() - 1)..n]);
                seen.fetch_add(count, Ordering::Relaxed);
                bytes.fetch_add(n as u64, Ordering::Relaxed);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn main() {
    if std::env::args().any(|a| a == "--server-process") {
        server_process();
        return;
    }
    kifu_server::conn::raise_open_files_limit();
    let followers = env("FOLLOWERS", 1000);
    let rate = env("RATE", 2000);
    let secs = env("SECS", 5);
    let idle = env("IDLE", 5000);
    let me = std::env::current_exe().expect("this program");
    let mut cmd = match std::env::var("SERVER_CPUS") {
        Ok(cpus) => {
            let mut c = Command::new("taskset");
            c.args(["-c", &cpus]).arg(&me);
            c
        }
        Err(_) => Command::new(&me),
    };
    let mut child = cmd
        .arg("--server-process")
        .env("FOLLOWERS", followers.to_string())
        .env("IDLE", idle.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process starts");
    let pid = child.id();
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the server's address");
    let addr: SocketAddr = line.trim().parse().expect("an address");
    let url = format!("http://{addr}");

    // Over loopback the kernel's receive work for every byte the server
    // sends runs on the server's core unless receive packet steering sends
    // it to the followers' (as a real network leaves it to the spectators'
    // machines): say which.
    let rps = std::fs::read_to_string("/sys/class/net/lo/queues/rx-0/rps_cpus")
        .map(|m| m.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    println!("loopback receive processing steered to CPU mask {rps} (0: where the sender runs)");
    if let Some(p) = realtime() {
        kifu_server::sched::check(p).expect("REALTIME");
        println!(
            "appending threads (the server's, the boards', the probe's) real-time: SCHED_FIFO {p}"
        );
    }
    let (p50, p99) = probe(&url, 2000, "alone");
    println!("append latency alone: p50 {} p99 {}", ms(p50), ms(p99));
    // The same load as with the followers below, without them: what the
    // appends' tail owes to the load itself.
    let (_, l50, l99) = load(&url, rate, secs, "loaded alone");
    println!(
        "append latency at {rate} events/s without followers: p50 {} p99 {}",
        ms(l50),
        ms(l99)
    );

    // Followers, from the live end of the feed.
    let next: u64 = ureq::get(&format!("{url}/healthz"))
        .call()
        .expect("healthz")
        .into_json::<serde_json::Value>()
        .expect("JSON")["next_cursor"]
        .as_u64()
        .unwrap_or(0);
    let after = next.checked_sub(1);
    let (_, rss0) = usage(pid);
    let seen = Arc::new(AtomicU64::new(0));
    let bytes = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    // The followers stand for spectators' own machines: with no third core
    // for them, their threads here are scheduled after the boards' and the
    // probe's (`FOLLOWER_NICE`, 0: beside them), so that what the appends'
    // latency shows is the server's doing, not this process's run queue.
    let nice = env("FOLLOWER_NICE", 19) as i32;
    let threads: Vec<_> = (0..followers)
        .map(|_| {
            let (seen, bytes, stop) = (seen.clone(), bytes.clone(), stop.clone());
            std::thread::Builder::new()
                .stack_size(128 << 10)
                .spawn(move || {
                    if nice != 0 {
                        if let Ok(now) = rustix::process::getpriority_process(None) {
                            let _ = rustix::process::setpriority_process(None, now + nice);
                        }
                    }
                    follower(addr, after, seen, bytes, stop)
                })
                .expect("a follower thread")
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let m = ureq::get(&format!("{url}/metrics"))
            .call()
            .expect("metrics")
            .into_string()
            .unwrap_or_default();
        let open = m
            .lines()
            .find_map(|l| l.strip_prefix("kifu_in_flight{budget=\"streams\"} "))
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(0);
        if open >= followers || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(500));
    let (cpu0, rss1) = usage(pid);
    println!(
        "{followers} followers: server RSS {} KiB before, {} KiB with them: {:.1} KiB per follower",
        rss0,
        rss1,
        rss1.saturating_sub(rss0) as f64 / followers.max(1) as f64
    );

    let kernel0 = kernel_time();
    const STAGES: [&str; 4] = [
        "kifu_ack_seconds",
        "kifu_verify_seconds",
        "kifu_commit_seconds",
        "kifu_sync_seconds",
    ];
    let acks0: Vec<_> = STAGES.iter().map(|n| acks(&url, n)).collect();
    // Appends at RATE events/s from 10 boards, while a prober measures.
    let start = Instant::now();
    let (appended, q50, q99) = load(&url, rate, secs, "with followers");
    let events = appended + 1001;
    let appending = start.elapsed();
    println!(
        "while appending: {}",
        kernel_line(&kernel0, &kernel_time(), appending.as_secs_f64())
    );
    for (name, before) in STAGES.iter().zip(&acks0) {
        println!(
            "server {name} while appending: {}",
            acks_line(before, &acks(&url, name))
        );
    }
    let behind = (events * followers as u64).saturating_sub(seen.load(Ordering::Relaxed));
    println!(
        "appended {events} events in {:.1} s ({:.0} events/s, {rate} asked); the followers then {:.0} events each behind",
        appending.as_secs_f64(),
        events as f64 / appending.as_secs_f64(),
        behind as f64 / followers.max(1) as f64
    );
    let want = events * followers as u64;
    let wait = Instant::now() + Duration::from_secs(60);
    while seen.load(Ordering::Relaxed) < want && Instant::now() < wait {
        std::thread::sleep(Duration::from_millis(100));
    }
    let took = start.elapsed();
    let (cpu1, rss2) = usage(pid);
    let delivered = seen.load(Ordering::Relaxed);
    let cpu = cpu1.saturating_sub(cpu0);
    println!(
        "with {followers} followers at {:.0} events/s (the boards' and the probe's): append p50 {} p99 {}",
        events as f64 / took.as_secs_f64(),
        ms(q50),
        ms(q99)
    );
    println!(
        "server CPU {:.2} s for {delivered} deliveries ({} events): {:.2} µs per delivered event, {:.1} µs per appended event; RSS {rss2} KiB",
        cpu.as_secs_f64(),
        events,
        cpu.as_secs_f64() * 1e6 / delivered.max(1) as f64,
        cpu.as_secs_f64() * 1e6 / events.max(1) as f64
    );
    // Counted by their `id:` lines: in order and once each is what the
    // tests check (`tests/followers.rs`, `tests/catchup.rs`).
    println!("events received by the followers: {delivered} of {want} due");
    println!(
        "form {}: {:.0} bytes received per delivery (the response heads included)",
        std::env::var("FORM").unwrap_or_else(|_| "full".into()),
        bytes.load(Ordering::Relaxed) as f64 / delivered.max(1) as f64
    );
    let m = ureq::get(&format!("{url}/metrics"))
        .call()
        .expect("metrics")
        .into_string()
        .unwrap_or_default();
    for l in m.lines().filter(|l| {
        l.starts_with("kifu_feed_deferred_total")
            || l.starts_with("kifu_feed_resumes_total")
            || l.starts_with("kifu_feed_catchup_pages_total")
    }) {
        println!("server: {l}");
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }

    // Idle connections, from other loopback addresses (each under its
    // share), then the latency again.
    let held: Vec<TcpStream> = (0..idle)
        .filter_map(|i| {
            let from = Ipv4Addr::new(127, 0, 2, 1 + (i % 200) as u8);
            let s =
                socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).ok()?;
            s.bind(&SocketAddr::new(IpAddr::V4(from), 0).into()).ok()?;
            s.connect(&addr.into()).ok()?;
            Some(s.into())
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let (i50, i99) = probe(&url, 1000, "with idle");
    println!(
        "with {} idle connections: append p50 {} p99 {}",
        held.len(),
        ms(i50),
        ms(i99)
    );
    drop(held);
    drop(child.stdin.take());
    let _ = child.wait();
}
