//! The archive file: self-contained, verifiable offline.
//!
//! ```text
//! archive = MAGIC || record*
//! record  = u32 LE length of event_bytes || event_bytes || signature (64 bytes)
//! ```
//!
//! Records appear chain by chain, each chain in sequence order, genesis first;
//! a reader must not depend on that order (verification groups by game).

use crate::event::Record;
use crate::LedgerError;

/// The first eight bytes of an archive.
pub const MAGIC: &[u8; 8] = b"KIFUARC1";

/// Writes records as an archive.
pub fn write(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for r in records {
        out.extend_from_slice(&r.to_stored());
    }
    out
}

/// Reads an archive's records.
pub fn read(bytes: &[u8]) -> Result<Vec<Record>, LedgerError> {
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| LedgerError::Archive("not a kifu archive (bad magic)".into()))?;
    let mut rest = rest;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let offset = bytes.len() - rest.len();
        let (r, more) = Record::from_stored_prefix(rest)
            .map_err(|e| LedgerError::Archive(format!("at byte {offset}: {e}")))?;
        out.push(r);
        rest = more;
    }
    Ok(out)
}
