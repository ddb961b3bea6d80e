//! Budgets per kind of request, so that readers can never starve writers.
//!
//! Every request is one of three kinds, each with a budget of its own:
//!
//! - **streams**: answers held open (`GET /feed/stream`, and `GET /feed`
//!   with `wait`): at most [`Limits::max_streams`] in all and
//!   [`Limits::max_streams_per_client`] per client, held for as long as the
//!   stream lasts;
//! - **writes**: every request that is not `GET` or `HEAD` (appends,
//!   checkpoints): at most [`Limits::max_writes`] in flight;
//! - **reads**: everything else, at most [`Limits::max_reads`] in flight.
//!
//! A request over its budget is answered at once, never queued: `429 Too
//! Many Requests` when it is the client's own share that is spent, `503
//! Service Unavailable` when the server's is, both with `Retry-After`. A
//! refused stream follower resumes later with `Last-Event-ID` and misses
//! nothing.
//!
//! Request bodies are bounded before they are read: a declared
//! `Content-Length` over [`Limits::max_body_bytes`] is answered `413` at
//! once; a body must arrive whole within [`Limits::body_timeout`] (else
//! `408`, and the connection is closed), and no more than the limit is ever
//! read. A body is received **before** the request takes its read or write
//! place, under a budget of its own: at most [`Limits::max_bodies`] in all
//! and [`Limits::max_bodies_per_client`] per client. A client that promises
//! a body and never sends it holds only one of its own few body places; the
//! places a board's append needs stay free.
//!
//! [`Limits::max_streams`]: crate::Limits::max_streams
//! [`Limits::max_streams_per_client`]: crate::Limits::max_streams_per_client
//! [`Limits::max_writes`]: crate::Limits::max_writes
//! [`Limits::max_reads`]: crate::Limits::max_reads
//! [`Limits::max_body_bytes`]: crate::Limits::max_body_bytes
//! [`Limits::body_timeout`]: crate::Limits::body_timeout
//! [`Limits::max_bodies`]: crate::Limits::max_bodies
//! [`Limits::max_bodies_per_client`]: crate::Limits::max_bodies_per_client

use std::collections::HashMap;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::conn::Client;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::{App, Limits};

/// `Retry-After` (seconds) when a client's own share is spent.
pub const RETRY_PER_CLIENT_S: u32 = 5;
/// How long the body of a request refused for its declared size is read
/// and dropped after the answer, so that the client reads the answer.
const LINGER: std::time::Duration = std::time::Duration::from_secs(2);

/// `Retry-After` (seconds) when the server's budget is spent.
pub const RETRY_FULL_S: u32 = 2;

/// A response body that holds `G` (a permit, a busy mark) until the body
/// has been sent or dropped.
pub(crate) struct Guarded<G> {
    inner: Body,
    _guard: G,
}

impl<G> Guarded<G> {
    pub(crate) fn new(inner: Body, guard: G) -> Guarded<G> {
        Guarded {
            inner,
            _guard: guard,
        }
    }
}

impl<G: Unpin> http_body::Body for Guarded<G> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Streams held, per client.
type PerClient = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// The budgets' state: the semaphores of reads and writes, and the two
/// budgets shared out per client (streams, bodies).
pub struct Budgets {
    streams: Shared,
    bodies: Shared,
    reads: Arc<Semaphore>,
    writes: Arc<Semaphore>,
}

/// A budget with a share per client: a semaphore for the whole server and
/// the places each client holds.
struct Shared {
    all: Arc<Semaphore>,
    per_client: PerClient,
    max_per_client: usize,
}

/// Which of the budgets shared per client.
#[derive(Clone, Copy)]
enum SharedKind {
    Streams,
    Bodies,
}

fn semaphore(v: usize) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(v.clamp(1, Semaphore::MAX_PERMITS)))
}

impl Budgets {
    /// Budgets as `limits` sets them.
    pub fn new(limits: &Limits) -> Budgets {
        let shared = |all: usize, per_client: usize| Shared {
            all: semaphore(all),
            per_client: Arc::default(),
            max_per_client: per_client.max(1),
        };
        Budgets {
            streams: shared(limits.max_streams, limits.max_streams_per_client),
            bodies: shared(limits.max_bodies, limits.max_bodies_per_client),
            reads: semaphore(limits.max_reads),
            writes: semaphore(limits.max_writes),
        }
    }
}

