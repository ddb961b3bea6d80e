//! Every weight and switch of the draw, each a field with OpenGotha
//! 3.51.02's default (`PairingParameterSet.initForMM` / `initForSwiss`,
//! `HandicapParameterSet.initForMM` / `initForSwiss`). A tournament that
//! records its settings records this value, so a later kifu draws the same
//! round from the same chain.

use kifu_standings::Rank;
use serde::{Deserialize, Serialize};

/// The pairing system, which picks the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// McMahon: players start on their rank's score, handicap by MMS
    /// difference below the bar.
    McMahon,
    /// Swiss: everybody starts at 0, even games.
    Swiss,
}

/// How players are seeded inside a score group (OpenGotha "Seeding").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// Top half against bottom half, the opponent chosen by a deterministic
    /// draw from the names (OpenGotha "Split and Random").
    SplitAndRandom,
    /// First against last, second against last but one (OpenGotha "Split
    /// and Fold").
    SplitAndFold,
    /// First of the top half against first of the bottom half (OpenGotha
    /// "Split and Slip").
    SplitAndSlip,
}

/// Which player of a score group is preferred for a draw-up or a
/// draw-down (OpenGotha `PAIMA_DUDD_TOP`, `_MID`, `_BOT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawPosition {
    /// The group's top player.
    Top,
    /// A player from the middle of the group.
    Middle,
    /// The group's bottom player.
    Bottom,
}

/// The extra placement criterion that orders a score group after the
/// tournament's own criteria (OpenGotha `paiMaAdditionalPlacementCrit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtraOrder {
    /// None: the names decide.
    None,
    /// The rating, highest first.
    Rating,
}

/// How handicaps are given (OpenGotha `HandicapParameterSet`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandicapSettings {
    /// The handicap comes from the McMahon scores before the round rather
    /// than from the ranks (`hdBasedOnMMS`).
    pub based_on_mms: bool,
    /// Players at or above this rank (or MMS-rank) count as this rank: no
    /// handicap between two of them (`hdNoHdRankThreshold`, 1d).
    pub no_handicap_above: Rank,
    /// Stones taken off the difference (`hdCorrection`).
    pub reduction: u8,
    /// The most stones given (`hdCeiling`).
    pub ceiling: u8,
}

impl HandicapSettings {
    /// OpenGotha's McMahon handicap: by MMS, none from 1d up, reduced by
    /// one, at most nine stones.
    pub fn mcmahon() -> HandicapSettings {
        HandicapSettings {
            based_on_mms: true,
            no_handicap_above: rank(0),
            reduction: 1,
            ceiling: 9,
        }
    }

    /// OpenGotha's Swiss handicap: none (every rank counts as 30k).
    pub fn swiss() -> HandicapSettings {
        HandicapSettings {
            based_on_mms: false,
            no_handicap_above: rank(-30),
            reduction: 0,
            ceiling: 0,
        }
    }
}

fn rank(v: i32) -> Rank {
    Rank::from_value(v)
}

