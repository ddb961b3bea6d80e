//! Where the referee writes: a signed game chain per game, behind a trait.
//!
//! [`StoreLedger`] writes into a `kifu-store` as each fact happens (every
//! append is durable before the referee goes on); [`MemoryLedger`] keeps the
//! records in memory for tests. Both sign with the key they are given and
//! check the append as the store would (links, roles).

use std::collections::HashMap;

use kifu_ledger::{
    check_append, check_genesis, Body, Event, Genesis, Hash, Head, Keypair, Record, Standing,
};
use kifu_store::Store;

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

/// Records into a `kifu-store`.
pub struct StoreLedger<'a> {
    store: &'a Store,
    heads: HashMap<Hash, Head>,
}

impl<'a> StoreLedger<'a> {
    /// Writes into `store`.
    pub fn new(store: &'a Store) -> StoreLedger<'a> {
        StoreLedger {
            store,
            heads: HashMap::new(),
        }
    }
}

impl GameLedger for StoreLedger<'_> {
    fn create(&mut self, key: &Keypair, genesis: Genesis, at_ms: u64) -> Result<Hash, MatchError> {
        let rec = Event::genesis(at_ms, key.public(), genesis).sign(key)?;
        let a = self.store.append(rec)?;
        self.heads.insert(
            a.game,
            Head {
                seq: a.seq,
                hash: a.hash,
            },
        );
        Ok(a.game)
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
                .head(game)?
                .ok_or_else(|| MatchError::UnknownGame(hex::encode(game)))?,
        };
        let rec = Event::next(*game, head, at_ms, key.public(), body).sign(key)?;
        let a = self.store.append(rec)?;
        self.heads.insert(
            *game,
            Head {
                seq: a.seq,
                hash: a.hash,
            },
        );
        Ok(a.seq)
    }
}

/// Keeps chains in memory (tests, dry runs).
#[derive(Debug, Default)]
pub struct MemoryLedger {
    chains: HashMap<Hash, (Genesis, Vec<Record>)>,
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
        self.chains.insert(id, (g, vec![rec]));
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
        let (genesis, records) = self
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
        let events = records
            .iter()
            .map(|r| r.decode())
            .collect::<Result<Vec<Event>, _>>()?;
        let standing = Standing::replay(&events)
            .unwrap_or_else(|| Standing::new(genesis, last.decode().map(|e| e.at_ms).unwrap_or(0)));
        check_append(game, &standing, head, &rec)?;
        records.push(rec);
        Ok(head.seq + 1)
    }
}
