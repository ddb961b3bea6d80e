//! A round drawn from the chain by the pairing engine (`kifu-pairing`,
//! OpenGotha 3.51.02's McMahon and Swiss draw), written as the facts a
//! director signs (`paired`, `bye_given`), and a recorded round compared
//! with the engine's draw of it.
//!
//! The engine's settings are OpenGotha's defaults for the tournament's
//! system (McMahon or Swiss), changed by the overrides the genesis records
//! with the engine's name (`PairingSystem::McMahonDrawn`, `SwissDrawn`),
//! and the scoring settings of the genesis (bar, floor, bye and absence
//! points, the placement criteria), so every kifu with the same engine
//! draws the same round from the same chain.

use std::collections::BTreeMap;

use kifu_ledger::{Body, PairingSystem, TournamentGenesis};
use kifu_pairing::{Draw, PairingError, PairingSettings, System};
use kifu_standings::Tournament;

use crate::{entry, Projection, TournamentError};

/// Why the engine cannot draw a round of this tournament.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The engine draws McMahon and Swiss rounds only.
    #[error("the pairing engine draws McMahon and Swiss rounds; this tournament is {0}")]
    System(&'static str),
    /// The genesis names another engine than this kifu's.
    #[error(
        "the tournament is drawn by {recorded}; this kifu draws with {}",
        kifu_pairing::ENGINE
    )]
    Engine {
        /// The engine the genesis names.
        recorded: String,
    },
    /// The chain does not give a standings model.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The draw itself failed.
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

/// The engine's settings for a tournament: OpenGotha's defaults for its
/// system, changed by the overrides its genesis records. A genesis that
/// names another engine (an earlier or later version) is refused: this
/// kifu could not promise the same draw.
pub fn settings(g: &TournamentGenesis) -> Result<PairingSettings, DrawError> {
    let defaults = match g.system.base() {
        PairingSystem::McMahon => PairingSettings::for_system(System::McMahon),
        PairingSystem::Swiss => PairingSettings::for_system(System::Swiss),
        PairingSystem::RoundRobin => return Err(DrawError::System("a round robin")),
        _ => return Err(DrawError::System("a knockout")),
    };
    match g.system.draw_rules() {
        None => Ok(defaults),
        Some(r) if r.engine != kifu_pairing::ENGINE => Err(DrawError::Engine {
            recorded: r.engine.clone(),
        }),
        Some(r) => defaults
            .with_overrides(&r.overrides)
            .map_err(|e| DrawError::Pairing(PairingError::Settings(e))),
    }
}

