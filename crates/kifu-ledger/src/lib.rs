//! The signed, hash-chained record of a game.
//!
//! Every fact at a Go or Renju board is an [`Event`]: an envelope (format
//! version, chain id, sequence number, hash of the previous record, time,
//! signer) around a typed [`Body`]. Its canonical bytes are postcard; the
//! signer signs them with ed25519 under a domain prefix, and blake3 links each
//! record to the one before. `docs/FORMAT.md` specifies the bytes.
//!
//! The one decision a reader must know: **the hash and the signature cover the
//! stored bytes, and only canonical bytes are accepted.** A record is decoded
//! and encoded again; if the two differ it is refused. Nothing is ever
//! re-serialised before hashing, so a verifier in another language needs only
//! the bytes, blake3 and ed25519.
//!
//! This crate does no I/O: storage is `kifu-store`'s job.
#![deny(missing_docs)]

pub mod archive;
pub mod body;
pub mod bounds;
pub mod chain;
pub mod event;
pub mod held;
pub mod key;
pub mod kinds;
pub mod report;
pub mod roles;
pub mod sig;
pub mod standing;
pub mod stream;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod text;
pub mod tournament;
pub mod trust;
pub mod unheld;

pub use body::*;
pub use chain::{
    check_append, check_genesis, children_of, forks_of, game_id, unreached, verify_records,
    verify_records_unsigned, verify_signatures, verify_signatures_here, walk_chain, ChainWalk,
    Duplicate, Fork, GameSummary, Head, Problem, VerifyReport,
};
pub use event::{
    Event, Hash, Header, Link, Record, FORMAT_VERSION, HASH_DOMAIN, SIGN_DOMAIN, ZERO_HASH,
};
pub use held::Games;
pub use key::{Keypair, PublicKey};
pub use standing::{Irregularity, KeyEnd, Standing};

/// Everything that can be wrong with a record, a key or an append.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LedgerError {
    /// The value could not be encoded.
    #[error("cannot encode: {0}")]
    Encode(String),
    /// The bytes are not a well-formed, canonical record.
    #[error("malformed record: {0}")]
    Malformed(String),
    /// The envelope's version is not one this library reads.
    #[error("unsupported envelope version {0}")]
    UnsupportedVersion(u16),
    /// A body kind this library does not know.
    #[error("unknown event kind {0}")]
    UnknownKind(u32),
    /// The signature does not verify under the acceptance rule ([`sig`]).
    #[error("bad signature")]
    BadSignature,
    /// Bytes that are not an ed25519 public key.
    #[error("not an ed25519 public key: {0}")]
    BadPublicKey(String),
    /// A key file could not be read or written.
    #[error("key file: {0}")]
    KeyFile(String),
    /// The signing key is not the envelope's signer.
    #[error("the signing key is not the event's signer")]
    SignerMismatch,
    /// The signer may not state this fact.
    #[error("refused: {0}")]
    Refused(#[from] roles::Refusal),
    /// The record does not link where it is appended.
    #[error("bad link: {0}")]
    Link(String),
    /// The chain moved on: another event took this place first.
    #[error("conflict: the chain's next sequence number is {expected_seq}, the event has {got_seq} or links elsewhere")]
    Conflict {
        /// The seq the chain expects next.
        expected_seq: u64,
        /// The seq of the refused event.
        got_seq: u64,
    },
    /// An archive is not well formed.
    #[error("archive: {0}")]
    Archive(String),
}
