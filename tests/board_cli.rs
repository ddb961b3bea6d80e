//! Signing at the board: devices ask `kifu serve` for seats, the referee
//! enrols them with `kifu new-game --device-request`, and the board page
//! (`/play`) signs every stone, press and claim with the device's own
//! Ed25519 key, in headless Chromium (one browser context per device). The
//! game then verifies with `kifu verify` and with the independent verifier
//! written from `docs/FORMAT.md`. Also: a shared board device through a
//! network outage (and a player's own key on it), a Renju game's forbidden
//! move and five, the draft preview, the enrolment's refusals, a device
//! bound mid-game, a stale device, a tampered page, a stranger's device, and
//! axe-core's accessibility check of the pages.
//!
//! Without Chromium the page tests say so and pass, unless
//! `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::browser::{browser_or_skip, Browser};
use common::devices::*;
use common::*;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// `doc` holds to the schema `docs/schema/NAME.schema.json`.
fn holds_to(name: &str, doc: &Value) {
    let path = workspace().join(format!("docs/schema/{name}.schema.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{doc} does not hold to {name}: {errors:?}"
    );
}

/// Where the tests keep what CI keeps (`KIFU_ARTIFACTS_DIR`, or
/// `target/artifacts`).
fn artifacts_dir() -> std::path::PathBuf {
    let d = match std::env::var_os("KIFU_ARTIFACTS_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => workspace().join("target/artifacts"),
    };
    std::fs::create_dir_all(&d).ok();
    d
}

/// axe-core's violations (WCAG 2 A and AA) on the current page.
fn accessibility_violations(b: &mut Browser, axe: &str) -> Vec<String> {
    b.eval(&format!("(() => {{ {axe}\n; return true; }})()"));
    let v = b.eval(
        "(async () => { const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }); return r.violations.map(v => v.id + ': ' + v.help + ' (' + v.nodes.map(n => n.target.join(' ')).join(', ') + ')'); })()",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn devices_ask_for_seats_and_the_referee_enrols_them_by_fingerprint() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let black = keygen(dir.path(), "black");
    let white = keygen(dir.path(), "white");
    keygen(dir.path(), "ref");
    let seat = |key: &str, role: &str, name: &str, board: u32| json!({"key": key, "role": role, "name": name, "tournament": "Open", "round": 2, "board": board});
    let ask =
        |name: &str, body: &Value| ask_signed(&url, &dir.path().join(format!("{name}.key")), body);
    let (s, b) = ask("black", &seat(&black, "black", "Ann", 7));
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["status"], "pending");
    assert_eq!(b["seat"], "Black at Open, round 2, board 7");
    let fp = b["fingerprint"].as_str().unwrap().to_string();
    assert_eq!(fp.len(), 24, "{fp}");
    // The same request again is the same request.
    let (s, again) = ask("black", &seat(&black, "black", "Ann", 7));
    assert_eq!((s, &again["id"]), (200, &b["id"]));
    let (s, w) = ask("white", &seat(&white, "white", "Bob", 7));
    assert_eq!(s, 201, "{w}");
    // Refused, and told why: a key that is no key, a seat that is no seat.
    let (s, e) = post(
        &format!("{url}/devices"),
        &json!({"key": "00", "role": "black", "name": "X", "signed_at_ms": 1}),
    );
    assert_eq!(s, 400);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("public key"),
        "{e}"
    );
    let stranger = keygen(dir.path(), "stranger");
    let (s, e) = ask("stranger", &seat(&stranger, "director", "Eve", 7));
    assert_eq!(s, 400);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("black, white, recorder or referee"),
        "{e}"
    );
    let (s, e) = ask("stranger", &seat(&stranger, "white", " ", 7));
    assert_eq!(s, 400, "{e}");

    // `kifu key fingerprint` prints the same form for a key file.
    let printed = ok(&kifu()
        .args(["key", "fingerprint"])
        .arg(dir.path().join("black.pub"))
        .arg(dir.path().join("black.key"))
        .output()
        .unwrap());
    assert_eq!(
        printed.lines().filter(|l| l.starts_with(&fp)).count(),
        2,
        "{printed}"
    );
    // The referee lists them with the fingerprints the devices show.
    let listed = ok(&kifu_at(&url, &["devices", "--pending"]));
    assert!(listed.contains(&fp) && listed.contains("Bob"), "{listed}");

    // A request for another board is not enrolled in this game.
    let (_, other) = ask("stranger", &seat(&stranger, "white", "Eve", 8));
    let other_id = other["id"].as_str().unwrap();
    let ref_pub = dir.path().join("ref.pub");
    let ref_key = dir.path().join("ref.key");
    let referee = format!("Ref={}", ref_pub.display());
    let base = [
        "new-game",
        "--key",
        ref_key.to_str().unwrap(),
        "--referee",
        &referee,
        "--size",
        "9",
        "--time",
        "fischer:10m+10s",
        "--tournament",
        "Open",
        "--round",
        "2",
        "--board",
        "7",
    ];
    let mut wrong = base.to_vec();
    wrong.extend([
        "--device-request",
        b["id"].as_str().unwrap(),
        "--device-request",
        other_id,
    ]);
    let o = kifu_at(&url, &wrong);
    assert!(!o.status.success());
    assert!(err(&o).contains("board 8"), "{}", err(&o));
    assert!(get(&format!("{url}/games"))["games"]
        .as_array()
        .unwrap()
        .is_empty());

    let mut args = base.to_vec();
    args.extend([
        "--device-request",
        b["id"].as_str().unwrap(),
        "--device-request",
        w["id"].as_str().unwrap(),
        "--json",
    ]);
    let o = kifu_at(&url, &args);
    let made: Value = serde_json::from_str(&ok(&o)).unwrap();
    assert!(
        err(&o).contains(&fp),
        "the referee sees the fingerprint: {}",
        err(&o)
    );
    let game = made["game"].as_str().unwrap().to_string();
    // The device learns its game, with its seat.
    let mine = get(&format!("{url}/devices/{}", b["id"].as_str().unwrap()));
    assert_eq!(mine["status"], "enrolled");
    assert_eq!(mine["games"][0]["game"], game.as_str());
    assert_eq!(mine["games"][0]["roles"], json!(["black"]));
    // Whether the game is at the seat it asked for, as its schema says.
    assert_eq!(mine["games"][0]["asked"], true, "{mine}");
    holds_to("api-device", &mine);
    holds_to("api-devices", &get(&format!("{url}/devices")));
    let pending = get(&format!("{url}/devices?pending=1"));
    let ids: Vec<&str> = pending["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![other_id]);
    // White's tablet breaks: a new one asks for the seat, and the referee's
    // `key_replaced` binds it to the running game.
    let spare = keygen(dir.path(), "spare");
    let (_, sp) = ask("spare", &seat(&spare, "white", "Bob", 7));
    let sp_id = sp["id"].as_str().unwrap().to_string();
    assert_eq!(get(&format!("{url}/devices/{sp_id}"))["status"], "pending");
    ok(&kifu_at(
        &url,
        &[
            "key",
            "replace",
            &game,
            "--participant",
            "white",
            "--new-key",
            &spare,
            "--key",
            ref_key.to_str().unwrap(),
            "--reason",
            "tablet broken",
        ],
    ));
    let bound = get(&format!("{url}/devices/{sp_id}"));
    assert_eq!(bound["status"], "enrolled", "{bound}");
    assert_eq!(bound["games"][0]["roles"], json!(["white"]));
    assert_eq!(
        get(&format!("{url}/devices/{}", w["id"].as_str().unwrap()))["status"],
        "pending"
    );
    // The requests outlive the server.
    drop(server);
    let listed = ok(&run(&data, &["devices", "--json"]));
    let v: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(v["requests"].as_array().unwrap().len(), 4);
}

#[test]
fn a_draft_is_previewed_with_the_clause_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    keygen(dir.path(), "ref");
    let black = keygen(dir.path(), "b");
    let white = keygen(dir.path(), "w");
    let p = |n: &str| {
        format!(
            "{n}={}",
            dir.path()
                .join(format!("{}.pub", n.to_lowercase().chars().next().unwrap()))
                .display()
        )
    };
    let o = kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            dir.path().join("ref.key").to_str().unwrap(),
            "--referee",
            &format!("Ref={}", dir.path().join("ref.pub").display()),
            "--black",
            &p("B"),
            "--white",
            &p("W"),
            "--size",
            "9",
            "--time",
            "fischer:10m+10s",
        ],
    );
    let game = ok(&o).trim().to_string();
    let append = |key: &str, body: Value| {
        let o = kifu()
            .args(["--server", &url, "append", &game, "--key"])
            .arg(dir.path().join(key))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin
                    .take()
                    .unwrap()
                    .write_all(body.to_string().as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        ok(&o);
    };
    let stone = |c: &str, x: u8, y: u8| json!({"stone_placed": {"player": c, "stone": c, "point": {"x": x, "y": y}}});
    append("ref.key", json!({"clock_started": {"running": "black"}}));
    append("b.key", stone("black", 1, 0));
    append("b.key", json!({"clock_pressed": {"player": "black"}}));
    append("w.key", stone("white", 4, 4));
    append("w.key", json!({"clock_pressed": {"player": "white"}}));
    append("b.key", stone("black", 0, 1));
    append("b.key", json!({"clock_pressed": {"player": "black"}}));
    let head = get(&format!("{url}/games/{game}/head"));
    // White's self-capture in the corner: illegal under LGC 2023, with the clause.
    let (s, v) = post(
        &format!("{url}/games/{game}/preview"),
        &json!({"body": stone("white", 0, 0), "signer": white}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["illegal_move"], true, "{v}");
    assert_eq!(v["seq"], head["seq"].as_u64().unwrap() + 1);
    assert!(v["refused"].is_null());
    let c = &v["consequences"][0];
    assert!(c["what"].as_str().unwrap().contains("self-capture"), "{c}");
    assert!(c["rule"].as_str().unwrap().contains("LGC 2023"), "{c}");
    assert!(c["quote"].is_string(), "{c}");
    // A legal move is not illegal; a move signed for the opponent is refused.
    let (_, legal) = post(
        &format!("{url}/games/{game}/preview"),
        &json!({"body": stone("white", 5, 5), "signer": white}),
    );
    assert_eq!(legal["illegal_move"], false, "{legal}");
    assert_eq!(
        legal["pass_stones"], true,
        "LGC 2023 hands over pass stones: {legal}"
    );
    let (_, theirs) = post(
        &format!("{url}/games/{game}/preview"),
        &json!({"body": stone("white", 5, 5), "signer": black}),
    );
    assert!(
        theirs["refused"]
            .as_str()
            .unwrap()
            .contains("only the player concerned"),
        "{theirs}"
    );
    // Bad drafts say why.
    let (s, e) = post(
        &format!("{url}/games/{game}/preview"),
        &json!({"body": {"nothing": {}}, "signer": white}),
    );
    assert_eq!(s, 400, "{e}");
    // Nothing was stored.
    assert_eq!(get(&format!("{url}/games/{game}/head")), head);
}

// ---------------------------------------------------------------- pages

/// The page's device asks for a seat; the fingerprint it shows.
fn ask_for_seat(b: &mut Browser, url: &str, role: &str, name: &str, board: u32) -> String {
    b.goto(&format!("{url}/play"));
    b.wait_for("the seat form", "!!document.getElementById('ask')");
    b.eval(&format!(
        "(() => {{ const v = (id, x) => document.getElementById(id).value = x; v('role', {role:?}); v('name', {name:?}); v('tournament', 'Open'); v('round', '1'); v('board', '{board}'); return true; }})()"
    ));
    b.click("#ask");
    b.wait_for("the request", "!!document.getElementById('waiting')");
    b.text("#fingerprint")
}

/// Waits until the page has drawn the game at event `seq` or later.
fn at_seq(b: &mut Browser, seq: u64) {
    b.wait_for(
        &format!("event {seq}"),
        &format!("Number((document.getElementById('main') || {{dataset: {{}}}}).dataset.lastSeq) >= {seq}"),
    );
}

fn tap(b: &mut Browser, x: u8, y: u8) {
    b.click(&format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
}

/// Waits until a message containing `what` is shown.
fn message(b: &mut Browser, what: &str) {
    b.wait_for(
        &format!("a message with {what:?}"),
        &format!("[...document.querySelectorAll('#messages p')].some(p => p.textContent.includes({what:?}))"),
    );
}

/// Signs `body` in the current page with the referee's PEM key, with the
/// record library, and submits it; the server's answer.
fn referee_signs(b: &mut Browser, pem: &str, public: &str, game: &str, body: Value) -> Value {
    b.eval(&format!(
        r#"(async () => {{
            const rec = await import('/web/record.js');
            const key = await rec.importPkcs8Pem({pem:?});
            const h = await (await fetch('/games/{game}/head')).json();
            const s = await rec.signEvent(key, {{ chain: '{game}', seq: h.seq + 1, prev_hash: h.hash, at_ms: Date.now(), signer: '{public}', body: {body} }});
            const r = await fetch('/records', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: JSON.stringify({{ records: [s.hex] }}) }});
            return await r.json();
        }})()"#
    ))
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

