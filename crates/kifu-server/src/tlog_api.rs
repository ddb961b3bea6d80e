//! The transparency log served: signed checkpoints, proofs and C2SP
//! `tlog-tiles` (`docs/TRANSPARENCY.md`, `docs/API.md`).
//!
//! The functions that compute what is served ([`sign_checkpoint`],
//! [`prove_inclusion`], [`prove_consistency`], [`proof_target`]) take a
//! [`Store`] and are also what `kifu checkpoint` and `kifu prove` call, so
//! the command line and the server print the same documents from the same
//! code.
//!
//! The one decision a reader must know: **the server signs only a tree that
//! grew, and only one at a time.** A signature costs a sync of the store;
//! `POST /checkpoint` signs when the tree grew since the last checkpoint and
//! the last signature is at least [`CheckpointConfig::min_gap`] old, and
//! otherwise answers the last checkpoint, so asking cannot burn CPU or disk.
//! Before each signature the last kept checkpoint is checked against the
//! store's tree (C2SP tlog-checkpoint: a log never signs two inconsistent
//! tree heads), also after a restart.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_store::{Store, StoreError};
use kifu_tlog::note::{Note, NoteSigner};
use kifu_tlog::tiles::TILE_WIDTH;
use serde::Deserialize;

use crate::api::blocking;
use crate::error::ApiError;
use crate::App;

pub use kifu_store::site::read_tile;
pub use kifu_tlog::tiles::{parse_tile_path, TileRequest};

pub use kifu_store::operator::{
    check_signer, last_checkpoint, proof_target, prove_consistency, prove_inclusion,
    resolve_origin, rotations_in, sign_checkpoint, ConsistencyAnswer, InclusionAnswer, LogError,
    SignedCheckpoint, DEFAULT_ORIGIN, OPERATOR_TITLE,
};

/// What `kifu serve --checkpoint-key` configures.
pub struct CheckpointConfig {
    /// The operator's Ed25519 seed.
    pub seed: [u8; 32],
    /// The origin (default: the last checkpoint's, else [`DEFAULT_ORIGIN`]).
    pub origin: Option<String>,
    /// Sign this often when the tree grew (`None`: on demand only).
    pub every: Option<Duration>,
    /// Least time between two signatures asked by `POST /checkpoint`.
    pub min_gap: Duration,
}

/// The log's state in the server.
#[derive(Default)]
pub struct LogFace {
    signer: Option<NoteSigner>,
    every: Option<Duration>,
    min_gap: Duration,
    /// When the last signature was made (held while signing: one at a time).
    last_signed: Mutex<Option<Instant>>,
    /// Checkpoints signed by this process.
    pub signed: AtomicU64,
}

/// What a signing attempt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signed {
    /// A new checkpoint was signed.
    New,
    /// The tree did not grow: the last checkpoint stands.
    Unchanged,
    /// The tree grew but the last signature is too recent.
    TooSoon,
}

impl LogFace {
    /// Sets up the signer (resolving the origin against the store) and
    /// signs the current tree when the last kept checkpoint is not of it
    /// or not by this key.
    pub fn start(store: &Store, config: Option<CheckpointConfig>) -> Result<LogFace, LogError> {
        let Some(c) = config else {
            return Ok(LogFace::default());
        };
        let origin = resolve_origin(store, c.origin.as_deref())?;
        let signer = NoteSigner::new(&origin, c.seed)
            .map_err(|e| LogError::Checkpoint(format!("origin: {e}")))?;
        // After a rotation in the log, only the new key may sign.
        check_signer(store, &origin, &signer.verifier())?;
        let face = LogFace {
            signer: Some(signer),
            every: c.every,
            min_gap: c.min_gap,
            ..LogFace::default()
        };
        face.sign_if_grown(store, true)?;
        Ok(face)
    }

    /// The signer, when an operator key is configured.
    pub fn signer(&self) -> Option<&NoteSigner> {
        self.signer.as_ref()
    }

    /// The signing interval.
    pub fn every(&self) -> Option<Duration> {
        self.every
    }

    /// True when the kept checkpoint is of the current tree and verifies
    /// under this signer's key.
    fn current(&self, store: &Store, signer: &NoteSigner) -> Result<bool, LogError> {
        let Some(last) = last_checkpoint(store)? else {
            return Ok(false);
        };
        let ours = Note::parse(&last.text)
            .ok()
            .is_some_and(|n| n.verify(&[signer.verifier()]).is_ok());
        // A checkpoint signed before the map of game heads is signed again,
        // with its map root (docs/TRANSPARENCY.md section 10).
        let has_map = matches!(
            kifu_tlog::map::root_in(&last.checkpoint.extensions),
            Ok(Some(_))
        );
        Ok(ours && has_map && last.checkpoint.size == store.tree_size()?)
    }

