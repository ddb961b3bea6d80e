//! The JSON documents of the API that are Rust types: each derives its
//! JSON Schema (`schemars`), and [`crate::schemas`] writes those schemas to
//! `docs/schema/` and puts them in the OpenAPI document. A field added here
//! is in the schema, the document and a generated client at once.
//!
//! Every object is closed (`deny_unknown_fields` gives
//! `additionalProperties: false`), and a field that is always present is
//! required even when it may be null: a client generated from the schema
//! is complete.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A lower-case hex BLAKE3 hash (a game id, an event hash): 64 digits.
pub const HEX64: &str = "^[0-9a-f]{64}$";

/// Every error answer of the HTTP API: a stable `code` a program can test
/// and a `message` for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorAnswer {
    /// The refusal.
    pub error: ErrorBody,
}

/// What was refused, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// A stable code a program can test (the tables of docs/API.md).
    #[schemars(pattern("^[a-z_]+$"))]
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
    /// The HTTP status, repeated.
    #[schemars(range(min = 400, max = 599))]
    pub status: u16,
    /// A read replica's refusal of a write (`read_only_replica`, 421): the
    /// venue's server, where writes go, when the replica knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
}

/// The answer to `POST /records`: each record's own answer, in order. The
/// status is 200 when every record was accepted, the refusal's when every
/// record was refused for one reason (with `error` the first refusal), 207
/// otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitAnswer {
    /// Records written, or already stored.
    pub accepted: u64,
    /// Records refused.
    pub refused: u64,
    /// One per record, in order: `ok` with the record's place, or the
    /// refusal.
    pub results: Vec<RecordAnswer>,
    /// When every record was refused: the first refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

/// One record's answer: its place in its game and in the feed, or why it
/// was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordAnswer {
    /// True when the record is stored (now or before).
    pub ok: bool,
    /// The record's game (when stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(HEX64))]
    pub game: Option<String>,
    /// The record's place in its game (when stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// The record's hash (when stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(HEX64))]
    pub hash: Option<String>,
    /// The record's place in the feed (when stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<u64>,
    /// False when the same record was already stored (a retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new: Option<bool>,
    /// The refusal (when refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

/// `GET /games/{id}/head`: what a client signs its next event against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Head {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The last event's place.
    pub seq: u64,
    /// The last event's hash: the next event's `prev`.
    #[schemars(pattern(HEX64))]
    pub hash: String,
}
