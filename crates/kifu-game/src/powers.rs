//! What an official's key may sign in a game at its head: the powers the
//! roster and the rule documents give a referee (or a director, a committee
//! member), each with the clause that gives or withholds it. A console
//! offers the forms of the powers held and nothing else; the answer is
//! computed by the same check the server applies to a record
//! ([`kifu_ledger::Standing::check`]) on a representative draft of each
//! kind, so a page never decides a rule itself.

use kifu_ledger::{
    Body, Color, Event, GameResult, Outcome, PauseReason, PublicKey, ResultBy, Role, Ruling,
    RulingKind, Sanction, SanctionKind, SanctionTarget, Standing,
};
use serde::Serialize;

use crate::cite::{cited_by_name, Cited};

/// One power, held or not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Power {
    /// The action, as a console names its form (`pause`, `judgement`, ...).
    pub action: &'static str,
    /// The record kind the action signs, in words (`clock paused`).
    pub kind: &'static str,
    /// Whether the key may sign it now.
    pub allowed: bool,
    /// Why not, in words, when it may not.
    pub refused: Option<String>,
    /// The clause that gives the power: `document (file), "section"`.
    pub rule: String,
    /// The clause's words, as the document has them.
    pub quote: Option<String>,
}

/// The clause of the rule documents that gives the power to sign `kind`
/// (LGC 2023, whose officials' sections the other Go profiles follow; the
/// RIF rules give the referee the same powers). `None` for a kind no
/// official's power concerns.
pub fn clause_for_kind(kind: &str) -> Option<Cited> {
    // The snake_case name of the format, or the same with spaces.
    let kind = kind.replace(' ', "_");
    let section = match kind.as_str() {
        "clock_started" => "Start",
        "clock_paused" | "clock_resumed" => "Referee responsibilities",
        "referee_ruling" | "status_agreed" | "result_declared" => "Referees",
        "clock_adjusted" => "Other sanctions",
        "sanction_imposed" => "Warning",
        "irregularity_recorded" => "Position disturbance",
        "key_replaced" | "key_revoked" => "Referees",
        "committee_formed" | "member_recused" | "member_coopted" | "committee_decision" => {
            "Appeals committee"
        }
        "appeal_lodged" => "Appeals committee",
        _ => return None,
    };
    cited_by_name(&format!("LGC 2023, \"{section}\""))
}

/// The actions a console offers, each with a representative draft.
fn drafts(standing: &Standing, key: &PublicKey) -> Vec<(&'static str, Body)> {
    let judgement = |effects| {
        Body::RefereeRuling(Ruling {
            kind: RulingKind::Judgement,
            decision: String::new(),
            reasons: String::new(),
            rules_cited: vec![],
            effects,
        })
    };
    let sanction = Sanction {
        target: SanctionTarget::Player(Color::Black),
        kind: SanctionKind::Warning,
        reason: String::new(),
    };
    // A key-change draft names a player's key other than the signer's own.
    let other = standing
        .roster()
        .iter()
        .find(|p| p.key != *key && matches!(p.role, Role::Black | Role::White | Role::Recorder))
        .map(|p| p.key);
    let mut out = vec![
        (
            "start",
            Body::ClockStarted {
                running: Color::Black,
            },
        ),
        (
            "pause",
            Body::ClockPaused {
                reason: PauseReason::Arbitration,
            },
        ),
        (
            "resume",
            Body::ClockResumed {
                running: Color::Black,
            },
        ),
        ("judgement", judgement(vec![])),
        (
            "clarification",
            Body::RefereeRuling(Ruling {
                kind: RulingKind::Clarification,
                decision: String::new(),
                reasons: String::new(),
                rules_cited: vec![],
                effects: vec![],
            }),
        ),
        (
            "clock_adjusted",
            Body::ClockAdjusted {
                player: Color::Black,
                delta_ms: 60_000,
                reason: String::new(),
            },
        ),
        ("sanction", Body::SanctionImposed(sanction)),
        (
            "irregularity",
            Body::IrregularityRecorded {
                kind: kifu_ledger::IrregularityKind::PositionDisturbed,
                about_seq: None,
                fix: kifu_ledger::BoardFix {
                    remove: vec![],
                    as_prisoners: false,
                    place: vec![],
                },
                statement: String::new(),
            },
        ),
        (
            "result",
            Body::ResultDeclared(GameResult {
                outcome: Outcome::Draw,
                by: ResultBy::Forfeit,
            }),
        ),
        ("status", Body::StatusAgreed { dead: vec![] }),
        (
            "committee_decision",
            Body::CommitteeDecision {
                appeal_seq: 0,
                verdict: kifu_ledger::CommitteeVerdict::Upheld,
                reasons: String::new(),
            },
        ),
    ];
    if let Some(other) = other {
        // A key no participant holds, standing for the new device's.
        let fresh = (0u8..=255)
            .map(|b| kifu_ledger::Keypair::from_seed([b; 32]).public())
            .find(|k| !standing.roster().iter().any(|p| p.key == *k) && k != key)
            .unwrap_or(*key);
        out.push((
            "key_replaced",
            Body::KeyReplaced {
                participant: other,
                new_key: fresh,
                reason: String::new(),
            },
        ));
        out.push((
            "key_revoked",
            Body::KeyRevoked {
                key: other,
                reason: String::new(),
            },
        ));
    }
    out
}

