//! The referee's console (`/referee`): a console asks for a referee's seat
//! as a board device does, is enrolled by `kifu new-game --device-request`,
//! watches the boards naming its key and judges a dispute with its own
//! browser key (Web Crypto), previewing the consequence before signing.
//! Also: the preview of each kind of judgement effect equals what the
//! projection shows once it is signed, and a referee forcing a committee's
//! power is refused with the clause, nothing written.
//!
//! Without Chromium the page test says so and passes, unless
//! `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::browser::{artifacts_dir, browser_or_skip, Browser};
use common::devices::*;
use common::*;

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde_json::{json, Value};

/// `kifu --server URL append GAME --key KEY --at-ms AT` with `body`.
fn append(url: &str, game: &str, key: &Path, at_ms: u64, body: &Value) -> std::process::Output {
    let mut c = kifu()
        .arg("--server")
        .arg(url)
        .args(["append", game, "--key"])
        .arg(key)
        .args(["--at-ms", &at_ms.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    c.stdin
        .take()
        .unwrap()
        .write_all(body.to_string().as_bytes())
        .unwrap();
    c.wait_with_output().unwrap()
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

fn records(url: &str, game: &str) -> Vec<Value> {
    get(&format!("{url}/games/{game}/records"))["records"]
        .as_array()
        .unwrap()
        .clone()
}

fn kind_of(r: &Value) -> String {
    r["body"]
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .unwrap_or_default()
}

/// The game's archive verifies with `kifu verify`.
fn verifies(dir: &Path, url: &str, game: &str) {
    let mut bytes = Vec::new();
    use std::io::Read;
    ureq::get(&format!("{url}/games/{game}/archive"))
        .call()
        .unwrap()
        .into_reader()
        .read_to_end(&mut bytes)
        .unwrap();
    let file = dir.join("game.kifu");
    std::fs::write(&file, bytes).unwrap();
    let o = kifu()
        .arg("verify")
        .arg(&file)
        .arg("--json")
        .output()
        .unwrap();
    let report: Value = serde_json::from_str(&ok(&o)).expect("JSON");
    assert_eq!(report["ok"], true, "{report}");
}

fn ask_for_seat(b: &mut Browser, url: &str, role: &str, name: &str) -> String {
    b.goto(&format!("{url}/play"));
    b.wait_for("the seat form", "!!document.getElementById('ask')");
    b.eval(&format!(
        "(() => {{ const v = (id, x) => document.getElementById(id).value = x; v('role', {role:?}); v('name', {name:?}); v('tournament', 'Open'); v('round', '1'); v('board', '1'); return true; }})()"
    ));
    b.click("#ask");
    b.wait_for("the request", "!!document.getElementById('waiting')");
    b.text("#fingerprint")
}

fn at_seq(b: &mut Browser, seq: u64) {
    b.wait_for(
        &format!("event {seq}"),
        &format!("Number((document.getElementById('main') || {{dataset: {{}}}}).dataset.lastSeq) >= {seq}"),
    );
}

fn console_at(b: &mut Browser, seq: u64) {
    b.wait_for(
        &format!("the console at event {seq}"),
        &format!("Number((document.getElementById('game-main') || {{dataset: {{}}}}).dataset.lastSeq) >= {seq}"),
    );
}

fn message(b: &mut Browser, what: &str) {
    b.wait_for(
        &format!("a message with {what:?}"),
        &format!("[...document.querySelectorAll('#messages p')].some(p => p.textContent.includes({what:?}))"),
    );
}

/// Sets a field of a console form (a checkbox is checked with `true`).
fn field(b: &mut Browser, form: &str, name: &str, value: Value) {
    b.eval(&format!(
        "(() => {{ const el = document.querySelector('#form-{form} [name={name:?}]'); if (el.type === 'checkbox') el.checked = {value}; else el.value = {value}; el.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()"
    ));
}

#[test]
fn the_referee_console_judges_a_dispute_with_its_own_browser_key() {
    let Some(program) = browser_or_skip("the referee's console test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    keygen(dir.path(), "dir");
    let mut b = Browser::start(program, &dir.path().join("chromium"));

    let black = b.new_context(1024, 768);
    let fp_black = ask_for_seat(&mut b, &url, "black", "Ann");
    let white = b.new_context(1024, 768);
    let fp_white = ask_for_seat(&mut b, &url, "white", "Bob");
    // The console asks to referee the tournament's games.
    let console = b.new_context(1280, 900);
    b.goto(&format!("{url}/referee"));
    b.wait_for("the enrolment form", "!!document.getElementById('ask')");
    b.eval("(() => { document.getElementById('name').value = 'Rita'; document.getElementById('tournament').value = 'Open'; return true; })()");
    b.click("#ask");
    b.wait_for(
        "the request",
        "!!document.getElementById('enrol').dataset.request",
    );
    let console_key = b
        .eval("document.getElementById('fingerprint').dataset.key")
        .as_str()
        .unwrap()
        .to_string();
    let fp_console = b.text("#fingerprint");

    // The director compares the fingerprints and enrols the three devices.
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let by_fp = |fp: &str| {
        listed["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["fingerprint"] == fp)
            .cloned()
            .unwrap_or_else(|| panic!("{fp} listed in {listed}"))
    };
    let (rb, rw, rr) = (by_fp(&fp_black), by_fp(&fp_white), by_fp(&fp_console));
    assert_eq!(rr["seat"], "Referee at Open");
    assert_eq!(rr["key"], console_key);
    let director = format!("Dee={}", dir.path().join("dir.pub").display());
    let made: Value = serde_json::from_str(&ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            dir.path().join("dir.key").to_str().unwrap(),
            "--director",
            &director,
            "--size",
            "9",
            "--time",
            "fischer:10m+10s",
            "--tournament",
            "Open",
            "--round",
            "1",
            "--board",
            "1",
            "--device-request",
            rb["id"].as_str().unwrap(),
            "--device-request",
            rw["id"].as_str().unwrap(),
            "--device-request",
            rr["id"].as_str().unwrap(),
            "--json",
        ],
    )))
    .unwrap();
    let game = made["game"].as_str().unwrap().to_string();

    // The board appears on the console's overview.
    b.switch(&console);
    b.wait_for(
        "the board on the overview",
        &format!("!!document.getElementById('row-{game}')"),
    );

    // The director starts the clock; play goes on on the players' devices.
    ok(&append(
        &url,
        &game,
        &dir.path().join("dir.key"),
        now_ms(),
        &json!({"clock_started": {"running": "black"}}),
    ));
    b.switch(&black);
    at_seq(&mut b, 1);
    let play = |b: &mut Browser, s: &str, seq: u64, x: u8, y: u8| {
        b.switch(s);
        at_seq(b, seq);
        b.click(&format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
        at_seq(b, seq + 1);
        b.click("#press");
        at_seq(b, seq + 2);
    };
    play(&mut b, &black, 1, 2, 2);
    play(&mut b, &white, 3, 6, 6);
    // White raises a dispute and calls the referee.
    b.switch(&white);
    at_seq(&mut b, 5);
    b.click("#dispute");
    b.wait_for("the dialog", "document.getElementById('confirm').open");
    b.eval("(() => { document.getElementById('confirm-text').value = 'Black keeps tapping stones in the bowl'; return true; })()");
    b.click("#confirm-ok");
    at_seq(&mut b, 6);
    b.click("#call-referee");
    at_seq(&mut b, 7);

    // The console shows the call and the dispute standing out.
    b.switch(&console);
    b.wait_for(
        "the call on the overview",
        &format!("(() => {{ const r = document.getElementById('row-{game}'); return !!r && r.classList.contains('alert') && r.textContent.includes('referee called') && r.textContent.includes('tapping stones'); }})()"),
    );
    let overview = b.screenshot();
    assert!(overview.starts_with(b"\x89PNG"));
    std::fs::create_dir_all(artifacts_dir()).ok();
    std::fs::write(artifacts_dir().join("referee-console.png"), overview).ok();
    b.click(&format!("#row-{game} button.open"));
    console_at(&mut b, 7);
    // The referee's forms are offered; the committee's are not.
    for form in [
        "judgement",
        "pause",
        "sanction",
        "irregularity",
        "clock_adjusted",
    ] {
        let there = b.eval(&format!("!!document.getElementById('form-{form}')"));
        assert_eq!(there, true, "no {form} form");
    }
    assert_eq!(
        b.eval("!!document.getElementById('form-committee_decision')"),
        false
    );
    let not_yours = b.text("#not-yours");
    assert!(
        not_yours.contains("committee") && not_yours.contains("Appeals committee"),
        "{not_yours}"
    );
    // The clocks were started at the game's start (LGC 2023, "Start"):
    // starting them again is not offered, and the console says why.
    assert_eq!(b.eval("!!document.getElementById('form-start')"), false);
    assert!(not_yours.contains("started already"), "{not_yours}");
    // Every form quotes its clause.
    let clause = b.text("#form-judgement .clause");
    assert!(clause.contains("LGC 2023"), "{clause}");

    // The judgement: a warning to Black, a minute added to White, play resumes.
    field(
        &mut b,
        "judgement",
        "decision",
        json!("Warning to Black for noise; White gets a minute back"),
    );
    field(
        &mut b,
        "judgement",
        "reasons",
        json!("Disturbing the opponent"),
    );
    field(&mut b, "judgement", "rules", json!("LGC 2023, \"Warning\""));
    field(&mut b, "judgement", "warn", json!(true));
    field(&mut b, "judgement", "warn_to", json!("black"));
    field(&mut b, "judgement", "time", json!(true));
    field(&mut b, "judgement", "time_of", json!("white"));
    field(&mut b, "judgement", "seconds", json!("60"));
    field(&mut b, "judgement", "resume", json!(true));
    b.click("#preview-judgement");
    b.wait_for(
        "the preview",
        "!!document.querySelector('#consequence-judgement .clocks-after')",
    );
    let previewed: Vec<String> = b
        .eval("[...document.querySelectorAll('#consequence-judgement .consequence[data-what]')].map(p => p.dataset.what)")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let white_after: u64 = b
        .eval("document.querySelector('#consequence-judgement .clocks-after').dataset.whiteMs")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(!previewed.is_empty());
    assert!(
        previewed
            .iter()
            .any(|w| w.to_lowercase().contains("warning")),
        "{previewed:?}"
    );
    // Nothing is written by a preview.
    assert_eq!(get(&format!("{url}/games/{game}/head"))["seq"], 7);
    let judging = b.screenshot();
    assert!(judging.starts_with(b"\x89PNG"));
    std::fs::write(artifacts_dir().join("referee-judgement.png"), judging).ok();
    b.click("#sign-judgement");
    message(&mut b, "recorded at event 8");
    console_at(&mut b, 8);

    // The projection draws what the preview showed.
    let st = get(&format!("{url}/games/{game}/state"));
    let drawn: Vec<String> = st["view"]["consequences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["at_seq"] == 8)
        .map(|c| c["what"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(drawn, previewed);
    assert_eq!(st["view"]["clocks"]["white"]["time_left_ms"], white_after);
    let sanctions = st["view"]["sanctions"].to_string();
    assert!(sanctions.contains("warning"), "{sanctions}");
    // The console shows the game as people read it: the board with its
    // coordinates, stones named by point, the timeline and the sanctions
    // in words, no JSON.
    let coords = b.eval("[...document.querySelectorAll('#game-main svg.board text.coord')].map(t => t.textContent).join(' ')");
    let coords = coords.as_str().unwrap();
    for c in ["A", "J", "1", "9"] {
        assert!(coords.split(' ').any(|t| t == c), "{coords}");
    }
    assert!(!coords.contains('I'), "Go's letters skip I: {coords}");
    let stones = b.eval("[...document.querySelectorAll('#game-main svg.board circle.stone title')].map(t => t.textContent)");
    assert!(
        stones
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t.as_str().unwrap().ends_with("stone at C7")),
        "{stones}"
    );
    let timeline = b.text("#timeline");
    assert!(
        !timeline.contains('{') && !timeline.contains("\"player\""),
        "{timeline}"
    );
    let judged = b.text("#timeline li[data-seq=\"8\"]");
    assert!(judged.to_lowercase().contains("warning"), "{judged}");
    let sanction_line = b.text("#sanctions");
    assert!(
        sanction_line.contains("Black: warning") && !sanction_line.contains('{'),
        "{sanction_line}"
    );
    // Every ruling is signed by the console's browser key.
    let recs = records(&url, &game);
    let rulings: Vec<&Value> = recs
        .iter()
        .filter(|r| kind_of(r) == "referee_ruling")
        .collect();
    assert_eq!(rulings.len(), 1);
    for r in rulings {
        assert_eq!(r["signer"], console_key, "{r}");
        let effects = r["body"]["referee_ruling"]["effects"].to_string();
        assert!(
            effects.contains("warning") && effects.contains("60000"),
            "{effects}"
        );
    }

    // Forcing a committee's power: the preview refuses it with the clause,
    // and the server refuses the signed record; nothing is written.
    let forced = b.eval(&format!(
        r#"(async () => {{
            const rec = await import('/web/record.js');
            const db = await new Promise((res, rej) => {{ const r = indexedDB.open('kifu-referee', 1); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); }});
            const pair = await new Promise((res) => {{ const r = db.transaction('kv').objectStore('kv').get('keypair'); r.onsuccess = () => res(r.result); }});
            const body = {{ committee_decision: {{ appeal_seq: 8, verdict: 'upheld', reasons: 'forced' }} }};
            const p = await (await fetch('/games/{game}/preview', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: JSON.stringify({{ body, signer: '{console_key}' }}) }})).json();
            const h = await (await fetch('/games/{game}/head')).json();
            const s = await rec.signEvent(pair.privateKey, {{ chain: '{game}', seq: h.seq + 1, prev_hash: h.hash, at_ms: Date.now(), signer: '{console_key}', body }});
            const r = await (await fetch('/records', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: JSON.stringify({{ records: [s.hex] }}) }})).json();
            return {{ preview: p, answer: r }};
        }})()"#
    ));
    let refused = forced["preview"]["refused"].as_str().unwrap_or_default();
    assert!(refused.contains("committee"), "{forced}");
    let clause = &forced["preview"]["refused_clause"];
    assert!(
        clause["rule"]
            .as_str()
            .unwrap()
            .contains("Appeals committee")
            && clause["quote"].as_str().unwrap().contains("three persons"),
        "{clause}"
    );
    assert_eq!(forced["answer"]["results"][0]["ok"], false, "{forced}");
    let why = forced["answer"]["results"][0]["error"]["message"]
        .as_str()
        .unwrap();
    assert!(why.contains("committee"), "{why}");
    assert_eq!(get(&format!("{url}/games/{game}/head"))["seq"], 8);

    // White's tablet is lost: a new one asks for the seat, and the referee
    // binds it from the console, choosing its request by fingerprint.
    let spare = b.new_context(1024, 768);
    let fp_spare = ask_for_seat(&mut b, &url, "white", "Bob");
    let spare_key = b
        .eval(&format!("fetch('/devices').then(r => r.json()).then(v => v.requests.find(r => r.fingerprint === {fp_spare:?}).key)"))
        .as_str()
        .unwrap()
        .to_string();
    b.switch(&console);
    b.click(&format!("#row-{game} button.open"));
    console_at(&mut b, 8);
    b.wait_for(
        "the request in the key form",
        &format!("!!document.querySelector('#form-key_replaced option[value=\"{spare_key}\"]')"),
    );
    field(&mut b, "key_replaced", "who", json!(rw["key"]));
    field(&mut b, "key_replaced", "request", json!(spare_key));
    b.click("#preview-key_replaced");
    b.wait_for(
        "the preview",
        "!!document.querySelector('#consequence-key_replaced .consequence')",
    );
    b.click("#sign-key_replaced");
    message(&mut b, "recorded at event 9");
    b.switch(&spare);
    b.wait_for(
        "the game on the new tablet",
        "!!document.getElementById('press')",
    );
    let replaced = &records(&url, &game)[9];
    assert_eq!(kind_of(replaced), "key_replaced", "{replaced}");
    assert_eq!(replaced["signer"], console_key);
    assert_eq!(
        replaced["body"]["key_replaced"]["new_key"],
        json!(spare_key)
    );
    b.switch(&console);

    // The page ran under `default-src 'self'` and nothing was blocked.
    let blocked = b.eval("[...document.querySelectorAll('#messages p')].some(p => p.textContent.includes('security policy'))");
    assert_eq!(blocked, false);
    verifies(dir.path(), &url, &game);
    drop(server);
}

