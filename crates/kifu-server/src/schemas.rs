//! The JSON Schemas of `docs/schema/`, one a document kind.
//!
//! A document that is a Rust type ([`crate::answers`], the body of
//! `POST /records`, the command line's documents in the libraries that own
//! them and in `kifu_archive::printed`) has its schema generated from the
//! type: [`generated`] gives it, `cargo run -p kifu-server --example
//! schemas` writes it to `docs/schema/`, and a test fails when the file
//! there is not what the type generates. `tests/schema_cli.rs` holds
//! every schema to the real output besides.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// A document's schema, by the name of its file (`NAME.schema.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The file's name without `.schema.json` (`api-submit`).
    pub name: &'static str,
    /// The schema (JSON Schema 2020-12, with `$id`, `title` and `$defs`).
    pub schema: Value,
}

/// Whether a document is written by the server (an answer) or read by it
/// (a request body): a field the server may leave out is required in
/// neither, a field it fills with a default is required in the first only.
enum Direction {
    Answer,
    Request,
}

fn schema_of<T: JsonSchema>(name: &'static str, title: &str, direction: Direction) -> Document {
    let settings = SchemaSettings::draft2020_12();
    let settings = match direction {
        Direction::Answer => settings.for_serialize(),
        Direction::Request => settings.for_deserialize(),
    };
    let mut schema = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Value::Object(o) = &mut schema {
        o.insert(
            "$id".into(),
            Value::String(format!("urn:kifu:schema:{name}:1")),
        );
        o.insert("title".into(), Value::String(title.into()));
    }
    Document { name, schema }
}

