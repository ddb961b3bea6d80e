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
//! The browser is one `chromium --remote-debugging-pipe` process per test
//! (`tests/common/browser.rs`). Every wait is bounded. Without Chromium the
//! tests say so and pass, unless `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::browser::*;
use common::devices::axe_script;
use common::*;

use std::collections::BTreeSet;
use std::path::Path;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, GameKind, Point, Record};
use serde_json::{json, Value};

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
    // Each clause the event rests on, quoted once.
    let mut expected: Vec<String> = Vec::new();
    for q in event["consequences"]
        .as_array()
        .expect("consequences")
        .iter()
        .filter_map(|c| c["quote"].as_str())
    {
        if !expected.iter().any(|e| e == q) {
            expected.push(q.to_string());
        }
    }
    assert!(!expected.is_empty(), "event {seq} rests on a clause");
    assert_eq!(quotes, expected, "event {seq}: every clause quoted, once");
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
    // The judgement and its warning are labelled in words, not by colour
    // alone.
    assert_eq!(
        b.eval(&format!(
            "[...document.querySelectorAll('ol.timeline li[data-seq=\"{judgement}\"] .tag')].map(t => t.textContent)"
        )),
        json!(["ruling", "sanction"])
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
    b.assert_no_csp_violation();
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
    b.assert_no_csp_violation();
    drop(b);
    drop(server);
}

#[test]
fn the_pages_work_under_the_content_security_policy_and_a_breach_would_be_seen() {
    let Some(program) = browser_or_skip("the pages under their Content-Security-Policy") else {
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
    // The page is served with the policy.
    let r = ureq::get(&format!("{url}/games/{game}"))
        .set("Accept", "text/html")
        .call()
        .unwrap();
    let csp = r
        .header("content-security-policy")
        .unwrap_or("")
        .to_string();
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe"), "{csp}");
    let mut b = Browser::start(program, &t.path().join("browser"));
    // The list, then the game: drawn, stepped, live.
    b.goto(&format!("{url}/"));
    b.wait_for(
        "the list of games",
        "document.querySelectorAll('a[href^=\"/games/\"]').length > 0",
    );
    b.goto(&format!("{url}/games/{game}"));
    b.wait_for(
        "the board drawn",
        "document.querySelectorAll('#board [data-stone]').length > 0",
    );
    b.key("ArrowLeft", 37);
    b.key("Home", 36);
    b.key("End", 35);
    std::thread::sleep(std::time::Duration::from_millis(300));
    b.assert_no_csp_violation();
    // The check can fail: an inline script and a style attribute are
    // refused by the policy, and reported.
    b.eval("(() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.append(s); document.body.setAttribute('style', 'color: red'); return true; })()");
    b.wait_for(
        "the breach reported",
        "(window.__cspViolations || []).length > 0",
    );
    assert_eq!(b.eval("window.__ran === undefined"), Value::Bool(true));
    assert!(!b.csp_violations().is_empty());
    drop(b);
    drop(server);
}

// ---------------------------------------------------------------------
// The page used in earnest: many pages and tabs, a phone, the keyboard, a
// record stored while the page loads, addresses that name nothing, the
// bytes of a step, the case at a glance, accessibility.

/// A server with the demo game: the server, its URL, the client's data
/// directory, the game and its explanation.
fn demo(t: &Path) -> (Served, String, std::path::PathBuf, String, Value) {
    let data = t.join("served");
    let client = t.join("client");
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
    (server, url, client, game, story)
}

/// The HTTP status of `url` asked for as a browser asks for a page.
fn page_status(url: &str) -> u16 {
    match ureq::get(url).set("Accept", "text/html").call() {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(code, _)) => code,
        Err(e) => panic!("{url}: {e}"),
    }
}

/// True when the element `selector` lies wholly inside the window.
fn on_screen(b: &mut Browser, selector: &str) -> bool {
    b.eval(&format!(
        "(r => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth)(document.querySelector({selector:?}).getBoundingClientRect())"
    )) == Value::Bool(true)
}

