//! Security headers on every answer.
//!
//! - `Content-Security-Policy`: the pages load scripts, styles, images and
//!   data from the server itself and from nowhere else; no inline script or
//!   style, no `eval`, no plug-ins, no framing by another site, no `<base>`
//!   rewriting, forms post only to the server.
//! - `X-Content-Type-Options: nosniff`: a browser takes every answer for the
//!   type it declares (a record's bytes are never run as a script).
//! - `Referrer-Policy: no-referrer`: a game's address is not sent to
//!   another site a page links to.
//! - `X-Frame-Options: DENY`: the same as `frame-ancestors 'none'`, for
//!   older browsers.
//! - `Cache-Control: no-store` on every answer that does not set its own:
//!   games, heads, feeds and metrics change, and a cache must not keep them.
//!   The pages' files say `no-cache` (kept, but asked again each time).
//! - `Kifu-Api-Version`: the version of the API ([`crate::openapi::API_VERSION`]).

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The Content-Security-Policy of every answer.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers every answer carries (name in lower case, value).
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
];

/// The middleware: adds [`SECURITY_HEADERS`], and `Cache-Control:
/// no-store` where the answer sets no caching of its own.
pub async fn secure(req: Request, next: Next) -> Response {
    let mut r = next.run(req).await;
    let h = r.headers_mut();
    for (k, v) in SECURITY_HEADERS {
        h.insert(HeaderName::from_static(k), HeaderValue::from_static(v));
    }
    h.insert(
        HeaderName::from_static(crate::openapi::VERSION_HEADER),
        HeaderValue::from_static(crate::openapi::API_VERSION),
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    r
}
