//! The log operator's checkpoint key, rotated in the log itself
//! (`docs/TRANSPARENCY.md` section 8, `docs/FORMAT.md` kind 54): the rule
//! that follows a key from the one a verifier trusts to the one that signed
//! a checkpoint, reading each rotation statement as a ledger record. The
//! proof file's format is the log's (`kifu_tlog::rotation`, re-exported
//! here).

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_ledger::{Body, Record};
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::note::NoteVerifier;
use kifu_tlog::proof::parse_b64_hash;
use kifu_tlog::Leaf;
use serde::Serialize;

// The proof file's format is the log's (`kifu_tlog::rotation`): named
// here too, so that a verifier finds it beside the rule that reads it.
pub use kifu_tlog::rotation::{RotationFile, RotationProof, ROTATION_FORMAT};

/// One step of a verified key history.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The leaf of the rotation statement.
    pub leaf_index: u64,
    /// The key it moved to (verifier key).
    pub new_key: String,
}

/// Why a rotation does not lead on: which rotation (1-based), at which
/// leaf, and what is wrong with it.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("key rotation {number} (leaf {leaf_index}): {problem}")]
pub struct RotationError {
    /// The rotation's place in the list, from 1.
    pub number: usize,
    /// The leaf index it claims.
    pub leaf_index: u64,
    /// What is wrong.
    pub problem: RotationProblem,
}

/// What is wrong with one rotation statement.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum RotationProblem {
    /// The record is not base64.
    #[error("the record is not base64")]
    NotBase64,
    /// The record does not decode.
    #[error("{0}")]
    Record(String),
    /// The record is of another kind.
    #[error("the record is a {0}, not a log key rotation")]
    NotARotation(String),
    /// It rotates another log's key.
    #[error("it rotates the key of {rotated}, not of {origin}")]
    OtherOrigin {
        /// The origin it names.
        rotated: String,
        /// The checkpoint's origin.
        origin: String,
    },
    /// Signed by a key other than the one trusted at this step.
    #[error("signed by key {signer}, not by the log key {trusted}: only the log's key can name its successor")]
    NotByTheLogKey {
        /// The signer, hex.
        signer: String,
        /// The key trusted at this step (verifier key).
        trusted: String,
    },
    /// The rotations are not in increasing leaf order.
    #[error("the rotations are not in log order")]
    OutOfOrder,
    /// An inclusion hash is malformed.
    #[error("{0}")]
    Proof(String),
    /// The statement is not in the checkpoint's tree.
    #[error("the statement is not in the checkpoint's tree of size {size} ({why})")]
    NotInTree {
        /// The checkpoint's tree size.
        size: u64,
        /// The proof's failure.
        why: String,
    },
    /// The new key is not a valid Ed25519 key.
    #[error("the new key: {0}")]
    BadNewKey(String),
}

/// The key that signs checkpoints of `cp`'s tree, starting from `trusted`
/// and following `rotations` in order: each statement must be a
/// `log_key_rotated` of `cp`'s origin, signed by the key trusted so far, and
/// included in `cp`'s tree at its leaf index.
pub fn follow(
    trusted: &NoteVerifier,
    cp: &Checkpoint,
    rotations: &[RotationProof],
) -> Result<(NoteVerifier, Vec<Step>), RotationError> {
    let mut current = trusted.clone();
    let mut steps = Vec::new();
    let mut last_leaf: Option<u64> = None;
    for (i, r) in rotations.iter().enumerate() {
        let at = |problem| RotationError {
            number: i + 1,
            leaf_index: r.leaf_index,
            problem,
        };
        let bytes = B64
            .decode(&r.record)
            .map_err(|_| at(RotationProblem::NotBase64))?;
        let record =
            Record::from_stored(&bytes).map_err(|e| at(RotationProblem::Record(e.to_string())))?;
        let event = record
            .decode()
            .map_err(|e| at(RotationProblem::Record(e.to_string())))?;
        let Body::LogKeyRotated { origin, new_key } = &event.body else {
            return Err(at(RotationProblem::NotARotation(
                event.body.kind_name().to_string(),
            )));
        };
        if origin != &cp.origin || origin != &current.name {
            return Err(at(RotationProblem::OtherOrigin {
                rotated: origin.clone(),
                origin: cp.origin.clone(),
            }));
        }
        if event.signer.0 != current.key.to_bytes() {
            return Err(at(RotationProblem::NotByTheLogKey {
                signer: event.signer.to_hex(),
                trusted: current.to_vkey(),
            }));
        }
        record
            .verify_signature(&event.signer)
            .map_err(|e| at(RotationProblem::Record(e.to_string())))?;
        if last_leaf.is_some_and(|l| r.leaf_index <= l) {
            return Err(at(RotationProblem::OutOfOrder));
        }
        last_leaf = Some(r.leaf_index);
        let leaf = Leaf {
            game: event.chain,
            seq: event.seq,
            record_hash: record.hash(),
        };
        let path: Vec<kifu_tlog::Hash> = r
            .inclusion
            .iter()
            .map(|h| parse_b64_hash(h))
            .collect::<Result<_, _>>()
            .map_err(|e| at(RotationProblem::Proof(e.to_string())))?;
        kifu_tlog::verify_inclusion(r.leaf_index, cp.size, &leaf.hash(), &path, &cp.root).map_err(
            |e| {
                at(RotationProblem::NotInTree {
                    size: cp.size,
                    why: e.to_string(),
                })
            },
        )?;
        let key = new_key
            .verifying_key()
            .map_err(|e| at(RotationProblem::BadNewKey(e.to_string())))?;
        current = NoteVerifier::ed25519(origin, key);
        steps.push(Step {
            leaf_index: r.leaf_index,
            new_key: current.to_vkey(),
        });
    }
    Ok((current, steps))
}

