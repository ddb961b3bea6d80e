//! The JSON documents of the API that are Rust types: each derives its
//! JSON Schema (`schemars`), and [`crate::schemas`] writes those schemas to
//! `docs/schema/` and puts them in the OpenAPI document. A field added here
//! is in the schema, the document and a generated client at once.
//!
//! Every object is closed (`deny_unknown_fields` gives
//! `additionalProperties: false`), and a field that is always present is
//! required even when it may be null: a client generated from the schema
//! is complete.

use kifu_game::document::{GameSummary, RecordDocument};
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

/// `GET /games/{id}/records`: a game's records (`from`, `to`, at most
/// `--max-records`), each as `kifu log --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Records {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The records, in order.
    pub records: Vec<RecordDocument>,
}

pub use kifu_game::document::{FeedLine, UnreadableLine};

/// One line of the feed with `form=compact`: the record's place and its
/// stored bytes, without the decoded body (a follower that verifies decodes
/// the bytes itself anyway).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompactFeedLine {
    /// The record's place in the store's global order.
    pub cursor: u64,
    /// The game.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The record's place in the game.
    pub seq: u64,
    /// The record's hash.
    #[schemars(pattern(HEX64))]
    pub hash: String,
    /// The stored record (`u32 LE length || event_bytes || signature`,
    /// docs/FORMAT.md section 7) in base64.
    pub record: String,
    /// On a read replica: the record's cursor at the venue's server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue_cursor: Option<u64>,
}

/// `GET /livez` and `GET /healthz`: the server's health. `/livez` answers
/// `{"status": "alive"}` whenever the server answers; `/healthz` answers
/// `ok` (200) when the server and every duty beside it work, `degraded`
/// (503) while one fails, with each duty's state under its name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Health {
    /// `alive` (`/livez`), `ok` or `degraded` (`/healthz`).
    pub status: HealthStatus,
    /// The cursor the next stored record will get (`/healthz`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<u64>,
    /// Whether the server signs the transparency log's checkpoints
    /// (`GET /checkpoint`, appeal bundles) (`/healthz`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<bool>,
    /// On a read replica: the stream it is built from (`nats://HOST:PORT`,
    /// stream name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica_of: Option<String>,
    /// On a read replica: the venue's server, where writes go, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    /// The NATS publisher (`kifu serve --nats`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<NatsHealth>")]
    pub nats: Option<serde_json::Value>,
    /// A read replica's mirror of the stream (`kifu serve --replica-of`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<MirrorHealth>")]
    pub mirror: Option<serde_json::Value>,
}

/// The server's state in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    /// The server answers (`/livez`).
    Alive,
    /// The server and every duty beside it work.
    Ok,
    /// A duty beside serving fails; the server still takes appends.
    Degraded,
}

/// The NATS publisher's state under `/healthz`'s `nats`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NatsHealth {
    /// False while publication fails.
    pub publishing: bool,
    /// The NATS server.
    pub url: String,
    /// The JetStream stream.
    pub stream: String,
    /// The first record not yet acknowledged by the stream.
    pub next_cursor: u64,
    /// Records stored and not yet acknowledged by the stream.
    pub backlog: u64,
    /// Failed tries since the start.
    pub failures: u64,
    /// The last failure, while it lasts.
    pub error: Option<String>,
}

/// A read replica's mirror under `/healthz`'s `mirror`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MirrorHealth {
    /// False while reading the stream fails.
    pub mirroring: bool,
    /// The NATS server.
    pub url: String,
    /// The JetStream stream.
    pub stream: String,
    /// The durable consumer's name.
    pub durable: String,
    /// Records the mirror stored.
    pub written: u64,
    /// Records the mirror found already stored.
    pub already_present: u64,
    /// Records the mirror refused (they do not verify).
    pub refused: u64,
    /// Why the last refused record was refused.
    pub last_refusal: Option<String>,
    /// The stream sequence of the last message stored and acknowledged.
    pub acked_stream_seq: u64,
    /// Failed tries since the start.
    pub failures: u64,
    /// The last failure, while it lasts.
    pub error: Option<String>,
}

