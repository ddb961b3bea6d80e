//! The map of game heads kept by the store (`docs/TRANSPARENCY.md`
//! section 10, `kifu_tlog::map`).
//!
//! The sled tree `map` holds the map's nodes by their hash (32-byte keys:
//! `0x02 || map leaf` or `0x03 || left || right`) and the map's root at each
//! log size it was computed for (`"r" || size (u64 BE)`, 9-byte keys). Nodes
//! never change, so the maps of every size share their common nodes and the
//! map of any kept size can still prove. A root is computed from the nearest
//! kept smaller one, by the heads of the leaves logged since (one read of
//! those leaves, `O(log games)` node writes per game that moved), when a
//! checkpoint is signed (a proof at a size whose map is not kept computes it
//! in memory). The nodes and the root are written in one sled batch, so a
//! root is never kept without its nodes; signing then syncs the store before
//! the checkpoint is served.

use std::collections::HashMap;

use kifu_tlog::map::{self, MapError, MapProof, Node, NodeReader, NodeWriter};
use kifu_tlog::Hash;

use crate::{Store, StoreError};

/// Name of the sled tree holding the map.
pub(crate) const TREE: &str = "map";

fn root_key(size: u64) -> [u8; 9] {
    let mut k = [0u8; 9];
    k[0] = b'r';
    k[1..].copy_from_slice(&size.to_be_bytes());
    k
}

/// The kept nodes, with the ones computed but not written yet before them.
struct Nodes<'a> {
    tree: &'a sled::Tree,
    fresh: HashMap<Hash, Node>,
}

impl NodeReader for Nodes<'_> {
    type Error = sled::Error;
    fn node(&self, hash: &Hash) -> Result<Option<Node>, Self::Error> {
        if let Some(n) = self.fresh.get(hash) {
            return Ok(Some(*n));
        }
        Ok(self.tree.get(hash)?.and_then(|v| Node::from_bytes(&v)))
    }
}

impl NodeWriter for Nodes<'_> {
    fn put_node(&mut self, hash: Hash, node: Node) -> Result<(), Self::Error> {
        self.fresh.insert(hash, node);
        Ok(())
    }
}

fn map_err(e: MapError<sled::Error>) -> StoreError {
    match e {
        MapError::Store(e) => StoreError::Sled(e),
        other => StoreError::Damaged(other.to_string()),
    }
}

impl Store {
    fn map_tree(&self) -> Result<sled::Tree, StoreError> {
        Ok(self.db.open_tree(TREE)?)
    }

    /// The map root of the first `size` leaves, and the nodes computed for
    /// it that are not kept (none when it was kept: `keep` and a writable
    /// store).
    fn map_at(
        &self,
        tree: &sled::Tree,
        size: u64,
        keep: bool,
    ) -> Result<(Hash, HashMap<Hash, Node>), StoreError> {
        let now = self.tree_size()?;
        if size > now {
            return Err(StoreError::Log(format!(
                "the log has {now} leaves, not {size}"
            )));
        }
        if let Some(v) = tree.get(root_key(size))? {
            let root: Hash = v[..]
                .try_into()
                .map_err(|_| StoreError::Damaged("a kept map root is not 32 bytes".into()))?;
            return Ok((root, HashMap::new()));
        }
        // From the nearest kept root below `size`, or the empty map.
        let (from, root) = match tree.range(root_key(0)..root_key(size)).next_back() {
            Some(kv) => {
                let (k, v) = kv?;
                let from = u64::from_be_bytes(k[1..9].try_into().map_err(|_| {
                    StoreError::Damaged("a kept map root's key is not 9 bytes".into())
                })?);
                let root: Hash = v[..]
                    .try_into()
                    .map_err(|_| StoreError::Damaged("a kept map root is not 32 bytes".into()))?;
                (from, root)
            }
            None => (0, map::EMPTY),
        };
        let mut nodes = Nodes {
            tree,
            fresh: HashMap::new(),
        };
        let mut root = root;
        // In pieces, so that a long catch-up holds a bounded number of leaves.
        let mut at = from;
        while at < size {
            let to = size.min(at + 65_536);
            let leaves = self.leaves(at, to)?;
            let updates = map::heads_of(at, &leaves);
            root = map::update(&mut nodes, root, &updates).map_err(map_err)?;
            at = to;
        }
        if !keep || self.writable().is_err() {
            return Ok((root, nodes.fresh));
        }
        let mut batch = sled::Batch::default();
        for (h, n) in &nodes.fresh {
            batch.insert(&h[..], n.to_bytes());
        }
        batch.insert(&root_key(size)[..], &root[..]);
        tree.apply_batch(batch)?;
        Ok((root, HashMap::new()))
    }

    /// The root of the map of game heads of the first `size` leaves
    /// (`docs/TRANSPARENCY.md` section 10); computed from the nearest kept
    /// smaller map and kept, when the store is writable (what signing a
    /// checkpoint calls, so the map of every checkpoint is kept).
    pub fn map_root(&self, size: u64) -> Result<Hash, StoreError> {
        let tree = self.map_tree()?;
        Ok(self.map_at(&tree, size, true)?.0)
    }

    /// The map root of the first `size` leaves and `game`'s proof in it:
    /// its entry (head seq, head record hash, leaf index), or its absence.
    /// A map not kept for `size` is computed and not kept: asking cannot
    /// grow the store.
    pub fn map_proof(&self, game: &Hash, size: u64) -> Result<(Hash, MapProof), StoreError> {
        let tree = self.map_tree()?;
        let (root, fresh) = self.map_at(&tree, size, false)?;
        let nodes = Nodes { tree: &tree, fresh };
        let proof = map::prove(&nodes, root, game).map_err(map_err)?;
        Ok((root, proof))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};
    use kifu_tlog::map::MemMap;

    #[test]
    fn the_kept_map_equals_the_map_recomputed_from_the_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let cast = Cast::new();
        let a = sample_game(&cast, "a");
        let b = sample_game(&cast, "b");
        for r in a.records.iter().take(3) {
            store.append(r.clone()).unwrap();
        }
        let first = store.tree_size().unwrap();
        let r1 = store.map_root(first).unwrap();
        for r in &b.records {
            store.append(r.clone()).unwrap();
        }
        for r in a.records.iter().skip(3) {
            store.append(r.clone()).unwrap();
        }
        let size = store.tree_size().unwrap();
        let mut mem = MemMap::new();
        assert_eq!(mem.extend(&store.leaves(0, first).unwrap()), r1);
        let (root, proof) = store.map_proof(&a.game, size).unwrap();
        assert_eq!(mem.extend(&store.leaves(first, size).unwrap()), root);
        let entry = map::verify(&root, &a.game, &proof).unwrap().unwrap();
        assert_eq!(entry.head.seq, a.records.len() as u64 - 1);
        assert_eq!(entry.leaf_index, size - 1);
        // The older map still proves its own heads.
        let (old, p) = store.map_proof(&a.game, first).unwrap();
        assert_eq!(old, r1);
        assert_eq!(map::verify(&r1, &a.game, &p).unwrap().unwrap().head.seq, 2);
        // Game b was not logged yet at that size: proved absent.
        let (_, absent) = store.map_proof(&b.game, first).unwrap();
        assert_eq!(map::verify(&r1, &b.game, &absent), Ok(None));
    }
}
