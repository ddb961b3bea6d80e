//! `kifu rehearse`: a whole event played through the venue protocol, to
//! learn before the event whether a server carries it.
//!
//! Every actor makes the HTTP calls its page makes: the director's desk
//! drafts, signs and submits the tournament's facts
//! (`POST /director/draft`, `POST /tournaments[/{t}/records]`); each board's
//! tablets ask for their seats (`POST /devices`, signed by the device's own
//! key), find their game (`GET /devices/{id}`), sign every stone, press,
//! call and result sheet with that key and send it (`POST /records`), and
//! read what a tablet reads after each record
//! (`GET /games/{id}/state?device=1&since=SEQ`). At a shared recorder
//! tablet the players' own keys are made on the tablet, which asks for
//! their seats with them (`POST /devices`); a referee's console binds each
//! to its seat (`GET /devices?pending=1`, `POST /games/{id}/preview`, then
//! a `key_replaced` signed and sent), and each player signs their own
//! result sheet with it on the shared tablet. Referees' consoles follow
//! the feed and read their overview (`GET /referee/games`, then only the
//! boards the feed named), hall screens the standings, and
//! spectators follow the feed (`GET /feed/stream`). The desk confirms each
//! finished board into the chain and pairs the next round with the engine,
//! and the same tablets ask for their next seats.
//!
//! What it measures and the verdict are [`report`]'s; the simulated boards
//! are [`board`]'s, the director's [`desk`]'s, and the server it starts
//! (and kills, with `--kill-server`) [`server`]'s. The games' moves come
//! from [`kifu_go`]: a device plays a random legal stone (never into its
//! own eye), so games capture and fight ko as real ones do.

pub mod board;
pub mod crowd;
pub mod desk;
pub mod http;
pub mod nats;
pub mod plan;
pub mod report;
pub mod server;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;

use crate::Failure;
use plan::Plan;
use report::{Report, Samples};

/// `kifu rehearse`.
#[derive(Debug, Clone, Args)]
pub struct RehearseArgs {
    /// Boards.
    #[arg(long, default_value_t = 20)]
    pub boards: u32,
    /// Rounds.
    #[arg(long, default_value_t = 2)]
    pub rounds: u32,
    /// The pace, as a multiple of real time: a move takes 30 s of real
    /// time on average (a game of about 250 moves in two hours), so 600
    /// plays it in about 50 ms.
    #[arg(long, default_value_t = 600.0)]
    pub pace: f64,
    /// Tables with two player tablets : with one recorder tablet : on
    /// paper, in percent.
    #[arg(long, default_value = "50:30:20", value_name = "TWO:ONE:PAPER")]
    pub tables: String,
    /// Referees, each with a console polling the overview every 1.5 s.
    #[arg(long, default_value_t = 2)]
    pub referees: u32,
    /// Percent of tablet games a referee is called to (call, pause,
    /// clarification, resume).
    #[arg(long, default_value_t = 10)]
    pub judged: u32,
    /// Hall screens, each reading the pairings and standings every 5 s.
    #[arg(long, default_value_t = 1)]
    pub hall: u32,
    /// Spectators following the feed.
    #[arg(long, default_value_t = 10)]
    pub spectators: u32,
    /// Kill the server it started (SIGKILL) once in each round, and start
    /// it again on the same data directory and address.
    #[arg(long)]
    pub kill_server: bool,
    /// Percent of tablet tables that lose the network once in each round;
    /// their tablets keep signing and send what they kept when it returns.
    #[arg(long, default_value_t = 0)]
    pub offline: u32,
    /// How long a table is offline, in seconds.
    #[arg(long, default_value_t = 30)]
    pub offline_secs: u64,
    /// Start a NATS JetStream cluster of N nodes (`nats-server`) for the
    /// server this rehearsal starts, which publishes every record to it
    /// (the stream's replicas: 3 on three nodes or more, else 1); the
    /// stream is read back at the end, verified and reconciled with the
    /// store.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub nats_cluster: u32,
    /// Stop the node leading the stream (SIGKILL) midway through each
    /// round, and start it again when the round ends (`--nats-cluster 3`
    /// or more).
    #[arg(long)]
    pub kill_nats: bool,
    /// Play each round for at most M minutes of wall time, then stop its
    /// games where they stand: a sample of a round too long to play whole
    /// (at 1× pace a round takes about two hours). The games stopped are
    /// counted as such (not as failures) and given a result at the desk,
    /// as a referee's decision, so that the round and the standings go on.
    #[arg(long, value_name = "M")]
    pub minutes: Option<f64>,
    /// The seed of every random choice (the same seed plays the same
    /// moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What every actor shares: where the server is, whether to stop, and the
/// samples it measures.
pub struct Venue {
    /// The server's base URL.
    pub url: String,
    /// Set when the rehearsal ends: streams and pollers stop.
    pub stop: AtomicBool,
    /// Measurements.
    pub samples: Mutex<Samples>,
    /// The server this rehearsal started, if it did.
    pub server: Option<Mutex<server::OwnServer>>,
    /// The NATS cluster this rehearsal started, if it did.
    pub nats: Option<Mutex<nats::NatsCluster>>,
}

impl Venue {
    /// Adds a latency sample to the series `what`.
    pub fn sample(&self, what: &str, took: Duration) {
        if let Ok(mut s) = self.samples.lock() {
            s.add(what, took);
        }
    }

