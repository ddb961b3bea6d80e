//! End to end: the map of game heads (docs/TRANSPARENCY.md section 10).
//! Checkpoints name the map root; a bundle proves its head with a map proof
//! and stays the same size when the log grows; a bundle whose map proof names
//! a stale head fails; a game the log never saw is proved absent; a
//! checkpoint with a wrong map root is reported by `kifu audit` and refused
//! by `kifu witness`; the server serves bundles and map proofs, and its log
//! audits through its tiles.

mod common;

use std::path::PathBuf;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use common::{err, ok, run, Served};
use serde_json::{json, Value};

struct Setup {
    dir: tempfile::TempDir,
    log_key: String,
    game: String,
}

impl Setup {
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    fn s(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
    fn checkpoint(&self, out: &str) -> Value {
        let o = run(
            &self.data(),
            &[
                "checkpoint",
                "--key",
                &self.s("op.key"),
                "--origin",
                "kifu.example/map",
                "--out",
                &self.s(out),
                "--json",
            ],
        );
        serde_json::from_str(&ok(&o)).unwrap()
    }
    fn bundle(&self, cp: &str, out: &str, extra: &[&str]) -> Value {
        let mut args = vec!["bundle", &self.game, "--out", out, "--checkpoint", cp];
        args.extend(extra);
        ok(&run(&self.data(), &args));
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
    }
    /// Writes `b` and verifies it: (success, stdout, stderr).
    fn verify(&self, b: &Value, name: &str) -> (bool, String, String) {
        let f = self.s(name);
        std::fs::write(&f, serde_json::to_vec_pretty(b).unwrap()).unwrap();
        let o = run(&self.data(), &["verify", &f]);
        (o.status.success(), common::out(&o), err(&o))
    }
}

/// The demo game, an operator key and a checkpoint `cp1` of it.
fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let out = ok(&run(&data, &["demo", "--json"]));
    let demo: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    for k in ["op", "wit"] {
        ok(&run(
            &data,
            &["keygen", &dir.path().join(k).display().to_string()],
        ));
    }
    let mut st = Setup {
        dir,
        log_key: String::new(),
        game,
    };
    let v = st.checkpoint("cp1");
    st.log_key = v["log_key"].as_str().unwrap().to_string();
    st
}

/// The map root a checkpoint file names.
fn map_root_of(cp_text: &str) -> [u8; 32] {
    let line = cp_text
        .lines()
        .find_map(|l| l.strip_prefix("kifu-map/1 "))
        .expect("a kifu-map/1 line");
    B64.decode(line).unwrap().try_into().unwrap()
}

fn append_reading(st: &Setup, black_ms: u64) {
    let key = st
        .data()
        .join("demo-keys/referee.key")
        .display()
        .to_string();
    let ev = json!({"clock_reading": {"black_ms": black_ms, "white_ms": 1000, "black_overtime": null, "white_overtime": null, "read_by": "referee"}});
    ok(&common::run_stdin(
        &st.data(),
        &["append", &st.game, "--key", &key],
        &ev.to_string(),
    ));
}

