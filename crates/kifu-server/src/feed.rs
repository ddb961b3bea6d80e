//! The global feed over HTTP: NDJSON pages with long-poll, and a Server-Sent
//! Events stream whose `id:` is the cursor.
//!
//! Both read the store at the consumer's pace, a page at a time, and only
//! below the cursor the writer has published (every record below it is
//! durable and committed), so a consumer sees each record once, in cursor
//! order, without gaps, and a slow one costs a page of memory, not a queue.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use kifu_game::document::record_json;
use kifu_ledger::Hash;
use kifu_store::FeedItem;
use serde::Deserialize;
use tokio::sync::watch;

use crate::api::blocking;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::App;

/// Records read from the store at a time for a stream.
const STREAM_PAGE: usize = 128;

/// The longest a long-poll waits.
const MAX_WAIT_S: f64 = 60.0;

/// One feed line: the record as `kifu feed` prints it, with its cursor.
pub fn line(item: &FeedItem) -> String {
    let mut v = record_json(&item.game, &item.record);
    v["cursor"] = serde_json::json!(item.cursor);
    v.to_string()
}

/// Counts a follower while it is connected.
struct Follower(Arc<Metrics>);

impl Follower {
    fn new(m: Arc<Metrics>) -> Follower {
        m.followers.fetch_add(1, Ordering::Relaxed);
        Follower(m)
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.0.followers.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Reads up to `limit` items after `after`, never at or beyond `published`.
fn read_below(
    app: &App,
    after: Option<u64>,
    limit: usize,
    published: u64,
) -> Result<Vec<FeedItem>, ApiError> {
    let first = after.map(|a| a.saturating_add(1)).unwrap_or(0);
    if first >= published {
        return Ok(Vec::new());
    }
    let room = usize::try_from(published - first).unwrap_or(usize::MAX);
    let mut items = app.store.feed(after, limit.min(room))?;
    items.retain(|i| i.cursor < published);
    Ok(items)
}

/// A feed line and its cursor.
pub type Line = (u64, Arc<str>);

/// One feed record, encoded once: its NDJSON line and its Server-Sent
/// Events frame (`id: CURSOR\ndata: LINE\n\n`).
#[derive(Clone)]
struct Encoded {
    cursor: u64,
    game: Hash,
    line: Arc<str>,
    frame: Bytes,
}

impl Encoded {
    fn new(cursor: u64, game: Hash, line: String) -> Encoded {
        let frame = Bytes::from(format!("id: {cursor}\ndata: {line}\n\n"));
        Encoded {
            cursor,
            game,
            line: Arc::from(line),
            frame,
        }
    }
}

/// The most recent feed records, encoded once and shared by every
/// follower: a thousand followers of a live feed cost one encoding per
/// record, not a thousand, and a follower that is up to date reads them
/// here without touching the store or leaving the async workers. Holds a
/// run of consecutive cursors, at most `CACHED_LINES`.
pub struct LineCache {
    lines: RwLock<VecDeque<Encoded>>,
    /// The cursor below which the newest records are in the cache (or
    /// older than it): followers of the live feed wait on this, not on
    /// the writer's published cursor, so they wake once the records they
    /// want are encoded and find them here.
    ready: watch::Sender<u64>,
    /// Whether the task that fills the cache runs.
    filler: std::sync::Once,
}

impl Default for LineCache {
    fn default() -> Self {
        LineCache {
            lines: RwLock::default(),
            ready: watch::Sender::new(0),
            filler: std::sync::Once::new(),
        }
    }
}

/// Fills the cache as the writer publishes: reads and encodes the records
/// of each durable batch once, then tells the followers. Runs on its own
/// thread ([`LineCache::ready`]); ends when the server stops.
async fn fill(app: Arc<App>) {
    let mut published = app.ingest.published();
    let mut shutdown = app.shutdown.clone();
    let mut have = *published.borrow_and_update();
    app.lines.ready.send_replace(have);
    loop {
        tokio::select! {
            r = published.changed() => if r.is_err() { return },
            _ = shutdown.changed() => return,
        }
        let upto = *published.borrow_and_update();
        // Only what the cache can keep: a follower further behind reads
        // the store itself.
        let mut after = (have.max(upto.saturating_sub(CACHED_LINES as u64))).checked_sub(1);
        while after.map(|a| a + 1).unwrap_or(0) < upto {
            // This runs on a thread of its own: reading the store here
            // blocks no async worker.
            match read_and_remember(&app, after, STREAM_PAGE * 8, upto) {
                Ok(lines) if !lines.is_empty() => after = lines.last().map(|e| e.cursor),
                // The followers read the store themselves.
                Ok(_) | Err(_) => break,
            }
        }
        have = upto;
        app.lines.ready.send_replace(upto);
    }
}

impl LineCache {
    /// The cursor below which the live records are ready, to wait on;
    /// starts the filling task on first use.
    fn ready(&self, app: &Arc<App>) -> watch::Receiver<u64> {
        // A thread of its own, not a task: scheduled by the system beside
        // the async workers, it never waits behind a thousand followers
        // (or the appends) in their run queue before it can fill.
        self.filler.call_once(|| {
            let handle = tokio::runtime::Handle::current();
            let app = app.clone();
            let _ = std::thread::Builder::new()
                .name("kifu-feed".into())
                .spawn(move || handle.block_on(fill(app)));
        });
        self.ready.subscribe()
    }
}

/// Lines the cache keeps.
const CACHED_LINES: usize = 8192;

impl LineCache {
    /// Records from cursor `first` on, below `upto`, at most `max`, when the
    /// cache holds `first`.
    fn from(&self, first: u64, upto: u64, max: usize) -> Option<Vec<Encoded>> {
        let q = self.lines.read().ok()?;
        let front = q.front()?.cursor;
        let start = usize::try_from(first.checked_sub(front)?).ok()?;
        if start >= q.len() {
            return None;
        }
        Some(
            q.iter()
                .skip(start)
                .take_while(|e| e.cursor < upto)
                .take(max)
                .cloned()
                .collect(),
        )
    }

    /// Keeps records that extend the run at its end (or start a new run
    /// after a gap).
    fn remember(&self, lines: &[Encoded]) {
        let Ok(mut q) = self.lines.write() else {
            return;
        };
        for e in lines {
            match q.back().map(|b| b.cursor) {
                Some(b) if e.cursor == b + 1 => q.push_back(e.clone()),
                Some(b) if e.cursor <= b => continue,
                _ => {
                    q.clear();
                    q.push_back(e.clone());
                }
            }
            while q.len() > CACHED_LINES {
                q.pop_front();
            }
        }
    }
}

/// Reads up to `limit` records after `after` below `published` from the
/// store, encodes them and keeps them in the cache.
fn read_and_remember(
    app: &App,
    after: Option<u64>,
    limit: usize,
    published: u64,
) -> Result<Vec<Encoded>, ApiError> {
    let lines: Vec<Encoded> = read_below(app, after, limit, published)?
        .iter()
        .map(|it| Encoded::new(it.cursor, it.game, line(it)))
        .collect();
    app.lines.remember(&lines);
    Ok(lines)
}

/// Up to `limit` feed records after `after`, below `published`: from the
/// cache when it holds them (the live feed: no store read, no blocking),
/// else read from the store, encoded and kept.
async fn lines_below(
    app: &Arc<App>,
    after: Option<u64>,
    limit: usize,
    published: u64,
) -> Result<Vec<Encoded>, ApiError> {
    let first = after.map(|a| a.saturating_add(1)).unwrap_or(0);
    if first >= published {
        return Ok(Vec::new());
    }
    if let Some(lines) = app.lines.from(first, published, limit) {
        if !lines.is_empty() {
            return Ok(lines);
        }
    }
    let a = app.clone();
    blocking(move || read_and_remember(&a, after, limit, published)).await
}

/// `GET /feed` parameters.
#[derive(Debug, Deserialize)]
pub struct FeedQuery {
    after: Option<u64>,
    limit: Option<usize>,
    /// Seconds to wait for something new when nothing is there yet.
    wait: Option<f64>,
}

/// `GET /feed?after=CURSOR&limit=N&wait=S`: NDJSON, one record per line
/// with its cursor. With `wait`, an empty answer waits up to that long for
/// the next record.
pub async fn page(State(app): State<Arc<App>>, Query(q): Query<FeedQuery>) -> Response {
    match page_inner(app, q).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

async fn page_inner(app: Arc<App>, q: FeedQuery) -> Result<Response, ApiError> {
    let limit = q
        .limit
        .unwrap_or(app.limits.max_records_per_read)
        .clamp(1, app.limits.max_records_per_read);
    let wait = q.wait.filter(|w| w.is_finite()).unwrap_or(0.0);
    let wait = Duration::from_secs_f64(wait.clamp(0.0, MAX_WAIT_S));
    let mut published = app.ingest.published();
    let mut shutdown = app.shutdown.clone();
    let deadline = tokio::time::Instant::now() + wait;
    let _follower = (!wait.is_zero()).then(|| Follower::new(app.metrics.clone()));
    let items = loop {
        let upto = *published.borrow_and_update();
        let items = lines_below(&app, q.after, limit, upto).await?;
        if !items.is_empty() || tokio::time::Instant::now() >= deadline {
            break items;
        }
        tokio::select! {
            r = published.changed() => if r.is_err() { break items },
            _ = tokio::time::sleep_until(deadline) => {},
            _ = shutdown.changed() => break items,
        }
    };
    let mut body = String::new();
    for e in &items {
        body.push_str(&e.line);
        body.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// `GET /feed/stream` parameters.
#[derive(Debug, Deserialize)]
pub struct StreamQuery {
    after: Option<u64>,
    /// Only this game's records (its id or a prefix of it): a board device
    /// follows its own game, not the whole venue.
    game: Option<String>,
}

/// How long a stream stays silent before it sends a comment line, so that
/// proxies and clients see it alive.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

struct Follow {
    app: Arc<App>,
    after: Option<u64>,
    game: Option<Hash>,
    published: watch::Receiver<u64>,
    shutdown: watch::Receiver<bool>,
    _follower: Follower,
}

/// `GET /feed/stream?after=CURSOR`: Server-Sent Events, `id:` the cursor
/// and `data:` the feed line. A reconnecting `EventSource` (or `curl -N
/// -H 'Last-Event-ID: N'`) resumes after the last id it saw; the header wins
/// over `after`. `game=ID` sends only that game's records (their cursors
/// are the store's, so resuming works the same).
///
/// Each wake-up sends everything the follower has not seen yet (up to a
/// page) as one piece of the body, built from frames encoded once for all
/// followers: a follower costs a copy of references and one write per
/// batch the writer publishes, not an encoding and a write per record.
pub async fn stream(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<StreamQuery>,
) -> Result<Response, ApiError> {
    let after = match headers.get("last-event-id") {
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "bad_cursor",
                        "Last-Event-ID must be a cursor (a decimal number)",
                    )
                })?,
        ),
        None => q.after,
    };
    // A whole game id (the game need not exist yet: its records are sent
    // when they come), or a prefix of a stored game's id.
    let game = match q.game {
        None => None,
        Some(g) => match hex::decode(&g)
            .ok()
            .and_then(|b| Hash::try_from(b.as_slice()).ok())
        {
            Some(h) => Some(h),
            None => {
                let a = app.clone();
                Some(blocking(move || Ok(a.store.resolve(&g)?)).await?)
            }
        },
    };
    let state = Follow {
        game,
        published: app.lines.ready(&app),
        shutdown: app.shutdown.clone(),
        _follower: Follower::new(app.metrics.clone()),
        app,
        after,
    };
    let s = futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if *st.shutdown.borrow() {
                return None;
            }
            let upto = *st.published.borrow_and_update();
            let first = st.after.map(|a| a.saturating_add(1)).unwrap_or(0);
            if first < upto {
                match lines_below(&st.app, st.after, STREAM_PAGE, upto).await {
                    Ok(mut items) if !items.is_empty() => {
                        st.after = items.last().map(|e| e.cursor);
                        if let Some(g) = st.game {
                            items.retain(|e| e.game == g);
                            if items.is_empty() {
                                continue;
                            }
                        }
                        let piece = match items.as_slice() {
                            [one] => one.frame.clone(),
                            many => {
                                let mut b =
                                    Vec::with_capacity(many.iter().map(|e| e.frame.len()).sum());
                                for e in many {
                                    b.extend_from_slice(&e.frame);
                                }
                                Bytes::from(b)
                            }
                        };
                        return Some((Ok::<Bytes, Infallible>(piece), st));
                    }
                    // A store that cannot be read ends the stream; the
                    // client resumes from its last id.
                    Ok(_) | Err(_) => return None,
                }
            }
            tokio::select! {
                r = st.published.changed() => if r.is_err() { return None },
                _ = st.shutdown.changed() => return None,
                _ = tokio::time::sleep(KEEP_ALIVE) => {
                    return Some((Ok(Bytes::from_static(b":\n\n")), st));
                }
            }
        }
    });
    Ok((
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(s),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(range: std::ops::Range<u64>) -> Vec<Encoded> {
        range
            .map(|c| Encoded::new(c, [0; 32], format!("line {c}")))
            .collect()
    }

    #[test]
    fn the_cache_serves_a_run_of_consecutive_cursors_and_nothing_else() {
        let cache = LineCache::default();
        assert!(cache.from(0, 10, 10).is_none());
        cache.remember(&lines(5..10));
        let got = cache.from(6, 9, 100).unwrap();
        assert_eq!(
            got.iter().map(|l| l.cursor).collect::<Vec<_>>(),
            vec![6, 7, 8]
        );
        assert_eq!(&*got[0].line, "line 6");
        assert_eq!(&got[0].frame[..], b"id: 6\ndata: line 6\n\n");
        // Before the run, or past it: the store is read instead.
        assert!(cache.from(4, 10, 10).is_none());
        assert!(cache.from(10, 20, 10).is_none());
        // Older lines do not disturb the run; a gap starts a new one.
        cache.remember(&lines(0..3));
        assert_eq!(cache.from(5, 10, 1).unwrap()[0].cursor, 5);
        cache.remember(&lines(20..22));
        assert!(cache.from(5, 30, 10).is_none());
        assert_eq!(cache.from(20, 30, 10).unwrap().len(), 2);
    }

    #[test]
    fn the_cache_is_bounded() {
        let cache = LineCache::default();
        cache.remember(&lines(0..(CACHED_LINES as u64 + 100)));
        assert!(cache.from(0, u64::MAX, 1).is_none());
        let first = cache.from(100, u64::MAX, 1).unwrap();
        assert_eq!(first[0].cursor, 100);
    }
}
