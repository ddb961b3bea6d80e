//! Scores and placement criteria after a round, as OpenGotha 3.51 computes
//! them (`Tournament.fillBaseScoringInfoIfNecessary`, steps 1 to 6).
//!
//! OpenGotha keeps scores ×2 and SODOS ×4; the working values here are the
//! same integers (`*2` and `*4` names), turned into [`Value`]s at the end.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::criterion::Criterion;
use crate::direct;
use crate::model::{Game, ModelError, Participation, Tournament};
use crate::value::Value;

/// Every criterion's value for one player after one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerScores {
    /// Registration id.
    pub player: String,
    /// Starting McMahon score (whole points).
    pub smms: i64,
    /// Values of the criteria that do not depend on a tied group (all but
    /// DC, SDC and head-to-head).
    pub values: BTreeMap<Criterion, Value>,
}

impl PlayerScores {
    /// The value of `c` (zero for the group criteria, which live in [`Row`]).
    pub fn get(&self, c: Criterion) -> Value {
        self.values.get(&c).copied().unwrap_or(Value::ZERO)
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Place, from 1; players equal on every ordering criterion share it.
    pub place: u32,
    /// Registration id.
    pub player: String,
    /// The values of the requested criteria, in the requested order.
    pub values: Vec<(Criterion, Value)>,
}

impl Row {
    /// The value of `c` in this row, if it was requested.
    pub fn get(&self, c: Criterion) -> Option<Value> {
        self.values.iter().find(|(k, _)| *k == c).map(|(_, v)| *v)
    }
}

/// The standings after a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The last round taken into account, from 1.
    pub round: u32,
    /// The ordering criteria, in order.
    pub criteria: Vec<Criterion>,
    /// The rows, best first; ex-aequo players in name order.
    pub rows: Vec<Row>,
}

/// Index of the players and of each player's game per round.
struct Layout<'a> {
    t: &'a Tournament,
    index: HashMap<&'a str, usize>,
    /// `part[i][rr]`, rr from 0.
    part: Vec<Vec<Participation<'a>>>,
}

impl<'a> Layout<'a> {
    fn new(t: &'a Tournament, rounds: usize) -> Layout<'a> {
        let index: HashMap<&str, usize> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.as_str(), i))
            .collect();
        let mut games: HashMap<(u32, &str), &Game> = HashMap::new();
        for g in &t.games {
            games.insert((g.round, g.white.as_str()), g);
            games.insert((g.round, g.black.as_str()), g);
        }
        let part = t
            .players
            .iter()
            .map(|p| {
                (1..=rounds as u32)
                    .map(|round| {
                        let key = (round, p.id.clone());
                        if t.byes.contains(&key) {
                            Participation::Bye
                        } else if let Some(g) = games.get(&(round, p.id.as_str())) {
                            Participation::Paired(g)
                        } else if t.absences.contains(&key) {
                            Participation::Absent
                        } else {
                            Participation::NotAssigned
                        }
                    })
                    .collect()
            })
            .collect();
        Layout { t, index, part }
    }

    fn opp(&self, g: &Game, me: usize) -> usize {
        let id = g.opponent_of(&self.t.players[me].id);
        self.index.get(id).copied().unwrap_or(me)
    }
}

/// SOS minus the lowest one or two per-round values, exactly as OpenGotha
/// ("soswM1X2, soswM2X2"): after one round both are 0, after two rounds
/// SOS−1 is the larger value and SOS−2 is 0.
fn cuts(values: &[i64]) -> (i64, i64) {
    match values.len() {
        0 | 1 => (0, 0),
        2 => (values[0].max(values[1]), 0),
        _ => {
            let mut sorted = values.to_vec();
            sorted.sort_unstable();
            let sum: i64 = values.iter().sum();
            (sum - sorted[0], sum - sorted[0] - sorted[1])
        }
    }
}

/// Every player's values after `after_round` (from 1) for all criteria but
/// the group ones (DC, SDC, head-to-head).
pub fn scores(t: &Tournament, after_round: u32) -> Result<Vec<PlayerScores>, ModelError> {
    scores_detailed(t, after_round).map(|(s, _)| s)
}

