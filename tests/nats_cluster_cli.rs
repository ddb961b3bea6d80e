//! The NATS feed when a node is lost, end to end with the `kifu` binary on
//! real `nats-server` processes (loopback ports picked free, stopped by
//! process id, every wait bounded):
//!
//! - on a three-node cluster (replicas 3), the node leading the stream is
//!   SIGKILLed; while it is down `kifu feed --nats --from-start` runs ten
//!   times and prints every event once each time; a game published then
//!   reaches a mirror that ran through the loss and one started after it;
//!   `kifu serve --nats` against the replicas-3 stream with the
//!   default of one replica refuses to start, saying why;
//! - a `kifu serve --nats` started while NATS is away serves and says so;
//!   one whose NATS goes away answers `/healthz` degraded
//!   within seconds, counts the backlog in `/metrics`, says so in its log,
//!   and publishes everything once NATS is back.

mod common;
use common::*;

#[path = "../crates/kifu-nats/tests/support/mod.rs"]
mod nats_support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

/// `kifu --data DATA ARGS...` to its end, at most `limit` (then it is
/// killed and the test fails).
fn run_bounded(data: &std::path::Path, args: &[&str], limit: Duration) -> std::process::Output {
    let mut child = kifu()
        .arg("--data")
        .arg(data)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    // Both pipes are read while it runs, so that it never blocks on one.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reading = std::thread::spawn(move || {
        use std::io::Read;
        let (mut o, mut e) = (Vec::new(), Vec::new());
        let errs = std::thread::spawn(move || {
            let _ = err.read_to_end(&mut e);
            e
        });
        let _ = out.read_to_end(&mut o);
        (o, errs.join().unwrap_or_default())
    });
    let Some(status) = wait_bounded(&mut child, limit) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("kifu {args:?} did not end within {limit:?}");
    };
    let (stdout, stderr) = reading.join().unwrap();
    std::process::Output {
        status,
        stdout,
        stderr,
    }
}

/// NDJSON lines of a successful run, without `stream_seq`.
fn records(out: &std::process::Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "kifu failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("NDJSON");
            v.as_object_mut().unwrap().remove("stream_seq");
            v
        })
        .collect()
}

