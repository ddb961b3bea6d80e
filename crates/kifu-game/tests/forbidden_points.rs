//! The points forbidden to Black on a Renju board, as the replay page asks
//! for them (RIF rules of Renju 9.2, 9.3): the engine's verdicts on the
//! projected board, none under Gomoku, no list for Go.

mod support;
use support::*;

use kifu_game::forbidden::{forbidden_for_black, ForbiddenPoint};
use kifu_ledger::*;
use kifu_renju::{Board, Point as RPoint};

/// Black h8, g8 on row 8 and i9, i10 on column i: a stone on i8 would make
/// two open threes at once.
fn crossing_twos(g: &mut G) {
    g.rplay(B, "h8");
    g.rplay(W, "a1");
    g.rplay(B, "g8");
    g.rplay(W, "a3");
    g.rplay(B, "i9");
    g.rplay(W, "o15");
    g.rplay(B, "i10");
}

fn rif(s: &str) -> RPoint {
    s.parse().expect("a RIF point")
}

#[test]
fn rif_9_2_a_double_three_is_forbidden_to_black_and_listed_with_its_reason() {
    let mut g = G::renju();
    crossing_twos(&mut g);
    let list = forbidden_for_black(&g.state()).expect("a Renju board");
    assert!(
        list.contains(&ForbiddenPoint {
            point: "i8".into(),
            reason: "double_three"
        }),
        "{list:?}"
    );
    // Exactly the engine's verdicts on the same stones placed directly.
    let board = Board::from_stones(
        &[rif("h8"), rif("g8"), rif("i9"), rif("i10")],
        &[rif("a1"), rif("a3"), rif("o15")],
    )
    .expect("a board");
    let engine: Vec<ForbiddenPoint> = kifu_renju::forbidden_points(&board)
        .into_iter()
        .map(|(p, v)| ForbiddenPoint {
            point: p.to_string(),
            reason: v.name(),
        })
        .collect();
    assert_eq!(list, engine);
}

#[test]
fn before_the_crossing_nothing_is_forbidden() {
    let mut g = G::renju();
    g.rplay(B, "h8");
    assert_eq!(forbidden_for_black(&g.state()), Some(vec![]));
}

#[test]
fn gomoku_has_no_forbidden_points() {
    let mut g = G::with(
        GameKind::GomokuStandard,
        "gomoku-standard",
        15,
        fischer(),
        |_| {},
    );
    crossing_twos(&mut g);
    assert_eq!(forbidden_for_black(&g.state()), Some(vec![]));
}

#[test]
fn a_go_game_has_no_list() {
    let mut g = G::go("lgc-2023");
    g.play(B, "cc");
    assert_eq!(forbidden_for_black(&g.state()), None);
}
