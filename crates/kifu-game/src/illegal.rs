//! Illegal moves pointed out, and their remedies as each document gives
//! them: unwinding within three moves (LGC 2023, London Open 4), unwind and
//! pass or rewind by agreement (BGA, "Illegal Moves"), the first illegal
//! move loses (UEC Cup, "f) When illegal moves are played.").

use kifu_go::{AlternationFailure, IllegalMoveAction, IllegalMoveRemedy, Topic, Violation};
use kifu_ledger::{Color, GameResult, Outcome, PublicKey, ResultBy, Role};

use crate::go::Op;
use crate::moves::is_illegal_move;
use crate::record::IllegalMoveNotice;
use crate::state::{name, GameState};

impl GameState {
    /// An illegal move pointed out: the remedy of the profile.
    pub(crate) fn illegal_move_noticed(
        &mut self,
        seq: u64,
        move_seq: u64,
        signer: &PublicKey,
        roles: &[Role],
    ) {
        let noticed_by = self.signer_name(signer);
        let sheet_signed = !self.result.signatures.is_empty();
        let Some(rules) = self.go_rules().cloned() else {
            self.note_on(
                "an illegal move is pointed out in a game without a Go board; in Renju a forbidden move is pointed out by White",
                Topic::RulesInForce,
            );
            return;
        };
        let rule = self.cite(Topic::IllegalMove);
        let Some(b) = self.go() else { return };
        let Some(index) = b.move_index(move_seq) else {
            self.note_cited(
                format!("no move recorded at event {move_seq} stands in the position: nothing to remedy"),
                rule,
            );
            return;
        };
        let Some(v) = b.verdict(move_seq).cloned() else {
            return;
        };
        let offender = crate::go::ledger_color(v.player);
        let mut notice = IllegalMoveNotice {
            move_seq,
            noticed_seq: seq,
            noticed_by,
            offender: Some(offender),
            violations: v
                .violations
                .iter()
                .map(|x| x.reason().to_string())
                .collect(),
            moves_after: b.moves_after(index),
            remedy: String::new(),
            awaiting_agreement: false,
        };
        if !is_illegal_move(&rules, &v) {
            notice.remedy = if v.violations.is_empty() {
                "none: the move broke no rule".into()
            } else {
                "none under the illegal-move rule: an irregularity, fixed as such".into()
            };
            self.note_cited(
                format!("the move at event {move_seq} is not an illegal move: play continues"),
                rule,
            );
            self.illegal_moves.push(notice);
            return;
        }
        // BGA, "Illegal Moves": "In the case of a failure of alternation, the
        // phrase 'illegal move' ... refers to the whole sequence of two or
        // more moves played consecutively by the offending player."
        let mut start = index;
        let out_of_turn = v
            .violations
            .iter()
            .any(|x| matches!(x, Violation::OutOfTurn { .. }));
        if rules.alternation_failure == AlternationFailure::WholeSequence && out_of_turn {
            while start > 0 {
                match &b.ops()[start - 1] {
                    Op::Move { player, .. } if *player == offender => start -= 1,
                    _ => break,
                }
            }
        }
        let action = rules.illegal_move.remedy(notice.moves_after);
        let mut topic = Topic::IllegalMove;
        match action {
            IllegalMoveAction::Unwind => {
                b.truncate(start);
                notice.remedy = format!(
                    "noticed {} move(s) later, within three: the game is unwound to the position just before the illegal move",
                    notice.moves_after
                );
            }
            IllegalMoveAction::UnwindAndPass => {
                b.truncate(start);
                b.apply(Op::Move {
                    seq,
                    player: offender,
                    stone: offender,
                    point: None,
                    remedy: true,
                });
                notice.remedy = "noticed at once: unwound, and the offender passes, handing a pass stone to the opponent".into();
            }
            IllegalMoveAction::RewindByAgreement => {
                topic = Topic::IllegalMoveRewind;
                notice.awaiting_agreement = true;
                notice.remedy = format!(
                    "noticed after {} intervening move(s): the players may rewind by mutual agreement; the offer closes when either declines or play continues, and then play continues as is",
                    notice.moves_after
                );
            }
            IllegalMoveAction::Continue => {
                notice.remedy = if rules.illegal_move == IllegalMoveRemedy::UnwindWithinThreeMoves {
                    format!(
                        "noticed {} moves later, after three: the game just continues as it is",
                        notice.moves_after
                    )
                } else {
                    "the ruleset states no remedy: the game continues as it is".into()
                };
            }
            IllegalMoveAction::Loss => {
                let by_offender = roles.contains(&match offender {
                    Color::Black => Role::Black,
                    Color::White => Role::White,
                }) && !roles.contains(&Role::Referee);
                if by_offender {
                    notice.remedy = "pointed out by the offender: the rule needs the opponent or the referee; no loss".into();
                } else if sheet_signed {
                    notice.remedy =
                        "pointed out after the game scores were submitted: too late, no loss"
                            .into();
                } else {
                    notice.remedy =
                        format!("the first illegal move loses: {} loses", name(offender));
                    let earlier = b
                        .verdicts
                        .iter()
                        .find(|(_, v)| is_illegal_move(&rules, v))
                        .map(|(s, _)| *s)
                        .filter(|s| *s != move_seq);
                    if let Some(e) = earlier {
                        notice.remedy.push_str(&format!(
                            " (an earlier illegal move, at event {e}, was not pointed out)"
                        ));
                    }
                }
            }
        }
        let words = notice.remedy.clone();
        let rule = self.cite(topic);
        self.note_cited(
            format!("illegal move at event {move_seq} pointed out: {words}"),
            rule.clone(),
        );
        let loses = action == IllegalMoveAction::Loss && words.starts_with("the first");
        self.illegal_moves.push(notice);
        if loses {
            // UEC Cup f): pointed out "before the submission of game scores",
            // the first illegal move decides the game, in place of an end
            // reached on the board after it.
            if let Some(d) = self.result.by_play.take() {
                self.note_cited(
                    format!(
                        "the illegal move was pointed out before the game scores were submitted: it decides the game in place of {}",
                        crate::text::result_text(&d.result)
                    ),
                    rule.clone(),
                );
            }
            self.end_by_play(
                GameResult {
                    outcome: Outcome::Win(offender.opponent()),
                    by: ResultBy::IllegalMove,
                },
                rule,
            );
        }
        if action == IllegalMoveAction::Unwind && self.conduct.time_adjustment_after_unwind {
            self.note_on(
                "the referee may allow an adjustment of the time",
                Topic::TimeAdjustment,
            );
        }
    }

