//! Small named values kept next to the chains (for example how far a
//! publisher has got in the feed), in their own sled tree.
//!
//! A value written here becomes durable with the next sync of the store
//! (any durable append, or [`Store::sync`]); [`Store::put_value_durable`]
//! waits for it.

use std::sync::atomic::Ordering;

use crate::{Store, StoreError};

/// The sled tree holding the values.
const TREE: &str = "values";

impl Store {
    fn values(&self) -> Result<sled::Tree, StoreError> {
        Ok(self.db.open_tree(TREE)?)
    }

    /// The value stored under `key`, if any.
    pub fn get_value(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.values()?.get(key.as_bytes())?.map(|v| v.to_vec()))
    }

    /// Stores `value` under `key`. It is written at once and becomes durable
    /// with the store's next sync.
    pub fn put_value(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.writable()?;
        self.values()?.insert(key.as_bytes(), value)?;
        Ok(())
    }

    /// Stores `value` under `key` and returns once it is on stable storage.
    pub fn put_value_durable(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.put_value(key, value)?;
        self.sync()
    }

    /// Notes, for records taken from another server's stream (a read
    /// replica's), the cursor each had at the server that published it
    /// (`Kifu-Cursor`), by record hash; written at once, durable with the
    /// next sync (the import of the records themselves).
    pub fn note_venue_cursors(&self, notes: &[(kifu_ledger::Hash, u64)]) -> Result<(), StoreError> {
        self.writable()?;
        let mut batch = sled::Batch::default();
        for (hash, cursor) in notes {
            batch.insert(venue_key(hash).as_bytes(), &cursor.to_be_bytes());
        }
        self.values()?.apply_batch(batch)?;
        Ok(())
    }

    /// The cursor the record `hash` had at the server that published it,
    /// when it was noted ([`Store::note_venue_cursors`]).
    pub fn venue_cursor(&self, hash: &kifu_ledger::Hash) -> Result<Option<u64>, StoreError> {
        Ok(self
            .values()?
            .get(venue_key(hash).as_bytes())?
            .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
            .map(u64::from_be_bytes))
    }

    /// Every feed cursor below this one is on stable storage (as far as this
    /// process knows: it grows as appends are acknowledged and with
    /// [`Store::sync`]). A follower that must hand on only durable records
    /// reads up to here without forcing a sync of its own.
    pub fn durable_cursor(&self) -> u64 {
        self.durable_next.load(Ordering::Acquire)
    }

    pub(crate) fn note_durable(&self, next: u64) {
        self.durable_next.fetch_max(next, Ordering::AcqRel);
    }

    /// The cursor the next append will take (the feed's length so far, as
    /// cursors start at 0 and have no holes).
    pub fn next_cursor(&self) -> Result<u64, StoreError> {
        match self.meta.get(crate::FEED_NEXT)? {
            Some(v) => crate::parse_u64(&v),
            None => Ok(0),
        }
    }
}

/// The key of a record's venue cursor.
fn venue_key(hash: &kifu_ledger::Hash) -> String {
    format!("venue-cursor/{}", hex::encode(hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_reopening() {
        let t = tempfile::tempdir().unwrap();
        {
            let s = Store::open(t.path()).unwrap();
            assert_eq!(s.get_value("a").unwrap(), None);
            s.note_venue_cursors(&[([7; 32], 41), ([8; 32], 42)])
                .unwrap();
            assert_eq!(s.venue_cursor(&[8; 32]).unwrap(), Some(42));
            assert_eq!(s.venue_cursor(&[9; 32]).unwrap(), None);
            s.put_value("a", b"1").unwrap();
            s.put_value_durable("b", b"22").unwrap();
            s.put_value("a", b"333").unwrap();
            s.sync().unwrap();
            assert_eq!(s.next_cursor().unwrap(), 0);
            assert_eq!(s.durable_cursor(), 0);
        }
        let s = Store::open(t.path()).unwrap();
        assert_eq!(s.venue_cursor(&[7; 32]).unwrap(), Some(41));
        assert_eq!(s.get_value("a").unwrap().as_deref(), Some(&b"333"[..]));
        assert_eq!(s.get_value("b").unwrap().as_deref(), Some(&b"22"[..]));
        // The values are not records: the feed stays empty.
        assert!(s.is_empty());
    }

    #[test]
    fn the_durable_cursor_follows_acknowledged_appends_and_syncs() {
        use kifu_ledger::testkit::{sample_game, Cast};
        let t = tempfile::tempdir().unwrap();
        let c = sample_game(&Cast::new(), "durable");
        {
            let s = Store::open(t.path()).unwrap();
            s.append(c.records[0].clone()).unwrap();
            assert_eq!(s.durable_cursor(), 1);
            s.append_batch(c.records[1..4].to_vec()).unwrap();
            assert_eq!(s.durable_cursor(), 4);
            // A retry of a stored record changes nothing.
            s.append(c.records[2].clone()).unwrap();
            assert_eq!(s.durable_cursor(), 4);
        }
        // After reopening nothing is known until a sync.
        let s = Store::open(t.path()).unwrap();
        assert_eq!(s.durable_cursor(), 0);
        s.sync().unwrap();
        assert_eq!(s.durable_cursor(), 4);
        assert_eq!(s.next_cursor().unwrap(), 4);
    }
}
