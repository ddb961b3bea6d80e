//! `kifu publish`, `kifu feed --nats` and `kifu mirror` against a real
//! `nats-server` on a loopback port: the stream carries the local feed
//! verified and line for line; a publisher SIGKILLed and restarted neither
//! skips nor repeats; a durable consumer resumes; a mirror holds everything;
//! a consumer written without kifu's code (Python) verifies the stream.

mod common;
use common::*;

#[path = "../crates/kifu-nats/tests/support/mod.rs"]
mod nats_support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

/// Waits (bounded) for a line containing `want`.
fn wait_line(running: &Running, want: &str) {
    running.wait_line(want, Duration::from_secs(60));
}

fn lines(out: &std::process::Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "kifu failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("NDJSON"))
        .collect()
}

fn without_stream_seq(mut v: Vec<Value>) -> Vec<Value> {
    for l in &mut v {
        assert!(l["stream_seq"].as_u64().is_some());
        l.as_object_mut().unwrap().remove("stream_seq");
    }
    v
}

#[test]
fn publish_feed_mirror_and_an_independent_verifier() {
    let Some(bin) = nats_support::nats_server("nats cli test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let cluster = nats_support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = cluster.url(0);
    let venue = t.path().join("venue");
    assert!(run(&venue, &["demo"]).status.success());
    let local = lines(&run(&venue, &["feed"]));
    let n1 = local.len();

    // Publish; the stream then reads back as the local feed, verified.
    let publisher = Running::start(&venue, &["publish", "--nats", &url]);
    wait_line(&publisher, &format!("published up to cursor {n1} "));
    let streamed = without_stream_seq(lines(&run(
        &venue,
        &["feed", "--nats", &url, "--from-start"],
    )));
    assert_eq!(streamed, local);

    // SIGKILL the publisher, record another game meanwhile, start it again:
    // it resumes from the kept cursor; nothing is skipped or repeated.
    publisher.kill();
    assert!(run(&venue, &["demo"]).status.success());
    let local = lines(&run(&venue, &["feed"]));
    let n2 = local.len();
    assert!(n2 > n1);
    let publisher = Running::start(&venue, &["publish", "--nats", &url]);
    wait_line(&publisher, &format!("published up to cursor {n2} "));
    let streamed = without_stream_seq(lines(&run(
        &venue,
        &["feed", "--nats", &url, "--from-start"],
    )));
    assert_eq!(streamed, local);

    // One game, by id; one tournament, by name.
    let game = local[n1]["game"].as_str().unwrap().to_string();
    let one = lines(&run(
        &venue,
        &["feed", "--nats", &url, "--from-start", "--game", &game],
    ));
    assert_eq!(one.len(), n2 - n1);
    assert!(one.iter().all(|l| l["game"] == game.as_str()));
    let open = lines(&run(
        &venue,
        &[
            "feed",
            "--nats",
            &url,
            "--from-start",
            "--tournament",
            "kifu demonstration open",
        ],
    ));
    assert_eq!(open.len(), n2);
    let none = lines(&run(
        &venue,
        &[
            "feed",
            "--nats",
            &url,
            "--from-start",
            "--tournament",
            "Other Cup",
        ],
    ));
    assert!(none.is_empty());

    // A durable consumer resumes after the last line it printed.
    let first = lines(&run(
        &venue,
        &[
            "feed",
            "--nats",
            &url,
            "--durable",
            "reader",
            "--limit",
            "7",
        ],
    ));
    let rest = lines(&run(
        &venue,
        &["feed", "--nats", &url, "--durable", "reader"],
    ));
    assert_eq!(first.len(), 7);
    assert_eq!(first.len() + rest.len(), n2);
    let mut both = without_stream_seq(first);
    both.extend(without_stream_seq(rest));
    assert_eq!(both, local);

    // A federation archive mirrors the stream, verified, and stops on SIGTERM.
    let archive = t.path().join("archive");
    let mirror = Running::start(&archive, &["mirror", "--nats", &url]);
    wait_line(&mirror, &format!("{n2} written"));
    mirror.stop();
    let verify = run(&archive, &["verify"]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    let mirrored = lines(&run(&archive, &["feed"]));
    assert_eq!(mirrored.len(), n2);
    let key = |v: &Value| {
        (
            v["game"].to_string(),
            v["seq"].as_u64(),
            v["hash"].to_string(),
        )
    };
    let mut a: Vec<_> = mirrored.iter().map(key).collect();
    let mut b: Vec<_> = local.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);

    // A consumer written without kifu's code checks every record.
    let python_ok = std::process::Command::new("python3")
        .args(["-c", "import nats, blake3, cryptography"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if python_ok {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../crates/kifu-nats/tests/verify_stream.py");
        let out = std::process::Command::new("python3")
            .arg(script)
            .args([url.as_str(), "KIFU", "--expect", &n2.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["records"].as_u64(), Some(n2 as u64));
        assert_eq!(v["games"].as_u64(), Some(2));
        // A forged record (one signature bit flipped) put into the stream by
        // someone else: both verifiers refuse it.
        let forged = forged_record(&local[5]);
        let subject = format!(
            "kifu.{}.{}",
            local[5]["game"].as_str().unwrap(),
            kifu_nats::subject::tournament_token("kifu demonstration open")
        );
        raw_publish(cluster.nodes[0].port, &subject, &forged);
        let out = std::process::Command::new("python3")
            .arg(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../crates/kifu-nats/tests/verify_stream.py"),
            )
            .args([url.as_str(), "KIFU"])
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("bad signature"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run(&venue, &["feed", "--nats", &url, "--from-start"]);
        assert_eq!(out.status.code(), Some(3));
        assert!(String::from_utf8_lossy(&out.stderr).contains("refused stream message"));
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), n2);
    } else if std::env::var("KIFU_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!("python3 with nats-py, blake3 and cryptography is required (KIFU_REQUIRE_PEERS=1)");
    } else {
        eprintln!("independent verifier skipped: pip install nats-py blake3 cryptography");
    }
    publisher.stop();
}

/// The stored bytes of a feed line's record with one signature bit flipped.
fn forged_record(line: &Value) -> Vec<u8> {
    let event_bytes = hex::decode(line["event_bytes"].as_str().unwrap()).unwrap();
    let mut signature: [u8; 64] = hex::decode(line["signature"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    signature[10] ^= 0x01;
    kifu_ledger::Record {
        event_bytes,
        signature,
    }
    .to_stored()
}

/// Publishes one message with the NATS text protocol (no kifu code).
fn raw_publish(port: u16, subject: &str, payload: &[u8]) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut msg = format!(
        "CONNECT {{\"verbose\":false,\"pedantic\":false}}\r\nPUB {subject} {}\r\n",
        payload.len()
    )
    .into_bytes();
    msg.extend_from_slice(payload);
    msg.extend_from_slice(b"\r\nPING\r\n");
    s.write_all(&msg).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    for _ in 0..100 {
        let n = s.read(&mut buf).unwrap();
        got.extend_from_slice(&buf[..n]);
        if n == 0 || String::from_utf8_lossy(&got).contains("PONG") {
            break;
        }
    }
    assert!(String::from_utf8_lossy(&got).contains("PONG"));
    // The stream stores it asynchronously: give it a moment, bounded.
    std::thread::sleep(Duration::from_millis(300));
}

/// `kifu serve --nats`: what boards append through the server reaches the
/// stream, verified, line for line as the local feed.
#[test]
fn serve_publishes_what_it_acknowledges() {
    let Some(bin) = nats_support::nats_server("kifu serve --nats test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let cluster = nats_support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = cluster.url(0);
    let venue = t.path().join("venue");
    let server = Running::start(
        &venue,
        &["serve", "--listen", "127.0.0.1:0", "--nats", &url],
    );
    let address = server
        .wait_line("listening on ", Duration::from_secs(60))
        .trim_start_matches("listening on ")
        .to_string();
    let keys = t.path().join("client");
    let recorded = kifu()
        .arg("--data")
        .arg(&keys)
        .args(["--server", &address, "demo"])
        .output()
        .unwrap();
    assert!(
        recorded.status.success(),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    let local = lines(
        &kifu()
            .args(["--server", &address, "feed"])
            .output()
            .unwrap(),
    );
    assert!(!local.is_empty());
    // The publisher runs beside the server: wait (bounded) until the stream
    // holds every acknowledged event, then compare.
    let deadline = Instant::now() + Duration::from_secs(60);
    let streamed = loop {
        let s = without_stream_seq(lines(&run(
            &keys,
            &["feed", "--nats", &url, "--from-start"],
        )));
        if s.len() >= local.len() || Instant::now() > deadline {
            break s;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(streamed, local);
    server.stop();
}
