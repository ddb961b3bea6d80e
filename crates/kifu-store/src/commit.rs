//! The one transaction every chain record is written in.
//!
//! The server's batch writer ([`Store::commit_prepared`]) and every other
//! writer (`append`, `append_batch`, an import: [`Store::commit`]) differ
//! only in where a record's bytes go: staged values of a whole batch
//! (`staged.rs`), or one value (or run) per record in `events`, checked
//! there against the heads. Everything else a commit writes is the same and
//! is written here, once: the feed counter read, each record given the next
//! cursor and the next leaf of the transparency log, the feed entries, the
//! log's new hashes and right edge, and the counter. So whatever is true of
//! this transaction (the feed and the log agree, cursor for leaf) is true of
//! every record written, whichever face wrote it.

use std::collections::HashMap;

use kifu_ledger::{Hash, Head};
use sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};

use crate::{
    batch, event_key, insert_feed, layout, parse_u64, tlog, tx_find, Planned, Refuse, RunWriter,
    Store, FEED_ENTRY, FEED_NEXT, RUN, RUN_BYTES,
};

/// Where a commit puts its records' bytes: the one thing in which the
/// writers' commits differ.
pub(crate) enum Placement<'a> {
    /// A batch of the server's writer, placed already against the heads
    /// under the write lock: as a few values of the `staged` tree, keyed by
    /// the cursor of their first record (`staged.rs`).
    Staged(&'a [batch::Planned]),
    /// Records checked against the heads `before` (as stored when the write
    /// lock was taken) inside the transaction: an identical record already
    /// in place is [`Refuse::Exists`], anything else in the way
    /// [`Refuse::Conflict`]. One value per record in `events`, or with
    /// `runs` the records of one game in sequence as runs (`layout.rs`).
    Events {
        planned: &'a [Planned],
        before: &'a HashMap<Hash, Option<Head>>,
        runs: bool,
    },
}

/// One record as the feed and the log take it.
struct Placed {
    game: Hash,
    seq: u64,
    hash: Hash,
}

impl Placement<'_> {
    /// The tree the records' bytes go to.
    fn tree<'s>(&self, store: &'s Store) -> &'s sled::Tree {
        match self {
            Placement::Staged(_) => &store.staged_tree,
            Placement::Events { .. } => &store.events,
        }
    }

    /// Writes the records' bytes into `tree`, the first record at feed
    /// cursor `first` and the others after it in order; each record's place.
    fn write(
        &self,
        tree: &TransactionalTree,
        first: u64,
    ) -> Result<Vec<Placed>, ConflictableTransactionError<Refuse>> {
        match self {
            Placement::Staged(planned) => {
                // Placement linked each record to its game's head (the heads
                // the write lock guards are exact), so nothing is stored at
                // its place.
                let records: Vec<(&Hash, u64, &[u8])> = planned
                    .iter()
                    .map(|p| (&p.game, p.seq, p.stored.as_slice()))
                    .collect();
                for (key, value) in crate::staged::values(first, &records) {
                    tree.insert(&key.to_be_bytes()[..], value)?;
                }
                Ok(planned
                    .iter()
                    .map(|p| Placed {
                        game: p.game,
                        seq: p.seq,
                        hash: p.hash,
                    })
                    .collect())
            }
            Placement::Events {
                planned,
                before,
                runs,
            } => write_events(tree, first, planned, before, *runs),
        }
    }
}

/// [`Placement::Events`]: each record checked against its game's head and
/// written under its own key, or gathered into runs.
fn write_events(
    ev: &TransactionalTree,
    first: u64,
    planned: &[Planned],
    before: &HashMap<Hash, Option<Head>>,
    runs: bool,
) -> Result<Vec<Placed>, ConflictableTransactionError<Refuse>> {
    let mut out = Vec::with_capacity(planned.len());
    let mut heads: HashMap<Hash, Option<Head>> = HashMap::new();
    let mut run = RunWriter::default();
    for (
        next,
        Planned {
            game,
            head,
            prev,
            stored,
        },
    ) in (first..).zip(planned)
    {
        let stored_head = match heads.get(game) {
            Some(h) => *h,
            None => before.get(game).copied().flatten(),
        };
        let expect = head.seq.checked_sub(1);
        let fits = match (stored_head, expect) {
            (None, None) => true,
            (Some(h), Some(e)) => h.seq == e && &h.hash == prev,
            _ => false,
        };
        if !fits {
            // Identical record already in place: an idempotent retry.
            if let Some((existing, e)) = tx_find(ev, game, head.seq)? {
                if existing[e.at] == stored[..] {
                    return Err(ConflictableTransactionError::Abort(Refuse::Exists(
                        head.seq,
                    )));
                }
            }
            return Err(ConflictableTransactionError::Abort(Refuse::Conflict {
                expected_seq: stored_head.map(|h| h.seq + 1).unwrap_or(0),
                got_seq: head.seq,
            }));
        }
        // A run takes the records that follow in its window.
        let joins = runs
            && head.seq % RUN != 0
            && run.bytes + stored.len() + 8 <= RUN_BYTES
            && run
                .at
                .is_some_and(|(g, s)| &g == game && s + run.records.len() as u64 == head.seq);
        if !joins {
            run.flush(ev)?;
        }
        if joins || (runs && head.seq % RUN == 0) {
            run.push(game, head.seq, stored, next);
        } else {
            ev.insert(
                &event_key(game, head.seq)[..],
                layout::event_value(stored, next),
            )?;
        }
        heads.insert(*game, Some(*head));
        out.push(Placed {
            game: *game,
            seq: head.seq,
            hash: head.hash,
        });
    }
    run.flush(ev)?;
    Ok(out)
}

