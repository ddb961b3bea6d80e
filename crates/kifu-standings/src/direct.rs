//! The criteria computed inside a group of tied players: DC and SDC as
//! OpenGotha computes them (`Tournament.defineDirForExAequoGroup` and
//! `mw.go.confrontation.Confrontation`), and head-to-head.

use std::cmp::Ordering;

use crate::model::{Game, GameResult};
use crate::value::Value;

/// Net wins between the members of `ids` over the board (OpenGotha
/// `defineAPairMatrix`: only `RESULT_WHITEWINS` and `RESULT_BLACKWINS`
/// count; results by default, jigo, both win/lose do not).
fn pair_matrix(ids: &[&str], games: &[&Game]) -> Vec<Vec<i64>> {
    let n = ids.len();
    let mut pair = vec![vec![0i64; n]; n];
    let pos = |id: &str| ids.iter().position(|x| *x == id);
    for g in games {
        let (Some(w), Some(b)) = (pos(&g.white), pos(&g.black)) else {
            continue;
        };
        if g.by_default {
            continue;
        }
        match g.result {
            GameResult::WhiteWins => {
                pair[w][b] += 1;
                pair[b][w] -= 1;
            }
            GameResult::BlackWins => {
                pair[w][b] -= 1;
                pair[b][w] += 1;
            }
            _ => {}
        }
    }
    pair
}

/// SDC: relevant only if every two members of the group have a net decisive
/// result between them; then each member's value is the number of members
/// they beat, otherwise 0 for everybody.
pub fn sdc(ids: &[&str], games: &[&Game]) -> Vec<Value> {
    let n = ids.len();
    if n <= 1 {
        return vec![Value::ZERO; n];
    }
    let pair = pair_matrix(ids, games);
    let relevant = (0..n).all(|i| (0..n).all(|j| i == j || pair[i][j] != 0));
    (0..n)
        .map(|i| {
            let beaten = (0..n)
                .filter(|&j| relevant && i != j && pair[i][j] >= 1)
                .count();
            Value::from_points(beaten as i64)
        })
        .collect()
}

/// DC: the members are placed by their wins against each other. Cycles of
/// wins are merged into one node sharing its members' wins and losses
/// against the rest (a player who beat one member of a cycle counts as
/// having beaten every member, and one beaten by a member as beaten by
/// every member); then, repeatedly, among the members who beat nobody
/// still unplaced, those lowest on the criteria after DC (`secondary`) are
/// placed last. The value is `max rank − rank`, so higher is better.
///
/// As in OpenGotha, a win counts when the net score between two players is
/// exactly +1 (the matrix used for the graph is not clamped).
pub fn dc(ids: &[&str], games: &[&Game], secondary: &[Vec<Value>]) -> Vec<Value> {
    let n = ids.len();
    if n <= 1 {
        return vec![Value::ZERO; n];
    }
    // Places on the secondary criteria: equal values share a place; sc is
    // n − place (OpenGotha's "sc for Matthieu").
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| secondary[b].cmp(&secondary[a]));
    let mut sc = vec![0i64; n];
    let mut place = 0usize;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 && secondary[order[k - 1]].cmp(&secondary[i]) != Ordering::Equal {
            place = k;
        }
        sc[i] = (n - place) as i64;
    }
    let pair = pair_matrix(ids, games);
    let beats: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| pair[i][j] == 1).collect())
        .collect();
    // Transitive closure: reach[i][j] when i beat j through a chain.
    let mut reach = beats.clone();
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (cell, &through) in row.iter_mut().zip(&via) {
                    *cell |= through;
                }
            }
        }
    }
    // Each player's cycle, named by its first member (a player outside any
    // cycle is a cycle of one).
    let cycle: Vec<usize> = (0..n)
        .map(|i| {
            (0..n)
                .find(|&k| k == i || (reach[i][k] && reach[k][i]))
                .unwrap_or(i)
        })
        .collect();
    // A cycle shares its members' wins and its members' losses: the cycles
    // are the nodes of the graph (OpenGotha merges them into one player), so
    // a player who beat one member of a cycle stands above every member.
    let mut cycle_beats = vec![vec![false; n]; n];
    for k in 0..n {
        for l in 0..n {
            if beats[k][l] && cycle[k] != cycle[l] {
                cycle_beats[cycle[k]][cycle[l]] = true;
            }
        }
    }
    // beaten[i][j]: i's cycle beat j's cycle.
    let beaten: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| cycle_beats[cycle[i]][cycle[j]]).collect())
        .collect();
    let mut remaining: Vec<bool> = vec![true; n];
    let mut left = n;
    let mut rank = vec![0i64; n];
    while left > 0 {
        let free: Vec<usize> = (0..n)
            .filter(|&i| remaining[i] && !(0..n).any(|j| remaining[j] && beaten[i][j]))
            .collect();
        let Some(low) = free.iter().map(|&i| sc[i]).min() else {
            break;
        };
        let chosen: Vec<usize> = free.into_iter().filter(|&i| sc[i] == low).collect();
        let r = (1 + left - chosen.len()) as i64;
        for &i in &chosen {
            rank[i] = r;
            remaining[i] = false;
        }
        left -= chosen.len();
    }
    let max = rank.iter().copied().max().unwrap_or(0);
    rank.iter().map(|&r| Value::from_points(max - r)).collect()
}

