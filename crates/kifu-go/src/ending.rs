//! The ending procedure as a pure state machine.
//!
//! Driven by [`EndingInput`]s (a board play, a pass, an agreement on dead
//! stones, a dispute), it says when play pauses, who moves first when play
//! resumes, when White owes an extra pass, and how the game ended. The
//! choices come from the [`Ruleset`] (`pause`, `white_passes_last`,
//! `resumption`, `passes_at_resumption_start_stop_game`, `move_limit`).
//!
//! ```
//! use kifu_go::{Color, Ending, EndingInput, EndingPhase, Ruleset};
//! let mut e = Ending::new(&Ruleset::lgc_2023());
//! e.step(EndingInput::Pass(Color::Black)).unwrap();
//! e.step(EndingInput::Pass(Color::White)).unwrap();
//! assert_eq!(e.phase(), &EndingPhase::StatusAssessment);
//! ```

use serde::{Deserialize, Serialize};

use crate::ruleset::{PauseRule, Resumption, Ruleset, WhitePassesLast};
use crate::{Color, Point};

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// The players agreed on the status of every group; these stones are dead.
    Agreed {
        /// Stones agreed dead, removed as prisoners before counting.
        dead: Vec<Point>,
    },
    /// Both players passed at the start of a resumption (or the ruleset counts
    /// the board as it stands): every stone on the board is alive.
    AllStonesAlive,
    /// The move limit was reached; the referee counts.
    MoveLimit,
    /// A whole-board position repeated and the ruleset stops the game.
    Repetition,
}

/// Where the game is in its ending procedure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum EndingPhase {
    /// Moves are being played.
    Play,
    /// Play has paused; the players try to agree on the status of every group.
    /// Under a ruleset without resumption (`uec-cup`) this is the end of play:
    /// [`EndingInput::Agree`] records the dead stones the count uses.
    StatusAssessment,
    /// The outcome is settled but White must first hand over one more pass
    /// stone, because Black passed last.
    WhiteToPassLast(GameEnd),
    /// The game is over.
    Over(GameEnd),
}

/// An input to the ending state machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum EndingInput {
    /// A stone played on the board by this player.
    Play(Color),
    /// A pass by this player.
    Pass(Color),
    /// Both players agree on the status of every group; these stones are dead.
    Agree(Vec<Point>),
    /// The players dispute the status of some group.
    Dispute,
}

/// What a step of the ending machine announced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum EndingEvent {
    /// Play paused for status assessment (the clock is paused).
    Paused,
    /// Play resumes; this player moves first.
    Resumed {
        /// Who moves first in the resumption.
        first: Color,
    },
    /// White must pass once more (and hand over a pass stone) so that White
    /// passes last.
    ExtraWhitePassRequired,
    /// The game ended.
    Ended(GameEnd),
}

/// An input the ending machine cannot take in its current phase. The state is
/// unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndingError {
    /// A play, pass or status input after the game ended.
    #[error("the game is already over")]
    GameOver,
    /// A play or pass while play is paused for status assessment.
    #[error("play is paused for status assessment: agree or dispute first")]
    Paused,
    /// Agreement or dispute while play is going on.
    #[error("play is not paused: there is no status to agree or dispute")]
    NotPaused,
    /// The ruleset does not allow play to resume.
    #[error("this ruleset does not allow play to resume")]
    ResumptionNotAllowed,
    /// Only White's extra pass may follow.
    #[error("White must pass last before anything else")]
    WhitePassExpected,
}

/// The ending state machine for one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Ending {
    pause: PauseRule,
    white_passes_last: WhitePassesLast,
    resumption: Resumption,
    stop_on_resumption_passes: bool,
    move_limit: Option<u32>,
    phase: EndingPhase,
    moves: u32,
    consecutive_passes: u32,
    last_passer: Option<Color>,
    /// Passes since the current resumption began, while only passes were played.
    resumption_start_passes: Option<u32>,
    resumptions: u32,
}

impl Ending {
    /// A fresh machine for a game under `ruleset`.
    pub fn new(ruleset: &Ruleset) -> Ending {
        Ending {
            pause: ruleset.pause,
            white_passes_last: ruleset.white_passes_last,
            resumption: ruleset.resumption,
            stop_on_resumption_passes: ruleset.passes_at_resumption_start_stop_game,
            move_limit: ruleset.move_limit,
            phase: EndingPhase::Play,
            moves: 0,
            consecutive_passes: 0,
            last_passer: None,
            resumption_start_passes: None,
            resumptions: 0,
        }
    }

    /// The current phase.
    pub fn phase(&self) -> &EndingPhase {
        &self.phase
    }

    /// Moves counted so far (board plays and passes).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Consecutive passes since the last board play or resumption.
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// The player who passed last, if anyone has passed.
    pub fn last_passer(&self) -> Option<Color> {
        self.last_passer
    }

