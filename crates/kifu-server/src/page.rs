//! The replay page: plain HTML, CSS and JavaScript embedded in the binary
//! (`web/replay.*`, see [`crate::web`]), served at `/` (the games) and
//! `/games/{id}` (one game, any event). It reads only the JSON API and
//! computes no rule itself; it asks no other host for anything, so it works
//! in a room without internet.

use axum::http::{header, HeaderMap};
use axum::response::Response;

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

/// The board device's page (`/play`, `/play/{game}`): the script decides
/// between asking for a seat and the game.
pub async fn board() -> Response {
    crate::web::serve("board.html")
}
