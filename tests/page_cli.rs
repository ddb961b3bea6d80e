//! The appeals committee's replay page, driven in a real headless Chromium
//! over the DevTools protocol: the demo game stepped by URL, by the buttons
//! and by the arrow keys to the unwound illegal move, the judgement and the
//! committee decision, each checked against `kifu replay --at N --json`
//! (stones, state hash) and `kifu explain --json` (the clause quoted); a
//! Renju game's forbidden points exactly as the API lists them; a game
//! recorded while the page is open appearing in the list and growing live;
//! the explanation as a text download; a screenshot at the judgement kept
//! as an artifact.
//!
//! The browser is one `chromium --remote-debugging-pipe` process per test:
//! the protocol's JSON messages, each ended by a NUL byte, on two named
//! pipes. Every wait is bounded. Without Chromium the tests say so and pass,
//! unless `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::*;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, GameKind, Point, Record};
use serde_json::{json, Value};

use common::browser::{browser_or_skip, Browser};

/// The page's current event, once it has drawn it.
fn shown(b: &mut Browser, seq: u64) {
    b.wait_for(
        &format!("event {seq} drawn"),
        &format!("document.getElementById('board') && document.getElementById('board').dataset.seq === '{seq}'"),
    );
}

/// The stones the page draws: (x, y, colour) from the top-left corner.
fn stones_drawn(b: &mut Browser) -> BTreeSet<(u64, u64, String)> {
    let v = b.eval(
        "[...document.querySelectorAll('#board [data-stone]')].map(g => [Number(g.dataset.x), Number(g.dataset.y), g.dataset.stone])",
    );
    v.as_array()
        .expect("a list")
        .iter()
        .map(|s| {
            (
                s[0].as_u64().expect("x"),
                s[1].as_u64().expect("y"),
                s[2].as_str().expect("colour").to_string(),
            )
        })
        .collect()
}

/// The stones of a `board_view` (rows top first, `X` black, `O` white).
fn stones_of(view: &Value) -> BTreeSet<(u64, u64, String)> {
    let mut out = BTreeSet::new();
    for (y, row) in view["rows"].as_array().expect("rows").iter().enumerate() {
        for (x, c) in row.as_str().expect("a row").chars().enumerate() {
            let colour = match c {
                'X' => "black",
                'O' => "white",
                _ => continue,
            };
            out.insert((x as u64, y as u64, colour.to_string()));
        }
    }
    out
}

/// `kifu replay GAME --at N --json`, the command line's own projection of
/// the records it reads from the server.
fn cli_replay(client: &Path, url: &str, game: &str, at: u64) -> Value {
    let o = run(
        client,
        &[
            "--server",
            url,
            "replay",
            game,
            "--at",
            &at.to_string(),
            "--json",
        ],
    );
    serde_json::from_str(&ok(&o)).expect("replay JSON")
}

fn get_text(url: &str) -> (String, Option<String>, String) {
    let r = ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    let ct = r.content_type().to_string();
    let cd = r.header("Content-Disposition").map(str::to_string);
    (ct, cd, r.into_string().expect("text"))
}

fn get_json(url: &str) -> Value {
    ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("{url}: {e}"))
        .into_json()
        .expect("JSON")
}

fn post_records(url: &str, records: &[Record]) {
    let mut body = Vec::new();
    for r in records {
        body.extend_from_slice(&r.to_stored());
    }
    let r = ureq::post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body)
        .unwrap_or_else(|e| panic!("POST /records: {e}"));
    assert_eq!(r.status(), 200);
}

/// Where the test keeps what CI keeps: `KIFU_ARTIFACTS_DIR`, else
/// `target/artifacts` of the workspace.
fn artifacts_dir() -> PathBuf {
    match std::env::var_os("KIFU_ARTIFACTS_DIR") {
        Some(d) => PathBuf::from(d),
        None => workspace().join("target/artifacts"),
    }
}

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// The demo game's event of `kind` (the last one if there are several).
fn event_of(story: &Value, kind: &str) -> Value {
    story["events"]
        .as_array()
        .expect("events")
        .iter()
        .rev()
        .find(|e| e["kind"] == kind)
        .unwrap_or_else(|| panic!("the demo has a {kind}"))
        .clone()
}

