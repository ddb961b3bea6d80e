//! End to end: the worked example entered with `kifu tournament`, its
//! standings as JSON against the fixture's values, the results files, bad
//! input refused with the chain file unchanged, and the demo's tournament
//! with its checkpointed game.

mod common;
use common::*;

use std::path::{Path, PathBuf};

fn keys(dir: &Path) -> (PathBuf, PathBuf) {
    let data = dir.join("data");
    for name in ["dir", "ref"] {
        ok(&run(&data, &["keygen", dir.join(name).to_str().unwrap()]));
    }
    (dir.join("dir.key"), dir.join("ref.key"))
}

fn worked_example(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    let (dk, rk) = keys(dir);
    let dk = dk.to_str().unwrap().to_string();
    let rk = rk.to_str().unwrap().to_string();
    let rpub = dir.join("ref.pub");
    ok(&run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &dk,
            "--name",
            "Worked Example Open",
            "--short-name",
            "wex",
            "--city",
            "Berlin",
            "--country",
            "DE",
            "--start",
            "2026-05-01",
            "--finish",
            "2026-05-02",
            "--rounds",
            "3",
            "--komi",
            "7",
            "--referee",
            &format!("Ref={}", rpub.display()),
        ],
    ));
    for (id, s, g, r) in [
        ("P1", "Alpha", "Ana", "2d"),
        ("P2", "Beta", "Ben", "2d"),
        ("P3", "Gamma", "Cho", "1d"),
        ("P4", "Delta", "Dan", "1d"),
        ("P5", "Eps", "Eve", "1k"),
        ("P6", "Zeta", "Fay", "1k"),
    ] {
        ok(&run(
            &data,
            &[
                "tournament",
                "register",
                "wex",
                "--key",
                &dk,
                "--id",
                id,
                "--surname",
                s,
                "--given",
                g,
                "--rank",
                r,
            ],
        ));
    }
    let rounds = [
        (
            "1 P1 P2\n2 P3 P4\n3 P5 P6\n",
            vec![("1", "W+", false), ("2", "B+", false), ("3", "W+", false)],
        ),
        (
            "1 P3 P1\n2 P2 P5\n3 P4 P6\n",
            vec![("1", "B+", false), ("2", "W+", true), ("3", "jigo", false)],
        ),
        (
            "1 P1 P4\n2 P3 P2\n",
            vec![("1", "B+", false), ("2", "W+", false)],
        ),
    ];
    for (i, (pairs, results)) in rounds.iter().enumerate() {
        let round = (i + 1).to_string();
        let file = dir.join(format!("r{round}.txt"));
        std::fs::write(&file, pairs).unwrap();
        ok(&run(
            &data,
            &[
                "tournament",
                "pair",
                "wex",
                "--key",
                &dk,
                "--round",
                &round,
                "--file",
                file.to_str().unwrap(),
            ],
        ));
        for (board, res, forfeit) in results {
            let mut args = vec![
                "tournament",
                "result",
                "wex",
                "--round",
                &round,
                "--board",
                board,
                "--result",
                res,
            ];
            if *forfeit {
                // LGC 2023, "Game forfeit": the referee declares it.
                args.extend(["--key", &rk, "--by-default"]);
            } else {
                args.extend(["--key", &dk]);
            }
            ok(&run(&data, &args));
        }
    }
    ok(&run(
        &data,
        &[
            "tournament",
            "bye",
            "wex",
            "--key",
            &dk,
            "--round",
            "3",
            "--player",
            "P5",
        ],
    ));
    ok(&run(
        &data,
        &[
            "tournament",
            "absent",
            "wex",
            "--key",
            &dk,
            "--round",
            "3",
            "--player",
            "P6",
            "--reason",
            "skip",
        ],
    ));
    data
}

