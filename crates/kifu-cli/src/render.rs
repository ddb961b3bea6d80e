//! Rendering records for people and for scripts.

use kifu_ledger::{Body, Hash, Record, KIND_NAMES};
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
                "kind": KIND_NAMES.get(h.kind as usize).copied().unwrap_or("unknown"),
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

/// The lines that head a game for a person: the players, the event and
/// round, the game and its ruleset, and an imported record's information.
pub fn game_heading(g: &kifu_ledger::Genesis) -> Vec<String> {
    use kifu_ledger::Role;
    let name = |role: Role| {
        g.holder(role)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "?".to_string())
    };
    let mut lines = vec![format!(
        "{} (Black) vs {} (White)",
        name(Role::Black),
        name(Role::White)
    )];
    if let Some(t) = &g.tournament {
        lines.push(format!(
            "{}, round {}, board {}",
            t.tournament, t.round, t.board
        ));
    }
    let kind = match g.game {
        kifu_ledger::GameKind::Go => "Go",
        kifu_ledger::GameKind::Renju => "Renju",
        kifu_ledger::GameKind::GomokuFreestyle => "Gomoku (freestyle)",
        kifu_ledger::GameKind::GomokuStandard => "Gomoku (standard)",
    };
    lines.push(format!(
        "{kind} {}x{} under {}",
        g.board_size, g.board_size, g.ruleset
    ));
    match kifu_go::sgf::GameInfo::from_sgf_text(&g.title) {
        Some(info) => lines.push(format!("record: {}", info.describe())),
        None if !g.title.is_empty() => lines.push(g.title.clone()),
        None => {}
    }
    lines
}

/// A value's documented snake_case name (as the JSON writes it) in words:
/// `decided_finally` is `decided finally`, `game_forfeit` `game forfeit`.
pub fn word<T: serde::Serialize>(v: &T) -> String {
    let name = match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        Ok(Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    name.replace('_', " ")
}

/// A game phase in words.
pub fn phase_word(p: &kifu_game::record::Phase) -> String {
    use kifu_game::record::Phase;
    match p {
        Phase::NotStarted => "not started".to_string(),
        Phase::Playing => "playing".into(),
        Phase::Paused { reason } => format!("paused ({reason})"),
        Phase::StatusAssessment => "status assessment / counting".into(),
        Phase::Resumption => "resumption".into(),
        Phase::Adjourned => "adjourned".into(),
        Phase::AwaitingReferee => "awaiting the referee".into(),
        Phase::Finished { how } => format!("finished: {how}"),
    }
}

/// A game phase as a snake_case key (for filters and JSON).
pub fn phase_key(p: &kifu_game::record::Phase) -> &'static str {
    use kifu_game::record::Phase;
    match p {
        Phase::NotStarted => "not_started",
        Phase::Playing => "playing",
        Phase::Paused { .. } => "paused",
        Phase::StatusAssessment => "status_assessment",
        Phase::Resumption => "resumption",
        Phase::Adjourned => "adjourned",
        Phase::AwaitingReferee => "awaiting_referee",
        Phase::Finished { .. } => "finished",
    }
}

/// A game kind name (`gomoku_freestyle`) in words.
pub fn game_kind_word(name: &str) -> &'static str {
    match name {
        "go" => "Go",
        "renju" => "Renju",
        "gomoku_freestyle" => "Gomoku (freestyle)",
        _ => "Gomoku (standard)",
    }
}

/// A point in SGF letters (`aa` is the top-left corner).
pub fn point_name(x: u8, y: u8) -> String {
    let c = |n: u8| (b'a' + n) as char;
    format!("{}{}", c(x), c(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(count(0, "game"), "0 games");
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(63, "event"), "63 events");
        assert_eq!(point_name(0, 18), "as");
    }
}
