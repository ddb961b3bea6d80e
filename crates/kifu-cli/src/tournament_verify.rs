//! `kifu verify FILE` of a tournament chain file (`<data>/tournaments/<id>.kifu`,
//! the archive framing of `docs/FORMAT.md` whose first record is a
//! `tournament_created`): the chain's links, signatures and roles, its
//! projection, and a summary of what it records. Offline: the games it
//! checkpoints are checked against a store by `kifu tournament verify`.

use std::path::Path;

use kifu_ledger::{archive, BoardResult, Body, Record};
use kifu_tournament::Chain;
use serde_json::json;

use crate::archive_cmd::EXIT_VERIFY_FAILED;
use crate::{CmdResult, Failure};

/// The records of `file` when it is a tournament chain file (its first record
/// is a `tournament_created`); `None` for anything else.
pub fn tournament_records(file: Option<&std::path::PathBuf>) -> Option<Vec<Record>> {
    let bytes = std::fs::read(file?).ok()?;
    let records = archive::read(&bytes).ok()?;
    let first = records.first()?.decode().ok()?;
    matches!(first.body, Body::TournamentCreated(_)).then_some(records)
}

/// `kifu verify TOURNAMENT.kifu`.
pub fn verify(file: &Path, records: Vec<Record>, as_json: bool) -> CmdResult {
    let n = records.len();
    let chain = match Chain::open(records) {
        Ok(c) => c,
        Err(e) => {
            if as_json {
                say!("{}", json!({"ok": false, "problem": e.to_string()}));
            }
            return Err(Failure {
                message: format!("tournament chain {}: {e}", file.display()),
                code: EXIT_VERIFY_FAILED,
            });
        }
    };
    let p = &chain.projection;
    let g = &p.genesis;
    let director = g
        .officials
        .iter()
        .find(|o| o.role == kifu_ledger::Role::Director)
        .map(|o| o.name.clone())
        .unwrap_or_default();
    let rounds_paired = p.last_round();
    let results = p
        .boards
        .values()
        .filter(|b| b.result != BoardResult::Unknown)
        .count();
    let checkpoints: Vec<_> = p
        .boards
        .iter()
        .filter_map(|((r, b), board)| board.checkpoint.as_ref().map(|c| (*r, *b, c)))
        .collect();
    if as_json {
        let cps: Vec<_> = checkpoints
            .iter()
            .map(|(r, b, c)| {
                json!({"round": r, "board": b, "game": hex::encode(c.game),
                       "head_seq": c.head_seq, "head_hash": hex::encode(c.head_hash)})
            })
            .collect();
        say!(
            "{}",
            json!({"ok": true, "tournament": hex::encode(chain.id()), "name": g.name,
                   "short_name": g.short_name, "director": director, "events": n,
                   "rounds": g.rounds, "rounds_paired": rounds_paired,
                   "players": p.players.len(), "boards": p.boards.len(),
                   "results": results, "checkpoints": cps})
        );
        return Ok(());
    }
    say!(
        "ok: tournament {} ({}), {} events: links, signatures and roles check; created by the director {}",
        g.name,
        hex::encode(chain.id()),
        n,
        director
    );
    say!(
        "{} rounds ({} paired), {} players, {} boards paired, {} with a result, {} byes, {} absences, {} sanctions",
        g.rounds,
        rounds_paired,
        p.players.len(),
        p.boards.len(),
        results,
        p.byes.len(),
        p.absences.len(),
        p.sanctions.len()
    );
    say!("{} game checkpoints:", checkpoints.len());
    for (r, b, c) in &checkpoints {
        say!(
            "  round {r} board {b}: game {} head seq {} (record {})",
            hex::encode(c.game),
            c.head_seq,
            hex::encode(c.head_hash)
        );
    }
    Ok(())
}
