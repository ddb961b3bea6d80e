//! Zobrist keys for incremental position hashing.
//!
//! Keys come from splitmix64 with a constant seed, so every build and every
//! machine computes the same hashes: the engine has no randomness.

use crate::point::MAX_SIZE;
use crate::Color;

const SEED: u64 = 0x6b69_6675_2d67_6f21; // "kifu-go!"
const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// splitmix64 (Steele, Lea, Flood 2014): a fixed, well-mixed sequence.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn make_table() -> [[u64; CELLS]; 2] {
    let mut table = [[0u64; CELLS]; 2];
    let mut state = SEED;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            table[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    table
}

static STONE_KEYS: [[u64; CELLS]; 2] = make_table();

/// Key of a stone of `color` on cell `index` (row-major on a 25-line grid, so the
/// same point has the same key whatever the board size).
pub(crate) fn stone_key(color: Color, x: u8, y: u8) -> u64 {
    STONE_KEYS[color.index()][y as usize * MAX_SIZE as usize + x as usize]
}

/// Mixed into a position hash to say whose turn it is (situational superko).
pub(crate) const TO_MOVE_WHITE: u64 = 0x5bd1_e995_9e37_79b9;
/// Mixed into a position hash to say which player's play created it
/// (natural situational superko).
pub(crate) const CREATED_BY_WHITE: u64 = 0xc2b2_ae3d_27d4_eb4f;
/// Mixed into a position hash to say that Black created it.
pub(crate) const CREATED_BY_BLACK: u64 = 0x1656_67b1_9e37_79f9;
