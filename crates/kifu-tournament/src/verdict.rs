//! The verdict on a tournament chain in words and in JSON, as `kifu verify
//! TOURNAMENT.kifu` and `kifu tournament verify` give it (the JSON in the
//! shape of `kifu verify`'s report of game archives, each chain under
//! `games` with `"chain": "tournament"`), and the check of every game the
//! chain pairs against the games held (`docs/TOURNAMENTS.md`,
//! "Verifying"), and the rounds the engine drew, drawn again, with each
//! departure and its reason. The verification itself is [`crate::verify_tournament_records`];
//! the faces only print what is made here.

use kifu_ledger::{BoardResult, Hash, Problem, PublicKey, Role, ZERO_HASH};
use serde_json::{json, Value};

use crate::board_game::Claim;
use crate::checkpoints::Games;
use crate::draw::{Departure, RoundCheck};
use crate::{Chain, TournamentReport};

fn short(h: &Hash) -> String {
    hex::encode(&h[..8])
}

impl TournamentReport {
    /// With trusted keys: the chain speaks for a trusted organiser only
    /// when its genesis is signed by one of `trusted` (`docs/FORMAT.md`
    /// section 7); otherwise a problem is added. A chain file has no
    /// manifest, so its completeness cannot be shown. No keys, no check.
    pub fn require_trusted(&mut self, trusted: &[PublicKey]) {
        if trusted.is_empty() {
            return;
        }
        let signer = self
            .chain
            .as_ref()
            .and_then(|c| c.records.first())
            .and_then(|r| r.header().ok())
            .map(|h| h.signer);
        let what = match signer {
            Some(k) if trusted.contains(&k) => return,
            Some(k) => format!(
                "untrusted: the tournament chain's genesis is signed by key {} ({}), which is not a trusted key",
                k.to_hex(),
                k.sha256_fingerprint()
            ),
            None => "untrusted: no tournament genesis verifies, so no trusted key signs it".into(),
        };
        self.problems.push(Problem {
            game: ZERO_HASH,
            seq: None,
            what,
        });
        self.problems.sort();
    }
}

/// A problem of a tournament chain, in words: `tournament ID seq N: what`
/// (`input seq N: what` for one tied to no chain).
pub fn problem_line(p: &Problem) -> String {
    let at = p.seq.map(|s| format!(" seq {s}")).unwrap_or_default();
    if p.game == ZERO_HASH {
        format!("input{at}: {}", p.what)
    } else {
        format!("tournament {}{at}: {}", short(&p.game), p.what)
    }
}

/// The name of the tournament's director (empty when none is named).
pub fn director_name(chain: &Chain) -> String {
    chain
        .projection
        .genesis
        .officials
        .iter()
        .find(|o| o.role == Role::Director)
        .map(|o| o.name.clone())
        .unwrap_or_default()
}

/// Boards with a result.
fn results(chain: &Chain) -> usize {
    chain
        .projection
        .boards
        .values()
        .filter(|b| b.result != BoardResult::Unknown)
        .count()
}

/// The report's verdict part as JSON.
pub fn report_json(r: &TournamentReport) -> Value {
    let problem = |p: &Problem| json!({"game": hex::encode(p.game), "seq": p.seq, "what": p.what});
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

/// What the chain records, as JSON: its names, director, events, rounds,
/// players, boards, results and checkpoints.
pub fn summary_json(chain: &Chain) -> Value {
    let p = &chain.projection;
    let g = &p.genesis;
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
           "short_name": g.short_name, "director": director_name(chain), "events": chain.records.len(),
           "rounds": g.rounds, "rounds_paired": p.last_round(),
           "players": p.players.len(), "boards": p.boards.len(),
           "results": results(chain), "checkpoints": cps})
}

/// The chain's verdict and, for its longest verified branch, what it
/// records: the JSON of `kifu verify TOURNAMENT.kifu --json`.
pub fn chain_json(report: &TournamentReport) -> Value {
    let mut out = report_json(report);
    if let (Some(chain), Some(o)) = (&report.chain, out.as_object_mut()) {
        if let Some(s) = summary_json(chain).as_object() {
            o.extend(s.clone());
        }
    }
    out
}