fn fixture() -> serde_json::Value {
    let text = std::fs::read_to_string(project("tournament/tiebreak-example.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn standings_json_of_the_worked_example() {
    let t = tempfile::tempdir().unwrap();
    let data = worked_example(t.path());
    let j: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &[
            "tournament",
            "standings",
            "wex",
            "--after-round",
            "3",
            "--criteria",
            "MMS,SOSM,SOSOSM",
            "--json",
        ],
    )))
    .unwrap();
    assert_eq!(j["round"], 3);
    assert_eq!(j["criteria"], serde_json::json!(["MMS", "SOSM", "SOSOSM"]));
    let f = fixture();
    let table = j["table"].as_array().unwrap();
    let order: Vec<&str> = table
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["P1", "P4", "P2", "P3", "P5", "P6"]);
    for (k, row) in table.iter().enumerate() {
        assert_eq!(row["place"], k + 1);
        let e = &f["expected"][row["player"].as_str().unwrap()];
        for c in ["MMS", "SOSM", "SOSOSM"] {
            assert_eq!(
                row["values"][c].as_f64(),
                e[c].as_f64(),
                "{} {c}",
                row["player"]
            );
        }
    }
    // Every criterion for every player.
    let all: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &["tournament", "standings", "wex", "--all-criteria", "--json"],
    )))
    .unwrap();
    let p4 = all["table"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "P4")
        .unwrap();
    assert_eq!(p4["values"]["SODOSM"], 78.75);
    assert_eq!(p4["values"]["SONNEBORN-BERGER"], 3.25);
    assert_eq!(p4["values"]["CUSSW"], 5);
    assert_eq!(all["criteria"].as_array().unwrap().len(), 25);
    let table = ok(&run(&data, &["tournament", "standings", "wex"]));
    assert!(table.contains("Delta Dan"), "{table}");
}

#[test]
fn results_files_of_the_worked_example() {
    let t = tempfile::tempdir().unwrap();
    let data = worked_example(t.path());
    let h9 = ok(&run(
        &data,
        &["tournament", "export", "wex", "--format", "h9"],
    ));
    assert!(h9.contains("; PC[DE,Berlin]"), "{h9}");
    assert!(h9.contains("   2 Delta Dan                       1d XX xxxx  32½  93½ 285½    4+/b0    6=/w0    1+/b0"), "{h9}");
    assert!(h9.contains("3-!b0       0+"), "{h9}");
    let aga = ok(&run(
        &data,
        &["tournament", "export", "wex", "--format", "aga"],
    ));
    assert!(
        aga.starts_with("TOURNEY Worked Example Open, Berlin, DE, May 1-2, 2026\n"),
        "{aga}"
    );
    assert_eq!(
        aga.lines().filter(|l| l.split('\t').count() == 5).count(),
        6,
        "six decisive games over the board"
    );
    let csv = ok(&run(
        &data,
        &["tournament", "export", "wex", "--format", "csv"],
    ));
    assert_eq!(
        csv.lines().next(),
        Some("place,player,surname,given,rank,country,club,MMS,SOSM,SOSOSM")
    );
    assert!(csv.contains("2,P4,Delta,Dan,1d,,,32.5,93.5,285.5"), "{csv}");
    let json: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &["tournament", "export", "wex", "--format", "json"],
    )))
    .unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), 8);
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let t = tempfile::tempdir().unwrap();
    let data = worked_example(t.path());
    let dk = t.path().join("dir.key");
    let dk = dk.to_str().unwrap();
    let rk = t.path().join("ref.key");
    let rk = rk.to_str().unwrap();
    let dir = data.join("tournaments");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let before = std::fs::read(&file).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "pair", "wex", "--key", dk, "--round", "3", "--board", "3", "--white", "P9",
                "--black", "P1",
            ],
            "not registered",
        ),
        (
            vec![
                "pair", "wex", "--key", dk, "--round", "3", "--board", "3", "--white", "P1",
                "--black", "P6",
            ],
            "already paired",
        ),
        (
            vec![
                "result", "wex", "--key", dk, "--round", "3", "--board", "9", "--result", "W+",
            ],
            "no such game",
        ),
        (
            vec![
                "result", "wex", "--key", rk, "--round", "3", "--board", "1", "--result", "W+",
            ],
            "director",
        ),
        (
            vec![
                "register",
                "wex",
                "--key",
                dk,
                "--id",
                "P1",
                "--surname",
                "X",
                "--rank",
                "1d",
            ],
            "already registered",
        ),
        (
            vec!["bye", "wex", "--key", dk, "--round", "4", "--player", "P1"],
            "outside",
        ),
    ];
    for (args, want) in cases {
        let mut full = vec!["tournament"];
        full.extend(args);
        let o = run(&data, &full);
        assert!(!o.status.success(), "{full:?} was accepted");
        assert!(err(&o).contains(want), "{full:?}: {}", err(&o));
        assert!(
            err(&o).contains("nothing written") || want == "director",
            "{}",
            err(&o)
        );
    }
    // A whole round from a file with one bad line writes none of it.
    let f = t.path().join("bad.txt");
    std::fs::write(&f, "3 P5 P6\n4 P6 P1\n").unwrap();
    let o = run(
        &data,
        &[
            "tournament",
            "pair",
            "wex",
            "--key",
            dk,
            "--round",
            "3",
            "--file",
            f.to_str().unwrap(),
        ],
    );
    assert!(!o.status.success());
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the chain file is unchanged"
    );
    assert!(ok(&run(&data, &["tournament", "verify", "wex"])).contains("verified"));
}

