//! `kifu serve`: one process owns a kifu store and serves it over HTTP to
//! many boards, readers and feed followers at once.
//!
//! The one decision a reader must know: **all appends go through one bounded
//! queue and one writer** ([`ingest`]). The writer takes everything waiting,
//! verifies the batch's signatures together, places each record on its own
//! (a bad one fails alone), commits them in one transaction and makes them
//! durable with one sync before it answers anyone. That is what turns a few
//! thousand durable appends a second into tens of thousands on the same
//! disk, and what lets a full queue say 503 instead of growing.
//!
//! The server is a thin face: records are checked by `kifu-ledger`, stored by
//! `kifu-store`, projected by `kifu-game`; the JSON documents are those of
//! `kifu_game::document`, the same the command line prints with `--json`.
//!
//! A server over a new store: a game appended through the writer, then
//! served over HTTP until the stop signal.
//!
//! ```
//! use std::sync::Arc;
//! use kifu_ledger::testkit::{sample_game, Cast};
//! use kifu_server::{bind, Limits, Server};
//!
//! let dir = tempfile::tempdir()?;
//! let store = Arc::new(kifu_store::Store::open(dir.path())?);
//! let runtime = tokio::runtime::Runtime::new()?;
//! let server = runtime.block_on(async { Server::new(store, Limits::default()) })?;
//!
//! // Every append goes through the one queue and writer, answered once durable.
//! let game = sample_game(&Cast::new(), "a game");
//! let answers = server.app().ingest.append_blocking(game.records.clone())?;
//! assert!(answers.iter().all(|a| a.is_ok()));
//!
//! let (listener, addr) = runtime.block_on(bind("127.0.0.1:0".parse()?))?;
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! let serving = runtime.spawn(server.run(listener, async {
//!     let _ = stopped.await;
//! }));
//! let id = hex::encode(game.game);
//! let head: serde_json::Value = ureq::get(&format!("http://{addr}/games/{id}/head"))
//!     .call()?
//!     .into_json()?;
//! assert_eq!(head["seq"], game.head.seq);
//! let _ = stop.send(());
//! runtime.block_on(serving)??;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod answers;
pub mod api;
pub mod budget;
pub mod bundle_api;
pub mod chains;
pub mod conn;
pub mod console;
pub mod creation;
pub mod desk;
pub mod device;
pub mod error;
pub mod feed;
pub mod headers;
pub mod ingest;
pub use kifu_store::marker;
pub mod metrics;
pub mod openapi;
pub mod outlet;
pub mod page;
pub mod preview;
pub mod replica;
pub mod routes;
pub mod sched;
pub mod schemas;
pub mod tlog_api;
pub mod tls;
pub mod tournament_api;
pub mod tournament_write;
pub mod verdicts;
pub mod web;
pub mod whole;
pub mod wire;
mod worded;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use kifu_store::Store;
use tokio::sync::watch;

pub use crate::conn::ConnLimits;
pub use crate::error::ApiError;
pub use crate::ingest::{Ingest, IngestError};
pub use crate::metrics::Metrics;
pub use crate::outlet::{Outlet, OutletHealth};

/// Limits on what one request may ask.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest request body, in bytes.
    pub max_body_bytes: usize,
    /// Most records in one submission.
    pub max_records_per_request: usize,
    /// Most records in one read (a range of a game, a feed page).
    pub max_records_per_read: usize,
    /// Records the ingest queue holds before it answers 503.
    pub queue_records: usize,
    /// Longest time for a request that is not a stream or a long-poll.
    pub request_timeout: Duration,
    /// Longest time for a request's body to arrive whole.
    pub body_timeout: Duration,
    /// Streams (SSE followers, waiting long-polls) held at once.
    pub max_streams: usize,
    /// Streams one client (IPv4 address or IPv6 /64) may hold at once.
    pub max_streams_per_client: usize,
    /// Reads (`GET` and `HEAD` that are not streams) in flight at once.
    pub max_reads: usize,
    /// Writes (every other method) in flight at once.
    pub max_writes: usize,
    /// Request bodies received at once, before a read or write place is
    /// taken: a client that never sends its body holds one of these, never
    /// a place a board's append needs.
    pub max_bodies: usize,
    /// Request bodies one client (IPv4 address or IPv6 /64) may be sending
    /// at once.
    pub max_bodies_per_client: usize,
    /// How far behind the published cursor a follower fed from memory (the
    /// live feed) may fall, in records, before its stream is ended with a
    /// request to resume from its cursor (`retry:` and `event: resume`);
    /// 0: never. A follower that connects behind catches up from the store
    /// in pages and is not asked to resume before it has reached the live
    /// feed. See [`feed`].
    pub max_follower_lag: u64,
    /// Longest time a follower's next write waits while appends are in
    /// flight: writers go first, the fan-out runs with what is left.
    pub feed_defer: Duration,
    /// Store reads for followers catching up (pages of records older than
    /// the shared cache) running at once; more wait their turn, so that a
    /// crowd catching up never takes the threads a board's reads need.
    pub max_catchup_reads: usize,
    /// Feed events kept encoded in memory for the followers of the live
    /// feed (a follower further behind reads the store):
    /// [`feed::CACHED_LINES`] by default, some 80 MB at most.
    pub feed_cached_lines: usize,
    /// Device seat requests one client address may have waiting at once
    /// (more: 429), so that a flood from a few addresses cannot fill the
    /// list every board's tablet needs. A venue whose tablets reach the
    /// server through one address (a NAT) raises it.
    pub max_device_requests_per_client: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 16 << 20,
            max_records_per_request: 10_000,
            max_records_per_read: 10_000,
            queue_records: 65_536,
            request_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
            max_streams: 2048,
            max_streams_per_client: 64,
            max_reads: 256,
            max_writes: 512,
            max_bodies: 256,
            max_bodies_per_client: 16,
            max_follower_lag: 65_536,
            feed_defer: Duration::from_millis(2),
            max_catchup_reads: 2,
            feed_cached_lines: feed::CACHED_LINES,
            max_device_requests_per_client: device::MAX_REQUESTS_PER_CLIENT,
        }
    }
}

