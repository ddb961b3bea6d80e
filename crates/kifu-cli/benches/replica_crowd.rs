#![allow(missing_docs)]
//! A crowd on a read replica, the boards on the venue: does the venue's
//! append stay fast, and does every spectator get every record, while a
//! JetStream node is lost?
//!
//! The claim measured: `FOLLOWERS` (5,000) whole-feed followers of a
//! replica (`kifu serve --replica-of`) fed by a 3-node JetStream cluster,
//! one node stopped halfway, while the venue (`kifu serve --nats`) takes
//! `RATE` appends a second; the venue's append p99 stays at most twice its
//! p99 without the crowd, and every follower ends with every record, once,
//! in order.
//!
//! ```text
//! cargo bench -p kifu-cli --bench replica_crowd
//! FOLLOWERS=50 RATE=20 SECS=4 cargo bench -p kifu-cli --bench replica_crowd
//! VENUE_CPUS=0 REPLICA_CPUS=1 FOLLOWERS=5000 RATE=100 SECS=30 \
//!   taskset -c 2-7 cargo bench -p kifu-cli --bench replica_crowd
//! ```
//!
//! Every process is real: three `nats-server` nodes (`/usr/sbin/nats-server`
//! or on `PATH`; the bench says so and exits 0 without one) on free
//! loopback ports, the stream with 3 replicas; the venue and the replica
//! are the built `kifu` binary, each in a process of its own
//! (`VENUE_CPUS`, `REPLICA_CPUS`: run it under `taskset -c`; `REALTIME=N`:
//! the venue with `--realtime-priority N`, and this process's boards'
//! threads real-time at N too, as tablets of their own), their CPU
//! time and resident memory read from `/proc/PID`. The followers run in
//! this process on a tokio runtime, one connection each, all from
//! 127.0.0.1: the replica is started with its per-client bounds
//! (`--max-streams-per-client`, `--max-connections-per-client`) and its
//! totals raised above `FOLLOWERS`, and this process raises its own soft
//! limit on open files to the hard one (it says which; with a hard limit
//! below `FOLLOWERS` + 256 some followers cannot connect and the check
//! fails).
//!
//! The run:
//!
//! 1. **Alone.** `BOARDS` (10) boards append `RATE` events/s in all for
//!    `SECS` seconds, one signed record a request, each append timed; the
//!    replica follows, no follower is connected.
//! 2. **The crowd.** Once the replica holds everything, `FOLLOWERS` open
//!    `GET /feed/stream` on it (`FORM=full` lines, or `FORM=compact`) from
//!    its live end; then the same appends again, timed. At half time one
//!    nats node is killed (`STOP=leader`, the default: the node leading
//!    the stream; `STOP=other`: one that does not; `STOP=none`); which
//!    one is printed.
//! 3. **The end.** The bench waits (at most `WAIT` seconds, 120) for every
//!    follower to reach the venue's last record, then checks each one's
//!    venue cursors (each line's `venue_cursor`): every record of the
//!    crowd phase, once, in order. A follower asked to resume (`event:
//!    resume`) or whose stream ends comes back with `Last-Event-ID`, as a
//!    browser does (`MAX_FOLLOWER_LAG=N` passes `--max-follower-lag N` to
//!    the replica, to see that path taken).
//!
//! It prints the append p50 / p99 / max alone and with the crowd, events
//! appended and deliveries, the replica's lag behind the venue (in
//! records: the most seen, when the appends stopped, at the end), the
//! replica's and the venue's CPU per event and per delivery and their
//! resident memory, and how many followers are complete (N of N). It exits
//! 1 when any follower missed, repeated or reordered a record, and 2 when
//! the run could not be made (a server that did not start, an append
//! refused). The boards keep to a schedule: an append due while the one
//! before it is still waiting is sent when that one is answered, and timed
//! from then, not from when it was due.
//! `FAULT=drop` (or `FAULT=repeat`) has the check of the first follower
//! lose (or count twice) one record, to show that the check fails then.
//! Every wait is bounded in count and time, and every process (the nodes,
//! the venue, the replica) is killed by its pid at the end, on failure
//! too, and on Ctrl-C.

#[path = "replica_crowd/check.rs"]
mod check;
#[path = "../../kifu-nats/tests/support/mod.rs"]
mod nats_support;

use std::fs::File;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use rustix::process::{kill_process, Pid, Signal};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use check::{EventBody, Field, Tally};

