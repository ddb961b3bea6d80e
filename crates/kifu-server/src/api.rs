//! The HTTP API: submitting records, reading games, their projection and
//! their archive. Every answer is computed by the library crates; this
//! module only translates.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kifu_game::document;
use kifu_ledger::{archive, verify_records, Event, Hash, Record};
use serde::Deserialize;
use serde_json::Value;

use crate::answers::{Games, Head, Health, HealthStatus, RecordAnswer, Records, SubmitAnswer};
use crate::error::ApiError;
use crate::wire;
use crate::App;
use kifu_game::document::{GameHead, GameSummary};
use kifu_game::state::GameState;

/// Runs blocking library work (sled reads, projections, verification) off
/// the async workers.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("a worker failed: {e}"),
        )
    })?
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim_start().starts_with("application/json"))
        .unwrap_or(false)
}

/// `POST /records`: one or many signed records; an answer per record.
pub async fn submit(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> Response {
    match submit_inner(&app, &headers, &body).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

async fn submit_inner(app: &App, headers: &HeaderMap, body: &[u8]) -> Result<Response, ApiError> {
    let max = app.limits.max_records_per_request;
    let records = if is_json(headers) {
        wire::records_from_json(body, max)?
    } else {
        wire::records_from_bytes(body, max)?
    };
    if records.is_empty() {
        return Err(ApiError::bad_request(
            "empty",
            "the request holds no record",
        ));
    }
    // Who may create games (`creation`): a refused genesis is answered in
    // its place, and only the rest is queued.
    let gate: Vec<Result<(), ApiError>> = records.iter().map(|r| app.creation.check(r)).collect();
    let passed: Vec<_> = records
        .into_iter()
        .zip(&gate)
        .filter(|(_, g)| g.is_ok())
        .map(|(r, _)| r)
        .collect();
    let mut written = if passed.is_empty() {
        Vec::new()
    } else {
        app.ingest.append(passed).await?
    }
    .into_iter();
    let answer: Vec<Result<kifu_store::Appended, ApiError>> = gate
        .into_iter()
        .map(|g| match g {
            Err(e) => Err(e),
            Ok(()) => match written.next() {
                Some(r) => r.map_err(|e| ApiError::from(&e)),
                None => Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the writer gave fewer answers than records",
                )),
            },
        })
        .collect();
    let mut refused: Vec<ApiError> = Vec::new();
    let results: Vec<RecordAnswer> = answer
        .into_iter()
        .map(|r| match r {
            Ok(a) => RecordAnswer {
                ok: true,
                game: Some(hex::encode(a.game)),
                seq: Some(a.seq),
                hash: Some(hex::encode(a.hash)),
                cursor: Some(a.cursor),
                new: Some(a.new),
                error: None,
            },
            Err(err) => {
                let v = RecordAnswer {
                    ok: false,
                    game: None,
                    seq: None,
                    hash: None,
                    cursor: None,
                    new: None,
                    error: Some(err.answer_body()),
                };
                refused.push(err);
                v
            }
        })
        .collect();
    let accepted = results.len() - refused.len();
    let status = match refused.first() {
        None => StatusCode::OK,
        Some(first) if accepted == 0 && refused.iter().all(|e| e.status == first.status) => {
            first.status
        }
        Some(_) => StatusCode::MULTI_STATUS,
    };
    let body = SubmitAnswer {
        accepted: accepted as u64,
        refused: refused.len() as u64,
        results,
        error: refused
            .first()
            .filter(|_| accepted == 0)
            .map(ApiError::answer_body),
    };
    Ok((status, Json(body)).into_response())
}

/// Filters of `GET /games`.
#[derive(Debug, Deserialize)]
pub struct GamesQuery {
    tournament: Option<String>,
    round: Option<u32>,
    player: Option<String>,
}

/// A game's decoded events (kinds this build does not know are left out of
/// the projection, as `kifu replay` does) and whether the chain verifies.
pub(crate) fn load(app: &App, prefix: &str) -> Result<(Hash, Vec<Record>), ApiError> {
    let game = app.store.resolve(prefix)?;
    let records = app.store.read(&game, 0, None)?;
    Ok((game, records))
}

