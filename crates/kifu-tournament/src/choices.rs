//! A new tournament's settings as a director types them (the flags of
//! `kifu tournament new`, its TOML file, the fields of the director's
//! desk), read into a [`NewTournament`]: points, komi, time control and
//! game are read here, once, whichever face they were typed into.

use kifu_ledger::{GameKind, Role, TimeControl};
use serde::Deserialize;

use crate::settings::NewTournament;

/// The name a director is given when none is typed.
pub const DIRECTOR_NAME: &str = "Tournament director";

/// Why a typed setting is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    /// A setting every tournament needs is missing (`name`, `rounds`).
    #[error("a tournament needs its {0}")]
    Missing(&'static str),
    /// Bye or absence points other than 0, ½, 1, 1½ or 2.
    #[error("{what} '{value}' is not 0, 0.5, 1, 1.5 or 2 points")]
    Points {
        /// Which points (`bye NBW`...).
        what: &'static str,
        /// What was typed.
        value: String,
    },
    /// A komi that is not a whole or half number of points.
    #[error("{0}")]
    Komi(String),
    /// A time control that does not read.
    #[error("time control '{value}': {why}")]
    Time {
        /// What was typed.
        value: String,
        /// Why it is refused.
        why: String,
    },
    /// A game that is not one kifu records.
    #[error("{0}")]
    Game(String),
    /// An official not written `NAME=PUBLIC_KEY`.
    #[error("'{0}' should be NAME=PUBLIC_KEY")]
    Official(String),
}

/// Bye or absence points (`0`, `0.5`, `1`, `1.5`, `2`) in half points.
pub fn points(value: &str, what: &'static str) -> Result<u8, ChoiceError> {
    let bad = || ChoiceError::Points {
        what,
        value: value.to_string(),
    };
    let halves = komi(value).map_err(|_| bad())?;
    u8::try_from(halves)
        .ok()
        .filter(|h| *h <= 4)
        .ok_or_else(bad)
}

/// A komi (`7.5`, `-0.5`) in half points.
pub fn komi(value: &str) -> Result<i32, ChoiceError> {
    value
        .parse::<kifu_go::Komi>()
        .map(kifu_go::Komi::half_points)
        .map_err(|e| ChoiceError::Komi(e.to_string()))
}

/// A time control: the short notation (`canadian:60m+15/5m`,
/// `fischer:90m+30s`, `kifu_clock::parse_time_control`) or its JSON.
pub fn time_control(value: &str) -> Result<TimeControl, ChoiceError> {
    let t = value.trim();
    let bad = |why: String| ChoiceError::Time {
        value: value.to_string(),
        why,
    };
    if t.starts_with('{') || t.starts_with('"') {
        return serde_json::from_str(t).map_err(|e| bad(e.to_string()));
    }
    kifu_clock::parse_time_control(t)
        .map(|tc| kifu_game::convert::ledger_time_control(&tc))
        .map_err(|e| bad(e.to_string()))
}

/// A game by its name (`go`, `renju`, `gomoku-freestyle`...).
pub fn game(value: &str) -> Result<GameKind, ChoiceError> {
    value
        .parse()
        .map_err(|e: kifu_ledger::text::UnknownGameKind| ChoiceError::Game(e.to_string()))
}

/// An official written `NAME=PUBLIC_KEY`: the name and the key as typed
/// (a file or hex, which the face reads).
pub fn official(spec: &str) -> Result<(&str, &str), ChoiceError> {
    spec.split_once('=')
        .ok_or_else(|| ChoiceError::Official(spec.to_string()))
}

