//! The projection of a tournament chain.

use std::collections::{BTreeMap, BTreeSet};

use kifu_ledger::{
    AbsenceReason, BoardResult, Body, Checkpoint, Event, Genesis, Hash, Pairing, Registration,
    Role, RoundDrawn, SanctionKind, TournamentGenesis,
};
use kifu_standings::{Criterion, EventInfo, Game, Player, Rank, Settings, Tournament};

use crate::convert::{board_result_of, standings_result};

/// Why a tournament fact is refused, or a chain cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// The genesis settings are not usable.
    #[error("tournament settings: {0}")]
    Settings(String),
    /// A time zone the time zone database does not hold.
    #[error("the time zone {0:?} is not one of the IANA time zone database (such as Europe/Berlin, Asia/Tokyo or UTC)")]
    UnknownTimeZone(String),
    /// A player id that is not registered.
    #[error("player {0:?} is not registered")]
    Unregistered(String),
    /// A registration id used twice.
    #[error("player {0:?} is already registered")]
    AlreadyRegistered(String),
    /// A bad registration field.
    #[error("registration of {id:?}: {why}")]
    BadRegistration {
        /// The id.
        id: String,
        /// What is wrong.
        why: String,
    },
    /// A round outside the tournament.
    #[error("round {round} is outside the tournament's rounds (1 to {rounds})")]
    BadRound {
        /// The round given.
        round: u32,
        /// Rounds of the tournament.
        rounds: u32,
    },
    /// A player already has a game or the bye in a round.
    #[error("round {round}: {player:?} is already {what}")]
    Busy {
        /// Round.
        round: u32,
        /// Player.
        player: String,
        /// "paired on board N", "given the bye", "absent".
        what: String,
    },
    /// White and Black are the same player.
    #[error("round {round} board {board}: a player cannot play themself")]
    SelfPairing {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// A result or checkpoint for a board that was never paired.
    #[error("round {round} board {board}: no such game (the board is not paired)")]
    NoSuchBoard {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// A checkpoint names another game than the pairing.
    #[error(
        "round {round} board {board}: the pairing names game {paired}, the checkpoint {given}"
    )]
    OtherGame {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// Game id in the pairing (hex prefix).
        paired: String,
        /// Game id in the checkpoint (hex prefix).
        given: String,
    },
    /// A swap of a drawn round that names the same player twice, or a
    /// player without a place in the round, or gives no reason.
    #[error("round {round}: the swap of {first:?} and {second:?}: {why}")]
    BadSwap {
        /// Round.
        round: u32,
        /// One player.
        first: String,
        /// The other.
        second: String,
        /// What is wrong.
        why: String,
    },
    /// A kind that has no place in a tournament chain.
    #[error("a {0} has no place in a tournament chain")]
    NotATournamentFact(&'static str),
    /// The chain does not start with a tournament genesis.
    #[error("the chain does not start with a tournament genesis")]
    NoGenesis,
    /// The scores could not be computed.
    #[error("{0}")]
    Model(#[from] kifu_standings::ModelError),
    /// A count or length past the format's bound
    /// (`kifu_ledger::bounds`).
    #[error("{0}")]
    Bound(#[from] kifu_ledger::bounds::BoundError),
}

/// One paired board and what is known of its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The pairing.
    pub pairing: Pairing,
    /// The colours were noted (false after a `paired_colours_unknown`:
    /// `pairing.white` and `pairing.black` are then the two players in no
    /// particular colour).
    pub colours_known: bool,
    /// The result as the tournament scores it.
    pub result: BoardResult,
    /// The result was decided by default.
    pub by_default: bool,
    /// The last checkpoint of the board's game chain.
    pub checkpoint: Option<Checkpoint>,
    /// Where the result comes from: the sequence number of the event.
    pub result_seq: Option<u64>,
}

/// A tournament chain read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    /// The tournament id (hash of the genesis record).
    pub id: Hash,
    /// The genesis.
    pub genesis: TournamentGenesis,
    /// The settings the standings use.
    pub settings: Settings,
    /// Registrations, in the order they were made (corrections in place).
    pub players: Vec<Registration>,
    /// Paired boards by (round, board).
    pub boards: BTreeMap<(u32, u32), Board>,
    /// Byes: (round, player).
    pub byes: BTreeSet<(u32, String)>,
    /// Absences: (round, player) → reason.
    pub absences: BTreeMap<(u32, String), AbsenceReason>,
    /// Sanctions beyond one game: (player, kind, from round, reason).
    pub sanctions: Vec<(String, SanctionKind, u32, String)>,
    /// The rounds drawn by the pairing engine, with the director's swaps
    /// (the last `round_drawn` of each round).
    pub drawn: BTreeMap<u32, RoundDrawn>,
    /// The tournament's time zone, an IANA name (the last
    /// `time_zone_stated`), if one was stated.
    pub time_zone: Option<String>,
    /// Number of events applied (the next sequence number).
    pub next_seq: u64,
}

