//! `kifu verify FILE` of a tournament chain file (`<data>/tournaments/<id>.kifu`,
//! the archive framing of `docs/FORMAT.md` whose records hold a
//! `tournament_created` genesis): the chain's links, signatures and roles,
//! its projection, and a summary of what it records. Every problem is
//! reported (a fork with all its records, a gap, a refused record), in any
//! order of the records; duplicates are noted, not failures. Offline: the
//! games it checkpoints are checked against a store by
//! `kifu tournament verify`, which reports the chain in the same words and
//! the same JSON shape, then the games (`docs/TOURNAMENTS.md`,
//! "Verifying"). The words and the JSON are `kifu_tournament::verdict`'s;
//! this module finds the records and prints.

use std::path::{Path, PathBuf};

use kifu_ledger::{Record, ZERO_HASH};
use kifu_tournament::board_game::{self, Claim};
use kifu_tournament::verdict::{self, GameCheck};
use kifu_tournament::{verify_tournament_records, Chain, TournamentReport};

use crate::verdicts::EXIT_VERIFY_FAILED;
use crate::{CmdResult, Failure};

use kifu_ledger::body::{
    GAME_CREATED_KIND as GAME_CREATED, TOURNAMENT_CREATED_KIND as TOURNAMENT_CREATED,
};

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

/// The chain's verdict in words (`kifu_tournament::verdict`): each
/// failure on standard error, what the longest verified branch records,
/// duplicates and warnings.
fn print_chain(report: &TournamentReport) {
    for p in &report.problems {
        eprintln!("FAIL {}", verdict::problem_line(p));
    }
    for line in verdict::summary_lines(report)
        .iter()
        .chain(&verdict::note_lines(report))
    {
        say!("{line}");
    }
}

/// The one line a failed chain exits with (code 3).
fn chain_failure(at: &Path, report: &TournamentReport, more: &str) -> Failure {
    Failure {
        message: verdict::failure_line(&at.display().to_string(), report, more),
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
    report.require_trusted(trusted);
    if as_json {
        say!("{}", verdict::chain_json(&report));
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
    if let Some(url) = crate::endpoint::server() {
        // Through a server: its copy of the chain, named by its address.
        let c = crate::remote::Client::new(url);
        let id = c.tournament_id(spec)?;
        return Ok((
            PathBuf::from(c.tournament_address(&id)),
            c.tournament_records(&id)?,
        ));
    }
    find(data, spec).map_err(|e| match e {
        FindError::Read { .. } => Failure {
            message: e.to_string(),
            code: EXIT_VERIFY_FAILED,
        },
        _ => Failure::new(e.to_string()),
    })
}

/// Every game the longest verified branch pairs, checked against the store
/// (`kifu_tournament::verdict::check_games`), and the store's games that
/// claim a board without the tournament's say
/// (`kifu_tournament::board_game::claims`). The store is opened when the
/// chain pairs a game or the data directory holds one.
fn check_games(data: &Path, chain: &Chain) -> Result<(Vec<GameCheck>, Vec<Claim>), Failure> {
    let through_server = crate::endpoint::server().is_some();
    if verdict::paired_games(chain).is_empty() && !through_server && !data.join("db").exists() {
        return Ok((Vec::new(), Vec::new()));
    }
    let store = crate::remote::open_existing(data)?;
    let claims = board_game::claims(chain, &store).map_err(|e| Failure::new(e.to_string()))?;
    Ok((verdict::check_games(chain, &store), claims))
}

/// `kifu tournament verify ID [--json]`: the chain file as `kifu verify
/// FILE` reports it (every problem, in the same words and JSON), then every
/// game its longest verified branch pairs, then every round it says the
/// engine drew, drawn again, with each departure and the reason given (a
/// departure fails nothing). Exit code 3 when anything fails.
pub fn verify_tournament(data: &Path, spec: &str, as_json: bool) -> CmdResult {
    let (file, records) = locate(data, spec)?;
    let report = verify_tournament_records(&records);
    let (checks, claims) = match &report.chain {
        Some(chain) => check_games(data, chain)?,
        None => (Vec::new(), Vec::new()),
    };
    // The rounds the engine drew, drawn again: each departure reported
    // with its reason, never a failure.
    let draws = report
        .chain
        .as_ref()
        .map(|c| kifu_tournament::draw::engine_rounds(&c.projection))
        .unwrap_or_default();
    let game_problems: usize = checks.iter().map(|c| c.problems.len()).sum();
    if as_json {
        let at = file.display().to_string();
        say!(
            "{}",
            verdict::tournament_json(&report, &at, &checks, &claims, &draws)
        );
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
        for c in &claims {
            say!("{}", verdict::claim_line(c));
        }
        for line in verdict::draw_lines(&draws) {
            say!("{line}");
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
