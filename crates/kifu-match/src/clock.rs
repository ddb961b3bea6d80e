//! The server's time sources, behind a trait so that the referee can be
//! driven deterministically in tests.
//!
//! UEC Cup, "3:Time limit": "The time will be measured by the server. The
//! server will count time by 0.1 seconds." The referee reads a monotonic
//! count to measure each `genmove` and the wall clock to date each fact.

use std::time::Instant;

/// Where the referee reads time.
pub trait ServerClock {
    /// A monotonic count in milliseconds (for measuring durations).
    fn monotonic_ms(&self) -> u64;
    /// Milliseconds since the Unix epoch (for dating facts).
    fn wall_ms(&self) -> u64;
}

/// The machine's clocks.
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose monotonic count starts now.
    pub fn new() -> SystemClock {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl ServerClock for SystemClock {
    fn monotonic_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }
    fn wall_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }
}

/// Charges time in whole tenths of a second, as the UEC Cup server counts.
///
/// The exact milliseconds used are accumulated and each move is charged the
/// tenths that the running total crossed, so a player's total charge never
/// differs from the exact total by 0.1 s or more, and every charge is a
/// multiple of 100 ms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TenthsCounter {
    exact_ms: u64,
}

impl TenthsCounter {
    /// Adds `elapsed_ms` and returns the charge for it, in ms (a multiple of 100).
    pub fn charge(&mut self, elapsed_ms: u64) -> u64 {
        let before = self.exact_ms / 100;
        self.exact_ms = self.exact_ms.saturating_add(elapsed_ms);
        (self.exact_ms / 100 - before) * 100
    }

    /// The total charged so far, in ms.
    pub fn charged_ms(&self) -> u64 {
        self.exact_ms / 100 * 100
    }

    /// The exact total measured, in ms.
    pub fn exact_ms(&self) -> u64 {
        self.exact_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_charged_in_tenths_and_the_total_stays_within_a_tenth() {
        let mut c = TenthsCounter::default();
        assert_eq!(c.charge(99), 0);
        assert_eq!(c.charge(2), 100);
        assert_eq!(c.charge(1234), 1200);
        assert_eq!(c.charged_ms(), 1300);
        assert_eq!(c.exact_ms(), 1335);
        let mut total = 0;
        let mut c = TenthsCounter::default();
        for i in 0..1000u64 {
            let step = (i * 37) % 251;
            let charged = c.charge(step);
            assert_eq!(charged % 100, 0);
            total += charged;
            assert!(c.exact_ms() - total < 100);
        }
    }
}
