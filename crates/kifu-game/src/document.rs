//! The JSON documents about records and games that `kifu ... --json` prints
//! and `kifu serve` answers: one definition for both faces, so a script gets
//! the same object from the command line and from the HTTP API.

use kifu_ledger::{human_kind_name, Event, Hash, Record, VerifyReport};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::state::{result_text, BoardState, GameState};

/// A lower-case hex BLAKE3 hash or Ed25519 key: 64 digits.
const HEX64: &str = "^[0-9a-f]{64}$";

/// Lower-case hex bytes.
const HEX: &str = "^([0-9a-f]{2})*$";

/// One record as `kifu log --json` prints it and `GET /games/{id}/records`
/// answers it: the envelope, the body, and the raw bytes and signature in
/// hex so that a consumer can verify it independently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordDocument {
    /// The game (chain) the record belongs to.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// Its place in the game.
    pub seq: u64,
    /// Its hash (BLAKE3 of the hash domain, the event bytes and the
    /// signature, docs/FORMAT.md section 3).
    #[schemars(pattern(HEX64))]
    pub hash: String,
    /// The hash of the record before it (zeros for a genesis).
    #[schemars(pattern(HEX64))]
    pub prev_hash: String,
    /// The instant the signer states, in milliseconds since 1970 (UTC).
    pub at_ms: u64,
    /// The signer's public key.
    #[schemars(pattern(HEX64))]
    pub signer: String,
    /// The kind, in words (`stone placed`).
    pub kind: String,
    /// The kind's index (docs/FORMAT.md section 4).
    pub kind_index: u32,
    /// The body in the JSON of docs/FORMAT.md section 4, or null for a kind
    /// this build does not know.
    pub body: Option<EventBody>,
    /// The signed event bytes, in hex.
    #[schemars(pattern(HEX))]
    pub event_bytes: String,
    /// The Ed25519 signature, in hex.
    #[schemars(regex(pattern = "^[0-9a-f]{128}$"))]
    pub signature: String,
}

/// An event body in the JSON of docs/FORMAT.md section 4: one property, the
/// kind's name, holding the kind's fields (a unit kind's value is null).
/// The record's `event_bytes` and `signature` are the authority; the body
/// is their reading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EventBody(pub Value);

impl JsonSchema for EventBody {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EventBody".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "description": "An event body in the JSON of docs/FORMAT.md section 4: one property, the kind's name, holding the kind's fields (a unit kind's value is null).",
            "propertyNames": {"enum": kifu_ledger::kinds::kind_names()},
            "minProperties": 1,
            "maxProperties": 1,
        })
    }
}

/// Why a stored record cannot be shown: its envelope does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The game.
    pub game: Hash,
    /// The record's hash.
    pub hash: Hash,
    /// What is wrong with it.
    pub error: String,
}

/// One record as a [`RecordDocument`], or why its envelope does not parse.
pub fn record_document(game: &Hash, record: &Record) -> Result<RecordDocument, Unreadable> {
    let hash = record.hash();
    let h = record.header().map_err(|e| Unreadable {
        game: *game,
        hash,
        error: e.to_string(),
    })?;
    let body = record
        .decode()
        .ok()
        .map(|e| EventBody(serde_json::to_value(e.body).unwrap_or(Value::Null)));
    Ok(RecordDocument {
        game: hex::encode(game),
        seq: h.seq,
        hash: hex::encode(hash),
        prev_hash: hex::encode(h.prev_hash),
        at_ms: h.at_ms,
        signer: h.signer.to_hex(),
        kind: human_kind_name(h.kind).to_string(),
        kind_index: h.kind,
        body,
        event_bytes: hex::encode(&record.event_bytes),
        signature: hex::encode(record.signature),
    })
}

/// One record as a JSON object ([`RecordDocument`]); a record whose
/// envelope does not parse is `{"game", "hash", "error"}`.
pub fn record_json(game: &Hash, record: &Record) -> Value {
    match record_document(game, record) {
        Ok(d) => serde_json::to_value(d).unwrap_or(Value::Null),
        Err(u) => json!({
            "game": hex::encode(u.game),
            "hash": hex::encode(u.hash),
            "error": u.error,
        }),
    }
}

