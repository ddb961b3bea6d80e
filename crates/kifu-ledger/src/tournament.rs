//! The facts a tournament chain records, and who may state them.
//!
//! A tournament chain is an ordinary chain of signed, hash-linked events
//! whose genesis is [`Body::TournamentCreated`] instead of a game. Its
//! officials (director, referees, appeals committee) are named in that
//! genesis. Registrations, pairings, byes, absences, results entered by an
//! official, checkpoints of game chains and sanctions that reach beyond one
//! game follow. The standings are computed from these facts by
//! `kifu-tournament` and `kifu-standings`; nothing here computes a score.

use serde::{Deserialize, Serialize};

use crate::body::{Body, GameKind, GameResult, Participant, Role, TimeControl};
use crate::chain::Head;
use crate::event::{Event, Hash, Record, ZERO_HASH};
use crate::key::PublicKey;
use crate::roles::Refusal;
use crate::LedgerError;

/// How the rounds are paired.
///
/// The last two variants were appended (FORMAT.md section 10) so that a
/// genesis can name the pairing engine and the settings it draws with
/// beyond its defaults; a genesis with one of the first four states the
/// engine's defaults for its system, as before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingSystem {
    /// McMahon (groups by McMahon score).
    McMahon,
    /// Swiss (groups by wins).
    Swiss,
    /// Everybody plays everybody.
    RoundRobin,
    /// Knockout.
    Knockout,
    /// McMahon, drawn by the named engine with these settings.
    McMahonDrawn(DrawRules),
    /// Swiss, drawn by the named engine with these settings.
    SwissDrawn(DrawRules),
}

impl PairingSystem {
    /// The system without its draw settings: McMahon, Swiss, round robin
    /// or knockout.
    pub fn base(&self) -> PairingSystem {
        match self {
            PairingSystem::McMahonDrawn(_) => PairingSystem::McMahon,
            PairingSystem::SwissDrawn(_) => PairingSystem::Swiss,
            other => other.clone(),
        }
    }

    /// The draw settings the genesis names, if any.
    pub fn draw_rules(&self) -> Option<&DrawRules> {
        match self {
            PairingSystem::McMahonDrawn(r) | PairingSystem::SwissDrawn(r) => Some(r),
            _ => None,
        }
    }
}

/// The pairing engine a tournament is drawn with and the settings that
/// differ from its defaults, each a name and a value as text
/// (`handicap.ceiling` = `5`), in the manner of a game genesis's
/// `overrides`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRules {
    /// The engine and its version (`kifu-pairing/1 (OpenGotha 3.51.02)`).
    pub engine: String,
    /// Settings that differ from the engine's defaults for the system.
    pub overrides: Vec<(String, String)>,
}

/// The first event of a tournament chain: everything that fixes how the
/// tournament is run and scored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGenesis {
    /// Full name (`Worked Example Open`).
    pub name: String,
    /// Short name, used on the command line and in game geneses.
    pub short_name: String,
    /// City.
    pub city: String,
    /// Two-letter country code.
    pub country: String,
    /// First day, `YYYY-MM-DD`.
    pub start: String,
    /// Last day, `YYYY-MM-DD`.
    pub finish: String,
    /// Go, Renju or Gomoku.
    pub game: GameKind,
    /// Default ruleset profile of its games.
    pub ruleset: String,
    /// Default time control of its games.
    pub time_control: TimeControl,
    /// Default komi in half points.
    pub komi_half_points: i32,
    /// Pairing system.
    pub system: PairingSystem,
    /// Number of rounds.
    pub rounds: u32,
    /// McMahon bar (a rank such as `4d`).
    pub mm_bar: String,
    /// McMahon floor (a rank such as `20k`).
    pub mm_floor: String,
    /// NBW half points for a bye.
    pub nbw2_bye: u8,
    /// MMS half points for a bye.
    pub mms2_bye: u8,
    /// NBW half points for an absent round.
    pub nbw2_absent: u8,
    /// MMS half points for an absent round.
    pub mms2_absent: u8,
    /// The sum of bye and absence points is rounded down.
    pub round_down_bye_absent: bool,
    /// Unplayed rounds of opponents count ½ in SOS.
    pub unplayed_as_half: bool,
    /// Placement criteria, in order, by name (`MMS`, `SOSM`, `SOSOSM`).
    pub criteria: Vec<String>,
    /// EGF class (`A`, `B`, `C`) for the results file.
    pub egf_class: String,
    /// EGF adjusted time in minutes.
    pub adjusted_time_minutes: u32,
    /// Handicap reduction (stones taken off the rank difference; `HA[hN]`).
    pub handicap_reduction: u32,
    /// The officials: the director, referees and appeals committee members.
    pub officials: Vec<Participant>,
}

