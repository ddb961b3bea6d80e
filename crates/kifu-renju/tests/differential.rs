//! Differential test: the verdicts of `kifu_renju::verdict` against a deliberately simple
//! second implementation written here from the RIF definitions: it copies each line into a
//! vector, slides windows of five and four over it, and recurses into straight-four points
//! on cloned boards. Slow and obvious, so that the fast scan has something to disagree with.

use std::sync::atomic::{AtomicUsize, Ordering};

use kifu_renju::{verdict, Board, Point, Rule, Stone};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};

const N: i32 = 15;
const E: u8 = 0;
const B: u8 = 1;
const W: u8 = 2;

type Grid = Vec<Vec<u8>>; // grid[column][row]

/// The line through (x, y) in direction (dx, dy), edge to edge, and the index of (x, y) in it.
fn line(g: &Grid, x: i32, y: i32, dx: i32, dy: i32) -> (Vec<u8>, Vec<(i32, i32)>, usize) {
    let (mut sx, mut sy) = (x, y);
    while (0..N).contains(&(sx - dx)) && (0..N).contains(&(sy - dy)) {
        sx -= dx;
        sy -= dy;
    }
    let mut cells = Vec::new();
    let mut coords = Vec::new();
    let mut here = 0;
    let (mut cx, mut cy) = (sx, sy);
    while (0..N).contains(&cx) && (0..N).contains(&cy) {
        if (cx, cy) == (x, y) {
            here = cells.len();
        }
        cells.push(g[cx as usize][cy as usize]);
        coords.push((cx, cy));
        cx += dx;
        cy += dy;
    }
    (cells, coords, here)
}

fn black_at(l: &[u8], i: isize) -> bool {
    i >= 0 && (i as usize) < l.len() && l[i as usize] == B
}

fn empty_at(l: &[u8], i: isize) -> bool {
    i >= 0 && (i as usize) < l.len() && l[i as usize] == E
}

/// Windows of `len` consecutive cells of `l` that contain index `p`.
fn windows(l: &[u8], p: usize, len: usize) -> Vec<usize> {
    (0..l.len())
        .filter(|&s| s + len <= l.len() && s <= p && p < s + len)
        .collect()
}

