//! Properties: replaying any prefix equals the incremental state, and the
//! projection never panics on any sequence of validly signed events.

use kifu_game::GameState;
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;
use proptest::prelude::*;

fn keys() -> Vec<Keypair> {
    let mut v: Vec<Keypair> = [1u8, 2, 3, 4, 5]
        .iter()
        .map(|s| Keypair::from_seed([*s; 32]))
        .collect();
    v.push(Keypair::from_seed([11; 32]));
    v.push(Keypair::from_seed([12; 32]));
    v
}

fn genesis(kind: GameKind, ruleset: &str, size: u8, tc: TimeControl, handicap: u8) -> Genesis {
    let cast = Cast::new();
    let mut g = cast.genesis("property");
    g.game = kind;
    g.ruleset = ruleset.into();
    g.board_size = size;
    g.time_control = tc;
    g.handicap = handicap;
    for (i, s) in [11u8, 12].iter().enumerate() {
        g.roster.push(Participant {
            role: Role::Committee,
            name: format!("Member {i}"),
            key: Keypair::from_seed([*s; 32]).public(),
        });
    }
    g
}

/// Signs each body with the first key whose roles allow it; bodies nobody
/// may sign are left out (the ledger would refuse them).
fn chain(g: Genesis, bodies: Vec<(u64, Body)>) -> Vec<Event> {
    let ks = keys();
    let mut c = ChainBuilder::start(&ks[2], g.clone(), 1_000_000);
    let mut events = vec![c.records[0].decode().expect("genesis decodes")];
    for (dt, body) in bodies {
        let seq = c.head.seq + 1;
        let Some(k) = ks
            .iter()
            .find(|k| roles::check(&g.roles_of(&k.public()), &body, seq).is_ok())
        else {
            continue;
        };
        c.at_ms += dt;
        let rec = c.push(k, body).clone();
        events.push(rec.decode().expect("decodes"));
    }
    events
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

fn point() -> impl Strategy<Value = Point> {
    (0u8..21, 0u8..21).prop_map(|(x, y)| Point { x, y })
}

fn small_point() -> impl Strategy<Value = Point> {
    (0u8..5, 0u8..5).prop_map(|(x, y)| Point { x, y })
}

fn result() -> impl Strategy<Value = GameResult> {
    (
        prop_oneof![
            color().prop_map(Outcome::Win),
            Just(Outcome::Draw),
            Just(Outcome::BothLose),
            Just(Outcome::NoResult)
        ],
        prop_oneof![
            Just(ResultBy::Resignation),
            Just(ResultBy::Time),
            Just(ResultBy::Forfeit),
            (-20i32..20).prop_map(|m| ResultBy::Score {
                margin_half_points: m
            }),
        ],
    )
        .prop_map(|(outcome, by)| GameResult { outcome, by })
}

fn sanction() -> impl Strategy<Value = Sanction> {
    (
        prop_oneof![
            color().prop_map(SanctionTarget::Player),
            Just(SanctionTarget::Both)
        ],
        prop_oneof![
            Just(SanctionKind::Advice),
            Just(SanctionKind::Warning),
            Just(SanctionKind::GameForfeit),
            (-100_000i64..100_000).prop_map(|d| SanctionKind::TimeModified { delta_ms: d }),
            Just(SanctionKind::RemovedFromTournament),
            Just(SanctionKind::Disqualification),
        ],
    )
        .prop_map(|(target, kind)| Sanction {
            target,
            kind,
            reason: "r".into(),
        })
}

fn effect() -> impl Strategy<Value = RulingEffect> {
    prop_oneof![
        (0u64..40).prop_map(|seq| RulingEffect::UnwindTo { seq }),
        (color(), -100_000i64..100_000)
            .prop_map(|(player, delta_ms)| RulingEffect::AdjustClock { player, delta_ms }),
        Just(RulingEffect::Resume),
        sanction().prop_map(RulingEffect::Sanction),
        result().prop_map(RulingEffect::SetResult),
    ]
}

fn participant() -> impl Strategy<Value = Participant> {
    (0usize..7).prop_map(|i| Participant {
        role: Role::Committee,
        name: format!("p{i}"),
        key: keys()[i].public(),
    })
}

fn body() -> impl Strategy<Value = Body> {
    let moves = prop_oneof![
        4 => (color(), color(), small_point()).prop_map(|(player, stone, point)| Body::StonePlaced { player, stone, point }),
        1 => (color(), color(), point()).prop_map(|(player, stone, point)| Body::StonePlaced { player, stone, point }),
        2 => (color(), any::<bool>()).prop_map(|(player, pass_stone)| Body::Pass { player, pass_stone }),
        2 => color().prop_map(|player| Body::ClockPressed { player }),
        1 => color().prop_map(|running| Body::ClockStarted { running }),
        1 => prop_oneof![Just(PauseReason::Toilet), Just(PauseReason::Arbitration), Just(PauseReason::Adjournment)]
            .prop_map(|reason| Body::ClockPaused { reason }),
        1 => color().prop_map(|running| Body::ClockResumed { running }),
        1 => (color(), prop_oneof![-100_000i64..100_000, Just(i64::MIN), Just(i64::MAX)]).prop_map(|(player, delta_ms)| Body::ClockAdjusted { player, delta_ms, reason: "x".into() }),
        1 => (0u64..1_000_000, 0u64..1_000_000).prop_map(|(b, w)| Body::ClockReading { black_ms: b, white_ms: w, black_overtime: None, white_overtime: None, read_by: "r".into() }),
        1 => color().prop_map(|player| Body::Resigned { player, manner: Resignation::Spoken }),
    ];
    let facts = prop_oneof![
        (0u64..40).prop_map(|move_seq| Body::IllegalMoveNoticed {
            move_seq,
            statement: "s".into()
        }),
        (color(), 0u64..40).prop_map(|(player, move_seq)| Body::RewindAgreed { player, move_seq }),
        (color(), 0u64..40)
            .prop_map(|(player, move_seq)| Body::RewindDeclined { player, move_seq }),
        (
            0usize..8,
            proptest::option::of(0u64..40),
            proptest::collection::vec(small_point(), 0..3),
            any::<bool>(),
            proptest::collection::vec((color(), small_point()), 0..3)
        )
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
                    fix: BoardFix {
                        remove,
                        as_prisoners,
                        place,
                    },
                    statement: "s".into(),
                }
            }),
        (color(), proptest::collection::vec(small_point(), 0..3))
            .prop_map(|(player, dead)| Body::DeadStonesMarked { player, dead }),
        proptest::collection::vec(small_point(), 0..2).prop_map(|dead| Body::StatusAgreed { dead }),
        color().prop_map(|player| Body::StatusDisputed {
            player,
            statement: "s".into()
        }),
        color().prop_map(|player| Body::DisputeRaised {
            player,
            matter: "m".into()
        }),
        color().prop_map(|player| Body::RefereeCalled { player }),
        (any::<bool>(), proptest::collection::vec(effect(), 0..3)).prop_map(|(j, effects)| {
            Body::RefereeRuling(Ruling {
                kind: if j {
                    RulingKind::Judgement
                } else {
                    RulingKind::Clarification
                },
                decision: "d".into(),
                reasons: "r".into(),
                rules_cited: vec![],
                effects,
            })
        }),
        sanction().prop_map(Body::SanctionImposed),
        color().prop_map(|player| Body::ProtestDeclared {
            player,
            statement: "s".into()
        }),
        result().prop_map(Body::ResultDeclared),
        (result(), any::<bool>()).prop_map(|(result, under_protest)| Body::ResultSheetSigned {
            result,
            under_protest
        }),
    ];
    let more = prop_oneof![
        (color(), 0u64..40).prop_map(|(player, ruling_seq)| Body::AppealLodged {
            player,
            ruling_seq,
            grounds: "g".into()
        }),
        (
            proptest::collection::vec(participant(), 0..4),
            proptest::collection::vec(participant(), 0..3),
            0u32..3
        )
            .prop_map(
                |(members, reserves, formed_before_round)| Body::CommitteeFormed {
                    members,
                    reserves,
                    formed_before_round
                }
            ),
        (0usize..7).prop_map(|i| Body::MemberRecused {
            member: keys()[i].public(),
            reason: "r".into()
        }),
        participant().prop_map(|member| Body::MemberCoopted { member }),
        (
            0u64..40,
            prop_oneof![
                Just(CommitteeVerdict::Rejected),
                Just(CommitteeVerdict::Upheld),
                proptest::collection::vec(effect(), 0..2).prop_map(CommitteeVerdict::Replaced)
            ]
        )
            .prop_map(|(appeal_seq, verdict)| Body::CommitteeDecision {
                appeal_seq,
                verdict,
                reasons: "r".into()
            }),
        color().prop_map(|player| Body::FiveDeclared { player }),
        (color(), proptest::option::of(point()))
            .prop_map(|(player, point)| Body::ForbiddenMovePointedOut { player, point }),
        color().prop_map(|player| Body::DrawOffered { player }),
        color().prop_map(|player| Body::DrawAccepted { player }),
        (color(), any::<bool>()).prop_map(|(player, swap)| Body::OpeningSwap { player, swap }),
        (color(), 0u8..12).prop_map(|(player, count)| Body::FifthCountDeclared { player, count }),
        (color(), proptest::collection::vec(point(), 0..4))
            .prop_map(|(player, points)| Body::FifthsOffered { player, points }),
        (color(), point()).prop_map(|(player, point)| Body::FifthChosen { player, point }),
        color().prop_map(|player| Body::PlayerArrived { player }),
        color().prop_map(|player| Body::ProgramTerminated {
            player,
            statement: "s".into()
        }),
        (color(), 0u64..2_000_000)
            .prop_map(|(player, used_ms)| Body::ServerTimeUsed { player, used_ms }),
    ];
    prop_oneof![6 => moves, 3 => facts, 2 => more]
}

