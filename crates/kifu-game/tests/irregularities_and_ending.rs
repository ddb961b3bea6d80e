//! Irregularities and their fixes (BGA "Irregular Moves", LGC 2023's
//! irregularities), and the ending procedure of each Go profile.

mod support;
use support::*;

use kifu_game::{BoardState, Phase};
use kifu_ledger::*;

fn fix(remove: &[&str], as_prisoners: bool, place: &[(Color, &str)]) -> BoardFix {
    BoardFix {
        remove: remove.iter().map(|s| p(s)).collect(),
        as_prisoners,
        place: place.iter().map(|(c, s)| (*c, p(s))).collect(),
    }
}

fn irregular(g: &mut G, kind: IrregularityKind, about: Option<u64>, f: BoardFix) -> u64 {
    g.referee(Body::IrregularityRecorded {
        kind,
        about_seq: about,
        fix: f,
        statement: "fixed at the board".into(),
    })
}

fn prisoners(g: &G) -> (u32, u32) {
    match &g.state().board {
        BoardState::Go(b) => (b.view().black_prisoners, b.view().white_prisoners),
        _ => panic!("go"),
    }
}

#[test]
fn bga_irregular_moves_i_captured_stones_not_removed_the_projection_counts_them() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ba");
    g.mv(W, "aa");
    let cap = g.mv(B, "ab");
    // The engine removed the captured stone; the fix confirms it.
    let s = irregular(
        &mut g,
        IrregularityKind::CapturedStonesNotRemoved,
        Some(cap),
        fix(&["aa"], true, &[]),
    );
    let st = g.state();
    assert_eq!(cell(&g.rows(), "aa"), '.');
    assert_eq!(prisoners(&g), (1, 0), "given to Black once, not twice");
    assert!(has_rule(&st, s, "Irregular Moves, I"));
}

#[test]
fn bga_irregular_moves_ii_live_stones_removed_are_replaced() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "ef");
    // Recorded as the board shows it after a player wrongly took the stone off.
    let s = irregular(
        &mut g,
        IrregularityKind::LiveStonesRemoved,
        None,
        fix(&[], false, &[(W, "ef")]),
    );
    assert_eq!(cell(&g.rows(), "ef"), 'O', "the stone stays on the board");
    assert_eq!(cell(&g.rows(), "ee"), 'X', "the capturing stone stays");
    assert!(has_rule(&g.state(), s, "Irregular Moves, ii"));
}

#[test]
fn bga_irregular_moves_iii_handicap_stones_misplaced_set_right_before_whites_first_move() {
    let mut g = G::with(GameKind::Go, "bga-aga", 9, fischer(), |g| g.handicap = 2);
    let before = g.rows();
    let star = ["gc", "cg", "cc", "gg"]
        .into_iter()
        .find(|s| cell(&before, s) == 'X')
        .expect("a handicap stone");
    irregular(
        &mut g,
        IrregularityKind::HandicapStonesMisplaced,
        None,
        fix(&[star], false, &[(B, "ee")]),
    );
    let rows = g.rows();
    assert_eq!(cell(&rows, star), '.');
    assert_eq!(cell(&rows, "ee"), 'X');
}

#[test]
fn bga_irregular_moves_iii_handicap_stones_misplaced_noticed_later_carry_on() {
    let mut g = G::with(GameKind::Go, "bga-aga", 9, fischer(), |g| g.handicap = 2);
    g.start_clock();
    g.mv(W, "ee");
    let before = g.rows();
    irregular(
        &mut g,
        IrregularityKind::HandicapStonesMisplaced,
        None,
        fix(&["gc"], false, &[(B, "dd")]),
    );
    assert_eq!(g.rows(), before, "just carry on");
}

