//! Game scenarios, one per clause of the RIF rules and the RIF tournament rules.

use kifu_renju::{
    Claim, ClaimRejection, Expected, GameError, GameInput, GameSettings, OpeningRule, Outcome,
    PlayerId, RenjuGame, ResultReason, Rule, Stone, Verdict,
};

const FIRST: PlayerId = PlayerId::First;
const SECOND: PlayerId = PlayerId::Second;

fn p(s: &str) -> kifu_renju::Point {
    s.parse().expect("test coordinate")
}

fn free_game() -> RenjuGame {
    RenjuGame::new(GameSettings::default())
}

/// The player who must make the next normal move.
fn to_move(game: &RenjuGame) -> PlayerId {
    match game.expected() {
        Expected::Move { by, .. } => by,
        other => panic!("expected a normal move, game waits for {other:?}"),
    }
}

/// Plays the points in order, each by the player to move.
fn play(game: &mut RenjuGame, points: &[&str]) -> Outcome {
    let mut last = None;
    for s in points {
        let by = to_move(game);
        last = Some(
            game.apply(GameInput::Play { by, point: p(s) })
                .unwrap_or_else(|e| panic!("{s}: {e}")),
        );
    }
    last.expect("at least one move")
}

fn ended_reason(outcome: &Outcome) -> &ResultReason {
    match outcome {
        Outcome::Ended(r) => &r.reason,
        other => panic!("game should have ended, got {other:?}"),
    }
}

/// Black: f8 g8 h9 h10 (two open threes meet at h8); White far away.
fn double_three_setup(game: &mut RenjuGame) {
    play(game, &["f8", "a1", "g8", "c1", "h9", "e1", "h10", "g1"]);
}

#[test]
fn five_not_declared_play_continues() {
    let mut game = free_game();
    let out = play(
        &mut game,
        &["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"],
    );
    assert!(matches!(
        out,
        Outcome::Placed {
            verdict: Verdict::Five,
            ..
        }
    ));
    // The five is on the board, but nobody declared it: the game goes on, and White is to move.
    assert!(game.result().is_none());
    assert_eq!(to_move(&game), SECOND);
    // Nobody else may point it out: White has no five to declare.
    let out = game.apply(GameInput::DeclareFive { by: SECOND }).unwrap();
    assert!(matches!(
        out,
        Outcome::ClaimRejected {
            reason: ClaimRejection::NoFive,
            ..
        }
    ));
    play(&mut game, &["i1"]);
    // Black notices too late: White has moved, the five no longer wins.
    let out = game.apply(GameInput::DeclareFive { by: FIRST }).unwrap();
    assert_eq!(
        out,
        Outcome::ClaimRejected {
            claim: Claim::Five { by: FIRST },
            reason: ClaimRejection::FiveLapsed { move_number: 9 }
        }
    );
    assert!(game.result().is_none());
    play(&mut game, &["a15"]);
}

#[test]
fn five_declared_at_once_wins() {
    let mut game = free_game();
    play(
        &mut game,
        &["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"],
    );
    let out = game.apply(GameInput::DeclareFive { by: FIRST }).unwrap();
    assert_eq!(
        ended_reason(&out),
        &ResultReason::Five {
            move_number: 9,
            point: p("l8")
        }
    );
    let result = game.result().unwrap();
    assert_eq!(result.winner, Some(FIRST));
    assert_eq!(result.winner_colour, Some(Stone::Black));
    assert!(result.rule_ref().contains("RIF 9.1"));
    assert_eq!(
        game.apply(GameInput::Play {
            by: SECOND,
            point: p("o15")
        }),
        Err(GameError::GameOver)
    );
}

#[test]
fn auto_declare_ends_the_game_on_the_five() {
    let mut game = RenjuGame::new(GameSettings {
        auto_declare: true,
        ..GameSettings::default()
    });
    let out = play(
        &mut game,
        &["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"],
    );
    assert!(matches!(ended_reason(&out), ResultReason::Five { .. }));
}

