//! Whom a verdict trusts, end to end: `kifu verify FILE --trust KEY` and
//! `kifu import --trust KEY` hold an archive to the organiser's key (a copy
//! truncated by a whole game and re-signed by another key, stripped of its
//! manifest or downgraded to `KIFUARC1` is refused); without `--trust` the
//! report says that completeness rests on an unauthenticated key and names
//! its fingerprint; a bundle is held to the log key the same way. And the
//! fixes that go with it: a committee reserve retires its own key with
//! `kifu key revoke --participant`, a time near the end of u64 is accepted
//! without a false warning, and a retried `--after` append through a server
//! is recognised as it is locally.

mod common;

use std::path::{Path, PathBuf};

use common::{err, ok, out, run, run_stdin, Served};
use serde_json::Value;

fn demo(dir: &Path) -> PathBuf {
    let data = dir.join("kifu-data");
    ok(&run(&data, &["demo"]));
    data
}

fn first_game(data: &Path) -> String {
    let j: Value = serde_json::from_str(&ok(&run(data, &["verify", "--json"]))).unwrap();
    j["games"][0]["game"].as_str().unwrap().to_string()
}

/// A second game in the store, so that an archive can lose a whole game.
fn second_game(data: &Path) -> String {
    let keys = data.join("demo-keys");
    let k = |n: &str| keys.join(n).display().to_string();
    ok(&run(
        data,
        &[
            "new-game",
            "--key",
            &k("referee.key"),
            "--size",
            "9",
            "--black",
            &format!("Ann={}", k("black.pub")),
            "--white",
            &format!("Bob={}", k("white.pub")),
            "--referee",
            &format!("Ref={}", k("referee.pub")),
            "--title",
            "second board",
        ],
    ))
    .trim()
    .to_string()
}

/// The records of an archive (after its magic and manifest), as a v1 archive.
fn downgraded(v2: &[u8]) -> Vec<u8> {
    assert_eq!(&v2[..8], b"KIFUARC2");
    let len = u32::from_le_bytes(v2[8..12].try_into().unwrap()) as usize;
    // A signed manifest: 64 signature bytes follow it.
    let rest = &v2[12 + len + 64..];
    [b"KIFUARC1".as_slice(), rest].concat()
}

fn verify(data: &Path, file: &Path, trust: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["verify", file.to_str().unwrap()];
    for t in trust {
        args.extend(["--trust", t]);
    }
    let o = run(data, &args);
    (o.status.code(), out(&o), err(&o))
}

