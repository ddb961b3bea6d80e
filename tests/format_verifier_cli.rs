//! The verifier written from `docs/FORMAT.md` alone
//! (`tests/peers/format_verifier.py`) agrees with `kifu verify`: on the
//! vectors, on the 0.1.0 fixture archive, on the demo's archives (with and
//! without a signed manifest), on the demo tournament's chain, and on
//! tampered copies of them. Skipped with a message when python3, `blake3` or
//! `cryptography` is absent, unless `KIFU_REQUIRE_PEERS=1`.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

fn verifier() -> PathBuf {
    workspace().join("tests/peers/format_verifier.py")
}

/// True when python3 with blake3 and cryptography is present.
fn python_ready() -> bool {
    let ready = Command::new("python3")
        .args(["-c", "import blake3, cryptography"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ready {
        assert!(
            !peers_required(),
            "python3 with blake3 and cryptography is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!("skipped: python3 with blake3 and cryptography is absent");
    }
    ready
}

/// The Python verdict of an archive: (verifies, its JSON).
fn python_verdict(archive: &Path) -> (bool, serde_json::Value) {
    python_verdict_trusting(archive, &[])
}

/// The Python verdict of a reader trusting `trust` (hex keys).
fn python_verdict_trusting(archive: &Path, trust: &[&str]) -> (bool, serde_json::Value) {
    let mut args: Vec<&str> = Vec::new();
    for t in trust {
        args.extend(["--trust", t]);
    }
    let o = Command::new("python3")
        .arg(verifier())
        .args(&args)
        .arg(archive)
        .output()
        .expect("python3 runs");
    let code = o.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "the verifier ran on {}: {:?} {}",
        archive.display(),
        code,
        err(&o)
    );
    let j: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("verifier JSON ({e}): {}", out(&o)));
    assert_eq!(j["ok"].as_bool(), Some(code == Some(0)), "{j}");
    (code == Some(0), j)
}

/// `kifu verify FILE`: (verifies, its JSON). Exit code 3 is a failed verdict.
fn kifu_verdict(data: &Path, archive: &Path) -> (bool, serde_json::Value) {
    kifu_verdict_trusting(data, archive, &[])
}

/// `kifu verify FILE --trust KEY...`.
fn kifu_verdict_trusting(data: &Path, archive: &Path, trust: &[&str]) -> (bool, serde_json::Value) {
    let mut args = vec!["verify", "--json", archive.to_str().unwrap()];
    for t in trust {
        args.extend(["--trust", t]);
    }
    let o = run(data, &args);
    let code = o.status.code();
    assert!(
        code == Some(0) || code == Some(3),
        "kifu verify {}: {:?} {}",
        archive.display(),
        code,
        err(&o)
    );
    let j = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (code == Some(0), j)
}

/// What both reports state of each game: id, head seq and hash, finished.
fn heads(j: &serde_json::Value) -> Vec<(String, u64, String, bool)> {
    j["games"]
        .as_array()
        .map(|games| {
            games
                .iter()
                .map(|g| {
                    (
                        g["game"].as_str().unwrap_or("").to_string(),
                        g["head_seq"].as_u64().unwrap_or(u64::MAX),
                        g["head"].as_str().unwrap_or("").to_string(),
                        g["finished"].as_bool().unwrap_or(false),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn count(j: &serde_json::Value, key: &str) -> usize {
    j[key].as_array().map(|a| a.len()).unwrap_or(0)
}

/// Both verdicts agree (and, where kifu gives a report, the games' heads,
/// the number of problems and of warnings); returns the verdict.
fn agree(data: &Path, archive: &Path, what: &str) -> bool {
    agree_trusting(data, archive, &[], what)
}

/// [`agree`] for a reader trusting `trust` (hex keys).
fn agree_trusting(data: &Path, archive: &Path, trust: &[&str], what: &str) -> bool {
    let (py, pj) = python_verdict_trusting(archive, trust);
    let (k, kj) = kifu_verdict_trusting(data, archive, trust);
    assert_eq!(
        py, k,
        "{what}: the verifier says {py}, kifu says {k}\nverifier: {pj}\nkifu: {kj}"
    );
    if kj.is_object() {
        assert_eq!(heads(&pj), heads(&kj), "{what}: heads\n{pj}\n{kj}");
        for key in ["problems", "warnings"] {
            assert_eq!(
                count(&pj, key),
                count(&kj, key),
                "{what}: {key}\n{pj}\n{kj}"
            );
        }
    }
    py
}

/// The parts of an archive: its header (magic and manifest) and its records.
fn split(bytes: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut pos = 8;
    if &bytes[..8] == b"KIFUARC2" {
        let n = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        pos = 12 + n;
        // A manifest naming a signer is followed by its signature: the
        // option tag after version (1 byte) and at_ms (a varint).
        let m = &bytes[12..12 + n];
        let mut i = 1;
        while m[i] & 0x80 != 0 {
            i += 1;
        }
        if m[i + 1] == 1 {
            pos += 64;
        }
    }
    let head = bytes[..pos].to_vec();
    let mut records = Vec::new();
    while pos < bytes.len() {
        let n = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        records.push(bytes[pos..pos + 4 + n + 64].to_vec());
        pos += 4 + n + 64;
    }
    (head, records)
}

fn join(head: &[u8], records: &[Vec<u8>]) -> Vec<u8> {
    let mut out = head.to_vec();
    for r in records {
        out.extend_from_slice(r);
    }
    out
}

/// Tampered copies of an archive, each judged by both verifiers; returns how
/// many failed (so that a test can check that tampering was noticed).
fn tampered_copies_agree(data: &Path, dir: &Path, archive: &Path, name: &str) -> usize {
    let bytes = std::fs::read(archive).unwrap();
    let (head, records) = split(&bytes);
    assert_eq!(join(&head, &records), bytes, "{name}: the framing splits");
    let n = records.len();
    let mut copies: Vec<(String, Vec<u8>)> = Vec::new();
    let mut r = records.clone();
    r.pop();
    copies.push(("without its last record".into(), join(&head, &r)));
    let mut r = records.clone();
    r.remove(n / 2);
    copies.push(("without a middle record".into(), join(&head, &r)));
    let mut r = records.clone();
    r.push(records[n / 2].clone());
    copies.push(("with a duplicate".into(), join(&head, &r)));
    let mut r = records.clone();
    r[1..].reverse();
    copies.push(("in another order".into(), join(&head, &r)));
    let mut r = records.clone();
    let last = r[n / 2].len() - 1;
    r[n / 2][last] ^= 0x01;
    copies.push(("with a changed signature".into(), join(&head, &r)));
    let mut r = records.clone();
    r[n / 3][40] ^= 0x01;
    copies.push(("with a changed event byte".into(), join(&head, &r)));
    let mut r = records.clone();
    r[n - 1][4 + 1 + 32 + 1 + 32 + 2] ^= 0x01;
    copies.push(("with a changed timestamp".into(), join(&head, &r)));
    let mut failed = 0;
    for (i, (what, b)) in copies.iter().enumerate() {
        let p = dir.join(format!("{name}-{i}.kifu"));
        std::fs::write(&p, b).unwrap();
        if !agree(data, &p, &format!("{name} {what}")) {
            failed += 1;
        }
    }
    failed
}

fn demo(dir: &Path) -> PathBuf {
    let data = dir.join("kifu-data");
    ok(&run(&data, &["demo"]));
    data
}

#[test]
fn the_verifier_agrees_with_every_vector() {
    if !python_ready() {
        return;
    }
    let vectors = project("format/vectors.json");
    let o = Command::new("python3")
        .arg(verifier())
        .arg("--vectors")
        .arg(&vectors)
        .output()
        .expect("python3 runs");
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(j["ok"], true, "{j}");
    assert!(j["checked"]["role_cases"].as_u64().unwrap() > 300, "{j}");
    assert!(j["checked"]["cases"].as_u64().unwrap() >= 40, "{j}");
    // The tournament chain's vectors: kinds 44 to 52 and who may sign them.
    assert!(
        j["checked"]["tournament_events"].as_u64().unwrap() >= 9,
        "{j}"
    );
    assert!(
        j["checked"]["tournament_role_cases"].as_u64().unwrap() >= 32,
        "{j}"
    );

    // Each archive case, judged by kifu and by the verifier as files.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&vectors).unwrap()).unwrap();
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("kifu-data");
    for case in v["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let p = t.path().join(format!("{name}.kifu"));
        std::fs::write(&p, hex::decode(case["archive"].as_str().unwrap()).unwrap()).unwrap();
        let verdict = agree(&data, &p, name);
        assert_eq!(verdict, case["expect"]["ok"].as_bool().unwrap(), "{name}");
        // And for a reader who trusts the director's key (FORMAT.md
        // section 7): complete only when that key signs the manifest.
        let trusted = v["trusted_key"].as_str().unwrap();
        let verdict = agree_trusting(&data, &p, &[trusted], &format!("{name}, trusting"));
        assert_eq!(
            verdict,
            case["expect_trusted"]["ok"].as_bool().unwrap(),
            "{name}, trusting"
        );
    }
    // Tournament chain files stating facts a tournament cannot have
    // (FORMAT.md section 10): both refuse each, and count the same problems.
    assert!(
        j["checked"]["tournament_cases"].as_u64().unwrap() >= 9,
        "{j}"
    );
    for case in v["tournament_cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let p = t.path().join(format!("tournament-{name}.kifu"));
        std::fs::write(&p, hex::decode(case["archive"].as_str().unwrap()).unwrap()).unwrap();
        let verdict = agree(&data, &p, name);
        assert_eq!(verdict, case["expect"]["ok"].as_bool().unwrap(), "{name}");
    }
    // Archives of games carrying their tournament chain (FORMAT.md section
    // 7): checked against the organiser's key the chain names with no key
    // given, and against the reader's keys when some are.
    assert!(j["checked"]["carried_cases"].as_u64().unwrap() >= 12, "{j}");
    for case in v["carried_cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let p = t.path().join(format!("carried-{name}.kifu"));
        std::fs::write(&p, hex::decode(case["archive"].as_str().unwrap()).unwrap()).unwrap();
        let verdict = agree(&data, &p, name);
        assert_eq!(verdict, case["expect"]["ok"].as_bool().unwrap(), "{name}");
        let trusted = v["trusted_key"].as_str().unwrap();
        let verdict = agree_trusting(&data, &p, &[trusted], &format!("{name}, trusting"));
        assert_eq!(
            verdict,
            case["expect_trusted"]["ok"].as_bool().unwrap(),
            "{name}, trusting"
        );
    }
    // The tournament chain's archive, as `kifu verify` reads a chain file.
    let p = t.path().join("tournament.kifu");
    std::fs::write(
        &p,
        hex::decode(v["tournament_archive"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    assert!(agree(&data, &p, "the vectors' tournament chain"));
    let (_, kj) = kifu_verdict(&data, &p);
    assert_eq!(kj["tournament"], v["tournament_id"], "{kj}");
    assert_eq!(kj["checkpoints"][0]["game"], v["game_id"], "{kj}");
}

#[test]
fn the_verifier_agrees_on_the_fixture_archive_and_its_tampered_copies() {
    if !python_ready() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("kifu-data");
    let fixture = project("format/archives/demo-0.1.0.kifu");
    assert!(agree(&data, &fixture, "demo-0.1.0.kifu"));
    let (_, j) = python_verdict(&fixture);
    assert_eq!(j["archive_version"], 1, "{j}");
    let failed = tampered_copies_agree(&data, t.path(), &fixture, "fixture");
    assert!(failed >= 4, "tampering noticed: {failed}");
}

#[test]
fn the_verifier_agrees_on_the_demo_archives_signed_or_not_and_tampered() {
    if !python_ready() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let plain = t.path().join("plain.kifu");
    ok(&run(&data, &["export", "--out", plain.to_str().unwrap()]));
    let key = t.path().join("operator");
    ok(&run(&data, &["keygen", key.to_str().unwrap()]));
    let signed = t.path().join("signed.kifu");
    ok(&run(
        &data,
        &[
            "export",
            "--out",
            signed.to_str().unwrap(),
            "--key",
            t.path().join("operator.key").to_str().unwrap(),
        ],
    ));
    for (name, p) in [("plain", &plain), ("signed", &signed)] {
        assert!(agree(&data, p, name), "{name} verifies");
        let (_, j) = python_verdict(p);
        assert_eq!(j["archive_version"], 2, "{j}");
        assert_eq!(j["completeness"], "shown by the manifest", "{j}");
        assert!(!j["games"].as_array().unwrap().is_empty(), "{j}");
        let failed = tampered_copies_agree(&data, t.path(), p, name);
        assert!(failed >= 5, "{name}: tampering noticed: {failed}");
    }
    assert!(python_verdict(&signed).1["manifest_signer"].is_string());
    assert!(python_verdict(&plain).1["manifest_signer"].is_null());

    // The demo tournament's chain is an archive of its own (section 10),
    // which `kifu tournament verify` checks.
    let dir = data.join("tournaments");
    let mut chains: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("kifu"))
        .collect();
    chains.sort();
    assert!(!chains.is_empty(), "the demo writes a tournament chain");
    for c in &chains {
        let id = c.file_stem().unwrap().to_str().unwrap();
        assert!(ok(&run(&data, &["tournament", "verify", id])).contains("verified"));
        let (verdict, j) = python_verdict(c);
        assert!(verdict, "{j}");
        assert_eq!(j["games"][0]["chain"], "tournament", "{j}");
        assert!(j["events"].as_u64().unwrap() > 5, "{j}");
        // A changed signature in the chain file is noticed.
        let mut b = std::fs::read(c).unwrap();
        let n = b.len();
        b[n - 1] ^= 0x01;
        let bad = t.path().join("bad-tournament.kifu");
        std::fs::write(&bad, &b).unwrap();
        assert!(!python_verdict(&bad).0);
    }
}

#[test]
fn the_verifier_agrees_where_the_document_was_clarified() {
    if !python_ready() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("kifu-data");
    let out = t.path().join("cases");
    std::fs::create_dir_all(&out).unwrap();
    let o = Command::new("python3")
        .arg(workspace().join("tests/peers/format_cases.py"))
        .arg(project("format/vectors.json"))
        .arg(&out)
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}", err(&o));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let mut verdicts = Vec::new();
    for f in &files {
        let name = f.file_stem().unwrap().to_str().unwrap().to_string();
        verdicts.push((name.clone(), agree(&data, f, &name)));
    }
    // Both ways occur: the cases are not all accepted, nor all refused.
    let accepted = verdicts.iter().filter(|(_, ok)| *ok).count();
    assert!(
        accepted >= 8 && accepted + 8 <= verdicts.len(),
        "{verdicts:?}"
    );
    // A fork whose second record a stranger signed is still a fork.
    let (_, j) = python_verdict(&out.join("B_fork_stranger.kifu"));
    assert_eq!(j["forks"], 1, "{j}");
    // One warning per point off the board.
    let (_, j) = python_verdict(&out.join("D_two_points_one_record.kifu"));
    assert_eq!(j["warnings"].as_array().unwrap().len(), 2, "{j}");
}

/// A tournament chain written by `kifu tournament`: the director's key, the
/// data directory and the chain file, with two players registered.
fn small_tournament(dir: &Path) -> (String, PathBuf, PathBuf) {
    let data = dir.join("kifu-data");
    ok(&run(&data, &["keygen", dir.join("dir").to_str().unwrap()]));
    let dk = dir.join("dir.key").to_str().unwrap().to_string();
    ok(&run(
        &data,
        &[
            "tournament",
            "new",
            "--key",
            &dk,
            "--name",
            "Fork Open",
            "--short-name",
            "fo",
            "--rounds",
            "3",
        ],
    ));
    for (id, rank) in [("P1", "2d"), ("P2", "1k")] {
        register(&data, &dk, id, rank);
    }
    let file = std::fs::read_dir(data.join("tournaments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().and_then(|e| e.to_str()) == Some("kifu"))
        .expect("the chain file");
    (dk, data, file)
}

fn register(data: &Path, key: &str, id: &str, rank: &str) {
    ok(&run(
        data,
        &[
            "tournament",
            "register",
            "fo",
            "--key",
            key,
            "--id",
            id,
            "--surname",
            &format!("Surname {id}"),
            "--rank",
            rank,
        ],
    ));
}

/// `kifu verify --json FILE`: exit code and report.
fn kifu_json(data: &Path, file: &Path) -> (Option<i32>, serde_json::Value) {
    let o = run(data, &["verify", "--json", file.to_str().unwrap()]);
    let j = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("JSON ({e}): {} {}", out(&o), err(&o)));
    (o.status.code(), j)
}

#[test]
fn kifu_verify_reports_a_forked_and_a_shuffled_tournament_chain_file() {
    let t = tempfile::tempdir().unwrap();
    let (dk, data, file) = small_tournament(t.path());
    let before = std::fs::read(&file).unwrap();
    // Two statements at seq 3, both signed by the director: a fork.
    register(&data, &dk, "P3", "3k");
    let with_p3 = std::fs::read(&file).unwrap();
    std::fs::write(&file, &before).unwrap();
    register(&data, &dk, "P4", "5k");
    let with_p4 = std::fs::read(&file).unwrap();
    let (head, mut records) = split(&with_p3);
    let (_, other) = split(&with_p4);
    let (p3, p4) = (records[3].clone(), other[3].clone());
    assert_ne!(p3, p4);
    records.push(p4.clone());
    let forked = t.path().join("forked.kifu");
    std::fs::write(&forked, join(&head, &records)).unwrap();

    let (code, j) = kifu_json(&data, &forked);
    assert_eq!(code, Some(3), "{j}");
    assert_eq!(j["ok"], false);
    assert_eq!(j["forks"].as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j["forks"][0]["seq"], 3);
    let hash = |rec: &[u8]| hex::encode(kifu_ledger::Record::from_stored(rec).unwrap().hash());
    let mut both = vec![hash(&p3), hash(&p4)];
    both.sort();
    let evidence: Vec<String> = j["forks"][0]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect();
    assert_eq!(evidence, both, "both records are kept as evidence");
    assert_eq!(j["problems"].as_array().unwrap().len(), 1, "{j}");
    // The longest verified branch: seq 3, the lower hash.
    assert_eq!(j["games"][0]["head_seq"], 3);
    assert_eq!(j["games"][0]["head"], both[0].as_str());
    assert_eq!(j["players"], 3, "the summary of that branch: {j}");
    let o = run(&data, &["verify", forked.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        err(&o).contains("fork: 2 validly signed records"),
        "{}",
        err(&o)
    );
    assert!(
        err(&o).contains("1 fork(s) with 2 records kept as evidence"),
        "{}",
        err(&o)
    );

    // The same records shuffled, one of them twice: verifies, the duplicate noted.
    let (head, mut records) = split(&with_p3);
    records.reverse();
    records.swap(1, 2);
    records.push(records[0].clone());
    let shuffled = t.path().join("shuffled.kifu");
    std::fs::write(&shuffled, join(&head, &records)).unwrap();
    let (code, j) = kifu_json(&data, &shuffled);
    assert_eq!(code, Some(0), "{j}");
    assert_eq!(j["ok"], true);
    assert_eq!(j["records"], 5);
    assert_eq!(j["distinct"], 4);
    assert_eq!(j["duplicates"].as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j["duplicates"][0]["seq"], 3);
    assert_eq!(j["games"][0]["head_seq"], 3);
    assert_eq!(j["games"][0]["head"], hash(&p3).as_str());
    assert_eq!(j["players"], 3);
    let text = ok(&run(&data, &["verify", shuffled.to_str().unwrap()]));
    assert!(text.contains("ok: tournament Fork Open"), "{text}");
    assert!(text.contains("appears 2 times; counted once"), "{text}");

    // The independent verifier reaches the same verdicts, and on tampered
    // copies of the chain file.
    if !python_ready() {
        return;
    }
    assert!(!agree(&data, &forked, "forked tournament"));
    assert_eq!(python_verdict(&forked).1["forks"], 1);
    assert!(agree(&data, &shuffled, "shuffled tournament"));
    std::fs::write(&file, &with_p3).unwrap();
    assert!(agree(&data, &file, "tournament"));
    let failed = tampered_copies_agree(&data, t.path(), &file, "tournament");
    assert!(failed >= 4, "tampering noticed: {failed}");
}

#[test]
fn the_verifier_agrees_on_the_tournament_chain_an_appeal_bundle_carries() {
    if !python_ready() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let data = demo(t.path());
    let s = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    ok(&run(&data, &["keygen", &s("op")]));
    ok(&run(
        &data,
        &[
            "checkpoint",
            "--key",
            &s("op.key"),
            "--origin",
            "kifu.example/fv",
            "--out",
            &s("cp"),
        ],
    ));
    let game = ok(&run(&data, &["games"]))
        .lines()
        .find(|l| l.contains("round 1, board 1"))
        .and_then(|l| l.split_whitespace().next())
        .expect("the demo game")
        .to_string();
    let bundle = t.path().join("appeal.kifu-bundle");
    ok(&run(
        &data,
        &[
            "bundle",
            &game,
            "--out",
            bundle.to_str().unwrap(),
            "--checkpoint",
            &s("cp"),
        ],
    ));
    let (verdict, pj) = python_verdict(&bundle);
    assert!(verdict, "{pj}");
    assert_eq!(pj["games"][0]["chain"], "tournament", "{pj}");
    let kj: serde_json::Value = serde_json::from_str(&ok(&run(
        &data,
        &["verify", "--json", bundle.to_str().unwrap()],
    )))
    .unwrap();
    let kt = &kj["bundle"]["tournament"];
    let pt = &pj["tournament_checkpoint"];
    for key in [
        "tournament",
        "checkpoint_event",
        "round",
        "board",
        "head_seq",
        "head_hash",
    ] {
        assert_eq!(pt[key], kt[key], "{key}: {pj} {kj}");
    }

    // The compact form of the same bundle: the same tournament verdict, and
    // the game's records verify as its chain; a signature changed inside
    // it, and both refuse.
    let compact = t.path().join("appeal-compact.kifu-bundle");
    ok(&run(
        &data,
        &[
            "bundle",
            &game,
            "--out",
            compact.to_str().unwrap(),
            "--checkpoint",
            &s("cp"),
            "--compact",
        ],
    ));
    let (cv, cj) = python_verdict(&compact);
    assert!(cv, "{cj}");
    assert_eq!(cj["tournament_checkpoint"], *pt, "{cj}");
    assert_eq!(cj["games"][0]["game"].as_str(), Some(game_id(&kj)), "{cj}");
    assert_eq!(cj["games"][0]["chain"], "game", "{cj}");
    let packed = std::fs::read(&compact).unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::ZlibDecoder::new(&packed[14..]),
        &mut plain,
    )
    .unwrap();
    let last = plain.len() - 1;
    plain[last] ^= 1;
    let mut z = flate2::write::ZlibEncoder::new(packed[..14].to_vec(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, &plain).unwrap();
    let bad = t.path().join("changed-compact.kifu-bundle");
    std::fs::write(&bad, z.finish().unwrap()).unwrap();
    let (py, pj) = python_verdict(&bad);
    assert!(!py, "{pj}");
    let o = run(&data, &["verify", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));

    // A tournament record changed, or dropped from the middle: both refuse.
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    let n = b["tournament_checkpoint"]["records"]
        .as_array()
        .unwrap()
        .len();
    for (i, what) in [(n - 1, "changed"), (n / 2, "dropped")] {
        let mut bad = b.clone();
        let records = bad["tournament_checkpoint"]["records"]
            .as_array_mut()
            .unwrap();
        if what == "dropped" {
            records.remove(i);
        } else {
            let mut raw = base64_decode(records[i].as_str().unwrap());
            let last = raw.len() - 1;
            raw[last] ^= 1;
            records[i] = serde_json::Value::from(base64_encode(&raw));
        }
        let p = t.path().join(format!("{what}.kifu-bundle"));
        std::fs::write(&p, serde_json::to_vec(&bad).unwrap()).unwrap();
        let (py, pj) = python_verdict(&p);
        assert!(!py, "{what}: {pj}");
        let o = run(&data, &["verify", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(3), "{what}: {}", err(&o));
    }
}

fn game_id(verdict: &serde_json::Value) -> &str {
    verdict["bundle"]["game"].as_str().unwrap()
}

fn base64_decode(s: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.decode(s).unwrap()
}

fn base64_encode(b: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(b)
}