#[test]
fn white_overline_wins_when_declared() {
    let mut game = free_game();
    // White d4 e4 f4 h4 i4 j4, then g4: seven in a row, a win for White (RIF 9.1).
    play(
        &mut game,
        &[
            "h8", "d4", "a15", "e4", "c15", "f4", "e15", "h4", "g15", "i4", "i15", "j4", "k15",
            "g4",
        ],
    );
    let out = game.apply(GameInput::DeclareFive { by: SECOND }).unwrap();
    assert!(matches!(ended_reason(&out), ResultReason::Five { .. }));
    assert_eq!(game.result().unwrap().winner_colour, Some(Stone::White));
}

#[test]
fn gomoku_standard_overline_is_no_win() {
    let mut game = RenjuGame::new(GameSettings {
        rule: Rule::GomokuStandard,
        ..GameSettings::default()
    });
    let out = play(
        &mut game,
        &[
            "d8", "a1", "e8", "c1", "f8", "e1", "h8", "g1", "i8", "i1", "j8", "k1", "g8",
        ],
    );
    assert!(matches!(
        out,
        Outcome::Placed {
            verdict: Verdict::Legal,
            ..
        }
    ));
    let out = game.apply(GameInput::DeclareFive { by: FIRST }).unwrap();
    assert!(matches!(
        out,
        Outcome::ClaimRejected {
            reason: ClaimRejection::NoFive,
            ..
        }
    ));
}

#[test]
fn forbidden_double_three_claimed_by_white_wins() {
    let mut game = free_game();
    double_three_setup(&mut game);
    let out = play(&mut game, &["h8"]);
    assert!(matches!(
        out,
        Outcome::Placed {
            verdict: Verdict::DoubleThree,
            ..
        }
    ));
    // The stone stands; nothing ends until White points it out.
    assert!(game.result().is_none());
    // Black cannot claim for White.
    assert!(matches!(
        game.apply(GameInput::ClaimForbidden {
            by: FIRST,
            point: None
        }),
        Err(GameError::NotWhite { white: SECOND })
    ));
    let out = game
        .apply(GameInput::ClaimForbidden {
            by: SECOND,
            point: None,
        })
        .unwrap();
    assert_eq!(
        ended_reason(&out),
        &ResultReason::ForbiddenMove {
            move_number: 9,
            point: p("h8"),
            kind: Verdict::DoubleThree
        }
    );
    assert_eq!(game.result().unwrap().winner, Some(SECOND));
}

#[test]
fn double_three_passed_by_playing_on_becomes_unclaimable() {
    let mut game = free_game();
    double_three_setup(&mut game);
    play(&mut game, &["h8"]);
    // White does not notice and plays on (RIF 9.8).
    play(&mut game, &["o1", "a15"]);
    let out = game
        .apply(GameInput::ClaimForbidden {
            by: SECOND,
            point: Some(p("h8")),
        })
        .unwrap();
    assert!(matches!(
        out,
        Outcome::ClaimRejected {
            reason: ClaimRejection::RightLost {
                move_number: 9,
                kind: Verdict::DoubleThree
            },
            ..
        }
    ));
    assert!(game.result().is_none());
}

#[test]
fn double_four_passed_by_a_pass_becomes_unclaimable() {
    let mut game = free_game();
    // Black e8 f8 g8 and h9 h10 h11: h8 makes two fours.
    play(
        &mut game,
        &[
            "e8", "a1", "f8", "c1", "g8", "e1", "h9", "g1", "h10", "i1", "h11", "k1",
        ],
    );
    let out = play(&mut game, &["h8"]);
    assert!(matches!(
        out,
        Outcome::Placed {
            verdict: Verdict::DoubleFour,
            ..
        }
    ));
    game.apply(GameInput::Pass { by: SECOND }).unwrap();
    let out = game
        .apply(GameInput::ClaimForbidden {
            by: SECOND,
            point: Some(p("h8")),
        })
        .unwrap();
    assert!(matches!(
        out,
        Outcome::ClaimRejected {
            reason: ClaimRejection::RightLost { .. },
            ..
        }
    ));
}

