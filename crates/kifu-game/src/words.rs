//! Values in words: every value that reaches text output is worded here
//! (durations, pause reasons, roles, sanctions, irregularities), never
//! printed with `Debug`.

use kifu_ledger::{Color, IrregularityKind, Role, SanctionKind};

/// A duration as a clock face shows it: `11:10`, `1:02:03`, `0:45.5`.
///
/// Whole seconds are shown as seconds; a duration with tenths shows them
/// (the UEC Cup's server counts by 0.1 s: `docs/rules/uec-cup-computer-go-rules.txt`,
/// "Time limit"), and a finer one its milliseconds, so that no figure is
/// rounded away: `0:00.250`.
pub fn duration(ms: u64) -> String {
    let resolution = if ms.is_multiple_of(1000) {
        kifu_clock::Resolution::Seconds
    } else if ms.is_multiple_of(100) {
        kifu_clock::Resolution::Tenths
    } else {
        kifu_clock::Resolution::Millis
    };
    kifu_clock::format_time(ms, resolution)
}

/// A duration at the UEC Cup server's resolution, tenths always shown:
/// `0:04.5`, `0:03.0` (`docs/rules/uec-cup-computer-go-rules.txt`, "Time limit").
pub fn tenths(ms: u64) -> String {
    kifu_clock::format_time(ms, kifu_clock::Resolution::Tenths)
}

/// A signed duration as a clock face: `+1:00`, `-0:30`.
pub fn signed_duration(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "+" };
    format!("{sign}{}", duration(ms.unsigned_abs()))
}

/// A clock pause reason, from its code, in words.
pub fn pause_code(code: &str) -> String {
    match code {
        "STATUS_ASSESSMENT" => "for the assessment of the status of groups".into(),
        "COUNTING" => "for counting".into(),
        "OVERTIME_RESET" => "to reset the clock or count overtime stones".into(),
        "TOILET" => "for a toilet visit".into(),
        "STONE_REMOVAL" => "to remove three or more stones".into(),
        "CLOCK_MALFUNCTION" => "for a clock malfunction".into(),
        "ADJOURNMENT" => "for a formal adjournment".into(),
        "FETCH_SEALING_FORM" => "to fetch a sealing form".into(),
        "COMPLETE_SEALING_FORM" => "to complete a sealing form".into(),
        "CALL_REFEREE" => "to call the referee".into(),
        "ARBITRATION" => "for arbitration or a rule clarification".into(),
        "ANNOUNCEMENT" => "for an announcement".into(),
        "GAME_OVER" => "the game is over".into(),
        other => format!("({})", other.to_lowercase().replace('_', " ")),
    }
}

/// A time control in words, its times as clock faces:
/// `Fischer, 10:00 + 0:10 a move`, `byo-yomi, 1:00:00 + 5 × 0:30`.
pub fn time_control(tc: &kifu_clock::TimeControl) -> String {
    use kifu_clock::TimeControl as T;
    let d = duration;
    match *tc {
        T::Untimed => "untimed".into(),
        T::SuddenDeath { main_ms } => format!("sudden death, {}", d(main_ms)),
        T::Fischer {
            main_ms,
            increment_ms,
            max_ms,
        } => {
            let cap = max_ms
                .map(|m| format!(", at most {}", d(m)))
                .unwrap_or_default();
            format!("Fischer, {} + {} a move{cap}", d(main_ms), d(increment_ms))
        }
        T::Simple { per_move_ms } => format!("{} a move", d(per_move_ms)),
        T::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => format!("byo-yomi, {} + {periods} × {}", d(main_ms), d(period_ms)),
        T::Canadian {
            main_ms,
            stones,
            block_ms,
        } => format!(
            "Canadian, {} + {stones} stones in {}",
            d(main_ms),
            d(block_ms)
        ),
    }
}

/// A clock pause reason in words.
pub fn pause_reason(r: &kifu_clock::PauseReason) -> String {
    pause_code(r.code())
}

/// A recorded pause reason in words.
pub fn ledger_pause_reason(r: &kifu_ledger::PauseReason) -> String {
    pause_reason(&crate::convert::clock_pause(r))
}

/// A role in words: `black`, `referee`, `committee member`.
pub fn role(r: Role) -> &'static str {
    match r {
        Role::Black => "black",
        Role::White => "white",
        Role::Referee => "referee",
        Role::Recorder => "recorder",
        Role::Director => "director",
        Role::Committee => "committee",
    }
}