#[test]
fn an_archive_is_complete_only_against_a_key_the_reader_trusts() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    second_game(&data);
    let p = |n: &str| t.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    ok(&run(&data, &["keygen", &s("org")]));
    ok(&run(&data, &["keygen", &s("fresh")]));
    let org_pub = std::fs::read_to_string(p("org.pub")).unwrap();
    let org_hex = {
        let j: Value = serde_json::from_str(&ok(&run(
            &data,
            &[
                "export",
                "--out",
                &s("full.kifu"),
                "--key",
                &s("org.key"),
                "--json",
            ],
        )))
        .unwrap();
        assert_eq!(j["games"], 2);
        let v: Value =
            serde_json::from_str(&ok(&run(&data, &["verify", &s("full.kifu"), "--json"]))).unwrap();
        v["manifest"]["signer"].as_str().unwrap().to_string()
    };
    // The organiser's copy: complete against the organiser's key, given as
    // a PEM file, as hex, or in a file of several keys.
    for trust in [s("org.pub"), org_hex.clone()] {
        let (code, stdout, _) = verify(&data, &p("full.kifu"), &[&trust]);
        assert_eq!(code, Some(0), "{stdout}");
        assert!(stdout.contains("signed by trusted key"), "{stdout}");
    }
    let fresh_pub = std::fs::read_to_string(p("fresh.pub")).unwrap();
    std::fs::write(
        p("keys.txt"),
        format!("# the organisers\n{fresh_pub}\n{org_hex}\n"),
    )
    .unwrap();
    assert_eq!(verify(&data, &p("full.kifu"), &[&s("keys.txt")]).0, Some(0));

    // Without --trust, the report says on whose word completeness rests.
    let (code, stdout, _) = verify(&data, &p("full.kifu"), &[]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("completeness rests on an unauthenticated key"),
        "{stdout}"
    );
    assert!(stdout.contains("fingerprint SHA256:"), "{stdout}");
    // The fingerprint is what openssl computes from the key file.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "openssl pkey -pubin -in '{}' -outform DER | openssl dgst -sha256 -r",
            s("org.pub")
        ))
        .output();
    match o {
        Ok(o) if o.status.success() => {
            let fp = out(&o).split_whitespace().next().unwrap_or("").to_string();
            assert_eq!(fp.len(), 64, "{}", out(&o));
            assert!(
                stdout.contains(&format!("SHA256:{fp}")),
                "the fingerprint is openssl's: {fp}\n{stdout}"
            );
        }
        _ => assert!(!common::peers_required(), "openssl is required"),
    }
    assert!(org_pub.contains("BEGIN PUBLIC KEY"));

    // Truncated by a whole game and re-signed by a fresh key: consistent,
    // so it verifies on its own word, and fails against the organiser's.
    let game = first_game(&data);
    ok(&run(
        &data,
        &[
            "export",
            "--out",
            &s("cut.kifu"),
            "--game",
            &game,
            "--key",
            &s("fresh.key"),
        ],
    ));
    assert_eq!(verify(&data, &p("cut.kifu"), &[]).0, Some(0));
    let (code, _, stderr) = verify(&data, &p("cut.kifu"), &[&s("org.pub")]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("not a trusted key"), "{stderr}");
    // Without a manifest (downgraded to KIFUARC1), and with an unsigned one.
    std::fs::write(
        p("v1.kifu"),
        downgraded(&std::fs::read(p("full.kifu")).unwrap()),
    )
    .unwrap();
    let (code, stdout, _) = verify(&data, &p("v1.kifu"), &[]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("completeness cannot be shown"), "{stdout}");
    let (code, _, stderr) = verify(&data, &p("v1.kifu"), &[&s("org.pub")]);
    assert_eq!(code, Some(3));
    assert!(stderr.contains("has no manifest"), "{stderr}");
    ok(&run(&data, &["export", "--out", &s("unsigned.kifu")]));
    let (code, _, stderr) = verify(&data, &p("unsigned.kifu"), &[&s("org.pub")]);
    assert_eq!(code, Some(3));
    assert!(stderr.contains("not signed"), "{stderr}");
    // --json says it too.
    let o = run(
        &data,
        &["verify", &s("cut.kifu"), "--json", "--trust", &s("org.pub")],
    );
    let j: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(j["ok"], false);
    assert_eq!(j["manifest"]["completeness"], "unauthenticated");
    assert_eq!(j["trusted_keys"][0], org_hex.as_str());

    // Import refuses what verify refuses, and writes nothing.
    let other = t.path().join("other-data");
    for f in ["cut.kifu", "v1.kifu", "unsigned.kifu"] {
        let o = run(&other, &["import", &s(f), "--trust", &s("org.pub")]);
        assert_eq!(o.status.code(), Some(3), "{f}: {}", err(&o));
        assert!(err(&o).contains("nothing imported"), "{}", err(&o));
    }
    let o = run(&other, &["verify", "--json"]);
    if o.status.success() {
        let j: Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(j["games"].as_array().map(|g| g.len()), Some(0), "{j}");
    }
    let o = ok(&run(
        &other,
        &["import", &s("full.kifu"), "--trust", &s("org.pub")],
    ));
    assert!(o.contains("imported"), "{o}");
    // A tournament chain file names the organiser: its director's key.
    let id = ok(&run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &s("org.key"),
            "--name",
            "Trust Open",
            "--short-name",
            "to",
            "--rounds",
            "3",
            "--json",
        ],
    ));
    let id: Value = serde_json::from_str(&id).unwrap();
    let id = id["id"].as_str().expect("the tournament's id").to_string();
    let chain = data.join("tournaments").join(format!("{id}.kifu"));
    assert!(chain.exists(), "{}", chain.display());
    let by_chain = chain.to_str().unwrap();
    let (code, stdout, e) = verify(&data, &p("full.kifu"), &[by_chain]);
    assert_eq!(code, Some(0), "{e}");
    assert!(stdout.contains("signed by trusted key"), "{stdout}");
    assert_eq!(verify(&data, &p("cut.kifu"), &[by_chain]).0, Some(3));
    // The tournament chain file itself, held to the key that signed its
    // genesis.
    let (code, _, e) = verify(&data, &chain, &[&s("org.pub")]);
    assert_eq!(code, Some(0), "{e}");
    let (code, _, e) = verify(&data, &chain, &[&s("fresh.pub")]);
    assert_eq!(code, Some(3), "{e}");
    assert!(e.contains("untrusted"), "{e}");
    // A bad key file is named.
    std::fs::write(p("bad.txt"), "not a key\n").unwrap();
    let (code, _, stderr) = verify(&data, &p("full.kifu"), &[&s("bad.txt")]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("line 1"), "{stderr}");
}

