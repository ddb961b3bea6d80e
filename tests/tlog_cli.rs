//! End to end: record the demo game, sign and cosign checkpoints, prove,
//! bundle, verify; then a truncated, reordered, padded and forked bundle
//! each fail with their reason, and a witness refuses a forked log. Go's
//! `sumdb` packages check the CLI's checkpoint and proofs when present.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{err, ok, run};
use serde_json::{json, Value};

struct Setup {
    dir: tempfile::TempDir,
    log_key: String,
    witness_key: String,
    game: String,
}

impl Setup {
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn s(&self, name: &str) -> String {
        self.p(name).display().to_string()
    }
}

fn witness_key_from(stderr: &str) -> String {
    stderr
        .lines()
        .find_map(|l| l.split("witness key: ").nth(1))
        .expect("witness key printed")
        .trim()
        .to_string()
}

/// Demo game, operator and witness keys, checkpoint at the game's end, cosigned.
fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&run(&data, &["demo"]));
    for k in ["op", "wit"] {
        ok(&run(
            &data,
            &["keygen", &dir.path().join(k).display().to_string()],
        ));
    }
    let s = |n: &str| dir.path().join(n).display().to_string();
    let o = run(
        &data,
        &[
            "checkpoint",
            "--key",
            &s("op.key"),
            "--origin",
            "kifu.example/open",
            "--out",
            &s("cp1"),
            "--json",
        ],
    );
    let v: Value = serde_json::from_str(&ok(&o)).unwrap();
    let log_key = v["log_key"].as_str().unwrap().to_string();
    assert_eq!(v["origin"], "kifu.example/open");
    let o = run(
        &data,
        &[
            "witness",
            &s("cp1"),
            "--key",
            &s("wit.key"),
            "--name",
            "witness.example/w1",
            "--log-key",
            &log_key,
            "--state",
            &s("wstate"),
            "--out",
            &s("cp1c"),
        ],
    );
    ok(&o);
    let witness_key = witness_key_from(&err(&o));
    let feed = ok(&run(&data, &["feed"]));
    let first: Value = serde_json::from_str(feed.lines().next().unwrap()).unwrap();
    let game = first["game"].as_str().unwrap().to_string();
    Setup {
        dir,
        log_key,
        witness_key,
        game,
    }
}

