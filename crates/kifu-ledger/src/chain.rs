//! Checking records against a chain: one append at a time, or whole chains.

use std::collections::BTreeMap;
use std::fmt;

use ed25519_dalek::{Signature, VerifyingKey};

use crate::body::{Body, Genesis};
use crate::event::{signed_message, Event, Hash, Record, ZERO_HASH};
use crate::roles;
use crate::LedgerError;

/// The last record of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    /// Its sequence number.
    pub seq: u64,
    /// Its hash.
    pub hash: Hash,
}

/// The game id of a chain whose genesis record is `genesis`.
pub fn game_id(genesis: &Record) -> Hash {
    genesis.hash()
}

/// Checks a genesis record completely and returns its event and genesis.
pub fn check_genesis(record: &Record) -> Result<(Event, Genesis), LedgerError> {
    let event = record.decode()?;
    let genesis = match &event.body {
        Body::GameCreated(g) => g.clone(),
        _ => {
            return Err(LedgerError::Refused(roles::Refusal {
                kind: event.body.kind_name(),
                rule: "the first event of a chain must create the game".into(),
            }))
        }
    };
    if event.seq != 0 || event.chain != ZERO_HASH || event.prev_hash != ZERO_HASH {
        return Err(LedgerError::Link(
            "a genesis has seq 0 and zero chain id and previous hash".into(),
        ));
    }
    record.verify_signature(&event.signer)?;
    let roles_held = genesis.roles_of(&event.signer);
    roles::check(&roles_held, &event.body, 0).map_err(LedgerError::Refused)?;
    Ok((event, genesis))
}

/// Checks that `record` may be appended after `head` in the game `game`
/// created by `genesis`: canonical bytes, chain id, sequence, link, signature
/// (`verify_strict`) and the signer's role. Returns the decoded event.
pub fn check_append(
    game: &Hash,
    genesis: &Genesis,
    head: Head,
    record: &Record,
) -> Result<Event, LedgerError> {
    let event = record.decode()?;
    if &event.chain != game {
        return Err(LedgerError::Link(format!(
            "event names chain {} but is appended to {}",
            hex::encode(&event.chain[..8]),
            hex::encode(&game[..8])
        )));
    }
    let want = head.seq + 1;
    if event.seq != want {
        return Err(LedgerError::Conflict {
            expected_seq: want,
            got_seq: event.seq,
        });
    }
    if event.prev_hash != head.hash {
        return Err(LedgerError::Conflict {
            expected_seq: want,
            got_seq: event.seq,
        });
    }
    record.verify_signature(&event.signer)?;
    let roles_held = genesis.roles_of(&event.signer);
    roles::check(&roles_held, &event.body, event.seq).map_err(LedgerError::Refused)?;
    Ok(event)
}

/// What is wrong at one place of a chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The game (zeros when unknown).
    pub game: Hash,
    /// The sequence number, when the problem is at one event.
    pub seq: Option<u64>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", hex::encode(&self.game[..8]))?;
        if let Some(s) = self.seq {
            write!(f, " seq {s}")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// Two validly signed, different records at the same place of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork {
    /// The game.
    pub game: Hash,
    /// The sequence number both claim.
    pub seq: u64,
    /// Hash of the first record.
    pub first: Hash,
    /// Hash of the second record.
    pub second: Hash,
}

/// The outcome of verifying a set of records.
#[derive(Debug, Clone, Default)]
pub struct VerifyReport {
    /// Games checked, with their event count and head hash.
    pub games: Vec<(Hash, u64, Hash)>,
    /// Records checked.
    pub records: u64,
    /// Everything that failed.
    pub problems: Vec<Problem>,
    /// Forks found (also counted as problems).
    pub forks: Vec<Fork>,
    /// Events of kinds this library does not know: checked for link and
    /// signature only.
    pub uninterpreted: Vec<(Hash, u64, u32)>,
}

impl VerifyReport {
    /// True when nothing failed.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Signatures checked per batch.
const BATCH: usize = 256;

/// Checks signatures; returns the indices of the bad ones.
///
/// `ed25519_dalek::verify_batch` is cofactored and used only as a fast path:
/// a batch that fails is checked again one by one with `verify_strict`, the
/// acceptance rule, to name the bad records.
pub fn verify_signatures(items: &[(&Record, VerifyingKey)]) -> Vec<usize> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(items.len().div_ceil(BATCH).max(1));
    let per = items.len().div_ceil(threads.max(1)).max(1);
    let mut bad = Vec::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(per)
            .enumerate()
            .map(|(ci, chunk)| {
                s.spawn(move || {
                    let mut bad = Vec::new();
                    for (bi, batch) in chunk.chunks(BATCH).enumerate() {
                        let base = ci * per + bi * BATCH;
                        let msgs: Vec<Vec<u8>> = batch
                            .iter()
                            .map(|(r, _)| signed_message(&r.event_bytes))
                            .collect();
                        let msg_refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
                        let sigs: Vec<Signature> = batch
                            .iter()
                            .map(|(r, _)| Signature::from_bytes(&r.signature))
                            .collect();
                        let keys: Vec<VerifyingKey> = batch.iter().map(|(_, k)| *k).collect();
                        let weak = keys.iter().any(|k| k.is_weak());
                        if !weak && ed25519_dalek::verify_batch(&msg_refs, &sigs, &keys).is_ok() {
                            continue;
                        }
                        for (i, ((_, k), (m, sig))) in
                            batch.iter().zip(msgs.iter().zip(sigs.iter())).enumerate()
                        {
                            if k.verify_strict(m, sig).is_err() {
                                bad.push(base + i);
                            }
                        }
                    }
                    bad
                })
            })
            .collect();
        for h in handles {
            if let Ok(b) = h.join() {
                bad.extend(b);
            }
        }
    });
    bad.sort_unstable();
    bad
}

