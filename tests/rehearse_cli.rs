//! `kifu rehearse`: a whole event through the venue's HTTP calls, with the
//! faults a venue has (the server killed, tables offline), reconciled
//! against the store; what it leaves verifies, and its standings are the
//! chain's.

mod common;
#[path = "../crates/kifu-nats/tests/support/mod.rs"]
mod nats_support;

use std::path::Path;

use common::*;
use serde_json::Value;

fn rehearse(data: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["rehearse", "--json"];
    args.extend_from_slice(extra);
    let o = run(data, &args);
    assert!(
        o.status.success(),
        "kifu rehearse failed: {}\n{}",
        err(&o),
        out(&o)
    );
    serde_json::from_str(&out(&o)).expect("the report is JSON")
}

/// The standings the rehearsal's desk read after each round are those
/// `kifu tournament standings --after-round N` computes from the chain.
fn standings_are_the_chains(data: &Path, r: &Value) {
    let t = r["tournament"].as_str().unwrap();
    for round in r["rounds_at_the_desk"].as_array().unwrap() {
        let n = round["round"].to_string();
        let cli: Value = serde_json::from_str(&ok(&run(
            data,
            &["tournament", "standings", t, "--after-round", &n, "--json"],
        )))
        .unwrap();
        assert_eq!(cli["table"], round["standings"]["table"], "round {n}");
    }
}

/// Two rounds on eight tables (two with a tablet each, a recorder's, a
/// paper board) with the server killed in each round and a quarter of the
/// tablet tables offline for two seconds: every record a tablet was told
/// is stored is in the store once, the archive verifies, the standings
/// after each round are `kifu tournament standings`, and a game's appeal
/// bundle verifies.
/// The report's records: none lost, none duplicated, every one signed
/// stored.
fn nothing_lost(r: &Value) -> &Value {
    let rec = &r["records"];
    assert_eq!(rec["lost"], 0, "{rec}");
    assert_eq!(rec["duplicated"], 0, "{rec}");
    assert_eq!(rec["signed"], rec["stored"], "{rec}");
    rec
}

#[test]
fn an_event_with_the_server_killed_and_tables_offline_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let r = rehearse(
        &data,
        &[
            "--boards",
            "8",
            "--rounds",
            "2",
            "--pace",
            "3000",
            "--tables",
            "50:25:25",
            "--kill-server",
            "--offline",
            "50",
            "--offline-secs",
            "2",
            "--judged",
            "50",
            "--spectators",
            "3",
            "--seed",
            "5",
        ],
    );
    let rec = nothing_lost(&r);
    assert_eq!(rec["unacknowledged"], 0, "{rec}");
    assert!(rec["stored"].as_u64().unwrap() > 8 * 100, "{rec}");
    assert_eq!(r["server"]["kills"], 2, "one kill a round");
    assert!(
        r["counts"]["tables offline"].as_u64().unwrap_or(0) >= 1,
        "{}",
        r["counts"]
    );
    assert!(
        r["counts"]["referee calls"].as_u64().unwrap_or(0) >= 1,
        "{}",
        r["counts"]
    );
    assert!(r["latency"]["ack after offline"]["n"].as_u64().unwrap_or(0) >= 1);
    for round in r["rounds_at_the_desk"].as_array().unwrap() {
        assert_eq!(round["unfinished"], serde_json::json!([]), "{round}");
        assert_eq!(round["boards"], 8);
        assert_eq!(round["paper"], 2, "two paper boards");
        assert_eq!(round["games"], 6, "six tablet games");
    }
    // Every game's bundle verifies, in both forms, and the compact one is
    // the smaller.
    let b = &r["bundles"];
    assert_eq!(b["read"], 12, "{b}");
    assert_eq!(b["verified"], 12, "{b}");
    assert_eq!(b["compact_verified"], 12, "{b}");
    assert!(
        b["largest_compact_bytes"].as_u64().unwrap() * 2 < b["largest_bytes"].as_u64().unwrap(),
        "{b}"
    );
    // Every spectator followed the feed to its end.
    let s = &r["spectators"];
    assert_eq!(s["at_the_end"], 3, "{s}");
    assert_eq!(s["fewest"], s["most"], "{s}");
    assert!(
        r["verdict"]
            .as_str()
            .unwrap()
            .starts_with("this server carried"),
        "{}",
        r["verdict"]
    );

    // What it leaves: the store verifies, the standings are the chain's.
    ok(&run(&data, &["verify"]));
    standings_are_the_chains(&data, &r);
    let games: Value = serde_json::from_str(&ok(&run(&data, &["games", "--json"]))).unwrap();
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 12, "six tablet games a round");
    assert!(
        games.iter().all(|g| g["phase"] == "finished"),
        "every game finished"
    );
    let game = games[0]["game"].as_str().unwrap();
    // The organiser signs the log's head afterwards, then bundles a game.
    let op = dir.path().join("op");
    ok(&run(&data, &["keygen", op.to_str().unwrap()]));
    let cp = dir.path().join("cp");
    let key = dir.path().join("op.key");
    ok(&run(
        &data,
        &[
            "checkpoint",
            "--key",
            key.to_str().unwrap(),
            "--out",
            cp.to_str().unwrap(),
        ],
    ));
    let bundle = dir.path().join("game.bundle");
    ok(&run(
        &data,
        &[
            "bundle",
            game,
            "--out",
            bundle.to_str().unwrap(),
            "--checkpoint",
            cp.to_str().unwrap(),
        ],
    ));
    ok(&run(&data, &["verify", bundle.to_str().unwrap()]));
}

