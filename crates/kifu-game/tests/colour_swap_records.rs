//! After the seats exchange colours (a modified pairing, kind 53, or the
//! exchange inferred from a colour error: LGC 2023, "Colour or handicap
//! error": "the pairing is modified to reflect the actual colours ... used"),
//! the records name the players by the colours they actually played: SGF's
//! `PB`/`PW` and its comments, and the story's lines.

mod support;
use support::*;

use kifu_game::sgf_export::game_to_sgf;
use kifu_ledger::*;

const B: Color = Color::Black;
const W: Color = Color::White;

/// A 9x9 LGC game whose Black seat is Alice and White seat Bruno.
fn named() -> G {
    G::with(GameKind::Go, "lgc-2023", 9, fischer(), |g| {
        for p in &mut g.roster {
            match p.role {
                Role::Black => p.name = "Alice".into(),
                Role::White => p.name = "Bruno".into(),
                _ => {}
            }
        }
    })
}

/// The White seat (Bruno) plays the black stones and the Black seat
/// (Alice) the white ones for four completed moves.
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

fn pairing(komi_half_points: Option<i32>) -> Body {
    Body::PairingModified {
        swap_colours: true,
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

/// After the exchange: Bruno (White seat) plays Black at gc, Alice (Black
/// seat) passes, then resigns.
fn after_swap(g: &mut G) -> (u64, u64, u64) {
    let stone = g.push(
        W,
        Body::StonePlaced {
            player: W,
            stone: B,
            point: p("gc"),
        },
    );
    g.push(W, Body::ClockPressed { player: W });
    let pass = g.push(
        B,
        Body::Pass {
            player: B,
            pass_stone: true,
        },
    );
    g.push(B, Body::ClockPressed { player: B });
    let resign = g.push(
        B,
        Body::Resigned {
            player: B,
            manner: Resignation::Spoken,
        },
    );
    (stone, pass, resign)
}

fn summary(g: &G, seq: u64) -> String {
    g.state()
        .events
        .iter()
        .find(|e| e.seq == seq)
        .map(|e| e.summary.clone())
        .expect("the event's line")
}

#[test]
fn lgc_2023_colour_or_handicap_error_sgf_names_the_players_by_the_colours_they_played() {
    for inferred in [false, true] {
        let mut g = named();
        seats_swapped(&mut g);
        g.referee(if inferred {
            colour_error()
        } else {
            pairing(None)
        });
        after_swap(&mut g);
        let st = g.state();
        assert!(st.colours_swapped);
        let d = st.result.computed().expect("a result");
        assert_eq!(
            d.result.outcome,
            Outcome::Win(B),
            "the White player resigned"
        );
        // A tournament credits the seat: Bruno, the White seat, won.
        assert_eq!(
            st.result_by_seat().map(|r| r.outcome),
            Some(Outcome::Win(W)),
            "inferred: {inferred}"
        );
        let sgf = game_to_sgf(&g.events).expect("an SGF record");
        assert_eq!(
            sgf.black_player.as_deref(),
            Some("Bruno"),
            "inferred: {inferred}"
        );
        assert_eq!(
            sgf.white_player.as_deref(),
            Some("Alice"),
            "inferred: {inferred}"
        );
        let text = kifu_go::sgf::write(&sgf);
        assert!(
            text.contains("PB[Bruno]") && text.contains("PW[Alice]"),
            "{text}"
        );
        // The resignation is White's: Alice played White.
        assert!(text.contains("White resigns"), "{text}");
        assert!(!text.contains("Black resigns"), "{text}");
        // The moves are written by the colour of their stones; the pass is
        // the colour its player played.
        let colours: Vec<kifu_go::Color> = sgf.moves.iter().map(|m| m.color).collect();
        use kifu_go::Color::{Black as KB, White as KW};
        assert_eq!(colours, vec![KB, KW, KB, KW, KB, KW]);
    }
}

#[test]
fn without_an_exchange_the_sgf_names_the_seats_of_the_genesis() {
    let mut g = named();
    g.start_clock();
    g.mv(B, "ee");
    g.push(
        W,
        Body::Resigned {
            player: W,
            manner: Resignation::Spoken,
        },
    );
    let sgf = game_to_sgf(&g.events).expect("an SGF record");
    assert_eq!(sgf.black_player.as_deref(), Some("Alice"));
    assert_eq!(sgf.white_player.as_deref(), Some("Bruno"));
    assert!(kifu_go::sgf::write(&sgf).contains("White resigns"));
}

#[test]
fn lgc_2023_colour_or_handicap_error_the_story_names_the_colour_each_seat_plays() {
    let mut g = named();
    seats_swapped(&mut g);
    g.referee(pairing(None));
    let (stone, pass, resign) = after_swap(&mut g);
    let line = summary(&g, stone);
    assert!(line.starts_with("Black (the white seat) plays"), "{line}");
    assert!(!line.contains("places a black stone"), "{line}");
    let line = summary(&g, pass);
    assert!(line.starts_with("White (the black seat) passes"), "{line}");
    let line = summary(&g, resign);
    assert!(line.starts_with("White (the black seat) resigns"), "{line}");
    // The explanation and the result it gives agree on who resigned.
    let text = kifu_game::explanation::explanation_text(&[0; 32], &g.events, true);
    assert!(text.contains("White (the black seat) resigns"), "{text}");
    assert!(text.contains("result by the rules: B+R"), "{text}");
}

#[test]
fn a_modified_komi_is_the_komi_the_sgf_records() {
    let mut g = named();
    seats_swapped(&mut g);
    g.referee(pairing(Some(1)));
    let sgf = game_to_sgf(&g.events).expect("an SGF record");
    assert_eq!(sgf.komi, Some(kifu_go::Komi(1)));
    let text = kifu_go::sgf::write(&sgf);
    assert!(text.contains("KM[0.5]"), "{text}");
}

#[test]
fn lgc_2023_colour_or_handicap_error_consequences_name_the_colour_each_seat_plays() {
    let mut g = named();
    seats_swapped(&mut g);
    g.referee(pairing(None));
    let call = g.push(B, Body::RefereeCalled { player: B });
    let protest = g.push(
        B,
        Body::ProtestDeclared {
            player: B,
            statement: "the clock was not stopped".into(),
        },
    );
    let st = g.state();
    assert!(
        st.consequences_of(call).any(|c| c
            .what
            .starts_with("White (the black seat) calls the referee")),
        "{:?}",
        st.consequences_of(call).collect::<Vec<_>>()
    );
    assert!(
        st.consequences_of(protest)
            .any(|c| c.what.starts_with("White (the black seat) declares")),
        "{:?}",
        st.consequences_of(protest).collect::<Vec<_>>()
    );
    assert!(summary(&g, protest)
        .starts_with("White (the black seat) declares the game played under protest"));
    // Without an exchange, a seat is named by its colour alone.
    let mut plain = named();
    let call = plain.push(B, Body::RefereeCalled { player: B });
    assert!(plain
        .state()
        .consequences_of(call)
        .any(|c| c.what.starts_with("Black calls the referee")));
}

#[test]
fn lgc_2023_colour_or_handicap_error_the_game_list_names_who_plays_each_colour() {
    let mut g = named();
    let head = || kifu_game::document::GameHead {
        seq: 0,
        hash: String::new(),
    };
    let before = kifu_game::document::game_summary(&[0; 32], &g.events, head());
    assert_eq!(
        (before.black.as_str(), before.white.as_str()),
        ("Alice", "Bruno")
    );
    seats_swapped(&mut g);
    g.referee(pairing(None));
    let st = g.state();
    assert_eq!(st.playing(B).map(|p| p.name.as_str()), Some("Bruno"));
    assert_eq!(st.playing(W).map(|p| p.name.as_str()), Some("Alice"));
    let after = kifu_game::document::game_summary(&[0; 32], &g.events, head());
    assert_eq!(
        (after.black.as_str(), after.white.as_str()),
        ("Bruno", "Alice")
    );
}

#[test]
fn without_an_exchange_the_seat_that_wins_is_the_colour_that_wins() {
    let mut g = named();
    g.start_clock();
    g.push(
        B,
        Body::Resigned {
            player: B,
            manner: Resignation::Spoken,
        },
    );
    let st = g.state();
    assert!(!st.colours_swapped);
    let by_rules = st.result.computed().map(|d| d.result.clone());
    assert_eq!(
        by_rules.as_ref().map(|r| r.outcome.clone()),
        Some(Outcome::Win(W))
    );
    assert_eq!(st.result_by_seat(), by_rules);
}
