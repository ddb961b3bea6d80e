//! Scripted queries: one clock scenario in, the states after each event out.
//!
//! The shapes match one element of the `vectors` array of the shared clock
//! vectors (`fixtures/clocks/vectors.json`): a [`Scenario`] deserializes from
//! such an element (extra fields such as `id`, `note`, `expected` are ignored)
//! and a [`ScenarioOutput`] serializes exactly like its `expected` field.
//!
//! ```
//! use kifu_clock::{replay_scenario, Scenario};
//! let json = r#"{"system": "absolute", "params": {"main_ms": 10000}, "start_ms": 0,
//!                "events": [{"t": 4000, "type": "press", "player": "B"}], "end_ms": 20000}"#;
//! let scenario: Scenario = serde_json::from_str(json).unwrap();
//! let out = replay_scenario(&scenario).unwrap();
//! assert_eq!(serde_json::to_string(&out).unwrap(),
//!     r#"{"states_after_each_event":[{"after_event_t":4000,"to_move":"W","B":{"main_ms":6000},"W":{"main_ms":10000},"flag_at_ms":14000}],"result":{"loss_on_time":"W","at_ms":14000}}"#);
//! ```

use serde::{Deserialize, Serialize};

use crate::clock::{Clock, Overtime, PlayerClock};
use crate::error::ClockError;
use crate::event::{ClockEvent, PauseReason};
use crate::player::Player;
use crate::time_control::TimeControl;

/// The time system of a scenario, by the vectors' names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// Sudden death; params `main_ms`.
    Absolute,
    /// Fischer; params `main_ms`, `increment_ms`, optional `max_ms`.
    Fischer,
    /// Simple; params `per_move_ms`.
    Simple,
    /// Japanese byo-yomi; params `main_ms`, `periods`, `period_ms`.
    Byoyomi,
    /// Canadian; params `main_ms`, `stones`, `block_ms`.
    Canadian,
}

impl System {
    fn name(self) -> &'static str {
        match self {
            System::Absolute => "absolute",
            System::Fischer => "fischer",
            System::Simple => "simple",
            System::Byoyomi => "byoyomi",
            System::Canadian => "canadian",
        }
    }
}

/// The parameters of a scenario's system; which ones are needed depends on
/// the [`System`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Main time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub main_ms: Option<u64>,
    /// Fischer increment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    /// Fischer cap; absent or `null` for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ms: Option<u64>,
    /// Simple time per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move_ms: Option<u64>,
    /// Byo-yomi periods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<u32>,
    /// Byo-yomi period length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_ms: Option<u64>,
    /// Canadian stones per block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stones: Option<u32>,
    /// Canadian block length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_ms: Option<u64>,
}

/// What happens at `t` in a scenario. The JSON carries `"type"`:
/// `press`, `pause`, `resume` or `adjust`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ScenarioEvent {
    /// The player to move presses the clock: `{"t", "type": "press", "player"}`.
    Press {
        /// When.
        t: u64,
        /// Who.
        player: Player,
    },
    /// Both clocks stop: `{"t", "type": "pause", "reason"?}`; the reason is
    /// informational (a [`PauseReason`] code or any text).
    Pause {
        /// When.
        t: u64,
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<PauseReason>,
    },
    /// The clocks restart: `{"t", "type": "resume", "player"?}`; `player`, if
    /// given, is whose clock runs (see [`ClockEvent::Resumed`]).
    Resume {
        /// When.
        t: u64,
        /// Whose clock runs; absent for the player to move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Player>,
    },
    /// The referee adjusts a player's main time:
    /// `{"t", "type": "adjust", "player", "delta_ms", "reason"?}`.
    Adjust {
        /// When.
        t: u64,
        /// Whose time.
        player: Player,
        /// Signed change.
        delta_ms: i64,
        /// Why.
        #[serde(default)]
        reason: String,
    },
}

impl ScenarioEvent {
    /// When the event happens.
    pub fn t(&self) -> u64 {
        match self {
            ScenarioEvent::Press { t, .. }
            | ScenarioEvent::Pause { t, .. }
            | ScenarioEvent::Resume { t, .. }
            | ScenarioEvent::Adjust { t, .. } => *t,
        }
    }

