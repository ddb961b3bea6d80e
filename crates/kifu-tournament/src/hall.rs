//! The documents of the hall's screen: what players read between rounds,
//! as the server serves them (`docs/API.md`, "Tournaments") and the public
//! pages show them. Every number comes from `kifu-standings` (the same
//! [`standings`] and [`kifu_standings::breakdown`] as `kifu tournament standings`); the pages
//! only lay them out.
//!
//! - [`Pairings`]: a round's boards (White, Black, handicap, result as it
//!   is known now), byes and absences;
//! - [`CrossTable`]: the results grid after a round, in standings order,
//!   each round's cell as the EGD results table writes it;
//! - [`StandingsDoc`]: the standings after a round on the tournament's
//!   criteria, in the shape of `kifu tournament standings --json`, with
//!   every value taken apart ([`Breakdown`]).

use std::collections::BTreeMap;

use kifu_ledger::BoardResult;
use kifu_standings::{
    breakdown_all, standings, Breakdown, Criterion, GameResult, Part, Participation, Value,
};
use serde::{Serialize, Serializer};

use crate::chain::Chain;
use crate::convert::board_result_of;
use crate::projection::TournamentError;

/// An exact value as a JSON number: whole, or with `.25`, `.5`, `.75`
/// (quarters are exact binary fractions), as `kifu tournament standings
/// --json` writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Num(pub Value);

impl schemars::JsonSchema for Num {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Num".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "description": "A criterion's value: a whole number, or a multiple of a quarter.",
        })
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let q = self.0.quarters();
        if q % 4 == 0 {
            s.serialize_i64(q / 4)
        } else {
            s.serialize_f64(q as f64 / 4.0)
        }
    }
}

/// The tournament itself, for a page's heading and round choice.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Tournament id, hex.
    pub id: String,
    /// Short name.
    pub short_name: String,
    /// Full name.
    pub name: String,
    /// City.
    pub city: String,
    /// Country code.
    pub country: String,
    /// First day.
    pub start: String,
    /// Last day.
    pub finish: String,
    /// Rounds of the tournament.
    pub rounds: u32,
    /// The last round with a pairing or a bye (0 before the first).
    pub last_round: u32,
    /// The placement criteria, in order.
    pub criteria: Vec<String>,
    /// Players registered.
    pub players: usize,
    /// Sequence number of the chain's head: changes with every fact.
    pub seq: u64,
    /// The tournament's time zone (an IANA name), in which the pages show
    /// its times of day; null when none was stated.
    pub time_zone: Option<String>,
}

/// A player as the pages name them.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRef {
    /// Registration id.
    pub id: String,
    /// `Surname Given`.
    pub name: String,
    /// Rank (`2d`).
    pub rank: String,
    /// Country code.
    pub country: String,
    /// Club.
    pub club: String,
}

/// One board of a round.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardLine {
    /// Board number.
    pub board: u32,
    /// White (the first player when the colours were not noted).
    pub white: PlayerRef,
    /// Black (the second player when the colours were not noted).
    pub black: PlayerRef,
    /// Handicap stones.
    pub handicap: u8,
    /// False when the colours were not noted.
    pub colours_known: bool,
    /// `1-0` (White won), `0-1`, `½-½`, `1-1` (both win), `0-0` (both
    /// lose), or empty while unknown.
    pub result: String,
    /// The result was given by default (a forfeit).
    pub by_default: bool,
    /// The result comes from the game's own record and is not yet in the
    /// tournament chain (no checkpoint or official's entry yet): shown as
    /// the game ended, not yet counted in the standings.
    pub from_game_record: bool,
    /// The game chain, hex, once it exists.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: Option<String>,
}

/// A round's pairings.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pairings {
    /// The round.
    pub round: u32,
    /// The boards, by number.
    pub boards: Vec<BoardLine>,
    /// Players with the bye.
    pub byes: Vec<PlayerRef>,
    /// Players absent this round.
    pub absent: Vec<PlayerRef>,
}