/// The draw settings an OpenGotha file's `HandicapParameterSet` and
/// `PairingParameterSet` attributes give, as the overrides of the engine's
/// defaults for `system` (empty when they are the defaults). An attribute
/// left out takes the engine's default; a value the engine has no setting
/// for (an additional placement criterion other than the rating, a
/// non-deterministic random term) is left at the default.
pub fn opengotha_overrides(
    system: &PairingSystem,
    handicap: &BTreeMap<String, String>,
    pairing: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, String> {
    let defaults = match system.base() {
        PairingSystem::McMahon => PairingSettings::mcmahon(),
        PairingSystem::Swiss => PairingSettings::swiss(),
        _ => return Ok(Vec::new()),
    };
    let rank = |v: &str| -> Option<String> {
        v.parse::<kifu_standings::Rank>()
            .ok()
            .map(|r| r.to_string())
    };
    let word = |v: &str, words: &[(&str, &str)]| -> Option<String> {
        words
            .iter()
            .find(|(w, _)| v.trim().eq_ignore_ascii_case(w))
            .map(|(_, ours)| ours.to_string())
    };
    let dudd = [("TOP", "top"), ("MID", "middle"), ("BOT", "bottom")];
    let seed = [
        ("SPLITANDRANDOM", "split_and_random"),
        ("SPLITANDFOLD", "split_and_fold"),
        ("SPLITANDSLIP", "split_and_slip"),
    ];
    let extra = [("RATING", "rating"), ("NULL", "none")];
    let same = |v: &str| Some(v.trim().to_string());
    type Read<'a> = &'a dyn Fn(&str) -> Option<String>;
    let table: [(&BTreeMap<String, String>, &str, &str, Read); 25] = [
        (handicap, "hdBasedOnMMS", "handicap.based_on_mms", &same),
        (
            handicap,
            "hdNoHdRankThreshold",
            "handicap.no_handicap_above",
            &rank,
        ),
        (handicap, "hdCorrection", "handicap.reduction", &same),
        (handicap, "hdCeiling", "handicap.ceiling", &same),
        (pairing, "paiBaAvoidDuplGame", "avoid_duplicate", &same),
        (pairing, "paiBaRandom", "random", &same),
        (pairing, "paiBaBalanceWB", "balance_colours", &same),
        (
            pairing,
            "paiMaMinimizeScoreDifference",
            "minimize_score_difference",
            &same,
        ),
        (pairing, "paiMaDUDDWeight", "draw_up_down", &same),
        (
            pairing,
            "paiMaCompensateDUDD",
            "compensate_draw_up_down",
            &same,
        ),
        (pairing, "paiMaDUDDUpperMode", "draw_down_from", &|v| {
            word(v, &dudd)
        }),
        (pairing, "paiMaDUDDLowerMode", "draw_up_from", &|v| {
            word(v, &dudd)
        }),
        (pairing, "paiMaMaximizeSeeding", "seeding", &same),
        // The file writes OpenGotha's round index + 1: kifu's round number.
        (
            pairing,
            "paiMaLastRoundForSeedSystem1",
            "last_round_first_seeding",
            &same,
        ),
        (pairing, "paiMaSeedSystem1", "first_seeding", &|v| {
            word(v, &seed)
        }),
        (pairing, "paiMaSeedSystem2", "later_seeding", &|v| {
            word(v, &seed)
        }),
        (
            pairing,
            "paiMaAdditionalPlacementCritSystem1",
            "first_extra_order",
            &|v| word(v, &extra),
        ),
        (
            pairing,
            "paiMaAdditionalPlacementCritSystem2",
            "later_extra_order",
            &|v| word(v, &extra),
        ),
        (
            pairing,
            "paiSeBarThresholdActive",
            "secondary_bar_threshold",
            &same,
        ),
        (
            pairing,
            "paiSeRankThreshold",
            "secondary_rank_threshold",
            &rank,
        ),
        (
            pairing,
            "paiSeNbWinsThresholdActive",
            "secondary_wins_threshold",
            &same,
        ),
        (pairing, "paiSeMinimizeHandicap", "minimize_handicap", &same),
        (pairing, "paiSeAvoidSameGeo", "avoid_same_geo", &same),
        (
            pairing,
            "paiSePreferMMSDiffRatherThanSameCountry",
            "prefer_score_gap_to_same_country",
            &same,
        ),
        (
            pairing,
            "paiSePreferMMSDiffRatherThanSameClub",
            "prefer_score_gap_to_same_club",
            &same,
        ),
    ];
    let mut given: Vec<(String, String)> = Vec::new();
    for (attrs, attr, path, read) in table {
        if let Some(v) = attrs.get(attr).and_then(|v| read(v)) {
            given.push((path.to_string(), v));
        }
    }
    if let Some(k) = pairing.get("paiStandardNX1Factor") {
        let k: f64 = k
            .trim()
            .parse()
            .map_err(|_| format!("paiStandardNX1Factor '{k}' is not a number"))?;
        given.push((
            "nx1_factor_thousandths".into(),
            ((k * 1000.0).round() as i64).to_string(),
        ));
    }
    // Only what differs from the defaults is recorded.
    let ours = defaults.with_overrides(&given)?;
    let (a, b) = (
        serde_json::to_value(&defaults).map_err(|e| e.to_string())?,
        serde_json::to_value(&ours).map_err(|e| e.to_string())?,
    );
    let at = |v: &serde_json::Value, path: &str| -> serde_json::Value {
        path.split('.')
            .fold(v.clone(), |v, p| v.get(p).cloned().unwrap_or_default())
    };
    Ok(given
        .into_iter()
        .filter(|(path, _)| at(&a, path) != at(&b, path))
        .map(|(path, _)| {
            let v = at(&b, &path);
            let text = v
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string());
            (path, text)
        })
        .collect())
}

/// The engine's draw of `round`: the players present and not yet paired,
/// after every earlier round as the chain records it.
pub fn draw(p: &Projection, round: u32) -> Result<Draw, DrawError> {
    let s = settings(&p.genesis)?;
    Ok(kifu_pairing::pair(&p.tournament()?, round, &s)?)
}

/// The facts that record `d`: one `paired` per board (its table as the
/// board), then the bye.
pub fn facts(d: &Draw) -> Vec<Body> {
    let mut bodies: Vec<Body> = d
        .boards
        .iter()
        .map(|b| entry::pairing(d.round, b.table, &b.white, &b.black, b.handicap, None, true))
        .collect();
    if let Some(p) = &d.bye {
        bodies.push(Body::ByeGiven {
            round: d.round,
            player: p.clone(),
        });
    }
    bodies
}

