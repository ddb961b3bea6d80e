//! What the draw of a round knows about every registered player before
//! it: scores, score group and place in it, draw-ups and draw-downs,
//! colour balance, earlier opponents (OpenGotha `fillPairingInfo` and the
//! scores `fillBaseScoringInfo` gives it).
//!
//! Every registered player takes part in the score groups, present or not,
//! as in OpenGotha: the groups, their sizes and the places in them are
//! those of the whole field.

use std::cmp::Ordering;
use std::collections::HashMap;

use kifu_standings::{Criterion, Participation, Tournament, Value};

use crate::settings::{ExtraOrder, PairingSettings, System};
use crate::PairingError;

/// OpenGotha's lowest rank (30k), the zero of its McMahon scale.
const MIN_RANK: i64 = -30;
/// The lowest and highest SMMS correction OpenGotha accepts
/// (`PLA_SMMS_CORR_MIN`, `PLA_SMMS_CORR_MAX`); they widen the score scale.
const SMMS_CORRECTION_MIN: i64 = -1;
const SMMS_CORRECTION_MAX: i64 = 2;

/// The main score of the draw: the first of NBW (or POINTS) and MMS in
/// the placement criteria, NBW if neither (OpenGotha
/// `PlacementParameterSet.mainCriterion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MainScore {
    Nbw,
    Mms,
}

impl MainScore {
    pub(crate) fn of(criteria: &[Criterion]) -> MainScore {
        for c in criteria {
            match c {
                Criterion::Nbw | Criterion::Points => return MainScore::Nbw,
                Criterion::Mms => return MainScore::Mms,
                _ => {}
            }
        }
        MainScore::Nbw
    }
}

/// One registered player as the draw sees them.
#[derive(Debug, Clone)]
pub(crate) struct Entrant {
    pub id: String,
    /// Surname then given name in UTF-16, as Java compares and sums them.
    pub name16: Vec<u16>,
    pub surname16: Vec<u16>,
    pub given16: Vec<u16>,
    pub rank: i64,
    pub rating: i32,
    pub smms: i64,
    pub country: String,
    pub club: String,
    /// MMS and NBW before the round, in half points.
    pub mms2: i64,
    pub nbw2: i64,
    /// Score group (0 = highest possible score), its size, place in it
    /// from 0.
    pub group: i64,
    pub group_size: i64,
    pub place: i64,
    /// Draw-ups and draw-downs in earlier rounds.
    pub draw_ups: i64,
    pub draw_downs: i64,
    /// Games as White minus games as Black, even games only.
    pub colour_balance: i64,
    /// Byes in earlier rounds.
    pub byes: i64,
    /// The main score before the round, whole points rounded down.
    pub main: i64,
    /// The placement criteria values before the round, in quarters.
    pub values: Vec<i64>,
}

/// Every registered player, indexed as `Tournament::players`, before
/// round `round`.
pub(crate) struct Field {
    pub round: u32,
    pub entrants: Vec<Entrant>,
    pub index: HashMap<String, usize>,
    /// `met[i * n + j]`: games between i and j before the round.
    met: Vec<u8>,
    /// Number of score groups (OpenGotha `numberOfGroups`), empty ones
    /// included.
    pub groups: i64,
    /// The highest and lowest main scores of the scale.
    pub highest: i64,
    pub lowest: i64,
    pub system: System,
    pub rounds: u32,
    pub bar: i64,
    pub floor: i64,
}

impl Field {
    pub(crate) fn met(&self, i: usize, j: usize) -> u8 {
        self.met[i * self.entrants.len() + j]
    }

