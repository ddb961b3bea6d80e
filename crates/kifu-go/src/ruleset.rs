//! Ruleset profiles: one small value per rule document.
//!
//! A [`Ruleset`] lists every choice the engine makes (ko rule, suicide,
//! scoring, pass stones, the ending procedure, the illegal-move remedy,
//! repetition, the move limit, komi and jigo, handicap). The engine reads
//! these fields and nothing else, so a new profile is a new value, not a
//! change to the engine. `docs/RULESETS.md` quotes the clause behind each
//! field of each profile.

use serde::{Deserialize, Serialize};

use crate::clause::{self, Clause, Topic};
use crate::conduct::Conduct;
use crate::Error;

/// Komi in half-points, so that 7.5 is held exactly (`Komi(15)`).
///
/// ```
/// use kifu_go::Komi;
/// assert_eq!(Komi::from_points(7.5), Some(Komi(15)));
/// assert_eq!(Komi(15).to_string(), "7.5");
/// assert_eq!(Komi(-6).to_string(), "-3");
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
pub struct Komi(pub i32);

impl Komi {
    /// Komi from points; `None` unless finite and a multiple of one half
    /// (after rounding to the nearest half-point, within 1e-6).
    pub fn from_points(points: f64) -> Option<Komi> {
        if !points.is_finite() || points.abs() > 1.0e6 {
            return None;
        }
        let half = (points * 2.0).round();
        if (half - points * 2.0).abs() > 1.0e-6 {
            return None;
        }
        Some(Komi(half as i32))
    }

    /// Komi in half-points.
    pub fn half_points(self) -> i32 {
        self.0
    }
}

impl std::fmt::Display for Komi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fmt_half_points(self.0, f)
    }
}

pub(crate) fn fmt_half_points(h: i32, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    if a.is_multiple_of(2) {
        write!(f, "{}{}", sign, a / 2)
    } else {
        write!(f, "{}{}.5", sign, a / 2)
    }
}

/// Which repetitions of a position a board play may not create.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum KoRule {
    /// Basic ko only: a single stone that has just captured a single stone may
    /// not be captured back at once.
    Simple,
    /// A board play may not recreate any earlier board position.
    PositionalSuperko,
    /// A move may not recreate an earlier board position with the same player
    /// to move (positions after passes included, as GNU Go does).
    SituationalSuperko,
    /// A board play may not recreate a board position that arose with the
    /// same player to move after a *play*; positions that arose only through
    /// passes do not count. The game's starting position counts, with the first
    /// player to move.
    NaturalSituationalSuperko,
}

/// Whether a play that leaves its own string without liberties is legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum SuicideRule {
    /// Every self-capture is illegal.
    Forbidden,
    /// Self-capture of two or more stones is legal, of one stone illegal.
    MultiStoneOnly,
    /// Every self-capture is legal.
    Allowed,
}

/// How the result is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Empty points surrounded by one colour, prisoners placed in the
    /// opponent's territory; a surplus of prisoners is negative territory.
    Territory,
    /// Stones on the board plus empty points surrounded by one colour.
    Area,
}

/// When play pauses (or stops) for lack of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum PauseRule {
    /// Two consecutive passes, whoever passed last.
    TwoConsecutivePasses,
    /// The minimum number of consecutive passes (two or more) in which White
    /// passes last: after Black's second pass White must pass once more.
    ConsecutivePassesWhiteLast,
}

/// Whether and when White must hand over an extra pass stone so that White
/// passes last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum WhitePassesLast {
    /// Never required.
    Never,
    /// Built into the pause rule (play only pauses after a White pass).
    BeforePause,
    /// After agreement (or after the game stops on passes at the start of a
    /// resumption), White passes once more if Black passed last.
    AfterAgreement,
}

/// What happens after play pauses and the players dispute a group's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Resumption {
    /// Play resumes with Black moving first.
    BlackFirst,
    /// Play resumes with the opponent of the last player to pass.
    OpponentOfLastPasser,
    /// No resumption: the status is settled by agreement or by the referee.
    NotAllowed,
    /// No status phase at all: the game ends and the board is counted as it
    /// stands, every stone alive.
    ScoreAsItStands,
}

