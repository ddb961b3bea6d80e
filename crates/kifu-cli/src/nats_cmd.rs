//! `kifu publish`, `kifu mirror` and `kifu feed --nats`: the feed on NATS
//! JetStream (library: kifu-nats).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use kifu_nats::{
    ConsumerConfig, FeedConsumer, Filter, MirrorConfig, MirrorStatus, PublisherConfig,
    PublisherStatus, Start,
};

use crate::store_open::open;
use crate::{CmdResult, Failure};
use kifu_game::document::feed_line_text;

/// `kifu feed --nats URL ...`.
#[derive(Debug, Args, Default)]
pub struct FeedNatsArgs {
    /// Read the feed from this NATS server (`nats://HOST:PORT`, several
    /// separated by commas), verifying every record.
    #[arg(long, value_name = "URL", conflicts_with = "after")]
    pub nats: Option<String>,
    /// With --nats: the JetStream stream.
    #[arg(long, default_value = kifu_nats::DEFAULT_STREAM, requires = "nats")]
    pub nats_stream: String,
    /// With --nats: only this game (its full id in hex).
    #[arg(long, requires = "nats", conflicts_with = "tournament")]
    pub game: Option<String>,
    /// With --nats: only the games of this tournament (its name).
    #[arg(long, requires = "nats")]
    pub tournament: Option<String>,
    /// With --nats: everything in the stream, then stop (with --follow, go
    /// on). Default: only records published from now on, following; a new
    /// --durable starts from the beginning.
    #[arg(long, requires = "nats", conflicts_with = "durable")]
    pub from_start: bool,
    /// With --nats: a durable consumer of this name. Created the first time
    /// to start from the beginning of the stream; then it resumes after the
    /// last record it printed. Stops once caught up (with --follow, goes on).
    #[arg(long, requires = "nats")]
    pub durable: Option<String>,
}

/// `kifu publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// The NATS server (`nats://HOST:PORT`, several separated by commas).
    #[arg(long, value_name = "URL")]
    pub nats: String,
    /// The JetStream stream (created when missing).
    #[arg(long, default_value = kifu_nats::DEFAULT_STREAM)]
    pub nats_stream: String,
    /// Replicas of the stream (1, or 3 in a cluster of three or more); an
    /// existing stream with another count is refused.
    #[arg(long = "nats-replicas", alias = "replicas", default_value_t = 1)]
    pub replicas: usize,
}

/// `kifu mirror`.
#[derive(Debug, Args)]
pub struct MirrorArgs {
    /// The NATS server (`nats://HOST:PORT`, several separated by commas).
    #[arg(long, value_name = "URL")]
    pub nats: String,
    /// The JetStream stream.
    #[arg(long, default_value = kifu_nats::DEFAULT_STREAM)]
    pub nats_stream: String,
    /// The mirror's durable consumer name (one per mirror).
    #[arg(long, default_value = "kifu-mirror")]
    pub durable: String,
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the async runtime: {e}")))
}

