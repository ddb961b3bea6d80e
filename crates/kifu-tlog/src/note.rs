//! C2SP `signed-note`: text signed by one or more keys.
//!
//! ```text
//! <text, ending in a newline>
//! <blank line>
//! — <key name> <base64(key ID (4 bytes, big-endian) || signature)>\n     (one or more)
//! ```
//!
//! Two signature types are implemented: `0x01`, Ed25519 over the note text
//! (the log's own signature), and `0x04`, the timestamped Ed25519
//! cosignature of C2SP `tlog-cosignature` v1 (a witness's signature, see
//! [`crate::cosign`]). A key ID is `SHA-256(name || 0x0A || type || public key)[:4]`
//! and a verifier key is `name+hex(key ID)+base64(type || public key)`.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};

use crate::hash::sha256;

/// Signature type of a plain Ed25519 note signature.
pub const TYPE_ED25519: u8 = 0x01;
/// Signature type of a C2SP tlog-cosignature/v1 Ed25519 cosignature.
pub const TYPE_COSIGNATURE_V1: u8 = 0x04;
/// The most signature lines a note may carry here (the spec asks for at least 16).
pub const MAX_SIGNATURES: usize = 64;
const DASH: &str = "\u{2014} ";

/// What is wrong with a note or a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    /// The bytes are not a well-formed signed note.
    #[error("malformed note: {0}")]
    Malformed(String),
    /// A key name or key string is not valid.
    #[error("bad key: {0}")]
    BadKey(String),
    /// A signature by a known key does not verify.
    #[error("the signature by {name} (key ID {key_id:08x}) does not verify")]
    BadSignature {
        /// Key name.
        name: String,
        /// Key ID.
        key_id: u32,
    },
    /// No signature by any of the given keys.
    #[error("no signature by a known key (the note is signed by: {0})")]
    NoKnownSignature(String),
}

/// One signature line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteSignature {
    /// The key name.
    pub name: String,
    /// The key ID.
    pub key_id: u32,
    /// The signature bytes after the key ID.
    pub sig: Vec<u8>,
}

impl NoteSignature {
    /// The line, with its newline.
    pub fn to_line(&self) -> String {
        let mut bytes = self.key_id.to_be_bytes().to_vec();
        bytes.extend_from_slice(&self.sig);
        format!("{DASH}{} {}\n", self.name, B64.encode(bytes))
    }
}

/// A signed note: its text and signature lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The text, ending in a newline.
    pub text: String,
    /// The signatures, in order.
    pub signatures: Vec<NoteSignature>,
}

/// A key name: non-empty, without Unicode spaces or `+`.
pub fn check_name(name: &str) -> Result<(), NoteError> {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || c == '+' || c.is_control())
    {
        return Err(NoteError::BadKey(format!(
            "key name '{name}' must be non-empty, without spaces or '+'"
        )));
    }
    Ok(())
}

/// `SHA-256(name || 0x0A || type || public key)[:4]`, big-endian.
pub fn key_id(name: &str, sig_type: u8, public: &[u8]) -> u32 {
    let mut m = Vec::with_capacity(name.len() + 2 + public.len());
    m.extend_from_slice(name.as_bytes());
    m.push(b'\n');
    m.push(sig_type);
    m.extend_from_slice(public);
    let h = sha256(&m);
    u32::from_be_bytes([h[0], h[1], h[2], h[3]])
}

impl Note {
    /// A note with no signatures yet. The text must end in a newline and
    /// hold no control character other than newline.
    pub fn new(text: impl Into<String>) -> Result<Self, NoteError> {
        let text = text.into();
        check_text(&text)?;
        Ok(Note {
            text,
            signatures: Vec::new(),
        })
    }

    /// The whole note: text, blank line, signature lines.
    pub fn to_text(&self) -> String {
        let mut s = self.text.clone();
        s.push('\n');
        for sig in &self.signatures {
            s.push_str(&sig.to_line());
        }
        s
    }

