//! An integrator's tools read `docs/openapi.json`: a standard validator
//! (openapi-spec-validator) accepts it, openapi-python-client generates a
//! client from it, and that client records and follows a game on a real
//! `kifu serve` (`tests/peers/openapi_client.py`: records signed with
//! Python's own Ed25519, every answer parsed by the generated models).
//! Skipped with a message when python3 or those packages are absent,
//! unless `KIFU_REQUIRE_PEERS=1` (`.ci/run` installs them).

mod common;
use common::*;

use std::process::Command;

/// True when python3 has the generator, the validator, and what the client
/// program signs and hashes with.
fn python_ready() -> bool {
    let ready = Command::new("python3")
        .args([
            "-c",
            "import openapi_python_client, openapi_spec_validator, httpx, attrs, dateutil, blake3, cryptography",
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ready {
        assert!(
            !peers_required(),
            "python3 with openapi-python-client, openapi-spec-validator, blake3 and cryptography is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!(
            "skipped: python3 with openapi-python-client and openapi-spec-validator is absent"
        );
    }
    ready
}

#[test]
fn the_openapi_document_passes_a_standard_validator() {
    if !python_ready() {
        return;
    }
    let o = Command::new("python3")
        .args([
            "-c",
            "import json, sys\nfrom openapi_spec_validator import validate\nd = json.load(open(sys.argv[1]))\nvalidate(d)\nprint(d['openapi'], d['info']['version'], len(d['paths']))",
        ])
        .arg(workspace().join("docs/openapi.json"))
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let words: Vec<&str> = said.split_whitespace().collect();
    assert_eq!(words[0], "3.1.1", "{said}");
    // The version is semantic: MAJOR.MINOR.PATCH.
    let version: Vec<&str> = words[1].split('.').collect();
    assert_eq!(version.len(), 3, "{said}");
    assert!(version.iter().all(|n| n.parse::<u32>().is_ok()), "{said}");
    assert!(words[2].parse::<usize>().unwrap() > 50, "{said}");
}

#[test]
fn a_generated_python_client_records_and_follows_a_game() {
    if !python_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kifu_client");
    let o = Command::new("python3")
        .args([
            "-m",
            "openapi_python_client",
            "generate",
            "--meta",
            "none",
            "--path",
        ])
        .arg(workspace().join("docs/openapi.json"))
        .arg("--output-path")
        .arg(&out)
        .output()
        .expect("python3 runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{said}");
    // Every schema became a model: the generator gave up on none (its
    // warnings are for media types it leaves to the caller: SGF, icons).
    assert!(!said.contains("Unable to"), "{said}");
    for module in [
        "api/records/submit_records.py",
        "models/replay.py",
        "models/feed_line.py",
    ] {
        assert!(out.join(module).exists(), "{module} was not generated");
    }

    let data = dir.path().join("data");
    let key = dir.path().join("operator");
    ok(&run(&data, &["keygen", key.to_str().unwrap()]));
    let served = Served::start(
        &data,
        &["--checkpoint-key", &format!("{}.key", key.display())],
    );
    let o = Command::new("python3")
        .arg(workspace().join("tests/peers/openapi_client.py"))
        .arg(&served.url)
        .arg(workspace().join("fixtures/format/vectors.json"))
        .env("PYTHONPATH", dir.path())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // What the program saw is what the store holds.
    let words: Vec<&str> = said.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"ok"), "{said}");
    let (game, seq, state_hash) = (words[1], words[2], words[3]);
    assert_eq!(seq, "3");
    served.stop();
    let replay: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["replay", game, "--json"]))).unwrap();
    assert_eq!(replay["game"], game);
    assert_eq!(replay["last_seq"], 3);
    assert_eq!(replay["view"]["state_hash"], state_hash);
    assert_eq!(replay["verified"], true);
}
