//! Who may state which fact.
//!
//! The genesis roster gives each key its roles (and the chain changes them:
//! committee events, key replacements, see `crate::standing`). Every other event is checked
//! against this table before it is written, and again when a chain is
//! verified. A rule that refuses names itself in the error, so that an operator
//! knows which rule refused and why.

use crate::body::{Body, Color, PauseReason, Role};

/// Why a signer may not state a fact.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} refused: {rule}")]
pub struct Refusal {
    /// The kind of fact refused.
    pub kind: &'static str,
    /// The rule that refused it, in words.
    pub rule: String,
}

fn is_player(roles: &[Role], c: Color) -> bool {
    roles.iter().any(|r| r.player_color() == Some(c))
}

fn has(roles: &[Role], want: &[Role]) -> bool {
    roles.iter().any(|r| want.contains(r))
}

/// Checks that an official holding `signer` roles may replace or revoke the
/// key of a participant holding `target` roles (the key's own holder always
/// may: [`crate::Standing::check`] lets it through before asking this).
///
/// - A player's or a recording device's key: a referee or the director.
///   LGC 2023, "Referees": the referees "enforce the rules and judge
///   disputes"; "Faulty clock": "A clock found to be malfunctioning shall
///   be replaced and set by the referee". kifu treats a lost or broken
///   tablet or recording device the same way.
/// - A referee's or a committee member's key: the director. RIF World
///   Championship rules, the paragraph on referees: "The tournament director
///   may appoint additional referees"; LGC 2023, "Tournament Director": "the head of
///   local organisation of the tournament".
/// - The director's key: the director alone (kifu's rule: no rule document
///   places anyone above the director within a game).
pub fn may_change_key(signer: &[Role], target: &[Role]) -> Result<(), String> {
    for t in target {
        let (who, needed): (&str, &[Role]) = match t {
            Role::Black | Role::White | Role::Recorder => (
                "a player's or a recorder's",
                &[Role::Referee, Role::Director],
            ),
            Role::Referee | Role::Committee => {
                ("a referee's or a committee member's", &[Role::Director])
            }
            Role::Director => ("the director's", &[]),
        };
        if !has(signer, needed) {
            let by = match needed {
                [] => "its own holder only".to_string(),
                [Role::Director] => "its own holder or the director".to_string(),
                _ => "its own holder, a referee or the director".to_string(),
            };
            return Err(format!("{who} key is replaced or revoked by {by}"));
        }
    }
    Ok(())
}