    /// Parses a signed note. Its signatures are not checked: use
    /// [`Note::verify`].
    pub fn parse(msg: &str) -> Result<Self, NoteError> {
        if msg.chars().any(|c| c.is_control() && c != '\n') {
            return Err(NoteError::Malformed("control character in the note".into()));
        }
        let split = msg
            .rfind("\n\n")
            .ok_or_else(|| NoteError::Malformed("no blank line before the signatures".into()))?;
        let text = &msg[..split + 1];
        let sigs = &msg[split + 2..];
        if sigs.is_empty() || !sigs.ends_with('\n') {
            return Err(NoteError::Malformed(
                "the signature lines are missing or do not end in a newline".into(),
            ));
        }
        let mut signatures = Vec::new();
        for line in sigs[..sigs.len() - 1].split('\n') {
            if signatures.len() == MAX_SIGNATURES {
                return Err(NoteError::Malformed(format!(
                    "more than {MAX_SIGNATURES} signatures"
                )));
            }
            let rest = line.strip_prefix(DASH).ok_or_else(|| {
                NoteError::Malformed(format!(
                    "signature line '{line}' does not start with an em dash"
                ))
            })?;
            let (name, b64) = rest.split_once(' ').ok_or_else(|| {
                NoteError::Malformed(format!("signature line '{line}' has no signature"))
            })?;
            check_name(name).map_err(|e| NoteError::Malformed(e.to_string()))?;
            let bytes = B64
                .decode(b64)
                .map_err(|e| NoteError::Malformed(format!("signature by {name}: {e}")))?;
            if bytes.len() < 5 {
                return Err(NoteError::Malformed(format!(
                    "signature by {name} is too short"
                )));
            }
            signatures.push(NoteSignature {
                name: name.to_string(),
                key_id: u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
                sig: bytes[4..].to_vec(),
            });
        }
        Ok(Note {
            text: text.to_string(),
            signatures,
        })
    }

    /// Checks the signatures by the given keys. Signatures by other keys
    /// are ignored; a known key's signature that fails rejects the note;
    /// at least one known key must have signed. Returns what verified, in
    /// the note's order.
    pub fn verify(&self, keys: &[NoteVerifier]) -> Result<Vec<Verified>, NoteError> {
        let mut out = Vec::new();
        for s in &self.signatures {
            let Some(k) = keys
                .iter()
                .find(|k| k.name == s.name && k.key_id == s.key_id)
            else {
                continue;
            };
            let timestamp = k
                .check(&self.text, &s.sig)
                .ok_or_else(|| NoteError::BadSignature {
                    name: s.name.clone(),
                    key_id: s.key_id,
                })?;
            out.push(Verified {
                name: k.name.clone(),
                key_id: k.key_id,
                sig_type: k.sig_type,
                timestamp,
            });
        }
        if out.is_empty() {
            let names: Vec<String> = self
                .signatures
                .iter()
                .map(|s| format!("{}/{:08x}", s.name, s.key_id))
                .collect();
            return Err(NoteError::NoKnownSignature(names.join(", ")));
        }
        Ok(out)
    }
}

fn check_text(text: &str) -> Result<(), NoteError> {
    if !text.ends_with('\n') {
        return Err(NoteError::Malformed(
            "the text must end in a newline".into(),
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(NoteError::Malformed("control character in the text".into()));
    }
    Ok(())
}

/// A signature that verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Key name.
    pub name: String,
    /// Key ID.
    pub key_id: u32,
    /// Signature type (`0x01` or `0x04`).
    pub sig_type: u8,
    /// For a cosignature, its POSIX timestamp.
    pub timestamp: Option<u64>,
}

/// A key that signs notes with type `0x01` (Ed25519 over the text).
pub struct NoteSigner {
    name: String,
    key: SigningKey,
}

impl NoteSigner {
    /// A signer under `name` with the Ed25519 key whose seed is `seed`.
    pub fn new(name: &str, seed: [u8; 32]) -> Result<Self, NoteError> {
        check_name(name)?;
        Ok(NoteSigner {
            name: name.to_string(),
            key: SigningKey::from_bytes(&seed),
        })
    }

    /// The key name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The verifier for this signer.
    pub fn verifier(&self) -> NoteVerifier {
        NoteVerifier::ed25519(&self.name, self.key.verifying_key())
    }

    /// Signs the note's text and adds the signature line.
    pub fn sign(&self, note: &mut Note) {
        let sig = self.key.sign(note.text.as_bytes()).to_bytes().to_vec();
        note.signatures.push(NoteSignature {
            name: self.name.clone(),
            key_id: key_id(
                &self.name,
                TYPE_ED25519,
                self.key.verifying_key().as_bytes(),
            ),
            sig,
        });
    }

    pub(crate) fn signing_key(&self) -> &SigningKey {
        &self.key
    }
}

/// A public key that checks note signatures, parsed from or written as a
/// verifier key string `name+hex(key ID)+base64(type || public key)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteVerifier {
    /// Key name.
    pub name: String,
    /// Key ID.
    pub key_id: u32,
    /// Signature type: `0x01` note signature or `0x04` cosignature.
    pub sig_type: u8,
    /// The Ed25519 public key.
    pub key: VerifyingKey,
}