/// The longest wait for a server to say where it listens.
const START_WAIT: Duration = Duration::from_secs(30);
/// The longest a follower waits to connect and for the answer's head.
const CONNECT_WAIT: Duration = Duration::from_secs(10);
/// How often a follower comes back after its stream ended, at most.
const MAX_RECONNECTS: u32 = 50;
/// Followers connecting at once (a listen backlog overrun costs a second
/// per retransmitted SYN).
const CONNECTING_AT_ONCE: usize = 200;

fn env(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// The processes this bench started and has not yet stopped, so that a
/// run interrupted with Ctrl-C kills them too.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// The directory the run keeps its data in, removed on Ctrl-C too.
static DATA: Mutex<Option<std::path::PathBuf>> = Mutex::new(None);

fn running(pid: u32) {
    if let Ok(mut r) = RUNNING.lock() {
        r.push(pid);
    }
}

fn stopped(pid: u32) {
    if let Ok(mut r) = RUNNING.lock() {
        r.retain(|p| *p != pid);
    }
}

fn main() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(r) = RUNNING.lock() {
            for pid in r.iter() {
                if let Some(p) = i32::try_from(*pid).ok().and_then(Pid::from_raw) {
                    let _ = kill_process(p, Signal::KILL);
                }
            }
        }
        if let Some(dir) = DATA.lock().ok().and_then(|d| d.clone()) {
            let _ = std::fs::remove_dir_all(dir);
        }
        std::process::exit(130);
    });
    let code = run();
    // Every process was killed when `run` returned (their guards dropped).
    std::process::exit(code);
}

/// A process this bench started, killed by its pid when dropped.
struct Proc {
    child: Child,
}

impl Proc {
    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        stopped(self.child.id());
    }
}

/// Starts `kifu --data DATA serve --listen 127.0.0.1:0 EXTRA...` (under
/// `taskset -c CPUS` when `cpus` is set), its output in files beside the
/// data directory, and waits (bounded) for its address.
/// `REALTIME=N` ([`serve`], [`appends`]).
fn realtime() -> Option<u8> {
    std::env::var("REALTIME").ok().and_then(|v| v.parse().ok())
}

