//! `kifu replay` and `kifu explain`: the game projection (`kifu-game`) of a
//! stored game, at one event or as a story.

use std::path::Path;

use kifu_clock::{format_time, Resolution};
use kifu_game::{BoardState, GameState, Notation};
use kifu_ledger::{verify_records, Event, GameKind, Hash};

use crate::cli::{ExplainArgs, ReplayArgs, SanctionsArgs};
use crate::remote::open_existing;
use crate::{CmdResult, Failure};

/// Reads, verifies and decodes a game's events.
fn load(data: &Path, prefix: &str) -> Result<(Hash, Vec<Event>, bool), Failure> {
    let store = open_existing(data)?;
    let game = store.resolve(prefix)?;
    let records = store.read(&game, 0, None)?;
    let verified = verify_records(&records).ok();
    let mut events = Vec::with_capacity(records.len());
    for r in &records {
        // A kind this build does not know is left out of the projection;
        // `kifu verify` reports it.
        if let Ok(e) = r.decode() {
            events.push(e);
        }
    }
    Ok((game, events, verified))
}

/// `kifu replay GAME [--at SEQ] [--json]`.
pub fn replay(data: &Path, a: ReplayArgs) -> CmdResult {
    let (game, events, verified) = load(data, &a.game)?;
    let last = events.last().map(|e| e.seq).unwrap_or(0);
    let at = a.at.unwrap_or(last);
    if at > last {
        return Err(Failure::new(format!(
            "the game has events 0 to {last}; there is no event {at}"
        )));
    }
    if a.json {
        say!(
            "{}",
            kifu_game::document::replay_json(&game, &events, at, verified)
        );
        return Ok(());
    }
    let state = GameState::at(&events, at);
    for line in replay_text(&game, &state, last, verified) {
        say!("{line}");
    }
    Ok(())
}

fn clock_line(state: &GameState) -> Vec<String> {
    let c = &state.clock;
    let mut out = Vec::new();
    let (Some(faces), Some(_), Some(_)) = (state.clock_faces_text(), c.black, c.white) else {
        return vec!["clocks: none".into()];
    };
    let show = |p: kifu_ledger::Color| {
        let i = usize::from(p == kifu_ledger::Color::White);
        let mark = if c.running == Some(p) {
            " (running)"
        } else {
            ""
        };
        format!("{}{mark}", faces[i])
    };
    out.push(format!(
        "clocks: Black {}, White {}{}",
        show(kifu_ledger::Color::Black),
        show(kifu_ledger::Color::White),
        c.paused
            .as_ref()
            .map(|r| format!("; paused {}", kifu_game::words::pause_code(r)))
            .unwrap_or_default()
    ));
    for f in &c.flags {
        out.push(format!(
            "  flag fallen: {} at {}",
            f.player,
            kifu_clock::notation::iso8601_utc(f.at_ms)
        ));
    }
    if c.server_used_ms != [0, 0] {
        out.push(format!(
            "  time used by the server's count: Black {}, White {}",
            format_time(c.server_used_ms[0], Resolution::Tenths),
            format_time(c.server_used_ms[1], Resolution::Tenths)
        ));
    }
    out
}

