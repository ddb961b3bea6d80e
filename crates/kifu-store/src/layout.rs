//! How a record is kept in the `events` tree, and the migration of stores
//! written in earlier layouts.
//!
//! Layout 5 (this version) is layout 4 with a `staged` tree: the server's
//! batch writer keeps a batch's records there, a few values for the whole
//! batch, until they are settled into `events` (`staged.rs`). Opening a
//! store for writing settles them, so a store that was closed, or opened
//! since, holds none; a version before layout 5 does not look in the tree,
//! and finds the feed pointing at records it cannot read in a store that a
//! killed server left with staged records and that no later version opened.
//!
//! Layout 4 is layout 3 where a value may also be a *run*:
//! several records of one game in sequence under the key of the first, so
//! that a bulk write (an import) costs sled one key for many records
//! instead of one each (sled's cost is per key written). A run begins at a
//! seq that is a multiple of [`RUN`] and ends before the next one, so the
//! record at `seq` is found by at most two point reads: its own key, then
//! the key of [`run_start`]`(seq)`. A run's value is the four bytes
//! `FF FF FF FF` (a length no single record can state and still fit the
//! value), then, for each record in seq order, the stored record followed
//! by its feed cursor (`u64` BE), as in a single value. Appends write
//! single values; a layout-3 store is a layout-4 store without runs.
//!
//! Layout 3 is layout 2 without the `heads` tree: a game's
//! head is its last record in `events` (one range read), which saves a key
//! written per record. Opening a layout-2 store for writing drops the tree.
//!
//! Layout 2: the value under `game id || seq` is the stored
//! record (`u32` LE length, event bytes, 64-byte signature) followed by its
//! feed cursor (`u64` BE). The cursor is thus found with the record, by one
//! lookup ([`Store::cursor_of`]), and written in the same transaction.
//!
//! Layout 1 (stores written before): the value is the stored record alone,
//! and the cursor is kept in the `tlog` tree under `"i" || game || seq`.
//!
//! The two are told apart by length (a stored record states its own
//! length), so a store may hold both at once: a migration that stopped half
//! way reads correctly. Opening a store for writing migrates the layout-1
//! values in batches, each one transaction that rewrites the value and
//! removes the index key; then the `heads` tree is dropped, `meta` gets
//! `layout = 3` and later openings skip both. A copy of a read-only store is
//! read as it is.

use sled::transaction::{ConflictableTransactionError, Transactional};

use crate::{Refuse, Store, StoreError};

/// The `meta` key holding the layout number.
const LAYOUT_KEY: &[u8] = b"layout";
/// The layout this version writes.
pub(crate) const LAYOUT: u64 = 5;
/// A run's first seq is a multiple of this, and it holds at most this many
/// records.
pub const RUN: u64 = 32;
/// A run stops growing once its value reaches this many bytes, so that a
/// sled leaf of runs stays well under sled's threshold for writing a page
/// as a separate blob file (a quarter of its 512 KiB segment).
pub const RUN_BYTES: usize = 6 * 1024;
/// How a run's value begins.
const RUN_MARK: [u8; 4] = [0xff; 4];

/// The first seq of the run that may hold `seq`.
pub(crate) fn run_start(seq: u64) -> u64 {
    seq - seq % RUN
}

/// True when the value is a run.
pub(crate) fn is_run(v: &[u8]) -> bool {
    v.get(..4) == Some(&RUN_MARK[..])
}

/// The value of a run holding `records` (stored bytes and cursor each), in
/// seq order.
pub(crate) fn run_value(records: &[(&[u8], u64)]) -> Vec<u8> {
    let len = 4 + records.iter().map(|(r, _)| r.len() + 8).sum::<usize>();
    let mut v = Vec::with_capacity(len);
    v.extend_from_slice(&RUN_MARK);
    for (stored, cursor) in records {
        v.extend_from_slice(stored);
        v.extend_from_slice(&cursor.to_be_bytes());
    }
    v
}

/// One record kept in a value: its seq, its stored bytes (a range of the
/// value) and its feed cursor (none in layout 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub seq: u64,
    pub at: std::ops::Range<usize>,
    pub cursor: Option<u64>,
}

