//! End to end: demo, verify, export, tamper, import, append, feed, openssl.

mod common;
use common::*;

use std::path::Path;

fn demo(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("kifu-data");
    ok(&run(&data, &["demo"]));
    data
}

#[test]
fn demo_then_verify_exits_zero() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let o = ok(&run(&data, &["verify"]));
    assert!(o.contains("ok:"), "{o}");
    let j: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["verify", "--json"]))).unwrap();
    assert_eq!(j["ok"], true);
    assert!(j["records"].as_u64().unwrap() > 30);
}

#[test]
fn an_exported_archive_verifies_and_any_changed_byte_fails_naming_where() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let arc = t.path().join("a.kifu");
    ok(&run(&data, &["export", "--out", arc.to_str().unwrap()]));
    ok(&run(&data, &["verify", arc.to_str().unwrap()]));
    let bytes = std::fs::read(&arc).unwrap();
    // A spread of positions: magic, a length, event bytes, a signature.
    let n = bytes.len();
    for pos in [0, 9, 40, 100, n / 3, n / 2, n - 70, n - 1] {
        let mut b = bytes.clone();
        b[pos] ^= 0x20;
        let bad = t.path().join(format!("bad{pos}.kifu"));
        std::fs::write(&bad, &b).unwrap();
        let o = run(&data, &["verify", bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(3), "byte {pos}: {}", err(&o));
        let e = err(&o);
        assert!(
            e.contains("seq")
                || e.contains("byte")
                || e.contains("magic")
                || e.contains("record #"),
            "byte {pos}: the failure names where: {e}"
        );
        assert_eq!(
            e.lines().filter(|l| l.starts_with("kifu: error")).count(),
            1
        );
    }
}

#[test]
fn importing_an_archive_twice_is_harmless() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let arc = t.path().join("a.kifu");
    ok(&run(&data, &["export", "--out", arc.to_str().unwrap()]));
    let other = t.path().join("other");
    let o = run(
        &other,
        &["import", "--json", "--progress", arc.to_str().unwrap()],
    );
    assert!(
        err(&o).contains("importing: 63/63 events"),
        "--progress reports on a stderr that is not a terminal: {}",
        err(&o)
    );
    let first: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    assert!(first["written"].as_u64().unwrap() > 30);
    let second: serde_json::Value = serde_json::from_str(&ok(&run(
        &other,
        &["import", "--json", arc.to_str().unwrap()],
    )))
    .unwrap();
    assert_eq!(second["written"], 0);
    assert_eq!(second["already_present"], first["written"]);
    ok(&run(&other, &["verify"]));
}

#[test]
fn new_game_append_log_and_refusals_from_the_command_line() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let k = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    for n in ["b", "w", "r"] {
        ok(&run(&data, &["keygen", &k(n)]));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(k("b") + ".key")
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "private keys are created 0600");
    }
    let game = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &(k("r") + ".key"),
            "--size",
            "9",
            "--black",
            &format!("Ann={}.pub", k("b")),
            "--white",
            &format!("Bob={}.pub", k("w")),
            "--referee",
            &format!("Ref={}.pub", k("r")),
        ],
    ))
    .trim()
    .to_string();
    assert_eq!(game.len(), 64);
    let prefix = &game[..8];
    let mv = r#"{"stone_placed":{"player":"black","stone":"black","point":{"x":2,"y":2}}}"#;
    ok(&run_stdin(
        &data,
        &["append", prefix, "--key", &(k("b") + ".key")],
        mv,
    ));
    // White may not move for Black; nothing is written.
    let o = run_stdin(&data, &["append", prefix, "--key", &(k("w") + ".key")], mv);
    assert!(!o.status.success());
    assert!(err(&o).contains("only the player concerned"), "{}", err(&o));
    // Malformed input.
    let o = run_stdin(
        &data,
        &["append", prefix, "--key", &(k("b") + ".key")],
        "{nonsense",
    );
    assert!(!o.status.success());
    assert!(err(&o).starts_with("kifu: error:"));
    let log = ok(&run(&data, &["log", prefix, "--json"]));
    assert_eq!(log.lines().count(), 2, "genesis and one move: {log}");
    let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["kind"], "stone placed");
    assert_eq!(last["seq"], 1);
}

