//! The log operator's checkpoint key, rotated in the log itself
//! (`docs/TRANSPARENCY.md` section 8, `docs/FORMAT.md` kind 54).
//!
//! The operator states the rotation as a `log_key_rotated` event signed by
//! the key being replaced, in the operator's own chain (a chain whose
//! genesis names that key as its recorder, titled
//! `kifu log operator <origin>`). The event is a leaf of the log like every
//! other stored event. A verifier that trusts the old key accepts a
//! checkpoint signed by the new key only with an inclusion proof of the
//! rotation in that checkpoint's own tree: the rotation is part of what the
//! log shows everyone, and every later tree holds it.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::Args;
use kifu_ledger::{
    Body, Event, GameKind, Genesis, Keypair, Participant, PublicKey, Role, TimeControl,
};
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::note::{Note, NoteSigner, NoteVerifier};
use serde_json::json;

use crate::archive_cmd::{write_atomically, EXIT_VERIFY_FAILED};
use crate::store_open::{now_ms, open_existing};
use crate::tlog_cmd::CheckpointArgs;
use crate::{CmdResult, Failure};
use kifu_server::tlog_api::DEFAULT_ORIGIN;

pub use kifu_bundle::rotation::{follow, RotationFile, RotationProof, Step, ROTATION_FORMAT};
pub use kifu_server::tlog_api::OPERATOR_TITLE;

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

fn fail(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: EXIT_VERIFY_FAILED,
    }
}

/// Opens a signed checkpoint given the trusted log key and, optionally,
/// the rotations that lead from it to the key that signed it.
pub fn open_checkpoint(
    text: &str,
    trusted: &NoteVerifier,
    rotation: Option<&RotationFile>,
) -> Result<(Note, Checkpoint, NoteVerifier, Vec<Step>), Failure> {
    let Some(rot) = rotation else {
        return open_with(text, trusted, &[]);
    };
    let note = Note::parse(text).map_err(|e| fail(e.to_string()))?;
    let cp = Checkpoint::parse(&note.text).map_err(|e| fail(e.to_string()))?;
    if !rot.rotations.is_empty() && rot.tree_size != cp.size {
        return Err(fail(format!(
            "the key rotation proof is for tree size {}, the checkpoint has {}",
            rot.tree_size, cp.size
        )));
    }
    open_with(text, trusted, &rot.rotations)
}

/// [`open_checkpoint`] with the rotations themselves (their inclusion
/// proofs are for the checkpoint's tree).
pub fn open_with(
    text: &str,
    trusted: &NoteVerifier,
    rotations: &[RotationProof],
) -> Result<(Note, Checkpoint, NoteVerifier, Vec<Step>), Failure> {
    let note = Note::parse(text).map_err(|e| fail(e.to_string()))?;
    let cp = Checkpoint::parse(&note.text).map_err(|e| fail(e.to_string()))?;
    let (key, steps) = follow(trusted, &cp, rotations).map_err(|e| fail(e.to_string()))?;
    note.verify(std::slice::from_ref(&key)).map_err(|e| {
        let hint = if steps.is_empty() {
            " (a checkpoint signed by a new key needs the proof of its rotation: --rotation)"
        } else {
            ""
        };
        fail(format!("checkpoint: {e}{hint}"))
    })?;
    Ok((note, cp, key, steps))
}

/// Opens an older checkpoint `text` of the same log as `new` (whose tree
/// `rot`'s proofs are for): it must be signed by the key in force at its
/// size, the key the rotations with a leaf before that size lead to. The
/// caller then checks that the two trees are consistent.
pub fn open_checkpoint_before(
    text: &str,
    trusted: &NoteVerifier,
    new: &Checkpoint,
    rot: &RotationFile,
) -> Result<Checkpoint, Failure> {
    let note = Note::parse(text).map_err(|e| fail(e.to_string()))?;
    let cp = Checkpoint::parse(&note.text).map_err(|e| fail(e.to_string()))?;
    if rot.tree_size != new.size {
        return Err(fail(format!(
            "the key rotation proof is for tree size {}, the newer checkpoint has {}",
            rot.tree_size, new.size
        )));
    }
    let (_, steps) = follow(trusted, new, &rot.rotations).map_err(|e| fail(e.to_string()))?;
    let key = match steps.iter().rev().find(|s| s.leaf_index < cp.size) {
        Some(s) => NoteVerifier::parse(&s.new_key).map_err(|e| fail(e.to_string()))?,
        None => trusted.clone(),
    };
    note.verify(std::slice::from_ref(&key))
        .map_err(|e| fail(format!("older checkpoint: {e}")))?;
    Ok(cp)
}

