//! Public keys, signing keys and their standard file formats.

use std::fmt;

use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::LedgerError;

/// The DER bytes of an ed25519 SPKI before the 32 key bytes (RFC 8410).
pub const SPKI_ED25519_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];

/// An ed25519 public key, as 32 raw bytes.
///
/// In canonical (postcard) bytes it is the 32 bytes themselves; in JSON it is
/// lowercase hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PublicKey(pub [u8; 32]);

/// What precedes a public key in its fingerprint (24 bytes of ASCII).
pub const FINGERPRINT_DOMAIN: &[u8] = b"kifu/v1/key-fingerprint\n";

impl PublicKey {
    /// The key's fingerprint, the form two people compare aloud at a table:
    /// the first 10 bytes of `BLAKE3-256(FINGERPRINT_DOMAIN || key)` in
    /// lowercase hex, five groups of four separated by spaces
    /// (`docs/FORMAT.md`, section 8). A device shows the same form for its
    /// key (`record.js`'s `fingerprint`).
    ///
    /// ```
    /// let k = kifu_ledger::PublicKey([0; 32]);
    /// let f = k.fingerprint();
    /// assert_eq!(f.len(), 24);
    /// assert_eq!(f.split(' ').count(), 5);
    /// ```
    pub fn fingerprint(&self) -> String {
        let mut h = blake3::Hasher::new();
        h.update(FINGERPRINT_DOMAIN);
        h.update(&self.0);
        let hex = hex::encode(&h.finalize().as_bytes()[..10]);
        let groups: Vec<&str> = (0..5).map(|i| &hex[i * 4..i * 4 + 4]).collect();
        groups.join(" ")
    }

    /// The key as a `VerifyingKey`, or an error when the bytes are not a
    /// point on the curve.
    ///
    /// # Errors
    ///
    /// [`LedgerError::BadPublicKey`] for bytes that are not a curve point.
    pub fn verifying_key(&self) -> Result<VerifyingKey, LedgerError> {
        VerifyingKey::from_bytes(&self.0).map_err(|_| LedgerError::BadPublicKey(self.to_hex()))
    }

    /// Lowercase hex of the 32 bytes.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Parses 64 hex digits.
    ///
    /// # Errors
    ///
    /// [`LedgerError::BadPublicKey`] unless 64 hex digits.
    ///
    /// ```
    /// let k = kifu_ledger::Keypair::from_seed([7; 32]).public();
    /// assert_eq!(kifu_ledger::PublicKey::from_hex(&k.to_hex()).unwrap(), k);
    /// assert!(kifu_ledger::PublicKey::from_hex("00").is_err());
    /// ```
    pub fn from_hex(s: &str) -> Result<Self, LedgerError> {
        let bytes = hex::decode(s.trim()).map_err(|_| LedgerError::BadPublicKey(s.to_string()))?;
        let arr: [u8; 32] = bytes
            .try_into()
            .map_err(|_| LedgerError::BadPublicKey(s.to_string()))?;
        Ok(PublicKey(arr))
    }

    /// Reads an SPKI PEM public key (`-----BEGIN PUBLIC KEY-----`).
    ///
    /// # Errors
    ///
    /// [`LedgerError::KeyFile`] for anything but an ed25519 SPKI PEM.
    pub fn from_spki_pem(pem: &str) -> Result<Self, LedgerError> {
        let vk = VerifyingKey::from_public_key_pem(pem).map_err(|e| {
            LedgerError::KeyFile(format!("not an ed25519 SPKI PEM public key: {e}"))
        })?;
        Ok(PublicKey(vk.to_bytes()))
    }