/// What the handlers share.
pub struct App {
    /// The store.
    pub store: Arc<Store>,
    /// The ingest pipeline.
    pub ingest: Ingest,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// Limits.
    pub limits: Limits,
    /// Becomes true when the server stops: streams and long-polls end.
    pub shutdown: watch::Receiver<bool>,
    /// The transparency log's checkpoint signer and counters.
    pub tlog: tlog_api::LogFace,
    /// Who may create games ([`creation`]).
    pub creation: creation::Creation,
    /// Duties beside serving, reporting to `/healthz` and `/metrics`.
    pub outlets: std::sync::RwLock<Vec<Arc<dyn Outlet>>>,
    /// Devices asking for seats (not ledger events).
    pub devices: device::Devices,
    /// The one writer of the tournament chain files ([`tournament_write`]).
    pub tournaments: kifu_store::tournaments::Keeper,
    /// Set on a read replica ([`replica`]): writes are refused, the feed
    /// follows the mirror.
    pub replica: Option<replica::Replica>,
    summaries: api::SummaryCache,
    projections: verdicts::Projections,
    answers: verdicts::Answers,
    lines: feed::LineCache,
    followers: feed::Followers,
    budgets: budget::Budgets,
}

/// Errors starting or running the server.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] kifu_store::StoreError),
    /// The network or the file system failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The transparency log cannot be signed.
    #[error("transparency log: {0}")]
    Log(#[from] tlog_api::LogError),
}

async fn timeout(
    axum::extract::State(limit): axum::extract::State<Duration>,
    req: Request,
    next: Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!(
                "the request took longer than {} s; an append may still have been written: retrying the same record is safe",
                limit.as_secs()
            ),
        )
        .into_response(),
    }
}

/// True when the answer's `Content-Type` starts with `prefix`.
fn typed(r: &Response, prefix: &str) -> bool {
    r.headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.starts_with(prefix))
        .unwrap_or(false)
}

/// Gives every refusal the JSON form of [`ApiError`], including those
/// answered before a handler runs (a query or path that does not parse, a
/// body over the limit, a method the route does not take).
async fn json_errors(req: Request, next: Next) -> Response {
    let r = next.run(req).await;
    let status = r.status();
    let is_json = typed(&r, "application/json");
    // A page that says what is missing (a game or event not in the store)
    // keeps its HTML.
    let is_html = typed(&r, "text/html");
    if !status.is_client_error() || is_json || is_html {
        return r;
    }
    let text = match axum::body::to_bytes(r.into_body(), 64 << 10).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "body_too_large",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        _ => "bad_request",
    };
    let message = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("bad request")
            .to_string()
    } else {
        text
    };
    ApiError::new(status, code, message).into_response()
}

