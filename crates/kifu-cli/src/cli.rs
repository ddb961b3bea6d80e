//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Record, verify, replay and export signed, hash-chained Go and Renju games.
#[derive(Debug, Parser)]
#[command(name = "kifu", version, about, long_about = None)]
pub struct Cli {
    /// Data directory of the store.
    #[arg(long, global = true, env = "KIFU_DATA", default_value = "./kifu-data")]
    pub data: PathBuf,
    /// Act through a `kifu serve` at this URL (http://host:port) instead of
    /// opening the data directory.
    #[arg(long, global = true, env = "KIFU_SERVER")]
    pub server: Option<String>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
// Parsed once per run; boxing the larger argument sets would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create an ed25519 key pair: NAME.key (PKCS#8 PEM, mode 0600) and NAME.pub (SPKI PEM).
    Keygen(KeygenArgs),
    /// Create a game: sign and store its genesis event.
    NewGame(NewGameArgs),
    /// Append one event, given as JSON on standard input, signed with --key.
    Append(AppendArgs),
    /// Show a game's events.
    Log(LogArgs),
    /// Verify every chain in the store, or an archive file offline.
    Verify(VerifyArgs),
    /// Write games to a self-contained archive file.
    Export(ExportArgs),
    /// Verify an archive, then load it into the store.
    Import(ImportArgs),
    /// Print the global event feed as NDJSON, each line with its cursor.
    Feed(FeedArgs),
    /// Record a short, complete demonstration game and verify the store.
    Demo(DemoArgs),
    /// Append clock presses as fast as possible, printing each acknowledged
    /// one (for crash and load testing).
    #[command(hide = true)]
    Soak(SoakArgs),
    /// Clock projection queries.
    #[command(subcommand)]
    Clock(ClockCommand),
    /// SGF: replay a record's board, import a record as a signed game, export a game.
    #[command(subcommand)]
    Sgf(SgfCommand),
    /// Renju and Gomoku queries.
    #[command(subcommand)]
    Renju(RenjuCommand),
    /// The whole game state at an event: board, clocks, phase, disputes,
    /// protests, sanctions and the result so far.
    Replay(ReplayArgs),
    /// Every player's sanctions across the games in the store (or the games
    /// named), with the games a disqualification loses.
    Sanctions(SanctionsArgs),
    /// The game as a story: every event, who signed it, and each consequence
    /// with the rule behind it.
    Explain(ExplainArgs),
    /// Referee a computer-Go match over GTP as the UEC Cup server, recording
    /// every fact in signed game chains.
    Match(crate::match_cmd::MatchArgs),
    /// Sign the transparency log's current tree head (a C2SP checkpoint);
    /// with --server, fetch the server's latest one.
    Checkpoint(crate::tlog_cmd::CheckpointArgs),
    /// Cosign a log checkpoint as a witness, after checking it is consistent
    /// with the last one this witness cosigned.
    Witness(crate::tlog_cmd::WitnessArgs),
    /// Print an inclusion or consistency proof of the transparency log.
    #[command(subcommand)]
    Prove(crate::tlog_cmd::ProveCommand),
    /// Check an inclusion or consistency proof offline, against signed checkpoints.
    #[command(subcommand)]
    CheckProof(crate::tlog_cmd::CheckProofCommand),
    /// Write an appeal bundle: a game's records, a signed checkpoint, and
    /// the proofs that they are the whole game as logged (the head's map
    /// proof, or with --tail the log's tail after the game).
    Bundle(crate::tlog_cmd::BundleArgs),
    /// Write the log as a static C2SP tlog-tiles directory (checkpoint, tiles, entry bundles).
    Tiles(crate::tlog_cmd::TilesArgs),
    /// Replay the log's leaves (from the store, or a server's tiles with
    /// --server) and check each checkpoint's tree root and map root.
    Audit(crate::map_cmd::AuditArgs),
    /// Publish the store's feed to a NATS JetStream stream until stopped.
    Publish(crate::nats_cmd::PublishArgs),
    /// Copy a NATS JetStream stream of kifu records, verified, into this store.
    Mirror(crate::nats_cmd::MirrorArgs),
    /// Serve the data directory over HTTP: many boards append at once, readers
    /// and feed followers connect (see docs/API.md).
    Serve(ServeArgs),
    /// Replace or revoke a participant's key mid-game, as an event of the chain.
    #[command(subcommand)]
    Key(crate::key_cmd::KeyCommand),
    /// Board devices that asked `kifu serve` for a seat, with their key
    /// fingerprints (enrol one with `new-game --device-request ID`).
    Devices(crate::device_cmd::DevicesArgs),
    /// Tournaments: the signed tournament chain, standings, EGD and AGA results.
    #[command(subcommand)]
    Tournament(crate::tournament_cmd::TournamentCommand),
    /// Print a shell completion script: `kifu completions bash > /etc/bash_completion.d/kifu`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff): `kifu man > kifu.1; man ./kifu.1`.
    Man,
    /// List the games in the store: tournament, round, board, players,
    /// ruleset, phase, result, events.
    Games(GamesArgs),
}

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
    /// The JetStream stream to publish to (created when missing).
    #[arg(long, default_value = kifu_nats::DEFAULT_STREAM, requires = "nats")]
    pub nats_stream: String,
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

