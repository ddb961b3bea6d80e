//! The hall's screen: read-only public pages and JSON of every tournament
//! kept beside the store (`<data>/tournaments/`, found by
//! `kifu_store::tournaments` as the command line finds them): a round's
//! pairings, the results grid and the standings with every value taken
//! apart. The documents are `kifu_tournament::hall`'s; nothing here
//! computes a score. A page follows `/tournaments/{t}/events`, which says
//! when the tournament or the store changed, and reloads its document.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kifu_store::tournaments::{self, FindError};
use kifu_tournament::{board_game, hall, Chain, TournamentError};
use serde::Deserialize;

use crate::api::blocking;
use crate::error::ApiError;
use crate::App;

/// How often the event stream looks for a change.
const LOOK_EVERY: Duration = Duration::from_millis(300);
/// A comment line this often keeps proxies from closing the stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The pages and documents (the event stream is [`events`], outside the
/// request time limit).
pub fn routes() -> crate::routes::Routes {
    crate::routes::Routes::new()
        .get("/hall", page)
        .get("/hall/{t}", page)
        .get("/tournaments", list)
        .post("/tournaments", crate::tournament_write::create)
        .get("/tournaments/{t}", one)
        .get("/tournaments/{t}/pairings", pairings)
        .get("/tournaments/{t}/crosstable", cross_table)
        .get("/tournaments/{t}/standings", standings)
        .get("/tournaments/{t}/records", crate::tournament_write::records)
        .post("/tournaments/{t}/records", crate::tournament_write::submit)
        .get("/tournaments/{t}/export", crate::tournament_write::export)
}

/// `?round=N`: the round of a document (default: the last round paired).
#[derive(Debug, Deserialize)]
pub struct RoundQuery {
    /// The round, from 1.
    pub round: Option<u32>,
}

/// The hall's page (the script reads the tournament from the address).
async fn page() -> Response {
    crate::web::serve("hall.html")
}

fn data(app: &App) -> PathBuf {
    app.store.path().to_path_buf()
}

fn tournament_error(e: TournamentError) -> ApiError {
    match e {
        TournamentError::BadRound { .. } => ApiError::bad_request("bad_round", e.to_string()),
        _ => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tournament_unreadable",
            e.to_string(),
        ),
    }
}

/// The tournament `spec` names (an id prefix or a short name), verified.
pub(crate) fn load(data: &Path, spec: &str) -> Result<Arc<Chain>, ApiError> {
    let (path, records) = tournaments::find(data, spec).map_err(|e| match e {
        FindError::NotFound { .. } | FindError::NoTournaments(_) => {
            ApiError::new(StatusCode::NOT_FOUND, "no_tournament", e.to_string())
        }
        FindError::Ambiguous(_) => ApiError::bad_request("ambiguous_tournament", e.to_string()),
        FindError::Read { .. } => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tournament_unreadable",
            e.to_string(),
        ),
    })?;
    crate::chains::open(&path, records).map_err(|e| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tournament_does_not_verify",
            format!(
                "{}: {e} (`kifu tournament verify` says more)",
                path.file_name().unwrap_or_default().to_string_lossy()
            ),
        )
    })
}

/// `GET /tournaments`: every tournament that verifies, by short name.
async fn list(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let data = data(&app);
    let all = blocking(move || {
        let mut out = Vec::new();
        for p in tournaments::files(&data).unwrap_or_default() {
            let Ok(records) = tournaments::read(&p) else {
                continue;
            };
            if let Ok(chain) = crate::chains::open(&p, records) {
                out.push(hall::summary(&chain));
            }
        }
        out.sort_by(|a, b| a.short_name.cmp(&b.short_name));
        Ok(out)
    })
    .await?;
    Ok(Json(crate::answers::Tournaments { tournaments: all }).into_response())
}

/// Runs `f` on the tournament `t` off the async workers.
async fn with_chain<T: serde::Serialize + Send + 'static>(
    app: &App,
    t: String,
    f: impl FnOnce(&Chain) -> Result<T, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    let data = data(app);
    let doc = blocking(move || f(&*load(&data, &t)?)).await?;
    Ok(Json(doc).into_response())
}

/// `GET /tournaments/{t}`.
async fn one(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
) -> Result<Response, ApiError> {
    with_chain(&app, t, |c| Ok(hall::summary(c))).await
}

