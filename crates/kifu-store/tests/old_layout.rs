//! A store written by the previous version (layout 1, in
//! `fixtures/store/layout1/`) opens, reads as that version read it,
//! verifies, and is migrated; a read-only copy of it reads without
//! migrating.

use std::path::{Path, PathBuf};

use kifu_store::Store;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/store/layout1")
}

/// `cursor game seq hash`, as the previous version's `kifu feed` gave them.
fn expected() -> Vec<(u64, String, u64, String)> {
    std::fs::read_to_string(fixture().join("feed.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (
                f[0].parse().unwrap(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].to_string(),
            )
        })
        .collect()
}

fn copy_fixture(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for name in ["db", "conf"] {
        std::fs::copy(fixture().join(name), to.join(name)).unwrap();
    }
}

fn check(s: &Store) {
    let want = expected();
    assert_eq!(want.len(), 63);
    let feed = s.feed(None, 10_000).unwrap();
    let got: Vec<(u64, String, u64, String)> = feed
        .iter()
        .map(|f| {
            (
                f.cursor,
                hex::encode(f.game),
                f.seq,
                hex::encode(f.record.hash()),
            )
        })
        .collect();
    assert_eq!(got, want);
    for f in &feed {
        assert_eq!(s.cursor_of(&f.game, f.seq).unwrap(), f.cursor);
        assert_eq!(s.leaf_index(&f.game, f.seq).unwrap(), Some(f.cursor));
    }
    assert!(kifu_ledger::verify_records(&s.records_for_verification().unwrap()).ok());
    // The log still proves every leaf against its root.
    let n = s.tree_size().unwrap();
    assert_eq!(n, 63);
    let root = s.tree_root(n).unwrap();
    for f in &feed {
        let proof = s.inclusion_proof(f.cursor, n).unwrap();
        let leaf = kifu_store::tlog::Leaf {
            game: f.game,
            seq: f.seq,
            record_hash: f.record.hash(),
        };
        assert!(
            kifu_tlog::proof::verify_inclusion(f.cursor, n, &leaf.hash(), &proof, &root).is_ok()
        );
    }
}

#[test]
fn a_store_of_the_previous_layout_reads_verifies_and_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    copy_fixture(&data);
    // A copy (as for read-only media) reads it as it is.
    {
        let (s, _) = Store::open_copy(&data, &dir.path().join("tmp")).unwrap();
        assert_eq!(s.layout().unwrap(), 1);
        check(&s);
    }
    // Opening it for writing migrates it; it reads the same, and again
    // after reopening.
    {
        let s = Store::open(&data).unwrap();
        assert_eq!(s.layout().unwrap(), 5);
        check(&s);
    }
    let s = Store::open(&data).unwrap();
    assert_eq!(s.layout().unwrap(), 5);
    check(&s);
}

/// A store whose log hashes are kept one key each (as older versions wrote
/// them) grows with the batched form: the right edge is read from the old
/// keys once, and every root and proof after that equals a tree built in
/// memory from the feed.
#[test]
fn an_older_log_grows_with_batched_hashes() {
    use kifu_ledger::testkit::{sample_game, Cast};
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    copy_fixture(&data);
    let s = Store::open(&data).unwrap();
    let cast = Cast::new();
    let a = sample_game(&cast, "grown a");
    let b = sample_game(&cast, "grown b");
    s.append_batch(a.records[..5].to_vec()).unwrap();
    for r in s.append_each(a.records[5..].to_vec()).results {
        r.unwrap();
    }
    for chunk in b.records.chunks(3) {
        s.append_batch(chunk.to_vec()).unwrap();
    }
    drop(s);
    let s = Store::open(&data).unwrap();
    let feed = s.feed(None, 10_000).unwrap();
    let n = feed.len() as u64;
    assert_eq!(n, 63 + a.records.len() as u64 + b.records.len() as u64);
    assert_eq!(s.tree_size().unwrap(), n);
    let mut mem = kifu_tlog::MemTree::new();
    for f in &feed {
        let leaf = kifu_store::tlog::Leaf {
            game: f.game,
            seq: f.seq,
            record_hash: f.record.hash(),
        };
        mem.push(&leaf.to_bytes());
    }
    for size in 1..=n {
        assert_eq!(s.tree_root(size).unwrap(), mem.root_at(size).unwrap());
    }
    let root = mem.root();
    for (i, f) in feed.iter().enumerate() {
        let proof = s.inclusion_proof(f.cursor, n).unwrap();
        let leaf = kifu_store::tlog::Leaf {
            game: f.game,
            seq: f.seq,
            record_hash: f.record.hash(),
        };
        assert_eq!(f.cursor, i as u64);
        kifu_tlog::proof::verify_inclusion(f.cursor, n, &leaf.hash(), &proof, &root).unwrap();
    }
}
