//! `kifu games`: the games in the store, found by tournament, round, player
//! and phase.

use clap::Args;
use std::path::Path;

use kifu_game::GameState;
use kifu_ledger::{Body, Event};
use serde::Serialize;

use crate::remote::open_existing;
use crate::render::{game_kind_word, phase_key, phase_word};
use crate::{CmdResult, Failure};

/// One line of the list (and its JSON object).
#[derive(Debug, Serialize)]
struct GameRow {
    game: String,
    tournament: Option<String>,
    round: Option<u32>,
    board: Option<u32>,
    black: String,
    white: String,
    game_kind: &'static str,
    board_size: u8,
    ruleset: String,
    phase: &'static str,
    phase_text: String,
    result: Option<String>,
    events: usize,
    started: Option<String>,
}

/// `kifu games [--tournament T] [--round N] [--player NAME] [--phase P] [--json]`.
pub fn games(data: &Path, a: GamesArgs) -> CmdResult {
    let store = open_existing(data)?;
    let mut rows = Vec::new();
    for game in store.games()? {
        let records = store.read(&game, 0, None)?;
        let events: Vec<Event> = records
            .iter()
            .map(|r| r.decode())
            .collect::<Result<_, _>>()?;
        let Some(Body::GameCreated(g)) = events.first().map(|e| &e.body) else {
            continue;
        };
        // The log operator's chain (key rotations) is not a game.
        if g.title.starts_with(kifu_store::operator::OPERATOR_TITLE) {
            continue;
        }
        let state = GameState::replay(&events);
        let result = state
            .result
            .computed()
            .map(|d| kifu_game::result_text(&d.result))
            .or_else(|| {
                state
                    .result
                    .declared
                    .last()
                    .map(|s| kifu_game::result_text(&s.result))
            });
        rows.push(GameRow {
            game: hex::encode(game),
            tournament: g.tournament.as_ref().map(|t| t.tournament.clone()),
            round: g.tournament.as_ref().map(|t| t.round),
            board: g.tournament.as_ref().map(|t| t.board),
            // Who plays each colour (after an exchange, the other seat).
            black: played(&state, kifu_ledger::Color::Black),
            white: played(&state, kifu_ledger::Color::White),
            game_kind: g.game.name(),
            board_size: g.board_size,
            ruleset: g.ruleset.clone(),
            phase: phase_key(&state.phase),
            phase_text: phase_word(&state.phase),
            result,
            events: events.len(),
            started: events
                .first()
                .map(|e| kifu_clock::notation::iso8601_utc(e.at_ms)),
        });
    }
    if let Some(p) = &a.phase {
        let known = [
            "not_started",
            "playing",
            "paused",
            "status_assessment",
            "resumption",
            "adjourned",
            "awaiting_referee",
            "finished",
        ];
        let wanted = p.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        if !known.contains(&wanted.as_str()) {
            return Err(Failure::new(format!(
                "unknown phase '{p}' (one of: {})",
                known.join(", ")
            )));
        }
        rows.retain(|r| r.phase == wanted);
    }
    if let Some(t) = &a.tournament {
        let t = t.to_lowercase();
        rows.retain(|r| {
            r.tournament
                .as_ref()
                .is_some_and(|x| x.to_lowercase().contains(&t))
        });
    }
    if let Some(n) = a.round {
        rows.retain(|r| r.round == Some(n));
    }
    if let Some(p) = &a.player {
        let p = p.to_lowercase();
        rows.retain(|r| r.black.to_lowercase().contains(&p) || r.white.to_lowercase().contains(&p));
    }
    rows.sort_by(|x, y| {
        (&x.tournament, x.round, x.board, &x.started).cmp(&(
            &y.tournament,
            y.round,
            y.board,
            &y.started,
        ))
    });
    if a.json {
        say!("{}", serde_json::to_string(&rows)?);
        return Ok(());
    }
    if rows.is_empty() {
        eprintln!("no games match");
        return Ok(());
    }
    for r in &rows {
        let place = match (&r.tournament, r.round, r.board) {
            (Some(t), Some(ro), Some(b)) => format!("{t}, round {ro}, board {b}"),
            _ => "no tournament".to_string(),
        };
        say!(
            "{}  {place}: {} (Black) vs {} (White); {} {}x{} under {}; {}; result {}; {}",
            &r.game[..12],
            r.black,
            r.white,
            game_kind_word(r.game_kind),
            r.board_size,
            r.board_size,
            r.ruleset,
            r.phase_text,
            r.result.as_deref().unwrap_or("none yet"),
            crate::render::count(r.events, "event"),
        );
    }
    Ok(())
}

/// The name of whoever plays `colour` in the game, `?` when nobody holds it.
fn played(state: &GameState, colour: kifu_ledger::Color) -> String {
    state
        .playing(colour)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| "?".to_string())
}

/// `kifu games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Only games of this tournament (its name, exactly or a part of it).
    #[arg(long)]
    pub tournament: Option<String>,
    /// Only games of this round.
    #[arg(long)]
    pub round: Option<u32>,
    /// Only games this player plays (a part of the name, any case).
    #[arg(long)]
    pub player: Option<String>,
    /// Only games in this phase: playing, counting, finished, ...
    #[arg(long)]
    pub phase: Option<String>,
    /// One JSON object per game, in an array.
    #[arg(long)]
    pub json: bool,
}
