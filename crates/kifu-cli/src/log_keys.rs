//! The log operator's checkpoint key, rotated in the log itself
//! (`docs/TRANSPARENCY.md` section 8, `docs/FORMAT.md` kind 54): the
//! commands' side. The rotation and its proof are
//! `kifu_store::operator`'s; opening a checkpoint by following rotations is
//! `kifu_bundle::rotation`'s.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::Args;
use kifu_bundle::rotation::RotationFile;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::note::NoteVerifier;

use crate::store_open::{now_ms, open_existing};
use crate::verdicts::{fail_verify, write_atomically};
use crate::{CmdResult, Failure};

/// `kifu prove rotation`.
#[derive(Debug, Args)]
pub struct ProveRotationArgs {
    /// Prove against this signed checkpoint (default: the last one kept).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Also write the proof to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

fn failed(e: impl std::fmt::Display) -> Failure {
    fail_verify(e.to_string())
}

/// Opens a signed checkpoint given the trusted log key and, optionally,
/// the rotations that lead from it to the key that signed it.
pub fn open_checkpoint(
    text: &str,
    trusted: &NoteVerifier,
    rotation: Option<&RotationFile>,
) -> Result<kifu_bundle::rotation::Opened, Failure> {
    kifu_bundle::rotation::open_checkpoint(text, trusted, rotation).map_err(failed)
}

/// Opens an older checkpoint of the same log as `new`, under the key in
/// force at its size.
pub fn open_checkpoint_before(
    text: &str,
    trusted: &NoteVerifier,
    new: &Checkpoint,
    rot: &RotationFile,
) -> Result<Checkpoint, Failure> {
    kifu_bundle::rotation::open_checkpoint_before(text, trusted, new, rot).map_err(failed)
}

/// Reads a rotation proof file.
pub fn read_rotation(path: &Path) -> Result<RotationFile, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    kifu_bundle::verdict::read_rotation(&text)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

/// `kifu prove rotation`.
pub fn prove_rotation(data: &Path, a: ProveRotationArgs) -> CmdResult {
    let store = open_existing(data)?;
    let text = match &a.checkpoint {
        Some(f) => {
            std::fs::read_to_string(f).map_err(|e| Failure::new(format!("{}: {e}", f.display())))?
        }
        None => {
            store
                .latest_checkpoint()?
                .ok_or_else(|| Failure::new("no checkpoint yet"))?
                .1
        }
    };
    let cp =
        kifu_tlog::offline::unchecked_checkpoint(&text).map_err(|e| Failure::new(e.to_string()))?;
    let file = kifu_store::operator::rotation_file(&store, &cp).map_err(|e| match e {
        kifu_store::operator::LogError::ForeignCheckpoint => failed(e),
        e => Failure::new(e.to_string()),
    })?;
    let text = serde_json::to_string_pretty(&file)?;
    if let Some(out) = &a.out {
        write_atomically(out, text.as_bytes())?;
    }
    say!("{text}");
    Ok(())
}

/// The seed of a PKCS#8 PEM private key file (a log's or a witness's key).
pub(crate) fn read_seed(path: &Path) -> Result<[u8; 32], Failure> {
    let pem = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    let key = kifu_ledger::Keypair::from_pkcs8_pem(&pem).map_err(|e| match e {
        kifu_ledger::LedgerError::KeyFile(why) => {
            Failure::new(format!("{}: {why}", path.display()))
        }
        e => Failure::new(format!("{}: {e}", path.display())),
    })?;
    Ok(key.seed())
}

/// `kifu checkpoint --key OLD.key --rotate-to NEW.key`: records the
/// rotation in the log (signed by the old key, in the operator's chain for
/// that key, created on first use), then signs the tree that includes it
/// with the new key.
pub fn rotate(
    data: &Path,
    origin: Option<&str>,
    out: Option<&Path>,
    json: bool,
    key: &Path,
    new_key_file: &Path,
) -> CmdResult {
    let store = open_existing(data)?;
    let old = crate::keys::read_private(key)?;
    let new_seed = read_seed(new_key_file)?;
    let r = kifu_store::operator::rotate_key(&store, origin, &old, new_seed, now_ms())
        .map_err(|e| Failure::new(e.to_string()))?;
    let (text, cp) = (&r.signed.text, &r.signed.checkpoint);
    if let Some(out) = out {
        write_atomically(out, text.as_bytes())?;
    }
    if json {
        say!(
            "{}",
            serde_json::to_string(&kifu_archive::printed::KeyRotated {
                checkpoint: text.clone(),
                origin: r.origin.clone(),
                size: cp.size,
                root: B64.encode(cp.root),
                log_key: r.new_key.clone(),
                old_log_key: r.old_key.clone(),
                rotation_leaf: r.leaf,
                operator_chain: hex::encode(r.operator_chain),
                rotation_seq: r.seq,
            })
            .unwrap_or_default()
        );
    } else {
        print!("{text}");
        eprintln!(
            "log key rotated at leaf {} (operator chain {}, seq {}): {} -> {}",
            r.leaf,
            hex::encode(&r.operator_chain[..6]),
            r.seq,
            r.old_key,
            r.new_key
        );
        eprintln!("log key: {}", r.new_key);
    }
    Ok(())
}
