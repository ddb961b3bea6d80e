//! The state hash: a deterministic digest of the projected state after an
//! event, so that two implementations (or a replay page and the server) can
//! check that they project the same game the same way, event by event.
//!
//! The hash is BLAKE3 over the postcard bytes of [`StateDigest`] (fields in
//! the order below), written as 64 lowercase hex digits. It covers the
//! board, whose turn it is, the ko ban and the position history the ko and
//! repetition rules consult, the prisoners and pass stones, both clocks as
//! shown, whose clock runs and why they are paused, the phase, the disputes
//! still open, the sanctions and the result the rules give. It covers no
//! wording: consequences and the story may be reworded without changing a
//! hash. Vectors: `crates/kifu-game/tests/vectors/state_hashes.json`
//! (`docs/RULESETS.md`, "State hash").

use kifu_ledger::{Color, Event, GameResult, SanctionKind};
use serde::Serialize;

use crate::clock::ClockFace;
use crate::record::{DisputeStatus, Phase};
use crate::state::{BoardState, GameState};

/// The digest version [`GameState::digest`] writes. Version 1 (0.2.0
/// development) showed a paused clock at the start of the turn and each
/// face as one budget; version 2 kept a side to move and a running clock
/// after the result, a clock running through the pause on passes and the
/// clocks stopped after a judgement that play resumes. No record holds a
/// state hash, so earlier versions are not computed any more.
pub const DIGEST_VERSION: u8 = 3;

/// What the state hash covers, in the order hashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateDigest {
    /// The digest's layout version (2: clock faces with main time,
    /// overtime time and count, a paused face at the pause; 1 before).
    pub version: u8,
    /// The last event applied.
    pub at_seq: Option<u64>,
    /// The board rows, top first (`X`, `O`, `.`); empty without a board.
    pub board: Vec<String>,
    /// Whose turn it is.
    pub to_move: Option<Color>,
    /// The basic-ko ban (SGF letters), Go only.
    pub ko_ban: Option<String>,
    /// The position history digest (`kifu_go::Game::history_digest`), Go only.
    pub history: u64,
    /// Prisoners held, Black and White (pass stones included).
    pub prisoners: [u32; 2],
    /// Pass stones received, Black and White.
    pub pass_stones: [u32; 2],
    /// Both clocks as shown.
    pub clocks: Option<[ClockFace; 2]>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// Why the clocks are paused (the pause code).
    pub paused: Option<String>,
    /// Where the game stands.
    pub phase: Phase,
    /// The disputes not yet settled, by event.
    pub open_disputes: Vec<u64>,
    /// Sanctions: event, player, kind.
    pub sanctions: Vec<(u64, Color, SanctionKind)>,
    /// The result the rules give.
    pub result: Option<GameResult>,
}

impl GameState {
    /// What the state hash covers, at the last event applied.
    pub fn digest(&self) -> StateDigest {
        let (board, ko_ban, history, prisoners, pass_stones) = match &self.board {
            BoardState::Go(b) => {
                let v = b.view();
                (
                    v.rows,
                    v.ko_ban,
                    b.game().history_digest(),
                    [v.black_prisoners, v.white_prisoners],
                    [v.black_pass_stones, v.white_pass_stones],
                )
            }
            BoardState::Renju(r) => (r.view().rows, None, 0, [0; 2], [0; 2]),
            BoardState::None => (Vec::new(), None, 0, [0; 2], [0; 2]),
        };
        StateDigest {
            version: DIGEST_VERSION,
            at_seq: self.at_seq,
            board,
            to_move: self.to_move,
            ko_ban,
            history,
            prisoners,
            pass_stones,
            clocks: self.clock_faces(),
            running: self.clock.running,
            paused: self.clock.paused.clone(),
            phase: self.phase.clone(),
            open_disputes: self
                .disputes
                .iter()
                .filter(|d| matches!(d.status, DisputeStatus::Open | DisputeStatus::Judged))
                .map(|d| d.seq)
                .collect(),
            sanctions: self
                .sanctions
                .iter()
                .map(|s| (s.seq, s.player, s.kind.clone()))
                .collect(),
            result: self.result.computed().map(|d| d.result.clone()),
        }
    }

    /// The state hash at the last event applied: BLAKE3 of the postcard
    /// bytes of [`GameState::digest`], in hex.
    pub fn state_hash(&self) -> String {
        // Serialising plain data into a vector cannot fail; an empty input
        // would still hash deterministically.
        let bytes = postcard::to_allocvec(&self.digest()).unwrap_or_default();
        blake3::hash(&bytes).to_hex().to_string()
    }
}

/// The state hash after every event, in order: `(seq, hash)`.
pub fn state_hashes<'a>(events: impl IntoIterator<Item = &'a Event>) -> Vec<(u64, String)> {
    let mut s = GameState::new();
    let mut out = Vec::new();
    for e in events {
        s.apply(e);
        out.push((e.seq, s.state_hash()));
    }
    out
}