/// A sample of rounds too long to play whole: at 2× real pace each round
/// stops after six seconds of play (`--minutes 0.1`); its games stop where
/// they stand, counted as stopped, not failed; the paper boards' sheets
/// come by then; the desk gives each stopped game a result, and the next
/// round is played on the same tablets. Nothing signed is lost, and what is
/// left verifies.
#[test]
fn rounds_stopped_at_the_time_limit_lose_nothing_and_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let r = rehearse(
        &data,
        &[
            "--boards",
            "4",
            "--rounds",
            "2",
            "--pace",
            "2",
            "--minutes",
            "0.1",
            "--tables",
            "50:25:25",
            "--spectators",
            "2",
            "--seed",
            "9",
        ],
    );
    nothing_lost(&r);
    assert_eq!(
        r["counts"]["games stopped at the time limit"], 6,
        "three tablet games a round, each stopped: {}",
        r["counts"]
    );
    let rounds = r["rounds_at_the_desk"].as_array().unwrap();
    assert_eq!(rounds.len(), 2);
    for round in rounds {
        assert_eq!(round["unfinished"], serde_json::json!([]), "{round}");
    }
    ok(&run(&data, &["verify"]));
    standings_are_the_chains(&data, &r);
}

/// At a shared recorder tablet each player's own key, made on the tablet
/// and bound to the player's seat by a referee, signs that player's result
/// sheet, as at a table with a tablet each: every game the rehearsal
/// leaves reaches a signed result in its own chain, each recorder game's
/// two sheets are signed by its two players' keys and not by the
/// recorder's, and the tablet keeps the keys from one round to the next.
#[test]
fn players_at_a_shared_tablet_sign_their_own_result_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let r = rehearse(
        &data,
        &[
            "--boards",
            "4",
            "--rounds",
            "2",
            "--pace",
            "3000",
            "--tables",
            "50:50:0",
            "--judged",
            "50",
            "--spectators",
            "1",
            "--seed",
            "3",
        ],
    );
    let rec = &r["records"];
    assert_eq!(
        (&rec["lost"], &rec["duplicated"]),
        (&0.into(), &0.into()),
        "{rec}"
    );
    for round in r["rounds_at_the_desk"].as_array().unwrap() {
        assert_eq!(round["unfinished"], serde_json::json!([]), "{round}");
    }
    let verified: Value =
        serde_json::from_str(&ok(&run(&data, &["verify", "--json"]))).expect("verify's JSON");
    assert_eq!(verified["ok"], true, "{}", verified["problems"]);
    let games = verified["games"].as_array().unwrap();
    assert_eq!(games.len(), 8, "four tablet games a round");
    let unsigned: Vec<&Value> = games.iter().filter(|g| g["result_seq"].is_null()).collect();
    assert!(
        unsigned.is_empty(),
        "{} of {} games have no signed result in their own chain: {unsigned:?}",
        unsigned.len(),
        games.len()
    );
    let mut recorded = 0;
    let mut players_keys = std::collections::BTreeSet::new();
    for g in games {
        let id = g["game"].as_str().unwrap();
        let log: Vec<Value> = ok(&run(&data, &["log", id, "--json"]))
            .lines()
            .map(|l| serde_json::from_str(l).expect("a log line is JSON"))
            .collect();
        let roster = log[0]["body"]["game_created"]["roster"]
            .as_array()
            .expect("the genesis names a roster");
        let Some(recorder) = roster.iter().find(|p| p["role"] == "recorder") else {
            continue;
        };
        recorded += 1;
        // The players' keys: those a referee bound to the players' seats.
        let bound = |seat: &str| -> String {
            let held = &roster.iter().find(|p| p["role"] == seat).unwrap()["key"];
            let replaced: Vec<&Value> = log
                .iter()
                .filter_map(|e| e["body"].get("key_replaced"))
                .filter(|b| &b["participant"] == held)
                .collect();
            assert_eq!(replaced.len(), 1, "game {id}: {seat}'s key bound once");
            replaced[0]["new_key"].as_str().unwrap().to_string()
        };
        let (black, white) = (bound("black"), bound("white"));
        let sheets: Vec<&str> = log
            .iter()
            .filter(|e| e["body"].get("result_sheet_signed").is_some())
            .map(|e| e["signer"].as_str().unwrap())
            .collect();
        assert_eq!(sheets, [black.as_str(), white.as_str()], "game {id}");
        assert_ne!(black, white, "game {id}");
        assert!(
            !sheets.contains(&recorder["key"].as_str().unwrap()),
            "game {id}: the recorder signed a sheet"
        );
        players_keys.extend([black, white]);
    }
    assert_eq!(recorded, 4, "two recorder tables a round");
    assert_eq!(
        players_keys.len(),
        8,
        "the players of each recorder game sign with keys made for that game"
    );
}

