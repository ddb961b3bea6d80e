//! Where each value of the standings comes from: for one player after one
//! round, each criterion's value taken apart into what each round added
//! (the opponent, the colour, the handicap, the result, and the number that
//! round contributed), the way a player checks their SOS by hand.
//!
//! The parts are the very terms [`crate::scores`] adds up (no second
//! computation): for every criterion but DC, SDC and head-to-head,
//! `base + adjustment + Σ counted parts = value`. DC, SDC and head-to-head
//! are decided inside a group of tied players; their parts are the games
//! between members of that group.

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::compute::{scores_detailed, standings, Detail, Standings};
use crate::criterion::Criterion;
use crate::model::{GameResult, ModelError, Participation, Tournament};
use crate::value::Value;

/// What one round added to one criterion's value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// The round, from 1.
    pub round: u32,
    /// The opponent's registration id (none for a bye, an absence, a round
    /// not assigned).
    pub opponent: Option<String>,
    /// `white`, `black`, or `unknown` when the colours were not noted; none
    /// without a game.
    pub colour: Option<String>,
    /// Handicap stones of the game (0 without one).
    pub handicap: u8,
    /// `win`, `loss`, `jigo`, `both win`, `both lose`, `no result yet`,
    /// `bye`, `absent` or `not assigned`.
    pub outcome: String,
    /// The result was given by default (a forfeit).
    pub by_default: bool,
    /// The number this round brings to the criterion (for SOS the
    /// opponent's score, for SODOS that score times the result).
    pub value: Value,
    /// False when the criterion leaves this part out (the lowest values of
    /// SOS−1 and SOS−2, the highest and lowest of the median Buchholz).
    pub counted: bool,
}

/// One criterion's value for one player, taken apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breakdown {
    /// The criterion.
    pub criterion: Criterion,
    /// Its value (as in the standings).
    pub value: Value,
    /// What is added before the rounds (the starting McMahon score for MMS).
    pub base: Value,
    /// What is added after them (the rounding down of bye and absence
    /// points; negative or zero).
    pub adjustment: Value,
    /// How the parts make the value, in words.
    pub rule: String,
    /// One part per round (for DC, SDC and head-to-head: the games inside
    /// the tied group).
    pub parts: Vec<Part>,
}

fn outcome(result: GameResult, white: bool) -> &'static str {
    match (result, white) {
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => "win",
        (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => "loss",
        (GameResult::Jigo, _) => "jigo",
        (GameResult::BothWin, _) => "both win",
        (GameResult::BothLose, _) => "both lose",
        (GameResult::Unknown, _) => "no result yet",
    }
}

/// The rounds of `player` as parts with no value yet.
fn rounds(t: &Tournament, after_round: u32, player: &str) -> Vec<Part> {
    (1..=after_round)
        .map(|round| {
            let blank = |outcome: &str| Part {
                round,
                opponent: None,
                colour: None,
                handicap: 0,
                outcome: outcome.to_string(),
                by_default: false,
                value: Value::ZERO,
                counted: true,
            };
            match t.participation(round, player) {
                Participation::Paired(g) => {
                    let white = g.white == player;
                    Part {
                        opponent: Some(g.opponent_of(player).to_string()),
                        colour: Some(
                            match (g.colours_known, white) {
                                (false, _) => "unknown",
                                (true, true) => "white",
                                (true, false) => "black",
                            }
                            .to_string(),
                        ),
                        handicap: g.handicap,
                        outcome: outcome(g.result, white).to_string(),
                        by_default: g.by_default,
                        ..blank("")
                    }
                }
                Participation::Bye => blank("bye"),
                Participation::Absent => blank("absent"),
                Participation::NotAssigned => blank("not assigned"),
            }
        })
        .collect()
}

/// Marks as not counted the parts at the `k` lowest values (the first of
/// equal ones), and with `highest` also the part at the highest value.
fn drop_extremes(parts: &mut [Part], lowest: usize, highest: bool) {
    for _ in 0..lowest {
        if let Some(p) = parts
            .iter_mut()
            .filter(|p| p.counted)
            .min_by_key(|p| (p.value, p.round))
        {
            p.counted = false;
        }
    }
    if highest {
        if let Some(p) = parts
            .iter_mut()
            .filter(|p| p.counted)
            .max_by_key(|p| (p.value, std::cmp::Reverse(p.round)))
        {
            p.counted = false;
        }
    }
}

