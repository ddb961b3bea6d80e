//! The global feed over HTTP: NDJSON pages with long-poll, and a Server-Sent
//! Events stream whose `id:` is the cursor.
//!
//! Both read the store at the consumer's pace, a page at a time, and only
//! below the cursor the writer has published (every record below it is
//! durable and committed), so a consumer sees each record once, in cursor
//! order, without gaps, and a slow one costs a page of memory, not a queue.
//!
//! Writers never wait for readers. Followers come in two classes: **live**
//! (their next record is in the cache of encoded lines every follower
//! shares) and **catching up** (older: read from the store a page at a
//! time, at most [`Limits::max_catchup_reads`] pages at once, so a crowd
//! catching up never takes the threads a board's reads need). Before each
//! write a follower gives way to the appends in flight (at most
//! [`Limits::feed_defer`]), and then sends everything waiting in one
//! piece; a follower of the whole feed's thread also sleeps before each
//! write to its socket while appends are in flight
//! ([`crate::metrics::AppendsFirst`]). A live follower that falls more than [`Limits::max_follower_lag`]
//! records behind is not fed from memory further: its stream ends with
//! `retry:` and an `event: resume` naming its cursor, and it comes back
//! with `Last-Event-ID`, as a follower catching up. `/metrics` shows each
//! class's size and lag and how many followers were asked to resume.
//!
//! [`Limits::max_catchup_reads`]: crate::Limits::max_catchup_reads
//! [`Limits::feed_defer`]: crate::Limits::feed_defer
//! [`Limits::max_follower_lag`]: crate::Limits::max_follower_lag

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use kifu_ledger::Hash;
use kifu_store::FeedItem;
use serde::Deserialize;
use tokio::sync::{watch, Semaphore};

use crate::answers::CompactFeedLine;
use crate::api::blocking;
use crate::error::ApiError;
use crate::App;
use kifu_game::document::feed_line_text;

/// Records read from the store at a time for a stream.
const STREAM_PAGE: usize = 128;

/// The longest a long-poll waits.
const MAX_WAIT_S: f64 = 60.0;

/// One feed line: the record as `kifu feed` prints it, with its cursor.
pub fn line(item: &FeedItem) -> String {
    full_line(item, None)
}

/// The line of a record ([`crate::answers::FeedLine`]); a stored record
/// whose envelope does not parse (a damaged store) is an
/// [`crate::answers::UnreadableLine`].
fn full_line(item: &FeedItem, venue_cursor: Option<u64>) -> String {
    feed_line_text(&item.game, &item.record, item.cursor, venue_cursor, None)
}

/// One compact feed line (`form=compact`): the cursor, the game, the seq,
/// the hash and the stored record's bytes (base64, `docs/FORMAT.md`
/// section 7), without the decoded body: less to send to every follower,
/// and a follower that verifies decodes the bytes itself anyway.
pub fn compact_line(item: &FeedItem) -> String {
    compact_of(item, None)
}

fn compact_of(item: &FeedItem, venue_cursor: Option<u64>) -> String {
    let l = CompactFeedLine {
        cursor: item.cursor,
        game: hex::encode(item.game),
        seq: item.seq,
        hash: hex::encode(item.record.hash()),
        record: base64::engine::general_purpose::STANDARD.encode(item.record.to_stored()),
        venue_cursor,
    };
    serde_json::to_string(&l).unwrap_or_default()
}

/// Which line a follower asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// The record decoded, as `kifu feed` prints it.
    #[default]
    Full,
    /// The record's bytes and cursor ([`compact_line`]).
    Compact,
}

/// A follower's class, by where its next record comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// From the cache every follower shares.
    Live,
    /// From the store, a page at a time.
    CatchingUp,
}

impl Class {
    const ALL: [Class; 2] = [Class::Live, Class::CatchingUp];

    fn name(self) -> &'static str {
        match self {
            Class::Live => "live",
            Class::CatchingUp => "catching_up",
        }
    }
}

