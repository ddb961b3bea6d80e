//! `kifu-go`: the Go rules engine of kifu.
//!
//! kifu keeps a signed, tamper-evident record of tournament games. The record
//! holds facts, illegal moves included; this crate says what those facts mean
//! under a ruleset profile: the position after each move, captures, ko and
//! superko, the ending procedure, and the count.
//!
//! **The one design decision: record, never refuse.** Applying a move always
//! succeeds and always yields a defined position; the [`Verdict`] beside it
//! says which rule (if any) the move broke. A game projection can then apply
//! the ruleset's remedy (unwind, continue, forfeit) because the engine never
//! threw the fact away. See [`game`] for the position each kind of illegal
//! move leads to.
//!
//! Other decisions a reader should know:
//!
//! - Rulesets are data ([`Ruleset`]): ko rule, suicide, scoring, pass stones,
//!   ending procedure, remedies, komi. The engine only reads fields.
//! - The crate is pure: no I/O, no clock, no randomness. Zobrist keys come from
//!   a fixed-seed splitmix64, so position hashes are the same everywhere, and
//!   each repetition check is one hash-set lookup per move.
//! - Komi and scores are held in half-points ([`Komi`]) so 7.5 is exact.
//! - Input errors are values ([`Error`]); nothing here panics on input.
//!
//! ```
//! use kifu_go::{Color, Game, Point, Ruleset, Setup, Violation};
//! let mut game = Game::new(Ruleset::lgc_2023(), &Setup::even(9)).unwrap();
//! let p = Point::from_sgf("ee", 9).unwrap();
//! assert!(game.play(Color::Black, p).is_legal());
//! let v = game.play(Color::White, p);
//! assert_eq!(v.violations, vec![Violation::OccupiedPoint]);
//! assert_eq!(game.to_move(), Color::Black); // recorded; the turn passed
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod clause;
mod color;
pub mod conduct;
pub mod ending;
pub mod game;
mod handicap;
mod komi_text;
mod point;
pub mod report;
pub mod ruleset;
pub mod score;
pub mod sgf;
mod zobrist;

pub use board::{Board, Placement};
pub use clause::{Clause, Topic};
pub use color::Color;
pub use conduct::{AbnormalTerminationRule, Appeals, Conduct, Timekeeping};
pub use ending::{Ending, EndingError, EndingEvent, EndingInput, EndingPhase, GameEnd};
pub use game::{Game, Move, Setup, SuperkoKind, Verdict, Violation};
pub use handicap::fixed_handicap_points;
pub use komi_text::KomiParseError;
pub use point::{Point, MAX_SIZE, MIN_SIZE};
pub use report::{board_report, replay_sgf, setup_from_sgf, BoardReport, Replay};
pub use ruleset::profile;
pub use ruleset::{
    AlternationFailure, ColourOrHandicapErrorAction, ColourOrHandicapErrorRule,
    HandicapCompensation, HandicapPlacement, IllegalMoveAction, IllegalMoveRemedy, Jigo, KoRule,
    Komi, OccupiedPointRule, PauseRule, RepetitionRule, Resumption, Ruleset, Scoring, SuicideRule,
    WhitePassesLast, DEFAULT_PROFILE, OVERRIDE_KEYS, PROFILE_NAMES,
};
pub use score::{score_position, ColorScore, GameResult, Score};
pub use sgf::{SgfGame, SgfMove};

/// What was wrong with an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A board size outside 2 to 25.
    #[error("board size {0} is not supported (2 to 25)")]
    BoardSize(u32),
    /// Text that is not an SGF point on this board.
    #[error("{text:?} is not an SGF point on a {size}x{size} board")]
    SgfPoint {
        /// The text read.
        text: String,
        /// The board size.
        size: u8,
    },
    /// Text that is not a GTP vertex on this board.
    #[error("{text:?} is not a GTP vertex on a {size}x{size} board")]
    GtpVertex {
        /// The text read.
        text: String,
        /// The board size.
        size: u8,
    },
    /// A point off the board.
    #[error("point {point} is off a {size}x{size} board")]
    OffBoard {
        /// The point.
        point: Point,
        /// The board size.
        size: u8,
    },
    /// A stone placed on an occupied point (board level; [`Game`] records it
    /// as [`Violation::OccupiedPoint`] instead).
    #[error("point {0} is occupied")]
    Occupied(Point),
    /// Two setup stones on one point.
    #[error("setup places two stones on {0}")]
    SetupOverlap(Point),
    /// A handicap the fixed placement does not provide.
    #[error("no fixed placement for {stones} handicap stones on {size}x{size}")]
    Handicap {
        /// Number of stones asked for.
        stones: u32,
        /// The board size.
        size: u8,
    },
    /// A ruleset name [`Ruleset::by_name`] does not know.
    #[error("unknown ruleset {0:?} (known: lgc-2023, london-open, bga-aga, uec-cup, tromp-taylor, chinese, japanese)")]
    UnknownRuleset(String),
    /// A genesis override key the ruleset does not know.
    #[error("unknown override {0:?} (known: {keys})", keys = crate::ruleset::OVERRIDE_KEYS.join(", "))]
    UnknownOverride(String),
    /// An override value the key does not take.
    #[error("override {key}: {value:?} is not one of {expected}")]
    BadOverride {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// Malformed SGF.
    #[error("SGF syntax error at byte {offset}: {what}")]
    Sgf {
        /// Byte offset in the text.
        offset: usize,
        /// What was wrong.
        what: &'static str,
    },
}
