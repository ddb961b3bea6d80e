//! The director's vocabulary: what a director means to do (create a
//! tournament, register a player, mark an absence, give the bye, pair or
//! draw a round, enter a result, state the time zone, create the round's
//! games from the devices asking for their seats, checkpoint finished
//! games), read into the facts to sign.
//!
//! The director's page (`POST /director/draft`, which reads an [`Intent`])
//! and `kifu tournament` both say here what a director's words mean, so a
//! fact is the same whichever face entered it; the faces keep only reading
//! their input, signing, keeping and showing. Nothing here reads a store or
//! a clock: what the store holds (a round's games, the devices waiting)
//! comes in as values.

use std::collections::{BTreeSet, HashSet};

use kifu_game::seat::{holds_seat, seat_holder, EmptySeat, SeatRequest};
use kifu_ledger::{
    Body, Checkpoint, DrawSwap, Participant, PublicKey, Registration, Role, SanctionKind,
    TournamentGenesis,
};
use serde::{Deserialize, Serialize};

use crate::choices::{ChoiceError, Choices, DIRECTOR_NAME};
use crate::draw::{DrawError, Proposal};
use crate::entry::{self, EntryError};
use crate::games::GameDraftError;
use crate::{check_time_zone, Chain, Projection, Refused, TournamentError};