/// Every criterion of `criteria` (the tournament's own when empty) for
/// `player` after `after_round`, taken apart. Errors as [`standings`];
/// a player who is not registered is [`ModelError::UnknownPlayer`].
pub fn breakdown(
    t: &Tournament,
    after_round: u32,
    criteria: &[Criterion],
    player: &str,
) -> Result<Vec<Breakdown>, ModelError> {
    let criteria = criteria_or_own(t, criteria);
    let st = standings(t, after_round, &criteria, &[])?;
    let (_, details) = scores_detailed(t, after_round)?;
    let Some(i) = t.players.iter().position(|p| p.id == player) else {
        return Err(ModelError::UnknownPlayer {
            round: after_round,
            player: player.to_string(),
        });
    };
    one(t, after_round, &criteria, &st, &details[i], player)
}

/// [`breakdown`] of every player, computing the standings once: player id
/// → one breakdown per criterion.
pub fn breakdown_all(
    t: &Tournament,
    after_round: u32,
    criteria: &[Criterion],
) -> Result<BTreeMap<String, Vec<Breakdown>>, ModelError> {
    let criteria = criteria_or_own(t, criteria);
    let st = standings(t, after_round, &criteria, &[])?;
    let (_, details) = scores_detailed(t, after_round)?;
    t.players
        .iter()
        .zip(&details)
        .map(|(p, d)| Ok((p.id.clone(), one(t, after_round, &criteria, &st, d, &p.id)?)))
        .collect()
}

fn criteria_or_own(t: &Tournament, criteria: &[Criterion]) -> Vec<Criterion> {
    if criteria.is_empty() {
        t.settings.criteria.clone()
    } else {
        criteria.to_vec()
    }
}

