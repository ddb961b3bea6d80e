//! `kifu sgf board | import | export`: SGF FF\[4\] in and out.

use std::path::Path;

use kifu_clock::TimeControl;
use kifu_go::sgf::{self, SgfGame};
use kifu_go::{board_report, Ruleset};
use kifu_ledger::{
    Body, Color, Event, GameKind, GameResult, Genesis, Outcome, Participant, Point, ResultBy, Role,
};
use serde_json::json;

use crate::cli::{SgfBoardArgs, SgfExportArgs, SgfImportArgs};
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

fn go_color(c: kifu_go::Color) -> Color {
    match c {
        kifu_go::Color::Black => Color::Black,
        kifu_go::Color::White => Color::White,
    }
}

fn ledger_point(p: kifu_go::Point) -> Point {
    Point { x: p.x, y: p.y }
}

/// The time control an SGF's `TM` and `OT` describe, as far as they say
/// (`OT` is read by kifu-clock, next to its writer).
fn time_control(rec: &SgfGame) -> TimeControl {
    let main_ms = rec.time_limit_ms.unwrap_or(0).max(0) as u64;
    if let Some(tc) = rec
        .overtime
        .as_deref()
        .and_then(|ot| kifu_clock::notation::parse_sgf_overtime(main_ms, ot))
    {
        return tc;
    }
    if rec.time_limit_ms.is_some_and(|t| t > 0) {
        TimeControl::SuddenDeath { main_ms }
    } else {
        TimeControl::Untimed
    }
}

/// One file read and turned into a signed chain, not yet stored.
struct Prepared {
    game: kifu_ledger::Hash,
    records: Vec<kifu_ledger::Record>,
    warnings: Vec<String>,
}

/// The recorder's key and the options every file of an import shares.
struct ImportContext<'a> {
    key: &'a kifu_ledger::Keypair,
    rs: Ruleset,
    black_key: Option<kifu_ledger::PublicKey>,
    white_key: Option<kifu_ledger::PublicKey>,
    at: u64,
    max_sgf_mib: u64,
}

