//! The ending procedure: passes, the pause, agreement on the status of the
//! groups (or the dead stones both programs display), disputes and
//! resumption, the count, repetition and the move limit.

use kifu_go::{EndingEvent, GameEnd, RepetitionRule, Resumption, Topic};
use kifu_ledger::{Color, GameResult, Outcome, Point, ResultBy, Role};

use crate::go::{Applied, Op};
use crate::state::{idx, name, GameState};
use crate::text::points_text;

impl GameState {
    /// The ending machine's announcements.
    pub(crate) fn ending_events(&mut self, events: &[EndingEvent]) {
        for e in events {
            let (what, topic) = match e {
                EndingEvent::Paused => {
                    let no_resumption = self
                        .go_rules()
                        .is_some_and(|r| r.resumption == Resumption::NotAllowed);
                    (
                        if no_resumption {
                            "both sides passed: play stops; the dead stones are displayed and the territory counted".to_string()
                        } else {
                            "play pauses on the passes; the clock is paused and the players attempt to agree on the status of every group".to_string()
                        },
                        Topic::EndOfGame,
                    )
                }
                EndingEvent::Resumed { first } => {
                    let first = crate::go::ledger_color(*first);
                    self.resume_after_status(first);
                    (
                        format!("play resumes on the clock, {} first", name(first)),
                        Topic::Resumption,
                    )
                }
                EndingEvent::ExtraWhitePassRequired => (
                    "Black passed last: White must pass once more, handing over a pass stone"
                        .to_string(),
                    Topic::WhitePassesLast,
                ),
                EndingEvent::Ended(end) => {
                    self.go_ended(end);
                    continue;
                }
            };
            self.note_on(what, topic);
        }
    }

    /// After the clock press that completes the pass on which play pauses,
    /// both clocks stop until the status of the groups is agreed or play
    /// resumes: LGC 2023, "Ending the game", 4: "The clock is now paused."
    pub(crate) fn pause_on_passes(&mut self, at_ms: u64) {
        let assessing = match &self.board {
            crate::state::BoardState::Go(b) => {
                matches!(b.ending_phase(), kifu_go::EndingPhase::StatusAssessment)
            }
            _ => false,
        };
        if !assessing || self.is_over() {
            return;
        }
        let running = self.clock.clock.as_ref().is_some_and(|c| c.is_running());
        if !running || self.clock.started_at_ms.is_none() {
            return;
        }
        self.clock_event(kifu_clock::ClockEvent::Paused {
            at_ms,
            reason: kifu_clock::PauseReason::StatusAssessment,
        });
        let topic = match self
            .go_rules()
            .and_then(|r| r.clause(Topic::ClockPausedForStatus))
        {
            Some(_) => Topic::ClockPausedForStatus,
            None => Topic::EndOfGame,
        };
        self.note_on(
            "both clocks stop while the players agree on the status of the groups",
            topic,
        );
    }

    /// Play resumes after a status dispute: the clocks stopped on the passes
    /// run again, `first`'s running (LGC 2023, "Ending the game", 6: "play
    /// resumes on the clock").
    fn resume_after_status(&mut self, first: Color) {
        let paused_for_status = self.clock.clock.as_ref().is_some_and(|c| {
            matches!(
                c.pause_reason(),
                Some(kifu_clock::PauseReason::StatusAssessment)
            )
        });
        if !paused_for_status {
            return;
        }
        let at_ms = self.at_ms.unwrap_or(0);
        self.clock_event(kifu_clock::ClockEvent::Resumed {
            at_ms,
            running: Some(crate::state::player(first)),
        });
    }

