//! Checkpoint planning, a board's game drafted, and the demonstration
//! tournament, over games held in memory (`checkpoints::Games`): the board
//! a game is checkpointed on, its head and its result by seat, which
//! checkpoints are due, and the refusals in words.

mod common;

use common::Held;
use kifu_ledger::testkit::{finished_game, moves_game, Cast};
use kifu_ledger::{Body, Color, Keypair, Outcome, Participant, Role};
use kifu_tournament::checkpoints::{self, CheckpointError};
use kifu_tournament::entry::pairing;
use kifu_tournament::games::{board_genesis, board_size, GameDraftError};
use kifu_tournament::{mcmahon_genesis, Chain};

fn director() -> Keypair {
    Keypair::from_seed([0x41; 32])
}

fn reg(id: &str, key: Option<&Keypair>) -> Body {
    common::registered(id, key.map(Keypair::public))
}

/// "Sample Open" (the short name the test kit's games name), W and B
/// registered with the cast's keys, round 1 board 1 paired W–B; the cast's
/// referee, who creates the test kit's games, is its referee.
fn sample_open(cast: &Cast) -> Chain {
    let d = director();
    let officials = vec![
        Participant {
            role: Role::Director,
            name: "Director".into(),
            key: d.public(),
        },
        Participant {
            role: Role::Referee,
            name: "Referee".into(),
            key: cast.referee.public(),
        },
    ];
    let mut chain = Chain::create(
        &d,
        1,
        mcmahon_genesis("Sample Open", "Sample Open", 3, officials),
    )
    .expect("genesis");
    chain
        .append_all(
            &d,
            2,
            vec![
                reg("W", Some(&cast.white)),
                reg("B", Some(&cast.black)),
                reg("C", None),
                reg("D", None),
                pairing(1, 1, "W", "B", 0, None, true),
                pairing(1, 2, "C", "D", 2, None, true),
            ],
        )
        .expect("facts");
    chain
}

#[test]
fn a_finished_game_is_checkpointed_on_its_board_at_its_head_with_its_result() {
    let cast = Cast::new();
    let game = finished_game(&cast, "round 1 board 1", 4);
    let held = Held::default().with(game.records.clone());
    let mut chain = sample_open(&cast);
    let c = checkpoints::of_game(&held, &chain, game.game).expect("checkpoint");
    assert_eq!((c.round, c.board, c.game), (1, 1, game.game));
    assert_eq!((c.head_seq, c.head_hash), (game.head.seq, game.head.hash));
    // Four moves, then Black resigns: White, the pairing's W, wins.
    let r = c.result.clone().expect("a result");
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    // Due, finished or not; once checkpointed at its head, no longer.
    assert_eq!(
        checkpoints::due(&held, &chain, true).expect("due"),
        vec![c.clone()]
    );
    chain
        .append(&director(), 3, Body::GameCheckpointed(c))
        .expect("checkpointed");
    assert!(checkpoints::due(&held, &chain, false)
        .expect("due")
        .is_empty());
}

#[test]
fn an_unfinished_game_is_due_only_when_finished_games_are_not_asked_for() {
    let cast = Cast::new();
    let game = moves_game(&cast, "round 1 board 1", 3);
    let held = Held::default().with(game.records.clone());
    let chain = sample_open(&cast);
    assert!(checkpoints::due(&held, &chain, true)
        .expect("due")
        .is_empty());
    let due = checkpoints::due(&held, &chain, false).expect("due");
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].result, None);
}