#[test]
fn overline_still_claimable_after_play_goes_on() {
    let mut game = free_game();
    play(
        &mut game,
        &[
            "d8", "a1", "e8", "c1", "f8", "e1", "h8", "g1", "i8", "i1", "j8", "k1",
        ],
    );
    let out = play(&mut game, &["g8"]);
    assert!(matches!(
        out,
        Outcome::Placed {
            verdict: Verdict::Overline,
            ..
        }
    ));
    // White misses it and the game goes on for several moves.
    play(&mut game, &["m1", "a15", "o1", "c15"]);
    // RIF 9.8: an overline may still be claimed while the game has not otherwise ended.
    let out = game
        .apply(GameInput::ClaimForbidden {
            by: SECOND,
            point: Some(p("g8")),
        })
        .unwrap();
    assert!(matches!(
        ended_reason(&out),
        ResultReason::ForbiddenMove {
            kind: Verdict::Overline,
            ..
        }
    ));
    assert!(game.result().unwrap().rule_ref().contains("9.8"));
}

#[test]
fn claim_of_a_legal_move_is_rejected_and_play_goes_on() {
    let mut game = free_game();
    play(&mut game, &["h8", "a1", "i9"]);
    let out = game
        .apply(GameInput::ClaimForbidden {
            by: SECOND,
            point: None,
        })
        .unwrap();
    assert!(matches!(
        out,
        Outcome::ClaimRejected {
            reason: ClaimRejection::NotForbidden {
                move_number: 3,
                verdict: Verdict::Legal
            },
            ..
        }
    ));
    play(&mut game, &["a3"]);
}

#[test]
fn five_unclaimed_then_forbidden_move_loses() {
    let mut game = free_game();
    // Black makes a five b2-f2 at move 9 and does not declare it.
    let out = play(
        &mut game,
        &["b2", "a15", "c2", "c15", "d2", "e15", "e2", "g15", "f2"],
    );
    assert!(matches!(
        out,
        Outcome::Placed {
            verdict: Verdict::Five,
            ..
        }
    ));
    // White plays on; later Black plays a double-three at h8.
    play(
        &mut game,
        &[
            "i15", "f8", "k15", "g8", "m15", "h9", "o15", "h10", "o13", "h8",
        ],
    );
    // Too late to declare the old five (RIF 9.7: it does not protect Black)...
    let out = game.apply(GameInput::DeclareFive { by: FIRST }).unwrap();
    assert!(matches!(
        out,
        Outcome::ClaimRejected {
            reason: ClaimRejection::FiveLapsed { move_number: 9 },
            ..
        }
    ));
    // ...and White's claim of the forbidden move wins.
    let out = game
        .apply(GameInput::ClaimForbidden {
            by: SECOND,
            point: None,
        })
        .unwrap();
    assert!(matches!(
        ended_reason(&out),
        ResultReason::ForbiddenMove {
            kind: Verdict::DoubleThree,
            ..
        }
    ));
    assert_eq!(game.result().unwrap().winner, Some(SECOND));
}

#[test]
fn disputed_claim_goes_to_the_referee() {
    let mut game = free_game();
    double_three_setup(&mut game);
    play(&mut game, &["h8"]);
    game.apply(GameInput::ClaimForbidden {
        by: SECOND,
        point: None,
    })
    .unwrap();
    assert!(game.result().is_some());
    // Black disagrees and calls the referee.
    let out = game.apply(GameInput::Dispute { by: FIRST }).unwrap();
    assert!(matches!(
        out,
        Outcome::NeedsReferee {
            claim: Claim::Forbidden { .. }
        }
    ));
    assert_eq!(game.expected(), Expected::RefereeRuling);
    assert_eq!(
        game.apply(GameInput::Play {
            by: SECOND,
            point: p("o1")
        }),
        Err(GameError::AwaitingReferee)
    );
    // The referee's decision is final.
    let out = game
        .apply(GameInput::RefereeRuling { upheld: true })
        .unwrap();
    assert!(matches!(&out, Outcome::Ended(r) if r.ruled_by_referee));
    assert_eq!(
        game.apply(GameInput::Dispute { by: FIRST }),
        Err(GameError::GameOver)
    );
}

