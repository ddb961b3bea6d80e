//! Appeal bundles (`docs/TRANSPARENCY.md` section 7): one JSON file that
//! holds a whole game as a transparency log logged it, and the offline
//! verifier that needs nothing else.
//!
//! Two forms are read. `kifu-bundle/2` proves that the game's head is the
//! head with the log's **map** of game heads (section 10): the head's
//! inclusion proof in the checkpoint's tree and its map proof under the map
//! root the checkpoint names, a few kilobytes whatever the log logged after
//! the game. `kifu-bundle/1` proves it with the log's **tail**: every leaf
//! after the game's last event, with a range proof (section 6); it grows with
//! the log, and is still read and written for checkpoints without a map root.
//!
//! # The one design decision: the verifier says what is proved, not whom to trust
//!
//! [`check_bundle`] is pure (no I/O, no clock) and returns what was proved
//! ([`BundleReport`]: the game, its head, the checkpoint, the keys that
//! signed and co-signed it), or a [`BundleError`] naming the first check
//! that failed. Whether the log's key and the witnesses are to be believed
//! is the reader's decision, made against the reader's own list of keys
//! ([`check_bundle_trusting`], `kifu verify --trust`): a bundle travels to
//! an appeals committee or a federation far from the venue that wrote it,
//! and each reader trusts whom it trusts. The crate makes no bundle: it
//! depends on no store, and a bundle is built from one elsewhere.
//!
//! ```
//! use kifu_bundle::{check_bundle, Bundle, Completeness};
//! // A bundle of the tail form, written before the map existed: it still
//! // verifies, since forms are only ever added.
//! let path = concat!(
//!     env!("CARGO_MANIFEST_DIR"),
//!     "/../../fixtures/tlog/bundle-before-the-map.kifu-bundle"
//! );
//! let bundle: Bundle = serde_json::from_slice(&std::fs::read(path)?)?;
//! let report = check_bundle(&bundle)?;
//! assert_eq!(report.completeness, Completeness::Tail);
//! assert_eq!((report.events, report.tree_size), (63, 126));
//! assert!(report.game.starts_with("bf15556c4a7b"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod compact;
pub mod rotation;
pub mod tournament;
pub mod verdict;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_ledger::{verify_records, Hash, Record};
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::map::{MapProof, MapProofError};
use kifu_tlog::note::{Note, NoteVerifier, TYPE_COSIGNATURE_V1, TYPE_ED25519};
use kifu_tlog::proof::parse_b64_hash;
use kifu_tlog::Leaf;
use serde::{Deserialize, Serialize};

pub use rotation::{RotationError, RotationFile, RotationProof, Step, ROTATION_FORMAT};
pub use tournament::{TournamentError, TournamentPart, TournamentReport};

/// The format of a bundle that proves its head with the log's tail.
pub const BUNDLE_FORMAT: &str = "kifu-bundle/1";
/// The format of a bundle that proves its head with the map of game heads.
pub const BUNDLE_FORMAT_MAP: &str = "kifu-bundle/2";

/// One record in a bundle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BundleRecord {
    /// The record's place in its game.
    pub seq: u64,
    /// Its leaf index in the log (`kifu-bundle/1` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaf_index: Option<u64>,
    /// The stored record bytes (`u32 LE length || event bytes || signature`), base64.
    pub record: String,
    /// Its inclusion proof at the checkpoint's size, base64 hashes
    /// (`kifu-bundle/1` only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inclusion: Vec<String>,
}

/// The end of the log from the game's last record (`kifu-bundle/1`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BundleTail {
    /// Leaf index of the game's last record.
    pub start: u64,
    /// The 72-byte leaf data of every leaf from `start` to the checkpoint's size, hex.
    pub leaves: Vec<String>,
    /// The range proof tying them to the checkpoint's root, base64 hashes.
    pub proof: Vec<String>,
}

/// The game's head in the log and in the map (`kifu-bundle/2`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BundleHead {
    /// The leaf index of the game's last record.
    pub leaf_index: u64,
    /// Its inclusion proof in the checkpoint's tree, base64 hashes.
    pub inclusion: Vec<String>,
    /// The game's map proof under the checkpoint's map root:
    /// `{"leaf": <80-byte map leaf, hex>, "siblings": [<base64>...]}`.
    pub map: serde_json::Value,
}

