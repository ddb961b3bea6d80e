//! Output a referee reads: every text command, over the demo store and over
//! scenario games (Go and Renju, with pauses, clock adjustments, a clock
//! reading, sanctions, rulings, an off-board point and a timestamp out of
//! order), speaks as the board and the clock do.
//!
//! Representative lines are checked word for word; then all text output is
//! scanned for what must never reach a referee: SGF letters for moves
//! (`plays dd`), milliseconds (`60000 ms`), raw instants (`1795446827033`),
//! and Rust's Debug shapes (`Some(`, `None`, `[DecidedFinally]`,
//! `StatusAssessment`).

mod common;
use common::*;

use std::path::PathBuf;

/// An instant that looks like a real one, so that a raw epoch number in
/// the text would be caught by the scan.
const T0: u64 = 1_795_446_800_000;

struct Table {
    dir: tempfile::TempDir,
    data: PathBuf,
}

impl Table {
    fn new() -> Table {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("d");
        for n in ["ref", "rec", "b", "w"] {
            ok(&run(
                &data,
                &["keygen", dir.path().join(n).to_str().unwrap()],
            ));
        }
        Table { dir, data }
    }

    fn key(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }

    fn new_game(&self, at_ms: u64, extra: &[&str]) -> String {
        let (b, w, r, rec) = (
            format!("Ann={}", self.key("b.pub")),
            format!("Bob={}", self.key("w.pub")),
            format!("Rita={}", self.key("ref.pub")),
            format!("Rex={}", self.key("rec.pub")),
        );
        let referee = self.key("ref.key");
        let at = at_ms.to_string();
        let mut args = vec![
            "new-game",
            "--at-ms",
            at.as_str(),
            "--key",
            referee.as_str(),
            "--black",
            &b,
            "--white",
            &w,
            "--referee",
            &r,
            "--recorder",
            &rec,
        ];
        args.extend_from_slice(extra);
        ok(&run(&self.data, &args)).trim().to_string()
    }

    fn append(&self, game: &str, who: &str, at_ms: u64, body: &str) {
        let key = self.key(&format!("{who}.key"));
        let at = at_ms.to_string();
        ok(&run_stdin(
            &self.data,
            &["append", game, "--key", &key, "--at-ms", &at],
            body,
        ));
    }

    fn text(&self, args: &[&str]) -> String {
        ok(&run(&self.data, args))
    }
}

fn stone(colour: &str, x: u8, y: u8) -> String {
    format!(
        r#"{{"stone_placed":{{"player":"{colour}","stone":"{colour}","point":{{"x":{x},"y":{y}}}}}}}"#
    )
}

