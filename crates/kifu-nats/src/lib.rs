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
mod said;
pub mod subject;
pub mod verify;

use std::time::Duration;

pub use consumer::{ConsumerConfig, Delivered, FeedConsumer, Filter, Start};
pub use mirror::{run_mirror, MirrorConfig, MirrorStatus};
pub use publisher::{
    ensure_stream, published_up_to, run_publisher, run_publisher_with_status, PublisherConfig,
    PublisherStatus,
};
pub use said::Said;

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
    /// The stream does not exist (waiting will not make it).
    #[error("stream {0} not found")]
    NoStream(String),
}

impl NatsError {
    /// True for a failure that can pass: NATS away, a leader being
    /// elected, a node lost, a request timed out.
    pub fn is_transient(&self) -> bool {
        matches!(self, NatsError::Nats(_))
    }
}

/// A bounded retry: at most `attempts` tries, pausing `first`, then twice
/// as long each time, never more than `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Tries in all (the first included).
    pub attempts: u32,
    /// The pause after the first failure.
    pub first: Duration,
    /// The longest pause.
    pub max: Duration,
}

impl Backoff {
    /// What a reader of the stream waits out: about a minute of a cluster
    /// electing leaders or a node lost (8 tries, pauses 0.25 s to 4 s).
    pub const READER: Backoff = Backoff {
        attempts: 8,
        first: Duration::from_millis(250),
        max: Duration::from_secs(4),
    };

    /// The pause after failed try number `attempt` (1-based).
    pub fn pause(&self, attempt: u32) -> Duration {
        let doubled = self
            .first
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
        doubled.min(self.max)
    }
}

/// One failed try that is tried again.
#[derive(Debug)]
pub struct Retry<'a> {
    /// What was being done ("creating the consumer").
    pub what: &'a str,
    /// The try that failed (1-based).
    pub attempt: u32,
    /// Tries in all.
    pub attempts: u32,
    /// The pause before the next.
    pub pause: Duration,
    /// Why it failed.
    pub error: &'a NatsError,
}

impl std::fmt::Display for Retry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} failed (try {} of {}), retrying in {:.2} s: {}",
            self.what,
            self.attempt,
            self.attempts,
            self.pause.as_secs_f64(),
            self.error
        )
    }
}

