//! `kifu tournament ...`: the signed tournament chain, its standings and its
//! results files.
//!
//! A tournament chain is kept beside the game store, one archive file per
//! tournament: `<data>/tournaments/<id>.kifu` (the archive framing of
//! `docs/FORMAT.md`). Every command that writes reads and verifies the whole
//! chain, checks the new facts against it (`kifu_tournament::Chain::append`),
//! and only then replaces the file (write to a temporary file, fsync,
//! rename), so a refused fact leaves nothing behind. What the flags mean as
//! facts is `kifu_tournament::desk`'s, the vocabulary the director's desk
//! shares.
//!
//! With `--server URL` (or `KIFU_SERVER`) the chain is the server's: it is
//! read with `GET /tournaments/{t}/records`, the new facts are checked and
//! signed here with the same library calls, and sent to `POST
//! /tournaments[/{t}/records]`, where the server checks them again and
//! keeps them (`docs/API.md`, "Tournaments").

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use kifu_ledger::{Body, Hash, Keypair, Participant, Record, Role, TournamentGenesis};
use kifu_tournament::checkpoints::{self, CheckpointError};
use kifu_tournament::choices::{ChoiceError, Choices};
use kifu_tournament::desk::{self, DeskError};
use kifu_tournament::entry::{self, pairing, ResultsOptions};
use kifu_tournament::tables::{self, Format};
use kifu_tournament::{opengotha, Chain, ChainError, Refused};

use crate::keys::{read_private, read_public};
use crate::remote::{self, Client};
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

/// `kifu tournament` subcommands.
// Parsed once per run; boxing the larger argument sets would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Create a tournament: sign its genesis (flags, or a TOML file with the same names).
    New(NewArgs),
    /// List the tournaments in the data directory.
    List,
    /// Register a player (or correct a registration with --correct).
    Register(RegisterArgs),
    /// Pair one board, a whole round from a file (`board white black [handicap]` per line), or draw the round with the pairing engine (--auto).
    Pair(PairArgs),
    /// Give a player the bye in a round.
    Bye(ByeArgs),
    /// State the tournament's time zone (an IANA name): its times of day are shown in it.
    TimeZone(TimeZoneArgs),
    /// Mark a player absent (late arrival, skipped round, withdrawal, sanction).
    Absent(AbsentArgs),
    /// Enter a board's result as an official (by default, both lose, both win, off the record).
    Result(ResultArgs),
    /// Record a sanction beyond one game (removal from rounds or the tournament, debarment).
    Sanction(SanctionArgs),
    /// Tie a game chain of the store into the tournament: its head and result.
    Checkpoint(CheckpointArgs),
    /// Show the tournament's events.
    Log(TLogArgs),
    /// Verify the tournament chain and every game it checkpoints.
    Verify(TVerifyArgs),
    /// The standings after a round.
    Standings(StandingsArgs),
    /// Write the results: EGD `.h9`, AGA, CSV or JSON.
    Export(TExportArgs),
    /// Import an OpenGotha tournament file as a new, signed tournament chain.
    ImportOpengotha(ImportArgs),
    /// Draw each recorded round again with the pairing engine and report
    /// every board and bye that departs from it (exit code 3).
    CheckPairing(CheckPairingArgs),
}

/// `kifu tournament check-pairing`.
#[derive(Debug, Args)]
pub struct CheckPairingArgs {
    /// Tournament id (or unique prefix) or short name, or an OpenGotha
    /// tournament file (`.xml`).
    pub tournament: String,
    /// Only this round (default: every round with a pairing).
    #[arg(long)]
    pub round: Option<u32>,
    /// Print `{"engine", "rounds": [{"round", "departures": [...]}]}`.
    #[arg(long)]
    pub json: bool,
}

/// Settings of `kifu tournament new`; each can also come from `--config`
/// (`kifu_tournament::choices::Choices`, the same names).
#[derive(Debug, Default, Args)]
pub struct NewSettings {
    /// Full name.
    #[arg(long)]
    pub name: Option<String>,
    /// Short name (used on the command line and in game geneses).
    #[arg(long)]
    pub short_name: Option<String>,
    /// City.
    #[arg(long)]
    pub city: Option<String>,
    /// Two-letter country code.
    #[arg(long)]
    pub country: Option<String>,
    /// First day, YYYY-MM-DD.
    #[arg(long)]
    pub start: Option<String>,
    /// Last day, YYYY-MM-DD.
    #[arg(long)]
    pub finish: Option<String>,
    /// Number of rounds.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// mcmahon, swiss, round-robin or knockout.
    #[arg(long)]
    pub system: Option<String>,
    /// Placement criteria in order (default MMS,SOSM,SOSOSM for McMahon, NBW,SOSW,SOSOSW otherwise).
    #[arg(long)]
    pub criteria: Option<String>,
    /// McMahon bar (default 4d).
    #[arg(long)]
    pub bar: Option<String>,
    /// McMahon floor (default 20k).
    #[arg(long)]
    pub floor: Option<String>,
    /// NBW points for a bye (default 1).
    #[arg(long)]
    pub bye_nbw: Option<String>,
    /// MMS points for a bye (default 1).
    #[arg(long)]
    pub bye_mms: Option<String>,
    /// NBW points for an absent round (default 0).
    #[arg(long)]
    pub absent_nbw: Option<String>,
    /// MMS points for an absent round (default 0.5).
    #[arg(long)]
    pub absent_mms: Option<String>,
    /// Round the sum of bye and absence points down to a whole point
    /// (default true, as OpenGotha; `--round-down=false` keeps half points).
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub round_down: Option<bool>,
    /// The former spelling of `--round-down=false`.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", hide = true, conflicts_with = "round_down")]
    pub no_round_down: Option<bool>,
    /// Count opponents' unplayed rounds as ½ in SOS.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub unplayed_as_half: Option<bool>,
    /// go, renju, gomoku-freestyle, gomoku-standard (default go).
    #[arg(long)]
    pub game: Option<String>,
    /// Default ruleset profile of the games (default lgc-2023).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Default time control (`canadian:60m+15/5m`...).
    #[arg(long)]
    pub time: Option<String>,
    /// Komi of the even games (default: the ruleset profile's for an even
    /// game; none in Renju).
    #[arg(long)]
    pub komi: Option<String>,
    /// EGF class A, B, C (or X, not classified); default: from the time control.
    #[arg(long)]
    pub egf_class: Option<String>,
    /// EGF adjusted time in minutes; default: from the time control.
    #[arg(long)]
    pub adjusted_time: Option<u32>,
    /// Handicap reduction for the EGD file (`HA[hN]`, default 0); when
    /// given, also the stones the draw takes off the difference (pairing
    /// engine default: 1 in McMahon).
    #[arg(long)]
    pub handicap_reduction: Option<u32>,
    /// The draw's handicap from the McMahon scores before the round (true,
    /// the McMahon default) or from the ranks (false).
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub handicap_based_on_mms: Option<bool>,
    /// No handicap between players at or above this rank (McMahon default 1d).
    #[arg(long, value_name = "RANK")]
    pub no_handicap_above: Option<String>,
    /// The most handicap stones the draw gives (McMahon default 9).
    #[arg(long, value_name = "N")]
    pub handicap_ceiling: Option<u8>,
    /// Referees: NAME=PUBLIC_KEY (file or hex), repeatable.
    #[arg(long = "referee")]
    pub referees: Option<Vec<String>>,
    /// Appeals committee members: NAME=PUBLIC_KEY, repeatable.
    #[arg(long = "committee")]
    pub committee: Option<Vec<String>>,
}