/// "Black" or "White".
pub fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A sanction in words.
pub fn sanction(k: &SanctionKind) -> String {
    match k {
        SanctionKind::Advice => "advice".into(),
        SanctionKind::Warning => "warning".into(),
        SanctionKind::GameForfeit => "game forfeit".into(),
        SanctionKind::TimeModified { delta_ms } => {
            format!("time limit modified by {}", signed_duration(*delta_ms))
        }
        SanctionKind::RemovedFromRounds { rounds } => {
            format!("removal from {}", rounds_text(rounds))
        }
        SanctionKind::RemovedFromTournament => "removal from the tournament".into(),
        SanctionKind::Debarment => "debarment from a supergroup in a future tournament".into(),
        SanctionKind::Disqualification => "disqualification".into(),
    }
}

/// `round 3`, `rounds 3, 4 and 5`.
pub fn rounds_text(rounds: &[u32]) -> String {
    let n: Vec<String> = rounds.iter().map(|r| r.to_string()).collect();
    match n.as_slice() {
        [] => "no round".into(),
        [one] => format!("round {one}"),
        [init @ .., last] => format!("rounds {} and {last}", init.join(", ")),
    }
}

/// An irregularity in words.
pub fn irregularity(k: IrregularityKind) -> &'static str {
    match k {
        IrregularityKind::CapturedStonesNotRemoved => "captured stones not removed",
        IrregularityKind::LiveStonesRemoved => "stones with liberties removed",
        IrregularityKind::HandicapStonesMisplaced => "handicap stones misplaced",
        IrregularityKind::StoneOnOccupiedPoint => "a stone on an occupied point",
        IrregularityKind::AmbiguousPlacement => "a stone placed ambiguously",
        IrregularityKind::WrongColour => "a stone of the wrong colour",
        IrregularityKind::ColourOrHandicapError => "a colour or handicap error",
        IrregularityKind::PositionDisturbed => "the position disturbed",
        #[allow(unreachable_patterns)]
        _ => "an irregularity",
    }
}

/// A broken rule of play, from its code (`kifu_go::Violation::reason`), in
/// words: `out_of_turn` is `play out of turn`.
pub fn violation_code(code: &str) -> String {
    match code {
        "out_of_turn" => "play out of turn".into(),
        "wrong_colour" => "a stone of the wrong colour".into(),
        "occupied" => "a stone on an occupied point".into(),
        "off_board" => "a stone off the board".into(),
        "suicide" => "self-capture".into(),
        "ko" => "retaking a ko at once".into(),
        "positional_superko" => "positional superko".into(),
        "situational_superko" => "situational superko".into(),
        "natural_situational_superko" => "natural situational superko".into(),
        "during_status_assessment" => "a move during the status assessment".into(),
        "after_end_of_game" => "a move after the end of the game".into(),
        other => other.replace('_', " "),
    }
}

/// Why a Renju claim does not hold, in words.
pub fn claim_rejection(r: &kifu_renju::ClaimRejection) -> String {
    use kifu_renju::ClaimRejection as R;
    match r {
        R::NoFive => "there is no five on the board for the claimant".into(),
        R::FiveLapsed { move_number } => format!(
            "the five made by move {move_number} was not declared before the opponent's next move"
        ),
        R::NoBlackStone { .. } => "there is no Black stone at the point named".into(),
        R::NotForbidden {
            move_number,
            verdict,
        } => format!(
            "move {move_number} was not a forbidden move (it made {})",
            renju_verdict(*verdict)
        ),
        R::RightLost { move_number, kind } => format!(
            "White played on after move {move_number}, a {}, and lost the right to claim it",
            renju_verdict(*kind)
        ),
        R::NoForbiddenMoves => "the rule has no forbidden moves".into(),
    }
}

/// A Renju verdict in words.
pub fn renju_verdict(v: kifu_renju::Verdict) -> &'static str {
    use kifu_renju::Verdict as V;
    match v {
        V::Five => "five in a row",
        V::Overline => "an overline",
        V::DoubleFour => "double-four",
        V::DoubleThree => "double-three",
        V::Legal => "a legal move",
        V::FiveOrOverlineWin => "five or an overline, a win",
    }
}

/// A game kind in words.
pub fn game_kind(k: &kifu_ledger::GameKind) -> &'static str {
    use kifu_ledger::GameKind as K;
    match k {
        K::Go => "Go",
        K::Renju => "Renju",
        K::GomokuFreestyle => "free-style Gomoku",
        K::GomokuStandard => "standard Gomoku",
    }
}

/// How a player resigned, in words.
pub fn resignation(r: &kifu_ledger::Resignation) -> &'static str {
    use kifu_ledger::Resignation as R;
    match r {
        R::Spoken => "said so",
        R::TwoStones => "by placing two stones at once",
        R::Program => "the program or its operator resigned",
    }
}

