//! The clock projection: the state of both clocks as a pure function of the
//! time control and the recorded events.

use serde::{Deserialize, Serialize};

use crate::error::ClockError;
use crate::event::{ClockEvent, PauseReason};
use crate::player::Player;
use crate::reading::{ClockReading, Discrepancy, PlayerFace, SideDiscrepancy};
use crate::time_control::TimeControl;

/// The overtime part of a player's clock, by system. In JSON its values are
/// snake_case (`none`, `byo_yomi`), as every value kifu documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Overtime {
    /// No overtime: sudden death, Fischer, or no clock.
    None,
    /// Simple time: every move gets `per_move_ms` afresh.
    PerMove {
        /// Time for each move.
        per_move_ms: u64,
    },
    /// Japanese byo-yomi.
    ByoYomi {
        /// Periods left. A move completed within a period does not use it up.
        periods_left: u32,
        /// Length of a period; the period clock starts full at every move.
        period_ms: u64,
    },
    /// Canadian overtime.
    Canadian {
        /// Stones still to play in the current block.
        moves_left: u32,
        /// Time left in the current block.
        block_ms_left: u64,
    },
}

/// One player's clock between moves: what is left at the start of his next
/// turn. While his clock runs, [`Clock::face_at`] gives what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlayerClock {
    /// Main (basic) time left. For simple time, only time added by the referee.
    pub main_ms: u64,
    /// The overtime state.
    pub overtime: Overtime,
    /// Total time charged to this player so far (completed turns and turns
    /// handed over by the referee), pauses excluded.
    pub used_ms: u64,
}