/// `kifu tournament new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The director's private key (signs the genesis).
    #[arg(long)]
    pub key: PathBuf,
    /// The director's name.
    #[arg(long, default_value = kifu_tournament::choices::DIRECTOR_NAME)]
    pub director: String,
    /// A TOML file with the settings (same names as the flags, with `_`).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The settings.
    #[command(flatten)]
    pub settings: NewSettings,
    /// The tournament's time zone, an IANA name (`Europe/Berlin`, `UTC`):
    /// its times of day are shown in it (signed as `time_zone_stated`
    /// after the genesis).
    #[arg(long, value_name = "ZONE")]
    pub time_zone: Option<String>,
    /// Print the new tournament as JSON (`id`, `short_name`, `name`, `rounds`, `time_zone`, `file`).
    #[arg(long)]
    pub json: bool,
    /// The time the genesis is signed at, in milliseconds since 1970
    /// (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
}

/// The tournament and the key that signs.
#[derive(Debug, Args)]
pub struct Target {
    /// Tournament id (or unique prefix) or short name.
    pub tournament: String,
    /// The signer's private key (director or referee).
    #[arg(long)]
    pub key: PathBuf,
    /// The time the facts are signed at, in milliseconds since 1970
    /// (default: now): facts decided earlier, or a chain reproduced.
    #[arg(long)]
    pub at_ms: Option<u64>,
}

/// `kifu tournament register`.
#[derive(Debug, Args)]
pub struct RegisterArgs {
    /// Tournament and signer.
    #[command(flatten)]
    pub target: Target,
    /// Registration id (unique, no blanks).
    #[arg(long)]
    pub id: String,
    /// Family name.
    #[arg(long)]
    pub surname: String,
    /// Given name.
    #[arg(long, default_value = "")]
    pub given: String,
    /// Rank (`2d`, `5k`).
    #[arg(long)]
    pub rank: String,
    /// Rating (EGD GoR or AGA rating; may be negative: `--rating -240`).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub rating: i32,
    /// Two-letter country code.
    #[arg(long, default_value = "")]
    pub country: String,
    /// Club.
    #[arg(long, default_value = "")]
    pub club: String,
    /// EGD PIN.
    #[arg(long, default_value = "")]
    pub egd_pin: String,
    /// AGA ID.
    #[arg(long, default_value = "")]
    pub aga_id: String,
    /// Correction to the starting McMahon score.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub smms_correction: i32,
    /// The player's public key, if the player signs games.
    #[arg(long)]
    pub player_key: Option<String>,
    /// Correct an existing registration instead.
    #[arg(long)]
    pub correct: bool,
}

