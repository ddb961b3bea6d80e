//! RFC 6962 section 2.1 hashing (RFC 9162 section 2.1.1).

use sha2::{Digest, Sha256};

/// A SHA-256 hash.
pub type Hash = [u8; 32];

/// `SHA-256(0x00 || data)`: the hash of a leaf.
pub fn leaf_hash(data: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update([0x00]);
    h.update(data);
    h.finalize().into()
}

/// `SHA-256(0x01 || left || right)`: the hash of an interior node.
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update([0x01]);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// The root of the empty tree: `SHA-256()` of no bytes (RFC 9162 2.1.1).
pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// SHA-256 of `data` (used for note key IDs).
pub(crate) fn sha256(data: &[u8]) -> Hash {
    Sha256::digest(data).into()
}

/// The largest power of two strictly less than `n` (`n >= 2`).
pub(crate) fn split_point(n: u64) -> u64 {
    debug_assert!(n >= 2);
    1u64 << (63 - (n - 1).leading_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_point_is_the_largest_power_of_two_below() {
        assert_eq!(split_point(2), 1);
        assert_eq!(split_point(3), 2);
        assert_eq!(split_point(4), 2);
        assert_eq!(split_point(5), 4);
        assert_eq!(split_point(8), 4);
        assert_eq!(split_point(9), 8);
        assert_eq!(split_point(1 << 40), 1 << 39);
    }
}
