//! Crash test: a process appending events is killed with SIGKILL at random
//! moments; after each kill the store reopens, verifies, and holds every
//! event whose append had been acknowledged.

mod common;
use common::*;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_store::Store;

#[test]
fn acknowledged_appends_survive_sigkill() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let cast = Cast::new();
    let game = {
        let store = Store::open(&data).unwrap();
        let c = ChainBuilder::start(&cast.referee, cast.genesis("crash"), 0);
        store.append(c.records[0].clone()).unwrap();
        c.game
    };
    let key = t.path().join("recorder.key");
    std::fs::write(&key, cast.recorder.to_pkcs8_pem().unwrap()).unwrap();
    let game_hex = hex::encode(game);
    // A small deterministic generator for the kill delays.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let rounds = 25;
    let mut total_acked = 0usize;
    for round in 0..rounds {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let delay = 20 + x % 150;
        let mut child = kifu()
            .arg("--data")
            .arg(&data)
            .args([
                "soak",
                &game_hex,
                "--key",
                key.to_str().unwrap(),
                "--count",
                "1000000",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        std::thread::sleep(Duration::from_millis(delay));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        reader.join().unwrap();
        let acked: Vec<(u64, String)> = rx
            .try_iter()
            .filter_map(|l| {
                let mut parts = l.split_whitespace();
                (parts.next()? == "acked").then_some(())?;
                let seq = parts.next()?.parse().ok()?;
                let hash = parts.next()?.to_string();
                (hash.len() == 64).then_some((seq, hash))
            })
            .collect();
        total_acked += acked.len();
        let store = Store::open(&data).unwrap_or_else(|e| panic!("round {round}: reopen: {e}"));
        let records = store.all_records().unwrap();
        let report = kifu_ledger::verify_records(&records);
        assert!(report.ok(), "round {round}: {:?}", report.problems);
        for (seq, hash) in &acked {
            let r = store
                .get(&game, *seq)
                .unwrap()
                .unwrap_or_else(|| panic!("round {round}: acknowledged seq {seq} lost"));
            assert_eq!(
                &hex::encode(r.hash()),
                hash,
                "round {round}: seq {seq} differs"
            );
        }
    }
    assert!(
        total_acked > rounds,
        "the child acknowledged appends ({total_acked})"
    );
    eprintln!("{rounds} kills, {total_acked} acknowledged appends, none lost");
}

/// The child of [`large_records_survive_power_loss_after_the_acknowledgement`]:
/// appends records of `KIFU_CRASH_SIZE` bytes, prints `acked SEQ HASH` once
/// each is durable, then waits to be killed.
#[test]
fn crash_child_appends_large_records() {
    let Some(dir) = std::env::var_os("KIFU_CRASH_CHILD") else {
        return;
    };
    let size: usize = std::env::var("KIFU_CRASH_SIZE").unwrap().parse().unwrap();
    let count: usize = std::env::var("KIFU_CRASH_COUNT").unwrap().parse().unwrap();
    let cast = Cast::new();
    let store = Store::open(std::path::Path::new(&dir)).unwrap();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("large"), 0);
    store.append(c.records[0].clone()).unwrap();
    for i in 0..count {
        let rec = c
            .push(
                &cast.referee,
                kifu_ledger::Body::RefereeRuling(kifu_ledger::Ruling {
                    kind: kifu_ledger::RulingKind::Clarification,
                    decision: format!("ruling {i}"),
                    reasons: "r".repeat(size),
                    rules_cited: vec![],
                    effects: vec![],
                }),
            )
            .clone();
        let a = store.append(rec).unwrap();
        println!("acked {} {}", a.seq, hex::encode(a.hash));
    }
    println!("done {}", hex::encode(c.game));
    std::thread::sleep(Duration::from_secs(600));
}

