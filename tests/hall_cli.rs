//! The hall's screen, in a real headless Chromium against a real
//! `kifu serve`: the pairings page fills in a result entered with `kifu
//! tournament result` while it is open, without a reload; the standings
//! page shows after every round exactly what `kifu tournament standings
//! --json` prints, and a value opens to the games it was computed from;
//! printed (Chromium's PDF printing, the engine of `--print-to-pdf`), the
//! standings of 40 players fit one A4 sheet. Without Chromium the tests say
//! so and pass, unless `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::browser::{browser_or_skip, pdf_pages, Browser};
use common::*;

use std::path::{Path, PathBuf};

use serde_json::Value;

struct Hall {
    data: PathBuf,
    key: String,
    /// The server holding the data directory, once one is started: the
    /// director's commands then go through it, as a director's would.
    server: std::cell::RefCell<Option<String>>,
}

impl Hall {
    /// A tournament `t` with `players` players P1.. (ranks spread from 3d
    /// down), on `criteria`.
    fn new(dir: &Path, players: usize, rounds: u32, criteria: &str) -> Hall {
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
                "Hall Open",
                "--short-name",
                "t",
                "--city",
                "Leiden",
                "--rounds",
                &rounds.to_string(),
                "--criteria",
                criteria,
                "--time",
                "canadian:60m+15/5m",
            ],
        ));
        let h = Hall {
            data,
            key,
            server: std::cell::RefCell::new(None),
        };
        let surnames = [
            "Akiyama", "Bauer", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat",
            "Ivanov", "Jansen",
        ];
        for i in 1..=players {
            let rank = match i % 7 {
                0 => "3d",
                1 => "1d",
                2 => "1k",
                3 => "4k",
                4 => "2d",
                5 => "10k",
                _ => "15k",
            };
            let surname = format!("{} {}", surnames[i % surnames.len()], i);
            h.cli(&[
                "tournament",
                "register",
                "t",
                "--key",
                &h.key,
                "--id",
                &format!("P{i}"),
                "--surname",
                &surname,
                "--given",
                "Kim",
                "--rank",
                rank,
                "--country",
                "NL",
                "--club",
                "Leid",
            ]);
        }
        h
    }

    fn cli(&self, args: &[&str]) -> String {
        match self.server.borrow().as_deref() {
            Some(url) => ok(&kifu()
                .arg("--server")
                .arg(url)
                .args(args)
                .output()
                .expect("kifu runs")),
            None => ok(&run(&self.data, args)),
        }
    }

    /// From now on, commands go through the server at `url`.
    fn through(&self, url: &str) {
        *self.server.borrow_mut() = Some(url.to_string());
    }

    /// Pairs round `round` from `boards` lines (`board white black [h]`).
    fn pair(&self, dir: &Path, round: u32, boards: &[String]) {
        let file = dir.join(format!("round{round}.txt"));
        std::fs::write(&file, boards.join("\n")).unwrap();
        self.cli(&[
            "tournament",
            "pair",
            "t",
            "--key",
            &self.key,
            "--round",
            &round.to_string(),
            "--file",
            file.to_str().unwrap(),
        ]);
    }

    fn result(&self, round: u32, board: u32, result: &str) {
        self.cli(&[
            "tournament",
            "result",
            "t",
            "--key",
            &self.key,
            "--round",
            &round.to_string(),
            "--board",
            &board.to_string(),
            "--result",
            result,
        ]);
    }

    fn standings(&self, round: u32) -> Value {
        let text = self.cli(&[
            "tournament",
            "standings",
            "t",
            "--after-round",
            &round.to_string(),
            "--json",
        ]);
        serde_json::from_str(&text).expect("standings JSON")
    }
}

fn browser(what: &str, dir: &Path) -> Option<Browser> {
    browser_or_skip(what).map(|program| Browser::start(program, &dir.join("browser")))
}

