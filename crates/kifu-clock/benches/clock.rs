//! Events applied per second over a long byo-yomi game.
// criterion_group! and criterion_main! generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use kifu_clock::{Clock, ClockEvent, PauseReason, Player, TimeControl};

/// A long game under 60 min + 5 x 30 s byo-yomi: `moves` presses with varied
/// thinking times (most moves late in the game in byo-yomi), a pause and
/// resume every 50 moves, a clock reading every 100.
fn long_byo_yomi_game(moves: u32) -> (TimeControl, Vec<ClockEvent>) {
    let control = TimeControl::Byoyomi {
        main_ms: 3_600_000,
        periods: 5,
        period_ms: 30_000,
    };
    let mut events = vec![ClockEvent::Started {
        at_ms: 0,
        running: Player::Black,
    }];
    let mut t = 0u64;
    let mut player = Player::Black;
    // A fixed pseudo-random sequence of thinking times between 1 s and 29 s.
    let mut seed = 0x2545_f491_u64;
    for n in 0..moves {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        t += 1_000 + (seed >> 33) % 28_000;
        events.push(ClockEvent::Pressed { at_ms: t, player });
        player = player.opponent();
        if n % 50 == 49 {
            events.push(ClockEvent::Paused {
                at_ms: t + 500,
                reason: PauseReason::StoneRemoval,
            });
            t += 60_000;
            events.push(ClockEvent::Resumed {
                at_ms: t,
                running: None,
            });
        }
        if n % 100 == 99 {
            events.push(ClockEvent::Adjusted {
                at_ms: t,
                player: player.opponent(),
                delta_ms: 1_000,
                reason: "timing error".to_owned(),
            });
        }
    }
    (control, events)
}

fn bench_replay(c: &mut Criterion) {
    let (control, events) = long_byo_yomi_game(10_000);
    let mut group = c.benchmark_group("byo_yomi_game");
    group.throughput(Throughput::Elements(events.len() as u64));
    group.bench_function(format!("project_{}_events", events.len()), |b| {
        b.iter(|| Clock::project(black_box(control), black_box(&events)).expect("valid game"))
    });
    group.bench_function(format!("apply_and_query_{}_events", events.len()), |b| {
        b.iter(|| {
            let mut clock = Clock::new(control).expect("valid control");
            let mut flags = 0u64;
            for event in &events {
                clock.apply(black_box(event)).expect("valid event");
                flags = flags.wrapping_add(clock.flag_at().unwrap_or(0));
            }
            flags
        })
    });
    group.finish();
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
