//! Verification speed: the signature rule one by one and batched (both give
//! the same verdict), and whole-archive verification.
//!
//! `cargo bench -p kifu-ledger --bench ledger`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu_ledger::sig::{self, Method};
use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::{archive, event::signed_message, Record};

fn records(n: usize) -> Vec<Record> {
    let cast = Cast::new();
    let mut out = Vec::with_capacity(n);
    let mut g = 0;
    while out.len() < n {
        out.extend(sample_game(&cast, &format!("bench {g}")).records);
        g += 1;
    }
    out.truncate(n);
    out
}

fn bench(c: &mut Criterion) {
    let recs = records(4096);
    let msgs: Vec<Vec<u8>> = recs
        .iter()
        .map(|r| signed_message(&r.event_bytes))
        .collect();
    let keys: Vec<[u8; 32]> = recs.iter().map(|r| r.header().unwrap().signer.0).collect();
    let items: Vec<sig::Item<'_>> = (0..recs.len())
        .map(|i| (&keys[i], msgs[i].as_slice(), &recs[i].signature))
        .collect();
    let mut g = c.benchmark_group("signatures_4096");
    g.throughput(Throughput::Elements(items.len() as u64));
    g.sample_size(10);
    g.bench_function("one_by_one_both_cores", |b| {
        b.iter(|| sig::verify_parallel(&items, Method::OneByOne))
    });
    g.bench_function("batch_exact_both_cores", |b| {
        b.iter(|| sig::verify_parallel(&items, Method::Batch))
    });
    g.finish();
    let recs = records(20_000);
    let bytes = archive::write(&recs);
    let mut g = c.benchmark_group("archive_20k");
    g.throughput(Throughput::Elements(recs.len() as u64));
    g.sample_size(10);
    g.bench_function("verify_archive", |b| {
        b.iter(|| {
            let v = archive::verify_archive(&bytes).unwrap();
            assert!(v.report().ok());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