    /// Counts one occurrence of `what`.
    pub fn count(&self, what: &str, n: u64) {
        if let Ok(mut s) = self.samples.lock() {
            s.count(what, n);
        }
    }
}

/// Runs the rehearsal: `data` is kept when named (`data_named`), a scratch
/// directory otherwise.
pub fn run(data: &Path, data_named: bool, a: RehearseArgs) -> Result<(), Failure> {
    let plan = Plan::new(&a).map_err(Failure::new)?;
    let scratch;
    let dir: PathBuf = if data_named {
        data.to_path_buf()
    } else {
        scratch = tempfile::Builder::new()
            .prefix("kifu-rehearse-")
            .tempdir()
            .map_err(|e| Failure::new(format!("kifu rehearse: a scratch directory: {e}")))?;
        scratch.path().to_path_buf()
    };
    let remote = crate::endpoint::server();
    if remote.is_some() && (a.kill_server || a.nats_cluster > 0) {
        return Err(Failure::new(
            "kifu rehearse: --kill-server and --nats-cluster act on a server it starts itself: leave out --server",
        ));
    }
    if a.kill_nats && a.nats_cluster < 3 {
        return Err(Failure::new(
            "kifu rehearse: --kill-nats stops a node of a cluster that outlives it: give --nats-cluster 3 or more",
        ));
    }
    let cluster = match a.nats_cluster {
        0 => None,
        n => Some(nats::NatsCluster::start(&dir, n as usize).map_err(Failure::new)?),
    };
    let (url, own) = match remote {
        Some(url) => (url.trim_end_matches('/').to_string(), None),
        None => {
            let publish: Vec<String> = cluster
                .as_ref()
                .map(|c| {
                    vec![
                        "--nats".into(),
                        c.urls(),
                        "--nats-replicas".into(),
                        c.replicas().to_string(),
                    ]
                })
                .unwrap_or_default();
            let s = server::OwnServer::start(&dir, publish).map_err(Failure::new)?;
            (s.url.clone(), Some(Mutex::new(s)))
        }
    };
    let venue = Arc::new(Venue {
        url,
        stop: AtomicBool::new(false),
        samples: Mutex::new(Samples::default()),
        server: own,
        nats: cluster.map(Mutex::new),
    });
    // The cluster's nodes are stopped when the rehearsal ends, however it
    // ends: threads still holding the venue at exit would keep it from
    // being dropped, and the nodes would outlive the rehearsal.
    let _nodes = StopNodes(&venue);
    let started = Instant::now();
    let crowd = crowd::Crowd::start(&venue, &plan);
    let outcome = desk::run_event(&venue, &plan);
    venue.stop.store(true, Ordering::SeqCst);
    let followed = crowd.finish();
    let outcome = outcome.map_err(Failure::new)?;
    // What the event cost the server, before the reading back below.
    let server = venue
        .server
        .as_ref()
        .and_then(|s| s.lock().ok().map(|s| s.usage()));
    let chains = report::chains(&venue, &outcome).map_err(Failure::new)?;
    let reconciled = report::reconcile(&outcome, &chains);
    let stream = match &venue.nats {
        Some(c) => {
            let (urls, stops) = c
                .lock()
                .map(|mut c| {
                    // A node stopped at the end comes back first: the
                    // stream is read whole.
                    let _ = c.restart();
                    (c.urls(), c.stops)
                })
                .map_err(|_| Failure::new("kifu rehearse: the NATS cluster's state"))?;
            let mut check = nats::reconcile_stream(&urls, &chains, Duration::from_secs(120))
                .map_err(Failure::new)?;
            check.node_stops = stops;
            Some(check)
        }
        None => None,
    };
    let bundles = report::bundles(&venue, &outcome);
    let samples = venue.samples.lock().map(|s| s.clone()).unwrap_or_default();
    let mut report = Report::new(
        &plan,
        &outcome,
        &reconciled,
        &samples,
        followed,
        bundles,
        server,
        started.elapsed(),
        data_named.then(|| dir.clone()),
    );
    report.stream = stream.clone();
    if let Some(s) = &venue.server {
        if let Ok(mut s) = s.lock() {
            s.stop();
        }
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", report.table());
    }
    if reconciled.lost > 0 || reconciled.duplicated > 0 {
        return Err(Failure::new(format!(
            "kifu rehearse: {} records lost, {} duplicated",
            reconciled.lost, reconciled.duplicated
        )));
    }
    if let Some(s) = stream.filter(|s| s.lost > 0 || s.duplicated > 0) {
        return Err(Failure::new(format!(
            "kifu rehearse: the NATS stream lacks {} records of the store and holds {} twice",
            s.lost, s.duplicated
        )));
    }
    Ok(())
}

/// Stops the rehearsal's NATS nodes when dropped.
struct StopNodes<'a>(&'a Venue);

impl Drop for StopNodes<'_> {
    fn drop(&mut self) {
        if let Some(c) = &self.0.nats {
            let mut c = c.lock().unwrap_or_else(|p| p.into_inner());
            c.stop();
        }
    }
}
