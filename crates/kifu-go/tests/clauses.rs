//! One scenario per rule clause, named after the clause it exercises.

use kifu_go::{
    board_report, score_position, sgf, Board, Color, ColourOrHandicapErrorAction, EndingError,
    EndingEvent, EndingPhase, Game, GameEnd, GameResult, IllegalMoveAction, Komi, Move, Point,
    Ruleset, Setup, SuperkoKind, Violation,
};

mod support;

const B: Color = Color::Black;
const W: Color = Color::White;

fn pt(s: &str, size: u8) -> Point {
    Point::from_sgf(s, size).expect("test point")
}

/// A setup from a diagram: `X` black, `O` white, `.` empty; top row first.
fn diagram(rows: &[&str], to_move: Color) -> Setup {
    let size = rows.len() as u8;
    let mut setup = Setup::even(size);
    setup.to_move = to_move;
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let p = Point::new(x as u8, y as u8);
            match c {
                'X' => setup.black.push(p),
                'O' => setup.white.push(p),
                _ => {}
            }
        }
    }
    setup
}

/// GNU Go's triple-ko position (third-party; `None` when absent).
fn threeko1_setup() -> Option<Setup> {
    let path = support::third_party("go/edge-cases/gnugo-regression/seki_exotics/threeko1.sgf")?;
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("fixture {} is missing: {e}", path.display()));
    let record = sgf::read(&text).expect("threeko1.sgf");
    Some(kifu_go::setup_from_sgf(&record).expect("setup"))
}

fn play_gtp(game: &mut Game, color: Color, vertex: &str) -> kifu_go::Verdict {
    let size = game.board().size();
    match vertex {
        "pass" => game.pass(color),
        v => game.play(color, Point::from_gtp(v, size).expect("vertex")),
    }
}

const TRIPLE_KO_CYCLE: [(Color, &str); 6] = [
    (B, "A3"),
    (W, "E1"),
    (B, "D4"),
    (W, "A2"),
    (B, "F1"),
    (W, "D3"),
];

#[test]
fn lgc_illegal_move_triple_ko_cycle_is_natural_situational_superko() {
    let Some(setup) = threeko1_setup() else {
        return;
    };
    // LGC 2023, "Illegal move": "It is illegal to play so as to recreate a
    // previous board position with the same person to play (ko and natural
    // situational superko)."
    let mut game = Game::new(Ruleset::lgc_2023(), &setup).expect("game");
    let start = game.board().hash();
    for (i, (c, v)) in TRIPLE_KO_CYCLE.iter().enumerate() {
        let verdict = play_gtp(&mut game, *c, v);
        if i < 5 {
            assert!(
                verdict.is_legal(),
                "move {} {:?}",
                i + 1,
                verdict.violations
            );
        } else {
            assert_eq!(
                verdict.violations,
                vec![Violation::Superko(SuperkoKind::NaturalSituational)]
            );
        }
    }
    // Recorded anyway: the position is the one the illegal move made.
    assert_eq!(game.board().hash(), start);
    assert!(!game.is_over());
}

#[test]
fn uec_cup_repetition_of_a_position_triple_ko_is_a_draw() {
    let Some(setup) = threeko1_setup() else {
        return;
    };
    // UEC Cup, "g) Repetition of a position": "If the same position repeats
    // in a game (such as 3 kou case), the referee stops the game and declares
    // a draw." Basic ko only, so every move is legal.
    let mut game = Game::new(Ruleset::uec_cup(), &setup).expect("game");
    let mut last = None;
    for (c, v) in TRIPLE_KO_CYCLE {
        let verdict = play_gtp(&mut game, c, v);
        assert!(verdict.is_legal());
        last = Some(verdict);
    }
    let last = last.expect("six moves");
    assert!(last.repetition);
    assert!(last
        .events
        .contains(&EndingEvent::Ended(GameEnd::Repetition)));
    assert_eq!(
        game.ending().phase(),
        &EndingPhase::Over(GameEnd::Repetition)
    );
    assert_eq!(game.final_score(), None);
}

