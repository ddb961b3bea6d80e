//! Checking the log's answers offline, as `kifu check-proof` and `kifu
//! witness` do (`docs/TRANSPARENCY.md` sections 3, 4 and 10): a signed
//! checkpoint opened under the log's key, a proof read from its JSON or
//! text form and checked against checkpoints, a witness's memory, and the
//! map root a witness recomputed held against the one a checkpoint names.
//! Following the log's key rotations is `kifu_bundle::rotation`'s.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;

use crate::checkpoint::{Checkpoint, CheckpointError};
use crate::cosign::WitnessState;
use crate::hash::{leaf_hash, Hash};
use crate::leaf::Leaf;
use crate::map::{root_in, MapProofError};
use crate::note::{Note, NoteError, NoteVerifier};
use crate::proof::{ConsistencyProof, InclusionProof, ProofError};

/// Why a signed checkpoint does not open under the log's key.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The text is not a signed note.
    #[error(transparent)]
    Note(NoteError),
    /// The log's signature does not verify.
    #[error("checkpoint: {0}")]
    Signature(NoteError),
    /// The note's text is not a checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// Opens a signed checkpoint: the log's signature must verify.
///
/// # Errors
///
/// [`OpenError`].
pub fn open_checkpoint(text: &str, log: &NoteVerifier) -> Result<(Note, Checkpoint), OpenError> {
    let note = Note::parse(text).map_err(OpenError::Note)?;
    note.verify(std::slice::from_ref(log))
        .map_err(OpenError::Signature)?;
    let cp = Checkpoint::parse(&note.text)?;
    Ok((note, cp))
}

/// Reads a checkpoint's tree head from a signed note without checking any
/// signature (for a caller that checks the root against a tree it holds).
///
/// # Errors
///
/// The text is not a note, or not a checkpoint's.
pub fn unchecked_checkpoint(text: &str) -> Result<Checkpoint, OpenError> {
    let note = Note::parse(text).map_err(OpenError::Note)?;
    Ok(Checkpoint::parse(&note.text)?)
}

/// Why a proof file cannot be read as the proof asked for.
#[derive(Debug, thiserror::Error)]
pub enum ProofFileError {
    /// The JSON form does not parse.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The text form does not parse.
    #[error(transparent)]
    Text(#[from] ProofError),
    /// The proof is between other sizes.
    #[error("the proof is from size {got_old} to {got_new}, not {old} to {new}")]
    OtherSizes {
        /// The proof's older size.
        got_old: u64,
        /// The proof's newer size.
        got_new: u64,
        /// The older size asked for.
        old: u64,
        /// The newer size asked for.
        new: u64,
    },
}

impl ProofFileError {
    /// True when the file is read but its proof is not the one asked for
    /// (a failed check, not a file that cannot be read).
    pub fn is_check(&self) -> bool {
        !matches!(self, ProofFileError::Json(_))
    }
}

/// True when a proof file's text is its JSON form (else the text form).
fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// A consistency proof from size `old` to `new`, in the JSON form `kifu
/// prove consistency` prints or in the text form (`node_hash=` lines).
///
/// # Errors
///
/// [`ProofFileError`].
pub fn read_consistency_proof(
    text: &str,
    old: u64,
    new: u64,
) -> Result<ConsistencyProof, ProofFileError> {
    if is_json(text) {
        let p: ConsistencyProof = serde_json::from_str(text)?;
        if (p.old_size, p.new_size) != (old, new) {
            return Err(ProofFileError::OtherSizes {
                got_old: p.old_size,
                got_new: p.new_size,
                old,
                new,
            });
        }
        Ok(p)
    } else {
        Ok(ConsistencyProof::from_text(text, old, new)?)
    }
}

/// An inclusion proof in the JSON form `kifu prove inclusion` prints (with
/// its leaf's data in hex, when it carries it) or in the text form for a
/// tree of `tree_size` leaves (no leaf data).
///
/// # Errors
///
/// [`ProofFileError`] (never [`ProofFileError::OtherSizes`]).
pub fn read_inclusion_proof(
    text: &str,
    tree_size: u64,
) -> Result<(InclusionProof, Option<String>), ProofFileError> {
    if is_json(text) {
        let v: serde_json::Value = serde_json::from_str(text)?;
        let leaf = v["leaf"].as_str().map(str::to_string);
        Ok((serde_json::from_value(v)?, leaf))
    } else {
        Ok((InclusionProof::from_text(text, tree_size)?, None))
    }
}

/// Why a proof does not hold against signed checkpoints.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// An inclusion proof for another tree.
    #[error("the proof is for a tree of {proof} leaves, the checkpoint has {checkpoint}")]
    OtherTree {
        /// The proof's tree size.
        proof: u64,
        /// The checkpoint's.
        checkpoint: u64,
    },
    /// The inclusion proof fails.
    #[error("inclusion proof fails: {0}")]
    Inclusion(ProofError),
    /// Two checkpoints of two logs.
    #[error("the checkpoints are of two logs: {old} and {new}")]
    TwoLogs {
        /// The older checkpoint's origin.
        old: String,
        /// The newer one's.
        new: String,
    },
    /// The older tree is not a prefix of the newer one.
    #[error(
        "not consistent: the log at size {old} is not a prefix of the log at size {new}: {source}"
    )]
    Inconsistent {
        /// The older size.
        old: u64,
        /// The newer size.
        new: u64,
        /// Why the proof fails.
        source: ProofError,
    },
}