/// Completes on Ctrl-C or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// `kifu publish --nats URL`: publishes the store's feed until stopped,
/// printing a line whenever the published cursor moves or publishing fails.
pub fn publish(data: &Path, a: PublishArgs) -> CmdResult {
    let store = Arc::new(open(data)?);
    let mut config = PublisherConfig::new(a.nats.clone());
    config.stream = a.nats_stream.clone();
    config.replicas = a.replicas.max(1);
    let status = Arc::new(PublisherStatus::new());
    let rt = runtime()?;
    rt.block_on(async {
        let st = status.clone();
        let waiting = store.clone();
        let reporter = tokio::spawn(async move {
            let mut last_next = None;
            let mut said = kifu_nats::Said::default();
            loop {
                let backlog = st.backlog(&waiting);
                if let Some(l) = said.line(&st.failures, "publishing", Some(backlog)) {
                    eprintln!("kifu: {l}");
                }
                if let Some(from) = st.resumed_from() {
                    if last_next.is_none() {
                        match from {
                            0 => say!("publishing from the first record (cursor 0)"),
                            n => say!("resuming after cursor {}", n - 1),
                        }
                        last_next = Some(from);
                    }
                    let next = st.next_cursor.load(Ordering::Relaxed);
                    if last_next != Some(next) {
                        say!(
                            "published up to cursor {next} ({} new, {} repeats dropped by the stream)",
                            st.published.load(Ordering::Relaxed),
                            st.duplicates.load(Ordering::Relaxed)
                        );
                        last_next = Some(next);
                    }
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        let r = kifu_nats::run_publisher_with_status(store, config, status, stop_signal()).await;
        reporter.abort();
        r
    })
    .map_err(|e| Failure::new(e.to_string()))
}

/// `kifu mirror --nats URL`: copies the stream into this store until stopped.
pub fn mirror(data: &Path, a: MirrorArgs) -> CmdResult {
    let store = Arc::new(open(data)?);
    let mut config = MirrorConfig::new(a.nats.clone());
    config.stream = a.nats_stream.clone();
    config.durable = a.durable.clone();
    let status = Arc::new(MirrorStatus::default());
    let rt = runtime()?;
    rt.block_on(async {
        let st = status.clone();
        let reporter = tokio::spawn(async move {
            let mut last = (u64::MAX, u64::MAX);
            let mut said = kifu_nats::Said::default();
            loop {
                if let Some(l) = said.line(&st.failures, "mirroring", None) {
                    eprintln!("kifu: {l}");
                }
                let now = (
                    st.acked_stream_seq.load(Ordering::Relaxed),
                    st.refused.load(Ordering::Relaxed),
                );
                if now != last {
                    say!(
                        "mirrored to stream message {}: {} written, {} already present, {} refused",
                        now.0,
                        st.written.load(Ordering::Relaxed),
                        st.already_present.load(Ordering::Relaxed),
                        now.1
                    );
                    if now.1 != last.1 {
                        if let Some(r) = st.last_refusal.lock().ok().and_then(|l| l.clone()) {
                            eprintln!("kifu: refused: {}", r.replace('\n', " "));
                        }
                    }
                    last = now;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        let r = kifu_nats::run_mirror(store, config, status, stop_signal()).await;
        reporter.abort();
        r
    })
    .map_err(|e| Failure::new(e.to_string()))
}

/// `kifu feed --nats URL`: the stream as the same NDJSON as the local feed,
/// each record verified first, with its `stream_seq` added, at most `limit`
/// of them. Without `follow` it stops once it has caught up with the stream.
pub fn feed(n: FeedNatsArgs, limit: Option<u64>, follow: bool) -> CmdResult {
    let url = n.nats.clone().unwrap_or_default();
    let filter = match (&n.game, &n.tournament) {
        (Some(g), _) => {
            let bytes = hex::decode(g.trim())
                .ok()
                .and_then(|b| <[u8; 32]>::try_from(b).ok())
                .ok_or_else(|| {
                    Failure::new(format!(
                        "--game wants a full game id (64 hex digits), not '{g}'"
                    ))
                })?;
            Filter::Game(bytes)
        }
        (None, Some(t)) => Filter::Tournament(t.clone()),
        (None, None) => Filter::All,
    };
    let start = match (&n.durable, n.from_start) {
        (Some(d), _) => Start::Durable(d.clone()),
        (None, true) => Start::FromStart,
        (None, false) => Start::New,
    };
    let config = ConsumerConfig {
        url,
        stream: n.nats_stream.clone(),
        filter,
        start,
    };
    let limit = limit.unwrap_or(u64::MAX);
    let follow = follow || matches!(config.start, Start::New);
    let rt = runtime()?;
    rt.block_on(async move {
        // Each retry (a consumer placed on a lost node, a leader being
        // elected) is said on standard error; standard output holds only
        // records.
        let tell: kifu_nats::OnRetry = Arc::new(|r: &kifu_nats::Retry<'_>| {
            eprintln!("kifu: NATS: {}", r.to_string().replace('\n', " "));
        });
        let mut c = tokio::time::timeout(
            Duration::from_secs(120),
            FeedConsumer::connect_reporting(&config, tell),
        )
        .await
        .map_err(|_| Failure::new(format!("no answer from NATS at {}", config.url)))?
        .map_err(|e| Failure::new(e.to_string()))?;
        if limit < u64::MAX {
            c.set_limit(limit);
        }
        let mut printed = 0u64;
        let mut problems = 0u64;
        let stdout = std::io::stdout();
        while printed < limit {
            let read = async {
                if follow {
                    c.next().await.map(Some)
                } else {
                    c.next_until_caught_up().await
                }
            };
            let next = tokio::select! {
                n = read => n,
                _ = stop_signal() => break,
            };
            match next {
                Ok(None) => break,
                Ok(Some(d)) => {
                    // A message that does not carry the publisher's cursor
                    // (a publisher that did not name it) is at cursor 0.
                    let line = feed_line_text(
                        &d.game,
                        &d.record,
                        d.cursor.unwrap_or(0),
                        None,
                        Some(d.stream_seq),
                    );
                    {
                        let mut out = stdout.lock();
                        if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
                            return Ok(());
                        }
                    }
                    c.ack(&d).await.map_err(|e| Failure::new(e.to_string()))?;
                    printed += 1;
                }
                Err(kifu_nats::NatsError::BadMessage { stream_seq, what }) => {
                    problems += 1;
                    eprintln!("kifu: refused stream message {stream_seq}: {what}");
                }
                Err(e) => return Err(Failure::new(e.to_string())),
            }
        }
        c.finish().await.map_err(|e| Failure::new(e.to_string()))?;
        if problems > 0 {
            return Err(Failure {
                message: format!("{problems} stream messages failed verification"),
                code: 3,
            });
        }
        Ok(())
    })
}
