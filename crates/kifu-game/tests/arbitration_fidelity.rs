//! Arbitration situations as the documents rule them: the UEC Cup's illegal
//! moves, colour errors, rewind offers, negative territory, late arrival and
//! the server's clock. Every scenario's consequences are checked against
//! the words of their documents (`support::check_citations`).

mod support;
use support::*;

use kifu_game::BoardState;
use kifu_ledger::*;

#[test]
fn uec_cup_f_a_stone_on_an_occupied_point_is_an_illegal_move_and_loses() {
    let mut g = G::go("uec-cup");
    g.start_clock();
    g.mv(B, "ee");
    let s = g.mv(W, "ee");
    let st = g.state();
    assert!(
        st.consequences_of(s)
            .any(|c| c.what.contains("an illegal move")
                && c.rule.contains("f) When illegal moves are played.")),
        "{:?}",
        st.consequences_of(s).collect::<Vec<_>>()
    );
    let n = g.notice(B, s);
    let st = g.state();
    let d = st.result.computed().expect("decided");
    assert_eq!(d.result, win(B, ResultBy::IllegalMove));
    assert!(has_rule(&st, n, "f) When illegal moves are played."));
}

#[test]
fn uec_cup_f_an_illegal_move_nobody_points_out_changes_nothing_and_the_normal_ending_decides() {
    let mut g = G::go("uec-cup");
    let ko = ko_game(&mut g);
    g.mv(B, "ee");
    g.mv(W, "gg");
    g.pass(B);
    g.pass(W);
    for c in [B, W] {
        g.push(
            c,
            Body::DeadStonesMarked {
                player: c,
                dead: vec![],
            },
        );
    }
    let st = g.state();
    assert!(
        st.consequences
            .iter()
            .all(|c| !c.what.contains("after the end")),
        "no move is flagged as after the end"
    );
    assert!(st
        .consequences_of(ko)
        .all(|c| !c.what.contains("game ends")));
    let d = st.result.computed().expect("the normal ending decides");
    assert!(
        matches!(d.result.by, ResultBy::Score { .. }),
        "{:?}",
        d.result
    );
    assert!(d.rule.contains("a)Both programs pass consecutively"));
}

#[test]
fn lgc_2023_colour_or_handicap_error_a_stone_whose_clock_is_not_pressed_is_not_a_completed_move() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.mv(W, "cc");
    g.play(B, "gg");
    let i = g.referee(Body::IrregularityRecorded {
        kind: IrregularityKind::ColourOrHandicapError,
        about_seq: None,
        fix: BoardFix {
            remove: vec![],
            as_prisoners: false,
            place: vec![],
        },
        statement: "the players sat at the wrong colours".into(),
    });
    let st = g.state();
    assert!(
        g.rows().iter().all(|r| r.chars().all(|c| c == '.')),
        "restarted"
    );
    assert!(st.consequences_of(i).any(|c| c.what.contains("restarted")));
    assert!(has_rule(&st, i, "\"Colour or handicap error\""));
}

#[test]
fn lgc_2023_colour_or_handicap_error_noticed_later_the_seats_play_the_colours_used() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    // The White seat plays the black stones, the Black seat the white ones.
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
    let i = g.referee(Body::IrregularityRecorded {
        kind: IrregularityKind::ColourOrHandicapError,
        about_seq: None,
        fix: BoardFix {
            remove: vec![],
            as_prisoners: false,
            place: vec![],
        },
        statement: "colours swapped; the pairing is modified".into(),
    });
    let after = g.push(
        W,
        Body::StonePlaced {
            player: W,
            stone: B,
            point: p("gc"),
        },
    );
    let st = g.state();
    assert!(st.colours_swapped);
    assert!(
        st.consequences
            .iter()
            .all(|c| !c.what.contains("clock fact not applicable")),
        "each seat presses the clock of the colour it plays"
    );
    assert!(st
        .consequences_of(i)
        .any(|c| c.what.contains("pairing is modified")));
    assert!(
        st.consequences_of(after)
            .all(|c| !c.what.contains("wrong colour")),
        "{:?}",
        st.consequences_of(after).collect::<Vec<_>>()
    );
    assert_eq!(cell(&g.rows(), "gc"), 'X');
    assert_eq!(st.to_move, Some(W));
}

