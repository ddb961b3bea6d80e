//! Command-line arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

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
    Keygen(crate::keys::KeygenArgs),
    /// Create a game: sign and store its genesis event.
    NewGame(crate::game_cmd::NewGameArgs),
    /// Append one event, given as JSON on standard input, signed with --key.
    Append(crate::game_cmd::AppendArgs),
    /// Show a game's events.
    Log(crate::game_cmd::LogArgs),
    /// Verify every chain in the store, or an archive file offline.
    Verify(crate::archive_cmd::VerifyArgs),
    /// Write games to a self-contained archive file.
    Export(crate::archive_cmd::ExportArgs),
    /// Verify an archive, then load it into the store.
    Import(crate::archive_cmd::ImportArgs),
    /// Print the global event feed as NDJSON, each line with its cursor.
    Feed(crate::feed_cmd::FeedArgs),
    /// Record a short, complete demonstration game and verify the store.
    Demo(crate::demo::DemoArgs),
    /// Append clock presses as fast as possible, printing each acknowledged
    /// one (for crash and load testing).
    #[command(hide = true)]
    Soak(crate::game_cmd::SoakArgs),
    /// Clock projection queries.
    #[command(subcommand)]
    Clock(crate::clock_cmd::ClockCommand),
    /// SGF: replay a record's board, import a record as a signed game, export a game.
    #[command(subcommand)]
    Sgf(crate::sgf_cmd::SgfCommand),
    /// Renju and Gomoku queries.
    #[command(subcommand)]
    Renju(crate::renju_cmd::RenjuCommand),
    /// The whole game state at an event: board, clocks, phase, disputes,
    /// protests, sanctions and the result so far.
    Replay(crate::replay_cmd::ReplayArgs),
    /// Every player's sanctions across the games in the store (or the games
    /// named), with the games a disqualification loses.
    Sanctions(crate::replay_cmd::SanctionsArgs),
    /// The game as a story: every event, who signed it, and each consequence
    /// with the rule behind it.
    Explain(crate::replay_cmd::ExplainArgs),
    /// Referee a computer-Go match over GTP as the UEC Cup server, recording
    /// every fact in signed game chains.
    Match(crate::match_cmd::MatchArgs),
    /// Play a whole simulated event through the venue's HTTP calls (the
    /// desk, the tablets, referees, hall screens, spectators) and report
    /// whether the server carried it.
    Rehearse(crate::rehearse::RehearseArgs),
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
    Serve(crate::serve_args::ServeArgs),
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
    Completions(crate::shell_cmd::CompletionsArgs),
    /// Print the manual page (roff): `kifu man > kifu.1; man ./kifu.1`.
    Man,
    /// List the games in the store: tournament, round, board, players,
    /// ruleset, phase, result, events.
    Games(crate::games_cmd::GamesArgs),
}