/// The powers `key` holds at the head of `events` (a verified chain,
/// genesis first). Empty when the chain has no verified genesis.
///
/// A refusal that concerns only the draft's content (an appeal number that
/// is not an appeal, a key change to a key already on the roster) does not
/// withdraw the power: a power is refused only when the key's roles or the
/// chain's standing refuse it.
pub fn powers(events: &[Event], key: &PublicKey) -> Vec<Power> {
    let Some(standing) = Standing::replay(events) else {
        return vec![];
    };
    let Some(last) = events.last() else {
        return vec![];
    };
    drafts(&standing, key)
        .into_iter()
        .map(|(action, body)| {
            let kind = body.kind_name();
            let draft = Event {
                version: 1,
                chain: last.chain,
                seq: last.seq + 1,
                // The check reads roles and standing, not the chain link.
                prev_hash: last.prev_hash,
                at_ms: last.at_ms,
                signer: *key,
                body,
            };
            let refused = standing
                .check(&draft)
                .err()
                .filter(|r| !content_only(kind, &r.rule))
                .map(|r| r.rule)
                .or_else(|| {
                    // LGC 2023, "Start": the clocks are started once, at the
                    // round's start; afterwards the console resumes them.
                    (action == "start" && crate::start::start_of_play(events).is_none()).then(|| {
                        "the clocks were started already, or the game has its result: restart them with a resumption".to_string()
                    })
                });
            let cited = clause_for_kind(kind);
            Power {
                action,
                kind,
                allowed: refused.is_none(),
                refused,
                rule: cited.as_ref().map(|c| c.rule.clone()).unwrap_or_default(),
                quote: cited.and_then(|c| c.quote),
            }
        })
        .collect()
}

