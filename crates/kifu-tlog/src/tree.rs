//! The incremental tree: stored complete-subtree hashes, roots and proofs.
//!
//! A stored hash at `(level, index)` is `MTH(D[index * 2^level : (index + 1) * 2^level])`
//! in RFC 9162's notation: the root of a *complete* subtree. Once written it
//! never changes, because leaves are only appended. Proof generation follows
//! the recursive definitions of RFC 9162 sections 2.1.3.1 (`PATH`) and
//! 2.1.4.1 (`SUBPROOF`); every `MTH` they need is either a stored complete
//! subtree or is folded from `O(log n)` of them.

use crate::hash::{empty_root, node_hash, split_point, Hash};

/// Highest level a stored hash can have (a subtree of 2^63 leaves).
pub const MAX_LEVEL: u8 = 63;

/// Reads stored complete-subtree hashes.
pub trait HashReader {
    /// The storage's own error.
    type Error: std::fmt::Display;
    /// The hash of the complete subtree at `(level, index)`, if stored.
    fn get(&self, level: u8, index: u64) -> Result<Option<Hash>, Self::Error>;
}

/// Writes stored complete-subtree hashes (the append side).
pub trait HashWriter: HashReader {
    /// Stores the hash of the complete subtree at `(level, index)`.
    fn put(&mut self, level: u8, index: u64, hash: Hash) -> Result<(), Self::Error>;
}

/// What can go wrong while reading or growing the tree.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TreeError<E> {
    /// The storage failed.
    #[error("tree storage: {0}")]
    Store(E),
    /// A hash that a tree of this size must have is not stored.
    #[error("tree storage is missing the hash at level {level}, index {index}")]
    Missing {
        /// Level of the missing hash.
        level: u8,
        /// Index of the missing hash within its level.
        index: u64,
    },
    /// The request does not fit the tree (an index beyond the size, an old
    /// size larger than the new one, ...).
    #[error("{0}")]
    OutOfRange(String),
}

fn stored<R: HashReader>(r: &R, level: u8, index: u64) -> Result<Hash, TreeError<R::Error>> {
    r.get(level, index)
        .map_err(TreeError::Store)?
        .ok_or(TreeError::Missing { level, index })
}

/// Appends a leaf hash as leaf number `size` of a tree of `size` leaves,
/// storing it and every complete subtree it completes. Returns the number
/// of hashes written (1 + the trailing one-bits of `size`).
pub fn append<W: HashWriter>(w: &mut W, size: u64, leaf: Hash) -> Result<u32, TreeError<W::Error>> {
    if size == u64::MAX {
        return Err(TreeError::OutOfRange("the tree is full".into()));
    }
    w.put(0, size, leaf).map_err(TreeError::Store)?;
    let mut written = 1;
    let (mut level, mut index, mut hash) = (0u8, size, leaf);
    // Leaf `size` closes one complete subtree per trailing one-bit: each time
    // it is a right child, its left sibling is already stored.
    while index & 1 == 1 {
        let left = stored(w, level, index - 1)?;
        hash = node_hash(&left, &hash);
        level += 1;
        index >>= 1;
        w.put(level, index, hash).map_err(TreeError::Store)?;
        written += 1;
    }
    Ok(written)
}

/// `MTH(D[lo:hi])` for `lo < hi`, where `lo` is a multiple of the largest
/// power of two below `hi - lo` (true of every range RFC 9162's recursions
/// visit, and of `[0, n)`).
pub fn subtree_hash<R: HashReader>(r: &R, lo: u64, hi: u64) -> Result<Hash, TreeError<R::Error>> {
    if lo >= hi {
        return Err(TreeError::OutOfRange(format!("empty range {lo}..{hi}")));
    }
    let n = hi - lo;
    if n.is_power_of_two() && lo.is_multiple_of(n) {
        let level = n.trailing_zeros() as u8;
        return stored(r, level, lo >> level);
    }
    if n.is_power_of_two() {
        return Err(TreeError::OutOfRange(format!(
            "range {lo}..{hi} is not aligned"
        )));
    }
    let k = split_point(n);
    let left = subtree_hash(r, lo, lo + k)?;
    let right = subtree_hash(r, lo + k, hi)?;
    Ok(node_hash(&left, &right))
}

