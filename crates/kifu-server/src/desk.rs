//! The director's desk: `GET /director` (the page, `web/director.*`),
//! `GET /director/tournaments?key=HEX` (the tournaments whose genesis names
//! the key as director), `GET /tournaments/{t}/desk?round=N` (what the desk
//! shows: the chain's head, officials, players, the round's boards with
//! the results their games' own records state and the checkpoints due) and
//! `POST /director/draft` (what the director typed, as the facts to sign:
//! read by `kifu_tournament::desk`, the vocabulary `kifu tournament`
//! shares, and checked against the tournament by its projection, so a
//! refusal is said in words before anything is signed). Here the
//! tournament, its games and the devices waiting are read, and the answers
//! written. The page signs each fact with its own key and
//! submits it to `POST /tournaments[/{t}/records]`, where it is checked
//! again. The page holds no rule.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use kifu_game::document::GameHead;
use kifu_ledger::tournament::Registration;
use kifu_ledger::{Body, Checkpoint, GameResult, Participant, PublicKey, Role};
use kifu_store::tournaments;
use kifu_tournament::desk::{self, DeskError};
use kifu_tournament::{board_game, checkpoints, hall, Chain};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the director typed (`kifu_tournament::desk::Intent`).
pub use kifu_tournament::desk::Intent;

use crate::api::blocking;
use crate::error::ApiError;
use crate::tournament_api::load;
use crate::App;

/// `GET /director`: the director's desk.
pub async fn page() -> Response {
    crate::web::serve("director.html")
}

/// `?key=HEX`.
#[derive(Debug, Deserialize)]
pub struct KeyQuery {
    key: String,
}

fn key_of(hex_key: &str) -> Result<PublicKey, ApiError> {
    desk::key_of(hex_key).map_err(not_drafted)
}

/// `GET /director/tournaments?key=HEX`: the tournaments (summaries) whose
/// genesis names the key as their director.
pub async fn tournaments_of(
    State(app): State<Arc<App>>,
    Query(q): Query<KeyQuery>,
) -> Result<Json<crate::answers::Tournaments>, ApiError> {
    let key = key_of(&q.key)?;
    blocking(move || {
        let mut out = Vec::new();
        for p in tournaments::files(app.tournaments.data()).unwrap_or_default() {
            let Ok(records) = tournaments::read(&p) else {
                continue;
            };
            let Ok(chain) = crate::chains::open(&p, records) else {
                continue;
            };
            if chain
                .projection
                .genesis
                .roles_of(&key)
                .contains(&Role::Director)
            {
                out.push(hall::summary(&chain));
            }
        }
        out.sort_by(|a, b| a.short_name.cmp(&b.short_name));
        Ok(Json(crate::answers::Tournaments { tournaments: out }))
    })
    .await
}

/// `GET /tournaments/{t}/desk?round=N`: the director's desk: the
/// tournament, its head, officials and players, and the round's boards
/// with their results, result sheets and checkpoints due.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Desk {
    /// The players absent this round, and why.
    pub absent: Vec<Absence>,
    /// The round's boards, as the hall shows them, with what the games'
    /// own records state.
    pub boards: Vec<DeskBoard>,
    /// The players with the bye.
    pub byes: Vec<hall::PlayerRef>,
    /// Every device request waiting (no game names its key), with what it
    /// asks for and whether it matches a board of the round shown.
    pub devices: Vec<WaitingDevice>,
    /// The chain's head: where the next fact links.
    pub head: ChainHead,
    /// The tournament's id.
    #[schemars(pattern(crate::answers::HEX64))]
    pub id: String,
    /// The officials: the director, referees and appeals committee members.
    pub officials: Vec<Participant>,
    /// The players registered.
    pub players: Vec<Registration>,
    /// The round shown.
    pub round: u32,
    /// The tournament, as `GET /tournaments/{t}` answers it.
    pub summary: hall::Summary,
}

/// A player absent from the round.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Absence {
    /// The player's registration id.
    pub player: String,
    /// Why, in words (`skips the round`, ...).
    pub reason: String,
}

/// A tournament chain's head.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainHead {
    /// The head's hash.
    #[schemars(pattern(crate::answers::HEX64))]
    pub hash: String,
    /// The head's place.
    pub seq: u64,
}

impl ChainHead {
    fn of(chain: &Chain) -> ChainHead {
        let head = chain.head();
        ChainHead {
            hash: hex::encode(head.hash),
            seq: head.seq,
        }
    }
}

