//! Who may sign what at a given point of a chain, and what the chain says so
//! far about its end.
//!
//! The genesis roster fixes most roles for the whole game. The appeals
//! committee changes along the chain (LGC 2023, "Appeals committee": formed
//! before the first round; a member with a conflict of interest is recused and
//! replaced by a reserve, or players are co-opted to make up three), so the
//! right to sign a `committee_decision` is read from the chain up to that
//! point: see [`Standing::check`] and `docs/FORMAT.md` section 5.1.
//!
//! Keys change along the chain the same way: `key_replaced` and `key_revoked`
//! events give each roster key a validity window (from the genesis, or from
//! the event that brought it in, to the event that replaced or revoked it);
//! see `docs/FORMAT.md` section 5.2, "Keys along the chain".
//!
//! A `Standing` is built by applying the events of a chain in order; it holds
//! no I/O and no clock.

use std::collections::BTreeMap;

use crate::body::{
    Body, Color, CommitteeVerdict, Genesis, Participant, Point, Role, RulingEffect, SanctionKind,
};
use crate::event::Event;
use crate::key::PublicKey;
use crate::roles::{self, Refusal};

/// How far back in time an event may be stamped, relative to the one before
/// it, before verification warns: clocks of different devices at one board
/// disagree by a few seconds.
pub const TIME_TOLERANCE_MS: u64 = 5_000;

/// The appeals committee as the chain has made it so far (the ledger's
/// role checks and the projection's panels read the same one).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Committee {
    /// Seq of the `committee_formed` event.
    pub formed_seq: u64,
    /// Members as formed.
    pub members: Vec<Participant>,
    /// Reserves, in order.
    pub reserves: Vec<Participant>,
    /// Co-opted, in order.
    pub coopted: Vec<Participant>,
    /// Recused keys.
    pub recused: Vec<PublicKey>,
}

/// How many sit on an appeals committee: three (LGC 2023, "Appeals
/// committee"; docs/FORMAT.md section 5.1). Every ruleset profile with a
/// committee states the same number (`kifu_go::Appeals`).
pub const COMMITTEE_SEATS: usize = 3;

/// The `size` who sit on a case, in the order they are called: members not
/// recused, then reserves, then co-opted persons, leaving out the game's
/// players and anyone named twice (LGC 2023, "Appeals committee"). The one
/// seating rule, for the chain's checks and the projection's panel alike.
pub fn seat<'a>(
    called: impl IntoIterator<Item = &'a Participant>,
    recused: &[PublicKey],
    players: &[PublicKey],
    size: usize,
) -> Vec<&'a Participant> {
    let mut out: Vec<&Participant> = Vec::new();
    for p in called {
        if out.len() == size {
            break;
        }
        if !recused.contains(&p.key)
            && !players.contains(&p.key)
            && !out.iter().any(|q| q.key == p.key)
        {
            out.push(p);
        }
    }
    out
}

impl Committee {
    /// The [`COMMITTEE_SEATS`] who sit ([`seat`]).
    pub fn sitting(&self, players: &[PublicKey]) -> Vec<PublicKey> {
        self.seated(players, COMMITTEE_SEATS)
            .into_iter()
            .map(|p| p.key)
            .collect()
    }

    /// The `size` who sit on a case in a game between `players`, in the
    /// order they are called ([`seat`]).
    pub fn seated(&self, players: &[PublicKey], size: usize) -> Vec<&Participant> {
        seat(
            self.members
                .iter()
                .chain(self.reserves.iter())
                .chain(self.coopted.iter()),
            &self.recused,
            players,
            size,
        )
    }

    fn names(&self, key: &PublicKey) -> bool {
        self.members
            .iter()
            .chain(self.reserves.iter())
            .chain(self.coopted.iter())
            .any(|p| &p.key == key)
    }
}

/// The votes on one appeal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Appeal {
    /// Seq of the `appeal_lodged` event.
    pub seq: u64,
    /// Decisions signed: (signer, verdict).
    pub votes: Vec<(PublicKey, CommitteeVerdict)>,
    /// Seq of the decision that made a majority, once there is one.
    pub decided_at: Option<u64>,
}