#[test]
fn demo_tournament_checkpoints_the_demo_game_and_verifies() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("kifu-data");
    let text = ok(&run(&data, &["demo"]));
    assert!(
        text.contains("a bye, a forfeit, the demo game checkpointed"),
        "{text}"
    );
    assert!(text.contains("standings after round 3"), "{text}");
    let list = ok(&run(&data, &["tournament", "list"]));
    let id = list.split_whitespace().next().unwrap().to_string();
    let v = ok(&run(&data, &["tournament", "verify", &id]));
    assert!(v.contains("round 1 board 1, game"), "{v}");
    assert!(v.contains("verified"), "{v}");
    let log = ok(&run(&data, &["tournament", "log", &id]));
    assert!(log.contains("game checkpointed"), "{log}");
    assert!(log.contains("by default"), "{log}");
    // A checkpoint whose expected head differs from the stored chain is refused.
    let game = ok(&run(
        &data,
        &["tournament", "export", &id, "--format", "json"],
    ));
    let j: serde_json::Value = serde_json::from_str(&game).unwrap();
    assert_eq!(
        j["games"][0]["result"], "white_wins",
        "the demo game's own result"
    );
    let store_game = text
        .lines()
        .find_map(|l| l.strip_prefix("created game "))
        .unwrap()
        .to_string();
    let dk = data.join("demo-keys/director.key");
    let o = run(
        &data,
        &[
            "tournament",
            "checkpoint",
            &id,
            &store_game,
            "--key",
            dk.to_str().unwrap(),
            "--seq",
            "3",
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("not 3"), "{}", err(&o));
    ok(&run(
        &data,
        &[
            "tournament",
            "checkpoint",
            &id,
            &store_game,
            "--key",
            dk.to_str().unwrap(),
        ],
    ));
    let all = ok(&run(
        &data,
        &[
            "tournament",
            "checkpoint",
            &id,
            "--all",
            "--key",
            dk.to_str().unwrap(),
        ],
    ));
    assert!(
        all.contains("every game of the tournament is checkpointed at its head"),
        "{all}"
    );
}

/// `kifu tournament new --config CONFIG` with `extra` flags, then the
/// body of the genesis of the tournament `short` as `kifu tournament log
/// --json` shows it.
fn created(
    data: &Path,
    key: &Path,
    config: &Path,
    short: &str,
    extra: &[&str],
) -> serde_json::Value {
    let mut args = vec![
        "tournament",
        "new",
        "--key",
        key.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&run(data, &args));
    let log = ok(&run(data, &["tournament", "log", short, "--json"]));
    let genesis: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    genesis["body"]["tournament_created"].clone()
}

#[test]
fn new_from_a_toml_file_with_flags_overriding_it() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let (dk, _) = keys(t.path());
    let config = t.path().join("t.toml");
    std::fs::write(
        &config,
        "name = \"Renju Cup\"\nshort_name = \"rc\"\nrounds = 4\nsystem = \"swiss\"\n\
         game = \"renju\"\nruleset = \"rif-renju\"\ncriteria = \"POINTS,BUCHHOLZ,SONNEBORN-BERGER,WINS,H2H\"\n",
    )
    .unwrap();
    let g = created(
        &data,
        &dk,
        &config,
        "rc",
        &["--rounds", "5", "--unplayed-as-half"],
    );
    assert_eq!(g["rounds"], 5, "the flag overrides the file");
    assert_eq!(g["game"], "renju");
    assert_eq!(g["unplayed_as_half"], true);
    assert_eq!(
        g["criteria"],
        serde_json::json!(["POINTS", "BUCHHOLZ", "SONNEBORN-BERGER", "WINS", "H2H"])
    );
    // Without a ruleset, a Renju tournament is recorded under the Renju
    // rules, not a Go profile.
    std::fs::write(
        &config,
        "name = \"Renju Open\"\nshort_name = \"ro\"\nrounds = 3\ngame = \"renju\"\n",
    )
    .unwrap();
    let g = created(&data, &dk, &config, "ro", &[]);
    assert_eq!(g["ruleset"], "rif-renju");
    // Unknown settings and unknown criteria are refused.
    std::fs::write(&config, "name = \"x\"\nrounds = 3\ncolour = \"blue\"\n").unwrap();
    let o = run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            dk.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
    );
    assert!(!o.status.success());
    let o = run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            dk.to_str().unwrap(),
            "--name",
            "x",
            "--rounds",
            "3",
            "--criteria",
            "MMS,SOS",
        ],
    );
    assert!(
        err(&o).contains("unknown placement criterion"),
        "{}",
        err(&o)
    );
}

