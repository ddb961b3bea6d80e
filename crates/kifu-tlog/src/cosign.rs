//! C2SP `tlog-cosignature` v1 (Ed25519) and the witness's rule.
//!
//! A cosignature is a note signature line of type `0x04` whose bytes are
//! `timestamp (u64, big-endian POSIX seconds) || Ed25519 signature`, the
//! signature taken over
//!
//! ```text
//! cosignature/v1\n
//! time <timestamp, decimal>\n
//! <the checkpoint's note text>
//! ```
//!
//! A witness cosigns a checkpoint only after checking it is signed by the
//! log, has the same origin as the last one it cosigned, and is consistent
//! with it (C2SP tlog-cosignature: "the consistent tree head with the
//! largest size the cosigner has observed"). Callers pass the time in: this
//! crate reads no clock.

use ed25519_dalek::Signer as _;

use crate::checkpoint::{Checkpoint, CheckpointError};
use crate::hash::Hash;
use crate::note::{
    key_id, Note, NoteError, NoteSignature, NoteSigner, NoteVerifier, TYPE_COSIGNATURE_V1,
};
use crate::proof::{verify_consistency, ProofError};

/// The message a cosignature signs.
pub fn signed_message(timestamp: u64, text: &str) -> String {
    format!("cosignature/v1\ntime {timestamp}\n{text}")
}

/// A witness key: signs cosignatures (type `0x04`).
pub struct Cosigner {
    inner: NoteSigner,
}

impl Cosigner {
    /// A cosigner named `name` with the Ed25519 key whose seed is `seed`.
    pub fn new(name: &str, seed: [u8; 32]) -> Result<Self, NoteError> {
        Ok(Cosigner {
            inner: NoteSigner::new(name, seed)?,
        })
    }

    /// The verifier of this cosigner's signatures (type `0x04`).
    pub fn verifier(&self) -> NoteVerifier {
        NoteVerifier::cosigner(self.inner.name(), self.inner.signing_key().verifying_key())
    }

    /// Adds (or replaces) this cosigner's signature line, dated `timestamp`.
    pub fn cosign(&self, note: &mut Note, timestamp: u64) {
        let key = self.inner.signing_key();
        let msg = signed_message(timestamp, &note.text);
        let mut sig = timestamp.to_be_bytes().to_vec();
        sig.extend_from_slice(&key.sign(msg.as_bytes()).to_bytes());
        let id = key_id(
            self.inner.name(),
            TYPE_COSIGNATURE_V1,
            key.verifying_key().as_bytes(),
        );
        note.signatures
            .retain(|s| !(s.name == self.inner.name() && s.key_id == id));
        note.signatures.push(NoteSignature {
            name: self.inner.name().to_string(),
            key_id: id,
            sig,
        });
    }
}

/// What a witness remembers: the last checkpoint it cosigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WitnessState {
    /// The log's origin.
    pub origin: String,
    /// Tree size.
    pub size: u64,
    /// Root hash.
    pub root: Hash,
}

/// Why a witness refuses to cosign.
#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    /// The note is not signed by the log's key (or is malformed).
    #[error("the checkpoint is not signed by the log: {0}")]
    Note(#[from] NoteError),
    /// The note text is not a checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A checkpoint of another log.
    #[error("the checkpoint's origin is '{got}', the witness follows '{expected}'")]
    OtherLog {
        /// The origin the witness follows.
        expected: String,
        /// The checkpoint's origin.
        got: String,
    },
    /// The tree shrank: the log is rolled back or forked.
    #[error("the log shrank from {old} to {new} leaves since the last cosigned checkpoint")]
    Shrank {
        /// Size last cosigned.
        old: u64,
        /// Size now.
        new: u64,
    },
    /// The consistency proof fails: the log forked or rewrote history.
    #[error("the checkpoint is not consistent with the one cosigned at size {old}: {source}")]
    Inconsistent {
        /// Size last cosigned.
        old: u64,
        /// Why the proof fails.
        source: ProofError,
    },
}

/// Checks `note` as a witness would and, when it holds, cosigns it.
/// `last` is the last checkpoint this witness cosigned (none the first
/// time); `proof` is the consistency proof from its size to the new one.
/// Returns the state to remember.
pub fn witness(
    cosigner: &Cosigner,
    log_key: &NoteVerifier,
    note: &mut Note,
    last: Option<&WitnessState>,
    proof: &[Hash],
    timestamp: u64,
) -> Result<WitnessState, WitnessError> {
    // Only the log's signature counts here; other lines are ignored.
    note.verify(std::slice::from_ref(log_key))?;
    let cp = Checkpoint::parse(&note.text)?;
    if let Some(last) = last {
        if last.origin != cp.origin {
            return Err(WitnessError::OtherLog {
                expected: last.origin.clone(),
                got: cp.origin,
            });
        }
        if cp.size < last.size {
            return Err(WitnessError::Shrank {
                old: last.size,
                new: cp.size,
            });
        }
        if last.size > 0 {
            verify_consistency(last.size, cp.size, &last.root, &cp.root, proof).map_err(
                |source| WitnessError::Inconsistent {
                    old: last.size,
                    source,
                },
            )?;
        }
    }
    cosigner.cosign(note, timestamp);
    Ok(WitnessState {
        origin: cp.origin,
        size: cp.size,
        root: cp.root,
    })
}
