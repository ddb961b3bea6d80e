//! Shared helpers for the binary's end-to-end tests.
#![allow(dead_code)]

use std::path::Path;
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

#[path = "fixtures.rs"]
mod fixtures;
#[allow(unused_imports)]
pub use fixtures::{project, third_party, workspace};

/// True when a peer program must be present (CI sets KIFU_REQUIRE_PEERS=1).
pub fn peers_required() -> bool {
    std::env::var("KIFU_REQUIRE_PEERS")
        .map(|v| v == "1")
        .unwrap_or(false)
}

#[path = "devices.rs"]
pub mod devices;

#[path = "served.rs"]
mod served;
#[allow(unused_imports)]
pub use served::{wait_bounded, Served, SERVER_WAIT};

#[path = "browser.rs"]
pub mod browser;
#[path = "running.rs"]
mod running;
#[allow(unused_imports)]
pub use running::Running;
