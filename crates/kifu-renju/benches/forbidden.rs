//! Forbidden-move checks per second on mid-game positions: the 54 vector positions, and
//! random mid-game boards where every empty point is classified for Black.
// criterion_group! and criterion_main! generate undocumented functions.
#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use kifu_renju::{forbidden_points, verdict, Board, Point, Rule, Stone};

fn vector_positions() -> Vec<(Board, Point, Stone)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/renju/vectors.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let data: serde_json::Value = serde_json::from_str(&text).expect("vectors.json is JSON");
    let points = |v: &serde_json::Value| -> Vec<Point> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|s| s.as_str().expect("string").parse().expect("point"))
            .collect()
    };
    data["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .map(|v| {
            let board = Board::from_stones(&points(&v["black"]), &points(&v["white"]))
                .expect("valid position");
            let query = v["query"].as_str().expect("query").parse().expect("point");
            let colour = v["query_color"]
                .as_str()
                .expect("colour")
                .parse()
                .expect("colour");
            (board, query, colour)
        })
        .collect()
}

/// Deterministic mid-game boards: 30 to 60 stones, 55% black, inside the central 11x11.
fn random_midgame(count: usize) -> Vec<Board> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let mut board = Board::new();
            let stones = 30 + (next() % 31) as usize;
            while board.stone_count() < stones {
                let x = 2 + (next() % 11) as u8;
                let y = 2 + (next() % 11) as u8;
                let p = Point::new(x, y).expect("on board");
                let colour = if next() % 100 < 55 {
                    Stone::Black
                } else {
                    Stone::White
                };
                let _ = board.place(p, colour);
            }
            board
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let vectors = vector_positions();
    let mut group = c.benchmark_group("forbidden");
    group.throughput(Throughput::Elements(vectors.len() as u64));
    group.bench_function("vector_queries", |b| {
        b.iter(|| {
            for (board, query, colour) in &vectors {
                black_box(verdict(board, *query, *colour, Rule::RifRenju).expect("empty"));
            }
        })
    });

    let boards = random_midgame(64);
    let empties: u64 = boards
        .iter()
        .map(|b| (kifu_renju::BOARD_POINTS - b.stone_count()) as u64)
        .sum();
    let forbidden: usize = boards.iter().map(|b| forbidden_points(b).len()).sum();
    eprintln!(
        "random mid-game: {} boards, {empties} empty points, {forbidden} forbidden for Black",
        boards.len()
    );
    group.throughput(Throughput::Elements(empties));
    group.bench_function("midgame_all_empty_points", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(forbidden_points(board));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
