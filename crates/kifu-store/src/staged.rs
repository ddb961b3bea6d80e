//! Staged appends: how the server's batch writer stores a batch with a few
//! sled keys instead of one key per record.
//!
//! sled's cost is per key written (`docs/PERFORMANCE.md`, "Where a record's
//! write goes"), and a batch of the server's writer holds one record each of
//! up to hundreds of games, so writing them under `game id || seq` costs one
//! key per record however the keys are laid out. A batch is therefore
//! written *staged*: its records, in cursor order, as values of the
//! `staged` tree of at most [`STAGED_BYTES`] each, keyed by the feed cursor
//! of their first record, in the same transaction as the feed, the log and
//! the counter. A staged record is as durable as any other once its batch
//! is synced.
//!
//! The store keeps every staged record in memory as well ([`Staged`]), so
//! every read finds it without reading sled: `get`, `read`, `head`,
//! `games`, `all_records`, `feed`, `cursor_of`, the writers' retry check.
//! Readers look at the staged records first and at `events` second, and a
//! settle writes `events` before it forgets the staged records, so a reader
//! never misses a record that moves.
//!
//! Once [`SETTLE_AT`] records are staged, or before any other kind of write
//! (a single append, an import), and on opening a store for writing, the
//! staged records are *settled*: each 32-seq window of a game they fall in
//! becomes one run in `events` (`layout.rs`), merged with what the window
//! already holds, and the staged values are removed, in one transaction.
//! sled recovers a prefix of its transactions, so a crash before or after a
//! settle leaves either the staged values or the runs, never both and never
//! neither.
//!
//! Value format: for each record, the game id (32 bytes), the seq (`u64`
//! BE), then the stored record (`u32` LE length, event bytes, 64-byte
//! signature). The record's cursor is the key plus its index in the value.

use std::collections::HashMap;

use kifu_ledger::{Hash, Head};
use sled::transaction::{ConflictableTransactionError, Transactional};

use crate::layout::{self, RUN, RUN_BYTES};
use crate::{event_key, parse_game_key, Refuse, Store, StoreError, WriteHeads};

/// The sled tree of staged values.
pub(crate) const TREE: &str = "staged";

/// Staged records that start a settle.
pub const SETTLE_AT: usize = 16_384;

/// A staged value stops growing past this many bytes (as a run does), so
/// that no sled leaf of them reaches sled's threshold for a blob file.
pub(crate) const STAGED_BYTES: usize = 6 * 1024;

/// Bytes before each stored record in a staged value: game id and seq.
const PLACE: usize = 40;

/// One staged record.
#[derive(Debug, Clone)]
pub(crate) struct StagedRecord {
    /// The stored bytes (`u32` LE length, event bytes, signature).
    pub stored: Vec<u8>,
    /// Its feed cursor.
    pub cursor: u64,
    /// Its hash.
    pub hash: Hash,
}

/// The staged records of one game: a contiguous run of seqs from `first`.
#[derive(Debug, Clone, Default)]
pub(crate) struct StagedGame {
    pub first: u64,
    pub records: Vec<StagedRecord>,
}

impl StagedGame {
    /// The record at `seq`, if staged.
    pub fn get(&self, seq: u64) -> Option<&StagedRecord> {
        let i = usize::try_from(seq.checked_sub(self.first)?).ok()?;
        self.records.get(i)
    }

    /// The last staged record as a head.
    pub fn head(&self) -> Option<Head> {
        let last = self.records.last()?;
        Some(Head {
            seq: self.first + self.records.len() as u64 - 1,
            hash: last.hash,
        })
    }
}

/// Every staged record, by game, and the keys of the staged values.
#[derive(Debug, Default)]
pub(crate) struct Staged {
    pub games: HashMap<Hash, StagedGame>,
    /// Keys (first cursors) of the staged values, in the order written.
    pub keys: Vec<u64>,
}

impl Staged {
    /// Adds a record after the game's last staged one.
    pub fn push(&mut self, game: &Hash, seq: u64, rec: StagedRecord) -> Result<(), StoreError> {
        let g = self.games.entry(*game).or_insert_with(|| StagedGame {
            first: seq,
            records: Vec::new(),
        });
        if g.first + g.records.len() as u64 != seq {
            return Err(StoreError::Damaged(format!(
                "staged record of game {} at seq {seq} does not follow seq {}",
                hex::encode(&game[..8]),
                (g.first + g.records.len() as u64).wrapping_sub(1)
            )));
        }
        g.records.push(rec);
        Ok(())
    }

    /// Records staged.
    pub fn count(&self) -> usize {
        self.games.values().map(|g| g.records.len()).sum()
    }

    /// The record at `seq` of `game`, if staged.
    pub fn get(&self, game: &Hash, seq: u64) -> Option<&StagedRecord> {
        self.games.get(game)?.get(seq)
    }
}

