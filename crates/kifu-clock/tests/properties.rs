//! Invariants of the projection, over random time controls and event lists.

use kifu_clock::{Clock, ClockEvent, Effect, Overtime, PauseReason, Player, TimeControl};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    /// The player to move presses after `dt`.
    Press(u64),
    /// Pause (if running) or resume (if paused) after `dt`; on resume, `true`
    /// hands the turn to the other player.
    Toggle(u64, bool),
    /// Referee adjustment after `dt`, for Black if `true`.
    Adjust(u64, bool, i64),
}

fn time_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::Untimed),
        (0..200_000u64).prop_map(|main_ms| TimeControl::SuddenDeath { main_ms }),
        (
            0..200_000u64,
            0..30_000u64,
            proptest::option::of(0..300_000u64)
        )
            .prop_map(|(main_ms, increment_ms, max_ms)| TimeControl::Fischer {
                main_ms,
                increment_ms,
                max_ms
            }),
        (0..60_000u64).prop_map(|per_move_ms| TimeControl::Simple { per_move_ms }),
        (0..100_000u64, 0..5u32, 0..30_000u64).prop_map(|(main_ms, periods, period_ms)| {
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            }
        }),
        (0..100_000u64, 1..5u32, 0..60_000u64).prop_map(|(main_ms, stones, block_ms)| {
            TimeControl::Canadian {
                main_ms,
                stones,
                block_ms,
            }
        }),
    ]
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(
        prop_oneof![
            5 => (0..40_000u64).prop_map(Op::Press),
            1 => (0..40_000u64, any::<bool>()).prop_map(|(dt, h)| Op::Toggle(dt, h)),
            1 => (0..40_000u64, any::<bool>(), -30_000i64..30_000)
                .prop_map(|(dt, b, d)| Op::Adjust(dt, b, d)),
        ],
        0..60,
    )
}

/// Turns ops into events the clock accepts, starting at 0 with Black.
fn events(control: TimeControl, ops: &[Op]) -> Vec<ClockEvent> {
    let mut clock = Clock::new(control).unwrap();
    let mut out = vec![ClockEvent::Started {
        at_ms: 0,
        running: Player::Black,
    }];
    clock.apply(&out[0]).unwrap();
    let mut t = 0u64;
    for op in ops {
        let event = match *op {
            Op::Press(dt) => {
                t += dt;
                ClockEvent::Pressed {
                    at_ms: t,
                    player: clock.to_move(),
                }
            }
            Op::Toggle(dt, handover) => {
                t += dt;
                if clock.is_running() {
                    ClockEvent::Paused {
                        at_ms: t,
                        reason: PauseReason::Arbitration,
                    }
                } else {
                    let running = handover.then(|| clock.to_move().opponent());
                    ClockEvent::Resumed { at_ms: t, running }
                }
            }
            Op::Adjust(dt, black, delta) => {
                t += dt;
                let player = if black { Player::Black } else { Player::White };
                let left = clock.face_at(t).unwrap()[player.index()].main_ms;
                let floor = -i64::try_from(left).unwrap();
                ClockEvent::Adjusted {
                    at_ms: t,
                    player,
                    delta_ms: delta.max(floor),
                    reason: String::new(),
                }
            }
        };
        clock.apply(&event).expect("generated events are valid");
        out.push(event);
    }
    out
}

/// Time a player still has at `t`: his budget less what he used this turn.
fn remaining(clock: &Clock, player: Player, t: u64) -> u64 {
    let used = if player == clock.to_move() {
        clock.turn_used_at(t)
    } else {
        0
    };
    clock.player(player).budget_ms().saturating_sub(used)
}

