//! `kifu serve --nats`: the publisher beside the server. The stream is
//! checked before the server listens (one it cannot use is refused, as
//! `kifu publish` refuses it); while it runs, the publisher's health joins
//! `/healthz` (503, `"status": "degraded"` while publishing fails), its
//! counters and backlog `/metrics`, and the log says why publishing fails,
//! again and again while it does, with the backlog's size.

use std::sync::Arc;
use std::time::Duration;

use kifu_nats::{NatsError, PublisherConfig, PublisherStatus};
use kifu_server::{Outlet, OutletHealth, Server};
use kifu_store::Store;

use crate::Failure;

/// How long the check before serving waits for NATS.
const CHECK_WAIT: Duration = Duration::from_secs(5);

/// Checks the stream before serving: a stream configured otherwise
/// (replicas, subjects) refuses the start; a NATS that does not answer yet
/// is said, and the server starts (it publishes once NATS answers).
pub fn check(config: &PublisherConfig) -> Result<(), Failure> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the async runtime: {e}")))?;
    match rt.block_on(kifu_nats::publisher::check_stream(config, CHECK_WAIT)) {
        Ok(()) => Ok(()),
        Err(e @ NatsError::StreamConfig { .. }) => Err(Failure::new(format!(
            "kifu serve: cannot publish to NATS at {}: {e}",
            config.url
        ))),
        Err(e) => {
            eprintln!(
                "kifu serve: NATS at {} is not usable yet ({e}); serving, and publishing once it is",
                config.url
            );
            Ok(())
        }
    }
}

/// A NATS task running beside the server (the publisher, or a replica's
/// mirror) and its failures' watcher: stop it with [`Running::stop`].
pub struct Running {
    pub(crate) stop: Arc<tokio::sync::Notify>,
    pub(crate) task: tokio::task::JoinHandle<Result<(), NatsError>>,
    pub(crate) watch: tokio::task::JoinHandle<()>,
}

/// Starts the publisher beside `server`, reporting to its `/healthz` and
/// `/metrics` and to standard error.
pub fn start(mut config: PublisherConfig, store: Arc<Store>, server: &Server) -> Running {
    // Woken by the writer's durable cursor, as the feed is; the poll is
    // only a safety net then.
    config.wake = Some(server.app().ingest.published());
    config.idle_poll = Duration::from_secs(1);
    let status = Arc::new(PublisherStatus::new());
    server.add_outlet(Arc::new(NatsOutlet {
        status: status.clone(),
        store: store.clone(),
        url: config.url.clone(),
        stream: config.stream.clone(),
    }));
    let stop = Arc::new(tokio::sync::Notify::new());
    let stopped = stop.clone();
    let (st, waiting) = (status.clone(), store.clone());
    let task = tokio::spawn(async move {
        let r = kifu_nats::run_publisher_with_status(store, config, st, async move {
            stopped.notified().await
        })
        .await;
        if let Err(e) = &r {
            // The server goes on: records wait in the store, /healthz says
            // degraded with this reason.
            eprintln!(
                "kifu serve: the NATS publisher stopped: {e}; records wait in the store until the server is restarted with a stream it can use"
            );
        }
        r
    });
    let watch = say_failures(move |said| {
        let backlog = status.backlog(&waiting);
        said.line(&status.failures, "publishing to NATS", Some(backlog))
    });
    Running { stop, task, watch }
}

/// Says on standard error, every half second, what `line` finds to say of
/// a NATS task's failures (`kifu_nats::Said`).
pub(crate) fn say_failures(
    mut line: impl FnMut(&mut kifu_nats::Said) -> Option<String> + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut said = kifu_nats::Said::default();
        loop {
            if let Some(l) = line(&mut said) {
                eprintln!("kifu serve: {l}");
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    })
}

impl Running {
    /// Stops the task (the publisher: what it has in flight is finished or
    /// dropped, the next start resumes from the cursor kept in the store;
    /// a replica's mirror: a batch not yet acknowledged comes again at the
    /// next start and is found stored).
    pub async fn stop(self) {
        self.stop.notify_one();
        let _ = self.task.await;
        self.watch.abort();
    }
}

/// The publisher as the server's outlet.
struct NatsOutlet {
    status: Arc<PublisherStatus>,
    store: Arc<Store>,
    url: String,
    stream: String,
}

impl Outlet for NatsOutlet {
    fn name(&self) -> &'static str {
        "nats"
    }

    fn health(&self) -> OutletHealth {
        let error = self.status.failures.now();
        let next = self
            .status
            .next_cursor
            .load(std::sync::atomic::Ordering::Relaxed);
        OutletHealth {
            ok: error.is_none(),
            detail: serde_json::to_value(kifu_server::answers::NatsHealth {
                publishing: error.is_none(),
                url: self.url.clone(),
                stream: self.stream.clone(),
                next_cursor: next,
                backlog: self.status.backlog(&self.store),
                failures: self.status.failures.count(),
                error,
            })
            .unwrap_or_default(),
        }
    }

    fn metrics(&self) -> String {
        self.status.prometheus(&self.store)
    }
}
