//! Importing an archive while its signatures are checked: checker threads
//! (one per core) go through the archive's records in order from the
//! start, while the import is planned and then written chunk by chunk, each
//! chunk once every record in it has passed.
//!
//! The plan keeps the games in the order they first appear in the archive,
//! so for an archive written game by game (as `kifu export` writes them)
//! the writes follow the checks closely, and the import costs about what
//! the verification alone costs. A bad signature found after some chunks
//! were written undoes them, in one transaction: the store is left as it
//! was. A crash leaves whole chunks whose every record was checked (links,
//! roles and signatures), as [`Store::import`] does, and importing again
//! completes it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use kifu_ledger::archive::ArchiveVerdict;
use kifu_ledger::Record;
use sled::transaction::{ConflictableTransactionError, Transactional};

use crate::{
    event_key, ImportReport, Planned, Refuse, Store, StoreError, Write, FEED_NEXT, IMPORT_CHUNK,
};

impl Store {
    /// Imports a verdict of [`kifu_ledger::archive::verify_archive_unsigned`]
    /// (links, roles, forks and the manifest checked; signatures not yet),
    /// checking each chunk's signatures while the chunk before is written.
    ///
    /// When the verdict is not clean, when an archive record differs from a
    /// stored one, or when a signature fails, nothing is left written and
    /// the answer is [`StoreError::NotVerified`]: verify the archive fully
    /// ([`kifu_ledger::archive::verify_archive`]) for the report, and give
    /// that verdict to [`Store::import`], which keeps a fork's evidence.
    ///
    /// The store must not be written by anything else during the import
    /// (the command line holds it alone; `kifu serve` takes no archives):
    /// undoing checks that the feed is where the import left it.
    ///
    /// # Errors
    ///
    /// As above; storage errors.
    pub fn import_checking(
        &self,
        verdict: &ArchiveVerdict,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<ImportReport, StoreError> {
        if verdict.signatures_checked() {
            return self.import(verdict, progress);
        }
        if !verdict.report().ok() {
            return Err(StoreError::NotVerified(
                verdict
                    .report()
                    .problems
                    .first()
                    .map(|p| p.to_string())
                    .unwrap_or_default(),
            ));
        }
        let records = verdict.records();
        let checker = Checker::new(records.len());
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| checker.run(records));
            }
            let written = self.write_checked(verdict, &checker, progress);
            // The checks of records no write needs (copies) stop here.
            checker.stop();
            written
        })
    }

    /// The writing half of [`Store::import_checking`]: plans the import,
    /// then writes each chunk once the checker has passed every record in
    /// it; undoes every chunk written when a signature fails.
    fn write_checked(
        &self,
        verdict: &ArchiveVerdict,
        checker: &Checker,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<ImportReport, StoreError> {
        let (mut out, planned, which) = self.plan_import(verdict)?;
        let c0 = self.next_cursor()?;
        let feed_next_before = self.meta.get(FEED_NEXT)?;
        let log_before = crate::tlog::undo_point(&self.tlog)?;
        let total = planned.len() as u64;
        let mut done = 0u64;
        let mut written = 0usize;
        progress(0, total);
        let mut result: Result<(), StoreError> = Ok(());
        for (chunk, idx) in planned.chunks(IMPORT_CHUNK).zip(which.chunks(IMPORT_CHUNK)) {
            let need = idx.iter().max().map_or(0, |&i| i + 1);
            if let Err(e) = checker.wait_for(need) {
                result = Err(StoreError::NotVerified(e));
                break;
            }
            if let Err(e) = self.commit(chunk, Write::Runs) {
                result = Err(e);
                break;
            }
            written += chunk.len();
            done += chunk.len() as u64;
            progress(done, total);
        }
        if let Err(e) = result {
            self.undo_import(c0, feed_next_before, &log_before, &planned[..written])?;
            return Err(e);
        }
        self.sync()?;
        self.forget_standings(&planned);
        out.written = total;
        Ok(out)
    }

    /// Removes the records an interrupted import wrote (`written`, from
    /// cursor `c0` on) and puts the feed and the log back as they were
    /// before it, in one transaction, then syncs.
    fn undo_import(
        &self,
        c0: u64,
        feed_next_before: Option<sled::IVec>,
        log_before: &crate::tlog::UndoPoint,
        written: &[Planned],
    ) -> Result<(), StoreError> {
        let end = c0 + written.len() as u64;
        if self.next_cursor()? != end {
            return Err(StoreError::Damaged(
                "the store was written during an import; its records were not undone".into(),
            ));
        }
        // The feed entries and the log's hashes of the cursors it wrote
        // (nothing else wrote meanwhile).
        let feed_keys = self
            .feed
            .range(c0.to_be_bytes()..end.to_be_bytes())
            .keys()
            .collect::<Result<Vec<_>, _>>()?;
        let log_keys = crate::tlog::batch_keys(&self.tlog, c0, end)?;
        let mut guard = self.write_lock.lock().unwrap_or_else(|p| p.into_inner());
        // The heads the import's commits left are undone with them.
        for p in written {
            guard.heads.remove(&p.game);
        }
        let r =
            (&self.events, &self.feed, &self.meta, &self.tlog).transaction(|(ev, fd, mt, tl)| {
                for p in written {
                    ev.remove(&event_key(&p.game, p.head.seq)[..])?;
                }
                for k in &feed_keys {
                    fd.remove(k)?;
                }
                match &feed_next_before {
                    Some(v) => mt.insert(FEED_NEXT, v.clone())?,
                    None => mt.remove(FEED_NEXT)?,
                };
                crate::tlog::undo_in_tx(tl, &log_keys, log_before)?;
                Ok::<(), ConflictableTransactionError<Refuse>>(())
            });
        drop(guard);
        r.map_err(|e| match e {
            sled::transaction::TransactionError::Storage(e) => StoreError::Sled(e),
            sled::transaction::TransactionError::Abort(_) => {
                StoreError::Damaged("undoing an import aborted".into())
            }
        })?;
        self.forget_standings(written);
        self.sync()
    }
}

