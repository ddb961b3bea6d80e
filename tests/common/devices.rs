//! What the device and console tests share: plain HTTP calls, keys made by
//! `kifu keygen`, `kifu --server`, and axe-core's script.
#![allow(dead_code)]

use std::path::Path;

use serde_json::Value;

use super::{kifu, ok, peers_required, workspace};

/// GETs JSON.
pub fn get(url: &str) -> Value {
    ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .into_json()
        .expect("JSON")
}

/// POSTs JSON; the status and the answer (errors included).
pub fn post(url: &str, body: &Value) -> (u16, Value) {
    match ureq::post(url).send_json(body.clone()) {
        Ok(r) => (r.status(), r.into_json().expect("JSON")),
        Err(ureq::Error::Status(s, r)) => (s, r.into_json().expect("JSON")),
        Err(e) => panic!("POST {url}: {e}"),
    }
}

/// `kifu keygen NAME --json` in `dir`: the public key in hex.
pub fn keygen(dir: &Path, name: &str) -> String {
    let o = kifu()
        .arg("keygen")
        .arg(dir.join(name))
        .arg("--json")
        .output()
        .expect("kifu runs");
    let v: Value = serde_json::from_str(&ok(&o)).expect("JSON");
    v["public_key"].as_str().expect("a key").to_string()
}

/// `kifu --server URL ARGS`.
pub fn kifu_at(url: &str, args: &[&str]) -> std::process::Output {
    kifu()
        .arg("--server")
        .arg(url)
        .args(args)
        .output()
        .expect("kifu runs")
}

/// axe-core's script: `KIFU_AXE_JS`, else `target/npm/node_modules/axe-core/axe.min.js`
/// (installed by `.ci/run`).
pub fn axe_script() -> Option<String> {
    let path = std::env::var_os("KIFU_AXE_JS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/npm/node_modules/axe-core/axe.min.js"));
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            assert!(
                !peers_required(),
                "axe-core is required (KIFU_REQUIRE_PEERS=1): {}: {e}",
                path.display()
            );
            eprintln!("skipping the accessibility check: no axe-core at {} ({e}); npm install --prefix target/npm axe-core", path.display());
            None
        }
    }
}
