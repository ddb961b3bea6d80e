//! Publishing the store's feed to a JetStream stream.
//!
//! The store is the source of truth. The publisher reads the feed in cursor
//! order from the first cursor NATS has not acknowledged (kept in the store
//! under [`progress_key`]), up to the store's durable cursor (what
//! acknowledged appends and syncs have put on stable storage), publishes it, and moves the kept cursor on only over records whose
//! publication JetStream acknowledged. When NATS is unreachable nothing
//! moves; appends go on locally and are published when it is back, in order,
//! nothing skipped. A record published again after a crash carries the same
//! `Nats-Msg-Id` (its hash), so the server drops the repeat inside its
//! duplicate window; consumers recognise repeats as well.
//!
//! Order: records of one game are never in flight together, so a failed
//! publication can not let a later record of the same game overtake it. Records
//! of different games are pipelined (see `publish_items`).

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::{self, context::PublishAckFuture, stream};
use async_nats::HeaderMap;
use kifu_ledger::Hash;
use kifu_store::{FeedItem, Store};

use crate::subject::{self, HEADER_CURSOR, HEADER_GAME, HEADER_KIND, HEADER_MSG_ID, HEADER_SEQ};
use crate::{connect, nats_error, Failures, NatsError};

/// How the publisher runs.
#[derive(Debug, Clone)]
pub struct PublisherConfig {
    /// NATS server URL(s), comma-separated (`nats://127.0.0.1:4222`).
    pub url: String,
    /// The JetStream stream (created when missing).
    pub stream: String,
    /// Replicas of the stream when it is created; an existing stream must
    /// have this many.
    pub replicas: usize,
    /// Records read from the feed and in flight at a time.
    pub batch: usize,
    /// How often to look for new records when there are none; with a
    /// `wake`, the longest wait between two looks.
    pub idle_poll: Duration,
    /// The store's writer telling that its durable cursor moved (`kifu
    /// serve` hands in the signal its feed follows): the publisher looks
    /// at once, instead of at its next poll. One signal for one fact: the
    /// feed and the publisher learn of a durable record the same way.
    pub wake: Option<tokio::sync::watch::Receiver<u64>>,
    /// How long to wait after a failed publication before trying again.
    pub retry_after: Duration,
    /// The stream's duplicate window (when it creates the stream).
    pub duplicate_window: Duration,
}

impl PublisherConfig {
    /// Defaults for `url`: stream `KIFU`, one replica.
    pub fn new(url: impl Into<String>) -> Self {
        PublisherConfig {
            url: url.into(),
            stream: crate::DEFAULT_STREAM.into(),
            replicas: 1,
            batch: 2048,
            idle_poll: Duration::from_millis(5),
            wake: None,
            retry_after: Duration::from_millis(500),
            duplicate_window: Duration::from_secs(120),
        }
    }
}

/// What the publisher has done, readable while it runs (for logs and
/// metrics).
#[derive(Debug)]
pub struct PublisherStatus {
    /// Records acknowledged by JetStream as new.
    pub published: AtomicU64,
    /// Records JetStream reported as duplicates (republished after a crash).
    pub duplicates: AtomicU64,
    /// The first cursor not yet acknowledged.
    pub next_cursor: AtomicU64,
    /// Failed publication rounds; the last one is cleared by the next success.
    pub failures: Failures,
    /// The cursor it resumed from (the first not acknowledged when it
    /// started), once it knows it; `u64::MAX` before.
    pub resumed_from: AtomicU64,
}

impl Default for PublisherStatus {
    fn default() -> Self {
        PublisherStatus::new()
    }
}

impl PublisherStatus {
    /// A status with nothing done yet.
    pub fn new() -> PublisherStatus {
        PublisherStatus {
            published: AtomicU64::new(0),
            duplicates: AtomicU64::new(0),
            next_cursor: AtomicU64::new(0),
            failures: Failures::default(),
            resumed_from: AtomicU64::new(u64::MAX),
        }
    }

