//! Rebuilding a Go board from its setup (an unwound illegal move, a
//! referee's unwinding, a restart, a modified pairing) while Black places a
//! free handicap: the stones placed and the count still to place follow the
//! operations that stand, as a replay from the genesis gives them.

mod support;
use support::*;

use kifu_game::BoardState;
use kifu_ledger::*;

const B: Color = Color::Black;
const W: Color = Color::White;

/// A 9x9 game under `ruleset` with `handicap` stones placed freely
/// (`handicap_placement=free`, docs/RULESETS.md, "Genesis overrides").
fn free(ruleset: &str, handicap: u8) -> G {
    G::with(GameKind::Go, ruleset, 9, fischer(), |g| {
        g.handicap = handicap;
        g.komi_half_points = 1;
        g.overrides = vec![("handicap_placement".into(), "free".into())];
    })
}

/// Stones still to place, and the standing handicap stones.
fn placement(g: &G) -> (u32, usize) {
    match &g.state().board {
        BoardState::Go(b) => (b.pending_handicap, b.handicap_stones().len()),
        _ => panic!("a Go board"),
    }
}

fn unwind_to(seq: u64) -> Body {
    Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "the position is set back".into(),
        reasons: "the stones were knocked".into(),
        rules_cited: vec!["LGC 2023, \"Colour or handicap error\"".into()],
        effects: vec![RulingEffect::UnwindTo { seq }],
    })
}

#[test]
fn free_placement_counts_down_to_whites_first_move() {
    let mut g = free("lgc-2023", 3);
    assert_eq!(placement(&g), (3, 0));
    g.play(B, "cc");
    g.play(B, "gc");
    assert_eq!(placement(&g), (1, 2));
    assert_eq!(g.state().to_move, Some(B));
    g.play(B, "gg");
    assert_eq!(placement(&g), (0, 3));
    assert_eq!(g.state().to_move, Some(W));
}

#[test]
fn a_referee_unwinding_into_the_placement_gives_back_the_stones_to_place() {
    let mut g = free("lgc-2023", 3);
    let first = g.play(B, "cc");
    g.play(B, "gc");
    g.referee(unwind_to(first));
    let rows = g.rows();
    assert_eq!(cell(&rows, "cc"), 'X', "the stone placed by then stands");
    assert_eq!(cell(&rows, "gc"), '.', "the later stone is taken back");
    assert_eq!(placement(&g), (2, 1));
    assert_eq!(g.state().to_move, Some(B));
    // Black places the two stones still to place; then White moves.
    g.play(B, "gg");
    g.play(B, "cg");
    assert_eq!(placement(&g), (0, 3));
    assert_eq!(g.state().to_move, Some(W));
    g.play(W, "ee");
    let rows = g.rows();
    assert_eq!(cell(&rows, "ee"), 'O');
    assert_eq!(cell(&rows, "cg"), 'X');
    assert_eq!(g.state().to_move, Some(B));
}

#[test]
fn a_referee_unwinding_to_the_genesis_takes_back_every_handicap_stone() {
    let mut g = free("lgc-2023", 2);
    g.play(B, "cc");
    g.play(B, "gg");
    g.play(W, "ee");
    g.referee(unwind_to(0));
    assert_eq!(placement(&g), (2, 0));
    assert!(g.rows().iter().all(|r| r.chars().all(|c| c == '.')));
    assert_eq!(g.state().to_move, Some(B));
}

#[test]
fn lgc_2023_colour_or_handicap_error_restart_puts_the_free_handicap_back_to_place() {
    let mut g = free("lgc-2023", 2);
    g.start_clock();
    g.play(B, "cc");
    g.play(B, "gg");
    g.mv(W, "ee");
    // LGC 2023, "Colour or handicap error": noticed before the third move
    // is completed, the game must be restarted.
    let s = g.referee(Body::IrregularityRecorded {
        kind: IrregularityKind::ColourOrHandicapError,
        about_seq: None,
        fix: BoardFix {
            remove: vec![],
            as_prisoners: false,
            place: vec![],
        },
        statement: "the handicap was agreed as three stones".into(),
    });
    let st = g.state();
    assert!(has_rule(&st, s, "Colour or handicap error"));
    assert!(
        g.rows().iter().all(|r| r.chars().all(|c| c == '.')),
        "{:?}",
        g.rows()
    );
    assert_eq!(placement(&g), (2, 0));
    assert_eq!(st.to_move, Some(B));
    // Black's next two stones are the handicap again.
    g.play(B, "cg");
    g.play(B, "gc");
    assert_eq!(placement(&g), (0, 2));
    assert_eq!(g.state().to_move, Some(W));
}