/// A corner where Black can send two stones and take one back.
///
/// ```text
///      0 1 2 3 4
/// y0:  a X c X .      a, c empty
/// y1:  O O X . .
/// y2:  . . . . .
/// ```
fn sending_two_setup() -> Setup {
    diagram(&[".X.X.", "OOX..", ".....", ".....", "....."], B)
}

#[test]
fn sending_two_returning_one_positional_vs_situational_superko() {
    let size = 5;
    let run = |ruleset: Ruleset| -> Vec<Vec<Violation>> {
        let mut game = Game::new(ruleset, &sending_two_setup()).expect("game");
        let mut out = Vec::new();
        // Black sends two (a), White takes two (c), Black returns... takes one (b).
        let v1 = game.play(B, pt("aa", size));
        let v2 = game.play(W, pt("ca", size));
        assert_eq!(v2.captured.len(), 2, "White captures the two stones");
        let v3 = game.play(B, pt("ba", size));
        assert_eq!(v3.captured.len(), 1, "Black captures one stone back");
        let v4 = game.pass(W);
        let v5 = game.play(B, pt("aa", size));
        for v in [v1, v2, v3, v4, v5] {
            out.push(v.violations);
        }
        out
    };
    let none: Vec<Violation> = Vec::new();
    // Move 3 recreates the starting board with White (not Black) to move.
    let psk = run(Ruleset::chinese());
    assert_eq!(psk[2], vec![Violation::Superko(SuperkoKind::Positional)]);
    let ssk = run(Ruleset {
        ko: kifu_go::KoRule::SituationalSuperko,
        ..Ruleset::chinese()
    });
    assert_eq!(ssk[2], none);
    assert_eq!(ssk[4], vec![Violation::Superko(SuperkoKind::Situational)]);
    let nssk = run(Ruleset::lgc_2023());
    assert_eq!(nssk[2], none);
    assert_eq!(
        nssk[4],
        vec![Violation::Superko(SuperkoKind::NaturalSituational)]
    );
    let simple = run(Ruleset::japanese());
    assert!(simple[..4].iter().all(|v| v.is_empty()));
}

/// A seki: the inner black string (eye at `aa`) and the inner white string
/// (eye at `ea`) share the liberty `ca`; whoever fills it is captured.
const SEKI: [&str; 7] = [
    ".X.O.OX", "XXOOOOX", "OOXXXX.", "OOX....", ".OX....", "OOX....", ".OX....",
];

#[test]
fn lgc_scoring_eye_points_in_seki_count_as_territory() {
    // LGC 2023, "Scoring": "Territory is defined as empty points surrounded by
    // stones of the same colour. Accordingly eye points in seki count as
    // territory." London Open 8 says the same.
    let setup = diagram(&SEKI, B);
    let mut game = Game::new(Ruleset::lgc_2023(), &setup).expect("game");
    // It is a seki: filling the shared liberty is self-atari for either side.
    let check = game.check(B, Move::Play(pt("ca", 7)));
    assert!(check.is_legal() && check.captured.is_empty());
    let score = game.score(&[]);
    // Black: eye `aa` + 17 points on the right; White: eye `ea` + two eyes.
    assert_eq!(score.black.territory, 18);
    assert_eq!(score.white.territory, 3);
    // The shared liberty is nobody's.
    let map = kifu_go::score::territory_map(game.board());
    assert!(map.contains(&(pt("ca", 7), None)));
    assert!(map.contains(&(pt("aa", 7), Some(B))));
    assert!(map.contains(&(pt("ea", 7), Some(W))));
    // Area counting counts the seki stones and eyes too.
    let area = Game::new(
        Ruleset {
            scoring: kifu_go::Scoring::Area,
            ..Ruleset::bga_aga()
        },
        &setup,
    )
    .expect("game")
    .score(&[]);
    assert_eq!(area.black.stones + area.black.territory, 13 + 18);
    game.pass(B);
}

