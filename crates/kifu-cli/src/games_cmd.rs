//! `kifu games`: the games in the store, found by tournament, round, player
//! and phase (`kifu_game::listing`).

use clap::Args;
use std::path::Path;

use kifu_game::listing::{game_row, GameFilter};
use kifu_ledger::Event;

use crate::remote::open_existing;
use crate::{CmdResult, Failure};

/// `kifu games [--tournament T] [--round N] [--player NAME] [--phase P] [--json]`.
pub fn games(data: &Path, a: GamesArgs) -> CmdResult {
    let filter = GameFilter {
        tournament: a.tournament.clone(),
        round: a.round,
        player: a.player.clone(),
        phase: a
            .phase
            .as_deref()
            .map(GameFilter::phase)
            .transpose()
            .map_err(|e| Failure::new(e.to_string()))?,
    };
    let store = open_existing(data)?;
    let mut rows = Vec::new();
    for game in store.games()? {
        let records = store.read(&game, 0, None)?;
        let events: Vec<Event> = records
            .iter()
            .map(|r| r.decode())
            .collect::<Result<_, _>>()?;
        rows.extend(game_row(&game, &events));
    }
    let rows = filter.apply(rows);
    if a.json {
        say!("{}", serde_json::to_string(&rows)?);
        return Ok(());
    }
    if rows.is_empty() {
        eprintln!("no games match");
        return Ok(());
    }
    for r in &rows {
        say!("{}", r.line());
    }
    Ok(())
}

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