#[test]
fn bga_illegal_moves_an_offer_to_rewind_closes_when_a_player_declines() {
    let mut g = G::go("bga-aga");
    let s = ko_game(&mut g);
    g.mv(B, "ee");
    g.notice(B, s);
    let d = g.push(
        W,
        Body::RewindDeclined {
            player: W,
            move_seq: s,
        },
    );
    for c in [B, W] {
        g.push(
            c,
            Body::RewindAgreed {
                player: c,
                move_seq: s,
            },
        );
    }
    let st = g.state();
    assert_eq!(cell(&g.rows(), "bb"), 'O', "not rewound");
    assert!(!st.illegal_moves[0].awaiting_agreement);
    assert!(st.consequences_of(d).any(|c| c.what.contains("closes")));
}

#[test]
fn bga_illegal_moves_an_offer_to_rewind_closes_when_play_continues() {
    let mut g = G::go("bga-aga");
    let s = ko_game(&mut g);
    g.mv(B, "ee");
    g.notice(B, s);
    g.mv(W, "gg");
    for c in [B, W] {
        g.push(
            c,
            Body::RewindAgreed {
                player: c,
                move_seq: s,
            },
        );
    }
    let st = g.state();
    assert_eq!(
        cell(&g.rows(), "bb"),
        'O',
        "two agreements after play went on rewind nothing"
    );
    assert!(st.illegal_moves[0].remedy.starts_with("no rewind"));
}

#[test]
fn lgc_2023_scoring_negative_territory_is_shown_as_its_own_figure() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    g.pass(W);
    for c in [B, W] {
        g.push(c, Body::StatusAgreed { dead: vec![] });
    }
    let st = g.state();
    let BoardState::Go(b) = &st.board else {
        panic!("go")
    };
    let score = b.final_score.as_ref().expect("counted");
    assert_eq!(
        score.white.negative_territory, 2,
        "two pass stones, no territory"
    );
    assert!(st.consequences.iter().any(
        |c| c.what.contains("negative territory 2") && c.rule.contains("Komi in an even game")
    ));
    assert!(st.consequences.iter().any(|c| c
        .quote
        .as_deref()
        .is_some_and(|q| q.contains("negative territory for your opponent"))));
}

#[test]
fn lgc_2023_start_a_first_press_30_minutes_late_without_an_arrival_is_a_question_for_the_referee() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(35 * MIN);
    let s = g.play(B, "ee");
    let press = g.push(B, Body::ClockPressed { player: B });
    let st = g.state();
    assert!(st.consequences_of(s).count() == 0 || st.result.computed().is_none());
    assert!(st.result.computed().is_none(), "a question, not a forfeit");
    assert!(st
        .consequences_of(press)
        .any(|c| c.what.contains("question for the referee") && c.rule.contains("\"Start\"")));
}

#[test]
fn uec_cup_3_time_limit_the_clocks_show_the_servers_count() {
    let mut g = G::with(
        GameKind::Go,
        "uec-cup",
        19,
        TimeControl::SuddenDeath { main_ms: 30 * MIN },
        |_| {},
    );
    g.start_clock();
    for (c, at) in [(B, "dd"), (W, "pp")] {
        g.play(c, at);
        g.recorder(Body::ServerTimeUsed {
            player: c,
            used_ms: 12 * MIN + 30_000,
        });
    }
    let st = g.state();
    assert_eq!(st.clock.remaining_ms, Some([17 * MIN + 30_000; 2]));
    assert_eq!(st.clock.resolution_ms, 100);
}

#[test]
fn words_every_consequence_and_story_line_is_in_words() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.push(
        B,
        Body::ClockPaused {
            reason: PauseReason::StatusAssessment,
        },
    );
    let st = g.state();
    let all: Vec<&String> = st
        .consequences
        .iter()
        .map(|c| &c.what)
        .chain(st.events.iter().map(|e| &e.summary))
        .collect();
    assert!(all.iter().any(|w| w.contains("assessment of the status")));
    for w in all {
        assert!(!w.contains("StatusAssessment") && !w.contains('{'), "{w}");
    }
}

