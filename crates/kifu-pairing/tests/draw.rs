//! The draw's invariants on the generator's tournaments, and a few
//! situations worked by hand from OpenGotha's rules.

use std::collections::{BTreeSet, HashMap};

use kifu_pairing::generate::{play, tournament, Rng, Shape};
use kifu_pairing::{draw_cost, pair, Draw, PairingError, PairingSettings, System};
use kifu_standings::{Game, GameResult, Participation, Player, Rank, Settings, Tournament};
use proptest::prelude::*;

/// A generated tournament with `played` rounds drawn by kifu and played.
fn played(seed: u64, players: usize, played: u32, system: System) -> Tournament {
    let mut rng = Rng::new(seed);
    let mut t = tournament(&Shape::new(players, played + 1, system), &mut rng);
    let s = PairingSettings::for_system(system);
    for round in 1..=played {
        let d = pair(&t, round, &s).expect("a generated tournament pairs");
        play(&mut t, &d, &mut rng);
    }
    t
}

/// Players present in `round` and not yet paired, less the bye.
fn to_pair(t: &Tournament, round: u32, d: &Draw) -> Vec<String> {
    t.players
        .iter()
        .filter(|p| matches!(t.participation(round, &p.id), Participation::NotAssigned))
        .filter(|p| d.bye.as_deref() != Some(p.id.as_str()))
        .map(|p| p.id.clone())
        .collect()
}

fn have_met(t: &Tournament, round: u32, a: &str, b: &str) -> bool {
    t.games.iter().any(|g| {
        g.round < round && ((g.white == a && g.black == b) || (g.white == b && g.black == a))
    })
}

/// The best total of a perfect matching of `n` players with pair weights
/// `w`, and whether one exists without a pair that `repeat` marks.
fn brute_force(w: &[Vec<i64>], repeat: &[Vec<bool>]) -> (i64, bool) {
    fn go(
        free: u32,
        w: &[Vec<i64>],
        repeat: &[Vec<bool>],
        memo: &mut HashMap<u32, (i64, bool)>,
    ) -> (i64, bool) {
        if free == 0 {
            return (0, true);
        }
        if let Some(&v) = memo.get(&free) {
            return v;
        }
        let i = free.trailing_zeros() as usize;
        let rest = free & !(1 << i);
        let (mut best, mut fresh) = (i64::MIN, false);
        for j in 0..w.len() {
            if rest & (1 << j) != 0 {
                let (v, f) = go(rest & !(1 << j), w, repeat, memo);
                best = best.max(v + w[i][j]);
                fresh |= f && !repeat[i][j];
            }
        }
        memo.insert(free, (best, fresh));
        (best, fresh)
    }
    go((1u32 << w.len()) - 1, w, repeat, &mut HashMap::new())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_present_player_is_paired_once_or_has_the_bye(
        seed in any::<u64>(),
        players in 2usize..40,
        earlier in 0u32..4,
        swiss in any::<bool>(),
    ) {
        let system = if swiss { System::Swiss } else { System::McMahon };
        let t = played(seed, players, earlier, system);
        let round = earlier + 1;
        let d = pair(&t, round, &PairingSettings::for_system(system)).expect("pairs");
        let present: BTreeSet<String> = t
            .players
            .iter()
            .filter(|p| !t.absences.contains(&(round, p.id.clone())))
            .map(|p| p.id.clone())
            .collect();
        let mut seen = BTreeSet::new();
        for b in &d.boards {
            prop_assert!(seen.insert(b.white.clone()), "{} twice", b.white);
            prop_assert!(seen.insert(b.black.clone()), "{} twice", b.black);
        }
        prop_assert_eq!(d.bye.is_some(), present.len() % 2 == 1);
        if let Some(bye) = &d.bye {
            prop_assert!(seen.insert(bye.clone()));
        }
        prop_assert_eq!(seen, present);
        let tables: Vec<u32> = d.boards.iter().map(|b| b.table).collect();
        prop_assert_eq!(tables, (1..=d.boards.len() as u32).collect::<Vec<_>>());
        if system == System::Swiss {
            prop_assert!(d.boards.iter().all(|b| b.handicap == 0));
        }
    }

    #[test]
    fn the_draw_is_the_best_of_all_pairings_and_repeats_only_when_it_must(
        seed in any::<u64>(),
        players in 2usize..=13,
        earlier in 0u32..5,
        swiss in any::<bool>(),
    ) {
        let system = if swiss { System::Swiss } else { System::McMahon };
        let s = PairingSettings::for_system(system);
        let t = played(seed, players, earlier, system);
        let round = earlier + 1;
        let d = pair(&t, round, &s).expect("pairs");
        let ids = to_pair(&t, round, &d);
        prop_assert!(ids.len() <= 12);
        let n = ids.len();
        let mut w = vec![vec![0i64; n]; n];
        let mut repeat = vec![vec![false; n]; n];
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    w[i][j] = draw_cost(&t, round, &s, &[(ids[i].clone(), ids[j].clone())])
                        .expect("cost");
                    repeat[i][j] = have_met(&t, round, &ids[i], &ids[j]);
                }
            }
        }
        let pairs: Vec<(String, String)> =
            d.boards.iter().map(|b| (b.white.clone(), b.black.clone())).collect();
        let ours = draw_cost(&t, round, &s, &pairs).expect("cost");
        let (best, avoidable) = brute_force(&w, &repeat);
        prop_assert_eq!(ours, if n == 0 { 0 } else { best });
        let repeats = pairs.iter().filter(|(a, b)| have_met(&t, round, a, b)).count();
        if avoidable {
            prop_assert_eq!(repeats, 0, "a pair meets again though another draw avoids it");
        }
    }
}

