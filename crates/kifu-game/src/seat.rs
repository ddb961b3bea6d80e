//! A device asking to sit at a seat, and the genesis that enrols it.
//!
//! A board device (a player's tablet, a shared board recorder) makes its own
//! Ed25519 key and asks for a seat: "tournament T, round 3, board 7, Black",
//! or a free-standing game. The request is not a ledger event and grants
//! nothing: the official who signs the game's genesis compares the key's
//! fingerprint with the one the device shows, and the genesis names the key
//! (`docs/FORMAT.md`, section 5: the roster is the authorisation). A device
//! bound to a game already running comes in with a `key_replaced` instead
//! (section 5.2).

use kifu_ledger::{Genesis, Participant, PublicKey, Role};
use serde::{Deserialize, Serialize};

/// The longest name or tournament a request may carry, in characters.
pub const MAX_TEXT: usize = 120;

/// The seat a device asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatRequest {
    /// The device's public key (hex).
    #[schemars(with = "String")]
    pub key: PublicKey,
    /// `black`, `white` (a player's own device) or `recorder` (one shared
    /// device at the board, signing moves and presses for both).
    #[schemars(with = "SeatRole")]
    pub role: Role,
    /// The person (or the board) as the roster will name them.
    pub name: String,
    /// The tournament, as its genesis names it; `None` for a free-standing
    /// game.
    #[serde(default)]
    pub tournament: Option<String>,
    /// The round, from 1.
    #[serde(default)]
    pub round: Option<u32>,
    /// The board, from 1.
    #[serde(default)]
    pub board: Option<u32>,
}

/// `kifu devices --json` on a data directory, with no server: the device
/// requests as the directory keeps them, each with its key's fingerprint
/// and its seat in words. A server answers more of each (`GET /devices`:
/// the games naming the key and whether it waits).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeptRequests {
    /// The requests kept, oldest first.
    pub requests: Vec<KeptRequest>,
}

/// One request of [`KeptRequests`].
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct KeptRequest {
    /// The request's number (what `kifu new-game --device-request` takes).
    pub id: String,
    /// When the server first received it (ms since the Unix epoch, the
    /// server's clock).
    pub at_ms: u64,
    /// The device's own clock when it signed the request kept.
    pub signed_at_ms: u64,
    /// The key's fingerprint (docs/FORMAT.md section 8).
    pub fingerprint: String,
    /// The seat in words.
    pub seat: String,
    /// The key and the seat asked for.
    #[serde(flatten)]
    pub request: SeatRequest,
}

/// The roles a device may ask for (the schema of [`SeatRequest::role`]).
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
pub enum SeatRole {
    /// A player's own device, for Black.
    Black,
    /// A player's own device, for White.
    White,
    /// One shared device at the board.
    Recorder,
}

/// The domain of a device request's signature: the device signs
/// `REQUEST_DOMAIN || body`, the request's JSON body exactly as sent.
pub const REQUEST_DOMAIN: &[u8] = b"kifu/v1/device-request\n";

/// A device request as it arrives (`POST /devices`): the seat, the
/// device's own clock, and whether it withdraws its request. The body is
/// signed by the device's key ([`SignedRequest::open`]): a request is proof
/// that the device holds the key it names, so no one else can make, change
/// or withdraw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SignedRequest {
    /// The seat asked for.
    #[serde(flatten)]
    pub seat: SeatRequest,
    /// The device's clock when it signed (ms since the Unix epoch): each
    /// request of one key comes after the last one kept, so an old request
    /// replayed changes nothing.
    pub signed_at_ms: u64,
    /// The device withdraws its request.
    #[serde(default)]
    pub withdraw: bool,
}

impl SignedRequest {
    /// Reads a request's `body` and checks `signature` (128 hex digits) by
    /// the key it names over [`REQUEST_DOMAIN`] and the body's bytes, then
    /// the seat ([`SeatRequest::check`]).
    ///
    /// # Errors
    ///
    /// A body that is not a request, a missing or bad signature, a bad seat.
    pub fn open(body: &[u8], signature: Option<&str>) -> Result<SignedRequest, SeatError> {
        let r: SignedRequest = serde_json::from_slice(body).map_err(|e| {
            SeatError::Text(format!(
                "a device request is {{\"key\", \"role\", \"name\", \"tournament\", \"round\", \"board\", \"signed_at_ms\"}}: {e}"
            ))
        })?;
        r.seat.check()?;
        let sig = signature
            .map(str::trim)
            .and_then(|h| hex::decode(h).ok())
            .and_then(|b| <[u8; 64]>::try_from(b).ok())
            .ok_or(SeatError::Unsigned)?;
        let mut message = REQUEST_DOMAIN.to_vec();
        message.extend_from_slice(body);
        kifu_ledger::sig::verify_one(&r.seat.key.0, &message, &sig)
            .map_err(|_| SeatError::Signature)?;
        Ok(r)
    }