#[test]
fn a_custom_profile_built_from_values_behaves_by_its_values_not_as_lgc() {
    // A club's computer tournament: LGC's values, except that a stone on an
    // occupied point is an illegal move and the first illegal move loses.
    let mut club = kifu_go::Ruleset::lgc_2023();
    club.name = "club-computer-cup".into();
    club.occupied_point = kifu_go::OccupiedPointRule::IllegalMove;
    club.illegal_move = kifu_go::IllegalMoveRemedy::FirstIllegalMoveLoses;
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    let s = g.mv(W, "ee");
    g.notice(B, s);
    let mut custom = kifu_game::GameState::with_ruleset(club);
    for e in &g.events {
        custom.apply(e);
    }
    let d = custom.result.computed().expect("the club's rule decides");
    assert_eq!(d.result, win(B, ResultBy::IllegalMove));
    check_citations(&custom);
    // The same facts under LGC itself: an irregularity, no loss.
    let lgc = g.state();
    assert!(lgc.result.computed().is_none());
}

#[test]
fn a_custom_profile_built_from_values_gets_its_own_behaviour() {
    // The projection reads the ruleset's values, never its name: a profile
    // unknown to the name table but given the UEC Cup's values behaves as
    // the UEC Cup (tested on the engine value), and the name alone gives
    // nothing.
    let mut custom = kifu_go::Ruleset::uec_cup();
    custom.name = "club-computer-cup".into();
    assert_eq!(
        custom.occupied_point,
        kifu_go::OccupiedPointRule::IllegalMove
    );
    assert_eq!(
        custom.conduct.appeals,
        kifu_go::Appeals::RefereeFinal,
        "appeals follow the value"
    );
    let mut lgc_named_like_uec = kifu_go::Ruleset::lgc_2023();
    lgc_named_like_uec.name = "uec-cup".into();
    assert_eq!(lgc_named_like_uec.conduct.clock_resolution_ms(), 1000);
    let src = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src")).expect("src");
    for f in src.flatten() {
        let text = std::fs::read_to_string(f.path()).expect("source");
        for name in kifu_go::PROFILE_NAMES
            .iter()
            .chain(["rif-renju", "gomoku-freestyle", "gomoku-standard"].iter())
        {
            assert!(
                !text.contains(&format!("\"{name}\"")),
                "{} names the profile {name}",
                f.path().display()
            );
        }
    }
}

#[test]
fn uec_cup_f_an_illegal_move_pointed_out_after_the_end_but_before_the_scores_are_submitted_loses() {
    let mut g = G::go("uec-cup");
    let ko = ko_game(&mut g);
    g.mv(B, "ee");
    g.pass(W);
    g.pass(B);
    for c in [B, W] {
        g.push(
            c,
            Body::DeadStonesMarked {
                player: c,
                dead: vec![],
            },
        );
    }
    assert!(g.state().result.computed().is_some(), "counted first");
    let n = g.notice(B, ko);
    let st = g.state();
    let d = st.result.computed().expect("decided");
    assert_eq!(d.result, win(B, ResultBy::IllegalMove));
    assert!(has_rule(&st, n, "f) When illegal moves are played."));
}

#[test]
fn london_open_1_an_equal_count_cites_the_clause_on_jigo() {
    let mut g = G::with(GameKind::Go, "london-open", 9, fischer(), |x| {
        x.komi_half_points = 0
    });
    g.start_clock();
    for row in 0..9u8 {
        let r = (b'a' + row) as char;
        g.mv(B, &format!("d{r}"));
        g.mv(W, &format!("f{r}"));
    }
    g.pass(B);
    g.push(B, Body::ClockPressed { player: B });
    g.pass(W);
    g.push(W, Body::ClockPressed { player: W });
    for c in [B, W] {
        g.push(c, Body::StatusAgreed { dead: vec![] });
    }
    let st = g.state();
    let d = st.result.computed().expect("counted");
    assert_eq!(d.result.outcome, Outcome::Draw, "{:?}", st.count_text());
    assert!(
        d.rule
            .contains("London Open (docs/rules/london-open-rules.txt), \"1.\""),
        "{}",
        d.rule
    );
    assert!(d.quote.as_deref().is_some_and(|q| q.contains("Jigo")));
    assert!(st
        .consequences
        .iter()
        .any(|c| c.what.contains("the count is equal")));
}
