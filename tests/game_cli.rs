//! End to end: `kifu demo`, then `kifu replay` and `kifu explain` on the
//! demo game: the illegal move unwound, the dispute, the judgement resumed
//! under protest, the warning, the appeal and the committee's decision.

mod common;
use common::*;

use std::path::{Path, PathBuf};

fn demo(dir: &Path) -> (PathBuf, String) {
    let data = dir.join("kifu-data");
    let j: serde_json::Value = serde_json::from_str(&ok(&run(&data, &["demo", "--json"]))).unwrap();
    assert_eq!(j["verified"], true);
    (data, j["game"].as_str().unwrap()[..12].to_string())
}

#[test]
fn the_demo_game_verifies_and_replays_to_its_result() {
    let t = tempfile::tempdir().unwrap();
    let (data, game) = demo(t.path());
    assert!(ok(&run(&data, &["verify"])).contains("ok:"));
    let text = ok(&run(&data, &["replay", &game]));
    assert!(text.contains("phase: finished"), "{text}");
    assert!(text.contains("result by the rules: W+"), "{text}");
    assert!(text.contains("under protest"), "{text}");
    assert!(text.contains("decided at event"), "{text}");
    assert!(text.contains("on Black: warning"), "{text}");
    assert!(!text.contains("MISMATCH"), "{text}");
}

#[test]
fn replay_json_at_an_event_shows_the_unwound_position() {
    let t = tempfile::tempdir().unwrap();
    let (data, game) = demo(t.path());
    let explain: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["explain", &game, "--json"]))).unwrap();
    let events = explain["events"].as_array().unwrap();
    let notice = events
        .iter()
        .find(|e| e["kind"] == "illegal move noticed")
        .expect("an illegal move is pointed out");
    let seq = notice["seq"].as_u64().unwrap();
    let cons = notice["consequences"].as_array().unwrap();
    assert!(cons
        .iter()
        .any(|c| c["rule"].as_str().unwrap().contains("\"Illegal move\"")
            && c["what"].as_str().unwrap().contains("unwound")));
    // Just before the notice White's illegal stone stands at bb; at the
    // notice it is gone.
    let before: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &["replay", &game, "--at", &(seq - 1).to_string(), "--json"],
    )))
    .unwrap();
    let after: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &["replay", &game, "--at", &seq.to_string(), "--json"],
    )))
    .unwrap();
    let row = |v: &serde_json::Value| v["state"]["board"]["ops"].as_array().unwrap().len();
    assert!(
        row(&after) < row(&before),
        "the unwinding takes operations back"
    );
    assert_eq!(
        after["state"]["illegal_moves"][0]["move_seq"],
        notice_move(&explain)
    );
    assert_eq!(after["state"]["phase"]["phase"], "playing");
}

fn notice_move(explain: &serde_json::Value) -> serde_json::Value {
    let e = explain["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "illegal move noticed")
        .unwrap();
    let s = e["summary"].as_str().unwrap();
    let n: u64 = s
        .split("event ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|r| r.trim_end_matches(':').parse().ok())
        .unwrap();
    serde_json::json!(n)
}

#[test]
fn explain_tells_every_event_with_its_signer_and_each_consequence_with_its_rule() {
    let t = tempfile::tempdir().unwrap();
    let (data, game) = demo(t.path());
    let text = ok(&run(&data, &["explain", &game]));
    for needle in [
        "Referee (referee)",
        "Committee member 1 (committee)",
        "\"Appeals committee\"",
        "\"Player responsibility\"",
        "\"Warning\"",
        "\"Komi in an even game\"",
        "the decision is final",
    ] {
        assert!(text.contains(needle), "missing {needle}: {text}");
    }
    let j: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["explain", &game, "--json"]))).unwrap();
    let appeal = j["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "appeal lodged")
        .unwrap();
    assert!(appeal["consequences"][0]["what"]
        .as_str()
        .unwrap()
        .contains("admissible"));
    assert_eq!(j["result_computed"]["result"]["outcome"]["win"], "white");
}

#[test]
fn replay_at_an_event_that_does_not_exist_is_one_clear_error() {
    let t = tempfile::tempdir().unwrap();
    let (data, game) = demo(t.path());
    let o = run(&data, &["replay", &game, "--at", "100000"]);
    assert!(!o.status.success());
    assert!(err(&o).starts_with("kifu: error:"), "{}", err(&o));
}

