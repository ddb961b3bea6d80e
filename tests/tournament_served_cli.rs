//! End to end: `kifu tournament ...` against a data directory and the same
//! commands through `kifu serve` (`--server URL`) give byte-identical
//! chains, the same standings, results files, log and list; every refusal
//! (a withdrawn player paired, a player paired twice, a result for an
//! unpaired board, a key that is not an official's, a short name taken, a
//! director the server may not create for) is said in words with nothing
//! written, on both.
// The tests' calls give ureq's own error, as it comes.
#![allow(clippy::result_large_err)]

mod common;
use common::*;

use std::path::Path;
use std::process::Output;

/// Runs kifu on the data directory `data`.
fn local(data: &Path) -> impl Fn(&[&str]) -> Output + '_ {
    move |args| run(data, args)
}

/// Runs kifu through the server at `url`, from an empty working directory.
fn through<'a>(url: &'a str, cwd: &'a Path) -> impl Fn(&[&str]) -> Output + 'a {
    move |args| {
        kifu()
            .current_dir(cwd)
            .arg("--server")
            .arg(url)
            .args(args)
            .output()
            .expect("kifu runs")
    }
}

const T0: u64 = 1_780_000_000_000;

/// The round's pairing file.
fn pairing_file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write pairing");
    p.to_str().expect("utf-8").to_string()
}

/// The command sequence of a small tournament: 8 players, round 1 on 4
/// boards with its results (one by default), a withdrawal, round 2 on 3
/// boards with a bye.
fn sequence(k: &dyn Fn(&[&str]) -> Output, dir: &Path, dk: &str, rpub: &str) {
    let mut t = T0;
    let mut at = || {
        t += 1000;
        t.to_string()
    };
    let a = at();
    ok(&k(&[
        "tournament",
        "new",
        "--key",
        dk,
        "--name",
        "Served Open",
        "--short-name",
        "so",
        "--city",
        "Leipzig",
        "--country",
        "DE",
        "--start",
        "2026-06-01",
        "--finish",
        "2026-06-02",
        "--rounds",
        "3",
        "--referee",
        &format!("Ref={rpub}"),
        "--at-ms",
        &a,
    ]));
    for (id, surname, rank, pin) in [
        ("P1", "Adler", "3d", "10000001"),
        ("P2", "Berg", "2d", "10000002"),
        ("P3", "Claus", "1d", "10000003"),
        ("P4", "Dorn", "1k", "10000004"),
        ("P5", "Engel", "2k", "10000005"),
        ("P6", "Fuchs", "3k", "10000006"),
        ("P7", "Graf", "4k", "10000007"),
        ("P8", "Hahn", "5k", "10000008"),
    ] {
        let a = at();
        ok(&k(&[
            "tournament",
            "register",
            "so",
            "--key",
            dk,
            "--id",
            id,
            "--surname",
            surname,
            "--given",
            "Kim",
            "--rank",
            rank,
            "--club",
            "Leip",
            "--country",
            "DE",
            "--egd-pin",
            pin,
            "--at-ms",
            &a,
        ]));
    }
    let a = at();
    ok(&k(&[
        "tournament",
        "register",
        "so",
        "--key",
        dk,
        "--correct",
        "--id",
        "P4",
        "--surname",
        "Dorn",
        "--given",
        "Kai",
        "--rank",
        "1d",
        "--rating",
        "2050",
        "--club",
        "Leip",
        "--country",
        "DE",
        "--egd-pin",
        "10000004",
        "--at-ms",
        &a,
    ]));
    let r1 = pairing_file(
        dir,
        "r1.txt",
        "# round 1\n1 P1 P2\n2 P3 P4\n3 P5 P6\n4 P7 P8\n",
    );
    let a = at();
    ok(&k(&[
        "tournament",
        "pair",
        "so",
        "--key",
        dk,
        "--round",
        "1",
        "--file",
        &r1,
        "--at-ms",
        &a,
    ]));
    for (board, result) in [("1", "W+"), ("2", "B+"), ("3", "jigo")] {
        let a = at();
        ok(&k(&[
            "tournament",
            "result",
            "so",
            "--key",
            dk,
            "--round",
            "1",
            "--board",
            board,
            "--result",
            result,
            "--reason",
            "result sheet",
            "--at-ms",
            &a,
        ]));
    }
    let a = at();
    ok(&k(&[
        "tournament",
        "result",
        "so",
        "--key",
        dk,
        "--round",
        "1",
        "--board",
        "4",
        "--result",
        "white",
        "--by-default",
        "--reason",
        "Black did not arrive",
        "--at-ms",
        &a,
    ]));
    let a = at();
    ok(&k(&[
        "tournament",
        "absent",
        "so",
        "--key",
        dk,
        "--round",
        "2",
        "--player",
        "P7",
        "--reason",
        "withdrawal",
        "--at-ms",
        &a,
    ]));
    let r2 = pairing_file(dir, "r2.txt", "1 P1 P3\n2 P2 P5\n3 P4 P6 ?\n");
    let a = at();
    ok(&k(&[
        "tournament",
        "pair",
        "so",
        "--key",
        dk,
        "--round",
        "2",
        "--file",
        &r2,
        "--at-ms",
        &a,
    ]));
    let a = at();
    ok(&k(&[
        "tournament",
        "bye",
        "so",
        "--key",
        dk,
        "--round",
        "2",
        "--player",
        "P8",
        "--at-ms",
        &a,
    ]));
    let a = at();
    ok(&k(&[
        "tournament",
        "result",
        "so",
        "--key",
        dk,
        "--round",
        "2",
        "--board",
        "1",
        "--result",
        "black",
        "--at-ms",
        &a,
    ]));
}