#[test]
fn the_head_expected_is_checked_and_refusals_are_in_words() {
    let cast = Cast::new();
    let game = finished_game(&cast, "round 1 board 1", 2);
    let held = Held::default().with(game.records.clone());
    let chain = sample_open(&cast);
    let c = checkpoints::of_game(&held, &chain, game.game).expect("checkpoint");
    let hex = hex::encode(c.head_hash);
    assert!(checkpoints::expect_head::<String>(&c, Some(c.head_seq), Some(&hex[..8])).is_ok());
    let e = checkpoints::expect_head::<String>(&c, Some(c.head_seq + 1), None).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "checkpoint refused: the stored chain of game {} ends at seq {}, not {}",
            &hex::encode(game.game)[..16],
            c.head_seq,
            c.head_seq + 1
        )
    );
    // Too short a prefix names no record; another hash is refused.
    assert!(checkpoints::expect_head::<String>(&c, None, Some(&hex[..7])).is_err());
    assert!(matches!(
        checkpoints::expect_head::<String>(&c, None, Some("00000000")),
        Err(CheckpointError::HeadHash { .. })
    ));
    let unknown = [7; 32];
    assert!(matches!(
        checkpoints::of_game(&held, &chain, unknown),
        Err(CheckpointError::NoGame(g)) if g == unknown
    ));
}

#[test]
fn a_game_naming_no_board_of_the_tournament_is_not_checkpointed() {
    let cast = Cast::new();
    let mut genesis = cast.genesis("friendly");
    genesis.tournament = None;
    let game = kifu_ledger::testkit::ChainBuilder::start(&cast.referee, genesis, 5);
    let held = Held::default().with(game.records.clone());
    let chain = sample_open(&cast);
    assert!(checkpoints::due(&held, &chain, false)
        .expect("due")
        .is_empty());
    let e = checkpoints::of_game(&held, &chain, game.game).unwrap_err();
    assert!(matches!(e, CheckpointError::NotPaired(_)));
    assert!(e.to_string().contains("is not paired in this tournament"));
}

#[test]
fn only_the_director_s_facts_bring_the_checkpoints_with_them() {
    let cast = Cast::new();
    let chain = sample_open(&cast);
    assert!(checkpoints::checkpoints_after(&chain, &director().public()));
    assert!(!checkpoints::checkpoints_after(
        &chain,
        &cast.referee.public()
    ));
}

#[test]
fn a_board_s_game_carries_the_tournament_its_seats_and_officials() {
    let cast = Cast::new();
    let chain = sample_open(&cast);
    let seat = |role, k: &Keypair| Participant {
        role,
        name: "x".into(),
        key: k.public(),
    };
    let seats = vec![
        seat(Role::Black, &cast.black),
        seat(Role::White, &cast.white),
    ];
    // A recorder already seated is not added twice.
    let recorders = vec![
        seat(Role::Recorder, &cast.recorder),
        seat(Role::Recorder, &cast.black),
    ];
    let g = board_genesis(&chain, 1, 1, seats, recorders).expect("genesis");
    assert_eq!(g.board_size, board_size(kifu_ledger::GameKind::Go));
    assert_eq!(g.board_size, 19);
    assert_eq!(
        g.komi_half_points,
        chain.projection.genesis.komi_half_points
    );
    let roles: Vec<Role> = g.roster.iter().map(|p| p.role).collect();
    assert_eq!(
        roles,
        [
            Role::Black,
            Role::White,
            Role::Recorder,
            Role::Director,
            Role::Referee
        ]
    );
    let t = g.tournament.expect("names the tournament");
    assert_eq!(
        (t.tournament.as_str(), t.round, t.board),
        ("Sample Open", 1, 1)
    );
    assert_eq!(g.title, "Sample Open, round 1, board 1");
    // A handicap game takes the ruleset's komi, not the tournament's.
    let seats = vec![
        seat(Role::Black, &cast.black),
        seat(Role::White, &cast.white),
    ];
    let h = board_genesis(&chain, 1, 2, seats.clone(), vec![]).expect("genesis");
    assert_eq!(h.handicap, 2);
    let t = &chain.projection.genesis;
    assert_eq!(
        h.komi_half_points,
        kifu_game::profile_komi(t.game, &t.ruleset, 2).expect("komi")
    );
    assert_ne!(h.komi_half_points, t.komi_half_points);
    assert_eq!(
        board_genesis(&chain, 2, 1, seats, vec![]),
        Err(GameDraftError::NotPaired { round: 2, board: 1 })
    );
}