/// Where one follower is: the next cursor it wants and its class.
#[derive(Default)]
struct Place {
    next: AtomicU64,
    catching_up: AtomicBool,
}

impl Place {
    fn set(&self, next: u64, class: Class) {
        self.next.store(next, Ordering::Relaxed);
        self.catching_up
            .store(class == Class::CatchingUp, Ordering::Relaxed);
    }
}

/// The followers connected now, each with its place, for `/metrics`; and
/// how many were asked to resume or gave way to appends.
#[derive(Default)]
pub struct Followers {
    next_id: AtomicU64,
    places: Mutex<HashMap<u64, Arc<Place>>>,
    /// Streams ended with a request to resume (beyond the stated lag).
    resumed: AtomicU64,
    /// Writes to followers held back while appends were in flight.
    deferred: AtomicU64,
    /// Pages read from the store for followers (not in the cache).
    pages: AtomicU64,
}

impl Followers {
    /// The Prometheus lines: each class's followers and lag (records
    /// behind `published`, the greatest and the sum), the followers asked
    /// to resume, the writes held back for appends.
    pub fn render(&self, published: u64, out: &mut String) {
        let mut count = [0u64; 2];
        let mut max = [0u64; 2];
        let mut sum = [0u64; 2];
        if let Ok(places) = self.places.lock() {
            for p in places.values() {
                let i = usize::from(p.catching_up.load(Ordering::Relaxed));
                let lag = published.saturating_sub(p.next.load(Ordering::Relaxed));
                count[i] += 1;
                max[i] = max[i].max(lag);
                sum[i] += lag;
            }
        }
        let _ = writeln!(out, "# HELP kifu_feed_class_followers Feed followers by class: live (fed from the shared cache) or catching_up (reading the store in pages).\n# TYPE kifu_feed_class_followers gauge");
        for c in Class::ALL {
            let _ = writeln!(
                out,
                "kifu_feed_class_followers{{class=\"{}\"}} {}",
                c.name(),
                count[c as usize]
            );
        }
        let _ = writeln!(out, "# HELP kifu_feed_lag_max_records The greatest lag of a follower of the class, in records behind the published cursor.\n# TYPE kifu_feed_lag_max_records gauge");
        for c in Class::ALL {
            let _ = writeln!(
                out,
                "kifu_feed_lag_max_records{{class=\"{}\"}} {}",
                c.name(),
                max[c as usize]
            );
        }
        let _ = writeln!(out, "# HELP kifu_feed_lag_records_sum The followers' lags added up, by class, in records.\n# TYPE kifu_feed_lag_records_sum gauge");
        for c in Class::ALL {
            let _ = writeln!(
                out,
                "kifu_feed_lag_records_sum{{class=\"{}\"}} {}",
                c.name(),
                sum[c as usize]
            );
        }
        let _ = writeln!(out, "# HELP kifu_feed_resumes_total Followers whose stream was ended with a request to resume from their cursor (beyond the stated lag).\n# TYPE kifu_feed_resumes_total counter\nkifu_feed_resumes_total {}", self.resumed.load(Ordering::Relaxed));
        let _ = writeln!(out, "# HELP kifu_feed_catchup_pages_total Pages of records read from the store for followers behind the shared cache.\n# TYPE kifu_feed_catchup_pages_total counter\nkifu_feed_catchup_pages_total {}", self.pages.load(Ordering::Relaxed));
        let _ = writeln!(out, "# HELP kifu_feed_deferred_total Writes to followers held back while appends were in flight.\n# TYPE kifu_feed_deferred_total counter\nkifu_feed_deferred_total {}", self.deferred.load(Ordering::Relaxed));
    }
}

/// The feed's lines of `/metrics` ([`Followers::render`]).
pub fn render_metrics(app: &App) -> String {
    let mut out = String::new();
    app.followers
        .render(*app.ingest.published().borrow(), &mut out);
    out
}

/// Counts a follower while it is connected, and keeps its place.
struct Follower {
    app: Arc<App>,
    id: u64,
    place: Arc<Place>,
}