#[test]
fn a_map_bundle_proves_the_head_and_does_not_grow_with_the_log() {
    let st = setup();
    let cp1 = std::fs::read_to_string(st.s("cp1")).unwrap();
    assert!(cp1.contains("\nkifu-map/1 "), "{cp1}");
    let b1 = st.bundle(&st.s("cp1"), &st.s("b1.kifu-bundle"), &[]);
    assert_eq!(b1["format"], "kifu-bundle/2");
    assert!(b1.get("tail").is_none());
    let (good, out, e) = st.verify(&b1, "b1v.kifu-bundle");
    assert!(good, "{e}");
    assert!(out.contains("map of game heads"), "{out}");
    assert!(
        out.contains("nothing of the game was logged after it"),
        "{out}"
    );

    // Three more games are logged after it.
    for _ in 0..3 {
        ok(&run(&st.data(), &["demo"]));
    }
    st.checkpoint("cp2");
    let map2 = st.bundle(&st.s("cp2"), &st.s("b2.kifu-bundle"), &[]);
    let tail2 = st.bundle(&st.s("cp2"), &st.s("t2.kifu-bundle"), &["--tail"]);
    let (good, _, e) = st.verify(&map2, "b2v.kifu-bundle");
    assert!(good, "{e}");
    let (good, out, e) = st.verify(&tail2, "t2v.kifu-bundle");
    assert!(good, "the tail form still verifies: {e}");
    assert!(out.contains("no leaf of the log after that event"), "{out}");
    let later = tail2["tail"]["leaves"].as_array().unwrap().len();
    assert!(later > 100, "{later} later leaves");
    let size = |f: &str| std::fs::metadata(st.s(f)).unwrap().len() as i64;
    // The map bundle differs from the first by the proof hashes of a tree
    // and a map that grew (each hash about 48 bytes of JSON: at most 16 more
    // for a log four times as large); the tail bundle carries every later
    // leaf (144 hex digits each).
    assert!(
        (size("b2.kifu-bundle") - size("b1.kifu-bundle")).abs() < 16 * 48,
        "{} vs {}",
        size("b2.kifu-bundle"),
        size("b1.kifu-bundle")
    );
    assert!(size("t2.kifu-bundle") > size("b2.kifu-bundle") + 144 * later as i64);
}

#[test]
fn a_compact_bundle_verifies_as_its_json_does_and_a_changed_byte_fails() {
    let st = setup();
    let json = st.bundle(&st.s("cp1"), &st.s("j.kifu-bundle"), &[]);
    let o = run(
        &st.data(),
        &[
            "bundle",
            &st.game,
            "--out",
            &st.s("c.kifu-bundle"),
            "--checkpoint",
            &st.s("cp1"),
            "--compact",
        ],
    );
    assert!(ok(&o).contains("(compact)"));
    let size = |n: &str| std::fs::metadata(st.s(n)).unwrap().len();
    assert!(size("c.kifu-bundle") * 2 < size("j.kifu-bundle"));
    let compact = std::fs::read(st.s("c.kifu-bundle")).unwrap();
    let back = kifu_bundle::compact::decode(&compact).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), json);
    let verdict = |name: &str| {
        let o = run(&st.data(), &["verify", &st.s(name), "--json"]);
        (o.status.success(), common::out(&o), err(&o))
    };
    let (good, from_json, e) = verdict("j.kifu-bundle");
    assert!(good, "{e}");
    let (good, from_compact, e) = verdict("c.kifu-bundle");
    assert!(good, "{e}");
    assert_eq!(from_compact, from_json);

    // A byte of the compressed part changed: one line, non-zero, whichever
    // check meets it first (the stream's checksum, or a record).
    let mut bad = compact.clone();
    let at = bad.len() / 2;
    bad[at] ^= 0x20;
    std::fs::write(st.s("bad.kifu-bundle"), &bad).unwrap();
    let (good, _, e) = verdict("bad.kifu-bundle");
    assert!(!good);
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    // Cut short.
    std::fs::write(st.s("cut.kifu-bundle"), &compact[..compact.len() - 40]).unwrap();
    let (good, _, e) = verdict("cut.kifu-bundle");
    assert!(!good && e.contains("not a bundle"), "{e}");
    // The tail form has no compact form.
    let o = run(
        &st.data(),
        &[
            "bundle",
            &st.game,
            "--out",
            &st.s("t.kifu-bundle"),
            "--tail",
            "--compact",
        ],
    );
    assert!(!o.status.success());
}

