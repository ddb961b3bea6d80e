//! A round drawn from the chain by the pairing engine (`kifu-pairing`,
//! OpenGotha 3.51.02's McMahon and Swiss draw), changed by the director's
//! swaps, each with its reason, explained board by board, and written as
//! the facts a director signs (`paired`, `bye_given`, then `round_drawn`
//! naming the engine and the swaps); and a recorded round compared with
//! the engine's draw of it, each departure with the reasons the chain
//! gives for it.
//!
//! The engine's settings are OpenGotha's defaults for the tournament's
//! system (McMahon or Swiss), changed by the overrides the genesis records
//! with the engine's name (`PairingSystem::McMahonDrawn`, `SwissDrawn`),
//! and the scoring settings of the genesis (bar, floor, bye and absence
//! points, the placement criteria), so every kifu with the same engine
//! draws the same round from the same chain.

use std::collections::BTreeMap;

use kifu_ledger::{Body, DrawSwap, PairingSystem, RoundDrawn, TournamentGenesis};
use kifu_pairing::{Draw, DrawWhy, PairingError, PairingSettings, SwapError, System};
use kifu_standings::Tournament;
use serde::Serialize;

use crate::{entry, Projection, TournamentError};

/// Why the engine cannot draw a round of this tournament.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The engine draws McMahon and Swiss rounds only.
    #[error("the pairing engine draws McMahon and Swiss rounds; this tournament is {0}")]
    System(&'static str),
    /// The genesis names another engine than this kifu's.
    #[error(
        "the tournament is drawn by {recorded}; this kifu draws with {}",
        kifu_pairing::ENGINE
    )]
    Engine {
        /// The engine the genesis names.
        recorded: String,
    },
    /// The chain does not give a standings model.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The draw itself failed.
    #[error(transparent)]
    Pairing(#[from] PairingError),
    /// A director's swap cannot be made.
    #[error(transparent)]
    Swap(#[from] SwapError),
    /// A swap without its reason.
    #[error(
        "the swap of {first} and {second} needs a reason in words: it is recorded in the chain"
    )]
    NoReason {
        /// One player.
        first: String,
        /// The other.
        second: String,
    },
}

/// The engine's settings for a tournament: OpenGotha's defaults for its
/// system, changed by the overrides its genesis records. A genesis that
/// names another engine (an earlier or later version) is refused: this
/// kifu could not promise the same draw.
pub fn settings(g: &TournamentGenesis) -> Result<PairingSettings, DrawError> {
    let defaults = match g.system.base() {
        PairingSystem::McMahon => PairingSettings::for_system(System::McMahon),
        PairingSystem::Swiss => PairingSettings::for_system(System::Swiss),
        PairingSystem::RoundRobin => return Err(DrawError::System("a round robin")),
        _ => return Err(DrawError::System("a knockout")),
    };
    match g.system.draw_rules() {
        None => Ok(defaults),
        Some(r) if r.engine != kifu_pairing::ENGINE => Err(DrawError::Engine {
            recorded: r.engine.clone(),
        }),
        Some(r) => defaults
            .with_overrides(&r.overrides)
            .map_err(|e| DrawError::Pairing(PairingError::Settings(e))),
    }
}