/// The routes answered within the request time limit.
fn timed_routes() -> routes::Routes {
    routes::Routes::new()
        .post("/records", api::submit)
        .get("/games", api::games)
        .get("/", page::page)
        .get("/web/{file}", web::get)
        .get("/games/{id}", api::game)
        .get("/games/{id}/at/{seq}", page::at)
        .get("/favicon.ico", page::favicon)
        .get("/games/{id}/head", api::head)
        .get("/games/{id}/records", api::records)
        .get("/games/{id}/state", api::state)
        .get("/games/{id}/explain", api::explain)
        .get("/games/{id}/explain.txt", api::explain_text)
        .get("/games/{id}/sgf", api::sgf)
        .get("/games/{id}/archive", api::game_archive)
        .get("/games/{id}/verify", api::game_verify)
        .post("/games/{id}/preview", preview::preview)
        .get("/devices", device::list)
        .post("/devices", device::request)
        .get("/devices/{id}", device::one)
        .get("/play", page::board)
        .get("/play/{id}", page::board)
        .get("/referee", console::page)
        .get("/referee/games", console::games)
        .get("/games/{id}/powers", console::powers)
        .get("/director", desk::page)
        .get("/director/tournaments", desk::tournaments_of)
        .post("/director/draft", desk::draft)
        .get("/tournaments/{t}/desk", desk::desk)
        .get("/archive", api::store_archive)
        .get("/verify", api::store_verify)
        .get("/healthz", api::healthz)
        .get("/livez", api::livez)
        .get("/metrics", api::metrics)
        .get("/openapi.json", openapi::serve)
        .merge(tlog_api::routes())
        .merge(tournament_api::routes())
}

/// The streams and long-polls, outside the request time limit.
fn open_routes() -> routes::Routes {
    routes::Routes::new()
        .get("/feed", feed::page)
        .get("/feed/stream", feed::stream)
        .get("/tournaments/{t}/events", tournament_api::events)
}

/// Every route the server answers (the list [`openapi`] documents).
pub fn route_list() -> Vec<routes::Route> {
    let mut list = open_routes().into_parts().1;
    list.extend(timed_routes().into_parts().1);
    list
}

/// The routes (see `docs/API.md`).
pub fn router(app: Arc<App>) -> Router {
    let limit = app.limits.request_timeout;
    let timed = timed_routes()
        .into_parts()
        .0
        .layer(axum::middleware::from_fn_with_state(limit, timeout));
    open_routes()
        .into_parts()
        .0
        .merge(timed)
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(app.limits.max_body_bytes))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            budget::fence,
        ))
        .layer(axum::middleware::from_fn(json_errors))
        .layer(web::compression())
        .layer(axum::middleware::from_fn(headers::secure))
        .with_state(app)
}

/// A server over an open store, not yet listening.
pub struct Server {
    app: Arc<App>,
    stop: watch::Sender<bool>,
    conn: ConnLimits,
    tls: Option<tls::Tls>,
}

impl Server {
    /// Starts the ingest pipeline over `store`.
    pub fn new(store: Arc<Store>, limits: Limits) -> Result<Server, ServerError> {
        Server::with_checkpoints(store, limits, None)
    }

    /// Like [`Server::new`], signing the transparency log's checkpoints
    /// with the operator key in `checkpoints` (signs the current tree now
    /// when the last kept checkpoint is not of it).
    pub fn with_checkpoints(
        store: Arc<Store>,
        limits: Limits,
        checkpoints: Option<tlog_api::CheckpointConfig>,
    ) -> Result<Server, ServerError> {
        Server::build(store, limits, checkpoints, None)
    }

    /// A read replica over `store`, which the mirror of `replica` fills:
    /// the feed follows [`replica::Replica::stored`], every write is
    /// refused with 421 ([`replica`]). With `checkpoints`, it signs
    /// periodic checkpoints of its own store with its own key, so that it
    /// serves bundles and proofs.
    pub fn replica(
        store: Arc<Store>,
        limits: Limits,
        checkpoints: Option<tlog_api::CheckpointConfig>,
        replica: replica::Replica,
    ) -> Result<Server, ServerError> {
        Server::build(store, limits, checkpoints, Some(replica))
    }

