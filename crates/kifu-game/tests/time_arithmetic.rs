//! Times and counts read from records are any value their bytes can carry:
//! a fuzz of the projection's time arithmetic over arbitrary `u64` times,
//! time controls at the edges of their types, clock adjustments of any
//! `i64`, readings and server times of any `u64`. Tests build with
//! overflow checks, so any wrapping arithmetic panics here.

use kifu_game::GameState;
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;
use proptest::prelude::*;

fn edge_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        Just(0u64),
        Just(1),
        Just(u64::MAX),
        Just(u64::MAX - 1),
        (u64::MAX - 100_000)..=u64::MAX,
        0u64..1_000_000,
    ]
}

fn edge_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        Just(i64::MIN),
        Just(i64::MAX),
        -1_000_000i64..1_000_000
    ]
}

fn time_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        edge_u64().prop_map(|main_ms| TimeControl::SuddenDeath { main_ms }),
        (edge_u64(), edge_u64(), proptest::option::of(edge_u64())).prop_map(
            |(main_ms, increment_ms, max_ms)| TimeControl::Fischer {
                main_ms,
                increment_ms,
                max_ms
            }
        ),
        edge_u64().prop_map(|per_move_ms| TimeControl::Simple { per_move_ms }),
        (edge_u64(), any::<u32>(), edge_u64()).prop_map(|(main_ms, periods, period_ms)| {
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            }
        }),
        (edge_u64(), any::<u32>(), edge_u64()).prop_map(|(main_ms, stones, block_ms)| {
            TimeControl::Canadian {
                main_ms,
                stones,
                block_ms,
            }
        }),
    ]
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

fn body() -> impl Strategy<Value = Body> {
    prop_oneof![
        color().prop_map(|running| Body::ClockStarted { running }),
        color().prop_map(|player| Body::ClockPressed { player }),
        (color(), 0u8..9, 0u8..9).prop_map(|(c, x, y)| Body::StonePlaced {
            player: c,
            stone: c,
            point: Point { x, y }
        }),
        Just(Body::ClockPaused {
            reason: PauseReason::Toilet
        }),
        color().prop_map(|running| Body::ClockResumed { running }),
        (color(), edge_i64()).prop_map(|(player, delta_ms)| Body::ClockAdjusted {
            player,
            delta_ms,
            reason: "r".into()
        }),
        (
            edge_u64(),
            edge_u64(),
            proptest::option::of(any::<u32>()),
            proptest::option::of(any::<u32>())
        )
            .prop_map(|(b, w, bo, wo)| Body::ClockReading {
                black_ms: b,
                white_ms: w,
                black_overtime: bo,
                white_overtime: wo,
                read_by: "r".into()
            }),
        (color(), edge_u64())
            .prop_map(|(player, used_ms)| Body::ServerTimeUsed { player, used_ms }),
        (color(), edge_u64()).prop_map(|(player, move_seq)| Body::IllegalMoveNoticed {
            move_seq,
            statement: format!("{player:?}")
        }),
        (color(), edge_u64())
            .prop_map(|(player, move_seq)| Body::RewindAgreed { player, move_seq }),
        (color(), edge_u64()).prop_map(|(player, ruling_seq)| Body::AppealLodged {
            player,
            ruling_seq,
            grounds: "g".into()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any times, any time control, any adjustment: the projection and its
    /// clocks answer without a panic, and replaying equals applying.
    #[test]
    fn the_projection_takes_any_time_a_record_can_carry(
        tc in time_control(),
        start in edge_u64(),
        steps in proptest::collection::vec((edge_u64(), body()), 0..30),
    ) {
        let cast = Cast::new();
        let mut g = cast.genesis("times");
        g.time_control = tc;
        let mut c = ChainBuilder::start(&cast.referee, g.clone(), start);
        let mut events = vec![c.records[0].decode().expect("decodes")];
        let signers = [&cast.black, &cast.white, &cast.referee, &cast.recorder, &cast.director];
        for (at_ms, body) in steps {
            let seq = c.head.seq + 1;
            let Some(k) = signers
                .iter()
                .find(|k| roles::check(&g.roles_of(&k.public()), &body, seq).is_ok())
            else {
                continue;
            };
            let rec = Event::next(c.game, c.head, at_ms, k.public(), body)
                .sign(k)
                .expect("signs");
            c.push_record(rec.clone());
            events.push(rec.decode().expect("decodes"));
        }
        let mut inc = GameState::new();
        for e in &events {
            inc.apply(e);
        }
        prop_assert_eq!(&inc, &GameState::replay(&events));
        prop_assert!(serde_json::to_string(&inc).is_ok());
        // The ledger's verification of the same chain, too.
        let _ = verify_records(&c.records);
    }
}
