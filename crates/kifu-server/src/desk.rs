//! The director's desk: `GET /director` (the page, `web/director.*`),
//! `GET /director/tournaments?key=HEX` (the tournaments whose genesis names
//! the key as director), `GET /tournaments/{t}/desk?round=N` (what the desk
//! shows: the chain's head, officials, players, the round's boards with
//! the results their games' own records state and the checkpoints due) and
//! `POST /director/draft` (what the director typed, as the facts to sign:
//! read by `kifu_tournament::entry` and `settings` and checked against the
//! tournament by its projection, so a refusal is said in words before
//! anything is signed). The page signs each fact with its own key and
//! submits it to `POST /tournaments[/{t}/records]`, where it is checked
//! again. The page holds no rule.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use kifu_ledger::{Body, Checkpoint, Participant, PublicKey, Registration, Role};
use kifu_store::tournaments;
use kifu_tournament::choices::{Choices, DIRECTOR_NAME};
use kifu_tournament::settings;
use kifu_tournament::{board_game, checkpoints, entry, hall, opengotha, Chain};
use serde::Deserialize;
use serde_json::{json, Value};

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
    serde_json::from_value(json!(hex_key.trim())).map_err(|e| {
        ApiError::bad_request(
            "bad_key",
            format!("a key is the official's public key in hex: {e}"),
        )
    })
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

/// True when a device's `tournament` names this one: its short name, its
/// full name (as people type it: case and surrounding blanks ignored), or
/// 16 or more hex digits of its id.
fn names_tournament(chain: &Chain, named: &str) -> bool {
    let t = &chain.projection.genesis;
    let n = named.trim();
    n == t.short_name
        || n.eq_ignore_ascii_case(t.short_name.trim())
        || n.eq_ignore_ascii_case(t.name.trim())
        || (n.len() >= 16 && hex::encode(chain.id()).starts_with(&n.to_ascii_lowercase()))
}

