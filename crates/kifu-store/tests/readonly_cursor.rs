//! A store on read-only media is read through a copy and never written;
//! the cursor of a stored record is found without scanning the feed.

use std::collections::BTreeMap;
use std::path::Path;

use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::*;
use kifu_store::{read_only_reason, Store, StoreError};

/// Every file under `dir` with its bytes and permission bits.
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            let name = e.path().strip_prefix(dir).unwrap().display().to_string();
            if meta.is_dir() {
                out.insert(name, (Vec::new(), meta.permissions().mode()));
                stack.push(e.path());
            } else {
                out.insert(
                    name,
                    (std::fs::read(e.path()).unwrap(), meta.permissions().mode()),
                );
            }
        }
    }
    out
}

fn set_writable(dir: &Path, writable: bool) {
    use std::os::unix::fs::PermissionsExt;
    let mut stack = vec![dir.to_path_buf()];
    let mut all = Vec::new();
    while let Some(d) = stack.pop() {
        all.push(d.clone());
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                all.push(e.path());
            }
        }
    }
    // Files first when locking, directories first when unlocking.
    if !writable {
        all.reverse();
    }
    for p in all {
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        let mode = if writable {
            mode | 0o200
        } else {
            mode & !0o222
        };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

#[test]
fn a_read_only_store_is_read_through_a_copy_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let cast = Cast::new();
    let a = sample_game(&cast, "ro-a");
    let b = sample_game(&cast, "ro-b");
    {
        let s = Store::open(&data).unwrap();
        s.append_batch(a.records.clone()).unwrap();
        s.append_batch(b.records.clone()).unwrap();
    }
    assert_eq!(read_only_reason(&data), None);
    set_writable(&data, false);
    let before = snapshot(&data);
    let reason = read_only_reason(&data).expect("a store without write bits is read-only");
    assert!(reason.contains("write permission"), "{reason}");

    let tmp = dir.path().join("tmp");
    {
        let (s, bytes) = Store::open_copy(&data, &tmp).unwrap();
        assert!(bytes > 0);
        assert_eq!(s.copy_of(), Some(data.as_path()));
        assert_ne!(s.path(), data.as_path());
        // Read, replay, verify, export: everything is there.
        assert_eq!(s.read(&a.game, 0, None).unwrap(), a.records);
        assert_eq!(s.head(&b.game).unwrap(), Some(b.head));
        assert_eq!(s.games().unwrap().len(), 2);
        let feed = s.feed(None, 10_000).unwrap();
        assert_eq!(feed.len(), a.records.len() + b.records.len());
        assert!(verify_records(&s.records_for_verification().unwrap()).ok());
        // Writes are refused, with the original's name.
        let c = sample_game(&cast, "ro-c");
        match s.append(c.records[0].clone()) {
            Err(StoreError::ReadOnly(p)) => assert_eq!(p, data.display().to_string()),
            other => panic!("expected a read-only refusal, got {other:?}"),
        }
        let out = s.append_each(vec![c.records[0].clone()]);
        assert!(out.results[0].is_err());
        assert_eq!(out.written, 0);
        assert!(matches!(
            s.put_value("x", b"1"),
            Err(StoreError::ReadOnly(_))
        ));
        assert!(matches!(
            s.keep_evidence(&c.records[..1]),
            Err(StoreError::ReadOnly(_))
        ));
        assert!(matches!(
            s.save_checkpoint(1, "note"),
            Err(StoreError::ReadOnly(_))
        ));
    }
    // Nothing of the original changed, and the copy is gone.
    assert_eq!(snapshot(&data), before);
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
    set_writable(&data, true);
    assert_eq!(read_only_reason(&data), None);
}

#[test]
fn open_copy_of_a_directory_without_a_store_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = Store::open_copy(dir.path(), &dir.path().join("tmp")).err();
    assert!(matches!(err, Some(StoreError::Damaged(_))), "{err:?}");
}