#[test]
fn seven_pages_in_one_tab_then_six_tabs_stepping_all_load() {
    let Some(program) = browser_or_skip("many pages of the replay page") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, _client, game, _story) = demo(t.path());
    let mut b = Browser::start(program, &t.path().join("browser"));

    // The list, a game, the list, a game...: each page kept in the
    // back/forward cache must not keep a connection of its own.
    b.goto(&format!("{url}/"));
    for i in 0..4 {
        b.wait_for(
            &format!("the list, visit {}", 2 * i + 1),
            "location.pathname === '/' && document.querySelectorAll('#games tr').length === 1",
        );
        if i == 3 {
            break;
        }
        b.eval("document.querySelector('#games a').click()");
        b.wait_for(
            &format!("the game, visit {}", 2 * i + 2),
            "location.pathname.startsWith('/games/') && !!document.getElementById('board') && document.getElementById('board').dataset.seq !== undefined",
        );
        b.eval("document.querySelector('header a[href=\"/\"]').click()");
    }

    // Six tabs open at six events, then each steps once.
    let mut tabs = Vec::new();
    for i in 0..6u64 {
        let s = b.new_tab(&format!("{url}/games/{game}/at/{}", 10 + i));
        shown(&mut b, 10 + i);
        tabs.push(s);
    }
    for (i, s) in tabs.iter().enumerate() {
        b.use_tab(s);
        b.eval("document.querySelector('button[aria-label=\"Next event\"]').click()");
        shown(&mut b, 11 + i as u64);
    }
    // And a seventh tab still loads.
    b.new_tab(&format!("{url}/games/{game}/at/3"));
    shown(&mut b, 3);
    drop(b);
    drop(server);
}

#[test]
fn on_a_phone_the_board_and_the_buttons_stay_on_screen_while_stepping() {
    let Some(program) = browser_or_skip("the replay page on a phone") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, _client, game, story) = demo(t.path());
    let judgement = event_of(&story, "referee ruling")["seq"].as_u64().unwrap();
    let mut b = Browser::start(program, &t.path().join("browser"));
    b.size(375, 812);
    b.goto(&format!("{url}/games/{game}/at/{judgement}?live=0"));
    shown(&mut b, judgement);
    let png = b.screenshot();
    assert!(is_png(&png), "a PNG");
    let dir = artifacts_dir();
    std::fs::create_dir_all(&dir).expect("artifacts dir");
    std::fs::write(dir.join("replay-page-375x812.png"), &png).expect("written");
    for step in 0..6 {
        assert_eq!(
            b.eval("scrollY"),
            json!(0),
            "the page is not scrolled (step {step})"
        );
        assert!(
            on_screen(&mut b, "svg.board"),
            "the board on screen (step {step})"
        );
        assert!(
            on_screen(&mut b, "button[aria-label=\"Next event\"]"),
            "the Next button on screen (step {step})"
        );
        assert_eq!(
            b.eval("document.documentElement.scrollWidth <= innerWidth"),
            json!(true),
            "no sideways scrolling (step {step})"
        );
        // The current event is in view inside the timeline, which scrolls
        // by itself.
        assert_eq!(
            b.eval("(t => { const c = t.querySelector('[aria-current=\"true\"]').getBoundingClientRect(), r = t.getBoundingClientRect(); return c.top >= r.top - 1 && c.top < r.bottom && (c.bottom <= r.bottom + 1 || c.height > r.height); })(document.querySelector('ol.timeline'))"),
            json!(true),
            "the current event is in view in the timeline (step {step}): {}",
            b.eval("(t => { const c = t.querySelector('[aria-current=\"true\"]'); return JSON.stringify([c.offsetTop, c.offsetHeight, t.scrollTop, t.clientHeight, t.scrollHeight, c.getBoundingClientRect().top, t.getBoundingClientRect().top]); })(document.querySelector('ol.timeline'))")
        );
        b.eval("document.querySelector('button[aria-label=\"Next event\"]').click()");
        shown(&mut b, judgement + step + 1);
    }
    // The list of games fits the phone too.
    b.goto(&format!("{url}/?live=0"));
    b.wait_for(
        "the list",
        "document.querySelectorAll('#games tr').length === 1",
    );
    assert_eq!(
        b.eval("document.documentElement.scrollWidth <= innerWidth"),
        json!(true),
        "the list fits 375 px"
    );
    drop(b);
    drop(server);
}