/// Arguments that cannot be played are refused in one line, before any
/// server starts or anything is written.
#[test]
fn a_rehearsal_that_cannot_be_played_is_refused_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    for (args, words) in [
        (&["rehearse", "--tables", "50:30:30"][..], "adds up to 110"),
        (&["rehearse", "--tables", "half"][..], "TWO:ONE:PAPER"),
        (&["rehearse", "--boards", "0"][..], "at least 1"),
        (&["rehearse", "--pace", "0"][..], "not a positive number"),
    ] {
        let o = run(&data, args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err(&o).contains(words), "{args:?}: {}", err(&o));
        assert_eq!(err(&o).trim().lines().count(), 1, "{}", err(&o));
        assert!(!data.exists(), "{args:?} wrote {}", data.display());
    }
    let o = kifu()
        .args([
            "--server",
            "http://127.0.0.1:9",
            "rehearse",
            "--kill-server",
        ])
        .output()
        .unwrap();
    assert!(
        err(&o).contains("on a server it starts itself"),
        "{}",
        err(&o)
    );
    let o = run(&data, &["rehearse", "--nats-cluster", "1", "--kill-nats"]);
    assert!(err(&o).contains("--nats-cluster 3 or more"), "{}", err(&o));
    assert!(!data.exists(), "--kill-nats wrote {}", data.display());
}

/// The server publishes to a three-node JetStream cluster whose stream
/// leader is stopped midway through each round: the stream read back at
/// the end holds every record of the store once, each verified.
#[test]
fn the_nats_stream_holds_every_record_once_through_the_loss_of_its_leader() {
    if nats_support::nats_server("rehearsal with NATS").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let r = rehearse(
        &data,
        &[
            "--boards",
            "4",
            "--rounds",
            "2",
            "--pace",
            "3000",
            "--tables",
            "50:50:0",
            "--nats-cluster",
            "3",
            "--kill-nats",
            "--spectators",
            "1",
            "--seed",
            "7",
        ],
    );
    let rec = &r["records"];
    assert_eq!(
        (&rec["lost"], &rec["duplicated"]),
        (&0.into(), &0.into()),
        "{rec}"
    );
    let s = &r["stream"];
    assert_eq!(s["node_stops"], 2, "the leader stopped once a round: {s}");
    assert_eq!(s["lost"], 0, "{s}");
    assert_eq!(s["duplicated"], 0, "{s}");
    // Every game record of the store, and the tournament's, was read back.
    assert!(
        s["read"].as_u64().unwrap() >= rec["stored"].as_u64().unwrap(),
        "{s} {rec}"
    );
}
