//! The transparency log kept by the store.
//!
//! Every record, in feed order, is one leaf: leaf number = feed cursor. The
//! leaf data is 72 bytes, `game id (32) || seq (u64 big-endian) || record
//! hash (32)`, so a monitor reading only the log knows which game and place
//! each leaf stands for, and a bundle can show that no later leaf belongs
//! to its game (`docs/TRANSPARENCY.md`).
//!
//! The tree's stored hashes live in the sled tree `tlog` and are written in
//! the same transaction as the record itself (`TxLog`), so the log
//! and the chains can never disagree after a crash. Keys in that tree:
//!
//! - `"b" || first leaf (u64 BE)` (9 bytes): every complete-subtree hash
//!   that the appends of leaves from `first` on (up to the next such key)
//!   completed: entries of `level (1) || index (u64 BE) || hash (32)`,
//!   sorted. One key per transaction, or per 64 leaves (`HASH_PIECE`) of a
//!   larger one, instead of about two per leaf: sled's cost is per key;
//! - `level (1 byte) || index (u64 BE)` (9 bytes): a complete-subtree hash,
//!   as stores written before the batched form keep them (and the catch-up
//!   of a store older than the log writes them); read first;
//! - `"f"`: the tree's right edge, `size (u64 BE)` then the hash of the
//!   complete subtree for each one-bit of `size`, lowest level first: what
//!   the next appends need, read once per transaction;
//! - `"size"`: the number of leaves (u64 BE);
//! - `"vkey"`: the verifier key of the operator's last checkpoint;
//! - `"i" || game || seq (u64 BE)` (41 bytes): the leaf index of a record,
//!   in stores of layout 1 only (layout 2 keeps it with the record,
//!   `layout.rs`);
//! - `"c" || size (u64 BE) || slot (8 bytes)` (17 bytes, first byte `c` =
//!   99 > 63, the highest level, so never a hash key): a signed checkpoint
//!   note of that size. The slot tells apart notes of one size that are
//!   not the same checkpoint: it is taken from the note's origin line and
//!   its first signature's key name and key hash (`checkpoint_slot`), so
//!   a checkpoint signed after an operator key rotation, or for another
//!   origin, is kept beside the earlier one instead of replacing it.
//!   Stores written before slots have `"c" || size` (9 bytes), still read;
//! - `"lastcp"`: the key of the checkpoint saved last, which is the one
//!   read among several of the largest size.

use kifu_ledger::Hash;
use kifu_tlog::tree::{self as merkle, HashReader, HashWriter, TreeError};
use sled::transaction::{
    ConflictableTransactionError, TransactionalTree, UnabortableTransactionError,
};

use crate::{Refuse, Store, StoreError};

/// Name of the sled tree holding the log.
pub(crate) const TREE: &str = "tlog";
const SIZE_KEY: &[u8] = b"size";
const LOG_KEY: &[u8] = b"vkey";

pub use kifu_tlog::leaf::Leaf;

fn hash_key(level: u8, index: u64) -> [u8; 9] {
    let mut k = [0u8; 9];
    k[0] = level;
    k[1..].copy_from_slice(&index.to_be_bytes());
    k
}

const FRONTIER_KEY: &[u8] = b"f";
/// Leaves per `"b"` entry at most: a commit of more leaves (an import's
/// chunk) gets several entries, so that no entry, and no sled leaf of
/// them, grows past sled's threshold for writing a page as a blob file.
pub(crate) const HASH_PIECE: u64 = 64;
/// Bytes of one entry of a `"b"` value.
const ENTRY: usize = 41;

fn batch_key(first: u64) -> [u8; 9] {
    let mut k = [0u8; 9];
    k[0] = b'b';
    k[1..].copy_from_slice(&first.to_be_bytes());
    k
}

/// The leaf whose append completes the subtree `(level, index)`: the last
/// leaf under it. `None` beyond `u64`.
fn completing_leaf(level: u8, index: u64) -> Option<u64> {
    if level >= 64 {
        return None;
    }
    let after = index.checked_add(1)?;
    if after > (u64::MAX >> level) {
        return None;
    }
    Some((after << level) - 1)
}

