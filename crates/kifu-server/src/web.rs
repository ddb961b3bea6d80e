//! The files the browser pages are made of: HTML, CSS and plain ES modules
//! kept in `crates/kifu-server/web/` and embedded in the binary, served at
//! `/web/{file}`. No bundler, no build step, nothing from another host: a
//! page works in a room without internet.
//!
//! A file is added to the pages by adding one line to [`FILES`].

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};

/// One embedded file: its name under `/web/` and its text.
#[derive(Debug, Clone, Copy)]
pub struct WebFile {
    /// The name under `/web/` (no folders).
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! web_files {
    ($($name:literal),* $(,)?) => {
        /// Every embedded file, by name.
        pub const FILES: &[WebFile] = &[
            $(WebFile { name: $name, text: include_str!(concat!("../web/", $name)) },)*
        ];
    };
}

// One file a line (kept so by hand: merging lists is easier that way).
#[rustfmt::skip]
web_files![
    "replay.html",
    "replay.css",
    "replay.js",
    "feed.js",
    "feed-worker.js",
    "feed-hub.js",
    "live.js",
    "keystore.js",
    "favicon.svg",
    "blake3.js",
    "record.js",
    "board.html",
    "board.css",
    "board.js",
    "board-clock.js",
    "board-go.js",
    "follow.js",
    "hall.html",
    "hall.css",
    "hall.js",
    "referee.html",
    "referee.css",
    "referee.js",
    "director.html",
    "director.css",
    "director.js",
    "sw.js",
    "pairdraw.js",
    "page.js",
    "db.js",
];

/// The board page's service worker (`web/sw.js`), allowed the scope `/play`.
pub const SERVICE_WORKER: &str = "sw.js";

/// The embedded file named `name`, if there is one.
pub fn file(name: &str) -> Option<&'static WebFile> {
    FILES.iter().find(|f| f.name == name)
}

/// The `Content-Type` of a file, from its extension.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        _ => "text/plain; charset=utf-8",
    }
}

/// Answers with the embedded file `name` (`no-cache`: the browser asks
/// again, so a new binary's pages are never mixed with an old one's).
pub fn serve(name: &str) -> Response {
    match file(name) {
        Some(f) => {
            let mut r = (
                [
                    (header::CONTENT_TYPE, content_type(f.name)),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                f.text,
            )
                .into_response();
            if f.name == SERVICE_WORKER {
                // The board's service worker keeps `/play`, outside `/web/`.
                r.headers_mut().insert(
                    header::HeaderName::from_static("service-worker-allowed"),
                    header::HeaderValue::from_static("/play"),
                );
            }
            r
        }
        None => crate::ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            "not_found",
            format!("no page file named {name:?}"),
        )
        .into_response(),
    }
}

/// Compression of the answers (gzip or Brotli, as the client accepts):
/// JSON, pages and scripts shrink several times over a venue's network.
/// Left as they are: answers under 1 KiB, images, archives (signatures
/// and hashes do not shrink) and anything streamed a line or an event at a
/// time (Server-Sent Events, NDJSON), which must reach the reader when
/// written, not when a compressor's block fills.
pub fn compression() -> tower_http::compression::CompressionLayer<impl Predicate> {
    let predicate = SizeAbove::new(1024)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(NotForContentType::GRPC)
        .and(NotForContentType::const_new("application/x-ndjson"))
        .and(NotForContentType::const_new("application/octet-stream"));
    tower_http::compression::CompressionLayer::new().compress_when(predicate)
}

/// `GET /web/{file}`.
pub async fn get(Path(name): Path<String>) -> Response {
    serve(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_has_a_known_type_and_text() {
        for f in FILES {
            assert!(!f.text.is_empty(), "{} is empty", f.name);
            assert_ne!(
                content_type(f.name),
                "text/plain; charset=utf-8",
                "{}",
                f.name
            );
        }
        assert!(file("../lib.rs").is_none());
        assert!(file("nothing.js").is_none());
    }
}