/// One line of `kifu feed`, of `GET /feed` (NDJSON) and the `data:` of
/// each `GET /feed/stream` event: a record as `GET /games/{id}/records`
/// gives it (its fields in the same object), with its `cursor`, its place
/// in the store's global order.
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct FeedLine {
    /// The record's place in the store's global order; resume after the
    /// last one seen.
    pub cursor: u64,
    /// On a read replica: the record's cursor at the venue's server that
    /// published it, when the mirror noted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue_cursor: Option<u64>,
    /// `kifu feed --nats`: the message's sequence in the JetStream stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_seq: Option<u64>,
    /// The record.
    #[serde(flatten)]
    pub record: RecordDocument,
}

impl FeedLine {
    /// A record's document with its cursor.
    pub fn new(cursor: u64, record: RecordDocument) -> FeedLine {
        FeedLine {
            cursor,
            venue_cursor: None,
            stream_seq: None,
            record,
        }
    }
}

/// The feed's line for a stored record whose envelope does not parse (a
/// damaged store): what is known of it, and why it could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnreadableLine {
    /// The game (chain) the store files it under.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The stored record's hash.
    #[schemars(pattern(HEX64))]
    pub hash: String,
    /// Why its envelope does not parse.
    pub error: String,
    /// Its place in the store's global order.
    pub cursor: u64,
}

/// A record's feed line as text ([`FeedLine`], or [`UnreadableLine`] for
/// a record whose envelope does not parse).
pub fn feed_line_text(
    game: &Hash,
    record: &Record,
    cursor: u64,
    venue_cursor: Option<u64>,
    stream_seq: Option<u64>,
) -> String {
    match record_document(game, record) {
        Ok(record) => serde_json::to_string(&FeedLine {
            cursor,
            venue_cursor,
            stream_seq,
            record,
        }),
        Err(u) => serde_json::to_string(&UnreadableLine {
            game: hex::encode(u.game),
            hash: hex::encode(u.hash),
            error: u.error,
            cursor,
        }),
    }
    .unwrap_or_default()
}

/// The state of a game at event `at` (`kifu replay --json`): the whole
/// projection, the board as a picture (`board_view`: rows of `X`, `O`, `.`,
/// top first, with prisoners and the side to move), and the result the rules
/// give so far. `verified` says whether every link, signature and role of the
/// game checked. Its JSON is `serde_json::to_value` of a [`ReplayDocument`].
pub fn replay_json(game: &Hash, events: &[Event], at: u64, verified: bool) -> Value {
    let last = events.last().map(|e| e.seq).unwrap_or(0);
    let state = GameState::at(events, at);
    serde_json::to_value(replay_document_of(game, &state, last, verified)).unwrap_or(Value::Null)
}

/// [`replay_json`] of a state already projected (a server keeps each
/// game's state at its head): `last` is the game's last event.
pub fn replay_json_of(game: &Hash, state: &GameState, last: u64, verified: bool) -> Value {
    serde_json::to_value(replay_document_of(game, state, last, verified)).unwrap_or(Value::Null)
}

/// The [`ReplayDocument`] of a state already projected; `last` is the
/// game's last event.
pub fn replay_document_of<'a>(
    game: &Hash,
    state: &'a GameState,
    last: u64,
    verified: bool,
) -> ReplayDocument<&'a GameState> {
    ReplayDocument {
        game: hex::encode(game),
        verified,
        last_seq: last,
        state,
        board_view: board_picture(&state.board),
        result_computed: state.result.computed().cloned(),
        view: state.view(),
        text: state.text(),
        forbidden: None,
    }
}

