//! The worth of pairing two players, criterion by criterion, and the
//! colours and handicap of their game (OpenGotha 3.51.02
//! `Tournament.costValue` and `gameBetween`).
//!
//! The fractional criteria are computed in `f64` in the same order of
//! operations as OpenGotha's `double` arithmetic and truncated toward zero
//! as Java's `(long)` cast does, so every cost is OpenGotha's number to
//! the unit: the matching then chooses among the same values.

use crate::field::{Entrant, Field};
use crate::settings::{DrawPosition, PairingSettings, Seeding, System};

/// OpenGotha's lowest rank (30k).
const MIN_RANK: i64 = -30;

/// A deterministic number in `0..=max` from the two players' names
/// (OpenGotha `Pairing.detRandom`): the names in order, each UTF-16 unit
/// times its position, scaled; reversed (`max − n`) when the first player's
/// name sorts after the second's, so the number depends on the order.
pub(crate) fn name_draw(max: i64, a: &Entrant, b: &Entrant) -> i64 {
    let (first, second, inverse) = if a.name16 > b.name16 {
        (&b.name16, &a.name16, true)
    } else {
        (&a.name16, &b.name16, false)
    };
    let sum: i64 = first
        .iter()
        .chain(second.iter())
        .enumerate()
        .map(|(i, &c)| i64::from(c) * (i as i64 + 1))
        .sum();
    let n = sum.wrapping_mul(1_234_567) % (max + 1);
    if inverse {
        max - n
    } else {
        n
    }
}

/// `weight × (1 − x) × (1 + k·x)` truncated: OpenGotha's "rather n × 1
/// than 1 × n" curve.
fn concave(weight: i64, x: f64, k: f64) -> i64 {
    (weight as f64 * (1.0 - x) * (1.0 + k * x)) as i64
}

/// How the handicap between two players comes out, step by step
/// (OpenGotha `gameBetween`): each one's strength (the MMS before the
/// round as a rank, or the rank), capped at the no-handicap threshold,
/// the difference less the reduction, within the ceiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HandicapSteps {
    /// The strengths are the MMS before the round (else the ranks).
    pub based_on_mms: bool,
    /// `a`'s and `b`'s strength, OpenGotha's rank numbers (1d = 0).
    pub strength: (i64, i64),
    /// The same, capped at the threshold.
    pub capped: (i64, i64),
    /// The capped difference `a − b`, before the reduction.
    pub difference: i64,
    /// The stones, signed: above 0 `a` is the stronger and gives them.
    pub stones: i64,
}

/// The handicap between `a` and `b`, step by step.
pub(crate) fn handicap_steps(f: &Field, s: &PairingSettings, a: usize, b: usize) -> HandicapSteps {
    let (pa, pb) = (&f.entrants[a], &f.entrants[b]);
    let h = &s.handicap;
    let (mut r1, mut r2) = (pa.rank, pb.rank);
    if h.based_on_mms {
        r1 = pa.mms2 / 2 + MIN_RANK;
        r2 = pb.mms2 / 2 + MIN_RANK;
    }
    let threshold = i64::from(h.no_handicap_above.value());
    let (c1, c2) = (r1.min(threshold), r2.min(threshold));
    let reduction = i64::from(h.reduction);
    let mut hd = c1 - c2;
    if hd > 0 {
        hd = (hd - reduction).max(0);
    }
    if hd < 0 {
        hd = (hd + reduction).min(0);
    }
    let ceiling = i64::from(h.ceiling);
    HandicapSteps {
        based_on_mms: h.based_on_mms,
        strength: (r1, r2),
        capped: (c1, c2),
        difference: c1 - c2,
        stones: hd.clamp(-ceiling, ceiling),
    }
}

/// Who takes White in an even game between `a` and `b`: the player who had
/// White more often takes Black; equal balances, the names decide. True
/// when `a` takes White.
pub(crate) fn even_game_white(pa: &Entrant, pb: &Entrant) -> bool {
    match pa.colour_balance.cmp(&pb.colour_balance) {
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Equal => name_draw(1, pa, pb) == 0,
    }
}

