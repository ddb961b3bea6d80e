//! Durable storage of kifu chains on sled.
//!
//! Each game chain is stored under `game id || seq` (a single record, or a
//! run of up to 32 written together); a game's head is its last key there,
//! read with one range read; every record also gets a position in one
//! global feed (a cursor that only grows), which is what integrators follow.
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
//!
//! Records larger than about a quarter of sled's segment (and leaf nodes that
//! grow as large) are written by sled to separate files under `blobs/`,
//! which sled never syncs; the group commit syncs every new blob file and the
//! `blobs` directory before the data file, so an acknowledgement covers them.
//!
//! The server's batch writer ([`Store::commit_prepared`]) stages a batch's
//! records as a few values of a `staged` tree instead of one key each, keeps
//! them in memory for every read, and settles them into their games' runs
//! every [`SETTLE_AT`] records (`staged.rs`).
//!
//! Every record, whoever writes it, is committed by one transaction
//! (`Store::commit_transaction`, `commit.rs`): the feed counter, the
//! record's cursor and transparency-log leaf, the feed entry and the log's
//! hashes; the writers differ only in where the records' bytes go.
//!
//! The store stands on the ledger and the log alone (`tests/floors.rs`):
//! what also needs bundles or tournaments (bundles made from a store, an
//! archive's carried tournament chain) is `kifu-archive`'s, above it.
//!
//! Forks are never discarded: a validly signed record that contradicts the
//! stored chain (from an import) is kept in the `evidence` tree, outside the
//! chain, and [`Store::records_for_verification`] returns it with the chain
//! so that every verification reports it.
//!
//! ```
//! use kifu_ledger::testkit::{sample_game, Cast};
//! let dir = tempfile::tempdir().unwrap();
//! let store = kifu_store::Store::open(dir.path()).unwrap();
//! let c = sample_game(&Cast::new(), "doc");
//! store.append_batch(c.records.clone()).unwrap();
//! assert_eq!(store.head(&c.game).unwrap(), Some(c.head));
//! assert!(kifu_ledger::verify_records(&store.records_for_verification().unwrap()).ok());
//! ```
#![deny(missing_docs)]

pub mod archive_file;
mod batch;
mod commit;
pub mod devices;
mod import;
mod kv;
mod layout;
mod map;
pub mod marker;
pub mod operator;
mod readonly;
pub mod site;
mod staged;
mod sync;
pub mod tlog;
pub mod tournaments;
mod usage;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use staged::StagedGame;
pub use staged::SETTLE_AT;

use kifu_ledger::archive::ArchiveVerdict;
use kifu_ledger::{
    check_append, check_genesis, Body, Event, Genesis, Hash, Head, Keypair, LedgerError, PublicKey,
    Record, Standing,
};
use sled::transaction::{ConflictableTransactionError, TransactionError};

use crate::layout::{Entry, FindError};
use crate::sync::GroupSync;

pub use crate::batch::{Committed, EachOutcome, Prepared};
pub use crate::layout::{RUN, RUN_BYTES};
pub use crate::readonly::read_only_reason;
pub use crate::usage::{TreeUsage, Usage};

/// What can go wrong when storing or reading.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// Another process holds the store (sled admits one process at a time).
    #[error("the store in {0} is in use by another process")]
    Locked(String),
    /// An archive or a set of records does not verify; nothing was written
    /// but fork evidence.
    #[error("does not verify: {0}")]
    NotVerified(String),
    /// A retry-safe append found the chain elsewhere than the client
    /// expected: another event took the place, or the place does not exist
    /// yet.
    #[error("stale: expected to write seq {expected_seq}, but {found}")]
    Stale {
        /// The seq the client expected its event to take.
        expected_seq: u64,
        /// What is there instead.
        found: String,
    },
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
    /// A record of a kind this library does not know: a store writes only
    /// what it understands, by append or by import alike.
    #[error("game {game} seq {seq}: event kind {kind} is newer than this program; a store writes only the kinds it knows (nothing written)")]
    Unknown {
        /// Game id (hex).
        game: String,
        /// Its place.
        seq: u64,
        /// Its kind index.
        kind: u32,
    },
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
    /// A transparency-log request that does not fit the log.
    #[error("transparency log: {0}")]
    Log(String),
    /// The store is on read-only media and was opened as a copy
    /// ([`Store::open_copy`]): it can be read, not written.
    #[error("the store in {0} is read-only: it can be read, verified and exported, not written")]
    ReadOnly(String),
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
    /// Records kept as fork evidence.
    pub evidence: u64,
}

/// Where a retry-safe append expects its event to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// At this seq.
    Seq(u64),
    /// Right after the record with this hash.
    After(Hash),
}

/// Attempts after the first to take a store's lock, 50 ms apart.
const LOCK_RETRIES: u32 = 10;

/// Records written per transaction and sync by [`Store::import`].
pub const IMPORT_CHUNK: usize = 2048;

/// A kifu store in a data directory.
pub struct Store {
    db: sled::Db,
    events: sled::Tree,
    feed: sled::Tree,
    meta: sled::Tree,
    tlog: sled::Tree,
    evidence: sled::Tree,
    /// The server's batches, staged until settled (`staged.rs`).
    staged_tree: sled::Tree,
    /// Every staged record, read before `events` by every reader.
    staged: std::sync::RwLock<staged::Staged>,
    /// Staged records that start a settle.
    settle_at: std::sync::atomic::AtomicUsize,
    sync: Arc<GroupSync>,
    genesis_cache: Mutex<HashMap<Hash, (PublicKey, Arc<Genesis>)>>,
    /// The standing at each game's head, once built.
    standings: Mutex<HashMap<Hash, (Head, Arc<Standing>)>>,
    /// Serialises commits: every append takes the next feed cursor, so
    /// concurrent sled transactions would only conflict and retry. The lock
    /// is held for the commit, not for the sync, which is shared. It guards
    /// the heads the writers know (`WriteHeads`).
    write_lock: Mutex<WriteHeads>,
    path: PathBuf,
    /// Every cursor below this is known to be on stable storage (`kv.rs`).
    durable_next: std::sync::atomic::AtomicU64,
    /// Set when this is a temporary copy of a read-only store: removes it
    /// when the store is dropped (last field, so after sled is closed).
    copy: Option<readonly::CopyGuard>,
}