/// A game projected at one event: `kifu replay --json [--at SEQ]`, `GET
/// /games/{id}/state[?at=SEQ][&forbidden=1]` (`state` is the whole
/// [`GameState`]) and, at the head, `GET
/// /games/{id}/state?device=1[&since=SEQ]` (`state` is a [`DeviceState`]:
/// [`DeviceView`]). `view` is the stable public view (versioned by
/// `view.view_version`; its `state_hash` is the digest docs/FORMAT.md
/// defines), `text` the state in the words `kifu replay` prints,
/// `board_view` the board as a picture, `state` the projection the pages
/// read (genesis, clocks, board operations, disputes, the result).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ReplayDocument<S> {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// Whether every link, signature and role of the game checked.
    pub verified: bool,
    /// The game's last event.
    pub last_seq: u64,
    /// The projection at the event: the whole [`GameState`], or in the
    /// device view a [`DeviceState`] (`events` and `move_clocks` null, the
    /// board keeping only the last move of each player, `consequences` only
    /// those after `since`).
    pub state: S,
    /// The board as rows of `X`, `O`, `.`, top first, with prisoners and
    /// the side to move; null before there is a board.
    pub board_view: Option<BoardPicture>,
    /// The result the rules give so far, with the event and the clause it
    /// follows from, or null.
    pub result_computed: Option<crate::record::Decided>,
    /// `kifu_game::view::GameView`: the public view at the event.
    pub view: crate::view::GameView,
    /// The state in the words `kifu replay` prints: the phase, clock
    /// faces, why the clocks stand, the result.
    pub text: crate::state_text::StateText,
    /// With `forbidden=1` (the server's): for a Renju game the empty points
    /// where a black stone would be forbidden (RIF 9.2, 9.3), in board
    /// order; null for a Go game. Absent without `forbidden=1`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<Option<Vec<crate::forbidden::ForbiddenPoint>>>,
}

/// The projection a [`ReplayDocument`] holds, for its schema: the whole
/// [`GameState`], or a device's [`DeviceState`].
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum Projection {
    /// The whole projection.
    Whole(Box<GameState>),
    /// The projection as a board device follows it.
    Device(Box<DeviceState>),
}

/// The game at its head as a board device follows it
/// (`GET /games/{id}/state?device=1&since=SEQ`): the document of
/// [`replay_json`] without what grows with every move and a device never
/// reads, so that following a game costs the same at move 250 as at move 10.
/// Everything else (the genesis, both clocks, whose turn it is, the phase,
/// disputes, dead stones, the result) is exactly as in [`replay_json`].
/// Its JSON is `serde_json::to_value` of it ([`device_json`]): keys in the
/// order of [`replay_json`]'s.
pub type DeviceView = ReplayDocument<DeviceState>;

/// A board as a picture: Go's or Renju's.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(untagged)]
pub enum BoardPicture {
    /// A Go board.
    Go(crate::go::GoView),
    /// A Renju or Gomoku board.
    Renju(crate::renju::RenjuView),
}

/// The projection as a device follows it: [`GameState`]'s fields, but
/// `events` and `move_clocks` (the whole history) are null, the board is a
/// [`DeviceBoard`], and `consequences` holds only those of events after
/// `since` (all of them without it): what the device has not yet said in
/// words.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DeviceState {
    /// The last event applied.
    pub at_seq: Option<u64>,
    /// The time of the last event applied.
    pub at_ms: Option<u64>,
    /// The genesis.
    pub genesis: Option<kifu_ledger::Genesis>,
    /// The ruleset profile.
    pub profile: String,
    /// The board, less its history.
    pub board: DeviceBoard,
    /// Whose turn it is.
    pub to_move: Option<kifu_ledger::Color>,
    /// The clocks.
    pub clock: crate::state::ClockState,
    /// Where the game stands.
    pub phase: crate::record::Phase,
    /// Illegal moves pointed out.
    pub illegal_moves: Vec<crate::record::IllegalMoveNotice>,
    /// Irregularities and their fixes.
    pub irregularities: Vec<crate::record::IrregularityRecord>,
    /// Disputes.
    pub disputes: Vec<crate::record::Dispute>,
    /// Referee rulings.
    pub rulings: Vec<crate::record::RulingRecord>,
    /// Protests.
    pub protests: Vec<crate::record::Protest>,
    /// Appeals.
    pub appeals: Vec<crate::record::Appeal>,
    /// The appeals committee.
    pub committee: Option<crate::record::Committee>,
    /// Sanctions on the players.
    pub sanctions: Vec<crate::record::SanctionRecord>,
    /// The result.
    pub result: crate::record::ResultState,
    /// The consequences the device has not said yet.
    pub consequences: Vec<crate::Consequence>,
    /// Left out: always null.
    pub events: Option<()>,
    /// True once the pairing was modified to the colours actually used.
    pub colours_swapped: bool,
    /// Left out: always null.
    pub move_clocks: Option<()>,
}

