#![allow(missing_docs)]
//! Verifying a tournament chain of 200 players and 7 rounds (3,001 events):
//! the whole-chain verification (`verify_tournament_records`), in seq order
//! and shuffled.
//!
//! `cargo bench -p kifu-tournament --bench verify`

use criterion::{criterion_group, criterion_main, Criterion};
use kifu_ledger::{BoardResult, Body, Keypair, Pairing, Participant, Record, Registration, Role};
use kifu_tournament::{mcmahon_genesis, verify_tournament_records, Chain};

const PLAYERS: u32 = 200;
const ROUNDS: u32 = 7;

fn tournament() -> Chain {
    let director = Keypair::from_seed([0x51; 32]);
    let officials = vec![Participant {
        role: Role::Director,
        name: "Director".into(),
        key: director.public(),
    }];
    let genesis = mcmahon_genesis("Bench Open", "bench", ROUNDS, officials);
    let mut c = Chain::create(&director, 0, genesis).expect("genesis");
    let mut at = 1;
    let mut add = |c: &mut Chain, body: Body| {
        at += 1;
        c.append(&director, at, body).expect("a fact");
    };
    for i in 0..PLAYERS {
        add(
            &mut c,
            Body::PlayerRegistered(Registration {
                surname: format!("Player {i}"),
                rank: format!("{}k", 1 + i % 20),
                ..kifu_ledger::testkit::registration(&format!("P{i}"))
            }),
        );
    }
    for round in 1..=ROUNDS {
        for board in 1..=PLAYERS / 2 {
            let (w, b) = ((board - 1) * 2, (board - 1) * 2 + 1);
            add(
                &mut c,
                Body::Paired(Pairing {
                    round,
                    board,
                    white: format!("P{}", (w + round) % PLAYERS),
                    black: format!("P{}", (b + round) % PLAYERS),
                    handicap: 0,
                    game: None,
                }),
            );
            add(
                &mut c,
                Body::BoardResultEntered {
                    round,
                    board,
                    result: BoardResult::WhiteWins,
                    by_default: false,
                    reason: "result sheet".into(),
                },
            );
        }
    }
    c
}

fn bench(cr: &mut Criterion) {
    let chain = tournament();
    let records = chain.records.clone();
    let mut shuffled: Vec<Record> = records.clone();
    // A fixed permutation: every seventh record first, then the rest reversed.
    shuffled.sort_by_key(|r| {
        let h = r.hash();
        (h[0] % 7 != 0, std::cmp::Reverse(h))
    });
    let mut g = cr.benchmark_group("tournament_verify_3001_events");
    g.sample_size(10);
    g.bench_function("whole_chain_in_seq_order", |b| {
        b.iter(|| {
            let r = verify_tournament_records(&records);
            assert!(r.ok());
        })
    });
    g.bench_function("whole_chain_shuffled", |b| {
        b.iter(|| {
            let r = verify_tournament_records(&shuffled);
            assert!(r.ok());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