#[test]
fn a_map_bundle_whose_map_proof_names_a_stale_head_fails() {
    let st = setup();
    let b1 = st.bundle(&st.s("cp1"), &st.s("b1.kifu-bundle"), &[]);
    let last = b1["records"].as_array().unwrap().len() as u64 - 1;
    append_reading(&st, 5000);
    st.checkpoint("cp2");
    let b2 = st.bundle(&st.s("cp2"), &st.s("b2.kifu-bundle"), &[]);
    assert_eq!(b2["records"].as_array().unwrap().len() as u64, last + 2);

    // The old head's inclusion proof in the new tree.
    let proof: Value = serde_json::from_str(&ok(&run(
        &st.data(),
        &[
            "prove",
            "inclusion",
            &st.game,
            &last.to_string(),
            "--checkpoint",
            &st.s("cp2"),
        ],
    )))
    .unwrap();
    let mut trunc = b2.clone();
    trunc["records"].as_array_mut().unwrap().pop();
    trunc["head"]["leaf_index"] = proof["leaf_index"].clone();
    trunc["head"]["inclusion"] = proof["hashes"].clone();

    // With the map's true proof: the map names the later event.
    let (okk, _, e) = st.verify(&trunc, "trunc.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains(&format!(
            "the log holds event seq {} of this game",
            last + 1
        )) && e.contains("the bundle is truncated"),
        "{e}"
    );

    // With the older map's proof, naming the stale head: it does not lead
    // to the new checkpoint's map root.
    let mut stale = trunc.clone();
    stale["head"]["map"] = b1["head"]["map"].clone();
    let (okk, _, e) = st.verify(&stale, "stale.kifu-bundle");
    assert!(!okk);
    assert!(
        e.contains("the map proof does not lead to the map root") && e.contains("stale head"),
        "{e}"
    );

    // The old bundle with the new checkpoint: its head is not the map's.
    let mut mixed = b1.clone();
    mixed["checkpoint"] = b2["checkpoint"].clone();
    let (okk, _, e) = st.verify(&mixed, "mixed.kifu-bundle");
    assert!(!okk);
    assert!(e.contains("is not in the log at leaf"), "{e}");

    // A checkpoint without a map root cannot back a map bundle.
    let mut nomap = b2.clone();
    nomap["format"] = json!("kifu-bundle/2");
    nomap["checkpoint"] = json!(b2["checkpoint"]
        .as_str()
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("kifu-map/1 "))
        .map(|l| format!("{l}\n"))
        .collect::<String>());
    let (okk, _, e) = st.verify(&nomap, "nomap.kifu-bundle");
    assert!(!okk, "an edited checkpoint must not verify");
    assert!(e.contains("altered"), "{e}");
}

