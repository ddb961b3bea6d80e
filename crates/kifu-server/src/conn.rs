//! Accepting connections: bounds on how many are open at once, in all and
//! per client, and deadlines that no client can hold off.
//!
//! Every connection is accepted at once and either served or answered at
//! once: nothing waits in the kernel's listen queue behind a crowd.
//!
//! - A client (an IPv4 address, or an IPv6 /64) holds at most
//!   [`ConnLimits::max_connections_per_client`] connections; one more is
//!   answered `429 Too Many Requests` with `Retry-After` and closed.
//! - At [`ConnLimits::max_connections`], the oldest *idle* connection (one
//!   with no request in flight and no answer being sent: a kept-alive
//!   connection between requests, or one that has not finished its request
//!   head) is closed to make room for the new one. Idle connections are
//!   what a crowd of do-nothing clients is made of, so they can never keep
//!   a board's append out. Only when every connection is busy is the new
//!   one answered `503 Service Unavailable` with `Retry-After`.
//! - A request head must arrive within [`ConnLimits::header_read_timeout`]
//!   (counted on a new connection and between requests on a kept-alive
//!   one): a client that dribbles its headers, or idles, is disconnected.
//! - A client that stops reading its answer (a feed follower that no longer
//!   reads, a download left hanging) is disconnected once the server has
//!   been unable to write to it for [`ConnLimits::write_stall_timeout`].
//!
//! - A connection whose first request follows the venue's whole feed
//!   (`GET /feed/stream` without `game=`) is served by threads of lower
//!   scheduling priority (`Followers`): when the CPU is spent, it is
//!   spent on the boards' appends and reads first, and the spectators lag.
//!
//! Request bodies, streams, reads and writes have budgets of their own
//! ([`crate::budget`]).

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, Semaphore};

use crate::budget::Guarded;
use crate::metrics::Metrics;

/// Limits on connections (as opposed to [`crate::Limits`], on requests).
#[derive(Debug, Clone)]
pub struct ConnLimits {
    /// Connections served at once. At the bound an idle connection is
    /// closed to make room; when none is idle, the new one is answered 503.
    pub max_connections: usize,
    /// Connections one client (IPv4 address or IPv6 /64) may hold at once;
    /// one more is answered 429.
    pub max_connections_per_client: usize,
    /// Longest wait for a whole request head (request line and headers),
    /// counted from when the server starts waiting for it: on a new
    /// connection, and between requests on a kept-alive one.
    pub header_read_timeout: Duration,
    /// Longest time the server may be unable to write to a client (the
    /// client does not read) before the connection is closed.
    pub write_stall_timeout: Duration,
    /// Serve connections following the venue's whole feed on threads of
    /// lower scheduling priority (`Followers`); off, they are served
    /// with the appends (to compare the two).
    pub followers_apart: bool,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_connections: 4096,
            max_connections_per_client: 256,
            header_read_timeout: Duration::from_secs(10),
            write_stall_timeout: Duration::from_secs(30),
            followers_apart: true,
        }
    }
}

/// The client a connection belongs to, for per-client bounds: an IPv4
/// address as it is, an IPv6 address by its /64 (one host's worth of
/// addresses: a host can pick any address in its /64 at will).
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The client of a request (see [`client_of`]), put in every request's
/// extensions by the connection that carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(pub IpAddr);

/// How long accepting pauses after the system refuses a connection (out of
/// file descriptors, for example), so that the loop does not spin.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Refusals being drained at once; past that a refused connection is
/// answered with what fits in its socket buffer and closed at once.
const MAX_REFUSING: usize = 1024;

/// How long a refused connection is drained (so that the client reads the
/// refusal rather than a reset) before it is closed.
const REFUSAL_DRAIN: Duration = Duration::from_millis(250);

/// One open connection.
struct Conn {
    id: u64,
    client: IpAddr,
    /// Requests in flight and answers being sent.
    busy: AtomicUsize,
    /// Chosen to make room: closing.
    evicted: AtomicBool,
    evict: Notify,
}

/// Marks a connection busy while a request is in flight and its answer is
/// being sent (held by the answer's body).
pub(crate) struct Busy(Arc<Conn>);

