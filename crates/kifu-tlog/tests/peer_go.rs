//! Go's `golang.org/x/mod/sumdb/note` and `sumdb/tlog` check kifu's output:
//! the vectors file, and a larger random log with checkpoint and proofs.
//!
//! Needs `go` and Debian's `golang-golang-x-mod-dev` sources (see
//! `tests/peers/sumdb_check.go`); skipped with a message when they are absent,
//! unless `KIFU_REQUIRE_PEERS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::cosign::{witness, Cosigner};
use kifu_tlog::note::{Note, NoteSigner};
use kifu_tlog::proof::{ConsistencyProof, InclusionProof};
use kifu_tlog::MemTree;
use serde_json::json;

const GOPATH: &str = "/usr/share/gocode";

fn root_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `go` binary, or `None` (after saying why) when the peer is absent.
fn go() -> Option<PathBuf> {
    let candidates = ["go", "/usr/lib/go/bin/go", "/usr/bin/go"];
    let go = candidates.iter().map(PathBuf::from).find(|p| {
        Command::new(p)
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let sources = Path::new(GOPATH).join("src/golang.org/x/mod/sumdb/tlog/tlog.go");
    match go {
        Some(g) if sources.exists() => Some(g),
        _ => {
            let msg = "go or golang.org/x/mod sources absent (apt-get install golang-go golang-golang-x-mod-dev)";
            if std::env::var("KIFU_REQUIRE_PEERS").as_deref() == Ok("1") {
                panic!("KIFU_REQUIRE_PEERS=1: {msg}");
            }
            eprintln!("skipped: {msg}");
            None
        }
    }
}

/// Runs the Go checker on a JSON file; returns (success, stdout, stderr).
pub fn run_go_check(go: &Path, file: &Path) -> (bool, String, String) {
    let root = root_dir();
    let cache = root.join("target/gocache");
    let _ = std::fs::create_dir_all(&cache);
    let out = Command::new(go)
        .current_dir(&root)
        .env("GOPATH", GOPATH)
        .env("GO111MODULE", "off")
        .env("GOFLAGS", "-mod=mod")
        .env("GOCACHE", &cache)
        .env("GOTOOLCHAIN", "local")
        .args(["run", "tests/peers/sumdb_check.go"])
        .arg(file)
        .output()
        .expect("run go");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn go_sumdb_checks_the_vectors_file() {
    let Some(go) = go() else { return };
    let (ok, out, err) = run_go_check(&go, &root_dir().join("fixtures/tlog/vectors.json"));
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("Go note.Open verifies the checkpoint"),
        "{out}"
    );
    assert!(
        out.contains("cosignature/v1 by witness.kifu.example/w1"),
        "{out}"
    );
    assert!(
        out.contains("CheckRecord accepts 36 inclusion proofs"),
        "{out}"
    );
    assert!(
        out.contains("CheckTree accepts 36 consistency proofs"),
        "{out}"
    );
    assert!(out.contains("3 tiles equal"), "{out}");
}

/// A deterministic pseudo-random sequence (no randomness in tests' data).
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 11
}

#[test]
fn go_sumdb_checks_a_random_log_and_rejects_a_tampered_proof() {
    let Some(go) = go() else { return };
    let mut s = 0x6b69_6675u64;
    let n = 1000 + lcg(&mut s) % 500;
    let mut t = MemTree::new();
    let mut leaves = Vec::new();
    for _ in 0..n {
        let len = (lcg(&mut s) % 80) as usize;
        let data: Vec<u8> = (0..len).map(|_| lcg(&mut s) as u8).collect();
        t.push(&data);
        leaves.push(hex::encode(&data));
    }
    let log = NoteSigner::new("kifu.example/random", [5; 32]).unwrap();
    let wit = Cosigner::new("witness.example/random", [6; 32]).unwrap();
    let mut note =
        Note::new(Checkpoint::new("kifu.example/random", n, t.root()).to_text()).unwrap();
    log.sign(&mut note);
    witness(&wit, &log.verifier(), &mut note, None, &[], 1_750_000_000).unwrap();
    let mut inclusion = Vec::new();
    let mut consistency = Vec::new();
    let mut roots = Vec::new();
    for _ in 0..60 {
        let size = 1 + lcg(&mut s) % n;
        let index = lcg(&mut s) % size;
        let p = InclusionProof {
            leaf_index: index,
            tree_size: size,
            hashes: t.prove_inclusion(index, size).unwrap(),
        };
        inclusion.push(serde_json::to_value(&p).unwrap());
        let old = 1 + lcg(&mut s) % size;
        let c = ConsistencyProof {
            old_size: old,
            new_size: size,
            hashes: t.prove_consistency(old, size).unwrap(),
        };
        consistency.push(serde_json::to_value(&c).unwrap());
        roots.push(json!({"size": size, "root": B64.encode(t.root_at(size).unwrap())}));
    }
    let doc = json!({
        "leaves": leaves,
        "roots": roots,
        "log_vkey": log.verifier().to_vkey(),
        "cosigned_checkpoint": note.to_text(),
        "witness_vkey": wit.verifier().to_vkey(),
        "inclusion": inclusion,
        "consistency": consistency,
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("random.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let (ok, out, err) = run_go_check(&go, &file);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("CheckRecord accepts 60 inclusion proofs"),
        "{out}"
    );

    // One hash of one proof changed: Go refuses it.
    let mut bad = doc.clone();
    let first_nonempty = bad["inclusion"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| !p["hashes"].as_array().unwrap().is_empty())
        .unwrap();
    first_nonempty["hashes"][0] = json!(B64.encode([0x42u8; 32]));
    std::fs::write(&file, serde_json::to_vec(&bad).unwrap()).unwrap();
    let (ok, _, err) = run_go_check(&go, &file);
    assert!(!ok);
    assert!(err.contains("tlog.CheckRecord"), "{err}");

    // A checkpoint signed by another key under the same name: Go refuses it.
    let mut forged = doc.clone();
    let other = NoteSigner::new("kifu.example/random", [7; 32]).unwrap();
    let mut n2 = Note::new(Checkpoint::new("kifu.example/random", n, t.root()).to_text()).unwrap();
    other.sign(&mut n2);
    forged["cosigned_checkpoint"] = json!(n2.to_text());
    std::fs::write(&file, serde_json::to_vec(&forged).unwrap()).unwrap();
    let (ok, _, err) = run_go_check(&go, &file);
    assert!(!ok);
    assert!(err.contains("note.Open"), "{err}");
}

/// The map vectors' checkpoint (`fixtures/tlog/map.json`, section 10 of
/// `docs/TRANSPARENCY.md`) carries the `kifu-map/1` extension line: Go's
/// `sumdb/note` opens it, and its tree root is the root Go computes from
/// the leaves.
#[test]
fn go_sumdb_reads_the_checkpoint_with_the_map_line() {
    let Some(go) = go() else { return };
    let file = root_dir().join("fixtures/tlog/map.json");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("kifu-map/1 "),
        "the vectors' checkpoint names a map root"
    );
    let (ok, out, err) = run_go_check(&go, &file);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("ok: 9 leaves"), "{out}");
    assert!(
        out.contains("Go note.Open verifies the checkpoint of kifu.example/vectors at size 9"),
        "{out}"
    );
}