/// How many times the console has asked for its overview.
fn overview_reads(b: &mut Browser) -> u64 {
    b.eval("performance.getEntriesByType('resource').filter(e => e.name.includes('/referee/games')).length")
        .as_u64()
        .unwrap()
}

#[test]
fn the_console_reads_its_boards_again_when_the_feed_says_they_changed_and_never_polls() {
    let Some(program) = browser_or_skip("the referee's console test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    keygen(dir.path(), "dir");
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(1024, 768);
    let fp_black = ask_for_seat(&mut b, &url, "black", "Ann");
    b.new_context(1024, 768);
    let fp_white = ask_for_seat(&mut b, &url, "white", "Bob");
    let console = b.new_context(1280, 900);
    b.goto(&format!("{url}/referee"));
    b.wait_for("the enrolment form", "!!document.getElementById('ask')");
    b.eval("(() => { document.getElementById('name').value = 'Rita'; document.getElementById('tournament').value = 'Open'; return true; })()");
    b.click("#ask");
    b.wait_for(
        "the request",
        "!!document.getElementById('enrol').dataset.request",
    );
    let fp_console = b.text("#fingerprint");
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let id_of = |fp: &str| {
        listed["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["fingerprint"] == fp)
            .map(|r| r["id"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("{fp} listed in {listed}"))
    };
    let director = format!("Dee={}", dir.path().join("dir.pub").display());
    let (rb, rw, rr) = (id_of(&fp_black), id_of(&fp_white), id_of(&fp_console));
    let made: Value = serde_json::from_str(&ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            dir.path().join("dir.key").to_str().unwrap(),
            "--director",
            &director,
            "--size",
            "9",
            "--time",
            "fischer:10m+10s",
            "--tournament",
            "Open",
            "--round",
            "1",
            "--board",
            "1",
            "--device-request",
            &rb,
            "--device-request",
            &rw,
            "--device-request",
            &rr,
            "--json",
        ],
    )))
    .unwrap();
    let game = made["game"].as_str().unwrap().to_string();

    // The new game's genesis, heard on the feed, brings the board.
    b.switch(&console);
    b.wait_for(
        "the board on the overview",
        &format!("!!document.getElementById('row-{game}')"),
    );
    b.click(&format!("#row-{game} button.open"));
    console_at(&mut b, 0);
    // Nothing happens at the board: nothing is asked.
    let before = overview_reads(&mut b);
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert_eq!(overview_reads(&mut b), before, "the console polled");
    // A record of the game: the overview and the open game follow it.
    ok(&append(
        &url,
        &game,
        &dir.path().join("dir.key"),
        now_ms(),
        &json!({"clock_started": {"running": "black"}}),
    ));
    b.wait_for(
        "the clock running on the overview",
        &format!("!!document.querySelector('#row-{game} td.clock.running')"),
    );
    console_at(&mut b, 1);
    assert!(overview_reads(&mut b) > before);
    // It asked only for the board the record named.
    let last = b.eval("(() => { const e = performance.getEntriesByType('resource').filter(e => e.name.includes('/referee/games')); return e[e.length - 1].name; })()");
    assert!(
        last.as_str().unwrap().contains(&format!("&games={game}")),
        "{last}"
    );
    b.assert_no_csp_violation();
    let errors = b.page_errors();
    assert!(errors.is_empty(), "{errors:?}");
    drop(server);
}