fn setting() -> impl Strategy<Value = Genesis> {
    let tc = prop_oneof![
        Just(TimeControl::Untimed),
        Just(TimeControl::SuddenDeath { main_ms: 600_000 }),
        Just(TimeControl::Fischer {
            main_ms: 300_000,
            increment_ms: 10_000,
            max_ms: None
        }),
        Just(TimeControl::Byoyomi {
            main_ms: 60_000,
            periods: 3,
            period_ms: 10_000
        }),
        Just(TimeControl::Canadian {
            main_ms: 60_000,
            stones: 5,
            block_ms: 60_000
        }),
        Just(TimeControl::Canadian {
            main_ms: 60_000,
            stones: 0,
            block_ms: 60_000
        }),
    ];
    let go = (
        prop_oneof![
            Just("lgc-2023"),
            Just("london-open"),
            Just("bga-aga"),
            Just("uec-cup"),
            Just("no-such")
        ],
        prop_oneof![Just(5u8), Just(9), Just(0), Just(1), Just(25), Just(40)],
        0u8..10,
    );
    (any::<bool>(), go, tc).prop_map(|(renju, (rs, size, h), tc)| {
        if renju {
            genesis(GameKind::Renju, "rif-renju", 15, tc, 0)
        } else {
            genesis(GameKind::Go, rs, size, tc, h)
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_validly_signed_sequence_projects_without_panic_and_replay_equals_incremental(
        g in setting(),
        bodies in proptest::collection::vec((prop_oneof![8 => 0u64..200_000, 1 => Just(1u64 << 40)], body()), 0..40),
    ) {
        let events = chain(g, bodies);
        let mut inc = GameState::new();
        for (i, e) in events.iter().enumerate() {
            inc.apply(e);
            prop_assert_eq!(&inc, &GameState::replay(&events[..=i]));
        }
        // And the state serializes (what `kifu replay --json` prints).
        prop_assert!(serde_json::to_string(&inc).is_ok());
    }

    #[test]
    fn random_legal_go_games_replay_equals_incremental_at_every_prefix(
        picks in proptest::collection::vec((0u8..9, 0u8..9, 1u64..30_000), 1..80),
        ruleset in prop_oneof![Just("lgc-2023"), Just("london-open"), Just("bga-aga"), Just("uec-cup")],
    ) {
        let g = genesis(GameKind::Go, ruleset, 9, TimeControl::Fischer { main_ms: 3_600_000, increment_ms: 10_000, max_ms: None }, 0);
        let mut engine = kifu_go::Game::new(kifu_go::Ruleset::by_name(ruleset).unwrap(), &kifu_go::Setup::even(9)).unwrap();
        let mut bodies = vec![(0, Body::ClockStarted { running: Color::Black })];
        for (x, y, dt) in picks {
            if engine.is_over() || !matches!(engine.ending().phase(), kifu_go::EndingPhase::Play) {
                break;
            }
            let c = engine.to_move();
            let lc = if c == kifu_go::Color::Black { Color::Black } else { Color::White };
            let legal = engine.check(c, kifu_go::Move::Play(kifu_go::Point::new(x, y))).is_legal();
            if legal {
                engine.play(c, kifu_go::Point::new(x, y));
                bodies.push((dt, Body::StonePlaced { player: lc, stone: lc, point: Point { x, y } }));
            } else {
                engine.pass(c);
                bodies.push((dt, Body::Pass { player: lc, pass_stone: engine.ruleset().pass_stones }));
            }
            bodies.push((100, Body::ClockPressed { player: lc }));
        }
        let events = chain(g, bodies);
        let mut inc = GameState::new();
        for (i, e) in events.iter().enumerate() {
            inc.apply(e);
            prop_assert_eq!(&inc, &GameState::replay(&events[..=i]));
        }
        if let kifu_game::BoardState::Go(b) = &inc.board {
            prop_assert_eq!(b.game().board(), engine.board());
            prop_assert!(b.verdicts.iter().all(|(_, v)| v.is_legal()));
        } else {
            prop_assert!(false, "a Go board");
        }
    }
}