#[test]
fn the_demonstration_tournament_checkpoints_the_demo_game_and_verifies() {
    let cast = Cast::new();
    let mut genesis = cast.genesis("demo");
    genesis.board_size = 19;
    let game = kifu_ledger::testkit::ChainBuilder::start(&cast.referee, genesis, 5);
    let held = Held::default().with(game.records.clone());
    let referee = Keypair::from_seed([0x42; 32]);
    let chain =
        kifu_tournament::demo::chain(&held, game.game, &director(), &referee, 1_000).expect("demo");
    let p = &chain.projection;
    assert_eq!(p.genesis.short_name, "Sample Open");
    assert_eq!(p.players.len(), 5);
    assert_eq!(p.last_round(), 3);
    let board = p.boards.get(&(1, 1)).expect("board 1");
    let c = board.checkpoint.as_ref().expect("checkpointed");
    assert_eq!((c.game, c.head_seq), (game.game, 0));
    // The referee declared the forfeit of round 2, board 2.
    let forfeit = chain.events().expect("events").into_iter().find(|e| {
        matches!(
            e.body,
            Body::BoardResultEntered {
                round: 2,
                board: 2,
                ..
            }
        )
    });
    assert_eq!(forfeit.expect("entered").signer, referee.public());
    // What was written reads back as one verified chain.
    let again = Chain::open(chain.records.clone()).expect("verifies");
    assert_eq!(again.id(), chain.id());
}

#[test]
fn a_refused_fact_among_several_leaves_the_chain_as_it_was() {
    let cast = Cast::new();
    let mut chain = sample_open(&cast);
    let before = chain.records.len();
    let e = chain
        .append_all(
            &director(),
            9,
            vec![reg("E", None), pairing(2, 1, "E", "nobody", 0, None, true)],
        )
        .unwrap_err();
    assert_eq!((e.index, e.kind), (1, "paired"));
    assert!(e.to_string().starts_with("paired #2 refused: "), "{e}");
    assert_eq!(chain.records.len(), before);
    assert!(chain.projection.player("E").is_none());
    // The projection's own check names the same fact in the same words.
    let mut next = chain.projection.clone();
    let e = next
        .apply_all(&[pairing(1, 3, "W", "C", 0, None, true)])
        .unwrap_err();
    assert!(e.to_string().starts_with("paired refused: "), "{e}");
}

#[test]
fn a_checkpoint_warns_of_a_genesis_that_disagrees_with_its_pairing_only() {
    let cast = Cast::new();
    let game = finished_game(&cast, "round 1 board 1", 2);
    let genesis = match game.records[0].decode().expect("decodes").body {
        Body::GameCreated(g) => g,
        _ => unreachable!("a game starts with its genesis"),
    };
    // Not paired by id: its genesis names the board, nothing to warn of.
    let chain = sample_open(&cast);
    assert!(checkpoints::warnings(&chain, &game.game, &genesis).is_empty());
    // Paired by id on board 2 of round 1: its genesis says board 1.
    let d = director();
    let mut chain = sample_open(&cast);
    chain
        .append_all(
            &d,
            3,
            vec![
                reg("E", None),
                reg("F", None),
                pairing(1, 3, "E", "F", 0, Some(game.game), true),
            ],
        )
        .expect("paired");
    let w = checkpoints::warnings(&chain, &game.game, &genesis);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("says round 1 board 1, the pairing round 1 board 3"),
        "{w:?}"
    );
}