/// `kifu tournament pair`.
#[derive(Debug, Args)]
pub struct PairArgs {
    /// Tournament id (or unique prefix) or short name.
    pub tournament: String,
    /// The director's private key (not needed with --dry-run).
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The time the facts are signed at, in milliseconds since 1970
    /// (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Round.
    #[arg(long)]
    pub round: u32,
    /// Draw the round with the pairing engine (OpenGotha 3.51.02's McMahon
    /// or Swiss draw with its default settings) from the chain: every
    /// present player not yet paired, the bye if their number is odd.
    #[arg(long, conflicts_with_all = ["board", "white", "black", "game", "file", "colours_unknown"])]
    pub auto: bool,
    /// With --auto: print the draw, write nothing.
    #[arg(long, requires = "auto")]
    pub dry_run: bool,
    /// With --auto --dry-run: print the draw as JSON
    /// (`{"pairing": [{"table", "white", "black", "handicap"}], "bye", "swaps"}`).
    #[arg(long, requires = "dry_run")]
    pub json: bool,
    /// With --auto: two players exchange places in the engine's draw
    /// (boards and colours, a board and the bye, or the colours of their
    /// board), `FIRST:SECOND` by registration id; repeat for more swaps,
    /// each followed by its --reason. Recorded in the chain with the round.
    #[arg(long, requires = "auto", value_name = "FIRST:SECOND")]
    pub swap: Vec<String>,
    /// The reason for the --swap before it, in words (recorded in the
    /// chain).
    #[arg(long, requires = "swap")]
    pub reason: Vec<String>,
    /// Board (one pairing).
    #[arg(long)]
    pub board: Option<u32>,
    /// White's registration id.
    #[arg(long)]
    pub white: Option<String>,
    /// Black's registration id.
    #[arg(long)]
    pub black: Option<String>,
    /// Handicap stones.
    #[arg(long, default_value_t = 0)]
    pub handicap: u8,
    /// The game chain, once it exists (id or prefix in the store).
    #[arg(long)]
    pub game: Option<String>,
    /// The colours were not noted: --white and --black (or a file's two
    /// players) name the two players in no particular colour (`?` in the
    /// EGD `.h9`).
    #[arg(long)]
    pub colours_unknown: bool,
    /// A whole round: lines `board white black [handicap] [?]` (`?`: colours
    /// not noted), `#` comments.
    #[arg(long, conflicts_with_all = ["board", "white", "black", "game"])]
    pub file: Option<PathBuf>,
}

/// `kifu tournament bye`.
#[derive(Debug, Args)]
pub struct ByeArgs {
    /// Tournament and signer.
    #[command(flatten)]
    pub target: Target,
    /// Round.
    #[arg(long)]
    pub round: u32,
    /// Registration id.
    #[arg(long)]
    pub player: String,
}

/// `kifu tournament time-zone`.
#[derive(Debug, Args)]
pub struct TimeZoneArgs {
    /// Tournament and signer (the director).
    #[command(flatten)]
    pub target: Target,
    /// The zone's IANA name (`Europe/Berlin`, `Asia/Tokyo`, `UTC`).
    #[arg(long, value_name = "ZONE")]
    pub zone: String,
}

/// `kifu tournament absent`.
#[derive(Debug, Args)]
pub struct AbsentArgs {
    /// Tournament and signer.
    #[command(flatten)]
    pub target: Target,
    /// Round (for a withdrawal, the first round missed).
    #[arg(long)]
    pub round: u32,
    /// Registration id.
    #[arg(long)]
    pub player: String,
    /// late, skip, withdrawal or sanction.
    #[arg(long, default_value = "skip")]
    pub reason: String,
}

/// `kifu tournament result`.
#[derive(Debug, Args)]
pub struct ResultArgs {
    /// Tournament and signer.
    #[command(flatten)]
    pub target: Target,
    /// Round.
    #[arg(long)]
    pub round: u32,
    /// Board.
    #[arg(long)]
    pub board: u32,
    /// W+ (or white), B+ (or black), jigo (or draw), both-lose, both-win or unknown.
    #[arg(long)]
    pub result: String,
    /// Decided by default (forfeit), not over the board.
    #[arg(long)]
    pub by_default: bool,
    /// Why, in words.
    #[arg(long, default_value = entry::OFFICIAL_RESULT_REASON)]
    pub reason: String,
}

/// `kifu tournament sanction`.
#[derive(Debug, Args)]
pub struct SanctionArgs {
    /// Tournament and signer.
    #[command(flatten)]
    pub target: Target,
    /// Registration id.
    #[arg(long)]
    pub player: String,
    /// removed-from-rounds, removed-from-tournament, debarment or disqualification.
    #[arg(long)]
    pub kind: String,
    /// Rounds, for removed-from-rounds (`2,3`).
    #[arg(long, default_value = "")]
    pub rounds: String,
    /// First round affected (removal from the tournament).
    #[arg(long, default_value_t = 1)]
    pub from_round: u32,
    /// Why, in words.
    #[arg(long)]
    pub reason: String,
}

/// `kifu tournament checkpoint`.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// Tournament and signer.
    #[command(flatten)]
    pub target: Target,
    /// Game id or unique prefix in the store.
    #[arg(required_unless_present = "all")]
    pub game: Option<String>,
    /// Every game of the store that is paired in this tournament, or whose
    /// genesis names it, and whose head moved since its last checkpoint.
    #[arg(long, conflicts_with_all = ["game", "seq", "hash"])]
    pub all: bool,
    /// Expected head sequence number (refused if the stored chain differs).
    #[arg(long)]
    pub seq: Option<u64>,
    /// Expected head hash, hex (refused if the stored chain differs).
    #[arg(long)]
    pub hash: Option<String>,
}

