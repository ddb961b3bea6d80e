//! A tournament chain, read back: who is registered, who plays whom on which
//! board, byes, absences, results and checkpoints of game chains, and the
//! standings model they give.
//!
//! The one decision a reader must know: **the projection refuses what
//! cannot be a fact of the tournament** (a pairing of an unregistered player,
//! a player paired twice in a round, a result for a board that was never
//! paired), and the same [`Projection::apply`] is used before an event is
//! signed and when a chain is read back, so the command line can refuse bad
//! input with nothing written and a verifier finds the same problems.
//!
//! The later of two facts about one board wins: a result entered by an
//! official after a checkpoint overrides the game's own result, and a new
//! checkpoint after it overrides it again.
//!
//! A chain read back is verified whole, in any order of its records:
//! [`verify_tournament_records`] reports every problem (forks kept as
//! evidence, duplicates counted once), as kifu-ledger's verification of
//! game chains does.
//!
//! A round is drawn from the chain by the pairing engine (`kifu-pairing`)
//! in [`draw`], which also compares a recorded round with the engine's draw.
//!
//! Tournament chains are shown in words and JSON once, here: the standings
//! tables and export files ([`tables`]), the verdict on a chain and its
//! games ([`verdict`]).
//!
//! What a director's words mean (create a tournament, register, pair, enter
//! a result, create a round's games from the devices asking for their
//! seats) is said once, in [`desk`], for the director's page and the
//! command line alike.
//!
//! This crate does no I/O.
#![deny(missing_docs)]

pub mod board_game;
pub mod carried;
mod chain;
pub mod checkpoints;
pub mod choices;
pub mod convert;
pub mod demo;
pub mod desk;
pub mod draw;
pub mod egf;
pub mod entry;
pub mod games;
pub mod hall;
pub mod opengotha;
mod projection;
pub mod settings;
pub mod tables;
pub mod verdict;
mod verify;

pub use chain::{mcmahon_genesis, Chain, ChainError, Refused};
pub use convert::board_result_of;
pub use projection::{
    check_time_zone, game_date, genesis_settings, local_date, Board, Projection, TournamentError,
};
pub use verify::{verify_tournament_records, ChainSummary, TournamentReport, MORE_THAN_ONE};