pub(crate) fn decoded(records: &[Record]) -> Vec<Event> {
    records.iter().filter_map(|r| r.decode().ok()).collect()
}

/// The summary of a game, cached by its head.
pub(crate) fn summary(app: &App, game: &Hash) -> Result<GameSummary, ApiError> {
    let head = app
        .store
        .head(game)?
        .ok_or_else(|| ApiError::from(kifu_store::StoreError::NoSuchGame(hex::encode(game))))?;
    if let Some((seq, v)) = app.summaries.lock().ok().and_then(|c| c.get(game).cloned()) {
        if seq == head.seq {
            return Ok(v);
        }
    }
    with_state(app, game, |summary, _| summary)
}

/// `f` of a game's summary and state at its head; the summary is cached.
/// From the game's kept projection when it is kept (a game being played):
/// no replay from the genesis. A game read once (a listing of every game,
/// a referee's overview) is replayed and not kept, and its signatures are
/// not checked again: the store holds only records checked as they were
/// appended (`kifu verify` checks a store whole), and a kept projection
/// checks its chain for the verdicts that need it.
pub(crate) fn with_state<T>(
    app: &App,
    game: &Hash,
    f: impl FnOnce(GameSummary, &GameState) -> T,
) -> Result<T, ApiError> {
    let head = app
        .store
        .head(game)?
        .ok_or_else(|| ApiError::from(kifu_store::StoreError::NoSuchGame(hex::encode(game))))?;
    let keep = |at: kifu_ledger::Head, v: &GameSummary| {
        if let Ok(mut c) = app.summaries.lock() {
            c.insert(*game, (at.seq, v.clone()));
        }
    };
    let doc = |at: kifu_ledger::Head| GameHead {
        seq: at.seq,
        hash: hex::encode(at.hash),
    };
    match app.projections.current_if_kept(&app.store, game)? {
        Some(projection) => {
            let p = projection.lock().unwrap_or_else(|p| p.into_inner());
            let at = p.head.unwrap_or(head);
            let v = document::game_summary_of(game, &p.state, &p.events, doc(at));
            keep(at, &v);
            Ok(f(v, &p.state))
        }
        None => {
            let records = app.store.read(game, 0, Some(head.seq))?;
            let events = decoded(&records);
            let state = GameState::replay(&events);
            let v = document::game_summary_of(game, &state, &events, doc(head));
            keep(head, &v);
            Ok(f(v, &state))
        }
    }
}

fn matches(v: &GameSummary, q: &GamesQuery) -> bool {
    let place = v.tournament.as_ref();
    if let Some(t) = &q.tournament {
        if place.map(|p| p.tournament.as_str()) != Some(t.as_str()) {
            return false;
        }
    }
    if let Some(r) = q.round {
        if place.map(|p| p.round) != Some(r) {
            return false;
        }
    }
    if let Some(p) = &q.player {
        let p = p.to_lowercase();
        let has = |name: &str| name.to_lowercase().contains(&p);
        if !has(&v.black) && !has(&v.white) {
            return false;
        }
    }
    true
}

/// `GET /games`: every game with where it is played, by whom, its phase and
/// result.
pub async fn games(
    State(app): State<Arc<App>>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Games>, ApiError> {
    blocking(move || {
        let mut out = Vec::new();
        for g in app.store.games()? {
            // The log operator's chain (key rotations) is not a game.
            if app
                .store
                .genesis(&g)?
                .title
                .starts_with(crate::tlog_api::OPERATOR_TITLE)
            {
                continue;
            }
            let v = summary(&app, &g)?;
            if matches(&v, &q) {
                out.push(v);
            }
        }
        Ok(Json(Games { games: out }))
    })
    .await
}

/// `GET /games/{id}`: one game's summary; the replay page for a browser
/// (a request that accepts HTML).
pub async fn game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if crate::page::wants_html(&headers) {
        return Ok(crate::page::game(app, id).await);
    }
    blocking(move || {
        let g = app.store.resolve(&id)?;
        Ok(Json(summary(&app, &g)?).into_response())
    })
    .await
}