/// An appeal bundle (`docs/TRANSPARENCY.md` section 7).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bundle {
    /// [`BUNDLE_FORMAT`] or [`BUNDLE_FORMAT_MAP`].
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
    /// The log's tail from the game's last record (`kifu-bundle/1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail: Option<BundleTail>,
    /// The head's proofs (`kifu-bundle/2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<BundleHead>,
    /// A tournament chain's checkpoint of the game's head, where one exists.
    pub tournament_checkpoint: Option<serde_json::Value>,
    /// The rotations of the log's key from `log_key` to the key that signed
    /// the checkpoint, each proved in the checkpoint's tree (none when
    /// `log_key` signed it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log_key_rotations: Vec<RotationProof>,
}

/// How a bundle proved that it holds the game's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Completeness {
    /// With the log's map of game heads (`kifu-bundle/2`).
    Map,
    /// With the log's tail (`kifu-bundle/1`).
    Tail,
}

/// What a verified bundle proves.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BundleReport {
    /// Game id, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// Number of events.
    pub events: usize,
    /// Last seq.
    pub head_seq: u64,
    /// Hash of the last record, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub head_hash: String,
    /// Checkpoint origin.
    pub origin: String,
    /// Tree size.
    pub tree_size: u64,
    /// Root, base64.
    pub root: String,
    /// The map root the checkpoint names, base64 (`kifu-bundle/2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map_root: Option<String>,
    /// How the head was proved to be the game's last event.
    pub completeness: Completeness,
    /// Log key.
    pub log_key: String,
    /// Witness keys and their cosignature times (seconds since the Unix
    /// epoch), each as `[key, time]`.
    pub witnesses: Vec<(String, u64)>,
    /// The keys the log's key was rotated to, up to the one that signed the
    /// checkpoint.
    pub rotated_to: Vec<Step>,
    /// The tournament chain's checkpoint of the game's head, when the
    /// bundle carries one.
    pub tournament: Option<TournamentReport>,
}

