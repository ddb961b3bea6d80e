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
//!
//! A match of one game between two scripted programs that pass at once,
//! on a clock that never moves, written to a ledger in memory:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use kifu_ledger::{Color, Hash, Keypair};
//! use kifu_match::gtp::Reply;
//! use kifu_match::{
//!     run_match, Ending, Engine, EngineFailure, MatchPlan, MemoryLedger, Officials, Program,
//!     ProgramStarter, ServerClock,
//! };
//!
//! /// A program that passes, and agrees that White wins by komi.
//! struct Passer;
//! impl Engine for Passer {
//!     fn exchange(&mut self, command: &str, _: Duration) -> Result<Reply, EngineFailure> {
//!         Ok(Reply::Success(match command.split_whitespace().next() {
//!             Some("genmove") => "pass".into(),
//!             Some("final_score") => "W+6.5".into(),
//!             _ => String::new(),
//!         }))
//!     }
//!     fn stop(&mut self) {}
//! }
//! struct Starter;
//! impl ProgramStarter for Starter {
//!     fn start(&mut self, _: usize, _: Color, _: &Hash) -> Result<Box<dyn Engine>, EngineFailure> {
//!         Ok(Box::new(Passer))
//!     }
//! }
//! struct Still;
//! impl ServerClock for Still {
//!     fn monotonic_ms(&self) -> u64 { 0 }
//!     fn wall_ms(&self) -> u64 { 1_800_000_000_000 }
//! }
//!
//! let key = |n: u8| Keypair::from_seed([n; 32]);
//! let program = |name: &str, n| Program { name: name.into(), seat_key: key(n).public(), operator: None };
//! let plan = MatchPlan {
//!     size: 9,
//!     komi_half_points: 13,
//!     main_ms: 60_000,
//!     gtp_timeout: Duration::from_secs(5),
//!     games: 1,
//!     first_black: 0,
//!     event: "a doc match".into(),
//! };
//! plan.check("1m")?;
//! let officials = Officials { server_name: "server".into(), server: key(9), referee: None, director: None };
//! let mut ledger = MemoryLedger::new();
//! let report = run_match(
//!     &plan,
//!     &[program("alpha", 1), program("beta", 2)],
//!     &officials,
//!     &mut Starter,
//!     &Still,
//!     &mut ledger,
//!     &AtomicBool::new(false),
//!     |_, _| {},
//! )?;
//! assert_eq!(report.bouts.len(), 1);
//! assert!(matches!(report.bouts[0].games[0].ending, Ending::Decided { .. }));
//! // Black (alpha, program 0) and White (beta) both passed: White wins by komi.
//! assert_eq!(report.bouts[0].winner(), Some(1));
//! assert_eq!(ledger.games().len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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
    /// The store, or the server in front of it, failed or refused a
    /// record (`kifu_client::Backend`).
    #[error("store: {0}")]
    Store(#[from] kifu_client::ClientError),
    /// A game id the ledger does not hold.
    #[error("unknown game {0}")]
    UnknownGame(String),
    /// The settings cannot make a game.
    #[error("settings: {0}")]
    Settings(String),
}