/// The standings settings a genesis fixes.
pub fn genesis_settings(g: &TournamentGenesis) -> Result<Settings, TournamentError> {
    let bad = |what: String| TournamentError::Settings(what);
    if g.rounds == 0 {
        return Err(bad("a tournament has at least one round".into()));
    }
    check_genesis_bounds(g)?;
    let rank = |s: &str, what: &str| -> Result<Rank, TournamentError> {
        s.parse().map_err(|e| bad(format!("{what}: {e}")))
    };
    let criteria = g
        .criteria
        .iter()
        .map(|c| c.parse::<Criterion>().map_err(|e| bad(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    if criteria.is_empty() {
        return Err(bad("at least one placement criterion".into()));
    }
    Ok(Settings {
        rounds: g.rounds,
        mm_bar: rank(&g.mm_bar, "McMahon bar")?,
        mm_floor: rank(&g.mm_floor, "McMahon floor")?,
        nbw2_bye: g.nbw2_bye,
        mms2_bye: g.mms2_bye,
        nbw2_absent: g.nbw2_absent,
        mms2_absent: g.mms2_absent,
        round_down_bye_absent: g.round_down_bye_absent,
        unplayed_as_half: g.unplayed_as_half,
        criteria,
    })
}

/// The bounds of a tournament's genesis (`kifu_ledger::bounds`): its
/// rounds, names, officials and criteria.
fn check_genesis_bounds(g: &TournamentGenesis) -> Result<(), TournamentError> {
    use kifu_ledger::bounds::{self, *};
    bounds::range("number of rounds", g.rounds.into(), 1, MAX_ROUNDS.into())?;
    bounds::name("tournament's name", &g.name, MAX_NAME_CHARS)?;
    bounds::name("tournament's short name", &g.short_name, MAX_ID_CHARS)?;
    bounds::name("city", &g.city, MAX_NAME_CHARS)?;
    for (what, t) in [
        ("country", &g.country),
        ("start date", &g.start),
        ("finish date", &g.finish),
        ("ruleset", &g.ruleset),
        ("McMahon bar", &g.mm_bar),
        ("McMahon floor", &g.mm_floor),
        ("EGF class", &g.egf_class),
    ] {
        bounds::text(what, t, MAX_TEXT_CHARS)?;
    }
    bounds::range(
        "number of officials",
        g.officials.len() as u64,
        0,
        MAX_OFFICIALS as u64,
    )?;
    for o in &g.officials {
        bounds::name("official's name", &o.name, MAX_NAME_CHARS)?;
    }
    bounds::range(
        "number of criteria",
        g.criteria.len() as u64,
        0,
        MAX_CRITERIA as u64,
    )?;
    bounds::time_control(&g.time_control)?;
    Ok(())
}

fn hex8(h: &Hash) -> String {
    hex::encode(&h[..8])
}

impl Projection {
    /// A tournament with nothing but its genesis.
    pub fn new(id: Hash, genesis: TournamentGenesis) -> Result<Projection, TournamentError> {
        let settings = genesis_settings(&genesis)?;
        Ok(Projection {
            id,
            genesis,
            settings,
            players: Vec::new(),
            boards: BTreeMap::new(),
            byes: BTreeSet::new(),
            absences: BTreeMap::new(),
            sanctions: Vec::new(),
            drawn: BTreeMap::new(),
            time_zone: None,
            next_seq: 1,
        })
    }

    /// Reads a verified chain's events (genesis first).
    pub fn from_events(id: Hash, events: &[Event]) -> Result<Projection, TournamentError> {
        let Some(Body::TournamentCreated(g)) = events.first().map(|e| &e.body) else {
            return Err(TournamentError::NoGenesis);
        };
        let mut p = Projection::new(id, g.clone())?;
        for e in &events[1..] {
            p.apply(&e.body)?;
        }
        Ok(p)
    }

    /// The registration with this id.
    pub fn player(&self, id: &str) -> Option<&Registration> {
        self.players.iter().find(|p| p.id == id)
    }

    fn registered(&self, id: &str) -> Result<(), TournamentError> {
        match self.player(id) {
            Some(_) => Ok(()),
            None => Err(TournamentError::Unregistered(id.to_string())),
        }
    }

    fn round_ok(&self, round: u32) -> Result<(), TournamentError> {
        if round == 0 || round > self.genesis.rounds {
            Err(TournamentError::BadRound {
                round,
                rounds: self.genesis.rounds,
            })
        } else {
            Ok(())
        }
    }

    /// What occupies `player` in `round`, other than board `except`.
    fn busy(&self, round: u32, player: &str, except: Option<u32>) -> Option<String> {
        for ((r, b), board) in &self.boards {
            if *r == round
                && Some(*b) != except
                && (board.pairing.white == player || board.pairing.black == player)
            {
                return Some(format!("paired on board {b}"));
            }
        }
        if self.byes.contains(&(round, player.to_string())) {
            return Some("given the bye".into());
        }
        None
    }

    /// [`Projection::busy`], or marked absent.
    fn unavailable(&self, round: u32, player: &str, except: Option<u32>) -> Option<String> {
        self.busy(round, player, except).or_else(|| {
            self.absences
                .get(&(round, player.to_string()))
                .map(|reason| {
                    format!(
                        "absent ({})",
                        kifu_ledger::tournament::absence_words(*reason)
                    )
                })
        })
    }

    fn check_registration(r: &Registration) -> Result<(), TournamentError> {
        let bad = |why: String| TournamentError::BadRegistration {
            id: r.id.clone(),
            why,
        };
        if r.id.trim().is_empty() || r.id.chars().any(char::is_whitespace) {
            return Err(bad("the id is empty or contains blanks".into()));
        }
        if r.surname.trim().is_empty() {
            return Err(bad("the surname is empty".into()));
        }
        if let Some(k) = &r.key {
            // docs/FORMAT.md section 1, rule 1: a key that could sign
            // nothing holds no seat.
            kifu_ledger::sig::check_key(&k.0).map_err(|_| {
                bad("the key is not an acceptable Ed25519 public key (docs/FORMAT.md section 1, rule 1)".into())
            })?;
        }
        {
            use kifu_ledger::bounds::{self, *};
            let within = |what, t: &str, max| bounds::text(what, t, max);
            bounds::name("id", &r.id, MAX_ID_CHARS)
                .and_then(|_| bounds::name("surname", &r.surname, MAX_NAME_CHARS))
                .and_then(|_| bounds::name("given name", &r.given, MAX_NAME_CHARS))
                .and_then(|_| bounds::name("club", &r.club, MAX_NAME_CHARS))
                .and_then(|_| within("country", &r.country, MAX_TEXT_CHARS))
                .and_then(|_| within("rank", &r.rank, MAX_TEXT_CHARS))
                .and_then(|_| within("EGD pin", &r.egd_pin, MAX_TEXT_CHARS))
                .and_then(|_| within("AGA id", &r.aga_id, MAX_TEXT_CHARS))
                .map_err(|e| bad(e.to_string()))?;
        }
        r.rank
            .parse::<Rank>()
            .map_err(|e| bad(e.to_string()))
            .map(|_| ())
    }

    /// A `round_drawn` is refused when its round is not valid, its text is
    /// past its bound, or a swap names one player twice, a player with no
    /// place in the round (neither paired nor given its bye: the round's
    /// pairing is signed before it), or gives no reason.
    fn check_drawn(&self, d: &RoundDrawn) -> Result<(), TournamentError> {
        use kifu_ledger::bounds::{self, MAX_PLAYERS, MAX_TEXT_CHARS};
        self.round_ok(d.round)?;
        bounds::text("engine", &d.engine, MAX_TEXT_CHARS)?;
        bounds::range(
            "number of swaps",
            d.swaps.len() as u64,
            0,
            MAX_PLAYERS as u64,
        )?;
        for s in &d.swaps {
            let bad = |why: String| TournamentError::BadSwap {
                round: d.round,
                first: s.first.clone(),
                second: s.second.clone(),
                why,
            };
            bounds::text("reason", &s.reason, MAX_TEXT_CHARS)?;
            if s.first == s.second {
                return Err(bad("a player cannot swap with themself".into()));
            }
            if s.reason.trim().is_empty() {
                return Err(bad("no reason given".into()));
            }
            for who in [&s.first, &s.second] {
                self.registered(who)?;
                if self.busy(d.round, who, None).is_none() {
                    return Err(bad(format!(
                        "{who:?} has no place in the round (neither paired nor given the bye)"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Applies one tournament fact, or refuses it (and changes nothing).
    pub fn apply(&mut self, body: &Body) -> Result<(), TournamentError> {
        self.check(body)?;
        let seq = self.next_seq;
        match body {
            Body::PlayerRegistered(r) => self.players.push(r.clone()),
            Body::RegistrationCorrected(r) => {
                if let Some(p) = self.players.iter_mut().find(|p| p.id == r.id) {
                    *p = r.clone();
                }
            }
            Body::Paired(p) | Body::PairedColoursUnknown(p) => {
                let colours_known = matches!(body, Body::Paired(_));
                let old = self.boards.remove(&(p.round, p.board));
                // Re-pairing the same players keeps what is known of the game.
                let keep = old.filter(|o| o.pairing.white == p.white && o.pairing.black == p.black);
                let mut board = keep.unwrap_or(Board {
                    pairing: p.clone(),
                    colours_known,
                    result: BoardResult::Unknown,
                    by_default: false,
                    checkpoint: None,
                    result_seq: None,
                });
                board.pairing = p.clone();
                board.colours_known = colours_known;
                self.boards.insert((p.round, p.board), board);
            }
            Body::ByeGiven { round, player } => {
                self.byes.insert((*round, player.clone()));
            }
            Body::PlayerAbsent {
                round,
                player,
                reason,
            } => {
                let last = if *reason == AbsenceReason::Withdrawal {
                    self.genesis.rounds
                } else {
                    *round
                };
                for r in *round..=last {
                    self.absences.insert((r, player.clone()), *reason);
                }
            }
            Body::BoardResultEntered {
                round,
                board,
                result,
                by_default,
                ..
            } => {
                if let Some(b) = self.boards.get_mut(&(*round, *board)) {
                    b.result = *result;
                    b.by_default = *by_default;
                    b.result_seq = Some(seq);
                }
            }
            Body::GameCheckpointed(c) => {
                if let Some(b) = self.boards.get_mut(&(c.round, c.board)) {
                    b.pairing.game = Some(c.game);
                    if let Some(r) = &c.result {
                        let (result, by_default) = board_result_of(r);
                        b.result = result;
                        b.by_default = by_default;
                        b.result_seq = Some(seq);
                    }
                    b.checkpoint = Some(c.clone());
                }
            }
            Body::TournamentSanction {
                player,
                kind,
                from_round,
                reason,
            } => {
                let rounds: Vec<u32> = match kind {
                    SanctionKind::RemovedFromRounds { rounds } => rounds.clone(),
                    SanctionKind::RemovedFromTournament | SanctionKind::Disqualification => {
                        (*from_round..=self.genesis.rounds).collect()
                    }
                    _ => Vec::new(),
                };
                for r in rounds {
                    self.absences
                        .entry((r, player.clone()))
                        .or_insert(AbsenceReason::Sanction);
                }
                self.sanctions
                    .push((player.clone(), kind.clone(), *from_round, reason.clone()));
            }
            Body::RoundDrawn(d) => {
                self.drawn.insert(d.round, d.clone());
            }
            Body::TimeZoneStated { zone } => self.time_zone = Some(zone.clone()),
            _ => {}
        }
        self.next_seq += 1;
        Ok(())
    }

    /// Checks a fact against the tournament so far without applying it.
    pub fn check(&self, body: &Body) -> Result<(), TournamentError> {
        match body {
            Body::PlayerRegistered(r) => {
                Self::check_registration(r)?;
                if self.player(&r.id).is_some() {
                    return Err(TournamentError::AlreadyRegistered(r.id.clone()));
                }
                kifu_ledger::bounds::range(
                    "number of players",
                    self.players.len() as u64 + 1,
                    1,
                    kifu_ledger::bounds::MAX_PLAYERS as u64,
                )?;
            }
            Body::RegistrationCorrected(r) => {
                Self::check_registration(r)?;
                self.registered(&r.id)?;
            }
            Body::Paired(p) | Body::PairedColoursUnknown(p) => {
                self.round_ok(p.round)?;
                if p.board == 0 {
                    return Err(TournamentError::NoSuchBoard {
                        round: p.round,
                        board: 0,
                    });
                }
                kifu_ledger::bounds::range(
                    "board number",
                    p.board.into(),
                    1,
                    kifu_ledger::bounds::MAX_BOARD.into(),
                )?;
                self.registered(&p.white)?;
                self.registered(&p.black)?;
                if p.white == p.black {
                    return Err(TournamentError::SelfPairing {
                        round: p.round,
                        board: p.board,
                    });
                }
                for who in [&p.white, &p.black] {
                    if let Some(what) = self.unavailable(p.round, who, Some(p.board)) {
                        return Err(TournamentError::Busy {
                            round: p.round,
                            player: who.clone(),
                            what,
                        });
                    }
                }
            }
            Body::ByeGiven { round, player } => {
                self.round_ok(*round)?;
                self.registered(player)?;
                if let Some(what) = self.unavailable(*round, player, None) {
                    return Err(TournamentError::Busy {
                        round: *round,
                        player: player.clone(),
                        what,
                    });
                }
            }
            Body::PlayerAbsent {
                round,
                player,
                reason,
            } => {
                self.round_ok(*round)?;
                self.registered(player)?;
                let last = if *reason == AbsenceReason::Withdrawal {
                    self.genesis.rounds
                } else {
                    *round
                };
                for r in *round..=last {
                    if let Some(what) = self.busy(r, player, None) {
                        return Err(TournamentError::Busy {
                            round: r,
                            player: player.clone(),
                            what,
                        });
                    }
                }
            }
            Body::BoardResultEntered {
                round,
                board,
                reason,
                ..
            } => {
                kifu_ledger::bounds::text("reason", reason, kifu_ledger::bounds::MAX_TEXT_CHARS)?;
                if !self.boards.contains_key(&(*round, *board)) {
                    return Err(TournamentError::NoSuchBoard {
                        round: *round,
                        board: *board,
                    });
                }
            }
            Body::GameCheckpointed(c) => {
                let Some(b) = self.boards.get(&(c.round, c.board)) else {
                    return Err(TournamentError::NoSuchBoard {
                        round: c.round,
                        board: c.board,
                    });
                };
                if let Some(g) = b.pairing.game {
                    if g != c.game {
                        return Err(TournamentError::OtherGame {
                            round: c.round,
                            board: c.board,
                            paired: hex8(&g),
                            given: hex8(&c.game),
                        });
                    }
                }
            }
            Body::TournamentSanction {
                player,
                from_round,
                kind,
                reason,
            } => {
                self.registered(player)?;
                self.round_ok(*from_round)?;
                kifu_ledger::bounds::text("reason", reason, kifu_ledger::bounds::MAX_TEXT_CHARS)?;
                if let SanctionKind::RemovedFromRounds { rounds } = kind {
                    // Each round named is a round of the tournament, so the
                    // list is no longer than the tournament.
                    if rounds.len() > self.genesis.rounds as usize {
                        return Err(kifu_ledger::bounds::BoundError::OutOfRange {
                            what: "number of rounds removed from",
                            value: rounds.len() as u64,
                            min: 1,
                            max: self.genesis.rounds.into(),
                        }
                        .into());
                    }
                    for r in rounds {
                        self.round_ok(*r)?;
                    }
                }
            }
            Body::RoundDrawn(d) => self.check_drawn(d)?,
            Body::TimeZoneStated { zone } => check_time_zone(zone)?,
            other => return Err(TournamentError::NotATournamentFact(other.kind_name())),
        }
        Ok(())
    }

    /// The standings model: players, games with their results, byes and
    /// absences.
    pub fn tournament(&self) -> Result<Tournament, TournamentError> {
        let mut t = Tournament::new(self.settings.clone());
        for r in &self.players {
            let rank: Rank = r.rank.parse()?;
            let mut p = Player::new(&r.id, &r.surname, &r.given, rank);
            p.rating = r.rating;
            p.country = r.country.clone();
            p.club = r.club.clone();
            p.egd_pin = r.egd_pin.clone();
            p.aga_id = r.aga_id.clone();
            p.smms_correction = r.smms_correction;
            t.players.push(p);
        }
        for ((round, board), b) in &self.boards {
            t.games.push(Game {
                round: *round,
                board: *board,
                white: b.pairing.white.clone(),
                black: b.pairing.black.clone(),
                handicap: b.pairing.handicap,
                result: standings_result(b.result),
                by_default: b.by_default,
                colours_known: b.colours_known,
            });
        }
        t.byes = self.byes.clone();
        t.absences = self.absences.keys().cloned().collect();
        // A player paired in a round they were also marked absent in plays:
        // OpenGotha gives the pairing precedence ("1) participation").
        Ok(t)
    }

    /// The event description the results files need.
    pub fn event_info(&self) -> EventInfo {
        let g = &self.genesis;
        let komi = kifu_ledger::text::half_points_text(i64::from(g.komi_half_points));
        EventInfo {
            name: g.name.clone(),
            country: g.country.clone(),
            city: g.city.clone(),
            location: if g.country.is_empty() {
                g.city.clone()
            } else {
                format!("{}, {}", g.city, g.country)
            },
            start: g.start.clone(),
            finish: g.finish.clone(),
            class: g.egf_class.clone(),
            komi,
            adjusted_time_minutes: g.adjusted_time_minutes,
            overtime: match g.time_control {
                kifu_ledger::TimeControl::SuddenDeath { .. } => "Sudden death",
                kifu_ledger::TimeControl::Canadian { .. } => "Canadian byo-yomi",
                kifu_ledger::TimeControl::Fischer { .. } => "Fischer",
                _ => "Standard byo-yomi",
            }
            .to_string(),
            handicap_reduction: g.handicap_reduction,
            rules: g.ruleset.clone(),
        }
    }

    /// The last round with a pairing, a bye or an absence (0 if none).
    pub fn last_round(&self) -> u32 {
        let a = self.boards.keys().map(|(r, _)| *r).max().unwrap_or(0);
        let b = self.byes.iter().map(|(r, _)| *r).max().unwrap_or(0);
        a.max(b)
    }

    /// True when a game's reference names this tournament: its short
    /// name, or 16 or more hex digits of its id.
    pub fn named_by(&self, t: &kifu_ledger::TournamentRef) -> bool {
        t.tournament == self.genesis.short_name
            || (t.tournament.len() >= 16 && hex::encode(self.id).starts_with(&t.tournament))
    }

    /// Problems with a game chain's genesis against its pairing: the
    /// tournament, round and board it names, and the players' keys.
    pub fn game_flags(&self, game: &Hash, genesis: &Genesis) -> Vec<String> {
        let mut flags = Vec::new();
        let Some(((round, board), b)) = self
            .boards
            .iter()
            .find(|(_, b)| b.pairing.game.as_ref() == Some(game))
        else {
            return vec![format!(
                "game {} is not paired in this tournament",
                hex8(game)
            )];
        };
        match &genesis.tournament {
            None => flags.push(format!(
                "game {} names no tournament, but is paired in round {round} board {board}",
                hex8(game)
            )),
            Some(t) => {
                if !self.named_by(t) {
                    flags.push(format!(
                        "game {} names tournament {:?}, not {:?}",
                        hex8(game),
                        t.tournament,
                        self.genesis.short_name
                    ));
                }
                if t.round != *round || t.board != *board {
                    flags.push(format!(
                        "game {} says round {} board {}, the pairing round {round} board {board}",
                        hex8(game),
                        t.round,
                        t.board
                    ));
                }
            }
        }
        for (role, who) in [
            (Role::White, &b.pairing.white),
            (Role::Black, &b.pairing.black),
        ] {
            let want = self.player(who).and_then(|r| r.key);
            let have = genesis.holder(role).map(|p| p.key);
            if let (Some(want), Some(have)) = (want, have) {
                if want != have {
                    flags.push(format!(
                        "game {}: {} is signed by another key than {who}'s registered key",
                        hex8(game),
                        role.word()
                    ));
                }
            }
        }
        flags
    }
}

/// A time zone is written as an IANA name (`kifu_ledger::bounds::time_zone`)
/// and is one the time zone database holds (docs/FORMAT.md section 10,
/// `time_zone_stated`).
pub fn check_time_zone(zone: &str) -> Result<(), TournamentError> {
    kifu_ledger::bounds::time_zone(zone)?;
    if jiff::tz::TimeZone::get(zone).is_err() {
        return Err(TournamentError::UnknownTimeZone(zone.to_string()));
    }
    Ok(())
}

/// The day (`2026-08-03`) of the instant `at_ms` in the time zone `zone`
/// (an IANA name), or `None` when the zone is unknown or the instant out of
/// range: a game's date in its tournament's zone (SGF `DT`).
pub fn local_date(zone: &str, at_ms: u64) -> Option<String> {
    let tz = jiff::tz::TimeZone::get(zone).ok()?;
    let t = jiff::Timestamp::from_millisecond(i64::try_from(at_ms).ok()?).ok()?;
    Some(t.to_zoned(tz).date().to_string())
}

/// A game's date in its tournament's time zone: the day of its first event
/// where its genesis names a tournament for which `zone_of` (a tournament's
/// name as the genesis gives it) finds a stated zone; else `None` (the UTC
/// day is the reader's default).
pub fn game_date(
    records: &[kifu_ledger::Record],
    zone_of: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let first = records.first()?.decode().ok()?;
    let Body::GameCreated(g) = &first.body else {
        return None;
    };
    let zone = zone_of(&g.tournament.as_ref()?.tournament)?;
    local_date(&zone, first.at_ms)
}

#[cfg(test)]
mod zone_tests {
    use super::*;

    #[test]
    fn a_day_is_the_zone_s_day() {
        // 2026-12-07 23:30 UTC is already the 8th in Tokyo, still the 7th in
        // New York.
        let at = 1_796_686_200_000;
        assert_eq!(local_date("UTC", at).as_deref(), Some("2026-12-07"));
        assert_eq!(local_date("Asia/Tokyo", at).as_deref(), Some("2026-12-08"));
        assert_eq!(
            local_date("America/New_York", at).as_deref(),
            Some("2026-12-07")
        );
        assert_eq!(local_date("Mars/Olympus", at), None);
    }
}