/// `GET /games[?tournament=&round=&player=]`: every game with where it is
/// played, by whom, its phase and its result.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Games {
    /// The games, each as `GET /games/{id}` answers it.
    pub games: Vec<GameSummary>,
}

pub use kifu_archive::printed::CheckpointAnswer;

/// `GET /proof/inclusion`: the proof that one event is in the log's tree,
/// as `kifu prove inclusion` prints it (docs/TRANSPARENCY.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InclusionProofAnswer {
    /// The event's game.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The event's place in its game.
    pub seq: u64,
    /// The event's leaf index in the log.
    pub leaf_index: u64,
    /// The tree's size the proof is against.
    pub tree_size: u64,
    /// The proof's hashes, base64, from the leaf up.
    pub hashes: Vec<String>,
    /// The leaf's bytes, hex.
    pub leaf: String,
    /// The leaf's hash, base64.
    pub leaf_hash: String,
    /// The root of the tree of `tree_size` leaves, base64.
    pub root: String,
}

/// `GET /proof/consistency`: the proof that the tree of `new_size` leaves
/// extends the tree of `old_size`, as `kifu prove consistency` prints it
/// (docs/TRANSPARENCY.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsistencyProofAnswer {
    /// The older size.
    pub old_size: u64,
    /// The newer size.
    pub new_size: u64,
    /// The proof's hashes, base64.
    pub hashes: Vec<String>,
    /// The older tree's root, base64.
    pub old_root: String,
    /// The newer tree's root, base64.
    pub new_root: String,
}

/// `GET /proof/map`: a game's entry in the map of game heads, or the proof
/// that the log never saw it, as `kifu prove map` prints it
/// (docs/TRANSPARENCY.md section 10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapProofAnswer {
    /// The game asked about.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The tree size of the checkpoint whose map root is proved against.
    pub tree_size: u64,
    /// The map's root at that size, base64.
    pub map_root: String,
    /// The 80-byte map leaf in hex, or null for a game the log never saw
    /// (the entry at the end of the path is another game's, or none).
    pub leaf: Option<String>,
    /// The siblings along the path, base64, nearest first.
    pub siblings: Vec<String>,
}

/// `POST /tournaments`, `POST /tournaments/{t}/records`: the answer to a
/// tournament chain write: the chain's head after it, records written and
/// records already there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentWrite {
    /// The tournament's id.
    #[schemars(pattern(HEX64))]
    pub tournament: String,
    /// Its short name.
    pub short_name: String,
    /// The chain's head after the write.
    pub seq: u64,
    /// The head's hash.
    #[schemars(pattern(HEX64))]
    pub hash: String,
    /// Records written.
    pub written: u64,
    /// Records the chain already held at their place (a retry).
    pub already_present: u64,
}

/// `GET /tournaments`, `GET /director/tournaments?key=HEX`: tournaments by
/// short name, each as `GET /tournaments/{t}` answers it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tournaments {
    /// The tournaments.
    pub tournaments: Vec<kifu_tournament::hall::Summary>,
}

/// `GET /games/{id}/powers?key=HEX`: what the key may sign at the game's
/// head: its roles there and one power per action a console offers, with
/// the check `POST /records` applies and the clause that gives the power
/// (`kifu_game::powers`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Powers {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The key asked about.
    #[schemars(pattern(HEX64))]
    pub key: String,
    /// The head's place.
    pub head: Option<u64>,
    /// The key's roles at the head.
    #[schemars(with = "Vec<RoleName>")]
    pub roles: Vec<kifu_ledger::Role>,
    /// One per action a console offers.
    pub powers: Vec<kifu_game::powers::Power>,
}

/// The schema of a role (`kifu_ledger::Role`): its names, read from the
/// type.
pub struct RoleName;

impl JsonSchema for RoleName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Role".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": kifu_ledger::kinds::variant_names::<kifu_ledger::Role>(),
        })
    }
}