/// A server holding the Renju game with its clock started and the first
/// `moves` of [`RENJU_MOVES`]: the server, its URL, the cast and the chain.
fn served_renju(t: &Path, moves: usize) -> (Served, String, Cast, ChainBuilder) {
    let server = Served::start(&t.join("served"), &[]);
    let url = server.url.clone();
    let cast = Cast::new();
    let mut chain = renju_chain(&cast);
    let mut records = vec![chain.records[0].clone()];
    records.push(
        chain
            .push(
                &cast.referee,
                Body::ClockStarted {
                    running: Color::Black,
                },
            )
            .clone(),
    );
    for m in &RENJU_MOVES[..moves] {
        records.push(push_stone(&mut chain, &cast, *m));
    }
    post_records(&url, &records);
    (server, url, cast, chain)
}

#[test]
fn the_arrow_keys_step_after_the_forbidden_points_checkbox_and_the_address_keeps_it() {
    let Some(program) = browser_or_skip("the keyboard on the Renju page") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, _cast, chain) = served_renju(t.path(), RENJU_MOVES.len());
    let game = hex::encode(chain.game);
    let last = chain.head.seq;

    let mut b = Browser::start(program, &t.path().join("browser"));
    b.goto(&format!("{url}/games/{game}?forbidden=1&live=0"));
    shown(&mut b, last);
    assert_eq!(
        b.eval("document.getElementById('board').dataset.forbidden"),
        json!("shown")
    );
    // Stepping keeps `?forbidden=1` in the address.
    b.key("ArrowLeft", 37);
    shown(&mut b, last - 1);
    assert_eq!(b.eval("location.search"), json!("?forbidden=1&live=0"));
    assert_eq!(
        b.eval("document.getElementById('board').dataset.forbidden"),
        json!("shown")
    );
    // With the checkbox focused (clicked off and on), the arrows still step.
    b.eval("(c => { c.focus(); c.click(); })(document.getElementById('forbidden-toggle'))");
    b.wait_for(
        "the points hidden",
        "document.getElementById('board').dataset.forbidden === 'hidden'",
    );
    assert_eq!(
        b.eval("location.search"),
        json!("?live=0"),
        "the address drops it"
    );
    b.eval("document.getElementById('forbidden-toggle').click()");
    b.wait_for(
        "the points shown",
        "document.getElementById('board').dataset.forbidden === 'shown'",
    );
    assert_eq!(
        b.eval("document.activeElement.id"),
        json!("forbidden-toggle")
    );
    b.key("ArrowLeft", 37);
    shown(&mut b, last - 2);
    b.key("ArrowRight", 39);
    shown(&mut b, last - 1);
    assert_eq!(b.eval("location.search"), json!("?live=0&forbidden=1"));
    drop(b);
    drop(server);
}

#[test]
fn a_record_stored_while_the_page_loads_is_not_lost() {
    let Some(program) = browser_or_skip("the replay page's first load") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, cast, mut chain) = served_renju(t.path(), 3);
    let game = hex::encode(chain.game);
    let before = chain.head.seq;

    let mut b = Browser::start(program, &t.path().join("browser"));
    // The first load's state is held back at the browser while another
    // record is stored; then it goes on.
    b.call(
        "Fetch.enable",
        json!({"patterns": [{"urlPattern": format!("*/games/{game}/state*"), "requestStage": "Response"}]}),
        true,
    );
    b.goto(&format!("{url}/games/{game}"));
    let paused = b.wait_event("Fetch.requestPaused", |_| true);
    let rec = push_stone(&mut chain, &cast, RENJU_MOVES[3]);
    post_records(&url, &[rec]);
    b.call(
        "Fetch.continueRequest",
        json!({"requestId": paused["requestId"]}),
        true,
    );
    b.call("Fetch.disable", json!({}), true);
    shown(&mut b, before + 1);
    assert_eq!(
        b.eval("document.querySelectorAll('ol.timeline li').length"),
        json!(before + 2)
    );
    drop(b);
    drop(server);
}