/// Something a chain states that the board or the clock cannot have been:
/// recorded as stated (the ledger records facts), and reported.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Irregularity {
    /// A point outside the board.
    OffBoard {
        /// The point.
        point: Point,
        /// The board size.
        size: u8,
    },
    /// The event is stamped earlier than the one before it, by more than
    /// [`TIME_TOLERANCE_MS`].
    TimeBackwards {
        /// By how many milliseconds.
        by_ms: u64,
    },
}

impl std::fmt::Display for Irregularity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Counted from the top-left corner: a point the board does not
            // have has no board label a referee could mistake for another.
            Irregularity::OffBoard { point, size } => write!(
                f,
                "irregularity: a point off the {size}x{size} board (column {}, row {} from the top left)",
                u32::from(point.x) + 1,
                u32::from(point.y) + 1
            ),
            Irregularity::TimeBackwards { by_ms } => write!(
                f,
                "warning: time goes backwards by {} (tolerance {})",
                clock_face(*by_ms),
                clock_face(TIME_TOLERANCE_MS)
            ),
        }
    }
}

/// A duration as a clock face, to the millisecond where needed:
/// `0:02`, `24:00:00`, `0:00.25`.
fn clock_face(ms: u64) -> String {
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    let mut out = if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    };
    if frac != 0 {
        out.push('.');
        out.push_str(format!("{frac:03}").trim_end_matches('0'));
    }
    out
}

/// The points a body names on the board.
pub fn points_of(body: &Body) -> Vec<Point> {
    match body {
        Body::StonePlaced { point, .. } | Body::FifthChosen { point, .. } => vec![*point],
        Body::DeadStonesMarked { dead, .. } | Body::StatusAgreed { dead } => dead.clone(),
        Body::FifthsOffered { points, .. } => points.clone(),
        Body::ForbiddenMovePointedOut { point, .. } => point.iter().copied().collect(),
        Body::IrregularityRecorded { fix, .. } => fix
            .remove
            .iter()
            .copied()
            .chain(fix.place.iter().map(|(_, p)| *p))
            .collect(),
        _ => Vec::new(),
    }
}

/// By how much `at_ms` goes back from `prev_at_ms`, when that is more than
/// [`TIME_TOLERANCE_MS`] (`docs/FORMAT.md` section 6: a warning when
/// `at_ms + 5000 < prev`). Both times are read from records, so any `u64`
/// may come: the sum is taken in `u128`, never wrapping.
pub fn time_backwards(prev_at_ms: u64, at_ms: u64) -> Option<u64> {
    if u128::from(at_ms) + u128::from(TIME_TOLERANCE_MS) < u128::from(prev_at_ms) {
        prev_at_ms.checked_sub(at_ms)
    } else {
        None
    }
}

/// The irregularities of `event` in a game of board size `size`, after an
/// event stamped `prev_at_ms`.
pub fn irregularities(size: u8, prev_at_ms: Option<u64>, event: &Event) -> Vec<Irregularity> {
    let mut out: Vec<Irregularity> = points_of(&event.body)
        .into_iter()
        .filter(|p| p.x >= size || p.y >= size)
        .map(|point| Irregularity::OffBoard { point, size })
        .collect();
    if let Some(prev) = prev_at_ms {
        if let Some(by_ms) = time_backwards(prev, event.at_ms) {
            out.push(Irregularity::TimeBackwards { by_ms });
        }
    }
    out
}

/// How a key's validity window ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyEnd {
    /// Replaced by `by` at this seq (`key_replaced`).
    Replaced {
        /// Seq of the `key_replaced` event.
        seq: u64,
        /// The key that speaks for the participant from then on.
        by: PublicKey,
    },
    /// Revoked at this seq (`key_revoked`).
    Revoked {
        /// Seq of the `key_revoked` event.
        seq: u64,
    },
}

impl KeyEnd {
    /// The seq of the event that ended the window: the key signs nothing
    /// after it.
    pub fn seq(&self) -> u64 {
        match self {
            KeyEnd::Replaced { seq, .. } | KeyEnd::Revoked { seq } => *seq,
        }
    }
}

impl std::fmt::Display for KeyEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyEnd::Replaced { seq, by } => {
                write!(f, "replaced at seq {seq} by key {}", &by.to_hex()[..12])
            }
            KeyEnd::Revoked { seq } => write!(f, "revoked at seq {seq}"),
        }
    }
}