    /// The cursor it resumed from, once it has read it from the store.
    pub fn resumed_from(&self) -> Option<u64> {
        match self.resumed_from.load(Ordering::Relaxed) {
            u64::MAX => None,
            c => Some(c),
        }
    }

    /// Records of `store` waiting to be published: stored and not yet
    /// acknowledged by the stream.
    pub fn backlog(&self, store: &Store) -> u64 {
        let next = self.next_cursor.load(Ordering::Relaxed);
        store.next_cursor().unwrap_or(next).saturating_sub(next)
    }

    /// The publisher's lines of a Prometheus text exposition.
    pub fn prometheus(&self, store: &Store) -> String {
        let failing = u8::from(self.failures.now().is_some());
        format!(
            "# HELP kifu_nats_backlog_records Records stored and not yet acknowledged by the NATS stream.\n\
             # TYPE kifu_nats_backlog_records gauge\n\
             kifu_nats_backlog_records {}\n\
             # HELP kifu_nats_next_cursor The first feed cursor the NATS stream has not acknowledged.\n\
             # TYPE kifu_nats_next_cursor gauge\n\
             kifu_nats_next_cursor {}\n\
             # HELP kifu_nats_published_total Records the NATS stream acknowledged, by outcome (new, or a repeat it dropped).\n\
             # TYPE kifu_nats_published_total counter\n\
             kifu_nats_published_total{{outcome=\"new\"}} {}\n\
             kifu_nats_published_total{{outcome=\"repeat\"}} {}\n\
             # HELP kifu_nats_failures_total Publication attempts that failed and were retried (NATS away, a leader being elected, the stream unusable).\n\
             # TYPE kifu_nats_failures_total counter\n\
             kifu_nats_failures_total {}\n\
             # HELP kifu_nats_publishing 1 while publishing works, 0 while it is failing.\n\
             # TYPE kifu_nats_publishing gauge\n\
             kifu_nats_publishing {}\n",
            self.backlog(store),
            self.next_cursor.load(Ordering::Relaxed),
            self.published.load(Ordering::Relaxed),
            self.duplicates.load(Ordering::Relaxed),
            self.failures.count(),
            1 - failing,
        )
    }
}

/// Checks once, within `wait`, that the stream can be published to:
/// creates it when missing, refuses one configured otherwise
/// ([`NatsError::StreamConfig`]). A NATS that does not answer within `wait`
/// is a transient [`NatsError::Nats`]: the publisher waits for it.
pub async fn check_stream(config: &PublisherConfig, wait: Duration) -> Result<(), NatsError> {
    let attempt = async {
        let client = connect(&config.url, "kifu-publisher-check").await?;
        let js = jetstream::new(client);
        ensure_stream(
            &js,
            &config.stream,
            config.replicas,
            config.duplicate_window,
        )
        .await
    };
    match tokio::time::timeout(wait, attempt).await {
        Ok(r) => r,
        Err(_) => Err(NatsError::Nats(format!(
            "no answer from {} within {} s",
            config.url,
            wait.as_secs()
        ))),
    }
}

/// The store value holding the first cursor not yet acknowledged by `stream`.
pub fn progress_key(stream: &str) -> String {
    format!("nats/{stream}/next-cursor")
}

/// The first cursor of `store` not yet acknowledged by `stream`.
pub fn published_up_to(store: &Store, stream: &str) -> Result<u64, NatsError> {
    match store.get_value(&progress_key(stream))? {
        Some(v) => {
            let arr: [u8; 8] = v
                .as_slice()
                .try_into()
                .map_err(|_| NatsError::Damaged("publisher cursor of wrong length".into()))?;
            Ok(u64::from_be_bytes(arr))
        }
        None => Ok(0),
    }
}

