//! `kifu replay` and `kifu explain`: the game projection (`kifu-game`) of a
//! stored game, at one event or as a story.

use clap::Args;
use std::path::Path;

use kifu_game::GameState;
use kifu_ledger::{verify_records, Event, Hash};

use crate::remote::open_existing;
use crate::{CmdResult, Failure};

/// Reads, verifies and decodes a game's events.
fn load(data: &Path, prefix: &str) -> Result<(Hash, Vec<Event>, bool), Failure> {
    let store = open_existing(data)?;
    let game = store.resolve(prefix)?;
    let records = store.read(&game, 0, None)?;
    let verified = verify_records(&records).ok();
    let mut events = Vec::with_capacity(records.len());
    for r in &records {
        // A kind this build does not know is left out of the projection;
        // `kifu verify` reports it.
        if let Ok(e) = r.decode() {
            events.push(e);
        }
    }
    Ok((game, events, verified))
}

/// `kifu replay GAME [--at SEQ] [--json]`.
pub fn replay(data: &Path, a: ReplayArgs) -> CmdResult {
    let (game, events, verified) = load(data, &a.game)?;
    let last = events.last().map(|e| e.seq).unwrap_or(0);
    let at = a.at.unwrap_or(last);
    if at > last {
        return Err(Failure::new(format!(
            "the game has events 0 to {last}; there is no event {at}"
        )));
    }
    if a.json {
        say!(
            "{}",
            kifu_game::document::replay_json(&game, &events, at, verified)
        );
        return Ok(());
    }
    let state = GameState::at(&events, at);
    for line in kifu_game::state_text::replay_lines(&game, &state, last, verified) {
        say!("{line}");
    }
    Ok(())
}

/// `kifu explain GAME [--json]`.
pub fn explain(data: &Path, a: ExplainArgs) -> CmdResult {
    let (game, events, verified) = load(data, &a.game)?;
    if a.json {
        say!(
            "{}",
            kifu_game::document::explain_json(&game, &events, verified)
        );
        return Ok(());
    }
    let text = kifu_game::explanation::explanation_text(&game, &events, verified);
    say!("{}", text.trim_end_matches('\n'));
    Ok(())
}

/// `kifu sanctions [GAME...] [--json]`: the per-player sanction history
/// across games.
pub fn sanctions(data: &Path, a: SanctionsArgs) -> CmdResult {
    let store = open_existing(data)?;
    let games = if a.games.is_empty() {
        store.games()?
    } else {
        a.games
            .iter()
            .map(|p| store.resolve(p))
            .collect::<Result<Vec<_>, _>>()?
    };
    let mut states = Vec::with_capacity(games.len());
    for g in &games {
        let events: Vec<Event> = store
            .read(g, 0, None)?
            .iter()
            .filter_map(|r| r.decode().ok())
            .collect();
        states.push(GameState::replay(&events));
    }
    let history = kifu_game::sanction_history(&states);
    if a.json {
        let doc = kifu_game::sanctions::SanctionHistory(history);
        say!("{}", serde_json::to_string(&doc)?);
        return Ok(());
    }
    if history.iter().all(|p| p.entries.is_empty()) {
        say!("no sanctions in {} game(s)", games.len());
    }
    for p in history.iter().filter(|p| !p.entries.is_empty()) {
        say!("{} ({})", p.name, &p.key.to_hex()[..12]);
        for e in &p.entries {
            say!(
                "  {}{}, event {}: {}: {} [{}]",
                e.round.map(|r| format!("round {r}, ")).unwrap_or_default(),
                e.game,
                e.seq,
                kifu_game::words::sanction(&e.kind),
                e.reason,
                e.source
            );
        }
        if !p.lost_to_disqualification.is_empty() {
            say!(
                "  disqualified: {} later game(s) lost",
                p.lost_to_disqualification.len()
            );
        }
    }
    Ok(())
}

/// `kifu replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// The event to replay to (default: the last one).
    #[arg(long)]
    pub at: Option<u64>,
    /// Print all of it as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu sanctions`.
#[derive(Debug, Args)]
pub struct SanctionsArgs {
    /// Game ids or unique prefixes; every game in the store when none.
    pub games: Vec<String>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}