    /// The header value a device sends with `body`: its signature by
    /// `key`, in hex (what `/web/board.js` computes with Web Crypto).
    pub fn sign(key: &kifu_ledger::Keypair, body: &[u8]) -> String {
        let mut message = REQUEST_DOMAIN.to_vec();
        message.extend_from_slice(body);
        hex::encode(key.sign_raw(&message))
    }
}

/// Why a request cannot be made, or cannot enrol a device in a genesis.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    /// The key is not one the format accepts.
    #[error("the device's key is not an acceptable Ed25519 public key: {0}")]
    BadKey(String),
    /// A seat other than a player's, the board's or a referee's.
    #[error("a device asks for the seat of black, white, recorder or referee, not {0}")]
    Role(String),
    /// A name or tournament that is empty, too long or holds control characters.
    #[error("{0}")]
    Text(String),
    /// A request without its device's signature.
    #[error("a device request is signed by the device's own key: send the signature of \"kifu/v1/device-request\\n\" and the body in the Kifu-Device-Signature header (128 hex digits)")]
    Unsigned,
    /// A signature the named key did not make over this body.
    #[error("the request's signature is not the named key's over this body: only the device holding the key may ask, change or withdraw its request")]
    Signature,
    /// The request's seat is not the game's.
    #[error("the device asked for {asked}; this game is {game}")]
    OtherSeat {
        /// The seat asked for, in words.
        asked: String,
        /// The game's place, in words.
        game: String,
    },
    /// Two keys for one player's seat.
    #[error("{role} is already held by {name} in this roster; a seat has one key")]
    Taken {
        /// The seat.
        role: &'static str,
        /// Who holds it.
        name: String,
    },
    /// A key already in the roster.
    #[error("the key {fingerprint} is already in the roster (as {name}); a key speaks for one participant")]
    KeyInRoster {
        /// The key's fingerprint.
        fingerprint: String,
        /// Who it is.
        name: String,
    },
}

fn check_text(what: &str, s: &str, may_be_empty: bool) -> Result<(), SeatError> {
    if !may_be_empty && s.trim().is_empty() {
        return Err(SeatError::Text(format!("the {what} is empty")));
    }
    if s.chars().count() > MAX_TEXT {
        return Err(SeatError::Text(format!(
            "the {what} is longer than {MAX_TEXT} characters"
        )));
    }
    if s.chars().any(char::is_control) {
        return Err(SeatError::Text(format!(
            "the {what} holds control characters"
        )));
    }
    if let Some(c) = s.chars().find(|c| kifu_ledger::bounds::is_format(*c)) {
        return Err(SeatError::Text(format!(
            "the {what} holds the character U+{:04X}, a format character that would change how the text around it is shown",
            u32::from(c)
        )));
    }
    Ok(())
}

impl SeatRequest {
    /// Checks what a request may carry: an acceptable key (`docs/FORMAT.md`,
    /// section 1, rule 1), a player's or the board's seat, a name and a
    /// tournament of printable text, rounds and boards from 1.
    ///
    /// # Errors
    ///
    /// The first [`SeatError`] found.
    pub fn check(&self) -> Result<(), SeatError> {
        kifu_ledger::sig::check_key(&self.key.0).map_err(|e| SeatError::BadKey(e.to_string()))?;
        // A referee's console asks as a board device does; it sits at every
        // game of the tournament (or of the round, the board) it names.
        if !matches!(
            self.role,
            Role::Black | Role::White | Role::Recorder | Role::Referee
        ) {
            return Err(SeatError::Role(self.role.word().to_string()));
        }
        check_text("name", &self.name, false)?;
        if let Some(t) = &self.tournament {
            check_text("tournament", t, false)?;
        }
        if self.round == Some(0) || self.board == Some(0) {
            return Err(SeatError::Text("rounds and boards count from 1".into()));
        }
        Ok(())
    }

