//! Range proofs: the whole tail of a log from one leaf to the tree's end.
//!
//! RFC 9162 has no proof that a leaf is the *last* one of some kind. kifu
//! needs one to show that a game's records in a bundle are all of them: the
//! bundle carries every leaf from the game's last record to the end of the
//! checkpointed tree, and this proof ties those leaves to the root. A reader
//! checks that no leaf after the first names the game.
//!
//! The proof is the list of hashes of the subtrees wholly left of `start`
//! that the RFC 9162 2.1.1 recursion meets on its way to `start`, outermost
//! first: at most `log2(size)` hashes. Everything at or right of `start` is
//! recomputed from the given leaves.

use crate::hash::{node_hash, split_point, Hash};
use crate::proof::ProofError;
use crate::tree::{subtree_hash, HashReader, TreeError};

/// The hashes that, with the leaves `start..size`, give the root of `size`.
pub fn prove_range<R: HashReader>(
    r: &R,
    start: u64,
    size: u64,
) -> Result<Vec<Hash>, TreeError<R::Error>> {
    if start >= size {
        return Err(TreeError::OutOfRange(format!(
            "leaf {start} is not in a tree of {size} leaves"
        )));
    }
    let mut out = Vec::new();
    let (mut lo, hi) = (0u64, size);
    // The right-hand side of each split left of `start` is recomputed by the
    // reader; only left subtrees wholly before `start` are sent.
    let mut end = hi;
    while start != lo {
        let k = split_point(end - lo);
        if start >= lo + k {
            out.push(subtree_hash(r, lo, lo + k)?);
            lo += k;
        } else {
            end = lo + k;
        }
    }
    Ok(out)
}

/// The root of the tree of `start + leaves.len()` leaves, from the leaf
/// hashes `start..` and a [`prove_range`] proof.
pub fn root_from_range(start: u64, leaves: &[Hash], proof: &[Hash]) -> Result<Hash, ProofError> {
    let size = start
        .checked_add(leaves.len() as u64)
        .ok_or(ProofError::IndexBeyondSize {
            index: start,
            size: u64::MAX,
        })?;
    if leaves.is_empty() {
        return Err(ProofError::IndexBeyondSize { index: start, size });
    }
    let mut used = 0usize;
    let root = walk(start, 0, size, leaves, proof, &mut used)?;
    if used != proof.len() {
        return Err(ProofError::WrongLength(proof.len()));
    }
    Ok(root)
}

fn walk(
    start: u64,
    lo: u64,
    hi: u64,
    leaves: &[Hash],
    proof: &[Hash],
    used: &mut usize,
) -> Result<Hash, ProofError> {
    if start == lo {
        return Ok(fold(&leaves[..(hi - lo) as usize]));
    }
    let k = split_point(hi - lo);
    if start >= lo + k {
        let left = *proof
            .get(*used)
            .ok_or(ProofError::WrongLength(proof.len()))?;
        *used += 1;
        let right = walk(start, lo + k, hi, leaves, proof, used)?;
        Ok(node_hash(&left, &right))
    } else {
        let left = walk(start, lo, lo + k, leaves, proof, used)?;
        let from = (lo + k - start) as usize;
        let right = fold(&leaves[from..from + (hi - lo - k) as usize]);
        Ok(node_hash(&left, &right))
    }
}

/// RFC 9162 2.1.1 `MTH` over leaf hashes.
fn fold(leaves: &[Hash]) -> Hash {
    match leaves.len() {
        0 => crate::hash::empty_root(),
        1 => leaves[0],
        n => {
            let k = split_point(n as u64) as usize;
            node_hash(&fold(&leaves[..k]), &fold(&leaves[k..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::MemTree;

    #[test]
    fn every_tail_of_every_small_tree_leads_to_its_root() {
        let mut t = MemTree::new();
        let mut leaves = Vec::new();
        for i in 0..40u32 {
            t.push(&i.to_be_bytes());
            leaves.push(crate::hash::leaf_hash(&i.to_be_bytes()));
            let size = t.size();
            for start in 0..size {
                let p = prove_range(t.store(), start, size).unwrap();
                assert!(p.len() <= 64 - size.leading_zeros() as usize);
                let r = root_from_range(start, &leaves[start as usize..], &p).unwrap();
                assert_eq!(r, t.root(), "start {start} size {size}");
                // One leaf fewer at the end gives another root.
                if size - start > 1 {
                    let short =
                        root_from_range(start, &leaves[start as usize..size as usize - 1], &p);
                    assert_ne!(short.ok(), Some(t.root()));
                }
            }
        }
    }
}
