//! A director's swaps and the draw's explanation on the generator's
//! tournaments: a swap keeps every player of the draw in exactly one
//! place, moves the two players named and no one else, gives each board
//! the handicap the rule gives its players with the stronger as White, and
//! the explanation tells the numbers the draw used.

use std::collections::BTreeMap;

use kifu_pairing::generate::{play, tournament, Rng, Shape};
use kifu_pairing::{apply_swaps, explain, pair, Draw, PairingSettings, SwapError, System};
use proptest::prelude::*;

/// Where each player of `d` sits: (table, "W"/"B") or (0, "bye").
fn seats(d: &Draw) -> BTreeMap<String, (u32, &'static str)> {
    let mut out = BTreeMap::new();
    for b in &d.boards {
        out.insert(b.white.clone(), (b.table, "W"));
        out.insert(b.black.clone(), (b.table, "B"));
    }
    if let Some(p) = &d.bye {
        out.insert(p.clone(), (0, "bye"));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn a_swap_moves_the_two_players_named_and_the_rule_gives_each_changed_board_its_handicap(
        seed in any::<u64>(),
        players in 3usize..30,
        earlier in 0u32..3,
        swiss in any::<bool>(),
        pick in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
    ) {
        let system = if swiss { System::Swiss } else { System::McMahon };
        let s = PairingSettings::for_system(system);
        let mut rng = Rng::new(seed);
        let mut t = tournament(&Shape::new(players, earlier + 1, system), &mut rng);
        for round in 1..=earlier {
            let d = pair(&t, round, &s).expect("pairs");
            play(&mut t, &d, &mut rng);
        }
        let round = earlier + 1;
        let d = pair(&t, round, &s).expect("pairs");
        let before = seats(&d);
        let ids: Vec<&String> = before.keys().collect();
        prop_assume!(ids.len() >= 2);
        let (a, b) = (ids[pick.0.index(ids.len())].clone(), ids[pick.1.index(ids.len())].clone());
        let changed = match apply_swaps(&t, &s, &d, &[(a.as_str(), b.as_str())]) {
            Err(SwapError::SamePlayer(_)) => {
                prop_assert_eq!(&a, &b);
                return Ok(());
            }
            Err(SwapError::HandicapColours { table, .. }) => {
                prop_assert_eq!(before[&a].0, table);
                prop_assert_eq!(before[&b].0, table);
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
            Ok(c) => c,
        };
        let after = seats(&changed);
        prop_assert_eq!(after.len(), before.len(), "everyone in one place");
        prop_assert_eq!(after[&a].0, before[&b].0, "{} took {}'s table", a, b);
        prop_assert_eq!(after[&b].0, before[&a].0);
        for (id, seat) in &before {
            if id != &a && id != &b {
                prop_assert_eq!(after[id].0, seat.0, "{} stayed at its table", id);
            }
        }
        prop_assert_eq!(
            changed.boards.iter().map(|x| x.table).collect::<Vec<_>>(),
            d.boards.iter().map(|x| x.table).collect::<Vec<_>>()
        );
        // The explanation of the changed draw: a board with a handicap has
        // its stronger player as White; every handicap within the rule.
        let why = explain(&t, &changed, &s).expect("explains");
        prop_assert_eq!(why.boards.len(), changed.boards.len());
        for (x, w) in changed.boards.iter().zip(&why.boards) {
            prop_assert_eq!(x.handicap, w.handicap);
            prop_assert_eq!((&x.white, &x.black), (&w.white.id, &w.black.id));
            if system == System::Swiss {
                prop_assert_eq!(x.handicap, 0);
                prop_assert!(w.handicap_why.starts_with("no handicap"), "{}", w.handicap_why);
            }
            if x.handicap > 0 {
                prop_assert!(w.white.score > w.black.score, "{:?}", w);
                prop_assert!(x.handicap <= 9);
            }
            prop_assert_eq!(w.white.colours.len() as u32, earlier);
            prop_assert!((w.score_difference - (w.white.score - w.black.score).abs()).abs() < 1e-9);
        }
        prop_assert_eq!(why.bye.map(|b| b.player.id), changed.bye.clone());
    }
}

#[test]
fn the_draw_s_own_boards_are_explained_as_drawn() {
    let s = PairingSettings::for_system(System::McMahon);
    let mut rng = Rng::new(11);
    let mut t = tournament(&Shape::new(17, 3, System::McMahon), &mut rng);
    for round in 1..=2 {
        let d = pair(&t, round, &s).expect("pairs");
        play(&mut t, &d, &mut rng);
    }
    let d = pair(&t, 3, &s).expect("pairs");
    // No swap: the same draw.
    assert_eq!(apply_swaps(&t, &s, &d, &[]).expect("nothing to do"), d);
    let why = explain(&t, &d, &s).expect("explains");
    for w in &why.boards {
        // As drawn, an even game's White is the rule's.
        assert!(!w.handicap_why.contains("as the director set it"), "{w:?}");
        assert_eq!(w.white.colours.len(), 2);
    }
    // A player not in the draw.
    assert!(matches!(
        apply_swaps(&t, &s, &d, &[(d.boards[0].white.as_str(), "nobody")]),
        Err(SwapError::NotInDraw(..))
    ));
}
