//! The kifu feed on NATS JetStream.
//!
//! One kifu server holds its venue's games in sled; this crate carries them
//! beyond it. A **publisher** follows the store's global feed and publishes
//! every durable record to a JetStream stream (subject scheme in
//! [`subject`]); a **consumer** reads the stream and verifies each record with
//! kifu-ledger's checks as it arrives; a **mirror** writes the stream, from
//! every venue publishing into it, into its own store.
//!
//! The one decision a reader must know: **the local store stays the source of
//! truth.** The publisher keeps in the store the first feed cursor JetStream
//! has not acknowledged and starts from there; NATS being away delays
//! publication and never blocks or slows an append beyond a shared sync.
#![deny(missing_docs)]

pub mod consumer;
pub mod mirror;
pub mod publisher;
pub mod subject;
pub mod verify;

use std::time::Duration;

pub use consumer::{ConsumerConfig, Delivered, FeedConsumer, Filter, Start};
pub use mirror::{run_mirror, MirrorConfig, MirrorStatus};
pub use publisher::{
    ensure_stream, published_up_to, run_publisher, run_publisher_with_status, PublisherConfig,
    PublisherStatus,
};

/// The stream name used when none is given.
pub const DEFAULT_STREAM: &str = "KIFU";

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum NatsError {
    /// The NATS client or server reported an error.
    #[error("NATS: {0}")]
    Nats(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] kifu_store::StoreError),
    /// A record could not be read.
    #[error(transparent)]
    Ledger(#[from] kifu_ledger::LedgerError),
    /// The stream exists with a configuration kifu can not use.
    #[error("stream {stream}: {what}")]
    StreamConfig {
        /// Stream name.
        stream: String,
        /// What is wrong.
        what: String,
    },
    /// A message in the stream is not a record that verifies.
    #[error("stream message {stream_seq}: {what}")]
    BadMessage {
        /// Its stream sequence number.
        stream_seq: u64,
        /// What is wrong.
        what: String,
    },
    /// Something kifu wrote is damaged.
    #[error("damaged: {0}")]
    Damaged(String),
}

/// The failures a long-running task waits out: how many there were, and the
/// last one while it lasts.
#[derive(Debug, Default)]
pub struct Failures {
    count: std::sync::atomic::AtomicU64,
    last: std::sync::Mutex<Option<String>>,
}

impl Failures {
    pub(crate) fn fail(&self, e: &NatsError) {
        self.count
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut l) = self.last.lock() {
            *l = Some(e.to_string());
        }
    }

    pub(crate) fn clear(&self) {
        if let Ok(mut l) = self.last.lock() {
            *l = None;
        }
    }

    /// How many failures there have been.
    pub fn count(&self) -> u64 {
        self.count.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The last failure, if the task is failing now.
    pub fn now(&self) -> Option<String> {
        self.last.lock().ok().and_then(|l| l.clone())
    }
}

pub(crate) fn nats_error(e: impl std::fmt::Display) -> NatsError {
    NatsError::Nats(e.to_string())
}

/// Connects to NATS; when no server answers yet, the client keeps trying in
/// the background (and reconnects after every loss), so callers simply see
/// their requests time out until NATS is back.
pub async fn connect(url: &str, name: &str) -> Result<async_nats::Client, NatsError> {
    let servers = url
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<async_nats::ServerAddr>()
                .map_err(|e| NatsError::Nats(format!("{s}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if servers.is_empty() {
        return Err(NatsError::Nats("no NATS server URL given".into()));
    }
    async_nats::ConnectOptions::new()
        .name(name)
        .retry_on_initial_connect()
        .connection_timeout(Duration::from_secs(2))
        .reconnect_delay_callback(|attempts| {
            Duration::from_millis((100 * attempts as u64).min(1000))
        })
        .connect(servers)
        .await
        .map_err(|e| NatsError::Nats(format!("{url}: {e}")))
}
