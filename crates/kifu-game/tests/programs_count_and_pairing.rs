//! The programs' own count under the UEC Cup (a) 2 and 3) and the modified
//! pairing (kind 53, LGC 2023 "Colour or handicap error"), as the documents
//! rule them. Every scenario's consequences are checked against the words of
//! their documents (`support::check_citations`).

mod support;
use support::*;

use kifu_game::agreed::parse_final_score;
use kifu_game::{GameState, Phase};
use kifu_ledger::*;

const A2: &str = "2. If the dead stones and the size of the territory by both programs match";
const A3: &str = "3. If they do not match, the referee corrects the mismatching parts";

/// Two walls: Black owns columns a and b (18 points), White columns h and j
/// (18 points); the three columns between are neutral. With 6.5 komi kifu
/// counts W+6.5. Both programs pass.
fn walls(g: &mut G) {
    g.start_clock();
    for row in "abcdefghi".chars() {
        g.mv(B, &format!("c{row}"));
        g.mv(W, &format!("g{row}"));
    }
    g.pass(B);
    g.pass(W);
}

fn dead_marked(g: &mut G) {
    for c in [B, W] {
        g.recorder(Body::DeadStonesMarked {
            player: c,
            dead: vec![],
        });
    }
}

fn answered(g: &mut G, c: Color, answer: &str) -> u64 {
    g.recorder(Body::ProgramAnswered {
        player: c,
        command: "final_score".into(),
        answer: answer.into(),
    })
}

fn score(c: Color, half_points: i32) -> GameResult {
    win(
        c,
        ResultBy::Score {
            margin_half_points: half_points,
        },
    )
}

#[test]
fn uec_cup_a_2_matching_counts_are_the_result_and_kifus_own_count_agrees() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    dead_marked(&mut g);
    answered(&mut g, B, "W+6.5");
    let last = answered(&mut g, W, "W+6.5");
    let st = g.state();
    let d = st.result.computed().expect("decided");
    assert_eq!(d.result, score(W, 13));
    assert!(
        d.quote.as_deref().is_some_and(|q| q.starts_with(A2)),
        "{d:?}"
    );
    assert!(
        st.result.mismatches.is_empty(),
        "{:?}",
        st.result.mismatches
    );
    assert!(st
        .consequences_of(last)
        .any(|c| c.what.contains("kifu's own count agrees")));
    let pc = st.result.programs_count.as_ref().expect("recorded");
    assert_eq!(pc.kifu_count, Some(score(W, 13)));
    assert_eq!(pc.agreed, Some(score(W, 13)));
}

/// The GNU Go game: the programs agreed W+2.5 where kifu counted W+3.5. The
/// agreed score is the result; kifu's count stays beside it and the
/// difference is reported.
#[test]
fn uec_cup_a_2_the_agreed_score_is_the_result_and_a_different_kifu_count_is_reported_beside_it() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    dead_marked(&mut g);
    answered(&mut g, B, "W+5.5");
    let last = answered(&mut g, W, "W+5.5");
    let st = g.state();
    let d = st.result.computed().expect("decided");
    assert_eq!(d.result, score(W, 11), "the programs' agreed score");
    assert_eq!(d.at_seq, last);
    assert!(
        d.rule.contains("a)Both programs pass consecutively"),
        "{d:?}"
    );
    assert!(
        d.quote.as_deref().is_some_and(|q| q.starts_with(A2)),
        "{d:?}"
    );
    // kifu's own count is kept and shown.
    let count = st.count_text().expect("kifu counted");
    assert!(count.ends_with("W+6.5"), "{count}");
    assert!(
        st.result
            .mismatches
            .iter()
            .any(|m| m.contains("both programs count W+5.5")
                && m.contains("kifu's own count of the position gives W+6.5")),
        "{:?}",
        st.result.mismatches
    );
    assert!(st.consequences_of(last).any(|c| c
        .what
        .contains("this is used as the result of the game")
        && c.what.contains("W+6.5")
        && c.quote.as_deref().is_some_and(|q| q.starts_with(A2))));
    assert!(matches!(st.phase, Phase::Finished { .. }));
    // The server's declaration of the agreed score matches the rules.
    g.recorder(Body::ResultDeclared(score(W, 11)));
    let st = g.state();
    assert!(st.result.declared.iter().all(|s| s.matches == Some(true)));
}

