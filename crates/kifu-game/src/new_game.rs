//! A new game as a person names it, settled into its genesis: what they
//! leave out (the ruleset, the komi) is given by the rules of the game.

use kifu_ledger::{GameKind, Genesis, Participant, TimeControl, TournamentRef};

use crate::genesis_check::{profile_komi, GenesisError};

/// The settings of a new game, some of them left to the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGame {
    /// The game played.
    pub game: GameKind,
    /// The ruleset profile; `None`: the game's own default
    /// ([`crate::default_ruleset`]).
    pub ruleset: Option<String>,
    /// A Renju opening rule (`rif`, `yamaguchi`, `soosorv-N`, ...), kept
    /// as the genesis override `opening`.
    pub opening: Option<String>,
    /// Lines of the board.
    pub board_size: u8,
    /// Handicap stones.
    pub handicap: u8,
    /// Komi in half points; `None`: the profile's komi for this handicap
    /// ([`profile_komi`]).
    pub komi_half_points: Option<i32>,
    /// The time control.
    pub time_control: TimeControl,
    /// Who plays and who officiates.
    pub roster: Vec<Participant>,
    /// The tournament round and board, if any.
    pub tournament: Option<TournamentRef>,
    /// The title.
    pub title: String,
    /// Whether the result is declared as soon as the projection decides it.
    pub auto_declare: bool,
}

impl NewGame {
    /// The genesis: the ruleset and komi left out settled by the rules.
    /// The values are checked when the genesis is signed
    /// ([`crate::check_genesis_values`]).
    ///
    /// # Errors
    ///
    /// An opening rule for a Go game (Go has none); a ruleset that is not a
    /// Go profile when the komi is to come from it.
    pub fn settle(self) -> Result<Genesis, GenesisError> {
        if self.opening.is_some() && self.game == GameKind::Go {
            return Err(GenesisError::OpeningForGo);
        }
        let ruleset = self
            .ruleset
            .unwrap_or_else(|| crate::default_ruleset(self.game).to_string());
        let komi_half_points = match self.komi_half_points {
            Some(k) => k,
            None => profile_komi(self.game, &ruleset, self.handicap)?,
        };
        Ok(Genesis {
            game: self.game,
            ruleset,
            overrides: self
                .opening
                .map(|o| vec![("opening".to_string(), o)])
                .unwrap_or_default(),
            board_size: self.board_size,
            handicap: self.handicap,
            komi_half_points,
            time_control: self.time_control,
            roster: self.roster,
            tournament: self.tournament,
            title: self.title,
            auto_declare: self.auto_declare,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(game: GameKind) -> NewGame {
        NewGame {
            game,
            ruleset: None,
            opening: None,
            board_size: 19,
            handicap: 0,
            komi_half_points: None,
            time_control: TimeControl::Untimed,
            roster: vec![],
            tournament: None,
            title: "t".into(),
            auto_declare: false,
        }
    }

    #[test]
    fn what_is_left_out_comes_from_the_rules_of_the_game() {
        let g = named(GameKind::Go).settle().unwrap();
        assert_eq!(g.ruleset, crate::default_ruleset(GameKind::Go));
        assert_eq!(
            g.komi_half_points,
            profile_komi(GameKind::Go, &g.ruleset, 0).unwrap()
        );
        // A handicap game under the Japanese rules has komi ½ (japanese-2022).
        let mut h = named(GameKind::Go);
        h.ruleset = Some(kifu_go::profile::JAPANESE.into());
        h.handicap = 2;
        assert_eq!(h.settle().unwrap().komi_half_points, 1);
        let r = named(GameKind::Renju).settle().unwrap();
        assert_eq!(
            (r.ruleset.as_str(), r.komi_half_points),
            (crate::default_ruleset(GameKind::Renju), 0)
        );
    }

    #[test]
    fn what_is_named_is_kept_and_an_opening_is_renju_only() {
        let mut g = named(GameKind::Go);
        g.komi_half_points = Some(-3);
        assert_eq!(g.settle().unwrap().komi_half_points, -3);
        let mut r = named(GameKind::Renju);
        r.opening = Some("yamaguchi".into());
        assert_eq!(
            r.settle().unwrap().overrides,
            vec![("opening".to_string(), "yamaguchi".to_string())]
        );
        let mut bad = named(GameKind::Go);
        bad.opening = Some("rif".into());
        assert_eq!(bad.settle().unwrap_err(), GenesisError::OpeningForGo);
        let mut unknown = named(GameKind::Go);
        unknown.ruleset = Some("chess".into());
        assert!(matches!(
            unknown.settle().unwrap_err(),
            GenesisError::UnknownRuleset { .. }
        ));
    }
}
