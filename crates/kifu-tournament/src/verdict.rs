//! The verdict on a tournament chain in words and in JSON, as `kifu verify
//! TOURNAMENT.kifu` and `kifu tournament verify` give it (the JSON in the
//! shape of `kifu verify`'s report of game archives, each chain under
//! `games` with `"chain": "tournament"`), and the check of every game the
//! chain pairs against the games held (`docs/TOURNAMENTS.md`,
//! "Verifying"), and the rounds the engine drew, drawn again, with each
//! departure and its reason. The verification itself is [`crate::verify_tournament_records`];
//! the faces only print what is made here.

use kifu_ledger::report::{DuplicateLine, ForkLine, ProblemLine};
use kifu_ledger::{BoardResult, Hash, Problem, PublicKey, Role, ZERO_HASH};
use serde::Serialize;
use serde_json::Value;

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

/// The verdict on a tournament chain's records, in the shape of `kifu
/// verify`'s report of game archives: each chain under `games` with
/// `"chain": "tournament"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportPart {
    /// Distinct records.
    pub distinct: u64,
    /// The same record given more than once.
    pub duplicates: Vec<DuplicateLine>,
    /// Two records at one place of a chain.
    pub forks: Vec<ForkLine>,
    /// Each chain found, where its longest verified branch ends.
    pub games: Vec<ChainLine>,
    /// True when `problems` is empty (and, for `kifu tournament verify`,
    /// every game paired checks).
    pub ok: bool,
    /// What failed; any makes `ok` false.
    pub problems: Vec<ProblemLine>,
    /// Records given, duplicates included.
    pub records: u64,
    /// Timestamps going backwards: reported, not failures.
    pub warnings: Vec<ProblemLine>,
}

/// A tournament chain found among the records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainLine {
    /// Always `tournament`.
    pub chain: String,
    /// Events on the verified branch, genesis included.
    pub events: u64,
    /// Always false: a tournament chain does not finish as a game does.
    pub finished: bool,
    /// The chain's id.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// The last verified record's hash.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub head: String,
    /// Its timestamp.
    pub head_at_ms: u64,
    /// Its place.
    pub head_seq: u64,
}

/// What a tournament chain's longest verified branch records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainRecords {
    /// Boards paired.
    pub boards: u64,
    /// The games' heads the chain holds (`game_checkpointed`).
    pub checkpoints: Vec<CheckpointLine>,
    /// The director's name.
    pub director: String,
    /// Events of the branch.
    pub events: u64,
    /// The tournament's name.
    pub name: String,
    /// Players registered.
    pub players: u64,
    /// Boards with a result.
    pub results: u64,
    /// Rounds of the tournament.
    pub rounds: u32,
    /// Rounds paired.
    pub rounds_paired: u32,
    /// Its short name.
    pub short_name: String,
    /// The tournament's id.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub tournament: String,
}

/// A game's head the chain holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckpointLine {
    /// Board.
    pub board: u32,
    /// The game.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// The head's hash.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub head_hash: String,
    /// The head's place.
    pub head_seq: u64,
    /// Round.
    pub round: u32,
}

/// `kifu tournament verify --json`: the chain's verdict and what it
/// records, with `ok` counting the games too, the `file` (or address), the
/// games paired, checked, the `claims` (games naming a board without the
/// tournament's say, which fail nothing) and the rounds the engine drew,
/// drawn again.
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct TournamentVerification {
    /// The verdict.
    #[serde(flatten)]
    pub report: ReportPart,
    /// What the longest verified branch records (absent when no genesis
    /// verifies).
    #[serde(flatten)]
    pub records: Option<ChainRecords>,
    /// Games naming a board without the tournament's say.
    pub claims: Vec<ClaimLine>,
    /// The rounds drawn by the engine, each drawn again.
    pub draws: Vec<DrawLine>,
    /// The chain's file, or the server's address.
    pub file: String,
    /// Each game the chain pairs, checked against the games held.
    pub paired_games: Vec<PairedGame>,
}

/// A game the chain pairs, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PairedGame {
    /// Board.
    pub board: u32,
    /// The game.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// The game checks.
    pub ok: bool,
    /// What fails, in words.
    pub problems: Vec<String>,
    /// Round.
    pub round: u32,
}

/// A game naming a board without the tournament's say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimLine {
    /// Board.
    pub board: u32,
    /// Who signed its genesis.
    pub creator: PublicKey,
    /// The game.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// Round.
    pub round: u32,
    /// Why it does not count, in words.
    pub why: String,
}

/// A round the engine drew, drawn again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawLine {
    /// The boards and bye that depart from the engine's draw.
    pub departures: Vec<DepartureLine>,
    /// The engine its `round_drawn` names.
    pub engine: String,
    /// Why the round could not be drawn again (another engine, settings
    /// this kifu does not draw with), or null.
    pub error: Option<String>,
    /// The round, from 1.
    #[schemars(range(min = 1))]
    pub round: u32,
}

/// A board or bye that departs from the engine's draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DepartureLine {
    /// The board; null for the bye.
    #[schemars(range(min = 1))]
    pub board: Option<u32>,
    /// What the engine draws there, or null when it draws nothing.
    pub engine: Option<String>,
    /// The round's recorded swaps, made on the engine's draw, give exactly
    /// what is recorded here.
    pub explained: bool,
    /// The departure in words ([`draw_line`]).
    pub line: String,
    /// The reasons the round's `round_drawn` gives.
    pub reasons: Vec<String>,
    /// What the chain records there, or null when nothing is.
    pub recorded: Option<String>,
}

