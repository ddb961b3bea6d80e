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
use kifu_ledger::Hash;
use serde::Deserialize;

use crate::api::blocking;
use crate::error::ApiError;
use crate::App;

pub use kifu_archive::bundle::{build, latest_bundle, map_proof_json, BundleParts, Form};
pub use kifu_store::operator::rotation_proof;

/// `?form=compact`.
#[derive(Debug, Deserialize)]
pub struct BundleQuery {
    /// `json` (the default) or `compact` (`kifu-bundle/3`).
    #[serde(default)]
    pub form: BundleForm,
}

/// The form of the bundle asked for.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BundleForm {
    /// `kifu-bundle/2` (or `/1`) as JSON.
    #[default]
    Json,
    /// The compact binary form of a map bundle (`kifu_bundle::compact`).
    Compact,
}

/// `GET /games/{id}/bundle`: the game's appeal bundle at the latest
/// checkpoint (a file `kifu verify` checks offline), as JSON or, with
/// `?form=compact`, in the compact binary form.
pub async fn game_bundle(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<BundleQuery>,
) -> Result<Response, ApiError> {
    blocking(move || {
        let game = app.store.resolve(&id)?;
        let b = latest_bundle(&app.store, &game)?;
        let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e);
        let (body, media) = match q.form {
            BundleForm::Json => (
                serde_json::to_vec_pretty(&b).map_err(|e| internal(e.to_string()))?,
                "application/json",
            ),
            BundleForm::Compact => (
                kifu_bundle::compact::encode(&b).map_err(|e| match e {
                    kifu_bundle::compact::CompactError::NotMap(_) => ApiError::new(
                        StatusCode::CONFLICT,
                        "no_compact_form",
                        format!("{e}: the latest checkpoint names no map root"),
                    ),
                    e => internal(e.to_string()),
                })?,
                "application/octet-stream",
            ),
        };
        let name = format!(
            "attachment; filename=\"{}.kifu-bundle\"",
            hex::encode(&game[..8])
        );
        Ok((
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, media.to_string()),
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
        // A size beyond the tree is the log's `out_of_range`, as for the
        // other proofs.
        let (root, proof) = app
            .store
            .map_proof(&game, size)
            .map_err(kifu_store::operator::LogError::from)?;
        Ok(axum::Json(crate::answers::MapProofAnswer {
            game: hex::encode(game),
            tree_size: size,
            map_root: B64.encode(root),
            leaf: proof.leaf.map(|l| hex::encode(l.to_bytes())),
            siblings: proof.siblings.iter().map(|h| B64.encode(h)).collect(),
        })
        .into_response())
    })
    .await
}
