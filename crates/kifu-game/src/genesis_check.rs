//! What a genesis must hold before it is signed: values every projection
//! can play under.

use kifu_ledger::{GameKind, Genesis, Role, TimeControl};

/// A genesis value no game can be played under.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenesisError {
    /// The board size is outside what the game allows.
    #[error("board size {size} is not allowed for {game} (allowed: {allowed})")]
    BoardSize {
        /// The size given.
        size: u8,
        /// The game, in words.
        game: &'static str,
        /// The sizes allowed, in words.
        allowed: &'static str,
    },
    /// No player holds a colour.
    #[error("the roster has no {0} player")]
    MissingPlayer(&'static str),
    /// The ruleset name is not a profile of this game.
    #[error("unknown ruleset {name:?} for {game} (known: {known})")]
    UnknownRuleset {
        /// The name given.
        name: String,
        /// The game, in words.
        game: &'static str,
        /// The profiles known, in words.
        known: String,
    },
    /// A handicap the board cannot take.
    #[error("a handicap of {stones} is not possible on {size}x{size}")]
    Handicap {
        /// Stones asked for.
        stones: u8,
        /// The board size.
        size: u8,
    },
    /// A time control no clock can run.
    #[error("time control: {0}")]
    Time(&'static str),
    /// An opening rule named for a Go game: openings are Renju's.
    #[error("a Go game has no opening rule (the opening rules are Renju's: name none, or make the game Renju)")]
    OpeningForGo,
}

/// The Go profiles' names, in words (`kifu_go::PROFILE_NAMES`).
fn go_rulesets() -> String {
    kifu_go::PROFILE_NAMES.join(", ")
}

/// The Renju and Gomoku rules' names, in words (`kifu_renju::Rule::ALL`).
fn renju_rulesets() -> String {
    kifu_renju::Rule::ALL.map(|r| r.name()).join(", ")
}

/// The ruleset profile a game of this kind is recorded under when nobody
/// names one: the LGC 2023 rules for Go (`kifu_go::DEFAULT_PROFILE`), the
/// RIF rules for Renju (`kifu_renju::Rule::default`), and for Gomoku the
/// rule the kind is (`convert::gomoku_rule`).
pub fn default_ruleset(game: GameKind) -> &'static str {
    match (game, crate::convert::gomoku_rule(game)) {
        (GameKind::Go, _) => kifu_go::DEFAULT_PROFILE,
        (_, Some(rule)) => rule.name(),
        (_, None) => kifu_renju::Rule::default().name(),
    }
}

/// The komi, in half points, that a game's profile gives when none is
/// stated: the profile's komi for an even game, or for a handicap game (Go;
/// each profile's value cites its document, `kifu_go::Ruleset::komi`), and
/// none for Renju and Gomoku, which have no komi.
///
/// # Errors
///
/// A ruleset name that is not a Go profile, for a Go game.
pub fn profile_komi(game: GameKind, ruleset: &str, handicap: u8) -> Result<i32, GenesisError> {
    if game != GameKind::Go {
        return Ok(0);
    }
    kifu_go::Ruleset::by_name(ruleset)
        .map(|r| r.komi(u32::from(handicap)).half_points())
        .map_err(|_| GenesisError::UnknownRuleset {
            name: ruleset.to_string(),
            game: "Go",
            known: go_rulesets(),
        })
}

/// The komi, in half points, of a game at a tournament's board: the komi
/// the tournament states for its even games, and for a handicap game the
/// profile's handicap komi ([`profile_komi`]; LGC 2023: "In a handicap game
/// it is 0.5 to White").
///
/// # Errors
///
/// A handicap game under a ruleset name that is not a Go profile.
pub fn tournament_game_komi(
    game: GameKind,
    ruleset: &str,
    handicap: u8,
    even_komi_half_points: i32,
) -> Result<i32, GenesisError> {
    if handicap == 0 {
        Ok(even_komi_half_points)
    } else {
        profile_komi(game, ruleset, handicap)
    }
}