/// The report's verdict part.
pub fn report_part(r: &TournamentReport) -> ReportPart {
    ReportPart {
        distinct: r.distinct,
        duplicates: r.duplicates.iter().map(DuplicateLine::from).collect(),
        forks: r.forks.iter().map(ForkLine::from).collect(),
        games: r
            .chains
            .iter()
            .map(|c| ChainLine {
                chain: "tournament".into(),
                events: c.events,
                finished: false,
                game: hex::encode(c.id),
                head: hex::encode(c.head.hash),
                head_at_ms: c.head_at_ms,
                head_seq: c.head.seq,
            })
            .collect(),
        ok: r.ok(),
        problems: r.problems.iter().map(ProblemLine::from).collect(),
        records: r.records,
        warnings: r.warnings.iter().map(ProblemLine::from).collect(),
    }
}

/// The report's verdict part as JSON ([`ReportPart`]).
pub fn report_json(r: &TournamentReport) -> Value {
    keys_sorted(&report_part(r))
}

/// What the chain records: its names, director, events, rounds, players,
/// boards, results and checkpoints.
pub fn chain_records(chain: &Chain) -> ChainRecords {
    let p = &chain.projection;
    let g = &p.genesis;
    let checkpoints = p
        .boards
        .iter()
        .filter_map(|((r, b), board)| board.checkpoint.as_ref().map(|c| (*r, *b, c)))
        .map(|(round, board, c)| CheckpointLine {
            board,
            game: hex::encode(c.game),
            head_hash: hex::encode(c.head_hash),
            head_seq: c.head_seq,
            round,
        })
        .collect();
    ChainRecords {
        boards: p.boards.len() as u64,
        checkpoints,
        director: director_name(chain),
        events: chain.records.len() as u64,
        name: g.name.clone(),
        players: p.players.len() as u64,
        results: results(chain) as u64,
        rounds: g.rounds,
        rounds_paired: p.last_round(),
        short_name: g.short_name.clone(),
        tournament: hex::encode(chain.id()),
    }
}

/// What the chain records, as JSON ([`ChainRecords`]).
pub fn summary_json(chain: &Chain) -> Value {
    keys_sorted(&chain_records(chain))
}

/// A document as a JSON value: its objects' keys in alphabetical order at
/// every depth (`serde_json`'s map), the order these documents have always
/// been printed in.
fn keys_sorted<T: Serialize>(doc: &T) -> Value {
    // Strings, numbers and lists: the documents always serialise.
    serde_json::to_value(doc).unwrap_or(Value::Null)
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

/// `kifu tournament verify --json` ([`TournamentVerification`]): the
/// chain's verdict ([`chain_json`]), with `ok` counting the games too, the
/// `file` (or address), `paired_games`, the `claims`: games naming a board
/// without the tournament's say ([`crate::board_game::claims`]), which
/// fail nothing, and the `draws`.
pub fn tournament_verification(
    report: &TournamentReport,
    at: &str,
    checks: &[GameCheck],
    claims: &[Claim],
    draws: &[RoundCheck],
) -> TournamentVerification {
    let game_problems: usize = checks.iter().map(|c| c.problems.len()).sum();
    let mut part = report_part(report);
    part.ok = report.ok() && game_problems == 0;
    TournamentVerification {
        report: part,
        records: report.chain.as_ref().map(chain_records),
        claims: claims
            .iter()
            .map(|c| ClaimLine {
                board: c.board,
                creator: c.creator,
                game: hex::encode(c.game),
                round: c.round,
                why: c.why.clone(),
            })
            .collect(),
        draws: draw_lines_of(draws),
        file: at.to_string(),
        paired_games: checks
            .iter()
            .map(|c| PairedGame {
                board: c.board,
                game: hex::encode(c.game),
                ok: c.problems.is_empty(),
                problems: c.problems.clone(),
                round: c.round,
            })
            .collect(),
    }
}

/// [`tournament_verification`] as JSON.
pub fn tournament_json(
    report: &TournamentReport,
    at: &str,
    checks: &[GameCheck],
    claims: &[Claim],
    draws: &[RoundCheck],
) -> Value {
    keys_sorted(&tournament_verification(report, at, checks, claims, draws))
}

/// The rounds drawn by the engine, each drawn again, as [`DrawLine`]s.
fn draw_lines_of(draws: &[RoundCheck]) -> Vec<DrawLine> {
    draws
        .iter()
        .map(|d| {
            let (error, departures) = match &d.departures {
                Ok(found) => (
                    None,
                    found
                        .iter()
                        .map(|x| DepartureLine {
                            board: x.board,
                            engine: x.engine.clone(),
                            explained: x.explained,
                            line: draw_line(x),
                            reasons: x.reasons.clone(),
                            recorded: x.recorded.clone(),
                        })
                        .collect(),
                ),
                Err(e) => (Some(e.clone()), Vec::new()),
            };
            DrawLine {
                departures,
                engine: d.engine.clone(),
                error,
                round: d.round,
            }
        })
        .collect()
}

/// The rounds drawn by the engine, each drawn again
/// ([`crate::draw::engine_rounds`]): `[{"round", "engine", "error",
/// "departures": [{"board" (null: the bye), "recorded", "engine",
/// "reasons", "explained", "line"}]}]`.
pub fn draws_json(draws: &[RoundCheck]) -> Value {
    keys_sorted(&draw_lines_of(draws))
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
