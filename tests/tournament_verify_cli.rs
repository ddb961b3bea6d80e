//! End to end: `kifu tournament verify ID` reports every problem of a
//! tournament chain file in the words and JSON of `kifu verify FILE`, with
//! exit code 3, a file holding two tournaments fails in both, and the
//! games a verified chain pairs are checked against the store.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

use kifu_ledger::{archive, Body, Event, Head, Keypair, Participant, Record, Registration, Role};
use kifu_tournament::{mcmahon_genesis, Chain};

fn director() -> Keypair {
    Keypair::from_seed([0x51; 32])
}
fn outsider() -> Keypair {
    Keypair::from_seed([0x53; 32])
}

fn officials() -> Vec<Participant> {
    vec![Participant {
        role: Role::Director,
        name: "Director".into(),
        key: director().public(),
    }]
}

fn bye(round: u32, player: &str) -> Body {
    Body::ByeGiven {
        round,
        player: player.into(),
    }
}

/// A genesis and three registrations: seq 0 to 3.
fn chain(name: &str, short_name: &str) -> Chain {
    let mut c = Chain::create(
        &director(),
        1_000,
        mcmahon_genesis(name, short_name, 3, officials()),
    )
    .expect("genesis");
    for (i, (id, rank)) in [("P1", "2d"), ("P2", "1d"), ("P3", "1k")]
        .into_iter()
        .enumerate()
    {
        let body = Body::PlayerRegistered(Registration {
            surname: format!("Surname {id}"),
            rank: rank.into(),
            ..kifu_ledger::testkit::registration(id)
        });
        c.append(&director(), 10_000 + i as u64, body)
            .expect("register");
    }
    c
}

fn after(c: &Chain, head: Head, key: &Keypair, at_ms: u64, body: Body) -> Record {
    Event::next(c.id(), head, at_ms, key.public(), body)
        .sign(key)
        .expect("signs")
}

/// Writes `records` as the chain file of tournament `id` in `data`.
fn write_file(data: &Path, id: &[u8; 32], records: &[Record]) -> PathBuf {
    let dir = data.join("tournaments");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.kifu", hex::encode(id)));
    std::fs::write(&file, archive::write(records)).unwrap();
    file
}

fn fail_lines(o: &Output) -> Vec<String> {
    err(o)
        .lines()
        .filter(|l| l.starts_with("FAIL "))
        .map(String::from)
        .collect()
}

fn json_of(o: &Output) -> serde_json::Value {
    serde_json::from_str(out(o).trim()).unwrap_or_else(|e| panic!("{e}: {}", out(o)))
}

