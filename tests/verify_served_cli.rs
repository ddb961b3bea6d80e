//! `kifu --server URL verify`: the server verifies its store where it is
//! (`GET /verify`), and the command prints what verifying that store
//! locally prints (text, JSON, exit code), naming the server as the place.
//! Fork evidence kept in the store is reported through the server as such,
//! with exit code 3.

mod common;
use common::*;

use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::{Body, Color, Head, Point};
use kifu_store::Store;
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn server_verify(url: &str) -> Value {
    let r = match ureq::get(&format!("{url}/verify")).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}/verify: {e}"),
    };
    r.into_json().expect("JSON")
}

#[test]
fn the_store_verified_by_the_server_reads_as_a_local_verification() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    ok(&run(&data, &["demo"]));
    ok(&run(&data, &["demo"]));
    let local_json = json(&ok(&run(&data, &["verify", "--json"])));
    let local_text = ok(&run(&data, &["verify"]));
    assert_eq!(local_json["ok"], true, "{local_json}");
    assert_eq!(local_json["games"].as_array().map(Vec::len), Some(2));

    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let client = t.path().join("client");
    let o = run(&client, &["--server", &url, "verify", "--json"]);
    let served_json = json(&ok(&o));
    assert_eq!(
        served_json, local_json,
        "the same document, field for field"
    );
    // The server's own answer is the document (the command adds only the
    // manifest line an archive would have, null for a store).
    let mut answer = server_verify(&url);
    answer
        .as_object_mut()
        .unwrap()
        .insert("manifest".into(), Value::Null);
    assert_eq!(answer, local_json);

    let o = run(&client, &["--server", &url, "verify", "--progress"]);
    let served_text = ok(&o);
    let events = local_json["distinct"].as_u64().unwrap();
    let expected = local_text.replacen(
        &format!("ok: store {}:", data.display()),
        &format!("ok: server {url}:"),
        1,
    );
    assert_ne!(expected, local_text, "the local text names its store");
    assert_eq!(served_text, expected);
    let progress = err(&o);
    assert!(
        progress.contains(&format!("verifying {events} events at server {url}")),
        "progress on stderr: {progress}"
    );
    assert!(
        progress.contains(&format!(
            "verifying {events} events at server {url}: 2 of 2 games, {events} events verified"
        )),
        "progress on stderr: {progress}"
    );
    // The streamed answer: progress lines, then the report.
    let streamed = ureq::get(&format!("{url}/verify?progress=1"))
        .call()
        .unwrap();
    assert_eq!(streamed.content_type(), "application/x-ndjson");
    let lines: Vec<Value> = streamed.into_string().unwrap().lines().map(json).collect();
    let (last, before) = lines.split_last().unwrap();
    assert!(!before.is_empty());
    assert!(
        before.iter().all(|l| l["progress"]["games"] == 2),
        "{lines:?}"
    );
    let mut report = last["report"].clone();
    report
        .as_object_mut()
        .unwrap()
        .insert("manifest".into(), Value::Null);
    assert_eq!(report, local_json);
    // Nothing was downloaded into the client's directory.
    assert!(!client.join("db").exists());
    // A file is still verified here, offline, even with a server named.
    let archive = t.path().join("all.kifu");
    ok(&run(
        &data,
        &[
            "--server",
            &url,
            "export",
            "--out",
            archive.to_str().unwrap(),
        ],
    ));
    let o = ok(&run(
        &client,
        &["--server", &url, "verify", archive.to_str().unwrap()],
    ));
    assert!(o.starts_with(&format!("ok: {}:", archive.display())), "{o}");
    server.stop();
}

/// A store holding a game and, beside its chain, a second validly signed
/// record at one of its places: the evidence of a fork.
fn forked_store(data: &std::path::Path) -> (String, u64) {
    let cast = Cast::new();
    let game = sample_game(&cast, "forked");
    // Black's first stone is at seq 2; the other record claims seq 2 too.
    let mut before = game.clone();
    before.records.truncate(2);
    before.head = Head {
        seq: 1,
        hash: before.records[1].hash(),
    };
    let other = before.next(
        &cast.black,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 3, y: 3 },
        },
    );
    assert_ne!(other.hash(), game.records[2].hash());
    std::fs::create_dir_all(data).unwrap();
    let store = Store::open(data).unwrap();
    store.append_batch(game.records.clone()).unwrap();
    assert_eq!(store.keep_evidence(&[other]).unwrap(), 1);
    (hex::encode(game.game), 2)
}

#[test]
fn fork_evidence_is_reported_through_the_server() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let (game, seq) = forked_store(&data);
    // Locally: a fork, exit code 3.
    let local = run(&data, &["verify", "--json"]);
    assert_eq!(local.status.code(), Some(3), "{}", err(&local));
    let local_json = json(&out(&local));
    assert_eq!(local_json["forks"][0]["game"], game.as_str());

    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    // The server's report names the fork.
    let answer = server_verify(&url);
    assert_eq!(answer["ok"], false, "{answer}");
    let forks = answer["forks"].as_array().expect("forks");
    assert_eq!(forks.len(), 1, "{answer}");
    assert_eq!(forks[0]["game"], game.as_str());
    assert_eq!(forks[0]["seq"], seq);
    assert_eq!(forks[0]["records"].as_array().map(Vec::len), Some(2));

    let client = t.path().join("client");
    let o = run(&client, &["--server", &url, "verify"]);
    assert_eq!(
        o.status.code(),
        Some(3),
        "stdout {} stderr {}",
        out(&o),
        err(&o)
    );
    let e = err(&o);
    assert!(
        e.contains(&format!(
            "FAIL game {} seq {seq}: fork: 2 validly signed records",
            &game[..16]
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "verification failed: 1 problem(s) in server {url}"
        )),
        "{e}"
    );
    let o = run(&client, &["--server", &url, "verify", "--json"]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json(&out(&o)), local_json);
    let last = err(&o);
    assert_eq!(json(last.trim())["code"], "verification_failed", "{last}");
    server.stop();
}

/// An archive holding a fork is refused before anything is sent: through a
/// server, as locally, an archive that does not verify writes nothing.
#[test]
fn an_archive_that_does_not_verify_is_not_sent_to_the_server() {
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    let c = sample_game(&cast, "forked on the way");
    let mut records = c.records.clone();
    // A second record at seq 3, validly signed: a fork inside the archive.
    let mut other = kifu_ledger::testkit::ChainBuilder {
        game: c.game,
        head: Head {
            seq: 2,
            hash: c.records[2].hash(),
        },
        records: vec![],
        at_ms: 0,
    };
    records.push(
        other
            .push(
                &cast.white,
                Body::ClockPressed {
                    player: Color::White,
                },
            )
            .clone(),
    );
    let arc = t.path().join("forked.kifu");
    std::fs::write(&arc, kifu_ledger::archive::write(&records)).unwrap();

    let data = t.path().join("data");
    let server = Served::start(&data, &[]);
    let client = t.path().join("client");
    let o = run(
        &client,
        &["--server", &server.url, "import", arc.to_str().unwrap()],
    );
    assert_ne!(o.status.code(), Some(0), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("fork"), "{e}");
    assert!(e.contains("nothing sent to the server"), "{e}");
    assert!(!e.contains("kept as evidence"), "{e}");
    // The server's store is still empty.
    let games: Value = ureq::get(&format!("{}/games", server.url))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(games["games"].as_array().map(Vec::len), Some(0), "{games}");
    server.stop();
}