fn board_lines(state: &GameState) -> Vec<String> {
    // The board's own column labels (kifu_game::Notation), spaced.
    let letters = |game: GameKind, size: u8| -> String {
        Notation::new(game, size)
            .column_labels()
            .iter()
            .map(char::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match &state.board {
        BoardState::None => vec!["board: none".into()],
        BoardState::Go(b) => {
            let v = b.view();
            // As on a printed board and in GTP: columns A-T without I, row 1
            // at the bottom.
            let mut out = vec![format!("    {}", letters(GameKind::Go, v.size))];
            let size = v.rows.len();
            for (y, row) in v.rows.iter().enumerate() {
                let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
                out.push(format!("{:>3} {}", size - y, cells.join(" ")));
            }
            out.push(format!(
                "to move: {}; moves: {}; prisoners: Black {} (pass stones {}), White {} (pass stones {}){}",
                v.to_move,
                v.moves,
                v.black_prisoners,
                v.black_pass_stones,
                v.white_prisoners,
                v.white_pass_stones,
                v.ko_ban
                    .as_deref()
                    .map(|k| {
                        let at = kifu_go::Point::from_sgf(k, v.size)
                            .map(|p| p.to_gtp(v.size))
                            .unwrap_or_else(|_| k.to_string());
                        format!("; ko: no recapture at {at}")
                    })
                    .unwrap_or_default()
            ));
            out
        }
        BoardState::Renju(r) => {
            let v = r.view();
            let mut out = vec![format!(
                "    {}",
                letters(GameKind::Renju, kifu_renju::BOARD_SIZE)
            )];
            for (i, row) in v.rows.iter().enumerate() {
                let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
                out.push(format!("{:>3} {}", 15 - i, cells.join(" ")));
            }
            out.push(format!(
                "stones: {}; the {} seat holds Black; waiting for: {}",
                v.stones,
                kifu_game::words::colour(v.black_seat).to_lowercase(),
                v.expected
            ));
            out
        }
    }
}

fn replay_text(game: &Hash, s: &GameState, last: u64, verified: bool) -> Vec<String> {
    let mut out = Vec::new();
    let g = s.genesis.as_ref();
    out.push(format!(
        "game {} at event {} of {} ({}){}",
        &hex::encode(game)[..12],
        s.at_seq.unwrap_or(0),
        last,
        s.events.last().map(|e| e.kind.as_str()).unwrap_or(""),
        if verified {
            ""
        } else {
            "  [the chain does NOT verify: run kifu verify]"
        }
    ));
    if let Some(g) = g {
        out.push(format!(
            "{} {}x{} under {}, {}",
            crate::render::game_kind_word(g.game.name()),
            g.board_size,
            g.board_size,
            g.ruleset,
            g.title
        ));
    }
    out.push(format!("phase: {}", crate::render::phase_word(&s.phase)));
    out.extend(board_lines(s));
    out.extend(clock_line(s));
    out.extend(kifu_game::case::case_lines(s));
    out
}

/// `kifu explain GAME [--json]`.
pub fn explain(data: &Path, a: ExplainArgs) -> CmdResult {
    let (game, events, verified) = load(data, &a.game)?;
    if a.json {
        say!(
            "{}",
            kifu_game::document::explain_json(&game, &events, verified)
        );
        return Ok(());
    }
    let text = kifu_game::explanation::explanation_text(&game, &events, verified);
    say!("{}", text.trim_end_matches('\n'));
    Ok(())
}

/// `kifu sanctions [GAME...] [--json]`: the per-player sanction history
/// across games.
pub fn sanctions(data: &Path, a: SanctionsArgs) -> CmdResult {
    let store = open_existing(data)?;
    let games = if a.games.is_empty() {
        store.games()?
    } else {
        a.games
            .iter()
            .map(|p| store.resolve(p))
            .collect::<Result<Vec<_>, _>>()?
    };
    let mut states = Vec::with_capacity(games.len());
    for g in &games {
        let events: Vec<Event> = store
            .read(g, 0, None)?
            .iter()
            .filter_map(|r| r.decode().ok())
            .collect();
        states.push(GameState::replay(&events));
    }
    let history = kifu_game::sanction_history(&states);
    if a.json {
        say!("{}", serde_json::to_string(&history)?);
        return Ok(());
    }
    if history.iter().all(|p| p.entries.is_empty()) {
        say!("no sanctions in {} game(s)", games.len());
    }
    for p in history.iter().filter(|p| !p.entries.is_empty()) {
        say!("{} ({})", p.name, &p.key.to_hex()[..12]);
        for e in &p.entries {
            say!(
                "  {}{}, event {}: {}: {} [{}]",
                e.round.map(|r| format!("round {r}, ")).unwrap_or_default(),
                e.game,
                e.seq,
                kifu_game::words::sanction(&e.kind),
                e.reason,
                e.source
            );
        }
        if !p.lost_to_disqualification.is_empty() {
            say!(
                "  disqualified: {} later game(s) lost",
                p.lost_to_disqualification.len()
            );
        }
    }
    Ok(())
}
