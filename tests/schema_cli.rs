//! The JSON documents kifu prints and serves hold to their schemas in
//! `docs/schema/`: the real output of `kifu verify`, `games`, `replay`,
//! `explain` and `tournament standings` with `--json` on the demonstration,
//! and the API's answers for the same store, checked by a JSON Schema
//! (2020-12) validator.

mod common;
use common::*;

use std::collections::BTreeMap;
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
    holds("api-verify-report", &v, "GET /verify");
    let (_, v) = get(&format!("{u}/games/{game}/verify"));
    holds("api-verify-report", &v, "GET /games/{id}/verify");
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

/// What an answer of the API is, for the schemas: one JSON document, lines
/// of NDJSON, Server-Sent Events whose `data:` lines are JSON, or not JSON
/// at all (a page, a file, a signed note, metrics).
#[derive(Clone, Copy, Debug)]
enum Answer {
    Json(&'static str),
    Ndjson(&'static str),
    Sse(&'static str),
    NotJson,
}

/// Every route `docs/API.md` shows, with the schema of its answer: method,
/// path (`{id}` a game, `{t}` a tournament, `*` the rest of the path), a
/// query that picks the entry (empty: any), and the answer. The first entry
/// that matches wins.
const ROUTES: &[(&str, &str, &str, Answer)] = &[
    ("POST", "/records", "", Answer::Json("api-submit")),
    ("GET", "/games", "", Answer::Json("api-games")),
    ("GET", "/games/{id}", "", Answer::Json("api-game")),
    ("GET", "/games/{id}/head", "", Answer::Json("api-head")),
    (
        "GET",
        "/games/{id}/records",
        "format=bytes",
        Answer::NotJson,
    ),
    (
        "GET",
        "/games/{id}/records",
        "",
        Answer::Json("api-records"),
    ),
    (
        "GET",
        "/games/{id}/state",
        "compact=1",
        Answer::Json("api-step"),
    ),
    ("GET", "/games/{id}/state", "", Answer::Json("replay")),
    ("GET", "/games/{id}/explain", "", Answer::Json("explain")),
    ("GET", "/games/{id}/explain.txt", "", Answer::NotJson),
    ("GET", "/games/{id}/sgf", "", Answer::NotJson),
    ("GET", "/games/{id}/archive", "", Answer::NotJson),
    (
        "GET",
        "/games/{id}/verify",
        "",
        Answer::Json("api-verify-report"),
    ),
    ("GET", "/games/{id}/bundle", "", Answer::NotJson),
    ("GET", "/archive", "", Answer::NotJson),
    (
        "GET",
        "/verify",
        "progress=1",
        Answer::Ndjson("api-verify-progress"),
    ),
    ("GET", "/verify", "", Answer::Json("api-verify-report")),
    ("POST", "/devices", "", Answer::Json("api-device")),
    ("GET", "/devices", "", Answer::Json("api-devices")),
    ("GET", "/devices/{id}", "", Answer::Json("api-device")),
    (
        "POST",
        "/games/{id}/preview",
        "",
        Answer::Json("api-preview"),
    ),
    ("GET", "/referee", "", Answer::NotJson),
    (
        "GET",
        "/referee/games",
        "",
        Answer::Json("api-referee-games"),
    ),
    ("GET", "/games/{id}/powers", "", Answer::Json("api-powers")),
    (
        "GET",
        "/feed",
        "form=compact",
        Answer::Ndjson("feed-compact-line"),
    ),
    ("GET", "/feed", "", Answer::Ndjson("feed-line")),
    (
        "GET",
        "/feed/stream",
        "form=compact",
        Answer::Sse("feed-compact-line"),
    ),
    ("GET", "/feed/stream", "", Answer::Sse("feed-line")),
    ("GET", "/tournaments", "", Answer::Json("api-tournaments")),
    (
        "GET",
        "/tournaments/{t}",
        "",
        Answer::Json("api-tournament"),
    ),
    (
        "GET",
        "/tournaments/{t}/pairings",
        "",
        Answer::Json("api-pairings"),
    ),
    (
        "GET",
        "/tournaments/{t}/crosstable",
        "",
        Answer::Json("api-crosstable"),
    ),
    (
        "GET",
        "/tournaments/{t}/standings",
        "",
        Answer::Json("api-tournament-standings"),
    ),
    ("GET", "/tournaments/{t}/events", "", Answer::NotJson),
    (
        "POST",
        "/tournaments",
        "",
        Answer::Json("api-tournament-write"),
    ),
    (
        "POST",
        "/tournaments/{t}/records",
        "",
        Answer::Json("api-tournament-write"),
    ),
    ("GET", "/tournaments/{t}/records", "", Answer::NotJson),
    ("GET", "/tournaments/{t}/export", "", Answer::NotJson),
    ("GET", "/director", "", Answer::NotJson),
    (
        "GET",
        "/director/tournaments",
        "",
        Answer::Json("api-tournaments"),
    ),
    ("GET", "/tournaments/{t}/desk", "", Answer::Json("api-desk")),
    ("POST", "/director/draft", "", Answer::Json("api-draft")),
    (
        "GET",
        "/checkpoint",
        "format=json",
        Answer::Json("checkpoint"),
    ),
    ("GET", "/checkpoint", "", Answer::NotJson),
    ("POST", "/checkpoint", "", Answer::NotJson),
    ("GET", "/proof/inclusion", "format=text", Answer::NotJson),
    (
        "GET",
        "/proof/inclusion",
        "",
        Answer::Json("inclusion-proof"),
    ),
    ("GET", "/proof/consistency", "format=text", Answer::NotJson),
    (
        "GET",
        "/proof/consistency",
        "",
        Answer::Json("consistency-proof"),
    ),
    ("GET", "/proof/map", "", Answer::Json("map-proof")),
    ("GET", "/tile/*", "", Answer::NotJson),
    ("GET", "/livez", "", Answer::Json("api-health")),
    ("GET", "/healthz", "", Answer::Json("api-health")),
    ("GET", "/metrics", "", Answer::NotJson),
    ("GET", "/openapi.json", "", Answer::NotJson),
];

/// The entry of [`ROUTES`] for a request, or None.
fn route_of(method: &str, path: &str, query: &str) -> Option<Answer> {
    let segs: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    ROUTES.iter().find_map(|(m, p, q, answer)| {
        let want: Vec<&str> = p.split('/').collect();
        let fits = if want.last() == Some(&"*") {
            segs.len() >= want.len() && want[..want.len() - 1] == segs[..want.len() - 1]
        } else {
            want.len() == segs.len()
                && want
                    .iter()
                    .zip(&segs)
                    .all(|(w, s)| w == s || (w.starts_with('{') && !s.is_empty()))
        };
        (*m == method && fits && (q.is_empty() || query.split('&').any(|x| x == *q)))
            .then_some(*answer)
    })
}

/// A request of `docs/API.md`: the method, the path with the example's
/// placeholders as the routes name them, the query, and the `curl` line it
/// came from (None for a route listed in a `text` block).
#[derive(Debug)]
struct DocRequest {
    method: String,
    path: String,
    query: String,
    curl: Option<String>,
}

/// Every request `docs/API.md` shows: its `curl` lines (in `sh` and `bash`
/// blocks) and the `GET /...` and `POST /...` lines of its `text` blocks.
fn api_doc_requests() -> Vec<DocRequest> {
    let doc = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md"),
    )
    .expect("docs/API.md");
    let mut out = Vec::new();
    let mut block = String::new();
    let mut inside = false;
    for line in doc.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            inside = !inside;
            block = if inside {
                lang.to_string()
            } else {
                String::new()
            };
            continue;
        }
        if !inside {
            continue;
        }
        let t = line.trim_start();
        if (block == "sh" || block == "bash") && t.starts_with("curl ") {
            let Some(start) = t.find("\"$KIFU") else {
                continue;
            };
            let rest = &t[start + "\"$KIFU".len()..];
            let url = &rest[..rest.find('"').unwrap_or(rest.len())];
            let (path, query) = url.split_once('?').unwrap_or((url, ""));
            out.push(DocRequest {
                method: if t.contains("-X POST") { "POST" } else { "GET" }.into(),
                path: path.replace("$GAME", "{id}"),
                query: query.to_string(),
                curl: Some(t.to_string()),
            });
        } else if block == "text" {
            for method in ["GET", "POST"] {
                if let Some(rest) = t.strip_prefix(method).and_then(|r| r.strip_prefix(' ')) {
                    let target = rest.split_whitespace().next().unwrap_or("");
                    let (path, query) = target.split_once('?').unwrap_or((target, ""));
                    out.push(DocRequest {
                        method: method.into(),
                        path: path.replace("/T/", "/{t}/").replace("/T", "/{t}"),
                        query: query.to_string(),
                        curl: None,
                    });
                }
            }
        }
    }
    out
}

