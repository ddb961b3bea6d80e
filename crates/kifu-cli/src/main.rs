//! `kifu`: record, verify, replay and export signed Go and Renju games.
//!
//! The binary is glue: it parses arguments, reads files, opens the store and
//! prints. Every rule lives in a library crate. Errors are reported on one line
//! on standard error, and the exit code is non-zero.

/// Prints a line on standard output. A reader that went away (`kifu log |
/// head`) ends the program quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

mod archive_cmd;
mod cli;
mod clock_cmd;
mod demo;
mod device_cmd;
mod endpoint;
mod feed_cmd;
mod game_cmd;
mod games_cmd;
mod import_stream;
mod key_cmd;
mod keys;
mod log_keys;
mod map_cmd;
mod match_cmd;
mod nats_cmd;
mod rehearse;
mod remote;
mod render;
mod renju_cmd;
mod replay_cmd;
// `kifu serve` runs the server in this process: the only modules that name
// kifu-server (built without the `serve` feature, the binary has no server).
mod serve_args;
#[cfg(feature = "serve")]
mod serve_cmd;
#[cfg(feature = "serve")]
mod serve_nats;
#[cfg(feature = "serve")]
mod serve_replica;
mod sgf_cmd;
mod shell_cmd;
mod store_open;
mod through;
mod tlog_cmd;
mod tlog_remote;
mod tournament_cmd;
mod tournament_verify;
mod trust;
mod verdicts;
mod verify_served;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command};
use kifu_archive::printed::ErrorCode;

/// An error for the user: one line, and the exit code to leave with.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong.
    pub message: String,
    /// Exit code (1 for errors, 3 for failed verification).
    pub code: u8,
}

