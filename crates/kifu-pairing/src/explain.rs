//! Why a draw is what it is, board by board, in the terms a director
//! checks it by: the two players' main scores before the round and their
//! difference, whether they met before, each one's colours so far, the
//! handicap and how it was computed; and why the bye went where it did.
//!
//! Every number is the one the draw itself used ([`crate::pair`] and
//! OpenGotha's `gameBetween` and `chooseAByePlayer`): the explanation
//! reads the same `Field` the draw is made from, so it cannot tell
//! another story than the draw.

use serde::{Deserialize, Serialize};

use kifu_standings::{Participation, Rank, Tournament, Value};

use crate::cost::{even_game_white, handicap_steps, HandicapSteps};
use crate::draw::{Board, Draw};
use crate::field::{Field, MainScore};
use crate::settings::PairingSettings;
use crate::PairingError;

/// OpenGotha's lowest rank (30k), the zero of its McMahon scale.
const MIN_RANK: i64 = -30;

/// One player of a board or the bye, as the draw saw them before the round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct PlayerWhy {
    /// Registration id.
    pub id: String,
    /// Surname and given name.
    pub name: String,
    /// Declared rank (`2d`, `5k`).
    pub rank: String,
    /// The main score before the round (MMS, or NBW in Swiss), exact.
    pub score: f64,
    /// Each earlier round, in order: `W` or `B` (even game), `W h2` or
    /// `B h2` (handicap game), `?` (colours not noted), `bye`, `absent`,
    /// `-` (present, not paired).
    pub colours: Vec<String>,
    /// Even games as White minus even games as Black: the balance the draw
    /// evens out.
    pub balance: i64,
}

/// Why one board is paired as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct BoardWhy {
    /// Table number.
    pub table: u32,
    /// White.
    pub white: PlayerWhy,
    /// Black.
    pub black: PlayerWhy,
    /// The difference of the two main scores.
    pub score_difference: f64,
    /// Games the two played each other before this round.
    pub met_before: u32,
    /// Handicap stones.
    pub handicap: u8,
    /// How the handicap and the colours came out, in words.
    pub handicap_why: String,
}

/// Why the bye went to this player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct ByeWhy {
    /// The player.
    pub player: PlayerWhy,
    /// Their bye weight: rank + 2 × MMS before the round + 1000 per bye
    /// had (the lowest weight has the bye).
    pub weight: i64,
    /// The same in words.
    pub why: String,
}

/// Why a draw is what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawWhy {
    /// The round.
    pub round: u32,
    /// The main score the draw groups by: `MMS` or `NBW`.
    pub score: String,
    /// Each board, by table.
    pub boards: Vec<BoardWhy>,
    /// The bye, if any.
    pub bye: Option<ByeWhy>,
}

fn rank_text(rank: i64) -> String {
    Rank::from_value(rank.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32).to_string()
}

/// What `id` did in each round before `round`.
fn colours(t: &Tournament, round: u32, id: &str) -> Vec<String> {
    (1..round)
        .map(|r| match t.participation(r, id) {
            Participation::Paired(g) if !g.colours_known => "?".to_string(),
            Participation::Paired(g) => {
                let c = if g.white == id { "W" } else { "B" };
                if g.handicap > 0 {
                    format!("{c} h{}", g.handicap)
                } else {
                    c.to_string()
                }
            }
            Participation::Bye => "bye".into(),
            Participation::Absent => "absent".into(),
            Participation::NotAssigned => "-".into(),
        })
        .collect()
}

fn halves(main: MainScore, e: &crate::field::Entrant) -> i64 {
    match main {
        MainScore::Mms => e.mms2,
        MainScore::Nbw => e.nbw2,
    }
}

