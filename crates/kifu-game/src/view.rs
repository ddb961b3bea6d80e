//! The public JSON view of a game at one event: the contract a command
//! line's `--json`, a server and a replay page share, kept apart from the
//! projection's internal structures so that those may change.
//!
//! Every field is documented on [`GameView`]; values are words or numbers
//! (colours `black`/`white`, durations in milliseconds, results as SGF
//! writes them and in words), never engine internals. `view_version` is
//! raised when a field changes meaning or goes; fields may be added.

use kifu_ledger::{Color, GameKind};
use serde::Serialize;

use crate::cite::Consequence;
use crate::clock::ClockFace;
use crate::record::{
    Appeal, Dispute, IllegalMoveNotice, IrregularityRecord, Phase, SanctionRecord,
};
use crate::state::{BoardState, GameState};

/// The game at one event.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GameView {
    /// The view's layout version (1).
    pub view_version: u32,
    /// `go`, `renju`, `gomoku_freestyle`, `gomoku_standard`.
    pub game: Option<GameKind>,
    /// The ruleset profile named in the genesis.
    pub profile: String,
    /// The last event applied.
    pub at_seq: Option<u64>,
    /// Its time, as signed.
    pub at_ms: Option<u64>,
    /// The state hash at this event (`docs/RULESETS.md`, "State hash").
    pub state_hash: String,
    /// Where the game stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub to_move: Option<Color>,
    /// The board.
    pub board: BoardView,
    /// The clocks, when the game has one.
    pub clocks: Option<ClocksView>,
    /// The consequences of this event, each with its rule and quote.
    pub consequences: Vec<Consequence>,
    /// Illegal moves pointed out and their remedies.
    pub illegal_moves: Vec<IllegalMoveNotice>,
    /// Irregularities and their fixes.
    pub irregularities: Vec<IrregularityRecord>,
    /// Disputes and where they stand.
    pub disputes: Vec<Dispute>,
    /// Appeals, each with its panel and decision.
    pub appeals: Vec<Appeal>,
    /// Sanctions.
    pub sanctions: Vec<SanctionRecord>,
    /// The result.
    pub result: ResultView,
}

/// The board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BoardView {
    /// Lines of the board (0 without a board).
    pub size: u8,
    /// Rows, top first: `X` black, `O` white, `.` empty.
    pub rows: Vec<String>,
    /// Prisoners held, pass stones included (Go).
    pub prisoners: Sides<u32>,
    /// Pass stones received (Go).
    pub pass_stones: Sides<u32>,
    /// The basic-ko ban, in SGF letters (Go).
    pub ko_ban: Option<String>,
    /// The count, in words, once the game is counted (Go).
    pub count: Option<String>,
}

/// A value for each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Sides<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

/// The clocks as shown at the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ClocksView {
    /// Each side's clock face.
    pub black: ClockFace,
    /// White's.
    pub white: ClockFace,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// Why both are stopped (the pause code), if they are.
    pub paused: Option<String>,
    /// The resolution the clocks are shown in, in milliseconds.
    pub resolution_ms: u64,
}

/// The result the rules give, beside those declared and signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ResultView {
    /// The result the rules give, as SGF writes it (`W+3.5`, `B+R`, `0`).
    pub by_rules: Option<String>,
    /// The same in words.
    pub by_rules_words: Option<String>,
    /// The clause it follows from.
    pub rule: Option<String>,
    /// The clause's words.
    pub quote: Option<String>,
    /// Who still has to sign the result sheet.
    pub missing_signatures: Vec<String>,
    /// Every disagreement between a declared or signed result and the rules.
    pub mismatches: Vec<String>,
}

impl GameState {
    /// The public view of the game at the last event applied.
    pub fn view(&self) -> GameView {
        let board = match &self.board {
            BoardState::Go(b) => {
                let v = b.view();
                BoardView {
                    size: v.size,
                    rows: v.rows,
                    prisoners: Sides {
                        black: v.black_prisoners,
                        white: v.white_prisoners,
                    },
                    pass_stones: Sides {
                        black: v.black_pass_stones,
                        white: v.white_pass_stones,
                    },
                    ko_ban: v.ko_ban,
                    count: self.count_text(),
                }
            }
            BoardState::Renju(r) => {
                let v = r.view();
                BoardView {
                    size: v.rows.len() as u8,
                    rows: v.rows,
                    prisoners: Sides { black: 0, white: 0 },
                    pass_stones: Sides { black: 0, white: 0 },
                    ko_ban: None,
                    count: None,
                }
            }
            BoardState::None => BoardView {
                size: 0,
                rows: Vec::new(),
                prisoners: Sides { black: 0, white: 0 },
                pass_stones: Sides { black: 0, white: 0 },
                ko_ban: None,
                count: None,
            },
        };
        let clocks = self.clock_faces().map(|[black, white]| ClocksView {
            black,
            white,
            running: self.clock.running,
            paused: self.clock.paused.clone(),
            resolution_ms: self.clock.resolution_ms,
        });
        let decided = self.result.computed();
        GameView {
            view_version: 1,
            game: self.genesis.as_ref().map(|g| g.game),
            profile: self.profile.clone(),
            at_seq: self.at_seq,
            at_ms: self.at_ms,
            state_hash: self.state_hash(),
            phase: self.phase.clone(),
            to_move: self.to_move,
            board,
            clocks,
            consequences: self
                .at_seq
                .map(|s| self.consequences_of(s).cloned().collect())
                .unwrap_or_default(),
            illegal_moves: self.illegal_moves.clone(),
            irregularities: self.irregularities.clone(),
            disputes: self.disputes.clone(),
            appeals: self.appeals.clone(),
            sanctions: self.sanctions.clone(),
            result: ResultView {
                by_rules: decided.map(|d| crate::sgf_export::sgf_result(&d.result)),
                by_rules_words: decided.map(|d| crate::text::result_text(&d.result)),
                rule: decided.map(|d| d.rule.clone()),
                quote: decided.and_then(|d| d.quote.clone()),
                missing_signatures: self.result.missing_signatures.clone(),
                mismatches: self.result.mismatches.clone(),
            },
        }
    }
}