    /// Signs the current tree if it grew since the last checkpoint; with
    /// `force` false, not sooner than `min_gap` after the last signature.
    pub fn sign_if_grown(&self, store: &Store, force: bool) -> Result<Signed, LogError> {
        let Some(signer) = &self.signer else {
            return Ok(Signed::Unchanged);
        };
        let mut last = self
            .last_signed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.current(store, signer)? {
            return Ok(Signed::Unchanged);
        }
        if !force && last.is_some_and(|t| t.elapsed() < self.min_gap) {
            return Ok(Signed::TooSoon);
        }
        sign_checkpoint(store, signer)?;
        *last = Some(Instant::now());
        self.signed.fetch_add(1, Ordering::Relaxed);
        Ok(Signed::New)
    }
}

/// Signs periodically until the server stops (when an interval is set).
pub fn spawn_periodic(app: Arc<App>) -> Option<tokio::task::JoinHandle<()>> {
    let every = app.tlog.every()?;
    app.tlog.signer()?;
    let mut stop = app.shutdown.clone();
    Some(tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = stop.changed() => return,
            }
            if *stop.borrow() {
                return;
            }
            let a = app.clone();
            let r = tokio::task::spawn_blocking(move || a.tlog.sign_if_grown(&a.store, true)).await;
            match r {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => eprintln!("kifu serve: periodic checkpoint: {e}"),
                Err(e) => eprintln!("kifu serve: periodic checkpoint: {e}"),
            }
        }
    }))
}

impl From<LogError> for ApiError {
    fn from(e: LogError) -> ApiError {
        match e {
            LogError::Store(StoreError::Log(m)) => ApiError::bad_request("out_of_range", m),
            LogError::Store(s) => ApiError::from(&s),
            LogError::NoCheckpoint => {
                ApiError::new(StatusCode::NOT_FOUND, "no_checkpoint", e.to_string())
            }
            LogError::NoEvent { .. } => {
                ApiError::new(StatusCode::NOT_FOUND, "unknown_event", e.to_string())
            }
            LogError::AfterSize { .. } => ApiError::new(
                StatusCode::CONFLICT,
                "not_in_checkpoint",
                format!("{e} (POST /checkpoint, or pass size=)"),
            ),
            LogError::Inconsistent(_)
            | LogError::Checkpoint(_)
            | LogError::ForeignCheckpoint
            | LogError::Record(_) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "log_inconsistent",
                e.to_string(),
            ),
            LogError::RotatedAway { .. } | LogError::SameKey | LogError::NotCurrentKey { .. } => {
                ApiError::new(StatusCode::CONFLICT, "log_key_rotated", e.to_string())
            }
        }
    }
}

/// The log's routes.
pub fn routes() -> crate::routes::Routes {
    crate::routes::Routes::new()
        .get("/checkpoint", get_checkpoint)
        .post("/checkpoint", post_checkpoint)
        .get("/proof/inclusion", inclusion)
        .get("/proof/consistency", consistency)
        .get("/tile/{*path}", tile)
        .get("/proof/map", crate::bundle_api::map_proof)
        .get("/games/{id}/bundle", crate::bundle_api::game_bundle)
}

fn no_key() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_operator_key",
        "no operator key is configured: start kifu serve with --checkpoint-key OPERATOR.key to serve signed checkpoints (proofs and tiles are served without one)",
    )
}

fn text(status: StatusCode, cache: &'static str, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, cache),
        ],
        body,
    )
        .into_response()
}

/// `?format=json|text`.
#[derive(Debug, Deserialize)]
pub struct FormatQuery {
    /// `json` for the JSON document, else the note itself.
    pub format: Option<String>,
}

fn checkpoint_response(
    app: &App,
    status: StatusCode,
    format: Option<&str>,
) -> Result<Response, ApiError> {
    let signer = app.tlog.signer().ok_or_else(no_key)?;
    let last = last_checkpoint(&app.store)?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_checkpoint",
            "no checkpoint is signed yet",
        )
    })?;
    if format == Some("json") {
        let cp = &last.checkpoint;
        let v = crate::answers::CheckpointAnswer {
            checkpoint: last.text.clone(),
            origin: cp.origin.clone(),
            size: cp.size,
            root: B64.encode(cp.root),
            log_key: signer.verifier().to_vkey(),
        };
        let mut r = (status, axum::Json(v)).into_response();
        r.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        return Ok(r);
    }
    Ok(text(status, "no-cache", last.text))
}

