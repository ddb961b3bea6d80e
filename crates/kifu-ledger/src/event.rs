//! The signed envelope and its canonical bytes.
//!
//! ```text
//! event_bytes = postcard(Envelope { version, chain, seq, prev_hash, at_ms, signer, body })
//!   where body = postcard(Body), carried as a length-prefixed byte string
//! signature   = Ed25519(SIGN_DOMAIN || event_bytes)
//! hash        = blake3(HASH_DOMAIN || event_bytes || signature)
//! ```
//!
//! Carrying the body as its own byte string lets a verifier check links and
//! signatures of kinds it does not know yet. A record is accepted only when
//! decoding and re-encoding gives the same bytes (postcard alone accepts
//! overlong varints and trailing bytes).

use serde::{Deserialize, Serialize};

use crate::body::Body;
use crate::key::{Keypair, PublicKey};
use crate::LedgerError;

/// The envelope format version written by this library.
pub const FORMAT_VERSION: u16 = 1;

/// Prefix of the bytes an event signature covers.
pub const SIGN_DOMAIN: &[u8] = b"kifu/v1/event-signature\n";

/// Prefix of the bytes an event hash covers.
pub const HASH_DOMAIN: &[u8] = b"kifu/v1/event-hash\n";

/// A 32-byte blake3 hash.
pub type Hash = [u8; 32];

/// The all-zero hash: the chain id and previous hash of a genesis event.
pub const ZERO_HASH: Hash = [0; 32];

/// The envelope as encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Envelope {
    version: u16,
    chain: Hash,
    seq: u64,
    prev_hash: Hash,
    at_ms: u64,
    signer: PublicKey,
    body: Vec<u8>,
}

/// The envelope's fields before the body, as encoded (postcard encodes a
/// struct as its fields in order, so these are the envelope's first bytes).
#[derive(Deserialize)]
struct EnvelopeLink {
    version: u16,
    chain: Hash,
    seq: u64,
    prev_hash: Hash,
    _at_ms: u64,
    signer: PublicKey,
}

/// Where a record sits and who signed it: the envelope's fields before the
/// body, read by [`Record::link`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// Game id (zeros at genesis).
    pub chain: Hash,
    /// Sequence number.
    pub seq: u64,
    /// Previous hash.
    pub prev_hash: Hash,
    /// Signer.
    pub signer: PublicKey,
}

/// A decoded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Envelope format version.
    pub version: u16,
    /// The game id (hash of the genesis record); zeros in the genesis itself.
    pub chain: Hash,
    /// Position in the chain, from 0.
    pub seq: u64,
    /// Hash of the record at `seq - 1`; zeros at genesis.
    pub prev_hash: Hash,
    /// When it happened, in milliseconds since the Unix epoch, as stated by
    /// the signer.
    pub at_ms: u64,
    /// Who signed it.
    pub signer: PublicKey,
    /// What happened.
    pub body: Body,
}

/// An event as stored: its exact bytes and the signature over them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Record {
    /// The canonical envelope bytes.
    pub event_bytes: Vec<u8>,
    /// Ed25519 signature over `SIGN_DOMAIN || event_bytes`.
    pub signature: [u8; 64],
}

/// The envelope fields that can be read without understanding the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Envelope format version.
    pub version: u16,
    /// Game id (zeros at genesis).
    pub chain: Hash,
    /// Sequence number.
    pub seq: u64,
    /// Previous hash.
    pub prev_hash: Hash,
    /// Timestamp in ms.
    pub at_ms: u64,
    /// Signer.
    pub signer: PublicKey,
    /// The body's kind index (its first varint).
    pub kind: u32,
    /// The body's bytes.
    pub body_bytes: Vec<u8>,
}

impl Header {
    /// The event bytes of this header with its body bytes as they are (for a
    /// body of a kind this library does not know, or for test vectors).
    ///
    /// # Errors
    ///
    /// [`LedgerError::Encode`] if postcard fails.
    pub fn to_event_bytes(&self) -> Result<Vec<u8>, LedgerError> {
        let env = Envelope {
            version: self.version,
            chain: self.chain,
            seq: self.seq,
            prev_hash: self.prev_hash,
            at_ms: self.at_ms,
            signer: self.signer,
            body: self.body_bytes.clone(),
        };
        postcard::to_allocvec(&env).map_err(|e| LedgerError::Encode(e.to_string()))
    }

    /// Decodes the body (strictly) and gives the whole event.
    ///
    /// # Errors
    ///
    /// [`LedgerError::UnknownKind`] for a kind this library does not know,
    /// [`LedgerError::Malformed`] for a body that is not canonical.
    pub fn into_event(self) -> Result<Event, LedgerError> {
        let body = decode_body(self.kind, &self.body_bytes)?;
        Ok(Event {
            version: self.version,
            chain: self.chain,
            seq: self.seq,
            prev_hash: self.prev_hash,
            at_ms: self.at_ms,
            signer: self.signer,
            body,
        })
    }
}