#[test]
fn addresses_that_name_no_game_or_no_event_say_so() {
    let Some(program) = browser_or_skip("the replay page's notices") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, _client, game, story) = demo(t.path());
    let last = story["events"].as_array().unwrap().len() as u64 - 1;
    let mut b = Browser::start(program, &t.path().join("browser"));

    assert_eq!(page_status(&format!("{url}/games/zzzz")), 404);
    assert_eq!(
        page_status(&format!("{url}/games/{}", "ab".repeat(32))),
        404
    );
    b.goto(&format!("{url}/games/zzzz"));
    b.wait_for(
        "the notice of no such game",
        "!!document.querySelector('[role=alert]') && document.querySelector('[role=alert]').textContent.includes('No game “zzzz”')",
    );
    assert_eq!(
        b.eval("!!document.getElementById('games')"),
        json!(false),
        "not the list"
    );

    for (at, says) in [
        (
            format!("{}", last + 8),
            format!("There is no event {}", last + 8),
        ),
        (
            "99999999999999999999".to_string(),
            "There is no event 99999999999999999999".to_string(),
        ),
        ("-1".to_string(), "“-1” is not an event number".to_string()),
    ] {
        assert_eq!(
            page_status(&format!("{url}/games/{game}/at/{at}")),
            404,
            "{at}"
        );
        b.goto(&format!("{url}/games/{game}/at/{at}?live=0"));
        shown(&mut b, last);
        let alert = b.eval("(a => a ? a.textContent : '')(document.querySelector('[role=alert]'))");
        assert!(alert.as_str().unwrap().contains(&says), "{at}: {alert}");
        assert!(
            alert
                .as_str()
                .unwrap()
                .contains(&format!("Showing event {last}")),
            "{alert}"
        );
    }
    assert_eq!(page_status(&format!("{url}/games/{game}/at/{last}")), 200);
    assert_eq!(page_status(&format!("{url}/games/{game}")), 200);
    b.goto(&format!("{url}/games/{game}/at/3?live=0"));
    shown(&mut b, 3);
    assert_eq!(
        b.eval("!!document.querySelector('[role=alert]')"),
        json!(false)
    );
    drop(b);
    drop(server);
}

/// A 19x19 game of `pairs` Black and White stones, no capture among them:
/// Black on the even columns, White on the odd ones, row by row from the
/// top (at most 99 pairs).
fn long_go_game(cast: &Cast, pairs: usize) -> ChainBuilder {
    let mut g = cast.genesis("a long game");
    g.board_size = 19;
    let mut chain = ChainBuilder::start(&cast.referee, g, 1_767_225_600_000);
    chain.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    let black: Vec<Point> = (0..11u8)
        .flat_map(|y| (0..19u8).step_by(2).map(move |x| Point { x, y }))
        .collect();
    let white: Vec<Point> = (0..11u8)
        .flat_map(|y| (1..19u8).step_by(2).map(move |x| Point { x, y }))
        .collect();
    for (b, w) in black.into_iter().zip(white).take(pairs) {
        for (c, p, key) in [
            (Color::Black, b, &cast.black),
            (Color::White, w, &cast.white),
        ] {
            chain.push(
                key,
                Body::StonePlaced {
                    player: c,
                    stone: c,
                    point: p,
                },
            );
        }
    }
    chain
}

#[test]
fn a_step_fetches_a_few_compressed_kilobytes_and_a_live_event_only_what_is_new() {
    let Some(program) = browser_or_skip("the bytes the replay page fetches") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let server = Served::start(&t.path().join("served"), &[]);
    let url = server.url.clone();
    let cast = Cast::new();
    let mut chain = long_go_game(&cast, 99);
    post_records(&url, &chain.records);
    let game = hex::encode(chain.game);
    let last = chain.head.seq;
    assert!(last >= 198, "{last}");

    let mut b = Browser::start(program, &t.path().join("browser"));
    b.goto(&format!("{url}/games/{game}/at/150"));
    shown(&mut b, 150);
    b.eval("performance.clearResourceTimings()");
    for s in 151..=155 {
        b.key("ArrowRight", 39);
        shown(&mut b, s);
    }
    let steps = b.eval(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/state?')).map(e => [e.transferSize, e.encodedBodySize, e.decodedBodySize])",
    );
    let steps = steps.as_array().unwrap();
    assert_eq!(steps.len(), 5, "{steps:?}");
    for s in steps {
        let (transfer, encoded, decoded) = (
            s[0].as_u64().unwrap(),
            s[1].as_u64().unwrap(),
            s[2].as_u64().unwrap(),
        );
        assert!(transfer <= 4096, "a step moves at most 4 KiB: {s}");
        // Compressed unless too small to gain from it.
        assert!(
            encoded < decoded || decoded < 1024,
            "the answer is compressed: {s}"
        );
    }
    // At the end, a new record brings only its own event.
    b.key("End", 35);
    shown(&mut b, last);
    b.eval("performance.clearResourceTimings()");
    let rec = chain
        .push(
            &cast.black,
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: Point { x: 0, y: 14 },
            },
        )
        .clone();
    post_records(&url, &[rec]);
    shown(&mut b, last + 1);
    let explains = b.eval(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/explain')).map(e => [e.name, e.decodedBodySize])",
    );
    let explains = explains.as_array().unwrap();
    assert!(!explains.is_empty(), "the new event was asked for");
    for e in explains {
        assert!(
            e[0].as_str().unwrap().contains("after="),
            "only what is new: {e}"
        );
        assert!(e[1].as_u64().unwrap() < 2048, "{e}");
    }
    drop(b);
    drop(server);
}