struct Parsed<'a> {
    record: &'a Record,
    hash: Hash,
    header: crate::event::Header,
}

/// Verifies any set of records (a store's content or an archive): groups them
/// by game, follows each chain from its genesis, and checks sequence, links,
/// canonical bytes, signatures and roles. Two validly signed records at the
/// same place of a game are reported as a fork, with both hashes as evidence.
pub fn verify_records(records: &[Record]) -> VerifyReport {
    let mut report = VerifyReport {
        records: records.len() as u64,
        ..Default::default()
    };
    // 1. Envelopes.
    let mut parsed = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        match r.header() {
            Ok(header) => parsed.push(Parsed {
                record: r,
                hash: r.hash(),
                header,
            }),
            Err(e) => report.problems.push(Problem {
                game: ZERO_HASH,
                seq: None,
                what: format!("record #{i} of the input: {e}"),
            }),
        }
    }
    // 2. Signatures, all at once (batched, both cores).
    let mut keyed = Vec::with_capacity(parsed.len());
    let mut sig_ok = vec![false; parsed.len()];
    let mut idx = Vec::with_capacity(parsed.len());
    for (i, p) in parsed.iter().enumerate() {
        if let Ok(vk) = p.header.signer.verifying_key() {
            keyed.push((p.record, vk));
            idx.push(i);
        }
    }
    for i in &idx {
        sig_ok[*i] = true;
    }
    for b in verify_signatures(&keyed) {
        sig_ok[idx[b]] = false;
    }
    // 3. Group by game.
    let mut by_game: BTreeMap<Hash, Vec<usize>> = BTreeMap::new();
    for (i, p) in parsed.iter().enumerate() {
        let game = if p.header.seq == 0 && p.header.chain == ZERO_HASH {
            p.hash
        } else {
            p.header.chain
        };
        by_game.entry(game).or_default().push(i);
    }
    for (game, members) in by_game {
        verify_game(&game, &members, &parsed, &sig_ok, &mut report);
    }
    report
}

fn verify_game(
    game: &Hash,
    members: &[usize],
    parsed: &[Parsed<'_>],
    sig_ok: &[bool],
    report: &mut VerifyReport,
) {
    let problem = |seq: Option<u64>, what: String| Problem {
        game: *game,
        seq,
        what,
    };
    // Distinct records per seq.
    let mut at: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for &i in members {
        let list = at.entry(parsed[i].header.seq).or_default();
        if !list.iter().any(|&j| parsed[j].hash == parsed[i].hash) {
            list.push(i);
        }
    }
    let genesis_idx = match at.get(&0).and_then(|l| l.first()) {
        Some(&i) => i,
        None => {
            report
                .problems
                .push(problem(None, "no genesis record for this chain".into()));
            return;
        }
    };
    let genesis = match check_genesis(parsed[genesis_idx].record) {
        Ok((_, g)) => g,
        Err(e) => {
            report
                .problems
                .push(problem(Some(0), format!("genesis: {e}")));
            return;
        }
    };
    // Forks: several validly signed records claiming the same place.
    for (&seq, list) in &at {
        let valid: Vec<usize> = list.iter().copied().filter(|&i| sig_ok[i]).collect();
        if valid.len() > 1 {
            report.forks.push(Fork {
                game: *game,
                seq,
                first: parsed[valid[0]].hash,
                second: parsed[valid[1]].hash,
            });
            report.problems.push(problem(
                Some(seq),
                format!(
                    "fork: two validly signed records, {} and {}",
                    hex::encode(parsed[valid[0]].hash),
                    hex::encode(parsed[valid[1]].hash)
                ),
            ));
        }
    }
    // Follow the links from the genesis.
    let mut prev = parsed[genesis_idx].hash;
    let mut count = 1u64;
    let max_seq = at.keys().next_back().copied().unwrap_or(0);
    for seq in 1..=max_seq {
        let Some(list) = at.get(&seq) else {
            report.problems.push(problem(
                Some(seq),
                "missing: the chain has a gap here".into(),
            ));
            break;
        };
        let linked = list
            .iter()
            .copied()
            .find(|&i| parsed[i].header.prev_hash == prev);
        let Some(i) = linked else {
            report.problems.push(problem(
                Some(seq),
                format!(
                    "broken link: previous hash does not match the record at seq {}",
                    seq - 1
                ),
            ));
            break;
        };
        let p = &parsed[i];
        if !sig_ok[i] {
            report
                .problems
                .push(problem(Some(seq), "bad signature".into()));
            break;
        }
        match p.header.clone().into_event() {
            Ok(event) => {
                let roles_held = genesis.roles_of(&event.signer);
                if let Err(r) = roles::check(&roles_held, &event.body, seq) {
                    report.problems.push(problem(Some(seq), r.to_string()));
                    break;
                }
            }
            Err(LedgerError::UnknownKind(k)) => report.uninterpreted.push((*game, seq, k)),
            Err(e) => {
                report.problems.push(problem(Some(seq), e.to_string()));
                break;
            }
        }
        prev = p.hash;
        count += 1;
    }
    report.games.push((*game, count, prev));
}
