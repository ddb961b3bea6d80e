//! Tournament chains served: a director's signed records are submitted
//! here, checked exactly as the command line checks them before signing
//! (`kifu_tournament::Chain::append_record`: the link to the head, the
//! signature, the signer's role, and the fact against the tournament so
//! far), and kept by the data directory's one writer
//! (`kifu_store::tournaments::Keeper`). A submission is written whole or
//! not at all; a refusal says why in words.
//!
//! - `POST /tournaments`: a new tournament's genesis (and any facts after
//!   it), under the server's creation policy ([`crate::creation`]);
//! - `POST /tournaments/{t}/records`: facts for an existing tournament;
//! - `GET /tournaments/{t}/records`: the chain, archive framing (the bytes
//!   of its file);
//! - `GET /tournaments/{t}/export?format=h9|aga`: the results file.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kifu_ledger::{archive, LedgerError, Record};
use kifu_store::tournaments::CreateError;
use kifu_tournament::entry::ResultsOptions;
use kifu_tournament::tables::{self, Format, UnknownFormat};
use kifu_tournament::{Chain, ChainError};
use serde::Deserialize;

use crate::api::blocking;
use crate::error::ApiError;
use crate::tournament_api::load;
use crate::App;

/// The records of a request body: stored records one after another
/// (`application/octet-stream`), or JSON as `POST /records` takes it.
fn records_of(app: &App, headers: &HeaderMap, body: &[u8]) -> Result<Vec<Record>, ApiError> {
    let max = app.limits.max_records_per_request;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let records = if json {
        crate::wire::records_from_json(body, max)?
    } else {
        crate::wire::records_from_bytes(body, max)?
    };
    if records.is_empty() {
        return Err(ApiError::bad_request(
            "empty",
            "the request holds no record",
        ));
    }
    Ok(records)
}

/// A refused fact as an answer: `KIND refused: WHY; nothing written`
/// (`#N` when it is not the first of the submission).
fn refusal(index: usize, record: &Record, e: ChainError) -> ApiError {
    let kind = record
        .decode()
        .map(|e| e.body.kind_name())
        .unwrap_or("record");
    let (status, code) = match &e {
        ChainError::Ledger(LedgerError::Refused(_)) => (StatusCode::FORBIDDEN, "role_refused"),
        ChainError::Ledger(LedgerError::Conflict { .. }) => (StatusCode::CONFLICT, "conflict"),
        ChainError::AlreadyRecorded { .. } => (StatusCode::CONFLICT, "already_recorded"),
        ChainError::Ledger(LedgerError::BadSignature) => {
            (StatusCode::UNPROCESSABLE_ENTITY, "bad_signature")
        }
        ChainError::Ledger(_) => (StatusCode::UNPROCESSABLE_ENTITY, "malformed"),
        _ => (StatusCode::UNPROCESSABLE_ENTITY, "tournament_refused"),
    };
    let which = if index == 0 {
        kind.to_string()
    } else {
        format!("{kind} #{}", index + 1)
    };
    ApiError::new(
        status,
        code,
        format!("{which} refused: {e}; nothing written"),
    )
}

/// Appends `records` to `chain` in order, all or nothing; a record the
/// chain already holds at its place (a retry after a lost answer) is
/// counted and skipped. Returns how many were new.
fn append_all(chain: &mut Chain, records: Vec<Record>) -> Result<(usize, usize), ApiError> {
    let mut new = 0;
    let mut present = 0;
    for (i, r) in records.into_iter().enumerate() {
        if let Ok(h) = r.header() {
            let held = usize::try_from(h.seq)
                .ok()
                .and_then(|s| chain.records.get(s));
            if held.is_some_and(|x| x.hash() == r.hash()) {
                present += 1;
                continue;
            }
        }
        let copy = r.clone();
        chain.append_record(r).map_err(|e| refusal(i, &copy, e))?;
        new += 1;
    }
    Ok((new, present))
}

fn answer(chain: &Chain, status: StatusCode, new: usize, present: usize) -> Response {
    let head = chain.head();
    let g = &chain.projection.genesis;
    (
        status,
        Json(crate::answers::TournamentWrite {
            tournament: hex::encode(chain.id()),
            short_name: g.short_name.clone(),
            seq: head.seq,
            hash: hex::encode(head.hash),
            written: new as u64,
            already_present: present as u64,
        }),
    )
        .into_response()
}