/// Each refusal: non-zero, the reason in words, nothing written (the
/// chain's bytes read by `chain` before and after are the same).
fn refusals(
    k: &dyn Fn(&[&str]) -> Output,
    chain: &dyn Fn() -> Vec<u8>,
    dir: &Path,
    dk: &str,
    sk: &str,
) {
    let before = chain();
    let twice = pairing_file(dir, "twice.txt", "4 P1 P8\n");
    let withdrawn = pairing_file(dir, "withdrawn.txt", "4 P7 P8\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "tournament",
                "pair",
                "so",
                "--key",
                dk,
                "--round",
                "2",
                "--file",
                &withdrawn,
            ],
            "\"P7\" is already absent",
        ),
        (
            vec![
                "tournament",
                "pair",
                "so",
                "--key",
                dk,
                "--round",
                "2",
                "--file",
                &twice,
            ],
            "\"P1\" is already paired on board 1",
        ),
        (
            vec![
                "tournament",
                "result",
                "so",
                "--key",
                dk,
                "--round",
                "2",
                "--board",
                "9",
                "--result",
                "W+",
            ],
            "board 9: no such game (the board is not paired)",
        ),
        (
            vec![
                "tournament",
                "register",
                "so",
                "--key",
                sk,
                "--id",
                "P9",
                "--surname",
                "Ivo",
                "--rank",
                "6k",
            ],
            "only the tournament director may sign this",
        ),
        (
            vec![
                "tournament",
                "new",
                "--key",
                dk,
                "--name",
                "Again",
                "--short-name",
                "so",
                "--rounds",
                "1",
            ],
            "the short name 'so' is already the tournament",
        ),
        (
            vec![
                "tournament",
                "pair",
                "so",
                "--key",
                dk,
                "--round",
                "4",
                "--board",
                "1",
                "--white",
                "P1",
                "--black",
                "P2",
            ],
            "round 4 is outside the tournament's rounds (1 to 3)",
        ),
    ];
    for (args, words) in cases {
        let o = k(&args);
        assert!(!o.status.success(), "{args:?} was accepted");
        let e = err(&o);
        assert!(e.contains(words), "{args:?}: {e}");
        assert!(e.contains("nothing written"), "{args:?}: {e}");
        assert_eq!(chain(), before, "{args:?} wrote something");
    }
}