/// Reads a rotation proof file.
pub fn read_rotation(path: &Path) -> Result<RotationFile, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    let r: RotationFile = serde_json::from_str(&text)
        .map_err(|e| Failure::new(format!("{}: not a key rotation proof: {e}", path.display())))?;
    if r.format != ROTATION_FORMAT {
        return Err(Failure::new(format!(
            "{}: not a {ROTATION_FORMAT} file",
            path.display()
        )));
    }
    Ok(r)
}

/// The log's first key (the one its verifiers were given) and the rotation
/// proofs that lead from it to the key signing the checkpoint `cp`.
pub fn rotation_proof(
    store: &kifu_store::Store,
    cp: &Checkpoint,
) -> Result<(Option<String>, Vec<RotationProof>), Failure> {
    kifu_server::bundle_api::rotation_proof(store, cp).map_err(|e| Failure::new(e.to_string()))
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
    let note = Note::parse(&text).map_err(|e| Failure::new(e.to_string()))?;
    let cp = Checkpoint::parse(&note.text).map_err(|e| Failure::new(e.to_string()))?;
    if store.tree_root(cp.size)? != cp.root {
        return Err(fail(
            "the checkpoint's root is not this store's: another log, or a fork",
        ));
    }
    let (first, rotations) = rotation_proof(&store, &cp)?;
    let log_key = match first {
        Some(k) => k,
        None => store
            .log_key()?
            .ok_or_else(|| Failure::new("the store has no log key"))?,
    };
    let file = RotationFile {
        format: ROTATION_FORMAT.into(),
        origin: cp.origin.clone(),
        tree_size: cp.size,
        log_key,
        rotations,
    };
    let text = serde_json::to_string_pretty(&file)?;
    if let Some(out) = &a.out {
        write_atomically(out, text.as_bytes())?;
    }
    say!("{text}");
    Ok(())
}

fn read_key(path: &Path) -> Result<Keypair, Failure> {
    crate::keys::read_private(path)
}

fn seed_of(path: &Path) -> Result<[u8; 32], Failure> {
    use ed25519_dalek::pkcs8::DecodePrivateKey;
    let pem = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    let key = ed25519_dalek::SigningKey::from_pkcs8_pem(&pem).map_err(|e| {
        Failure::new(format!(
            "{}: not an ed25519 PKCS#8 PEM private key: {e}",
            path.display()
        ))
    })?;
    Ok(key.to_bytes())
}

/// The genesis of the operator chain of `origin` for `key`.
fn operator_genesis(origin: &str, key: PublicKey) -> Genesis {
    Genesis {
        game: GameKind::Go,
        ruleset: GameKind::Go.default_ruleset().into(),
        overrides: Vec::new(),
        board_size: 19,
        handicap: 0,
        komi_half_points: 0,
        time_control: TimeControl::Untimed,
        roster: vec![Participant {
            role: Role::Recorder,
            name: "log operator".into(),
            key,
        }],
        tournament: None,
        title: format!("{OPERATOR_TITLE}{origin}"),
        auto_declare: false,
    }
}