#[test]
fn london_open_bent_four_in_the_corner_must_be_played_out() {
    // London Open, "Bent four in the corner must be played out ... this and any
    // other special situations must simply be played out until the relevant
    // stones are actually captured." The engine removes nothing by itself:
    // when the status is disputed, play resumes; if both pass at the start of
    // the resumption, every stone stays alive.
    let bent_four = diagram(
        &[
            "...OX..", ".OOOX..", "OOXXX..", "XX.....", ".......", ".......", ".......",
        ],
        B,
    );
    let mut game = Game::new(Ruleset::london_open(), &bent_four).expect("game");
    game.pass(B);
    let v = game.pass(W);
    assert_eq!(v.events, vec![EndingEvent::Paused]);
    // Black claims the corner is dead, White disputes.
    let events = game.dispute().expect("resumption allowed");
    assert_eq!(events, vec![EndingEvent::Resumed { first: B }]);
    assert_eq!(game.to_move(), B);
    game.pass(B);
    let v = game.pass(W);
    assert_eq!(v.events, vec![EndingEvent::Ended(GameEnd::AllStonesAlive)]);
    let score = game.final_score().expect("game over");
    // The four corner points stay White's territory: nothing was played out.
    assert_eq!(score.white.territory, 4);
}

#[test]
fn lgc_suicide_attempt_is_illegal_and_recorded() {
    // A single stone with no liberty that captures nothing.
    let setup = diagram(&[".O...", "O....", ".....", ".....", "....."], B);
    let mut game = Game::new(Ruleset::lgc_2023(), &setup).expect("game");
    let v = game.play(B, pt("aa", 5));
    assert_eq!(v.violations, vec![Violation::Suicide]);
    assert_eq!(v.suicided, vec![pt("aa", 5)]);
    // Defined position: the stone is removed and handed to White as a prisoner.
    assert_eq!(game.board().get(pt("aa", 5)), None);
    assert_eq!(game.captures(W), 1);
    assert_eq!(game.to_move(), W);
    // Under Tromp-Taylor self-capture is legal, but a single stone recreates
    // the previous position, so positional superko forbids it.
    let mut tt = Game::new(Ruleset::tromp_taylor(), &setup).expect("game");
    let v = tt.play(B, pt("aa", 5));
    assert_eq!(
        v.violations,
        vec![Violation::Superko(SuperkoKind::Positional)]
    );
}

#[test]
fn london_open_white_passes_last_extra_pass_stone() {
    // London Open 5: "If the status of all groups is agreed, then the players
    // must ensure that White passes last. So if necessary, White must pass
    // again and hand over another pass stone."
    let mut setup = Setup::even(9);
    setup.to_move = W;
    let mut game = Game::new(Ruleset::london_open(), &setup).expect("game");
    game.pass(W);
    let v = game.pass(B);
    assert_eq!(v.events, vec![EndingEvent::Paused]);
    let events = game.agree(vec![]).expect("paused");
    assert_eq!(events, vec![EndingEvent::ExtraWhitePassRequired]);
    assert_eq!(game.to_move(), W);
    let v = game.pass(W);
    assert!(v.pass_stone);
    assert_eq!(
        v.events,
        vec![EndingEvent::Ended(GameEnd::Agreed { dead: vec![] })]
    );
    assert_eq!(game.pass_stones_received(B), 2);
    assert_eq!(game.pass_stones_received(W), 1);
}

#[test]
fn lgc_ending_the_game_play_pauses_only_when_white_passes_last() {
    // LGC 2023, "Ending the game" 3: "Play pauses after the minimum number of
    // consecutive passes in which White passes last."
    let mut setup = Setup::even(9);
    setup.to_move = W;
    let mut game = Game::new(Ruleset::lgc_2023(), &setup).expect("game");
    game.pass(W);
    let v = game.pass(B);
    assert!(v.events.is_empty(), "two passes but Black passed last");
    let v = game.pass(W);
    assert_eq!(v.events, vec![EndingEvent::Paused]);
    assert_eq!(game.pass_stones_received(B), 2);
}

