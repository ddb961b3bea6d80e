//! Clock readings through SGF, end to end: `kifu sgf export` writes `BL`/`WL`
//! and `OB`/`OW` as SGF FF[4] defines them (properties BL, WL: "time left
//! ... after the move was made"; OB, OW: "number of moves left ... within the
//! current byo-yomi period / overtime"), that is the main time left, then in
//! Japanese byo-yomi the period's time and the periods left, in Canadian
//! overtime the block's time and the stones left; `kifu sgf import` reads
//! them back to the same readings, and a record's own byo-yomi readings
//! import to readings a referee recognises.

mod common;
use common::*;

use std::path::{Path, PathBuf};

use kifu_ledger::{Body, Color, Point};
use serde_json::Value;

const T0: u64 = 1_795_446_800_000;

/// One node's clock properties as written: (BL, OB, WL, OW), text as is.
type Props = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

struct Table {
    dir: tempfile::TempDir,
    data: PathBuf,
    keys: Vec<String>,
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
        Table { dir, data, keys }
    }

    fn key(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }

    /// A 9x9 LGC game under `time_control` (TOML), its clock started at
    /// `T0 + 1 s` with Black to play.
    fn timed_game(&self, time_control: &str) -> String {
        let toml = format!(
            r#"game = "go"
ruleset = "lgc-2023"
overrides = []
board_size = 9
handicap = 0
komi_half_points = 13
time_control = {time_control}
title = "clocks"
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
        let id = ok(&run(
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
        .to_string();
        self.append(
            &id,
            "ref",
            T0 + 1000,
            &Body::ClockStarted {
                running: Color::Black,
            },
        );
        id
    }

    fn append(&self, game: &str, who: &str, at_ms: u64, body: &Body) {
        ok(&run_stdin(
            &self.data,
            &[
                "append",
                game,
                "--key",
                &self.key(&format!("{who}.key")),
                "--at-ms",
                &at_ms.to_string(),
            ],
            &serde_json::to_string(body).unwrap(),
        ));
    }

    /// A stone a second before its clock press, the press at `T0 + ms`.
    fn press(&self, game: &str, c: Color, at: &str, ms: u64) {
        let who = if c == Color::Black { "b" } else { "w" };
        let b = at.as_bytes();
        self.append(
            game,
            who,
            T0 + ms - 1000,
            &Body::StonePlaced {
                player: c,
                stone: c,
                point: Point {
                    x: b[0] - b'a',
                    y: b[1] - b'a',
                },
            },
        );
        self.append(game, who, T0 + ms, &Body::ClockPressed { player: c });
    }

    fn export(&self, game: &str) -> (PathBuf, String) {
        let out = self.dir.path().join(format!("{}.sgf", &game[..12]));
        ok(&run(
            &self.data,
            &["sgf", "export", &game[..12], "--out", out.to_str().unwrap()],
        ));
        let text = std::fs::read_to_string(&out).unwrap();
        (out, text)
    }

    /// Imports `file` signed by the referee's key into a fresh store; returns
    /// that store and the game's id.
    fn import(&self, file: &Path) -> (PathBuf, String) {
        let data = self.dir.path().join("imported");
        let id = ok(&run(
            &data,
            &[
                "sgf",
                "import",
                file.to_str().unwrap(),
                "--key",
                &self.key("ref.key"),
            ],
        ))
        .trim()
        .to_string();
        (data, id)
    }
}

/// The value of property `id` in one node's text.
fn prop(node: &str, id: &str) -> Option<String> {
    let mut from = 0;
    while let Some(i) = node[from..].find(&format!("{id}[")) {
        let at = from + i;
        // A whole identifier, not the tail of a longer one.
        if at == 0 || !node.as_bytes()[at - 1].is_ascii_uppercase() {
            let start = at + id.len() + 1;
            let end = start + node[start..].find(']').unwrap();
            return Some(node[start..end].to_string());
        }
        from = at + 1;
    }
    None
}

/// (BL, OB, WL, OW) of every move node of an SGF text (no variations).
fn move_props(sgf: &str) -> Vec<Props> {
    sgf.split(';')
        .skip(2)
        .map(|n| (prop(n, "BL"), prop(n, "OB"), prop(n, "WL"), prop(n, "OW")))
        .collect()
}

fn some(bl: &str, ob: Option<&str>, wl: &str, ow: Option<&str>) -> Props {
    (
        Some(bl.into()),
        ob.map(Into::into),
        Some(wl.into()),
        ow.map(Into::into),
    )
}

/// Every clock reading of a game, as SGF writes it: (BL, OB, WL, OW).
fn readings(data: &Path, id: &str) -> Vec<Props> {
    let secs = |v: &Value| kifu_clock::sgf_seconds(v.as_u64().unwrap());
    let count = |v: &Value| v.as_u64().map(|n| n.to_string());
    ok(&run(data, &["log", &id[..12], "--json"]))
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|e| e["body"].get("clock_reading").cloned())
        .map(|r| {
            (
                Some(secs(&r["black_ms"])),
                count(&r["black_overtime"]),
                Some(secs(&r["white_ms"])),
                count(&r["white_overtime"]),
            )
        })
        .collect()
}

/// GNU Go loads the file (when installed).
fn gnu_go_loads(file: &Path, moves: usize) {
    let gnugo = ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(gnugo) = gnugo else {
        assert!(!peers_required(), "GNU Go is required here but missing");
        eprintln!("skipped: GNU Go not installed");
        return;
    };
    use std::io::Write;
    let mut child = std::process::Command::new(gnugo)
        .args(["--mode", "gtp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("loadsgf {}\nlist_stones black\nquit\n", file.display()).as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let answers: Vec<&str> = text.split("\n\n").collect();
    // `loadsgf` answers with the colour to play after the last move.
    let next = if moves % 2 == 1 { "white" } else { "black" };
    assert_eq!(answers[0].trim(), format!("= {next}"), "{text}");
    assert_eq!(
        answers[1]
            .trim_start_matches('=')
            .split_whitespace()
            .count(),
        moves.div_ceil(2),
        "{text}"
    );
}

/// Exported, imported again: the same readings, move by move, and no
/// timing error found in a record that has no instants.
fn round_trip(t: &Table, file: &Path, exported: &[Props]) {
    let (data, id) = t.import(file);
    assert_eq!(readings(&data, &id), exported);
    let story = ok(&run(&data, &["explain", &id[..12]]));
    assert!(!story.contains("Timing error"), "{story}");
}

#[test]
fn japanese_byo_yomi_exports_main_time_then_the_period_and_reads_back_the_same() {
    let t = Table::new();
    // One minute, then 3 periods of 30 s (LGC 2023,
    // `docs/rules/lgc-tournament-rules-2023.txt`, "Japanese byo-yomi").
    let g = t.timed_game("{ byoyomi = { main_ms = 60000, periods = 3, period_ms = 30000 } }");
    t.press(&g, Color::Black, "ee", 41_000); // 40 s: 20 s of main time left
    t.press(&g, Color::White, "cc", 51_000); // 10 s
    t.press(&g, Color::Black, "gg", 81_000); // 30 s: 10 s into the first period
    t.press(&g, Color::White, "cg", 91_000); // 10 s
    t.press(&g, Color::Black, "gc", 161_000); // 70 s: the third period
    let (file, text) = t.export(&g);
    assert!(text.contains("OT[3x30 byo-yomi]"), "{text}");
    let got = move_props(&text);
    assert_eq!(
        got,
        vec![
            some("20", None, "60", None),
            some("20", None, "50", None),
            some("30", Some("3"), "50", None),
            some("30", Some("3"), "40", None),
            some("30", Some("1"), "40", None),
        ],
        "{text}"
    );
    round_trip(&t, &file, &got);
    gnu_go_loads(&file, 5);
}

#[test]
fn canadian_overtime_exports_the_blocks_time_and_stones_and_reads_back_the_same() {
    let t = Table::new();
    // One minute, then 5 stones in 2 minutes (LGC 2023, "Canadian overtime").
    let g = t.timed_game("{ canadian = { main_ms = 60000, stones = 5, block_ms = 120000 } }");
    t.press(&g, Color::Black, "ee", 51_000); // 50 s: 10 s of main time left
    t.press(&g, Color::White, "cc", 52_000);
    t.press(&g, Color::Black, "gg", 72_000); // 20 s: 10 s into the block, 1 stone
    t.press(&g, Color::White, "cg", 73_000);
    t.press(&g, Color::Black, "gc", 103_000); // 30 s more, a second stone
    let (file, text) = t.export(&g);
    assert!(text.contains("OT[5/120 Canadian]"), "{text}");
    let got = move_props(&text);
    assert_eq!(
        got,
        vec![
            some("10", None, "60", None),
            some("10", None, "59", None),
            some("110", Some("4"), "59", None),
            some("110", Some("4"), "58", None),
            some("80", Some("3"), "58", None),
        ],
        "{text}"
    );
    round_trip(&t, &file, &got);
    gnu_go_loads(&file, 5);
}

#[test]
fn a_records_byo_yomi_readings_import_as_the_clock_showed_them() {
    // As a server writes a byo-yomi game: each move carries the mover's
    // clock only, OB once in the periods; the fourth move carries none.
    let t = Table::new();
    let file = t.dir.path().join("kgs.sgf");
    std::fs::write(
        &file,
        "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Ann]PW[Bob]TM[60]OT[3x30 byo-yomi]\
         ;B[ee]BL[35.2];W[cc]WL[50];B[gg]BL[24.5]OB[3];W[cg];B[gc]BL[12]OB[1])",
    )
    .unwrap();
    let (data, id) = t.import(&file);
    // A reading where the file has one; the clock not read keeps what it
    // showed (White's main time before its first reading), and a main-time
    // reading carries no count.
    assert_eq!(
        readings(&data, &id),
        vec![
            some("35.2", None, "60", None),
            some("35.2", None, "50", None),
            some("24.5", Some("3"), "50", None),
            some("12", Some("1"), "50", None),
        ]
    );
    let story = ok(&run(&data, &["explain", &id[..12]]));
    assert!(
        story.contains("clock read: Black 0:24.5 with 3 left in overtime, White 0:50"),
        "{story}"
    );
    assert!(!story.contains("Timing error"), "{story}");
}