    /// True when a game at `place` (its genesis's tournament place, `None`
    /// for a free-standing game) answers this request: the round and the
    /// board the request names are the game's. The same key asks again for
    /// its next round with the same tablet, so a game of an earlier round
    /// that names the key leaves the new request waiting. The tournament's
    /// name is not compared: a device may type the full name of a
    /// tournament whose games carry its short name.
    pub fn answered_by(&self, place: Option<&kifu_ledger::TournamentRef>) -> bool {
        let same = |asked: Option<u32>, game: Option<u32>| asked.is_none() || asked == game;
        same(self.round, place.map(|t| t.round)) && same(self.board, place.map(|t| t.board))
    }

    /// The key's fingerprint, as the device shows it.
    pub fn fingerprint(&self) -> String {
        self.key.fingerprint()
    }

    /// The seat in words: "Black at Sample Open, round 3, board 7".
    pub fn seat_text(&self) -> String {
        let role = crate::words::role(self.role);
        let mut who = role[..1].to_uppercase();
        who.push_str(&role[1..]);
        let mut place = Vec::new();
        if let Some(t) = &self.tournament {
            place.push(t.clone());
        }
        if let Some(r) = self.round {
            place.push(format!("round {r}"));
        }
        if let Some(b) = self.board {
            place.push(format!("board {b}"));
        }
        if place.is_empty() {
            format!("{who} in a free-standing game")
        } else {
            format!("{who} at {}", place.join(", "))
        }
    }

    /// True when the seat asked for can be this genesis's place: each of
    /// tournament, round and board the request names is the game's.
    fn fits(&self, g: &Genesis) -> bool {
        let t = g.tournament.as_ref();
        let same = |asked: Option<String>, game: Option<String>| match asked {
            None => true,
            Some(a) => game.as_deref() == Some(a.as_str()),
        };
        same(self.tournament.clone(), t.map(|t| t.tournament.clone()))
            && same(
                self.round.map(|r| r.to_string()),
                t.map(|t| t.round.to_string()),
            )
            && same(
                self.board.map(|b| b.to_string()),
                t.map(|t| t.board.to_string()),
            )
    }
}

fn game_place(g: &Genesis) -> String {
    match &g.tournament {
        Some(t) => format!("{}, round {}, board {}", t.tournament, t.round, t.board),
        None => "a free-standing game".into(),
    }
}

/// Names each requesting device's key in the genesis roster, at the seat it
/// asked for. Nothing is changed unless every request fits.
///
/// # Errors
///
/// A request that is not valid ([`SeatRequest::check`]), whose seat is not
/// the game's (another tournament, round or board), whose player seat is
/// already held by another key, or whose key is already in the roster.
pub fn enrol(genesis: &mut Genesis, requests: &[SeatRequest]) -> Result<(), SeatError> {
    let mut roster = genesis.roster.clone();
    for r in requests {
        r.check()?;
        if !r.fits(genesis) {
            return Err(SeatError::OtherSeat {
                asked: r.seat_text(),
                game: game_place(genesis),
            });
        }
        if let Some(p) = roster.iter().find(|p| p.key == r.key) {
            return Err(SeatError::KeyInRoster {
                fingerprint: r.fingerprint(),
                name: p.name.clone(),
            });
        }
        if matches!(r.role, Role::Black | Role::White) {
            if let Some(p) = roster.iter().find(|p| p.role == r.role) {
                return Err(SeatError::Taken {
                    role: r.role.word(),
                    name: p.name.clone(),
                });
            }
        }
        roster.push(Participant {
            role: r.role,
            name: r.name.trim().to_string(),
            key: r.key,
        });
    }
    genesis.roster = roster;
    Ok(())
}

/// A player's seat at a board that no key can hold yet, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmptySeat {
    /// No device asks for it and the registration names no key.
    Unasked,
    /// Several devices ask for it: their fingerprints, in the order asked.
    /// The official keeps the one whose fingerprint the player's device
    /// shows.
    Contested(Vec<String>),
}

/// The seat rule of a tournament board: the key that holds `role`'s seat
/// at the board `place` names (`kifu_ledger::unheld::board_place`).
///
/// - The key the player's registration names holds it; a device asking for
///   it is listed, not enrolled ([`holds_seat`]).
/// - Else the one device asking for it (`asking`: the requests for this
///   board and this seat).
/// - Else, when a board recorder the official confirmed signs for both
///   players (`recorded`), the board's unheld key
///   (`kifu_ledger::unheld::unheld_key`), which no device holds.
/// - Else nobody: [`EmptySeat`] says why (no one asks, or several devices
///   ask: a seat has one key).
pub fn seat_holder(
    role: Role,
    registered: Option<PublicKey>,
    asking: &[&SeatRequest],
    recorded: bool,
    place: &str,
) -> Result<PublicKey, EmptySeat> {
    match (asking, registered) {
        (_, Some(key)) => Ok(key),
        ([d], None) => Ok(d.key),
        ([], None) if recorded => Ok(kifu_ledger::unheld::unheld_key(place, role)),
        ([], None) => Err(EmptySeat::Unasked),
        (more, None) => Err(EmptySeat::Contested(
            more.iter().map(|d| d.fingerprint()).collect(),
        )),
    }
}