/// Head-to-head (direct encounter): when every two members of the group met,
/// the points each scored in those games; otherwise 0 for everybody.
pub fn head_to_head(ids: &[&str], games: &[&Game]) -> Vec<Value> {
    let n = ids.len();
    if n <= 1 {
        return vec![Value::ZERO; n];
    }
    let pos = |id: &str| ids.iter().position(|x| *x == id);
    let mut met = vec![vec![false; n]; n];
    let mut halves = vec![0i64; n];
    for g in games {
        let (Some(w), Some(b)) = (pos(&g.white), pos(&g.black)) else {
            continue;
        };
        if g.result == GameResult::Unknown {
            continue;
        }
        met[w][b] = true;
        met[b][w] = true;
        halves[w] += g.halves_for(&g.white);
        halves[b] += g.halves_for(&g.black);
    }
    let all_met = (0..n).all(|i| (0..n).all(|j| i == j || met[i][j]));
    halves
        .into_iter()
        .map(|h| {
            if all_met {
                Value::from_halves(h)
            } else {
                Value::ZERO
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(round: u32, winner: &str, loser: &str) -> Game {
        Game {
            round,
            board: 1,
            white: winner.to_string(),
            black: loser.to_string(),
            handicap: 0,
            result: GameResult::WhiteWins,
            by_default: false,
            colours_known: true,
        }
    }

    /// The cycle A>B>C>A; D beat B; E beat D. B is the lowest of the cycle
    /// on the criteria after DC, D and E lower than A and C. B is placed
    /// last first; D beat a member of the cycle, so D stands above A and C
    /// too and waits until the whole cycle is placed; E beat D.
    #[test]
    fn a_cycle_shares_its_members_losses() {
        let ids = ["A", "B", "C", "D", "E"];
        let games = [
            win(1, "A", "B"),
            win(2, "B", "C"),
            win(3, "C", "A"),
            win(4, "D", "B"),
            win(5, "E", "D"),
        ];
        let games: Vec<&Game> = games.iter().collect();
        let secondary: Vec<Vec<Value>> = [4, 1, 5, 2, 3]
            .iter()
            .map(|&v| vec![Value::from_points(v)])
            .collect();
        let got = dc(&ids, &games, &secondary);
        // Ranks: E 1, D 2, C 3, A 4, B 5; value = 5 − rank.
        let want: Vec<Value> = [1, 0, 2, 3, 4]
            .iter()
            .map(|&v| Value::from_points(v))
            .collect();
        assert_eq!(got, want);
    }
}
