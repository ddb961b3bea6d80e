//! Counters and histograms, rendered in the Prometheus text format.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A histogram with fixed upper bounds (cumulative when rendered).
#[derive(Debug)]
pub struct Histogram {
    bounds: &'static [f64],
    counts: Vec<AtomicU64>,
    /// Sum of observations, in millionths of the unit.
    sum_micro: AtomicU64,
    count: AtomicU64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            counts: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(),
            sum_micro: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }

    /// Records one observation.
    pub fn observe(&self, v: f64) {
        let i = self
            .bounds
            .iter()
            .position(|b| v <= *b)
            .unwrap_or(self.bounds.len());
        self.counts[i].fetch_add(1, Ordering::Relaxed);
        self.sum_micro
            .fetch_add((v * 1e6).max(0.0) as u64, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// Records a duration in seconds.
    pub fn observe_duration(&self, d: Duration) {
        self.observe(d.as_secs_f64());
    }

    /// (upper bound, observations in this bucket alone), the last bucket
    /// unbounded (`f64::INFINITY`).
    pub fn buckets(&self) -> Vec<(f64, u64)> {
        self.bounds
            .iter()
            .copied()
            .chain(std::iter::once(f64::INFINITY))
            .zip(self.counts.iter().map(|c| c.load(Ordering::Relaxed)))
            .collect()
    }

    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Sum of observations.
    pub fn sum(&self) -> f64 {
        self.sum_micro.load(Ordering::Relaxed) as f64 / 1e6
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, n) in self.buckets() {
            cumulative += n;
            let le = if bound.is_infinite() {
                "+Inf".to_string()
            } else {
                format!("{bound}")
            };
            let _ = writeln!(out, "{name}_bucket{{le=\"{le}\"}} {cumulative}");
        }
        let _ = writeln!(out, "{name}_sum {}", self.sum());
        let _ = writeln!(out, "{name}_count {}", self.count());
    }
}

const BATCH_BOUNDS: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0,
];
const SECONDS_BOUNDS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
];

/// Everything the server counts.
#[derive(Debug)]
pub struct Metrics {
    /// Appends written (new records).
    pub appends_written: AtomicU64,
    /// Appends that were identical retries of stored records.
    pub appends_retried: AtomicU64,
    /// Appends refused (each with its reason).
    pub appends_refused: AtomicU64,
    /// Submissions turned away because the queue was full.
    pub queue_full: AtomicU64,
    /// Records waiting in the ingest queue now.
    pub queue_records: AtomicU64,
    /// Feed followers connected now (SSE streams and waiting long-polls).
    pub followers: AtomicU64,
    /// Records per batch taken by the writer.
    pub batch_records: Histogram,
    /// Time from a batch's commit to its records being on stable storage.
    pub sync_seconds: Histogram,
    /// Time to verify a batch's signatures.
    pub verify_seconds: Histogram,
    /// Time to place and commit a batch.
    pub commit_seconds: Histogram,
    /// Time from a submission entering the queue to its acknowledgement.
    pub ack_seconds: Histogram,
    /// Connections, streams, reads and writes held, and what was refused.
    pub fences: Fences,
}

/// The server's bounds at work: what is held now and what was refused or
/// closed (see [`crate::conn`] and [`crate::budget`]).
#[derive(Debug, Default)]
pub struct Fences {
    /// Connections open now.
    pub connections: AtomicU64,
    /// Streams (SSE followers and waiting long-polls) open now.
    pub streams: AtomicU64,
    /// Reads in flight now.
    pub reads: AtomicU64,
    /// Writes in flight now.
    pub writes: AtomicU64,
    /// Request bodies being received now (before any read or write place
    /// is taken).
    pub bodies: AtomicU64,
    /// Connections refused: the client held its share.
    pub refused_connections_per_client: AtomicU64,
    /// Connections refused: every connection was busy.
    pub refused_connections_full: AtomicU64,
    /// Streams refused: the client held its share.
    pub refused_streams_per_client: AtomicU64,
    /// Streams refused: the server's budget was spent.
    pub refused_streams_full: AtomicU64,
    /// Reads refused: the read budget was spent.
    pub refused_reads_full: AtomicU64,
    /// Writes refused: the write budget was spent.
    pub refused_writes_full: AtomicU64,
    /// Bodies refused: the client was already sending its share.
    pub refused_bodies_per_client: AtomicU64,
    /// Bodies refused: the server was receiving as many as it takes.
    pub refused_bodies_full: AtomicU64,
    /// Bodies refused for their size.
    pub body_too_large: AtomicU64,
    /// Bodies that did not arrive in time.
    pub body_timeout: AtomicU64,
    /// Writes refused by a read replica (421).
    pub refused_replica: AtomicU64,
    /// Idle connections closed to make room for a new one.
    pub evicted_idle: AtomicU64,
    /// Connections closed because the client did not read its answer.
    pub evicted_stalled: AtomicU64,
    /// TLS handshakes that failed or did not finish in time.
    pub tls_failed: AtomicU64,
    /// Connections following the venue's whole feed, served now by the
    /// threads of lower priority (`conn::Followers`).
    pub follower_connections: AtomicU64,
    /// Woken when the last write in flight has been answered: followers
    /// wait on it before they write, so that appends go first.
    pub writers_idle: tokio::sync::Notify,
    /// The same for the followers' own threads, which wait on it before
    /// each write to a socket ([`AppendsFirst`]).
    pub appends_first: AppendsFirst,
}

