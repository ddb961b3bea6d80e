//! The rules a game's genesis names, worked out once: the Go ruleset of its
//! profile, or the Renju and Gomoku settings of its game and profile, with
//! its overrides applied in the order recorded (`docs/RULESETS.md`,
//! "Genesis overrides").
//!
//! The projection plays a recorded genesis under what is found here and
//! never refuses it (an unknown profile falls back, an override refused is
//! noted); a command that creates a game refuses the same findings before
//! signing ([`crate::check_overrides`]).

use kifu_ledger::Genesis;
use kifu_renju::{GameSettings, OpeningRule, Rule};

/// The rules a game is played under.
#[derive(Debug, Clone, PartialEq)]
pub enum GameRules {
    /// A Go ruleset.
    Go(Box<kifu_go::Ruleset>),
    /// Renju's or Gomoku's settings.
    Renju(GameSettings),
}

/// The rules of a genesis and what of it they could not follow.
#[derive(Debug, Clone, PartialEq)]
pub struct RulesOf {
    /// The rules: the profile's, or the fallback's when the profile is not
    /// known, with every override that could be applied.
    pub rules: GameRules,
    /// The profile the genesis names, when no ruleset of that name is
    /// known: why, in words, and the name of the fallback played instead.
    pub unknown_profile: Option<(String, String)>,
    /// Each override refused, in words, in the order recorded.
    pub refused_overrides: Vec<String>,
}

/// The rules of genesis `g`; for Go, `given` (a ruleset as a value) stands
/// instead of the profile the genesis names.
pub fn rules_of(g: &Genesis, given: Option<&kifu_go::Ruleset>) -> RulesOf {
    let mut refused_overrides = Vec::new();
    match crate::convert::gomoku_rule(g.game) {
        None if g.game == kifu_ledger::GameKind::Go => {
            let (mut ruleset, unknown_profile) = match given {
                Some(r) => (r.clone(), None),
                None => match kifu_go::Ruleset::by_name(&g.ruleset) {
                    Ok(r) => (r, None),
                    Err(e) => {
                        let fallback = kifu_go::Ruleset::fallback();
                        let name = fallback.name().to_string();
                        (fallback, Some((e.to_string(), name)))
                    }
                },
            };
            for (k, v) in &g.overrides {
                if let Err(e) = ruleset.apply_override(k, v) {
                    refused_overrides.push(e.to_string());
                }
            }
            RulesOf {
                rules: GameRules::Go(Box::new(ruleset)),
                unknown_profile,
                refused_overrides,
            }
        }
        gomoku => {
            let (rule, unknown_profile) = match gomoku {
                Some(r) => (r, None),
                None => match g.ruleset.parse::<Rule>() {
                    Ok(r) => (r, None),
                    Err(e) => {
                        let fallback = Rule::default();
                        (fallback, Some((e.to_string(), fallback.to_string())))
                    }
                },
            };
            let mut settings = GameSettings {
                rule,
                opening: OpeningRule::Free,
                auto_declare: g.auto_declare,
                auto_claim_forbidden: false,
            };
            for (k, v) in &g.overrides {
                if let Err(e) = settings.apply_override(k, v) {
                    refused_overrides.push(e.to_string());
                }
            }
            RulesOf {
                rules: GameRules::Renju(settings),
                unknown_profile,
                refused_overrides,
            }
        }
    }
}

impl RulesOf {
    /// What the projection notes of genesis `g` under these rules, each
    /// with the document it follows: the profile played instead of an
    /// unknown one, then each override not applied.
    pub fn notes(&self, g: &Genesis) -> Vec<(String, &'static str)> {
        const OVERRIDES: &str = "docs/RULESETS.md, \"Genesis overrides\"";
        let mut out = Vec::new();
        if let Some((_, fallback)) = &self.unknown_profile {
            out.push(match self.rules {
                GameRules::Go(_) => (
                    format!(
                        "unknown Go profile \"{}\": the board is projected under {fallback}",
                        g.ruleset
                    ),
                    "docs/RULESETS.md, profiles",
                ),
                GameRules::Renju(_) => (
                    format!(
                        "unknown Renju profile \"{}\": played under {fallback}",
                        g.ruleset
                    ),
                    OVERRIDES,
                ),
            });
        }
        out.extend(
            self.refused_overrides
                .iter()
                .map(|e| (format!("genesis override not applied: {e}"), OVERRIDES)),
        );
        out
    }
}