#[test]
fn the_downloads_verify_as_complete_and_the_icon_is_served() {
    let t = tempfile::tempdir().unwrap();
    let (server, url, client, game, _story) = demo(t.path());
    let bytes = {
        let mut v = Vec::new();
        use std::io::Read as _;
        ureq::get(&format!("{url}/games/{game}/archive"))
            .call()
            .unwrap()
            .into_reader()
            .read_to_end(&mut v)
            .unwrap();
        v
    };
    let file = t.path().join("game.kifu");
    std::fs::write(&file, &bytes).unwrap();
    let said = ok(&run(&client, &["verify", file.to_str().unwrap()]));
    assert!(!said.contains("completeness cannot be shown"), "{said}");
    assert!(
        said.contains("manifest: unsigned; it states 1 head"),
        "{said}"
    );

    let icon = ureq::get(&format!("{url}/favicon.ico")).call().unwrap();
    assert_eq!(icon.status(), 200);
    assert_eq!(icon.content_type(), "image/svg+xml");
    assert!(icon.into_string().unwrap().starts_with("<svg"));
    let (_, _, html) = get_text(&format!("{url}/"));
    assert!(
        html.contains(r#"<link rel="icon" href="/web/favicon.svg""#),
        "{html}"
    );
    assert_eq!(
        ureq::get(&format!("{url}/web/favicon.svg"))
            .call()
            .unwrap()
            .status(),
        200
    );

    // JSON is compressed for a client that accepts it; archives are not.
    let r = ureq::get(&format!("{url}/games/{game}/explain"))
        .set("Accept-Encoding", "gzip")
        .call()
        .unwrap();
    assert_eq!(r.header("Content-Encoding"), Some("gzip"));
    let r = ureq::get(&format!("{url}/games/{game}/archive"))
        .set("Accept-Encoding", "gzip")
        .call()
        .unwrap();
    assert_eq!(r.header("Content-Encoding"), None);
    // Nor are streams read as they are written: the feed's pages and its
    // Server-Sent Events.
    for path in ["/feed?limit=5", "/feed/stream"] {
        let r = ureq::get(&format!("{url}{path}"))
            .set("Accept-Encoding", "gzip, br")
            .timeout(std::time::Duration::from_secs(10))
            .call()
            .unwrap();
        assert_eq!(r.header("Content-Encoding"), None, "{path}");
        let mut first = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(r.into_reader()), &mut first)
            .unwrap();
        assert!(
            first.contains("cursor") || first.starts_with("id:"),
            "{path}: {first}"
        );
    }
    drop(server);
}