/// `kifu checkpoint --key OLD.key --rotate-to NEW.key`: records the
/// rotation in the log (signed by the old key, in the operator's chain for
/// that key, created on first use), then signs the tree that includes it
/// with the new key.
pub fn rotate(data: &Path, a: &CheckpointArgs, key: &Path, new_key_file: &Path) -> CmdResult {
    let store = open_existing(data)?;
    let old = read_key(key)?;
    let new_seed = seed_of(new_key_file)?;
    let new = Keypair::from_seed(new_seed);
    if new.public() == old.public() {
        return Err(Failure::new("the new key is the old key"));
    }
    let previous = match store.latest_checkpoint()? {
        Some((_, text)) => Some(
            Note::parse(&text)
                .ok()
                .and_then(|n| Checkpoint::parse(&n.text).ok())
                .ok_or_else(|| Failure::new("the last kept checkpoint is damaged"))?,
        ),
        None => None,
    };
    let origin = a
        .origin
        .clone()
        .or_else(|| previous.as_ref().map(|c| c.origin.clone()))
        .unwrap_or_else(|| DEFAULT_ORIGIN.to_string());
    let old_vkey = NoteVerifier::ed25519(&origin, old.public().verifying_key()?).to_vkey();
    if let Some(current) = store.log_key()? {
        if current != old_vkey {
            return Err(Failure::new(format!(
                "the log's key is {current}, not the key given ({old_vkey}); only the log's current key can rotate it"
            )));
        }
    }
    let at = now_ms();
    // The operator chain of this key: its genesis names the key as recorder.
    let mut chain = None;
    for game in store.games()? {
        let g = store.genesis(&game)?;
        if g.title == format!("{OPERATOR_TITLE}{origin}")
            && g.roster.iter().any(|p| p.key == old.public())
        {
            chain = Some(game);
        }
    }
    let game = match chain {
        Some(g) => g,
        None => {
            let genesis = Event {
                version: kifu_ledger::FORMAT_VERSION,
                chain: kifu_ledger::ZERO_HASH,
                seq: 0,
                prev_hash: kifu_ledger::ZERO_HASH,
                at_ms: at,
                signer: old.public(),
                body: Body::GameCreated(operator_genesis(&origin, old.public())),
            }
            .sign(&old)?;
            store.append(genesis)?.game
        }
    };
    let head = store
        .head(&game)?
        .ok_or_else(|| Failure::new("the operator chain has no head"))?;
    let statement = Event::next(
        game,
        head,
        at,
        old.public(),
        Body::LogKeyRotated {
            origin: origin.clone(),
            new_key: new.public(),
        },
    )
    .sign(&old)?;
    let appended = store.append(statement)?;
    store.sync()?;
    let leaf = store
        .leaf_index(&game, appended.seq)?
        .ok_or_else(|| Failure::new("the rotation has no leaf in the log"))?;
    // The first checkpoint of the new key: the tree that includes the rotation.
    let signer =
        NoteSigner::new(&origin, new_seed).map_err(|e| Failure::new(format!("origin: {e}")))?;
    let size = store.tree_size()?;
    let root = store.tree_root(size)?;
    let mut cp = Checkpoint::new(origin.clone(), size, root);
    cp.extensions
        .push(kifu_tlog::map::map_line(&store.map_root(size)?));
    let mut note = Note::new(cp.to_text()).map_err(|e| Failure::new(e.to_string()))?;
    signer.sign(&mut note);
    let text = note.to_text();
    store.save_checkpoint(size, &text)?;
    let new_vkey = signer.verifier().to_vkey();
    store.set_log_key(&new_vkey)?;
    if let Some(out) = &a.out {
        write_atomically(out, text.as_bytes())?;
    }
    if a.json {
        say!(
            "{}",
            json!({"checkpoint": text, "origin": origin, "size": size, "root": B64.encode(root),
                   "log_key": new_vkey, "old_log_key": old_vkey, "rotation_leaf": leaf,
                   "operator_chain": hex::encode(game), "rotation_seq": appended.seq})
        );
    } else {
        print!("{text}");
        eprintln!(
            "log key rotated at leaf {leaf} (operator chain {}, seq {}): {old_vkey} -> {new_vkey}",
            hex::encode(&game[..6]),
            appended.seq
        );
        eprintln!("log key: {new_vkey}");
    }
    Ok(())
}