/// One board of the desk: the hall's board with the game's own record.
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct DeskBoard {
    /// The board as the hall shows it (`GET /tournaments/{t}/pairings`).
    #[serde(flatten)]
    pub line: hall::BoardLine,
    /// True when the game has a result and the chain does not hold its
    /// head: the director confirms it with a checkpoint.
    pub checkpoint_due: bool,
    /// Games that name this board without the tournament's say (a genesis
    /// not signed by its director or a referee, or another game than the
    /// one the chain names): claims, whose results never count.
    pub claims: Vec<Claim>,
    /// The game's appeals committee, or null before it is formed (or
    /// without a game).
    pub committee: Option<CommitteeNow>,
    /// The result the game's own record states, White's score first
    /// (`1-0`, ...), or empty.
    pub game_result: String,
    /// Each result sheet signed in the game.
    pub result_sheets: Vec<ResultSheet>,
}

/// A game that names a board without the tournament's say.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The key that signed its genesis.
    pub creator: PublicKey,
    /// The game's id.
    #[schemars(pattern(crate::answers::HEX64))]
    pub game: String,
    /// Why it does not count, in words.
    pub why: String,
}

/// A result sheet signed in a game (`result_sheet_signed`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultSheet {
    /// The result signed.
    pub result: GameResult,
    /// The signer's roles in the game.
    pub roles: Vec<Role>,
    /// The event's place in the game.
    pub seq: u64,
    /// Who signed it.
    pub signer: PublicKey,
    /// Signed under protest.
    pub under_protest: bool,
}

/// A game's appeals committee as its chain has made it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitteeNow {
    /// Members co-opted.
    pub coopted: Vec<Participant>,
    /// Members as formed.
    pub members: Vec<Participant>,
    /// Members recused.
    pub recused: Vec<PublicKey>,
    /// Reserves as formed.
    pub reserves: Vec<Participant>,
    /// The members sitting now.
    pub sitting: Vec<PublicKey>,
}

/// A device request waiting, as the desk shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitingDevice {
    /// The board asked for, from 1.
    pub board: Option<u32>,
    /// The key's fingerprint (docs/FORMAT.md section 8).
    pub fingerprint: String,
    /// What the seat is to the round shown.
    pub matches: DeviceMatch,
    /// The name the device gives.
    pub name: String,
    /// The request's number.
    pub request: String,
    /// The seat asked for.
    #[schemars(with = "kifu_game::seat::SeatRole")]
    pub role: Role,
    /// The round asked for, from 1.
    pub round: Option<u32>,
    /// The tournament asked for, as the device names it.
    pub tournament: Option<String>,
}

/// What a waiting device's seat is to the round the desk shows
/// (`kifu_tournament::desk::device_matches`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeviceMatch {
    /// It asks for a paired board of the round.
    Board,
    /// It asks for another round.
    OtherRound,
    /// This tournament, no such board in the round.
    NoBoard,
    /// A name this tournament does not answer to, or none.
    OtherTournament,
}

impl DeviceMatch {
    fn of(word: &str) -> DeviceMatch {
        match word {
            "board" => DeviceMatch::Board,
            "other_round" => DeviceMatch::OtherRound,
            "no_board" => DeviceMatch::NoBoard,
            _ => DeviceMatch::OtherTournament,
        }
    }
}

/// `?round=N` (default: the last round paired).
#[derive(Debug, Deserialize)]
pub struct RoundQuery {
    round: Option<u32>,
}

/// A game of the round as its record stands now.
struct GameNow {
    /// Its checkpoint: its head and its result by seat
    /// (`kifu_game::GameState::result_by_seat`).
    checkpoint: Checkpoint,
    /// The result sheets signed (`result_sheet_signed`).
    sheets: Vec<ResultSheet>,
    /// Its appeals committee ([`committee_now`]).
    committee: Option<CommitteeNow>,
    /// The fact that starts its play, when it is not started yet
    /// (`kifu_game::start::start_of_play`).
    start: Option<Body>,
}

