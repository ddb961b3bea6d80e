//! Every `kifu serve` command the README and the API document give starts
//! as written: the venue's server, its HTTPS variants, the server behind a
//! reverse proxy. Only the port is changed (to 0, a free one), and the
//! files a command names (the referee's key, the venue's certificate, a
//! tournament chain) are made first, as the documents make them. A server
//! is stopped by its process id as soon as it says where it listens.

mod common;
use common::*;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The `kifu serve` lines of the shell and text blocks of `doc`.
fn serve_lines(doc: &str) -> Vec<String> {
    let text = std::fs::read_to_string(workspace().join(doc)).expect("the document");
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            inside = !inside;
            continue;
        }
        let t = line.trim();
        if inside && t.starts_with("kifu serve") {
            // The command without its comment and its `&`.
            let t = t
                .split(" #")
                .next()
                .unwrap_or(t)
                .trim()
                .trim_end_matches('&')
                .trim();
            out.push(t.to_string());
        }
    }
    out
}

/// Runs `command` (a documented `kifu serve` line, its port made 0) in
/// `dir`; the line saying where it listens, or what it said instead.
fn starts(dir: &Path, command: &str) -> Result<String, String> {
    let words: Vec<String> = command
        .split_whitespace()
        .skip(1)
        .map(|w| w.replace(":7447", ":0"))
        .collect();
    let mut child = kifu()
        .current_dir(dir)
        .args(&words)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu starts");
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut said = Vec::new();
    let answer = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left.min(Duration::from_millis(200))) {
            Ok(l) if l.contains("listening on") => break Ok(l),
            Ok(l) => said.push(l),
            Err(_) if Instant::now() >= deadline => break Err("no answer within 30 s".into()),
            Err(_) => {
                if let Ok(Some(status)) = child.try_wait() {
                    let mut err = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        let _ = std::io::Read::read_to_string(&mut e, &mut err);
                    }
                    break Err(format!("exited {status}: {err} {}", said.join("\n")));
                }
            }
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    answer
}

#[test]
fn every_documented_serve_command_starts_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path();
    // The files the commands name, made as the documents make them.
    std::fs::create_dir_all(at.join("keys")).unwrap();
    ok(&kifu()
        .current_dir(at)
        .args(["keygen", "keys/ref"])
        .output()
        .unwrap());
    ok(&kifu()
        .current_dir(at)
        .args(["keygen", "operator"])
        .output()
        .unwrap());
    let made = std::process::Command::new("openssl")
        .current_dir(at)
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "venue.key",
            "-out",
            "venue-chain.pem",
            "-days",
            "30",
            "-subj",
            "/CN=venue.example",
        ])
        .output();
    let have_openssl = made.map(|o| o.status.success()).unwrap_or(false);
    assert!(
        have_openssl || !peers_required(),
        "openssl makes the venue's certificate"
    );
    // A tournament chain for `--creators-from tournaments/ID.kifu`.
    ok(&kifu()
        .current_dir(at)
        .args(["--data", "kifu-data", "demo"])
        .output()
        .unwrap());
    let chain = std::fs::read_dir(at.join("kifu-data/tournaments"))
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.path().extension().is_some_and(|x| x == "kifu"))
        .expect("a tournament chain")
        .path();
    std::fs::create_dir_all(at.join("tournaments")).unwrap();
    std::fs::copy(&chain, at.join("tournaments/ID.kifu")).unwrap();

    let mut ran = 0;
    for doc in ["README.md", "docs/API.md"] {
        for command in serve_lines(doc) {
            // NATS has a server of its own to start: its commands are run
            // by the NATS tests.
            if command.contains("--nats") || (command.contains("venue.key") && !have_openssl) {
                continue;
            }
            match starts(at, &command) {
                Ok(line) => assert!(line.contains("listening on"), "{line}"),
                Err(why) => panic!("{doc}: `{command}` does not start: {why}"),
            }
            ran += 1;
        }
    }
    assert!(ran >= 6, "only {ran} commands found");
}