/// The first instant at or after `from` when the running clock shows nothing
/// left, found by binary search over what the clock shows.
fn first_exhausted(clock: &Clock, from: u64, limit: u64) -> Option<u64> {
    let mover = clock.to_move().index();
    let exhausted = |t: u64| clock.face_at(t).unwrap()[mover].exhausted();
    if !exhausted(limit) {
        return None;
    }
    let (mut lo, mut hi) = (from, limit);
    if exhausted(lo) {
        return Some(lo);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if exhausted(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A player's remaining time never grows, except by a Fischer increment,
    /// a byo-yomi period or Canadian block reset, the fresh time of a simple
    /// move, or a referee's adjustment.
    #[test]
    fn remaining_time_grows_only_by_increment_reset_or_adjustment(control in time_control(), ops in ops()) {
        let events = events(control, &ops);
        let mut clock = Clock::new(control).unwrap();
        for event in &events {
            let t = event.at_ms();
            let before = clock.clone();
            let effect = clock.apply(event).unwrap();
            for player in [Player::Black, Player::White] {
                let was = remaining(&before, player, t);
                let now = remaining(&clock, player, t);
                let allowance = match (event, &control) {
                    (ClockEvent::Adjusted { player: p, delta_ms, .. }, _) if *p == player => {
                        delta_ms.max(&0).unsigned_abs()
                    }
                    (ClockEvent::Pressed { player: p, .. }, _) if *p == player => match control {
                        TimeControl::Fischer { increment_ms, .. } => increment_ms,
                        TimeControl::Simple { per_move_ms } => per_move_ms,
                        TimeControl::Byoyomi { period_ms, .. } => period_ms,
                        TimeControl::Canadian { block_ms, stones, .. } => {
                            let reset = matches!(
                                clock.player(player).overtime,
                                Overtime::Canadian { moves_left, .. } if moves_left == stones
                            );
                            if reset { block_ms } else { 0 }
                        }
                        _ => 0,
                    },
                    (ClockEvent::Resumed { running: Some(_), .. }, _) if before.to_move() == player => {
                        match control {
                            TimeControl::Simple { per_move_ms } => per_move_ms,
                            TimeControl::Byoyomi { period_ms, .. } => period_ms,
                            _ => 0,
                        }
                    }
                    _ => 0,
                };
                prop_assert!(
                    now <= was.saturating_add(allowance),
                    "{player} grew from {was} to {now} (allowed {allowance}) on {event:?} ({effect:?})"
                );
            }
        }
    }

    /// The time charged to both players equals the time the clocks ran,
    /// pauses excluded.
    #[test]
    fn time_charged_equals_time_the_clocks_ran(control in time_control(), ops in ops()) {
        let events = events(control, &ops);
        let clock = Clock::project(control, &events).unwrap();
        let mut ran = 0u64;
        let mut running_since = None;
        for event in &events {
            match event {
                ClockEvent::Started { at_ms, .. } => running_since = Some(*at_ms),
                ClockEvent::Pressed { at_ms, .. } | ClockEvent::Resumed { at_ms, .. } => {
                    if let Some(since) = running_since {
                        ran += at_ms - since;
                    }
                    running_since = Some(*at_ms);
                }
                ClockEvent::Paused { at_ms, .. } => {
                    if let Some(since) = running_since.take() {
                        ran += at_ms - since;
                    }
                }
                _ => {}
            }
        }
        let end = clock.last_event_ms().unwrap();
        if let Some(since) = running_since {
            ran += end - since;
        }
        let charged = clock.player(Player::Black).used_ms
            + clock.player(Player::White).used_ms
            + clock.turn_used_at(end);
        prop_assert_eq!(charged, ran);
    }

    /// The flag instant computed in advance is the first instant at which the
    /// running clock shows nothing left, after every event.
    #[test]
    fn flag_instant_in_advance_equals_the_instant_found_by_stepping(control in time_control(), ops in ops()) {
        let events = events(control, &ops);
        let mut clock = Clock::new(control).unwrap();
        for event in &events {
            clock.apply(event).unwrap();
            let now = event.at_ms();
            let already_flagged = clock.flags()[clock.to_move().index()].is_some();
            match clock.flag_at() {
                Some(flag) if !already_flagged => {
                    prop_assert!(flag >= now, "flag {flag} before the event at {now}");
                    prop_assert_eq!(first_exhausted(&clock, now, flag + 1), Some(flag));
                }
                Some(_) => {}
                None => {
                    // Paused, not started or untimed: the face never runs out
                    // from here on unless it already has.
                    let mover = clock.to_move().index();
                    let at_start = clock.face_at(now).unwrap()[mover];
                    let later = clock.face_at(now + 10_000_000).unwrap()[mover];
                    prop_assert_eq!(at_start, later);
                }
            }
        }
    }

    /// Stepping millisecond by millisecond agrees on small clocks too.
    #[test]
    fn flag_instant_equals_millisecond_stepping(main in 0..3_000u64, periods in 0..3u32, period in 0..1_000u64, first in 0..2_000u64) {
        let control = TimeControl::Byoyomi { main_ms: main, periods, period_ms: period };
        let clock = Clock::project(control, &[
            ClockEvent::Started { at_ms: 0, running: Player::Black },
            ClockEvent::Pressed { at_ms: first, player: Player::Black },
        ]).unwrap();
        let flag = clock.flag_at().unwrap();
        let mut t = first;
        while !clock.face_at(t).unwrap()[Player::White.index()].exhausted() {
            t += 1;
        }
        prop_assert_eq!(t, flag);
    }

    /// Replaying the same record gives the same clock, and every press is
    /// recorded as a move.
    #[test]
    fn replay_is_deterministic(control in time_control(), ops in ops()) {
        let events = events(control, &ops);
        let a = Clock::project(control, &events).unwrap();
        let b = Clock::project(control, &events).unwrap();
        prop_assert_eq!(&a, &b);
        let mut c = Clock::new(control).unwrap();
        for event in &events {
            let effect = c.apply(event).unwrap();
            if matches!(event, ClockEvent::Pressed { .. }) {
                prop_assert!(matches!(effect, Effect::Moved(_)));
            }
        }
    }
}
