#![allow(missing_docs)]
//! Tree append, proof generation and verification at 1M leaves.
//!
//! `cargo bench -p kifu-tlog --bench tlog`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use kifu_tlog::{leaf_hash, verify_consistency, verify_inclusion, MemTree};

const N: u64 = 1_000_000;

fn tree(n: u64) -> MemTree {
    let mut t = MemTree::new();
    for i in 0..n {
        t.push_hash(leaf_hash(&i.to_be_bytes()));
    }
    t
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tlog");
    g.sample_size(10);
    g.bench_function("append_1m_leaves_in_memory", |b| {
        b.iter(|| black_box(tree(N).root()))
    });
    let t = tree(N);
    let root = t.root();
    let old = N / 3 + 12_345;
    let old_root = t.root_at(old).unwrap_or_default();
    let idx = 777_777u64;
    let leaf = leaf_hash(&idx.to_be_bytes());
    g.sample_size(100);
    g.bench_function("prove_inclusion_at_1m", |b| {
        b.iter(|| black_box(t.prove_inclusion(black_box(idx), N)))
    });
    let proof = t.prove_inclusion(idx, N).unwrap_or_default();
    println!(
        "inclusion proof at 1M: {} hashes, {} bytes",
        proof.len(),
        proof.len() * 32
    );
    g.bench_function("verify_inclusion_at_1m", |b| {
        b.iter(|| black_box(verify_inclusion(idx, N, &leaf, &proof, &root)))
    });
    g.bench_function("prove_consistency_at_1m", |b| {
        b.iter(|| black_box(t.prove_consistency(black_box(old), N)))
    });
    let cproof = t.prove_consistency(old, N).unwrap_or_default();
    println!(
        "consistency proof {old} -> 1M: {} hashes, {} bytes",
        cproof.len(),
        cproof.len() * 32
    );
    g.bench_function("verify_consistency_at_1m", |b| {
        b.iter(|| black_box(verify_consistency(old, N, &old_root, &root, &cproof)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