/// The settings of a new tournament as typed; `None` takes the default
/// (`settings::genesis`). The names are those of `kifu tournament new`'s
/// flags and of its TOML file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Choices {
    /// Full name.
    pub name: Option<String>,
    /// Short name.
    pub short_name: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Two-letter country code.
    pub country: Option<String>,
    /// First day, `YYYY-MM-DD`.
    pub start: Option<String>,
    /// Last day.
    pub finish: Option<String>,
    /// Number of rounds.
    pub rounds: Option<u32>,
    /// `mcmahon`, `swiss`, `round-robin` or `knockout`.
    pub system: Option<String>,
    /// Placement criteria in order.
    pub criteria: Option<String>,
    /// McMahon bar.
    pub bar: Option<String>,
    /// McMahon floor.
    pub floor: Option<String>,
    /// NBW points for a bye.
    pub bye_nbw: Option<String>,
    /// MMS points for a bye.
    pub bye_mms: Option<String>,
    /// NBW points for an absent round.
    pub absent_nbw: Option<String>,
    /// MMS points for an absent round.
    pub absent_mms: Option<String>,
    /// Round the sum of bye and absence points down.
    pub round_down: Option<bool>,
    /// The former spelling of `round_down = false`.
    pub no_round_down: Option<bool>,
    /// Count opponents' unplayed rounds as ½ in SOS.
    pub unplayed_as_half: Option<bool>,
    /// The game.
    pub game: Option<String>,
    /// The games' ruleset profile.
    pub ruleset: Option<String>,
    /// The games' time control ([`time_control`]).
    pub time: Option<String>,
    /// The games' komi ([`komi`]).
    pub komi: Option<String>,
    /// EGF class.
    pub egf_class: Option<String>,
    /// EGF adjusted time in minutes.
    pub adjusted_time: Option<u32>,
    /// Handicap reduction: stones taken off the difference in the draw,
    /// and the EGD file's `HA[hN]`.
    pub handicap_reduction: Option<u32>,
    /// The draw's handicap comes from the McMahon scores (else the ranks).
    pub handicap_based_on_mms: Option<bool>,
    /// No handicap between players at or above this rank.
    pub no_handicap_above: Option<String>,
    /// The most handicap stones the draw gives.
    pub handicap_ceiling: Option<u8>,
    /// Referees, `NAME=PUBLIC_KEY` ([`official`]).
    pub referees: Option<Vec<String>>,
    /// Appeals committee members, `NAME=PUBLIC_KEY`.
    pub committee: Option<Vec<String>>,
}

impl Choices {
    /// These choices, each one missing taken from `under` (flags over a
    /// settings file).
    pub fn or(self, under: Choices) -> Choices {
        Choices {
            name: self.name.or(under.name),
            short_name: self.short_name.or(under.short_name),
            city: self.city.or(under.city),
            country: self.country.or(under.country),
            start: self.start.or(under.start),
            finish: self.finish.or(under.finish),
            rounds: self.rounds.or(under.rounds),
            system: self.system.or(under.system),
            criteria: self.criteria.or(under.criteria),
            bar: self.bar.or(under.bar),
            floor: self.floor.or(under.floor),
            bye_nbw: self.bye_nbw.or(under.bye_nbw),
            bye_mms: self.bye_mms.or(under.bye_mms),
            absent_nbw: self.absent_nbw.or(under.absent_nbw),
            absent_mms: self.absent_mms.or(under.absent_mms),
            round_down: self.round_down.or(under.round_down),
            no_round_down: self.no_round_down.or(under.no_round_down),
            unplayed_as_half: self.unplayed_as_half.or(under.unplayed_as_half),
            game: self.game.or(under.game),
            ruleset: self.ruleset.or(under.ruleset),
            time: self.time.or(under.time),
            komi: self.komi.or(under.komi),
            egf_class: self.egf_class.or(under.egf_class),
            adjusted_time: self.adjusted_time.or(under.adjusted_time),
            handicap_reduction: self.handicap_reduction.or(under.handicap_reduction),
            handicap_based_on_mms: self.handicap_based_on_mms.or(under.handicap_based_on_mms),
            no_handicap_above: self.no_handicap_above.or(under.no_handicap_above),
            handicap_ceiling: self.handicap_ceiling.or(under.handicap_ceiling),
            referees: self.referees.or(under.referees),
            committee: self.committee.or(under.committee),
        }
    }

    /// The officials named beyond the director: each referee, then each
    /// committee member, as (role, name, key as typed).
    pub fn officials(&self) -> Result<Vec<(Role, &str, &str)>, ChoiceError> {
        let referees = self.referees.iter().flatten().map(|s| (Role::Referee, s));
        let committee = self
            .committee
            .iter()
            .flatten()
            .map(|s| (Role::Committee, s));
        referees
            .chain(committee)
            .map(|(role, spec)| official(spec).map(|(name, key)| (role, name, key)))
            .collect()
    }