    /// How many times play has resumed after a dispute.
    pub fn resumptions(&self) -> u32 {
        self.resumptions
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, EndingPhase::Over(_))
    }

    /// Ends the game from outside the pass procedure (a repetition the ruleset
    /// stops the game for). Has no effect on a game already over.
    pub fn declare(&mut self, end: GameEnd) -> Vec<EndingEvent> {
        if self.is_over() {
            return Vec::new();
        }
        self.phase = EndingPhase::Over(end.clone());
        vec![EndingEvent::Ended(end)]
    }

    /// Settles the game with `end`, asking White for an extra pass where the
    /// ruleset wants White to pass last and Black passed last.
    fn settle(&mut self, end: GameEnd) -> Vec<EndingEvent> {
        if self.white_passes_last == WhitePassesLast::AfterAgreement
            && self.last_passer == Some(Color::Black)
        {
            // London Open 5: "if necessary, White must pass again and hand
            // over another pass stone"; BGA "White passes last".
            self.phase = EndingPhase::WhiteToPassLast(end);
            vec![EndingEvent::ExtraWhitePassRequired]
        } else {
            self.phase = EndingPhase::Over(end.clone());
            vec![EndingEvent::Ended(end)]
        }
    }

    fn count_move(&mut self, events: &mut Vec<EndingEvent>) {
        self.moves += 1;
        // UEC Cup, "e) When the game has progressed the 400th moves. Pass will
        // be counted by a move."
        if let Some(limit) = self.move_limit {
            if self.moves >= limit && !self.is_over() {
                self.phase = EndingPhase::Over(GameEnd::MoveLimit);
                events.push(EndingEvent::Ended(GameEnd::MoveLimit));
            }
        }
    }

    /// Feeds one input. On error the state is unchanged.
    pub fn step(&mut self, input: EndingInput) -> Result<Vec<EndingEvent>, EndingError> {
        let mut events = Vec::new();
        match (&self.phase, input) {
            (EndingPhase::Over(_), _) => return Err(EndingError::GameOver),
            (EndingPhase::WhiteToPassLast(end), EndingInput::Pass(Color::White)) => {
                let end = end.clone();
                self.last_passer = Some(Color::White);
                self.consecutive_passes += 1;
                self.phase = EndingPhase::Over(end.clone());
                events.push(EndingEvent::Ended(end));
                self.moves += 1;
            }
            (EndingPhase::WhiteToPassLast(_), _) => return Err(EndingError::WhitePassExpected),
            (EndingPhase::StatusAssessment, EndingInput::Play(_) | EndingInput::Pass(_)) => {
                return Err(EndingError::Paused)
            }
            (EndingPhase::StatusAssessment, EndingInput::Agree(dead)) => {
                events.extend(self.settle(GameEnd::Agreed { dead }));
            }
            (EndingPhase::StatusAssessment, EndingInput::Dispute) => {
                let first = match self.resumption {
                    // LGC 2023, "Ending the game" 6: "play resumes on the
                    // clock, with Black going first".
                    Resumption::BlackFirst => Color::Black,
                    // London Open 6; BGA "Game End": "the opponent of the last
                    // player to pass going first".
                    Resumption::OpponentOfLastPasser => self
                        .last_passer
                        .map(Color::opponent)
                        .unwrap_or(Color::Black),
                    // UEC Cup a) 4: no resumption.
                    Resumption::NotAllowed | Resumption::ScoreAsItStands => {
                        return Err(EndingError::ResumptionNotAllowed)
                    }
                };
                self.phase = EndingPhase::Play;
                // Passes are counted afresh from the resumption (the earlier
                // ones led to the pause just ended).
                self.consecutive_passes = 0;
                self.resumption_start_passes = Some(0);
                self.resumptions += 1;
                events.push(EndingEvent::Resumed { first });
            }
            (EndingPhase::Play, EndingInput::Agree(_) | EndingInput::Dispute) => {
                return Err(EndingError::NotPaused)
            }
            (EndingPhase::Play, EndingInput::Play(_)) => {
                self.consecutive_passes = 0;
                self.resumption_start_passes = None;
                self.count_move(&mut events);
            }
            (EndingPhase::Play, EndingInput::Pass(color)) => {
                self.consecutive_passes += 1;
                self.last_passer = Some(color);
                if let Some(n) = self.resumption_start_passes.as_mut() {
                    *n += 1;
                }
                let stop_at_resumption_start =
                    self.stop_on_resumption_passes && self.resumption_start_passes == Some(2);
                let pauses = match self.pause {
                    PauseRule::TwoConsecutivePasses => self.consecutive_passes >= 2,
                    // LGC 2023, "Ending the game" 3: "Play pauses after the
                    // minimum number of consecutive passes in which White
                    // passes last."
                    PauseRule::ConsecutivePassesWhiteLast => {
                        self.consecutive_passes >= 2 && color == Color::White
                    }
                };
                if stop_at_resumption_start {
                    // LGC 2023 "Ending the game" 6, London Open 7, BGA "Game
                    // End": both pass at the start of a resumption -> the game
                    // stops, all stones remain on the board.
                    self.resumption_start_passes = None;
                    let settled = if self.pause == PauseRule::ConsecutivePassesWhiteLast
                        && color == Color::Black
                    {
                        // Under LGC the stop also waits for White's pass.
                        self.phase = EndingPhase::WhiteToPassLast(GameEnd::AllStonesAlive);
                        vec![EndingEvent::ExtraWhitePassRequired]
                    } else {
                        self.settle(GameEnd::AllStonesAlive)
                    };
                    events.extend(settled);
                } else if pauses {
                    self.resumption_start_passes = None;
                    if self.resumption == Resumption::ScoreAsItStands {
                        self.phase = EndingPhase::Over(GameEnd::AllStonesAlive);
                        events.push(EndingEvent::Ended(GameEnd::AllStonesAlive));
                    } else {
                        self.phase = EndingPhase::StatusAssessment;
                        events.push(EndingEvent::Paused);
                    }
                }
                self.count_move(&mut events);
            }
        }
        Ok(events)
    }
}