/// Checks that `leaf` (the leaf's data) is in the tree `cp` signs, by
/// `proof`; gives what the leaf stands for in words (a record of a game,
/// or "the leaf" for data that is not kifu's leaf).
///
/// # Errors
///
/// [`CheckError::OtherTree`], [`CheckError::Inclusion`].
pub fn check_inclusion(
    proof: &InclusionProof,
    leaf: &[u8],
    cp: &Checkpoint,
) -> Result<String, CheckError> {
    if proof.tree_size != cp.size {
        return Err(CheckError::OtherTree {
            proof: proof.tree_size,
            checkpoint: cp.size,
        });
    }
    proof
        .verify(&leaf_hash(leaf), &cp.root)
        .map_err(CheckError::Inclusion)?;
    Ok(match Leaf::from_bytes(leaf) {
        Some(l) => format!("event seq {} of game {}", l.seq, hex(&l.game)),
        None => "the leaf".to_string(),
    })
}

/// Checks that the tree `old` signs is a prefix of the tree `new` signs:
/// one log, and `proof` leads from one root to the other.
///
/// # Errors
///
/// [`CheckError::TwoLogs`], [`CheckError::Inconsistent`].
pub fn check_consistency(
    old: &Checkpoint,
    new: &Checkpoint,
    proof: &ConsistencyProof,
) -> Result<(), CheckError> {
    if old.origin != new.origin {
        return Err(CheckError::TwoLogs {
            old: old.origin.clone(),
            new: new.origin.clone(),
        });
    }
    proof
        .verify(&old.root, &new.root)
        .map_err(|source| CheckError::Inconsistent {
            old: old.size,
            new: new.size,
            source,
        })
}

impl WitnessState {
    /// A witness's memory as it keeps it: the checkpoint it last cosigned,
    /// unsigned.
    pub fn to_text(&self) -> String {
        Checkpoint::new(self.origin.clone(), self.size, self.root).to_text()
    }

    /// The remembered size a consistency proof to a checkpoint of
    /// `new_size` leaves must start from: `None` when no proof is needed
    /// (nothing non-empty remembered, or a tree that did not grow, which
    /// [`crate::cosign::witness`] judges itself).
    pub fn proof_needed(&self, new_size: u64) -> Option<u64> {
        (self.size > 0 && self.size < new_size).then_some(self.size)
    }

    /// Reads [`to_text`](Self::to_text)'s form.
    ///
    /// # Errors
    ///
    /// The text is not a checkpoint.
    pub fn from_text(text: &str) -> Result<WitnessState, CheckpointError> {
        let c = Checkpoint::parse(text)?;
        Ok(WitnessState {
            origin: c.origin,
            size: c.size,
            root: c.root,
        })
    }
}

/// Why a witness refuses a checkpoint's map root (`docs/TRANSPARENCY.md`
/// section 10).
#[derive(Debug, thiserror::Error)]
pub enum MapRootError {
    /// The checkpoint's map line does not parse.
    #[error("refusing to cosign: {0}")]
    Malformed(#[from] MapProofError),
    /// The map of the log's leaves has another root.
    #[error("refusing to cosign: the checkpoint names the map root {named}, but the map of the log's leaves at size {size} is {computed}: the map lies about the games' heads")]
    Lies {
        /// The root the checkpoint names, base64.
        named: String,
        /// The root of the map recomputed from the leaves, base64.
        computed: String,
        /// The tree size.
        size: u64,
    },
}

/// The map root `cp` names, if any (a checkpoint signed before the map
/// existed names none).
///
/// # Errors
///
/// [`MapRootError::Malformed`].
pub fn named_map_root(cp: &Checkpoint) -> Result<Option<Hash>, MapRootError> {
    Ok(root_in(&cp.extensions)?)
}

/// Holds the map root a witness recomputed from the log's leaves at
/// `cp`'s size against the one `cp` names.
///
/// # Errors
///
/// [`MapRootError::Lies`] when they differ.
pub fn check_map_root(cp: &Checkpoint, named: &Hash, computed: &Hash) -> Result<(), MapRootError> {
    if named == computed {
        return Ok(());
    }
    Err(MapRootError::Lies {
        named: B64.encode(named),
        computed: B64.encode(computed),
        size: cp.size,
    })
}

fn hex(h: &Hash) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::note::NoteSigner;
    use crate::tree::MemTree;

