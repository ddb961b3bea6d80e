//! Proof verification (RFC 9162 sections 2.1.3.2 and 2.1.4.2) and the
//! proofs' portable forms.
//!
//! The verifiers are the RFC's iterative algorithms, written independently
//! of the recursive generators in [`crate::tree`], so that a generator bug
//! cannot hide behind a matching verifier bug. Go's `sumdb/tlog` checks the
//! same proofs in `tests/peers/`.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::hash::{node_hash, Hash};

/// Why a proof does not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// The leaf index is not below the tree size.
    #[error("leaf {index} cannot be in a tree of {size} leaves")]
    IndexBeyondSize {
        /// Leaf index.
        index: u64,
        /// Tree size.
        size: u64,
    },
    /// The old size is zero or larger than the new size.
    #[error("no consistency between sizes {old} and {new}")]
    BadSizes {
        /// Old size.
        old: u64,
        /// New size.
        new: u64,
    },
    /// The proof has more or fewer hashes than the sizes call for.
    #[error("the proof has the wrong number of hashes ({0})")]
    WrongLength(usize),
    /// The proof leads to a different root.
    #[error("the proof leads to root {computed}, not {expected}")]
    RootMismatch {
        /// Root computed from the proof (base64).
        computed: String,
        /// Root it had to match (base64).
        expected: String,
    },
    /// A proof's text or JSON form is malformed.
    #[error("malformed proof: {0}")]
    Malformed(String),
}

fn mismatch(computed: &Hash, expected: &Hash) -> ProofError {
    ProofError::RootMismatch {
        computed: B64.encode(computed),
        expected: B64.encode(expected),
    }
}

/// Checks that `leaf_hash` is leaf `index` of the tree of `size` leaves whose
/// root is `root` (RFC 9162 2.1.3.2).
pub fn verify_inclusion(
    index: u64,
    size: u64,
    leaf_hash: &Hash,
    proof: &[Hash],
    root: &Hash,
) -> Result<(), ProofError> {
    let computed = root_from_inclusion(index, size, leaf_hash, proof)?;
    if &computed != root {
        return Err(mismatch(&computed, root));
    }
    Ok(())
}

/// The root an inclusion proof leads to (RFC 9162 2.1.3.2 steps 1 to 4).
pub fn root_from_inclusion(
    index: u64,
    size: u64,
    leaf_hash: &Hash,
    proof: &[Hash],
) -> Result<Hash, ProofError> {
    if index >= size {
        return Err(ProofError::IndexBeyondSize { index, size });
    }
    let (mut f_n, mut s_n) = (index, size - 1);
    let mut r = *leaf_hash;
    for p in proof {
        if s_n == 0 {
            return Err(ProofError::WrongLength(proof.len()));
        }
        if f_n & 1 == 1 || f_n == s_n {
            r = node_hash(p, &r);
            if f_n & 1 == 0 {
                while f_n & 1 == 0 && f_n != 0 {
                    f_n >>= 1;
                    s_n >>= 1;
                }
            }
        } else {
            r = node_hash(&r, p);
        }
        f_n >>= 1;
        s_n >>= 1;
    }
    if s_n != 0 {
        return Err(ProofError::WrongLength(proof.len()));
    }
    Ok(r)
}

/// Checks that the tree of `old` leaves with root `old_root` is a prefix of
/// the tree of `new` leaves with root `new_root` (RFC 9162 2.1.4.2). Equal
/// sizes need an empty proof and equal roots.
pub fn verify_consistency(
    old: u64,
    new: u64,
    old_root: &Hash,
    new_root: &Hash,
    proof: &[Hash],
) -> Result<(), ProofError> {
    if old == 0 || old > new {
        return Err(ProofError::BadSizes { old, new });
    }
    if old == new {
        if !proof.is_empty() {
            return Err(ProofError::WrongLength(proof.len()));
        }
        if old_root != new_root {
            return Err(mismatch(new_root, old_root));
        }
        return Ok(());
    }
    if proof.is_empty() {
        return Err(ProofError::WrongLength(0));
    }
    // Step 2: when `old` is a power of two, the old root is itself the first
    // node of the path.
    let mut path: Vec<Hash> = Vec::with_capacity(proof.len() + 1);
    if old.is_power_of_two() {
        path.push(*old_root);
    }
    path.extend_from_slice(proof);
    let (mut f_n, mut s_n) = (old - 1, new - 1);
    while f_n & 1 == 1 {
        f_n >>= 1;
        s_n >>= 1;
    }
    let mut f_r = path[0];
    let mut s_r = path[0];
    for c in &path[1..] {
        if s_n == 0 {
            return Err(ProofError::WrongLength(proof.len()));
        }
        if f_n & 1 == 1 || f_n == s_n {
            f_r = node_hash(c, &f_r);
            s_r = node_hash(c, &s_r);
            if f_n & 1 == 0 {
                while f_n & 1 == 0 && f_n != 0 {
                    f_n >>= 1;
                    s_n >>= 1;
                }
            }
        } else {
            s_r = node_hash(&s_r, c);
        }
        f_n >>= 1;
        s_n >>= 1;
    }
    if s_n != 0 {
        return Err(ProofError::WrongLength(proof.len()));
    }
    if &f_r != old_root {
        return Err(mismatch(&f_r, old_root));
    }
    if &s_r != new_root {
        return Err(mismatch(&s_r, new_root));
    }
    Ok(())
}

