//! One override rule for every ruleset: applied in the order recorded (the
//! later wins), unknown keys refused by `check_overrides` and flagged by the
//! projection, never silently dropped.

mod support;
use support::*;

use kifu_ledger::*;

fn with(kind: GameKind, ruleset: &str, overrides: &[(&str, &str)]) -> G {
    let o: Vec<(String, String)> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let size = if kind == GameKind::Go { 9 } else { 15 };
    G::with(kind, ruleset, size, fischer(), |g| g.overrides = o)
}

fn genesis(g: &G) -> Genesis {
    match &g.events[0].body {
        Body::GameCreated(x) => x.clone(),
        _ => unreachable!(),
    }
}

#[test]
fn overrides_unknown_keys_are_refused_and_flagged() {
    let g = with(GameKind::Go, "lgc-2023", &[("komi_rule", "odd")]);
    let e = kifu_game::check_overrides(&genesis(&g)).unwrap_err();
    assert!(e.contains("komi_rule"), "{e}");
    let st = g.state();
    assert!(st
        .consequences
        .iter()
        .any(|c| c.what.contains("override not applied") && c.what.contains("komi_rule")));
    let r = with(
        GameKind::Renju,
        "rif-renju",
        &[("handicap_placement", "free")],
    );
    assert!(kifu_game::check_overrides(&genesis(&r)).is_err());
}

#[test]
fn overrides_apply_in_order_the_later_wins_for_go_and_renju() {
    let g = with(
        GameKind::Go,
        "lgc-2023",
        &[
            ("scoring", "area"),
            ("scoring", "territory"),
            ("move_limit", "3"),
        ],
    );
    assert!(kifu_game::check_overrides(&genesis(&g)).is_ok());
    let st = g.state();
    let kifu_game::BoardState::Go(b) = &st.board else {
        panic!("go")
    };
    assert_eq!(b.ruleset().scoring, kifu_go::Scoring::Territory);
    assert_eq!(b.ruleset().move_limit, Some(3));
    let r = with(
        GameKind::Renju,
        "rif-renju",
        &[("opening", "free"), ("opening", "yamaguchi")],
    );
    assert!(kifu_game::check_overrides(&genesis(&r)).is_ok());
    let bad = with(GameKind::Renju, "rif-renju", &[("opening", "sideways")]);
    assert!(kifu_game::check_overrides(&genesis(&bad)).is_err());
}

#[test]
fn overrides_abnormal_terminations_make_the_game_a_new_game_of_the_procedure() {
    let mut g = with(
        GameKind::Go,
        "uec-cup",
        &[("abnormal_terminations", "black")],
    );
    g.at(0);
    g.start_clock();
    g.at(MIN);
    g.recorder(Body::ProgramTerminated {
        player: B,
        statement: "crash".into(),
    });
    let st = g.state();
    let d = st.result.computed().expect("decided");
    assert_eq!(d.result, win(W, ResultBy::AbnormalTermination));
    assert!(d.rule.contains("h) Abnormal termination of programs, 4."));
    let bad = with(
        GameKind::Go,
        "uec-cup",
        &[("abnormal_terminations", "grey")],
    );
    assert!(kifu_game::check_overrides(&genesis(&bad)).is_err());
}