/// The draw settings an OpenGotha file's `HandicapParameterSet` and
/// `PairingParameterSet` attributes give, as the overrides of the engine's
/// defaults for `system` (empty when they are the defaults). An attribute
/// left out takes the engine's default; a value the engine has no setting
/// for (an additional placement criterion other than the rating, a
/// non-deterministic random term) is left at the default.
pub fn opengotha_overrides(
    system: &PairingSystem,
    handicap: &BTreeMap<String, String>,
    pairing: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, String> {
    let defaults = match system.base() {
        PairingSystem::McMahon => PairingSettings::mcmahon(),
        PairingSystem::Swiss => PairingSettings::swiss(),
        _ => return Ok(Vec::new()),
    };
    let rank = |v: &str| -> Option<String> {
        v.parse::<kifu_standings::Rank>()
            .ok()
            .map(|r| r.to_string())
    };
    let word = |v: &str, words: &[(&str, &str)]| -> Option<String> {
        words
            .iter()
            .find(|(w, _)| v.trim().eq_ignore_ascii_case(w))
            .map(|(_, ours)| ours.to_string())
    };
    let dudd = [("TOP", "top"), ("MID", "middle"), ("BOT", "bottom")];
    let seed = [
        ("SPLITANDRANDOM", "split_and_random"),
        ("SPLITANDFOLD", "split_and_fold"),
        ("SPLITANDSLIP", "split_and_slip"),
    ];
    let extra = [("RATING", "rating"), ("NULL", "none")];
    let same = |v: &str| Some(v.trim().to_string());
    type Read<'a> = &'a dyn Fn(&str) -> Option<String>;
    let table: [(&BTreeMap<String, String>, &str, &str, Read); 25] = [
        (handicap, "hdBasedOnMMS", "handicap.based_on_mms", &same),
        (
            handicap,
            "hdNoHdRankThreshold",
            "handicap.no_handicap_above",
            &rank,
        ),
        (handicap, "hdCorrection", "handicap.reduction", &same),
        (handicap, "hdCeiling", "handicap.ceiling", &same),
        (pairing, "paiBaAvoidDuplGame", "avoid_duplicate", &same),
        (pairing, "paiBaRandom", "random", &same),
        (pairing, "paiBaBalanceWB", "balance_colours", &same),
        (
            pairing,
            "paiMaMinimizeScoreDifference",
            "minimize_score_difference",
            &same,
        ),
        (pairing, "paiMaDUDDWeight", "draw_up_down", &same),
        (
            pairing,
            "paiMaCompensateDUDD",
            "compensate_draw_up_down",
            &same,
        ),
        (pairing, "paiMaDUDDUpperMode", "draw_down_from", &|v| {
            word(v, &dudd)
        }),
        (pairing, "paiMaDUDDLowerMode", "draw_up_from", &|v| {
            word(v, &dudd)
        }),
        (pairing, "paiMaMaximizeSeeding", "seeding", &same),
        // The file writes OpenGotha's round index + 1: kifu's round number.
        (
            pairing,
            "paiMaLastRoundForSeedSystem1",
            "last_round_first_seeding",
            &same,
        ),
        (pairing, "paiMaSeedSystem1", "first_seeding", &|v| {
            word(v, &seed)
        }),
        (pairing, "paiMaSeedSystem2", "later_seeding", &|v| {
            word(v, &seed)
        }),
        (
            pairing,
            "paiMaAdditionalPlacementCritSystem1",
            "first_extra_order",
            &|v| word(v, &extra),
        ),
        (
            pairing,
            "paiMaAdditionalPlacementCritSystem2",
            "later_extra_order",
            &|v| word(v, &extra),
        ),
        (
            pairing,
            "paiSeBarThresholdActive",
            "secondary_bar_threshold",
            &same,
        ),
        (
            pairing,
            "paiSeRankThreshold",
            "secondary_rank_threshold",
            &rank,
        ),
        (
            pairing,
            "paiSeNbWinsThresholdActive",
            "secondary_wins_threshold",
            &same,
        ),
        (pairing, "paiSeMinimizeHandicap", "minimize_handicap", &same),
        (pairing, "paiSeAvoidSameGeo", "avoid_same_geo", &same),
        (
            pairing,
            "paiSePreferMMSDiffRatherThanSameCountry",
            "prefer_score_gap_to_same_country",
            &same,
        ),
        (
            pairing,
            "paiSePreferMMSDiffRatherThanSameClub",
            "prefer_score_gap_to_same_club",
            &same,
        ),
    ];
    let mut given: Vec<(String, String)> = Vec::new();
    for (attrs, attr, path, read) in table {
        if let Some(v) = attrs.get(attr).and_then(|v| read(v)) {
            given.push((path.to_string(), v));
        }
    }
    if let Some(k) = pairing.get("paiStandardNX1Factor") {
        let k: f64 = k
            .trim()
            .parse()
            .map_err(|_| format!("paiStandardNX1Factor '{k}' is not a number"))?;
        given.push((
            "nx1_factor_thousandths".into(),
            ((k * 1000.0).round() as i64).to_string(),
        ));
    }
    // Only what differs from the defaults is recorded.
    let ours = defaults.with_overrides(&given)?;
    let (a, b) = (
        serde_json::to_value(&defaults).map_err(|e| e.to_string())?,
        serde_json::to_value(&ours).map_err(|e| e.to_string())?,
    );
    let at = |v: &serde_json::Value, path: &str| -> serde_json::Value {
        path.split('.')
            .fold(v.clone(), |v, p| v.get(p).cloned().unwrap_or_default())
    };
    Ok(given
        .into_iter()
        .filter(|(path, _)| at(&a, path) != at(&b, path))
        .map(|(path, _)| {
            let v = at(&b, &path);
            let text = v
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string());
            (path, text)
        })
        .collect())
}

/// The engine's draw of `round`: the players present and not yet paired,
/// after every earlier round as the chain records it.
pub fn draw(p: &Projection, round: u32) -> Result<Draw, DrawError> {
    let s = settings(&p.genesis)?;
    Ok(kifu_pairing::pair(&p.tournament()?, round, &s)?)
}

/// A round as the director is about to sign it: the engine's draw, the
/// director's swaps with their reasons, the draw they give, and why each
/// board of it is paired as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The engine's draw.
    pub engine: Draw,
    /// The swaps, in order, each with its reason.
    pub swaps: Vec<DrawSwap>,
    /// The engine's draw with the swaps made: what is signed.
    pub draw: Draw,
    /// Why each board of `draw` is paired as it is, and the bye.
    pub why: DrawWhy,
}

