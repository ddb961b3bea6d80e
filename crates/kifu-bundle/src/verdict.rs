//! A bundle's verdict as people and programs read it (`kifu verify
//! BUNDLE`, `docs/TRANSPARENCY.md` section 7): the file told from an
//! archive, read, checked against the keys a reader trusts, and the answer
//! in words and as a document. The checks are [`crate::check_bundle_trusting`]'s.

use kifu_ledger::PublicKey;
use serde::Serialize;

use crate::rotation::{RotationFile, ROTATION_FORMAT};
use crate::{Bundle, BundleReport};

/// True when a file whose first bytes are `head` is a bundle (a JSON
/// object, or the compact form's [`crate::compact::MAGIC`]) rather than an
/// archive (which starts with `KIFUARC`).
pub fn looks_like_bundle(head: &[u8]) -> bool {
    crate::compact::is_compact(head)
        || head
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| *b == b'{')
}

/// Why a text is not a file of the kind asked for.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Not a bundle's JSON.
    #[error("not a bundle: {0}")]
    NotABundle(serde_json::Error),
    /// A compact bundle (`kifu-bundle/3`) that does not read.
    #[error("not a bundle: {0}")]
    Compact(#[from] crate::compact::CompactError),
    /// Not a rotation proof's JSON.
    #[error("not a key rotation proof: {0}")]
    NotARotation(serde_json::Error),
    /// A rotation proof of another format.
    #[error("not a {ROTATION_FORMAT} file")]
    RotationFormat,
}

/// Reads a bundle file: its JSON, or the compact form
/// ([`crate::compact::decode`]).
///
/// # Errors
///
/// [`FileError::NotABundle`], [`FileError::Compact`].
pub fn read_bundle(bytes: &[u8]) -> Result<Bundle, FileError> {
    if crate::compact::is_compact(bytes) {
        return Ok(crate::compact::decode(bytes)?);
    }
    serde_json::from_slice(bytes).map_err(FileError::NotABundle)
}

/// Reads a rotation proof file (`kifu prove rotation`).
///
/// # Errors
///
/// [`FileError::NotARotation`], [`FileError::RotationFormat`].
pub fn read_rotation(text: &str) -> Result<RotationFile, FileError> {
    let r: RotationFile = serde_json::from_str(text).map_err(FileError::NotARotation)?;
    if r.format != ROTATION_FORMAT {
        return Err(FileError::RotationFormat);
    }
    Ok(r)
}

/// The document of a bundle that verifies (`kifu verify BUNDLE --json`):
/// what it proves of the game, under which checkpoint and log key, and
/// whether that key is one the reader named (`--trust`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BundleVerdict<'a> {
    /// Always true.
    pub ok: bool,
    /// What the bundle proves.
    pub bundle: &'a BundleReport,
    /// The log's key is one the reader named.
    pub trusted: bool,
    /// The log key's SHA-256 fingerprint.
    pub log_key_fingerprint: String,
}

/// The document of a bundle that does not verify.
#[derive(Debug, Clone, Serialize)]
pub struct BundleFailure {
    /// Always false.
    pub ok: bool,
    /// The first check that failed.
    pub problem: String,
}

