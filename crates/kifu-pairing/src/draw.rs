//! A round's draw: who is paired, the bye, the matching, colours,
//! handicaps and table numbers, in the order OpenGotha 3.51.02 takes these
//! steps when its director presses "Pair" with every pairable player
//! (`JFrGamesPair.btnPairActionPerformed`, `Tournament.chooseAByePlayer`,
//! `makeAutomaticPairing`, `renumberTablesByBestScoreThenRating`).

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use kifu_standings::{Participation, Tournament};
use serde::{Deserialize, Serialize};

use crate::cost::{game_between, pair_cost};
use crate::field::Field;
use crate::matching::maximum_weight_matching;
use crate::settings::PairingSettings;
use crate::PairingError;

/// OpenGotha pairs at most this many players in one matching; a larger
/// field is cut, from the top score down, into groups of at least
/// [`GROUP_MIN`] (`Pairing.PAIRING_GROUP_MAX_SIZE`).
pub const GROUP_MAX: usize = 600;
/// The smallest group a larger field is cut into (`PAIRING_GROUP_MIN_SIZE`).
pub const GROUP_MIN: usize = 200;

/// One board of a draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct Board {
    /// Table number, from 1.
    pub table: u32,
    /// White's registration id.
    pub white: String,
    /// Black's registration id.
    pub black: String,
    /// Handicap stones (0: an even game).
    pub handicap: u8,
}

/// The draw of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// The round, from 1.
    pub round: u32,
    /// The boards, by table.
    pub boards: Vec<Board>,
    /// The player given the bye, if the number to pair was odd.
    pub bye: Option<String>,
}

/// The players of `round` still to be paired (present, neither paired nor
/// given the bye), in the order of the standings before the round: the
/// order OpenGotha's pairing window lists them in by default ("sorted by
/// score"), which decides the bye among equals and the order of every
/// pair's cost.
fn pairable(t: &Tournament, f: &Field) -> Vec<usize> {
    let mut order: Vec<usize> = (0..f.entrants.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&f.entrants[a], &f.entrants[b]);
        y.values
            .cmp(&x.values)
            .then_with(|| x.surname16.cmp(&y.surname16))
            .then_with(|| x.given16.cmp(&y.given16))
            .then_with(|| x.id.cmp(&y.id))
    });
    order
        .into_iter()
        .filter(|&i| {
            matches!(
                t.participation(f.round, &f.entrants[i].id),
                Participation::NotAssigned
            )
        })
        .collect()
}

/// The bye: the lowest rank plus twice the MMS before the round, plus
/// 1000 for each bye already had; among equals the last in the list
/// (OpenGotha `chooseAByePlayer`).
fn choose_bye(f: &Field, players: &[usize]) -> Option<usize> {
    let mut best = None;
    let mut lowest = i64::MAX;
    for &i in players {
        let e = &f.entrants[i];
        let weight = e.rank + e.mms2 + 1000 * e.byes;
        if weight <= lowest {
            lowest = weight;
            best = Some(i);
        }
    }
    best
}

/// The groups the players are matched in: all of them, or for a field
/// above [`GROUP_MAX`], groups taken from the top score down
/// (`makeAutomaticPairing`).
fn matching_groups(f: &Field, players: &[usize]) -> Vec<Vec<usize>> {
    let mut remaining = players.to_vec();
    let mut groups = Vec::new();
    while remaining.len() > GROUP_MAX {
        let mut group = Vec::new();
        let mut ready = false;
        for score in (f.lowest..=f.highest).rev() {
            let mut k = 0;
            while k < remaining.len() {
                if f.entrants[remaining[k]].main < score {
                    k += 1;
                    continue;
                }
                group.push(remaining.remove(k));
                if group.len() >= GROUP_MAX || remaining.len() <= GROUP_MIN {
                    ready = true;
                    break;
                }
            }
            if group.len() >= GROUP_MIN && group.len() % 2 == 0 {
                ready = true;
            }
            if ready {
                break;
            }
        }
        groups.push(group);
    }
    groups.push(remaining);
    groups
}

/// The games of one group: (White, Black, handicap), each in the order of
/// its first player in the group.
fn match_group(
    f: &Field,
    s: &PairingSettings,
    group: &[usize],
) -> Result<Vec<(usize, usize, u8)>, PairingError> {
    let n = group.len();
    let mut w = vec![vec![0i64; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let c = pair_cost(f, s, group[i], group[j]);
            w[i][j] = c;
            w[j][i] = c;
        }
    }
    let mate = maximum_weight_matching(&w)?;
    let mut games = Vec::with_capacity(n / 2);
    for (i, m) in mate.iter().enumerate() {
        match *m {
            Some(j) if i < j => {
                let (a, b) = (group[i], group[j]);
                let (a_white, hd) = game_between(f, s, a, b);
                games.push(if a_white { (a, b, hd) } else { (b, a, hd) });
            }
            Some(_) => {}
            None => {
                return Err(PairingError::Unmatched {
                    player: f.entrants[group[i]].id.clone(),
                })
            }
        }
    }
    Ok(games)
}