impl Failure {
    /// A plain error (exit code 1).
    pub fn new(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

macro_rules! impl_from_error {
    ($($t:ty),*) => {$(
        impl From<$t> for Failure {
            fn from(e: $t) -> Self {
                Failure::new(e.to_string())
            }
        }
    )*};
}
impl_from_error!(
    kifu_client::ClientError,
    kifu_tlog::audit::AuditError,
    kifu_ledger::LedgerError,
    kifu_store::StoreError,
    serde_json::Error,
    std::io::Error
);

/// The result of a command.
pub type CmdResult = Result<(), Failure>;

/// sled allocates and frees a buffer for most keys it writes; mimalloc
/// makes that about a tenth cheaper than the system allocator (an import's
/// storage stage, `docs/PERFORMANCE.md`).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // With --json anywhere on the line, errors are JSON too: one object on
    // standard error, so that standard output holds only data.
    let json_errors = std::env::args_os().any(|a| a == "--json");
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(both) => both,
        Err(e) if json_errors && e.use_stderr() => {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            eprintln!("{}", error_json(ErrorCode::Usage, first));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    endpoint::set_server(cli.server.clone());
    // What --server does to each command is decided in one place.
    if let (Some(_), through::Reach::Refused(why)) =
        (crate::endpoint::server(), through::reach(&cli.command))
    {
        return fail(Failure::new(why), json_errors);
    }
    // --data (or KIFU_DATA) named, rather than the default ./kifu-data.
    let data_named = matches.value_source("data") != Some(clap::parser::ValueSource::DefaultValue);
    let result = match cli.command {
        Command::Keygen(a) => keys::keygen(a),
        Command::NewGame(a) => game_cmd::new_game(&cli.data, a),
        Command::Append(a) => game_cmd::append(&cli.data, a),
        Command::Log(a) => game_cmd::log(&cli.data, a),
        Command::Verify(a) if tlog_cmd::is_bundle(a.file.as_ref()) => trust::read_trusted(&a.trust)
            .and_then(|trusted| {
                tlog_cmd::verify_bundle(
                    a.file.as_deref().unwrap_or(std::path::Path::new("")),
                    a.json,
                    &trusted,
                )
            }),
        Command::Verify(a) => match tournament_verify::tournament_records(a.file.as_ref()) {
            Some(records) => trust::read_trusted(&a.trust).and_then(|trusted| {
                tournament_verify::verify(
                    a.file.as_deref().unwrap_or(std::path::Path::new("")),
                    records,
                    a.json,
                    &trusted,
                )
            }),
            None => archive_cmd::verify(&cli.data, a),
        },
        Command::Export(a) => archive_cmd::export(&cli.data, a),
        Command::Import(a) => archive_cmd::import(&cli.data, a),
        Command::Feed(a) if a.nats.nats.is_some() => nats_cmd::feed(a.nats, a.limit, a.follow),
        Command::Feed(a) => feed_cmd::feed(&cli.data, a),
        Command::Demo(a) => demo::demo(&cli.data, data_named, a),
        Command::Soak(a) => game_cmd::soak(&cli.data, a),
        Command::Clock(clock_cmd::ClockCommand::Replay(a)) => clock_cmd::replay(a),
        Command::Renju(renju_cmd::RenjuCommand::Check(a)) => renju_cmd::check(a),
        Command::Sgf(sgf_cmd::SgfCommand::Board(a)) => sgf_cmd::board(a),
        Command::Sgf(sgf_cmd::SgfCommand::Import(a)) => sgf_cmd::import(&cli.data, a),
        Command::Sgf(sgf_cmd::SgfCommand::Export(a)) => sgf_cmd::export(&cli.data, a),
        Command::Replay(a) => replay_cmd::replay(&cli.data, a),
        Command::Sanctions(a) => replay_cmd::sanctions(&cli.data, a),
        Command::Explain(a) => replay_cmd::explain(&cli.data, a),
        Command::Match(a) => match_cmd::run(&cli.data, a),
        Command::Rehearse(a) => rehearse::run(&cli.data, data_named, a),
        Command::Checkpoint(a) => tlog_cmd::checkpoint(&cli.data, a),
        Command::Witness(a) => tlog_cmd::witness(&cli.data, a),
        Command::Prove(tlog_cmd::ProveCommand::Inclusion(a)) => {
            tlog_cmd::prove_inclusion(&cli.data, a)
        }
        Command::Prove(tlog_cmd::ProveCommand::Consistency(a)) => {
            tlog_cmd::prove_consistency(&cli.data, a)
        }
        Command::Prove(tlog_cmd::ProveCommand::Rotation(a)) => {
            log_keys::prove_rotation(&cli.data, a)
        }
        Command::CheckProof(tlog_cmd::CheckProofCommand::Map(a)) => map_cmd::check_map(a),
        Command::CheckProof(tlog_cmd::CheckProofCommand::Inclusion(a)) => {
            tlog_cmd::check_inclusion(a)
        }
        Command::CheckProof(tlog_cmd::CheckProofCommand::Consistency(a)) => {
            tlog_cmd::check_consistency(a)
        }
        Command::Bundle(a) => tlog_cmd::bundle(&cli.data, a),
        Command::Tiles(a) => tlog_cmd::tiles(&cli.data, a),
        Command::Audit(a) => map_cmd::audit(&cli.data, a),
        Command::Prove(tlog_cmd::ProveCommand::Map(a)) => map_cmd::prove_map(&cli.data, a),
        Command::Publish(a) => nats_cmd::publish(&cli.data, a),
        Command::Mirror(a) => nats_cmd::mirror(&cli.data, a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve_cmd::serve(&cli.data, a),
        #[cfg(not(feature = "serve"))]
        Command::Serve(_) => Err(Failure::new(
            "kifu serve: this kifu was built without the server (cargo feature `serve`)",
        )),
        Command::Key(a) => key_cmd::run(&cli.data, a),
        Command::Devices(a) => device_cmd::run(&cli.data, a),
        Command::Tournament(c) => tournament_cmd::run(&cli.data, c),
        Command::Completions(a) => shell_cmd::completions(cli::Cli::command(), a),
        Command::Man => shell_cmd::man(cli::Cli::command()),
        Command::Games(a) => games_cmd::games(&cli.data, a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => fail(f, json_errors),
    }
}

/// A failure as `--json` prints it (`kifu_archive::printed::CommandError`).
fn error_json(code: ErrorCode, error: &str) -> String {
    let e = kifu_archive::printed::CommandError {
        code,
        error: error.to_string(),
    };
    // Two strings: the document always serialises.
    serde_json::to_string(&e).unwrap_or_default()
}

/// Reports a failure on one line of standard error (a JSON object with
/// `--json`) and gives the exit code.
fn fail(f: Failure, json_errors: bool) -> ExitCode {
    let one_line = f.message.replace('\n', " ");
    if json_errors {
        let code = if f.code == 3 {
            ErrorCode::VerificationFailed
        } else {
            ErrorCode::Error
        };
        eprintln!("{}", error_json(code, &one_line));
    } else {
        eprintln!("kifu: error: {one_line}");
    }
    ExitCode::from(f.code)
}

#[cfg(test)]
mod layout {
    use std::collections::BTreeMap;

    /// Which of this crate's modules each module names (`crate::m`), from
    /// the source, comments left out.
    fn imports() -> BTreeMap<String, Vec<String>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let files: Vec<_> = std::fs::read_dir(dir)
            .expect("src")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .collect();
        let names: Vec<String> = files
            .iter()
            .filter_map(|p| p.file_stem()?.to_str().map(str::to_string))
            .collect();
        let mut out = BTreeMap::new();
        for (path, name) in files.iter().zip(&names) {
            let code: String = std::fs::read_to_string(path)
                .expect("source")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            // `crate::m::...`, `crate::m;` and the items of `crate::{m, n::x}`.
            let mut named: Vec<String> = Vec::new();
            for (i, _) in code.match_indices("crate::") {
                let rest = &code[i + "crate::".len()..];
                let group = match rest.strip_prefix('{') {
                    Some(g) => g.split('}').next().unwrap_or(""),
                    None => rest,
                };
                for item in group.split(',') {
                    let m: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if &m != name && names.contains(&m) && !named.contains(&m) {
                        named.push(m);
                    }
                    if rest.starts_with('{') {
                        continue;
                    }
                    break;
                }
            }
            out.insert(name.clone(), named);
        }
        out
    }

    /// The command line's modules import one another in one direction only:
    /// `cli.rs` assembles the commands' arguments, the commands call the
    /// libraries and a few leaf modules, and nothing imports back.
    #[test]
    fn the_modules_form_no_import_cycle() {
        let graph = imports();
        assert!(graph.len() > 20, "{graph:?}");
        // Depth-first, with the path so far: a module met again on it is a
        // cycle.
        fn visit(
            m: &str,
            graph: &BTreeMap<String, Vec<String>>,
            path: &mut Vec<String>,
            done: &mut Vec<String>,
        ) {
            if let Some(i) = path.iter().position(|p| p == m) {
                panic!("import cycle: {} -> {m}", path[i..].join(" -> "));
            }
            if done.iter().any(|d| d == m) {
                return;
            }
            path.push(m.to_string());
            for n in graph.get(m).into_iter().flatten() {
                visit(n, graph, path, done);
            }
            path.pop();
            done.push(m.to_string());
        }
        let mut done = Vec::new();
        for m in graph.keys() {
            visit(m, &graph, &mut Vec::new(), &mut done);
        }
    }
}
