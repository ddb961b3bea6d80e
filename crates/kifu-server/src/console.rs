//! The referee's console: `GET /referee` (the page, `web/referee.*`),
//! `GET /referee/games?key=HEX` (the boards whose roster names the key,
//! each with its clocks, flags, calls and disputes, newest first) and
//! `GET /games/{id}/powers?key=HEX` (what the key may sign at the head,
//! with the clause: [`kifu_game::powers`]). The page decides no rule: it
//! offers the forms of the powers listed here, and previews every draft
//! (`POST /games/{id}/preview`) before the referee signs it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Json;
use kifu_game::document::GameSummary;
use kifu_game::record::{Dispute, DisputeStatus};
use kifu_game::state::{ClockState, GameState};
use kifu_ledger::{Color, PublicKey, Role, TimeControl};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::api::{blocking, decoded, load, with_state};
use crate::error::ApiError;
use crate::App;

/// `?key=HEX`.
#[derive(Debug, Deserialize)]
pub struct KeyQuery {
    key: String,
}

/// `?key=HEX[&games=ID,ID...]`.
#[derive(Debug, Deserialize)]
pub struct OverviewQuery {
    key: String,
    games: Option<String>,
}

/// The most games one overview read may name.
const MOST_NAMED: usize = 1000;

/// The games `?games=` names (lower-case hex ids or prefixes), or `None`
/// for every game.
fn named(games: Option<&str>) -> Result<Option<Vec<String>>, ApiError> {
    let Some(list) = games else { return Ok(None) };
    let ids: Vec<String> = list
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    if ids.len() > MOST_NAMED
        || ids
            .iter()
            .any(|s| s.len() > 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(ApiError::bad_request(
            "bad_request",
            format!(
                "games is at most {MOST_NAMED} game ids (hex, or their prefixes), comma-separated"
            ),
        ));
    }
    Ok(Some(ids))
}

fn key_of(q: &KeyQuery) -> Result<PublicKey, ApiError> {
    serde_json::from_value(json!(q.key.trim())).map_err(|e| {
        ApiError::bad_request(
            "bad_key",
            format!("key is the official's public key in hex: {e}"),
        )
    })
}

/// `GET /referee`: the referee's console.
pub async fn page() -> Response {
    crate::web::serve("referee.html")
}

/// `GET /referee/games?key=HEX`: every game whose roster names the key now,
/// newest activity first, each with its summary, the key's `roles`, the
/// projection's `clock` (as `GET /games/{id}/state` gives it), `flags`
/// fallen, open `disputes`, whether the referee is `called` and is
/// awaited, and the `time_control` ([`RefereeGames`]). With
/// `&games=ID,ID...` only those of them: a console following the feed
/// reads again only the boards it heard of, not the whole hall.
pub async fn games(
    State(app): State<Arc<App>>,
    Query(q): Query<OverviewQuery>,
) -> Result<Json<Value>, ApiError> {
    let key = key_of(&KeyQuery { key: q.key })?;
    let only = named(q.games.as_deref())?;
    blocking(move || {
        let mut games = Vec::new();
        for g in crate::device::games_of(&app, &key)? {
            let id = g["game"].as_str().unwrap_or_default().to_string();
            if let Some(only) = &only {
                if !only.iter().any(|p| id.starts_with(p.as_str())) {
                    continue;
                }
            }
            let head = g["head"]["hash"].as_str().unwrap_or_default().to_string();
            let mut b = match cached(&id, &head) {
                Some(b) => b,
                None => {
                    // One board projected at a time, whoever asks: consoles
                    // asking at once (after a restart, every console asks
                    // for its whole overview) go through the boards
                    // together, and each board is projected once, by the
                    // first; the others find it kept.
                    let _turn = PROJECTING.lock().unwrap_or_else(|p| p.into_inner());
                    match cached(&id, &head) {
                        Some(b) => b,
                        None => {
                            let game = app.store.resolve(&id)?;
                            let b = with_state(&app, &game, board)?;
                            keep(id.clone(), head, &b);
                            b
                        }
                    }
                }
            };
            b.roles = serde_json::from_value(g["roles"].clone()).unwrap_or_default();
            games.push(b);
        }
        games.sort_by_key(|b| std::cmp::Reverse(b.summary.last_at_ms.unwrap_or(0)));
        // Through a JSON value, as every answer: keys in order.
        let answer = RefereeGames { key, games };
        Ok(Json(serde_json::to_value(answer).unwrap_or(Value::Null)))
    })
    .await
}

/// Every game whose roster names the key now, newest activity first, for
/// the referee's console (`GET /referee/games?key=HEX`): the summary of
/// `GET /games` with the key's roles, the clock, the flags fallen, the
/// open disputes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RefereeGames {
    /// The official's key.
    pub key: PublicKey,
    /// The games, newest activity first.
    pub games: Vec<RefereeBoard>,
}

/// A board as the referee's overview shows it: the game's summary (`GET
/// /games/{id}`) with the key's roles there, the projection's clock, the
/// time control, the flags fallen, the open disputes and whether the
/// referee is called.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RefereeBoard {
    /// The game's summary, as `GET /games/{id}` answers it.
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The roles the key holds in the game now.
    pub roles: Vec<Role>,
    /// The projection's clocks, as `state.clock` of `GET /games/{id}/state`.
    pub clock: ClockState,
    /// The genesis's time control; null before there is a genesis.
    pub time_control: Option<TimeControl>,
    /// The flags the clock recorded, and the running side's when the
    /// projection leaves it no time at the head.
    pub flags: Vec<RefereeFlag>,
    /// The disputes still open.
    pub disputes: Vec<Dispute>,
    /// Whether an open dispute calls the referee.
    pub called: bool,
}

