//! The transparency log on the command line: `kifu checkpoint`, `kifu
//! witness`, `kifu prove`, `kifu check-proof`, `kifu bundle`, and `kifu
//! verify` of a bundle. Formats: `docs/TRANSPARENCY.md`.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::{Args, Subcommand};
use ed25519_dalek::pkcs8::DecodePrivateKey;
use kifu_ledger::{verify_records, Hash, Record};
use kifu_store::tlog::Leaf;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::cosign::{witness as cosign_checkpoint, Cosigner, WitnessState};
use kifu_tlog::note::{Note, NoteSigner, NoteVerifier, TYPE_COSIGNATURE_V1, TYPE_ED25519};
use kifu_tlog::proof::{parse_b64_hash, ConsistencyProof, InclusionProof};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::archive_cmd::{write_atomically, EXIT_VERIFY_FAILED};
use crate::render::short;
use crate::store_open::open_existing;
use crate::{CmdResult, Failure};

/// First line of a bundle file.
pub const BUNDLE_FORMAT: &str = "kifu-bundle/1";

/// `kifu checkpoint`.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// The log operator's private key (PKCS#8 PEM); not with --server,
    /// where the server signs with its own.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The log's origin line, also the key name (default: the origin of
    /// the last checkpoint, else kifu.local/log).
    #[arg(long)]
    pub origin: Option<String>,
    /// Also write the signed checkpoint to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the checkpoint and the verifier key as JSON.
    #[arg(long)]
    pub json: bool,
    /// Rotate the log's key: record in the log, signed by --key, that this
    /// key signs from now on, and sign the tree that includes it with it
    /// (docs/TRANSPARENCY.md section 8).
    #[arg(long, value_name = "NEW.key")]
    pub rotate_to: Option<PathBuf>,
    /// With --server: ask the server to sign the current tree first
    /// (POST /checkpoint) instead of fetching its latest checkpoint.
    #[arg(long)]
    pub fresh: bool,
}

/// `kifu witness`.
#[derive(Debug, Args)]
pub struct WitnessArgs {
    /// The signed checkpoint to cosign (a file).
    pub checkpoint: PathBuf,
    /// The witness's private key (PKCS#8 PEM).
    #[arg(long)]
    pub key: PathBuf,
    /// The witness's key name (e.g. witness.example.org/w1).
    #[arg(long)]
    pub name: String,
    /// The log's verifier key (name+keyid+key, as `kifu checkpoint` prints it).
    #[arg(long)]
    pub log_key: String,
    /// The witness's memory: the last checkpoint it cosigned (created on
    /// first use, replaced after each cosignature).
    #[arg(long)]
    pub state: PathBuf,
    /// Consistency proof from the remembered size to the new one (JSON or
    /// text form); when absent it is asked of the store in --data.
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// Write the cosigned checkpoint here (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The proof of the log's key rotations (`kifu prove rotation`), when the
    /// checkpoint is signed by a key the log rotated to from --log-key.
    #[arg(long)]
    pub rotation: Option<PathBuf>,
}

/// `kifu prove`.
#[derive(Debug, Subcommand)]
pub enum ProveCommand {
    /// Inclusion proof of one event in the log.
    Inclusion(ProveInclusionArgs),
    /// Consistency proof between two tree sizes.
    Consistency(ProveConsistencyArgs),
    /// The log's key rotations, with their inclusion proofs at a checkpoint.
    Rotation(crate::log_keys::ProveRotationArgs),
}

/// `kifu prove inclusion`.
#[derive(Debug, Args)]
pub struct ProveInclusionArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// The event's sequence number.
    pub seq: u64,
    /// Prove against this signed checkpoint (default: the last one kept,
    /// else the current tree).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Print only the text form (`leaf_index=` and `node_hash=` lines).
    #[arg(long)]
    pub text: bool,
}

/// `kifu prove consistency`.
#[derive(Debug, Args)]
pub struct ProveConsistencyArgs {
    /// The older tree size.
    pub old: u64,
    /// The newer tree size.
    pub new: u64,
    /// Print only the text form (`node_hash=` lines).
    #[arg(long)]
    pub text: bool,
}

/// `kifu check-proof`.
#[derive(Debug, Subcommand)]
pub enum CheckProofCommand {
    /// Checks an inclusion proof against a signed checkpoint, offline.
    Inclusion(CheckInclusionArgs),
    /// Checks a consistency proof between two signed checkpoints, offline.
    Consistency(CheckConsistencyArgs),
}