/// Who a sanction is on, in words.
pub fn sanction_target(t: &kifu_ledger::SanctionTarget) -> &'static str {
    match t {
        kifu_ledger::SanctionTarget::Player(c) => colour(*c),
        kifu_ledger::SanctionTarget::Both => "both players",
    }
}

/// A committee's verdict in words.
pub fn verdict(v: &kifu_ledger::CommitteeVerdict) -> String {
    use kifu_ledger::CommitteeVerdict as V;
    match v {
        V::Rejected => "the case is rejected".into(),
        V::Upheld => "the referee's judgement is upheld".into(),
        V::Replaced(effects) => format!("the judgement is replaced ({} effect(s))", effects.len()),
    }
}

/// A small number in words: `three`; larger numbers in figures.
pub fn number(n: usize) -> String {
    const W: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    W.get(n)
        .map(|w| w.to_string())
        .unwrap_or_else(|| n.to_string())
}

/// `1:00 more`, `0:30 less`, `no more`.
pub fn more_or_less(ms: i64) -> String {
    match ms {
        0 => "no more".into(),
        m if m > 0 => format!("{} more", duration(m.unsigned_abs())),
        m => format!("{} less", duration(m.unsigned_abs())),
    }
}

/// Why the clock cannot take a recorded fact, in words (no raw instants).
pub fn clock_error(e: &kifu_clock::ClockError) -> String {
    use kifu_clock::ClockError as E;
    match e {
        E::NotStarted { event, .. } => format!("{event} before the clock was started"),
        E::AlreadyStarted { .. } => "the clock was already started".into(),
        E::TimeWentBackwards { at_ms, last_ms } => format!(
            "the fact is dated {} before the previous clock fact",
            duration(last_ms.saturating_sub(*at_ms))
        ),
        E::NotOnMove {
            player, to_move, ..
        } => format!("{player} pressed the clock while {to_move}'s clock was running"),
        E::AlreadyPaused { .. } => "the clocks were already paused".into(),
        E::NotPaused { .. } => "the clocks were not paused".into(),
        E::AdjustmentExceedsMainTime {
            player,
            remaining_ms,
            delta_ms,
        } => format!(
            "an adjustment of {} for {player} exceeds the {} of main time left",
            signed_duration(*delta_ms),
            duration(*remaining_ms)
        ),
        E::QueryInThePast { at_ms, last_ms } => format!(
            "the clock is read {} before its last fact",
            duration(last_ms.saturating_sub(*at_ms))
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_clock_faces() {
        assert_eq!(duration(670_000), "11:10");
        assert_eq!(duration(3_723_000), "1:02:03");
        assert_eq!(duration(45_500), "0:45.5");
        assert_eq!(duration(250), "0:00.250");
        assert_eq!(signed_duration(60_000), "+1:00");
        assert_eq!(signed_duration(-30_000), "-0:30");
        assert_eq!(more_or_less(60_000), "1:00 more");
        assert_eq!(more_or_less(-30_000), "0:30 less");
        // The UEC Cup's server counts tenths: they are always shown.
        assert_eq!(tenths(3_000), "0:03.0");
        assert_eq!(tenths(4_500), "0:04.5");
    }

    #[test]
    fn time_controls_read_in_words() {
        use kifu_clock::TimeControl as T;
        assert_eq!(
            time_control(&T::Byoyomi {
                main_ms: 3_600_000,
                periods: 5,
                period_ms: 30_000
            }),
            "byo-yomi, 1:00:00 + 5 × 0:30"
        );
        assert_eq!(
            time_control(&T::Fischer {
                main_ms: 600_000,
                increment_ms: 10_000,
                max_ms: None
            }),
            "Fischer, 10:00 + 0:10 a move"
        );
        assert_eq!(
            time_control(&T::Canadian {
                main_ms: 3_600_000,
                stones: 25,
                block_ms: 600_000
            }),
            "Canadian, 1:00:00 + 25 stones in 10:00"
        );
        assert_eq!(time_control(&T::Untimed), "untimed");
    }

    #[test]
    fn codes_read_in_words() {
        assert_eq!(pause_code("CALL_REFEREE"), "to call the referee");
        assert_eq!(pause_code("SOMETHING_NEW"), "(something new)");
        assert_eq!(violation_code("out_of_turn"), "play out of turn");
        assert_eq!(
            sanction(&SanctionKind::TimeModified { delta_ms: -30_000 }),
            "time limit modified by -0:30"
        );
        assert_eq!(
            sanction(&SanctionKind::RemovedFromRounds {
                rounds: vec![3, 4, 5]
            }),
            "removal from rounds 3, 4 and 5"
        );
    }
}
