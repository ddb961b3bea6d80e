//! Disputes, referee rulings and their effects, protests, appeals and the
//! appeals committee.

use kifu_ledger::{
    Color, CommitteeVerdict, Participant, PublicKey, Ruling, RulingEffect, RulingKind,
};

use kifu_go::{Appeals, Topic};

use crate::go::Op;
use crate::record::*;
use crate::state::{name, result_text, BoardState, GameState};

impl GameState {
    pub(crate) fn dispute_raised(&mut self, seq: u64, p: Color, matter: &str) {
        self.disputes.push(Dispute {
            seq,
            raised_by: p,
            matter: matter.to_string(),
            referee_called: false,
            rulings: Vec::new(),
            status: DisputeStatus::Open,
        });
        if let BoardState::Renju(r) = &mut self.board {
            // A dispute about the last decided claim goes to the referee.
            let _ = r.apply(
                seq,
                kifu_renju::GameInput::Dispute {
                    by: crate::renju::player_id(p),
                },
            );
        }
        self.note_on(
            format!(
                "{} raises a dispute: {matter}; it goes to the referee in the first instance",
                name(p)
            ),
            Topic::Dispute,
        );
    }

    pub(crate) fn referee_called(&mut self, seq: u64, p: Color) {
        match self.disputes.last_mut() {
            Some(d) if d.status == DisputeStatus::Open => d.referee_called = true,
            _ => self.disputes.push(Dispute {
                seq,
                raised_by: p,
                matter: "referee called".into(),
                referee_called: true,
                rulings: Vec::new(),
                status: DisputeStatus::Open,
            }),
        }
        self.note_on(
            format!(
                "{} calls the referee, as soon as possible",
                self.seat_name(p)
            ),
            Topic::CallReferee,
        );
        // LGC 2023, "Management of time", pause reason 10: the clocks stop
        // while the referee is called.
        let running = self.clock.clock.as_ref().is_some_and(|c| c.is_running());
        if running && !self.is_over() {
            let at_ms = self.at_ms.unwrap_or(0);
            self.clock_event(kifu_clock::ClockEvent::Paused {
                at_ms,
                reason: kifu_clock::PauseReason::CallReferee,
            });
            self.note_on(
                "both clocks are stopped while the referee is called",
                Topic::RefereePause,
            );
        }
    }

    pub(crate) fn referee_ruling(&mut self, seq: u64, ruling: &Ruling) {
        let dispute = self.disputes.len().checked_sub(1);
        let mut rec = RulingRecord {
            seq,
            dispute_seq: dispute.map(|i| self.disputes[i].seq),
            ruling: ruling.clone(),
            applied: false,
            changes: Vec::new(),
        };
        if let Some(i) = dispute {
            self.disputes[i].rulings.push(seq);
            if self.disputes[i].status == DisputeStatus::DecidedFinally {
                let what = format!(
                    "no effect: the appeals committee's decision on this matter (dispute at event {}) is final",
                    self.disputes[i].seq
                );
                rec.changes.push(what.clone());
                self.note_on(what, Topic::CommitteeFinal);
                self.rulings.push(rec);
                return;
            }
        }
        match ruling.kind {
            RulingKind::Clarification => {
                if let Some(i) = dispute {
                    if self.disputes[i].status == DisputeStatus::Open {
                        self.disputes[i].status = DisputeStatus::Clarified;
                    }
                }
                let ignored = ruling
                    .effects
                    .iter()
                    .filter(|e| !matches!(e, RulingEffect::Resume))
                    .count();
                let what = if ignored > 0 {
                    format!("the referee clarifies the rules: no judgement is made and the matter is ended; {ignored} effect(s) of a clarification are not applied")
                } else {
                    "the referee clarifies the rules: no judgement is made and the matter is ended"
                        .into()
                };
                rec.changes.push(what.clone());
                self.note_on(what, Topic::Clarification);
            }
            RulingKind::Judgement => {
                if ruling.decision.trim().is_empty()
                    || ruling.reasons.trim().is_empty()
                    || ruling.rules_cited.is_empty()
                {
                    self.note_on(
                        "the judgement lacks its decision, its reasons or the rules relied on: any decision must be explained in clear language and carefully justified",
                        Topic::Judgement,
                    );
                }
                if let Some(i) = dispute {
                    self.disputes[i].status = DisputeStatus::Judged;
                }
                if let BoardState::Renju(r) = &mut self.board {
                    if r.awaiting_referee() {
                        let upheld = ruling
                            .effects
                            .iter()
                            .any(|e| matches!(e, RulingEffect::SetResult(_)));
                        let _ = r.apply(seq, kifu_renju::GameInput::RefereeRuling { upheld });
                    }
                }
                let rule = self.cite(Topic::Referee);
                self.note_cited(
                    format!("the referee gives a judgement: {}", ruling.decision),
                    rule.clone(),
                );
                // The clauses the referee relies on, quoted from the rule
                // documents where they are found there.
                for name in &ruling.rules_cited {
                    if let Some(c) = crate::cite::cited_by_name(name) {
                        self.note_cited(format!("the referee relies on {name}"), c);
                    }
                }
                rec.changes = self.apply_effects(&ruling.effects, "referee's judgement", rule);
                rec.applied = true;
            }
        }
        self.rulings.push(rec);
    }