/// The engine's draw of `round` changed by `swaps` (each needs a reason),
/// explained board by board.
pub fn propose(p: &Projection, round: u32, swaps: &[DrawSwap]) -> Result<Proposal, DrawError> {
    for s in swaps {
        if s.reason.trim().is_empty() {
            return Err(DrawError::NoReason {
                first: s.first.clone(),
                second: s.second.clone(),
            });
        }
    }
    let settings = settings(&p.genesis)?;
    let t = p.tournament()?;
    let engine = kifu_pairing::pair(&t, round, &settings)?;
    let pairs: Vec<(&str, &str)> = swaps
        .iter()
        .map(|s| (s.first.as_str(), s.second.as_str()))
        .collect();
    let draw = kifu_pairing::apply_swaps(&t, &settings, &engine, &pairs)?;
    let why = kifu_pairing::explain(&t, &draw, &settings)?;
    Ok(Proposal {
        engine,
        swaps: swaps.to_vec(),
        draw,
        why,
    })
}

/// The facts that record `p`: one `paired` per board (its table as the
/// board), the bye, then `round_drawn` naming the engine and the swaps
/// (none when nobody is left to pair).
pub fn facts(p: &Proposal) -> Vec<Body> {
    let d = &p.draw;
    let mut bodies: Vec<Body> = d
        .boards
        .iter()
        .map(|b| entry::pairing(d.round, b.table, &b.white, &b.black, b.handicap, None, true))
        .collect();
    if let Some(player) = &d.bye {
        bodies.push(Body::ByeGiven {
            round: d.round,
            player: player.clone(),
        });
    }
    if !bodies.is_empty() {
        bodies.push(Body::RoundDrawn(RoundDrawn {
            round: d.round,
            engine: kifu_pairing::ENGINE.to_string(),
            swaps: p.swaps.clone(),
        }));
    }
    bodies
}

/// The tables of `d` a swap changed from `engine`'s draw.
fn changed_tables(engine: &Draw, d: &Draw) -> Vec<u32> {
    d.boards
        .iter()
        .filter(|b| !engine.boards.contains(b))
        .map(|b| b.table)
        .collect()
}

/// The reasons of the swaps naming any of `players`.
fn reasons_for(swaps: &[DrawSwap], players: &[&str]) -> Vec<String> {
    swaps
        .iter()
        .filter(|s| players.contains(&s.first.as_str()) || players.contains(&s.second.as_str()))
        .map(|s| format!("{} and {} swapped: {}", s.first, s.second, s.reason))
        .collect()
}

/// A draw as proposed: the round, the engine, its boards with the swaps
/// made, the bye and the swaps with their reasons.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Proposed {
    /// The player given the bye, or null.
    pub bye: Option<String>,
    /// The engine and its version.
    pub engine: String,
    /// The boards, by table.
    pub pairing: Vec<kifu_pairing::Board>,
    /// The round, from 1.
    #[schemars(range(min = 1))]
    pub round: u32,
    /// The director's swaps, in the order made, each with its reason.
    pub swaps: Vec<DrawSwap>,
}

/// A draw as the desk shows it: [`Proposed`] with why each board is paired
/// as it is and why the bye went where it did.
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct Shown {
    /// The draw.
    #[serde(flatten)]
    pub proposed: Proposed,
    /// Why each board is paired as it is.
    pub boards: Vec<BoardShown>,
    /// A swap moved the bye from the engine's choice.
    pub bye_changed: bool,
    /// Why the bye went to its player, or null without a bye.
    pub bye_why: Option<kifu_pairing::ByeWhy>,
    /// The main score the draw groups by.
    #[schemars(with = "MainScoreName")]
    pub score: String,
}

/// Why one board is paired as it is, and whether a swap changed it.
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct BoardShown {
    /// Why the engine pairs it so.
    #[serde(flatten)]
    pub why: kifu_pairing::BoardWhy,
    /// A swap changed the board from the engine's draw.
    pub changed: bool,
    /// The reasons of the swaps naming its players, when a swap changed it.
    pub reasons: Vec<String>,
}

/// The main scores a draw groups by (the schema of [`Shown::score`]).
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
enum MainScoreName {
    /// McMahon score.
    #[serde(rename = "MMS")]
    Mms,
    /// Number of wins (Swiss).
    #[serde(rename = "NBW")]
    Nbw,
}

/// `p` as [`Proposed`].
pub fn proposed(p: &Proposal) -> Proposed {
    let d = &p.draw;
    Proposed {
        bye: d.bye.clone(),
        engine: kifu_pairing::ENGINE.to_string(),
        pairing: d.boards.clone(),
        round: d.round,
        swaps: p.swaps.clone(),
    }
}

/// `p` as JSON ([`Proposed`]).
pub fn json(p: &Proposal) -> serde_json::Value {
    keys_sorted(&proposed(p))
}