/// The weights of every criterion of the draw and the switches of the
/// seeding, draw-ups and secondary criteria (OpenGotha
/// `PairingParameterSet`). Weights are OpenGotha's, so a cost computed here
/// is the number OpenGotha computes for the same pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingSettings {
    /// The system these settings were made for.
    pub system: System,
    /// Weight for two players who have not met yet (`paiBaAvoidDuplGame`,
    /// 5·10¹⁴: above every other criterion together).
    pub avoid_duplicate: i64,
    /// Range of the deterministic random term added to every pair
    /// (`paiBaRandom`, 0: off).
    pub random: i64,
    /// Weight for a pair whose colours can be balanced (`paiBaBalanceWB`,
    /// 10⁶).
    pub balance_colours: i64,
    /// Weight for two players of the same score group
    /// (`paiMaMinimizeScoreDifference`, 10¹¹).
    pub minimize_score_difference: i64,
    /// Weight of the draw-up/draw-down criterion (`paiMaDUDDWeight`, 10⁸).
    pub draw_up_down: i64,
    /// A draw-up compensates an earlier draw-down and the other way round
    /// (`paiMaCompensateDUDD`).
    pub compensate_draw_up_down: bool,
    /// Who of the upper group is drawn down (`paiMaDUDDUpperMode`).
    pub draw_down_from: DrawPosition,
    /// Who of the lower group is drawn up (`paiMaDUDDLowerMode`).
    pub draw_up_from: DrawPosition,
    /// Weight of the seeding inside a score group (`paiMaMaximizeSeeding`,
    /// 5·10⁶).
    pub seeding: i64,
    /// The last round (from 1) seeded with `first_seeding`
    /// (`paiMaLastRoundForSeedSystem1` + 1: OpenGotha counts rounds from 0
    /// and applies the first system up to that index included).
    pub last_round_first_seeding: u32,
    /// Seeding of the early rounds (`paiMaSeedSystem1`).
    pub first_seeding: Seeding,
    /// Seeding of the later rounds (`paiMaSeedSystem2`).
    pub later_seeding: Seeding,
    /// Order inside a score group after the placement criteria, early
    /// rounds (`paiMaAdditionalPlacementCritSystem1`).
    pub first_extra_order: ExtraOrder,
    /// The same for the later rounds (`paiMaAdditionalPlacementCritSystem2`).
    pub later_extra_order: ExtraOrder,
    /// Secondary criteria do not apply above the McMahon bar
    /// (`paiSeBarThresholdActive`).
    pub secondary_bar_threshold: bool,
    /// Secondary criteria do not apply at or above this rank plus half the
    /// wins (`paiSeRankThreshold`).
    pub secondary_rank_threshold: Rank,
    /// Secondary criteria do not apply to a player with half the rounds won
    /// (`paiSeNbWinsThresholdActive`).
    pub secondary_wins_threshold: bool,
    /// Weight for a small handicap (`paiSeMinimizeHandicap`, 0 in McMahon
    /// and Swiss).
    pub minimize_handicap: i64,
    /// Weight for players of different clubs and countries
    /// (`paiSeAvoidSameGeo`: 10¹¹ in McMahon, 0 in Swiss).
    pub avoid_same_geo: i64,
    /// How many score groups apart a pair from different countries is
    /// worth (`paiSePreferMMSDiffRatherThanSameCountry`).
    pub prefer_score_gap_to_same_country: i32,
    /// How many score groups apart a pair from different clubs is worth
    /// (`paiSePreferMMSDiffRatherThanSameClub`).
    pub prefer_score_gap_to_same_club: i32,
    /// The concavity of every "n × 1 rather than 1 × n" curve
    /// (`paiStandardNX1Factor`, ½), in thousandths.
    pub nx1_factor_thousandths: u32,
    /// How handicaps are given.
    pub handicap: HandicapSettings,
}

impl PairingSettings {
    /// OpenGotha's defaults for `system`.
    pub fn for_system(system: System) -> PairingSettings {
        match system {
            System::McMahon => PairingSettings::mcmahon(),
            System::Swiss => PairingSettings::swiss(),
        }
    }

    /// OpenGotha 3.51.02's McMahon defaults (`initForMM`).
    pub fn mcmahon() -> PairingSettings {
        PairingSettings {
            system: System::McMahon,
            avoid_duplicate: 500_000_000_000_000,
            random: 0,
            balance_colours: 1_000_000,
            minimize_score_difference: 100_000_000_000,
            draw_up_down: 100_000_000,
            compensate_draw_up_down: true,
            draw_down_from: DrawPosition::Middle,
            draw_up_from: DrawPosition::Middle,
            seeding: 5_000_000,
            last_round_first_seeding: 2,
            first_seeding: Seeding::SplitAndRandom,
            later_seeding: Seeding::SplitAndSlip,
            first_extra_order: ExtraOrder::Rating,
            later_extra_order: ExtraOrder::None,
            secondary_bar_threshold: true,
            secondary_rank_threshold: rank(0),
            secondary_wins_threshold: false,
            minimize_handicap: 0,
            avoid_same_geo: 100_000_000_000,
            prefer_score_gap_to_same_country: 1,
            prefer_score_gap_to_same_club: 3,
            nx1_factor_thousandths: 500,
            handicap: HandicapSettings::mcmahon(),
        }
    }