/// Finds `(level, index)` in a `"b"` value (sorted entries).
fn find_in_batch(v: &[u8], level: u8, index: u64) -> Option<kifu_tlog::Hash> {
    if !v.len().is_multiple_of(ENTRY) {
        return None;
    }
    let mut want = [0u8; 9];
    want[0] = level;
    want[1..].copy_from_slice(&index.to_be_bytes());
    let n = v.len() / ENTRY;
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let e = &v[mid * ENTRY..(mid + 1) * ENTRY];
        match e[..9].cmp(&want[..]) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return to_hash(&e[9..]),
        }
    }
    None
}

/// The right edge of a tree of `size` leaves, as kept under `"f"`.
fn frontier_value<R: HashReader>(r: &R, size: u64) -> Result<Vec<u8>, TreeError<R::Error>> {
    let mut v = size.to_be_bytes().to_vec();
    for level in 0..64u8 {
        if size >> level & 1 == 1 {
            let index = (size >> level) - 1;
            let h = r
                .get(level, index)
                .map_err(TreeError::Store)?
                .ok_or(TreeError::Missing { level, index })?;
            v.extend_from_slice(&h);
        }
    }
    Ok(v)
}

/// The hashes of a `"f"` value, by level, if it is for `size`.
fn parse_frontier(
    v: &[u8],
    size: u64,
) -> Option<std::collections::BTreeMap<(u8, u64), kifu_tlog::Hash>> {
    let at = to_u64(v.get(..8)?)?;
    if at != size || v.len() != 8 + 32 * size.count_ones() as usize {
        return None;
    }
    let mut out = std::collections::BTreeMap::new();
    let mut hashes = v[8..].chunks(32);
    for level in 0..64u8 {
        if size >> level & 1 == 1 {
            out.insert((level, (size >> level) - 1), to_hash(hashes.next()?)?);
        }
    }
    Some(out)
}

pub(crate) fn index_key(game: &Hash, seq: u64) -> [u8; 41] {
    let mut k = [0u8; 41];
    k[0] = b'i';
    k[1..33].copy_from_slice(game);
    k[33..].copy_from_slice(&seq.to_be_bytes());
    k
}

/// The prefix of every checkpoint of `size` leaves (and the whole key of
/// one kept before slots).
fn checkpoint_key(size: u64) -> [u8; 9] {
    let mut k = [0u8; 9];
    k[0] = b'c';
    k[1..].copy_from_slice(&size.to_be_bytes());
    k
}

const LAST_CHECKPOINT_KEY: &[u8] = b"lastcp";

/// Where a checkpoint note is kept among those of its size: 8 bytes of
/// SHA-256 over its origin (the note's first line) and its first
/// signature's key name and key hash (C2SP `signed-note`). The same
/// checkpoint signed again by the same key, or cosigned since, lands in
/// the same slot and replaces the copy kept; another key or another origin
/// gets its own. Text that is not a signed note is slotted by its first
/// line alone.
pub(crate) fn checkpoint_slot(note: &str) -> [u8; 8] {
    let origin = note.lines().next().unwrap_or("");
    let mut data = format!("kifu checkpoint slot\n{origin}\n");
    if let Some(sig) = kifu_tlog::note::Note::parse(note)
        .ok()
        .and_then(|n| n.signatures.into_iter().next())
    {
        data.push_str(&format!("{}\n{:08x}\n", sig.name, sig.key_id));
    }
    let h = kifu_tlog::leaf_hash(data.as_bytes());
    let mut slot = [0u8; 8];
    slot.copy_from_slice(&h[..8]);
    slot
}

fn checkpoint_slot_key(size: u64, note: &str) -> [u8; 17] {
    let mut k = [0u8; 17];
    k[..9].copy_from_slice(&checkpoint_key(size));
    k[9..].copy_from_slice(&checkpoint_slot(note));
    k
}

fn checkpoint_text(v: &[u8]) -> Result<String, StoreError> {
    String::from_utf8(v.to_vec())
        .map_err(|_| StoreError::Damaged("a kept checkpoint is not UTF-8".into()))
}