#[test]
fn the_same_commands_through_a_server_give_the_same_chain_standings_and_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let keys = d.join("keys");
    for name in ["dir", "ref", "stranger"] {
        ok(&run(&keys, &["keygen", d.join(name).to_str().unwrap()]));
    }
    let key = |n: &str| d.join(n).to_str().unwrap().to_string();
    let (dk, sk, rpub) = (key("dir.key"), key("stranger.key"), key("ref.pub"));

    // On a data directory.
    let local_data = d.join("local");
    let k = local(&local_data);
    sequence(&k, d, &dk, &rpub);
    let file = || {
        let files = kifu_store::tournaments::files(&local_data).expect("tournaments");
        assert_eq!(files.len(), 1);
        std::fs::read(&files[0]).expect("read chain")
    };
    refusals(&k, &file, d, &dk, &sk);

    // Through a server, from an empty working directory.
    let served_data = d.join("served");
    std::fs::create_dir_all(&served_data).unwrap();
    let server = Served::start(&served_data, &[]);
    let cwd = d.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let url = server.url.clone();
    let s = through(&url, &cwd);
    sequence(&s, d, &dk, &rpub);
    let served = || {
        let o = kifu()
            .args(["--server", &url, "tournament", "list"])
            .output()
            .expect("runs");
        assert!(o.status.success());
        let r = ureq::get(&format!("{url}/tournaments/so/records"))
            .call()
            .expect("records");
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut r.into_reader(), &mut b).expect("read");
        b
    };
    refusals(&s, &served, d, &dk, &sk);
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing is written in the working directory"
    );

    // While the server keeps them, the data directory's chains are not
    // written behind its back; they are still read.
    let held = served();
    let o = run(
        &served_data,
        &[
            "tournament",
            "register",
            "so",
            "--key",
            &dk,
            "--id",
            "P9",
            "--surname",
            "Ivo",
            "--rank",
            "6k",
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("held by `kifu serve`"), "{}", err(&o));
    assert!(err(&o).contains("nothing written"), "{}", err(&o));
    assert_eq!(served(), held);
    ok(&run(&served_data, &["tournament", "standings", "so"]));

    // The server's chain is the file, byte for byte, and so is its copy in
    // the server's data directory.
    assert_eq!(served(), file(), "the chains differ");
    let kept = kifu_store::tournaments::files(&served_data).expect("served tournaments");
    assert_eq!(std::fs::read(&kept[0]).unwrap(), file());

    for args in [
        vec!["tournament", "standings", "so"],
        vec!["tournament", "standings", "so", "--all-criteria"],
        vec![
            "tournament",
            "standings",
            "so",
            "--after-round",
            "1",
            "--json",
        ],
        vec!["tournament", "export", "so", "--format", "h9"],
        vec!["tournament", "export", "so", "--format", "aga"],
        vec!["tournament", "export", "so", "--format", "csv"],
        vec![
            "tournament",
            "export",
            "so",
            "--format",
            "h9",
            "--after-round",
            "1",
        ],
        vec!["tournament", "log", "so"],
        vec!["tournament", "list"],
    ] {
        let a = ok(&k(&args));
        let b = ok(&s(&args));
        assert!(!a.trim().is_empty(), "{args:?} printed nothing");
        assert_eq!(a, b, "{args:?} differs through the server");
    }
    // The download equals the command's file.
    for format in ["h9", "aga"] {
        let r = ureq::get(&format!("{url}/tournaments/so/export?format={format}"))
            .call()
            .expect("export");
        assert!(r
            .header("Content-Disposition")
            .is_some_and(|v| v.starts_with("attachment")));
        let text = r.into_string().expect("text");
        assert_eq!(
            text,
            ok(&k(&["tournament", "export", "so", "--format", format]))
        );
    }
    let o = s(&["tournament", "verify", "so"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("verified"));
    drop(s);
    server.stop();
}

#[test]
fn a_server_with_a_creation_list_creates_tournaments_only_for_its_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let keys = d.join("keys");
    for name in ["dir", "other"] {
        ok(&run(&keys, &["keygen", d.join(name).to_str().unwrap()]));
    }
    let data = d.join("served");
    std::fs::create_dir_all(&data).unwrap();
    let other = d.join("other.pub");
    let server = Served::start(&data, &["--creator", other.to_str().unwrap()]);
    let dk = d.join("dir.key");
    let o = kifu()
        .args([
            "--server",
            &server.url,
            "tournament",
            "new",
            "--name",
            "Cup",
            "--rounds",
            "1",
            "--key",
        ])
        .arg(&dk)
        .output()
        .expect("runs");
    assert!(!o.status.success());
    assert!(
        err(&o).contains("this server creates tournaments only for the keys it was given"),
        "{}",
        err(&o)
    );
    assert!(kifu_store::tournaments::files(&data).is_none_or(|f| f.is_empty()));
    let ok_key = d.join("other.key");
    let o = kifu()
        .args([
            "--server",
            &server.url,
            "tournament",
            "new",
            "--name",
            "Cup",
            "--rounds",
            "1",
            "--json",
            "--key",
        ])
        .arg(&ok_key)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["short_name"], "Cup");
    assert!(v["file"].as_str().unwrap().starts_with(&server.url));
    server.stop();
}

