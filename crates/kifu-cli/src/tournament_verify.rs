//! `kifu verify FILE` of a tournament chain file (`<data>/tournaments/<id>.kifu`,
//! the archive framing of `docs/FORMAT.md` whose records hold a
//! `tournament_created` genesis): the chain's links, signatures and roles,
//! its projection, and a summary of what it records. Every problem is
//! reported (a fork with all its records, a gap, a refused record), in any
//! order of the records; duplicates are noted, not failures. Offline: the
//! games it checkpoints are checked against a store by
//! `kifu tournament verify`, which reports the chain in the same words and
//! the same JSON shape, then the games (`docs/TOURNAMENTS.md`,
//! "Verifying").

use std::path::{Path, PathBuf};

use kifu_ledger::{BoardResult, Hash, Record, ZERO_HASH};
use kifu_tournament::{verify_tournament_records, Chain, TournamentReport};
use serde_json::{json, Value};

use crate::verdicts::EXIT_VERIFY_FAILED;
use crate::{CmdResult, Failure};

/// Kind indices of the two geneses (`docs/FORMAT.md` sections 4 and 10).
const GAME_CREATED: u32 = 0;
const TOURNAMENT_CREATED: u32 = 44;

/// The records of `file` when it is a tournament chain file: one of its
/// records is a `tournament_created` genesis and none a `game_created`
/// genesis, wherever they stand in the file. `None` for anything else.
pub fn tournament_records(file: Option<&std::path::PathBuf>) -> Option<Vec<Record>> {
    // Read a record at a time, keeping none, and given up at the first game
    // genesis (the first record of a game archive as `kifu export` writes
    // it), so that a game archive is not held here whole; the records are
    // read again only for a tournament chain file.
    let file = file?;
    let (mut f, _) = kifu_store::archive_file::RecordFile::open(file).ok()?;
    let mut tournament = false;
    while let Some((r, _)) = f.next_record().ok()? {
        if let Ok(h) = r.header() {
            if h.seq == 0 && h.chain == ZERO_HASH {
                match h.kind {
                    GAME_CREATED => return None,
                    TOURNAMENT_CREATED => tournament = true,
                    _ => {}
                }
            }
        }
    }
    if !tournament {
        return None;
    }
    let (mut f, _) = kifu_store::archive_file::RecordFile::open(file).ok()?;
    let mut records = Vec::new();
    while let Some((r, _)) = f.next_record().ok()? {
        records.push(r);
    }
    Some(records)
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

/// The chain's verdict and, for its longest verified branch, what it
/// records: the JSON of `kifu verify TOURNAMENT.kifu --json`.
fn chain_json(report: &TournamentReport) -> Value {
    let mut out = report_json(report);
    if let (Some(chain), Some(o)) = (&report.chain, out.as_object_mut()) {
        if let Some(s) = summary_json(chain).as_object() {
            o.extend(s.clone());
        }
    }
    out
}

/// The chain's verdict in words: each failure on standard error, what the
/// longest verified branch records, duplicates and warnings.
fn print_chain(report: &TournamentReport) {
    for p in &report.problems {
        eprintln!("FAIL {}", problem_line(p));
    }
    if let Some(chain) = &report.chain {
        print_summary(chain, report);
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

/// The one line a failed chain exits with (code 3).
fn chain_failure(file: &Path, report: &TournamentReport, more: &str) -> Failure {
    let forks = if report.forks.is_empty() {
        String::new()
    } else {
        format!(
            ", {} fork(s) with {} records kept as evidence",
            report.forks.len(),
            report.forks.iter().map(|f| f.all.len()).sum::<usize>()
        )
    };
    let first = report
        .problems
        .first()
        .map(|p| format!("; the first: {}", problem_line(p)))
        .unwrap_or_default();
    Failure {
        message: format!(
            "tournament chain {}: {} problem(s){forks}{more}{first}",
            file.display(),
            report.problems.len(),
        ),
        code: EXIT_VERIFY_FAILED,
    }
}

/// `kifu verify TOURNAMENT.kifu`.
pub fn verify(
    file: &Path,
    records: Vec<Record>,
    as_json: bool,
    trusted: &[kifu_ledger::PublicKey],
) -> CmdResult {
    let mut report = verify_tournament_records(&records);
    // With --trust: the chain speaks for a trusted organiser only when its
    // genesis is signed by a trusted key (`docs/FORMAT.md` section 7). A
    // chain file has no manifest: its completeness cannot be shown.
    if !trusted.is_empty() {
        let signer = report
            .chain
            .as_ref()
            .and_then(|c| c.records.first())
            .and_then(|r| r.header().ok())
            .map(|h| h.signer);
        match signer {
            Some(k) if trusted.contains(&k) => {}
            Some(k) => report.problems.push(kifu_ledger::Problem {
                game: kifu_ledger::ZERO_HASH,
                seq: None,
                what: format!(
                    "untrusted: the tournament chain's genesis is signed by key {} ({}), which is not a trusted key",
                    k.to_hex(),
                    k.sha256_fingerprint()
                ),
            }),
            None => report.problems.push(kifu_ledger::Problem {
                game: kifu_ledger::ZERO_HASH,
                seq: None,
                what: "untrusted: no tournament genesis verifies, so no trusted key signs it".into(),
            }),
        }
        report.problems.sort();
    }
    if as_json {
        say!("{}", chain_json(&report));
    } else {
        print_chain(&report);
    }
    if report.ok() {
        return Ok(());
    }
    Err(chain_failure(file, &report, ""))
}

/// The tournament chain file `spec` names in `data` (an id prefix, else a
/// short name), with its records, whether or not they verify
/// (`kifu_store::tournaments::find`).
fn locate(data: &Path, spec: &str) -> Result<(PathBuf, Vec<Record>), Failure> {
    use kifu_store::tournaments::{find, FindError};
    if crate::remote::server().is_some() {
        // Through a server: its copy of the chain, named by its address.
        let (at, records) = crate::tournament_cmd::served_records(spec)?;
        return Ok((PathBuf::from(at), records));
    }
    find(data, spec).map_err(|e| match e {
        FindError::Read { .. } => Failure {
            message: e.to_string(),
            code: EXIT_VERIFY_FAILED,
        },
        _ => Failure::new(e.to_string()),
    })
}

/// One paired game of the verified branch, checked against the store.
struct GameCheck {
    round: u32,
    board: u32,
    game: Hash,
    problems: Vec<String>,
}

impl GameCheck {
    fn at(&self) -> String {
        format!(
            "round {} board {}, game {}",
            self.round,
            self.board,
            short(&self.game)
        )
    }
}

/// Every game the longest verified branch pairs: the game chain itself,
/// the checkpointed head in it, and the genesis naming this tournament,
/// round and board and the players' keys (`docs/TOURNAMENTS.md`, "Game
/// chains").
fn check_games(data: &Path, chain: &Chain) -> Result<Vec<GameCheck>, Failure> {
    let p = &chain.projection;
    let games: Vec<((u32, u32), Hash)> = p
        .boards
        .iter()
        .filter_map(|(at, b)| b.pairing.game.map(|g| (*at, g)))
        .collect();
    if games.is_empty() {
        return Ok(Vec::new());
    }
    let store = crate::remote::open_existing(data)?;
    let mut checks = Vec::with_capacity(games.len());
    for ((round, board), game) in games {
        let mut problems = Vec::new();
        match store.read(&game, 0, None) {
            Ok(records) if !records.is_empty() => {
                let report = kifu_ledger::verify_records(&records);
                for pr in &report.problems {
                    problems.push(pr.to_string());
                }
                let checkpoint = p
                    .boards
                    .get(&(round, board))
                    .and_then(|b| b.checkpoint.as_ref());
                if let Some(c) = checkpoint {
                    match records.get(c.head_seq as usize) {
                        Some(r) if r.hash() == c.head_hash => {}
                        Some(_) => problems.push(format!(
                            "the record at seq {} is not the one checkpointed",
                            c.head_seq
                        )),
                        None => problems.push(format!(
                            "the checkpoint names seq {}, the chain is shorter",
                            c.head_seq
                        )),
                    }
                }
                if let Ok(g) = store.genesis(&game) {
                    problems.extend(p.game_flags(&game, &g));
                }
            }
            _ => problems.push("not in the store".into()),
        }
        checks.push(GameCheck {
            round,
            board,
            game,
            problems,
        });
    }
    Ok(checks)
}

/// `kifu tournament verify ID [--json]`: the chain file as `kifu verify
/// FILE` reports it (every problem, in the same words and JSON), then every
/// game its longest verified branch pairs. Exit code 3 when anything fails.
pub fn verify_tournament(data: &Path, spec: &str, as_json: bool) -> CmdResult {
    let (file, records) = locate(data, spec)?;
    let report = verify_tournament_records(&records);
    let checks = match &report.chain {
        Some(chain) => check_games(data, chain)?,
        None => Vec::new(),
    };
    let game_problems: usize = checks.iter().map(|c| c.problems.len()).sum();
    if as_json {
        let mut out = chain_json(&report);
        if let Some(o) = out.as_object_mut() {
            o.insert("ok".into(), json!(report.ok() && game_problems == 0));
            o.insert("file".into(), json!(file.display().to_string()));
            o.insert(
                "paired_games".into(),
                json!(checks
                    .iter()
                    .map(|c| json!({"round": c.round, "board": c.board,
                        "game": hex::encode(c.game), "ok": c.problems.is_empty(),
                        "problems": c.problems}))
                    .collect::<Vec<_>>()),
            );
        }
        say!("{out}");
    } else {
        print_chain(&report);
        for c in &checks {
            if c.problems.is_empty() {
                say!("{}: OK", c.at());
            }
            for pr in &c.problems {
                eprintln!("FAIL {}: {pr}", c.at());
            }
        }
    }
    match (report.ok(), game_problems) {
        (true, 0) => {
            if !as_json {
                say!("verified");
            }
            Ok(())
        }
        (true, n) => Err(Failure {
            message: format!(
                "{n} {} found in the tournament's games",
                if n == 1 { "problem" } else { "problems" }
            ),
            code: EXIT_VERIFY_FAILED,
        }),
        (false, n) => {
            let more = if n == 0 {
                String::new()
            } else {
                format!(" and {n} in its games")
            };
            Err(chain_failure(&file, &report, &more))
        }
    }
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