/// A flag that fell: whose and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RefereeFlag {
    /// Whose flag.
    pub player: Color,
    /// The instant it fell; null when the clock has no such instant.
    pub at_ms: Option<u64>,
}

/// A board as the overview shows it: the summary with the projection's
/// clock, time control, flags fallen, open disputes and whether the referee
/// is called (the key's roles are the caller's to set).
fn board(summary: GameSummary, state: &GameState) -> RefereeBoard {
    let disputes: Vec<Dispute> = (state.disputes.iter())
        .filter(|d| d.status == DisputeStatus::Open)
        .cloned()
        .collect();
    // The flags the clock recorded, and the running side's when the
    // projection leaves it no time at the head.
    let mut flags: Vec<RefereeFlag> = (state.clock.flags.iter())
        .map(|f| RefereeFlag {
            player: f.player,
            at_ms: Some(f.at_ms),
        })
        .collect();
    if let (Some(running), Some(left)) = (state.clock.running, state.clock.remaining_ms) {
        let i = match running {
            Color::Black => 0,
            Color::White => 1,
        };
        if left[i] == 0 && !flags.iter().any(|f| f.player == running) {
            flags.push(RefereeFlag {
                player: running,
                at_ms: state.clock.flag_at_ms,
            });
        }
    }
    RefereeBoard {
        summary,
        roles: Vec::new(),
        clock: state.clock.clone(),
        time_control: state.genesis.as_ref().map(|g| g.time_control),
        flags,
        called: disputes.iter().any(|d| d.referee_called),
        disputes,
    }
}

/// Boards already projected, by game, each with the hash of the head it
/// was projected at (a head's hash names the whole chain before it, so an
/// entry at the game's head is never stale): consoles reading their boards
/// again, when the feed names one, project only those that moved, and a
/// console's whole overview of a ten-round event projects none of the
/// finished games again. One entry a game, replaced as the game moves, so
/// that the games of a whole event fit; bounded by [`CACHED_BOARDS`] (when
/// full, one entry goes: a missing board is projected again).
static BOARDS: Mutex<Option<ByHead<RefereeBoard>>> = Mutex::new(None);

/// Held while a board missing from [`BOARDS`] is projected.
static PROJECTING: Mutex<()> = Mutex::new(());

/// The most boards [`BOARDS`] keeps: every game of a 350-board, ten-round
/// congress several times over (an entry is a few hundred bytes).
const CACHED_BOARDS: usize = 16_384;

/// Values by game, each kept with the head it was made at.
struct ByHead<V> {
    map: HashMap<String, (String, V)>,
    most: usize,
}

impl<V: Clone> ByHead<V> {
    fn new(most: usize) -> ByHead<V> {
        ByHead {
            map: HashMap::new(),
            most: most.max(1),
        }
    }

    /// The value of `game` made at `head`, if that is the one kept.
    fn get(&self, game: &str, head: &str) -> Option<V> {
        let (at, v) = self.map.get(game)?;
        (at == head).then(|| v.clone())
    }

    /// Keeps `v` for `game` at `head`, in place of what was kept for it.
    fn keep(&mut self, game: String, head: String, v: V) {
        if self.map.len() >= self.most && !self.map.contains_key(&game) {
            if let Some(k) = self.map.keys().next().cloned() {
                self.map.remove(&k);
            }
        }
        self.map.insert(game, (head, v));
    }
}

fn cached(game: &str, head: &str) -> Option<RefereeBoard> {
    BOARDS.lock().ok()?.as_ref()?.get(game, head)
}

fn keep(game: String, head: String, v: &RefereeBoard) {
    if let Ok(mut c) = BOARDS.lock() {
        c.get_or_insert_with(|| ByHead::new(CACHED_BOARDS))
            .keep(game, head, v.clone());
    }
}

/// `GET /games/{id}/powers?key=HEX`: the key's roles in the game now and
/// each power a console offers, `allowed` or `refused` in words, with the
/// clause (`rule`, `quote`).
pub async fn powers(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<KeyQuery>,
) -> Result<Json<crate::answers::Powers>, ApiError> {
    let key = key_of(&q)?;
    blocking(move || {
        let (game, records) = load(&app, &id)?;
        let events = decoded(&records);
        let roles = kifu_ledger::Standing::replay(&events)
            .map(|s| s.roles_of(&key))
            .unwrap_or_default();
        let powers = kifu_game::powers::powers(&events, &key);
        Ok(Json(crate::answers::Powers {
            game: hex::encode(game),
            key: key.to_hex(),
            head: events.last().map(|e| e.seq),
            roles,
            powers,
        }))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::ByHead;

    #[test]
    fn a_board_is_kept_once_a_game_and_only_at_its_head() {
        let mut c = ByHead::new(3);
        c.keep("g1".into(), "h1".into(), 1);
        assert_eq!(c.get("g1", "h1"), Some(1));
        // The game moved: its new board replaces the old one.
        c.keep("g1".into(), "h2".into(), 2);
        assert_eq!(c.get("g1", "h1"), None);
        assert_eq!(c.get("g1", "h2"), Some(2));
        assert_eq!(c.map.len(), 1);
        // A game moving a thousand times takes one place, not a thousand.
        for i in 0..1000 {
            c.keep("g2".into(), format!("h{i}"), i);
        }
        assert_eq!(c.map.len(), 2);
        assert_eq!(c.get("g1", "h2"), Some(2));
        // Full: a new game takes the place of one kept.
        c.keep("g3".into(), "h".into(), 3);
        c.keep("g4".into(), "h".into(), 4);
        assert_eq!(c.map.len(), 3);
        assert_eq!(c.get("g4", "h"), Some(4));
    }
}