/// Why what the director typed is not a fact to sign.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// A key that is not an Ed25519 public key in hex.
    #[error("a key is the official's public key in hex: {0}")]
    BadKey(String),
    /// An intent other than the one the step reads.
    #[error("not a creation")]
    NotCreation,
    /// A tournament's settings that cannot be read.
    #[error(transparent)]
    Choice(#[from] ChoiceError),
    /// Settings, a time zone or an imported file the tournament refuses.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// Words that are not a fact (a pairing line, a result, a reason).
    #[error(transparent)]
    Entry(#[from] EntryError),
    /// The pairing engine cannot draw the round.
    #[error(transparent)]
    Draw(#[from] DrawError),
    /// A fact the tournament refuses as it would stand after the ones
    /// before it.
    #[error(transparent)]
    Refused(#[from] Refused<TournamentError>),
    /// A game of the round that cannot be drafted.
    #[error(transparent)]
    Game(#[from] GameDraftError),
    /// A sanction's kind or rounds that cannot be read.
    #[error("{0}")]
    Sanction(String),
    /// An OpenGotha file with no pairing in the round asked for.
    #[error("the OpenGotha file pairs nobody in round {0}")]
    NobodyPairedInFile(u32),
    /// A drawn round with nobody left to pair.
    #[error("round {0}: nobody is left to pair")]
    NobodyToPair(u32),
    /// More facts than one draft may hold.
    #[error("{count} {what}; at most {most} are drafted at once")]
    TooMany {
        /// How many.
        count: usize,
        /// Of what, in words (`boards in one pairing`).
        what: &'static str,
        /// The most one draft holds.
        most: usize,
    },
    /// No game of the round can be created: the boards' reasons, or none
    /// when every paired board has its game.
    #[error("{}", no_games(*.round, .reasons))]
    NoGames {
        /// Round.
        round: u32,
        /// Each board's reason.
        reasons: Vec<String>,
    },
    /// No finished game waits for its checkpoint.
    #[error("round {round}: no finished game {}waits for its checkpoint", .board.map(|b| format!("on board {b} ")).unwrap_or_default())]
    NoCheckpointDue {
        /// Round.
        round: u32,
        /// The board asked for, if one.
        board: Option<u32>,
    },
    /// No game of the round waits for its start.
    #[error("round {0}: no game of the round waits for its start (every game is started, finished, or not created yet)")]
    NoGameToStart(u32),
}

fn no_games(round: u32, reasons: &[String]) -> String {
    if reasons.is_empty() {
        format!("round {round}: every paired board has its game")
    } else {
        reasons.join("; ")
    }
}

/// A public key from its hex digits (blanks around them ignored).
pub fn key_of(hex_key: &str) -> Result<PublicKey, DeskError> {
    serde_json::from_value(serde_json::Value::String(hex_key.trim().to_string()))
        .map_err(|e: serde_json::Error| DeskError::BadKey(e.to_string()))
}

/// The JSON of a registration (`kifu_ledger::Registration`), for the
/// schema of [`Intent::Register`].
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct RegistrationJson {
    /// Registration id, unique in the tournament (`P1`, an EGD PIN...).
    id: String,
    /// Family name.
    surname: String,
    /// Given name.
    given: String,
    /// Declared rank (`2d`, `5k`).
    rank: String,
    /// Rating, 0 if unknown.
    rating: i32,
    /// Two-letter country code.
    country: String,
    /// Club.
    club: String,
    /// EGD PIN.
    egd_pin: String,
    /// AGA ID.
    aga_id: String,
    /// Correction to the starting McMahon score.
    smms_correction: i32,
    /// The player's key (hex), if the player signs games.
    key: Option<String>,
}

/// An official named in a new tournament: `{"name", "key"}`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
pub struct Official {
    // No field docs: the schema of `POST /director/draft`
    // (`docs/schema/api-director-intent.schema.json`) names the two bare.
    name: String,
    key: String,
}

/// What the director typed: `{"do": "...", ...}`. One is read per request
/// and dropped: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Intent {
    /// A new tournament, the page's key its director.
    Create {
        /// The director's key, hex.
        director_key: String,
        /// The director's name.
        #[serde(default)]
        director_name: String,
        /// Full name.
        name: String,
        /// Short name.
        #[serde(default)]
        short_name: String,
        /// Rounds.
        rounds: u32,
        /// Pairing system.
        #[serde(default)]
        system: String,
        /// Time control text (`canadian:60m+15/5m`).
        #[serde(default)]
        time: String,
        /// Komi (`7.5`).
        #[serde(default)]
        komi: String,
        /// City.
        #[serde(default)]
        city: String,
        /// Country code.
        #[serde(default)]
        country: String,
        /// First day.
        #[serde(default)]
        start: String,
        /// Last day.
        #[serde(default)]
        finish: String,
        /// Referees.
        #[serde(default)]
        referees: Vec<Official>,
        /// Appeals committee.
        #[serde(default)]
        committee: Vec<Official>,
        /// McMahon bar (empty: the default).
        #[serde(default)]
        bar: String,
        /// McMahon floor.
        #[serde(default)]
        floor: String,
        /// Placement criteria, `MMS,SOSM,SOSOSM`.
        #[serde(default)]
        criteria: String,
        /// NBW half points for a bye.
        #[serde(default)]
        bye_nbw: String,
        /// MMS half points for a bye.
        #[serde(default)]
        bye_mms: String,
        /// NBW half points for an absent round.
        #[serde(default)]
        absent_nbw: String,
        /// MMS half points for an absent round.
        #[serde(default)]
        absent_mms: String,
        /// Round bye and absence points down.
        #[serde(default)]
        round_down: Option<bool>,
        /// Opponents' unplayed rounds as ½ in SOS.
        #[serde(default)]
        unplayed_as_half: Option<bool>,
        /// The game (`go`, `renju`).
        #[serde(default)]
        game: String,
        /// The games' ruleset profile.
        #[serde(default)]
        ruleset: String,
        /// EGF class.
        #[serde(default)]
        egf_class: String,
        /// EGF adjusted time, minutes.
        #[serde(default)]
        adjusted_time: Option<u32>,
        /// Handicap reduction for the EGD file.
        #[serde(default)]
        handicap_reduction: Option<u32>,
        /// The tournament's time zone, an IANA name (empty: none stated).
        #[serde(default)]
        time_zone: String,
    },
    /// A new tournament from an OpenGotha tournament file, the page's key
    /// its director: its genesis, then every registration, absence,
    /// pairing, result and bye the file holds.
    ImportOpengotha {
        /// The director's key, hex.
        director_key: String,
        /// The director's name.
        #[serde(default)]
        director_name: String,
        /// The file's text.
        xml: String,
    },
    /// A round's pairings and byes as an OpenGotha tournament file has
    /// them (the file of this tournament: its players' ids are the ones
    /// OpenGotha's import gave them).
    PairOpengotha {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// The file's text.
        xml: String,
    },
    /// Register a player, or correct a registration.
    Register {
        /// The tournament.
        tournament: String,
        /// A correction of an existing registration.
        #[serde(default)]
        correct: bool,
        /// The registration.
        #[schemars(with = "RegistrationJson")]
        player: Registration,
    },
    /// A player absent (or withdrawn from) a round.
    Absent {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Registration id.
        player: String,
        /// `late`, `skip`, `withdrawal`, `sanction`.
        reason: String,
    },
    /// The bye.
    Bye {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Registration id.
        player: String,
    },
    /// A round's pairing as text (`board white black [handicap] [?]`).
    Pair {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// The pairing text.
        text: String,
        /// No line's colours were noted.
        #[serde(default)]
        colours_unknown: bool,
    },
    /// The round drawn by the pairing engine from the chain, changed by
    /// the director's swaps (each with its reason): the facts to sign
    /// (the boards, the bye, `round_drawn`) and, in `draw`, why each board
    /// is paired as it is.
    PairAuto {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// The swaps, in order.
        #[serde(default)]
        swaps: Vec<DrawSwap>,
    },
    /// A board's result entered by an official.
    Result {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// `W+`, `B+`, `jigo`, ...
        result: String,
        /// Decided by default.
        #[serde(default)]
        by_default: bool,
        /// Why, in words.
        reason: String,
    },
    /// The genesis of every game of the round not yet in the store, each
    /// naming the devices waiting for its seats and the tournament's
    /// officials.
    Games {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Players' device requests the director did not confirm (their
        /// fingerprints did not match the devices'): left out.
        #[serde(default)]
        exclude: Vec<String>,
        /// Board recorders' device requests the director confirmed: a
        /// recorder is enrolled only when ticked (a recorder signs for both
        /// players, so its seat is never given by default).
        #[serde(default)]
        recorders: Vec<String>,
    },
    /// A game's appeals committee formed from the tournament's committee
    /// (the first three as members, the others as reserves, in the
    /// genesis's order), signed by `signer`.
    Committee {
        /// The game (id or prefix).
        game: String,
        /// The key that will sign, hex.
        signer: String,
    },
    /// A member of a game's committee recused.
    Recuse {
        /// The game.
        game: String,
        /// The key that will sign, hex.
        signer: String,
        /// The member's key, hex.
        member: String,
        /// Why.
        reason: String,
    },
    /// A person co-opted to a game's committee to make up three.
    Coopt {
        /// The game.
        game: String,
        /// The key that will sign, hex.
        signer: String,
        /// Their name.
        name: String,
        /// Their key, hex.
        key: String,
    },
    /// The checkpoints of the round's finished games (or of one board).
    Checkpoint {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
        /// Only this board.
        board: Option<u32>,
    },
    /// The start of the round (LGC 2023, "Start"): Black's clock started
    /// in every game of the round not started yet, each signed by `signer`
    /// at its game's head.
    StartRound {
        /// The tournament.
        tournament: String,
        /// Round.
        round: u32,
    },
}

// ---- a new tournament -----------------------------------------------------

/// The director a new tournament names: `key`, under `name`
/// ([`DIRECTOR_NAME`] when none is given).
pub fn director(key: PublicKey, name: String) -> Participant {
    Participant {
        role: Role::Director,
        name: if name.trim().is_empty() {
            DIRECTOR_NAME.into()
        } else {
            name
        },
        key,
    }
}

/// The genesis of a new tournament: the `choices` (defaults filled in as
/// [`crate::settings::genesis`] fills them) and its `officials`, the
/// director first.
pub fn genesis(
    choices: Choices,
    officials: Vec<Participant>,
) -> Result<TournamentGenesis, DeskError> {
    let n = choices.new_tournament(officials)?;
    Ok(crate::settings::genesis(n)?)
}

/// A new tournament's facts: its genesis, and the facts signed right
/// after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Creation {
    /// The genesis.
    pub genesis: TournamentGenesis,
    /// The facts after it: the time zone stated, if one is given.
    pub facts: Vec<Body>,
}

impl Creation {
    /// Every fact, the genesis first.
    pub fn into_bodies(self) -> Vec<Body> {
        let mut bodies = vec![Body::TournamentCreated(self.genesis)];
        bodies.extend(self.facts);
        bodies
    }
}

/// The facts that create a tournament: its genesis, then, when a zone is
/// given (not blank), the zone stated right after it (`docs/FORMAT.md`
/// section 10, `time_zone_stated`).
pub fn created(genesis: TournamentGenesis, zone: Option<&str>) -> Result<Creation, DeskError> {
    let mut facts = Vec::new();
    if let Some(zone) = zone.map(str::trim).filter(|z| !z.is_empty()) {
        check_time_zone(zone)?;
        facts.push(time_zone(zone.to_string()));
    }
    Ok(Creation { genesis, facts })
}

fn officials(role: Role, list: Vec<Official>) -> Result<Vec<Participant>, DeskError> {
    list.into_iter()
        .map(|o| {
            Ok(Participant {
                role,
                name: o.name,
                key: key_of(&o.key)?,
            })
        })
        .collect()
}

/// The facts an [`Intent::Create`] states: the tournament it describes,
/// its director the key it names, and its time zone if one is given.
pub fn create(intent: Intent) -> Result<Vec<Body>, DeskError> {
    let Intent::Create {
        director_key,
        director_name,
        name,
        short_name,
        rounds,
        system,
        time,
        komi,
        city,
        country,
        start,
        finish,
        referees,
        committee,
        bar,
        floor,
        criteria,
        bye_nbw,
        bye_mms,
        absent_nbw,
        absent_mms,
        round_down,
        unplayed_as_half,
        game,
        ruleset,
        egf_class,
        adjusted_time,
        handicap_reduction,
        time_zone,
    } = intent
    else {
        return Err(DeskError::NotCreation);
    };
    let mut people = vec![director(key_of(&director_key)?, director_name)];
    people.extend(officials(Role::Referee, referees)?);
    people.extend(officials(Role::Committee, committee)?);
    // A field left blank on the page is a setting not chosen.
    let some = |s: String| (!s.trim().is_empty()).then(|| s.trim().to_string());
    let choices = Choices {
        name: Some(name),
        short_name: some(short_name),
        rounds: Some(rounds),
        system: some(system),
        time: some(time),
        komi: some(komi),
        city: Some(city),
        country: Some(country),
        start: Some(start),
        finish: Some(finish),
        bar: some(bar),
        floor: some(floor),
        criteria: some(criteria),
        bye_nbw: some(bye_nbw),
        bye_mms: some(bye_mms),
        absent_nbw: some(absent_nbw),
        absent_mms: some(absent_mms),
        round_down,
        unplayed_as_half,
        game: some(game),
        ruleset: some(ruleset),
        egf_class: some(egf_class),
        adjusted_time,
        handicap_reduction,
        ..Choices::default()
    };
    Ok(created(genesis(choices, people)?, Some(&time_zone))?.into_bodies())
}

/// The facts of a new tournament imported from an OpenGotha file, its
/// director `director`: the genesis, then every fact the file holds,
/// checked as the chain will check them once signed.
pub fn imported_opengotha(xml: &str, director: Participant) -> Result<Vec<Body>, DeskError> {
    let imported = crate::opengotha::import(xml, vec![director])?;
    imported.check()?;
    let mut bodies = vec![Body::TournamentCreated(imported.genesis)];
    bodies.extend(imported.facts);
    Ok(bodies)
}

// ---- facts of a tournament ------------------------------------------------

/// A player registered, or (`correct`) a registration corrected.
pub fn registered(player: Registration, correct: bool) -> Body {
    if correct {
        Body::RegistrationCorrected(player)
    } else {
        Body::PlayerRegistered(player)
    }
}

/// A player absent from `round` for the reason named in words
/// ([`entry::absence_reason`]).
pub fn absent(round: u32, player: String, reason: &str) -> Result<Body, DeskError> {
    Ok(Body::PlayerAbsent {
        round,
        player,
        reason: entry::absence_reason(reason)?,
    })
}

/// The bye of `round` given to `player`.
pub fn bye(round: u32, player: String) -> Body {
    Body::ByeGiven { round, player }
}

/// The tournament's time zone stated.
pub fn time_zone(zone: String) -> Body {
    Body::TimeZoneStated { zone }
}

/// A board's result entered by an official, from its words
/// ([`entry::result_word`]); a blank reason is
/// [`entry::OFFICIAL_RESULT_REASON`].
pub fn result(
    round: u32,
    board: u32,
    result: &str,
    by_default: bool,
    reason: String,
) -> Result<Body, DeskError> {
    Ok(Body::BoardResultEntered {
        round,
        board,
        result: entry::result_word(result)?,
        by_default,
        reason: if reason.trim().is_empty() {
            entry::OFFICIAL_RESULT_REASON.to_string()
        } else {
            reason
        },
    })
}

/// A sanction beyond one game: its kind and rounds in words
/// (`kifu_ledger::SanctionKind::tournament`).
pub fn sanction(
    player: String,
    kind: &str,
    rounds: &str,
    from_round: u32,
    reason: String,
) -> Result<Body, DeskError> {
    Ok(Body::TournamentSanction {
        player,
        kind: SanctionKind::tournament(kind, rounds)
            .map_err(|e| DeskError::Sanction(e.to_string()))?,
        from_round,
        reason,
    })
}

fn at_most(count: usize, what: &'static str, most: usize) -> Result<(), DeskError> {
    if count > most {
        return Err(DeskError::TooMany { count, what, most });
    }
    Ok(())
}

/// A round's pairing typed as text ([`entry::pairing_text`]), at most
/// `most` boards.
pub fn pairing_text(
    text: &str,
    round: u32,
    colours_unknown: bool,
    most: usize,
) -> Result<Vec<Body>, DeskError> {
    let bodies = entry::pairing_text(text, round, colours_unknown)?;
    at_most(bodies.len(), "boards in one pairing", most)?;
    Ok(bodies)
}

/// A round's pairings and byes as an OpenGotha file of the tournament has
/// them.
pub fn opengotha_round(xml: &str, round: u32) -> Result<Vec<Body>, DeskError> {
    let of_round = crate::opengotha::import(xml, vec![])?.round(round);
    if of_round.is_empty() {
        return Err(DeskError::NobodyPairedInFile(round));
    }
    Ok(of_round)
}

/// The round drawn by the pairing engine, changed by the director's
/// `swaps`: the draw (why each board is paired as it is) and its facts, at
/// most `most`.
pub fn drawn(
    p: &Projection,
    round: u32,
    swaps: &[DrawSwap],
    most: usize,
) -> Result<(Proposal, Vec<Body>), DeskError> {
    let d = crate::draw::propose(p, round, swaps)?;
    let bodies = crate::draw::facts(&d);
    if bodies.is_empty() {
        return Err(DeskError::NobodyToPair(round));
    }
    at_most(bodies.len(), "facts for one round", most)?;
    Ok((d, bodies))
}

/// Checks `bodies` in order against the tournament `p`, each as the ones
/// before it leave it: what would be refused once signed is refused now.
pub fn check(p: &Projection, bodies: &[Body]) -> Result<(), DeskError> {
    let mut next = p.clone();
    next.apply_all(bodies)?;
    Ok(())
}

/// The checkpoints due among the round's games as they stand (`games`,
/// each at its head): of one `board`, its finished game, as the director
/// confirms it; of the whole round, the finished games whose boards no
/// official's entry decided (`crate::checkpoints::is_due`).
pub fn checkpoints_due(
    chain: &Chain,
    round: u32,
    board: Option<u32>,
    games: impl IntoIterator<Item = Checkpoint>,
) -> Result<Vec<Body>, DeskError> {
    let due: Vec<Body> = games
        .into_iter()
        .filter(|c| board.is_none_or(|b| b == c.board))
        .filter(|c| c.result.is_some())
        .filter(|c| crate::checkpoints::is_due(chain, c, board.is_none()))
        .map(Body::GameCheckpointed)
        .collect();
    if due.is_empty() {
        return Err(DeskError::NoCheckpointDue { round, board });
    }
    Ok(due)
}

/// A member of a game's committee recused.
pub fn recused(member: PublicKey, reason: String) -> Body {
    Body::MemberRecused { member, reason }
}

/// A person co-opted to a game's committee.
pub fn coopted(name: String, key: PublicKey) -> Body {
    Body::MemberCoopted {
        member: Participant {
            role: Role::Committee,
            name,
            key,
        },
    }
}

// ---- devices and the round's games ----------------------------------------

/// True when what a device typed as its tournament names this one: its
/// short name, its full name (as people type it: case and surrounding
/// blanks ignored), or 16 or more hex digits of its id.
pub fn names_tournament(chain: &Chain, named: &str) -> bool {
    let t = &chain.projection.genesis;
    let n = named.trim();
    n == t.short_name
        || n.eq_ignore_ascii_case(t.short_name.trim())
        || n.eq_ignore_ascii_case(t.name.trim())
        || (n.len() >= 16 && hex::encode(chain.id()).starts_with(&n.to_ascii_lowercase()))
}

/// What a waiting device's seat is to the desk showing `round`: `board`
/// (it asks for a paired board of that round), `other_round`, `no_board`
/// (this tournament, no such board in the round) or `other_tournament` (a
/// name this tournament does not answer to, or none).
pub fn device_matches(chain: &Chain, round: u32, seat: &SeatRequest) -> &'static str {
    let ours = seat
        .tournament
        .as_deref()
        .is_some_and(|n| names_tournament(chain, n));
    match (ours, seat.round, seat.board) {
        (false, _, _) => "other_tournament",
        (true, Some(rr), _) if rr != round => "other_round",
        (true, Some(rr), Some(b)) if chain.projection.boards.contains_key(&(rr, b)) => "board",
        _ => "no_board",
    }
}

/// A device asking for a seat: its request's number and the seat.
#[derive(Debug, Clone, Copy)]
pub struct Asking<'a> {
    /// The request's number.
    pub request: &'a str,
    /// The seat it asks for.
    pub seat: &'a SeatRequest,
}