    /// The clock event it stands for.
    pub fn to_clock_event(&self) -> ClockEvent {
        match self {
            ScenarioEvent::Press { t, player } => ClockEvent::Pressed {
                at_ms: *t,
                player: *player,
            },
            ScenarioEvent::Pause { t, reason } => ClockEvent::Paused {
                at_ms: *t,
                reason: reason
                    .clone()
                    .unwrap_or_else(|| PauseReason::Other(String::new())),
            },
            ScenarioEvent::Resume { t, player } => ClockEvent::Resumed {
                at_ms: *t,
                running: *player,
            },
            ScenarioEvent::Adjust {
                t,
                player,
                delta_ms,
                reason,
            } => ClockEvent::Adjusted {
                at_ms: *t,
                player: *player,
                delta_ms: *delta_ms,
                reason: reason.clone(),
            },
        }
    }
}

/// One clock scenario: Black's clock starts at `start_ms`, the events follow,
/// and the clock is looked at once more at `end_ms` (if given) with no
/// further press.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// An identifier, if any (not used in the replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The time system.
    pub system: System,
    /// Its parameters.
    pub params: Params,
    /// When Black's clock starts.
    pub start_ms: u64,
    /// The events, in time order.
    pub events: Vec<ScenarioEvent>,
    /// The final observation time, or `null`.
    #[serde(default)]
    pub end_ms: Option<u64>,
}

impl Scenario {
    /// The time control the scenario describes.
    ///
    /// # Errors
    ///
    /// [`ClockError::MissingParameter`] naming the first missing parameter.
    pub fn time_control(&self) -> Result<TimeControl, ClockError> {
        let system = self.system.name();
        let p = &self.params;
        let need =
            |value: Option<u64>, param| value.ok_or(ClockError::MissingParameter { system, param });
        let need_count =
            |value: Option<u32>, param| value.ok_or(ClockError::MissingParameter { system, param });
        Ok(match self.system {
            System::Absolute => TimeControl::SuddenDeath {
                main_ms: need(p.main_ms, "main_ms")?,
            },
            System::Fischer => TimeControl::Fischer {
                main_ms: need(p.main_ms, "main_ms")?,
                increment_ms: need(p.increment_ms, "increment_ms")?,
                max_ms: p.max_ms,
            },
            System::Simple => TimeControl::Simple {
                per_move_ms: need(p.per_move_ms, "per_move_ms")?,
            },
            System::Byoyomi => TimeControl::Byoyomi {
                main_ms: need(p.main_ms, "main_ms")?,
                periods: need_count(p.periods, "periods")?,
                period_ms: need(p.period_ms, "period_ms")?,
            },
            System::Canadian => TimeControl::Canadian {
                main_ms: need(p.main_ms, "main_ms")?,
                stones: need_count(p.stones, "stones")?,
                block_ms: need(p.block_ms, "block_ms")?,
            },
        })
    }
}

/// One player's clock in a scenario state: only the fields its system uses
/// are present.
///
/// | System | Fields |
/// |---|---|
/// | absolute, fischer | `main_ms` |
/// | simple | `period_ms` (the per-move time; plus `main_ms` only if the referee added time) |
/// | byoyomi | `main_ms`, `periods_left`, `period_ms_left` |
/// | canadian | `main_ms`, `moves_left`, `block_ms_left` |
///
/// The values are those at the start of the player's next turn: a pause does
/// not show the time used so far in the interrupted turn, and
/// `period_ms_left` is always the full period because the period clock resets
/// after every move.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
pub struct PlayerState {
    /// Main time left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Each field is absent, never null, when the system has none (the
    // schema says so: not required, never null).
    #[schemars(with = "u64")]
    pub main_ms: Option<u64>,
    /// Byo-yomi periods left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32")]
    pub periods_left: Option<u32>,
    /// Byo-yomi time left in the (fresh) period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub period_ms_left: Option<u64>,
    /// Canadian stones left in the block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32")]
    pub moves_left: Option<u32>,
    /// Canadian time left in the block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub block_ms_left: Option<u64>,
    /// Simple time per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub period_ms: Option<u64>,
}

