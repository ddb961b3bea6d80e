//! `kifu sgf board | import | export`: SGF FF\[4\] in and out.

use clap::{Args, Subcommand};
use std::path::Path;
use std::path::PathBuf;

use kifu_archive::printed::{SgfGame, SgfImported, SgfSkipped};
use kifu_game::sgf_import::Imported;
use kifu_go::sgf;
use kifu_go::{board_report, Ruleset};

use crate::keys::{read_private, read_public};
use crate::remote::{open, open_existing};
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::new(e.to_string())
}

fn ruleset(name: &str) -> Result<Ruleset, Failure> {
    Ruleset::by_name(name).map_err(fail)
}

/// The bytes of an SGF file (`-` is standard input), refused before it is
/// read when it is larger than `max_mib` MiB.
fn read_limited(path: &Path, max_mib: u64) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let max = max_mib.saturating_mul(1 << 20);
    let too_large = || {
        format!(
            "{}: larger than {max_mib} MiB, the most kifu reads of an SGF file; --max-sgf-mib raises it",
            path.display()
        )
    };
    let mut b = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .take(max.saturating_add(1))
            .read_to_end(&mut b)
            .map_err(|e| format!("standard input: {e}"))?;
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if f.metadata().map(|m| m.len() > max).unwrap_or(false) {
            return Err(too_large());
        }
        f.take(max.saturating_add(1))
            .read_to_end(&mut b)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if b.len() as u64 > max {
        return Err(too_large());
    }
    Ok(b)
}

/// An SGF file as text, decoded by its `CA` property (`-` is standard input).
fn read_text(path: &Path, max_mib: u64) -> Result<String, Failure> {
    let bytes = read_limited(path, max_mib).map_err(Failure::new)?;
    Ok(sgf::decode(&bytes).0)
}

/// `kifu sgf board FILE`.
pub fn board(a: SgfBoardArgs) -> CmdResult {
    let text = read_text(&a.file, a.max_sgf_mib)?;
    let rs = ruleset(&a.ruleset)?;
    let report =
        board_report(&text, &rs).map_err(|e| Failure::new(format!("{}: {e}", a.file.display())))?;
    if a.json {
        say!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    say!(
        "{}x{} under {}: {} black and {} white stones; captures B {} W {}; {} to move",
        report.size,
        report.size,
        rs.name(),
        report.black.len(),
        report.white.len(),
        report.captures.black,
        report.captures.white,
        report.to_move
    );
    for i in &report.illegal {
        say!(
            "illegal: move {} ({})",
            i.move_number,
            kifu_game::words::violation_code(&i.reason)
        );
    }
    Ok(())
}

/// The recorder's key and the options every file of an import shares.
struct ImportContext<'a> {
    options: kifu_game::sgf_import::ImportOptions<'a>,
    max_sgf_mib: u64,
}

/// Reads one SGF file and builds its chain (`kifu_game::sgf_import`).
/// Errors are the reason to skip it.
fn prepare(path: &Path, cx: &ImportContext) -> Result<Imported, String> {
    let bytes = read_limited(path, cx.max_sgf_mib)?;
    let file_name = path.file_name().and_then(|f| f.to_str()).unwrap_or("SGF");
    kifu_game::sgf_import::import(&bytes, file_name, &cx.options).map_err(|e| e.to_string())
}

/// The SGF files named: files as given, folders by their `*.sgf` files
/// (sorted by name).
fn sgf_files(paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<_> = std::fs::read_dir(p)
                .map_err(|e| Failure::new(format!("{}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// `kifu sgf import DIR|FILES... --key KEY`: one process, one store opening.
pub fn import(data: &Path, a: SgfImportArgs) -> CmdResult {
    let key = read_private(&a.key)?;
    let cx = ImportContext {
        options: kifu_game::sgf_import::ImportOptions {
            key: &key,
            ruleset: ruleset(&a.ruleset)?,
            black_key: a.black_key.as_deref().map(read_public).transpose()?,
            white_key: a.white_key.as_deref().map(read_public).transpose()?,
            at_ms: a.at_ms.unwrap_or_else(now_ms),
        },
        max_sgf_mib: a.max_sgf_mib,
    };
    let files = sgf_files(&a.files)?;
    if files.is_empty() {
        return Err(Failure::new("no SGF files found"));
    }
    let store = open(data)?;
    let bar = if a.json || files.len() < 2 {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(files.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} files, {per_sec}, about {eta} left {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    };
    let mut imported = Vec::new();
    let mut skipped = Vec::new();
    let mut events = 0usize;
    for path in &files {
        let shown = path.display().to_string();
        match prepare(path, &cx) {
            Ok(p) => {
                if store.head(&p.game)?.is_some() {
                    skipped.push(SgfSkipped {
                        file: shown,
                        game: Some(hex::encode(p.game)),
                        reason: "already in the store".into(),
                    });
                } else {
                    let n = p.records.len();
                    match store.append_batch(p.records) {
                        Ok(_) => {
                            events += n;
                            imported.push(SgfGame {
                                events: n as u64,
                                file: shown,
                                game: hex::encode(p.game),
                                warnings: p.warnings,
                            });
                        }
                        Err(e) => skipped.push(SgfSkipped {
                            file: shown,
                            game: None,
                            reason: e.to_string(),
                        }),
                    }
                }
            }
            Err(reason) => skipped.push(SgfSkipped {
                file: shown,
                game: None,
                reason: reason.to_string(),
            }),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let done = SgfImported {
        events: events as u64,
        imported,
        skipped,
    };
    if a.json {
        say!("{}", serde_json::to_string(&done)?);
    } else {
        for i in &done.imported {
            say!("{}", i.game);
            for w in &i.warnings {
                eprintln!("{}: warning: {w}", i.file);
            }
        }
        for s in &done.skipped {
            eprintln!("{}: skipped: {}", s.file, s.reason);
        }
        eprintln!(
            "imported {} of {} ({} events), skipped {}",
            crate::render::count(done.imported.len(), "game"),
            crate::render::count(files.len(), "file"),
            events,
            done.skipped.len()
        );
    }
    if done.imported.is_empty()
        && !done.skipped.is_empty()
        && done.skipped.len() == files.len()
        && files.len() == 1
    {
        return Err(Failure::new(format!(
            "{}: {}",
            files[0].display(),
            done.skipped[0].reason
        )));
    }
    Ok(())
}

/// `kifu sgf export GAME`.
pub fn export(data: &Path, a: SgfExportArgs) -> CmdResult {
    let store = open_existing(data)?;
    let game = store.resolve(&a.game)?;
    let records = store.read(&game, 0, None)?;
    // The date in the game's tournament's time zone, where one is stated.
    let date = kifu_tournament::game_date(&records, |t| {
        crate::tournament_cmd::find(data, t)
            .ok()
            .and_then(|(_, c)| c.projection.time_zone)
    });
    let text = kifu_game::sgf_export::records_to_sgf_on(&records, date).map_err(fail)?;
    match &a.out {
        Some(path) => {
            crate::archive_cmd::write_atomically(path, text.as_bytes())?;
            eprintln!("wrote {}", path.display());
        }
        None => say!("{}", text.trim_end()),
    }
    Ok(())
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