#[test]
fn resumption_order_per_profile() {
    // LGC 2023 "Ending the game" 6: "play resumes on the clock, with Black
    // going first". London Open 6 and BGA "Game End": "the opponent of the
    // last player to pass". UEC Cup a) 4: no resumption.
    let mut lgc = Game::new(Ruleset::lgc_2023(), &Setup::even(9)).expect("game");
    lgc.pass(B);
    lgc.pass(W);
    assert_eq!(lgc.dispute(), Ok(vec![EndingEvent::Resumed { first: B }]));
    assert_eq!(lgc.to_move(), B);

    for ruleset in [Ruleset::london_open(), Ruleset::bga_aga()] {
        let mut setup = Setup::even(9);
        setup.to_move = W;
        let mut game = Game::new(ruleset.clone(), &setup).expect("game");
        game.pass(W);
        game.pass(B);
        assert_eq!(
            game.dispute(),
            Ok(vec![EndingEvent::Resumed { first: W }]),
            "{}",
            ruleset.name()
        );
        assert_eq!(game.to_move(), W);
    }

    let mut uec = Game::new(Ruleset::uec_cup(), &Setup::even(9)).expect("game");
    uec.pass(B);
    uec.pass(W);
    assert_eq!(uec.dispute(), Err(EndingError::ResumptionNotAllowed));
    assert_eq!(uec.agree(vec![]).map(|e| e.len()), Ok(1));
    assert!(uec.is_over());
}

#[test]
fn four_consecutive_passes_stop_the_game_with_all_stones_alive() {
    // London Open 7: "If at the start of a resumption, both players pass (so
    // making four consecutive passes in all) ... the game stops and all stones
    // remain on the board for counting purposes. Again the players must
    // ensure that White passes last."
    let mut setup = Setup::even(9);
    setup.to_move = W;
    let mut game = Game::new(Ruleset::bga_aga(), &setup).expect("game");
    game.play(W, pt("ee", 9));
    game.pass(B);
    game.pass(W);
    assert_eq!(game.ending().phase(), &EndingPhase::StatusAssessment);
    game.dispute().expect("resume");
    assert_eq!(game.to_move(), B);
    game.pass(B);
    let v = game.pass(W);
    assert_eq!(v.events, vec![EndingEvent::Ended(GameEnd::AllStonesAlive)]);

    // Black passing last at the stop: White owes the extra pass.
    let mut game = Game::new(Ruleset::london_open(), &Setup::even(9)).expect("game");
    game.play(B, pt("ee", 9));
    game.pass(W);
    game.pass(B);
    game.dispute().expect("resume");
    assert_eq!(game.to_move(), W);
    game.pass(W);
    let v = game.pass(B);
    assert_eq!(v.events, vec![EndingEvent::ExtraWhitePassRequired]);
    let v = game.pass(W);
    assert_eq!(v.events, vec![EndingEvent::Ended(GameEnd::AllStonesAlive)]);
    let score = game.final_score().expect("over");
    assert_eq!(score.black.territory, 80);

    // LGC: "At the start of a resumption if both players pass then the game
    // stops and all stones remain on the board".
    let mut game = Game::new(Ruleset::lgc_2023(), &Setup::even(9)).expect("game");
    game.pass(B);
    game.pass(W);
    game.dispute().expect("resume");
    game.pass(B);
    let v = game.pass(W);
    assert_eq!(v.events, vec![EndingEvent::Ended(GameEnd::AllStonesAlive)]);
}

