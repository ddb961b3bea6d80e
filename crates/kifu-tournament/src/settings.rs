//! A new tournament's genesis from what its director chose, with the
//! defaults filled in as OpenGotha fills them (McMahon, bar 4d, floor 20k,
//! a bye worth 1 NBW and 1 MMS, an absence ½ MMS, the sum rounded down;
//! criteria MMS, SOSM, SOSOSM for McMahon and NBW, SOSW, SOSOSW otherwise;
//! the EGF class and adjusted time from the time control, `egf.rs`). The
//! command line (`kifu tournament new`) and the director's page both build
//! their genesis here, so a tournament means the same whichever face
//! created it.

use kifu_ledger::{GameKind, PairingSystem, Participant, TimeControl, TournamentGenesis};
use kifu_standings::Criterion;

use crate::{genesis_settings, TournamentError};

/// What a director chose; `None` takes the default.
#[derive(Debug, Clone)]
pub struct NewTournament {
    /// Full name.
    pub name: String,
    /// Short name (default: the full name).
    pub short_name: Option<String>,
    /// City.
    pub city: String,
    /// Two-letter country code.
    pub country: String,
    /// First day, `YYYY-MM-DD`.
    pub start: String,
    /// Last day.
    pub finish: String,
    /// Number of rounds.
    pub rounds: u32,
    /// `mcmahon` (default), `swiss`, `round-robin` or `knockout`.
    pub system: Option<String>,
    /// Placement criteria, `MMS,SOSM,SOSOSM` (default: by the system).
    pub criteria: Option<String>,
    /// McMahon bar (default 4d).
    pub bar: Option<String>,
    /// McMahon floor (default 20k).
    pub floor: Option<String>,
    /// NBW half points for a bye (default 2).
    pub bye_nbw_halves: Option<u8>,
    /// MMS half points for a bye (default 2).
    pub bye_mms_halves: Option<u8>,
    /// NBW half points for an absent round (default 0).
    pub absent_nbw_halves: Option<u8>,
    /// MMS half points for an absent round (default 1).
    pub absent_mms_halves: Option<u8>,
    /// Round the sum of bye and absence points down (default true).
    pub round_down: Option<bool>,
    /// Count opponents' unplayed rounds as ½ in SOS (default false).
    pub unplayed_as_half: Option<bool>,
    /// The game (default Go).
    pub game: Option<GameKind>,
    /// The games' ruleset profile (default: the game's).
    pub ruleset: Option<String>,
    /// The games' time control (default Canadian 60 min + 15 stones in 5 min).
    pub time_control: Option<TimeControl>,
    /// Komi in half points (default 15: 7.5).
    pub komi_half_points: Option<i32>,
    /// EGF class A, B, C, D or X (default: from the time control).
    pub egf_class: Option<String>,
    /// EGF adjusted time in minutes (default: from the time control).
    pub adjusted_time: Option<u32>,
    /// Handicap reduction for the EGD file (default 0); when given, also
    /// the draw's (OpenGotha's `hdCorrection`, default 1 in McMahon).
    pub handicap_reduction: Option<u32>,
    /// The draw's handicap from the McMahon scores before the round
    /// rather than the ranks (default true in McMahon).
    pub handicap_based_on_mms: Option<bool>,
    /// No handicap between players at or above this rank (default 1d in
    /// McMahon).
    pub no_handicap_above: Option<String>,
    /// The most handicap stones the draw gives (default 9 in McMahon).
    pub handicap_ceiling: Option<u8>,
    /// The director first, then referees and committee members.
    pub officials: Vec<Participant>,
}

impl NewTournament {
    /// A tournament called `name` of `rounds` rounds, every other choice
    /// the default.
    pub fn named(name: &str, rounds: u32, officials: Vec<Participant>) -> NewTournament {
        NewTournament {
            name: name.into(),
            short_name: None,
            city: String::new(),
            country: String::new(),
            start: String::new(),
            finish: String::new(),
            rounds,
            system: None,
            criteria: None,
            bar: None,
            floor: None,
            bye_nbw_halves: None,
            bye_mms_halves: None,
            absent_nbw_halves: None,
            absent_mms_halves: None,
            round_down: None,
            unplayed_as_half: None,
            game: None,
            ruleset: None,
            time_control: None,
            komi_half_points: None,
            egf_class: None,
            adjusted_time: None,
            handicap_reduction: None,
            handicap_based_on_mms: None,
            no_handicap_above: None,
            handicap_ceiling: None,
            officials,
        }
    }
}