#[test]
fn bga_irregular_moves_iv_stone_on_an_occupied_point_is_removed_opponents_turn() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    g.mv(B, "ee");
    let s = g.play(W, "ee");
    let i = irregular(
        &mut g,
        IrregularityKind::StoneOnOccupiedPoint,
        Some(s),
        fix(&[], false, &[]),
    );
    let st = g.state();
    assert_eq!(cell(&g.rows(), "ee"), 'X');
    assert_eq!(st.to_move, Some(B), "it is then the opponent's turn");
    assert!(st
        .consequences_of(i)
        .any(|c| c.what.contains("noticed immediately")));
}

#[test]
fn bga_irregular_moves_v_ambiguous_placement_positioned_on_the_intended_point() {
    let mut g = G::go("bga-aga");
    g.start_clock();
    let s = g.mv(B, "ee");
    let i = irregular(
        &mut g,
        IrregularityKind::AmbiguousPlacement,
        Some(s),
        fix(&[], false, &[(B, "fe")]),
    );
    assert_eq!(cell(&g.rows(), "ee"), '.');
    assert_eq!(cell(&g.rows(), "fe"), 'X');
    assert!(has_rule(&g.state(), i, "Irregular Moves, V."));
}

#[test]
fn bga_irregular_moves_vi_wrong_colour_noticed_immediately_replaced_and_captures_completed() {
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
    assert_eq!(cell(&g.rows(), "ab"), 'O');
    irregular(
        &mut g,
        IrregularityKind::WrongColour,
        Some(s),
        fix(&[], false, &[]),
    );
    let rows = g.rows();
    assert_eq!(cell(&rows, "ab"), 'X', "replaced with the right colour");
    assert_eq!(cell(&rows, "aa"), '.', "and the capture completed");
    assert_eq!(prisoners(&g), (1, 0));
}

#[test]
fn lgc_2023_colour_or_handicap_error_before_the_third_move_restarts_the_game() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    let s = irregular(
        &mut g,
        IrregularityKind::ColourOrHandicapError,
        None,
        fix(&[], false, &[]),
    );
    assert!(
        g.rows().iter().all(|r| r.chars().all(|c| c == '.')),
        "restarted"
    );
    assert!(has_rule(&g.state(), s, "Colour or handicap error"));
}

#[test]
fn lgc_2023_colour_or_handicap_error_later_continues_with_colours_used() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    g.mv(B, "gg");
    let s = irregular(
        &mut g,
        IrregularityKind::ColourOrHandicapError,
        None,
        fix(&[], false, &[]),
    );
    assert_eq!(cell(&g.rows(), "gg"), 'X');
    assert!(g
        .state()
        .consequences_of(s)
        .any(|c| c.what.contains("pairing is modified")));
}

#[test]
fn lgc_2023_position_disturbance_the_referee_corrects_the_position() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    irregular(
        &mut g,
        IrregularityKind::PositionDisturbed,
        None,
        fix(&["cc"], false, &[(W, "cd")]),
    );
    assert_eq!(cell(&g.rows(), "cc"), '.');
    assert_eq!(cell(&g.rows(), "cd"), 'O');
    // Play goes on from the corrected position.
    g.mv(B, "dd");
    assert_eq!(cell(&g.rows(), "dd"), 'X');
}

#[test]
fn lgc_2023_ending_the_game_white_passes_last_pause_agreement_and_count() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    assert_ne!(
        g.state().phase,
        Phase::StatusAssessment,
        "Black passed last: no pause yet"
    );
    g.pass(W);
    assert_eq!(g.state().phase, Phase::StatusAssessment);
    g.push(B, Body::StatusAgreed { dead: vec![] });
    assert!(
        g.state().result.computed().is_none(),
        "one agreement is not enough"
    );
    g.push(W, Body::StatusAgreed { dead: vec![] });
    let st = g.state();
    let d = st.result.computed().expect("counted");
    // Black: 80 points of territory, minus two prisoners (pass stones) White holds.
    assert_eq!(d.result.outcome, Outcome::Win(B));
    assert!(matches!(st.phase, Phase::Finished { .. }));
}