/// What the ruleset prescribes when an illegal move is noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum IllegalMoveRemedy {
    /// Unwind to just before the illegal move if noticed within three moves;
    /// otherwise the game continues as it is.
    UnwindWithinThreeMoves,
    /// Noticed at once: unwind and the offender passes (pass stone). Noticed
    /// later: rewind only by mutual agreement; otherwise continue, self-capture
    /// stones removed and handed to the opponent.
    UnwindAndPassOrRewindByAgreement,
    /// The player who made the first illegal move loses.
    FirstIllegalMoveLoses,
    /// The ruleset only says the move is illegal (computer rulesets): the
    /// record keeps it and flags it.
    Unspecified,
}

/// What [`IllegalMoveRemedy::remedy`] tells a game projection to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum IllegalMoveAction {
    /// Unwind to the position just before the illegal move.
    Unwind,
    /// Unwind, then the offender passes and hands over a pass stone.
    UnwindAndPass,
    /// Unwind only if both players agree; otherwise continue.
    RewindByAgreement,
    /// Continue from the position as it is.
    Continue,
    /// The offender loses the game.
    Loss,
}

impl IllegalMoveRemedy {
    /// The remedy when the illegal move is noticed after `moves_after` further
    /// moves (0 = noticed at once, before the next move).
    pub fn remedy(self, moves_after: u32) -> IllegalMoveAction {
        match self {
            // LGC 2023, "Illegal move": "if this is noticed within three moves,
            // then the game must be unwound ... If the illegal move is noticed
            // after three moves, the game just continues as it is."
            IllegalMoveRemedy::UnwindWithinThreeMoves => {
                if moves_after <= 3 {
                    IllegalMoveAction::Unwind
                } else {
                    IllegalMoveAction::Continue
                }
            }
            // BGA, "Illegal Moves": noticed immediately -> unwind and pass;
            // later -> rewind by mutual agreement.
            IllegalMoveRemedy::UnwindAndPassOrRewindByAgreement => {
                if moves_after == 0 {
                    IllegalMoveAction::UnwindAndPass
                } else {
                    IllegalMoveAction::RewindByAgreement
                }
            }
            // UEC Cup, "f) When illegal moves are played".
            IllegalMoveRemedy::FirstIllegalMoveLoses => IllegalMoveAction::Loss,
            IllegalMoveRemedy::Unspecified => IllegalMoveAction::Continue,
        }
    }
}

/// What a repeated whole-board position means, beyond the ko rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum RepetitionRule {
    /// Nothing beyond the ko rule (a superko rule already forbids repeats).
    ByKoRule,
    /// The game stops and is a draw (UEC Cup, "g) Repetition of a position").
    Draw,
    /// The game stops with no result (Japanese 1989 rules).
    NoResult,
}

/// Who wins when the count is equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Jigo {
    /// An equal count is a draw.
    Draw,
    /// White wins an equal count.
    WhiteWins,
}

/// Where handicap stones go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum HandicapPlacement {
    /// On the standard star points ([`crate::fixed_handicap_points`]).
    Fixed,
    /// Anywhere, Black choosing.
    Free,
    /// Either, as the tournament announces.
    FixedOrFree,
    /// No handicap games under this profile.
    NotUsed,
}

/// Extra points for White per handicap stone under area counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum HandicapCompensation {
    /// None.
    None,
    /// One point per handicap stone (Chinese rules).
    PerStone,
    /// One point per handicap stone after the first (AGA area counting).
    PerStoneAfterFirst,
}

/// What follows a game started with the wrong colours or handicap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum ColourOrHandicapErrorRule {
    /// Restart if noticed before the third move is completed; otherwise
    /// continue with the colours and handicap actually used.
    RestartBeforeThirdMove,
    /// Handicap stones placed wrongly are set right if noticed before White's
    /// first move; otherwise play carries on.
    CorrectBeforeWhitesFirstMove,
    /// Not covered: referred to the referee.
    Referee,
}