    /// Applies a judgement's (or the committee's) effects; returns what changed.
    pub(crate) fn apply_effects(
        &mut self,
        effects: &[RulingEffect],
        source: &str,
        rule: crate::cite::Cited,
    ) -> Vec<String> {
        let seq = self.at_seq.unwrap_or(0);
        let mut changes = Vec::new();
        for e in effects {
            let what = match e {
                RulingEffect::UnwindTo { seq: to } => match &mut self.board {
                    BoardState::Go(b) => {
                        let keep: Vec<Op> =
                            b.ops().iter().filter(|o| o.seq() <= *to).cloned().collect();
                        let dropped = b.ops().len() - keep.len();
                        b.rebuild(keep);
                        format!("the game is unwound to the position after event {to} ({dropped} operation(s) taken back)")
                    }
                    BoardState::Renju(r) => {
                        let n = r.unwind_to(*to);
                        format!("the game is unwound to the position after event {to} ({n} input(s) taken back)")
                    }
                    BoardState::None => format!("unwinding to event {to}: there is no board"),
                },
                RulingEffect::AdjustClock { player, delta_ms } => {
                    let at_ms = self.at_ms.unwrap_or(0);
                    self.clock_event(kifu_clock::ClockEvent::Adjusted {
                        at_ms,
                        player: crate::state::player(*player),
                        delta_ms: *delta_ms,
                        reason: source.to_string(),
                    });
                    format!(
                        "{}'s clock adjusted by {}",
                        name(*player),
                        crate::words::signed_duration(*delta_ms)
                    )
                }
                RulingEffect::Resume => self.resume_play(effects),
                RulingEffect::Sanction(s) => {
                    self.sanction(seq, s, source);
                    format!(
                        "sanction: {} ({})",
                        crate::words::sanction(&s.kind),
                        s.reason
                    )
                }
                RulingEffect::SetResult(r) => {
                    self.result.ruled = Some(Decided {
                        result: r.clone(),
                        at_seq: seq,
                        rule: rule.rule.clone(),
                        quote: rule.quote.clone(),
                    });
                    format!("the result is set: {}", result_text(r))
                }
            };
            // A sanction notes itself, with its own clause.
            if !matches!(e, RulingEffect::Sanction(_)) {
                self.note_cited(what.clone(), rule.clone());
            }
            changes.push(what);
        }
        changes
    }

    /// A judgement's "play resumes": the clocks stopped for the referee run
    /// again (LGC 2023, "Player responsibility": "If the referee decides
    /// that the game in dispute should resume"). The clock that ran before
    /// the pause runs on with the turn it interrupted; where the same
    /// judgement unwound the game, the clock of the player the position
    /// gives the move to runs instead.
    fn resume_play(&mut self, effects: &[RulingEffect]) -> String {
        let Some(clock) = self.clock.clock.as_ref() else {
            return "play resumes".into();
        };
        if clock.pause_reason().is_none() || self.is_over() {
            return "play resumes".into();
        }
        let unwound = effects
            .iter()
            .any(|e| matches!(e, RulingEffect::UnwindTo { .. }));
        let board_to_move = match &self.board {
            BoardState::Go(b) => Some(b.to_move()),
            BoardState::Renju(r) => r.to_move(),
            BoardState::None => None,
        };
        let running = if unwound {
            board_to_move.map(crate::state::player)
        } else {
            None
        };
        let at_ms = self.at_ms.unwrap_or(0);
        self.clock_event(kifu_clock::ClockEvent::Resumed { at_ms, running });
        match self.clock.clock.as_ref() {
            Some(c) if c.is_running() => format!(
                "play resumes: the clocks run again, {}'s running",
                name(crate::state::colour_of(c.to_move()))
            ),
            _ => "play resumes".into(),
        }
    }

