//! The programs' own count (UEC Cup, "a)Both programs pass consecutively",
//! 1 to 3): both programs display their dead stones and count; the server
//! records their `final_score` answers word for word (kind 40,
//! `program_answered`).
//!
//! - a) 2: "If the dead stones and the size of the territory by both
//!   programs match, this is used as the result of the game." The agreed
//!   score is the result; kifu's own count is kept beside it, and where the
//!   two differ the difference is reported, never replaced silently.
//! - a) 3: "If they do not match, the referee corrects the mismatching parts
//!   under the witness of both operators." No result follows from play: the
//!   projection raises a question for the referee, whose ruling (or status
//!   settlement) decides.
//!
//! Under e) (the move limit) the referee counts: the programs' answers are
//! shown as evidence only.

use kifu_go::{EndingPhase, GameEnd, Topic};
use kifu_ledger::{Color, GameResult, Outcome, ResultBy};
use serde::Serialize;

use crate::state::{idx, name, result_text, BoardState, GameState};

/// Both programs' counts and what the rules make of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ProgramsCount {
    /// Each program's `final_score` answer, word for word, Black's then
    /// White's, with the event that recorded it.
    pub answers: [Option<(u64, String)>; 2],
    /// The score both programs give, when they give the same one.
    pub agreed: Option<GameResult>,
    /// kifu's own count of the position, when the game was counted.
    pub kifu_count: Option<GameResult>,
    /// What the rules make of the answers, in words (the result, or the
    /// question left to the referee).
    pub ruling: Option<String>,
    /// The counts leave the result to the referee (a) 3).
    pub to_referee: bool,
    /// The agreed score is the result of the game (a) 2).
    pub is_result: bool,
}

impl ProgramsCount {
    /// The disagreement between the programs' agreed score and kifu's own
    /// count, in words, if there is one.
    pub fn disagreement(&self) -> Option<String> {
        match (&self.agreed, &self.kifu_count) {
            (Some(a), Some(k)) if self.is_result && a != k => Some(format!(
                "both programs count {} (UEC Cup a) 2: the result of the game), but kifu's own count of the position gives {}",
                result_text(a),
                result_text(k)
            )),
            _ => None,
        }
    }
}

/// A GTP `final_score` answer (`B+3.5`, `W+0.5`, `0`) as a result.
pub fn parse_final_score(answer: &str) -> Option<GameResult> {
    let a = answer.trim();
    if a == "0" {
        return Some(GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Score {
                margin_half_points: 0,
            },
        });
    }
    let (who, rest) = a.split_once('+')?;
    let colour = match who.trim().to_ascii_uppercase().as_str() {
        "B" | "BLACK" => Color::Black,
        "W" | "WHITE" => Color::White,
        _ => return None,
    };
    let rest = rest.trim();
    let (whole, half) = match rest.split_once('.') {
        Some((w, "5")) => (w, 1),
        Some((w, "0")) | Some((w, "")) => (w, 0),
        None => (rest, 0),
        Some(_) => return None,
    };
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: i32 = whole.parse().ok()?;
    let margin = whole.checked_mul(2)?.checked_add(half)?;
    if margin == 0 {
        return None;
    }
    Some(GameResult {
        outcome: Outcome::Win(colour),
        by: ResultBy::Score {
            margin_half_points: margin,
        },
    })
}

impl GameState {
    /// Kind 40: a program's answer. Only `final_score` bears on the result.
    pub(crate) fn program_answered(&mut self, seq: u64, p: Color, command: &str, answer: &str) {
        if command.trim() != "final_score" {
            return;
        }
        let pc = self.result.programs_count.get_or_insert(ProgramsCount {
            answers: [None, None],
            agreed: None,
            kifu_count: None,
            ruling: None,
            to_referee: false,
            is_result: false,
        });
        pc.answers[idx(p)] = Some((seq, answer.to_string()));
        pc.ruling = None;
        self.weigh_programs_count();
    }