/// The board as a device follows it (tagged by `game`, as
/// [`BoardState`]): of a Go board's operations only the last move of each
/// player (in their order), of a Renju board's inputs only the last stone
/// played; every other field as the projection has it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "game")]
pub enum DeviceBoard {
    /// No board.
    None,
    /// A Go board.
    Go {
        /// The last move of each player.
        ops: Vec<crate::go::Op>,
        /// Handicap stones Black has still to place.
        pending_handicap: u32,
        /// The count frozen when the game ended on the board.
        final_score: Option<kifu_go::Score>,
    },
    /// A Renju or Gomoku board.
    Renju {
        /// The last stone played.
        inputs: Vec<(u64, kifu_renju::GameInput)>,
        /// The rule.
        rule: String,
        /// The opening procedure.
        opening: String,
    },
}

impl DeviceBoard {
    fn of(board: &BoardState) -> DeviceBoard {
        match board {
            BoardState::None => DeviceBoard::None,
            BoardState::Go(b) => {
                let is_move_of = |o: &crate::go::Op, who: kifu_ledger::Color| matches!(o, crate::go::Op::Move { player, .. } if *player == who);
                let keep: Vec<usize> = [kifu_ledger::Color::Black, kifu_ledger::Color::White]
                    .into_iter()
                    .filter_map(|who| b.ops.iter().rposition(|o| is_move_of(o, who)))
                    .collect();
                DeviceBoard::Go {
                    ops: (b.ops.iter().enumerate())
                        .filter(|(i, _)| keep.contains(i))
                        .map(|(_, o)| o.clone())
                        .collect(),
                    pending_handicap: b.pending_handicap,
                    final_score: b.final_score.clone(),
                }
            }
            BoardState::Renju(r) => {
                let last_play = r
                    .inputs
                    .iter()
                    .rposition(|(_, i)| matches!(i, kifu_renju::GameInput::Play { .. }));
                let inputs = last_play
                    .and_then(|i| r.inputs.get(i).cloned())
                    .into_iter()
                    .collect();
                DeviceBoard::Renju {
                    inputs,
                    rule: r.rule.clone(),
                    opening: r.opening.clone(),
                }
            }
        }
    }
}

/// The board of `state` as a picture, if it has one.
pub(crate) fn board_picture(board: &BoardState) -> Option<BoardPicture> {
    match board {
        BoardState::Go(b) => Some(BoardPicture::Go(b.view())),
        BoardState::Renju(r) => Some(BoardPicture::Renju(r.view())),
        BoardState::None => None,
    }
}

/// The [`DeviceView`] of the game at its head; consequences of events
/// after `since` only, when given.
pub fn device_view(
    game: &Hash,
    events: &[Event],
    verified: bool,
    since: Option<u64>,
) -> DeviceView {
    let last = events.last().map(|e| e.seq).unwrap_or(0);
    device_view_of(game, &GameState::at(events, last), last, verified, since)
}

/// [`device_view`] of the state at the game's head, already projected (a
/// server keeps each game's state at its head); `last` is the game's last
/// event. Only what the view holds is copied, not the history.
pub fn device_view_of(
    game: &Hash,
    state: &GameState,
    last: u64,
    verified: bool,
    since: Option<u64>,
) -> DeviceView {
    let board_view = board_picture(&state.board);
    let result_computed = state.result.computed().cloned();
    let view = state.view();
    let text = state.text();
    DeviceView {
        game: hex::encode(game),
        verified,
        last_seq: last,
        state: DeviceState {
            at_seq: state.at_seq,
            at_ms: state.at_ms,
            genesis: state.genesis.clone(),
            profile: state.profile.clone(),
            board: DeviceBoard::of(&state.board),
            to_move: state.to_move,
            clock: state.clock.clone(),
            phase: state.phase.clone(),
            illegal_moves: state.illegal_moves.clone(),
            irregularities: state.irregularities.clone(),
            disputes: state.disputes.clone(),
            rulings: state.rulings.clone(),
            protests: state.protests.clone(),
            appeals: state.appeals.clone(),
            committee: state.committee.clone(),
            sanctions: state.sanctions.clone(),
            result: state.result.clone(),
            consequences: (state.consequences.iter())
                .filter(|c| since.is_none_or(|since| c.at_seq > since))
                .cloned()
                .collect(),
            events: None,
            colours_swapped: state.colours_swapped,
            move_clocks: None,
        },
        board_view,
        result_computed,
        view,
        text,
        forbidden: None,
    }
}