const FEED_NEXT: &[u8] = b"feed_next";
/// Bytes per record in a feed entry (`game || seq`).
const FEED_ENTRY: usize = 40;

fn event_key(game: &Hash, seq: u64) -> [u8; 40] {
    let mut k = [0u8; 40];
    k[..32].copy_from_slice(game);
    k[32..].copy_from_slice(&seq.to_be_bytes());
    k
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

/// What the write lock guards: the head of each game written or read by a
/// writer since the store was opened. Every commit updates it under the
/// lock, and an undone import drops its games, so it is exact.
#[derive(Default)]
pub(crate) struct WriteHeads {
    heads: HashMap<Hash, Head>,
}

/// How [`Store::commit`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Write {
    /// One value per record, on stable storage before the call returns.
    Durable,
    /// Records of one game in sequence as runs (`layout.rs`), synced later
    /// by the caller: an import.
    Runs,
}

/// The run being gathered by a commit: records of one game in sequence,
/// written under the key of the first when the run ends.
#[derive(Default)]
struct RunWriter<'a> {
    at: Option<(Hash, u64)>,
    records: Vec<(&'a [u8], u64)>,
    bytes: usize,
}

impl<'a> RunWriter<'a> {
    fn push(&mut self, game: &Hash, seq: u64, stored: &'a [u8], cursor: u64) {
        if self.at.is_none() {
            self.at = Some((*game, seq));
            self.bytes = 4;
        }
        self.records.push((stored, cursor));
        self.bytes += stored.len() + 8;
    }

    /// Writes the run gathered (a single value when it holds one record).
    fn flush(
        &mut self,
        ev: &sled::transaction::TransactionalTree,
    ) -> Result<(), sled::transaction::UnabortableTransactionError> {
        if let Some((game, seq)) = self.at.take() {
            let value = match self.records.as_slice() {
                [(stored, cursor)] => layout::event_value(stored, *cursor),
                many => layout::run_value(many),
            };
            ev.insert(&event_key(&game, seq)[..], value)?;
        }
        self.records.clear();
        self.bytes = 0;
        Ok(())
    }
}

/// Places per feed entry at most: a commit of more records (an import's
/// chunk) gets several entries, so that no entry, and no sled leaf of them,
/// grows past sled's threshold for writing a page as a separate blob file.
pub(crate) const FEED_PIECE: usize = 128;

/// Writes the feed entries of a commit whose first cursor is `first`:
/// `places` (`game || seq` per record, in cursor order), in entries of at
/// most [`FEED_PIECE`] records, each keyed by its own first cursor.
fn insert_feed(
    fd: &sled::transaction::TransactionalTree,
    first: u64,
    places: &[u8],
) -> Result<(), sled::transaction::UnabortableTransactionError> {
    for (i, piece) in places.chunks(FEED_PIECE * FEED_ENTRY).enumerate() {
        let at = first + (i * FEED_PIECE) as u64;
        fd.insert(&at.to_be_bytes()[..], piece)?;
    }
    Ok(())
}

/// [`layout::find_with`] in a transaction.
fn tx_find(
    ev: &sled::transaction::TransactionalTree,
    game: &Hash,
    seq: u64,
) -> Result<Option<(sled::IVec, Entry)>, ConflictableTransactionError<Refuse>> {
    layout::find_with(game, seq, |k| ev.get(k)).map_err(|e| match e {
        FindError::Storage(e) => e.into(),
        FindError::Damaged(e) => {
            ConflictableTransactionError::Abort(Refuse::Damaged(e.to_string()))
        }
    })
}

/// An append that a transaction refused, carried out of it.
enum Refuse {
    Conflict { expected_seq: u64, got_seq: u64 },
    Exists(u64),
    Damaged(String),
}