#[test]
fn lgc_2023_ending_the_game_dispute_resumes_with_black_first_and_two_passes_stop_it() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    g.pass(B);
    g.pass(W);
    g.push(
        W,
        Body::StatusDisputed {
            player: W,
            statement: "c3 lives".into(),
        },
    );
    let st = g.state();
    assert_eq!(st.phase, Phase::Resumption);
    assert_eq!(st.to_move, Some(B), "Black going first");
    g.pass(B);
    g.pass(W);
    let st = g.state();
    let d = st.result.computed().expect("stopped");
    assert!(d.rule.contains("Ending the game"));
}

#[test]
fn london_open_rule_6_resumption_starts_with_the_opponent_of_the_last_passer() {
    let mut g = G::go("london-open");
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    assert_eq!(g.state().phase, Phase::StatusAssessment);
    g.push(
        B,
        Body::StatusDisputed {
            player: B,
            statement: "disputed".into(),
        },
    );
    assert_eq!(g.state().to_move, Some(W));
}

#[test]
fn uec_cup_a_matching_dead_stones_are_the_result_and_no_resumption() {
    let mut g = G::with(
        GameKind::Go,
        "uec-cup",
        9,
        TimeControl::SuddenDeath { main_ms: 30 * MIN },
        |_| {},
    );
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    g.push(
        W,
        Body::StatusDisputed {
            player: W,
            statement: "resume".into(),
        },
    );
    assert_eq!(g.state().phase, Phase::StatusAssessment, "no resumption");
    g.recorder(Body::DeadStonesMarked {
        player: B,
        dead: vec![],
    });
    g.recorder(Body::DeadStonesMarked {
        player: W,
        dead: vec![p("aa")],
    });
    assert!(
        g.state().result.computed().is_none(),
        "the marks differ: the referee corrects"
    );
    g.referee(Body::StatusAgreed { dead: vec![] });
    let st = g.state();
    assert_eq!(
        st.result.computed().unwrap().result.outcome,
        Outcome::Win(B)
    );
}

#[test]
fn uec_cup_e_move_400_ends_the_game_and_the_referee_counts() {
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
    let st = g.state();
    let d = st.result.computed().expect("move 400");
    assert!(d.rule.contains("400th"));
    assert_eq!(d.result.outcome, Outcome::Win(B));
}

#[test]
fn uec_cup_g_repetition_of_a_position_is_a_draw() {
    // The triple-ko position of GNU Go's regression suite (threeko1.sgf),
    // set on the board, then the six-move cycle: every move legal under
    // basic ko, and the position comes back.
    let Some(path) =
        support::fixtures::third_party("go/edge-cases/gnugo-regression/seki_exotics/threeko1.sgf")
    else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("readable fixture");
    let record = kifu_go::sgf::read(&text).expect("sgf");
    let setup = kifu_go::setup_from_sgf(&record).expect("setup");
    let size = setup.size;
    let mut g = G::with(GameKind::Go, "uec-cup", size, TimeControl::Untimed, |_| {});
    let lp = |q: &kifu_go::Point| Point { x: q.x, y: q.y };
    let mut place: Vec<(Color, Point)> = setup.black.iter().map(|q| (B, lp(q))).collect();
    place.extend(setup.white.iter().map(|q| (W, lp(q))));
    g.referee(Body::IrregularityRecorded {
        kind: IrregularityKind::PositionDisturbed,
        about_seq: None,
        fix: BoardFix {
            remove: vec![],
            as_prisoners: false,
            place,
        },
        statement: "the position as set up".into(),
    });
    let cycle = [
        (B, "A3"),
        (W, "E1"),
        (B, "D4"),
        (W, "A2"),
        (B, "F1"),
        (W, "D3"),
    ];
    for (c, v) in cycle {
        let q = kifu_go::Point::from_gtp(v, size).unwrap();
        g.push(
            c,
            Body::StonePlaced {
                player: c,
                stone: c,
                point: lp(&q),
            },
        );
    }
    let st = g.state();
    let d = st.result.computed().expect("repetition");
    assert_eq!(
        d.result,
        GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Repetition
        }
    );
    assert!(d.rule.contains("g) Repetition"));
}

