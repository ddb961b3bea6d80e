//! Reading an OpenGotha tournament file (its XML, `tournament.dtd`) into the
//! facts of a tournament chain: the genesis settings, registrations, absent
//! rounds, pairings with their results, and byes.
//!
//! Players are referred to in the file by OpenGotha's key string (name and
//! first name, blanks removed, upper case); that key becomes the
//! registration id, so every imported fact can be traced back to the file.
//! Missing settings take the defaults OpenGotha's own import uses
//! (`ExternalDocument.importTournament...`: bye and absence values 0,
//! bar 4D, floor 20K, rounding down on).

use std::collections::BTreeMap;

use quick_xml::events::{BytesStart, Event as Xml};
use quick_xml::Reader;

use kifu_ledger::{
    AbsenceReason, BoardResult, Body, GameKind, Pairing, PairingSystem, Participant, Registration,
    TimeControl, TournamentGenesis,
};
use kifu_standings::{Criterion, Rank};

use crate::projection::TournamentError;

/// What an OpenGotha file holds, as tournament facts in recording order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The genesis (officials to be filled in by the caller).
    pub genesis: TournamentGenesis,
    /// Registrations, absences, pairings, results and byes.
    pub facts: Vec<Body>,
}

impl Imported {
    /// The pairings and byes of `round`, each pairing without the game it
    /// names (the results stay the director's to confirm).
    pub fn round(&self, round: u32) -> Vec<Body> {
        self.facts
            .iter()
            .filter_map(|b| match b {
                Body::Paired(p) | Body::PairedColoursUnknown(p) if p.round == round => {
                    let p = kifu_ledger::Pairing {
                        game: None,
                        ..p.clone()
                    };
                    Some(match b {
                        Body::Paired(_) => Body::Paired(p),
                        _ => Body::PairedColoursUnknown(p),
                    })
                }
                Body::ByeGiven { round: r, .. } if *r == round => Some(b.clone()),
                _ => None,
            })
            .collect()
    }

    /// Checks the facts against the tournament as the chain will check them
    /// once signed, each as the ones before it leave it; the refused one is
    /// numbered from the genesis (`paired #5 refused: ...`).
    pub fn check(&self) -> Result<(), crate::Refused<TournamentError>> {
        self.projection().map(|_| ())
    }

    /// The tournament these facts make, as [`Imported::check`] builds it
    /// (unsigned; its id is zero).
    pub fn projection(&self) -> Result<crate::Projection, crate::Refused<TournamentError>> {
        let mut p = crate::Projection::new([0; 32], self.genesis.clone()).map_err(|error| {
            crate::Refused {
                index: 0,
                kind: "tournament created",
                error,
            }
        })?;
        for (i, b) in self.facts.iter().enumerate() {
            p.apply(b).map_err(|error| crate::Refused {
                index: i + 1,
                kind: b.kind_name(),
                error,
            })?;
        }
        Ok(p)
    }

    /// How many facts of each kind the import holds, by kind name.
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for f in &self.facts {
            *counts.entry(f.kind_name()).or_default() += 1;
        }
        counts
    }
}

fn err(what: impl Into<String>) -> TournamentError {
    TournamentError::Settings(format!("OpenGotha file: {}", what.into()))
}

fn attrs(e: &BytesStart<'_>) -> Result<BTreeMap<String, String>, TournamentError> {
    let mut m = BTreeMap::new();
    for a in e.attributes() {
        let a = a.map_err(|x| err(x.to_string()))?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let value = a
            .unescape_value()
            .map_err(|x| err(x.to_string()))?
            .into_owned();
        m.insert(key, value);
    }
    Ok(m)
}

fn num<T: std::str::FromStr>(
    m: &BTreeMap<String, String>,
    k: &str,
    default: T,
) -> Result<T, TournamentError> {
    match m.get(k) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| err(format!("attribute {k}={v:?} is not a number"))),
    }
}

fn text(m: &BTreeMap<String, String>, k: &str, default: &str) -> String {
    m.get(k).cloned().unwrap_or_else(|| default.to_string())
}