    fn tree(n: u64) -> MemTree {
        let mut t = MemTree::new();
        for i in 0..n {
            let leaf = Leaf {
                game: [i as u8; 32],
                seq: i,
                record_hash: [7; 32],
            };
            t.push(&leaf.to_bytes());
        }
        t
    }

    #[test]
    fn a_checkpoint_opens_only_under_the_log_s_key() {
        let signer = NoteSigner::new("log.example/a", [1; 32]).unwrap();
        let other = NoteSigner::new("log.example/a", [2; 32]).unwrap();
        let cp = Checkpoint::new("log.example/a", 3, [5; 32]);
        let mut note = Note::new(cp.to_text()).unwrap();
        signer.sign(&mut note);
        let text = note.to_text();
        let (_, opened) = open_checkpoint(&text, &signer.verifier()).unwrap();
        assert_eq!(opened, cp);
        let e = open_checkpoint(&text, &other.verifier()).unwrap_err();
        assert!(matches!(e, OpenError::Signature(_)), "{e}");
        assert!(e.to_string().starts_with("checkpoint: "), "{e}");
        assert!(matches!(
            open_checkpoint("nonsense", &signer.verifier()),
            Err(OpenError::Note(_))
        ));
        assert_eq!(unchecked_checkpoint(&text).unwrap(), cp);
    }

    #[test]
    fn proofs_are_read_in_both_forms_and_checked_against_checkpoints() {
        let t = tree(7);
        let (old, new) = (
            Checkpoint::new("o", 3, t.root_at(3).unwrap()),
            Checkpoint::new("o", 7, t.root_at(7).unwrap()),
        );
        let hashes = t.prove_consistency(3, 7).unwrap();
        let p = ConsistencyProof {
            old_size: 3,
            new_size: 7,
            hashes,
        };
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(read_consistency_proof(&json, 3, 7).unwrap(), p);
        assert_eq!(read_consistency_proof(&p.to_text(), 3, 7).unwrap(), p);
        let e = read_consistency_proof(&json, 2, 7).unwrap_err();
        assert!(e.is_check() && e.to_string().contains("from size 3 to 7, not 2 to 7"));
        assert!(!read_consistency_proof("{", 3, 7).unwrap_err().is_check());
        check_consistency(&old, &new, &p).unwrap();
        let other = Checkpoint::new("p", 7, new.root);
        assert!(matches!(
            check_consistency(&old, &other, &p),
            Err(CheckError::TwoLogs { .. })
        ));
        let mut bad = p.clone();
        bad.hashes[0][0] ^= 1;
        assert!(matches!(
            check_consistency(&old, &new, &bad),
            Err(CheckError::Inconsistent { old: 3, new: 7, .. })
        ));

        let leaf = Leaf {
            game: [4; 32],
            seq: 4,
            record_hash: [7; 32],
        }
        .to_bytes();
        let ip = InclusionProof {
            leaf_index: 4,
            tree_size: 7,
            hashes: t.prove_inclusion(4, 7).unwrap(),
        };
        let mut v = serde_json::to_value(&ip).unwrap();
        v["leaf"] = serde_json::Value::String(hex(&[4; 32]));
        let (read, l) = read_inclusion_proof(&v.to_string(), 7).unwrap();
        assert_eq!((read.clone(), l), (ip.clone(), Some(hex(&[4; 32]))));
        assert_eq!(
            read_inclusion_proof(&ip.to_text(), 7).unwrap(),
            (ip.clone(), None)
        );
        let what = check_inclusion(&ip, &leaf, &new).unwrap();
        assert_eq!(what, format!("event seq 4 of game {}", hex(&[4; 32])));
        assert!(matches!(
            check_inclusion(&ip, &leaf, &old),
            Err(CheckError::OtherTree {
                proof: 7,
                checkpoint: 3
            })
        ));
        assert!(matches!(
            check_inclusion(&ip, &leaf[1..], &new),
            Err(CheckError::Inclusion(_))
        ));
    }

    #[test]
    fn a_witness_remembers_its_checkpoint_and_refuses_a_lying_map() {
        let s = WitnessState {
            origin: "o".into(),
            size: 9,
            root: [3; 32],
        };
        assert_eq!(WitnessState::from_text(&s.to_text()).unwrap(), s);
        assert!(WitnessState::from_text("not a checkpoint").is_err());
        assert_eq!(s.proof_needed(10), Some(9));
        assert_eq!(s.proof_needed(9), None);
        assert_eq!(s.proof_needed(3), None);
        let empty = WitnessState {
            origin: "o".into(),
            size: 0,
            root: [0; 32],
        };
        assert_eq!(empty.proof_needed(10), None);
        let cp = Checkpoint::new("o", 9, [3; 32]);
        assert_eq!(named_map_root(&cp).unwrap(), None);
        check_map_root(&cp, &[1; 32], &[1; 32]).unwrap();
        let e = check_map_root(&cp, &[1; 32], &[2; 32]).unwrap_err();
        assert!(
            e.to_string()
                .contains("the map lies about the games' heads"),
            "{e}"
        );
    }
}