/// A pass and the clock press that completes it.
fn pass_pressed(g: &mut G, c: Color) -> u64 {
    let s = g.pass(c);
    g.push(c, Body::ClockPressed { player: c });
    s
}

#[test]
fn lgc_2023_ending_the_game_4_the_clock_is_now_paused() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(10_000);
    g.mv(B, "ee");
    g.at(20_000);
    g.mv(W, "cc");
    g.at(30_000);
    pass_pressed(&mut g, B);
    g.at(40_000);
    pass_pressed(&mut g, W);
    let st = g.state();
    assert_eq!(st.phase, Phase::StatusAssessment);
    assert_eq!(st.clock.running, None, "no clock runs while play pauses");
    assert_eq!(st.clock.paused.as_deref(), Some("STATUS_ASSESSMENT"));
    let press = g.chain.head.seq;
    assert!(
        has_rule(&st, press, "\"Ending the game\""),
        "{:?}",
        st.consequences_of(press).collect::<Vec<_>>()
    );
    assert!(st
        .consequences_of(press)
        .any(|c| c.quote.as_deref() == Some("The clock is now paused.")));
    let black = st.clock_faces().unwrap()[0];
    // Ten minutes of talk about the groups: nobody's time.
    g.at(10 * MIN);
    g.push(
        W,
        Body::StatusDisputed {
            player: W,
            statement: "c3 lives".into(),
        },
    );
    let st = g.state();
    assert_eq!(st.phase, Phase::Resumption);
    assert_eq!(
        st.clock.running,
        Some(B),
        "play resumes on the clock, Black first"
    );
    assert_eq!(st.clock_faces().unwrap()[0], black);
    // Black's press at the start of the resumption starts White's clock,
    // not the other way round.
    g.at(10 * MIN + 5_000);
    g.mv(B, "gg");
    let st = g.state();
    assert_eq!(st.clock.running, Some(W));
    assert!(!st
        .consequences
        .iter()
        .any(|c| c.what.contains("not applicable")));
}

#[test]
fn london_open_rule_5_play_pauses_after_two_consecutive_passes_and_the_clocks_stop() {
    let mut g = G::go("london-open");
    g.start_clock();
    g.mv(B, "ee");
    pass_pressed(&mut g, W);
    pass_pressed(&mut g, B);
    let st = g.state();
    assert_eq!(st.phase, Phase::StatusAssessment);
    assert_eq!(st.clock.running, None);
    // The players also record the pause themselves: it confirms it.
    g.push(
        B,
        Body::ClockPaused {
            reason: PauseReason::StatusAssessment,
        },
    );
    let st = g.state();
    assert_eq!(st.clock.paused.as_deref(), Some("STATUS_ASSESSMENT"));
    assert!(!st.consequences.iter().any(|c| c.what.contains("now also")));
}

/// A stone on an occupied point is an irregularity under LGC 2023, not an
/// illegal move: the preview says so, with the clause, so that a device
/// asks the player before recording it.
#[test]
fn lgc_2023_stone_on_an_occupied_point_is_previewed_as_an_irregularity() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    let draft = Event::next(
        g.chain.game,
        g.chain.head,
        g.chain.at_ms + 1000,
        g.cast.white.public(),
        Body::StonePlaced {
            player: W,
            stone: W,
            point: p("ee"),
        },
    );
    let preview = kifu_game::preview::preview(&g.events, &draft);
    assert!(!preview.illegal_move);
    assert!(preview.irregular_move);
    assert!(preview
        .consequences
        .iter()
        .any(|c| c.what.contains("occupied point") && c.rule.contains("LGC 2023")));
    // A legal move is neither.
    let legal = Event {
        body: Body::StonePlaced {
            player: W,
            stone: W,
            point: p("cc"),
        },
        ..draft
    };
    let preview = kifu_game::preview::preview(&g.events, &legal);
    assert!(!preview.illegal_move && !preview.irregular_move);
}