/// A file in the tournaments folder that does not verify keeps no other
/// tournament from being found by its short name.
#[test]
fn a_broken_tournament_file_does_not_hide_the_others() {
    let t = tempfile::tempdir().unwrap();
    let data = worked_example(t.path());
    let broken = data.join("tournaments").join("00broken.kifu");
    std::fs::write(&broken, b"KIFUARC1 not a chain").unwrap();
    let log = ok(&run(&data, &["tournament", "log", "wex"]));
    assert!(log.contains("Worked Example Open"), "{log}");
    let o = run(&data, &["tournament", "log", "nosuch"]);
    assert!(!o.status.success());
    assert!(err(&o).contains("1 that do not"), "{}", err(&o));
}

/// The tournament's time zone: stated at creation or later by the director
/// (`time_zone_stated`), the last one holding; a name the time zone
/// database does not hold is refused in words with nothing written.
#[test]
fn a_time_zone_is_stated_at_creation_or_later_and_an_unknown_one_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let (dk, rk) = keys(t.path());
    let dk = dk.to_str().unwrap();
    let new = |short: &str, zone: &str| {
        run(
            &data,
            &[
                "tournament",
                "new",
                "--key",
                dk,
                "--name",
                "Zone Open",
                "--short-name",
                short,
                "--rounds",
                "3",
                "--time-zone",
                zone,
                "--json",
            ],
        )
    };
    let o = new("mars", "Mars/Olympus_Mons");
    assert!(!o.status.success());
    assert!(
        err(&o).contains("is not one of the IANA time zone database"),
        "{}",
        err(&o)
    );
    assert!(
        !err(&o).contains('\n') || err(&o).lines().count() == 1,
        "{}",
        err(&o)
    );
    assert!(!ok(&run(&data, &["tournament", "list"])).contains("mars"));
    let made: serde_json::Value = serde_json::from_str(&ok(&new("tokyo", "Asia/Tokyo"))).unwrap();
    assert_eq!(made["time_zone"], "Asia/Tokyo");
    let log = ok(&run(&data, &["tournament", "log", "tokyo", "--json"]));
    let second: serde_json::Value = serde_json::from_str(log.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["body"]["time_zone_stated"]["zone"], "Asia/Tokyo");
    // Changed later by the director; a referee may not.
    ok(&run(
        &data,
        &[
            "tournament",
            "time-zone",
            "tokyo",
            "--key",
            dk,
            "--zone",
            "Europe/Berlin",
        ],
    ));
    let o = run(
        &data,
        &[
            "tournament",
            "time-zone",
            "tokyo",
            "--key",
            rk.to_str().unwrap(),
            "--zone",
            "UTC",
        ],
    );
    assert!(!o.status.success());
    let log = ok(&run(&data, &["tournament", "log", "tokyo", "--json"]));
    assert_eq!(log.lines().count(), 3, "{log}");
    assert!(log.contains("Europe/Berlin"), "{log}");
    ok(&run(&data, &["tournament", "verify", "tokyo"]));
    // A game of the tournament begun at 23:30 UTC is dated, in its SGF, by
    // the tournament's zone: Berlin's day is still the 8th at 00:30.
    let (b, w) = (t.path().join("b"), t.path().join("w"));
    for k in [&b, &w] {
        ok(&run(&data, &["keygen", k.to_str().unwrap()]));
    }
    let game = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            dk,
            "--director",
            &format!("Dana={}", t.path().join("dir.pub").display()),
            "--black",
            &format!("Ann={}", b.with_extension("pub").display()),
            "--white",
            &format!("Bob={}", w.with_extension("pub").display()),
            "--size",
            "9",
            "--tournament",
            "tokyo",
            "--round",
            "1",
            "--board",
            "1",
            "--at-ms",
            "1796686200000",
        ],
    ));
    let sgf = ok(&run(&data, &["sgf", "export", game.trim()]));
    assert!(sgf.contains("DT[2026-12-08]"), "{sgf}");
}