/// A window of five, all black, with no black just outside: an exact five.
fn exact_five_in(l: &[u8], s: usize) -> bool {
    l[s..s + 5].iter().all(|&c| c == B)
        && !black_at(l, s as isize - 1)
        && !black_at(l, s as isize + 5)
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum V {
    Five,
    Overline,
    DoubleFour,
    DoubleThree,
    Legal,
}

/// Naive classification of the black stone already on (x, y).
fn naive(g: &Grid, x: i32, y: i32) -> V {
    let mut five = false;
    let mut over = false;
    for (dx, dy) in DIRS {
        let (l, _, p) = line(g, x, y, dx, dy);
        five |= windows(&l, p, 5).into_iter().any(|s| exact_five_in(&l, s));
        over |= windows(&l, p, 6)
            .into_iter()
            .any(|s| l[s..s + 6].iter().all(|&c| c == B));
    }
    if five {
        return V::Five;
    }
    if over {
        return V::Overline;
    }
    let mut fours = 0;
    for (dx, dy) in DIRS {
        let (l, _, p) = line(g, x, y, dx, dy);
        let mut sets: Vec<Vec<usize>> = Vec::new();
        for s in windows(&l, p, 5) {
            let w = &l[s..s + 5];
            let blacks = w.iter().filter(|&&c| c == B).count();
            let empties = w.iter().filter(|&&c| c == E).count();
            if blacks == 4 && empties == 1 {
                let mut filled = l.clone();
                let gap = s + w.iter().position(|&c| c == E).unwrap();
                filled[gap] = B;
                if exact_five_in(&filled, s) {
                    let set: Vec<usize> = (s..s + 5).filter(|&i| i != gap).collect();
                    if !sets.contains(&set) {
                        sets.push(set);
                    }
                }
            }
        }
        fours += sets.len();
    }
    if fours >= 2 {
        return V::DoubleFour;
    }
    let mut threes = 0;
    for (dx, dy) in DIRS {
        let (l, coords, p) = line(g, x, y, dx, dy);
        let mut found = false;
        for j in 0..l.len() {
            if found || l[j] != E {
                continue;
            }
            let mut filled = l.clone();
            filled[j] = B;
            // A straight four with p and j in it: four black in a row, both ends empty, and
            // each completion an exact five.
            let straight = windows(&filled, p, 4).into_iter().any(|s| {
                s <= j
                    && j < s + 4
                    && filled[s..s + 4].iter().all(|&c| c == B)
                    && empty_at(&filled, s as isize - 1)
                    && empty_at(&filled, s as isize + 4)
                    && !black_at(&filled, s as isize - 2)
                    && !black_at(&filled, s as isize + 5)
            });
            if straight {
                let mut g2 = g.clone();
                let (qx, qy) = coords[j];
                g2[qx as usize][qy as usize] = B;
                if naive(&g2, qx, qy) == V::Legal {
                    found = true;
                }
            }
        }
        if found {
            threes += 1;
        }
    }
    if threes >= 2 {
        V::DoubleThree
    } else {
        V::Legal
    }
}

/// Naive line win for colours without forbidden moves.
fn naive_line_win(g: &Grid, x: i32, y: i32, c: u8, exact: bool) -> bool {
    DIRS.iter().any(|&(dx, dy)| {
        let (l, _, p) = line(g, x, y, dx, dy);
        let mut a = p;
        while a > 0 && l[a - 1] == c {
            a -= 1;
        }
        let mut b = p;
        while b + 1 < l.len() && l[b + 1] == c {
            b += 1;
        }
        let n = b - a + 1;
        if exact {
            n == 5
        } else {
            n >= 5
        }
    })
}

static QUERIES: AtomicUsize = AtomicUsize::new(0);
static FORBIDDEN: AtomicUsize = AtomicUsize::new(0);

/// A random position: `stones` (index, is_black) concentrated in a central square of `span`.
fn position() -> impl Strategy<Value = Vec<(u8, u8, bool)>> {
    prop_oneof![Just(7u8), Just(9u8), Just(11u8), Just(15u8)].prop_flat_map(|span| {
        let lo = (15 - span) / 2;
        prop::collection::vec(
            (lo..lo + span, lo..lo + span, prop::bool::weighted(0.7)),
            0..(usize::from(span) * usize::from(span) / 2),
        )
    })
}

fn build(stones: &[(u8, u8, bool)]) -> (Board, Grid) {
    let mut board = Board::new();
    let mut grid = vec![vec![E; 15]; 15];
    for &(x, y, black) in stones {
        let p = Point::new(x, y).expect("in range");
        if board.is_empty_at(p) {
            let stone = if black { Stone::Black } else { Stone::White };
            board.place(p, stone).expect("empty");
            grid[x as usize][y as usize] = if black { B } else { W };
        }
    }
    (board, grid)
}

fn compare(stones: &[(u8, u8, bool)]) -> Result<(), TestCaseError> {
    let (board, grid) = build(stones);
    for p in Point::all() {
        if !board.is_empty_at(p) {
            continue;
        }
        let (x, y) = (i32::from(p.column()), i32::from(p.row()));
        let mut g = grid.clone();
        g[x as usize][y as usize] = B;
        let expected = match naive(&g, x, y) {
            V::Five => "five",
            V::Overline => "overline",
            V::DoubleFour => "double_four",
            V::DoubleThree => "double_three",
            V::Legal => "legal",
        };
        let got = verdict(&board, p, Stone::Black, Rule::RifRenju).expect("empty point");
        QUERIES.fetch_add(1, Ordering::Relaxed);
        if got.is_forbidden() {
            FORBIDDEN.fetch_add(1, Ordering::Relaxed);
        }
        prop_assert_eq!(got.name(), expected, "black at {} on\n{}", p, board);

        // Colours and rules without forbidden moves: only the winning row matters.
        for (rule, colour, c) in [
            (Rule::RifRenju, Stone::White, W),
            (Rule::GomokuFreestyle, Stone::Black, B),
            (Rule::GomokuStandard, Stone::White, W),
        ] {
            let mut g = grid.clone();
            g[x as usize][y as usize] = c;
            let exact = rule.needs_exact_five(colour);
            let win = naive_line_win(&g, x, y, c, exact);
            let got = verdict(&board, p, colour, rule).expect("empty point");
            prop_assert_eq!(
                got.is_win(),
                win,
                "{} {} at {} on\n{}",
                rule,
                colour,
                p,
                board
            );
            prop_assert!(!got.is_forbidden());
        }
    }
    Ok(())
}

/// Number of random positions; every empty point of each is queried.
const CASES: u32 = 1000;

#[test]
fn forbidden_verdicts_equal_the_naive_implementation() {
    let config = ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&position(), |stones| compare(&stones)) {
        panic!("{e}");
    }
    let queries = QUERIES.load(Ordering::Relaxed);
    let forbidden = FORBIDDEN.load(Ordering::Relaxed);
    eprintln!("differential: {CASES} positions, {queries} black queries, {forbidden} forbidden");
    // The generator must produce enough forbidden points for the comparison to mean something.
    assert!(
        forbidden >= 1000,
        "only {forbidden} forbidden points generated"
    );
}
