//! Replaying whole fixture games: moves per second with and without the
//! position history that superko needs.
// criterion_group! and criterion_main! generate undocumented functions.
#![allow(missing_docs)]

use std::fs;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use kifu_go::{replay_sgf, setup_from_sgf, sgf, Game, Move, Ruleset, SgfGame};

#[path = "../tests/support/mod.rs"]
mod support;

fn load_games() -> Vec<SgfGame> {
    let mut games = Vec::new();
    // The real games are third-party records (skipped when absent); the
    // self-play games ship with the project.
    let dirs = [
        support::third_party("go/real"),
        Some(support::project("go/gnugo-selfplay")),
    ];
    for dir in dirs.into_iter().flatten() {
        let entries = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("fixture folder {} is missing: {e}", dir.display()));
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
            .collect();
        paths.sort();
        for p in paths {
            let bytes = fs::read(&p).expect("readable sgf");
            let text = String::from_utf8_lossy(&bytes);
            games.push(sgf::read(&text).expect("fixture sgf reads"));
        }
    }
    games
}

fn replay_without_history(record: &SgfGame, ruleset: &Ruleset) -> Game {
    let setup = setup_from_sgf(record).expect("setup");
    let mut game = Game::new(ruleset.clone(), &setup).expect("game");
    game.set_history_tracking(false);
    for m in &record.moves {
        let mv = m.point.map(Move::Play).unwrap_or(Move::Pass);
        game.apply(m.color, m.color, mv);
    }
    game
}

fn bench_replay(c: &mut Criterion) {
    let games = load_games();
    let moves: u64 = games.iter().map(|g| g.moves.len() as u64).sum();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(moves));
    group.sample_size(20);
    let lgc = Ruleset::lgc_2023();
    group.bench_function("with_superko_history (lgc-2023)", |b| {
        b.iter(|| {
            for g in &games {
                black_box(replay_sgf(g, lgc.clone()).expect("replay"));
            }
        })
    });
    let japanese = Ruleset::japanese();
    group.bench_function("without_history (simple ko)", |b| {
        b.iter(|| {
            for g in &games {
                black_box(replay_without_history(g, &japanese));
            }
        })
    });
    group.finish();
    let mut parse = c.benchmark_group("sgf");
    let texts: Vec<String> = games.iter().map(sgf::write).collect();
    parse.throughput(Throughput::Elements(moves));
    parse.sample_size(20);
    parse.bench_function("read_all_fixture_records", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(sgf::read(t).expect("read"));
            }
        })
    });
    parse.finish();
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
