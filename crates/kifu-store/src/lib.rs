//! Durable storage of kifu chains on sled.
//!
//! Each game chain is stored under `game id || seq`; a head per game gives the
//! next place; every record also gets a position in one global feed (a cursor
//! that only grows), which is what integrators follow.
//!
//! The one decision a reader must know: **an append is acknowledged only after
//! it is on stable storage.** sled 0.34's `flush()` writes with
//! `sync_file_range`, which neither flushes the device cache nor metadata, and
//! its own `fsync` runs on a background timer. So after `flush()` the store
//! calls `fdatasync` on sled's data file itself. Concurrent appends share
//! that sync (group commit): the first waiter syncs for everybody who committed
//! before it started, the rest wait on a condition variable.
//!
//! Every record is checked before it is written (canonical bytes, link,
//! signature with `verify_strict`, the signer's role), inside one sled
//! transaction that also checks the head, so two writers racing for the same
//! place cannot fork a chain: one wins, the other gets
//! [`StoreError::Ledger`] with [`LedgerError::Conflict`].
#![deny(missing_docs)]

mod batch;
mod sync;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use kifu_ledger::{check_append, check_genesis, Genesis, Hash, Head, LedgerError, Record};
use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use crate::sync::GroupSync;

pub use crate::batch::{Committed, EachOutcome, Prepared};

/// What can go wrong when storing or reading.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record was refused (malformed, bad link, signature, role, conflict).
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// sled failed.
    #[error("storage: {0}")]
    Sled(#[from] sled::Error),
    /// The file system failed.
    #[error("storage I/O: {0}")]
    Io(#[from] std::io::Error),
    /// No game has that id or prefix.
    #[error("no game matches '{0}'")]
    NoSuchGame(String),
    /// More than one game has that prefix.
    #[error("'{0}' matches {1} games; give more digits")]
    Ambiguous(String, usize),
    /// The data directory holds something that is not a kifu store, or a
    /// stored value is damaged.
    #[error("damaged store: {0}")]
    Damaged(String),
    /// An archive conflicts with what is stored.
    #[error("fork: game {game} seq {seq}: the stored record {stored} differs from the imported {imported}")]
    Fork {
        /// Game id (hex).
        game: String,
        /// Sequence number.
        seq: u64,
        /// Hash of the stored record (hex).
        stored: String,
        /// Hash of the imported record (hex).
        imported: String,
    },
}

/// Where an appended record landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// The game.
    pub game: Hash,
    /// Its place in the game.
    pub seq: u64,
    /// Its hash.
    pub hash: Hash,
    /// Its place in the global feed.
    pub cursor: u64,
    /// False when the very same record was already stored (an idempotent retry).
    pub new: bool,
}

/// One line of the global feed.
#[derive(Debug, Clone)]
pub struct FeedItem {
    /// Position in the feed; resume after it.
    pub cursor: u64,
    /// The game.
    pub game: Hash,
    /// Place in the game.
    pub seq: u64,
    /// The record.
    pub record: Record,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Games that were new or grew.
    pub games: usize,
    /// Records written.
    pub written: u64,
    /// Records already present, identical.
    pub already_present: u64,
}

/// A kifu store in a data directory.
pub struct Store {
    db: sled::Db,
    events: sled::Tree,
    heads: sled::Tree,
    feed: sled::Tree,
    meta: sled::Tree,
    sync: Arc<GroupSync>,
    genesis_cache: Mutex<HashMap<Hash, Arc<Genesis>>>,
    /// Serialises commits: every append takes the next feed cursor, so
    /// concurrent sled transactions would only conflict and retry. The lock
    /// is held for the commit, not for the sync, which is shared.
    write_lock: Mutex<()>,
    path: PathBuf,
}

const FEED_NEXT: &[u8] = b"feed_next";

fn event_key(game: &Hash, seq: u64) -> [u8; 40] {
    let mut k = [0u8; 40];
    k[..32].copy_from_slice(game);
    k[32..].copy_from_slice(&seq.to_be_bytes());
    k
}

fn head_value(h: Head) -> [u8; 40] {
    let mut v = [0u8; 40];
    v[..8].copy_from_slice(&h.seq.to_be_bytes());
    v[8..].copy_from_slice(&h.hash);
    v
}

fn parse_head(v: &[u8]) -> Result<Head, StoreError> {
    if v.len() != 40 {
        return Err(StoreError::Damaged("head value of wrong length".into()));
    }
    let mut seq = [0u8; 8];
    seq.copy_from_slice(&v[..8]);
    let mut hash = [0u8; 32];
    hash.copy_from_slice(&v[8..]);
    Ok(Head {
        seq: u64::from_be_bytes(seq),
        hash,
    })
}