/// Every device request waiting (no game at its place names its key), with what the
/// desk makes of it for this tournament: `matches` is `board` (it asks for
/// a board of the round shown), `other_round`, `no_board` (this tournament,
/// no such board in the round) or `other_tournament` (a name this
/// tournament does not answer to, or none).
fn waiting_devices(app: &App, chain: &Chain, round: u32) -> Result<Vec<Value>, ApiError> {
    let p = &chain.projection;
    let mut out = Vec::new();
    for r in app.devices.all() {
        if r.seat.role == Role::Referee
            || !crate::device::waiting(&r, &crate::device::games_of(app, &r.seat.key)?)
        {
            continue;
        }
        let ours = r
            .seat
            .tournament
            .as_deref()
            .is_some_and(|n| names_tournament(chain, n));
        let matches = match (ours, r.seat.round, r.seat.board) {
            (false, _, _) => "other_tournament",
            (true, Some(rr), _) if rr != round => "other_round",
            (true, Some(rr), Some(b)) if p.boards.contains_key(&(rr, b)) => "board",
            _ => "no_board",
        };
        out.push(json!({
            "request": r.id,
            "role": r.seat.role,
            "name": r.seat.name,
            "tournament": r.seat.tournament,
            "round": r.seat.round,
            "board": r.seat.board,
            "fingerprint": r.seat.fingerprint(),
            "matches": matches,
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

/// The JSON of a registration (`kifu_ledger::Registration`), for the
/// schema of [`Intent::Register`].
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct RegistrationJson {
    /// Registration id, unique in the tournament (`P1`, an EGD PIN...).
    id: String,
    /// Family name.
    surname: String,
    /// Given name.
    given: String,
    /// Declared rank (`2d`, `5k`).
    rank: String,
    /// Rating, 0 if unknown.
    rating: i32,
    /// Two-letter country code.
    country: String,
    /// Club.
    club: String,
    /// EGD PIN.
    egd_pin: String,
    /// AGA ID.
    aga_id: String,
    /// Correction to the starting McMahon score.
    smms_correction: i32,
    /// The player's key (hex), if the player signs games.
    key: Option<String>,
}

/// An official named in a new tournament: `{"name", "key"}`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Official {
    name: String,
    key: String,
}

/// What the director typed: `{"do": "...", ...}`. One is read per request
/// and dropped: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Intent {
    /// A new tournament, the page's key its director.
    Create {
        /// The director's key, hex.
        director_key: String,
        /// The director's name.
        #[serde(default)]
        director_name: String,
        /// Full name.
        name: String,
        /// Short name.
        #[serde(default)]
        short_name: String,
        /// Rounds.
        rounds: u32,
        /// Pairing system.
        #[serde(default)]
        system: String,
        /// Time control text (`canadian:60m+15/5m`).
        #[serde(default)]
        time: String,
        /// Komi (`7.5`).
        #[serde(default)]
        komi: String,
        /// City.
        #[serde(default)]
        city: String,
        /// Country code.
        #[serde(default)]
        country: String,
        /// First day.
        #[serde(default)]
        start: String,
        /// Last day.
        #[serde(default)]
        finish: String,
        /// Referees.
        #[serde(default)]
        referees: Vec<Official>,
        /// Appeals committee.
        #[serde(default)]
        committee: Vec<Official>,
        /// McMahon bar (empty: the default).
        #[serde(default)]
        bar: String,
        /// McMahon floor.
        #[serde(default)]
        floor: String,
        /// Placement criteria, `MMS,SOSM,SOSOSM`.
        #[serde(default)]
        criteria: String,
        /// NBW half points for a bye.
        #[serde(default)]
        bye_nbw: String,
        /// MMS half points for a bye.
        #[serde(default)]
        bye_mms: String,
        /// NBW half points for an absent round.
        #[serde(default)]
        absent_nbw: String,
        /// MMS half points for an absent round.
        #[serde(default)]
        absent_mms: String,
        /// Round bye and absence points down.
        #[serde(default)]
        round_down: Option<bool>,
        /// Opponents' unplayed rounds as ½ in SOS.
        #[serde(default)]
        unplayed_as_half: Option<bool>,
        /// The game (`go`, `renju`).
        #[serde(default)]
        game: String,
        /// The games' ruleset profile.
        #[serde(default)]
        ruleset: String,
        /// EGF class.
        #[serde(default)]
        egf_class: String,
        /// EGF adjusted time, minutes.
        #[serde(default)]
        adjusted_time: Option<u32>,
        /// Handicap reduction for the EGD file.
        #[serde(default)]
        handicap_reduction: Option<u32>,
        /// The tournament's time zone, an IANA name (empty: none stated).
        #[serde(default)]
        time_zone: String,
    },
    /// A new tournament from an OpenGotha tournament file, the page's key
    /// its director: its genesis, then every registration, absence,
    /// pairing, result and bye the file holds.
    ImportOpengotha {
        /// The director's key, hex.
        director_key: String,
        /// The director's name.
        #[serde(default)]
        director_name: String,
        /// The file's text.
        xml: String,
    },
    /// A round's pairings and byes as an OpenGotha tournament file has
    /// them (the file of this tournament: its players' ids are the ones
    /// OpenGotha's import gave them).
    PairOpengotha {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// The file's text.
        xml: String,
    },
    /// Register a player, or correct a registration.
    Register {
        /// The tournament.
        tournament: String,
        /// A correction of an existing registration.
        #[serde(default)]
        correct: bool,
        /// The registration.
        #[schemars(with = "RegistrationJson")]
        player: Registration,
    },
    /// A player absent (or withdrawn from) a round.
    Absent {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Registration id.
        player: String,
        /// `late`, `skip`, `withdrawal`, `sanction`.
        reason: String,
    },
    /// The bye.
    Bye {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Registration id.
        player: String,
    },
    /// A round's pairing as text (`board white black [handicap] [?]`).
    Pair {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// The pairing text.
        text: String,
        /// No line's colours were noted.
        #[serde(default)]
        colours_unknown: bool,
    },
    /// The round drawn by the pairing engine from the chain, changed by
    /// the director's swaps (each with its reason): the facts to sign
    /// (the boards, the bye, `round_drawn`) and, in `draw`, why each board
    /// is paired as it is.
    PairAuto {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// The swaps, in order.
        #[serde(default)]
        swaps: Vec<kifu_ledger::DrawSwap>,
    },
    /// A board's result entered by an official.
    Result {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// `W+`, `B+`, `jigo`, ...
        result: String,
        /// Decided by default.
        #[serde(default)]
        by_default: bool,
        /// Why, in words.
        reason: String,
    },
    /// The genesis of every game of the round not yet in the store, each
    /// naming the devices waiting for its seats and the tournament's
    /// officials.
    Games {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Players' device requests the director did not confirm (their
        /// fingerprints did not match the devices'): left out.
        #[serde(default)]
        exclude: Vec<String>,
        /// Board recorders' device requests the director confirmed: a
        /// recorder is enrolled only when ticked (a recorder signs for both
        /// players, so its seat is never given by default).
        #[serde(default)]
        recorders: Vec<String>,
    },
    /// A game's appeals committee formed from the tournament's committee
    /// (the first three as members, the others as reserves, in the
    /// genesis's order), signed by `signer`.
    Committee {
        /// The game (id or prefix).
        game: String,
        /// The key that will sign, hex.
        signer: String,
    },
    /// A member of a game's committee recused.
    Recuse {
        /// The game.
        game: String,
        /// The key that will sign, hex.
        signer: String,
        /// The member's key, hex.
        member: String,
        /// Why.
        reason: String,
    },
    /// A person co-opted to a game's committee to make up three.
    Coopt {
        /// The game.
        game: String,
        /// The key that will sign, hex.
        signer: String,
        /// Their name.
        name: String,
        /// Their key, hex.
        key: String,
    },
    /// The checkpoints of the round's finished games (or of one board).
    Checkpoint {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Only this board.
        board: Option<u32>,
    },
    /// The start of the round (LGC 2023, "Start"): Black's clock started
    /// in every game of the round not started yet, each signed by `signer`
    /// at its game's head.
    StartRound {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
    },
}

fn refused(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "tournament_refused",
        format!("{e}; nothing signed"),
    )
}

/// The director a new tournament names: the page's key, under `name`
/// ([`DIRECTOR_NAME`] when none is given, as `kifu tournament new`).
fn director(key: &str, name: String) -> Result<Participant, ApiError> {
    Ok(Participant {
        role: Role::Director,
        name: if name.trim().is_empty() {
            DIRECTOR_NAME.into()
        } else {
            name
        },
        key: key_of(key)?,
    })
}

fn officials(role: Role, list: Vec<Official>) -> Result<Vec<Participant>, ApiError> {
    list.into_iter()
        .map(|o| {
            Ok(Participant {
                role,
                name: o.name,
                key: key_of(&o.key)?,
            })
        })
        .collect()
}

/// The genesis a `create` intent describes.
#[allow(clippy::too_many_arguments)]
fn genesis_of(intent: Intent) -> Result<Value, ApiError> {
    let Intent::Create {
        director_key,
        director_name,
        name,
        short_name,
        rounds,
        system,
        time,
        komi,
        city,
        country,
        start,
        finish,
        referees,
        committee,
        bar,
        floor,
        criteria,
        bye_nbw,
        bye_mms,
        absent_nbw,
        absent_mms,
        round_down,
        unplayed_as_half,
        game,
        ruleset,
        egf_class,
        adjusted_time,
        handicap_reduction,
        time_zone: _,
    } = intent
    else {
        return Err(ApiError::bad_request("bad_intent", "not a creation"));
    };
    let mut people = vec![director(&director_key, director_name)?];
    people.extend(officials(Role::Referee, referees)?);
    people.extend(officials(Role::Committee, committee)?);
    let some = |s: String| (!s.trim().is_empty()).then(|| s.trim().to_string());
    let choices = Choices {
        name: Some(name),
        short_name: some(short_name),
        rounds: Some(rounds),
        system: some(system),
        time: some(time),
        komi: some(komi),
        city: Some(city),
        country: Some(country),
        start: Some(start),
        finish: Some(finish),
        bar: some(bar),
        floor: some(floor),
        criteria: some(criteria),
        bye_nbw: some(bye_nbw),
        bye_mms: some(bye_mms),
        absent_nbw: some(absent_nbw),
        absent_mms: some(absent_mms),
        round_down,
        unplayed_as_half,
        game: some(game),
        ruleset: some(ruleset),
        egf_class: some(egf_class),
        adjusted_time,
        handicap_reduction,
        ..Choices::default()
    };
    let n = choices.new_tournament(people).map_err(refused)?;
    let g = settings::genesis(n).map_err(refused)?;
    Ok(json!({ "tournament_created": g }))
}

/// `POST /director/draft`: the facts what the director typed states, in
/// order (`{"bodies": [body, ...]}`, each as `docs/FORMAT.md` writes a body
/// in JSON), each checked against the tournament as it would stand after
/// the ones before it; or a refusal in words (422 `tournament_refused`,
/// `... nothing signed`). For `create`, `{"bodies": [genesis]}`.
pub async fn draft(
    State(app): State<Arc<App>>,
    Json(intent): Json<Intent>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let (t, bodies) = match intent {
            c @ Intent::Create { .. } => {
                // The time zone, when given, is stated right after the
                // genesis (docs/FORMAT.md section 10, `time_zone_stated`).
                let zone = match &c {
                    Intent::Create { time_zone, .. } => time_zone.trim().to_string(),
                    _ => String::new(),
                };
                let mut bodies = vec![genesis_of(c)?];
                if !zone.is_empty() {
                    kifu_tournament::check_time_zone(&zone).map_err(refused)?;
                    bodies.push(json!({ "time_zone_stated": { "zone": zone } }));
                }
                return Ok(Json(json!({ "bodies": bodies })));
            }
            Intent::ImportOpengotha {
                director_key,
                director_name,
                xml,
            } => {
                let imported =
                    opengotha::import(&xml, vec![director(&director_key, director_name)?])
                        .map_err(refused)?;
                // Checked as the chain will check them once signed.
                imported.check().map_err(refused)?;
                let mut bodies = vec![Body::TournamentCreated(imported.genesis)];
                bodies.extend(imported.facts);
                return Ok(Json(json!({ "bodies": bodies })));
            }
            Intent::PairOpengotha {
                tournament,
                round,
                xml,
            } => {
                let imported = opengotha::import(&xml, vec![]).map_err(refused)?;
                let of_round = imported.round(round);
                if of_round.is_empty() {
                    return Err(refused(format!(
                        "the OpenGotha file pairs nobody in round {round}"
                    )));
                }
                (tournament, of_round)
            }
            Intent::Register {
                tournament,
                correct,
                player,
            } => {
                let b = if correct {
                    Body::RegistrationCorrected(player)
                } else {
                    Body::PlayerRegistered(player)
                };
                (tournament, vec![b])
            }
            Intent::Absent {
                tournament,
                round,
                player,
                reason,
            } => {
                let reason = entry::absence_reason(&reason).map_err(refused)?;
                (
                    tournament,
                    vec![Body::PlayerAbsent {
                        round,
                        player,
                        reason,
                    }],
                )
            }
            Intent::Bye {
                tournament,
                round,
                player,
            } => (tournament, vec![Body::ByeGiven { round, player }]),
            Intent::Pair {
                tournament,
                round,
                text,
                colours_unknown,
            } => {
                let b = entry::pairing_text(&text, round, colours_unknown).map_err(refused)?;
                let most = app.limits.max_records_per_request;
                if b.len() > most {
                    return Err(refused(format!(
                        "{} boards in one pairing; at most {most} are drafted at once",
                        b.len()
                    )));
                }
                (tournament, b)
            }
            Intent::PairAuto {
                tournament,
                round,
                swaps,
            } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                let p = kifu_tournament::draw::propose(&chain.projection, round, &swaps)
                    .map_err(refused)?;
                let bodies = kifu_tournament::draw::facts(&p);
                if bodies.is_empty() {
                    return Err(refused(format!("round {round}: nobody is left to pair")));
                }
                let most = app.limits.max_records_per_request;
                if bodies.len() > most {
                    return Err(refused(format!(
                        "{} facts for one round; at most {most} are drafted at once",
                        bodies.len()
                    )));
                }
                let mut next = chain.projection.clone();
                next.apply_all(&bodies).map_err(refused)?;
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
            } => {
                let result = entry::result_word(&result).map_err(refused)?;
                let reason = if reason.trim().is_empty() {
                    entry::OFFICIAL_RESULT_REASON.to_string()
                } else {
                    reason
                };
                (
                    tournament,
                    vec![Body::BoardResultEntered {
                        round,
                        board,
                        result,
                        by_default,
                        reason,
                    }],
                )
            }
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
                    Ok(Body::MemberRecused { member, reason })
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
                return game_draft(&app, &game, &signer, move |_| {
                    Ok(Body::MemberCoopted {
                        member: Participant {
                            role: Role::Committee,
                            name,
                            key,
                        },
                    })
                })
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
                    return Err(refused(format!(
                        "round {round}: no game of the round waits for its start (every game is started, finished, or not created yet)"
                    )));
                }
                return Ok(Json(json!({ "games": games })));
            }
            Intent::Checkpoint {
                tournament,
                round,
                board,
            } => {
                let chain = load(app.tournaments.data(), &tournament)?;
                // One board: its finished game, as the director confirms
                // it; the whole round: the finished games whose boards no
                // official's entry decided, as `kifu tournament` checkpoints
                // them after a director's fact.
                let due: Vec<Body> = games_of_round(&app, &chain, round, &mut BTreeMap::new())?
                    .into_values()
                    .map(|g| g.checkpoint)
                    .filter(|c| board.is_none_or(|b| b == c.board))
                    .filter(|c| c.result.is_some())
                    .filter(|c| checkpoints::is_due(&chain, c, board.is_none()))
                    .map(Body::GameCheckpointed)
                    .collect();
                if due.is_empty() {
                    return Err(refused(format!(
                        "round {round}: no finished game {}waits for its checkpoint",
                        board.map(|b| format!("on board {b} ")).unwrap_or_default()
                    )));
                }
                (tournament, due)
            }
        };
        let chain = load(app.tournaments.data(), &t)?;
        let mut next = chain.projection.clone();
        next.apply_all(&bodies).map_err(refused)?;
        Ok(Json(json!({
            "tournament": hex::encode(chain.id()),
            "head": {"seq": chain.head().seq, "hash": hex::encode(chain.head().hash)},
            "bodies": bodies,
        })))
    })
    .await
}