/// Where each staged value begins, for records of `sizes` stored bytes in
/// cursor order: indices of the records that open a value. A value takes
/// records while it stays within [`STAGED_BYTES`] (it always takes one).
fn starts(sizes: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut bytes = 0;
    for (i, size) in sizes.into_iter().enumerate() {
        let add = PLACE + size;
        if i == 0 || bytes + add > STAGED_BYTES {
            out.push(i);
            bytes = 0;
        }
        bytes += add;
    }
    out
}

/// The staged values of records placed in cursor order from `first`:
/// `(key, value)` each (see [`starts`]).
pub(crate) fn values<'a>(first: u64, records: &[(&'a Hash, u64, &'a [u8])]) -> Vec<(u64, Vec<u8>)> {
    let starts = starts(records.iter().map(|r| r.2.len()));
    let mut out = Vec::with_capacity(starts.len());
    for (n, &from) in starts.iter().enumerate() {
        let to = starts.get(n + 1).copied().unwrap_or(records.len());
        let part = &records[from..to];
        let mut v = Vec::with_capacity(part.iter().map(|r| PLACE + r.2.len()).sum());
        for (game, seq, stored) in part {
            v.extend_from_slice(&event_key(game, *seq));
            v.extend_from_slice(stored);
        }
        out.push((first + from as u64, v));
    }
    out
}

/// One record of a staged value: game, seq, the stored bytes' range in the
/// value, and cursor.
pub(crate) type Place = (Hash, u64, std::ops::Range<usize>, u64);

/// The records of one staged value under key `first`.
pub(crate) fn parse(first: u64, v: &[u8]) -> Result<Vec<Place>, StoreError> {
    let damaged = |what: &str| StoreError::Damaged(format!("staged value {first}: {what}"));
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < v.len() {
        let place = v
            .get(pos..pos + PLACE)
            .ok_or_else(|| damaged("truncated place"))?;
        let (game, seq) = parse_game_key(place)?;
        let at = pos + PLACE;
        let end = layout::entry_end(v, at).ok_or_else(|| damaged("truncated record"))?;
        out.push((game, seq, at..end, first + out.len() as u64));
        pos = end;
    }
    if out.is_empty() {
        return Err(damaged("empty"));
    }
    Ok(out)
}

impl Store {
    /// Reads every staged value into memory (on opening).
    pub(crate) fn load_staged(&self) -> Result<(), StoreError> {
        let mut staged = Staged::default();
        for kv in self.staged_tree.iter() {
            let (k, v) = kv?;
            let first = crate::parse_u64(&k)?;
            for (game, seq, at, cursor) in parse(first, &v)? {
                let stored = v[at].to_vec();
                let hash = kifu_ledger::Record::from_stored(&stored)?.hash();
                staged.push(
                    &game,
                    seq,
                    StagedRecord {
                        stored,
                        cursor,
                        hash,
                    },
                )?;
            }
            staged.keys.push(first);
        }
        *self.staged.write().unwrap_or_else(|p| p.into_inner()) = staged;
        Ok(())
    }

    /// Keeps in memory the records of a batch just committed as staged
    /// values from cursor `cursors[0]` (with the write lock held), and
    /// settles when [`SETTLE_AT`] are staged. Fails only when a record does
    /// not follow its game's staged records (a damaged store).
    ///
    /// The stored bytes are taken out of `planned` (nothing reads them once
    /// the batch is committed).
    pub(crate) fn stage(
        &self,
        lock: &mut WriteHeads,
        planned: &mut [crate::batch::Planned],
        cursors: &[u64],
    ) -> Result<(), StoreError> {
        let Some(&first) = cursors.first() else {
            return Ok(());
        };
        let count = {
            let mut s = self.staged.write().unwrap_or_else(|p| p.into_inner());
            for at in starts(planned.iter().map(|p| p.stored.len())) {
                s.keys.push(first + at as u64);
            }
            for (p, &cursor) in planned.iter_mut().zip(cursors) {
                s.push(
                    &p.game,
                    p.seq,
                    StagedRecord {
                        stored: std::mem::take(&mut p.stored),
                        cursor,
                        hash: p.hash,
                    },
                )?;
            }
            s.count()
        };
        if count >= self.settle_at.load(std::sync::atomic::Ordering::Relaxed) {
            // The batch is committed whatever happens here: a settle that
            // fails leaves the records staged (and durable once synced),
            // and the next commit tries again.
            let _ = self.settle_locked(lock);
        }
        Ok(())
    }

    /// Sets how many staged records start a settle ([`crate::SETTLE_AT`] unless
    /// set): a test settles often with a small number.
    pub fn set_settle_at(&self, records: usize) {
        self.settle_at
            .store(records.max(1), std::sync::atomic::Ordering::Relaxed);
    }

    /// Records staged now (waiting to be settled).
    pub fn staged_records(&self) -> usize {
        self.staged
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .count()
    }

    /// Settles every staged record into `events` (see the module's text).
    /// Nothing to do when none is staged. Not synced here: the next sync
    /// covers it, and a settle lost in a crash is done again on opening.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value.
    pub fn settle(&self) -> Result<(), StoreError> {
        self.writable()?;
        let mut guard = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
        self.settle_locked(&mut guard)
    }