/// The schemas generated from the Rust types.
pub fn generated() -> Vec<Document> {
    use crate::answers::*;
    use kifu_archive::printed;
    vec![
        schema_of::<ErrorAnswer>("api-error", "An error answer", Direction::Answer),
        schema_of::<SubmitAnswer>("api-submit", "POST /records", Direction::Answer),
        schema_of::<crate::wire::JsonSubmission>(
            "api-submission",
            "POST /records (a JSON body)",
            Direction::Request,
        ),
        schema_of::<crate::preview::Draft>(
            "api-preview-draft",
            "POST /games/{id}/preview (the body)",
            Direction::Request,
        ),
        schema_of::<kifu_game::seat::SignedRequest>(
            "api-device-request",
            "POST /devices (the body)",
            Direction::Request,
        ),
        schema_of::<crate::desk::Intent>(
            "api-director-intent",
            "POST /director/draft (the body)",
            Direction::Request,
        ),
        schema_of::<kifu_game::document::ReplayDocument<kifu_game::document::Projection>>(
            "replay",
            "kifu replay --json",
            Direction::Answer,
        ),
        schema_of::<kifu_game::document::StepDocument>(
            "api-step",
            "GET /games/{id}/state?compact=1",
            Direction::Answer,
        ),
        schema_of::<kifu_game::document::ExplainDocument>(
            "explain",
            "kifu explain --json",
            Direction::Answer,
        ),
        schema_of::<kifu_clock::ScenarioOutput>(
            "clock-replay",
            "kifu clock replay --json",
            Direction::Answer,
        ),
        schema_of::<kifu_go::BoardReport>("sgf-board", "kifu sgf board --json", Direction::Answer),
        schema_of::<kifu_renju::CheckOutput>(
            "renju-check",
            "kifu renju check --json",
            Direction::Answer,
        ),
        schema_of::<kifu_game::sanctions::SanctionHistory>(
            "sanctions",
            "kifu sanctions --json",
            Direction::Answer,
        ),
        schema_of::<kifu_game::preview::PreviewDocument>(
            "api-preview",
            "POST /games/{id}/preview",
            Direction::Answer,
        ),
        schema_of::<crate::console::RefereeGames>(
            "api-referee-games",
            "GET /referee/games?key=HEX",
            Direction::Answer,
        ),
        schema_of::<Head>("api-head", "GET /games/{id}/head", Direction::Answer),
        schema_of::<kifu_game::document::GameSummary>(
            "api-game",
            "GET /games/{id}",
            Direction::Answer,
        ),
        schema_of::<Games>("api-games", "GET /games", Direction::Answer),
        schema_of::<kifu_clock::VectorCheck>(
            "cli-clock-vectors",
            "kifu clock replay VECTORS --json",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::draw::PairingCheck>(
            "cli-check-pairing",
            "kifu tournament check-pairing --json",
            Direction::Answer,
        ),
        schema_of::<kifu_game::seat::KeptRequests>(
            "cli-devices",
            "kifu devices --json (a data directory's requests, no server)",
            Direction::Answer,
        ),
        schema_of::<kifu_archive::printed::KeyRotated>(
            "cli-key-rotation",
            "kifu checkpoint --rotate-to NEW --json",
            Direction::Answer,
        ),
        schema_of::<CheckpointAnswer>(
            "checkpoint",
            "GET /checkpoint?format=json",
            Direction::Answer,
        ),
        schema_of::<InclusionProofAnswer>(
            "inclusion-proof",
            "GET /proof/inclusion",
            Direction::Answer,
        ),
        schema_of::<ConsistencyProofAnswer>(
            "consistency-proof",
            "GET /proof/consistency",
            Direction::Answer,
        ),
        schema_of::<MapProofAnswer>("map-proof", "GET /proof/map", Direction::Answer),
        schema_of::<TournamentWrite>(
            "api-tournament-write",
            "POST /tournaments, POST /tournaments/{t}/records",
            Direction::Answer,
        ),
        schema_of::<Tournaments>(
            "api-tournaments",
            "GET /tournaments, GET /director/tournaments?key=HEX",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::hall::Summary>(
            "api-tournament",
            "GET /tournaments/{t}",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::hall::Pairings>(
            "api-pairings",
            "GET /tournaments/{t}/pairings?round=N",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::hall::CrossTable>(
            "api-crosstable",
            "GET /tournaments/{t}/crosstable?round=N",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::hall::StandingsDoc>(
            "api-tournament-standings",
            "GET /tournaments/{t}/standings?round=N",
            Direction::Answer,
        ),
        schema_of::<kifu_ledger::report::VerifyDocument>(
            "api-verify-report",
            "GET /verify, GET /games/{id}/verify",
            Direction::Answer,
        ),
        schema_of::<kifu_ledger::report::VerifyLine>(
            "api-verify-progress",
            "A line of GET /verify?progress=1",
            Direction::Answer,
        ),
        schema_of::<Powers>(
            "api-powers",
            "GET /games/{id}/powers?key=HEX",
            Direction::Answer,
        ),
        schema_of::<crate::desk::Desk>(
            "api-desk",
            "GET /tournaments/{t}/desk?round=N",
            Direction::Answer,
        ),
        schema_of::<crate::desk::Draft>("api-draft", "POST /director/draft", Direction::Answer),
        schema_of::<crate::device::DeviceAnswer>(
            "api-device",
            "POST /devices, GET /devices/{id}",
            Direction::Answer,
        ),
        schema_of::<crate::device::DeviceList>("api-devices", "GET /devices", Direction::Answer),
        schema_of::<kifu_bundle::verdict::BundleVerdict<'static>>(
            "bundle-verify",
            "kifu verify BUNDLE --json",
            Direction::Answer,
        ),
        schema_of::<kifu_ledger::report::ArchiveDocument>(
            "verify-report",
            "kifu verify --json",
            Direction::Answer,
        ),
        schema_of::<Vec<kifu_game::listing::GameRow>>(
            "games",
            "kifu games --json",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::tables::StandingsTable>(
            "standings",
            "kifu tournament standings --json",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::verdict::TournamentVerification>(
            "tournament-verify",
            "kifu tournament verify --json",
            Direction::Answer,
        ),
        schema_of::<kifu_tournament::tables::LogLine>(
            "tournament-log-line",
            "A line of kifu tournament log --json",
            Direction::Answer,
        ),
        schema_of::<printed::Demonstration>("cli-demo", "kifu demo --json", Direction::Answer),
        schema_of::<printed::KeyPairWritten>("cli-keygen", "kifu keygen --json", Direction::Answer),
        schema_of::<Vec<printed::KeyFingerprint>>(
            "cli-fingerprint",
            "kifu key fingerprint --json",
            Direction::Answer,
        ),
        schema_of::<printed::GameCreated>(
            "cli-new-game",
            "kifu new-game --json",
            Direction::Answer,
        ),
        schema_of::<printed::Appended>("cli-append", "kifu append --json", Direction::Answer),
        schema_of::<printed::ArchiveWritten>("cli-export", "kifu export --json", Direction::Answer),
        schema_of::<printed::ArchiveImported>(
            "cli-import",
            "kifu import --json",
            Direction::Answer,
        ),
        schema_of::<printed::KeyChanged>(
            "cli-key-change",
            "kifu key replace|revoke --json",
            Direction::Answer,
        ),
        schema_of::<printed::SgfImported>(
            "cli-sgf-import",
            "kifu sgf import --json",
            Direction::Answer,
        ),
        schema_of::<printed::TournamentCreated>(
            "cli-tournament-new",
            "kifu tournament new --json",
            Direction::Answer,
        ),
        schema_of::<printed::AuditLine>(
            "cli-audit-line",
            "A line of kifu audit --json",
            Direction::Answer,
        ),
        schema_of::<printed::CommandError>(
            "cli-error",
            "An error of a kifu command run with --json",
            Direction::Answer,
        ),
        schema_of::<Records>("api-records", "GET /games/{id}/records", Direction::Answer),
        schema_of::<Health>("api-health", "GET /livez, GET /healthz", Direction::Answer),
        schema_of::<FeedLine>("feed-line", "A line of the feed", Direction::Answer),
        schema_of::<UnreadableLine>(
            "feed-unreadable-line",
            "A line of the feed for a stored record that does not parse",
            Direction::Answer,
        ),
        schema_of::<CompactFeedLine>(
            "feed-compact-line",
            "A line of the feed with form=compact",
            Direction::Answer,
        ),
    ]
}

/// Every document's schema (all are generated: [`generated`]).
pub fn all() -> Vec<Document> {
    generated()
}

/// A generated schema as its file holds it: two-space indents, a final
/// newline.
pub fn file_text(d: &Document) -> String {
    let mut s = serde_json::to_string_pretty(&sorted(&d.schema)).unwrap_or_default();
    s.push('\n');
    s
}

/// The same value with every object's keys in order, so that a file does
/// not depend on how `serde_json` keeps maps in one build or another.
pub fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            let mut m = Map::new();
            for k in keys {
                m.insert(k.clone(), sorted(&o[k]));
            }
            Value::Object(m)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
