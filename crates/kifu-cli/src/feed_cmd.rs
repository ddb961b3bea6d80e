//! `kifu feed`: the global event order as NDJSON.

use clap::Args;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::remote::open_existing;
use crate::{CmdResult, Failure};
use kifu_game::document::feed_line_text;

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
        && (crate::endpoint::server().is_some() || kifu_store::read_only_reason(data).is_none());
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
            let line = feed_line_text(&it.game, &it.record, it.cursor, None, None);
            if writeln!(out, "{line}").is_err() {
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

/// `kifu feed`.
#[derive(Debug, Args)]
pub struct FeedArgs {
    /// Start after this cursor (the last one you saw); from the beginning when omitted.
    #[arg(long)]
    pub after: Option<u64>,
    /// Keep waiting for new events.
    #[arg(long)]
    pub follow: bool,
    /// Stop after this many lines.
    #[arg(long)]
    pub limit: Option<u64>,
    /// With --follow: how often to look for new events, in ms.
    #[arg(long, default_value_t = 250)]
    pub poll_ms: u64,
    /// Read from a NATS JetStream stream instead of the store.
    #[command(flatten)]
    pub nats: crate::nats_cmd::FeedNatsArgs,
}