#[test]
fn the_map_proves_a_logged_game_present_and_an_unknown_game_absent() {
    let st = setup();
    let cp = std::fs::read_to_string(st.s("cp1")).unwrap();
    let root = map_root_of(&cp);
    let game: [u8; 32] = hex::decode(&st.game).unwrap().try_into().unwrap();
    let prove = |g: &str| -> kifu_tlog::map::MapProof {
        let text = ok(&run(
            &st.data(),
            &["prove", "map", g, "--checkpoint", &st.s("cp1")],
        ));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["map_root"], B64.encode(root));
        kifu_tlog::map::MapProof::from_json(&v).unwrap()
    };
    // Offline, against the signed checkpoint: present, absent, and altered.
    let check = |g: &str, edit: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_str(&ok(&run(
            &st.data(),
            &["prove", "map", g, "--checkpoint", &st.s("cp1")],
        )))
        .unwrap();
        edit(&mut v);
        let f = st.s("mapproof.json");
        std::fs::write(&f, v.to_string()).unwrap();
        let o = run(
            &st.data(),
            &[
                "check-proof",
                "map",
                &f,
                "--checkpoint",
                &st.s("cp1"),
                "--log-key",
                &st.log_key,
            ],
        );
        (o.status.code(), common::out(&o), err(&o))
    };
    let (code, out, _) = check(&st.game, &|_| {});
    assert_eq!(code, Some(0));
    assert!(out.contains("ok: the head of game"), "{out}");
    let (code, out, _) = check(&"5a".repeat(32), &|_| {});
    assert_eq!(code, Some(0));
    assert!(
        out.contains("is not in the log: absent from the map"),
        "{out}"
    );
    // The entry's head seq changed (its last hex digit).
    let (code, _, e) = check(&st.game, &|v| {
        let mut leaf = v["leaf"].as_str().unwrap().to_string();
        let d = if &leaf[79..80] == "0" { "1" } else { "0" };
        leaf.replace_range(79..80, d);
        v["leaf"] = json!(leaf);
    });
    assert_eq!(code, Some(3), "{e}");
    assert!(e.contains("map proof fails"), "{e}");
    let p = prove(&st.game);
    let entry = kifu_tlog::map::verify(&root, &game, &p).unwrap().unwrap();
    let b = st.bundle(&st.s("cp1"), &st.s("b.kifu-bundle"), &[]);
    let records = b["records"].as_array().unwrap();
    assert_eq!(entry.head.seq, records.len() as u64 - 1);
    assert_eq!(entry.leaf_index, b["head"]["leaf_index"].as_u64().unwrap());

    // Games the log never saw, one next to the demo game's id.
    let mut near = game;
    near[31] ^= 1;
    for unknown in [[0x5a; 32], near] {
        let p = prove(&hex::encode(unknown));
        assert_eq!(kifu_tlog::map::verify(&root, &unknown, &p), Ok(None));
    }
    // The neighbour's path ends at the demo game's own entry: the map holds
    // one entry there, and it is not the neighbour's.
    let p = prove(&hex::encode(near));
    assert_eq!(p.leaf.map(|l| l.head.game), Some(game));
    // No proof shows a game the map holds absent: another game's absence
    // proof, given for it, fails or ends at its own entry.
    for other in [[0x5a; 32], near, [0; 32], [0xff; 32]] {
        let p = prove(&hex::encode(other));
        assert_ne!(kifu_tlog::map::verify(&root, &game, &p), Ok(None));
    }
}

/// A checkpoint of the store's tree signed by the operator's key, naming
/// `map_root`.
fn forged_checkpoint(st: &Setup, size: u64, tree_root: &str, map_root: [u8; 32]) -> String {
    signed_by_operator(st, size, tree_root, Some(map_root))
}

/// A checkpoint of `kifu.example/map` signed with the operator's key, with
/// the map line naming `map_root`, or none.
fn signed_by_operator(
    st: &Setup,
    size: u64,
    tree_root: &str,
    map_root: Option<[u8; 32]>,
) -> String {
    use ed25519_dalek::pkcs8::DecodePrivateKey;
    let pem = std::fs::read_to_string(st.s("op.key")).unwrap();
    let seed = ed25519_dalek::SigningKey::from_pkcs8_pem(&pem)
        .unwrap()
        .to_bytes();
    let signer = kifu_tlog::NoteSigner::new("kifu.example/map", seed).unwrap();
    let root: [u8; 32] = B64.decode(tree_root).unwrap().try_into().unwrap();
    let mut cp = kifu_tlog::Checkpoint::new("kifu.example/map", size, root);
    if let Some(m) = map_root {
        cp.extensions.push(kifu_tlog::map::map_line(&m));
    }
    let mut note = kifu_tlog::Note::new(cp.to_text()).unwrap();
    signer.sign(&mut note);
    note.to_text()
}

