//! `--server URL` is honoured by every command: run in an empty working
//! directory against a running `kifu serve`, each command acts through the
//! server, needs no store at all, or is refused in one line with a non-zero
//! exit; none leaves anything in the working directory.

mod common;
use common::*;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// What a command must do through a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// It succeeds.
    Works,
    /// It fails in one line, naming the server or what to do instead.
    Refused,
    /// Success, or a failure in one line (the arguments given may not make
    /// sense for the store: what matters is where it acted).
    Either,
}

/// Runs `kifu --server URL ARGS` in `cwd`, with no KIFU_DATA or
/// KIFU_SERVER from the environment.
fn through(cwd: &Path, url: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(cwd)
        .env_remove("KIFU_DATA")
        .env_remove("KIFU_SERVER")
        .arg("--server")
        .arg(url)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs")
}

/// The subcommand names listed in `kifu [GROUP] --help`.
fn listed(group: &[&str]) -> Vec<String> {
    let out = kifu().args(group).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_acts_through_the_server_or_refuses_and_leaves_the_working_directory_empty() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("venue");
    ok(&run(&data, &["demo"]));
    let games: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["games", "--json"]))).expect("games --json is JSON");
    let game = games[0]["game"].as_str().unwrap().to_string();
    let files = t.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    let f = |name: &str| files.join(name).display().to_string();
    let keys = data.join("demo-keys");
    let k = |name: &str| keys.join(name).display().to_string();
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let archive = f("all.kifu");
    let sgf = f("game.sgf");

    use Want::*;
    let table: Vec<(Vec<String>, Want)> = vec![
        (vec!["keygen".into(), f("k")], Works),
        (
            vec![
                "new-game".into(),
                "--key".into(),
                k("referee.key"),
                "--referee".into(),
                format!("Referee={}", k("referee.pub")),
                "--black".into(),
                format!("B={}", k("black.pub")),
                "--white".into(),
                format!("W={}", k("white.pub")),
            ],
            Works,
        ),
        (
            vec![
                "append".into(),
                game.clone(),
                "--key".into(),
                k("referee.key"),
            ],
            Either,
        ),
        (vec!["log".into(), game.clone()], Works),
        (vec!["verify".into()], Works),
        (
            vec!["export".into(), "--out".into(), archive.clone()],
            Works,
        ),
        (vec!["verify".into(), archive.clone()], Works),
        (vec!["import".into(), archive.clone()], Works),
        (vec!["feed".into()], Works),
        (vec!["demo".into()], Works),
        (
            vec![
                "soak".into(),
                game.clone(),
                "--key".into(),
                k("referee.key"),
                "--count".into(),
                "1".into(),
            ],
            Either,
        ),
        (
            vec!["clock".into(), "replay".into(), f("none.json")],
            Either,
        ),
        (
            vec![
                "sgf".into(),
                "export".into(),
                game.clone(),
                "--out".into(),
                sgf.clone(),
            ],
            Works,
        ),
        (vec!["sgf".into(), "board".into(), sgf.clone()], Works),
        (
            vec![
                "sgf".into(),
                "import".into(),
                sgf.clone(),
                "--key".into(),
                k("referee.key"),
            ],
            Either,
        ),
        (
            vec![
                "renju".into(),
                "check".into(),
                "--query".into(),
                "h8".into(),
            ],
            Works,
        ),
        (vec!["replay".into(), game.clone()], Works),
        (vec!["sanctions".into()], Works),
        (vec!["explain".into(), game.clone()], Works),
        (
            vec![
                "match".into(),
                "--black".into(),
                f("no-engine"),
                "--white".into(),
                f("no-engine"),
            ],
            Either,
        ),
        (
            vec!["rehearse".into(), "--tables".into(), "50:30:30".into()],
            Either,
        ),
        (vec!["checkpoint".into()], Either),
        (
            vec!["checkpoint".into(), "--rotate-to".into(), f("new.key")],
            Refused,
        ),
        (
            vec![
                "witness".into(),
                f("checkpoint"),
                "--key".into(),
                k("referee.key"),
                "--name".into(),
                "w".into(),
                "--log-key".into(),
                "x".into(),
                "--state".into(),
                f("state"),
            ],
            Either,
        ),
        (
            vec!["prove".into(), "inclusion".into(), game.clone(), "0".into()],
            Either,
        ),
        (
            vec!["prove".into(), "consistency".into(), "1".into(), "2".into()],
            Either,
        ),
        (vec!["prove".into(), "rotation".into()], Refused),
        (vec!["prove".into(), "map".into(), game.clone()], Either),
        (vec!["audit".into()], Either),
        (vec!["devices".into()], Works),
        (
            vec!["key".into(), "fingerprint".into(), k("referee.pub")],
            Works,
        ),
        (
            vec![
                "check-proof".into(),
                "inclusion".into(),
                f("proof"),
                "--checkpoint".into(),
                f("checkpoint"),
                "--log-key".into(),
                "x".into(),
            ],
            Either,
        ),
        (
            vec![
                "check-proof".into(),
                "consistency".into(),
                f("proof"),
                "--old".into(),
                f("checkpoint"),
                "--new".into(),
                f("checkpoint"),
                "--log-key".into(),
                "x".into(),
            ],
            Either,
        ),
        (
            vec![
                "check-proof".into(),
                "map".into(),
                f("proof"),
                "--checkpoint".into(),
                f("checkpoint"),
                "--log-key".into(),
                "x".into(),
            ],
            Either,
        ),
        (
            vec!["bundle".into(), game.clone(), "--out".into(), f("bundle")],
            Refused,
        ),
        (vec!["tiles".into(), "--out".into(), f("tiles")], Refused),
        (
            vec![
                "publish".into(),
                "--nats".into(),
                "nats://127.0.0.1:1".into(),
            ],
            Refused,
        ),
        (
            vec![
                "mirror".into(),
                "--nats".into(),
                "nats://127.0.0.1:1".into(),
            ],
            Refused,
        ),
        (
            vec!["serve".into(), "--listen".into(), "127.0.0.1:0".into()],
            Refused,
        ),
        (
            vec![
                "key".into(),
                "replace".into(),
                game.clone(),
                "--participant".into(),
                "Referee".into(),
                "--new-key".into(),
                f("k.pub"),
                "--key".into(),
                k("referee.key"),
            ],
            Either,
        ),
        (
            vec![
                "key".into(),
                "revoke".into(),
                game.clone(),
                "--participant".into(),
                "Black player".into(),
                "--key".into(),
                k("referee.key"),
            ],
            Either,
        ),
        // Tournament chains are the server's: created, written and read
        // through it.
        (
            vec![
                "tournament".into(),
                "new".into(),
                "--name".into(),
                "Cup".into(),
                "--rounds".into(),
                "2".into(),
                "--key".into(),
                k("director.key"),
            ],
            Works,
        ),
        (vec!["tournament".into(), "list".into()], Works),
        (
            vec![
                "tournament".into(),
                "register".into(),
                "Cup".into(),
                "--id".into(),
                "P1".into(),
                "--surname".into(),
                "Ash".into(),
                "--rank".into(),
                "1d".into(),
                "--key".into(),
                k("director.key"),
            ],
            Works,
        ),
        (
            vec![
                "tournament".into(),
                "register".into(),
                "Cup".into(),
                "--id".into(),
                "P2".into(),
                "--surname".into(),
                "Birch".into(),
                "--rank".into(),
                "2k".into(),
                "--key".into(),
                k("director.key"),
            ],
            Works,
        ),
        (
            [
                "tournament",
                "pair",
                "Cup",
                "--round",
                "1",
                "--board",
                "1",
                "--white",
                "P1",
                "--black",
                "P2",
                "--key",
            ]
            .map(String::from)
            .into_iter()
            .chain([k("director.key")])
            .collect(),
            Works,
        ),
        (
            [
                "tournament",
                "result",
                "Cup",
                "--round",
                "1",
                "--board",
                "1",
                "--result",
                "W+",
                "--key",
            ]
            .map(String::from)
            .into_iter()
            .chain([k("director.key")])
            .collect(),
            Works,
        ),
        (
            [
                "tournament",
                "time-zone",
                "Cup",
                "--zone",
                "Europe/Berlin",
                "--key",
            ]
            .map(String::from)
            .into_iter()
            .chain([k("director.key")])
            .collect(),
            Works,
        ),
        (
            [
                "tournament",
                "bye",
                "Cup",
                "--round",
                "2",
                "--player",
                "P1",
                "--key",
            ]
            .map(String::from)
            .into_iter()
            .chain([k("director.key")])
            .collect(),
            Works,
        ),
        (
            [
                "tournament",
                "absent",
                "Cup",
                "--round",
                "2",
                "--player",
                "P2",
                "--key",
            ]
            .map(String::from)
            .into_iter()
            .chain([k("director.key")])
            .collect(),
            Works,
        ),
        (
            [
                "tournament",
                "sanction",
                "Cup",
                "--player",
                "P2",
                "--kind",
                "debarment",
                "--reason",
                "conduct",
                "--key",
            ]
            .map(String::from)
            .into_iter()
            .chain([k("director.key")])
            .collect(),
            Works,
        ),
        (
            ["tournament", "checkpoint", "Cup", "--all", "--key"]
                .map(String::from)
                .into_iter()
                .chain([k("director.key")])
                .collect(),
            Works,
        ),
        (vec!["tournament".into(), "log".into(), "Cup".into()], Works),
        (
            vec!["tournament".into(), "verify".into(), "Cup".into()],
            Works,
        ),
        (
            vec!["tournament".into(), "standings".into(), "Cup".into()],
            Works,
        ),
        // Reads the chain from the server; a round drawn by hand may depart
        // from the engine's draw (exit code 3, one line).
        (
            vec!["tournament".into(), "check-pairing".into(), "Cup".into()],
            Either,
        ),
        (
            ["tournament", "export", "Cup", "--format", "csv"]
                .map(String::from)
                .to_vec(),
            Works,
        ),
        (
            vec![
                "tournament".into(),
                "import-opengotha".into(),
                f("no-such-file.xml"),
                "--key".into(),
                k("director.key"),
            ],
            Either,
        ),
        (vec!["completions".into(), "bash".into()], Works),
        (vec!["man".into()], Works),
        (vec!["games".into()], Works),
    ];

    // Every command the binary lists is in the table (each subcommand of a
    // group too).
    let covered: BTreeSet<String> = table.iter().map(|(a, _)| a[0].clone()).collect();
    let mut missing = Vec::new();
    for name in listed(&[]) {
        if !covered.contains(&name) {
            missing.push(name.clone());
            continue;
        }
        for sub in listed(&[name.as_str()]) {
            if !table.iter().any(|(a, _)| a[0] == name && a[1] == sub) {
                missing.push(format!("{name} {sub}"));
            }
        }
    }
    assert!(missing.is_empty(), "commands not checked: {missing:?}");

    for (args, want) in &table {
        let cwd = tempfile::tempdir().unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = through(cwd.path(), &url, &args);
        let left: Vec<_> = std::fs::read_dir(cwd.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(
            left.is_empty(),
            "kifu --server URL {args:?} left {left:?} in the working directory"
        );
        let stderr = err(&o);
        let failed_in_one_line = !o.status.success()
            && stderr.trim().lines().count() == 1
            && stderr.starts_with("kifu: error: ");
        match want {
            Works => assert!(o.status.success(), "{args:?}: {stderr}"),
            Refused => {
                assert!(failed_in_one_line, "{args:?}: {:?}: {stderr}", o.status);
                assert!(
                    stderr.contains("server"),
                    "{args:?}: the refusal names the server: {stderr}"
                );
            }
            Either => assert!(
                o.status.success() || failed_in_one_line,
                "{args:?}: {:?}: {stderr}",
                o.status
            ),
        }
    }
    // What acted through the server reached its store: the demo's game and
    // the new-game above.
    let listed_now: serde_json::Value =
        serde_json::from_str(&ok(&through(t.path(), &url, &["games", "--json"]))).unwrap();
    assert!(listed_now.as_array().unwrap().len() >= 3, "{listed_now}");
    server.stop();
    // A refused command never reached for a store, so none was made.
    assert!(!t.path().join("kifu-data").exists());
}
