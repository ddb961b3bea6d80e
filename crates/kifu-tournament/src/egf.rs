//! The EGF tournament class and adjusted time, from the tournament's time
//! control, as the EGF Rating Commission defines them ("EGF tournament
//! class", the classes in force since 1999, with the Fischer rule approved
//! in October 2010; also A. Cieply, "Comments on submitting tournament
//! results", and OpenGotha's `GeneralParameterSet` computation):
//!
//! - adjusted time = basic time + the time of 45 moves in standard
//!   byo-yomi (45 × the period), of 60 moves in Canadian byo-yomi
//!   (60 × block ÷ stones), or the bonus of 120 moves with Fischer
//!   (120 × increment); with sudden death it is the basic time;
//! - class A: basic ≥ 60 min and adjusted ≥ 75 min; B: ≥ 40 and ≥ 50;
//!   C: ≥ 25 and ≥ 30. With Fischer the basic-time minimums are 45, 30
//!   and 20 min. A tournament below class C is not a classified EGF
//!   tournament: its class is written `X`, as OpenGotha writes it.
//!
//! A game without a clock, or with a clock that has no basic time and no
//! overtime the EGF counts, gives no class: [`timing`] refuses to guess.

use kifu_ledger::TimeControl;

/// The class and adjusted time of a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EgfTiming {
    /// `A`, `B`, `C`, or `X` below class C.
    pub class: &'static str,
    /// Adjusted time in whole minutes (rounded down).
    pub adjusted_minutes: u32,
    /// Adjusted time in seconds.
    pub adjusted_seconds: u64,
}

/// Why a time control gives no EGF class.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EgfTimingError {
    /// The tournament records no clock.
    #[error(
        "the tournament's time control is untimed, so its EGF class and adjusted time are not known"
    )]
    Untimed,
    /// A time per move with no basic time is none of the EGF's systems.
    #[error("the tournament's time control (a fixed time per move) is not one the EGF classifies")]
    NotClassified,
}

/// The EGF class and adjusted time of `tc` (module documentation).
pub fn timing(tc: &TimeControl) -> Result<EgfTiming, EgfTimingError> {
    let (basic_ms, adjusted_ms, fischer) = match *tc {
        TimeControl::Untimed => return Err(EgfTimingError::Untimed),
        TimeControl::Simple { .. } => return Err(EgfTimingError::NotClassified),
        TimeControl::SuddenDeath { main_ms } => (main_ms, main_ms, false),
        TimeControl::Byoyomi {
            main_ms, period_ms, ..
        } => (
            main_ms,
            main_ms.saturating_add(period_ms.saturating_mul(45)),
            false,
        ),
        TimeControl::Canadian {
            main_ms,
            stones,
            block_ms,
        } => {
            let sixty_moves = block_ms.saturating_mul(60) / u64::from(stones.max(1));
            (main_ms, main_ms.saturating_add(sixty_moves), false)
        }
        TimeControl::Fischer {
            main_ms,
            increment_ms,
            ..
        } => (
            main_ms,
            main_ms.saturating_add(increment_ms.saturating_mul(120)),
            true,
        ),
    };
    // (basic, adjusted) minimums in minutes, for A, B and C.
    let limits: [(&str, u64, u64); 3] = if fischer {
        [("A", 45, 75), ("B", 30, 50), ("C", 20, 30)]
    } else {
        [("A", 60, 75), ("B", 40, 50), ("C", 25, 30)]
    };
    let class = limits
        .iter()
        .find(|(_, basic, adjusted)| basic_ms >= basic * 60_000 && adjusted_ms >= adjusted * 60_000)
        .map(|(c, _, _)| *c)
        .unwrap_or("X");
    Ok(EgfTiming {
        class,
        adjusted_minutes: u32::try_from(adjusted_ms / 60_000).unwrap_or(u32::MAX),
        adjusted_seconds: adjusted_ms / 1000,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;
    const SEC: u64 = 1000;

    fn check(tc: TimeControl, class: &str, minutes: u32) {
        let t = timing(&tc).expect("classified");
        assert_eq!((t.class, t.adjusted_minutes), (class, minutes), "{tc:?}");
    }

    #[test]
    fn canadian_counts_sixty_moves() {
        // 60 min + 15 stones in 5 min: 20 s a move, 60 moves = 20 min.
        check(
            TimeControl::Canadian {
                main_ms: 60 * MIN,
                stones: 15,
                block_ms: 5 * MIN,
            },
            "A",
            80,
        );
        // 40 min + 25 stones in 5 min: 12 s a move, 12 min: B (52).
        check(
            TimeControl::Canadian {
                main_ms: 40 * MIN,
                stones: 25,
                block_ms: 5 * MIN,
            },
            "B",
            52,
        );
        // 60 min + 20 stones in 5 min: 15 s, 15 min: 75, class A exactly.
        check(
            TimeControl::Canadian {
                main_ms: 60 * MIN,
                stones: 20,
                block_ms: 5 * MIN,
            },
            "A",
            75,
        );
    }

    #[test]
    fn standard_byoyomi_counts_forty_five_moves() {
        // 60 min + 5 × 30 s: 45 × 30 s = 22.5 min, 82.5 → 82.
        check(
            TimeControl::Byoyomi {
                main_ms: 60 * MIN,
                periods: 5,
                period_ms: 30 * SEC,
            },
            "A",
            82,
        );
        // 30 min + 3 × 20 s: 15 min, 45: basic ≥ 25 and adjusted ≥ 30: C.
        check(
            TimeControl::Byoyomi {
                main_ms: 30 * MIN,
                periods: 3,
                period_ms: 20 * SEC,
            },
            "C",
            45,
        );
    }

    #[test]
    fn fischer_counts_a_hundred_and_twenty_moves() {
        // The EGF's own examples: 45 min + 15 s is A (75), 30 + 10 s is B
        // (50), 20 + 5 s is C (30).
        for (main, inc, class, adjusted) in [(45, 15, "A", 75), (30, 10, "B", 50), (20, 5, "C", 30)]
        {
            check(
                TimeControl::Fischer {
                    main_ms: main * MIN,
                    increment_ms: inc * SEC,
                    max_ms: None,
                },
                class,
                adjusted,
            );
        }
    }

    #[test]
    fn sudden_death_is_its_basic_time() {
        check(TimeControl::SuddenDeath { main_ms: 90 * MIN }, "A", 90);
        check(TimeControl::SuddenDeath { main_ms: 45 * MIN }, "C", 45);
        // Below class C: not classified.
        check(TimeControl::SuddenDeath { main_ms: 20 * MIN }, "X", 20);
    }

    #[test]
    fn no_clock_gives_no_class() {
        assert_eq!(timing(&TimeControl::Untimed), Err(EgfTimingError::Untimed));
        assert_eq!(
            timing(&TimeControl::Simple {
                per_move_ms: 30 * SEC
            }),
            Err(EgfTimingError::NotClassified)
        );
    }
}
