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
use kifu_ledger::{Body, Checkpoint, PublicKey, Role};
use kifu_store::tournaments;
use kifu_tournament::desk::{self, DeskError};
use kifu_tournament::{board_game, checkpoints, hall, Chain};
use serde::Deserialize;
use serde_json::{json, Value};

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
            let Ok(chain) = Chain::open(records) else {
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
    /// The result sheets signed (`result_sheet_signed`): `{"seq",
    /// "signer", "roles", "result", "under_protest"}`.
    sheets: Vec<Value>,
    /// Its appeals committee ([`committee_json`]).
    committee: Value,
    /// The fact that starts its play, when it is not started yet
    /// (`kifu_game::start::start_of_play`).
    start: Option<Body>,
}

/// The store's games on `round`'s boards of `chain`, by (round, board).
fn games_of_round(
    app: &App,
    chain: &Chain,
    round: u32,
    claims: &mut BTreeMap<(u32, u32), Vec<Value>>,
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
            claims.entry(board).or_default().push(json!({
                "game": hex::encode(game),
                "creator": creator,
                "why": board_game::claim_words(chain, board.0, board.1),
            }));
            continue;
        }
        let Some(head) = app.store.head(&game)? else {
            continue;
        };
        let events: Vec<kifu_ledger::Event> = app
            .store
            .read(&game, 0, None)?
            .iter()
            .filter_map(|r| r.decode().ok())
            .collect();
        let sheets = events
            .iter()
            .filter_map(|e| match &e.body {
                Body::ResultSheetSigned {
                    result,
                    under_protest,
                } => Some(json!({
                    "seq": e.seq,
                    "signer": e.signer,
                    "roles": genesis.roles_of(&e.signer),
                    "result": result,
                    "under_protest": under_protest,
                })),
                _ => None,
            })
            .collect();
        let committee = kifu_ledger::Standing::replay(&events)
            .map(|s| committee_json(&s))
            .unwrap_or(Value::Null);
        out.insert(
            board,
            GameNow {
                start: kifu_game::start::start_of_play(&events),
                committee,
                checkpoint: checkpoints::at_head(board, game, head, &events),
                sheets,
            },
        );
    }
    Ok(out)
}

/// Every device request waiting (no game at its place names its key), with what the
/// desk makes of it for this tournament (`matches`:
/// `kifu_tournament::desk::device_matches`).
fn waiting_devices(app: &App, chain: &Chain, round: u32) -> Result<Vec<Value>, ApiError> {
    let mut out = Vec::new();
    for r in app.devices.all() {
        if r.seat.role == Role::Referee
            || !crate::device::waiting(&r, &crate::device::games_of(app, &r.seat.key)?)
        {
            continue;
        }
        out.push(json!({
            "request": r.id,
            "role": r.seat.role,
            "name": r.seat.name,
            "tournament": r.seat.tournament,
            "round": r.seat.round,
            "board": r.seat.board,
            "fingerprint": r.seat.fingerprint(),
            "matches": desk::device_matches(chain, round, &r.seat),
        }));
    }
    Ok(out)
}