    pub(crate) fn new(
        t: &Tournament,
        round: u32,
        settings: &PairingSettings,
    ) -> Result<Field, PairingError> {
        let criteria = &t.settings.criteria;
        let main = MainScore::of(criteria);
        let n = t.players.len();
        let index: HashMap<String, usize> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        let to16 = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
        let mut entrants: Vec<Entrant> = t
            .players
            .iter()
            .map(|p| Entrant {
                id: p.id.clone(),
                name16: to16(&format!("{}{}", p.surname, p.given)),
                surname16: to16(&p.surname),
                given16: to16(&p.given),
                rank: i64::from(p.rank.value()),
                rating: p.rating,
                smms: t.settings.smms(p),
                country: p.country.to_lowercase(),
                club: p.club.to_lowercase(),
                mms2: 2 * t.settings.smms(p),
                nbw2: 0,
                group: 0,
                group_size: 0,
                place: 0,
                draw_ups: 0,
                draw_downs: 0,
                colour_balance: 0,
                byes: 0,
                main: 0,
                values: Vec::new(),
            })
            .collect();

        // Main score (whole points, rounded down as OpenGotha's `x2 / 2`)
        // before each round up to this one.
        let mut main_before: Vec<Vec<i64>> = vec![Vec::with_capacity(round as usize); n];
        for (i, e) in entrants.iter().enumerate() {
            main_before[i].push(match main {
                MainScore::Mms => e.smms,
                MainScore::Nbw => 0,
            });
        }
        for r in 1..round {
            let s = crate::scores_by_id(t, r)?;
            for (i, p) in t.players.iter().enumerate() {
                let v = s.get(p.id.as_str());
                let halves = |c: Criterion| v.map(|m| m.get(c).quarters() / 2).unwrap_or(0);
                let (mms2, nbw2) = (halves(Criterion::Mms), halves(Criterion::Nbw));
                main_before[i].push(match main {
                    MainScore::Mms => mms2.div_euclid(2),
                    MainScore::Nbw => nbw2.div_euclid(2),
                });
                if r + 1 == round {
                    entrants[i].mms2 = mms2;
                    entrants[i].nbw2 = nbw2;
                }
            }
        }

        // The placement criteria before the round, as the standings give
        // them (OpenGotha `getCritValue(crit, round - 1)`: before round 1
        // only MMS has a value, the starting score).
        if round > 1 {
            let table = kifu_standings::standings(t, round - 1, &[], &[])?;
            for row in &table.rows {
                if let Some(&i) = index.get(&row.player) {
                    entrants[i].values = row.values.iter().map(|(_, v)| v.quarters()).collect();
                }
            }
        } else {
            for e in entrants.iter_mut() {
                e.values = criteria
                    .iter()
                    .map(|c| match c {
                        Criterion::Mms => Value::from_points(e.smms).quarters(),
                        _ => 0,
                    })
                    .collect();
            }
        }

        // Earlier games: opponents met, colour balance, byes.
        let mut met = vec![0u8; n * n];
        for g in t.games.iter().filter(|g| g.round < round) {
            if let (Some(&w), Some(&b)) = (index.get(&g.white), index.get(&g.black)) {
                met[w * n + b] = met[w * n + b].saturating_add(1);
                met[b * n + w] = met[b * n + w].saturating_add(1);
                if g.handicap == 0 {
                    entrants[w].colour_balance += 1;
                    entrants[b].colour_balance -= 1;
                }
            }
        }
        for (r, id) in &t.byes {
            if *r < round {
                if let Some(&i) = index.get(id) {
                    entrants[i].byes += 1;
                }
            }
        }

        // Draw-ups and draw-downs: each earlier game against a player of a
        // higher (lower) main score before that round.
        for r in 1..round {
            for (i, p) in t.players.iter().enumerate() {
                if let Participation::Paired(g) = t.participation(r, &p.id) {
                    if let Some(&o) = index.get(g.opponent_of(&p.id)) {
                        let (mine, theirs) = (
                            main_before[i][r as usize - 1],
                            main_before[o][r as usize - 1],
                        );
                        match mine.cmp(&theirs) {
                            Ordering::Less => entrants[i].draw_ups += 1,
                            Ordering::Greater => entrants[i].draw_downs += 1,
                            Ordering::Equal => {}
                        }
                    }
                }
            }
        }

        // Score groups, numbered from the highest score the scale allows
        // down to the lowest, empty ones counted (OpenGotha 3.49.01 on).
        let round_index = i64::from(round) - 1;
        let bar = i64::from(t.settings.mm_bar.value());
        let floor = i64::from(t.settings.mm_floor.value());
        let (lowest, highest) = match main {
            MainScore::Mms => (
                floor + SMMS_CORRECTION_MIN - MIN_RANK,
                bar + SMMS_CORRECTION_MAX + round_index - MIN_RANK,
            ),
            MainScore::Nbw => (0, round_index),
        };
        let mut members: HashMap<i64, Vec<usize>> = HashMap::new();
        for i in 0..n {
            let score = *main_before[i].last().unwrap_or(&0);
            if !(lowest..=highest).contains(&score) {
                return Err(PairingError::ScoreOutsideScale {
                    player: entrants[i].id.clone(),
                    score,
                    lowest,
                    highest,
                });
            }
            entrants[i].main = score;
            members.entry(score).or_default().push(i);
        }
        let extra = if settings.early(round) {
            settings.first_extra_order
        } else {
            settings.later_extra_order
        };
        for (score, mut group) in members {
            // Placement criteria, the extra criterion, then surname and given
            // name (OpenGotha `ScoredPlayerComparator`, ex aequo by name).
            group.sort_by(|&a, &b| {
                let (x, y) = (&entrants[a], &entrants[b]);
                y.values
                    .cmp(&x.values)
                    .then_with(|| match extra {
                        ExtraOrder::Rating => y.rating.cmp(&x.rating),
                        ExtraOrder::None => Ordering::Equal,
                    })
                    .then_with(|| x.surname16.cmp(&y.surname16))
                    .then_with(|| x.given16.cmp(&y.given16))
                    .then_with(|| x.id.cmp(&y.id))
            });
            let size = group.len() as i64;
            for (place, &i) in group.iter().enumerate() {
                entrants[i].group = highest - score;
                entrants[i].group_size = size;
                entrants[i].place = place as i64;
            }
        }
        Ok(Field {
            round,
            entrants,
            index,
            met,
            groups: highest - lowest + 1,
            highest,
            lowest,
            system: if criteria.first() == Some(&Criterion::Mms) {
                System::McMahon
            } else {
                System::Swiss
            },
            rounds: t.settings.rounds,
            bar,
            floor,
        })
    }
}
