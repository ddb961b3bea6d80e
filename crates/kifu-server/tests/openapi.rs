//! The OpenAPI document and the generated schemas: both are what the code
//! generates (`cargo run -p kifu-server --example schemas` rewrites them;
//! `KIFU_WRITE_SCHEMAS=1` has these tests do it), the document describes
//! every route of the router and nothing else, every reference in it
//! resolves, and a running server serves it with its version on every
//! answer.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use kifu_server::openapi::{self, API_VERSION, OPERATIONS};
use kifu_server::schemas;
use kifu_server::{Limits, Server};
use kifu_store::Store;
use serde_json::Value;

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

fn writing() -> bool {
    std::env::var_os("KIFU_WRITE_SCHEMAS").is_some_and(|v| v == "1")
}

const REGENERATE: &str = "run `cargo run -p kifu-server --example schemas` (or this test with KIFU_WRITE_SCHEMAS=1) and commit the files";

#[test]
fn the_schemas_in_docs_are_those_the_types_generate() {
    for d in schemas::generated() {
        let path = docs()
            .join("schema")
            .join(format!("{}.schema.json", d.name));
        let text = schemas::file_text(&d);
        if writing() {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let on_disk = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; {REGENERATE}", path.display()));
        let on_disk: Value = serde_json::from_str(&on_disk).unwrap();
        assert_eq!(
            on_disk,
            schemas::sorted(&d.schema),
            "{} is stale: {REGENERATE}",
            path.display()
        );
    }
}

#[test]
fn the_checked_in_openapi_document_is_the_one_the_code_builds() {
    let path = docs().join("openapi.json");
    let text = openapi::document_text();
    if writing() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let on_disk: Value = serde_json::from_str(
        &std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; {REGENERATE}", path.display())),
    )
    .unwrap();
    assert_eq!(
        on_disk,
        schemas::sorted(&openapi::document()),
        "docs/openapi.json is stale: {REGENERATE}"
    );
}

#[test]
fn every_schema_file_is_generated() {
    let named: BTreeSet<String> = schemas::generated()
        .iter()
        .map(|d| d.name.to_string())
        .collect();
    assert_eq!(
        named.len(),
        schemas::generated().len(),
        "two generated schemas have one name"
    );
    let files: BTreeSet<String> = std::fs::read_dir(docs().join("schema"))
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .to_str()?
                .strip_suffix(".schema.json")
                .map(String::from)
        })
        .collect();
    assert_eq!(
        files, named,
        "a file of docs/schema/ no type generates, or a type's file missing"
    );
}

#[test]
fn every_route_of_the_router_is_in_the_document_and_nothing_else() {
    let routes: BTreeSet<(String, String)> = kifu_server::route_list()
        .iter()
        .map(|r| (r.method.to_lowercase(), openapi::openapi_path(r.path)))
        .collect();
    assert_eq!(
        routes.len(),
        kifu_server::route_list().len(),
        "a route is given twice"
    );
    let doc = openapi::document();
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.insert((method.clone(), path.clone()));
        }
    }
    let missing: Vec<_> = routes.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "routes without an operation: {missing:?}"
    );
    let extra: Vec<_> = documented.difference(&routes).collect();
    assert!(extra.is_empty(), "operations without a route: {extra:?}");
    // The table has no operation the router does not take either.
    for op in OPERATIONS {
        assert!(
            routes.contains(&(op.method.to_lowercase(), openapi::openapi_path(op.path))),
            "{} {} is described but not routed",
            op.method,
            op.path
        );
    }
    // Operation ids are unique (a generated client's function names).
    let ids: BTreeSet<&str> = OPERATIONS.iter().map(|o| o.id).collect();
    assert_eq!(ids.len(), OPERATIONS.len());
}

fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => out.push(r.clone()),
                    _ => refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

