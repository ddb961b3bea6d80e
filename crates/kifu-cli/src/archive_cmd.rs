//! `kifu verify`, `kifu export`, `kifu import`.

use std::io::Write;
use std::path::Path;

use kifu_ledger::{archive, verify_records, Record, VerifyReport};
use serde_json::json;

use crate::cli::{ExportArgs, ImportArgs, VerifyArgs};
use crate::render::{count, short};
use crate::store_open::{open, open_existing};
use crate::{CmdResult, Failure};

/// Exit code when verification finds a problem.
pub const EXIT_VERIFY_FAILED: u8 = 3;

fn spinner(msg: &str) -> indicatif::ProgressBar {
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(120));
    pb
}

/// The report as JSON.
pub fn report_json(r: &VerifyReport) -> serde_json::Value {
    json!({
        "ok": r.ok(),
        "records": r.records,
        "games": r.games.iter().map(|(g, n, h)| json!({"game": hex::encode(g), "events": n, "head": hex::encode(h)})).collect::<Vec<_>>(),
        "problems": r.problems.iter().map(|p| json!({"game": hex::encode(p.game), "seq": p.seq, "what": p.what})).collect::<Vec<_>>(),
        "forks": r.forks.iter().map(|f| json!({"game": hex::encode(f.game), "seq": f.seq, "first": hex::encode(f.first), "second": hex::encode(f.second)})).collect::<Vec<_>>(),
        "uninterpreted": r.uninterpreted.iter().map(|(g, s, k)| json!({"game": hex::encode(g), "seq": s, "kind_index": k})).collect::<Vec<_>>(),
    })
}

fn print_report(r: &VerifyReport, what: &str, as_json: bool) -> CmdResult {
    if as_json {
        say!("{}", report_json(r));
    } else if r.ok() {
        say!(
            "ok: {what}: {}, {}; every link, signature and role checks",
            count(r.games.len(), "game"),
            count(r.records, "event")
        );
        for (g, s, k) in &r.uninterpreted {
            say!(
                "note: game {} seq {s}: event kind {k} is newer than this program; link and signature checked",
                short(g)
            );
        }
    } else {
        for p in &r.problems {
            eprintln!("FAIL {p}");
        }
    }
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

/// Reads and parses an archive file.
pub fn read_archive(file: &Path) -> Result<Vec<Record>, Failure> {
    let bytes =
        std::fs::read(file).map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
    archive::read(&bytes).map_err(|e| Failure {
        message: format!("{}: {e}", file.display()),
        code: EXIT_VERIFY_FAILED,
    })
}

/// `kifu verify [FILE]`.
pub fn verify(data: &Path, a: VerifyArgs) -> CmdResult {
    let pb = spinner("reading");
    let (records, what) = match &a.file {
        Some(f) => (read_archive(f)?, f.display().to_string()),
        None => {
            let store = open_existing(data)?;
            (store.all_records()?, format!("store {}", data.display()))
        }
    };
    pb.set_message(format!("verifying {} events", records.len()));
    let report = verify_records(&records);
    pb.finish_and_clear();
    print_report(&report, &what, a.json)
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
    let store = open_existing(data)?;
    let games = match &a.game {
        Some(p) => vec![store.resolve(p)?],
        None => store.games()?,
    };
    let mut records = Vec::new();
    for g in &games {
        records.extend(store.read(g, 0, None)?);
    }
    let bytes = archive::write(&records);
    write_atomically(&a.out, &bytes)?;
    if a.json {
        say!(
            "{}",
            json!({"file": a.out.display().to_string(), "games": games.len(), "events": records.len(), "bytes": bytes.len()})
        );
        return Ok(());
    }
    say!(
        "wrote {}: {}, {}, {} bytes",
        a.out.display(),
        count(games.len(), "game"),
        count(records.len(), "event"),
        bytes.len()
    );
    Ok(())
}

/// `kifu import`.
pub fn import(data: &Path, a: ImportArgs) -> CmdResult {
    let records = read_archive(&a.file)?;
    let report = verify_records(&records);
    if !report.ok() {
        return print_report(&report, &a.file.display().to_string(), a.json).and(Err(
            Failure::new("the archive does not verify; nothing imported"),
        ));
    }
    let store = open(data)?;
    let r = store.import(&records)?;
    if a.json {
        say!(
            "{}",
            json!({"games": r.games, "written": r.written, "already_present": r.already_present})
        );
    } else {
        say!(
            "imported {}: {} events written, {} already present, {} games new or extended",
            a.file.display(),
            r.written,
            r.already_present,
            r.games
        );
    }
    Ok(())
}
