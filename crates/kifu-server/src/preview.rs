//! `POST /games/{id}/preview`: a draft event projected at the game's head
//! without storing anything ([`kifu_game::preview`]). A board device asks
//! it before a player confirms a move the rules call illegal; a referee
//! console before signing a judgement.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use kifu_ledger::{Body, Event, PublicKey};
use serde::Deserialize;
use serde_json::Value;

use crate::api::blocking;
use crate::error::ApiError;
use crate::App;

/// The draft: what the device would sign.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Draft {
    /// The body, in the JSON of `docs/FORMAT.md` section 4.
    #[schemars(with = "kifu_game::document::EventBody")]
    pub body: Body,
    /// The key that would sign it (hex).
    #[schemars(with = "String")]
    pub signer: PublicKey,
    /// The instant the signer would state (default: the head's).
    pub at_ms: Option<u64>,
}

/// `POST /games/{id}/preview`: `{"body", "signer", "at_ms"?}` → what the
/// projection draws with the draft appended at the head: `seq`, `kind`,
/// `refused` (why the server would refuse it from that signer, or null),
/// `illegal_move`, `irregular_move`, `forbidden`, `consequences` (each with `what`, `rule`,
/// `quote`), and `text`, `view`, `board_view` of the state after it.
pub async fn preview(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let draft: Draft = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad_request(
            "bad_json",
            format!("a draft is {{\"body\", \"signer\", \"at_ms\"}}: {e}"),
        )
    })?;
    blocking(move || {
        let game = app.store.resolve(&id)?;
        let head = app.store.head(&game)?.ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "unknown_game",
                format!("no game {id}"),
            )
        })?;
        let records = app.store.read(&game, 0, Some(head.seq))?;
        let events: Vec<Event> = records.iter().filter_map(|r| r.decode().ok()).collect();
        let at_ms = draft
            .at_ms
            .unwrap_or_else(|| events.last().map(|e| e.at_ms).unwrap_or(0));
        let event = Event {
            version: 1,
            chain: game,
            seq: head.seq + 1,
            prev_hash: head.hash,
            at_ms,
            signer: draft.signer,
            body: draft.body,
        };
        let p = kifu_game::preview::preview(&events, &event);
        let v = serde_json::to_value(p.document(&game, &head.hash)).unwrap_or(Value::Null);
        Ok(Json(v))
    })
    .await
}
