//! The map of game heads on the command line (`docs/TRANSPARENCY.md`
//! section 10): `kifu prove map` prints a game's map proof (or its absence
//! proof), `kifu audit` replays a log's leaves, from a store or from a
//! server's tiles, and recomputes the tree and the map at each checkpoint.

use std::path::{Path, PathBuf};

use clap::Args;
use kifu_archive::printed::{AuditLine, AuditSummary, CheckpointAudited, ForkFound};
use kifu_ledger::Hash;
use kifu_tlog::audit::{Auditor, Shown};
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::note::{Note, NoteVerifier};
use kifu_tlog::Leaf;

use crate::archive_cmd::EXIT_VERIFY_FAILED;
use crate::remote::Client;
use crate::store_open::open_existing;
use crate::{CmdResult, Failure};

/// `kifu prove map`.
#[derive(Debug, Args)]
pub struct ProveMapArgs {
    /// Game id or unique prefix; a full id (64 hex digits) the log never
    /// saw gets its absence proof.
    pub game: String,
    /// Prove against this signed checkpoint (default: the last one kept,
    /// else the current tree).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
}

/// `kifu check-proof map`.
#[derive(Debug, Args)]
pub struct CheckMapArgs {
    /// The proof, as `kifu prove map` printed it.
    pub proof: PathBuf,
    /// The signed checkpoint naming the map root.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The log's verifier key.
    #[arg(long)]
    pub log_key: String,
    /// The proof of the log's key rotations (`kifu prove rotation`), when the
    /// checkpoint is signed by a key the log rotated to from --log-key.
    #[arg(long)]
    pub rotation: Option<PathBuf>,
}

/// `kifu check-proof map PROOF --checkpoint CP --log-key VKEY`: the proof
/// leads to the map root the signed checkpoint names; says what it proves.
pub fn check_map(a: CheckMapArgs) -> CmdResult {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| Failure::new(format!("{}: {e}", p.display())))
    };
    let trusted = NoteVerifier::parse(&a.log_key).map_err(|e| Failure::new(e.to_string()))?;
    let rot = a
        .rotation
        .as_deref()
        .map(crate::log_keys::read_rotation)
        .transpose()?;
    let (_, cp, log, _) =
        crate::log_keys::open_checkpoint(&read(&a.checkpoint)?, &trusted, rot.as_ref())?;
    let root = kifu_tlog::map::root_in(&cp.extensions)
        .map_err(|e| fail_verify(e.to_string()))?
        .ok_or_else(|| fail_verify("the checkpoint names no map root (no kifu-map/1 line)"))?;
    let v: serde_json::Value = serde_json::from_str(&read(&a.proof)?)
        .map_err(|e| Failure::new(format!("{}: {e}", a.proof.display())))?;
    let game = v["game"]
        .as_str()
        .and_then(full_id)
        .ok_or_else(|| Failure::new("the proof names no game (64 hex digits)"))?;
    let proof = kifu_tlog::map::MapProof::from_json(&v).map_err(|e| fail_verify(e.to_string()))?;
    let found = kifu_tlog::map::verify(&root, &game, &proof)
        .map_err(|e| fail_verify(format!("map proof fails: {e}")))?;
    match found {
        Some(e) => say!(
            "ok: the head of game {} is seq {} (record {}) at leaf {}, in the map of {} at tree size {}, signed by {}",
            hex::encode(game),
            e.head.seq,
            hex::encode(e.head.record_hash),
            e.leaf_index,
            cp.origin,
            cp.size,
            log.to_vkey()
        ),
        None => say!(
            "ok: game {} is not in the log: absent from the map of {} at tree size {}, signed by {}",
            hex::encode(game),
            cp.origin,
            cp.size,
            log.to_vkey()
        ),
    }
    Ok(())
}

/// `kifu audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Also audit these signed checkpoints (files), e.g. the ones a witness
    /// or a bundle was shown.
    #[arg(long = "checkpoint")]
    pub checkpoints: Vec<PathBuf>,
    /// The log's verifier key: a checkpoint that does not verify under it is
    /// reported too.
    #[arg(long)]
    pub log_key: Option<String>,
    /// Print one JSON object per checkpoint, then a summary.
    #[arg(long)]
    pub json: bool,
    /// The auditor's memory: the largest checkpoint it audited last time
    /// (created on first use). The log read now must still hold that tree
    /// (same root at that size): a log that forked or shrank since is
    /// reported. Replaced after a clean audit.
    #[arg(long)]
    pub state: Option<PathBuf>,
}

fn fail_verify(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: EXIT_VERIFY_FAILED,
    }
}

fn full_id(s: &str) -> Option<Hash> {
    if s.len() != 64 {
        return None;
    }
    hex::decode(s).ok().and_then(|g| g.try_into().ok())
}

/// `kifu prove map GAME`.
pub fn prove_map(data: &Path, a: ProveMapArgs) -> CmdResult {
    if let Some(url) = crate::endpoint::server() {
        let v = Client::new(url).get_json(&format!("/proof/map?game={}", a.game))?;
        say!("{v}");
        return Ok(());
    }
    let store = open_existing(data)?;
    let game = match full_id(&a.game) {
        Some(g) => g,
        None => store.resolve(&a.game)?,
    };
    let size = match &a.checkpoint {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| Failure::new(format!("{}: {e}", f.display())))?;
            let note = Note::parse(&text).map_err(|e| Failure::new(e.to_string()))?;
            let cp = Checkpoint::parse(&note.text).map_err(|e| Failure::new(e.to_string()))?;
            if store.tree_root(cp.size)? != cp.root {
                return Err(fail_verify(format!(
                    "the checkpoint's root at size {} is not this store's: another log, or a fork",
                    cp.size
                )));
            }
            cp.size
        }
        None => {
            kifu_store::operator::proof_target(&store)
                .map_err(|e| Failure::new(e.to_string()))?
                .0
        }
    };
    let v = kifu_archive::bundle::map_proof_json(&store, &game, size)
        .map_err(|e| Failure::new(e.to_string()))?;
    say!("{v}");
    Ok(())
}