impl Budgets {
    /// Takes a stream's or a body's place for `client`, or the answer
    /// refusing it.
    fn slot(
        &self,
        which: SharedKind,
        client: Option<IpAddr>,
        m: &Arc<Metrics>,
    ) -> Result<ClientSlot, Box<Response>> {
        let f = &m.fences;
        let (budget, per_client_refused, full_refused) = match which {
            SharedKind::Streams => (
                &self.streams,
                &f.refused_streams_per_client,
                &f.refused_streams_full,
            ),
            SharedKind::Bodies => (
                &self.bodies,
                &f.refused_bodies_per_client,
                &f.refused_bodies_full,
            ),
        };
        // The client's share is checked and taken under one lock, so
        // that two requests of one client cannot both take the last one.
        let mut map = budget.per_client.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(ip) = client {
            if map.get(&ip).copied().unwrap_or(0) >= budget.max_per_client {
                drop(map);
                per_client_refused.fetch_add(1, Ordering::Relaxed);
                let n = budget.max_per_client;
                return Err(Box::new(match which {
                    SharedKind::Streams => refused(
                        StatusCode::TOO_MANY_REQUESTS,
                        "too_many_streams",
                        RETRY_PER_CLIENT_S,
                        format!("this address follows {n} streams already, the most one client may; retry later with Last-Event-ID to resume"),
                    ),
                    SharedKind::Bodies => refused(
                        StatusCode::TOO_MANY_REQUESTS,
                        "too_many_bodies",
                        RETRY_PER_CLIENT_S,
                        format!("this address is sending {n} request bodies already, the most one client may at once; retry when one has arrived"),
                    ),
                }));
            }
        }
        let permit = match budget.all.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                drop(map);
                full_refused.fetch_add(1, Ordering::Relaxed);
                return Err(Box::new(match which {
                    SharedKind::Streams => refused(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "streams_full",
                        RETRY_FULL_S,
                        "the server follows as many streams as it serves at once; retry later with Last-Event-ID to resume".into(),
                    ),
                    SharedKind::Bodies => refused(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "busy",
                        RETRY_FULL_S,
                        "the server is receiving as many request bodies as it takes at once; retry later".into(),
                    ),
                }));
            }
        };
        let mine = client.map(|ip| {
            *map.entry(ip).or_insert(0) += 1;
            (ip, budget.per_client.clone())
        });
        drop(map);
        let gauge = match which {
            SharedKind::Streams => "streams",
            SharedKind::Bodies => "bodies",
        };
        let slot = ClientSlot {
            _permit: permit,
            client: mine,
            gauge,
            metrics: m.clone(),
        };
        slot.gauge().fetch_add(1, Ordering::Relaxed);
        Ok(slot)
    }
}

/// A stream's or a body's place: its share of the global and of its
/// client's budget, and its gauge.
struct ClientSlot {
    _permit: OwnedSemaphorePermit,
    client: Option<(IpAddr, PerClient)>,
    gauge: &'static str,
    metrics: Arc<Metrics>,
}

impl ClientSlot {
    fn gauge(&self) -> &AtomicU64 {
        match self.gauge {
            "bodies" => &self.metrics.fences.bodies,
            _ => &self.metrics.fences.streams,
        }
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        self.gauge().fetch_sub(1, Ordering::Relaxed);
        if let Some((ip, map)) = &self.client {
            let mut m = map.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(n) = m.get_mut(ip) {
                *n -= 1;
                if *n == 0 {
                    m.remove(ip);
                }
            }
        }
    }
}

/// A read or write in flight: the permit and its gauge.
struct InFlight {
    _permit: OwnedSemaphorePermit,
    gauge: &'static str,
    metrics: Arc<Metrics>,
}

impl InFlight {
    fn gauge(&self) -> &AtomicU64 {
        match self.gauge {
            "writes" => &self.metrics.fences.writes,
            _ => &self.metrics.fences.reads,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let before = self.gauge().fetch_sub(1, Ordering::SeqCst);
        if self.gauge == "writes" && before == 1 {
            // The last write answered: followers held back for it go on.
            self.metrics.fences.writers_idle.notify_waiters();
            self.metrics.fences.appends_first.done();
        }
    }
}

/// The kind of a request, by its method and path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An answer held open: the SSE feed, a long-poll.
    Stream,
    /// A request that changes something.
    Write,
    /// Any other.
    Read,
}

