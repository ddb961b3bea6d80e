//! Results (the one the rules give beside those declared and signed),
//! attendance and the abnormal termination of programs.

use kifu_ledger::{Color, GameResult, Outcome, PublicKey, ResultBy, Role};

use kifu_go::{AbnormalTerminationRule, Topic};

use crate::record::Statement;
use crate::state::{name, result_text, GameState};

/// Late by this much or more forfeits (LGC 2023, "Start").
pub const LATE_ARRIVAL_FORFEIT_MS: u64 = 30 * 60_000;

impl GameState {
    pub(crate) fn sheet_signed(
        &mut self,
        seq: u64,
        result: &GameResult,
        under_protest: bool,
        signer: &PublicKey,
    ) {
        let roles = self.roles_of(signer);
        let seat = roles.iter().find_map(|r| r.player_color());
        if under_protest {
            if let Some(c) = seat {
                if !self.protests.iter().any(|p| p.player == c) {
                    self.note_on(
                        format!("{} writes \"played under protest\" but declared no protest during the game", name(c)),
                        Topic::Protest,
                    );
                }
            }
        }
        let signer_name = self.signer_name(signer);
        self.result.signatures.push(Statement {
            seq,
            signer: signer_name,
            seat,
            roles,
            result: result.clone(),
            under_protest,
            matches: None,
        });
    }

    /// Compares every declared and signed result with the computed one, and
    /// lists who still has to sign. Recomputed after every event.
    pub(crate) fn refresh_result(&mut self) {
        let computed = self.result.computed().map(|d| d.result.clone());
        let mut mismatches = Vec::new();
        let all = self
            .result
            .declared
            .iter_mut()
            .map(|s| (s, "declares"))
            .chain(
                self.result
                    .signatures
                    .iter_mut()
                    .map(|s| (s, "signs the sheet with")),
            );
        for (s, verb) in all {
            s.matches = computed.as_ref().map(|c| *c == s.result);
            match &computed {
                Some(c) if *c != s.result => mismatches.push(format!(
                    "{} {verb} {} at event {}, but the rules give {}",
                    s.signer,
                    result_text(&s.result),
                    s.seq,
                    result_text(c)
                )),
                None => mismatches.push(format!(
                    "{} {verb} {} at event {}, but the rules give no result yet",
                    s.signer,
                    result_text(&s.result),
                    s.seq
                )),
                _ => {}
            }
        }
        // UEC Cup a) 2: the programs' agreed score is the result; kifu's
        // own count, where it differs, is reported beside it.
        if let Some(d) = self
            .result
            .programs_count
            .as_ref()
            .and_then(|p| p.disagreement())
        {
            mismatches.push(d);
        }
        self.result.mismatches = mismatches;
        // Who signs: the players (the operators in a computer event), and
        // the referee where the referee decided (UEC Cup, "5:Result sheet";
        // LGC 2023, "Player responsibility").
        let mut missing = Vec::new();
        if computed.is_some() || !self.result.signatures.is_empty() {
            for (role, c) in [(Role::Black, Color::Black), (Role::White, Color::White)] {
                if !self
                    .result
                    .signatures
                    .iter()
                    .any(|s| s.roles.contains(&role))
                {
                    let who = self
                        .player_participant(c)
                        .map(|p| p.name.clone())
                        .unwrap_or_else(|| name(c).to_string());
                    missing.push(format!("{who} ({})", name(c).to_lowercase()));
                }
            }
            if self.result.ruled.is_some()
                && self.conduct.referee_signs_decided_result
                && !self
                    .result
                    .signatures
                    .iter()
                    .any(|s| s.roles.contains(&Role::Referee))
            {
                missing.push("the referee, who decided the result".into());
            }
        }
        self.result.missing_signatures = missing;
    }

    /// A player arrives after the clock was started.
    pub(crate) fn player_arrived(&mut self, p: Color, at_ms: u64) {
        self.arrived[crate::state::idx(p)] = true;
        let Some(start) = self.clock.started_at_ms else {
            self.note_on(
                format!("{} arrives before the clock was started", name(p)),
                Topic::LateArrival,
            );
            return;
        };
        let late = at_ms.saturating_sub(start);
        let Some(limit) = self.conduct.late_arrival_forfeit_ms else {
            self.note_on(
                format!("{} arrives {} after the clock was started; the tournament rules state no late-arrival forfeit, the time ran on the clock", name(p), crate::words::duration(late)),
                Topic::LateArrival,
            );
            return;
        };
        if late >= limit {
            let c = self.cite(Topic::LateArrival);
            self.forfeit(p, &format!("late by {}", crate::words::duration(late)), c);
        } else {
            self.note_on(
                format!(
                    "{} arrives {} after the clock was started: under {}, no forfeit; the time ran on the clock",
                    name(p),
                    crate::words::duration(late),
                    crate::words::duration(limit)
                ),
                Topic::LateArrival,
            );
        }
    }