/// Hears of every retry (to print it, to count it).
pub type OnRetry = std::sync::Arc<dyn Fn(&Retry<'_>) + Send + Sync>;

/// Runs `f` until it succeeds, or fails with a failure that is not
/// transient, or `backoff.attempts` tries have failed; each try is bounded
/// by `per_try`, and each failure that is tried again is told to `on_retry`.
pub async fn retrying<T, F, Fut>(
    what: &str,
    backoff: Backoff,
    per_try: Duration,
    on_retry: &(dyn Fn(&Retry<'_>) + Send + Sync),
    mut f: F,
) -> Result<T, NatsError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, NatsError>>,
{
    let attempts = backoff.attempts.max(1);
    let mut attempt = 1;
    loop {
        let result = match tokio::time::timeout(per_try, f()).await {
            Ok(r) => r,
            Err(_) => Err(NatsError::Nats(format!(
                "no answer within {:.1} s",
                per_try.as_secs_f64()
            ))),
        };
        match result {
            Ok(v) => return Ok(v),
            Err(e) if e.is_transient() && attempt < attempts => {
                let pause = backoff.pause(attempt);
                on_retry(&Retry {
                    what,
                    attempt,
                    attempts,
                    pause,
                    error: &e,
                });
                tokio::time::sleep(pause).await;
                attempt += 1;
            }
            Err(NatsError::Nats(m)) if attempt > 1 => {
                return Err(NatsError::Nats(format!(
                    "{what}: gave up after {attempt} tries: {m}"
                )))
            }
            Err(e) => return Err(e),
        }
    }
}

/// The stream `name`: [`NatsError::NoStream`] when the server says there is
/// none, a transient failure for anything else.
pub async fn get_stream(
    js: &async_nats::jetstream::Context,
    name: &str,
) -> Result<async_nats::jetstream::stream::Stream, NatsError> {
    use async_nats::jetstream::context::GetStreamErrorKind;
    match js.get_stream(name).await {
        Ok(s) => Ok(s),
        Err(e) => match e.kind() {
            GetStreamErrorKind::JetStream(j)
                if j.error_code() == async_nats::jetstream::ErrorCode::STREAM_NOT_FOUND =>
            {
                Err(NatsError::NoStream(name.to_string()))
            }
            _ => Err(NatsError::Nats(format!("stream {name}: {e}"))),
        },
    }
}

/// The failures a long-running task waits out: how many there were, and the
/// last one while it lasts.
#[derive(Debug, Default)]
pub struct Failures {
    count: std::sync::atomic::AtomicU64,
    last: std::sync::Mutex<Option<String>>,
}

impl Failures {
    /// Counts a failure and keeps it as the current one.
    pub fn fail(&self, e: &NatsError) {
        self.count
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut l) = self.last.lock() {
            *l = Some(e.to_string());
        }
    }

    /// The task works again: no current failure (the count stays).
    pub fn clear(&self) {
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

/// What a stream holds and where, as its leader answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamState {
    /// Messages in the stream.
    pub messages: u64,
    /// Its replicas.
    pub replicas: usize,
    /// The name of the node leading it (`None` outside a cluster, or while
    /// a leader is elected).
    pub leader: Option<String>,
}

/// The state of stream `name` at the NATS server(s) `url` (one request,
/// bounded by the JetStream request timeout).
pub async fn stream_state(url: &str, name: &str) -> Result<StreamState, NatsError> {
    let client = connect(url, "kifu-stream-state").await?;
    let js = async_nats::jetstream::new(client);
    let mut stream = get_stream(&js, name).await?;
    let info = stream.info().await.map_err(nats_error)?;
    Ok(StreamState {
        messages: info.state.messages,
        replicas: info.config.num_replicas,
        leader: info.cluster.as_ref().and_then(|c| c.leader.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Mutex;

    #[test]
    fn pauses_double_up_to_the_longest() {
        let b = Backoff::READER;
        let pauses: Vec<u64> = (1..=7).map(|a| b.pause(a).as_millis() as u64).collect();
        assert_eq!(pauses, [250, 500, 1000, 2000, 4000, 4000, 4000]);
        assert_eq!(b.pause(1_000), b.max);
    }

    fn quick(attempts: u32) -> Backoff {
        Backoff {
            attempts,
            first: Duration::from_millis(1),
            max: Duration::from_millis(2),
        }
    }

    #[tokio::test]
    async fn a_failure_that_can_pass_is_tried_again_and_each_retry_told() {
        let told = Mutex::new(Vec::new());
        let tries = AtomicU32::new(0);
        let r = retrying(
            "reading",
            quick(5),
            Duration::from_secs(5),
            &|r: &Retry<'_>| told.lock().unwrap().push((r.attempt, r.to_string())),
            || async {
                match tries.fetch_add(1, Ordering::SeqCst) {
                    0 | 1 => Err(NatsError::Nats("timed out".into())),
                    _ => Ok(7),
                }
            },
        )
        .await;
        assert_eq!(r.unwrap(), 7);
        let told = told.into_inner().unwrap();
        assert_eq!(told.len(), 2);
        assert_eq!(told[0].0, 1);
        assert!(
            told[1]
                .1
                .starts_with("reading failed (try 2 of 5), retrying in"),
            "{}",
            told[1].1
        );
        assert!(told[1].1.ends_with("NATS: timed out"));
    }

    #[tokio::test]
    async fn tries_are_bounded_and_a_lasting_failure_is_not_tried_again() {
        let tries = AtomicU32::new(0);
        let r: Result<(), _> = retrying(
            "creating",
            quick(3),
            Duration::from_secs(5),
            &|_| {},
            || {
                tries.fetch_add(1, Ordering::SeqCst);
                async { Err(NatsError::Nats("timed out".into())) }
            },
        )
        .await;
        assert_eq!(tries.load(Ordering::SeqCst), 3);
        let e = r.unwrap_err().to_string();
        assert!(e.contains("gave up after 3 tries"), "{e}");

        let tries = AtomicU32::new(0);
        let r: Result<(), _> = retrying(
            "creating",
            quick(3),
            Duration::from_secs(5),
            &|_| {},
            || {
                tries.fetch_add(1, Ordering::SeqCst);
                async { Err(NatsError::NoStream("KIFU".into())) }
            },
        )
        .await;
        assert_eq!(tries.load(Ordering::SeqCst), 1);
        assert_eq!(r.unwrap_err().to_string(), "stream KIFU not found");
    }

    #[tokio::test]
    async fn a_try_that_does_not_answer_is_cut_short() {
        let tries = AtomicU32::new(0);
        let r: Result<(), _> = retrying(
            "creating",
            quick(2),
            Duration::from_millis(20),
            &|_| {},
            || {
                tries.fetch_add(1, Ordering::SeqCst);
                std::future::pending()
            },
        )
        .await;
        assert_eq!(tries.load(Ordering::SeqCst), 2);
        assert!(r.unwrap_err().to_string().contains("no answer within"));
    }
}