/// `GET /checkpoint`: the latest signed checkpoint note.
pub async fn get_checkpoint(
    State(app): State<Arc<App>>,
    Query(q): Query<FormatQuery>,
) -> Result<Response, ApiError> {
    blocking(move || checkpoint_response(&app, StatusCode::OK, q.format.as_deref())).await
}

/// `POST /checkpoint`: signs the current tree if it grew (201), else
/// answers the last checkpoint (200; with `Retry-After` when the last
/// signature is too recent).
pub async fn post_checkpoint(
    State(app): State<Arc<App>>,
    Query(q): Query<FormatQuery>,
) -> Result<Response, ApiError> {
    blocking(move || {
        app.tlog.signer().ok_or_else(no_key)?;
        let outcome = app.tlog.sign_if_grown(&app.store, false)?;
        let status = if outcome == Signed::New {
            StatusCode::CREATED
        } else {
            StatusCode::OK
        };
        let mut r = checkpoint_response(&app, status, q.format.as_deref())?;
        if outcome == Signed::TooSoon {
            let secs = app.tlog.min_gap.as_secs().max(1).to_string();
            if let Ok(v) = HeaderValue::from_str(&secs) {
                r.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        Ok(r)
    })
    .await
}

/// `?game=ID&seq=N[&size=T][&format=text]`.
#[derive(Debug, Deserialize)]
pub struct InclusionQuery {
    /// Game id or unique prefix.
    pub game: String,
    /// The event's seq.
    pub seq: u64,
    /// Tree size (default: the latest checkpoint's, else the current tree).
    pub size: Option<u64>,
    /// `text` for the text form.
    pub format: Option<String>,
}

fn is_text(format: Option<&str>) -> Result<bool, ApiError> {
    match format {
        None | Some("json") => Ok(false),
        Some("text") => Ok(true),
        Some(other) => Err(ApiError::bad_request(
            "bad_format",
            format!("format '{other}': json or text"),
        )),
    }
}

/// `GET /proof/inclusion`.
pub async fn inclusion(
    State(app): State<Arc<App>>,
    Query(q): Query<InclusionQuery>,
) -> Result<Response, ApiError> {
    let as_text = is_text(q.format.as_deref())?;
    blocking(move || {
        let game = app.store.resolve(&q.game)?;
        let (size, root) = match q.size {
            Some(s) => (s, None),
            None => {
                let (s, r) = proof_target(&app.store)?;
                (s, Some(r))
            }
        };
        let a = prove_inclusion(&app.store, &game, q.seq, size, root)?;
        Ok(if as_text {
            text(StatusCode::OK, "no-cache", a.proof.to_text())
        } else {
            axum::Json(crate::answers::InclusionProofAnswer {
                game: hex::encode(a.leaf.game),
                seq: a.leaf.seq,
                leaf_index: a.proof.leaf_index,
                tree_size: a.proof.tree_size,
                hashes: a.proof.hashes.iter().map(|h| B64.encode(h)).collect(),
                leaf: hex::encode(a.leaf.to_bytes()),
                leaf_hash: B64.encode(a.leaf.hash()),
                root: B64.encode(a.root),
            })
            .into_response()
        })
    })
    .await
}

/// `?old=M&new=N[&format=text]`.
#[derive(Debug, Deserialize)]
pub struct ConsistencyQuery {
    /// The older size.
    pub old: u64,
    /// The newer size.
    pub new: u64,
    /// `text` for the text form.
    pub format: Option<String>,
}

/// `GET /proof/consistency`.
pub async fn consistency(
    State(app): State<Arc<App>>,
    Query(q): Query<ConsistencyQuery>,
) -> Result<Response, ApiError> {
    let as_text = is_text(q.format.as_deref())?;
    blocking(move || {
        let a = prove_consistency(&app.store, q.old, q.new)?;
        Ok(if as_text {
            text(StatusCode::OK, "no-cache", a.proof.to_text())
        } else {
            axum::Json(crate::answers::ConsistencyProofAnswer {
                old_size: a.proof.old_size,
                new_size: a.proof.new_size,
                hashes: a.proof.hashes.iter().map(|h| B64.encode(h)).collect(),
                old_root: B64.encode(a.old_root),
                new_root: B64.encode(a.new_root),
            })
            .into_response()
        })
    })
    .await
}

/// `GET /tile/...`: C2SP tlog-tiles hash tiles and entry bundles.
pub async fn tile(
    State(app): State<Arc<App>>,
    Path(path): Path<String>,
) -> Result<Response, ApiError> {
    let not_found = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_such_tile",
            format!("the log has no tile/{path}"),
        )
    };
    let t = parse_tile_path(&path).ok_or_else(not_found)?;
    let bytes = blocking(move || Ok(read_tile(&app.store, t)?)).await?;
    let bytes = bytes.ok_or_else(not_found)?;
    // A full tile never changes; a partial one is replaced by wider ones.
    let cache = if t.width == TILE_WIDTH {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=10"
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream"),
            (header::CACHE_CONTROL, cache),
        ],
        bytes,
    )
        .into_response())
}