#[test]
fn a_wrong_map_root_is_reported_by_the_audit_and_refused_by_the_witness() {
    let st = setup();
    let cp1 = std::fs::read_to_string(st.s("cp1")).unwrap();
    append_reading(&st, 4000);
    let v = st.checkpoint("cp2");
    let size = v["size"].as_u64().unwrap();
    // The honest log audits clean.
    let o = run(&st.data(), &["audit", "--log-key", &st.log_key]);
    let out = ok(&o);
    assert!(out.contains("2 checkpoints audited"), "{out}");
    assert!(out.contains(", 0 wrong"), "{out}");

    // The operator signs the new tree with the old map: the game's later
    // event hidden from every map proof.
    let bad = forged_checkpoint(&st, size, v["root"].as_str().unwrap(), map_root_of(&cp1));
    std::fs::write(st.s("bad"), &bad).unwrap();
    let o = run(
        &st.data(),
        &["audit", "--checkpoint", &st.s("bad"), "--json"],
    );
    assert!(!o.status.success());
    assert_eq!(o.status.code(), Some(3));
    let lines: Vec<Value> = common::out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let wrong: Vec<&Value> = lines.iter().filter(|l| l["ok"] == false).collect();
    assert_eq!(wrong.len(), 1, "{lines:?}");
    assert_eq!(wrong[0]["checkpoint"], st.s("bad"));
    assert!(
        wrong[0]["finding"]
            .as_str()
            .unwrap()
            .contains("is not the map of the log's leaves"),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap()["wrong"], 1);

    // The witness refuses it, and cosigns the honest one.
    let witness = |cp: &str| run_witness(&st, &st.data(), &[], cp);
    let o = witness(&st.s("bad"));
    assert!(!o.status.success());
    let e = err(&o);
    assert!(
        e.contains("refusing to cosign") && e.contains("map root"),
        "{e}"
    );
    assert!(!std::path::Path::new(&st.s("wstate")).exists());
    let o = witness(&st.s("cp2"));
    ok(&o);
    assert!(err(&o).contains("map root checked"), "{}", err(&o));
}

/// `kifu [PRE...] witness CP` with the setup's witness key and state.
fn run_witness(st: &Setup, data: &std::path::Path, pre: &[&str], cp: &str) -> std::process::Output {
    let (key, state, out) = (st.s("wit.key"), st.s("wstate"), st.s("cosigned"));
    let mut args: Vec<&str> = pre.to_vec();
    args.extend([
        "witness",
        cp,
        "--key",
        &key,
        "--name",
        "witness.example/w1",
        "--log-key",
        &st.log_key,
        "--state",
        &state,
        "--out",
        &out,
    ]);
    run(data, &args)
}

fn http_get(url: &str) -> (u16, String) {
    match ureq::get(url).call() {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
        Err(e) => panic!("{url}: {e}"),
    }
}

