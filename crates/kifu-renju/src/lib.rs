//! Renju and gomoku rules for kifu: coordinates, the board, fives, Black's forbidden moves,
//! and a game state machine that turns players' inputs into results.
//!
//! The crate is pure: no I/O, no wall clock, no randomness. It takes values and returns
//! values, so a ledger can replay a game and get the same projection every time.
//!
//! # The one design decision: claims, not automatic endings
//!
//! Under the RIF rules a game does not end because a shape appears on the board. A five wins
//! when its maker *declares* it ("five", or pointing at the line); if the player does not
//! notice it, the game goes on and nobody may tell them (RIF example tournament rules). A
//! forbidden move of Black loses only when White *points it out*; a double-three or
//! double-four that White lets pass by playing on can no longer be claimed, while an overline
//! still can (RIF 9.8). So [`RenjuGame`] records stones as facts and ends the game only on
//! an explicit input (a claim, a resignation, an accepted draw, ...). When a claim arrives,
//! the machine computes the verdict *for the claimed move, at the point in the game where it
//! was played*, and answers with the result or with the reason the claim fails. Online play
//! that declares fives automatically is a game setting ([`GameSettings::auto_declare`]),
//! not a different rule.
//!
//! # Map
//!
//! - [`Point`], [`Stone`], [`Move`]: coordinates as RenjuNet writes them (`h8` is the centre).
//! - [`Board`]: a position.
//! - [`Rule`]: `rif-renju`, `gomoku-freestyle`, `gomoku-standard`.
//! - [`verdict`], [`Verdict`]: what one stone makes (five, overline, double-four,
//!   double-three, legal), with the recursive RIF 9.3 three check.
//! - [`check`], [`CheckOutput`], [`stones_from_moves`]: the scripted query of `kifu renju check`.
//! - [`RenjuGame`], [`GameInput`], [`Outcome`], [`RenjuResult`]: the game state machine.
//! - [`OpeningRule`]: RIF, Yamaguchi, Soosõrv-N and Taraguchi-N openings, driven by inputs.
//!
//! ```
//! use kifu_renju::{check, parse_points, Rule, Stone};
//! let black = parse_points("f8,g8,h9,h10").unwrap();
//! let out = check(&black, &[], "h8".parse().unwrap(), Stone::Black, Rule::RifRenju).unwrap();
//! assert!(out.forbidden); // a double-three
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod board;
mod check;
mod error;
mod forbidden;
mod game;
mod opening;
mod point;
mod result;
mod rule;

pub use board::Board;
pub use check::{check, stones_from_moves, CheckOutput};
pub use error::Error;
pub use forbidden::{forbidden_points, verdict, Verdict};
pub use game::{
    Claim, ClaimRejection, Expected, GameError, GameInput, GameSettings, MoveRecord, Outcome,
    RenjuGame, OVERRIDE_KEYS,
};
pub use opening::OpeningRule;
pub use point::{parse_moves, parse_points, Move, Point, Stone, BOARD_POINTS, BOARD_SIZE};
pub use result::{PlayerId, RenjuResult, ResultReason};
pub use rule::Rule;
