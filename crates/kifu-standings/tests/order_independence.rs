//! Standings do not depend on the order in which one round's pairings and
//! results were recorded.

use kifu_standings::{
    breakdown, standings, Criterion, Game, GameResult, Player, Rank, Settings, Tournament, Value,
};
use proptest::prelude::*;

const RESULTS: [GameResult; 6] = [
    GameResult::Unknown,
    GameResult::WhiteWins,
    GameResult::BlackWins,
    GameResult::Jigo,
    GameResult::BothLose,
    GameResult::BothWin,
];

#[derive(Debug, Clone)]
struct RoundPlan {
    /// Sort keys giving the pairing order of the players.
    keys: Vec<u16>,
    /// (result index, by default, handicap) per board.
    boards: Vec<(usize, bool, u8)>,
    /// What the odd player gets: 0 bye, 1 absent, 2 nothing.
    odd: u8,
}

fn build(n: usize, ranks: &[i32], plans: &[RoundPlan], half: bool) -> Tournament {
    let mut settings = Settings::mcmahon(plans.len() as u32);
    settings.unplayed_as_half = half;
    let mut t = Tournament::new(settings);
    for (i, &rank) in ranks.iter().enumerate().take(n) {
        let id = format!("P{i}");
        t.players.push(Player::new(
            &id,
            &format!("N{}", i % 3),
            &id,
            Rank::from_value(rank),
        ));
    }
    for (r, plan) in plans.iter().enumerate() {
        let round = r as u32 + 1;
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (plan.keys[i], i));
        let mut board = 0;
        for pair in order.chunks(2) {
            if let [w, b] = pair {
                let (res, by_default, handicap) = plan.boards[board % plan.boards.len()];
                board += 1;
                t.games.push(Game {
                    round,
                    board: board as u32,
                    white: format!("P{w}"),
                    black: format!("P{b}"),
                    handicap,
                    result: RESULTS[res],
                    by_default,
                    colours_known: true,
                });
            } else {
                let id = format!("P{}", pair[0]);
                match plan.odd {
                    0 => {
                        t.byes.insert((round, id));
                    }
                    1 => {
                        t.absences.insert((round, id));
                    }
                    _ => {}
                }
            }
        }
    }
    t
}

fn plan(n: usize) -> impl Strategy<Value = RoundPlan> {
    (
        proptest::collection::vec(any::<u16>(), n),
        proptest::collection::vec((0usize..6, any::<bool>(), 0u8..3), 1..5),
        0u8..3,
    )
        .prop_map(|(keys, boards, odd)| RoundPlan { keys, boards, odd })
}

fn tournament() -> impl Strategy<Value = (usize, Vec<i32>, Vec<RoundPlan>, bool)> {
    (2usize..9, 1usize..5, any::<bool>()).prop_flat_map(|(n, rounds, half)| {
        (
            Just(n),
            proptest::collection::vec(-25i32..6, n),
            proptest::collection::vec(plan(n), rounds),
            Just(half),
        )
    })
}

proptest! {
    #[test]
    fn standings_do_not_depend_on_the_order_of_a_rounds_records(
        (n, ranks, plans, half) in tournament(),
        round_pick in any::<prop::sample::Index>(),
        rotate in 0usize..8,
        reverse in any::<bool>(),
    ) {
        let t = build(n, &ranks, &plans, half);
        let round = round_pick.index(plans.len()) as u32 + 1;
        let mut shuffled = t.clone();
        let (mut this, rest): (Vec<Game>, Vec<Game>) =
            shuffled.games.drain(..).partition(|g| g.round == round);
        if !this.is_empty() {
            let k = rotate % this.len();
            this.rotate_left(k);
        }
        if reverse {
            this.reverse();
        }
        shuffled.games = rest.into_iter().chain(this).collect();
        let after = plans.len() as u32;
        for criteria in [
            vec![Criterion::Mms, Criterion::Sosm, Criterion::Sososm],
            vec![Criterion::Nbw, Criterion::Dc, Criterion::Sosw],
            vec![Criterion::Points, Criterion::Buchholz, Criterion::Sdc, Criterion::HeadToHead],
        ] {
            let a = standings(&t, after, &criteria, &Criterion::ALL).expect("standings");
            let b = standings(&shuffled, after, &criteria, &Criterion::ALL).expect("standings");
            prop_assert_eq!(a, b);
        }
    }

    /// Every value but the group criteria is its base, plus its
    /// adjustment, plus the parts it counts; there is one part per round.
    #[test]
    fn breakdown_parts_add_up_to_every_value(
        (n, ranks, plans, half) in tournament(),
        round_pick in any::<prop::sample::Index>(),
    ) {
        let t = build(n, &ranks, &plans, half);
        let after = round_pick.index(plans.len()) as u32 + 1;
        let all: Vec<Criterion> = Criterion::ALL.to_vec();
        let st = standings(&t, after, &all, &[]).expect("standings");
        for p in &t.players {
            let b = breakdown(&t, after, &all, &p.id).expect("breakdown");
            prop_assert_eq!(b.len(), all.len());
            let row = st.rows.iter().find(|r| r.player == p.id).expect("row");
            for x in &b {
                prop_assert_eq!(Some(x.value), row.get(x.criterion));
                if matches!(x.criterion, Criterion::Dc | Criterion::Sdc | Criterion::HeadToHead) {
                    continue;
                }
                prop_assert_eq!(x.parts.len(), after as usize);
                let counted: Value = x.parts.iter().filter(|q| q.counted).map(|q| q.value).sum();
                prop_assert_eq!(
                    x.base + x.adjustment + counted,
                    x.value,
                    "{} of {} after round {}: {:?}", x.criterion, p.id, after, x
                );
            }
        }
    }
}