#[test]
fn every_export_format_downloads_as_the_command_writes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let keys = d.join("keys");
    for name in ["dir", "ref"] {
        ok(&run(&keys, &["keygen", d.join(name).to_str().unwrap()]));
    }
    let key = |n: &str| d.join(n).to_str().unwrap().to_string();
    let (dk, rpub) = (key("dir.key"), key("ref.pub"));
    let served_data = d.join("served");
    std::fs::create_dir_all(&served_data).unwrap();
    let server = Served::start(&served_data, &[]);
    let cwd = d.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let url = server.url.clone();
    let s = through(&url, &cwd);
    sequence(&s, d, &dk, &rpub);
    for (format, kind, ext) in [
        ("csv", "text/csv; charset=utf-8", "csv"),
        ("json", "application/json", "json"),
        ("h9", "text/plain; charset=utf-8", "h9"),
    ] {
        let r = ureq::get(&format!(
            "{url}/tournaments/so/export?format={format}&round=1"
        ))
        .call()
        .expect("export");
        assert_eq!(r.header("Content-Type"), Some(kind));
        assert_eq!(
            r.header("Content-Disposition"),
            Some(format!("attachment; filename=\"so.{ext}\"").as_str())
        );
        let text = r.into_string().expect("text");
        assert_eq!(
            text,
            ok(&s(&[
                "tournament",
                "export",
                "so",
                "--format",
                format,
                "--after-round",
                "1"
            ]))
        );
    }
    let doc: serde_json::Value = serde_json::from_str(
        &ureq::get(&format!("{url}/tournaments/so/export?format=json"))
            .call()
            .expect("json")
            .into_string()
            .expect("text"),
    )
    .expect("parses");
    assert_eq!(doc["short_name"], "so");
    assert_eq!(doc["standings"]["round"], 2);
    match ureq::get(&format!("{url}/tournaments/so/export?format=xml")).call() {
        Err(ureq::Error::Status(400, r)) => {
            let body = r.into_string().expect("body");
            assert!(body.contains("bad_format"), "{body}");
            assert!(
                body.contains("unknown format 'xml' (h9, aga, csv, json)"),
                "{body}"
            );
        }
        other => panic!("format=xml answered {other:?}"),
    }
    server.stop();
}

/// The small tournament of [`sequence`] through a server on a data
/// directory in `d`, with round 3 paired (board 1: P1 against P2) and no
/// game played on it yet; keys `dir`, `ref` and `more` made in `d`. The
/// server and an empty working directory to run `kifu` from.
fn round_three_paired(d: &Path, more: &[&str]) -> (Served, std::path::PathBuf) {
    let keys = d.join("keys");
    for name in ["dir", "ref"].iter().chain(more) {
        ok(&run(&keys, &["keygen", d.join(name).to_str().unwrap()]));
    }
    let key = |n: &str| d.join(n).to_str().unwrap().to_string();
    let data = d.join("served");
    std::fs::create_dir_all(&data).unwrap();
    let server = Served::start(&data, &[]);
    let cwd = d.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    {
        let s = through(&server.url, &cwd);
        sequence(&s, d, &key("dir.key"), &key("ref.pub"));
        let r3 = pairing_file(d, "r3.txt", "1 P1 P2\n");
        ok(&s(&[
            "tournament",
            "pair",
            "so",
            "--key",
            &key("dir.key"),
            "--round",
            "3",
            "--file",
            &r3,
            "--at-ms",
            "1780000900000",
        ]));
    }
    (server, cwd)
}