/// Which budget `req` draws on. A route that holds its answer open must be
/// named here.
pub fn kind(method: &Method, path: &str, query: Option<&str>) -> Kind {
    if method != Method::GET && method != Method::HEAD {
        // A draft previewed is projected and answered, nothing is stored:
        // a read, which no crowd of previews can turn into a writer's
        // place.
        if method == Method::POST && is_preview(path) {
            return Kind::Read;
        }
        return Kind::Write;
    }
    if path == "/feed/stream" || is_tournament_events(path) {
        return Kind::Stream;
    }
    if path == "/feed" {
        // Read as the handler reads it: decoded (`wait=%36%30` is a wait of
        // 60 s). Any `wait` that is not a plain zero holds the answer open.
        let waits = form_urlencoded::parse(query.unwrap_or("").as_bytes())
            .any(|(k, v)| k == "wait" && !v.trim().parse::<f64>().is_ok_and(|w| w == 0.0));
        if waits {
            return Kind::Stream;
        }
    }
    Kind::Read
}

/// `/games/{id}/preview`.
fn is_preview(path: &str) -> bool {
    path.strip_prefix("/games/")
        .and_then(|r| r.strip_suffix("/preview"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// `/tournaments/{t}/events`, the hall's Server-Sent Events.
fn is_tournament_events(path: &str) -> bool {
    path.strip_prefix("/tournaments/")
        .and_then(|r| r.strip_suffix("/events"))
        .is_some_and(|t| !t.is_empty() && !t.contains('/'))
}

fn refused(status: StatusCode, code: &'static str, retry: u32, message: String) -> Response {
    let mut r = ApiError::new(status, code, message).into_response();
    if let Ok(v) = HeaderValue::from_str(&retry.to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

/// A response whose connection is closed after it is sent.
fn closing(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

/// The declared length of a request's body, if any.
fn declared_length(req: &Request) -> Option<u64> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// Reads a request's body whole, within the limit and the deadline, so that
/// the handler gets it in memory; or the answer that refuses it.
async fn bounded_body(
    req: Request,
    limits: &Limits,
    metrics: &Metrics,
) -> Result<Request, Response> {
    let max = limits.max_body_bytes;
    let declared = declared_length(&req);
    let chunked = req.headers().contains_key(header::TRANSFER_ENCODING);
    if declared.unwrap_or(0) == 0 && !chunked {
        return Ok(req);
    }
    if declared.is_some_and(|n| n > max as u64) {
        metrics
            .fences
            .body_too_large
            .fetch_add(1, Ordering::Relaxed);
        let message = format!(
            "the body is declared as {} bytes; the most this server reads is {max} bytes",
            declared.unwrap_or(0)
        );
        // Answered now; what the client is already sending is read and
        // dropped for a moment (at most the limit, at most a few seconds),
        // so that it reads the answer rather than a reset.
        let body = req.into_body();
        tokio::spawn(async move {
            let drain = axum::body::to_bytes(body, max);
            let _ = tokio::time::timeout(LINGER, drain).await;
        });
        return Err(closing(
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", message).into_response(),
        ));
    }
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(limits.body_timeout, axum::body::to_bytes(body, max)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Ok(Err(e)) => {
            // Over the limit (a chunked body), or the client went away.
            metrics
                .fences
                .body_too_large
                .fetch_add(1, Ordering::Relaxed);
            Err(closing(
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    format!("the body could not be read within {max} bytes: {e}"),
                )
                .into_response(),
            ))
        }
        Err(_) => {
            metrics.fences.body_timeout.fetch_add(1, Ordering::Relaxed);
            Err(closing(
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "body_timeout",
                    format!(
                        "the body did not arrive within {} s",
                        limits.body_timeout.as_secs_f64()
                    ),
                )
                .into_response(),
            ))
        }
    }
}

/// The middleware: draws each request on its budget, or refuses it at
/// once; bounds its body. A body is received whole, under the body budget,
/// before the request takes a read or write place.
pub async fn fence(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let client = req.extensions().get::<Client>().map(|c| c.0);
    let kind = kind(req.method(), req.uri().path(), req.uri().query());
    let b = &app.budgets;
    let m = &app.metrics;
    if let (Kind::Write, Some(replica)) = (kind, &app.replica) {
        // Refused before its body is read: nothing is written here.
        m.fences.refused_replica.fetch_add(1, Ordering::Relaxed);
        let r = replica.refusal();
        if !has_body(&req) {
            return r;
        }
        // What the client is already sending is read and dropped for a
        // moment, so that it reads the answer rather than a reset.
        let max = app.limits.max_body_bytes;
        let body = req.into_body();
        tokio::spawn(async move {
            let _ = tokio::time::timeout(LINGER, axum::body::to_bytes(body, max)).await;
        });
        return closing(r);
    }
    let req = if has_body(&req) {
        let receiving = match b.slot(SharedKind::Bodies, client, m) {
            Ok(s) => s,
            Err(refusal) => return *refusal,
        };
        let req = match bounded_body(req, &app.limits, m).await {
            Ok(r) => r,
            Err(refusal) => return refusal,
        };
        drop(receiving);
        req
    } else {
        req
    };
    match kind {
        Kind::Stream => {
            let slot = match b.slot(SharedKind::Streams, client, m) {
                Ok(s) => s,
                Err(refusal) => return *refusal,
            };
            let r = next.run(req).await;
            r.map(|body| Body::new(Guarded::new(body, slot)))
        }
        Kind::Write | Kind::Read => {
            let (sem, gauge, full) = if kind == Kind::Write {
                (&b.writes, "writes", &m.fences.refused_writes_full)
            } else {
                (&b.reads, "reads", &m.fences.refused_reads_full)
            };
            let permit = match sem.clone().try_acquire_owned() {
                Ok(p) => p,
                Err(_) => {
                    full.fetch_add(1, Ordering::Relaxed);
                    return refused(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "busy",
                        RETRY_FULL_S,
                        format!("the server is answering as many {gauge} as it serves at once; retry later"),
                    );
                }
            };
            let held = InFlight {
                _permit: permit,
                gauge,
                metrics: m.clone(),
            };
            held.gauge().fetch_add(1, Ordering::Relaxed);
            let r = next.run(req).await;
            r.map(|body| Body::new(Guarded::new(body, held)))
        }
    }
}

/// True when `req` declares a body to come (a length, or chunks).
fn has_body(req: &Request) -> bool {
    declared_length(req).unwrap_or(0) > 0 || req.headers().contains_key(header::TRANSFER_ENCODING)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_sorted_into_their_budgets() {
        let get = Method::GET;
        assert_eq!(kind(&get, "/feed/stream", None), Kind::Stream);
        assert_eq!(kind(&get, "/feed", Some("after=3&wait=10")), Kind::Stream);
        assert_eq!(kind(&get, "/feed", Some("wait=0")), Kind::Read);
        assert_eq!(kind(&get, "/feed", Some("after=3")), Kind::Read);
        // Percent-encoded, and spelled in other ways the handler reads.
        assert_eq!(kind(&get, "/feed", Some("wait=%36%30")), Kind::Stream);
        assert_eq!(kind(&get, "/feed", Some("%77ait=60")), Kind::Stream);
        assert_eq!(kind(&get, "/feed", Some("wait=+60")), Kind::Stream);
        assert_eq!(kind(&get, "/feed", Some("wait=%30")), Kind::Read);
        assert_eq!(kind(&get, "/games", None), Kind::Read);
        assert_eq!(kind(&Method::HEAD, "/games", None), Kind::Read);
        assert_eq!(kind(&Method::POST, "/records", None), Kind::Write);
        assert_eq!(kind(&Method::POST, "/feed/stream", None), Kind::Write);
        assert_eq!(
            kind(&get, "/tournaments/open-2026/events", None),
            Kind::Stream
        );
        assert_eq!(
            kind(&get, "/tournaments/open-2026/standings", None),
            Kind::Read
        );
        assert_eq!(kind(&get, "/tournaments//events", None), Kind::Read);
        assert_eq!(kind(&Method::POST, "/games/ab12/preview", None), Kind::Read);
        assert_eq!(
            kind(&Method::POST, "/games/ab12/records", None),
            Kind::Write
        );
        assert_eq!(kind(&Method::POST, "/games/a/b/preview", None), Kind::Write);
    }
}
