//! Results (the one the rules give beside those declared and signed),
//! attendance and the abnormal termination of programs.

use kifu_ledger::{Color, GameResult, Outcome, PublicKey, ResultBy, Role};

use crate::cite::{lgc, uec};
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
                    self.note(
                        format!("{} writes \"played under protest\" but declared no protest during the game", name(c)),
                        lgc("Player responsibility"),
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
        let Some(start) = self.clock.started_at_ms else {
            self.note(
                format!("{} arrives before the clock was started", name(p)),
                lgc("Start"),
            );
            return;
        };
        let late = at_ms.saturating_sub(start);
        let minutes = late / 60_000;
        if self.profile != "lgc-2023" {
            self.note(
                format!("{} arrives {minutes} min after the clock was started; the profile's document states no late-arrival forfeit, the time ran on the clock", name(p)),
                self.doc_clause("Start"),
            );
            return;
        }
        if late >= LATE_ARRIVAL_FORFEIT_MS {
            self.forfeit(p, &format!("late by {minutes} min"), lgc("Start"));
        } else {
            self.note(
                format!("{} arrives {minutes} min after the clock was started: under 30 minutes, no forfeit; the time ran on the clock", name(p)),
                lgc("Start"),
            );
        }
    }

    /// UEC Cup, "h) Abnormal termination of programs".
    pub(crate) fn program_terminated(&mut self, p: Color, at_ms: u64) {
        if self.profile != "uec-cup" {
            self.note(
                format!("{}'s program terminated abnormally; the document has no procedure for it: the referee decides", name(p)),
                self.doc_clause("Referee responsibilities"),
            );
            return;
        }
        let overrides = self
            .genesis
            .as_ref()
            .map(|g| g.overrides.clone())
            .unwrap_or_default();
        // Earlier abnormal terminations in this match, stated at genesis
        // (`abnormal_terminations = "black,white"`); a game started after one
        // is a new game of 20 minutes each.
        let earlier: Vec<String> = overrides
            .iter()
            .filter(|(k, _)| k == "abnormal_terminations")
            .flat_map(|(_, v)| {
                v.split(',')
                    .map(|s| s.trim().to_lowercase())
                    .collect::<Vec<_>>()
            })
            .collect();
        let me = name(p).to_lowercase();
        let replayed = !earlier.is_empty();
        let loss = GameResult {
            outcome: Outcome::Win(p.opponent()),
            by: ResultBy::AbnormalTermination,
        };
        if earlier.contains(&me) {
            self.end_by_play(
                loss.clone(),
                uec("h) Abnormal termination of programs, 4: the second abnormal termination of the same program in a match loses"),
            );
            return;
        }
        let Some(remaining) = self.remaining_ms(at_ms) else {
            self.note("no clock: the referee decides", uec("k) Others"));
            return;
        };
        let sum = remaining[0].saturating_add(remaining[1]);
        let threshold: u64 = if replayed { 20 * 60_000 } else { 40 * 60_000 };
        let clause = if replayed { "3" } else { "1" };
        self.note(
            format!(
                "{}'s program terminated abnormally; remaining times sum to {:.1} min (threshold {} min)",
                name(p),
                sum as f64 / 60_000.0,
                threshold / 60_000
            ),
            uec("h) Abnormal termination of programs"),
        );
        if sum < threshold {
            self.end_by_play(
                loss.clone(),
                uec(&format!("h) Abnormal termination of programs, {clause}")),
            );
        } else {
            self.end_by_play(
                GameResult {
                    outcome: Outcome::NoResult,
                    by: ResultBy::AbnormalTermination,
                },
                uec(&format!(
                    "h) Abnormal termination of programs, {}: a new game with time control of 20 minutes each is played",
                    if replayed { "3" } else { "2" }
                )),
            );
        }
    }
}
