//! A maximum weight matching of a graph given by its weight matrix:
//! Edmonds' blossom algorithm in its primal-dual form, O(n³) on a dense
//! graph (Galil, "Efficient algorithms for finding maximum matching in
//! graphs", 1986). OpenGotha uses Gabow's implementation of the same
//! algorithm (`WeightedMatchLong`); both find a matching of the greatest
//! total weight, and when several matchings share that weight each may
//! return a different one.
//!
//! Vertices are numbered from 1 inside, 0 meaning "none"; blossoms take the
//! numbers after the vertices. Dual variables are kept doubled (`label`)
//! so every quantity stays an integer.

/// Why a weight matrix cannot be matched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchingError {
    /// A row of another length than the matrix.
    #[error("the weight matrix is not square: row {row} has {len} weights for {n} vertices")]
    NotSquare {
        /// The row.
        row: usize,
        /// Its length.
        len: usize,
        /// The number of vertices.
        n: usize,
    },
    /// `w[i][j] != w[j][i]`.
    #[error("the weight of {i}-{j} differs from the weight of {j}-{i}")]
    NotSymmetric {
        /// One vertex.
        i: usize,
        /// The other.
        j: usize,
    },
    /// A weight below 0 or too large to add up safely.
    #[error("the weight of {i}-{j} is {weight}, outside 0..=2^60 / n")]
    BadWeight {
        /// One vertex.
        i: usize,
        /// The other.
        j: usize,
        /// The weight.
        weight: i64,
    },
}

#[derive(Debug, Clone, Copy, Default)]
struct Edge {
    u: u32,
    v: u32,
    w: i64,
}

const UNLABELED: i8 = -1;
const EVEN: i8 = 0;
const ODD: i8 = 1;

struct Blossoms {
    n: usize,
    /// Vertices and blossoms in use (blossoms are n+1..=used).
    used: usize,
    g: Vec<Vec<Edge>>,
    label: Vec<i64>,
    mate: Vec<usize>,
    slack: Vec<usize>,
    top: Vec<usize>,
    parent: Vec<usize>,
    /// `entry[b][x]`: the sub-blossom of `b` that holds vertex `x`.
    entry: Vec<Vec<usize>>,
    side: Vec<i8>,
    visited: Vec<u64>,
    stamp: u64,
    members: Vec<Vec<usize>>,
    queue: std::collections::VecDeque<usize>,
}

