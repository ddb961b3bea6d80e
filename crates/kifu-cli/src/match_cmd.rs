//! `kifu match`: kifu as the server of a computer-Go match (UEC Cup rules).
//!
//! The edge of `kifu-match`: child processes, the wall clock, Ctrl-C, the
//! nigiri's randomness, key files and the store. The refereeing itself is
//! in the library.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use kifu_ledger::{Color, Hash, Keypair, PublicKey};
use kifu_match::process::ProcessEngine;
use kifu_match::referee::tenths_text;
use kifu_match::{
    check_ruleset, run_match, Bout, Ending, Engine, EngineFailure, GameReport, MatchPlan,
    Officials, Program, ProgramStarter, StoreLedger, SystemClock,
};

use crate::keys::{generate, read_private, read_public, write_pair};
use crate::remote::{open, Backend};
use crate::{CmdResult, Failure};

/// `kifu match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The command line of the first program (it takes Black in the first
    /// game unless a nigiri decides).
    #[arg(long)]
    pub black: String,
    /// The command line of the second program.
    #[arg(long)]
    pub white: String,
    /// The ruleset profile (only the UEC Cup's).
    #[arg(long, default_value = kifu_match::RULESET)]
    pub ruleset: String,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    pub size: u8,
    /// Time per player, sudden death (default: the UEC Cup's). Whole tenths
    /// of a second.
    #[arg(long, default_value_t = kifu_clock::format_duration(kifu_match::MAIN_MS))]
    pub time: String,
    /// Komi (default: the UEC Cup's).
    #[arg(long, default_value_t = kifu_match::komi().to_string())]
    pub komi: String,
    /// Number of games; colours alternate.
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Decide the first game's colours by nigiri (the default when --games
    /// is more than 1).
    #[arg(long)]
    pub nigiri: bool,
    /// Keep the colours as given for the first game, even in a series.
    #[arg(long, conflicts_with = "nigiri")]
    pub no_nigiri: bool,
    /// The server's private key (default: DATA/match-server.key, created
    /// when absent).
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The private key of the operator of the --black program, who then
    /// signs its result sheets.
    #[arg(long)]
    pub black_operator: Option<PathBuf>,
    /// The private key of the operator of the --white program.
    #[arg(long)]
    pub white_operator: Option<PathBuf>,
    /// The referee as NAME=PUBLIC_KEY (default: the server holds the role).
    #[arg(long)]
    pub referee: Option<String>,
    /// The director as NAME=PUBLIC_KEY (default: the server holds the role).
    #[arg(long)]
    pub director: Option<String>,
    /// Names of the programs in the roster (default: their command lines).
    #[arg(long)]
    pub black_name: Option<String>,
    /// See --black-name.
    #[arg(long)]
    pub white_name: Option<String>,
    /// Limit on every GTP exchange other than genmove; a program silent
    /// longer has terminated abnormally.
    #[arg(long, default_value = "30s")]
    pub gtp_timeout: String,
    /// The event's name, in every genesis.
    #[arg(long, default_value = "kifu match")]
    pub event: String,
    /// Where the programs' standard error logs go (default: DATA/match-logs).
    #[arg(long)]
    pub logs: Option<PathBuf>,
}

struct Starter {
    commands: [String; 2],
    logs: PathBuf,
    interrupt: Arc<AtomicBool>,
}

impl ProgramStarter for Starter {
    fn start(
        &mut self,
        program: usize,
        color: Color,
        game: &Hash,
    ) -> Result<Box<dyn Engine>, EngineFailure> {
        let log = self.logs.join(format!(
            "{}-{}.log",
            &hex::encode(game)[..16],
            kifu_game::convert::go_color(color).name()
        ));
        let e = ProcessEngine::start(&self.commands[program], &log, self.interrupt.clone())?;
        Ok(Box::new(e))
    }
}

fn duration_ms(what: &str, text: &str) -> Result<u64, Failure> {
    kifu_clock::parse_duration(text).map_err(|e| Failure::new(format!("{what} '{text}': {e}")))
}

fn official(spec: &Option<String>) -> Result<Option<(String, PublicKey)>, Failure> {
    let Some(s) = spec else { return Ok(None) };
    let (name, key) = s.split_once('=').ok_or_else(|| {
        Failure::new(format!(
            "'{s}' should be NAME=PUBLIC_KEY_FILE (or NAME=HEX)"
        ))
    })?;
    Ok(Some((name.to_string(), read_public(key)?)))
}

/// Checks that the program's first word names something that can run, so a
/// misspelt command fails before any game is created.
fn check_command(cmd: &str) -> Result<(), Failure> {
    let first = cmd
        .split_whitespace()
        .next()
        .ok_or_else(|| Failure::new("an empty program command"))?;
    let found = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {first}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if found {
        Ok(())
    } else {
        Err(Failure::new(format!("cannot find the program '{first}'")))
    }
}