/// `p` as the desk shows it ([`Shown`]): each board's why
/// (`kifu_pairing::BoardWhy`, with `changed`: a swap changed it from the
/// engine's draw, and the `reasons` of the swaps naming its players) and
/// the bye's.
pub fn shown(p: &Proposal) -> Shown {
    let changed = changed_tables(&p.engine, &p.draw);
    let boards = p
        .why
        .boards
        .iter()
        .map(|b| {
            let engine_board = p.engine.boards.iter().find(|e| e.table == b.table);
            let mut players = vec![b.white.id.as_str(), b.black.id.as_str()];
            if let Some(e) = engine_board {
                players.extend([e.white.as_str(), e.black.as_str()]);
            }
            BoardShown {
                why: b.clone(),
                changed: changed.contains(&b.table),
                reasons: if changed.contains(&b.table) {
                    reasons_for(&p.swaps, &players)
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    Shown {
        proposed: proposed(p),
        boards,
        bye_changed: p.draw.bye != p.engine.bye,
        bye_why: p.why.bye.clone(),
        score: p.why.score.clone(),
    }
}

/// `p` as the desk shows it, as JSON ([`Shown`]).
pub fn why_json(p: &Proposal) -> serde_json::Value {
    keys_sorted(&shown(p))
}

/// A document as a JSON value: its objects' keys in alphabetical order at
/// every depth (`serde_json`'s map), the order these documents have always
/// been printed in.
fn keys_sorted<T: Serialize>(doc: &T) -> serde_json::Value {
    // Strings and numbers: the documents always serialise.
    serde_json::to_value(doc).unwrap_or(serde_json::Value::Null)
}

/// `p` in words, a board a line (`table white black handicap`, as a round's
/// pairing file is written), each followed by why as a comment; then the
/// bye and the swaps, as comments.
pub fn text(p: &Proposal) -> String {
    let mut out = String::new();
    let score = &p.why.score;
    let who = |w: &kifu_pairing::PlayerWhy| {
        format!(
            "{} ({}, {score} {}, colours {})",
            w.id,
            w.rank,
            w.score,
            if w.colours.is_empty() {
                "none yet".to_string()
            } else {
                w.colours.join(" ")
            }
        )
    };
    for (b, why) in p.draw.boards.iter().zip(&p.why.boards) {
        out.push_str(&format!(
            "{} {} {} {}\n",
            b.table, b.white, b.black, b.handicap
        ));
        out.push_str(&format!(
            "#   {} against {}: {score} difference {}{}; {}\n",
            who(&why.white),
            who(&why.black),
            why.score_difference,
            if why.met_before > 0 {
                format!(", met {} times before", why.met_before)
            } else {
                String::new()
            },
            why.handicap_why
        ));
    }
    if let Some(player) = &p.draw.bye {
        out.push_str(&format!("# bye: {player}\n"));
        if let Some(why) = &p.why.bye {
            out.push_str(&format!("#   {}\n", why.why));
        }
    }
    for s in &p.swaps {
        out.push_str(&format!(
            "# swapped {} and {}: {}\n",
            s.first, s.second, s.reason
        ));
    }
    out
}

/// The tournament as it stood before `round` was drawn: its games and byes
/// from `round` on left out, its absences kept.
fn before(mut t: Tournament, round: u32) -> Tournament {
    t.games.retain(|g| g.round < round);
    t.byes.retain(|(r, _)| *r < round);
    t
}

/// One board (or the bye) of a recorded round that is not the engine's.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Departure {
    /// The round.
    pub round: u32,
    /// The board; `None` for the bye.
    pub board: Option<u32>,
    /// What the chain records there (`P2 - P1 h0`, the bye's player), or
    /// `None` when nothing is.
    pub recorded: Option<String>,
    /// What the engine draws there, or `None` when it draws nothing.
    pub engine: Option<String>,
    /// The reasons the round's `round_drawn` gives, in the swaps naming
    /// a player of this board or bye (`P3 and P5 swapped: ...`).
    pub reasons: Vec<String>,
    /// The round's recorded swaps, made on the engine's draw, give exactly
    /// what is recorded here.
    pub explained: bool,
}

/// `kifu tournament check-pairing --json`: each round's departures from
/// the engine's draw, in words (fields in alphabetical order, as the
/// command line has always printed them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PairingCheck {
    /// The pairing engine and its version.
    pub engine: String,
    /// No round departs from the engine's draw.
    pub ok: bool,
    /// Each round checked.
    pub rounds: Vec<RoundDepartures>,
}

/// One round of a [`PairingCheck`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundDepartures {
    /// Each departure in words ([`Departure`]'s text), none when the round
    /// is the engine's, board for board.
    pub departures: Vec<String>,
    /// The round.
    pub round: u32,
}

impl std::fmt::Display for Departure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.board {
            Some(b) => {
                write!(f, "round {} board {b}: ", self.round)?;
                match (&self.recorded, &self.engine) {
                    (Some(r), Some(e)) => write!(f, "recorded {r}, the engine draws {e}")?,
                    (None, Some(e)) => write!(f, "not recorded, the engine draws {e}")?,
                    (Some(r), None) => write!(f, "recorded {r}, the engine draws no such board")?,
                    (None, None) => write!(f, "neither recorded nor drawn")?,
                }
            }
            None => write!(
                f,
                "round {}: bye recorded {}, the engine gives it to {}",
                self.round,
                self.recorded.as_deref().unwrap_or("to nobody"),
                self.engine.as_deref().unwrap_or("nobody")
            )?,
        }
        if !self.reasons.is_empty() {
            write!(f, "; {}", self.reasons.join("; "))?;
        }
        Ok(())
    }
}