/// Power loss right after the acknowledgement, emulated: the child is killed
/// with SIGKILL, `db` is kept as synced, and every blob file the store did
/// not sync is truncated (as ext4's delayed allocation can leave a file
/// written but never synced). Every acknowledged record must still be read
/// back and verify, for records of 1 KiB, 20 KiB and 200 KiB.
#[test]
fn large_records_survive_power_loss_after_the_acknowledgement() {
    for (size, count) in [(1024usize, 60usize), (20 * 1024, 40), (200 * 1024, 6)] {
        let t = tempfile::tempdir().unwrap();
        let data = t.path().join("d");
        let trace = t.path().join("synced-blobs");
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "crash_child_appends_large_records",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("KIFU_CRASH_CHILD", &data)
            .env("KIFU_CRASH_SIZE", size.to_string())
            .env("KIFU_CRASH_COUNT", count.to_string())
            .env("KIFU_STORE_SYNC_TRACE", &trace)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut acked = Vec::new();
        let mut game = None;
        let deadline = std::time::Instant::now() + Duration::from_secs(300);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            // The test harness may print "test NAME ... " before the first line.
            let line = match (line.find("acked "), line.find("done ")) {
                (Some(i), _) | (None, Some(i)) => line[i..].to_string(),
                _ => continue,
            };
            let mut parts = line.split_whitespace();
            match parts.next() {
                Some("acked") => {
                    let seq: u64 = parts.next().unwrap().parse().unwrap();
                    acked.push((seq, parts.next().unwrap().to_string()));
                }
                Some("done") => {
                    game = Some(parts.next().unwrap().to_string());
                    break;
                }
                _ => {}
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the child is too slow"
            );
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(
            acked.len(),
            count,
            "size {size}: the child acknowledged every append"
        );
        // Power loss: what was not synced is lost.
        let synced: std::collections::HashSet<String> = std::fs::read_to_string(&trace)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let mut blobs = 0;
        if let Ok(entries) = std::fs::read_dir(data.join("blobs")) {
            for e in entries {
                let e = e.unwrap();
                blobs += 1;
                if !synced.contains(&e.file_name().to_string_lossy().into_owned()) {
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(e.path())
                        .unwrap()
                        .set_len(0)
                        .unwrap();
                }
            }
        }
        if size >= 200 * 1024 {
            assert!(
                blobs > 0,
                "records of {size} bytes are written as blob files"
            );
        }
        let game: kifu_ledger::Hash = hex::decode(game.unwrap()).unwrap().try_into().unwrap();
        let store = Store::open(&data).unwrap_or_else(|e| panic!("size {size}: reopen: {e}"));
        for (seq, hash) in &acked {
            let r = store
                .get(&game, *seq)
                .unwrap_or_else(|e| panic!("size {size}: seq {seq} unreadable: {e}"))
                .unwrap_or_else(|| panic!("size {size}: acknowledged seq {seq} lost"));
            assert_eq!(&hex::encode(r.hash()), hash);
        }
        let report = kifu_ledger::verify_records(&store.all_records().unwrap());
        assert!(report.ok(), "size {size}: {:?}", report.problems);
        eprintln!("size {size}: {count} acknowledged, {blobs} blob files, none lost");
    }
}

/// An import killed with SIGKILL after its first, second and third chunk
/// leaves a store that reopens and verifies, holding whole chunks only,
/// whose transparency log covers exactly its feed; the import run again
/// completes it, every record of the archive stored once (imports keep
/// games in runs, `layout.rs`, and chunks end in the middle of games).
#[test]
fn an_import_killed_midway_reopens_verified_and_completes() {
    use kifu_store::IMPORT_CHUNK;
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    // Games long enough for runs, more records than four import chunks.
    let mut records = Vec::new();
    let mut g = 0;
    while records.len() <= 4 * IMPORT_CHUNK {
        let c = kifu_ledger::testkit::moves_game(&cast, &format!("import {g}"), 60);
        records.extend(c.records);
        g += 1;
    }
    let file = t.path().join("games.kifu");
    std::fs::write(&file, kifu_ledger::archive::write(&records)).unwrap();
    let mut want = records.clone();
    want.sort_by_key(|r| r.hash());
    let import = |data: &std::path::Path| {
        kifu()
            .arg("--data")
            .arg(data)
            .args(["import", "--progress"])
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut held = Vec::new();
    for chunks in 1..=3usize {
        let data = t.path().join(format!("d{chunks}"));
        let mut child = import(&data);
        // Killed once the progress shows that many chunks written.
        let stderr = child.stderr.take().unwrap();
        let mut shown = 0;
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let done: Option<usize> = line
                .strip_prefix("importing: ")
                .and_then(|l| l.split('/').next())
                .and_then(|n| n.parse().ok());
            if done.is_some_and(|d| d > 0) {
                shown += 1;
                if shown == chunks {
                    break;
                }
            }
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        assert_eq!(shown, chunks, "the import showed its progress");
        let store = Store::open(&data).unwrap_or_else(|e| panic!("{chunks}: reopen: {e}"));
        let stored = store.all_records().unwrap();
        let report = kifu_ledger::verify_records(&stored);
        assert!(report.ok(), "{chunks}: {:?}", report.problems);
        assert_eq!(stored.len() % IMPORT_CHUNK, 0, "{chunks}: whole chunks");
        // The log covers the feed exactly, leaf for leaf.
        let feed = store.feed(None, usize::MAX).unwrap();
        assert_eq!(feed.len(), stored.len(), "{chunks}");
        let n = store.tree_size().unwrap();
        assert_eq!(n, feed.len() as u64, "{chunks}");
        if n > 0 {
            let mut mem = kifu_tlog::tree::MemTree::new();
            for f in &feed {
                let leaf = kifu_store::tlog::Leaf {
                    game: f.game,
                    seq: f.seq,
                    record_hash: f.record.hash(),
                };
                mem.push_hash(leaf.hash());
            }
            assert_eq!(store.tree_root(n).unwrap(), mem.root(), "{chunks}");
        }
        held.push(stored.len());
        drop(store);
        // Run to the end, it completes the store.
        let status = import(&data).wait().unwrap();
        assert!(status.success(), "{chunks}: the import again");
        let store = Store::open(&data).unwrap();
        let mut stored = store.all_records().unwrap();
        stored.sort_by_key(|r| r.hash());
        assert!(stored == want, "{chunks}: every record once");
        assert_eq!(store.len(), records.len());
    }
    eprintln!(
        "{} records; killed after 1, 2 and 3 chunks, the stores held {held:?}",
        records.len()
    );
}
