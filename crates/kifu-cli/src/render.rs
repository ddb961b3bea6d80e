//! Rendering records for people and for scripts.

use kifu_ledger::{human_kind_name, Body, Hash, Record};
use serde_json::{json, Value};

/// A short id: the first 12 hex digits.
pub fn short(h: &Hash) -> String {
    hex::encode(&h[..6])
}

/// One record as a JSON object: envelope, body, and the raw bytes and
/// signature in hex so a consumer can verify it independently.
/// `n` with its noun, singular or plural: "1 game", "2 games".
pub fn count(n: impl TryInto<u64>, noun: &str) -> String {
    let n: u64 = n.try_into().unwrap_or(u64::MAX);
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub fn record_json(game: &Hash, record: &Record) -> Value {
    let hash = record.hash();
    match record.header() {
        Ok(h) => {
            let body = record.decode().ok().map(|e| e.body);
            json!({
                "game": hex::encode(game),
                "seq": h.seq,
                "hash": hex::encode(hash),
                "prev_hash": hex::encode(h.prev_hash),
                "at_ms": h.at_ms,
                "signer": h.signer.to_hex(),
                "kind": human_kind_name(h.kind),
                "kind_index": h.kind,
                "body": body.map(|b| serde_json::to_value(b).unwrap_or(Value::Null)),
                "event_bytes": hex::encode(&record.event_bytes),
                "signature": hex::encode(record.signature),
            })
        }
        Err(e) => json!({
            "game": hex::encode(game),
            "hash": hex::encode(hash),
            "error": e.to_string(),
        }),
    }
}

/// A one-line human summary of a body (the game projection's wording).
pub fn describe(body: &Body) -> String {
    kifu_game::story::describe(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(count(0, "game"), "0 games");
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(63, "event"), "63 events");
        let as_point = kifu_ledger::Point { x: 0, y: 18 };
        assert_eq!(kifu_game::sgf_point(as_point), "as");
    }
}
