//! The ingest pipeline: one bounded queue, one writer.
//!
//! Submitters put their records in the queue and wait for the answer. The
//! writer takes everything waiting and runs [`Store::append_each`] on it in
//! its three steps, each on its own thread so that consecutive batches
//! overlap: envelopes and one batch signature verification
//! ([`Store::prepare_each`]); link and role of each record and one commit
//! ([`Store::commit_prepared`]); one sync ([`Store::make_durable`]), after
//! which every submitter of the batch gets its answer. A full queue
//! refuses new submissions at once ([`IngestError::Busy`]) instead of
//! growing: memory is bounded by the queue's capacity in records.
//!
//! After each batch is durable, the writer publishes the feed's next cursor
//! on a watch channel: followers read the store up to that cursor and never
//! beyond, so they see only durable records, in cursor order, without gaps.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use kifu_ledger::Record;
use kifu_store::{Appended, Committed, EachOutcome, Prepared, Store, StoreError};
use tokio::sync::{oneshot, watch};

use crate::metrics::Metrics;

/// The answer to one submission: one result per record, in order.
pub type Answer = Vec<Result<Appended, StoreError>>;

/// Why a submission was not queued.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IngestError {
    /// The queue holds as many records as it may; try again shortly.
    #[error("the ingest queue is full ({0} records waiting); retry shortly")]
    Busy(usize),
    /// The submission alone is larger than the whole queue.
    #[error("{0} records in one submission; the queue holds at most {1}")]
    TooLarge(usize, usize),
    /// The server is stopping and takes no new appends.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// The writer stopped before answering.
    #[error("the writer stopped before answering")]
    WriterGone,
}

struct Job {
    records: Vec<Record>,
    reply: oneshot::Sender<Answer>,
    queued_at: Instant,
}

struct Queue {
    jobs: VecDeque<Job>,
    records: usize,
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    wake: Condvar,
    capacity: usize,
    metrics: Arc<Metrics>,
}

/// The running pipeline.
pub struct Ingest {
    shared: Arc<Shared>,
    writer: Mutex<Vec<JoinHandle<()>>>,
    published: watch::Receiver<u64>,
}

impl Ingest {
    /// Starts the writer over `store`; the queue holds at most `capacity`
    /// records.
    pub fn start(
        store: Arc<Store>,
        capacity: usize,
        metrics: Arc<Metrics>,
    ) -> Result<Ingest, StoreError> {
        let (tx, rx) = watch::channel(store.next_cursor()?);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                records: 0,
                closed: false,
            }),
            wake: Condvar::new(),
            capacity: capacity.max(1),
            metrics,
        });
        let threads = start_pipeline(shared.clone(), store, tx)?;
        Ok(Ingest {
            shared,
            writer: Mutex::new(threads),
            published: rx,
        })
    }

    /// The same pipeline, its feed following `published` instead of its
    /// own writer: a read replica's store is written by its mirror.
    pub fn following(mut self, published: watch::Receiver<u64>) -> Ingest {
        self.published = published;
        self
    }

    /// Queues records without waiting; the receiver gets the answer once
    /// they are durable (or refused).
    pub fn submit(&self, records: Vec<Record>) -> Result<oneshot::Receiver<Answer>, IngestError> {
        let n = records.len();
        if n > self.shared.capacity {
            return Err(IngestError::TooLarge(n, self.shared.capacity));
        }
        let (reply, rx) = oneshot::channel();
        let mut q = self.shared.queue.lock().unwrap_or_else(|p| p.into_inner());
        if q.closed {
            return Err(IngestError::ShuttingDown);
        }
        if q.records + n > self.shared.capacity {
            self.shared
                .metrics
                .queue_full
                .fetch_add(1, Ordering::Relaxed);
            return Err(IngestError::Busy(q.records));
        }
        q.records += n;
        q.jobs.push_back(Job {
            records,
            reply,
            queued_at: Instant::now(),
        });
        self.shared
            .metrics
            .queue_records
            .store(q.records as u64, Ordering::Relaxed);
        drop(q);
        self.shared.wake.notify_one();
        Ok(rx)
    }

    /// Queues records and waits for the answer.
    pub async fn append(&self, records: Vec<Record>) -> Result<Answer, IngestError> {
        let rx = self.submit(records)?;
        rx.await.map_err(|_| IngestError::WriterGone)
    }

    /// Queues records and blocks the calling thread until the answer (for
    /// callers outside an async runtime, such as benches).
    pub fn append_blocking(&self, records: Vec<Record>) -> Result<Answer, IngestError> {
        let rx = self.submit(records)?;
        rx.blocking_recv().map_err(|_| IngestError::WriterGone)
    }

    /// The next feed cursor whose records are all durable: followers read
    /// below it.
    pub fn published(&self) -> watch::Receiver<u64> {
        self.published.clone()
    }

    /// Stops taking submissions, lets the writer finish and sync everything
    /// already queued (and answer it), and waits for it.
    pub fn shutdown(&self) {
        {
            let mut q = self.shared.queue.lock().unwrap_or_else(|p| p.into_inner());
            q.closed = true;
        }
        self.shared.wake.notify_all();
        let threads = std::mem::take(&mut *self.writer.lock().unwrap_or_else(|p| p.into_inner()));
        // In pipeline order: each stage ends once the one before it has.
        for t in threads {
            let _ = t.join();
        }
    }
}

