//! A federation archive: the stream, from every venue, into one sled store.
//!
//! The mirror reads the stream with a durable consumer and writes each batch
//! with `Store::import`, which checks every record exactly as a local append
//! is checked (kifu-ledger's `check_genesis` / `check_append`: bytes, link,
//! signature, role) and skips records already stored, so a redelivery is
//! stored once. A batch is acknowledged only after the import is durable; a
//! mirror killed in between gets the batch again and finds it present.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::jetstream::{self, consumer};
use futures::{FutureExt, StreamExt};
use kifu_ledger::Record;
use kifu_store::{ImportReport, Store, StoreError};

use crate::consumer::game_history;
use crate::verify::Verifier;
use crate::{connect, nats_error, Failures, NatsError};

/// How the mirror runs.
#[derive(Debug, Clone)]
pub struct MirrorConfig {
    /// NATS server URL(s), comma-separated.
    pub url: String,
    /// The stream.
    pub stream: String,
    /// The durable consumer's name (one per mirror).
    pub durable: String,
    /// Records imported per batch at most.
    pub batch: usize,
    /// How long to wait after NATS failed before starting over, doubled
    /// for each session in a row that stored nothing, up to ten times this
    /// (and how soon a batch that could not be stored is delivered again).
    pub retry_after: Duration,
    /// Keep each record's cursor at the server that published it
    /// (`Kifu-Cursor`), by hash, in the store
    /// ([`Store::note_venue_cursors`]): a read replica's feed carries it.
    pub keep_venue_cursors: bool,
}

impl MirrorConfig {
    /// Defaults for `url`: stream `KIFU`, consumer `kifu-mirror`.
    pub fn new(url: impl Into<String>) -> Self {
        MirrorConfig {
            url: url.into(),
            stream: crate::DEFAULT_STREAM.into(),
            durable: "kifu-mirror".into(),
            batch: 1024,
            retry_after: Duration::from_millis(500),
            keep_venue_cursors: false,
        }
    }
}

/// What the mirror has done so far.
#[derive(Debug)]
pub struct MirrorStatus {
    /// The store's next feed cursor after each batch stored (every record
    /// below it is durable): a read replica's feed follows it.
    pub stored: tokio::sync::watch::Sender<u64>,
    /// Records written to the store.
    pub written: AtomicU64,
    /// Records delivered again and found already stored.
    pub already_present: AtomicU64,
    /// Records refused (failed verification, fork); see `last_refusal`.
    pub refused: AtomicU64,
    /// Stream sequence of the last acknowledged message.
    pub acked_stream_seq: AtomicU64,
    /// The last refusal.
    pub last_refusal: Mutex<Option<String>>,
    /// Times NATS failed and the mirror started over; the last one is cleared
    /// by the next batch stored.
    pub failures: Failures,
}

impl Default for MirrorStatus {
    fn default() -> Self {
        MirrorStatus {
            stored: tokio::sync::watch::Sender::new(0),
            written: AtomicU64::default(),
            already_present: AtomicU64::default(),
            refused: AtomicU64::default(),
            acked_stream_seq: AtomicU64::default(),
            last_refusal: Mutex::default(),
            failures: Failures::default(),
        }
    }
}

impl MirrorStatus {
    fn refuse(&self, what: String) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut l) = self.last_refusal.lock() {
            *l = Some(what);
        }
    }
}

/// How long the mirror waits for a message before it asks its consumer
/// whether anything waits.
const STALL_CHECK: Duration = Duration::from_secs(5);

/// Runs the mirror until `shutdown` completes.
pub async fn run_mirror(
    store: Arc<Store>,
    config: MirrorConfig,
    status: Arc<MirrorStatus>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), NatsError> {
    if let Ok(next) = store.next_cursor() {
        status.stored.send_replace(next);
    }
    tokio::select! {
        r = mirror_loop(store, config, status) => r,
        _ = shutdown => Ok(()),
    }
}

