//! The game chain a tournament board starts (`docs/TOURNAMENTS.md`, "Game
//! chains"): its genesis carries the tournament's game, ruleset, time
//! control and komi, the board's handicap, its seats, and the tournament's
//! officials, and names the tournament, round and board. The director's
//! desk drafts a round's games here; who holds each seat (a device, a key
//! the registration names) is the caller's to say.

use kifu_ledger::{GameKind, Genesis, Participant, TournamentRef};

use crate::Chain;

/// Why no game can be drafted for a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameDraftError {
    /// The round and board are not paired in the tournament.
    #[error("round {round} board {board} is not paired")]
    NotPaired {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// The game's rules refuse the genesis (its komi for the handicap, its
    /// board, its handicap).
    #[error("board {board}: {why}")]
    Rules {
        /// Board.
        board: u32,
        /// The rule's words.
        why: String,
    },
}

/// The board a tournament's games are played on: the full 19×19 board for
/// Go, 15×15 for Renju and Gomoku (the only size their rules allow,
/// `kifu_game::check_genesis_values`).
pub fn board_size(game: GameKind) -> u8 {
    match game {
        GameKind::Go => 19,
        _ => 15,
    }
}

/// The genesis of the game on `board` of `round`: the players' seats in
/// `seats`, then each of `recorders` not already seated, then every
/// official of the tournament not already there in the same role. Komi is
/// the tournament's for an even game and the ruleset's for a handicap game
/// (`kifu_game::profile_komi`); the genesis is checked against the game's
/// rules (`kifu_game::check_genesis_values`).
pub fn board_genesis(
    chain: &Chain,
    round: u32,
    board: u32,
    seats: Vec<Participant>,
    recorders: Vec<Participant>,
) -> Result<Genesis, GameDraftError> {
    let p = &chain.projection;
    let t = &p.genesis;
    let b = p
        .boards
        .get(&(round, board))
        .ok_or(GameDraftError::NotPaired { round, board })?;
    let rules = |e: kifu_game::GenesisError| GameDraftError::Rules {
        board,
        why: e.to_string(),
    };
    let mut roster = seats;
    for r in recorders {
        if !roster.iter().any(|x| x.key == r.key) {
            roster.push(r);
        }
    }
    for o in &t.officials {
        if !roster.iter().any(|x| x.key == o.key && x.role == o.role) {
            roster.push(o.clone());
        }
    }
    let handicap = b.pairing.handicap;
    let komi_half_points = if handicap == 0 {
        t.komi_half_points
    } else {
        kifu_game::profile_komi(t.game, &t.ruleset, handicap).map_err(rules)?
    };
    let g = Genesis {
        game: t.game,
        ruleset: t.ruleset.clone(),
        overrides: Vec::new(),
        board_size: board_size(t.game),
        handicap,
        komi_half_points,
        time_control: t.time_control,
        roster,
        tournament: Some(TournamentRef {
            tournament: t.short_name.clone(),
            round,
            board,
        }),
        title: format!("{}, round {round}, board {board}", t.name),
        auto_declare: false,
    };
    kifu_game::check_genesis_values(&g).map_err(rules)?;
    Ok(g)
}
