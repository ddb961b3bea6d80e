//! Whether a game's records verify, kept per game for its head: a chain is
//! appended to, never changed, so the verdict on the records up to a head
//! (`kifu_ledger::verify_records`: every link, signature and role) is the
//! same at every read of that head. A tablet, the other seat's tablet, the
//! referee's console and every follower read a game's state after each
//! record: the signatures are checked once per head, not once per read.
//! A new head is verified afresh, from the genesis.
//!
//! The answers of those reads ([`Answers`]) are kept the same way, by game,
//! by the read's query and by head: every reader of a head after the first
//! gets the bytes the first one was given.

use std::collections::HashMap;
use std::sync::Mutex;

use kifu_ledger::{verify_records, Hash, Record};

/// Most games whose verdict is kept (a congress has 350 boards a round; the
/// oldest verdict goes first when more are read).
const KEPT: usize = 4_096;

/// The verdicts, by game: the head's hash and whether the chain up to it
/// verifies.
#[derive(Debug, Default)]
pub struct Verdicts {
    kept: Mutex<HashMap<Hash, (Hash, bool, u64)>>,
    reads: std::sync::atomic::AtomicU64,
}

impl Verdicts {
    /// Whether `records` (the whole game `game`, from its genesis) verify.
    pub fn of(&self, game: &Hash, records: &[Record]) -> bool {
        let Some(head) = records.last().map(Record::hash) else {
            return verify_records(records).ok();
        };
        let n = self
            .reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut kept) = self.kept.lock() {
            if let Some((h, ok, used)) = kept.get_mut(game) {
                if *h == head {
                    *used = n;
                    return *ok;
                }
            }
        }
        let ok = verify_records(records).ok();
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= KEPT && !kept.contains_key(game) {
                if let Some(oldest) = kept.iter().min_by_key(|(_, v)| v.2).map(|(k, _)| *k) {
                    kept.remove(&oldest);
                }
            }
            kept.insert(*game, (head, ok, n));
        }
        ok
    }
}

/// Most answers kept (a few reads a game: the device view, the replay
/// page's step, the whole state).
const ANSWERS_KEPT: usize = 2_048;

/// The answers of a game's reads, each kept for the head it was made at.
#[derive(Debug, Default)]
pub struct Answers {
    kept: Mutex<HashMap<(Hash, String), (Hash, axum::body::Bytes)>>,
}

impl Answers {
    /// The answer to the read `query` of game `game` at its head `head`,
    /// if one was kept.
    pub fn get(&self, game: &Hash, query: &str, head: &Hash) -> Option<axum::body::Bytes> {
        let kept = self.kept.lock().ok()?;
        let (h, bytes) = kept.get(&(*game, query.to_string()))?;
        (h == head).then(|| bytes.clone())
    }

    /// Keeps `bytes` as the answer to `query` of `game` at `head`.
    pub fn keep(&self, game: Hash, query: String, head: Hash, bytes: axum::body::Bytes) {
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= ANSWERS_KEPT && !kept.contains_key(&(game, query.clone())) {
                // Full: one answer goes (which one does not matter for
                // correctness: a missing answer is made again).
                if let Some(k) = kept.keys().next().cloned() {
                    kept.remove(&k);
                }
            }
            kept.insert((game, query), (head, bytes));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit;

    #[test]
    fn a_head_is_verified_once_and_a_changed_record_is_not_taken_for_it() {
        let g = testkit::moves_game(&testkit::Cast::new(), "verdicts", 12);
        let v = Verdicts::default();
        assert!(v.of(&g.game, &g.records));
        assert!(v.of(&g.game, &g.records));
        // A record altered at the head is another head: verified afresh.
        let mut bad = g.records.clone();
        let last = bad.len() - 1;
        bad[last].signature[0] ^= 1;
        assert!(!v.of(&g.game, &bad));
        // The prefix, a head of its own.
        assert!(v.of(&g.game, &g.records[..last]));
    }

    #[test]
    fn an_answer_is_given_again_only_at_the_head_it_was_made_at() {
        let a = Answers::default();
        let (game, h1, h2) = ([1; 32], [2; 32], [3; 32]);
        a.keep(
            game,
            "device=1".into(),
            h1,
            axum::body::Bytes::from_static(b"one"),
        );
        assert_eq!(a.get(&game, "device=1", &h1).as_deref(), Some(&b"one"[..]));
        assert_eq!(a.get(&game, "device=1", &h2), None, "another head");
        assert_eq!(a.get(&game, "compact=1", &h1), None, "another read");
        for i in 0..ANSWERS_KEPT + 10 {
            a.keep([9; 32], format!("at={i}"), h1, axum::body::Bytes::new());
        }
        assert!(a.kept.lock().unwrap().len() <= ANSWERS_KEPT);
    }
}