/// The store's games on `round`'s boards of `chain`, by (round, board).
fn games_of_round(
    app: &App,
    chain: &Chain,
    round: u32,
    claims: &mut BTreeMap<(u32, u32), Vec<Claim>>,
) -> Result<BTreeMap<(u32, u32), GameNow>, ApiError> {
    let mut out = BTreeMap::new();
    for game in app.store.games()? {
        let genesis = app.store.genesis(&game)?;
        let creator = app.store.creator(&game)?;
        let Some(standing) = board_game::standing(chain, &game, &genesis, &creator) else {
            continue;
        };
        let board = standing.board();
        if board.0 != round {
            continue;
        }
        if !standing.counts() {
            // A game naming the board without the tournament's say: shown
            // to the director as a claim, never as the board's result.
            claims.entry(board).or_default().push(Claim {
                creator,
                game: hex::encode(game),
                why: board_game::claim_words(chain, board.0, board.1),
            });
            continue;
        }
        // The game as kept current record by record (`verdicts`), not
        // read and decoded from its genesis at each look of the desk.
        let kept = app.projections.current(&app.store, &game)?;
        let kept = kept.lock().unwrap_or_else(|p| p.into_inner());
        let Some(head) = kept.head else {
            continue;
        };
        let events = &kept.events;
        let sheets = events
            .iter()
            .filter_map(|e| match &e.body {
                Body::ResultSheetSigned {
                    result,
                    under_protest,
                } => Some(ResultSheet {
                    result: result.clone(),
                    roles: genesis.roles_of(&e.signer),
                    seq: e.seq,
                    signer: e.signer,
                    under_protest: *under_protest,
                }),
                _ => None,
            })
            .collect();
        let committee = kifu_ledger::Standing::replay(events).and_then(|s| committee_now(&s));
        out.insert(
            board,
            GameNow {
                start: kifu_game::start::start_of_play(events),
                committee,
                checkpoint: checkpoints::at_head(board, game, head, events),
                sheets,
            },
        );
    }
    Ok(out)
}

/// Every device request waiting (no game at its place names its key), with what the
/// desk makes of it for this tournament (`matches`:
/// `kifu_tournament::desk::device_matches`).
fn waiting_devices(app: &App, chain: &Chain, round: u32) -> Result<Vec<WaitingDevice>, ApiError> {
    let mut out = Vec::new();
    for r in app.devices.all() {
        if r.seat.role == Role::Referee
            || !crate::device::waiting(&r, &crate::device::games_naming(app, &r.seat.key)?)
        {
            continue;
        }
        out.push(WaitingDevice {
            board: r.seat.board,
            fingerprint: r.seat.fingerprint(),
            matches: DeviceMatch::of(desk::device_matches(chain, round, &r.seat)),
            name: r.seat.name.clone(),
            request: r.id.clone(),
            role: r.seat.role,
            round: r.seat.round,
            tournament: r.seat.tournament.clone(),
        });
    }
    Ok(out)
}

/// `GET /tournaments/{t}/desk?round=N`: the tournament as the desk shows
/// it ([`Desk`]). `boards` are the hall's (`docs/API.md`) with, per board,
/// `game_result` (the result the game's own record states, White's score
/// first), `result_sheets` and `checkpoint_due` (true when the game has a
/// result and the chain does not hold its head).
pub async fn desk(
    State(app): State<Arc<App>>,
    Path(t): Path<String>,
    Query(q): Query<RoundQuery>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let chain = load(app.tournaments.data(), &t)?;
        let p = &chain.projection;
        let round = q.round.unwrap_or_else(|| p.last_round().max(1));
        let pairings = hall::pairings(&chain, Some(round))
            .map_err(|e| ApiError::bad_request("bad_round", e.to_string()))?;
        let mut claims = BTreeMap::new();
        let mut games = games_of_round(&app, &chain, round, &mut claims)?;
        let boards = pairings
            .boards
            .into_iter()
            .map(|mut line| {
                let claims = claims.remove(&(round, line.board)).unwrap_or_default();
                let Some(now) = games.remove(&(round, line.board)) else {
                    return DeskBoard {
                        line,
                        checkpoint_due: false,
                        claims,
                        committee: None,
                        game_result: String::new(),
                        result_sheets: Vec::new(),
                    };
                };
                let c = &now.checkpoint;
                line.game = Some(hex::encode(c.game));
                let result = c.result.as_ref().map(kifu_tournament::board_result_of);
                DeskBoard {
                    line,
                    // The director confirms a finished game's result even
                    // over an official's entry (`checkpoints::is_due`).
                    checkpoint_due: c.result.is_some() && checkpoints::is_due(&chain, c, false),
                    claims,
                    committee: now.committee,
                    game_result: result
                        .map(|(r, _)| hall::score_text(r))
                        .unwrap_or_default()
                        .to_string(),
                    result_sheets: now.sheets,
                }
            })
            .collect();
        let absent = p
            .absences
            .iter()
            .filter(|((r, _), _)| *r == round)
            .map(|((_, id), why)| Absence {
                player: id.clone(),
                reason: kifu_ledger::tournament::absence_words(*why).to_string(),
            })
            .collect();
        let desk = Desk {
            absent,
            boards,
            byes: pairings.byes,
            devices: waiting_devices(&app, &chain, round)?,
            head: ChainHead::of(&chain),
            id: hex::encode(chain.id()),
            officials: p.genesis.officials.clone(),
            players: p.players.clone(),
            round,
            summary: hall::summary(&chain),
        };
        Ok(Json(keys_sorted(&desk)))
    })
    .await
}