impl NoteVerifier {
    /// A type `0x01` verifier.
    pub fn ed25519(name: &str, key: VerifyingKey) -> Self {
        NoteVerifier {
            name: name.to_string(),
            key_id: key_id(name, TYPE_ED25519, key.as_bytes()),
            sig_type: TYPE_ED25519,
            key,
        }
    }

    /// A type `0x04` (cosignature/v1) verifier.
    pub fn cosigner(name: &str, key: VerifyingKey) -> Self {
        NoteVerifier {
            name: name.to_string(),
            key_id: key_id(name, TYPE_COSIGNATURE_V1, key.as_bytes()),
            sig_type: TYPE_COSIGNATURE_V1,
            key,
        }
    }

    /// The verifier key string.
    pub fn to_vkey(&self) -> String {
        let mut material = vec![self.sig_type];
        material.extend_from_slice(self.key.as_bytes());
        format!("{}+{:08x}+{}", self.name, self.key_id, B64.encode(material))
    }

    /// Parses a verifier key string; the key ID must match the name and key.
    pub fn parse(vkey: &str) -> Result<Self, NoteError> {
        let vkey = vkey.trim();
        let mut parts = vkey.splitn(3, '+');
        let (Some(name), Some(id), Some(b64)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(NoteError::BadKey(format!("'{vkey}' is not name+keyid+key")));
        };
        check_name(name)?;
        if id.len() != 8 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(NoteError::BadKey(format!(
                "key ID '{id}' is not 8 lowercase hex digits"
            )));
        }
        let id = u32::from_str_radix(id, 16).map_err(|e| NoteError::BadKey(e.to_string()))?;
        let material = B64
            .decode(b64)
            .map_err(|e| NoteError::BadKey(format!("key material is not base64: {e}")))?;
        let (&sig_type, public) = material
            .split_first()
            .ok_or_else(|| NoteError::BadKey("no key material".into()))?;
        if sig_type != TYPE_ED25519 && sig_type != TYPE_COSIGNATURE_V1 {
            return Err(NoteError::BadKey(format!(
                "signature type {sig_type:#04x} is not supported (0x01 Ed25519, 0x04 cosignature/v1)"
            )));
        }
        let arr: [u8; 32] = public
            .try_into()
            .map_err(|_| NoteError::BadKey("an Ed25519 key is 32 bytes".into()))?;
        let key = VerifyingKey::from_bytes(&arr)
            .map_err(|_| NoteError::BadKey("not an Ed25519 public key".into()))?;
        let v = NoteVerifier {
            name: name.to_string(),
            key_id: key_id(name, sig_type, &arr),
            sig_type,
            key,
        };
        if v.key_id != id {
            return Err(NoteError::BadKey(format!(
                "key ID {id:08x} does not match the name and key ({:08x})",
                v.key_id
            )));
        }
        Ok(v)
    }

    /// Checks one signature over `text`; for a cosignature returns its
    /// timestamp. `None` when it does not verify.
    fn check(&self, text: &str, sig: &[u8]) -> Option<Option<u64>> {
        match self.sig_type {
            TYPE_ED25519 => {
                let s = ed25519_dalek::Signature::from_slice(sig).ok()?;
                self.key.verify_strict(text.as_bytes(), &s).ok()?;
                Some(None)
            }
            TYPE_COSIGNATURE_V1 => {
                if sig.len() != 72 {
                    return None;
                }
                let mut ts = [0u8; 8];
                ts.copy_from_slice(&sig[..8]);
                let ts = u64::from_be_bytes(ts);
                if ts > i64::MAX as u64 {
                    return None;
                }
                let s = ed25519_dalek::Signature::from_slice(&sig[8..]).ok()?;
                let msg = crate::cosign::signed_message(ts, text);
                self.key.verify_strict(msg.as_bytes(), &s).ok()?;
                Some(Some(ts))
            }
            _ => None,
        }
    }
}