/// Why a signed checkpoint could not be opened under a trusted log key.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The note is not a signed note.
    #[error(transparent)]
    Note(#[from] kifu_tlog::note::NoteError),
    /// The note's text is not a checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] kifu_tlog::checkpoint::CheckpointError),
    /// The rotation proof file is of another tree.
    #[error("the key rotation proof is for tree size {proof}, the {which} has {checkpoint}")]
    OtherTree {
        /// The proof file's tree size.
        proof: u64,
        /// The checkpoint's.
        checkpoint: u64,
        /// "checkpoint" or "newer checkpoint".
        which: &'static str,
    },
    /// A rotation does not hold.
    #[error(transparent)]
    Rotation(#[from] RotationError),
    /// The checkpoint is not signed by the key the rotations lead to.
    #[error("checkpoint: {error}{}", if *.rotated { "" } else { " (a checkpoint signed by a new key needs the proof of its rotation: --rotation)" })]
    Signature {
        /// What the signature check said.
        error: kifu_tlog::note::NoteError,
        /// Whether any rotation was followed.
        rotated: bool,
    },
    /// The older checkpoint is not signed by the key in force at its size.
    #[error("older checkpoint: {0}")]
    OlderSignature(kifu_tlog::note::NoteError),
}

/// A signed checkpoint opened under a trusted key: the note, its tree head,
/// the key that signed it and the rotations followed to reach that key.
pub type Opened = (kifu_tlog::note::Note, Checkpoint, NoteVerifier, Vec<Step>);

/// Opens a signed checkpoint given the trusted log key and, optionally,
/// the rotations that lead from it to the key that signed it
/// (`docs/TRANSPARENCY.md` section 8).
pub fn open_checkpoint(
    text: &str,
    trusted: &NoteVerifier,
    rotation: Option<&RotationFile>,
) -> Result<Opened, OpenError> {
    let Some(rot) = rotation else {
        return open_with(text, trusted, &[]);
    };
    let note = kifu_tlog::note::Note::parse(text)?;
    let cp = Checkpoint::parse(&note.text)?;
    if !rot.rotations.is_empty() && rot.tree_size != cp.size {
        return Err(OpenError::OtherTree {
            proof: rot.tree_size,
            checkpoint: cp.size,
            which: "checkpoint",
        });
    }
    open_with(text, trusted, &rot.rotations)
}

/// [`open_checkpoint`] with the rotations themselves (their inclusion
/// proofs are for the checkpoint's tree).
pub fn open_with(
    text: &str,
    trusted: &NoteVerifier,
    rotations: &[RotationProof],
) -> Result<Opened, OpenError> {
    let note = kifu_tlog::note::Note::parse(text)?;
    let cp = Checkpoint::parse(&note.text)?;
    let (key, steps) = follow(trusted, &cp, rotations)?;
    note.verify(std::slice::from_ref(&key))
        .map_err(|error| OpenError::Signature {
            error,
            rotated: !steps.is_empty(),
        })?;
    Ok((note, cp, key, steps))
}

/// Opens an older checkpoint `text` of the same log as `new` (whose tree
/// `rot`'s proofs are for): it must be signed by the key in force at its
/// size, the key the rotations with a leaf before that size lead to. The
/// caller then checks that the two trees are consistent.
pub fn open_checkpoint_before(
    text: &str,
    trusted: &NoteVerifier,
    new: &Checkpoint,
    rot: &RotationFile,
) -> Result<Checkpoint, OpenError> {
    let note = kifu_tlog::note::Note::parse(text)?;
    let cp = Checkpoint::parse(&note.text)?;
    if rot.tree_size != new.size {
        return Err(OpenError::OtherTree {
            proof: rot.tree_size,
            checkpoint: new.size,
            which: "newer checkpoint",
        });
    }
    let (_, steps) = follow(trusted, new, &rot.rotations)?;
    let key = match steps.iter().rev().find(|s| s.leaf_index < cp.size) {
        Some(s) => NoteVerifier::parse(&s.new_key)?,
        None => trusted.clone(),
    };
    note.verify(std::slice::from_ref(&key))
        .map_err(OpenError::OlderSignature)?;
    Ok(cp)
}