#[test]
fn referee_overrules_a_claim_and_play_goes_on() {
    let mut game = free_game();
    double_three_setup(&mut game);
    play(&mut game, &["h8"]);
    game.apply(GameInput::ClaimForbidden {
        by: SECOND,
        point: None,
    })
    .unwrap();
    game.apply(GameInput::Dispute { by: FIRST }).unwrap();
    let out = game
        .apply(GameInput::RefereeRuling { upheld: false })
        .unwrap();
    assert!(matches!(out, Outcome::ClaimOverruled { .. }));
    assert!(game.result().is_none());
    assert_eq!(to_move(&game), SECOND);
}

#[test]
fn draw_offer_accepted() {
    let mut game = free_game();
    play(&mut game, &["h8", "i9", "h9"]);
    // Black has just moved: he may offer while White's clock runs.
    game.apply(GameInput::OfferDraw { by: FIRST }).unwrap();
    let out = game.apply(GameInput::AcceptDraw { by: SECOND }).unwrap();
    assert_eq!(ended_reason(&out), &ResultReason::DrawAgreed);
    assert!(game.result().unwrap().is_draw());
}

#[test]
fn draw_offer_rejected_by_playing_the_next_move() {
    let mut game = free_game();
    play(&mut game, &["h8", "i9"]);
    game.apply(GameInput::OfferDraw { by: SECOND }).unwrap();
    let out = play(&mut game, &["h9"]);
    assert!(matches!(
        out,
        Outcome::Placed {
            draw_offer_rejected: true,
            ..
        }
    ));
    assert_eq!(
        game.apply(GameInput::AcceptDraw { by: FIRST }),
        Err(GameError::NoDrawOffer)
    );
    assert!(game.result().is_none());
}

#[test]
fn draw_may_be_offered_only_after_ones_own_move() {
    let mut game = free_game();
    assert_eq!(
        game.apply(GameInput::OfferDraw { by: FIRST }),
        Err(GameError::DrawOfferNotAllowed)
    );
    play(&mut game, &["h8"]);
    // White to move: White may not offer before moving.
    assert_eq!(
        game.apply(GameInput::OfferDraw { by: SECOND }),
        Err(GameError::DrawOfferNotAllowed)
    );
    game.apply(GameInput::OfferDraw { by: FIRST }).unwrap();
    // No second offer while one is pending.
    assert_eq!(
        game.apply(GameInput::OfferDraw { by: FIRST }),
        Err(GameError::DrawOfferNotAllowed)
    );
}

#[test]
fn two_passes_in_succession_draw() {
    let mut game = free_game();
    play(&mut game, &["h8", "i9"]);
    let out = game.apply(GameInput::Pass { by: FIRST }).unwrap();
    assert!(matches!(out, Outcome::Passed { .. }));
    // A stone in between resets the count.
    play(&mut game, &["i8"]);
    game.apply(GameInput::Pass { by: FIRST }).unwrap();
    let out = game.apply(GameInput::Pass { by: SECOND }).unwrap();
    assert_eq!(ended_reason(&out), &ResultReason::TwoPasses);
    assert!(game.result().unwrap().rule_ref().contains("10.3"));
}

/// Black on (x + 2y) mod 4 < 2: no line of five for either colour anywhere, 113 black stones.
fn full_board_order() -> Vec<String> {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for q in kifu_renju::Point::all() {
        let (x, y) = (u32::from(q.column()), u32::from(q.row()));
        if (x + 2 * y) % 4 < 2 {
            black.push(q.to_string());
        } else {
            white.push(q.to_string());
        }
    }
    assert_eq!((black.len(), white.len()), (113, 112));
    let mut order = Vec::new();
    for i in 0..113 {
        order.push(black[i].clone());
        if i < 112 {
            order.push(white[i].clone());
        }
    }
    order
}

#[test]
fn full_board_without_a_claim_is_a_draw() {
    let mut game = RenjuGame::new(GameSettings {
        rule: Rule::GomokuFreestyle,
        ..GameSettings::default()
    });
    let order = full_board_order();
    let refs: Vec<&str> = order.iter().map(String::as_str).collect();
    let out = play(&mut game, &refs);
    assert!(game.board().is_full());
    assert_eq!(ended_reason(&out), &ResultReason::FullBoard);
    assert!(game.result().unwrap().rule_ref().contains("10.1"));
}