/// Reads one SGF file and builds its chain: the genesis keeps the record's
/// game information (players by name, signed for by the recorder when their
/// keys are not given), the moves, a clock reading where the file has one,
/// and the result where `RE` can be read. Errors are the reason to skip it.
fn prepare(path: &Path, cx: &ImportContext) -> Result<Prepared, String> {
    let bytes = read_limited(path, cx.max_sgf_mib)?;
    let (rec, warnings) = sgf::read_bytes(&bytes).map_err(|e| e.to_string())?;
    let mut warnings: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    let rs = &cx.rs;
    if !rec.setup_white.is_empty() {
        return Err(
            "white setup stones (AW) describe a position, not a game; nothing imported".into(),
        );
    }
    let handicap = rec.handicap.max(rec.setup_black.len() as u32);
    let komi = match rec.komi {
        Some(k) => k,
        None => {
            let k = rs.komi(handicap);
            warnings.push(format!("KM: none given; komi {k} from {}", rs.name()));
            k
        }
    };
    let info = sgf::GameInfo::from_game(&rec);
    let file_name = path
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or("SGF")
        .to_string();
    let recorder = cx.key.public();
    let mut roster = vec![Participant {
        role: Role::Recorder,
        name: format!("recorder ({file_name})"),
        key: recorder,
    }];
    // A player whose key is not given is recorded by name; the recorder signs
    // for them, as the scorer does at a real board.
    for (role, name, key, default) in [
        (Role::Black, &rec.black_player, cx.black_key, "Black"),
        (Role::White, &rec.white_player, cx.white_key, "White"),
    ] {
        roster.push(Participant {
            role,
            name: name.clone().unwrap_or_else(|| default.to_string()),
            key: key.unwrap_or(recorder),
        });
    }
    let tournament = info.get("EV").map(|ev| kifu_ledger::TournamentRef {
        tournament: ev.to_string(),
        round: info
            .get("RO")
            .and_then(|r| {
                let digits: String = r.trim().chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .unwrap_or(1),
        board: 1,
    });
    // Handicap stones on the standard points are implied by the genesis; any
    // other placement is free: Black's stones before White's first move.
    let fixed = kifu_go::fixed_handicap_points(rec.size, handicap).ok();
    let on_standard_points = rec.setup_black.is_empty()
        || fixed.as_ref().is_some_and(|f| {
            f.len() == rec.setup_black.len() && f.iter().all(|p| rec.setup_black.contains(p))
        });
    let overrides = vec![(
        "handicap_placement".to_string(),
        if on_standard_points { "fixed" } else { "free" }.to_string(),
    )];
    let mut title = info.to_sgf_text();
    if title.is_empty() {
        title = format!("GN[{}]", file_name.replace(['\\', ']'], "_"));
    }
    let time_control = time_control(&rec);
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: rs.name().to_string(),
        overrides: if handicap >= 2 { overrides } else { vec![] },
        board_size: rec.size,
        handicap: u8::try_from(handicap).map_err(|_| "handicap too large".to_string())?,
        komi_half_points: komi.half_points(),
        time_control: kifu_game::convert::ledger_time_control(&time_control),
        roster,
        tournament,
        title,
        auto_declare: false,
    };
    kifu_game::check_genesis_values(&genesis).map_err(|e| e.to_string())?;
    let key = cx.key;
    let at = cx.at;
    let first = Event::genesis(at, key.public(), genesis)
        .sign(key)
        .map_err(|e| e.to_string())?;
    let game = first.hash();
    let mut records = vec![first];
    let mut head = kifu_ledger::Head { seq: 0, hash: game };
    let mut push = |body: Body, records: &mut Vec<kifu_ledger::Record>| -> Result<(), String> {
        let r = Event::next(game, head, at, key.public(), body)
            .sign(key)
            .map_err(|e| e.to_string())?;
        head = kifu_ledger::Head {
            seq: head.seq + 1,
            hash: r.hash(),
        };
        records.push(r);
        Ok(())
    };
    // Freely placed handicap stones are placed by Black before White's first move.
    for p in rec.setup_black.iter().filter(|_| !on_standard_points) {
        push(
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: ledger_point(*p),
            },
            &mut records,
        )?;
    }
    // What each clock last showed: the main time at the start (when the file
    // gives one), then each BL/WL. A reading is recorded only on a move
    // where the file has one, and only when both clocks are known (the clock
    // not running keeps what it showed). BL/WL and OB/OW are read as SGF
    // FF[4] defines them and kifu's export writes them (`kifu_clock::sgf`):
    // the time left in the phase under way (main time, or the byo-yomi
    // period or Canadian block) and, in overtime only, the periods or stones
    // left; a BL without OB is a main-time reading, so a count is never
    // carried over to a time it was not given with.
    let start = rec.time_limit_ms.filter(|t| *t > 0).map(|t| t as u64);
    let (mut bl, mut wl) = (start, start);
    let (mut ob, mut ow) = (None::<u32>, None::<u32>);
    let mut unread = 0usize;
    for m in &rec.moves {
        let c = go_color(m.color);
        let body = match m.point {
            Some(p) => Body::StonePlaced {
                player: c,
                stone: c,
                point: ledger_point(p),
            },
            None => Body::Pass {
                player: c,
                pass_stone: rs.pass_stones,
            },
        };
        push(body, &mut records)?;
        if m.black_time_left_ms.is_none() && m.white_time_left_ms.is_none() {
            continue;
        }
        if let Some(v) = m.black_time_left_ms {
            (bl, ob) = (
                Some(v.max(0).unsigned_abs()),
                m.black_overtime_left.map(u32::from),
            );
        }
        if let Some(v) = m.white_time_left_ms {
            (wl, ow) = (
                Some(v.max(0).unsigned_abs()),
                m.white_overtime_left.map(u32::from),
            );
        }
        match (bl, wl) {
            (Some(black_ms), Some(white_ms)) => push(
                Body::ClockReading {
                    black_ms,
                    white_ms,
                    black_overtime: ob,
                    white_overtime: ow,
                    read_by: "SGF record".into(),
                },
                &mut records,
            )?,
            _ => unread += 1,
        }
    }
    if unread > 0 {
        warnings.push(format!(
            "BL/WL: {unread} move(s) give one clock only and the other is not known yet: no reading recorded there"
        ));
    }
    if let Some(re) = rec.result.as_deref() {
        match GameResult::from_sgf(re) {
            Some(r) => {
                if matches!(r.by, ResultBy::Other(ref s) if s == "unspecified") {
                    warnings.push(format!(
                        "RE: {re:?} read as a win for {} without the manner",
                        if r.outcome == Outcome::Win(Color::Black) { "Black" } else { "White" }
                    ));
                }
                push(Body::ResultDeclared(r), &mut records)?;
            }
            None => warnings.push(format!(
                "RE: {re:?} is not a result kifu can read: kept in the game information, no result declared"
            )),
        }
    }
    Ok(Prepared {
        game,
        records,
        warnings,
    })
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
        key: &key,
        rs: ruleset(&a.ruleset)?,
        black_key: a.black_key.as_deref().map(read_public).transpose()?,
        white_key: a.white_key.as_deref().map(read_public).transpose()?,
        at: a.at_ms.unwrap_or_else(now_ms),
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
                    skipped.push(json!({"file": shown, "reason": "already in the store", "game": hex::encode(p.game)}));
                } else {
                    let n = p.records.len();
                    match store.append_batch(p.records) {
                        Ok(_) => {
                            events += n;
                            imported.push(json!({"file": shown, "game": hex::encode(p.game), "events": n, "warnings": p.warnings}));
                        }
                        Err(e) => skipped.push(json!({"file": shown, "reason": e.message})),
                    }
                }
            }
            Err(reason) => skipped.push(json!({"file": shown, "reason": reason})),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if a.json {
        say!(
            "{}",
            json!({"imported": imported, "skipped": skipped, "events": events})
        );
    } else {
        for i in &imported {
            say!("{}", i["game"].as_str().unwrap_or_default());
            for w in i["warnings"].as_array().into_iter().flatten() {
                eprintln!(
                    "{}: warning: {}",
                    i["file"].as_str().unwrap_or_default(),
                    w.as_str().unwrap_or_default()
                );
            }
        }
        for s in &skipped {
            eprintln!(
                "{}: skipped: {}",
                s["file"].as_str().unwrap_or_default(),
                s["reason"].as_str().unwrap_or_default()
            );
        }
        eprintln!(
            "imported {} of {} ({} events), skipped {}",
            crate::render::count(imported.len(), "game"),
            crate::render::count(files.len(), "file"),
            events,
            skipped.len()
        );
    }
    if imported.is_empty()
        && !skipped.is_empty()
        && skipped.len() == files.len()
        && files.len() == 1
    {
        return Err(Failure::new(format!(
            "{}: {}",
            files[0].display(),
            skipped[0]["reason"].as_str().unwrap_or_default()
        )));
    }
    Ok(())
}

