//! `kifu verify`, `kifu export`, `kifu import`.
//!
//! `kifu verify FILE` and `kifu import FILE` reach their verdict through the
//! same function, `kifu_ledger::archive::verify_archive`.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use kifu_ledger::archive::{self, ArchiveVerdict, Authority, ManifestCheck};
use kifu_ledger::{verify_records, PublicKey, VerifyReport};
use serde_json::json;

use crate::cli::{ExportArgs, ImportArgs, VerifyArgs};
use crate::keys::read_private;
use crate::remote::{open, open_existing};
use crate::render::{count, short};
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

/// Exit code when verification finds a problem (a fork included).
pub const EXIT_VERIFY_FAILED: u8 = 3;

/// Up to this many games, `kifu verify` gives one line per game; above, one
/// line per game that has not reached a signed result (`--json` has all).
const PER_GAME_LINES: usize = 20;

fn spinner(msg: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

fn manifest_json(m: Option<&ManifestCheck>, trusted: &[PublicKey]) -> serde_json::Value {
    match m {
        None => serde_json::Value::Null,
        Some(m) => {
            let authority = archive::authority(Some(m), trusted);
            json!({
                "signed": m.signed,
                "signer": m.manifest.signer.map(|k| k.to_hex()),
                "fingerprint": m.manifest.signer.map(|k| k.sha256_fingerprint()),
                "trusted": matches!(authority, Authority::Trusted(_)),
                "completeness": crate::trust::word(authority),
                "at_ms": m.manifest.at_ms,
                "games": m.manifest.games.len(),
            })
        }
    }
}

/// The report as JSON.
pub fn report_json(
    r: &VerifyReport,
    manifest: Option<&ManifestCheck>,
    trusted: &[PublicKey],
) -> serde_json::Value {
    let mut v = kifu_game::document::verify_report_json(r);
    if let Some(o) = v.as_object_mut() {
        o.insert("manifest".into(), manifest_json(manifest, trusted));
        if !trusted.is_empty() {
            o.insert(
                "trusted_keys".into(),
                trusted.iter().map(|k| k.to_hex()).collect(),
            );
        }
    }
    v
}

/// Prints a verification report as `kifu verify` does (text or JSON);
/// a report with problems is the failure returned (exit code 3).
pub(crate) fn print_report(
    r: &VerifyReport,
    manifest: Option<&ManifestCheck>,
    trusted: &[PublicKey],
    what: &str,
    as_json: bool,
) -> CmdResult {
    if as_json {
        say!("{}", report_json(r, manifest, trusted));
    } else {
        if r.ok() {
            say!(
                "ok: {what}: {}, {}; every link, signature and role checks",
                count(r.games.len(), "game"),
                count(r.distinct, "event")
            );
        } else {
            for p in &r.problems {
                eprintln!("FAIL {p}");
            }
        }
        let finished = r.games.iter().filter(|g| g.finished()).count();
        if r.games.len() > PER_GAME_LINES {
            say!(
                "{} of {} reached a signed result and have no appeal pending; the others are listed",
                finished,
                count(r.games.len(), "game")
            );
        }
        for g in r
            .games
            .iter()
            .filter(|g| r.games.len() <= PER_GAME_LINES || !g.finished())
        {
            let end = if g.finished() {
                format!(
                    "reached a signed result at seq {}",
                    g.result_seq.unwrap_or_default()
                )
            } else if !g.pending_appeals.is_empty() {
                format!(
                    "no final result: appeal(s) at seq {} not decided by a majority",
                    g.pending_appeals
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                "no signed result yet".to_string()
            };
            say!(
                "game {}: chain ends at seq {} ({}); {end}",
                short(&g.game),
                g.head.seq,
                short(&g.head.hash)
            );
        }
        match manifest {
            None if what.starts_with("store ") || what.starts_with("server ") => {}
            _ => {
                say!(
                    "{}",
                    crate::trust::sentence(
                        archive::authority(manifest, trusted),
                        manifest.map_or(0, |m| m.manifest.games.len()),
                        !r.problems.iter().any(|p| p.what.starts_with("incomplete")
                            || p.what.starts_with("the manifest"))
                    )
                )
            }
        }
        for d in &r.duplicates {
            say!(
                "note: game {} seq {}: record {} appears {} times; counted once",
                short(&d.game),
                d.seq,
                short(&d.hash),
                d.copies
            );
        }
        for (g, s, k) in &r.uninterpreted {
            say!(
                "note: game {} seq {s}: event kind {k} is newer than this program; link, signature and signer checked",
                short(g)
            );
        }
        for w in &r.warnings {
            say!("{w}");
        }
    }
    outcome(r, what)
}

/// The exit of a verification: success, or exit 3 naming the first problem.
fn outcome(r: &VerifyReport, what: &str) -> CmdResult {
    if r.ok() {
        Ok(())
    } else {
        let first = r
            .problems
            .first()
            .map(|p| p.to_string())
            .unwrap_or_default();
        Err(Failure {
            message: format!(
                "verification failed: {} problem(s) in {what}; first: {first}",
                r.problems.len()
            ),
            code: EXIT_VERIFY_FAILED,
        })
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
    verdict.map_err(|e| Failure {
        message: format!("{}: {e}", file.display()),
        code: EXIT_VERIFY_FAILED,
    })
}

/// `kifu verify [FILE]`.
pub fn verify(data: &Path, a: VerifyArgs) -> CmdResult {
    match &a.file {
        Some(f) => {
            let trusted = crate::trust::read_trusted(&a.trust)?;
            // Streamed: memory follows the games in flight, not the file.
            let size = std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
            let pb = verify_progress(
                format!("verifying {} ({:.1} MB)", f.display(), size as f64 / 1e6),
                a.progress,
            );
            let lines = a.progress && !std::io::stderr().is_terminal();
            let started = Instant::now();
            let result = crate::stream_file::verify(f, &mut |n| {
                let line = format!(
                    "verifying {}: {} read ({:.0} events/s)",
                    f.display(),
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
            let (mut report, manifest, carried) = result.map_err(|e| Failure {
                message: format!("{}: {e}", f.display()),
                code: EXIT_VERIFY_FAILED,
            })?;
            // A carried tournament chain names the organiser's keys, which
            // the archive is checked against when no key is given.
            let trusted = crate::carried::trusted(&trusted, carried.as_ref());
            archive::require_trusted(&mut report, manifest.as_ref(), &trusted);
            if a.json {
                let mut j = report_json(&report, manifest.as_ref(), &trusted);
                if let (Some(c), Some(o)) = (&carried, j.as_object_mut()) {
                    o.insert(
                        "tournament".into(),
                        json!({
                            "id": hex::encode(c.id),
                            "name": c.name,
                            "organiser_keys": c.directors.iter().map(|k| k.to_hex()).collect::<Vec<_>>(),
                            "trusted_by_default": a.trust.is_empty(),
                        }),
                    );
                }
                say!("{j}");
                return outcome(&report, &f.display().to_string());
            }
            if let Some(c) = &carried {
                say!(
                    "tournament chain {} ({}) carried in the archive, verified as a chain file{}",
                    short(&c.id),
                    c.name,
                    if a.trust.is_empty() && !c.directors.is_empty() {
                        format!(
                            "; the archive is checked against the organiser's key it names: {}",
                            c.directors
                                .iter()
                                .map(|k| format!("{} ({})", k.to_hex(), k.sha256_fingerprint()))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    } else {
                        String::new()
                    }
                );
            }
            print_report(
                &report,
                manifest.as_ref(),
                &trusted,
                &f.display().to_string(),
                false,
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
            print_report(&report, None, &[], &place, a.json)
        }
    }
}

/// Writes `bytes` to `path` atomically: a temporary file, synced, renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    let mut f =
        std::fs::File::create(&tmp).map_err(|e| Failure::new(format!("{}: {e}", tmp.display())))?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `kifu export`.
pub fn export(data: &Path, a: ExportArgs) -> CmdResult {
    let key = a.key.as_deref().map(read_private).transpose()?;
    let store = open_existing(data)?;
    let games = match &a.game {
        Some(p) => vec![store.resolve(p)?],
        None => store.games()?,
    };
    let mut records = Vec::new();
    let mut heads = Vec::new();
    for g in &games {
        let chain = store.read(g, 0, None)?;
        if let Some(last) = chain.last() {
            heads.push((
                *g,
                kifu_ledger::Head {
                    seq: chain.len() as u64 - 1,
                    hash: last.hash(),
                },
            ));
        }
        records.extend(chain);
    }
    // The tournament chain carried along (`docs/FORMAT.md` section 7): its
    // verified branch, listed in the manifest like a game.
    if let Some(spec) = &a.tournament {
        let (file, chain) =
            kifu_store::tournaments::find(data, spec).map_err(|e| Failure::new(e.to_string()))?;
        let t = kifu_tournament::verify_tournament_records(&chain);
        let (Some(chain), true) = (t.chain, t.problems.is_empty()) else {
            return Err(Failure::new(format!(
                "{}: the tournament chain does not verify ({}); run kifu verify on it",
                file.display(),
                t.problems
                    .first()
                    .map(|p| p.to_string())
                    .unwrap_or_default()
            )));
        };
        heads.push((chain.id(), chain.head()));
        records.extend(chain.records);
    }
    let bytes = archive::write_with_manifest(&records, &heads, now_ms(), key.as_ref())?;
    write_atomically(&a.out, &bytes)?;
    if a.json {
        say!(
            "{}",
            json!({"file": a.out.display().to_string(), "games": games.len(), "events": records.len(), "bytes": bytes.len()})
        );
        return Ok(());
    }
    say!(
        "wrote {}: {}, {}, {} bytes; manifest {}",
        a.out.display(),
        count(games.len(), "game"),
        count(records.len(), "event"),
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
            let _ = print_report(v.report(), v.manifest(), &trusted, &what, a.json);
            return Err(Failure {
                message: if matches!(store, crate::remote::Backend::Remote(_)) {
                    "the archive does not verify; nothing sent to the server (a local import keeps a fork's records as evidence)".into()
                } else if evidence > 0 {
                    format!("the archive does not verify; nothing imported but the {evidence} records of its fork(s), kept as evidence")
                } else {
                    "the archive does not verify; nothing imported".into()
                },
                code: EXIT_VERIFY_FAILED,
            });
        }
        Err(e @ kifu_store::StoreError::Fork { .. }) => {
            return Err(Failure {
                message: format!(
                    "{e}; the imported record is kept as evidence, nothing else was written"
                ),
                code: EXIT_VERIFY_FAILED,
            })
        }
        Err(e) => return Err(e.into()),
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
