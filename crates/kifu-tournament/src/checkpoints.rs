//! Which games a tournament checkpoints, on which board, and when a
//! checkpoint is due: the planning `kifu tournament checkpoint --all`, the
//! automatic checkpoints after a director's fact and the director's desk
//! share. The games themselves (their heads and results) are read by the
//! caller; nothing here reads a store.

use kifu_ledger::{Body, Checkpoint, Genesis, Hash};

use crate::{Board, Chain};

/// True when `genesis` names this tournament: its short name, or 16 or
/// more hex digits of its id.
pub fn names_tournament(chain: &Chain, genesis: &Genesis) -> bool {
    let p = &chain.projection;
    genesis.tournament.as_ref().is_some_and(|t| {
        t.tournament == p.genesis.short_name
            || (t.tournament.len() >= 16 && hex::encode(chain.id()).starts_with(&t.tournament))
    })
}

/// True when the tournament concerns game `game`: a pairing names it, or
/// its genesis names the tournament.
pub fn concerns(chain: &Chain, game: &Hash, genesis: &Genesis) -> bool {
    chain
        .projection
        .boards
        .values()
        .any(|b| b.pairing.game == Some(*game))
        || names_tournament(chain, genesis)
}

/// The board a checkpoint of `game` is for: the pairing that names the
/// game, else the round and board its genesis names.
pub fn board_for(chain: &Chain, game: &Hash, genesis: &Genesis) -> Option<(u32, u32)> {
    chain
        .projection
        .boards
        .iter()
        .find(|(_, b)| b.pairing.game == Some(*game))
        .map(|(k, _)| *k)
        .or_else(|| genesis.tournament.as_ref().map(|t| (t.round, t.board)))
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
