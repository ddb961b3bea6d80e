//! Where the referee writes: a signed game chain per game, behind a trait.
//!
//! [`StoreLedger`] writes through the client's [`kifu_client::Backend`] (a
//! local store, or a `kifu serve` in front of one) as each fact happens
//! (every append is durable before the referee goes on): the one way a
//! match writes, so a match played locally and one played through a server
//! are written alike; [`MemoryLedger`] keeps the
//! records in memory for tests. Both sign with the key they are given and
//! check the append as the store would (links, roles).

use std::collections::HashMap;

use kifu_client::{Appended, Backend};
use kifu_ledger::standing::Standing;
use kifu_ledger::{check_append, check_genesis, Body, Event, Genesis, Hash, Head, Keypair, Record};

use crate::MatchError;

/// A place to record game chains.
pub trait GameLedger {
    /// Signs and writes the genesis; returns the game id.
    fn create(&mut self, key: &Keypair, genesis: Genesis, at_ms: u64) -> Result<Hash, MatchError>;
    /// Signs and appends one fact to `game`; returns its sequence number.
    fn append(
        &mut self,
        game: &Hash,
        key: &Keypair,
        body: Body,
        at_ms: u64,
    ) -> Result<u64, MatchError>;
}

/// Where signed records are appended: the client's [`Backend`] (a store,
/// or a server the command line appends through), or anything else that
/// answers with what a store acknowledged.
pub trait Appender {
    /// Appends one signed record, durable when this returns.
    fn append_record(&self, record: Record) -> Result<Appended, MatchError>;
    /// The head of `game`, when it is held.
    fn head_of(&self, game: &Hash) -> Result<Option<Head>, MatchError>;
}

/// Records into the data directory, or through a `kifu serve` (so that a
/// match is in the live feed and on the replay page as it is played):
/// acknowledged durable there.
impl Appender for Backend {
    fn append_record(&self, record: Record) -> Result<Appended, MatchError> {
        Ok(self.append(record)?)
    }

    fn head_of(&self, game: &Hash) -> Result<Option<Head>, MatchError> {
        self.head(game)
            .map_err(|e| MatchError::UnknownGame(e.to_string()))
    }
}

/// Records through a [`Backend`] (or any [`Appender`]) as each fact happens:
/// every fact is signed here and acknowledged durable before the referee
/// goes on.
pub struct StoreLedger<'a, A: Appender + ?Sized = Backend> {
    store: &'a A,
    heads: HashMap<Hash, Head>,
}

impl<'a, A: Appender + ?Sized> StoreLedger<'a, A> {
    /// Writes into `store`.
    pub fn new(store: &'a A) -> StoreLedger<'a, A> {
        StoreLedger {
            store,
            heads: HashMap::new(),
        }
    }

    fn write(&mut self, record: Record) -> Result<Appended, MatchError> {
        let a = self.store.append_record(record)?;
        self.heads.insert(
            a.game,
            Head {
                seq: a.seq,
                hash: a.hash,
            },
        );
        Ok(a)
    }
}

impl<A: Appender + ?Sized> GameLedger for StoreLedger<'_, A> {
    fn create(&mut self, key: &Keypair, genesis: Genesis, at_ms: u64) -> Result<Hash, MatchError> {
        let rec = Event::genesis(at_ms, key.public(), genesis).sign(key)?;
        Ok(self.write(rec)?.game)
    }

    fn append(
        &mut self,
        game: &Hash,
        key: &Keypair,
        body: Body,
        at_ms: u64,
    ) -> Result<u64, MatchError> {
        let head = match self.heads.get(game) {
            Some(h) => *h,
            None => self
                .store
                .head_of(game)?
                .ok_or_else(|| MatchError::UnknownGame(hex::encode(game)))?,
        };
        let rec = Event::next(*game, head, at_ms, key.public(), body).sign(key)?;
        Ok(self.write(rec)?.seq)
    }
}

/// Keeps chains in memory (tests, dry runs).
#[derive(Debug, Default)]
pub struct MemoryLedger {
    chains: HashMap<Hash, (Standing, Vec<Record>)>,
    order: Vec<Hash>,
}

impl MemoryLedger {
    /// An empty ledger.
    pub fn new() -> MemoryLedger {
        MemoryLedger::default()
    }

    /// The records of `game`, in order.
    pub fn records(&self, game: &Hash) -> &[Record] {
        self.chains
            .get(game)
            .map(|(_, r)| r.as_slice())
            .unwrap_or(&[])
    }

    /// The decoded events of `game`.
    pub fn events(&self, game: &Hash) -> Vec<Event> {
        self.records(game)
            .iter()
            .filter_map(|r| r.decode().ok())
            .collect()
    }

    /// Every game created, in order.
    pub fn games(&self) -> &[Hash] {
        &self.order
    }
}

impl GameLedger for MemoryLedger {
    fn create(&mut self, key: &Keypair, genesis: Genesis, at_ms: u64) -> Result<Hash, MatchError> {
        let rec = Event::genesis(at_ms, key.public(), genesis).sign(key)?;
        let (_, g) = check_genesis(&rec)?;
        let id = rec.hash();
        self.chains
            .insert(id, (Standing::new(&g, at_ms), vec![rec]));
        self.order.push(id);
        Ok(id)
    }

    fn append(
        &mut self,
        game: &Hash,
        key: &Keypair,
        body: Body,
        at_ms: u64,
    ) -> Result<u64, MatchError> {
        let (standing, records) = self
            .chains
            .get_mut(game)
            .ok_or_else(|| MatchError::UnknownGame(hex::encode(game)))?;
        let last = records
            .last()
            .ok_or_else(|| MatchError::UnknownGame(hex::encode(game)))?;
        let head = Head {
            seq: records.len() as u64 - 1,
            hash: last.hash(),
        };
        let rec = Event::next(*game, head, at_ms, key.public(), body).sign(key)?;
        let event = check_append(game, standing, head, &rec)?;
        standing.apply(&event);
        records.push(rec);
        Ok(head.seq + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::Cast;
    use kifu_ledger::{Color, Point};

    #[test]
    fn the_store_ledger_signs_each_fact_and_the_store_holds_it_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Backend::Local(kifu_store::Store::open(dir.path()).unwrap());
        let cast = Cast::new();
        let mut ledger = StoreLedger::new(&store);
        let game = ledger
            .create(&cast.recorder, cast.genesis("unit"), 1_000)
            .unwrap();
        let stone = Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 3, y: 3 },
        };
        assert_eq!(
            ledger.append(&game, &cast.recorder, stone, 2_000).unwrap(),
            1
        );
        assert_eq!(store.head(&game).unwrap().map(|h| h.seq), Some(1));
        // A second ledger over the same store finds the head in the store.
        let mut again = StoreLedger::new(&store);
        let pass = Body::Pass {
            player: Color::White,
            pass_stone: false,
        };
        assert_eq!(again.append(&game, &cast.recorder, pass, 3_000).unwrap(), 2);
        let unknown = again.append(
            &[9; 32],
            &cast.recorder,
            Body::Pass {
                player: Color::White,
                pass_stone: false,
            },
            4_000,
        );
        assert!(matches!(unknown, Err(MatchError::UnknownGame(_))));
    }
}
