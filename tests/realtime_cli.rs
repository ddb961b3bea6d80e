//! `kifu serve --realtime-priority N`: the async workers (which read a
//! board's request and write its answer) run under `SCHED_FIFO` at N; the
//! writer's pipeline, the threads that answer reads and every thread a
//! worker starts stay ordinary,
//! the followers of the whole feed run at `SCHED_IDLE`; a system that
//! refuses real-time scheduling refuses the start, nothing written
//! (`crates/kifu-server/src/sched.rs`, `docs/SCALE.md`).
//!
//! Which of the two this machine shows depends on whether the test may
//! have real-time threads (`CAP_SYS_NICE` or `RLIMIT_RTPRIO`): it asks
//! first, and checks the outcome that follows.

#![cfg(all(target_os = "linux", feature = "serve"))]

mod common;
use common::*;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};

/// `(name, policy, real-time priority, nice value)` of each thread of
/// process `pid` (`/proc/PID/task/TID/stat` fields 2, 41, 40 and 19).
fn threads(pid: u32) -> Vec<(String, i64, i64, i64)> {
    let mut out = Vec::new();
    for t in std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .flatten()
    {
        let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
        let stat = std::fs::read_to_string(t.path().join("stat")).unwrap_or_default();
        // After the command's closing parenthesis: field 3 on.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let field = |n: usize| f.get(n - 3).and_then(|v| v.parse().ok()).unwrap_or(-1);
        out.push((comm.trim().to_string(), field(41), field(40), field(19)));
    }
    out
}

const FIFO: i64 = 1;
const IDLE: i64 = 5;
const OTHER: i64 = 0;

#[test]
fn the_appends_threads_run_real_time_the_readers_ordinary_the_followers_idle() {
    let allowed = kifu_server::sched::check(10);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    if let Err(e) = allowed {
        // Refused before anything is opened: one line, nothing written.
        let out = run(
            &data,
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--realtime-priority",
                "10",
            ],
        );
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("--realtime-priority") && err.contains("CAP_SYS_NICE"),
            "{err}"
        );
        assert!(!data.exists(), "the data directory was made: {e}");
        return;
    }
    let served = Served::start(&data, &["--realtime-priority", "10"]);
    let url = served.url.clone();
    // A follower of the whole feed, held open.
    let addr = url.trim_start_matches("http://").to_string();
    let mut follower = TcpStream::connect(&addr).unwrap();
    follower
        .write_all(b"GET /feed/stream?after=0 HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    follower
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = [0u8; 15];
    follower.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200 OK");
    // An append (a game's genesis) and reads that run on blocking threads,
    // started by the async workers.
    let cast = Cast::new();
    let game = ChainBuilder::start(&cast.referee, cast.genesis("realtime"), 0);
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(20))
        .build();
    let r = agent
        .post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&game.records[0].to_stored());
    assert!(r.is_ok(), "{r:?}");
    for path in ["/games", "/feed?after=0&limit=10", "/healthz"] {
        let r = agent.get(&format!("{url}{path}")).call();
        assert!(r.is_ok(), "{path}: {r:?}");
    }

    let deadline = Instant::now() + Duration::from_secs(20);
    let seen = loop {
        let t = threads(served.pid());
        let has = |name: &str, policy: i64| t.iter().any(|(n, p, ..)| n == name && *p == policy);
        if (has("tokio-rt-worker", FIFO) && has("kifu-follow", IDLE)) || Instant::now() > deadline {
            break t;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // The async workers: real-time, at the priority asked.
    assert!(
        seen.iter()
            .any(|(n, p, r, _)| n == "tokio-rt-worker" && (*p, *r) == (FIFO, 10)),
        "no real-time async worker: {seen:?}"
    );
    // The blocking threads the workers started for the reads were made
    // ordinary again (they would inherit the workers' policy), at the
    // process's nice value.
    assert!(
        seen.iter()
            .any(|(n, p, ..)| n == "tokio-rt-worker" && *p == OTHER),
        "no ordinary blocking thread: {seen:?}"
    );
    let main_nice = seen.iter().find(|t| t.0 == "kifu").map(|t| t.3);
    for (n, p, _, nice) in &seen {
        if (n == "tokio-rt-worker" && *p == OTHER) || n == "kifu-verify" {
            assert_eq!(Some(*nice), main_nice, "{n}: {seen:?}");
        }
    }
    // Nothing else is real-time (the writer's pipeline, the store's I/O
    // threads it starts, the signature checkers: ordinary); the followers'
    // threads are idle, the feed's encoder ordinary.
    for name in ["kifu-verify", "kifu-commit", "kifu-sync"] {
        let t: Vec<_> = seen.iter().filter(|(n, ..)| n == name).collect();
        assert_eq!(t.len(), 1, "{name}: {seen:?}");
        assert_eq!(t[0].1, OTHER, "{name}: {seen:?}");
    }
    for (n, p, ..) in &seen {
        if *p == FIFO {
            assert_eq!(n, "tokio-rt-worker", "{n} is real-time: {seen:?}");
        }
        if n == "kifu-follow" {
            assert_eq!(*p, IDLE, "{seen:?}");
        }
        if n == "kifu-feed" {
            assert_eq!(*p, OTHER, "{seen:?}");
        }
    }
    assert!(seen.iter().any(|(n, ..)| n == "kifu-follow"), "{seen:?}");
    drop(follower);
    served.stop();
}