impl TournamentGenesis {
    /// The roles `key` holds in this tournament.
    pub fn roles_of(&self, key: &PublicKey) -> Vec<Role> {
        self.officials
            .iter()
            .filter(|p| &p.key == key)
            .map(|p| p.role)
            .collect()
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct Registration {
    /// Registration id, unique in the tournament (`P1`, an EGD PIN...).
    pub id: String,
    /// Family name.
    pub surname: String,
    /// Given name.
    pub given: String,
    /// Declared rank (`2d`, `5k`).
    pub rank: String,
    /// Rating, 0 if unknown.
    pub rating: i32,
    /// Two-letter country code.
    pub country: String,
    /// Club.
    pub club: String,
    /// EGD PIN.
    pub egd_pin: String,
    /// AGA ID.
    pub aga_id: String,
    /// Correction to the starting McMahon score.
    pub smms_correction: i32,
    /// The player's key, if the player signs games.
    pub key: Option<PublicKey>,
}

/// One board of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Round, from 1.
    pub round: u32,
    /// Board, from 1.
    pub board: u32,
    /// White's registration id.
    pub white: String,
    /// Black's registration id.
    pub black: String,
    /// Handicap stones.
    pub handicap: u8,
    /// The game chain, once it exists.
    pub game: Option<Hash>,
}

/// A round drawn by the pairing engine, as the director signed it: the
/// engine's draw changed by `swaps`, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundDrawn {
    /// Round, from 1.
    pub round: u32,
    /// The engine and its version (`kifu-pairing/1 (OpenGotha 3.51.02)`).
    pub engine: String,
    /// The director's changes to the engine's draw, in the order made.
    pub swaps: Vec<DrawSwap>,
}

/// Two players of a drawn round exchange their places: their boards and
/// colours, or one's board and the other's bye; two players of one board
/// exchange colours.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct DrawSwap {
    /// One player's registration id.
    pub first: String,
    /// The other's.
    pub second: String,
    /// Why, in words.
    pub reason: String,
}

/// Why a player misses a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbsenceReason {
    /// Arrives for a later round.
    LateArrival,
    /// Skips this round.
    RoundSkipped,
    /// Withdraws from this round on.
    Withdrawal,
    /// Removed from this round as a sanction.
    Sanction,
}

/// A result as the tournament scores it (OpenGotha's six outcomes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardResult {
    /// No result yet.
    Unknown,
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Jigo.
    Jigo,
    /// Both lose.
    BothLose,
    /// Both win.
    BothWin,
}

/// A checkpoint of a game chain: ties the game's own signed record into the
/// tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Round, from 1.
    pub round: u32,
    /// Board, from 1.
    pub board: u32,
    /// The game id.
    pub game: Hash,
    /// Sequence number of the game's head.
    pub head_seq: u64,
    /// Hash of the game's head record.
    pub head_hash: Hash,
    /// The game's result at that head, if it has one.
    pub result: Option<GameResult>,
}

/// True for the body kinds of a tournament chain.
pub fn is_tournament_kind(body: &Body) -> bool {
    matches!(
        body,
        Body::TournamentCreated(_)
            | Body::PlayerRegistered(_)
            | Body::RegistrationCorrected(_)
            | Body::Paired(_)
            | Body::PairedColoursUnknown(_)
            | Body::ByeGiven { .. }
            | Body::PlayerAbsent { .. }
            | Body::BoardResultEntered { .. }
            | Body::GameCheckpointed(_)
            | Body::TournamentSanction { .. }
            | Body::RoundDrawn(_)
            | Body::TimeZoneStated { .. }
    )
}

/// Checks that a signer holding `roles` in the tournament may sign `body` at
/// sequence `seq` of a tournament chain.
pub fn check_role(roles: &[Role], body: &Body, seq: u64) -> Result<(), Refusal> {
    let kind = body.kind_name();
    let refuse = |rule: &str| {
        Err(Refusal {
            kind,
            rule: rule.to_string(),
        })
    };
    let has = |want: &[Role]| roles.iter().any(|r| want.contains(r));
    if !is_tournament_kind(body) {
        return refuse("a tournament chain records only tournament facts");
    }
    if let Body::TournamentCreated(_) = body {
        if seq != 0 {
            return refuse("a tournament is created only by the first event of its chain");
        }
        if !has(&[Role::Director]) {
            return refuse("the tournament is created by the director named in it");
        }
        return Ok(());
    }
    if seq == 0 {
        return refuse("the first event of a tournament chain must create the tournament");
    }
    match body {
        // LGC 2023, "Game forfeit": the referee declares one or both players
        // to lose by forfeit; the director enters every other result.
        Body::BoardResultEntered {
            by_default: true, ..
        } if has(&[Role::Director, Role::Referee]) => Ok(()),
        // LGC 2023, "Hindrance" and "Other sanctions": removal from rounds
        // or from the tournament and debarment are referees' sanctions.
        Body::TournamentSanction { .. } if has(&[Role::Director, Role::Referee]) => Ok(()),
        Body::PlayerAbsent {
            reason: AbsenceReason::Sanction,
            ..
        } if has(&[Role::Director, Role::Referee]) => Ok(()),
        Body::TournamentSanction { .. }
        | Body::PlayerAbsent {
            reason: AbsenceReason::Sanction,
            ..
        }
        | Body::BoardResultEntered {
            by_default: true, ..
        } => refuse("only the director or a referee may sign this"),
        // LGC 2023, "Drawmaster": the director (drawmaster) manages
        // registration and pairings.
        _ if has(&[Role::Director]) => Ok(()),
        _ => refuse("only the tournament director may sign this"),
    }
}

