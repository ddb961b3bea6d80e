//! C2SP `tlog-checkpoint`: the note text of a signed tree head.
//!
//! ```text
//! <origin>\n
//! <tree size, decimal, no leading zeros>\n
//! <base64 of the RFC 6962 root hash>\n
//! [<extension line>\n]*
//! ```

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;

use crate::hash::Hash;
use crate::proof::{parse_b64_hash, parse_decimal};

/// Why a note text is not a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a checkpoint: {0}")]
pub struct CheckpointError(pub String);

/// A tree head: origin, size, root, and optional extension lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log's identity (C2SP: a schema-less URL is recommended).
    pub origin: String,
    /// Number of leaves.
    pub size: u64,
    /// RFC 6962 root hash of those leaves.
    pub root: Hash,
    /// Opaque extension lines (each non-empty, without the newline).
    pub extensions: Vec<String>,
}

impl Checkpoint {
    /// A checkpoint without extension lines.
    pub fn new(origin: impl Into<String>, size: u64, root: Hash) -> Self {
        Checkpoint {
            origin: origin.into(),
            size,
            root,
            extensions: Vec::new(),
        }
    }

    /// The note text, ending in a newline.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{}\n{}\n{}\n",
            self.origin,
            self.size,
            B64.encode(self.root)
        );
        for e in &self.extensions {
            s.push_str(e);
            s.push('\n');
        }
        s
    }

    /// Checks that the origin and extension lines can be written: non-empty,
    /// no newline, no control character.
    pub fn validate(&self) -> Result<(), CheckpointError> {
        let ok_line = |l: &str| !l.is_empty() && !l.chars().any(|c| c.is_control());
        if !ok_line(&self.origin) {
            return Err(CheckpointError(
                "the origin must be one non-empty line".into(),
            ));
        }
        if !self.extensions.iter().all(|e| ok_line(e)) {
            return Err(CheckpointError(
                "extension lines must be non-empty lines".into(),
            ));
        }
        Ok(())
    }

    /// Parses a note text (as returned by [`crate::Note`]'s `text`).
    pub fn parse(text: &str) -> Result<Self, CheckpointError> {
        let body = text
            .strip_suffix('\n')
            .ok_or_else(|| CheckpointError("the text does not end in a newline".into()))?;
        let mut lines = body.split('\n');
        let origin = lines.next().unwrap_or_default();
        if origin.is_empty() {
            return Err(CheckpointError("empty origin line".into()));
        }
        let size_line = lines
            .next()
            .ok_or_else(|| CheckpointError("no tree size line".into()))?;
        let size = parse_decimal(size_line).ok_or_else(|| {
            CheckpointError(format!(
                "tree size '{size_line}' is not a decimal without leading zeros"
            ))
        })?;
        let root_line = lines
            .next()
            .ok_or_else(|| CheckpointError("no root hash line".into()))?;
        let root =
            parse_b64_hash(root_line).map_err(|e| CheckpointError(format!("root hash: {e}")))?;
        let extensions: Vec<String> = lines.map(str::to_string).collect();
        let cp = Checkpoint {
            origin: origin.to_string(),
            size,
            root,
            extensions,
        };
        cp.validate()?;
        Ok(cp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_rejects_sloppy_forms() {
        let cp = Checkpoint {
            origin: "kifu.example/log".into(),
            size: 20852163,
            root: [7; 32],
            extensions: vec!["ext one".into()],
        };
        assert_eq!(Checkpoint::parse(&cp.to_text()).unwrap(), cp);
        let root = B64.encode([7u8; 32]);
        for bad in [
            format!("o\n012\n{root}\n"),
            format!("o\n12\n{root}"),
            format!("\n12\n{root}\n"),
            format!("o\n12\n{root}\n\n"),
            "o\n12\nAAAA\n".to_string(),
            format!("o\n-1\n{root}\n"),
        ] {
            assert!(Checkpoint::parse(&bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Checkpoint::parse(&format!("o\n0\n{root}\n")).unwrap().size,
            0
        );
    }
}
