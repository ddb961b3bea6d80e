//! The tournament of `kifu demo`: five players, three rounds, a bye, a
//! forfeit entered by the referee, an absence, and the demonstration game
//! (round 1, board 1) checkpointed into it from its own signed record.

use kifu_ledger::{
    AbsenceReason, BoardResult, Body, Hash, Keypair, Participant, Registration, Role,
};

use crate::checkpoints::{self, CheckpointError, Games};
use crate::entry::pairing;
use crate::{mcmahon_genesis, Chain, ChainError};

/// Why the demonstration tournament could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DemoError<E> {
    /// The games could not be read.
    #[error("{0}")]
    Games(E),
    /// The game could not be checkpointed.
    #[error("{0}")]
    Checkpoint(CheckpointError<E>),
    /// A fact was refused.
    #[error("demo tournament: {0}")]
    Chain(#[from] ChainError),
    /// The game's genesis does not match its pairing.
    #[error("demo tournament: {}", .0.join("; "))]
    Flags(Vec<String>),
}

/// The demonstration tournament around `game` (held by `games`), its
/// facts signed by `director` and `referee` a second apart from `at_ms`.
/// Its short name is the one the game's genesis names; White and Black of
/// the game are the players `W` and `B`, with the game's keys.
pub fn chain<G: Games + ?Sized>(
    games: &G,
    game: Hash,
    director: &Keypair,
    referee: &Keypair,
    at_ms: u64,
) -> Result<Chain, DemoError<G::Error>> {
    let genesis = games.genesis(&game).map_err(DemoError::Games)?;
    let short_name = genesis
        .tournament
        .as_ref()
        .map(|t| t.tournament.clone())
        .unwrap_or_else(|| "kifu demonstration open".into());
    let officials = vec![
        Participant {
            role: Role::Director,
            name: "Tournament director".into(),
            key: director.public(),
        },
        Participant {
            role: Role::Referee,
            name: "Referee".into(),
            key: referee.public(),
        },
    ];
    let mut g = mcmahon_genesis("kifu demonstration open", &short_name, 3, officials);
    g.city = "Berlin".into();
    g.country = "DE".into();
    let mut t = at_ms;
    let mut chain = Chain::create(director, t, g)?;
    let key_of = |role: Role| genesis.holder(role).map(|p| p.key);
    let players = [
        ("W", "White", "Wanda", "2d", key_of(Role::White)),
        ("B", "Black", "Bo", "1d", key_of(Role::Black)),
        ("C", "Carter", "Cy", "1k", None),
        ("D", "Dietz", "Dana", "2k", None),
        ("E", "Ebert", "Eli", "1d", None),
    ];
    let mut facts: Vec<(bool, Body)> = Vec::new();
    for (id, surname, given, rank, key) in players {
        facts.push((
            false,
            Body::PlayerRegistered(Registration {
                id: id.into(),
                surname: surname.into(),
                given: given.into(),
                rank: rank.into(),
                rating: 0,
                country: "DE".into(),
                club: "Berl".into(),
                egd_pin: String::new(),
                aga_id: String::new(),
                smms_correction: 0,
                key,
            }),
        ));
    }
    let result = |round, board, result, by_default: bool, reason: &str| Body::BoardResultEntered {
        round,
        board,
        result,
        by_default,
        reason: reason.into(),
    };
    let bye = |round, player: &str| Body::ByeGiven {
        round,
        player: player.into(),
    };
    facts.extend([
        (false, pairing(1, 1, "W", "B", 0, Some(game), true)),
        (false, pairing(1, 2, "C", "D", 0, None, true)),
        (
            false,
            result(1, 2, BoardResult::WhiteWins, false, "result sheet"),
        ),
        (false, bye(1, "E")),
    ]);
    for (referee_signs, body) in facts.drain(..) {
        let key = if referee_signs { referee } else { director };
        t += 1000;
        chain.append(key, t, body)?;
    }
    // The demo game's own signed record gives round 1, board 1.
    let c = checkpoints::of_game(games, &chain, game).map_err(|e| match e {
        CheckpointError::Games(e) => DemoError::Games(e),
        e => DemoError::Checkpoint(e),
    })?;
    t += 1000;
    chain.append(director, t, Body::GameCheckpointed(c))?;
    facts.extend([
        (false, pairing(2, 1, "E", "W", 0, None, true)),
        (
            false,
            result(2, 1, BoardResult::BlackWins, false, "result sheet"),
        ),
        (false, pairing(2, 2, "B", "C", 0, None, true)),
        // LGC 2023, "Start": late by 30 minutes or more forfeits; the
        // referee declares it ("Game forfeit").
        (
            true,
            result(
                2,
                2,
                BoardResult::WhiteWins,
                true,
                "Black arrived 30 minutes late",
            ),
        ),
        (false, bye(2, "D")),
        (
            false,
            Body::PlayerAbsent {
                round: 3,
                player: "B".into(),
                reason: AbsenceReason::RoundSkipped,
            },
        ),
        (false, pairing(3, 1, "W", "D", 0, None, true)),
        (
            false,
            result(3, 1, BoardResult::WhiteWins, false, "result sheet"),
        ),
        (false, pairing(3, 2, "C", "E", 0, None, true)),
        (
            false,
            result(3, 2, BoardResult::BlackWins, false, "result sheet"),
        ),
    ]);
    for (referee_signs, body) in facts {
        let key = if referee_signs { referee } else { director };
        t += 1000;
        chain.append(key, t, body)?;
    }
    let flags = chain.projection.game_flags(&game, &genesis);
    if !flags.is_empty() {
        return Err(DemoError::Flags(flags));
    }
    Ok(chain)
}
