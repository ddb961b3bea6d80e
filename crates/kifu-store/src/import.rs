//! Importing an archive while its signatures are checked: the signatures
//! of one chunk are checked (on every core) while the chunk before is
//! written, and no chunk is written before all of its own have passed.
//!
//! An import cannot otherwise be faster than the verification that comes
//! before its first write. A bad signature found after some chunks were
//! written undoes them, in one transaction: the store is left as it was. A
//! crash leaves whole chunks whose every record was checked (links, roles
//! and signatures), as [`Store::import`] does, and importing again
//! completes it.

use kifu_ledger::archive::ArchiveVerdict;
use sled::transaction::{ConflictableTransactionError, Transactional};

use crate::{event_key, ImportReport, Planned, Refuse, Store, StoreError, FEED_NEXT, IMPORT_CHUNK};

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
        let (mut out, planned, which) = self.plan_import(verdict)?;
        let records = verdict.records();
        let check = |idx: &[usize]| -> Result<(), String> {
            let mut headers = Vec::with_capacity(idx.len());
            for &i in idx {
                headers.push(records[i].header().map_err(|e| e.to_string())?);
            }
            let signed: Vec<(&kifu_ledger::Header, &kifu_ledger::Record)> = idx
                .iter()
                .zip(&headers)
                .map(|(&i, h)| (h, &records[i]))
                .collect();
            let ok = kifu_ledger::verify_signatures(&signed);
            match ok.iter().position(|good| !good) {
                None => Ok(()),
                Some(k) => Err(format!(
                    "game {} seq {}: bad signature",
                    hex::encode(&headers[k].chain[..8]),
                    headers[k].seq
                )),
            }
        };

        let c0 = self.next_cursor()?;
        let feed_next_before = self.meta.get(FEED_NEXT)?;
        let log_before = crate::tlog::undo_point(&self.tlog)?;
        let total = planned.len() as u64;
        let mut done = 0u64;
        let mut starts: Vec<u64> = Vec::new();
        let mut written = 0usize;
        progress(0, total);
        let chunks: Vec<(&[Planned], &[usize])> = planned
            .chunks(IMPORT_CHUNK)
            .zip(which.chunks(IMPORT_CHUNK))
            .collect();
        let result: Result<(), StoreError> = std::thread::scope(|s| {
            let mut checking = chunks.first().map(|(_, idx)| s.spawn(move || check(idx)));
            for (k, (chunk, _)) in chunks.iter().enumerate() {
                let checked = match checking.take() {
                    Some(h) => h
                        .join()
                        .unwrap_or_else(|_| Err("a signature check stopped".into())),
                    None => Err("a chunk was not checked".into()),
                };
                checked.map_err(StoreError::NotVerified)?;
                // The next chunk's signatures, while this one is written.
                if let Some((_, idx)) = chunks.get(k + 1) {
                    checking = Some(s.spawn(move || check(idx)));
                }
                starts.push(self.next_cursor()?);
                self.commit(chunk, false)?;
                written += chunk.len();
                done += chunk.len() as u64;
                progress(done, total);
            }
            Ok(())
        });
        if let Err(e) = result {
            self.undo_import(
                c0,
                feed_next_before,
                &log_before,
                &planned[..written],
                &starts,
            )?;
            return Err(e);
        }
        self.sync()?;
        self.forget_standings(&planned);
        out.written = total;
        Ok(out)
    }

    /// Removes the records an interrupted import wrote (`written`, in the
    /// commits that began at cursors `starts`) and puts the feed and the log
    /// back as they were before it, in one transaction, then syncs.
    fn undo_import(
        &self,
        c0: u64,
        feed_next_before: Option<sled::IVec>,
        log_before: &crate::tlog::UndoPoint,
        written: &[Planned],
        starts: &[u64],
    ) -> Result<(), StoreError> {
        if self.next_cursor()? != c0 + written.len() as u64 {
            return Err(StoreError::Damaged(
                "the store was written during an import; its records were not undone".into(),
            ));
        }
        let r =
            (&self.events, &self.feed, &self.meta, &self.tlog).transaction(|(ev, fd, mt, tl)| {
                for p in written {
                    ev.remove(&event_key(&p.game, p.head.seq)[..])?;
                }
                for first in starts {
                    fd.remove(&first.to_be_bytes()[..])?;
                }
                match &feed_next_before {
                    Some(v) => mt.insert(FEED_NEXT, v.clone())?,
                    None => mt.remove(FEED_NEXT)?,
                };
                crate::tlog::undo_in_tx(tl, starts, log_before)?;
                Ok::<(), ConflictableTransactionError<Refuse>>(())
            });
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
