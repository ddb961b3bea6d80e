//! Shared helpers for the binary's end-to-end tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `kifu` binary built for these tests.
pub fn kifu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
}

/// Runs kifu with a data directory; returns the output.
pub fn run(data: &Path, args: &[&str]) -> Output {
    kifu()
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("kifu runs")
}

/// Runs kifu with standard input.
pub fn run_stdin(data: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = kifu()
        .arg("--data")
        .arg(data)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("kifu runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("kifu finishes")
}

/// Standard output as text.
pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts success, showing stderr otherwise.
pub fn ok(o: &Output) -> String {
    assert!(o.status.success(), "kifu failed: {}", err(o));
    out(o)
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A path under the project's own `fixtures/`.
pub fn project(rel: &str) -> PathBuf {
    workspace().join("fixtures").join(rel)
}

/// A path under the third-party fixtures folder (`KIFU_FIXTURES_DIR`, default
/// `../shared/fixtures` relative to the workspace root), or `None` with a
/// printed line when it is absent. With `KIFU_REQUIRE_FIXTURES=1` an absent
/// folder fails the test instead.
pub fn third_party(rel: &str) -> Option<PathBuf> {
    let base = std::env::var_os("KIFU_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/fixtures"));
    let base = if base.is_absolute() {
        base
    } else {
        workspace().join(base)
    };
    let path = base.join(rel);
    if path.exists() {
        return Some(path);
    }
    let required = std::env::var("KIFU_REQUIRE_FIXTURES").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "third-party fixture {} is missing (KIFU_REQUIRE_FIXTURES=1; set KIFU_FIXTURES_DIR)",
        path.display()
    );
    eprintln!(
        "skipped: third-party fixture {} is absent (set KIFU_FIXTURES_DIR to run this test)",
        path.display()
    );
    None
}

/// True when a peer program must be present (CI sets KIFU_REQUIRE_PEERS=1).
pub fn peers_required() -> bool {
    std::env::var("KIFU_REQUIRE_PEERS")
        .map(|v| v == "1")
        .unwrap_or(false)
}
