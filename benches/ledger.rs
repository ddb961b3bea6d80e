#![allow(missing_docs)]
//! Verification speed: the signature rule one by one and batched (both give
//! the same verdict), and whole-archive verification.
//!
//! `cargo bench -p kifu-ledger --bench ledger`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu_ledger::sig::{self, Method};
use kifu_ledger::testkit::{sample_game, Cast, ChainBuilder};
use kifu_ledger::{
    archive, event::signed_message, Body, Color, Event, Keypair, Point, Record, Standing,
};

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

/// The sample game with both players' keys replaced after its first move
/// pair, played on to about 330 events (decoded).
fn keyed_chain() -> Vec<Event> {
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("bench keys"), 0);
    let white_new = Keypair::from_seed([11; 32]);
    let mut keys = [&cast.black, &cast.white];
    let mut i = 0u32;
    while c.records.len() < 330 {
        if i == 2 {
            for (old, new) in [(&cast.black, &cast.black_new), (&cast.white, &white_new)] {
                c.push(
                    &cast.referee,
                    Body::KeyReplaced {
                        participant: old.public(),
                        new_key: new.public(),
                        reason: "bench".into(),
                    },
                );
            }
            keys = [&cast.black_new, &white_new];
        }
        let color = if i.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let k = keys[(i % 2) as usize];
        c.push(
            k,
            Body::StonePlaced {
                player: color,
                stone: color,
                point: Point {
                    x: (i % 19) as u8,
                    y: (i / 19 % 19) as u8,
                },
            },
        );
        c.push(k, Body::ClockPressed { player: color });
        i += 1;
    }
    c.records.iter().map(|r| r.decode().unwrap()).collect()
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
    // Who may sign what: the standing's check and apply alone (no
    // signatures), over a chain whose key windows are in force.
    let events = keyed_chain();
    let mut g = c.benchmark_group("standing");
    g.throughput(Throughput::Elements(events.len() as u64 - 1));
    g.bench_function("check_and_apply_with_key_windows", |b| {
        b.iter(|| {
            let Body::GameCreated(genesis) = &events[0].body else {
                unreachable!("a genesis first")
            };
            let mut s = Standing::new(genesis, events[0].at_ms);
            for e in &events[1..] {
                s.check(e).unwrap();
                s.apply(e);
            }
            s
        })
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
