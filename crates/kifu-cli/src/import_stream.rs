//! `kifu import FILE` without holding the file: the
//! archive is verified streaming (`crate::stream_file`, as `kifu verify
//! FILE`), then read a second time and imported game by game
//! (`kifu_ledger::stream::Reread`): each game's records are found to be
//! exactly the chain the first reading verified (hashes cover the
//! signatures), then written by the store's import in verdicts of whole
//! games (through `--server`, each verdict's records are sent in requests
//! of their own, as before). Memory follows the games in flight, not the
//! file.
//!
//! The acceptance rule is the store's, as for every write: an archive that
//! does not verify, that `--trust` refuses, or that holds a kind this
//! library does not know is refused with nothing written. An archive with
//! a fork is handed back to the whole-file import of a local store, which
//! keeps the fork's records as evidence; a server is sent nothing.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use kifu_ledger::archive;
use kifu_ledger::stream::Reread;
use kifu_ledger::{Hash, Head, PublicKey};
use kifu_store::{ImportReport, Store, StoreError};

use crate::remote::Backend;

use crate::archive_cmd::{
    import_bar, imported, print_report, show_import, verify_progress, EXIT_VERIFY_FAILED,
};
use crate::cli::ImportArgs;
use crate::stream_file::{self, RecordFile};
use crate::{CmdResult, Failure};

/// Records in each verdict given to the store.
const IMPORT_BATCH: usize = 32_768;

