//! `kifu --server URL verify`: the store verified where it is, by the
//! server's `GET /verify`, which reads and verifies it a run of whole games
//! at a time (chains and the evidence of forks kept beside them), instead
//! of downloading every record to verify here.
//!
//! It asks for `/verify?progress=1`: a progress line after each run of
//! games (shown as the spinner's message, or as lines with `--progress`),
//! then the report. The report is the document of `kifu verify --json`;
//! it is read back into the library's report, so that the text, the JSON
//! and the exit code are those of verifying a local store (`archive_cmd`),
//! with only the place named differently.

use std::time::Duration;

use kifu_ledger::{Duplicate, Fork, GameSummary, Hash, Head, Problem, VerifyReport};
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
    let pb = crate::archive_cmd::verify_progress(line.clone(), progress);
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
    let report = report_from_json(&answer?)?;
    crate::archive_cmd::print_report(&report, None, &[], &format!("server {url}"), as_json)
}

/// How far the server's verification has gone (its progress line).
struct Progress {
    games_done: u64,
    games: u64,
    records_done: u64,
}

/// Reads `GET /verify?progress=1`: the progress lines, told to `progress`
/// as they come, and the report. A server that does not stream answers the
/// report alone, which is taken as it is.
fn read_verdict(client: &Client, progress: &mut dyn FnMut(Progress)) -> Result<Value, Failure> {
    use std::io::BufRead as _;
    let reader = std::io::BufReader::new(client.get_reader("/verify?progress=1")?);
    for line in reader.lines() {
        let line = line.map_err(|e| Failure::new(format!("reading the server's answer: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let mut v: Value = serde_json::from_str(&line)
            .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))?;
        if let Some(p) = v.get("progress") {
            progress(Progress {
                games_done: p["games_done"].as_u64().unwrap_or(0),
                games: p["games"].as_u64().unwrap_or(0),
                records_done: p["records_done"].as_u64().unwrap_or(0),
            });
        } else if let Some(e) = v.get("error") {
            return Err(Failure::new(format!(
                "server: {}",
                e["message"].as_str().unwrap_or("the verification stopped")
            )));
        } else if v.get("report").is_some() {
            return Ok(v["report"].take());
        } else {
            return Ok(v);
        }
    }
    Err(Failure::new(
        "the server's answer ended before its verification report",
    ))
}

fn bad(what: &str) -> Failure {
    Failure::new(format!(
        "the server's verification report is malformed: {what}"
    ))
}

fn hash(v: &Value, field: &str) -> Result<Hash, Failure> {
    v[field]
        .as_str()
        .and_then(|s| hex::decode(s).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| bad(&format!("'{field}' is not a 64-digit hex hash")))
}

fn number(v: &Value, field: &str) -> Result<u64, Failure> {
    v[field]
        .as_u64()
        .ok_or_else(|| bad(&format!("'{field}' is not a number")))
}

fn list<'a>(v: &'a Value, field: &str) -> Result<&'a Vec<Value>, Failure> {
    v[field]
        .as_array()
        .ok_or_else(|| bad(&format!("'{field}' is not a list")))
}

fn problem(v: &Value) -> Result<Problem, Failure> {
    Ok(Problem {
        game: hash(v, "game")?,
        seq: match &v["seq"] {
            Value::Null => None,
            _ => Some(number(v, "seq")?),
        },
        what: v["what"]
            .as_str()
            .ok_or_else(|| bad("a problem has no 'what'"))?
            .to_string(),
    })
}

/// The report stated by a `kifu verify --json` document
/// (`kifu_game::document::verify_report_json`). The document does not
/// state decided appeals, which no rendering of the report shows.
///
/// # Errors
///
/// A field missing or of the wrong type.
pub fn report_from_json(v: &Value) -> Result<VerifyReport, Failure> {
    let mut r = VerifyReport {
        records: number(v, "records")?,
        distinct: number(v, "distinct")?,
        ..VerifyReport::default()
    };
    for g in list(v, "games")? {
        let mut pending_appeals = Vec::new();
        for s in list(g, "pending_appeals")? {
            pending_appeals.push(s.as_u64().ok_or_else(|| bad("a pending appeal"))?);
        }
        r.games.push(GameSummary {
            game: hash(g, "game")?,
            events: number(g, "events")?,
            head: Head {
                seq: number(g, "head_seq")?,
                hash: hash(g, "head")?,
            },
            head_at_ms: number(g, "head_at_ms")?,
            result_seq: match &g["result_seq"] {
                Value::Null => None,
                _ => Some(number(g, "result_seq")?),
            },
            pending_appeals,
            decided_appeals: Vec::new(),
        });
    }
    for p in list(v, "problems")? {
        r.problems.push(problem(p)?);
    }
    for w in list(v, "warnings")? {
        r.warnings.push(problem(w)?);
    }
    for f in list(v, "forks")? {
        let mut all = Vec::new();
        for h in list(f, "records")? {
            all.push(
                h.as_str()
                    .and_then(|s| hex::decode(s).ok())
                    .and_then(|b| b.try_into().ok())
                    .ok_or_else(|| bad("a fork's record is not a hash"))?,
            );
        }
        r.forks.push(Fork {
            game: hash(f, "game")?,
            seq: number(f, "seq")?,
            first: hash(f, "first")?,
            second: hash(f, "second")?,
            all,
        });
    }
    for d in list(v, "duplicates")? {
        r.duplicates.push(Duplicate {
            game: hash(d, "game")?,
            seq: number(d, "seq")?,
            hash: hash(d, "hash")?,
            copies: number(d, "copies")?,
        });
    }
    for u in list(v, "uninterpreted")? {
        let kind = u32::try_from(number(u, "kind_index")?)
            .map_err(|_| bad("a kind index beyond 32 bits"))?;
        r.uninterpreted
            .push((hash(u, "game")?, number(u, "seq")?, kind));
    }
    // A document saying it failed must not read as a success here.
    if v["ok"] == Value::Bool(false) && r.problems.is_empty() {
        return Err(bad("'ok' is false but no problem is listed"));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};
    use kifu_ledger::{verify_records, Body, Color, Point};

    /// The document read back is the report it was written from (bar the
    /// decided appeals it does not state), a fork included.
    #[test]
    fn a_report_survives_its_json() {
        let cast = Cast::new();
        let game = sample_game(&cast, "round trip");
        let mut records = game.records.clone();
        let mut short = game.clone();
        short.records.truncate(2);
        short.head = Head {
            seq: 1,
            hash: short.records[1].hash(),
        };
        records.push(short.next(
            &cast.black,
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: Point { x: 3, y: 3 },
            },
        ));
        records.push(records[3].clone());
        let mut report = verify_records(&records);
        assert!(!report.forks.is_empty() && !report.duplicates.is_empty());
        let doc = kifu_game::document::verify_report_json(&report);
        let back = report_from_json(&doc).unwrap();
        for g in &mut report.games {
            g.decided_appeals.clear();
        }
        assert_eq!(back, report);
        assert_eq!(kifu_game::document::verify_report_json(&back), doc);
    }

    #[test]
    fn a_malformed_document_is_refused() {
        let e = report_from_json(&serde_json::json!({"records": 1})).unwrap_err();
        assert!(e.message.contains("distinct"), "{}", e.message);
        let e = report_from_json(&serde_json::json!({
            "ok": false, "records": 0, "distinct": 0, "games": [], "problems": [],
            "warnings": [], "forks": [], "duplicates": [], "uninterpreted": []
        }))
        .unwrap_err();
        assert!(e.message.contains("'ok' is false"), "{}", e.message);
    }
}
