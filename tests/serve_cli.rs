//! `kifu serve` end to end: the demo game recorded through the server, the
//! feed followed over SSE (raw HTTP and `curl -N`) across a disconnect,
//! concurrent boards and racing writers surviving a SIGKILL, bad input
//! refused with nothing written, and a clean stop on SIGTERM.

mod common;
use common::*;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{verify_records, Body, Color, Event, Head, Record};
use kifu_store::Store;
use serde_json::Value;

fn get_json(url: &str) -> (u16, Value) {
    let r = match ureq::get(url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    (r.status(), r.into_json().expect("JSON"))
}

fn post(url: &str, content_type: &str, body: &[u8]) -> (u16, Value) {
    let r = match ureq::post(url)
        .set("Content-Type", content_type)
        .send_bytes(body)
    {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = r.status();
    let mut text = String::new();
    r.into_reader().read_to_string(&mut text).expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")),
    )
}

/// POSTs to `/records` a request announcing `declared` body bytes and
/// sending `sent` of them; the status and JSON of the answer.
fn oversized(url: &str, declared: usize, sent: usize) -> (u16, Value) {
    let hostport = url.trim_start_matches("http://");
    let mut s = TcpStream::connect(hostport).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /records HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/octet-stream\r\nContent-Length: {declared}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).expect("request head");
    s.write_all(&vec![0u8; sent]).expect("body");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).expect("the answer");
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let json = match (text.find('{'), text.rfind('}')) {
        (Some(a), Some(b)) if a < b => serde_json::from_str(&text[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}

fn post_records(url: &str, records: &[Record]) -> (u16, Value) {
    let mut body = Vec::new();
    for r in records {
        body.extend_from_slice(&r.to_stored());
    }
    post(&format!("{url}/records"), "application/octet-stream", &body)
}

/// Reads SSE events from a raw HTTP connection: (id, data) pairs, at most
/// `max`, or until the stream has been quiet for `quiet`.
fn sse_raw(url: &str, last_id: Option<u64>, max: usize, quiet: Duration) -> Vec<(u64, Value)> {
    let hostport = url.trim_start_matches("http://");
    let mut s = TcpStream::connect(hostport).expect("connect");
    s.set_read_timeout(Some(quiet)).unwrap();
    let mut req =
        format!("GET /feed/stream HTTP/1.1\r\nHost: {hostport}\r\nAccept: text/event-stream\r\n");
    if let Some(id) = last_id {
        req.push_str(&format!("Last-Event-ID: {id}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut reader = BufReader::new(s);
    let mut out = Vec::new();
    let mut id = None;
    let mut line = String::new();
    // Headers, then chunked SSE lines; chunk-size lines are skipped as they
    // parse as neither field.
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let l = line.trim_end();
        if let Some(v) = l.strip_prefix("id:") {
            id = v.trim().parse::<u64>().ok();
        } else if let Some(v) = l.strip_prefix("data:") {
            let data: Value = serde_json::from_str(v.trim()).expect("data is JSON");
            out.push((id.expect("id before data"), data));
            if out.len() >= max {
                break;
            }
        }
    }
    // Dropping the reader closes the connection: the follower is gone.
    out
}

fn curl_present() -> bool {
    std::process::Command::new("curl")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// `curl -N` on the stream, killed (by pid) after `max` events.
fn sse_curl(url: &str, last_id: Option<u64>, max: usize) -> Vec<(u64, Value)> {
    let mut cmd = std::process::Command::new("curl");
    cmd.args(["-N", "-s", "--max-time", "60"]);
    if let Some(id) = last_id {
        cmd.args(["-H", &format!("Last-Event-ID: {id}")]);
    }
    let mut child = cmd
        .arg(format!("{url}/feed/stream"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("curl runs");
    let mut out = Vec::new();
    let mut id = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        if let Some(v) = line.strip_prefix("id:") {
            id = v.trim().parse::<u64>().ok();
        } else if let Some(v) = line.strip_prefix("data:") {
            out.push((id.expect("id"), serde_json::from_str(v.trim()).unwrap()));
            if out.len() >= max {
                break;
            }
        }
    }
    child.kill().expect("kill curl");
    let _ = child.wait();
    out
}

fn assert_exactly_once_in_order(seen: &[(u64, Value)], total: u64) {
    let ids: Vec<u64> = seen.iter().map(|(i, _)| *i).collect();
    assert_eq!(
        ids,
        (0..total).collect::<Vec<_>>(),
        "every event once, in order"
    );
    for (id, v) in seen {
        assert_eq!(v["cursor"].as_u64(), Some(*id));
    }
}

#[test]
fn the_demo_recorded_through_the_server_and_its_feed_followed_across_disconnects() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let client = t.path().join("client");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();

    // The demo game, signed here, stored there.
    let o = run(&client, &["--server", &url, "demo", "--json"]);
    let demo: Value = serde_json::from_str(&ok(&o)).unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    let total = demo["store_events"].as_u64().unwrap();
    assert!(total > 60);
    assert!(!client.join("db").exists(), "nothing stored on the client");

    // A command on the served directory says where to go instead.
    let o = run(&data, &["log"]);
    assert!(!o.status.success());
    let e = err(&o);
    assert!(e.contains("--server") && e.contains(&url), "{e}");
    assert_eq!(e.trim().lines().count(), 1);

    // The feed over SSE with a raw client: a follower leaves mid-stream and
    // comes back with the last id it saw.
    let first = sse_raw(&url, None, 20, Duration::from_secs(10));
    assert_eq!(first.len(), 20);
    let last = first.last().unwrap().0;
    let rest = sse_raw(
        &url,
        Some(last),
        (total - 20) as usize,
        Duration::from_secs(10),
    );
    let all: Vec<_> = first.into_iter().chain(rest).collect();
    assert_exactly_once_in_order(&all, total);
    for (_, v) in &all {
        assert_eq!(v["game"].as_str(), Some(game.as_str()));
    }

    // The same with curl -N, killed after 7 events.
    if curl_present() {
        let first = sse_curl(&url, None, 7);
        let last = first.last().unwrap().0;
        let rest = sse_curl(&url, Some(last), (total - 7) as usize);
        let all: Vec<_> = first.into_iter().chain(rest).collect();
        assert_exactly_once_in_order(&all, total);
    } else if peers_required() {
        panic!("curl is required (KIFU_REQUIRE_PEERS=1)");
    } else {
        eprintln!("skipping the curl -N follower: curl is not installed");
    }

    // The long-poll page with the same lines as `kifu feed`.
    let remote_feed = ok(&run(
        &client,
        &["--server", &url, "feed", "--after", "9", "--limit", "5"],
    ));
    assert_eq!(remote_feed.lines().count(), 5);
    let first_line: Value = serde_json::from_str(remote_feed.lines().next().unwrap()).unwrap();
    assert_eq!(first_line["cursor"].as_u64(), Some(10));

    // Reading through the server.
    let remote_replay = ok(&run(
        &client,
        &[
            "--server",
            &url,
            "replay",
            &game[..10],
            "--at",
            "26",
            "--json",
        ],
    ));
    let (status, state) = get_json(&format!("{url}/games/{}/state?at=26", &game[..10]));
    assert_eq!(status, 200);
    let remote_replay: Value = serde_json::from_str(&remote_replay).unwrap();
    assert_eq!(remote_replay, state);
    let remote_explain: Value = serde_json::from_str(&ok(&run(
        &client,
        &["--server", &url, "explain", &game, "--json"],
    )))
    .unwrap();
    let (_, explain) = get_json(&format!("{url}/games/{game}/explain"));
    assert_eq!(remote_explain, explain);
    let log = ok(&run(&client, &["--server", &url, "log", &game]));
    assert!(log.contains("illegal move"), "{log}");
    assert!(ok(&run(&client, &["--server", &url, "verify"])).starts_with("ok:"));
    let archive = t.path().join("demo.kifu");
    ok(&run(
        &client,
        &[
            "--server",
            &url,
            "export",
            "--out",
            archive.to_str().unwrap(),
        ],
    ));
    assert!(ok(&run(&client, &["verify", archive.to_str().unwrap()])).starts_with("ok:"));
    let sgf = ureq::get(&format!("{url}/games/{game}/sgf"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(sgf.starts_with("(;"), "{sgf}");
    let (_, games) = get_json(&format!(
        "{url}/games?tournament=kifu%20demonstration%20open"
    ));
    assert_eq!(games["games"].as_array().unwrap().len(), 1);
    assert_eq!(games["games"][0]["black"], "Black player");
    let metrics = ureq::get(&format!("{url}/metrics"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(
        metrics.contains(&format!(
            "kifu_appends_total{{outcome=\"written\"}} {total}"
        )),
        "{metrics}"
    );
    // Every record came through the batch writer, so it is staged (far
    // fewer than a settle's 16,384).
    assert!(
        metrics.contains(&format!("kifu_staged_records {total}\n")),
        "{metrics}"
    );

    // The replay page for a browser, from the binary itself.
    for path in [
        "/".to_string(),
        format!("/games/{game}"),
        format!("/games/{game}/at/26"),
    ] {
        let r = ureq::get(&format!("{url}{path}"))
            .set("Accept", "text/html")
            .call()
            .unwrap();
        assert_eq!(r.content_type(), "text/html", "{path}");
        assert!(r.into_string().unwrap().contains("<title>kifu"));
    }
    let (_, state) = get_json(&format!("{url}/games/{game}/state?at=26"));
    assert_eq!(state["board_view"]["rows"][0], ".XO......");

    // SIGTERM: a clean stop, exit 0, and the store is the local one again.
    assert!(server.terminate().success());
    assert!(ok(&run(&data, &["verify"])).starts_with("ok:"));
    let local: Value =
        serde_json::from_str(&ok(&run(&data, &["replay", &game, "--at", "26", "--json"]))).unwrap();
    assert_eq!(
        local, remote_replay,
        "the same JSON from the store and from the server"
    );
}

/// Signs the next clock press of `c` with `key` at `head`.
fn press_at(c: &ChainBuilder, head: Head, key: &kifu_ledger::Keypair, i: u64) -> Record {
    let color = if head.seq.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    Event::next(
        c.game,
        head,
        1_000 + i,
        key.public(),
        Body::ClockPressed { player: color },
    )
    .sign(key)
    .unwrap()
}

#[test]
fn concurrent_boards_and_racing_writers_lose_nothing_acknowledged_to_sigkill() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let cast = Arc::new(Cast::new());
    // (game, seq) -> hash of every acknowledged append.
    let acked: Arc<Mutex<BTreeMap<(String, u64), String>>> = Default::default();

    // 64 boards, each its own game, each client appending one at a time.
    let mut handles = Vec::new();
    for board in 0..64u32 {
        let (url, cast, acked) = (url.clone(), cast.clone(), acked.clone());
        handles.push(std::thread::spawn(move || {
            let mut c =
                ChainBuilder::start(&cast.referee, cast.genesis(&format!("board {board}")), 0);
            let (s, _) = post_records(&url, &c.records);
            assert_eq!(s, 200);
            for i in 0..20u64 {
                let color = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let r = c
                    .push(&cast.recorder, Body::ClockPressed { player: color })
                    .clone();
                let (s, v) = post_records(&url, &[r]);
                assert_eq!(s, 200, "{v}");
                let a = &v["results"][0];
                acked.lock().unwrap().insert(
                    (
                        a["game"].as_str().unwrap().into(),
                        a["seq"].as_u64().unwrap(),
                    ),
                    a["hash"].as_str().unwrap().into(),
                );
            }
            c.game
        }));
    }
    // 8 writers racing on one game: each signs at the head it last saw.
    let race = ChainBuilder::start(&cast.referee, cast.genesis("race"), 0);
    assert_eq!(post_records(&url, &race.records).0, 200);
    let race = Arc::new(race);
    let conflicts = Arc::new(Mutex::new(0u64));
    for w in 0..8u64 {
        let (url, cast, acked, race, conflicts) = (
            url.clone(),
            cast.clone(),
            acked.clone(),
            race.clone(),
            conflicts.clone(),
        );
        handles.push(std::thread::spawn(move || {
            let mut won = 0;
            for attempt in 0..400u64 {
                if won == 10 {
                    break;
                }
                let (_, h) = get_json(&format!("{url}/games/{}/head", hex::encode(race.game)));
                let head = Head {
                    seq: h["seq"].as_u64().unwrap(),
                    hash: hex::decode(h["hash"].as_str().unwrap())
                        .unwrap()
                        .try_into()
                        .unwrap(),
                };
                let r = press_at(&race, head, &cast.recorder, w * 1_000 + attempt);
                let (s, v) = post_records(&url, &[r]);
                match s {
                    200 => {
                        won += 1;
                        let a = &v["results"][0];
                        acked.lock().unwrap().insert(
                            (
                                a["game"].as_str().unwrap().into(),
                                a["seq"].as_u64().unwrap(),
                            ),
                            a["hash"].as_str().unwrap().into(),
                        );
                    }
                    409 => {
                        assert_eq!(v["error"]["code"], "conflict");
                        *conflicts.lock().unwrap() += 1;
                    }
                    _ => panic!("unexpected {s}: {v}"),
                }
            }
            race.game
        }));
    }
    for h in handles {
        h.join().expect("client thread");
    }
    server.kill();

    // After SIGKILL: every acknowledged event is there, and all verifies.
    let store = Store::open(&data).unwrap();
    let records = store.all_records().unwrap();
    let report = verify_records(&records);
    assert!(report.ok(), "{:?}", report.problems);
    assert!(report.forks.is_empty());
    let acked = acked.lock().unwrap().clone();
    assert_eq!(acked.len(), 64 * 20 + 8 * 10);
    for ((game, seq), hash) in &acked {
        let g: [u8; 32] = hex::decode(game).unwrap().try_into().unwrap();
        let r = store
            .get(&g, *seq)
            .unwrap()
            .expect("acknowledged record present");
        assert_eq!(&hex::encode(r.hash()), hash);
    }
    let race_head = store.head(&race.game).unwrap().unwrap();
    assert_eq!(
        race_head.seq, 80,
        "8 writers x 10 wins on one chain, no fork"
    );
    drop(store);

    // A restart after the kill serves the same store.
    let server = Served::start(&data, &[]);
    let (_, h) = get_json(&format!(
        "{}/games/{}/head",
        server.url,
        hex::encode(race.game)
    ));
    assert_eq!(h["seq"], 80);
    assert!(server.terminate().success());
}

#[test]
fn bad_input_gets_a_4xx_naming_the_problem_and_nothing_is_written() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let server = Served::start(&data, &["--max-records", "5", "--max-body-mib", "1"]);
    let url = server.url.clone();
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("bad input"), 0);
    assert_eq!(post_records(&url, &c.records).0, 200);
    let cursor = |url: &str| {
        get_json(&format!("{url}/healthz")).1["next_cursor"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(cursor(&url), 1);

    let good = c.next(
        &cast.recorder,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    let mut bad_sig = good.clone();
    bad_sig.signature[3] ^= 0x40;
    let wrong_signer = c.next(
        &cast.stranger,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    let player_for_opponent = c.next(
        &cast.black,
        Body::ClockPressed {
            player: Color::White,
        },
    );
    let unknown_game = {
        let other = ChainBuilder::start(&cast.referee, cast.genesis("elsewhere"), 0);
        other.next(
            &cast.recorder,
            Body::ClockPressed {
                player: Color::Black,
            },
        )
    };
    let stale = {
        let far = Head {
            seq: c.head.seq + 5,
            hash: c.head.hash,
        };
        press_at(&c, far, &cast.recorder, 0)
    };
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "truncated bytes",
            "application/octet-stream",
            good.to_stored()[..30].to_vec(),
            400,
            "malformed",
        ),
        (
            "garbage",
            "application/octet-stream",
            b"\xff\xff\xff\x7fhello".to_vec(),
            400,
            "malformed",
        ),
        (
            "bad JSON",
            "application/json",
            b"{\"records\": [".to_vec(),
            400,
            "bad_json",
        ),
        (
            "not hex",
            "application/json",
            b"{\"records\": [\"zz\"]}".to_vec(),
            400,
            "bad_encoding",
        ),
        (
            "empty",
            "application/octet-stream",
            Vec::new(),
            400,
            "empty",
        ),
        (
            "bad signature",
            "application/octet-stream",
            bad_sig.to_stored(),
            422,
            "bad_signature",
        ),
        (
            "key not in the roster",
            "application/octet-stream",
            wrong_signer.to_stored(),
            403,
            "role_refused",
        ),
        (
            "a player signs for the opponent",
            "application/octet-stream",
            player_for_opponent.to_stored(),
            403,
            "role_refused",
        ),
        (
            "unknown game",
            "application/octet-stream",
            unknown_game.to_stored(),
            404,
            "unknown_game",
        ),
        (
            "a seq that does not follow",
            "application/octet-stream",
            stale.to_stored(),
            409,
            "conflict",
        ),
        (
            "too many records",
            "application/octet-stream",
            good.to_stored().repeat(6),
            413,
            "too_many_records",
        ),
    ];
    for (what, ct, body, status, code) in cases {
        let (s, v) = post(&format!("{url}/records"), ct, &body);
        assert_eq!(s, status, "{what}: {v}");
        assert_eq!(v["error"]["code"], code, "{what}: {v}");
        assert!(
            !v["error"]["message"].as_str().unwrap().is_empty(),
            "{what}"
        );
        assert_eq!(cursor(&url), 1, "{what}: nothing written");
    }
    // A body over the size limit (1 MiB here): a request that announces
    // 2 MiB and sends one byte over the limit, all of which the server
    // reads before it answers, so its closing the connection cannot reset
    // the answer away (as it can when the client is still sending).
    let (status, v) = oversized(&url, 2 << 20, (1 << 20) + 1);
    assert_eq!(status, 413, "an oversized body is answered 413: {v}");
    assert_eq!(v["error"]["code"], "body_too_large");
    assert_eq!(cursor(&url), 1, "oversized body: nothing written");
    let (s, v) = get_json(&format!("{url}/games/ffff/state"));
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (404, Some("unknown_game"))
    );
    let (s, v) = get_json(&format!("{url}/games/{}/state?at=99", hex::encode(c.game)));
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (404, Some("no_such_event"))
    );
    let (s, _) = get_json(&format!("{url}/no/such/thing"));
    assert_eq!(s, 404);
    for (path, status) in [
        (
            format!("/games/{}/state?at=minus-one", hex::encode(c.game)),
            400,
        ),
        ("/feed?after=x".to_string(), 400),
        ("/feed?wait=NaN&after=0".to_string(), 200),
    ] {
        let r = match ureq::get(&format!("{url}{path}")).call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{path}: {e}"),
        };
        assert_eq!(r.status(), status, "{path}");
        if status >= 400 {
            let v: Value = r.into_json().expect("a JSON error");
            assert!(v["error"]["message"].as_str().is_some(), "{path}: {v}");
        }
    }
    let r = ureq::get(&format!("{url}/records")).call();
    assert!(matches!(r, Err(ureq::Error::Status(405, _))));

    // The good one still goes in, and the JSON form works too.
    let (s, v) = post(
        &format!("{url}/records"),
        "application/json",
        format!(
            "{{\"records\": [{{\"hex\": \"{}\"}}]}}",
            hex::encode(good.to_stored())
        )
        .as_bytes(),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["results"][0]["seq"], 1);
    c.push(
        &cast.recorder,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    assert!(server.terminate().success());
    let o = ok(&run(&data, &["verify"]));
    assert!(o.contains("1 game, 2 events"), "{o}");
}

/// The `curl` lines of `docs/API.md`, as written.
fn api_doc_examples() -> Vec<String> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md"))
            .expect("docs/API.md");
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if in_sh && line.starts_with("curl ") {
            out.push(line.to_string());
        }
    }
    out
}

#[test]
fn api_examples_run_as_documented() {
    if !curl_present() {
        assert!(!peers_required(), "curl is required (KIFU_REQUIRE_PEERS=1)");
        eprintln!("skipping the API examples: curl is not installed");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let client = t.path().join("client");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let demo: Value =
        serde_json::from_str(&ok(&run(&client, &["--server", &url, "demo", "--json"]))).unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    // record.bin: the referee's next event in the demo game.
    let key = kifu_ledger::Keypair::from_pkcs8_pem(
        &std::fs::read_to_string(client.join("demo-keys/referee.key")).unwrap(),
    )
    .unwrap();
    let (_, h) = get_json(&format!("{url}/games/{game}/head"));
    let head = Head {
        seq: h["seq"].as_u64().unwrap(),
        hash: hex::decode(h["hash"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap(),
    };
    let g: [u8; 32] = hex::decode(&game).unwrap().try_into().unwrap();
    let rec = Event::next(
        g,
        head,
        demo_time(&url, &game) + 1_000,
        key.public(),
        Body::ClockPaused {
            reason: kifu_ledger::PauseReason::Announcement,
        },
    )
    .sign(&key)
    .unwrap();
    let work = t.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("record.bin"), rec.to_stored()).unwrap();
    let examples = api_doc_examples();
    assert!(examples.len() >= 15, "{examples:?}");
    for ex in &examples {
        let o = std::process::Command::new("bash")
            .args(["-c", ex])
            .current_dir(&work)
            .env("KIFU", &url)
            .env("GAME", &game[..12])
            .env("REFEREE_KEY", key.public().to_hex())
            .output()
            .expect("bash runs");
        assert!(
            o.status.success(),
            "{ex}\nexit {:?}\n{}\n{}",
            o.status.code(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(ok(&run(
        &client,
        &["verify", work.join("all.kifu").to_str().unwrap()]
    ))
    .starts_with("ok:"));
    assert!(server.terminate().success());
}

fn demo_time(url: &str, game: &str) -> u64 {
    get_json(&format!("{url}/games/{game}")).1["last_at_ms"]
        .as_u64()
        .unwrap()
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|c| {
        std::process::Command::new(c)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

#[test]
fn the_replay_page_draws_the_board_of_the_projection_in_a_real_browser() {
    let Some(browser) = chromium() else {
        assert!(
            !peers_required(),
            "chromium is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!("skipping the replay page in a browser: chromium is not installed");
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
    let (_, state) = get_json(&format!("{url}/games/{game}/state?at=26"));
    let stones: usize = state["board_view"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_str()
                .unwrap()
                .chars()
                .filter(|c| *c == 'X' || *c == 'O')
                .count()
        })
        .sum();
    let o = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            &format!("{url}/games/{game}/at/26?live=0"),
        ])
        .stderr(Stdio::null())
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&o.stdout);
    assert!(dom.contains("event 26 of 62"), "{dom}");
    assert_eq!(
        dom.matches("<circle").count(),
        stones,
        "stones drawn = stones in the projection"
    );
    assert!(dom.contains("If any illegal move is made and if this is noticed within three moves"));
    assert!(dom.contains("verified: every link, signature and role"));
    // The page speaks as the board and the clock do: points as the board
    // labels them, clocks as faces, no codes.
    assert!(dom.contains("Black stone at B9"), "{dom}");
    assert!(dom.contains("● Black 10:15"), "{dom}");
    assert!(
        dom.contains("Black player (black): Black plays B9"),
        "{dom}"
    );
    assert!(!dom.contains("\"None\"") && !dom.contains("Some("), "{dom}");
    assert!(server.terminate().success());
}

#[test]
fn sigterm_under_load_answers_what_it_accepted_and_loses_none_of_it() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let cast = Arc::new(Cast::new());
    let acked: Arc<Mutex<Vec<(String, u64, String)>>> = Default::default();
    let handles: Vec<_> = (0..16u32)
        .map(|board| {
            let (url, cast, acked) = (url.clone(), cast.clone(), acked.clone());
            std::thread::spawn(move || {
                let mut c =
                    ChainBuilder::start(&cast.referee, cast.genesis(&format!("term {board}")), 0);
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(20))
                    .build();
                let mut next = c.records[0].clone();
                // Until the server stops answering; bounded in count.
                for i in 0..100_000u64 {
                    let r = agent
                        .post(&format!("{url}/records"))
                        .set("Content-Type", "application/octet-stream")
                        .send_bytes(&next.to_stored());
                    let Ok(r) = r else { break };
                    let v: Value = r.into_json().unwrap();
                    let a = &v["results"][0];
                    acked.lock().unwrap().push((
                        a["game"].as_str().unwrap().into(),
                        a["seq"].as_u64().unwrap(),
                        a["hash"].as_str().unwrap().into(),
                    ));
                    let color = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    next = c
                        .push(&cast.recorder, Body::ClockPressed { player: color })
                        .clone();
                }
            })
        })
        .collect();
    // Let the boards record for a while, then stop the server under load.
    let started = Instant::now();
    while acked.lock().unwrap().len() < 500 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    for h in handles {
        h.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 500);
    let store = Store::open(&data).unwrap();
    assert!(verify_records(&store.all_records().unwrap()).ok());
    for (game, seq, hash) in &acked {
        let g: [u8; 32] = hex::decode(game).unwrap().try_into().unwrap();
        let r = store
            .get(&g, *seq)
            .unwrap()
            .expect("acknowledged record present");
        assert_eq!(&hex::encode(r.hash()), hash);
    }
}

#[test]
fn a_long_poll_returns_with_the_next_record_once_it_is_durable() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("served");
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("long poll"), 0);
    assert_eq!(post_records(&url, &c.records).0, 200);
    // Nothing after cursor 0 yet: the poll waits (up to 30 s) for the next.
    let poll_url = format!("{url}/feed?after=0&wait=30");
    let poll =
        std::thread::spawn(move || ureq::get(&poll_url).call().unwrap().into_string().unwrap());
    std::thread::sleep(Duration::from_millis(300));
    let r = c
        .push(
            &cast.recorder,
            Body::ClockPressed {
                player: Color::Black,
            },
        )
        .clone();
    assert_eq!(post_records(&url, std::slice::from_ref(&r)).0, 200);
    let body = poll.join().unwrap();
    let lines: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{body}");
    assert_eq!(lines[0]["cursor"], 1);
    assert_eq!(lines[0]["event_bytes"], hex::encode(&r.event_bytes));
    assert!(server.terminate().success());
}

#[test]
fn a_read_refused_for_load_is_tried_again_after_its_retry_after() {
    // A server that is full at the first request and answers the second.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let fake = std::thread::spawn(move || {
        for (i, conn) in listener.incoming().take(2).enumerate() {
            let mut s = conn.unwrap();
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            let mut head = Vec::new();
            let mut b = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && s.read(&mut b).unwrap_or(0) == 1 {
                head.push(b[0]);
            }
            let line = String::from_utf8_lossy(&head)
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            log.lock().unwrap().push((line, Instant::now()));
            let answer = if i == 0 {
                let body = r#"{"error":{"code":"busy","status":503,"message":"full"}}"#;
                format!("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
            } else {
                let body = r#"{"games":[]}"#;
                format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
            };
            s.write_all(answer.as_bytes()).unwrap();
        }
    });
    let t = tempfile::tempdir().unwrap();
    let o = run(
        &t.path().join("client"),
        &["--server", &url, "games", "--json"],
    );
    fake.join().unwrap();
    assert!(o.status.success(), "{}", err(&o));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen.iter().all(|(l, _)| l.starts_with("GET /games ")),
        "{seen:?}"
    );
    // Not before the second the server asked for.
    assert!(seen[1].1.duration_since(seen[0].1) >= Duration::from_millis(900));
}