/// `kifu completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// `kifu games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Only games of this tournament (its name, exactly or a part of it).
    #[arg(long)]
    pub tournament: Option<String>,
    /// Only games of this round.
    #[arg(long)]
    pub round: Option<u32>,
    /// Only games this player plays (a part of the name, any case).
    #[arg(long)]
    pub player: Option<String>,
    /// Only games in this phase: playing, counting, finished, ...
    #[arg(long)]
    pub phase: Option<String>,
    /// One JSON object per game, in an array.
    #[arg(long)]
    pub json: bool,
}

/// `kifu replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// The event to replay to (default: the last one).
    #[arg(long)]
    pub at: Option<u64>,
    /// Print all of it as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu clock ...`.
#[derive(Debug, Subcommand)]
pub enum ClockCommand {
    /// Replay one clock scenario (JSON: system, params, start_ms, events, end_ms)
    /// and print the state after each event and the result.
    ///
    /// Time controls in short form: sudden:30m, fischer:90m+30s, byoyomi:60m+5x30s,
    /// canadian:60m+25/10m, simple:30s.
    Replay(ClockReplayArgs),
}

/// `kifu clock replay`.
#[derive(Debug, Args)]
pub struct ClockReplayArgs {
    /// The scenario file (`-` for standard input).
    pub file: PathBuf,
    /// Print `{"states_after_each_event": [...], "result": ...}`.
    #[arg(long)]
    pub json: bool,
}

/// `kifu keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Base name of the files (NAME.key and NAME.pub); may include a directory.
    pub name: PathBuf,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Print `{"public_key", "private_key_file", "public_key_file"}`.
    #[arg(long)]
    pub json: bool,
}

/// `kifu new-game`.
#[derive(Debug, Args)]
pub struct NewGameArgs {
    /// Private key (PKCS#8 PEM) that signs the genesis; its public key must be
    /// in the roster as director, referee or recorder.
    #[arg(long)]
    pub key: PathBuf,
    /// Read the whole genesis from a TOML or JSON file (by extension) instead
    /// of the flags below.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// go, renju, gomoku-freestyle or gomoku-standard.
    #[arg(long, default_value = "go")]
    pub game: String,
    /// Ruleset profile (default: the LGC 2023 rules for Go, the RIF rules
    /// for Renju, the Gomoku rule of the same name for Gomoku).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    pub size: u8,
    /// Handicap stones.
    #[arg(long, default_value_t = 0)]
    pub handicap: u8,
    /// Komi, e.g. 7.5 or -0.5 (a multiple of 0.5). Default: the profile's
    /// komi for an even or a handicap game (each profile's in
    /// docs/RULESETS.md); none in Renju.
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<String>,
    /// Time control: none, sudden:30m, fischer:90m+30s (cap: fischer:90m+30s/120m),
    /// byoyomi:60m+5x30s, canadian:60m+25/10m, simple:30s; units h, m, s, ms.
    #[arg(long, default_value = "none")]
    pub time: String,
    /// Black player as NAME=PUBKEY_FILE.
    #[arg(long)]
    pub black: Option<String>,
    /// White player as NAME=PUBKEY_FILE.
    #[arg(long)]
    pub white: Option<String>,
    /// Referee as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub referee: Vec<String>,
    /// Recording device or server as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub recorder: Vec<String>,
    /// Tournament director as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub director: Vec<String>,
    /// Appeals committee member as NAME=PUBKEY_FILE (repeatable).
    #[arg(long)]
    pub committee: Vec<String>,
    /// Tournament id or name.
    #[arg(long)]
    pub tournament: Option<String>,
    /// Round number.
    #[arg(long, default_value_t = 1)]
    pub round: u32,
    /// Board number.
    #[arg(long, default_value_t = 1)]
    pub board: u32,
    /// Free text naming the game.
    #[arg(long, default_value = "")]
    pub title: String,
    /// Renju online play: fives are declared automatically.
    #[arg(long)]
    pub auto_declare: bool,
    /// Renju opening rule: free (the default), rif (the RIF rule: three
    /// stones, a swap, the fourth, two fifth-move offers), yamaguchi,
    /// soosorv-N (soosorv-8: the World Championship's), taraguchi-N.
    #[arg(long)]
    pub opening: Option<String>,
    /// A board device's request for a seat, by its number (`GET /devices`
    /// lists them with their fingerprints): its key joins the roster at the
    /// seat it asked for (repeatable).
    #[arg(long = "device-request")]
    pub device_request: Vec<String>,
    /// Timestamp in ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu append`.
#[derive(Debug, Args)]
pub struct AppendArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// Private key (PKCS#8 PEM) of the signer.
    #[arg(long)]
    pub key: PathBuf,
    /// Timestamp in ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Retry-safe: the event must take this seq. A retry whose event is
    /// already there is recognised; another event there is a conflict.
    #[arg(long, conflicts_with = "after")]
    pub expect_seq: Option<u64>,
    /// Retry-safe: the event must follow the record with this hash (hex).
    #[arg(long)]
    pub after: Option<String>,
}