/// One cell of the results grid.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// The round.
    pub round: u32,
    /// As the EGD results table writes it: `3+/w0` (row of the opponent,
    /// result, `/` or `!` for by default, colour or `?`, handicap), or
    /// `0+`, `0=`, `0-` for a round without a game.
    pub entry: String,
    /// The opponent's id.
    pub opponent: Option<String>,
    /// The opponent's row in this grid, from 1.
    pub opponent_row: Option<usize>,
    /// `win`, `loss`, ... as in [`Part::outcome`].
    pub outcome: String,
}

/// One line of the results grid.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrossRow {
    /// Place (shared by ex-aequo players).
    pub place: u32,
    /// The player.
    pub player: PlayerRef,
    /// One cell per round.
    pub rounds: Vec<Cell>,
    /// The criteria's values, in the order of `criteria`.
    pub values: Vec<Num>,
}

/// The results grid after a round.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrossTable {
    /// The last round counted.
    pub round: u32,
    /// The criteria, in order.
    pub criteria: Vec<String>,
    /// The rows, in standings order.
    pub rows: Vec<CrossRow>,
}

/// One line of the standings (the shape of `kifu tournament standings
/// --json`'s `table`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRow {
    /// Place.
    pub place: u32,
    /// Registration id.
    pub player: String,
    /// Criterion name → value.
    pub values: BTreeMap<String, Num>,
}

/// One criterion's value taken apart, for the page.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakdownDoc {
    /// The criterion's name.
    pub criterion: String,
    /// Its value.
    pub value: Num,
    /// Added before the rounds (the starting McMahon score for MMS).
    pub base: Num,
    /// Added after them (the rounding down of bye and absence points).
    pub adjustment: Num,
    /// How the parts make the value.
    pub rule: String,
    /// The parts.
    pub parts: Vec<PartDoc>,
}

/// One round's part of a value.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PartDoc {
    /// The round.
    pub round: u32,
    /// The opponent's id.
    pub opponent: Option<String>,
    /// `white`, `black`, `unknown`.
    pub colour: Option<String>,
    /// Handicap.
    pub handicap: u8,
    /// `win`, `loss`, `jigo`, `bye`, ...
    pub outcome: String,
    /// By default.
    pub by_default: bool,
    /// What the round brings.
    pub value: Num,
    /// False when the criterion leaves it out.
    pub counted: bool,
}

/// The standings after a round, each value taken apart.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandingsDoc {
    /// The last round counted.
    pub round: u32,
    /// The criteria, in order.
    pub criteria: Vec<String>,
    /// The rows, best first.
    pub table: Vec<TableRow>,
    /// Every player named in `table`.
    pub players: BTreeMap<String, PlayerRef>,
    /// Player id → one breakdown per criterion, in the order of `criteria`.
    pub breakdown: BTreeMap<String, Vec<BreakdownDoc>>,
}

/// The round a document is for: `asked`, else the last round with a
/// pairing (1 before any), refused outside the tournament.
pub fn round_of(chain: &Chain, asked: Option<u32>) -> Result<u32, TournamentError> {
    let p = &chain.projection;
    let rounds = p.genesis.rounds;
    let round = asked.unwrap_or_else(|| p.last_round().max(1));
    if round == 0 || round > rounds {
        return Err(TournamentError::BadRound { round, rounds });
    }
    Ok(round)
}

/// The tournament's summary.
pub fn summary(chain: &Chain) -> Summary {
    let p = &chain.projection;
    let g = &p.genesis;
    Summary {
        id: hex::encode(chain.id()),
        short_name: g.short_name.clone(),
        name: g.name.clone(),
        city: g.city.clone(),
        country: g.country.clone(),
        start: g.start.clone(),
        finish: g.finish.clone(),
        rounds: g.rounds,
        last_round: p.last_round(),
        criteria: p
            .settings
            .criteria
            .iter()
            .map(|c| c.name().to_string())
            .collect(),
        players: p.players.len(),
        seq: chain.head().seq,
        time_zone: p.time_zone.clone(),
    }
}