/// The handicap and colours of a board between `w` (White) and `b`, in
/// words, from the steps the draw took.
fn handicap_words(
    f: &Field,
    s: &PairingSettings,
    steps: &HandicapSteps,
    board: &Board,
    w: usize,
    b: usize,
) -> String {
    let h = &s.handicap;
    let strength = |x: i64| {
        if steps.based_on_mms {
            format!("MMS {}", x - MIN_RANK)
        } else {
            rank_text(x)
        }
    };
    let (sw, sb) = steps.strength;
    let mut out = if h.ceiling == 0 {
        // Swiss's default: every rank counts as 30k, at most no stone.
        "no handicap in this tournament (its ceiling is 0 stones)".to_string()
    } else {
        let mut out = format!(
            "{} {} against {}",
            if steps.based_on_mms {
                "by the MMS before the round:"
            } else {
                "by rank:"
            },
            strength(sw),
            strength(sb)
        );
        if steps.capped != steps.strength {
            out.push_str(&format!(
                ", each counted at most as {}",
                strength(i64::from(h.no_handicap_above.value()))
            ));
        }
        let d = steps.difference.abs();
        out.push_str(&format!("; difference {d}"));
        if d > 0 && h.reduction > 0 {
            out.push_str(&format!(", less {}", h.reduction));
        }
        if d > i64::from(h.reduction) + i64::from(h.ceiling) {
            out.push_str(&format!(", at most {}", h.ceiling));
        }
        out
    };
    if board.handicap > 0 {
        let stones = if board.handicap == 1 {
            "stone"
        } else {
            "stones"
        };
        out.push_str(&format!(
            ": {} {stones}, White the stronger",
            board.handicap
        ));
    } else {
        let (ew, eb) = (&f.entrants[w], &f.entrants[b]);
        out.push_str(": an even game; ");
        let rule = match ew.colour_balance.cmp(&eb.colour_balance) {
            std::cmp::Ordering::Equal => format!(
                "equal colour balances ({}), White drawn from the names",
                ew.colour_balance
            ),
            _ => format!(
                "colour balances {} ({}) and {} ({}), White to the one who had it less often",
                ew.colour_balance, ew.id, eb.colour_balance, eb.id
            ),
        };
        if even_game_white(ew, eb) {
            out.push_str(&format!("White to {}: {rule}", ew.id));
        } else {
            out.push_str(&format!(
                "White to {} as the director set it, where the rule gives it to {} ({rule})",
                ew.id, eb.id
            ));
        }
    }
    out
}

/// Why `draw` (of `draw.round`, drawn from `t` with `settings`, or changed
/// from such a draw) pairs each board as it does, and gives the bye where
/// it does.
pub fn explain(
    t: &Tournament,
    draw: &Draw,
    settings: &PairingSettings,
) -> Result<DrawWhy, PairingError> {
    let round = draw.round;
    let f = Field::new(t, round, settings)?;
    let main = MainScore::of(&t.settings.criteria);
    let find = |id: &str| -> Result<usize, PairingError> {
        f.index
            .get(id)
            .copied()
            .ok_or_else(|| PairingError::UnknownPlayer(id.to_string()))
    };
    let player = |i: usize| -> PlayerWhy {
        let e = &f.entrants[i];
        let name = t
            .players
            .get(i)
            .map(|p| format!("{} {}", p.surname, p.given).trim().to_string())
            .unwrap_or_default();
        PlayerWhy {
            id: e.id.clone(),
            name,
            rank: rank_text(e.rank),
            score: halves(main, e) as f64 / 2.0,
            colours: colours(t, round, &e.id),
            balance: e.colour_balance,
        }
    };
    let mut boards = Vec::with_capacity(draw.boards.len());
    for b in &draw.boards {
        let (w, k) = (find(&b.white)?, find(&b.black)?);
        let steps = handicap_steps(&f, settings, w, k);
        let (pw, pb) = (player(w), player(k));
        boards.push(BoardWhy {
            table: b.table,
            score_difference: (halves(main, &f.entrants[w]) - halves(main, &f.entrants[k])).abs()
                as f64
                / 2.0,
            met_before: u32::from(f.met(w, k)),
            handicap: b.handicap,
            handicap_why: handicap_words(&f, settings, &steps, b, w, k),
            white: pw,
            black: pb,
        });
    }
    let bye = match &draw.bye {
        None => None,
        Some(id) => {
            let i = find(id)?;
            let e = &f.entrants[i];
            let weight = e.rank + e.mms2 + 1000 * e.byes;
            let why = format!(
                "the lowest of rank + 2 × MMS + 1000 per bye had, among the players to pair: {} ({}) + 2 × {} + 1000 × {} = {weight}; among equals the last in the standings",
                rank_text(e.rank),
                e.rank,
                Value::from_halves(e.mms2).glyphs(),
                e.byes
            );
            Some(ByeWhy {
                player: player(i),
                weight,
                why,
            })
        }
    };
    Ok(DrawWhy {
        round,
        score: match main {
            MainScore::Mms => "MMS".into(),
            MainScore::Nbw => "NBW".into(),
        },
        boards,
        bye,
    })
}