/// Hashes as base64 strings in JSON (the encoding checkpoints use).
mod b64_hashes {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[Hash], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|h| B64.encode(h)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Hash>, D::Error> {
        let v: Vec<String> = Vec::deserialize(d)?;
        v.iter()
            .map(|s| super::parse_b64_hash(s).map_err(serde::de::Error::custom))
            .collect()
    }
}

/// Parses a standard-base64 SHA-256 hash (44 characters, canonical).
pub fn parse_b64_hash(s: &str) -> Result<Hash, ProofError> {
    let bytes = B64
        .decode(s)
        .map_err(|e| ProofError::Malformed(format!("'{s}' is not base64: {e}")))?;
    let h: Hash = bytes
        .try_into()
        .map_err(|_| ProofError::Malformed(format!("'{s}' is not 32 bytes")))?;
    if B64.encode(h) != s {
        return Err(ProofError::Malformed(format!(
            "'{s}' is not canonical base64"
        )));
    }
    Ok(h)
}

fn parse_hex_hash(s: &str) -> Result<Hash, ProofError> {
    if s.len() != 64 || !s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return Err(ProofError::Malformed(format!(
            "'{s}' is not 64 lowercase hex digits"
        )));
    }
    let mut h = [0u8; 32];
    for (i, out) in h.iter_mut().enumerate() {
        let byte = &s[2 * i..2 * i + 2];
        *out = u8::from_str_radix(byte, 16)
            .map_err(|_| ProofError::Malformed(format!("'{s}' is not hex")))?;
    }
    Ok(h)
}

fn hex(h: &Hash) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

/// An inclusion proof with what it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InclusionProof {
    /// Index of the leaf (from 0).
    pub leaf_index: u64,
    /// Size of the tree the proof is for.
    pub tree_size: u64,
    /// The audit path, nearest sibling first.
    #[serde(with = "b64_hashes")]
    pub hashes: Vec<Hash>,
}

impl InclusionProof {
    /// Checks the proof for a leaf hash against a root.
    pub fn verify(&self, leaf_hash: &Hash, root: &Hash) -> Result<(), ProofError> {
        verify_inclusion(
            self.leaf_index,
            self.tree_size,
            leaf_hash,
            &self.hashes,
            root,
        )
    }

    /// The text form of Sigsum's log API (v1): `leaf_index=N` then one
    /// `node_hash=HEX` line per hash. The tree size travels beside it.
    pub fn to_text(&self) -> String {
        let mut s = format!("leaf_index={}\n", self.leaf_index);
        for h in &self.hashes {
            s.push_str(&format!("node_hash={}\n", hex(h)));
        }
        s
    }

    /// Parses [`to_text`](Self::to_text)'s form for a tree of `tree_size`.
    pub fn from_text(text: &str, tree_size: u64) -> Result<Self, ProofError> {
        let mut lines = text.lines();
        let first = lines
            .next()
            .ok_or_else(|| ProofError::Malformed("empty proof".into()))?;
        let leaf_index = first
            .strip_prefix("leaf_index=")
            .and_then(parse_decimal)
            .ok_or_else(|| {
                ProofError::Malformed(format!("expected leaf_index=N, got '{first}'"))
            })?;
        let hashes = parse_node_hashes(lines)?;
        Ok(InclusionProof {
            leaf_index,
            tree_size,
            hashes,
        })
    }
}

/// A consistency proof between two tree sizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsistencyProof {
    /// The older (smaller) size.
    pub old_size: u64,
    /// The newer size.
    pub new_size: u64,
    /// The proof's hashes, in RFC 9162 order.
    #[serde(with = "b64_hashes")]
    pub hashes: Vec<Hash>,
}

impl ConsistencyProof {
    /// Checks the proof between two roots.
    pub fn verify(&self, old_root: &Hash, new_root: &Hash) -> Result<(), ProofError> {
        verify_consistency(
            self.old_size,
            self.new_size,
            old_root,
            new_root,
            &self.hashes,
        )
    }

    /// Sigsum's text form: one `node_hash=HEX` line per hash.
    pub fn to_text(&self) -> String {
        self.hashes
            .iter()
            .map(|h| format!("node_hash={}\n", hex(h)))
            .collect()
    }

    /// Parses [`to_text`](Self::to_text)'s form for the given sizes.
    pub fn from_text(text: &str, old_size: u64, new_size: u64) -> Result<Self, ProofError> {
        Ok(ConsistencyProof {
            old_size,
            new_size,
            hashes: parse_node_hashes(text.lines())?,
        })
    }
}

fn parse_node_hashes<'a>(lines: impl Iterator<Item = &'a str>) -> Result<Vec<Hash>, ProofError> {
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.strip_prefix("node_hash=")
                .ok_or_else(|| ProofError::Malformed(format!("expected node_hash=HEX, got '{l}'")))
                .and_then(parse_hex_hash)
        })
        .collect()
}

/// A decimal with no sign and no leading zeros (except `0` itself).
pub(crate) fn parse_decimal(s: &str) -> Option<u64> {
    if s.is_empty() || (s.len() > 1 && s.starts_with('0')) || !s.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    s.parse().ok()
}