    fn go_ended(&mut self, end: &GameEnd) {
        let repetition = self.go_rules().map(|r| r.repetition);
        let Some(b) = self.go() else { return };
        let score = b.score_for_end(end);
        b.final_score = score.clone();
        match (end, score) {
            (GameEnd::Repetition, _) => {
                // The profile's `repetition` value decides (UEC Cup, "g)
                // Repetition of a position": a draw).
                let outcome = match repetition {
                    Some(RepetitionRule::Draw) => Outcome::Draw,
                    _ => Outcome::NoResult,
                };
                let c = self.cite(Topic::Repetition);
                self.end_by_play(
                    GameResult {
                        outcome,
                        by: ResultBy::Repetition,
                    },
                    c,
                );
            }
            (end, Some(score)) => {
                let how = match end {
                    GameEnd::MoveLimit => {
                        "the move limit is reached: the referee counts the territory"
                    }
                    GameEnd::AllStonesAlive => {
                        "the game stops with all stones remaining on the board"
                    }
                    _ => "the status of every group is agreed: the game is counted",
                };
                let topic = match end {
                    GameEnd::MoveLimit => Topic::MoveLimit,
                    GameEnd::AllStonesAlive => Topic::AfterEndOfGame,
                    _ => Topic::Scoring,
                };
                let scoring = self.go_rules().map(|r| r.scoring);
                let count = count_text(&score, scoring.unwrap_or(kifu_go::Scoring::Territory));
                let c = self.cite(topic);
                self.note_cited(format!("{how}: {count}"), c.clone());
                let neg = [&score.black, &score.white];
                for (i, cs) in neg.iter().enumerate() {
                    if cs.negative_territory > 0 {
                        let who = if i == 0 { "Black" } else { "White" };
                        self.note_on(
                            format!(
                                "{who} has {} point(s) of negative territory: the opponent's prisoners exceed {who}'s territory of {}",
                                cs.negative_territory, cs.territory
                            ),
                            Topic::NegativeTerritory,
                        );
                    }
                }
                let result = crate::convert::score_result(&score.result);
                // An equal count: the clause on jigo decides, and is cited.
                let c = if score.margin == 0 {
                    let j = self.cite(Topic::Jigo);
                    self.note_cited(
                        match score.result {
                            kifu_go::GameResult::White(_) => {
                                "the count is equal: White wins the jigo".to_string()
                            }
                            _ => "the count is equal: the game is a draw (jigo)".to_string(),
                        },
                        j.clone(),
                    );
                    j
                } else {
                    c
                };
                self.end_by_play(result, c);
            }
            (_, None) => {}
        }
    }

    /// Dead stones as one side marks them (the UEC Cup's programs display
    /// them; where they match, that is the result).
    pub(crate) fn dead_marked(&mut self, seq: u64, p: Color, dead: &[Point]) {
        let mut d = dead.to_vec();
        d.sort();
        self.dead_marks[idx(p)] = Some(d);
        let display = self
            .go_rules()
            .is_some_and(|r| r.resumption == Resumption::NotAllowed);
        if !display {
            self.note_on(
                format!(
                    "{} marks {} stone(s) dead; the players must agree on every group",
                    name(p),
                    dead.len()
                ),
                Topic::StatusAgreement,
            );
            return;
        }
        if let [Some(a), Some(b)] = &self.dead_marks {
            if a == b {
                let dead = a.clone();
                self.note_on(
                    "both sides display the same dead stones: this is used as the result",
                    Topic::StatusAgreement,
                );
                self.agree(seq, dead);
            } else {
                self.note_on(
                    "the dead stones displayed do not match: the referee corrects the mismatching parts under the witness of both operators",
                    Topic::StatusSettledByReferee,
                );
            }
            // The programs' counts, if already recorded, now weigh (a) 2, 3).
            self.weigh_programs_count();
        }
    }

    /// One signer's agreement on the status of every group.
    pub(crate) fn status_agreed(&mut self, seq: u64, dead: &[Point], roles: &[Role]) {
        let mut d = dead.to_vec();
        d.sort();
        if roles.contains(&Role::Referee) {
            let display = self
                .go_rules()
                .is_some_and(|r| r.resumption == Resumption::NotAllowed);
            self.note_on(
                "the referee settles the status of the groups",
                if display {
                    Topic::StatusSettledByReferee
                } else {
                    Topic::Referee
                },
            );
            self.agree(seq, d);
            return;
        }
        for (r, c) in [(Role::Black, Color::Black), (Role::White, Color::White)] {
            if roles.contains(&r) {
                self.status_agreements[idx(c)] = Some(d.clone());
            }
        }
        match &self.status_agreements {
            [Some(a), Some(b)] if a == b => {
                let dead = a.clone();
                self.agree(seq, dead);
            }
            [Some(_), Some(_)] => self.note_on(
                "the players name different dead stones: no agreement",
                Topic::StatusAgreement,
            ),
            _ => {}
        }
    }

