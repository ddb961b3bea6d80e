//! How the command line shows verdicts and imports: the exit code of a
//! failed check, a verification report printed in the library's words or
//! as its document (`kifu_ledger::report`), the progress of a verification
//! or an import on standard error, and files written atomically. Shared by
//! `verify`, `import`, the log's commands and `--server verify`; it
//! imports no command module.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use kifu_ledger::archive::ManifestCheck;
use kifu_ledger::report::{self, ArchiveDocument, CarriedDocument, ReportText, Source};
use kifu_ledger::{PublicKey, VerifyReport};
use kifu_store::archive_file;

use crate::render::count;
use crate::{CmdResult, Failure};

/// Exit code when verification finds a problem (a fork included).
pub const EXIT_VERIFY_FAILED: u8 = 3;

/// A failed check (exit code 3).
pub(crate) fn fail_verify(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: EXIT_VERIFY_FAILED,
    }
}

/// Prints a verification report as `kifu verify` does (the library's
/// words, or its document with `as_json`); a report with problems is the
/// failure returned (exit code 3).
pub(crate) fn print_report(
    r: &VerifyReport,
    manifest: Option<&ManifestCheck>,
    trusted: &[PublicKey],
    what: &str,
    source: Source,
    as_json: bool,
    tournament: Option<CarriedDocument>,
) -> CmdResult {
    if as_json {
        let mut doc = ArchiveDocument::new(r, manifest, trusted);
        doc.tournament = tournament;
        say!("{}", serde_json::to_value(&doc)?);
    } else {
        let text = ReportText::new(r, manifest, trusted, what, source);
        for f in &text.failures {
            eprintln!("{f}");
        }
        for l in &text.lines {
            say!("{l}");
        }
    }
    outcome(r, what)
}

/// The exit of a verification: success, or exit 3 naming the first problem.
fn outcome(r: &VerifyReport, what: &str) -> CmdResult {
    match report::failure_line(r, what) {
        None => Ok(()),
        Some(message) => Err(fail_verify(message)),
    }
}

/// A spinner with the count, the estimate and the time so far (on a
/// terminal); with `lines`, a plain line on stderr otherwise.
pub(crate) fn verify_progress(line: String, lines: bool) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        if lines {
            eprintln!("{line}");
        }
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg}; {elapsed} so far")
    {
        pb.set_style(style);
    }
    pb.set_message(line);
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

/// Verifies an archive file streaming it (`kifu_archive::archive_file`),
/// showing the count read and the rate since `started` (with `progress`,
/// as lines on stderr where it is not a terminal).
pub(crate) fn verify_streaming(
    file: &Path,
    progress: bool,
    started: Instant,
) -> Result<kifu_archive::archive_file::FileVerdict, Failure> {
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let pb = verify_progress(
        format!("verifying {} ({:.1} MB)", file.display(), size as f64 / 1e6),
        progress,
    );
    let lines = progress && !std::io::stderr().is_terminal();
    let result = kifu_archive::archive_file::verify_file(file, &mut |n| {
        let line = format!(
            "verifying {}: {} read ({:.0} events/s)",
            file.display(),
            count(n, "event"),
            n as f64 / started.elapsed().as_secs_f64().max(1e-9)
        );
        if lines {
            eprintln!("{line}");
        } else {
            pb.set_message(line);
        }
    });
    pb.finish_and_clear();
    result.map_err(|e| fail_verify(format!("{}: {e}", file.display())))
}

/// Writes `bytes` to `path` atomically (`kifu_store::archive_file::write_atomically`).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    Ok(archive_file::write_atomically(path, bytes)?)
}

pub(crate) fn import_bar(show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(0),
        indicatif::ProgressDrawTarget::stderr_with_hz(4),
    );
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} {pos}/{len} events, {per_sec}, {eta} left")
    {
        pb.set_style(style);
    }
    pb.set_message("importing");
    pb
}

/// The failure of an import whose archive does not verify: nothing is
/// sent to a server; a local store keeps a fork's `evidence` records.
pub(crate) fn not_imported(remote: bool, evidence: usize) -> Failure {
    fail_verify(if remote {
        "the archive does not verify; nothing sent to the server (a local import keeps a fork's records as evidence)".to_string()
    } else if evidence > 0 {
        format!("the archive does not verify; nothing imported but the {evidence} records of its fork(s), kept as evidence")
    } else {
        "the archive does not verify; nothing imported".to_string()
    })
}

/// The failure of an import that met a fork in the store.
pub(crate) fn forked(e: kifu_store::StoreError) -> Failure {
    match e {
        e @ kifu_store::StoreError::Fork { .. } => fail_verify(format!(
            "{e}; the imported record is kept as evidence, nothing else was written"
        )),
        e => e.into(),
    }
}

/// Draws an import's progress: the bar, or plain lines where indicatif
/// draws nothing (not a terminal).
pub(crate) fn show_import(
    pb: &indicatif::ProgressBar,
    lines: bool,
    writing: Instant,
    done: u64,
    total: u64,
) {
    pb.set_length(total);
    pb.set_position(done);
    if lines && done > 0 {
        let secs = writing.elapsed().as_secs_f64().max(1e-9);
        let rate = done as f64 / secs;
        eprintln!(
            "importing: {done}/{total} events, {rate:.0} events/s, {:.0} s left",
            (total - done) as f64 / rate.max(1e-9)
        );
    }
}

/// The summary of a finished import.
pub(crate) fn imported(
    file: &Path,
    json: bool,
    r: &kifu_store::ImportReport,
    records: usize,
    started: Instant,
) -> CmdResult {
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    if json {
        say!(
            "{}",
            serde_json::to_string(&kifu_archive::printed::ArchiveImported {
                already_present: r.already_present,
                elapsed_ms: started.elapsed().as_millis() as u64,
                games: r.games as u64,
                written: r.written,
            })?
        );
    } else {
        say!(
            "imported {}: {} events written, {} already present, {} new or extended ({:.0} events/s)",
            file.display(),
            r.written,
            r.already_present,
            count(r.games, "game"),
            records as f64 / secs
        );
    }
    Ok(())
}
