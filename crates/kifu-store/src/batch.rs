//! Many appends in one commit and one sync, each accepted or refused on its
//! own: what a server's writer needs when it drains a queue of appends from
//! many boards at once.
//!
//! [`Store::append_batch`] is all or nothing, which suits an import. A queue
//! of appends from unrelated clients is different: a bad event must fail
//! alone, with its reason, and the others must still commit. So
//! [`Store::append_each`]:
//!
//! 1. reads every envelope;
//! 2. verifies the signatures of the whole batch at once with the ledger's
//!    batch verification ([`kifu_ledger::chain::verify_signatures`], which
//!    gives the strict verdict);
//! 3. under the store's write lock, places each record in order against the
//!    stored heads and the records placed before it in the same batch (link,
//!    sequence, role), so that two appends at the same place of one game get
//!    one winner and one [`LedgerError::Conflict`];
//! 4. writes every accepted record in one sled transaction;
//! 5. makes them durable with one shared sync (group commit) and only then
//!    returns.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use kifu_ledger::standing::Standing;
use kifu_ledger::{check_genesis, Hash, Head, LedgerError, Record};
use sled::transaction::TransactionError;

use crate::{Appended, Refuse, Store, StoreError};

/// What [`Store::append_each`] did with a batch.
#[derive(Debug)]
pub struct EachOutcome {
    /// One result per record, in the order given.
    pub results: Vec<Result<Appended, StoreError>>,
    /// Records written (new, not retries of stored ones).
    pub written: usize,
    /// Time spent verifying signatures.
    pub verify_time: Duration,
    /// Time spent placing and committing (under the write lock).
    pub commit_time: Duration,
    /// Time spent waiting for the records to reach stable storage.
    pub sync_time: Duration,
}

/// How a record of the batch was placed.
enum Place {
    /// Refused with this error.
    Refused(StoreError),
    /// To be written: index into the planned writes.
    Write(usize),
    /// Identical to a record already stored at this place.
    Stored { game: Hash, seq: u64, hash: Hash },
    /// Identical to a record written earlier in this batch.
    SameAs(usize),
}

/// Where a record fits, once its envelope and signature passed.
enum Fit {
    /// The next record of `game` (a new game when the genesis is given).
    New(Hash, Option<Box<Standing>>),
    /// Identical to a record already stored or planned at its place.
    Same,
}

pub(crate) struct Planned {
    pub(crate) game: Hash,
    pub(crate) seq: u64,
    pub(crate) hash: Hash,
    /// The stored bytes, until the commit stages them (`Store::stage` takes
    /// them).
    pub(crate) stored: Vec<u8>,
}

/// A batch whose envelopes and signatures are checked: the part of
/// [`Store::append_each`] that takes no lock, so that a writer can verify the
/// next batch while the previous one is committed and synced.
pub struct Prepared {
    records: Vec<Record>,
    headers: Vec<Option<kifu_ledger::Header>>,
    place: Vec<Option<Place>>,
    hashes: Vec<Hash>,
    verify_time: Duration,
}

/// A batch committed to sled, not yet known to be on stable storage.
pub struct Committed {
    place: Vec<Option<Place>>,
    planned: Vec<Planned>,
    cursors: Result<Vec<u64>, String>,
    ticket: Option<u64>,
    next_cursor: u64,
    verify_time: Duration,
    commit_time: Duration,
}

impl Committed {
    /// The feed's next cursor right after this commit: once this batch is
    /// durable, so is every record below it.
    pub fn next_cursor(&self) -> u64 {
        self.next_cursor
    }
}

impl Store {
    /// Appends each record on its own, all in one commit and one sync.
    ///
    /// Records are placed in the order given; records of many games may be
    /// mixed, and a genesis may come before the events of its game. A record
    /// that is malformed, badly signed, signed by a key whose role may not
    /// state it, or that does not link to its game's head is refused alone,
    /// with its reason; one that is byte-identical to a stored record at the
    /// same place is an idempotent retry (`new: false`). Returns once every
    /// accepted record is on stable storage.
    ///
    /// The same in three steps, for a pipeline: [`Store::prepare_each`],
    /// [`Store::commit_prepared`], [`Store::make_durable`].
    pub fn append_each(&self, records: Vec<Record>) -> EachOutcome {
        let prepared = self.prepare_each(records);
        let committed = self.commit_prepared(prepared);
        self.make_durable(committed)
    }

