#![allow(missing_docs)]
//! Standings of a large McMahon tournament: 500 players, 7 rounds, every
//! criterion shown, DC in the ordering.

use criterion::{black_box, criterion_group, criterion_main, Criterion as Bench};
use kifu_standings::{
    breakdown_all, standings, Criterion, Game, GameResult, Player, Rank, Settings, Tournament,
};

fn big(players: usize, rounds: u32) -> Tournament {
    let mut t = Tournament::new(Settings::mcmahon(rounds));
    for i in 0..players {
        let rank = Rank::from_value(5 - (i as i32 * 30 / players as i32));
        t.players
            .push(Player::new(&format!("P{i}"), &format!("S{i}"), "G", rank));
    }
    let mut seed = 0x2545_f491_u64;
    for round in 1..=rounds {
        // A fixed pseudo-random pairing per round.
        let mut order: Vec<usize> = (0..players).collect();
        for i in (1..order.len()).rev() {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            order.swap(i, (seed >> 33) as usize % (i + 1));
        }
        for (b, pair) in order.chunks(2).enumerate() {
            if let [w, k] = pair {
                t.games.push(Game {
                    round,
                    board: b as u32 + 1,
                    white: format!("P{w}"),
                    black: format!("P{k}"),
                    handicap: 0,
                    result: if (seed >> 40).is_multiple_of(2) {
                        GameResult::WhiteWins
                    } else {
                        GameResult::BlackWins
                    },
                    by_default: false,
                    colours_known: true,
                });
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            }
        }
    }
    t
}

fn bench(c: &mut Bench) {
    let t = big(500, 7);
    let order = [
        Criterion::Mms,
        Criterion::Sosm,
        Criterion::Sososm,
        Criterion::Dc,
    ];
    c.bench_function("standings 500 players 7 rounds, all criteria", |b| {
        b.iter(|| standings(black_box(&t), 7, &order, &Criterion::ALL).expect("standings"))
    });
    // What the hall's standings page asks for: every player's values taken
    // apart, on the tournament's criteria.
    c.bench_function("breakdown of every player, 500 players 7 rounds", |b| {
        b.iter(|| breakdown_all(black_box(&t), 7, &order).expect("breakdown"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