/// The game's archive verifies with `kifu verify` and with the independent
/// verifier of `docs/FORMAT.md` (when python3 has blake3 and cryptography).
fn verifies_everywhere(dir: &Path, url: &str, game: &str) {
    let bytes = {
        let mut v = Vec::new();
        use std::io::Read;
        ureq::get(&format!("{url}/games/{game}/archive"))
            .call()
            .unwrap()
            .into_reader()
            .read_to_end(&mut v)
            .unwrap();
        v
    };
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
    let python = Command::new("python3")
        .args(["-c", "import blake3, cryptography"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !python {
        assert!(
            !peers_required(),
            "python3 with blake3 and cryptography is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!(
            "skipped the independent verifier: python3 with blake3 and cryptography is absent"
        );
        return;
    }
    let o = Command::new("python3")
        .arg(workspace().join("tests/peers/format_verifier.py"))
        .arg(&file)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|_| panic!("verifier: {}", String::from_utf8_lossy(&o.stderr)));
    assert!(
        o.status.success() && v["ok"] == json!(true),
        "the independent verifier disagrees: {v}"
    );
}

/// A server on a fresh data directory, the referee's key (`ref.key`,
/// `ref.pub` in `dir`) and a browser: what every page test starts with.
struct Venue {
    dir: tempfile::TempDir,
    server: Served,
    url: String,
    ref_pub: String,
    ref_pem: String,
    b: Browser,
}

fn venue(program: &str) -> Venue {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    let ref_pub = keygen(dir.path(), "ref");
    let ref_pem = std::fs::read_to_string(dir.path().join("ref.key")).unwrap();
    let b = Browser::start(program, &dir.path().join("chromium"));
    Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        b,
    }
}

#[test]
fn a_go_game_is_signed_move_by_move_on_the_players_own_devices() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        mut b,
        ..
    } = venue(program);
    let black = b.new_context(1024, 768);
    let fp_black = ask_for_seat(&mut b, &url, "black", "Ann", 1);
    let white = b.new_context(1024, 768);
    let fp_white = ask_for_seat(&mut b, &url, "white", "Bob", 1);
    assert_ne!(fp_black, fp_white);
    if let Some(axe) = axe_script() {
        let v = accessibility_violations(&mut b, &axe);
        assert!(v.is_empty(), "the waiting page: {v:#?}");
    }
    // The referee compares the fingerprints and enrols both devices.
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let by_fp = |fp: &str| {
        listed["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["fingerprint"] == fp)
            .cloned()
            .expect("listed with the page's fingerprint")
    };
    let (rb, rw) = (by_fp(&fp_black), by_fp(&fp_white));
    let ref_key = dir.path().join("ref.key");
    let referee_arg = format!("Ref={}", dir.path().join("ref.pub").display());
    let made: Value = serde_json::from_str(&ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            ref_key.to_str().unwrap(),
            "--referee",
            &referee_arg,
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
            "--json",
        ],
    )))
    .unwrap();
    let game = made["game"].as_str().unwrap().to_string();
    for s in [&black, &white] {
        b.switch(s);
        b.wait_for("the game", "!!document.getElementById('press')");
        assert!(b
            .eval("location.pathname")
            .as_str()
            .unwrap()
            .ends_with(&game));
    }
    // The referee's device: a third context holding the referee's key.
    let referee = b.new_context(800, 600);
    b.goto(&format!("{url}/web/board.css"));
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");

    let play = |b: &mut Browser, s: &str, seq: u64, x: u8, y: u8| {
        b.switch(s);
        at_seq(b, seq);
        tap(b, x, y);
        at_seq(b, seq + 1);
        b.click("#press");
        at_seq(b, seq + 2);
    };
    play(&mut b, &black, 1, 1, 0);
    play(&mut b, &white, 3, 4, 4);
    play(&mut b, &black, 5, 0, 1);
    // White's self-capture: the page says why, with the clause, and records
    // it only once White confirms.
    b.switch(&white);
    at_seq(&mut b, 7);
    // White's tablet mid-game, kept as an artifact (the README's picture),
    // and checked for accessibility.
    let tablet = b.screenshot();
    assert!(tablet.starts_with(b"\x89PNG"));
    std::fs::write(artifacts_dir().join("board-tablet.png"), tablet).ok();
    if let Some(axe) = axe_script() {
        let v = accessibility_violations(&mut b, &axe);
        assert!(v.is_empty(), "the board page: {v:#?}");
    }
    tap(&mut b, 0, 0);
    b.wait_for(
        "the illegal-move dialog",
        "document.getElementById('confirm').open",
    );
    let why = b.text("#confirm-body");
    assert!(
        why.contains("self-capture") && why.contains("LGC 2023"),
        "{why}"
    );
    b.click("#confirm-cancel");
    message(&mut b, "not played");
    tap(&mut b, 0, 0);
    b.wait_for(
        "the illegal-move dialog",
        "document.getElementById('confirm').open",
    );
    b.click("#confirm-ok");
    at_seq(&mut b, 8);
    b.click("#press");
    at_seq(&mut b, 9);
    // Black points it out.
    b.switch(&black);
    at_seq(&mut b, 9);
    b.click("#illegal");
    at_seq(&mut b, 10);
    message(&mut b, "recorded at event 10");
    // Both devices say what the rules make of it, with the clause.
    message(&mut b, "the game is unwound");
    b.switch(&white);
    message(&mut b, "the game is unwound");
    b.switch(&black);
    // Black calls the referee: the clocks stop, on both devices.
    b.click("#call-referee");
    at_seq(&mut b, 11);
    b.wait_for(
        "the clocks stopped",
        "document.getElementById('paused').textContent.length > 0",
    );
    b.switch(&white);
    at_seq(&mut b, 11);
    b.wait_for(
        "the clocks stopped",
        "document.getElementById('paused').textContent.length > 0",
    );
    let state = get(&format!("{url}/games/{game}/state"));
    assert!(
        state["state"]["clock"]["paused"].is_string(),
        "{}",
        state["state"]["clock"]
    );
    let to_move = state["state"]["to_move"]
        .as_str()
        .unwrap_or("black")
        .to_string();
    b.switch(&referee);
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"clock_resumed": {"running": to_move}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    // Passes with pass stones, each completed by a press, until play
    // pauses after the passes in which White passes last (LGC 2023, "Ending
    // the game", 3).
    let mut seq = 12;
    for _ in 0..4 {
        let st = get(&format!("{url}/games/{game}/state"));
        if st["state"]["phase"]["phase"] == "status_assessment" {
            break;
        }
        let mover = st["state"]["to_move"].as_str().unwrap_or("black");
        let s = if mover == "black" { &black } else { &white };
        b.switch(s);
        at_seq(&mut b, seq);
        let label = b.text("#pass");
        assert!(label.contains("pass stone"), "{label}");
        b.click("#pass");
        at_seq(&mut b, seq + 1);
        b.click("#press");
        at_seq(&mut b, seq + 2);
        seq += 2;
    }
    let st = get(&format!("{url}/games/{game}/state"));
    assert_eq!(
        st["state"]["phase"]["phase"], "status_assessment",
        "{}",
        st["text"]
    );
    // Dead stones agreed (none), then both result sheets signed.
    for s in [&black, &white] {
        b.switch(s);
        at_seq(&mut b, seq);
        b.click("#dead");
        b.click("#dead");
        seq += 1;
        at_seq(&mut b, seq);
    }
    for s in [&black, &white] {
        b.switch(s);
        at_seq(&mut b, seq);
        b.click("#sign-sheet");
        seq += 1;
        at_seq(&mut b, seq);
    }
    let shot = b.screenshot();
    assert!(shot.starts_with(b"\x89PNG"));
    // The pages ran under `default-src 'self'` and nothing was blocked.
    for s in [&black, &white] {
        b.switch(s);
        let blocked = b.eval("[...document.querySelectorAll('#messages p')].some(p => p.textContent.includes('security policy'))");
        assert_eq!(blocked, false);
    }

    // Every stone, pass and press was signed by the player's own device.
    let keys = [
        (rb["key"].as_str().unwrap().to_string(), "black"),
        (rw["key"].as_str().unwrap().to_string(), "white"),
    ];
    let recs = records(&url, &game);
    let mut counted = 0;
    for r in &recs {
        let kind = kind_of(r);
        if [
            "stone_placed",
            "clock_pressed",
            "pass",
            "result_sheet_signed",
            "status_agreed",
        ]
        .contains(&kind.as_str())
        {
            let signer = r["signer"].as_str().unwrap();
            let body = &r["body"][kind.as_str()];
            let seat = keys
                .iter()
                .find(|(k, _)| k == signer)
                .map(|(_, c)| *c)
                .unwrap_or_else(|| panic!("{kind} signed by {signer}, not a device"));
            if let Some(p) = body["player"].as_str() {
                assert_eq!(p, seat, "{r}");
            }
            counted += 1;
        }
    }
    assert!(counted >= 16, "{counted} records by the devices");
    // LGC 2023, "Ending the game", 1: a pass hands over a stone.
    for r in recs.iter().filter(|r| kind_of(r) == "pass") {
        assert_eq!(r["body"]["pass"]["pass_stone"], true, "{r}");
    }
    let kinds: Vec<String> = recs.iter().map(kind_of).collect();
    for k in [
        "illegal_move_noticed",
        "referee_called",
        "clock_resumed",
        "pass",
        "status_agreed",
        "result_sheet_signed",
    ] {
        assert!(kinds.iter().any(|x| x == k), "no {k} in {kinds:?}");
    }
    let sheets: Vec<&Value> = recs
        .iter()
        .filter(|r| kind_of(r) == "result_sheet_signed")
        .collect();
    assert_eq!(sheets.len(), 2);
    verifies_everywhere(dir.path(), &url, &game);
    std::fs::write(artifacts_dir().join("board-go.png"), shot).ok();
    drop(server);
}