/// Why a bundle does not verify: the first check that failed.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum BundleError {
    /// Not a bundle format this verifier reads.
    #[error("not a {BUNDLE_FORMAT} or {BUNDLE_FORMAT_MAP} bundle")]
    Format,
    /// The log key does not parse.
    #[error("log key: {0}")]
    LogKey(String),
    /// The log key is not an Ed25519 note key.
    #[error("the log key is not an Ed25519 note key")]
    LogKeyType,
    /// The checkpoint does not parse.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// A key rotation does not lead on.
    #[error(transparent)]
    Rotation(#[from] RotationError),
    /// A witness key does not parse.
    #[error("witness key: {0}")]
    WitnessKey(String),
    /// A witness key is not a cosignature key.
    #[error("witness key {0} is not a cosignature key")]
    WitnessKeyType(String),
    /// A known key's signature on the checkpoint fails.
    #[error("checkpoint: {0}; the checkpoint is altered, or comes from another (forked) log")]
    Forged(String),
    /// The checkpoint carries no signature by the log key.
    #[error("the checkpoint is not signed by the log key {0}")]
    NotSignedByLog(String),
    /// A named witness did not cosign.
    #[error("witness {0} did not cosign this checkpoint: a checkpoint the witness never saw (a forked log?)")]
    NotCosigned(String),
    /// No records.
    #[error("the bundle has no events")]
    NoEvents,
    /// The game id is not 32 bytes of hex.
    #[error("the game id is not 32 bytes of hex")]
    GameId,
    /// A record is not base64.
    #[error("record {0} is not base64")]
    RecordNotBase64(usize),
    /// A record does not decode.
    #[error("record {0}: {1}")]
    Record(usize, String),
    /// A record's seq is not the one it is listed under.
    #[error("record {pos} says seq {actual} but is listed as {listed}")]
    SeqMismatch {
        /// Position in the list.
        pos: usize,
        /// The record's own seq.
        actual: u64,
        /// The seq it is listed with.
        listed: u64,
    },
    /// A seq appears twice.
    #[error("event seq {0} appears twice: an event was added")]
    Repeated(u64),
    /// A seq is missing.
    #[error("event seq {0} is missing: an event was removed")]
    Missing(u64),
    /// The events are out of order.
    #[error("event seq {seq} stands at position {pos}: the events are reordered")]
    Reordered {
        /// The seq found.
        seq: u64,
        /// Where.
        pos: usize,
    },
    /// The first record is not the game's genesis.
    #[error("the first event is not the game's genesis")]
    NotGenesis,
    /// The chain does not verify.
    #[error("the game's chain does not verify: {0}")]
    Chain(String),
    /// A `kifu-bundle/1` record has no leaf index.
    #[error("event seq {0} has no leaf index")]
    NoLeafIndex(u64),
    /// Leaf indices do not increase.
    #[error("event seq {0} is logged before the event it follows: reordered")]
    LoggedOutOfOrder(u64),
    /// A proof hash is malformed.
    #[error("event seq {seq}: {why}")]
    ProofHash {
        /// The event.
        seq: u64,
        /// What is wrong.
        why: String,
    },
    /// An event is not in the checkpoint's tree.
    #[error("event seq {seq} is not in the log at leaf {index} of size {size} ({why}): it was changed, added, or comes from another log")]
    NotInLog {
        /// The event.
        seq: u64,
        /// The leaf index claimed.
        index: u64,
        /// The tree size.
        size: u64,
        /// The proof's failure.
        why: String,
    },
    /// A `kifu-bundle/1` bundle without its tail, or a `/2` without its head.
    #[error("the bundle has no {0} part")]
    NoPart(&'static str),
    /// The tail starts elsewhere than the last event.
    #[error("the log's tail starts at leaf {start}, but the bundle's last event (seq {seq}) is leaf {index}: events were removed from the end, or the tail is another bundle's")]
    TailStart {
        /// Where the tail starts.
        start: u64,
        /// The last event's seq.
        seq: u64,
        /// Its leaf index.
        index: u64,
    },
    /// A tail leaf is not 72 bytes of hex.
    #[error("tail leaf {0} is not 72 bytes of hex")]
    TailLeaf(usize),
    /// The tail does not start with the last event.
    #[error("the log's tail does not start with the bundle's last event (seq {0}): events were removed from the end")]
    TailNotFromLast(u64),
    /// The log holds a later event of the game.
    #[error("the log holds event seq {seq} of this game at leaf {leaf}, after the bundle's last event (seq {last}): the bundle is truncated")]
    Truncated {
        /// The later event's seq.
        seq: u64,
        /// Its leaf index.
        leaf: u64,
        /// The bundle's last seq.
        last: u64,
    },
    /// The tail's range proof is malformed.
    #[error("tail proof: {0}")]
    TailProof(String),
    /// The tail's range proof fails.
    #[error("tail: {0}")]
    Tail(String),
    /// The tail does not lead to the root.
    #[error("the log's tail does not lead to the checkpoint's root: leaves were left out")]
    TailRoot,
    /// A map bundle whose checkpoint names no map root.
    #[error("the checkpoint names no map root (no `kifu-map/1` line): it cannot prove the game's head with a map proof")]
    NoMapRoot,
    /// The map proof is malformed, or does not lead to the map root.
    #[error("the game's map proof: {0}: it names a stale head, or is another checkpoint's")]
    MapProof(MapProofError),
    /// The map proves the game absent.
    #[error(
        "the log's map at this checkpoint does not hold the game: the game is not in this log"
    )]
    NotInMap,
    /// The map names another head than the bundle's last event.
    #[error("the log's map names seq {seq} (record {hash}) at leaf {leaf} as the game's head, not the bundle's last event (seq {last}, leaf {last_leaf})")]
    OtherHead {
        /// The map's head seq.
        seq: u64,
        /// Its record hash, hex.
        hash: String,
        /// Its leaf index.
        leaf: u64,
        /// The bundle's last seq.
        last: u64,
        /// The bundle's head leaf index.
        last_leaf: u64,
    },
    /// The tournament part does not check.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The tournament part does not parse.
    #[error("tournament checkpoint: {0}")]
    TournamentPart(String),
    /// The bundle's log key is not one the reader trusts.
    #[error("untrusted: the bundle's log key {key} ({fingerprint}) is not a trusted key")]
    Untrusted {
        /// The key, hex.
        key: String,
        /// Its SHA-256 fingerprint.
        fingerprint: String,
    },
}

