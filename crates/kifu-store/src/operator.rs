//! The log operator's side of the store (`docs/TRANSPARENCY.md`): signing
//! checkpoints of the store's tree, the proofs given against them, and the
//! log key's rotations, kept in the operator's own chain (section 8,
//! `docs/FORMAT.md` kind 54).
//!
//! The server serves what these functions compute and `kifu checkpoint`,
//! `kifu prove` and `kifu bundle` print it, so both faces give the same
//! documents from the same code. The policy a reader must know: **a log
//! never signs two inconsistent tree heads** (C2SP tlog-checkpoint), and
//! **after a rotation only the last new key signs** ([`check_signer`]).

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_ledger::{
    Body, Event, GameKind, Genesis, Hash, Keypair, Participant, PublicKey, Role, TimeControl,
};
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::note::{Note, NoteSigner, NoteVerifier};
use kifu_tlog::proof::{ConsistencyProof, InclusionProof};
use kifu_tlog::rotation::{RotationFile, RotationProof, ROTATION_FORMAT};
use serde_json::{json, Value};

use crate::tlog::Leaf;
use crate::{Store, StoreError};

/// Origin used when none is given and none was used before.
pub const DEFAULT_ORIGIN: &str = "kifu.local/log";

/// Why the log cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The store failed, or a size is beyond the tree.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The game has no such event.
    #[error("game {game} has no event {seq}")]
    NoEvent {
        /// Game id, hex.
        game: String,
        /// The seq asked for.
        seq: u64,
    },
    /// The event was appended after the tree proved against.
    #[error("event {seq} is leaf {index}, after the checkpoint's {size} leaves; sign a newer checkpoint")]
    AfterSize {
        /// The seq asked for.
        seq: u64,
        /// Its leaf index.
        index: u64,
        /// The tree size proved against.
        size: u64,
    },
    /// The store's tree does not extend the last signed checkpoint.
    #[error(
        "the store no longer holds the tree of the last checkpoint (size {0}); refusing to sign"
    )]
    Inconsistent(u64),
    /// A kept checkpoint, or the origin, is not usable.
    #[error("{0}")]
    Checkpoint(String),
    /// The log's key was rotated away from the key asked to sign.
    #[error("the log's key was rotated to {now} at leaf {leaf}; sign with that key")]
    RotatedAway {
        /// The verifier key that signs now.
        now: String,
        /// The rotation's leaf index.
        leaf: u64,
    },
    /// A stored record could not be read.
    #[error(transparent)]
    Record(#[from] kifu_ledger::LedgerError),
    /// No checkpoint is signed yet (nothing to bundle against).
    #[error("no checkpoint is signed yet")]
    NoCheckpoint,
    /// A checkpoint's root is not this store's tree at its size.
    #[error("the checkpoint's root is not this store's: another log, or a fork")]
    ForeignCheckpoint,
    /// A rotation to the key that signs already.
    #[error("the new key is the old key")]
    SameKey,
    /// A rotation asked by a key that is not the log's current one.
    #[error("the log's key is {current}, not the key given ({given}); only the log's current key can rotate it")]
    NotCurrentKey {
        /// The log's key now.
        current: String,
        /// The key that asked.
        given: String,
    },
}

/// The title of a log operator's chain (`docs/TRANSPARENCY.md` section 8):
/// this prefix and the origin.
pub const OPERATOR_TITLE: &str = kifu_ledger::body::LOG_OPERATOR_TITLE;

/// Every `log_key_rotated` statement of `origin` in the store, in log
/// order: its leaf index, the record, and the key that signed it.
pub fn rotations_in(
    store: &Store,
    origin: &str,
) -> Result<Vec<(u64, kifu_ledger::Record, kifu_ledger::PublicKey)>, LogError> {
    let mut found = Vec::new();
    let title = format!("{OPERATOR_TITLE}{origin}");
    for game in store.games()? {
        if store.genesis(&game)?.title != title {
            continue;
        }
        for r in store.read(&game, 1, None)? {
            let e = r.decode()?;
            if let Body::LogKeyRotated { origin: o, .. } = &e.body {
                if o == origin {
                    let index = store.leaf_index(&game, e.seq)?.ok_or_else(|| {
                        LogError::Checkpoint("a key rotation has no leaf in the log".into())
                    })?;
                    found.push((index, r, e.signer));
                }
            }
        }
    }
    found.sort_by_key(|(i, _, _)| *i);
    Ok(found)
}

