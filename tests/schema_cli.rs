//! The JSON documents kifu prints and serves hold to their schemas in
//! `docs/schema/`: the real output of `kifu verify`, `games`, `replay`,
//! `explain` and `tournament standings` with `--json` on the demonstration,
//! and the API's answers for the same store, checked by a JSON Schema
//! (2020-12) validator.

mod common;
use common::*;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn schema(name: &str) -> jsonschema::Validator {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/schema")
        .join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).expect("a schema is JSON");
    assert_eq!(
        v["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{name}"
    );
    assert_eq!(v["$id"], format!("urn:kifu:schema:{name}:1"), "{name}");
    jsonschema::validator_for(&v).unwrap_or_else(|e| panic!("{name}: not a schema: {e}"))
}

fn holds(name: &str, doc: &Value, what: &str) {
    let v = schema(name);
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not hold to {name}.schema.json:\n{}",
        errors.join("\n")
    );
}

fn json_of(data: &Path, args: &[&str]) -> Value {
    let text = ok(&run(data, args));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}: {text}"))
}

fn get(url: &str) -> (u16, Value) {
    let r = match ureq::get(url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    (r.status(), r.into_json().expect("JSON"))
}

fn demo() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    ok(&run(dir.path(), &["demo"]));
    let games = json_of(dir.path(), &["games", "--json"]);
    let game = games[0]["game"].as_str().expect("a game").to_string();
    let tournament = std::fs::read_dir(dir.path().join("tournaments"))
        .expect("the demonstration's tournament")
        .flatten()
        .find_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".kifu").map(|id| id[..12].to_string())
        })
        .expect("a tournament file");
    (dir, game, tournament)
}

#[test]
fn the_command_lines_json_holds_to_its_schemas() {
    let (dir, game, tournament) = demo();
    let data = dir.path();
    holds(
        "games",
        &json_of(data, &["games", "--json"]),
        "kifu games --json",
    );
    holds(
        "verify-report",
        &json_of(data, &["verify", "--json"]),
        "kifu verify --json",
    );
    holds(
        "replay",
        &json_of(data, &["replay", &game, "--json"]),
        "kifu replay --json",
    );
    holds(
        "replay",
        &json_of(data, &["replay", &game, "--json", "--at", "0"]),
        "kifu replay --json --at 0",
    );
    holds(
        "replay",
        &json_of(data, &["replay", &game, "--json", "--at", "30"]),
        "kifu replay --json --at 30",
    );
    holds(
        "explain",
        &json_of(data, &["explain", &game, "--json"]),
        "kifu explain --json",
    );
    holds(
        "standings",
        &json_of(data, &["tournament", "standings", &tournament, "--json"]),
        "kifu tournament standings --json",
    );
}

#[test]
fn the_apis_answers_hold_to_their_schemas() {
    let (dir, game, _) = demo();
    let served = Served::start(dir.path(), &[]);
    let u = &served.url;
    let (status, list) = get(&format!("{u}/games"));
    assert_eq!(status, 200);
    holds("api-games", &list, "GET /games");
    let items = list["games"].as_array().expect("games");
    assert!(!items.is_empty());
    for g in items {
        holds("api-game", g, "an item of GET /games");
    }
    let (_, one) = get(&format!("{u}/games/{game}"));
    holds("api-game", &one, "GET /games/{id}");
    let (_, head) = get(&format!("{u}/games/{game}/head"));
    holds("api-head", &head, "GET /games/{id}/head");
    let (status, missing) = get(&format!("{u}/games/00ff"));
    assert_eq!(status, 404);
    holds("api-error", &missing, "a 404 answer");
    for at in ["", "?at=0", "?at=30"] {
        let (_, s) = get(&format!("{u}/games/{game}/state{at}"));
        holds("replay", &s, "GET /games/{id}/state");
    }
    let (_, e) = get(&format!("{u}/games/{game}/explain"));
    holds("explain", &e, "GET /games/{id}/explain");
    let (_, v) = get(&format!("{u}/verify"));
    holds("verify-report", &v, "GET /verify");
    let (_, v) = get(&format!("{u}/games/{game}/verify"));
    holds("verify-report", &v, "GET /games/{id}/verify");
    served.stop();
}

#[test]
fn a_document_that_breaks_its_schema_is_refused() {
    // The schemas say something: a report whose `ok` is not a boolean, a
    // game id that is not 64 hex digits, or a missing field fails.
    let (dir, game, _) = demo();
    let mut report = json_of(dir.path(), &["verify", "--json"]);
    assert!(schema("verify-report").is_valid(&report));
    report["ok"] = Value::String("yes".into());
    assert!(!schema("verify-report").is_valid(&report));
    let mut head = serde_json::json!({"game": game, "seq": 3, "hash": game});
    assert!(schema("api-head").is_valid(&head));
    head["game"] = Value::String("d661".into());
    assert!(!schema("api-head").is_valid(&head));
    let mut replay = json_of(dir.path(), &["replay", &game, "--json"]);
    replay.as_object_mut().unwrap().remove("view");
    assert!(!schema("replay").is_valid(&replay));
}
