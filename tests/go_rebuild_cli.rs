//! A Go board rebuilt from its operations, end to end: a referee's
//! unwinding in the middle of a free handicap placement, and a game whose
//! seats exchanged colours, as `kifu replay`, `kifu sgf export` and
//! `kifu explain` show them.

mod common;
use common::*;

use std::path::PathBuf;

use kifu_ledger::{Body, Color, Point, Resignation, Ruling, RulingEffect, RulingKind};
use serde_json::Value;

const T0: u64 = 1_795_446_800_000;

struct Table {
    dir: tempfile::TempDir,
    data: PathBuf,
    /// Public keys (hex) of Ann (Black seat), Bob (White seat), Rita (referee).
    keys: Vec<String>,
    at_ms: u64,
}

impl Table {
    fn new() -> Table {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("d");
        let keys = ["b", "w", "ref"]
            .iter()
            .map(|n| {
                ok(&run(
                    &data,
                    &["keygen", dir.path().join(n).to_str().unwrap()],
                ))
                .trim()
                .to_string()
            })
            .collect();
        Table {
            dir,
            data,
            keys,
            at_ms: T0,
        }
    }

    fn key(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }

    /// A 9x9 LGC game from a genesis file, with `overrides` (TOML).
    fn new_game(&self, handicap: u8, overrides: &str) -> String {
        let toml = format!(
            r#"game = "go"
ruleset = "lgc-2023"
overrides = {overrides}
board_size = 9
handicap = {handicap}
komi_half_points = 1
time_control = "untimed"
title = "rebuild"
auto_declare = false

[[roster]]
role = "black"
name = "Ann"
key = "{}"

[[roster]]
role = "white"
name = "Bob"
key = "{}"

[[roster]]
role = "referee"
name = "Rita"
key = "{}"
"#,
            self.keys[0], self.keys[1], self.keys[2]
        );
        let f = self.dir.path().join("g.toml");
        std::fs::write(&f, toml).unwrap();
        ok(&run(
            &self.data,
            &[
                "new-game",
                "--key",
                &self.key("ref.key"),
                "--file",
                f.to_str().unwrap(),
                "--at-ms",
                &T0.to_string(),
            ],
        ))
        .trim()
        .to_string()
    }

    /// Appends `body` signed by `who` (`b`, `w` or `ref`); returns its seq.
    fn append(&mut self, game: &str, who: &str, body: &Body) -> u64 {
        self.at_ms += 10_000;
        let o = ok(&run_stdin(
            &self.data,
            &[
                "append",
                game,
                "--key",
                &self.key(&format!("{who}.key")),
                "--at-ms",
                &self.at_ms.to_string(),
                "--json",
            ],
            &serde_json::to_string(body).unwrap(),
        ));
        let v: Value = serde_json::from_str(o.trim()).unwrap_or_else(|e| panic!("{e}: {o}"));
        v["seq"].as_u64().unwrap_or_else(|| panic!("a seq: {o}"))
    }

    fn stone(&mut self, game: &str, seat: Color, stone: Color, at: &str) -> u64 {
        let b = at.as_bytes();
        let who = if seat == Color::Black { "b" } else { "w" };
        self.append(
            game,
            who,
            &Body::StonePlaced {
                player: seat,
                stone,
                point: Point {
                    x: b[0] - b'a',
                    y: b[1] - b'a',
                },
            },
        )
    }

    fn export(&self, game: &str) -> String {
        let out = self.dir.path().join("out.sgf");
        ok(&run(
            &self.data,
            &["sgf", "export", &game[..12], "--out", out.to_str().unwrap()],
        ));
        std::fs::read_to_string(&out).unwrap()
    }

    fn replay(&self, game: &str) -> Value {
        serde_json::from_str(&ok(&run(&self.data, &["replay", &game[..12], "--json"]))).unwrap()
    }
}

fn find<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) => m.get(key).or_else(|| m.values().find_map(|x| find(x, key))),
        Value::Array(a) => a.iter().find_map(|x| find(x, key)),
        _ => None,
    }
}

#[test]
fn a_referee_unwinding_in_the_middle_of_a_free_handicap_gives_back_the_stones_to_place() {
    let mut t = Table::new();
    let game = t.new_game(3, r#"[["handicap_placement", "free"]]"#);
    let first = t.stone(&game, Color::Black, Color::Black, "cc");
    t.stone(&game, Color::Black, Color::Black, "gc");
    let ruling = Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "the second stone was dropped by accident".into(),
        reasons: "seen by the referee".into(),
        rules_cited: vec!["LGC 2023, \"Position disturbance\"".into()],
        effects: vec![RulingEffect::UnwindTo { seq: first }],
    });
    t.append(&game, "ref", &ruling);
    let r = t.replay(&game);
    assert_eq!(find(&r, "pending_handicap"), Some(&Value::from(2)), "{r}");
    // Black places the two stones still to place, then White moves.
    t.stone(&game, Color::Black, Color::Black, "gg");
    t.stone(&game, Color::Black, Color::Black, "cg");
    t.stone(&game, Color::White, Color::White, "ee");
    let r = t.replay(&game);
    assert_eq!(find(&r, "pending_handicap"), Some(&Value::from(0)), "{r}");
    let sgf = t.export(&game);
    let g = kifu_go::sgf::read(&sgf).expect("the export reads");
    let mut ab: Vec<String> = g.setup_black.iter().map(|p| p.to_sgf()).collect();
    ab.sort();
    assert_eq!(ab, ["cc", "cg", "gg"], "{sgf}");
    assert_eq!(g.moves.len(), 1, "{sgf}");
    assert_eq!(g.moves[0].color, kifu_go::Color::White);
    assert!(sgf.contains("(event 2) was taken back"), "{sgf}");
}

#[test]
fn after_the_seats_exchange_colours_sgf_and_the_story_name_the_colours_played() {
    let mut t = Table::new();
    let game = t.new_game(0, "[]");
    // Bob (White seat) plays the black stones, Ann the white ones.
    let (b, w) = (Color::Black, Color::White);
    t.stone(&game, w, b, "ee");
    t.stone(&game, b, w, "cc");
    t.stone(&game, w, b, "gg");
    t.stone(&game, b, w, "cg");
    t.append(
        &game,
        "ref",
        &Body::PairingModified {
            swap_colours: true,
            handicap: None,
            komi_half_points: Some(15),
            reason: "the players sat at the wrong colours".into(),
        },
    );
    t.stone(&game, w, b, "gc");
    t.append(
        &game,
        "b",
        &Body::Resigned {
            player: b,
            manner: Resignation::Spoken,
        },
    );
    let sgf = t.export(&game);
    assert!(sgf.contains("PB[Bob]") && sgf.contains("PW[Ann]"), "{sgf}");
    assert!(sgf.contains("KM[7.5]"), "the komi actually used: {sgf}");
    assert!(sgf.contains("White resigns"), "{sgf}");
    let story = ok(&run(&t.data, &["explain", &game[..12]]));
    assert!(story.contains("White (the black seat) resigns"), "{story}");
    assert!(story.contains("Black (the white seat) plays G7"), "{story}");
    assert!(story.contains("result by the rules: B+R"), "{story}");
    // The list of games names who played each colour.
    let list: Value = serde_json::from_str(&ok(&run(&t.data, &["games", "--json"]))).unwrap();
    assert_eq!(list[0]["black"], "Bob", "{list}");
    assert_eq!(list[0]["white"], "Ann", "{list}");
}