#[test]
fn the_pairings_page_fills_in_a_result_live() {
    let t = tempfile::tempdir().unwrap();
    let Some(mut b) = browser("the pairings page test", t.path()) else {
        return;
    };
    let h = Hall::new(t.path(), 5, 3, "MMS,SOSM,SOSOSM");
    h.pair(t.path(), 1, &["1 P1 P2".into(), "2 P3 P4 2".into()]);
    h.cli(&[
        "tournament",
        "bye",
        "t",
        "--key",
        &h.key,
        "--round",
        "1",
        "--player",
        "P5",
    ]);
    let served = Served::start(&h.data, &[]);
    h.through(&served.url);
    b.goto(&format!("{}/hall/t", served.url));
    let result =
        |n: u32| format!("document.querySelector('#pairings tr[data-board=\"{n}\"] td.result')");
    b.wait_for(
        "the pairings of round 1",
        &format!(
            "{} !== null && {}.textContent === 'playing'",
            result(1),
            result(1)
        ),
    );
    // What the page shows of each board: the players, the handicap.
    let row2 = b.eval("document.querySelector('#pairings tr[data-board=\"2\"]').innerText");
    let row2 = row2.as_str().unwrap_or_default();
    assert!(
        row2.contains("Dubois 3 Kim") && row2.contains("Eriksen 4 Kim"),
        "{row2}"
    );
    assert!(row2.contains('2'), "handicap 2: {row2}");
    let byes = b.eval("document.getElementById('main').innerText");
    assert!(
        byes.as_str()
            .unwrap_or_default()
            .contains("Bye: Fischer 5 Kim"),
        "{byes}"
    );
    // A mark that a reload would lose.
    b.eval("window.__still_here = true");
    h.result(1, 1, "B+");
    b.wait_for(
        "board 1's result, live",
        &format!("{}.dataset.result === '0-1'", result(1)),
    );
    assert_eq!(b.eval("window.__still_here === true"), Value::Bool(true));
    assert_eq!(
        b.eval(&format!("{}.textContent", result(2))),
        Value::String("playing".into())
    );
    // Board 2's game is recorded through the server (its genesis names
    // the tournament, round 1, board 2) and ends: Black (P4) resigns. The
    // page shows it at once, from the game's record, before the director
    // counts it.
    let cast = kifu_ledger::testkit::Cast::new();
    let mut genesis = cast.genesis("hall board 2");
    genesis.tournament = Some(kifu_ledger::TournamentRef {
        tournament: "t".into(),
        round: 1,
        board: 2,
    });
    // Created by the tournament's director (a game created by anyone
    // else would be a claim on the board, never its result).
    let director =
        kifu_ledger::Keypair::from_pkcs8_pem(&std::fs::read_to_string(&h.key).unwrap()).unwrap();
    genesis.roster.push(kifu_ledger::Participant {
        role: kifu_ledger::Role::Director,
        name: "Hall director".into(),
        key: director.public(),
    });
    let mut game = kifu_ledger::testkit::ChainBuilder::start(&director, genesis, 1_767_225_600_000);
    game.push(
        &cast.black,
        kifu_ledger::Body::Resigned {
            player: kifu_ledger::Color::Black,
            manner: kifu_ledger::Resignation::Spoken,
        },
    );
    let body: Vec<u8> = game.records.iter().flat_map(|r| r.to_stored()).collect();
    let r = ureq::post(&format!("{}/records", served.url))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body)
        .unwrap_or_else(|e| panic!("POST /records: {e}"));
    assert_eq!(r.status(), 200);
    b.wait_for(
        "board 2's result from its game record, live",
        &format!(
            "{}.dataset.result === '1-0' && {}.dataset.fromGameRecord === 'true'",
            result(2),
            result(2)
        ),
    );
    assert_eq!(b.eval("window.__still_here === true"), Value::Bool(true));
    // Not counted before the director enters or checkpoints it.
    let st = h.standings(1);
    let p3 = st["table"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "P3")
        .unwrap()
        .clone();
    assert_eq!(p3["values"]["MMS"].as_f64(), Some(26.0), "{st}");
    // A result by default says so.
    h.cli(&[
        "tournament",
        "result",
        "t",
        "--key",
        &h.key,
        "--round",
        "1",
        "--board",
        "2",
        "--result",
        "W+",
        "--by-default",
    ]);
    b.wait_for(
        "board 2's result, live",
        &format!("{}.textContent === '1-0 (by default)'", result(2)),
    );
    assert_eq!(b.eval("window.__still_here === true"), Value::Bool(true));
    // The JSON the page reads is the documented one.
    let doc: Value = serde_json::from_str(&get(&format!(
        "{}/tournaments/t/pairings?round=1",
        served.url
    )))
    .unwrap();
    assert_eq!(doc["boards"][0]["result"], "0-1");
    assert_eq!(doc["boards"][1]["handicap"], 2);
    assert_eq!(doc["byes"][0]["id"], "P5");
    // Refusals are JSON errors with their status.
    for (path, status, code) in [
        ("/tournaments/nosuch/pairings", 404, "no_tournament"),
        ("/tournaments/t/standings?round=9", 400, "bad_round"),
        ("/tournaments/t/crosstable?round=x", 400, ""),
    ] {
        match ureq::get(&format!("{}{path}", served.url)).call() {
            Err(ureq::Error::Status(got, r)) => {
                assert_eq!(got, status, "{path}");
                let v: Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
                assert_eq!(v["error"]["status"], status, "{path}");
                if !code.is_empty() {
                    assert_eq!(v["error"]["code"], code, "{path}");
                }
            }
            other => panic!("{path}: {other:?}"),
        }
    }
    // The list of tournaments names this one.
    let list: Value = serde_json::from_str(&get(&format!("{}/tournaments", served.url))).unwrap();
    assert_eq!(list["tournaments"][0]["short_name"], "t");
    assert_eq!(list["tournaments"][0]["last_round"], 1);
    served.stop();
}