/// A device at a board, as the director sees it when the round's games
/// are drafted.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceAtBoard {
    /// The request's number.
    pub request: String,
    /// The seat it asks for.
    pub role: Role,
    /// The name it gives.
    pub name: String,
    /// Its key's fingerprint.
    pub fingerprint: String,
    /// Whether the game's genesis names its key.
    pub enrolled: bool,
}

impl DeviceAtBoard {
    fn of(d: &Asking<'_>, enrolled: bool) -> DeviceAtBoard {
        DeviceAtBoard {
            request: d.request.to_string(),
            role: d.seat.role,
            name: d.seat.name.clone(),
            fingerprint: d.seat.fingerprint(),
            enrolled,
        }
    }
}

/// A game of the round to create: its board, its genesis, and the devices
/// at the board.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardGame {
    /// Board.
    pub board: u32,
    /// The genesis (`game_created`).
    #[schemars(with = "kifu_game::document::EventBody")]
    pub body: Body,
    /// The devices at the board.
    pub devices: Vec<DeviceAtBoard>,
}

/// A board of the round with no game drafted, and why.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkippedBoard {
    /// Board.
    pub board: u32,
    /// No tablet asks for the board: a paper board, not a fault.
    pub paper: bool,
    /// Why, in words.
    pub reason: String,
    /// The devices at the board.
    pub devices: Vec<DeviceAtBoard>,
}