#[test]
fn a_bundle_is_held_to_the_log_key_the_reader_trusts() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let game = first_game(&data);
    let s = |n: &str| t.path().join(n).display().to_string();
    ok(&run(&data, &["keygen", &s("op")]));
    ok(&run(&data, &["keygen", &s("fresh")]));
    ok(&run(
        &data,
        &["checkpoint", "--key", &s("op.key"), "--out", &s("cp")],
    ));
    ok(&run(
        &data,
        &[
            "bundle",
            &game,
            "--out",
            &s("appeal.kifu-bundle"),
            "--checkpoint",
            &s("cp"),
        ],
    ));
    let bundle = t.path().join("appeal.kifu-bundle");
    let (code, stdout, _) = verify(&data, &bundle, &[]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("unauthenticated key"), "{stdout}");
    let (code, stdout, e) = verify(&data, &bundle, &[&s("op.pub")]);
    assert_eq!(code, Some(0), "{e}");
    assert!(stdout.contains("is a trusted key"), "{stdout}");
    let (code, _, stderr) = verify(&data, &bundle, &[&s("fresh.pub")]);
    assert_eq!(code, Some(3));
    assert!(stderr.contains("not a trusted key"), "{stderr}");
}

#[test]
fn a_committee_reserve_revokes_its_own_key_by_name() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let game = first_game(&data);
    let k = |n: &str| data.join("demo-keys").join(n).display().to_string();
    let o = ok(&run(
        &data,
        &[
            "key",
            "revoke",
            &game,
            "--participant",
            "Committee reserve",
            "--key",
            &k("committee-reserve.key"),
            "--json",
        ],
    ));
    let j: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(j["kind"], "key revoked");
    // Nothing it signs is accepted after that; the store still verifies.
    let o = run_stdin(
        &data,
        &["append", &game, "--key", &k("committee-reserve.key")],
        r#"{"key_revoked":{"key":"00","reason":"x"}}"#,
    );
    assert!(!o.status.success());
    ok(&run(&data, &["verify"]));
}

#[test]
fn a_time_at_the_end_of_u64_is_recorded_without_a_false_warning() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let game = first_game(&data);
    let key = data.join("demo-keys/referee.key");
    let o = run_stdin(
        &data,
        &[
            "append",
            &game,
            "--key",
            key.to_str().unwrap(),
            "--at-ms",
            "18446744073709551000",
        ],
        r#"{"player_arrived":{"player":"black"}}"#,
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        !format!("{}{}", out(&o), err(&o)).contains("backwards"),
        "{} {}",
        out(&o),
        err(&o)
    );
    let v = ok(&run(&data, &["verify"]));
    assert!(!v.contains("backwards"), "{v}");
}

