//! Replaying an SGF record under a ruleset, and the scripted board query.

use serde::{Deserialize, Serialize};

use crate::ending::EndingPhase;
use crate::game::{Game, Move, Setup, Verdict};
use crate::handicap::fixed_handicap_points;
use crate::sgf::{self, SgfGame};
use crate::{Color, Error, Ruleset};

/// The starting position an SGF record describes: its `AB`/`AW` stones, or,
/// when it gives a handicap (`HA` of 2 or more) without placing stones, the
/// fixed handicap points. Repeated setup points are taken once; a point set to
/// both colours is an error.
pub fn setup_from_sgf(record: &SgfGame) -> Result<Setup, Error> {
    let mut black = Vec::new();
    for p in &record.setup_black {
        if !black.contains(p) {
            black.push(*p);
        }
    }
    let mut white = Vec::new();
    for p in &record.setup_white {
        if black.contains(p) {
            return Err(Error::SetupOverlap(*p));
        }
        if !white.contains(p) {
            white.push(*p);
        }
    }
    if black.is_empty() && white.is_empty() && record.handicap >= 2 {
        black = fixed_handicap_points(record.size, record.handicap)?;
    }
    Ok(Setup {
        size: record.size,
        black,
        white,
        to_move: record.first_to_move(),
        handicap: record.handicap,
        komi: record.komi,
    })
}

/// A record replayed: the game at its end and the verdict on every move.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The game after the last move of the main line.
    pub game: Game,
    /// One verdict per move, in order.
    pub verdicts: Vec<Verdict>,
}

/// Replays the main line of `record` under `ruleset`. Every move is applied
/// (see [`Game::apply`]). A move made while play is paused for status
/// assessment is read as a dispute followed by that move, since SGF has no way
/// to record the dispute itself.
pub fn replay_sgf(record: &SgfGame, ruleset: Ruleset) -> Result<Replay, Error> {
    let setup = setup_from_sgf(record)?;
    let mut game = Game::new(ruleset, &setup)?;
    let mut verdicts = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        if *game.ending().phase() == EndingPhase::StatusAssessment {
            // Ignored when the ruleset has no resumption: the move is then
            // flagged as made during status assessment.
            let _ = game.dispute();
        }
        let mv = match m.point {
            Some(p) => Move::Play(p),
            None => Move::Pass,
        };
        verdicts.push(game.apply(m.color, m.color, mv));
    }
    Ok(Replay { game, verdicts })
}

/// Capture counts in a [`BoardReport`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CaptureCounts {
    /// White stones Black captured by play (White's self-captured stones
    /// included, pass stones not).
    pub black: u32,
    /// Black stones White captured by play.
    pub white: u32,
}

/// One illegal move in a [`BoardReport`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct IllegalMove {
    /// 1-based move number.
    #[serde(rename = "move")]
    pub move_number: u32,
    /// The first rule broken ([`crate::Violation::reason`]).
    pub reason: String,
}

/// The position at the end of a record, as `kifu sgf board --json` prints
/// it: the board an SGF record leads to under a ruleset, with the stones,
/// the captures, the side to move and the moves the ruleset calls illegal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BoardReport {
    /// Board size.
    #[schemars(range(min = 1))]
    pub size: u8,
    /// Black stones, SGF coordinates, sorted.
    #[schemars(inner(regex(pattern = "^[a-z]{2}$")))]
    pub black: Vec<String>,
    /// White stones, SGF coordinates, sorted.
    #[schemars(inner(regex(pattern = "^[a-z]{2}$")))]
    pub white: Vec<String>,
    /// Stones captured by play.
    pub captures: CaptureCounts,
    /// Who moves next.
    pub to_move: Color,
    /// Moves the ruleset finds illegal.
    pub illegal: Vec<IllegalMove>,
}

/// Reads `sgf_text`, replays its main line under `ruleset` and reports the
/// final position.
///
/// ```
/// use kifu_go::{board_report, Ruleset};
/// let r = board_report("(;SZ[9];B[ee];W[ee])", &Ruleset::lgc_2023()).unwrap();
/// assert_eq!(r.black, vec!["ee"]);
/// assert_eq!(r.illegal[0].reason, "occupied");
/// let json = serde_json::to_string(&r).unwrap();
/// assert!(json.starts_with(r#"{"size":9,"black":["ee"],"white":[],"captures":{"black":0,"white":0},"to_move":"black","illegal":[{"move":2"#));
/// ```
pub fn board_report(sgf_text: &str, ruleset: &Ruleset) -> Result<BoardReport, Error> {
    let record = sgf::read(sgf_text)?;
    let replay = replay_sgf(&record, ruleset.clone())?;
    let game = &replay.game;
    let names = |c: Color| -> Vec<String> {
        let mut v: Vec<String> = game
            .board()
            .stones(c)
            .into_iter()
            .map(|p| p.to_sgf())
            .collect();
        v.sort();
        v
    };
    Ok(BoardReport {
        size: game.board().size(),
        black: names(Color::Black),
        white: names(Color::White),
        captures: CaptureCounts {
            black: game.captures(Color::Black),
            white: game.captures(Color::White),
        },
        to_move: game.to_move(),
        illegal: replay
            .verdicts
            .iter()
            .filter_map(|v| {
                v.violations.first().map(|x| IllegalMove {
                    move_number: v.move_number,
                    reason: x.reason().to_string(),
                })
            })
            .collect(),
    })
}