/// `kifu tournament log`.
#[derive(Debug, Args)]
pub struct TLogArgs {
    /// Tournament id (or unique prefix) or short name.
    pub tournament: String,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// `kifu tournament verify`.
#[derive(Debug, Args)]
pub struct TVerifyArgs {
    /// Tournament id (or unique prefix) or short name.
    pub tournament: String,
    /// Print the report as JSON (the shape of `kifu verify FILE --json`).
    #[arg(long)]
    pub json: bool,
}

/// `kifu tournament standings`.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// Tournament id (or unique prefix) or short name.
    pub tournament: String,
    /// The last round counted (default: the last round with pairings).
    #[arg(long)]
    pub after_round: Option<u32>,
    /// Criteria to order on (default: the tournament's own).
    #[arg(long)]
    pub criteria: Option<String>,
    /// Show every criterion for every player.
    #[arg(long)]
    pub all_criteria: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu tournament export`.
#[derive(Debug, Args)]
pub struct TExportArgs {
    /// Tournament id (or unique prefix) or short name.
    pub tournament: String,
    /// h9, aga, csv or json.
    #[arg(long)]
    pub format: String,
    /// The last round counted (default: the last round with pairings).
    #[arg(long)]
    pub after_round: Option<u32>,
    /// In the `.h9`, write games decided by default as `0=` (left out of rating).
    #[arg(long)]
    pub drop_by_default: bool,
    /// In the `.h9`, this EGF class instead of the tournament's.
    #[arg(long)]
    pub egf_class: Option<String>,
    /// In the `.h9`, this adjusted time (minutes) instead of the tournament's.
    #[arg(long)]
    pub adjusted_time: Option<u32>,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// `kifu tournament import-opengotha`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The OpenGotha tournament file (XML).
    pub file: PathBuf,
    /// The director's private key (signs every imported fact).
    #[arg(long)]
    pub key: PathBuf,
    /// The director's name.
    #[arg(long, default_value = kifu_tournament::choices::DIRECTOR_NAME)]
    pub director: String,
    /// Print the new tournament as JSON (as `kifu tournament new --json`).
    #[arg(long)]
    pub json: bool,
    /// The time the facts are signed at, in milliseconds since 1970
    /// (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
}

impl From<NewSettings> for Choices {
    fn from(s: NewSettings) -> Choices {
        Choices {
            name: s.name,
            short_name: s.short_name,
            city: s.city,
            country: s.country,
            start: s.start,
            finish: s.finish,
            rounds: s.rounds,
            system: s.system,
            criteria: s.criteria,
            bar: s.bar,
            floor: s.floor,
            bye_nbw: s.bye_nbw,
            bye_mms: s.bye_mms,
            absent_nbw: s.absent_nbw,
            absent_mms: s.absent_mms,
            round_down: s.round_down,
            no_round_down: s.no_round_down,
            unplayed_as_half: s.unplayed_as_half,
            game: s.game,
            ruleset: s.ruleset,
            time: s.time,
            komi: s.komi,
            egf_class: s.egf_class,
            adjusted_time: s.adjusted_time,
            handicap_reduction: s.handicap_reduction,
            handicap_based_on_mms: s.handicap_based_on_mms,
            no_handicap_above: s.no_handicap_above,
            handicap_ceiling: s.handicap_ceiling,
            referees: s.referees,
            committee: s.committee,
        }
    }
}

/// Runs a `kifu tournament` subcommand.
pub fn run(data: &Path, cmd: TournamentCommand) -> CmdResult {
    match cmd {
        TournamentCommand::New(a) => new(data, a),
        TournamentCommand::List => list(data),
        TournamentCommand::Register(a) => register(data, a),
        TournamentCommand::Pair(a) => pair(data, a),
        TournamentCommand::CheckPairing(a) => check_pairing(data, a),
        TournamentCommand::Bye(a) => {
            write_facts(data, &a.target, vec![desk::bye(a.round, a.player)])
        }
        TournamentCommand::TimeZone(a) => {
            write_facts(data, &a.target, vec![desk::time_zone(a.zone)])
        }
        TournamentCommand::Absent(a) => {
            let body = desk::absent(a.round, a.player, &a.reason).map_err(failure)?;
            write_facts(data, &a.target, vec![body])
        }
        TournamentCommand::Result(a) => {
            let body = desk::result(a.round, a.board, &a.result, a.by_default, a.reason)
                .map_err(failure)?;
            write_facts(data, &a.target, vec![body])
        }
        TournamentCommand::Sanction(a) => {
            let body = desk::sanction(a.player, &a.kind, &a.rounds, a.from_round, a.reason)
                .map_err(failure)?;
            write_facts(data, &a.target, vec![body])
        }
        TournamentCommand::Checkpoint(a) => checkpoint(data, a),
        TournamentCommand::Log(a) => log(data, a),
        TournamentCommand::Verify(a) => {
            crate::tournament_verify::verify_tournament(data, &a.tournament, a.json)
        }
        TournamentCommand::Standings(a) => print_standings(data, a),
        TournamentCommand::Export(a) => export(data, a),
        TournamentCommand::ImportOpengotha(a) => import_opengotha(data, a),
    }
}

/// A library's refusal, in its words.
fn failure(e: impl std::fmt::Display) -> Failure {
    Failure::new(e.to_string())
}

// ---- where the chain is kept ----------------------------------------------
//
// Where the chain files live and how one is found is `kifu_store::tournaments`
// (the server finds them the same way); here they are verified and projected.
// Through a server, the chain is read from it and new records are sent to
// it ([`Kept`]).

use kifu_store::tournaments;

/// Where a tournament chain is kept: a file of the data directory, or a
/// server (its tournament id).
pub(crate) enum Kept {
    /// The chain file.
    File(PathBuf),
    /// The server's tournament.
    Served(Client, Hash),
}

impl Kept {
    /// Where, for people: the file, or the chain's address on the server.
    fn shown(&self) -> String {
        match self {
            Kept::File(p) => p.display().to_string(),
            Kept::Served(c, id) => c.tournament_address(id),
        }
    }

    /// Keeps the records of `chain` from `from` on: the file is replaced
    /// durably, or the records are sent to the server (which checks them
    /// again and writes them all or none).
    fn keep(&self, chain: &Chain, from: usize) -> CmdResult {
        match self {
            Kept::File(path) => save(path, chain),
            Kept::Served(c, id) => {
                let new = chain.records.get(from..).unwrap_or_default();
                if new.is_empty() {
                    return Ok(());
                }
                c.post_records(&format!("/tournaments/{}/records", hex::encode(id)), new)?;
                Ok(())
            }
        }
    }
}

/// The server the commands act through, if one is named.
fn served() -> Option<Client> {
    crate::endpoint::server().map(Client::new)
}

/// Verifies and projects the records of a chain.
fn open_chain(at: &str, records: Vec<Record>) -> Result<Chain, Failure> {
    Chain::open(records).map_err(|e| Failure::new(format!("{at}: {e}")))
}

/// Reads and verifies a tournament chain file.
fn read_chain(path: &Path) -> Result<Chain, Failure> {
    let records =
        tournaments::read(path).map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    open_chain(&path.display().to_string(), records)
}

/// Every tournament chain of the data directory that verifies (none when
/// the directory has no `tournaments/`); a file that does not verify is
/// named on standard error and left out.
pub(crate) fn all_chains(data: &Path) -> Vec<Chain> {
    tournaments::files(data)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| match read_chain(p) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("note: tournament chain left out: {}", e.message);
                None
            }
        })
        .collect()
}

/// The server's copy of the tournament `spec` names: where it is kept and
/// its records, unverified.
fn served_chain(c: Client, spec: &str) -> Result<(Kept, Vec<Record>), Failure> {
    let id = c.tournament_id(spec)?;
    let records = c.tournament_records(&id)?;
    Ok((Kept::Served(c, id), records))
}

/// Finds a tournament by id prefix or short name (in the data directory,
/// or on the server), and verifies it.
pub(crate) fn find(data: &Path, spec: &str) -> Result<(Kept, Chain), Failure> {
    let (kept, records) = match served() {
        Some(c) => served_chain(c, spec)?,
        None => {
            let (path, records) = tournaments::find(data, spec).map_err(failure)?;
            (Kept::File(path), records)
        }
    };
    let chain = open_chain(&kept.shown(), records)?;
    Ok((kept, chain))
}

/// Refuses to write a data directory's tournament chains while a `kifu
/// serve` keeps them: the server is their one writer.
fn not_served(data: &Path) -> CmdResult {
    match crate::endpoint::held_by_server(data) {
        Some(line) => Err(Failure::new(format!("{line}; nothing written"))),
        None => Ok(()),
    }
}

/// Keeps a new tournament: its file (`kifu_store::tournaments::Keeper`,
/// unless another tournament has its short name), or on the server (`POST /tournaments`, under the server's
/// creation policy).
fn keep_new(data: &Path, chain: &Chain) -> Result<Kept, Failure> {
    if let Some(c) = served() {
        c.post_records("/tournaments", &chain.records)?;
        return Ok(Kept::Served(c, chain.id()));
    }
    not_served(data)?;
    let name = &chain.projection.genesis.short_name;
    let path = tournaments::Keeper::new(data)
        .create(&chain.id(), name, &chain.records)
        .map_err(|e| match e {
            tournaments::CreateError::ShortNameTaken { .. } => {
                Failure::new(format!("{e} with --short-name; nothing written"))
            }
            e => Failure::new(format!("{e}; nothing written")),
        })?;
    Ok(Kept::File(path))
}

/// Replaces the chain file with the chain's records, durably.
fn save(path: &Path, chain: &Chain) -> Result<(), Failure> {
    tournaments::write(path, &chain.records)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

/// Checks and signs `bodies` in order (`Chain::append_all`), refused
/// with nothing written.
fn append_all(chain: &mut Chain, key: &Keypair, bodies: Vec<Body>, at: u64) -> CmdResult {
    chain
        .append_all(key, at, bodies)
        .map_err(|e: Refused<ChainError>| Failure::new(format!("{e}; nothing written")))
}

/// Checks and signs `bodies` in order; writes them all or nothing.
fn write_facts(data: &Path, target: &Target, bodies: Vec<Body>) -> CmdResult {
    if crate::endpoint::server().is_none() {
        not_served(data)?;
    }
    let (kept, mut chain) = find(data, &target.tournament)?;
    let key = read_private(&target.key)?;
    let at = target.at_ms.unwrap_or_else(now_ms);
    let from = chain.records.len();
    let n = bodies.len();
    append_all(&mut chain, &key, bodies, at)?;
    let auto = checkpoint_finished(data, &mut chain, &key, at);
    kept.keep(&chain, from)?;
    let head = chain.head();
    say!(
        "{} {} written; tournament {} at seq {}",
        n,
        if n == 1 { "fact" } else { "facts" },
        short(&chain.id()),
        head.seq
    );
    if auto > 0 {
        say!(
            "{auto} finished {} checkpointed at {} head",
            if auto == 1 { "game" } else { "games" },
            if auto == 1 { "its" } else { "their" }
        );
    }
    Ok(())
}

fn short(h: &Hash) -> String {
    hex::encode(&h[..8])
}

// ---- commands -------------------------------------------------------------

/// The genesis the flags over the `--config` file describe
/// (`kifu_tournament::choices`), the keys of the officials read here.
fn genesis_from(a: NewArgs, director: &Keypair) -> Result<TournamentGenesis, Failure> {
    let file: Choices = match &a.config {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| Failure::new(format!("{}: {e}", f.display())))?;
            toml::from_str(&text).map_err(|e| Failure::new(format!("{}: {e}", f.display())))?
        }
        None => Choices::default(),
    };
    let choices = Choices::from(a.settings).or(file);
    let refused = |e: DeskError| match e {
        DeskError::Choice(ChoiceError::Missing(what)) => {
            Failure::new(format!("a tournament needs --{what}"))
        }
        e => failure(e),
    };
    let mut officials = vec![desk::director(director.public(), a.director)];
    for (role, name, key) in choices.officials().map_err(|e| refused(e.into()))? {
        officials.push(Participant {
            role,
            name: name.to_string(),
            key: read_public(key)?,
        });
    }
    desk::genesis(choices, officials).map_err(refused)
}