/// `kifu log`.
#[derive(Debug, Args)]
pub struct LogArgs {
    /// Game id or unique prefix; all games when omitted.
    pub game: Option<String>,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// `kifu verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// An archive file to verify offline (the store is not opened).
    pub file: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Show what is being verified on stderr even when it is not a
    /// terminal (a terminal gets a spinner anyway).
    #[arg(long)]
    pub progress: bool,
    /// A key whose signature vouches for the archive's completeness (the
    /// organiser's archive key; for a bundle, the log's key): 64 hex
    /// digits, a tournament chain file (its director's key), or a file of
    /// keys (SPKI PEM, hex or note verifier keys, one or more). Repeatable. With it, an archive fails (exit 3) unless its
    /// manifest is signed by a trusted key and the archive matches it.
    #[arg(long = "trust", value_name = "KEY")]
    pub trust: Vec<String>,
}

/// `kifu export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// Only this game (id or unique prefix); all games when omitted.
    #[arg(long)]
    pub game: Option<String>,
    /// Operator key (PKCS#8 PEM) that signs the archive's manifest of heads,
    /// so that a truncated copy fails verification.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// Carry this tournament's chain (id, unique prefix or short name) in
    /// the archive: a reader then checks the archive against the
    /// organiser's key the chain names with no `--trust` (sign it with that
    /// key, `--key DIRECTOR.key`).
    #[arg(long)]
    pub tournament: Option<String>,
    /// Print `{"file", "games", "events"}`.
    #[arg(long)]
    pub json: bool,
}

/// `kifu import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The archive file.
    pub file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Show progress (count, rate, time left) on standard error even when it
    /// is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Import only an archive whose manifest is signed by this key and that
    /// is complete against it (as `kifu verify FILE --trust KEY`): 64 hex
    /// digits or a file of keys. Repeatable.
    #[arg(long = "trust", value_name = "KEY")]
    pub trust: Vec<String>,
}

/// `kifu feed`.
#[derive(Debug, Args)]
pub struct FeedArgs {
    /// Start after this cursor (the last one you saw); from the beginning when omitted.
    #[arg(long)]
    pub after: Option<u64>,
    /// Keep waiting for new events.
    #[arg(long)]
    pub follow: bool,
    /// Stop after this many lines.
    #[arg(long)]
    pub limit: Option<u64>,
    /// With --follow: how often to look for new events, in ms.
    #[arg(long, default_value_t = 250)]
    pub poll_ms: u64,
    /// Read from a NATS JetStream stream instead of the store.
    #[command(flatten)]
    pub nats: crate::nats_cmd::FeedNatsArgs,
}

/// `kifu demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Print what was done as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu soak` (hidden).
#[derive(Debug, Args)]
pub struct SoakArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// A recorder's private key.
    #[arg(long)]
    pub key: PathBuf,
    /// How many events.
    #[arg(long, default_value_t = 1000)]
    pub count: u64,
}

