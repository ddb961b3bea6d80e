//! The OpenAPI 3.1 document of the HTTP API, served at `GET /openapi.json`
//! and checked in as `docs/openapi.json`.
//!
//! It is built from the router's own route list ([`crate::route_list`]) and
//! the documents' JSON Schemas ([`crate::schemas`]): each route takes its
//! operation from [`OPERATIONS`] (id, parameters, body, answers, the error
//! codes it may answer), and every schema of `docs/schema/` becomes a
//! component. A route without an operation, or an operation without a
//! route, is found by the test that compares the two; the document never
//! describes a path the server does not answer.

use std::collections::BTreeMap;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::schemas::Document;

/// The API's version (semantic versioning): a client generated from a
/// document of version 1.x works with every server of version 1.x. The
/// minor number grows when something is added (a route, a field, a query
/// parameter, an error code); the major number when something a client may
/// rely on is removed, renamed or retyped (`docs/API.md`, "Versions").
pub const API_VERSION: &str = "1.0.0";

/// The header every answer carries with [`API_VERSION`].
pub const VERSION_HEADER: &str = "kifu-api-version";

/// A query parameter: its name, its type and what it does.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The name.
    pub name: &'static str,
    /// `integer`, `string`, `number` or `boolean` (a flag given as `1`).
    pub kind: &'static str,
    /// True when the route refuses a request without it.
    pub required: bool,
    /// What it does.
    pub what: &'static str,
}

const fn q(name: &'static str, kind: &'static str, what: &'static str) -> Param {
    Param {
        name,
        kind,
        required: false,
        what,
    }
}

const fn need(name: &'static str, kind: &'static str, what: &'static str) -> Param {
    Param {
        name,
        kind,
        required: true,
        what,
    }
}

/// A media type and, for JSON, the document (a schema's name) it holds.
#[derive(Debug, Clone, Copy)]
pub struct Content {
    /// The media type.
    pub media: &'static str,
    /// The schema's name in `docs/schema/` (for JSON, NDJSON lines and
    /// event-stream data), or none for text and bytes.
    pub document: Option<&'static str>,
    /// Another document the same answer may be, chosen by a query
    /// parameter (`GET /games/{id}/state?compact=1`).
    pub or: Option<&'static str>,
}

const fn json(document: &'static str) -> Content {
    Content {
        media: "application/json",
        document: Some(document),
        or: None,
    }
}

const fn json_or(document: &'static str, or: &'static str) -> Content {
    Content {
        media: "application/json",
        document: Some(document),
        or: Some(or),
    }
}

const fn ndjson(document: &'static str) -> Content {
    Content {
        media: "application/x-ndjson",
        document: Some(document),
        or: None,
    }
}

const fn lines_or(media: &'static str, document: &'static str, or: &'static str) -> Content {
    Content {
        media,
        document: Some(document),
        or: Some(or),
    }
}

const fn events(document: Option<&'static str>) -> Content {
    Content {
        media: "text/event-stream",
        document,
        or: None,
    }
}

const fn other(media: &'static str) -> Content {
    Content {
        media,
        document: None,
        or: None,
    }
}

/// One answer of an operation.
#[derive(Debug, Clone, Copy)]
pub struct Answer {
    /// The status.
    pub status: u16,
    /// What it means.
    pub what: &'static str,
    /// Its forms (several when the client chooses by `Accept` or a query).
    pub content: &'static [Content],
}

/// An error status and the codes it comes with.
#[derive(Debug, Clone, Copy)]
pub struct Refusal {
    /// The status.
    pub status: u16,
    /// The `error.code`s answered with it.
    pub codes: &'static [&'static str],
}

const fn no(status: u16, codes: &'static [&'static str]) -> Refusal {
    Refusal { status, codes }
}

/// What one route does, for the document.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The path as the router writes it.
    pub path: &'static str,
    /// A stable name (a generated client's function name).
    pub id: &'static str,
    /// The section of `docs/API.md`.
    pub tag: &'static str,
    /// One line.
    pub summary: &'static str,
    /// The query parameters.
    pub query: &'static [Param],
    /// The request body's forms, if it takes one.
    pub body: &'static [Content],
    /// The answers that are not errors.
    pub answers: &'static [Answer],
    /// The errors particular to the route (every route may also answer the
    /// refusals of [`COMMON_REFUSALS`]).
    pub refusals: &'static [Refusal],
}

/// Refusals any route may answer: a query or path that does not parse, a
/// method it does not take, a body over the limit, a client over its share
/// of the server, a request over its time, a server stopping.
pub const COMMON_REFUSALS: &[Refusal] = &[
    no(400, &["bad_request"]),
    no(405, &["method_not_allowed"]),
    no(408, &["body_timeout"]),
    no(413, &["body_too_large"]),
    no(415, &["unsupported_media_type"]),
    no(
        429,
        &[
            "too_many_connections",
            "too_many_streams",
            "too_many_bodies",
        ],
    ),
    no(500, &["internal", "storage"]),
    no(503, &["busy", "streams_full", "timeout", "shutting_down"]),
];