#[test]
fn uec_cup_game_ends_at_move_400_passes_counted() {
    // UEC Cup, "e) When the game has progressed the 400th moves. Pass will be
    // counted by a move."
    let mut game = Game::new(Ruleset::uec_cup(), &Setup::even(19)).expect("game");
    let mut points = (0..19u8).flat_map(|y| (0..19u8).map(move |x| Point::new(x, y)));
    for n in 1..=400u32 {
        let v = if n % 2 == 1 {
            game.play(B, points.next().expect("enough points"))
        } else {
            game.pass(W)
        };
        assert!(v.is_legal(), "move {n}");
        if n < 400 {
            assert!(!game.is_over(), "over at move {n}");
        } else {
            assert_eq!(v.events, vec![EndingEvent::Ended(GameEnd::MoveLimit)]);
        }
    }
    assert!(game.final_score().is_some());
    // A 401st move is recorded and flagged.
    let v = game.pass(B);
    assert_eq!(v.violations, vec![Violation::AfterEndOfGame]);
}

#[test]
fn lgc_scoring_surplus_prisoners_are_negative_territory() {
    // LGC 2023, "Scoring": "If your opponent has less territory than the
    // number of prisoners you have captured then the surplus is counted as
    // negative territory for your opponent."
    let setup = diagram(&[".OX..", ".OX..", ".OX..", ".OX..", ".OX.."], B);
    let board = Game::new(Ruleset::lgc_2023(), &setup)
        .expect("game")
        .board()
        .clone();
    let score = score_position(
        &board,
        &[],
        [8, 0],
        [0, 1],
        Komi(15),
        0,
        &Ruleset::lgc_2023(),
    );
    assert_eq!(score.white.territory, 5);
    assert_eq!(score.black.territory, 10);
    // White: 5 territory - 8 prisoners = -3, plus 7.5 komi = 4.5.
    assert_eq!(score.white.points, -6 + 15);
    // Black: 10 territory - 1 pass stone = 9.
    assert_eq!(score.black.points, 18);
    assert_eq!(score.result, GameResult::Black(9));
    assert_eq!(score.result.to_string(), "B+4.5");
}

#[test]
fn lgc_colour_or_handicap_error_noticed_before_the_third_move_restarts() {
    // LGC 2023, "Colour or handicap error": "noticed before the third move is
    // completed, then the game must be restarted. If the error is noticed
    // later, then the game continues".
    let rule = Ruleset::lgc_2023().colour_or_handicap_error;
    assert_eq!(rule.remedy(0), ColourOrHandicapErrorAction::Restart);
    assert_eq!(rule.remedy(2), ColourOrHandicapErrorAction::Restart);
    assert_eq!(
        rule.remedy(3),
        ColourOrHandicapErrorAction::ContinueWithColoursUsed
    );
    // BGA iii: corrected only if noticed before White's first move.
    let rule = Ruleset::bga_aga().colour_or_handicap_error;
    assert_eq!(rule.remedy(0), ColourOrHandicapErrorAction::Correct);
    assert_eq!(
        rule.remedy(1),
        ColourOrHandicapErrorAction::ContinueWithColoursUsed
    );
    // A game started with the wrong handicap continues with the stones used.
    let mut game = Game::new(
        Ruleset::lgc_2023(),
        &Setup::fixed_handicap(19, 3).expect("3 stones"),
    )
    .expect("game");
    assert_eq!(game.to_move(), W);
    assert_eq!(game.komi(), Komi(1));
    assert!(game.play(W, pt("qq", 19)).is_legal());
}

#[test]
fn lgc_illegal_move_unwound_if_noticed_within_three_moves() {
    // LGC 2023, "Illegal move"; London Open 4; BGA "Illegal Moves"; UEC f).
    let lgc = Ruleset::lgc_2023().illegal_move;
    assert_eq!(lgc.remedy(3), IllegalMoveAction::Unwind);
    assert_eq!(lgc.remedy(4), IllegalMoveAction::Continue);
    let bga = Ruleset::bga_aga().illegal_move;
    assert_eq!(bga.remedy(0), IllegalMoveAction::UnwindAndPass);
    assert_eq!(bga.remedy(2), IllegalMoveAction::RewindByAgreement);
    assert_eq!(
        Ruleset::uec_cup().illegal_move.remedy(9),
        IllegalMoveAction::Loss
    );
}

