//! Habits of the command line: completions, the manual page, JSON output
//! and errors, read commands that never create a store, the demo run twice,
//! negative komi, key errors that say what was found, `kifu games`, and the
//! README's command examples run as written.

mod common;
use common::*;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

#[test]
fn completions_and_the_manual_page_are_generated() {
    for shell in ["bash", "zsh", "fish"] {
        let o = kifu().args(["completions", shell]).output().unwrap();
        let text = ok(&o);
        assert!(
            text.contains("kifu") && text.contains("new-game"),
            "{shell}"
        );
    }
    let man = ok(&kifu().arg("man").output().unwrap());
    assert!(man.contains(".TH kifu 1"), "{man}");
    assert!(man.contains("new\\-game"), "subcommands listed");
}

#[test]
fn json_output_and_json_errors() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let base = t.path().join("k");
    let o = ok(&run(&data, &["keygen", base.to_str().unwrap(), "--json"]));
    let v: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["public_key"].as_str().unwrap().len(), 64);
    // Asked again: a JSON error with a code, and a non-zero exit.
    let o = run(&data, &["keygen", base.to_str().unwrap(), "--json"]);
    assert!(!o.status.success());
    let e: Value = serde_json::from_str(&err(&o)).unwrap();
    assert!(out(&o).is_empty());
    assert!(e["error"].as_str().unwrap().contains("exists"));
    assert_eq!(e["code"], "error");
    // A usage error with --json is JSON too.
    let o = run(&data, &["log", "--json", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    let e: Value = serde_json::from_str(&err(&o)).unwrap();
    assert_eq!(e["code"], "usage");
    // export --json.
    ok(&run(&data, &["demo"]));
    let file = t.path().join("all.kifu");
    let o = ok(&run(
        &data,
        &["export", "--out", file.to_str().unwrap(), "--json"],
    ));
    let v: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["games"], 1);
    assert_eq!(v["events"], 63);
}

#[test]
fn read_commands_never_create_a_store() {
    let t = tempfile::tempdir().unwrap();
    let typo = t.path().join("typo-dir");
    for args in [
        vec!["feed", "--follow"],
        vec!["feed"],
        vec!["log"],
        vec!["games"],
        vec!["verify"],
        vec!["replay", "abc"],
    ] {
        let o = run(&typo, &args);
        assert!(!o.status.success(), "{args:?}");
        assert!(err(&o).contains("no kifu store"), "{args:?}: {}", err(&o));
        assert!(!typo.exists(), "{args:?} created {}", typo.display());
    }
}

#[test]
fn demo_twice_keeps_its_keys_and_its_hint_runs_as_printed() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("my data");
    let first = ok(&run(&data, &["demo"]));
    let key = std::fs::read(data.join("demo-keys/referee.key")).unwrap();
    let second = ok(&run(&data, &["demo"]));
    assert_eq!(
        std::fs::read(data.join("demo-keys/referee.key")).unwrap(),
        key
    );
    assert_ne!(first, second, "two games");
    // The hint: "try: kifu --data '<dir>' log <id>", run by a shell as printed.
    let hint = second
        .lines()
        .find_map(|l| l.split_once("try: ").map(|(_, c)| c.to_string()))
        .expect("a hint");
    let bin = Path::new(env!("CARGO_BIN_EXE_kifu"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(&hint)
        .env("PATH", path)
        .env_remove("KIFU_DATA")
        .current_dir(t.path())
        .output()
        .unwrap();
    let log = ok(&o);
    assert!(
        log.contains("Black player (Black) vs White player (White)"),
        "{log}"
    );
    assert!(
        log.contains("kifu demonstration open, round 1, board 1"),
        "{log}"
    );
}

#[test]
fn negative_komi_needs_no_equals_sign() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    for n in ["ref", "b", "w"] {
        ok(&run(&data, &["keygen", t.path().join(n).to_str().unwrap()]));
    }
    let p = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    let o = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &p("ref.key"),
            "--size",
            "9",
            "--komi",
            "-0.5",
            "--black",
            &format!("B={}", p("b.pub")),
            "--white",
            &format!("W={}", p("w.pub")),
            "--referee",
            &format!("R={}", p("ref.pub")),
        ],
    ));
    let game = o.trim().to_string();
    let g = ok(&run(&data, &["games", "--json"]));
    assert!(g.contains(&game));
    // Values no game can be played under are refused.
    for (flag, value) in [
        ("--handicap", "50"),
        ("--ruleset", "lgc-2032"),
        ("--time", "byoyomi:10m+5x0s"),
    ] {
        let o = run(
            &data,
            &[
                "new-game",
                "--key",
                &p("ref.key"),
                "--size",
                "9",
                flag,
                value,
                "--black",
                &format!("B={}", p("b.pub")),
                "--white",
                &format!("W={}", p("w.pub")),
                "--referee",
                &format!("R={}", p("ref.pub")),
            ],
        );
        assert!(!o.status.success(), "{flag} {value} accepted");
    }
    let o = run(
        &data,
        &[
            "new-game",
            "--key",
            &p("ref.key"),
            "--game",
            "renju",
            "--size",
            "15",
            "--ruleset",
            "lgc-2023",
            "--black",
            &format!("B={}", p("b.pub")),
            "--white",
            &format!("W={}", p("w.pub")),
            "--referee",
            &format!("R={}", p("ref.pub")),
        ],
    );
    assert!(
        !o.status.success(),
        "a Renju game under lgc-2023 was accepted"
    );
    // Without --ruleset, a Renju game is played under the RIF rules.
    ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &p("ref.key"),
            "--game",
            "renju",
            "--size",
            "15",
            "--komi",
            "0",
            "--black",
            &format!("B={}", p("b.pub")),
            "--white",
            &format!("W={}", p("w.pub")),
            "--referee",
            &format!("R={}", p("ref.pub")),
        ],
    ));
    let g = ok(&run(&data, &["games", "--json"]));
    assert!(g.contains("\"ruleset\":\"rif-renju\""), "{g}");
}