    /// [`Store::settle`] for a writer that holds the write lock.
    pub(crate) fn settle_locked(&self, _lock: &mut WriteHeads) -> Result<(), StoreError> {
        // Only writers, who hold the write lock, change the staged records,
        // so what is read here stays what is staged until the end.
        let (games, keys): (Vec<(Hash, StagedGame)>, Vec<u64>) = {
            let s = self.staged.read().unwrap_or_else(|p| p.into_inner());
            if s.games.is_empty() {
                return Ok(());
            }
            (
                s.games.iter().map(|(g, r)| (*g, r.clone())).collect(),
                s.keys.clone(),
            )
        };
        let mut inserts: Vec<([u8; 40], Vec<u8>)> = Vec::new();
        let mut removes: Vec<[u8; 40]> = Vec::new();
        for (game, g) in &games {
            let mut seq = g.first;
            let end = g.first + g.records.len() as u64;
            while seq < end {
                let window = layout::run_start(seq);
                let upto = end.min(window + RUN);
                let staged: Vec<(&[u8], u64)> = (seq..upto)
                    .filter_map(|s| g.get(s))
                    .map(|r| (r.stored.as_slice(), r.cursor))
                    .collect();
                self.settle_window(game, window, seq, &staged, &mut inserts, &mut removes)?;
                seq = upto;
            }
        }
        let r = (&self.events, &self.staged_tree).transaction(|(ev, st)| {
            for k in &removes {
                ev.remove(&k[..])?;
            }
            for (k, v) in &inserts {
                ev.insert(&k[..], v.as_slice())?;
            }
            for k in &keys {
                st.remove(&k.to_be_bytes()[..])?;
            }
            Ok::<(), ConflictableTransactionError<Refuse>>(())
        });
        r.map_err(|e| match e {
            sled::transaction::TransactionError::Storage(e) => StoreError::Sled(e),
            sled::transaction::TransactionError::Abort(_) => {
                StoreError::Damaged("settling the staged records aborted".into())
            }
        })?;
        // `events` holds them now: forget them.
        *self.staged.write().unwrap_or_else(|p| p.into_inner()) = Staged::default();
        Ok(())
    }

    /// The writes that settle `staged` (records of `game` from `from`, all
    /// in the window starting at `window`): one run from the window's
    /// start holding what `events` already has there and the staged
    /// records, up to [`RUN_BYTES`]; single values for the rest.
    fn settle_window(
        &self,
        game: &Hash,
        window: u64,
        from: u64,
        staged: &[(&[u8], u64)],
        inserts: &mut Vec<([u8; 40], Vec<u8>)>,
        removes: &mut Vec<[u8; 40]>,
    ) -> Result<(), StoreError> {
        // What the window already holds below `from` (a game's seqs have no
        // gaps, so that is every seq from the window's start).
        let mut held: Vec<(sled::IVec, layout::Entry)> = Vec::new();
        let mut held_keys: Vec<sled::IVec> = Vec::new();
        if from > window {
            for kv in self
                .events
                .range(event_key(game, window)..event_key(game, from))
            {
                let (k, v) = kv?;
                let (_, first) = parse_game_key(&k)?;
                for e in layout::entries(first, &v)? {
                    held.push((v.clone(), e));
                }
                held_keys.push(k);
            }
        }
        let old_layout = held.iter().any(|(_, e)| e.cursor.is_none());
        if old_layout || held.len() as u64 != from - window {
            // A record without its cursor in its value (layout 1, never
            // migrated), or a window not as expected: leave it as it is and
            // write the staged records as single values.
            for (i, (stored, cursor)) in staged.iter().enumerate() {
                inserts.push((
                    event_key(game, from + i as u64),
                    layout::event_value(stored, *cursor),
                ));
            }
            return Ok(());
        }
        let all: Vec<(&[u8], u64)> = held
            .iter()
            .map(|(v, e)| (&v[e.at.clone()], e.cursor.unwrap_or(0)))
            .chain(staged.iter().copied())
            .collect();
        // As many as fit in one run (at least one).
        let mut bytes = 4;
        let mut in_run = 0;
        for (stored, _) in &all {
            if in_run > 0 && bytes + stored.len() + 8 > RUN_BYTES {
                break;
            }
            bytes += stored.len() + 8;
            in_run += 1;
        }
        let value = match &all[..in_run] {
            [(stored, cursor)] => layout::event_value(stored, *cursor),
            many => layout::run_value(many),
        };
        inserts.push((event_key(game, window), value));
        for (i, (stored, cursor)) in all.iter().enumerate().skip(in_run) {
            inserts.push((
                event_key(game, window + i as u64),
                layout::event_value(stored, *cursor),
            ));
        }
        // Keys the run replaces (the window's own key is overwritten).
        for k in held_keys {
            let (_, seq) = parse_game_key(&k)?;
            if seq != window && seq < window + in_run as u64 {
                let mut key = [0u8; 40];
                key.copy_from_slice(&k);
                removes.push(key);
            }
        }
        Ok(())
    }
}
