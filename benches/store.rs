//! Durable append (one at a time, batched, concurrent), full-store
//! verification and feed reading. Figures: docs/PERFORMANCE.md.
// criterion_group! and criterion_main! generate undocumented functions.
#![allow(missing_docs)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{verify_records, Body, Color, Record};
use kifu_store::Store;

/// A game of `n` events after its genesis: clock presses, alternating.
fn game(cast: &Cast, title: &str, n: usize) -> Vec<Record> {
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis(title), 0);
    for i in 0..n {
        let (k, p) = if i % 2 == 0 {
            (&cast.black, Color::Black)
        } else {
            (&cast.white, Color::White)
        };
        c.push(k, Body::ClockPressed { player: p });
    }
    c.records
}

fn append(c: &mut Criterion) {
    let cast = Cast::new();
    let mut g = c.benchmark_group("durable_append");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(200));
    g.bench_function("one_at_a_time", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let dir = tempfile::tempdir().unwrap();
                let store = Store::open(dir.path()).unwrap();
                let recs = game(&cast, &format!("one {i}"), 200);
                store.append(recs[0].clone()).unwrap();
                let t = Instant::now();
                for r in &recs[1..] {
                    store.append(r.clone()).unwrap();
                }
                total += t.elapsed();
            }
            total
        })
    });
    for batch in [10usize, 100] {
        g.bench_with_input(BenchmarkId::new("batched", batch), &batch, |b, &batch| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for i in 0..iters {
                    let dir = tempfile::tempdir().unwrap();
                    let store = Store::open(dir.path()).unwrap();
                    let recs = game(&cast, &format!("batch {i}"), 200);
                    store.append(recs[0].clone()).unwrap();
                    let t = Instant::now();
                    for chunk in recs[1..].chunks(batch) {
                        store.append_batch(chunk.to_vec()).unwrap();
                    }
                    total += t.elapsed();
                }
                total
            })
        });
    }
    // Eight boards appending at once: group commit shares the syncs.
    g.bench_function("concurrent_8_games", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let dir = tempfile::tempdir().unwrap();
                let store = Arc::new(Store::open(dir.path()).unwrap());
                let games: Vec<Vec<Record>> = (0..8)
                    .map(|j| game(&cast, &format!("c {i} {j}"), 25))
                    .collect();
                for gm in &games {
                    store.append(gm[0].clone()).unwrap();
                }
                let t = Instant::now();
                std::thread::scope(|s| {
                    for gm in &games {
                        let store = store.clone();
                        s.spawn(move || {
                            for r in &gm[1..] {
                                store.append(r.clone()).unwrap();
                            }
                        });
                    }
                });
                total += t.elapsed();
            }
            total
        })
    });
    g.finish();
}

fn verify_and_feed(c: &mut Criterion) {
    let cast = Cast::new();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut n = 0;
    for j in 0..20 {
        let recs = game(&cast, &format!("v {j}"), 499);
        n += recs.len();
        store.append_batch(recs).unwrap();
    }
    let mut g = c.benchmark_group("read");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("verify_store_10k", |b| {
        b.iter(|| {
            let recs = store.all_records().unwrap();
            let r = verify_records(&recs);
            assert!(r.ok());
        })
    });
    g.bench_function("feed_read_10k", |b| {
        b.iter(|| {
            let mut after = None;
            let mut count = 0;
            loop {
                let page = store.feed(after, 1024).unwrap();
                if page.is_empty() {
                    break;
                }
                after = page.last().map(|i| i.cursor);
                count += page.len();
            }
            assert_eq!(count, n);
        })
    });
    g.finish();
}

criterion_group!(benches, append, verify_and_feed);
criterion_main!(benches);