/// The [`DeviceView`] as JSON: its keys in order, as every document of
/// this module.
pub fn device_json(game: &Hash, events: &[Event], verified: bool, since: Option<u64>) -> Value {
    serde_json::to_value(device_view(game, events, verified, since)).unwrap_or(Value::Null)
}

/// The game at event `at` as the replay page steps through it: what a
/// person reads at that event and nothing else, a few kilobytes where
/// [`replay_json`] carries the whole projection (every event up to `at`,
/// both clocks' histories, the board's operations). Its JSON is
/// `serde_json::to_value` of a [`StepDocument`].
pub fn step_json(game: &Hash, events: &[Event], at: u64, verified: bool) -> Value {
    let last = events.last().map(|e| e.seq).unwrap_or(0);
    let state = GameState::at(events, at);
    serde_json::to_value(step_document_of(game, &state, at, last, verified)).unwrap_or(Value::Null)
}

/// The [`StepDocument`] of a state already projected at event `at`;
/// `last` is the game's last event.
pub fn step_document_of(
    game: &Hash,
    state: &GameState,
    at: u64,
    last: u64,
    verified: bool,
) -> StepDocument {
    let last_move = match &state.board {
        BoardState::Go(b) => b.ops.iter().rev().find_map(|o| match o {
            crate::go::Op::Move { point: Some(p), .. } => Some(BoardPoint { x: p.x, y: p.y }),
            _ => None,
        }),
        BoardState::Renju(r) => r.inputs.iter().rev().find_map(|(_, i)| match i {
            // A Renju point counts its rows from the bottom; the picture's
            // from the top.
            kifu_renju::GameInput::Play { point, .. } => Some(BoardPoint {
                x: point.column(),
                y: 14u8.saturating_sub(point.row()),
            }),
            _ => None,
        }),
        BoardState::None => None,
    };
    let mut text = state.text();
    if state.result.computed().is_some() {
        text.to_move = None;
        text.paused = None;
        text.running = None;
    }
    StepDocument {
        game: hex::encode(game),
        verified,
        at,
        last_seq: last,
        board: board_picture(&state.board),
        last_move,
        state_hash: state.view().state_hash,
        text,
        case: crate::case::case_lines(state),
        forbidden: None,
    }
}

/// The game at one event as the replay page steps through it (`GET
/// /games/{id}/state?compact=1`, [`step_json`]): a few kilobytes where the
/// whole projection grows with the game.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StepDocument {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// Whether every link, signature and role of the game checked.
    pub verified: bool,
    /// The event shown.
    pub at: u64,
    /// The game's last event.
    pub last_seq: u64,
    /// The board as a picture (as `board_view` of [`ReplayDocument`]), null
    /// before there is one.
    pub board: Option<BoardPicture>,
    /// The last stone placed that stands, from the top left, or null.
    pub last_move: Option<BoardPoint>,
    /// The state hash at the event (as `view.state_hash` of
    /// [`ReplayDocument`]).
    #[schemars(pattern(HEX64))]
    pub state_hash: String,
    /// As `text` of [`ReplayDocument`], except that once the rules give a
    /// result nobody is "to move" and no clock is "paused" or "running":
    /// the game is over.
    pub text: crate::state_text::StateText,
    /// The case at the event: the lines `kifu replay` prints below the
    /// clocks ([`crate::case::case_lines`]).
    pub case: Vec<String>,
    /// With `forbidden=1` (the server's), as in [`ReplayDocument`]: the
    /// points forbidden to Black on a Renju board, null for a Go game.
    /// Absent without `forbidden=1`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<Option<Vec<crate::forbidden::ForbiddenPoint>>>,
}

/// A point of a board's picture, from its top left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BoardPoint {
    /// Column from the left edge, 0-based.
    pub x: u8,
    /// Row from the top edge, 0-based.
    pub y: u8,
}

/// The game as a story (`kifu explain --json`): every event with its signer
/// and wording, and each consequence with the rule behind it. Its JSON is
/// `serde_json::to_value` of an [`ExplainDocument`].
pub fn explain_json(game: &Hash, events: &[Event], verified: bool) -> Value {
    serde_json::to_value(explain_document(game, events, verified)).unwrap_or(Value::Null)
}