/// True when the device asking for a player's seat is the one [`seat_holder`]
/// seats: the registration names no key, or names the device's.
pub fn holds_seat(registered: Option<PublicKey>, asking: &SeatRequest) -> bool {
    registered.is_none_or(|k| k == asking.key)
}

/// A participant named by what a person types that names nobody, or
/// several keys.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NamedParticipant {
    /// Nobody in the roster or on the committee.
    #[error("no participant {spec:?} in the game's roster (it has: {})", .known.join(", "))]
    Nobody {
        /// What was typed.
        spec: String,
        /// Everyone there is, as [`participant_label`] names them.
        known: Vec<String>,
    },
    /// Several participants holding different keys.
    #[error("{spec:?} names several keys ({}): give the participant's key in hex", .named.join(", "))]
    Several {
        /// What was typed.
        spec: String,
        /// The participants it names.
        named: Vec<String>,
    },
}

/// A participant as a person reads them: `Ann (black)`.
pub fn participant_label(p: &Participant) -> String {
    format!("{} ({})", p.name, crate::words::role(p.role))
}

/// The participant of the game `standing` (its roster now, then everyone
/// the committee's events name: members, reserves, co-opted,
/// `docs/FORMAT.md` section 5.2, rules 3 and 4, each with the current key)
/// that `spec` names: a key in hex, a name, or a role, in any case.
///
/// # Errors
///
/// [`NamedParticipant`] when `spec` names nobody, or several keys.
pub fn find_participant(
    standing: &kifu_ledger::standing::Standing,
    spec: &str,
) -> Result<Participant, NamedParticipant> {
    let mut roster: Vec<Participant> = standing.roster().to_vec();
    if let Some(c) = &standing.committee {
        for p in c.members.iter().chain(&c.reserves).chain(&c.coopted) {
            if !roster.iter().any(|q| q.key == p.key) {
                roster.push(p.clone());
            }
        }
    }
    let by_key = PublicKey::from_hex(spec.trim()).ok();
    let matches: Vec<&Participant> = roster
        .iter()
        .filter(|p| {
            Some(p.key) == by_key
                || p.name.eq_ignore_ascii_case(spec)
                || crate::words::role(p.role).eq_ignore_ascii_case(spec)
        })
        .collect();
    let Some(first) = matches.first() else {
        return Err(NamedParticipant::Nobody {
            spec: spec.to_string(),
            known: roster.iter().map(participant_label).collect(),
        });
    };
    if matches.iter().any(|p| p.key != first.key) {
        return Err(NamedParticipant::Several {
            spec: spec.to_string(),
            named: matches.iter().map(|p| participant_label(p)).collect(),
        });
    }
    Ok((*first).clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::{GameKind, Keypair, TimeControl, TournamentRef};

    fn genesis() -> Genesis {
        Genesis {
            game: GameKind::Go,
            ruleset: kifu_go::Ruleset::lgc_2023().name,
            overrides: vec![],
            board_size: 9,
            handicap: 0,
            komi_half_points: 13,
            time_control: TimeControl::Untimed,
            roster: vec![Participant {
                role: Role::Referee,
                name: "Ref".into(),
                key: Keypair::from_seed([3; 32]).public(),
            }],
            tournament: Some(TournamentRef {
                tournament: "Open".into(),
                round: 3,
                board: 7,
            }),
            title: String::new(),
            auto_declare: false,
        }
    }

    fn request(seed: u8, role: Role) -> SeatRequest {
        SeatRequest {
            key: Keypair::from_seed([seed; 32]).public(),
            role,
            name: format!("Player {seed}"),
            tournament: Some("Open".into()),
            round: Some(3),
            board: Some(7),
        }
    }

    #[test]
    fn devices_at_the_game_s_seats_are_enrolled() {
        let mut g = genesis();
        enrol(&mut g, &[request(1, Role::Black), request(2, Role::White)]).unwrap();
        assert_eq!(g.roles_of(&request(1, Role::Black).key), vec![Role::Black]);
        assert_eq!(g.roster.len(), 3);
    }

    #[test]
    fn a_request_for_another_board_or_a_taken_seat_changes_nothing() {
        let mut g = genesis();
        let mut other = request(2, Role::White);
        other.board = Some(8);
        let e = enrol(&mut g, &[request(1, Role::Black), other]).unwrap_err();
        assert!(e.to_string().contains("board 8"), "{e}");
        assert_eq!(g.roster.len(), 1);
        let e = enrol(&mut g, &[request(1, Role::Black), request(2, Role::Black)]).unwrap_err();
        assert!(matches!(e, SeatError::Taken { .. }), "{e}");
        let e = enrol(&mut g, &[request(3, Role::Black)]).unwrap_err();
        assert!(matches!(e, SeatError::KeyInRoster { .. }), "{e}");
        assert_eq!(g.roster.len(), 1);
    }

    #[test]
    fn a_request_for_the_next_round_waits_for_that_round_s_game() {
        let mut asked = request(1, Role::Black);
        let round_3 = genesis().tournament;
        assert!(asked.answered_by(round_3.as_ref()));
        asked.round = Some(4);
        assert!(!asked.answered_by(round_3.as_ref()));
        assert!(!asked.answered_by(None));
        let round_4 = round_3.map(|t| TournamentRef { round: 4, ..t });
        assert!(asked.answered_by(round_4.as_ref()));
        let free = SeatRequest {
            tournament: None,
            round: None,
            board: None,
            ..asked
        };
        assert!(free.answered_by(None) && free.answered_by(round_4.as_ref()));
    }

    #[test]
    fn a_board_s_seat_is_held_by_the_registered_key_else_the_one_device_asking() {
        let place = kifu_ledger::unheld::board_place("Open", 3, 7);
        let (ann, bob) = (request(1, Role::Black), request(2, Role::Black));
        let registered = Keypair::from_seed([9; 32]).public();
        assert_eq!(
            seat_holder(Role::Black, Some(registered), &[&ann], false, &place),
            Ok(registered)
        );
        assert!(!holds_seat(Some(registered), &ann));
        assert!(holds_seat(None, &ann) && holds_seat(Some(ann.key), &ann));
        assert_eq!(
            seat_holder(Role::Black, None, &[&ann], false, &place),
            Ok(ann.key)
        );
        assert_eq!(
            seat_holder(Role::Black, None, &[&ann, &bob], true, &place),
            Err(EmptySeat::Contested(vec![
                ann.fingerprint(),
                bob.fingerprint()
            ]))
        );
        assert_eq!(
            seat_holder(Role::Black, None, &[], false, &place),
            Err(EmptySeat::Unasked)
        );
        // A board recorder signs for a player no device asks for, on the
        // board's unheld key.
        assert_eq!(
            seat_holder(Role::Black, None, &[], true, &place),
            Ok(kifu_ledger::unheld::unheld_key(&place, Role::Black))
        );
    }

    #[test]
    fn bad_requests_are_refused() {
        let mut r = request(1, Role::Director);
        assert!(matches!(r.check(), Err(SeatError::Role(_))));
        r.role = Role::Black;
        r.name = " ".into();
        assert!(matches!(r.check(), Err(SeatError::Text(_))));
        r.name = "a\u{7}".into();
        assert!(matches!(r.check(), Err(SeatError::Text(_))));
        r.name = "Ann".into();
        r.key = PublicKey([0; 32]);
        assert!(matches!(r.check(), Err(SeatError::BadKey(_))));
    }

    #[test]
    fn a_participant_is_found_by_key_name_or_role_in_any_case() {
        use kifu_ledger::testkit::{sample_game, Cast};
        let cast = Cast::new();
        let standing = sample_game(&cast, "named").standing();
        let black = find_participant(&standing, "BLACK").unwrap();
        assert_eq!(black.key, cast.black.public());
        assert_eq!(
            find_participant(&standing, &cast.white.public().to_hex())
                .unwrap()
                .role,
            Role::White
        );
        let by_name = find_participant(&standing, &black.name.to_uppercase()).unwrap();
        assert_eq!(by_name.key, black.key);
        let e = find_participant(&standing, "nobody").unwrap_err();
        assert!(
            matches!(&e, NamedParticipant::Nobody { known, .. } if known.contains(&participant_label(&black)))
        );
        assert!(e
            .to_string()
            .starts_with("no participant \"nobody\" in the game's roster (it has: "));
    }
}
