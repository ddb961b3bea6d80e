//! Appeal bundles and map proofs made from a store (`docs/TRANSPARENCY.md`
//! sections 7 and 10): what `kifu bundle` writes and what the server
//! answers at `GET /games/{id}/bundle` and `GET /proof/map`, from one code
//! path. The format and its verifier are `kifu_bundle`'s.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_bundle::{Bundle, BundleHead, BundleRecord, BundleTail};
use kifu_ledger::Hash;
use kifu_tlog::checkpoint::Checkpoint;
use serde_json::{json, Value};

use kifu_bundle::RotationProof;

use crate::operator::{check_root, first_log_key, last_checkpoint, rotation_proof, LogError};
use crate::Store;

/// How a bundle proves that it ends at the game's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `kifu-bundle/2`: the head's map proof (the checkpoint must name a map root).
    Map,
    /// `kifu-bundle/1`: the log's tail after the game's last event.
    Tail,
}

impl Form {
    /// The form a checkpoint allows by default: the map when it names a
    /// map root, else the tail.
    pub fn for_checkpoint(cp: &Checkpoint) -> Form {
        match kifu_tlog::map::root_in(&cp.extensions) {
            Ok(Some(_)) => Form::Map,
            _ => Form::Tail,
        }
    }
}

fn b64s(hashes: &[Hash]) -> Vec<String> {
    hashes.iter().map(|h| B64.encode(h)).collect()
}

/// What a bundle is made of besides the store's records and proofs.
#[derive(Debug, Clone)]
pub struct BundleParts {
    /// The signed (co-signed) checkpoint note.
    pub text: String,
    /// Its tree head (its root already checked against the store).
    pub checkpoint: Checkpoint,
    /// The log key the rotations start from.
    pub log_key: String,
    /// The rotations from `log_key` to the checkpoint's signer.
    pub rotations: Vec<RotationProof>,
    /// Witness keys whose cosignatures the checkpoint carries.
    pub witness_keys: Vec<String>,
    /// A tournament chain's checkpoint of the game (`kifu_bundle::TournamentPart`).
    pub tournament: Option<Value>,
    /// Map or tail.
    pub form: Form,
}

/// A bundle of `game` at the checkpoint in `parts`. Refuses when an event
/// of the game was logged after the checkpoint.
pub fn build(store: &Store, game: &Hash, parts: BundleParts) -> Result<Bundle, LogError> {
    let cp = &parts.checkpoint;
    let records = store.read(game, 0, None)?;
    let mut out = Vec::with_capacity(records.len());
    let mut last_index = 0;
    for r in &records {
        let seq = r.header()?.seq;
        let index = store
            .leaf_index(game, seq)?
            .ok_or_else(|| LogError::Checkpoint(format!("event {seq} has no leaf in the log")))?;
        if index >= cp.size {
            return Err(LogError::AfterSize {
                seq,
                index,
                size: cp.size,
            });
        }
        last_index = index;
        let (leaf_index, inclusion) = match parts.form {
            Form::Tail => (Some(index), b64s(&store.inclusion_proof(index, cp.size)?)),
            Form::Map => (None, Vec::new()),
        };
        out.push(BundleRecord {
            seq,
            leaf_index,
            record: B64.encode(r.to_stored()),
            inclusion,
        });
    }
    if out.is_empty() {
        return Err(LogError::NoEvent {
            game: hex::encode(&game[..6]),
            seq: 0,
        });
    }
    let (format, tail, head) = match parts.form {
        Form::Tail => (
            kifu_bundle::BUNDLE_FORMAT,
            Some(BundleTail {
                start: last_index,
                leaves: store
                    .leaves(last_index, cp.size)?
                    .iter()
                    .map(|l| hex::encode(l.to_bytes()))
                    .collect(),
                proof: b64s(&store.range_proof(last_index, cp.size)?),
            }),
            None,
        ),
        Form::Map => {
            let named = kifu_tlog::map::root_in(&cp.extensions)
                .map_err(|e| LogError::Checkpoint(e.to_string()))?
                .ok_or_else(|| {
                    LogError::Checkpoint(
                        "the checkpoint names no map root: sign a newer one, or bundle with the log's tail".into(),
                    )
                })?;
            let (root, proof) = store.map_proof(game, cp.size)?;
            if root != named {
                return Err(LogError::Checkpoint(format!(
                    "the checkpoint's map root is not the map of this store's log at size {}",
                    cp.size
                )));
            }
            (
                kifu_bundle::BUNDLE_FORMAT_MAP,
                None,
                Some(BundleHead {
                    leaf_index: last_index,
                    inclusion: b64s(&store.inclusion_proof(last_index, cp.size)?),
                    map: proof.to_json(),
                }),
            )
        }
    };
    Ok(Bundle {
        format: format.into(),
        game: hex::encode(game),
        log_key: parts.log_key,
        witness_keys: parts.witness_keys,
        checkpoint: parts.text,
        records: out,
        tail,
        head,
        tournament_checkpoint: parts.tournament,
        log_key_rotations: parts.rotations,
    })
}

/// The bundle of `game` at the store's latest checkpoint, in the form it
/// allows, without witness keys or tournament part (what the server serves).
pub fn latest_bundle(store: &Store, game: &Hash) -> Result<Bundle, LogError> {
    let last = last_checkpoint(store)?.ok_or(LogError::NoCheckpoint)?;
    let cp = last.checkpoint;
    check_root(store, &cp)?;
    let (first, rotations) = rotation_proof(store, &cp)?;
    let log_key = first_log_key(store, first)?;
    let form = Form::for_checkpoint(&cp);
    build(
        store,
        game,
        BundleParts {
            text: last.text,
            checkpoint: cp,
            log_key,
            rotations,
            witness_keys: Vec::new(),
            tournament: None,
            form,
        },
    )
}

/// The JSON document of a map proof: `game`, `tree_size`, `map_root`, and
/// the proof's `leaf` and `siblings`.
pub fn map_proof_json(store: &Store, game: &Hash, size: u64) -> Result<Value, LogError> {
    let (root, proof) = store.map_proof(game, size)?;
    let mut v = proof.to_json();
    v["game"] = json!(hex::encode(game));
    v["tree_size"] = json!(size);
    v["map_root"] = json!(B64.encode(root));
    Ok(v)
}