fn press(colour: &str) -> String {
    format!(r#"{{"clock_pressed":{{"player":"{colour}"}}}}"#)
}

/// A 19x19 Go game under the LGC rules with byo-yomi: moves, a call to the
/// referee with the clocks paused, a clock adjustment, a time sanction, a
/// clock reading, a clarification, an off-board stone, a timestamp out of
/// order and a resignation.
fn go_scenario(t: &Table) -> String {
    let game = t.new_game(
        T0,
        &[
            "--size",
            "19",
            "--ruleset",
            "lgc-2023",
            "--time",
            "byoyomi:60m+5x30s",
            "--title",
            "wording scenario",
        ],
    );
    let mut at = T0;
    let mut step = |who: &str, dt: i64, body: &str| {
        at = at.saturating_add_signed(dt);
        t.append(&game, who, at, body);
    };
    step("ref", 1_000, r#"{"clock_started":{"running":"black"}}"#);
    step("b", 70_000, &stone("black", 15, 3)); // Q16
    step("b", 500, &press("black"));
    step("w", 30_000, &stone("white", 3, 15)); // D4
    step("w", 500, &press("white"));
    step("b", 10_000, &stone("black", 9, 9)); // K10
    step("b", 500, &press("black"));
    step("w", 2_000, r#"{"referee_called":{"player":"white"}}"#);
    step("w", 500, r#"{"clock_paused":{"reason":"call_referee"}}"#);
    step(
        "ref",
        60_000,
        r#"{"clock_adjusted":{"player":"white","delta_ms":60000,"reason":"time lost to the interruption"}}"#,
    );
    step(
        "ref",
        1_000,
        r#"{"sanction_imposed":{"target":{"player":"black"},"kind":{"time_modified":{"delta_ms":-30000}},"reason":"disturbing the opponent"}}"#,
    );
    step(
        "rec",
        1_000,
        r#"{"clock_reading":{"black_ms":3510000,"white_ms":3690000,"black_overtime":null,"white_overtime":null,"read_by":"recorder"}}"#,
    );
    step(
        "ref",
        1_000,
        r#"{"referee_ruling":{"kind":"clarification","decision":"Play goes on.","reasons":"A player may call the referee.","rules_cited":["LGC 2023, \"Player responsibility\""],"effects":[]}}"#,
    );
    step("ref", 1_000, r#"{"clock_resumed":{"running":"white"}}"#);
    step("w", 20_000, &stone("white", 20, 3)); // off the board
    step("w", 500, &press("white"));
    // Stamped five seconds before the event it follows.
    step("b", -8_000, &stone("black", 16, 16)); // R3
    step("b", 9_000, &press("black"));
    step(
        "w",
        3_000,
        r#"{"resigned":{"player":"white","manner":"spoken"}}"#,
    );
    step(
        "ref",
        1_000,
        r#"{"result_declared":{"outcome":{"win":"black"},"by":"resignation"}}"#,
    );
    game
}

/// A Renju game under the RIF rules: the opening at the centre, a pause for
/// a toilet visit, a claim of a forbidden move that does not hold, a
/// resignation.
fn renju_scenario(t: &Table) -> String {
    let game = t.new_game(
        T0 + 100_000_000,
        &[
            "--game",
            "renju",
            "--size",
            "15",
            "--time",
            "sudden:30m",
            "--title",
            "renju wording scenario",
        ],
    );
    let mut at = T0 + 100_000_000;
    let mut step = |who: &str, dt: u64, body: &str| {
        at += dt;
        t.append(&game, who, at, body);
    };
    step("ref", 1_000, r#"{"clock_started":{"running":"black"}}"#);
    let moves = [
        ("b", "black", 7, 7), // h8
        ("w", "white", 8, 6), // i9
        ("b", "black", 9, 7), // j8
        ("w", "white", 6, 6), // g9
        ("b", "black", 7, 9), // h6
    ];
    for (who, colour, x, y) in moves {
        step(who, 5_000, &stone(colour, x, y));
        step(who, 500, &press(colour));
    }
    step("w", 1_000, r#"{"clock_paused":{"reason":"toilet"}}"#);
    step("ref", 90_000, r#"{"clock_resumed":{"running":"white"}}"#);
    step(
        "w",
        2_000,
        r#"{"forbidden_move_pointed_out":{"player":"white","point":{"x":7,"y":9}}}"#,
    );
    step(
        "b",
        2_000,
        r#"{"resigned":{"player":"black","manner":"spoken"}}"#,
    );
    game
}

fn demo(t: &Table) -> String {
    let j: serde_json::Value =
        serde_json::from_str(&t.text(&["demo", "--json"])).expect("demo --json");
    j["game"].as_str().unwrap()[..12].to_string()
}

/// Every text command over every game of the store, with what it printed.
fn every_text_output(t: &Table, games: &[String]) -> Vec<(String, String)> {
    let mut runs: Vec<Vec<String>> = vec![
        vec!["log".into()],
        vec!["verify".into()],
        vec!["games".into()],
        vec!["sanctions".into()],
        vec!["tournament".into(), "list".into()],
    ];
    for g in games {
        runs.push(vec!["explain".into(), g.clone()]);
        runs.push(vec!["replay".into(), g.clone()]);
        runs.push(vec!["log".into(), g.clone()]);
        runs.push(vec!["sanctions".into(), g.clone()]);
        // The replay at every event: each phase, clock and board on the way.
        let j: serde_json::Value = serde_json::from_str(&t.text(&["replay", g, "--json"])).unwrap();
        let last = j["last_seq"].as_u64().unwrap();
        for at in 0..=last {
            runs.push(vec![
                "replay".into(),
                g.clone(),
                "--at".into(),
                at.to_string(),
            ]);
        }
    }
    runs.into_iter()
        .map(|args| {
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run(&t.data, &a);
            // `verify` exits non-zero on failures only; warnings are output.
            (args.join(" "), format!("{}{}", out(&o), err(&o)))
        })
        .collect()
}

/// Variant names of the enums whose values reach text output: none of them
/// may appear as a word of their own.
const RUST_NAMES: &[&str] = &[
    "StatusAssessment",
    "DecidedFinally",
    "CallReferee",
    "CALL_REFEREE",
    "STATUS_ASSESSMENT",
    "TOILET",
    "OutOfTurn",
    "TimeModified",
    "GameForfeit",
    "LateArrival",
    "RoundSkipped",
    "Judgement",
    "Clarification",
    "NotStarted",
    "AwaitingReferee",
    "ClockPaused",
    "StonePlaced",
    "Spoken",
];

/// A move or point in SGF letters after one of the words that name a
/// point (`plays dd`, `stone at pd`): two letters `a`-`s` standing alone.
fn sgf_letters(line: &str) -> bool {
    [
        "plays ",
        "stone at ",
        "move at ",
        "point ",
        "dead: ",
        "ko: no recapture at ",
    ]
    .iter()
    .any(|lead| {
        line.match_indices(lead).any(|(i, _)| {
            let rest = &line.as_bytes()[i + lead.len()..];
            rest.len() >= 2
                && rest[..2].iter().all(|b| (b'a'..=b's').contains(b))
                && !rest.get(2).is_some_and(|b| b.is_ascii_alphanumeric())
                && !ENGLISH.contains(&&rest[..2])
        })
    })
}

/// Two-letter words that are also SGF points ("White plays on").
const ENGLISH: &[&[u8]] = &[
    b"on", b"an", b"as", b"in", b"is", b"of", b"or", b"no", b"at",
];

/// Milliseconds: `60000 ms`, `250ms`.
fn milliseconds(line: &str) -> bool {
    let b = line.as_bytes();
    line.match_indices("ms").any(|(i, _)| {
        let after_ok = !b.get(i + 2).is_some_and(|c| c.is_ascii_alphanumeric());
        let before = if i >= 1 && b[i - 1] == b' ' { i - 1 } else { i };
        after_ok && before >= 1 && b[before - 1].is_ascii_digit()
    })
}

/// A raw instant: a word of exactly 13 digits starting with 1.
fn epoch_number(line: &str) -> bool {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w.len() == 13 && w.starts_with('1') && w.bytes().all(|b| b.is_ascii_digit()))
}

/// What must never reach a referee, anywhere in `text`.
fn scan(what: &str, text: &str) {
    for line in text.lines() {
        assert!(!sgf_letters(line), "{what}: SGF letters: {line}");
        assert!(!milliseconds(line), "{what}: milliseconds: {line}");
        assert!(!epoch_number(line), "{what}: a raw instant: {line}");
        for debug in ["Some(", "None", "[\"", "\\\""] {
            assert!(
                !line.contains(debug),
                "{what}: Debug output {debug}: {line}"
            );
        }
        for name in RUST_NAMES {
            let hit = line
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ','))
                .any(|w| w == *name);
            assert!(!hit, "{what}: Rust name {name}: {line}");
        }
    }
}

#[test]
fn the_scan_catches_what_it_looks_for() {
    assert!(sgf_letters("Black plays pd"));
    assert!(sgf_letters("White stone at dd."));
    assert!(!sgf_letters("Black plays Q16"));
    assert!(!sgf_letters("Black plays h8"));
    assert!(!sgf_letters("Black plays on"));
    assert!(milliseconds("adjusted by 60000 ms: late"));
    assert!(milliseconds("used 250ms"));
    assert!(!milliseconds("terms of play"));
    assert!(epoch_number("at 1795446827033 the clock"));
    assert!(!epoch_number("game 1795446827033abc"));
    assert!(!epoch_number("event 17954468270"));
}

#[test]
fn go_scenario_reads_as_the_board_and_the_clock_do() {
    let t = Table::new();
    let game = go_scenario(&t);
    let g = &game[..12];

    let log = t.text(&["log", g]);
    assert!(log.contains("  Ann (Black) vs Bob (White)\n"), "{log}");
    assert!(
        log.contains("   2  2026-11-23T15:14:31Z  Ann (Black)                  Black plays Q16\n"),
        "{log}"
    );
    assert!(
        log.contains("Bob (White)                  White plays D4\n"),
        "{log}"
    );
    assert!(log.contains("Black plays K10\n"), "{log}");
    // Dates are ISO 8601 with the zone.
    assert!(
        log.contains("   1  2026-11-23T15:13:21Z  Rita (referee)               clock started, Black to move\n"),
        "{log}"
    );
    assert!(
        log.contains("game created: Go 19x19 under lgc-2023, handicap 0, komi 7½, time: byo-yomi, 1:00:00 + 5 × 0:30\n"),
        "{log}"
    );
    assert!(log.contains("clocks paused to call the referee\n"), "{log}");
    assert!(
        log.contains("White's clock adjusted by +1:00: time lost to the interruption\n"),
        "{log}"
    );
    assert!(
        log.contains("sanction on Black: time limit modified by -0:30 (disturbing the opponent)\n"),
        "{log}"
    );
    assert!(
        log.contains("clock read: Black 58:30, White 1:01:30\n"),
        "{log}"
    );
    assert!(
        log.contains("White plays off the 19x19 board (column 21, row 4 from the top left)\n"),
        "{log}"
    );
    assert!(log.contains("Black plays R3\n"), "{log}");
    assert!(log.contains("result declared: B+R\n"), "{log}");

    let explain = t.text(&["explain", g]);
    // Offsets from the first event as clock faces.
    assert!(
        explain.contains("   2  +1:11      Ann (black): Black plays Q16\n"),
        "{explain}"
    );
    assert!(
        explain.contains("Rita (referee): referee clarifies: Play goes on."),
        "{explain}"
    );

    let verify = t.text(&["verify"]);
    assert!(
        verify.contains(
            "irregularity: a point off the 19x19 board (column 21, row 4 from the top left)"
        ),
        "{verify}"
    );
    assert!(
        verify.contains("warning: time goes backwards by 0:08 (tolerance 0:05)"),
        "{verify}"
    );

    // At the pause: both clocks as faces (main time left and the byo-yomi
    // periods; White's 2 s before his call stopped the clocks counted), the
    // reason in words.
    let paused = t.text(&["replay", g, "--at", "9"]);
    assert!(
        paused.contains("phase: paused to call the referee\n"),
        "{paused}"
    );
    assert!(
        paused.contains(
            "clocks: Black 58:39 + 5 × 0:30, White 59:27 + 5 × 0:30; paused to call the referee\n"
        ),
        "{paused}"
    );
    let end = t.text(&["replay", g]);
    assert!(end.contains("phase: finished: B+R;"), "{end}");
    assert!(
        end.contains(
            "sanction at event 11 on Black: time limit modified by -0:30 (disturbing the opponent;"
        ),
        "{end}"
    );
    let sanctions = t.text(&["sanctions", g]);
    assert!(
        sanctions.contains(": time limit modified by -0:30: disturbing the opponent ["),
        "{sanctions}"
    );
    let games = t.text(&["games"]);
    assert!(
        games.contains(": Ann (Black) vs Bob (White); Go 19x19 under lgc-2023; finished: B+R;"),
        "{games}"
    );

    for (what, text) in every_text_output(&t, &[g.to_string()]) {
        scan(&what, &text);
    }
}

#[test]
fn renju_scenario_reads_as_the_rif_writes_it() {
    let t = Table::new();
    let game = renju_scenario(&t);
    let g = &game[..12];
    let log = t.text(&["log", g]);
    for (colour, at) in [
        ("Black", "h8"),
        ("White", "i9"),
        ("Black", "j8"),
        ("White", "g9"),
        ("Black", "h6"),
    ] {
        assert!(
            log.contains(&format!("{colour} plays {at}\n")),
            "{colour} {at}: {log}"
        );
    }
    assert!(log.contains("clocks paused for a toilet visit\n"), "{log}");
    assert!(
        log.contains("White points out a forbidden move at h6\n"),
        "{log}"
    );
    assert!(log.contains("time: sudden death, 30:00\n"), "{log}");
    let replay = t.text(&["replay", g, "--at", "12"]);
    assert!(
        replay.contains("    a b c d e f g h i j k l m n o\n"),
        "{replay}"
    );
    assert!(
        replay.contains("  8 . . . . . . . X . X . . . . .\n"),
        "{replay}"
    );
    assert!(
        replay.contains("phase: paused for a toilet visit\n"),
        "{replay}"
    );
    // White: two moves of 5.5 s and the second before the pause.
    assert!(
        replay.contains("clocks: Black 29:43, White 29:48; paused for a toilet visit"),
        "{replay}"
    );
    for (what, text) in every_text_output(&t, &[g.to_string()]) {
        scan(&what, &text);
    }
}

#[test]
fn the_demo_store_reads_as_the_board_and_the_clock_do() {
    let t = Table::new();
    let g = demo(&t);
    let log = t.text(&["log", &g]);
    // The demo's first moves on its 9x9 board.
    assert!(log.contains("Black plays B9\n"), "{log}");
    assert!(log.contains("White plays C9\n"), "{log}");
    let replay = t.text(&["replay", &g]);
    assert!(
        replay.contains("White's clock adjusted by +1:00; play resumes"),
        "{replay}"
    );
    assert!(
        replay.contains("illegal move at event 25 (play out of turn) pointed out by"),
        "{replay}"
    );
    assert!(
        replay.contains(
            ": Black pressed the clock with the other hand; decided finally, rulings at event 41"
        ),
        "{replay}"
    );
    // Half points: in words with the half sign, in the result code SGF style.
    assert!(replay.contains("komi 7½, total 4½; W+3.5"), "{replay}");
    assert!(replay.contains("phase: finished: W+3.5;"), "{replay}");
    assert!(log.contains(", komi 7½, time: Fischer"), "{log}");
    let explain = t.text(&["explain", &g]);
    assert!(
        explain.contains("-> move 12 (Black G3) is a failure of alternation"),
        "{explain}"
    );
    assert!(!explain.contains("komi 7.5"), "{explain}");
    let tournaments = t.text(&["tournament", "list"]);
    let id = tournaments
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    let mut outputs = every_text_output(&t, &[g]);
    for sub in ["log", "standings", "verify"] {
        let o = run(&t.data, &["tournament", sub, &id]);
        outputs.push((
            format!("tournament {sub}"),
            format!("{}{}", out(&o), err(&o)),
        ));
    }
    for (what, text) in outputs {
        scan(&what, &text);
    }
}

#[test]
fn the_replay_json_carries_the_state_in_words_for_the_page() {
    let t = Table::new();
    let game = go_scenario(&t);
    let j: serde_json::Value =
        serde_json::from_str(&t.text(&["replay", &game[..12], "--at", "9", "--json"])).unwrap();
    let text = &j["text"];
    assert_eq!(text["phase"], "paused to call the referee");
    // Main time left and the byo-yomi periods: Black used 1:21, White
    // 0:30.5 and 0:02 of the turn his call to the referee interrupted.
    assert_eq!(text["black_clock"], "58:39 + 5 × 0:30");
    assert_eq!(text["white_clock"], "59:27 + 5 × 0:30");
    assert_eq!(text["paused"], "to call the referee");
    assert_eq!(text["to_move"], "White");
    // The JSON keeps its numbers and codes.
    assert_eq!(j["state"]["clock"]["paused"], "CALL_REFEREE");
    // Values in the JSON are the documented snake_case names, never Rust's.
    assert!(
        j["state"]["clock"]["black"]["overtime"]
            .get("byo_yomi")
            .is_some(),
        "{}",
        j["state"]["clock"]
    );
    let g: serde_json::Value = serde_json::from_str(&t.text(&["games", "--json"])).unwrap();
    let first = &g
        .as_array()
        .map(|a| a[0].clone())
        .unwrap_or_else(|| g["games"][0].clone());
    assert!(
        first["phase_text"]
            .as_str()
            .is_some_and(|p| p.starts_with("finished: B+R")),
        "{g}"
    );
}

/// A byo-yomi game recorded through `kifu append`: Black goes into his
/// periods, calls the referee in the middle of one, the clocks stand for ten
/// minutes, and his next move runs through a period. `kifu replay` and its
/// `--json` show main time and the periods left, the period under way at
/// the pause, and the same faces in numbers (LGC 2023,
/// `docs/rules/lgc-tournament-rules-2023.txt`, "Management of time" and
/// "Japanese byo-yomi").
#[test]
fn byo_yomi_and_a_pause_read_as_the_clock_shows_them() {
    let t = Table::new();
    let game = t.new_game(
        T0,
        &[
            "--size",
            "19",
            "--ruleset",
            "lgc-2023",
            "--time",
            "byoyomi:1m+3x30s",
        ],
    );
    let g = &game[..12];
    let mut at = T0;
    let mut step = |who: &str, dt: u64, body: &str| {
        at += dt;
        t.append(&game, who, at, body);
    };
    step("ref", 1_000, r#"{"clock_started":{"running":"black"}}"#); // 1
    step("b", 80_000, &stone("black", 15, 3)); // 2
    step("b", 500, &press("black")); // 3: 1:20.5 used, 20.5 s into a period
    step("w", 9_500, &stone("white", 3, 15)); // 4
    step("w", 500, &press("white")); // 5: 10 s used
                                     // The call stops the clocks (LGC 2023, pause reason 10): 12 s used.
    step("b", 12_000, r#"{"referee_called":{"player":"black"}}"#); // 6
    step("b", 500, r#"{"clock_paused":{"reason":"call_referee"}}"#); // 7
    step("ref", 600_000, r#"{"clock_resumed":{"running":"black"}}"#); // 8
    step("b", 20_000, &stone("black", 16, 16)); // 9
    step("b", 500, &press("black")); // 10: 32.5 s in the turn

    let after_moves = t.text(&["replay", g, "--at", "5"]);
    assert!(
        after_moves.contains("clocks: Black 0:00 + 3 × 0:30 (running), White 0:50 + 3 × 0:30\n"),
        "{after_moves}"
    );
    // At the pause: 12 s of the period used, the period still counted.
    let paused = t.text(&["replay", g, "--at", "7"]);
    assert!(
        paused.contains(
            "clocks: Black 0:00 + 3 × 0:30 (0:18 left in the period), White 0:50 + 3 × 0:30; paused to call the referee\n"
        ),
        "{paused}"
    );
    // Ten minutes later, resumed: the face is where the pause left it.
    let resumed = t.text(&["replay", g, "--at", "8"]);
    assert!(
        resumed.contains("clocks: Black 0:00 + 3 × 0:30 (0:18 left in the period) (running), White 0:50 + 3 × 0:30\n"),
        "{resumed}"
    );
    // 32.5 s in all: one period used up, two left.
    let end = t.text(&["replay", g]);
    assert!(
        end.contains("clocks: Black 0:00 + 2 × 0:30, White 0:50 + 3 × 0:30 (running)\n"),
        "{end}"
    );

    let j: serde_json::Value =
        serde_json::from_str(&t.text(&["replay", g, "--at", "7", "--json"])).unwrap();
    assert_eq!(
        j["text"]["black_clock"],
        "0:00 + 3 × 0:30 (0:18 left in the period)"
    );
    assert_eq!(j["text"]["white_clock"], "0:50 + 3 × 0:30");
    assert_eq!(j["text"]["paused"], "to call the referee");
    // The numbers behind the faces.
    let black = &j["view"]["clocks"]["black"];
    assert_eq!(black["main_ms"], 0, "{black}");
    assert_eq!(black["overtime_ms"], 18_000, "{black}");
    assert_eq!(black["count"], 3, "{black}");
    assert_eq!(black["time_left_ms"], 78_000, "{black}");
    let white = &j["view"]["clocks"]["white"];
    assert_eq!(white["main_ms"], 50_000, "{white}");
    assert_eq!(white["count"], 3, "{white}");
    for (what, text) in every_text_output(&t, &[g.to_string()]) {
        scan(&what, &text);
    }
}

/// Canadian overtime through `kifu append`: the stones and the time left in
/// the block, and a pause that keeps what the running side had used.
#[test]
fn canadian_overtime_reads_as_stones_in_the_time_left() {
    let t = Table::new();
    let game = t.new_game(
        T0,
        &[
            "--size",
            "19",
            "--ruleset",
            "lgc-2023",
            "--time",
            "canadian:1m+10/5m",
        ],
    );
    let g = &game[..12];
    let mut at = T0;
    let mut step = |who: &str, dt: u64, body: &str| {
        at += dt;
        t.append(&game, who, at, body);
    };
    step("ref", 1_000, r#"{"clock_started":{"running":"black"}}"#); // 1
    step("b", 89_500, &stone("black", 15, 3)); // 2
    step("b", 500, &press("black")); // 3: 1:30, the block's first stone
    step("w", 500, &stone("white", 3, 15)); // 4
    step("w", 500, &press("white")); // 5: 1 s
    step("b", 28_500, &stone("black", 16, 16)); // 6
    step("b", 500, &press("black")); // 7: 29 s
    step("w", 10_000, r#"{"clock_paused":{"reason":"toilet"}}"#); // 8
    let paused = t.text(&["replay", g]);
    assert!(
        paused.contains(
            "clocks: Black 0:00 + 8 stones in 4:01, White 0:49 + 10 stones in 5:00; paused for a toilet visit\n"
        ),
        "{paused}"
    );
    let j: serde_json::Value = serde_json::from_str(&t.text(&["replay", g, "--json"])).unwrap();
    assert_eq!(j["text"]["black_clock"], "0:00 + 8 stones in 4:01");
    assert_eq!(j["view"]["clocks"]["black"]["count"], 8);
    assert_eq!(j["view"]["clocks"]["black"]["overtime_ms"], 241_000);
}