/// Checks what the page shows at `seq` against the command line: the same
/// stones, the same state hash, and the event's clauses quoted.
fn check_event(b: &mut Browser, client: &Path, url: &str, game: &str, story: &Value, seq: u64) {
    shown(b, seq);
    let cli = cli_replay(client, url, game, seq);
    assert_eq!(
        stones_drawn(b),
        stones_of(&cli["board_view"]),
        "event {seq}: the stones drawn are those of kifu replay --at {seq}"
    );
    // The last move marked is the projection's last move that stands.
    let last_move = cli["state"]["board"]["ops"]
        .as_array()
        .expect("the board's operations")
        .iter()
        .rev()
        .find(|o| o["op"] == "move" && o["point"].is_object())
        .map(|o| json!([o["point"]["x"].to_string(), o["point"]["y"].to_string()]));
    assert_eq!(
        b.eval("(r => r ? [r.dataset.x, r.dataset.y] : null)(document.querySelector('#board .last-move'))"),
        last_move.unwrap_or(Value::Null),
        "event {seq}: the last move marked"
    );
    let hash = cli["view"]["state_hash"].as_str().expect("a state hash");
    assert_eq!(hash.len(), 64, "{hash}");
    assert_eq!(
        b.eval("document.getElementById('state-hash').textContent"),
        Value::String(hash.into()),
        "event {seq}: the state hash shown is kifu replay's"
    );
    assert_eq!(
        b.eval(
            "getComputedStyle(document.getElementById('state-hash')).fontFamily.includes('mono')"
        ),
        Value::Bool(true),
        "the hash is set in a monospace face"
    );
    let event = &story["events"][seq as usize];
    assert_eq!(event["seq"], seq);
    let quotes: Vec<String> = b
        .eval(&format!(
            "[...document.querySelectorAll('ol.timeline li[data-seq=\"{seq}\"] q')].map(q => q.textContent)"
        ))
        .as_array()
        .expect("a list")
        .iter()
        .map(|q| q.as_str().unwrap_or("").to_string())
        .collect();
    let expected: Vec<String> = event["consequences"]
        .as_array()
        .expect("consequences")
        .iter()
        .filter_map(|c| c["quote"].as_str().map(str::to_string))
        .collect();
    assert!(!expected.is_empty(), "event {seq} rests on a clause");
    assert_eq!(quotes, expected, "event {seq}: every clause quoted");
    assert_eq!(
        b.eval(&format!(
            "document.querySelector('ol.timeline li[data-seq=\"{seq}\"]').getAttribute('aria-current')"
        )),
        Value::String("true".into()),
        "event {seq} is the current one in the timeline"
    );
}

