//! The director's desk (`/director`): from an empty data directory, a
//! director's browser key creates a tournament (naming the referee
//! console's browser key among its referees), registers and corrects 8
//! players, pairs round 1 on 4 boards by pasting the `pair --file` text,
//! creates the round's games in one action with the devices waiting at
//! each board (a stranger's request for a seat left out by its
//! fingerprint); board 2 is played from the players' browser devices to a
//! dispute, judged from the referee's console (a warning and a minute
//! added) and resigned; board 3 is recorded on a shared board device in
//! the browser (the clock started, moves and presses for both players,
//! White's resignation, all signed by its recorder key); board 1 is a game
//! recorded through the server; the director confirms the three
//! games' results into the chain and enters board 4's by default, with its
//! reason; the standings the
//! page shows equal `kifu tournament standings`, the `.h9` download equals
//! `kifu tournament export --format h9`, `kifu verify` and `kifu tournament
//! verify` pass, and every fact of the chain is signed by the page's key.
//! Refusals (a player paired twice, a withdrawn player paired, a result
//! for an unpaired board) are said in words with nothing written.
//!
//! Without Chromium the test says so and passes, unless
//! `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::browser::{artifacts_dir, browser_or_skip, Browser};
use common::devices::{ask_signed, axe_script};
use common::*;

use serde_json::{json, Value};

/// The demo game's genesis names this tournament, round 1, board 1.
const SHORT: &str = "kifu demonstration open";

fn through(url: &str, args: &[&str]) -> std::process::Output {
    kifu()
        .arg("--server")
        .arg(url)
        .args(args)
        .output()
        .expect("kifu runs")
}

fn message(b: &mut Browser, what: &str) {
    b.wait_for(
        &format!("a message with {what:?}"),
        &format!("[...document.querySelectorAll('#messages p')].some(p => p.textContent.includes({what:?}))"),
    );
}

/// Fills the form `form` with `values` (a checkbox with true/false) and
/// submits it as the Enter key or its button would.
fn submit(b: &mut Browser, form: &str, values: Value) {
    b.eval(&format!(
        "(() => {{ const f = document.getElementById({form:?}); const v = {values}; for (const [k, x] of Object.entries(v)) {{ const el = f.elements[k]; if (el.type === 'checkbox') el.checked = x; else el.value = String(x); }} f.requestSubmit(); return true; }})()"
    ));
}