/// What each round added to one player's values: the terms the sums of
/// [`scores_detailed`] are made of (half points, SODOS in quarters), one
/// entry per round from round 1.
#[derive(Debug, Clone, Default)]
pub(crate) struct Detail {
    /// The round's own points in halves: the game's, or the bye's or
    /// absence's before the rounding down.
    pub own2: Vec<i64>,
    /// NBW after the round (halves).
    pub nbw2: Vec<i64>,
    /// MMS after the round (halves).
    pub mms2: Vec<i64>,
    /// The SOSW term.
    pub osw2: Vec<i64>,
    /// The SOSM term.
    pub osm2: Vec<i64>,
    /// The SODOSW term (quarters).
    pub sodosw4: Vec<i64>,
    /// The SODOSM term (quarters).
    pub sodosm4: Vec<i64>,
    /// The SOSOSW term.
    pub sososw2: Vec<i64>,
    /// The SOSOSM term.
    pub sososm2: Vec<i64>,
    /// The EXT term.
    pub ext2: Vec<i64>,
    /// The EXR term.
    pub exr2: Vec<i64>,
    /// The round counts in WINS.
    pub win: Vec<bool>,
    /// The round counts in WON.
    pub won: Vec<bool>,
}

/// [`scores`], with each player's [`Detail`].
pub(crate) fn scores_detailed(
    t: &Tournament,
    after_round: u32,
) -> Result<(Vec<PlayerScores>, Vec<Detail>), ModelError> {
    t.validate()?;
    if after_round == 0 || after_round > t.settings.rounds {
        return Err(ModelError::NoSuchRound {
            round: after_round,
            rounds: t.settings.rounds,
        });
    }
    let s = &t.settings;
    let rounds = after_round as usize;
    let r = rounds - 1;
    let lay = Layout::new(t, rounds);
    let n = t.players.len();
    let smms: Vec<i64> = t.players.iter().map(|p| s.smms(p)).collect();
    let mut detail: Vec<Detail> = vec![Detail::default(); n];

    // 2) NBW and MMS after each round; bye/absent points summed and rounded
    // down at each round (OpenGotha `genRoundDownNBWMMS`). 2bis) the
    // "virtual" scores where every unplayed round counts ½.
    let mut nbw2 = vec![vec![0i64; rounds]; n];
    let mut mms2 = vec![vec![0i64; rounds]; n];
    let mut nbw_virtual2 = vec![0i64; n];
    let mut mms_virtual2 = vec![0i64; n];
    for i in 0..n {
        let id = t.players[i].id.as_str();
        let (mut games2, mut played2, mut unplayed) = (0i64, 0i64, 0i64);
        let (mut ab_nbw2, mut ab_mms2) = (0i64, 0i64);
        for rr in 0..rounds {
            let own2 = match lay.part[i][rr] {
                Participation::Paired(g) => g.halves_for(id),
                Participation::Bye => i64::from(s.nbw2_bye),
                Participation::Absent => i64::from(s.nbw2_absent),
                Participation::NotAssigned => 0,
            };
            detail[i].own2.push(own2);
            match lay.part[i][rr] {
                Participation::Paired(g) => {
                    games2 += g.halves_for(id);
                    if g.was_played() {
                        played2 += g.halves_for(id);
                    } else {
                        unplayed += 1;
                    }
                }
                Participation::Bye => {
                    ab_nbw2 += i64::from(s.nbw2_bye);
                    ab_mms2 += i64::from(s.mms2_bye);
                    unplayed += 1;
                }
                Participation::Absent => {
                    ab_nbw2 += i64::from(s.nbw2_absent);
                    ab_mms2 += i64::from(s.mms2_absent);
                    unplayed += 1;
                }
                Participation::NotAssigned => unplayed += 1,
            }
            let (rn, rm) = if s.round_down_bye_absent {
                (ab_nbw2 / 2 * 2, ab_mms2 / 2 * 2)
            } else {
                (ab_nbw2, ab_mms2)
            };
            nbw2[i][rr] = games2 + rn;
            mms2[i][rr] = 2 * smms[i] + games2 + rm;
        }
        detail[i].nbw2 = nbw2[i].clone();
        detail[i].mms2 = mms2[i].clone();
        nbw_virtual2[i] = played2 + unplayed;
        mms_virtual2[i] = 2 * smms[i] + played2 + unplayed;
    }
    let opp_nbw2 = |o: usize| {
        if s.unplayed_as_half {
            nbw_virtual2[o]
        } else {
            nbw2[o][r]
        }
    };
    let opp_mms2 = |o: usize| {
        if s.unplayed_as_half {
            mms_virtual2[o]
        } else {
            mms2[o][r]
        }
    };

    // 4) SOS, SOS-1, SOS-2 and SODOS on NBW and on MMS.
    let mut sosw2 = vec![0i64; n];
    let mut sosm2 = vec![0i64; n];
    let mut out: Vec<BTreeMap<Criterion, Value>> = vec![BTreeMap::new(); n];
    for i in 0..n {
        let id = t.players[i].id.as_str();
        let mut osw2 = Vec::with_capacity(rounds);
        let mut osm2 = Vec::with_capacity(rounds);
        let (mut sodosw4, mut sodosm4) = (0i64, 0i64);
        let (mut ext2, mut exr2) = (0i64, 0i64);
        let (mut wins, mut won) = (0i64, 0i64);
        for rr in 0..rounds {
            match lay.part[i][rr] {
                Participation::Paired(g) => {
                    let o = lay.opp(g, i);
                    let res2 = g.halves_for(id);
                    let w = opp_nbw2(o);
                    // SOSM handicap correction (OpenGotha 4.2): the
                    // opponent's MMS plus the handicap when White, minus it
                    // when Black.
                    let h2 = 2 * i64::from(g.handicap);
                    let white = g.white == id;
                    let m = opp_mms2(o) + if white { h2 } else { -h2 };
                    osw2.push(w);
                    osm2.push(m);
                    sodosw4 += w * res2;
                    sodosm4 += m * res2;
                    detail[i].sodosw4.push(w * res2);
                    detail[i].sodosm4.push(m * res2);
                    // 6) EXT/EXR: game difficulty from the real handicap
                    // against the natural one (rank difference).
                    let real = if white {
                        i64::from(g.handicap)
                    } else {
                        -i64::from(g.handicap)
                    };
                    let natural =
                        i64::from(t.players[i].rank.value()) - i64::from(t.players[o].rank.value());
                    let coef = match real - natural {
                        d if d < 0 => 0,
                        0 => 1,
                        1 => 2,
                        _ => 3,
                    };
                    ext2 += nbw2[o][r] * coef;
                    detail[i].ext2.push(nbw2[o][r] * coef);
                    detail[i]
                        .exr2
                        .push(if res2 == 2 { nbw2[o][r] * coef } else { 0 });
                    detail[i].win.push(res2 == 2);
                    detail[i].won.push(res2 == 2 && !g.by_default);
                    if res2 == 2 {
                        exr2 += nbw2[o][r] * coef;
                        wins += 1;
                        if !g.by_default {
                            won += 1;
                        }
                    }
                }
                Participation::Bye => {
                    // An unplayed round: SOSW adds 0, SOSM the player's own
                    // SMMS (OpenGotha 4.1/4.2).
                    osw2.push(0);
                    osm2.push(2 * smms[i]);
                    if s.nbw2_bye >= 2 {
                        wins += 1;
                    }
                    detail[i].win.push(s.nbw2_bye >= 2);
                    detail[i].won.push(false);
                }
                Participation::Absent | Participation::NotAssigned => {
                    osw2.push(0);
                    osm2.push(2 * smms[i]);
                    detail[i].win.push(false);
                    detail[i].won.push(false);
                }
            }
            if !matches!(lay.part[i][rr], Participation::Paired(_)) {
                let d = &mut detail[i];
                for v in [&mut d.sodosw4, &mut d.sodosm4, &mut d.ext2, &mut d.exr2] {
                    v.push(0);
                }
            }
        }
        detail[i].osw2 = osw2.clone();
        detail[i].osm2 = osm2.clone();
        sosw2[i] = osw2.iter().sum();
        sosm2[i] = osm2.iter().sum();
        let (sosw_m1, sosw_m2) = cuts(&osw2);
        // OpenGotha 3.51 stores SOSM-1 and SOSM-2 only from the third round
        // on ("4.2": the setters sit in the `else` branch), so after rounds
        // 1 and 2 it reports 0 for both. Reproduced so standings agree.
        let (sosm_m1, sosm_m2) = if rounds >= 3 { cuts(&osm2) } else { (0, 0) };
        let median = if osw2.len() >= 3 {
            let max = osw2.iter().copied().max().unwrap_or(0);
            let min = osw2.iter().copied().min().unwrap_or(0);
            sosw2[i] - max - min
        } else {
            0
        };
        let cussw2: i64 = nbw2[i].iter().sum();
        let cussm2: i64 = mms2[i].iter().sum();
        let v = &mut out[i];
        let half = Value::from_halves;
        v.insert(Criterion::Nbw, half(nbw2[i][r]));
        v.insert(Criterion::Points, half(nbw2[i][r]));
        v.insert(Criterion::Mms, half(mms2[i][r]));
        v.insert(Criterion::Cussw, half(cussw2));
        v.insert(Criterion::Cussm, half(cussm2));
        v.insert(Criterion::Sosw, half(sosw2[i]));
        v.insert(Criterion::Buchholz, half(sosw2[i]));
        v.insert(Criterion::SoswM1, half(sosw_m1));
        v.insert(Criterion::SoswM2, half(sosw_m2));
        v.insert(Criterion::MedianBuchholz, half(median));
        v.insert(Criterion::Sodosw, Value::from_quarters(sodosw4));
        v.insert(Criterion::SonnebornBerger, Value::from_quarters(sodosw4));
        v.insert(Criterion::Sosm, half(sosm2[i]));
        v.insert(Criterion::SosmM1, half(sosm_m1));
        v.insert(Criterion::SosmM2, half(sosm_m2));
        v.insert(Criterion::Sodosm, Value::from_quarters(sodosm4));
        v.insert(Criterion::Ext, half(ext2));
        v.insert(Criterion::Exr, half(exr2));
        v.insert(Criterion::Wins, Value::from_points(wins));
        v.insert(Criterion::WinsOverTheBoard, Value::from_points(won));
    }

    // 5) SOSOS: opponents' SOS; an unplayed round adds 0 to SOSOSW and the
    // player's own SMMS × rounds to SOSOSM.
    for i in 0..n {
        let (mut ssw2, mut ssm2) = (0i64, 0i64);
        for rr in 0..rounds {
            match lay.part[i][rr] {
                Participation::Paired(g) => {
                    let o = lay.opp(g, i);
                    ssw2 += sosw2[o];
                    ssm2 += sosm2[o];
                    detail[i].sososw2.push(sosw2[o]);
                    detail[i].sososm2.push(sosm2[o]);
                }
                _ => {
                    ssm2 += 2 * smms[i] * rounds as i64;
                    detail[i].sososw2.push(0);
                    detail[i].sososm2.push(2 * smms[i] * rounds as i64);
                }
            }
        }
        out[i].insert(Criterion::Sososw, Value::from_halves(ssw2));
        out[i].insert(Criterion::Sososm, Value::from_halves(ssm2));
    }

    let scores = t
        .players
        .iter()
        .zip(out)
        .zip(smms)
        .map(|((p, values), smms)| PlayerScores {
            player: p.id.clone(),
            smms,
            values,
        })
        .collect();
    Ok((scores, detail))
}

