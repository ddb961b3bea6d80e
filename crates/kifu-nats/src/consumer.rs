//! Reading the stream back: every record verified as it arrives.

use std::time::Duration;

use async_nats::jetstream::{self, consumer};
use futures::StreamExt;
use kifu_ledger::{Hash, Record};

use crate::subject::{self, HEADER_CURSOR};
use crate::verify::{Verdict, Verifier};
use crate::{connect, nats_error, retrying, Backoff, NatsError, OnRetry, Retry};

/// How long one request to create or look up a consumer may take before it
/// is tried again. nats-server 2.9 places an ephemeral consumer on one node
/// of the stream's, chosen at random, also a node that is down: creating it
/// then gets no answer, and a fresh try lands elsewhere.
const CREATE_TRY: Duration = Duration::from_secs(4);

/// How long one pull may take: a fetch of what is there, then a wait of
/// up to 5 s for the next message.
const PULL_TRY: Duration = Duration::from_secs(8);

/// Failed pulls in a row after which a consumer is created afresh (its
/// node may be the one lost), resuming after the last record read.
const PULL_FAILURES_BEFORE_RECREATE: u32 = 2;

/// Which records to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filter {
    /// Every game.
    All,
    /// One game.
    Game(Hash),
    /// The games of one tournament (its name as in the genesis).
    Tournament(String),
}

impl Filter {
    /// The subject filter.
    pub fn subject(&self) -> String {
        match self {
            Filter::All => subject::STREAM_SUBJECTS.to_string(),
            Filter::Game(g) => subject::game_filter(g),
            Filter::Tournament(t) => subject::tournament_filter(t),
        }
    }
}

/// Where to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Only records published from now on (games already under way are
    /// verified from their history in the stream first).
    New,
    /// Everything in the stream.
    FromStart,
    /// A durable consumer of this name: from the start the first time, then
    /// after the last record it acknowledged.
    Durable(String),
}

/// How to consume.
#[derive(Debug, Clone)]
pub struct ConsumerConfig {
    /// NATS server URL(s), comma-separated.
    pub url: String,
    /// The stream.
    pub stream: String,
    /// Which records.
    pub filter: Filter,
    /// From where.
    pub start: Start,
}

/// One verified record from the stream.
pub struct Delivered {
    /// Its sequence number in the stream.
    pub stream_seq: u64,
    /// Its cursor in the publishing server's feed (from the message header).
    pub cursor: Option<u64>,
    /// The game.
    pub game: Hash,
    /// Its place in the game.
    pub seq: u64,
    /// The record.
    pub record: Record,
    /// Records the server still holds for this consumer after this one.
    pub pending: u64,
    acker: Option<jetstream::message::Acker>,
}

impl std::fmt::Debug for Delivered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delivered")
            .field("stream_seq", &self.stream_seq)
            .field("cursor", &self.cursor)
            .field("game", &hex::encode(self.game))
            .field("seq", &self.seq)
            .field("pending", &self.pending)
            .finish()
    }
}

/// A verifying consumer of the stream.
pub struct FeedConsumer {
    client: async_nats::Client,
    js: jetstream::Context,
    config: ConsumerConfig,
    on_retry: OnRetry,
    stream: jetstream::stream::Stream,
    consumer: consumer::PullConsumer,
    /// Stream sequence of the last message read (0: none yet).
    last_stream_seq: u64,
    /// Pulls that failed in a row.
    pull_failures: u32,
    /// Messages pulled and not yet handed out.
    buffer: std::collections::VecDeque<jetstream::Message>,
    /// Records the caller still wants; nothing beyond is pulled, so a durable
    /// consumer that stops leaves nothing delivered and unacknowledged.
    wanted: Option<u64>,
    /// Messages pending after the last one read (0: caught up).
    last_pending: Option<u64>,
    verifier: Verifier,
    /// Verified records fetched from history, to hand out before the message
    /// that needed them.
    backlog: std::collections::VecDeque<Delivered>,
    pending_at_start: u64,
}