#[test]
fn key_errors_name_what_was_found() {
    let have_openssl = Command::new("openssl").arg("version").output().is_ok();
    if !have_openssl {
        assert!(
            !peers_required(),
            "openssl is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!("skipped: openssl is not installed");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let sh = |cmd: &str| {
        let o = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .current_dir(d)
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd}: {}", err(&o));
    };
    sh("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256.pem");
    sh("openssl genpkey -algorithm ed25519 -out ed.pem");
    sh("openssl pkcs8 -topk8 -in ed.pem -out enc.pem -passout pass:secret");
    let data = d.join("data");
    for (file, words) in [
        ("p256.pem", "ECDSA P-256 key; kifu keys are Ed25519"),
        (
            "enc.pem",
            "encrypted keys are not supported; decrypt with openssl pkey",
        ),
    ] {
        let o = run(
            &data,
            &[
                "new-game",
                "--key",
                d.join(file).to_str().unwrap(),
                "--black",
                "B=x",
                "--white",
                "W=y",
            ],
        );
        assert!(err(&o).contains(words), "{file}: {}", err(&o));
    }
}

#[test]
fn games_are_found_by_tournament_round_player_and_phase() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    ok(&run(&data, &["demo"]));
    ok(&run(
        &data,
        &["keygen", t.path().join("rec").to_str().unwrap()],
    ));
    let sgf = project("go/gnugo-selfplay");
    let key = t.path().join("rec.key");
    ok(&run(
        &data,
        &[
            "sgf",
            "import",
            sgf.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
            "--json",
        ],
    ));
    let all: Value = serde_json::from_str(&ok(&run(&data, &["games", "--json"]))).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 61);
    let demo: Value = serde_json::from_str(&ok(&run(
        &data,
        &[
            "games",
            "--tournament",
            "demonstration",
            "--round",
            "1",
            "--phase",
            "finished",
            "--player",
            "white player",
            "--json",
        ],
    )))
    .unwrap();
    let demo = demo.as_array().unwrap();
    assert_eq!(demo.len(), 1);
    assert_eq!(demo[0]["result"], "W+3.5");
    assert_eq!(demo[0]["phase"], "finished");
    assert_eq!(demo[0]["black"], "Black player");
    let text = ok(&run(&data, &["games", "--round", "2"]));
    assert!(text.is_empty(), "{text}");
    let text = ok(&run(&data, &["games", "--tournament", "demonstration"]));
    assert!(text.contains("kifu demonstration open, round 1, board 1: Black player (Black) vs White player (White)"), "{text}");
    assert!(text.contains("result W+3.5"), "{text}");
}

/// Sections whose examples start servers or peer programs, or stand for
/// values printed at run time: each has an end-to-end test of its own
/// (`serve_cli`, which also runs every curl example of docs/API.md;
/// `nats_cli`, `match_cli`, `tlog_cli`, `key_cli`, `board_cli`).
const SECTIONS_TESTED_ELSEWHERE: &[&str] = &[
    "## Recording games at the venue",
    "## Refereeing engine games",
    "## Proving a game is complete",
    "## Publishing the feed to NATS JetStream",
    "## Running a tournament server",
    "## Lost devices",
    // tests/rehearse_cli.rs.
    "## Before the event",
];

/// The command lines of the README's `sh` blocks, continuation lines joined
/// and comments removed; `cargo` lines (the quick start, run by CI) left out.
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut skipped_section = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("## ") {
            skipped_section = SECTIONS_TESTED_ELSEWHERE
                .iter()
                .any(|h| line.starts_with(h));
        }
        if skipped_section {
            continue;
        }
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let mut l = line.to_string();
        // A comment: '#' after whitespace, outside the single-quoted JSON.
        if let Some(i) = l.find(" #") {
            if !l[..i].contains('\'') || l[..i].matches('\'').count() % 2 == 0 {
                l.truncate(i);
            }
        }
        if l.trim_start().starts_with('#') {
            continue;
        }
        let l = l.trim_end();
        if let Some(part) = l.strip_suffix('\\') {
            pending.push_str(part);
            pending.push(' ');
            continue;
        }
        pending.push_str(l);
        let cmd = std::mem::take(&mut pending).trim().to_string();
        if !cmd.is_empty() && !cmd.starts_with("cargo ") {
            out.push(cmd);
        }
    }
    out
}

#[test]
fn the_readme_command_examples_run_as_written() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    // What the examples read: the project's fixtures and one clock scenario.
    #[cfg(unix)]
    std::os::unix::fs::symlink(project(""), dir.join("fixtures")).unwrap();
    let vectors: Value =
        serde_json::from_str(&std::fs::read_to_string(project("clocks/vectors.json")).unwrap())
            .unwrap();
    std::fs::write(dir.join("scenario.json"), vectors["vectors"][0].to_string()).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_kifu"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = readme_commands();
    assert!(commands.len() >= 19, "{commands:?}");
    let mut game = String::new();
    for cmd in &commands {
        // `3f2a` stands for the id new-game printed, as the README says.
        let line = cmd.replace("3f2a", &game);
        let o = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .env("PATH", &path)
            .env_remove("KIFU_DATA")
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "README command failed: {line}\n{}",
            err(&o)
        );
        if cmd.starts_with("kifu new-game") {
            game = out(&o).trim()[..12].to_string();
        }
    }
    assert!(!game.is_empty(), "the README creates a game");
}