/// `GET /games/{id}/head`.
pub async fn head(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Head>, ApiError> {
    blocking(move || {
        let g = app.store.resolve(&id)?;
        let h = app
            .store
            .head(&g)?
            .ok_or_else(|| ApiError::from(kifu_store::StoreError::NoSuchGame(id.clone())))?;
        Ok(Json(Head {
            game: hex::encode(g),
            seq: h.seq,
            hash: hex::encode(h.hash),
        }))
    })
    .await
}

/// Range of `GET /games/{id}/records`.
#[derive(Debug, Deserialize)]
pub struct RangeQuery {
    from: Option<u64>,
    to: Option<u64>,
    /// `bytes` for the stored records concatenated.
    format: Option<String>,
}

fn wants_bytes(headers: &HeaderMap, format: Option<&str>) -> bool {
    format == Some("bytes")
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.contains("application/octet-stream"))
            .unwrap_or(false)
}

fn octets(bytes: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/octet-stream")], bytes).into_response()
}

/// `GET /games/{id}/records?from=&to=`: JSON (as `kifu log --json`), or the
/// stored bytes concatenated with `format=bytes`.
pub async fn records(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<RangeQuery>,
) -> Result<Response, ApiError> {
    let bytes = wants_bytes(&headers, q.format.as_deref());
    blocking(move || {
        let g = app.store.resolve(&id)?;
        let from = q.from.unwrap_or(0);
        let limit = (app.limits.max_records_per_read as u64).max(1);
        let to = Some(q.to.unwrap_or(u64::MAX).min(from.saturating_add(limit - 1)));
        let records = app.store.read(&g, from, to)?;
        if bytes {
            let mut out = Vec::new();
            for r in &records {
                out.extend_from_slice(&r.to_stored());
            }
            return Ok(octets(out));
        }
        let list = records
            .iter()
            .map(|r| {
                document::record_document(&g, r).map_err(|u| {
                    ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "storage",
                        format!("a stored record of the game does not parse: {}", u.error),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Json(Records {
            game: hex::encode(g),
            records: list,
        })
        .into_response())
    })
    .await
}

/// `?at=`, `?forbidden=` and `?compact=` of `GET /games/{id}/state`.
#[derive(Debug, Deserialize)]
pub struct AtQuery {
    at: Option<u64>,
    /// `1`: add the points forbidden to Black (Renju).
    forbidden: Option<u8>,
    /// `1`: the stepping view ([`document::step_json`]) instead of the
    /// whole projection.
    compact: Option<u8>,
    /// `1`: the board device's view at the head ([`document::device_json`]).
    device: Option<u8>,
    /// With `device=1`: only the consequences of events after this one.
    since: Option<u64>,
}

/// `GET /games/{id}/state?at=SEQ`: `kifu replay --json`; with
/// `compact=1`, the stepping view of the replay page
/// ([`document::step_json`]); with `forbidden=1`, also `forbidden`, the
/// points where Black may not play on a Renju board (null for a Go game).
pub async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<AtQuery>,
) -> Result<Response, ApiError> {
    blocking(move || {
        // Every reader of a head after the first gets the first one's
        // answer (`verdicts::Answers`): after each record, both seats'
        // tablets, the referee's console and the followers read it.
        let query = format!(
            "at={:?}&forbidden={:?}&compact={:?}&device={:?}&since={:?}",
            q.at, q.forbidden, q.compact, q.device, q.since
        );
        let game = app.store.resolve(&id)?;
        if let Some(head) = app.store.head(&game)? {
            if let Some(bytes) = app.answers.get(&game, &query, &head.hash) {
                return Ok(json_bytes(bytes));
            }
        }
        let projection = app.projections.current(&app.store, &game)?;
        let p = projection.lock().unwrap_or_else(|p| p.into_inner());
        let (events, verified) = (&p.events, p.verified);
        let last = events.last().map(|e| e.seq).unwrap_or(0);
        let at = q.at.unwrap_or(last);
        if at > last {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "no_such_event",
                format!("the game has events 0 to {last}; there is no event {at}"),
            ));
        }
        if q.device.unwrap_or(0) != 0 && q.at.is_some_and(|a| a != last) {
            return Err(ApiError::bad_request(
                "bad_query",
                "device=1 is the game at its head: it takes no at=",
            ));
        }
        // The state at the head is the projection's own.
        let replayed;
        let state = if at == last {
            &p.state
        } else {
            replayed = kifu_game::GameState::at(events, at);
            &replayed
        };
        let forbidden = (q.forbidden.unwrap_or(0) != 0)
            .then(|| kifu_game::forbidden::forbidden_for_black(state));
        let v = if q.device.unwrap_or(0) != 0 {
            let mut d = document::device_view_of(&game, state, last, verified, q.since);
            d.forbidden = forbidden;
            serde_json::to_value(d)
        } else if q.compact.unwrap_or(0) != 0 {
            let mut s = document::step_document_of(&game, state, at, last, verified);
            s.forbidden = forbidden;
            serde_json::to_value(s)
        } else {
            let mut d = document::replay_document_of(&game, state, last, verified);
            d.forbidden = forbidden;
            serde_json::to_value(d)
        }
        .unwrap_or(Value::Null);
        let bytes = axum::body::Bytes::from(serde_json::to_vec(&v).map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })?);
        if let Some(head) = p.head {
            app.answers.keep(game, query, head.hash, bytes.clone());
        }
        Ok(json_bytes(bytes))
    })
    .await
}