/// `POST /tournaments`: a new tournament. The first record is its genesis
/// (`tournament_created`, signed by the director it names), checked against
/// the server's creation policy; the records after it are facts, checked
/// in order. 201 with the tournament's id and head.
pub async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let mut records = records_of(&app, &headers, &body)?;
    app.creation.check_as(&records[0], "tournaments")?;
    let genesis = records.remove(0);
    blocking(move || {
        let mut chain = Chain::open(vec![genesis.clone()]).map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "not_a_tournament_genesis",
                format!("the first record is not a tournament's genesis: {e}; nothing written"),
            )
        })?;
        let (new, _) = append_all(&mut chain, records)?;
        let g = &chain.projection.genesis;
        match app
            .tournaments
            .create(&chain.id(), &g.short_name, &chain.records)
        {
            Ok(_) => Ok(answer(&chain, StatusCode::CREATED, new + 1, 0)),
            Err(CreateError::Exists(_)) => {
                // A retry of the same creation is answered as written.
                let held = load(app.tournaments.data(), &hex::encode(chain.id()))?;
                if held.records.starts_with(&chain.records) {
                    Ok(answer(&held, StatusCode::OK, 0, chain.records.len()))
                } else {
                    Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "conflict",
                        format!(
                            "the tournament {} exists with other facts after its genesis; submit them to /tournaments/{}/records; nothing written",
                            hex::encode(chain.id()),
                            hex::encode(chain.id())
                        ),
                    ))
                }
            }
            Err(e @ CreateError::ShortNameTaken { .. }) => Err(ApiError::new(
                StatusCode::CONFLICT,
                "short_name_taken",
                format!("{e}; nothing written"),
            )),
            Err(CreateError::Store(e)) => Err(ApiError::from(e)),
        }
    })
    .await
}

/// `POST /tournaments/{t}/records`: facts for tournament `t` (id, unique id
/// prefix or short name), each linked to the one before, checked in order
/// and written all together or not at all.
pub async fn submit(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let records = records_of(&app, &headers, &body)?;
    blocking(move || {
        let id = load(app.tournaments.data(), &t)?.id();
        let path = kifu_store::tournaments::file_of(app.tournaments.data(), &id);
        app.tournaments.update(&id, |held| {
            let mut chain = crate::chains::open(&path, held)
                .map(Arc::unwrap_or_clone)
                .map_err(|e| {
                    ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        "tournament_does_not_verify",
                        e.to_string(),
                    )
                })?;
            let (new, present) = append_all(&mut chain, records)?;
            let status = if new > 0 {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            let reply = answer(&chain, status, new, present);
            // Written next, under the same lock: the next read of the file
            // finds these records verified.
            let records = chain.records.clone();
            crate::chains::remember(&path, chain);
            Ok::<_, ApiError>((records, reply))
        })
    })
    .await
}

/// `GET /tournaments/{t}/records`: the verified chain in the archive
/// framing of `docs/FORMAT.md` (the bytes of its file).
pub async fn records(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
) -> Result<Response, ApiError> {
    let bytes = blocking(move || {
        let chain = load(app.tournaments.data(), &t)?;
        Ok(archive::write(&chain.records))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/octet-stream")], bytes).into_response())
}

/// `?format=h9|aga|csv|json&round=N&drop_by_default=true&egf_class=A&adjusted_time=M`.
#[derive(Debug, Deserialize)]
pub struct ExportQuery {
    /// `h9`, `aga`, `csv` or `json`.
    pub format: String,
    /// The last round counted (default: the last round with pairings).
    pub round: Option<u32>,
    /// In the `.h9`, games decided by default written `0=`.
    #[serde(default)]
    pub drop_by_default: bool,
    /// In the `.h9`, this EGF class.
    pub egf_class: Option<String>,
    /// In the `.h9`, this adjusted time in minutes.
    pub adjusted_time: Option<u32>,
}

/// `GET /tournaments/{t}/export?format=h9|aga|csv|json`: the results file,
/// as `kifu tournament export` writes it (`kifu_tournament::tables::export`),
/// to download.
pub async fn export(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiError> {
    let (name, kind, text) = blocking(move || {
        let chain = load(app.tournaments.data(), &t)?;
        let o = ResultsOptions {
            after_round: q.round,
            drop_by_default: q.drop_by_default,
            egf_class: q.egf_class.clone(),
            adjusted_time: q.adjusted_time,
        };
        let format: Format = q
            .format
            .parse()
            .map_err(|e: UnknownFormat| ApiError::bad_request("bad_format", e.to_string()))?;
        let text = tables::export(&chain, format, &o).map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "no_results_file",
                e.to_string(),
            )
        })?;
        Ok((tables::file_name(&chain, format), format.media_type(), text))
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response())
}
