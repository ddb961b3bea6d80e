//! Which games a tournament checkpoints, on which board, and when a
//! checkpoint is due: the planning `kifu tournament checkpoint --all`, the
//! automatic checkpoints after a director's fact and the director's desk
//! share. The games themselves are read through [`Games`] (a store, or a
//! server), which the caller provides; nothing here reads a store.

use kifu_ledger::{Body, Checkpoint, Event, Genesis, Hash, Head, PublicKey, Record, Role};

use crate::board_game::{self, Standing};
use crate::{Board, Chain};

/// The games a checkpoint is taken from: a store, or a server (the trait
/// is the ledger's, so that neither needs this crate to be read).
pub use kifu_ledger::held::Games;

/// Why no checkpoint of a game can be taken.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError<E> {
    /// The games could not be read.
    #[error("{0}")]
    Games(E),
    /// No such game.
    #[error("no game {} in the store", short(.0))]
    NoGame(Hash),
    /// The tournament has no board for the game.
    #[error("game {} is not paired in this tournament and its genesis names no round and board", short(.0))]
    NotPaired(Hash),
    /// The game names a board of the tournament without the tournament's
    /// say ([`crate::board_game`]): a claim, whose result never counts.
    #[error("game {} is not the board's game: it {}", short(.game), .why)]
    Claim {
        /// The game.
        game: Hash,
        /// Why, in words ([`crate::board_game::claim_words`]).
        why: String,
    },
    /// A record of the game does not decode.
    #[error("{0}")]
    Record(String),
    /// The game's head is not at the sequence number expected.
    #[error("checkpoint refused: the stored chain of game {} ends at seq {seq}, not {expected}", short(.game))]
    HeadSeq {
        /// The game.
        game: Hash,
        /// Its head's sequence number.
        seq: u64,
        /// The one expected.
        expected: u64,
    },
    /// The game's head is not the record expected.
    #[error("checkpoint refused: the stored head of game {} is {}, not {expected}", short(.game), hex::encode(.head))]
    HeadHash {
        /// The game.
        game: Hash,
        /// Its head's hash.
        head: Hash,
        /// The hash (or its first 8 or more hex digits) expected.
        expected: String,
    },
}

impl<E> CheckpointError<E> {
    /// The same refusal, the games' error turned by `f`.
    pub fn map_games<F>(self, f: impl FnOnce(E) -> F) -> CheckpointError<F> {
        use CheckpointError::*;
        match self {
            Games(e) => Games(f(e)),
            NoGame(g) => NoGame(g),
            NotPaired(g) => NotPaired(g),
            Claim { game, why } => Claim { game, why },
            Record(r) => Record(r),
            HeadSeq {
                game,
                seq,
                expected,
            } => HeadSeq {
                game,
                seq,
                expected,
            },
            HeadHash {
                game,
                head,
                expected,
            } => HeadHash {
                game,
                head,
                expected,
            },
        }
    }
}

fn short(h: &Hash) -> String {
    hex::encode(&h[..8])
}

/// The checkpoint of `game` on `board` at `head`, its events read from the
/// genesis: the result by seat (the pairing's players, whatever colours
/// they ended up playing, `kifu_game::GameState::result_by_seat`).
pub fn at_head(board: (u32, u32), game: Hash, head: Head, events: &[Event]) -> Checkpoint {
    Checkpoint {
        round: board.0,
        board: board.1,
        game,
        head_seq: head.seq,
        head_hash: head.hash,
        result: kifu_game::GameState::replay(events).result_by_seat(),
    }
}

/// The checkpoint of `game` as `games` hold it now, on the board whose game
/// it is ([`crate::board_game`]); a game that only claims a board is
/// refused.
pub fn of_game<G: Games + ?Sized>(
    games: &G,
    chain: &Chain,
    game: Hash,
) -> Result<Checkpoint, CheckpointError<G::Error>> {
    let head = games
        .head(&game)
        .map_err(CheckpointError::Games)?
        .ok_or(CheckpointError::NoGame(game))?;
    let genesis = games.genesis(&game).map_err(CheckpointError::Games)?;
    let creator = games.creator(&game).map_err(CheckpointError::Games)?;
    let board = match board_game::standing(chain, &game, &genesis, &creator) {
        None => return Err(CheckpointError::NotPaired(game)),
        Some(Standing::Claim { round, board }) => {
            return Err(CheckpointError::Claim {
                game,
                why: board_game::claim_words(chain, round, board),
            })
        }
        Some(s) => s.board(),
    };
    let events: Vec<Event> = games
        .read(&game)
        .map_err(CheckpointError::Games)?
        .iter()
        .map(Record::decode)
        .collect::<Result<_, _>>()
        .map_err(|e| CheckpointError::Record(e.to_string()))?;
    Ok(at_head(board, game, head, &events))
}

