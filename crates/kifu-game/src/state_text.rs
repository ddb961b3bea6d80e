//! The state of a game in the words a referee reads: the phase, both clock
//! faces, why the clocks stand, the result. `kifu replay` prints these, and
//! the replay page shows them from the `text` object of the replay JSON, so
//! that the terminal and the browser say the same thing.

use kifu_clock::{format_face, Resolution, TimeControl};
use kifu_ledger::Color;
use serde::Serialize;

use crate::record::Phase;
use crate::state::{BoardState, GameState};
use kifu_clock::format_time;
use kifu_ledger::{GameKind, Hash};

use crate::Notation;

/// A game's state in words (the `text` object of `kifu replay --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StateText {
    /// Where the game stands: `playing`, `paused to call the referee`,
    /// `finished: W+3.5; ...`.
    pub phase: String,
    /// Whose turn it is: `Black`, `White`, or none.
    pub to_move: Option<String>,
    /// Black's clock face (`10:30`, `59:27 + 5 × 0:30`, `0:00 + 12 stones
    /// in 4:31`), none without a clock.
    pub black_clock: Option<String>,
    /// White's clock face.
    pub white_clock: Option<String>,
    /// Whose clock runs: `Black`, `White`, or none.
    pub running: Option<String>,
    /// Why both clocks stand, in words: `for counting`.
    pub paused: Option<String>,
    /// The result the rules give so far: `B+3.5`, `W+R`.
    pub result: Option<String>,
}

/// A game phase in words: `not started`, `paused to call the referee`,
/// `finished: W+3.5; ...`.
pub fn phase(p: &Phase) -> String {
    match p {
        Phase::NotStarted => "not started".into(),
        Phase::Playing => "playing".into(),
        Phase::Paused { reason } => format!("paused {}", crate::words::pause_code(reason)),
        Phase::StatusAssessment => "status assessment / counting".into(),
        Phase::Resumption => "resumption".into(),
        Phase::Adjourned => "adjourned".into(),
        Phase::AwaitingReferee => "awaiting the referee".into(),
        Phase::Finished { how } => format!("finished: {how}"),
    }
}

impl GameState {
    /// Both clock faces as the clocks show them (tenths where the rules
    /// count tenths, whole seconds otherwise), in the shape the time control
    /// is written: main time left, then the byo-yomi periods (`59:27 + 5 ×
    /// 0:30`, `0:00 + 3 × 0:30 (0:12 left in the period)`) or the Canadian
    /// block (`0:00 + 12 stones in 4:31`) left; a paused clock shows the
    /// time left at the pause (`kifu_clock::format_face`). `None` without a
    /// clock or in an untimed game.
    pub fn clock_faces_text(&self) -> Option<[String; 2]> {
        let faces = self.clock_faces()?;
        let res = if self.clock.resolution_ms < 1000 {
            Resolution::Tenths
        } else {
            Resolution::Seconds
        };
        // Under server timekeeping the face is the limit less the server's
        // count: sudden death, whatever the genesis's overtime.
        let control = match self.clock.time_control {
            Some(tc) if self.clock.server_used_ms == [0, 0] => tc,
            Some(tc) => TimeControl::SuddenDeath {
                main_ms: tc.main_ms(),
            },
            None => return None,
        };
        if !control.is_timed() {
            return None;
        }
        Some(faces.map(|f| format_face(&f.shown(), &control, res)))
    }

    /// The state in words.
    pub fn text(&self) -> StateText {
        let faces = self.clock_faces_text();
        let colour = |c: Color| crate::words::colour(c).to_string();
        StateText {
            phase: phase(&self.phase),
            to_move: self.to_move.map(colour),
            black_clock: faces.as_ref().map(|f| f[0].clone()),
            white_clock: faces.as_ref().map(|f| f[1].clone()),
            running: self.clock.running.map(colour),
            paused: self.clock.paused.as_deref().map(crate::words::pause_code),
            result: match (self.result.computed(), self.result.signed_by_both()) {
                (Some(d), _) => Some(crate::text::result_text(&d.result)),
                (None, Some(s)) => Some(format!(
                    "{} (signed by both players)",
                    crate::text::result_text(&s.result)
                )),
                (None, None) => None,
            },
        }
    }
}

/// The clocks' faces, fallen flags and the server's count, in lines.
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
            .map(|r| format!("; paused {}", crate::words::pause_code(r)))
            .unwrap_or_default()
    ));
    for f in &c.flags {
        out.push(format!(
            "  flag fallen: {} at {}",
            crate::words::colour(f.player),
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

/// The board with its coordinates, and what is to play, in lines.
fn board_lines(state: &GameState) -> Vec<String> {
    // The board's own column labels (crate::Notation), spaced.
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
                crate::words::colour(v.black_seat).to_lowercase(),
                v.expected
            ));
            out
        }
    }
}

/// A game's state at an event, as `kifu replay` prints it: the event, the
/// game and its ruleset, the phase, the board, the clocks and the case
/// ([`crate::case::case_lines`]); `last` is the last event of the game,
/// `verified` whether its chain verifies.
pub fn replay_lines(game: &Hash, s: &GameState, last: u64, verified: bool) -> Vec<String> {
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
            crate::listing::game_kind_title(g.game),
            g.board_size,
            g.board_size,
            g.ruleset,
            g.title
        ));
    }
    out.push(format!("phase: {}", phase(&s.phase)));
    out.extend(board_lines(s));
    out.extend(clock_line(s));
    out.extend(crate::case::case_lines(s));
    out
}