fn to_hash(v: &[u8]) -> Option<kifu_tlog::Hash> {
    v.try_into().ok()
}

fn to_u64(v: &[u8]) -> Option<u64> {
    v.try_into().ok().map(u64::from_be_bytes)
}

/// The log's hashes inside a sled transaction.
struct TxHashes<'a>(&'a TransactionalTree);

impl HashReader for TxHashes<'_> {
    type Error = UnabortableTransactionError;
    fn get(&self, level: u8, index: u64) -> Result<Option<kifu_tlog::Hash>, Self::Error> {
        Ok(self
            .0
            .get(hash_key(level, index))?
            .and_then(|v| to_hash(&v)))
    }
}

impl HashWriter for TxHashes<'_> {
    fn put(&mut self, level: u8, index: u64, hash: kifu_tlog::Hash) -> Result<(), Self::Error> {
        self.0.insert(&hash_key(level, index)[..], &hash[..])?;
        Ok(())
    }
}

/// The log's hashes read outside a transaction. Stored hashes never change,
/// so reads for any size up to the one read first are consistent.
struct TreeHashes<'a>(&'a sled::Tree);

impl HashReader for TreeHashes<'_> {
    type Error = sled::Error;
    fn get(&self, level: u8, index: u64) -> Result<Option<kifu_tlog::Hash>, Self::Error> {
        if let Some(v) = self.0.get(hash_key(level, index))? {
            return Ok(to_hash(&v));
        }
        // The transaction that appended the completing leaf wrote it.
        let Some(leaf) = completing_leaf(level, index) else {
            return Ok(None);
        };
        match self.0.range(batch_key(0)..=batch_key(leaf)).next_back() {
            Some(kv) => Ok(find_in_batch(&kv?.1, level, index)),
            None => Ok(None),
        }
    }
}

impl HashWriter for TreeHashes<'_> {
    fn put(&mut self, level: u8, index: u64, hash: kifu_tlog::Hash) -> Result<(), Self::Error> {
        self.0.insert(&hash_key(level, index)[..], &hash[..])?;
        Ok(())
    }
}

fn damaged(s: String) -> ConflictableTransactionError<Refuse> {
    ConflictableTransactionError::Abort(Refuse::Damaged(s))
}

/// The log's side of one append transaction: leaves appended in feed order,
/// each written with the hashes it completes.
///
/// The size is read once, and every hash written in the transaction is kept
/// here too, so the left siblings a new leaf needs are read from this map
/// (only those of the tree's right edge before the transaction come from
/// sled). A transactional read costs about as much as a write in sled; this
/// removes all but a logarithmic number of them per transaction.
pub(crate) struct TxLog<'a> {
    tx: &'a TransactionalTree,
    first: u64,
    size: u64,
    /// The right edge before the transaction, then every hash written.
    known: std::collections::BTreeMap<(u8, u64), kifu_tlog::Hash>,
    /// The hashes this transaction completes.
    fresh: std::collections::BTreeMap<(u8, u64), kifu_tlog::Hash>,
}

impl HashReader for TxLog<'_> {
    type Error = UnabortableTransactionError;
    fn get(&self, level: u8, index: u64) -> Result<Option<kifu_tlog::Hash>, Self::Error> {
        Ok(self
            .fresh
            .get(&(level, index))
            .or_else(|| self.known.get(&(level, index)))
            .copied())
    }
}

impl HashWriter for TxLog<'_> {
    fn put(&mut self, level: u8, index: u64, hash: kifu_tlog::Hash) -> Result<(), Self::Error> {
        self.fresh.insert((level, index), hash);
        Ok(())
    }
}