fn curl_present() -> bool {
    std::process::Command::new("curl")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Each JSON document of `text`, as its answer is: one document, or one
/// per line (NDJSON), or one per `data:` line (Server-Sent Events).
fn documents(answer: Answer, text: &str, what: &str) -> Vec<Value> {
    let parse = |s: &str| -> Value {
        serde_json::from_str(s).unwrap_or_else(|e| panic!("{what}: not JSON: {e}: {s}"))
    };
    match answer {
        Answer::Json(_) => vec![parse(text)],
        Answer::Ndjson(_) => text.lines().filter(|l| !l.is_empty()).map(parse).collect(),
        // A stream cut by a timeout may end inside an event: only whole
        // lines are read.
        Answer::Sse(_) => text[..text.rfind('\n').map_or(0, |i| i + 1)]
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| parse(d.trim_start()))
            .collect(),
        Answer::NotJson => Vec::new(),
    }
}

fn schema_of(answer: Answer) -> Option<&'static str> {
    match answer {
        Answer::Json(s) | Answer::Ndjson(s) | Answer::Sse(s) => Some(s),
        Answer::NotJson => None,
    }
}

#[test]
fn every_json_route_of_the_api_doc_is_covered_by_a_schema() {
    // The table covers every request docs/API.md shows, and each schema it
    // names is a file of docs/schema/ that compiles.
    let requests = api_doc_requests();
    assert!(requests.len() >= 40, "{requests:?}");
    let mut missing = Vec::new();
    for r in &requests {
        match route_of(&r.method, &r.path, &r.query) {
            Some(a) => {
                if let Some(name) = schema_of(a) {
                    schema(name);
                }
            }
            None => missing.push(format!("{} {}?{}", r.method, r.path, r.query)),
        }
    }
    assert!(
        missing.is_empty(),
        "docs/API.md shows routes the schema table does not cover:\n{}",
        missing.join("\n")
    );
    // And every schema file is named by the table or by a command's output.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema");
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let f = e.file_name().to_string_lossy().into_owned();
        if let Some(name) = f.strip_suffix(".schema.json") {
            let named = ROUTES
                .iter()
                .any(|(_, _, _, a)| schema_of(*a) == Some(name))
                || [
                    "games",
                    "standings",
                    "api-error",
                    "sanctions",
                    "cli-demo",
                    "cli-keygen",
                    "cli-new-game",
                    "cli-append",
                    "cli-export",
                    "cli-import",
                    "cli-fingerprint",
                    "cli-sgf-import",
                    "tournament-log-line",
                    "tournament-verify",
                    "cli-tournament-new",
                    "cli-audit-line",
                    "bundle-verify",
                    "clock-replay",
                    "renju-check",
                    "cli-error",
                    "cli-key-change",
                    "sgf-board",
                    "verify-report",
                    "cli-key-rotation",
                    "cli-clock-vectors",
                    "cli-check-pairing",
                    "cli-devices",
                    // A line of the feed for a damaged store's record.
                    "feed-unreadable-line",
                    // Request bodies, not answers.
                    "api-submission",
                    "api-preview-draft",
                    "api-device-request",
                    "api-director-intent",
                ]
                .contains(&name);
            assert!(named, "{f} describes no route or command");
            schema(name);
        }
    }
}