#[test]
fn uec_cup_a_2_answers_recorded_before_the_dead_stones_weigh_once_the_stones_match() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    answered(&mut g, B, "W+5.5");
    answered(&mut g, W, "W+5.5");
    assert!(
        g.state().result.computed().is_none(),
        "the dead stones first"
    );
    dead_marked(&mut g);
    let st = g.state();
    assert_eq!(st.result.computed().expect("decided").result, score(W, 11));
}

#[test]
fn uec_cup_a_3_counts_that_do_not_match_are_a_question_for_the_referee() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    dead_marked(&mut g);
    answered(&mut g, B, "B+0.5");
    let last = answered(&mut g, W, "W+6.5");
    let st = g.state();
    assert!(
        st.result.computed().is_none(),
        "no result until the referee: {:?}",
        st.result.computed()
    );
    assert_eq!(st.phase, Phase::AwaitingReferee);
    assert!(st
        .consequences_of(last)
        .any(|c| c.what.contains("a question for the referee")
            && c.quote.as_deref().is_some_and(|q| q.starts_with(A3))));
    // The referee's ruling decides.
    let r = g.referee(Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "the count is W+6.5".into(),
        reasons: "counted under the witness of both operators".into(),
        rules_cited: vec!["UEC Cup a) 3".into()],
        effects: vec![RulingEffect::SetResult(score(W, 13))],
    }));
    let st = g.state();
    let d = st.result.computed().expect("ruled");
    assert_eq!(d.result, score(W, 13));
    assert_eq!(d.at_seq, r);
}

#[test]
fn uec_cup_a_3_matching_counts_with_different_dead_stones_are_for_the_referee() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    g.recorder(Body::DeadStonesMarked {
        player: B,
        dead: vec![p("ga")],
    });
    g.recorder(Body::DeadStonesMarked {
        player: W,
        dead: vec![],
    });
    answered(&mut g, B, "W+6.5");
    let last = answered(&mut g, W, "W+6.5");
    let st = g.state();
    assert!(st.result.computed().is_none());
    assert!(st
        .consequences_of(last)
        .any(|c| c.what.contains("dead stones displayed do not")
            && c.quote.as_deref().is_some_and(|q| q.starts_with(A3))));
}

#[test]
fn uec_cup_a_3_an_unreadable_count_is_for_the_referee() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    dead_marked(&mut g);
    answered(&mut g, B, "W+6.5");
    answered(&mut g, W, "I resign");
    let st = g.state();
    assert!(st.result.computed().is_none());
    assert_eq!(st.phase, Phase::AwaitingReferee);
}

#[test]
fn one_programs_answer_alone_changes_nothing() {
    let mut g = G::go("uec-cup");
    walls(&mut g);
    dead_marked(&mut g);
    answered(&mut g, B, "W+2.5");
    g.recorder(Body::ProgramAnswered {
        player: W,
        command: "final_status_list dead".into(),
        answer: "".into(),
    });
    let st = g.state();
    assert_eq!(
        st.result.computed().expect("kifu's count").result,
        score(W, 13)
    );
    assert!(st.result.mismatches.is_empty());
}

#[test]
fn gtp_final_score_answers_are_read_as_results() {
    assert_eq!(parse_final_score("W+2.5"), Some(score(W, 5)));
    assert_eq!(parse_final_score(" B+10 "), Some(score(B, 20)));
    assert_eq!(parse_final_score("B+3.0"), Some(score(B, 6)));
    let draw = parse_final_score("0").expect("jigo");
    assert_eq!(draw.outcome, Outcome::Draw);
    for bad in ["", "W+", "W+2.7", "X+1", "W+-1", "B+0", "W+R", "resign"] {
        assert_eq!(parse_final_score(bad), None, "{bad:?}");
    }
}

/// The White seat plays the black stones and the Black seat the white ones
/// for four completed moves.
fn seats_swapped(g: &mut G) {
    g.start_clock();
    for (seat, stone, at) in [(W, B, "ee"), (B, W, "cc"), (W, B, "gg"), (B, W, "cg")] {
        g.push(
            seat,
            Body::StonePlaced {
                player: seat,
                stone,
                point: p(at),
            },
        );
        g.push(seat, Body::ClockPressed { player: seat });
    }
}

fn pairing(swap_colours: bool, komi_half_points: Option<i32>) -> Body {
    Body::PairingModified {
        swap_colours,
        handicap: None,
        komi_half_points,
        reason: "the players sat at the wrong colours; noticed after the third move".into(),
    }
}