/// A JSON answer already written.
fn json_bytes(bytes: axum::body::Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

/// `?after=` of `GET /games/{id}/explain`.
#[derive(Debug, Deserialize)]
pub struct ExplainQuery {
    /// Only the events after this one (a page following a game live asks
    /// for what it has not seen).
    after: Option<u64>,
}

/// `GET /games/{id}/explain`: `kifu explain --json`; with `after=SEQ`, its
/// `events` are only those after event SEQ.
pub async fn explain(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<ExplainQuery>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let game = app.store.resolve(&id)?;
        let projection = app.projections.current(&app.store, &game)?;
        let p = projection.lock().unwrap_or_else(|p| p.into_inner());
        let mut d = document::explain_document(&game, &p.events, p.verified);
        if let Some(after) = q.after {
            d.events.retain(|e| e.seq > after);
        }
        Ok(Json(serde_json::to_value(d).unwrap_or(Value::Null)))
    })
    .await
}

/// `GET /games/{id}/explain.txt`: the text `kifu explain` prints, as a
/// download.
pub async fn explain_text(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    blocking(move || {
        let game = app.store.resolve(&id)?;
        let projection = app.projections.current(&app.store, &game)?;
        let p = projection.lock().unwrap_or_else(|p| p.into_inner());
        let text = kifu_game::explanation::explanation_text(&game, &p.events, p.verified);
        let name = format!(
            "attachment; filename=\"{}-explain.txt\"",
            &hex::encode(game)[..12]
        );
        Ok((
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=utf-8".to_string(),
                ),
                (header::CONTENT_DISPOSITION, name),
            ],
            text,
        )
            .into_response())
    })
    .await
}

/// `GET /games/{id}/sgf`.
pub async fn sgf(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    blocking(move || {
        let (_, records) = load(&app, &id)?;
        let date = kifu_tournament::game_date(&records, |t| {
            crate::tournament_api::load(app.tournaments.data(), t)
                .ok()
                .and_then(|c| c.projection.time_zone.clone())
        });
        let text = kifu_game::sgf_export::records_to_sgf_on(&records, date).map_err(|e| {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "no_sgf", e.to_string())
        })?;
        Ok(([(header::CONTENT_TYPE, "application/x-go-sgf")], text).into_response())
    })
    .await
}

/// `GET /games/{id}/archive`: the game as an archive file with its
/// manifest (the game's head as served, so `kifu verify` of the file shows
/// that no event is missing from the end), like one game of `/archive`.
pub async fn game_archive(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let at_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    blocking(move || {
        let (game, records) = load(&app, &id)?;
        let heads: Vec<(Hash, kifu_ledger::Head)> = records
            .last()
            .and_then(|r| r.header().ok().map(|h| (h.seq, r.hash())))
            .map(|(seq, hash)| (game, kifu_ledger::Head { seq, hash }))
            .into_iter()
            .collect();
        let bytes = archive::write_with_manifest(&records, &heads, at_ms, None).map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })?;
        Ok(octets(bytes))
    })
    .await
}