/// A document as the JSON value answered: its objects' keys in alphabetical
/// order at every depth (`serde_json`'s map), the order the desk's answers
/// have always had.
fn keys_sorted<T: Serialize>(doc: &T) -> Value {
    // The documents hold strings, numbers and lists: they always serialise.
    serde_json::to_value(doc).unwrap_or(Value::Null)
}

/// `POST /director/draft`: what the director typed, drafted: the facts to
/// sign, or the games of a round to create or to start.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Draft {
    /// Facts of a tournament chain, in order from its head (a tournament
    /// to create: its genesis, no head).
    Facts(FactsDraft),
    /// A fact of one game (its appeals committee), checked at its head.
    GameFact(GameFactDraft),
    /// `games`: the genesis of each game of the round to create, and the
    /// boards left without one.
    RoundGames(desk::RoundGames),
    /// `start_round`: the fact that starts each game of the round.
    Starts(Starts),
}

/// Facts of a tournament chain to sign, in order.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FactsDraft {
    /// The bodies to sign, in order.
    #[schemars(with = "Vec<kifu_game::document::EventBody>")]
    pub bodies: Vec<Body>,
    /// `pair_auto`: the engine's draw of the round with the swaps made, and
    /// why each board is paired as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<kifu_tournament::draw::Shown>,
    /// The chain's head the first body links to (absent for a tournament
    /// to create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<ChainHead>,
    /// The tournament's id (absent for a tournament to create).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(crate::answers::HEX64))]
    pub tournament: Option<String>,
}

/// A fact of one game to sign, checked at its head as `POST /records` will
/// check it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFactDraft {
    /// The fact (one body).
    #[schemars(with = "Vec<kifu_game::document::EventBody>")]
    pub bodies: Vec<Body>,
    /// The game's appeals committee as it would stand after the fact.
    pub committee: Option<CommitteeNow>,
    /// The game's id.
    #[schemars(pattern(crate::answers::HEX64))]
    pub game: String,
    /// The game's head the fact links to.
    pub head: GameHead,
}

/// The games of a round to start.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Starts {
    /// Each game not started yet, with the fact that starts it.
    pub games: Vec<GameStart>,
}

/// A game of the round and the fact that starts its play
/// (`kifu_game::start::start_of_play`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameStart {
    /// Its board.
    pub board: u32,
    /// The fact to sign.
    #[schemars(with = "kifu_game::document::EventBody")]
    pub body: Body,
    /// The game's id.
    #[schemars(pattern(crate::answers::HEX64))]
    pub game: String,
    /// The game's head the fact links to.
    pub head: GameHead,
}

impl FactsDraft {
    /// Facts that create a tournament: no chain yet.
    fn creating(bodies: Vec<Body>) -> FactsDraft {
        FactsDraft {
            bodies,
            draw: None,
            head: None,
            tournament: None,
        }
    }

    /// Facts of `chain`, from its head.
    fn of(chain: &Chain, bodies: Vec<Body>) -> FactsDraft {
        FactsDraft {
            bodies,
            draw: None,
            head: Some(ChainHead::of(chain)),
            tournament: Some(hex::encode(chain.id())),
        }
    }
}

/// A draft as the JSON answered ([`keys_sorted`]).
fn drafted(d: Draft) -> Json<Value> {
    Json(keys_sorted(&d))
}