impl<'a> BundleVerdict<'a> {
    /// The verdict on a bundle that verified as `r` under the log key
    /// `key`; `trusted` when the reader named the keys it trusts (the
    /// check already held `key` to them).
    pub fn new(r: &'a BundleReport, key: &PublicKey, trusted: bool) -> BundleVerdict<'a> {
        BundleVerdict {
            ok: true,
            bundle: r,
            trusted,
            log_key_fingerprint: key.sha256_fingerprint(),
        }
    }

    /// The verdict in words, a line each: whom it rests on, what the
    /// events are, the key's rotations, the witnesses, the head, how the
    /// head was shown to be the game's last event, and the tournament's
    /// checkpoint.
    pub fn lines(&self, key: &PublicKey) -> Vec<String> {
        let r = self.bundle;
        let mut out = vec![if self.trusted {
            format!(
                "the log's key {} is a trusted key ({})",
                key.to_hex(),
                key.sha256_fingerprint()
            )
        } else {
            format!(
                "the log's key is the bundle's own: this verdict rests on an unauthenticated key (fingerprint {}); give the log's key with --trust KEY to check the bundle against it",
                key.sha256_fingerprint()
            )
        }];
        out.push(format!(
            "ok: these {} events are exactly the game {} as logged by {} at tree size {} (root {}), signed by {}",
            r.events,
            r.game,
            r.origin,
            r.tree_size,
            r.root,
            r.rotated_to
                .last()
                .map(|s| format!("{} (the log's key {} rotated in the log)", s.new_key, r.log_key))
                .unwrap_or_else(|| r.log_key.clone())
        ));
        for s in &r.rotated_to {
            out.push(format!(
                "the log's key was rotated to {} by a statement signed by the key before it, logged at leaf {} (included in this tree)",
                s.new_key, s.leaf_index
            ));
        }
        for (w, t) in &r.witnesses {
            out.push(format!("co-signed by witness {w} at {t} (POSIX seconds)"));
        }
        if r.witnesses.is_empty() {
            out.push("no witness cosignature: the log alone vouches that it shows this record to everyone".into());
        }
        out.push(format!(
            "the game's head is seq {} (record {}); every link, signature and role checks",
            r.head_seq, r.head_hash
        ));
        out.push(match &r.map_root {
            Some(m) => format!(
                "the log's map of game heads at this checkpoint (root {m}) names that event as the game's head: nothing of the game was logged after it"
            ),
            None => "no leaf of the log after that event names the game (the log's tail is in the bundle)".into(),
        });
        out.push(match &r.tournament {
            Some(t) => crate::tournament::sentence(t, r.head_seq),
            None => "no tournament checkpoint in the bundle".into(),
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Completeness, Step};

    fn report() -> BundleReport {
        BundleReport {
            game: "ab".repeat(32),
            events: 12,
            head_seq: 11,
            head_hash: "cd".repeat(32),
            origin: "log.example/a".into(),
            tree_size: 40,
            root: "cm9vdA==".into(),
            map_root: Some("bWFw".into()),
            completeness: Completeness::Map,
            log_key: "log.example/a+01020304+AQ".into(),
            witnesses: vec![],
            rotated_to: vec![],
            tournament: None,
        }
    }

    #[test]
    fn a_bundle_is_told_from_an_archive_by_its_first_byte() {
        assert!(looks_like_bundle(b"  \n{\"format\""));
        assert!(!looks_like_bundle(b"KIFUARC2"));
        assert!(looks_like_bundle(b"kifu-bundle/3\n\x78\xda"));
        assert!(!looks_like_bundle(b"   "));
        assert!(!looks_like_bundle(b""));
    }

    #[test]
    fn the_words_say_whom_the_verdict_rests_on_and_what_was_proved() {
        let key = kifu_ledger::Keypair::from_seed([5; 32]).public();
        let r = report();
        let own = BundleVerdict::new(&r, &key, false).lines(&key);
        assert!(own[0].contains("unauthenticated key"), "{}", own[0]);
        assert!(own[1].starts_with("ok: these 12 events are exactly the game"));
        assert!(own.iter().any(|l| l.starts_with("no witness cosignature")));
        assert!(own
            .iter()
            .any(|l| l.contains("names that event as the game's head")));
        assert_eq!(
            own.last().unwrap(),
            "no tournament checkpoint in the bundle"
        );
        let mut r = report();
        r.map_root = None;
        r.witnesses = vec![("w.example/1".into(), 1_700_000_000)];
        r.rotated_to = vec![Step {
            leaf_index: 7,
            new_key: "log.example/a+05060708+AQ".into(),
        }];
        let v = BundleVerdict::new(&r, &key, true);
        let trusted = v.lines(&key);
        assert!(trusted[0].contains("is a trusted key"));
        assert!(trusted[1].ends_with("rotated in the log)"));
        assert!(trusted.iter().any(|l| l.contains("logged at leaf 7")));
        assert!(trusted
            .iter()
            .any(|l| l == "co-signed by witness w.example/1 at 1700000000 (POSIX seconds)"));
        assert!(trusted
            .iter()
            .any(|l| l.contains("the log's tail is in the bundle")));
        let doc = serde_json::to_value(&v).unwrap();
        assert_eq!(doc["ok"], true);
        assert_eq!(doc["trusted"], true);
        assert_eq!(doc["log_key_fingerprint"], key.sha256_fingerprint());
        assert_eq!(doc["bundle"]["events"], 12);
    }

    #[test]
    fn files_of_another_kind_are_named() {
        assert!(read_bundle(b"[]")
            .unwrap_err()
            .to_string()
            .starts_with("not a bundle: "));
        assert!(read_rotation("{")
            .unwrap_err()
            .to_string()
            .starts_with("not a key rotation proof: "));
        let other =
            r#"{"format":"other/1","origin":"o","tree_size":1,"log_key":"k","rotations":[]}"#;
        assert_eq!(
            read_rotation(other).unwrap_err().to_string(),
            "not a kifu-log-keys/1 file"
        );
        let ok = other.replace("other/1", ROTATION_FORMAT);
        assert_eq!(read_rotation(&ok).unwrap().tree_size, 1);
    }
}