#[test]
fn tournament_verify_reports_every_problem_like_kifu_verify() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let c = chain("Verify Open", "vo");
    let head = c.head();
    // seq 4 by someone who is no official: refused; seq 5 after it: not on
    // the chain.
    let stranger = after(&c, head, &outsider(), 30_000, bye(1, "P1"));
    let after_stranger = after(
        &c,
        Head {
            seq: 4,
            hash: stranger.hash(),
        },
        &director(),
        30_001,
        bye(1, "P2"),
    );
    // Also at seq 4 (a fork): a bye for a player nobody registered.
    let unregistered = after(&c, head, &director(), 30_002, bye(1, "P9"));
    // A gap: seq 9 follows a record that is not there.
    let orphan = after(
        &c,
        Head {
            seq: 8,
            hash: [7; 32],
        },
        &director(),
        30_003,
        bye(2, "P3"),
    );
    let mut records = c.records.clone();
    records.extend([stranger, after_stranger, unregistered, orphan]);
    let file = write_file(&data, &c.id(), &records);
    let id = hex::encode(c.id());

    let by_file = run(&data, &["verify", file.to_str().unwrap()]);
    let by_id = run(&data, &["tournament", "verify", &id]);
    let by_name = run(&data, &["tournament", "verify", "vo"]);
    for o in [&by_file, &by_id, &by_name] {
        assert_eq!(o.status.code(), Some(3), "{}", err(o));
    }
    let lines = fail_lines(&by_id);
    assert_eq!(lines.len(), 5, "every problem, not the first: {lines:#?}");
    assert_eq!(lines, fail_lines(&by_file), "the same words");
    assert_eq!(lines, fail_lines(&by_name));
    for want in [
        "only the tournament director",
        "not on the verified chain",
        "fork: 2 validly signed records",
        "gap",
    ] {
        assert!(lines.iter().any(|l| l.contains(want)), "{want}: {lines:#?}");
    }
    // A tournament fact beyond the format, in the same words in both.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("not a fact of this tournament: player \"P9\" is not registered")),
        "{lines:#?}"
    );
    assert!(err(&by_id).contains("5 problem(s)"), "{}", err(&by_id));
    assert!(
        !out(&by_id).lines().any(|l| l == "verified"),
        "{}",
        out(&by_id)
    );
    // What the longest verified branch records is still shown.
    assert!(out(&by_id).contains("3 players"), "{}", out(&by_id));

    // --json: the shape of `kifu verify FILE --json`.
    let fj = json_of(&run(&data, &["verify", file.to_str().unwrap(), "--json"]));
    let o = run(&data, &["tournament", "verify", &id, "--json"]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let tj = json_of(&o);
    assert_eq!(tj["ok"], false);
    for key in [
        "problems",
        "forks",
        "duplicates",
        "warnings",
        "games",
        "records",
        "distinct",
        "tournament",
        "players",
    ] {
        assert_eq!(tj[key], fj[key], "{key}");
    }
    assert_eq!(tj["problems"].as_array().unwrap().len(), 5, "{tj}");
    assert_eq!(tj["games"][0]["chain"], "tournament");
    assert_eq!(tj["games"][0]["head_seq"], 3);
    assert_eq!(tj["paired_games"], serde_json::json!([]));

    // The chain alone verifies, in text and JSON.
    write_file(&data, &c.id(), &c.records);
    let v = ok(&run(&data, &["tournament", "verify", &id]));
    assert!(v.lines().any(|l| l == "verified"), "{v}");
    let j = json_of(&run(&data, &["tournament", "verify", &id, "--json"]));
    assert_eq!(j["ok"], true, "{j}");
    assert_eq!(j["problems"], serde_json::json!([]));
}

#[test]
fn a_file_with_two_tournaments_fails_naming_each_chain() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let one = chain("First Open", "one");
    let two = chain("Second Open", "two");
    let mut records = one.records.clone();
    records.extend(two.records.clone());
    let file = write_file(&data, &one.id(), &records);
    let (a, b) = (hex::encode(one.id()), hex::encode(two.id()));

    let by_file = run(&data, &["verify", file.to_str().unwrap()]);
    let by_id = run(&data, &["tournament", "verify", &a[..12]]);
    for o in [&by_file, &by_id] {
        assert_eq!(o.status.code(), Some(3), "{}", err(o));
        let lines = fail_lines(o);
        assert_eq!(lines.len(), 1, "{lines:#?}");
        assert!(
            lines[0].contains("more than one tournament chain in one file"),
            "{lines:#?}"
        );
        assert!(lines[0].contains(&a) && lines[0].contains(&b), "{lines:#?}");
    }
    assert_eq!(fail_lines(&by_file), fail_lines(&by_id));
    for args in [
        vec!["verify", file.to_str().unwrap(), "--json"],
        vec!["tournament", "verify", &a, "--json"],
    ] {
        let o = run(&data, &args);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", err(&o));
        let j = json_of(&o);
        assert_eq!(j["ok"], false, "{j}");
        let problems = j["problems"].as_array().unwrap();
        assert_eq!(problems.len(), 1, "{j}");
        let what = problems[0]["what"].as_str().unwrap();
        assert!(what.starts_with("more than one tournament chain in one file"));
        assert!(what.contains(&a) && what.contains(&b), "{what}");
        // Both chains are listed, each with its own id.
        let games: Vec<&str> = j["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["game"].as_str().unwrap())
            .collect();
        assert_eq!(games.len(), 2, "{j}");
        assert!(games.contains(&a.as_str()) && games.contains(&b.as_str()));
    }
}