/// The case panel's lines at the page's event.
fn case_lines_shown(b: &mut Browser) -> Vec<String> {
    b.eval("[...document.querySelectorAll('#case li')].map(li => li.textContent)")
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_case_panel_says_what_kifu_replay_says() {
    let Some(program) = browser_or_skip("the case panel") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, client, game, story) = demo(t.path());
    let judgement = event_of(&story, "referee ruling")["seq"].as_u64().unwrap();
    let appeal = event_of(&story, "appeal lodged")["seq"].as_u64().unwrap();
    let last = story["events"].as_array().unwrap().len() as u64 - 1;
    let mut b = Browser::start(program, &t.path().join("browser"));
    for at in [judgement, appeal, last] {
        b.goto(&format!("{url}/games/{game}/at/{at}?live=0"));
        shown(&mut b, at);
        let page = case_lines_shown(&mut b);
        let cli = ok(&run(
            &client,
            &["--server", &url, "replay", &game, "--at", &at.to_string()],
        ));
        let cli: Vec<String> = cli.lines().map(str::to_string).collect();
        assert!(!page.is_empty(), "event {at}: a case to show");
        assert!(
            cli.ends_with(&page),
            "event {at}: the panel is kifu replay's case:\npage: {page:#?}\ncli: {cli:#?}"
        );
        // Everything after the clocks, nothing less.
        let before = &cli[cli.len() - page.len() - 1];
        assert!(
            before.starts_with("clocks:") || before.starts_with("  "),
            "event {at}: the panel starts after the clocks: {before}"
        );
    }
    // At the end: the sanction, the appeal, its panel and who signed, the
    // count; nobody to move and no clock paused.
    let page = case_lines_shown(&mut b).join("\n");
    for says in [
        "sanction at event",
        "appeal at event",
        "panel:",
        "count:",
        "sheet signed",
    ] {
        assert!(page.contains(says), "{says}: {page}");
    }
    let info = b.eval("document.querySelector('.board-side').innerText");
    let info = info.as_str().unwrap();
    assert!(!info.contains("to move"), "{info}");
    assert!(!info.contains("paused"), "{info}");
    // The illegal move itself stands out, beside where it was pointed out.
    let illegal = event_of(&story, "illegal move noticed")["seq"]
        .as_u64()
        .unwrap();
    let tags = |b: &mut Browser, seq: u64| {
        b.eval(&format!(
            "[...document.querySelectorAll('ol.timeline li[data-seq=\"{seq}\"] .tag')].map(t => t.textContent)"
        ))
    };
    assert_eq!(tags(&mut b, illegal - 1), json!(["illegal move"]));
    assert_eq!(tags(&mut b, illegal), json!(["illegal move pointed out"]));
    assert_eq!(
        tags(&mut b, 1),
        json!([]),
        "forming the committee is routine"
    );
    // The clause the referee's ruling relies on, quoted where it is cited.
    let judgement_text = b.eval(&format!(
        "document.querySelector('ol.timeline li[data-seq=\"{judgement}\"]').textContent"
    ));
    assert!(
        judgement_text
            .as_str()
            .unwrap()
            .contains("Playing a stone or passing a stone is completed by pressing the clock with the same hand that held the stone."),
        "{judgement_text}"
    );
    // Times of day, in a zone the page names; citations without the path.
    assert_eq!(
        b.eval("document.querySelectorAll('ol.timeline li time').length"),
        json!(last + 1)
    );
    let zone = b.eval("document.getElementById('zone').textContent");
    assert!(
        zone.as_str().unwrap().contains("the browser's zone"),
        "{zone}"
    );
    let timeline = b.eval("document.querySelector('ol.timeline').textContent");
    assert!(
        !timeline.as_str().unwrap().contains("docs/rules/"),
        "no file paths in the timeline"
    );
    // The game's title beside its tournament.
    let title = b.eval("document.getElementById('where').textContent");
    assert!(
        title.as_str().unwrap().contains("kifu demonstration"),
        "{title}"
    );
    drop(b);
    drop(server);
}

#[test]
fn the_bundle_link_is_offered_where_the_server_signs_checkpoints() {
    let Some(program) = browser_or_skip("the bundle link") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, client, game, _story) = demo(t.path());
    let mut b = Browser::start(program, &t.path().join("browser"));
    b.goto(&format!("{url}/games/{game}?live=0"));
    b.wait_for(
        "the page to ask for a checkpoint",
        "!!document.getElementById('bundle-link') && document.getElementById('bundle-link').dataset.asked === 'checkpoint'",
    );
    assert_eq!(
        b.eval("document.getElementById('bundle-link').hidden"),
        json!(true),
        "no checkpoint signer: no bundle"
    );
    drop(server);

    let key = t.path().join("operator");
    ok(&run(&client, &["keygen", key.to_str().unwrap()]));
    let key = format!("{}.key", key.display());
    let server = Served::start(
        &t.path().join("served"),
        &["--checkpoint-key", &key, "--checkpoint-every", "0"],
    );
    let url = server.url.clone();
    b.goto(&format!("{url}/games/{game}?live=0"));
    b.wait_for(
        "the bundle link shown",
        "!!document.getElementById('bundle-link') && !document.getElementById('bundle-link').hidden",
    );
    assert_eq!(
        b.eval("document.getElementById('bundle-link').getAttribute('href')"),
        json!(format!("/games/{game}/bundle"))
    );
    drop(b);
    drop(server);
}