/// Creates the stream, or checks that the existing one takes kifu's subjects
/// with the configured replicas.
pub async fn ensure_stream(
    js: &jetstream::Context,
    name: &str,
    replicas: usize,
    duplicate_window: Duration,
) -> Result<(), NatsError> {
    let want = stream::Config {
        name: name.to_string(),
        subjects: vec![subject::STREAM_SUBJECTS.to_string()],
        num_replicas: replicas,
        storage: stream::StorageType::File,
        duplicate_window,
        ..Default::default()
    };
    let mut s = js.get_or_create_stream(want).await.map_err(|e| {
        let text = e.to_string();
        if text.contains("overlap") {
            // Another stream already takes kifu's subjects: waiting will not help.
            NatsError::StreamConfig {
                stream: name.into(),
                what: format!("cannot be created: {text}"),
            }
        } else {
            nats_error(text)
        }
    })?;
    let info = s.info().await.map_err(nats_error)?;
    let cfg = &info.config;
    if cfg.num_replicas != replicas {
        return Err(NatsError::StreamConfig {
            stream: name.into(),
            what: format!(
                "it has {} replicas, {} were asked for",
                cfg.num_replicas, replicas
            ),
        });
    }
    if !cfg.subjects.iter().any(|s| s == subject::STREAM_SUBJECTS) {
        return Err(NatsError::StreamConfig {
            stream: name.into(),
            what: format!(
                "its subjects are {:?}, kifu publishes on {}",
                cfg.subjects,
                subject::STREAM_SUBJECTS
            ),
        });
    }
    Ok(())
}

/// Runs until `shutdown` completes: publishes every durable record of
/// `store`'s feed to the stream, resuming from the cursor kept in the store.
/// Returns an error only for what waiting can not fix (a stream configured
/// differently, a damaged store); NATS being away is waited out.
pub async fn run_publisher(
    store: Arc<Store>,
    config: PublisherConfig,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), NatsError> {
    run_publisher_with_status(store, config, Arc::new(PublisherStatus::new()), shutdown).await
}

/// [`run_publisher`], reporting into `status`.
pub async fn run_publisher_with_status(
    store: Arc<Store>,
    config: PublisherConfig,
    status: Arc<PublisherStatus>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), NatsError> {
    tokio::select! {
        r = publish_loop(store, config, status) => r,
        _ = shutdown => Ok(()),
    }
}

async fn publish_loop(
    store: Arc<Store>,
    config: PublisherConfig,
    status: Arc<PublisherStatus>,
) -> Result<(), NatsError> {
    let client = connect(&config.url, "kifu-publisher").await?;
    let js = jetstream::new(client);
    // The stream, waiting for NATS when it is away.
    loop {
        match ensure_stream(
            &js,
            &config.stream,
            config.replicas,
            config.duplicate_window,
        )
        .await
        {
            Ok(()) => break,
            Err(e @ NatsError::StreamConfig { .. }) => {
                status.failures.fail(&e);
                return Err(e);
            }
            Err(e) => {
                status.failures.fail(&e);
                tokio::time::sleep(config.retry_after).await;
            }
        }
    }
    status.failures.clear();
    let key = progress_key(&config.stream);
    let mut next = published_up_to(&store, &config.stream)?;
    status.next_cursor.store(next, Ordering::Relaxed);
    status.resumed_from.store(next, Ordering::Relaxed);
    let batch = config.batch.max(1);
    // When records wait that no acknowledged append has made durable yet
    // (after a restart, or a writer that died before its sync), sync once
    // they have waited this long.
    let stall = config.idle_poll * 4;
    let mut waiting_since: Option<tokio::time::Instant> = None;
    let mut wake = config.wake.clone();
    loop {
        // Publish only what is on stable storage. Acknowledged appends move
        // the store's durable cursor, so a busy store costs the publisher no
        // sync of its own.
        let durable = store.durable_cursor();
        let after = next.checked_sub(1);
        let want = durable.saturating_sub(next).min(batch as u64) as usize;
        let items = if want > 0 {
            store.feed(after, want)?
        } else {
            Vec::new()
        };
        if items.is_empty() {
            if store.next_cursor()? > durable.max(next) {
                let since = *waiting_since.get_or_insert_with(tokio::time::Instant::now);
                if since.elapsed() >= stall {
                    let s = store.clone();
                    tokio::task::spawn_blocking(move || s.sync())
                        .await
                        .map_err(|e| NatsError::Damaged(format!("sync task: {e}")))??;
                    waiting_since = None;
                    continue;
                }
            } else {
                waiting_since = None;
            }
            match wake.as_mut() {
                Some(w) => tokio::select! {
                    r = w.changed() => if r.is_err() {
                        // The writer is gone: back to polling.
                        wake = None;
                    },
                    _ = tokio::time::sleep(config.idle_poll) => {},
                },
                None => tokio::time::sleep(config.idle_poll).await,
            }
            continue;
        }
        waiting_since = None;
        let (done, failure) = publish_items(&js, &store, &items, &status).await;
        if done > 0 {
            next = items[done - 1].cursor + 1;
            // Durable with the store's next sync; a crash before that only
            // republishes records the stream de-duplicates.
            store.put_value(&key, &next.to_be_bytes())?;
            status.next_cursor.store(next, Ordering::Relaxed);
        }
        match failure {
            None => status.failures.clear(),
            Some(e) => {
                status.failures.fail(&e);
                tokio::time::sleep(config.retry_after).await;
            }
        }
    }
}