    fn build(
        store: Arc<Store>,
        limits: Limits,
        checkpoints: Option<tlog_api::CheckpointConfig>,
        replica: Option<replica::Replica>,
    ) -> Result<Server, ServerError> {
        let tlog = tlog_api::LogFace::start(&store, checkpoints)?;
        let metrics = Arc::new(Metrics::default());
        let mut ingest = Ingest::start(store.clone(), limits.queue_records, metrics.clone())?;
        if let Some(r) = &replica {
            ingest = ingest.following(r.stored.clone());
        }
        let (stop, shutdown) = watch::channel(false);
        let devices =
            device::Devices::open(store.path())?.per_client(limits.max_device_requests_per_client);
        let tournaments = kifu_store::tournaments::Keeper::new(store.path());
        let budgets = budget::Budgets::new(&limits);
        let lines = feed::LineCache::new(limits.max_catchup_reads, limits.feed_cached_lines);
        Ok(Server {
            app: Arc::new(App {
                budgets,
                store,
                ingest,
                metrics,
                limits,
                shutdown,
                tlog,
                creation: Default::default(),
                outlets: Default::default(),
                devices,
                tournaments,
                replica,
                summaries: Default::default(),
                projections: Default::default(),
                answers: Default::default(),
                lines,
                followers: Default::default(),
            }),
            stop,
            conn: ConnLimits::default(),
            tls: None,
        })
    }

    /// Sets the limits on connections (the defaults: [`ConnLimits::default`]).
    pub fn with_conn_limits(mut self, conn: ConnLimits) -> Server {
        self.conn = conn;
        self
    }

    /// Sets who may create games (the default: anyone,
    /// [`creation::Creation::Open`]). Call before [`Server::app`].
    pub fn with_creation(mut self, creation: creation::Creation) -> Server {
        if let Some(app) = Arc::get_mut(&mut self.app) {
            app.creation = creation;
        }
        self
    }

    /// Adds a duty beside serving (a publisher) to `/healthz` and `/metrics`.
    pub fn add_outlet(&self, outlet: Arc<dyn Outlet>) {
        if let Ok(mut o) = self.app.outlets.write() {
            o.push(outlet);
        }
    }

    /// Serves HTTPS with `tls` instead of plain HTTP.
    pub fn with_tls(mut self, tls: tls::Tls) -> Server {
        self.tls = Some(tls);
        self
    }

    /// The shared state (for in-process use and tests).
    pub fn app(&self) -> Arc<App> {
        self.app.clone()
    }

    /// Serves on `listener` until `signal` completes; then stops accepting,
    /// ends the feed streams, lets requests in flight finish, and has the
    /// writer commit, sync and answer everything already queued.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        signal: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let stop = self.stop;
        let app = self.app;
        let stopping = app.shutdown.clone();
        let warming = app.clone();
        tokio::task::spawn_blocking(move || device::warm(&warming));
        tokio::spawn(async move {
            signal.await;
            let _ = stop.send(true);
        });
        let signer = tlog_api::spawn_periodic(app.clone());
        conn::serve(
            listener,
            router(app.clone()),
            self.conn,
            app.metrics.clone(),
            stopping,
            self.tls.map(|t| t.acceptor),
            app.limits.feed_defer,
        )
        .await;
        if let Some(task) = signer {
            task.abort();
        }
        app.ingest.shutdown();
        app.store.sync()?;
        Ok(())
    }
}

/// Waits for Ctrl-C or SIGTERM. The handlers are in place as soon as this
/// is called (inside a runtime), not when the future is first polled: a
/// server that says it is listening can be stopped by a signal at once.
pub fn stop_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let (term, int) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = wait(term) => {},
                _ = wait(int) => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Binds `addr` (port 0 for any free port) and gives the listener and the
/// address it got.
///
/// The listen queue is long (4096, or the system's `somaxconn` if smaller):
/// a crowd connecting at once is taken in by the accept loop and answered,
/// not left to the kernel's retries.
pub async fn bind(addr: SocketAddr) -> Result<(tokio::net::TcpListener, SocketAddr), ServerError> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    let l = socket.listen(4096)?;
    let a = l.local_addr()?;
    Ok((l, a))
}