#[test]
fn bad_devices_stale_devices_and_tampered_pages_cannot_fork_or_forge() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        mut b,
        ..
    } = venue(program);
    let black = b.new_context(1024, 768);
    // Black's device hears nothing live: it is a step behind when it acts.
    b.call("Network.enable", json!({}), true);
    b.call(
        "Network.setBlockedURLs",
        json!({"urls": ["*/feed/stream*"]}),
        true,
    );
    let fp_black = ask_for_seat(&mut b, &url, "black", "Ann", 1);
    let white = keygen(dir.path(), "white");
    let (_, rw) = ask_signed(
        &url,
        &dir.path().join("white.key"),
        &json!({"key": white, "role": "white", "name": "Bob"}),
    );
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let rb = listed["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["fingerprint"] == fp_black.as_str())
        .unwrap()
        .clone();
    let ref_key = dir.path().join("ref.key");
    let referee_arg = format!("Ref={}", dir.path().join("ref.pub").display());
    let game = ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            ref_key.to_str().unwrap(),
            "--referee",
            &referee_arg,
            "--size",
            "9",
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
        ],
    ))
    .trim()
    .to_string();
    b.wait_for("the game", "!!document.getElementById('press')");
    at_seq(&mut b, 0);
    // The referee starts the clock; Black's page has not heard of it.
    let referee = b.new_context(800, 600);
    b.goto(&format!("{url}/web/board.css"));
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    // A stale device: its record at the taken place is refused, it rebuilds
    // from the new head, and its next record follows it: no fork.
    b.switch(&black);
    tap(&mut b, 2, 2);
    message(&mut b, "another record was accepted at that place first");
    at_seq(&mut b, 1);
    tap(&mut b, 2, 2);
    message(&mut b, "recorded at event 2");
    let recs = records(&url, &game);
    assert_eq!(recs.len(), 3);
    // A tampered page: Black's own key signing White's move is refused.
    let r = b.eval(&format!(
        r#"(async () => {{
            const rec = await import('/web/record.js');
            const db = await new Promise((ok, no) => {{ const r = indexedDB.open('kifu-board', 1); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
            const pair = await new Promise((ok) => {{ const r = db.transaction('kv').objectStore('kv').get('keypair'); r.onsuccess = () => ok(r.result); }});
            const pub = rec.toHex(await rec.publicKeyBytes(pair.publicKey));
            const h = await (await fetch('/games/{game}/head')).json();
            const s = await rec.signEvent(pair.privateKey, {{ chain: '{game}', seq: h.seq + 1, prev_hash: h.hash, at_ms: Date.now(), signer: pub, body: {{ stone_placed: {{ player: 'white', stone: 'white', point: {{ x: 3, y: 3 }} }} }} }});
            const r = await fetch('/records', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: JSON.stringify({{ records: [s.hex] }}) }});
            return {{ status: r.status, body: await r.json() }};
        }})()"#
    ));
    assert_eq!(r["status"], 403, "{r}");
    assert_eq!(r["body"]["error"]["code"], "role_refused", "{r}");
    // A player's device without the network keeps its records: the next
    // one follows its own record still on its way (never two at one
    // place), and both are sent in order when the network is back.
    b.call(
        "Network.setBlockedURLs",
        json!({"urls": ["*/feed/stream*", "*/records"]}),
        true,
    );
    b.click("#draw-offer");
    b.wait_for(
        "the record kept",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '1'",
    );
    b.click("#draw-offer");
    b.wait_for(
        "the second record chained on the first",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '2'",
    );
    b.call(
        "Network.setBlockedURLs",
        json!({"urls": ["*/feed/stream*"]}),
        true,
    );
    at_seq(&mut b, 4);
    b.wait_for(
        "the outbox empty",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '0'",
    );
    let recs = records(&url, &game);
    assert_eq!(recs.len(), 5);
    assert_eq!(kind_of(&recs[3]), "draw_offered");
    assert_eq!(kind_of(&recs[4]), "draw_offered");
    assert!(!b.text("#messages").contains("waiting for the network"));
    // A device not on the roster: the page says so, and signs nothing.
    b.switch(&referee);
    b.goto(&format!("{url}/play/{game}"));
    b.wait_for("the refusal", "!!document.getElementById('not-on-roster')");
    let said = b.text("#not-on-roster");
    assert!(said.contains("not on this game's roster"), "{said}");
    assert_eq!(records(&url, &game).len(), 5);
    verifies_everywhere(dir.path(), &url, &game);
    drop(server);
}

/// A clock face (`9:41`, `1:02:03`, possibly followed by overtime) in
/// seconds: its first `m:ss` or `h:mm:ss`.
fn face_seconds(face: &str) -> u64 {
    let first = face.split_whitespace().next().unwrap_or("");
    first
        .split(':')
        .map(|p| {
            p.parse::<u64>()
                .unwrap_or_else(|_| panic!("a clock face: {face:?}"))
        })
        .fold(0, |acc, n| acc * 60 + n)
}

#[test]
fn a_shared_board_device_keeps_the_clock_and_the_record_through_an_outage() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let addr = url.trim_start_matches("http://").to_string();
    keygen(dir.path(), "ref");
    keygen(dir.path(), "b");
    keygen(dir.path(), "w");
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(1024, 768);
    let fp = ask_for_seat(&mut b, &url, "recorder", "Board 1 clock", 1);
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let req = listed["requests"][0].clone();
    assert_eq!(req["fingerprint"], fp.as_str());
    let d = |n: &str| dir.path().join(n).display().to_string();
    let game = ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            &d("ref.key"),
            "--referee",
            &format!("Ref={}", d("ref.pub")),
            "--black",
            &format!("Ann={}", d("b.pub")),
            "--white",
            &format!("Bob={}", d("w.pub")),
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
            req["id"].as_str().unwrap(),
        ],
    ))
    .trim()
    .to_string();
    b.wait_for("the game", "!!document.getElementById('start-clock')");
    b.click("#start-clock");
    at_seq(&mut b, 1);
    // Two moves with the server up: the shared device signs for both
    // players. The first by keyboard: arrows move the cursor, Enter plays.
    b.eval("document.getElementById('board').focus(), true");
    for (key, code) in [
        ("ArrowRight", 39),
        ("ArrowRight", 39),
        ("ArrowDown", 40),
        ("ArrowDown", 40),
    ] {
        b.key(key, code);
    }
    b.key("Enter", 13);
    at_seq(&mut b, 2);
    b.click("#press");
    at_seq(&mut b, 3);
    let first = records(&url, &game)[2].clone();
    assert_eq!(
        first["body"]["stone_placed"]["point"],
        json!({"x": 2, "y": 2}),
        "{first}"
    );
    tap(&mut b, 6, 6);
    at_seq(&mut b, 4);
    b.click("#press");
    at_seq(&mut b, 5);
    // The tablet keeps its page (a service worker) while the server answers.
    b.wait_for(
        "the page kept on the tablet",
        "!!navigator.serviceWorker && navigator.serviceWorker.controller !== null",
    );
    // The server stops; the device goes on.
    server.stop();
    b.wait_for(
        "the device to know it is offline",
        "(document.getElementById('net') || {dataset: {}}).dataset.online === '0'",
    );
    for (x, y) in [(2, 6), (6, 2)] {
        tap(&mut b, x, y);
        b.click("#press");
    }
    b.wait_for(
        "four records kept",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '4'",
    );
    b.wait_for(
        "the stones drawn",
        "document.querySelectorAll('#board g[data-stone]').length === 4",
    );
    // The clock runs here: Black's, after White's press.
    assert_eq!(
        b.eval("document.getElementById('clock-black').dataset.running"),
        "1"
    );
    let before = face_seconds(&b.text("#clock-black .face"));
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let after = face_seconds(&b.text("#clock-black .face"));
    assert!(
        after + 2 <= before,
        "the clock kept running: {before} s then {after} s"
    );
    let white_shown = face_seconds(&b.text("#clock-white .face"));
    // A reload while the server is away: the page comes from the tablet's
    // own copy, with the board, the clocks (Black's still running) and the
    // four records waiting, and the next move and press chain on them.
    b.goto(&format!("{url}/play/{game}"));
    b.wait_for(
        "the game drawn again without a server",
        "document.querySelectorAll('#board g[data-stone]').length === 4 \
         && (document.getElementById('net') || {dataset: {}}).dataset.queued === '4'",
    );
    assert_eq!(
        b.eval("document.getElementById('clock-black').dataset.running"),
        "1"
    );
    let black_after = face_seconds(&b.text("#clock-black .face"));
    assert!(
        black_after <= after && after - black_after <= 5,
        "Black's clock went on from {after} s, shows {black_after} s after the reload"
    );
    assert_eq!(face_seconds(&b.text("#clock-white .face")), white_shown);
    message(&mut b, "the server cannot be reached");
    for (x, y) in [(4, 4), (4, 6)] {
        tap(&mut b, x, y);
        b.click("#press");
    }
    b.wait_for(
        "eight records kept",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '8' \
         && document.querySelectorAll('#board g[data-stone]').length === 6",
    );
    let white_shown = face_seconds(&b.text("#clock-white .face"));
    // Thirty seconds without a server; a reload meanwhile (the records are
    // in IndexedDB, not in the page) once it is back, with sending blocked.
    std::thread::sleep(std::time::Duration::from_secs(27));
    b.call("Network.enable", json!({}), true);
    b.call(
        "Network.setBlockedURLs",
        json!({"urls": ["*/records"]}),
        true,
    );
    let server = Served::start_at(&data, &addr, &[]);
    b.goto(&format!("{url}/play/{game}"));
    b.wait_for(
        "the records still kept after the reload",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '8'",
    );
    assert_eq!(records(&url, &game).len(), 6);
    b.call("Network.setBlockedURLs", json!({"urls": []}), true);
    at_seq(&mut b, 13);
    for s in 6..=13 {
        message(&mut b, &format!("recorded at event {s}"));
    }
    b.wait_for(
        "the outbox empty",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '0'",
    );
    // Every record once, in order, signed by the device; the clocks of the
    // projection are what the device showed, to the clock's resolution.
    let recs = records(&url, &game);
    assert_eq!(recs.len(), 14);
    let kinds: Vec<String> = recs.iter().map(kind_of).collect();
    assert_eq!(
        kinds[2..].to_vec(),
        ["stone_placed", "clock_pressed"]
            .repeat(6)
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    );
    for r in &recs[1..] {
        assert_eq!(r["signer"], req["key"], "{r}");
    }
    // Each press, offline ones included, is the player's who just moved.
    for pair in recs[2..].chunks(2) {
        assert_eq!(
            pair[1]["body"]["clock_pressed"]["player"], pair[0]["body"]["stone_placed"]["player"],
            "{pair:?}"
        );
    }
    let text = get(&format!("{url}/games/{game}/state"))["text"].clone();
    let projected = face_seconds(text["white_clock"].as_str().unwrap());
    assert!(
        projected.abs_diff(white_shown) <= 1,
        "the device showed White {white_shown} s, the projection {projected} s"
    );
    // A player's own key on the shared device: made there, enrolled by the
    // referee (the game runs: `kifu key replace`), it signs what only the
    // player may state.
    b.click("#add-key-black");
    message(&mut b, "Black's key on this device");
    let listed: Value =
        serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json", "--pending"]))).unwrap();
    let black_key = listed["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["role"] == "black")
        .expect("the device asked for Black's seat")["key"]
        .as_str()
        .unwrap()
        .to_string();
    ok(&kifu_at(
        &url,
        &[
            "key",
            "replace",
            &game,
            "--participant",
            "black",
            "--new-key",
            &black_key,
            "--key",
            &d("ref.key"),
            "--reason",
            "Black signs on the board's device",
        ],
    ));
    b.wait_for(
        "Black's key enrolled",
        "(document.getElementById('player-key-black') || {dataset: {}}).dataset.enrolled === '1'",
    );
    let before = records(&url, &game).len() as u64;
    b.click("#protest");
    b.wait_for("the statement", "!!document.getElementById('confirm-text')");
    b.eval("document.getElementById('confirm-text').value = 'the clock was not reset', true");
    b.click("#confirm-ok");
    at_seq(&mut b, before);
    let recs = records(&url, &game);
    let protest = recs.last().unwrap();
    assert_eq!(kind_of(protest), "protest_declared", "{protest}");
    assert_eq!(
        protest["signer"],
        black_key.as_str(),
        "signed with Black's own key"
    );
    assert_eq!(
        protest["body"]["protest_declared"]["statement"],
        "the clock was not reset"
    );
    verifies_everywhere(dir.path(), &url, &game);
    drop(server);
}

