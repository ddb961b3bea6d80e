//! The director's vocabulary (`kifu_tournament::desk`): a new tournament's
//! facts, an official's result, and the round's games drafted from the
//! devices asking for their seats, as the seat rule seats them.

mod common;

use std::collections::BTreeSet;

use kifu_game::seat::SeatRequest;
use kifu_ledger::{Body, Keypair, Participant, Role};
use kifu_tournament::desk::{self, Asking, DeskError};
use kifu_tournament::entry::{pairing, OFFICIAL_RESULT_REASON};
use kifu_tournament::{mcmahon_genesis, Chain};

fn key(seed: u8) -> Keypair {
    Keypair::from_seed([seed; 32])
}

fn reg(id: &str, key: Option<&Keypair>) -> Body {
    common::registered(id, key.map(Keypair::public))
}

/// "Desk Open": W registered with a key, B, C and D without; round 1
/// pairs W–B on board 1 and C–D on board 2.
fn desk_open() -> Chain {
    let d = key(0x41);
    let officials = vec![desk::director(d.public(), String::new())];
    let mut chain =
        Chain::create(&d, 1, mcmahon_genesis("Desk Open", "desk", 3, officials)).expect("genesis");
    chain
        .append_all(
            &d,
            2,
            vec![
                reg("W", Some(&key(1))),
                reg("B", None),
                reg("C", None),
                reg("D", None),
                pairing(1, 1, "W", "B", 0, None, true),
                pairing(1, 2, "C", "D", 0, None, true),
            ],
        )
        .expect("facts");
    chain
}

fn seat(seed: u8, role: Role, board: u32) -> SeatRequest {
    SeatRequest {
        key: key(seed).public(),
        role,
        name: format!("Device {seed}"),
        tournament: Some("Desk Open".into()),
        round: Some(1),
        board: Some(board),
    }
}

fn asking<'a>(seats: &'a [(String, SeatRequest)]) -> Vec<Asking<'a>> {
    seats
        .iter()
        .map(|(request, seat)| Asking { request, seat })
        .collect()
}

fn roster_key(body: &Body, role: Role) -> kifu_ledger::PublicKey {
    let Body::GameCreated(g) = body else {
        panic!("not a genesis: {body:?}");
    };
    g.holder(role).expect("seated").key
}

#[test]
fn the_registered_key_holds_its_seat_and_a_lone_device_holds_an_unregistered_one() {
    let chain = desk_open();
    let seats = vec![
        ("1".to_string(), seat(7, Role::White, 1)),
        ("2".to_string(), seat(8, Role::Black, 1)),
    ];
    let drafted =
        desk::round_games(&chain, 1, &BTreeSet::new(), &asking(&seats), &[], &[]).expect("games");
    assert_eq!(drafted.games.len(), 1);
    let g = &drafted.games[0];
    assert_eq!(g.board, 1);
    // W's registration names a key: the device asking is listed, not
    // enrolled; B names none: the one device asking holds the seat.
    assert_eq!(roster_key(&g.body, Role::White), key(1).public());
    assert_eq!(roster_key(&g.body, Role::Black), key(8).public());
    let enrolled: Vec<(&str, bool)> = g
        .devices
        .iter()
        .map(|d| (d.request.as_str(), d.enrolled))
        .collect();
    assert_eq!(enrolled, [("2", true), ("1", false)]);
    // Board 2: no tablet asks for it, a paper board.
    assert_eq!(drafted.skipped.len(), 1);
    assert!(drafted.skipped[0].paper);
    assert_eq!(
        drafted.skipped[0].reason,
        "board 2: no tablet asks for it: a paper board, its result entered from the result sheet"
    );
}

#[test]
fn two_devices_for_one_seat_leave_the_board_to_the_director_and_an_excluded_one_is_not_counted() {
    let chain = desk_open();
    let seats = vec![
        ("1".to_string(), seat(8, Role::Black, 1)),
        ("2".to_string(), seat(9, Role::Black, 1)),
        ("3".to_string(), seat(10, Role::Black, 2)),
    ];
    let e = desk::round_games(&chain, 1, &BTreeSet::new(), &asking(&seats), &[], &[])
        .expect_err("no game can be drafted");
    let words = e.to_string();
    assert!(
        words.starts_with("board 1: 2 devices ask for Black's seat ("),
        "{words}"
    );
    assert!(
        words.contains("board 2: no device asks for White's seat (C)"),
        "{words}"
    );
    let drafted = desk::round_games(
        &chain,
        1,
        &BTreeSet::new(),
        &asking(&seats),
        &["2".to_string()],
        &[],
    )
    .expect("board 1 drafted");
    assert_eq!(drafted.games[0].board, 1);
    assert_eq!(
        roster_key(&drafted.games[0].body, Role::Black),
        key(8).public()
    );
}