async fn mirror_loop(
    store: Arc<Store>,
    config: MirrorConfig,
    status: Arc<MirrorStatus>,
) -> Result<(), NatsError> {
    let client = connect(&config.url, "kifu-mirror").await?;
    let js = jetstream::new(client);
    // A failure of NATS (the stream not there yet, a leader being elected,
    // a node restarting, a history read timing out) is waited out: the
    // mirror says what failed and starts over from its durable consumer.
    // Only a failure of the store itself ends it.
    //
    // Every failure is counted (a repeated one too); the pause before
    // starting over doubles with each session that stored nothing, up to
    // ten times `retry_after`.
    let mut idle_sessions = 0u32;
    loop {
        let written_before = status.acked_stream_seq.load(Ordering::Relaxed);
        let e = mirror_session(&js, &store, &config, &status).await;
        if !e.is_transient() && !matches!(e, NatsError::NoStream(_)) {
            return Err(e);
        }
        status.failures.fail(&e);
        if status.acked_stream_seq.load(Ordering::Relaxed) != written_before {
            idle_sessions = 0;
        }
        let pause = config
            .retry_after
            .saturating_mul(1u32 << idle_sessions.min(4))
            .min(config.retry_after.saturating_mul(10));
        idle_sessions += 1;
        tokio::time::sleep(pause).await;
    }
}