fn hashes(list: &[String]) -> Result<Vec<Hash>, kifu_tlog::ProofError> {
    list.iter().map(|h| parse_b64_hash(h)).collect()
}

/// A checkpoint whose signatures checked: the tree head, the key history
/// that led to its signer, and each witness with its cosignature time.
type Signed = (Checkpoint, Vec<Step>, Vec<(String, u64)>);

/// Checks the checkpoint's signatures: the key `log_key` leads to through
/// the bundle's rotations, and every named witness.
fn check_signatures(b: &Bundle) -> Result<Signed, BundleError> {
    let log = NoteVerifier::parse(&b.log_key).map_err(|e| BundleError::LogKey(e.to_string()))?;
    if log.sig_type != TYPE_ED25519 {
        return Err(BundleError::LogKeyType);
    }
    let note = Note::parse(&b.checkpoint).map_err(|e| BundleError::Checkpoint(e.to_string()))?;
    let cp = Checkpoint::parse(&note.text).map_err(|e| BundleError::Checkpoint(e.to_string()))?;
    // docs/TRANSPARENCY.md section 8: the key that signs this checkpoint is
    // `log_key`, or the key its proved rotations lead to.
    let (log, rotated_to) = rotation::follow(&log, &cp, &b.log_key_rotations)?;
    let mut keys = vec![log.clone()];
    for w in &b.witness_keys {
        let v = NoteVerifier::parse(w).map_err(|e| BundleError::WitnessKey(e.to_string()))?;
        if v.sig_type != TYPE_COSIGNATURE_V1 {
            return Err(BundleError::WitnessKeyType(v.name));
        }
        keys.push(v);
    }
    let verified = note
        .verify(&keys)
        .map_err(|e| BundleError::Forged(e.to_string()))?;
    if !verified
        .iter()
        .any(|v| v.key_id == log.key_id && v.name == log.name)
    {
        return Err(BundleError::NotSignedByLog(log.to_vkey()));
    }
    let mut witnesses = Vec::new();
    for k in &keys[1..] {
        match verified
            .iter()
            .find(|v| v.key_id == k.key_id && v.name == k.name)
        {
            Some(v) => witnesses.push((k.to_vkey(), v.timestamp.unwrap_or(0))),
            None => return Err(BundleError::NotCosigned(k.name.clone())),
        }
    }
    Ok((cp, rotated_to, witnesses))
}

/// Decodes the records and checks that they are the game's whole chain
/// from its genesis, seq 0, 1, 2, ... with every link, signature and role.
fn check_records(b: &Bundle, game: &Hash) -> Result<Vec<Record>, BundleError> {
    if b.records.is_empty() {
        return Err(BundleError::NoEvents);
    }
    let mut records = Vec::with_capacity(b.records.len());
    for (pos, r) in b.records.iter().enumerate() {
        let bytes = B64
            .decode(&r.record)
            .map_err(|_| BundleError::RecordNotBase64(pos))?;
        let rec =
            Record::from_stored(&bytes).map_err(|e| BundleError::Record(pos, e.to_string()))?;
        let h = rec
            .header()
            .map_err(|e| BundleError::Record(pos, e.to_string()))?;
        if h.seq != r.seq {
            return Err(BundleError::SeqMismatch {
                pos,
                actual: h.seq,
                listed: r.seq,
            });
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
            return Err(BundleError::Repeated(w[0]));
        }
        if let Some(missing) = (0u64..).zip(&seqs).find(|(i, s)| i != *s).map(|(i, _)| i) {
            return Err(BundleError::Missing(missing));
        }
        let pos = listed
            .iter()
            .enumerate()
            .position(|(i, s)| *s != i as u64)
            .unwrap_or(0);
        return Err(BundleError::Reordered {
            seq: listed[pos],
            pos,
        });
    }
    let records: Vec<Record> = records.into_iter().map(|(_, r)| r).collect();
    if records.first().map(|r| r.hash()) != Some(*game) {
        return Err(BundleError::NotGenesis);
    }
    let report = verify_records(&records);
    if !report.ok() || report.games.len() != 1 {
        let first = report
            .problems
            .first()
            .map(|p| p.to_string())
            .unwrap_or_default();
        return Err(BundleError::Chain(first));
    }
    Ok(records)
}