fn get(url: &str) -> String {
    ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("{url}: {e}"))
        .into_string()
        .expect("text")
}

/// The standings table as the page shows it: place, player, and each
/// criterion's value (the number the button shows, as data).
fn page_standings(b: &mut Browser) -> Value {
    b.eval(
        r#"(() => {
            const criteria = [...document.querySelectorAll('#standings thead th')].slice(4).map(th => th.textContent);
            const table = [...document.querySelectorAll('#standings tbody tr[data-player]')].map(tr => ({
                place: Number(tr.dataset.place),
                player: tr.dataset.player,
                values: Object.fromEntries([...tr.querySelectorAll('td[data-criterion]')].map(td => [td.dataset.criterion, Number(td.dataset.value)])),
            }));
            return { round: Number(document.getElementById('main').dataset.round), criteria, table };
        })()"#,
    )
}

/// `kifu tournament standings --json` with its numbers as the page's
/// (JSON numbers compare by value).
fn normalised(v: &Value) -> Value {
    serde_json::json!({
        "round": v["round"],
        "criteria": v["criteria"],
        "table": v["table"].as_array().unwrap().iter().map(|r| serde_json::json!({
            "place": r["place"],
            "player": r["player"],
            "values": r["values"].as_object().unwrap().iter()
                .map(|(k, x)| (k.clone(), serde_json::json!(x.as_f64().unwrap())))
                .collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    })
}

/// A round: its boards (`board white black [handicap]`), each board's
/// result and whether it was by default, and who has the bye.
type Round<'a> = (&'a [&'a str], &'a [(&'a str, bool)], &'a str);

#[test]
fn the_standings_page_equals_the_command_line_after_each_round() {
    let t = tempfile::tempdir().unwrap();
    let Some(mut b) = browser("the standings page test", t.path()) else {
        return;
    };
    let h = Hall::new(t.path(), 9, 3, "MMS,SOSM,SOSOSM,SODOSM");
    let served = Served::start(&h.data, &[]);
    h.through(&served.url);
    let rounds: [Round; 3] = [
        (
            &["1 P1 P2", "2 P3 P4", "3 P5 P6 3", "4 P7 P8"],
            &[("W+", false), ("B+", false), ("jigo", false), ("W+", true)],
            "P9",
        ),
        (
            &["1 P2 P3", "2 P4 P1", "3 P6 P7", "4 P8 P9"],
            &[
                ("B+", false),
                ("W+", false),
                ("B+", false),
                ("both-lose", false),
            ],
            "P5",
        ),
        (
            &["1 P1 P3", "2 P9 P2", "3 P5 P8", "4 P7 P4"],
            &[("W+", false), ("jigo", false), ("B+", false), ("W+", false)],
            "P6",
        ),
    ];
    for (k, (boards, results, bye)) in rounds.iter().enumerate() {
        let round = k as u32 + 1;
        let lines: Vec<String> = boards.iter().map(|s| s.to_string()).collect();
        h.pair(t.path(), round, &lines);
        h.cli(&[
            "tournament",
            "bye",
            "t",
            "--key",
            &h.key,
            "--round",
            &round.to_string(),
            "--player",
            bye,
        ]);
        for (i, (r, by_default)) in results.iter().enumerate() {
            let board = (i + 1).to_string();
            let mut args = vec!["tournament", "result", "t", "--key", &h.key, "--round"];
            let rs = round.to_string();
            args.extend_from_slice(&[&rs, "--board", &board, "--result", r]);
            if *by_default {
                args.push("--by-default");
            }
            h.cli(&args);
        }
        b.goto(&format!(
            "{}/hall/t?view=standings&round={round}",
            served.url
        ));
        b.wait_for(
            &format!("the standings after round {round}"),
            &format!(
                "(document.getElementById('main') || {{dataset: {{}}}}).dataset.round === '{round}' && document.querySelectorAll('#standings tbody tr[data-player]').length === 9"
            ),
        );
        let page = normalised(&page_standings(&mut b));
        let cli = normalised(&h.standings(round));
        assert_eq!(page, cli, "round {round}");
        // The shown text is the same number (½ as a glyph).
        let first = &cli["table"][0];
        let sosm = first["values"]["SOSM"].as_f64().unwrap();
        let text = b.eval(&format!(
            "document.querySelector('#standings tr[data-player=\"{}\"] td[data-criterion=\"SOSM\"] button').textContent",
            first["player"].as_str().unwrap()
        ));
        let whole = sosm.trunc() as i64;
        let frac = match ((sosm - sosm.trunc()) * 4.0).round() as i64 {
            1 => "¼",
            2 => "½",
            3 => "¾",
            _ => "",
        };
        assert_eq!(
            text,
            Value::String(format!("{whole}{frac}")),
            "round {round}"
        );
    }
    // A value opens, by keyboard, to the opponents and results it was
    // computed from: one line per round, with the number each round
    // brought.
    let leader =
        b.eval("document.querySelector('#standings tbody tr[data-player]').dataset.player");
    let leader = leader.as_str().unwrap().to_string();
    b.eval(&format!(
        "document.querySelector('#standings tr[data-player=\"{leader}\"] td[data-criterion=\"SOSM\"] button').focus()"
    ));
    b.press_enter();
    b.wait_for(
        "the SOSM breakdown",
        "document.querySelector('tr.detail:not([hidden]) .breakdown') !== null",
    );
    let parts = b.eval(
        "[...document.querySelectorAll('tr.detail:not([hidden]) .breakdown tbody tr')].map(tr => [...tr.cells].map(c => c.textContent))",
    );
    let parts = parts.as_array().unwrap();
    assert_eq!(parts.len(), 3, "{parts:?}");
    // The parts are the SOSM terms the server computed, and add up to it.
    let doc: Value = serde_json::from_str(&get(&format!(
        "{}/tournaments/t/standings?round=3",
        served.url
    )))
    .unwrap();
    let bd = &doc["breakdown"][&leader][1];
    assert_eq!(bd["criterion"], "SOSM");
    let sum: f64 = bd["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["counted"] == true)
        .map(|p| p["value"].as_f64().unwrap())
        .sum();
    assert_eq!(sum, bd["value"].as_f64().unwrap());
    for (row, part) in parts.iter().zip(bd["parts"].as_array().unwrap()) {
        assert_eq!(row[0], Value::String(part["round"].to_string()));
    }
    assert_eq!(
        b.eval("document.querySelector('button[aria-expanded=\"true\"]') !== null"),
        Value::Bool(true)
    );
    // The screen with a value opened, kept as an artifact for a person.
    let png = b.screenshot();
    assert!(png.starts_with(b"\x89PNG"));
    let kept = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hall-standings.png");
    let _ = std::fs::write(&kept, &png);
    eprintln!("kept {}", kept.display());
    served.stop();
}

#[test]
fn printed_standings_of_forty_players_fit_an_a4_sheet() {
    let t = tempfile::tempdir().unwrap();
    let Some(mut b) = browser("the print test", t.path()) else {
        return;
    };
    let h = Hall::new(t.path(), 40, 5, "MMS,SOSM,SOSOSM");
    for round in 1..=2u32 {
        let boards: Vec<String> = (0..20)
            .map(|k| {
                let (w, bl) = if round == 1 {
                    (2 * k + 1, 2 * k + 2)
                } else {
                    (2 * k + 2, (2 * k + 2) % 40 + 1)
                };
                format!("{} P{w} P{bl}", k + 1)
            })
            .collect();
        h.pair(t.path(), round, &boards);
        for board in 1..=20 {
            h.result(round, board, if board % 3 == 0 { "B+" } else { "W+" });
        }
    }
    let served = Served::start(&h.data, &[]);
    h.through(&served.url);
    for view in ["standings", "crosstable", "pairings"] {
        b.goto(&format!("{}/hall/t?view={view}&round=2", served.url));
        let rows = if view == "pairings" { 20 } else { 40 };
        b.wait_for(
            &format!("the {view} of 40 players"),
            &format!(
                "(document.getElementById('main') || {{dataset: {{}}}}).dataset.view === '{view}' && document.querySelectorAll('main tbody tr[data-player], main tbody tr[data-board]').length === {rows}"
            ),
        );
        let pdf = b.print_to_pdf();
        assert!(pdf.starts_with(b"%PDF-"), "a PDF");
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let kept = dir.join(format!("hall-{view}-40.pdf"));
        let _ = std::fs::write(&kept, &pdf);
        let pages = pdf_pages(&pdf);
        // A4 is 210 × 297 mm: 595.28 × 841.89 points.
        assert!(!pages.is_empty(), "no page found in {}", kept.display());
        for (w, hgt) in &pages {
            assert!(
                (w - 595.28).abs() < 1.5 && (hgt - 841.89).abs() < 1.5,
                "{view}: page {w} × {hgt} points, not A4 ({})",
                kept.display()
            );
        }
        assert_eq!(
            pages.len(),
            1,
            "{view}: {} pages ({})",
            pages.len(),
            kept.display()
        );
        // Nothing of the screen's controls is printed.
        b.call(
            "Emulation.setEmulatedMedia",
            serde_json::json!({"media": "print"}),
            true,
        );
        assert_eq!(
            b.eval("getComputedStyle(document.getElementById('views')).display"),
            Value::String("none".into()),
            "{view}"
        );
        // How the sheet looks, kept beside the PDF for a person.
        let png = b.screenshot();
        let _ = std::fs::write(dir.join(format!("hall-{view}-40-print.png")), &png);
        b.call(
            "Emulation.setEmulatedMedia",
            serde_json::json!({"media": ""}),
            true,
        );
    }
    served.stop();
}
