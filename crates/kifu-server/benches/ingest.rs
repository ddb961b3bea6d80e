#![allow(missing_docs)]
//! In-process ingest (the pipeline without HTTP): 256 submitters, each
//! recording its own game one event at a time, every append durable before
//! it is acknowledged. Prints the batch-size distribution and the sync
//! latency that explain the rate.
//!
//! `cargo bench -p kifu-server --bench ingest`

/// The allocator of the `kifu` binary, so the figures are the server's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Record};
use kifu_server::{Ingest, Metrics};
use kifu_store::Store;

const SUBMITTERS: usize = 256;
const EVENTS_EACH: usize = 20;

fn ingest(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(Store::open(dir.path()).expect("store"));
    let metrics = Arc::new(Metrics::default());
    let ingest = Arc::new(Ingest::start(store, 65_536, metrics.clone()).expect("ingest"));
    let cast = Cast::new();
    let mut chains: Vec<ChainBuilder> = (0..SUBMITTERS)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("board {i}")), 0))
        .collect();
    let genesis: Vec<Record> = chains.iter().map(|c| c.records[0].clone()).collect();
    let answer = ingest.append_blocking(genesis).expect("genesis");
    assert!(answer.iter().all(|r| r.is_ok()));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");

    // CPU time of each kind of thread while the clock runs.
    let cpu: Mutex<(BTreeMap<String, u64>, u64)> = Mutex::default();
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    group.throughput(Throughput::Elements((SUBMITTERS * EVENTS_EACH) as u64));
    group.bench_function("256_submitters_own_game_durable", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                // Signing is the boards' work, done before the clock starts.
                let work: Vec<Vec<Record>> = chains
                    .iter_mut()
                    .map(|c| {
                        (0..EVENTS_EACH)
                            .map(|j| {
                                let player = if j % 2 == 0 {
                                    Color::Black
                                } else {
                                    Color::White
                                };
                                c.push(&cast.recorder, Body::ClockPressed { player })
                                    .clone()
                            })
                            .collect()
                    })
                    .collect();
                let before = thread_cpu();
                let started = Instant::now();
                rt.block_on(async {
                    let tasks: Vec<_> = work
                        .into_iter()
                        .map(|w| {
                            let ingest = ingest.clone();
                            tokio::spawn(async move {
                                for r in w {
                                    let a = ingest.append(vec![r]).await.expect("queued");
                                    assert!(a[0].is_ok(), "{:?}", a[0]);
                                }
                            })
                        })
                        .collect();
                    for t in tasks {
                        t.await.expect("submitter");
                    }
                });
                total += started.elapsed();
                let after = thread_cpu();
                let mut cpu = cpu.lock().unwrap();
                for (k, v) in after {
                    let was = before.get(&k).copied().unwrap_or(0);
                    *cpu.0.entry(k).or_default() += v.saturating_sub(was);
                }
                cpu.1 += (SUBMITTERS * EVENTS_EACH) as u64;
            }
            total
        })
    });
    group.finish();
    report(&metrics);
    let (cpu, records) = cpu.into_inner().unwrap();
    if records > 0 && !cpu.is_empty() {
        let all: u64 = cpu.values().sum();
        eprintln!(
            "CPU per record while timed, by thread: {:.1} µs in all",
            all as f64 / 1e3 / records as f64
        );
        for (k, v) in &cpu {
            eprintln!("  {k}: {:.1} µs", *v as f64 / 1e3 / records as f64);
        }
    }
}

/// CPU time (ns) of this process's threads, summed by thread name with any
/// trailing number dropped (`kifu-sig-0` and `kifu-sig-1` are `kifu-sig`).
/// Empty where `/proc` does not say.
fn thread_cpu() -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for t in tasks.flatten() {
        let (Ok(comm), Ok(stat)) = (
            std::fs::read_to_string(t.path().join("comm")),
            std::fs::read_to_string(t.path().join("schedstat")),
        ) else {
            continue;
        };
        let Some(ns) = stat
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        let name = comm
            .trim()
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .trim_end_matches('-')
            .to_string();
        *out.entry(name).or_default() += ns;
    }
    out
}

fn report(m: &Metrics) {
    eprintln!(
        "\nbatches: {}, records per batch (bucket upper bound: batches):",
        m.batch_records.count()
    );
    for (bound, n) in m.batch_records.buckets() {
        if n > 0 {
            eprintln!("  <= {bound}: {n}");
        }
    }
    eprintln!(
        "mean batch {:.1} records; sync: {} syncs, mean {:.3} ms; verify mean {:.3} ms; commit mean {:.3} ms",
        m.batch_records.sum() / m.batch_records.count().max(1) as f64,
        m.sync_seconds.count(),
        1e3 * m.sync_seconds.sum() / m.sync_seconds.count().max(1) as f64,
        1e3 * m.verify_seconds.sum() / m.verify_seconds.count().max(1) as f64,
        1e3 * m.commit_seconds.sum() / m.commit_seconds.count().max(1) as f64,
    );
    eprintln!(
        "queued to answered: mean {:.3} ms over {} submissions",
        1e3 * m.ack_seconds.sum() / m.ack_seconds.count().max(1) as f64,
        m.ack_seconds.count()
    );
    eprintln!("sync latency (bucket upper bound in s: syncs):");
    for (bound, n) in m.sync_seconds.buckets() {
        if n > 0 {
            eprintln!("  <= {bound}: {n}");
        }
    }
}

criterion_group!(benches, ingest);
criterion_main!(benches);