fn new(data: &Path, a: NewArgs) -> CmdResult {
    let key = read_private(&a.key)?;
    let (json, key_file, at) = (a.json, a.key.clone(), a.at_ms.unwrap_or_else(now_ms));
    let zone = a.time_zone.clone();
    let genesis = genesis_from(a, &key)?;
    let time_zone =
        |e: &dyn std::fmt::Display| Failure::new(format!("--time-zone: {e}; nothing written"));
    let new = desk::created(genesis, zone.as_deref()).map_err(|e| time_zone(&e))?;
    let mut chain = Chain::create(&key, at, new.genesis).map_err(failure)?;
    for body in new.facts {
        chain.append(&key, at, body).map_err(|e| time_zone(&e))?;
    }
    let kept = keep_new(data, &chain)?;
    created(&chain, &kept, json, &key_file)
}

/// What `new` and `import-opengotha` print: the short name, the id and the
/// next step, or the same as JSON.
fn created(chain: &Chain, kept: &Kept, json: bool, key: &Path) -> CmdResult {
    let g = &chain.projection.genesis;
    let id = hex::encode(chain.id());
    if json {
        say!(
            "{}",
            serde_json::to_string(&kifu_archive::printed::TournamentCreated {
                file: kept.shown(),
                id,
                name: g.name.clone(),
                players: chain.projection.players.len() as u64,
                rounds: g.rounds,
                short_name: g.short_name.clone(),
                time_zone: chain.projection.time_zone.clone(),
            })?
        );
        return Ok(());
    }
    say!(
        "tournament '{}' created: {}, {} rounds",
        g.short_name,
        g.name,
        g.rounds
    );
    say!("id {id}");
    if let Some(zone) = &chain.projection.time_zone {
        say!("time zone {zone}");
    }
    say!("file {}", kept.shown());
    if g.egf_class.is_empty() {
        say!("note: its time control gives no EGF class: give --egf-class and --adjusted-time to `export --format h9`");
    }
    let short_name = if g.short_name.contains(char::is_whitespace) {
        format!("'{}'", g.short_name)
    } else {
        g.short_name.clone()
    };
    if chain.projection.players.is_empty() {
        say!(
            "next: kifu tournament register {short_name} --key {} --id P1 --surname NAME --rank 2d",
            key.display()
        );
    } else {
        say!(
            "next: kifu tournament standings {short_name}   (or pair the next round: kifu tournament pair {short_name} --key {} --round N --file ROUND.txt)",
            key.display()
        );
    }
    Ok(())
}

