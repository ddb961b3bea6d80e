//! Invariants of the game state machine on random input sequences: a rejected input changes
//! nothing, replay is deterministic, and the board holds exactly the stones the outcomes placed.

use std::sync::atomic::{AtomicUsize, Ordering};

use kifu_renju::{
    Expected, GameInput, GameSettings, OpeningRule, Outcome, PlayerId, Point, RenjuGame, Rule,
};
use proptest::prelude::*;

fn player() -> impl Strategy<Value = PlayerId> {
    prop_oneof![Just(PlayerId::First), Just(PlayerId::Second)]
}

/// Points near the centre, so that fives and forbidden shapes occur.
fn point() -> impl Strategy<Value = Point> {
    (4u8..11, 4u8..11).prop_map(|(x, y)| Point::new(x, y).expect("on board"))
}

fn input() -> impl Strategy<Value = GameInput> {
    prop_oneof![
        12 => (player(), point()).prop_map(|(by, point)| GameInput::Play { by, point }),
        1 => player().prop_map(|by| GameInput::Pass { by }),
        2 => (player(), any::<bool>()).prop_map(|(by, swap)| GameInput::Swap { by, swap }),
        1 => (player(), 0u8..12).prop_map(|(by, count)| GameInput::DeclareFifthCount { by, count }),
        2 => (player(), prop::collection::vec(point(), 0..11))
            .prop_map(|(by, points)| GameInput::ProposeFifths { by, points }),
        2 => (player(), point()).prop_map(|(by, point)| GameInput::ChooseFifth { by, point }),
        2 => player().prop_map(|by| GameInput::DeclareFive { by }),
        2 => (player(), prop::option::of(point()))
            .prop_map(|(by, point)| GameInput::ClaimForbidden { by, point }),
        1 => player().prop_map(|by| GameInput::Dispute { by }),
        1 => any::<bool>().prop_map(|upheld| GameInput::RefereeRuling { upheld }),
        1 => player().prop_map(|by| GameInput::OfferDraw { by }),
        1 => player().prop_map(|by| GameInput::AcceptDraw { by }),
    ]
}

fn settings() -> impl Strategy<Value = GameSettings> {
    (
        prop_oneof![
            Just(Rule::RifRenju),
            Just(Rule::GomokuFreestyle),
            Just(Rule::GomokuStandard)
        ],
        prop_oneof![
            Just(OpeningRule::Free),
            Just(OpeningRule::Rif),
            Just(OpeningRule::Yamaguchi),
            Just(OpeningRule::Soosorv { max_fifths: 8 }),
            Just(OpeningRule::Taraguchi { fifths: 10 }),
        ],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(rule, opening, auto_declare, auto_claim_forbidden)| GameSettings {
                rule,
                opening,
                auto_declare,
                auto_claim_forbidden,
            },
        )
}

/// The player the game waits for, if any.
fn expected_actor(game: &RenjuGame) -> Option<PlayerId> {
    match game.expected() {
        Expected::OpeningStone { by, .. }
        | Expected::SwapDecision { by }
        | Expected::FifthCount { by, .. }
        | Expected::FifthProposals { by, .. }
        | Expected::FifthStoneOrProposals { by, .. }
        | Expected::FifthChoice { by, .. }
        | Expected::Move { by, .. } => Some(by),
        Expected::RefereeRuling | Expected::Nothing => None,
    }
}

/// Most inputs come from the player the game waits for, so that games get going.
fn steer(input: GameInput, game: &RenjuGame, steer: bool) -> GameInput {
    let Some(who) = expected_actor(game).filter(|_| steer) else {
        return input;
    };
    match input {
        GameInput::Play { point, .. } => {
            // Opening stones usually land inside their central square.
            let region = match game.expected() {
                Expected::OpeningStone { region, .. }
                | Expected::FifthStoneOrProposals { region, .. } => region,
                _ => 15,
            };
            let fold = |c: u8| 7 - region / 2 + c % region;
            let point = Point::new(fold(point.column()), fold(point.row())).unwrap_or(point);
            GameInput::Play { by: who, point }
        }
        GameInput::Pass { .. } => GameInput::Pass { by: who },
        GameInput::Swap { swap, .. } => GameInput::Swap { by: who, swap },
        GameInput::DeclareFifthCount { count, .. } => {
            GameInput::DeclareFifthCount { by: who, count }
        }
        GameInput::ProposeFifths { points, .. } => GameInput::ProposeFifths { by: who, points },
        GameInput::ChooseFifth { point, .. } => match game.expected() {
            // Usually choose an offered point.
            Expected::FifthChoice { offered, .. } if !offered.is_empty() => {
                GameInput::ChooseFifth {
                    by: who,
                    point: offered[usize::from(point.column()) % offered.len()],
                }
            }
            _ => GameInput::ChooseFifth { by: who, point },
        },
        other => other,
    }
}

static IN_PLAY: AtomicUsize = AtomicUsize::new(0);
static ENDED: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn rejected_inputs_change_nothing_and_replay_is_deterministic(
        settings in settings(),
        inputs in prop::collection::vec((input(), prop::bool::weighted(0.85)), 0..200),
    ) {
        let mut game = RenjuGame::new(settings);
        let mut accepted = Vec::new();
        let mut outcomes = Vec::new();
        let mut placed = 0usize;
        for (input, steered) in inputs {
            let input = steer(input, &game, steered);
            let before = game.clone();
            match game.apply(input.clone()) {
                Ok(outcome) => {
                    if matches!(outcome, Outcome::Placed { .. }) {
                        placed += 1;
                    }
                    accepted.push(input);
                    outcomes.push(outcome);
                }
                Err(_) => prop_assert_eq!(&game, &before),
            }
        }
        // Stones only come from Placed outcomes (a move ending the game reports Ended).
        prop_assert!(game.board().stone_count() >= placed);
        prop_assert_eq!(
            game.board().stone_count(),
            game.moves().iter().filter(|m| m.verdict.is_some()).count()
        );
        if matches!(game.expected(), Expected::Move { .. }) || game.moves().len() > 5 {
            IN_PLAY.fetch_add(1, Ordering::Relaxed);
        }
        if game.result().is_some() {
            ENDED.fetch_add(1, Ordering::Relaxed);
        }
        let mut again = RenjuGame::new(settings);
        for (input, outcome) in accepted.into_iter().zip(outcomes) {
            prop_assert_eq!(again.apply(input), Ok(outcome));
        }
        prop_assert_eq!(again, game);
    }
}

#[test]
fn zz_report_coverage() {
    eprintln!(
        "game properties (counts from this process): {} reached play, {} ended",
        IN_PLAY.load(Ordering::Relaxed),
        ENDED.load(Ordering::Relaxed)
    );
}