/// Publishes `items`; returns how many from the start (in cursor order)
/// JetStream acknowledged, and the failure that stopped it, if any.
///
/// The items go out in waves: wave `i` holds the `i`-th record of every game
/// in `items`, pipelined; a wave starts only when the one before it is fully
/// acknowledged. So records of different games are in flight together, and a
/// record is sent only after its predecessor in its game was stored.
async fn publish_items(
    js: &jetstream::Context,
    store: &Store,
    items: &[FeedItem],
    status: &PublisherStatus,
) -> (usize, Option<NatsError>) {
    let mut wave_of = Vec::with_capacity(items.len());
    let mut seen: HashMap<Hash, usize> = HashMap::new();
    for item in items {
        let n = seen.entry(item.game).or_insert(0);
        wave_of.push(*n);
        *n += 1;
    }
    let waves = seen.values().copied().max().unwrap_or(0);
    let mut acked = vec![false; items.len()];
    let mut failure = None;
    'waves: for w in 0..waves {
        let mut in_flight: Vec<(usize, PublishAckFuture)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if wave_of[i] != w {
                continue;
            }
            let sent = match message_for(store, item) {
                Ok((subject, message)) => {
                    js.send_publish(subject, message).await.map_err(nats_error)
                }
                Err(e) => Err(e),
            };
            match sent {
                Ok(f) => in_flight.push((i, f)),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        for (i, f) in in_flight {
            match f.await {
                Ok(ack) => {
                    acked[i] = true;
                    if ack.duplicate {
                        status.duplicates.fetch_add(1, Ordering::Relaxed);
                    } else {
                        status.published.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    if failure.is_none() {
                        failure = Some(nats_error(e));
                    }
                }
            }
        }
        if failure.is_some() {
            break 'waves;
        }
    }
    let done = acked.iter().take_while(|a| **a).count();
    (done, failure)
}

fn message_for(
    store: &Store,
    item: &FeedItem,
) -> Result<(String, async_nats::jetstream::message::PublishMessage), NatsError> {
    let genesis = store.genesis(&item.game)?;
    let subject = subject::subject_for(&item.game, &genesis);
    let header = item.record.header()?;
    let mut headers = HeaderMap::new();
    headers.insert(HEADER_MSG_ID, hex::encode(item.record.hash()).as_str());
    headers.insert(HEADER_CURSOR, item.cursor.to_string().as_str());
    headers.insert(HEADER_SEQ, item.seq.to_string().as_str());
    headers.insert(
        HEADER_KIND,
        kifu_ledger::kinds::kind_name(header.kind).unwrap_or("unknown"),
    );
    headers.insert(HEADER_GAME, hex::encode(item.game).as_str());
    let message = async_nats::jetstream::message::PublishMessage::build()
        .payload(item.record.to_stored().into())
        .headers(headers);
    Ok((subject, message))
}