impl Follower {
    fn new(app: &Arc<App>, next: u64) -> Follower {
        app.metrics.followers.fetch_add(1, Ordering::Relaxed);
        let id = app.followers.next_id.fetch_add(1, Ordering::Relaxed);
        let place = Arc::new(Place::default());
        place.set(next, Class::Live);
        if let Ok(mut p) = app.followers.places.lock() {
            p.insert(id, place.clone());
        }
        Follower {
            app: app.clone(),
            id,
            place,
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.app.metrics.followers.fetch_sub(1, Ordering::Relaxed);
        if let Ok(mut p) = self.app.followers.places.lock() {
            p.remove(&self.id);
        }
    }
}

/// Waits while writes are in flight, at most [`crate::Limits::feed_defer`]:
/// the fan-out runs with what the appends leave.
async fn writers_first(app: &App) {
    let defer = app.limits.feed_defer;
    let f = &app.metrics.fences;
    if defer.is_zero() || f.writes.load(Ordering::Acquire) == 0 {
        return;
    }
    let idle = f.writers_idle.notified();
    tokio::pin!(idle);
    idle.as_mut().enable();
    if f.writes.load(Ordering::Acquire) == 0 {
        return;
    }
    app.followers.deferred.fetch_add(1, Ordering::Relaxed);
    let _ = tokio::time::timeout(defer, idle).await;
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
/// Events frame (`id: CURSOR\ndata: LINE\n\n`), in both forms.
#[derive(Clone)]
struct Encoded {
    cursor: u64,
    game: Hash,
    line: Arc<str>,
    frame: Bytes,
    compact_line: Arc<str>,
    compact_frame: Bytes,
}

impl Encoded {
    fn new(cursor: u64, game: Hash, line: String, compact: String) -> Encoded {
        let frame = Bytes::from(format!("id: {cursor}\ndata: {line}\n\n"));
        let compact_frame = Bytes::from(format!("id: {cursor}\ndata: {compact}\n\n"));
        Encoded {
            cursor,
            game,
            line: Arc::from(line),
            frame,
            compact_line: Arc::from(compact),
            compact_frame,
        }
    }

    fn line(&self, form: Form) -> &str {
        match form {
            Form::Full => &self.line,
            Form::Compact => &self.compact_line,
        }
    }

    fn frame(&self, form: Form) -> &Bytes {
        match form {
            Form::Full => &self.frame,
            Form::Compact => &self.compact_frame,
        }
    }
}

/// The most recent feed records, encoded once and shared by every
/// follower: a thousand followers of a live feed cost one encoding per
/// record, not a thousand, and a follower that is up to date reads them
/// here without touching the store or leaving the async workers. Holds a
/// run of consecutive cursors, at most [`crate::Limits::feed_cached_lines`].
pub struct LineCache {
    lines: RwLock<VecDeque<Encoded>>,
    /// The cursor below which the newest records are in the cache (or
    /// older than it): followers of the live feed wait on this, not on
    /// the writer's published cursor, so they wake once the records they
    /// want are encoded and find them here.
    ready: watch::Sender<u64>,
    /// Whether the task that fills the cache runs.
    filler: std::sync::Once,
    /// Places for store reads of followers catching up.
    catchup: Arc<Semaphore>,
    /// The most lines kept.
    keep: usize,
}

impl Default for LineCache {
    fn default() -> Self {
        LineCache::new(2, CACHED_LINES)
    }
}

impl LineCache {
    /// An empty cache of at most `keep` lines; at most `catchup_reads`
    /// store reads for followers catching up at once.
    pub fn new(catchup_reads: usize, keep: usize) -> LineCache {
        LineCache {
            keep: keep.max(1),
            lines: RwLock::default(),
            ready: watch::Sender::new(0),
            filler: std::sync::Once::new(),
            catchup: Arc::new(Semaphore::new(
                catchup_reads.clamp(1, Semaphore::MAX_PERMITS),
            )),
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
        let mut after = (have.max(upto.saturating_sub(app.lines.keep as u64))).checked_sub(1);
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
                .spawn(move || {
                    crate::sched::lower(FILLER_NICE);
                    handle.block_on(fill(app))
                });
        });
        self.ready.subscribe()
    }
}

/// How much less the filling thread is scheduled than the appends' (a
/// nice value added to the process's).
const FILLER_NICE: i32 = 5;

/// Lines the cache keeps unless told otherwise
/// ([`crate::Limits::feed_cached_lines`]): at about 1.3 KB an event in its two forms, at
/// most some 80 MB. A follower the appends held back for a few seconds of
/// 2,000 events a second is still fed from here, not from the store
/// (which costs the server about a sixth more a delivery:
/// `docs/PERFORMANCE.md`, "A crowd at the server").
pub const CACHED_LINES: usize = 65_536;

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
            while q.len() > self.keep {
                q.pop_front();
            }
        }
    }
}