/// A Renju point (`h8`) as the page's board coordinates (row 15 on top).
fn renju_xy(s: &str) -> (u8, u8) {
    let x = s.as_bytes()[0] - b'a';
    let row: u8 = s[1..].parse().expect("a row");
    (x, 15 - row)
}

#[test]
fn a_renju_game_on_two_devices_with_a_forbidden_move_pointed_out_and_a_five_declared() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        mut b,
        ..
    } = venue(program);
    let black = b.new_context(1024, 768);
    let fp_black = ask_for_seat(&mut b, &url, "black", "Ann", 2);
    let white = b.new_context(1024, 768);
    let fp_white = ask_for_seat(&mut b, &url, "white", "Bob", 2);
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let id = |fp: &str| {
        listed["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["fingerprint"] == fp)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (ib, iw) = (id(&fp_black), id(&fp_white));
    let d = |n: &str| dir.path().join(n).display().to_string();
    let new_game = |title: &str| {
        ok(&kifu_at(
            &url,
            &[
                "new-game",
                "--key",
                &d("ref.key"),
                "--referee",
                &format!("Ref={}", d("ref.pub")),
                "--game",
                "renju",
                "--size",
                "15",
                "--time",
                "sudden:30m",
                "--title",
                title,
                "--tournament",
                "Open",
                "--round",
                "1",
                "--board",
                "2",
                "--device-request",
                &ib,
                "--device-request",
                &iw,
            ],
        ))
        .trim()
        .to_string()
    };
    let referee = b.new_context(800, 600);
    b.goto(&format!("{url}/web/board.css"));
    // Plays the stones in order on the seat's device, each completed by a
    // press; the game's event count after them.
    let play = |b: &mut Browser, game: &str, moves: &[&str], mut seq: u64| -> u64 {
        for (i, m) in moves.iter().enumerate() {
            let s = if i % 2 == 0 { &black } else { &white };
            b.switch(s);
            b.goto(&format!("{url}/play/{game}"));
            at_seq(b, seq);
            let (x, y) = renju_xy(m);
            tap(b, x, y);
            at_seq(b, seq + 1);
            b.click("#press");
            at_seq(b, seq + 2);
            seq += 2;
        }
        seq
    };

    // Game 1: Black's i8 makes a double-three (h8 g8 i8, i8 i9 i10): the page
    // says it is forbidden, Black confirms, White points it out.
    let game = new_game("forbidden");
    b.switch(&referee);
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    let seq = play(
        &mut b,
        &game,
        &["h8", "a1", "g8", "a3", "i9", "o15", "i10", "c1"],
        1,
    );
    b.switch(&black);
    at_seq(&mut b, seq);
    b.wait_for(
        "the forbidden points drawn",
        "!!document.querySelector('g.forbidden[data-point=\"i8\"]')",
    );
    let (x, y) = renju_xy("i8");
    tap(&mut b, x, y);
    b.wait_for(
        "the forbidden-move dialog",
        "document.getElementById('confirm').open",
    );
    let why = b.text("#confirm-body");
    assert!(why.contains("double three") && why.contains("RIF"), "{why}");
    b.click("#confirm-ok");
    at_seq(&mut b, seq + 1);
    b.switch(&white);
    at_seq(&mut b, seq + 1);
    b.click("#forbidden");
    at_seq(&mut b, seq + 2);
    let recs = records(&url, &game);
    let pointed = recs
        .iter()
        .find(|r| kind_of(r) == "forbidden_move_pointed_out")
        .expect("pointed out");
    assert_eq!(
        pointed["body"]["forbidden_move_pointed_out"]["point"],
        json!({"x": x, "y": y})
    );
    let st = get(&format!("{url}/games/{game}/state"));
    assert!(
        st["text"]["result"]
            .as_str()
            .unwrap_or("")
            .starts_with("W+"),
        "{}",
        st["text"]
    );
    verifies_everywhere(dir.path(), &url, &game);

    // Game 2: Black makes five in a row and declares it.
    let game = new_game("five");
    b.switch(&referee);
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    let seq = play(
        &mut b,
        &game,
        &["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "l8"],
        1,
    );
    b.switch(&black);
    at_seq(&mut b, seq);
    b.click("#five");
    at_seq(&mut b, seq + 1);
    message(&mut b, "recorded at event");
    let recs = records(&url, &game);
    assert_eq!(kind_of(recs.last().unwrap()), "five_declared");
    for r in &recs[2..] {
        let kind = kind_of(r);
        let player = r["body"][kind.as_str()]["player"].as_str().unwrap();
        let key = if player == "black" {
            &listed["requests"][0]["key"]
        } else {
            &listed["requests"][1]["key"]
        };
        assert_eq!(&r["signer"], key, "{r}");
    }
    let st = get(&format!("{url}/games/{game}/state"));
    assert!(
        st["text"]["result"]
            .as_str()
            .unwrap_or("")
            .starts_with("B+"),
        "{}",
        st["text"]
    );
    verifies_everywhere(dir.path(), &url, &game);
    drop(server);
}

#[test]
fn a_renju_game_opened_under_the_rif_rule_on_two_devices_swap_and_fifth_move() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        mut b,
        ..
    } = venue(program);
    let black = b.new_context(1024, 768);
    let fp_black = ask_for_seat(&mut b, &url, "black", "Ann", 3);
    let white = b.new_context(1024, 768);
    let fp_white = ask_for_seat(&mut b, &url, "white", "Bob", 3);
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let request = |fp: &str| {
        listed["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["fingerprint"] == fp)
            .unwrap()
            .clone()
    };
    let (rb, rw) = (request(&fp_black), request(&fp_white));
    let d = |n: &str| dir.path().join(n).display().to_string();
    let game = ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            &d("ref.key"),
            "--referee",
            &format!("Ref={}", d("ref.pub")),
            "--game",
            "renju",
            "--size",
            "15",
            "--opening",
            "rif",
            "--time",
            "sudden:30m",
            "--title",
            "RIF opening",
            "--tournament",
            "Open",
            "--round",
            "1",
            "--board",
            "3",
            "--device-request",
            rb["id"].as_str().unwrap(),
            "--device-request",
            rw["id"].as_str().unwrap(),
        ],
    ))
    .trim()
    .to_string();
    let referee = b.new_context(800, 600);
    b.goto(&format!("{url}/web/board.css"));
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    let mut seq = 1;
    // Waits for the next event on the current device, after an action.
    let step = |b: &mut Browser, seq: &mut u64| {
        *seq += 1;
        at_seq(b, *seq);
    };
    let stone = |b: &mut Browser, p: &str, seq: &mut u64| {
        let (x, y) = renju_xy(p);
        tap(b, x, y);
        step(b, seq);
    };
    let open_on = |b: &mut Browser, ctx: &_, seq: u64| {
        b.switch(ctx);
        b.goto(&format!("{url}/play/{game}"));
        at_seq(b, seq);
    };

    // The tentative Black places the first three stones (black, white,
    // black: the page gives each its colour) and presses.
    open_on(&mut b, &black, seq);
    for p in ["h8", "i8", "i7"] {
        stone(&mut b, p, &mut seq);
    }
    b.click("#press");
    step(&mut b, &mut seq);
    // White swaps: the white seat now holds Black.
    open_on(&mut b, &white, seq);
    b.click("#swap");
    step(&mut b, &mut seq);
    b.click("#press");
    step(&mut b, &mut seq);
    // The black seat, holding White now, places the fourth (a white stone).
    open_on(&mut b, &black, seq);
    stone(&mut b, "g9", &mut seq);
    b.click("#press");
    step(&mut b, &mut seq);
    // The white seat, holding Black, offers two fifth moves.
    open_on(&mut b, &white, seq);
    b.click("#fifths");
    for p in ["k5", "d3"] {
        let (x, y) = renju_xy(p);
        tap(&mut b, x, y);
    }
    b.wait_for(
        "two points marked",
        "document.getElementById('fifths').textContent.includes('2 points')",
    );
    b.click("#fifths");
    step(&mut b, &mut seq);
    b.click("#press");
    step(&mut b, &mut seq);
    // The black seat chooses k5 by tapping it, then plays the sixth move
    // with white stones.
    open_on(&mut b, &black, seq);
    b.click("#fifth-choose");
    stone(&mut b, "k5", &mut seq);
    stone(&mut b, "j9", &mut seq);
    b.click("#press");
    step(&mut b, &mut seq);
    message(&mut b, "recorded at event");
    // The page says which colour the seat to move holds after the swap.
    let turn = b.text("main");
    assert!(turn.contains("White to play (holding Black)"), "{turn}");

    let recs = records(&url, &game);
    let kinds: Vec<String> = recs.iter().map(kind_of).collect();
    assert_eq!(
        kinds[2..],
        [
            "stone_placed",
            "stone_placed",
            "stone_placed",
            "clock_pressed",
            "opening_swap",
            "clock_pressed",
            "stone_placed",
            "clock_pressed",
            "fifths_offered",
            "clock_pressed",
            "fifth_chosen",
            "stone_placed",
            "clock_pressed",
        ],
        "{kinds:?}"
    );
    // Each stone's colour follows the opening; each record is signed by the
    // seat's own device key.
    let stones: Vec<&str> = recs
        .iter()
        .filter(|r| kind_of(r) == "stone_placed")
        .map(|r| r["body"]["stone_placed"]["stone"].as_str().unwrap())
        .collect();
    assert_eq!(stones, ["black", "white", "black", "white", "white"]);
    for r in &recs[2..] {
        let kind = kind_of(r);
        let player = r["body"][kind.as_str()]["player"].as_str().unwrap();
        let key = if player == "black" {
            &rb["key"]
        } else {
            &rw["key"]
        };
        assert_eq!(&r["signer"], key, "{r}");
    }
    let offered = recs
        .iter()
        .find(|r| kind_of(r) == "fifths_offered")
        .unwrap();
    let points = offered["body"]["fifths_offered"]["points"]
        .as_array()
        .unwrap()
        .clone();
    let want: Vec<Value> = ["k5", "d3"]
        .iter()
        .map(|p| {
            let (x, y) = renju_xy(p);
            json!({"x": x, "y": y})
        })
        .collect();
    assert_eq!(points.len(), 2);
    assert!(want.iter().all(|w| points.contains(w)), "{points:?}");
    let st = get(&format!("{url}/games/{game}/state"));
    assert_eq!(
        st["board_view"]["black_seat"],
        json!("white"),
        "{}",
        st["text"]
    );
    let rows = st["board_view"]["rows"].as_array().unwrap();
    let at = |p: &str| {
        let (x, y) = renju_xy(p);
        rows[y as usize].as_str().unwrap().as_bytes()[x as usize] as char
    };
    assert_eq!(
        ["h8", "i8", "i7", "g9", "k5", "j9"].map(at),
        ['X', 'O', 'X', 'O', 'X', 'O']
    );
    assert_eq!(at("d3"), '.', "the fifth not chosen is not on the board");
    b.switch(&referee);
    verifies_everywhere(dir.path(), &url, &game);
    drop(server);
}

