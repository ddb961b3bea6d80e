//! The replay page: plain HTML, CSS and JavaScript embedded in the binary
//! (`web/replay.*`, see [`crate::web`]), served at `/` (the games) and
//! `/games/{id}` (one game, any event). It reads only the JSON API and
//! computes no rule itself; it asks no other host for anything, so it works
//! in a room without internet.
//!
//! A page for a game the store does not hold, or for an event the game does
//! not have, answers 404 with the same page: the page says what is missing
//! (and, for an event past the end, shows the last one beside the notice).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::api::blocking;
use crate::App;

/// True when the request prefers HTML (a browser navigating).
pub fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.contains("text/html"))
        .unwrap_or(false)
}

/// The page (the script decides between the list and a game).
pub async fn page() -> Response {
    crate::web::serve("replay.html")
}

/// The page with `status`.
fn page_with(status: StatusCode) -> Response {
    let mut r = crate::web::serve("replay.html");
    *r.status_mut() = status;
    r
}

/// True when the store holds the game `id` and, when `seq` is given, the
/// game has that event.
async fn exists(app: Arc<App>, id: String, seq: Option<String>) -> bool {
    blocking(move || {
        let g = app.store.resolve(&id)?;
        let head = app.store.head(&g)?;
        Ok(match (head, seq) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(h), Some(s)) => s.parse::<u64>().is_ok_and(|s| s <= h.seq),
        })
    })
    .await
    .unwrap_or(false)
}

/// The page of the game `id`: 404 when the store does not hold it.
pub async fn game(app: Arc<App>, id: String) -> Response {
    if exists(app, id, None).await {
        page_with(StatusCode::OK)
    } else {
        page_with(StatusCode::NOT_FOUND)
    }
}

/// `GET /games/{id}/at/{seq}`: the page at one event; 404 when the game or
/// the event is not there.
pub async fn at(State(app): State<Arc<App>>, Path((id, seq)): Path<(String, String)>) -> Response {
    if exists(app, id, Some(seq)).await {
        page_with(StatusCode::OK)
    } else {
        page_with(StatusCode::NOT_FOUND)
    }
}

/// `GET /favicon.ico`: the pages' icon (an SVG), for browsers that ask
/// for it whatever the page names.
pub async fn favicon() -> Response {
    crate::web::serve("favicon.svg").into_response()
}

/// The board device's page (`/play`, `/play/{game}`): the script decides
/// between asking for a seat and the game.
pub async fn board() -> Response {
    crate::web::serve("board.html")
}
