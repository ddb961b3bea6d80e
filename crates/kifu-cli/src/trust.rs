//! `--trust KEY`: the keys a reader trusts to vouch for an archive's
//! completeness (`docs/FORMAT.md` section 7, "Whom a verdict trusts") or for
//! a bundle's log (`docs/TRANSPARENCY.md`). The rule is the ledger's
//! (`ArchiveVerdict::require_trusted`); this module reads the keys and
//! words the answer.

use base64::Engine;
use kifu_ledger::archive::Authority;
use kifu_ledger::PublicKey;

use crate::Failure;

/// The keys named by `--trust` (repeatable): each is 64 hex digits, a
/// tournament chain file (its director's keys: the organiser's), or a file
/// holding one or more keys: SPKI PEM blocks (`-----BEGIN PUBLIC KEY-----`),
/// lines of 64 hex digits, or C2SP note verifier keys (`name+keyid+base64`,
/// type `0x01`); blank lines and lines starting with `#` are skipped.
///
/// # Errors
///
/// A file that cannot be read, or a line that is none of the above (the
/// file and line are named).
pub fn read_trusted(specs: &[String]) -> Result<Vec<PublicKey>, Failure> {
    let mut out = Vec::new();
    for spec in specs {
        let s = spec.trim();
        if let Some(k) = one_line(s) {
            out.push(k);
            continue;
        }
        if let Some(keys) = tournament_director(s)? {
            out.extend(keys);
            continue;
        }
        let text = std::fs::read_to_string(s).map_err(|e| {
            Failure::new(format!(
                "--trust {s}: not 64 hex digits, and not a readable key file: {e}"
            ))
        })?;
        let found = keys_in(&text).map_err(|e| Failure::new(format!("--trust {s}: {e}")))?;
        if found.is_empty() {
            return Err(Failure::new(format!("--trust {s}: the file holds no key")));
        }
        out.extend(found);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// When `path` is a tournament chain file (`docs/FORMAT.md` section 10):
/// the organiser's keys it names, that is the keys of its genesis's
/// `director` officials (LGC 2023, "Tournament Director": the head of local
/// organisation). The file must verify.
fn tournament_director(path: &str) -> Result<Option<Vec<PublicKey>>, Failure> {
    let Some(records) = crate::tournament_verify::tournament_records(Some(&path.into())) else {
        return Ok(None);
    };
    let report = kifu_tournament::verify_tournament_records(&records);
    let first = report.problems.first().map(|p| p.to_string());
    let (Some(chain), None) = (&report.chain, first.clone()) else {
        return Err(Failure::new(format!(
            "--trust {path}: the tournament chain does not verify: {}",
            first.unwrap_or_else(|| "no tournament genesis".into())
        )));
    };
    let keys: Vec<PublicKey> = chain
        .projection
        .genesis
        .officials
        .iter()
        .filter(|p| p.role == kifu_ledger::Role::Director)
        .map(|p| p.key)
        .collect();
    if keys.is_empty() {
        return Err(Failure::new(format!(
            "--trust {path}: the tournament names no director"
        )));
    }
    Ok(Some(keys))
}

/// A key written on one line: 64 hex digits, or a C2SP note verifier key of
/// type `0x01` (Ed25519).
fn one_line(s: &str) -> Option<PublicKey> {
    if s.len() == 64 && s.chars().all(|c| c.is_ascii_hexdigit()) {
        return PublicKey::from_hex(s).ok();
    }
    // name+hex8+base64(0x01 || key)
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

/// Every key in a key file's text.
fn keys_in(text: &str) -> Result<Vec<PublicKey>, String> {
    let mut out = Vec::new();
    let mut pem: Option<String> = None;
    for (n, line) in text.lines().enumerate() {
        let l = line.trim();
        if let Some(block) = &mut pem {
            block.push_str(l);
            block.push('\n');
            if l.starts_with("-----END ") {
                out.push(PublicKey::from_spki_pem(block).map_err(|e| e.to_string())?);
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
            return Err(format!(
                "line {}: {l}: only public keys are trusted (SPKI PEM, hex, or a note verifier key)",
                n + 1
            ));
        }
        match one_line(l) {
            Some(k) => out.push(k),
            None => {
                return Err(format!(
                    "line {}: not a public key (SPKI PEM, 64 hex digits, or a note verifier key)",
                    n + 1
                ))
            }
        }
    }
    if pem.is_some() {
        return Err("a PEM block without its END line".into());
    }
    Ok(out)
}

/// The words for whom an archive's completeness rests on.
pub fn sentence(a: Authority, heads: usize, matches: bool) -> String {
    let states = crate::render::count(heads, "head");
    let tail = if matches {
        "the archive matches it"
    } else {
        "see the 'incomplete' lines above"
    };
    match a {
        Authority::Trusted(k) => format!(
            "manifest: signed by trusted key {} ({}); it states {states} and {tail}",
            k.to_hex(),
            k.sha256_fingerprint()
        ),
        Authority::Unauthenticated(k) => format!(
            "manifest: signed by key {}; it states {states} and {tail}, but completeness rests on an unauthenticated key (fingerprint {}): nothing shows who holds it. Give the organiser's key with --trust KEY to check the archive against it",
            k.to_hex(),
            k.sha256_fingerprint()
        ),
        Authority::Unsigned => format!(
            "manifest: unsigned; it states {states} (export with --key to sign it): completeness rests on no key at all"
        ),
        Authority::NoManifest => {
            "note: no manifest (a KIFUARC1 archive): completeness cannot be shown".into()
        }
    }
}

/// The authority as JSON words.
pub fn word(a: Authority) -> &'static str {
    match a {
        Authority::Trusted(_) => "trusted",
        Authority::Unauthenticated(_) => "unauthenticated",
        Authority::Unsigned => "unsigned",
        Authority::NoManifest => "none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_from_hex_pem_and_note_keys_and_anything_else_is_named() {
        let k = kifu_ledger::Keypair::from_seed([7; 32]).public();
        let pem = k.to_spki_pem().unwrap();
        let vkey = format!(
            "log.example+0a1b2c3d+{}",
            base64::engine::general_purpose::STANDARD.encode([&[1u8][..], &k.0].concat())
        );
        let other = kifu_ledger::Keypair::from_seed([8; 32]).public();
        let text = format!("# organisers\n{pem}\n{}\n\n{vkey}\n", other.to_hex());
        assert_eq!(keys_in(&text).unwrap(), vec![k, other, k]);
        assert_eq!(one_line(&k.to_hex()), Some(k));
        let e = keys_in("-----BEGIN PRIVATE KEY-----\nAA\n").unwrap_err();
        assert!(e.contains("only public keys"), "{e}");
        let e = keys_in("hello\n").unwrap_err();
        assert!(e.starts_with("line 1"), "{e}");
        assert!(keys_in("-----BEGIN PUBLIC KEY-----\nAAAA\n").is_err());
    }
}