/// Screenshots of the current page at a tablet's and a phone's size, into
/// the artifacts folder, named `{name}-tablet.png` and `{name}-phone.png`.
fn tablet_and_phone(b: &mut Browser, name: &str) {
    for (size, (w, h)) in [("tablet", (1024, 768)), ("phone", (390, 844))] {
        b.size(w, h);
        let png = b.screenshot();
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(artifacts_dir().join(format!("{name}-{size}.png")), png).ok();
    }
    b.size(1024, 768);
}

/// Whether the current page shows the element `selector`.
fn has(b: &mut Browser, selector: &str) -> bool {
    let sel = serde_json::to_string(selector).unwrap();
    b.eval(&format!("!!document.querySelector({sel})")) == json!(true)
}

/// Two player tablets at board 1 of "Open", round 1, each asking for its
/// seat (on a venue network of `latency` ms each way when given, from
/// before the request), the referee's game naming them (`size` lines,
/// `time` control), and the referee's clock started from a third browser
/// context: what a table with a tablet a player starts with.
struct PlayerTablets {
    black: String,
    white: String,
    referee: String,
    game: String,
    black_key: String,
    white_key: String,
}

fn player_tablets(v: &mut Venue, latency: Option<u64>, size: &str, time: &str) -> PlayerTablets {
    let (b, url) = (&mut v.b, v.url.clone());
    let seated = |b: &mut Browser, role: &str, name: &str| {
        let session = b.new_context(1024, 768);
        if let Some(ms) = latency {
            b.venue_network(ms);
        }
        let fp = ask_for_seat(b, &url, role, name, 1);
        (session, request_of(&url, &fp))
    };
    let (black, (rb, black_key)) = seated(b, "black", "Ann");
    let (white, (rw, white_key)) = seated(b, "white", "Bob");
    let ref_key = v.dir.path().join("ref.key");
    let referee_arg = format!("Ref={}", v.dir.path().join("ref.pub").display());
    let made: Value = serde_json::from_str(&ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            ref_key.to_str().unwrap(),
            "--referee",
            &referee_arg,
            "--size",
            size,
            "--time",
            time,
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
            "--json",
        ],
    )))
    .unwrap();
    let game = made["game"].as_str().unwrap().to_string();
    for s in [&black, &white] {
        b.switch(s);
        b.wait_for("the game", "!!document.getElementById('press')");
    }
    let referee = b.new_context(800, 600);
    b.goto(&format!("{url}/web/board.css"));
    let r = referee_signs(
        b,
        &v.ref_pem,
        &v.ref_pub,
        &game,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    PlayerTablets {
        black,
        white,
        referee,
        game,
        black_key,
        white_key,
    }
}