/// A board device's page (`/play`) asks for a seat of this tournament's
/// round 1; its key's hex.
fn ask_for_seat(b: &mut Browser, url: &str, board: u32, role: &str, name: &str) -> String {
    let fp = ask_seat(b, url, SHORT, board, role, name);
    let listed = get(&format!("{url}/devices"));
    listed["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["fingerprint"] == fp.as_str())
        .unwrap_or_else(|| panic!("{fp} in {listed}"))["key"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The board page has shown event `seq`.
fn at_seq(b: &mut Browser, seq: u64) {
    b.wait_for(
        &format!("event {seq}"),
        &format!("Number((document.getElementById('main') || {{dataset: {{}}}}).dataset.lastSeq) >= {seq}"),
    );
}

/// Sets a field of a referee's console form.
fn field(b: &mut Browser, form: &str, name: &str, value: Value) {
    b.eval(&format!(
        "(() => {{ const el = document.querySelector('#form-{form} [name={name:?}]'); if (el.type === 'checkbox') el.checked = {value}; else el.value = {value}; el.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()"
    ));
}

fn seq(b: &mut Browser) -> u64 {
    b.eval("Number(document.body.dataset.seq || -1)")
        .as_u64()
        .unwrap_or(0)
}

fn wait_seq(b: &mut Browser, at_least: u64) {
    b.wait_for(
        &format!("the chain at seq {at_least}"),
        &format!("Number(document.body.dataset.seq || -1) >= {at_least}"),
    );
}

/// Submits what a refusal is expected for; the message has `words`, and
/// the chain is where it was.
fn refused(b: &mut Browser, url: &str, form: &str, values: Value, words: &str) {
    let t = b.eval("document.getElementById('tournament').value");
    let t = t.as_str().unwrap().to_string();
    let before = get(&format!("{url}/tournaments/{t}"))["seq"].clone();
    let n = b.eval("document.querySelectorAll('#messages p.bad').length");
    submit(b, form, values);
    b.wait_for(
        &format!("a refusal with {words:?}"),
        &format!("document.querySelectorAll('#messages p.bad').length > {n} && document.querySelector('#messages p.bad:last-child').textContent.includes({words:?})"),
    );
    let last = b.eval("document.querySelector('#messages p.bad:last-child').textContent");
    assert!(
        last.as_str().unwrap_or("").contains("nothing signed"),
        "{last}"
    );
    assert_eq!(
        get(&format!("{url}/tournaments/{t}"))["seq"],
        before,
        "{form}: something was written"
    );
}

fn get(url: &str) -> Value {
    let r = match ureq::get(url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    r.into_json().expect("JSON")
}

#[test]
fn a_round_runs_from_the_directors_desk_signed_by_its_browser_key() {
    let Some(program) = browser_or_skip("the director's desk test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    // A game recorded through the server: its genesis names the
    // tournament, round 1, board 1, and it has ended with a result.
    let demo: Value = serde_json::from_str(&ok(&kifu()
        .current_dir(dir.path())
        .args(["--server", &url, "demo", "--json"])
        .output()
        .unwrap()))
    .unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    // The demo's referee created that game: the tournament names it among
    // its referees, so the game is board 1's (a game that merely names the
    // board would be a claim: docs/FORMAT.md section 10, "A board's game").
    let demo_referee = {
        let keys = std::path::Path::new(demo["keys"].as_str().unwrap());
        let pem = std::fs::read_to_string(keys.join("referee.key")).unwrap();
        kifu_ledger::Keypair::from_pkcs8_pem(&pem)
            .unwrap()
            .public()
            .to_hex()
    };

    // Keys: the referee's, and the board devices of boards 2 and 3 (board
    // 4's players have none: its game cannot be created).
    let keys = dir.path().join("keys");
    let public = |name: &str| -> String {
        ok(&run(
            &keys,
            &["keygen", dir.path().join(name).to_str().unwrap()],
        ));
        let pem = std::fs::read_to_string(dir.path().join(format!("{name}.key"))).unwrap();
        kifu_ledger::Keypair::from_pkcs8_pem(&pem)
            .unwrap()
            .public()
            .to_hex()
    };
    let referee = public("ref");
    let committee: Vec<String> = ["c1", "c2", "c3", "c4"].into_iter().map(public).collect();
    let devices: Vec<(u32, &str, String)> = [(3, "black"), (3, "white")]
        .into_iter()
        .map(|(board, role)| (board, role, public(&format!("b{board}{role}"))))
        .collect();
    // The key file of a device (`b3black`), or of another key made here.
    let key_file = |role: &str, board: u32| {
        if board == 0 {
            dir.path().join(format!("{role}.key"))
        } else {
            dir.path().join(format!("b{board}{role}.key"))
        }
    };

    let mut b = Browser::start(program, &dir.path().join("chromium"));
    // The referee's console asks to referee the tournament; the director
    // names its key among the tournament's referees.
    let console = b.new_context(1280, 900);
    b.goto(&format!("{url}/referee"));
    b.wait_for("the enrolment form", "!!document.getElementById('ask')");
    b.eval(&format!("(() => {{ document.getElementById('name').value = 'Rita'; document.getElementById('tournament').value = {SHORT:?}; return true; }})()"));
    b.click("#ask");
    b.wait_for(
        "the console's request",
        "!!document.getElementById('enrol').dataset.request",
    );
    let console_key = b
        .eval("document.getElementById('fingerprint').dataset.key")
        .as_str()
        .unwrap()
        .to_string();
    let desk = b.new_context(1280, 900);
    b.goto(&format!("{url}/director"));
    b.wait_for(
        "the desk",
        "!!document.body && document.body.dataset.ready === '1'",
    );
    let desk_key = b
        .eval("document.getElementById('fingerprint').dataset.key")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(desk_key.len(), 64);
    // The key is not extractable.
    let extractable = b.eval("new Promise(r => { const q = indexedDB.open('kifu-director'); q.onsuccess = () => { const g = q.result.transaction('kv').objectStore('kv').get('keypair'); g.onsuccess = () => r(g.result.privateKey.extractable); }; })");
    assert_eq!(extractable, json!(false));

    // The tournament, created from the page with its key as director.
    submit(
        &mut b,
        "create-form",
        json!({"name": "Desk Open", "short_name": SHORT, "rounds": 3, "city": "Berlin", "country": "DE", "director_name": "Dana Director", "time_zone": "", "referees": format!("Rita Referee={console_key}\nRex Referee={referee}\nDale Demo={demo_referee}"), "committee": format!("Cora={}\nCarl={}\nCleo={}\nCody={}", committee[0], committee[1], committee[2], committee[3])}),
    );
    message(&mut b, "tournament kifu demonstration open created");
    b.wait_for("the desk", "!document.getElementById('desk').hidden");
    wait_seq(&mut b, 0);
    let tid = b.eval("document.getElementById('tournament').value");
    let tid = tid.as_str().unwrap().to_string();
    assert_eq!(tid.len(), 64);

    for (i, (id, surname, rank)) in [
        ("P1", "White", "3d"),
        ("P2", "Black", "2d"),
        ("P3", "Claus", "1d"),
        ("P4", "Dorn", "1k"),
        ("P5", "Engel", "2k"),
        ("P6", "Fuchs", "3k"),
        ("P7", "Graf", "4k"),
        ("P8", "Hahn", "5k"),
    ]
    .into_iter()
    .enumerate()
    {
        submit(
            &mut b,
            "register-form",
            json!({"id": id, "surname": surname, "given": "Kim", "rank": rank, "rating": 2000 - 100 * i as i64, "club": "Berl", "country": "DE", "egd_pin": format!("1000000{i}")}),
        );
        wait_seq(&mut b, 1 + i as u64);
    }
    // A correction.
    submit(
        &mut b,
        "register-form",
        json!({"id": "P4", "surname": "Dorn", "given": "Kai", "rank": "1d", "rating": 2050, "club": "Berl", "country": "DE", "egd_pin": "10000003", "correct": true}),
    );
    wait_seq(&mut b, 9);
    assert!(b.text("#player-rows").contains("Dorn Kai"));

    // Refusals, in words, nothing written.
    refused(
        &mut b,
        &url,
        "pair-form",
        json!({"text": "1 P1 P2\n2 P1 P3\n"}),
        "\"P1\" is already paired on board 1",
    );
    refused(
        &mut b,
        &url,
        "result-form",
        json!({"board": 9, "result": "W+", "reason": "result sheet"}),
        "board 9: no such game (the board is not paired)",
    );
    refused(
        &mut b,
        &url,
        "pair-form",
        json!({"text": "1 P1 P2\nx P3 P4\n"}),
        "line 2: expected",
    );

    // Round 1, pasted as `kifu tournament pair --file` reads it. The demo
    // game is White P1 against Black P2 on board 1.
    submit(
        &mut b,
        "pair-form",
        json!({"text": "# round 1\n1 P1 P2\n2 P3 P4\n3 P5 P6\n4 P7 P8\n"}),
    );
    wait_seq(&mut b, 13);
    // The board devices ask for their seats; the round's games are created
    // in one action, each naming the devices waiting at its board, the
    // referee and the director.
    // Board 2: each player's own device, in the browser.
    let black = b.new_context(1024, 768);
    let black_key = ask_for_seat(&mut b, &url, 2, "black", "Claus");
    let white = b.new_context(1024, 768);
    let white_key = ask_for_seat(&mut b, &url, 2, "white", "Dorn");
    // Board 3: the players' keys asked through the API, and one shared
    // board device in the browser, which records the game for both.
    let shared = b.new_context(1024, 768);
    let recorder_key = ask_for_seat(&mut b, &url, 3, "recorder", "Board 3 clock");
    b.switch(&desk);
    // Board 3: a device each, asking through the API.
    for (board, role, key) in &devices {
        let (status, _) = ask_signed(
            &url,
            &key_file(role, *board),
            &json!({"key": key, "role": role, "name": format!("{role} device {board}"), "tournament": SHORT, "round": 1, "board": board}),
        );
        assert_eq!(status, 201);
    }
    // A stranger's device asks for board 3's Black seat too, after the
    // real one: the director sees its fingerprint, which is not the
    // device's, and leaves it out; the real one holds the seat.
    let stranger = public("stranger");
    let (_, r) = ask_signed(
        &url,
        &key_file("stranger", 0),
        &json!({"key": stranger, "role": "black", "name": "not a device here", "tournament": SHORT, "round": 1, "board": 3}),
    );
    let stranger_request = r["id"].as_str().unwrap().to_string();
    b.click("#create-games");
    b.wait_for(
        "the devices to confirm",
        "!document.getElementById('games-confirm').hidden && document.querySelectorAll('#games-confirm input[name=device]').length === 5",
    );
    // A board recorder signs for both players: offered unticked, enrolled
    // only when the director ticks it.
    assert_eq!(
        b.eval("[...document.querySelectorAll('#games-confirm input[name=recorder]')].map(i => i.checked)"),
        json!([false])
    );
    b.click("#games-confirm input[name=recorder]");
    message(
        &mut b,
        "board 4: no tablet asks for it: a paper board, its result entered from the result sheet",
    );
    message(&mut b, "board 3: 2 devices ask for Black's seat");
    let listed = b.text("#games-confirm");
    assert!(listed.contains("not a device here"), "{listed}");
    b.eval(&format!(
        "(() => {{ const i = document.querySelector('#games-confirm input[value={stranger_request:?}]'); i.checked = false; return true; }})()"
    ));
    b.click("#sign-games");
    b.wait_for(
        "the games of boards 2 and 3",
        "document.querySelectorAll('#games-created li').length === 2",
    );
    let created = b.eval("[...document.querySelectorAll('#games-created li')].map(li => [Number(li.dataset.board), li.dataset.game])");
    let created: Vec<(u64, String)> = created
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v[0].as_u64().unwrap(), v[1].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(created.iter().map(|c| c.0).collect::<Vec<_>>(), [2, 3]);
    for (board, g) in &created {
        let first = &get(&format!("{url}/games/{g}/records"))["records"][0];
        let genesis = &first["body"]["game_created"];
        assert_eq!(genesis["tournament"]["tournament"], SHORT);
        assert_eq!(genesis["tournament"]["board"], *board);
        let roster: Vec<(String, String)> = genesis["roster"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["role"].as_str().unwrap().to_string(),
                    p["key"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let browser_devices = [
            (2, "black", black_key.clone()),
            (2, "white", white_key.clone()),
            (3, "recorder", recorder_key.clone()),
        ];
        for (db, role, key) in devices.iter().chain(&browser_devices) {
            if *db as u64 == *board {
                assert!(
                    roster.contains(&(role.to_string(), key.clone())),
                    "{roster:?}"
                );
            }
        }
        assert!(
            roster.contains(&("referee".into(), referee.clone())),
            "{roster:?}"
        );
        assert!(!roster.iter().any(|(_, k)| *k == stranger), "{roster:?}");
        assert!(
            roster.contains(&("referee".into(), console_key.clone())),
            "{roster:?}"
        );
        assert!(
            roster.contains(&("director".into(), desk_key.clone())),
            "{roster:?}"
        );
    }
    // Board 3's appeals committee, formed from the tournament's (three
    // members, a reserve); Cora recused, the reserve sits; a player of the
    // game cannot be co-opted: refused with the clause, nothing written.
    let g3 = created[1].1.clone();
    let events_of = |g: &str| {
        get(&format!("{url}/games/{g}/head"))["seq"]
            .as_u64()
            .unwrap()
    };
    let before = events_of(&g3);
    submit(&mut b, "committee-form", json!({"board": 3}));
    message(&mut b, "committee of board 3: recorded at event");
    assert_eq!(events_of(&g3), before + 1);
    b.eval("(() => { const f = document.getElementById('recuse-form'); f.elements.board.value = '3'; f.elements.board.dispatchEvent(new Event('change')); return true; })()");
    b.wait_for(
        "the members to recuse",
        "document.querySelectorAll('#recuse-member option').length === 4",
    );
    submit(
        &mut b,
        "recuse-form",
        json!({"board": 3, "member": committee[0], "reason": "plays for the same club"}),
    );
    message(&mut b, "recusal on board 3: recorded at event");
    b.wait_for(
        "the committee after the recusal",
        "document.getElementById('committee-state').textContent.includes('recused: Cora') && document.getElementById('committee-state').textContent.includes('Cody')",
    );
    let device_of_black3 = devices
        .iter()
        .find(|d| d.0 == 3 && d.1 == "black")
        .unwrap()
        .2
        .clone();
    let n = b.eval("document.querySelectorAll('#messages p.bad').length");
    submit(
        &mut b,
        "coopt-form",
        json!({"board": 3, "name": "Engel", "key": device_of_black3}),
    );
    b.wait_for(
        "the co-option refused",
        &format!("document.querySelectorAll('#messages p.bad').length > {n}"),
    );
    let last = b.text("#messages p.bad:last-child");
    assert!(
        last.contains("a player of this game cannot sit on its appeals committee"),
        "{last}"
    );
    assert!(last.contains("Appeals committee"), "{last}");
    assert_eq!(
        events_of(&g3),
        before + 2,
        "the refused co-option wrote something"
    );
    let kinds: Vec<(String, String)> = get(&format!("{url}/games/{g3}/records"))["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["body"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .next()
                    .unwrap()
                    .clone(),
                r["signer"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("committee_formed".into(), desk_key.clone())),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("member_recused".into(), desk_key.clone())),
        "{kinds:?}"
    );

    // Board 2 is played from the players' devices: the referee Rex starts
    // the clocks, a move each, White raises a dispute and calls the
    // referee; the console judges (a warning to Black, a minute added to
    // White, play resumes), signed by its browser key; Black resigns.
    let g2 = created[0].1.clone();
    let started = {
        let mut c = kifu()
            .arg("--server")
            .arg(&url)
            .args(["append", &g2, "--key"])
            .arg(dir.path().join("ref.key"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(
            &mut c.stdin.take().unwrap(),
            json!({"clock_started": {"running": "black"}})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
        c.wait_with_output().unwrap()
    };
    ok(&started);
    let play = |b: &mut Browser, s: &str, seq: u64, x: u8, y: u8| {
        b.switch(s);
        at_seq(b, seq);
        b.click(&format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
        at_seq(b, seq + 1);
        b.click("#press");
        at_seq(b, seq + 2);
    };
    play(&mut b, &black, 1, 3, 3);
    play(&mut b, &white, 3, 15, 15);
    b.switch(&white);
    at_seq(&mut b, 5);
    b.click("#dispute");
    b.wait_for("the dialog", "document.getElementById('confirm').open");
    b.eval("(() => { document.getElementById('confirm-text').value = 'Black keeps tapping stones in the bowl'; return true; })()");
    b.click("#confirm-ok");
    at_seq(&mut b, 6);
    b.click("#call-referee");
    at_seq(&mut b, 7);
    b.switch(&console);
    b.wait_for(
        "the call on the console's overview",
        &format!("(() => {{ const r = document.getElementById('row-{g2}'); return !!r && r.classList.contains('alert'); }})()"),
    );
    b.click(&format!("#row-{g2} button.open"));
    b.wait_for(
        "the game opened at event 7",
        "Number((document.getElementById('game-main') || {dataset: {}}).dataset.lastSeq) >= 7",
    );
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
    let white_after: u64 = b
        .eval("document.querySelector('#consequence-judgement .clocks-after').dataset.whiteMs")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    b.click("#sign-judgement");
    b.wait_for(
        "the judgement recorded",
        "Number((document.getElementById('game-main') || {dataset: {}}).dataset.lastSeq) >= 8",
    );
    let st = get(&format!("{url}/games/{g2}/state"));
    assert_eq!(st["view"]["clocks"]["white"]["time_left_ms"], white_after);
    assert!(st["view"]["sanctions"].to_string().contains("warning"));
    let g2_records = get(&format!("{url}/games/{g2}/records"))["records"].clone();
    let ruling = g2_records
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["body"].get("referee_ruling").is_some())
        .expect("the ruling")
        .clone();
    assert_eq!(ruling["signer"], console_key);
    // Every stone and press of board 2 is signed by its player's device.
    for r in g2_records.as_array().unwrap() {
        let kind = r["body"]
            .as_object()
            .unwrap()
            .keys()
            .next()
            .unwrap()
            .clone();
        if kind == "stone_placed" || kind == "clock_pressed" {
            assert!(r["signer"] == black_key || r["signer"] == white_key, "{r}");
        }
    }
    b.switch(&black);
    at_seq(&mut b, 8);
    b.click("#resign");
    b.wait_for("the dialog", "document.getElementById('confirm').open");
    b.click("#confirm-ok");
    at_seq(&mut b, 9);
    b.switch(&desk);
    // Board 3's game is recorded on its shared board device: it starts the
    // clock, records three moves with their presses for both players, and
    // White's resignation, each signed by the device's recorder key.
    {
        let (_, g) = &created[1];
        b.switch(&shared);
        b.goto(&format!("{url}/play/{g}"));
        let mut at = get(&format!("{url}/games/{g}/head"))["seq"]
            .as_u64()
            .unwrap();
        at_seq(&mut b, at);
        b.click("#start-clock");
        at += 1;
        at_seq(&mut b, at);
        for (x, y) in [(3, 3), (15, 15), (15, 3)] {
            b.click(&format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
            at += 1;
            at_seq(&mut b, at);
            b.click("#press");
            at += 1;
            at_seq(&mut b, at);
        }
        b.click("#resign");
        b.wait_for("the dialog", "document.getElementById('confirm').open");
        b.click("#confirm-ok");
        at += 1;
        at_seq(&mut b, at);
        let recs = get(&format!("{url}/games/{g}/records"));
        let played: Vec<&Value> = recs["records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| {
                let kind = r["body"].as_object().unwrap().keys().next().unwrap();
                ["clock_started", "stone_placed", "clock_pressed", "resigned"]
                    .contains(&kind.as_str())
            })
            .collect();
        assert_eq!(played.len(), 8, "{recs}");
        for r in &played {
            assert_eq!(r["signer"], recorder_key, "{r}");
        }
        let last = played.last().unwrap();
        assert_eq!(last["body"]["resigned"]["player"], "white", "{last}");
        b.switch(&desk);
    }
    // Each finished game's result waits for the director, who confirms it
    // into the chain (a checkpoint of the game's head).
    for board in [1, 2, 3] {
        let button = format!("#board-rows button[data-board=\"{board}\"]");
        b.wait_for(
            &format!("board {board}'s game result"),
            &format!("!!document.querySelector({button:?})"),
        );
        let at = seq(&mut b);
        b.click(&button);
        wait_seq(&mut b, at + 1);
    }
    // Board 4 by default, with the reason.
    let at = seq(&mut b);
    submit(
        &mut b,
        "result-form",
        json!({"board": 4, "result": "W+", "by_default": true, "reason": "Black did not arrive"}),
    );
    wait_seq(&mut b, at + 1);
    let results =
        b.eval("[...document.querySelectorAll('#board-rows td.result')].map(td => td.textContent)");
    assert_eq!(results, json!(["1-0", "1-0", "0-1", "1-0 by default"]));
    // A withdrawal from round 2, then the withdrawn player paired: refused.
    let at = seq(&mut b);
    submit(
        &mut b,
        "absent-form",
        json!({"player": "P8", "round": 2, "reason": "withdrawal"}),
    );
    wait_seq(&mut b, at + 1);
    b.eval("(() => { const r = document.getElementById('round'); r.value = '2'; r.dispatchEvent(new Event('change')); return true; })()");
    b.wait_for(
        "round 2",
        "document.getElementById('h9').href.endsWith('round=2')",
    );
    refused(
        &mut b,
        &url,
        "pair-form",
        json!({"text": "1 P8 P1\n"}),
        "\"P8\" is already absent",
    );
    b.eval("(() => { const r = document.getElementById('round'); r.value = '1'; r.dispatchEvent(new Event('change')); return true; })()");
    b.wait_for(
        "round 1",
        "document.getElementById('h9').href.endsWith('round=1')",
    );

    // The standings the page shows are `kifu tournament standings`'.
    let cli: Value = serde_json::from_str(&ok(&through(
        &url,
        &[
            "tournament",
            "standings",
            SHORT,
            "--after-round",
            "1",
            "--json",
        ],
    )))
    .unwrap();
    b.wait_for(
        "the standings",
        "document.querySelectorAll('#standings-rows tr').length === 8",
    );
    let shown = b.eval("[...document.querySelectorAll('#standings-rows tr')].map(tr => [tr.dataset.player, ...[...tr.cells].slice(2).map(c => c.textContent)])");
    let want: Vec<Value> = cli["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut row = vec![r["player"].clone()];
            for c in cli["criteria"].as_array().unwrap() {
                row.push(json!(r["values"][c.as_str().unwrap()].to_string()));
            }
            json!(row)
        })
        .collect();
    assert_eq!(
        shown,
        json!(want),
        "the page's standings differ from the command's"
    );
    // Board 1's game record shows its signed result sheets.
    let sheets = b.text("#board-rows tr[data-board=\"1\"] td.record");
    assert!(sheets.contains("result sheets signed: black"), "{sheets}");
    // The board confirmed from its game record counts it.
    let board1 = b.text("#board-rows tr[data-board=\"1\"] td.result");
    assert!(!board1.contains('—'), "{board1}");

    // The .h9 download is `kifu tournament export --format h9`'s file.
    let h9 = b.eval("fetch(document.getElementById('h9').href).then(r => r.text())");
    let cli_h9 = ok(&through(
        &url,
        &[
            "tournament",
            "export",
            SHORT,
            "--format",
            "h9",
            "--after-round",
            "1",
        ],
    ));
    assert_eq!(h9.as_str().unwrap(), cli_h9);
    assert!(
        cli_h9.contains("Desk Open") || cli_h9.contains("Desk"),
        "{cli_h9}"
    );

    // Every fact is signed by the page's key.
    let bytes = {
        let r = ureq::get(&format!("{url}/tournaments/{tid}/records"))
            .call()
            .map(|r| r.into_reader());
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut r.expect("records"), &mut v).unwrap();
        v
    };
    let records = kifu_ledger::archive::read(&bytes).expect("archive");
    assert_eq!(records.len() as u64, seq(&mut b) + 1);
    for r in &records {
        assert_eq!(r.decode().unwrap().signer.to_hex(), desk_key);
    }
    // The checkpoint names the demo game.
    assert!(records.iter().any(|r| matches!(
        &r.decode().unwrap().body,
        kifu_ledger::Body::GameCheckpointed(c) if hex::encode(c.game) == game
    )));

    let o = through(&url, &["tournament", "verify", SHORT]);
    assert!(o.status.success(), "{}", err(&o));
    let o = through(&url, &["verify"]);
    assert!(o.status.success(), "{}", err(&o));

    b.switch(&desk);
    b.eval("(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); return true; })()");
    let shot = b.screenshot();
    assert!(shot.starts_with(b"\x89PNG"));
    std::fs::create_dir_all(artifacts_dir()).ok();
    std::fs::write(artifacts_dir().join("director-desk.png"), shot).ok();
    b.assert_no_csp_violation();
    // axe-core's check (WCAG 2 A and AA) of the desk as it stands.
    if let Some(axe) = axe_script() {
        b.eval(&format!("(() => {{ {axe}\n; return true; }})()"));
        let v = b.eval(
            "(async () => { const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }); return r.violations.map(v => v.id + ': ' + v.help + ' (' + v.nodes.map(n => n.target.join(' ')).join(', ') + ')'); })()",
        );
        assert_eq!(v, json!([]), "accessibility violations");
    }
    server.stop();
}

/// Sets the file input of form `form` to a file named `name` holding
/// `text`, and submits the form.
fn submit_file(b: &mut Browser, form: &str, name: &str, text: &str) {
    let text = serde_json::to_string(text).unwrap();
    b.eval(&format!(
        "(() => {{ const f = document.getElementById({form:?}); const dt = new DataTransfer(); dt.items.add(new File([{text}], {name:?}, {{ type: 'text/xml' }})); f.elements.file.files = dt.files; f.requestSubmit(); return true; }})()"
    ));
}

#[test]
fn the_desk_imports_an_opengotha_file_and_pairs_a_round_from_it() {
    let Some(program) = browser_or_skip("the director's desk import test") else {
        return;
    };
    let full = std::fs::read_to_string(
        workspace().join("fixtures/tournament/opengotha-worked-example.xml"),
    )
    .unwrap();
    // The file as OpenGotha had it after round 1.
    let after_round_1: String = full
        .lines()
        .filter(|l| !l.contains("roundNumber=\"2\"") && !l.contains("roundNumber=\"3\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    // A tablet held upright.
    b.new_context(768, 1024);
    b.goto(&format!("{url}/director"));
    b.wait_for(
        "the desk",
        "!!document.body && document.body.dataset.ready === '1'",
    );
    let desk_key = b
        .eval("document.getElementById('fingerprint').dataset.key")
        .as_str()
        .unwrap()
        .to_string();
    submit_file(&mut b, "import-form", "wex-round1.xml", &after_round_1);
    message(&mut b, "import of wex-round1.xml: tournament wex created");
    b.wait_for("the desk", "!document.getElementById('desk').hidden");
    b.wait_for(
        "the players",
        "document.querySelectorAll('#player-rows tr').length === 6",
    );
    // Round 2's pairing from the file as it is now.
    b.eval("(() => { const r = document.getElementById('round'); r.value = '2'; r.dispatchEvent(new Event('change')); return true; })()");
    b.wait_for(
        "round 2",
        "document.getElementById('h9').href.endsWith('round=2')",
    );
    submit_file(&mut b, "pair-opengotha-form", "wex.xml", &full);
    message(&mut b, "round 2 from wex.xml: 3 facts written");
    let p = get(&format!("{url}/tournaments/wex/pairings?round=2"));
    let boards: Vec<(u64, String, String)> = p["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["board"].as_u64().unwrap(),
                x["white"]["id"].as_str().unwrap().to_string(),
                x["black"]["id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        boards,
        [
            (1, "GAMMACHO".to_string(), "ALPHAANA".to_string()),
            (2, "BETABEN".to_string(), "EPSEVE".to_string()),
            (3, "DELTADAN".to_string(), "ZETAFAY".to_string()),
        ]
    );
    // The same file imported by the command line gives round 1's standings.
    let local = dir.path().join("local");
    let file = dir.path().join("wex.xml");
    std::fs::write(&file, &full).unwrap();
    ok(&run(
        &local,
        &["keygen", dir.path().join("dir").to_str().unwrap()],
    ));
    ok(&run(
        &local,
        &[
            "tournament",
            "import-opengotha",
            file.to_str().unwrap(),
            "--key",
            dir.path().join("dir.key").to_str().unwrap(),
        ],
    ));
    let args = [
        "tournament",
        "standings",
        "wex",
        "--after-round",
        "1",
        "--json",
    ];
    let here: Value = serde_json::from_str(&ok(&run(&local, &args))).unwrap();
    let served: Value = serde_json::from_str(&ok(&through(&url, &args))).unwrap();
    assert_eq!(here, served);
    // Every fact signed by the desk's key.
    let r = ureq::get(&format!("{url}/tournaments/wex/records"))
        .call()
        .unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut r.into_reader(), &mut bytes).unwrap();
    let records = kifu_ledger::archive::read(&bytes).unwrap();
    assert!(records.len() > 10);
    for r in &records {
        assert_eq!(r.decode().unwrap().signer.to_hex(), desk_key);
    }
    // Nothing wider than the tablet's screen, and every button a finger's
    // size.
    let overflow = b.eval("document.documentElement.scrollWidth <= window.innerWidth");
    assert_eq!(
        overflow,
        json!(true),
        "the desk scrolls sideways on a tablet"
    );
    let small = b.eval("[...document.querySelectorAll('button')].filter(x => x.offsetParent && x.getBoundingClientRect().height < 44).map(x => x.id || x.textContent)");
    assert_eq!(small, json!([]), "buttons smaller than 44 px");
    b.assert_no_csp_violation();
    server.stop();
}

/// How far the page's content reaches below the message log, in CSS
/// pixels, scrolled to its end (0 or less: nothing under the log).
fn under_the_log(b: &mut Browser) -> f64 {
    b.eval("(() => { window.scrollTo(0, document.documentElement.scrollHeight); const top = document.getElementById('log').getBoundingClientRect().top; let low = 0; for (const el of document.querySelectorAll('#desk tr, #desk button, #desk a, #desk input, #desk select')) { const r = el.getBoundingClientRect(); if (r.height > 0 && el.offsetParent !== null) low = Math.max(low, r.bottom); } return low - top; })()")
        .as_f64()
        .unwrap_or(f64::MAX)
}

#[test]
fn the_desk_signs_only_into_the_tournament_it_shows_and_its_log_covers_nothing() {
    let Some(program) = browser_or_skip("the director's desk test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    let desk = b.new_context(1280, 800);
    b.switch(&desk);
    b.goto(&format!("{url}/director"));
    b.wait_for(
        "the desk",
        "!!document.body && document.body.dataset.ready === '1'",
    );
    // The settings' defaults are shown, as the library fills them in.
    b.wait_for(
        "the defaults",
        "document.querySelector('#settings [name=bar]').placeholder === '4d'",
    );
    assert_eq!(
        b.eval("document.querySelector('#settings [name=floor]').placeholder"),
        json!("20k")
    );
    submit(
        &mut b,
        "create-form",
        json!({"name": "Alpha Cup", "short_name": "alpha", "rounds": 3, "director_name": "Dana", "time_zone": "",
            "bar": "2d", "floor": "15k", "bye_mms": "0.5", "round_down": "false", "handicap_reduction": "1"}),
    );
    message(&mut b, "tournament alpha created");
    // Every setting the desk offers is the genesis's.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut ureq::get(&format!("{url}/tournaments/alpha/records"))
            .call()
            .unwrap()
            .into_reader(),
        &mut bytes,
    )
    .unwrap();
    let genesis = kifu_ledger::archive::read(&bytes).unwrap()[0]
        .decode()
        .unwrap();
    let kifu_ledger::Body::TournamentCreated(g) = genesis.body else {
        panic!("not a tournament genesis");
    };
    assert_eq!(
        (
            g.mm_bar.as_str(),
            g.mm_floor.as_str(),
            g.mms2_bye,
            g.round_down_bye_absent,
            g.handicap_reduction
        ),
        ("2d", "15k", 1, false, 1)
    );
    b.wait_for(
        "Alpha shown",
        "document.getElementById('desk-title').textContent.includes('Alpha Cup')",
    );
    // The director looks at round 2 of Alpha, then creates a one-round
    // tournament.
    b.eval("(() => { const r = document.getElementById('round'); r.value = '2'; r.dispatchEvent(new Event('change')); return true; })()");
    b.eval("(() => { const s = document.getElementById('tournament'); s.value = ''; s.dispatchEvent(new Event('change')); return true; })()");
    b.wait_for(
        "the new tournament form",
        "!document.getElementById('create').hidden",
    );
    submit(
        &mut b,
        "create-form",
        json!({"name": "Beta Cup", "short_name": "beta", "rounds": 1, "director_name": "Dana", "time_zone": ""}),
    );
    message(&mut b, "tournament beta created");
    // Everything shown is Beta's, at its own round, and no round outside
    // it is spoken of.
    b.wait_for(
        "Beta shown at its round 1",
        "document.getElementById('desk-title').textContent.includes('Beta Cup') && document.getElementById('round').value === '1'",
    );
    let said = b.text("#messages");
    assert!(!said.contains("outside"), "{said}");
    // A registration signed now goes into the tournament shown.
    submit(
        &mut b,
        "register-form",
        json!({"id": "P1", "surname": "Adler", "rank": "2d"}),
    );
    message(&mut b, "registration of P1: 1 fact written");
    let beta = get(&format!("{url}/tournaments/beta"));
    let alpha = get(&format!("{url}/tournaments/alpha"));
    assert_eq!(
        (beta["seq"].clone(), alpha["seq"].clone()),
        (json!(1), json!(0))
    );
    // A name of 10,000 characters is refused in words by the library's
    // bound, whatever the page's field allows.
    let long = "N".repeat(10_000);
    let r = ureq::post(&format!("{url}/director/draft")).send_json(json!({
        "do": "create", "director_key": "00".repeat(32), "director_name": "D", "name": long,
        "short_name": "long", "rounds": 3,
    }));
    match r {
        Err(ureq::Error::Status(_, r)) => {
            let e: Value = r.into_json().unwrap();
            assert!(
                e["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("10000 characters long; the most is 200"),
                "{e}"
            );
        }
        other => panic!("a 10,000-character name was drafted: {other:?}"),
    }
    // The message log covers nothing: at the end of the page every row
    // and button is above it, at 1280x800 and 1024x768; and it folds away.
    for (w, h) in [(1280, 800), (1024, 768)] {
        b.size(w, h);
        let over = under_the_log(&mut b);
        assert!(
            over <= 0.5,
            "{w}x{h}: content reaches {over} px under the log"
        );
    }
    // What a director sees, kept for a look: a laptop and a phone.
    for (w, h, name) in [
        (1280, 800, "desk-1280x800.png"),
        (390, 844, "desk-390x844.png"),
    ] {
        b.size(w, h);
        b.eval("window.scrollTo(0, 0)");
        std::fs::create_dir_all(artifacts_dir()).unwrap();
        std::fs::write(artifacts_dir().join(name), b.screenshot()).unwrap();
    }
    b.size(1280, 800);
    b.click("#log-toggle");
    assert_eq!(
        b.eval("document.getElementById('messages').hidden"),
        json!(true)
    );
    assert!(under_the_log(&mut b) <= 0.5);
    b.assert_no_csp_violation();
}

/// A board page (`/play`) asks for a seat of tournament `short`, round 1;
/// the fingerprint it shows.
fn ask_seat(b: &mut Browser, url: &str, short: &str, board: u32, role: &str, name: &str) -> String {
    b.goto(&format!("{url}/play"));
    b.wait_for("the seat form", "!!document.getElementById('ask')");
    b.eval(&format!(
        "(() => {{ const v = (id, x) => document.getElementById(id).value = x; v('role', {role:?}); v('name', {name:?}); v('tournament', {short:?}); v('round', '1'); v('board', '{board}'); return true; }})()"
    ));
    b.click("#ask");
    b.wait_for("the request", "!!document.getElementById('waiting')");
    b.eval("document.getElementById('fingerprint').textContent")
        .as_str()
        .unwrap()
        .to_string()
}

/// Makes `round` the desk's round, as the director types it in the Round box.
fn desk_round(b: &mut Browser, round: u32) {
    b.eval(&format!("(() => {{ const r = document.getElementById('round'); r.value = '{round}'; r.dispatchEvent(new Event('change')); return true; }})()"));
    b.wait_for(
        &format!("round {round} shown"),
        &format!("document.getElementById('h9').href.endsWith('round={round}')"),
    );
}

/// The desk creates the round's games for the tablets waiting (the shared
/// recorder tablet ticked), starts the round's clocks, and says so.
fn desk_creates_and_starts(b: &mut Browser, round: u32, games: usize) {
    b.click("#create-games");
    b.wait_for(
        "the devices to confirm",
        "!document.getElementById('games-confirm').hidden && !!document.querySelector('#games-confirm input[name=recorder]')",
    );
    b.click("#games-confirm input[name=recorder]");
    b.click("#sign-games");
    b.wait_for(
        &format!("round {round}'s {games} games"),
        &format!("document.querySelectorAll('#games-created li[data-round=\"{round}\"]').length === {games}"),
    );
    b.click("#start-round");
    message(
        b,
        &format!("start of round {round}: Black's clock started on {games} of {games} boards"),
    );
}

/// A short game on a tablet pair: Black and White each play a stone and
/// press, then `loser` resigns on its own tablet.
fn play_on_two_tablets(b: &mut Browser, black: &str, white: &str, loser: &str) {
    for (s, seq, x, y) in [(black, 1, 2, 2), (white, 3, 6, 6)] {
        b.switch(s);
        at_seq(b, seq);
        b.click(&format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
        b.click("#press");
        at_seq(b, seq + 2);
    }
    b.switch(loser);
    at_seq(b, 5);
    b.click("#resign");
    b.wait_for("the dialog", "document.getElementById('confirm').open");
    b.click("#confirm-ok");
    at_seq(b, 6);
}

/// A short game on a shared recorder tablet: a stone and a press each, then
/// Black (to move) resigns.
fn play_on_a_recorder_tablet(b: &mut Browser, tablet: &str) -> String {
    b.switch(tablet);
    // Black makes a key of their own on the shared tablet, for this game:
    // none is left from the board's last game (other players sat there).
    at_seq(b, 1);
    assert_eq!(
        b.eval("document.getElementById('add-key-black').textContent"),
        json!("Add Black's key")
    );
    b.click("#add-key-black");
    b.wait_for(
        "Black's key on the tablet",
        "(document.getElementById('player-key-black') || {}).textContent.includes('waiting for the referee')",
    );
    let black = b
        .eval("document.getElementById('player-key-black').textContent")
        .as_str()
        .unwrap()
        .to_string();
    // Until the referee enrols it, the request can be sent again.
    assert_eq!(
        b.eval("document.getElementById('add-key-black').textContent"),
        json!("Ask again for Black's seat")
    );
    for (seq, x, y) in [(1, 2, 2), (3, 6, 6)] {
        at_seq(b, seq);
        b.click(&format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
        b.click("#press");
        at_seq(b, seq + 2);
    }
    b.click("#resign");
    b.wait_for("the dialog", "document.getElementById('confirm').open");
    b.click("#confirm-ok");
    at_seq(b, 6);
    black
}

/// The desk confirms each finished game's result, and enters each paper
/// board's from its result sheet.
fn desk_results(b: &mut Browser, games: &[u32], paper: &[(u32, &str)]) {
    for board in games {
        let button = format!("#board-rows button[data-board=\"{board}\"]");
        b.wait_for(
            &format!("board {board}'s game result"),
            &format!("!!document.querySelector({button:?})"),
        );
        let at = seq(b);
        b.click(&button);
        wait_seq(b, at + 1);
    }
    for (board, result) in paper {
        let at = seq(b);
        submit(
            b,
            "result-form",
            json!({"board": board, "result": result, "reason": "result sheet"}),
        );
        wait_seq(b, at + 1);
    }
}

/// A three-round McMahon tournament run from the desk alone, every page on
/// a venue network of 150 ms each way: round 1 has a board with the
/// players' own tablets, a board with one shared recorder tablet and two
/// paper boards; round 2 is played on the same tablets (each asks for its
/// next seat from its finished game); round 3 has a late entry and a
/// withdrawal, its results from paper. The standings the desk shows after
/// each round equal `kifu tournament standings`, the `.h9` download equals
/// `kifu tournament export`, and `kifu verify` and `kifu tournament verify`
/// pass.
#[test]
fn a_three_round_tournament_runs_from_the_desk_on_venue_wifi() {
    let Some(program) = browser_or_skip("the director's desk test") else {
        return;
    };
    const T: &str = "three";
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    let desk = b.new_context(1280, 800);
    b.venue_network(150);
    b.goto(&format!("{url}/director"));
    b.wait_for(
        "the desk",
        "!!document.body && document.body.dataset.ready === '1'",
    );
    // The time zone offered is the computer's; the director types the venue's.
    let offered = b.eval("document.getElementById('time-zone').value");
    assert!(offered.as_str().is_some_and(|z| !z.is_empty()), "{offered}");
    assert_eq!(
        offered,
        b.eval("Intl.DateTimeFormat().resolvedOptions().timeZone")
    );
    submit(
        &mut b,
        "create-form",
        json!({"name": "Three Rounds Open", "short_name": T, "rounds": 3, "director_name": "Dana", "city": "Hamburg", "country": "DE", "time_zone": "Asia/Tokyo"}),
    );
    message(&mut b, "tournament three created");
    b.wait_for(
        "the desk showing it",
        "document.getElementById('desk-title').textContent.includes('Three Rounds Open')",
    );
    // The time zone typed is stated right after the genesis.
    wait_seq(&mut b, 1);
    assert!(
        b.text("#desk-head").contains("times of day in Asia/Tokyo"),
        "{}",
        b.text("#desk-head")
    );
    let players = [
        ("P1", "Adler", "3d"),
        ("P2", "Brandt", "2d"),
        ("P3", "Claus", "1d"),
        ("P4", "Dorn", "1k"),
        ("P5", "Engel", "2k"),
        ("P6", "Fuchs", "3k"),
        ("P7", "Graf", "4k"),
        ("P8", "Hahn", "5k"),
    ];
    for (i, (id, surname, rank)) in players.into_iter().enumerate() {
        submit(
            &mut b,
            "register-form",
            json!({"id": id, "surname": surname, "given": "Kim", "rank": rank, "rating": 2100 - 100 * i as i64, "club": "Hamb", "country": "DE"}),
        );
        wait_seq(&mut b, 2 + i as u64);
    }
    // The tablets: board 1 has the players' own, board 2 one shared
    // recorder; boards 3 and 4 have none.
    let t1b = b.new_context(1024, 768);
    b.venue_network(150);
    ask_seat(&mut b, &url, T, 1, "black", "Board 1 black");
    let t1w = b.new_context(1024, 768);
    b.venue_network(150);
    ask_seat(&mut b, &url, T, 1, "white", "Board 1 white");
    let t2 = b.new_context(1024, 768);
    b.venue_network(150);
    ask_seat(&mut b, &url, T, 2, "recorder", "Board 2 clock");

    // The standings the desk shows after `round` are the command's.
    let standings_agree = |b: &mut Browser, round: u32, rows: usize| {
        let cli: Value = serde_json::from_str(&ok(&through(
            &url,
            &[
                "tournament",
                "standings",
                T,
                "--after-round",
                &round.to_string(),
                "--json",
            ],
        )))
        .unwrap();
        b.wait_for(
            "the standings",
            &format!("document.querySelectorAll('#standings-rows tr').length === {rows}"),
        );
        let shown = b.eval("[...document.querySelectorAll('#standings-rows tr')].map(tr => [tr.dataset.player, ...[...tr.cells].slice(2).map(c => c.textContent)])");
        let want: Vec<Value> = cli["table"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let mut row = vec![r["player"].clone()];
                for c in cli["criteria"].as_array().unwrap() {
                    row.push(json!(r["values"][c.as_str().unwrap()].to_string()));
                }
                json!(row)
            })
            .collect();
        assert_eq!(
            shown,
            json!(want),
            "round {round}: the desk's standings differ from the command's"
        );
    };

    // Round 1.
    b.switch(&desk);
    let at = seq(&mut b);
    submit(
        &mut b,
        "pair-form",
        json!({"text": "1 P1 P2\n2 P3 P4\n3 P5 P6\n4 P7 P8\n"}),
    );
    wait_seq(&mut b, at + 4);
    desk_creates_and_starts(&mut b, 1, 2);
    // Boards without a tablet are paper boards, said so, not a fault.
    for board in [3, 4] {
        let said = format!("board {board}: no tablet asks for it: a paper board");
        b.wait_for(
            "the paper boards",
            &format!("[...document.querySelectorAll('#messages p.ok')].some(p => p.textContent.includes({said:?}))"),
        );
    }
    let first_game = b
        .eval("document.querySelector('#games-created li[data-round=\"1\"][data-board=\"1\"]').dataset.game")
        .as_str()
        .unwrap()
        .to_string();
    play_on_two_tablets(&mut b, &t1b, &t1w, &t1w);
    let black_key_round_1 = play_on_a_recorder_tablet(&mut b, &t2);
    b.switch(&desk);
    desk_results(&mut b, &[1, 2], &[(3, "B+"), (4, "W+")]);
    let results =
        b.eval("[...document.querySelectorAll('#board-rows td.result')].map(td => td.textContent)");
    assert_eq!(results, json!(["0-1", "1-0", "0-1", "1-0"]));
    standings_agree(&mut b, 1, 8);

    // Round 2 on the same tablets: each asks for its next seat from its
    // finished game, the same board and seat, round 2.
    for s in [&t1b, &t1w, &t2] {
        b.switch(s);
        b.click("#next-game");
        b.wait_for("the seat form", "!!document.getElementById('ask')");
        assert_eq!(b.eval("document.getElementById('round').value"), json!("2"));
        b.click("#ask");
        b.wait_for("the request", "!!document.getElementById('waiting')");
    }
    b.switch(&desk);
    desk_round(&mut b, 2);
    let at = seq(&mut b);
    submit(
        &mut b,
        "pair-form",
        json!({"text": "1 P2 P5\n2 P1 P3\n3 P4 P7\n4 P6 P8\n"}),
    );
    wait_seq(&mut b, at + 4);
    desk_creates_and_starts(&mut b, 2, 2);
    play_on_two_tablets(&mut b, &t1b, &t1w, &t1b);
    let black_key_round_2 = play_on_a_recorder_tablet(&mut b, &t2);
    assert_ne!(
        black_key_round_1, black_key_round_2,
        "the shared tablet made round 2's Black a key of their own"
    );
    b.switch(&desk);
    desk_results(&mut b, &[1, 2], &[(3, "W+"), (4, "B+")]);
    standings_agree(&mut b, 2, 8);

    // Round 3: a late entry, a withdrawal, the results from paper.
    desk_round(&mut b, 3);
    let at = seq(&mut b);
    submit(
        &mut b,
        "register-form",
        json!({"id": "P9", "surname": "Ihle", "given": "Kim", "rank": "2k", "rating": 1950, "club": "Brem", "country": "DE"}),
    );
    wait_seq(&mut b, at + 1);
    submit(
        &mut b,
        "absent-form",
        json!({"player": "P8", "round": 3, "reason": "withdrawal"}),
    );
    wait_seq(&mut b, at + 2);
    submit(
        &mut b,
        "pair-form",
        json!({"text": "1 P1 P4\n2 P3 P2\n3 P5 P9\n4 P7 P6\n"}),
    );
    wait_seq(&mut b, at + 6);
    desk_results(&mut b, &[], &[(1, "W+"), (2, "B+"), (3, "W+"), (4, "W+")]);
    standings_agree(&mut b, 3, 9);

    // The .h9 download is the export's file; both verifies pass.
    let h9 = b.eval("fetch(document.getElementById('h9').href).then(r => r.text())");
    let cli_h9 = ok(&through(
        &url,
        &[
            "tournament",
            "export",
            T,
            "--format",
            "h9",
            "--after-round",
            "3",
        ],
    ));
    assert_eq!(h9.as_str().unwrap(), cli_h9);
    let o = through(&url, &["tournament", "verify", T]);
    assert!(o.status.success(), "{}", err(&o));
    let o = through(&url, &["verify"]);
    assert!(o.status.success(), "{}", err(&o));
    // The replay page shows a game's times of day in its tournament's zone,
    // and says so.
    let replay = b.new_context(1280, 800);
    b.goto(&format!("{url}/games/{first_game}"));
    b.wait_for(
        "the times' zone",
        "(document.getElementById('zone') || {textContent: ''}).textContent.includes('Asia/Tokyo (the zone of Three Rounds Open)')",
    );
    let first_at = get(&format!("{url}/games/{first_game}/records"))["records"][0]["at_ms"]
        .as_u64()
        .unwrap();
    // Tokyo is UTC+9 all year: the first event's hour there.
    let tokyo_hour = (first_at / 3_600_000 + 9) % 24;
    let shown = b.text(".timeline li[data-seq=\"0\"] time");
    assert!(
        shown.starts_with(&format!("{tokyo_hour:02}:")),
        "{shown} is not Tokyo's hour {tokyo_hour}"
    );
    for (s, page) in [
        (&desk, "desk"),
        (&t1b, "board 1 black"),
        (&t1w, "board 1 white"),
        (&t2, "board 2 recorder"),
        (&replay, "replay"),
    ] {
        b.switch(s);
        let errors = b.console_errors();
        assert!(errors.is_empty(), "{page}: console errors: {errors:#?}");
        b.assert_no_csp_violation();
    }
    server.stop();
}

/// "Pair round N" at the desk: the engine's draw of round 1 with why each
/// board is paired so, a colour swap tried and undone, then two players of
/// two boards swapped with a reason, signed by the page's key; the
/// command line, through the server, reports both boards as departures
/// with that reason (`check-pairing`, exit 3) and `verify` passes, saying
/// the same. Only what the page offers is tapped, on a tablet held
/// upright; no console error, no unhandled rejection.
#[test]
fn the_desk_pairs_a_round_with_the_engine_and_signs_a_swap_with_its_reason() {
    let Some(program) = browser_or_skip("the director's desk pairing test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(768, 1024);
    b.goto(&format!("{url}/director"));
    b.wait_for(
        "the desk",
        "!!document.body && document.body.dataset.ready === '1'",
    );
    submit(
        &mut b,
        "create-form",
        json!({"name": "Spring Open", "short_name": "spring", "rounds": 3, "time_zone": ""}),
    );
    message(&mut b, "tournament spring created");
    b.wait_for(
        "the desk showing it",
        "document.getElementById('desk-title').textContent === 'Spring Open (spring)'",
    );
    for (id, rank) in [
        ("P1", "3d"),
        ("P2", "1d"),
        ("P3", "2k"),
        ("P4", "5k"),
        ("P5", "12k"),
    ] {
        submit(
            &mut b,
            "register-form",
            json!({"id": id, "surname": format!("Player{id}"), "rank": rank}),
        );
        message(&mut b, &format!("registration of {id}: 1 fact written"));
    }
    b.wait_for(
        "the players",
        "document.querySelectorAll('#player-rows tr').length === 5",
    );
    b.wait_for(
        "the button naming round 1",
        "document.getElementById('pair-draw-show').textContent === 'Pair round 1'",
    );
    b.click("#pair-draw-show");
    b.wait_for(
        "the engine's draw",
        "document.querySelectorAll('#pair-draw-rows tr[data-table]').length === 2",
    );
    // Why: each board's scores and difference, colours, the handicap's
    // making; the bye and why.
    let why = b.text("#pair-draw-rows tr[data-why='2']");
    assert!(why.contains("MMS 28 against 25: difference 3"), "{why}");
    assert!(why.contains("difference 3, less 1: 2 stones"), "{why}");
    let bye = b.text("#pair-draw-bye");
    assert!(bye.contains("P5") && bye.contains("lowest"), "{bye}");
    let nothing = get(&format!("{url}/tournaments/spring"))["seq"].clone();
    // Table 1's colours swapped, with a reason, then undone.
    b.click("#pair-draw-rows button.colours[data-table='1']");
    b.eval("(() => { document.querySelector('#pair-draw-swap [name=reason]').value = 'asked'; return true; })()");
    b.click("#pair-draw-swap-add");
    b.wait_for(
        "table 1 changed",
        "!!document.querySelector('#pair-draw-rows tr.changed[data-table=\"1\"]')",
    );
    b.click("#pair-draw-swaps button.undo");
    b.wait_for(
        "the engine's draw again",
        "document.querySelectorAll('#pair-draw-rows tr.changed').length === 0",
    );
    // P1 (table 1, White) and P4 (table 2, Black) swapped, with the reason.
    let reason = "P1 and P2 are brothers and asked not to meet";
    b.click("#pair-draw-rows button.player[data-player='P1']");
    b.click("#pair-draw-rows button.player[data-player='P4']");
    b.eval(&format!(
        "(() => {{ document.querySelector('#pair-draw-swap [name=reason]').value = {reason:?}; return true; }})()"
    ));
    b.click("#pair-draw-swap-add");
    b.wait_for(
        "both tables changed",
        "document.querySelectorAll('#pair-draw-rows tr.changed[data-table]').length === 2",
    );
    let changed = b.text("#pair-draw-rows tr.why[data-why='1']");
    assert!(changed.contains(reason), "{changed}");
    assert_eq!(
        get(&format!("{url}/tournaments/spring"))["seq"],
        nothing,
        "nothing is signed before Sign"
    );
    // Nothing wider than the tablet, every control a finger's size.
    assert_eq!(
        b.eval("document.documentElement.scrollWidth <= window.innerWidth"),
        json!(true)
    );
    let small = b.eval("[...document.querySelectorAll('#pair-draw button')].filter(x => x.offsetParent && x.getBoundingClientRect().height < 44).map(x => x.id || x.textContent)");
    assert_eq!(small, json!([]), "buttons smaller than 44 px");
    // The draw as the director sees it, kept as an artifact.
    b.eval("(() => { document.getElementById('pair-draw').scrollIntoView(); return true; })()");
    std::fs::create_dir_all(artifacts_dir()).ok();
    std::fs::write(
        artifacts_dir().join("director-pair-draw.png"),
        b.screenshot(),
    )
    .ok();
    // axe-core's check (WCAG 2 A and AA) with the draw shown.
    if let Some(axe) = axe_script() {
        b.eval(&format!("(() => {{ {axe}\n; return true; }})()"));
        let v = b.eval(
            "(async () => { const r = await axe.run(document.getElementById('pair-draw'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }); return r.violations.map(v => v.id + ': ' + v.help + ' (' + v.nodes.map(n => n.target.join(' ')).join(', ') + ')'); })()",
        );
        assert_eq!(v, json!([]), "accessibility violations");
    }
    b.click("#pair-draw-sign");
    message(&mut b, "round 1 drawn by the engine: 4 facts written");
    b.wait_for(
        "the boards",
        "document.querySelectorAll('#board-rows tr').length === 2",
    );
    // The command line, through the server: both boards depart, each with
    // the reason; verify passes and says so.
    let o = through(&url, &["tournament", "check-pairing", "spring"]);
    assert_eq!(o.status.code(), Some(3));
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        said.matches(&format!("P1 and P4 swapped: {reason}"))
            .count(),
        2,
        "{said}"
    );
    let v: Value = serde_json::from_str(&ok(&through(
        &url,
        &["tournament", "verify", "spring", "--json"],
    )))
    .unwrap();
    assert_eq!(v["ok"], true, "{v}");
    let found = v["draws"][0]["departures"].as_array().unwrap();
    assert_eq!(found.len(), 2, "{v}");
    for d in found {
        assert_eq!(d["explained"], true, "{d}");
        assert_eq!(
            d["reasons"],
            json!([format!("P1 and P4 swapped: {reason}")])
        );
    }
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    b.assert_no_csp_violation();
    server.stop();
}
