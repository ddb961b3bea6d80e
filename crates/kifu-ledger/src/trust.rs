//! The keys a reader trusts, written as text (`docs/FORMAT.md` section 7,
//! "Whom a verdict trusts"; `docs/TRANSPARENCY.md` for a bundle's log): a
//! key on one line (64 hex digits, or a C2SP note verifier key of type
//! `0x01`, Ed25519), or a key file holding one or more: SPKI PEM blocks
//! (`-----BEGIN PUBLIC KEY-----`), lines of 64 hex digits, or note verifier
//! keys; blank lines and lines starting with `#` are skipped. Whether a
//! verdict rests on such a key is [`crate::archive::require_trusted`]'s.

use base64::Engine as _;

use crate::PublicKey;

/// Why a key file's text holds no usable key list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyTextError {
    /// A line holds a private key or another PEM block.
    #[error(
        "line {line}: {text}: only public keys are trusted (SPKI PEM, hex, or a note verifier key)"
    )]
    NotPublic {
        /// The line, from 1.
        line: usize,
        /// Its text.
        text: String,
    },
    /// A line is not a key.
    #[error("line {0}: not a public key (SPKI PEM, 64 hex digits, or a note verifier key)")]
    NotAKey(usize),
    /// A PEM block does not decode.
    #[error("{0}")]
    Pem(String),
    /// A PEM block is not closed.
    #[error("a PEM block without its END line")]
    Unclosed,
}

/// A key written on one line: 64 hex digits, or a C2SP note verifier key
/// (`name+keyid+base64(0x01 || key)`) of type `0x01` (Ed25519).
pub fn key_on_line(s: &str) -> Option<PublicKey> {
    if s.len() == 64 && s.chars().all(|c| c.is_ascii_hexdigit()) {
        return PublicKey::from_hex(s).ok();
    }
    let mut parts = s.splitn(3, '+');
    let (name, id, b64) = (parts.next()?, parts.next()?, parts.next()?);
    if name.is_empty() || id.len() != 8 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
    match raw.as_slice() {
        [0x01, key @ ..] if key.len() == 32 => key.try_into().ok().map(PublicKey),
        _ => None,
    }
}

/// Every key in a key file's text, in the order written.
///
/// # Errors
///
/// [`KeyTextError`], naming the line.
pub fn keys_in(text: &str) -> Result<Vec<PublicKey>, KeyTextError> {
    let mut out = Vec::new();
    let mut pem: Option<String> = None;
    for (n, line) in text.lines().enumerate() {
        let l = line.trim();
        if let Some(block) = &mut pem {
            block.push_str(l);
            block.push('\n');
            if l.starts_with("-----END ") {
                out.push(
                    PublicKey::from_spki_pem(block)
                        .map_err(|e| KeyTextError::Pem(e.to_string()))?,
                );
                pem = None;
            }
            continue;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if l == "-----BEGIN PUBLIC KEY-----" {
            pem = Some(format!("{l}\n"));
            continue;
        }
        if l.starts_with("-----BEGIN ") {
            return Err(KeyTextError::NotPublic {
                line: n + 1,
                text: l.to_string(),
            });
        }
        out.push(key_on_line(l).ok_or(KeyTextError::NotAKey(n + 1))?);
    }
    if pem.is_some() {
        return Err(KeyTextError::Unclosed);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_from_hex_pem_and_note_keys_and_anything_else_is_named() {
        let k = crate::Keypair::from_seed([7; 32]).public();
        let pem = k.to_spki_pem().unwrap();
        let vkey = format!(
            "log.example+0a1b2c3d+{}",
            base64::engine::general_purpose::STANDARD.encode([&[1u8][..], &k.0].concat())
        );
        let other = crate::Keypair::from_seed([8; 32]).public();
        let text = format!("# organisers\n{pem}\n{}\n\n{vkey}\n", other.to_hex());
        assert_eq!(keys_in(&text).unwrap(), vec![k, other, k]);
        assert_eq!(key_on_line(&k.to_hex()), Some(k));
        let e = keys_in("-----BEGIN PRIVATE KEY-----\nAA\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("only public keys"), "{e}");
        let e = keys_in("hello\n").unwrap_err().to_string();
        assert!(e.starts_with("line 1"), "{e}");
        assert!(keys_in("-----BEGIN PUBLIC KEY-----\nAAAA\n").is_err());
    }

    #[test]
    fn a_note_key_of_another_type_or_a_bad_key_id_is_no_key() {
        let k = crate::Keypair::from_seed([7; 32]).public();
        let b64 =
            |t: u8| base64::engine::general_purpose::STANDARD.encode([&[t][..], &k.0].concat());
        assert_eq!(key_on_line(&format!("log+0a1b2c3d+{}", b64(1))), Some(k));
        assert_eq!(key_on_line(&format!("log+0a1b2c3d+{}", b64(4))), None);
        assert_eq!(key_on_line(&format!("log+0a1b2c+{}", b64(1))), None);
        assert_eq!(key_on_line(&format!("+0a1b2c3d+{}", b64(1))), None);
        assert_eq!(key_on_line(&k.to_hex()[..63]), None);
    }
}