    /// Once both programs have counted and the game stopped on the passes,
    /// the programs' count decides (a) 2) or the referee does (a) 3).
    /// Called again when the dead stones are agreed after the answers.
    pub(crate) fn weigh_programs_count(&mut self) {
        let Some(pc) = &self.result.programs_count else {
            return;
        };
        if pc.ruling.is_some() {
            return;
        }
        let [Some((_, b)), Some((_, w))] = &pc.answers else {
            return;
        };
        let (b, w) = (b.clone(), w.clone());
        let phase = match &self.board {
            BoardState::Go(g) => g.ending_phase().clone(),
            _ => return,
        };
        let end_on_passes = matches!(phase, EndingPhase::Over(GameEnd::Agreed { .. }));
        let move_limit = matches!(phase, EndingPhase::Over(GameEnd::MoveLimit));
        let kifu_count = self.kifu_count();
        let (pb, pw) = (parse_final_score(&b), parse_final_score(&w));
        let agreed = match (&pb, &pw) {
            (Some(x), Some(y)) if x == y => Some(x.clone()),
            _ => None,
        };
        let counts = format!(
            "{}'s program counts {b}, {}'s program {w}",
            name(Color::Black),
            name(Color::White)
        );
        let beside = match &kifu_count {
            Some(k) => format!("; kifu's own count gives {}", result_text(k)),
            None => String::new(),
        };
        let dead_differ = matches!(&self.dead_marks, [Some(x), Some(y)] if x != y);
        let (ruling, topic, decide) = if self
            .result
            .by_play
            .as_ref()
            .is_some_and(|d| !matches!(d.result.by, ResultBy::Score { .. }))
            || self.result.ruled.is_some()
            || self.result.forfeit.is_some()
        {
            (
                format!("{counts}: the game was already decided otherwise; the counts are evidence only"),
                Topic::StatusAgreement,
                None,
            )
        } else if move_limit {
            (
                format!("{counts}{beside}: at the move limit the referee counts the territory; the programs' counts are evidence only"),
                Topic::MoveLimit,
                None,
            )
        } else if pb.is_none() || pw.is_none() {
            (
                format!("{counts}: a count cannot be read; the referee corrects the mismatching parts under the witness of both operators (a question for the referee){beside}"),
                Topic::StatusSettledByReferee,
                None,
            )
        } else if agreed.is_none() {
            (
                format!("{counts}: the counts do not match; the referee corrects the mismatching parts under the witness of both operators (a question for the referee, no result until then){beside}"),
                Topic::StatusSettledByReferee,
                None,
            )
        } else if dead_differ {
            (
                format!("{counts}: the counts match but the dead stones displayed do not; the referee corrects the mismatching parts (a question for the referee){beside}"),
                Topic::StatusSettledByReferee,
                None,
            )
        } else if let (true, Some(a)) = (end_on_passes, agreed.clone()) {
            let same = kifu_count.as_ref() == Some(&a);
            (
                if same {
                    format!(
                        "both programs count {}: this is used as the result of the game; kifu's own count agrees",
                        result_text(&a)
                    )
                } else {
                    format!(
                        "both programs count {}: this is used as the result of the game, in place of the result kifu's own count gave ({}), which is kept beside it and reported as differing",
                        result_text(&a),
                        kifu_count
                            .as_ref()
                            .map(result_text)
                            .unwrap_or_else(|| "none".into())
                    )
                },
                Topic::StatusAgreement,
                Some(a),
            )
        } else {
            // Both counts are in, the dead stones not yet: wait for them.
            return;
        };
        let c = self.cite(topic);
        self.note_cited(ruling.clone(), c.clone());
        let to_referee = topic == Topic::StatusSettledByReferee;
        if let Some(pc) = self.result.programs_count.as_mut() {
            pc.agreed = agreed;
            pc.kifu_count = kifu_count;
            pc.ruling = Some(ruling);
            pc.to_referee = to_referee;
            pc.is_result = decide.is_some();
        }
        if let Some(a) = decide {
            let at_seq = self.at_seq.unwrap_or(0);
            self.result.by_play = Some(crate::record::Decided {
                result: a,
                at_seq,
                rule: c.rule,
                quote: c.quote,
            });
        } else if to_referee
            && end_on_passes
            && self
                .result
                .by_play
                .as_ref()
                .is_some_and(|d| matches!(d.result.by, ResultBy::Score { .. }))
        {
            // a) 3: the result is the referee's, not kifu's count.
            self.result.by_play = None;
        }
    }

    /// kifu's own count of the position, as a result, if counted.
    fn kifu_count(&self) -> Option<GameResult> {
        let BoardState::Go(b) = &self.board else {
            return None;
        };
        let s = b.final_score.as_ref()?;
        Some(crate::convert::score_result(&s.result))
    }
}
