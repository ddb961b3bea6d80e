//! kifu's leaf data: which record of which chain a leaf stands for
//! (`docs/TRANSPARENCY.md` section 1).
//!
//! The log does not interpret records; a leaf is 72 bytes,
//! `game id (32) || seq (u64 big-endian) || record hash (32)`, so a monitor
//! reading only the log knows which game and place each leaf stands for.

use crate::hash::{leaf_hash, Hash};

/// Bytes of one leaf.
pub const LEAF_LEN: usize = 72;

/// The data of one leaf: which record of which game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leaf {
    /// The game id (the hash of the chain's genesis record).
    pub game: Hash,
    /// The record's place in its game.
    pub seq: u64,
    /// The record's hash (`docs/FORMAT.md` section 1).
    pub record_hash: Hash,
}

impl Leaf {
    /// The 72 bytes hashed into the tree (with RFC 6962's `0x00` prefix).
    pub fn to_bytes(&self) -> [u8; LEAF_LEN] {
        let mut b = [0u8; LEAF_LEN];
        b[..32].copy_from_slice(&self.game);
        b[32..40].copy_from_slice(&self.seq.to_be_bytes());
        b[40..].copy_from_slice(&self.record_hash);
        b
    }

    /// Parses the 72 bytes.
    pub fn from_bytes(b: &[u8]) -> Option<Leaf> {
        if b.len() != LEAF_LEN {
            return None;
        }
        let mut game = [0u8; 32];
        game.copy_from_slice(&b[..32]);
        let mut seq = [0u8; 8];
        seq.copy_from_slice(&b[32..40]);
        let mut record_hash = [0u8; 32];
        record_hash.copy_from_slice(&b[40..]);
        Some(Leaf {
            game,
            seq: u64::from_be_bytes(seq),
            record_hash,
        })
    }

    /// Its RFC 6962 leaf hash.
    pub fn hash(&self) -> Hash {
        leaf_hash(&self.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_72_bytes_round_trip() {
        let l = Leaf {
            game: [1; 32],
            seq: 0x0102,
            record_hash: [9; 32],
        };
        let b = l.to_bytes();
        assert_eq!(&b[32..40], &[0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(Leaf::from_bytes(&b), Some(l));
        assert_eq!(Leaf::from_bytes(&b[..71]), None);
    }
}