/// The records kept in the value under the key of seq `first`: one for a
/// single value, each of a run in seq order.
pub(crate) fn entries(first: u64, v: &[u8]) -> Result<Vec<Entry>, StoreError> {
    if !is_run(v) {
        let (rec, cursor) = split_value(v)?;
        return Ok(vec![Entry {
            seq: first,
            at: 0..rec.len(),
            cursor,
        }]);
    }
    let damaged = |what: &str| StoreError::Damaged(format!("run at seq {first}: {what}"));
    let mut out = Vec::new();
    let mut pos = 4;
    while pos < v.len() {
        if v.len() < pos + 4 {
            return Err(damaged("truncated record length"));
        }
        let end = entry_end(v, pos)
            .filter(|&e| e.checked_add(8).is_some_and(|c| c <= v.len()))
            .ok_or_else(|| damaged("truncated record"))?;
        let c: [u8; 8] = v[end..end + 8]
            .try_into()
            .map_err(|_| damaged("truncated cursor"))?;
        let seq = first
            .checked_add(out.len() as u64)
            .ok_or_else(|| damaged("seq overflows"))?;
        out.push(Entry {
            seq,
            at: pos..end,
            cursor: Some(u64::from_be_bytes(c)),
        });
        pos = end + 8;
    }
    if out.is_empty() {
        return Err(damaged("empty"));
    }
    Ok(out)
}

/// Where the stored record that begins at `pos` of `v` ends (its `u32` LE
/// length, event bytes and 64-byte signature), if `v` holds all of it.
pub(crate) fn entry_end(v: &[u8], pos: usize) -> Option<usize> {
    let len: [u8; 4] = v.get(pos..pos.checked_add(4)?)?.try_into().ok()?;
    let end = (u32::from_le_bytes(len) as usize).checked_add(pos.checked_add(4 + 64)?)?;
    (end <= v.len()).then_some(end)
}

/// The entry for `seq` in the value under the key of seq `first`, if it
/// holds one.
pub(crate) fn entry_at(first: u64, v: &[u8], seq: u64) -> Result<Option<Entry>, StoreError> {
    if seq < first {
        return Ok(None);
    }
    if !is_run(v) {
        let (rec, cursor) = split_value(v)?;
        return Ok((seq == first).then_some(Entry {
            seq,
            at: 0..rec.len(),
            cursor,
        }));
    }
    Ok(entries(first, v)?.into_iter().find(|e| e.seq == seq))
}

/// The value that may hold `seq` of `game`, and the seq of its key, read
/// with `get` (a tree's or a transaction's point read): its own key, else
/// the run of its window. At most two reads; whether the value does hold
/// `seq` is for [`entry_at`] or [`entries`] to say.
pub(crate) fn candidate_with<E>(
    game: &kifu_ledger::Hash,
    seq: u64,
    mut get: impl FnMut(&[u8]) -> Result<Option<sled::IVec>, E>,
) -> Result<Option<(sled::IVec, u64)>, E> {
    if let Some(v) = get(&crate::event_key(game, seq)[..])? {
        return Ok(Some((v, seq)));
    }
    let start = run_start(seq);
    if start == seq {
        return Ok(None);
    }
    Ok(get(&crate::event_key(game, start)[..])?
        .filter(|v| is_run(v))
        .map(|v| (v, start)))
}

/// Finds the value holding `seq` of `game` ([`candidate_with`]) and the
/// record's place in it.
pub(crate) fn find_with<E>(
    game: &kifu_ledger::Hash,
    seq: u64,
    get: impl FnMut(&[u8]) -> Result<Option<sled::IVec>, E>,
) -> Result<Option<(sled::IVec, Entry)>, FindError<E>> {
    let Some((v, first)) = candidate_with(game, seq, get).map_err(FindError::Storage)? else {
        return Ok(None);
    };
    let e = entry_at(first, &v, seq).map_err(FindError::Damaged)?;
    Ok(e.map(|e| (v, e)))
}

/// Why [`find_with`] failed.
pub(crate) enum FindError<E> {
    Storage(E),
    Damaged(StoreError),
}
/// Values rewritten per transaction when migrating.
const MIGRATE_CHUNK: usize = 4096;

/// The stored record with its cursor appended: the value written.
pub(crate) fn event_value(stored: &[u8], cursor: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(stored.len() + 8);
    v.extend_from_slice(stored);
    v.extend_from_slice(&cursor.to_be_bytes());
    v
}

