//! `kifu import FILE` without holding the file: the archive is verified
//! streaming (`kifu_archive::archive_file::verify_file`, as `kifu verify
//! FILE`), then read a second time and imported game by game
//! (`kifu_store::archive_file::reread_file`): each game's records are found
//! to be exactly the chain the first reading verified (hashes cover the
//! signatures), then written by the store's import in verdicts of whole
//! games (through `--server`, each verdict's records are sent in requests
//! of their own). Memory follows the games in flight, not the file.
//!
//! The acceptance rule is the store's, as for every write: an archive that
//! does not verify, that `--trust` refuses, or that holds a kind this
//! library does not know is refused with nothing written. An archive with
//! a fork, or one that differs from what the store holds
//! (`kifu_store::archive_file::agrees_with_store`), is handed back to the
//! whole-file import of a local store, which keeps the fork's records as
//! evidence; a server is sent nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use kifu_ledger::archive;
use kifu_ledger::report::Source;
use kifu_ledger::PublicKey;
use kifu_store::archive_file;
use kifu_store::{ImportReport, StoreError};
use kifu_tournament::carried::Carried;

use crate::remote::Backend;
use crate::verdicts::{
    forked, import_bar, imported, not_imported, print_report, show_import, verify_streaming,
};
use crate::{CmdResult, Failure};

/// Imports `file` into `store` streaming it (`json`: the report of a
/// refusal as JSON; `progress`: progress lines where stderr is not a
/// terminal); `None` when the archive has
/// a fork, or differs from the store, and the store is local (the caller's
/// whole-file import keeps the evidence).
pub fn import(
    store: &Backend,
    file: &Path,
    json: bool,
    progress: bool,
    trusted: &[PublicKey],
    started: Instant,
) -> Option<CmdResult> {
    let terminal = std::io::stderr().is_terminal();
    let show = progress || terminal;
    // 1. The verdict, streaming.
    let (mut report, manifest, carried) = match verify_streaming(file, progress, started) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    // A carried tournament chain names the organiser's keys, which the
    // archive is checked against when no key is given; its records are
    // verified, not imported (a store holds games).
    let trusted = &Carried::trusted(carried.as_ref(), trusted);
    let skip = Carried::ids(carried.as_ref());
    archive::require_trusted(&mut report, manifest.as_ref(), trusted);
    let remote = matches!(store, Backend::Remote(_));
    if !report.forks.is_empty() && !remote {
        return None;
    }
    if !report.ok() {
        let what = file.display().to_string();
        let _ = print_report(
            &report,
            manifest.as_ref(),
            trusted,
            &what,
            Source::File,
            json,
            None,
        );
        return Some(Err(not_imported(remote, 0)));
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
        match archive_file::agrees_with_store(s, file, &report, &skip) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(Err(e.into())),
        }
    }
    // 3. The records again, imported a batch of whole games at a time.
    Some(
        write(store, file, &report, &skip, show, terminal)
            .and_then(|r| imported(file, json, &r, report.records as usize, started)),
    )
}

/// The second reading and the writes, with their progress.
fn write(
    store: &Backend,
    file: &Path,
    report: &kifu_ledger::VerifyReport,
    skip: &[kifu_ledger::Hash],
    show: bool,
    terminal: bool,
) -> Result<ImportReport, Failure> {
    // The games' records (a carried tournament chain is not imported).
    let total: u64 = report.games.iter().map(|g| g.events).sum();
    let pb = import_bar(show && terminal);
    let writing = Instant::now();
    let mut done = 0u64;
    let mut out = ImportReport::default();
    show_import(&pb, false, writing, 0, total);
    archive_file::reread_file::<Failure>(file, report, skip, &mut |v| {
        let before = done;
        let r = store
            .import(&v, &mut |d, _| {
                show_import(&pb, show && !terminal, writing, before + d, total)
            })
            .map_err(forked)?;
        // Records handled: written, or found already present.
        done += v.records().len() as u64;
        show_import(&pb, show && !terminal, writing, done, total);
        out.games += r.games;
        out.written += r.written;
        out.already_present += r.already_present;
        out.evidence += r.evidence;
        Ok(())
    })?;
    pb.finish_and_clear();
    Ok(out)
}