#[test]
fn komi_and_jigo_per_profile() {
    // LGC: 7.5 even, 0.5 handicap. London Open 1: 7.5 even, White wins jigo in
    // handicap games. UEC Cup: 6.5.
    assert_eq!(Ruleset::lgc_2023().komi(0), Komi(15));
    assert_eq!(Ruleset::lgc_2023().komi(2), Komi(1));
    assert_eq!(Ruleset::uec_cup().komi(0), Komi(13));
    let london = Ruleset::london_open();
    let game = Game::new(london, &Setup::fixed_handicap(9, 2).expect("2 stones")).expect("game");
    // Two handicap stones and nothing else: the whole board is Black's territory.
    let score = game.score(&[]);
    assert!(matches!(score.result, GameResult::Black(_)));
    let board = Board::new(9).expect("board");
    let even = score_position(
        &board,
        &[],
        [0; 2],
        [0; 2],
        Komi(0),
        2,
        &Ruleset::london_open(),
    );
    assert_eq!(even.result, GameResult::White(0));
    let draw = score_position(
        &board,
        &[],
        [0; 2],
        [0; 2],
        Komi(0),
        0,
        &Ruleset::london_open(),
    );
    assert_eq!(draw.result, GameResult::Draw);
}

#[test]
fn pass_stones_go_to_the_opponent_and_pass_lifts_the_ko_ban() {
    // LGC 2023, "Ending the game" 1: a pass hands a stone to the opponent.
    let ko = diagram(&[".XO..", "XO...", ".....", ".....", "....."], W);
    let mut game = Game::new(Ruleset::lgc_2023(), &ko).expect("game");
    let v = game.play(W, pt("aa", 5));
    assert_eq!(v.captured.len(), 2 - 1);
    let v = game.check(B, Move::Play(pt("ba", 5)));
    assert_eq!(v.violations, vec![Violation::Ko]);
    game.pass(B);
    assert_eq!(game.pass_stones_received(W), 1);
    assert_eq!(game.captures(W), 1, "pass stones are not captures");
    game.pass(W);
    // After the passes the ko may be retaken (pause aside: LGC pauses here).
    assert_eq!(game.ending().phase(), &EndingPhase::StatusAssessment);
}

#[test]
fn board_report_json_shape() {
    let r = board_report("(;SZ[5];B[aa];W[ba];B[bb];W[ab])", &Ruleset::lgc_2023()).expect("report");
    let json = serde_json::to_value(&r).expect("json");
    assert_eq!(
        json,
        serde_json::json!({
            "size": 5,
            "black": ["bb"],
            "white": ["ab", "ba"],
            "captures": {"black": 0, "white": 1},
            "to_move": "black",
            "illegal": []
        })
    );
    let r = board_report(
        "(;SZ[5];B[aa];B[bb];W[aa])",
        &Ruleset::by_name("uec-cup").expect("uec"),
    )
    .expect("report");
    let reasons: Vec<(u32, &str)> = r
        .illegal
        .iter()
        .map(|i| (i.move_number, i.reason.as_str()))
        .collect();
    assert_eq!(reasons, vec![(2, "out_of_turn"), (3, "occupied")]);
}