/// Splits a value into the stored record's bytes and the cursor (none in
/// layout 1).
pub(crate) fn split_value(v: &[u8]) -> Result<(&[u8], Option<u64>), StoreError> {
    let damaged = || StoreError::Damaged("record value of wrong length".into());
    let len: [u8; 4] = v
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(damaged)?;
    let rec_len = (u32::from_le_bytes(len) as usize)
        .checked_add(4 + 64)
        .ok_or_else(damaged)?;
    if v.len() == rec_len {
        return Ok((v, None));
    }
    if v.len() == rec_len + 8 {
        let c: [u8; 8] = v[rec_len..].try_into().map_err(|_| damaged())?;
        return Ok((&v[..rec_len], Some(u64::from_be_bytes(c))));
    }
    Err(damaged())
}

impl Store {
    /// The layout recorded in `meta` (1 when none is: a store written
    /// before layouts were numbered, or a new, empty store).
    pub fn layout(&self) -> Result<u64, StoreError> {
        match self.meta.get(LAYOUT_KEY)? {
            Some(v) => crate::parse_u64(&v),
            None => Ok(1),
        }
    }

    /// Brings a layout-1 store to layout 2 (see the module's text). Returns
    /// the number of values rewritten.
    pub(crate) fn migrate_layout(&self) -> Result<u64, StoreError> {
        let layout = self.layout()?;
        if layout >= LAYOUT {
            return Ok(0);
        }
        let done = if layout < 2 {
            self.cursors_into_values()?
        } else {
            0
        };
        // Layout 3: a game's head is its last record; the `heads` tree of
        // the earlier layouts goes (an earlier binary finds no games rather
        // than heads gone stale).
        self.db.drop_tree("heads")?;
        self.meta.insert(LAYOUT_KEY, &LAYOUT.to_be_bytes())?;
        self.sync()?;
        Ok(done)
    }

    /// Layout 1 to 2: each cursor moves into its record's value.
    fn cursors_into_values(&self) -> Result<u64, StoreError> {
        let mut done = 0u64;
        let mut after: Option<sled::IVec> = None;
        loop {
            // The next values still in layout 1, with their cursors.
            let mut batch: Vec<(sled::IVec, Vec<u8>, [u8; 41])> = Vec::new();
            let range = match &after {
                Some(k) => self.events.range::<&[u8], _>((
                    std::ops::Bound::Excluded(k.as_ref()),
                    std::ops::Bound::Unbounded,
                )),
                None => self.events.iter(),
            };
            let mut last = None;
            for kv in range {
                let (k, v) = kv?;
                last = Some(k.clone());
                let (rec, cursor) = split_value(&v)?;
                if cursor.is_none() {
                    let (game, seq) = crate::parse_game_key(&k)?;
                    let ikey = crate::tlog::index_key(&game, seq);
                    let c = self.tlog.get(ikey)?.ok_or_else(|| {
                        StoreError::Damaged(format!(
                            "game {} seq {seq} has no feed cursor",
                            hex::encode(game)
                        ))
                    })?;
                    let c = crate::parse_u64(&c)?;
                    batch.push((k, event_value(rec, c), ikey));
                }
                if batch.len() >= MIGRATE_CHUNK {
                    break;
                }
            }
            if !batch.is_empty() {
                (&self.events, &self.tlog)
                    .transaction(|(ev, tl)| {
                        for (k, v, ikey) in &batch {
                            ev.insert(k.as_ref(), v.as_slice())?;
                            tl.remove(&ikey[..])?;
                        }
                        Ok::<(), ConflictableTransactionError<Refuse>>(())
                    })
                    .map_err(|e| match e {
                        sled::transaction::TransactionError::Storage(e) => StoreError::Sled(e),
                        sled::transaction::TransactionError::Abort(_) => {
                            StoreError::Damaged("layout migration aborted".into())
                        }
                    })?;
                done += batch.len() as u64;
            }
            match last {
                Some(k) if batch.len() >= MIGRATE_CHUNK => after = Some(k),
                _ => break,
            }
        }
        Ok(done)
    }

