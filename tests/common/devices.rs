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

/// The device's clock of the next request signed here: increasing, so that
/// each request comes after the one before (`signed_at_ms`).
static SIGNED_AT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// POSTs a seat request (`POST /devices`) signed by the device's key in
/// `key_file` (PEM, as `kifu keygen` writes it), as a board device signs
/// it: `signed_at_ms` added, the signature in `Kifu-Device-Signature`.
pub fn ask_signed(url: &str, key_file: &Path, request: &Value) -> (u16, Value) {
    let pem = std::fs::read_to_string(key_file).expect("key file");
    let key = kifu_ledger::Keypair::from_pkcs8_pem(&pem).expect("a private key");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let at = SIGNED_AT
        .fetch_max(now, std::sync::atomic::Ordering::SeqCst)
        .max(now)
        + 1;
    SIGNED_AT.store(at, std::sync::atomic::Ordering::SeqCst);
    let mut body = request.clone();
    body["signed_at_ms"] = serde_json::json!(at);
    let bytes = serde_json::to_vec(&body).expect("JSON");
    let signature = kifu_game::seat::SignedRequest::sign(&key, &bytes);
    let r = ureq::post(&format!("{url}/devices"))
        .set("Content-Type", "application/json")
        .set("Kifu-Device-Signature", &signature)
        .send_bytes(&bytes);
    match r {
        Ok(r) => (r.status(), r.into_json().expect("JSON")),
        Err(ureq::Error::Status(s, r)) => (s, r.into_json().expect("JSON")),
        Err(e) => panic!("POST {url}/devices: {e}"),
    }
}