/// A refusal of what the director typed: a key that is not one is a bad
/// request; anything else is refused in words, nothing signed.
fn not_drafted(e: DeskError) -> ApiError {
    match e {
        DeskError::BadKey(_) => ApiError::bad_request("bad_key", e.to_string()),
        DeskError::NotCreation => ApiError::bad_request("bad_intent", e.to_string()),
        e => refused(e),
    }
}

fn refused(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "tournament_refused",
        format!("{e}; nothing signed"),
    )
}

/// `POST /director/draft`: the facts what the director typed states, in
/// order (`{"bodies": [body, ...]}`, each as `docs/FORMAT.md` writes a body
/// in JSON), each checked against the tournament as it would stand after
/// the ones before it; or a refusal in words (422 `tournament_refused`,
/// `... nothing signed`). For `create`, `{"bodies": [genesis]}`. What the
/// words mean is `kifu_tournament::desk`'s; here the tournament and its
/// games are read.
pub async fn draft(
    State(app): State<Arc<App>>,
    Json(intent): Json<Intent>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let most = app.limits.max_records_per_request;
        let (t, bodies) = match intent {
            c @ Intent::Create { .. } => {
                let bodies = desk::create(c).map_err(not_drafted)?;
                return Ok(drafted(Draft::Facts(FactsDraft::creating(bodies))));
            }
            Intent::ImportOpengotha {
                director_key,
                director_name,
                xml,
            } => {
                let director = desk::director(key_of(&director_key)?, director_name);
                let bodies = desk::imported_opengotha(&xml, director).map_err(not_drafted)?;
                return Ok(drafted(Draft::Facts(FactsDraft::creating(bodies))));
            }
            Intent::PairOpengotha {
                tournament,
                round,
                xml,
            } => (
                tournament,
                desk::opengotha_round(&xml, round).map_err(not_drafted)?,
            ),
            Intent::Register {
                tournament,
                correct,
                player,
            } => (tournament, vec![desk::registered(player, correct)]),
            Intent::Absent {
                tournament,
                round,
                player,
                reason,
            } => (
                tournament,
                vec![desk::absent(round, player, &reason).map_err(not_drafted)?],
            ),
            Intent::Bye {
                tournament,
                round,
                player,
            } => (tournament, vec![desk::bye(round, player)]),
            Intent::Pair {
                tournament,
                round,
                text,
                colours_unknown,
            } => (
                tournament,
                desk::pairing_text(&text, round, colours_unknown, most).map_err(not_drafted)?,
            ),
            Intent::PairAuto {
                tournament,
                round,
                swaps,
            } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                let (p, bodies) =
                    desk::drawn(&chain.projection, round, &swaps, most).map_err(not_drafted)?;
                desk::check(&chain.projection, &bodies).map_err(not_drafted)?;
                let mut facts = FactsDraft::of(&chain, bodies);
                facts.draw = Some(kifu_tournament::draw::shown(&p));
                return Ok(drafted(Draft::Facts(facts)));
            }
            Intent::Result {
                tournament,
                round,
                board,
                result,
                by_default,
                reason,
            } => (
                tournament,
                vec![desk::result(round, board, &result, by_default, reason).map_err(not_drafted)?],
            ),
            Intent::Games {
                tournament,
                round,
                exclude,
                recorders,
            } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                return Ok(drafted(Draft::RoundGames(round_games(
                    &app, &chain, round, &exclude, &recorders,
                )?)));
            }
            Intent::Committee { game, signer } => {
                return game_draft(&app, &game, &signer, |genesis| {
                    let t = genesis.tournament.as_ref().ok_or_else(|| {
                        refused("the game names no tournament: its committee is formed with `kifu append`")
                    })?;
                    let chain = load(app.tournaments.data(), &t.tournament)?;
                    kifu_tournament::games::committee(&chain, t.round).map_err(refused)
                })
                .map(|d| drafted(Draft::GameFact(d)));
            }
            Intent::Recuse {
                game,
                signer,
                member,
                reason,
            } => {
                let member = key_of(&member)?;
                return game_draft(&app, &game, &signer, move |_| {
                    Ok(desk::recused(member, reason))
                })
                .map(|d| drafted(Draft::GameFact(d)));
            }
            Intent::Coopt {
                game,
                signer,
                name,
                key,
            } => {
                let key = key_of(&key)?;
                return game_draft(&app, &game, &signer, move |_| Ok(desk::coopted(name, key)))
                    .map(|d| drafted(Draft::GameFact(d)));
            }
            Intent::StartRound { tournament, round } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                let games: Vec<GameStart> =
                    games_of_round(&app, &chain, round, &mut BTreeMap::new())?
                        .into_values()
                        .filter_map(|g| {
                            let body = g.start?;
                            let c = g.checkpoint;
                            Some(GameStart {
                                board: c.board,
                                body,
                                game: hex::encode(c.game),
                                head: GameHead {
                                    seq: c.head_seq,
                                    hash: hex::encode(c.head_hash),
                                },
                            })
                        })
                        .collect();
                if games.is_empty() {
                    return Err(refused(DeskError::NoGameToStart(round)));
                }
                return Ok(drafted(Draft::Starts(Starts { games })));
            }
            Intent::Checkpoint {
                tournament,
                round,
                board,
            } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                let games = games_of_round(&app, &chain, round, &mut BTreeMap::new())?
                    .into_values()
                    .map(|g| g.checkpoint);
                let due =
                    desk::checkpoints_due(&chain, round, board, games).map_err(not_drafted)?;
                (tournament, due)
            }
        };
        let chain = load(app.tournaments.data(), &t)?;
        desk::check(&chain.projection, &bodies).map_err(not_drafted)?;
        Ok(drafted(Draft::Facts(FactsDraft::of(&chain, bodies))))
    })
    .await
}