/// A game with Black, White and a referee (CLI keys in `dir`), the clock
/// started at `start_ms` (which makes the game's id) and three moves
/// played; its id and the head's at_ms.
fn game_with_moves(dir: &Path, url: &str, start_ms: u64) -> (String, u64) {
    let arg = |name: &str, file: &str| format!("{name}={}", dir.join(file).display());
    let made: Value = serde_json::from_str(&ok(&kifu_at(
        url,
        &[
            "new-game",
            "--key",
            dir.join("ref.key").to_str().unwrap(),
            "--referee",
            &arg("Ref", "ref.pub"),
            "--black",
            &arg("Ann", "b.pub"),
            "--white",
            &arg("Bob", "w.pub"),
            "--size",
            "9",
            "--time",
            "fischer:10m+10s",
            "--at-ms",
            &start_ms.to_string(),
            "--json",
        ],
    )))
    .unwrap();
    let game = made["game"].as_str().unwrap().to_string();
    let (refk, bk, wk) = (dir.join("ref.key"), dir.join("b.key"), dir.join("w.key"));
    let mut at = start_ms;
    let mut step = |key: &Path, body: Value| {
        at += 5_000;
        ok(&append(url, &game, key, at, &body));
    };
    step(&refk, json!({"clock_started": {"running": "black"}}));
    step(
        &bk,
        json!({"stone_placed": {"player": "black", "stone": "black", "point": {"x": 2, "y": 2}}}),
    );
    step(&bk, json!({"clock_pressed": {"player": "black"}}));
    step(
        &wk,
        json!({"stone_placed": {"player": "white", "stone": "white", "point": {"x": 6, "y": 6}}}),
    );
    step(&wk, json!({"clock_pressed": {"player": "white"}}));
    step(
        &bk,
        json!({"stone_placed": {"player": "black", "stone": "black", "point": {"x": 2, "y": 6}}}),
    );
    (game, at)
}