/// `GET /archive`: every game as one archive file, with its manifest (the
/// bytes of `kifu export`), streamed from the store game by game
/// ([`crate::whole`]).
pub async fn store_archive(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let at_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let body = blocking(move || crate::whole::archive_body(app.store.clone(), at_ms)).await?;
    Ok(([(header::CONTENT_TYPE, "application/octet-stream")], body).into_response())
}

/// `GET /games/{id}/verify`: `kifu verify --json` of one game.
pub async fn game_verify(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let (_, records) = load(&app, &id)?;
        Ok(Json(document::verify_report_json(&verify_records(
            &records,
        ))))
    })
    .await
}

/// `GET /verify`'s query.
#[derive(Debug, Deserialize)]
pub struct VerifyQuery {
    /// `1`: NDJSON, progress lines then the report
    /// ([`crate::whole::verify_body`]).
    pub progress: Option<String>,
}

/// `GET /verify`: `kifu verify --json` of the whole store (its chains and
/// the evidence of forks), verified a run of games at a time
/// ([`crate::whole`]); with `?progress=1`, streamed with progress lines.
pub async fn store_verify(
    State(app): State<Arc<App>>,
    Query(q): Query<VerifyQuery>,
) -> Result<Response, ApiError> {
    if matches!(q.progress.as_deref(), Some("1" | "true")) {
        let body = crate::whole::verify_body(app.store.clone());
        return Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response());
    }
    blocking(move || {
        let report = crate::whole::verify_store(&app.store)?;
        Ok(Json(document::verify_report_json(&report)).into_response())
    })
    .await
}

/// `GET /healthz`: 200 `{"status": "ok", ...}`, or 503 with `"status":
/// "degraded"` while a duty beside serving (publishing to NATS) fails; each
/// duty's state is under its name.
pub async fn healthz(State(app): State<Arc<App>>) -> Response {
    let published = *app.ingest.published().borrow();
    let mut body = Health {
        status: HealthStatus::Ok,
        next_cursor: Some(published),
        checkpoints: Some(app.tlog.signer().is_some()),
        replica_of: app.replica.as_ref().map(|r| r.source.clone()),
        venue: app.replica.as_ref().and_then(|r| r.venue.clone()),
        nats: None,
        mirror: None,
    };
    let outlets = app.outlets.read().map(|o| o.clone()).unwrap_or_default();
    let mut ok = true;
    for o in outlets {
        let h = o.health();
        ok &= h.ok;
        // The duties the document names; another's state is in /metrics.
        match o.name() {
            "nats" => body.nats = Some(h.detail),
            "mirror" => body.mirror = Some(h.detail),
            _ => {}
        }
    }
    if ok {
        Json(body).into_response()
    } else {
        body.status = HealthStatus::Degraded;
        (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
    }
}

/// `GET /livez`: 200 `{"status": "alive"}` for as long as the server
/// answers (a liveness check that a failing duty does not fail).
pub async fn livez() -> Json<Health> {
    Json(Health {
        status: HealthStatus::Alive,
        next_cursor: None,
        checkpoints: None,
        replica_of: None,
        venue: None,
        nats: None,
        mirror: None,
    })
}

/// `GET /metrics`: Prometheus text.
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        app.metrics.render_with(Some(&app.limits))
            + &format!(
                "# HELP kifu_staged_records Records the batch writer has staged, not yet settled into their games' runs.\n# TYPE kifu_staged_records gauge\nkifu_staged_records {}\n",
                app.store.staged_records()
            )
            + &crate::tlog_api::render_metrics(&app)
            + &crate::feed::render_metrics(&app)
            + &app
                .outlets
                .read()
                .map(|o| o.iter().map(|o| o.metrics()).collect::<String>())
                .unwrap_or_default(),
    )
        .into_response()
}

/// Any other path.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such endpoint; see docs/API.md",
    )
}

/// Summaries of games, by the head seq they were computed at.
pub type SummaryCache = std::sync::Mutex<HashMap<Hash, (u64, GameSummary)>>;