/// Refuses to sign a checkpoint of `origin` with `signer` when the log's
/// key was rotated away from it: after a rotation only the last new key
/// signs the log's trees.
pub fn check_signer(store: &Store, origin: &str, signer: &NoteVerifier) -> Result<(), LogError> {
    let all = rotations_in(store, origin)?;
    let Some((leaf, record, _)) = all.last() else {
        return Ok(());
    };
    if let Body::LogKeyRotated { new_key, .. } = record.decode()?.body {
        if new_key.0 != signer.key.to_bytes() {
            let now = NoteVerifier::ed25519(origin, new_key.verifying_key()?).to_vkey();
            return Err(LogError::RotatedAway { now, leaf: *leaf });
        }
    }
    Ok(())
}

/// A signed checkpoint: the parsed tree head and the exact note bytes.
#[derive(Debug, Clone)]
pub struct SignedCheckpoint {
    /// The tree head.
    pub checkpoint: Checkpoint,
    /// The C2SP signed note, as served and written to files.
    pub text: String,
}

/// The last checkpoint kept in the store, parsed.
pub fn last_checkpoint(store: &Store) -> Result<Option<SignedCheckpoint>, LogError> {
    let Some((_, text)) = store.latest_checkpoint()? else {
        return Ok(None);
    };
    let checkpoint = Note::parse(&text)
        .ok()
        .and_then(|n| Checkpoint::parse(&n.text).ok())
        .ok_or_else(|| LogError::Checkpoint("the last kept checkpoint is damaged".into()))?;
    Ok(Some(SignedCheckpoint { checkpoint, text }))
}

/// The origin to sign under: the one given, else the last checkpoint's,
/// else [`DEFAULT_ORIGIN`].
pub fn resolve_origin(store: &Store, given: Option<&str>) -> Result<String, LogError> {
    if let Some(o) = given {
        return Ok(o.to_string());
    }
    Ok(last_checkpoint(store)?
        .map(|c| c.checkpoint.origin)
        .unwrap_or_else(|| DEFAULT_ORIGIN.to_string()))
}

/// Signs the store's current tree head with `signer` (whose name is the
/// origin), keeps it in the store, and remembers the verifier key. Refuses
/// when the tree does not extend the last checkpoint of the same origin.
pub fn sign_checkpoint(store: &Store, signer: &NoteSigner) -> Result<SignedCheckpoint, LogError> {
    check_signer(store, signer.name(), &signer.verifier())?;
    let size = store.tree_size()?;
    let root = store.tree_root(size)?;
    // C2SP tlog-checkpoint: a log must never sign a checkpoint inconsistent
    // with one it signed before. The store only appends; check it anyway.
    if let Some(prev) = last_checkpoint(store)? {
        let p = &prev.checkpoint;
        if p.origin == signer.name() && (p.size > size || store.tree_root(p.size)? != p.root) {
            return Err(LogError::Inconsistent(p.size));
        }
    }
    let mut checkpoint = Checkpoint::new(signer.name(), size, root);
    // docs/TRANSPARENCY.md section 10: the map of game heads at this size.
    checkpoint
        .extensions
        .push(kifu_tlog::map::map_line(&store.map_root(size)?));
    let mut note =
        Note::new(checkpoint.to_text()).map_err(|e| LogError::Checkpoint(e.to_string()))?;
    signer.sign(&mut note);
    let text = note.to_text();
    store.save_checkpoint(size, &text)?;
    store.set_log_key(&signer.verifier().to_vkey())?;
    Ok(SignedCheckpoint { checkpoint, text })
}