fn list(data: &Path) -> CmdResult {
    if let Some(c) = served() {
        // The server lists the tournaments that verify, by short name.
        let v = c.get_json("/tournaments")?;
        for t in v["tournaments"].as_array().into_iter().flatten() {
            let id = t["id"].as_str().unwrap_or_default();
            say!(
                "{}  {}  {}  {} players, {} rounds",
                id.get(..16).unwrap_or(id),
                t["short_name"].as_str().unwrap_or_default(),
                t["name"].as_str().unwrap_or_default(),
                t["players"].as_u64().unwrap_or(0),
                t["rounds"].as_u64().unwrap_or(0)
            );
        }
        return Ok(());
    }
    for p in tournaments::files(data).unwrap_or_default() {
        let c = read_chain(&p)?;
        let g = &c.projection.genesis;
        say!(
            "{}  {}  {}  {} players, {} rounds",
            short(&c.id()),
            g.short_name,
            g.name,
            c.projection.players.len(),
            g.rounds
        );
    }
    Ok(())
}

fn register(data: &Path, a: RegisterArgs) -> CmdResult {
    let reg = kifu_ledger::Registration {
        id: a.id,
        surname: a.surname,
        given: a.given,
        rank: a.rank,
        rating: a.rating,
        country: a.country,
        club: a.club,
        egd_pin: a.egd_pin,
        aga_id: a.aga_id,
        smms_correction: a.smms_correction,
        key: a.player_key.as_deref().map(read_public).transpose()?,
    };
    write_facts(data, &a.target, vec![desk::registered(reg, a.correct)])
}

fn pair(data: &Path, a: PairArgs) -> CmdResult {
    let mut bodies = Vec::new();
    if a.auto {
        let (_, chain) = find(data, &a.tournament)?;
        let swaps = entry::swaps(&a.swap, &a.reason)
            .map_err(|e| Failure::new(format!("{e}; nothing written")))?;
        let not_written = |e: &dyn std::fmt::Display| Failure::new(format!("{e}; nothing written"));
        if a.dry_run {
            let d = kifu_tournament::draw::propose(&chain.projection, a.round, &swaps)
                .map_err(|e| not_written(&e))?;
            if a.json {
                say!("{}", kifu_tournament::draw::json(&d));
            } else {
                say!("{}", kifu_tournament::draw::text(&d).trim_end());
            }
            return Ok(());
        }
        bodies = desk::drawn(&chain.projection, a.round, &swaps, usize::MAX)
            .map_err(|e| not_written(&e))?
            .1;
    } else if let Some(file) = &a.file {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
        bodies =
            desk::pairing_text(&text, a.round, a.colours_unknown, usize::MAX).map_err(|e| {
                Failure::new(match e {
                    DeskError::Entry(entry::EntryError::NoPairings) => {
                        format!("{}: no pairings", file.display())
                    }
                    e => format!("{} {e}; nothing written", file.display()),
                })
            })?;
    } else {
        let (Some(board), Some(white), Some(black)) = (a.board, &a.white, &a.black) else {
            return Err(Failure::new(
                "give --board, --white and --black, or --file with a whole round",
            ));
        };
        let game = match &a.game {
            Some(g) => Some(remote::open_existing(data)?.resolve(g)?),
            None => None,
        };
        bodies.push(pairing(
            a.round,
            board,
            white,
            black,
            a.handicap,
            game,
            !a.colours_unknown,
        ));
    }
    let Some(key) = a.key else {
        return Err(Failure::new("give --key, the director's private key"));
    };
    let target = Target {
        tournament: a.tournament,
        key,
        at_ms: a.at_ms,
    };
    write_facts(data, &target, bodies)
}

