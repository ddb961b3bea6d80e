//! Property tests for the engine's invariants.

use kifu_go::{sgf, Color, Game, Komi, Move, Point, Ruleset, Setup, SgfGame, SgfMove};
use proptest::prelude::*;

/// A move as generated: Black or not, and a point or a pass.
type GenMove = (bool, Option<(u8, u8)>);

fn arb_moves(size: u8, max: usize) -> impl Strategy<Value = Vec<GenMove>> {
    prop::collection::vec(
        (
            any::<bool>(),
            prop::option::weighted(0.95, (0..size, 0..size)),
        ),
        0..max,
    )
}

fn arb_game() -> impl Strategy<Value = (u8, Vec<GenMove>, usize)> {
    (2u8..=9).prop_flat_map(|size| (Just(size), arb_moves(size, 160), 0usize..7))
}

fn ruleset(i: usize) -> Ruleset {
    let names = kifu_go::PROFILE_NAMES;
    Ruleset::by_name(names[i % names.len()]).expect("known profile")
}

fn every_string_has_a_liberty(game: &Game) -> bool {
    let board = game.board();
    board
        .points()
        .filter(|&p| board.get(p).is_some())
        .all(|p| board.liberties(p) > 0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_string_left_on_the_board_always_has_a_liberty((size, moves, r) in arb_game()) {
        let mut game = Game::new(ruleset(r), &Setup::even(size)).expect("game");
        for (black, p) in moves {
            // Alternate mostly, with some out-of-turn moves from the generator.
            let c = if black { Color::Black } else { Color::White };
            let mv = p.map(|(x, y)| Move::Play(Point::new(x, y))).unwrap_or(Move::Pass);
            game.apply(c, c, mv);
            prop_assert!(every_string_has_a_liberty(&game));
        }
    }

    #[test]
    fn incremental_zobrist_hash_equals_hash_from_scratch((size, moves, r) in arb_game()) {
        let mut game = Game::new(ruleset(r), &Setup::even(size)).expect("game");
        for (black, p) in moves {
            let c = if black { Color::Black } else { Color::White };
            let mv = p.map(|(x, y)| Move::Play(Point::new(x, y))).unwrap_or(Move::Pass);
            game.apply(c, c, mv);
            prop_assert_eq!(game.board().hash(), game.board().hash_from_scratch());
        }
    }

    #[test]
    fn captures_reported_equal_stones_removed((size, moves, r) in arb_game()) {
        let mut game = Game::new(ruleset(r), &Setup::even(size)).expect("game");
        for (black, p) in moves {
            let c = if black { Color::Black } else { Color::White };
            let mv = p.map(|(x, y)| Move::Play(Point::new(x, y))).unwrap_or(Move::Pass);
            let before = [game.board().count(Color::Black), game.board().count(Color::White)];
            let caps_before = [game.captures(Color::Black), game.captures(Color::White)];
            let v = game.apply(c, c, mv);
            let after = [game.board().count(Color::Black), game.board().count(Color::White)];
            let placed = matches!(mv, Move::Play(_))
                && !v.violations.contains(&kifu_go::Violation::OccupiedPoint);
            let o = c.opponent();
            // Opponent stones removed = captured; own stones: +1 placed - suicided.
            prop_assert_eq!(before[o.index()] - after[o.index()], v.captured.len());
            prop_assert_eq!(
                before[c.index()] + usize::from(placed) - after[c.index()],
                v.suicided.len()
            );
            prop_assert_eq!(
                game.captures(c) - caps_before[c.index()],
                v.captured.len() as u32
            );
            prop_assert_eq!(
                game.captures(o) - caps_before[o.index()],
                v.suicided.len() as u32
            );
        }
    }

    #[test]
    fn replay_is_deterministic((size, moves, r) in arb_game()) {
        let run = || {
            let mut game = Game::new(ruleset(r), &Setup::even(size)).expect("game");
            let verdicts: Vec<_> = moves.iter().map(|(black, p)| {
                let c = if *black { Color::Black } else { Color::White };
                let mv = p.map(|(x, y)| Move::Play(Point::new(x, y))).unwrap_or(Move::Pass);
                game.apply(c, c, mv)
            }).collect();
            (verdicts, game.board().clone())
        };
        prop_assert_eq!(run(), run());
    }
}

fn arb_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'Z', ' ', ']', '\\', '\n', ':', ';', '(', ')', '[', 'é', '碁',
        ]),
        0..20,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn arb_name() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::collection::vec(
            prop::sample::select(vec!['a', 'B', ' ', ']', '\\', '9', '名']),
            0..12,
        )
        .prop_map(|v| v.into_iter().collect()),
    )
}