/// One player's breakdown from the standings and the player's detail.
fn one(
    t: &Tournament,
    after_round: u32,
    criteria: &[Criterion],
    st: &Standings,
    d: &Detail,
    player: &str,
) -> Result<Vec<Breakdown>, ModelError> {
    let Some(i) = t.players.iter().position(|p| p.id == player) else {
        return Err(ModelError::UnknownPlayer {
            round: after_round,
            player: player.to_string(),
        });
    };
    let row =
        st.rows
            .iter()
            .find(|r| r.player == player)
            .ok_or_else(|| ModelError::UnknownPlayer {
                round: after_round,
                player: player.to_string(),
            })?;
    let smms = Value::from_points(t.settings.smms(&t.players[i]));
    let base_parts = rounds(t, after_round, player);
    let last = after_round as usize - 1;
    let mut out = Vec::with_capacity(criteria.len());
    for &c in criteria {
        let value = row.get(c).unwrap_or_default();
        let mut parts = base_parts.clone();
        let set = |parts: &mut Vec<Part>, terms: &[i64], unit: fn(i64) -> Value| {
            for (p, &v) in parts.iter_mut().zip(terms) {
                p.value = unit(v);
            }
        };
        let half = Value::from_halves;
        let quarter = Value::from_quarters;
        let own_sum: i64 = d.own2.iter().sum();
        let (mut base, mut adjustment) = (Value::ZERO, Value::ZERO);
        let rule: String = match c {
            Criterion::Nbw | Criterion::Points => {
                set(&mut parts, &d.own2, half);
                adjustment = half(d.nbw2[last] - own_sum);
                "the points of each round (a win 1, a jigo ½, a bye or an absence as the tournament counts them); the sum of bye and absence points rounded down when the tournament says so".into()
            }
            Criterion::Mms => {
                set(&mut parts, &d.own2, half);
                base = smms;
                // MMS counts bye and absence points by their MMS values.
                for (p, rr) in parts.iter_mut().zip(0..) {
                    p.value = match p.outcome.as_str() {
                        "bye" => half(i64::from(t.settings.mms2_bye)),
                        "absent" => half(i64::from(t.settings.mms2_absent)),
                        _ => half(d.own2[rr]),
                    };
                }
                let raw: Value = parts.iter().map(|p| p.value).sum();
                adjustment = half(d.mms2[last]) - smms - raw;
                "the starting McMahon score, then the points of each round; the sum of bye and absence points rounded down when the tournament says so".into()
            }
            Criterion::Cussw => {
                set(&mut parts, &d.nbw2, half);
                "the player's NBW after each round, added up".into()
            }
            Criterion::Cussm => {
                set(&mut parts, &d.mms2, half);
                "the player's MMS after each round, added up".into()
            }
            Criterion::Sosw | Criterion::Buchholz => {
                set(&mut parts, &d.osw2, half);
                "each opponent's NBW after this round; 0 for a round without a game".into()
            }
            Criterion::SoswM1 | Criterion::SoswM2 => {
                set(&mut parts, &d.osw2, half);
                let k = if c == Criterion::SoswM1 { 1 } else { 2 };
                if parts.len() <= k {
                    parts.iter_mut().for_each(|p| p.counted = false);
                } else {
                    drop_extremes(&mut parts, k, false);
                }
                format!("SOSW without its {k} lowest part(s)")
            }
            Criterion::MedianBuchholz => {
                set(&mut parts, &d.osw2, half);
                if parts.len() < 3 {
                    parts.iter_mut().for_each(|p| p.counted = false);
                } else {
                    drop_extremes(&mut parts, 1, true);
                }
                "SOSW without its highest and its lowest part (0 before round 3)".into()
            }
            Criterion::Sosm => {
                set(&mut parts, &d.osm2, half);
                "each opponent's MMS after this round, plus the handicap when White, minus it when Black; the player's own starting McMahon score for a round without a game".into()
            }
            Criterion::SosmM1 | Criterion::SosmM2 => {
                set(&mut parts, &d.osm2, half);
                let k = if c == Criterion::SosmM1 { 1 } else { 2 };
                if after_round < 3 {
                    parts.iter_mut().for_each(|p| p.counted = false);
                } else {
                    drop_extremes(&mut parts, k, false);
                }
                format!("SOSM without its {k} lowest part(s) (0 before round 3, as OpenGotha)")
            }
            Criterion::Sodosw | Criterion::SonnebornBerger => {
                set(&mut parts, &d.sodosw4, quarter);
                "each opponent's NBW times the result (1 a win, ½ a jigo, 0 a loss)".into()
            }
            Criterion::Sodosm => {
                set(&mut parts, &d.sodosm4, quarter);
                "each opponent's SOSM part times the result (1 a win, ½ a jigo, 0 a loss)".into()
            }
            Criterion::Sososw => {
                set(&mut parts, &d.sososw2, half);
                "each opponent's SOSW; 0 for a round without a game".into()
            }
            Criterion::Sososm => {
                set(&mut parts, &d.sososm2, half);
                "each opponent's SOSM; the own starting McMahon score times the rounds for a round without a game".into()
            }
            Criterion::Ext => {
                set(&mut parts, &d.ext2, half);
                "each opponent's NBW times how hard the game was (0 to 3, from the handicap against the rank difference)".into()
            }
            Criterion::Exr => {
                set(&mut parts, &d.exr2, half);
                "EXT's parts of the games won".into()
            }
            Criterion::Wins => {
                let ones: Vec<i64> = d.win.iter().map(|&w| i64::from(w)).collect();
                set(&mut parts, &ones, Value::from_points);
                "1 for each round won, forfeit wins and a full-point bye included".into()
            }
            Criterion::WinsOverTheBoard => {
                let ones: Vec<i64> = d.won.iter().map(|&w| i64::from(w)).collect();
                set(&mut parts, &ones, Value::from_points);
                "1 for each game won over the board".into()
            }
            Criterion::Dc | Criterion::Sdc | Criterion::HeadToHead => {
                // The group: the players equal on every criterion before
                // the first of DC/SDC (or before head-to-head).
                let pos = criteria
                    .iter()
                    .position(|k| {
                        if c == Criterion::HeadToHead {
                            *k == Criterion::HeadToHead
                        } else {
                            matches!(k, Criterion::Dc | Criterion::Sdc)
                        }
                    })
                    .unwrap_or(0);
                let before = &criteria[..pos];
                let key = |r: &crate::Row| -> Vec<Value> {
                    before
                        .iter()
                        .map(|k| r.get(*k).unwrap_or_default())
                        .collect()
                };
                let mine = key(row);
                let group: Vec<&str> = st
                    .rows
                    .iter()
                    .filter(|r| key(r) == mine)
                    .map(|r| r.player.as_str())
                    .collect();
                parts.retain(|p| p.opponent.as_deref().is_some_and(|o| group.contains(&o)));
                for p in &mut parts {
                    p.value = Value::ZERO;
                    p.counted = false;
                }
                let names = before
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ");
                let members = group.join(", ");
                match c {
                    Criterion::HeadToHead => format!("the points scored in the games between the players equal on {names} ({members}), when every two of them met; else 0"),
                    Criterion::Sdc => format!("the number of players beaten among those equal on {names} ({members}), when every two of them have a decisive result; else 0"),
                    _ => format!("the place by wins over the board among the players equal on {names} ({members}), cycles of wins merged, ties broken by the criteria after DC (docs/TOURNAMENTS.md)"),
                }
            }
        };
        out.push(Breakdown {
            criterion: c,
            value,
            base,
            adjustment,
            rule,
            parts,
        });
    }
    Ok(out)
}