fn check_pairing(data: &Path, a: CheckPairingArgs) -> CmdResult {
    // An OpenGotha file is read as its import would sign it; anything else
    // names a tournament of the data directory.
    let given = Path::new(&a.tournament);
    let projection = if given
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
        && given.is_file()
    {
        let bytes =
            std::fs::read(given).map_err(|e| Failure::new(format!("{}: {e}", given.display())))?;
        opengotha::import(&opengotha::decode(&bytes), Vec::new())
            .map_err(|e| Failure::new(format!("{}: {e}", given.display())))?
            .projection()
            .map_err(|e| Failure::new(format!("{}: {e}", given.display())))?
    } else {
        find(data, &a.tournament)?.1.projection
    };
    let p = &projection;
    let rounds: Vec<u32> = match a.round {
        Some(r) => vec![r],
        None => (1..=p.last_round()).collect(),
    };
    let mut report = Vec::new();
    let mut departed = 0;
    for round in rounds {
        let found = kifu_tournament::draw::departures(p, round).map_err(failure)?;
        departed += found.len();
        report.push((round, found));
    }
    if a.json {
        let rounds = report
            .iter()
            .map(|(r, d)| kifu_tournament::draw::RoundDepartures {
                departures: d.iter().map(ToString::to_string).collect(),
                round: *r,
            })
            .collect();
        let check = kifu_tournament::draw::PairingCheck {
            engine: kifu_pairing::ENGINE.to_string(),
            ok: departed == 0,
            rounds,
        };
        say!("{}", serde_json::to_string(&check).unwrap_or_default());
    } else {
        for (round, found) in &report {
            if found.is_empty() {
                say!("round {round}: the engine's draw, board for board");
            }
            for line in found {
                say!("{line}");
            }
        }
    }
    if departed > 0 {
        return Err(Failure {
            message: format!(
                "{departed} {} from the engine's draw ({})",
                if departed == 1 {
                    "departure"
                } else {
                    "departures"
                },
                kifu_pairing::ENGINE
            ),
            code: 3,
        });
    }
    Ok(())
}

/// A checkpoint refused: the games' own failure, or the words of the
/// refusal.
fn not_checkpointed(e: CheckpointError<kifu_client::ClientError>) -> Failure {
    match e {
        CheckpointError::Games(f) => f.into(),
        e => failure(e.map_games(|f| f.to_string())),
    }
}

fn checkpoint(data: &Path, a: CheckpointArgs) -> CmdResult {
    let (_, chain) = find(data, &a.target.tournament)?;
    let store = remote::open_existing(data)?;
    if a.all {
        let bodies: Vec<Body> = checkpoints::due(&store, &chain, false)
            .map_err(not_checkpointed)?
            .into_iter()
            .map(Body::GameCheckpointed)
            .collect();
        drop(store);
        if bodies.is_empty() {
            say!("every game of the tournament is checkpointed at its head");
            return Ok(());
        }
        return write_facts(data, &a.target, bodies);
    }
    let game = store.resolve(a.game.as_deref().unwrap_or_default())?;
    let c = checkpoints::of_game(&store, &chain, game).map_err(not_checkpointed)?;
    checkpoints::expect_head::<String>(&c, a.seq, a.hash.as_deref())
        .map_err(|e| Failure::new(format!("{e}; nothing written")))?;
    let genesis = store.genesis(&game)?;
    drop(store);
    for f in checkpoints::warnings(&chain, &game, &genesis) {
        eprintln!("warning: {f}");
    }
    write_facts(data, &a.target, vec![Body::GameCheckpointed(c)])
}

/// With the director's key at hand, every game of the tournament that has
/// a signed result and is not checkpointed at its head yet is checkpointed
/// (kind 51) after the facts being written (`checkpoints::due`): a
/// finished game's record is tied into the tournament without a separate
/// `kifu tournament checkpoint`. A game the tournament refuses to
/// checkpoint (its board is not paired yet, another game is paired there)
/// is left for later, with a note. Returns how many were added.
fn checkpoint_finished(data: &Path, chain: &mut Chain, key: &Keypair, at: u64) -> usize {
    if !checkpoints::checkpoints_after(chain, &key.public())
        || (crate::endpoint::server().is_none() && !data.join("db").exists())
    {
        return 0;
    }
    let due = match remote::open_existing(data)
        .and_then(|store| checkpoints::due(&store, chain, true).map_err(not_checkpointed))
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("note: finished games not checkpointed: {}", e.message);
            return 0;
        }
    };
    let mut added = 0;
    for c in due {
        let game = short(&c.game);
        match chain.append(key, at, Body::GameCheckpointed(c)) {
            Ok(_) => added += 1,
            Err(e) => eprintln!("note: finished game {game} not checkpointed: {e}"),
        }
    }
    added
}

fn log(data: &Path, a: TLogArgs) -> CmdResult {
    let (_, chain) = find(data, &a.tournament)?;
    for e in &chain.events().map_err(failure)? {
        if a.json {
            say!("{}", tables::log_json(&chain, e));
        } else {
            say!("{}", tables::log_line(&chain, e));
        }
    }
    Ok(())
}

fn print_standings(data: &Path, a: StandingsArgs) -> CmdResult {
    let (_, chain) = find(data, &a.tournament)?;
    let st = tables::standings_of(&chain, a.after_round, a.criteria.as_deref(), a.all_criteria)
        .map_err(failure)?;
    if a.json {
        say!("{}", tables::standings_json(&st));
    } else {
        print!("{}", tables::standings_table(&chain, &st));
    }
    Ok(())
}

