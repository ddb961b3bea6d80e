//! The Renju (and Gomoku) board inside the game projection: an adapter over
//! `kifu-renju`.
//!
//! `kifu_renju::RenjuGame` refuses an input that does not fit (a stone on an
//! occupied point, a swap out of order) and leaves the game unchanged; the
//! projection records the fact anyway and shows the refusal as a
//! consequence. Ledger seats map to the engine's players: `Color::Black` is
//! the tentative first player (`PlayerId::First`).

use kifu_ledger::Color;
use kifu_renju::{
    Expected, GameInput, GameSettings, Outcome, Point as RPoint, RenjuGame, RenjuResult, Stone,
    BOARD_SIZE,
};
use serde::Serialize;

pub(crate) use crate::convert::{player_id, renju_point, seat};

/// The board of a Renju or Gomoku game.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RenjuBoard {
    #[serde(skip)]
    game: RenjuGame,
    /// The inputs the engine accepted, by event: what the board is rebuilt
    /// from when a ruling unwinds the game.
    pub inputs: Vec<(u64, GameInput)>,
    /// The rule.
    pub rule: String,
    /// The opening procedure.
    pub opening: String,
}

/// A serializable picture of a Renju board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RenjuView {
    /// Rows, top (row 15) first: `X` black, `O` white, `.` empty.
    pub rows: Vec<String>,
    /// Stones on the board.
    pub stones: usize,
    /// The seat holding Black now (after the opening's swaps).
    pub black_seat: Color,
    /// What the game waits for.
    pub expected: Expected,
    /// The seat whose draw offer is pending.
    pub draw_offer: Option<Color>,
}

impl RenjuBoard {
    /// A board for these settings.
    pub(crate) fn new(settings: GameSettings) -> RenjuBoard {
        RenjuBoard {
            game: RenjuGame::new(settings),
            inputs: Vec::new(),
            rule: settings.rule.to_string(),
            opening: settings.opening.to_string(),
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &RenjuGame {
        &self.game
    }

    /// Feeds one input recorded at `seq`; the engine's outcome, or why it
    /// refused (the game is then unchanged).
    pub(crate) fn apply(&mut self, seq: u64, input: GameInput) -> Result<Outcome, String> {
        let out = self.game.apply(input.clone()).map_err(|e| e.to_string())?;
        self.inputs.push((seq, input));
        Ok(out)
    }

    /// Takes back every input recorded after event `seq` and rebuilds the
    /// game from the rest. Returns how many inputs were taken back.
    pub(crate) fn unwind_to(&mut self, seq: u64) -> usize {
        let inputs = std::mem::take(&mut self.inputs);
        let before = inputs.len();
        self.game = RenjuGame::new(*self.game.settings());
        for (s, input) in inputs.into_iter().filter(|(s, _)| *s <= seq) {
            // Accepted once in this order, so accepted again.
            let _ = self.apply(s, input);
        }
        before - self.inputs.len()
    }

    /// The result, once the engine says the game ended.
    pub fn result(&self) -> Option<&RenjuResult> {
        self.game.result()
    }

    /// The seat to act next, if a normal move is awaited.
    pub fn to_move(&self) -> Option<Color> {
        match self.game.expected() {
            Expected::Move { by, .. }
            | Expected::OpeningStone { by, .. }
            | Expected::SwapDecision { by }
            | Expected::FifthCount { by, .. }
            | Expected::FifthProposals { by, .. }
            | Expected::FifthStoneOrProposals { by, .. }
            | Expected::FifthChoice { by, .. } => Some(seat(by)),
            Expected::RefereeRuling | Expected::Nothing => None,
        }
    }

    /// True while a disputed claim waits for the referee.
    pub fn awaiting_referee(&self) -> bool {
        matches!(self.game.expected(), Expected::RefereeRuling)
    }

    /// The picture.
    pub fn view(&self) -> RenjuView {
        let board = self.game.board();
        let rows = (0..BOARD_SIZE)
            .rev()
            .map(|row| {
                (0..BOARD_SIZE)
                    .map(
                        |col| match RPoint::new(col, row).and_then(|p| board.get(p)) {
                            Some(Stone::Black) => 'X',
                            Some(Stone::White) => 'O',
                            None => '.',
                        },
                    )
                    .collect()
            })
            .collect();
        RenjuView {
            rows,
            stones: board.stone_count(),
            black_seat: seat(self.game.black_player()),
            expected: self.game.expected(),
            draw_offer: self.game.draw_offer().map(seat),
        }
    }
}