#[test]
fn a_game_that_only_names_a_board_is_a_claim_at_the_desk_the_hall_and_verify() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let (server, cwd) = round_three_paired(d, &["outsider"]);
    let url = server.url.clone();
    let s = through(&url, &cwd);
    let key = |n: &str| d.join(n).to_str().unwrap().to_string();
    // An outsider creates a game naming round 3 board 1, seats itself as
    // its recorder, and resigns Black's game: the ledger takes it (its own
    // roster), the tournament does not.
    let made = ok(&s(&[
        "new-game",
        "--key",
        &key("outsider.key"),
        "--recorder",
        &format!("Out={}", key("outsider.pub")),
        "--black",
        &format!("Berg={}", key("ref.pub")),
        "--white",
        &format!("Adler={}", key("dir.pub")),
        "--size",
        "19",
        "--time",
        "fischer:10m+10s",
        "--tournament",
        "so",
        "--round",
        "3",
        "--board",
        "1",
        "--json",
    ]));
    let forged: serde_json::Value = serde_json::from_str(made.trim()).expect("JSON");
    let forged = forged["game"].as_str().unwrap().to_string();
    let mut resign = kifu()
        .current_dir(&cwd)
        .args([
            "--server",
            &url,
            "append",
            &forged,
            "--key",
            &key("outsider.key"),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("kifu runs");
    std::io::Write::write_all(
        &mut resign.stdin.take().unwrap(),
        br#"{"resigned": {"player": "black", "manner": "spoken"}}"#,
    )
    .unwrap();
    ok(&resign.wait_with_output().unwrap());
    // The desk shows it as a claim, never as the board's game or result.
    let desk: serde_json::Value = ureq::get(&format!("{url}/tournaments/so/desk?round=3"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    let b1 = &desk["boards"][0];
    assert_eq!(b1["board"], 1, "{desk}");
    assert!(b1.get("game").is_none() || b1["game"].is_null(), "{b1}");
    assert_eq!(b1["checkpoint_due"], false, "{b1}");
    assert_eq!(b1["claims"][0]["game"], forged.as_str(), "{b1}");
    assert!(
        b1["claims"][0]["why"]
            .as_str()
            .unwrap()
            .contains("not signed by the tournament's director or a referee"),
        "{b1}"
    );
    // The hall shows no result for the board.
    let hall: serde_json::Value = ureq::get(&format!("{url}/tournaments/so/pairings?round=3"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(hall["boards"][0]["result"], "", "{hall}");
    // The director's checkpoint of it is refused, nothing written.
    let o = s(&[
        "tournament",
        "checkpoint",
        "so",
        &forged,
        "--key",
        &key("dir.key"),
        "--at-ms",
        "1780000990000",
    ]);
    assert!(!o.status.success());
    assert!(err(&o).contains("is not the board's game"), "{}", err(&o));
    // `kifu tournament verify` names the claim and fails nothing.
    let v = ok(&s(&["tournament", "verify", "so"]));
    assert!(
        v.contains("round 3 board 1: game") && v.contains("is a claim, not the board's game"),
        "{v}"
    );
}

#[test]
#[allow(clippy::result_large_err)] // ureq's own error, as it comes
fn a_board_with_one_shared_recorder_tablet_gets_its_game_from_the_desk() {
    use kifu_ledger::{Body, Event, Keypair, Role};
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // Round 3, board 1: P1 and P2, registered without keys, and one
    // shared tablet at the table asking for the board recorder's seat.
    let (server, _cwd) = round_three_paired(d, &[]);
    let url = server.url.clone();
    let key = |n: &str| d.join(n).to_str().unwrap().to_string();
    let tablet = Keypair::from_seed([0x33; 32]);
    let request = serde_json::json!({"key": tablet.public(), "role": "recorder", "name": "Table 1",
        "tournament": "so", "round": 3, "board": 1, "signed_at_ms": 1});
    let body = serde_json::to_vec(&request).unwrap();
    let r: serde_json::Value = ureq::post(&format!("{url}/devices"))
        .set("Content-Type", "application/json")
        .set(
            "Kifu-Device-Signature",
            &kifu_game::seat::SignedRequest::sign(&tablet, &body),
        )
        .send_bytes(&body)
        .expect("kept")
        .into_json()
        .unwrap();
    let id = r["id"].as_str().unwrap().to_string();
    #[allow(clippy::result_large_err)]
    let draft = |recorders: serde_json::Value| {
        ureq::post(&format!("{url}/director/draft"))
            .send_json(serde_json::json!({"do": "games", "tournament": "so", "round": 3, "recorders": recorders}))
    };
    // Not ticked, the recorder holds no seat, and the players have none.
    match draft(serde_json::json!([])) {
        Err(ureq::Error::Status(_, r)) => {
            let e: serde_json::Value = r.into_json().unwrap();
            assert!(
                e["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("no device asks for Black's seat"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Ticked: the recorder signs for both players, seated with the board's
    // unheld keys.
    let games: serde_json::Value = draft(serde_json::json!([id]))
        .expect("drafted")
        .into_json()
        .unwrap();
    let genesis: kifu_ledger::Genesis =
        serde_json::from_value(games["games"][0]["body"]["game_created"].clone()).unwrap();
    let place = kifu_ledger::unheld::board_place("so", 3, 1);
    for role in [Role::Black, Role::White] {
        assert!(kifu_ledger::unheld::is_unheld(
            &genesis.holder(role).unwrap().key,
            &place,
            role
        ));
    }
    assert_eq!(genesis.holder(Role::Recorder).unwrap().key, tablet.public());
    // The director signs it; the tablet records the game's first stone.
    let director =
        Keypair::from_pkcs8_pem(&std::fs::read_to_string(key("dir.key")).unwrap()).unwrap();
    let created = Event {
        version: 1,
        chain: [0; 32],
        seq: 0,
        prev_hash: [0; 32],
        at_ms: 1_780_001_000_000,
        signer: director.public(),
        body: Body::GameCreated(genesis),
    }
    .sign(&director)
    .unwrap();
    let game = created.hash();
    let post = |hexes: Vec<String>| -> serde_json::Value {
        ureq::post(&format!("{url}/records"))
            .send_json(serde_json::json!({ "records": hexes }))
            .expect("accepted")
            .into_json()
            .unwrap()
    };
    let answer = post(vec![hex::encode(created.to_stored())]);
    assert_eq!(answer["accepted"], 1, "{answer}");
    // The director starts the round (LGC 2023, "Start"): Black's clock, on
    // every board not started yet, signed at each game's head.
    #[allow(clippy::result_large_err)]
    let start = || {
        ureq::post(&format!("{url}/director/draft"))
            .send_json(serde_json::json!({"do": "start_round", "tournament": "so", "round": 3}))
    };
    let drafted: serde_json::Value = start().expect("drafted").into_json().unwrap();
    assert_eq!(drafted["games"][0]["game"], hex::encode(game), "{drafted}");
    assert_eq!(
        drafted["games"][0]["body"],
        serde_json::json!({"clock_started": {"running": "black"}})
    );
    let started = Event {
        version: 1,
        chain: game,
        seq: 1,
        prev_hash: game,
        at_ms: 1_780_001_001_000,
        signer: director.public(),
        body: serde_json::from_value(drafted["games"][0]["body"].clone()).unwrap(),
    }
    .sign(&director)
    .unwrap();
    assert_eq!(post(vec![hex::encode(started.to_stored())])["accepted"], 1);
    // Started once: the next start is refused in words.
    match start() {
        Err(ureq::Error::Status(422, r)) => {
            let e: serde_json::Value = r.into_json().unwrap();
            assert!(
                e["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("no game of the round waits for its start"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    // The tablet records Black's first stone for the unheld seat.
    let stone = Event {
        version: 1,
        chain: game,
        seq: 2,
        prev_hash: started.hash(),
        at_ms: 1_780_001_002_000,
        signer: tablet.public(),
        body: Body::StonePlaced {
            player: kifu_ledger::Color::Black,
            stone: kifu_ledger::Color::Black,
            point: kifu_ledger::Point { x: 3, y: 3 },
        },
    }
    .sign(&tablet)
    .unwrap();
    assert_eq!(post(vec![hex::encode(stone.to_stored())])["accepted"], 1);
    // The desk shows the board's game.
    let desk: serde_json::Value = ureq::get(&format!("{url}/tournaments/so/desk?round=3"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(desk["boards"][0]["game"], hex::encode(game), "{desk}");
}