/// Where the audited leaves come from.
enum Source {
    Store(Box<kifu_store::Store>),
    Server(Client),
}

impl Source {
    /// The leaves `from..to` of a tree of at least `to` leaves, read at the
    /// tiles of size `at` when from a server.
    fn leaves(&self, from: u64, to: u64, at: u64) -> Result<Vec<Leaf>, Failure> {
        match self {
            Source::Store(s) => Ok(s.leaves(from, to)?),
            Source::Server(c) => c.leaves(from, to, at).map_err(|e| match e {
                kifu_client::ClientError::Log(m) => fail_verify(m),
                e => e.into(),
            }),
        }
    }
}

/// The tree root and the map root of the first `size` leaves of the log
/// served at `url`, replayed from its entry bundles.
pub fn replay(url: &str, size: u64) -> Result<(Hash, Hash), Failure> {
    let source = Source::Server(Client::new(url));
    let mut auditor = Auditor::new();
    auditor.read(&source.leaves(0, size, size)?);
    Ok((auditor.tree_root(), auditor.map_root()))
}

/// `kifu audit`: every checkpoint kept in the store (or the server's latest)
/// and every one given, in size order, checked against the leaves
/// (`kifu_tlog::audit::audit`).
pub fn audit(data: &Path, a: AuditArgs) -> CmdResult {
    let mut texts: Vec<(String, String)> = Vec::new();
    let source = match crate::endpoint::server() {
        Some(url) => {
            let c = Client::new(url);
            let text = String::from_utf8(c.get_bytes("/checkpoint")?)
                .map_err(|_| fail_verify("the server's checkpoint is not UTF-8"))?;
            texts.push((format!("{url}/checkpoint"), text));
            Source::Server(c)
        }
        None => {
            let store = open_existing(data)?;
            for (size, text) in store.all_checkpoints()? {
                texts.push((format!("kept checkpoint of size {size}"), text));
            }
            Source::Store(Box::new(store))
        }
    };
    for f in &a.checkpoints {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Failure::new(format!("{}: {e}", f.display())))?;
        texts.push((f.display().to_string(), text));
    }
    let key = a
        .log_key
        .as_deref()
        .map(NoteVerifier::parse)
        .transpose()
        .map_err(|e| Failure::new(format!("--log-key: {e}")))?;
    let mut shown = Vec::new();
    for (name, text) in texts {
        let note = Note::parse(&text).map_err(|e| fail_verify(format!("{name}: {e}")))?;
        let signed = match &key {
            Some(k) => note.verify(std::slice::from_ref(k)).is_ok(),
            None => true,
        };
        let checkpoint =
            Checkpoint::parse(&note.text).map_err(|e| fail_verify(format!("{name}: {e}")))?;
        shown.push(Shown {
            name,
            checkpoint,
            signed,
        });
    }
    if shown.is_empty() {
        return Err(Failure::new(
            "no checkpoint to audit: the store keeps none (give --checkpoint FILE)",
        ));
    }
    let remembered = match &a.state {
        Some(f) => match std::fs::read_to_string(f) {
            Ok(t) => Some(
                Checkpoint::parse(&t).map_err(|e| Failure::new(format!("{}: {e}", f.display())))?,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Failure::new(format!("{}: {e}", f.display()))),
        },
        None => None,
    };
    let report = kifu_tlog::audit::audit(
        shown,
        remembered.as_ref(),
        |from, to, top| source.leaves(from, to, top),
        |x| {
            let (cp, name, what) = (&x.shown.checkpoint, &x.shown.name, x.words());
            if a.json {
                say!(
                    "{}",
                    audit_json(&AuditLine::Checkpoint(CheckpointAudited {
                        checkpoint: name.to_string(),
                        finding: what.to_string(),
                        ok: x.ok(),
                        origin: cp.origin.to_string(),
                        size: cp.size,
                    }))
                );
            } else if x.ok() {
                say!("ok: {} at size {} ({name}): {what}", cp.origin, cp.size);
            } else {
                say!("WRONG: {} at size {} ({name}): {what}", cp.origin, cp.size);
            }
        },
    )?;
    if let Some(why) = &report.forked {
        if a.json {
            say!(
                "{}",
                audit_json(&AuditLine::Forked(ForkFound {
                    finding: why.to_string(),
                    ok: false,
                    state: true,
                }))
            );
        } else {
            say!("WRONG: {why}");
        }
    } else if let (Some(f), Some(keep)) = (&a.state, report.to_remember()) {
        crate::archive_cmd::write_atomically(f, keep.to_text().as_bytes())?;
    }
    let wrong = report.wrong();
    if a.json {
        say!(
            "{}",
            audit_json(&AuditLine::Summary(AuditSummary {
                checkpoints: report.audited.len() as u64,
                leaves_read: report.leaves_read as u64,
                wrong: wrong as u64,
            }))
        );
    } else {
        say!(
            "{} checkpoints audited over {} leaves, {wrong} wrong",
            report.audited.len(),
            report.leaves_read
        );
    }
    if wrong > 0 {
        return Err(fail_verify(format!(
            "{wrong} checkpoint(s) do not match the log's leaves"
        )));
    }
    Ok(())
}

/// A line of `kifu audit --json` (`kifu_archive::printed::AuditLine`).
fn audit_json(line: &AuditLine) -> String {
    // Strings, numbers and booleans: the line always serialises.
    serde_json::to_string(line).unwrap_or_default()
}