impl<'a> TxLog<'a> {
    /// Starts appending at leaf `next` (the feed's next cursor): the log must
    /// have exactly that many leaves.
    pub(crate) fn start(
        tx: &'a TransactionalTree,
        next: u64,
    ) -> Result<TxLog<'a>, ConflictableTransactionError<Refuse>> {
        let size = tx.get(SIZE_KEY)?.and_then(|v| to_u64(&v)).unwrap_or(0);
        if size != next {
            return Err(damaged(format!(
                "the transparency log has {size} leaves but the feed is at {next}"
            )));
        }
        let known = match tx.get(FRONTIER_KEY)?.and_then(|v| parse_frontier(&v, size)) {
            Some(k) => k,
            // A store written before the right edge was kept: its hashes
            // are under their own keys.
            None => {
                let v = frontier_value(&TxHashes(tx), size).map_err(|e| match e {
                    TreeError::Store(e) => e.into(),
                    other => damaged(other.to_string()),
                })?;
                parse_frontier(&v, size)
                    .ok_or_else(|| damaged("the log's right edge does not parse".into()))?
            }
        };
        Ok(TxLog {
            tx,
            first: size,
            size,
            known,
            fresh: std::collections::BTreeMap::new(),
        })
    }

    /// Appends the record at feed cursor `index` as leaf `index` (the next
    /// leaf).
    pub(crate) fn append(
        &mut self,
        index: u64,
        game: &Hash,
        seq: u64,
        record_hash: &Hash,
    ) -> Result<(), ConflictableTransactionError<Refuse>> {
        if index != self.size {
            return Err(damaged(format!(
                "the transparency log has {} leaves but the feed is at {index}",
                self.size
            )));
        }
        let leaf = Leaf {
            game: *game,
            seq,
            record_hash: *record_hash,
        };
        merkle::append(self, index, leaf.hash()).map_err(|e| match e {
            TreeError::Store(e) => e.into(),
            other => damaged(other.to_string()),
        })?;
        self.size += 1;
        Ok(())
    }

    /// Writes the hashes completed (one key per [`HASH_PIECE`] leaves), the
    /// new right edge and the new size. The leaf index (= feed cursor) is
    /// kept with each record (`layout.rs`).
    pub(crate) fn finish(mut self) -> Result<(), ConflictableTransactionError<Refuse>> {
        if self.size == self.first {
            return Ok(());
        }
        // Each hash goes to the entry of the leaf that completed it; the
        // entries stay sorted, as the map is.
        let mut pieces: std::collections::BTreeMap<u64, Vec<u8>> = Default::default();
        for ((level, index), h) in &self.fresh {
            let piece = completing_leaf(*level, *index)
                .and_then(|leaf| leaf.checked_sub(self.first))
                .map(|k| self.first + k - k % HASH_PIECE)
                .ok_or_else(|| damaged(format!("hash ({level}, {index}) out of place")))?;
            let v = pieces.entry(piece).or_default();
            v.push(*level);
            v.extend_from_slice(&index.to_be_bytes());
            v.extend_from_slice(h);
        }
        for (first, v) in pieces {
            self.tx.insert(&batch_key(first)[..], v)?;
        }
        let fresh = std::mem::take(&mut self.fresh);
        self.known.extend(fresh);
        let edge = frontier_value(&self, self.size).map_err(|e| damaged(e.to_string()))?;
        self.tx.insert(FRONTIER_KEY, edge)?;
        self.tx.insert(SIZE_KEY, &self.size.to_be_bytes()[..])?;
        Ok(())
    }
}

/// What undoing appends must put back: the log's size and right edge as
/// they were.
pub(crate) struct UndoPoint {
    size: Option<sled::IVec>,
    edge: Option<sled::IVec>,
}

/// The log's size and right edge now.
pub(crate) fn undo_point(tl: &sled::Tree) -> Result<UndoPoint, StoreError> {
    Ok(UndoPoint {
        size: tl.get(SIZE_KEY)?,
        edge: tl.get(FRONTIER_KEY)?,
    })
}

/// The keys of the `"b"` entries of leaves `from` to `to` (exclusive).
pub(crate) fn batch_keys(
    tl: &sled::Tree,
    from: u64,
    to: u64,
) -> Result<Vec<sled::IVec>, StoreError> {
    Ok(tl
        .range(batch_key(from)..batch_key(to))
        .keys()
        .collect::<Result<Vec<_>, _>>()?)
}

