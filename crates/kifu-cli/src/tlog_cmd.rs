//! The transparency log on the command line: `kifu checkpoint`, `kifu
//! witness`, `kifu prove`, `kifu check-proof`, `kifu bundle`, and `kifu
//! verify` of a bundle. Formats: `docs/TRANSPARENCY.md`.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::{Args, Subcommand};
use ed25519_dalek::pkcs8::DecodePrivateKey;
use kifu_bundle::Bundle;
use kifu_ledger::Hash;
use kifu_store::operator::LogError;
use kifu_store::tlog::Leaf;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::cosign::{witness as cosign_checkpoint, Cosigner, WitnessState};
use kifu_tlog::note::{Note, NoteSigner, NoteVerifier};
use kifu_tlog::proof::{ConsistencyProof, InclusionProof};
use serde_json::json;

use crate::archive_cmd::{write_atomically, EXIT_VERIFY_FAILED};
use crate::render::short;
use crate::store_open::open_existing;
use crate::{CmdResult, Failure};

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
    /// A game's entry in the map of game heads (head seq, record hash, leaf
    /// index), or the proof that the log never saw it.
    Map(crate::map_cmd::ProveMapArgs),
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
    /// Checks a map proof (a game's head, or its absence) against a signed
    /// checkpoint's map root, offline.
    Map(crate::map_cmd::CheckMapArgs),
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
    /// Prove that the bundle ends at the game's head with the log's tail
    /// (`kifu-bundle/1`, growing with every later leaf) instead of the map
    /// of game heads; the only form for a checkpoint without a map root.
    #[arg(long)]
    pub tail: bool,
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
    let origin = kifu_store::operator::resolve_origin(&store, a.origin.as_deref())
        .map_err(|e| Failure::new(e.to_string()))?;
    let signer = NoteSigner::new(&origin, read_seed(key)?)
        .map_err(|e| Failure::new(format!("origin: {e}")))?;
    let signed = kifu_store::operator::sign_checkpoint(&store, &signer)
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
    check_map_root(data, &new)?;
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

