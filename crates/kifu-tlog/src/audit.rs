//! Auditing a log's checkpoints from its leaves (`docs/TRANSPARENCY.md`
//! section 10, "Auditing"): anyone who reads the leaves recomputes the
//! tree's root and the map of game heads at each checkpoint's size and
//! compares them with what the checkpoint names. A log operator who
//! publishes a wrong map root (to hide a game's later events from a bundle)
//! is caught by the first auditor who replays the log.

use crate::checkpoint::Checkpoint;
use crate::hash::Hash;
use crate::leaf::Leaf;
use crate::map::{self, MemMap};
use crate::tree::MemTree;

/// What an audit found about one checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The tree root and the map root are the log's.
    Good {
        /// The map root (the same as recomputed).
        map_root: Hash,
    },
    /// The tree root is the log's; the checkpoint names no map root (a
    /// checkpoint signed before the map existed).
    NoMap,
    /// The tree root is not the root of the leaves read.
    WrongTreeRoot {
        /// The root recomputed from the leaves.
        recomputed: Hash,
    },
    /// The map root is not the map of the leaves read.
    WrongMapRoot {
        /// The root the checkpoint names.
        named: Hash,
        /// The root recomputed from the leaves.
        recomputed: Hash,
    },
    /// The map root line does not parse.
    BadMapLine(String),
}

impl Finding {
    /// True when nothing is wrong.
    pub fn is_good(&self) -> bool {
        matches!(self, Finding::Good { .. } | Finding::NoMap)
    }
}

/// Why an audit step cannot be taken.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum AuditError {
    /// The checkpoint is not at the size the auditor has read to.
    #[error("the auditor has read {read} leaves; the checkpoint is of {size}")]
    NotAtSize {
        /// Leaves read.
        read: u64,
        /// The checkpoint's size.
        size: u64,
    },
}

/// Reads a log's leaves in order and recomputes its tree and its map.
/// Checkpoints are checked in increasing size, each once the leaves up to
/// its size are read.
#[derive(Debug, Default)]
pub struct Auditor {
    tree: MemTree,
    map: MemMap,
}

impl Auditor {
    /// An auditor that has read nothing.
    pub fn new() -> Self {
        Auditor {
            tree: MemTree::new(),
            map: MemMap::new(),
        }
    }

    /// Leaves read so far.
    pub fn size(&self) -> u64 {
        self.tree.size()
    }

    /// Reads the next leaves of the log.
    pub fn read(&mut self, leaves: &[Leaf]) {
        for l in leaves {
            self.tree.push(&l.to_bytes());
        }
        self.map.extend(leaves);
    }

    /// The RFC 6962 root of the leaves read.
    pub fn tree_root(&self) -> Hash {
        self.tree.root()
    }

    /// The RFC 6962 root of the first `size` leaves read (`None` beyond).
    pub fn tree_root_at(&self, size: u64) -> Option<Hash> {
        self.tree.root_at(size).ok()
    }

    /// The map root of the leaves read.
    pub fn map_root(&self) -> Hash {
        self.map.root()
    }

    /// Checks a checkpoint of exactly the size read.
    pub fn check(&self, cp: &Checkpoint) -> Result<Finding, AuditError> {
        if cp.size != self.size() {
            return Err(AuditError::NotAtSize {
                read: self.size(),
                size: cp.size,
            });
        }
        let recomputed = self.tree.root();
        if recomputed != cp.root {
            return Ok(Finding::WrongTreeRoot { recomputed });
        }
        Ok(match map::root_in(&cp.extensions) {
            Err(e) => Finding::BadMapLine(e.to_string()),
            Ok(None) => Finding::NoMap,
            Ok(Some(named)) if named == self.map.root() => Finding::Good { map_root: named },
            Ok(Some(named)) => Finding::WrongMapRoot {
                named,
                recomputed: self.map.root(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_map_root_is_found_and_a_right_one_passes() {
        let leaves: Vec<Leaf> = (0..5u8)
            .map(|i| Leaf {
                game: [i % 2; 32],
                seq: u64::from(i / 2),
                record_hash: [i; 32],
            })
            .collect();
        let mut a = Auditor::new();
        a.read(&leaves[..3]);
        let mut cp = Checkpoint::new("o", 3, a.tree.root());
        assert_eq!(a.check(&cp), Ok(Finding::NoMap));
        cp.extensions.push(map::map_line(&a.map_root()));
        assert!(a.check(&cp).unwrap().is_good());
        a.read(&leaves[3..]);
        assert!(matches!(a.check(&cp), Err(AuditError::NotAtSize { .. })));
        // A checkpoint of 5 leaves naming the map of 3 (a stale head).
        let mut stale = Checkpoint::new("o", 5, a.tree.root());
        stale.extensions = cp.extensions.clone();
        assert!(matches!(a.check(&stale), Ok(Finding::WrongMapRoot { .. })));
        let wrong_tree = Checkpoint::new("o", 5, [7; 32]);
        assert!(matches!(
            a.check(&wrong_tree),
            Ok(Finding::WrongTreeRoot { .. })
        ));
    }
}