/// The genesis of each game of `round` not yet in the store
/// (`kifu_tournament::desk::round_games`, from the store's games of the
/// round and the devices waiting).
fn round_games(
    app: &App,
    chain: &Chain,
    round: u32,
    exclude: &[String],
    recorders: &[String],
) -> Result<desk::RoundGames, ApiError> {
    let created: BTreeSet<u32> = games_of_round(app, chain, round, &mut BTreeMap::new())?
        .into_keys()
        .map(|(_, board)| board)
        .collect();
    let requests = app.devices.all();
    let asking: Vec<desk::Asking<'_>> = requests
        .iter()
        .map(|r| desk::Asking {
            request: &r.id,
            seat: &r.seat,
        })
        .collect();
    desk::round_games(chain, round, &created, &asking, exclude, recorders).map_err(not_drafted)
}

/// A fact for game `game` drafted by `make` from its genesis and checked
/// at its head as `POST /records` will check it when `signer` signs it
/// (`kifu_ledger::Standing::check`): `{"game", "head", "bodies": [body],
/// "committee"}` (the committee as it would then stand), or the refusal
/// with the clause.
fn game_draft(
    app: &App,
    game: &str,
    signer: &str,
    make: impl FnOnce(&kifu_ledger::Genesis) -> Result<Body, ApiError>,
) -> Result<GameFactDraft, ApiError> {
    let signer = key_of(signer)?;
    let id = app.store.resolve(game)?;
    let head = app.store.head(&id)?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_game",
            format!("no game {game}"),
        )
    })?;
    let genesis = app.store.genesis(&id)?;
    let body = make(&genesis)?;
    let events: Vec<kifu_ledger::Event> = app
        .store
        .read(&id, 0, Some(head.seq))?
        .iter()
        .filter_map(|r| r.decode().ok())
        .collect();
    let mut standing = kifu_ledger::Standing::replay(&events)
        .ok_or_else(|| refused("the game has no verified genesis"))?;
    let draft = kifu_ledger::Event::next(
        id,
        head,
        events.last().map(|e| e.at_ms).unwrap_or(0),
        signer,
        body.clone(),
    );
    if let Err(r) = standing.check(&draft) {
        let clause = kifu_game::powers::clause_for_kind(r.kind)
            .map(|c| format!(" ({})", c.rule))
            .unwrap_or_default();
        return Err(refused(format!("{} refused: {}{clause}", r.kind, r.rule)));
    }
    standing.apply(&draft);
    Ok(GameFactDraft {
        bodies: vec![body],
        committee: committee_now(&standing),
        game: hex::encode(id),
        head: GameHead {
            seq: head.seq,
            hash: hex::encode(head.hash),
        },
    })
}

/// A game's appeals committee as its chain has made it, or none before it
/// is formed.
fn committee_now(standing: &kifu_ledger::Standing) -> Option<CommitteeNow> {
    standing.committee.as_ref().map(|c| CommitteeNow {
        coopted: c.coopted.clone(),
        members: c.members.clone(),
        recused: c.recused.clone(),
        reserves: c.reserves.clone(),
        sitting: standing.sitting(),
    })
}