    /// A player's first clock press: with no arrival recorded, a press more
    /// than the allowed lateness after the clock was started is a question
    /// for the referee (LGC 2023, "Start").
    pub(crate) fn first_press(&mut self, p: Color, at_ms: u64) {
        let i = crate::state::idx(p);
        if self.first_press_ms[i].is_some() {
            return;
        }
        self.first_press_ms[i] = Some(at_ms);
        let (Some(start), Some(limit)) = (
            self.clock.started_at_ms,
            self.conduct.late_arrival_forfeit_ms,
        ) else {
            return;
        };
        // The player's clock ran from the start, or from the opponent's
        // first press if the opponent's clock ran first.
        let from = self.first_press_ms[1 - i]
            .filter(|t| *t <= at_ms)
            .unwrap_or(start);
        let after = at_ms.saturating_sub(from);
        if self.arrived[i] || after < limit || self.is_over() {
            return;
        }
        self.note_on(
            format!(
                "{}'s clock ran {} before {}'s first press and no arrival is recorded: if {} arrived {} or more late, the game is forfeit; a question for the referee",
                name(p),
                crate::words::duration(after),
                name(p),
                name(p),
                crate::words::duration(limit)
            ),
            Topic::LateArrival,
        );
    }

    /// An abnormal termination of a program, by the tournament rules (UEC
    /// Cup, "h) Abnormal termination of programs").
    pub(crate) fn program_terminated(&mut self, p: Color, at_ms: u64) {
        let (lose_below_ms, lose_below_in_new_game_ms) = match self.conduct.abnormal_termination {
            AbnormalTerminationRule::RemainingTime {
                lose_below_ms,
                lose_below_in_new_game_ms,
            } => (lose_below_ms, lose_below_in_new_game_ms),
            AbnormalTerminationRule::Referee => {
                self.note_on(
                    format!("{}'s program terminated abnormally; the document has no procedure for it: the referee decides", name(p)),
                    Topic::AbnormalTermination,
                );
                return;
            }
        };
        // Earlier abnormal terminations in this match, stated at genesis
        // (`abnormal_terminations = "black,white"`): this game is a new game.
        let earlier = self
            .go_rules()
            .map(|r| r.conduct.earlier_abnormal_terminations.clone())
            .unwrap_or_default();
        let me = crate::go::go_color(p);
        let replayed = !earlier.is_empty();
        let loss = GameResult {
            outcome: Outcome::Win(p.opponent()),
            by: ResultBy::AbnormalTermination,
        };
        if earlier.contains(&me) {
            let c = self.cite(Topic::AbnormalTerminationSecond);
            self.end_by_play(loss, c);
            return;
        }
        let Some(remaining) = self.remaining_ms(at_ms) else {
            self.note_on("no clock: the referee decides", Topic::Referee);
            return;
        };
        let sum = remaining[0].saturating_add(remaining[1]);
        let threshold = if replayed {
            lose_below_in_new_game_ms
        } else {
            lose_below_ms
        };
        self.note_on(
            format!(
                "{}'s program terminated abnormally; the remaining times sum to {} (threshold {})",
                name(p),
                crate::words::duration(sum),
                crate::words::duration(threshold)
            ),
            Topic::AbnormalTermination,
        );
        if sum < threshold {
            let c = self.cite(if replayed {
                Topic::AbnormalTerminationInNewGame
            } else {
                Topic::AbnormalTerminationLoss
            });
            self.end_by_play(loss, c);
        } else {
            let c = self.cite(if replayed {
                Topic::AbnormalTerminationInNewGame
            } else {
                Topic::AbnormalTerminationNewGame
            });
            self.end_by_play(
                GameResult {
                    outcome: Outcome::NoResult,
                    by: ResultBy::AbnormalTermination,
                },
                c,
            );
        }
    }
}