fn board_words(w: &str, b: &str, h: u8) -> String {
    format!("{w} - {b} h{h}")
}

/// How the recorded `round` departs from the engine's draw of it from the
/// rounds before: one [`Departure`] per board or bye that differs (none
/// when the round is the engine's, board for board), each with the
/// reasons the round's `round_drawn` gives for it.
pub fn departures(p: &Projection, round: u32) -> Result<Vec<Departure>, DrawError> {
    let s = settings(&p.genesis)?;
    let t = p.tournament()?;
    let earlier = before(t.clone(), round);
    let engine = kifu_pairing::pair(&earlier, round, &s)?;
    let swaps: &[DrawSwap] = p
        .drawn
        .get(&round)
        .map(|d| d.swaps.as_slice())
        .unwrap_or_default();
    let pairs: Vec<(&str, &str)> = swaps
        .iter()
        .map(|s| (s.first.as_str(), s.second.as_str()))
        .collect();
    // What the recorded swaps give; a swap that cannot be made explains
    // nothing.
    let expected = kifu_pairing::apply_swaps(&earlier, &s, &engine, &pairs).ok();
    let mut recorded: Vec<&kifu_standings::Game> =
        t.games.iter().filter(|g| g.round == round).collect();
    recorded.sort_by_key(|g| g.board);
    let bye = t
        .byes
        .iter()
        .find(|(r, _)| *r == round)
        .map(|(_, p)| p.clone());
    let explains = |g: Option<&&kifu_standings::Game>, table: u32| -> bool {
        let want = expected
            .as_ref()
            .and_then(|d| d.boards.iter().find(|b| b.table == table));
        match (g, want) {
            (Some(g), Some(b)) => {
                g.white == b.white && g.black == b.black && g.handicap == b.handicap
            }
            (None, None) => true,
            _ => false,
        }
    };
    let mut out = Vec::new();
    for b in &engine.boards {
        let g = recorded.iter().find(|g| g.board == b.table);
        if matches!(g, Some(g) if g.white == b.white && g.black == b.black && g.handicap == b.handicap)
        {
            continue;
        }
        let mut players = vec![b.white.as_str(), b.black.as_str()];
        if let Some(g) = g {
            players.extend([g.white.as_str(), g.black.as_str()]);
        }
        out.push(Departure {
            round,
            board: Some(b.table),
            recorded: g.map(|g| board_words(&g.white, &g.black, g.handicap)),
            engine: Some(board_words(&b.white, &b.black, b.handicap)),
            reasons: reasons_for(swaps, &players),
            explained: !swaps.is_empty() && explains(g, b.table),
        });
    }
    for g in &recorded {
        if !engine.boards.iter().any(|b| b.table == g.board) {
            out.push(Departure {
                round,
                board: Some(g.board),
                recorded: Some(board_words(&g.white, &g.black, g.handicap)),
                engine: None,
                reasons: reasons_for(swaps, &[g.white.as_str(), g.black.as_str()]),
                explained: !swaps.is_empty() && explains(Some(g), g.board),
            });
        }
    }
    if bye != engine.bye {
        let players: Vec<&str> = [bye.as_deref(), engine.bye.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        out.push(Departure {
            round,
            board: None,
            reasons: reasons_for(swaps, &players),
            explained: !swaps.is_empty() && expected.as_ref().is_some_and(|d| d.bye == bye),
            recorded: bye,
            engine: engine.bye.clone(),
        });
    }
    Ok(out)
}

/// One round the chain says the engine drew (`round_drawn`), re-derived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundCheck {
    /// The round.
    pub round: u32,
    /// The engine its `round_drawn` names.
    pub engine: String,
    /// The boards and bye that depart from the engine's draw, or why the
    /// round could not be drawn again (another engine, settings this kifu
    /// does not draw with).
    pub departures: Result<Vec<Departure>, String>,
}

