//! The clocks inside the game projection: ledger facts fed to `kifu-clock`.

use kifu_clock::{ClockEvent, ClockReading, ReadingSource, ShownTime};
use kifu_ledger::Color;
use serde::Serialize;

use crate::state::{colour_of, idx, name, GameState};
use kifu_go::Topic;

/// One player's clock as it is shown: time left, and overtime stones or
/// periods left once in overtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ClockFace {
    /// Time left, in milliseconds (the whole budget: main time plus what the
    /// overtime allows; under server timekeeping, the limit less the
    /// server's count).
    pub time_left_ms: u64,
    /// Byo-yomi periods or Canadian stones left, once main time is spent.
    pub overtime_left: Option<u32>,
    /// Main time left, as the clock shows it.
    pub main_ms: u64,
    /// Time left in the byo-yomi period under way, the Canadian block or the
    /// move (simple time); `None` for systems without overtime.
    pub overtime_ms: Option<u64>,
    /// Byo-yomi periods left (the one under way counted) or stones left in
    /// the Canadian block, in main time as in overtime; `None` otherwise.
    pub count: Option<u32>,
}

impl ClockFace {
    /// The clock projection's face (`kifu_clock::PlayerFace`).
    pub fn shown(&self) -> kifu_clock::PlayerFace {
        kifu_clock::PlayerFace {
            main_ms: self.main_ms,
            overtime_ms: self.overtime_ms,
            count: self.count,
        }
    }
}

/// Both clocks as they stand after one move, pauses while the referee was
/// called, rulings' adjustments and time sanctions included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MoveClocks {
    /// The move (a stone or a pass).
    pub move_seq: u64,
    /// The clock press that completed it.
    pub at_seq: u64,
    /// Black's clock.
    pub black: ClockFace,
    /// White's clock.
    pub white: ClockFace,
}

impl GameState {
    /// Both clocks as they are shown at the last event applied: the player
    /// to move less the time used in the current turn (counted up to the
    /// event's instant while the clock runs, up to the pause while it is
    /// paused: LGC 2023, `docs/rules/lgc-tournament-rules-2023.txt`,
    /// "Management of time", both timepieces are stopped), the other at the
    /// start of his next turn; `None` without a clock.
    pub fn clock_faces(&self) -> Option<[ClockFace; 2]> {
        let c = self.clock.clock.as_ref()?;
        let at = self.at_ms.unwrap_or(0);
        let server = (self.clock.server_used_ms != [0, 0])
            .then_some(self.clock.remaining_ms)
            .flatten();
        Some(
            [kifu_clock::Player::Black, kifu_clock::Player::White].map(|p| {
                let pc = c.player(p);
                let used = if c.to_move() == p {
                    c.turn_used_at(at)
                } else {
                    0
                };
                let mut shown = pc.face(used);
                let mut left = pc.budget_ms().saturating_sub(used);
                // Under server timekeeping the server's count is the clock.
                if let Some(r) = server {
                    left = r[p.index()];
                    shown = kifu_clock::PlayerFace {
                        main_ms: left,
                        overtime_ms: None,
                        count: None,
                    };
                }
                ClockFace {
                    time_left_ms: left,
                    overtime_left: if shown.main_ms == 0 {
                        shown.count
                    } else {
                        None
                    },
                    main_ms: shown.main_ms,
                    overtime_ms: shown.overtime_ms,
                    count: shown.count,
                }
            }),
        )
    }

    /// After a clock press: both clocks as they stand, kept for the move
    /// the press completed.
    pub(crate) fn record_move_clocks(&mut self, at_seq: u64) {
        let Some(move_seq) = self.last_move_seq else {
            return;
        };
        let Some([black, white]) = self.clock_faces() else {
            return;
        };
        let rec = MoveClocks {
            move_seq,
            at_seq,
            black,
            white,
        };
        match self.move_clocks.last_mut() {
            Some(last) if last.move_seq == move_seq => *last = rec,
            _ => self.move_clocks.push(rec),
        }
    }

    /// The clocks after the move at `move_seq`, if its press was recorded.
    pub fn clocks_after(&self, move_seq: u64) -> Option<&MoveClocks> {
        self.move_clocks
            .iter()
            .rev()
            .find(|m| m.move_seq == move_seq)
    }

    /// Feeds one clock fact; a fact the clock cannot take is flagged.
    pub(crate) fn clock_event(&mut self, e: ClockEvent) {
        let Some(clock) = self.clock.clock.as_mut() else {
            return;
        };
        if let Err(err) = clock.apply(&e) {
            self.note_on(
                format!(
                    "clock fact not applicable: {}; the clocks are unchanged",
                    crate::words::clock_error(&err)
                ),
                Topic::ClockPause,
            );
        }
    }

    /// The clocks restarted with `running`'s clock running. Where they
    /// already run (a judgement's "play resumes" restarted them), the fact
    /// confirms it, or hands the turn to the other player as a resumption
    /// naming him does: the time of the interrupted turn is charged to the
    /// player whose clock ran.
    pub(crate) fn clock_resumed(&mut self, at_ms: u64, running: Color) {
        let now = self
            .clock
            .clock
            .as_ref()
            .filter(|c| self.clock.started_at_ms.is_some() && c.is_running())
            .map(|c| colour_of(c.to_move()));
        match now {
            Some(c) if c == running => self.note_on(
                format!(
                    "the clocks already run, {}'s running: nothing to restart",
                    name(c)
                ),
                Topic::ClockPause,
            ),
            Some(_) => {
                self.clock_event(ClockEvent::Paused {
                    at_ms,
                    reason: kifu_clock::PauseReason::Arbitration,
                });
                self.clock_event(ClockEvent::Resumed {
                    at_ms,
                    running: Some(crate::state::player(running)),
                });
            }
            None => self.clock_event(ClockEvent::Resumed {
                at_ms,
                running: Some(crate::state::player(running)),
            }),
        }
    }