#[test]
fn lgc_2023_illegal_move_an_out_of_turn_move_during_placement_is_unwound_with_the_count() {
    let mut g = free("lgc-2023", 3);
    g.play(B, "cc");
    // White moves before the handicap is complete: a failure of alternation.
    let wrong = g.play(W, "ee");
    // Black's next stone comes after White's move: an ordinary move now.
    g.play(B, "gc");
    {
        let st = g.state();
        let rows = g.rows();
        assert_eq!(cell(&rows, "ee"), 'O', "White's stone stands until noticed");
        assert_eq!(cell(&rows, "gc"), 'X');
        assert_eq!(st.to_move, Some(W));
    }
    // LGC 2023, "Illegal move": noticed within three moves, unwound to the
    // position just before the illegal move.
    g.notice(B, wrong);
    let rows = g.rows();
    assert_eq!(cell(&rows, "cc"), 'X');
    assert_eq!(cell(&rows, "ee"), '.');
    assert_eq!(cell(&rows, "gc"), '.');
    assert_eq!(placement(&g), (2, 1));
    assert_eq!(g.state().to_move, Some(B));
}

#[test]
fn a_modified_pairing_during_placement_counts_against_the_handicap_used() {
    let mut g = free("lgc-2023", 3);
    g.play(B, "cc");
    g.play(B, "gg");
    assert_eq!(placement(&g), (1, 2));
    let s = g.referee(Body::PairingModified {
        swap_colours: false,
        handicap: Some(2),
        komi_half_points: None,
        reason: "the pairing gave two stones".into(),
    });
    assert!(has_rule(&g.state(), s, "Colour or handicap error"));
    assert_eq!(placement(&g), (0, 2));
    assert_eq!(g.state().to_move, Some(W));
    g.play(W, "ee");
    assert_eq!(g.state().to_move, Some(B));
    assert!(g
        .state()
        .consequences
        .iter()
        .all(|c| !c.what.contains("alternation")));
}

#[test]
fn the_state_at_an_earlier_event_during_placement_matches_the_replay() {
    let mut g = free("lgc-2023", 3);
    let first = g.play(B, "cc");
    g.play(B, "gc");
    g.referee(unwind_to(first));
    g.play(B, "gg");
    let at_first = kifu_game::GameState::at(&g.events, first);
    let BoardState::Go(b) = &at_first.board else {
        panic!("a Go board")
    };
    assert_eq!(b.pending_handicap, 2);
    assert_eq!(b.handicap_stones().len(), 1);
    // The whole game, event by event, equals its replay (`G::state`).
    assert_eq!(placement(&g), (1, 2));
}

#[test]
fn a_modified_pairing_after_play_began_leaves_the_placement_as_it_happened() {
    let mut g = free("lgc-2023", 2);
    g.play(B, "cc");
    g.play(B, "gg");
    g.play(W, "ee");
    g.play(B, "ge");
    let rows = g.rows();
    // The pairing said two stones; three are counted from here on, the
    // stones standing as placed.
    g.referee(Body::PairingModified {
        swap_colours: false,
        handicap: Some(3),
        komi_half_points: None,
        reason: "the handicap agreed was three stones".into(),
    });
    assert_eq!(g.rows(), rows);
    assert_eq!(placement(&g), (0, 2));
    let st = g.state();
    assert_eq!(st.to_move, Some(W));
    let BoardState::Go(b) = &st.board else {
        panic!("a Go board")
    };
    assert_eq!(b.game().handicap(), 3, "the count uses the handicap used");
    assert!(
        b.verdicts.iter().all(|(_, v)| v.violations.is_empty()),
        "{:?}",
        b.verdicts
    );
}

fn final_score(g: &G) -> Option<kifu_go::Score> {
    match &g.state().board {
        BoardState::Go(b) => b.final_score.clone(),
        _ => panic!("a Go board"),
    }
}

#[test]
fn lgc_2023_ending_the_game_a_rebuild_that_keeps_the_end_keeps_the_count() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    g.pass(W);
    g.push(B, Body::StatusAgreed { dead: vec![] });
    let last = g.push(W, Body::StatusAgreed { dead: vec![] });
    let counted = final_score(&g).expect("counted at the agreement");
    // A judgement that unwinds to the last event takes nothing back: the
    // board is rebuilt from its operations and ends as it ended.
    g.referee(unwind_to(last));
    assert_eq!(final_score(&g), Some(counted));
}