#[test]
fn a_ticked_recorder_seats_unregistered_players_on_the_board_s_unheld_keys() {
    let chain = desk_open();
    let seats = vec![("5".to_string(), seat(11, Role::Recorder, 2))];
    // Not ticked: the recorder is listed, nobody seated.
    let e = desk::round_games(&chain, 1, &BTreeSet::from([1]), &asking(&seats), &[], &[])
        .expect_err("not ticked");
    assert!(matches!(e, DeskError::NoGames { .. }), "{e}");
    let drafted = desk::round_games(
        &chain,
        1,
        &BTreeSet::from([1]),
        &asking(&seats),
        &[],
        &["5".to_string()],
    )
    .expect("board 2 drafted");
    let body = &drafted.games[0].body;
    let place = kifu_ledger::unheld::board_place("desk", 1, 2);
    for role in [Role::Black, Role::White] {
        assert_eq!(
            roster_key(body, role),
            kifu_ledger::unheld::unheld_key(&place, role)
        );
    }
    assert_eq!(roster_key(body, Role::Recorder), key(11).public());
    // Every board with its game: nothing left to draft.
    let e = desk::round_games(
        &chain,
        1,
        &BTreeSet::from([1, 2]),
        &asking(&seats),
        &[],
        &[],
    )
    .expect_err("all created");
    assert_eq!(e.to_string(), "round 1: every paired board has its game");
}

#[test]
fn a_device_names_the_tournament_by_short_name_full_name_or_id() {
    let chain = desk_open();
    assert!(desk::names_tournament(&chain, "desk"));
    assert!(desk::names_tournament(&chain, "  desk open "));
    assert!(desk::names_tournament(
        &chain,
        &hex::encode(chain.id())[..16].to_uppercase()
    ));
    assert!(!desk::names_tournament(&chain, "Other Open"));
    let mut s = seat(8, Role::Black, 1);
    assert_eq!(desk::device_matches(&chain, 1, &s), "board");
    assert_eq!(desk::device_matches(&chain, 2, &s), "other_round");
    s.board = Some(9);
    assert_eq!(desk::device_matches(&chain, 1, &s), "no_board");
    s.tournament = None;
    assert_eq!(desk::device_matches(&chain, 1, &s), "other_tournament");
}

#[test]
fn a_new_tournament_states_its_zone_after_the_genesis_and_an_unknown_zone_is_refused() {
    let d = key(0x41);
    let officials: Vec<Participant> = vec![desk::director(d.public(), String::new())];
    assert_eq!(officials[0].name, kifu_tournament::choices::DIRECTOR_NAME);
    let choices = kifu_tournament::choices::Choices {
        name: Some("Zone Open".into()),
        rounds: Some(3),
        ..Default::default()
    };
    let g = desk::genesis(choices, officials).expect("genesis");
    let made = desk::created(g.clone(), Some(" Asia/Tokyo ")).expect("created");
    assert_eq!(made.facts, [desk::time_zone("Asia/Tokyo".into())]);
    assert_eq!(made.clone().into_bodies().len(), 2);
    assert!(desk::created(g.clone(), Some(" "))
        .expect("none")
        .facts
        .is_empty());
    let e = desk::created(g, Some("Mars/Olympus_Mons")).expect_err("unknown zone");
    assert!(
        e.to_string()
            .contains("is not one of the IANA time zone database"),
        "{e}"
    );
}

#[test]
fn an_official_s_result_without_a_reason_is_entered_by_an_official() {
    let Body::BoardResultEntered { reason, .. } =
        desk::result(1, 1, "W+", false, " ".into()).expect("result")
    else {
        panic!("not a result");
    };
    assert_eq!(reason, OFFICIAL_RESULT_REASON);
    assert!(desk::result(1, 1, "white wins", false, String::new()).is_err());
    let chain = desk_open();
    let bodies = vec![desk::bye(1, "W".into())];
    let e = desk::check(&chain.projection, &bodies).expect_err("W is paired");
    assert!(e.to_string().starts_with("bye given refused: "), "{e}");
}