#[test]
fn a_retried_after_append_through_the_server_is_recognised() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let game = first_game(&data);
    let key = data.join("demo-keys/black.key");
    let k = key.to_str().unwrap().to_string();
    let head = {
        let j: Value = serde_json::from_str(&ok(&run(&data, &["verify", "--json"]))).unwrap();
        j["games"][0]["head"].as_str().unwrap().to_string()
    };
    let served = Served::start(&data, &[]);
    let press = r#"{"clock_pressed":{"player":"black"}}"#;
    let append = || {
        run_stdin(
            &data,
            &[
                "--server",
                &served.url,
                "append",
                &game,
                "--key",
                &k,
                "--after",
                &head,
                "--json",
            ],
            press,
        )
    };
    let first: Value = serde_json::from_str(&ok(&append())).unwrap();
    assert_eq!(first["new"], true);
    // The answer was lost; the client retries with the same --after.
    let again: Value = serde_json::from_str(&ok(&append())).unwrap();
    assert_eq!(again["new"], false, "{again}");
    assert_eq!(again["seq"], first["seq"]);
    assert_eq!(again["hash"], first["hash"]);
    // Another event at that place is stale.
    let w = data.join("demo-keys/white.key");
    let o = run_stdin(
        &data,
        &[
            "--server",
            &served.url,
            "append",
            &game,
            "--key",
            w.to_str().unwrap(),
            "--after",
            &head,
        ],
        r#"{"clock_pressed":{"player":"white"}}"#,
    );
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    served.stop();
}

/// POSTs records to a server; the status and JSON answer.
fn post_records(url: &str, records: &[kifu_ledger::Record]) -> (u16, Value) {
    let mut body = Vec::new();
    for r in records {
        body.extend_from_slice(&r.to_stored());
    }
    let r = match ureq::post(&format!("{url}/records"))
        .set("Content-Type", "application/octet-stream")
        .send_bytes(&body)
    {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = r.status();
    (status, r.into_json().expect("JSON"))
}

#[test]
fn a_server_creates_games_only_for_the_keys_it_was_given() {
    use kifu_ledger::testkit::{sample_game, Cast};
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    // The sample game's genesis is signed by the referee.
    let game = sample_game(&cast, "creation");
    let director = cast.director.public().to_hex();
    let data = t.path().join("a");
    let served = Served::start(&data, &["--creator", &director]);
    let (status, j) = post_records(&served.url, &game.records[..1]);
    assert_eq!(status, 403, "{j}");
    assert_eq!(j["error"]["code"], "creation_refused", "{j}");
    let why = j["error"]["message"].as_str().unwrap();
    assert!(why.contains(&cast.referee.public().to_hex()), "{why}");
    assert!(why.contains("--creator"), "{why}");
    // Nothing was written.
    let g: Value = ureq::get(&format!("{}/games", served.url))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(g.as_array().map(|a| a.len()).unwrap_or(0), 0, "{g}");
    served.stop();

    // The referee's key listed (in a PEM file): the game is created.
    let pem = t.path().join("referee.pub");
    std::fs::write(&pem, cast.referee.public().to_spki_pem().unwrap()).unwrap();
    let served = Served::start(
        &t.path().join("b"),
        &["--creator", &director, "--creator", pem.to_str().unwrap()],
    );
    let (status, j) = post_records(&served.url, &game.records);
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["accepted"].as_u64(), Some(game.records.len() as u64));
    served.stop();
}

