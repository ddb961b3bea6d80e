//! End to end: the tournament chain's checkpoint of a game's head in an
//! appeal bundle (verified, tampered, forged), the director's facts
//! checkpointing finished games, `kifu verify` of a tournament chain file,
//! and the log operator's checkpoint key rotated in the log itself.

mod common;

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use common::{err, ok, out, run};
use kifu_ledger::{Body, Keypair, Record};
use serde_json::{json, Value};

struct Setup {
    dir: tempfile::TempDir,
    game: String,
    log_key: String,
}

impl Setup {
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    fn s(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
    fn key(&self, who: &str) -> String {
        self.data()
            .join(format!("demo-keys/{who}.key"))
            .display()
            .to_string()
    }
}

/// The demo (game and tournament), an operator key and a first checkpoint.
fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&run(&data, &["demo"]));
    let s = |n: &str| dir.path().join(n).display().to_string();
    for k in ["op", "op2", "stranger", "evil", "wit"] {
        ok(&run(&data, &["keygen", &s(k)]));
    }
    let v: Value = serde_json::from_str(&ok(&run(
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
    )))
    .unwrap();
    let log_key = v["log_key"].as_str().unwrap().to_string();
    let games = ok(&run(&data, &["games"]));
    let game = games
        .lines()
        .find(|l| l.contains("round 1, board 1"))
        .and_then(|l| l.split_whitespace().next())
        .expect("the demo game is listed")
        .to_string();
    Setup { dir, game, log_key }
}

fn bundle(st: &Setup, cp: &str, name: &str) -> Value {
    ok(&run(
        &st.data(),
        &["bundle", &st.game, "--out", &st.s(name), "--checkpoint", cp],
    ));
    serde_json::from_str(&std::fs::read_to_string(st.s(name)).unwrap()).unwrap()
}

fn verify(st: &Setup, b: &Value, name: &str) -> (bool, String, String) {
    let f = st.s(name);
    std::fs::write(&f, serde_json::to_vec_pretty(b).unwrap()).unwrap();
    let o = run(&st.data(), &["verify", &f]);
    (o.status.success(), out(&o), err(&o))
}

fn tournament_file(data: &Path) -> PathBuf {
    std::fs::read_dir(data.join("tournaments"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "kifu"))
        .expect("the demo tournament")
}

/// The last record of the bundle's tournament part, replaced by `edit`.
fn edit_last_tournament_record(b: &mut Value, edit: impl Fn(Record) -> Record) {
    let records = b["tournament_checkpoint"]["records"]
        .as_array_mut()
        .unwrap();
    let last = records.last_mut().unwrap();
    let rec = Record::from_stored(&B64.decode(last.as_str().unwrap()).unwrap()).unwrap();
    *last = json!(B64.encode(edit(rec).to_stored()));
}

