//! The state of a game in the words a referee reads: the phase, both clock
//! faces, why the clocks stand, the result. `kifu replay` prints these, and
//! the replay page shows them from the `text` object of the replay JSON, so
//! that the terminal and the browser say the same thing.

use kifu_clock::{format_face, Resolution, TimeControl};
use kifu_ledger::Color;
use serde::Serialize;

use crate::record::Phase;
use crate::state::GameState;

/// A game's state in words (the `text` object of `kifu replay --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
            result: self
                .result
                .computed()
                .map(|d| crate::text::result_text(&d.result)),
        }
    }
}