/// What a commit wrote: its records took the feed cursors `first..next`,
/// in the order placed.
pub(crate) struct Cursors {
    pub(crate) first: u64,
    pub(crate) next: u64,
}

impl Store {
    /// Writes the records of `placement` in one sled transaction with the
    /// feed, the transparency log and the feed counter: each record gets
    /// the next cursor and the leaf of the same index. A commit of no
    /// record writes nothing. The caller holds the write lock.
    pub(crate) fn commit_transaction(
        &self,
        placement: &Placement<'_>,
    ) -> Result<Cursors, TransactionError<Refuse>> {
        (placement.tree(self), &self.feed, &self.meta, &self.tlog).transaction(
            |(rt, fd, mt, tl)| {
                let first = match mt.get(FEED_NEXT)? {
                    Some(v) => parse_u64(&v).map_err(|e| {
                        ConflictableTransactionError::Abort(Refuse::Damaged(e.to_string()))
                    })?,
                    None => 0,
                };
                let mut log = tlog::TxLog::start(tl, first)?;
                let placed = placement.write(rt, first)?;
                let mut places = Vec::with_capacity(placed.len() * FEED_ENTRY);
                let mut next = first;
                for p in &placed {
                    places.extend_from_slice(&event_key(&p.game, p.seq));
                    log.append(next, &p.game, p.seq, &p.hash)?;
                    next += 1;
                }
                if !placed.is_empty() {
                    mt.insert(FEED_NEXT, &next.to_be_bytes())?;
                    insert_feed(fd, first, &places)?;
                    log.finish()?;
                }
                Ok(Cursors { first, next })
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use kifu_ledger::archive;
    use kifu_ledger::testkit::{moves_game, sample_game, Cast};

    use crate::Store;

    #[test]
    fn every_writer_s_records_get_the_leaf_of_their_cursor() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        let cast = Cast::new();
        // A single append and a batch (the command line's writes), the
        // server's batch writer (staged), and an import (runs).
        let one = sample_game(&cast, "appended");
        store.append(one.records[0].clone()).expect("append");
        store
            .append_batch(one.records[1..].to_vec())
            .expect("append_batch");
        let served = sample_game(&cast, "served");
        let each = store.append_each(served.records.clone());
        assert!(each.results.iter().all(Result::is_ok));
        let imported = moves_game(&cast, "imported", 40);
        let verdict = archive::verify_archive(&archive::write(&imported.records)).expect("verdict");
        store.import(&verdict, &mut |_, _| {}).expect("import");
        let total = one.records.len() + served.records.len() + imported.records.len();
        let size = store.tree_size().expect("size");
        assert_eq!(size, total as u64);
        let feed = store.feed(None, total + 1).expect("feed");
        let leaves = store.leaves(0, size).expect("leaves");
        assert_eq!(feed.len(), leaves.len());
        for (i, (item, leaf)) in feed.iter().zip(&leaves).enumerate() {
            assert_eq!(item.cursor, i as u64);
            assert_eq!(
                (leaf.game, leaf.seq, leaf.record_hash),
                (item.game, item.seq, item.record.hash()),
                "cursor {i}"
            );
        }
    }

    #[test]
    fn a_commit_of_nothing_writes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        assert!(store.append_batch(Vec::new()).expect("empty").is_empty());
        assert!(store.append_each(Vec::new()).results.is_empty());
        assert_eq!(store.tree_size().expect("size"), 0);
        assert!(store.feed(None, 10).expect("feed").is_empty());
        let c = sample_game(&Cast::new(), "after");
        let a = store.append(c.records[0].clone()).expect("append");
        assert_eq!(a.cursor, 0);
    }
}