fn export(data: &Path, a: TExportArgs) -> CmdResult {
    let (_, chain) = find(data, &a.tournament)?;
    let format: Format = a.format.parse().map_err(failure)?;
    let o = ResultsOptions {
        after_round: a.after_round,
        drop_by_default: a.drop_by_default,
        egf_class: a.egf_class,
        adjusted_time: a.adjusted_time,
    };
    let text = tables::export(&chain, format, &o).map_err(failure)?;
    match &a.output {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}

fn import_opengotha(data: &Path, a: ImportArgs) -> CmdResult {
    let key = read_private(&a.key)?;
    let bytes =
        std::fs::read(&a.file).map_err(|e| Failure::new(format!("{}: {e}", a.file.display())))?;
    let xml = opengotha::decode(&bytes);
    let officials = vec![Participant {
        role: Role::Director,
        name: a.director.clone(),
        key: key.public(),
    }];
    let imported = opengotha::import(&xml, officials)
        .map_err(|e| Failure::new(format!("{}: {e}", a.file.display())))?;
    let at = a.at_ms.unwrap_or_else(now_ms);
    let counts = imported.counts();
    let mut chain = Chain::create(&key, at, imported.genesis).map_err(failure)?;
    append_all(&mut chain, &key, imported.facts, at)?;
    let kept = keep_new(data, &chain)?;
    let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    eprintln!("imported {}", summary.join(", "));
    created(&chain, &kept, a.json, &a.key)
}

/// `kifu demo`'s tournament (`kifu_tournament::demo`): kept beside the
/// demo game, its standings printed unless `json`.
pub fn demo_tournament(
    data: &Path,
    store: &kifu_store::Store,
    game: Hash,
    director: &Keypair,
    referee: &Keypair,
    json: bool,
) -> CmdResult {
    let chain =
        kifu_tournament::demo::chain(store, game, director, referee, now_ms()).map_err(failure)?;
    save(&tournaments::file_of(data, &chain.id()), &chain)?;
    if !json {
        let st = tables::standings_of(&chain, Some(3), None, false).map_err(failure)?;
        say!(
            "tournament {}: {} players, 3 rounds, a bye, a forfeit, the demo game checkpointed",
            short(&chain.id()),
            chain.projection.players.len()
        );
        print!("{}", tables::standings_table(&chain, &st));
        say!(
            "try: kifu tournament standings {} --all-criteria; kifu tournament export {} --format h9",
            &hex::encode(chain.id())[..12],
            &hex::encode(chain.id())[..12]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Kifu {
        #[command(subcommand)]
        cmd: TournamentCommand,
    }

    #[test]
    fn every_flag_of_new_becomes_the_choice_of_its_name() {
        let args = [
            "kifu",
            "new",
            "--key",
            "d.key",
            "--name",
            "Spring Open",
            "--short-name",
            "spring",
            "--city",
            "Berlin",
            "--country",
            "DE",
            "--start",
            "2026-05-01",
            "--finish",
            "2026-05-02",
            "--rounds",
            "5",
            "--system",
            "swiss",
            "--criteria",
            "NBW,SOSW",
            "--bar",
            "3d",
            "--floor",
            "15k",
            "--bye-nbw",
            "0.5",
            "--bye-mms",
            "1",
            "--absent-nbw",
            "1.5",
            "--absent-mms",
            "2",
            "--round-down=false",
            "--unplayed-as-half",
            "--game",
            "go",
            "--ruleset",
            "aga",
            "--time",
            "fischer:90m+30s",
            "--komi",
            "6.5",
            "--egf-class",
            "B",
            "--adjusted-time",
            "70",
            "--handicap-reduction",
            "1",
            "--referee",
            "R=r.pub",
            "--committee",
            "C=c.pub",
        ];
        let TournamentCommand::New(a) = Kifu::parse_from(args).cmd else {
            panic!("not new");
        };
        let c = Choices::from(a.settings);
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        assert_eq!(
            [
                &c.name,
                &c.short_name,
                &c.city,
                &c.country,
                &c.start,
                &c.finish,
                &c.system,
                &c.criteria,
                &c.bar,
                &c.floor,
                &c.bye_nbw,
                &c.bye_mms,
                &c.absent_nbw,
                &c.absent_mms,
                &c.game,
                &c.ruleset,
                &c.time,
                &c.komi,
                &c.egf_class,
            ]
            .map(text),
            [
                "Spring Open",
                "spring",
                "Berlin",
                "DE",
                "2026-05-01",
                "2026-05-02",
                "swiss",
                "NBW,SOSW",
                "3d",
                "15k",
                "0.5",
                "1",
                "1.5",
                "2",
                "go",
                "aga",
                "fischer:90m+30s",
                "6.5",
                "B",
            ]
        );
        assert_eq!(
            (c.rounds, c.adjusted_time, c.handicap_reduction),
            (Some(5), Some(70), Some(1))
        );
        assert_eq!(
            (c.round_down, c.no_round_down, c.unplayed_as_half),
            (Some(false), None, Some(true))
        );
        assert_eq!(c.referees, Some(vec!["R=r.pub".to_string()]));
        assert_eq!(c.committee, Some(vec!["C=c.pub".to_string()]));
        let n = c.new_tournament(vec![]).expect("reads");
        assert_eq!(
            (
                n.bye_nbw_halves,
                n.bye_mms_halves,
                n.absent_nbw_halves,
                n.absent_mms_halves
            ),
            (Some(1), Some(2), Some(3), Some(4))
        );
    }
}