/// Encodes one record in both forms; on a read replica, each line also
/// carries the record's cursor at the venue that published it, when the
/// mirror noted it.
fn encode(app: &App, it: &FeedItem) -> Encoded {
    let venue = match app.replica {
        Some(_) => app.store.venue_cursor(&it.record.hash()).ok().flatten(),
        None => None,
    };
    Encoded::new(
        it.cursor,
        it.game,
        full_line(it, venue),
        compact_of(it, venue),
    )
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
        .map(|it| encode(app, it))
        .collect();
    app.lines.remember(&lines);
    Ok(lines)
}

/// Up to `limit` feed records after `after`, below `published`: from the
/// cache when it holds them (the live feed: no store read, no blocking),
/// else read from the store (under the budget of reads for followers
/// catching up), encoded and kept; and which class that made the reader.
async fn lines_below(
    app: &Arc<App>,
    after: Option<u64>,
    limit: usize,
    published: u64,
) -> Result<(Vec<Encoded>, Class), ApiError> {
    let first = after.map(|a| a.saturating_add(1)).unwrap_or(0);
    if first >= published {
        return Ok((Vec::new(), Class::Live));
    }
    if let Some(lines) = app.lines.from(first, published, limit) {
        if !lines.is_empty() {
            return Ok((lines, Class::Live));
        }
    }
    let _turn = app
        .lines
        .catchup
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| {
            ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "stopping",
                "the server is stopping",
            )
        })?;
    app.followers.pages.fetch_add(1, Ordering::Relaxed);
    let a = app.clone();
    let lines = blocking(move || read_and_remember(&a, after, limit, published)).await?;
    Ok((lines, Class::CatchingUp))
}

/// `GET /feed` parameters.
#[derive(Debug, Deserialize)]
pub struct FeedQuery {
    after: Option<u64>,
    limit: Option<usize>,
    /// Seconds to wait for something new when nothing is there yet.
    wait: Option<f64>,
    /// `compact`: each record's bytes and cursor, not the decoded body.
    #[serde(default)]
    form: Form,
}

/// `GET /feed?after=CURSOR&limit=N&wait=S&form=compact`: NDJSON, one
/// record per line with its cursor. With `wait`, an empty answer waits up
/// to that long for the next record.
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
    let first = q.after.map(|a| a.saturating_add(1)).unwrap_or(0);
    let follower = (!wait.is_zero()).then(|| Follower::new(&app, first));
    let items = loop {
        let upto = *published.borrow_and_update();
        let (items, class) = lines_below(&app, q.after, limit, upto).await?;
        if let Some(f) = &follower {
            f.place.set(first, class);
        }
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
        body.push_str(e.line(q.form));
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
    /// `compact`: each record's bytes and cursor, not the decoded body.
    #[serde(default)]
    form: Form,
}

/// How long a stream stays silent before it sends a comment line, so that
/// proxies and clients see it alive.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long a follower asked to resume waits before it comes back
/// (`retry:`, in milliseconds, which `EventSource` obeys).
pub const RESUME_RETRY_MS: u64 = 2000;