fn judgement(effects: Value) -> Value {
    json!({"referee_ruling": {"kind": "judgement", "decision": "ruled", "reasons": "as the rules say", "rules_cited": ["LGC 2023, \"Referees\""], "effects": effects}})
}

#[test]
fn the_preview_of_each_kind_of_effect_is_what_the_projection_shows_once_signed() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    let referee = keygen(dir.path(), "ref");
    keygen(dir.path(), "b");
    keygen(dir.path(), "w");
    let sanction = |kind: Value| json!({"sanction": {"target": {"player": "white"}, "kind": kind, "reason": "r"}});
    let cases: Vec<(&str, Value)> = vec![
        ("warning", judgement(json!([sanction(json!("warning"))]))),
        (
            "time added",
            judgement(json!([{"adjust_clock": {"player": "white", "delta_ms": 60000}}])),
        ),
        (
            "time removed",
            judgement(json!([{"adjust_clock": {"player": "black", "delta_ms": -30000}}])),
        ),
        ("unwinding", judgement(json!([{"unwind_to": {"seq": 3}}]))),
        (
            "forfeit",
            judgement(json!([sanction(json!("game_forfeit"))])),
        ),
        (
            "drawn",
            judgement(json!([{"set_result": {"outcome": "draw", "by": {"other": "ruled drawn"}}}])),
        ),
        (
            "annulled",
            judgement(
                json!([{"set_result": {"outcome": "no_result", "by": {"other": "annulled"}}}]),
            ),
        ),
        (
            "play resumes",
            json!({"referee_ruling": {"kind": "judgement", "decision": "play on", "reasons": "", "rules_cited": [], "effects": ["resume"]}}),
        ),
        (
            "stone removed and placed",
            json!({"irregularity_recorded": {"kind": "position_disturbed", "about_seq": null, "fix": {"remove": [{"x": 2, "y": 6}], "as_prisoners": false, "place": [["black", {"x": 3, "y": 6}]]}, "statement": "the stone slid"}}),
        ),
        (
            "clock adjusted",
            json!({"clock_adjusted": {"player": "black", "delta_ms": 45000, "reason": "faulty clock"}}),
        ),
        (
            "sanction",
            json!({"sanction_imposed": {"target": {"player": "black"}, "kind": {"time_modified": {"delta_ms": -60000}}, "reason": "late"}}),
        ),
    ];
    for (n, (what, body)) in cases.into_iter().enumerate() {
        let (game, at) = game_with_moves(dir.path(), &url, 1_000_000 + n as u64 * 1_000_000);
        let at_ms = at + 7_000;
        let (s, p) = post(
            &format!("{url}/games/{game}/preview"),
            &json!({"body": body, "signer": referee, "at_ms": at_ms}),
        );
        assert_eq!(s, 200, "{what}: {p}");
        assert!(p["refused"].is_null(), "{what}: {p}");
        assert_eq!(p["seq"], 7, "{what}");
        assert_eq!(
            get(&format!("{url}/games/{game}/head"))["seq"],
            6,
            "{what}: the preview wrote"
        );
        ok(&append(
            &url,
            &game,
            &dir.path().join("ref.key"),
            at_ms,
            &body,
        ));
        let st = get(&format!("{url}/games/{game}/state"));
        assert_eq!(st["last_seq"], 7, "{what}");
        // The whole view: board, clocks, phase, consequences, sanctions, result.
        assert_eq!(p["view"], st["view"], "{what}");
        assert_eq!(p["board_view"], st["board_view"], "{what}");
        let mine: Vec<&Value> = st["view"]["consequences"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["at_seq"] == 7)
            .collect();
        assert_eq!(
            p["consequences"]
                .as_array()
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            mine,
            "{what}"
        );
        assert!(
            !mine.is_empty() || what == "play resumes",
            "{what}: no consequence drawn"
        );
    }
    drop(server);
}