/// Every round the chain records as drawn by the engine, drawn again from
/// the records before it, with each departure and the reasons given. A
/// departure is a fact to explain, not a fault of the chain.
pub fn engine_rounds(p: &Projection) -> Vec<RoundCheck> {
    p.drawn
        .values()
        .map(|d| RoundCheck {
            round: d.round,
            engine: d.engine.clone(),
            departures: if d.engine != kifu_pairing::ENGINE {
                Err(DrawError::Engine {
                    recorded: d.engine.clone(),
                }
                .to_string())
            } else {
                departures(p, d.round).map_err(|e| e.to_string())
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chain, TournamentError};
    use kifu_ledger::{Keypair, Participant, Registration, Role};

    fn chain() -> (Chain, Keypair) {
        let key = Keypair::from_seed([7; 32]);
        let officials = vec![Participant {
            role: Role::Director,
            name: "D".into(),
            key: key.public(),
        }];
        let genesis = crate::mcmahon_genesis("Cup", "cup", 3, officials);
        let mut c = Chain::create(&key, 1, genesis).expect("chain");
        for (id, rank) in [
            ("A", "3d"),
            ("B", "1d"),
            ("C", "2k"),
            ("D", "5k"),
            ("E", "8k"),
        ] {
            let reg = Registration {
                rank: rank.into(),
                ..kifu_ledger::testkit::registration(id)
            };
            c.append(&key, 2, Body::PlayerRegistered(reg))
                .expect("registered");
        }
        (c, key)
    }

    fn swap(first: &str, second: &str, reason: &str) -> DrawSwap {
        DrawSwap {
            first: first.into(),
            second: second.into(),
            reason: reason.into(),
        }
    }

    fn sign(c: &mut Chain, key: &Keypair, bodies: Vec<Body>) {
        for body in bodies {
            c.append(key, 3, body).expect("accepted");
        }
    }

    #[test]
    fn a_drawn_round_signed_is_the_engine_s_and_a_changed_board_departs() {
        let (mut c, key) = chain();
        let d = draw(&c.projection, 1).expect("draws");
        assert_eq!(d.boards.len(), 2);
        // Five players: the bye to the weakest, E (8k).
        assert_eq!(d.bye.as_deref(), Some("E"));
        let p = propose(&c.projection, 1, &[]).expect("proposes");
        assert_eq!(p.draw, d);
        let bodies = facts(&p);
        assert!(
            matches!(bodies.last(), Some(Body::RoundDrawn(r)) if r.round == 1 && r.swaps.is_empty() && r.engine == kifu_pairing::ENGINE)
        );
        sign(&mut c, &key, bodies);
        assert_eq!(
            departures(&c.projection, 1).expect("compares"),
            Vec::<Departure>::new()
        );
        let j = json(&p);
        assert_eq!(j["bye"], "E");
        assert_eq!(j["pairing"][0]["table"], 1);
        // Board 1 replaced by hand after the draw was signed: one
        // departure, named, that no recorded swap explains.
        let b = &d.boards[0];
        c.append(
            &key,
            4,
            entry::pairing(1, 1, &b.black, &b.white, 0, None, true),
        )
        .expect("a director may pair by hand");
        let found = departures(&c.projection, 1).expect("compares");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(!found[0].explained && found[0].reasons.is_empty());
        assert!(
            found[0]
                .to_string()
                .starts_with("round 1 board 1: recorded"),
            "{found:?}"
        );
        let rounds = engine_rounds(&c.projection);
        assert_eq!(rounds.len(), 1);
        assert_eq!(rounds[0].departures.as_ref().map(Vec::len), Ok(1));
    }

    #[test]
    fn a_swap_between_boards_is_signed_with_its_reason_and_each_board_departs_with_it() {
        let (mut c, key) = chain();
        let d = draw(&c.projection, 1).expect("draws");
        let (one, two) = (&d.boards[0], &d.boards[1]);
        // Board 1's White and board 2's Black exchange places.
        let reason = "brothers: they travel together and asked not to meet";
        let p = propose(&c.projection, 1, &[swap(&one.white, &two.black, reason)]).expect("swaps");
        assert_eq!(p.engine, d);
        let (n1, n2) = (&p.draw.boards[0], &p.draw.boards[1]);
        let mut first = [n1.white.as_str(), n1.black.as_str()];
        first.sort();
        let mut want = [two.black.as_str(), one.black.as_str()];
        want.sort();
        assert_eq!(first, want, "{:?}", p.draw);
        assert!(
            n2.white == one.white || n2.black == one.white,
            "{:?}",
            p.draw
        );
        // Every changed board has the handicap the rule gives its players,
        // the stronger as White.
        for (b, why) in p.draw.boards.iter().zip(&p.why.boards) {
            assert_eq!(why.handicap, b.handicap);
            if b.handicap > 0 {
                assert!(why.white.score > why.black.score, "{why:?}");
            }
        }
        let j = why_json(&p);
        assert_eq!(j["boards"][0]["changed"], true);
        assert_eq!(j["boards"][1]["changed"], true);
        assert!(j["boards"][0]["reasons"][0]
            .as_str()
            .unwrap_or("")
            .ends_with(reason));
        let bodies = facts(&p);
        match bodies.last() {
            Some(Body::RoundDrawn(r)) => assert_eq!(r.swaps, p.swaps),
            other => panic!("{other:?}"),
        }
        sign(&mut c, &key, bodies);
        assert_eq!(c.projection.drawn[&1].swaps[0].reason, reason);
        let found = departures(&c.projection, 1).expect("compares");
        assert_eq!(found.len(), 2, "{found:?}");
        for dep in &found {
            assert!(dep.explained, "{dep:?}");
            assert_eq!(dep.reasons.len(), 1);
            assert!(dep.to_string().contains(reason), "{dep}");
        }
        // The chain read back says the same.
        let again = Chain::open(c.records.clone()).expect("verifies");
        assert_eq!(departures(&again.projection, 1).expect("compares"), found);
    }

    #[test]
    fn a_swap_with_the_bye_and_a_colour_swap_are_made_and_a_handicap_game_keeps_its_colours() {
        let (c, _) = chain();
        let d = draw(&c.projection, 1).expect("draws");
        // A on board 1 takes the bye; E plays in A's seat.
        let p = propose(&c.projection, 1, &[swap("A", "E", "A is ill")]).expect("swaps");
        assert_eq!(p.draw.bye.as_deref(), Some("A"));
        assert!(p
            .draw
            .boards
            .iter()
            .any(|b| b.white == "E" || b.black == "E"));
        let j = why_json(&p);
        assert_eq!(j["bye_changed"], true);
        assert_eq!(j["bye_why"]["player"]["id"], "A");
        // The even board's colours exchanged.
        let even = d
            .boards
            .iter()
            .find(|b| b.handicap == 0)
            .expect("an even game");
        let p = propose(
            &c.projection,
            1,
            &[swap(&even.white, &even.black, "White asked for Black")],
        )
        .expect("swaps colours");
        let b = p
            .draw
            .boards
            .iter()
            .find(|b| b.table == even.table)
            .expect("table");
        assert_eq!((&b.white, &b.black), (&even.black, &even.white));
        assert!(p
            .why
            .boards
            .iter()
            .any(|w| w.handicap_why.contains("as the director set it")));
        // The handicap game's are not.
        let h = d
            .boards
            .iter()
            .find(|b| b.handicap > 0)
            .expect("a handicap game");
        assert!(matches!(
            propose(&c.projection, 1, &[swap(&h.white, &h.black, "asked")]),
            Err(DrawError::Swap(SwapError::HandicapColours { .. }))
        ));
        // No reason, the same player twice, a player not in the draw.
        assert!(matches!(
            propose(&c.projection, 1, &[swap("A", "B", "  ")]),
            Err(DrawError::NoReason { .. })
        ));
        assert!(matches!(
            propose(&c.projection, 1, &[swap("A", "A", "r")]),
            Err(DrawError::Swap(SwapError::SamePlayer(_)))
        ));
        assert!(matches!(
            propose(&c.projection, 1, &[swap("A", "Z", "r")]),
            Err(DrawError::Swap(SwapError::NotInDraw(..)))
        ));
    }

    #[test]
    fn why_states_each_player_s_score_colours_and_how_the_handicap_came() {
        let (mut c, key) = chain();
        let p = propose(&c.projection, 1, &[]).expect("proposes");
        // Round 1: MMS from the ranks (bar 4d... 3d = 32, 1d = 30, 2k = 28,
        // 5k = 25); C (2k) against D (5k): 3 − 1 = 2 stones.
        let hd = p
            .why
            .boards
            .iter()
            .find(|b| b.handicap > 0)
            .expect("handicap board");
        assert_eq!((hd.white.id.as_str(), hd.black.id.as_str()), ("C", "D"));
        assert_eq!(
            (hd.white.score, hd.black.score, hd.score_difference),
            (28.0, 25.0, 3.0)
        );
        assert!(
            hd.handicap_why.contains("MMS 28 against MMS 25"),
            "{}",
            hd.handicap_why
        );
        assert!(
            hd.handicap_why.contains("difference 3, less 1: 2 stones"),
            "{}",
            hd.handicap_why
        );
        assert_eq!(p.why.score, "MMS");
        assert!(p
            .why
            .bye
            .as_ref()
            .is_some_and(|b| b.player.id == "E" && b.why.contains("lowest")));
        sign(&mut c, &key, facts(&p));
        for b in &p.draw.boards {
            c.append(
                &key,
                5,
                Body::BoardResultEntered {
                    round: 1,
                    board: b.table,
                    result: kifu_ledger::BoardResult::WhiteWins,
                    by_default: false,
                    reason: "result sheet".into(),
                },
            )
            .expect("result");
        }
        // Round 2: each player's colours so far and the bye had.
        let p2 = propose(&c.projection, 2, &[]).expect("proposes round 2");
        let all: Vec<&kifu_pairing::PlayerWhy> = p2
            .why
            .boards
            .iter()
            .flat_map(|b| [&b.white, &b.black])
            .chain(p2.why.bye.as_ref().map(|b| &b.player))
            .collect();
        let of = |id: &str| all.iter().find(|w| w.id == id).expect("listed");
        assert_eq!(of("E").colours, ["bye"]);
        assert_eq!(of("C").colours, ["W h2"]);
        assert_eq!(of("D").colours, ["B h2"]);
        // C won as White: 29 before round 2.
        assert_eq!(of("C").score, 29.0);
        let t = text(&p2);
        assert!(
            t.lines().next().is_some_and(|l| l.split(' ').count() == 4),
            "{t}"
        );
        assert!(t.contains("colours"), "{t}");
    }

    #[test]
    fn a_round_drawn_is_refused_before_its_round_is_paired_or_without_a_reason() {
        let (mut c, key) = chain();
        let drawn = |swaps: Vec<DrawSwap>| {
            Body::RoundDrawn(RoundDrawn {
                round: 1,
                engine: kifu_pairing::ENGINE.into(),
                swaps,
            })
        };
        // The swap names players with no place in the round yet.
        assert!(matches!(
            c.projection.check(&drawn(vec![swap("A", "B", "asked")])),
            Err(TournamentError::BadSwap { .. })
        ));
        let p = propose(&c.projection, 1, &[]).expect("proposes");
        sign(&mut c, &key, facts(&p));
        for (bad, words) in [
            (swap("A", "B", " "), "no reason"),
            (swap("A", "A", "r"), "themself"),
        ] {
            let e = c.projection.check(&drawn(vec![bad])).expect_err("refused");
            assert!(e.to_string().contains(words), "{e}");
        }
        assert!(matches!(
            c.projection.check(&drawn(vec![swap("A", "Q", "r")])),
            Err(TournamentError::Unregistered(_))
        ));
        c.projection
            .check(&drawn(vec![swap("A", "B", "asked")]))
            .expect("both paired: accepted");
    }

    #[test]
    fn the_genesis_s_overrides_are_drawn_with_and_another_engine_refused() {
        let (mut c, _) = chain();
        let rules = |engine: &str, ceiling: &str| {
            PairingSystem::McMahonDrawn(kifu_ledger::DrawRules {
                engine: engine.into(),
                overrides: vec![("handicap.ceiling".into(), ceiling.into())],
            })
        };
        // 2k (MMS 28) against 5k (MMS 25): 3 − 1 = 2 stones by default,
        // at most one with a ceiling of 1.
        let handicaps = |c: &Chain| -> Vec<u8> {
            draw(&c.projection, 1)
                .expect("draws")
                .boards
                .iter()
                .map(|b| b.handicap)
                .collect()
        };
        assert_eq!(handicaps(&c), [0, 2]);
        c.projection.genesis.system = rules(kifu_pairing::ENGINE, "1");
        assert_eq!(handicaps(&c), [0, 1]);
        c.projection.genesis.system = rules("kifu-pairing/0", "1");
        assert!(matches!(
            draw(&c.projection, 1),
            Err(DrawError::Engine { .. })
        ));
        c.projection.genesis.system = rules(kifu_pairing::ENGINE, "10");
        assert!(matches!(
            draw(&c.projection, 1),
            Err(DrawError::Pairing(PairingError::Settings(_)))
        ));
    }

    #[test]
    fn an_opengotha_file_s_settings_become_the_overrides_that_differ() {
        let m = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        // OpenGotha's own McMahon defaults, as its files write them.
        let hd = m(&[
            ("hdBasedOnMMS", "true"),
            ("hdCeiling", "9"),
            ("hdCorrection", "1"),
            ("hdNoHdRankThreshold", "1D"),
        ]);
        let pai = m(&[
            ("paiMaLastRoundForSeedSystem1", "2"),
            ("paiMaSeedSystem1", "SPLITANDRANDOM"),
            ("paiMaSeedSystem2", "SPLITANDSLIP"),
            ("paiMaAdditionalPlacementCritSystem1", "Rating"),
            ("paiMaAdditionalPlacementCritSystem2", "NULL"),
            ("paiMaDUDDUpperMode", "MID"),
            ("paiSeRankThreshold", "1D"),
            ("paiSeNbWinsThresholdActive", "false"),
            ("paiStandardNX1Factor", "0.5"),
        ]);
        assert_eq!(
            opengotha_overrides(&PairingSystem::McMahon, &hd, &pai),
            Ok(vec![])
        );
        // A Swiss file with McMahon's handicap, and another seeding.
        let mut pai2 = pai.clone();
        pai2.insert("paiMaSeedSystem2".into(), "SPLITANDFOLD".into());
        let o = opengotha_overrides(&PairingSystem::McMahon, &hd, &pai2).expect("reads");
        assert_eq!(
            o,
            [("later_seeding".to_string(), "split_and_fold".to_string())]
        );
        let o = opengotha_overrides(&PairingSystem::Swiss, &m(&[("hdCeiling", "4")]), &m(&[]))
            .expect("reads");
        assert_eq!(o, [("handicap.ceiling".to_string(), "4".to_string())]);
        assert!(
            opengotha_overrides(&PairingSystem::McMahon, &m(&[("hdCeiling", "x")]), &m(&[]))
                .is_err()
        );
    }

    #[test]
    fn a_round_robin_is_not_drawn_by_the_engine() {
        let (mut c, _) = chain();
        c.projection.genesis.system = PairingSystem::RoundRobin;
        assert_eq!(
            draw(&c.projection, 1),
            Err(DrawError::System("a round robin"))
        );
    }
}
