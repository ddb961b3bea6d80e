//! End to end: a store on read-only media is verified, read, replayed,
//! explained and exported, never written; commands that write refuse in
//! one line. The import of an archive equals the store made by appends.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;

/// Every file and directory under `dir`: its bytes and mode.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            let mode = meta.permissions().mode();
            if meta.is_dir() {
                out.insert(e.path(), (Vec::new(), mode));
                stack.push(e.path());
            } else {
                out.insert(e.path(), (std::fs::read(e.path()).unwrap(), mode));
            }
        }
    }
    out
}

/// `chmod -R a-w` (or `u+w` back).
fn set_writable(dir: &Path, writable: bool) {
    let mut paths: Vec<PathBuf> = snapshot(dir).into_keys().collect();
    paths.push(dir.to_path_buf());
    // Directories last when locking, first when unlocking.
    paths.sort_by_key(|p| std::cmp::Reverse(p.components().count()));
    if writable {
        paths.reverse();
    }
    for p in paths {
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        let mode = if writable {
            mode | 0o200
        } else {
            mode & !0o222
        };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

fn run_tmp(data: &Path, tmp: &Path, args: &[&str]) -> Output {
    kifu()
        .env("TMPDIR", tmp)
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("kifu runs")
}

fn first_game(data: &Path, tmp: &Path) -> String {
    let o = ok(&run_tmp(data, tmp, &["verify", "--json"]));
    let j: serde_json::Value = serde_json::from_str(&o).unwrap();
    j["games"][0]["game"].as_str().unwrap().to_string()
}

#[test]
fn a_read_only_store_is_read_replayed_and_exported_and_never_written() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    ok(&run(&data, &["demo"]));
    let tmp = t.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let game = first_game(&data, &tmp);
    let out_dir = t.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let archive = out_dir.join("all.kifu");

    set_writable(&data, false);
    let before = snapshot(&data);
    let archive_s = archive.display().to_string();
    for args in [
        vec!["verify"],
        vec!["log", &game],
        vec!["feed"],
        vec!["games"],
        vec!["replay", &game],
        vec!["explain", &game],
        vec!["export", "--out", &archive_s],
    ] {
        let o = run_tmp(&data, &tmp, &args);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        let e = err(&o);
        assert!(
            e.contains("is read-only") && e.contains("reading a copy of it"),
            "{args:?}: {e}"
        );
        assert!(!out(&o).is_empty(), "{args:?}");
    }
    // The export verifies on its own.
    ok(&run_tmp(&data, &tmp, &["verify", &archive_s]));

    // Writing commands refuse in one line and write nothing.
    let o = run_tmp(&data, &tmp, &["import", &archive_s]);
    assert!(!o.status.success());
    let e = err(&o);
    assert!(e.contains("read-only"), "{e}");
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    let key = data.join("demo-keys/black.key");
    let mut child = kifu()
        .env("TMPDIR", &tmp)
        .arg("--data")
        .arg(&data)
        .args(["append", &game, "--key", &key.display().to_string()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mv = r#"{"stone_placed":{"player":"black","stone":"black","point":{"x":2,"y":2}}}"#;
        let _ = child.stdin.take().unwrap().write_all(mv.as_bytes());
    }
    let o = child.wait_with_output().unwrap();
    assert!(!o.status.success());
    assert!(err(&o).contains("read-only"), "{}", err(&o));

    assert_eq!(snapshot(&data), before, "the read-only store changed");
    // Every copy was removed.
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
    set_writable(&data, true);
}

/// As a user without write permission (not by mode bits): run as `nobody`
/// with `setpriv` when this runs as root and it is installed.
#[test]
fn a_store_another_user_owns_is_read_through_a_copy() {
    let uid = std::process::Command::new("id").arg("-u").output();
    let root = uid.map(|o| out(&o).trim() == "0").unwrap_or(false);
    let setpriv = Path::new("/usr/bin/setpriv");
    if !root || !setpriv.exists() {
        println!("skipped: needs root and setpriv to run kifu as another user");
        return;
    }
    // Somewhere `nobody` may read and traverse.
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let t = tempfile::tempdir_in(base).unwrap();
    // Every folder above must let other users through.
    for d in t.path().ancestors().skip(1) {
        if std::fs::metadata(d).unwrap().permissions().mode() & 0o001 == 0 {
            println!("skipped: {} cannot be entered by other users", d.display());
            return;
        }
    }
    std::fs::set_permissions(t.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = t.path().join("data");
    ok(&run(&data, &["demo"]));
    let tmp = t.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o777)).unwrap();
    // World-readable, writable by root only (mode bits keep u+w).
    for (p, (_, mode)) in snapshot(&data) {
        let m = if std::fs::metadata(&p).unwrap().is_dir() {
            mode | 0o755
        } else {
            mode | 0o644
        };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).unwrap();
    }
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let before = snapshot(&data);
    let o = std::process::Command::new(setpriv)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_kifu"))
        .env("TMPDIR", &tmp)
        .env("HOME", &tmp)
        .arg("--data")
        .arg(&data)
        .arg("verify")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("is read-only"), "{}", err(&o));
    assert!(out(&o).starts_with("ok:"), "{}", out(&o));
    assert_eq!(snapshot(&data), before);
}

#[test]
fn an_imported_archive_equals_the_store_made_by_appends() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    ok(&run(&data, &["demo"]));
    let archive = t.path().join("all.kifu");
    ok(&run(
        &data,
        &["export", "--out", &archive.display().to_string()],
    ));
    let copy = t.path().join("imported");
    ok(&run(&copy, &["import", &archive.display().to_string()]));
    let a = ok(&run(&data, &["feed"]));
    let b = ok(&run(&copy, &["feed"]));
    // Feed order is the appends' order in the original, game by game in the
    // import: compare the records with their places and each one's cursor.
    let items = |s: &str| -> (Vec<String>, Vec<u64>) {
        let mut cursors = Vec::new();
        let mut v: Vec<String> = s
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let mut x: serde_json::Value = serde_json::from_str(l).unwrap();
                cursors.push(x["cursor"].as_u64().unwrap());
                x.as_object_mut().unwrap().remove("cursor");
                x.to_string()
            })
            .collect();
        v.sort();
        (v, cursors)
    };
    let ((ia, ca), (ib, cb)) = (items(&a), items(&b));
    assert!(!ia.is_empty());
    assert_eq!(ia, ib);
    let all: Vec<u64> = (0..ia.len() as u64).collect();
    assert_eq!(ca, all);
    assert_eq!(cb, all);
    // The same archive comes out of both.
    let again = t.path().join("again.kifu");
    ok(&run(
        &copy,
        &["export", "--out", &again.display().to_string()],
    ));
    let ra = kifu_ledger::archive::read(&std::fs::read(&archive).unwrap()).unwrap();
    let rb = kifu_ledger::archive::read(&std::fs::read(&again).unwrap()).unwrap();
    assert_eq!(ra, rb);
    let va = ok(&run(&data, &["verify", "--json"]));
    let vb = ok(&run(&copy, &["verify", "--json"]));
    assert_eq!(va, vb);
}
