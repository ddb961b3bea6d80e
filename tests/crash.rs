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