/// The log's lines of `/metrics`.
pub fn render_metrics(app: &App) -> String {
    let size = app.store.tree_size().unwrap_or(0);
    let signed = app.tlog.signed.load(Ordering::Relaxed);
    format!(
        "# HELP kifu_checkpoints_signed_total Checkpoints signed by this server.\n# TYPE kifu_checkpoints_signed_total counter\nkifu_checkpoints_signed_total {signed}\n# HELP kifu_tlog_tree_size Leaves in the transparency log.\n# TYPE kifu_tlog_tree_size gauge\nkifu_tlog_tree_size {size}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_tlog::checkpoint::Checkpoint;

    fn store_with_games(n: usize) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let cast = kifu_ledger::testkit::Cast::new();
        for i in 0..n {
            let c = kifu_ledger::testkit::sample_game(&cast, &format!("game {i}"));
            store.append_batch(c.records.clone()).unwrap();
        }
        (dir, store)
    }

    fn config(gap: Duration) -> Option<CheckpointConfig> {
        Some(CheckpointConfig {
            seed: [9; 32],
            origin: Some("kifu.example/unit".into()),
            every: None,
            min_gap: gap,
        })
    }

    #[test]
    fn signs_only_a_grown_tree_and_not_too_often_on_demand() {
        let (_dir, store) = store_with_games(1);
        let face = LogFace::start(&store, config(Duration::from_secs(3600))).unwrap();
        assert_eq!(face.signed.load(Ordering::Relaxed), 1, "signed at start");
        let first = last_checkpoint(&store).unwrap().unwrap();
        assert_eq!(first.checkpoint.size, store.tree_size().unwrap());
        assert_eq!(
            face.sign_if_grown(&store, false).unwrap(),
            Signed::Unchanged
        );
        let cast = kifu_ledger::testkit::Cast::new();
        let c = kifu_ledger::testkit::sample_game(&cast, "later");
        store.append_batch(c.records.clone()).unwrap();
        // Grown, but asked within the gap: the last one stands.
        assert_eq!(face.sign_if_grown(&store, false).unwrap(), Signed::TooSoon);
        assert_eq!(last_checkpoint(&store).unwrap().unwrap().text, first.text);
        // The periodic signer is not held by the gap.
        assert_eq!(face.sign_if_grown(&store, true).unwrap(), Signed::New);
        let second = last_checkpoint(&store).unwrap().unwrap();
        assert_eq!(second.checkpoint.size, store.tree_size().unwrap());
        assert_eq!(face.signed.load(Ordering::Relaxed), 2);
        // A restart with the same key signs nothing new.
        let again = LogFace::start(&store, config(Duration::ZERO)).unwrap();
        assert_eq!(again.signed.load(Ordering::Relaxed), 0);
        // Another key under the same name: its own checkpoint is signed.
        let other = LogFace::start(
            &store,
            Some(CheckpointConfig {
                seed: [8; 32],
                ..config(Duration::ZERO).unwrap()
            }),
        )
        .unwrap();
        assert_eq!(other.signed.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn refuses_to_sign_a_tree_inconsistent_with_the_last_checkpoint() {
        let (_dir, store) = store_with_games(1);
        let signer = NoteSigner::new("kifu.example/unit", [9; 32]).unwrap();
        let size = store.tree_size().unwrap();
        // A kept checkpoint of this origin whose root is not the store's.
        let mut note =
            Note::new(Checkpoint::new("kifu.example/unit", size - 1, [7; 32]).to_text()).unwrap();
        signer.sign(&mut note);
        store.save_checkpoint(size - 1, &note.to_text()).unwrap();
        let e = sign_checkpoint(&store, &signer).unwrap_err();
        assert!(
            matches!(e, LogError::Inconsistent(s) if s == size - 1),
            "{e}"
        );
        assert!(LogFace::start(&store, config(Duration::ZERO)).is_err());
        // Nothing was signed over it.
        assert_eq!(
            last_checkpoint(&store).unwrap().unwrap().checkpoint.size,
            size - 1
        );
    }
}