const GAME_REFUSALS: &[Refusal] = &[no(400, &["ambiguous_game"]), no(404, &["unknown_game"])];
const TOURNAMENT_REFUSALS: &[Refusal] = &[
    no(400, &["ambiguous_tournament", "bad_round"]),
    no(404, &["no_tournament"]),
    no(
        422,
        &["tournament_unreadable", "tournament_does_not_verify"],
    ),
];
const APPEND_REFUSALS: &[Refusal] = &[
    no(
        400,
        &[
            "malformed",
            "bad_json",
            "bad_encoding",
            "empty",
            "bad_link",
            "ambiguous_game",
        ],
    ),
    no(403, &["role_refused", "creation_refused"]),
    no(404, &["unknown_game"]),
    no(409, &["conflict", "fork"]),
    no(413, &["too_many_records", "body_too_large"]),
    no(421, &["read_only_replica"]),
    no(
        422,
        &[
            "bad_signature",
            "bad_signer",
            "unknown_kind",
            "unsupported_version",
        ],
    ),
    no(503, &["busy", "shutting_down"]),
];

const fn a(status: u16, what: &'static str, content: &'static [Content]) -> Answer {
    Answer {
        status,
        what,
        content,
    }
}

const HTML: &[Answer] = &[a(200, "the page", &[other("text/html")])];
const BYTES: &[Content] = &[other("application/octet-stream")];
const RECORDS_BODY: &[Content] = &[json("api-submission"), other("application/octet-stream")];
const ROUND: Param = q(
    "round",
    "integer",
    "the round (default: the last round paired)",
);
const KEY: Param = need("key", "string", "a public key in hex (64 digits)");