#[test]
fn paired_games_are_checked_against_the_store_in_text_and_json() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("kifu-data");
    ok(&run(&data, &["demo"]));
    let list = ok(&run(&data, &["tournament", "list"]));
    let demo = list.split_whitespace().next().unwrap().to_string();
    let j = json_of(&run(&data, &["tournament", "verify", &demo, "--json"]));
    assert_eq!(j["ok"], true, "{j}");
    let games = j["paired_games"].as_array().unwrap();
    assert!(!games.is_empty(), "{j}");
    assert!(games.iter().all(|g| g["ok"] == true), "{j}");

    // A verified chain pairing a game the store does not hold.
    let mut c = chain("Store Open", "so");
    c.append(
        &director(),
        20_000,
        Body::Paired(kifu_ledger::Pairing {
            round: 1,
            board: 1,
            white: "P1".into(),
            black: "P2".into(),
            handicap: 0,
            game: Some([9; 32]),
        }),
    )
    .expect("paired");
    write_file(&data, &c.id(), &c.records);
    let o = run(&data, &["tournament", "verify", "so"]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert_eq!(
        fail_lines(&o),
        vec![format!(
            "FAIL round 1 board 1, game {}: not in the store",
            hex::encode([9u8; 8])
        )]
    );
    let o = run(&data, &["tournament", "verify", "so", "--json"]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let j = json_of(&o);
    assert_eq!(j["ok"], false, "{j}");
    assert_eq!(
        j["problems"],
        serde_json::json!([]),
        "the chain itself verifies"
    );
    assert_eq!(j["paired_games"][0]["ok"], false, "{j}");
    assert_eq!(j["paired_games"][0]["game"], hex::encode([9u8; 32]));
    assert_eq!(
        j["paired_games"][0]["problems"],
        serde_json::json!(["not in the store"])
    );
}

/// A file holding a tournament chain and a game chain is not a tournament
/// chain file (FORMAT.md section 10): it is an archive of games carrying
/// its tournament chain (section 7). The chain is verified as a chain file
/// and names the organiser's key, which the archive is checked against
/// with no key given: a `KIFUARC1` file has no manifest, so it fails for
/// that alone, naming no problem in either chain; signed by the organiser
/// it verifies. The game chain is verified in both.
#[test]
fn a_file_mixing_a_tournament_and_a_game_is_checked_against_the_organiser() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let tour = chain("Mixed Open", "mixed");
    let cast = kifu_ledger::testkit::Cast::new();
    let game = kifu_ledger::testkit::sample_game(&cast, "beside a tournament");
    let mut records = tour.records.clone();
    records.extend(game.records.clone());
    let file = t.path().join("mixed.kifu");
    std::fs::write(&file, archive::write(&records)).unwrap();
    let o = run(&data, &["verify", file.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let j = json_of(&o);
    assert_eq!(j["ok"], false, "{j}");
    let tid = hex::encode(tour.id());
    assert_eq!(j["tournament"]["id"].as_str(), Some(tid.as_str()), "{j}");
    let problems = j["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{j}");
    let what = problems[0]["what"].as_str().unwrap();
    assert!(what.contains("untrusted"), "{what}");
    // Signed by the organiser (the chain's director), listing both chains.
    let signer = tour.records[0].header().unwrap().signer;
    let organiser = j["tournament"]["organiser_keys"][0].as_str().unwrap();
    assert_eq!(organiser, signer.to_hex(), "{j}");
    let head = |rs: &[kifu_ledger::Record]| kifu_ledger::Head {
        seq: rs.len() as u64 - 1,
        hash: rs[rs.len() - 1].hash(),
    };
    let heads = [(tour.id(), head(&tour.records)), (game.game, game.head)];
    let signed = t.path().join("signed.kifu");
    std::fs::write(
        &signed,
        archive::write_with_manifest(&records, &heads, 1, Some(&director())).unwrap(),
    )
    .unwrap();
    let o = run(&data, &["verify", signed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("checked against the organiser's key"),
        "{}",
        out(&o)
    );
    let gid = hex::encode(game.game);
    let listed: Vec<&serde_json::Value> = j["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["game"].as_str() == Some(gid.as_str()))
        .collect();
    assert_eq!(listed.len(), 1, "{j}");
    assert_eq!(
        listed[0]["events"].as_u64(),
        Some(game.records.len() as u64),
        "{j}"
    );
}