/// Reads the stream into the store until something fails; returns what.
async fn mirror_session(
    js: &jetstream::Context,
    store: &Arc<Store>,
    config: &MirrorConfig,
    status: &MirrorStatus,
) -> NatsError {
    let stream = match crate::get_stream(js, &config.stream).await {
        Ok(s) => s,
        // The publishers create the stream: it is waited for.
        Err(e) => return e,
    };
    let cfg = consumer::pull::Config {
        durable_name: Some(config.durable.clone()),
        deliver_policy: consumer::DeliverPolicy::All,
        ack_policy: consumer::AckPolicy::Explicit,
        filter_subject: crate::subject::STREAM_SUBJECTS.to_string(),
        max_ack_pending: (config.batch.max(1) * 4) as i64,
        ..Default::default()
    };
    let mut c: consumer::PullConsumer =
        match stream.get_or_create_consumer(&config.durable, cfg).await {
            Ok(c) => c,
            Err(e) => return nats_error(format!("consumer {}: {e}", config.durable)),
        };
    let mut messages = match c.messages().await {
        Ok(m) => m,
        Err(e) => return nats_error(e),
    };
    // Reading again: a failure that ended the last session is over (a
    // mirror that has caught up may have nothing to store to say so).
    status.failures.clear();
    loop {
        // A consumer whose leader was lost can leave the pull requests
        // already sent unanswered, with no error: when nothing comes for a
        // while, the consumer is asked what waits; if anything does (or it
        // does not answer), the session starts over with fresh requests.
        let next = match tokio::time::timeout(STALL_CHECK, messages.next()).await {
            Ok(n) => n,
            Err(_) => match tokio::time::timeout(STALL_CHECK, c.info()).await {
                Ok(Ok(info)) if info.num_pending == 0 => {
                    // Caught up, and the consumer answers: well.
                    status.failures.clear();
                    continue;
                }
                Ok(Ok(info)) => {
                    return nats_error(format!(
                        "nothing delivered for {} s while {} messages wait: reading again",
                        STALL_CHECK.as_secs(),
                        info.num_pending
                    ))
                }
                Ok(Err(e)) => return nats_error(format!("consumer {}: {e}", config.durable)),
                Err(_) => {
                    return nats_error(format!(
                        "consumer {}: no answer within {} s",
                        config.durable,
                        STALL_CHECK.as_secs()
                    ))
                }
            },
        };
        let first = match next {
            Some(Ok(m)) => m,
            Some(Err(e)) => {
                // Pull requests fail while the cluster elects a leader; the
                // stream of messages recovers by itself.
                status.failures.fail(&nats_error(e));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            None => return nats_error("the mirror's message stream ended"),
        };
        let mut batch = vec![first];
        while batch.len() < config.batch.max(1) {
            match messages.next().now_or_never() {
                Some(Some(Ok(m))) => batch.push(m),
                _ => break,
            }
        }
        let mut records: Vec<(u64, Record)> = Vec::with_capacity(batch.len());
        let mut venue_cursors = Vec::new();
        let mut last_seq = 0;
        for m in &batch {
            let sseq = m.info().map(|i| i.stream_sequence).unwrap_or(0);
            last_seq = last_seq.max(sseq);
            match Record::from_stored(&m.payload) {
                Ok(r) => {
                    if let Some(c) = crate::consumer::header_u64(m, crate::subject::HEADER_CURSOR) {
                        venue_cursors.push((r.hash(), c));
                    }
                    records.push((sseq, r))
                }
                Err(e) => status.refuse(format!("stream message {sseq}: {e}")),
            }
        }
        // Noted before the records are stored, so that a reader of the
        // store finds a record's venue cursor as soon as the record.
        if config.keep_venue_cursors && !venue_cursors.is_empty() {
            let s = store.clone();
            if let Err(e) = blocking(move || s.note_venue_cursors(&venue_cursors)).await {
                return e;
            }
        }
        let imported = import(store, &stream, records, status).await;
        if let Ok(next) = store.next_cursor() {
            status.stored.send_replace(next);
        }
        if let Err(e) = imported {
            // Not stored, or not all of it: the batch comes again soon (what
            // was stored is then found present).
            for m in &batch {
                let _ = m
                    .ack_with(jetstream::AckKind::Nak(Some(config.retry_after)))
                    .await;
            }
            return e;
        }
        status.failures.clear();
        // Each message is acknowledged (only after the import is durable):
        // one acknowledging everything before it could cover messages
        // delivered to an earlier mirror process that died before storing them.
        let mut all_acked = true;
        for m in &batch {
            all_acked &= m.ack().await.is_ok();
        }
        if all_acked {
            status.acked_stream_seq.store(last_seq, Ordering::Relaxed);
        }
    }
}

/// Writes records received from the stream into the store: records already
/// stored (identical) are counted and skipped, the rest are appended in one
/// durable batch, each checked against its chain as stored so far (a batch
/// may continue a game begun in an earlier one, which an archive import
/// would refuse as incomplete).
///
/// Another writer of the same store (a mirror process's import still running
/// on a blocking thread when the next one starts) can store some of the
/// records between the look-up and the append, which then fails as a
/// conflict: the records are looked up again and the rest appended, for as
/// long as each look-up finds fewer records left to write. A record that
/// really conflicts with the stored chain fails once nothing else moves.
fn import_records(store: &Store, records: &[Record]) -> Result<ImportReport, StoreError> {
    let mut conflict: Option<(usize, StoreError)> = None;
    loop {
        let mut out = ImportReport::default();
        let mut fresh = Vec::with_capacity(records.len());
        let mut games = std::collections::HashSet::new();
        for r in records {
            let h = r.header()?;
            let game = if h.seq == 0 { r.hash() } else { h.chain };
            match store.get(&game, h.seq)? {
                Some(stored) if &stored == r => out.already_present += 1,
                _ => {
                    if !fresh.contains(r) {
                        games.insert(game);
                        fresh.push(r.clone());
                    }
                }
            }
        }
        if fresh.is_empty() {
            return Ok(out);
        }
        if let Some((left, e)) = conflict.take() {
            if fresh.len() >= left {
                return Err(e);
            }
        }
        let left = fresh.len();
        match store.append_batch(fresh) {
            Ok(written) => {
                out.written = written.len() as u64;
                out.games = games.len();
                return Ok(out);
            }
            Err(e @ StoreError::Ledger(kifu_ledger::LedgerError::Conflict { .. })) => {
                conflict = Some((left, e));
            }
            Err(e) => return Err(e),
        }
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, NatsError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| NatsError::Damaged(format!("store task: {e}")))?
        .map_err(NatsError::from)
}

/// Imports a batch; a batch the store refuses is imported record by record
/// so that one bad record is refused alone.
async fn import(
    store: &Arc<Store>,
    stream: &jetstream::stream::Stream,
    records: Vec<(u64, Record)>,
    status: &MirrorStatus,
) -> Result<(), NatsError> {
    if records.is_empty() {
        return Ok(());
    }
    let all: Vec<Record> = records.iter().map(|(_, r)| r.clone()).collect();
    let s = store.clone();
    match blocking(move || import_records(&s, &all)).await {
        Ok(rep) => {
            status.written.fetch_add(rep.written, Ordering::Relaxed);
            status
                .already_present
                .fetch_add(rep.already_present, Ordering::Relaxed);
            return Ok(());
        }
        Err(NatsError::Store(StoreError::Io(e))) => return Err(StoreError::Io(e).into()),
        Err(NatsError::Store(StoreError::Sled(e))) => return Err(StoreError::Sled(e).into()),
        Err(_) => {}
    }
    for (sseq, r) in records {
        let one = vec![r.clone()];
        let s = store.clone();
        match blocking(move || import_records(&s, &one)).await {
            Ok(rep) => {
                status.written.fetch_add(rep.written, Ordering::Relaxed);
                status
                    .already_present
                    .fetch_add(rep.already_present, Ordering::Relaxed);
            }
            Err(NatsError::Store(e @ (StoreError::Io(_) | StoreError::Sled(_)))) => {
                return Err(e.into())
            }
            Err(e) if ahead_of_store(store, &r) => {
                // A game this store has not seen from its start, or a record
                // ahead of its head (its predecessors were delivered to a
                // mirror process that died, and come again later): take the
                // game's history from the stream, verified by the same import.
                let _ = e;
                let count = |retry: &crate::Retry<'_>| status.failures.fail(retry.error);
                let history = match Verifier::place(&r) {
                    Ok((game, _)) => game_history(stream, &game, sseq, &count).await,
                    Err(e) => Err(e.into()),
                };
                let mut history: Vec<Record> = match history {
                    Ok(h) => h.into_iter().map(|(_, r)| r).collect(),
                    // NATS failed: the caller has the batch delivered again.
                    Err(e @ NatsError::Nats(_)) => return Err(e),
                    Err(e) => {
                        status.refuse(format!("stream message {sseq}: {e}"));
                        continue;
                    }
                };
                history.push(r);
                let s = store.clone();
                match blocking(move || import_records(&s, &history)).await {
                    Ok(rep) => {
                        status.written.fetch_add(rep.written, Ordering::Relaxed);
                        status
                            .already_present
                            .fetch_add(rep.already_present, Ordering::Relaxed);
                    }
                    Err(e) => status.refuse(format!("stream message {sseq}: {e}")),
                }
            }
            Err(e) => status.refuse(format!("stream message {sseq}: {e}")),
        }
    }
    Ok(())
}

/// True when `record` belongs after records this store does not hold yet.
fn ahead_of_store(store: &Store, record: &Record) -> bool {
    let Ok((game, seq)) = Verifier::place(record) else {
        return false;
    };
    match store.head(&game) {
        Ok(None) => seq > 0,
        Ok(Some(h)) => seq > h.seq + 1,
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{moves_game, Cast};

    /// Another writer stores the same game record by record while a
    /// history is imported: the import never fails, and the store ends
    /// with the game once (each conflict is met by looking up again).
    #[test]
    fn an_import_racing_another_writer_of_the_same_records_completes() {
        let cast = Cast::new();
        for round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let store = Arc::new(Store::open(dir.path()).unwrap());
            let g = moves_game(&cast, &format!("race {round}"), 30);
            store.append(g.records[0].clone()).unwrap();
            let other = {
                let store = store.clone();
                let records = g.records.clone();
                std::thread::spawn(move || {
                    for r in &records[1..] {
                        store.append(r.clone()).unwrap();
                    }
                })
            };
            let report = import_records(&store, &g.records);
            other.join().unwrap();
            let report = report.unwrap_or_else(|e| panic!("round {round}: {e}"));
            assert_eq!(
                report.written + report.already_present,
                g.records.len() as u64,
                "round {round}"
            );
            assert_eq!(store.read(&g.game, 0, None).unwrap(), g.records);
        }
    }

    /// A record that differs from the stored one at its place fails.
    #[test]
    fn a_record_conflicting_with_the_stored_chain_fails() {
        let cast = Cast::new();
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let g = moves_game(&cast, "fork", 4);
        store.append_batch(g.records.clone()).unwrap();
        let mut fork = kifu_ledger::testkit::ChainBuilder::start(
            &cast.referee,
            cast.genesis("fork"),
            1_767_225_600_000,
        );
        assert_eq!(fork.game, g.game);
        let other = fork
            .push(
                &cast.recorder,
                kifu_ledger::Body::ClockPressed {
                    player: kifu_ledger::Color::White,
                },
            )
            .clone();
        assert_ne!(other, g.records[1]);
        let e = import_records(&store, &[g.records[0].clone(), other]).unwrap_err();
        assert!(
            matches!(
                e,
                StoreError::Ledger(kifu_ledger::LedgerError::Conflict { .. })
            ),
            "{e}"
        );
    }
}