/// The state of a chain that decides who may sign what next.
#[derive(Debug, Clone)]
pub struct Standing {
    genesis: Genesis,
    /// The genesis roster with the keys replaced so far.
    roster: Vec<Participant>,
    /// Keys whose window has ended, each with its first end.
    ended: BTreeMap<PublicKey, KeyEnd>,
    players: Vec<PublicKey>,
    /// The committee, once formed.
    pub committee: Option<Committee>,
    /// Appeals lodged, by seq.
    pub appeals: BTreeMap<u64, Appeal>,
    /// Seq of the last event that set a result.
    pub result_seq: Option<u64>,
    /// The appeals committee's last decision, `(appeal seq, decided at
    /// seq)`, while no new matter has opened since: its decision is final
    /// (LGC 2023, "Appeals committee"), so no referee ruling may follow it.
    pub final_decision: Option<(u64, u64)>,
    /// Timestamp of the last event applied.
    pub last_at_ms: u64,
    /// Each seat's last result sheet signed with that seat's key, Black
    /// and White.
    sheets: [Option<crate::body::GameResult>; 2],
}

fn sets_result(effects: &[RulingEffect]) -> bool {
    effects.iter().any(|e| {
        matches!(
            e,
            RulingEffect::SetResult(_)
                | RulingEffect::Sanction(crate::body::Sanction {
                    kind: SanctionKind::GameForfeit | SanctionKind::Disqualification,
                    ..
                })
        )
    })
}

impl Standing {
    /// The standing right after the genesis.
    pub fn new(genesis: &Genesis, at_ms: u64) -> Standing {
        let players = genesis
            .roster
            .iter()
            .filter(|p| matches!(p.role, Role::Black | Role::White))
            .map(|p| p.key)
            .collect();
        Standing {
            genesis: genesis.clone(),
            roster: genesis.roster.clone(),
            ended: BTreeMap::new(),
            players,
            committee: None,
            appeals: BTreeMap::new(),
            result_seq: None,
            final_decision: None,
            last_at_ms: at_ms,
            sheets: [None, None],
        }
    }