fn serve(
    name: &'static str,
    data: &Path,
    cpus: Option<String>,
    extra: &[String],
) -> Result<(Proc, String), String> {
    let kifu = env!("CARGO_BIN_EXE_kifu");
    let mut cmd = match &cpus {
        Some(c) => {
            let mut t = Command::new("taskset");
            t.args(["-c", c]).arg(kifu);
            t
        }
        None => Command::new(kifu),
    };
    let out_path = data.with_extension("out");
    let err_path = data.with_extension("err");
    let out = File::create(&out_path).map_err(|e| e.to_string())?;
    let err = File::create(&err_path).map_err(|e| e.to_string())?;
    let child = cmd
        .arg("--data")
        .arg(data)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .map_err(|e| format!("{name}: kifu serve did not start: {e}"))?;
    running(child.id());
    let mut p = Proc { child };
    let began = Instant::now();
    while began.elapsed() < START_WAIT {
        let said = std::fs::read_to_string(&out_path).unwrap_or_default();
        if let Some(url) = said
            .lines()
            .find_map(|l| l.trim().strip_prefix("listening on "))
        {
            return Ok((p, url.to_string()));
        }
        if let Ok(Some(st)) = p.child.try_wait() {
            let why = std::fs::read_to_string(&err_path).unwrap_or_default();
            return Err(format!("{name}: kifu serve exited with {st}: {why}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(p);
    Err(format!(
        "{name}: kifu serve did not say where it listens within {START_WAIT:?}"
    ))
}

/// A process's CPU time (user and system) and resident memory in KiB.
fn usage(pid: u32) -> (Duration, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which may hold spaces.
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of the line: 11 and 12 after the
    // command name.
    let hz = rustix::param::clock_ticks_per_second().max(1);
    let cpu = Duration::from_micros((ticks(11) + ticks(12)) * 1_000_000 / hz);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kib = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    (cpu, rss_kib)
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build()
}

/// A server's `next_cursor` (`/healthz`), or `None` when it did not answer.
fn next_cursor(agent: &ureq::Agent, url: &str) -> Option<u64> {
    // A degraded server (a node lost) answers 503 with the same body.
    let r = match agent.get(&format!("{url}/healthz")).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(_) => return None,
    };
    r.into_json::<serde_json::Value>().ok()?["next_cursor"].as_u64()
}

/// One record a request; the time it took.
fn post(agent: &ureq::Agent, url: &str, r: &Record) -> Result<Duration, String> {
    let t = Instant::now();
    let answer = agent
        .post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&r.to_stored())
        .map_err(|e| format!("an append was refused: {e}"))?;
    let took = t.elapsed();
    if answer.status() != 200 {
        return Err(format!("an append answered {}", answer.status()));
    }
    Ok(took)
}

/// Appends timed: `boards` boards, `rate` events/s in all, for `secs`
/// seconds, one record a request; each board's genesis first (not timed).
/// The appends' times and how many records were appended.
fn appends(
    url: &str,
    rate: usize,
    secs: usize,
    boards: usize,
    tag: &str,
) -> Result<(Vec<Duration>, u64), String> {
    let per_board = rate * secs / boards;
    let every = Duration::from_secs_f64(boards as f64 / rate.max(1) as f64);
    let threads: Vec<_> = (0..boards)
        .map(|b| {
            let (url, title) = (url.to_string(), format!("{tag} {b}"));
            std::thread::spawn(move || -> Result<(Vec<Duration>, u64), String> {
                if let Some(p) = realtime() {
                    kifu_server::sched::realtime(p).map_err(|e| format!("REALTIME: {e}"))?;
                }
                let cast = Cast::new();
                let agent = agent();
                let mut g = ChainBuilder::start(&cast.referee, cast.genesis(&title), 0);
                post(&agent, &url, &g.records[0])?;
                let mut took = Vec::with_capacity(per_board);
                // The boards start apart, so that their appends do not
                // arrive together.
                let t0 = Instant::now() + every.mul_f64(b as f64 / boards as f64);
                for i in 0..per_board {
                    let player = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let r = g
                        .push(&cast.recorder, Body::ClockPressed { player })
                        .clone();
                    let due = t0 + every * i as u32;
                    if let Some(w) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(w);
                    }
                    took.push(post(&agent, &url, &r)?);
                }
                Ok((took, per_board as u64 + 1))
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut appended = 0;
    for t in threads {
        let (took, n) = t
            .join()
            .map_err(|_| "a board's thread panicked".to_string())??;
        all.extend(took);
        appended += n;
    }
    all.sort();
    Ok((all, appended))
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// p50, p99 and max of sorted times.
fn quantiles(sorted: &[Duration]) -> (Duration, Duration, Duration) {
    if sorted.is_empty() {
        return Default::default();
    }
    let at = |p: f64| sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)];
    (at(0.5), at(0.99), sorted[sorted.len() - 1])
}

/// What the followers share with the bench.
struct Crowd {
    /// Set when the bench is done waiting: every follower stops.
    stop: AtomicBool,
    /// Followers whose stream is open (they read the answer's head).
    open: AtomicUsize,
    /// Records received by all of them.
    deliveries: AtomicU64,
    /// Times a follower came back after its stream ended.
    reconnects: AtomicU64,
    /// Each follower's next venue cursor due.
    next: Vec<AtomicU64>,
    /// Why followers gave up, the first few.
    errors: Mutex<Vec<String>>,
}

impl Crowd {
    fn note(&self, e: String) {
        if let Ok(mut v) = self.errors.lock() {
            if v.len() < 10 {
                v.push(e);
            }
        }
    }
}

/// A fault the check of the first follower is told to make (`FAULT`), to
/// show that the check fails then.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Planted {
    None,
    /// Its second record is lost in the check.
    Drop,
    /// Its second record is counted twice.
    Repeat,
}

/// One follower's place in the crowd.
#[derive(Clone)]
struct Follower {
    /// The replica.
    addr: std::net::SocketAddr,
    /// The replica's cursor to follow after (`None`: from the start).
    after: Option<u64>,
    /// The venue cursor of the first record due.
    start: u64,
    /// `full` or `compact` lines.
    form: String,
    /// Its index in [`Crowd::next`].
    me: usize,
    planted: Planted,
}

/// What one follower has: its tally, the last id its stream named, and
/// whether it was asked to resume.
struct Seen {
    tally: Tally,
    last_id: Option<u64>,
    resume: bool,
    planted: Planted,
}

impl Seen {
    fn take(&mut self, field: Field, crowd: &Crowd, me: usize) {
        match field {
            Field::Id(n) => self.last_id = Some(n),
            Field::Record { venue_cursor } => {
                crowd.deliveries.fetch_add(1, Ordering::Relaxed);
                let second = self.tally.received() == 1;
                match std::mem::replace(&mut self.planted, Planted::None) {
                    Planted::Drop if second => {}
                    Planted::Repeat if second => {
                        self.tally.see(venue_cursor);
                        self.tally.see(venue_cursor);
                    }
                    other => {
                        self.planted = other;
                        self.tally.see(venue_cursor);
                    }
                }
                crowd.next[me].store(self.tally.next(), Ordering::Relaxed);
            }
            Field::Resume => self.resume = true,
            Field::DataWithoutVenueCursor | Field::Other => {}
        }
    }
}

/// One follower: `GET /feed/stream` on the replica, coming back with
/// `Last-Event-ID` when the stream ends, until the bench stops it; its
/// tally of the venue cursors received.
async fn follow(f: Follower, crowd: Arc<Crowd>, connecting: Arc<tokio::sync::Semaphore>) -> Tally {
    let me = f.me;
    let mut seen = Seen {
        tally: Tally::new(f.start),
        last_id: f.after,
        resume: false,
        planted: f.planted,
    };
    let mut first = true;
    let mut buf = vec![0u8; 8 << 10];
    for attempt in 0..=MAX_RECONNECTS {
        if crowd.stop.load(Ordering::Relaxed) {
            break;
        }
        if attempt > 0 {
            crowd.reconnects.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let permit = connecting.clone().acquire_owned().await;
        let opened = tokio::time::timeout(CONNECT_WAIT, open(f.addr, seen.last_id, &f.form)).await;
        drop(permit);
        let (mut s, chunked, rest) = match opened {
            Ok(Ok(o)) => o,
            Ok(Err(e)) => {
                crowd.note(format!("follower {me}: {e}"));
                continue;
            }
            Err(_) => {
                crowd.note(format!("follower {me}: no answer within {CONNECT_WAIT:?}"));
                continue;
            }
        };
        if first {
            crowd.open.fetch_add(1, Ordering::Relaxed);
            first = false;
        }
        let mut body = EventBody::new(chunked);
        seen.resume = false;
        let mut pushed = body.push(&rest, |field| seen.take(field, &crowd, me));
        while pushed.is_ok() && !seen.resume && !body.ended() {
            // Reads wake at least twice a second to see the stop flag.
            let n = loop {
                if crowd.stop.load(Ordering::Relaxed) {
                    return seen.tally;
                }
                if let Ok(r) =
                    tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf)).await
                {
                    break r;
                }
            };
            match n {
                Ok(0) => break,
                Ok(n) => pushed = body.push(&buf[..n], |field| seen.take(field, &crowd, me)),
                Err(e) => {
                    crowd.note(format!("follower {me}: {e}"));
                    break;
                }
            }
        }
        if let Err(e) = pushed {
            crowd.note(format!("follower {me}: {e}"));
        }
    }
    seen.tally
}

/// Opens the stream: the connection, whether the body is chunked, and the
/// body's bytes read with the head.
async fn open(
    addr: std::net::SocketAddr,
    after: Option<u64>,
    form: &str,
) -> Result<(TcpStream, bool, Vec<u8>), String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let resume = after
        .map(|a| format!("Last-Event-ID: {a}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "GET /feed/stream?form={form} HTTP/1.1\r\nHost: replica\r\nAccept: text/event-stream\r\n{resume}\r\n"
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        if let Some(i) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if head.len() > 64 << 10 {
            return Err("an answer's head longer than 64 KiB".into());
        }
        let n = s.read(&mut buf).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the connection closed before the answer's head".into());
        }
        head.extend_from_slice(&buf[..n]);
    };
    let text = String::from_utf8_lossy(&head[..end]).to_ascii_lowercase();
    let status = text.split_whitespace().nth(1).unwrap_or("");
    if status != "200" {
        let first = text.lines().next().unwrap_or("").to_string();
        return Err(format!("the replica answered {first}"));
    }
    let chunked = text
        .lines()
        .any(|l| l.starts_with("transfer-encoding:") && l.contains("chunked"));
    Ok((s, chunked, head[end..].to_vec()))
}

/// The replica's lag behind the venue, in records, sampled until stopped.
struct Lag {
    most: AtomicU64,
    last: AtomicU64,
    stop: AtomicBool,
}

fn watch_lag(venue: String, replica: String, lag: Arc<Lag>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(2))
            .build();
        while !lag.stop.load(Ordering::Relaxed) {
            if let (Some(v), Some(r)) = (next_cursor(&agent, &venue), next_cursor(&agent, &replica))
            {
                let behind = v.saturating_sub(r);
                lag.last.store(behind, Ordering::Relaxed);
                lag.most.fetch_max(behind, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    })
}

/// Waits at most `limit` for `f`, looking every `every`.
fn wait_for(limit: Duration, every: Duration, mut f: impl FnMut() -> bool) -> bool {
    let began = Instant::now();
    loop {
        if f() {
            return true;
        }
        if began.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(every);
    }
}

fn run() -> i32 {
    match bench() {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("replica_crowd: {e}");
            2
        }
    }
}

