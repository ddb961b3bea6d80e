//! A modified pairing (kind 53, `pairing_modified`): the colours, handicap
//! or komi of the game corrected to those actually used (LGC 2023, "Colour
//! or handicap error": "the game continues and the pairing is modified to
//! reflect the actual colours or handicap used").
//!
//! Chains recorded before the fact existed state a colour error noticed
//! later by an `irregularity_recorded` alone; the projection still infers
//! the exchange of colours from it (`irregular.rs`), so those chains keep
//! their results. A `pairing_modified` states it: the projection follows
//! the fact, whatever was inferred before it.

use kifu_go::Topic;
use kifu_ledger::Color;

use crate::go::{GoBoard, Op};
use crate::state::{name, BoardState, GameState};
use crate::text::points_text;

/// Each standing move is attributed to the other seat's colour: after an
/// exchange, a seat plays the colour of the stones it played (a pass, which
/// has no stone, follows its player).
pub(crate) fn swap_seats(b: &mut GoBoard) {
    let ops: Vec<Op> = b
        .ops()
        .iter()
        .cloned()
        .map(|o| match o {
            Op::Move {
                seq,
                player,
                stone,
                point,
                remedy,
            } => Op::Move {
                seq,
                player: player.opponent(),
                stone: if point.is_some() {
                    stone
                } else {
                    player.opponent()
                },
                point,
                remedy,
            },
            other => other,
        })
        .collect();
    b.rebuild(ops);
}

impl GameState {
    /// Kind 53: the pairing modified. `swap_colours` is stated against the
    /// genesis: true, the Black seat plays White and the White seat Black;
    /// false, each seat plays the colour the genesis gives it.
    pub(crate) fn pairing_modified(
        &mut self,
        swap_colours: bool,
        handicap: Option<u8>,
        komi_half_points: Option<i32>,
        reason: &str,
    ) {
        let cited = self.cite(Topic::ColourOrHandicapError);
        if !matches!(self.board, BoardState::Go(_)) {
            self.note_cited(
                format!("the pairing is modified ({reason}); no board correction outside Go: the colours follow the opening"),
                cited,
            );
            return;
        }
        if self.is_over() {
            self.note_cited(
                format!("the pairing is modified after the result ({reason}): the count is not redone; a matter for the referee"),
                cited,
            );
            return;
        }
        let mut what = Vec::new();
        let exchange = swap_colours != self.colours_swapped;
        if let Some(b) = self.go() {
            if exchange {
                swap_seats(b);
            }
            if handicap.is_some() || komi_half_points.is_some() {
                b.set_terms(handicap, komi_half_points);
            }
        }
        if exchange {
            self.colours_swapped = swap_colours;
            what.push(if swap_colours {
                format!(
                    "the seats exchange colours: the {} seat plays {} and the {} seat plays {}, each the colour of the stones it played",
                    name(Color::Black).to_lowercase(),
                    name(Color::White),
                    name(Color::White).to_lowercase(),
                    name(Color::Black)
                )
            } else {
                "each seat plays the colour the genesis gives it again".to_string()
            });
        } else if swap_colours {
            what.push(
                "the seats play each other's colours, as already applied: no further exchange"
                    .to_string(),
            );
        }
        if let Some(h) = handicap {
            what.push(format!(
                "the handicap is {h} stone(s), the stones standing as placed"
            ));
        }
        if let Some(k) = komi_half_points {
            what.push(format!("the komi is {}", points_text(i64::from(k))));
        }
        if what.is_empty() {
            what.push("the colours, handicap and komi stay as they are".to_string());
        }
        self.note_cited(
            format!(
                "the pairing is modified to reflect the colours or handicap actually used ({reason}): {}",
                what.join("; ")
            ),
            cited,
        );
    }
}

/// The fact in words, for the story and the log.
pub(crate) fn describe(
    swap_colours: bool,
    handicap: Option<u8>,
    komi_half_points: Option<i32>,
    reason: &str,
) -> String {
    let mut parts = vec![if swap_colours {
        "the seats play each other's colours".to_string()
    } else {
        "each seat plays the colour of the genesis".to_string()
    }];
    if let Some(h) = handicap {
        parts.push(format!("handicap {h}"));
    }
    if let Some(k) = komi_half_points {
        parts.push(format!("komi {}", points_text(i64::from(k))));
    }
    format!("the pairing is modified ({reason}): {}", parts.join(", "))
}