/// A pairing system from its name.
pub fn pairing_system(s: &str) -> Result<PairingSystem, TournamentError> {
    Ok(match s.trim() {
        "mcmahon" => PairingSystem::McMahon,
        "swiss" => PairingSystem::Swiss,
        "round-robin" => PairingSystem::RoundRobin,
        "knockout" => PairingSystem::Knockout,
        other => {
            return Err(TournamentError::Settings(format!(
                "unknown pairing system '{other}' (mcmahon, swiss, round-robin, knockout)"
            )))
        }
    })
}

/// The system with the draw settings `n` changes from the engine's
/// defaults, each checked by the engine: `McMahonDrawn` or `SwissDrawn`
/// naming the engine when any is given, the plain system otherwise (the
/// engine's defaults, as a genesis written before these settings states
/// them).
fn with_draw_rules(
    system: PairingSystem,
    n: &NewTournament,
) -> Result<PairingSystem, TournamentError> {
    let mut overrides: Vec<(String, String)> = Vec::new();
    if let Some(v) = n.handicap_based_on_mms {
        overrides.push(("handicap.based_on_mms".into(), v.to_string()));
    }
    if let Some(v) = &n.no_handicap_above {
        let rank: kifu_standings::Rank = v.parse()?;
        overrides.push(("handicap.no_handicap_above".into(), rank.to_string()));
    }
    if let Some(v) = n.handicap_reduction {
        overrides.push(("handicap.reduction".into(), v.to_string()));
    }
    if let Some(v) = n.handicap_ceiling {
        overrides.push(("handicap.ceiling".into(), v.to_string()));
    }
    if overrides.is_empty() {
        return Ok(system);
    }
    let defaults = match system {
        PairingSystem::McMahon => kifu_pairing::PairingSettings::mcmahon(),
        PairingSystem::Swiss => kifu_pairing::PairingSettings::swiss(),
        other => {
            return Err(TournamentError::Settings(format!(
                "handicap settings for the draw need a McMahon or Swiss tournament, not {other:?}"
            )))
        }
    };
    defaults
        .with_overrides(&overrides)
        .map_err(TournamentError::Settings)?;
    let rules = kifu_ledger::DrawRules {
        engine: kifu_pairing::ENGINE.into(),
        overrides,
    };
    Ok(match system {
        PairingSystem::McMahon => PairingSystem::McMahonDrawn(rules),
        _ => PairingSystem::SwissDrawn(rules),
    })
}

/// The games' time control when none is chosen: Canadian, 60 minutes,
/// then 15 stones in 5 minutes.
pub const DEFAULT_TIME_CONTROL: TimeControl = TimeControl::Canadian {
    main_ms: 60 * 60_000,
    stones: 15,
    block_ms: 5 * 60_000,
};

/// The scoring a tournament of `system` starts from when its director
/// chooses nothing: OpenGotha's defaults, held once by the standings model
/// (`kifu_standings::Settings::mcmahon`: bar 4d, floor 20k, a bye 1 NBW
/// and 1 MMS, an absence ½ MMS, rounded down, criteria MMS, SOSM, SOSOSM;
/// `Settings::swiss` for every other system: the same points, criteria
/// NBW, SOSW, SOSOSW).
pub fn scoring_defaults(system: &PairingSystem, rounds: u32) -> kifu_standings::Settings {
    if system.base() == PairingSystem::McMahon {
        kifu_standings::Settings::mcmahon(rounds)
    } else {
        kifu_standings::Settings::swiss(rounds)
    }
}