/// The game two players would play: (White is `a`, handicap).
pub(crate) fn game_between(f: &Field, s: &PairingSettings, a: usize, b: usize) -> (bool, u8) {
    let hd = handicap_steps(f, s, a, b).stones;
    match hd {
        // The stronger (higher pseudo-rank) player takes White.
        1.. => (true, hd as u8),
        ..=-1 => (false, (-hd) as u8),
        0 => (even_game_white(&f.entrants[a], &f.entrants[b]), 0),
    }
}

/// The worth of pairing `a` with `b` in this order (the order matters only
/// to the split-and-random seeding, as in OpenGotha, where `a` comes first
/// in the list of players to pair). Never below 1: OpenGotha keeps 0 for
/// "no edge".
pub(crate) fn pair_cost(f: &Field, s: &PairingSettings, a: usize, b: usize) -> i64 {
    let (p1, p2) = (&f.entrants[a], &f.entrants[b]);
    let k = s.nx1();
    let mut cost: i64 = 1;

    // Base criterion 1: avoid a second game between the same players.
    if f.met(a, b) == 0 {
        cost += s.avoid_duplicate;
    }
    // Base criterion 2: the deterministic random term.
    cost += name_draw(s.random, p1, p2);
    // Base criterion 3: balance White and Black, for an even game only; in
    // full when the balances have opposite signs, in half when one is 0
    // and the other at least 2 away.
    let (_, hd) = game_between(f, s, a, b);
    if hd == 0 {
        let (w1, w2) = (p1.colour_balance, p2.colour_balance);
        if w1 * w2 < 0 {
            cost += s.balance_colours;
        } else if (w1 == 0 && w2.abs() >= 2) || (w2 == 0 && w1.abs() >= 2) {
            cost += s.balance_colours / 2;
        }
    }
    // Main criterion 1 (categories) does not apply: one category.

    // Main criterion 2: the nearer the score groups, the better.
    let groups = f.groups;
    let gap = (p1.group - p2.group).abs();
    cost += concave(s.minimize_score_difference, gap as f64 / groups as f64, k);

    // Main criterion 3: a draw-up/draw-down between neighbouring groups,
    // preferring players who were drawn the other way before (OpenGotha
    // 3.44.05's five scenarios: 0 both drawn this way before ... 4 it
    // compensates an earlier draw of both).
    if gap < 4 && gap != 0 {
        // `up`: p1 is in the higher score group (a smaller group number).
        let (up, down) = (p1.group < p2.group, p1.group > p2.group);
        let mut scenario: i64 = 2;
        if p1.draw_ups > 0 && down {
            scenario -= 1;
        }
        if p1.draw_downs > 0 && up {
            scenario -= 1;
        }
        if p2.draw_ups > 0 && up {
            scenario -= 1;
        }
        if p2.draw_downs > 0 && down {
            scenario -= 1;
        }
        if scenario != 0 && p1.draw_ups > 0 && p1.draw_downs < p1.draw_ups && up {
            scenario += 1;
        }
        if scenario != 0 && p1.draw_downs > 0 && p1.draw_ups < p1.draw_downs && down {
            scenario += 1;
        }
        if scenario != 0 && p2.draw_ups > 0 && p2.draw_downs < p2.draw_ups && down {
            scenario += 1;
        }
        if scenario != 0 && p2.draw_downs > 0 && p2.draw_ups < p2.draw_downs && up {
            scenario += 1;
        }
        let weight = s.draw_up_down / 5;
        let (upper, lower) = if up { (p1, p2) } else { (p2, p1) };
        let position = |mode: DrawPosition, e: &Entrant| -> i64 {
            let span = match mode {
                DrawPosition::Top => e.group_size - 1 - e.place,
                DrawPosition::Middle => e.group_size - 1 - (2 * e.place - e.group_size + 1).abs(),
                DrawPosition::Bottom => e.place,
            };
            weight / 2 * span / e.group_size
        };
        let mut dudd = position(s.draw_down_from, upper) + position(s.draw_up_from, lower);
        dudd += match scenario {
            0 => 0,
            1 => weight,
            2 => 2 * weight,
            _ if !s.compensate_draw_up_down => 2 * weight,
            3 => 3 * weight,
            _ => 4 * weight,
        };
        cost += dudd;
    }

    // Main criterion 4: seeding inside a score group.
    if p1.group == p2.group {
        let size = p1.group_size;
        let (c1, c2) = (p1.place, p2.place);
        let max = s.seeding;
        let system = if s.early(f.round) {
            s.first_seeding
        } else {
            s.later_seeding
        };
        cost += match system {
            Seeding::SplitAndRandom => {
                if (2 * c1 < size) != (2 * c2 < size) {
                    let range = (max as f64 * 0.2) as i64;
                    max - name_draw(range, p1, p2)
                } else {
                    0
                }
            }
            // Best when the places add up to the group's size − 1.
            Seeding::SplitAndFold => {
                let x = c1 + c2 - (size - 1);
                max - (max * x / (size - 1) * x / (size - 1))
            }
            // Best when the places are half the group apart.
            Seeding::SplitAndSlip => {
                let x = 2 * (c1 - c2).abs() - size;
                max - (max * x / size * x / size)
            }
        };
    }

    // Secondary criteria. A player above the thresholds counts as the
    // highest score the scale allows when the handicap is minimised.
    let wins_threshold = if s.secondary_wins_threshold {
        i64::from(f.rounds)
    } else {
        2 * i64::from(f.rounds)
    };
    let bar_score = f.bar - MIN_RANK;
    let max_mms = f.bar + 2 - MIN_RANK + i64::from(f.round) - 1;
    let rank_threshold = i64::from(s.secondary_rank_threshold.value());
    let pseudo = |p: &Entrant| -> i64 {
        let strong = 2 * p.rank + p.nbw2 >= 2 * rank_threshold;
        let many_wins = p.nbw2 >= wins_threshold;
        let above_bar = p.smms >= bar_score && s.secondary_bar_threshold;
        if many_wins || strong || above_bar {
            max_mms
        } else {
            p.mms2 / 2
        }
    };
    // Secondary criterion 1: minimise the handicap.
    let sec_range = if f.system == System::McMahon {
        groups
    } else {
        (f.bar - f.floor + 2 - (-1)) + i64::from(f.round) - 1
    };
    let x = (pseudo(p1) - pseudo(p2)).abs() as f64 / sec_range as f64;
    cost += concave(s.minimize_handicap, x, k);

    // Secondary criteria 2-4: players from different countries and clubs,
    // worth a few score groups (clubs groups are not kept by kifu: two
    // players share a group only by sharing a club).
    let groups_f = groups as f64;
    let country_ratio = if p1.country == p2.country || s.prefer_score_gap_to_same_country == 0 {
        0.0
    } else {
        (f64::from(s.prefer_score_gap_to_same_country) / groups_f).min(1.0)
    };
    let club_ratio = if p1.club == p2.club || s.prefer_score_gap_to_same_club == 0 {
        0.0
    } else {
        (f64::from(s.prefer_score_gap_to_same_club) * 1.2 / groups_f).min(1.0)
    };
    let main_part = country_ratio.max(club_ratio);
    let second_part = country_ratio.min(club_ratio);
    let mut geo_ratio = main_part + second_part / 2.0;
    if geo_ratio > 0.0 {
        geo_ratio += 0.5 / groups_f;
    }
    let geo_worth = s.avoid_same_geo as f64 * (1.0 - geo_ratio) * (1.0 + k * geo_ratio);
    let geo = (s.minimize_score_difference - geo_worth as i64).min(s.avoid_same_geo);
    cost += geo;
    cost
}