/// `kifu renju ...`.
#[derive(Debug, Subcommand)]
pub enum RenjuCommand {
    /// Is a move five, forbidden (overline, double-four, double-three) or legal?
    ///
    /// Coordinates as RenjuNet writes them: a-o left to right, 1-15 bottom to
    /// top, h8 the centre. Give the position as two stone lists, or as a move
    /// list in order (with `pass`).
    Check(RenjuCheckArgs),
}

/// `kifu renju check`.
#[derive(Debug, Args)]
pub struct RenjuCheckArgs {
    /// Black stones, comma separated (e.g. h8,i9).
    #[arg(long, default_value = "", conflicts_with = "moves")]
    pub black: String,
    /// White stones, comma separated.
    #[arg(long, default_value = "", conflicts_with = "moves")]
    pub white: String,
    /// The moves in order, Black first (e.g. h8,i9,pass,h9).
    #[arg(long)]
    pub moves: Option<String>,
    /// The point to check.
    #[arg(long)]
    pub query: String,
    /// The colour that would play it: black or white (default: black, or the
    /// side to move after --moves).
    #[arg(long)]
    pub color: Option<String>,
    /// The Renju or Gomoku rule.
    #[arg(long, default_value = kifu_game::default_ruleset(kifu_ledger::GameKind::Renju),
          ignore_case = true,
          value_parser = clap::builder::PossibleValuesParser::new(kifu_renju::Rule::ALL.map(kifu_renju::Rule::name)))]
    pub rule: String,
    /// Print `{"verdict": ..., "forbidden": ...}`.
    #[arg(long)]
    pub json: bool,
}

/// `kifu sgf ...`.
#[derive(Debug, Subcommand)]
pub enum SgfCommand {
    /// Replay an SGF's main line under a profile and print the final board,
    /// the captures, whose turn it is and the moves the profile finds illegal.
    Board(SgfBoardArgs),
    /// Record game chains from SGF files (or folders of them), signed by a
    /// recorder's key, keeping the records' game information.
    Import(SgfImportArgs),
    /// Write a game as SGF, with the clocks' time left on each move and the
    /// rulings as comments.
    Export(SgfExportArgs),
}

/// `kifu sgf board`.
#[derive(Debug, Args)]
pub struct SgfBoardArgs {
    /// The SGF file (`-` for standard input).
    pub file: PathBuf,
    /// Ruleset profile.
    #[arg(long, default_value = kifu_game::default_ruleset(kifu_ledger::GameKind::Go),
          value_parser = clap::builder::PossibleValuesParser::new(kifu_go::PROFILE_NAMES))]
    pub ruleset: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Largest SGF file read, in MiB: a larger one is refused before it is
    /// read (a hostile or mistaken file cannot exhaust memory).
    #[arg(long, default_value_t = (kifu_go::sgf::DEFAULT_MAX_BYTES >> 20) as u64)]
    pub max_sgf_mib: u64,
}

/// `kifu sgf import`.
#[derive(Debug, Args)]
pub struct SgfImportArgs {
    /// SGF files, or folders whose `*.sgf` files are all imported (one store
    /// opening, a progress bar, a summary).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The recorder's private key (PKCS#8 PEM); it signs every event.
    #[arg(long)]
    pub key: PathBuf,
    /// Ruleset profile.
    #[arg(long, default_value = kifu_game::default_ruleset(kifu_ledger::GameKind::Go),
          value_parser = clap::builder::PossibleValuesParser::new(kifu_go::PROFILE_NAMES))]
    pub ruleset: String,
    /// Black's public key, if known (the name comes from PB); without it
    /// Black is recorded by name and the recorder signs for them.
    #[arg(long)]
    pub black_key: Option<String>,
    /// White's public key, if known (the name comes from PW).
    #[arg(long)]
    pub white_key: Option<String>,
    /// Timestamp of the recorded events, ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Largest SGF file read, in MiB: a larger one is refused before it is
    /// read (a hostile or mistaken file cannot exhaust memory).
    #[arg(long, default_value_t = (kifu_go::sgf::DEFAULT_MAX_BYTES >> 20) as u64)]
    pub max_sgf_mib: u64,
}

/// `kifu sgf export`.
#[derive(Debug, Args)]
pub struct SgfExportArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// Output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kifu sanctions`.
#[derive(Debug, Args)]
pub struct SanctionsArgs {
    /// Game ids or unique prefixes; every game in the store when none.
    pub games: Vec<String>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}