    /// Reads the envelopes and verifies the signatures of a batch (no lock
    /// taken, nothing written).
    pub fn prepare_each(&self, records: Vec<Record>) -> Prepared {
        let n = records.len();
        let mut place: Vec<Option<Place>> = (0..n).map(|_| None).collect();

        // 1. Envelopes.
        let mut headers = Vec::with_capacity(n);
        for (i, r) in records.iter().enumerate() {
            match r.header() {
                Ok(h) => headers.push(Some(h)),
                Err(e) => {
                    place[i] = Some(Place::Refused(e.into()));
                    headers.push(None);
                }
            }
        }

        // 2. Signatures of every non-genesis record, in one batch. A genesis
        // is checked completely by `check_genesis` when it is placed.
        let started = Instant::now();
        // The acceptance rule of kifu-ledger (`sig`), on every core.
        let mut keyed_index = Vec::with_capacity(n);
        for (i, h) in headers.iter().enumerate() {
            let Some(h) = h else { continue };
            if h.seq == 0 || place[i].is_some() {
                continue;
            }
            keyed_index.push(i);
        }
        let signed: Vec<(&kifu_ledger::Header, &Record)> = keyed_index
            .iter()
            .filter_map(|&i| Some((headers[i].as_ref()?, &records[i])))
            .collect();
        for (k, ok) in kifu_ledger::verify_signatures(&signed)
            .into_iter()
            .enumerate()
        {
            if !ok {
                if let Some(&i) = keyed_index.get(k) {
                    place[i] = Some(Place::Refused(LedgerError::BadSignature.into()));
                }
            }
        }

        let hashes = records.iter().map(|r| r.hash()).collect();
        Prepared {
            records,
            headers,
            place,
            hashes,
            verify_time: started.elapsed(),
        }
    }

    /// Places each record of a prepared batch against the heads (link,
    /// sequence, role) and commits the accepted ones in one transaction,
    /// under the write lock. Nothing is acknowledged yet: see
    /// [`Store::make_durable`].
    pub fn commit_prepared(&self, prepared: Prepared) -> Committed {
        let Prepared {
            records,
            headers,
            mut place,
            hashes,
            verify_time,
        } = prepared;
        let n = records.len();
        let started = Instant::now();
        let mut guard = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut heads: HashMap<Hash, Head> = HashMap::with_capacity(n);
        // Who may sign what, per game, as this batch leaves each chain.
        let mut standings: HashMap<Hash, Standing> = HashMap::with_capacity(n);
        let mut planned: Vec<Planned> = Vec::with_capacity(n);
        let mut planned_at: HashMap<(Hash, u64), usize> = HashMap::with_capacity(n);
        for i in 0..n {
            if place[i].is_some() {
                continue;
            }
            let (Some(header), record) = (&headers[i], &records[i]) else {
                continue;
            };
            let p = self.place_one(
                header,
                record,
                hashes[i],
                (&mut heads, &mut guard),
                &mut standings,
                (&planned, &planned_at),
            );
            let p = match p {
                Ok(Fit::New(game, genesis)) => {
                    let hash = hashes[i];
                    let seq = header.seq;
                    if let Some(g) = genesis {
                        standings.insert(game, *g);
                    }
                    heads.insert(game, Head { seq, hash });
                    planned_at.insert((game, seq), planned.len());
                    planned.push(Planned {
                        game,
                        seq,
                        hash,
                        stored: record.to_stored(),
                    });
                    Place::Write(planned.len() - 1)
                }
                Ok(Fit::Same) => {
                    let game = if header.seq == 0 {
                        hashes[i]
                    } else {
                        header.chain
                    };
                    match planned_at.get(&(game, header.seq)) {
                        Some(&j) => Place::SameAs(j),
                        None => Place::Stored {
                            game,
                            seq: header.seq,
                            hash: hashes[i],
                        },
                    }
                }
                Err(e) => Place::Refused(e),
            };
            place[i] = Some(p);
        }

        // One transaction for everything accepted (`commit.rs`): the records
        // as staged values (`staged.rs`: a few keys for the whole batch), the
        // feed, the log and the counter.
        let committed: Result<(Vec<u64>, u64), String> = if let Err(e) = self.writable() {
            Err(e.to_string())
        } else {
            let r = self
                .commit_transaction(&crate::commit::Placement::Staged(&planned))
                .map(|c| ((c.first..c.next).collect::<Vec<u64>>(), c.next));
            r.map_err(|e| match e {
                TransactionError::Abort(Refuse::Damaged(s)) => s,
                TransactionError::Abort(Refuse::Conflict {
                    expected_seq,
                    got_seq,
                }) => format!("expected seq {expected_seq}, got {got_seq}"),
                TransactionError::Abort(Refuse::Exists(seq)) => format!("seq {seq} exists"),
                TransactionError::Storage(e) => e.to_string(),
            })
        };
        let ticket = match &committed {
            Ok((c, _)) if !c.is_empty() => Some(self.sync.note_written()),
            _ => None,
        };
        // The standing of every game this batch touched, at its new head,
        // for the next batch: without it the next record of the game would
        // replay the whole chain from the store to learn who may sign
        // (`Store::standing`), a cost that grows with the game. Kept under
        // the write lock, so no other commit can leave an older one.
        let mut committed = committed;
        if let Ok((cursors, _)) = &committed {
            // Readers find the batch's records staged from now on.
            if let Err(e) = self.stage(&mut guard, &mut planned, cursors) {
                committed = Err(e.to_string());
            }
        }
        if committed.is_ok() {
            // The heads this batch leaves, for the next commit.
            guard.heads.extend(heads.iter().map(|(g, h)| (*g, *h)));
            if let Ok(mut cache) = self.standings.lock() {
                for (game, standing) in standings {
                    if let Some(head) = heads.get(&game) {
                        cache.insert(game, (*head, std::sync::Arc::new(standing)));
                    }
                }
            }
        }
        drop(guard);
        let (cursors, next_cursor) = match committed {
            Ok((c, next)) => (Ok(c), next),
            Err(e) => (Err(e), 0),
        };
        Committed {
            place,
            planned,
            cursors,
            ticket,
            next_cursor,
            verify_time,
            commit_time: started.elapsed(),
        }
    }