/// What the longest verified branch records, in lines: the verdict's
/// first line, the counts, and each game checkpoint.
pub fn summary_lines(report: &TournamentReport) -> Vec<String> {
    let Some(chain) = &report.chain else {
        return Vec::new();
    };
    let p = &chain.projection;
    let g = &p.genesis;
    let mut out = Vec::new();
    if report.ok() {
        out.push(format!(
            "ok: tournament {} ({}), {} events: links, signatures and roles check; created by the director {}",
            g.name,
            hex::encode(chain.id()),
            chain.records.len(),
            director_name(chain)
        ));
    } else {
        let head = chain.head();
        out.push(format!(
            "tournament {} ({}): its longest verified branch ends at seq {} ({}); what it records:",
            g.name,
            hex::encode(chain.id()),
            head.seq,
            short(&head.hash)
        ));
    }
    let checkpoints: Vec<_> = p
        .boards
        .iter()
        .filter_map(|((r, b), board)| board.checkpoint.as_ref().map(|c| (*r, *b, c)))
        .collect();
    out.push(format!(
        "{} rounds ({} paired), {} players, {} boards paired, {} with a result, {} byes, {} absences, {} sanctions",
        g.rounds,
        p.last_round(),
        p.players.len(),
        p.boards.len(),
        results(chain),
        p.byes.len(),
        p.absences.len(),
        p.sanctions.len()
    ));
    out.push(format!("{} game checkpoints:", checkpoints.len()));
    for (r, b, c) in &checkpoints {
        out.push(format!(
            "  round {r} board {b}: game {} head seq {} (record {})",
            hex::encode(c.game),
            c.head_seq,
            hex::encode(c.head_hash)
        ));
    }
    out
}

/// The notes after the summary: each duplicate record, then each warning.
pub fn note_lines(report: &TournamentReport) -> Vec<String> {
    let duplicates = report.duplicates.iter().map(|d| {
        format!(
            "note: seq {}: record {} appears {} times; counted once",
            d.seq,
            short(&d.hash),
            d.copies
        )
    });
    let warnings = report
        .warnings
        .iter()
        .map(|w| format!("warning: {}", problem_line(w)));
    duplicates.chain(warnings).collect()
}

/// The one line a failed chain (at `at`, a file or an address) is refused
/// with; `more` adds to the count (the games' problems).
pub fn failure_line(at: &str, report: &TournamentReport, more: &str) -> String {
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
    format!(
        "tournament chain {at}: {} problem(s){forks}{more}{first}",
        report.problems.len(),
    )
}

/// One paired game of the verified branch, checked against the games held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCheck {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The game paired there.
    pub game: Hash,
    /// What fails, in words (none: the game checks).
    pub problems: Vec<String>,
}

impl GameCheck {
    /// Where, in words: `round R board B, game ID`.
    pub fn at(&self) -> String {
        format!(
            "round {} board {}, game {}",
            self.round,
            self.board,
            short(&self.game)
        )
    }
}

/// The games the chain pairs, by (round, board).
pub fn paired_games(chain: &Chain) -> Vec<((u32, u32), Hash)> {
    chain
        .projection
        .boards
        .iter()
        .filter_map(|(at, b)| b.pairing.game.map(|g| (*at, g)))
        .collect()
}