fn arb_sgf_game() -> impl Strategy<Value = SgfGame> {
    (2u8..=25)
        .prop_flat_map(|size| {
            let point = (0..size, 0..size).prop_map(|(x, y)| Point::new(x, y));
            let mv = (
                any::<bool>(),
                prop::option::weighted(0.9, point.clone()),
                prop::option::of(-1_000_000_000i64..1_000_000_000),
                prop::option::of(0i64..10_000_000),
                prop::option::of(0u16..30),
                prop::option::of(0u16..30),
                prop::option::weighted(0.2, arb_text()),
            )
                .prop_map(|(black, point, bl, wl, ob, ow, comment)| SgfMove {
                    color: if black { Color::Black } else { Color::White },
                    point,
                    black_time_left_ms: bl,
                    white_time_left_ms: wl,
                    black_overtime_left: ob,
                    white_overtime_left: ow,
                    comment: comment.map(Into::into),
                });
            (
                Just(size),
                prop::option::of(-200i32..200),
                0u32..10,
                (arb_name(), arb_name(), arb_name(), arb_name(), arb_name()),
                prop::option::of(0i64..100_000_000),
                arb_name(),
                prop::option::of(any::<bool>()),
                prop::option::weighted(0.3, arb_text()),
                prop::collection::vec(point.clone(), 0..5),
                prop::collection::vec(point, 0..5),
                prop::collection::vec(mv, 0..60),
            )
        })
        .prop_map(
            |(
                size,
                komi,
                handicap,
                (rules, pb, pw, re, dt),
                tm,
                ot,
                pl,
                comment,
                ab,
                aw,
                moves,
            )| {
                let mut g = SgfGame::new(size);
                g.komi = komi.map(Komi);
                g.handicap = handicap;
                g.rules = rules;
                g.black_player = pb;
                g.white_player = pw;
                g.result = re;
                g.date = dt;
                g.time_limit_ms = tm;
                g.overtime = ot;
                g.first_player = pl.map(|b| if b { Color::Black } else { Color::White });
                g.comment = comment;
                g.setup_black = ab;
                g.setup_white = aw;
                g.moves = moves;
                g
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn sgf_written_then_read_gives_the_same_game(game in arb_sgf_game()) {
        let text = sgf::write(&game);
        let back = sgf::read(&text).expect("own output reads back");
        prop_assert_eq!(&back, &game);
        // And the same position when replayed (where the setup is valid).
        if let (Ok(a), Ok(b)) = (
            kifu_go::replay_sgf(&game, Ruleset::lgc_2023()),
            kifu_go::replay_sgf(&back, Ruleset::lgc_2023()),
        ) {
            prop_assert_eq!(a.game.board(), b.game.board());
            prop_assert_eq!(a.verdicts, b.verdicts);
        }
    }

    #[test]
    fn sgf_reader_never_panics(text in "\\PC{0,200}") {
        let _ = sgf::read(&text);
        let _ = kifu_go::board_report(&text, &Ruleset::lgc_2023());
    }

    #[test]
    fn sgf_reader_never_panics_on_near_sgf(text in "[(;)\\[\\]\\\\BWSZAHKMPLCtda-z0-9 \n]{0,200}") {
        let _ = sgf::read(&text);
        let _ = kifu_go::board_report(&text, &Ruleset::lgc_2023());
    }
}

#[test]
fn boards_with_the_same_stones_are_equal_whatever_their_history() {
    let mut a = kifu_go::Board::new(5).expect("board");
    let mut b = kifu_go::Board::new(5).expect("board");
    a.place(Color::Black, Point::new(0, 0)).expect("empty");
    let _ = a.string(Point::new(0, 0));
    let _ = a.place(Color::White, Point::new(1, 0));
    let _ = a.set(Point::new(1, 0), None);
    b.place(Color::Black, Point::new(0, 0)).expect("empty");
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Hostile shapes, as input-size bounds: whatever the nesting, the number
    /// of distinct properties or the setup rectangles, what is kept is no
    /// larger than the text (main line only, rectangles bounded by the
    /// board), and the reader answers (a value or a typed error).
    #[test]
    fn hostile_records_are_read_within_size_bounds(
        depth in 0usize..3000,
        side in 0usize..3000,
        distinct in 0usize..3000,
        rectangles in 0usize..2000,
    ) {
        let mut text = String::from("(;GM[1]SZ[19]");
        for i in 0..distinct {
            text.push_str(&format!("X{}{}{}[v]", (b'A' + (i % 26) as u8) as char,
                (b'A' + (i / 26 % 26) as u8) as char, (b'A' + (i / 676 % 26) as u8) as char));
        }
        text.push_str(&"AB[aa:ss]".repeat(rectangles.min(2)));
        text.push_str(";B[dd](;W[pp]");
        text.push_str(&"(;B[aa];W[bb]".repeat(depth));
        text.push_str(&")".repeat(depth));
        text.push(')');
        text.push_str("(;W[qq]");
        text.push_str(&"(;B[cc]".repeat(side));
        text.push_str(&")".repeat(side));
        text.push_str("))");
        if rectangles > 2 {
            let flood = format!("(;SZ[19]AB{})", "[aa:ss]".repeat(rectangles));
            prop_assert!(sgf::read(&flood).is_err());
        }
        match sgf::read(&text) {
            Ok(g) => {
                prop_assert_eq!(g.moves.len(), 2 + 2 * depth);
                prop_assert!(g.moves.len() <= text.len() / 4);
                prop_assert!(g.setup_black.len() <= 2 * 361);
                prop_assert!(g.other.len() <= distinct);
            }
            // Rectangles over twice the board, or a root with more
            // properties than any record needs (GM, SZ, AB and the rest).
            Err(e) => prop_assert!(
                rectangles == 2 || 2 + distinct + usize::from(rectangles > 0) > sgf::MAX_PROPERTIES,
                "{e}"
            ),
        }
    }

    /// Identifiers in lower case only are kept as written, so a record
    /// written and read back is the same.
    #[test]
    fn lower_case_identifiers_round_trip(
        ids in prop::collection::btree_set("[a-z]{1,3}", 0..8),
        value in "[a-z0-9 ]{0,6}",
    ) {
        let mut text = String::from("(;SZ[9]");
        for id in &ids {
            text.push_str(&format!("{id}[{value}]"));
        }
        text.push(')');
        let g = sgf::read(&text).expect("reads");
        prop_assert_eq!(g.other.len(), ids.len());
        let back = sgf::read(&sgf::write(&g)).expect("reads back");
        prop_assert_eq!(back, g);
    }
}
