//! A tournament chain written, read back and projected: the worked example
//! gives the same standings as the model built directly; roles and bad input
//! are refused with nothing written; game geneses are checked against their
//! pairing.

use kifu_ledger::{
    AbsenceReason, BoardResult, Body, Checkpoint, Color, GameResult, Keypair, Outcome, Pairing,
    Participant, Registration, ResultBy, Role, SanctionKind, TournamentRef,
};
use kifu_standings::{standings, Criterion, Value};
use kifu_tournament::{mcmahon_genesis, Chain, ChainError, TournamentError};
use proptest::prelude::*;

fn director() -> Keypair {
    Keypair::from_seed([0x31; 32])
}
fn referee() -> Keypair {
    Keypair::from_seed([0x32; 32])
}
fn outsider() -> Keypair {
    Keypair::from_seed([0x33; 32])
}

fn officials() -> Vec<Participant> {
    vec![
        Participant {
            role: Role::Director,
            name: "Director".into(),
            key: director().public(),
        },
        Participant {
            role: Role::Referee,
            name: "Referee".into(),
            key: referee().public(),
        },
    ]
}

fn reg(id: &str, surname: &str, given: &str, rank: &str) -> Body {
    Body::PlayerRegistered(Registration {
        surname: surname.into(),
        given: given.into(),
        rank: rank.into(),
        ..kifu_ledger::testkit::registration(id)
    })
}

fn pair(round: u32, board: u32, white: &str, black: &str) -> Body {
    Body::Paired(Pairing {
        round,
        board,
        white: white.into(),
        black: black.into(),
        handicap: 0,
        game: None,
    })
}

fn result(round: u32, board: u32, result: BoardResult, by_default: bool) -> Body {
    Body::BoardResultEntered {
        round,
        board,
        result,
        by_default,
        reason: "result sheet".into(),
    }
}

/// The worked example's facts, round by round.
fn worked_example_rounds() -> Vec<Vec<Body>> {
    use BoardResult::*;
    vec![
        vec![
            pair(1, 1, "P1", "P2"),
            result(1, 1, WhiteWins, false),
            pair(1, 2, "P3", "P4"),
            result(1, 2, BlackWins, false),
            pair(1, 3, "P5", "P6"),
            result(1, 3, WhiteWins, false),
        ],
        vec![
            pair(2, 1, "P3", "P1"),
            result(2, 1, BlackWins, false),
            pair(2, 2, "P2", "P5"),
            result(2, 2, WhiteWins, true),
            pair(2, 3, "P4", "P6"),
            result(2, 3, Jigo, false),
        ],
        vec![
            pair(3, 1, "P1", "P4"),
            result(3, 1, BlackWins, false),
            pair(3, 2, "P3", "P2"),
            result(3, 2, WhiteWins, false),
            Body::ByeGiven {
                round: 3,
                player: "P5".into(),
            },
            Body::PlayerAbsent {
                round: 3,
                player: "P6".into(),
                reason: AbsenceReason::RoundSkipped,
            },
        ],
    ]
}

fn registered() -> Chain {
    let mut c = Chain::create(
        &director(),
        1,
        mcmahon_genesis("Worked Example Open", "wex", 3, officials()),
    )
    .expect("genesis");
    for (id, s, g, r) in [
        ("P1", "Alpha", "Ana", "2d"),
        ("P2", "Beta", "Ben", "2d"),
        ("P3", "Gamma", "Cho", "1d"),
        ("P4", "Delta", "Dan", "1d"),
        ("P5", "Eps", "Eve", "1k"),
        ("P6", "Zeta", "Fay", "1k"),
    ] {
        c.append(&director(), 2, reg(id, s, g, r))
            .expect("register");
    }
    c
}

fn worked_example_chain(rounds: Vec<Vec<Body>>) -> Chain {
    let mut c = registered();
    for round in rounds {
        for b in round {
            c.append(&director(), 3, b).expect("fact");
        }
    }
    c
}

#[test]
fn worked_example_as_a_signed_chain_gives_the_fixture_standings() {
    let c = worked_example_chain(worked_example_rounds());
    let read = Chain::open(c.records.clone()).expect("verifies");
    let t = read.projection.tournament().expect("model");
    let st = standings(&t, 3, &[], &[]).expect("standings");
    let order: Vec<&str> = st.rows.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(order, ["P1", "P4", "P2", "P3", "P5", "P6"]);
    assert_eq!(
        st.rows[0].get(Criterion::Sososm),
        Some(Value::from_points(286))
    );
    assert_eq!(
        st.rows[1].get(Criterion::Sosm),
        Some(Value::from_halves(187))
    );
}

