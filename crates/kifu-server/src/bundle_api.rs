//! Appeal bundles and map proofs made from a store (`docs/TRANSPARENCY.md`
//! sections 7 and 10): what `kifu bundle` writes and what the server
//! answers at `GET /games/{id}/bundle` and `GET /proof/map`, from one code
//! path. The format and its verifier are `kifu_bundle`'s.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_bundle::{Bundle, BundleHead, BundleRecord, BundleTail, RotationProof};
use kifu_ledger::Hash;
use kifu_store::Store;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::note::NoteVerifier;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::blocking;
use crate::error::ApiError;
use crate::tlog_api::{last_checkpoint, rotations_in, LogError};
use crate::App;

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
    if store.tree_root(cp.size)? != cp.root {
        return Err(LogError::Checkpoint(
            "the checkpoint's root is not this store's: another log, or a fork".into(),
        ));
    }
    let (first, rotations) = rotation_proof(store, &cp)?;
    let log_key = match first {
        Some(k) => k,
        None => store
            .log_key()?
            .ok_or_else(|| LogError::Checkpoint("the store has no log key".into()))?,
    };
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

/// `GET /games/{id}/bundle`: the game's appeal bundle at the latest
/// checkpoint (a file `kifu verify` checks offline).
pub async fn game_bundle(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    blocking(move || {
        let game = app.store.resolve(&id)?;
        let b = latest_bundle(&app.store, &game)?;
        let body = serde_json::to_vec_pretty(&b).map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })?;
        let name = format!(
            "attachment; filename=\"{}.kifu-bundle\"",
            hex::encode(&game[..8])
        );
        Ok((
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (header::CACHE_CONTROL, "no-cache".to_string()),
                (header::CONTENT_DISPOSITION, name),
            ],
            body,
        )
            .into_response())
    })
    .await
}

/// `?game=ID[&size=N]`.
#[derive(Debug, Deserialize)]
pub struct MapQuery {
    /// Game id (64 hex digits) or unique prefix of a stored game; a full id
    /// the store does not hold gets its absence proof.
    pub game: String,
    /// Tree size (default: the latest checkpoint's, else the current tree).
    pub size: Option<u64>,
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

/// `GET /proof/map`: a game's entry in the map of game heads, or its
/// absence.
pub async fn map_proof(
    State(app): State<Arc<App>>,
    Query(q): Query<MapQuery>,
) -> Result<Response, ApiError> {
    blocking(move || {
        let game: Hash = match hex::decode(&q.game).ok().and_then(|g| g.try_into().ok()) {
            Some(g) => g,
            None => app.store.resolve(&q.game)?,
        };
        // Only the sizes of signed checkpoints, whose maps are kept: a size
        // between them would make the server replay leaves for nothing.
        let size = match q.size {
            Some(s) if app.store.checkpoint_at(s)?.is_none() => {
                return Err(ApiError::new(
                    StatusCode::NOT_FOUND,
                    "no_checkpoint",
                    format!(
                    "no checkpoint of size {s} is kept: ask for the size of a signed checkpoint"
                ),
                ))
            }
            Some(s) => s,
            None => crate::tlog_api::proof_target(&app.store)?.0,
        };
        Ok(axum::Json(map_proof_json(&app.store, &game, size)?).into_response())
    })
    .await
}