/// `kifu check-proof inclusion`.
#[derive(Debug, Args)]
pub struct CheckInclusionArgs {
    /// The proof, as `kifu prove inclusion` printed it (JSON or text form).
    pub proof: PathBuf,
    /// The signed checkpoint.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The log's verifier key.
    #[arg(long)]
    pub log_key: String,
    /// The leaf data in hex (needed with the text form).
    #[arg(long)]
    pub leaf: Option<String>,
    /// The proof of the log's key rotations (`kifu prove rotation`), when the
    /// checkpoint is signed by a key the log rotated to from --log-key.
    #[arg(long)]
    pub rotation: Option<PathBuf>,
}

/// `kifu check-proof consistency`.
#[derive(Debug, Args)]
pub struct CheckConsistencyArgs {
    /// The proof, as `kifu prove consistency` printed it (JSON or text form).
    pub proof: PathBuf,
    /// The older signed checkpoint.
    #[arg(long)]
    pub old: PathBuf,
    /// The newer signed checkpoint.
    #[arg(long)]
    pub new: PathBuf,
    /// The log's verifier key.
    #[arg(long)]
    pub log_key: String,
    /// The proof of the log's key rotations at the newer checkpoint's size.
    #[arg(long)]
    pub rotation: Option<PathBuf>,
}

/// `kifu tiles`.
#[derive(Debug, Args)]
pub struct TilesArgs {
    /// Directory to write `checkpoint`, `tile/<L>/<N>` and `tile/entries/<N>` into
    /// (a static C2SP tlog-tiles site).
    #[arg(long)]
    pub out: PathBuf,
}

/// `kifu bundle`.
#[derive(Debug, Args)]
pub struct BundleArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// Where to write the bundle.
    #[arg(long)]
    pub out: PathBuf,
    /// The (co-)signed checkpoint to prove against (default: the last one kept).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// A witness's verifier key whose cosignature the bundle must carry
    /// (repeatable).
    #[arg(long = "witness-key")]
    pub witness_keys: Vec<String>,
}

fn fail_verify(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: EXIT_VERIFY_FAILED,
    }
}