    fn agree(&mut self, seq: u64, dead: Vec<Point>) {
        self.status_agreements = [None, None];
        let Some(b) = self.go() else { return };
        // UEC Cup e): at the move limit the referee counts; the dead stones he
        // settles replace the count with every stone alive.
        let scoring = b.ruleset().scoring;
        if let kifu_go::EndingPhase::Over(GameEnd::MoveLimit) = b.ending_phase() {
            let count = b.apply(Op::Counted {
                seq,
                dead: dead.clone(),
            });
            let Applied::Counted(score) = count else {
                return;
            };
            if let Some(d) = self.result.by_play.as_mut() {
                let counted = crate::convert::score_result(&score.result);
                d.result.outcome = counted.outcome;
                d.result.by = counted.by;
            }
            self.note_on(
                format!(
                    "the referee counts with {} dead stone(s): {}",
                    dead.len(),
                    count_text(&score, scoring)
                ),
                Topic::MoveLimit,
            );
            return;
        }
        match b.apply(Op::Agree { seq, dead }) {
            Applied::Ending(events) => self.ending_events(&events),
            Applied::Refused(why) => self.note_on(
                format!("agreement on status not applicable: {why}"),
                Topic::StatusAgreement,
            ),
            _ => {}
        }
    }

    pub(crate) fn status_disputed(&mut self, seq: u64, p: Color) {
        self.status_agreements = [None, None];
        let Some(b) = self.go() else { return };
        match b.apply(Op::Dispute { seq }) {
            Applied::Ending(events) => {
                self.note_on(
                    format!("{} disputes the status of a group", self.seat_name(p)),
                    Topic::Resumption,
                );
                self.ending_events(&events);
            }
            Applied::Refused(why) => {
                self.note_on(
                    format!("the dispute cannot resume play: {why}"),
                    Topic::Resumption,
                );
            }
            _ => {}
        }
    }
}

/// A count in words, each figure named: under territory counting, each
/// side's territory less the prisoners the opponent took, the surplus shown
/// as negative territory (LGC 2023: "the surplus is counted as negative
/// territory for your opponent"), komi and total; under area counting,
/// stones and territory.
pub(crate) fn count_text(score: &kifu_go::Score, scoring: kifu_go::Scoring) -> String {
    let side = |who: &str, c: &kifu_go::ColorScore, taken_by: &kifu_go::ColorScore| {
        let mut s = match scoring {
            kifu_go::Scoring::Territory => {
                let mut s = format!(
                    "{who}: territory {} less {} prisoner(s) taken by the opponent",
                    c.territory,
                    taken_by.prisoners()
                );
                if c.negative_territory > 0 {
                    s.push_str(&format!(" (negative territory {})", c.negative_territory));
                }
                s
            }
            kifu_go::Scoring::Area => {
                format!("{who}: stones {} and territory {}", c.stones, c.territory)
            }
        };
        if c.handicap_compensation > 0 {
            s.push_str(&format!(
                ", handicap compensation {}",
                c.handicap_compensation
            ));
        }
        if c.komi.0 != 0 {
            s.push_str(&format!(", komi {}", points_text(i64::from(c.komi.0))));
        }
        s.push_str(&format!(", total {}", points_text(i64::from(c.points))));
        s
    };
    format!(
        "{}; {}; {}",
        side("Black", &score.black, &score.white),
        side("White", &score.white, &score.black),
        score.result
    )
}

impl GameState {
    /// The count of a finished Go game, in words, each figure named
    /// (negative territory included); `None` before a count.
    pub fn count_text(&self) -> Option<String> {
        match &self.board {
            crate::state::BoardState::Go(b) => b
                .final_score
                .as_ref()
                .map(|s| count_text(s, b.ruleset().scoring)),
            _ => None,
        }
    }
}