/// `GET /tournaments/{t}/desk?round=N`: the tournament as the desk shows
/// it. `head` (`seq`, `hash`) is where the next fact links; `boards` are
/// the hall's (`docs/API.md`) with, per board, `game_result` (the result
/// the game's own record states, White's score first), `result_sheets`
/// (each sheet signed in the game: `seq`, `signer`, its `roles`, `result`,
/// `under_protest`) and `checkpoint_due`
/// (true when the game has a result and the chain does not hold its head).
pub async fn desk(
    State(app): State<Arc<App>>,
    Path(t): Path<String>,
    Query(q): Query<RoundQuery>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let chain = load(app.tournaments.data(), &t)?;
        let p = &chain.projection;
        let head = chain.head();
        let round = q.round.unwrap_or_else(|| p.last_round().max(1));
        let pairings = hall::pairings(&chain, Some(round))
            .map_err(|e| ApiError::bad_request("bad_round", e.to_string()))?;
        let mut claims = BTreeMap::new();
        let games = games_of_round(&app, &chain, round, &mut claims)?;
        let boards: Vec<Value> = pairings
            .boards
            .iter()
            .map(|b| {
                let mut v = serde_json::to_value(b).unwrap_or_default();
                v["claims"] = json!(claims.get(&(round, b.board)).cloned().unwrap_or_default());
                if let Some(now) = games.get(&(round, b.board)) {
                    let c = &now.checkpoint;
                    v["result_sheets"] = json!(now.sheets);
                    v["committee"] = now.committee.clone();
                    v["game"] = json!(hex::encode(c.game));
                    let result = c.result.as_ref().map(kifu_tournament::board_result_of);
                    v["game_result"] =
                        json!(result.map(|(r, _)| hall::score_text(r)).unwrap_or_default());
                    // The director confirms a finished game's result even
                    // over an official's entry (`checkpoints::is_due`).
                    v["checkpoint_due"] =
                        json!(c.result.is_some() && checkpoints::is_due(&chain, c, false));
                } else {
                    v["result_sheets"] = json!([]);
                    v["committee"] = Value::Null;
                    v["game_result"] = json!("");
                    v["checkpoint_due"] = json!(false);
                }
                v
            })
            .collect();
        let absent: Vec<Value> = p
            .absences
            .iter()
            .filter(|((r, _), _)| *r == round)
            .map(|((_, id), why)| {
                json!({"player": id, "reason": kifu_ledger::tournament::absence_words(*why)})
            })
            .collect();
        let devices = waiting_devices(&app, &chain, round)?;
        Ok(Json(json!({
            "summary": hall::summary(&chain),
            "id": hex::encode(chain.id()),
            "devices": devices,
            "head": {"seq": head.seq, "hash": hex::encode(head.hash)},
            "officials": p.genesis.officials,
            "players": p.players,
            "round": round,
            "boards": boards,
            "byes": pairings.byes,
            "absent": absent,
        })))
    })
    .await
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
                return Ok(Json(json!({ "bodies": bodies })));
            }
            Intent::ImportOpengotha {
                director_key,
                director_name,
                xml,
            } => {
                let director = desk::director(key_of(&director_key)?, director_name);
                let bodies = desk::imported_opengotha(&xml, director).map_err(not_drafted)?;
                return Ok(Json(json!({ "bodies": bodies })));
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
                return Ok(Json(json!({
                    "tournament": hex::encode(chain.id()),
                    "head": {"seq": chain.head().seq, "hash": hex::encode(chain.head().hash)},
                    "bodies": bodies,
                    "draw": kifu_tournament::draw::why_json(&p),
                })));
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
                return Ok(Json(round_games(
                    &app, &chain, round, &exclude, &recorders,
                )?));
            }
            Intent::Committee { game, signer } => {
                return game_draft(&app, &game, &signer, |genesis| {
                    let t = genesis.tournament.as_ref().ok_or_else(|| {
                        refused("the game names no tournament: its committee is formed with `kifu append`")
                    })?;
                    let chain = load(app.tournaments.data(), &t.tournament)?;
                    kifu_tournament::games::committee(&chain, t.round).map_err(refused)
                })
                .map(Json);
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
                .map(Json);
            }
            Intent::Coopt {
                game,
                signer,
                name,
                key,
            } => {
                let key = key_of(&key)?;
                return game_draft(&app, &game, &signer, move |_| Ok(desk::coopted(name, key)))
                    .map(Json);
            }
            Intent::StartRound { tournament, round } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                let games: Vec<Value> = games_of_round(&app, &chain, round, &mut BTreeMap::new())?
                    .into_values()
                    .filter_map(|g| {
                        let body = g.start?;
                        let c = g.checkpoint;
                        Some(json!({
                            "board": c.board,
                            "game": hex::encode(c.game),
                            "head": {"seq": c.head_seq, "hash": hex::encode(c.head_hash)},
                            "body": body,
                        }))
                    })
                    .collect();
                if games.is_empty() {
                    return Err(refused(DeskError::NoGameToStart(round)));
                }
                return Ok(Json(json!({ "games": games })));
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
        Ok(Json(json!({
            "tournament": hex::encode(chain.id()),
            "head": {"seq": chain.head().seq, "hash": hex::encode(chain.head().hash)},
            "bodies": bodies,
        })))
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
) -> Result<Value, ApiError> {
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
    let drafted = desk::round_games(chain, round, &created, &asking, exclude, recorders)
        .map_err(not_drafted)?;
    Ok(serde_json::to_value(drafted).unwrap_or_default())
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
) -> Result<Value, ApiError> {
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
    Ok(json!({
        "game": hex::encode(id),
        "head": {"seq": head.seq, "hash": hex::encode(head.hash)},
        "bodies": [body],
        "committee": committee_json(&standing),
    }))
}

/// A game's appeals committee as its chain has made it: `members`,
/// `reserves`, `coopted` (`{"role", "name", "key"}`), `recused` and
/// `sitting` (keys), or null before it is formed.
fn committee_json(standing: &kifu_ledger::Standing) -> Value {
    match &standing.committee {
        None => Value::Null,
        Some(c) => json!({
            "members": c.members,
            "reserves": c.reserves,
            "coopted": c.coopted,
            "recused": c.recused,
            "sitting": standing.sitting(),
        }),
    }
}