/// Builds the SGF of a stored game (`kifu_game::sgf_export::game_to_sgf`).
pub fn game_to_sgf(records: &[kifu_ledger::Record]) -> Result<SgfGame, Failure> {
    let events: Vec<Event> = records
        .iter()
        .map(|r| r.decode())
        .collect::<Result<_, _>>()?;
    let mut out = kifu_game::sgf_export::game_to_sgf(&events).map_err(fail)?;
    let Some(Body::GameCreated(g)) = events.first().map(|e| &e.body) else {
        return Err(Failure::new("the game has no genesis"));
    };
    // A title that holds an imported record's game information is written
    // back as properties, not as a comment.
    let info = sgf::GameInfo::from_sgf_text(&g.title);
    if info.is_some() {
        if let Some(c) = out.comment.take() {
            let rest: Vec<&str> = c.lines().filter(|l| *l != g.title).collect();
            if !rest.is_empty() {
                out.comment = Some(rest.join("\n"));
            }
        }
    }
    sgf::write_game_info(
        &mut out,
        &sgf::ExportFacts {
            ruleset: g.ruleset.clone(),
            event: g.tournament.as_ref().map(|t| t.tournament.clone()),
            round: g.tournament.as_ref().map(|t| t.round),
            date: events
                .first()
                .map(|e| kifu_clock::notation::iso_date_utc(e.at_ms)),
            timed: !matches!(g.time_control, kifu_ledger::TimeControl::Untimed),
            info,
        },
    );
    Ok(out)
}

/// `kifu sgf export GAME`.
pub fn export(data: &Path, a: SgfExportArgs) -> CmdResult {
    let store = open_existing(data)?;
    let game = store.resolve(&a.game)?;
    let records = store.read(&game, 0, None)?;
    let text = sgf::write(&game_to_sgf(&records)?);
    match &a.out {
        Some(path) => {
            crate::archive_cmd::write_atomically(path, text.as_bytes())?;
            eprintln!("wrote {}", path.display());
        }
        None => say!("{}", text.trim_end()),
    }
    Ok(())
}