impl Busy {
    fn enter(c: Arc<Conn>) -> Busy {
        c.busy.fetch_add(1, Ordering::AcqRel);
        Busy(c)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Why a connection was not served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    PerClient,
    Full,
}

#[derive(Default)]
struct Open {
    conns: BTreeMap<u64, Arc<Conn>>,
    per_client: HashMap<IpAddr, usize>,
    /// Connections chosen to make room that have not ended yet.
    evicting: usize,
    next_id: u64,
}

/// The open connections.
struct Registry {
    open: Mutex<Open>,
    limits: ConnLimits,
    metrics: Arc<Metrics>,
}

impl Registry {
    fn admit(&self, client: IpAddr) -> Result<Arc<Conn>, Refusal> {
        let mut o = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let mine = o.per_client.get(&client).copied().unwrap_or(0);
        if mine >= self.limits.max_connections_per_client.max(1) {
            return Err(Refusal::PerClient);
        }
        if o.conns.len() - o.evicting >= self.limits.max_connections.max(1) {
            // The oldest idle connection makes room.
            let idle = o
                .conns
                .values()
                .find(|c| c.busy.load(Ordering::Acquire) == 0 && !c.evicted.load(Ordering::Acquire))
                .cloned();
            match idle {
                Some(c) => {
                    c.evicted.store(true, Ordering::Release);
                    c.evict.notify_one();
                    o.evicting += 1;
                    self.metrics
                        .fences
                        .evicted_idle
                        .fetch_add(1, Ordering::Relaxed);
                }
                None => return Err(Refusal::Full),
            }
        }
        let id = o.next_id;
        o.next_id += 1;
        let c = Arc::new(Conn {
            id,
            client,
            busy: AtomicUsize::new(0),
            evicted: AtomicBool::new(false),
            evict: Notify::new(),
        });
        o.conns.insert(id, c.clone());
        *o.per_client.entry(client).or_insert(0) += 1;
        self.metrics
            .fences
            .connections
            .store(o.conns.len() as u64, Ordering::Relaxed);
        Ok(c)
    }

    fn release(&self, c: &Conn) {
        let mut o = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if o.conns.remove(&c.id).is_none() {
            return;
        }
        if c.evicted.load(Ordering::Acquire) {
            o.evicting = o.evicting.saturating_sub(1);
        }
        if let Some(n) = o.per_client.get_mut(&c.client) {
            *n -= 1;
            if *n == 0 {
                o.per_client.remove(&c.client);
            }
        }
        self.metrics
            .fences
            .connections
            .store(o.conns.len() as u64, Ordering::Relaxed);
    }
}

/// A socket that remembers since when a write has been waiting for the
/// client to read.
struct Watched {
    inner: TcpStream,
    stall: Arc<Stall>,
    /// For a follower of the whole feed: its thread sleeps while appends
    /// are in flight before each write, at most the duration
    /// ([`crate::metrics::AppendsFirst`]).
    appends_first: Option<(Arc<Metrics>, Duration)>,
}

impl Watched {
    fn give_way(&self) {
        if let Some((m, bound)) = &self.appends_first {
            m.fences.appends_first.wait(&m.fences.writes, *bound);
        }
    }
}

struct Stall {
    base: Instant,
    /// Milliseconds since `base` (plus one) when writing began to wait; 0
    /// when it is not waiting.
    since: AtomicU64,
}

impl Stall {
    fn mark(&self, pending: bool) {
        if pending {
            if self.since.load(Ordering::Relaxed) == 0 {
                let now = self.base.elapsed().as_millis() as u64 + 1;
                self.since.store(now, Ordering::Relaxed);
            }
        } else {
            self.since.store(0, Ordering::Relaxed);
        }
    }

