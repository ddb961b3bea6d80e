//! `kifu tournament pair --auto`: the pairing engine's draw from the
//! chain, printed (`--dry-run --json`) or signed, changed by the director
//! with `--swap` and `--reason`, and `check-pairing` and `verify`
//! reporting a round that departs from it, with the reason given.

mod common;
use common::*;

use std::path::Path;

/// A McMahon tournament of five players: two dan players, two kyu
/// players and a 12k.
fn five_players(dir: &Path) -> (std::path::PathBuf, String) {
    let data = dir.join("data");
    ok(&run(&data, &["keygen", dir.join("dir").to_str().unwrap()]));
    let key = dir.join("dir.key").to_str().unwrap().to_string();
    ok(&run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &key,
            "--name",
            "Spring Open",
            "--short-name",
            "spring",
            "--rounds",
            "3",
        ],
    ));
    for (id, rank) in [
        ("P1", "3d"),
        ("P2", "1d"),
        ("P3", "2k"),
        ("P4", "5k"),
        ("P5", "12k"),
    ] {
        ok(&run(
            &data,
            &[
                "tournament",
                "register",
                "spring",
                "--key",
                &key,
                "--id",
                id,
                "--surname",
                id,
                "--rank",
                rank,
            ],
        ));
    }
    (data, key)
}