#[test]
fn a_real_game_at_a_real_table_on_venue_wifi() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let mut v = venue(program);
    let PlayerTablets {
        black,
        white,
        referee,
        game,
        ..
    } = player_tablets(&mut v, Some(150), "9", "fischer:10m+10s");
    let Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        mut b,
        ..
    } = v;

    // Each player taps the stone and presses the clock at once, as people
    // do, before the stone is acknowledged over the venue's network: both
    // are recorded, in order, and the opponent's tablet draws both.
    let stone_and_press = |b: &mut Browser, me: &str, other: &str, seq: u64, x: u8, y: u8| {
        b.switch(me);
        at_seq(b, seq);
        tap(b, x, y);
        b.click("#press");
        at_seq(b, seq + 2);
        b.switch(other);
        at_seq(b, seq + 2);
    };
    stone_and_press(&mut b, &black, &white, 1, 2, 2);
    stone_and_press(&mut b, &white, &black, 3, 6, 6);
    stone_and_press(&mut b, &black, &white, 5, 2, 6);
    let kinds: Vec<String> = records(&url, &game).iter().map(kind_of).collect();
    assert_eq!(
        kinds[1..],
        [
            "clock_started",
            "stone_placed",
            "clock_pressed",
            "stone_placed",
            "clock_pressed",
            "stone_placed",
            "clock_pressed"
        ]
    );
    for s in [&black, &white] {
        b.switch(s);
        let said = b.text("#messages");
        assert!(
            !said.contains("refused") && !said.contains("waiting for the network"),
            "{said}"
        );
    }
    // White taps Black's stone: an irregularity under LGC 2023, asked
    // first, with the clause; nothing is recorded when White cancels.
    b.switch(&white);
    at_seq(&mut b, 7);
    assert!(b.text("#turn").contains("Your move: White"));
    tap(&mut b, 2, 2);
    b.wait_for(
        "the irregular-move dialog",
        "document.getElementById('confirm').open",
    );
    assert_eq!(b.text("#confirm-title"), "This move is irregular");
    let why = b.text("#confirm-body");
    assert!(
        why.contains("occupied point") && why.contains("LGC 2023"),
        "{why}"
    );
    b.click("#confirm-cancel");
    message(&mut b, "not played");
    assert_eq!(records(&url, &game).len(), 8);
    // White calls the referee: both tablets say why the clocks stand, in
    // words.
    b.click("#call-referee");
    at_seq(&mut b, 8);
    for s in [&white, &black] {
        b.switch(s);
        at_seq(&mut b, 8);
        b.wait_for(
            "the clocks stopped, in words",
            "document.getElementById('paused').textContent.includes('to call the referee')",
        );
        assert!(!b.text("#paused").contains("CALL_REFEREE"));
    }
    tablet_and_phone(&mut b, "board-clocks-stopped");
    // The referee's judgement: play resumes. White's clock runs again on
    // both tablets.
    b.switch(&referee);
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &game,
        json!({"referee_ruling": {"kind": "judgement", "decision": "play resumes", "reasons": "nothing was wrong",
            "rules_cited": ["LGC 2023, \"Player responsibility\""], "effects": ["resume"]}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    for s in [&white, &black] {
        b.switch(s);
        at_seq(&mut b, 9);
        b.wait_for(
            "White's clock running again",
            "document.getElementById('clock-white').dataset.running === '1' && document.getElementById('paused').textContent === ''",
        );
    }
    let state = get(&format!("{url}/games/{game}/state?device=1"));
    assert_eq!(
        state["state"]["clock"]["running"], "white",
        "{}",
        state["state"]["clock"]
    );
    // White resigns: nobody is to move, no clock runs, and the tablets offer
    // what is left after a game.
    b.switch(&white);
    b.click("#resign");
    b.wait_for(
        "the resign dialog",
        "document.getElementById('confirm').open",
    );
    b.click("#confirm-ok");
    for s in [&white, &black] {
        b.switch(s);
        at_seq(&mut b, 10);
        b.wait_for(
            "the game over",
            "document.getElementById('turn').textContent.startsWith('Game over')",
        );
        assert!(b.text("#turn").contains("B+R"), "{}", b.text("#turn"));
        for gone in [
            "#press",
            "#pass",
            "#resign",
            "#call-referee",
            "#draw-offer",
            "#dead",
        ] {
            assert!(
                !has(&mut b, gone),
                "{gone} is still offered after the result"
            );
        }
        assert!(has(&mut b, "#sign-sheet"));
        assert!(has(&mut b, "#protest"));
        assert!(has(&mut b, "#appeal-9"), "the judgement may be appealed");
        assert_eq!(
            b.eval("document.querySelector('.clock.running') === null"),
            json!(true)
        );
        assert!(b.text("#missing").contains("Ann") && b.text("#missing").contains("Bob"));
    }
    tablet_and_phone(&mut b, "board-game-over");
    // Both sign their sheets; each tablet says who signed what.
    b.switch(&black);
    b.click("#sign-sheet");
    at_seq(&mut b, 11);
    b.wait_for("Ann's sheet", "!document.getElementById('sign-sheet')");
    b.switch(&white);
    at_seq(&mut b, 11);
    assert!(
        b.text("#signatures").contains("Ann"),
        "{}",
        b.text("#signatures")
    );
    b.click("#sign-sheet");
    at_seq(&mut b, 12);
    b.wait_for(
        "no sheet left to sign",
        "!document.getElementById('sign-sheet') && !document.getElementById('missing')",
    );
    tablet_and_phone(&mut b, "board-signed");
    // The chain reached a signed result: kifu verify says so.
    verifies_everywhere(dir.path(), &url, &game);
    let v: Value = serde_json::from_str(&ok(&kifu()
        .arg("verify")
        .arg(dir.path().join("game.kifu"))
        .arg("--json")
        .output()
        .unwrap()))
    .unwrap();
    assert_eq!(v["games"][0]["finished"], true, "{v}");
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    server.stop();
}

/// A whole game on two player tablets over a venue network that loses
/// things: 150 ms each way, one request in a hundred lost before it reaches
/// the server, and one submission's answer in twenty lost after the server
/// recorded it (the worst a loss can do: the tablet does not know its
/// record arrived). Thirty moves, each stone and press tapped at once,
/// then a resignation and both result sheets signed at the same moment:
/// every record arrives once, in order, signed by its seat, and both
/// tablets end on the same result.
#[test]
fn a_whole_game_on_two_tablets_through_a_network_that_loses_one_request_in_a_hundred() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let mut v = venue(program);
    let PlayerTablets {
        black,
        white,
        referee,
        game,
        black_key: key_black,
        white_key: key_white,
    } = player_tablets(&mut v, None, "9", "fischer:10m+10s");
    let Venue {
        dir,
        server,
        url,
        mut b,
        ..
    } = v;
    for s in [&black, &white] {
        b.switch(s);
        b.lossy_network(150, 100, 20);
    }
    // Black on columns B and C, White on G and H: no stone is ever taken.
    let moves: Vec<(u8, u8)> = (0..30u8)
        .map(|i| {
            let (col, row) = (i / 2 / 9, i / 2 % 9);
            if i % 2 == 0 {
                (1 + col, row)
            } else {
                (7 - col, row)
            }
        })
        .collect();
    for (i, (x, y)) in moves.iter().enumerate() {
        let (me, other) = if i % 2 == 0 {
            (&black, &white)
        } else {
            (&white, &black)
        };
        let seq = 1 + 2 * i as u64;
        b.switch(me);
        at_seq(&mut b, seq);
        tap(&mut b, *x, *y);
        b.click("#press");
        at_seq(&mut b, seq + 2);
        b.switch(other);
        at_seq(&mut b, seq + 2);
    }
    b.switch(&white);
    b.click("#resign");
    b.wait_for(
        "the resign dialog",
        "document.getElementById('confirm').open",
    );
    b.click("#confirm-ok");
    at_seq(&mut b, 62);
    // Both players sign their sheets at the same moment: both tablets sign
    // at event 63, one is recorded there, and the other tablet signs its
    // sheet again after it, saying so.
    for s in [&black, &white] {
        b.switch(s);
        at_seq(&mut b, 62);
    }
    for s in [&black, &white] {
        b.switch(s);
        b.click("#sign-sheet");
    }
    let mut rebased = 0;
    for s in [&black, &white] {
        b.switch(s);
        at_seq(&mut b, 64);
        if b.text("#messages")
            .contains("the other seat's record came first (event 63); signed again after it")
        {
            rebased += 1;
        }
    }
    assert_eq!(rebased, 1, "one sheet signed again after the other");
    for s in [&black, &white] {
        b.switch(s);
        at_seq(&mut b, 64);
        b.wait_for(
            "no sheet left to sign",
            "!document.getElementById('sign-sheet') && !document.getElementById('missing')",
        );
        assert!(b.text("#turn").contains("B+R"), "{}", b.text("#turn"));
        let errors = b.page_errors();
        assert!(errors.is_empty(), "page errors: {errors:#?}");
    }
    b.switch(&referee);
    // The network did lose things, both ways.
    let lost = |n: &AtomicU64| n.load(Ordering::SeqCst);
    let (seen, before, after) = (
        lost(&b.loss.seen),
        lost(&b.loss.requests_lost),
        lost(&b.loss.answers_lost),
    );
    assert!(
        before >= 3 && after >= 2,
        "{seen} requests, {before} lost before the server, {after} answers lost"
    );
    eprintln!("{seen} requests: {before} lost before the server, {after} answers lost after it");
    // Every record once, in order, each signed by its seat's key.
    let recs = records(&url, &game);
    assert_eq!(recs.len(), 65);
    for (i, (x, y)) in moves.iter().enumerate() {
        let (stone, press) = (&recs[2 + 2 * i], &recs[3 + 2 * i]);
        let (colour, key) = if i % 2 == 0 {
            ("black", &key_black)
        } else {
            ("white", &key_white)
        };
        assert_eq!(
            stone["body"]["stone_placed"]["point"],
            json!({"x": x, "y": y}),
            "{stone}"
        );
        assert_eq!(stone["body"]["stone_placed"]["player"], colour, "{stone}");
        assert_eq!(press["body"]["clock_pressed"]["player"], colour, "{press}");
        assert_eq!(&stone["signer"], key.as_str());
        assert_eq!(&press["signer"], key.as_str());
    }
    assert_eq!(kind_of(&recs[62]), "resigned");
    assert_eq!(recs[62]["signer"], key_white.as_str());
    let sheets: Vec<&Value> = recs[63..].iter().map(|r| &r["signer"]).collect();
    assert!(
        sheets.contains(&&json!(key_black)) && sheets.contains(&&json!(key_white)),
        "{sheets:?}"
    );
    verifies_everywhere(dir.path(), &url, &game);
    server.stop();
}

/// The tablets' latency as players feel it (docs/PERFORMANCE.md, "The
/// tablets at the venue"): on two player tablets, forty moves, each stone
/// and press tapped at once; from the page's own User Timing marks, the
/// time from a tap to the server's acknowledgement (stone, press) and from
/// a press to the opponent's tablet drawing it; at 0 ms and at 150 ms each
/// way. Then a shared tablet through a 30 s outage: how long its records
/// take to arrive once the server is back. A measurement, not a check:
/// `cargo test --release -p kifu-cli --test board_cli venue_latency -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement for docs/PERFORMANCE.md, run on a quiet machine"]
fn venue_latency() {
    let Some(program) = browser_or_skip("the tablets' latency") else {
        return;
    };
    let at = |b: &mut Browser, what: &str, seq: u64| -> f64 {
        let v = b.eval(&format!(
            "(() => {{ const m = performance.getEntriesByName('kifu:{what}:{seq}')[0]; return m ? performance.timeOrigin + m.startTime : null; }})()"
        ));
        v.as_f64().unwrap_or_else(|| panic!("no mark {what}:{seq}"))
    };
    // The first mark of a record drawn at or after `seq` (a tablet draws
    // several records at once when they arrive together).
    let drawn = |b: &mut Browser, seq: u64| -> f64 {
        let v = b.eval(&format!(
            "Math.min(...performance.getEntriesByType('mark').filter(m => m.name.startsWith('kifu:drawn:') && Number(m.name.slice(11)) >= {seq}).map(m => performance.timeOrigin + m.startTime))"
        ));
        v.as_f64().expect("a drawn mark")
    };
    let tap_now = |b: &mut Browser, selector: &str| -> f64 {
        let sel = serde_json::to_string(selector).unwrap();
        b.wait_for(
            "the control",
            &format!("(() => {{ const e = document.querySelector({sel}); return !!e && !e.disabled; }})()"),
        );
        b.eval(&format!(
            "(() => {{ const t = performance.timeOrigin + performance.now(); const e = document.querySelector({sel}); if (e.click) e.click(); else e.dispatchEvent(new MouseEvent('click', {{bubbles: true, cancelable: true}})); return t; }})()"
        ))
        .as_f64()
        .unwrap()
    };
    let pct = |v: &mut Vec<f64>, p: f64| -> f64 {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[((v.len() as f64 - 1.0) * p).round() as usize]
    };
    for latency in [0u64, 150] {
        let mut v = venue(program);
        let PlayerTablets { black, white, .. } =
            player_tablets(&mut v, None, "19", "fischer:60m+30s");
        let Venue { server, mut b, .. } = v;
        for s in [&black, &white] {
            b.switch(s);
            if latency > 0 {
                b.venue_network(latency);
            }
        }
        let (mut stone_ack, mut press_ack, mut press_seen) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..40u64 {
            let (me, other) = if i % 2 == 0 {
                (&black, &white)
            } else {
                (&white, &black)
            };
            let seq = 1 + 2 * i;
            let (x, y) = if i % 2 == 0 {
                (i / 2 % 19, 3 + i / 2 / 19)
            } else {
                (i / 2 % 19, 15 - i / 2 / 19)
            };
            b.switch(me);
            at_seq(&mut b, seq);
            let t_stone = tap_now(&mut b, &format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
            let t_press = tap_now(&mut b, "#press");
            at_seq(&mut b, seq + 2);
            b.wait_for(
                "both acknowledged",
                &format!(
                    "performance.getEntriesByName('kifu:acknowledged:{}').length > 0",
                    seq + 2
                ),
            );
            stone_ack.push(at(&mut b, "acknowledged", seq + 1) - t_stone);
            press_ack.push(at(&mut b, "acknowledged", seq + 2) - t_press);
            b.switch(other);
            at_seq(&mut b, seq + 2);
            press_seen.push(drawn(&mut b, seq + 2) - t_press);
        }
        for (what, v) in [
            ("stone tap to acknowledgement", &mut stone_ack),
            ("press tap to acknowledgement", &mut press_ack),
            ("press tap to the opponent's tablet", &mut press_seen),
        ] {
            eprintln!(
                "{latency} ms each way: {what}: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} taps)",
                pct(v, 0.5),
                pct(v, 0.99),
                pct(v, 1.0),
                v.len()
            );
        }
        drop(b);
        server.stop();
    }
    // A shared tablet through a 30 s outage: twenty records kept, then sent.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let addr = url.trim_start_matches("http://").to_string();
    keygen(dir.path(), "ref");
    keygen(dir.path(), "b");
    keygen(dir.path(), "w");
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(1024, 768);
    let fp = ask_for_seat(&mut b, &url, "recorder", "Board 1 clock", 1);
    let (req, _) = request_of(&url, &fp);
    let d = |n: &str| dir.path().join(n).display().to_string();
    let game = ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            &d("ref.key"),
            "--referee",
            &format!("Ref={}", d("ref.pub")),
            "--black",
            &format!("Ann={}", d("b.pub")),
            "--white",
            &format!("Bob={}", d("w.pub")),
            "--size",
            "19",
            "--time",
            "fischer:60m+30s",
            "--tournament",
            "Open",
            "--round",
            "1",
            "--board",
            "1",
            "--device-request",
            &req,
        ],
    ))
    .trim()
    .to_string();
    b.wait_for("the game", "!!document.getElementById('start-clock')");
    b.click("#start-clock");
    at_seq(&mut b, 1);
    b.wait_for(
        "the page kept",
        "navigator.serviceWorker.controller !== null",
    );
    server.stop();
    b.wait_for(
        "offline",
        "document.getElementById('net').dataset.online === '0'",
    );
    let started = Instant::now();
    for i in 0..10u8 {
        tap(&mut b, i, if i % 2 == 0 { 3 } else { 15 });
        b.click("#press");
    }
    b.wait_for(
        "twenty kept",
        "document.getElementById('net').dataset.queued === '20'",
    );
    std::thread::sleep(Duration::from_secs(30).saturating_sub(started.elapsed()));
    let back = Instant::now();
    let server = Served::start_at(&data, &addr, &[]);
    let up = back.elapsed();
    b.wait_for(
        "all sent",
        "document.getElementById('net').dataset.queued === '0'",
    );
    let sent = back.elapsed();
    at_seq(&mut b, 21);
    let drawn_at = back.elapsed();
    eprintln!(
        "after a 30 s outage: the server answered in {:.1} s, 20 records acknowledged {:.1} s after its restart, drawn {:.1} s after it; {} records in the game",
        up.as_secs_f64(),
        sent.as_secs_f64(),
        drawn_at.as_secs_f64(),
        records(&url, &game).len()
    );
    drop(b);
    server.stop();
}