impl Event {
    /// Encodes the event to its canonical bytes.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Encode`] if postcard fails (it does not for these types).
    pub fn to_bytes(&self) -> Result<Vec<u8>, LedgerError> {
        let body =
            postcard::to_allocvec(&self.body).map_err(|e| LedgerError::Encode(e.to_string()))?;
        let env = Envelope {
            version: self.version,
            chain: self.chain,
            seq: self.seq,
            prev_hash: self.prev_hash,
            at_ms: self.at_ms,
            signer: self.signer,
            body,
        };
        postcard::to_allocvec(&env).map_err(|e| LedgerError::Encode(e.to_string()))
    }

    /// Signs the event with `key` (whose public half must be `self.signer`).
    ///
    /// # Errors
    ///
    /// [`LedgerError::SignerMismatch`] when `key` is not `self.signer`.
    ///
    /// ```
    /// use kifu_ledger::testkit::Cast;
    /// let cast = Cast::new();
    /// let rec = kifu_ledger::Event::genesis(0, cast.referee.public(), cast.genesis("doc"))
    ///     .sign(&cast.referee)
    ///     .unwrap();
    /// assert!(rec.verify_signature(&cast.referee.public()).is_ok());
    /// assert_eq!(rec.decode().unwrap().seq, 0);
    /// ```
    pub fn sign(&self, key: &Keypair) -> Result<Record, LedgerError> {
        if key.public() != self.signer {
            return Err(LedgerError::SignerMismatch);
        }
        let event_bytes = self.to_bytes()?;
        let signature = key.sign_raw(&signed_message(&event_bytes));
        Ok(Record {
            event_bytes,
            signature,
        })
    }
}

/// The exact bytes a signature covers: `SIGN_DOMAIN || event_bytes`.
pub fn signed_message(event_bytes: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(SIGN_DOMAIN.len() + event_bytes.len());
    m.extend_from_slice(SIGN_DOMAIN);
    m.extend_from_slice(event_bytes);
    m
}

impl Record {
    /// The record's hash: `blake3(HASH_DOMAIN || event_bytes || signature)`.
    pub fn hash(&self) -> Hash {
        let mut h = blake3::Hasher::new();
        h.update(HASH_DOMAIN);
        h.update(&self.event_bytes);
        h.update(&self.signature);
        *h.finalize().as_bytes()
    }

    /// The envelope's chain, seq, previous hash and signer, read without
    /// copying the body and without [`Record::header`]'s check that the
    /// bytes are canonical: for a record that has passed that check (a
    /// record of a verified archive), it gives the same fields, at a
    /// fraction of the cost.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Malformed`] when the fields do not decode;
    /// [`LedgerError::UnsupportedVersion`] for another envelope version.
    pub fn link(&self) -> Result<Link, LedgerError> {
        let (env, _): (EnvelopeLink, &[u8]) = postcard::take_from_bytes(&self.event_bytes)
            .map_err(|e| LedgerError::Malformed(format!("envelope: {e}")))?;
        if env.version != FORMAT_VERSION {
            return Err(LedgerError::UnsupportedVersion(env.version));
        }
        Ok(Link {
            chain: env.chain,
            seq: env.seq,
            prev_hash: env.prev_hash,
            signer: env.signer,
        })
    }

    /// Reads the envelope, strictly: the bytes must be exactly what encoding
    /// the decoded envelope gives. The body is not decoded.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Malformed`] for bytes that do not decode, are not
    /// canonical or have no canonical kind index;
    /// [`LedgerError::UnsupportedVersion`] for another envelope version.
    pub fn header(&self) -> Result<Header, LedgerError> {
        let (env, rest): (Envelope, &[u8]) = postcard::take_from_bytes(&self.event_bytes)
            .map_err(|e| LedgerError::Malformed(format!("envelope: {e}")))?;
        if !rest.is_empty() {
            return Err(LedgerError::Malformed(format!(
                "{} trailing bytes after the envelope",
                rest.len()
            )));
        }
        let again = postcard::to_allocvec(&env).map_err(|e| LedgerError::Encode(e.to_string()))?;
        if again != self.event_bytes {
            return Err(LedgerError::Malformed(
                "envelope bytes are not canonical".into(),
            ));
        }
        if env.version != FORMAT_VERSION {
            return Err(LedgerError::UnsupportedVersion(env.version));
        }
        let (kind, _) = read_canonical_varint_u32(&env.body).ok_or_else(|| {
            LedgerError::Malformed("the body does not start with a canonical kind index".into())
        })?;
        Ok(Header {
            version: env.version,
            chain: env.chain,
            seq: env.seq,
            prev_hash: env.prev_hash,
            at_ms: env.at_ms,
            signer: env.signer,
            kind,
            body_bytes: env.body,
        })
    }

