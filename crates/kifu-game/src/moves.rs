//! Moves, passes and resignations, and the rules a move breaks.

use kifu_go::{OccupiedPointRule, Topic, Verdict, Violation};
use kifu_ledger::{Color, GameResult, Outcome, Point, ResultBy};
use kifu_renju::GameInput;

use crate::cite::Cited;
use crate::go::{Applied, GoBoard, Op};
use crate::renju::{player_id, renju_point};
use crate::state::{name, BoardState, GameState};

fn violation_words(v: &Violation) -> &'static str {
    match v {
        Violation::OutOfTurn { .. } => "a failure of alternation",
        Violation::WrongColour => "a stone of the wrong colour",
        Violation::OccupiedPoint => "a stone on an occupied point",
        Violation::OffBoard => "a stone off the board",
        Violation::Suicide => "self-capture",
        Violation::Ko => "ko",
        Violation::Superko(_) => "superko",
        Violation::DuringStatusAssessment => "a move while play is paused for status assessment",
        Violation::AfterEndOfGame => "a move after the end of the game",
    }
}

/// Whether a violation is an illegal move under `rules` (governed by the
/// illegal-move clause) rather than an irregularity: ko, superko,
/// self-capture and alternation always (BGA, "Rule Violation"); a stone on an
/// occupied point or off the board where the rules of play make it one
/// (Japanese rules, as the UEC Cup plays them).
pub(crate) fn is_illegal_violation(rules: &kifu_go::Ruleset, v: &Violation) -> bool {
    match v {
        Violation::Ko
        | Violation::Superko(_)
        | Violation::Suicide
        | Violation::OutOfTurn { .. } => true,
        Violation::OccupiedPoint | Violation::OffBoard => {
            rules.occupied_point == OccupiedPointRule::IllegalMove
        }
        _ => false,
    }
}

/// Whether the move is an illegal move under `rules`.
pub(crate) fn is_illegal_move(rules: &kifu_go::Ruleset, v: &Verdict) -> bool {
    v.violations.iter().any(|x| is_illegal_violation(rules, x))
}

impl GameState {
    pub(crate) fn go(&mut self) -> Option<&mut GoBoard> {
        match &mut self.board {
            BoardState::Go(b) => Some(b),
            _ => None,
        }
    }

    /// The clause a violation found by the engine breaks.
    fn violation_cite(&self, v: &Violation) -> Cited {
        let Some(rules) = self.go_rules() else {
            return self.cite(Topic::RulesInForce);
        };
        let illegal = is_illegal_violation(rules, v);
        let topic = match v {
            _ if illegal
                && rules.illegal_move == kifu_go::IllegalMoveRemedy::FirstIllegalMoveLoses =>
            {
                Topic::IllegalMove
            }
            Violation::OutOfTurn { .. } => Topic::Alternation,
            Violation::WrongColour => Topic::WrongColour,
            Violation::OccupiedPoint if illegal => Topic::IllegalMove,
            Violation::OccupiedPoint => Topic::OccupiedPoint,
            Violation::OffBoard => Topic::AmbiguousPlacement,
            Violation::Suicide => Topic::Suicide,
            Violation::Ko | Violation::Superko(_) => Topic::Ko,
            Violation::DuringStatusAssessment => Topic::StatusAgreement,
            Violation::AfterEndOfGame => return self.after_end_cite(),
        };
        self.cite(topic)
    }

    /// The clause under which the game already ended.
    pub(crate) fn after_end_cite(&self) -> Cited {
        match self.result.computed() {
            Some(d) => Cited {
                rule: d.rule.clone(),
                quote: d.quote.clone(),
            },
            None => self.cite(Topic::AfterEndOfGame),
        }
    }

    /// The colour a seat plays (the pairing may have been modified to the
    /// colours actually used: LGC 2023, "Colour or handicap error").
    pub(crate) fn colour_of_seat(&self, seat: Color) -> Color {
        if self.colours_swapped {
            seat.opponent()
        } else {
            seat
        }
    }

    /// The roster entry of whoever plays `colour`: the seat of that colour,
    /// or the other seat once the seats exchanged colours (a modified
    /// pairing: LGC 2023, "Colour or handicap error").
    pub fn playing(&self, colour: Color) -> Option<&kifu_ledger::Participant> {
        let seat = if self.colours_swapped {
            colour.opponent()
        } else {
            colour
        };
        self.player_participant(seat)
    }

    /// The game's result as the rules give it so far, with the winner named
    /// by seat (the colour the pairing gave), not by the stones played: once
    /// the seats exchanged colours (LGC 2023, "Colour or handicap error": the
    /// pairing is modified to reflect the colours actually used), a win by
    /// the black stones is the white seat's. What a tournament credits
    /// (`docs/TOURNAMENTS.md`, `game_checkpointed`).
    pub fn result_by_seat(&self) -> Option<kifu_ledger::GameResult> {
        let mut r = self.result.computed()?.result.clone();
        if self.colours_swapped {
            if let kifu_ledger::Outcome::Win(c) = r.outcome {
                r.outcome = kifu_ledger::Outcome::Win(c.opponent());
            }
        }
        Some(r)
    }