fn bundle(st: &Setup, data: &Path, cp: &str, out: &str, with_witness: bool) -> Value {
    // The tail form (kifu-bundle/1): its tampering is what this file checks;
    // the map form is tests/tlog_map_cli.rs's.
    let mut args = vec![
        "bundle",
        &st.game,
        "--out",
        out,
        "--checkpoint",
        cp,
        "--tail",
    ];
    if with_witness {
        args.extend(["--witness-key", &st.witness_key]);
    }
    ok(&run(data, &args));
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

/// Writes a bundle and runs `kifu verify` on it; returns (success, stdout, stderr).
fn verify(st: &Setup, b: &Value, name: &str) -> (bool, String, String) {
    let f = st.p(name);
    std::fs::write(&f, serde_json::to_vec_pretty(b).unwrap()).unwrap();
    let o = run(&st.data(), &["verify", &f.display().to_string()]);
    (o.status.success(), common::out(&o), err(&o))
}

fn append_reading(data: &Path, game: &str, by: &str, black_ms: u64) {
    let key = data.join("demo-keys/referee.key").display().to_string();
    let ev = json!({"clock_reading": {"black_ms": black_ms, "white_ms": 1000, "black_overtime": null, "white_overtime": null, "read_by": by}});
    ok(&common::run_stdin(
        data,
        &["append", game, "--key", &key],
        &ev.to_string(),
    ));
}

#[test]
fn a_bundle_proves_the_whole_game_and_each_tampering_fails_with_its_reason() {
    let st = setup();
    let data = st.data();
    let b = bundle(&st, &data, &st.s("cp1c"), &st.s("a.kifu-bundle"), true);
    let n = b["records"].as_array().unwrap().len();
    let (good, out, e) = verify(&st, &b, "good.kifu-bundle");
    assert!(good, "{e}");
    assert!(
        out.contains(&format!(
            "these {n} events are exactly the game {}",
            st.game
        )),
        "{out}"
    );
    assert!(out.contains(&format!("signed by {}", st.log_key)), "{out}");
    assert!(
        out.contains(&format!("co-signed by witness {}", st.witness_key)),
        "{out}"
    );
    assert!(
        out.contains(&format!("the game's head is seq {}", n - 1)),
        "{out}"
    );

    // An event removed from the middle.
    let mut gap = b.clone();
    gap["records"].as_array_mut().unwrap().remove(7);
    let (okk, _, e) = verify(&st, &gap, "gap.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains("event seq 7 is missing") && e.contains("removed"),
        "{e}"
    );

    // Two events swapped.
    let mut swapped = b.clone();
    swapped["records"].as_array_mut().unwrap().swap(10, 11);
    let (okk, _, e) = verify(&st, &swapped, "swap.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains("event seq 11 stands at position 10") && e.contains("reordered"),
        "{e}"
    );

    // The last event dropped, the tail left as it was.
    let mut short = b.clone();
    short["records"].as_array_mut().unwrap().pop();
    let (okk, _, e) = verify(&st, &short, "short.kifu-bundle");
    assert!(!okk);
    assert!(e.contains("removed from the end"), "{e}");

    // Truncated with care: the last three events dropped and a genuine tail
    // from the new last event. The tail then shows the game's later events.
    let cut = n - 3;
    let mut trunc = b.clone();
    trunc["records"].as_array_mut().unwrap().truncate(cut);
    let start = trunc["records"][cut - 1]["leaf_index"].as_u64().unwrap();
    let size =
        b["tail"]["start"].as_u64().unwrap() + b["tail"]["leaves"].as_array().unwrap().len() as u64;
    {
        let store = kifu_store::Store::open(&data).unwrap();
        let leaves = store.leaves(start, size).unwrap();
        let proof = store.range_proof(start, size).unwrap();
        use base64::Engine as _;
        trunc["tail"] = json!({
            "start": start,
            "leaves": leaves.iter().map(|l| hex::encode(l.to_bytes())).collect::<Vec<_>>(),
            "proof": proof.iter().map(|h| base64::engine::general_purpose::STANDARD.encode(h)).collect::<Vec<_>>(),
        });
    }
    let (okk, _, e) = verify(&st, &trunc, "trunc.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains(&format!("event seq {cut} of this game")) && e.contains("truncated"),
        "{e}"
    );

    // An event added: a validly signed record that the log never saw.
    let fork_data = st.p("fork");
    copy_dir(&data, &fork_data);
    append_reading(&fork_data, &st.game, "forked reading", 5);
    let fork_cp = st.s("fork_cp");
    ok(&run(
        &fork_data,
        &["checkpoint", "--key", &st.s("op.key"), "--out", &fork_cp],
    ));
    let fb = bundle(&st, &fork_data, &fork_cp, &st.s("fork.kifu-bundle"), false);
    let extra = fb["records"].as_array().unwrap().last().unwrap().clone();
    let mut padded = b.clone();
    padded["records"].as_array_mut().unwrap().push(extra);
    let (okk, _, e) = verify(&st, &padded, "padded.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains(&format!("event seq {n} is not in the log")),
        "{e}"
    );

    // The honest log grows; the witness follows it.
    append_reading(&data, &st.game, "honest reading", 9);
    ok(&run(
        &data,
        &[
            "checkpoint",
            "--key",
            &st.s("op.key"),
            "--out",
            &st.s("cp2"),
        ],
    ));
    let wit_args = |cp: &str, out: &str| {
        vec![
            "witness".to_string(),
            st.s(cp),
            "--key".into(),
            st.s("wit.key"),
            "--name".into(),
            "witness.example/w1".into(),
            "--log-key".into(),
            st.log_key.clone(),
            "--state".into(),
            st.s("wstate"),
            "--out".into(),
            st.s(out),
        ]
    };
    let a: Vec<String> = wit_args("cp2", "cp2c");
    ok(&run(
        &data,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    ));

    // The fork, signed by the same operator key at the same size: the
    // witness refuses it.
    let a: Vec<String> = wit_args("fork_cp", "fork_cpc");
    let o = run(
        &fork_data,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(!o.status.success());
    assert!(
        err(&o).contains("refusing to cosign") && err(&o).contains("not consistent"),
        "{}",
        err(&o)
    );

    // A bundle of the forked log, dressed with the witness's line from the
    // honest checkpoint of the same size: the cosignature does not verify.
    let honest = std::fs::read_to_string(st.p("cp2c")).unwrap();
    let wline = honest
        .lines()
        .find(|l| l.contains("witness.example/w1"))
        .unwrap();
    let mut forged = fb.clone();
    forged["checkpoint"] = json!(format!("{}{}\n", fb["checkpoint"].as_str().unwrap(), wline));
    forged["witness_keys"] = json!([st.witness_key]);
    let (okk, _, e) = verify(&st, &forged, "forged.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains("witness.example/w1") && e.contains("forked"),
        "{e}"
    );
    // Without the line, the bundle cannot claim the witness.
    let mut unsigned = fb.clone();
    unsigned["witness_keys"] = json!([st.witness_key]);
    let (okk, _, e) = verify(&st, &unsigned, "unsigned.kifu-bundle");
    assert!(!okk);
    assert!(e.contains("did not cosign"), "{e}");
    // The honest bundle's records with the forked checkpoint: the last
    // record's proof fails against the forked root.
    let mut mixed = b.clone();
    mixed["checkpoint"] = fb["checkpoint"].clone();
    mixed["witness_keys"] = json!([]);
    let (okk, _, e) = verify(&st, &mixed, "mixed.kifu-bundle");
    assert!(!okk);
    assert!(e.contains("is not in the log"), "{e}");

    // Offline proof checks: consistency between the two honest checkpoints.
    let o = run(
        &data,
        &[
            "prove",
            "consistency",
            &(size).to_string(),
            &(size + 1).to_string(),
        ],
    );
    std::fs::write(st.p("c.json"), ok(&o)).unwrap();
    let o = run(
        &data,
        &[
            "check-proof",
            "consistency",
            &st.s("c.json"),
            "--old",
            &st.s("cp1c"),
            "--new",
            &st.s("cp2c"),
            "--log-key",
            &st.log_key,
        ],
    );
    assert!(ok(&o).contains("is a prefix of itself"));
    // The fork's checkpoint is not consistent with the first honest one
    // through the honest proof.
    let o = run(
        &data,
        &[
            "check-proof",
            "consistency",
            &st.s("c.json"),
            "--old",
            &st.s("cp1c"),
            "--new",
            &fork_cp,
            "--log-key",
            &st.log_key,
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("not consistent"), "{}", err(&o));

    go_checks_the_cli_output(&st, size);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// Go's note and tlog packages check the CLI's checkpoints and proofs.
fn go_checks_the_cli_output(st: &Setup, size: u64) {
    let gopath = Path::new("/usr/share/gocode/src/golang.org/x/mod/sumdb/tlog/tlog.go");
    let go_ok = Command::new("go")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !go_ok || !gopath.exists() {
        assert!(
            !common::peers_required(),
            "KIFU_REQUIRE_PEERS=1 but go or golang.org/x/mod is absent"
        );
        eprintln!("skipped: go or golang.org/x/mod sources absent (apt-get install golang-go golang-golang-x-mod-dev)");
        return;
    }
    let data = st.data();
    let inc: Value = serde_json::from_str(&ok(&run(
        &data,
        &[
            "prove",
            "inclusion",
            &st.game,
            "5",
            "--checkpoint",
            &st.s("cp2c"),
        ],
    )))
    .unwrap();
    let inc_old: Value = serde_json::from_str(&ok(&run(
        &data,
        &[
            "prove",
            "inclusion",
            &st.game,
            "0",
            "--checkpoint",
            &st.s("cp1c"),
        ],
    )))
    .unwrap();
    let cons: Value = serde_json::from_str(&ok(&run(
        &data,
        &[
            "prove",
            "consistency",
            &size.to_string(),
            &(size + 1).to_string(),
        ],
    )))
    .unwrap();
    let doc = json!({
        "log_vkey": st.log_key,
        "checkpoint": std::fs::read_to_string(st.p("cp1c")).unwrap(),
        "cosigned_checkpoint": std::fs::read_to_string(st.p("cp2c")).unwrap(),
        "witness_vkey": st.witness_key,
        "inclusion": [inc, inc_old],
        "consistency": [cons],
    });
    let f = st.p("go.json");
    std::fs::write(&f, serde_json::to_vec(&doc).unwrap()).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cache = root.join("target/gocache");
    let _ = std::fs::create_dir_all(&cache);
    let o = Command::new("go")
        .current_dir(&root)
        .env("GOPATH", "/usr/share/gocode")
        .env("GO111MODULE", "off")
        .env("GOFLAGS", "-mod=mod")
        .env("GOCACHE", &cache)
        .args(["run", "tests/peers/sumdb_check.go"])
        .arg(&f)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("cosignature/v1 by witness.example/w1"),
        "{out}"
    );
    assert!(
        out.contains("CheckRecord accepts 2 inclusion proofs"),
        "{out}"
    );
    assert!(
        out.contains("CheckTree accepts 1 consistency proofs"),
        "{out}"
    );
}

#[test]
fn the_log_is_written_as_a_static_tiles_directory() {
    let st = setup();
    let out = st.p("site");
    let o = run(&st.data(), &["tiles", "--out", &out.display().to_string()]);
    assert!(
        ok(&o).contains("for the checkpoint at size"),
        "{}",
        common::out(&o)
    );
    let cp = std::fs::read_to_string(out.join("checkpoint")).unwrap();
    assert!(cp.starts_with("kifu.example/open\n"));
    let size: u64 = cp.lines().nth(1).unwrap().parse().unwrap();
    assert!(size < 256, "the demo fits one partial tile");
    let tile = std::fs::read(out.join(format!("tile/0/000.p/{size}"))).unwrap();
    let entries = std::fs::read(out.join(format!("tile/entries/000.p/{size}"))).unwrap();
    let entries = kifu_tlog::tiles::parse_entry_bundle(&entries).unwrap();
    assert_eq!(entries.len() as u64, size);
    assert_eq!(tile.len() as u64, 32 * size);
    // Each tile hash is the RFC 6962 leaf hash of its entry, and the tile's
    // hashes give the checkpoint's root.
    let mut t = kifu_tlog::MemTree::new();
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e.len(), 72);
        assert_eq!(&tile[32 * i..32 * i + 32], &kifu_tlog::leaf_hash(e)[..]);
        t.push(e);
    }
    use base64::Engine as _;
    let root = base64::engine::general_purpose::STANDARD.encode(t.root());
    assert_eq!(cp.lines().nth(2).unwrap(), root);
}

#[test]
fn a_witness_takes_the_operators_text_proof_and_refuses_a_bad_one() {
    let st = setup();
    let data = st.data();
    append_reading(&data, &st.game, "later reading", 7);
    ok(&run(
        &data,
        &[
            "checkpoint",
            "--key",
            &st.s("op.key"),
            "--out",
            &st.s("cp2"),
        ],
    ));
    let old: u64 = std::fs::read_to_string(st.p("cp1"))
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let text = ok(&run(
        &data,
        &[
            "prove",
            "consistency",
            &old.to_string(),
            &(old + 1).to_string(),
            "--text",
        ],
    ));
    assert!(
        text.lines()
            .all(|l| l.starts_with("node_hash=") && l.len() == 10 + 64),
        "{text}"
    );
    // A bad proof first: one hash changed. The witness has no store to ask.
    let flipped = if &text[10..11] == "0" { "1" } else { "0" };
    let bad = format!("{}{flipped}{}", &text[..10], &text[11..]);
    std::fs::write(st.p("bad.txt"), &bad).unwrap();
    let nowhere = st.p("no-store");
    let args = |proof: &str| {
        vec![
            "witness".to_string(),
            st.s("cp2"),
            "--key".into(),
            st.s("wit.key"),
            "--name".into(),
            "witness.example/w1".into(),
            "--log-key".into(),
            st.log_key.clone(),
            "--state".into(),
            st.s("wstate"),
            "--proof".into(),
            st.s(proof),
            "--out".into(),
            st.s("cp2c"),
        ]
    };
    let a = args("bad.txt");
    let o = run(&nowhere, &a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!o.status.success());
    assert!(err(&o).contains("not consistent"), "{}", err(&o));
    // The state was not moved by the refusal: the good proof is accepted.
    std::fs::write(st.p("good.txt"), &text).unwrap();
    let a = args("good.txt");
    let o = run(&nowhere, &a.iter().map(String::as_str).collect::<Vec<_>>());
    ok(&o);
    let state = std::fs::read_to_string(st.p("wstate")).unwrap();
    assert_eq!(state.lines().nth(1).unwrap(), (old + 1).to_string());
}
