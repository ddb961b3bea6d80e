//! Every kind of unauthorised signer is refused, naming the rule.

use kifu_ledger::testkit::{sample_game, Cast};
use kifu_ledger::*;

fn refused(cast: &Cast, signer: &Keypair, body: Body) -> String {
    let c = sample_game(cast, "roles");
    let rec = c.next(signer, body);
    match check_append(&c.game, &c.standing(), c.head, &rec) {
        Err(LedgerError::Refused(r)) => r.rule,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn ruling() -> Body {
    Body::RefereeRuling(Ruling {
        kind: RulingKind::Judgement,
        decision: "x".into(),
        reasons: "y".into(),
        rules_cited: vec![],
        effects: vec![],
    })
}

#[test]
fn a_player_cannot_sign_a_referee_ruling() {
    let cast = Cast::new();
    assert!(refused(&cast, &cast.black, ruling()).contains("only a referee"));
}

#[test]
fn a_referee_cannot_place_a_stone_for_a_player() {
    let cast = Cast::new();
    let r = refused(
        &cast,
        &cast.referee,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 1, y: 1 },
        },
    );
    assert!(r.contains("only the player concerned"), "{r}");
}

#[test]
fn a_player_cannot_move_for_the_opponent() {
    let cast = Cast::new();
    let r = refused(
        &cast,
        &cast.white,
        Body::Pass {
            player: Color::Black,
            pass_stone: true,
        },
    );
    assert!(r.contains("only the player concerned"), "{r}");
    let r = refused(
        &cast,
        &cast.white,
        Body::Resigned {
            player: Color::Black,
            manner: Resignation::Spoken,
        },
    );
    assert!(r.contains("only the player concerned"), "{r}");
}

#[test]
fn a_key_not_in_the_roster_can_sign_nothing() {
    let cast = Cast::new();
    for body in [
        Body::ClockPressed {
            player: Color::Black,
        },
        Body::ClockResumed {
            running: Color::Black,
        },
        ruling(),
        Body::ResultDeclared(GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Agreement,
        }),
    ] {
        assert!(refused(&cast, &cast.stranger, body).contains("not in the game's roster"));
    }
}

#[test]
fn only_a_referee_adjusts_a_clock() {
    let cast = Cast::new();
    for k in [&cast.black, &cast.director, &cast.recorder] {
        let r = refused(
            &cast,
            k,
            Body::ClockAdjusted {
                player: Color::Black,
                delta_ms: 60_000,
                reason: "".into(),
            },
        );
        assert!(r.contains("only a referee may adjust"), "{r}");
    }
}

#[test]
fn players_cannot_impose_sanctions_or_protest_for_each_other() {
    let cast = Cast::new();
    let s = Body::SanctionImposed(Sanction {
        target: SanctionTarget::Player(Color::White),
        kind: SanctionKind::Warning,
        reason: "noise".into(),
    });
    assert!(refused(&cast, &cast.black, s).contains("referee or the director"));
    let p = Body::ProtestDeclared {
        player: Color::White,
        statement: "".into(),
    };
    assert!(refused(&cast, &cast.black, p).contains("only the player concerned"));
}

#[test]
fn players_cannot_pause_for_arbitration() {
    let cast = Cast::new();
    let r = refused(
        &cast,
        &cast.black,
        Body::ClockPaused {
            reason: PauseReason::Arbitration,
        },
    );
    assert!(r.contains("may not sign"), "{r}");
}

#[test]
fn a_second_genesis_and_a_genesis_by_a_player_are_refused() {
    let cast = Cast::new();
    let r = refused(
        &cast,
        &cast.referee,
        Body::GameCreated(cast.genesis("again")),
    );
    assert!(r.contains("first event"), "{r}");
    let rec = Event::genesis(0, cast.black.public(), cast.genesis("by black"))
        .sign(&cast.black)
        .unwrap();
    assert!(matches!(check_genesis(&rec), Err(LedgerError::Refused(_))));
}

#[test]
fn the_permitted_signers_are_accepted() {
    let cast = Cast::new();
    let c = sample_game(&cast, "ok");
    for (k, body) in [
        (
            &cast.recorder,
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: Point { x: 0, y: 0 },
            },
        ),
        (&cast.referee, ruling()),
        (
            &cast.director,
            Body::SanctionImposed(Sanction {
                target: SanctionTarget::Both,
                kind: SanctionKind::Advice,
                reason: "".into(),
            }),
        ),
        (
            &cast.referee,
            Body::ClockAdjusted {
                player: Color::White,
                delta_ms: -1000,
                reason: "".into(),
            },
        ),
    ] {
        let rec = c.next(k, body);
        check_append(&c.game, &c.standing(), c.head, &rec).unwrap();
    }
}