    pub(crate) fn clock_reading(
        &mut self,
        at_ms: u64,
        black: (u64, Option<u32>),
        white: (u64, Option<u32>),
        read_by: &str,
    ) {
        let reading = ClockReading {
            at_ms,
            black: ShownTime {
                time_ms: black.0,
                count: black.1,
            },
            white: ShownTime {
                time_ms: white.0,
                count: white.1,
            },
            read_by: ReadingSource::Other(read_by.to_string()),
        };
        let Some(clock) = self.clock.clock.as_ref() else {
            return;
        };
        // A timing error is a mistake in the elapsed time "once the game has
        // started" (LGC 2023, `docs/rules/lgc-tournament-rules-2023.txt`,
        // "Timing error"): a reading of a clock the record never started (an
        // SGF record's BL/WL, which carry no instants) is kept as evidence
        // and compared with nothing.
        if self.clock.started_at_ms.is_none() {
            let _ = self
                .clock
                .clock
                .as_mut()
                .map(|c| c.apply(&ClockEvent::ReadingRecorded(reading)));
            return;
        }
        match clock.discrepancy(&reading) {
            Ok(d) if d.black.time_ms != 0 || d.white.time_ms != 0 => self.note_on(
                format!(
                    "the clock showed {} for Black and {} for White than the facts give; only the referee may correct it",
                    crate::words::more_or_less(d.black.time_ms),
                    crate::words::more_or_less(d.white.time_ms)
                ),
                Topic::TimingError,
            ),
            Ok(_) => {}
            Err(e) => self.note_on(
                format!(
                    "the reading cannot be compared: {}",
                    crate::words::clock_error(&e)
                ),
                Topic::TimingError,
            ),
        }
        // The reading is evidence; the projection keeps the derived times.
        let _ = self
            .clock
            .clock
            .as_mut()
            .map(|c| c.apply(&ClockEvent::ReadingRecorded(reading)));
    }

    /// Time used as the server measured it (UEC Cup: the server's count is
    /// the clock).
    pub(crate) fn server_time(&mut self, p: Color, used_ms: u64) {
        let i = idx(p);
        self.clock.server_used_ms[i] = self.clock.server_used_ms[i].saturating_add(used_ms);
        let limit = self.clock.time_control.map(|t| t.main_ms()).unwrap_or(0);
        if limit > 0 && self.clock.server_used_ms[i] >= limit && !self.is_over() {
            let rule = self.cite(Topic::LossOnTime);
            self.note_on(
                format!(
                    "the server measured {} used by {}, the limit being {}",
                    crate::words::duration(self.clock.server_used_ms[i]),
                    name(p),
                    crate::words::duration(limit)
                ),
                Topic::TimeLimit,
            );
            self.end_by_play(
                kifu_ledger::GameResult {
                    outcome: kifu_ledger::Outcome::Win(p.opponent()),
                    by: kifu_ledger::ResultBy::Time,
                },
                rule,
            );
        }
    }

    pub(crate) fn refresh_clock_view(&mut self) {
        let Some(c) = &self.clock.clock else {
            return;
        };
        let started = self.clock.started_at_ms.is_some();
        self.clock.black = Some(*c.player(kifu_clock::Player::Black));
        self.clock.white = Some(*c.player(kifu_clock::Player::White));
        self.clock.running = (started && c.is_running()).then(|| colour_of(c.to_move()));
        self.clock.paused = c.pause_reason().map(|r| r.code().to_string());
        self.clock.flag_at_ms = c.flag_at();
        // After the result the clocks are stopped, not paused: no reason
        // for a pause stands, none runs and no flag can fall.
        if self.is_over() {
            self.clock.running = None;
            self.clock.paused = None;
            self.clock.flag_at_ms = None;
        }
        self.clock.flags = c.flags().into_iter().flatten().map(Into::into).collect();
        self.clock.resolution_ms = self.conduct.clock_resolution_ms();
        let at = self.at_ms.unwrap_or(0);
        self.clock.remaining_ms = self.remaining_ms(at);
    }

    /// Remaining time of both players at `at_ms` (main time plus what
    /// overtime allows), from the clock projection.
    pub(crate) fn remaining_ms(&self, at_ms: u64) -> Option<[u64; 2]> {
        let c = self.clock.clock.as_ref()?;
        let mut out = [0u64; 2];
        for p in [kifu_clock::Player::Black, kifu_clock::Player::White] {
            let budget = c.player(p).budget_ms();
            let used = if c.to_move() == p {
                c.turn_used_at(at_ms)
            } else {
                0
            };
            out[p.index()] = budget.saturating_sub(used);
        }
        // With a server count, the limit minus what the server measured
        // (before the server reports any, the clock projection).
        if self.clock.server_used_ms != [0, 0] {
            let limit = self.clock.time_control.map(|t| t.main_ms()).unwrap_or(0);
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = limit.saturating_sub(self.clock.server_used_ms[i]);
            }
        }
        Some(out)
    }
}