    /// The tournament these choices describe, with `officials` (the
    /// director first); the defaults are filled in by
    /// [`crate::settings::genesis`].
    pub fn new_tournament(
        self,
        officials: Vec<kifu_ledger::Participant>,
    ) -> Result<NewTournament, ChoiceError> {
        let name = self.name.ok_or(ChoiceError::Missing("name"))?;
        let rounds = self.rounds.ok_or(ChoiceError::Missing("rounds"))?;
        let halves = |v: Option<String>, what| v.map(|v| points(&v, what)).transpose();
        Ok(NewTournament {
            name,
            short_name: self.short_name,
            city: self.city.unwrap_or_default(),
            country: self.country.unwrap_or_default(),
            start: self.start.unwrap_or_default(),
            finish: self.finish.unwrap_or_default(),
            rounds,
            system: self.system,
            criteria: self.criteria,
            bar: self.bar,
            floor: self.floor,
            bye_nbw_halves: halves(self.bye_nbw, "bye NBW")?,
            bye_mms_halves: halves(self.bye_mms, "bye MMS")?,
            absent_nbw_halves: halves(self.absent_nbw, "absent NBW")?,
            absent_mms_halves: halves(self.absent_mms, "absent MMS")?,
            round_down: match (self.round_down, self.no_round_down) {
                (Some(r), _) => Some(r),
                (None, Some(no)) => Some(!no),
                (None, None) => None,
            },
            unplayed_as_half: self.unplayed_as_half,
            game: self.game.as_deref().map(game).transpose()?,
            ruleset: self.ruleset,
            time_control: self.time.as_deref().map(time_control).transpose()?,
            komi_half_points: self.komi.as_deref().map(komi).transpose()?,
            egf_class: self.egf_class,
            adjusted_time: self.adjusted_time,
            handicap_reduction: self.handicap_reduction,
            handicap_based_on_mms: self.handicap_based_on_mms,
            no_handicap_above: self.no_handicap_above,
            handicap_ceiling: self.handicap_ceiling,
            officials,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_whole_or_half_from_zero_to_two() {
        assert_eq!(points("0", "bye NBW"), Ok(0));
        assert_eq!(points("1.5", "bye NBW"), Ok(3));
        assert_eq!(points("2", "bye NBW"), Ok(4));
        for bad in ["2.5", "-0.5", "0.3", "one"] {
            assert_eq!(
                points(bad, "absent MMS").unwrap_err().to_string(),
                format!("absent MMS '{bad}' is not 0, 0.5, 1, 1.5 or 2 points")
            );
        }
    }

    #[test]
    fn komi_time_game_and_officials_read_as_typed() {
        assert_eq!(komi("6.5"), Ok(13));
        assert!(matches!(komi("6.3"), Err(ChoiceError::Komi(_))));
        assert_eq!(
            time_control("canadian:60m+15/5m"),
            Ok(TimeControl::Canadian {
                main_ms: 3_600_000,
                stones: 15,
                block_ms: 300_000
            })
        );
        let sudden = TimeControl::SuddenDeath { main_ms: 60_000 };
        let as_json = serde_json::to_string(&sudden).expect("json");
        assert_eq!(time_control(&as_json), Ok(sudden));
        assert!(matches!(
            time_control("hourglass"),
            Err(ChoiceError::Time { .. })
        ));
        assert_eq!(game("gomoku-freestyle"), Ok(GameKind::GomokuFreestyle));
        assert!(game("chess").is_err());
        assert_eq!(official("Ann=ab12"), Ok(("Ann", "ab12")));
        assert_eq!(
            official("Ann").unwrap_err().to_string(),
            "'Ann' should be NAME=PUBLIC_KEY"
        );
    }

    #[test]
    fn flags_win_over_the_file_and_the_choices_become_a_tournament() {
        let flags = Choices {
            name: Some("Spring Open".into()),
            bye_mms: Some("0.5".into()),
            komi: Some("6.5".into()),
            no_round_down: Some(true),
            referees: Some(vec!["Rita=aa".into()]),
            ..Choices::default()
        };
        let file: Choices = serde_json::from_value(serde_json::json!({
            "name": "ignored", "rounds": 5, "time": "fischer:90m+30s",
            "committee": ["Cleo=bb"], "game": "renju"
        }))
        .expect("reads");
        let c = flags.or(file);
        assert_eq!(c.name.as_deref(), Some("Spring Open"));
        assert_eq!(
            c.officials().expect("officials"),
            [
                (Role::Referee, "Rita", "aa"),
                (Role::Committee, "Cleo", "bb")
            ]
        );
        let n = c.new_tournament(vec![]).expect("reads");
        assert_eq!(n.rounds, 5);
        assert_eq!(n.bye_mms_halves, Some(1));
        assert_eq!(n.komi_half_points, Some(13));
        assert_eq!(n.round_down, Some(false));
        assert_eq!(n.game, Some(GameKind::Renju));
        assert!(matches!(n.time_control, Some(TimeControl::Fischer { .. })));
        assert_eq!(
            Choices::default().new_tournament(vec![]).unwrap_err(),
            ChoiceError::Missing("name")
        );
    }
}