/// Inside a transaction: removes the `"b"` entries `keys` (hashes written
/// by the commits undone, [`batch_keys`]) and puts back the size and right
/// edge of `point`.
pub(crate) fn undo_in_tx(
    tl: &TransactionalTree,
    keys: &[sled::IVec],
    point: &UndoPoint,
) -> Result<(), UnabortableTransactionError> {
    for k in keys {
        tl.remove(k)?;
    }
    match &point.size {
        Some(v) => tl.insert(SIZE_KEY, v.clone())?,
        None => tl.remove(SIZE_KEY)?,
    };
    match &point.edge {
        Some(v) => tl.insert(FRONTIER_KEY, v.clone())?,
        None => tl.remove(FRONTIER_KEY)?,
    };
    Ok(())
}

fn tree_err(e: TreeError<sled::Error>) -> StoreError {
    match e {
        TreeError::Store(e) => StoreError::Sled(e),
        TreeError::Missing { .. } => StoreError::Damaged(e.to_string()),
        TreeError::OutOfRange(s) => StoreError::Log(s),
    }
}

impl Store {
    /// Brings the log up to the feed: a store written before the log
    /// existed gets its leaves now, once, in feed order.
    pub(crate) fn tlog_catch_up(&self) -> Result<(), StoreError> {
        let mut size = self.tree_size()?;
        let feed_len = self.len() as u64;
        while size < feed_len {
            let items = self.feed(size.checked_sub(1), 4096)?;
            if items.is_empty() {
                break;
            }
            let tl = &self.tlog;
            for it in items {
                if it.cursor != size {
                    return Err(StoreError::Damaged(format!(
                        "feed cursor {} where {size} was expected",
                        it.cursor
                    )));
                }
                let leaf = Leaf {
                    game: it.game,
                    seq: it.seq,
                    record_hash: it.record.hash(),
                };
                merkle::append(&mut TreeHashes(tl), size, leaf.hash()).map_err(tree_err)?;
                tl.insert(&index_key(&it.game, it.seq)[..], &size.to_be_bytes()[..])?;
                size += 1;
                tl.insert(SIZE_KEY, &size.to_be_bytes()[..])?;
            }
            let edge = frontier_value(&TreeHashes(tl), size).map_err(tree_err)?;
            tl.insert(FRONTIER_KEY, edge)?;
        }
        Ok(())
    }

    /// The number of leaves in the log (= records in the feed).
    pub fn tree_size(&self) -> Result<u64, StoreError> {
        Ok(self
            .tlog
            .get(SIZE_KEY)?
            .and_then(|v| to_u64(&v))
            .unwrap_or(0))
    }

    fn check_size(&self, size: u64) -> Result<(), StoreError> {
        let now = self.tree_size()?;
        if size > now {
            return Err(StoreError::Log(format!(
                "the log has {now} leaves, not {size}"
            )));
        }
        Ok(())
    }

    /// The RFC 6962 root of the first `size` leaves.
    pub fn tree_root(&self, size: u64) -> Result<kifu_tlog::Hash, StoreError> {
        self.check_size(size)?;
        merkle::root(&TreeHashes(&self.tlog), size).map_err(tree_err)
    }

    /// Inclusion proof of leaf `index` in the tree of `size` leaves.
    pub fn inclusion_proof(
        &self,
        index: u64,
        size: u64,
    ) -> Result<Vec<kifu_tlog::Hash>, StoreError> {
        self.check_size(size)?;
        merkle::prove_inclusion(&TreeHashes(&self.tlog), index, size).map_err(tree_err)
    }

    /// Consistency proof from `old` to `new` leaves.
    pub fn consistency_proof(
        &self,
        old: u64,
        new: u64,
    ) -> Result<Vec<kifu_tlog::Hash>, StoreError> {
        self.check_size(new)?;
        merkle::prove_consistency(&TreeHashes(&self.tlog), old, new).map_err(tree_err)
    }

