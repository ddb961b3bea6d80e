//! How a tournament document conducts its games: who keeps the time,
//! attendance, abnormal terminations, warnings, the result sheet and
//! appeals, with the clauses behind them.
//!
//! These choices belong to the tournament rules rather than to the rules of
//! play, so one [`Conduct`] value serves several rulesets (the LGC rules of
//! arbitration govern the LGC, London Open and BGA profiles). A game
//! projection reads these fields and never a profile's name.

use serde::{Deserialize, Serialize};

use crate::clause::{self, Clause, Topic};

/// Who measures the time, and how finely the clocks are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Timekeeping {
    /// The players' clock, from the presses recorded.
    Clock,
    /// A server measures each player's time; its count is the clock.
    Server {
        /// The server's unit, in milliseconds (UEC Cup: 0.1 s).
        resolution_ms: u64,
    },
}

/// What follows when a program terminates abnormally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum AbnormalTerminationRule {
    /// The document has no procedure: the referee decides.
    Referee,
    /// UEC Cup, "h) Abnormal termination of programs": below `lose_below_ms`
    /// of remaining time (both players together) the program that stopped
    /// loses; otherwise a new game is played; in a new game the threshold is
    /// `lose_below_in_new_game_ms`; a second termination of one program loses.
    RemainingTime {
        /// Threshold in the first game.
        lose_below_ms: u64,
        /// Threshold in a new game.
        lose_below_in_new_game_ms: u64,
    },
}

/// Who hears an appeal against the referee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Appeals {
    /// An appeals committee of `members` persons, formed before the first
    /// round with reserves; a majority decides.
    Committee {
        /// Members sitting on a case.
        members: u32,
    },
    /// The referee's decisions are final: no appeal is heard.
    RefereeFinal,
}

/// The tournament rules a game is conducted under, as values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Conduct {
    /// Who measures the time.
    pub timekeeping: Timekeeping,
    /// Late by this much or more after the clock was started forfeits.
    pub late_arrival_forfeit_ms: Option<u64>,
    /// What an abnormal termination of a program means.
    pub abnormal_termination: AbnormalTerminationRule,
    /// This many warnings in one game are a game forfeit.
    pub warnings_to_forfeit: Option<u32>,
    /// Whether the referee signs the result sheet when he decided the result.
    pub referee_signs_decided_result: bool,
    /// Who hears appeals.
    pub appeals: Appeals,
    /// Whether the referee may adjust the time after an illegal move is
    /// unwound.
    pub time_adjustment_after_unwind: bool,
    /// Programs that already terminated abnormally in this match, stated
    /// at genesis (`abnormal_terminations = "black,white"`): the game is a
    /// new game of the procedure.
    #[serde(default)]
    pub earlier_abnormal_terminations: Vec<crate::Color>,
    /// The document's words behind these choices and behind arbitration.
    pub clauses: Vec<Clause>,
}

impl Conduct {
    /// The LGC Tournament Rules (2023): players' clocks, 30 minutes late
    /// forfeits, two warnings forfeit, an appeals committee of three.
    pub fn lgc_2023() -> Conduct {
        Conduct {
            timekeeping: Timekeeping::Clock,
            // "Start": "If a player is late by 30 minutes or more, they
            // forfeit the game."
            late_arrival_forfeit_ms: Some(30 * 60_000),
            abnormal_termination: AbnormalTerminationRule::Referee,
            // "Warning": two warnings in the same game.
            warnings_to_forfeit: Some(2),
            referee_signs_decided_result: true,
            // "Appeals committee": "formed of three persons".
            appeals: Appeals::Committee { members: 3 },
            // "Illegal move": "The referee may allow an adjustment of the time."
            time_adjustment_after_unwind: true,
            earlier_abnormal_terminations: Vec::new(),
            clauses: clause::lgc_conduct(),
        }
    }

    /// The LGC rules of arbitration, sanctions and time as the London Open
    /// and BGA profiles apply them: as [`Conduct::lgc_2023`], but their own
    /// documents state no late-arrival forfeit.
    pub fn lgc_arbitration() -> Conduct {
        let mut c = Conduct::lgc_2023();
        c.late_arrival_forfeit_ms = None;
        c.clauses.retain(|c| c.topic != Topic::LateArrival);
        c
    }

    /// The UEC Cup: the server's clock in tenths, the abnormal-termination
    /// procedure, the referee (then the director) decides.
    pub fn uec_cup() -> Conduct {
        Conduct {
            // "3:Time limit": "The server will count time by 0.1 seconds."
            timekeeping: Timekeeping::Server { resolution_ms: 100 },
            late_arrival_forfeit_ms: None,
            abnormal_termination: AbnormalTerminationRule::RemainingTime {
                lose_below_ms: 40 * 60_000,
                lose_below_in_new_game_ms: 20 * 60_000,
            },
            warnings_to_forfeit: None,
            // "5:Result sheet".
            referee_signs_decided_result: true,
            // "k) Others": the referee, then the director.
            appeals: Appeals::RefereeFinal,
            time_adjustment_after_unwind: false,
            earlier_abnormal_terminations: Vec::new(),
            clauses: clause::uec_conduct(),
        }
    }

    /// The RIF example tournament rules (World Championship): players'
    /// clocks, the referee's decisions final.
    pub fn rif_world_championship() -> Conduct {
        Conduct {
            timekeeping: Timekeeping::Clock,
            late_arrival_forfeit_ms: None,
            abnormal_termination: AbnormalTerminationRule::Referee,
            warnings_to_forfeit: None,
            referee_signs_decided_result: true,
            // "All the referee's decisions are final."
            appeals: Appeals::RefereeFinal,
            time_adjustment_after_unwind: false,
            earlier_abnormal_terminations: Vec::new(),
            clauses: clause::rif_conduct(),
        }
    }

    /// No tournament document (the computer rulesets): players' clocks, the
    /// referee decides, no clauses.
    pub fn unstated() -> Conduct {
        Conduct {
            timekeeping: Timekeeping::Clock,
            late_arrival_forfeit_ms: None,
            abnormal_termination: AbnormalTerminationRule::Referee,
            warnings_to_forfeit: None,
            referee_signs_decided_result: true,
            appeals: Appeals::RefereeFinal,
            time_adjustment_after_unwind: false,
            earlier_abnormal_terminations: Vec::new(),
            clauses: Vec::new(),
        }
    }

    /// The first clause quoted for `topic`.
    pub fn clause(&self, topic: Topic) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.topic == topic)
    }

    /// The clock display's resolution in milliseconds (1000 for whole
    /// seconds).
    pub fn clock_resolution_ms(&self) -> u64 {
        match self.timekeeping {
            Timekeeping::Clock => 1000,
            Timekeeping::Server { resolution_ms } => resolution_ms.max(1),
        }
    }
}
