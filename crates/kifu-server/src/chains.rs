//! Tournament chains as last verified, by file: a chain is appended to,
//! never changed, so a read of a tournament whose file has grown checks
//! only the records after the ones it verified before (each against the
//! chain so far: link, signature, role and what it says,
//! [`Chain::append_record`]), instead of every signature of the
//! tournament again. The hall's screens, the desk and its writes read the
//! tournament several times a second; by the tenth round of a 700-player
//! congress its chain holds thousands of records.
//!
//! What is compared before anything is taken from here is the whole run
//! of records verified before, byte for byte: a file changed anywhere but
//! at its end is verified again from its genesis, and refused as
//! [`Chain::open`] refuses it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use kifu_ledger::Record;
use kifu_tournament::{Chain, ChainError};

/// Most tournament files remembered (a data directory holds a few).
const KEPT: usize = 64;

fn kept() -> &'static Mutex<HashMap<PathBuf, Arc<Chain>>> {
    static KEPT_CHAINS: OnceLock<Mutex<HashMap<PathBuf, Arc<Chain>>>> = OnceLock::new();
    KEPT_CHAINS.get_or_init(Mutex::default)
}

/// The chain of `records`, read from the tournament file `path`:
/// verified as [`Chain::open`] verifies it, reusing what was verified of
/// the same file before when `records` begin with exactly those records
/// (the same chain, shared, when the file has not grown).
pub fn open(path: &Path, records: Vec<Record>) -> Result<Arc<Chain>, ChainError> {
    let before = kept()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(path)
        .cloned();
    if let Some(before) = before {
        let n = before.records.len();
        if records.len() == n && records[..] == before.records[..] {
            return Ok(before);
        }
        if records.len() > n && records[..n] == before.records[..] {
            let mut chain = (*before).clone();
            if records[n..]
                .iter()
                .all(|r| chain.append_record(r.clone()).is_ok())
            {
                return Ok(remember(path, chain));
            }
        }
    }
    Ok(remember(path, Chain::open(records)?))
}

/// Remembers `chain`, verified, as the chain of the file `path`.
pub fn remember(path: &Path, chain: Chain) -> Arc<Chain> {
    let chain = Arc::new(chain);
    let mut kept = kept().lock().unwrap_or_else(|p| p.into_inner());
    if kept.len() >= KEPT && !kept.contains_key(path) {
        kept.clear();
    }
    kept.insert(path.to_path_buf(), chain.clone());
    chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::registration;
    use kifu_ledger::{Body, Keypair, Participant, Role};

    fn register(c: &mut Chain, key: &Keypair, id: &str) {
        c.append(key, 2, Body::PlayerRegistered(registration(id)))
            .unwrap();
    }

    #[test]
    fn a_grown_file_is_taken_and_a_changed_one_verified_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cup.kifu");
        let key = Keypair::from_seed([7; 32]);
        let officials = vec![Participant {
            role: Role::Director,
            name: "D".into(),
            key: key.public(),
        }];
        let genesis = kifu_tournament::mcmahon_genesis("Cup", "cup", 3, officials);
        let mut c = Chain::create(&key, 1, genesis).unwrap();
        register(&mut c, &key, "A");
        let first = open(&path, c.records.clone()).unwrap();
        assert_eq!(first.records, c.records);

        // Grown: the new record is checked and taken.
        register(&mut c, &key, "B");
        let grown = open(&path, c.records.clone()).unwrap();
        assert_eq!(grown.records, c.records);
        assert_eq!(grown.projection.players.len(), 2);

        // A record appended that its signer may not sign: refused, as
        // `Chain::open` refuses it.
        let stranger = Keypair::from_seed([9; 32]);
        let mut forged = c.clone();
        let event = kifu_ledger::Event::next(
            forged.id(),
            forged.head(),
            3,
            stranger.public(),
            Body::PlayerRegistered(registration("C")),
        );
        forged.records.push(event.sign(&stranger).unwrap());
        assert!(open(&path, forged.records.clone()).is_err());
        assert!(Chain::open(forged.records.clone()).is_err());

        // A record changed inside what was verified before: the file is
        // verified again from its genesis, and refused.
        let mut changed = c.records.clone();
        let mut bytes = changed[1].clone();
        bytes.signature[0] ^= 1;
        changed[1] = bytes;
        assert!(open(&path, changed).is_err());
        // The file as it was still reads.
        assert_eq!(open(&path, c.records.clone()).unwrap().records, c.records);
    }
}