impl PlayerClock {
    /// The clock of a player at the start of a game under `control`.
    pub fn initial(control: &TimeControl) -> PlayerClock {
        let (main_ms, overtime) = match *control {
            TimeControl::Untimed => (0, Overtime::None),
            TimeControl::SuddenDeath { main_ms } | TimeControl::Fischer { main_ms, .. } => {
                (main_ms, Overtime::None)
            }
            TimeControl::Simple { per_move_ms } => (0, Overtime::PerMove { per_move_ms }),
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            } => (
                main_ms,
                Overtime::ByoYomi {
                    periods_left: periods,
                    period_ms,
                },
            ),
            TimeControl::Canadian {
                main_ms,
                block_ms,
                stones,
            } => (
                main_ms,
                Overtime::Canadian {
                    moves_left: stones,
                    block_ms_left: block_ms,
                },
            ),
        };
        PlayerClock {
            main_ms,
            overtime,
            used_ms: 0,
        }
    }

    /// How long the player may think on his next turn before his flag falls:
    /// main time plus what overtime allows for one turn (all periods, the
    /// rest of the block, or the per-move time). Saturates at `u64::MAX`.
    pub fn budget_ms(&self) -> u64 {
        let overtime = match self.overtime {
            Overtime::None => 0,
            Overtime::PerMove { per_move_ms } => per_move_ms,
            Overtime::ByoYomi {
                periods_left,
                period_ms,
            } => period_ms.saturating_mul(u64::from(periods_left)),
            Overtime::Canadian { block_ms_left, .. } => block_ms_left,
        };
        self.main_ms.saturating_add(overtime)
    }

    /// What the clock shows after `used_ms` of the current turn.
    pub fn face(&self, used_ms: u64) -> PlayerFace {
        let main = self.main_ms;
        let in_main = used_ms <= main;
        let over = used_ms.saturating_sub(main);
        let main_ms = main.saturating_sub(used_ms);
        match self.overtime {
            Overtime::None => PlayerFace {
                main_ms,
                overtime_ms: None,
                count: None,
            },
            Overtime::PerMove { per_move_ms } => PlayerFace {
                main_ms,
                overtime_ms: Some(per_move_ms.saturating_sub(over)),
                count: None,
            },
            Overtime::ByoYomi {
                periods_left,
                period_ms,
            } => {
                let n = u64::from(periods_left);
                if in_main {
                    let full = if n > 0 { period_ms } else { 0 };
                    PlayerFace {
                        main_ms,
                        overtime_ms: Some(full),
                        count: Some(periods_left),
                    }
                } else {
                    // KGS help: "if the timer reaches 0 then that single period is
                    // used up and you enter the next".
                    let spent = over.checked_div(period_ms).unwrap_or(u64::MAX);
                    if spent >= n {
                        PlayerFace {
                            main_ms,
                            overtime_ms: Some(0),
                            count: Some(0),
                        }
                    } else {
                        let left = period_ms - over % period_ms;
                        let count = u32::try_from(n - spent).unwrap_or(u32::MAX);
                        PlayerFace {
                            main_ms,
                            overtime_ms: Some(left),
                            count: Some(count),
                        }
                    }
                }
            }
            Overtime::Canadian {
                moves_left,
                block_ms_left,
            } => PlayerFace {
                main_ms,
                overtime_ms: Some(block_ms_left.saturating_sub(over)),
                count: Some(moves_left),
            },
        }
    }

    /// Charges a turn of `used_ms`. `completed` says whether a move ended it
    /// (increment, stone counted, block reset) or the referee handed the turn
    /// over. The caller has checked that the turn was in time.
    fn charge(&mut self, control: &TimeControl, used_ms: u64, completed: bool) -> MovePhase {
        self.used_ms = self.used_ms.saturating_add(used_ms);
        let in_main = used_ms <= self.main_ms;
        let over = used_ms.saturating_sub(self.main_ms);
        self.main_ms = self.main_ms.saturating_sub(used_ms);
        match (control, &mut self.overtime) {
            (
                TimeControl::Fischer {
                    increment_ms,
                    max_ms,
                    ..
                },
                _,
            ) => {
                if completed {
                    // RIF (rif-renju-world-championship-rules.txt), "The Rules for World
                    // Championship": "30 seconds added after each move
                    // (starting from the 1st move)"; the cap is applied after
                    // the increment (OGS max_time).
                    self.main_ms = self.main_ms.saturating_add(*increment_ms);
                    if let Some(cap) = max_ms {
                        self.main_ms = self.main_ms.min(*cap);
                    }
                }
                MovePhase::Main {
                    left_ms: self.main_ms,
                }
            }
            (_, Overtime::None) => MovePhase::Main {
                left_ms: self.main_ms,
            },
            (_, Overtime::PerMove { per_move_ms }) => {
                if in_main {
                    MovePhase::Main {
                        left_ms: self.main_ms,
                    }
                } else {
                    MovePhase::Overtime {
                        left_ms: per_move_ms.saturating_sub(over),
                        count: None,
                    }
                }
            }
            (
                _,
                Overtime::ByoYomi {
                    periods_left,
                    period_ms,
                },
            ) => {
                if in_main {
                    // Using exactly all remaining main time consumes no period.
                    MovePhase::Main {
                        left_ms: self.main_ms,
                    }
                } else {
                    // A move running through k whole periods uses k of them; a
                    // move completed within a period does not use it up.
                    let spent = over.checked_div(*period_ms).unwrap_or(u64::MAX);
                    let spent = u32::try_from(spent).unwrap_or(u32::MAX);
                    *periods_left = periods_left.saturating_sub(spent);
                    let left_ms =
                        period_ms.saturating_sub(over.checked_rem(*period_ms).unwrap_or(0));
                    MovePhase::Overtime {
                        left_ms,
                        count: Some(*periods_left),
                    }
                }
            }
            (
                control,
                Overtime::Canadian {
                    moves_left,
                    block_ms_left,
                },
            ) => {
                if in_main {
                    // Using exactly all main time starts no block.
                    MovePhase::Main {
                        left_ms: self.main_ms,
                    }
                } else {
                    // The move during which main time runs out is the first
                    // stone of the first block, charged only its overtime part.
                    *block_ms_left = block_ms_left.saturating_sub(over);
                    let left_ms = *block_ms_left;
                    if completed {
                        *moves_left = moves_left.saturating_sub(1);
                    }
                    let count = Some(*moves_left);
                    if *moves_left == 0 {
                        // LGC 2023 (lgc-tournament-rules-2023.txt), "Canadian overtime": "When all
                        // the moves have been made, the clock is reset for the next overtime
                        // period"; leftover time is discarded.
                        if let TimeControl::Canadian {
                            stones, block_ms, ..
                        } = control
                        {
                            *moves_left = *stones;
                            *block_ms_left = *block_ms;
                        }
                    }
                    MovePhase::Overtime { left_ms, count }
                }
            }
        }
    }

    /// A turn that was not in time: everything is gone, and no increment is
    /// given for a move that overstepped.
    fn exhaust(&mut self, used_ms: u64) {
        self.used_ms = self.used_ms.saturating_add(used_ms);
        self.main_ms = 0;
        match &mut self.overtime {
            Overtime::None | Overtime::PerMove { .. } => {}
            Overtime::ByoYomi { periods_left, .. } => *periods_left = 0,
            Overtime::Canadian { block_ms_left, .. } => *block_ms_left = 0,
        }
    }
}

