//! The browser modules under `web/` run their own tests with Node's test
//! runner (`node --test web/test/`): the record library against every vector
//! of `fixtures/format/` (byte-identical records), BLAKE3 against the
//! reference outputs, the board's clock, a page following a game's feed,
//! the pages' shared feed hub, the pages' shell (`page.js`) and their
//! databases (`db.js`). Skipped with a message when `node` is absent, unless
//! `KIFU_REQUIRE_PEERS=1`.

use std::path::PathBuf;
use std::process::Command;

fn node_ready() -> bool {
    let ok = Command::new("node")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        assert!(
            std::env::var("KIFU_REQUIRE_PEERS").as_deref() != Ok("1"),
            "node is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!("skipped: node is absent");
    }
    ok
}

#[test]
fn node_test_runs_the_record_library_against_the_format_vectors() {
    if !node_ready() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("web/test");
    let o = Command::new("node")
        .arg("--test")
        .arg(&dir)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "node --test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The runner ran the tests (a folder with no test files passes too).
    let passed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<u32>().ok())
        .unwrap_or(0);
    assert!(passed >= 10, "only {passed} node tests passed:\n{stdout}");
}

#[test]
fn the_served_modules_are_the_tested_files() {
    for name in [
        "blake3.js",
        "record.js",
        "board-clock.js",
        "board-go.js",
        "follow.js",
        "sw.js",
        "page.js",
        "db.js",
        "feed-hub.js",
        "live.js",
    ] {
        let f = kifu_server::web::file(name).expect("served");
        let on_disk = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("web")
                .join(name),
        )
        .expect("file");
        assert_eq!(f.text, on_disk, "{name}");
    }
}