fn parse_u64(v: &[u8]) -> Result<u64, StoreError> {
    let arr: [u8; 8] = v
        .try_into()
        .map_err(|_| StoreError::Damaged("counter of wrong length".into()))?;
    Ok(u64::from_be_bytes(arr))
}

fn parse_game_key(k: &[u8]) -> Result<(Hash, u64), StoreError> {
    if k.len() != 40 {
        return Err(StoreError::Damaged("event key of wrong length".into()));
    }
    let mut game = [0u8; 32];
    game.copy_from_slice(&k[..32]);
    Ok((game, parse_u64(&k[32..])?))
}

/// An append that a transaction refused, carried out of it.
enum Refuse {
    Conflict { expected_seq: u64, got_seq: u64 },
    Exists(u64),
    Damaged(String),
}

impl Store {
    /// Opens (or creates) the store in `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir)?;
        let db = sled::Config::new().path(dir).open()?;
        let events = db.open_tree("events")?;
        let heads = db.open_tree("heads")?;
        let feed = db.open_tree("feed")?;
        let meta = db.open_tree("meta")?;
        // sled 0.34 keeps its log in the file `db` inside the directory.
        let data_file = File::open(dir.join("db"))?;
        // Make the directory entries themselves durable once.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(Store {
            db,
            events,
            heads,
            feed,
            meta,
            sync: Arc::new(GroupSync::new(data_file)),
            genesis_cache: Mutex::new(HashMap::new()),
            write_lock: Mutex::new(()),
            path: dir.to_path_buf(),
        })
    }

    /// The data directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The head of a game, if it exists.
    pub fn head(&self, game: &Hash) -> Result<Option<Head>, StoreError> {
        self.heads.get(game)?.map(|v| parse_head(&v)).transpose()
    }

    /// Every game id, in id order.
    pub fn games(&self) -> Result<Vec<Hash>, StoreError> {
        let mut out = Vec::new();
        for kv in self.heads.iter() {
            let (k, _) = kv?;
            let g: Hash = k
                .as_ref()
                .try_into()
                .map_err(|_| StoreError::Damaged("game id of wrong length".into()))?;
            out.push(g);
        }
        Ok(out)
    }

    /// The game whose id (hex) starts with `prefix`.
    pub fn resolve(&self, prefix: &str) -> Result<Hash, StoreError> {
        let p = prefix.trim().to_ascii_lowercase();
        if p.is_empty() || !p.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(StoreError::NoSuchGame(prefix.to_string()));
        }
        let matches: Vec<Hash> = self
            .games()?
            .into_iter()
            .filter(|g| hex::encode(g).starts_with(&p))
            .collect();
        match matches.len() {
            0 => Err(StoreError::NoSuchGame(prefix.to_string())),
            1 => Ok(matches[0]),
            n => Err(StoreError::Ambiguous(prefix.to_string(), n)),
        }
    }

    /// The genesis of a game.
    pub fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, StoreError> {
        if let Some(g) = self
            .genesis_cache
            .lock()
            .ok()
            .and_then(|c| c.get(game).cloned())
        {
            return Ok(g);
        }
        let rec = self
            .get(game, 0)?
            .ok_or_else(|| StoreError::NoSuchGame(hex::encode(game)))?;
        let (_, g) = check_genesis(&rec)?;
        let g = Arc::new(g);
        if let Ok(mut c) = self.genesis_cache.lock() {
            c.insert(*game, g.clone());
        }
        Ok(g)
    }

    /// One record.
    pub fn get(&self, game: &Hash, seq: u64) -> Result<Option<Record>, StoreError> {
        match self.events.get(event_key(game, seq))? {
            Some(v) => Ok(Some(Record::from_stored(&v)?)),
            None => Ok(None),
        }
    }

    /// The records of a game from `from` to `to` inclusive (to the head when
    /// `to` is `None`).
    pub fn read(&self, game: &Hash, from: u64, to: Option<u64>) -> Result<Vec<Record>, StoreError> {
        let start = event_key(game, from);
        let end = event_key(game, to.unwrap_or(u64::MAX));
        let mut out = Vec::new();
        for kv in self.events.range(start..=end) {
            let (_, v) = kv?;
            out.push(Record::from_stored(&v)?);
        }
        Ok(out)
    }

    /// Every record of every game, chain by chain in sequence order.
    pub fn all_records(&self) -> Result<Vec<Record>, StoreError> {
        let mut out = Vec::new();
        for kv in self.events.iter() {
            let (_, v) = kv?;
            out.push(Record::from_stored(&v)?);
        }
        Ok(out)
    }

    /// Number of records in the feed (and so in the store).
    pub fn len(&self) -> usize {
        self.feed.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.feed.is_empty()
    }

    /// Up to `limit` feed items after `after` (from the start when `None`).
    pub fn feed(&self, after: Option<u64>, limit: usize) -> Result<Vec<FeedItem>, StoreError> {
        let start = after.map(|a| a.saturating_add(1)).unwrap_or(0);
        if after == Some(u64::MAX) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for kv in self.feed.range(start.to_be_bytes()..).take(limit) {
            let (k, v) = kv?;
            let cursor = parse_u64(&k)?;
            let (game, seq) = parse_game_key(&v)?;
            let record = self.get(&game, seq)?.ok_or_else(|| {
                StoreError::Damaged(format!("feed {cursor} points at a missing record"))
            })?;
            out.push(FeedItem {
                cursor,
                game,
                seq,
                record,
            });
        }
        Ok(out)
    }

    /// Appends one record, durably. Returns once the record is on stable
    /// storage.
    pub fn append(&self, record: Record) -> Result<Appended, StoreError> {
        let mut v = self.append_batch(vec![record])?;
        v.pop()
            .ok_or_else(|| StoreError::Damaged("append wrote nothing".into()))
    }

    /// Appends records in order, in one transaction and one sync: all are
    /// written or none. Records of several games may be mixed; a genesis may
    /// come first in the batch for its own game.
    pub fn append_batch(&self, records: Vec<Record>) -> Result<Vec<Appended>, StoreError> {
        // Check everything that does not depend on the stored heads first.
        let mut planned: Vec<(Hash, Head, Record)> = Vec::with_capacity(records.len());
        let mut local_heads: HashMap<Hash, Head> = HashMap::new();
        let mut local_genesis: HashMap<Hash, Arc<Genesis>> = HashMap::new();
        for record in records {
            let header = record.header()?;
            if header.seq == 0 {
                let (_, g) = check_genesis(&record)?;
                let game = record.hash();
                let head = Head { seq: 0, hash: game };
                local_genesis.insert(game, Arc::new(g));
                local_heads.insert(game, head);
                planned.push((game, head, record));
                continue;
            }
            let game = header.chain;
            let genesis = match local_genesis.get(&game) {
                Some(g) => g.clone(),
                None => self.genesis(&game)?,
            };
            let prev = match local_heads.get(&game) {
                Some(h) => *h,
                None => match self.head(&game)? {
                    Some(h) => h,
                    None => return Err(StoreError::NoSuchGame(hex::encode(game))),
                },
            };
            let prev = if header.seq <= prev.seq {
                // A retry of something already stored, or a conflict: decided
                // inside the transaction.
                Head {
                    seq: header.seq - 1,
                    hash: header.prev_hash,
                }
            } else {
                prev
            };
            check_append(&game, &genesis, prev, &record)?;
            let head = Head {
                seq: header.seq,
                hash: record.hash(),
            };
            local_heads.insert(game, head);
            planned.push((game, head, record));
        }

        let guard = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
        let result =
            (&self.events, &self.heads, &self.feed, &self.meta).transaction(|(ev, hd, fd, mt)| {
                let mut next = match mt.get(FEED_NEXT)? {
                    Some(v) => parse_u64(&v).map_err(|e| {
                        ConflictableTransactionError::Abort(Refuse::Damaged(e.to_string()))
                    })?,
                    None => 0,
                };
                let mut out = Vec::with_capacity(planned.len());
                for (game, head, record) in &planned {
                    let stored_head = match hd.get(game)? {
                        Some(v) => Some(parse_head(&v).map_err(|e| {
                            ConflictableTransactionError::Abort(Refuse::Damaged(e.to_string()))
                        })?),
                        None => None,
                    };
                    let expect = head.seq.checked_sub(1);
                    let fits = match (stored_head, expect) {
                        (None, None) => true,
                        (Some(h), Some(e)) => h.seq == e && h.hash == record_prev(record),
                        _ => false,
                    };
                    if !fits {
                        // Identical record already in place: an idempotent retry.
                        if let Some(existing) = ev.get(event_key(game, head.seq))? {
                            if existing.as_ref() == record.to_stored().as_slice() {
                                return Err(ConflictableTransactionError::Abort(Refuse::Exists(
                                    head.seq,
                                )));
                            }
                        }
                        return Err(ConflictableTransactionError::Abort(Refuse::Conflict {
                            expected_seq: stored_head.map(|h| h.seq + 1).unwrap_or(0),
                            got_seq: head.seq,
                        }));
                    }
                    ev.insert(&event_key(game, head.seq)[..], record.to_stored())?;
                    hd.insert(&game[..], &head_value(*head)[..])?;
                    fd.insert(&next.to_be_bytes()[..], &event_key(game, head.seq)[..])?;
                    out.push(Appended {
                        game: *game,
                        seq: head.seq,
                        hash: head.hash,
                        cursor: next,
                        new: true,
                    });
                    next += 1;
                }
                mt.insert(FEED_NEXT, &next.to_be_bytes())?;
                Ok(out)
            });
        // The ticket is taken while the commit is still serialised, so a
        // sync that covers a ticket covers every commit before it.
        let ticket = result.as_ref().ok().map(|_| self.sync.note_written());
        drop(guard);
        match result {
            Ok(out) => {
                if let Some(t) = ticket {
                    self.sync.wait_durable_ticket(&self.db, t)?;
                }
                Ok(out)
            }
            Err(TransactionError::Abort(Refuse::Exists(seq))) if planned.len() == 1 => {
                let (game, head, _) = &planned[0];
                Ok(vec![Appended {
                    game: *game,
                    seq,
                    hash: head.hash,
                    cursor: self.cursor_of(game, seq)?,
                    new: false,
                }])
            }
            Err(TransactionError::Abort(Refuse::Exists(seq))) => Err(LedgerError::Conflict {
                expected_seq: seq + 1,
                got_seq: seq,
            }
            .into()),
            Err(TransactionError::Abort(Refuse::Conflict {
                expected_seq,
                got_seq,
            })) => Err(LedgerError::Conflict {
                expected_seq,
                got_seq,
            }
            .into()),
            Err(TransactionError::Abort(Refuse::Damaged(s))) => Err(StoreError::Damaged(s)),
            Err(TransactionError::Storage(e)) => Err(e.into()),
        }
    }

    fn cursor_of(&self, game: &Hash, seq: u64) -> Result<u64, StoreError> {
        let key = event_key(game, seq);
        for kv in self.feed.iter().rev() {
            let (k, v) = kv?;
            if v.as_ref() == key.as_slice() {
                return parse_u64(&k);
            }
        }
        Err(StoreError::Damaged("record not in the feed".into()))
    }

    /// Imports verified records (from an archive): writes what is missing,
    /// skips what is identical, and refuses the whole import, writing nothing,
    /// when any record differs from the stored one at the same place (a fork).
    pub fn import(&self, records: &[Record]) -> Result<ImportReport, StoreError> {
        let mut report = ImportReport::default();
        // Group by game, in seq order.
        let mut by_game: std::collections::BTreeMap<Hash, Vec<(u64, &Record)>> = Default::default();
        for r in records {
            let h = r.header()?;
            let game = if h.seq == 0 { r.hash() } else { h.chain };
            by_game.entry(game).or_default().push((h.seq, r));
        }
        let mut to_write = Vec::new();
        for (game, mut list) in by_game {
            list.sort_by_key(|(s, _)| *s);
            list.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
            let head = self.head(&game)?;
            let mut grew = false;
            for (seq, r) in list {
                match head {
                    Some(h) if seq <= h.seq => {
                        let stored = self.get(&game, seq)?.ok_or_else(|| {
                            StoreError::Damaged(format!("missing record {seq} below the head"))
                        })?;
                        if &stored == r {
                            report.already_present += 1;
                        } else {
                            return Err(StoreError::Fork {
                                game: hex::encode(game),
                                seq,
                                stored: hex::encode(stored.hash()),
                                imported: hex::encode(r.hash()),
                            });
                        }
                    }
                    _ => {
                        to_write.push(r.clone());
                        grew = true;
                    }
                }
            }
            if grew {
                report.games += 1;
            }
        }
        report.written = to_write.len() as u64;
        if !to_write.is_empty() {
            self.append_batch(to_write)?;
        }
        Ok(report)
    }

    /// Flushes and syncs everything written so far.
    pub fn sync(&self) -> Result<(), StoreError> {
        let t = self.sync.note_written();
        self.sync.wait_durable_ticket(&self.db, t)?;
        Ok(())
    }
}

fn record_prev(record: &Record) -> Hash {
    record
        .header()
        .map(|h| h.prev_hash)
        .unwrap_or(kifu_ledger::ZERO_HASH)
}