    pub(crate) fn protest(&mut self, seq: u64, p: Color, statement: &str) {
        let after_ruling = self
            .rulings
            .iter()
            .rev()
            .find(|r| {
                r.applied
                    && r.ruling.kind == RulingKind::Judgement
                    && r.ruling.effects.contains(&RulingEffect::Resume)
            })
            .map(|r| r.seq);
        self.protests.push(Protest {
            seq,
            player: p,
            statement: statement.to_string(),
            after_ruling,
        });
        let what = match after_ruling {
            Some(r) => format!("{} informs the referee and the opponent that the game resumed after the judgement at event {r} is played under protest; the right to appeal is kept only if stated again when signing the result sheet", self.seat_name(p)),
            None => format!("{} declares the game played under protest, but no judgement has ordered it to resume", self.seat_name(p)),
        };
        self.note_on(what, Topic::Protest);
    }

    pub(crate) fn appeal(&mut self, seq: u64, p: Color, ruling_seq: u64, grounds: &str) {
        self.appeals.push(Appeal {
            seq,
            player: p,
            ruling_seq,
            grounds: grounds.to_string(),
            admissibility: Admissibility::PendingResultSheet,
            votes: Vec::new(),
            panel: None,
            decision: None,
        });
        self.refresh_appeals();
        let adm = self
            .appeals
            .last()
            .map(|a| a.admissibility.clone())
            .unwrap_or(Admissibility::PendingResultSheet);
        let what = match &adm {
            Admissibility::Admissible => format!("{} appeals the ruling at event {ruling_seq}: admissible", self.seat_name(p)),
            Admissibility::Inadmissible { reason } => format!(
                "{} appeals the ruling at event {ruling_seq}: recorded, but inadmissible ({reason})",
                self.seat_name(p)
            ),
            Admissibility::PendingResultSheet => format!(
                "{} appeals the ruling at event {ruling_seq}: admissible only if the protest is stated on the result sheet",
                self.seat_name(p)
            ),
        };
        let topic = match self.conduct.appeals {
            Appeals::RefereeFinal => Topic::RefereeFinal,
            Appeals::Committee { .. } => Topic::ProtestOnSheet,
        };
        self.note_on(what, topic);
    }

    /// Whether each appeal may be heard, from the facts so far.
    pub(crate) fn refresh_appeals(&mut self) {
        let mut out = Vec::new();
        for a in &self.appeals {
            out.push(self.admissibility(a));
        }
        for (a, adm) in self.appeals.iter_mut().zip(out) {
            a.admissibility = adm;
        }
    }

    fn admissibility(&self, a: &Appeal) -> Admissibility {
        let inadmissible = |reason: String| Admissibility::Inadmissible { reason };
        if self.conduct.appeals == Appeals::RefereeFinal {
            return inadmissible(
                "the tournament rules make the referee's decisions final: no appeal is heard"
                    .into(),
            );
        }
        let Some(r) = self.rulings.iter().find(|r| r.seq == a.ruling_seq) else {
            return inadmissible(format!("no referee ruling at event {}", a.ruling_seq));
        };
        if r.ruling.kind == RulingKind::Clarification {
            return inadmissible(
                "the referee only clarified the rules; no judgement was made and the matter ended"
                    .into(),
            );
        }
        if !r.ruling.effects.contains(&RulingEffect::Resume) {
            return Admissibility::Admissible;
        }
        // LGC 2023, "Player responsibility": the game resumed after the
        // judgement, so the right to appeal needs the protest, declared and
        // stated on the result sheet.
        let protested = self
            .protests
            .iter()
            .any(|p| p.player == a.player && p.seq > a.ruling_seq);
        if !protested {
            return inadmissible(format!(
                "the game resumed after the judgement and {} did not declare it played under protest",
                name(a.player)
            ));
        }
        match self
            .result
            .signatures
            .iter()
            .rev()
            .find(|s| s.seat == Some(a.player))
        {
            None => Admissibility::PendingResultSheet,
            Some(s) if s.under_protest => Admissibility::Admissible,
            Some(_) => inadmissible(format!(
                "{} did not state the protest when signing the result sheet",
                name(a.player)
            )),
        }
    }