impl PlayerState {
    /// The scenario view of a player's clock.
    pub fn of(clock: &PlayerClock) -> PlayerState {
        let main_ms = Some(clock.main_ms);
        match clock.overtime {
            Overtime::None => PlayerState {
                main_ms,
                ..PlayerState::default()
            },
            Overtime::PerMove { per_move_ms } => PlayerState {
                main_ms: main_ms.filter(|&m| m > 0),
                period_ms: Some(per_move_ms),
                ..PlayerState::default()
            },
            Overtime::ByoYomi {
                periods_left,
                period_ms,
            } => PlayerState {
                main_ms,
                periods_left: Some(periods_left),
                period_ms_left: Some(period_ms),
                ..PlayerState::default()
            },
            Overtime::Canadian {
                moves_left,
                block_ms_left,
            } => PlayerState {
                main_ms,
                moves_left: Some(moves_left),
                block_ms_left: Some(block_ms_left),
                ..PlayerState::default()
            },
        }
    }
}

/// The state of both clocks after one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StateAfterEvent {
    /// The event's `t`: its time, in milliseconds from the scenario's start.
    pub after_event_t: u64,
    /// Whose turn it is.
    pub to_move: Player,
    /// Black's clock.
    #[serde(rename = "B")]
    pub black: PlayerState,
    /// White's clock.
    #[serde(rename = "W")]
    pub white: PlayerState,
    /// When the running player's flag falls if nobody presses; `null` while
    /// paused.
    pub flag_at_ms: Option<u64>,
}

/// A loss on time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TimeLoss {
    /// Who lost.
    pub loss_on_time: Player,
    /// The flag instant (not the time of the late press or observation).
    pub at_ms: u64,
}

/// The replay of a scenario (`kifu clock replay --json`), shaped like a
/// vector's `expected` field: each player's clock (`B`, `W`) after each
/// event, and the time loss, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ScenarioOutput {
    /// One state per event applied. The replay stops at the first flag: an
    /// event at or after the flag instant (a press too late, or anything
    /// else) produces no state, and later events are not applied.
    pub states_after_each_event: Vec<StateAfterEvent>,
    /// The first flag that fell by the last event or by `end_ms`, or `null`.
    pub result: Option<TimeLoss>,
}

/// `kifu clock replay --json` over a set of vectors: each scenario
/// replayed and held against its `expected` answer (fields in alphabetical
/// order, as the command line has always printed them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VectorCheck {
    /// Vectors in the set.
    pub checked: u64,
    /// Vectors whose replay differs from their `expected` answer, or that
    /// could not be replayed.
    pub differing: u64,
    /// Each vector's verdict, in the set's order.
    pub vectors: Vec<VectorVerdict>,
}

/// One vector of a [`VectorCheck`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VectorVerdict {
    /// The replay, when the scenario could be replayed.
    pub got: Option<ScenarioOutput>,
    /// The vector's `id` (`#N` for the Nth when it has none).
    pub id: String,
    /// The replay is the `expected` answer (or there is none to compare).
    pub ok: bool,
    /// The first difference, or why the vector could not be replayed.
    pub problem: Option<String>,
}

/// Replays a scenario.
///
/// # Errors
///
/// A missing parameter, an invalid time control, or an event the clock
/// rejects (for example a press by the player not to move).
pub fn replay_scenario(scenario: &Scenario) -> Result<ScenarioOutput, ClockError> {
    let mut clock = Clock::new(scenario.time_control()?)?;
    clock.apply(&ClockEvent::Started {
        at_ms: scenario.start_ms,
        running: Player::Black,
    })?;
    let mut states = Vec::with_capacity(scenario.events.len());
    let loss = |flag: crate::clock::Flag| TimeLoss {
        loss_on_time: flag.player,
        at_ms: flag.at_ms,
    };
    for event in &scenario.events {
        if let Some(flag) = clock.flag_fallen_by(event.t()) {
            return Ok(ScenarioOutput {
                states_after_each_event: states,
                result: Some(loss(flag)),
            });
        }
        clock.apply(&event.to_clock_event())?;
        states.push(StateAfterEvent {
            after_event_t: event.t(),
            to_move: clock.to_move(),
            black: PlayerState::of(clock.player(Player::Black)),
            white: PlayerState::of(clock.player(Player::White)),
            flag_at_ms: clock.flag_at(),
        });
    }
    let last = scenario
        .events
        .last()
        .map_or(scenario.start_ms, ScenarioEvent::t);
    let observed = scenario.end_ms.unwrap_or(last).max(last);
    let result = clock.flag_fallen_by(observed).map(loss);
    Ok(ScenarioOutput {
        states_after_each_event: states,
        result,
    })
}