fn player(id: &str, rank: &str) -> Player {
    let mut p = Player::new(id, id, "", rank.parse::<Rank>().expect("rank"));
    p.rating = 1000;
    p.club = id.into();
    p
}

fn game(round: u32, board: u32, white: &str, black: &str, result: GameResult) -> Game {
    Game {
        round,
        board,
        white: white.into(),
        black: black.into(),
        handicap: 0,
        result,
        by_default: false,
        colours_known: true,
    }
}

#[test]
fn mcmahon_handicap_is_the_mms_difference_less_one_and_the_stronger_takes_white() {
    // OpenGotha's McMahon defaults: handicap from the MMS (1k: 29, 5k: 25),
    // reduced by one: 3 stones, White to the 1k.
    let mut t = Tournament::new(Settings::mcmahon(3));
    t.players = vec![player("Kyu1", "1k"), player("Kyu5", "5k")];
    let d = pair(&t, 1, &PairingSettings::mcmahon()).expect("pairs");
    assert_eq!(d.boards.len(), 1);
    let b = &d.boards[0];
    assert_eq!(
        (b.white.as_str(), b.black.as_str(), b.handicap),
        ("Kyu1", "Kyu5", 3)
    );
    // Above the threshold (1d) ranks count as 1d: no handicap between 1d and 4d.
    t.players = vec![player("Dan1", "1d"), player("Dan4", "4d")];
    let d = pair(&t, 1, &PairingSettings::mcmahon()).expect("pairs");
    assert_eq!(d.boards[0].handicap, 0);
    // Swiss: even games whatever the ranks.
    let mut t = Tournament::new(Settings::swiss(3));
    t.players = vec![player("Kyu1", "1k"), player("Kyu9", "9k")];
    let d = pair(&t, 1, &PairingSettings::swiss()).expect("pairs");
    assert_eq!(d.boards[0].handicap, 0);
}

#[test]
fn the_bye_goes_to_the_weakest_who_has_not_had_one() {
    let mut t = Tournament::new(Settings::mcmahon(3));
    t.players = vec![player("A", "2d"), player("B", "1k"), player("C", "10k")];
    let s = PairingSettings::mcmahon();
    let d = pair(&t, 1, &s).expect("pairs");
    assert_eq!(d.bye.as_deref(), Some("C"));
    // C had the bye in round 1: 1000 more on C's weight, the 1k has it now.
    t.games.push(game(1, 1, "A", "B", GameResult::WhiteWins));
    t.byes.insert((1, "C".into()));
    let d = pair(&t, 2, &s).expect("pairs");
    assert_eq!(d.bye.as_deref(), Some("B"));
}

#[test]
fn a_second_game_between_the_same_players_is_avoided_when_another_draw_exists() {
    // Round 1: A-B and C-D; round 2 pairs across whatever the scores say.
    let mut t = Tournament::new(Settings::swiss(3));
    t.players = vec![
        player("A", "1d"),
        player("B", "1d"),
        player("C", "1d"),
        player("D", "1d"),
    ];
    t.games.push(game(1, 1, "A", "B", GameResult::WhiteWins));
    t.games.push(game(1, 2, "C", "D", GameResult::WhiteWins));
    let d = pair(&t, 2, &PairingSettings::swiss()).expect("pairs");
    for b in &d.boards {
        let pair: BTreeSet<&str> = [b.white.as_str(), b.black.as_str()].into();
        assert!(
            pair != ["A", "B"].into() && pair != ["C", "D"].into(),
            "{d:?}"
        );
    }
    // The winners meet on table 1 (same score group), the losers on table 2;
    // each took White in round 1, so colours follow the names' draw.
    let winners: BTreeSet<&str> = [d.boards[0].white.as_str(), d.boards[0].black.as_str()].into();
    assert_eq!(winners, ["A", "C"].into());
}

#[test]
fn bad_rounds_and_an_odd_field_with_the_bye_given_are_refused() {
    let mut t = Tournament::new(Settings::swiss(2));
    t.players = vec![
        player("A", "1d"),
        player("B", "1d"),
        player("C", "1d"),
        player("D", "1d"),
    ];
    assert_eq!(
        pair(&t, 3, &PairingSettings::swiss()),
        Err(PairingError::NoSuchRound {
            round: 3,
            rounds: 2
        })
    );
    t.byes.insert((1, "A".into()));
    t.games.push(game(1, 1, "B", "C", GameResult::Unknown));
    // D is left alone and the bye is A's.
    assert!(matches!(
        pair(&t, 1, &PairingSettings::swiss()),
        Err(PairingError::ByeAlreadyGiven { round: 1, .. })
    ));
}

#[test]
fn a_field_of_seven_hundred_is_matched_in_groups_and_everyone_present_is_paired() {
    // Above 600 players OpenGotha matches groups of at least 200 from the
    // top score down; every present player is still paired once.
    let t = played(7, 700, 1, System::McMahon);
    let d = pair(&t, 2, &PairingSettings::mcmahon()).expect("pairs");
    let present = t
        .players
        .iter()
        .filter(|p| !t.absences.contains(&(2, p.id.clone())))
        .count();
    assert!(present > kifu_pairing::GROUP_MAX, "{present} present");
    let mut seen = BTreeSet::new();
    for b in &d.boards {
        assert!(seen.insert(b.white.clone()) && seen.insert(b.black.clone()));
    }
    assert_eq!(seen.len() + usize::from(d.bye.is_some()), present);
}
