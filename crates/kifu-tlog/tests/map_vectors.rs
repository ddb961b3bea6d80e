//! The map of game heads' vectors (`docs/TRANSPARENCY.md` section 10) in
//! `fixtures/tlog/map.json` (regenerate with
//! `KIFU_WRITE_VECTORS=1 cargo test -p kifu-tlog --test map_vectors`), and
//! their independent check, `tests/peers/map_check.py`, written from the
//! document alone (Python's standard library; required with
//! `KIFU_REQUIRE_PEERS=1`).

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::map::{self, MapLeaf, MemMap};
use kifu_tlog::note::{Note, NoteSigner};
use kifu_tlog::{Leaf, MemTree};
use serde_json::{json, Value};

fn root_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture_path() -> PathBuf {
    root_dir().join("fixtures/tlog/map.json")
}

fn id(first: &[u8], last: u8) -> [u8; 32] {
    let mut g = [0u8; 32];
    g[..first.len()].copy_from_slice(first);
    g[31] |= last;
    g
}

/// The games: ids that part at the first bit, the second, and the last
/// (the deepest path a map can have).
fn games() -> Vec<(&'static str, [u8; 32])> {
    vec![
        ("A", id(&[], 0)),
        ("B", id(&[0x80], 0)),
        ("C", id(&[], 1)),
        ("D", id(&[0x40], 0)),
        ("E", [0xff; 32]),
    ]
}

fn log() -> Vec<Leaf> {
    let g = games();
    let order = [
        (0, 0),
        (1, 0),
        (0, 1),
        (2, 0),
        (3, 0),
        (0, 2),
        (2, 1),
        (4, 0),
        (1, 1),
    ];
    order
        .iter()
        .map(|&(gi, seq)| {
            let mut record_hash = [0u8; 32];
            record_hash[0] = gi as u8;
            record_hash[31] = seq as u8;
            record_hash[15] = 0xee;
            Leaf {
                game: g[gi].1,
                seq,
                record_hash,
            }
        })
        .collect()
}

fn proof_json(game: &[u8; 32], p: &map::MapProof, expect: &str) -> Value {
    let mut v = p.to_json();
    v["game"] = json!(hex::encode(game));
    v["expect"] = json!(expect);
    v
}

