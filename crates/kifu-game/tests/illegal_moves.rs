//! Illegal moves, as each document rules. One scenario per clause.

mod support;
use support::*;

use kifu_game::BoardState;
use kifu_ledger::*;

#[test]
fn ko_recapture_is_recorded_and_flagged_not_refused() {
    let mut g = G::go("lgc-2023");
    let s = ko_game(&mut g);
    let st = g.state();
    assert_eq!(
        cell(&g.rows(), "bb"),
        'O',
        "the illegal stone is on the board"
    );
    assert_eq!(cell(&g.rows(), "cb"), '.', "and its capture happened");
    assert!(has_rule(&st, s, "LGC 2023"));
    assert!(st.consequences_of(s).any(|c| c.what.contains("ko")));
    assert!(
        st.illegal_moves.is_empty(),
        "no remedy before it is pointed out"
    );
}

#[test]
fn lgc_2023_illegal_move_noticed_within_three_moves_is_unwound() {
    let mut g = G::go("lgc-2023");
    let s = ko_game(&mut g);
    g.mv(B, "ee");
    g.mv(W, "ff");
    g.mv(B, "gg");
    let n = g.notice(B, s);
    let st = g.state();
    let rows = g.rows();
    assert_eq!(cell(&rows, "bb"), '.', "the recapture is taken back");
    assert_eq!(cell(&rows, "cb"), 'X', "Black's ko stone is back");
    assert_eq!(cell(&rows, "ee"), '.', "later moves are unwound too");
    assert_eq!(st.to_move, Some(W), "White plays again from that point");
    assert_eq!(st.illegal_moves[0].moves_after, 3);
    assert!(has_rule(&st, n, "\"Illegal move\""));
    assert!(
        st.consequences_of(n).any(|c| c
            .quote
            .as_deref()
            .is_some_and(|q| q.contains("noticed within three moves"))),
        "the clause's own words come with the consequence"
    );
    if let BoardState::Go(b) = &st.board {
        assert_eq!(b.view().black_prisoners, 1);
        assert_eq!(b.view().white_prisoners, 0);
    } else {
        panic!("go board");
    }
}

#[test]
fn lgc_2023_illegal_move_noticed_after_three_moves_game_continues() {
    let mut g = G::go("lgc-2023");
    let s = ko_game(&mut g);
    for (c, at) in [(B, "ee"), (W, "ff"), (B, "gg"), (W, "hh")] {
        g.mv(c, at);
    }
    g.notice(B, s);
    let st = g.state();
    assert_eq!(
        cell(&g.rows(), "bb"),
        'O',
        "the game just continues as it is"
    );
    assert_eq!(cell(&g.rows(), "hh"), 'O');
    assert!(st.illegal_moves[0].remedy.contains("continues"));
}

#[test]
fn london_open_rule_4_illegal_move_unwound_within_three_moves() {
    let mut g = G::go("london-open");
    let s = ko_game(&mut g);
    g.mv(B, "ee");
    let n = g.notice(B, s);
    let st = g.state();
    assert_eq!(cell(&g.rows(), "bb"), '.');
    assert_eq!(cell(&g.rows(), "ee"), '.');
    assert!(has_rule(&st, n, "London Open"));
}

#[test]
fn london_open_rule_4_noticed_after_three_moves_continues() {
    let mut g = G::go("london-open");
    let s = ko_game(&mut g);
    for (c, at) in [(B, "ee"), (W, "ff"), (B, "gg"), (W, "hh")] {
        g.mv(c, at);
    }
    g.notice(B, s);
    assert_eq!(cell(&g.rows(), "bb"), 'O');
}

#[test]
fn bga_illegal_moves_noticed_at_once_unwind_and_offender_passes() {
    let mut g = G::go("bga-aga");
    let s = ko_game(&mut g);
    let n = g.notice(B, s);
    let st = g.state();
    assert_eq!(cell(&g.rows(), "bb"), '.');
    assert_eq!(cell(&g.rows(), "cb"), 'X');
    assert_eq!(st.to_move, Some(B), "White passed as the remedy");
    let BoardState::Go(b) = &st.board else {
        panic!()
    };
    assert_eq!(b.view().black_pass_stones, 1, "White handed a pass stone");
    assert!(has_rule(&st, n, "BGA"));
}