#[test]
fn a_game_s_committee_is_the_first_three_committee_officials_and_reserves() {
    let d = director();
    let member = |n: u8| Participant {
        role: Role::Committee,
        name: format!("M{n}"),
        key: Keypair::from_seed([0x60 + n; 32]).public(),
    };
    let with = |n: u8| {
        let mut officials = vec![Participant {
            role: Role::Director,
            name: "Director".into(),
            key: d.public(),
        }];
        officials.extend((1..=n).map(member));
        Chain::create(&d, 1, mcmahon_genesis("Cup", "cup", 3, officials)).expect("genesis")
    };
    match kifu_tournament::games::committee(&with(4), 2).expect("formed") {
        Body::CommitteeFormed {
            members,
            reserves,
            formed_before_round,
        } => {
            assert_eq!(members, [member(1), member(2), member(3)]);
            assert_eq!(reserves, [member(4)]);
            assert_eq!(formed_before_round, 2);
        }
        other => panic!("{other:?}"),
    }
    let e = kifu_tournament::games::committee(&with(1), 1).unwrap_err();
    assert_eq!(e, GameDraftError::TooFewCommittee { named: 1 });
    assert!(e.to_string().starts_with(
        "the tournament names 1 appeals committee member; the committee is formed of 3"
    ));
}

#[test]
fn the_genesis_kind_indices_named_by_the_format_are_the_bodies() {
    let cast = kifu_ledger::testkit::Cast::new();
    let game = kifu_ledger::Body::GameCreated(cast.genesis("g"));
    assert_eq!(game.kind_index(), kifu_ledger::body::GAME_CREATED_KIND);
    let t = kifu_ledger::Body::TournamentCreated(kifu_tournament::mcmahon_genesis(
        "Open",
        "open",
        3,
        vec![],
    ));
    assert_eq!(t.kind_index(), kifu_ledger::body::TOURNAMENT_CREATED_KIND);
}

#[test]
fn a_game_that_only_names_a_board_is_a_claim_and_never_the_board_s_game() {
    use kifu_tournament::board_game::{self, Standing};
    let cast = Cast::new();
    // The same genesis as the referee's, signed by a recorder of its own
    // roster: the ledger takes it, the tournament does not.
    let forged = kifu_ledger::testkit::ChainBuilder::start(
        &cast.recorder,
        cast.genesis("round 1 board 1"),
        1_767_225_600_000,
    );
    let held = Held::default().with(forged.records.clone());
    let mut chain = sample_open(&cast);
    let genesis = cast.genesis("round 1 board 1");
    assert_eq!(
        board_game::standing(&chain, &forged.game, &genesis, &cast.recorder.public()),
        Some(Standing::Claim { round: 1, board: 1 })
    );
    assert!(checkpoints::due(&held, &chain, false)
        .expect("due")
        .is_empty());
    let e = checkpoints::of_game(&held, &chain, forged.game).unwrap_err();
    assert!(
        e.to_string().contains("is not the board's game")
            && e.to_string()
                .contains("not signed by the tournament's director or a referee"),
        "{e}"
    );
    // The referee's game for the board counts; once the chain names it, a
    // second official game naming the board is a claim too.
    let real = finished_game(&cast, "round 1 board 1", 2);
    assert_eq!(
        board_game::standing(&chain, &real.game, &genesis, &cast.referee.public()),
        Some(Standing::Official { round: 1, board: 1 })
    );
    let c = checkpoints::of_game(
        &Held::default().with(real.records.clone()),
        &chain,
        real.game,
    )
    .expect("checkpoint");
    chain
        .append(&director(), 3, Body::GameCheckpointed(c))
        .expect("checkpointed");
    assert_eq!(
        board_game::standing(&chain, &real.game, &genesis, &cast.referee.public()),
        Some(Standing::Named { round: 1, board: 1 })
    );
    let other = moves_game(&cast, "round 1 board 1, again", 1);
    assert_eq!(
        board_game::standing(&chain, &other.game, &genesis, &cast.referee.public()),
        Some(Standing::Claim { round: 1, board: 1 })
    );
}

#[test]
fn a_director_of_another_tournament_creates_no_game_of_this_one() {
    use kifu_tournament::board_game;
    let cast = Cast::new();
    let chain = sample_open(&cast);
    let genesis = cast.genesis("round 1 board 1");
    // The cast's director directs no tournament here.
    assert_eq!(
        board_game::board_of(&chain, &[3; 32], &genesis, &cast.director.public()),
        None
    );
    assert_eq!(
        board_game::board_of(&chain, &[3; 32], &genesis, &director().public()),
        Some((1, 1))
    );
}
