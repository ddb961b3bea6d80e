//! Random tournaments for tests and benchmarks, from a seed: players of
//! every strength from a few countries and clubs, late entries,
//! withdrawals and absences, SMMS corrections, and results of the rounds
//! drawn so far. The same seed gives the same tournament, byte for byte.
//!
//! Nothing here is used by the draw itself: [`crate::pair`] never draws a
//! random number.

use kifu_standings::{Game, GameResult, Player, Rank, Settings, Tournament};

use crate::settings::System;
use crate::Draw;

/// A small deterministic generator (SplitMix64): the tests' only source of
/// chance, seeded by the caller.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// What kind of tournament to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Registered players.
    pub players: usize,
    /// Rounds.
    pub rounds: u32,
    /// McMahon or Swiss.
    pub system: System,
    /// Percent of players who miss the first round or two.
    pub late_entries: u64,
    /// Percent of players who withdraw after round 2.
    pub withdrawals: u64,
    /// Percent chance of any player missing any one round.
    pub absences: u64,
}

impl Shape {
    /// `players` players, `rounds` rounds, a few late entries,
    /// withdrawals and absences.
    pub fn new(players: usize, rounds: u32, system: System) -> Shape {
        Shape {
            players,
            rounds,
            system,
            late_entries: 8,
            withdrawals: 5,
            absences: 4,
        }
    }
}

const SURNAMES: &[&str] = &[
    "Abe",
    "Berg",
    "Costa",
    "Dvorak",
    "Eriksson",
    "Fujita",
    "Garcia",
    "Horvat",
    "Ivanov",
    "Jansen",
    "Kato",
    "Lindqvist",
    "Müller",
    "Novak",
    "Ota",
    "Petit",
    "Quist",
    "Rossi",
    "Sato",
    "Tanaka",
    "Ueda",
    "Virtanen",
    "Weber",
    "Xu",
    "Yamada",
    "Zieliński",
    "de Vries",
    "van Dijk",
    "Øberg",
    "Łukasz",
];
const GIVEN: &[&str] = &[
    "Ana", "Ben", "Chloé", "Dario", "Emil", "Fay", "Gert", "Hana", "Ivo", "Jun", "Kai", "Lena",
    "Max", "Nora", "Olaf", "Pia", "Rui", "Sven", "Tomás", "Uma", "Vera", "Wim", "Yuki", "Zoë",
];
const COUNTRIES: &[&str] = &["NL", "DE", "FR", "CZ", "PL", "JP"];

/// A tournament of `shape`'s players and absences, no round played.
/// Registration ids are OpenGotha's key strings (surname and given name,
/// blanks removed, upper case), so the tournament reads the same in
/// OpenGotha.
pub fn tournament(shape: &Shape, rng: &mut Rng) -> Tournament {
    let settings = match shape.system {
        System::McMahon => Settings::mcmahon(shape.rounds),
        System::Swiss => Settings::swiss(shape.rounds),
    };
    let mut t = Tournament::new(settings);
    let mut ids = std::collections::BTreeSet::new();
    while t.players.len() < shape.players {
        let surname = rng.pick(SURNAMES);
        let given = format!("{}{}", rng.pick(GIVEN), rng.below(1000));
        let id = format!("{surname}{given}").replace(' ', "").to_uppercase();
        if !ids.insert(id.clone()) {
            continue;
        }
        // Ranks from 25k to 6d, most between 10k and 2d.
        let rank = (rng.below(16) + rng.below(16)) as i32 - 25;
        let mut p = Player::new(&id, surname, &given, Rank::from_value(rank));
        p.rating = (2100 + 100 * rank + rng.below(100) as i32 - 50).max(100);
        let country = if rng.chance(70) {
            COUNTRIES[0]
        } else {
            rng.pick(COUNTRIES)
        };
        p.country = country.to_string();
        p.club = format!("{}{}", country, rng.below(4));
        if rng.chance(3) {
            p.smms_correction = rng.below(4) as i32 - 1;
        }
        t.players.push(p);
    }
    let rounds = shape.rounds;
    for p in &t.players {
        let late = if rng.chance(shape.late_entries) {
            1 + rng.below(2) as u32
        } else {
            0
        };
        let withdrawn = if rounds > 2 && rng.chance(shape.withdrawals) {
            3 + rng.below(u64::from(rounds - 2)) as u32
        } else {
            rounds + 1
        };
        for r in 1..=rounds {
            if r <= late || r >= withdrawn || rng.chance(shape.absences) {
                t.absences.insert((r, p.id.clone()));
            }
        }
    }
    t
}

/// Records `draw` in `t` with results: the stronger side (rank difference
/// less the handicap) wins more often; a jigo now and then.
pub fn play(t: &mut Tournament, draw: &Draw, rng: &mut Rng) {
    let rank = |t: &Tournament, id: &str| t.player(id).map(|p| p.rank.value()).unwrap_or(0);
    for b in &draw.boards {
        let edge = rank(t, &b.white) - rank(t, &b.black) - i32::from(b.handicap);
        let white_wins = (50 + 10 * edge).clamp(10, 90) as u64;
        let result = if rng.chance(2) {
            GameResult::Jigo
        } else if rng.chance(white_wins) {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        };
        t.games.push(Game {
            round: draw.round,
            board: b.table,
            white: b.white.clone(),
            black: b.black.clone(),
            handicap: b.handicap,
            result,
            by_default: false,
            colours_known: true,
        });
    }
    if let Some(p) = &draw.bye {
        t.byes.insert((draw.round, p.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_tournament() {
        let shape = Shape::new(40, 5, System::McMahon);
        let a = tournament(&shape, &mut Rng::new(7));
        let b = tournament(&shape, &mut Rng::new(7));
        let c = tournament(&shape, &mut Rng::new(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.players.len(), 40);
        assert!(a.validate().is_ok());
        assert!(!a.absences.is_empty());
    }
}