fn check_included(
    cp: &Checkpoint,
    leaf: &Leaf,
    index: u64,
    inclusion: &[String],
) -> Result<(), BundleError> {
    let path = hashes(inclusion).map_err(|e| BundleError::ProofHash {
        seq: leaf.seq,
        why: e.to_string(),
    })?;
    kifu_tlog::verify_inclusion(index, cp.size, &leaf.hash(), &path, &cp.root).map_err(|e| {
        BundleError::NotInLog {
            seq: leaf.seq,
            index,
            size: cp.size,
            why: e.to_string(),
        }
    })
}

/// `kifu-bundle/1`: every record included at its leaf, in increasing leaf
/// order, and the tail from the last one to the end of the tree holds no
/// later event of the game.
fn check_tail(
    b: &Bundle,
    cp: &Checkpoint,
    game: &Hash,
    records: &[Record],
) -> Result<(), BundleError> {
    let mut prev_index: Option<u64> = None;
    for (r, rec) in b.records.iter().zip(records) {
        let index = r.leaf_index.ok_or(BundleError::NoLeafIndex(r.seq))?;
        if prev_index.is_some_and(|p| index <= p) {
            return Err(BundleError::LoggedOutOfOrder(r.seq));
        }
        prev_index = Some(index);
        let leaf = Leaf {
            game: *game,
            seq: r.seq,
            record_hash: rec.hash(),
        };
        check_included(cp, &leaf, index, &r.inclusion)?;
    }
    let tail = b.tail.as_ref().ok_or(BundleError::NoPart("tail"))?;
    // Completeness: the log from the game's last event to the end of the
    // checkpointed tree holds no later event of this game.
    let last = b.records.len() - 1;
    let last_seq = b.records[last].seq;
    let last_index = b.records[last].leaf_index.unwrap_or_default();
    let last_leaf = Leaf {
        game: *game,
        seq: last_seq,
        record_hash: records[last].hash(),
    };
    if tail.start != last_index {
        return Err(BundleError::TailStart {
            start: tail.start,
            seq: last_seq,
            index: last_index,
        });
    }
    let mut hashed = Vec::with_capacity(tail.leaves.len());
    for (i, l) in tail.leaves.iter().enumerate() {
        let leaf = hex::decode(l)
            .ok()
            .and_then(|d| Leaf::from_bytes(&d))
            .ok_or(BundleError::TailLeaf(i))?;
        if i == 0 && leaf != last_leaf {
            return Err(BundleError::TailNotFromLast(last_seq));
        }
        if i > 0 && leaf.game == *game {
            return Err(BundleError::Truncated {
                seq: leaf.seq,
                leaf: tail.start + i as u64,
                last: last_seq,
            });
        }
        hashed.push(leaf.hash());
    }
    let range = hashes(&tail.proof).map_err(|e| BundleError::TailProof(e.to_string()))?;
    let root = kifu_tlog::range::root_from_range(tail.start, &hashed, &range)
        .map_err(|e| BundleError::Tail(e.to_string()))?;
    if root != cp.root || tail.start + hashed.len() as u64 != cp.size {
        return Err(BundleError::TailRoot);
    }
    Ok(())
}

