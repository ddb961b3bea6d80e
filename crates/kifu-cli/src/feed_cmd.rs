//! `kifu feed`: the global event order as NDJSON.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::cli::FeedArgs;
use crate::remote::open_existing;
use crate::render::record_json;
use crate::{CmdResult, Failure};

/// Lines read from the store at a time.
const PAGE: usize = 1024;

/// `kifu feed [--after CURSOR] [--follow]`.
///
/// Every line carries its `cursor`; a consumer that restarts with
/// `--after LAST_CURSOR_SEEN` gets no gap and no duplicate. With `--follow`
/// the store is opened for each look and closed in between, so that other
/// kifu processes can keep appending (sled admits one process at a time).
pub fn feed(data: &Path, a: FeedArgs) -> CmdResult {
    let mut after = a.after;
    let mut printed = 0u64;
    let stdout = std::io::stdout();
    let limit = a.limit.unwrap_or(u64::MAX);
    // A read command never creates a store: a mistyped --data fails at once,
    // with --follow too.
    open_existing(data)?;
    // Nothing is appended to a store on read-only media (it is read from a
    // copy): following it would only copy it again and again.
    let follow = a.follow
        && (crate::remote::server().is_some() || kifu_store::read_only_reason(data).is_none());
    loop {
        let items = {
            let store = open_existing(data)?;
            let mut all = Vec::new();
            loop {
                let want = ((limit - printed) as usize).min(PAGE);
                if want == 0 {
                    break;
                }
                let page = store.feed(after, want)?;
                let n = page.len();
                if let Some(last) = page.last() {
                    after = Some(last.cursor);
                }
                printed += n as u64;
                all.extend(page);
                if n < want {
                    break;
                }
            }
            all
        };
        let mut out = stdout.lock();
        for it in &items {
            let mut v = record_json(&it.game, &it.record);
            v["cursor"] = serde_json::json!(it.cursor);
            if writeln!(out, "{v}").is_err() {
                // The reader went away (a closed pipe): stop quietly.
                return Ok(());
            }
        }
        out.flush().map_err(|e| Failure::new(e.to_string()))?;
        if !follow || printed >= limit {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(a.poll_ms.max(10)));
    }
}
