//! The referee's console: `GET /referee` (the page, `web/referee.*`),
//! `GET /referee/games?key=HEX` (the boards whose roster names the key,
//! each with its clocks, flags, calls and disputes, newest first) and
//! `GET /games/{id}/powers?key=HEX` (what the key may sign at the head,
//! with the clause: [`kifu_game::powers`]). The page decides no rule: it
//! offers the forms of the powers listed here, and previews every draft
//! (`POST /games/{id}/preview`) before the referee signs it.

use std::sync::Arc;

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
            let (game, records) = load(&app, &id)?;
            let events = decoded(&records);
            let state = GameState::replay(&events);
            let open: Vec<&kifu_game::record::Dispute> = state
                .disputes
                .iter()
                .filter(|d| d.status == kifu_game::record::DisputeStatus::Open)
                .collect();
            let mut v = summary(&app, &game)?;
            v["roles"] = g["roles"].clone();
            v["clock"] = serde_json::to_value(&state.clock).unwrap_or(Value::Null);
            v["time_control"] =
                serde_json::to_value(state.genesis.as_ref().map(|g| &g.time_control))
                    .unwrap_or(Value::Null);
            v["flags"] = serde_json::to_value(&state.clock.flags).unwrap_or(Value::Null);
            v["disputes"] = serde_json::to_value(&open).unwrap_or(Value::Null);
            v["called"] = json!(open.iter().any(|d| d.referee_called));
            out.push(v);
        }
        out.sort_by_key(|v| std::cmp::Reverse(v["last_at_ms"].as_u64().unwrap_or(0)));
        Ok(Json(json!({ "key": key, "games": out })))
    })
    .await
}

/// `GET /games/{id}/powers?key=HEX`: the key's roles in the game now and
/// each power a console offers, `allowed` or `refused` in words, with the
/// clause (`rule`, `quote`).
pub async fn powers(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<KeyQuery>,
) -> Result<Json<Value>, ApiError> {
    let key = key_of(&q)?;
    blocking(move || {
        let (game, records) = load(&app, &id)?;
        let events = decoded(&records);
        let roles = kifu_ledger::Standing::replay(&events)
            .map(|s| s.roles_of(&key))
            .unwrap_or_default();
        let powers = kifu_game::powers::powers(&events, &key);
        Ok(Json(json!({
            "game": hex::encode(game),
            "key": key,
            "head": events.last().map(|e| e.seq),
            "roles": roles,
            "powers": powers,
        })))
    })
    .await
}