/// Numbers the tables as OpenGotha 3.51.02's
/// `renumberTablesByBestScoreThenRating` does, from the placement criteria
/// after the round (its games not yet counted): each game is ranked by one
/// of its players, and the games of better-ranked players get the lower
/// tables. That player is, as its `GameComparator` is written, the *lower*
/// placed of the two when their criteria differ, and the higher rated when
/// they are equal; games ranked equally go by that player's rating, then
/// stay in the matching's order. Tables already used in the round are
/// skipped.
fn number_tables(
    t: &Tournament,
    round: u32,
    f: &Field,
    games: Vec<(usize, usize, u8)>,
) -> Result<Vec<Board>, PairingError> {
    let table = kifu_standings::standings(t, round, &[], &[])?;
    let mut after: HashMap<&str, Vec<i64>> = HashMap::new();
    for row in &table.rows {
        after.insert(
            row.player.as_str(),
            row.values.iter().map(|(_, v)| v.quarters()).collect(),
        );
    }
    let empty = Vec::new();
    let values = |i: usize| after.get(f.entrants[i].id.as_str()).unwrap_or(&empty);
    // Better first: Less when `a` is placed above `b`.
    let placed = |a: usize, b: usize| values(b).cmp(values(a));
    let rating = |i: usize| f.entrants[i].rating;
    let ranked_by = |(w, b, _): (usize, usize, u8)| -> usize {
        let mut by = w;
        if placed(w, b) == Ordering::Equal && rating(w) < rating(b) {
            by = b;
        }
        if placed(w, b) == Ordering::Less {
            by = b;
        }
        by
    };
    let mut ranked: Vec<((usize, usize, u8), usize)> =
        games.into_iter().map(|g| (g, ranked_by(g))).collect();
    ranked.sort_by(|(_, a), (_, b)| placed(*a, *b).then_with(|| rating(*b).cmp(&rating(*a))));
    let used: BTreeSet<u32> = t
        .games
        .iter()
        .filter(|g| g.round == round)
        .map(|g| g.board)
        .collect();
    let mut next = 0u32;
    let mut boards = Vec::with_capacity(ranked.len());
    for ((w, b, hd), _) in ranked {
        next += 1;
        while used.contains(&next) {
            next += 1;
        }
        boards.push(Board {
            table: next,
            white: f.entrants[w].id.clone(),
            black: f.entrants[b].id.clone(),
            handicap: hd,
        });
    }
    Ok(boards)
}

fn check_round(t: &Tournament, round: u32, s: &PairingSettings) -> Result<(), PairingError> {
    s.check().map_err(PairingError::Settings)?;
    t.validate()?;
    if round == 0 || round > t.settings.rounds {
        return Err(PairingError::NoSuchRound {
            round,
            rounds: t.settings.rounds,
        });
    }
    Ok(())
}

/// The draw of `round` (from 1) for the players of `t` present in it and
/// not yet paired, as OpenGotha 3.51.02 draws it with `settings`.
///
/// The bye goes to the player OpenGotha gives it when their number is odd;
/// an odd number when the round's bye is already given is refused.
pub fn pair(t: &Tournament, round: u32, settings: &PairingSettings) -> Result<Draw, PairingError> {
    check_round(t, round, settings)?;
    let f = Field::new(t, round, settings)?;
    let mut players = pairable(t, &f);
    let mut bye = None;
    if players.len() % 2 == 1 {
        if let Some((_, given)) = t.byes.iter().find(|(r, _)| *r == round) {
            return Err(PairingError::ByeAlreadyGiven {
                round,
                player: given.clone(),
            });
        }
        let chosen = choose_bye(&f, &players);
        players.retain(|&i| Some(i) != chosen);
        bye = chosen.map(|i| f.entrants[i].id.clone());
    }
    let mut games = Vec::with_capacity(players.len() / 2);
    for group in matching_groups(&f, &players) {
        games.extend(match_group(&f, settings, &group)?);
    }
    let boards = number_tables(t, round, &f, games)?;
    Ok(Draw { round, boards, bye })
}

/// The total cost of a set of pairs for `round` under the same criteria
/// (each pair's cost taken with its players in the order of the pairable
/// list, as OpenGotha takes them): the figure the draw maximises, to
/// compare two draws of one round.
pub fn draw_cost(
    t: &Tournament,
    round: u32,
    settings: &PairingSettings,
    pairs: &[(String, String)],
) -> Result<i64, PairingError> {
    check_round(t, round, settings)?;
    let f = Field::new(t, round, settings)?;
    let order = pairable(t, &f);
    let position: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let find = |id: &str| -> Result<usize, PairingError> {
        f.index
            .get(id)
            .copied()
            .ok_or_else(|| PairingError::UnknownPlayer(id.to_string()))
    };
    let mut total = 0i64;
    for (a, b) in pairs {
        let (mut i, mut j) = (find(a)?, find(b)?);
        let rank = |x: usize| position.get(&x).copied().unwrap_or(usize::MAX);
        if rank(j) < rank(i) {
            std::mem::swap(&mut i, &mut j);
        }
        total += pair_cost(&f, settings, i, j);
    }
    Ok(total)
}