#[test]
fn the_server_serves_bundles_and_map_proofs_and_audits_through_its_tiles() {
    let st = setup();
    for _ in 0..2 {
        ok(&run(&st.data(), &["demo"]));
    }
    let server = Served::start(
        &st.data(),
        &[
            "--checkpoint-key",
            &st.s("op.key"),
            "--origin",
            "kifu.example/map",
            "--checkpoint-every",
            "0",
        ],
    );
    let url = server.url.clone();
    let (status, cp) = http_get(&format!("{url}/checkpoint"));
    assert_eq!(status, 200, "{cp}");
    assert!(cp.contains("\nkifu-map/1 "), "{cp}");

    let (status, body) = http_get(&format!("{url}/games/{}/bundle", st.game));
    assert_eq!(status, 200, "{body}");
    let b: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(b["format"], "kifu-bundle/2");
    assert_eq!(b["checkpoint"].as_str().unwrap(), cp);
    let (good, out, e) = st.verify(&b, "served.kifu-bundle");
    assert!(good, "{e}");
    assert!(out.contains("map of game heads"), "{out}");
    // The compact form of the same bundle: fewer bytes, the same verdict.
    let r = ureq::get(&format!("{url}/games/{}/bundle?form=compact", st.game))
        .call()
        .unwrap();
    assert_eq!(r.header("content-type"), Some("application/octet-stream"));
    let mut compact = Vec::new();
    std::io::Read::read_to_end(&mut r.into_reader(), &mut compact).unwrap();
    assert!(compact.starts_with(b"kifu-bundle/3\n"));
    assert!(
        compact.len() * 2 < body.len(),
        "{} vs {}",
        compact.len(),
        body.len()
    );
    let f = st.s("served-compact.kifu-bundle");
    std::fs::write(&f, &compact).unwrap();
    let o = run(&st.data(), &["verify", &f]);
    assert_eq!(ok(&o), out);

    let (status, body) = http_get(&format!("{url}/proof/map?game={}", "ab".repeat(32)));
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let p = kifu_tlog::map::MapProof::from_json(&v).unwrap();
    assert_eq!(
        kifu_tlog::map::verify(&map_root_of(&cp), &[0xab; 32], &p),
        Ok(None)
    );
    let (status, _) = http_get(&format!("{url}/games/{}/bundle", "cd".repeat(32)));
    assert_eq!(status, 404);
    // An event logged after the checkpoint: the bundle waits for the next.
    let key = st
        .data()
        .join("demo-keys/referee.key")
        .display()
        .to_string();
    let ev = json!({"clock_reading": {"black_ms": 1, "white_ms": 2, "black_overtime": null, "white_overtime": null, "read_by": "referee"}});
    let elsewhere = st.dir.path().join("empty");
    ok(&common::run_stdin(
        &elsewhere,
        &["--server", &url, "append", &st.game, "--key", &key],
        &ev.to_string(),
    ));
    let (status, body) = http_get(&format!("{url}/games/{}/bundle", st.game));
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("not_in_checkpoint"), "{body}");
    // The server signs at most once a second: ask until it signs (bounded).
    let mut signed = None;
    for _ in 0..20 {
        let r = ureq::post(&format!("{url}/checkpoint")).call().unwrap();
        if r.status() == 201 {
            signed = Some(r.into_string().unwrap());
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    let cp = signed.expect("the server signs the grown tree within 5 s");
    let (status, body) = http_get(&format!("{url}/games/{}/bundle", st.game));
    assert_eq!(status, 200, "{body}");
    let later: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        later["records"].as_array().unwrap().len(),
        b["records"].as_array().unwrap().len() + 1
    );
    let (good, _, e) = st.verify(&later, "served-later.kifu-bundle");
    assert!(good, "{e}");

    // Only the maps of signed checkpoints are served.
    let (status, body) = http_get(&format!("{url}/proof/map?game={}&size=1", st.game));
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no_checkpoint"), "{body}");

    // An auditor with no copy of the store reads the log through the tiles.
    let o = run(&elsewhere, &["--server", &url, "audit"]);
    let out = ok(&o);
    assert!(out.contains("1 checkpoints audited"), "{out}");
    assert!(out.contains("the tree root and the map root"), "{out}");

    // A witness with no copy of the store reads the leaves through the
    // tiles too: it refuses a checkpoint of the served tree naming a wrong
    // map root, and cosigns the served one.
    let served = st.dir.path().join("served-cp");
    std::fs::write(&served, &cp).unwrap();
    let size: u64 = cp.lines().nth(1).unwrap().parse().unwrap();
    let bad = forged_checkpoint(&st, size, cp.lines().nth(2).unwrap(), [9; 32]);
    let bad_file = st.dir.path().join("bad-cp");
    std::fs::write(&bad_file, bad).unwrap();
    let witness = |file: &std::path::Path| {
        run_witness(&st, &elsewhere, &["--server", &url], file.to_str().unwrap())
    };
    let o = witness(&bad_file);
    assert!(!o.status.success());
    assert!(err(&o).contains("refusing to cosign"), "{}", err(&o));
    let o = witness(&served);
    ok(&o);
    assert!(err(&o).contains("map root checked"), "{}", err(&o));
    server.stop();
}