    /// Range proof: with the leaves `start..size`, gives the root of `size`.
    pub fn range_proof(&self, start: u64, size: u64) -> Result<Vec<kifu_tlog::Hash>, StoreError> {
        self.check_size(size)?;
        kifu_tlog::range::prove_range(&TreeHashes(&self.tlog), start, size).map_err(tree_err)
    }

    /// The leaf index of a record (its feed cursor).
    pub fn leaf_index(&self, game: &Hash, seq: u64) -> Result<Option<u64>, StoreError> {
        match self.cursor_of(game, seq) {
            Ok(c) => Ok(Some(c)),
            Err(StoreError::Damaged(_)) if self.get(game, seq)?.is_none() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The leaf index kept by layout 1 (`layout.rs`).
    pub(crate) fn v1_leaf_index(&self, game: &Hash, seq: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .tlog
            .get(index_key(game, seq))?
            .and_then(|v| to_u64(&v)))
    }

    /// The leaves `from..to` (read from the feed and the records).
    pub fn leaves(&self, from: u64, to: u64) -> Result<Vec<Leaf>, StoreError> {
        let mut out = Vec::with_capacity(to.saturating_sub(from) as usize);
        let mut after = from.checked_sub(1);
        while (out.len() as u64) < to.saturating_sub(from) {
            let want = (to - from) as usize - out.len();
            let items = self.feed(after, want.min(4096))?;
            if items.is_empty() {
                return Err(StoreError::Log(format!(
                    "the log has no leaf {}",
                    from + out.len() as u64
                )));
            }
            for it in items {
                after = Some(it.cursor);
                out.push(Leaf {
                    game: it.game,
                    seq: it.seq,
                    record_hash: it.record.hash(),
                });
            }
        }
        Ok(out)
    }

    /// The C2SP tlog-tiles tile `(level, index)` of the tree of `size`
    /// leaves: its width and bytes, or `None` when it has no such tile.
    pub fn tile(
        &self,
        level: u8,
        index: u64,
        size: u64,
    ) -> Result<Option<kifu_tlog::tiles::Tile>, StoreError> {
        self.check_size(size)?;
        kifu_tlog::tiles::tile(&TreeHashes(&self.tlog), level, index, size).map_err(tree_err)
    }

    /// The entry bundle `index` of the tree of `size` leaves: its width and bytes.
    pub fn entry_bundle(
        &self,
        index: u64,
        size: u64,
    ) -> Result<Option<kifu_tlog::tiles::Tile>, StoreError> {
        let width = kifu_tlog::tiles::tile_width(0, index, size);
        if width == 0 {
            return Ok(None);
        }
        self.check_size(size)?;
        let start = index * kifu_tlog::tiles::TILE_WIDTH;
        let leaves = self.leaves(start, start + width)?;
        let bytes: Vec<[u8; 72]> = leaves.iter().map(Leaf::to_bytes).collect();
        let bundle = kifu_tlog::tiles::entry_bundle(bytes.iter().map(|b| &b[..]))
            .ok_or_else(|| StoreError::Log("entry too long".into()))?;
        Ok(Some((width, bundle)))
    }

    /// Keeps a signed checkpoint note (its size given by the caller, who
    /// parsed it), beside any other checkpoint of the same size that is
    /// not the same one (`checkpoint_slot`). Of the largest size kept,
    /// the one saved last is what `latest_checkpoint` returns.
    pub fn save_checkpoint(&self, size: u64, note: &str) -> Result<(), StoreError> {
        self.writable()?;
        let key = checkpoint_slot_key(size, note);
        let mut batch = sled::Batch::default();
        batch.insert(&key[..], note.as_bytes());
        batch.insert(LAST_CHECKPOINT_KEY, &key[..]);
        self.tlog.apply_batch(batch)?;
        self.sync()
    }

    /// The keys and notes of every checkpoint of `size` leaves.
    fn checkpoints_of_size(&self, size: u64) -> Result<Vec<(sled::IVec, sled::IVec)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.tlog.scan_prefix(checkpoint_key(size)) {
            out.push(kv?);
        }
        Ok(out)
    }