    pub(crate) fn committee_formed(
        &mut self,
        seq: u64,
        members: &[Participant],
        reserves: &[Participant],
        before_round: u32,
    ) {
        let size = self.committee_size();
        if members.len() != size {
            self.note_on(
                format!(
                    "the committee is formed of {} persons, not {}",
                    members.len(),
                    crate::words::number(size)
                ),
                Topic::Committee,
            );
        }
        if before_round > 1 {
            self.note_on(
                format!("the committee was formed before round {before_round}, not before the start of the first round"),
                Topic::Committee,
            );
        }
        self.committee = Some(Committee {
            formed_seq: seq,
            members: members.to_vec(),
            reserves: reserves.to_vec(),
            coopted: Vec::new(),
            recused: Vec::new(),
        });
        let players = self.player_keys();
        let involved: Vec<String> = members
            .iter()
            .filter(|m| players.contains(&m.key))
            .map(|m| m.name.clone())
            .collect();
        self.note_on(
            format!(
                "appeals committee: {} member(s), {} reserve(s)",
                members.len(),
                reserves.len()
            ),
            Topic::Committee,
        );
        for n in involved {
            self.note_on(
                format!("{n} plays in this game and must not take part in resolving its dispute: a reserve sits instead"),
                Topic::InvolvedMember,
            );
        }
        self.check_committee_size();
    }

    /// Members sitting on a case, by the tournament rules.
    fn committee_size(&self) -> usize {
        match self.conduct.appeals {
            Appeals::Committee { members } => members as usize,
            Appeals::RefereeFinal => kifu_ledger::standing::COMMITTEE_SEATS,
        }
    }

    fn check_committee_size(&mut self) {
        let players = self.player_keys();
        let size = self.committee_size();
        let Some(c) = &self.committee else { return };
        let n = c.seated(&players, size).len();
        if n < size {
            self.note_on(
                format!(
                    "only {n} can sit: other players must be co-opted to make up {}",
                    crate::words::number(size)
                ),
                Topic::CommitteeCooption,
            );
        }
    }

    pub(crate) fn member_recused(&mut self, member: PublicKey, reason: &str) {
        let who = self.member_name(&member);
        let Some(c) = self.committee.as_mut() else {
            self.note_on("no appeals committee has been formed", Topic::Committee);
            return;
        };
        if !c.recused.contains(&member) {
            c.recused.push(member);
        }
        self.note_on(
            format!("{who} is recused ({reason})"),
            Topic::InvolvedMember,
        );
        self.check_committee_size();
    }

    pub(crate) fn member_coopted(&mut self, member: &Participant) {
        let Some(c) = self.committee.as_mut() else {
            self.note_on("no appeals committee has been formed", Topic::Committee);
            return;
        };
        c.coopted.push(member.clone());
        self.note_on(
            format!("{} is co-opted to the committee", member.name),
            Topic::CommitteeCooption,
        );
    }

    fn member_name(&self, key: &PublicKey) -> String {
        self.committee
            .as_ref()
            .and_then(|c| {
                c.members
                    .iter()
                    .chain(c.reserves.iter())
                    .chain(c.coopted.iter())
                    .find(|p| &p.key == key)
                    .map(|p| p.name.clone())
            })
            .unwrap_or_else(|| self.signer_name(key))
    }

    /// The panel on each appeal: who sits, who is out and why, which
    /// reserves or co-opted players are seated (LGC 2023, "Appeals
    /// committee"; "If a dispute involves a player who is also a member of
    /// the appeals committee, then that player must not participate").
    pub(crate) fn refresh_panels(&mut self) {
        let players = self.player_keys();
        let size = self.committee_size();
        let panel = self
            .committee
            .as_ref()
            .map(|c| crate::record::panel(c, &players, size));
        for a in &mut self.appeals {
            if a.decision.is_none() {
                a.panel = panel.clone();
            }
        }
    }