#[test]
fn an_appeal_bundle_written_before_the_map_still_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = common::project("tlog/bundle-before-the-map.kifu-bundle");
    let o = run(dir.path(), &["verify", fixture.to_str().unwrap()]);
    let out = ok(&o);
    assert!(
        out.contains("these 63 events are exactly the game bf15556c4a7b")
            && out.contains("at tree size 126"),
        "{out}"
    );
    assert!(
        out.contains("co-signed by witness witness.example/w1"),
        "{out}"
    );
    assert!(
        out.contains("no leaf of the log after that event names the game"),
        "{out}"
    );
    assert!(
        out.contains("as checkpointed by the tournament director"),
        "{out}"
    );

    // Its last event dropped: the tail it carries says so.
    let mut b: Value = serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    assert_eq!(b["format"], "kifu-bundle/1");
    b["records"].as_array_mut().unwrap().pop();
    let f = dir.path().join("short.kifu-bundle");
    std::fs::write(&f, serde_json::to_vec(&b).unwrap()).unwrap();
    let o = run(dir.path(), &["verify", f.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(err(&o).contains("removed from the end"), "{}", err(&o));
}

#[test]
fn a_checkpoint_without_a_map_root_gets_a_tail_bundle() {
    let st = setup();
    let v = st.checkpoint("cp2");
    // The store's tree signed as a checkpoint of before the map: no line.
    let plain = signed_by_operator(
        &st,
        v["size"].as_u64().unwrap(),
        v["root"].as_str().unwrap(),
        None,
    );
    std::fs::write(st.s("plain"), &plain).unwrap();
    let b = st.bundle(&st.s("plain"), &st.s("p.kifu-bundle"), &[]);
    assert_eq!(b["format"], "kifu-bundle/1");
    let (good, _, e) = st.verify(&b, "pv.kifu-bundle");
    assert!(good, "{e}");
    // Dressed as a map bundle, it has no map root to stand on.
    let mut m = st.bundle(&st.s("cp2"), &st.s("m.kifu-bundle"), &[]);
    m["checkpoint"] = json!(plain);
    let (good, _, e) = st.verify(&m, "mv.kifu-bundle");
    assert!(!good);
    assert!(e.contains("names no map root"), "{e}");
}

#[test]
fn an_auditor_remembers_the_log_and_reports_another_one() {
    let st = setup();
    let state = st.s("audit-state");
    let out = ok(&run(&st.data(), &["audit", "--state", &state]));
    assert!(out.contains(", 0 wrong"), "{out}");
    let remembered = std::fs::read_to_string(&state).unwrap();
    assert!(remembered.starts_with("kifu.example/map\n"), "{remembered}");

    // The log grows and is signed again: it extends what was remembered.
    append_reading(&st, 3000);
    st.checkpoint("cp2");
    let out = ok(&run(&st.data(), &["audit", "--state", &state]));
    assert!(out.contains("2 checkpoints audited"), "{out}");
    assert_ne!(std::fs::read_to_string(&state).unwrap(), remembered);

    // Another log (another demo, another store) shown to the same auditor.
    let other = setup();
    let o = run(&other.data(), &["audit", "--state", &state]);
    assert_eq!(o.status.code(), Some(3), "{}", common::out(&o));
    let out = common::out(&o);
    assert!(
        out.contains("WRONG: the log shrank") || out.contains("WRONG: the log's tree at size"),
        "{out}"
    );
}

#[test]
fn a_server_started_on_a_checkpoint_without_a_map_signs_the_tree_again_with_it() {
    let st = setup();
    let v = st.checkpoint("cp2");
    let size = v["size"].as_u64().unwrap();
    // The store's last checkpoint is one signed before the map existed.
    let plain = signed_by_operator(&st, size, v["root"].as_str().unwrap(), None);
    {
        let store = kifu_store::Store::open(&st.data()).unwrap();
        store.save_checkpoint(size, &plain).unwrap();
        assert_eq!(
            store.latest_checkpoint().unwrap(),
            Some((size, plain.clone()))
        );
    }
    let server = Served::start(
        &st.data(),
        &[
            "--checkpoint-key",
            &st.s("op.key"),
            "--checkpoint-every",
            "0",
        ],
    );
    let (status, cp) = http_get(&format!("{}/checkpoint", server.url));
    assert_eq!(status, 200, "{cp}");
    assert!(
        cp.starts_with(&format!("kifu.example/map\n{size}\n")),
        "{cp}"
    );
    assert!(cp.contains("\nkifu-map/1 "), "{cp}");
    let (status, body) = http_get(&format!("{}/games/{}/bundle", server.url, st.game));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("kifu-bundle/2"), "{body}");
    server.stop();
}