    /// Of several checkpoints of one size, the one saved last (when it is
    /// among them), else the last in key order.
    fn newest_of(
        &self,
        mut kept: Vec<(sled::IVec, sled::IVec)>,
    ) -> Result<Option<String>, StoreError> {
        let last = self.tlog.get(LAST_CHECKPOINT_KEY)?;
        let pick = match kept
            .iter()
            .position(|(k, _)| last.as_ref().is_some_and(|l| l == k))
        {
            Some(i) => Some(kept.swap_remove(i)),
            None => kept.pop(),
        };
        pick.map(|(_, v)| checkpoint_text(&v)).transpose()
    }

    /// The signed checkpoint of the largest size kept, if any (of several
    /// of that size, the one saved last).
    pub fn latest_checkpoint(&self) -> Result<Option<(u64, String)>, StoreError> {
        let Some(kv) = self.tlog.scan_prefix(b"c").next_back() else {
            return Ok(None);
        };
        let (k, _) = kv?;
        let size = k
            .get(1..9)
            .and_then(to_u64)
            .ok_or_else(|| StoreError::Damaged("a kept checkpoint's key is too short".into()))?;
        let kept = self.checkpoints_of_size(size)?;
        Ok(self.newest_of(kept)?.map(|text| (size, text)))
    }

    /// The kept checkpoint of exactly `size` leaves (of several, the one
    /// saved last).
    pub fn checkpoint_at(&self, size: u64) -> Result<Option<String>, StoreError> {
        let kept = self.checkpoints_of_size(size)?;
        self.newest_of(kept)
    }

    /// Every kept checkpoint of exactly `size` leaves, in key order.
    pub fn checkpoints_at(&self, size: u64) -> Result<Vec<String>, StoreError> {
        self.checkpoints_of_size(size)?
            .iter()
            .map(|(_, v)| checkpoint_text(v))
            .collect()
    }

    /// Every kept checkpoint, by size (of one size, in key order).
    pub fn all_checkpoints(&self) -> Result<Vec<(u64, String)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.tlog.scan_prefix(b"c") {
            let (k, v) = kv?;
            // `"c" || size` or `"c" || size || slot`; `c` also starts no
            // other key of this tree.
            if k.len() != 9 && k.len() != 17 {
                continue;
            }
            let size = k.get(1..9).and_then(to_u64).ok_or_else(|| {
                StoreError::Damaged("a kept checkpoint's key is too short".into())
            })?;
            out.push((size, checkpoint_text(&v)?));
        }
        Ok(out)
    }

    /// Remembers the operator's verifier key (for bundles).
    pub fn set_log_key(&self, vkey: &str) -> Result<(), StoreError> {
        self.writable()?;
        self.tlog.insert(LOG_KEY, vkey.as_bytes())?;
        Ok(())
    }

    /// The operator's verifier key, once a checkpoint was signed.
    pub fn log_key(&self) -> Result<Option<String>, StoreError> {
        Ok(self
            .tlog
            .get(LOG_KEY)?
            .map(|v| String::from_utf8_lossy(&v).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store written before checkpoints had slots keeps `"c" || size`:
    /// it is still read, and a later checkpoint of that size is kept beside
    /// it.
    #[test]
    fn a_checkpoint_kept_before_slots_is_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .tlog
            .insert(&checkpoint_key(12)[..], &b"legacy twelve"[..])
            .unwrap();
        assert_eq!(
            store.latest_checkpoint().unwrap(),
            Some((12, "legacy twelve".to_string()))
        );
        assert_eq!(
            store.checkpoint_at(12).unwrap().as_deref(),
            Some("legacy twelve")
        );
        store.save_checkpoint(12, "another origin").unwrap();
        assert_eq!(store.checkpoints_at(12).unwrap().len(), 2);
        assert_eq!(
            store.latest_checkpoint().unwrap(),
            Some((12, "another origin".to_string()))
        );
        store.save_checkpoint(11, "smaller").unwrap();
        assert_eq!(
            store.latest_checkpoint().unwrap(),
            Some((12, "another origin".to_string()))
        );
    }
}
