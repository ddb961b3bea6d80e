//! `kifu verify`, `kifu export`, `kifu import`: their arguments, progress
//! on standard error, and printing. The verdicts are the libraries':
//! `kifu_ledger::archive::verify_archive` and the streaming
//! `kifu_store::archive_file::verify_file` reach them, `kifu_ledger::report`
//! words and documents them, and the store's import writes what verified.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use kifu_ledger::archive::{self, ArchiveVerdict, ManifestCheck};
use kifu_ledger::report::{self, ArchiveDocument, CarriedDocument, ReportText, Source};
use kifu_ledger::{verify_records, PublicKey, VerifyReport};
use kifu_store::archive_file;
use kifu_tournament::carried::{self, Carried};
use serde_json::json;

use crate::keys::read_private;
use crate::remote::{open, open_existing};
use crate::render::count;
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

/// `kifu verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// An archive file to verify offline (the store is not opened).
    pub file: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Show what is being verified on stderr even when it is not a
    /// terminal (a terminal gets a spinner anyway).
    #[arg(long)]
    pub progress: bool,
    /// A key whose signature vouches for the archive's completeness (the
    /// organiser's archive key; for a bundle, the log's key): 64 hex
    /// digits, a tournament chain file (its director's key), or a file of
    /// keys (SPKI PEM, hex or note verifier keys, one or more). Repeatable. With it, an archive fails (exit 3) unless its
    /// manifest is signed by a trusted key and the archive matches it.
    #[arg(long = "trust", value_name = "KEY")]
    pub trust: Vec<String>,
}

/// `kifu export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// Only this game (id or unique prefix); all games when omitted.
    #[arg(long)]
    pub game: Option<String>,
    /// Operator key (PKCS#8 PEM) that signs the archive's manifest of heads,
    /// so that a truncated copy fails verification.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// Carry this tournament's chain (id, unique prefix or short name) in
    /// the archive: a reader then checks the archive against the
    /// organiser's key the chain names with no `--trust` (sign it with that
    /// key, `--key DIRECTOR.key`).
    #[arg(long)]
    pub tournament: Option<String>,
    /// Print `{"file", "games", "events"}`.
    #[arg(long)]
    pub json: bool,
}

/// `kifu import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The archive file.
    pub file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Show progress (count, rate, time left) on standard error even when it
    /// is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Import only an archive whose manifest is signed by this key and that
    /// is complete against it (as `kifu verify FILE --trust KEY`): 64 hex
    /// digits or a file of keys. Repeatable.
    #[arg(long = "trust", value_name = "KEY")]
    pub trust: Vec<String>,
}

/// Exit code when verification finds a problem (a fork included).
pub const EXIT_VERIFY_FAILED: u8 = 3;

/// A failed check (exit code 3).
pub(crate) fn fail_verify(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: EXIT_VERIFY_FAILED,
    }
}

