//! Renju and Gomoku input: each recorded fact fed to `kifu-renju`, and what
//! the engine did with it, under the RIF tournament rules.

use kifu_go::Topic;
use kifu_ledger::{GameResult, Outcome, ResultBy};
use kifu_renju::{GameInput, Outcome as ROutcome, ResultReason};

use crate::cite::Cited;
use crate::renju::seat;
use crate::state::{name, BoardState, GameState};
use crate::words;

impl GameState {
    /// Feeds one input to the Renju engine and records what it did.
    pub(crate) fn renju_input(&mut self, seq: u64, input: GameInput) {
        let BoardState::Renju(r) = &mut self.board else {
            self.note_on(
                "a Renju fact in a game without a Renju board: recorded, no effect",
                Topic::RulesInForce,
            );
            return;
        };
        let rule_name = r.rule.clone();
        match r.apply(seq, input) {
            Err(why) => self.note_on(
                format!("not applicable in the game as it stands: {why}"),
                Topic::RulesInForce,
            ),
            Ok(ROutcome::Ended(res)) => {
                let outcome = match res.winner {
                    Some(p) => Outcome::Win(seat(p)),
                    None => Outcome::Draw,
                };
                // The tournament rules' own clause where they have one; the
                // RIF rules of Renju (not among the rule documents) for the
                // five and forbidden moves.
                let (by, topic) = match res.reason {
                    ResultReason::Five { .. } => (ResultBy::Five, Some(Topic::FiveDeclared)),
                    ResultReason::ForbiddenMove { .. } => (ResultBy::ForbiddenMove, None),
                    ResultReason::Resignation => (ResultBy::Resignation, Some(Topic::Resignation)),
                    ResultReason::TimeExpired => (ResultBy::Time, Some(Topic::LossOnTime)),
                    ResultReason::DrawAgreed => (ResultBy::Agreement, Some(Topic::DrawOffer)),
                    ResultReason::FullBoard => (ResultBy::Other("full board".into()), None),
                    ResultReason::TwoPasses => {
                        (ResultBy::Other("two consecutive passes".into()), None)
                    }
                };
                let cited = match topic {
                    Some(t) => self.cite(t),
                    None => Cited::other(format!("{rule_name}: {}", res.rule_ref())),
                };
                if res.ruled_by_referee {
                    self.result.by_play = None;
                }
                self.end_by_play(GameResult { outcome, by }, cited);
            }
            Ok(ROutcome::ClaimRejected { reason, .. }) => self.note_on(
                format!(
                    "the claim does not hold ({}); play goes on",
                    words::claim_rejection(&reason)
                ),
                Topic::FiveDeclared,
            ),
            Ok(ROutcome::Placed {
                verdict,
                draw_offer_rejected,
                move_number,
                ..
            }) => {
                if draw_offer_rejected {
                    self.note_on(
                        "playing the next move rejects the draw offer",
                        Topic::DrawRejected,
                    );
                }
                if !matches!(verdict, kifu_renju::Verdict::Legal) {
                    let c = Cited::other(format!(
                        "{rule_name}: RIF 9 (five in a row and forbidden moves)"
                    ));
                    self.note_cited(
                        format!(
                            "move {move_number} makes {}: it counts only when declared or pointed out",
                            words::renju_verdict(verdict)
                        ),
                        c,
                    );
                }
            }
            Ok(ROutcome::NeedsReferee { .. }) => {
                self.note_on("the claim is disputed: the referee decides", Topic::Referee)
            }
            Ok(ROutcome::ClaimOverruled { .. }) => self.note_on(
                "the referee does not uphold the claim; play goes on",
                Topic::Referee,
            ),
            Ok(ROutcome::Swapped { swapped, black }) => self.note(
                format!(
                    "{}: the {} seat holds Black",
                    if swapped {
                        "colours swapped"
                    } else {
                        "no swap"
                    },
                    name(seat(black))
                ),
                format!("{rule_name}: opening rule"),
            ),
            Ok(_) => {}
        }
    }
}
