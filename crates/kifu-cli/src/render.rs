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

/// A game phase in words.
pub fn phase_word(p: &kifu_game::record::Phase) -> String {
    kifu_game::state_text::phase(p)
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
