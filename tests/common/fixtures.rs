//! Where the tests find their data: the fixtures shipped in the project
//! (`fixtures/`, `docs/rules/`) and the third-party records kept outside it
//! (`KIFU_FIXTURES_DIR`, default `../shared/fixtures` beside the workspace).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A path under the project's own `fixtures/`.
pub fn project(rel: &str) -> PathBuf {
    workspace().join("fixtures").join(rel)
}

/// A path under the project's rule documents, `docs/rules/`.
pub fn rules() -> PathBuf {
    workspace().join("docs/rules")
}

/// A path under the third-party fixtures folder, or `None` (with a printed
/// line) when it is absent. With `KIFU_REQUIRE_FIXTURES=1` an absent folder
/// fails the test instead.
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
