//! `kifu serve`'s arguments, parsed whether or not the binary is built with
//! the server (feature `serve`): without it, `kifu serve` says so in one
//! line.

use clap::Args;

/// `kifu serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:7447")]
    pub listen: std::net::SocketAddr,
    /// Records the ingest queue holds before it answers 503.
    #[arg(long, default_value_t = 65_536)]
    pub queue: usize,
    /// Most records in one request (submitted or read).
    #[arg(long, default_value_t = 10_000)]
    pub max_records: usize,
    /// Largest request body, in MiB.
    #[arg(long, default_value_t = 16)]
    pub max_body_mib: usize,
    /// Longest time for one request (streams and long-polls excepted), in seconds.
    #[arg(long, default_value_t = 30)]
    pub timeout_s: u64,
    /// Connections served at once (at the bound an idle one is closed to
    /// make room; with none idle, 503).
    #[arg(long, default_value_t = 4096)]
    pub max_connections: usize,
    /// Connections one client address may hold at once (more: 429).
    #[arg(long, default_value_t = 256)]
    pub max_connections_per_client: usize,
    /// Feed streams and waiting long-polls held at once (more: 503).
    #[arg(long, default_value_t = 2048)]
    pub max_streams: usize,
    /// Feed streams one client address may hold at once (more: 429).
    #[arg(long, default_value_t = 64)]
    pub max_streams_per_client: usize,
    /// Request bodies received at once, before a read or write place is
    /// taken (more: 503).
    #[arg(long, default_value_t = 256)]
    pub max_bodies: usize,
    /// Request bodies one client address may be sending at once (more:
    /// 429): a client that promises a body and never sends it holds no more.
    #[arg(long, default_value_t = 16)]
    pub max_bodies_per_client: usize,
    /// Device seat requests one client address may have waiting at once
    /// (more: 429); raise it when tablets reach the server through one
    /// address.
    #[arg(long, default_value_t = 64)]
    pub max_device_requests_per_client: usize,
    /// Longest wait for a request's head, and for the next request on an
    /// idle kept-alive connection, in seconds.
    #[arg(long, default_value_t = 10)]
    pub header_timeout_s: u64,
    /// Longest time for a request's body to arrive, in seconds.
    #[arg(long, default_value_t = 30)]
    pub body_timeout_s: u64,
    /// Serve HTTPS with this certificate chain (PEM, the server's first);
    /// with --tls-key.
    #[arg(long, requires = "tls_key", conflicts_with = "tls_self_signed")]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,
    /// Serve HTTPS with a certificate the server makes for its addresses and
    /// keeps in the data directory (tls/); prints its SHA-256 fingerprint.
    #[arg(long)]
    pub tls_self_signed: bool,
    /// A host name or address the self-signed certificate also names (the
    /// one tablets use, when listening on 0.0.0.0); repeatable.
    #[arg(long, requires = "tls_self_signed")]
    pub tls_name: Vec<String>,
    /// Also publish every durable event to this NATS JetStream server
    /// (`nats://HOST:PORT`, several comma-separated); see docs/SCALE.md.
    #[arg(long)]
    pub nats: Option<String>,
    /// The JetStream stream to publish to (--nats; created when missing),
    /// or to read from (--replica-of).
    #[arg(long, default_value = kifu_nats::DEFAULT_STREAM)]
    pub nats_stream: String,
    /// Serve as a read replica of the stream on this NATS server
    /// (`nats://HOST:PORT`, several comma-separated): the data directory is
    /// built from the stream, every record verified as `kifu mirror` does;
    /// readers get the feed, pages, projections, bundles and proofs of what
    /// it holds; writes are refused (421). See docs/SCALE.md.
    #[arg(long, value_name = "URL", conflicts_with_all = ["nats", "creators", "creators_from", "open_creation"])]
    pub replica_of: Option<String>,
    /// With --replica-of: the venue server's URL, which the refusal of a
    /// write names.
    #[arg(long, value_name = "URL", requires = "replica_of")]
    pub venue: Option<String>,
    /// With --replica-of: the replica's durable consumer (one per replica;
    /// default: a name made once for this data directory and kept in it).
    #[arg(long, value_name = "NAME", requires = "replica_of")]
    pub replica_durable: Option<String>,
    /// How far behind the live feed, in records, a follower fed from
    /// memory may fall before it is asked to resume from its cursor (0:
    /// never).
    #[arg(long, default_value_t = 65_536)]
    pub max_follower_lag: u64,
    /// Run the async workers (which read a board's request and write its
    /// answer) under the real-time policy SCHED_FIFO at this priority (1 to
    /// 49): an append's answer gets the core the moment it is ready, ahead
    /// of the spectators' writes. Needs CAP_SYS_NICE or LimitRTPRIO;
    /// refused at start otherwise (docs/SCALE.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=49))]
    pub realtime_priority: Option<u8>,
    /// Replicas of the stream (1, or 3 in a cluster of three or more); an
    /// existing stream with another count is refused at start.
    #[arg(long, default_value_t = 1, requires = "nats")]
    pub nats_replicas: usize,
    /// Sign the transparency log's checkpoints with this operator key
    /// (PKCS#8 PEM); served at /checkpoint (see docs/TRANSPARENCY.md).
    #[arg(long)]
    pub checkpoint_key: Option<std::path::PathBuf>,
    /// The log's origin line and key name (default: the last checkpoint's,
    /// else kifu.local/log).
    #[arg(long, requires = "checkpoint_key")]
    pub origin: Option<String>,
    /// Sign a checkpoint this often when the log grew, in seconds (0: only
    /// on demand, POST /checkpoint).
    #[arg(long, default_value_t = 60, requires = "checkpoint_key")]
    pub checkpoint_every: u64,
    /// A key that may create games here (sign a genesis): 64 hex digits or
    /// a file of keys (SPKI PEM, hex). Repeatable. See docs/API.md, "Who
    /// may create games".
    #[arg(long = "creator", value_name = "KEY")]
    pub creators: Vec<String>,
    /// A tournament chain file whose director and referees may create
    /// games here. Repeatable.
    #[arg(long = "creators-from", value_name = "TOURNAMENT.kifu")]
    pub creators_from: Vec<std::path::PathBuf>,
    /// Let any key create games, even when listening on an address other
    /// than loopback (where the server otherwise refuses to start without
    /// --creator or --creators-from).
    #[arg(long, conflicts_with_all = ["creators", "creators_from"])]
    pub open_creation: bool,
}