    /// A player agrees to rewind (BGA); both must agree while the offer is
    /// open.
    pub(crate) fn rewind_agreed(&mut self, _seq: u64, p: Color, move_seq: u64) {
        let pending = self
            .illegal_moves
            .iter()
            .rposition(|n| n.move_seq == move_seq && n.awaiting_agreement);
        if pending.is_some() && !self.rewind_agreements.contains(&(move_seq, p)) {
            self.rewind_agreements.push((move_seq, p));
        }
        let both = [Color::Black, Color::White]
            .iter()
            .all(|c| self.rewind_agreements.contains(&(move_seq, *c)));
        match (both, pending) {
            (_, None) => {
                let closed = self
                    .illegal_moves
                    .iter()
                    .any(|n| n.move_seq == move_seq && n.remedy.starts_with("no rewind"));
                self.note_on(
                    if closed {
                        format!("the offer to rewind the move at event {move_seq} is closed: the agreement comes too late and changes nothing")
                    } else {
                        format!("no rewind of the move at event {move_seq} awaits agreement")
                    },
                    Topic::IllegalMoveRewind,
                )
            }
            (false, Some(_)) => self.note_on(
                format!(
                    "{} agrees to rewind; the opponent's agreement is needed",
                    self.seat_name(p)
                ),
                Topic::IllegalMoveRewind,
            ),
            (true, Some(i)) => {
                let offender = self.illegal_moves[i].offender;
                let whole_sequence = self
                    .go_rules()
                    .is_some_and(|r| r.alternation_failure == AlternationFailure::WholeSequence);
                let Some(b) = self.go() else { return };
                let Some(mut start) = b.move_index(move_seq) else {
                    self.note_on(
                        "the move no longer stands: nothing to rewind",
                        Topic::IllegalMoveRewind,
                    );
                    return;
                };
                let out_of_turn = b.verdict(move_seq).is_some_and(|v| {
                    v.violations
                        .iter()
                        .any(|x| matches!(x, Violation::OutOfTurn { .. }))
                });
                if out_of_turn && whole_sequence {
                    while start > 0 {
                        match &b.ops()[start - 1] {
                            Op::Move { player, .. } if Some(*player) == offender => start -= 1,
                            _ => break,
                        }
                    }
                }
                b.truncate(start);
                self.illegal_moves[i].awaiting_agreement = false;
                self.illegal_moves[i].remedy = "rewound by mutual agreement: the offender plays a legal move without handing over a pass stone".into();
                self.note_on(
                    format!("both players agree: the game is rewound to just before the move at event {move_seq}; the offender plays again, without a pass stone"),
                    Topic::IllegalMoveRewind,
                );
            }
        }
    }

    /// A player declines to rewind (BGA): the offer closes and play continues
    /// as is.
    pub(crate) fn rewind_declined(&mut self, _seq: u64, p: Color, move_seq: u64) {
        let pending = self
            .illegal_moves
            .iter()
            .rposition(|n| n.move_seq == move_seq && n.awaiting_agreement);
        match pending {
            Some(i) => {
                let who = self.seat_name(p);
                self.close_offer(i, &format!("{who} declined"));
            }
            None => self.note_on(
                format!("no rewind of the move at event {move_seq} awaits agreement"),
                Topic::IllegalMoveRewind,
            ),
        }
    }

    /// Play continuing closes every open offer to rewind (BGA, "Illegal
    /// Moves": "If the players do not agree to unwind, then play continues
    /// as is").
    pub(crate) fn close_rewind_offers(&mut self, _seq: u64) {
        let open: Vec<usize> = self
            .illegal_moves
            .iter()
            .enumerate()
            .filter(|(_, n)| n.awaiting_agreement)
            .map(|(i, _)| i)
            .collect();
        for i in open {
            self.close_offer(i, "play continued without both players agreeing");
        }
    }

    fn close_offer(&mut self, i: usize, why: &str) {
        let move_seq = self.illegal_moves[i].move_seq;
        self.illegal_moves[i].awaiting_agreement = false;
        self.illegal_moves[i].remedy =
            format!("no rewind ({why}): play continues as is; self-capture stones removed and handed to the opponent");
        self.rewind_agreements.retain(|(m, _)| *m != move_seq);
        self.note_on(
            format!("the offer to rewind the move at event {move_seq} closes: {why}; play continues as is"),
            Topic::IllegalMoveNoRewind,
        );
    }
}