#[test]
fn a_server_on_a_venue_address_starts_only_with_a_list_or_open_creation() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    // Refused before it binds: the address is never listened on.
    let mut child = common::kifu()
        .arg("--data")
        .arg(&data)
        .args(["serve", "--listen", "0.0.0.0:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = common::wait_bounded(&mut child, std::time::Duration::from_secs(30));
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("kifu serve on 0.0.0.0 without a list of creators started");
    }
    assert!(!status.unwrap().success());
    let mut e = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut e).unwrap();
    assert!(e.contains("--open-creation"), "{e}");
    assert!(e.contains("--creator"), "{e}");
    // The flags do not mix.
    let o = run(
        &data,
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--open-creation",
            "--creator",
            &"00".repeat(32),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// `kifu export --tournament ID` carries the tournament chain in the
/// archive (FORMAT.md section 7): with no `--trust`, the archive is checked
/// against the organiser's key the chain names, so a copy re-signed by
/// another key or stripped of its manifest fails with no flag; a reader who
/// names keys is held to those keys alone; an import writes the games.
#[test]
fn an_archive_carrying_its_tournament_chain_is_checked_against_its_organiser() {
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let p = |n: &str| t.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    ok(&run(&data, &["keygen", &s("org")]));
    ok(&run(&data, &["keygen", &s("fresh")]));
    let id = ok(&run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &s("org.key"),
            "--name",
            "Carried Open",
            "--short-name",
            "carried",
            "--rounds",
            "3",
            "--json",
        ],
    ));
    let id: Value = serde_json::from_str(&id).unwrap();
    let id = id["id"].as_str().expect("the tournament's id").to_string();
    let export = |name: &str, key: &str| {
        ok(&run(
            &data,
            &[
                "export",
                "--out",
                &s(name),
                "--tournament",
                &id,
                "--key",
                &s(key),
            ],
        ))
    };
    export("by-org.kifu", "org.key");
    export("by-fresh.kifu", "fresh.key");
    let (code, stdout, e) = verify(&data, &p("by-org.kifu"), &[]);
    assert_eq!(code, Some(0), "{e}");
    assert!(
        stdout.contains("checked against the organiser's key"),
        "{stdout}"
    );
    assert!(stdout.contains("signed by trusted key"), "{stdout}");
    let (code, _, e) = verify(&data, &p("by-fresh.kifu"), &[]);
    assert_eq!(code, Some(3), "re-signed by another key: {e}");
    assert!(e.contains("untrusted"), "{e}");
    let bytes = std::fs::read(p("by-org.kifu")).unwrap();
    std::fs::write(p("stripped.kifu"), downgraded(&bytes)).unwrap();
    let (code, _, e) = verify(&data, &p("stripped.kifu"), &[]);
    assert_eq!(code, Some(3), "stripped: {e}");
    assert!(e.contains("untrusted"), "{e}");
    // The reader's keys, when named, are the only ones trusted.
    let (code, _, e) = verify(&data, &p("by-fresh.kifu"), &[&s("fresh.pub")]);
    assert_eq!(code, Some(0), "{e}");
    let (code, _, e) = verify(&data, &p("by-org.kifu"), &[&s("fresh.pub")]);
    assert_eq!(code, Some(3), "{e}");
    // JSON names the chain and its organiser.
    let o = ok(&run(&data, &["verify", "--json", &s("by-org.kifu")]));
    let j: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(j["tournament"]["id"], id.as_str(), "{j}");
    assert_eq!(j["manifest"]["completeness"], "trusted", "{j}");
    // Import: the games, not the chain; the re-signed copy is refused.
    let other = t.path().join("other");
    let o = run(&other, &["import", &s("by-fresh.kifu")]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let o = ok(&run(&other, &["import", "--json", &s("by-org.kifu")]));
    let j: Value = serde_json::from_str(&o).unwrap();
    let games: Value = serde_json::from_str(&ok(&run(&data, &["games", "--json"]))).unwrap();
    assert_eq!(j["games"], games.as_array().unwrap().len(), "{j}");
    ok(&run(&other, &["verify"]));
}
