//! `kifu sgf board | import | export` end to end, against the GNU Go oracle
//! files and GNU Go itself.

mod common;
use common::*;

use std::path::{Path, PathBuf};

use serde_json::Value;

const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A GTP vertex (`D4`) as SGF letters (`dp` on 19x19).
fn gtp_to_sgf(v: &str, size: u8) -> String {
    let col = GTP_LETTERS
        .iter()
        .position(|&c| c == v.as_bytes()[0].to_ascii_uppercase())
        .unwrap() as u8;
    let row: u8 = v[1..].parse().unwrap();
    format!("{}{}", (b'a' + col) as char, (b'a' + size - row) as char)
}

fn sorted_sgf(list: &Value, size: u8) -> Vec<String> {
    let mut v: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| gtp_to_sgf(s.as_str().unwrap(), size))
        .collect();
    v.sort();
    v
}

fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}: fixture folder", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map(|x| x == "sgf").unwrap_or(false))
        .collect();
    v.sort();
    v
}

#[test]
fn sgf_board_matches_the_oracle_on_every_fixture_game() {
    let t = tempfile::tempdir().unwrap();
    let mut checked = 0;
    // 60 self-play games ship with the project; 156 real games are
    // third-party records, checked when present.
    let real = third_party("go/real");
    let expected = if real.is_some() { 216 } else { 60 };
    for dir in [Some(project("go/gnugo-selfplay")), real]
        .into_iter()
        .flatten()
    {
        for sgf in sgf_files(&dir) {
            let oracle: Value =
                serde_json::from_str(&std::fs::read_to_string(sgf.with_extension("json")).unwrap())
                    .unwrap();
            // The permissive replay (no ko, all suicide allowed) is what a
            // record-everything board shows when GNU Go refused a move.
            let expect = oracle
                .get("permissive_replay")
                .filter(|v| !v.is_null())
                .unwrap_or(&oracle);
            let size = oracle["board_size"].as_u64().unwrap() as u8;
            let o = ok(&run(
                t.path(),
                &["sgf", "board", sgf.to_str().unwrap(), "--json"],
            ));
            let got: Value = serde_json::from_str(&o).unwrap();
            let stones = expect
                .get("final_stones")
                .unwrap_or(&oracle["final_stones"]);
            assert_eq!(got["size"], size, "{}", sgf.display());
            assert_eq!(
                got["black"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect::<Vec<_>>(),
                sorted_sgf(&stones["black"], size),
                "black stones of {}",
                sgf.display()
            );
            assert_eq!(
                got["white"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect::<Vec<_>>(),
                sorted_sgf(&stones["white"], size),
                "white stones of {}",
                sgf.display()
            );
            assert_eq!(
                got["captures"],
                expect["captures"],
                "captures of {}",
                sgf.display()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, expected, "60 self-play and 156 real games");
}

fn game_id(data: &Path) -> String {
    let log = ok(&run(data, &["log", "--json"]));
    let first: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    first["game"].as_str().unwrap().to_string()
}

#[test]
fn an_imported_game_exports_to_the_same_position() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = t.path().join("rec");
    ok(&run(&data, &["keygen", key.to_str().unwrap()]));
    // A handicap game and an even one with a ko fight.
    for name in ["gs-19x19-003.sgf", "gs-13x13-010.sgf"] {
        let src = project("go/gnugo-selfplay").join(name);
        let id = ok(&run(
            &data,
            &[
                "sgf",
                "import",
                src.to_str().unwrap(),
                "--key",
                &format!("{}.key", key.display()),
            ],
        ))
        .trim()
        .to_string();
        let out = t.path().join(format!("{name}.out.sgf"));
        ok(&run(
            &data,
            &["sgf", "export", &id[..12], "--out", out.to_str().unwrap()],
        ));
        let before = ok(&run(
            &data,
            &["sgf", "board", src.to_str().unwrap(), "--json"],
        ));
        let after = ok(&run(
            &data,
            &["sgf", "board", out.to_str().unwrap(), "--json"],
        ));
        assert_eq!(
            before, after,
            "{name}: export of the import replays to the same board"
        );
    }
    ok(&run(&data, &["verify"]));
}

#[test]
fn an_sgf_with_white_setup_stones_is_refused_with_nothing_written() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = t.path().join("rec");
    ok(&run(&data, &["keygen", key.to_str().unwrap()]));
    let f = t.path().join("setup.sgf");
    std::fs::write(&f, "(;GM[1]FF[4]SZ[9]AB[cc]AW[dd];B[ee])").unwrap();
    let o = run(
        &data,
        &[
            "sgf",
            "import",
            f.to_str().unwrap(),
            "--key",
            &format!("{}.key", key.display()),
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("nothing imported"), "{}", err(&o));
    assert!(!data.join("db").exists() || ok(&run(&data, &["log"])).trim().is_empty());
}

fn gnugo() -> Option<PathBuf> {
    for p in ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"] {
        if Path::new(p).exists() {
            return Some(PathBuf::from(p));
        }
    }
    None
}

#[test]
fn gnu_go_reads_an_exported_game_with_times_and_comments() {
    let Some(gnugo) = gnugo() else {
        assert!(!peers_required(), "GNU Go is required here but missing");
        eprintln!("skipped: GNU Go not installed");
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    ok(&run(&data, &["demo"]));
    let id = game_id(&data);
    let out = t.path().join("demo.sgf");
    ok(&run(
        &data,
        &["sgf", "export", &id[..12], "--out", out.to_str().unwrap()],
    ));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("BL[") && text.contains("WL["),
        "times on moves: {text}"
    );
    assert!(text.contains("C["), "comments: {text}");
    let ours: Value = serde_json::from_str(&ok(&run(
        &data,
        &["sgf", "board", out.to_str().unwrap(), "--json"],
    )))
    .unwrap();
    let gtp = format!(
        "loadsgf {}\nlist_stones black\nlist_stones white\nquit\n",
        out.display()
    );
    let mut child = std::process::Command::new(gnugo)
        .args(["--mode", "gtp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(gtp.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let reply = String::from_utf8_lossy(&o.stdout).to_string();
    let answers: Vec<&str> = reply.split("\n\n").collect();
    assert!(
        answers[0].starts_with('='),
        "GNU Go loads the file: {reply}"
    );
    let size = ours["size"].as_u64().unwrap() as u8;
    for (i, colour) in [(1, "black"), (2, "white")] {
        let mut theirs: Vec<String> = answers[i]
            .trim_start_matches('=')
            .split_whitespace()
            .map(|v| gtp_to_sgf(v, size))
            .collect();
        theirs.sort();
        let mine: Vec<String> = ours[colour]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_eq!(theirs, mine, "{colour} stones as GNU Go reads them");
    }
}

#[test]
fn freely_placed_handicap_stones_are_imported_as_blacks_first_stones_and_exported_back() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = t.path().join("rec");
    ok(&run(&data, &["keygen", key.to_str().unwrap()]));
    let f = t.path().join("free.sgf");
    // Not the standard points for two stones on 9x9.
    std::fs::write(
        &f,
        "(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]AB[cc][ee];W[gg];B[gc];W[cg])",
    )
    .unwrap();
    let id = ok(&run(
        &data,
        &[
            "sgf",
            "import",
            f.to_str().unwrap(),
            "--key",
            &format!("{}.key", key.display()),
        ],
    ))
    .trim()
    .to_string();
    let replay: Value =
        serde_json::from_str(&ok(&run(&data, &["replay", &id[..12], "--json"]))).unwrap();
    let text = replay.to_string();
    assert!(text.contains("handicap stone 2 placed"), "{text}");
    assert!(
        !text.contains("out of turn") && !text.contains("out_of_turn"),
        "no move is out of turn: {text}"
    );
    let out = t.path().join("free.out.sgf");
    ok(&run(
        &data,
        &["sgf", "export", &id[..12], "--out", out.to_str().unwrap()],
    ));
    let exported = std::fs::read_to_string(&out).unwrap();
    assert!(
        exported.contains("AB[cc][ee]") || exported.contains("AB[ee][cc]"),
        "{exported}"
    );
    let before = ok(&run(
        &data,
        &["sgf", "board", f.to_str().unwrap(), "--json"],
    ));
    let after = ok(&run(
        &data,
        &["sgf", "board", out.to_str().unwrap(), "--json"],
    ));
    assert_eq!(before, after);
}

/// Every game-information property and the moves of a record, as read.
fn properties(text: &str) -> (Vec<(String, String)>, Vec<String>, Vec<String>) {
    let g = kifu_go::sgf::read(text).expect("sgf reads");
    let info = kifu_go::sgf::GameInfo::from_game(&g).properties;
    let moves = g
        .moves
        .iter()
        .map(|m| {
            format!(
                "{:?}{}",
                m.color,
                m.point.map(|p| p.to_sgf()).unwrap_or_default()
            )
        })
        .collect();
    let mut setup: Vec<String> = g.setup_black.iter().map(|p| p.to_sgf()).collect();
    setup.sort();
    (info, moves, setup)
}

#[test]
fn every_real_game_imported_in_bulk_exports_with_every_property_kept() {
    let Some(dir) = third_party("go/real") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    ok(&run(
        &data,
        &["keygen", t.path().join("rec").to_str().unwrap()],
    ));
    let key = t.path().join("rec.key");
    let o = ok(&run(
        &data,
        &[
            "sgf",
            "import",
            dir.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
            "--json",
        ],
    ));
    let report: Value = serde_json::from_str(&o).unwrap();
    let imported = report["imported"].as_array().unwrap();
    assert_eq!(imported.len(), 156, "{}", report["skipped"]);
    assert_eq!(report["skipped"].as_array().unwrap().len(), 0);
    let mut compared = 0;
    for i in imported {
        let file = PathBuf::from(i["file"].as_str().unwrap());
        let original = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let exported = ok(&run(&data, &["sgf", "export", i["game"].as_str().unwrap()]));
        let (info_a, moves_a, setup_a) = properties(&original);
        let (info_b, moves_b, setup_b) = properties(&exported);
        for (id, value) in &info_a {
            // KM and HA are the game's values; the originals that have them
            // read the same (KM in half points, HA as stones).
            let got = info_b
                .iter()
                .find(|(k, _)| k == id)
                .map(|(_, v)| v.as_str());
            assert_eq!(got, Some(value.as_str()), "{}: {id}", file.display());
        }
        assert_eq!(moves_a, moves_b, "{}", file.display());
        assert_eq!(setup_a, setup_b, "{}", file.display());
        // Players are named in the genesis even without their keys.
        if let Some((_, pb)) = info_a.iter().find(|(k, _)| k == "PB") {
            let log = ok(&run(&data, &["log", i["game"].as_str().unwrap()]));
            assert!(
                log.contains(pb.as_str()),
                "{}: {pb} not in the log",
                file.display()
            );
        }
        compared += 1;
    }
    assert_eq!(compared, 156);
}

#[test]
fn a_gb2312_record_is_imported_with_its_names() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    ok(&run(
        &data,
        &["keygen", t.path().join("rec").to_str().unwrap()],
    ));
    let file = t.path().join("gb.sgf");
    // 古力 (Black) and 李世石 (White) in GB2312; a date, an event, a round.
    let mut bytes: Vec<u8> = b"(;GM[1]FF[4]CA[GB2312]SZ[19]KM[7.5]PB[".to_vec();
    bytes.extend_from_slice(b"\xb9\xc5\xc1\xa6");
    bytes.extend_from_slice(b"]PW[");
    bytes.extend_from_slice(b"\xc0\xee\xca\xc0\xca\xaf");
    bytes.extend_from_slice(b"]DT[2009-03-01]EV[Test Cup]RO[3]RE[W+R];B[pd];W[dd])");
    std::fs::write(&file, &bytes).unwrap();
    let key = t.path().join("rec.key");
    let o = ok(&run(
        &data,
        &[
            "sgf",
            "import",
            file.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
            "--json",
        ],
    ));
    let v: Value = serde_json::from_str(&o).unwrap();
    let game = v["imported"][0]["game"].as_str().unwrap().to_string();
    let exported = ok(&run(&data, &["sgf", "export", &game]));
    assert!(exported.contains("PB[古力]"), "{exported}");
    assert!(exported.contains("PW[李世石]"), "{exported}");
    assert!(exported.contains("EV[Test Cup]") && exported.contains("RO[3]"));
    assert!(exported.contains("DT[2009-03-01]") && exported.contains("RE[W+R]"));
    // Untimed: no time left written.
    assert!(!exported.contains("BL["), "{exported}");
}

#[test]
fn an_sgf_file_over_the_size_limit_is_refused_before_it_is_read_and_the_flag_raises_it() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let key = t.path().join("rec");
    ok(&run(&data, &["keygen", key.to_str().unwrap()]));
    // A real game with a 5 MiB comment: over the default 4 MiB.
    let f = t.path().join("big.sgf");
    let comment = "x".repeat(5 << 20);
    std::fs::write(&f, format!("(;GM[1]FF[4]SZ[9]C[{comment}];B[ee];W[cc])")).unwrap();
    let key_file = format!("{}.key", key.display());
    let import = |extra: &[&str]| {
        let mut args = vec!["sgf", "import", f.to_str().unwrap(), "--key", &key_file];
        args.extend_from_slice(extra);
        run(&data, &args)
    };
    let o = import(&[]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains("larger than 4 MiB") && err(&o).contains("--max-sgf-mib"),
        "{}",
        err(&o)
    );
    assert!(!data.join("db").exists() || ok(&run(&data, &["log"])).trim().is_empty());
    // `sgf board` is bounded the same way.
    let o = run(&data, &["sgf", "board", f.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(err(&o).contains("larger than 4 MiB"), "{}", err(&o));
    // Raised, the same file is imported.
    ok(&import(&["--max-sgf-mib", "8"]));
    assert!(!ok(&run(&data, &["games"])).trim().is_empty());
}

#[test]
fn a_profile_kifu_go_does_not_know_is_refused_before_the_file_is_read() {
    let t = tempfile::tempdir().unwrap();
    let missing = t.path().join("no-such.sgf");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["sgf", "board", missing, "--ruleset", "lgc-2032"],
        vec![
            "sgf",
            "import",
            missing,
            "--key",
            missing,
            "--ruleset",
            "lgc-2032",
        ],
    ] {
        let o = run(t.path(), &args);
        assert!(!o.status.success(), "{args:?}");
        let e = err(&o);
        // The profiles offered are kifu-go's list.
        for name in ["lgc-2023", "uec-cup", "japanese"] {
            assert!(e.contains(name), "{name} not offered: {e}");
        }
        assert!(!e.contains("no-such.sgf"), "the file was read: {e}");
    }
    let help = ok(&run(t.path(), &["sgf", "board", "--help"]));
    assert!(help.contains("[default: lgc-2023]"), "{help}");
}