fn read_text(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

pub(crate) fn read_seed(path: &Path) -> Result<[u8; 32], Failure> {
    let pem = read_text(path)?;
    let key = ed25519_dalek::SigningKey::from_pkcs8_pem(&pem).map_err(|e| {
        Failure::new(format!(
            "{}: not an ed25519 PKCS#8 PEM private key: {e}",
            path.display()
        ))
    })?;
    Ok(key.to_bytes())
}

fn vkey(s: &str) -> Result<NoteVerifier, Failure> {
    NoteVerifier::parse(s).map_err(|e| Failure::new(e.to_string()))
}

/// Opens a signed checkpoint: the log's signature must verify.
fn open_checkpoint(text: &str, log: &NoteVerifier) -> Result<(Note, Checkpoint), Failure> {
    let note = Note::parse(text).map_err(|e| fail_verify(e.to_string()))?;
    note.verify(std::slice::from_ref(log))
        .map_err(|e| fail_verify(format!("checkpoint: {e}")))?;
    let cp = Checkpoint::parse(&note.text).map_err(|e| fail_verify(e.to_string()))?;
    Ok((note, cp))
}

fn b64(h: &[u8]) -> String {
    B64.encode(h)
}

/// `kifu checkpoint`.
pub fn checkpoint(data: &Path, a: CheckpointArgs) -> CmdResult {
    if let Some(url) = crate::remote::server() {
        return crate::tlog_remote::checkpoint(url, &a);
    }
    if a.fresh {
        return Err(Failure::new(
            "--fresh asks a server to sign: use it with --server URL",
        ));
    }
    let key = a.key.as_ref().ok_or_else(|| {
        Failure::new(
            "--key OPERATOR.key is needed to sign (or --server URL to fetch a server's checkpoint)",
        )
    })?;
    if let Some(new) = &a.rotate_to {
        return crate::log_keys::rotate(data, &a, key, new);
    }
    let store = open_existing(data)?;
    let origin = kifu_server::tlog_api::resolve_origin(&store, a.origin.as_deref())
        .map_err(|e| Failure::new(e.to_string()))?;
    let signer = NoteSigner::new(&origin, read_seed(key)?)
        .map_err(|e| Failure::new(format!("origin: {e}")))?;
    let signed = kifu_server::tlog_api::sign_checkpoint(&store, &signer)
        .map_err(|e| Failure::new(e.to_string()))?;
    let (cp, text) = (signed.checkpoint, signed.text);
    if let Some(out) = &a.out {
        write_atomically(out, text.as_bytes())?;
    }
    if a.json {
        say!(
            "{}",
            json!({"checkpoint": text, "origin": cp.origin, "size": cp.size, "root": b64(&cp.root), "log_key": signer.verifier().to_vkey()})
        );
    } else {
        print!("{text}");
        eprintln!("log key: {}", signer.verifier().to_vkey());
    }
    Ok(())
}

fn read_consistency_proof(path: &Path, old: u64, new: u64) -> Result<ConsistencyProof, Failure> {
    let text = read_text(path)?;
    if text.trim_start().starts_with('{') {
        let p: ConsistencyProof = serde_json::from_str(&text)
            .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
        if (p.old_size, p.new_size) != (old, new) {
            return Err(fail_verify(format!(
                "the proof is from size {} to {}, not {old} to {new}",
                p.old_size, p.new_size
            )));
        }
        Ok(p)
    } else {
        ConsistencyProof::from_text(&text, old, new).map_err(|e| fail_verify(e.to_string()))
    }
}

/// `kifu witness`.
pub fn witness(data: &Path, a: WitnessArgs) -> CmdResult {
    let mut log = vkey(&a.log_key)?;
    if let Some(r) = &a.rotation {
        let rot = crate::log_keys::read_rotation(r)?;
        log = crate::log_keys::open_checkpoint(&read_text(&a.checkpoint)?, &log, Some(&rot))?.2;
    }
    let cosigner = Cosigner::new(&a.name, read_seed(&a.key)?)
        .map_err(|e| Failure::new(format!("witness name: {e}")))?;
    let mut note =
        Note::parse(&read_text(&a.checkpoint)?).map_err(|e| fail_verify(e.to_string()))?;
    let new = Checkpoint::parse(&note.text).map_err(|e| fail_verify(e.to_string()))?;
    let last = match std::fs::read_to_string(&a.state) {
        Ok(t) => {
            let c = Checkpoint::parse(&t)
                .map_err(|e| Failure::new(format!("{}: {e}", a.state.display())))?;
            Some(WitnessState {
                origin: c.origin,
                size: c.size,
                root: c.root,
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Failure::new(format!("{}: {e}", a.state.display()))),
    };
    let proof = match &last {
        Some(l) if l.size > 0 && l.size < new.size => match &a.proof {
            Some(p) => read_consistency_proof(p, l.size, new.size)?.hashes,
            None => match crate::remote::server() {
                Some(url) => crate::tlog_remote::consistency_proof(url, l.size, new.size)?.hashes,
                None => open_existing(data)?.consistency_proof(l.size, new.size)?,
            },
        },
        _ => Vec::new(),
    };
    let now = crate::store_open::now_ms() / 1000;
    let state = cosign_checkpoint(&cosigner, &log, &mut note, last.as_ref(), &proof, now)
        .map_err(|e| fail_verify(format!("refusing to cosign: {e}")))?;
    let text = note.to_text();
    match &a.out {
        Some(out) => write_atomically(out, text.as_bytes())?,
        None => print!("{text}"),
    }
    let remembered = Checkpoint::new(state.origin, state.size, state.root).to_text();
    write_atomically(&a.state, remembered.as_bytes())?;
    eprintln!(
        "cosigned {} at size {}; witness key: {}",
        new.origin,
        new.size,
        cosigner.verifier().to_vkey()
    );
    Ok(())
}

/// The tree size and root to prove against: a given checkpoint (whose root
/// must be the store's), the last kept one, or the current tree.
fn target(store: &kifu_store::Store, file: Option<&PathBuf>) -> Result<(u64, Hash), Failure> {
    let text = match file {
        Some(f) => Some(read_text(f)?),
        None => None,
    };
    match text {
        Some(t) => {
            let note = Note::parse(&t).map_err(|e| Failure::new(e.to_string()))?;
            let cp = Checkpoint::parse(&note.text).map_err(|e| Failure::new(e.to_string()))?;
            let root = store.tree_root(cp.size)?;
            if root != cp.root {
                return Err(fail_verify(format!(
                    "the checkpoint's root at size {} is not this store's: another log, or a fork",
                    cp.size
                )));
            }
            Ok((cp.size, cp.root))
        }
        None => kifu_server::tlog_api::proof_target(store).map_err(|e| fail_verify(e.to_string())),
    }
}

/// `kifu prove inclusion`.
pub fn prove_inclusion(data: &Path, a: ProveInclusionArgs) -> CmdResult {
    if let Some(url) = crate::remote::server() {
        return crate::tlog_remote::prove_inclusion(url, &a);
    }
    let store = open_existing(data)?;
    let game = store.resolve(&a.game)?;
    let (size, root) = target(&store, a.checkpoint.as_ref())?;
    let answer = kifu_server::tlog_api::prove_inclusion(&store, &game, a.seq, size, Some(root))
        .map_err(|e| Failure::new(e.to_string()))?;
    if a.text {
        print!("{}", answer.proof.to_text());
    } else {
        say!("{}", answer.to_json());
    }
    Ok(())
}

/// `kifu prove consistency`.
pub fn prove_consistency(data: &Path, a: ProveConsistencyArgs) -> CmdResult {
    if let Some(url) = crate::remote::server() {
        return crate::tlog_remote::prove_consistency(url, &a);
    }
    let store = open_existing(data)?;
    let answer = kifu_server::tlog_api::prove_consistency(&store, a.old, a.new)
        .map_err(|e| Failure::new(e.to_string()))?;
    if a.text {
        print!("{}", answer.proof.to_text());
    } else {
        say!("{}", answer.to_json());
    }
    Ok(())
}

/// `kifu check-proof inclusion`.
pub fn check_inclusion(a: CheckInclusionArgs) -> CmdResult {
    let trusted = vkey(&a.log_key)?;
    let rot = a
        .rotation
        .as_deref()
        .map(crate::log_keys::read_rotation)
        .transpose()?;
    let (_, cp, log, _) =
        crate::log_keys::open_checkpoint(&read_text(&a.checkpoint)?, &trusted, rot.as_ref())?;
    let text = read_text(&a.proof)?;
    let (proof, leaf_hex) = if text.trim_start().starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(&text)?;
        let p: InclusionProof = serde_json::from_value(v.clone())?;
        let leaf = a
            .leaf
            .clone()
            .or_else(|| v["leaf"].as_str().map(str::to_string));
        (p, leaf)
    } else {
        let p =
            InclusionProof::from_text(&text, cp.size).map_err(|e| fail_verify(e.to_string()))?;
        (p, a.leaf.clone())
    };
    let leaf_hex = leaf_hex.ok_or_else(|| Failure::new("give the leaf data with --leaf HEX"))?;
    let leaf_bytes = hex::decode(leaf_hex.trim()).map_err(|_| Failure::new("--leaf is not hex"))?;
    if proof.tree_size != cp.size {
        return Err(fail_verify(format!(
            "the proof is for a tree of {} leaves, the checkpoint has {}",
            proof.tree_size, cp.size
        )));
    }
    proof
        .verify(&kifu_tlog::leaf_hash(&leaf_bytes), &cp.root)
        .map_err(|e| fail_verify(format!("inclusion proof fails: {e}")))?;
    let what = match Leaf::from_bytes(&leaf_bytes) {
        Some(l) => format!("event seq {} of game {}", l.seq, hex::encode(l.game)),
        None => "the leaf".to_string(),
    };
    say!(
        "ok: {what} is leaf {} of {} at tree size {}, signed by {}",
        proof.leaf_index,
        cp.origin,
        cp.size,
        log.to_vkey()
    );
    Ok(())
}

/// `kifu check-proof consistency`.
pub fn check_consistency(a: CheckConsistencyArgs) -> CmdResult {
    let log = vkey(&a.log_key)?;
    let rot = a
        .rotation
        .as_deref()
        .map(crate::log_keys::read_rotation)
        .transpose()?;
    let (_, new, _, _) = crate::log_keys::open_checkpoint(&read_text(&a.new)?, &log, rot.as_ref())?;
    // The older checkpoint is signed by the trusted key, or by a key the
    // rotations (all in the newer tree) lead to before its size.
    let old_text = read_text(&a.old)?;
    let old = match open_checkpoint(&old_text, &log) {
        Ok((_, c)) => c,
        Err(first) => {
            let Some(rot) = &rot else { return Err(first) };
            crate::log_keys::open_checkpoint_before(&old_text, &log, &new, rot)?
        }
    };
    if old.origin != new.origin {
        return Err(fail_verify(format!(
            "the checkpoints are of two logs: {} and {}",
            old.origin, new.origin
        )));
    }
    let proof = read_consistency_proof(&a.proof, old.size, new.size)?;
    proof.verify(&old.root, &new.root).map_err(|e| {
        fail_verify(format!(
            "not consistent: the log at size {} is not a prefix of the log at size {}: {e}",
            old.size, new.size
        ))
    })?;
    say!(
        "ok: {} at size {} is a prefix of itself at size {}: nothing was changed or removed",
        new.origin,
        old.size,
        new.size
    );
    Ok(())
}

/// One record in a bundle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BundleRecord {
    /// The record's place in its game.
    pub seq: u64,
    /// Its leaf index in the log.
    pub leaf_index: u64,
    /// The stored record bytes (`u32 LE length || event bytes || signature`), base64.
    pub record: String,
    /// Its inclusion proof at the checkpoint's size, base64 hashes.
    pub inclusion: Vec<String>,
}

/// The end of the log from the game's last record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BundleTail {
    /// Leaf index of the game's last record.
    pub start: u64,
    /// The 72-byte leaf data of every leaf from `start` to the checkpoint's size, hex.
    pub leaves: Vec<String>,
    /// The range proof tying them to the checkpoint's root, base64 hashes.
    pub proof: Vec<String>,
}

