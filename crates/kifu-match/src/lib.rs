//! `kifu-match`: kifu as the server of a computer-Go match. It referees two
//! programs speaking GTP under the UEC Cup rules
//! (`uec-cup-computer-go-rules.txt`) and writes every fact to a signed game
//! chain as it happens.
//!
//! The one design decision: **the referee is driven through two traits,
//! [`Engine`] and [`ServerClock`]**, so the rules (time counted in tenths,
//! flags, illegal moves, abnormal termination and its new games, the count)
//! are tested deterministically with scripted programs and a hand-moved
//! clock. The real edge is [`process::ProcessEngine`] (a child process, a
//! reader thread per pipe, every exchange bounded in time) and
//! [`SystemClock`]. The randomness of the nigiri is the caller's: this crate
//! takes who has Black as a value.
//!
//! Map: [`gtp`] (the protocol, pure), [`engine`] (the program trait),
//! [`clock`] (time sources and the tenths counter), [`ledger`] (where the
//! chain is written), [`referee`] (one game), [`series`] (a match with its
//! new games and summary), [`process`] (child processes).
#![deny(missing_docs)]

pub mod clock;
pub mod engine;
pub mod gtp;
pub mod ledger;
pub mod process;
pub mod referee;
pub mod series;

pub use clock::{ServerClock, SystemClock, TenthsCounter};
pub use engine::{Engine, EngineFailure};
pub use ledger::{Appender, GameLedger, MemoryLedger, StoreLedger};
pub use referee::MAIN_MS;
pub use referee::{play_game, Ending, EngineStarter, GameReport, GameSettings, Signers};
pub use series::{
    check_ruleset, komi, run_match, Bout, MatchPlan, MatchReport, Officials, PlanError, Program,
    ProgramStarter, ProgramSummary, RULESET,
};

/// What stops a match (the programs' failures are facts of the game, not
/// errors).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A record could not be signed or was refused.
    #[error("ledger: {0}")]
    Ledger(#[from] kifu_ledger::LedgerError),
    /// The store failed.
    #[error("store: {0}")]
    Store(#[from] kifu_store::StoreError),
    /// A game id the ledger does not hold.
    #[error("unknown game {0}")]
    UnknownGame(String),
    /// The settings cannot make a game.
    #[error("settings: {0}")]
    Settings(String),
}