fn vectors() -> Value {
    let leaves = log();
    let mut mem = MemMap::new();
    let mut tree = MemTree::new();
    let mut maps = vec![json!({"size": 0, "root": B64.encode(map::EMPTY), "entries": []})];
    for (i, l) in leaves.iter().enumerate() {
        tree.push(&l.to_bytes());
        mem.extend(std::slice::from_ref(l));
        let entries: Vec<String> = map::heads_of(0, &leaves[..=i])
            .iter()
            .map(|e| hex::encode(e.to_bytes()))
            .collect();
        maps.push(json!({"size": i + 1, "root": B64.encode(mem.root()), "entries": entries}));
    }
    let root = mem.root();
    let mut proofs = Vec::new();
    for (name, g) in games() {
        let p = mem.prove(&g);
        assert!(map::verify(&root, &g, &p).unwrap().is_some(), "{name}");
        proofs.push(proof_json(&g, &p, "present"));
    }
    // Absent: next to A and C (sharing 254 bits), under an empty branch,
    // and beside D.
    for g in [id(&[], 2), id(&[0xc0], 0), id(&[0x41], 0)] {
        let p = mem.prove(&g);
        assert_eq!(map::verify(&root, &g, &p), Ok(None));
        proofs.push(proof_json(&g, &p, "absent"));
    }
    // Invalid: a stale entry for A (seq 1 at leaf 2), a sibling dropped,
    // another game's proof given for A, and an absence proof for D whose
    // entry (B) does not share D's path.
    let a = games()[0].1;
    let mut stale = mem.prove(&a);
    stale.leaf = Some(MapLeaf {
        head: leaves[2],
        leaf_index: 2,
    });
    proofs.push(proof_json(&a, &stale, "invalid"));
    let mut short = mem.prove(&a);
    short.siblings.remove(0);
    proofs.push(proof_json(&a, &short, "invalid"));
    let other = mem.prove(&games()[2].1);
    proofs.push(proof_json(&a, &other, "invalid"));
    let d = games()[3].1;
    let mut off = mem.prove(&d);
    off.leaf = mem.prove(&games()[1].1).leaf;
    proofs.push(proof_json(&d, &off, "invalid"));
    for p in &proofs[proofs.len() - 4..] {
        let g: [u8; 32] = hex::decode(p["game"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let mp = map::MapProof::from_json(p).unwrap();
        assert!(map::verify(&root, &g, &mp).is_err(), "{p}");
    }
    let example = map::heads_of(0, &leaves)[0];
    let signer = NoteSigner::new("kifu.example/vectors", [0x11; 32]).unwrap();
    let mut cp = Checkpoint::new("kifu.example/vectors", tree.size(), tree.root());
    cp.extensions.push(map::map_line(&root));
    let mut note = Note::new(cp.to_text()).unwrap();
    signer.sign(&mut note);
    json!({
        "about": "docs/TRANSPARENCY.md section 10: the map of game heads. leaves: the log's 72-byte leaves in order; maps: the map after each prefix of the log (entries: 80-byte map leaves, sorted by game id); proofs: at the last size, each with what a verifier must conclude",
        "games": games().iter().map(|(n, g)| json!({"name": n, "id": hex::encode(g)})).collect::<Vec<_>>(),
        "leaves": leaves.iter().map(|l| hex::encode(l.to_bytes())).collect::<Vec<_>>(),
        "empty": hex::encode(map::EMPTY),
        "leaf_hash": {"map_leaf": hex::encode(example.to_bytes()), "hash": hex::encode(example.hash())},
        "node_hash": {"left": hex::encode([1u8; 32]), "right": hex::encode([2u8; 32]),
                      "hash": hex::encode(map::map_node_hash(&[1; 32], &[2; 32]))},
        "maps": maps,
        "proofs": proofs,
        "log_vkey": signer.verifier().to_vkey(),
        "checkpoint": note.to_text(),
    })
}

#[test]
fn the_map_fixture_file_matches_the_code() {
    let text = serde_json::to_string_pretty(&vectors()).unwrap() + "\n";
    if std::env::var_os("KIFU_WRITE_VECTORS").is_some() {
        std::fs::write(fixture_path(), &text).unwrap();
    }
    let stored = std::fs::read_to_string(fixture_path()).expect("fixtures/tlog/map.json");
    assert_eq!(
        stored, text,
        "regenerate with KIFU_WRITE_VECTORS=1 and review the diff"
    );
}

/// `python3`, or `None` (after saying why) when the peer is absent.
fn python() -> Option<PathBuf> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(PathBuf::from("python3"));
    }
    let msg = "python3 absent";
    if std::env::var("KIFU_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!("KIFU_REQUIRE_PEERS=1: {msg}");
    }
    eprintln!("skipped: {msg}");
    None
}

fn run_peer(py: &Path, file: &Path) -> (bool, String, String) {
    let out = Command::new(py)
        .current_dir(root_dir())
        .arg("tests/peers/map_check.py")
        .arg(file)
        .output()
        .expect("run python3");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_independent_python_check_agrees_with_the_map_vectors() {
    let Some(py) = python() else { return };
    let (ok, out, err) = run_peer(&py, &fixture_path());
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("ok: every map root"), "{out}");
    assert!(out.contains("ok: every proof"), "{out}");

    // A vector changed by one bit fails the peer: it does check.
    let dir = tempfile::tempdir().unwrap();
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture_path()).unwrap()).unwrap();
    let r = v["maps"][4]["root"].as_str().unwrap().to_string();
    let mut bytes = B64.decode(&r).unwrap();
    bytes[0] ^= 1;
    v["maps"][4]["root"] = json!(B64.encode(bytes));
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_vec(&v).unwrap()).unwrap();
    let (ok, out, _) = run_peer(&py, &bad);
    assert!(!ok, "{out}");
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture_path()).unwrap()).unwrap();
    v["proofs"][0]["expect"] = json!("absent");
    std::fs::write(&bad, serde_json::to_vec(&v).unwrap()).unwrap();
    let (ok, out, _) = run_peer(&py, &bad);
    assert!(!ok, "{out}");
}