#[test]
fn uec_cup_a_2_a_rebuild_after_the_end_keeps_kifus_own_count_for_the_programs() {
    let mut g = G::go("uec-cup");
    g.start_clock();
    for row in "abcdefghi".chars() {
        g.mv(B, &format!("c{row}"));
        g.mv(W, &format!("g{row}"));
    }
    g.pass(B);
    g.pass(W);
    let mut last = 0;
    for c in [B, W] {
        last = g.recorder(Body::DeadStonesMarked {
            player: c,
            dead: vec![],
        });
    }
    let counted = final_score(&g).expect("counted at the end");
    g.referee(unwind_to(last));
    assert_eq!(final_score(&g), Some(counted));
    for c in [B, W] {
        g.recorder(Body::ProgramAnswered {
            player: c,
            command: "final_score".into(),
            answer: "W+6.5".into(),
        });
    }
    let st = g.state();
    let pc = st.result.programs_count.as_ref().expect("recorded");
    assert!(pc.kifu_count.is_some(), "{pc:?}");
    assert_eq!(pc.kifu_count, pc.agreed);
}

#[test]
fn uec_cup_e_a_rebuild_after_the_move_limit_keeps_the_referees_count() {
    let mut g = G::with(GameKind::Go, "uec-cup", 19, TimeControl::Untimed, |_| {});
    let mut n = 0;
    'outer: for y in 0..19u8 {
        for x in 0..19u8 {
            if n == 200 {
                break 'outer;
            }
            let at = format!("{}{}", (b'a' + x) as char, (b'a' + y) as char);
            g.play(B, &at);
            g.push(
                W,
                Body::Pass {
                    player: W,
                    pass_stone: false,
                },
            );
            n += 1;
        }
    }
    // The referee counts with one Black stone settled dead.
    let count = g.referee(Body::StatusAgreed {
        dead: vec![p("aa")],
    });
    let counted = final_score(&g).expect("the referee's count");
    assert_eq!(counted.white.dead_stones, 1, "{counted:?}");
    g.referee(unwind_to(count));
    assert_eq!(final_score(&g), Some(counted));
}

fn irregular(g: &mut G, kind: IrregularityKind, about: Option<u64>, fix: BoardFix) -> u64 {
    g.referee(Body::IrregularityRecorded {
        kind,
        about_seq: about,
        fix,
        statement: "fixed at the board".into(),
    })
}

fn no_fix() -> BoardFix {
    BoardFix {
        remove: vec![],
        as_prisoners: false,
        place: vec![],
    }
}

#[test]
fn bga_irregular_moves_vi_wrong_colour_noticed_at_once_replaces_that_stone_after_another_fix() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ba");
    g.mv(W, "aa");
    let s = g.push(
        B,
        Body::StonePlaced {
            player: B,
            stone: W,
            point: p("ab"),
        },
    );
    // A disturbance elsewhere is put right first (a stone knocked back onto
    // its point): no move is played in between.
    irregular(
        &mut g,
        IrregularityKind::PositionDisturbed,
        None,
        BoardFix {
            remove: vec![],
            as_prisoners: false,
            place: vec![(W, p("ii"))],
        },
    );
    irregular(&mut g, IrregularityKind::WrongColour, Some(s), no_fix());
    let rows = g.rows();
    assert_eq!(cell(&rows, "ab"), 'X', "replaced with the right colour");
    assert_eq!(cell(&rows, "aa"), '.', "and the capture completed");
    assert_eq!(cell(&rows, "ii"), 'O', "the earlier fix stands");
}

#[test]
fn bga_irregular_moves_v_an_ambiguous_free_handicap_stone_is_positioned_on_its_point() {
    let mut g = free("bga-aga", 2);
    let s = g.play(B, "cc");
    let i = irregular(
        &mut g,
        IrregularityKind::AmbiguousPlacement,
        Some(s),
        BoardFix {
            remove: vec![],
            as_prisoners: false,
            place: vec![(B, p("dc"))],
        },
    );
    let rows = g.rows();
    assert_eq!(cell(&rows, "cc"), '.');
    assert_eq!(cell(&rows, "dc"), 'X');
    assert!(has_rule(&g.state(), i, "Irregular Moves, V."));
    assert_eq!(placement(&g), (1, 1));
    g.play(B, "gg");
    assert_eq!(placement(&g), (0, 2));
    assert_eq!(g.state().to_move, Some(W));
}
