//! The transparency log on the command line: `kifu checkpoint`, `kifu
//! witness`, `kifu prove`, `kifu check-proof`, `kifu tiles`, `kifu bundle`,
//! and `kifu verify` of a bundle. Formats: `docs/TRANSPARENCY.md`. The log
//! operator's side is `kifu_store::operator` (and `kifu_store::site`),
//! the offline checks are `kifu_tlog::offline`'s, a bundle's verdict is
//! `kifu_bundle::verdict`'s; this module reads and writes the files.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::{Args, Subcommand};
use kifu_bundle::verdict::{BundleFailure, BundleVerdict};
use kifu_ledger::Hash;
use kifu_store::operator::LogError;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::cosign::{witness as cosign_checkpoint, Cosigner, WitnessState};
use kifu_tlog::note::{Note, NoteSigner, NoteVerifier};
use kifu_tlog::offline;
use kifu_tlog::proof::ConsistencyProof;

pub(crate) use crate::log_keys::read_seed;
use crate::render::short;
use crate::store_open::open_existing;
use crate::verdicts::{fail_verify, write_atomically};
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
    /// Write the map bundle in its compact binary form (`kifu-bundle/3`):
    /// the same bundle, without the two hashes each record repeats,
    /// compressed, about a third of the JSON's size. `kifu verify` reads
    /// both.
    #[arg(long, conflicts_with = "tail")]
    pub compact: bool,
}

fn read_text(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

fn vkey(s: &str) -> Result<NoteVerifier, Failure> {
    NoteVerifier::parse(s).map_err(|e| Failure::new(e.to_string()))
}

/// Opens a signed checkpoint: the log's signature must verify.
fn open_checkpoint(text: &str, log: &NoteVerifier) -> Result<(Note, Checkpoint), Failure> {
    offline::open_checkpoint(text, log).map_err(|e| fail_verify(e.to_string()))
}

fn b64(h: &[u8]) -> String {
    B64.encode(h)
}

/// `kifu checkpoint`.
pub fn checkpoint(data: &Path, a: CheckpointArgs) -> CmdResult {
    if let Some(url) = crate::endpoint::server() {
        return crate::tlog_remote::checkpoint(
            url,
            a.key.is_some() || a.origin.is_some(),
            a.fresh,
            a.out.as_deref(),
            a.json,
        );
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
        return crate::log_keys::rotate(
            data,
            a.origin.as_deref(),
            a.out.as_deref(),
            a.json,
            key,
            new,
        );
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
            serde_json::to_string(&kifu_archive::printed::CheckpointAnswer {
                checkpoint: text.clone(),
                origin: cp.origin.clone(),
                size: cp.size,
                root: b64(&cp.root),
                log_key: signer.verifier().to_vkey(),
            })
            .unwrap_or_default()
        );
    } else {
        print!("{text}");
        eprintln!("log key: {}", signer.verifier().to_vkey());
    }
    Ok(())
}

fn read_consistency_proof(path: &Path, old: u64, new: u64) -> Result<ConsistencyProof, Failure> {
    offline::read_consistency_proof(&read_text(path)?, old, new).map_err(|e| {
        if e.is_check() {
            fail_verify(e.to_string())
        } else {
            Failure::new(format!("{}: {e}", path.display()))
        }
    })
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
        Ok(t) => Some(
            WitnessState::from_text(&t)
                .map_err(|e| Failure::new(format!("{}: {e}", a.state.display())))?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Failure::new(format!("{}: {e}", a.state.display()))),
    };
    let proof = match last.as_ref().and_then(|l| l.proof_needed(new.size)) {
        Some(old) => match &a.proof {
            Some(p) => read_consistency_proof(p, old, new.size)?.hashes,
            None => match crate::endpoint::server() {
                Some(url) => crate::tlog_remote::consistency_proof(url, old, new.size)?.hashes,
                None => open_existing(data)?.consistency_proof(old, new.size)?,
            },
        },
        None => Vec::new(),
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
    write_atomically(&a.state, state.to_text().as_bytes())?;
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
    let named = offline::named_map_root(cp).map_err(|e| fail_verify(e.to_string()))?;
    let Some(named) = named else {
        return Ok(());
    };
    let mine = if let Some(url) = crate::endpoint::server() {
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
    offline::check_map_root(cp, &named, &mine).map_err(|e| fail_verify(e.to_string()))?;
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
            let cp = offline::unchecked_checkpoint(&t).map_err(|e| Failure::new(e.to_string()))?;
            match kifu_store::operator::check_root(store, &cp) {
                Ok(()) => Ok((cp.size, cp.root)),
                Err(LogError::ForeignCheckpoint) => Err(fail_verify(format!(
                    "the checkpoint's root at size {} is not this store's: another log, or a fork",
                    cp.size
                ))),
                Err(e) => Err(Failure::new(e.to_string())),
            }
        }
        None => kifu_store::operator::proof_target(store).map_err(|e| fail_verify(e.to_string())),
    }
}