fn pem_key(path: &str) -> Keypair {
    Keypair::from_pkcs8_pem(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_bundle_carries_the_directors_checkpoint_and_each_forgery_fails() {
    let st = setup();
    let b = bundle(&st, &st.s("cp1"), "b.json");
    let part = &b["tournament_checkpoint"];
    assert!(part.is_object(), "the demo tournament checkpoints the game");
    let (good, stdout, stderr) = verify(&st, &b, "b-ok.json");
    assert!(good, "{stderr}");
    assert!(
        stdout.contains(
            "the game's head as checkpointed by the tournament director (Tournament director) is seq 62"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("the bundle's last event"), "{stdout}");

    // A checkpoint naming another head hash, signed by the real director:
    // the chain verifies, the game disagrees.
    let director = pem_key(&st.key("director"));
    let mut forged = b.clone();
    edit_last_tournament_record(&mut forged, |rec| {
        let mut e = rec.decode().unwrap();
        if let Body::GameCheckpointed(c) = &mut e.body {
            c.head_hash[0] ^= 1;
        } else {
            panic!("the part ends with a checkpoint");
        }
        e.sign(&director).unwrap()
    });
    let (good, _, stderr) = verify(&st, &forged, "b-hash.json");
    assert!(!good);
    assert!(
        stderr.contains("the checkpoint and the logged game disagree"),
        "{stderr}"
    );

    // The same checkpoint signed by a stranger: the tournament chain refuses it.
    let stranger = pem_key(&st.s("stranger.key"));
    let mut forged = b.clone();
    edit_last_tournament_record(&mut forged, |rec| {
        let mut e = rec.decode().unwrap();
        e.signer = stranger.public();
        e.sign(&stranger).unwrap()
    });
    let (good, _, stderr) = verify(&st, &forged, "b-stranger.json");
    assert!(!good);
    assert!(
        stderr.contains("the tournament chain does not verify"),
        "{stderr}"
    );

    // A checkpoint naming a later seq than the bundle holds.
    let mut forged = b.clone();
    edit_last_tournament_record(&mut forged, |rec| {
        let mut e = rec.decode().unwrap();
        if let Body::GameCheckpointed(c) = &mut e.body {
            c.head_seq += 5;
        }
        e.sign(&director).unwrap()
    });
    let (good, _, stderr) = verify(&st, &forged, "b-later.json");
    assert!(!good);
    assert!(
        stderr.contains("events the tournament saw are missing"),
        "{stderr}"
    );

    // A record of the tournament chain dropped: the links break.
    let mut cut = b.clone();
    cut["tournament_checkpoint"]["records"]
        .as_array_mut()
        .unwrap()
        .remove(3);
    let (good, _, stderr) = verify(&st, &cut, "b-cut.json");
    assert!(!good);
    assert!(
        stderr.contains("the tournament chain does not verify"),
        "{stderr}"
    );

    // The game goes on after the checkpoint: the bundle says so.
    let ev = json!({"clock_reading": {"black_ms": 5, "white_ms": 1000, "black_overtime": null, "white_overtime": null, "read_by": "referee"}});
    ok(&common::run_stdin(
        &st.data(),
        &["append", &st.game, "--key", &st.key("referee")],
        &ev.to_string(),
    ));
    ok(&run(
        &st.data(),
        &[
            "checkpoint",
            "--key",
            &st.s("op.key"),
            "--out",
            &st.s("cp-later"),
        ],
    ));
    let later = bundle(&st, &st.s("cp-later"), "b-later-game.json");
    let (good, stdout, stderr) = verify(&st, &later, "b-later-ok.json");
    assert!(good, "{stderr}");
    assert!(
        stdout.contains("is seq 62") && stdout.contains("goes on past the checkpoint, to seq 63"),
        "{stdout}"
    );

    // The director's next fact checkpoints the finished game at its new head.
    let t = tournament_file(&st.data());
    let tid = t.file_stem().unwrap().to_string_lossy().to_string();
    let o = run(
        &st.data(),
        &[
            "tournament",
            "register",
            &tid,
            "--key",
            &st.key("director"),
            "--id",
            "Z9",
            "--surname",
            "Zed",
            "--rank",
            "5k",
        ],
    );
    let said = ok(&o);
    assert!(said.contains("1 finished game checkpointed"), "{said}");
    let log = ok(&run(&st.data(), &["tournament", "log", &tid, "--json"]));
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["kind"], "game checkpointed");
    assert_eq!(last["body"]["game_checkpointed"]["head_seq"], 63);
    let newest = bundle(&st, &st.s("cp-later"), "b-newest.json");
    let (good, stdout, stderr) = verify(&st, &newest, "b-newest-ok.json");
    assert!(good, "{stderr}");
    assert!(stdout.contains("is seq 63"), "{stdout}");
}

#[test]
fn kifu_verify_reads_a_tournament_chain_file() {
    let st = setup();
    let t = tournament_file(&st.data());
    let o = run(&st.data(), &["verify", &t.display().to_string(), "--json"]);
    let v: Value = serde_json::from_str(&ok(&o)).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["rounds"], 3);
    assert_eq!(v["players"], 5);
    assert_eq!(v["checkpoints"].as_array().unwrap().len(), 1);
    assert_eq!(v["checkpoints"][0]["head_seq"], 62);
    let o = run(&st.data(), &["verify", &t.display().to_string()]);
    let text = ok(&o);
    assert!(text.contains("3 rounds (3 paired), 5 players"), "{text}");

    // One byte of a signature changed: refused.
    let mut bytes = std::fs::read(&t).unwrap();
    let n = bytes.len();
    bytes[n - 10] ^= 1;
    let bad = st.s("bad.kifu");
    std::fs::write(&bad, bytes).unwrap();
    let o = run(&st.data(), &["verify", &bad]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
}

#[test]
fn a_checkpoint_signed_by_a_rotated_key_verifies_only_with_the_rotation_proof() {
    let st = setup();
    let data = st.data();
    // Rotate: the statement is logged, signed by the old key; the tree
    // that holds it is signed by the new key.
    let v: Value = serde_json::from_str(&ok(&run(
        &data,
        &[
            "checkpoint",
            "--key",
            &st.s("op.key"),
            "--rotate-to",
            &st.s("op2.key"),
            "--out",
            &st.s("cp2"),
            "--json",
        ],
    )))
    .unwrap();
    let new_key = v["log_key"].as_str().unwrap().to_string();
    assert_ne!(new_key, st.log_key);
    assert_eq!(v["old_log_key"], st.log_key.as_str());
    // The operator's chain is in the store but is not a game.
    let listed: Value = serde_json::from_str(&ok(&run(&data, &["games", "--json"]))).unwrap();
    let operator = v["operator_chain"].as_str().unwrap();
    let rows = listed
        .as_array()
        .or_else(|| listed["games"].as_array())
        .unwrap();
    assert!(!rows.is_empty());
    assert!(
        rows.iter().all(|r| r["game"].as_str() != Some(operator)),
        "kifu games lists the log operator's chain: {listed}"
    );
    // A checkpoint signed again with the old key is refused.
    let again = run(&data, &["checkpoint", "--key", &st.s("op.key")]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("rotated to"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    ok(&run(
        &data,
        &[
            "prove",
            "rotation",
            "--checkpoint",
            &st.s("cp2"),
            "--out",
            &st.s("rot.json"),
        ],
    ));
    let inc = ok(&run(
        &data,
        &[
            "prove",
            "inclusion",
            &st.game,
            "5",
            "--checkpoint",
            &st.s("cp2"),
        ],
    ));
    std::fs::write(st.s("inc.json"), inc).unwrap();

    // Given only the old key: with the rotation proof it verifies...
    let with = run(
        &data,
        &[
            "check-proof",
            "inclusion",
            &st.s("inc.json"),
            "--checkpoint",
            &st.s("cp2"),
            "--log-key",
            &st.log_key,
            "--rotation",
            &st.s("rot.json"),
        ],
    );
    assert!(ok(&with).contains(&new_key));
    // ...without it, it does not.
    let without = run(
        &data,
        &[
            "check-proof",
            "inclusion",
            &st.s("inc.json"),
            "--checkpoint",
            &st.s("cp2"),
            "--log-key",
            &st.log_key,
        ],
    );
    assert_eq!(without.status.code(), Some(3));
    assert!(err(&without).contains("needs the proof of its rotation"));

    // Consistency across the rotation: old key's checkpoint to the new key's.
    let cons = ok(&run(&data, &["prove", "consistency", "63", "65"]));
    std::fs::write(st.s("cons.json"), cons).unwrap();
    ok(&run(
        &data,
        &[
            "check-proof",
            "consistency",
            &st.s("cons.json"),
            "--old",
            &st.s("cp1"),
            "--new",
            &st.s("cp2"),
            "--log-key",
            &st.log_key,
            "--rotation",
            &st.s("rot.json"),
        ],
    ));

    // A witness that knows the old key cosigns the new key's checkpoint
    // with the rotation proof, after the one it saw before the rotation.
    let w = |cp: &str, rot: Option<&str>| {
        let mut args = vec![
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
            st.s(&format!("{cp}.cosigned")),
        ];
        if let Some(r) = rot {
            args.extend(["--rotation".into(), st.s(r)]);
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&data, &refs)
    };
    ok(&w("cp1", None));
    let refused = w("cp2", None);
    assert!(!refused.status.success(), "a new key without its rotation");
    ok(&w("cp2", Some("rot.json")));

    // The bundle carries the rotation and names both keys.
    let b = bundle(&st, &st.s("cp2"), "b.json");
    assert_eq!(b["log_key"], st.log_key.as_str());
    assert_eq!(b["log_key_rotations"].as_array().unwrap().len(), 1);
    let (good, stdout, stderr) = verify(&st, &b, "b-ok.json");
    assert!(good, "{stderr}");
    assert!(
        stdout.contains(&format!("the log's key was rotated to {new_key}")),
        "{stdout}"
    );
    // Without its rotation, the bundle's checkpoint is not the log key's.
    let mut bare = b.clone();
    bare.as_object_mut().unwrap().remove("log_key_rotations");
    let (good, _, stderr) = verify(&st, &bare, "b-bare.json");
    assert!(!good);
    assert!(stderr.contains("checkpoint"), "{stderr}");

    // After the rotation the store signs only with the new key.
    let o = run(&data, &["checkpoint", "--key", &st.s("op.key")]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains(&format!("rotated to {new_key}")),
        "{}",
        err(&o)
    );

    // The same tree signed by yet another key, with no rotation to it in
    // the log: the rotation proof leads to op2, not to it.
    let cp2 = kifu_tlog::note::Note::parse(&std::fs::read_to_string(st.s("cp2")).unwrap()).unwrap();
    let mut cp3 = kifu_tlog::note::Note::new(cp2.text.clone()).unwrap();
    kifu_tlog::note::NoteSigner::new("kifu.example/open", [0x55; 32])
        .unwrap()
        .sign(&mut cp3);
    std::fs::write(st.s("cp3"), cp3.to_text()).unwrap();
    let o = run(
        &data,
        &[
            "check-proof",
            "inclusion",
            &st.s("inc.json"),
            "--checkpoint",
            &st.s("cp3"),
            "--log-key",
            &st.log_key,
            "--rotation",
            &st.s("rot.json"),
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(
        err(&o).contains("no signature by a known key"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_rotation_signed_by_a_stranger_is_refused() {
    let st = setup();
    // Another log, run by a stranger, under the same origin: the stranger
    // "rotates" to a key of his own.
    let other = st.dir.path().join("other");
    ok(&run(&other, &["demo"]));
    ok(&run(
        &other,
        &[
            "checkpoint",
            "--key",
            &st.s("stranger.key"),
            "--origin",
            "kifu.example/open",
        ],
    ));
    ok(&run(
        &other,
        &[
            "checkpoint",
            "--key",
            &st.s("stranger.key"),
            "--rotate-to",
            &st.s("evil.key"),
            "--out",
            &st.s("cp-evil"),
        ],
    ));
    ok(&run(
        &other,
        &["prove", "rotation", "--out", &st.s("rot-evil.json")],
    ));
    let other_game = ok(&run(&other, &["games"]))
        .lines()
        .find(|l| l.contains("round 1, board 1"))
        .and_then(|l| l.split_whitespace().next())
        .expect("the demo game")
        .to_string();
    let inc = ok(&run(
        &other,
        &[
            "prove",
            "inclusion",
            &other_game,
            "5",
            "--checkpoint",
            &st.s("cp-evil"),
        ],
    ));
    std::fs::write(st.s("inc-evil.json"), inc).unwrap();
    // A verifier that trusts the real operator's key refuses it.
    let o = run(
        &other,
        &[
            "check-proof",
            "inclusion",
            &st.s("inc-evil.json"),
            "--checkpoint",
            &st.s("cp-evil"),
            "--log-key",
            &st.log_key,
            "--rotation",
            &st.s("rot-evil.json"),
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(
        err(&o).contains("only the log's key can name its successor"),
        "{}",
        err(&o)
    );
    // The stranger's store refuses a rotation by a key that is not its log's.
    let o = run(
        &other,
        &[
            "checkpoint",
            "--key",
            &st.s("op.key"),
            "--rotate-to",
            &st.s("op2.key"),
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("only the log's current key can rotate it"));
}

/// The vector of `docs/TRANSPARENCY.md` section 8: an operator chain (its
/// genesis and one `log_key_rotated`) as the two leaves of a log, the
/// checkpoint of that tree signed by the new key, and the rotation proof;
/// `fixtures/tlog/log_keys.json` (regenerate with `KIFU_WRITE_VECTORS=1`).
/// The CLI accepts the checkpoint given only the old key and the proof.
#[test]
fn the_rotation_vector_matches_the_fixture_and_the_cli_accepts_it() {
    use kifu_ledger::{
        Event, GameKind, Genesis, Head, Participant, Role, TimeControl, FORMAT_VERSION, ZERO_HASH,
    };
    use kifu_store::tlog::Leaf;
    use kifu_tlog::note::{Note, NoteSigner, NoteVerifier};

    const T0: u64 = 1_767_225_600_000;
    let origin = "kifu.example/vectors";
    let old = Keypair::from_seed([0x11; 32]);
    let new = Keypair::from_seed([0x33; 32]);
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: "lgc-2023".into(),
        overrides: Vec::new(),
        board_size: 19,
        handicap: 0,
        komi_half_points: 0,
        time_control: TimeControl::Untimed,
        roster: vec![Participant {
            role: Role::Recorder,
            name: "log operator".into(),
            key: old.public(),
        }],
        tournament: None,
        title: format!("kifu log operator {origin}"),
        auto_declare: false,
    };
    let g = Event {
        version: FORMAT_VERSION,
        chain: ZERO_HASH,
        seq: 0,
        prev_hash: ZERO_HASH,
        at_ms: T0,
        signer: old.public(),
        body: Body::GameCreated(genesis),
    }
    .sign(&old)
    .unwrap();
    let game = g.hash();
    let rotate = |signer: &Keypair| {
        Event::next(
            game,
            Head { seq: 0, hash: game },
            T0 + 1000,
            signer.public(),
            Body::LogKeyRotated {
                origin: origin.into(),
                new_key: new.public(),
            },
        )
        .sign(signer)
        .unwrap()
    };
    let r = rotate(&old);
    let leaf = |seq: u64, rec: &Record| Leaf {
        game,
        seq,
        record_hash: rec.hash(),
    };
    let (l0, l1) = (leaf(0, &g), leaf(1, &r));
    let root = kifu_tlog::node_hash(&l0.hash(), &l1.hash());
    let mut note = Note::new(format!("{origin}\n2\n{}\n", B64.encode(root))).unwrap();
    let new_signer = NoteSigner::new(origin, [0x33; 32]).unwrap();
    new_signer.sign(&mut note);
    let old_vkey = NoteVerifier::ed25519(origin, old.public().verifying_key().unwrap()).to_vkey();
    let proof = |rec: &Record| {
        json!({
            "format": "kifu-log-keys/1",
            "origin": origin,
            "tree_size": 2,
            "log_key": old_vkey,
            "rotations": [{
                "leaf_index": 1,
                "record": B64.encode(rec.to_stored()),
                "inclusion": [B64.encode(l0.hash())],
            }],
        })
    };
    let v = json!({
        "origin": origin,
        "old_seed": hex::encode([0x11u8; 32]),
        "new_seed": hex::encode([0x33u8; 32]),
        "old_log_key": old_vkey,
        "new_log_key": new_signer.verifier().to_vkey(),
        "operator_genesis_record": hex::encode(g.to_stored()),
        "rotation_event_bytes": hex::encode(&r.event_bytes),
        "rotation_signature": hex::encode(r.signature),
        "rotation_json": serde_json::to_value(r.decode().unwrap().body).unwrap(),
        "leaves": [hex::encode(l0.to_bytes()), hex::encode(l1.to_bytes())],
        "root": B64.encode(root),
        "checkpoint": note.to_text(),
        "rotation_proof": proof(&r),
    });
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    let fixture = common::project("tlog/log_keys.json");
    if std::env::var_os("KIFU_WRITE_VECTORS").is_some() {
        std::fs::write(&fixture, &text).unwrap();
    }
    let stored = std::fs::read_to_string(&fixture).expect("fixtures/tlog/log_keys.json");
    assert_eq!(
        stored, text,
        "regenerate with KIFU_WRITE_VECTORS=1 and review the diff"
    );

    // The CLI, given the old key only.
    let dir = tempfile::tempdir().unwrap();
    let f = |n: &str| dir.path().join(n).display().to_string();
    std::fs::write(f("cp"), note.to_text()).unwrap();
    std::fs::write(f("rot.json"), proof(&r).to_string()).unwrap();
    let inc = json!({"leaf_index": 0, "tree_size": 2, "hashes": [B64.encode(l1.hash())],
                     "leaf": hex::encode(l0.to_bytes())});
    std::fs::write(f("inc.json"), inc.to_string()).unwrap();
    let check = |rot: &str| {
        run(
            dir.path(),
            &[
                "check-proof",
                "inclusion",
                &f("inc.json"),
                "--checkpoint",
                &f("cp"),
                "--log-key",
                &old_vkey,
                "--rotation",
                &f(rot),
            ],
        )
    };
    assert!(ok(&check("rot.json")).contains(&new_signer.verifier().to_vkey()));
    // The same statement signed by a stranger (in a tree built the same way).
    let stranger = Keypair::from_seed([0x44; 32]);
    let forged = rotate(&stranger);
    std::fs::write(f("forged.json"), proof(&forged).to_string()).unwrap();
    let o = check("forged.json");
    assert_eq!(o.status.code(), Some(3));
    assert!(
        err(&o).contains("only the log's key can name its successor"),
        "{}",
        err(&o)
    );
}

/// Go's `sumdb/note` verifies the new key's checkpoint of the rotation
/// vector directly, and `sumdb/tlog` accepts the rotation statement's
/// inclusion proof in that checkpoint's tree (`tests/peers/sumdb_check.go`).
/// Skipped with a message when Go or its x/mod sources are absent, unless
/// `KIFU_REQUIRE_PEERS=1`.
#[test]
fn go_sumdb_checks_the_rotation_vector() {
    const GOPATH: &str = "/usr/share/gocode";
    let root = common::workspace();
    let go = ["go", "/usr/lib/go/bin/go", "/usr/bin/go"]
        .iter()
        .map(PathBuf::from)
        .find(|p| {
            std::process::Command::new(p)
                .arg("version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let sources = Path::new(GOPATH).join("src/golang.org/x/mod/sumdb/tlog/tlog.go");
    let Some(go) = go.filter(|_| sources.exists()) else {
        let msg = "go or golang.org/x/mod sources absent (apt-get install golang-go golang-golang-x-mod-dev)";
        assert!(!common::peers_required(), "KIFU_REQUIRE_PEERS=1: {msg}");
        eprintln!("skipped: {msg}");
        return;
    };
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(common::project("tlog/log_keys.json")).unwrap(),
    )
    .unwrap();
    let rot = &v["rotation_proof"]["rotations"][0];
    let doc = |log_vkey: &Value| {
        json!({
            "leaves": v["leaves"],
            "roots": [{"size": 2, "root": v["root"]}],
            "log_vkey": log_vkey,
            "checkpoint": v["checkpoint"],
            "inclusion": [{"leaf_index": 1, "tree_size": 2, "hashes": rot["inclusion"],
                           "leaf": v["leaves"][1]}],
        })
    };
    let dir = tempfile::tempdir().unwrap();
    let cache = root.join("target/gocache");
    let _ = std::fs::create_dir_all(&cache);
    let check = |name: &str, d: Value| {
        let f = dir.path().join(name);
        std::fs::write(&f, d.to_string()).unwrap();
        let o = std::process::Command::new(&go)
            .current_dir(&root)
            .env("GOPATH", GOPATH)
            .env("GO111MODULE", "off")
            .env("GOFLAGS", "-mod=mod")
            .env("GOCACHE", &cache)
            .env("GOTOOLCHAIN", "local")
            .args(["run", "tests/peers/sumdb_check.go"])
            .arg(&f)
            .output()
            .expect("run go");
        (o.status.success(), out(&o), err(&o))
    };
    let (good, stdout, stderr) = check("new.json", doc(&v["new_log_key"]));
    assert!(good, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Go note.Open verifies the checkpoint"),
        "{stdout}"
    );
    assert!(
        stdout.contains("CheckRecord accepts 1 inclusion"),
        "{stdout}"
    );
    // Go, given only the old key, does not know the new one: the rotation
    // proof is what a verifier of the old key needs.
    let (good, stdout, _) = check("old.json", doc(&v["old_log_key"]));
    assert!(!good, "{stdout}");
}