/// The [`ExplainDocument`] of a game's events.
pub fn explain_document(game: &Hash, events: &[Event], verified: bool) -> ExplainDocument {
    let state = GameState::replay(events);
    let story = (state.events.iter())
        .map(|e| ExplainedEvent {
            seq: e.seq,
            at_ms: e.at_ms,
            kind: e.kind.clone(),
            signer: e.signer.clone(),
            summary: e.summary.clone(),
            consequences: state.consequences_of(e.seq).cloned().collect(),
        })
        .collect();
    ExplainDocument {
        game: hex::encode(game),
        verified,
        events: story,
        notable: notable(&state),
        result_computed: state.result.computed().cloned(),
        result: state.result.clone(),
    }
}

/// Why each event of a game stands as it does: `kifu explain --json` and
/// `GET /games/{id}/explain[?after=SEQ]` ([`explain_json`]).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ExplainDocument {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// Whether every link, signature and role of the game checked.
    pub verified: bool,
    /// Every event (with `after=SEQ`, those after SEQ) with its signer,
    /// its wording and its consequences, each with the clause it rests on.
    pub events: Vec<ExplainedEvent>,
    /// The events a committee looks at first, in event order.
    pub notable: Vec<Notable>,
    /// The result the rules give so far, with the event and the clause it
    /// follows from, or null.
    pub result_computed: Option<crate::record::Decided>,
    /// The result: how it came about, what was declared and signed.
    pub result: crate::record::ResultState,
}

/// One event of the story, with what follows from it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ExplainedEvent {
    /// Sequence number.
    pub seq: u64,
    /// Time stated by the signer.
    pub at_ms: u64,
    /// The kind.
    pub kind: String,
    /// Who signed it (name and roles).
    pub signer: String,
    /// What it says.
    pub summary: String,
    /// What the projection draws from it, each with its rule.
    pub consequences: Vec<crate::Consequence>,
}

/// An event a committee looks at first, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Notable {
    /// The event.
    pub seq: u64,
    /// Why it matters.
    pub why: NotableWhy,
}

/// Why an event is [`Notable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum NotableWhy {
    /// An illegal move itself.
    #[serde(rename = "illegal move")]
    IllegalMove,
    /// Where an illegal move was pointed out.
    #[serde(rename = "illegal move pointed out")]
    IllegalMovePointedOut,
    /// An irregularity.
    #[serde(rename = "irregularity")]
    Irregularity,
    /// A dispute.
    #[serde(rename = "dispute")]
    Dispute,
    /// A referee's ruling.
    #[serde(rename = "ruling")]
    Ruling,
    /// A protest.
    #[serde(rename = "protest")]
    Protest,
    /// An appeal.
    #[serde(rename = "appeal")]
    Appeal,
    /// The committee's decision on an appeal.
    #[serde(rename = "appeal decided")]
    AppealDecided,
    /// A sanction.
    #[serde(rename = "sanction")]
    Sanction,
    /// The event the result follows from.
    #[serde(rename = "result")]
    Result,
}

/// The events a committee looks at first, each with why, in event order:
/// the illegal moves themselves and where they were pointed out,
/// irregularities, disputes, rulings, protests, appeals and their
/// decisions, sanctions, and the event the result follows from.
pub fn notable(state: &GameState) -> Vec<Notable> {
    use NotableWhy as W;
    let mut out: Vec<Notable> = Vec::new();
    let mut push = |seq: u64, why: NotableWhy| out.push(Notable { seq, why });
    for n in &state.illegal_moves {
        push(n.move_seq, W::IllegalMove);
        push(n.noticed_seq, W::IllegalMovePointedOut);
    }
    state
        .irregularities
        .iter()
        .for_each(|i| push(i.seq, W::Irregularity));
    state.disputes.iter().for_each(|d| push(d.seq, W::Dispute));
    state.rulings.iter().for_each(|r| push(r.seq, W::Ruling));
    state.protests.iter().for_each(|p| push(p.seq, W::Protest));
    for a in &state.appeals {
        push(a.seq, W::Appeal);
        if let Some(d) = &a.decision {
            push(d.seq, W::AppealDecided);
        }
    }
    state
        .sanctions
        .iter()
        .for_each(|x| push(x.seq, W::Sanction));
    if let Some(d) = state.result.computed() {
        push(d.at_seq, W::Result);
    }
    // In event order; at one event, in the order above (a stable sort).
    out.sort_by_key(|n| n.seq);
    out.dedup();
    out
}

