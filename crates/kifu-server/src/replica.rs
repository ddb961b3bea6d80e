//! A read replica: a server whose store is built from a NATS JetStream
//! stream (by `kifu-nats`'s mirror, which verifies every record), not from
//! appends. It serves everything a reader asks (the feed, pages, games,
//! projections, bundles, proofs) for what it holds, and refuses every
//! write with `421 Misdirected Request`, naming the venue's server when it
//! is known: a record is appended where its game lives, never here.
//!
//! The replica's feed has cursors of its own (its store's order, which is
//! the stream's); each line also carries `venue_cursor`, the record's
//! cursor at the server that published it, when the mirror noted it.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::watch;

use crate::error::ApiError;

/// What makes a server a read replica.
#[derive(Debug, Clone)]
pub struct Replica {
    /// The stream it is built from, as said to readers
    /// (`nats://HOST:PORT`, stream name).
    pub source: String,
    /// The venue server's URL, where writes go, when known.
    pub venue: Option<String>,
    /// The store's next feed cursor as the mirror stores batches (every
    /// record below it is durable): the replica's feed follows it.
    pub stored: watch::Receiver<u64>,
}

impl Replica {
    /// The answer to a write: 421, with the venue's URL in the message, in
    /// `venue` and in `Location` when it is known.
    pub fn refusal(&self) -> Response {
        let message = match &self.venue {
            Some(v) => format!(
                "this server is a read replica of {}; it takes no writes: send them to the venue's server at {v}",
                self.source
            ),
            None => format!(
                "this server is a read replica of {}; it takes no writes: send them to the venue's server",
                self.source
            ),
        };
        let mut error = ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "read_only_replica",
            message,
        )
        .answer_body();
        error.venue = self.venue.clone();
        let mut r = (
            StatusCode::MISDIRECTED_REQUEST,
            axum::Json(crate::answers::ErrorAnswer { error }),
        )
            .into_response();
        if let Some(v) = self
            .venue
            .as_deref()
            .and_then(|v| HeaderValue::from_str(v).ok())
        {
            r.headers_mut().insert(header::LOCATION, v);
        }
        r
    }
}