/// The genesis of each game of `round` not yet in the store: the
/// tournament's game, ruleset, time control and komi (the profile's for a
/// handicap game: `kifu_tournament::games::board_genesis`), the board's pairing (its handicap, its players' seats
/// held by the device waiting for each, else by the key the player's
/// registration names; a seat two devices ask for is not given: the
/// director keeps one), every device waiting as the board's recorder
/// (but those in `exclude`: requests the director did not confirm), and
/// the tournament's director, referees and committee. A board whose player
/// has no key is named with the reason, and no game is drafted for it.
fn round_games(
    app: &App,
    chain: &Chain,
    round: u32,
    exclude: &[String],
    recorders: &[String],
) -> Result<Value, ApiError> {
    let p = &chain.projection;
    let t = &p.genesis;
    let existing = games_of_round(app, chain, round, &mut BTreeMap::new())?;
    let exclude: std::collections::HashSet<&str> = exclude.iter().map(String::as_str).collect();
    let waiting: Vec<crate::device::DeviceRequest> = app
        .devices
        .all()
        .into_iter()
        .filter(|r| {
            !exclude.contains(r.id.as_str())
                && r.seat.round == Some(round)
                && r.seat
                    .tournament
                    .as_deref()
                    .is_some_and(|n| names_tournament(chain, n))
        })
        .collect();
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    for ((_, board), b) in p.boards.range((round, 0)..=(round, u32::MAX)) {
        if existing.contains_key(&(round, *board)) || b.pairing.game.is_some() {
            continue;
        }
        let here: Vec<&crate::device::DeviceRequest> = waiting
            .iter()
            .filter(|r| r.seat.board == Some(*board))
            .collect();
        let mut roster = Vec::new();
        let mut devices = Vec::new();
        let mut missing = None;
        let ticked = |d: &&&crate::device::DeviceRequest| recorders.contains(&d.id);
        // A board recorder the director ticked signs for both players: a
        // player with no key of their own is seated with the board's unheld
        // key (`kifu_ledger::unheld`), which no device holds.
        let recorded = here
            .iter()
            .any(|r| r.seat.role == Role::Recorder && ticked(&r));
        let place = kifu_ledger::unheld::board_place(&t.short_name, round, *board);
        for (role, who) in [
            (Role::Black, &b.pairing.black),
            (Role::White, &b.pairing.white),
        ] {
            let reg = p.player(who);
            let name = reg
                .map(|r| format!("{} {}", r.surname, r.given).trim().to_string())
                .unwrap_or_else(|| who.clone());
            let asking: Vec<&&crate::device::DeviceRequest> =
                here.iter().filter(|r| r.seat.role == role).collect();
            let registered = reg.and_then(|r| r.key);
            for d in &asking {
                // The key the registration names holds the seat; a device
                // asking for it is listed, not enrolled.
                let held = registered.is_none_or(|k| k == d.seat.key);
                devices.push(json!({"request": d.id, "role": role, "name": d.seat.name, "fingerprint": d.seat.fingerprint(), "enrolled": held}));
            }
            match (asking.as_slice(), registered) {
                (_, Some(key)) => roster.push(Participant { role, name, key }),
                ([d], None) => roster.push(Participant {
                    role,
                    name,
                    key: d.seat.key,
                }),
                ([], None) if recorded => roster.push(Participant {
                    role,
                    name,
                    key: kifu_ledger::unheld::unheld_key(&place, role),
                }),
                ([], None) => {
                    missing.get_or_insert(format!(
                        "board {board}: no device asks for {}'s seat ({who}) and the registration names no key",
                        role.word()
                    ));
                }
                (more, _) => {
                    // Two devices for one seat: the director keeps one.
                    missing.get_or_insert(format!(
                        "board {board}: {} devices ask for {}'s seat ({}): keep the one whose fingerprint the player's device shows",
                        more.len(),
                        role.word(),
                        more.iter()
                            .map(|d| d.seat.fingerprint())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        for d in here.iter().filter(|r| r.seat.role == Role::Recorder) {
            devices.push(json!({"request": d.id, "role": Role::Recorder, "name": d.seat.name, "fingerprint": d.seat.fingerprint(), "enrolled": ticked(&d)}));
        }
        if let Some(why) = missing {
            // No tablet at all at the board: a paper board, not a fault (its
            // result is entered from the result sheet).
            if here.is_empty() {
                skipped.push(json!({"board": board, "paper": true, "devices": devices,
                    "reason": format!("board {board}: no tablet asks for it: a paper board, its result entered from the result sheet")}));
            } else {
                skipped.push(
                    json!({"board": board, "paper": false, "reason": why, "devices": devices}),
                );
            }
            continue;
        }
        let recorders = here
            .iter()
            .filter(|r| r.seat.role == Role::Recorder)
            .filter(ticked)
            .map(|d| Participant {
                role: Role::Recorder,
                name: d.seat.name.clone(),
                key: d.seat.key,
            })
            .collect();
        let g = kifu_tournament::games::board_genesis(chain, round, *board, roster, recorders)
            .map_err(refused)?;
        games.push(json!({
            "board": board,
            "body": Body::GameCreated(g),
            "devices": devices,
        }));
    }
    if games.is_empty() {
        let why: Vec<String> = skipped
            .iter()
            .filter_map(|s| s["reason"].as_str().map(str::to_string))
            .collect();
        return Err(refused(if why.is_empty() {
            format!("round {round}: every paired board has its game")
        } else {
            why.join("; ")
        }));
    }
    Ok(json!({ "games": games, "skipped": skipped }))
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