#[test]
fn the_committee_steps_to_the_illegal_move_the_judgement_and_the_decision() {
    let Some(program) = browser_or_skip("the replay page in a browser") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let client = t.path().join("client");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let demo: Value =
        serde_json::from_str(&ok(&run(&client, &["--server", &url, "demo", "--json"]))).unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    let story: Value = serde_json::from_str(&ok(&run(
        &client,
        &["--server", &url, "explain", &game, "--json"],
    )))
    .unwrap();
    let illegal = event_of(&story, "illegal move noticed")["seq"]
        .as_u64()
        .unwrap();
    let judgement = event_of(&story, "referee ruling")["seq"].as_u64().unwrap();
    let decision = event_of(&story, "committee decision")["seq"]
        .as_u64()
        .unwrap();
    let last = story["events"].as_array().unwrap().len() as u64 - 1;

    let mut b = Browser::start(program, &t.path().join("browser"));

    // A URL per event, as a committee member sends it to the others.
    b.goto(&format!("{url}/games/{game}/at/{illegal}"));
    check_event(&mut b, &client, &url, &game, &story, illegal);
    let title = b.eval("document.title");
    assert!(
        title
            .as_str()
            .unwrap()
            .contains("Black player – White player, kifu demonstration open round 1 board 1"),
        "the title names the game: {title}"
    );
    assert_eq!(
        b.eval(
            "document.body.innerText.includes('verified: every link, signature and role checked')"
        ),
        Value::Bool(true)
    );
    // The hash is copied with one button (to the clipboard, or selected
    // for Ctrl+C where the browser withholds the clipboard).
    b.eval("document.getElementById('copy-hash').click()");
    b.wait_for(
        "the hash copied or selected",
        "document.getElementById('copy-hash').nextElementSibling.textContent !== ''",
    );
    // The `#seq=` form of the same address.
    b.goto(&format!("{url}/games/{game}#seq={judgement}"));
    check_event(&mut b, &client, &url, &game, &story, judgement);
    // The judgement's warning is labelled in words, not by colour alone.
    assert_eq!(
        b.eval(&format!(
            "document.querySelector('ol.timeline li[data-seq=\"{judgement}\"] .tag').textContent"
        )),
        Value::String("referee ruling".into())
    );

    // The buttons: one back, one forward.
    b.eval("document.querySelector('button[aria-label=\"Previous event\"]').click()");
    check_event(&mut b, &client, &url, &game, &story, judgement - 1);
    b.eval("document.querySelector('button[aria-label=\"Next event\"]').click()");
    check_event(&mut b, &client, &url, &game, &story, judgement);

    // The keyboard: End, then Left arrows back to the decision, Home, Right.
    b.key("End", 35);
    shown(&mut b, last);
    for _ in decision..last {
        b.key("ArrowLeft", 37);
    }
    check_event(&mut b, &client, &url, &game, &story, decision);
    b.key("Home", 36);
    shown(&mut b, 0);
    b.key("ArrowRight", 39);
    shown(&mut b, 1);
    // A timeline entry is reached with Tab-focus and opened with Enter.
    b.eval(&format!(
        "document.querySelector('ol.timeline li[data-seq=\"{illegal}\"]').focus()"
    ));
    b.key("Enter", 13);
    check_event(&mut b, &client, &url, &game, &story, illegal);
    // The address follows the steps.
    assert_eq!(
        b.eval("location.hash"),
        Value::String(format!("#seq={illegal}"))
    );

    // The explanation as a text download: what `kifu explain` prints.
    assert_eq!(
        b.eval("document.getElementById('explain-txt').getAttribute('href')"),
        Value::String(format!("/games/{game}/explain.txt"))
    );
    let (ct, cd, text) = get_text(&format!("{url}/games/{game}/explain.txt"));
    assert_eq!(ct, "text/plain");
    let cd = cd.expect("a Content-Disposition");
    assert!(cd.starts_with("attachment;"), "{cd}");
    assert!(cd.contains(&format!("{}-explain.txt", &game[..12])), "{cd}");
    let cli_text = ok(&run(&client, &["--server", &url, "explain", &game]));
    assert_eq!(text, cli_text, "the download is kifu explain's text");
    assert!(text.contains("If any illegal move is made and if this is noticed within three moves"));

    // The screenshot at the judgement, kept for CI, at 1280x800.
    b.goto(&format!("{url}/games/{game}/at/{judgement}?live=0"));
    shown(&mut b, judgement);
    let png = b.screenshot();
    assert!(is_png(&png), "a PNG");
    assert!(
        png.len() > 20_000,
        "a page with a board and a timeline: {} bytes",
        png.len()
    );
    let dir = artifacts_dir();
    std::fs::create_dir_all(&dir).expect("artifacts dir");
    let path = dir.join("replay-page-judgement.png");
    std::fs::write(&path, &png).expect("the screenshot is written");
    eprintln!("kept {} ({} bytes)", path.display(), png.len());

    // Readable at 1280x800 and at tablet widths: nothing wider than the
    // window, the board and the timeline both on the page.
    for (w, h) in [(1280, 800), (1024, 768), (768, 1024)] {
        b.size(w, h);
        assert_eq!(
            b.eval("document.documentElement.scrollWidth <= window.innerWidth"),
            Value::Bool(true),
            "no sideways scrolling at {w}x{h}"
        );
        let board_w = b.eval("document.querySelector('svg.board').getBoundingClientRect().width");
        assert!(
            board_w.as_f64().unwrap_or(0.0) >= 280.0,
            "the board is readable at {w}x{h}: {board_w}"
        );
    }
    // White stones carry a ring as well as a colour.
    assert_eq!(
        b.eval("[...document.querySelectorAll('#board [data-stone=\"white\"]')].every(g => g.querySelector('path'))"),
        Value::Bool(true)
    );
    drop(b);
    drop(server);
}