    /// The seat `key` holds on the roster now: Black's, else White's.
    fn seat_of(&self, key: &PublicKey) -> Option<Color> {
        let holds = |role| self.roster.iter().any(|p| &p.key == key && p.role == role);
        if holds(Role::Black) {
            Some(Color::Black)
        } else if holds(Role::White) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The genesis.
    pub fn genesis(&self) -> &Genesis {
        &self.genesis
    }

    /// The roster now: the genesis roster with every `key_replaced` so far
    /// applied (a revoked key stays in its place until it is replaced, but
    /// signs nothing).
    pub fn roster(&self) -> &[Participant] {
        &self.roster
    }

    /// How `key`'s validity window ended, if it has.
    pub fn key_end(&self, key: &PublicKey) -> Option<KeyEnd> {
        self.ended.get(key).copied()
    }

    /// True when `key` is in the roster: the roster now, or named by the
    /// chain's committee events, and its window has not ended.
    pub fn in_roster(&self, key: &PublicKey) -> bool {
        !self.ended.contains_key(key)
            && (self.roster.iter().any(|p| &p.key == key)
                || self.committee.as_ref().is_some_and(|c| c.names(key)))
    }

    /// Whether `signer` may replace or revoke `target`, a key of the roster
    /// now (`docs/FORMAT.md` section 5.2).
    fn key_change_allowed(&self, signer: &PublicKey, target: &PublicKey) -> Result<(), String> {
        let mut target_roles: Vec<Role> = self
            .roster
            .iter()
            .filter(|p| &p.key == target)
            .map(|p| p.role)
            .collect();
        // A person named only by the committee's events holds the committee
        // role (a replaced key is no longer named there).
        if target_roles.is_empty() && self.committee.as_ref().is_some_and(|c| c.names(target)) {
            target_roles.push(Role::Committee);
        }
        if target_roles.is_empty() {
            return Err(match self.ended.get(target) {
                Some(end) => format!(
                    "key {} is no longer in the roster: {end}",
                    &target.to_hex()[..12]
                ),
                None => format!("key {} is not a key of the roster", &target.to_hex()[..12]),
            });
        }
        if signer == target {
            return Ok(());
        }
        roles::may_change_key(&self.roles_of(signer), &target_roles)
    }

    /// The committee members sitting now.
    pub fn sitting(&self) -> Vec<PublicKey> {
        self.committee
            .as_ref()
            .map(|c| c.sitting(&self.players))
            .unwrap_or_default()
    }

    /// The roles `key` holds now: its roles in the roster now (the genesis
    /// roster with replaced keys), and `Committee` while it sits on the
    /// appeals committee. A key whose window has ended is refused before its
    /// roles are asked.
    pub fn roles_of(&self, key: &PublicKey) -> Vec<Role> {
        let mut r: Vec<Role> = self
            .roster
            .iter()
            .filter(|p| &p.key == key)
            .map(|p| p.role)
            .collect();
        if !r.contains(&Role::Committee) && self.sitting().contains(key) {
            r.push(Role::Committee);
        }
        r
    }

    /// Checks that `event` may come next. `event.seq` is its place.
    pub fn check(&self, event: &Event) -> Result<(), Refusal> {
        let kind = event.body.kind_name();
        let refuse = |rule: String| Err(Refusal { kind, rule });
        if let Some(end) = self.ended.get(&event.signer) {
            return refuse(format!(
                "the signer's key was {end}: nothing it signs after that is accepted"
            ));
        }
        if !self.in_roster(&event.signer) {
            return refuse("the signer's key is not in the game's roster".into());
        }
        if matches!(event.body, Body::CommitteeDecision { .. })
            && !self.sitting().contains(&event.signer)
        {
            return refuse(
                "only a member sitting on the appeals committee at this point of the chain may sign its decision (formed by committee_formed, changed by member_recused and member_coopted)".into(),
            );
        }
        let roles = self.roles_of(&event.signer);
        // docs/FORMAT.md section 5: a key named only by the committee's
        // events that does not sit (a reserve not called, a recused member)
        // holds no role, and may sign only the replacement or revocation of
        // its own key (section 5.2, rules 3 and 4: "the signer is the key
        // itself").
        let own_key_change = matches!(
            &event.body,
            Body::KeyReplaced { participant, .. } if participant == &event.signer
        ) || matches!(
            &event.body,
            Body::KeyRevoked { key, .. } if key == &event.signer
        );
        if roles.is_empty() && !own_key_change {
            return refuse(
                "the signer's key holds no role at this point of the chain (a committee reserve not sitting, or a recused member): it may sign only the replacement or revocation of its own key".into(),
            );
        }
        if !roles.is_empty() {
            roles::check(&roles, &event.body, event.seq)?;
        } else if event.seq == 0 {
            return refuse("the first event of a chain must create the game".into());
        }
        // LGC 2023, "Appeals committee": "The appeals committee's decision
        // is final." A referee's ruling after it would rule again on what
        // the committee settled; a new call, dispute or appeal opens a new
        // matter, which the referee may rule on (docs/FORMAT.md section 5).
        if let (Body::RefereeRuling(_), Some((appeal, decided))) =
            (&event.body, self.final_decision)
        {
            return refuse(format!(
                "the appeals committee decided the appeal of seq {appeal} at seq {decided}, and its decision is final (LGC 2023, \"Appeals committee\"): a referee's ruling may follow only a new call, dispute or appeal"
            ));
        }
        if let Body::LogKeyRotated { origin, .. } = &event.body {
            // docs/TRANSPARENCY.md section 8: the statement lives in the log
            // operator's own chain, whose genesis names the operator's key
            // alone, as recorder, under the title of its origin.
            if !self.genesis.is_log_operator_chain(origin, &event.signer) {
                return refuse(format!(
                    "a log key rotation is stated only in the log operator's own chain (a genesis whose roster is the operator's key alone, as recorder \"log operator\", titled \"{}{origin}\"; docs/TRANSPARENCY.md section 8)",
                    crate::body::LOG_OPERATOR_TITLE
                ));
            }
        }
        match &event.body {
            Body::CommitteeFormed { .. } if self.committee.is_some() => refuse(
                "the appeals committee is formed once; recuse and co-opt to change it".into(),
            ),
            Body::MemberRecused { member, .. } => match &self.committee {
                None => refuse("no appeals committee has been formed".into()),
                Some(c) if !c.names(member) => refuse(
                    "the key is not a member, reserve or co-opted member of the committee".into(),
                ),
                Some(c) if c.recused.contains(member) => {
                    refuse("the member is already recused".into())
                }
                Some(_) => Ok(()),
            },
            // LGC 2023, "Appeals committee": players are co-opted to make
            // up three; one already on the committee, a key whose window
            // has ended, or a player of this game is not such a person.
            Body::MemberCoopted { member } => match &self.committee {
                None => refuse("no appeals committee has been formed".into()),
                Some(c) if c.coopted.iter().any(|p| p.key == member.key) => {
                    refuse("already co-opted".into())
                }
                Some(_) if self.sitting().contains(&member.key) => {
                    refuse("the key already sits on the appeals committee".into())
                }
                Some(c) if c.names(&member.key) => refuse(
                    "the key is already a member or reserve of the committee: a reserve is called by recusing a member, not co-opted".into(),
                ),
                Some(_) => match self.ended.get(&member.key) {
                    Some(end) => refuse(format!(
                        "the key was {end}: it signs nothing more in this game"
                    )),
                    None if self.players.contains(&member.key) => {
                        refuse("a player of this game cannot sit on its appeals committee".into())
                    }
                    None => Ok(()),
                },
            },
            // LGC 2023, "Appeals committee": the three sitting members decide,
            // by a majority; each signs the decision once.
            Body::CommitteeDecision { appeal_seq, .. } => {
                if !self.sitting().contains(&event.signer) {
                    return refuse(
                        "only a member sitting on the appeals committee at this point of the chain may sign its decision (formed by committee_formed, changed by member_recused and member_coopted)".into(),
                    );
                }
                // One vote per seat: a vote is kept under the seat's
                // current key (key_replaced moves it), so a member who
                // replaced their key has still voted.
                match self.appeals.get(appeal_seq) {
                    None => refuse(format!(
                        "seq {appeal_seq} is not an appeal lodged earlier in this game"
                    )),
                    Some(a) if a.votes.iter().any(|(k, _)| k == &event.signer) => refuse(
                        "this seat on the committee has already signed a decision on this appeal (one vote per member, whatever key they sign with)".into(),
                    ),
                    Some(_) => Ok(()),
                }
            }
            Body::KeyReplaced {
                participant,
                new_key,
                ..
            } => {
                if let Some(end @ KeyEnd::Replaced { .. }) = self.ended.get(participant) {
                    return refuse(format!(
                        "key {} was already {end}; name the participant's current key",
                        &participant.to_hex()[..12],
                    ));
                }
                if new_key == participant
                    || self.ended.contains_key(new_key)
                    || self.roster.iter().any(|p| &p.key == new_key)
                    || self.committee.as_ref().is_some_and(|c| c.names(new_key))
                {
                    return refuse(
                        "the new key is already used in this game: a key speaks for one participant, once".into(),
                    );
                }
                self.key_change_allowed(&event.signer, participant)
                    .or_else(refuse)
            }
            Body::KeyRevoked { key, .. } => {
                if let Some(end) = self.ended.get(key) {
                    return refuse(format!("key {} was already {end}", &key.to_hex()[..12]));
                }
                self.key_change_allowed(&event.signer, key).or_else(refuse)
            }
            _ => Ok(()),
        }
    }

    /// Checks that an event of a kind this library does not know may come
    /// next: only a key in the roster may sign anything.
    pub fn check_unknown(&self, signer: &PublicKey, _kind: u32) -> Result<(), Refusal> {
        if let Some(end) = self.ended.get(signer) {
            return Err(Refusal {
                kind: "unknown kind",
                rule: format!(
                    "the signer's key was {end}: nothing it signs after that is accepted"
                ),
            });
        }
        if self.in_roster(signer) {
            Ok(())
        } else {
            Err(Refusal {
                kind: "unknown kind",
                rule: "the signer's key is not in the game's roster".into(),
            })
        }
    }

    /// Applies an event that passed [`Standing::check`].
    pub fn apply(&mut self, event: &Event) {
        self.last_at_ms = event.at_ms;
        match &event.body {
            Body::CommitteeFormed {
                members, reserves, ..
            } => {
                self.committee = Some(Committee {
                    formed_seq: event.seq,
                    members: members.clone(),
                    reserves: reserves.clone(),
                    ..Default::default()
                })
            }
            Body::MemberRecused { member, .. } => {
                if let Some(c) = &mut self.committee {
                    c.recused.push(*member);
                }
            }
            Body::MemberCoopted { member } => {
                if let Some(c) = &mut self.committee {
                    c.coopted.push(member.clone());
                }
            }
            Body::RefereeCalled { .. }
            | Body::DisputeRaised { .. }
            | Body::StatusDisputed { .. } => {
                self.final_decision = None;
            }
            Body::AppealLodged { .. } => {
                self.final_decision = None;
                self.appeals.insert(
                    event.seq,
                    Appeal {
                        seq: event.seq,
                        ..Default::default()
                    },
                );
            }
            Body::CommitteeDecision {
                appeal_seq,
                verdict,
                ..
            } => {
                if let Some(a) = self.appeals.get_mut(appeal_seq) {
                    a.votes.push((event.signer, verdict.clone()));
                    let same = a.votes.iter().filter(|(_, v)| v == verdict).count();
                    if a.decided_at.is_none() && same >= 2 {
                        a.decided_at = Some(event.seq);
                        self.final_decision = Some((*appeal_seq, event.seq));
                        if let CommitteeVerdict::Replaced(effects) = verdict {
                            if sets_result(effects) {
                                self.result_seq = Some(event.seq);
                            }
                        }
                    }
                }
            }
            Body::KeyReplaced {
                participant,
                new_key,
                ..
            } => {
                for p in self.roster.iter_mut().filter(|p| &p.key == participant) {
                    p.key = *new_key;
                }
                for k in self.players.iter_mut().filter(|k| *k == participant) {
                    *k = *new_key;
                }
                if let Some(c) = &mut self.committee {
                    for p in c
                        .members
                        .iter_mut()
                        .chain(c.reserves.iter_mut())
                        .chain(c.coopted.iter_mut())
                        .filter(|p| &p.key == participant)
                    {
                        p.key = *new_key;
                    }
                    for k in c.recused.iter_mut().filter(|k| *k == participant) {
                        *k = *new_key;
                    }
                }
                // A vote belongs to the seat, not to the key it was signed with.
                for a in self.appeals.values_mut() {
                    for (k, _) in a.votes.iter_mut().filter(|(k, _)| k == participant) {
                        *k = *new_key;
                    }
                }
                self.ended.entry(*participant).or_insert(KeyEnd::Replaced {
                    seq: event.seq,
                    by: *new_key,
                });
            }
            Body::KeyRevoked { key, .. } => {
                self.ended
                    .entry(*key)
                    .or_insert(KeyEnd::Revoked { seq: event.seq });
            }
            Body::ResultDeclared(_) => self.result_seq = Some(event.seq),
            // A resignation signed by the resigning player's own key: the
            // player signed the result (section 6).
            Body::Resigned { player, .. } if self.seat_of(&event.signer) == Some(*player) => {
                self.result_seq = Some(event.seq)
            }
            // Both players' sheets, each signed with the seat's key, state
            // the same result.
            Body::ResultSheetSigned { result, .. } => {
                if let Some(seat) = self.seat_of(&event.signer) {
                    self.sheets[usize::from(seat == Color::White)] = Some(result.clone());
                    if let [Some(b), Some(w)] = &self.sheets {
                        if b == w {
                            self.result_seq = Some(event.seq);
                        }
                    }
                }
            }
            Body::RefereeRuling(r) if sets_result(&r.effects) => self.result_seq = Some(event.seq),
            _ => {}
        }
    }

    /// Appeals lodged and not yet decided by a majority.
    pub fn pending_appeals(&self) -> Vec<u64> {
        self.appeals
            .values()
            .filter(|a| a.decided_at.is_none())
            .map(|a| a.seq)
            .collect()
    }

    /// True when the chain has reached a signed result and no appeal is
    /// pending.
    pub fn finished(&self) -> bool {
        self.result_seq.is_some() && self.pending_appeals().is_empty()
    }

    /// The standing after replaying decoded events (genesis first), without
    /// checking them.
    pub fn replay(events: &[Event]) -> Option<Standing> {
        let first = events.first()?;
        let Body::GameCreated(g) = &first.body else {
            return None;
        };
        let mut s = Standing::new(g, first.at_ms);
        for e in &events[1..] {
            s.apply(e);
        }
        Some(s)
    }
}
