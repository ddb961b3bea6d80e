//! Rendering records for people and for scripts.

use kifu_ledger::{Body, Hash, Record};
use serde_json::Value;

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

/// One record as a JSON object (see `kifu_game::document::record_json`).
pub fn record_json(game: &Hash, record: &Record) -> Value {
    kifu_game::document::record_json(game, record)
}

/// A one-line human summary of a body (the game projection's wording),
/// its points labelled as the game's board labels them.
pub fn describe(body: &Body, notation: &kifu_game::Notation) -> String {
    kifu_game::story::describe(body, notation)
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