/// What [`ColourOrHandicapErrorRule::remedy`] says to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum ColourOrHandicapErrorAction {
    /// The game is restarted.
    Restart,
    /// The stones are corrected and play goes on.
    Correct,
    /// The game continues with the colours (handicap) actually used.
    ContinueWithColoursUsed,
    /// The referee decides.
    Referee,
}

impl ColourOrHandicapErrorRule {
    /// The remedy when the error is noticed after `moves_completed` moves
    /// (handicap stones are not moves).
    pub fn remedy(self, moves_completed: u32) -> ColourOrHandicapErrorAction {
        match self {
            // LGC 2023, "Colour or handicap error": "noticed before the third
            // move is completed, then the game must be restarted".
            ColourOrHandicapErrorRule::RestartBeforeThirdMove => {
                if moves_completed < 3 {
                    ColourOrHandicapErrorAction::Restart
                } else {
                    ColourOrHandicapErrorAction::ContinueWithColoursUsed
                }
            }
            // BGA, "Irregular Moves" iii: "If this is noticed immediately
            // before White's first move then set the stones correctly.
            // Otherwise just carry on."
            ColourOrHandicapErrorRule::CorrectBeforeWhitesFirstMove => {
                if moves_completed == 0 {
                    ColourOrHandicapErrorAction::Correct
                } else {
                    ColourOrHandicapErrorAction::ContinueWithColoursUsed
                }
            }
            ColourOrHandicapErrorRule::Referee => ColourOrHandicapErrorAction::Referee,
        }
    }
}

/// Whether a stone on an occupied point is an irregularity or an illegal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum OccupiedPointRule {
    /// An irregularity: the stone is taken off (BGA, "Irregular Moves" IV).
    Irregularity,
    /// An illegal move, remedied as the profile remedies illegal moves
    /// (Japanese rules, which the UEC Cup plays by).
    IllegalMove,
}

/// What counts as the illegal move in a failure of alternation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum AlternationFailure {
    /// The move played out of turn.
    SingleMove,
    /// The whole sequence of moves played consecutively by the offender
    /// (BGA, "Illegal Moves").
    WholeSequence,
}

/// A ruleset profile: every choice the engine makes, as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Ruleset {
    /// Short name (`lgc-2023`, `london-open`, ...).
    pub name: String,
    /// Which repetitions a play may not create.
    pub ko: KoRule,
    /// Whether self-capture is legal.
    pub suicide: SuicideRule,
    /// Territory or area counting.
    pub scoring: Scoring,
    /// Whether a pass hands a stone to the opponent as a prisoner.
    pub pass_stones: bool,
    /// When play pauses on passes.
    pub pause: PauseRule,
    /// Whether White must pass last.
    pub white_passes_last: WhitePassesLast,
    /// How play resumes after a dispute about status.
    pub resumption: Resumption,
    /// Whether two passes at the start of a resumption stop the game with all
    /// stones left on the board.
    pub passes_at_resumption_start_stop_game: bool,
    /// What follows an illegal move.
    pub illegal_move: IllegalMoveRemedy,
    /// What a repeated position means beyond the ko rule.
    pub repetition: RepetitionRule,
    /// The game ends after this many moves, passes counted.
    pub move_limit: Option<u32>,
    /// Komi in an even game.
    pub komi_even: Komi,
    /// Komi in a handicap game.
    pub komi_handicap: Komi,
    /// Equal count in an even game.
    pub jigo_even: Jigo,
    /// Equal count in a handicap game.
    pub jigo_handicap: Jigo,
    /// Where handicap stones go.
    pub handicap_placement: HandicapPlacement,
    /// Points for White per handicap stone under area counting.
    pub handicap_compensation: HandicapCompensation,
    /// What follows a colour or handicap error.
    pub colour_or_handicap_error: ColourOrHandicapErrorRule,
    /// Whether a stone on an occupied point is an illegal move.
    pub occupied_point: OccupiedPointRule,
    /// What the illegal move is in a failure of alternation.
    pub alternation_failure: AlternationFailure,
    /// The tournament rules the games are conducted under.
    pub conduct: Conduct,
    /// The default time system, as the document states it.
    pub default_time_system: String,
    /// The document's words behind the choices (empty for profiles not
    /// taken from `shared/rules/`).
    pub clauses: Vec<Clause>,
}