/// The root hash of the tree of the first `size` leaves.
pub fn root<R: HashReader>(r: &R, size: u64) -> Result<Hash, TreeError<R::Error>> {
    if size == 0 {
        return Ok(empty_root());
    }
    subtree_hash(r, 0, size)
}

/// The audit path of leaf `index` in the tree of `size` leaves:
/// RFC 9162 2.1.3.1 `PATH(m, D[n])`, nearest sibling first.
pub fn prove_inclusion<R: HashReader>(
    r: &R,
    index: u64,
    size: u64,
) -> Result<Vec<Hash>, TreeError<R::Error>> {
    if index >= size {
        return Err(TreeError::OutOfRange(format!(
            "leaf {index} is not in a tree of {size} leaves"
        )));
    }
    let mut out = Vec::new();
    path(r, index, 0, size, &mut out)?;
    Ok(out)
}

fn path<R: HashReader>(
    r: &R,
    m: u64,
    lo: u64,
    hi: u64,
    out: &mut Vec<Hash>,
) -> Result<(), TreeError<R::Error>> {
    let n = hi - lo;
    if n == 1 {
        return Ok(());
    }
    let k = split_point(n);
    if m < k {
        path(r, m, lo, lo + k, out)?;
        out.push(subtree_hash(r, lo + k, hi)?);
    } else {
        path(r, m - k, lo + k, hi, out)?;
        out.push(subtree_hash(r, lo, lo + k)?);
    }
    Ok(())
}

/// The consistency proof from the tree of `old` leaves to the tree of `new`
/// leaves: RFC 9162 2.1.4.1 `PROOF(m, D[n])`. Empty when `old == new`;
/// `old` must be at least 1.
pub fn prove_consistency<R: HashReader>(
    r: &R,
    old: u64,
    new: u64,
) -> Result<Vec<Hash>, TreeError<R::Error>> {
    if old == 0 || old > new {
        return Err(TreeError::OutOfRange(format!(
            "no consistency proof from size {old} to size {new} (need 1 <= old <= new)"
        )));
    }
    let mut out = Vec::new();
    subproof(r, old, 0, new, true, &mut out)?;
    Ok(out)
}

fn subproof<R: HashReader>(
    r: &R,
    m: u64,
    lo: u64,
    hi: u64,
    whole: bool,
    out: &mut Vec<Hash>,
) -> Result<(), TreeError<R::Error>> {
    let n = hi - lo;
    if m == n {
        if !whole {
            out.push(subtree_hash(r, lo, hi)?);
        }
        return Ok(());
    }
    let k = split_point(n);
    if m <= k {
        subproof(r, m, lo, lo + k, whole, out)?;
        out.push(subtree_hash(r, lo + k, hi)?);
    } else {
        subproof(r, m - k, lo + k, hi, false, out)?;
        out.push(subtree_hash(r, lo, lo + k)?);
    }
    Ok(())
}

/// Stored hashes in memory, one vector per level.
#[derive(Debug, Clone, Default)]
pub struct MemStore {
    levels: Vec<Vec<Hash>>,
}

impl HashReader for MemStore {
    type Error = std::convert::Infallible;
    fn get(&self, level: u8, index: u64) -> Result<Option<Hash>, Self::Error> {
        Ok(self
            .levels
            .get(level as usize)
            .and_then(|l| usize::try_from(index).ok().and_then(|i| l.get(i)))
            .copied())
    }
}

impl HashWriter for MemStore {
    fn put(&mut self, level: u8, index: u64, hash: Hash) -> Result<(), Self::Error> {
        let level = level as usize;
        while self.levels.len() <= level {
            self.levels.push(Vec::new());
        }
        let l = &mut self.levels[level];
        let i = index as usize;
        if i == l.len() {
            l.push(hash);
        } else if i < l.len() {
            l[i] = hash;
        } else {
            l.resize(i, [0; 32]);
            l.push(hash);
        }
        Ok(())
    }
}