/// The referee's next event in `game` (a pause for an announcement), signed
/// with the demonstration's referee key in `client`: the `record.bin` the
/// examples of `POST /records` send. Returns the referee's key in hex.
fn referee_record(client: &Path, url: &str, game: &str, out: &Path) -> String {
    let key = kifu_ledger::Keypair::from_pkcs8_pem(
        &std::fs::read_to_string(client.join("demo-keys/referee.key")).unwrap(),
    )
    .unwrap();
    let (_, h) = get(&format!("{url}/games/{game}/head"));
    let head = kifu_ledger::Head {
        seq: h["seq"].as_u64().unwrap(),
        hash: hex::decode(h["hash"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap(),
    };
    let (_, g) = get(&format!("{url}/games/{game}"));
    let at = g["last_at_ms"].as_u64().unwrap() + 1_000;
    let id: [u8; 32] = hex::decode(game).unwrap().try_into().unwrap();
    let rec = kifu_ledger::Event::next(
        id,
        head,
        at,
        key.public(),
        kifu_ledger::Body::ClockPaused {
            reason: kifu_ledger::PauseReason::Announcement,
        },
    )
    .sign(&key)
    .unwrap();
    std::fs::write(out, rec.to_stored()).unwrap();
    key.public().to_hex()
}

fn fetch(method: &str, url: &str, content_type: &str, body: &[u8]) -> (u16, String) {
    let req = ureq::request(method, url).timeout(std::time::Duration::from_secs(60));
    let r = if method == "POST" {
        req.set("Content-Type", content_type).send_bytes(body)
    } else {
        req.call()
    };
    let r = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = r.status();
    (status, r.into_string().expect("a text answer"))
}

#[test]
fn every_api_example_answers_as_its_schema_says() {
    if !curl_present() {
        assert!(!peers_required(), "curl is required (KIFU_REQUIRE_PEERS=1)");
        eprintln!("skipping the API examples: curl is not installed");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let client = t.path().join("client");
    let work = t.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    ok(&run(
        t.path(),
        &["keygen", t.path().join("operator").to_str().unwrap()],
    ));
    let operator = t.path().join("operator.key");
    let served = Served::start(&data, &["--checkpoint-key", operator.to_str().unwrap()]);
    let url = served.url.clone();
    // The five demonstration games the transparency log's examples assume
    // (a log of 315 leaves), the first one the examples' game.
    let first: Value =
        serde_json::from_str(&ok(&run(&client, &["--server", &url, "demo", "--json"]))).unwrap();
    let game = first["game"].as_str().unwrap().to_string();
    let referee = referee_record(&client, &url, &game, &work.join("record.bin"));
    for i in 0..4 {
        let other = t.path().join(format!("client{i}"));
        ok(&run(&other, &["--server", &url, "demo", "--json"]));
    }
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut holds_all = |answer: Answer, text: &str, what: &str| {
        let Some(name) = schema_of(answer) else {
            return;
        };
        let docs = documents(answer, text, what);
        // A page of the feed past its end, or a stream cut before an
        // event, is empty; one JSON document never is.
        assert!(
            !docs.is_empty() || !matches!(answer, Answer::Json(_)),
            "{what}: no document in {text:?}"
        );
        for d in &docs {
            holds(name, d, what);
        }
        *checked.entry(name).or_default() += docs.len();
    };
    // The curl lines, run as written.
    let requests = api_doc_requests();
    for r in requests.iter().filter(|r| r.curl.is_some()) {
        let ex = r.curl.as_deref().unwrap();
        let answer =
            route_of(&r.method, &r.path, &r.query).unwrap_or_else(|| panic!("no schema for {ex}"));
        let o = std::process::Command::new("bash")
            .args(["-c", ex])
            .current_dir(&work)
            .env("KIFU", &url)
            .env("GAME", &game[..12])
            .env("REFEREE_KEY", &referee)
            .output()
            .expect("bash runs");
        assert!(
            o.status.success(),
            "{ex}\nexit {:?}\n{}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        );
        holds_all(answer, &String::from_utf8_lossy(&o.stdout), ex);
    }
    // `kifu devices --json` prints what `GET /devices` answers.
    let devices = json_of(&client, &["--server", &url, "devices", "--json"]);
    assert!(
        !devices["requests"].as_array().unwrap().is_empty(),
        "{devices}"
    );
    holds("api-devices", &devices, "kifu devices --json");
    // The routes of the `text` blocks, with the demonstration's tournament
    // (a demonstration through a server keeps none: it is sent to the
    // server as a director sends a new one).
    let (local, _, _) = demo();
    let file = std::fs::read_dir(local.path().join("tournaments"))
        .unwrap()
        .flatten()
        .next()
        .expect("the demonstration's tournament file")
        .path();
    let (status, text) = fetch(
        "POST",
        &format!("{url}/tournaments"),
        "application/octet-stream",
        &std::fs::read(&file).unwrap(),
    );
    assert_eq!(status, 201, "{text}");
    holds_all(
        Answer::Json("api-tournament-write"),
        &text,
        "POST /tournaments",
    );
    let (_, list) = get(&format!("{url}/tournaments"));
    let tournament = list["tournaments"][0]["id"]
        .as_str()
        .expect("a tournament")
        .to_string();
    let t12 = &tournament[..12];
    let (_, desk) = get(&format!("{url}/tournaments/{t12}/desk"));
    let director = desk["officials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["role"] == "director")
        .and_then(|o| o["key"].as_str())
        .expect("the director")
        .to_string();
    let chain_bytes = {
        let r = ureq::get(&format!("{url}/tournaments/{t12}/records"))
            .call()
            .expect("the chain");
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut r.into_reader(), &mut b).unwrap();
        b
    };
    assert!(!chain_bytes.is_empty());
    let draft = serde_json::json!({"do": "create", "director_key": director,
        "director_name": "Director", "name": "Schema Cup", "short_name": "schema-cup", "rounds": 3});
    for r in requests.iter().filter(|r| r.curl.is_none()) {
        let answer = route_of(&r.method, &r.path, &r.query)
            .unwrap_or_else(|| panic!("no schema for {} {}", r.method, r.path));
        if schema_of(answer).is_none() {
            continue;
        }
        let path = r.path.replace("{t}", t12);
        let (status, text) = match (r.method.as_str(), r.path.as_str()) {
            ("POST", "/director/draft") => fetch(
                "POST",
                &format!("{url}{path}"),
                "application/json",
                draft.to_string().as_bytes(),
            ),
            ("POST", _) => fetch(
                "POST",
                &format!("{url}{path}"),
                "application/octet-stream",
                &chain_bytes,
            ),
            _ => {
                let query = r
                    .query
                    .replace("round=N", "round=1")
                    .replace("key=HEX", &format!("key={director}"));
                fetch("GET", &format!("{url}{path}?{query}"), "", b"")
            }
        };
        assert!(status < 300, "{} {path}: {status} {text}", r.method);
        holds_all(answer, &text, &format!("{} {}", r.method, r.path));
    }
    // The routes docs/API.md describes in words: the map proof, a
    // tournament's standings after each round, an error.
    let (_, text) = fetch("GET", &format!("{url}/proof/map?game={game}"), "", b"");
    holds_all(Answer::Json("map-proof"), &text, "GET /proof/map");
    for round in 1..=3 {
        let q = format!("{url}/tournaments/{t12}/standings?round={round}");
        holds_all(
            Answer::Json("api-tournament-standings"),
            &fetch("GET", &q, "", b"").1,
            &q,
        );
    }
    let (status, text) = fetch(
        "GET",
        &format!("{url}/tournaments/{t12}/pairings?round=9"),
        "",
        b"",
    );
    assert_eq!(status, 400, "{text}");
    holds_all(
        Answer::Json("api-error"),
        &text,
        "a round outside the tournament",
    );
    // A round drawn by the engine, with a swap and its reason: the draft
    // of `pair_auto` (its `draw` with why per board), then, signed, what
    // `kifu tournament verify --json` says of the departures.
    let spring = tempfile::tempdir().unwrap();
    let data = spring.path().join("data");
    ok(&run(
        &data,
        &["keygen", spring.path().join("dir").to_str().unwrap()],
    ));
    let key = spring.path().join("dir.key").to_str().unwrap().to_string();
    ok(&run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &key,
            "--name",
            "Spring",
            "--short-name",
            "spring",
            "--rounds",
            "3",
        ],
    ));
    for (id, rank) in [
        ("P1", "3d"),
        ("P2", "1d"),
        ("P3", "2k"),
        ("P4", "5k"),
        ("P5", "12k"),
    ] {
        ok(&run(
            &data,
            &[
                "tournament",
                "register",
                "spring",
                "--key",
                &key,
                "--id",
                id,
                "--surname",
                id,
                "--rank",
                rank,
            ],
        ));
    }
    let file = std::fs::read_dir(data.join("tournaments"))
        .unwrap()
        .flatten()
        .next()
        .expect("the tournament's file")
        .path();
    let (status, text) = fetch(
        "POST",
        &format!("{url}/tournaments"),
        "application/octet-stream",
        &std::fs::read(&file).unwrap(),
    );
    assert_eq!(status, 201, "{text}");
    let swap = serde_json::json!({"do": "pair_auto", "tournament": "spring", "round": 1,
        "swaps": [{"first": "P1", "second": "P5", "reason": "P1 must leave early"}]});
    let (status, text) = fetch(
        "POST",
        &format!("{url}/director/draft"),
        "application/json",
        swap.to_string().as_bytes(),
    );
    assert_eq!(status, 200, "{text}");
    holds_all(
        Answer::Json("api-draft"),
        &text,
        "POST /director/draft pair_auto",
    );
    let drafted: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(drafted["draw"]["bye"], "P1", "{drafted}");
    assert_eq!(drafted["draw"]["bye_changed"], true, "{drafted}");
    // The colours of a handicap game (P3 2k against P4 5k: 2 stones) are
    // the rule's: refused in words, nothing drafted.
    let colours = serde_json::json!({"do": "pair_auto", "tournament": "spring", "round": 1,
        "swaps": [{"first": "P3", "second": "P4", "reason": "asked"}]});
    let (status, text) = fetch(
        "POST",
        &format!("{url}/director/draft"),
        "application/json",
        colours.to_string().as_bytes(),
    );
    assert_eq!(status, 422, "{text}");
    assert!(
        text.contains("handicap game") && text.contains("nothing signed"),
        "{text}"
    );
    holds_all(
        Answer::Json("api-error"),
        &text,
        "a handicap game's colours swapped",
    );
    ok(&run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--round",
            "1",
            "--auto",
            "--key",
            &key,
            "--swap",
            "P1:P5",
            "--reason",
            "P1 must leave early",
        ],
    ));
    let verified = json_of(&data, &["tournament", "verify", "spring", "--json"]);
    holds(
        "tournament-verify",
        &verified,
        "kifu tournament verify --json, a swapped round",
    );
    assert!(
        !verified["draws"][0]["departures"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{verified}"
    );
    // Every schema of an answer was used on a real one.
    for (_, _, _, a) in ROUTES {
        if let Some(name) = schema_of(*a) {
            assert!(
                checked.contains_key(name),
                "no answer checked against {name}: {checked:?}"
            );
        }
    }
    assert!(served.terminate().success());
    // The data directory's own listing, once the server has stopped.
    let kept = json_of(&data, &["devices", "--json"]);
    holds("cli-devices", &kept, "kifu devices --json (no server)");
}

#[test]
fn every_line_of_the_feed_holds_to_its_schema() {
    // The demonstration's records followed page by page through `GET /feed`,
    // the stream's `data:` lines and `kifu feed`: every line holds to
    // feed-line, and the pages hold every record once.
    let (dir, _, _) = demo();
    let local = ok(&run(dir.path(), &["feed"]));
    let lines: Vec<Value> = local
        .lines()
        .map(|l| serde_json::from_str(l).expect("a feed line is JSON"))
        .collect();
    assert!(lines.len() > 60, "{}", lines.len());
    for l in &lines {
        holds("feed-line", l, "a line of kifu feed");
    }
    let served = Served::start(dir.path(), &[]);
    let u = &served.url;
    let mut seen = 0usize;
    let mut after: Option<u64> = None;
    for _ in 0..100 {
        let q = match after {
            Some(a) => format!("{u}/feed?after={a}&limit=10"),
            None => format!("{u}/feed?limit=10"),
        };
        let (status, text) = fetch("GET", &q, "", b"");
        assert_eq!(status, 200, "{text}");
        let page = documents(Answer::Ndjson("feed-line"), &text, &q);
        if page.is_empty() {
            break;
        }
        for l in &page {
            holds("feed-line", l, "a line of GET /feed");
            after = l["cursor"].as_u64();
        }
        seen += page.len();
    }
    assert_eq!(seen, lines.len(), "the pages hold every record once");
    // The compact form: one line a record, with its stored bytes.
    let q = format!("{u}/feed?limit=10&form=compact");
    let (status, text) = fetch("GET", &q, "", b"");
    assert_eq!(status, 200, "{text}");
    let page = documents(Answer::Ndjson("feed-compact-line"), &text, &q);
    assert_eq!(page.len(), 10, "{text}");
    for (l, full) in page.iter().zip(&lines) {
        holds("feed-compact-line", l, "a line of GET /feed?form=compact");
        assert_eq!((&l["cursor"], &l["hash"]), (&full["cursor"], &full["hash"]));
    }
    // The stream: a bounded read of the events after the fifth from the end.
    let from = lines[lines.len() - 6]["cursor"].as_u64().unwrap();
    let mut r = ureq::get(&format!("{u}/feed/stream?after={from}"))
        .timeout(std::time::Duration::from_secs(20))
        .call()
        .expect("the stream")
        .into_reader();
    let mut text = String::new();
    let mut buf = [0u8; 4096];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let complete = |t: &str| {
        t.split('\n')
            .rev()
            .skip(1)
            .filter(|l| l.starts_with("data:"))
            .count()
    };
    while complete(&text) < 5 && std::time::Instant::now() < deadline {
        match std::io::Read::read(&mut r, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => text.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
    }
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let events = documents(Answer::Sse("feed-line"), complete, "GET /feed/stream");
    assert_eq!(events.len(), 5, "{text}");
    for e in &events {
        holds("feed-line", e, "a data line of GET /feed/stream");
    }
    served.stop();
}

/// A Renju game of five stones in a store of its own, through the command
/// line: its id.
fn renju_game(data: &Path, keys: &Path) -> String {
    let key = |n: &str| keys.join(n).to_str().unwrap().to_string();
    for n in ["rb", "rw", "rr"] {
        ok(&run(data, &["keygen", &key(n)]));
    }
    let (b, w, r) = (
        format!("B={}.pub", key("rb")),
        format!("W={}.pub", key("rw")),
        format!("R={}.pub", key("rr")),
    );
    let game = ok(&run(
        data,
        &[
            "new-game",
            "--key",
            &format!("{}.key", key("rr")),
            "--black",
            &b,
            "--white",
            &w,
            "--referee",
            &r,
            "--game",
            "renju",
            "--size",
            "15",
            "--ruleset",
            "rif-renju",
        ],
    ))
    .trim()
    .to_string();
    for (colour, x, y) in [
        ("black", 7, 7),
        ("white", 7, 8),
        ("black", 8, 8),
        ("white", 6, 6),
        ("black", 8, 7),
    ] {
        let signer = if colour == "black" {
            key("rb")
        } else {
            key("rw")
        };
        let body = serde_json::json!({"stone_placed": {"player": colour, "stone": colour, "point": {"x": x, "y": y}}});
        ok(&run_stdin(
            data,
            &["append", &game, "--key", &format!("{signer}.key")],
            &body.to_string(),
        ));
    }
    game
}

#[test]
fn the_replay_of_every_event_holds_to_its_schema() {
    // Every event of the demonstration (disputes, a ruling, an appeal, the
    // count) and of a Renju game, through the command line and the
    // server's full, compact and device views.
    let (dir, game, _) = demo();
    let data = dir.path();
    let renju = renju_game(data, data);
    let last = json_of(data, &["replay", &game, "--json"])["last_seq"]
        .as_u64()
        .unwrap();
    for at in (0..=last).step_by(7).chain([last]) {
        let what = format!("kifu replay --json --at {at}");
        holds(
            "replay",
            &json_of(data, &["replay", &game, "--json", "--at", &at.to_string()]),
            &what,
        );
    }
    for at in 0..=5 {
        let what = format!("kifu replay (Renju) --json --at {at}");
        holds(
            "replay",
            &json_of(data, &["replay", &renju, "--json", "--at", &at.to_string()]),
            &what,
        );
    }
    holds(
        "explain",
        &json_of(data, &["explain", &renju, "--json"]),
        "kifu explain --json (Renju)",
    );
    let served = Served::start(data, &[]);
    let u = &served.url;
    for at in 0..=last {
        let (_, s) = get(&format!("{u}/games/{game}/state?at={at}&forbidden=1"));
        holds("replay", &s, &format!("GET state?at={at}"));
        let (_, s) = get(&format!("{u}/games/{game}/state?at={at}&compact=1"));
        holds("api-step", &s, &format!("GET state?at={at}&compact=1"));
    }
    for at in 0..=5 {
        let (_, s) = get(&format!("{u}/games/{renju}/state?at={at}&forbidden=1"));
        holds(
            "replay",
            &s,
            &format!("GET state?at={at}&forbidden=1 (Renju)"),
        );
        let (_, s) = get(&format!(
            "{u}/games/{renju}/state?at={at}&compact=1&forbidden=1"
        ));
        holds(
            "api-step",
            &s,
            &format!("GET state?at={at}&compact=1 (Renju)"),
        );
    }
    for g in [&game, &renju] {
        for q in ["", "&since=40", "&forbidden=1"] {
            let (_, s) = get(&format!("{u}/games/{g}/state?device=1{q}"));
            holds("replay", &s, &format!("GET state?device=1{q}"));
        }
    }
    served.stop();
}

#[test]
fn a_field_the_schemas_do_not_name_is_refused() {
    // Every object is closed: a field that is not documented fails, deep in
    // the projection as at the top.
    let (dir, game, _) = demo();
    let replay = json_of(dir.path(), &["replay", &game, "--json"]);
    assert!(schema("replay").is_valid(&replay));
    for pointer in [
        "",
        "/state",
        "/state/genesis",
        "/state/clock",
        "/state/board",
        "/view",
        "/text",
        "/board_view",
    ] {
        let mut r = replay.clone();
        r.pointer_mut(pointer)
            .and_then(Value::as_object_mut)
            .unwrap_or_else(|| panic!("{pointer}"))
            .insert("arrived".into(), serde_json::json!([true, true]));
        assert!(
            !schema("replay").is_valid(&r),
            "an extra field at {pointer:?} passes"
        );
    }
    let explain = json_of(dir.path(), &["explain", &game, "--json"]);
    let mut e = explain.clone();
    e["events"][3]["internal"] = Value::Bool(true);
    assert!(!schema("explain").is_valid(&e));
    let line: Value =
        serde_json::from_str(ok(&run(dir.path(), &["feed"])).lines().next().unwrap()).unwrap();
    assert!(schema("feed-line").is_valid(&line));
    let mut l = line.clone();
    l["body"] = serde_json::json!({"no_such_kind": {}});
    assert!(
        !schema("feed-line").is_valid(&l),
        "a body of no kind passes"
    );
}

#[test]
fn the_logs_json_on_the_command_line_holds_to_its_schemas() {
    // `kifu checkpoint --json` and `kifu prove` print the documents the
    // server answers at `/checkpoint?format=json` and `/proof/...`.
    let (dir, game, _) = demo();
    let data = dir.path();
    let op = data.join("operator");
    ok(&run(data, &["keygen", op.to_str().unwrap()]));
    let key = data.join("operator.key");
    holds(
        "checkpoint",
        &json_of(
            data,
            &["checkpoint", "--key", key.to_str().unwrap(), "--json"],
        ),
        "kifu checkpoint --json",
    );
    // The key rotated: the first checkpoint of the new key, with the
    // rotation's place.
    ok(&run(
        data,
        &["keygen", data.join("operator2").to_str().unwrap()],
    ));
    let key2 = data.join("operator2.key");
    holds(
        "cli-key-rotation",
        &json_of(
            data,
            &[
                "checkpoint",
                "--key",
                key.to_str().unwrap(),
                "--rotate-to",
                key2.to_str().unwrap(),
                "--json",
            ],
        ),
        "kifu checkpoint --rotate-to --json",
    );
    holds(
        "inclusion-proof",
        &json_of(data, &["prove", "inclusion", &game, "5"]),
        "kifu prove inclusion",
    );
    holds(
        "consistency-proof",
        &json_of(data, &["prove", "consistency", "10", "60"]),
        "kifu prove consistency",
    );
    holds(
        "map-proof",
        &json_of(data, &["prove", "map", &game]),
        "kifu prove map",
    );
    let audit = ok(&run(data, &["audit", "--json"]));
    assert!(audit.lines().count() >= 2, "{audit}");
    for l in audit.lines() {
        holds(
            "cli-audit-line",
            &serde_json::from_str(l).unwrap(),
            "a line of kifu audit --json",
        );
    }
    let bundle = data.join("game.kifu-bundle");
    ok(&run(
        data,
        &["bundle", "--out", bundle.to_str().unwrap(), &game],
    ));
    let verified = json_of(data, &["verify", bundle.to_str().unwrap(), "--json"]);
    assert_eq!(verified["ok"], Value::Bool(true), "{verified}");
    holds("bundle-verify", &verified, "kifu verify BUNDLE --json");
    let before_the_map = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/tlog/bundle-before-the-map.kifu-bundle");
    holds(
        "bundle-verify",
        &json_of(
            data,
            &["verify", before_the_map.to_str().unwrap(), "--json"],
        ),
        "kifu verify BUNDLE --json (the tail form)",
    );
    let never = "00".repeat(32);
    let absent = json_of(data, &["prove", "map", &never]);
    assert_eq!(absent["game"], Value::String(never.clone()), "{absent}");
    holds("map-proof", &absent, "kifu prove map (a game never logged)");
}

#[test]
fn the_other_json_outputs_of_the_command_line_hold_to_their_schemas() {
    // keygen, new-game, append, log, export, import, demo and sanctions
    // with `--json`, on a store of their own.
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    holds(
        "cli-keygen",
        &json_of(&data, &["keygen", &key("b"), "--json"]),
        "kifu keygen --json",
    );
    for n in ["w", "r"] {
        ok(&run(&data, &["keygen", &key(n)]));
    }
    let created = json_of(
        &data,
        &[
            "new-game",
            "--key",
            &format!("{}.key", key("r")),
            "--black",
            &format!("B={}.pub", key("b")),
            "--white",
            &format!("W={}.pub", key("w")),
            "--referee",
            &format!("R={}.pub", key("r")),
            "--json",
        ],
    );
    holds("cli-new-game", &created, "kifu new-game --json");
    let game = created["game"].as_str().unwrap().to_string();
    let stone = serde_json::json!({"stone_placed": {"player": "black", "stone": "black", "point": {"x": 3, "y": 3}}});
    let appended = ok(&run_stdin(
        &data,
        &[
            "append",
            &game,
            "--key",
            &format!("{}.key", key("b")),
            "--json",
        ],
        &stone.to_string(),
    ));
    holds(
        "cli-append",
        &serde_json::from_str(&appended).unwrap(),
        "kifu append --json",
    );
    // `kifu log --json` prints the records `GET /games/{id}/records` holds.
    let records: Vec<Value> = ok(&run(&data, &["log", &game, "--json"]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    holds(
        "api-records",
        &serde_json::json!({"game": game, "records": records}),
        "kifu log --json",
    );
    ok(&run(&data, &["keygen", &key("b2")]));
    let replaced = json_of(
        &data,
        &[
            "key",
            "replace",
            &game,
            "--participant",
            "black",
            "--new-key",
            &format!("{}.pub", key("b2")),
            "--key",
            &format!("{}.key", key("r")),
            "--json",
        ],
    );
    assert_eq!(replaced["kind"], "key replaced", "{replaced}");
    holds("cli-key-change", &replaced, "kifu key replace --json");
    let revoked = json_of(
        &data,
        &[
            "key",
            "revoke",
            &game,
            "--participant",
            "white",
            "--key",
            &format!("{}.key", key("r")),
            "--json",
        ],
    );
    holds("cli-key-change", &revoked, "kifu key revoke --json");
    let sgf = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/go/gnugo-selfplay/gs-13x13-000.sgf");
    holds(
        "sgf-board",
        &json_of(&data, &["sgf", "board", sgf.to_str().unwrap(), "--json"]),
        "kifu sgf board --json",
    );
    holds(
        "cli-demo",
        &json_of(&data, &["demo", "--json"]),
        "kifu demo --json",
    );
    holds(
        "sanctions",
        &json_of(&data, &["sanctions", "--json"]),
        "kifu sanctions --json",
    );
    let file = t.path().join("all.kifu");
    holds(
        "cli-export",
        &json_of(
            &data,
            &["export", "--out", file.to_str().unwrap(), "--json"],
        ),
        "kifu export --json",
    );
    let verified = json_of(&data, &["verify", file.to_str().unwrap(), "--json"]);
    assert!(verified["manifest"].is_object(), "{verified}");
    holds("verify-report", &verified, "kifu verify ARCHIVE --json");
    holds(
        "cli-import",
        &json_of(
            &t.path().join("e"),
            &["import", file.to_str().unwrap(), "--json"],
        ),
        "kifu import --json",
    );
}

#[test]
fn a_game_of_every_kind_of_event_holds_to_the_schemas() {
    // The format vectors' game holds one event of every kind: rulings,
    // sanctions, an appeal, a committee, irregularities, programs' counts,
    // key replacements. Each event's projection, the story, the records and
    // the server's views hold to their schemas.
    let vectors: Value = serde_json::from_str(
        &std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/format/vectors.json"),
        )
        .expect("fixtures/format/vectors.json"),
    )
    .unwrap();
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let file = t.path().join("vectors.kifu");
    std::fs::write(
        &file,
        hex::decode(vectors["archive"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    ok(&run(&data, &["import", file.to_str().unwrap()]));
    let games = json_of(&data, &["games", "--json"]);
    holds("games", &games, "kifu games --json");
    let game = games[0]["game"].as_str().unwrap().to_string();
    let last = games[0]["events"].as_u64().unwrap() - 1;
    assert!(last >= 40, "{games}");
    for at in 0..=last {
        let what = format!("kifu replay --json --at {at} (every kind)");
        holds(
            "replay",
            &json_of(&data, &["replay", &game, "--json", "--at", &at.to_string()]),
            &what,
        );
    }
    holds(
        "explain",
        &json_of(&data, &["explain", &game, "--json"]),
        "kifu explain --json (every kind)",
    );
    let served = Served::start(&data, &[]);
    let u = &served.url;
    for at in 0..=last {
        let (_, s) = get(&format!("{u}/games/{game}/state?at={at}&compact=1"));
        holds(
            "api-step",
            &s,
            &format!("GET state?at={at}&compact=1 (every kind)"),
        );
    }
    let (_, s) = get(&format!("{u}/games/{game}/state?device=1"));
    holds("replay", &s, "GET state?device=1 (every kind)");
    let (_, r) = get(&format!("{u}/games/{game}/records"));
    holds("api-records", &r, "GET records (every kind)");
    let (_, g) = get(&format!("{u}/games/{game}"));
    holds("api-game", &g, "GET /games/{id} (every kind)");
    let (_, st) = get(&format!("{u}/games/{game}/state"));
    for p in st["state"]["genesis"]["roster"].as_array().unwrap() {
        let key = p["key"].as_str().unwrap();
        let (_, games) = get(&format!("{u}/referee/games?key={key}"));
        holds(
            "api-referee-games",
            &games,
            "GET /referee/games (every kind)",
        );
        let (_, powers) = get(&format!("{u}/games/{game}/powers?key={key}"));
        holds("api-powers", &powers, "GET powers (every kind)");
    }
    served.stop();
}

#[test]
fn key_fingerprints_sgf_imports_and_tournament_commands_hold_to_their_schemas() {
    let (dir, _, tournament) = demo();
    let data = dir.path();
    let lines = ok(&run(data, &["tournament", "log", &tournament, "--json"]));
    let mut n = 0;
    for l in lines.lines() {
        holds(
            "tournament-log-line",
            &serde_json::from_str(l).unwrap(),
            "a line of kifu tournament log --json",
        );
        n += 1;
    }
    assert!(n > 10, "{lines}");
    // Its pairing held against the engine's: exit 0 or 3 (a round departs),
    // the document the same.
    let o = run(
        data,
        &["tournament", "check-pairing", &tournament, "--json"],
    );
    let checked: Value = serde_json::from_str(&out(&o)).expect("check-pairing's JSON");
    holds(
        "cli-check-pairing",
        &checked,
        "kifu tournament check-pairing --json",
    );
    let verified = json_of(data, &["tournament", "verify", &tournament, "--json"]);
    assert_eq!(verified["ok"], Value::Bool(true), "{verified}");
    holds(
        "tournament-verify",
        &verified,
        "kifu tournament verify --json",
    );
    let referee_pub = data.join("demo-keys/referee.pub");
    let created = json_of(
        data,
        &[
            "tournament",
            "new",
            "--key",
            data.join("demo-keys/referee.key").to_str().unwrap(),
            "--director",
            &format!("Director={}", referee_pub.display()),
            "--name",
            "Schema Cup",
            "--short-name",
            "schema-cup",
            "--rounds",
            "3",
            "--json",
        ],
    );
    holds("cli-tournament-new", &created, "kifu tournament new --json");
    let opengotha = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/tournament/opengotha-worked-example.xml");
    let imported = json_of(
        data,
        &[
            "tournament",
            "import-opengotha",
            "--key",
            data.join("demo-keys/referee.key").to_str().unwrap(),
            opengotha.to_str().unwrap(),
            "--json",
        ],
    );
    assert!(imported["players"].as_u64() > Some(0), "{imported}");
    holds(
        "cli-tournament-new",
        &imported,
        "kifu tournament import-opengotha --json",
    );
    let key = data.join("demo-keys/referee.key");
    let public = json_of(
        data,
        &["key", "fingerprint", key.to_str().unwrap(), "--json"],
    );
    holds("cli-fingerprint", &public, "kifu key fingerprint --json");
    let sgf_dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/go/gnugo-selfplay");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&sgf_dir)
        .expect("fixtures/go/gnugo-selfplay")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    files.sort();
    files.truncate(3);
    assert!(!files.is_empty());
    let mut args = vec![
        "sgf",
        "import",
        "--key",
        key.to_str().unwrap(),
        "--at-ms",
        "1767225600000",
        "--json",
    ];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    holds(
        "cli-sgf-import",
        &json_of(data, &args),
        "kifu sgf import --json",
    );
    // Again, signed at the same time: every file is skipped, its game
    // already in the store.
    let again = json_of(data, &args);
    assert_eq!(
        again["skipped"].as_array().map(Vec::len),
        Some(files.len()),
        "{again}"
    );
    holds("cli-sgf-import", &again, "kifu sgf import --json (skipped)");
}

#[test]
fn a_renju_game_opened_under_the_rif_rule_holds_to_the_schemas() {
    // The RIF opening: three stones, a swap, the fourth, two fifth-move
    // offers and the choice, each a Renju input of its own kind.
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    for n in ["b", "w", "r"] {
        ok(&run(&data, &["keygen", &key(n)]));
    }
    let game = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &format!("{}.key", key("r")),
            "--black",
            &format!("B={}.pub", key("b")),
            "--white",
            &format!("W={}.pub", key("w")),
            "--referee",
            &format!("R={}.pub", key("r")),
            "--game",
            "renju",
            "--size",
            "15",
            "--opening",
            "rif",
        ],
    ))
    .trim()
    .to_string();
    let steps = [
        (
            "b",
            serde_json::json!({"stone_placed": {"player": "black", "stone": "black", "point": {"x": 7, "y": 7}}}),
        ),
        (
            "b",
            serde_json::json!({"stone_placed": {"player": "black", "stone": "white", "point": {"x": 8, "y": 7}}}),
        ),
        (
            "b",
            serde_json::json!({"stone_placed": {"player": "black", "stone": "black", "point": {"x": 8, "y": 8}}}),
        ),
        (
            "w",
            serde_json::json!({"opening_swap": {"player": "white", "swap": true}}),
        ),
        (
            "b",
            serde_json::json!({"stone_placed": {"player": "black", "stone": "white", "point": {"x": 6, "y": 6}}}),
        ),
        (
            "w",
            serde_json::json!({"fifths_offered": {"player": "white", "points": [{"x": 9, "y": 9}, {"x": 5, "y": 9}]}}),
        ),
        (
            "b",
            serde_json::json!({"fifth_chosen": {"player": "black", "point": {"x": 9, "y": 9}}}),
        ),
    ];
    for (who, body) in &steps {
        ok(&run_stdin(
            &data,
            &["append", &game, "--key", &format!("{}.key", key(who))],
            &body.to_string(),
        ));
    }
    let last = json_of(&data, &["replay", &game, "--json"]);
    let inputs: Vec<&str> = last["state"]["board"]["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i[1]["input"].as_str())
        .collect();
    assert!(
        inputs.contains(&"swap") && inputs.contains(&"choose_fifth"),
        "{inputs:?}"
    );
    for at in 0..=steps.len() {
        let what = format!("kifu replay --json --at {at} (RIF opening)");
        holds(
            "replay",
            &json_of(&data, &["replay", &game, "--json", "--at", &at.to_string()]),
            &what,
        );
    }
}

#[test]
fn clock_scenarios_renju_checks_and_errors_hold_to_their_schemas() {
    // Every clock vector replayed, every Renju vector checked, and a
    // command's error with --json.
    let t = tempfile::tempdir().unwrap();
    let read = |name: &str| -> Value {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let clocks = read("clocks/vectors.json");
    for v in clocks["vectors"].as_array().unwrap() {
        let f = t.path().join("scenario.json");
        std::fs::write(&f, v.to_string()).unwrap();
        let what = format!("kifu clock replay --json (vector {})", v["id"]);
        holds(
            "clock-replay",
            &json_of(
                t.path(),
                &["clock", "replay", f.to_str().unwrap(), "--json"],
            ),
            &what,
        );
    }
    // The whole set at once: each vector's verdict.
    let set = t.path().join("set.json");
    std::fs::write(&set, clocks.to_string()).unwrap();
    holds(
        "cli-clock-vectors",
        &json_of(
            t.path(),
            &["clock", "replay", set.to_str().unwrap(), "--json"],
        ),
        "kifu clock replay VECTORS --json",
    );
    let renju = read("renju/vectors.json");
    let mut verdicts = std::collections::BTreeSet::new();
    for v in renju["vectors"].as_array().unwrap() {
        let list = |k: &str| {
            v[k].as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_default()
        };
        let (b, w) = (list("black"), list("white"));
        let out = json_of(
            t.path(),
            &[
                "renju",
                "check",
                "--black",
                &b,
                "--white",
                &w,
                "--query",
                v["query"].as_str().unwrap(),
                "--color",
                v["query_color"].as_str().unwrap(),
                "--json",
            ],
        );
        holds(
            "renju-check",
            &out,
            &format!("kifu renju check --json (vector {})", v["id"]),
        );
        verdicts.insert(out["verdict"].as_str().unwrap().to_string());
    }
    assert_eq!(verdicts.len(), 6, "every verdict is seen: {verdicts:?}");
    // Errors: a command line that does not parse, and a failure.
    let o = run(t.path(), &["replay", "--json", "--no-such-flag"]);
    assert!(!o.status.success());
    let e: Value = serde_json::from_str(&err(&o)).expect("a JSON error");
    holds("cli-error", &e, "a usage error with --json");
    let o = run(t.path(), &["replay", &"ab".repeat(32), "--json"]);
    assert!(!o.status.success());
    let e: Value = serde_json::from_str(&err(&o)).expect("a JSON error");
    holds("cli-error", &e, "a failure with --json");
}

/// A hash the prose elides (`"0e3b…"`) stands for a full one: its digits,
/// then zeros to 64.
fn unelided(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let Some(head) = s.strip_suffix('…') {
                if !head.is_empty() && head.chars().all(|c| c.is_ascii_hexdigit()) {
                    *s = format!("{head:0<64}");
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(unelided),
        Value::Object(o) => o.values_mut().for_each(unelided),
        _ => {}
    }
}

#[test]
fn every_json_example_of_the_api_doc_holds_to_its_schema() {
    let doc = std::fs::read_to_string(workspace().join("docs/API.md")).unwrap();
    let mut examples = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (n, line) in doc.lines().enumerate() {
        match (&mut block, line.trim_start()) {
            (None, "```json") => block = Some((n + 1, String::new())),
            (Some(_), "```") => examples.extend(block.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    assert!(examples.len() >= 5, "{} examples", examples.len());
    for (line, text) in examples {
        let mut v: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("docs/API.md line {line}: not JSON: {e}"));
        unelided(&mut v);
        // The schema a document holds to, by the field that says what it is.
        let name = if v.get("error").is_some() && v.get("accepted").is_none() {
            "api-error"
        } else if v.get("accepted").is_some() {
            "api-submit"
        } else if v.get("status").is_some() {
            "api-health"
        } else {
            panic!("docs/API.md line {line}: which schema describes this example?")
        };
        holds(name, &v, &format!("the example of docs/API.md line {line}"));
    }
}

/// The component of `docs/openapi.json` that holds a schema of
/// `docs/schema/` (`api-submit` is `ApiSubmit`).
fn component(name: &str) -> String {
    name.split('-')
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[test]
fn the_openapi_document_names_the_schema_each_answer_holds_to() {
    // The schemas this file holds the real answers to are the ones the
    // OpenAPI document gives for the same routes.
    let text = std::fs::read_to_string(workspace().join("docs/openapi.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for (method, path, _, answer) in ROUTES {
        let (media, key, name) = match answer {
            Answer::Json(n) => ("application/json", "schema", *n),
            Answer::Ndjson(n) => ("application/x-ndjson", "x-item-schema", *n),
            Answer::Sse(n) => ("text/event-stream", "x-item-schema", *n),
            Answer::NotJson => continue,
        };
        let path = path.replace("/*", "/{path}");
        let op = &doc["paths"][&path][method.to_lowercase()];
        assert!(
            op.is_object(),
            "{method} {path} is not in docs/openapi.json"
        );
        let want = format!("#/components/schemas/{}", component(name));
        let named = op["responses"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(status, _)| status.starts_with('2'))
            .any(|(_, r)| {
                let m = &r["content"][media][key];
                m["$ref"] == want.as_str()
                    || m["oneOf"]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|x| x["$ref"] == want.as_str()))
            });
        if !named {
            panic!("docs/openapi.json does not give {name} ({media}) for {method} {path}");
        }
        checked += 1;
    }
    assert!(checked >= 35, "{checked}");
}

#[test]
fn every_json_body_the_api_doc_sends_holds_to_its_schema() {
    // The request bodies of docs/API.md's curl lines (`-d '{...}'`).
    let doc = std::fs::read_to_string(workspace().join("docs/API.md")).unwrap();
    let mut checked = 0;
    for line in doc
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("curl "))
    {
        // A body written out in single quotes (the others are built by
        // the shell).
        let Some(start) = line.find("-d '{") else {
            continue;
        };
        let rest = &line[start + 4..];
        let body = &rest[..rest.find('\'').expect("the body's closing quote")];
        let name = if line.contains("/preview\"") {
            "api-preview-draft"
        } else if line.contains("/devices\"") {
            "api-device-request"
        } else if line.contains("/director/draft\"") {
            "api-director-intent"
        } else if line.contains("/records\"") {
            "api-submission"
        } else {
            panic!("which schema describes the body of: {line}")
        };
        let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{line}: {e}"));
        holds(name, &v, &format!("the body of `{line}`"));
        checked += 1;
    }
    assert!(checked >= 2, "{checked}");
}