/// An appeal bundle (`docs/TRANSPARENCY.md`, "Bundles").
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bundle {
    /// Always [`BUNDLE_FORMAT`].
    pub format: String,
    /// The game id, hex.
    pub game: String,
    /// The log's verifier key.
    pub log_key: String,
    /// The witnesses' verifier keys whose cosignatures the checkpoint carries.
    pub witness_keys: Vec<String>,
    /// The signed (and co-signed) checkpoint note.
    pub checkpoint: String,
    /// Every record of the game, in seq order.
    pub records: Vec<BundleRecord>,
    /// The log's tail from the game's last record.
    pub tail: BundleTail,
    /// A tournament chain's checkpoint of the game's head, where one exists.
    pub tournament_checkpoint: Option<serde_json::Value>,
    /// The rotations of the log's key from `log_key` to the key that signed
    /// the checkpoint, each proved in the checkpoint's tree (none when
    /// `log_key` signed it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log_key_rotations: Vec<crate::log_keys::RotationProof>,
}

/// `kifu tiles`: the log as a static C2SP tlog-tiles directory at the size
/// of the last kept checkpoint. Tiles already written are immutable and kept.
pub fn tiles(data: &Path, a: TilesArgs) -> CmdResult {
    let store = open_existing(data)?;
    let (size, text) = store
        .latest_checkpoint()?
        .ok_or_else(|| Failure::new("no checkpoint yet: run `kifu checkpoint --key ...` first"))?;
    let mut written = 0usize;
    let mut write = |rel: &str, bytes: &[u8]| -> CmdResult {
        let path = a.out.join(rel);
        if path.exists() && !rel.contains(".p/") && rel != "checkpoint" {
            return Ok(());
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        write_atomically(&path, bytes)?;
        written += 1;
        Ok(())
    };
    for (level, index, width) in kifu_tlog::tiles::tiles_for_size(size) {
        if let Some((w, bytes)) = store.tile(level, index, size)? {
            debug_assert_eq!(w, width);
            write(&kifu_tlog::tiles::tile_path(level, index, w), &bytes)?;
        }
        if level == 0 {
            if let Some((w, bytes)) = store.entry_bundle(index, size)? {
                write(&kifu_tlog::tiles::entries_path(index, w), &bytes)?;
            }
        }
    }
    write("checkpoint", text.as_bytes())?;
    say!(
        "wrote {written} files under {} for the checkpoint at size {size}",
        a.out.display()
    );
    Ok(())
}

/// `kifu bundle`.
pub fn bundle(data: &Path, a: BundleArgs) -> CmdResult {
    let store = open_existing(data)?;
    let game = store.resolve(&a.game)?;
    let text = match &a.checkpoint {
        Some(f) => read_text(f)?,
        None => {
            store
                .latest_checkpoint()?
                .ok_or_else(|| {
                    Failure::new("no checkpoint yet: run `kifu checkpoint --key ...` first")
                })?
                .1
        }
    };
    let (first_key, rotations) = {
        let n = Note::parse(&text).map_err(|e| fail_verify(e.to_string()))?;
        let c = Checkpoint::parse(&n.text).map_err(|e| fail_verify(e.to_string()))?;
        crate::log_keys::rotation_proof(&store, &c)?
    };
    let log_key = match first_key {
        Some(k) => k,
        None => store
            .log_key()?
            .ok_or_else(|| Failure::new("the store has no log key: run `kifu checkpoint` first"))?,
    };
    let log = vkey(&log_key)?;
    let (note, cp, _, _) = crate::log_keys::open_with(&text, &log, &rotations)?;
    if store.tree_root(cp.size)? != cp.root {
        return Err(fail_verify(
            "the checkpoint's root is not this store's: another log, or a fork",
        ));
    }
    let mut witnesses = Vec::new();
    for w in &a.witness_keys {
        let v = vkey(w)?;
        note.verify(std::slice::from_ref(&v))
            .map_err(|e| fail_verify(format!("witness {}: {e}", v.name)))?;
        witnesses.push(v.to_vkey());
    }
    let records = store.read(&game, 0, None)?;
    let mut out = Vec::with_capacity(records.len());
    let mut last_index = 0;
    for r in &records {
        let seq = r.header()?.seq;
        let index = store
            .leaf_index(&game, seq)?
            .ok_or_else(|| Failure::new(format!("event {seq} has no leaf in the log")))?;
        if index >= cp.size {
            return Err(Failure::new(format!(
                "event {seq} was logged after the checkpoint (size {}); sign and cosign a newer one",
                cp.size
            )));
        }
        last_index = index;
        out.push(BundleRecord {
            seq,
            leaf_index: index,
            record: b64(&r.to_stored()),
            inclusion: store
                .inclusion_proof(index, cp.size)?
                .iter()
                .map(|h| b64(h))
                .collect(),
        });
    }
    let tail_leaves = store.leaves(last_index, cp.size)?;
    let b = Bundle {
        format: BUNDLE_FORMAT.into(),
        game: hex::encode(game),
        log_key,
        witness_keys: witnesses,
        checkpoint: text,
        records: out,
        tail: BundleTail {
            start: last_index,
            leaves: tail_leaves
                .iter()
                .map(|l| hex::encode(l.to_bytes()))
                .collect(),
            proof: store
                .range_proof(last_index, cp.size)?
                .iter()
                .map(|h| b64(h))
                .collect(),
        },
        log_key_rotations: rotations,
        tournament_checkpoint: crate::bundle_tournament::find(
            data,
            &game,
            records.len().saturating_sub(1) as u64,
        )?
        .map(serde_json::to_value)
        .transpose()?,
    };
    let bytes = serde_json::to_vec_pretty(&b)?;
    write_atomically(&a.out, &bytes)?;
    say!(
        "wrote {}: game {}, {} events, checkpoint of {} at size {}, {} tail leaves, {} bytes",
        a.out.display(),
        short(&game),
        b.records.len(),
        cp.origin,
        cp.size,
        b.tail.leaves.len(),
        bytes.len()
    );
    Ok(())
}

/// True when `file` looks like a bundle (so `kifu verify FILE` checks it as one).
pub fn is_bundle(file: Option<&PathBuf>) -> bool {
    let Some(f) = file else { return false };
    let mut head = [0u8; 64];
    let n = std::fs::File::open(f)
        .and_then(|mut fh| std::io::Read::read(&mut fh, &mut head))
        .unwrap_or(0);
    // An archive starts with "KIFUARC1"; a bundle is a JSON object.
    head[..n]
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

/// What a verified bundle proves.
#[derive(Debug, Clone, Serialize)]
pub struct BundleReport {
    /// Game id, hex.
    pub game: String,
    /// Number of events.
    pub events: usize,
    /// Last seq.
    pub head_seq: u64,
    /// Hash of the last record, hex.
    pub head_hash: String,
    /// Checkpoint origin.
    pub origin: String,
    /// Tree size.
    pub tree_size: u64,
    /// Root, base64.
    pub root: String,
    /// Log key.
    pub log_key: String,
    /// Witness keys and their cosignature times.
    pub witnesses: Vec<(String, u64)>,
    /// The keys the log's key was rotated to, up to the one that signed the
    /// checkpoint.
    pub rotated_to: Vec<crate::log_keys::Step>,
    /// The tournament chain's checkpoint of the game's head, when the
    /// bundle carries one.
    pub tournament: Option<crate::bundle_tournament::TournamentReport>,
}

/// Checks a bundle offline; the error says what is wrong.
pub fn check_bundle(b: &Bundle) -> Result<BundleReport, String> {
    if b.format != BUNDLE_FORMAT {
        return Err(format!("not a {BUNDLE_FORMAT} bundle"));
    }
    let log = NoteVerifier::parse(&b.log_key).map_err(|e| format!("log key: {e}"))?;
    if log.sig_type != TYPE_ED25519 {
        return Err("the log key is not an Ed25519 note key".into());
    }
    // docs/TRANSPARENCY.md section 8: the key that signs this checkpoint is
    // `log_key`, or the key its proved rotations lead to.
    let (log, rotated_to) = {
        let n = Note::parse(&b.checkpoint).map_err(|e| format!("checkpoint: {e}"))?;
        let c = Checkpoint::parse(&n.text).map_err(|e| e.to_string())?;
        crate::log_keys::follow(&log, &c, &b.log_key_rotations)?
    };
    let mut keys = vec![log.clone()];
    for w in &b.witness_keys {
        let v = NoteVerifier::parse(w).map_err(|e| format!("witness key: {e}"))?;
        if v.sig_type != TYPE_COSIGNATURE_V1 {
            return Err(format!("witness key {} is not a cosignature key", v.name));
        }
        keys.push(v);
    }
    let note = Note::parse(&b.checkpoint).map_err(|e| format!("checkpoint: {e}"))?;
    let verified = note.verify(&keys).map_err(|e| {
        format!("checkpoint: {e}; the checkpoint is altered, or comes from another (forked) log")
    })?;
    if !verified
        .iter()
        .any(|v| v.key_id == log.key_id && v.name == log.name)
    {
        return Err(format!(
            "the checkpoint is not signed by the log key {}",
            log.to_vkey()
        ));
    }
    let mut witnesses = Vec::new();
    for k in &keys[1..] {
        match verified.iter().find(|v| v.key_id == k.key_id && v.name == k.name) {
            Some(v) => witnesses.push((k.to_vkey(), v.timestamp.unwrap_or(0))),
            None => {
                return Err(format!(
                    "witness {} did not cosign this checkpoint: a checkpoint the witness never saw (a forked log?)",
                    k.name
                ))
            }
        }
    }
    let cp = Checkpoint::parse(&note.text).map_err(|e| e.to_string())?;
    if b.records.is_empty() {
        return Err("the bundle has no events".into());
    }
    let game_bytes = hex::decode(&b.game).map_err(|_| "the game id is not hex".to_string())?;
    let game: Hash = game_bytes
        .try_into()
        .map_err(|_| "the game id is not 32 bytes".to_string())?;

    let mut records = Vec::with_capacity(b.records.len());
    for (pos, r) in b.records.iter().enumerate() {
        let bytes = B64
            .decode(&r.record)
            .map_err(|_| format!("record {pos} is not base64"))?;
        let rec = Record::from_stored(&bytes).map_err(|e| format!("record {pos}: {e}"))?;
        let h = rec.header().map_err(|e| format!("record {pos}: {e}"))?;
        if h.seq != r.seq {
            return Err(format!(
                "record {pos} says seq {} but is listed as {}",
                h.seq, r.seq
            ));
        }
        records.push((h.seq, rec));
    }
    // Name what is wrong with the order: a gap, a repeat, or a shuffle.
    let mut seqs: Vec<u64> = records.iter().map(|(s, _)| *s).collect();
    let in_order = seqs.iter().enumerate().all(|(i, s)| *s == i as u64);
    if !in_order {
        let listed = seqs.clone();
        seqs.sort_unstable();
        if let Some(w) = seqs.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "event seq {} appears twice: an event was added",
                w[0]
            ));
        }
        if let Some(missing) = (0u64..).zip(&seqs).find(|(i, s)| i != *s).map(|(i, _)| i) {
            return Err(format!(
                "event seq {missing} is missing: an event was removed"
            ));
        }
        let pos = listed
            .iter()
            .enumerate()
            .position(|(i, s)| *s != i as u64)
            .unwrap_or(0);
        return Err(format!(
            "event seq {} stands at position {pos}: the events are reordered",
            listed[pos]
        ));
    }
    let records: Vec<Record> = records.into_iter().map(|(_, r)| r).collect();
    if records.first().map(|r| r.hash()) != Some(game) {
        return Err("the first event is not the game's genesis".into());
    }
    let report = verify_records(&records);
    if !report.ok() || report.games.len() != 1 {
        let first = report
            .problems
            .first()
            .map(|p| p.to_string())
            .unwrap_or_default();
        return Err(format!("the game's chain does not verify: {first}"));
    }
    let mut prev_index: Option<u64> = None;
    for (r, rec) in b.records.iter().zip(&records) {
        if prev_index.is_some_and(|p| r.leaf_index <= p) {
            return Err(format!(
                "event seq {} is logged before the event it follows: reordered",
                r.seq
            ));
        }
        prev_index = Some(r.leaf_index);
        let leaf = Leaf {
            game,
            seq: r.seq,
            record_hash: rec.hash(),
        };
        let path: Vec<Hash> = r
            .inclusion
            .iter()
            .map(|h| parse_b64_hash(h))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("event seq {}: {e}", r.seq))?;
        kifu_tlog::verify_inclusion(r.leaf_index, cp.size, &leaf.hash(), &path, &cp.root).map_err(
            |e| {
                format!(
                    "event seq {} is not in the log at leaf {} of size {} ({e}): it was changed, added, or comes from another log",
                    r.seq, r.leaf_index, cp.size
                )
            },
        )?;
    }
    // Completeness: the log from the game's last event to the end of the
    // checkpointed tree holds no later event of this game.
    let last = b.records.len() - 1;
    let last_leaf = Leaf {
        game,
        seq: b.records[last].seq,
        record_hash: records[last].hash(),
    };
    if b.tail.start != b.records[last].leaf_index {
        return Err(format!(
            "the log's tail starts at leaf {}, but the bundle's last event (seq {}) is leaf {}: events were removed from the end, or the tail is another bundle's",
            b.tail.start, b.records[last].seq, b.records[last].leaf_index
        ));
    }
    let mut tail = Vec::with_capacity(b.tail.leaves.len());
    for (i, l) in b.tail.leaves.iter().enumerate() {
        let leaf = hex::decode(l)
            .ok()
            .and_then(|d| Leaf::from_bytes(&d))
            .ok_or_else(|| format!("tail leaf {i} is not 72 bytes of hex"))?;
        if i == 0 && leaf != last_leaf {
            return Err(format!(
                "the log's tail does not start with the bundle's last event (seq {}): events were removed from the end",
                b.records[last].seq
            ));
        }
        if i > 0 && leaf.game == game {
            return Err(format!(
                "the log holds event seq {} of this game at leaf {}, after the bundle's last event (seq {}): the bundle is truncated",
                leaf.seq,
                b.tail.start + i as u64,
                b.records[last].seq
            ));
        }
        tail.push(leaf.hash());
    }
    let range: Vec<Hash> = b
        .tail
        .proof
        .iter()
        .map(|h| parse_b64_hash(h))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("tail proof: {e}"))?;
    let root = kifu_tlog::range::root_from_range(b.tail.start, &tail, &range)
        .map_err(|e| format!("tail: {e}"))?;
    if root != cp.root || b.tail.start + tail.len() as u64 != cp.size {
        return Err(
            "the log's tail does not lead to the checkpoint's root: leaves were left out".into(),
        );
    }
    let tournament = match &b.tournament_checkpoint {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => {
            let part: crate::bundle_tournament::TournamentPart = serde_json::from_value(v.clone())
                .map_err(|e| format!("tournament checkpoint: {e}"))?;
            Some(crate::bundle_tournament::check(&part, &game, &records)?)
        }
    };
    Ok(BundleReport {
        rotated_to,
        tournament,
        game: b.game.clone(),
        events: records.len(),
        head_seq: b.records[last].seq,
        head_hash: hex::encode(records[last].hash()),
        origin: cp.origin,
        tree_size: cp.size,
        root: b64(&cp.root),
        log_key: b.log_key.clone(),
        witnesses,
    })
}