/// The tournament id: the hash of its genesis record.
pub fn tournament_id(genesis: &Record) -> Hash {
    genesis.hash()
}

/// Checks a tournament genesis record; gives the event and the genesis.
pub fn check_tournament_genesis(
    record: &Record,
) -> Result<(Event, TournamentGenesis), LedgerError> {
    let event = record.decode()?;
    let Body::TournamentCreated(genesis) = &event.body else {
        return Err(LedgerError::Refused(Refusal {
            kind: event.body.kind_name(),
            rule: "the first event of a tournament chain must create the tournament".into(),
        }));
    };
    let genesis = genesis.clone();
    if event.seq != 0 || event.chain != ZERO_HASH || event.prev_hash != ZERO_HASH {
        return Err(LedgerError::Link(
            "a genesis has seq 0 and zero chain id and previous hash".into(),
        ));
    }
    record.verify_signature(&event.signer)?;
    check_role(&genesis.roles_of(&event.signer), &event.body, 0).map_err(LedgerError::Refused)?;
    crate::chain::check_roster_keys(event.body.kind_name(), &genesis.officials)?;
    Ok((event, genesis))
}

/// Checks that `record` may follow `head` in tournament chain `id`.
pub fn check_tournament_append(
    id: &Hash,
    genesis: &TournamentGenesis,
    head: Head,
    record: &Record,
) -> Result<Event, LedgerError> {
    let event = record.decode()?;
    if &event.chain != id
        || head.seq == u64::MAX
        || event.seq != head.seq.saturating_add(1)
        || event.prev_hash != head.hash
    {
        return Err(LedgerError::Conflict {
            expected_seq: head.seq.saturating_add(1),
            got_seq: event.seq,
        });
    }
    record.verify_signature(&event.signer)?;
    check_role(&genesis.roles_of(&event.signer), &event.body, event.seq)
        .map_err(LedgerError::Refused)?;
    Ok(event)
}

fn board_result_text(r: BoardResult) -> &'static str {
    match r {
        BoardResult::Unknown => "no result",
        BoardResult::WhiteWins => "White wins",
        BoardResult::BlackWins => "Black wins",
        BoardResult::Jigo => "jigo",
        BoardResult::BothLose => "both lose",
        BoardResult::BothWin => "both win",
    }
}

