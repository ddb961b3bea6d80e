//! `kifu serve --replica-of`: read replicas fed by a real JetStream, end to
//! end with the `kifu` binary (servers on 127.0.0.1 port 0, nats-server on
//! free loopback ports, everything stopped by process id, every wait
//! bounded):
//!
//! - on one node, two replicas behind a venue (`kifu serve --nats`) hold
//!   every record the venue published, verified, with their own cursors
//!   and the venue's in each feed line; they serve the games' pages and
//!   projections as the venue does, follow the live feed, and refuse writes
//!   with 421 naming the venue; one that signs its own checkpoints serves
//!   an appeal bundle that `kifu verify` accepts;
//! - on a three-node cluster (replicas 3), a replica goes on through the
//!   loss of the node leading the stream and catches up on what the venue
//!   published meanwhile.
//!
//! Skipped, saying so, when `nats-server` is absent (unless
//! `KIFU_REQUIRE_PEERS=1`).

mod common;
use common::*;

#[path = "../crates/kifu-nats/tests/support/mod.rs"]
mod nats_support;

use std::time::{Duration, Instant};

use serde_json::Value;

fn get(url: &str) -> (u16, String) {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(40))
        .build();
    match agent.get(url).call() {
        Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
        Err(e) => panic!("{url}: {e}"),
    }
}

fn next_cursor(url: &str) -> u64 {
    let (_, body) = get(&format!("{url}/healthz"));
    serde_json::from_str::<Value>(&body).unwrap_or_default()["next_cursor"]
        .as_u64()
        .unwrap_or(0)
}

fn wait_for(what: &str, limit: Duration, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The whole feed of a server, page by page.
fn feed(url: &str) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    loop {
        let after = out
            .last()
            .map(|v| format!("&after={}", v["cursor"]))
            .unwrap_or_default();
        let (status, body) = get(&format!("{url}/feed?limit=500{after}"));
        assert_eq!(status, 200, "{body}");
        let page: Vec<Value> = body
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if page.is_empty() {
            return out;
        }
        out.extend(page);
    }
}

/// The venue's feed and a replica's hold the same records, and each
/// replica line names the venue's cursor of its record.
fn assert_same_records(venue: &[Value], replica: &[Value]) {
    assert_eq!(venue.len(), replica.len());
    let mut by_venue: Vec<&Value> = replica.iter().collect();
    by_venue.sort_by_key(|v| v["venue_cursor"].as_u64());
    for (v, r) in venue.iter().zip(by_venue) {
        assert_eq!(r["venue_cursor"], v["cursor"], "{r}");
        for k in ["hash", "game", "seq", "event_bytes", "signature", "body"] {
            assert_eq!(r[k], v[k], "{k} of {r}");
        }
    }
    // Its own cursors: 0, 1, 2... with no gap.
    let own: Vec<u64> = replica
        .iter()
        .map(|r| r["cursor"].as_u64().unwrap())
        .collect();
    assert_eq!(own, (0..replica.len() as u64).collect::<Vec<_>>());
}