#[test]
fn powers_say_what_each_official_may_sign_with_the_clause() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    let referee = keygen(dir.path(), "ref");
    let black = keygen(dir.path(), "b");
    keygen(dir.path(), "w");
    let (game, at) = game_with_moves(dir.path(), &url, 1_000_000);
    let powers = |key: &str| get(&format!("{url}/games/{game}/powers?key={key}"));
    let allowed = |v: &Value, action: &str| {
        v["powers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["action"] == action)
            .unwrap_or_else(|| panic!("no {action} in {v}"))
            .clone()
    };
    let r = powers(&referee);
    assert_eq!(r["roles"], json!(["referee"]));
    for a in [
        "pause",
        "resume",
        "judgement",
        "clock_adjusted",
        "sanction",
        "irregularity",
        "key_replaced",
    ] {
        let p = allowed(&r, a);
        assert_eq!(p["allowed"], true, "{p}");
        assert!(p["rule"].as_str().unwrap().contains("LGC 2023"), "{p}");
        assert!(!p["quote"].as_str().unwrap_or("").is_empty(), "{p}");
    }
    let c = allowed(&r, "committee_decision");
    assert_eq!(c["allowed"], false, "{c}");
    assert!(c["refused"].as_str().unwrap().contains("committee"), "{c}");
    assert!(
        c["rule"].as_str().unwrap().contains("Appeals committee"),
        "{c}"
    );
    // A player holds no referee's power.
    let b = powers(&black);
    for a in ["judgement", "clock_adjusted", "sanction"] {
        assert_eq!(allowed(&b, a)["allowed"], false, "{a}: {b}");
    }
    // A key that is no key is refused in words.
    let (s, e) = match ureq::get(&format!("{url}/games/{game}/powers?key=zz")).call() {
        Err(ureq::Error::Status(s, r)) => (s, r.into_json::<Value>().unwrap()),
        other => panic!("{other:?}"),
    };
    assert_eq!(s, 400, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("key"),
        "{e}"
    );
    // The console's overview lists the referee's games with their clocks.
    let g = get(&format!("{url}/referee/games?key={referee}"));
    assert_eq!(g["games"][0]["game"], json!(game));
    assert!(g["games"][0]["clock"]["black"].is_object(), "{g}");
    assert_eq!(
        get(&format!("{url}/referee/games?key={black}"))["games"][0]["roles"],
        json!(["black"])
    );
    // Only the games asked for: by a prefix of the id, none for another.
    let only = get(&format!(
        "{url}/referee/games?key={referee}&games={}",
        &game[..12]
    ));
    assert_eq!(only["games"].as_array().unwrap().len(), 1, "{only}");
    let other = "0".repeat(64);
    let none = get(&format!("{url}/referee/games?key={referee}&games={other}"));
    assert_eq!(none["games"], json!([]), "{none}");
    match ureq::get(&format!("{url}/referee/games?key={referee}&games=not-hex")).call() {
        Err(ureq::Error::Status(s, _)) => assert_eq!(s, 400),
        other => panic!("a list that names no game was taken: {other:?}"),
    }
    // Black's ten minutes run out: the overview shows the flag.
    assert_eq!(g["games"][0]["flags"], json!([]));
    let late = json!({"referee_ruling": {"kind": "clarification", "decision": "time is up", "reasons": "", "rules_cited": [], "effects": []}});
    ok(&append(
        &url,
        &game,
        &dir.path().join("ref.key"),
        at + 11 * 60_000,
        &late,
    ));
    let g = get(&format!("{url}/referee/games?key={referee}"));
    assert_eq!(g["games"][0]["flags"][0]["player"], "black", "{g}");
    // After a restart nothing is kept: the board is replayed from the
    // store, not from a kept projection, and shows the same.
    drop(server);
    let again = Served::start(&dir.path().join("data"), &[]);
    let after = get(&format!("{}/referee/games?key={referee}", again.url));
    assert_eq!(after, g);
    drop(again);
}