/// The games of a round to create, and the boards left without one.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundGames {
    /// The games, by board.
    pub games: Vec<BoardGame>,
    /// The boards skipped.
    pub skipped: Vec<SkippedBoard>,
}

/// The genesis of each game of `round` not yet created (`created`: the
/// boards whose game is in the store): the tournament's game, ruleset,
/// time control and komi ([`crate::games::board_genesis`]), the board's
/// pairing, its players' seats held as [`seat_holder`] says from the
/// devices asking for them (`devices`, but those in `exclude`: requests
/// the director did not confirm), the board recorders in `recorders` (the
/// director ticked them), and the tournament's officials. A board whose
/// seat no key can hold is named with the reason, and no game is drafted
/// for it; a board no tablet asks for is a paper board.
pub fn round_games(
    chain: &Chain,
    round: u32,
    created: &BTreeSet<u32>,
    devices: &[Asking<'_>],
    exclude: &[String],
    recorders: &[String],
) -> Result<RoundGames, DeskError> {
    let p = &chain.projection;
    let t = &p.genesis;
    let exclude: HashSet<&str> = exclude.iter().map(String::as_str).collect();
    let waiting: Vec<&Asking<'_>> = devices
        .iter()
        .filter(|r| {
            !exclude.contains(r.request)
                && r.seat.round == Some(round)
                && r.seat
                    .tournament
                    .as_deref()
                    .is_some_and(|n| names_tournament(chain, n))
        })
        .collect();
    let ticked = |d: &Asking<'_>| recorders.iter().any(|r| r == d.request);
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    for ((_, board), b) in p.boards.range((round, 0)..=(round, u32::MAX)) {
        if created.contains(board) || b.pairing.game.is_some() {
            continue;
        }
        let here: Vec<&Asking<'_>> = waiting
            .iter()
            .copied()
            .filter(|r| r.seat.board == Some(*board))
            .collect();
        let mut roster = Vec::new();
        let mut at_board = Vec::new();
        let mut missing = None;
        // A board recorder the director ticked signs for both players.
        let recorded = here
            .iter()
            .any(|r| r.seat.role == Role::Recorder && ticked(r));
        let place = kifu_ledger::unheld::board_place(&t.short_name, round, *board);
        for (role, who) in [
            (Role::Black, &b.pairing.black),
            (Role::White, &b.pairing.white),
        ] {
            let reg = p.player(who);
            let name = reg
                .map(|r| format!("{} {}", r.surname, r.given).trim().to_string())
                .unwrap_or_else(|| who.clone());
            let asking: Vec<&Asking<'_>> = here
                .iter()
                .copied()
                .filter(|r| r.seat.role == role)
                .collect();
            let registered = reg.and_then(|r| r.key);
            for d in &asking {
                at_board.push(DeviceAtBoard::of(d, holds_seat(registered, d.seat)));
            }
            let seats: Vec<&SeatRequest> = asking.iter().map(|d| d.seat).collect();
            match seat_holder(role, registered, &seats, recorded, &place) {
                Ok(key) => roster.push(Participant { role, name, key }),
                Err(EmptySeat::Unasked) => {
                    missing.get_or_insert(format!(
                        "board {board}: no device asks for {}'s seat ({who}) and the registration names no key",
                        role.word()
                    ));
                }
                Err(EmptySeat::Contested(fingerprints)) => {
                    missing.get_or_insert(format!(
                        "board {board}: {} devices ask for {}'s seat ({}): keep the one whose fingerprint the player's device shows",
                        fingerprints.len(),
                        role.word(),
                        fingerprints.join(", ")
                    ));
                }
            }
        }
        for d in here.iter().filter(|r| r.seat.role == Role::Recorder) {
            at_board.push(DeviceAtBoard::of(d, ticked(d)));
        }
        if let Some(why) = missing {
            // No tablet at all at the board: a paper board, not a fault (its
            // result is entered from the result sheet).
            let paper = here.is_empty();
            skipped.push(SkippedBoard {
                board: *board,
                paper,
                reason: if paper {
                    format!("board {board}: no tablet asks for it: a paper board, its result entered from the result sheet")
                } else {
                    why
                },
                devices: at_board,
            });
            continue;
        }
        let recorders = here
            .iter()
            .filter(|r| r.seat.role == Role::Recorder && ticked(r))
            .map(|d| Participant {
                role: Role::Recorder,
                name: d.seat.name.clone(),
                key: d.seat.key,
            })
            .collect();
        let g = crate::games::board_genesis(chain, round, *board, roster, recorders)?;
        games.push(BoardGame {
            board: *board,
            body: Body::GameCreated(g),
            devices: at_board,
        });
    }
    if games.is_empty() {
        return Err(DeskError::NoGames {
            round,
            reasons: skipped.iter().map(|s| s.reason.clone()).collect(),
        });
    }
    Ok(RoundGames { games, skipped })
}