    /// Waits until a committed batch is on stable storage (one sync shared
    /// with every commit before it) and gives each record's answer.
    pub fn make_durable(&self, committed: Committed) -> EachOutcome {
        let Committed {
            place,
            planned,
            cursors,
            ticket,
            next_cursor,
            verify_time,
            commit_time,
        } = committed;
        let started = Instant::now();
        let synced = match ticket {
            Some(t) => self
                .sync
                .wait_durable_ticket(&self.db, t)
                .map_err(|e| e.to_string()),
            None => Ok(()),
        };
        let sync_time = started.elapsed();
        if synced.is_ok() && ticket.is_some() {
            self.note_durable(next_cursor);
        }

        let written = planned.len();
        let failure: Option<String> = match (&cursors, &synced) {
            (Err(e), _) => Some(format!("commit failed: {e}")),
            (_, Err(e)) => Some(format!("sync failed: {e}")),
            _ => None,
        };
        let cursors = cursors.unwrap_or_default();
        let results = place
            .into_iter()
            .map(|p| match p {
                Some(Place::Refused(e)) => Err(e),
                Some(Place::Write(j)) | Some(Place::SameAs(j)) => {
                    let new = matches!(p, Some(Place::Write(_)));
                    if let Some(f) = &failure {
                        return Err(StoreError::Io(std::io::Error::other(f.clone())));
                    }
                    let p = &planned[j];
                    let cursor = cursors.get(j).copied().ok_or_else(|| {
                        StoreError::Damaged("a written record has no cursor".into())
                    })?;
                    Ok(Appended {
                        game: p.game,
                        seq: p.seq,
                        hash: p.hash,
                        cursor,
                        new,
                    })
                }
                Some(Place::Stored { game, seq, hash }) => {
                    self.cursor_of(&game, seq).map(|cursor| Appended {
                        game,
                        seq,
                        hash,
                        cursor,
                        new: false,
                    })
                }
                None => Err(StoreError::Damaged("a record was not placed".into())),
            })
            .collect();
        EachOutcome {
            results,
            written: if failure.is_some() { 0 } else { written },
            verify_time,
            commit_time,
            sync_time,
        }
    }

    /// Places one record whose envelope and signature passed.
    fn place_one(
        &self,
        header: &kifu_ledger::Header,
        record: &Record,
        hash: Hash,
        (heads, known): (&mut HashMap<Hash, Head>, &mut crate::WriteHeads),
        standings: &mut HashMap<Hash, Standing>,
        (planned, planned_at): (&[Planned], &HashMap<(Hash, u64), usize>),
    ) -> Result<Fit, StoreError> {
        if header.seq == 0 {
            let (e, g) = check_genesis(record)?;
            let game = hash;
            // The game id is the genesis hash: a stored game with this id
            // holds this very record.
            if heads.contains_key(&game) || self.head_for_write(known, &game)?.is_some() {
                return Ok(Fit::Same);
            }
            return Ok(Fit::New(game, Some(Box::new(Standing::new(&g, e.at_ms)))));
        }
        let game = header.chain;
        let head = match heads.get(&game) {
            Some(h) => *h,
            None => {
                let h = self
                    .head_for_write(known, &game)?
                    .ok_or_else(|| StoreError::NoSuchGame(hex::encode(game)))?;
                heads.insert(game, h);
                h
            }
        };
        if header.seq <= head.seq {
            let same = match planned_at.get(&(game, header.seq)) {
                Some(&j) => planned[j].stored == record.to_stored(),
                None => self.get(&game, header.seq)?.as_ref() == Some(record),
            };
            if same {
                return Ok(Fit::Same);
            }
            return Err(LedgerError::Conflict {
                expected_seq: head.seq + 1,
                got_seq: header.seq,
            }
            .into());
        }
        // The checks of `kifu_ledger::check_append` other than the signature,
        // which the batch has verified already (and the body and role, when
        // `prepare_each` could check them).
        if header.seq != head.seq + 1 || header.prev_hash != head.hash {
            return Err(LedgerError::Conflict {
                expected_seq: head.seq + 1,
                got_seq: header.seq,
            }
            .into());
        }
        // Body, role, committee seat and key validity: the chain's standing
        // as it stands before this record (kifu_ledger::check_append without
        // the signature, which the batch has verified).
        let standing = match standings.entry(game) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(self.take_standing(&game, head)?)
            }
        };
        // A kind this library does not know is refused, as by
        // `check_append` and an import: a store writes only what it
        // understands (`docs/FORMAT.md` section 6, "Unknown kinds").
        let event = header.clone().into_event()?;
        standing.check(&event).map_err(LedgerError::Refused)?;
        standing.apply(&event);
        Ok(Fit::New(game, None))
    }
}
