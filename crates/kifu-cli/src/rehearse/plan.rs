//! What the rehearsal plays: which tables have which tablets, how long a
//! move takes at the pace asked, and the random choices, all from the seed.

use std::time::Duration;

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::RehearseArgs;

/// A move's average real time: a two-hour game of about 250 moves.
pub const REAL_MOVE_MS: f64 = 30_000.0;

/// How a table records its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    /// Each player has a tablet.
    TwoTablets,
    /// One shared tablet, a board recorder signing for both players.
    Recorder,
    /// Paper: the result reaches the desk on a result sheet.
    Paper,
}

/// The rehearsal's plan.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The arguments.
    pub args: RehearseArgs,
    /// Each table's equipment, board 1 first.
    pub tables: Vec<Table>,
}

impl Plan {
    /// The plan of `a`, or why it cannot be played.
    pub fn new(a: &RehearseArgs) -> Result<Plan, String> {
        if a.boards == 0 || a.rounds == 0 {
            return Err("kifu rehearse: --boards and --rounds must be at least 1".into());
        }
        if !(a.pace > 0.0 && a.pace.is_finite()) {
            return Err(format!(
                "kifu rehearse: --pace {} is not a positive number",
                a.pace
            ));
        }
        if a.judged > 100 || a.offline > 100 {
            return Err("kifu rehearse: --judged and --offline are percentages, 0 to 100".into());
        }
        let shares: Vec<u32> = a
            .tables
            .split(':')
            .map(|s| s.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                format!(
                    "kifu rehearse: --tables {:?} is not TWO:ONE:PAPER in percent (50:30:20)",
                    a.tables
                )
            })?;
        let [two, one, paper] = shares[..] else {
            return Err(format!(
                "kifu rehearse: --tables {:?} needs three shares, TWO:ONE:PAPER",
                a.tables
            ));
        };
        if two + one + paper != 100 {
            return Err(format!(
                "kifu rehearse: --tables {:?} adds up to {}, not 100",
                a.tables,
                two + one + paper
            ));
        }
        // Tablets on the first boards, paper on the last (as a hall is set
        // up: the top boards are broadcast).
        let n = a.boards as usize;
        let n_two = (n * two as usize + 50) / 100;
        let n_one = ((n * one as usize + 50) / 100).min(n - n_two);
        let tables = (0..n)
            .map(|i| {
                if i < n_two {
                    Table::TwoTablets
                } else if i < n_two + n_one {
                    Table::Recorder
                } else {
                    Table::Paper
                }
            })
            .collect();
        Ok(Plan {
            args: a.clone(),
            tables,
        })
    }

    /// The random choices of `what` (a table and round, the desk...),
    /// independent of every other actor's.
    pub fn rng(&self, what: u64) -> Dice {
        Dice(XorShiftRng::seed_from_u64(
            self.args.seed ^ what.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ))
    }

    /// A move's thinking time at the pace asked: between a fifth and
    /// nine fifths of the average.
    pub fn think(&self, dice: &mut Dice) -> Duration {
        let real = REAL_MOVE_MS * (0.2 + 1.6 * dice.unit());
        Duration::from_micros((real * 1000.0 / self.args.pace) as u64)
    }

    /// A game's length in real time at the pace asked, for a game of
    /// `moves` moves (what a paper board takes).
    pub fn game_time(&self, moves: u32) -> Duration {
        Duration::from_micros((REAL_MOVE_MS * 1000.0 * f64::from(moves) / self.args.pace) as u64)
    }
}

/// A seeded source of the rehearsal's random choices.
pub struct Dice(XorShiftRng);

impl Dice {
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.0.next_u64() % n
        }
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with `percent` chance in a hundred.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < u64::from(percent)
    }

    /// 32 random bytes (a key's seed).
    pub fn seed(&mut self) -> [u8; 32] {
        let mut s = [0u8; 32];
        self.0.fill_bytes(&mut s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(line: &[&str]) -> RehearseArgs {
        #[derive(Parser)]
        struct P {
            #[command(flatten)]
            a: RehearseArgs,
        }
        let mut v = vec!["rehearse"];
        v.extend_from_slice(line);
        P::parse_from(v).a
    }

    #[test]
    fn tables_follow_the_shares_tablets_first() {
        let p = Plan::new(&args(&["--boards", "10", "--tables", "50:30:20"])).unwrap();
        let count = |t| p.tables.iter().filter(|x| **x == t).count();
        assert_eq!(
            (
                count(Table::TwoTablets),
                count(Table::Recorder),
                count(Table::Paper)
            ),
            (5, 3, 2)
        );
        assert_eq!(p.tables[0], Table::TwoTablets);
        assert_eq!(p.tables[9], Table::Paper);
    }

    #[test]
    fn shares_that_do_not_add_up_are_refused() {
        let e = Plan::new(&args(&["--tables", "50:30:30"])).unwrap_err();
        assert!(e.contains("adds up to 110"), "{e}");
        let e = Plan::new(&args(&["--tables", "50:50"])).unwrap_err();
        assert!(e.contains("three shares"), "{e}");
    }

    #[test]
    fn the_same_seed_makes_the_same_choices() {
        let p = Plan::new(&args(&[])).unwrap();
        let a: Vec<u64> = (0..5).map(|_| p.rng(7).below(1000)).collect();
        let mut d1 = p.rng(7);
        let mut d2 = p.rng(7);
        assert_eq!(
            (0..5).map(|_| d1.below(1000)).collect::<Vec<_>>(),
            (0..5).map(|_| d2.below(1000)).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|x| *x < 1000));
        let t = p.think(&mut p.rng(1));
        assert!(
            t >= Duration::from_millis(10) && t <= Duration::from_millis(90),
            "{t:?}"
        );
    }
}
