//! `kifu import FILE` streams the archive (verified, then read again and
//! written a batch of whole games at a time): an archive larger than one
//! batch still imports all or nothing against what the store holds, and
//! extends a game the store holds a shorter chain of.

mod common;
use common::*;

use kifu_ledger::testkit::{finished_game, moves_game, Cast};
use kifu_ledger::{archive, Body, Color, Point, Record};

/// Games of 330 records filling more than one import batch (32,768).
fn bulk(cast: &Cast) -> Vec<Record> {
    (0..101)
        .flat_map(|i| finished_game(cast, &format!("bulk {i}"), 163).records)
        .collect()
}

fn games(data: &std::path::Path) -> usize {
    let v: serde_json::Value = serde_json::from_str(&ok(&run(data, &["games", "--json"]))).unwrap();
    v.as_array().map_or(0, Vec::len)
}

#[test]
fn a_streamed_import_writes_nothing_when_a_game_in_a_later_batch_differs_from_the_store() {
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    let g = moves_game(&cast, "differs", 4);
    let stone = |x| Body::StonePlaced {
        player: Color::Black,
        stone: Color::Black,
        point: Point { x, y: x },
    };
    let (mine, theirs) = (g.next(&cast.black, stone(5)), g.next(&cast.black, stone(6)));
    let data = t.path().join("d");
    let a = t.path().join("a.kifu");
    let mut held = g.records.clone();
    held.push(mine);
    std::fs::write(&a, archive::write(&held)).unwrap();
    ok(&run(&data, &["import", a.to_str().unwrap()]));
    assert_eq!(games(&data), 1);
    // The bulk first (the first batch), the differing game last.
    let mut records = bulk(&cast);
    records.extend(g.records.iter().cloned());
    records.push(theirs);
    let b = t.path().join("b.kifu");
    std::fs::write(&b, archive::write(&records)).unwrap();
    let o = run(&data, &["import", b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("fork"), "{}", err(&o));
    assert!(err(&o).contains("nothing else was written"), "{}", err(&o));
    assert_eq!(games(&data), 1, "no game of the first batch was written");
}

#[test]
fn a_streamed_import_extends_a_shorter_stored_game_and_counts_what_was_there() {
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    let g = finished_game(&cast, "longer", 20);
    let data = t.path().join("d");
    let a = t.path().join("a.kifu");
    std::fs::write(&a, archive::write(&g.records[..10])).unwrap();
    ok(&run(&data, &["import", a.to_str().unwrap()]));
    let mut records = g.records.clone();
    records.extend(bulk(&cast));
    let b = t.path().join("b.kifu");
    std::fs::write(&b, archive::write(&records)).unwrap();
    let o = run(
        &data,
        &["import", "--json", "--progress", b.to_str().unwrap()],
    );
    let j: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    let total = records.len() as u64;
    assert_eq!(j["already_present"], 10, "{j}");
    assert_eq!(j["written"], total - 10, "{j}");
    assert_eq!(j["games"], 102, "{j}");
    let e = err(&o);
    assert!(e.contains("verifying"), "{e}");
    assert!(
        e.contains(&format!("importing: {total}/{total} events")),
        "{e}"
    );
    assert_eq!(games(&data), 102);
    let v = ok(&run(&data, &["verify"]));
    assert!(v.contains(&format!("102 games, {total} events")), "{v}");
}

#[test]
fn a_streamed_import_refuses_a_kind_this_program_does_not_know_in_any_batch() {
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    // The bulk first (the first batch), then a game with a newer kind.
    let mut records = bulk(&cast);
    let g = moves_game(&cast, "newer", 2);
    records.extend(g.records.iter().cloned());
    records.push(g.next_raw(&cast.referee, vec![0xc8, 0x01, 0x07]));
    let f = t.path().join("newer.kifu");
    std::fs::write(&f, archive::write(&records)).unwrap();
    let data = t.path().join("d");
    // Verification accepts it (link, signature and signer checked) ...
    let v = ok(&run(&data, &["verify", f.to_str().unwrap()]));
    assert!(v.contains("newer than this program"), "{v}");
    // ... a store does not keep what it cannot apply, as an append.
    let o = run(&data, &["import", f.to_str().unwrap()]);
    assert!(!o.status.success(), "{}", out(&o));
    assert!(err(&o).contains("kind 200"), "{}", err(&o));
    assert!(err(&o).contains("nothing written"), "{}", err(&o));
    assert_eq!(games(&data), 0, "no game of the first batch was written");
}

/// The highest peak resident memory (`VmHWM`, in kB) seen while `cmd`
/// runs, polling `/proc` every 2 ms (at most 60 s), and its output. A
/// reading can only fall short of the true peak, never exceed it.
fn peak_while(mut cmd: std::process::Command) -> (u64, std::process::Output) {
    use std::time::{Duration, Instant};
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let started = Instant::now();
    let mut peak = 0;
    let mut child = child;
    while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(60) {
        if let Ok(s) = std::fs::read_to_string(&status) {
            let hwm = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    (peak, child.wait_with_output().unwrap())
}

/// `kifu verify FILE` and `kifu import FILE` read the file a record at a
/// time: a 1 GB file (sparse: it takes no disk) whose framing breaks after
/// its first games is refused with the framing error without being read
/// whole. Reading it whole first (as the check for a tournament chain file
/// once did before verifying) shows as a peak of a gigabyte.
#[test]
fn a_file_is_read_a_record_at_a_time_not_whole() {
    let t = tempfile::tempdir().unwrap();
    let cast = Cast::new();
    let records: Vec<Record> = (0..3)
        .flat_map(|i| finished_game(&cast, &format!("large {i}"), 10).records)
        .collect();
    let mut bytes = archive::write(&records);
    // A record claiming more bytes than the file holds.
    bytes.extend_from_slice(&0xffff_fff0u32.to_le_bytes());
    let f = t.path().join("large.kifu");
    std::fs::write(&f, &bytes).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&f).unwrap();
    file.set_len(1 << 30).unwrap();
    drop(file);
    let data = t.path().join("d");
    // And an import through a server, which verifies the file first too.
    let server = Served::start(&t.path().join("served"), &[]);
    for cmd in ["verify", "import", "remote import"] {
        let mut c = kifu();
        c.arg("--data").arg(&data);
        if cmd == "remote import" {
            c.args(["--server", &server.url, "import"]);
        } else {
            c.arg(cmd);
        }
        c.arg(&f);
        let (peak_kb, o) = peak_while(c);
        assert_eq!(o.status.code(), Some(3), "{cmd}: {}", err(&o));
        assert!(err(&o).contains("truncated record"), "{cmd}: {}", err(&o));
        assert!(
            peak_kb < 300_000,
            "{cmd}: {peak_kb} kB resident at its peak"
        );
    }
    assert_eq!(games(&data), 0);
}

/// A file with no game genesis is read a record at a time too (the check
/// for a tournament chain file keeps no record while it looks), and a
/// record that does not decode is not kept: ten records of 64 MiB each
/// (a sparse file) are refused without holding them together.
#[test]
fn records_without_a_game_genesis_are_not_held_together() {
    use std::io::{Seek, SeekFrom, Write};
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("big-records.kifu");
    let mut file = std::fs::File::create(&f).unwrap();
    file.write_all(b"KIFUARC1").unwrap();
    let body: u64 = 64 << 20;
    let mut at = 8u64;
    for _ in 0..10 {
        file.seek(SeekFrom::Start(at)).unwrap();
        file.write_all(&(body as u32).to_le_bytes()).unwrap();
        at += 4 + body + 64;
    }
    file.set_len(at).unwrap();
    drop(file);
    let data = t.path().join("d");
    for cmd in ["verify", "import"] {
        let mut c = kifu();
        c.arg("--data").arg(&data).arg(cmd).arg(&f);
        let (peak_kb, o) = peak_while(c);
        assert_eq!(o.status.code(), Some(3), "{cmd}: {}", err(&o));
        assert!(
            format!("{}{}", out(&o), err(&o)).contains("appears 10 times"),
            "{cmd}: {}{}",
            out(&o),
            err(&o)
        );
        assert!(
            peak_kb < 400_000,
            "{cmd}: {peak_kb} kB resident at its peak"
        );
    }
}