    /// Decodes the whole event, strictly (envelope and body canonical).
    ///
    /// A body of a kind this library does not know gives
    /// [`LedgerError::UnknownKind`]; its links and signature can still be
    /// checked from the [`Header`].
    ///
    /// # Errors
    ///
    /// As [`Record::header`], and [`LedgerError::UnknownKind`] or
    /// [`LedgerError::Malformed`] for the body.
    pub fn decode(&self) -> Result<Event, LedgerError> {
        self.header()?.into_event()
    }

    /// Checks the signature against `signer` under the acceptance rule of
    /// [`crate::sig`] (`verify_strict`, with a canonical, torsion-free key).
    ///
    /// # Errors
    ///
    /// [`LedgerError::BadSignature`] when the rule refuses it.
    pub fn verify_signature(&self, signer: &PublicKey) -> Result<(), LedgerError> {
        crate::sig::verify_one(
            &signer.0,
            &signed_message(&self.event_bytes),
            &self.signature,
        )
        .map_err(|_| LedgerError::BadSignature)
    }

    /// The stored form: `u32 LE length || event_bytes || signature`.
    pub fn to_stored(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(4 + self.event_bytes.len() + 64);
        v.extend_from_slice(&(self.event_bytes.len() as u32).to_le_bytes());
        v.extend_from_slice(&self.event_bytes);
        v.extend_from_slice(&self.signature);
        v
    }

    /// Reads one stored record from the front of `bytes`, returning it and the
    /// rest.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Malformed`] when the bytes are too short.
    pub fn from_stored_prefix(bytes: &[u8]) -> Result<(Record, &[u8]), LedgerError> {
        let len_bytes: [u8; 4] = bytes
            .get(..4)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| LedgerError::Malformed("truncated record length".into()))?;
        let len = u32::from_le_bytes(len_bytes) as usize;
        let end = 4usize
            .checked_add(len)
            .and_then(|n| n.checked_add(64))
            .ok_or_else(|| LedgerError::Malformed("record length overflows".into()))?;
        if bytes.len() < end {
            return Err(LedgerError::Malformed(format!(
                "truncated record: needs {end} bytes, {} left",
                bytes.len()
            )));
        }
        let event_bytes = bytes[4..4 + len].to_vec();
        let mut signature = [0u8; 64];
        signature.copy_from_slice(&bytes[4 + len..end]);
        Ok((
            Record {
                event_bytes,
                signature,
            },
            &bytes[end..],
        ))
    }

    /// Reads exactly one stored record.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Malformed`] when the bytes are too short or too long.
    pub fn from_stored(bytes: &[u8]) -> Result<Record, LedgerError> {
        let (r, rest) = Record::from_stored_prefix(bytes)?;
        if !rest.is_empty() {
            return Err(LedgerError::Malformed("trailing bytes after record".into()));
        }
        Ok(r)
    }
}

fn decode_body(kind: u32, bytes: &[u8]) -> Result<Body, LedgerError> {
    if kind >= crate::kinds::kind_count() {
        return Err(LedgerError::UnknownKind(kind));
    }
    let (body, rest): (Body, &[u8]) = postcard::take_from_bytes(bytes)
        .map_err(|e| LedgerError::Malformed(format!("body: {e}")))?;
    if !rest.is_empty() {
        return Err(LedgerError::Malformed(format!(
            "{} trailing bytes after the body",
            rest.len()
        )));
    }
    let again = postcard::to_allocvec(&body).map_err(|e| LedgerError::Encode(e.to_string()))?;
    if again != bytes {
        return Err(LedgerError::Malformed(
            "body bytes are not canonical".into(),
        ));
    }
    Ok(body)
}

/// Reads a postcard (LEB128) varint u32 from the front of `b`, in its
/// shortest form only (as postcard writes it): returns the value and the
/// number of bytes read.
pub(crate) fn read_canonical_varint_u32(b: &[u8]) -> Option<(u32, usize)> {
    let mut v: u64 = 0;
    for (i, byte) in b.iter().take(5).enumerate() {
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            if i > 0 && *byte == 0 {
                // An overlong form such as 0x85 0x00 for 5.
                return None;
            }
            return u32::try_from(v).ok().map(|v| (v, i + 1));
        }
    }
    None
}

impl Event {
    /// The genesis event of a new game.
    pub fn genesis(at_ms: u64, signer: PublicKey, genesis: crate::body::Genesis) -> Event {
        Event {
            version: FORMAT_VERSION,
            chain: ZERO_HASH,
            seq: 0,
            prev_hash: ZERO_HASH,
            at_ms,
            signer,
            body: Body::GameCreated(genesis),
        }
    }

    /// The event that follows the record `head` of game `game`.
    pub fn next(
        game: Hash,
        head: crate::chain::Head,
        at_ms: u64,
        signer: PublicKey,
        body: Body,
    ) -> Event {
        Event {
            version: FORMAT_VERSION,
            chain: game,
            seq: head.seq + 1,
            prev_hash: head.hash,
            at_ms,
            signer,
            body,
        }
    }
}