/// Refuses checkpoint `c` unless the game's head is at `seq` and its hash
/// starts with `hash` (8 hex digits or more), as the official expected.
pub fn expect_head<E>(
    c: &Checkpoint,
    seq: Option<u64>,
    hash: Option<&str>,
) -> Result<(), CheckpointError<E>> {
    if let Some(expected) = seq.filter(|s| *s != c.head_seq) {
        return Err(CheckpointError::HeadSeq {
            game: c.game,
            seq: c.head_seq,
            expected,
        });
    }
    if let Some(h) = hash {
        if h.len() < 8 || !hex::encode(c.head_hash).starts_with(&h.to_ascii_lowercase()) {
            return Err(CheckpointError::HeadHash {
                game: c.game,
                head: c.head_hash,
                expected: h.to_string(),
            });
        }
    }
    Ok(())
}

/// The checkpoints due: every board's game of `games`
/// ([`crate::board_game`]; claims are left out) whose head moved since its board's last checkpoint
/// ([`is_due`]; with `only_finished`, only the finished games).
pub fn due<G: Games + ?Sized>(
    games: &G,
    chain: &Chain,
    only_finished: bool,
) -> Result<Vec<Checkpoint>, CheckpointError<G::Error>> {
    let mut due = Vec::new();
    for game in games.games().map_err(CheckpointError::Games)? {
        let genesis = games.genesis(&game).map_err(CheckpointError::Games)?;
        let creator = games.creator(&game).map_err(CheckpointError::Games)?;
        if board_game::board_of(chain, &game, &genesis, &creator).is_none() {
            continue;
        }
        let c = of_game(games, chain, game)?;
        if is_due(chain, &c, only_finished) {
            due.push(c);
        }
    }
    Ok(due)
}

/// What to warn about when `game` is checkpointed: where its genesis
/// disagrees with the pairing that names it (`Projection::game_flags`);
/// nothing when no pairing names it (its genesis names the board).
pub fn warnings(chain: &Chain, game: &Hash, genesis: &Genesis) -> Vec<String> {
    let p = &chain.projection;
    if p.boards.values().any(|b| b.pairing.game == Some(*game)) {
        p.game_flags(game, genesis)
    } else {
        Vec::new()
    }
}

/// True when facts signed by `signer` bring the finished games' checkpoints
/// with them: the signer is the tournament's director.
pub fn checkpoints_after(chain: &Chain, signer: &PublicKey) -> bool {
    chain
        .projection
        .genesis
        .roles_of(signer)
        .contains(&Role::Director)
}

/// True when the board's result was last set by an official's
/// `board_result_entered`: an automatic checkpoint would replace it.
pub fn entered_by_official(chain: &Chain, b: &Board) -> bool {
    b.result_seq
        .and_then(|s| chain.records.get(usize::try_from(s).ok()?))
        .and_then(|r| r.decode().ok())
        .is_some_and(|e| matches!(e.body, Body::BoardResultEntered { .. }))
}

/// True when checkpoint `c` (a game's head as it stands) is due: the
/// board's last checkpoint is not of that head, and, with
/// `only_finished`, the game has a result and the board's result was not
/// last entered by an official.
pub fn is_due(chain: &Chain, c: &Checkpoint, only_finished: bool) -> bool {
    let board = chain.projection.boards.get(&(c.round, c.board));
    if only_finished && (c.result.is_none() || board.is_some_and(|b| entered_by_official(chain, b)))
    {
        return false;
    }
    let last = board.and_then(|b| b.checkpoint.as_ref());
    last.map(|l| (l.game, l.head_seq, l.head_hash)) != Some((c.game, c.head_seq, c.head_hash))
}