    pub(crate) fn committee_decision(
        &mut self,
        seq: u64,
        appeal_seq: u64,
        verdict: &CommitteeVerdict,
        signer: &PublicKey,
    ) {
        let rule = Topic::Committee;
        let players = self.player_keys();
        let size = self.committee_size();
        let Some(c) = &self.committee else {
            self.note_on(
                "no appeals committee has been formed: the decision does not count",
                rule,
            );
            return;
        };
        let sitting: Vec<PublicKey> = c.seated(&players, size).iter().map(|p| p.key).collect();
        let who = self.member_name(signer);
        if !sitting.contains(signer) {
            let (why, topic) = if c.recused.contains(signer) {
                ("is recused from this case", Topic::InvolvedMember)
            } else if players.contains(signer) {
                (
                    "plays in the game in dispute and must not take part in its resolution",
                    Topic::InvolvedMember,
                )
            } else {
                (
                    "does not sit on this case (not a member, or a reserve not seated)",
                    rule,
                )
            };
            self.note_on(format!("{who} {why}: the signature does not count"), topic);
            return;
        }
        let Some(i) = self.appeals.iter().position(|a| a.seq == appeal_seq) else {
            self.note_on(format!("no appeal at event {appeal_seq}"), rule);
            return;
        };
        if let Some(d) = &self.appeals[i].decision {
            self.note_on(
                format!(
                    "no effect: the committee's decision (event {}) is final",
                    d.seq
                ),
                Topic::CommitteeFinal,
            );
            return;
        }
        let appeal = &mut self.appeals[i];
        // Votes are counted by the member's key: two members may share a
        // name.
        if !appeal.votes.iter().any(|v| &v.member == signer) {
            appeal.votes.push(Vote {
                seq,
                member: *signer,
                name: who.clone(),
                verdict: verdict.clone(),
            });
        }
        let signed_by: Vec<String> = appeal
            .votes
            .iter()
            .filter(|v| &v.verdict == verdict && sitting.contains(&v.member))
            .map(|v| v.name.clone())
            .collect();
        let majority = size / 2 + 1;
        if signed_by.len() < majority {
            self.note_on(
                format!(
                    "{who} signs a decision; a majority of the {} must sign it",
                    crate::words::number(size)
                ),
                rule,
            );
            return;
        }
        let admissibility = self.appeals[i].admissibility.clone();
        let ruling_seq = self.appeals[i].ruling_seq;
        let applied = !matches!(admissibility, Admissibility::Inadmissible { .. });
        self.appeals[i].decision = Some(CommitteeDecisionRecord {
            seq,
            verdict: verdict.clone(),
            signed_by: signed_by.clone(),
            applied,
        });
        if let Admissibility::Inadmissible { reason } = admissibility {
            self.note_on(
                format!("the committee's decision is recorded but not applied: the appeal is inadmissible ({reason})"),
                Topic::ProtestOnSheet,
            );
            return;
        }
        // The matter is settled for good.
        let dispute_seq = self
            .rulings
            .iter()
            .find(|r| r.seq == ruling_seq)
            .and_then(|r| r.dispute_seq);
        if let Some(d) = self
            .disputes
            .iter_mut()
            .find(|d| Some(d.seq) == dispute_seq)
        {
            d.status = DisputeStatus::DecidedFinally;
        }
        let signers = signed_by.join(", ");
        match verdict {
            CommitteeVerdict::Rejected => self.note_on(
                format!("the committee ({signers}) rejects the case: the referee's judgement stands; the decision is final"),
                Topic::CommitteeRejects,
            ),
            CommitteeVerdict::Upheld => self.note_on(
                format!("the committee ({signers}) upholds the referee's judgement; the decision is final"),
                Topic::CommitteeFinal,
            ),
            CommitteeVerdict::Replaced(effects) => {
                self.note_on(
                    format!("the committee ({signers}) replaces the referee's judgement; the decision is final"),
                    Topic::CommitteeFinal,
                );
                let c = self.cite(Topic::CommitteeFinal);
                self.apply_effects(effects, "appeals committee", c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use kifu_go::conduct::Appeals;
    use kifu_ledger::standing::{seat, COMMITTEE_SEATS};
    use kifu_ledger::{Participant, Role};

    #[test]
    fn every_profiles_committee_seats_as_many_as_the_chain_lets_sign() {
        for name in kifu_go::PROFILE_NAMES {
            let r = kifu_go::Ruleset::by_name(name).unwrap();
            if let Appeals::Committee { members } = r.conduct.appeals {
                assert_eq!(members as usize, COMMITTEE_SEATS, "{name}");
            }
        }
    }

    #[test]
    fn the_seating_skips_the_recused_and_the_players_and_calls_reserves_in_order() {
        let p = |b: u8| Participant {
            role: Role::Committee,
            name: format!("m{b}"),
            key: kifu_ledger::Keypair::from_seed([b; 32]).public(),
        };
        let (m1, m2, m3, r1, r2) = (p(1), p(2), p(3), p(4), p(5));
        let called = [&m1, &m2, &m3, &r1, &r2, &m2];
        let sitting = seat(called, &[m2.key], &[m3.key], 3);
        assert_eq!(
            sitting.iter().map(|q| q.name.as_str()).collect::<Vec<_>>(),
            ["m1", "m4", "m5"]
        );
        assert_eq!(seat(called, &[], &[], 2).len(), 2);
    }
}