/// Where a move ended: for SGF export and move records.
enum MovePhase {
    Main { left_ms: u64 },
    Overtime { left_ms: u64, count: Option<u32> },
}

/// A player's flag fell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Flag {
    /// Whose flag.
    pub player: Player,
    /// The instant it fell.
    pub at_ms: u64,
}

/// What a completed move did to the mover's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MoveRecord {
    /// Who moved.
    pub player: Player,
    /// When the move was completed (the press).
    pub at_ms: u64,
    /// Thinking time of the move, pauses excluded.
    pub used_ms: u64,
    /// False when the press came at or after the flag instant.
    pub in_time: bool,
    /// True when the move ended in overtime (byo-yomi period, Canadian
    /// block, simple per-move time).
    pub in_overtime: bool,
    /// Time left in the phase the move ended in, as the clock showed at the
    /// press, before any period or block reset; for Fischer, main time after
    /// the increment.
    pub left_ms: u64,
    /// In overtime: periods left (byo-yomi) or stones left in the block
    /// before a reset (Canadian; 0 when the move completed the block).
    pub count: Option<u32>,
}

/// What applying an event did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The clock started.
    Started,
    /// A move was completed.
    Moved(MoveRecord),
    /// The clocks stopped.
    Paused,
    /// The clocks restarted.
    Resumed,
    /// A player's time was adjusted.
    Adjusted,
    /// A reading was compared with the projection.
    Reading(Discrepancy),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    NotStarted,
    Running { since_ms: u64 },
    Paused { since_ms: u64, reason: PauseReason },
}

/// Both clocks of a game, projected from recorded events.
///
/// ```
/// use kifu_clock::{Clock, ClockEvent, Player, TimeControl};
/// let tc: TimeControl = "byoyomi:1m+3x10s".parse().unwrap();
/// let clock = Clock::project(tc, &[
///     ClockEvent::Started { at_ms: 0, running: Player::Black },
///     ClockEvent::Pressed { at_ms: 85_000, player: Player::Black },
/// ]).unwrap();
/// // 25 s of overtime ran through two whole periods.
/// assert_eq!(clock.player(Player::Black).budget_ms(), 10_000);
/// // White's clock runs: 1 min of main time and three periods of 10 s.
/// assert_eq!(clock.flag_at(), Some(85_000 + 60_000 + 30_000));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    players: [PlayerClock; 2],
    to_move: Player,
    phase: Phase,
    /// Time the player to move used in this turn before the current running
    /// interval (or before the pause).
    turn_used_ms: u64,
    last_ms: Option<u64>,
    flags: [Option<u64>; 2],
}

impl Clock {
    /// A clock set for `control`, not started, Black to move.
    ///
    /// # Errors
    ///
    /// [`ClockError::InvalidTimeControl`] (see [`TimeControl::validate`]).
    pub fn new(control: TimeControl) -> Result<Clock, ClockError> {
        control.validate()?;
        let player = PlayerClock::initial(&control);
        Ok(Clock {
            control,
            players: [player; 2],
            to_move: Player::Black,
            phase: Phase::NotStarted,
            turn_used_ms: 0,
            last_ms: None,
            flags: [None; 2],
        })
    }