fn player_ref(chain: &Chain, id: &str) -> PlayerRef {
    match chain.projection.player(id) {
        Some(r) => PlayerRef {
            id: r.id.clone(),
            name: format!("{} {}", r.surname, r.given).trim().to_string(),
            rank: r.rank.clone(),
            country: r.country.clone(),
            club: r.club.clone(),
        },
        None => PlayerRef {
            id: id.to_string(),
            name: id.to_string(),
            rank: String::new(),
            country: String::new(),
            club: String::new(),
        },
    }
}

/// A result as the hall writes it, White's score first (`1-0`, `0-1`, `½-½`,
/// `1-1`, `0-0`, or empty while unknown).
pub fn score_text(result: BoardResult) -> &'static str {
    match result {
        BoardResult::Unknown => "",
        BoardResult::WhiteWins => "1-0",
        BoardResult::BlackWins => "0-1",
        BoardResult::Jigo => "½-½",
        BoardResult::BothWin => "1-1",
        BoardResult::BothLose => "0-0",
    }
}

/// Round `round`'s pairings.
pub fn pairings(chain: &Chain, round: Option<u32>) -> Result<Pairings, TournamentError> {
    let round = round_of(chain, round)?;
    let p = &chain.projection;
    let boards = p
        .boards
        .range((round, 0)..=(round, u32::MAX))
        .map(|((_, board), b)| BoardLine {
            board: *board,
            white: player_ref(chain, &b.pairing.white),
            black: player_ref(chain, &b.pairing.black),
            handicap: b.pairing.handicap,
            colours_known: b.colours_known,
            result: score_text(b.result).to_string(),
            by_default: b.by_default,
            from_game_record: false,
            game: b.pairing.game.map(hex::encode),
        })
        .collect();
    let byes = p
        .byes
        .iter()
        .filter(|(r, _)| *r == round)
        .map(|(_, id)| player_ref(chain, id))
        .collect();
    let absent = p
        .absences
        .keys()
        .filter(|(r, _)| *r == round)
        .map(|(_, id)| player_ref(chain, id))
        .collect();
    Ok(Pairings {
        round,
        boards,
        byes,
        absent,
    })
}

/// Fills in, on the boards the tournament has no result for yet, the
/// result each game's own record states (`results`: (round, board) → the
/// game's result by seat, `kifu_game::GameState::result_by_seat`), marked
/// `from_game_record`. The standings are not changed: they count a game
/// once the director checkpoints it or enters its result.
pub fn with_game_results(
    p: &mut Pairings,
    results: &BTreeMap<(u32, u32), kifu_ledger::GameResult>,
) {
    for b in &mut p.boards {
        if !b.result.is_empty() {
            continue;
        }
        let Some(r) = results.get(&(p.round, b.board)) else {
            continue;
        };
        let (result, by_default) = board_result_of(r);
        if result == BoardResult::Unknown {
            continue;
        }
        b.result = score_text(result).to_string();
        b.by_default = by_default;
        b.from_game_record = true;
    }
}