fn colour_error() -> Body {
    Body::IrregularityRecorded {
        kind: IrregularityKind::ColourOrHandicapError,
        about_seq: None,
        fix: BoardFix {
            remove: vec![],
            as_prisoners: false,
            place: vec![],
        },
        statement: "colours swapped; the pairing is modified".into(),
    }
}

fn after_swap(g: &mut G) -> u64 {
    let s = g.push(
        W,
        Body::StonePlaced {
            player: W,
            stone: B,
            point: p("gc"),
        },
    );
    g.push(W, Body::ClockPressed { player: W });
    s
}

#[test]
fn lgc_2023_colour_or_handicap_error_a_modified_pairing_swaps_the_seats_explicitly() {
    let mut g = G::go("lgc-2023");
    seats_swapped(&mut g);
    let m = g.referee(pairing(true, None));
    let after = after_swap(&mut g);
    let st = g.state();
    assert!(st.colours_swapped);
    assert!(st
        .consequences_of(m)
        .any(|c| c.what.contains("the seats exchange colours")
            && c.rule.contains("\"Colour or handicap error\"")));
    assert!(
        st.consequences_of(after)
            .all(|c| !c.what.contains("wrong colour")),
        "{:?}",
        st.consequences_of(after).collect::<Vec<_>>()
    );
    assert!(
        st.consequences
            .iter()
            .all(|c| !c.what.contains("clock fact not applicable")),
        "each seat presses the clock of the colour it plays"
    );
    assert_eq!(cell(&g.rows(), "gc"), 'X');
    assert_eq!(st.to_move, Some(W));
    // The same game recorded the older way (the exchange inferred from the
    // irregularity alone) projects the same board, turn and clocks.
    let mut old = G::go("lgc-2023");
    seats_swapped(&mut old);
    old.referee(colour_error());
    after_swap(&mut old);
    let o = old.state();
    assert!(o.colours_swapped);
    assert_eq!(old.rows(), g.rows());
    assert_eq!(o.to_move, st.to_move);
    assert_eq!(o.clock.running, st.clock.running);
}

#[test]
fn lgc_2023_colour_or_handicap_error_a_modified_pairing_after_an_inferred_swap_does_not_swap_twice()
{
    let mut g = G::go("lgc-2023");
    seats_swapped(&mut g);
    g.referee(colour_error());
    let m = g.referee(pairing(true, None));
    after_swap(&mut g);
    let st = g.state();
    assert!(st.colours_swapped);
    assert!(st
        .consequences_of(m)
        .any(|c| c.what.contains("as already applied")));
    assert_eq!(cell(&g.rows(), "gc"), 'X');
    assert_eq!(st.to_move, Some(W));
    // Stated back (false): each seat plays its genesis colour again.
    let back = g.director(pairing(false, None));
    let st = g.state();
    assert!(!st.colours_swapped);
    assert!(st
        .consequences_of(back)
        .any(|c| c.what.contains("the colour the genesis gives it")));
}

#[test]
fn uec_cup_k_a_modified_komi_is_used_in_the_count() {
    let mut g = G::go("uec-cup");
    // The genesis says 6.5; the game was played with 0.5 komi.
    g.referee(pairing(false, Some(1)));
    walls(&mut g);
    dead_marked(&mut g);
    let st = g.state();
    assert_eq!(st.result.computed().expect("counted").result, score(W, 1));
    assert!(st.count_text().expect("count").contains("komi ½"));
}

#[test]
fn a_modified_pairing_is_told_in_words_in_the_story() {
    let mut g = G::go("lgc-2023");
    let s = g.referee(pairing(true, Some(13)));
    let st: GameState = g.state();
    let note = st.events.iter().find(|e| e.seq == s).expect("told");
    assert_eq!(note.kind, "pairing modified");
    assert!(
        note.summary
            .contains("the seats play each other's colours, komi 6½"),
        "{}",
        note.summary
    );
}

#[test]
fn uec_cup_e_at_the_move_limit_the_programs_counts_are_evidence_only() {
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
    answered(&mut g, B, "W+0.5");
    let last = answered(&mut g, W, "W+0.5");
    let st = g.state();
    let d = st.result.computed().expect("move 400");
    assert!(d.rule.contains("400th"), "{d:?}");
    assert_eq!(d.result.outcome, Outcome::Win(B), "the referee's count");
    assert!(st
        .consequences_of(last)
        .any(|c| c.what.contains("evidence only") && c.rule.contains("400th")));
    assert!(
        st.result.mismatches.is_empty(),
        "{:?}",
        st.result.mismatches
    );
}