/// Feed lines sorted by their cursor at the publishing store.
fn by_cursor(mut v: Vec<Value>) -> Vec<Value> {
    v.sort_by_key(|l| l["cursor"].as_u64());
    v
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The stream's state, asked until it answers (bounded).
fn stream_state(url: &str, limit: Duration) -> kifu_nats::StreamState {
    let rt = runtime();
    let deadline = Instant::now() + limit;
    loop {
        let r = rt.block_on(async {
            tokio::time::timeout(
                Duration::from_secs(10),
                kifu_nats::stream_state(url, "KIFU"),
            )
            .await
        });
        match r {
            Ok(Ok(s)) if s.leader.is_some() => return s,
            other => {
                assert!(
                    Instant::now() < deadline,
                    "the stream's state: {other:?} after {limit:?}"
                );
                std::thread::sleep(Duration::from_millis(250));
            }
        }
    }
}

#[test]
fn feed_and_mirror_go_on_while_the_stream_leader_is_down() {
    let Some(bin) = nats_support::nats_server("nats cluster cli test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut cluster = nats_support::Cluster::start(&bin, &t.path().join("nats"), 3);
    let urls = cluster.urls();
    let venue = t.path().join("venue");
    ok(&run(&venue, &["demo"]));
    ok(&run(&venue, &["demo"]));
    let local = records(&run(&venue, &["feed"]));
    let n = local.len();

    let publisher = Running::start(
        &venue,
        &["publish", "--nats", &urls, "--nats-replicas", "3"],
    );
    publisher.wait_line("publishing from the first record", Duration::from_secs(90));
    publisher.wait_line(
        &format!("published up to cursor {n} "),
        Duration::from_secs(90),
    );
    publisher.stop();
    // The old spelling of the flag is still taken, and a publisher started
    // again says where it resumes.
    let publisher = Running::start(&venue, &["publish", "--nats", &urls, "--replicas", "3"]);
    publisher.wait_line(
        &format!("resuming after cursor {}", n - 1),
        Duration::from_secs(90),
    );
    publisher.stop();

    // A server asked for one replica refuses the replicas-3 stream, at once
    // and with the reason.
    let mut serve = kifu()
        .arg("--data")
        .arg(t.path().join("other-venue"))
        .args(["serve", "--listen", "127.0.0.1:0", "--nats", &urls])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_bounded(&mut serve, Duration::from_secs(30));
    let Some(status) = status else {
        let _ = serve.kill();
        let _ = serve.wait();
        panic!("kifu serve --nats started against a stream it cannot use");
    };
    let out = serve.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!status.success());
    assert!(
        stderr.contains("it has 3 replicas, 1 were asked for"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("listening on"));
    assert!(
        !t.path().join("other-venue").exists(),
        "nothing written when refused"
    );

    // A mirror that runs through the loss.
    let running = t.path().join("archive-running");
    let mirror = Running::start(&running, &["mirror", "--nats", &urls]);
    mirror.wait_line(&format!("{n} written"), Duration::from_secs(90));

    // The node leading the stream is lost.
    let state = stream_state(&urls, Duration::from_secs(60));
    assert_eq!(state.messages, n as u64);
    assert_eq!(state.replicas, 3);
    let leader = state.leader.unwrap();
    let i: usize = leader.trim_start_matches('n').parse().unwrap();
    cluster.kill(i);
    // Ten readers from the start while it is down: each prints every event
    // once (retries, if any, are said on stderr).
    let want = by_cursor(local.clone());
    let mut retried = 0;
    for run_no in 0..10 {
        let out = run_bounded(
            &venue,
            &["feed", "--nats", &urls, "--from-start"],
            Duration::from_secs(150),
        );
        // The stream holds each game in chain order, games interleaved as
        // the publisher sent them: compared in cursor order.
        let got = by_cursor(records(&out));
        assert!(
            got == want,
            "run {run_no}: {} records, {} distinct, {} expected; stderr {}",
            got.len(),
            got.iter()
                .map(|v| v["hash"].to_string())
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            want.len(),
            String::from_utf8_lossy(&out.stderr)
        );
        if String::from_utf8_lossy(&out.stderr).contains("retrying") {
            retried += 1;
        }
    }
    eprintln!("{retried} of 10 readers retried while node {leader} was down");

    // The venue records another game and publishes it while the node is
    // down: the running mirror catches up, and so does one started now.
    ok(&run(&venue, &["demo"]));
    let n2 = records(&run(&venue, &["feed"])).len();
    let publisher = Running::start(
        &venue,
        &["publish", "--nats", &urls, "--nats-replicas", "3"],
    );
    publisher.wait_line(
        &format!("published up to cursor {n2} "),
        Duration::from_secs(90),
    );
    publisher.stop();
    mirror.wait_line(&format!("{n2} written"), Duration::from_secs(90));
    mirror.stop();
    let archive = t.path().join("archive");
    // One durable consumer per mirror.
    let fresh = Running::start(
        &archive,
        &["mirror", "--nats", &urls, "--durable", "second-archive"],
    );
    fresh.wait_line(&format!("{n2} written"), Duration::from_secs(90));
    fresh.stop();
    for a in [&running, &archive] {
        ok(&run(a, &["verify"]));
        assert_eq!(records(&run(a, &["feed"])).len(), n2);
    }
    cluster.restart(i);
}

fn get(url: &str) -> (u16, String) {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(10))
        .build();
    match agent.get(url).call() {
        Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
        Err(e) => panic!("{url}: {e}"),
    }
}

/// Polls `f` every 250 ms until it is true, at most `limit`.
fn wait_for(what: &str, limit: Duration, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The number after `name ` in a Prometheus text.
fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
}

#[test]
fn a_server_whose_nats_goes_away_says_so_and_publishes_everything_when_it_is_back() {
    let Some(bin) = nats_support::nats_server("nats outage cli test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut nats = nats_support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = nats.url(0);
    let venue = t.path().join("venue");
    // A server started while NATS is away serves, says so, and reports the
    // feed degraded until NATS answers.
    nats.kill(0);
    let server = Served::start(&venue, &["--nats", &url]);
    wait_for(
        "the log to say NATS is away",
        Duration::from_secs(10),
        || server.stderr().contains("is not usable yet"),
    );
    let keys = t.path().join("client");
    let demo = |()| {
        let o = kifu()
            .arg("--data")
            .arg(&keys)
            .args(["--server", &server.url, "demo"])
            .output()
            .unwrap();
        ok(&o);
    };
    let health = |()| {
        let (code, body) = get(&format!("{}/healthz", server.url));
        (code, serde_json::from_str::<Value>(&body).unwrap())
    };
    wait_for(
        "/healthz degraded at start",
        Duration::from_secs(20),
        || health(()).0 == 503,
    );
    nats.restart(0);
    demo(());
    wait_for("the first publications", Duration::from_secs(60), || {
        let (code, v) = health(());
        code == 200 && v["nats"]["backlog"] == 0
    });

    // NATS goes away; appends go on.
    nats.kill(0);
    demo(());
    wait_for("/healthz to say degraded", Duration::from_secs(20), || {
        health(()).0 == 503
    });
    let (_, v) = health(());
    assert_eq!(v["status"], "degraded", "{v}");
    assert_eq!(v["nats"]["publishing"], false, "{v}");
    assert!(v["nats"]["error"].is_string(), "{v}");
    let backlog = v["nats"]["backlog"].as_u64().unwrap();
    assert!(backlog > 0, "{v}");
    let (code, live) = get(&format!("{}/livez", server.url));
    assert_eq!((code, live.contains("alive")), (200, true));
    let (_, metrics) = get(&format!("{}/metrics", server.url));
    assert_eq!(
        metric(&metrics, "kifu_nats_backlog_records"),
        Some(backlog as f64)
    );
    assert_eq!(metric(&metrics, "kifu_nats_publishing"), Some(0.0));
    assert!(metric(&metrics, "kifu_nats_failures_total").unwrap() >= 1.0);
    wait_for("the log to say why", Duration::from_secs(10), || {
        let log = server.stderr();
        log.contains("publishing to NATS paused") && log.contains("records waiting")
    });

    // NATS is back: everything is published, once, in the local order.
    nats.restart(0);
    wait_for("publishing again", Duration::from_secs(90), || {
        let (code, v) = health(());
        code == 200 && v["nats"]["backlog"] == 0
    });
    let local = records(
        &kifu()
            .args(["--server", &server.url, "feed"])
            .output()
            .unwrap(),
    );
    let streamed = records(&run(&keys, &["feed", "--nats", &url, "--from-start"]));
    assert!(
        by_cursor(streamed.clone()) == by_cursor(local.clone()),
        "{} records streamed, {} stored",
        streamed.len(),
        local.len()
    );
    let (_, metrics) = get(&format!("{}/metrics", server.url));
    assert_eq!(metric(&metrics, "kifu_nats_backlog_records"), Some(0.0));
    assert_eq!(metric(&metrics, "kifu_nats_publishing"), Some(1.0));
    wait_for(
        "the log to say it works again",
        Duration::from_secs(10),
        || server.stderr().contains("publishing to NATS again"),
    );
    server.stop();
}