/// The results grid after `round`, in the order of the tournament's
/// criteria.
pub fn cross_table(chain: &Chain, round: Option<u32>) -> Result<CrossTable, TournamentError> {
    let round = round_of(chain, round)?;
    let t = chain.projection.tournament()?;
    let st = standings(&t, round, &[], &[])?;
    let row_of = |id: &str| st.rows.iter().position(|r| r.player == id).map(|i| i + 1);
    let mcmahon = st.criteria.first() == Some(&Criterion::Mms);
    let s = &t.settings;
    let free = |halves: u8| match halves {
        2.. => "0+",
        1 => "0=",
        0 => "0-",
    };
    let rows =
        st.rows
            .iter()
            .map(|r| {
                let cells = (1..=round)
                    .map(|rr| {
                        let (entry, opponent, outcome) = match t.participation(rr, &r.player) {
                            Participation::Paired(g) => {
                                let white = g.white == r.player;
                                let (sign, outcome) = match (g.result, white) {
                                    (GameResult::WhiteWins, true)
                                    | (GameResult::BlackWins, false) => ('+', "win"),
                                    (GameResult::BothWin, _) => ('+', "both win"),
                                    (GameResult::WhiteWins, false)
                                    | (GameResult::BlackWins, true) => ('-', "loss"),
                                    (GameResult::BothLose, _) => ('-', "both lose"),
                                    (GameResult::Jigo, _) => ('=', "jigo"),
                                    (GameResult::Unknown, _) => ('?', "no result yet"),
                                };
                                let colour = match (g.colours_known, white) {
                                    (false, _) => '?',
                                    (true, true) => 'w',
                                    (true, false) => 'b',
                                };
                                let kind = if g.by_default { '!' } else { '/' };
                                let opp = g.opponent_of(&r.player).to_string();
                                let n = row_of(&opp).unwrap_or(0);
                                (
                                    format!("{n}{sign}{kind}{colour}{}", g.handicap),
                                    Some(opp),
                                    outcome,
                                )
                            }
                            Participation::Bye => (
                                free(if mcmahon { s.mms2_bye } else { s.nbw2_bye }).to_string(),
                                None,
                                "bye",
                            ),
                            Participation::Absent => (
                                free(if mcmahon {
                                    s.mms2_absent
                                } else {
                                    s.nbw2_absent
                                })
                                .to_string(),
                                None,
                                "absent",
                            ),
                            Participation::NotAssigned => ("0-".to_string(), None, "not assigned"),
                        };
                        Cell {
                            round: rr,
                            entry,
                            opponent_row: opponent.as_deref().and_then(row_of),
                            opponent,
                            outcome: outcome.to_string(),
                        }
                    })
                    .collect();
                CrossRow {
                    place: r.place,
                    player: player_ref(chain, &r.player),
                    rounds: cells,
                    values: r.values.iter().map(|(_, v)| Num(*v)).collect(),
                }
            })
            .collect();
    Ok(CrossTable {
        round,
        criteria: st.criteria.iter().map(|c| c.name().to_string()).collect(),
        rows,
    })
}

fn part_doc(p: &Part) -> PartDoc {
    PartDoc {
        round: p.round,
        opponent: p.opponent.clone(),
        colour: p.colour.clone(),
        handicap: p.handicap,
        outcome: p.outcome.clone(),
        by_default: p.by_default,
        value: Num(p.value),
        counted: p.counted,
    }
}

fn breakdown_doc(b: &Breakdown) -> BreakdownDoc {
    BreakdownDoc {
        criterion: b.criterion.name().to_string(),
        value: Num(b.value),
        base: Num(b.base),
        adjustment: Num(b.adjustment),
        rule: b.rule.clone(),
        parts: b.parts.iter().map(part_doc).collect(),
    }
}

/// The standings after `round` on the tournament's criteria, each value
/// taken apart.
pub fn standings_doc(chain: &Chain, round: Option<u32>) -> Result<StandingsDoc, TournamentError> {
    let round = round_of(chain, round)?;
    let t = chain.projection.tournament()?;
    let st = standings(&t, round, &[], &[])?;
    let mut players = BTreeMap::new();
    for r in &st.rows {
        players.insert(r.player.clone(), player_ref(chain, &r.player));
    }
    let parts = breakdown_all(&t, round, &st.criteria)?
        .into_iter()
        .map(|(id, b)| (id, b.iter().map(breakdown_doc).collect()))
        .collect();
    Ok(StandingsDoc {
        round,
        criteria: st.criteria.iter().map(|c| c.name().to_string()).collect(),
        table: st
            .rows
            .iter()
            .map(|r| TableRow {
                place: r.place,
                player: r.player.clone(),
                values: r
                    .values
                    .iter()
                    .map(|(c, v)| (c.name().to_string(), Num(*v)))
                    .collect(),
            })
            .collect(),
        players,
        breakdown: parts,
    })
}