impl FeedConsumer {
    /// Connects and creates (or resumes) the consumer; failures that can
    /// pass are retried quietly (see [`FeedConsumer::connect_reporting`]).
    pub async fn connect(config: &ConsumerConfig) -> Result<FeedConsumer, NatsError> {
        FeedConsumer::connect_reporting(config, std::sync::Arc::new(|_: &Retry<'_>| {})).await
    }

    /// Connects and creates (or resumes) the consumer. A failure that can
    /// pass (no answer, a leader being elected, the consumer placed on a
    /// node that is down) is retried with a fresh consumer, with bounded
    /// backoff ([`Backoff::READER`]); each retry, here and later while
    /// reading, is told to `on_retry`.
    pub async fn connect_reporting(
        config: &ConsumerConfig,
        on_retry: OnRetry,
    ) -> Result<FeedConsumer, NatsError> {
        let client = connect(&config.url, "kifu-consumer").await?;
        let js = jetstream::new(client.clone());
        let start = match &config.start {
            Start::New => consumer::DeliverPolicy::New,
            _ => consumer::DeliverPolicy::All,
        };
        let (stream, c, pending_at_start) = create(&js, config, start, &*on_retry).await?;
        Ok(FeedConsumer {
            client,
            js,
            config: config.clone(),
            on_retry,
            stream,
            consumer: c,
            last_stream_seq: 0,
            pull_failures: 0,
            buffer: Default::default(),
            wanted: None,
            last_pending: None,
            verifier: Verifier::new(),
            backlog: Default::default(),
            pending_at_start,
        })
    }

    /// Creates the consumer afresh after its pulls kept failing: a durable
    /// one is looked up again (it resumes where it was); an ephemeral one
    /// starts after the last record read.
    async fn recreate(&mut self) -> Result<(), NatsError> {
        let start = match (&self.config.start, self.last_stream_seq) {
            (Start::Durable(_), _) => consumer::DeliverPolicy::All,
            (Start::New, 0) => consumer::DeliverPolicy::New,
            (Start::FromStart, 0) => consumer::DeliverPolicy::All,
            (_, last) => consumer::DeliverPolicy::ByStartSequence {
                start_sequence: last + 1,
            },
        };
        let (stream, c, pending) = create(&self.js, &self.config, start, &*self.on_retry).await?;
        self.stream = stream;
        self.consumer = c;
        self.buffer.clear();
        self.last_pending = None;
        self.pending_at_start = pending;
        self.pull_failures = 0;
        Ok(())
    }

    /// The name of the NATS node serving this consumer now (its leader),
    /// when the server says (`None` outside a cluster).
    pub async fn placement(&mut self) -> Result<Option<String>, NatsError> {
        let info = self.consumer.info().await.map_err(nats_error)?;
        Ok(info.cluster.as_ref().and_then(|c| c.leader.clone()))
    }

    /// Records waiting for this consumer when it was created: 0 means a
    /// reader that wants only what is there can stop at once.
    pub fn pending_at_start(&self) -> u64 {
        self.pending_at_start
    }

    /// True once the last message read (good or refused) was the last the
    /// server held for this consumer at the time.
    pub fn caught_up(&self) -> bool {
        self.last_pending == Some(0) && self.buffer.is_empty() && self.backlog.is_empty()
    }

    /// Reads at most `n` more records (a durable consumer pulls no more than
    /// that, so nothing is left delivered and unacknowledged when it stops).
    pub fn set_limit(&mut self, n: u64) {
        self.wanted = Some(n);
    }

    /// Pulls what is there (up to what is wanted); when nothing is, waits a
    /// little for the next message.
    async fn refill(&mut self) -> Result<(), NatsError> {
        let k = self.wanted.unwrap_or(256).clamp(1, 256) as usize;
        let got = async {
            let mut b = self
                .consumer
                .fetch()
                .max_messages(k)
                .messages()
                .await
                .map_err(nats_error)?;
            while let Some(m) = b.next().await {
                self.buffer.push_back(m.map_err(nats_error)?);
            }
            if self.buffer.is_empty() {
                let mut b = self
                    .consumer
                    .batch()
                    .max_messages(1)
                    .expires(Duration::from_secs(5))
                    .messages()
                    .await
                    .map_err(nats_error)?;
                while let Some(m) = b.next().await {
                    self.buffer.push_back(m.map_err(nats_error)?);
                }
            }
            Ok::<(), NatsError>(())
        };
        // A pull to a consumer whose node is lost is never answered, not
        // even with an error: each pull is bounded.
        let got = match tokio::time::timeout(PULL_TRY, got).await {
            Ok(r) => r,
            Err(_) => Err(NatsError::Nats(format!(
                "no answer to a pull within {} s",
                PULL_TRY.as_secs()
            ))),
        };
        let e = match got {
            Err(e) if self.buffer.is_empty() => e,
            _ => {
                self.pull_failures = 0;
                return Ok(());
            }
        };
        // Pull requests fail while the cluster elects a leader or the
        // connection is re-established: try again shortly, each failure
        // told; when they keep failing, the consumer's node may be lost: a
        // fresh consumer is created (itself retried, bounded).
        self.pull_failures += 1;
        let pause = Backoff::READER.pause(self.pull_failures);
        (self.on_retry)(&Retry {
            what: "reading the stream",
            attempt: self.pull_failures,
            attempts: PULL_FAILURES_BEFORE_RECREATE,
            pause,
            error: &e,
        });
        tokio::time::sleep(pause).await;
        if self.pull_failures >= PULL_FAILURES_BEFORE_RECREATE {
            self.recreate().await?;
        }
        Ok(())
    }

    /// The next verified record (repeats are skipped). A record that fails
    /// verification is an error naming it; the consumer can go on after it.
    pub async fn next(&mut self) -> Result<Delivered, NatsError> {
        loop {
            if let Some(d) = self.next_inner(false).await? {
                return Ok(d);
            }
        }
    }

    /// Like [`FeedConsumer::next`], but `None` once the consumer has caught
    /// up with what the stream held (for readers that stop there).
    pub async fn next_until_caught_up(&mut self) -> Result<Option<Delivered>, NatsError> {
        self.next_inner(true).await
    }

    async fn next_inner(&mut self, stop: bool) -> Result<Option<Delivered>, NatsError> {
        loop {
            if let Some(d) = self.backlog.pop_front() {
                if let Some(w) = &mut self.wanted {
                    *w = w.saturating_sub(1);
                }
                return Ok(Some(d));
            }
            let Some(msg) = self.buffer.pop_front() else {
                let at_end = match self.last_pending {
                    Some(p) => p == 0,
                    None => self.pending_at_start == 0,
                };
                if stop && at_end {
                    return Ok(None);
                }
                self.refill().await?;
                continue;
            };
            let (stream_seq, pending) = match msg.info() {
                Ok(i) => {
                    self.last_pending = Some(i.pending);
                    self.last_stream_seq = self.last_stream_seq.max(i.stream_sequence);
                    (i.stream_sequence, i.pending)
                }
                Err(e) => return Err(NatsError::Nats(format!("message without metadata: {e}"))),
            };
            let cursor = header_u64(&msg, HEADER_CURSOR);
            let (message, acker) = msg.split();
            let record = match Record::from_stored(&message.payload) {
                Ok(r) => r,
                Err(e) => {
                    let _ = acker.ack().await;
                    return Err(NatsError::BadMessage {
                        stream_seq,
                        what: e.to_string(),
                    });
                }
            };
            let verdict = match self.verifier.offer(&record) {
                Ok(v) => v,
                Err(e) => {
                    let _ = acker.ack().await;
                    return Err(NatsError::BadMessage {
                        stream_seq,
                        what: e.to_string(),
                    });
                }
            };
            match verdict {
                Verdict::Next { game, seq } => {
                    if let Some(w) = &mut self.wanted {
                        *w = w.saturating_sub(1);
                    }
                    return Ok(Some(Delivered {
                        stream_seq,
                        cursor,
                        game,
                        seq,
                        record,
                        pending,
                        acker: Some(acker),
                    }));
                }
                Verdict::Repeat { .. } => {
                    let _ = acker.ack().await;
                    continue;
                }
                Verdict::NeedHistory { game, seq } => {
                    // Verify the game from its genesis in the stream; the
                    // records before this one were delivered before (a
                    // resumed durable consumer) or before we started.
                    let history =
                        game_history(&self.stream, &game, stream_seq, &*self.on_retry).await?;
                    for (_, r) in &history {
                        let (_, s) = Verifier::place(r)?;
                        if s >= seq {
                            break;
                        }
                        match self.verifier.offer(r) {
                            Ok(_) => {}
                            Err(e) => {
                                let _ = acker.ack().await;
                                return Err(NatsError::BadMessage {
                                    stream_seq,
                                    what: format!("in the history of its game: {e}"),
                                });
                            }
                        }
                    }
                    match self.verifier.offer(&record) {
                        Ok(Verdict::Next { game, seq }) => {
                            self.backlog.push_back(Delivered {
                                stream_seq,
                                cursor,
                                game,
                                seq,
                                record,
                                pending,
                                acker: Some(acker),
                            });
                        }
                        Ok(_) => {
                            let _ = acker.ack().await;
                        }
                        Err(e) => {
                            let _ = acker.ack().await;
                            return Err(NatsError::BadMessage {
                                stream_seq,
                                what: e.to_string(),
                            });
                        }
                    }
                }
            }
        }
    }

    /// Acknowledges a delivered record (a durable consumer then resumes after
    /// it). Does nothing for the other kinds.
    pub async fn ack(&self, d: &Delivered) -> Result<(), NatsError> {
        if let Some(a) = &d.acker {
            a.ack().await.map_err(|e| NatsError::Nats(e.to_string()))?;
        }
        Ok(())
    }
}

impl FeedConsumer {
    /// Sends everything still buffered (acknowledgements) to the server;
    /// call before exiting.
    pub async fn finish(&self) -> Result<(), NatsError> {
        self.client.flush().await.map_err(nats_error)
    }
}

pub(crate) fn header_u64(msg: &jetstream::Message, name: &str) -> Option<u64> {
    msg.headers
        .as_ref()
        .and_then(|h| h.get(name))
        .and_then(|v| v.as_str().parse().ok())
}

/// Looks the stream up and creates the consumer (a durable one is created
/// or looked up), retried with a fresh try when it can pass; the stream, the
/// consumer, and the records pending for it.
async fn create(
    js: &jetstream::Context,
    config: &ConsumerConfig,
    deliver_policy: consumer::DeliverPolicy,
    on_retry: &(dyn Fn(&Retry<'_>) + Send + Sync),
) -> Result<(jetstream::stream::Stream, consumer::PullConsumer, u64), NatsError> {
    let (durable_name, ack_policy) = match &config.start {
        Start::Durable(n) => (Some(n.clone()), consumer::AckPolicy::Explicit),
        _ => (None, consumer::AckPolicy::None),
    };
    let cfg = consumer::pull::Config {
        durable_name,
        deliver_policy,
        ack_policy,
        filter_subject: config.filter.subject(),
        inactive_threshold: Duration::from_secs(60),
        ..Default::default()
    };
    retrying(
        "creating the consumer",
        Backoff::READER,
        CREATE_TRY,
        on_retry,
        || async {
            let stream = crate::get_stream(js, &config.stream).await?;
            let mut c: consumer::PullConsumer = match &config.start {
                Start::Durable(n) => stream
                    .get_or_create_consumer(n, cfg.clone())
                    .await
                    .map_err(nats_error)?,
                _ => stream
                    .create_consumer(cfg.clone())
                    .await
                    .map_err(nats_error)?,
            };
            let info = c.info().await.map_err(nats_error)?;
            let pending = info.num_pending + info.num_ack_pending as u64;
            Ok((stream, c, pending))
        },
    )
    .await
}

/// How long one message read of a game's history may take before it is
/// tried again.
const HISTORY_TRY: Duration = Duration::from_secs(4);

/// The records of `game` in the stream before stream sequence `before`, in
/// stream order (which is chain order: see the publisher).
///
/// They are read one by one from the stream's leader (`STREAM.MSG.GET`, the
/// next message on the game's subjects), not through a consumer: a leader
/// is elected among the nodes that are up, where a consumer of nats-server
/// 2.9 may be placed on a node that is down. Each read that fails in a way
/// that can pass is retried with bounded backoff, each retry told to
/// `on_retry`.
pub async fn game_history(
    stream: &jetstream::stream::Stream,
    game: &Hash,
    before: u64,
    on_retry: &(dyn Fn(&Retry<'_>) + Send + Sync),
) -> Result<Vec<(u64, Record)>, NatsError> {
    use async_nats::jetstream::stream::RawMessageErrorKind;
    let mut out = Vec::new();
    let filter = subject::game_filter(game);
    let mut from = 1u64;
    while from < before {
        let got = retrying(
            "reading a game's history",
            Backoff::READER,
            HISTORY_TRY,
            on_retry,
            || async {
                match stream.get_first_raw_message_by_subject(&filter, from).await {
                    Ok(m) => Ok(Some(m)),
                    Err(e) if e.kind() == RawMessageErrorKind::NoMessageFound => Ok(None),
                    Err(e) => Err(nats_error(format!("reading a game's history: {e}"))),
                }
            },
        )
        .await?;
        let Some(msg) = got else { break };
        if msg.sequence >= before {
            break;
        }
        let record = Record::from_stored(&msg.payload).map_err(|e| NatsError::BadMessage {
            stream_seq: msg.sequence,
            what: e.to_string(),
        })?;
        out.push((msg.sequence, record));
        from = msg.sequence + 1;
    }
    Ok(out)
}