fn spinner(msg: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
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

/// Signatures verified to time this machine before a long verification.
const CALIBRATION: usize = 1024;

/// About how long verifying `records` takes here: the signatures dominate
/// (`docs/PERFORMANCE.md`), so the signatures of the first records are
/// verified and timed (about 0.3 % of a large archive's work), and the
/// rest is scaled from them, with a tenth more for hashing and the chains.
/// `None` when there is too little to time.
fn estimate(records: &[kifu_ledger::Record]) -> Option<Duration> {
    let sample: Vec<(kifu_ledger::Header, Vec<u8>, &[u8; 64])> = records
        .iter()
        .filter_map(|r| {
            let h = r.header().ok()?;
            (h.seq > 0).then(|| {
                (
                    h,
                    kifu_ledger::event::signed_message(&r.event_bytes),
                    &r.signature,
                )
            })
        })
        .take(CALIBRATION)
        .collect();
    if sample.len() < 64 {
        return None;
    }
    let items: Vec<kifu_ledger::sig::Item<'_>> = sample
        .iter()
        .map(|(h, m, s)| (&h.signer.0, m.as_slice(), *s))
        .collect();
    let started = Instant::now();
    let _ = kifu_ledger::sig::verify_parallel(&items, kifu_ledger::sig::DEFAULT_METHOD);
    let per = started.elapsed().as_secs_f64() / items.len() as f64;
    Some(Duration::from_secs_f64(per * records.len() as f64 * 1.1))
}

/// The line shown while a verification runs: the count and the time left.
fn verifying_line(n: usize, bytes: Option<usize>, eta: Option<Duration>) -> String {
    let size = bytes
        .map(|b| format!(" ({:.1} MB)", b as f64 / 1e6))
        .unwrap_or_default();
    let eta = eta
        .map(|d| format!(", about {} s at this machine's rate", d.as_secs().max(1)))
        .unwrap_or_default();
    format!("verifying {}{size}{eta}", count(n, "event"))
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

/// Verifies an archive file streaming it (`kifu_store::archive_file`),
/// showing the count read and the rate since `started` (with `progress`,
/// as lines on stderr where it is not a terminal).
pub(crate) fn verify_streaming(
    file: &Path,
    progress: bool,
    started: Instant,
) -> Result<archive_file::FileVerdict, Failure> {
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let pb = verify_progress(
        format!("verifying {} ({:.1} MB)", file.display(), size as f64 / 1e6),
        progress,
    );
    let lines = progress && !std::io::stderr().is_terminal();
    let result = archive_file::verify_file(file, &mut |n| {
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

/// Reads an archive file and reaches the verdict on it; with `show`,
/// counts the records first and shows the count and the time left while
/// verifying (`lines`: also when stderr is not a terminal).
fn verify_file_showing(file: &Path, show: bool, lines: bool) -> Result<ArchiveVerdict, Failure> {
    let bytes =
        std::fs::read(file).map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
    let pb = if show && (lines || std::io::stderr().is_terminal()) {
        match archive::read(&bytes) {
            Ok(records) => verify_progress(
                verifying_line(records.len(), Some(bytes.len()), estimate(&records)),
                lines,
            ),
            // verify_archive reports the broken framing.
            Err(_) => indicatif::ProgressBar::hidden(),
        }
    } else {
        indicatif::ProgressBar::hidden()
    };
    let verdict = archive::verify_archive(&bytes);
    pb.finish_and_clear();
    verdict.map_err(|e| fail_verify(format!("{}: {e}", file.display())))
}

/// `kifu verify [FILE]`.
pub fn verify(data: &Path, a: VerifyArgs) -> CmdResult {
    match &a.file {
        Some(f) => {
            let given = crate::trust::read_trusted(&a.trust)?;
            // Streamed: memory follows the games in flight, not the file.
            let (mut report, manifest, carried) = verify_streaming(f, a.progress, Instant::now())?;
            // A carried tournament chain names the organiser's keys, which
            // the archive is checked against when no key is given.
            let trusted = Carried::trusted(carried.as_ref(), &given);
            archive::require_trusted(&mut report, manifest.as_ref(), &trusted);
            let by_default = a.trust.is_empty();
            if let (Some(c), false) = (&carried, a.json) {
                say!("{}", c.sentence(by_default));
            }
            print_report(
                &report,
                manifest.as_ref(),
                &trusted,
                &f.display().to_string(),
                Source::File,
                a.json,
                carried.map(|c| c.document(by_default)),
            )
        }
        None if !a.trust.is_empty() => Err(Failure::new(
            "--trust checks an archive's or a bundle's signer: name the FILE to verify",
        )),
        // The server verifies its store where it is.
        None if crate::remote::server().is_some() => {
            let url = crate::remote::server().unwrap_or_default();
            crate::verify_served::verify(url, a.json, a.progress)
        }
        None => {
            let pb = spinner("reading the store");
            let store = open_existing(data)?;
            let place = format!("store {}", data.display());
            let records = store.records_for_verification()?;
            pb.finish_and_clear();
            let pb = verify_progress(
                verifying_line(records.len(), None, estimate(&records)),
                a.progress,
            );
            let report = verify_records(&records);
            pb.finish_and_clear();
            print_report(&report, None, &[], &place, Source::Store, a.json, None)
        }
    }
}

/// Writes `bytes` to `path` atomically (`kifu_store::archive_file::write_atomically`).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    Ok(archive_file::write_atomically(path, bytes)?)
}

/// `kifu export`.
pub fn export(data: &Path, a: ExportArgs) -> CmdResult {
    let key = a.key.as_deref().map(read_private).transpose()?;
    let store = open_existing(data)?;
    let games = match &a.game {
        Some(p) => vec![store.resolve(p)?],
        None => store.games()?,
    };
    // The tournament chain carried along (`docs/FORMAT.md` section 7): its
    // verified branch, listed in the manifest like a game.
    let carried = match &a.tournament {
        Some(spec) => {
            let (file, chain) = kifu_store::tournaments::find(data, spec)
                .map_err(|e| Failure::new(e.to_string()))?;
            Some(carried::carry(&chain).map_err(|e| {
                Failure::new(format!("{}: {e}; run kifu verify on it", file.display()))
            })?)
        }
        None => None,
    };
    let mut chains = Vec::new();
    for g in &games {
        chains.push((*g, store.read(g, 0, None)?));
    }
    chains.extend(carried);
    let bytes = archive::write_chains(&chains, now_ms(), key.as_ref())?;
    let events: usize = chains.iter().map(|(_, r)| r.len()).sum();
    write_atomically(&a.out, &bytes)?;
    if a.json {
        say!(
            "{}",
            json!({"file": a.out.display().to_string(), "games": games.len(), "events": events, "bytes": bytes.len()})
        );
        return Ok(());
    }
    say!(
        "wrote {}: {}, {}, {} bytes; manifest {}",
        a.out.display(),
        count(games.len(), "game"),
        count(events, "event"),
        bytes.len(),
        match &key {
            Some(k) => format!("signed by {}", k.public().to_hex()),
            None => "unsigned".into(),
        }
    );
    Ok(())
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

/// `kifu import`.
pub fn import(data: &Path, a: ImportArgs) -> CmdResult {
    let show = a.progress || std::io::stderr().is_terminal();
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let trusted = crate::trust::read_trusted(&a.trust)?;
    let store = open(data)?;
    // Streamed, verified then read again game by game (`import_stream`), in
    // memory bounded by the games in flight. An archive with a fork comes
    // back here for a local store, for the evidence.
    if let Some(done) = crate::import_stream::import(&store, &a, &trusted, started) {
        return done;
    }
    if let crate::remote::Backend::Local(s) = &store {
        // The whole file: links, roles and the manifest first, then each
        // chunk's signatures checked while the chunk before is written
        // (`Store::import_checking`); a fork falls through to verifying the
        // whole archive first, for its report and its evidence.
        let bytes = std::fs::read(&a.file)
            .map_err(|e| Failure::new(format!("{}: {e}", a.file.display())))?;
        if let Ok(mut v) = archive::verify_archive_unsigned(&bytes) {
            v.require_trusted(&trusted);
            if v.report().ok() {
                let pb = import_bar(show && terminal);
                let writing = Instant::now();
                let result = s.import_checking(&v, &mut |done, total| {
                    show_import(&pb, show && !terminal, writing, done, total)
                });
                pb.finish_and_clear();
                match result {
                    Ok(r) => return imported(&a, &r, v.records().len(), started),
                    Err(kifu_store::StoreError::NotVerified(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        }
    }
    let mut v = verify_file_showing(&a.file, show, a.progress)?;
    v.require_trusted(&trusted);
    let what = a.file.display().to_string();
    let pb = import_bar(show && terminal);
    let writing = Instant::now();
    let result = store.import(&v, &mut |done, total| {
        show_import(&pb, show && !terminal, writing, done, total)
    });
    pb.finish_and_clear();
    let r = match result {
        Ok(r) => r,
        Err(kifu_store::StoreError::NotVerified(_)) => {
            let evidence = v.report().forks.iter().map(|f| f.all.len()).sum::<usize>();
            let _ = print_report(
                v.report(),
                v.manifest(),
                &trusted,
                &what,
                Source::File,
                a.json,
                None,
            );
            return Err(not_imported(
                matches!(store, crate::remote::Backend::Remote(_)),
                evidence,
            ));
        }
        Err(e) => return Err(forked(e)),
    };
    imported(&a, &r, v.records().len(), started)
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
    a: &ImportArgs,
    r: &kifu_store::ImportReport,
    records: usize,
    started: Instant,
) -> CmdResult {
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    if a.json {
        say!(
            "{}",
            json!({"games": r.games, "written": r.written, "already_present": r.already_present, "seconds": secs})
        );
    } else {
        say!(
            "imported {}: {} events written, {} already present, {} new or extended ({:.0} events/s)",
            a.file.display(),
            r.written,
            r.already_present,
            count(r.games, "game"),
            records as f64 / secs
        );
    }
    Ok(())
}