    /// The key's fingerprint, `SHA256:` and the lowercase hex of the
    /// SHA-256 of its SPKI DER encoding (the 12 bytes
    /// `302a300506032b6570032100`, then the key): what
    /// `openssl pkey -pubin -in KEY.pub -outform DER | sha256sum` prints.
    ///
    /// Verdicts that name whose key they rest on print this form, which a
    /// reader can check with openssl alone; devices and people at a table
    /// compare the shorter [`PublicKey::fingerprint`].
    ///
    /// ```
    /// let k = kifu_ledger::PublicKey([0; 32]);
    /// assert!(k.sha256_fingerprint().starts_with("SHA256:"));
    /// assert_eq!(k.sha256_fingerprint().len(), 7 + 64);
    /// ```
    pub fn sha256_fingerprint(&self) -> String {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(SPKI_ED25519_PREFIX);
        h.update(self.0);
        format!("SHA256:{}", hex::encode(h.finalize()))
    }

    /// Writes the key as SPKI PEM, readable by `openssl pkey -pubin`.
    ///
    /// # Errors
    ///
    /// [`LedgerError::BadPublicKey`] or [`LedgerError::KeyFile`] when the
    /// bytes are not a curve point or cannot be encoded.
    pub fn to_spki_pem(&self) -> Result<String, LedgerError> {
        self.verifying_key()?
            .to_public_key_pem(LineEnding::LF)
            .map_err(|e| LedgerError::KeyFile(e.to_string()))
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", &self.to_hex()[..16])
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for PublicKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&self.to_hex())
        } else {
            self.0.serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            let s = String::deserialize(d)?;
            PublicKey::from_hex(&s).map_err(serde::de::Error::custom)
        } else {
            Ok(PublicKey(<[u8; 32]>::deserialize(d)?))
        }
    }
}

/// A private signing key with the operations kifu needs.
pub struct Keypair {
    signing: SigningKey,
}

impl Keypair {
    /// A key from its 32-byte seed (RFC 8032 private key).
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Keypair {
            signing: SigningKey::from_bytes(&seed),
        }
    }

    /// Reads a PKCS#8 PEM private key (`-----BEGIN PRIVATE KEY-----`).
    ///
    /// # Errors
    ///
    /// [`LedgerError::KeyFile`] for anything but an ed25519 PKCS#8 PEM.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, LedgerError> {
        let signing = SigningKey::from_pkcs8_pem(pem).map_err(|e| {
            LedgerError::KeyFile(format!("not an ed25519 PKCS#8 PEM private key: {e}"))
        })?;
        Ok(Keypair { signing })
    }

    /// The key as PKCS#8 PEM, readable by `openssl pkey`.
    ///
    /// Written in the RFC 8410 v1 form (the seed only, no embedded public
    /// key), which every OpenSSL 3 reads; the v2 form is not read by 3.0.
    ///
    /// # Errors
    ///
    /// [`LedgerError::KeyFile`] if encoding fails.
    pub fn to_pkcs8_pem(&self) -> Result<String, LedgerError> {
        ed25519_dalek::pkcs8::KeypairBytes {
            secret_key: self.signing.to_bytes(),
            public_key: None,
        }
        .to_pkcs8_pem(LineEnding::LF)
        .map(|z| z.to_string())
        .map_err(|e| LedgerError::KeyFile(e.to_string()))
    }

    /// The 32-byte seed (RFC 8032 private key), as [`Keypair::from_seed`]
    /// takes it.
    pub fn seed(&self) -> [u8; 32] {
        self.signing.to_bytes()
    }

    /// The public half.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.signing.verifying_key().to_bytes())
    }

    /// Signs raw bytes (the caller adds the domain prefix).
    pub fn sign_raw(&self, msg: &[u8]) -> [u8; 64] {
        use ed25519_dalek::Signer;
        self.signing.sign(msg).to_bytes()
    }
}

/// A key's schema: what its `Serialize` writes in JSON, 64 hex digits.
impl schemars::JsonSchema for PublicKey {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PublicKey".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "An Ed25519 public key: 64 lower-case hex digits.",
            "pattern": "^[0-9a-f]{64}$",
        })
    }
}
