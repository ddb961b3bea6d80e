//! How a record is kept in the `events` tree, and the migration of stores
//! written in earlier layouts.
//!
//! Layout 3 (this version) is layout 2 without the `heads` tree: a game's
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

use kifu_ledger::Record;
use sled::transaction::{ConflictableTransactionError, Transactional};

use crate::{Refuse, Store, StoreError};

/// The `meta` key holding the layout number.
const LAYOUT_KEY: &[u8] = b"layout";
/// The layout this version writes.
pub(crate) const LAYOUT: u64 = 3;
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

/// The record kept in a value.
pub(crate) fn decode_value(v: &[u8]) -> Result<Record, StoreError> {
    let (rec, _) = split_value(v)?;
    Ok(Record::from_stored(rec)?)
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
