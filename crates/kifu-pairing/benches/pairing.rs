#![allow(missing_docs)]
//! Time to draw a round of 120 and of 700 players (McMahon, round 4, three
//! rounds already played): `cargo bench -p kifu-pairing`.

use criterion::{criterion_group, criterion_main, Criterion};
use kifu_pairing::generate::{play, tournament, Rng, Shape};
use kifu_pairing::{pair, PairingSettings, System};

fn after_three_rounds(players: usize) -> kifu_standings::Tournament {
    let mut rng = Rng::new(players as u64);
    let mut t = tournament(&Shape::new(players, 5, System::McMahon), &mut rng);
    let settings = PairingSettings::mcmahon();
    for round in 1..=3 {
        let draw = pair(&t, round, &settings).expect("a generated tournament pairs");
        play(&mut t, &draw, &mut rng);
    }
    t
}

fn bench(c: &mut Criterion) {
    let settings = PairingSettings::mcmahon();
    let mut group = c.benchmark_group("pair round 4");
    group.sample_size(10);
    for players in [120, 700] {
        let t = after_three_rounds(players);
        group.bench_function(format!("{players} players"), |b| {
            b.iter(|| pair(&t, 4, &settings).expect("pairs"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
