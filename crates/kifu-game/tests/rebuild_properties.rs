//! Property: a Go board rebuilt from the operations that stand is the board
//! it was. A referee's judgement that unwinds to the last event takes
//! nothing back, so after any sequence of moves, notices, irregularities,
//! agreements, modified pairings and unwindings (free handicap placement
//! included) it leaves the board, the count still to place, the verdicts and
//! the frozen count exactly as they were. And in a game of stones and
//! passes alone, unwinding to an event gives the board the game had there.

use kifu_game::{BoardState, GameState};
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;
use proptest::prelude::*;

fn keys() -> Vec<Keypair> {
    [1u8, 2, 3, 4, 5]
        .iter()
        .map(|s| Keypair::from_seed([*s; 32]))
        .collect()
}

fn genesis(ruleset: &str, handicap: u8, free: bool) -> Genesis {
    let mut g = Cast::new().genesis("rebuild property");
    g.ruleset = ruleset.into();
    g.board_size = 9;
    g.handicap = handicap;
    g.time_control = TimeControl::Untimed;
    if free {
        g.overrides = vec![("handicap_placement".into(), "free".into())];
    }
    g
}

/// Signs each body with the first key whose roles allow it.
fn chain(g: Genesis, bodies: Vec<Body>) -> Vec<Event> {
    let ks = keys();
    let mut c = ChainBuilder::start(&ks[2], g.clone(), 1_000_000);
    let mut events = vec![c.records[0].decode().expect("genesis decodes")];
    for body in bodies {
        let seq = c.head.seq + 1;
        let Some(k) = ks
            .iter()
            .find(|k| roles::check(&g.roles_of(&k.public()), &body, seq).is_ok())
        else {
            continue;
        };
        c.at_ms += 1_000;
        let rec = c.push(k, body).clone();
        events.push(rec.decode().expect("decodes"));
    }
    events
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

fn point() -> impl Strategy<Value = Point> {
    (0u8..5, 0u8..5).prop_map(|(x, y)| Point { x, y })
}

fn unwind_to(seq: u64) -> Body {
    Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "d".into(),
        reasons: "r".into(),
        rules_cited: vec![],
        effects: vec![RulingEffect::UnwindTo { seq }],
    })
}

fn body() -> impl Strategy<Value = Body> {
    prop_oneof![
        8 => (color(), color(), point()).prop_map(|(player, stone, point)| Body::StonePlaced { player, stone, point }),
        2 => color().prop_map(|player| Body::Pass { player, pass_stone: true }),
        1 => (0u64..30).prop_map(|move_seq| Body::IllegalMoveNoticed { move_seq, statement: "s".into() }),
        1 => (color(), 0u64..30).prop_map(|(player, move_seq)| Body::RewindAgreed { player, move_seq }),
        1 => (0usize..8, proptest::option::of(0u64..30), proptest::collection::vec(point(), 0..2), any::<bool>(), proptest::collection::vec((color(), point()), 0..2))
            .prop_map(|(k, about_seq, remove, as_prisoners, place)| {
                let kinds = [
                    IrregularityKind::CapturedStonesNotRemoved,
                    IrregularityKind::LiveStonesRemoved,
                    IrregularityKind::HandicapStonesMisplaced,
                    IrregularityKind::StoneOnOccupiedPoint,
                    IrregularityKind::AmbiguousPlacement,
                    IrregularityKind::WrongColour,
                    IrregularityKind::ColourOrHandicapError,
                    IrregularityKind::PositionDisturbed,
                ];
                Body::IrregularityRecorded {
                    kind: kinds[k],
                    about_seq,
                    fix: BoardFix { remove, as_prisoners, place },
                    statement: "s".into(),
                }
            }),
        1 => proptest::collection::vec(point(), 0..2).prop_map(|dead| Body::StatusAgreed { dead }),
        1 => color().prop_map(|player| Body::StatusDisputed { player, statement: "s".into() }),
        1 => (any::<bool>(), proptest::option::of(0u8..5), proptest::option::of(-3i32..20))
            .prop_map(|(swap_colours, handicap, komi_half_points)| Body::PairingModified {
                swap_colours, handicap, komi_half_points, reason: "r".into(),
            }),
        1 => (0u64..30).prop_map(unwind_to),
    ]
}

fn board(s: &GameState) -> kifu_game::go::GoBoard {
    match &s.board {
        BoardState::Go(b) => (**b).clone(),
        _ => panic!("a Go board"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_rebuild_that_takes_nothing_back_changes_nothing(
        ruleset in prop_oneof![Just("lgc-2023"), Just("london-open"), Just("bga-aga"), Just("uec-cup")],
        handicap in 0u8..5,
        free in any::<bool>(),
        mut bodies in proptest::collection::vec(body(), 0..30),
    ) {
        let g = genesis(ruleset, handicap, free);
        let events = chain(g.clone(), bodies.clone());
        let last = events.last().map(|e| e.seq).unwrap_or(0);
        // The same chain (signing is deterministic), then the judgement.
        bodies.push(unwind_to(last));
        let with_ruling = chain(g, bodies);
        prop_assert_eq!(&with_ruling[..events.len()], &events[..]);
        prop_assert_eq!(with_ruling.len(), events.len() + 1);
        let before = GameState::replay(&events);
        let after = GameState::replay(&with_ruling);
        prop_assert!(after.rulings.last().is_some_and(|r| r.applied));
        prop_assert_eq!(board(&before), board(&after));
    }

    #[test]
    fn unwinding_to_an_event_gives_the_board_the_game_had_there(
        ruleset in prop_oneof![Just("lgc-2023"), Just("london-open"), Just("bga-aga"), Just("uec-cup")],
        handicap in 0u8..5,
        free in any::<bool>(),
        mut bodies in proptest::collection::vec(prop_oneof![
            6 => (color(), color(), point()).prop_map(|(player, stone, point)| Body::StonePlaced { player, stone, point }),
            1 => color().prop_map(|player| Body::Pass { player, pass_stone: true }),
        ], 0..30),
        pick in any::<proptest::sample::Index>(),
    ) {
        let g = genesis(ruleset, handicap, free);
        let events = chain(g.clone(), bodies.clone());
        let to = events[pick.index(events.len())].seq;
        bodies.push(unwind_to(to));
        let with_ruling = chain(g, bodies);
        let there = GameState::at(&events, to);
        let after = GameState::replay(&with_ruling);
        prop_assert!(after.rulings.last().is_some_and(|r| r.applied));
        prop_assert_eq!(board(&there), board(&after));
    }
}