    /// Marks a new, empty store as written in this layout.
    pub(crate) fn mark_layout_if_empty(&self) -> Result<(), StoreError> {
        if self.events.is_empty() && self.meta.get(LAYOUT_KEY)?.is_none() {
            self.meta.insert(LAYOUT_KEY, &LAYOUT.to_be_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};

    /// Rewrites a store into layout 1, byte for byte what the previous
    /// version wrote: values without cursors, the cursors in `tlog` under
    /// `"i" || game || seq`, no layout number. `upto`: how many values to
    /// convert (the rest stay in layout 2, as after an interrupted
    /// migration).
    fn to_layout_1(s: &Store, upto: usize) {
        for kv in s.events.iter().take(upto).collect::<Vec<_>>() {
            let (k, v) = kv.unwrap();
            let (rec, cursor) = split_value(&v).unwrap();
            let (game, seq) = crate::parse_game_key(&k).unwrap();
            s.tlog
                .insert(
                    &crate::tlog::index_key(&game, seq)[..],
                    &cursor.unwrap().to_be_bytes()[..],
                )
                .unwrap();
            s.events.insert(k, rec).unwrap();
        }
        s.meta.remove(LAYOUT_KEY).unwrap();
        s.sync().unwrap();
    }

    fn index_keys(s: &Store) -> usize {
        s.tlog.scan_prefix(b"i").count()
    }

    #[test]
    fn a_layout_1_store_is_read_migrated_and_keeps_its_cursors() {
        let dir = tempfile::tempdir().unwrap();
        let cast = Cast::new();
        let a = sample_game(&cast, "old-a");
        let b = sample_game(&cast, "old-b");
        let feed_before;
        {
            let s = Store::open(dir.path()).unwrap();
            assert_eq!(s.layout().unwrap(), LAYOUT);
            for i in 0..a.records.len().max(b.records.len()) {
                for c in [&a, &b] {
                    if let Some(r) = c.records.get(i) {
                        s.append(r.clone()).unwrap();
                    }
                }
            }
            feed_before = s.feed(None, 10_000).unwrap();
            to_layout_1(&s, usize::MAX);
            assert_eq!(s.layout().unwrap(), 1);
            assert_eq!(index_keys(&s), feed_before.len());
            // Read in layout 1 as it is.
            for it in &feed_before {
                assert_eq!(s.cursor_of(&it.game, it.seq).unwrap(), it.cursor);
                assert_eq!(s.get(&it.game, it.seq).unwrap().unwrap(), it.record);
            }
        }
        // A copy (read-only media) is read without migrating.
        let tmp = tempfile::tempdir().unwrap();
        {
            let (c, _) = Store::open_copy(dir.path(), tmp.path()).unwrap();
            assert_eq!(c.layout().unwrap(), 1);
            assert_eq!(c.read(&a.game, 0, None).unwrap(), a.records);
            let feed: Vec<u64> = c
                .feed(None, 10_000)
                .unwrap()
                .iter()
                .map(|f| f.cursor)
                .collect();
            assert_eq!(feed.len(), feed_before.len());
        }
        // Opening for writing migrates.
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(s.layout().unwrap(), LAYOUT);
        assert_eq!(index_keys(&s), 0);
        for kv in s.events.iter() {
            let (_, v) = kv.unwrap();
            assert!(split_value(&v).unwrap().1.is_some());
        }
        let feed = s.feed(None, 10_000).unwrap();
        assert_eq!(feed.len(), feed_before.len());
        for (x, y) in feed.iter().zip(&feed_before) {
            assert_eq!((x.cursor, x.game, x.seq), (y.cursor, y.game, y.seq));
            assert_eq!(x.record, y.record);
            assert_eq!(s.cursor_of(&x.game, x.seq).unwrap(), x.cursor);
            assert_eq!(s.leaf_index(&x.game, x.seq).unwrap(), Some(x.cursor));
        }
        assert!(kifu_ledger::verify_records(&s.records_for_verification().unwrap()).ok());
        // The log is unchanged by the migration.
        let n = feed.len() as u64;
        let root = s.tree_root(n).unwrap();
        let leaves = s.leaves(0, n).unwrap();
        let mut mem = kifu_tlog::tree::MemTree::new();
        for l in &leaves {
            mem.push_hash(l.hash());
        }
        assert_eq!(root, mem.root());
        // And it goes on growing.
        let c = sample_game(&cast, "old-c");
        let app = s.append(c.records[0].clone()).unwrap();
        assert_eq!(app.cursor, n);
        assert_eq!(s.cursor_of(&c.game, 0).unwrap(), n);
    }

    #[test]
    fn an_interrupted_migration_reads_and_completes() {
        let dir = tempfile::tempdir().unwrap();
        let cast = Cast::new();
        let a = sample_game(&cast, "half");
        {
            let s = Store::open(dir.path()).unwrap();
            s.append_batch(a.records.clone()).unwrap();
            // Half the values in layout 1, half in layout 2.
            to_layout_1(&s, a.records.len() / 2);
            for (i, r) in a.records.iter().enumerate() {
                assert_eq!(s.cursor_of(&a.game, i as u64).unwrap(), i as u64);
                assert_eq!(&s.get(&a.game, i as u64).unwrap().unwrap(), r);
            }
        }
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(s.layout().unwrap(), LAYOUT);
        assert_eq!(index_keys(&s), 0);
        assert_eq!(s.read(&a.game, 0, None).unwrap(), a.records);
        for i in 0..a.records.len() as u64 {
            assert_eq!(s.cursor_of(&a.game, i).unwrap(), i);
        }
    }

    fn stored(n: u8) -> Vec<u8> {
        [&3u32.to_le_bytes()[..], &[n; 3], &[9u8; 64]].concat()
    }

    #[test]
    fn a_run_gives_back_each_record_with_its_seq_and_cursor() {
        let (a, b, c) = (stored(1), stored(2), stored(3));
        let v = run_value(&[(&a, 10), (&b, 11), (&c, 40)]);
        assert!(is_run(&v));
        let es = entries(64, &v).unwrap();
        let got: Vec<(u64, &[u8], Option<u64>)> = es
            .iter()
            .map(|e| (e.seq, &v[e.at.clone()], e.cursor))
            .collect();
        assert_eq!(
            got,
            vec![
                (64, &a[..], Some(10)),
                (65, &b[..], Some(11)),
                (66, &c[..], Some(40))
            ]
        );
        assert_eq!(entry_at(64, &v, 66).unwrap().unwrap().cursor, Some(40));
        assert_eq!(entry_at(64, &v, 67).unwrap(), None);
        assert_eq!(entry_at(64, &v, 63).unwrap(), None);
        // A single value is one entry at its own seq.
        let single = event_value(&a, 5);
        assert!(!is_run(&single));
        assert_eq!(entries(70, &single).unwrap().len(), 1);
        assert_eq!(entry_at(70, &single, 71).unwrap(), None);
    }

    #[test]
    fn a_cut_or_empty_run_is_damage() {
        let v = run_value(&[(&stored(1), 1), (&stored(2), 2)]);
        for cut in [v.len() - 1, v.len() - 8, v.len() - 9, 5] {
            assert!(entries(0, &v[..cut]).is_err(), "cut at {cut}");
        }
        assert!(entries(0, &RUN_MARK).is_err());
        let huge = [&RUN_MARK[..], &u32::MAX.to_le_bytes()[..], &[0u8; 80]].concat();
        assert!(entries(0, &huge).is_err());
    }

    #[test]
    fn a_record_is_found_in_its_own_value_or_in_its_windows_run() {
        let game = [7u8; 32];
        let run = run_value(&[(&stored(1), 0), (&stored(2), 1), (&stored(3), 2)]);
        let single = event_value(&stored(4), 3);
        let mut kv = std::collections::BTreeMap::new();
        kv.insert(crate::event_key(&game, RUN), run.clone());
        kv.insert(crate::event_key(&game, RUN + 3), single);
        let get = |k: &[u8]| -> Result<Option<sled::IVec>, ()> {
            Ok(kv.get(k).map(|v| sled::IVec::from(v.as_slice())))
        };
        let found = |seq| match find_with(&game, seq, get) {
            Ok(x) => x.map(|(v, e)| (v[e.at.clone()].to_vec(), e.seq)),
            Err(_) => panic!("a damaged value"),
        };
        assert_eq!(found(RUN), Some((stored(1), RUN)));
        assert_eq!(found(RUN + 2), Some((stored(3), RUN + 2)));
        assert_eq!(found(RUN + 3), Some((stored(4), RUN + 3)));
        assert_eq!(found(RUN + 4), None);
        assert_eq!(found(RUN - 1), None);
        assert_eq!(found(2 * RUN), None);
    }

    #[test]
    fn values_of_the_wrong_length_are_damage() {
        assert!(split_value(&[1, 0]).is_err());
        let stored = [&3u32.to_le_bytes()[..], &[7u8; 3], &[9u8; 64]].concat();
        assert_eq!(split_value(&stored).unwrap(), (&stored[..], None));
        let v = event_value(&stored, 42);
        assert_eq!(split_value(&v).unwrap(), (&stored[..], Some(42)));
        assert!(split_value(&v[..v.len() - 1]).is_err());
        let huge = [&u32::MAX.to_le_bytes()[..], &[0u8; 10]].concat();
        assert!(split_value(&huge).is_err());
    }
}