/// The profiles' short names, as a genesis records them and
/// [`Ruleset::by_name`] reads them: the one place each is spelled.
pub mod profile {
    /// The LGC Tournament Rules adopted on 11 May 2023.
    pub const LGC_2023: &str = "lgc-2023";
    /// The London Open's rules.
    pub const LONDON_OPEN: &str = "london-open";
    /// The BGA's AGA-style rules.
    pub const BGA_AGA: &str = "bga-aga";
    /// The UEC Cup computer Go rules.
    pub const UEC_CUP: &str = "uec-cup";
    /// The Tromp-Taylor rules.
    pub const TROMP_TAYLOR: &str = "tromp-taylor";
    /// Chinese rules (area scoring).
    pub const CHINESE: &str = "chinese";
    /// Japanese rules (territory scoring).
    pub const JAPANESE: &str = "japanese";
}

/// The profile names [`Ruleset::by_name`] knows.
pub const PROFILE_NAMES: &[&str] = &[
    profile::LGC_2023,
    profile::LONDON_OPEN,
    profile::BGA_AGA,
    profile::UEC_CUP,
    profile::TROMP_TAYLOR,
    profile::CHINESE,
    profile::JAPANESE,
];

/// The profile a Go game is recorded under when nobody names one, and the
/// one a game of unknown profile is projected under ([`Ruleset::fallback`]):
/// the LGC 2023 rules.
pub const DEFAULT_PROFILE: &str = profile::LGC_2023;

/// The genesis override keys [`Ruleset::apply_override`] knows, each
/// documented in `docs/RULESETS.md`.
pub const OVERRIDE_KEYS: &[&str] = &[
    "ko",
    "suicide",
    "scoring",
    "pass_stones",
    "repetition",
    "move_limit",
    "handicap_placement",
    "abnormal_terminations",
];

fn pick<T: Copy>(
    key: &str,
    value: &str,
    expected: &'static str,
    table: &[(&str, T)],
) -> Result<T, Error> {
    let v = value.trim().to_ascii_lowercase();
    table
        .iter()
        .find(|(name, _)| *name == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| Error::BadOverride {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        })
}