#[test]
fn every_reference_of_the_document_resolves_and_no_schema_carries_an_id() {
    let doc = openapi::document();
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(all.len() > 100, "{}", all.len());
    for r in all {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{r}: not a local reference"));
        assert!(doc.pointer(pointer).is_some(), "{r} does not resolve");
    }
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        assert!(schema.get("$id").is_none(), "{name} has an $id");
        assert!(schema.get("$defs").is_none(), "{name} has $defs");
    }
    assert_eq!(doc["openapi"], "3.1.1");
    assert_eq!(doc["info"]["version"], API_VERSION);
    // Every JSON answer and body names a schema; every refusal the one
    // error shape.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for (status, answer) in op["responses"].as_object().unwrap() {
                let json = &answer["content"]["application/json"]["schema"];
                if status.starts_with('4') || status.starts_with('5') {
                    if !(status == "503" && path == "/healthz") {
                        assert_eq!(
                            json["$ref"], "#/components/schemas/ApiError",
                            "{method} {path} {status}"
                        );
                    }
                } else if !json.is_null() && path != "/openapi.json" && path != "/games/{id}/bundle"
                {
                    let refs = json["oneOf"]
                        .as_array()
                        .map(|a| a.iter().all(|x| x["$ref"].is_string()))
                        .unwrap_or(false);
                    assert!(json["$ref"].is_string() || refs, "{method} {path} {status}");
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_serves_the_document_and_its_version_on_every_answer() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let server = Server::new(store, Limits::default()).unwrap();
    let (listener, addr) = kifu_server::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(listener, async {
        let _ = stopped.await;
    }));
    let base = format!("http://{addr}");
    let answers = tokio::task::spawn_blocking(move || {
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(10))
            .build();
        let mut out = Vec::new();
        for path in [
            "/openapi.json",
            "/livez",
            "/games/ffff/head",
            "/no/such/path",
        ] {
            let r = match agent.get(&format!("{base}{path}")).call() {
                Ok(r) => r,
                Err(ureq::Error::Status(_, r)) => r,
                Err(e) => panic!("{path}: {e}"),
            };
            let version = r.header("kifu-api-version").map(String::from);
            let status = r.status();
            out.push((path, status, version, r.into_string().unwrap()));
        }
        out
    })
    .await
    .unwrap();
    for (path, _, version, _) in &answers {
        assert_eq!(version.as_deref(), Some(API_VERSION), "{path}");
    }
    let served: Value = serde_json::from_str(&answers[0].3).unwrap();
    assert_eq!(served, openapi::document());
    // A refusal is the one error shape, typed.
    let (_, status, _, body) = &answers[2];
    assert_eq!(*status, 404);
    let e: kifu_server::answers::ErrorAnswer = serde_json::from_str(body).unwrap();
    assert_eq!(
        (e.error.code.as_str(), e.error.status),
        ("unknown_game", 404)
    );
    let (_, status, _, body) = &answers[3];
    assert_eq!(*status, 404);
    let e: kifu_server::answers::ErrorAnswer = serde_json::from_str(body).unwrap();
    assert_eq!(e.error.code, "not_found");
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// The error codes the server's source answers with: the literal after
/// `bad_request(`, after a `StatusCode::NAME,`, or second in an
/// `ApiError::new(` whose status is a variable, in `src/`.
fn codes_in_source() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    for e in std::fs::read_dir(src).unwrap() {
        let path = e.unwrap().path();
        if path.file_name().is_some_and(|n| n == "openapi.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for marker in ["bad_request(", "StatusCode::", "ApiError::new("] {
            for (i, _) in text.match_indices(marker) {
                let mut rest = &text[i + marker.len()..];
                if marker == "ApiError::new(" {
                    // The status: an expression without a comma of its own.
                    let Some(comma) = rest.find(',') else {
                        continue;
                    };
                    if rest[..comma].contains('(') {
                        continue;
                    }
                    rest = &rest[comma + 1..];
                }
                if marker == "StatusCode::" {
                    let end = rest
                        .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
                        .unwrap_or(0);
                    rest = &rest[end..];
                    let Some(r) = rest.strip_prefix(',') else {
                        continue;
                    };
                    rest = r;
                }
                let rest = rest.trim_start();
                if let Some(r) = rest.strip_prefix('"') {
                    if let Some(end) = r.find('"') {
                        let code = &r[..end];
                        if !code.is_empty()
                            && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                        {
                            out.insert(code.to_string());
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_error_code_the_server_answers_is_named_in_the_document() {
    let found = codes_in_source();
    assert!(found.len() > 40, "{found:?}");
    let doc = openapi::document();
    let mut named = BTreeSet::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            for answer in op["responses"].as_object().unwrap().values() {
                let codes = &answer["content"]["application/json"]["x-error-codes"];
                for c in codes.as_array().into_iter().flatten() {
                    named.insert(c.as_str().unwrap().to_string());
                }
            }
        }
    }
    let missing: Vec<_> = found.difference(&named).collect();
    assert!(
        missing.is_empty(),
        "codes the document does not name: {missing:?}"
    );
}