/// A Renju game whose Black stones h8, g8 (row 8) and i9, i10 (column i)
/// make i8 a double-three; `upto` of its stones, after the genesis and the
/// clock's start.
fn renju_chain(cast: &Cast) -> ChainBuilder {
    let mut g = cast.genesis("renju on the page");
    g.game = GameKind::Renju;
    g.ruleset = "rif-renju".into();
    g.board_size = 15;
    g.tournament = None;
    ChainBuilder::start(&cast.referee, g, 1_767_225_600_000)
}

/// The stones of the Renju game, in order, with their seat.
const RENJU_MOVES: [(Color, &str); 7] = [
    (Color::Black, "h8"),
    (Color::White, "a1"),
    (Color::Black, "g8"),
    (Color::White, "a3"),
    (Color::Black, "i9"),
    (Color::White, "o15"),
    (Color::Black, "i10"),
];

/// A Renju point (`h8`) as a ledger point (row 15 on top).
fn renju_point(s: &str) -> Point {
    let x = s.as_bytes()[0] - b'a';
    let row: u8 = s[1..].parse().expect("a row");
    Point { x, y: 15 - row }
}

fn push_stone(chain: &mut ChainBuilder, cast: &Cast, (c, at): (Color, &str)) -> Record {
    let key = if c == Color::Black {
        &cast.black
    } else {
        &cast.white
    };
    chain
        .push(
            key,
            Body::StonePlaced {
                player: c,
                stone: c,
                point: renju_point(at),
            },
        )
        .clone()
}