#[test]
fn cursor_of_matches_the_feed_and_answers_a_resent_record() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let cast = Cast::new();
    let a = sample_game(&cast, "cur-a");
    let b = sample_game(&cast, "cur-b");
    // Interleave the two games so that cursors and seqs differ.
    s.append(a.records[0].clone()).unwrap();
    s.append(b.records[0].clone()).unwrap();
    for i in 1..a.records.len().max(b.records.len()) {
        if let Some(r) = a.records.get(i) {
            s.append(r.clone()).unwrap();
        }
        if let Some(r) = b.records.get(i) {
            s.append(r.clone()).unwrap();
        }
    }
    let feed = s.feed(None, 10_000).unwrap();
    assert_eq!(feed.len(), a.records.len() + b.records.len());
    for item in &feed {
        assert_eq!(s.cursor_of(&item.game, item.seq).unwrap(), item.cursor);
    }
    assert!(matches!(
        s.cursor_of(&a.game, a.records.len() as u64 + 5),
        Err(StoreError::Damaged(_))
    ));
    // A resent record is answered with its cursor, alone and in a batch.
    let idx = 3;
    let want = feed
        .iter()
        .find(|f| f.game == b.game && f.seq == idx)
        .unwrap()
        .cursor;
    let again = s.append(b.records[idx as usize].clone()).unwrap();
    assert!(!again.new);
    assert_eq!(again.cursor, want);
    let out = s.append_each(vec![b.records[idx as usize].clone()]);
    let r = out.results[0].as_ref().unwrap();
    assert!(!r.new);
    assert_eq!(r.cursor, want);
    // And after reopening.
    drop(s);
    let s = Store::open(dir.path()).unwrap();
    assert_eq!(s.cursor_of(&b.game, idx).unwrap(), want);
}

#[test]
fn usage_counts_every_tree_and_the_cursor_costs_no_key_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let c = sample_game(&Cast::new(), "usage");
    s.append_batch(c.records.clone()).unwrap();
    let u = s.usage().unwrap();
    let tree = |n: &str| u.trees.iter().find(|t| t.name == n).cloned().unwrap();
    let n = c.records.len() as u64;
    assert_eq!(tree("events").keys, n);
    assert_eq!(tree("events").key_bytes, 40 * n);
    let stored: u64 = c.records.iter().map(|r| r.to_stored().len() as u64).sum();
    // Each value is the record and its 8-byte cursor.
    assert_eq!(tree("events").value_bytes, stored + 8 * n);
    // One feed entry for the one commit, `game || seq` for each record.
    assert_eq!(tree("feed").keys, 1);
    assert_eq!(tree("feed").value_bytes, 40 * n);
    // A game's head is its last record: no tree of heads.
    assert!(u.trees.iter().all(|t| t.name != "heads"), "{u:?}");
    // The log: one append, so one key for every hash it completed (2n - 1
    // for n a power of two, fewer otherwise, 41 bytes each), its right
    // edge and its size; no index of records.
    let tl = tree("tlog");
    assert_eq!(tl.keys, 3, "{tl:?}");
    assert!(tl.value_bytes < 41 * 2 * n + 8 + 8 * 33, "{tl:?}");
    assert!(u.payload() > 0);
    assert!(u.on_disk >= u.payload() / 4);
}

#[test]
fn a_data_file_without_write_permission_makes_the_store_read_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path()).unwrap());
    let db = dir.path().join("db");
    let mode = std::fs::metadata(&db).unwrap().permissions().mode();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(mode & !0o222)).unwrap();
    let why = read_only_reason(dir.path()).unwrap();
    assert!(why.contains("db"), "{why}");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(mode)).unwrap();
    assert_eq!(read_only_reason(dir.path()), None);
    // A missing directory is not read-only: opening it creates a store.
    assert_eq!(read_only_reason(&dir.path().join("none")), None);
}
