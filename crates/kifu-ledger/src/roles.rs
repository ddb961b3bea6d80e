//! Who may state which fact.
//!
//! The genesis roster gives each key its roles. Every other event is checked
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
    };
    if ok {
        Ok(())
    } else {
        refuse(&format!(
            "a signer with roles {roles:?} may not sign this kind"
        ))
    }
}