#[test]
fn the_engine_s_draw_is_printed_then_signed_and_a_changed_board_departs() {
    let t = tempfile::tempdir().unwrap();
    let (data, key) = five_players(t.path());
    let file = std::fs::read_dir(data.join("tournaments"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let before = std::fs::read(&file).unwrap();
    let printed = ok(&run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--round",
            "1",
            "--auto",
            "--dry-run",
            "--json",
        ],
    ));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "a dry run writes nothing"
    );
    let j: serde_json::Value = serde_json::from_str(&printed).unwrap();
    // Five players: the bye to the weakest (OpenGotha: lowest rank plus
    // twice the MMS), P5.
    assert_eq!(j["bye"], "P5");
    let boards = j["pairing"].as_array().unwrap();
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[0]["table"], 1);
    let mut seen: Vec<&str> = boards
        .iter()
        .flat_map(|b| [b["white"].as_str().unwrap(), b["black"].as_str().unwrap()])
        .collect();
    seen.sort();
    assert_eq!(seen, ["P1", "P2", "P3", "P4"]);
    // Signed: the same draw, three facts, and the round is the engine's.
    let said = ok(&run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--round",
            "1",
            "--auto",
            "--key",
            &key,
        ],
    ));
    assert!(said.contains("4 facts written"), "{said}");
    let checked = ok(&run(&data, &["tournament", "check-pairing", "spring"]));
    assert!(
        checked.contains("round 1: the engine's draw, board for board"),
        "{checked}"
    );
    // The director exchanges the colours of board 1 by hand: a departure,
    // reported with exit code 3.
    let b = &boards[0];
    ok(&run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--key",
            &key,
            "--round",
            "1",
            "--board",
            "1",
            "--white",
            b["black"].as_str().unwrap(),
            "--black",
            b["white"].as_str().unwrap(),
            "--handicap",
            &b["handicap"].to_string(),
        ],
    ));
    let o = run(&data, &["tournament", "check-pairing", "spring", "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], false);
    let found = j["rounds"][0]["departures"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{j}");
    assert!(found[0]
        .as_str()
        .unwrap()
        .starts_with("round 1 board 1: recorded"));
    // verify passes, and says no reason is recorded for the board changed
    // by hand after the engine's draw was signed.
    let said = ok(&run(&data, &["tournament", "verify", "spring"]));
    let line = said
        .lines()
        .find(|l| l.starts_with("round 1 board 1: recorded"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(line.ends_with("(no reason recorded)"), "{line}");
}

#[test]
fn a_director_swaps_two_players_with_a_reason_and_verify_reports_each_departure_with_it() {
    let t = tempfile::tempdir().unwrap();
    let (data, key) = five_players(t.path());
    let pair = |extra: &[&str]| {
        let mut args = vec!["tournament", "pair", "spring", "--round", "1", "--auto"];
        args.extend_from_slice(extra);
        run(&data, &args)
    };
    let engine: serde_json::Value =
        serde_json::from_str(&ok(&pair(&["--dry-run", "--json"]))).unwrap();
    let (one, two) = (&engine["pairing"][0], &engine["pairing"][1]);
    let (a, b) = (
        one["white"].as_str().unwrap().to_string(),
        two["black"].as_str().unwrap().to_string(),
    );
    let swap = format!("{a}:{b}");
    let reason = "they are father and son and asked not to sit side by side";
    // A swap without its reason is refused, nothing written.
    let o = pair(&["--swap", &swap, "--key", &key]);
    assert!(!o.status.success());
    let said = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(said.contains("each swap takes the reason"), "{said}");
    assert!(said.contains("nothing written"), "{said}");
    // The dry run shows the changed draw, why each board is paired so,
    // and the swap with its reason.
    let text = ok(&pair(&["--swap", &swap, "--reason", reason, "--dry-run"]));
    assert!(
        text.contains(&format!("# swapped {a} and {b}: {reason}")),
        "{text}"
    );
    assert!(text.contains("difference"), "{text}");
    let changed: serde_json::Value = serde_json::from_str(&ok(&pair(&[
        "--swap",
        &swap,
        "--reason",
        reason,
        "--dry-run",
        "--json",
    ])))
    .unwrap();
    assert_eq!(changed["swaps"][0]["reason"], reason);
    let on_board = |j: &serde_json::Value, table: usize, who: &str| {
        j["pairing"][table]["white"] == who || j["pairing"][table]["black"] == who
    };
    assert!(
        on_board(&changed, 0, &b) && on_board(&changed, 1, &a),
        "{changed}"
    );
    // Signed: the round's pairing, its bye and `round_drawn`.
    let said = ok(&pair(&["--swap", &swap, "--reason", reason, "--key", &key]));
    assert!(said.contains("4 facts written"), "{said}");
    let log = ok(&run(&data, &["tournament", "log", "spring"]));
    assert!(log.contains(reason), "{log}");
    // check-pairing: both boards depart, each with the reason (exit 3).
    let o = run(&data, &["tournament", "check-pairing", "spring"]);
    assert_eq!(o.status.code(), Some(3));
    let lines = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(lines.matches(reason).count(), 2, "{lines}");
    // verify passes and says each departure with its reason.
    let said = ok(&run(&data, &["tournament", "verify", "spring"]));
    assert!(
        said.contains("round 1: drawn by kifu-pairing/1 (OpenGotha 3.51.02), 2 departures"),
        "{said}"
    );
    for table in [1, 2] {
        let line = said
            .lines()
            .find(|l| l.starts_with(&format!("round 1 board {table}: recorded")))
            .unwrap_or_else(|| panic!("{said}"));
        assert!(
            line.contains(&format!("{a} and {b} swapped: {reason}")),
            "{line}"
        );
    }
    assert!(said.trim_end().ends_with("verified"), "{said}");
    let j: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &["tournament", "verify", "spring", "--json"],
    )))
    .unwrap();
    assert_eq!(j["ok"], true);
    let found = j["draws"][0]["departures"].as_array().unwrap();
    assert_eq!(found.len(), 2, "{j}");
    for d in found {
        assert_eq!(d["explained"], true, "{d}");
        assert!(d["reasons"][0].as_str().unwrap().ends_with(reason), "{d}");
    }
}

#[test]
fn auto_without_a_key_or_on_a_full_round_writes_nothing() {
    let t = tempfile::tempdir().unwrap();
    let (data, key) = five_players(t.path());
    let o = run(
        &data,
        &["tournament", "pair", "spring", "--round", "1", "--auto"],
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("give --key"));
    ok(&run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--round",
            "1",
            "--auto",
            "--key",
            &key,
        ],
    ));
    let o = run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--round",
            "1",
            "--auto",
            "--key",
            &key,
        ],
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("nobody is left to pair"));
    let o = run(
        &data,
        &[
            "tournament",
            "pair",
            "spring",
            "--round",
            "4",
            "--auto",
            "--key",
            &key,
        ],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("round 4 is outside 1..=3"));
}

