//! Each game as the server last read it, kept current as records arrive:
//! its events decoded and the verdict on its chain (every link, signature
//! and role, `kifu_ledger::verify_records`). A chain is appended to, never
//! changed, so a read at a new head checks only the records after the head
//! it last saw, each against the chain's standing at its place
//! (`kifu_ledger::check_append`: link, signature, role), as the store did
//! when it appended them, instead of verifying the whole game again. A
//! tablet, the other seat's tablet, the referee's console and every
//! follower read a game after each record: at move 250 that is one
//! signature checked, not five hundred. A record an increment refuses sends
//! the game back to the whole chain's verdict, which says what is wrong.
//!
//! The answers of those reads ([`Answers`]) are kept by game, by the
//! read's query and by head: every reader of a head after the first gets
//! the bytes the first one was given.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kifu_game::GameState;
use kifu_ledger::standing::Standing;
use kifu_ledger::{check_append, verify_records, Event, Hash, Head};
use kifu_store::{Store, StoreError};

/// Most games kept (a congress plays 350 boards a round; the game read
/// least recently goes first when more are read). A game at move 250 keeps
/// about 500 decoded events, some 100 KB.
const KEPT: usize = 1_024;

/// A game as last read: its head, its events and the verdict on them.
#[derive(Debug, Default)]
pub struct Projection {
    /// The head the events end at.
    pub head: Option<Head>,
    /// The game's events, from the genesis (those that decode).
    pub events: Vec<Event>,
    /// Whether every link, signature and role of the chain checked.
    pub verified: bool,
    /// The game's state at the head (`kifu_game::GameState`), applied
    /// event by event as the events arrive.
    pub state: GameState,
    /// The chain's standing at the head, while it verifies: what the next
    /// record is checked against.
    standing: Option<Standing>,
}

impl Projection {
    /// Brings the projection to the store's head of `game`.
    fn bring_up(&mut self, store: &Store, game: &Hash) -> Result<(), StoreError> {
        let Some(head) = store.head(game)? else {
            return Err(StoreError::NoSuchGame(hex::encode(game)));
        };
        if self.head == Some(head) {
            return Ok(());
        }
        if let (Some(at), Some(standing)) = (self.head, self.standing.as_mut()) {
            if at.seq < head.seq {
                let more = store.read(game, at.seq + 1, Some(head.seq))?;
                let mut now = at;
                let mut events = Vec::with_capacity(more.len());
                for r in &more {
                    let Ok(e) = check_append(game, standing, now, r) else {
                        break;
                    };
                    standing.apply(&e);
                    now = Head {
                        seq: e.seq,
                        hash: r.hash(),
                    };
                    events.push(e);
                }
                if now == head {
                    for e in &events {
                        self.state.apply(e);
                    }
                    self.events.extend(events);
                    self.head = Some(head);
                    return Ok(());
                }
            }
        }
        // First read, a chain that does not verify, or an increment
        // refused: the whole chain.
        let records = store.read(game, 0, Some(head.seq))?;
        self.verified = verify_records(&records).ok();
        self.events = records.iter().filter_map(|r| r.decode().ok()).collect();
        self.state = GameState::replay(&self.events);
        self.standing = if self.verified {
            Standing::replay(&self.events)
        } else {
            None
        };
        self.head = Some(head);
        Ok(())
    }
}

impl Projections {
    /// Game `game` at the store's head, if its projection is kept (brought
    /// up to the head with the records since); `None` leaves the cache as
    /// it is, for a reader that would not keep a game it reads once (a
    /// listing of every game).
    pub fn current_if_kept(
        &self,
        store: &Store,
        game: &Hash,
    ) -> Result<Option<Arc<Mutex<Projection>>>, StoreError> {
        let entry = {
            let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            match kept.get(game) {
                Some(e) => e.0.clone(),
                None => return Ok(None),
            }
        };
        entry
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .bring_up(store, game)?;
        Ok(Some(entry))
    }
}

/// A game's projection, shared by its readers, and when it was last read.
type Kept = (Arc<Mutex<Projection>>, u64);

/// The projections kept, by game.
#[derive(Debug, Default)]
pub struct Projections {
    kept: Mutex<HashMap<Hash, Kept>>,
    reads: std::sync::atomic::AtomicU64,
}

impl Projections {
    /// Game `game` at the store's head: its projection, locked (readers of
    /// one game take turns; other games are not held up).
    pub fn current(
        &self,
        store: &Store,
        game: &Hash,
    ) -> Result<Arc<Mutex<Projection>>, StoreError> {
        let n = self
            .reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let entry = {
            let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            if kept.len() >= KEPT && !kept.contains_key(game) {
                if let Some(oldest) = kept.iter().min_by_key(|(_, v)| v.1).map(|(k, _)| *k) {
                    kept.remove(&oldest);
                }
            }
            let e = kept.entry(*game).or_default();
            e.1 = n;
            e.0.clone()
        };
        entry
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .bring_up(store, game)?;
        Ok(entry)
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
    use kifu_ledger::testkit::{sample_game, Cast};
    use kifu_ledger::{Body, Color};

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

    /// A game read, then read again after more records: the increment
    /// gives the events and the verdict the whole chain gives.
    #[test]
    fn a_game_read_again_after_more_records_equals_the_whole_chain_read() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let cast = Cast::new();
        let mut c = sample_game(&cast, "projection");
        let first = c.records.len();
        for r in &c.records {
            store.append(r.clone()).unwrap();
        }
        let kept = Projections::default();
        let p = kept.current(&store, &c.game).unwrap();
        assert_eq!(p.lock().unwrap().events.len(), first);
        assert!(p.lock().unwrap().verified);
        for (i, who) in [Color::Black, Color::White, Color::Black]
            .into_iter()
            .enumerate()
        {
            let key = if i % 2 == 0 { &cast.black } else { &cast.white };
            let r = c.next(key, Body::ClockPressed { player: who });
            store.append(r.clone()).unwrap();
            c.push_record(r);
        }
        let p = kept.current(&store, &c.game).unwrap();
        let p = p.lock().unwrap();
        let whole: Vec<Event> = c.records.iter().map(|r| r.decode().unwrap()).collect();
        assert_eq!(p.events, whole);
        assert_eq!(p.verified, verify_records(&c.records).ok());
        assert_eq!(p.head.unwrap(), c.head);
        assert_eq!(p.state, kifu_game::GameState::replay(&whole));
    }

    #[test]
    fn a_game_the_store_does_not_hold_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert!(Projections::default().current(&store, &[7; 32]).is_err());
    }
}
