//! Accepting connections: a bound on how many are open at once, and a
//! deadline for a request's headers.
//!
//! A client that opens a connection and sends nothing, or dribbles a header
//! a byte at a time, is disconnected once [`ConnLimits::header_read_timeout`]
//! has passed without a whole request head; the same deadline closes a
//! keep-alive connection left idle between requests (hyper arms it whenever
//! it waits for a request head). At most [`ConnLimits::max_connections`]
//! connections are served at once: past that the server stops accepting,
//! and new connections wait in the kernel's listen queue until one closes.
//! A feed follower holds one connection for as long as it follows.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// Limits on connections (as opposed to [`crate::Limits`], on requests).
#[derive(Debug, Clone)]
pub struct ConnLimits {
    /// Connections served at once; more wait to be accepted.
    pub max_connections: usize,
    /// Longest wait for a whole request head (request line and headers),
    /// counted from when the server starts waiting for it: on a new
    /// connection, and between requests on a kept-alive one.
    pub header_read_timeout: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_connections: 4096,
            header_read_timeout: Duration::from_secs(10),
        }
    }
}

/// How long accepting pauses after the system refuses a connection (out of
/// file descriptors, for example), so that the loop does not spin.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Serves `router` on `listener` until `stop` becomes true; then stops
/// accepting, asks every open connection to close once its request in
/// flight is answered, and waits for them all.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    mut stop: watch::Receiver<bool>,
) {
    let max =
        u32::try_from(limits.max_connections.clamp(1, Semaphore::MAX_PERMITS)).unwrap_or(u32::MAX);
    let slots = Arc::new(Semaphore::new(max as usize));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    loop {
        if *stop.borrow() {
            break;
        }
        // A free slot first, then a connection: over the bound, connections
        // wait in the listen queue rather than in the server's memory.
        let slot = tokio::select! {
            s = slots.clone().acquire_owned() => match s {
                Ok(s) => s,
                Err(_) => break,
            },
            _ = stop.changed() => break,
        };
        let (tcp, _) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(_) => {
                    drop(slot);
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
            _ = stop.changed() => break,
        };
        // Nagle's algorithm stays on, as axum's own server leaves it: with
        // TCP_NODELAY, an early answer (413 to an oversized body) and the
        // close that follows it raced the client's write more often, and
        // the client saw a reset instead of the answer.
        let service = TowerToHyperService::new(router.clone());
        let conn = builder.serve_connection(TokioIo::new(tcp), service);
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            let stopping = async move {
                let _ = stop.wait_for(|s| *s).await;
            };
            let close = tokio::select! {
                _ = conn.as_mut() => false,
                _ = stopping => true,
            };
            if close {
                conn.as_mut().graceful_shutdown();
                let _ = conn.await;
            }
            drop(slot);
        });
    }
    drop(listener);
    // Every slot back: every connection has ended.
    let _ = slots.acquire_many(max).await;
}