#[test]
fn no_ruling_is_offered_after_the_committees_final_decision_and_a_forced_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    // The demo game ends with the appeals committee's decision (two of
    // three members).
    let demo: Value = serde_json::from_str(&ok(&kifu()
        .current_dir(dir.path())
        .args(["--server", &url, "demo", "--json"])
        .output()
        .unwrap()))
    .unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    let keys = Path::new(demo["keys"].as_str().unwrap()).to_path_buf();
    let referee_key = keys.join("referee.key");
    let pem = std::fs::read_to_string(&referee_key).unwrap();
    let referee = kifu_ledger::Keypair::from_pkcs8_pem(&pem)
        .unwrap()
        .public()
        .to_hex();
    let p = get(&format!("{url}/games/{game}/powers?key={referee}"));
    let power = p["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["action"] == "judgement")
        .unwrap()
        .clone();
    assert_eq!(power["allowed"], false, "{power}");
    let why = power["refused"].as_str().unwrap();
    assert!(why.contains("its decision is final"), "{why}");
    assert!(why.contains("Appeals committee"), "{why}");
    // Forced: refused with the clause, nothing written.
    let before = get(&format!("{url}/games/{game}/head"));
    let at = get(&format!("{url}/games/{game}"))["last_at_ms"]
        .as_u64()
        .unwrap()
        + 1_000;
    let o = append(&url, &game, &referee_key, at, &judgement(json!([])));
    assert!(!o.status.success());
    let e = err(&o);
    assert!(e.contains("its decision is final"), "{e}");
    assert!(e.contains("Appeals committee"), "{e}");
    assert_eq!(get(&format!("{url}/games/{game}/head")), before);
    server.stop();
}