#[test]
fn an_opengotha_file_is_checked_round_by_round() {
    // The worked example's round 1 as typed has Eps White against Zeta on
    // board 3; OpenGotha 3.51.02 itself, pairing round 1 of this file with
    // its defaults (tests/peers/OpenGothaPairing.java), draws Zeta White:
    // their colour balances are equal and the names' draw gives Zeta White.
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let xml = project("tournament/opengotha-worked-example.xml");
    let o = run(
        &data,
        &[
            "tournament",
            "check-pairing",
            xml.to_str().unwrap(),
            "--round",
            "1",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        j["rounds"][0]["departures"],
        serde_json::json!([
            "round 1 board 3: recorded EPSEVE - ZETAFAY h0, the engine draws ZETAFAY - EPSEVE h0"
        ])
    );
}

#[test]
fn handicap_settings_given_to_new_are_in_the_genesis_and_the_draw() {
    // 2k (MMS 28) against 5k (MMS 25): by default 3 − 1 = 2 stones; with
    // a ceiling of one stone, one.
    let handicaps = |extra: &[&str]| -> (Vec<u64>, String) {
        let t = tempfile::tempdir().unwrap();
        let data = t.path().join("data");
        ok(&run(
            &data,
            &["keygen", t.path().join("dir").to_str().unwrap()],
        ));
        let key = t.path().join("dir.key").to_str().unwrap().to_string();
        let mut args = vec![
            "tournament",
            "new",
            "--key",
            &key,
            "--name",
            "Cup",
            "--short-name",
            "cup",
            "--rounds",
            "3",
        ];
        args.extend_from_slice(extra);
        ok(&run(&data, &args));
        for (id, rank) in [("P1", "3d"), ("P2", "1d"), ("P3", "2k"), ("P4", "5k")] {
            ok(&run(
                &data,
                &[
                    "tournament",
                    "register",
                    "cup",
                    "--key",
                    &key,
                    "--id",
                    id,
                    "--surname",
                    id,
                    "--rank",
                    rank,
                ],
            ));
        }
        let j: serde_json::Value = serde_json::from_str(&ok(&run(
            &data,
            &[
                "tournament",
                "pair",
                "cup",
                "--round",
                "1",
                "--auto",
                "--dry-run",
                "--json",
            ],
        )))
        .unwrap();
        let log = ok(&run(&data, &["tournament", "log", "cup"]));
        let hd = j["pairing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["handicap"].as_u64().unwrap())
            .collect();
        (hd, log)
    };
    let (plain, log) = handicaps(&[]);
    assert_eq!(plain, [0, 2]);
    assert!(!log.contains("drawn by"), "{log}");
    let (capped, log) = handicaps(&["--handicap-ceiling", "1"]);
    assert_eq!(capped, [0, 1]);
    assert!(
        log.contains("McMahon drawn by kifu-pairing/1 (OpenGotha 3.51.02) with handicap.ceiling=1"),
        "{log}"
    );
    // From the ranks instead of the MMS: 2k against 5k is the same 3 − 1.
    let (by_rank, _) = handicaps(&["--handicap-based-on-mms=false"]);
    assert_eq!(by_rank, [0, 2]);
    // No handicap at or above 10k: the 2k and the 5k count as 10k.
    let (none, _) = handicaps(&["--no-handicap-above", "10k"]);
    assert_eq!(none, [0, 0]);
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    ok(&run(
        &data,
        &["keygen", t.path().join("dir").to_str().unwrap()],
    ));
    let key = t.path().join("dir.key").to_str().unwrap().to_string();
    let o = run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &key,
            "--name",
            "Cup",
            "--rounds",
            "3",
            "--handicap-ceiling",
            "12",
        ],
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("handicap ceiling is 12"));
}