/// `kifu verify BUNDLE`.
pub fn verify_bundle(file: &Path, as_json: bool) -> CmdResult {
    let text = read_text(file)?;
    let b: Bundle = serde_json::from_str(&text)
        .map_err(|e| fail_verify(format!("{}: not a bundle: {e}", file.display())))?;
    match check_bundle(&b) {
        Ok(r) => {
            if as_json {
                say!("{}", json!({"ok": true, "bundle": r}));
            } else {
                say!(
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
                );
                for s in &r.rotated_to {
                    say!(
                        "the log's key was rotated to {} by a statement signed by the key before it, logged at leaf {} (included in this tree)",
                        s.new_key, s.leaf_index
                    );
                }
                for (w, t) in &r.witnesses {
                    say!("co-signed by witness {w} at {t} (POSIX seconds)");
                }
                if r.witnesses.is_empty() {
                    say!("no witness cosignature: the log alone vouches that it shows this record to everyone");
                }
                say!(
                    "the game's head is seq {} (record {}); every link, signature and role checks",
                    r.head_seq,
                    r.head_hash
                );
                match &r.tournament {
                    Some(t) => say!("{}", crate::bundle_tournament::sentence(t, r.head_seq)),
                    None => say!("no tournament checkpoint in the bundle"),
                }
            }
            Ok(())
        }
        Err(why) => {
            if as_json {
                say!("{}", json!({"ok": false, "problem": why}));
            }
            Err(fail_verify(format!("bundle {}: {why}", file.display())))
        }
    }
}