/// What each route does. Path parameters are named in the path; see
/// [`path_parameter`].
pub const OPERATIONS: &[Operation] = &[
    Operation {
        method: "POST",
        path: "/records",
        id: "submit_records",
        tag: "records",
        summary: "Append signed records (one or many, to any games): an answer per record",
        query: &[],
        body: RECORDS_BODY,
        answers: &[
            a(
                200,
                "every record accepted (or already stored)",
                &[json("api-submit")],
            ),
            a(
                207,
                "some records accepted, some refused",
                &[json("api-submit")],
            ),
        ],
        refusals: APPEND_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games",
        id: "list_games",
        tag: "games",
        summary: "Every game: players, phase, result, head",
        query: &[
            q("tournament", "string", "only the games of this tournament"),
            q("round", "integer", "only the games of this round"),
            q(
                "player",
                "string",
                "only the games with a player whose name holds this (any case)",
            ),
        ],
        body: &[],
        answers: &[a(200, "the games", &[json("api-games")])],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/",
        id: "home_page",
        tag: "pages",
        summary: "The replay page's list of games",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/web/{file}",
        id: "web_file",
        tag: "pages",
        summary: "A file of the pages (scripts, styles, the record library)",
        query: &[],
        body: &[],
        answers: &[a(
            200,
            "the file",
            &[
                other("text/javascript"),
                other("text/css"),
                other("image/svg+xml"),
            ],
        )],
        refusals: &[no(404, &["not_found"])],
    },
    Operation {
        method: "GET",
        path: "/games/{id}",
        id: "get_game",
        tag: "games",
        summary: "One game's summary (the replay page for a request that accepts HTML)",
        query: &[],
        body: &[],
        answers: &[a(200, "the game", &[json("api-game"), other("text/html")])],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games/{id}/at/{seq}",
        id: "replay_page_at",
        tag: "pages",
        summary: "The replay page at one event",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/favicon.ico",
        id: "favicon",
        tag: "pages",
        summary: "The pages' icon",
        query: &[],
        body: &[],
        answers: &[a(200, "the icon", &[other("image/svg+xml")])],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/games/{id}/head",
        id: "get_head",
        tag: "games",
        summary: "The game's last event: what the next event is signed against",
        query: &[],
        body: &[],
        answers: &[a(200, "the head", &[json("api-head")])],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games/{id}/records",
        id: "get_records",
        tag: "games",
        summary: "The game's records, decoded (as `kifu log --json`) or as stored bytes",
        query: &[
            q("from", "integer", "the first event (default 0)"),
            q(
                "to",
                "integer",
                "the last event (default: the head, at most --max-records)",
            ),
            q(
                "format",
                "string",
                "`bytes`: the stored records concatenated",
            ),
        ],
        body: &[],
        answers: &[a(
            200,
            "the records",
            &[json("api-records"), other("application/octet-stream")],
        )],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games/{id}/state",
        id: "get_state",
        tag: "games",
        summary: "The game's projection at an event (`kifu replay --json`)",
        query: &[
            q("at", "integer", "the event (default: the head)"),
            q(
                "forbidden",
                "integer",
                "`1`: add the points forbidden to Black (Renju)",
            ),
            q(
                "compact",
                "integer",
                "`1`: the replay page's step (schema api-step)",
            ),
            q(
                "device",
                "integer",
                "`1`: the board device's view at the head",
            ),
            q(
                "since",
                "integer",
                "with `device=1`: only the consequences after this event",
            ),
        ],
        body: &[],
        answers: &[a(
            200,
            "the projection (with `compact=1`: the replay page's step)",
            &[json_or("replay", "api-step")],
        )],
        refusals: &[
            no(400, &["ambiguous_game", "bad_query"]),
            no(404, &["unknown_game", "no_such_event"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/games/{id}/explain",
        id: "get_explanation",
        tag: "games",
        summary: "The game's story in words, event by event (`kifu explain --json`)",
        query: &[q("after", "integer", "only the events after this one")],
        body: &[],
        answers: &[a(200, "the explanation", &[json("explain")])],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games/{id}/explain.txt",
        id: "get_explanation_text",
        tag: "games",
        summary: "The explanation as text, a download",
        query: &[],
        body: &[],
        answers: &[a(200, "the text", &[other("text/plain")])],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games/{id}/sgf",
        id: "get_sgf",
        tag: "games",
        summary: "The game as SGF",
        query: &[],
        body: &[],
        answers: &[a(200, "the SGF", &[other("application/x-go-sgf")])],
        refusals: &[
            no(400, &["ambiguous_game"]),
            no(404, &["unknown_game"]),
            no(422, &["no_sgf"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/games/{id}/archive",
        id: "get_game_archive",
        tag: "games",
        summary: "The game as an archive file with its manifest",
        query: &[],
        body: &[],
        answers: &[a(200, "the archive", BYTES)],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/games/{id}/verify",
        id: "verify_game",
        tag: "games",
        summary: "Verify the game's chain (`kifu verify --json` of one game)",
        query: &[],
        body: &[],
        answers: &[a(200, "the report", &[json("api-verify-report")])],
        refusals: GAME_REFUSALS,
    },
    Operation {
        method: "POST",
        path: "/games/{id}/preview",
        id: "preview_draft",
        tag: "devices",
        summary: "What a draft (`{\"body\", \"signer\", \"at_ms\"?}`) would bring about, without storing it",
        query: &[],
        body: &[json("api-preview-draft")],
        answers: &[a(200, "the consequences", &[json("api-preview")])],
        refusals: &[
            no(
                400,
                &["ambiguous_game", "malformed", "bad_json", "bad_encoding"],
            ),
            no(404, &["unknown_game"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/devices",
        id: "list_devices",
        tag: "devices",
        summary: "The devices that asked for a seat",
        query: &[q("pending", "integer", "`1`: only those not yet seated")],
        body: &[],
        answers: &[a(200, "the devices", &[json("api-devices")])],
        refusals: &[],
    },
    Operation {
        method: "POST",
        path: "/devices",
        id: "request_seat",
        tag: "devices",
        summary: "A device asks for a seat (its key, the board it stands at)",
        query: &[],
        body: &[json("api-device-request")],
        answers: &[
            a(200, "the request, as it stands", &[json("api-device")]),
            a(201, "the request, new", &[json("api-device")]),
        ],
        refusals: &[
            no(400, &["bad_request_seat", "bad_request"]),
            no(403, &["bad_request_seat"]),
            no(409, &["stale_request"]),
            no(415, &["unsupported_media_type"]),
            no(429, &["too_many_requests"]),
            no(503, &["too_many_requests"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/devices/{id}",
        id: "get_device",
        tag: "devices",
        summary: "One device's request and its seat",
        query: &[],
        body: &[],
        answers: &[a(200, "the request", &[json("api-device")])],
        refusals: &[no(404, &["no_such_request"])],
    },
    Operation {
        method: "GET",
        path: "/play",
        id: "board_page",
        tag: "pages",
        summary: "The board tablet's page",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/play/{id}",
        id: "board_page_of_game",
        tag: "pages",
        summary: "The board tablet's page on one game",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/referee",
        id: "referee_page",
        tag: "pages",
        summary: "The referee's console",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/referee/games",
        id: "referee_games",
        tag: "referees",
        summary: "Every game whose roster names the key, newest activity first",
        query: &[
            KEY,
            q(
                "games",
                "string",
                "only these of them: game ids (or prefixes), comma-separated, at most 1,000 (a console following the feed asks for the games it heard of)",
            ),
        ],
        body: &[],
        answers: &[a(200, "the games", &[json("api-referee-games")])],
        refusals: &[no(400, &["bad_key"])],
    },
    Operation {
        method: "GET",
        path: "/games/{id}/powers",
        id: "get_powers",
        tag: "referees",
        summary: "What the key may sign at the game's head",
        query: &[KEY],
        body: &[],
        answers: &[a(200, "the powers", &[json("api-powers")])],
        refusals: &[
            no(400, &["ambiguous_game", "bad_key"]),
            no(404, &["unknown_game"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/director",
        id: "director_page",
        tag: "pages",
        summary: "The director's desk",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/director/tournaments",
        id: "director_tournaments",
        tag: "tournaments",
        summary: "The tournaments the key directs or referees",
        query: &[KEY],
        body: &[],
        answers: &[a(200, "the tournaments", &[json("api-tournaments")])],
        refusals: &[no(400, &["bad_key"])],
    },
    Operation {
        method: "POST",
        path: "/director/draft",
        id: "draft_director_record",
        tag: "tournaments",
        summary: "The unsigned event a director's action takes (the desk signs it)",
        query: &[],
        body: &[json("api-director-intent")],
        answers: &[a(200, "the draft", &[json("api-draft")])],
        refusals: &[no(400, &["bad_intent", "bad_round", "bad_json"]), no(404, &["no_tournament", "unknown_game"]), no(422, &["tournament_refused"])],
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/desk",
        id: "get_desk",
        tag: "tournaments",
        summary: "A round as the director's desk shows it",
        query: &[ROUND],
        body: &[],
        answers: &[a(200, "the round", &[json("api-desk")])],
        refusals: &[no(400, &["ambiguous_tournament", "bad_round", "bad_key"]), no(404, &["no_tournament", "unknown_game"]), no(422, &["tournament_unreadable", "tournament_does_not_verify", "tournament_refused"])],
    },
    Operation {
        method: "GET",
        path: "/archive",
        id: "get_archive",
        tag: "games",
        summary: "Every game as one archive file (`kifu export`)",
        query: &[],
        body: &[],
        answers: &[a(200, "the archive", BYTES)],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/verify",
        id: "verify_store",
        tag: "games",
        summary: "Verify every chain of the store (`kifu verify --json`)",
        query: &[q(
            "progress",
            "integer",
            "`1`: NDJSON, progress lines then the report",
        )],
        body: &[],
        answers: &[a(
            200,
            "the report, or with `progress=1` its lines",
            &[json("api-verify-report"), ndjson("api-verify-progress")],
        )],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/healthz",
        id: "health",
        tag: "operations",
        summary: "The server's and its duties' health",
        query: &[],
        body: &[],
        answers: &[
            a(200, "all is well", &[json("api-health")]),
            a(503, "a duty beside serving fails", &[json("api-health")]),
        ],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/livez",
        id: "liveness",
        tag: "operations",
        summary: "Answers for as long as the server answers",
        query: &[],
        body: &[],
        answers: &[a(200, "alive", &[json("api-health")])],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/metrics",
        id: "metrics",
        tag: "operations",
        summary: "Prometheus metrics",
        query: &[],
        body: &[],
        answers: &[a(200, "the metrics", &[other("text/plain")])],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/openapi.json",
        id: "openapi",
        tag: "operations",
        summary: "This document",
        query: &[],
        body: &[],
        answers: &[a(
            200,
            "the OpenAPI 3.1 document",
            &[other("application/json")],
        )],
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/checkpoint",
        id: "get_checkpoint",
        tag: "transparency",
        summary: "The transparency log's latest signed checkpoint",
        query: &[q("format", "string", "`json`: the checkpoint as JSON")],
        body: &[],
        answers: &[a(
            200,
            "the checkpoint (a signed note, or JSON)",
            &[other("text/plain"), json("checkpoint")],
        )],
        refusals: &[no(400, &["bad_format"]), no(404, &["no_checkpoint", "no_operator_key"]), no(500, &["log_inconsistent"])],
    },
    Operation {
        method: "POST",
        path: "/checkpoint",
        id: "sign_checkpoint",
        tag: "transparency",
        summary: "Sign a checkpoint of the log now",
        query: &[q("format", "string", "`json`: the checkpoint as JSON")],
        body: &[],
        answers: &[
            a(
                200,
                "the checkpoint",
                &[other("text/plain"), json("checkpoint")],
            ),
            a(
                201,
                "a new checkpoint",
                &[other("text/plain"), json("checkpoint")],
            ),
        ],
        refusals: &[no(400, &["bad_format"]), no(404, &["no_checkpoint", "no_operator_key"]), no(409, &["log_key_rotated"]), no(500, &["log_inconsistent"])],
    },
    Operation {
        method: "GET",
        path: "/proof/inclusion",
        id: "prove_inclusion",
        tag: "transparency",
        summary: "Proof that an event is in the log",
        query: &[
            need("game", "string", "the game (id or unique prefix)"),
            need("seq", "integer", "the event"),
            q(
                "size",
                "integer",
                "the tree size (default: the latest checkpoint's)",
            ),
            q("format", "string", "`text`: the proof as text"),
        ],
        body: &[],
        answers: &[a(
            200,
            "the proof",
            &[json("inclusion-proof"), other("text/plain")],
        )],
        refusals: &[
            no(400, &["out_of_range", "ambiguous_game"]),
            no(404, &["unknown_event", "unknown_game", "no_checkpoint"]),
            no(409, &["not_in_checkpoint"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/proof/consistency",
        id: "prove_consistency",
        tag: "transparency",
        summary: "Proof that one tree size extends another",
        query: &[
            need("old", "integer", "the smaller tree size"),
            need("new", "integer", "the larger tree size"),
            q("format", "string", "`text`: the proof as text"),
        ],
        body: &[],
        answers: &[a(
            200,
            "the proof",
            &[json("consistency-proof"), other("text/plain")],
        )],
        refusals: &[no(400, &["out_of_range"])],
    },
    Operation {
        method: "GET",
        path: "/tile/{*path}",
        id: "get_tile",
        tag: "transparency",
        summary: "A tile of the log (the C2SP tlog-tiles layout)",
        query: &[],
        body: &[],
        answers: &[a(200, "the tile", BYTES)],
        refusals: &[no(404, &["no_such_tile"])],
    },
    Operation {
        method: "GET",
        path: "/proof/map",
        id: "prove_map",
        tag: "transparency",
        summary: "Proof of a game's head in the log's map",
        query: &[
            need("game", "string", "the game (id or unique prefix)"),
            q(
                "size",
                "integer",
                "the tree size (default: the latest checkpoint's)",
            ),
        ],
        body: &[],
        answers: &[a(200, "the proof", &[json("map-proof")])],
        refusals: &[
            no(400, &["out_of_range", "ambiguous_game"]),
            no(404, &["unknown_game", "no_checkpoint"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/games/{id}/bundle",
        id: "get_bundle",
        tag: "transparency",
        summary: "The game's appeal bundle: records, checkpoint and proofs (docs/TRANSPARENCY.md section 7)",
        query: &[q(
            "form",
            "string",
            "json (kifu-bundle/2, the default) or compact (kifu-bundle/3, binary)",
        )],
        body: &[],
        answers: &[a(
            200,
            "the bundle",
            &[other("application/json"), other("application/octet-stream")],
        )],
        refusals: &[
            no(400, &["ambiguous_game"]),
            no(404, &["unknown_game", "no_checkpoint"]),
            no(409, &["not_in_checkpoint", "no_compact_form"]),
        ],
    },
    Operation {
        method: "GET",
        path: "/hall",
        id: "hall_page",
        tag: "pages",
        summary: "The hall's screen",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/hall/{t}",
        id: "hall_page_of_tournament",
        tag: "pages",
        summary: "The hall's screen of one tournament",
        query: &[],
        body: &[],
        answers: HTML,
        refusals: &[],
    },
    Operation {
        method: "GET",
        path: "/tournaments",
        id: "list_tournaments",
        tag: "tournaments",
        summary: "Every tournament",
        query: &[],
        body: &[],
        answers: &[a(200, "the tournaments", &[json("api-tournaments")])],
        refusals: &[],
    },
    Operation {
        method: "POST",
        path: "/tournaments",
        id: "create_tournament",
        tag: "tournaments",
        summary: "Create a tournament from its signed first record",
        query: &[],
        body: RECORDS_BODY,
        answers: &[
            a(200, "already stored", &[json("api-tournament-write")]),
            a(201, "created", &[json("api-tournament-write")]),
        ],
        refusals: &[no(400, &["malformed", "bad_json", "bad_encoding", "empty"]), no(403, &["role_refused"]), no(409, &["conflict", "already_recorded", "short_name_taken"]), no(421, &["read_only_replica"]), no(422, &["bad_signature", "malformed", "tournament_refused", "not_a_tournament_genesis"])],
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}",
        id: "get_tournament",
        tag: "tournaments",
        summary: "A tournament: its rounds, players, boards",
        query: &[],
        body: &[],
        answers: &[a(200, "the tournament", &[json("api-tournament")])],
        refusals: TOURNAMENT_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/pairings",
        id: "get_pairings",
        tag: "tournaments",
        summary: "A round's pairings",
        query: &[ROUND],
        body: &[],
        answers: &[a(200, "the pairings", &[json("api-pairings")])],
        refusals: TOURNAMENT_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/crosstable",
        id: "get_crosstable",
        tag: "tournaments",
        summary: "The cross table after a round",
        query: &[ROUND],
        body: &[],
        answers: &[a(200, "the cross table", &[json("api-crosstable")])],
        refusals: TOURNAMENT_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/standings",
        id: "get_standings",
        tag: "tournaments",
        summary: "The standings after a round",
        query: &[ROUND],
        body: &[],
        answers: &[a(200, "the standings", &[json("api-tournament-standings")])],
        refusals: TOURNAMENT_REFUSALS,
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/records",
        id: "get_tournament_records",
        tag: "tournaments",
        summary: "The tournament's chain file",
        query: &[],
        body: &[],
        answers: &[a(200, "the chain", BYTES)],
        refusals: TOURNAMENT_REFUSALS,
    },
    Operation {
        method: "POST",
        path: "/tournaments/{t}/records",
        id: "submit_tournament_records",
        tag: "tournaments",
        summary: "Append signed records to a tournament's chain",
        query: &[],
        body: RECORDS_BODY,
        answers: &[a(200, "appended", &[json("api-tournament-write")])],
        refusals: &[no(400, &["malformed", "bad_json", "bad_encoding", "empty", "ambiguous_tournament"]), no(403, &["role_refused"]), no(404, &["no_tournament"]), no(409, &["conflict", "already_recorded"]), no(421, &["read_only_replica"]), no(422, &["bad_signature", "malformed", "tournament_refused", "tournament_unreadable", "tournament_does_not_verify"])],
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/export",
        id: "export_tournament",
        tag: "tournaments",
        summary: "A results file for a rating list (EGF, ...)",
        query: &[
            need("format", "string", "the file's format (`egf`, ...)"),
            ROUND,
            q(
                "drop_by_default",
                "boolean",
                "leave out the players who did not play",
            ),
            q("egf_class", "string", "the EGF tournament class"),
            q(
                "adjusted_time",
                "integer",
                "the EGF adjusted time, in minutes",
            ),
        ],
        body: &[],
        answers: &[a(200, "the file", &[other("text/plain")])],
        refusals: &[no(400, &["bad_format", "bad_round", "ambiguous_tournament"]), no(404, &["no_tournament"]), no(422, &["no_results_file", "tournament_unreadable", "tournament_does_not_verify"])],
    },
    Operation {
        method: "GET",
        path: "/feed",
        id: "read_feed",
        tag: "feed",
        summary: "Every stored record in order, a page at a time (long-poll with `wait`)",
        query: &[
            q(
                "after",
                "integer",
                "the last cursor seen (default: from the start)",
            ),
            q(
                "limit",
                "integer",
                "records in the page (at most --max-records)",
            ),
            q(
                "wait",
                "number",
                "seconds to wait for a record when none is there yet",
            ),
            q(
                "form",
                "string",
                "`compact`: each record's bytes and cursor, not its body",
            ),
        ],
        body: &[],
        answers: &[a(
            200,
            "one record a line (with `form=compact`, its compact line)",
            &[lines_or(
                "application/x-ndjson",
                "feed-line",
                "feed-compact-line",
            )],
        )],
        refusals: &[no(400, &["bad_cursor"]), no(503, &["stopping"])],
    },
    Operation {
        method: "GET",
        path: "/feed/stream",
        id: "follow_feed",
        tag: "feed",
        summary: "Server-Sent Events: every record as it is stored; `Last-Event-ID` resumes",
        query: &[
            q(
                "after",
                "integer",
                "the last cursor seen (or the Last-Event-ID header)",
            ),
            q("game", "string", "only this game's records"),
            q(
                "form",
                "string",
                "`compact`: each record's bytes and cursor, not its body",
            ),
        ],
        body: &[],
        answers: &[a(
            200,
            "the stream: each event's `id:` is the record's cursor, its `data:` one feed line; a follower too far behind gets `event: resume` (with `retry:`; its `data:` says `after` and `lag`) and comes back with `Last-Event-ID`",
            &[lines_or(
                "text/event-stream",
                "feed-line",
                "feed-compact-line",
            )],
        )],
        refusals: &[no(400, &["ambiguous_game", "bad_cursor"]), no(404, &["unknown_game"]), no(503, &["stopping"])],
    },
    Operation {
        method: "GET",
        path: "/tournaments/{t}/events",
        id: "follow_tournament",
        tag: "tournaments",
        summary: "Server-Sent Events: an event each time the tournament's hall changes",
        query: &[],
        body: &[],
        answers: &[a(200, "the stream", &[events(None)])],
        refusals: TOURNAMENT_REFUSALS,
    },
];

/// A path parameter's description, by its name.
pub fn path_parameter(name: &str) -> (&'static str, &'static str) {
    match name {
        "id" => ("string", "a game id (64 hex digits) or any unique prefix of one; for `/devices/{id}` and `/play/{id}`, the device's or the game's id"),
        "seq" => ("integer", "an event's place in its game"),
        "t" => ("string", "a tournament id or any unique prefix of one"),
        "file" => ("string", "a file's name"),
        "path" => ("string", "the tile's path (`tile/H/L/N[.p/W]`, `tile/entries/...`)"),
        _ => ("string", ""),
    }
}

/// The component name of a document: `api-submit` is `ApiSubmit`.
pub fn component_name(document: &str) -> String {
    let mut out = String::new();
    for part in document.split(['-', '_']) {
        let mut c = part.chars();
        if let Some(first) = c.next() {
            out.extend(first.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    out
}

/// Moves a document's schema into `components`: its `$defs` become
/// components named after the document and the definition, every `$ref`
/// follows them, and `$schema` and `$id` are left out (an `$id` inside the
/// OpenAPI document would make its references resolve against the
/// schema's URN), and so is `title` (client generators name a type after
/// its title before its component name: `GET /games/{id}` would be `Id`).
fn add_component(components: &mut Map<String, Value>, d: &Document) {
    let prefix = component_name(d.name);
    let mut schema = d.schema.clone();
    let defs = match &mut schema {
        Value::Object(o) => {
            o.remove("$schema");
            o.remove("$id");
            o.remove("title");
            o.remove("$defs")
        }
        _ => None,
    };
    let rename = |v: &mut Value| rewrite_refs(v, &prefix);
    if let Some(Value::Object(defs)) = defs {
        for (name, mut def) in defs {
            rename(&mut def);
            if let Value::Object(o) = &mut def {
                o.remove("title");
            }
            components.insert(format!("{prefix}{}", component_name(&name)), def);
        }
    }
    rename(&mut schema);
    components.insert(prefix.clone(), schema);
}

fn rewrite_refs(v: &mut Value, prefix: &str) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                if k == "$ref" {
                    if let Some(name) = x.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                        *x = Value::String(format!(
                            "#/components/schemas/{prefix}{}",
                            component_name(name)
                        ));
                    }
                } else {
                    rewrite_refs(x, prefix);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rewrite_refs(x, prefix)),
        _ => {}
    }
}

/// Names the objects that are a property of one variant of a `oneOf` or
/// `anyOf` (an externally tagged enum: `{"fischer": {...}}`): each becomes
/// a component of its own, `{Owner}{Property}`; and writes a variant that
/// is a `const` as an `enum` of one value. Client generators name an
/// inline object after its place, and some (openapi-python-client) name the
/// same place twice when a union is reached by several references; a
/// component is named once.
fn hoist_variants(components: &mut Map<String, Value>) {
    let mut todo: Vec<String> = components.keys().cloned().collect();
    while let Some(owner) = todo.pop() {
        let Some(mut schema) = components.remove(&owner) else {
            continue;
        };
        let mut lifted = Vec::new();
        lift(&mut schema, &owner, components, &mut lifted);
        components.insert(owner, schema);
        for (name, value) in lifted {
            if !components.contains_key(&name) {
                components.insert(name.clone(), value);
                todo.push(name);
            }
        }
    }
}

/// Replaces each object of a variant under `v` by a reference to a
/// component named after `owner` and its property (with a number when
/// that name holds another schema), and gives the objects in `lifted`.
fn lift(
    v: &mut Value,
    owner: &str,
    components: &Map<String, Value>,
    lifted: &mut Vec<(String, Value)>,
) {
    match v {
        Value::Object(o) => {
            for key in ["oneOf", "anyOf"] {
                let Some(Value::Array(variants)) = o.get_mut(key) else {
                    continue;
                };
                for variant in variants {
                    // A `const` variant is written as an enum of one:
                    // generators try the variants in turn, and some give
                    // up at a `const` that does not match.
                    if let Some(Value::Object(v)) = Some(&mut *variant) {
                        if let Some(c) = v.remove("const") {
                            let kind = match &c {
                                Value::String(_) => "string",
                                Value::Number(_) => "number",
                                Value::Bool(_) => "boolean",
                                _ => "null",
                            };
                            v.insert("enum".into(), json!([c]));
                            v.entry("type").or_insert(json!(kind));
                        }
                    }
                    let Some(Value::Object(props)) = variant.get_mut("properties") else {
                        continue;
                    };
                    for (prop, value) in props.iter_mut() {
                        if value.get("properties").is_none() {
                            continue;
                        }
                        let base = format!("{owner}{}", component_name(prop));
                        let taken = |n: &str| {
                            components.get(n).is_some_and(|c| c != value)
                                || lifted.iter().any(|(l, c)| l == n && c != value)
                                || n == owner
                        };
                        let mut name = base.clone();
                        let mut k = 2;
                        while taken(&name) {
                            name = format!("{base}{k}");
                            k += 1;
                        }
                        let reference = json!({"$ref": format!("#/components/schemas/{name}")});
                        lifted.push((name, std::mem::replace(value, reference)));
                    }
                }
            }
            for x in o.values_mut() {
                lift(x, owner, components, lifted);
            }
        }
        Value::Array(a) => a
            .iter_mut()
            .for_each(|x| lift(x, owner, components, lifted)),
        _ => {}
    }
}

fn schema_ref(document: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{}", component_name(document))})
}

fn item_schema(d: &str, or: Option<&str>) -> Value {
    match or {
        Some(or) => json!({"oneOf": [schema_ref(d), schema_ref(or)]}),
        None => schema_ref(d),
    }
}

fn item_names(d: &str, or: Option<&str>) -> String {
    match or {
        Some(or) => format!("{}` or `{}", component_name(d), component_name(or)),
        None => component_name(d),
    }
}

fn media(content: &Content) -> Value {
    match (content.media, content.document) {
        ("application/json", Some(d)) => match content.or {
            Some(or) => json!({"schema": {"oneOf": [schema_ref(d), schema_ref(or)]}}),
            None => json!({"schema": schema_ref(d)}),
        },
        ("application/x-ndjson", Some(d)) => json!({
            "schema": {
                "type": "string",
                "description": format!("newline-delimited JSON: each line one `{}` document", item_names(d, content.or)),
            },
            "x-item-schema": item_schema(d, content.or),
        }),
        ("text/event-stream", Some(d)) => json!({
            "schema": {
                "type": "string",
                "description": format!("Server-Sent Events: each event's `data:` is one `{}` document", item_names(d, content.or)),
            },
            "x-item-schema": item_schema(d, content.or),
        }),
        ("text/event-stream", None) => {
            json!({"schema": {"type": "string", "description": "Server-Sent Events"}})
        }
        ("application/octet-stream", _) => {
            json!({"schema": {"type": "string", "contentMediaType": "application/octet-stream"}})
        }
        ("application/json", None) => json!({"schema": {"type": "object"}}),
        _ => json!({"schema": {"type": "string"}}),
    }
}

fn operation(op: &Operation, path: &str) -> Value {
    let mut parameters = Vec::new();
    for name in path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
    {
        let name = name.trim_start_matches('*');
        let (kind, what) = path_parameter(name);
        parameters.push(json!({
            "name": name, "in": "path", "required": true,
            "description": what, "schema": {"type": kind},
        }));
    }
    for p in op.query {
        let schema = match p.kind {
            "integer" => json!({"type": "integer", "minimum": 0}),
            kind => json!({"type": kind}),
        };
        parameters.push(json!({
            "name": p.name, "in": "query", "required": p.required,
            "description": p.what, "schema": schema,
        }));
    }
    let mut responses = Map::new();
    for ans in op.answers {
        let content: Map<String, Value> = ans
            .content
            .iter()
            .map(|c| (c.media.to_string(), media(c)))
            .collect();
        responses.insert(
            ans.status.to_string(),
            json!({
                "description": ans.what,
                "headers": {"Kifu-Api-Version": {"$ref": "#/components/headers/KifuApiVersion"}},
                "content": content,
            }),
        );
    }
    let mut errors: BTreeMap<u16, Vec<&str>> = BTreeMap::new();
    for r in op.refusals.iter().chain(COMMON_REFUSALS) {
        let codes = errors.entry(r.status).or_default();
        for c in r.codes {
            if !codes.contains(c) {
                codes.push(c);
            }
        }
    }
    for (status, codes) in errors {
        if responses.contains_key(&status.to_string()) {
            continue;
        }
        let list: Vec<String> = codes.iter().map(|c| format!("`{c}`")).collect();
        responses.insert(
            status.to_string(),
            json!({
                "description": format!("refused: {}", list.join(", ")),
                "headers": {"Kifu-Api-Version": {"$ref": "#/components/headers/KifuApiVersion"}},
                "content": {"application/json": {
                    "schema": schema_ref("api-error"),
                    "x-error-codes": codes,
                }},
            }),
        );
    }
    let mut o = json!({
        "operationId": op.id,
        "summary": op.summary,
        "tags": [op.tag],
        "responses": responses,
    });
    if !parameters.is_empty() {
        o["parameters"] = Value::Array(parameters);
    }
    if !op.body.is_empty() {
        // The stored bytes a route also takes are said in words, not as a
        // second media type: generators give a body of two media types an
        // argument no client can fill (openapi-python-client 0.29 writes a
        // function that does not import its own types).
        let content: Map<String, Value> = op
            .body
            .iter()
            .filter(|c| c.media != "application/octet-stream" || op.body.len() == 1)
            .map(|c| (c.media.to_string(), media(c)))
            .collect();
        let description = if op.body.len() > 1
            && op
                .body
                .iter()
                .any(|c| c.media == "application/octet-stream")
        {
            "JSON, or with `Content-Type: application/octet-stream` the stored records concatenated (`u32 LE length || event_bytes || signature`, an archive's magic may lead; docs/FORMAT.md)"
        } else {
            "the body"
        };
        o["requestBody"] =
            json!({"required": true, "description": description, "content": content});
    }
    o
}

/// The OpenAPI path of a route: `/tile/{*path}` is `/tile/{path}`.
pub fn openapi_path(path: &str) -> String {
    path.replace("{*", "{")
}

/// The document: every route of the router that has an operation, and
/// every schema of `docs/schema/` as a component.
pub fn document() -> Value {
    let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for route in crate::route_list() {
        let Some(op) = OPERATIONS
            .iter()
            .find(|o| o.method == route.method && o.path == route.path)
        else {
            continue;
        };
        paths
            .entry(openapi_path(route.path))
            .or_default()
            .insert(route.method.to_lowercase(), operation(op, route.path));
    }
    let mut schemas = Map::new();
    for d in crate::schemas::all() {
        add_component(&mut schemas, &d);
    }
    hoist_variants(&mut schemas);
    json!({
        "openapi": "3.1.1",
        "info": {
            "title": "kifu serve",
            "version": API_VERSION,
            "summary": "The signed, tamper-evident record of Go and Renju tournament games",
            "description": "The HTTP API of `kifu serve` (docs/API.md). Every error is the one shape `ApiError` with a stable `error.code`; each operation lists the codes it may answer (`x-error-codes`). Every answer carries `Kifu-Api-Version`.",
            "license": {"name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0"},
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{"url": "http://127.0.0.1:7447", "description": "`kifu serve` on its default address"}],
        "tags": [
            {"name": "records", "description": "Appending signed records"},
            {"name": "games", "description": "Games: summaries, records, projections, archives, verification"},
            {"name": "devices", "description": "Board devices: seats and previews"},
            {"name": "referees", "description": "The referee's console"},
            {"name": "feed", "description": "Every record in order, as pages or a stream"},
            {"name": "tournaments", "description": "Tournaments: the hall's documents and the director's records"},
            {"name": "transparency", "description": "The transparency log: checkpoints, proofs, tiles, bundles"},
            {"name": "operations", "description": "Health, metrics and this document"},
            {"name": "pages", "description": "The pages people use (HTML)"},
        ],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "headers": {
                "KifuApiVersion": {
                    "description": "The API's version (semantic versioning; docs/API.md, \"Versions\")",
                    "schema": {"type": "string", "const": API_VERSION},
                },
            },
        },
    })
}

/// The document as `docs/openapi.json` holds it: keys in order, two-space
/// indents, a final newline.
pub fn document_text() -> String {
    let mut s =
        serde_json::to_string_pretty(&crate::schemas::sorted(&document())).unwrap_or_default();
    s.push('\n');
    s
}

/// `GET /openapi.json` (built once).
pub async fn serve() -> Response {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    (
        [(header::CONTENT_TYPE, "application/json")],
        TEXT.get_or_init(document_text).as_str(),
    )
        .into_response()
}