impl Drop for Ingest {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A batch smaller than this may linger when the one before was not.
const LINGER_BELOW: usize = 32;

/// How long a small batch waits for more when the writer is busy.
const LINGER: std::time::Duration = std::time::Duration::from_micros(500);

type Replies = Vec<(oneshot::Sender<Answer>, Instant, usize)>;

/// The writer, as three threads so that the stages overlap: while one batch
/// waits for its sync, the next is committed, and the one after that has its
/// signatures verified. Each hand-over holds one batch at most.
fn start_pipeline(
    shared: Arc<Shared>,
    store: Arc<Store>,
    published: watch::Sender<u64>,
) -> std::io::Result<Vec<JoinHandle<()>>> {
    let (to_commit, committing) = std::sync::mpsc::sync_channel::<(Prepared, Replies)>(1);
    let (to_sync, syncing) = std::sync::mpsc::sync_channel::<(Committed, Replies)>(1);
    let m = shared.metrics.clone();
    let s1 = store.clone();
    let verify = std::thread::Builder::new()
        .name("kifu-verify".into())
        .spawn(move || {
            let mut last_batch = 0;
            while let Some((records, replies)) = take_waiting(&shared, &mut last_batch) {
                let prepared = s1.prepare_each(records);
                if to_commit.send((prepared, replies)).is_err() {
                    return;
                }
            }
        })?;
    let s2 = store.clone();
    let commit = std::thread::Builder::new()
        .name("kifu-commit".into())
        .spawn(move || {
            while let Ok((prepared, replies)) = committing.recv() {
                let committed = s2.commit_prepared(prepared);
                if to_sync.send((committed, replies)).is_err() {
                    return;
                }
            }
        })?;
    let sync = std::thread::Builder::new()
        .name("kifu-sync".into())
        .spawn(move || {
            while let Ok((committed, replies)) = syncing.recv() {
                let next = committed.next_cursor();
                let outcome = store.make_durable(committed);
                answer(&m, &published, outcome, next, replies);
            }
            // Everything is answered: the staged records go into their
            // games' runs, so that the store is left as a single writer
            // leaves it. Should this fail, the records stay staged (and
            // durable), and the next opening settles them.
            let _ = store.settle();
        })?;
    Ok(vec![verify, commit, sync])
}

/// Everything waiting in the queue (blocks until something is, or the
/// queue is closed and empty).
///
/// When the previous batch was large (many boards are waiting on the
/// writer), a small batch lingers up to [`LINGER`] for the rest of them to
/// arrive: a batch of one would cost a whole commit and sync cycle while
/// hundreds of appends queue behind it. A lone client never lingers.
fn take_waiting(shared: &Shared, last_batch: &mut usize) -> Option<(Vec<Record>, Replies)> {
    let jobs: Vec<Job> = {
        let mut q = shared.queue.lock().unwrap_or_else(|p| p.into_inner());
        while q.jobs.is_empty() && !q.closed {
            q = shared.wake.wait(q).unwrap_or_else(|p| p.into_inner());
        }
        if q.jobs.is_empty() {
            return None;
        }
        if *last_batch >= LINGER_BELOW && q.records < LINGER_BELOW && !q.closed {
            let until = Instant::now() + LINGER;
            while q.records < LINGER_BELOW && !q.closed {
                let now = Instant::now();
                if now >= until {
                    break;
                }
                q = shared
                    .wake
                    .wait_timeout(q, until - now)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
        }
        *last_batch = q.records;
        q.records = 0;
        shared.metrics.queue_records.store(0, Ordering::Relaxed);
        q.jobs.drain(..).collect()
    };
    let mut records = Vec::with_capacity(jobs.iter().map(|j| j.records.len()).sum());
    let mut replies = Vec::with_capacity(jobs.len());
    for j in jobs {
        replies.push((j.reply, j.queued_at, j.records.len()));
        records.extend(j.records);
    }
    shared.metrics.batch_records.observe(records.len() as f64);
    Some((records, replies))
}

/// Publishes the durable cursor and answers every submitter of a batch.
fn answer(
    m: &Metrics,
    published: &watch::Sender<u64>,
    outcome: EachOutcome,
    next: u64,
    replies: Replies,
) {
    m.verify_seconds.observe_duration(outcome.verify_time);
    m.commit_seconds.observe_duration(outcome.commit_time);
    if outcome.written > 0 {
        m.sync_seconds.observe_duration(outcome.sync_time);
        published.send_if_modified(|p| {
            let grew = next > *p;
            if grew {
                *p = next;
            }
            grew
        });
    }
    let mut results = outcome.results.into_iter();
    for (reply, queued_at, n) in replies {
        let answer: Answer = results.by_ref().take(n).collect();
        for r in &answer {
            let c = match r {
                Ok(a) if a.new => &m.appends_written,
                Ok(_) => &m.appends_retried,
                Err(_) => &m.appends_refused,
            };
            c.fetch_add(1, Ordering::Relaxed);
        }
        m.ack_seconds.observe_duration(queued_at.elapsed());
        // A submitter that went away no longer needs its answer.
        let _ = reply.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_larger_than_the_queue_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path()).unwrap());
        let ingest = Ingest::start(store, 2, Arc::new(Metrics::default())).unwrap();
        let cast = kifu_ledger::testkit::Cast::new();
        let c = kifu_ledger::testkit::sample_game(&cast, "big");
        let three = c.records[..3].to_vec();
        assert_eq!(
            ingest.submit(three).unwrap_err(),
            IngestError::TooLarge(3, 2)
        );
        ingest.shutdown();
        let one = c.records[..1].to_vec();
        assert_eq!(ingest.submit(one).unwrap_err(), IngestError::ShuttingDown);
    }

    #[test]
    fn everything_queued_is_answered_after_shutdown_begins() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path()).unwrap());
        let ingest = Ingest::start(store.clone(), 1_000, Arc::new(Metrics::default())).unwrap();
        let cast = kifu_ledger::testkit::Cast::new();
        let c = kifu_ledger::testkit::sample_game(&cast, "drain");
        let receivers: Vec<_> = c
            .records
            .iter()
            .map(|r| ingest.submit(vec![r.clone()]).unwrap())
            .collect();
        ingest.shutdown();
        for rx in receivers {
            let answer = rx.blocking_recv().expect("answered");
            assert!(answer[0].as_ref().unwrap().new);
        }
        assert_eq!(store.len(), c.records.len());
        assert_eq!(*ingest.published().borrow(), c.records.len() as u64);
    }
}