    fn longer_than(&self, limit: Duration) -> bool {
        let since = self.since.load(Ordering::Relaxed);
        since != 0 && self.base.elapsed().as_millis() as u64 + 1 - since > limit.as_millis() as u64
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.give_way();
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.stall.mark(r.is_pending());
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.give_way();
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.stall.mark(r.is_pending());
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.inner).poll_flush(cx);
        self.stall.mark(r.is_pending());
        r
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The answer to a connection refused before its request is read.
fn refusal_bytes(r: Refusal) -> Vec<u8> {
    let (status, code, retry, message) = match r {
        Refusal::PerClient => (
            "429 Too Many Requests",
            "too_many_connections",
            crate::budget::RETRY_PER_CLIENT_S,
            "this address holds as many connections as the server allows one client: close one, or retry later",
        ),
        Refusal::Full => (
            "503 Service Unavailable",
            "server_full",
            crate::budget::RETRY_FULL_S,
            "the server holds as many busy connections as it serves at once: retry later",
        ),
    };
    let code_n: u16 = status[..3].parse().unwrap_or(503);
    let body = serde_json::json!({"error": {"code": code, "message": message, "status": code_n}})
        .to_string();
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nRetry-After: {retry}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in crate::headers::SECURITY_HEADERS {
        head.push_str(k);
        head.push_str(": ");
        head.push_str(v);
        head.push_str("\r\n");
    }
    head.push_str("Cache-Control: no-store\r\n\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// Answers a refused connection and closes it, after draining what the
/// client sent for a moment (so that it reads the answer, not a reset).
async fn refuse<S: AsyncRead + AsyncWrite + Unpin>(mut tcp: S, r: Refusal) {
    let bytes = refusal_bytes(r);
    let send = async {
        tcp.write_all(&bytes).await?;
        tcp.shutdown().await?;
        let mut sink = [0u8; 4096];
        let mut drained = 0usize;
        while drained < (64 << 10) {
            match tcp.read(&mut sink).await? {
                0 => break,
                n => drained += n,
            }
        }
        Ok::<(), io::Error>(())
    };
    let _ = tokio::time::timeout(REFUSAL_DRAIN, send).await;
}

/// One connection's serving: its requests through the router, until it
/// ends, the server stops, it is chosen to make room, or its client stops
/// reading.
struct One {
    router: Router,
    builder: http1::Builder,
    conn: Arc<Conn>,
    stop: watch::Receiver<bool>,
    stall: Arc<Stall>,
    stall_limit: Duration,
    metrics: Arc<Metrics>,
}

impl One {
    async fn serve<I>(mut self, io: I)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let service = {
            let router = self.router.clone();
            let conn = self.conn.clone();
            hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                let router = router.clone();
                let busy = Busy::enter(conn.clone());
                req.extensions_mut().insert(Client(conn.client));
                async move {
                    let r = tower::ServiceExt::oneshot(router, req.map(Body::new)).await;
                    let r: axum::response::Response = match r {
                        Ok(r) => r,
                        Err(e) => match e {},
                    };
                    Ok::<_, Infallible>(r.map(|b| Body::new(Guarded::new(b, busy))))
                }
            })
        };
        // hyper's own bare answers (a request it cannot read) in words.
        let io = crate::worded::Worded::new(io);
        let served = self.builder.serve_connection(TokioIo::new(io), service);
        let mut served = std::pin::pin!(served);
        let tick = (self.stall_limit / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
        let mut ticks = tokio::time::interval(tick);
        let mut closing = false;
        loop {
            tokio::select! {
                _ = served.as_mut() => break,
                _ = self.stop.wait_for(|s| *s), if !closing => {
                    closing = true;
                    served.as_mut().graceful_shutdown();
                }
                _ = self.conn.evict.notified(), if !closing => {
                    closing = true;
                    served.as_mut().graceful_shutdown();
                }
                _ = ticks.tick() => {
                    if self.stall.longer_than(self.stall_limit) {
                        self.metrics.fences.evicted_stalled.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
    }
}

/// The threads that serve the connections following the venue's whole
/// feed: a runtime of their own, scheduled only when no other thread
/// wants the CPU (`SCHED_IDLE`: `crate::sched::idle`), so that a
/// thousand spectators' writes (each a system call into the kernel's TCP)
/// wait for the CPU behind the boards' appends instead of beside them in
/// one run queue. A spectator that falls behind for it catches up from the
/// store, or is told to resume ([`crate::feed`]).
struct Followers {
    /// Taken when dropped.
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
}

impl Drop for Followers {
    /// Dropped inside the server's runtime, it may not wait for its
    /// threads: by then every connection has ended and they have nothing
    /// left to serve.
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

impl Followers {
    /// As many threads as the process may use cores; `None` when the
    /// system gives no threads (the followers are then served with the
    /// rest).
    fn start() -> Option<Followers> {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_name("kifu-follow")
            // Its blocking threads (store reads of followers catching up)
            // too.
            .on_thread_start(crate::sched::idle)
            .enable_all()
            .build()
            .ok()
            .map(|rt| Followers {
                handle: rt.handle().clone(),
                runtime: Some(rt),
            })
    }
}

/// Where a connection is served.
#[derive(Debug, PartialEq, Eq)]
enum Place {
    /// With the appends.
    Here,
    /// By [`Followers`].
    Followers,
    /// Nowhere: chosen to make room, or the server stops, before the
    /// client sent anything.
    Close,
}

/// Whether a request line (or as much of it as has arrived) follows the
/// venue's whole feed: `GET /feed/stream`, with no `game=` (a game's own
/// feed is what a board's tablet follows, and stays with the appends).
fn follows_the_venue(first: &[u8]) -> bool {
    let line = first.split(|&b| b == b'\n').next().unwrap_or_default();
    let Some(rest) = line.strip_prefix(b"GET /feed/stream") else {
        return false;
    };
    matches!(rest.first(), None | Some(b'?' | b' ')) && !rest.windows(5).any(|w| w == b"game=")
}

/// Where to serve a new plain connection, from the bytes its client has
/// sent so far (peeked, not taken: hyper reads them again). Only the
/// scheduling priority depends on it: a request line that arrives in
/// pieces is judged on its first piece.
async fn place(
    tcp: &TcpStream,
    conn: &Conn,
    stop: &mut watch::Receiver<bool>,
    limit: Duration,
) -> Place {
    let mut first = [0u8; 256];
    tokio::select! {
        r = tokio::time::timeout(limit, tcp.peek(&mut first)) => match r {
            Ok(Ok(n)) if follows_the_venue(&first[..n]) => Place::Followers,
            Ok(Ok(0)) | Ok(Err(_)) => Place::Close,
            Ok(Ok(_)) => Place::Here,
            // Nothing within a request head's time: hyper closes it.
            Err(_) => Place::Close,
        },
        _ = conn.evict.notified() => Place::Close,
        _ = stop.wait_for(|s| *s) => Place::Close,
    }
}

/// Whether the first byte a client sends opens a TLS handshake (a TLS
/// record of type 22); false for anything else, and for a client that
/// sends nothing within `limit` or closes.
async fn starts_with_tls(tcp: &TcpStream, limit: Duration) -> bool {
    let mut first = [0u8; 1];
    match tokio::time::timeout(limit, tcp.peek(&mut first)).await {
        Ok(Ok(1)) => first[0] == 0x16,
        // Nothing to redirect: let the handshake fail on its own.
        _ => true,
    }
}

/// Answers a plain HTTP request sent to the HTTPS port with a redirect to
/// the same address over HTTPS (`308`, so a method and body are kept), or
/// `400` when its request line or `Host` cannot make one.
async fn redirect_to_https(tcp: &mut TcpStream) -> io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
        match tcp.read(&mut buf).await? {
            0 => break,
            n => head.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&head);
    let target = text
        .lines()
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .filter(|p| p.starts_with('/') && p.bytes().all(|b| b.is_ascii_graphic()));
    let host = text
        .lines()
        .skip(1)
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case("host").then(|| v.trim())
        })
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        });
    let (mut answer, body) = match (host, target) {
        (Some(h), Some(t)) => (
            format!("HTTP/1.1 308 Permanent Redirect\r\nLocation: https://{h}{t}\r\n"),
            "",
        ),
        _ => (
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n".to_string(),
            "this server speaks HTTPS: use an https:// address\n",
        ),
    };
    answer.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n",
        body.len()
    ));
    for (k, v) in crate::headers::SECURITY_HEADERS {
        answer.push_str(&format!("{k}: {v}\r\n"));
    }
    answer.push_str("\r\n");
    answer.push_str(body);
    tcp.write_all(answer.as_bytes()).await?;
    tcp.shutdown().await
}