/// axe-core's violations of serious or critical impact on the page.
fn serious_violations(b: &mut Browser, axe: &str) -> Vec<String> {
    b.eval(&format!("{axe};\n0"));
    b.eval(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')))",
    )
    .as_array()
    .unwrap()
    .iter()
    .map(|v| v.as_str().unwrap_or("").to_string())
    .collect()
}

#[test]
fn axe_core_finds_nothing_serious_on_the_list_and_the_game_pages() {
    let Some(program) = browser_or_skip("the accessibility check") else {
        return;
    };
    let Some(axe) = axe_script() else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, _client, game, story) = demo(t.path());
    let judgement = event_of(&story, "referee ruling")["seq"].as_u64().unwrap();
    let mut b = Browser::start(program, &t.path().join("browser"));
    b.goto(&format!("{url}/?live=0"));
    b.wait_for(
        "the list",
        "document.querySelectorAll('#games tr').length === 1",
    );
    let v = serious_violations(&mut b, &axe);
    assert!(v.is_empty(), "the list: {v:#?}");
    for (w, h) in [(1280, 800), (375, 812)] {
        b.size(w, h);
        b.goto(&format!("{url}/games/{game}/at/{judgement}?live=0"));
        shown(&mut b, judgement);
        b.eval("document.getElementById('board-text').open = true");
        let v = serious_violations(&mut b, &axe);
        assert!(v.is_empty(), "the game at {w}x{h}: {v:#?}");
    }
    // A step is announced to a screen reader with the event's words.
    b.key("ArrowRight", 39);
    shown(&mut b, judgement + 1);
    let said = b.eval("document.getElementById('announce').textContent");
    let summary = story["events"][(judgement + 1) as usize]["summary"]
        .as_str()
        .unwrap();
    assert_eq!(
        said.as_str().unwrap(),
        format!(
            "Event {} of {}: {}: {summary}",
            judgement + 1,
            story["events"].as_array().unwrap().len() - 1,
            story["events"][(judgement + 1) as usize]["signer"]
                .as_str()
                .unwrap()
        )
    );
    // The board as text: the last move and every stone, by name.
    let text = b.eval("document.getElementById('board-text').innerText");
    let text = text.as_str().unwrap();
    assert!(text.contains("Last move: "), "{text}");
    assert!(text.contains("Black stones ("), "{text}");
    assert!(text.contains("Row 9: "), "{text}");
    // A focused timeline entry draws its ring inside itself: the
    // timeline's scroll box cannot clip it.
    b.eval("document.querySelector('ol.timeline li[data-seq=\"3\"]').focus()");
    assert_eq!(
        b.eval("(s => [s.outlineStyle, parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth) <= 0])(getComputedStyle(document.querySelector('ol.timeline li:focus')))"),
        json!(["solid", true])
    );
    // The current event's frame stands out from white by 3:1 or more.
    let colour = b.eval("getComputedStyle(document.querySelector('ol.timeline li[aria-current=\"true\"]')).boxShadow");
    assert!(
        colour.as_str().unwrap().contains("rgb(122, 92, 0)"),
        "{colour}"
    );
    drop(b);
    drop(server);
}

/// Navigates to `url` and answers its document with `Content-Security-Policy:
/// default-src 'self'` added (the browser holds the response back: the
/// `Fetch` domain is on for documents).
fn goto_under_csp(b: &mut Browser, url: &str) {
    b.send("Page.navigate", json!({"url": url}), true);
    let paused = b.wait_event("Fetch.requestPaused", |_| true);
    let id = paused["requestId"].clone();
    let body = b.call("Fetch.getResponseBody", json!({"requestId": id}), true);
    let body = if body["base64Encoded"] == json!(true) {
        body["body"].as_str().unwrap().to_string()
    } else {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(body["body"].as_str().unwrap())
    };
    let mut headers: Vec<Value> = paused["responseHeaders"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|h| {
            !h["name"]
                .as_str()
                .unwrap_or("")
                .eq_ignore_ascii_case("content-security-policy")
        })
        .collect();
    headers.push(json!({"name": "Content-Security-Policy", "value": "default-src 'self'"}));
    b.call(
        "Fetch.fulfillRequest",
        json!({"requestId": id, "responseCode": paused["responseStatusCode"], "responseHeaders": headers, "body": body}),
        true,
    );
}