    /// Applies `events` in order to a new clock.
    ///
    /// # Errors
    ///
    /// The first event that cannot be applied.
    pub fn project<'a>(
        control: TimeControl,
        events: impl IntoIterator<Item = &'a ClockEvent>,
    ) -> Result<Clock, ClockError> {
        let mut clock = Clock::new(control)?;
        for event in events {
            clock.apply(event)?;
        }
        Ok(clock)
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// A player's clock as of the start of his current or next turn.
    pub fn player(&self, player: Player) -> &PlayerClock {
        &self.players[player.index()]
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// True once started and not paused.
    pub fn is_running(&self) -> bool {
        matches!(self.phase, Phase::Running { .. })
    }

    /// The reason of the current pause, if paused.
    pub fn pause_reason(&self) -> Option<&PauseReason> {
        match &self.phase {
            Phase::Paused { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// Time of the last applied event.
    pub fn last_event_ms(&self) -> Option<u64> {
        self.last_ms
    }

    /// The flags recorded so far (a flag is recorded by the first event at or
    /// after its instant). Both flags can be down in a game that continued.
    pub fn flags(&self) -> [Option<Flag>; 2] {
        [Player::Black, Player::White]
            .map(|player| self.flags[player.index()].map(|at_ms| Flag { player, at_ms }))
    }

    /// The instant the running player's flag falls if nobody presses, derived
    /// from the state (never stored): `None` when paused, not started or
    /// untimed.
    pub fn flag_at(&self) -> Option<u64> {
        match self.phase {
            Phase::Running { since_ms } if self.control.is_timed() => {
                let budget = self.players[self.to_move.index()].budget_ms();
                Some(since_ms.saturating_add(budget.saturating_sub(self.turn_used_ms)))
            }
            _ => None,
        }
    }

    /// The first flag to have fallen by instant `at_ms`, counting the running
    /// clock up to then: the loss on time, if any.
    ///
    /// LGC 2023 (lgc-tournament-rules-2023.txt), "Loss on time": without overtime a player loses
    /// "if the current move is not completed before the basic time expires"; with overtime "if not
    /// all of the given number of overtime stones are played in the prescribed overtime period".
    /// Either way: when the budget is used up.
    pub fn flag_fallen_by(&self, at_ms: u64) -> Option<Flag> {
        let running = self
            .flag_at()
            .filter(|&f| f <= at_ms && self.flags[self.to_move.index()].is_none())
            .map(|f| Flag {
                player: self.to_move,
                at_ms: f,
            });
        self.flags()
            .into_iter()
            .flatten()
            .chain(running)
            .min_by_key(|f| f.at_ms)
    }

    /// Time the player to move has used in the current turn by `at_ms`,
    /// pauses excluded (0 before the start).
    pub fn turn_used_at(&self, at_ms: u64) -> u64 {
        match self.phase {
            Phase::Running { since_ms } => self
                .turn_used_ms
                .saturating_add(at_ms.saturating_sub(since_ms)),
            _ => self.turn_used_ms,
        }
    }

    /// What both clocks show at `at_ms` (indexed by [`Player::index`]).
    ///
    /// # Errors
    ///
    /// [`ClockError::QueryInThePast`] if `at_ms` is before the last event.
    pub fn face_at(&self, at_ms: u64) -> Result<[PlayerFace; 2], ClockError> {
        if let Some(last_ms) = self.last_ms.filter(|&l| at_ms < l) {
            return Err(ClockError::QueryInThePast { at_ms, last_ms });
        }
        let used = self.turn_used_at(at_ms);
        Ok([Player::Black, Player::White].map(|p| {
            let mine = if p == self.to_move { used } else { 0 };
            self.players[p.index()].face(mine)
        }))
    }

    /// How a reading of the physical clock differs from what the projection
    /// says it should have shown at the reading's instant.
    ///
    /// # Errors
    ///
    /// [`ClockError::QueryInThePast`] if the reading is before the last event.
    pub fn discrepancy(&self, reading: &ClockReading) -> Result<Discrepancy, ClockError> {
        let [black, white] = self.face_at(reading.at_ms)?;
        Ok(Discrepancy {
            at_ms: reading.at_ms,
            black: SideDiscrepancy::between(black.shown(), reading.black),
            white: SideDiscrepancy::between(white.shown(), reading.white),
        })
    }

    /// Applies one event. On error the clock is unchanged.
    ///
    /// # Errors
    ///
    /// See [`ClockError`]: events out of time order, a press by the player not
    /// to move, pause while paused, resume while running, events before the
    /// start, a negative adjustment larger than the main time left.
    pub fn apply(&mut self, event: &ClockEvent) -> Result<Effect, ClockError> {
        let at_ms = event.at_ms();
        if let Some(last_ms) = self.last_ms.filter(|&l| at_ms < l) {
            return Err(ClockError::TimeWentBackwards { at_ms, last_ms });
        }
        self.check(event)?;
        self.record_flag(at_ms);
        let effect = match event {
            ClockEvent::Started { running, .. } => {
                self.to_move = *running;
                self.turn_used_ms = 0;
                self.phase = Phase::Running { since_ms: at_ms };
                Effect::Started
            }
            ClockEvent::Pressed { player, .. } => {
                let record = self.complete_move(*player, at_ms);
                Effect::Moved(record)
            }
            ClockEvent::Paused { reason, .. } => {
                self.turn_used_ms = self.turn_used_at(at_ms);
                // LGC 2023 (lgc-tournament-rules-2023.txt), "Management of time": both timepieces
                // are stopped simultaneously.
                self.phase = Phase::Paused {
                    since_ms: at_ms,
                    reason: reason.clone(),
                };
                Effect::Paused
            }
            ClockEvent::Resumed { running, .. } => {
                if let Some(next) = running.filter(|&p| p != self.to_move) {
                    let previous = self.to_move;
                    let used = self.turn_used_ms;
                    let control = self.control;
                    let clock = &mut self.players[previous.index()];
                    if control.is_timed() && used >= clock.budget_ms() {
                        clock.exhaust(used);
                    } else {
                        clock.charge(&control, used, false);
                    }
                    self.to_move = next;
                    self.turn_used_ms = 0;
                }
                self.phase = Phase::Running { since_ms: at_ms };
                Effect::Resumed
            }
            ClockEvent::Adjusted {
                player, delta_ms, ..
            } if self.control.is_timed() => {
                let clock = &mut self.players[player.index()];
                let amount = delta_ms.unsigned_abs();
                clock.main_ms = if *delta_ms >= 0 {
                    clock.main_ms.saturating_add(amount)
                } else {
                    clock.main_ms.saturating_sub(amount)
                };
                Effect::Adjusted
            }
            // Without a clock there is no time to adjust.
            ClockEvent::Adjusted { .. } => Effect::Adjusted,
            ClockEvent::ReadingRecorded(reading) => Effect::Reading(self.discrepancy(reading)?),
        };
        self.last_ms = Some(at_ms);
        Ok(effect)
    }

    /// Rejects an event that cannot be applied, before anything changes.
    fn check(&self, event: &ClockEvent) -> Result<(), ClockError> {
        let at_ms = event.at_ms();
        let not_started = |event| Err(ClockError::NotStarted { event, at_ms });
        match (event, &self.phase) {
            (ClockEvent::Started { .. }, Phase::NotStarted) => Ok(()),
            (ClockEvent::Started { .. }, _) => Err(ClockError::AlreadyStarted { at_ms }),
            (ClockEvent::Pressed { .. }, Phase::NotStarted) => not_started("press"),
            (ClockEvent::Pressed { player, .. }, _) if *player != self.to_move => {
                Err(ClockError::NotOnMove {
                    player: *player,
                    to_move: self.to_move,
                    at_ms,
                })
            }
            (ClockEvent::Paused { .. }, Phase::NotStarted) => not_started("pause"),
            (ClockEvent::Paused { .. }, Phase::Paused { .. }) => {
                Err(ClockError::AlreadyPaused { at_ms })
            }
            (ClockEvent::Resumed { .. }, Phase::NotStarted) => not_started("resume"),
            (ClockEvent::Resumed { .. }, Phase::Running { .. }) => {
                Err(ClockError::NotPaused { at_ms })
            }
            (
                ClockEvent::Adjusted {
                    player, delta_ms, ..
                },
                _,
            ) if *delta_ms < 0 => {
                let used = if *player == self.to_move {
                    self.turn_used_at(at_ms)
                } else {
                    0
                };
                let remaining_ms = self.players[player.index()].main_ms.saturating_sub(used);
                if delta_ms.unsigned_abs() > remaining_ms {
                    Err(ClockError::AdjustmentExceedsMainTime {
                        player: *player,
                        remaining_ms,
                        delta_ms: *delta_ms,
                    })
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    /// Records the running player's flag if it fell by `at_ms`.
    fn record_flag(&mut self, at_ms: u64) {
        if let Some(flag_ms) = self.flag_at().filter(|&f| f <= at_ms) {
            let slot = &mut self.flags[self.to_move.index()];
            if slot.is_none() {
                *slot = Some(flag_ms);
            }
        }
    }

    fn complete_move(&mut self, player: Player, at_ms: u64) -> MoveRecord {
        let used_ms = self.turn_used_at(at_ms);
        let control = self.control;
        let clock = &mut self.players[player.index()];
        // A press at or after the flag instant is too late (OGS: main_time <= 0
        // is timed out): `used = budget` already loses.
        let in_time = !control.is_timed() || used_ms < clock.budget_ms();
        let (in_overtime, left_ms, count) = if in_time {
            match clock.charge(&control, used_ms, true) {
                MovePhase::Main { left_ms } => (false, left_ms, None),
                MovePhase::Overtime { left_ms, count } => (true, left_ms, count),
            }
        } else {
            clock.exhaust(used_ms);
            (clock.overtime != Overtime::None, 0, None)
        };
        self.to_move = player.opponent();
        self.turn_used_ms = 0;
        // Pressed during a pause, the opponent's clock starts now.
        self.phase = Phase::Running { since_ms: at_ms };
        MoveRecord {
            player,
            at_ms,
            used_ms,
            in_time,
            in_overtime,
            left_ms,
            count,
        }
    }
}
