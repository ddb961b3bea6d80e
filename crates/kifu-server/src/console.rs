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
use kifu_game::state::GameState;
use kifu_ledger::PublicKey;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::{blocking, decoded, load, summary};
use crate::error::ApiError;
use crate::App;

/// `?key=HEX`.
#[derive(Debug, Deserialize)]
pub struct KeyQuery {
    key: String,
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
/// awaited, and the `time_control`.
pub async fn games(
    State(app): State<Arc<App>>,
    Query(q): Query<KeyQuery>,
) -> Result<Json<Value>, ApiError> {
    let key = key_of(&q)?;
    blocking(move || {
        let mut out = Vec::new();
        for g in crate::device::games_of(&app, &key)? {
            let id = g["game"].as_str().unwrap_or_default().to_string();
            let head = g["head"]["hash"].as_str().unwrap_or_default().to_string();
            let mut v = match cached(&head) {
                Some(v) => v,
                None => {
                    let game = app.store.resolve(&id)?;
                    // The summary first: it takes the game's projection
                    // itself, which is not held twice.
                    let summary = serde_json::to_value(summary(&app, &game)?).unwrap_or_default();
                    let projection = app.projections.current(&app.store, &game)?;
                    let p = projection.lock().unwrap_or_else(|p| p.into_inner());
                    let v = board(summary, &p.state);
                    keep(head, &v);
                    v
                }
            };
            v["roles"] = g["roles"].clone();
            out.push(v);
        }
        out.sort_by_key(|v| std::cmp::Reverse(v["last_at_ms"].as_u64().unwrap_or(0)));
        Ok(Json(json!({ "key": key, "games": out })))
    })
    .await
}

/// A board as the overview shows it: the summary with the projection's
/// clock, time control, flags fallen (`{"player", "at_ms"}`), open disputes and whether the referee is
/// called.
fn board(mut v: Value, state: &GameState) -> Value {
    let open: Vec<&kifu_game::record::Dispute> = state
        .disputes
        .iter()
        .filter(|d| d.status == kifu_game::record::DisputeStatus::Open)
        .collect();
    v["clock"] = serde_json::to_value(&state.clock).unwrap_or(Value::Null);
    v["time_control"] = serde_json::to_value(state.genesis.as_ref().map(|g| &g.time_control))
        .unwrap_or(Value::Null);
    // The flags the clock recorded, and the running side's when the
    // projection leaves it no time at the head.
    let mut flags: Vec<Value> = state
        .clock
        .flags
        .iter()
        .map(|f| json!({"player": f.player, "at_ms": f.at_ms}))
        .collect();
    if let (Some(running), Some(left)) = (state.clock.running, state.clock.remaining_ms) {
        let (i, name) = match running {
            kifu_ledger::Color::Black => (0, "black"),
            kifu_ledger::Color::White => (1, "white"),
        };
        if left[i] == 0 && !flags.iter().any(|f| f["player"] == name) {
            flags.push(json!({"player": name, "at_ms": state.clock.flag_at_ms}));
        }
    }
    v["flags"] = Value::Array(flags);
    v["disputes"] = serde_json::to_value(&open).unwrap_or(Value::Null);
    v["called"] = json!(open.iter().any(|d| d.referee_called));
    v
}

/// Boards already projected, by the hash of their head (a head's hash
/// names the whole chain before it, so an entry is never stale): consoles
/// reading their boards again, when the feed names one, project only
/// those that moved. Bounded:
/// emptied when it reaches [`CACHED_BOARDS`].
static BOARDS: Mutex<Option<HashMap<String, Value>>> = Mutex::new(None);

/// The most boards [`BOARDS`] keeps.
const CACHED_BOARDS: usize = 4096;

fn cached(head: &str) -> Option<Value> {
    BOARDS.lock().ok()?.as_ref()?.get(head).cloned()
}

fn keep(head: String, v: &Value) {
    if let Ok(mut c) = BOARDS.lock() {
        let map = c.get_or_insert_with(HashMap::new);
        if map.len() >= CACHED_BOARDS {
            map.clear();
        }
        map.insert(head, v.clone());
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