/// Checks a genesis: board size, both players present, a ruleset profile of
/// the game named (a Renju game under a Go profile is refused), a handicap
/// the board can take, a time control whose periods, blocks and moves have
/// time in them.
///
/// # Errors
///
/// The first value that is refused.
pub fn check_genesis_values(g: &Genesis) -> Result<(), GenesisError> {
    let go = g.game == GameKind::Go;
    if go && !(kifu_go::MIN_SIZE..=kifu_go::MAX_SIZE).contains(&g.board_size) {
        return Err(GenesisError::BoardSize {
            size: g.board_size,
            game: "Go",
            allowed: "2 to 25",
        });
    }
    if !go && g.board_size != 15 {
        return Err(GenesisError::BoardSize {
            size: g.board_size,
            game: "Renju and Gomoku",
            allowed: "15",
        });
    }
    for (role, name) in [(Role::Black, "Black"), (Role::White, "White")] {
        if g.holder(role).is_none() {
            return Err(GenesisError::MissingPlayer(name));
        }
    }
    if go {
        if kifu_go::Ruleset::by_name(&g.ruleset).is_err() {
            return Err(GenesisError::UnknownRuleset {
                name: g.ruleset.clone(),
                game: "Go",
                known: go_rulesets(),
            });
        }
    } else if g.ruleset.parse::<kifu_renju::Rule>().is_err() {
        return Err(GenesisError::UnknownRuleset {
            name: g.ruleset.clone(),
            game: "Renju and Gomoku",
            known: renju_rulesets(),
        });
    }
    let free = g
        .overrides
        .iter()
        .any(|(k, v)| k == "handicap_placement" && v == "free");
    let area = u32::from(g.board_size) * u32::from(g.board_size);
    let handicap_ok = match g.handicap {
        0 => true,
        _ if !go => false,
        1 => true,
        h if free => u32::from(h) < area / 2,
        h => kifu_go::fixed_handicap_points(g.board_size, u32::from(h)).is_ok(),
    };
    if !handicap_ok {
        return Err(GenesisError::Handicap {
            stones: g.handicap,
            size: g.board_size,
        });
    }
    match g.time_control {
        TimeControl::Byoyomi {
            periods, period_ms, ..
        } => {
            if periods == 0 {
                return Err(GenesisError::Time("byo-yomi needs at least one period"));
            }
            if period_ms == 0 {
                return Err(GenesisError::Time("a byo-yomi period of zero seconds"));
            }
        }
        TimeControl::Canadian {
            stones, block_ms, ..
        } => {
            if stones == 0 {
                return Err(GenesisError::Time("a Canadian block of zero stones"));
            }
            if block_ms == 0 {
                return Err(GenesisError::Time("a Canadian block of zero seconds"));
            }
        }
        TimeControl::Simple { per_move_ms: 0 } => {
            return Err(GenesisError::Time("simple time of zero seconds a move"));
        }
        TimeControl::SuddenDeath { main_ms: 0 } => {
            return Err(GenesisError::Time("sudden death with no time"));
        }
        TimeControl::Fischer {
            main_ms: 0,
            increment_ms: 0,
            ..
        } => return Err(GenesisError::Time("Fischer time with no time at all")),
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::{Keypair, Participant};

    fn genesis() -> Genesis {
        let key = Keypair::from_seed([7; 32]).public();
        Genesis {
            game: GameKind::Go,
            ruleset: kifu_go::Ruleset::lgc_2023().name.clone(),
            overrides: vec![],
            board_size: 9,
            handicap: 0,
            komi_half_points: 15,
            time_control: TimeControl::Untimed,
            roster: vec![
                Participant {
                    role: Role::Black,
                    name: "B".into(),
                    key,
                },
                Participant {
                    role: Role::White,
                    name: "W".into(),
                    key,
                },
            ],
            tournament: None,
            title: String::new(),
            auto_declare: false,
        }
    }

    #[test]
    fn values_no_game_can_be_played_under_are_refused() {
        assert_eq!(check_genesis_values(&genesis()), Ok(()));
        let mut g = genesis();
        g.handicap = 50;
        assert!(matches!(
            check_genesis_values(&g),
            Err(GenesisError::Handicap { .. })
        ));
        let mut g = genesis();
        g.ruleset = "lgc-2032".into();
        assert!(matches!(
            check_genesis_values(&g),
            Err(GenesisError::UnknownRuleset { .. })
        ));
        let mut g = genesis();
        g.game = GameKind::Renju;
        g.board_size = 15;
        assert!(matches!(
            check_genesis_values(&g),
            Err(GenesisError::UnknownRuleset { .. })
        ));
        g.ruleset = kifu_renju::Rule::RifRenju.name().into();
        assert_eq!(check_genesis_values(&g), Ok(()));
        let mut g = genesis();
        g.time_control = TimeControl::Byoyomi {
            main_ms: 60_000,
            periods: 5,
            period_ms: 0,
        };
        assert!(matches!(
            check_genesis_values(&g),
            Err(GenesisError::Time(_))
        ));
        let mut g = genesis();
        g.roster.pop();
        assert_eq!(
            check_genesis_values(&g),
            Err(GenesisError::MissingPlayer("White"))
        );
    }

    #[test]
    fn every_game_kind_defaults_to_a_ruleset_its_rules_know() {
        use kifu_ledger::GameKind;
        assert!(kifu_go::Ruleset::by_name(default_ruleset(GameKind::Go)).is_ok());
        assert_eq!(
            default_ruleset(GameKind::Go),
            kifu_go::Ruleset::fallback().name()
        );
        for (kind, rule) in [
            (GameKind::Renju, kifu_renju::Rule::RifRenju),
            (GameKind::GomokuFreestyle, kifu_renju::Rule::GomokuFreestyle),
            (GameKind::GomokuStandard, kifu_renju::Rule::GomokuStandard),
        ] {
            assert_eq!(
                default_ruleset(kind).parse::<kifu_renju::Rule>().ok(),
                Some(rule),
                "{kind}"
            );
            assert!(kifu_go::Ruleset::by_name(default_ruleset(kind)).is_err());
            // A game recorded under its default passes the genesis check.
            let mut g = genesis();
            g.game = kind;
            g.board_size = 15;
            g.komi_half_points = 0;
            g.ruleset = default_ruleset(kind).into();
            assert_eq!(check_genesis_values(&g), Ok(()), "{kind}");
        }
        let mut g = genesis();
        g.ruleset = default_ruleset(GameKind::Go).into();
        assert_eq!(check_genesis_values(&g), Ok(()));
    }

    #[test]
    fn a_tournament_game_takes_the_tournament_s_komi_even_and_the_profile_s_with_handicap() {
        let lgc = kifu_go::Ruleset::lgc_2023();
        // The tournament's own komi for an even game, whatever the profile's.
        assert_eq!(
            tournament_game_komi(GameKind::Go, lgc.name(), 0, 12),
            Ok(12)
        );
        assert_eq!(
            tournament_game_komi(GameKind::Go, lgc.name(), 2, 12),
            Ok(lgc.komi(2).half_points())
        );
        assert_eq!(lgc.komi(2).half_points(), 1);
        assert!(tournament_game_komi(GameKind::Go, "no-such-rules", 2, 12).is_err());
        assert_eq!(
            tournament_game_komi(GameKind::Renju, default_ruleset(GameKind::Renju), 0, 0),
            Ok(0)
        );
    }
}