/// Every game the chain pairs ([`paired_games`]), checked in `games`: the
/// game chain itself (`kifu_ledger::verify_records`), the checkpointed
/// head in it, and its genesis naming this tournament, round and board
/// and the players' keys (`docs/TOURNAMENTS.md`, "Game chains"). A game
/// that cannot be read is "not in the store".
pub fn check_games<G: Games + ?Sized>(chain: &Chain, games: &G) -> Vec<GameCheck> {
    let p = &chain.projection;
    let mut checks = Vec::new();
    for ((round, board), game) in paired_games(chain) {
        let mut problems = Vec::new();
        match games.read(&game) {
            Ok(records) if !records.is_empty() => {
                let report = kifu_ledger::verify_records(&records);
                problems.extend(report.problems.iter().map(|pr| pr.to_string()));
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
                if let Ok(g) = games.genesis(&game) {
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
    checks
}

/// The JSON of `kifu tournament verify --json`: the chain's ([`chain_json`]),
/// with `ok` counting the games too, the `file` (or address),
/// `paired_games`, and the `claims`: games naming a board without the
/// tournament's say ([`crate::board_game::claims`]), which fail nothing.
pub fn tournament_json(
    report: &TournamentReport,
    at: &str,
    checks: &[GameCheck],
    claims: &[Claim],
    draws: &[RoundCheck],
) -> Value {
    let game_problems: usize = checks.iter().map(|c| c.problems.len()).sum();
    let mut out = chain_json(report);
    if let Some(o) = out.as_object_mut() {
        o.insert("ok".into(), json!(report.ok() && game_problems == 0));
        o.insert("file".into(), json!(at));
        o.insert(
            "paired_games".into(),
            json!(checks
                .iter()
                .map(|c| json!({"round": c.round, "board": c.board,
                    "game": hex::encode(c.game), "ok": c.problems.is_empty(),
                    "problems": c.problems}))
                .collect::<Vec<_>>()),
        );
        o.insert(
            "claims".into(),
            json!(claims
                .iter()
                .map(|c| json!({"round": c.round, "board": c.board,
                    "game": hex::encode(c.game), "creator": c.creator, "why": c.why}))
                .collect::<Vec<_>>()),
        );
        o.insert("draws".into(), draws_json(draws));
    }
    out
}

/// The rounds drawn by the engine, each drawn again
/// ([`crate::draw::engine_rounds`]): `[{"round", "engine", "error",
/// "departures": [{"board" (null: the bye), "recorded", "engine",
/// "reasons", "explained", "line"}]}]`.
pub fn draws_json(draws: &[RoundCheck]) -> Value {
    json!(draws
        .iter()
        .map(|d| {
            let (error, departures) = match &d.departures {
                Ok(found) => (
                    Value::Null,
                    found
                        .iter()
                        .map(|x| {
                            json!({"board": x.board, "recorded": x.recorded,
                                "engine": x.engine, "reasons": x.reasons,
                                "explained": x.explained, "line": draw_line(x)})
                        })
                        .collect::<Vec<_>>(),
                ),
                Err(e) => (json!(e), Vec::new()),
            };
            json!({"round": d.round, "engine": d.engine, "error": error, "departures": departures})
        })
        .collect::<Vec<_>>())
}

/// A departure as `kifu tournament verify` says it: with the reasons the
/// chain gives, or that none is recorded.
pub fn draw_line(d: &Departure) -> String {
    if d.reasons.is_empty() {
        format!("{d} (no reason recorded)")
    } else if d.explained {
        d.to_string()
    } else {
        format!("{d} (the recorded swaps do not give this board)")
    }
}

/// What `kifu tournament verify` says of the rounds drawn by the engine:
/// a line per round, then a line per departure (departures are facts to
/// explain, never failures).
pub fn draw_lines(draws: &[RoundCheck]) -> Vec<String> {
    let mut out = Vec::new();
    for d in draws {
        match &d.departures {
            Ok(found) if found.is_empty() => out.push(format!(
                "round {}: drawn by {}, the engine's draw board for board",
                d.round, d.engine
            )),
            Ok(found) => {
                out.push(format!(
                    "round {}: drawn by {}, {} {} from its draw (not a failure: the reasons follow)",
                    d.round,
                    d.engine,
                    found.len(),
                    if found.len() == 1 {
                        "departure"
                    } else {
                        "departures"
                    }
                ));
                out.extend(found.iter().map(draw_line));
            }
            Err(e) => out.push(format!(
                "round {}: drawn by {}, not drawn again here: {e}",
                d.round, d.engine
            )),
        }
    }
    out
}

/// The line `kifu tournament verify` says of a claim.
pub fn claim_line(c: &Claim) -> String {
    format!(
        "round {} board {}: game {} is a claim, not the board's game: it {}",
        c.round,
        c.board,
        short(&c.game),
        c.why
    )
}