/// `kifu-bundle/2`: the last record is included at the head's leaf, and
/// the map under the checkpoint's map root names exactly that record and
/// leaf as the game's head.
fn check_map(
    b: &Bundle,
    cp: &Checkpoint,
    game: &Hash,
    records: &[Record],
) -> Result<Hash, BundleError> {
    let head = b.head.as_ref().ok_or(BundleError::NoPart("head"))?;
    let last = records.len() - 1;
    let last_seq = b.records[last].seq;
    let leaf = Leaf {
        game: *game,
        seq: last_seq,
        record_hash: records[last].hash(),
    };
    check_included(cp, &leaf, head.leaf_index, &head.inclusion)?;
    let map_root = kifu_tlog::map::root_in(&cp.extensions)
        .map_err(|e| BundleError::Checkpoint(e.to_string()))?
        .ok_or(BundleError::NoMapRoot)?;
    let proof = MapProof::from_json(&head.map).map_err(BundleError::MapProof)?;
    let entry = kifu_tlog::map::verify(&map_root, game, &proof)
        .map_err(BundleError::MapProof)?
        .ok_or(BundleError::NotInMap)?;
    if entry.head.seq > last_seq {
        return Err(BundleError::Truncated {
            seq: entry.head.seq,
            leaf: entry.leaf_index,
            last: last_seq,
        });
    }
    if entry.head != leaf || entry.leaf_index != head.leaf_index {
        return Err(BundleError::OtherHead {
            seq: entry.head.seq,
            hash: hex::encode(entry.head.record_hash),
            leaf: entry.leaf_index,
            last: last_seq,
            last_leaf: head.leaf_index,
        });
    }
    Ok(map_root)
}

/// Checks a bundle offline: the checkpoint's signatures (section 4, with
/// the key rotations of section 8), the game's chain, the records' place in
/// the log, that the bundle ends at the game's head as logged (with the
/// map, or the tail), and the tournament part. The error says what is wrong.
pub fn check_bundle(b: &Bundle) -> Result<BundleReport, BundleError> {
    check(b)
}

/// [`check_bundle`], and whom the verdict trusts (`docs/TRANSPARENCY.md`
/// section 7): the log key the bundle names vouches for its checkpoint;
/// when the reader names `trusted` keys, that key must be one of them.
/// Gives the report and the log key as an Ed25519 key.
///
/// # Errors
///
/// Any [`BundleError`], [`BundleError::Untrusted`] for a key not trusted.
pub fn check_bundle_trusting(
    b: &Bundle,
    trusted: &[kifu_ledger::PublicKey],
) -> Result<(BundleReport, kifu_ledger::PublicKey), BundleError> {
    let report = check(b)?;
    let v = NoteVerifier::parse(&b.log_key).map_err(|e| BundleError::LogKey(e.to_string()))?;
    let key = kifu_ledger::PublicKey(v.key.to_bytes());
    if !trusted.is_empty() && !trusted.contains(&key) {
        return Err(BundleError::Untrusted {
            key: key.to_hex(),
            fingerprint: key.sha256_fingerprint(),
        });
    }
    Ok((report, key))
}

fn check(b: &Bundle) -> Result<BundleReport, BundleError> {
    let completeness = match b.format.as_str() {
        BUNDLE_FORMAT => Completeness::Tail,
        BUNDLE_FORMAT_MAP => Completeness::Map,
        _ => return Err(BundleError::Format),
    };
    let (cp, rotated_to, witnesses) = check_signatures(b)?;
    if b.records.is_empty() {
        return Err(BundleError::NoEvents);
    }
    let game: Hash = hex::decode(&b.game)
        .ok()
        .and_then(|g| g.try_into().ok())
        .ok_or(BundleError::GameId)?;
    let records = check_records(b, &game)?;
    let map_root = match completeness {
        Completeness::Tail => {
            check_tail(b, &cp, &game, &records)?;
            None
        }
        Completeness::Map => Some(check_map(b, &cp, &game, &records)?),
    };
    let tournament = match &b.tournament_checkpoint {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => {
            let part: TournamentPart = serde_json::from_value(v.clone())
                .map_err(|e| BundleError::TournamentPart(e.to_string()))?;
            Some(tournament::check(&part, &game, &records)?)
        }
    };
    let last = records.len() - 1;
    Ok(BundleReport {
        rotated_to,
        tournament,
        game: b.game.clone(),
        events: records.len(),
        head_seq: b.records[last].seq,
        head_hash: hex::encode(records[last].hash()),
        origin: cp.origin,
        tree_size: cp.size,
        root: B64.encode(cp.root),
        map_root: map_root.map(|r| B64.encode(r)),
        completeness,
        log_key: b.log_key.clone(),
        witnesses,
    })
}