/// A pairing system in words.
fn system_words(s: &PairingSystem) -> String {
    let base = match s.base() {
        PairingSystem::Swiss => "Swiss",
        PairingSystem::RoundRobin => "round robin",
        PairingSystem::Knockout => "knockout",
        _ => "McMahon",
    };
    match s.draw_rules() {
        None => base.to_string(),
        Some(r) if r.overrides.is_empty() => format!("{base} drawn by {}", r.engine),
        Some(r) => format!(
            "{base} drawn by {} with {}",
            r.engine,
            r.overrides
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Why a player misses a round, in words.
pub fn absence_words(r: AbsenceReason) -> &'static str {
    match r {
        AbsenceReason::LateArrival => "arrives for a later round",
        AbsenceReason::RoundSkipped => "skips the round",
        AbsenceReason::Withdrawal => "withdrawn",
        AbsenceReason::Sanction => "removed by a sanction",
    }
}

/// A sanction that reaches beyond one game, in words.
fn sanction_words(k: &crate::body::SanctionKind) -> String {
    use crate::body::SanctionKind as K;
    match k {
        K::Advice => "advice".into(),
        K::Warning => "warning".into(),
        K::GameForfeit => "game forfeit".into(),
        K::TimeModified { delta_ms } => {
            let (sign, ms) = (
                if *delta_ms < 0 { "-" } else { "+" },
                delta_ms.unsigned_abs(),
            );
            format!(
                "time limit modified by {sign}{}:{:02}",
                ms / 60_000,
                ms / 1000 % 60
            )
        }
        K::RemovedFromRounds { rounds } => format!(
            "removal from round(s) {}",
            rounds
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        K::RemovedFromTournament => "removal from the tournament".into(),
        K::Debarment => "debarment from a supergroup in a future tournament".into(),
        K::Disqualification => "disqualification".into(),
    }
}

/// What a tournament fact says, in words (empty for other kinds).
pub fn describe(body: &Body) -> String {
    match body {
        Body::TournamentCreated(g) => format!(
            "tournament created: {} ({}), {} {}{}, {}, {} rounds, criteria {}",
            g.name,
            g.short_name,
            g.city,
            g.country,
            match (g.start.is_empty(), g.finish.is_empty()) {
                (true, true) => String::new(),
                _ => format!(", {} to {}", g.start, g.finish),
            },
            system_words(&g.system),
            g.rounds,
            g.criteria.join(",")
        ),
        Body::PlayerRegistered(r) | Body::RegistrationCorrected(r) => format!(
            "{} {}: {} {} {} {} {}",
            body.kind_name(),
            r.id,
            r.surname,
            r.given,
            r.rank,
            r.country,
            r.club
        ),
        Body::Paired(p) => format!(
            "round {} board {}: {} (White) – {} (Black), handicap {}{}",
            p.round,
            p.board,
            p.white,
            p.black,
            p.handicap,
            p.game
                .map(|g| format!(", game {}", hex::encode(&g[..8])))
                .unwrap_or_default()
        ),
        Body::PairedColoursUnknown(p) => format!(
            "round {} board {}: {} – {}, colours not noted, handicap {}{}",
            p.round,
            p.board,
            p.white,
            p.black,
            p.handicap,
            p.game
                .map(|g| format!(", game {}", hex::encode(&g[..8])))
                .unwrap_or_default()
        ),
        Body::ByeGiven { round, player } => format!("round {round}: bye for {player}"),
        Body::TimeZoneStated { zone } => {
            format!("time zone: {zone} (the tournament's times of day are shown in it)")
        }
        Body::RoundDrawn(d) => format!(
            "round {}: drawn by {}{}",
            d.round,
            d.engine,
            d.swaps
                .iter()
                .map(|s| format!("; {} and {} swapped ({})", s.first, s.second, s.reason))
                .collect::<String>()
        ),
        Body::PlayerAbsent {
            round,
            player,
            reason,
        } => format!(
            "round {round}: {player} absent ({})",
            absence_words(*reason)
        ),
        Body::BoardResultEntered {
            round,
            board,
            result,
            by_default,
            reason,
        } => format!(
            "round {round} board {board}: {}{} ({reason})",
            board_result_text(*result),
            if *by_default { " by default" } else { "" }
        ),
        Body::GameCheckpointed(c) => format!(
            "round {} board {}: game {} checkpointed at seq {}",
            c.round,
            c.board,
            hex::encode(&c.game[..8]),
            c.head_seq
        ),
        Body::TournamentSanction {
            player,
            kind,
            from_round,
            reason,
        } => format!(
            "sanction on {player} from round {from_round}: {} ({reason})",
            sanction_words(kind)
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::kind_names;

    fn result(by_default: bool) -> Body {
        Body::BoardResultEntered {
            round: 1,
            board: 1,
            result: BoardResult::WhiteWins,
            by_default,
            reason: "r".into(),
        }
    }

    #[test]
    fn tournament_kinds_are_appended_with_stable_indices() {
        assert_eq!(kind_names()[52], "tournament_sanction");
        let bye = Body::ByeGiven {
            round: 3,
            player: "P5".into(),
        };
        assert_eq!(bye.kind_index(), 48);
        assert_eq!(bye.kind_name(), "bye given");
        let bytes = postcard::to_allocvec(&bye).expect("encodes");
        assert_eq!(bytes[0], 48, "the postcard variant index is the kind index");
    }

    #[test]
    fn director_records_referee_forfeits_and_sanctions() {
        let d = [Role::Director];
        let r = [Role::Referee];
        let bye = Body::ByeGiven {
            round: 1,
            player: "P".into(),
        };
        assert!(check_role(&d, &bye, 1).is_ok());
        assert!(check_role(&r, &bye, 1).is_err());
        assert!(check_role(&r, &result(true), 1).is_ok());
        assert!(check_role(&r, &result(false), 1).is_err());
        assert!(check_role(&d, &result(false), 1).is_ok());
        let sanction = Body::TournamentSanction {
            player: "P".into(),
            kind: crate::body::SanctionKind::Debarment,
            from_round: 1,
            reason: "r".into(),
        };
        assert!(check_role(&r, &sanction, 1).is_ok());
        assert!(check_role(&[Role::Committee], &sanction, 1).is_err());
        assert!(check_role(&[], &bye, 1).is_err());
        // Only tournament facts, and the genesis only at seq 0.
        let game_fact = Body::ClockStarted {
            running: crate::body::Color::Black,
        };
        assert!(check_role(&d, &game_fact, 1).is_err());
        assert!(check_role(&d, &bye, 0).is_err());
    }
}
