#![allow(missing_docs)]
//! The map of game heads (`docs/TRANSPARENCY.md` section 10): building a
//! map of 100,000 games, the update one checkpoint makes when 350 games
//! moved, and a proof and its verification.
//!
//! `cargo bench -p kifu-tlog --bench map`

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use kifu_tlog::map::{self, MemMap};
use kifu_tlog::{leaf_hash, Leaf};

const GAMES: u64 = 100_000;

fn leaf(game: u64, seq: u64) -> Leaf {
    Leaf {
        game: leaf_hash(&game.to_be_bytes()),
        seq,
        record_hash: leaf_hash(&(game ^ seq << 32).to_be_bytes()),
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("map");
    g.sample_size(10);
    let first: Vec<Leaf> = (0..GAMES).map(|i| leaf(i, 0)).collect();
    g.bench_function("build_100k_games", |b| {
        b.iter(|| {
            let mut m = MemMap::new();
            black_box(m.extend(&first))
        })
    });
    let mut base = MemMap::new();
    base.extend(&first);
    println!("map of {GAMES} games: {} nodes", base.nodes());
    let moved: Vec<Leaf> = (0..350).map(|i| leaf(i * 271 % GAMES, 1)).collect();
    g.bench_function("update_350_heads_of_100k", |b| {
        b.iter_batched(
            || base.clone(),
            |mut m| black_box(m.extend(&moved)),
            BatchSize::LargeInput,
        )
    });
    let game = leaf(4242, 0).game;
    g.sample_size(100);
    g.bench_function("prove_in_100k", |b| b.iter(|| black_box(base.prove(&game))));
    let proof = base.prove(&game);
    println!(
        "map proof in {GAMES} games: {} siblings, {} bytes with the 80-byte entry",
        proof.siblings.len(),
        proof.siblings.len() * 32 + 80
    );
    let root = base.root();
    g.bench_function("verify_in_100k", |b| {
        b.iter(|| black_box(map::verify(&root, &game, &proof)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