#[test]
fn fixed_handicap_placement_on_the_standard_points() {
    // The placements GNU Go used in the self-play and real fixtures.
    let cases: [(u8, &[&str]); 12] = [
        (9, &["G7", "C3"]),
        (9, &["C7", "G7", "C3"]),
        (9, &["C7", "G7", "C3", "G3"]),
        (9, &["C7", "G7", "E5", "C3", "G3"]),
        (13, &["K10", "D4"]),
        (13, &["D10", "K10", "D4", "K4"]),
        (13, &["D10", "K10", "D7", "K7", "D4", "K4"]),
        (
            13,
            &["D10", "G10", "K10", "D7", "G7", "K7", "D4", "G4", "K4"],
        ),
        (19, &["D16", "D4", "Q16"]),
        (19, &["D16", "Q16", "D10", "Q10", "D4", "Q4"]),
        (19, &["D16", "Q16", "D10", "K10", "Q10", "D4", "Q4"]),
        (
            19,
            &["D16", "K16", "Q16", "D10", "K10", "Q10", "D4", "K4", "Q4"],
        ),
    ];
    for (size, want) in cases {
        let mut want: Vec<Point> = want
            .iter()
            .map(|v| Point::from_gtp(v, size).expect("vertex"))
            .collect();
        want.sort();
        let mut got = kifu_go::fixed_handicap_points(size, want.len() as u32).expect("placement");
        got.sort();
        assert_eq!(got, want, "{size}x{size}, {} stones", want.len());
    }
    assert!(kifu_go::fixed_handicap_points(19, 10).is_err());
    assert!(kifu_go::fixed_handicap_points(5, 2).is_err());
    // Free placement: any points, White moves first.
    let free = Setup::free_handicap(19, vec![pt("aa", 19), pt("ss", 19)]);
    let game = Game::new(Ruleset::london_open(), &free).expect("game");
    assert_eq!(game.to_move(), W);
    assert_eq!(game.komi(), Komi(0));
}

#[test]
fn off_board_and_wrong_colour_are_recorded_with_their_verdicts() {
    let mut game = Game::new(Ruleset::bga_aga(), &Setup::even(9)).expect("game");
    let v = game.play(B, Point::new(9, 0));
    assert_eq!(v.violations, vec![Violation::OffBoard]);
    assert_eq!(game.to_move(), W);
    // BGA "Irregular Moves" vi: a stone of the wrong colour.
    let v = game.apply(W, B, Move::Play(pt("ee", 9)));
    assert_eq!(v.violations, vec![Violation::WrongColour]);
    assert_eq!(game.board().get(pt("ee", 9)), Some(B));
    // Alternation: Black again after Black's turn passed to White... out of turn.
    let v = game.play(W, pt("dd", 9));
    assert_eq!(v.violations, vec![Violation::OutOfTurn { expected: B }]);
}

fn normalise(text: &str) -> String {
    text.replace(['\u{2019}', '\u{2018}'], "'")
        .replace(['\u{201c}', '\u{201d}'], "\"")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_quoted_clause_is_found_word_for_word_in_its_document() {
    let root = support::workspace();
    let mut checked = 0;
    for name in ["lgc-2023", "london-open", "bga-aga", "uec-cup"] {
        let ruleset = Ruleset::by_name(name).expect("profile");
        assert!(
            ruleset.clause(kifu_go::Topic::Ko).is_some(),
            "{name}: no ko clause"
        );
        assert!(ruleset.clause(kifu_go::Topic::Komi).is_some() || name == "bga-aga");
        let rif = kifu_go::Conduct::rif_world_championship();
        for clause in ruleset
            .clauses
            .iter()
            .chain(ruleset.conduct.clauses.iter())
            .chain(rif.clauses.iter())
        {
            let path = root.join(&clause.document);
            let document = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("rule document {} is missing: {e}", path.display()));
            assert!(
                normalise(&document).contains(&normalise(&clause.text)),
                "{name}: clause not found in {}: {:?}",
                clause.document,
                clause.text
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} clauses");
    // A violation points at the clause it broke.
    let lgc = Ruleset::lgc_2023();
    let clause = lgc.clause(Violation::Ko.topic()).expect("ko clause");
    assert!(clause.text.contains("natural situational superko"));
}

#[test]
fn only_white_may_move_while_white_owes_the_last_pass() {
    let mut game = Game::new(Ruleset::london_open(), &Setup::even(9)).expect("game");
    game.play(B, pt("ee", 9));
    game.pass(W);
    game.pass(B);
    assert_eq!(
        game.agree(vec![]),
        Ok(vec![EndingEvent::ExtraWhitePassRequired])
    );
    let v = game.play(B, pt("cc", 9));
    assert_eq!(v.violations, vec![Violation::OutOfTurn { expected: W }]);
}
