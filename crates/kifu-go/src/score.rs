//! Counting: territory (with prisoners and negative territory) or area.
//!
//! LGC 2023, "Scoring": "Territory is defined as empty points surrounded by
//! stones of the same colour. Accordingly eye points in seki count as
//! territory. Prisoners are placed inside the opponent's territory. If your
//! opponent has less territory than the number of prisoners you have captured
//! then the surplus is counted as negative territory for your opponent."

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::ruleset::{fmt_half_points, HandicapCompensation, Jigo, Ruleset, Scoring};
use crate::{Color, Komi, Point};

/// One colour's part of the count. All counts are in points; `points` is in
/// half-points so komi stays exact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ColorScore {
    /// Empty points surrounded only by this colour once dead stones are removed
    /// (eye points in seki included).
    pub territory: u32,
    /// This colour's stones left on the board once dead stones are removed.
    pub stones: u32,
    /// Opponent stones this colour captured by play.
    pub captures: u32,
    /// Pass stones this colour received.
    pub pass_stones: u32,
    /// Opponent stones agreed dead and taken off as this colour's prisoners.
    pub dead_stones: u32,
    /// Komi received (White only).
    pub komi: Komi,
    /// Points for handicap stones received under area counting (White only).
    pub handicap_compensation: u32,
    /// Territory counting: prisoners held by the opponent beyond this
    /// colour's territory, counted as negative territory (LGC 2023:
    /// "the surplus is counted as negative territory"); 0 otherwise.
    #[serde(default)]
    pub negative_territory: u32,
    /// The total under the scoring method, in half-points. Territory:
    /// territory minus the opponent's prisoners (may be negative), plus komi.
    /// Area: stones plus territory plus compensation plus komi.
    pub points: i32,
}

impl ColorScore {
    /// All prisoners this colour holds: captures, pass stones and dead stones.
    pub fn prisoners(&self) -> u32 {
        self.captures + self.pass_stones + self.dead_stones
    }
}

/// The result of a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields, rename = "ScoreResult")]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// Black wins by this many half-points.
    Black(u32),
    /// White wins by this many half-points (0 when White wins a jigo).
    White(u32),
    /// A draw (jigo).
    Draw,
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameResult::Black(h) => {
                f.write_str("B+")?;
                fmt_half_points(*h as i32, f)
            }
            GameResult::White(h) => {
                f.write_str("W+")?;
                fmt_half_points(*h as i32, f)
            }
            GameResult::Draw => f.write_str("0"),
        }
    }
}

/// A full count: the breakdown per colour, the margin and the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Score {
    /// Territory or area.
    pub scoring: Scoring,
    /// Black's part.
    pub black: ColorScore,
    /// White's part.
    pub white: ColorScore,
    /// Black's points minus White's, in half-points.
    pub margin: i32,
    /// Who won.
    pub result: GameResult,
}

/// Owner of each empty point after dead stones are removed: `Some(colour)` if
/// its empty region touches only that colour.
pub fn territory_map(board: &Board) -> Vec<(Point, Option<Color>)> {
    let size = board.size();
    let n = size as usize * size as usize;
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in board.points() {
        let si = start.y as usize * size as usize + start.x as usize;
        if board.get(start).is_some() || seen[si] {
            continue;
        }
        let mut region = vec![start];
        seen[si] = true;
        let mut borders = [false; 2];
        let mut k = 0;
        while k < region.len() {
            let p = region[k];
            k += 1;
            for q in board.adjacent(p) {
                match board.get(q) {
                    Some(c) => borders[c.index()] = true,
                    None => {
                        let qi = q.y as usize * size as usize + q.x as usize;
                        if !seen[qi] {
                            seen[qi] = true;
                            region.push(q);
                        }
                    }
                }
            }
        }
        let owner = match borders {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        };
        out.extend(region.into_iter().map(|p| (p, owner)));
    }
    out
}

/// Counts `board` with `dead` stones removed. `captures` and `pass_stones` are
/// indexed by colour (Black first): stones captured by play, pass stones
/// received. Komi goes to White; `handicap` selects the jigo rule and the
/// area-counting compensation.
pub fn score_position(
    board: &Board,
    dead: &[Point],
    captures: [u32; 2],
    pass_stones: [u32; 2],
    komi: Komi,
    handicap: u32,
    ruleset: &Ruleset,
) -> Score {
    let mut board = board.clone();
    let mut dead_taken = [0u32; 2];
    for &p in dead {
        if let Some(c) = board.get(p) {
            // Dead stones are removed as the opponent's prisoners.
            if board.set(p, None).is_ok() {
                dead_taken[c.opponent().index()] += 1;
            }
        }
    }
    let mut territory = [0u32; 2];
    for (_, owner) in territory_map(&board) {
        if let Some(c) = owner {
            territory[c.index()] += 1;
        }
    }
    let stones = [
        board.count(Color::Black) as u32,
        board.count(Color::White) as u32,
    ];
    let compensation = match ruleset.handicap_compensation {
        _ if ruleset.scoring == Scoring::Territory || handicap == 0 => 0,
        HandicapCompensation::None => 0,
        HandicapCompensation::PerStone => handicap,
        HandicapCompensation::PerStoneAfterFirst => handicap.saturating_sub(1),
    };
    let make = |c: Color| {
        let i = c.index();
        let o = c.opponent().index();
        let prisoners_of_opponent = captures[o] + pass_stones[o] + dead_taken[o];
        let komi_here = if c == Color::White { komi } else { Komi(0) };
        let comp = if c == Color::White { compensation } else { 0 };
        let points = match ruleset.scoring {
            // LGC 2023, "Scoring": prisoners are placed in the opponent's
            // territory; a surplus is negative territory.
            Scoring::Territory => {
                2 * (territory[i] as i32 - prisoners_of_opponent as i32) + komi_here.0
            }
            // BGA, "The score": area counting by agreement.
            Scoring::Area => 2 * (stones[i] + territory[i] + comp) as i32 + komi_here.0,
        };
        ColorScore {
            territory: territory[i],
            stones: stones[i],
            captures: captures[i],
            pass_stones: pass_stones[i],
            dead_stones: dead_taken[i],
            komi: komi_here,
            handicap_compensation: comp,
            negative_territory: match ruleset.scoring {
                Scoring::Territory => prisoners_of_opponent.saturating_sub(territory[i]),
                Scoring::Area => 0,
            },
            points,
        }
    };
    let black = make(Color::Black);
    let white = make(Color::White);
    let margin = black.points - white.points;
    let result = if margin > 0 {
        GameResult::Black(margin as u32)
    } else if margin < 0 {
        GameResult::White(margin.unsigned_abs())
    } else {
        match ruleset.jigo(handicap) {
            Jigo::Draw => GameResult::Draw,
            // London Open 1: "In a handicap game, White wins Jigo."
            Jigo::WhiteWins => GameResult::White(0),
        }
    };
    Score {
        scoring: ruleset.scoring,
        black,
        white,
        margin,
        result,
    }
}