#[test]
fn bga_illegal_moves_noticed_later_rewind_by_mutual_agreement() {
    let mut g = G::go("bga-aga");
    let s = ko_game(&mut g);
    g.mv(B, "ee");
    g.notice(B, s);
    let st = g.state();
    assert!(st.illegal_moves[0].awaiting_agreement);
    assert_eq!(
        cell(&g.rows(), "bb"),
        'O',
        "nothing changes without agreement"
    );
    g.push(
        W,
        Body::RewindAgreed {
            player: W,
            move_seq: s,
        },
    );
    assert_eq!(
        cell(&g.rows(), "bb"),
        'O',
        "one player's agreement is not enough"
    );
    g.push(
        B,
        Body::RewindAgreed {
            player: B,
            move_seq: s,
        },
    );
    let st = g.state();
    assert_eq!(cell(&g.rows(), "bb"), '.');
    assert_eq!(cell(&g.rows(), "ee"), '.');
    assert_eq!(st.to_move, Some(W), "the offender plays a legal move");
    let BoardState::Go(b) = &st.board else {
        panic!()
    };
    assert_eq!(
        b.view().black_pass_stones,
        0,
        "without handing over a pass stone"
    );
    assert!(!st.illegal_moves[0].awaiting_agreement);
}

#[test]
fn bga_illegal_moves_without_agreement_self_capture_stones_go_to_the_opponent() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ba");
    g.mv(W, "ee");
    g.mv(B, "ab");
    let s = g.play(W, "aa");
    g.push(W, Body::ClockPressed { player: W });
    g.mv(B, "gg");
    g.notice(B, s);
    let st = g.state();
    assert_eq!(
        cell(&g.rows(), "aa"),
        '.',
        "the self-captured stone is removed"
    );
    let BoardState::Go(b) = &st.board else {
        panic!()
    };
    assert_eq!(
        b.view().black_prisoners,
        1,
        "and handed to Black as a prisoner"
    );
    assert!(st.illegal_moves[0].awaiting_agreement);
}

#[test]
fn bga_failure_of_alternation_counts_the_whole_sequence() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    g.play(B, "gg");
    let second = g.play(B, "gc");
    g.notice(W, second);
    let st = g.state();
    assert_eq!(
        cell(&g.rows(), "gg"),
        '.',
        "the first move of the sequence is unwound"
    );
    assert_eq!(cell(&g.rows(), "gc"), '.');
    assert_eq!(cell(&g.rows(), "ee"), 'X');
    assert_eq!(st.to_move, Some(W), "Black passed as the remedy");
}

#[test]
fn uec_cup_f_first_illegal_move_loses_when_pointed_out() {
    let mut g = G::go("uec-cup");
    let s = ko_game(&mut g);
    g.mv(B, "ee");
    let n = g.notice(B, s);
    let st = g.state();
    let d = st.result.computed().expect("a result");
    assert_eq!(d.result, win(B, ResultBy::IllegalMove));
    assert!(has_rule(&st, n, "UEC Cup"));
}

#[test]
fn uec_cup_f_illegal_move_pointed_out_after_the_scores_are_submitted_does_not_lose() {
    let mut g = G::go("uec-cup");
    let s = ko_game(&mut g);
    let r = win(W, ResultBy::Resignation);
    g.push(
        W,
        Body::ResultSheetSigned {
            result: r,
            under_protest: false,
        },
    );
    g.notice(B, s);
    let st = g.state();
    assert!(st.result.computed().is_none());
    assert!(st.illegal_moves[0].remedy.contains("too late"));
}

#[test]
fn uec_cup_f_pointed_out_by_the_offender_does_not_lose() {
    let mut g = G::go("uec-cup");
    let s = ko_game(&mut g);
    g.notice(W, s);
    assert!(g.state().result.computed().is_none());
}

#[test]
fn a_legal_move_pointed_out_as_illegal_changes_nothing() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    let s = g.mv(B, "ee");
    g.notice(W, s);
    let st = g.state();
    assert_eq!(cell(&g.rows(), "ee"), 'X');
    assert!(st.illegal_moves[0].remedy.contains("broke no rule"));
}