/// Where the threads that serve the followers wait, asleep, while appends
/// are in flight, before each write to a follower's socket (at most a
/// bound): a sleeping thread is not one the system can run instead of a
/// woken append's, and its write (the kernel's TCP work for it included)
/// comes after.
#[derive(Debug, Default)]
pub struct AppendsFirst {
    lock: std::sync::Mutex<()>,
    idle: std::sync::Condvar,
    /// Threads waiting now: the last write's answer wakes them only when
    /// there are any.
    waiting: AtomicU64,
    /// Waits that ended because the appends were done (not the bound).
    waited: AtomicU64,
}

impl AppendsFirst {
    /// Sleeps while `writes` (the writes in flight) is not 0, at most
    /// `bound`; returns at once when it is 0.
    pub fn wait(&self, writes: &AtomicU64, bound: Duration) {
        if bound.is_zero() || writes.load(Ordering::SeqCst) == 0 {
            return;
        }
        let until = std::time::Instant::now() + bound;
        let mut held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        self.waiting.fetch_add(1, Ordering::SeqCst);
        while writes.load(Ordering::SeqCst) != 0 {
            let Some(left) = until.checked_duration_since(std::time::Instant::now()) else {
                break;
            };
            held = match self.idle.wait_timeout(held, left) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        if writes.load(Ordering::Acquire) == 0 {
            self.waited.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The last write in flight was answered: wakes the waiting threads.
    pub fn done(&self) {
        if self.waiting.load(Ordering::SeqCst) != 0 {
            // Taken so that a thread between its check and its sleep is
            // not missed.
            drop(self.lock.lock().unwrap_or_else(|p| p.into_inner()));
            self.idle.notify_all();
        }
    }
}

impl Fences {
    fn render(&self, out: &mut String, limits: Option<&crate::Limits>) {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let _ = writeln!(out, "# HELP kifu_connections Connections open.\n# TYPE kifu_connections gauge\nkifu_connections {}", get(&self.connections));
        let _ = writeln!(out, "# HELP kifu_follower_writes_gave_way_total Writes to followers' sockets whose thread slept until the appends in flight were answered.\n# TYPE kifu_follower_writes_gave_way_total counter\nkifu_follower_writes_gave_way_total {}", get(&self.appends_first.waited));
        let _ = writeln!(out, "# HELP kifu_connections_followers Connections following the venue's whole feed, served by threads of lower scheduling priority than the appends'.\n# TYPE kifu_connections_followers gauge\nkifu_connections_followers {}", get(&self.follower_connections));
        let _ = writeln!(
            out,
            "# HELP kifu_in_flight Requests held now, by budget.\n# TYPE kifu_in_flight gauge"
        );
        for (k, v) in [
            ("streams", &self.streams),
            ("reads", &self.reads),
            ("writes", &self.writes),
            ("bodies", &self.bodies),
        ] {
            let _ = writeln!(out, "kifu_in_flight{{budget=\"{k}\"}} {}", get(v));
        }
        if let Some(l) = limits {
            let _ = writeln!(out, "# HELP kifu_budget The most requests held at once, by budget.\n# TYPE kifu_budget gauge");
            for (k, v) in [
                ("streams", l.max_streams),
                ("reads", l.max_reads),
                ("writes", l.max_writes),
                ("bodies", l.max_bodies),
                ("queue_records", l.queue_records),
            ] {
                let _ = writeln!(out, "kifu_budget{{budget=\"{k}\"}} {v}");
            }
        }
        let _ = writeln!(out, "# HELP kifu_refused_total Requests and connections answered at once with 413, 408, 421, 429 or 503, by reason.\n# TYPE kifu_refused_total counter");
        for (k, v) in [
            (
                "connections_per_client",
                &self.refused_connections_per_client,
            ),
            ("connections_full", &self.refused_connections_full),
            ("streams_per_client", &self.refused_streams_per_client),
            ("streams_full", &self.refused_streams_full),
            ("reads_full", &self.refused_reads_full),
            ("writes_full", &self.refused_writes_full),
            ("bodies_per_client", &self.refused_bodies_per_client),
            ("bodies_full", &self.refused_bodies_full),
            ("body_too_large", &self.body_too_large),
            ("body_timeout", &self.body_timeout),
            ("read_only_replica", &self.refused_replica),
        ] {
            let _ = writeln!(out, "kifu_refused_total{{reason=\"{k}\"}} {}", get(v));
        }
        let _ = writeln!(out, "# HELP kifu_connections_closed_total Connections the server closed, by reason.\n# TYPE kifu_connections_closed_total counter");
        for (k, v) in [
            ("idle_evicted", &self.evicted_idle),
            ("write_stalled", &self.evicted_stalled),
        ] {
            let _ = writeln!(
                out,
                "kifu_connections_closed_total{{reason=\"{k}\"}} {}",
                get(v)
            );
        }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            appends_written: AtomicU64::new(0),
            appends_retried: AtomicU64::new(0),
            appends_refused: AtomicU64::new(0),
            queue_full: AtomicU64::new(0),
            queue_records: AtomicU64::new(0),
            followers: AtomicU64::new(0),
            batch_records: Histogram::new(BATCH_BOUNDS),
            sync_seconds: Histogram::new(SECONDS_BOUNDS),
            verify_seconds: Histogram::new(SECONDS_BOUNDS),
            commit_seconds: Histogram::new(SECONDS_BOUNDS),
            ack_seconds: Histogram::new(SECONDS_BOUNDS),
            fences: Fences::default(),
        }
    }
}

impl Metrics {
    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        self.render_with(None)
    }

    /// The Prometheus text exposition, with the budgets `limits` sets.
    pub fn render_with(&self, limits: Option<&crate::Limits>) -> String {
        let mut out = String::new();
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "# HELP kifu_appends_total Appends by outcome.\n# TYPE kifu_appends_total counter"
        );
        for (outcome, v) in [
            ("written", get(&self.appends_written)),
            ("retry", get(&self.appends_retried)),
            ("refused", get(&self.appends_refused)),
        ] {
            let _ = writeln!(out, "kifu_appends_total{{outcome=\"{outcome}\"}} {v}");
        }
        let _ = writeln!(out, "# HELP kifu_queue_full_total Submissions answered 503 because the ingest queue was full.\n# TYPE kifu_queue_full_total counter\nkifu_queue_full_total {}", get(&self.queue_full));
        let _ = writeln!(out, "# HELP kifu_queue_depth Records waiting in the ingest queue.\n# TYPE kifu_queue_depth gauge\nkifu_queue_depth {}", get(&self.queue_records));
        let _ = writeln!(out, "# HELP kifu_feed_followers Feed followers connected (SSE streams and waiting long-polls).\n# TYPE kifu_feed_followers gauge\nkifu_feed_followers {}", get(&self.followers));
        self.batch_records.render(
            &mut out,
            "kifu_batch_records",
            "Records per batch taken by the writer.",
        );
        self.sync_seconds.render(
            &mut out,
            "kifu_sync_seconds",
            "Time for a batch to reach stable storage after its commit.",
        );
        self.verify_seconds.render(
            &mut out,
            "kifu_verify_seconds",
            "Time to verify a batch's signatures.",
        );
        self.commit_seconds.render(
            &mut out,
            "kifu_commit_seconds",
            "Time to place and commit a batch.",
        );
        self.ack_seconds.render(
            &mut out,
            "kifu_ack_seconds",
            "Time from a submission entering the queue to its acknowledgement.",
        );
        self.fences.render(&mut out, limits);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Instant;

    #[test]
    fn a_followers_thread_sleeps_while_appends_are_in_flight_and_wakes_when_they_are_answered() {
        let gate = Arc::new(AppendsFirst::default());
        let writes = Arc::new(AtomicU64::new(0));
        // Nothing in flight: no wait.
        gate.wait(&writes, Duration::from_secs(60));
        assert_eq!(gate.waited.load(Ordering::Relaxed), 0);
        // In flight and never answered: the bound ends the wait.
        writes.store(1, Ordering::SeqCst);
        let t = Instant::now();
        gate.wait(&writes, Duration::from_millis(30));
        assert!(t.elapsed() >= Duration::from_millis(30));
        assert_eq!(gate.waited.load(Ordering::Relaxed), 0);
        // Answered while the thread sleeps: it wakes then, long before the
        // bound.
        let (g, w) = (gate.clone(), writes.clone());
        let answer = std::thread::spawn(move || {
            while g.waiting.load(Ordering::SeqCst) == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            w.store(0, Ordering::SeqCst);
            g.done();
        });
        let t = Instant::now();
        gate.wait(&writes, Duration::from_secs(60));
        assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
        answer.join().unwrap();
        assert_eq!(gate.waited.load(Ordering::Relaxed), 1);
        assert_eq!(gate.waiting.load(Ordering::SeqCst), 0);
    }
}