#[test]
fn a_game_recorded_while_the_page_is_open_appears_and_grows_live() {
    let Some(program) = browser_or_skip("the live replay page") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let client = t.path().join("client");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    ok(&run(&client, &["--server", &url, "demo", "--json"]));

    let mut b = Browser::start(program, &t.path().join("browser"));
    b.goto(&format!("{url}/"));
    b.wait_for(
        "the list with the demo game",
        "document.querySelectorAll('#games tr').length === 1",
    );

    // A second game, a Renju one, recorded while the list is open.
    let cast = Cast::new();
    let mut chain = renju_chain(&cast);
    let started = chain
        .push(
            &cast.referee,
            Body::ClockStarted {
                running: Color::Black,
            },
        )
        .clone();
    let first = push_stone(&mut chain, &cast, RENJU_MOVES[0]);
    let game = hex::encode(chain.game);
    post_records(&url, &[chain.records[0].clone(), started, first]);
    b.wait_for(
        "the new game in the list, without a reload",
        &format!("document.querySelectorAll('#games tr').length === 2 && !!document.querySelector('#games tr[data-game=\"{game}\"]')"),
    );
    assert_eq!(
        b.eval(&format!(
            "document.querySelector('#games tr[data-game=\"{game}\"]').textContent.includes('rif-renju')"
        )),
        Value::Bool(true)
    );

    // Its page, open at its last event, follows the moves as they come.
    b.goto(&format!("{url}/games/{game}"));
    shown(&mut b, 2);
    assert_eq!(
        b.eval("document.title"),
        json!("kifu: Black – White, renju on the page"),
        "the title names the game"
    );
    assert_eq!(stones_drawn(&mut b).len(), 1);
    for m in &RENJU_MOVES[1..] {
        let rec = push_stone(&mut chain, &cast, *m);
        post_records(&url, &[rec]);
    }
    let last = chain.head.seq;
    shown(&mut b, last);
    let api = get_json(&format!("{url}/games/{game}/state?at={last}"));
    assert_eq!(stones_drawn(&mut b), stones_of(&api["board_view"]));
    assert_eq!(stones_drawn(&mut b).len(), RENJU_MOVES.len());
    // i10, the last stone, is marked: column i (8), row 10 (5 from the top).
    assert_eq!(
        b.eval("(r => [r.dataset.x, r.dataset.y])(document.querySelector('#board .last-move'))"),
        json!(["8", "5"])
    );
    assert_eq!(
        b.eval("document.querySelectorAll('ol.timeline li').length"),
        json!(last + 1),
        "every event in the timeline"
    );
    assert_eq!(
        b.eval("document.getElementById('state-hash').textContent"),
        api["view"]["state_hash"]
    );

    // The forbidden points for Black: hidden until asked, then exactly the
    // API's list, each with a label as well as a mark.
    assert_eq!(
        b.eval("document.querySelectorAll('#board .forbidden').length"),
        json!(0)
    );
    b.eval("document.getElementById('forbidden-toggle').click()");
    b.wait_for(
        "the forbidden points drawn",
        "document.getElementById('board').dataset.forbidden === 'shown'",
    );
    let listed = get_json(&format!("{url}/games/{game}/state?at={last}&forbidden=1"));
    let listed: BTreeSet<(String, String)> = listed["forbidden"]
        .as_array()
        .expect("a list for a Renju game")
        .iter()
        .map(|f| {
            (
                f["point"].as_str().unwrap().to_string(),
                f["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        listed.contains(&("i8".to_string(), "double_three".to_string())),
        "{listed:?}"
    );
    let drawn: BTreeSet<(String, String)> = b
        .eval("[...document.querySelectorAll('#board .forbidden')].map(g => [g.dataset.point, g.dataset.reason])")
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f[0].as_str().unwrap().to_string(),
                f[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        drawn, listed,
        "the page shows exactly the points the API lists"
    );
    let png = b.screenshot();
    assert!(is_png(&png) && png.len() > 10_000, "{} bytes", png.len());
    let dir = artifacts_dir();
    std::fs::create_dir_all(&dir).expect("artifacts dir");
    std::fs::write(dir.join("replay-page-renju-forbidden.png"), &png).expect("written");
    assert_eq!(
        b.eval("[...document.querySelectorAll('#board .forbidden')].every(g => g.querySelector('text').textContent.length > 0)"),
        Value::Bool(true),
        "each forbidden point is labelled"
    );
    // One move back, before i10: nothing is forbidden yet, and the page
    // asks again.
    b.key("ArrowLeft", 37);
    shown(&mut b, last - 1);
    let before = get_json(&format!(
        "{url}/games/{game}/state?at={}&forbidden=1",
        last - 1
    ));
    assert_eq!(
        b.eval("document.querySelectorAll('#board .forbidden').length"),
        json!(before["forbidden"].as_array().unwrap().len())
    );
    // And hidden again when the toggle is off.
    b.eval("document.getElementById('forbidden-toggle').click()");
    b.wait_for(
        "the forbidden points hidden",
        "document.getElementById('board').dataset.forbidden === 'hidden' && document.querySelectorAll('#board .forbidden').length === 0",
    );
    drop(b);
    drop(server);
}