/// OpenGotha's key string for a player.
pub fn key_string(name: &str, first_name: &str) -> String {
    format!("{name}{first_name}")
        .replace(' ', "")
        .to_uppercase()
}

/// Reads an OpenGotha tournament file. The officials are given by the
/// caller (the file names the director only in words).
pub fn import(xml: &str, officials: Vec<Participant>) -> Result<Imported, TournamentError> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(true);
    let mut players: Vec<BTreeMap<String, String>> = Vec::new();
    let mut games: Vec<BTreeMap<String, String>> = Vec::new();
    let mut byes: Vec<BTreeMap<String, String>> = Vec::new();
    let mut general: Option<BTreeMap<String, String>> = None;
    let mut handicap: Option<BTreeMap<String, String>> = None;
    let mut pairing: Option<BTreeMap<String, String>> = None;
    let mut criteria: Vec<(u32, String)> = Vec::new();
    let mut seen_root = false;
    // Element names open around the current one: team tournaments have
    // their own parameter sets and criteria, which are not the players'.
    let mut open: Vec<Vec<u8>> = Vec::new();
    loop {
        let event = reader.read_event();
        if let Ok(Xml::End(_)) = &event {
            open.pop();
            continue;
        }
        let in_team = open.iter().any(|n| n.starts_with(b"Team"));
        let start = matches!(event, Ok(Xml::Start(_)));
        match event {
            Ok(Xml::Start(e)) | Ok(Xml::Empty(e)) => {
                let m = attrs(&e)?;
                let name = e.name().as_ref().to_vec();
                if start {
                    open.push(name.clone());
                }
                if in_team || name.starts_with(b"Team") {
                    continue;
                }
                match name.as_slice() {
                    b"Tournament" => seen_root = true,
                    b"Player" => players.push(m),
                    b"Game" => games.push(m),
                    b"ByePlayer" => byes.push(m),
                    b"GeneralParameterSet" => general = Some(m),
                    b"HandicapParameterSet" => handicap = Some(m),
                    b"PairingParameterSet" => pairing = Some(m),
                    b"PlacementCriterion" => {
                        let name = text(&m, "name", "NULL");
                        criteria.push((num(&m, "number", 0)?, name));
                    }
                    _ => {}
                }
            }
            Ok(Xml::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                return Err(err(format!(
                    "not well-formed XML at byte {}: {e}",
                    reader.error_position()
                )))
            }
        }
    }
    if !seen_root {
        return Err(err("no <Tournament> element"));
    }
    let g = general.ok_or_else(|| err("no <GeneralParameterSet>"))?;
    let rounds: u32 = num(&g, "numberOfRounds", 5)?;
    // Bounded before anything is sized by it (`kifu_ledger::bounds`).
    kifu_ledger::bounds::range(
        "number of rounds",
        rounds.into(),
        1,
        kifu_ledger::bounds::MAX_ROUNDS.into(),
    )?;
    // Minutes and seconds as OpenGotha writes them, in milliseconds, within
    // the format's bound: an overflowing time is refused, never wrapped.
    let ms = |what: &'static str, value: u64, unit_ms: u64| -> Result<u64, TournamentError> {
        let max = kifu_ledger::bounds::MAX_TIME_MS;
        match value.checked_mul(unit_ms) {
            Some(v) if v <= max => Ok(v),
            _ => Err(kifu_ledger::bounds::BoundError::OutOfRange {
                what,
                value,
                min: 0,
                max: max / unit_ms,
            }
            .into()),
        }
    };
    let rank_of = |s: &str| -> Result<String, TournamentError> {
        let r: Rank = s
            .parse()
            .map_err(|e: kifu_standings::ModelError| err(e.to_string()))?;
        Ok(r.to_string())
    };
    criteria.sort();
    let criteria: Vec<String> = criteria
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| n != "NULL")
        .map(|n| {
            n.parse::<Criterion>()
                .map(|c| c.name().to_string())
                .map_err(|_| err(format!("placement criterion {n:?} is not supported")))
        })
        .collect::<Result<_, _>>()?;
    // What the file leaves out is OpenGotha's McMahon default, held once
    // (`crate::settings::scoring_defaults`).
    let defaults = crate::settings::scoring_defaults(&PairingSystem::McMahon, rounds);
    let criteria = if criteria.is_empty() {
        defaults
            .criteria
            .iter()
            .map(|c| c.name().to_string())
            .collect()
    } else {
        criteria
    };
    let system = match criteria.first().map(String::as_str) {
        Some("MMS") => PairingSystem::McMahon,
        _ => PairingSystem::Swiss,
    };
    // The file's own draw settings, where they differ from the engine's
    // defaults, go into the genesis with the engine's name.
    let overrides = crate::draw::opengotha_overrides(
        &system,
        handicap.as_ref().unwrap_or(&BTreeMap::new()),
        pairing.as_ref().unwrap_or(&BTreeMap::new()),
    )
    .map_err(|e| err(format!("pairing settings: {e}")))?;
    let system = if overrides.is_empty() {
        system
    } else {
        let rules = kifu_ledger::DrawRules {
            engine: kifu_pairing::ENGINE.into(),
            overrides,
        };
        match system {
            PairingSystem::McMahon => PairingSystem::McMahonDrawn(rules),
            _ => PairingSystem::SwissDrawn(rules),
        }
    };
    let komi: f64 = num(&g, "komi", 7.5)?;
    let main_ms = ms("basic time (minutes)", num(&g, "basicTime", 60)?, 60_000)?;
    let time_control = match text(&g, "complementaryTimeSystem", "CANBYOYOMI").as_str() {
        "SUDDENDEATH" => TimeControl::SuddenDeath { main_ms },
        "FISCHER" => TimeControl::Fischer {
            main_ms,
            increment_ms: ms("Fischer time (seconds)", num(&g, "fischerTime", 10)?, 1000)?,
            max_ms: None,
        },
        "STDBYOYOMI" => TimeControl::Byoyomi {
            main_ms,
            periods: 5,
            period_ms: ms(
                "byo-yomi time (seconds)",
                num(&g, "stdByoYomiTime", 30)?,
                1000,
            )?,
        },
        _ => TimeControl::Canadian {
            main_ms,
            stones: num(&g, "nbMovesCanTime", 15)?,
            block_ms: ms(
                "Canadian time (seconds)",
                num(&g, "canByoYomiTime", 300)?,
                1000,
            )?,
        },
    };
    // OpenGotha's own class and adjusted time are the EGF's (crate::egf);
    // every system it writes has a basic time, so one is always found.
    let (egf_class, adjusted_time_minutes) = match crate::egf::timing(&time_control) {
        Ok(t) => (t.class, t.adjusted_minutes),
        Err(_) => ("X", 0),
    };
    let genesis = TournamentGenesis {
        name: text(&g, "name", "defaultname"),
        short_name: text(&g, "shortName", "defaultshortname"),
        city: text(&g, "location", ""),
        country: String::new(),
        start: text(&g, "beginDate", ""),
        finish: text(&g, "endDate", ""),
        game: GameKind::Go,
        ruleset: "opengotha".into(),
        time_control,
        // Komi in half points; OpenGotha komi is a multiple of ½.
        komi_half_points: (komi * 2.0).round() as i32,
        system,
        rounds,
        mm_bar: rank_of(&text(&g, "genMMBar", &defaults.mm_bar.to_string()))?,
        mm_floor: rank_of(&text(&g, "genMMFloor", &defaults.mm_floor.to_string()))?,
        nbw2_bye: num(&g, "genNBW2ValueBye", 0)?,
        mms2_bye: num(&g, "genMMS2ValueBye", 0)?,
        nbw2_absent: num(&g, "genNBW2ValueAbsent", 0)?,
        mms2_absent: num(&g, "genMMS2ValueAbsent", 0)?,
        round_down_bye_absent: text(&g, "genRoundDownNBWMMS", "true") == "true",
        unplayed_as_half: text(&g, "genCountNotPlayedGamesAsHalfPoint", "false") == "true",
        criteria,
        egf_class: egf_class.into(),
        adjusted_time_minutes,
        handicap_reduction: match &handicap {
            Some(h) => num(h, "hdCorrection", 1)?,
            None => 0,
        },
        officials,
    };

    let mut facts = Vec::new();
    let mut keys = Vec::new();
    for p in &players {
        let name = text(p, "name", "");
        let first = text(p, "firstName", "");
        let id = key_string(&name, &first);
        let country = text(p, "country", "");
        facts.push(Body::PlayerRegistered(Registration {
            id: id.clone(),
            surname: name,
            given: first,
            rank: rank_of(&text(p, "rank", "30K"))?,
            rating: num(p, "rating", 0)?,
            country,
            club: text(p, "club", ""),
            egd_pin: text(p, "egfPin", ""),
            aga_id: text(p, "agaId", ""),
            smms_correction: num(p, "smmsCorrection", 0)?,
            key: None,
        }));
        keys.push(id);
    }
    // Rounds a player does not participate in: one character per round.
    for (p, id) in players.iter().zip(&keys) {
        let part: Vec<char> = text(p, "participating", "").chars().collect();
        let mut played_before = false;
        for round in 1..=rounds {
            match part.get(round as usize - 1) {
                Some('0') => facts.push(Body::PlayerAbsent {
                    round,
                    player: id.clone(),
                    reason: if played_before {
                        AbsenceReason::RoundSkipped
                    } else {
                        AbsenceReason::LateArrival
                    },
                }),
                _ => played_before = true,
            }
        }
    }
    let mut games: Vec<(u32, u32, &BTreeMap<String, String>)> = games
        .iter()
        .map(|m| Ok((num(m, "roundNumber", 1)?, num(m, "tableNumber", 1)?, m)))
        .collect::<Result<_, TournamentError>>()?;
    games.sort_by_key(|(r, t, _)| (*r, *t));
    for (round, board, m) in games {
        let pairing = Pairing {
            round,
            board,
            white: text(m, "whitePlayer", ""),
            black: text(m, "blackPlayer", ""),
            handicap: num(m, "handicap", 0)?,
            game: None,
        };
        // `knownColor="false"`: the colours were not noted (the `.h9`
        // writes `?`); OpenGotha's default is true.
        facts.push(if text(m, "knownColor", "true") == "false" {
            Body::PairedColoursUnknown(pairing)
        } else {
            Body::Paired(pairing)
        });
        let code = text(m, "result", "RESULT_UNKNOWN");
        let by_default = code.ends_with("_BYDEF");
        let result = match code.trim_end_matches("_BYDEF") {
            "RESULT_WHITEWINS" => BoardResult::WhiteWins,
            "RESULT_BLACKWINS" => BoardResult::BlackWins,
            "RESULT_EQUAL" => BoardResult::Jigo,
            "RESULT_BOTHWIN" => BoardResult::BothWin,
            "RESULT_BOTHLOSE" => BoardResult::BothLose,
            "RESULT_UNKNOWN" => continue,
            other => return Err(err(format!("unknown result {other:?}"))),
        };
        facts.push(Body::BoardResultEntered {
            round,
            board,
            result,
            by_default,
            reason: "imported from OpenGotha".into(),
        });
    }
    for b in &byes {
        facts.push(Body::ByeGiven {
            round: num(b, "roundNumber", 1)?,
            player: text(b, "player", ""),
        });
    }
    Ok(Imported { genesis, facts })
}

/// The text of a tournament file: UTF-8 when it is valid UTF-8, otherwise
/// ISO-8859-15 (the encoding OpenGotha writes its other files in).
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes
            .iter()
            .map(|&b| match b {
                0xA4 => '€',
                0xA6 => 'Š',
                0xA8 => 'š',
                0xB4 => 'Ž',
                0xB8 => 'ž',
                0xBC => 'Œ',
                0xBD => 'œ',
                0xBE => 'Ÿ',
                _ => char::from(b),
            })
            .collect(),
    }
}