/// Imports `a.file` into `store` streaming it; `None` when the archive has
/// a fork and the store is local (the caller's whole-file import keeps its
/// evidence).
pub fn import(
    store: &Backend,
    a: &ImportArgs,
    trusted: &[PublicKey],
    started: Instant,
) -> Option<CmdResult> {
    let terminal = std::io::stderr().is_terminal();
    let show = a.progress || terminal;
    let lines = a.progress && !terminal;
    let file = &a.file;
    // 1. The verdict, streaming.
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let pb = if show {
        verify_progress(
            format!("verifying {} ({:.1} MB)", file.display(), size as f64 / 1e6),
            a.progress,
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let verified = stream_file::verify(file, &mut |n| {
        let line = format!(
            "verifying {}: {} events read ({:.0} events/s)",
            file.display(),
            n,
            n as f64 / started.elapsed().as_secs_f64().max(1e-9)
        );
        if lines {
            eprintln!("{line}");
        } else {
            pb.set_message(line);
        }
    });
    pb.finish_and_clear();
    let (mut report, manifest, carried) = match verified {
        Ok(v) => v,
        Err(e) => {
            return Some(Err(Failure {
                message: format!("{}: {e}", file.display()),
                code: EXIT_VERIFY_FAILED,
            }))
        }
    };
    // A carried tournament chain names the organiser's keys, which the
    // archive is checked against when no key is given; its records are
    // verified, not imported (a store holds games).
    let trusted = &crate::carried::trusted(trusted, carried.as_ref());
    let skip = crate::carried::ids(carried.as_ref());
    archive::require_trusted(&mut report, manifest.as_ref(), trusted);
    let remote = matches!(store, Backend::Remote(_));
    if !report.forks.is_empty() && !remote {
        return None;
    }
    if !report.ok() {
        let what = file.display().to_string();
        let _ = print_report(&report, manifest.as_ref(), trusted, &what, a.json);
        return Some(Err(Failure {
            message: if remote {
                "the archive does not verify; nothing sent to the server (a local import keeps a fork's records as evidence)".into()
            } else {
                "the archive does not verify; nothing imported".into()
            },
            code: EXIT_VERIFY_FAILED,
        }));
    }
    // One rule for every write: the store refuses a kind it cannot apply.
    if let Some((game, seq, kind)) = report.uninterpreted.first() {
        return Some(Err(StoreError::Unknown {
            game: hex::encode(game),
            seq: *seq,
            kind: *kind,
        }
        .into()));
    }
    // 2. Nothing is written when an archive's record differs from a stored
    // one: the whole-file import then keeps it as evidence.
    if let Backend::Local(s) = store {
        match agrees_with_store(s, file, &report, &skip) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(Err(e)),
        }
    }
    // 3. The records again, imported a batch of whole games at a time.
    Some(
        write(store, a, &report, &skip, show, terminal)
            .and_then(|r| imported(a, &r, report.records as usize, started)),
    )
}

/// True when every game of the archive that the store holds too agrees
/// with it: the archive's chain and the stored one hold the same record at
/// the lower of their heads (hashes chain, so the same records below it).
/// Where the store's head is below the archive's, the archive's record at
/// that place is found by reading the archive once more.
fn agrees_with_store(
    store: &Store,
    file: &Path,
    report: &kifu_ledger::VerifyReport,
    skip: &[Hash],
) -> Result<bool, Failure> {
    let mut below: HashMap<Hash, Head> = HashMap::new();
    for g in &report.games {
        let Some(h) = store.head(&g.game)? else {
            continue;
        };
        if h.seq >= g.head.seq {
            let stored = store.get(&g.game, g.head.seq)?;
            if stored.map(|r| r.hash()) != Some(g.head.hash) {
                return Ok(false);
            }
        } else {
            below.insert(g.game, h);
        }
    }
    if below.is_empty() {
        return Ok(true);
    }
    let mut again = Reread::new(report, IMPORT_BATCH)?.skipping(skip);
    let (mut f, _) = RecordFile::open(file)?;
    let mut agree = true;
    let mut check = |v: &kifu_ledger::archive::ArchiveVerdict| {
        for r in v.records() {
            let Ok(link) = r.link() else { continue };
            let game = if link.seq == 0 { r.hash() } else { link.chain };
            if let Some(h) = below.get(&game) {
                if h.seq == link.seq && h.hash != r.hash() {
                    agree = false;
                }
            }
        }
    };
    while let Some((record, _)) = f.next_record()? {
        if let Some(v) = again.push(record)? {
            check(&v);
        }
    }
    if let Some(v) = again.finish()? {
        check(&v);
    }
    Ok(agree)
}

/// The second reading and the writes.
fn write(
    store: &Backend,
    a: &ImportArgs,
    report: &kifu_ledger::VerifyReport,
    skip: &[Hash],
    show: bool,
    terminal: bool,
) -> Result<ImportReport, Failure> {
    let file = &a.file;
    // The games' records (a carried tournament chain is not imported).
    let total: u64 = report.games.iter().map(|g| g.events).sum();
    let pb = import_bar(show && terminal);
    let writing = Instant::now();
    let mut done = 0u64;
    let mut out = ImportReport::default();
    let mut again = Reread::new(report, IMPORT_BATCH)?.skipping(skip);
    let (mut f, _) = RecordFile::open(file)?;
    let mut put = |v: kifu_ledger::archive::ArchiveVerdict, done: &mut u64| {
        let before = *done;
        let r = store
            .import(&v, &mut |d, _| {
                show_import(&pb, show && !terminal, writing, before + d, total)
            })
            .map_err(|e| match e {
                e @ StoreError::Fork { .. } => Failure {
                    message: format!(
                        "{e}; the imported record is kept as evidence, nothing else was written"
                    ),
                    code: EXIT_VERIFY_FAILED,
                },
                e => e.into(),
            })?;
        // Records handled: written, or found already present.
        *done += v.records().len() as u64;
        show_import(&pb, show && !terminal, writing, *done, total);
        out.games += r.games;
        out.written += r.written;
        out.already_present += r.already_present;
        out.evidence += r.evidence;
        Ok::<(), Failure>(())
    };
    show_import(&pb, false, writing, 0, total);
    while let Some((record, _)) = f.next_record()? {
        if let Some(v) = again.push(record)? {
            put(v, &mut done)?;
        }
    }
    if let Some(v) = again.finish()? {
        put(v, &mut done)?;
    }
    pb.finish_and_clear();
    Ok(out)
}
