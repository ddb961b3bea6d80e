//! `kifu sgf board | import | export`: SGF FF[4] in and out.

use std::path::Path;

use kifu_clock::TimeControl;
use kifu_go::sgf::{self, SgfGame};
use kifu_go::{board_report, Ruleset};
use kifu_ledger::{
    Body, Color, Event, GameKind, GameResult, Genesis, Outcome, Participant, Point, ResultBy, Role,
};
use serde_json::json;

use crate::cli::{SgfBoardArgs, SgfExportArgs, SgfImportArgs};
use crate::clock_cmd::read_input;
use crate::keys::{read_private, read_public};
use crate::remote::{open, open_existing};
use crate::render::short;
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::new(e.to_string())
}

fn ruleset(name: &str) -> Result<Ruleset, Failure> {
    Ruleset::by_name(name).map_err(fail)
}

/// `kifu sgf board FILE`.
pub fn board(a: SgfBoardArgs) -> CmdResult {
    let text = read_input(&a.file)?;
    let rs = ruleset(&a.ruleset)?;
    let report =
        board_report(&text, &rs).map_err(|e| Failure::new(format!("{}: {e}", a.file.display())))?;
    if a.json {
        say!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    let v = serde_json::to_value(&report)?;
    say!(
        "{}x{} under {}: {} black and {} white stones; captures B {} W {}; {} to move",
        report.size,
        report.size,
        rs.name(),
        v["black"].as_array().map(|a| a.len()).unwrap_or(0),
        v["white"].as_array().map(|a| a.len()).unwrap_or(0),
        v["captures"]["black"],
        v["captures"]["white"],
        v["to_move"].as_str().unwrap_or("?")
    );
    for i in v["illegal"].as_array().into_iter().flatten() {
        say!(
            "illegal: move {} ({})",
            i["move"],
            i["reason"].as_str().unwrap_or("")
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

/// The time control an SGF's `TM` and `OT` describe, as far as they say.
fn time_control(rec: &SgfGame) -> TimeControl {
    let main_ms = rec.time_limit_ms.unwrap_or(0).max(0) as u64;
    let ot = rec
        .overtime
        .as_deref()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let num = |s: &str| s.trim().parse::<f64>().ok().map(|v| (v * 1000.0) as u64);
    if let Some(rest) = ot
        .strip_suffix("byo-yomi")
        .or_else(|| ot.strip_suffix("byoyomi"))
    {
        if let Some((n, p)) = rest.trim().split_once('x') {
            if let (Ok(periods), Some(period_ms)) = (n.trim().parse(), num(p)) {
                return TimeControl::Byoyomi {
                    main_ms,
                    periods,
                    period_ms,
                };
            }
        }
    }
    if let Some(rest) = ot.strip_suffix("canadian") {
        if let Some((n, b)) = rest.trim().split_once('/') {
            if let (Ok(stones), Some(block_ms)) = (n.trim().parse(), num(b)) {
                return TimeControl::Canadian {
                    main_ms,
                    stones,
                    block_ms,
                };
            }
        }
    }
    if let Some(rest) = ot.strip_suffix("fischer") {
        if let Some(increment_ms) = num(rest) {
            return TimeControl::Fischer {
                main_ms,
                increment_ms,
                max_ms: None,
            };
        }
    }
    if rec.time_limit_ms.is_some() {
        TimeControl::SuddenDeath { main_ms }
    } else {
        TimeControl::Untimed
    }
}

/// SGF `RE` as a result, where it can be read.
fn parse_result(re: &str) -> Option<GameResult> {
    let re = re.trim();
    match re.to_ascii_lowercase().as_str() {
        "0" | "draw" | "jigo" => {
            return Some(GameResult {
                outcome: Outcome::Draw,
                by: ResultBy::Score {
                    margin_half_points: 0,
                },
            })
        }
        "void" => {
            return Some(GameResult {
                outcome: Outcome::NoResult,
                by: ResultBy::Other("void".into()),
            })
        }
        _ => {}
    }
    let (who, how) = re.split_once('+')?;
    let winner = match who {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        _ => return None,
    };
    let by = match how {
        "R" | "Resign" => ResultBy::Resignation,
        "T" | "Time" => ResultBy::Time,
        "F" | "Forfeit" => ResultBy::Forfeit,
        "" => ResultBy::Other("unspecified".into()),
        n => {
            let v: f64 = n.parse().ok()?;
            let h = v * 2.0;
            if h.fract() != 0.0 {
                return None;
            }
            ResultBy::Score {
                margin_half_points: h as i32,
            }
        }
    };
    Some(GameResult {
        outcome: Outcome::Win(winner),
        by,
    })
}

/// `kifu sgf import FILE --key KEY`.
pub fn import(data: &Path, a: SgfImportArgs) -> CmdResult {
    let key = read_private(&a.key)?;
    let text = read_input(&a.file)?;
    let rec = sgf::read(&text).map_err(|e| Failure::new(format!("{}: {e}", a.file.display())))?;
    let rs = ruleset(&a.ruleset)?;
    if !rec.setup_white.is_empty() {
        return Err(Failure::new(format!(
            "{}: white setup stones (AW) describe a position, not a game; nothing imported",
            a.file.display()
        )));
    }
    let handicap = rec.handicap.max(rec.setup_black.len() as u32);
    let komi = rec.komi.unwrap_or_else(|| rs.komi(handicap));
    let name = |n: &Option<String>, d: &str| n.clone().unwrap_or_else(|| d.to_string());
    let mut roster = vec![Participant {
        role: Role::Recorder,
        name: format!(
            "recorder ({})",
            a.file.file_name().and_then(|f| f.to_str()).unwrap_or("SGF")
        ),
        key: key.public(),
    }];
    if let Some(k) = &a.black_key {
        roster.push(Participant {
            role: Role::Black,
            name: name(&rec.black_player, "Black"),
            key: read_public(k)?,
        });
    }
    if let Some(k) = &a.white_key {
        roster.push(Participant {
            role: Role::White,
            name: name(&rec.white_player, "White"),
            key: read_public(k)?,
        });
    }
    let mut title = format!(
        "{} (B) vs {} (W)",
        name(&rec.black_player, "?"),
        name(&rec.white_player, "?")
    );
    if let Some(d) = &rec.date {
        title.push_str(&format!(", {d}"));
    }
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
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: rs.name().to_string(),
        overrides: if handicap >= 2 { overrides } else { vec![] },
        board_size: rec.size,
        handicap: u8::try_from(handicap).map_err(|_| Failure::new("handicap too large"))?,
        komi_half_points: komi.half_points(),
        time_control: kifu_game::convert::ledger_time_control(&time_control(&rec)),
        roster,
        tournament: None,
        title,
        auto_declare: false,
    };
    let at = a.at_ms.unwrap_or_else(now_ms);
    let first = Event::genesis(at, key.public(), genesis).sign(&key)?;
    let game = first.hash();
    let mut records = vec![first];
    let mut head = kifu_ledger::Head { seq: 0, hash: game };
    let mut push = |body: Body, records: &mut Vec<kifu_ledger::Record>| -> Result<(), Failure> {
        let r = Event::next(game, head, at, key.public(), body).sign(&key)?;
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
    let (mut bl, mut wl) = (None::<u64>, None::<u64>);
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
        // BL/WL are what the clock showed: a reading.
        bl = m.black_time_left_ms.map(|v| v.max(0) as u64).or(bl);
        wl = m.white_time_left_ms.map(|v| v.max(0) as u64).or(wl);
        if m.black_time_left_ms.is_some() || m.white_time_left_ms.is_some() {
            push(
                Body::ClockReading {
                    black_ms: bl.unwrap_or(0),
                    white_ms: wl.unwrap_or(0),
                    black_overtime: m.black_overtime_left,
                    white_overtime: m.white_overtime_left,
                    read_by: "SGF record".into(),
                },
                &mut records,
            )?;
        }
    }
    if let Some(r) = rec.result.as_deref().and_then(parse_result) {
        push(Body::ResultDeclared(r), &mut records)?;
    }
    let n = records.len();
    let store = open(data)?;
    store.append_batch(records)?;
    if a.json {
        say!("{}", json!({"game": hex::encode(game), "events": n}));
    } else {
        say!("{}", hex::encode(game));
        eprintln!(
            "recorded {n} events from {} as game {}",
            a.file.display(),
            short(&game)
        );
    }
    Ok(())
}

/// Builds the SGF of a stored game (`kifu_game::sgf_export::game_to_sgf`).
pub fn game_to_sgf(records: &[kifu_ledger::Record]) -> Result<SgfGame, Failure> {
    let events: Vec<Event> = records
        .iter()
        .map(|r| r.decode())
        .collect::<Result<_, _>>()?;
    kifu_game::sgf_export::game_to_sgf(&events).map_err(fail)
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