/// A witness that can read the log's leaves (from the server given with
/// --server, through its tiles, or the store in --data when it holds the
/// checkpoint's tree) recomputes the map of game heads at the checkpoint's
/// size and refuses to cosign a checkpoint naming another map root
/// (docs/TRANSPARENCY.md section 10).
fn check_map_root(data: &Path, cp: &Checkpoint) -> CmdResult {
    let named = kifu_tlog::map::root_in(&cp.extensions)
        .map_err(|e| fail_verify(format!("refusing to cosign: {e}")))?;
    let Some(named) = named else {
        return Ok(());
    };
    let mine = if let Some(url) = crate::remote::server() {
        // Replayed from the server's entry bundles: the tree root must be
        // the checkpoint's, or the leaves are another log's.
        let (tree_root, map_root) = crate::map_cmd::replay(url, cp.size)?;
        if tree_root != cp.root {
            return Err(fail_verify(format!(
                "refusing to cosign: the leaves {url} serves do not make the checkpoint's tree root at size {}",
                cp.size
            )));
        }
        map_root
    } else {
        match crate::store_open::open_existing(data) {
            Ok(s) if s.tree_size()? >= cp.size && s.tree_root(cp.size)? == cp.root => {
                s.map_root(cp.size)?
            }
            _ => {
                eprintln!(
                    "the map root was not checked: --data holds no copy of this log at size {} (give --server URL to read it from the log's tiles)",
                    cp.size
                );
                return Ok(());
            }
        }
    };
    if mine != named {
        return Err(fail_verify(format!(
            "refusing to cosign: the checkpoint names the map root {}, but the map of the log's leaves at size {} is {}: the map lies about the games' heads",
            b64(&named),
            cp.size,
            b64(&mine)
        )));
    }
    eprintln!(
        "map root checked against the log's leaves at size {}",
        cp.size
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
        None => kifu_store::operator::proof_target(store).map_err(|e| fail_verify(e.to_string())),
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
    let answer = kifu_store::operator::prove_inclusion(&store, &game, a.seq, size, Some(root))
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
    let answer = kifu_store::operator::prove_consistency(&store, a.old, a.new)
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
    let checkpoint = a.checkpoint.as_deref().map(read_text).transpose()?;
    let last_seq = store
        .head(&game)?
        .map(|h| h.seq)
        .ok_or_else(|| Failure::new("the game has no events"))?;
    let tournament = crate::bundle_tournament::find(data, &game, last_seq)?
        .map(serde_json::to_value)
        .transpose()?;
    let request = kifu_store::bundle::Request {
        checkpoint,
        witness_keys: a.witness_keys.clone(),
        tail: a.tail,
        tournament,
    };
    let b = kifu_store::bundle::make(&store, &game, request).map_err(|e| match e {
        kifu_store::bundle::MakeError::Log(LogError::NoCheckpoint) => {
            Failure::new("no checkpoint yet: run `kifu checkpoint --key ...` first")
        }
        e if e.is_check() => fail_verify(e.to_string()),
        e => Failure::new(e.to_string()),
    })?;
    let bytes = serde_json::to_vec_pretty(&b)?;
    write_atomically(&a.out, &bytes)?;
    let proof = match &b.tail {
        Some(t) => format!("{} tail leaves", t.leaves.len()),
        None => "the head's map proof".to_string(),
    };
    let cp = kifu_tlog::note::Note::parse(&b.checkpoint)
        .ok()
        .and_then(|n| Checkpoint::parse(&n.text).ok())
        .ok_or_else(|| Failure::new("the bundle's checkpoint does not parse"))?;
    say!(
        "wrote {}: game {}, {} events, checkpoint of {} at size {}, {proof}, {} bytes",
        a.out.display(),
        short(&game),
        b.records.len(),
        cp.origin,
        cp.size,
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

/// `kifu verify BUNDLE`.
pub fn verify_bundle(file: &Path, as_json: bool, trusted: &[kifu_ledger::PublicKey]) -> CmdResult {
    let text = read_text(file)?;
    let b: Bundle = serde_json::from_str(&text)
        .map_err(|e| fail_verify(format!("{}: not a bundle: {e}", file.display())))?;
    // Whom the verdict trusts: the log key the bundle names, or a key the
    // reader named (`kifu_bundle::check_bundle_trusting`).
    let checked = kifu_bundle::check_bundle_trusting(&b, trusted);
    match checked {
        Ok((r, key)) => {
            let trust = if trusted.is_empty() {
                format!(
                    "the log's key is the bundle's own: this verdict rests on an unauthenticated key (fingerprint {}); give the log's key with --trust KEY to check the bundle against it",
                    key.sha256_fingerprint()
                )
            } else {
                format!(
                    "the log's key {} is a trusted key ({})",
                    key.to_hex(),
                    key.sha256_fingerprint()
                )
            };
            if as_json {
                say!(
                    "{}",
                    json!({"ok": true, "bundle": r, "trusted": !trusted.is_empty(), "log_key_fingerprint": key.sha256_fingerprint()})
                );
            } else {
                say!("{trust}");
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
                match &r.map_root {
                    Some(m) => say!(
                        "the log's map of game heads at this checkpoint (root {m}) names that event as the game's head: nothing of the game was logged after it"
                    ),
                    None => say!(
                        "no leaf of the log after that event names the game (the log's tail is in the bundle)"
                    ),
                }
                match &r.tournament {
                    Some(t) => say!("{}", kifu_bundle::tournament::sentence(t, r.head_seq)),
                    None => say!("no tournament checkpoint in the bundle"),
                }
            }
            Ok(())
        }
        Err(why) => {
            if as_json {
                say!("{}", json!({"ok": false, "problem": why.to_string()}));
            }
            Err(fail_verify(format!("bundle {}: {why}", file.display())))
        }
    }
}
