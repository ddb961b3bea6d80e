//! The proof file of a log key's rotations (`docs/TRANSPARENCY.md` section
//! 8): the statements, each a leaf of the log with its inclusion proof in
//! one tree, that lead from the key a verifier trusts to the key that signs
//! checkpoints of that tree. The format is the log's: a leaf, its index and
//! its proof. What a statement says (a ledger record of kind 54, naming the
//! key's successor) and the rule that follows the keys through them are
//! read where records are understood (`kifu_bundle::rotation`).

use serde::{Deserialize, Serialize};

/// First field of a rotation proof file.
pub const ROTATION_FORMAT: &str = "kifu-log-keys/1";

/// One rotation statement and its place in a tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RotationProof {
    /// The statement's leaf index in the log.
    pub leaf_index: u64,
    /// The stored `log_key_rotated` record, base64
    /// (`u32 LE length || event bytes || signature`).
    pub record: String,
    /// Its inclusion proof in the checkpoint's tree, base64 hashes.
    pub inclusion: Vec<String>,
}

/// What `kifu prove rotation` prints: the rotations from the log's first
/// key to the key that signs checkpoints of `tree_size`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RotationFile {
    /// Always [`ROTATION_FORMAT`].
    pub format: String,
    /// The log's origin.
    pub origin: String,
    /// The tree size the inclusion proofs are for.
    pub tree_size: u64,
    /// The key the first rotation starts from (verifier key).
    pub log_key: String,
    /// The rotations, in log order.
    pub rotations: Vec<RotationProof>,
}