#[test]
fn the_feed_resumes_from_the_last_cursor_seen() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let all = ok(&run(&data, &["feed"]));
    let lines: Vec<serde_json::Value> = all
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = ok(&run(&data, &["feed", "--limit", "10"]));
    let last_cursor = serde_json::from_str::<serde_json::Value>(first.lines().last().unwrap())
        .unwrap()["cursor"]
        .as_u64()
        .unwrap();
    let rest = ok(&run(&data, &["feed", "--after", &last_cursor.to_string()]));
    let joined: Vec<u64> = first
        .lines()
        .chain(rest.lines())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["cursor"]
                .as_u64()
                .unwrap()
        })
        .collect();
    let expected: Vec<u64> = lines
        .iter()
        .map(|v| v["cursor"].as_u64().unwrap())
        .collect();
    assert_eq!(joined, expected);
}

#[test]
fn openssl_verifies_a_stored_signature_from_the_spki_pem() {
    let openssl = std::process::Command::new("openssl")
        .arg("version")
        .output();
    if openssl.is_err() {
        assert!(!peers_required(), "openssl is required here but missing");
        eprintln!("skipped: openssl not installed");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let log = ok(&run(&data, &["log", "--json"]));
    let black_pub = std::fs::read_to_string(data.join("demo-keys/black.pub")).unwrap();
    let black_hex = kifu_ledger::PublicKey::from_spki_pem(&black_pub)
        .unwrap()
        .to_hex();
    let rec: serde_json::Value = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["signer"] == black_hex.as_str())
        .expect("a record signed by Black");
    let mut msg = kifu_ledger::SIGN_DOMAIN.to_vec();
    msg.extend(hex::decode(rec["event_bytes"].as_str().unwrap()).unwrap());
    let sig = hex::decode(rec["signature"].as_str().unwrap()).unwrap();
    std::fs::write(t.path().join("msg.bin"), &msg).unwrap();
    std::fs::write(t.path().join("sig.bin"), &sig).unwrap();
    let verify = |msgfile: &str| {
        std::process::Command::new("openssl")
            .current_dir(t.path())
            .args(["pkeyutl", "-verify", "-pubin", "-inkey"])
            .arg(data.join("demo-keys/black.pub"))
            .args(["-rawin", "-in", msgfile, "-sigfile", "sig.bin"])
            .output()
            .unwrap()
    };
    let o = verify("msg.bin");
    assert!(o.status.success(), "openssl: {} {}", out(&o), err(&o));
    assert!(out(&o).contains("Signature Verified Successfully"));
    msg[30] ^= 1;
    std::fs::write(t.path().join("bad.bin"), &msg).unwrap();
    assert!(!verify("bad.bin").status.success());
    // And openssl reads the private key too.
    let o = std::process::Command::new("openssl")
        .args(["pkey", "-noout", "-in"])
        .arg(data.join("demo-keys/black.key"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
}

#[test]
fn feed_follow_delivers_events_appended_by_another_process() {
    use std::io::{BufRead, BufReader};
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let total = ok(&run(&data, &["feed"])).lines().count();
    let mut follower = kifu()
        .arg("--data")
        .arg(&data)
        .args([
            "feed",
            "--follow",
            "--poll-ms",
            "20",
            "--after",
            &(total as u64 - 1).to_string(),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let game = {
        let first = ok(&run(&data, &["log", "--json"]));
        let v: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
        v["game"].as_str().unwrap().to_string()
    };
    let key = data.join("demo-keys/referee.key");
    for _ in 0..3 {
        ok(&run_stdin(
            &data,
            &["append", &game[..10], "--key", key.to_str().unwrap()],
            r#"{"clock_paused":{"reason":"announcement"}}"#,
        ));
    }
    let mut lines = BufReader::new(follower.stdout.take().unwrap()).lines();
    let mut cursors = Vec::new();
    for _ in 0..3 {
        let l = lines.next().unwrap().unwrap();
        let v: serde_json::Value = serde_json::from_str(&l).unwrap();
        assert_eq!(v["kind"], "clock paused");
        cursors.push(v["cursor"].as_u64().unwrap());
    }
    follower.kill().unwrap();
    follower.wait().unwrap();
    let t0 = total as u64;
    assert_eq!(cursors, vec![t0, t0 + 1, t0 + 2]);
}

#[test]
fn new_game_reads_a_genesis_file() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let k = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    let mut keys = Vec::new();
    for n in ["b", "w", "d"] {
        keys.push(ok(&run(&data, &["keygen", &k(n)])).trim().to_string());
    }
    let toml = format!(
        r#"game = "renju"
ruleset = "rif-renju"
overrides = []
board_size = 15
handicap = 0
komi_half_points = 0
time_control = {{ fischer = {{ main_ms = 8100000, increment_ms = 30000 }} }}
title = "World Championship, round 3"
auto_declare = false

[[roster]]
role = "black"
name = "Tentative first player"
key = "{}"

[[roster]]
role = "white"
name = "Second player"
key = "{}"

[[roster]]
role = "director"
name = "Director"
key = "{}"

[tournament]
tournament = "RIF WC"
round = 3
board = 2
"#,
        keys[0], keys[1], keys[2]
    );
    let f = t.path().join("g.toml");
    std::fs::write(&f, toml).unwrap();
    let id = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &(k("d") + ".key"),
            "--file",
            f.to_str().unwrap(),
        ],
    ));
    let log: serde_json::Value = serde_json::from_str(
        ok(&run(&data, &["log", id.trim(), "--json"]))
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let g = &log["body"]["game_created"];
    assert_eq!(g["game"], "renju");
    assert_eq!(g["time_control"]["fischer"]["increment_ms"], 30000);
    assert_eq!(g["tournament"]["round"], 3);
    // The same file signed by a player is refused, naming the rule.
    let o = run(
        &data,
        &[
            "new-game",
            "--key",
            &(k("b") + ".key"),
            "--file",
            f.to_str().unwrap(),
        ],
    );
    assert!(!o.status.success());
    assert!(
        err(&o).contains("director, referee or recorder"),
        "{}",
        err(&o)
    );
}

fn demo_game(data: &Path) -> String {
    let o = ok(&run(data, &["verify", "--json"]));
    let j: serde_json::Value = serde_json::from_str(&o).unwrap();
    j["games"][0]["game"].as_str().unwrap().to_string()
}

#[test]
fn verify_says_where_each_chain_ends_and_a_signed_manifest_catches_truncation() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let arc = t.path().join("a.kifu");
    let key = data.join("demo-keys/director.key");
    let o = ok(&run(
        &data,
        &[
            "export",
            "--out",
            arc.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
        ],
    ));
    assert!(o.contains("manifest signed by"), "{o}");
    let o = ok(&run(&data, &["verify", arc.to_str().unwrap()]));
    assert!(o.contains("chain ends at seq 62"), "{o}");
    assert!(o.contains("reached a signed result"), "{o}");
    assert!(o.contains("manifest: signed by"), "{o}");
    // Drop the last event (the committee's second signature): the copy fails.
    let bytes = std::fs::read(&arc).unwrap();
    let v = kifu_ledger::archive::verify_archive(&bytes).unwrap();
    let last = v.records().last().unwrap().to_stored();
    let cut = t.path().join("cut.kifu");
    std::fs::write(&cut, &bytes[..bytes.len() - last.len()]).unwrap();
    let o = run(&data, &["verify", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", out(&o));
    assert!(err(&o).contains("incomplete"), "{}", err(&o));
    // The same cut copy of an archive without a manifest is caught only as
    // an unfinished game.
    let old = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/format/archives/demo-0.1.0.kifu"),
    )
    .unwrap();
    let v = kifu_ledger::archive::verify_archive(&old).unwrap();
    let last = v.records().last().unwrap().to_stored();
    let cut_old = t.path().join("cut-old.kifu");
    std::fs::write(&cut_old, &old[..old.len() - last.len()]).unwrap();
    let o = ok(&run(&data, &["verify", cut_old.to_str().unwrap()]));
    assert!(o.contains("not decided by a majority"), "{o}");
    assert!(o.contains("no manifest"), "{o}");
}

#[test]
fn a_duplicate_is_counted_once_and_named() {
    let t = tempfile::tempdir().unwrap();
    let arc = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/format/archives/demo-0.1.0.kifu");
    let mut bytes = std::fs::read(&arc).unwrap();
    let v = kifu_ledger::archive::verify_archive(&bytes).unwrap();
    bytes.extend_from_slice(&v.records()[10].to_stored());
    let dup = t.path().join("dup.kifu");
    std::fs::write(&dup, &bytes).unwrap();
    let o = ok(&run(t.path(), &["verify", dup.to_str().unwrap()]));
    assert!(o.contains("1 game, 63 events"), "{o}");
    assert!(o.contains("appears 2 times"), "{o}");
}

#[test]
fn import_exits_3_on_a_fork_and_every_later_verify_reports_it() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let game = demo_game(&data);
    let arc = t.path().join("a.kifu");
    ok(&run(&data, &["export", "--out", arc.to_str().unwrap()]));
    // Another store gets the archive, then a different event at the next seq.
    let other = t.path().join("other");
    ok(&run(&other, &["import", arc.to_str().unwrap()]));
    let key = data.join("demo-keys/black.key");
    let press = r#"{"clock_pressed":{"player":"black"}}"#;
    ok(&run_stdin(
        &data,
        &[
            "append",
            &game,
            "--key",
            key.to_str().unwrap(),
            "--at-ms",
            "1",
        ],
        press,
    ));
    ok(&run_stdin(
        &other,
        &[
            "append",
            &game,
            "--key",
            key.to_str().unwrap(),
            "--at-ms",
            "2",
        ],
        press,
    ));
    let arc2 = t.path().join("b.kifu");
    ok(&run(&data, &["export", "--out", arc2.to_str().unwrap()]));
    let o = run(&other, &["import", arc2.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("fork"), "{}", err(&o));
    for _ in 0..2 {
        let o = run(&other, &["verify"]);
        assert_eq!(o.status.code(), Some(3));
        assert!(err(&o).contains("fork"), "{}", err(&o));
    }
}

#[test]
fn a_retried_append_is_recognised_and_a_stale_one_is_a_conflict() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let game = demo_game(&data);
    let key = data.join("demo-keys/black.key");
    let k = key.to_str().unwrap();
    let press = r#"{"clock_pressed":{"player":"black"}}"#;
    let j =
        |o: &std::process::Output| -> serde_json::Value { serde_json::from_str(&ok(o)).unwrap() };
    let first = j(&run_stdin(
        &data,
        &["append", &game, "--key", k, "--expect-seq", "63", "--json"],
        press,
    ));
    assert_eq!(first["new"], true);
    let again = j(&run_stdin(
        &data,
        &["append", &game, "--key", k, "--expect-seq", "63", "--json"],
        press,
    ));
    assert_eq!(again["new"], false);
    assert_eq!(again["seq"], 63);
    assert_eq!(again["hash"], first["hash"]);
    let head = first["hash"].as_str().unwrap().to_string();
    let after = j(&run_stdin(
        &data,
        &["append", &game, "--key", k, "--after", &head, "--json"],
        press,
    ));
    assert_eq!(
        (after["seq"].as_u64(), after["new"].as_bool()),
        (Some(64), Some(true))
    );
    // A client that last saw seq 63 is stale now.
    let w = data.join("demo-keys/white.key");
    let o = run_stdin(
        &data,
        &[
            "append",
            &game,
            "--key",
            w.to_str().unwrap(),
            "--after",
            &head,
        ],
        r#"{"clock_pressed":{"player":"white"}}"#,
    );
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(err(&o).contains("stale"), "{}", err(&o));
    let o = ok(&run(&data, &["verify", "--json"]));
    assert!(o.contains("\"head_seq\":64"), "{o}");
}

/// An archive whose last record has a bad signature (its link is intact:
/// nothing refers to a chain's last record) is refused with its report
/// and leaves the store as it was, though the import writes its first
/// chunks while it checks the signatures of the next.
#[test]
fn an_archive_with_a_bad_signature_at_its_end_imports_nothing() {
    use kifu_ledger::testkit::{sample_game, Cast};
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    let mut records = Vec::new();
    let mut i = 0;
    while records.len() <= kifu_store::IMPORT_CHUNK + 10 {
        records.extend(sample_game(&cast, &format!("bulk {i}")).records);
        i += 1;
    }
    let last = records.len() - 1;
    records[last].signature[3] ^= 1;
    let arc = t.path().join("tampered.kifu");
    std::fs::write(&arc, kifu_ledger::archive::write(&records)).unwrap();
    let data = t.path().join("d");
    let o = run(&data, &["import", arc.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("nothing imported"), "{}", err(&o));
    let said = format!("{}{}", out(&o), err(&o));
    assert!(said.contains("signature"), "{said}");
    let games: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["games", "--json"]))).unwrap();
    assert_eq!(games.as_array().map(Vec::len), Some(0), "{games}");
    ok(&run(&data, &["verify"]));
}