#[test]
fn full_board_under_renju_rules_is_a_draw_once_white_plays_on() {
    let mut game = free_game();
    let order = full_board_order();
    let refs: Vec<&str> = order.iter().map(String::as_str).collect();
    let out = play(&mut game, &refs);
    assert!(game.board().is_full());
    // If Black's last stone was forbidden, White may still claim; passing instead gives up
    // the claim and the full board is a draw.
    if !matches!(out, Outcome::Ended(_)) {
        let out = game.apply(GameInput::Pass { by: SECOND }).unwrap();
        assert_eq!(ended_reason(&out), &ResultReason::FullBoard);
    }
    assert_eq!(game.result().unwrap().reason, ResultReason::FullBoard);
}

#[test]
fn resignation_and_time() {
    let mut game = free_game();
    play(&mut game, &["h8"]);
    let out = game.apply(GameInput::Resign { by: SECOND }).unwrap();
    assert_eq!(ended_reason(&out), &ResultReason::Resignation);
    assert_eq!(game.result().unwrap().winner, Some(FIRST));

    let mut game = free_game();
    let out = game
        .apply(GameInput::TimeExpired { player: FIRST })
        .unwrap();
    assert_eq!(ended_reason(&out), &ResultReason::TimeExpired);
    assert_eq!(game.result().unwrap().winner_colour, Some(Stone::White));
}

fn opening_game(rule: &str) -> RenjuGame {
    RenjuGame::new(GameSettings {
        opening: rule.parse().expect("opening name"),
        ..GameSettings::default()
    })
}

#[test]
fn soosorv_8_opening_swaps_decide_who_holds_black() {
    let mut game = opening_game("soosorv-8");
    assert_eq!(
        game.expected(),
        Expected::OpeningStone {
            number: 1,
            by: FIRST,
            region: 1
        }
    );
    // The first player lays out one of the 26 openings: all three stones.
    assert!(matches!(
        game.apply(GameInput::Play {
            by: FIRST,
            point: p("h9")
        }),
        Err(GameError::OutsideRegion { number: 1, .. })
    ));
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("h8"),
    })
    .unwrap();
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("i9"),
    })
    .unwrap();
    assert!(matches!(
        game.apply(GameInput::Play {
            by: FIRST,
            point: p("l8")
        }),
        Err(GameError::OutsideRegion {
            number: 3,
            size: 5,
            ..
        })
    ));
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("j8"),
    })
    .unwrap();
    // No pass in the opening.
    assert_eq!(
        game.apply(GameInput::Pass { by: SECOND }),
        Err(GameError::PassInOpening)
    );
    // The other player takes Black.
    assert_eq!(game.expected(), Expected::SwapDecision { by: SECOND });
    let out = game
        .apply(GameInput::Swap {
            by: SECOND,
            swap: true,
        })
        .unwrap();
    assert_eq!(
        out,
        Outcome::Swapped {
            swapped: true,
            black: SECOND
        }
    );
    // Now the first player holds White: he plays the 4th anywhere and declares the count.
    assert_eq!(
        game.expected(),
        Expected::OpeningStone {
            number: 4,
            by: FIRST,
            region: 15
        }
    );
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("g10"),
    })
    .unwrap();
    assert!(matches!(
        game.apply(GameInput::DeclareFifthCount {
            by: FIRST,
            count: 9
        }),
        Err(GameError::BadFifthCount { count: 9, max: 8 })
    ));
    game.apply(GameInput::DeclareFifthCount {
        by: FIRST,
        count: 2,
    })
    .unwrap();
    // Second swap option for the Black player: he gives Black back.
    assert_eq!(game.expected(), Expected::SwapDecision { by: SECOND });
    game.apply(GameInput::Swap {
        by: SECOND,
        swap: true,
    })
    .unwrap();
    assert_eq!(game.black_player(), FIRST);
    // Black offers two fifth moves; symmetric ones are refused.
    assert_eq!(
        game.expected(),
        Expected::FifthProposals {
            by: FIRST,
            count: 2
        }
    );
    assert!(matches!(
        game.apply(GameInput::ProposeFifths {
            by: FIRST,
            points: vec![p("k7")]
        }),
        Err(GameError::WrongFifthCount {
            given: 1,
            required: 2
        })
    ));
    game.apply(GameInput::ProposeFifths {
        by: FIRST,
        points: vec![p("k7"), p("f6")],
    })
    .unwrap();
    // White chooses; the chosen point becomes Black's 5th stone, and White plays the 6th.
    assert!(matches!(
        game.apply(GameInput::ChooseFifth {
            by: SECOND,
            point: p("a1")
        }),
        Err(GameError::NotOffered { .. })
    ));
    let out = game
        .apply(GameInput::ChooseFifth {
            by: SECOND,
            point: p("f6"),
        })
        .unwrap();
    assert!(matches!(
        out,
        Outcome::Placed {
            move_number: 5,
            colour: Stone::Black,
            ..
        }
    ));
    assert_eq!(
        game.expected(),
        Expected::Move {
            by: SECOND,
            colour: Stone::White
        }
    );
    assert_eq!(game.board().stone_count(), 5);
    play(&mut game, &["o15"]);
}