/// Records checked together by one checker thread.
const CHECK_GROUP: usize = 512;

/// Checks an archive's signatures in archive order on several threads,
/// and tells the writer how far the checked prefix reaches.
struct Checker {
    /// The next group to take.
    next: AtomicUsize,
    stop: AtomicBool,
    state: Mutex<Checked>,
    changed: Condvar,
}

struct Checked {
    /// Per group: checked.
    done: Vec<bool>,
    /// Every group below this is checked.
    upto: usize,
    /// The first group found with a bad signature, and what it was.
    bad: Option<(usize, String)>,
}

impl Checker {
    fn new(records: usize) -> Checker {
        Checker {
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            state: Mutex::new(Checked {
                done: vec![false; records.div_ceil(CHECK_GROUP)],
                upto: 0,
                bad: None,
            }),
            changed: Condvar::new(),
        }
    }

    /// One checker thread: takes groups until none is left or it is told
    /// to stop.
    fn run(&self, records: &[Record]) {
        while !self.stop.load(Ordering::Relaxed) {
            let g = self.next.fetch_add(1, Ordering::Relaxed);
            let lo = g.saturating_mul(CHECK_GROUP);
            if lo >= records.len() {
                break;
            }
            let group = &records[lo..records.len().min(lo + CHECK_GROUP)];
            // A check that panicked accepts nothing.
            let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(group)))
                .unwrap_or_else(|_| Err("a signature check stopped".into()));
            let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
            st.done[g] = true;
            while st.upto < st.done.len() && st.done[st.upto] {
                st.upto += 1;
            }
            if let Err(e) = verdict {
                if st.bad.as_ref().is_none_or(|(b, _)| g < *b) {
                    st.bad = Some((g, e));
                }
            }
            drop(st);
            self.changed.notify_all();
        }
    }

    /// Waits until the first `n` records are checked; the first bad
    /// signature among them otherwise (a bad one further on fails a later
    /// wait, whatever the threads' timing).
    fn wait_for(&self, n: usize) -> Result<(), String> {
        let groups = n.div_ceil(CHECK_GROUP);
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some((g, bad)) = &st.bad {
                if *g < groups {
                    return Err(bad.clone());
                }
            }
            if st.upto >= groups {
                return Ok(());
            }
            st = self.changed.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Checks the signatures of `group` on this thread. The records are of a
/// verdict whose envelopes were read strictly, so their links are read
/// without that check again.
fn check(group: &[Record]) -> Result<(), String> {
    let links = group
        .iter()
        .map(|r| r.link().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let signed: Vec<(&kifu_ledger::PublicKey, &Record)> =
        links.iter().map(|l| &l.signer).zip(group).collect();
    let ok = kifu_ledger::verify_signatures_here(&signed);
    match ok.iter().position(|good| !good) {
        None => Ok(()),
        Some(k) => Err(format!(
            "game {} seq {}: bad signature",
            hex::encode(&links[k].chain[..8]),
            links[k].seq
        )),
    }
}