    /// A seat named in a consequence: its colour, or once the seats play
    /// each other's colours, the colour it plays and the seat.
    pub(crate) fn seat_name(&self, seat: Color) -> String {
        crate::story::seat_words(seat, self.colours_swapped)
    }

    pub(crate) fn stone_placed(&mut self, seq: u64, p: Color, stone: Color, point: Point) {
        match &mut self.board {
            BoardState::Go(_) => {
                let p = self.colour_of_seat(p);
                self.unpressed = Some((seq, p, stone));
                self.go_move(seq, p, stone, Some(point))
            }
            BoardState::Renju(_) => {
                if stone != p {
                    self.note_on(
                        format!(
                            "the stone's colour is recorded as {}; in Renju the colour follows the opening",
                            name(stone)
                        ),
                        Topic::RulesInForce,
                    );
                }
                match renju_point(point) {
                    Some(rp) => self.renju_input(
                        seq,
                        GameInput::Play {
                            by: player_id(p),
                            point: rp,
                        },
                    ),
                    None => self.note_on(
                        format!("{} placed a stone off the 15x15 board", name(p)),
                        Topic::RulesInForce,
                    ),
                }
            }
            BoardState::None => {}
        }
    }

    pub(crate) fn pass(&mut self, seq: u64, p: Color, pass_stone: bool) {
        match &self.board {
            BoardState::Go(b) => {
                let p = self.colour_of_seat(p);
                let expected = b.ruleset().pass_stones;
                if expected != pass_stone {
                    self.note_on(
                        if expected {
                            format!("{} passed without handing over a pass stone; the profile gives one to the opponent", name(p))
                        } else {
                            format!("{} handed over a pass stone the profile does not use; it is not counted", name(p))
                        },
                        Topic::PassStones,
                    );
                }
                self.unpressed = Some((seq, p, p));
                self.go_move(seq, p, p, None);
            }
            BoardState::Renju(_) => self.renju_input(seq, GameInput::Pass { by: player_id(p) }),
            BoardState::None => {}
        }
    }

    fn go_move(&mut self, seq: u64, p: Color, stone: Color, point: Option<Point>) {
        if self.is_over() {
            let c = self.after_end_cite();
            self.note_cited(
                format!("{} moved after the result was decided; the move is recorded, it changes no result", name(p)),
                c,
            );
        }
        self.close_rewind_offers(seq);
        let Some(b) = self.go() else { return };
        let applied = b.apply(Op::Move {
            seq,
            player: p,
            stone,
            point,
            remedy: false,
        });
        match applied {
            Applied::Moved(v) => self.after_go_move(&v, point),
            Applied::Handicap { placed, left } => self.note_on(
                format!(
                    "handicap stone {placed} placed at {} (free placement); {left} to place before White's first move",
                    point.map(|p| self.notation().point(p)).unwrap_or_default()
                ),
                Topic::Handicap,
            ),
            _ => {}
        }
    }

    fn after_go_move(&mut self, v: &Verdict, point: Option<Point>) {
        let notation = self.notation();
        let at = point
            .map(|p| notation.point(p))
            .unwrap_or_else(|| "pass".into());
        let illegal_rules = self.go_rules().cloned();
        for violation in &v.violations {
            let c = self.violation_cite(violation);
            let illegal = illegal_rules
                .as_ref()
                .is_some_and(|r| is_illegal_violation(r, violation));
            let tail = match violation {
                Violation::AfterEndOfGame => "recorded; it changes nothing",
                _ if illegal => "an illegal move, recorded and not refused; the remedy applies when it is pointed out, otherwise play goes on as it is",
                _ => "an irregularity, recorded and not refused; it is fixed when it is noticed",
            };
            self.note_cited(
                format!(
                    "move {} ({} {}) is {}: {tail}",
                    v.move_number,
                    name(crate::go::ledger_color(v.player)),
                    at,
                    violation_words(violation)
                ),
                c,
            );
        }
        if !v.suicided.is_empty() {
            let topic = match self
                .go_rules()
                .and_then(|r| r.clause(Topic::IllegalMoveNoRewind))
            {
                Some(_) => Topic::IllegalMoveNoRewind,
                None => Topic::Suicide,
            };
            self.note_on(
                format!(
                    "{} self-captured stone(s) removed and handed to the opponent as prisoners",
                    v.suicided.len()
                ),
                topic,
            );
        }
        self.ending_events(&v.events);
    }

    pub(crate) fn resigned(&mut self, seq: u64, p: Color) {
        if let BoardState::Renju(_) = self.board {
            self.renju_input(seq, GameInput::Resign { by: player_id(p) });
            return;
        }
        let p = self.colour_of_seat(p);
        let c = self.cite(Topic::Resignation);
        self.end_by_play(
            GameResult {
                outcome: Outcome::Win(p.opponent()),
                by: ResultBy::Resignation,
            },
            c,
        );
    }
}