#[test]
fn symmetric_fifth_moves_are_refused() {
    let mut game = opening_game("rif");
    // h8, h9, h10: symmetric about the h column; the 4th on the h column keeps it so.
    for s in ["h8", "h9", "h10"] {
        game.apply(GameInput::Play {
            by: FIRST,
            point: p(s),
        })
        .unwrap();
    }
    game.apply(GameInput::Swap {
        by: SECOND,
        swap: false,
    })
    .unwrap();
    game.apply(GameInput::Play {
        by: SECOND,
        point: p("h12"),
    })
    .unwrap();
    assert!(matches!(
        game.apply(GameInput::ProposeFifths {
            by: FIRST,
            points: vec![p("g7"), p("i7")]
        }),
        Err(GameError::SymmetricFifths { .. })
    ));
    game.apply(GameInput::ProposeFifths {
        by: FIRST,
        points: vec![p("g7"), p("i6")],
    })
    .unwrap();
    game.apply(GameInput::ChooseFifth {
        by: SECOND,
        point: p("i6"),
    })
    .unwrap();
    assert_eq!(game.black_player(), FIRST);
    assert_eq!(to_move(&game), SECOND);
}

#[test]
fn taraguchi_10_opening_with_ten_fifth_moves() {
    let mut game = opening_game("taraguchi-10");
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("h8"),
    })
    .unwrap();
    game.apply(GameInput::Swap {
        by: SECOND,
        swap: false,
    })
    .unwrap();
    // White (the second player) puts the 2nd stone inside the central 3x3.
    game.apply(GameInput::Play {
        by: SECOND,
        point: p("i9"),
    })
    .unwrap();
    // The first player may swap: he takes White, so the second player now holds Black.
    game.apply(GameInput::Swap {
        by: FIRST,
        swap: true,
    })
    .unwrap();
    assert_eq!(game.black_player(), SECOND);
    assert_eq!(
        game.expected(),
        Expected::OpeningStone {
            number: 3,
            by: SECOND,
            region: 5
        }
    );
    game.apply(GameInput::Play {
        by: SECOND,
        point: p("j10"),
    })
    .unwrap();
    game.apply(GameInput::Swap {
        by: FIRST,
        swap: false,
    })
    .unwrap();
    assert!(matches!(
        game.apply(GameInput::Play {
            by: FIRST,
            point: p("l12")
        }),
        Err(GameError::OutsideRegion {
            number: 4,
            size: 7,
            ..
        })
    ));
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("g10"),
    })
    .unwrap();
    game.apply(GameInput::Swap {
        by: SECOND,
        swap: false,
    })
    .unwrap();
    assert_eq!(
        game.expected(),
        Expected::FifthStoneOrProposals {
            by: SECOND,
            region: 9,
            count: 10
        }
    );
    let ten: Vec<_> = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "o1", "o15", "a15"]
        .into_iter()
        .map(p)
        .collect();
    game.apply(GameInput::ProposeFifths {
        by: SECOND,
        points: ten,
    })
    .unwrap();
    game.apply(GameInput::ChooseFifth {
        by: FIRST,
        point: p("o1"),
    })
    .unwrap();
    assert_eq!(
        game.expected(),
        Expected::Move {
            by: FIRST,
            colour: Stone::White
        }
    );
}