/// A verification report (`kifu verify --json`).
pub fn verify_report_json(r: &VerifyReport) -> Value {
    // The document's fields are strings and numbers: it always serialises.
    serde_json::to_value(kifu_ledger::report::VerifyDocument::from(r)).unwrap_or(Value::Null)
}

/// One game as the server lists it: each item of `GET /games`, and `GET
/// /games/{id}`: where it is played (tournament, round, board), by whom,
/// under which rules, its phase and its result so far, and its head.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// Events in the game.
    pub events: u64,
    /// The last event's place.
    pub last_seq: Option<u64>,
    /// The last event's instant.
    pub last_at_ms: Option<u64>,
    /// Go, Renju or Gomoku (`go`, `renju`, `gomoku_freestyle`,
    /// `gomoku_standard`).
    #[schemars(with = "Option<GameKindName>")]
    pub kind: Option<kifu_ledger::GameKind>,
    /// The ruleset profile (`lgc-2023`, `rif-2009`, ...).
    pub ruleset: Option<String>,
    /// The board's size.
    pub board_size: Option<u8>,
    /// The game's title.
    pub title: Option<String>,
    /// The game's place in a tournament, if any.
    #[schemars(with = "Option<TournamentPlace>")]
    pub tournament: Option<kifu_ledger::TournamentRef>,
    /// Who plays Black now (after an exchange of colours, the other seat).
    pub black: String,
    /// Who plays White now.
    pub white: String,
    /// Where the game stands, tagged by `phase`.
    pub phase: crate::record::Phase,
    /// The phase in words, as `kifu games` prints it.
    pub phase_text: String,
    /// The result the rules give so far, as `B+R`, `W+3.5`, or null.
    pub result: Option<String>,
    /// Results declared, in the same words.
    pub declared: Vec<String>,
    /// The last event: what a client signs its next event against.
    pub head: GameHead,
}

/// A game's last event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameHead {
    /// Its place.
    pub seq: u64,
    /// Its hash: the next event's `prev_hash`.
    #[schemars(pattern(HEX64))]
    pub hash: String,
}

/// The schema of `kifu_ledger::GameKind`: its variants' names, read from
/// the type itself.
struct GameKindName;

impl JsonSchema for GameKindName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "GameKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": kifu_ledger::kinds::variant_names::<kifu_ledger::GameKind>(),
        })
    }
}

/// A game's place in a tournament (the schema of
/// `kifu_ledger::TournamentRef`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TournamentPlace {
    /// The tournament's id or name.
    tournament: String,
    /// Round number, from 1.
    round: u32,
    /// Board number, from 1.
    board: u32,
}

/// One game's [`GameSummary`] at `head`, from its events.
pub fn game_summary(game: &Hash, events: &[Event], head: GameHead) -> GameSummary {
    game_summary_of(game, &GameState::replay(events), events, head)
}

/// [`game_summary`] of a state already projected from `events` (a server
/// keeps each game's state at its head).
pub fn game_summary_of(
    game: &Hash,
    state: &GameState,
    events: &[Event],
    head: GameHead,
) -> GameSummary {
    let g = state.genesis.as_ref();
    // Who plays each colour (after an exchange of colours, the other seat).
    let name = |colour| {
        state
            .playing(colour)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    };
    let last = events.last();
    GameSummary {
        game: hex::encode(game),
        events: events.len() as u64,
        last_seq: last.map(|e| e.seq),
        last_at_ms: last.map(|e| e.at_ms),
        kind: g.map(|g| g.game),
        ruleset: g.map(|g| g.ruleset.clone()),
        board_size: g.map(|g| g.board_size),
        title: g.map(|g| g.title.clone()),
        tournament: g.and_then(|g| g.tournament.clone()),
        black: name(kifu_ledger::Color::Black),
        white: name(kifu_ledger::Color::White),
        phase_text: crate::state_text::phase(&state.phase),
        phase: state.phase.clone(),
        result: state.result.computed().map(|d| result_text(&d.result)),
        declared: state
            .result
            .declared
            .iter()
            .map(|d| result_text(&d.result))
            .collect(),
        head,
    }
}
