//! `kifu --server URL verify`: the store verified where it is, by the
//! server's `GET /verify`, which reads and verifies it a run of whole games
//! at a time (chains and the evidence of forks kept beside them), instead
//! of downloading every record to verify here.
//!
//! It asks for `/verify?progress=1`: a progress line after each run of
//! games (shown as the spinner's message, or as lines with `--progress`),
//! then the report. The report is the document of `kifu verify --json`
//! (`kifu_ledger::report::VerifyDocument`); it is read back into the
//! library's report, so that the text, the JSON and the exit code are those
//! of verifying a local store, with only the place named differently.

use std::time::Duration;

use kifu_ledger::report::{Progress, Source, VerifyDocument, VerifyLine};
use serde_json::Value;

use crate::remote::Client;
use crate::render::count;
use crate::{CmdResult, Failure};

/// Longest wait for the server's verdict on a whole store: a store of a
/// few million events takes minutes on a small machine
/// (`docs/PERFORMANCE.md`).
const VERDICT_WAIT: Duration = Duration::from_secs(3600);

/// `kifu --server URL verify [--json] [--progress]`.
pub fn verify(url: &str, as_json: bool, progress: bool) -> CmdResult {
    let client = Client::with_timeout(url, VERDICT_WAIT);
    // The feed's next cursor is the number of events stored.
    let events = client
        .get_json_any_status("/healthz")
        .ok()
        .and_then(|v| v["next_cursor"].as_u64());
    let line = match events {
        Some(n) => format!("verifying {} at server {url}", count(n, "event")),
        None => format!("verifying the store at server {url}"),
    };
    let pb = crate::verdicts::verify_progress(line.clone(), progress);
    let answer = read_verdict(&client, &mut |p| {
        let said = format!(
            "{line}: {} of {} games, {} verified",
            p.games_done,
            p.games,
            count(p.records_done, "event")
        );
        pb.set_message(said.clone());
        if progress && pb.is_hidden() {
            eprintln!("{said}");
        }
    });
    pb.finish_and_clear();
    let report = answer?
        .into_report()
        .map_err(|e| Failure::new(format!("the server's {e}")))?;
    crate::verdicts::print_report(
        &report,
        None,
        &[],
        &format!("server {url}"),
        Source::Store,
        as_json,
        None,
    )
}

/// Reads `GET /verify?progress=1` (`kifu_ledger::report::VerifyLine`s):
/// the progress lines, told to `progress` as they come, and the report. A
/// server that does not stream answers the report alone, which is taken as
/// it is.
fn read_verdict(
    client: &Client,
    progress: &mut dyn FnMut(Progress),
) -> Result<VerifyDocument, Failure> {
    use std::io::BufRead as _;
    let malformed = |e: serde_json::Error| {
        Failure::new(format!(
            "the server's verification report is malformed: {e}"
        ))
    };
    let reader = std::io::BufReader::new(client.get_reader("/verify?progress=1")?);
    for line in reader.lines() {
        let line = line.map_err(|e| Failure::new(format!("reading the server's answer: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(&line)
            .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))?;
        let streamed = ["progress", "report", "error"]
            .iter()
            .any(|k| v.get(k).is_some());
        if !streamed {
            return serde_json::from_value(v).map_err(malformed);
        }
        match serde_json::from_value(v).map_err(malformed)? {
            VerifyLine::Progress(p) => progress(p),
            VerifyLine::Report(r) => return Ok(r),
            VerifyLine::Error(e) => return Err(Failure::new(format!("server: {}", e.message))),
        }
    }
    Err(Failure::new(
        "the server's answer ended before its verification report",
    ))
}