/// True when a refusal of a representative draft concerns its content, not
/// the signer's power.
fn content_only(kind: &str, rule: &str) -> bool {
    kind == "committee_decision" && rule.contains("is not an appeal lodged")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{moves_game, Cast};

    fn events(cast: &Cast) -> Vec<Event> {
        moves_game(cast, "powers", 4)
            .records
            .iter()
            .map(|r| r.decode().unwrap())
            .collect()
    }

    fn power<'a>(ps: &'a [Power], action: &str) -> &'a Power {
        ps.iter().find(|p| p.action == action).unwrap()
    }

    #[test]
    fn a_referee_holds_the_referee_s_powers_with_their_clauses() {
        let cast = Cast::new();
        let ps = powers(&events(&cast), &cast.referee.public());
        for a in [
            "pause",
            "judgement",
            "clock_adjusted",
            "sanction",
            "irregularity",
            "key_replaced",
            "key_revoked",
        ] {
            let p = power(&ps, a);
            assert!(p.allowed, "{p:?}");
            assert!(p.rule.starts_with("LGC 2023"), "{p:?}");
            assert!(p.quote.is_some(), "{p:?}");
        }
        let c = power(&ps, "committee_decision");
        assert!(!c.allowed);
        assert!(c.refused.as_deref().unwrap().contains("committee"), "{c:?}");
        assert!(c.rule.contains("Appeals committee"), "{c:?}");
    }

    #[test]
    fn lgc_2023_start_the_referee_starts_the_clocks_once() {
        use kifu_ledger::testkit::ChainBuilder;
        let cast = Cast::new();
        let fresh = ChainBuilder::start(&cast.referee, cast.genesis("start"), 1_000);
        let ev: Vec<Event> = fresh.records.iter().map(|r| r.decode().unwrap()).collect();
        let p = power(&powers(&ev, &cast.referee.public()), "start").clone();
        assert!(p.allowed, "{p:?}");
        assert_eq!(p.kind, "clock started");
        assert!(p.rule.contains("Start"), "{p:?}");
        // Started already (the test kit's game starts Black's clock).
        let started = events(&cast);
        let p = power(&powers(&started, &cast.referee.public()), "start").clone();
        assert!(!p.allowed);
        assert!(p.refused.unwrap().contains("started already"));
    }

    #[test]
    fn no_ruling_after_the_committee_s_final_decision_until_a_new_call() {
        use kifu_ledger::testkit::{committee_keys, ChainBuilder};
        use kifu_ledger::{CommitteeVerdict, Participant};
        let cast = Cast::new();
        let m = committee_keys();
        let member = |i: usize| Participant {
            role: Role::Committee,
            name: format!("Member {i}"),
            key: m[i].public(),
        };
        let mut c = ChainBuilder::start(&cast.referee, cast.genesis("final"), 1_000);
        c.push(
            &cast.director,
            Body::CommitteeFormed {
                members: vec![member(0), member(1), member(2)],
                reserves: vec![],
                formed_before_round: 1,
            },
        );
        c.push(
            &cast.black,
            Body::AppealLodged {
                player: Color::Black,
                ruling_seq: 1,
                grounds: "g".into(),
            },
        );
        let decision = Body::CommitteeDecision {
            appeal_seq: 2,
            verdict: CommitteeVerdict::Upheld,
            reasons: "r".into(),
        };
        let events = |c: &ChainBuilder| -> Vec<Event> {
            c.records.iter().map(|r| r.decode().unwrap()).collect()
        };
        c.push(&m[0], decision.clone());
        // One vote is no decision yet: the referee may still rule.
        let ps = powers(&events(&c), &cast.referee.public());
        assert!(power(&ps, "judgement").allowed);
        c.push(&m[1], decision);
        let ev = events(&c);
        let ps = powers(&ev, &cast.referee.public());
        for action in ["judgement", "clarification"] {
            let p = power(&ps, action);
            assert!(!p.allowed, "{p:?}");
            let why = p.refused.as_deref().unwrap();
            assert!(why.contains("its decision is final"), "{why}");
            assert!(why.contains("Appeals committee"), "{why}");
        }
        // Other powers stay (a pause, a sanction for conduct).
        assert!(power(&ps, "pause").allowed);
        assert!(power(&ps, "sanction").allowed);
        // The preview of a forced ruling says so too.
        let draft = Event {
            version: 1,
            chain: c.game,
            seq: ev.len() as u64,
            prev_hash: c.head.hash,
            at_ms: 2_000,
            signer: cast.referee.public(),
            body: Body::RefereeRuling(Ruling {
                kind: RulingKind::Judgement,
                decision: "again".into(),
                reasons: String::new(),
                rules_cited: vec![],
                effects: vec![],
            }),
        };
        let p = crate::preview::preview(&ev, &draft);
        assert!(
            p.refused.as_deref().unwrap_or("").contains("final"),
            "{:?}",
            p.refused
        );
        // A new call for the referee opens a new matter.
        c.push(
            &cast.white,
            Body::RefereeCalled {
                player: Color::White,
            },
        );
        let ps = powers(&events(&c), &cast.referee.public());
        assert!(power(&ps, "judgement").allowed);
    }

    #[test]
    fn a_player_and_a_stranger_hold_none_of_them() {
        let cast = Cast::new();
        let ev = events(&cast);
        let ps = powers(&ev, &cast.black.public());
        for a in [
            "judgement",
            "clock_adjusted",
            "sanction",
            "committee_decision",
        ] {
            assert!(!power(&ps, a).allowed, "{a}");
        }
        let ps = powers(&ev, &cast.stranger.public());
        assert!(ps.iter().all(|p| !p.allowed), "{ps:?}");
        assert!(powers(&[], &cast.referee.public()).is_empty());
    }
}
