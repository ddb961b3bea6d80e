//! An import whose signatures are checked chunk by chunk while the chunk
//! before is written (`Store::import_checking`): the same store as the
//! import that verifies everything first, and nothing left of it when a
//! signature fails in a later chunk.

use kifu_ledger::archive::{self, verify_archive, verify_archive_unsigned};
use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::Record;
use kifu_store::{Store, StoreError, IMPORT_CHUNK};

/// Enough sample games for more than one chunk.
fn games(cast: &Cast, tag: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() <= IMPORT_CHUNK + 100 {
        out.extend(sample_game(cast, &format!("{tag} {i}")).records);
        i += 1;
    }
    out
}

/// What a store holds, as a reader sees it: the feed (cursor, game, seq),
/// the log's size and root, the number of games.
type Snapshot = (Vec<(u64, [u8; 32], u64)>, u64, Option<[u8; 32]>, usize);

fn snapshot(s: &Store) -> Snapshot {
    let feed = s
        .feed(None, usize::MAX)
        .unwrap()
        .into_iter()
        .map(|f| (f.cursor, f.game, f.seq))
        .collect();
    let n = s.tree_size().unwrap();
    let root = if n > 0 {
        Some(s.tree_root(n).unwrap())
    } else {
        None
    };
    (feed, n, root, s.games().unwrap().len())
}

#[test]
fn checked_while_writing_gives_the_store_a_full_verification_gives() {
    let cast = Cast::new();
    let records = games(&cast, "same");
    let bytes = archive::write(&records);
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let sa = Store::open(a.path()).unwrap();
    let sb = Store::open(b.path()).unwrap();
    let mut calls = 0;
    let ra = sa
        .import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {
            calls += 1
        })
        .unwrap();
    let rb = sb
        .import(&verify_archive(&bytes).unwrap(), &mut |_, _| {})
        .unwrap();
    assert_eq!((ra.written, ra.games), (rb.written, rb.games));
    assert_eq!(ra.written, records.len() as u64);
    assert!(calls >= 3, "progress at the start and after each chunk");
    assert_eq!(snapshot(&sa), snapshot(&sb));
    assert!(kifu_ledger::verify_records(&sa.records_for_verification().unwrap()).ok());
    // The full import refuses a verdict whose signatures were not checked.
    let c = tempfile::tempdir().unwrap();
    let sc = Store::open(c.path()).unwrap();
    assert!(matches!(
        sc.import(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {}),
        Err(StoreError::NotVerified(_))
    ));
    assert_eq!(sc.len(), 0);
}

#[test]
fn a_bad_signature_in_a_later_chunk_leaves_nothing_of_the_import() {
    let cast = Cast::new();
    let d = tempfile::tempdir().unwrap();
    let s = Store::open(d.path()).unwrap();
    // Something stored before, which must stay exactly as it is.
    let before_game = sample_game(&cast, "already there");
    s.append_batch(before_game.records.clone()).unwrap();
    let before = snapshot(&s);

    for bad_at in [usize::MAX, 0] {
        let mut records = games(&cast, &format!("tampered {bad_at}"));
        // A flipped bit in the signature of a game's last record (a record's
        // hash covers its signature, so the next record's link would break
        // and the structure alone would tell): the last game's, in the last
        // chunk, or the first game's, in the first.
        let first_game = sample_game(&cast, "length").records.len();
        let i = if bad_at == 0 {
            first_game - 1
        } else {
            records.len() - 1
        };
        records[i].signature[17] ^= 0x40;
        let bytes = archive::write(&records);
        let unsigned = verify_archive_unsigned(&bytes).unwrap();
        assert!(unsigned.report().ok(), "links and roles are fine");
        let r = s.import_checking(&unsigned, &mut |_, _| {});
        assert!(
            matches!(&r, Err(StoreError::NotVerified(m)) if m.contains("bad signature")),
            "{r:?}"
        );
        assert_eq!(snapshot(&s), before, "bad record at {i}");
        // The full verification names it.
        assert!(!verify_archive(&bytes).unwrap().report().ok());
    }
    // The store goes on: a clean import after the undone ones.
    let clean = games(&cast, "clean after");
    let bytes = archive::write(&clean);
    let r = s
        .import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {})
        .unwrap();
    assert_eq!(r.written, clean.len() as u64);
    assert_eq!(s.len(), before_game.records.len() + clean.len());
    drop(s);
    let s = Store::open(d.path()).unwrap();
    let (feed, n, _, games) = snapshot(&s);
    assert_eq!(feed.len() as u64, n);
    assert_eq!(feed.first().map(|f| f.0), Some(0));
    assert_eq!(games, 1 + clean.len() / before_game.records.len());
    assert!(kifu_ledger::verify_records(&s.records_for_verification().unwrap()).ok());
    // Every leaf proves against the root.
    let root = s.tree_root(n).unwrap();
    for f in s.feed(None, usize::MAX).unwrap() {
        let leaf = kifu_store::tlog::Leaf {
            game: f.game,
            seq: f.seq,
            record_hash: f.record.hash(),
        };
        let p = s.inclusion_proof(f.cursor, n).unwrap();
        kifu_tlog::proof::verify_inclusion(f.cursor, n, &leaf.hash(), &p, &root).unwrap();
    }
}

/// An undone import that had extended a stored game leaves the writers the
/// game's head as stored: the next record after it is accepted, through the
/// batch writer and through an append.
#[test]
fn after_an_undone_import_the_writers_take_the_stored_head() {
    let cast = Cast::new();
    let d = tempfile::tempdir().unwrap();
    let s = Store::open(d.path()).unwrap();
    let game = kifu_ledger::testkit::moves_game(&cast, "extended, then undone", 40);
    let kept = 30;
    s.append_batch(game.records[..kept].to_vec()).unwrap();
    // The whole game first (the import's first chunk extends the stored
    // game), then other games over two more chunks, the last record with a
    // bad signature: the first chunk is written, then undone.
    let mut records = game.records.clone();
    records.extend(games(&cast, "after"));
    records.extend(games(&cast, "later"));
    let last = records.len() - 1;
    records[last].signature[5] ^= 0x01;
    let bytes = archive::write(&records);
    let r = s.import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {});
    assert!(matches!(r, Err(StoreError::NotVerified(_))), "{r:?}");
    assert_eq!(s.head(&game.game).unwrap().unwrap().seq, kept as u64 - 1);
    let each = s.append_each(vec![game.records[kept].clone()]);
    assert!(each.results[0].is_ok(), "{:?}", each.results);
    assert_eq!(each.results[0].as_ref().unwrap().seq, kept as u64);
    let a = s.append(game.records[kept + 1].clone()).unwrap();
    assert_eq!((a.seq, a.new), (kept as u64 + 1, true));
    assert!(kifu_ledger::verify_records(&s.records_for_verification().unwrap()).ok());
}