/// A shared board tablet on venue Wi-Fi (150 ms each way), the players
/// tapping and pressing as fast as they play: the tablet's records go out
/// in order while the feed brings back the ones before, and each press is
/// signed for the player who just moved, never from a clock model drawn
/// before the tablet's own last records.
#[test]
fn a_shared_tablet_on_venue_wifi_signs_each_press_for_the_player_who_moved() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    keygen(dir.path(), "ref");
    keygen(dir.path(), "b");
    keygen(dir.path(), "w");
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(1024, 768);
    b.venue_network(150);
    let fp = ask_for_seat(&mut b, &url, "recorder", "Board 2 clock", 2);
    let listed: Value = serde_json::from_str(&ok(&kifu_at(&url, &["devices", "--json"]))).unwrap();
    let req = listed["requests"][0].clone();
    assert_eq!(req["fingerprint"], fp.as_str());
    let d = |n: &str| dir.path().join(n).display().to_string();
    let game = ok(&kifu_at(
        &url,
        &[
            "new-game",
            "--key",
            &d("ref.key"),
            "--referee",
            &format!("Ref={}", d("ref.pub")),
            "--black",
            &format!("Ann={}", d("b.pub")),
            "--white",
            &format!("Bob={}", d("w.pub")),
            "--size",
            "9",
            "--time",
            "fischer:10m+10s",
            "--tournament",
            "Open",
            "--round",
            "1",
            "--board",
            "2",
            "--device-request",
            req["id"].as_str().unwrap(),
        ],
    ))
    .trim()
    .to_string();
    b.wait_for("the game", "!!document.getElementById('start-clock')");
    b.click("#start-clock");
    at_seq(&mut b, 1);
    // Six moves, each a tap and a press, without waiting for any answer.
    for (x, y) in [(2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (4, 6)] {
        tap(&mut b, x, y);
        b.click("#press");
    }
    at_seq(&mut b, 13);
    b.wait_for(
        "the outbox empty",
        "(document.getElementById('net') || {dataset: {}}).dataset.queued === '0'",
    );
    let recs = records(&url, &game);
    assert_eq!(recs.len(), 14);
    for (i, pair) in recs[2..].chunks(2).enumerate() {
        let mover = if i % 2 == 0 { "black" } else { "white" };
        assert_eq!(pair[0]["body"]["stone_placed"]["player"], mover, "{pair:?}");
        assert_eq!(
            pair[1]["body"]["clock_pressed"]["player"], mover,
            "{pair:?}"
        );
    }
    // Both pass, each pressing the clock: play pauses (LGC 2023, "Ending
    // the game", 4: "The clock is now paused."), and the tablet's clocks
    // stand, said in words.
    for seq in [14, 16] {
        b.click("#pass");
        at_seq(&mut b, seq);
        b.click("#press");
        at_seq(&mut b, seq + 1);
    }
    b.wait_for(
        "the clocks stopped for the status of the groups",
        "document.getElementById('paused').textContent.includes('for the assessment of the status of groups')",
    );
    assert_eq!(
        b.eval("document.querySelector('.clock.running') === null"),
        json!(true)
    );
    let state = get(&format!("{url}/games/{game}/state?device=1"));
    assert_eq!(state["state"]["clock"]["running"], Value::Null);
    assert_eq!(state["state"]["clock"]["paused"], "STATUS_ASSESSMENT");
    let recs = records(&url, &game);
    assert_eq!(recs[14]["body"]["pass"]["player"], "black");
    assert_eq!(recs[15]["body"]["clock_pressed"]["player"], "black");
    assert_eq!(recs[16]["body"]["pass"]["player"], "white");
    assert_eq!(recs[17]["body"]["clock_pressed"]["player"], "white");
    tablet_and_phone(&mut b, "board-status-assessment");
    let said = b.text("#messages");
    assert!(
        !said.contains("refused") && !said.contains("not recorded"),
        "{said}"
    );
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    verifies_everywhere(dir.path(), &url, &game);
    drop(server);
}