/// The tree proofs are given against by default: the last kept checkpoint's
/// (its root checked against the store), else the current tree.
pub fn proof_target(store: &Store) -> Result<(u64, Hash), LogError> {
    match last_checkpoint(store)? {
        Some(c) => {
            let cp = c.checkpoint;
            if store.tree_root(cp.size)? != cp.root {
                return Err(LogError::Checkpoint(format!(
                    "the checkpoint's root at size {} is not this store's: another log, or a fork",
                    cp.size
                )));
            }
            Ok((cp.size, cp.root))
        }
        None => {
            let size = store.tree_size()?;
            Ok((size, store.tree_root(size)?))
        }
    }
}

/// An inclusion proof of one event, with the leaf it proves.
#[derive(Debug, Clone)]
pub struct InclusionAnswer {
    /// The proof.
    pub proof: InclusionProof,
    /// The leaf.
    pub leaf: Leaf,
    /// The root of the tree proved against.
    pub root: Hash,
}

impl InclusionAnswer {
    /// The JSON document `kifu prove inclusion` prints.
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(&self.proof).unwrap_or_default();
        v["leaf"] = json!(hex::encode(self.leaf.to_bytes()));
        v["leaf_hash"] = json!(B64.encode(self.leaf.hash()));
        v["root"] = json!(B64.encode(self.root));
        v["game"] = json!(hex::encode(self.leaf.game));
        v["seq"] = json!(self.leaf.seq);
        v
    }
}

/// The inclusion proof of event `seq` of `game` in the tree of `size`
/// leaves (whose root the caller has, or reads here when `None`).
pub fn prove_inclusion(
    store: &Store,
    game: &Hash,
    seq: u64,
    size: u64,
    root: Option<Hash>,
) -> Result<InclusionAnswer, LogError> {
    let no_event = || LogError::NoEvent {
        game: hex::encode(&game[..6]),
        seq,
    };
    let record = store.get(game, seq)?.ok_or_else(no_event)?;
    let index = store.leaf_index(game, seq)?.ok_or_else(no_event)?;
    if index >= size {
        return Err(LogError::AfterSize { seq, index, size });
    }
    let root = match root {
        Some(r) => r,
        None => store.tree_root(size)?,
    };
    Ok(InclusionAnswer {
        proof: InclusionProof {
            leaf_index: index,
            tree_size: size,
            hashes: store.inclusion_proof(index, size)?,
        },
        leaf: Leaf {
            game: *game,
            seq,
            record_hash: record.hash(),
        },
        root,
    })
}

/// A consistency proof with both roots.
#[derive(Debug, Clone)]
pub struct ConsistencyAnswer {
    /// The proof.
    pub proof: ConsistencyProof,
    /// Root of the old size.
    pub old_root: Hash,
    /// Root of the new size.
    pub new_root: Hash,
}

impl ConsistencyAnswer {
    /// The JSON document `kifu prove consistency` prints.
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(&self.proof).unwrap_or_default();
        v["old_root"] = json!(B64.encode(self.old_root));
        v["new_root"] = json!(B64.encode(self.new_root));
        v
    }
}

/// The consistency proof from `old` to `new` leaves.
pub fn prove_consistency(store: &Store, old: u64, new: u64) -> Result<ConsistencyAnswer, LogError> {
    Ok(ConsistencyAnswer {
        proof: ConsistencyProof {
            old_size: old,
            new_size: new,
            hashes: store.consistency_proof(old, new)?,
        },
        old_root: store.tree_root(old)?,
        new_root: store.tree_root(new)?,
    })
}

fn b64s(hashes: &[Hash]) -> Vec<String> {
    hashes.iter().map(|h| B64.encode(h)).collect()
}

/// The log's first key (the one its verifiers were given) and the rotation
/// proofs that lead from it to the key signing the checkpoint `cp`: every
/// rotation of the origin in the store whose leaf is in `cp`'s tree.
/// `None` for the key when the log never rotated its key.
pub fn rotation_proof(
    store: &Store,
    cp: &Checkpoint,
) -> Result<(Option<String>, Vec<RotationProof>), LogError> {
    let all = rotations_in(store, &cp.origin)?;
    let first = match all.first() {
        Some((_, _, signer)) => {
            Some(NoteVerifier::ed25519(&cp.origin, signer.verifying_key()?).to_vkey())
        }
        None => None,
    };
    let mut proofs = Vec::new();
    for (index, record, _) in all.into_iter().filter(|(i, _, _)| *i < cp.size) {
        proofs.push(RotationProof {
            leaf_index: index,
            record: B64.encode(record.to_stored()),
            inclusion: b64s(&store.inclusion_proof(index, cp.size)?),
        });
    }
    Ok((first, proofs))
}

