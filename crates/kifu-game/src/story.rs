//! One line of words per recorded fact, for the story `kifu explain` tells.
//!
//! Points are written as the game's board labels them ([`Notation`]: `Q16`
//! on a Go board, `h8` on a Renju board), times as clock faces (`+1:00`,
//! `10:30`): a referee reads these lines beside the board and the clock.

use kifu_ledger::{Body, Color, RulingKind};

use crate::notation::Notation;
use crate::state::{name, result_text};

fn who(c: &Color) -> &'static str {
    name(*c)
}

/// What a fact says, as [`describe`] words it, in a game whose seats may
/// play each other's colours (`swapped`: the pairing was modified to the
/// colours actually used, LGC 2023, "Colour or handicap error"). A stone,
/// a pass, a clock press, a resignation or a protest names its player by the
/// seat; once the seats are exchanged the line names the colour the seat
/// plays and then the seat: "White (the black seat) resigns".
pub fn describe_seated(body: &Body, notation: &Notation, swapped: bool) -> String {
    if !swapped {
        return describe(body, notation);
    }
    let mut played = body.clone();
    let seat = match &mut played {
        Body::StonePlaced { player, .. }
        | Body::Pass { player, .. }
        | Body::ClockPressed { player }
        | Body::Resigned { player, .. }
        | Body::ProtestDeclared { player, .. } => {
            let seat = *player;
            *player = seat.opponent();
            seat
        }
        _ => return describe(body, notation),
    };
    let colour = who(&seat.opponent());
    let line = describe(&played, notation);
    match line.strip_prefix(colour) {
        Some(rest) => format!("{}{rest}", seat_words(seat, true)),
        None => line,
    }
}

/// A seat named for people: its colour, or, once the seats play each
/// other's colours (`swapped`), the colour it plays and then the seat
/// ("White (the black seat)").
pub fn seat_words(seat: Color, swapped: bool) -> String {
    if swapped {
        format!(
            "{} (the {} seat)",
            who(&seat.opponent()),
            who(&seat).to_lowercase()
        )
    } else {
        who(&seat).to_string()
    }
}