#[test]
fn a_tampered_record_is_detected() {
    let c = worked_example_chain(worked_example_rounds());
    let mut records = c.records.clone();
    let last = records.len() - 1;
    records[last].event_bytes[20] ^= 1;
    assert!(Chain::open(records).is_err());
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let mut c = registered();
    c.append(&director(), 3, pair(1, 1, "P1", "P2"))
        .expect("pair");
    let before = c.records.len();
    let refused = [
        (pair(1, 2, "P3", "P9"), "unregistered"),
        (pair(1, 2, "P1", "P3"), "paired twice"),
        (pair(4, 1, "P3", "P4"), "no round 4"),
        (pair(1, 2, "P3", "P3"), "self"),
        (result(1, 7, BoardResult::WhiteWins, false), "no such game"),
        (
            Body::ByeGiven {
                round: 1,
                player: "P2".into(),
            },
            "bye while paired",
        ),
        (reg("P1", "Again", "A", "1d"), "registered twice"),
        (reg("P7", "Bad", "Rank", "99x"), "bad rank"),
    ];
    for (body, why) in refused {
        let e = c.append(&director(), 4, body).expect_err(why);
        assert!(matches!(e, ChainError::Tournament(_)), "{why}: {e}");
    }
    assert_eq!(c.records.len(), before);
    let e = c
        .append(&director(), 4, pair(1, 2, "P3", "P9"))
        .expect_err("unregistered");
    assert_eq!(e.to_string(), "player \"P9\" is not registered");
}

#[test]
fn roles_director_pairs_referee_forfeits_outsider_nothing() {
    let mut c = registered();
    c.append(&director(), 3, pair(1, 1, "P1", "P2"))
        .expect("pair");
    // A referee may not pair or enter an ordinary result...
    assert!(matches!(
        c.append(&referee(), 3, pair(1, 2, "P3", "P4")),
        Err(ChainError::Ledger(_))
    ));
    assert!(c
        .append(&referee(), 3, result(1, 1, BoardResult::WhiteWins, false))
        .is_err());
    // ...but declares a forfeit (LGC 2023, "Game forfeit") and removes a
    // player from the tournament (LGC 2023, "Other sanctions").
    c.append(&referee(), 3, result(1, 1, BoardResult::WhiteWins, true))
        .expect("forfeit by a referee");
    c.append(
        &referee(),
        3,
        Body::TournamentSanction {
            player: "P6".into(),
            kind: SanctionKind::RemovedFromTournament,
            from_round: 2,
            reason: "hindrance".into(),
        },
    )
    .expect("sanction by a referee");
    assert!(c
        .append(&outsider(), 3, reg("P7", "Out", "Sider", "3k"))
        .is_err());
    // The removal makes P6 absent in rounds 2 and 3.
    let t = c.projection.tournament().expect("model");
    assert!(t.absences.contains(&(2, "P6".to_string())));
    assert!(t.absences.contains(&(3, "P6".to_string())));
    assert!(!t.absences.contains(&(1, "P6".to_string())));
}

#[test]
fn game_facts_are_refused_in_a_tournament_chain_and_tournament_facts_in_a_game() {
    let mut c = registered();
    let e = c
        .append(
            &director(),
            3,
            Body::ClockStarted {
                running: Color::Black,
            },
        )
        .expect_err("a game fact");
    assert!(
        e.to_string().contains("no place in a tournament chain"),
        "{e}"
    );
    let refusal = kifu_ledger::roles::check(&[Role::Director], &pair(1, 1, "P1", "P2"), 3)
        .expect_err("refused in a game chain");
    assert!(refusal.rule.contains("tournament chain"));
}

#[test]
fn withdrawal_marks_every_later_round_absent() {
    let mut c = registered();
    c.append(
        &director(),
        3,
        Body::PlayerAbsent {
            round: 2,
            player: "P3".into(),
            reason: AbsenceReason::Withdrawal,
        },
    )
    .expect("withdrawal");
    let t = c.projection.tournament().expect("model");
    assert_eq!(
        t.absences.iter().filter(|(_, p)| p == "P3").count(),
        2,
        "rounds 2 and 3"
    );
    // A withdrawn player cannot be paired.
    assert!(c.append(&director(), 4, pair(3, 1, "P3", "P1")).is_err());
}

