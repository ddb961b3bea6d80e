//! A director's change to a draw: two players exchange their places.
//!
//! Two players on different boards exchange boards and seats (each takes
//! the other's colour); a player on a board and the player with the bye
//! exchange the board's seat and the bye; two players of one board
//! exchange colours. Every board a swap changes is then given the
//! handicap the tournament's rule gives its two players (OpenGotha's
//! `gameBetween`, as the draw does), and in a handicap game the stronger
//! takes White; an even game keeps the seats the swap made. Tables stay
//! where they were.
//!
//! The colours of a handicap game are not the director's to exchange: the
//! rule gives White to the stronger, so such a swap is refused in words.

use crate::cost::handicap_steps;
use crate::draw::Draw;
use crate::field::Field;
use crate::settings::PairingSettings;
use crate::PairingError;
use kifu_standings::Tournament;

/// Why a swap cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    /// The same player named twice.
    #[error("{0:?} cannot swap with themself")]
    SamePlayer(String),
    /// A player with no place in the draw (not paired, no bye).
    #[error("{0:?} has no place in the draw of round {1}: neither on a board nor given the bye")]
    NotInDraw(String, u32),
    /// Colours exchanged in a handicap game.
    #[error("table {table} is a handicap game ({stones} stones): White is the stronger player by the tournament's handicap rule, so its colours are not exchanged")]
    HandicapColours {
        /// The table.
        table: u32,
        /// Its handicap.
        stones: u8,
    },
    /// The players' scores could not be read.
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

/// Where a player sits in a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    White(usize),
    Black(usize),
    Bye,
}

fn seat_of(d: &Draw, id: &str) -> Option<Seat> {
    for (i, b) in d.boards.iter().enumerate() {
        if b.white == id {
            return Some(Seat::White(i));
        }
        if b.black == id {
            return Some(Seat::Black(i));
        }
    }
    (d.bye.as_deref() == Some(id)).then_some(Seat::Bye)
}

fn put(d: &mut Draw, seat: Seat, id: &str) {
    match seat {
        Seat::White(i) => d.boards[i].white = id.to_string(),
        Seat::Black(i) => d.boards[i].black = id.to_string(),
        Seat::Bye => d.bye = Some(id.to_string()),
    }
}

fn board_of(seat: Seat) -> Option<usize> {
    match seat {
        Seat::White(i) | Seat::Black(i) => Some(i),
        Seat::Bye => None,
    }
}

/// `draw` (of round `draw.round`, drawn from `t` with `settings`) with
/// each pair of `swaps` exchanged in turn, as the module says.
pub fn apply_swaps(
    t: &Tournament,
    settings: &PairingSettings,
    draw: &Draw,
    swaps: &[(&str, &str)],
) -> Result<Draw, SwapError> {
    let mut d = draw.clone();
    if swaps.is_empty() {
        return Ok(d);
    }
    let f = Field::new(t, d.round, settings)?;
    for &(first, second) in swaps {
        if first == second {
            return Err(SwapError::SamePlayer(first.to_string()));
        }
        let seat = |id: &str, d: &Draw| {
            seat_of(d, id).ok_or_else(|| SwapError::NotInDraw(id.to_string(), d.round))
        };
        let (a, b) = (seat(first, &d)?, seat(second, &d)?);
        match (board_of(a), board_of(b)) {
            (Some(i), Some(j)) if i == j => {
                let board = &mut d.boards[i];
                if board.handicap > 0 {
                    return Err(SwapError::HandicapColours {
                        table: board.table,
                        stones: board.handicap,
                    });
                }
                std::mem::swap(&mut board.white, &mut board.black);
                continue;
            }
            _ => {}
        }
        put(&mut d, a, second);
        put(&mut d, b, first);
        for i in [board_of(a), board_of(b)].into_iter().flatten() {
            let board = &mut d.boards[i];
            let index = |id: &str| {
                f.index
                    .get(id)
                    .copied()
                    .ok_or_else(|| PairingError::UnknownPlayer(id.to_string()))
            };
            let (w, k) = (index(&board.white)?, index(&board.black)?);
            let stones = handicap_steps(&f, settings, w, k).stones;
            // The stronger gives the stones as White.
            if stones < 0 {
                std::mem::swap(&mut board.white, &mut board.black);
            }
            board.handicap = stones.unsigned_abs().min(u64::from(u8::MAX)) as u8;
        }
    }
    Ok(d)
}