/// The request number of the tablet showing fingerprint `fp`, and its key.
fn request_of(url: &str, fp: &str) -> (String, String) {
    let listed = get(&format!("{url}/devices"));
    let r = listed["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["fingerprint"] == fp)
        .unwrap_or_else(|| panic!("{fp} in {listed}"))
        .clone();
    (
        r["id"].as_str().unwrap().to_string(),
        r["key"].as_str().unwrap().to_string(),
    )
}

/// `kifu new-game` by the referee at `board` of `round`, naming the
/// devices' requests (and the players' keys of a board with a recorder
/// only); the game's id.
fn round_game(
    dir: &Path,
    url: &str,
    round: u32,
    board: u32,
    extra: &[&str],
    requests: &[&str],
) -> String {
    let d = |n: &str| dir.join(n).display().to_string();
    let (round, board) = (round.to_string(), board.to_string());
    let mut args = vec![
        "new-game".to_string(),
        "--key".into(),
        d("ref.key"),
        "--referee".into(),
        format!("Ref={}", d("ref.pub")),
        "--size".into(),
        "9".into(),
        "--time".into(),
        "fischer:10m+10s".into(),
        "--tournament".into(),
        "Open".into(),
        "--round".into(),
        round,
        "--board".into(),
        board,
        "--json".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    for r in requests {
        args.push("--device-request".into());
        args.push(r.to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let made: Value = serde_json::from_str(&ok(&kifu_at(url, &args))).unwrap();
    made["game"].as_str().unwrap().to_string()
}

/// The signer of the first record of `kind` in `game`.
fn signer_of(url: &str, game: &str, kind: &str) -> String {
    records(url, game)
        .iter()
        .find(|r| kind_of(r) == kind)
        .unwrap_or_else(|| panic!("no {kind} in {game}"))["signer"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Two rounds with the same tablets: board 1's players each on their own
/// tablet, board 2 on one recorder tablet. After round 1's games end, each
/// tablet offers its next game: the same key asks for round 2 (the seat
/// form filled with the next round, editable: Ann and Bob swap colours),
/// the request keeps its number, the referee names the same requests in
/// round 2's games, and the tablets play them.
#[test]
fn the_same_tablets_play_the_next_round_with_the_same_keys() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let Venue {
        dir,
        server,
        url,
        ref_pub,
        ref_pem,
        mut b,
        ..
    } = venue(program);
    keygen(dir.path(), "c");
    keygen(dir.path(), "d");
    let ann = b.new_context(1024, 768);
    let fp_ann = ask_for_seat(&mut b, &url, "black", "Ann", 1);
    let bob = b.new_context(1024, 768);
    let fp_bob = ask_for_seat(&mut b, &url, "white", "Bob", 1);
    let clock = b.new_context(1024, 768);
    let fp_clock = ask_for_seat(&mut b, &url, "recorder", "Board 2 clock", 2);
    let (r_ann, k_ann) = request_of(&url, &fp_ann);
    let (r_bob, k_bob) = request_of(&url, &fp_bob);
    let (r_clock, k_clock) = request_of(&url, &fp_clock);
    let players = |dir: &Path| {
        [
            "--black".to_string(),
            format!("Cy={}", dir.join("c.pub").display()),
            "--white".to_string(),
            format!("Di={}", dir.join("d.pub").display()),
        ]
    };
    let p = players(dir.path());
    let p: Vec<&str> = p.iter().map(String::as_str).collect();
    let g1 = round_game(dir.path(), &url, 1, 1, &[], &[&r_ann, &r_bob]);
    let g2 = round_game(dir.path(), &url, 1, 2, &p, &[&r_clock]);

    // Round 1, board 1: the referee starts the clock, Ann plays, Bob resigns.
    b.new_context(800, 600);
    b.goto(&format!("{url}/web/board.css"));
    let r = referee_signs(
        &mut b,
        &ref_pem,
        &ref_pub,
        &g1,
        json!({"clock_started": {"running": "black"}}),
    );
    assert_eq!(r["accepted"], 1, "{r}");
    b.switch(&ann);
    at_seq(&mut b, 1);
    tap(&mut b, 2, 2);
    b.click("#press");
    at_seq(&mut b, 3);
    b.switch(&bob);
    at_seq(&mut b, 3);
    b.click("#resign");
    b.wait_for(
        "the resign dialog",
        "document.getElementById('confirm').open",
    );
    b.click("#confirm-ok");
    // Round 1, board 2: the recorder starts the clock, Black plays, White
    // resigns.
    b.switch(&clock);
    b.click("#start-clock");
    at_seq(&mut b, 1);
    tap(&mut b, 4, 4);
    at_seq(&mut b, 2);
    b.click("#press");
    at_seq(&mut b, 3);
    b.click("#resign");
    b.wait_for(
        "the resign dialog",
        "document.getElementById('confirm').open",
    );
    b.click("#confirm-ok");

    // Each tablet: the game is over, and it offers the next game; the seat
    // form comes back filled with the same seat and board, round 2.
    for (s, role, board) in [
        (&ann, "black", 1),
        (&bob, "white", 1),
        (&clock, "recorder", 2),
    ] {
        b.switch(s);
        b.wait_for(
            "the game over",
            "(document.getElementById('turn') || {textContent: ''}).textContent.startsWith('Game over')",
        );
        b.click("#next-game");
        b.wait_for("the seat form", "!!document.getElementById('ask')");
        assert_eq!(b.eval("document.getElementById('round').value"), json!("2"));
        assert_eq!(
            b.eval("document.getElementById('board').value"),
            json!(board.to_string())
        );
        assert_eq!(b.eval("document.getElementById('role').value"), json!(role));
        assert_eq!(
            b.eval("document.getElementById('tournament').value"),
            json!("Open")
        );
    }
    tablet_and_phone(&mut b, "board-next-game");
    // Ann and Bob swap colours in round 2.
    for (s, role) in [(&ann, Some("white")), (&bob, Some("black")), (&clock, None)] {
        b.switch(s);
        if let Some(role) = role {
            b.eval(&format!(
                "(document.getElementById('role').value = {role:?}, true)"
            ));
        }
        b.click("#ask");
        b.wait_for("the request", "!!document.getElementById('waiting')");
        assert!(
            b.text("#waiting").contains("round 2"),
            "{}",
            b.text("#waiting")
        );
    }
    // The same requests, waiting again for round 2 though round 1's games
    // name their keys.
    let pending = get(&format!("{url}/devices?pending=1"));
    let waiting: Vec<(String, u64)> = pending["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["round"].as_u64().unwrap(),
            )
        })
        .collect();
    for id in [&r_ann, &r_bob, &r_clock] {
        assert!(
            waiting.contains(&(id.clone(), 2)),
            "{id} waits for round 2: {pending}"
        );
    }
    let h1 = round_game(dir.path(), &url, 2, 1, &[], &[&r_ann, &r_bob]);
    let h2 = round_game(dir.path(), &url, 2, 2, &p, &[&r_clock]);
    assert!(get(&format!("{url}/devices?pending=1"))["requests"]
        .as_array()
        .unwrap()
        .is_empty());
    // Each tablet finds its round 2 game and plays it.
    for (s, game) in [(&ann, &h1), (&bob, &h1), (&clock, &h2)] {
        b.switch(s);
        b.wait_for("the round 2 game", "!!document.getElementById('press')");
        assert_eq!(
            b.eval("location.pathname"),
            json!(format!("/play/{game}")),
            "the round 2 game"
        );
    }
    // LGC 2023, "Start": the players start Black's clock themselves: Bob's
    // own tablet offers it before the first move, and Ann's no longer once
    // it runs.
    b.switch(&bob);
    b.click("#start-clock");
    at_seq(&mut b, 1);
    assert!(!has(&mut b, "#start-clock"));
    b.switch(&ann);
    at_seq(&mut b, 1);
    assert!(!has(&mut b, "#start-clock"));
    b.switch(&bob);
    assert!(
        b.text("#turn").contains("Your move: Black"),
        "{}",
        b.text("#turn")
    );
    tap(&mut b, 6, 6);
    b.click("#press");
    at_seq(&mut b, 3);
    b.switch(&ann);
    at_seq(&mut b, 3);
    tap(&mut b, 2, 6);
    b.click("#press");
    at_seq(&mut b, 5);
    b.switch(&clock);
    b.click("#start-clock");
    at_seq(&mut b, 1);
    tap(&mut b, 3, 3);
    at_seq(&mut b, 2);

    // Both rounds' records are signed by the same tablets' keys.
    assert_eq!(signer_of(&url, &g1, "stone_placed"), k_ann);
    assert_eq!(signer_of(&url, &g1, "resigned"), k_bob);
    assert_eq!(signer_of(&url, &g2, "stone_placed"), k_clock);
    assert_eq!(signer_of(&url, &h1, "stone_placed"), k_bob);
    assert_eq!(signer_of(&url, &h1, "clock_started"), k_bob);
    let white_stone = records(&url, &h1)
        .into_iter()
        .filter(|r| kind_of(r) == "stone_placed")
        .nth(1)
        .unwrap();
    assert_eq!(white_stone["signer"], k_ann.as_str());
    assert_eq!(signer_of(&url, &h2, "stone_placed"), k_clock);
    for game in [&g1, &g2, &h1, &h2] {
        verifies_everywhere(dir.path(), &url, game);
    }
    for s in [&ann, &bob, &clock] {
        b.switch(s);
        let errors = b.console_errors();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
        b.assert_no_csp_violation();
    }
    server.stop();
}

/// The seat form offers the tournaments the server keeps, by their full
/// and short names, and a free-standing game: the tablet asks under the
/// name the tournament's games carry, never a misspelt one.
#[test]
fn a_tablet_picks_its_tournament_from_the_server_s_list() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&run(
        &data,
        &["keygen", dir.path().join("dir").to_str().unwrap()],
    ));
    let key = dir.path().join("dir.key").display().to_string();
    for (name, short) in [("Spring Open 2026", "spring"), ("Autumn Cup", "autumn")] {
        ok(&run(
            &data,
            &[
                "tournament",
                "new",
                "--key",
                &key,
                "--name",
                name,
                "--short-name",
                short,
                "--city",
                "Leiden",
                "--rounds",
                "3",
                "--criteria",
                "MMS,SOSM",
                "--time",
                "canadian:60m+15/5m",
            ],
        ));
    }
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(1024, 768);
    b.goto(&format!("{url}/play"));
    b.wait_for("the seat form", "!!document.getElementById('ask')");
    assert_eq!(
        b.eval("document.getElementById('tournament').tagName"),
        json!("SELECT")
    );
    let offered = b.eval(
        "[...document.getElementById('tournament').options].map(o => [o.value, o.textContent])",
    );
    assert_eq!(
        offered,
        json!([
            ["autumn", "Autumn Cup (autumn)"],
            ["spring", "Spring Open 2026 (spring)"],
            ["", "None: a free-standing game"]
        ])
    );
    b.eval("(() => { const v = (id, x) => document.getElementById(id).value = x; v('role', 'black'); v('name', 'Ann'); v('tournament', 'spring'); v('round', '2'); v('board', '4'); return true; })()");
    b.click("#ask");
    b.wait_for("the request", "!!document.getElementById('waiting')");
    let fp = b.text("#fingerprint");
    let asked = get(&format!("{url}/devices"))["requests"][0].clone();
    assert_eq!(asked["fingerprint"], fp.as_str());
    assert_eq!(asked["tournament"], "spring", "{asked}");
    assert_eq!(
        (asked["round"].as_u64(), asked["board"].as_u64()),
        (Some(2), Some(4))
    );
    tablet_and_phone(&mut b, "board-seat-tournaments");
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    b.assert_no_csp_violation();
    server.stop();
}

/// On a shared tablet the players tap as fast as they play: a stone and a
/// press, then at once a pass, a claim and a resignation, before the
/// server's answers are drawn. Each is signed for the player this tablet's
/// own records say, never for the player of a stale drawn state.
#[test]
fn a_shared_tablet_signs_passes_claims_and_resignations_for_the_player_its_records_say() {
    let Some(program) = browser_or_skip("the board page test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(&dir.path().join("data"), &[]);
    let url = server.url.clone();
    keygen(dir.path(), "ref");
    keygen(dir.path(), "c");
    keygen(dir.path(), "d");
    let mut b = Browser::start(program, &dir.path().join("chromium"));
    b.new_context(1024, 768);
    b.venue_network(150);
    let fp = ask_for_seat(&mut b, &url, "recorder", "Board 2 clock", 2);
    let (req, _) = request_of(&url, &fp);
    let p = [
        "--black".to_string(),
        format!("Cy={}", dir.path().join("c.pub").display()),
        "--white".to_string(),
        format!("Di={}", dir.path().join("d.pub").display()),
    ];
    let p: Vec<&str> = p.iter().map(String::as_str).collect();
    let game = round_game(dir.path(), &url, 1, 2, &p, &[&req]);
    b.wait_for("the game", "!!document.getElementById('start-clock')");
    b.click("#start-clock");
    at_seq(&mut b, 1);
    // Black's stone and press, then White passes and presses, and Black
    // offers a draw: no tap waits for an answer.
    tap(&mut b, 2, 2);
    b.click("#press");
    b.click("#pass");
    b.click("#press");
    b.click("#draw-offer");
    at_seq(&mut b, 6);
    // The message log, full by now, covers none of the buttons: each,
    // scrolled to, is the element under a tap at its middle; and the log
    // folds away.
    for (w, h) in [(1024, 768), (390, 844)] {
        b.size(w, h);
        for sel in [
            "#dead",
            "#status-dispute",
            "#sign-sheet",
            "#sign-sheet-protest",
        ] {
            assert!(tappable(&mut b, sel), "{sel} is covered at {w}x{h}");
        }
    }
    // At 900 pixels wide, whatever the height, both clocks are whole on
    // the screen.
    for h in [700, 1200] {
        b.size(900, h);
        let right = b.eval("(() => { const r = document.getElementById('clock-white').getBoundingClientRect(); return r.right <= document.documentElement.clientWidth && document.documentElement.scrollWidth <= document.documentElement.clientWidth; })()");
        assert_eq!(right, json!(true), "White's clock is cut off at 900x{h}");
    }
    b.size(1024, 768);
    b.click("#log-toggle");
    assert_eq!(
        b.eval("document.getElementById('messages').hidden"),
        json!(true)
    );
    b.click("#log-toggle");
    assert_eq!(
        b.eval("document.getElementById('messages').hidden"),
        json!(false)
    );
    // Black plays and presses; White resigns at once.
    tap(&mut b, 6, 6);
    b.click("#press");
    b.click("#resign");
    b.wait_for(
        "the resign dialog",
        "document.getElementById('confirm').open",
    );
    assert!(
        b.text("#confirm-body").contains("White resigns"),
        "{}",
        b.text("#confirm-body")
    );
    b.click("#confirm-ok");
    at_seq(&mut b, 9);
    let recs = records(&url, &game);
    let said: Vec<(String, Value)> = recs[2..]
        .iter()
        .map(|r| {
            let k = kind_of(r);
            let who = r["body"][&k]["player"].clone();
            (k, who)
        })
        .collect();
    assert_eq!(
        said,
        [
            ("stone_placed".to_string(), json!("black")),
            ("clock_pressed".into(), json!("black")),
            ("pass".into(), json!("white")),
            ("clock_pressed".into(), json!("white")),
            ("draw_offered".into(), json!("black")),
            ("stone_placed".into(), json!("black")),
            ("clock_pressed".into(), json!("black")),
            ("resigned".into(), json!("white")),
        ]
    );
    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    server.stop();
}

/// Whether the element `selector`, scrolled to as the browser scrolls to a
/// button, is what a tap at its middle reaches (nothing covers it).
fn tappable(b: &mut Browser, selector: &str) -> bool {
    let sel = serde_json::to_string(selector).unwrap();
    b.eval(&format!(
        "(() => {{ const e = document.querySelector({sel}); e.scrollIntoView({{block: 'end'}}); const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!at && (at === e || e.contains(at)); }})()"
    )) == json!(true)
}