/// What a fact says, in words, its points labelled as `notation` labels
/// them (take it from the game's genesis: [`Notation::of`]).
pub fn describe(body: &Body, notation: &Notation) -> String {
    let pt = |p: &kifu_ledger::Point| notation.point(*p);
    let pts = |ps: &[kifu_ledger::Point]| notation.points(ps);
    match body {
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
        | Body::TimeZoneStated { .. } => kifu_ledger::tournament::describe(body),
        Body::LogKeyRotated { origin, new_key } => format!(
            "log key rotated: {origin} signs its checkpoints with key {} from this event on",
            new_key.to_hex()
        ),
        Body::GameCreated(g) => format!(
            "game created: {} {}x{} under {}, handicap {}, komi {}, time: {}",
            crate::words::game_kind(&g.game),
            g.board_size,
            g.board_size,
            g.ruleset,
            g.handicap,
            crate::text::points_text(i64::from(g.komi_half_points)),
            crate::words::time_control(&crate::convert::clock_time_control(&g.time_control))
        ),
        Body::ClockStarted { running } => format!("clock started, {} to move", who(running)),
        Body::StonePlaced {
            player,
            stone,
            point,
        } if player == stone => format!("{} plays {}", who(player), pt(point)),
        Body::StonePlaced {
            player,
            stone,
            point,
        } => format!(
            "{} places a {} stone at {}",
            who(player),
            who(stone).to_lowercase(),
            pt(point)
        ),
        Body::Pass { player, pass_stone } => format!(
            "{} passes{}",
            who(player),
            if *pass_stone {
                ", handing over a pass stone"
            } else {
                ""
            }
        ),
        Body::ClockPressed { player } => format!("{} presses the clock", who(player)),
        Body::ClockPaused { reason } => format!(
            "clocks paused {}",
            crate::words::ledger_pause_reason(reason)
        ),
        Body::ClockResumed { running } => format!("clocks resumed, {}'s running", who(running)),
        Body::Resigned { player, manner } => format!(
            "{} resigns ({})",
            who(player),
            crate::words::resignation(manner)
        ),
        Body::RefereeRuling(r) => format!(
            "referee {}: {} (reasons: {}; rules: {}; {} effect(s))",
            match r.kind {
                RulingKind::Clarification => "clarifies",
                RulingKind::Judgement => "judges",
            },
            r.decision,
            r.reasons,
            r.rules_cited.join("; "),
            r.effects.len()
        ),
        Body::SanctionImposed(s) => {
            format!(
                "sanction on {}: {} ({})",
                crate::words::sanction_target(&s.target),
                crate::words::sanction(&s.kind),
                s.reason
            )
        }
        Body::ProtestDeclared { player, statement } => {
            format!(
                "{} declares the game played under protest: {statement}",
                who(player)
            )
        }
        Body::ResultDeclared(r) => format!("result declared: {}", result_text(r)),
        Body::ResultSheetSigned {
            result,
            under_protest,
        } => format!(
            "result sheet signed: {}{}",
            result_text(result),
            if *under_protest {
                ", played under protest"
            } else {
                ""
            }
        ),
        Body::ClockAdjusted {
            player,
            delta_ms,
            reason,
        } => format!(
            "{}'s clock adjusted by {}: {reason}",
            who(player),
            crate::words::signed_duration(*delta_ms)
        ),
        Body::ClockReading {
            black_ms,
            white_ms,
            black_overtime,
            white_overtime,
            ..
        } => {
            let left = |n: &Option<u32>| {
                n.map(|n| format!(" with {n} left in overtime"))
                    .unwrap_or_default()
            };
            format!(
                "clock read: Black {}{}, White {}{}",
                crate::words::duration(*black_ms),
                left(black_overtime),
                crate::words::duration(*white_ms),
                left(white_overtime)
            )
        }
        Body::IllegalMoveNoticed {
            move_seq,
            statement,
        } => {
            format!("illegal move at event {move_seq} pointed out: {statement}")
        }
        Body::RewindAgreed { player, move_seq } => {
            format!(
                "{} agrees to rewind to before event {move_seq}",
                who(player)
            )
        }
        Body::IrregularityRecorded {
            kind, statement, ..
        } => format!(
            "irregularity, {}: {statement}",
            crate::words::irregularity(*kind)
        ),
        Body::DeadStonesMarked { player, dead } => {
            format!("{} marks dead: {}", who(player), pts(dead))
        }
        Body::StatusAgreed { dead } => format!("status agreed, dead: {}", pts(dead)),
        Body::StatusDisputed { player, statement } => {
            format!("{} disputes a group's status: {statement}", who(player))
        }
        Body::DisputeRaised { player, matter } => {
            format!("{} raises a dispute: {matter}", who(player))
        }
        Body::RefereeCalled { player } => format!("{} calls the referee", who(player)),
        Body::AppealLodged {
            player,
            ruling_seq,
            grounds,
        } => format!(
            "{} appeals the ruling at event {ruling_seq}: {grounds}",
            who(player)
        ),
        Body::CommitteeFormed {
            members, reserves, ..
        } => format!(
            "appeals committee formed: {}; reserves: {}",
            members
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            reserves
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Body::MemberRecused { reason, .. } => format!("committee member recused: {reason}"),
        Body::MemberCoopted { member } => format!("{} co-opted to the committee", member.name),
        Body::CommitteeDecision {
            appeal_seq,
            verdict,
            reasons,
        } => format!(
            "committee decision on the appeal at event {appeal_seq}: {} ({reasons})",
            crate::words::verdict(verdict)
        ),
        Body::FiveDeclared { player } => format!("{} declares five", who(player)),
        Body::ForbiddenMovePointedOut { player, point } => format!(
            "{} points out a forbidden move{}",
            who(player),
            point.map(|p| format!(" at {}", pt(&p))).unwrap_or_default()
        ),
        Body::DrawOffered { player } => format!("{} offers a draw", who(player)),
        Body::DrawAccepted { player } => format!("{} accepts the draw", who(player)),
        Body::DrawDeclined { player } => format!("{} declines the draw", who(player)),
        Body::OpeningSwap { player, swap } => format!(
            "{} {}",
            who(player),
            if *swap {
                "swaps colours"
            } else {
                "keeps colours"
            }
        ),
        Body::FifthCountDeclared { player, count } => {
            format!("{} declares {count} fifth-move alternatives", who(player))
        }
        Body::FifthsOffered { player, points } => {
            format!("{} offers fifth moves {}", who(player), pts(points))
        }
        Body::FifthChosen { player, point } => {
            format!("{} chooses the fifth move {}", who(player), pt(point))
        }
        Body::PlayerArrived { player } => format!("{} arrives at the board", who(player)),
        Body::ProgramTerminated { player, statement } => {
            format!(
                "{}'s program terminated abnormally: {statement}",
                who(player)
            )
        }
        Body::ServerTimeUsed { player, used_ms } => {
            format!(
                "server: {} used {}",
                who(player),
                crate::words::tenths(*used_ms)
            )
        }
        Body::ProgramAnswered {
            player,
            command,
            answer,
        } => format!("{}'s program answered `{command}`: {answer}", who(player)),
        Body::RewindDeclined { player, move_seq } => format!(
            "{} declines to rewind the illegal move at event {move_seq}",
            who(player)
        ),
        Body::KeyReplaced {
            participant,
            new_key,
            reason,
        } => format!(
            "the key {} is replaced by the key {} ({reason}): from here on the new key signs for that participant",
            &participant.to_hex()[..12],
            &new_key.to_hex()[..12]
        ),
        Body::PairingModified {
            swap_colours,
            handicap,
            komi_half_points,
            reason,
        } => crate::pairing::describe(*swap_colours, *handicap, *komi_half_points, reason),
        Body::KeyRevoked { key, reason } => format!(
            "the key {} is revoked ({reason}): nothing it signs from here on is accepted; what it signed before stands",
            &key.to_hex()[..12]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::{GameKind, Point};

    #[test]
    fn moves_are_written_as_the_board_labels_them() {
        let go = Notation::new(GameKind::Go, 19);
        let stone = Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 15, y: 3 },
        };
        assert_eq!(describe(&stone, &go), "Black plays Q16");
        let renju = Notation::new(GameKind::Renju, 15);
        let centre = Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: Point { x: 7, y: 7 },
        };
        assert_eq!(describe(&centre, &renju), "Black plays h8");
        let dead = Body::StatusAgreed {
            dead: vec![Point { x: 0, y: 18 }, Point { x: 1, y: 18 }],
        };
        assert_eq!(describe(&dead, &go), "status agreed, dead: A1, B1");
    }

    #[test]
    fn clock_facts_are_written_as_clock_faces() {
        let n = Notation::default();
        let adjusted = Body::ClockAdjusted {
            player: Color::White,
            delta_ms: 60_000,
            reason: "time lost".into(),
        };
        assert_eq!(
            describe(&adjusted, &n),
            "White's clock adjusted by +1:00: time lost"
        );
        let reading = Body::ClockReading {
            black_ms: 670_000,
            white_ms: 25_000,
            black_overtime: None,
            white_overtime: Some(3),
            read_by: "recorder".into(),
        };
        assert_eq!(
            describe(&reading, &n),
            "clock read: Black 11:10, White 0:25 with 3 left in overtime"
        );
    }
}