/// The log key the rotations of `cp` start from: the first rotation's
/// signer, else the store's log key.
pub fn first_log_key(store: &Store, first: Option<String>) -> Result<String, LogError> {
    match first {
        Some(k) => Ok(k),
        None => store
            .log_key()?
            .ok_or_else(|| LogError::Checkpoint("the store has no log key".into())),
    }
}

/// Checks that a checkpoint's root is this store's tree at its size.
pub fn check_root(store: &Store, cp: &Checkpoint) -> Result<(), LogError> {
    if store.tree_root(cp.size)? != cp.root {
        return Err(LogError::ForeignCheckpoint);
    }
    Ok(())
}

/// The key rotation proof file (`kifu-log-rotation/1`) of the checkpoint
/// `cp` of this store: what `kifu prove rotation` writes.
pub fn rotation_file(store: &Store, cp: &Checkpoint) -> Result<RotationFile, LogError> {
    check_root(store, cp)?;
    let (first, rotations) = rotation_proof(store, cp)?;
    Ok(RotationFile {
        format: ROTATION_FORMAT.into(),
        origin: cp.origin.clone(),
        tree_size: cp.size,
        log_key: first_log_key(store, first)?,
        rotations,
    })
}

/// The genesis of the operator chain of `origin` for `key`.
fn operator_genesis(origin: &str, key: PublicKey) -> Genesis {
    Genesis {
        game: GameKind::Go,
        ruleset: kifu_ledger::LOG_OPERATOR_RULESET.into(),
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

/// What a key rotation did.
#[derive(Debug, Clone)]
pub struct Rotation {
    /// The first checkpoint of the new key: the tree that includes the rotation.
    pub signed: SignedCheckpoint,
    /// The origin.
    pub origin: String,
    /// The verifier key rotated away from.
    pub old_key: String,
    /// The verifier key that signs now.
    pub new_key: String,
    /// The rotation's leaf index.
    pub leaf: u64,
    /// The operator chain that holds the statement.
    pub operator_chain: Hash,
    /// The statement's seq in that chain.
    pub seq: u64,
}

/// Rotates the log's key (`docs/TRANSPARENCY.md` section 8): states the
/// rotation as a `log_key_rotated` event signed by `old`, in the operator's
/// chain for that key (created on first use, titled
/// [`OPERATOR_TITLE`] and the origin), syncs it, then signs the tree that
/// includes it with the key of `new_seed`, which signs from then on.
/// `origin` defaults as in [`resolve_origin`]. Only the log's current key
/// may rotate it.
pub fn rotate_key(
    store: &Store,
    origin: Option<&str>,
    old: &Keypair,
    new_seed: [u8; 32],
    at_ms: u64,
) -> Result<Rotation, LogError> {
    let new = Keypair::from_seed(new_seed);
    if new.public() == old.public() {
        return Err(LogError::SameKey);
    }
    let origin = resolve_origin(store, origin)?;
    let old_key = NoteVerifier::ed25519(&origin, old.public().verifying_key()?).to_vkey();
    if let Some(current) = store.log_key()? {
        if current != old_key {
            return Err(LogError::NotCurrentKey {
                current,
                given: old_key,
            });
        }
    }
    let title = format!("{OPERATOR_TITLE}{origin}");
    // The operator chain of this key: its genesis names the key as recorder.
    let mut chain = None;
    for game in store.games()? {
        let g = store.genesis(&game)?;
        if g.title == title && g.roster.iter().any(|p| p.key == old.public()) {
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
                at_ms,
                signer: old.public(),
                body: Body::GameCreated(operator_genesis(&origin, old.public())),
            }
            .sign(old)?;
            store.append(genesis)?.game
        }
    };
    let head = store
        .head(&game)?
        .ok_or_else(|| LogError::Checkpoint("the operator chain has no head".into()))?;
    let statement = Event::next(
        game,
        head,
        at_ms,
        old.public(),
        Body::LogKeyRotated {
            origin: origin.clone(),
            new_key: new.public(),
        },
    )
    .sign(old)?;
    let appended = store.append(statement)?;
    store.sync()?;
    let leaf = store
        .leaf_index(&game, appended.seq)?
        .ok_or_else(|| LogError::Checkpoint("the rotation has no leaf in the log".into()))?;
    let signer = NoteSigner::new(&origin, new_seed)
        .map_err(|e| LogError::Checkpoint(format!("origin: {e}")))?;
    let signed = sign_checkpoint(store, &signer)?;
    Ok(Rotation {
        signed,
        origin,
        old_key,
        new_key: signer.verifier().to_vkey(),
        leaf,
        operator_chain: game,
        seq: appended.seq,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with_a_game() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let cast = kifu_ledger::testkit::Cast::new();
        let c = kifu_ledger::testkit::sample_game(&cast, "game");
        store.append_batch(c.records.clone()).unwrap();
        (dir, store)
    }

    #[test]
    fn a_rotation_is_proved_in_the_new_keys_first_checkpoint_and_only_it_signs_after() {
        let (_dir, store) = store_with_a_game();
        let old = Keypair::from_seed([1; 32]);
        let first = NoteSigner::new("kifu.example/unit", [1; 32]).unwrap();
        sign_checkpoint(&store, &first).unwrap();
        let trusted = first.verifier();
        // Another key than the log's may not rotate it; the same key is no rotation.
        let stranger = Keypair::from_seed([3; 32]);
        assert!(matches!(
            rotate_key(&store, None, &stranger, [4; 32], 10),
            Err(LogError::NotCurrentKey { .. })
        ));
        assert!(matches!(
            rotate_key(&store, None, &old, [1; 32], 10),
            Err(LogError::SameKey)
        ));
        let r = rotate_key(&store, None, &old, [2; 32], 10).unwrap();
        assert_eq!(r.origin, "kifu.example/unit");
        assert_eq!(r.old_key, trusted.to_vkey());
        assert_eq!(store.log_key().unwrap(), Some(r.new_key.clone()));
        assert!(r.leaf < r.signed.checkpoint.size);
        assert_eq!(
            store.genesis(&r.operator_chain).unwrap().title,
            format!("{OPERATOR_TITLE}kifu.example/unit")
        );
        // The proof file leads a verifier who trusts the old key to the new one.
        let file = rotation_file(&store, &r.signed.checkpoint).unwrap();
        assert_eq!(file.log_key, trusted.to_vkey());
        assert_eq!(file.rotations.len(), 1);
        let (_, cp, key, steps) =
            kifu_bundle::rotation::open_checkpoint(&r.signed.text, &trusted, Some(&file)).unwrap();
        assert_eq!(cp.size, r.signed.checkpoint.size);
        assert_eq!(key.to_vkey(), r.new_key);
        assert_eq!(steps.len(), 1);
        // Without the proof the new checkpoint does not open under the old key.
        assert!(kifu_bundle::rotation::open_checkpoint(&r.signed.text, &trusted, None).is_err());
        // The old key signs no more.
        assert!(matches!(
            sign_checkpoint(&store, &first),
            Err(LogError::RotatedAway { .. })
        ));
        // A second rotation by the new key is kept in the new key's chain.
        let again = rotate_key(&store, None, &Keypair::from_seed([2; 32]), [5; 32], 20).unwrap();
        assert_ne!(again.operator_chain, r.operator_chain);
        let file = rotation_file(&store, &again.signed.checkpoint).unwrap();
        assert_eq!(file.rotations.len(), 2);
        assert_eq!(file.log_key, trusted.to_vkey());
    }

    #[test]
    fn a_checkpoint_of_another_tree_is_refused() {
        let (_dir, store) = store_with_a_game();
        let size = store.tree_size().unwrap();
        let cp = Checkpoint::new("kifu.example/unit", size, [7; 32]);
        assert!(matches!(
            rotation_file(&store, &cp),
            Err(LogError::ForeignCheckpoint)
        ));
    }
}
