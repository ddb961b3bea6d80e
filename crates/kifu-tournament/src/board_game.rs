//! Whose game counts: which game chain is a tournament board's game
//! (`docs/FORMAT.md` section 10, "A board's game").
//!
//! A game chain's genesis may name any tournament, round and board: naming
//! one is a claim, not a fact of the tournament. Only the tournament's own
//! chain makes a game a board's game, in one of two ways:
//!
//! 1. the chain names the game: the board's pairing carries its id, or a
//!    checkpoint the director signed made it the board's
//!    (`game_checkpointed`);
//! 2. the board's pairing names no game, and the game's genesis names this
//!    tournament, round and board and is signed by a key the tournament's
//!    genesis names as its director or one of its referees (the officials
//!    who create its games, [`Chain::game_creators`]).
//!
//! Every reader of a board's game (the hall, the desk, the checkpoints and
//! so the standings, `kifu tournament verify`, the bundles) asks this
//! module, and shows any other game naming the board as a claim, never as
//! its result.

use kifu_ledger::{Genesis, Hash, PublicKey};

use crate::checkpoints::Games;
use crate::Chain;

/// How a game chain stands to a tournament board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The board's game: the chain names it.
    Named {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// The board's game: its genesis names the board and an official of
    /// the tournament who creates its games signed it.
    Official {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// A game that names the board without the tournament's say: signed by
    /// someone else, or the board's pairing names another game. Shown as a
    /// claim; its result never counts.
    Claim {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
}

impl Standing {
    /// The round and board, whatever the standing.
    pub fn board(&self) -> (u32, u32) {
        match *self {
            Standing::Named { round, board }
            | Standing::Official { round, board }
            | Standing::Claim { round, board } => (round, board),
        }
    }

    /// The game is the board's game: its result counts.
    pub fn counts(&self) -> bool {
        !matches!(self, Standing::Claim { .. })
    }
}

/// How `game` (its `genesis`, signed by `creator`) stands to `chain`'s
/// boards; `None` when neither the chain nor the genesis puts it on a board
/// of this tournament.
pub fn standing(
    chain: &Chain,
    game: &Hash,
    genesis: &Genesis,
    creator: &PublicKey,
) -> Option<Standing> {
    let p = &chain.projection;
    if let Some((&(round, board), _)) = p.boards.iter().find(|(_, b)| b.pairing.game == Some(*game))
    {
        return Some(Standing::Named { round, board });
    }
    let t = genesis.tournament.as_ref()?;
    if !p.named_by(t) {
        return None;
    }
    let (round, board) = (t.round, t.board);
    let b = p.boards.get(&(round, board))?;
    if b.pairing.game.is_none() && chain.game_creators().contains(creator) {
        Some(Standing::Official { round, board })
    } else {
        Some(Standing::Claim { round, board })
    }
}

/// The board whose game `game` is, when it is one ([`standing`] counts).
pub fn board_of(
    chain: &Chain,
    game: &Hash,
    genesis: &Genesis,
    creator: &PublicKey,
) -> Option<(u32, u32)> {
    standing(chain, game, genesis, creator)
        .filter(Standing::counts)
        .map(|s| s.board())
}

/// Why a claim does not count, in words.
pub fn claim_words(chain: &Chain, round: u32, board: u32) -> String {
    match chain
        .projection
        .boards
        .get(&(round, board))
        .and_then(|b| b.pairing.game)
    {
        Some(g) => format!(
            "names round {round} board {board}, whose game is {}",
            hex::encode(&g[..8])
        ),
        None => format!(
            "names round {round} board {board}, but its genesis is not signed by the tournament's director or a referee"
        ),
    }
}

/// A game that names a board of the tournament without the tournament's
/// say ([`Standing::Claim`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The game.
    pub game: Hash,
    /// Who signed its genesis.
    pub creator: PublicKey,
    /// Why it does not count, in words ([`claim_words`]).
    pub why: String,
}

/// Every game of `games` that claims a board of `chain` ([`Standing::Claim`]).
pub fn claims<G: Games + ?Sized>(chain: &Chain, games: &G) -> Result<Vec<Claim>, G::Error> {
    let mut out = Vec::new();
    for game in games.games()? {
        let genesis = games.genesis(&game)?;
        if genesis.tournament.is_none() {
            continue;
        }
        let creator = games.creator(&game)?;
        if let Some(Standing::Claim { round, board }) = standing(chain, &game, &genesis, &creator) {
            out.push(Claim {
                round,
                board,
                game,
                creator,
                why: claim_words(chain, round, board),
            });
        }
    }
    Ok(out)
}