#[test]
fn the_pages_work_under_a_content_security_policy_of_self_only() {
    let Some(program) = browser_or_skip("the pages under a strict CSP") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, client, game, story) = demo(t.path());
    let judgement = event_of(&story, "referee ruling")["seq"].as_u64().unwrap();
    let mut b = Browser::start(program, &t.path().join("browser"));
    b.before_each_page(
        "window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));",
    );
    b.call(
        "Fetch.enable",
        json!({"patterns": [{"urlPattern": "*", "resourceType": "Document", "requestStage": "Response"}]}),
        true,
    );
    goto_under_csp(&mut b, &format!("{url}/"));
    b.wait_for(
        "the list",
        "document.querySelectorAll('#games tr').length === 1",
    );
    goto_under_csp(&mut b, &format!("{url}/games/{game}/at/{judgement}"));
    check_event(&mut b, &client, &url, &game, &story, judgement);
    b.key("ArrowRight", 39);
    shown(&mut b, judgement + 1);
    b.eval("document.getElementById('board-text').open = true");
    assert_eq!(
        b.eval("document.getElementById('board-text').innerText.includes('Black stones')"),
        json!(true)
    );
    assert_eq!(
        b.eval("window.__csp"),
        json!([]),
        "nothing refused by the policy"
    );
    // The policy is in force: an inline style is refused.
    b.eval("document.body.setAttribute('style', 'color: red')");
    b.wait_for(
        "the policy to refuse an inline style",
        "window.__csp.some(v => v.startsWith('style-src'))",
    );
    drop(b);
    drop(server);
}

#[test]
fn a_browser_without_shared_workers_follows_the_game_from_each_page() {
    let Some(program) = browser_or_skip("the feed without a SharedWorker") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, cast, mut chain) = served_renju(t.path(), 3);
    let game = hex::encode(chain.game);
    let before = chain.head.seq;
    let mut b = Browser::start(program, &t.path().join("browser"));
    b.before_each_page("delete window.SharedWorker;");
    b.goto(&format!("{url}/games/{game}"));
    shown(&mut b, before);
    assert_eq!(b.eval("typeof SharedWorker"), json!("undefined"));
    let rec = push_stone(&mut chain, &cast, RENJU_MOVES[3]);
    post_records(&url, &[rec]);
    shown(&mut b, before + 1);
    drop(b);
    drop(server);
}

/// The board tablet, the referee's console, the director's desk and the
/// hall, each as a person first opens it and at a tablet's and a phone's
/// size: nothing serious or critical for axe-core.
#[test]
fn axe_core_finds_nothing_serious_on_the_tablet_the_console_the_desk_and_the_hall() {
    let Some(program) = browser_or_skip("the accessibility check") else {
        return;
    };
    let Some(axe) = axe_script() else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let (server, url, _client, game, _story) = demo(t.path());
    let mut b = Browser::start(program, &t.path().join("browser"));
    let pages: [(&str, String, &str); 5] = [
        (
            "the seat form",
            format!("{url}/play"),
            "!!document.getElementById('ask')",
        ),
        (
            "a game's board",
            format!("{url}/play/{game}"),
            "!!document.querySelector('#main [role=alert], #board')",
        ),
        (
            "the referee's console",
            format!("{url}/referee"),
            "!!document.getElementById('ask')",
        ),
        (
            "the director's desk",
            format!("{url}/director"),
            "!!document.body && document.body.dataset.ready === '1'",
        ),
        (
            "the hall",
            format!("{url}/hall"),
            "document.readyState === 'complete' && !!document.querySelector('main')",
        ),
    ];
    for (what, page, ready) in &pages {
        for (w, h) in [(1024, 768), (390, 844)] {
            b.size(w, h);
            b.goto(page);
            b.wait_for(what, ready);
            let v = serious_violations(&mut b, &axe);
            assert!(v.is_empty(), "{what} at {w}x{h}: {v:#?}");
        }
    }
    drop(server);
}