#[test]
fn replicas_fed_by_jetstream_serve_the_venues_records_and_refuse_writes() {
    let Some(bin) = nats_support::nats_server("replica cli test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let cluster = nats_support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = cluster.url(0);
    let venue_dir = t.path().join("venue");
    ok(&run(&venue_dir, &["demo"]));
    let venue = Served::start(&venue_dir, &["--nats", &url]);
    let n = next_cursor(&venue.url);
    assert!(n > 0);

    // Two replicas behind the venue, each with its own consumer; the first
    // signs checkpoints of its own store with its own key.
    let key = t.path().join("replica-operator");
    ok(&run(
        &t.path().join("keys"),
        &["keygen", key.to_str().unwrap()],
    ));
    let key = format!("{}.key", key.display());
    let signing = ["--checkpoint-key", key.as_str(), "--checkpoint-every", "1"];
    let replicas: Vec<Served> = (0..2)
        .map(|i| {
            let mut args = vec!["--replica-of", &url, "--venue", &venue.url];
            if i == 0 {
                args.extend(signing);
            }
            Served::start(&t.path().join(format!("replica{i}")), &args)
        })
        .collect();
    for r in &replicas {
        wait_for(
            "a replica to hold the venue's records",
            Duration::from_secs(60),
            || next_cursor(&r.url) == n,
        );
        assert!(r.stdout().contains("replica of "), "{}", r.stdout());
    }
    let venue_feed = feed(&venue.url);
    for r in &replicas {
        assert_same_records(&venue_feed, &feed(&r.url));
    }
    // Their health names the stream, the venue and the mirror's state, and
    // the venue's its publisher's, as the schema says.
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(workspace().join("docs/schema/api-health.schema.json")).unwrap(),
    )
    .unwrap();
    let schema = jsonschema::validator_for(&schema).unwrap();
    for (u, duty) in [(&venue.url, "nats"), (&replicas[0].url, "mirror")] {
        let (status, body) = get(&format!("{u}/healthz"));
        assert_eq!(status, 200, "{body}");
        let h: Value = serde_json::from_str(&body).unwrap();
        let wrong: Vec<String> = schema.iter_errors(&h).map(|e| e.to_string()).collect();
        assert!(wrong.is_empty(), "{body}: {wrong:?}");
        assert!(h[duty].is_object(), "{body}");
    }
    let (_, body) = get(&format!("{}/healthz", replicas[0].url));
    let h: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(h["venue"], venue.url.as_str(), "{body}");
    assert_eq!(h["mirror"]["mirroring"], true, "{body}");

    // Pages and projections as the venue serves them.
    let game = venue_feed[0]["game"].as_str().unwrap().to_string();
    for path in [
        format!("/games/{game}/state"),
        format!("/games/{game}/head"),
        format!("/games/{game}/sgf"),
        format!("/games/{game}/explain.txt"),
        "/games".to_string(),
    ] {
        let (vs, vb) = get(&format!("{}{path}", venue.url));
        let (rs, rb) = get(&format!("{}{path}", replicas[0].url));
        assert_eq!((rs, &rb), (vs, &vb), "{path}");
        assert_eq!(rs, 200, "{path}");
    }
    let (status, report) = get(&format!("{}/verify", replicas[0].url));
    assert_eq!(status, 200, "{report}");
    // An appeal bundle from the replica's own signed log, checked offline.
    let mut bundle = String::new();
    wait_for("the replica's checkpoint", Duration::from_secs(60), || {
        let (status, body) = get(&format!("{}/games/{game}/bundle", replicas[0].url));
        bundle = body;
        status == 200
    });
    let file = t.path().join("appeal.kifu-bundle");
    std::fs::write(&file, &bundle).unwrap();
    ok(&run(
        &t.path().join("checker"),
        &["verify", file.to_str().unwrap()],
    ));

    // The live feed: a follower waiting on a replica gets what the venue
    // records next, with the venue's cursors.
    let waiting = {
        let u = format!("{}/feed?after={}&wait=50", replicas[1].url, n - 1);
        std::thread::spawn(move || get(&u))
    };
    std::thread::sleep(Duration::from_millis(300));
    ok(&run(
        &t.path().join("client"),
        &["--server", &venue.url, "demo"],
    ));
    let n2 = next_cursor(&venue.url);
    assert!(n2 > n);
    let (status, body) = waiting.join().unwrap();
    assert_eq!(status, 200);
    let first: Value = serde_json::from_str(body.lines().next().expect("a line")).unwrap();
    assert_eq!(first["cursor"].as_u64(), Some(n));
    assert!(first["venue_cursor"].as_u64().unwrap() >= n, "{first}");
    for r in &replicas {
        wait_for(
            "the replica to follow the venue",
            Duration::from_secs(60),
            || next_cursor(&r.url) == n2,
        );
    }
    assert_same_records(&feed(&venue.url), &feed(&replicas[1].url));

    // Writes are refused with the venue named, nothing stored; the command
    // line says so too.
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(10))
        .build();
    match agent
        .post(&format!("{}/records", replicas[0].url))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(b"not even a record")
    {
        Err(ureq::Error::Status(421, r)) => {
            assert_eq!(r.header("Location"), Some(venue.url.as_str()));
            let text = r.into_string().unwrap();
            assert!(
                text.contains(&venue.url) && text.contains("read_only_replica"),
                "{text}"
            );
        }
        other => panic!("expected 421, got {other:?}"),
    }
    let out = run(
        &t.path().join("elsewhere"),
        &["--server", &replicas[0].url, "demo"],
    );
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("read replica") && said.contains(&venue.url),
        "{said}"
    );
    assert_eq!(next_cursor(&replicas[0].url), n2);
    let (_, metrics) = get(&format!("{}/metrics", replicas[0].url));
    assert!(
        metrics.contains(&format!(
            "kifu_replica_records_total{{outcome=\"written\"}} {n2}"
        )),
        "{metrics}"
    );
    for r in replicas {
        r.stop();
    }
    venue.stop();
}

#[test]
fn a_replica_goes_on_through_the_loss_of_the_streams_leader() {
    let Some(bin) = nats_support::nats_server("replica cluster test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut cluster = nats_support::Cluster::start(&bin, &t.path().join("nats"), 3);
    let urls = cluster.urls();
    let venue_dir = t.path().join("venue");
    ok(&run(&venue_dir, &["demo"]));
    let venue = Served::start(&venue_dir, &["--nats", &urls, "--nats-replicas", "3"]);
    let n = next_cursor(&venue.url);
    let replica = Served::start(
        &t.path().join("replica"),
        &["--replica-of", &urls, "--venue", &venue.url],
    );
    wait_for(
        "the replica to hold the venue's records",
        Duration::from_secs(90),
        || next_cursor(&replica.url) == n,
    );

    // The node leading the stream is lost; the venue records another game.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let leader = rt
        .block_on(async {
            tokio::time::timeout(
                Duration::from_secs(20),
                kifu_nats::stream_state(&urls, "KIFU"),
            )
            .await
        })
        .ok()
        .and_then(|r| r.ok())
        .and_then(|s| s.leader)
        .unwrap_or_else(|| "n0".into());
    let i: usize = leader.trim_start_matches('n').parse().unwrap_or(0);
    cluster.kill(i);
    ok(&run(
        &t.path().join("client"),
        &["--server", &venue.url, "demo"],
    ));
    let n2 = next_cursor(&venue.url);
    assert!(n2 > n);
    wait_for(
        "the replica to catch up while a node is down",
        Duration::from_secs(150),
        || next_cursor(&replica.url) == n2,
    );
    assert_same_records(&feed(&venue.url), &feed(&replica.url));
    cluster.restart(i);
    replica.stop();
    venue.stop();
}