#[test]
fn taraguchi_10_opening_with_a_fifth_stone_and_last_swap() {
    let mut game = opening_game("taraguchi-10");
    let steps = [
        GameInput::Play {
            by: FIRST,
            point: p("h8"),
        },
        GameInput::Swap {
            by: SECOND,
            swap: false,
        },
        GameInput::Play {
            by: SECOND,
            point: p("h9"),
        },
        GameInput::Swap {
            by: FIRST,
            swap: false,
        },
        GameInput::Play {
            by: FIRST,
            point: p("i10"),
        },
        GameInput::Swap {
            by: SECOND,
            swap: false,
        },
        GameInput::Play {
            by: SECOND,
            point: p("g6"),
        },
        GameInput::Swap {
            by: FIRST,
            swap: false,
        },
    ];
    for s in steps {
        game.apply(s).unwrap();
    }
    // Black puts the 5th inside the central 9x9; then White may swap.
    assert!(matches!(
        game.apply(GameInput::Play {
            by: FIRST,
            point: p("a1")
        }),
        Err(GameError::OutsideRegion {
            number: 5,
            size: 9,
            ..
        })
    ));
    game.apply(GameInput::Play {
        by: FIRST,
        point: p("l11"),
    })
    .unwrap();
    assert_eq!(game.expected(), Expected::SwapDecision { by: SECOND });
    game.apply(GameInput::Swap {
        by: SECOND,
        swap: true,
    })
    .unwrap();
    // The second player took Black; the first player now plays White's 6th anywhere.
    assert_eq!(game.black_player(), SECOND);
    assert_eq!(
        game.expected(),
        Expected::Move {
            by: FIRST,
            colour: Stone::White
        }
    );
}

#[test]
fn yamaguchi_opening_declares_the_count_before_the_swap() {
    let mut game = opening_game("yamaguchi");
    for s in ["h8", "g9", "j8"] {
        game.apply(GameInput::Play {
            by: FIRST,
            point: p(s),
        })
        .unwrap();
    }
    assert!(matches!(
        game.expected(),
        Expected::FifthCount { by: FIRST, .. }
    ));
    game.apply(GameInput::DeclareFifthCount {
        by: FIRST,
        count: 3,
    })
    .unwrap();
    game.apply(GameInput::Swap {
        by: SECOND,
        swap: false,
    })
    .unwrap();
    game.apply(GameInput::Play {
        by: SECOND,
        point: p("k10"),
    })
    .unwrap();
    assert_eq!(
        game.expected(),
        Expected::FifthProposals {
            by: FIRST,
            count: 3
        }
    );
    game.apply(GameInput::ProposeFifths {
        by: FIRST,
        points: vec![p("a1"), p("o1"), p("e5")],
    })
    .unwrap();
    game.apply(GameInput::ChooseFifth {
        by: SECOND,
        point: p("e5"),
    })
    .unwrap();
    assert_eq!(to_move(&game), SECOND);
}

#[test]
fn inputs_serialise_for_the_ledger() {
    let input = GameInput::ClaimForbidden {
        by: SECOND,
        point: Some(p("h8")),
    };
    let json = serde_json::to_string(&input).unwrap();
    assert_eq!(
        json,
        r#"{"input":"claim_forbidden","by":"second","point":"h8"}"#
    );
    let back: GameInput = serde_json::from_str(&json).unwrap();
    assert_eq!(back, input);
    let settings = GameSettings {
        opening: OpeningRule::Soosorv { max_fifths: 8 },
        ..GameSettings::default()
    };
    let json = serde_json::to_string(&settings).unwrap();
    assert!(json.contains(r#""opening":"soosorv-8""#), "{json}");
    assert!(json.contains(r#""rule":"rif-renju""#), "{json}");
}