#[test]
fn sanctions_lists_each_players_sanctions_across_games() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    // Two demo games: the warning to Black appears once per game.
    ok(&run(&data, &["demo"]));
    ok(&run(&data, &["demo"]));
    let v: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["sanctions", "--json"]))).unwrap();
    let players = v.as_array().unwrap();
    let warned: Vec<&serde_json::Value> = players
        .iter()
        .filter(|p| !p["entries"].as_array().unwrap().is_empty())
        .collect();
    // The second demo reuses the first one's keys: one Black player, warned
    // once in each of the two games.
    assert_eq!(warned.len(), 1);
    let p = warned[0];
    assert_eq!(p["name"], "Black player");
    let entries = p["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "one warning in each demo game: {p}");
    assert!(entries.iter().all(|e| e["kind"] == "warning"));
    let text = ok(&run(&data, &["sanctions"]));
    assert!(text.contains(": warning: "), "{text}");
}

#[test]
fn sgf_export_times_equal_the_replay_at_every_move_of_the_demo() {
    let t = tempfile::tempdir().unwrap();
    let (data, game) = demo(t.path());
    let sgf = ok(&run(&data, &["sgf", "export", &game]));
    let j: serde_json::Value =
        serde_json::from_str(&ok(&run(&data, &["replay", &game, "--json"]))).unwrap();
    let clocks = j["state"]["move_clocks"].as_array().unwrap();
    let mmss = |ms: u64| format!("{}:{:02}", ms / 60_000, ms / 1_000 % 60);
    let mut checked = 0;
    for rec in clocks {
        let (b, w) = (
            rec["black"]["time_left_ms"].as_u64().unwrap(),
            rec["white"]["time_left_ms"].as_u64().unwrap(),
        );
        // The SGF node of the move carries the same times, in seconds.
        let bl = format!("BL[{}]", kifu_go_seconds(b));
        let wl = format!("WL[{}]", kifu_go_seconds(w));
        let at = rec["at_seq"].as_u64().unwrap().to_string();
        let text = ok(&run(&data, &["replay", &game, "--at", &at]));
        let line = text.lines().find(|l| l.starts_with("clocks:")).unwrap();
        assert!(
            line.contains(&format!("Black {}", mmss(b))),
            "{line} vs {b}"
        );
        assert!(
            line.contains(&format!("White {}", mmss(w))),
            "{line} vs {w}"
        );
        let standing = sgf.contains(&format!("{bl}{wl}"));
        if standing {
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} moves checked");
}

/// Milliseconds as SGF writes seconds: `602.5`, `600`.
fn kifu_go_seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `new-game` without `--komi` takes the profile's komi for the game it
/// creates: LGC 2023, "Komi in an even game" (7.5) and "Komi in a handicap
/// game" (0.5); Japanese 1989 (6.5 even, 0.5 with handicap); Renju none.
#[test]
fn komi_defaults_to_the_profiles_komi_for_an_even_or_handicap_game() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    for n in ["b", "w", "ref"] {
        ok(&run(&data, &["keygen", &key(n)]));
    }
    let komi_of = |extra: &[&str]| -> serde_json::Value {
        let (b, w) = (format!("B={}.pub", key("b")), format!("W={}.pub", key("w")));
        let refkey = format!("{}.key", key("ref"));
        let referee = format!("R={}.pub", key("ref"));
        let mut args = vec![
            "new-game",
            "--key",
            &refkey,
            "--black",
            &b,
            "--white",
            &w,
            "--referee",
            &referee,
        ];
        args.extend_from_slice(extra);
        let game = ok(&run(&data, &args)).trim().to_string();
        let log: serde_json::Value = serde_json::from_str(
            ok(&run(&data, &["log", &game, "--json"]))
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        log["body"]["game_created"]["komi_half_points"].clone()
    };
    assert_eq!(komi_of(&["--ruleset", "lgc-2023"]), 15);
    assert_eq!(komi_of(&["--ruleset", "lgc-2023", "--handicap", "2"]), 1);
    assert_eq!(komi_of(&["--ruleset", "japanese"]), 13);
    assert_eq!(komi_of(&["--ruleset", "japanese", "--handicap", "2"]), 1);
    assert_eq!(
        komi_of(&["--ruleset", "japanese", "--handicap", "2", "--komi", "-3"]),
        -6
    );
    assert_eq!(
        komi_of(&["--game", "renju", "--size", "15", "--ruleset", "rif-renju"]),
        0
    );
}