/// Serves `router` on `listener` until `stop` becomes true; then stops
/// accepting, asks every open connection to close once its request in
/// flight is answered, and waits for them all.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    metrics: Arc<Metrics>,
    mut stop: watch::Receiver<bool>,
    tls: Option<tokio_rustls::TlsAcceptor>,
    feed_defer: Duration,
) {
    let registry = Arc::new(Registry {
        open: Mutex::default(),
        limits: limits.clone(),
        metrics: metrics.clone(),
    });
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    // Every connection task holds a sender: when the last one ends, the
    // channel closes.
    let (alive, mut ended) = tokio::sync::mpsc::channel::<()>(1);
    // Only plain connections can be handed to other threads before their
    // first request is read; a TLS connection is served where it was
    // accepted.
    let followers = if tls.is_none() && limits.followers_apart {
        Followers::start().map(Arc::new)
    } else {
        None
    };
    loop {
        if *stop.borrow() {
            break;
        }
        let (tcp, peer) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
            _ = stop.changed() => break,
        };
        let client = client_of(peer.ip());
        let conn = match registry.admit(client) {
            Ok(c) => c,
            Err(r) => {
                let counter = match r {
                    Refusal::PerClient => &metrics.fences.refused_connections_per_client,
                    Refusal::Full => &metrics.fences.refused_connections_full,
                };
                counter.fetch_add(1, Ordering::Relaxed);
                match (refusing.clone().try_acquire_owned(), &tls) {
                    (Ok(permit), None) => {
                        tokio::spawn(async move {
                            refuse(tcp, r).await;
                            drop(permit);
                        });
                    }
                    // A TLS client reads the same answer once the
                    // handshake is done: it is bounded like a request head
                    // and counted among the refusals being answered.
                    (Ok(permit), Some(acceptor)) => {
                        let acceptor = acceptor.clone();
                        let limit = limits.header_read_timeout;
                        tokio::spawn(async move {
                            if let Ok(Ok(stream)) =
                                tokio::time::timeout(limit, acceptor.accept(tcp)).await
                            {
                                refuse(stream, r).await;
                            }
                            drop(permit);
                        });
                    }
                    (Err(_), None) => {
                        let _ = tcp.try_write(&refusal_bytes(r));
                    }
                    // Too many refusals at once to shake hands for each:
                    // closed.
                    (Err(_), Some(_)) => drop(tcp),
                }
                continue;
            }
        };
        // Nagle's algorithm stays on, as axum's own server leaves it: with
        // TCP_NODELAY, an early answer (413 to an oversized body) and the
        // close that follows it raced the client's write more often, and
        // the client saw a reset instead of the answer.
        let stall = Arc::new(Stall {
            base: Instant::now(),
            since: AtomicU64::new(0),
        });
        let io = Watched {
            inner: tcp,
            stall: stall.clone(),
            appends_first: None,
        };
        let router = router.clone();
        let builder = builder.clone();
        let stop = stop.clone();
        let registry = registry.clone();
        let metrics = metrics.clone();
        let stall_limit = limits.write_stall_timeout;
        let handshake_limit = limits.header_read_timeout;
        let alive = alive.clone();
        let tls = tls.clone();
        let followers = followers.clone();
        tokio::spawn(async move {
            let _alive = alive;
            let mut watching = stop.clone();
            let one = One {
                router,
                builder,
                conn: conn.clone(),
                stop,
                stall,
                stall_limit,
                metrics: metrics.clone(),
            };
            match (tls, followers) {
                (None, None) => one.serve(io).await,
                (None, Some(followers)) => {
                    match place(&io.inner, &conn, &mut watching, handshake_limit).await {
                        Place::Here => one.serve(io).await,
                        Place::Close => {}
                        Place::Followers => {
                            let Watched { inner, stall, .. } = io;
                            let appends_first = Some((metrics.clone(), feed_defer));
                            // Moved to the followers' own event loop (their
                            // threads wait on it, not the appends').
                            if let Ok(std) = inner.into_std() {
                                let gauge = &metrics.fences.follower_connections;
                                gauge.fetch_add(1, Ordering::Relaxed);
                                let _ = followers
                                    .handle
                                    .spawn(async move {
                                        if let Ok(inner) = TcpStream::from_std(std) {
                                            one.serve(Watched {
                                                inner,
                                                stall,
                                                appends_first,
                                            })
                                            .await;
                                        }
                                    })
                                    .await;
                                gauge.fetch_sub(1, Ordering::Relaxed);
                            }
                        }
                    }
                }
                (Some(acceptor), _) => {
                    // The handshake is bounded like a request head.
                    let mut io = io;
                    if !starts_with_tls(&io.inner, handshake_limit).await {
                        // Plain HTTP on the HTTPS port (a tablet's address
                        // typed as http://): sent to the https:// address.
                        let _ =
                            tokio::time::timeout(handshake_limit, redirect_to_https(&mut io.inner))
                                .await;
                        registry.release(&conn);
                        return;
                    }
                    match tokio::time::timeout(handshake_limit, acceptor.accept(io)).await {
                        Ok(Ok(stream)) => one.serve(stream).await,
                        Ok(Err(_)) | Err(_) => {
                            metrics.fences.tls_failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            }
            registry.release(&conn);
        });
    }
    drop(listener);
    drop(alive);
    let _ = ended.recv().await;
    drop(followers);
}

/// Raises this process's limit on open files to the most the system
/// allows it (each connection is one), and gives the limit now in force.
/// A server holding thousands of connections needs more than the usual
/// default of 1024.
pub fn raise_open_files_limit() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let now = getrlimit(Resource::Nofile);
    let below = match (now.current, now.maximum) {
        (Some(c), Some(m)) => c < m,
        (Some(_), None) => true,
        (None, _) => false,
    };
    if below {
        let want = Rlimit {
            current: now.maximum,
            maximum: now.maximum,
        };
        if setrlimit(Resource::Nofile, want).is_ok() {
            return now.maximum;
        }
    }
    now.current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_venues_whole_feed_goes_to_the_followers_threads() {
        for (first, whole) in [
            (&b"GET /feed/stream HTTP/1.1\r\nHost: k\r\n\r\n"[..], true),
            (b"GET /feed/stream?after=12&form=compact HTTP/1.1\r\n", true),
            (b"GET /feed/stream?after=1", true),
            (b"GET /feed/stream?game=abcd HTTP/1.1\r\n", false),
            (b"GET /feed/stream?after=3&game=ab HTTP/1.1\r\n", false),
            (b"GET /feed/streams HTTP/1.1\r\n", false),
            (b"GET /feed HTTP/1.1\r\n", false),
            (b"POST /feed/stream HTTP/1.1\r\n", false),
            (
                b"GET /games/ab/state HTTP/1.1\r\nX: /feed/stream\r\n",
                false,
            ),
            (b"", false),
        ] {
            assert_eq!(
                follows_the_venue(first),
                whole,
                "{}",
                String::from_utf8_lossy(first)
            );
        }
    }

    #[test]
    fn ipv6_clients_are_grouped_by_their_64_and_mapped_v4_is_v4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_of(a), client_of(b));
        assert_ne!(client_of(a), client_of(c));
        let m: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(client_of(m), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_refusal_is_a_whole_http_answer_with_retry_after() {
        let b = refusal_bytes(Refusal::PerClient);
        let t = String::from_utf8(b).unwrap();
        assert!(t.starts_with("HTTP/1.1 429 Too Many Requests\r\n"), "{t}");
        assert!(t.contains("\r\nRetry-After: "), "{t}");
        assert!(t.contains("\r\nConnection: close\r\n"), "{t}");
        let (head, body) = t.split_once("\r\n\r\n").unwrap();
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(len, body.len());
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "too_many_connections");
        let f = String::from_utf8(refusal_bytes(Refusal::Full)).unwrap();
        assert!(f.starts_with("HTTP/1.1 503 "), "{f}");
    }
}