fn server_key(data: &Path, spec: &Option<PathBuf>) -> Result<Keypair, Failure> {
    if let Some(p) = spec {
        return read_private(p);
    }
    let base = data.join("match-server");
    let path = base.with_extension("key");
    if path.exists() {
        return read_private(&path);
    }
    let key = generate()?;
    write_pair(&base, &key, false)?;
    eprintln!("created the server key {}", path.display());
    Ok(key)
}

fn ending_text(g: &GameReport) -> String {
    match &g.ending {
        Ending::Decided { result, clause } => {
            format!("{} ({clause})", kifu_game::result_text(result))
        }
        Ending::Referee { why } => format!("in the referee's hands: {why}"),
        Ending::Replay { player, statement } => {
            format!("{player}'s program terminated abnormally ({statement}): a new game follows")
        }
        Ending::Interrupted => "interrupted; recorded as such".into(),
    }
}

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::new(e.to_string())
}

fn progress(names: &[String; 2], b: &Bout, g: &GameReport) {
    let (black, white) = (&names[b.black], &names[1 - b.black]);
    say!(
        "game {} [{}] {} (B) vs {} (W): {}; moves {}+{}, time used B {} s, W {} s",
        b.number,
        hex::encode(g.game),
        black,
        white,
        ending_text(g),
        g.moves[0],
        g.moves[1],
        tenths_text(g.charged_ms[0]),
        tenths_text(g.charged_ms[1]),
    );
}

/// `kifu match`.
pub fn run(data: &Path, a: MatchArgs) -> CmdResult {
    check_ruleset(&a.ruleset).map_err(fail)?;
    let mut plan = MatchPlan {
        size: a.size,
        komi_half_points: crate::game_cmd::parse_komi(&a.komi)?,
        main_ms: duration_ms("time", &a.time)?,
        gtp_timeout: Duration::from_millis(duration_ms("gtp timeout", &a.gtp_timeout)?.max(100)),
        games: a.games,
        first_black: 0,
        event: a.event.clone(),
    };
    plan.check(&a.time).map_err(fail)?;
    check_command(&a.black)?;
    check_command(&a.white)?;
    let server = server_key(data, &a.key)?;
    let operators = [
        a.black_operator.as_deref().map(read_private).transpose()?,
        a.white_operator.as_deref().map(read_private).transpose()?,
    ];
    let names = [
        a.black_name.clone().unwrap_or_else(|| a.black.clone()),
        a.white_name.clone().unwrap_or_else(|| a.white.clone()),
    ];
    let mut programs = Vec::new();
    for (name, op) in names.iter().zip(operators) {
        // Without an operator key the seat's key is one nobody holds: the
        // server records the program's moves as recorder.
        let seat_key = match &op {
            Some(k) => k.public(),
            None => generate()?.public(),
        };
        programs.push(Program {
            name: name.clone(),
            seat_key,
            operator: op,
        });
    }
    let programs: [Program; 2] = programs
        .try_into()
        .map_err(|_| Failure::new("two programs"))?;
    let nigiri = a.nigiri || (a.games > 1 && !a.no_nigiri);
    let first_black = if nigiri {
        let mut b = [0u8; 1];
        getrandom::getrandom(&mut b).map_err(|e| Failure::new(format!("no randomness: {e}")))?;
        let who = (b[0] & 1) as usize;
        eprintln!("nigiri: {} takes Black in the first game", names[who]);
        who
    } else {
        0
    };
    let officials = Officials {
        server_name: "kifu match server".into(),
        server,
        referee: official(&a.referee)?,
        director: official(&a.director)?,
    };
    plan.first_black = first_black;
    let logs = a.logs.clone().unwrap_or_else(|| data.join("match-logs"));
    std::fs::create_dir_all(&logs).map_err(|e| Failure::new(format!("{}: {e}", logs.display())))?;
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupt.clone();
        ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
            .map_err(|e| Failure::new(format!("cannot catch Ctrl-C: {e}")))?;
    }
    let store = open(data)?;
    let mut ledger = StoreLedger::new(&store);
    let mut starter = Starter {
        commands: [a.black.clone(), a.white.clone()],
        logs: logs.clone(),
        interrupt: interrupt.clone(),
    };
    let clock = SystemClock::new();
    let report = run_match(
        &plan,
        &programs,
        &officials,
        &mut starter,
        &clock,
        &mut ledger,
        &interrupt,
        |b, g| progress(&names, b, g),
    )
    .map_err(|e| Failure::new(e.to_string()))?;
    if let Backend::Local(s) = &store {
        s.sync()?;
    }
    say!("");
    for line in report.table([&names[0], &names[1]]).lines() {
        say!("{line}");
    }
    say!("programs' standard error: {}", logs.display());
    if report.interrupted {
        return Err(Failure {
            message: "interrupted (Ctrl-C): the game in progress is recorded as interrupted".into(),
            code: 130,
        });
    }
    Ok(())
}