/// The maximum weight matching of the graph whose edge `i`–`j` weighs
/// `weights[i][j]`; a weight of 0 means there is no edge. Returns each
/// vertex's mate. On a complete graph with an even number of vertices and
/// every weight positive the matching is perfect: two vertices left alone
/// could always be matched with each other for more weight.
///
/// ```
/// use kifu_pairing::matching::maximum_weight_matching;
/// let w = vec![vec![0, 5, 1], vec![5, 0, 4], vec![1, 4, 0]];
/// assert_eq!(maximum_weight_matching(&w).unwrap(), vec![Some(1), Some(0), None]);
/// ```
pub fn maximum_weight_matching(weights: &[Vec<i64>]) -> Result<Vec<Option<usize>>, MatchingError> {
    let n = weights.len();
    let limit = (1i64 << 60) / (n.max(1) as i64);
    for (i, row) in weights.iter().enumerate() {
        if row.len() != n {
            return Err(MatchingError::NotSquare {
                row: i,
                len: row.len(),
                n,
            });
        }
        for (j, &w) in row.iter().enumerate() {
            if !(0..=limit).contains(&w) {
                return Err(MatchingError::BadWeight { i, j, weight: w });
            }
            if weights[j][i] != w {
                return Err(MatchingError::NotSymmetric { i, j });
            }
        }
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut b = Blossoms::new(weights);
    while b.augment_once() {}
    Ok((1..=n)
        .map(|x| (b.mate[x] != 0).then(|| b.mate[x] - 1))
        .collect())
}

impl Blossoms {
    fn new(weights: &[Vec<i64>]) -> Blossoms {
        let n = weights.len();
        let size = 2 * n + 1;
        let mut g = vec![vec![Edge::default(); size]; size];
        let mut heaviest = 0;
        for u in 1..=n {
            for v in 1..=n {
                let w = if u == v { 0 } else { weights[u - 1][v - 1] };
                g[u][v] = Edge {
                    u: u as u32,
                    v: v as u32,
                    w,
                };
                heaviest = heaviest.max(w);
            }
        }
        let mut entry = vec![vec![0; n + 1]; size];
        for (u, row) in entry.iter_mut().enumerate().take(n + 1).skip(1) {
            row[u] = u;
        }
        let mut label = vec![0; size];
        for l in label.iter_mut().take(n + 1).skip(1) {
            *l = heaviest;
        }
        Blossoms {
            n,
            used: n,
            g,
            label,
            mate: vec![0; size],
            slack: vec![0; size],
            top: (0..size).collect(),
            parent: vec![0; size],
            entry,
            side: vec![UNLABELED; size],
            visited: vec![0; size],
            stamp: 0,
            members: vec![Vec::new(); size],
            queue: std::collections::VecDeque::new(),
        }
    }

    /// Twice the slack of an edge: 0 when it is tight.
    fn delta(&self, e: Edge) -> i64 {
        self.label[e.u as usize] + self.label[e.v as usize]
            - 2 * self.g[e.u as usize][e.v as usize].w
    }

    fn update_slack(&mut self, u: usize, x: usize) {
        if self.slack[x] == 0 || self.delta(self.g[u][x]) < self.delta(self.g[self.slack[x]][x]) {
            self.slack[x] = u;
        }
    }

    fn set_slack(&mut self, x: usize) {
        self.slack[x] = 0;
        for u in 1..=self.n {
            if self.g[u][x].w > 0 && self.top[u] != x && self.side[self.top[u]] == EVEN {
                self.update_slack(u, x);
            }
        }
    }

    fn push(&mut self, x: usize) {
        if x <= self.n {
            self.queue.push_back(x);
        } else {
            for i in 0..self.members[x].len() {
                let t = self.members[x][i];
                self.push(t);
            }
        }
    }

    fn set_top(&mut self, x: usize, b: usize) {
        self.top[x] = b;
        if x > self.n {
            for i in 0..self.members[x].len() {
                let t = self.members[x][i];
                self.set_top(t, b);
            }
        }
    }

    /// The position of sub-blossom `xr` in blossom `b`, the cycle turned so
    /// that the path from the base to it has even length.
    fn even_position(&mut self, b: usize, xr: usize) -> usize {
        let pr = self.members[b]
            .iter()
            .position(|&x| x == xr)
            .unwrap_or_default();
        if pr % 2 == 1 {
            self.members[b][1..].reverse();
            self.members[b].len() - pr
        } else {
            pr
        }
    }

    fn set_mate(&mut self, u: usize, v: usize) {
        self.mate[u] = self.g[u][v].v as usize;
        if u <= self.n {
            return;
        }
        let e = self.g[u][v];
        let xr = self.entry[u][e.u as usize];
        let pr = self.even_position(u, xr);
        for i in 0..pr {
            let (a, b) = (self.members[u][i], self.members[u][i ^ 1]);
            self.set_mate(a, b);
        }
        self.set_mate(xr, v);
        self.members[u].rotate_left(pr);
    }

    fn augment(&mut self, mut u: usize, mut v: usize) {
        loop {
            let xnv = self.top[self.mate[u]];
            self.set_mate(u, v);
            if xnv == 0 {
                return;
            }
            let next = self.top[self.parent[xnv]];
            self.set_mate(xnv, next);
            u = next;
            v = xnv;
        }
    }

    fn lowest_common_ancestor(&mut self, mut u: usize, mut v: usize) -> usize {
        self.stamp += 1;
        while u != 0 || v != 0 {
            if u != 0 {
                if self.visited[u] == self.stamp {
                    return u;
                }
                self.visited[u] = self.stamp;
                u = self.top[self.mate[u]];
                if u != 0 {
                    u = self.top[self.parent[u]];
                }
            }
            std::mem::swap(&mut u, &mut v);
        }
        0
    }

    fn add_blossom(&mut self, u: usize, base: usize, v: usize) {
        let mut b = self.n + 1;
        while b <= self.used && self.top[b] != 0 {
            b += 1;
        }
        if b > self.used {
            self.used += 1;
        }
        self.label[b] = 0;
        self.side[b] = EVEN;
        self.mate[b] = self.mate[base];
        self.members[b].clear();
        self.members[b].push(base);
        let mut x = u;
        while x != base {
            self.members[b].push(x);
            let y = self.top[self.mate[x]];
            self.members[b].push(y);
            self.push(y);
            x = self.top[self.parent[y]];
        }
        self.members[b][1..].reverse();
        let mut x = v;
        while x != base {
            self.members[b].push(x);
            let y = self.top[self.mate[x]];
            self.members[b].push(y);
            self.push(y);
            x = self.top[self.parent[y]];
        }
        self.set_top(b, b);
        for x in 1..=self.used {
            self.g[b][x].w = 0;
            self.g[x][b].w = 0;
        }
        for x in 1..=self.n {
            self.entry[b][x] = 0;
        }
        for i in 0..self.members[b].len() {
            let xs = self.members[b][i];
            for x in 1..=self.used {
                if self.g[b][x].w == 0 || self.delta(self.g[xs][x]) < self.delta(self.g[b][x]) {
                    self.g[b][x] = self.g[xs][x];
                    self.g[x][b] = self.g[x][xs];
                }
            }
            for x in 1..=self.n {
                if self.entry[xs][x] != 0 {
                    self.entry[b][x] = xs;
                }
            }
        }
        self.set_slack(b);
    }

    fn expand_blossom(&mut self, b: usize) {
        for i in 0..self.members[b].len() {
            let t = self.members[b][i];
            self.set_top(t, t);
        }
        let xr = self.entry[b][self.g[b][self.parent[b]].u as usize];
        let pr = self.even_position(b, xr);
        let mut i = 0;
        while i < pr {
            let xs = self.members[b][i];
            let xns = self.members[b][i + 1];
            self.parent[xs] = self.g[xns][xs].u as usize;
            self.side[xs] = ODD;
            self.side[xns] = EVEN;
            self.slack[xs] = 0;
            self.set_slack(xns);
            self.push(xns);
            i += 2;
        }
        self.side[xr] = ODD;
        self.parent[xr] = self.parent[b];
        for i in pr + 1..self.members[b].len() {
            let xs = self.members[b][i];
            self.side[xs] = UNLABELED;
            self.set_slack(xs);
        }
        self.top[b] = 0;
    }

    /// A tight edge found from an even vertex: grow the tree, make a
    /// blossom, or augment (true).
    fn on_tight_edge(&mut self, e: Edge) -> bool {
        let (u, v) = (self.top[e.u as usize], self.top[e.v as usize]);
        if self.side[v] == UNLABELED {
            self.parent[v] = e.u as usize;
            self.side[v] = ODD;
            let nu = self.top[self.mate[v]];
            self.slack[v] = 0;
            self.slack[nu] = 0;
            self.side[nu] = EVEN;
            self.push(nu);
        } else if self.side[v] == EVEN {
            let base = self.lowest_common_ancestor(u, v);
            if base == 0 {
                self.augment(u, v);
                self.augment(v, u);
                return true;
            }
            self.add_blossom(u, base, v);
        }
        false
    }

    /// One augmentation; false when the matching is maximum.
    fn augment_once(&mut self) -> bool {
        for x in 1..=self.used {
            self.side[x] = UNLABELED;
            self.slack[x] = 0;
        }
        self.queue.clear();
        for x in 1..=self.used {
            if self.top[x] == x && self.mate[x] == 0 {
                self.parent[x] = 0;
                self.side[x] = EVEN;
                self.push(x);
            }
        }
        if self.queue.is_empty() {
            return false;
        }
        loop {
            while let Some(u) = self.queue.pop_front() {
                if self.side[self.top[u]] == ODD {
                    continue;
                }
                for v in 1..=self.n {
                    if self.g[u][v].w > 0 && self.top[u] != self.top[v] {
                        if self.delta(self.g[u][v]) == 0 {
                            if self.on_tight_edge(self.g[u][v]) {
                                return true;
                            }
                        } else {
                            let tv = self.top[v];
                            self.update_slack(u, tv);
                        }
                    }
                }
            }
            let mut d = i64::MAX;
            for b in self.n + 1..=self.used {
                if self.top[b] == b && self.side[b] == ODD {
                    d = d.min(self.label[b] / 2);
                }
            }
            for x in 1..=self.used {
                if self.top[x] == x && self.slack[x] != 0 {
                    let slack = self.delta(self.g[self.slack[x]][x]);
                    if self.side[x] == UNLABELED {
                        d = d.min(slack);
                    } else if self.side[x] == EVEN {
                        d = d.min(slack / 2);
                    }
                }
            }
            // An even vertex whose dual would reach 0 first: no augmenting
            // path is left (checked before any dual moves).
            if (1..=self.n).any(|u| self.side[self.top[u]] == EVEN && self.label[u] <= d) {
                return false;
            }
            for u in 1..=self.n {
                match self.side[self.top[u]] {
                    EVEN => self.label[u] -= d,
                    ODD => self.label[u] += d,
                    _ => {}
                }
            }
            for b in self.n + 1..=self.used {
                if self.top[b] == b {
                    match self.side[b] {
                        EVEN => self.label[b] += 2 * d,
                        ODD => self.label[b] -= 2 * d,
                        _ => {}
                    }
                }
            }
            self.queue.clear();
            for x in 1..=self.used {
                if self.top[x] == x
                    && self.slack[x] != 0
                    && self.top[self.slack[x]] != x
                    && self.delta(self.g[self.slack[x]][x]) == 0
                    && self.on_tight_edge(self.g[self.slack[x]][x])
                {
                    return true;
                }
            }
            for b in self.n + 1..=self.used {
                if self.top[b] == b && self.side[b] == ODD && self.label[b] == 0 {
                    self.expand_blossom(b);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The heaviest matching by trying them all (n ≤ 12).
    fn brute_force(w: &[Vec<i64>]) -> i64 {
        fn best(w: &[Vec<i64>], free: u32, memo: &mut std::collections::HashMap<u32, i64>) -> i64 {
            if free == 0 {
                return 0;
            }
            if let Some(&v) = memo.get(&free) {
                return v;
            }
            let i = free.trailing_zeros() as usize;
            let rest = free & !(1 << i);
            // i stays alone, or is matched with a free j over an edge.
            let mut top = best(w, rest, memo);
            for j in 0..w.len() {
                if rest & (1 << j) != 0 && w[i][j] > 0 {
                    top = top.max(w[i][j] + best(w, rest & !(1 << j), memo));
                }
            }
            memo.insert(free, top);
            top
        }
        best(w, (1u32 << w.len()) - 1, &mut Default::default())
    }

    fn weight_of(w: &[Vec<i64>], mate: &[Option<usize>]) -> i64 {
        mate.iter()
            .enumerate()
            .filter_map(|(i, m)| m.filter(|&j| i < j).map(|j| w[i][j]))
            .sum()
    }

    fn graph(max_n: usize, max_w: i64, density: u32) -> impl Strategy<Value = Vec<Vec<i64>>> {
        (0..=max_n).prop_flat_map(move |n| {
            proptest::collection::vec((0..100u32, 1..=max_w), n * n).prop_map(move |cells| {
                let mut w = vec![vec![0; n]; n];
                for i in 0..n {
                    for j in i + 1..n {
                        let (p, x) = cells[i * n + j];
                        if p < density {
                            w[i][j] = x;
                            w[j][i] = x;
                        }
                    }
                }
                w
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn the_matching_is_as_heavy_as_the_best_of_all(w in graph(12, 30, 60)) {
            let mate = maximum_weight_matching(&w).unwrap();
            for (i, m) in mate.iter().enumerate() {
                if let Some(j) = *m {
                    prop_assert_eq!(mate[j], Some(i));
                    prop_assert!(w[i][j] > 0, "matched over a missing edge");
                }
            }
            prop_assert_eq!(weight_of(&w, &mate), brute_force(&w));
        }

        #[test]
        fn heavy_weights_as_opengotha_s_costs_are_matched_exactly(
            w in graph(12, 600_000_000_000_000, 100)
        ) {
            let mate = maximum_weight_matching(&w).unwrap();
            prop_assert_eq!(weight_of(&w, &mate), brute_force(&w));
            // A complete graph with positive weights: everyone but one is matched.
            prop_assert!(mate.iter().filter(|m| m.is_none()).count() <= 1);
        }
    }

    #[test]
    fn a_bad_matrix_is_refused_in_words() {
        assert_eq!(
            maximum_weight_matching(&[vec![0, 1], vec![2, 0]]),
            Err(MatchingError::NotSymmetric { i: 0, j: 1 })
        );
        assert!(matches!(
            maximum_weight_matching(&[vec![0, 1], vec![1]]),
            Err(MatchingError::NotSquare { row: 1, .. })
        ));
        assert!(matches!(
            maximum_weight_matching(&[vec![0, -1], vec![-1, 0]]),
            Err(MatchingError::BadWeight { weight: -1, .. })
        ));
    }

    #[test]
    fn a_blossom_is_shrunk_and_expanded() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4: the best matching uses
        // both tails and the edge 1-? that remains.
        let mut w = vec![vec![0; 6]; 6];
        let mut e = |a: usize, b: usize, x: i64| {
            w[a][b] = x;
            w[b][a] = x;
        };
        e(0, 1, 10);
        e(1, 2, 10);
        e(0, 2, 10);
        e(2, 3, 6);
        e(0, 4, 6);
        e(1, 5, 6);
        let mate = maximum_weight_matching(&w).unwrap();
        assert_eq!(weight_of(&w, &mate), 18);
        assert_eq!(mate, [Some(4), Some(5), Some(3), Some(2), Some(0), Some(1)]);
    }
}
