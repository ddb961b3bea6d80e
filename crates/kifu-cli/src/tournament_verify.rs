//! `kifu verify FILE` of a tournament chain file (`<data>/tournaments/<id>.kifu`,
//! the archive framing of `docs/FORMAT.md` whose records hold a
//! `tournament_created` genesis): the chain's links, signatures and roles,
//! its projection, and a summary of what it records. Every problem is
//! reported (a fork with all its records, a gap, a refused record), in any
//! order of the records; duplicates are noted, not failures. Offline: the
//! games it checkpoints are checked against a store by
//! `kifu tournament verify`.

use std::path::Path;

use kifu_ledger::{archive, BoardResult, Hash, Record, ZERO_HASH};
use kifu_tournament::{verify_tournament_records, Chain, TournamentReport};
use serde_json::{json, Value};

use crate::archive_cmd::EXIT_VERIFY_FAILED;
use crate::{CmdResult, Failure};

/// Kind indices of the two geneses (`docs/FORMAT.md` sections 4 and 10).
const GAME_CREATED: u32 = 0;
const TOURNAMENT_CREATED: u32 = 44;

/// The records of `file` when it is a tournament chain file: one of its
/// records is a `tournament_created` genesis and none a `game_created`
/// genesis, wherever they stand in the file. `None` for anything else.
pub fn tournament_records(file: Option<&std::path::PathBuf>) -> Option<Vec<Record>> {
    let bytes = std::fs::read(file?).ok()?;
    let records = archive::read(&bytes).ok()?;
    let genesis_kinds: Vec<u32> = records
        .iter()
        .filter_map(|r| r.header().ok())
        .filter(|h| h.seq == 0 && h.chain == ZERO_HASH)
        .map(|h| h.kind)
        .collect();
    (genesis_kinds.contains(&TOURNAMENT_CREATED) && !genesis_kinds.contains(&GAME_CREATED))
        .then_some(records)
}

fn short(h: &Hash) -> String {
    hex::encode(&h[..8])
}

/// The report's verdict part, in the shape of `kifu verify`'s report of
/// game archives (each chain under `games`, with `"chain": "tournament"`).
fn report_json(r: &TournamentReport) -> Value {
    let problem = |p: &kifu_ledger::Problem| json!({"game": hex::encode(p.game), "seq": p.seq, "what": p.what});
    json!({
        "ok": r.ok(),
        "records": r.records,
        "distinct": r.distinct,
        "games": r.chains.iter().map(|c| json!({
            "game": hex::encode(c.id), "chain": "tournament", "events": c.events,
            "head": hex::encode(c.head.hash), "head_seq": c.head.seq,
            "head_at_ms": c.head_at_ms, "finished": false,
        })).collect::<Vec<_>>(),
        "problems": r.problems.iter().map(problem).collect::<Vec<_>>(),
        "forks": r.forks.iter().map(|f| json!({"game": hex::encode(f.game), "seq": f.seq, "first": hex::encode(f.first), "second": hex::encode(f.second), "records": f.all.iter().map(hex::encode).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        "duplicates": r.duplicates.iter().map(|d| json!({"game": hex::encode(d.game), "seq": d.seq, "hash": hex::encode(d.hash), "copies": d.copies})).collect::<Vec<_>>(),
        "warnings": r.warnings.iter().map(problem).collect::<Vec<_>>(),
    })
}

/// `kifu verify TOURNAMENT.kifu`.
pub fn verify(file: &Path, records: Vec<Record>, as_json: bool) -> CmdResult {
    let report = verify_tournament_records(&records);
    let mut out = report_json(&report);
    if let (Some(chain), Some(o)) = (&report.chain, out.as_object_mut()) {
        if let Some(s) = summary_json(chain).as_object() {
            o.extend(s.clone());
        }
    }
    if as_json {
        say!("{out}");
    } else {
        for p in &report.problems {
            eprintln!("FAIL {}", problem_line(p));
        }
        if let Some(chain) = &report.chain {
            print_summary(chain, &report);
        }
        for d in &report.duplicates {
            say!(
                "note: seq {}: record {} appears {} times; counted once",
                d.seq,
                short(&d.hash),
                d.copies
            );
        }
        for w in &report.warnings {
            say!("warning: {}", problem_line(w));
        }
    }
    if report.ok() {
        return Ok(());
    }
    let forks = if report.forks.is_empty() {
        String::new()
    } else {
        format!(
            ", {} fork(s) with {} records kept as evidence",
            report.forks.len(),
            report.forks.iter().map(|f| f.all.len()).sum::<usize>()
        )
    };
    Err(Failure {
        message: format!(
            "tournament chain {}: {} problem(s){forks}; the first: {}",
            file.display(),
            report.problems.len(),
            problem_line(&report.problems[0])
        ),
        code: EXIT_VERIFY_FAILED,
    })
}

/// A problem of a tournament chain, in words: `tournament ID seq N: what`.
fn problem_line(p: &kifu_ledger::Problem) -> String {
    let at = p.seq.map(|s| format!(" seq {s}")).unwrap_or_default();
    if p.game == ZERO_HASH {
        format!("input{at}: {}", p.what)
    } else {
        format!("tournament {}{at}: {}", short(&p.game), p.what)
    }
}

fn director(chain: &Chain) -> String {
    chain
        .projection
        .genesis
        .officials
        .iter()
        .find(|o| o.role == kifu_ledger::Role::Director)
        .map(|o| o.name.clone())
        .unwrap_or_default()
}

/// What the verified branch records.
fn summary_json(chain: &Chain) -> Value {
    let p = &chain.projection;
    let g = &p.genesis;
    let results = p
        .boards
        .values()
        .filter(|b| b.result != BoardResult::Unknown)
        .count();
    let cps: Vec<_> = p
        .boards
        .iter()
        .filter_map(|((r, b), board)| board.checkpoint.as_ref().map(|c| (*r, *b, c)))
        .map(|(r, b, c)| {
            json!({"round": r, "board": b, "game": hex::encode(c.game),
                   "head_seq": c.head_seq, "head_hash": hex::encode(c.head_hash)})
        })
        .collect();
    json!({"tournament": hex::encode(chain.id()), "name": g.name,
           "short_name": g.short_name, "director": director(chain), "events": chain.records.len(),
           "rounds": g.rounds, "rounds_paired": p.last_round(),
           "players": p.players.len(), "boards": p.boards.len(),
           "results": results, "checkpoints": cps})
}

fn print_summary(chain: &Chain, report: &TournamentReport) {
    let p = &chain.projection;
    let g = &p.genesis;
    if report.ok() {
        say!(
            "ok: tournament {} ({}), {} events: links, signatures and roles check; created by the director {}",
            g.name,
            hex::encode(chain.id()),
            chain.records.len(),
            director(chain)
        );
    } else {
        let head = chain.head();
        say!(
            "tournament {} ({}): its longest verified branch ends at seq {} ({}); what it records:",
            g.name,
            hex::encode(chain.id()),
            head.seq,
            short(&head.hash)
        );
    }
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
    say!(
        "{} rounds ({} paired), {} players, {} boards paired, {} with a result, {} byes, {} absences, {} sanctions",
        g.rounds,
        p.last_round(),
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
}
