//! A transparency log in the formats other verifiers already read.
//!
//! Every record kifu stores becomes a leaf of one Merkle tree, hashed as
//! RFC 6962 / RFC 9162 section 2.1 specify (SHA-256, `0x00` before a leaf,
//! `0x01` before two child hashes). The tree head is published as a C2SP
//! `tlog-checkpoint`, signed as a C2SP `signed-note` with Ed25519, co-signed
//! by witnesses as C2SP `tlog-cosignature` v1, and served as C2SP
//! `tlog-tiles`. Inclusion and consistency proofs are RFC 9162's, so Go's
//! `golang.org/x/mod/sumdb/tlog` and `note` check kifu's output unchanged.
//!
//! The one decision a reader must know: **the tree is never recomputed.**
//! Like Go's checksum database, the log stores the hash of every complete
//! subtree, addressed by `(level, index)`: the subtree of `2^level` leaves
//! starting at leaf `index * 2^level`. Appending leaf `n` writes its hash at
//! `(0, n)` and then one parent per trailing one-bit of `n`, so an append
//! costs at most `log2(n) + 1` reads and writes, and any proof or root needs
//! `O(log n)` stored hashes. Where those hashes live is the caller's choice
//! behind [`HashReader`] / [`HashWriter`]; this crate does no I/O, reads no
//! clock and draws no randomness (callers pass timestamps and keys in).
#![deny(missing_docs)]

pub mod audit;
pub mod checkpoint;
pub mod cosign;
pub mod hash;
pub mod leaf;
pub mod map;
pub mod note;
pub mod offline;
pub mod proof;
pub mod range;
pub mod rotation;
pub mod tiles;
pub mod tree;

pub use checkpoint::Checkpoint;
pub use hash::{empty_root, leaf_hash, node_hash, Hash};
pub use leaf::Leaf;
pub use note::{Note, NoteError, NoteSignature, NoteSigner, NoteVerifier};
pub use proof::{verify_consistency, verify_inclusion, ProofError};
pub use tree::{HashReader, HashWriter, MemStore, MemTree, TreeError};
