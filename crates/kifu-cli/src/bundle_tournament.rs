//! Finding the tournament chain's checkpoint of a game's head for an appeal
//! bundle (`docs/TRANSPARENCY.md` section 7, "Tournament checkpoint"): the
//! format and its check live in `kifu_bundle::tournament`.

use std::path::Path;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_bundle::tournament::{latest_checkpoint, TournamentPart};
use kifu_ledger::Hash;
use kifu_tournament::Chain;

use crate::Failure;

/// The tournament part for a bundle of `game` ending at `last_seq`: from the
/// tournament chain holding the latest checkpoint of it (the latest in time
/// when several chains name it), or `None` when no chain does.
pub fn find(data: &Path, game: &Hash, last_seq: u64) -> Result<Option<TournamentPart>, Failure> {
    let mut best: Option<(u64, Chain, usize)> = None;
    for chain in crate::tournament_cmd::all_chains(data) {
        if let Some((i, _)) = latest_checkpoint(&chain, game, last_seq) {
            let at = chain.records[i].decode().map(|e| e.at_ms).unwrap_or(0);
            if best.as_ref().is_none_or(|(t, _, _)| at >= *t) {
                best = Some((at, chain, i));
            }
        }
    }
    Ok(best.map(|(_, chain, i)| TournamentPart {
        tournament: hex::encode(chain.id()),
        records: chain.records[..=i]
            .iter()
            .map(|r| B64.encode(r.to_stored()))
            .collect(),
    }))
}