/// The whole run; `Ok(false)` when a follower is not complete. Every
/// process it starts is killed when it returns, whichever way.
fn bench() -> Result<bool, String> {
    let followers = env("FOLLOWERS", 5000);
    let rate = env("RATE", 100).max(1);
    let secs = env("SECS", 30).max(2);
    let boards = env("BOARDS", 10).clamp(1, rate.max(1));
    let wait = Duration::from_secs(env("WAIT", 120) as u64);
    let form = std::env::var("FORM").unwrap_or_else(|_| "full".into());
    let stop_which = std::env::var("STOP").unwrap_or_else(|_| "leader".into());
    let planted = match std::env::var("FAULT").as_deref() {
        Ok("drop") => Planted::Drop,
        Ok("repeat") => Planted::Repeat,
        _ => Planted::None,
    };
    let Some(bin) = nats_support::nats_server("replica_crowd") else {
        return Ok(true);
    };
    let files = kifu_server::conn::raise_open_files_limit().unwrap_or(0);
    println!(
        "replica crowd: FOLLOWERS={followers} RATE={rate} SECS={secs} BOARDS={boards} FORM={form} STOP={stop_which}; this process's open files limit: {files}"
    );
    if (files as usize) < followers + 256 {
        println!(
            "  the limit is below FOLLOWERS + 256: some followers will not connect (raise `ulimit -Hn`)"
        );
    }

    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    if let Ok(mut d) = DATA.lock() {
        *d = Some(dir.path().to_path_buf());
    }
    let mut cluster = nats_support::Cluster::start(&bin, &dir.path().join("nats"), 3);
    let node_pids: Vec<Option<u32>> = cluster
        .nodes
        .iter()
        .map(|n| n.child.as_ref().map(|c| c.id()))
        .collect();
    node_pids.iter().flatten().for_each(|p| running(*p));
    let urls = cluster.urls();
    let (venue, venue_url) = serve(
        "venue",
        &dir.path().join("venue"),
        std::env::var("VENUE_CPUS").ok(),
        &[
            "--nats".into(),
            urls.clone(),
            "--nats-replicas".into(),
            "3".into(),
        ]
        .into_iter()
        .chain(realtime().map(|p| format!("--realtime-priority={p}")))
        .collect::<Vec<String>>(),
    )?;
    let room = followers + 16;
    let mut replica_args: Vec<String> = vec![
        "--replica-of".into(),
        urls.clone(),
        "--venue".into(),
        venue_url.clone(),
        "--max-streams".into(),
        room.to_string(),
        "--max-streams-per-client".into(),
        room.to_string(),
        "--max-connections".into(),
        (followers + 256).to_string(),
        "--max-connections-per-client".into(),
        (followers + 256).to_string(),
    ];
    if let Ok(lag) = std::env::var("MAX_FOLLOWER_LAG") {
        replica_args.extend(["--max-follower-lag".into(), lag]);
    }
    let (replica, replica_url) = serve(
        "replica",
        &dir.path().join("replica"),
        std::env::var("REPLICA_CPUS").ok(),
        &replica_args,
    )?;
    println!(
        "venue pid {} at {venue_url}, replica pid {} at {replica_url}, nats {urls}",
        venue.pid(),
        replica.pid()
    );
    let http = agent();

    // 1. Alone: the appends timed with no follower.
    let (alone, _) = appends(&venue_url, rate, secs, boards, "alone")?;
    let (a50, a99, amax) = quantiles(&alone);
    println!(
        "append alone ({rate} events/s for {secs} s, {} timed): p50 {} p99 {} max {}",
        alone.len(),
        ms(a50),
        ms(a99),
        ms(amax)
    );

    // 2. The crowd, from the live end of a replica that holds everything.
    let start = next_cursor(&http, &venue_url).ok_or("the venue did not answer /healthz")?;
    let mut replica_next = 0;
    if !wait_for(Duration::from_secs(120), Duration::from_millis(250), || {
        replica_next = next_cursor(&http, &replica_url).unwrap_or(0);
        replica_next >= start
    }) {
        return Err(format!(
            "the replica holds {replica_next} of the venue's {start} records after 120 s"
        ));
    }
    let addr: std::net::SocketAddr = replica_url
        .trim_start_matches("http://")
        .parse()
        .map_err(|e| format!("the replica's address {replica_url}: {e}"))?;
    let crowd = Arc::new(Crowd {
        stop: AtomicBool::new(false),
        open: AtomicUsize::new(0),
        deliveries: AtomicU64::new(0),
        reconnects: AtomicU64::new(0),
        next: (0..followers).map(|_| AtomicU64::new(start)).collect(),
        errors: Mutex::new(Vec::new()),
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let connecting = Arc::new(tokio::sync::Semaphore::new(CONNECTING_AT_ONCE));
    let spawned: Vec<_> = (0..followers)
        .map(|me| {
            let f = Follower {
                addr,
                after: replica_next.checked_sub(1),
                start,
                form: form.clone(),
                me,
                planted: if me == 0 { planted } else { Planted::None },
            };
            rt.spawn(follow(f, crowd.clone(), connecting.clone()))
        })
        .collect();
    let opening = Instant::now();
    wait_for(Duration::from_secs(120), Duration::from_millis(100), || {
        crowd.open.load(Ordering::Relaxed) >= followers
    });
    println!(
        "followers: {} of {followers} streams open on the replica in {:.1} s",
        crowd.open.load(Ordering::Relaxed),
        opening.elapsed().as_secs_f64()
    );
    let (_, venue_rss0) = usage(venue.pid());
    let (_, replica_rss0) = usage(replica.pid());
    println!("resident before the appends: venue {venue_rss0} KiB, replica {replica_rss0} KiB");

    // Which node to stop, chosen before the appends.
    let leader = rt
        .block_on(async {
            tokio::time::timeout(
                Duration::from_secs(20),
                kifu_nats::stream_state(&urls, kifu_nats::DEFAULT_STREAM),
            )
            .await
        })
        .ok()
        .and_then(|r| r.ok())
        .and_then(|s| s.leader);
    let leader_i = leader
        .as_deref()
        .and_then(|l| l.trim_start_matches('n').parse::<usize>().ok());
    let victim = match stop_which.as_str() {
        "none" => None,
        "other" => Some((0..3).find(|i| Some(*i) != leader_i).unwrap_or(0)),
        _ => Some(leader_i.unwrap_or(0)),
    };

    let lag = Arc::new(Lag {
        most: AtomicU64::new(0),
        last: AtomicU64::new(0),
        stop: AtomicBool::new(false),
    });
    let watcher = watch_lag(venue_url.clone(), replica_url.clone(), lag.clone());
    let (venue_cpu0, _) = usage(venue.pid());
    let (replica_cpu0, _) = usage(replica.pid());
    let began = Instant::now();
    let with = {
        let url = venue_url.clone();
        std::thread::spawn(move || appends(&url, rate, secs, boards, "with the crowd"))
    };
    if let Some(i) = victim {
        let half = Duration::from_secs_f64(secs as f64 / 2.0);
        if let Some(w) = half.checked_sub(began.elapsed()) {
            std::thread::sleep(w);
        }
        cluster.kill(i);
        if let Some(pid) = node_pids[i] {
            stopped(pid);
        }
        let role = match (leader_i, leader.as_deref()) {
            (Some(l), _) if l == i => "the stream's leader".to_string(),
            (_, Some(l)) => format!("not the stream's leader, which is {l}"),
            (_, None) => "the stream's leader was not known".to_string(),
        };
        println!(
            "stopped nats node n{i} ({role}) at {:.1} s",
            began.elapsed().as_secs_f64()
        );
    }
    let (crowded, appended) = with
        .join()
        .map_err(|_| "the appenders panicked".to_string())??;
    let appends_took = began.elapsed();
    let lag_when_stopped = next_cursor(&http, &venue_url)
        .zip(next_cursor(&http, &replica_url))
        .map(|(v, r)| v.saturating_sub(r));
    let (c50, c99, cmax) = quantiles(&crowded);
    println!(
        "append with the crowd ({rate} events/s for {secs} s, {} timed): p50 {} p99 {} max {}; p99 {:.2}x alone (aim: at most 2x)",
        crowded.len(),
        ms(c50),
        ms(c99),
        ms(cmax),
        c99.as_secs_f64() / a99.as_secs_f64().max(1e-9)
    );

    // 3. The end: every follower at the venue's last record, bounded.
    let end = next_cursor(&http, &venue_url).ok_or("the venue did not answer /healthz")?;
    let reached = || {
        crowd
            .next
            .iter()
            .filter(|n| n.load(Ordering::Relaxed) >= end)
            .count()
    };
    let waited = Instant::now();
    wait_for(wait, Duration::from_millis(250), || reached() >= followers);
    let waited = waited.elapsed();
    let (venue_cpu1, venue_rss) = usage(venue.pid());
    let (replica_cpu1, replica_rss) = usage(replica.pid());
    lag.stop.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    let lag_end = next_cursor(&http, &venue_url)
        .zip(next_cursor(&http, &replica_url))
        .map(|(v, r)| v.saturating_sub(r));
    crowd.stop.store(true, Ordering::Relaxed);
    let tallies: Vec<Option<Tally>> = rt.block_on(async {
        let mut out = Vec::with_capacity(spawned.len());
        for t in spawned {
            // Each follower sees the stop flag within half a second.
            out.push(
                tokio::time::timeout(Duration::from_secs(10), t)
                    .await
                    .ok()
                    .and_then(|r| r.ok()),
            );
        }
        out
    });
    rt.shutdown_timeout(Duration::from_secs(5));

    let deliveries = crowd.deliveries.load(Ordering::Relaxed);
    let events = end - start;
    println!(
        "events appended: {appended} in {:.1} s ({} venue records in the crowd phase); deliveries: {deliveries} of {} due; every follower at the last record {:.1} s after the appends stopped",
        appends_took.as_secs_f64(),
        events,
        events * followers as u64,
        waited.as_secs_f64()
    );
    let show = |l: Option<u64>| l.map(|v| v.to_string()).unwrap_or_else(|| "?".into());
    println!(
        "replica lag behind the venue, in records: most {}, when the appends stopped {}, at the end {}",
        lag.most.load(Ordering::Relaxed),
        show(lag_when_stopped),
        show(lag_end)
    );
    for (who, cpu0, cpu1, rss) in [
        ("replica", replica_cpu0, replica_cpu1, replica_rss),
        ("venue", venue_cpu0, venue_cpu1, venue_rss),
    ] {
        let cpu = cpu1.saturating_sub(cpu0).as_secs_f64();
        println!(
            "{who}: CPU {cpu:.2} s: {:.1} µs per event, {:.2} µs per delivery; RSS {rss} KiB",
            cpu * 1e6 / events.max(1) as f64,
            cpu * 1e6 / deliveries.max(1) as f64
        );
    }

    // The check: every follower, every record of the crowd phase, once, in
    // order.
    let mut complete = 0;
    let mut faults = Vec::new();
    for (me, t) in tallies.iter().enumerate() {
        match t {
            Some(t) => match t.verdict(end) {
                Ok(()) => complete += 1,
                Err(f) => faults.push(format!("follower {me}: {f}")),
            },
            None => faults.push(format!("follower {me}: did not stop")),
        }
    }
    println!(
        "followers complete: {complete} of {followers}; {} came back after their stream ended",
        crowd.reconnects.load(Ordering::Relaxed)
    );
    for f in faults.iter().take(10) {
        println!("  {f}");
    }
    if faults.len() > 10 {
        println!("  ... and {} more", faults.len() - 10);
    }
    if let Ok(errors) = crowd.errors.lock() {
        for e in errors.iter() {
            println!("  seen: {e}");
        }
    }
    drop(replica);
    drop(venue);
    drop(cluster);
    node_pids.iter().flatten().for_each(|p| stopped(*p));
    Ok(complete == followers)
}
