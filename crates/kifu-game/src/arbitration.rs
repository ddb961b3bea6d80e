//! Disputes, referee rulings and their effects, protests, appeals and the
//! appeals committee.

use kifu_ledger::{
    Color, CommitteeVerdict, Participant, PublicKey, Ruling, RulingEffect, RulingKind,
};

use crate::cite::{lgc, rif};
use crate::go::Op;
use crate::record::*;
use crate::state::{name, result_text, BoardState, GameState};

/// LGC 2023's arbitration section has no heading of its own; it is cited by
/// its opening words.
fn arbitration() -> String {
    lgc("The arbitration procedure used to resolve disputes")
}

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
        self.note(
            format!(
                "{} raises a dispute: {matter}; it goes to the referee in the first instance",
                name(p)
            ),
            arbitration(),
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
        self.note(
            format!("{} calls the referee, as soon as possible", name(p)),
            lgc("Player responsibility"),
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
            self.note(
                "both clocks are stopped while the referee is called",
                lgc("Management of time"),
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
                self.note(what, lgc("Appeals committee"));
                self.rulings.push(rec);
                return;
            }
        }
        let renju = self.profile.starts_with("rif") || self.profile.starts_with("gomoku");
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
                self.note(what, arbitration());
            }
            RulingKind::Judgement => {
                if ruling.decision.trim().is_empty()
                    || ruling.reasons.trim().is_empty()
                    || ruling.rules_cited.is_empty()
                {
                    self.note(
                        "the judgement lacks its decision, its reasons or the rules relied on: any decision must be explained in clear language and carefully justified",
                        arbitration(),
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
                let rule = if renju {
                    rif("Referees")
                } else {
                    self.doc_clause("Referee responsibilities")
                };
                self.note(
                    format!("the referee gives a judgement: {}", ruling.decision),
                    rule.clone(),
                );
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
        rule: String,
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
                    format!("{}'s clock adjusted by {delta_ms} ms", name(*player))
                }
                RulingEffect::Resume => "play resumes".to_string(),
                RulingEffect::Sanction(s) => {
                    self.sanction(seq, s, source);
                    format!("sanction: {:?} ({})", s.kind, s.reason)
                }
                RulingEffect::SetResult(r) => {
                    self.result.ruled = Some(Decided {
                        result: r.clone(),
                        at_seq: seq,
                        rule: rule.clone(),
                    });
                    format!("the result is set: {}", result_text(r))
                }
            };
            // A sanction notes itself, with its own clause.
            if !matches!(e, RulingEffect::Sanction(_)) {
                self.note(what.clone(), rule.clone());
            }
            changes.push(what);
        }
        changes
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
            Some(r) => format!("{} informs the referee and the opponent that the game resumed after the judgement at event {r} is played under protest; the right to appeal is kept only if stated again when signing the result sheet", name(p)),
            None => format!("{} declares the game played under protest, but no judgement has ordered it to resume", name(p)),
        };
        self.note(what, lgc("Player responsibility"));
    }

    pub(crate) fn appeal(&mut self, seq: u64, p: Color, ruling_seq: u64, grounds: &str) {
        self.appeals.push(Appeal {
            seq,
            player: p,
            ruling_seq,
            grounds: grounds.to_string(),
            admissibility: Admissibility::PendingResultSheet,
            votes: Vec::new(),
            decision: None,
        });
        self.refresh_appeals();
        let adm = self
            .appeals
            .last()
            .map(|a| a.admissibility.clone())
            .unwrap_or(Admissibility::PendingResultSheet);
        let what = match &adm {
            Admissibility::Admissible => format!("{} appeals the ruling at event {ruling_seq}: admissible", name(p)),
            Admissibility::Inadmissible { reason } => format!(
                "{} appeals the ruling at event {ruling_seq}: recorded, but inadmissible ({reason})",
                name(p)
            ),
            Admissibility::PendingResultSheet => format!(
                "{} appeals the ruling at event {ruling_seq}: admissible only if the protest is stated on the result sheet",
                name(p)
            ),
        };
        let rule = if self.profile.starts_with("rif") || self.profile.starts_with("gomoku") {
            rif("Referees")
        } else {
            lgc("Player responsibility")
        };
        self.note(what, rule);
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
        if self.profile.starts_with("rif") || self.profile.starts_with("gomoku") {
            return inadmissible("RIF: all the referee's decisions are final".into());
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
        if members.len() != 3 {
            self.note(
                format!(
                    "the committee is formed of {} persons, not three",
                    members.len()
                ),
                lgc("Appeals committee"),
            );
        }
        if before_round > 1 {
            self.note(
                format!("the committee was formed before round {before_round}, not before the start of the first round"),
                lgc("Appeals committee"),
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
        self.note(
            format!(
                "appeals committee: {} member(s), {} reserve(s)",
                members.len(),
                reserves.len()
            ),
            lgc("Appeals committee"),
        );
        for n in involved {
            self.note(
                format!("{n} plays in this game and must not take part in resolving its dispute: a reserve sits instead"),
                lgc("The arbitration procedure used to resolve disputes"),
            );
        }
        self.check_committee_size();
    }

    fn check_committee_size(&mut self) {
        let players = self.player_keys();
        let Some(c) = &self.committee else { return };
        let n = c.sitting(&players).len();
        if n < 3 {
            self.note(
                format!("only {n} can sit: other players must be co-opted to make up three"),
                lgc("Appeals committee"),
            );
        }
    }

    pub(crate) fn member_recused(&mut self, member: PublicKey, reason: &str) {
        let who = self.member_name(&member);
        let Some(c) = self.committee.as_mut() else {
            self.note(
                "no appeals committee has been formed",
                lgc("Appeals committee"),
            );
            return;
        };
        if !c.recused.contains(&member) {
            c.recused.push(member);
        }
        self.note(
            format!("{who} is recused ({reason})"),
            lgc("The arbitration procedure used to resolve disputes"),
        );
        self.check_committee_size();
    }

    pub(crate) fn member_coopted(&mut self, member: &Participant) {
        let Some(c) = self.committee.as_mut() else {
            self.note(
                "no appeals committee has been formed",
                lgc("Appeals committee"),
            );
            return;
        };
        c.coopted.push(member.clone());
        self.note(
            format!("{} is co-opted to the committee", member.name),
            lgc("Appeals committee"),
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

    pub(crate) fn committee_decision(
        &mut self,
        seq: u64,
        appeal_seq: u64,
        verdict: &CommitteeVerdict,
        signer: &PublicKey,
    ) {
        let rule = lgc("Appeals committee");
        let players = self.player_keys();
        let Some(c) = &self.committee else {
            self.note(
                "no appeals committee has been formed: the decision does not count",
                rule,
            );
            return;
        };
        let sitting: Vec<PublicKey> = c.sitting(&players).iter().map(|p| p.key).collect();
        let who = self.member_name(signer);
        if !sitting.contains(signer) {
            self.note(
                format!("{who} does not sit on this case (not a member, recused, or involved): the signature does not count"),
                rule,
            );
            return;
        }
        let Some(i) = self.appeals.iter().position(|a| a.seq == appeal_seq) else {
            self.note(format!("no appeal at event {appeal_seq}"), rule);
            return;
        };
        if let Some(d) = &self.appeals[i].decision {
            self.note(
                format!(
                    "no effect: the committee's decision (event {}) is final",
                    d.seq
                ),
                rule,
            );
            return;
        }
        let appeal = &mut self.appeals[i];
        if !appeal.votes.iter().any(|(_, n, _)| n == &who) {
            appeal.votes.push((seq, who.clone(), verdict.clone()));
        }
        let signed_by: Vec<String> = appeal
            .votes
            .iter()
            .filter(|(_, _, v)| v == verdict)
            .map(|(_, n, _)| n.clone())
            .collect();
        if signed_by.len() < 2 {
            self.note(
                format!("{who} signs a decision; a majority of the three must sign it"),
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
            self.note(
                format!("the committee's decision is recorded but not applied: the appeal is inadmissible ({reason})"),
                lgc("Player responsibility"),
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
            CommitteeVerdict::Rejected => self.note(
                format!("the committee ({signers}) rejects the case: the referee's judgement stands; the decision is final"),
                lgc("The arbitration procedure used to resolve disputes"),
            ),
            CommitteeVerdict::Upheld => self.note(
                format!("the committee ({signers}) upholds the referee's judgement; the decision is final"),
                rule,
            ),
            CommitteeVerdict::Replaced(effects) => {
                self.note(
                    format!("the committee ({signers}) replaces the referee's judgement; the decision is final"),
                    rule.clone(),
                );
                self.apply_effects(effects, "appeals committee", rule);
            }
        }
    }
}