impl Ruleset {
    /// Applies one genesis override (a departure from the profile stated
    /// when the game is created). Overrides are applied in the order
    /// recorded, so a later one for the same key replaces an earlier one.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownOverride`] for a key not in [`OVERRIDE_KEYS`];
    /// [`Error::BadOverride`] for a value the key does not take. The ruleset
    /// is unchanged on error.
    ///
    /// ```
    /// use kifu_go::{HandicapPlacement, Ruleset};
    /// let mut r = Ruleset::lgc_2023();
    /// r.apply_override("handicap_placement", "free").unwrap();
    /// assert_eq!(r.handicap_placement, HandicapPlacement::Free);
    /// assert!(r.apply_override("no_such_key", "1").is_err());
    /// assert!(r.apply_override("scoring", "japanese").is_err());
    /// ```
    pub fn apply_override(&mut self, key: &str, value: &str) -> Result<(), Error> {
        match key {
            "ko" => {
                self.ko = pick(
                    key,
                    value,
                    "simple, positional_superko, situational_superko, natural_situational_superko",
                    &[
                        ("simple", KoRule::Simple),
                        ("positional_superko", KoRule::PositionalSuperko),
                        ("situational_superko", KoRule::SituationalSuperko),
                        (
                            "natural_situational_superko",
                            KoRule::NaturalSituationalSuperko,
                        ),
                    ],
                )?
            }
            "suicide" => {
                self.suicide = pick(
                    key,
                    value,
                    "forbidden, multi_stone_only, allowed",
                    &[
                        ("forbidden", SuicideRule::Forbidden),
                        ("multi_stone_only", SuicideRule::MultiStoneOnly),
                        ("allowed", SuicideRule::Allowed),
                    ],
                )?
            }
            "scoring" => {
                self.scoring = pick(
                    key,
                    value,
                    "territory, area",
                    &[("territory", Scoring::Territory), ("area", Scoring::Area)],
                )?
            }
            "pass_stones" => {
                self.pass_stones = pick(
                    key,
                    value,
                    "true, false",
                    &[("true", true), ("false", false)],
                )?
            }
            "repetition" => {
                self.repetition = pick(
                    key,
                    value,
                    "by_ko_rule, draw, no_result",
                    &[
                        ("by_ko_rule", RepetitionRule::ByKoRule),
                        ("draw", RepetitionRule::Draw),
                        ("no_result", RepetitionRule::NoResult),
                    ],
                )?
            }
            "move_limit" => {
                let v = value.trim();
                self.move_limit = if v.eq_ignore_ascii_case("none") {
                    None
                } else {
                    Some(v.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                        Error::BadOverride {
                            key: key.to_string(),
                            value: value.to_string(),
                            expected: "none or a positive number of moves",
                        }
                    })?)
                }
            }
            "handicap_placement" => {
                self.handicap_placement = pick(
                    key,
                    value,
                    "fixed, free, fixed_or_free, not_used",
                    &[
                        ("fixed", HandicapPlacement::Fixed),
                        ("free", HandicapPlacement::Free),
                        ("fixed_or_free", HandicapPlacement::FixedOrFree),
                        ("not_used", HandicapPlacement::NotUsed),
                    ],
                )?
            }
            "abnormal_terminations" => {
                let mut who = Vec::new();
                for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    who.push(pick(
                        key,
                        part,
                        "a comma-separated list of black and white",
                        &[
                            ("black", crate::Color::Black),
                            ("white", crate::Color::White),
                        ],
                    )?);
                }
                self.conduct.earlier_abnormal_terminations = who;
            }
            other => return Err(Error::UnknownOverride(other.to_string())),
        }
        Ok(())
    }

    /// The profile with this name (see [`PROFILE_NAMES`]).
    ///
    /// ```
    /// use kifu_go::{KoRule, Ruleset};
    /// let r = Ruleset::by_name("lgc-2023").unwrap();
    /// assert_eq!(r.ko, KoRule::NaturalSituationalSuperko);
    /// assert_eq!(r.name(), "lgc-2023");
    /// assert!(Ruleset::by_name("no-such-rules").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<Ruleset, Error> {
        match name {
            profile::LGC_2023 => Ok(Ruleset::lgc_2023()),
            profile::LONDON_OPEN => Ok(Ruleset::london_open()),
            profile::BGA_AGA => Ok(Ruleset::bga_aga()),
            profile::UEC_CUP => Ok(Ruleset::uec_cup()),
            profile::TROMP_TAYLOR => Ok(Ruleset::tromp_taylor()),
            profile::CHINESE => Ok(Ruleset::chinese()),
            profile::JAPANESE => Ok(Ruleset::japanese()),
            other => Err(Error::UnknownRuleset(other.to_string())),
        }
    }

    /// The profile a game of unknown profile is projected under
    /// ([`DEFAULT_PROFILE`], the first of [`PROFILE_NAMES`]).
    pub fn fallback() -> Ruleset {
        Ruleset::lgc_2023()
    }

    /// The profile's short name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The first clause quoted for `topic`, if the profile quotes one.
    ///
    /// ```
    /// use kifu_go::{Ruleset, Topic};
    /// let lgc = Ruleset::lgc_2023();
    /// let c = lgc.clause(Topic::Ko).unwrap();
    /// assert_eq!(c.section, "Illegal move");
    /// ```
    pub fn clause(&self, topic: Topic) -> Option<&Clause> {
        self.clauses
            .iter()
            .find(|c| c.topic == topic)
            .or_else(|| self.conduct.clause(topic))
    }

    /// Komi for a game with `handicap` stones: 0 is an even game, any
    /// handicap stone makes it a handicap game.
    pub fn komi(&self, handicap: u32) -> Komi {
        if handicap == 0 {
            self.komi_even
        } else {
            self.komi_handicap
        }
    }

    /// Who wins an equal count in a game with `handicap` stones.
    pub fn jigo(&self, handicap: u32) -> Jigo {
        if handicap == 0 {
            self.jigo_even
        } else {
            self.jigo_handicap
        }
    }

    /// Whether the engine must keep the history of positions (superko or a
    /// repetition rule).
    pub fn needs_position_history(&self) -> bool {
        self.ko != KoRule::Simple || self.repetition != RepetitionRule::ByKoRule
    }

    /// `lgc-2023`: the LGC Tournament Rules adopted on 11 May 2023.
    pub fn lgc_2023() -> Ruleset {
        Ruleset {
            name: profile::LGC_2023.into(),
            // "Illegal move": "recreate a previous board position with the same
            // person to play (ko and natural situational superko)".
            ko: KoRule::NaturalSituationalSuperko,
            // "Making a move": only "removal of the opponent's stones" follows a
            // play; the document provides no self-capture.
            suicide: SuicideRule::Forbidden,
            scoring: Scoring::Territory,
            // "Ending the game" 1: "passes by handing a stone to the opponent".
            pass_stones: true,
            // "Ending the game" 3.
            pause: PauseRule::ConsecutivePassesWhiteLast,
            white_passes_last: WhitePassesLast::BeforePause,
            // "Ending the game" 6: "with Black going first".
            resumption: Resumption::BlackFirst,
            passes_at_resumption_start_stop_game: true,
            illegal_move: IllegalMoveRemedy::UnwindWithinThreeMoves,
            repetition: RepetitionRule::ByKoRule,
            move_limit: None,
            // "Komi in an even game is 7.5 to White. In a handicap game it is 0.5".
            komi_even: Komi(15),
            komi_handicap: Komi(1),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::Draw,
            handicap_placement: HandicapPlacement::FixedOrFree,
            handicap_compensation: HandicapCompensation::None,
            colour_or_handicap_error: ColourOrHandicapErrorRule::RestartBeforeThirdMove,
            occupied_point: OccupiedPointRule::Irregularity,
            alternation_failure: AlternationFailure::SingleMove,
            conduct: Conduct::lgc_2023(),
            default_time_system:
                "Fischer time (\"the default method when digital clocks are used\"); \
                sudden death, Canadian overtime and Japanese byo-yomi also provided"
                    .into(),
            clauses: clause::lgc_2023(),
        }
    }

    /// `london-open`: AGA-style rules with the EGF illegal-move rule.
    pub fn london_open() -> Ruleset {
        Ruleset {
            name: profile::LONDON_OPEN.into(),
            // London Open 3.
            ko: KoRule::NaturalSituationalSuperko,
            // AGA-style rules (BGA summary, "Rule Violation": self-capture is illegal).
            suicide: SuicideRule::Forbidden,
            // London Open 8.
            scoring: Scoring::Territory,
            // London Open 2.
            pass_stones: true,
            // London Open 5.
            pause: PauseRule::TwoConsecutivePasses,
            white_passes_last: WhitePassesLast::AfterAgreement,
            // London Open 6.
            resumption: Resumption::OpponentOfLastPasser,
            // London Open 7.
            passes_at_resumption_start_stop_game: true,
            // London Open 4.
            illegal_move: IllegalMoveRemedy::UnwindWithinThreeMoves,
            repetition: RepetitionRule::ByKoRule,
            move_limit: None,
            // London Open 1: "Komi in an even game is 7.5 to White. In a
            // handicap game, White wins Jigo."
            komi_even: Komi(15),
            komi_handicap: Komi(0),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::WhiteWins,
            handicap_placement: HandicapPlacement::Fixed,
            handicap_compensation: HandicapCompensation::None,
            colour_or_handicap_error: ColourOrHandicapErrorRule::CorrectBeforeWhitesFirstMove,
            occupied_point: OccupiedPointRule::Irregularity,
            alternation_failure: AlternationFailure::SingleMove,
            conduct: Conduct::lgc_arbitration(),
            default_time_system: "not stated in the rules of play".into(),
            clauses: clause::london_open(),
        }
    }

    /// `bga-aga`: the British Go Association's AGA-style rules.
    pub fn bga_aga() -> Ruleset {
        Ruleset {
            name: profile::BGA_AGA.into(),
            // "Ko and Superko": "re-create a previous board position that you
            // created on a previous play".
            ko: KoRule::NaturalSituationalSuperko,
            // "Rule Violation": self-capture is an illegal move.
            suicide: SuicideRule::Forbidden,
            // "The score": territory unless both agree on area.
            scoring: Scoring::Territory,
            pass_stones: true,
            pause: PauseRule::TwoConsecutivePasses,
            white_passes_last: WhitePassesLast::AfterAgreement,
            resumption: Resumption::OpponentOfLastPasser,
            passes_at_resumption_start_stop_game: true,
            illegal_move: IllegalMoveRemedy::UnwindAndPassOrRewindByAgreement,
            repetition: RepetitionRule::ByKoRule,
            move_limit: None,
            // Not stated in the summary; AGA-style rules as the London Open
            // applies them: 7.5 even, 0.5 in handicap games.
            komi_even: Komi(15),
            komi_handicap: Komi(1),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::Draw,
            handicap_placement: HandicapPlacement::Fixed,
            // AGA area counting gives White one point per handicap stone after
            // the first, so area and territory counts agree.
            handicap_compensation: HandicapCompensation::PerStoneAfterFirst,
            colour_or_handicap_error: ColourOrHandicapErrorRule::CorrectBeforeWhitesFirstMove,
            occupied_point: OccupiedPointRule::Irregularity,
            alternation_failure: AlternationFailure::WholeSequence,
            conduct: Conduct::lgc_arbitration(),
            default_time_system: "not stated in the summary".into(),
            clauses: clause::bga_aga(),
        }
    }

    /// `uec-cup`: UEC Cup computer Go (Japanese rules with its own ending).
    pub fn uec_cup() -> Ruleset {
        Ruleset {
            name: profile::UEC_CUP.into(),
            // "Based on Japanese Go playing rules": basic ko only.
            ko: KoRule::Simple,
            suicide: SuicideRule::Forbidden,
            scoring: Scoring::Territory,
            pass_stones: false,
            // "a) Both programs pass consecutively. (Normal end of game)".
            pause: PauseRule::TwoConsecutivePasses,
            white_passes_last: WhitePassesLast::Never,
            // a) 4: "Neither the program, nor the operator can request for the
            // resume of the game thenafter."
            resumption: Resumption::NotAllowed,
            passes_at_resumption_start_stop_game: false,
            illegal_move: IllegalMoveRemedy::FirstIllegalMoveLoses,
            // "g) Repetition of a position": draw.
            repetition: RepetitionRule::Draw,
            // "e) When the game has progressed the 400th moves. Pass will be
            // counted by a move."
            move_limit: Some(400),
            // "The handicap (komi) is 6.5 points."
            komi_even: Komi(13),
            komi_handicap: Komi(13),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::Draw,
            handicap_placement: HandicapPlacement::NotUsed,
            handicap_compensation: HandicapCompensation::None,
            colour_or_handicap_error: ColourOrHandicapErrorRule::Referee,
            occupied_point: OccupiedPointRule::IllegalMove,
            alternation_failure: AlternationFailure::SingleMove,
            conduct: Conduct::uec_cup(),
            default_time_system:
                "30 minutes sudden death per player, measured by the server in 0.1 s".into(),
            clauses: clause::uec_cup(),
        }
    }

    /// `tromp-taylor`: the Tromp-Taylor rules (area, positional superko,
    /// suicide legal, the board counted as it stands after two passes).
    pub fn tromp_taylor() -> Ruleset {
        Ruleset {
            name: profile::TROMP_TAYLOR.into(),
            ko: KoRule::PositionalSuperko,
            suicide: SuicideRule::Allowed,
            scoring: Scoring::Area,
            pass_stones: false,
            pause: PauseRule::TwoConsecutivePasses,
            white_passes_last: WhitePassesLast::Never,
            resumption: Resumption::ScoreAsItStands,
            passes_at_resumption_start_stop_game: false,
            illegal_move: IllegalMoveRemedy::Unspecified,
            repetition: RepetitionRule::ByKoRule,
            move_limit: None,
            komi_even: Komi(15),
            komi_handicap: Komi(15),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::Draw,
            handicap_placement: HandicapPlacement::Free,
            handicap_compensation: HandicapCompensation::None,
            colour_or_handicap_error: ColourOrHandicapErrorRule::Referee,
            occupied_point: OccupiedPointRule::IllegalMove,
            alternation_failure: AlternationFailure::SingleMove,
            conduct: Conduct::unstated(),
            default_time_system: "not part of the rules".into(),
            clauses: Vec::new(),
        }
    }

    /// `chinese`: Chinese rules (area, positional superko, suicide illegal,
    /// one point per handicap stone to White).
    pub fn chinese() -> Ruleset {
        Ruleset {
            name: profile::CHINESE.into(),
            ko: KoRule::PositionalSuperko,
            suicide: SuicideRule::Forbidden,
            scoring: Scoring::Area,
            pass_stones: false,
            pause: PauseRule::TwoConsecutivePasses,
            white_passes_last: WhitePassesLast::Never,
            resumption: Resumption::OpponentOfLastPasser,
            passes_at_resumption_start_stop_game: false,
            illegal_move: IllegalMoveRemedy::Unspecified,
            repetition: RepetitionRule::ByKoRule,
            move_limit: None,
            komi_even: Komi(15),
            komi_handicap: Komi(0),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::Draw,
            handicap_placement: HandicapPlacement::FixedOrFree,
            handicap_compensation: HandicapCompensation::PerStone,
            colour_or_handicap_error: ColourOrHandicapErrorRule::Referee,
            occupied_point: OccupiedPointRule::IllegalMove,
            alternation_failure: AlternationFailure::SingleMove,
            conduct: Conduct::unstated(),
            default_time_system: "not part of the rules".into(),
            clauses: Vec::new(),
        }
    }

    /// `japanese`: Japanese 1989 rules (territory, simple ko, no result on an
    /// unresolved repetition, suicide illegal).
    pub fn japanese() -> Ruleset {
        Ruleset {
            name: profile::JAPANESE.into(),
            ko: KoRule::Simple,
            suicide: SuicideRule::Forbidden,
            scoring: Scoring::Territory,
            pass_stones: false,
            pause: PauseRule::TwoConsecutivePasses,
            white_passes_last: WhitePassesLast::Never,
            resumption: Resumption::OpponentOfLastPasser,
            passes_at_resumption_start_stop_game: false,
            illegal_move: IllegalMoveRemedy::Unspecified,
            repetition: RepetitionRule::NoResult,
            move_limit: None,
            komi_even: Komi(13),
            komi_handicap: Komi(1),
            jigo_even: Jigo::Draw,
            jigo_handicap: Jigo::Draw,
            handicap_placement: HandicapPlacement::Fixed,
            handicap_compensation: HandicapCompensation::None,
            colour_or_handicap_error: ColourOrHandicapErrorRule::Referee,
            occupied_point: OccupiedPointRule::IllegalMove,
            alternation_failure: AlternationFailure::SingleMove,
            conduct: Conduct::unstated(),
            default_time_system: "not part of the rules".into(),
            clauses: Vec::new(),
        }
    }
}

#[cfg(test)]
mod profile_name_tests {
    use super::*;

    #[test]
    fn every_profile_is_found_by_the_name_it_carries() {
        for name in PROFILE_NAMES {
            assert_eq!(Ruleset::by_name(name).map(|r| r.name), Ok(name.to_string()));
        }
        assert_eq!(Ruleset::fallback().name(), DEFAULT_PROFILE);
        assert_eq!(PROFILE_NAMES[0], DEFAULT_PROFILE);
        assert_eq!(Ruleset::uec_cup().name(), profile::UEC_CUP);
    }
}
