//! `kifu serve --replica-of URL`: a read replica. The mirror of
//! `kifu mirror` fills the data directory from the stream (every record
//! verified, each one's venue cursor kept); the server serves what it holds
//! and refuses writes (421, naming `--venue`). The mirror's health joins
//! `/healthz`, its counters `/metrics`, and the log says why mirroring
//! fails, again and again while it does.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use kifu_nats::{MirrorConfig, MirrorStatus};
use kifu_server::replica::Replica;
use kifu_server::{Outlet, OutletHealth, Server};
use kifu_store::{Store, StoreError};

/// Where the replica's durable consumer name is kept in its store.
const DURABLE_KEY: &str = "replica/durable";

/// A replica about to serve: the server's side and the mirror's.
pub struct Prepared {
    /// What the server is told.
    pub replica: Replica,
    config: MirrorConfig,
    status: Arc<MirrorStatus>,
}

/// The replica's configuration; its durable consumer's name is `durable`,
/// else the one kept in the store, else a new one (kept).
pub fn prepare(
    url: &str,
    stream: &str,
    venue: Option<String>,
    durable: Option<String>,
    store: &Store,
) -> Result<Prepared, StoreError> {
    let durable = match durable {
        Some(d) => d,
        None => match store.get_value(DURABLE_KEY)? {
            Some(d) => String::from_utf8_lossy(&d).into_owned(),
            None => {
                // One consumer per replica: several replicas sharing one
                // would each get part of the stream.
                let mut h = std::collections::hash_map::RandomState::new().build_hasher();
                h.write(store.path().to_string_lossy().as_bytes());
                h.write_u128(
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_nanos())
                        .unwrap_or(0),
                );
                let d = format!("kifu-replica-{:016x}", h.finish());
                store.put_value_durable(DURABLE_KEY, d.as_bytes())?;
                d
            }
        },
    };
    let mut config = MirrorConfig::new(url);
    config.stream = stream.to_string();
    config.durable = durable;
    config.keep_venue_cursors = true;
    let status = Arc::new(MirrorStatus::default());
    status.stored.send_replace(store.next_cursor()?);
    Ok(Prepared {
        replica: Replica {
            source: format!("{url} (stream {stream})"),
            venue,
            stored: status.stored.subscribe(),
        },
        config,
        status,
    })
}

pub use crate::serve_nats::Running;

impl Prepared {
    /// Starts the mirror into `store` beside `server`.
    pub fn start(self, store: Arc<Store>, server: &Server) -> Running {
        let Prepared { config, status, .. } = self;
        say!(
            "replica of {} (stream {}, consumer {})",
            config.url,
            config.stream,
            config.durable
        );
        server.add_outlet(Arc::new(MirrorOutlet {
            status: status.clone(),
            url: config.url.clone(),
            stream: config.stream.clone(),
            durable: config.durable.clone(),
        }));
        let stop = Arc::new(tokio::sync::Notify::new());
        let stopped = stop.clone();
        let st = status.clone();
        let task = tokio::spawn(async move {
            let r =
                kifu_nats::run_mirror(store, config, st, async move { stopped.notified().await })
                    .await;
            if let Err(e) = &r {
                // The server goes on serving what it holds; /healthz says
                // degraded with this reason.
                eprintln!("kifu serve: the replica's mirror stopped: {e}; serving what is stored");
            }
            r
        });
        let watch = crate::serve_nats::say_failures(move |said| {
            said.line(&status.failures, "mirroring from NATS", None)
        });
        Running { stop, task, watch }
    }
}

/// The mirror as the server's outlet.
struct MirrorOutlet {
    status: Arc<MirrorStatus>,
    url: String,
    stream: String,
    durable: String,
}

impl Outlet for MirrorOutlet {
    fn name(&self) -> &'static str {
        "mirror"
    }

    fn health(&self) -> OutletHealth {
        let error = self.status.failures.now();
        let s = &self.status;
        OutletHealth {
            ok: error.is_none(),
            detail: serde_json::to_value(kifu_server::answers::MirrorHealth {
                mirroring: error.is_none(),
                url: self.url.clone(),
                stream: self.stream.clone(),
                durable: self.durable.clone(),
                written: s.written.load(Ordering::Relaxed),
                already_present: s.already_present.load(Ordering::Relaxed),
                refused: s.refused.load(Ordering::Relaxed),
                last_refusal: s.last_refusal.lock().ok().and_then(|l| l.clone()),
                acked_stream_seq: s.acked_stream_seq.load(Ordering::Relaxed),
                failures: s.failures.count(),
                error,
            })
            .unwrap_or_default(),
        }
    }

    fn metrics(&self) -> String {
        let s = &self.status;
        let get = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
        format!(
            "# HELP kifu_replica_records_total Records the replica's mirror took from the stream, by outcome.\n# TYPE kifu_replica_records_total counter\nkifu_replica_records_total{{outcome=\"written\"}} {}\nkifu_replica_records_total{{outcome=\"already_present\"}} {}\nkifu_replica_records_total{{outcome=\"refused\"}} {}\n# HELP kifu_replica_acked_stream_seq The stream sequence of the last message the replica stored and acknowledged.\n# TYPE kifu_replica_acked_stream_seq gauge\nkifu_replica_acked_stream_seq {}\n# HELP kifu_replica_mirroring 1 while the replica's mirror reads the stream without failing.\n# TYPE kifu_replica_mirroring gauge\nkifu_replica_mirroring {}\n",
            get(&s.written),
            get(&s.already_present),
            get(&s.refused),
            get(&s.acked_stream_seq),
            u8::from(s.failures.now().is_none()),
        )
    }
}