    /// OpenGotha 3.51.02's Swiss defaults (`initForSwiss`).
    pub fn swiss() -> PairingSettings {
        PairingSettings {
            system: System::Swiss,
            first_seeding: Seeding::SplitAndSlip,
            later_seeding: Seeding::SplitAndSlip,
            later_extra_order: ExtraOrder::Rating,
            secondary_rank_threshold: rank(-30),
            secondary_wins_threshold: true,
            avoid_same_geo: 0,
            prefer_score_gap_to_same_country: 0,
            prefer_score_gap_to_same_club: 0,
            handicap: HandicapSettings::swiss(),
            ..PairingSettings::mcmahon()
        }
    }

    /// These settings with some fields changed, each named by its path
    /// (`seeding`, `handicap.ceiling`) and given as text (`5`, `false`,
    /// `3k`, `split_and_fold`): how a tournament's genesis records the
    /// settings that differ from the defaults. The result is checked
    /// ([`PairingSettings::check`]).
    pub fn with_overrides(
        &self,
        overrides: &[(String, String)],
    ) -> Result<PairingSettings, String> {
        let mut value = serde_json::to_value(self).map_err(|e| e.to_string())?;
        for (path, text) in overrides {
            let mut at = &mut value;
            for part in path.split('.') {
                at = at
                    .get_mut(part)
                    .filter(|_| part != "system")
                    .ok_or_else(|| format!("no pairing setting '{path}'"))?;
            }
            // Numbers and true/false as JSON, anything else (ranks, names of
            // choices) as a string.
            let given = match serde_json::from_str::<serde_json::Value>(text) {
                Ok(v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => v,
                _ => serde_json::Value::String(text.trim().to_string()),
            };
            if given.is_string() != at.is_string() || given.is_boolean() != at.is_boolean() {
                return Err(format!(
                    "pairing setting '{path}': '{text}' is not a value of it"
                ));
            }
            *at = given;
        }
        let s: PairingSettings = serde_json::from_value(value).map_err(|e| e.to_string())?;
        s.check()?;
        Ok(s)
    }

    /// Checks every weight against the largest value OpenGotha's settings
    /// window accepts (`PAIBA_MAX_*`, `PAIMA_MAX_*`), so no cost can
    /// overflow; the defaults are those largest values.
    pub fn check(&self) -> Result<(), String> {
        let limits: [(&str, i64, i64); 8] = [
            ("avoid_duplicate", self.avoid_duplicate, 500_000_000_000_000),
            ("random", self.random, 1_000_000_000),
            ("balance_colours", self.balance_colours, 1_000_000),
            (
                "minimize_score_difference",
                self.minimize_score_difference,
                100_000_000_000,
            ),
            ("draw_up_down", self.draw_up_down, 100_000_000),
            ("seeding", self.seeding, 5_000_000),
            (
                "minimize_handicap",
                self.minimize_handicap,
                20_000_000_000_000,
            ),
            ("avoid_same_geo", self.avoid_same_geo, 20_000_000_000_000),
        ];
        for (name, value, max) in limits {
            if !(0..=max).contains(&value) {
                return Err(format!("{name} is {value}, outside 0..={max}"));
            }
        }
        for (name, value) in [
            (
                "prefer_score_gap_to_same_country",
                self.prefer_score_gap_to_same_country,
            ),
            (
                "prefer_score_gap_to_same_club",
                self.prefer_score_gap_to_same_club,
            ),
        ] {
            if !(0..=100).contains(&value) {
                return Err(format!("{name} is {value}, outside 0..=100"));
            }
        }
        if self.nx1_factor_thousandths > 1000 {
            return Err(format!(
                "nx1_factor_thousandths is {}, outside 0..=1000",
                self.nx1_factor_thousandths
            ));
        }
        if self.handicap.ceiling > 9 {
            return Err(format!(
                "handicap ceiling is {}, above 9",
                self.handicap.ceiling
            ));
        }
        Ok(())
    }

    /// The concavity factor as OpenGotha's `double`.
    pub(crate) fn nx1(&self) -> f64 {
        f64::from(self.nx1_factor_thousandths) / 1000.0
    }

    /// True when round `round` (from 1) is seeded by the first system.
    pub(crate) fn early(&self, round: u32) -> bool {
        round <= self.last_round_first_seeding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swiss_differs_from_mcmahon_only_where_opengotha_s_init_differs() {
        let (m, s) = (PairingSettings::mcmahon(), PairingSettings::swiss());
        assert_eq!(m.avoid_duplicate, s.avoid_duplicate);
        assert_eq!(m.seeding, 5_000_000);
        assert_eq!(s.first_seeding, Seeding::SplitAndSlip);
        assert_eq!(m.first_seeding, Seeding::SplitAndRandom);
        assert_eq!(s.avoid_same_geo, 0);
        assert_eq!(s.handicap.ceiling, 0);
        assert_eq!(m.handicap.no_handicap_above.to_string(), "1d");
        // Rounds 1 and 2 take the first system (OpenGotha's index 1 included).
        assert!(m.early(2) && !m.early(3));
        assert_eq!(PairingSettings::for_system(System::Swiss), s);
        assert_eq!(m.check(), Ok(()));
        assert_eq!(s.check(), Ok(()));
    }

    #[test]
    fn overrides_change_the_named_fields_and_nothing_else() {
        let m = PairingSettings::mcmahon();
        let o = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        let s = m.with_overrides(&o("handicap.ceiling", "5")).unwrap();
        assert_eq!(s.handicap.ceiling, 5);
        assert_eq!(
            PairingSettings {
                handicap: m.handicap.clone(),
                ..s.clone()
            },
            m
        );
        let s = m
            .with_overrides(&o("handicap.no_handicap_above", "3k"))
            .unwrap();
        assert_eq!(s.handicap.no_handicap_above.to_string(), "3k");
        let s = m
            .with_overrides(&o("later_seeding", "split_and_fold"))
            .unwrap();
        assert_eq!(s.later_seeding, Seeding::SplitAndFold);
        assert!(m
            .with_overrides(&o("handicap.based_on_mms", "false"))
            .is_ok());
        assert_eq!(
            m.with_overrides(&o("handicap.colour", "1")),
            Err("no pairing setting 'handicap.colour'".into())
        );
        assert!(m.with_overrides(&o("system", "swiss")).is_err());
        assert!(m.with_overrides(&o("handicap.based_on_mms", "3d")).is_err());
        assert!(m.with_overrides(&o("handicap.ceiling", "12")).is_err());
        assert!(m
            .with_overrides(&o("handicap.no_handicap_above", "3x"))
            .is_err());
    }

    #[test]
    fn weights_beyond_opengotha_s_largest_are_refused() {
        let mut m = PairingSettings::mcmahon();
        m.random = -1;
        assert_eq!(
            m.check(),
            Err("random is -1, outside 0..=1000000000".into())
        );
        let mut m = PairingSettings::mcmahon();
        m.seeding = 5_000_001;
        assert!(m.check().is_err());
        let mut m = PairingSettings::mcmahon();
        m.handicap.ceiling = 10;
        assert!(m.check().is_err());
    }
}