/// A whole log in memory: a [`MemStore`] and its size. For tests, benches
/// and verifiers that rebuild a tree from its leaves.
#[derive(Debug, Clone, Default)]
pub struct MemTree {
    store: MemStore,
    size: u64,
}

type Never = std::convert::Infallible;

impl MemTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of leaves.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Appends the leaf whose data is `data` (hashed with the `0x00` prefix).
    pub fn push(&mut self, data: &[u8]) {
        self.push_hash(crate::hash::leaf_hash(data));
    }

    /// Appends a leaf by its leaf hash.
    pub fn push_hash(&mut self, leaf: Hash) {
        // A MemStore cannot fail and always holds the left siblings it wrote.
        if append(&mut self.store, self.size, leaf).is_ok() {
            self.size += 1;
        }
    }

    /// The stored hashes.
    pub fn store(&self) -> &MemStore {
        &self.store
    }

    /// The root of the first `size` leaves.
    pub fn root_at(&self, size: u64) -> Result<Hash, TreeError<Never>> {
        if size > self.size {
            return Err(TreeError::OutOfRange(format!(
                "size {size} is beyond the tree's {}",
                self.size
            )));
        }
        root(&self.store, size)
    }

    /// The current root.
    pub fn root(&self) -> Hash {
        self.root_at(self.size).unwrap_or_else(|_| empty_root())
    }

    /// Inclusion proof of leaf `index` in the tree of `size` leaves.
    pub fn prove_inclusion(&self, index: u64, size: u64) -> Result<Vec<Hash>, TreeError<Never>> {
        self.check_size(size)?;
        prove_inclusion(&self.store, index, size)
    }

    /// Consistency proof from size `old` to size `new`.
    pub fn prove_consistency(&self, old: u64, new: u64) -> Result<Vec<Hash>, TreeError<Never>> {
        self.check_size(new)?;
        prove_consistency(&self.store, old, new)
    }

    fn check_size(&self, size: u64) -> Result<(), TreeError<Never>> {
        if size > self.size {
            return Err(TreeError::OutOfRange(format!(
                "size {size} is beyond the tree's {}",
                self.size
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::leaf_hash;

    /// RFC 9162 2.1.1 written out directly, for comparison.
    fn mth(leaves: &[Hash]) -> Hash {
        match leaves.len() {
            0 => empty_root(),
            1 => leaves[0],
            n => {
                let k = split_point(n as u64) as usize;
                node_hash(&mth(&leaves[..k]), &mth(&leaves[k..]))
            }
        }
    }

    #[test]
    fn incremental_roots_equal_the_recursive_definition() {
        let mut t = MemTree::new();
        let mut leaves = Vec::new();
        assert_eq!(t.root(), mth(&[]));
        for i in 0..70u32 {
            let d = i.to_be_bytes();
            t.push(&d);
            leaves.push(leaf_hash(&d));
            for s in 0..=t.size() {
                assert_eq!(t.root_at(s).unwrap(), mth(&leaves[..s as usize]));
            }
        }
    }

    #[test]
    fn append_writes_one_hash_per_trailing_one_bit_plus_the_leaf() {
        let mut s = MemStore::default();
        assert_eq!(append(&mut s, 0, [0; 32]).unwrap(), 1);
        assert_eq!(append(&mut s, 1, [1; 32]).unwrap(), 2);
        assert_eq!(append(&mut s, 2, [2; 32]).unwrap(), 1);
        assert_eq!(append(&mut s, 3, [3; 32]).unwrap(), 3);
    }

    #[test]
    fn a_missing_stored_hash_is_reported_not_invented() {
        let s = MemStore::default();
        assert_eq!(root(&s, 3), Err(TreeError::Missing { level: 1, index: 0 }));
    }
}
