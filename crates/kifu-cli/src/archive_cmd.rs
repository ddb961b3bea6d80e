//! `kifu verify`, `kifu export`, `kifu import`: their arguments, progress
//! on standard error, and printing. The verdicts are the libraries':
//! `kifu_ledger::archive::verify_archive` and the streaming
//! `kifu_archive::archive_file::verify_file` reach them, `kifu_ledger::report`
//! words and documents them, and the store's import writes what verified.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use kifu_ledger::archive::{self, ArchiveVerdict};
use kifu_ledger::report::Source;
use kifu_ledger::verify_records;
use kifu_tournament::carried::{self, Carried};

use crate::verdicts::{
    fail_verify, forked, import_bar, imported, not_imported, print_report, show_import,
    verify_progress, verify_streaming,
};
pub use crate::verdicts::{write_atomically, EXIT_VERIFY_FAILED};

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

fn spinner(msg: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
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
        None if crate::endpoint::server().is_some() => {
            let url = crate::endpoint::server().unwrap_or_default();
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
            serde_json::to_string(&kifu_archive::printed::ArchiveWritten {
                bytes: bytes.len() as u64,
                events: events as u64,
                file: a.out.display().to_string(),
                games: games.len() as u64,
            })?
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
    if let Some(done) =
        crate::import_stream::import(&store, &a.file, a.json, a.progress, &trusted, started)
    {
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
                    Ok(r) => return imported(&a.file, a.json, &r, v.records().len(), started),
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
    imported(&a.file, a.json, &r, v.records().len(), started)
}