/// `d` as JSON: `{"round": N, "engine": ..., "pairing": [{"table", "white",
/// "black", "handicap"}], "bye": id or null}`.
pub fn json(d: &Draw) -> serde_json::Value {
    serde_json::json!({
        "round": d.round,
        "engine": kifu_pairing::ENGINE,
        "pairing": d.boards.iter().map(|b| serde_json::json!({
            "table": b.table, "white": b.white, "black": b.black, "handicap": b.handicap,
        })).collect::<Vec<_>>(),
        "bye": d.bye,
    })
}

/// `d` in words, a board a line.
pub fn text(d: &Draw) -> String {
    let mut out = String::new();
    for b in &d.boards {
        out.push_str(&format!(
            "{} {} {} {}\n",
            b.table, b.white, b.black, b.handicap
        ));
    }
    if let Some(p) = &d.bye {
        out.push_str(&format!("# bye: {p}\n"));
    }
    out
}

/// The tournament as it stood before `round` was drawn: its games and byes
/// from `round` on left out, its absences kept.
fn before(mut t: Tournament, round: u32) -> Tournament {
    t.games.retain(|g| g.round < round);
    t.byes.retain(|(r, _)| *r < round);
    t
}

/// How the recorded `round` departs from the engine's draw of it from the
/// rounds before: one line per board or bye that differs (empty when the
/// round is the engine's, board for board).
pub fn departures(p: &Projection, round: u32) -> Result<Vec<String>, DrawError> {
    let s = settings(&p.genesis)?;
    let t = p.tournament()?;
    let engine = kifu_pairing::pair(&before(t.clone(), round), round, &s)?;
    let mut recorded: Vec<&kifu_standings::Game> =
        t.games.iter().filter(|g| g.round == round).collect();
    recorded.sort_by_key(|g| g.board);
    let bye = t
        .byes
        .iter()
        .find(|(r, _)| *r == round)
        .map(|(_, p)| p.clone());
    let mut out = Vec::new();
    for b in &engine.boards {
        match recorded.iter().find(|g| g.board == b.table) {
            Some(g) if g.white == b.white && g.black == b.black && g.handicap == b.handicap => {}
            Some(g) => out.push(format!(
                "round {round} board {}: recorded {} - {} h{}, the engine draws {} - {} h{}",
                b.table, g.white, g.black, g.handicap, b.white, b.black, b.handicap
            )),
            None => out.push(format!(
                "round {round} board {}: not recorded, the engine draws {} - {} h{}",
                b.table, b.white, b.black, b.handicap
            )),
        }
    }
    for g in &recorded {
        if !engine.boards.iter().any(|b| b.table == g.board) {
            out.push(format!(
                "round {round} board {}: recorded {} - {} h{}, the engine draws no such board",
                g.board, g.white, g.black, g.handicap
            ));
        }
    }
    if bye != engine.bye {
        out.push(format!(
            "round {round}: bye recorded {}, the engine gives it to {}",
            bye.as_deref().unwrap_or("to nobody"),
            engine.bye.as_deref().unwrap_or("nobody")
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Chain;
    use kifu_ledger::{Keypair, Participant, Registration, Role};

    fn chain() -> (Chain, Keypair) {
        let key = Keypair::from_seed([7; 32]);
        let officials = vec![Participant {
            role: Role::Director,
            name: "D".into(),
            key: key.public(),
        }];
        let genesis = crate::mcmahon_genesis("Cup", "cup", 3, officials);
        let mut c = Chain::create(&key, 1, genesis).expect("chain");
        for (id, rank) in [
            ("A", "3d"),
            ("B", "1d"),
            ("C", "2k"),
            ("D", "5k"),
            ("E", "8k"),
        ] {
            let reg = Registration {
                id: id.into(),
                surname: id.into(),
                given: String::new(),
                rank: rank.into(),
                rating: 0,
                country: String::new(),
                club: String::new(),
                egd_pin: String::new(),
                aga_id: String::new(),
                smms_correction: 0,
                key: None,
            };
            c.append(&key, 2, Body::PlayerRegistered(reg))
                .expect("registered");
        }
        (c, key)
    }

    #[test]
    fn a_drawn_round_signed_is_the_engine_s_and_a_changed_board_departs() {
        let (mut c, key) = chain();
        let d = draw(&c.projection, 1).expect("draws");
        assert_eq!(d.boards.len(), 2);
        // Five players: the bye to the weakest, E (8k).
        assert_eq!(d.bye.as_deref(), Some("E"));
        for body in facts(&d) {
            c.append(&key, 3, body)
                .expect("the engine's facts are accepted");
        }
        assert_eq!(
            departures(&c.projection, 1).expect("compares"),
            Vec::<String>::new()
        );
        let j = json(&d);
        assert_eq!(j["bye"], "E");
        assert_eq!(j["pairing"][0]["table"], 1);
        // Board 1 replaced by another pairing: one departure, named.
        let b = &d.boards[0];
        c.append(
            &key,
            4,
            entry::pairing(1, 1, &b.black, &b.white, 0, None, true),
        )
        .expect("a director may pair by hand");
        let found = departures(&c.projection, 1).expect("compares");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("round 1 board 1: recorded"),
            "{found:?}"
        );
    }

    #[test]
    fn the_genesis_s_overrides_are_drawn_with_and_another_engine_refused() {
        let (mut c, _) = chain();
        let rules = |engine: &str, ceiling: &str| {
            PairingSystem::McMahonDrawn(kifu_ledger::DrawRules {
                engine: engine.into(),
                overrides: vec![("handicap.ceiling".into(), ceiling.into())],
            })
        };
        // 2k (MMS 28) against 5k (MMS 25): 3 − 1 = 2 stones by default,
        // at most one with a ceiling of 1.
        let handicaps = |c: &Chain| -> Vec<u8> {
            draw(&c.projection, 1)
                .expect("draws")
                .boards
                .iter()
                .map(|b| b.handicap)
                .collect()
        };
        assert_eq!(handicaps(&c), [0, 2]);
        c.projection.genesis.system = rules(kifu_pairing::ENGINE, "1");
        assert_eq!(handicaps(&c), [0, 1]);
        c.projection.genesis.system = rules("kifu-pairing/0", "1");
        assert!(matches!(
            draw(&c.projection, 1),
            Err(DrawError::Engine { .. })
        ));
        c.projection.genesis.system = rules(kifu_pairing::ENGINE, "10");
        assert!(matches!(
            draw(&c.projection, 1),
            Err(DrawError::Pairing(PairingError::Settings(_)))
        ));
    }

    #[test]
    fn an_opengotha_file_s_settings_become_the_overrides_that_differ() {
        let m = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        // OpenGotha's own McMahon defaults, as its files write them.
        let hd = m(&[
            ("hdBasedOnMMS", "true"),
            ("hdCeiling", "9"),
            ("hdCorrection", "1"),
            ("hdNoHdRankThreshold", "1D"),
        ]);
        let pai = m(&[
            ("paiMaLastRoundForSeedSystem1", "2"),
            ("paiMaSeedSystem1", "SPLITANDRANDOM"),
            ("paiMaSeedSystem2", "SPLITANDSLIP"),
            ("paiMaAdditionalPlacementCritSystem1", "Rating"),
            ("paiMaAdditionalPlacementCritSystem2", "NULL"),
            ("paiMaDUDDUpperMode", "MID"),
            ("paiSeRankThreshold", "1D"),
            ("paiSeNbWinsThresholdActive", "false"),
            ("paiStandardNX1Factor", "0.5"),
        ]);
        assert_eq!(
            opengotha_overrides(&PairingSystem::McMahon, &hd, &pai),
            Ok(vec![])
        );
        // A Swiss file with McMahon's handicap, and another seeding.
        let mut pai2 = pai.clone();
        pai2.insert("paiMaSeedSystem2".into(), "SPLITANDFOLD".into());
        let o = opengotha_overrides(&PairingSystem::McMahon, &hd, &pai2).expect("reads");
        assert_eq!(
            o,
            [("later_seeding".to_string(), "split_and_fold".to_string())]
        );
        let o = opengotha_overrides(&PairingSystem::Swiss, &m(&[("hdCeiling", "4")]), &m(&[]))
            .expect("reads");
        assert_eq!(o, [("handicap.ceiling".to_string(), "4".to_string())]);
        assert!(
            opengotha_overrides(&PairingSystem::McMahon, &m(&[("hdCeiling", "x")]), &m(&[]))
                .is_err()
        );
    }

    #[test]
    fn a_round_robin_is_not_drawn_by_the_engine() {
        let (mut c, _) = chain();
        c.projection.genesis.system = PairingSystem::RoundRobin;
        assert_eq!(
            draw(&c.projection, 1),
            Err(DrawError::System("a round robin"))
        );
    }
}