/// `GET /tournaments/{t}/pairings?round=N`: the tournament's results, and
/// on the boards it has none for yet, the result the game's own record in
/// the store states (`from_game_record`), so the hall sees a game end.
async fn pairings(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
    Query(q): Query<RoundQuery>,
) -> Result<Response, ApiError> {
    let kept = app.clone();
    with_chain(&app, t, move |c| {
        let mut p = hall::pairings(c, q.round).map_err(tournament_error)?;
        if p.boards.iter().any(|b| b.result.is_empty()) {
            let results = game_results(&kept, c, p.round)?;
            hall::with_game_results(&mut p, &results);
        }
        Ok(p)
    })
    .await
}

/// The results by seat of the store's games played on `round`'s boards.
fn game_results(
    app: &App,
    chain: &Chain,
    round: u32,
) -> Result<BTreeMap<(u32, u32), kifu_ledger::GameResult>, ApiError> {
    let store = &app.store;
    let mut out = BTreeMap::new();
    for game in store.games()? {
        let genesis = store.genesis(&game)?;
        let creator = store.creator(&game)?;
        // Only a board's game shows its result; a game that merely names
        // the board is a claim (`kifu_tournament::board_game`).
        let Some(board) = board_game::board_of(chain, &game, &genesis, &creator) else {
            continue;
        };
        if board.0 != round {
            continue;
        }
        // The game's state as kept current record by record (`verdicts`),
        // not replayed from its genesis at each look of a hall screen.
        let kept = app.projections.current(store, &game)?;
        let kept = kept.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = kept.state.result_by_seat() {
            out.insert(board, r);
        }
    }
    Ok(out)
}

/// `GET /tournaments/{t}/crosstable?round=N`.
async fn cross_table(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
    Query(q): Query<RoundQuery>,
) -> Result<Response, ApiError> {
    with_chain(&app, t, move |c| {
        hall::cross_table(c, q.round).map_err(tournament_error)
    })
    .await
}

/// `GET /tournaments/{t}/standings?round=N`.
async fn standings(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
    Query(q): Query<RoundQuery>,
) -> Result<Response, ApiError> {
    with_chain(&app, t, move |c| {
        hall::standings_doc(c, q.round).map_err(tournament_error)
    })
    .await
}

/// What a follower compares: the tournament file's length and time of
/// change, and the store's published cursor.
fn stamp(file: &Path, published: u64) -> (u64, Option<SystemTime>, u64) {
    let meta = std::fs::metadata(file).ok();
    (
        meta.as_ref().map(|m| m.len()).unwrap_or(0),
        meta.and_then(|m| m.modified().ok()),
        published,
    )
}

/// `GET /tournaments/{t}/events`: Server-Sent Events, one `change` event
/// (its data is an opaque version) when the stream starts and whenever the
/// tournament's file or the store changes, so a page reloads its document;
/// a comment line every 15 s; the stream ends when the server stops.
pub async fn events(
    State(app): State<Arc<App>>,
    UrlPath(t): UrlPath<String>,
) -> Result<Response, ApiError> {
    let data = data(&app);
    let path = blocking(move || {
        let chain = load(&data, &t)?;
        Ok(tournaments::file_of(&data, &chain.id()))
    })
    .await?;
    struct Follow {
        app: Arc<App>,
        path: PathBuf,
        last: Option<(u64, Option<SystemTime>, u64)>,
        quiet: Duration,
    }
    let state = Follow {
        app,
        path,
        last: None,
        quiet: Duration::ZERO,
    };
    let s = futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if *st.app.shutdown.borrow() {
                return None;
            }
            let published = *st.app.ingest.published().borrow();
            let path = st.path.clone();
            let now = tokio::task::spawn_blocking(move || stamp(&path, published))
                .await
                .ok()?;
            if st.last != Some(now) {
                st.last = Some(now);
                st.quiet = Duration::ZERO;
                let frame = format!("event: change\ndata: {}\n\n", now.0);
                return Some((Ok::<Bytes, Infallible>(Bytes::from(frame)), st));
            }
            if st.quiet >= KEEP_ALIVE {
                st.quiet = Duration::ZERO;
                return Some((Ok(Bytes::from_static(b":\n\n")), st));
            }
            let mut shutdown = st.app.shutdown.clone();
            tokio::select! {
                _ = tokio::time::sleep(LOOK_EVERY) => st.quiet += LOOK_EVERY,
                _ = shutdown.changed() => return None,
            }
        }
    });
    Ok((
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(s),
    )
        .into_response())
}