#[test]
fn checkpoint_result_and_game_genesis_flags() {
    let cast = kifu_ledger::testkit::Cast::new();
    let mut genesis = cast.genesis("round 1 board 1");
    genesis.tournament = Some(TournamentRef {
        tournament: "wex".into(),
        round: 1,
        board: 2,
    });
    let game = [7u8; 32];
    let mut c = registered();
    c.append(&director(), 3, pair(1, 1, "P1", "P2"))
        .expect("pair");
    c.append(
        &director(),
        4,
        Body::GameCheckpointed(Checkpoint {
            round: 1,
            board: 1,
            game,
            head_seq: 40,
            head_hash: [9; 32],
            result: Some(GameResult {
                outcome: Outcome::Win(Color::White),
                by: ResultBy::Resignation,
            }),
        }),
    )
    .expect("checkpoint");
    let t = c.projection.tournament().expect("model");
    assert_eq!(t.games[0].result, kifu_standings::GameResult::WhiteWins);
    // The genesis says board 2: flagged.
    let flags = c.projection.game_flags(&game, &genesis);
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert!(flags[0].contains("board 2"));
    genesis.tournament = Some(TournamentRef {
        tournament: "wex".into(),
        round: 1,
        board: 1,
    });
    assert!(c.projection.game_flags(&game, &genesis).is_empty());
    // Another game for the same board is refused.
    let other = Body::GameCheckpointed(Checkpoint {
        round: 1,
        board: 1,
        game: [8; 32],
        head_seq: 1,
        head_hash: [1; 32],
        result: None,
    });
    assert!(matches!(
        c.append(&director(), 5, other),
        Err(ChainError::Tournament(TournamentError::OtherGame { .. }))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Standings do not depend on the order in which one round's pairings
    /// and results were recorded (each result after its pairing).
    #[test]
    fn standings_do_not_depend_on_recording_order(
        round in 0usize..3,
        order in Just((0..6).collect::<Vec<usize>>()).prop_shuffle(),
    ) {
        let base = worked_example_chain(worked_example_rounds());
        let mut rounds = worked_example_rounds();
        // Reorder the round's facts, then move each result after its pairing.
        let facts: Vec<Body> = order.iter().map(|&i| rounds[round][i].clone()).collect();
        let mut fixed: Vec<Body> = Vec::new();
        let mut pending: Vec<Body> = Vec::new();
        for f in facts {
            match &f {
                Body::BoardResultEntered { round: r, board, .. }
                    if !fixed.iter().any(|p| matches!(p, Body::Paired(q) if q.round == *r && q.board == *board)) =>
                {
                    pending.push(f)
                }
                _ => fixed.push(f),
            }
        }
        fixed.extend(pending);
        rounds[round] = fixed;
        let other = worked_example_chain(rounds);
        let a = standings(&base.projection.tournament().expect("model"), 3, &[], &Criterion::ALL).expect("a");
        let b = standings(&other.projection.tournament().expect("model"), 3, &[], &Criterion::ALL).expect("b");
        prop_assert_eq!(a, b);
    }
}

/// A record signed elsewhere (a director's browser or command line) is
/// taken by `append_record` exactly when `append` would have signed it:
/// the same chain, byte for byte; and refused for the same reasons, with
/// nothing changed.
#[test]
fn a_record_signed_elsewhere_is_checked_as_a_fact_signed_here() {
    let genesis = mcmahon_genesis("Open", "open", 3, officials());
    let mut here = Chain::create(&director(), 1_000, genesis).expect("genesis");
    let mut there = Chain::open(here.records.clone()).expect("opens");
    for (i, body) in [
        reg("A", "Alpha", "Ann", "2d"),
        reg("B", "Beta", "Bo", "1d"),
        reg("C", "Gamma", "Cy", "1k"),
        pair(1, 1, "A", "B"),
    ]
    .into_iter()
    .enumerate()
    {
        let r = here
            .append(&director(), 2_000 + i as u64, body)
            .expect("appended")
            .clone();
        there.append_record(r).expect("the same record is taken");
    }
    assert_eq!(here.records, there.records);
    assert_eq!(here.projection.players, there.projection.players);

    // Signed by a key the genesis does not name as director: refused.
    let mut forged = here.clone();
    let bad = kifu_ledger::Event::next(
        forged.id(),
        forged.head(),
        9_000,
        outsider().public(),
        reg("D", "Delta", "Di", "2k"),
    )
    .sign(&outsider())
    .expect("signs");
    assert!(matches!(
        forged.append_record(bad),
        Err(ChainError::Ledger(kifu_ledger::LedgerError::Refused(_)))
    ));
    assert_eq!(forged.records, here.records);

    // A player paired twice in a round, signed by the director: refused by
    // the projection.
    let twice = kifu_ledger::Event::next(
        forged.id(),
        forged.head(),
        9_000,
        director().public(),
        pair(1, 2, "A", "C"),
    )
    .sign(&director())
    .expect("signs");
    assert!(matches!(
        forged.append_record(twice),
        Err(ChainError::Tournament(TournamentError::Busy { .. }))
    ));
    assert_eq!(forged.records, here.records);

    // A record that does not follow the head (another was written first).
    let stale = kifu_ledger::Event::next(
        forged.id(),
        kifu_ledger::Head {
            seq: 1,
            hash: forged.records[1].hash(),
        },
        9_000,
        director().public(),
        reg("E", "Eps", "Ed", "3k"),
    )
    .sign(&director())
    .expect("signs");
    assert!(matches!(
        forged.append_record(stale),
        Err(ChainError::Ledger(
            kifu_ledger::LedgerError::Conflict { .. }
        ))
    ));
    assert_eq!(forged.records, here.records);
}