/// Checks that a signer holding `roles` may sign `body` at sequence `seq`.
pub fn check(roles: &[Role], body: &Body, seq: u64) -> Result<(), Refusal> {
    let kind = body.kind_name();
    let refuse = |rule: &str| {
        Err(Refusal {
            kind,
            rule: rule.to_string(),
        })
    };
    if let Body::GameCreated(_) = body {
        if seq != 0 {
            return refuse("a game is created only by the first event of its chain");
        }
        if !has(roles, &[Role::Director, Role::Referee, Role::Recorder]) {
            return refuse(
                "the genesis is signed by a director, referee or recorder named in its own roster",
            );
        }
        return Ok(());
    }
    if seq == 0 {
        return refuse("the first event of a chain must create the game");
    }
    if roles.is_empty() {
        return refuse("the signer's key is not in the game's roster");
    }
    let ok = match body {
        Body::GameCreated(_) => true,
        // A player moves, passes, presses and resigns for themself; a recording
        // device or the server of an engine game records it for them.
        Body::StonePlaced { player, .. }
        | Body::Pass { player, .. }
        | Body::ClockPressed { player }
        | Body::Resigned { player, .. } => {
            if is_player(roles, *player) || has(roles, &[Role::Recorder]) {
                true
            } else {
                return refuse(
                    "only the player concerned, or the recorder, may sign a move, pass, clock press or resignation",
                );
            }
        }
        Body::ClockStarted { .. } | Body::ClockResumed { .. } => has(
            roles,
            &[
                Role::Black,
                Role::White,
                Role::Referee,
                Role::Recorder,
                Role::Director,
            ],
        ),
        Body::ClockPaused { reason } => match reason {
            // LGC 2023, "Pausing the clocks": arbitration and announcements are
            // the officials' pauses.
            PauseReason::Arbitration | PauseReason::Adjournment => {
                has(roles, &[Role::Referee, Role::Recorder])
            }
            PauseReason::Announcement => {
                has(roles, &[Role::Referee, Role::Director, Role::Recorder])
            }
            _ => has(
                roles,
                &[Role::Black, Role::White, Role::Referee, Role::Recorder],
            ),
        },
        // LGC 2023, "Clock": after the start a clock may be adjusted only by the referee.
        Body::ClockAdjusted { .. } => {
            if has(roles, &[Role::Referee]) {
                true
            } else {
                return refuse("only a referee may adjust a clock");
            }
        }
        Body::ClockReading { .. } => has(roles, &[Role::Referee, Role::Recorder]),
        Body::RefereeRuling(_) => {
            if has(roles, &[Role::Referee]) {
                true
            } else {
                return refuse("only a referee may sign a referee ruling");
            }
        }
        Body::SanctionImposed(_) => {
            if has(roles, &[Role::Referee, Role::Director]) {
                true
            } else {
                return refuse("only a referee or the director may impose a sanction");
            }
        }
        Body::ProtestDeclared { player, .. } => {
            if is_player(roles, *player) {
                true
            } else {
                return refuse("only the player concerned may declare a game played under protest");
            }
        }
        Body::ResultDeclared(_) => has(
            roles,
            &[
                Role::Black,
                Role::White,
                Role::Referee,
                Role::Recorder,
                Role::Director,
            ],
        ),
        Body::ResultSheetSigned { .. } => has(
            roles,
            &[Role::Black, Role::White, Role::Referee, Role::Recorder],
        ),
        // LGC 2023, "Infringement": players and the referee point out illegal
        // moves; UEC Cup f): "pointed out by the opponent or the referee";
        // the server of an engine game records it.
        Body::IllegalMoveNoticed { .. } => has(
            roles,
            &[Role::Black, Role::White, Role::Referee, Role::Recorder],
        ),
        // BGA, "Illegal Moves": a rewind is by mutual agreement, each player
        // agreeing for himself.
        Body::RewindAgreed { player, .. }
        | Body::RewindDeclined { player, .. }
        | Body::StatusDisputed { player, .. }
        | Body::AppealLodged { player, .. }
        | Body::DrawDeclined { player } => {
            if is_player(roles, *player) {
                true
            } else {
                return refuse(
                    "only the player concerned may agree a rewind, dispute a status, appeal or decline a draw",
                );
            }
        }
        // BGA, "Irregular Moves": the players fix the position to their
        // satisfaction, or the referee does.
        Body::IrregularityRecorded { .. } => has(
            roles,
            &[Role::Black, Role::White, Role::Referee, Role::Recorder],
        ),
        // A player marks and declares for himself; the recorder (a program's
        // operator console, the server) records it for him.
        Body::DeadStonesMarked { player, .. }
        | Body::FiveDeclared { player }
        | Body::ForbiddenMovePointedOut { player, .. }
        | Body::DrawOffered { player }
        | Body::DrawAccepted { player }
        | Body::OpeningSwap { player, .. }
        | Body::FifthCountDeclared { player, .. }
        | Body::FifthsOffered { player, .. }
        | Body::FifthChosen { player, .. } => {
            if is_player(roles, *player) || has(roles, &[Role::Recorder]) {
                true
            } else {
                return refuse("only the player concerned, or the recorder, may sign this");
            }
        }
        // Each player agrees for himself; a referee settles the status (UEC
        // Cup a) 3: "the referee corrects the mismatching parts").
        Body::StatusAgreed { .. } => has(roles, &[Role::Black, Role::White, Role::Referee]),
        Body::DisputeRaised { player, .. } | Body::RefereeCalled { player } => {
            if is_player(roles, *player) || has(roles, &[Role::Referee, Role::Recorder]) {
                true
            } else {
                return refuse(
                    "only the player concerned, a referee or the recorder may raise a dispute or call the referee",
                );
            }
        }
        Body::CommitteeFormed { .. } => {
            if has(roles, &[Role::Director]) {
                true
            } else {
                return refuse("only the director forms the appeals committee");
            }
        }
        Body::MemberRecused { .. } | Body::MemberCoopted { .. } => {
            has(roles, &[Role::Director, Role::Referee, Role::Committee])
        }
        // LGC 2023, "Appeals committee": the committee decides.
        Body::CommitteeDecision { .. } => {
            if has(roles, &[Role::Committee]) {
                true
            } else {
                return refuse("only a member of the appeals committee may sign its decision");
            }
        }
        // Attendance is attested by an official, not by the player.
        Body::PlayerArrived { .. } => has(roles, &[Role::Referee, Role::Recorder, Role::Director]),
        Body::ProgramTerminated { .. } => has(roles, &[Role::Referee, Role::Recorder]),
        // UEC Cup, "3: Time limit": "The time will be measured by the server."
        Body::ServerTimeUsed { .. } => {
            if has(roles, &[Role::Recorder]) {
                true
            } else {
                return refuse("only the server (recorder) measures time used");
            }
        }
        // UEC Cup a) 1: the programs display their dead stones and count; the
        // server asks them and records the answers.
        Body::ProgramAnswered { .. } => {
            if has(roles, &[Role::Recorder]) {
                true
            } else {
                return refuse("only the server (recorder) records what a program answered");
            }
        }
        // Any roster key may state a key change; whether it has the power
        // over the key named is read from the chain by
        // `Standing::check` with [`may_change_key`] (the key's own holder,
        // or an official over that participant's roles).
        Body::KeyReplaced { .. } | Body::KeyRevoked { .. } => true,
        // LGC 2023, "Colour or handicap error": "the pairing is modified";
        // "Referees": the referees "enforce the rules and judge disputes";
        // "Drawmaster": the director or drawmaster "manages the pairings".
        Body::PairingModified { .. } => {
            if has(roles, &[Role::Referee, Role::Director]) {
                true
            } else {
                return refuse("only a referee or the director modifies the pairing");
            }
        }
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
        | Body::TimeZoneStated { .. } => {
            return refuse("a tournament fact belongs to a tournament chain, not a game chain");
        }
        // docs/TRANSPARENCY.md section 8: the log operator's statement lives
        // in the operator's chain, whose genesis names the operator's key as
        // the recorder. Whether it moves the log's key is decided by the
        // verifier of a checkpoint (the statement must be signed by the key
        // it trusts), not by the chain.
        Body::LogKeyRotated { .. } => {
            if has(roles, &[Role::Recorder]) {
                true
            } else {
                return refuse(
                    "only the log operator (the recorder of its chain) rotates the log's key",
                );
            }
        }
    };
    if ok {
        Ok(())
    } else {
        refuse(&format!(
            "a signer with roles {roles:?} may not sign this kind"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::{CommitteeVerdict, Point};
    use crate::kinds::kind_names;

    fn ok(roles: &[Role], body: Body) -> bool {
        check(roles, &body, 5).is_ok()
    }

    #[test]
    fn the_kinds_of_the_game_projection_are_signed_by_whom_the_rules_say() {
        let decision = Body::CommitteeDecision {
            appeal_seq: 3,
            verdict: CommitteeVerdict::Upheld,
            reasons: "r".into(),
        };
        assert!(ok(&[Role::Committee], decision.clone()));
        assert!(!ok(&[Role::Referee], decision.clone()));
        assert!(!ok(&[Role::Director], decision));
        let appeal = Body::AppealLodged {
            player: Color::Black,
            ruling_seq: 2,
            grounds: "g".into(),
        };
        assert!(ok(&[Role::Black], appeal.clone()));
        assert!(!ok(&[Role::White], appeal));
        let time = Body::ServerTimeUsed {
            player: Color::White,
            used_ms: 1,
        };
        assert!(ok(&[Role::Recorder], time.clone()));
        assert!(!ok(&[Role::White, Role::Referee], time));
        let arrived = Body::PlayerArrived {
            player: Color::Black,
        };
        assert!(!ok(&[Role::Black], arrived.clone()));
        assert!(ok(&[Role::Referee], arrived));
        let formed = Body::CommitteeFormed {
            members: vec![],
            reserves: vec![],
            formed_before_round: 1,
        };
        assert!(ok(&[Role::Director], formed.clone()));
        assert!(!ok(&[Role::Referee], formed));
        let forbidden = Body::ForbiddenMovePointedOut {
            player: Color::White,
            point: Some(Point { x: 7, y: 7 }),
        };
        assert!(ok(&[Role::White], forbidden.clone()));
        assert!(!ok(&[Role::Black], forbidden.clone()));
        assert!(!ok(&[Role::Referee], forbidden));
        let agreed = Body::StatusAgreed { dead: vec![] };
        assert!(ok(&[Role::Black], agreed.clone()));
        assert!(ok(&[Role::Referee], agreed.clone()));
        assert!(!ok(&[Role::Recorder], agreed));
        let notice = Body::IllegalMoveNoticed {
            move_seq: 4,
            statement: "s".into(),
        };
        assert!(ok(&[Role::White], notice.clone()));
        assert!(!ok(&[Role::Committee], notice));
    }

    #[test]
    fn every_kind_has_a_name_and_a_stable_index() {
        assert_eq!(kind_names().len(), 58);
        assert_eq!(kind_names()[26], "member_coopted");
        let declined = Body::RewindDeclined {
            player: Color::White,
            move_seq: 3,
        };
        assert_eq!(declined.kind_index(), 41);
        assert_eq!(declined.kind_name(), "rewind declined");
        let time = Body::ServerTimeUsed {
            player: Color::Black,
            used_ms: 0,
        };
        assert_eq!(time.kind_index(), 39);
        assert_eq!(time.kind_name(), "server time used");
        let bytes = postcard::to_allocvec(&time).expect("encodes");
        assert_eq!(bytes[0], 39, "the postcard variant index is the kind index");
        let last = Body::ProgramAnswered {
            player: Color::White,
            command: "final_score".into(),
            answer: "W+3.5".into(),
        };
        assert_eq!(last.kind_index(), 40);
        assert_eq!(last.kind_name(), "program answered");
        let bytes = postcard::to_allocvec(&last).expect("encodes");
        assert_eq!(bytes[0], 40, "the postcard variant index is the kind index");
        assert!(check(&[Role::Recorder], &last, 5).is_ok());
        assert!(check(&[Role::White, Role::Referee], &last, 5).is_err());
        let k = crate::key::Keypair::from_seed([1; 32]).public();
        let replaced = Body::KeyReplaced {
            participant: k,
            new_key: k,
            reason: String::new(),
        };
        assert_eq!(replaced.kind_index(), 42);
        let revoked = Body::KeyRevoked {
            key: k,
            reason: String::new(),
        };
        assert_eq!(revoked.kind_index(), 43);
        assert_eq!(revoked.kind_name(), "key revoked");
    }

    #[test]
    fn pairing_modified_is_kind_53_and_signed_by_a_referee_or_the_director() {
        let b = Body::PairingModified {
            swap_colours: true,
            handicap: None,
            komi_half_points: None,
            reason: "colours swapped".into(),
        };
        assert_eq!(b.kind_index(), 53);
        assert_eq!(b.kind_name(), "pairing modified");
        let bytes = postcard::to_allocvec(&b).expect("encodes");
        assert_eq!(bytes[0], 53, "the postcard variant index is the kind index");
        assert!(check(&[Role::Referee], &b, 9).is_ok());
        assert!(check(&[Role::Director], &b, 9).is_ok());
        for r in [Role::Black, Role::White, Role::Recorder, Role::Committee] {
            let e = check(&[r], &b, 9).expect_err("refused");
            assert!(e.rule.contains("referee or the director"), "{e}");
        }
    }

    #[test]
    fn who_may_replace_or_revoke_whose_key() {
        use Role::*;
        for target in [Black, White, Recorder] {
            assert!(may_change_key(&[Referee], &[target]).is_ok());
            assert!(may_change_key(&[Director], &[target]).is_ok());
            assert!(may_change_key(&[Black, White, Recorder, Committee], &[target]).is_err());
        }
        for target in [Referee, Committee] {
            assert!(may_change_key(&[Director], &[target]).is_ok());
            assert!(may_change_key(&[Referee, Recorder], &[target]).is_err());
        }
        assert!(may_change_key(&[Referee, Recorder, Committee], &[Director]).is_err());
        assert!(may_change_key(&[Director], &[Director]).is_err());
        // A key holding several roles needs the power over each.
        assert!(may_change_key(&[Referee], &[Recorder, Referee]).is_err());
        assert!(may_change_key(&[Director], &[Recorder, Referee]).is_ok());
    }
}
