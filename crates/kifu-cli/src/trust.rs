//! `--trust KEY`: the keys a reader trusts to vouch for an archive's
//! completeness (`docs/FORMAT.md` section 7, "Whom a verdict trusts") or for
//! a bundle's log (`docs/TRANSPARENCY.md`). The key text is read by
//! `kifu_ledger::trust`, a tournament chain's organiser keys are
//! `kifu_tournament::carried`'s, and the rule is the ledger's
//! (`ArchiveVerdict::require_trusted`); this module reads the files.

use kifu_ledger::trust::{key_on_line, keys_in};
use kifu_ledger::PublicKey;

use crate::Failure;

/// The keys named by `--trust` (repeatable): each is a key on one line
/// (64 hex digits or a note verifier key), a tournament chain file (its
/// director's keys: the organiser's), or a file holding one or more keys
/// (`kifu_ledger::trust::keys_in`).
///
/// # Errors
///
/// A file that cannot be read, or a line that is none of the above (the
/// file and line are named).
pub fn read_trusted(specs: &[String]) -> Result<Vec<PublicKey>, Failure> {
    let mut out = Vec::new();
    for spec in specs {
        let s = spec.trim();
        if let Some(k) = key_on_line(s) {
            out.push(k);
            continue;
        }
        if let Some(records) = crate::tournament_verify::tournament_records(Some(&s.into())) {
            let keys = kifu_tournament::carried::organiser_keys(&records)
                .map_err(|e| Failure::new(format!("--trust {s}: {e}")))?;
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