/// The genesis of the tournament `n` describes, defaults filled in and
/// its settings checked ([`genesis_settings`]).
pub fn genesis(n: NewTournament) -> Result<TournamentGenesis, TournamentError> {
    let bad = TournamentError::Settings;
    if n.name.trim().is_empty() {
        return Err(bad("a tournament needs a name".into()));
    }
    let system = with_draw_rules(
        pairing_system(n.system.as_deref().unwrap_or("mcmahon"))?,
        &n,
    )?;
    let defaults = scoring_defaults(&system, n.rounds);
    let criteria = match n.criteria.as_deref() {
        Some(c) => Criterion::parse_list(c).map_err(|e| bad(e.to_string()))?,
        None => defaults.criteria.clone(),
    };
    let game = n.game.unwrap_or(GameKind::Go);
    let time_control = n.time_control.unwrap_or(DEFAULT_TIME_CONTROL);
    // Without a time control that gives them, the class and adjusted time
    // stay unknown (empty class, 0 minutes) and the `.h9` export refuses
    // to guess them.
    let egf = crate::egf::timing(&time_control).ok();
    let egf_class = n
        .egf_class
        .map(|c| c.trim().to_ascii_uppercase())
        .or_else(|| egf.as_ref().map(|t| t.class.to_string()))
        .unwrap_or_default();
    if !egf_class.is_empty() && !["A", "B", "C", "D", "X"].contains(&egf_class.as_str()) {
        return Err(bad(format!(
            "EGF class '{egf_class}' is not A, B, C, D or X"
        )));
    }
    let halves = |v: Option<u8>, default: u8, what: &str| -> Result<u8, TournamentError> {
        match v.unwrap_or(default) {
            h @ 0..=4 => Ok(h),
            _ => Err(bad(format!("{what} is not 0, 0.5, 1, 1.5 or 2 points"))),
        }
    };
    let ruleset = n
        .ruleset
        .unwrap_or_else(|| kifu_game::default_ruleset(game).into());
    // The even games' komi when none is named: the profile's (LGC 2023 7½,
    // Japanese 6½, ...; none in Renju), as for a game (`kifu_game::profile_komi`).
    let komi_half_points = match n.komi_half_points {
        Some(k) => k,
        None => kifu_game::profile_komi(game, &ruleset, 0).map_err(|e| bad(e.to_string()))?,
    };
    let g = TournamentGenesis {
        short_name: n.short_name.clone().unwrap_or_else(|| n.name.clone()),
        name: n.name,
        city: n.city,
        country: n.country,
        start: n.start,
        finish: n.finish,
        game,
        ruleset,
        time_control,
        komi_half_points,
        system,
        rounds: n.rounds,
        mm_bar: n.bar.unwrap_or_else(|| defaults.mm_bar.to_string()),
        mm_floor: n.floor.unwrap_or_else(|| defaults.mm_floor.to_string()),
        nbw2_bye: halves(n.bye_nbw_halves, defaults.nbw2_bye, "bye NBW")?,
        mms2_bye: halves(n.bye_mms_halves, defaults.mms2_bye, "bye MMS")?,
        nbw2_absent: halves(n.absent_nbw_halves, defaults.nbw2_absent, "absent NBW")?,
        mms2_absent: halves(n.absent_mms_halves, defaults.mms2_absent, "absent MMS")?,
        round_down_bye_absent: n.round_down.unwrap_or(defaults.round_down_bye_absent),
        unplayed_as_half: n.unplayed_as_half.unwrap_or(defaults.unplayed_as_half),
        criteria: criteria.iter().map(|c| c.name().to_string()).collect(),
        adjusted_time_minutes: n
            .adjusted_time
            .or_else(|| egf.as_ref().map(|t| t.adjusted_minutes))
            .unwrap_or(0),
        egf_class,
        handicap_reduction: n.handicap_reduction.unwrap_or(0),
        officials: n.officials,
    };
    genesis_settings(&g)?;
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_opengotha_s_mcmahon_and_the_class_comes_from_the_time() {
        let g = genesis(NewTournament::named("Spring Open", 5, vec![])).expect("genesis");
        let mut m = crate::mcmahon_genesis("Spring Open", "Spring Open", 5, vec![]);
        let timing = crate::egf::timing(&g.time_control).expect("classified");
        assert_eq!(g.egf_class, timing.class.to_string());
        assert_eq!(g.adjusted_time_minutes, timing.adjusted_minutes);
        m.adjusted_time_minutes = g.adjusted_time_minutes;
        assert_eq!(g, m);
        let mut swiss = NewTournament::named("Cup", 3, vec![]);
        swiss.system = Some("swiss".into());
        swiss.short_name = Some("cup".into());
        let g = genesis(swiss).expect("genesis");
        assert_eq!(g.criteria, ["NBW", "SOSW", "SOSOSW"]);
        assert_eq!(g.short_name, "cup");
    }

    #[test]
    fn draw_settings_name_the_engine_and_only_what_differs() {
        let plain = genesis(NewTournament::named("Cup", 3, vec![])).expect("genesis");
        assert_eq!(plain.system, PairingSystem::McMahon);
        let mut n = NewTournament::named("Cup", 3, vec![]);
        n.handicap_based_on_mms = Some(false);
        n.no_handicap_above = Some("3K".into());
        n.handicap_ceiling = Some(5);
        let g = genesis(n).expect("genesis");
        let rules = g.system.draw_rules().expect("the draw's settings");
        assert_eq!(rules.engine, kifu_pairing::ENGINE);
        assert_eq!(
            rules.overrides,
            [
                ("handicap.based_on_mms".to_string(), "false".to_string()),
                ("handicap.no_handicap_above".into(), "3k".into()),
                ("handicap.ceiling".into(), "5".into()),
            ]
        );
        assert_eq!(g.system.base(), PairingSystem::McMahon);
        assert_eq!(g.criteria, ["MMS", "SOSM", "SOSOSM"]);
        let mut n = NewTournament::named("Cup", 3, vec![]);
        n.handicap_ceiling = Some(12);
        assert!(genesis(n).is_err());
        let mut n = NewTournament::named("Cup", 3, vec![]);
        n.no_handicap_above = Some("dan".into());
        assert!(genesis(n).is_err());
    }

    #[test]
    fn bad_choices_are_refused_in_words() {
        let mut n = NewTournament::named("Cup", 3, vec![]);
        n.system = Some("random".into());
        assert!(genesis(n)
            .unwrap_err()
            .to_string()
            .contains("unknown pairing system"));
        let mut n = NewTournament::named("Cup", 3, vec![]);
        n.egf_class = Some("Q".into());
        assert!(genesis(n)
            .unwrap_err()
            .to_string()
            .contains("EGF class 'Q'"));
        assert!(genesis(NewTournament::named("Cup", 0, vec![])).is_err());
        assert!(genesis(NewTournament::named(" ", 1, vec![])).is_err());
        let mut n = NewTournament::named("Cup", 3, vec![]);
        n.bye_mms_halves = Some(5);
        assert!(genesis(n).is_err());
    }

    #[test]
    fn the_komi_left_out_is_the_profiles_for_an_even_game() {
        let even = |ruleset: Option<&str>, game: Option<GameKind>| {
            let mut n = NewTournament::named("Cup", 3, vec![]);
            n.ruleset = ruleset.map(str::to_string);
            n.game = game;
            genesis(n).map(|g| g.komi_half_points)
        };
        assert_eq!(
            even(None, None).unwrap(),
            kifu_game::profile_komi(GameKind::Go, kifu_game::default_ruleset(GameKind::Go), 0)
                .unwrap()
        );
        // Japanese 1989: 6½ in an even game.
        assert_eq!(even(Some(kifu_go::profile::JAPANESE), None).unwrap(), 13);
        assert_eq!(even(None, Some(GameKind::Renju)).unwrap(), 0);
        assert!(even(Some("no-such-rules"), None).is_err());
        let mut named = NewTournament::named("Cup", 3, vec![]);
        named.ruleset = Some(kifu_go::profile::JAPANESE.into());
        named.komi_half_points = Some(-1);
        assert_eq!(genesis(named).unwrap().komi_half_points, -1);
    }
}
