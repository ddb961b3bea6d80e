//! Where a store's bytes go: per sled tree, how many keys and how many
//! bytes of keys and values; and what sled reports on disk. Used to
//! measure the store against its archive (`docs/PERFORMANCE.md`).

use crate::{Store, StoreError};

/// The contents of one sled tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeUsage {
    /// The tree's name.
    pub name: String,
    /// Number of keys.
    pub keys: u64,
    /// Bytes of all keys.
    pub key_bytes: u64,
    /// Bytes of all values.
    pub value_bytes: u64,
}

/// The contents of every tree, and sled's size on disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    /// One entry per tree, in name order.
    pub trees: Vec<TreeUsage>,
    /// sled's own figure for the bytes it keeps on disk.
    pub on_disk: u64,
}

impl Usage {
    /// Bytes of keys and values over every tree.
    pub fn payload(&self) -> u64 {
        self.trees.iter().map(|t| t.key_bytes + t.value_bytes).sum()
    }
}

impl Store {
    /// Counts every tree's keys and bytes (reads the whole store).
    ///
    /// # Errors
    ///
    /// Storage errors.
    pub fn usage(&self) -> Result<Usage, StoreError> {
        let mut names: Vec<Vec<u8>> = self
            .db
            .tree_names()
            .into_iter()
            .map(|n| n.to_vec())
            .collect();
        names.sort();
        let mut trees = Vec::new();
        for name in names {
            let tree = self.db.open_tree(&name)?;
            let mut u = TreeUsage {
                name: String::from_utf8_lossy(&name).into_owned(),
                ..TreeUsage::default()
            };
            for kv in tree.iter() {
                let (k, v) = kv?;
                u.keys += 1;
                u.key_bytes += k.len() as u64;
                u.value_bytes += v.len() as u64;
            }
            trees.push(u);
        }
        Ok(Usage {
            trees,
            on_disk: self.db.size_on_disk()?,
        })
    }
}