/// `kifu prove inclusion`.
pub fn prove_inclusion(data: &Path, a: ProveInclusionArgs) -> CmdResult {
    if let Some(url) = crate::endpoint::server() {
        return crate::tlog_remote::prove_inclusion(
            url,
            &a.game,
            a.seq,
            a.checkpoint.as_deref(),
            a.text,
        );
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
    if let Some(url) = crate::endpoint::server() {
        return crate::tlog_remote::prove_consistency(url, a.old, a.new, a.text);
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
    let (proof, in_file) =
        offline::read_inclusion_proof(&read_text(&a.proof)?, cp.size).map_err(|e| {
            if e.is_check() {
                fail_verify(e.to_string())
            } else {
                Failure::new(e.to_string())
            }
        })?;
    let leaf_hex = a
        .leaf
        .clone()
        .or(in_file)
        .ok_or_else(|| Failure::new("give the leaf data with --leaf HEX"))?;
    let leaf_bytes = hex::decode(leaf_hex.trim()).map_err(|_| Failure::new("--leaf is not hex"))?;
    let what = offline::check_inclusion(&proof, &leaf_bytes, &cp)
        .map_err(|e| fail_verify(e.to_string()))?;
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
        // Named before the proof is read: a proof between two logs is moot.
        return Err(fail_verify(
            offline::CheckError::TwoLogs {
                old: old.origin,
                new: new.origin,
            }
            .to_string(),
        ));
    }
    let proof = read_consistency_proof(&a.proof, old.size, new.size)?;
    offline::check_consistency(&old, &new, &proof).map_err(|e| fail_verify(e.to_string()))?;
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
    let (size, files) = kifu_store::site::site(&store)?
        .ok_or_else(|| Failure::new("no checkpoint yet: run `kifu checkpoint --key ...` first"))?;
    let mut written = 0usize;
    for f in files {
        let path = a.out.join(&f.path);
        if f.immutable && path.exists() {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        write_atomically(&path, &f.bytes)?;
        written += 1;
    }
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
    // The tournament chain holding the latest checkpoint of the game.
    let chains = crate::tournament_cmd::all_chains(data);
    let tournament = kifu_bundle::tournament::part_for(&chains, &game, last_seq)
        .map(serde_json::to_value)
        .transpose()?;
    let request = kifu_archive::bundle::Request {
        checkpoint,
        witness_keys: a.witness_keys.clone(),
        tail: a.tail,
        tournament,
    };
    let b = kifu_archive::bundle::make(&store, &game, request).map_err(|e| match e {
        kifu_archive::bundle::MakeError::Log(LogError::NoCheckpoint) => {
            Failure::new("no checkpoint yet: run `kifu checkpoint --key ...` first")
        }
        e if e.is_check() => fail_verify(e.to_string()),
        e => Failure::new(e.to_string()),
    })?;
    let bytes = if a.compact {
        kifu_bundle::compact::encode(&b).map_err(|e| Failure::new(e.to_string()))?
    } else {
        serde_json::to_vec_pretty(&b)?
    };
    write_atomically(&a.out, &bytes)?;
    let proof = match &b.tail {
        Some(t) => format!("{} tail leaves", t.leaves.len()),
        None => "the head's map proof".to_string(),
    };
    let cp = offline::unchecked_checkpoint(&b.checkpoint)
        .map_err(|_| Failure::new("the bundle's checkpoint does not parse"))?;
    say!(
        "wrote {}: game {}, {} events, checkpoint of {} at size {}, {proof}, {} bytes{}",
        a.out.display(),
        short(&game),
        b.records.len(),
        cp.origin,
        cp.size,
        bytes.len(),
        if a.compact { " (compact)" } else { "" }
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
    kifu_bundle::verdict::looks_like_bundle(&head[..n])
}

/// `kifu verify BUNDLE`: whom the verdict trusts is the log key the bundle
/// names, or a key the reader named (`kifu_bundle::check_bundle_trusting`).
pub fn verify_bundle(file: &Path, as_json: bool, trusted: &[kifu_ledger::PublicKey]) -> CmdResult {
    let bytes =
        std::fs::read(file).map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
    let b = kifu_bundle::verdict::read_bundle(&bytes)
        .map_err(|e| fail_verify(format!("{}: {e}", file.display())))?;
    match kifu_bundle::check_bundle_trusting(&b, trusted) {
        Ok((r, key)) => {
            let verdict = BundleVerdict::new(&r, &key, !trusted.is_empty());
            if as_json {
                say!("{}", serde_json::to_value(&verdict)?);
            } else {
                for line in verdict.lines(&key) {
                    say!("{line}");
                }
            }
            Ok(())
        }
        Err(why) => {
            if as_json {
                let failure = BundleFailure {
                    ok: false,
                    problem: why.to_string(),
                };
                say!("{}", serde_json::to_value(&failure)?);
            }
            Err(fail_verify(format!("bundle {}: {why}", file.display())))
        }
    }
}