impl Store {
    /// Opens (or creates) the store in `dir`. A store written in an older
    /// layout is brought up to date (`layout.rs`). A store on read-only
    /// media cannot be opened this way (sled writes on opening): see
    /// [`read_only_reason`] and [`Store::open_copy`].
    ///
    /// # Errors
    ///
    /// [`StoreError::Locked`] when another process holds it; sled and I/O
    /// errors otherwise.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_inner(dir, true)
    }

    /// Opens the store; `migrate`: bring an older layout up to date
    /// (`layout.rs`).
    fn open_inner(dir: &Path, migrate: bool) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir)?;
        let open = || {
            sled::Config::new()
                .path(dir)
                // No background flusher: everything reaches the disk in the
                // group commit, where the blob files are synced before the log.
                .flush_every_ms(None)
                .open()
                .map_err(|e| match e {
                    sled::Error::Io(io)
                        if io.kind() == std::io::ErrorKind::WouldBlock
                            || io.to_string().contains("could not acquire lock") =>
                    {
                        StoreError::Locked(dir.display().to_string())
                    }
                    e => StoreError::Sled(e),
                })
        };
        // A store just closed in this process can keep its lock for a few
        // milliseconds while sled's writer threads end: a lock is retried
        // for at most half a second before it is reported.
        let mut tries = 0;
        let db = loop {
            match open() {
                Err(StoreError::Locked(_)) if tries < LOCK_RETRIES => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                other => break other?,
            }
        };
        let events = db.open_tree("events")?;
        let feed = db.open_tree("feed")?;
        let meta = db.open_tree("meta")?;
        let tlog = db.open_tree(tlog::TREE)?;
        let evidence = db.open_tree("evidence")?;
        let staged_tree = db.open_tree(staged::TREE)?;
        // sled 0.34 keeps its log in the file `db` inside the directory.
        let data_file = File::open(dir.join("db"))?;
        // Make the directory entries themselves durable once.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        let store = Store {
            db,
            events,
            feed,
            meta,
            tlog,
            evidence,
            staged_tree,
            staged: std::sync::RwLock::new(staged::Staged::default()),
            settle_at: std::sync::atomic::AtomicUsize::new(staged::SETTLE_AT),
            sync: Arc::new(GroupSync::new(data_file, dir)),
            genesis_cache: Mutex::new(HashMap::new()),
            standings: Mutex::new(HashMap::new()),
            write_lock: Mutex::new(WriteHeads::default()),
            path: dir.to_path_buf(),
            durable_next: std::sync::atomic::AtomicU64::new(0),
            copy: None,
        };
        store.load_staged()?;
        store.tlog_catch_up()?;
        if migrate {
            store.mark_layout_if_empty()?;
            store.migrate_layout()?;
            // What a server left staged (`staged.rs`) goes into `events`,
            // so a store opened for writing holds none.
            store.settle()?;
        }
        Ok(store)
    }

    /// The staged records, for reading.
    fn staged_read(&self) -> std::sync::RwLockReadGuard<'_, staged::Staged> {
        self.staged.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The data directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The head of a game, if it exists.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged head.
    pub fn head(&self, game: &Hash) -> Result<Option<Head>, StoreError> {
        if let Some(h) = self.staged_read().games.get(game).and_then(|g| g.head()) {
            return Ok(Some(h));
        }
        // The game's last record (`layout.rs`: layout 3 keeps no separate
        // heads, which cost one more key written per record).
        let last = self
            .events
            .range(event_key(game, 0)..=event_key(game, u64::MAX))
            .next_back();
        let Some(kv) = last else {
            return Ok(None);
        };
        let (k, v) = kv?;
        let (_, first) = parse_game_key(&k)?;
        // The last record of the value (a run holds several).
        let last = layout::entries(first, &v)?
            .pop()
            .ok_or_else(|| StoreError::Damaged("an empty value".into()))?;
        let hash = Record::from_stored(&v[last.at])?.hash();
        Ok(Some(Head {
            seq: last.seq,
            hash,
        }))
    }

    /// The value holding `seq` of `game` (its own, or a run's) and the
    /// record's place in it.
    fn find(&self, game: &Hash, seq: u64) -> Result<Option<(sled::IVec, Entry)>, StoreError> {
        layout::find_with(game, seq, |k| self.events.get(k)).map_err(|e| match e {
            FindError::Storage(e) => StoreError::Sled(e),
            FindError::Damaged(e) => e,
        })
    }

    /// Every game id, in id order.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged key.
    pub fn games(&self) -> Result<Vec<Hash>, StoreError> {
        // Skips from each game's first record to the next game's.
        // Staged first: a settle moves records into `events` before the
        // staged ones are forgotten.
        let staged: Vec<Hash> = self.staged_read().games.keys().copied().collect();
        let mut out = Vec::new();
        let mut from: Vec<u8> = Vec::new();
        while let Some(kv) = self.events.range(from.as_slice()..).next() {
            let (k, _) = kv?;
            let (g, _) = parse_game_key(&k)?;
            out.push(g);
            // Just above every key of game `g`.
            from = event_key(&g, u64::MAX).to_vec();
            from.push(0);
        }
        out.extend(staged);
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The game whose id (hex) starts with `prefix`, found by seeking the
    /// ordered keys (O(log n) for a unique prefix: the first game at or
    /// after the prefix, then the next one after it), never by listing
    /// every game.
    ///
    /// # Errors
    ///
    /// [`StoreError::NoSuchGame`], [`StoreError::Ambiguous`], storage errors.
    pub fn resolve(&self, prefix: &str) -> Result<Hash, StoreError> {
        let p = prefix.trim().to_ascii_lowercase();
        if p.is_empty() || p.len() > 64 || !p.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(StoreError::NoSuchGame(prefix.to_string()));
        }
        // The least id with this prefix: its digits, then zeros.
        let mut low = [0u8; 32];
        for (i, c) in p.bytes().enumerate() {
            let nibble = (c as char).to_digit(16).unwrap_or(0) as u8;
            low[i / 2] |= if i % 2 == 0 { nibble << 4 } else { nibble };
        }
        let named = |g: &Hash| hex::encode(g).starts_with(&p);
        let mut matches: Vec<Hash> = self
            .staged_read()
            .games
            .keys()
            .filter(|g| named(g))
            .copied()
            .collect();
        let mut from = event_key(&low, 0).to_vec();
        while let Some(kv) = self.events.range(from.as_slice()..).next() {
            let (k, _) = kv?;
            let (g, _) = parse_game_key(&k)?;
            if !named(&g) {
                break;
            }
            if !matches.contains(&g) {
                matches.push(g);
            }
            // Just above every key of game `g`.
            from = event_key(&g, u64::MAX).to_vec();
            from.push(0);
        }
        match matches.len() {
            0 => Err(StoreError::NoSuchGame(prefix.to_string())),
            1 => Ok(matches[0]),
            n => Err(StoreError::Ambiguous(prefix.to_string(), n)),
        }
    }

    /// The genesis of a game.
    ///
    /// # Errors
    ///
    /// [`StoreError::NoSuchGame`], a damaged genesis, storage errors.
    pub fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, StoreError> {
        Ok(self.genesis_and_creator(game)?.1)
    }

    /// The key that signed a game's genesis: who created the game.
    ///
    /// # Errors
    ///
    /// As [`Store::genesis`].
    pub fn creator(&self, game: &Hash) -> Result<PublicKey, StoreError> {
        Ok(self.genesis_and_creator(game)?.0)
    }

    fn genesis_and_creator(&self, game: &Hash) -> Result<(PublicKey, Arc<Genesis>), StoreError> {
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
        let (event, g) = check_genesis(&rec)?;
        let both = (event.signer, Arc::new(g));
        if let Ok(mut c) = self.genesis_cache.lock() {
            c.insert(*game, both.clone());
        }
        Ok(both)
    }

    /// One record.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value.
    pub fn get(&self, game: &Hash, seq: u64) -> Result<Option<Record>, StoreError> {
        if let Some(r) = self.staged_read().get(game, seq) {
            return Ok(Some(Record::from_stored(&r.stored)?));
        }
        match self.find(game, seq)? {
            Some((v, e)) => Ok(Some(Record::from_stored(&v[e.at])?)),
            None => Ok(None),
        }
    }

    /// The records of a game from `from` to `to` inclusive (to the head when
    /// `to` is `None`).
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value.
    pub fn read(&self, game: &Hash, from: u64, to: Option<u64>) -> Result<Vec<Record>, StoreError> {
        let to = to.unwrap_or(u64::MAX);
        // The staged records first (a settle writes `events` before it
        // forgets them); `events` then only below them.
        let staged: Option<StagedGame> = self.staged_read().games.get(game).cloned();
        let below = staged.as_ref().map_or(u64::MAX, |g| g.first);
        let mut out = Vec::new();
        if from < below {
            // From the run that may hold `from`.
            let start = event_key(game, layout::run_start(from));
            let end = event_key(game, to.min(below - 1));
            for kv in self.events.range(start..=end) {
                let (k, v) = kv?;
                let (_, first) = parse_game_key(&k)?;
                for e in layout::entries(first, &v)? {
                    if (from..=to).contains(&e.seq) && e.seq < below {
                        out.push(Record::from_stored(&v[e.at])?);
                    }
                }
            }
        }
        if let Some(g) = staged {
            for (i, r) in g.records.iter().enumerate() {
                let seq = g.first + i as u64;
                if (from..=to).contains(&seq) {
                    out.push(Record::from_stored(&r.stored)?);
                }
            }
        }
        Ok(out)
    }

    /// Every record of every game, chain by chain in sequence order.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value.
    pub fn all_records(&self) -> Result<Vec<Record>, StoreError> {
        // The staged records first, as in `read`.
        let staged: HashMap<Hash, StagedGame> = self.staged_read().games.clone();
        let mut by_game: Vec<(Hash, Vec<Record>)> = Vec::new();
        for kv in self.events.iter() {
            let (k, v) = kv?;
            let (game, first) = parse_game_key(&k)?;
            let below = staged.get(&game).map_or(u64::MAX, |g| g.first);
            if by_game.last().is_none_or(|(g, _)| g != &game) {
                by_game.push((game, Vec::new()));
            }
            let Some((_, out)) = by_game.last_mut() else {
                continue;
            };
            for e in layout::entries(first, &v)? {
                if e.seq < below {
                    out.push(Record::from_stored(&v[e.at])?);
                }
            }
        }
        for (game, g) in &staged {
            let at = match by_game.binary_search_by(|(x, _)| x.cmp(game)) {
                Ok(i) => i,
                Err(i) => {
                    by_game.insert(i, (*game, Vec::new()));
                    i
                }
            };
            for r in &g.records {
                by_game[at].1.push(Record::from_stored(&r.stored)?);
            }
        }
        Ok(by_game.into_iter().flat_map(|(_, r)| r).collect())
    }

    /// Number of records in the feed (and so in the store).
    pub fn len(&self) -> usize {
        // The last feed entry's first cursor and its count.
        match self.feed.iter().next_back() {
            Some(Ok((k, v))) => parse_u64(&k)
                .map(|c| c as usize + v.len() / FEED_ENTRY)
                .unwrap_or(0),
            _ => 0,
        }
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.feed.is_empty()
    }

    /// `(cursor, game, seq)` of up to `limit` records from cursor `start`.
    ///
    /// A feed entry is keyed by its first cursor, and its value is the
    /// `game || seq` of each of its records, in cursor order: one entry per
    /// commit of up to [`FEED_PIECE`] records, several for a larger commit
    /// (stores written before kept one entry per record, which is the same
    /// form with one record, or one per commit however large).
    fn feed_places(&self, start: u64, limit: usize) -> Result<Vec<(u64, Hash, u64)>, StoreError> {
        let mut out = Vec::new();
        if limit == 0 {
            return Ok(out);
        }
        // The entry holding `start`, if it begins before it.
        let from = match self.feed.range(..=start.to_be_bytes()).next_back() {
            Some(kv) => parse_u64(&kv?.0)?,
            None => start,
        };
        for kv in self.feed.range(from.to_be_bytes()..) {
            let (k, v) = kv?;
            let first = parse_u64(&k)?;
            if v.is_empty() || v.len() % FEED_ENTRY != 0 {
                return Err(StoreError::Damaged(format!(
                    "feed entry {first} of {} bytes",
                    v.len()
                )));
            }
            for (i, place) in v.chunks(FEED_ENTRY).enumerate() {
                let cursor = first + i as u64;
                if cursor < start {
                    continue;
                }
                let (game, seq) = parse_game_key(place)?;
                out.push((cursor, game, seq));
                if out.len() >= limit {
                    return Ok(out);
                }
            }
        }
        Ok(out)
    }

    /// Up to `limit` feed items after `after` (from the start when `None`).
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value or a feed entry pointing nowhere.
    pub fn feed(&self, after: Option<u64>, limit: usize) -> Result<Vec<FeedItem>, StoreError> {
        let start = after.map(|a| a.saturating_add(1)).unwrap_or(0);
        if after == Some(u64::MAX) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        // The last run read: the next records of the feed are often in it.
        let mut run: Option<(Hash, u64, sled::IVec, Vec<Entry>)> = None;
        for (cursor, game, seq) in self.feed_places(start, limit)? {
            let missing =
                || StoreError::Damaged(format!("feed {cursor} points at a missing record"));
            let held = run.as_ref().and_then(|(g, first, v, es)| {
                let i = usize::try_from(seq.checked_sub(*first)?).ok()?;
                (g == &game).then(|| es.get(i).map(|e| &v[e.at.clone()]))?
            });
            let staged = match held {
                Some(_) => None,
                None => self
                    .staged_read()
                    .get(&game, seq)
                    .map(|r| Record::from_stored(&r.stored)),
            };
            let record = match (held, staged) {
                (Some(bytes), _) => Record::from_stored(bytes)?,
                (None, Some(r)) => r?,
                (None, None) => {
                    // The value is read and parsed once, and a run kept.
                    let (v, first) = layout::candidate_with(&game, seq, |k| self.events.get(k))?
                        .ok_or_else(missing)?;
                    let es = layout::entries(first, &v)?;
                    let e = es.iter().find(|e| e.seq == seq).ok_or_else(missing)?;
                    let record = Record::from_stored(&v[e.at.clone()])?;
                    if layout::is_run(&v) {
                        run = Some((game, first, v, es));
                    }
                    record
                }
            };
            out.push(FeedItem {
                cursor,
                game,
                seq,
                record,
            });
        }
        Ok(out)
    }

    /// The standing (who may sign what next) at the head of `game`.
    ///
    /// # Errors
    ///
    /// [`StoreError::NoSuchGame`], or a damaged record.
    pub fn standing(&self, game: &Hash) -> Result<(Head, Arc<Standing>), StoreError> {
        let head = self
            .head(game)?
            .ok_or_else(|| StoreError::NoSuchGame(hex::encode(game)))?;
        if let Some((h, s)) = self
            .standings
            .lock()
            .ok()
            .and_then(|c| c.get(game).cloned())
        {
            if h == head {
                return Ok((h, s));
            }
        }
        let s = Arc::new(self.rebuild_standing(game, head)?);
        if let Ok(mut c) = self.standings.lock() {
            c.insert(*game, (head, s.clone()));
        }
        Ok((head, s))
    }

    /// The standing of `game` after its record at `head`, replayed from the
    /// store.
    fn rebuild_standing(&self, game: &Hash, head: Head) -> Result<Standing, StoreError> {
        let genesis = self.genesis(game)?;
        let mut standing: Option<Standing> = None;
        for r in self.read(game, 0, Some(head.seq))? {
            let header = r.header()?;
            match (&mut standing, header.into_event()) {
                (None, Ok(e)) => standing = Some(Standing::new(&genesis, e.at_ms)),
                (Some(s), Ok(e)) => s.apply(&e),
                // A kind this library does not know (imported): it changes
                // no role this library knows of.
                (Some(s), Err(LedgerError::UnknownKind(_))) => {
                    s.last_at_ms = r.header()?.at_ms;
                }
                (_, Err(e)) => return Err(e.into()),
            }
        }
        standing.ok_or_else(|| StoreError::Damaged("a game without genesis".into()))
    }

    /// The head of `game` for a writer holding the write lock (`known`, what
    /// the lock guards): the head a commit left, or else read from the
    /// store ([`Store::head`] reads a game's last key backwards, and sled
    /// copies a whole node to step back; a point read of a leaf just
    /// written costs sled a copy of the leaf too), and kept.
    pub(crate) fn head_for_write(
        &self,
        known: &mut WriteHeads,
        game: &Hash,
    ) -> Result<Option<Head>, StoreError> {
        if let Some(h) = known.heads.get(game) {
            return Ok(Some(*h));
        }
        let h = self.head(game)?;
        if let Some(h) = h {
            known.heads.insert(*game, h);
        }
        Ok(h)
    }

    /// The standing of `game` at `head` for a writer holding the write lock,
    /// taken out of the cache (no copy when nothing else holds it) or
    /// replayed from the store. The writer puts back the standing it leaves
    /// after its commit.
    pub(crate) fn take_standing(&self, game: &Hash, head: Head) -> Result<Standing, StoreError> {
        let cached = self.standings.lock().ok().and_then(|mut c| c.remove(game));
        match cached {
            Some((h, s)) if h == head => Ok(Arc::try_unwrap(s).unwrap_or_else(|s| (*s).clone())),
            _ => self.rebuild_standing(game, head),
        }
    }

    /// Appends one record, durably. Returns once the record is on stable
    /// storage. The very same record appended again (a retry) gives its
    /// place with `new: false`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Ledger`] when the record is refused (malformed, bad link,
    /// signature, role, or [`LedgerError::Conflict`] when another record took
    /// its place); storage errors.
    pub fn append(&self, record: Record) -> Result<Appended, StoreError> {
        let mut v = self.append_batch(vec![record])?;
        v.pop()
            .ok_or_else(|| StoreError::Damaged("append wrote nothing".into()))
    }

    /// Signs `body` with `signer` and appends it where the client `expect`s
    /// it, safely retried: when the expected place already holds an event of
    /// the same signer with the same body (the acknowledgement of an earlier
    /// try was lost), that event's place is returned with `new: false`; when
    /// it holds another event, or the chain has not reached it, nothing is
    /// written.
    ///
    /// # Errors
    ///
    /// [`StoreError::Stale`] as above; the errors of [`Store::append`].
    ///
    /// ```
    /// use kifu_ledger::testkit::{sample_game, Cast};
    /// use kifu_ledger::{Body, Color};
    /// use kifu_store::{Expect, Store};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = Store::open(dir.path()).unwrap();
    /// let cast = Cast::new();
    /// let c = sample_game(&cast, "doc");
    /// store.append_batch(c.records.clone()).unwrap();
    /// let body = Body::ClockPressed { player: Color::Black };
    /// let want = Expect::Seq(c.head.seq + 1);
    /// let first = store.append_expecting(&c.game, want, &cast.black, 1, body.clone()).unwrap();
    /// // The retry, a moment later, is recognised.
    /// let again = store.append_expecting(&c.game, want, &cast.black, 2, body).unwrap();
    /// assert_eq!((again.seq, again.new), (first.seq, false));
    /// // A client that has not seen that event is told so.
    /// let stale = store.append_expecting(&c.game, want, &cast.white, 3, Body::ClockPressed { player: Color::White });
    /// assert!(matches!(stale, Err(kifu_store::StoreError::Stale { .. })));
    /// ```
    pub fn append_expecting(
        &self,
        game: &Hash,
        expect: Expect,
        signer: &Keypair,
        at_ms: u64,
        body: Body,
    ) -> Result<Appended, StoreError> {
        for _ in 0..3 {
            let head = self
                .head(game)?
                .ok_or_else(|| StoreError::NoSuchGame(hex::encode(game)))?;
            let target = match expect {
                Expect::Seq(n) => n,
                Expect::After(h) if h == head.hash => head.seq + 1,
                Expect::After(h) => match self.seq_of(game, &h)? {
                    Some(s) => s + 1,
                    None => {
                        return Err(StoreError::Stale {
                            expected_seq: 0,
                            found: format!("no record {} in this game", hex::encode(&h[..8])),
                        })
                    }
                },
            };
            if target == 0 || target > head.seq + 1 {
                return Err(StoreError::Stale {
                    expected_seq: target,
                    found: format!("the chain ends at seq {}", head.seq),
                });
            }
            if target <= head.seq {
                let stored = self
                    .get(game, target)?
                    .ok_or_else(|| StoreError::Damaged(format!("missing seq {target}")))?;
                let hash = stored.hash();
                let same = match stored.decode() {
                    Ok(e) => e.signer == signer.public() && e.body == body,
                    Err(_) => false,
                };
                if same {
                    return Ok(Appended {
                        game: *game,
                        seq: target,
                        hash,
                        cursor: self.cursor_of(game, target)?,
                        new: false,
                    });
                }
                return Err(StoreError::Stale {
                    expected_seq: target,
                    found: format!(
                        "another event ({}) is at that place",
                        hex::encode(&hash[..8])
                    ),
                });
            }
            let rec =
                Event::next(*game, head, at_ms, signer.public(), body.clone()).sign(signer)?;
            match self.append(rec) {
                Err(StoreError::Ledger(LedgerError::Conflict { .. })) => continue,
                other => return other,
            }
        }
        Err(StoreError::Ledger(LedgerError::Conflict {
            expected_seq: 0,
            got_seq: 0,
        }))
    }

    /// The seq of the record with hash `hash` in `game`, searching from the
    /// head back.
    fn seq_of(&self, game: &Hash, hash: &Hash) -> Result<Option<u64>, StoreError> {
        if let Some(g) = self.staged_read().games.get(game) {
            if let Some(i) = g.records.iter().rposition(|r| &r.hash == hash) {
                return Ok(Some(g.first + i as u64));
            }
        }
        let start = event_key(game, 0);
        let end = event_key(game, u64::MAX);
        for kv in self.events.range(start..=end).rev() {
            let (k, v) = kv?;
            let (_, first) = parse_game_key(&k)?;
            for e in layout::entries(first, &v)?.into_iter().rev() {
                if &Record::from_stored(&v[e.at])?.hash() == hash {
                    return Ok(Some(e.seq));
                }
            }
        }
        Ok(None)
    }

    /// Appends records in order, in one transaction and one sync: all are
    /// written or none. Records of several games may be mixed; a genesis may
    /// come first in the batch for its own game.
    ///
    /// # Errors
    ///
    /// As [`Store::append`]; a batch that repeats stored records gives
    /// [`LedgerError::Conflict`].
    pub fn append_batch(&self, records: Vec<Record>) -> Result<Vec<Appended>, StoreError> {
        // Check everything that does not depend on the stored heads first.
        let mut planned: Vec<Planned> = Vec::with_capacity(records.len());
        let mut local: HashMap<Hash, (Head, Arc<Standing>)> = HashMap::new();
        let single = records.len() == 1;
        for record in records {
            let header = record.header()?;
            if header.seq == 0 {
                let (e, g) = check_genesis(&record)?;
                let game = record.hash();
                let head = Head { seq: 0, hash: game };
                local.insert(game, (head, Arc::new(Standing::new(&g, e.at_ms))));
                planned.push(Planned::new(game, head, &record));
                continue;
            }
            let game = header.chain;
            let (prev, standing) = match local.get(&game) {
                Some(x) => x.clone(),
                None => self.standing(&game)?,
            };
            if header.seq <= prev.seq {
                // A retry of something already stored, or a conflict.
                let stored = self.get(&game, header.seq)?;
                if single && stored.as_ref() == Some(&record) {
                    return Ok(vec![Appended {
                        game,
                        seq: header.seq,
                        hash: record.hash(),
                        cursor: self.cursor_of(&game, header.seq)?,
                        new: false,
                    }]);
                }
                return Err(LedgerError::Conflict {
                    expected_seq: prev.seq + 1,
                    got_seq: header.seq,
                }
                .into());
            }
            let event = check_append(&game, &standing, prev, &record)?;
            let mut next = (*standing).clone();
            next.apply(&event);
            let head = Head {
                seq: header.seq,
                hash: record.hash(),
            };
            local.insert(game, (head, Arc::new(next)));
            planned.push(Planned::new(game, head, &record));
        }
        let out = self.commit(&planned, Write::Durable)?;
        if let Ok(mut c) = self.standings.lock() {
            c.extend(local);
        }
        Ok(out)
    }

    /// Writes planned records (already checked) in one transaction, then
    /// (with [`Write::Durable`]) waits until they are on stable storage.
    /// Every write of a chain record but the server's batches goes through
    /// it, and it through [`Store::commit_transaction`] (`commit.rs`), as
    /// the batches do.
    pub(crate) fn commit(
        &self,
        planned: &[Planned],
        how: Write,
    ) -> Result<Vec<Appended>, StoreError> {
        let durable = how == Write::Durable;
        let runs = how == Write::Runs;
        self.writable()?;
        let mut guard = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
        // This path writes `events` directly and checks retries there: the
        // server's staged records go first (`staged.rs`).
        self.settle_locked(&mut guard)?;
        // The heads as stored, under the write lock (no other commit can
        // move them meanwhile).
        let mut before: HashMap<Hash, Option<Head>> = HashMap::new();
        for p in planned {
            if let std::collections::hash_map::Entry::Vacant(v) = before.entry(p.game) {
                v.insert(self.head_for_write(&mut guard, &p.game)?);
            }
        }
        let result = self
            .commit_transaction(&commit::Placement::Events {
                planned,
                before: &before,
                runs,
            })
            .map(|c| {
                planned
                    .iter()
                    .zip(c.first..c.next)
                    .map(|(p, cursor)| Appended {
                        game: p.game,
                        seq: p.head.seq,
                        hash: p.head.hash,
                        cursor,
                        new: true,
                    })
                    .collect::<Vec<_>>()
            });
        // The ticket is taken while the commit is still serialised, so a
        // sync that covers a ticket covers every commit before it.
        let ticket = result.as_ref().ok().map(|_| self.sync.note_written());
        if let Ok(out) = &result {
            for a in out {
                guard.heads.insert(
                    a.game,
                    Head {
                        seq: a.seq,
                        hash: a.hash,
                    },
                );
            }
        }
        drop(guard);
        match result {
            Ok(out) => {
                if !durable {
                    return Ok(out);
                }
                if let Some(t) = ticket {
                    self.sync.wait_durable_ticket(&self.db, t)?;
                }
                if let Some(last) = out.last() {
                    self.note_durable(last.cursor + 1);
                }
                Ok(out)
            }
            Err(TransactionError::Abort(Refuse::Exists(seq))) if planned.len() == 1 => {
                let Planned { game, head, .. } = &planned[0];
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

    /// The feed cursor of the stored record at `seq` of `game`, kept with
    /// the record (in memory while the record is staged, after it in its
    /// `events` value once settled; a store of layout 1, read as it is,
    /// keeps it in the transparency log's index): one lookup, no scan of the
    /// feed. A server answers a resent, identical record with it.
    ///
    /// # Errors
    ///
    /// [`StoreError::Damaged`] when no such record is stored; storage errors.
    pub fn cursor_of(&self, game: &Hash, seq: u64) -> Result<u64, StoreError> {
        let missing = || {
            StoreError::Damaged(format!(
                "game {} seq {seq} is not in the feed",
                hex::encode(game)
            ))
        };
        if let Some(r) = self.staged_read().get(game, seq) {
            return Ok(r.cursor);
        }
        let (_, e) = self.find(game, seq)?.ok_or_else(missing)?;
        match e.cursor {
            Some(c) => Ok(c),
            // Layout 1, not migrated (a copy of a read-only store).
            None => self.v1_leaf_index(game, seq)?.ok_or_else(missing),
        }
    }

    /// Keeps records as fork evidence, outside the chains, durably.
    ///
    /// # Errors
    ///
    /// A record that does not parse; storage errors.
    pub fn keep_evidence(&self, records: &[Record]) -> Result<u64, StoreError> {
        self.writable()?;
        let mut n = 0;
        for r in records {
            let h = r.header()?;
            let hash = r.hash();
            let game = if h.seq == 0 { hash } else { h.chain };
            let mut key = Vec::with_capacity(72);
            key.extend_from_slice(&event_key(&game, h.seq));
            key.extend_from_slice(&hash);
            if self.evidence.insert(key, r.to_stored())?.is_none() {
                n += 1;
            }
        }
        self.sync()?;
        Ok(n)
    }

    /// Every record kept as fork evidence.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value.
    pub fn evidence(&self) -> Result<Vec<Record>, StoreError> {
        let mut out = Vec::new();
        for kv in self.evidence.iter() {
            let (_, v) = kv?;
            out.push(Record::from_stored(&v)?);
        }
        Ok(out)
    }

    /// Every record of every chain, and the fork evidence: what a
    /// verification of the store reads.
    ///
    /// # Errors
    ///
    /// Storage errors, a damaged value.
    pub fn records_for_verification(&self) -> Result<Vec<Record>, StoreError> {
        let mut out = self.all_records()?;
        out.extend(self.evidence()?);
        Ok(out)
    }

    /// What an import of `verdict` writes: the report so far, the records
    /// missing from the store (by game, in seq order), and the index in
    /// `verdict.records()` of each. Keeps fork evidence and refuses as
    /// [`Store::import`] says.
    pub(crate) fn plan_import(
        &self,
        verdict: &ArchiveVerdict,
    ) -> Result<(ImportReport, Vec<Planned>, Vec<usize>), StoreError> {
        let report = verdict.report();
        let mut out = ImportReport::default();
        // Evidence is kept only of records whose signatures were checked.
        let keep = verdict.signatures_checked();
        if keep && !report.forks.is_empty() {
            let hashes: std::collections::HashSet<Hash> = report
                .forks
                .iter()
                .flat_map(|f| f.all.iter().copied())
                .collect();
            let ev: Vec<Record> = verdict
                .records()
                .iter()
                .filter(|r| hashes.contains(&r.hash()))
                .cloned()
                .collect();
            out.evidence = self.keep_evidence(&ev)?;
        }
        if !report.ok() {
            return Err(StoreError::NotVerified(
                report
                    .problems
                    .first()
                    .map(|p| p.to_string())
                    .unwrap_or_default(),
            ));
        }
        // One rule for every write: a kind this library does not know is
        // refused, as `Store::append` refuses it (`check_append`). A
        // verification reports such a record as not interpreted; a store
        // does not keep what it cannot apply.
        if let Some((game, seq, kind)) = report.uninterpreted.first() {
            return Err(StoreError::Unknown {
                game: hex::encode(game),
                seq: *seq,
                kind: *kind,
            });
        }
        // Distinct records, by game, in seq order; the games in the order
        // they first appear in the archive, so that the writes follow the
        // archive (`import_checking` checks it in that order).
        type Entry<'a> = (u64, Hash, Hash, &'a Record, usize);
        let mut by_game: Vec<(Hash, Vec<Entry<'_>>)> = Vec::new();
        let mut game_at: HashMap<Hash, usize> = HashMap::new();
        let mut seen = std::collections::HashSet::with_capacity(verdict.records().len());
        for (i, r) in verdict.records().iter().enumerate() {
            let hash = r.hash();
            if !seen.insert(hash) {
                continue;
            }
            // The verdict read every envelope strictly (it is clean).
            let h = r.link()?;
            let game = if h.seq == 0 { hash } else { h.chain };
            let at = *game_at.entry(game).or_insert_with(|| {
                by_game.push((game, Vec::new()));
                by_game.len() - 1
            });
            by_game[at].1.push((h.seq, hash, h.prev_hash, r, i));
        }
        let mut planned: Vec<Planned> = Vec::with_capacity(seen.len());
        let mut which = Vec::with_capacity(seen.len());
        let mut forks = Vec::new();
        for (game, mut list) in by_game {
            list.sort_by_key(|e| e.0);
            let head = self.head(&game)?;
            let mut grew = false;
            for (seq, hash, prev, r, i) in list {
                match head {
                    Some(h) if seq <= h.seq => {
                        let stored = self.get(&game, seq)?.ok_or_else(|| {
                            StoreError::Damaged(format!("missing record {seq} below the head"))
                        })?;
                        if &stored == r {
                            out.already_present += 1;
                        } else {
                            forks.push((game, seq, stored.hash(), r.clone()));
                        }
                    }
                    _ => {
                        planned.push(Planned {
                            game,
                            head: Head { seq, hash },
                            prev,
                            stored: r.to_stored(),
                        });
                        which.push(i);
                        grew = true;
                    }
                }
            }
            if grew {
                out.games += 1;
            }
        }
        if let Some((game, seq, stored, _)) = forks.first() {
            let imported = forks[0].3.hash();
            if !keep {
                return Err(StoreError::NotVerified(format!(
                    "game {} seq {seq}: the archive's record differs from the stored one",
                    hex::encode(game)
                )));
            }
            let ev: Vec<Record> = forks.iter().map(|f| f.3.clone()).collect();
            self.keep_evidence(&ev)?;
            return Err(StoreError::Fork {
                game: hex::encode(game),
                seq: *seq,
                stored: hex::encode(stored),
                imported: hex::encode(imported),
            });
        }
        Ok((out, planned, which))
    }

    /// Imports the records of a verdict ([`kifu_ledger::archive::verify_archive`]
    /// or [`ArchiveVerdict::of_records`]): writes what is missing, in chunks
    /// of [`IMPORT_CHUNK`] records with one transaction each and one sync
    /// at the end, and skips what is identical. `progress` is told the records done and
    /// the total after each chunk.
    ///
    /// Forks are kept, never discarded: the records of a fork inside the
    /// archive, or an archive record that differs from the stored one at the
    /// same place, are stored as evidence ([`Store::evidence`]) and the import
    /// fails with [`StoreError::Fork`] (or [`StoreError::NotVerified`]),
    /// writing nothing else.
    ///
    /// # Errors
    ///
    /// As above; storage errors.
    pub fn import(
        &self,
        verdict: &ArchiveVerdict,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<ImportReport, StoreError> {
        if !verdict.signatures_checked() {
            return Err(StoreError::NotVerified(
                "the archive's signatures were not checked (see Store::import_checking)".into(),
            ));
        }
        let (mut out, planned, _) = self.plan_import(verdict)?;
        let total = planned.len() as u64;
        let mut done = 0u64;
        progress(0, total);
        for chunk in planned.chunks(IMPORT_CHUNK) {
            // Each chunk is one transaction; one sync at the end makes them
            // all durable (sled recovers a prefix of its transactions, so an
            // interrupted import leaves whole chunks, and importing again
            // completes it).
            self.commit(chunk, Write::Runs)?;
            done += chunk.len() as u64;
            progress(done, total);
        }
        self.sync()?;
        self.forget_standings(&planned);
        out.written = total;
        Ok(out)
    }

    /// Drops the cached standing of every game an import wrote to (the
    /// import's commits do not keep them).
    pub(crate) fn forget_standings(&self, planned: &[Planned]) {
        if let Ok(mut c) = self.standings.lock() {
            for p in planned {
                c.remove(&p.game);
            }
        }
    }

    /// Flushes and syncs everything written so far.
    ///
    /// # Errors
    ///
    /// Storage errors.
    pub fn sync(&self) -> Result<(), StoreError> {
        let (t, next) = {
            let _guard = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
            (self.sync.note_written(), self.next_cursor()?)
        };
        self.sync.wait_durable_ticket(&self.db, t)?;
        self.note_durable(next);
        Ok(())
    }
}

/// A checked record on its way into the commit.
pub(crate) struct Planned {
    game: Hash,
    head: Head,
    prev: Hash,
    stored: Vec<u8>,
}

impl Planned {
    fn new(game: Hash, head: Head, record: &Record) -> Planned {
        Planned {
            game,
            head,
            prev: record
                .header()
                .map(|h| h.prev_hash)
                .unwrap_or(kifu_ledger::ZERO_HASH),
            stored: record.to_stored(),
        }
    }
}