/// The standings after `after_round` ordered on `criteria` (the tournament's
/// own list when empty). `shown` lists extra criteria whose values the rows
/// carry without taking part in the order (for `--all-criteria`).
pub fn standings(
    t: &Tournament,
    after_round: u32,
    criteria: &[Criterion],
    shown: &[Criterion],
) -> Result<Standings, ModelError> {
    let criteria: Vec<Criterion> = if criteria.is_empty() {
        t.settings.criteria.clone()
    } else {
        criteria.to_vec()
    };
    let base = scores(t, after_round)?;
    let games: Vec<&Game> = t.games.iter().filter(|g| g.round <= after_round).collect();
    let n = base.len();
    let mut vals: Vec<BTreeMap<Criterion, Value>> = base.iter().map(|b| b.values.clone()).collect();

    // Players in name order (OpenGotha's tie order: name, then first name).
    let name_cmp = |a: usize, b: usize| {
        let (pa, pb) = (&t.players[a], &t.players[b]);
        (pa.surname.as_str(), pa.given.as_str(), pa.id.as_str()).cmp(&(
            pb.surname.as_str(),
            pb.given.as_str(),
            pb.id.as_str(),
        ))
    };
    let key_cmp = |vals: &[BTreeMap<Criterion, Value>], list: &[Criterion], a: usize, b: usize| {
        for c in list {
            let (x, y) = (
                vals[a].get(c).copied().unwrap_or_default(),
                vals[b].get(c).copied().unwrap_or_default(),
            );
            match y.cmp(&x) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    };

    // DC and SDC are computed together, within the groups tied on every
    // criterion before the first of them, whenever either is a placement
    // criterion (OpenGotha `orderedScoredPlayersList`, `fillDirScoringInfo`);
    // head-to-head within the groups tied on every criterion before it.
    let mut staged: Vec<(usize, Vec<Criterion>, Vec<Criterion>)> = Vec::new();
    if let Some(pos) = criteria
        .iter()
        .position(|c| matches!(c, Criterion::Dc | Criterion::Sdc))
    {
        staged.push((
            pos,
            criteria[..pos].to_vec(),
            vec![Criterion::Dc, Criterion::Sdc],
        ));
    }
    if let Some(pos) = criteria.iter().position(|c| *c == Criterion::HeadToHead) {
        staged.push((pos, criteria[..pos].to_vec(), vec![Criterion::HeadToHead]));
    }
    staged.sort_by_key(|p| p.0);
    let mut passes: Vec<(Vec<Criterion>, Vec<Criterion>, Vec<Criterion>)> = staged
        .into_iter()
        .map(|(_, primary, directs)| (primary, directs, criteria.clone()))
        .collect();
    // OpenGotha computes DC and SDC only when they are placement criteria
    // (`fillDirScoringInfo` returns early otherwise): shown outside the
    // ordering list they are 0. Head-to-head is not OpenGotha's and is
    // computed within the groups tied on the whole list.
    let extra: Vec<Criterion> = shown
        .iter()
        .copied()
        .filter(|c| *c == Criterion::HeadToHead && !criteria.contains(c))
        .collect();
    if !extra.is_empty() {
        passes.push((criteria.clone(), extra, Vec::new()));
    }
    for (primary, directs, full) in passes {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| key_cmp(&vals, &primary, a, b).then_with(|| name_cmp(a, b)));
        let mut start = 0;
        while start < n {
            let mut end = start + 1;
            while end < n && key_cmp(&vals, &primary, order[start], order[end]) == Ordering::Equal {
                end += 1;
            }
            let group: Vec<usize> = order[start..end].to_vec();
            let ids: Vec<&str> = group.iter().map(|&i| t.players[i].id.as_str()).collect();
            for &c in &directs {
                let values: Vec<Value> = match c {
                    Criterion::Sdc => direct::sdc(&ids, &games),
                    Criterion::HeadToHead => direct::head_to_head(&ids, &games),
                    _ => {
                        // DC orders the group on the criteria after DC.
                        let after: Vec<Criterion> = full
                            .iter()
                            .skip_while(|k| **k != Criterion::Dc)
                            .skip(1)
                            .copied()
                            .collect();
                        let secondary: Vec<Vec<Value>> = group
                            .iter()
                            .map(|&i| {
                                after
                                    .iter()
                                    .map(|k| vals[i].get(k).copied().unwrap_or_default())
                                    .collect()
                            })
                            .collect();
                        direct::dc(&ids, &games, &secondary)
                    }
                };
                for (k, &i) in group.iter().enumerate() {
                    vals[i].insert(c, values[k]);
                }
            }
            start = end;
        }
    }

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key_cmp(&vals, &criteria, a, b).then_with(|| name_cmp(a, b)));
    let mut columns = criteria.clone();
    for c in shown {
        if !columns.contains(c) {
            columns.push(*c);
        }
    }
    let mut rows = Vec::with_capacity(n);
    let mut place = 1u32;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 && key_cmp(&vals, &criteria, order[k - 1], i) != Ordering::Equal {
            place = k as u32 + 1;
        }
        rows.push(Row {
            place,
            player: t.players[i].id.clone(),
            values: columns
                .iter()
                .map(|c| (*c, vals[i].get(c).copied().unwrap_or_default()))
                .collect(),
        });
    }
    Ok(Standings {
        round: after_round,
        criteria,
        rows,
    })
}