struct Follow {
    app: Arc<App>,
    after: Option<u64>,
    game: Option<Hash>,
    form: Form,
    published: watch::Receiver<u64>,
    shutdown: watch::Receiver<bool>,
    follower: Follower,
    /// Has been within the stated lag on this connection: only such a
    /// follower is asked to resume when it falls beyond it (one that
    /// connects further behind catches up at its own pace).
    within: bool,
    /// The request to resume was sent: the stream ends.
    ended: bool,
}

/// The frame that ends a follower's stream beyond the stated lag: when to
/// come back, and from where (its `id:` is the cursor to resume after).
fn resume_frame(after: Option<u64>, lag: u64, max: u64) -> Bytes {
    let data = serde_json::json!({
        "after": after,
        "lag": lag,
        "message": format!(
            "this follower fell {lag} records behind the live feed (the most fed from memory is {max}); resume with Last-Event-ID to catch up from the store"
        ),
    });
    let id = after.map(|a| format!("id: {a}\n")).unwrap_or_default();
    Bytes::from(format!(
        "retry: {RESUME_RETRY_MS}\n{id}event: resume\ndata: {data}\n\n"
    ))
}

/// `GET /feed/stream?after=CURSOR&form=compact`: Server-Sent Events, `id:`
/// the cursor and `data:` the feed line. A reconnecting `EventSource` (or
/// `curl -N -H 'Last-Event-ID: N'`) resumes after the last id it saw; the
/// header wins over `after`. `game=ID` sends only that game's records
/// (their cursors are the store's, so resuming works the same).
///
/// Each wake-up sends everything the follower has not seen yet (up to a
/// page) as one piece of the body, built from frames encoded once for all
/// followers: a follower costs a copy of references and one write per
/// batch the writer publishes, not an encoding and a write per record.
/// A live follower beyond [`crate::Limits::max_follower_lag`] gets
/// `retry:` and `event: resume` (its `id:` the cursor to resume after),
/// and the stream ends.
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
        form: q.form,
        published: app.lines.ready(&app),
        shutdown: app.shutdown.clone(),
        follower: Follower::new(&app, after.map(|a| a.saturating_add(1)).unwrap_or(0)),
        app,
        after,
        within: false,
        ended: false,
    };
    let s = futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if *st.shutdown.borrow() || st.ended {
                return None;
            }
            let upto = *st.published.borrow_and_update();
            let first = st.after.map(|a| a.saturating_add(1)).unwrap_or(0);
            if first < upto {
                let lag = upto - first;
                let max = st.app.limits.max_follower_lag;
                if st.within && max > 0 && lag > max {
                    // Not fed from memory further: it comes back from its
                    // cursor and catches up from the store.
                    st.ended = true;
                    st.app.followers.resumed.fetch_add(1, Ordering::Relaxed);
                    let frame = resume_frame(st.after, lag, max);
                    return Some((Ok::<Bytes, Infallible>(frame), st));
                }
                writers_first(&st.app).await;
                // What came meanwhile goes in the same piece.
                let upto = (*st.published.borrow_and_update()).max(upto);
                match lines_below(&st.app, st.after, STREAM_PAGE, upto).await {
                    Ok((mut items, class)) if !items.is_empty() => {
                        st.after = items.last().map(|e| e.cursor);
                        let next = st.after.map(|a| a.saturating_add(1)).unwrap_or(0);
                        st.within |= max == 0 || upto.saturating_sub(next) <= max;
                        st.follower.place.set(next, class);
                        if let Some(g) = st.game {
                            items.retain(|e| e.game == g);
                            if items.is_empty() {
                                continue;
                            }
                        }
                        let form = st.form;
                        let piece = match items.as_slice() {
                            [one] => one.frame(form).clone(),
                            many => {
                                let mut b = Vec::with_capacity(
                                    many.iter().map(|e| e.frame(form).len()).sum(),
                                );
                                for e in many {
                                    b.extend_from_slice(e.frame(form));
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
            st.follower.place.set(first, Class::Live);
            st.within = true;
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
            .map(|c| Encoded::new(c, [0; 32], format!("line {c}"), format!("short {c}")))
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
