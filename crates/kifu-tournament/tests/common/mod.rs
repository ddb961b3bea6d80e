//! Games held in memory, as a store holds them for the tournament's
//! checkpoints (`kifu_tournament::checkpoints::Games`), and the
//! registration the tests' players share.

// Each test file uses part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use kifu_ledger::{Body, Genesis, Hash, Head, PublicKey, Record};
use kifu_tournament::checkpoints::Games;

/// Games held in memory, by id.
#[derive(Default)]
pub struct Held(pub BTreeMap<Hash, Vec<Record>>);

impl Held {
    pub fn with(mut self, records: Vec<Record>) -> Held {
        self.0.insert(records[0].hash(), records);
        self
    }
}

impl Games for Held {
    type Error = String;

    fn head(&self, game: &Hash) -> Result<Option<Head>, String> {
        Ok(self.0.get(game).map(|r| Head {
            seq: r.len() as u64 - 1,
            hash: r[r.len() - 1].hash(),
        }))
    }
    fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, String> {
        let records = self.0.get(game).ok_or("no such game")?;
        match records[0].decode().map_err(|e| e.to_string())?.body {
            Body::GameCreated(g) => Ok(Arc::new(g)),
            _ => Err("not a genesis".into()),
        }
    }
    fn creator(&self, game: &Hash) -> Result<PublicKey, String> {
        let records = self.0.get(game).ok_or("no such game")?;
        Ok(records[0].decode().map_err(|e| e.to_string())?.signer)
    }
    fn read(&self, game: &Hash) -> Result<Vec<Record>, String> {
        self.0
            .get(game)
            .cloned()
            .ok_or_else(|| "no such game".into())
    }
    fn games(&self) -> Result<Vec<Hash>, String> {
        Ok(self.0.keys().copied().collect())
    }
}

/// Player `id`, 1d, registered with `key` (or none), every other field
/// left empty.
pub fn registered(id: &str, key: Option<PublicKey>) -> Body {
    Body::PlayerRegistered(kifu_ledger::Registration {
        key,
        ..kifu_ledger::testkit::registration(id)
    })
}
