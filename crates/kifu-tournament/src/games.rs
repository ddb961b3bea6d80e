//! The game chain a tournament board starts (`docs/TOURNAMENTS.md`, "Game
//! chains"): its genesis carries the tournament's game, ruleset, time
//! control and komi, the board's handicap, its seats, and the tournament's
//! officials, and names the tournament, round and board. The director's
//! desk drafts a round's games here; who holds each seat (a device, a key
//! the registration names) is the caller's to say.

use kifu_ledger::standing::COMMITTEE_SEATS;
use kifu_ledger::{Body, GameKind, Genesis, Participant, Role, TournamentRef};

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
    /// The tournament names too few appeals committee members to form a
    /// game's committee.
    #[error("the tournament names {named} appeals committee {}; the committee is formed of {COMMITTEE_SEATS} (LGC 2023, \"Appeals committee\"): co-opt the others once it is formed, or name them in the tournament", if *.named == 1 { "member" } else { "members" })]
    TooFewCommittee {
        /// How many it names.
        named: usize,
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
    let komi_half_points =
        kifu_game::tournament_game_komi(t.game, &t.ruleset, handicap, t.komi_half_points)
            .map_err(rules)?;
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

/// The appeals committee of a game of the tournament, formed before round
/// `before_round`: the tournament's committee officials in the order its
/// genesis names them, the first [`COMMITTEE_SEATS`] as members and the
/// others as reserves (LGC 2023, "Appeals committee";
/// `kifu_ledger::standing::seat` seats them on each case).
pub fn committee(chain: &Chain, before_round: u32) -> Result<Body, GameDraftError> {
    let people: Vec<Participant> = chain
        .projection
        .genesis
        .officials
        .iter()
        .filter(|p| p.role == Role::Committee)
        .cloned()
        .collect();
    if people.len() < COMMITTEE_SEATS {
        return Err(GameDraftError::TooFewCommittee {
            named: people.len(),
        });
    }
    let (members, reserves) = people.split_at(COMMITTEE_SEATS);
    Ok(Body::CommitteeFormed {
        members: members.to_vec(),
        reserves: reserves.to_vec(),
        formed_before_round: before_round,
    })
}
