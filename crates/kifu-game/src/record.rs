//! The records the projection keeps: illegal moves, irregularities,
//! disputes, rulings, protests, appeals, the committee, sanctions and the
//! result.

use kifu_ledger::{
    Color, CommitteeVerdict, GameResult, IrregularityKind, Participant, PublicKey, Ruling,
    SanctionKind,
};
use serde::Serialize;

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "phase", deny_unknown_fields)]
pub enum Phase {
    /// Nothing has happened at the board yet.
    NotStarted,
    /// Moves are being played on the clock.
    Playing,
    /// Both clocks are stopped.
    Paused {
        /// Why.
        reason: String,
    },
    /// The players assess the status of groups (or count).
    StatusAssessment,
    /// Play has resumed after a status dispute.
    Resumption,
    /// The game is formally adjourned.
    Adjourned,
    /// A disputed Renju claim waits for the referee.
    AwaitingReferee,
    /// The game is over.
    Finished {
        /// How, in words.
        how: String,
    },
}

/// An illegal move that was pointed out, and what followed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct IllegalMoveNotice {
    /// The move.
    pub move_seq: u64,
    /// The notice.
    pub noticed_seq: u64,
    /// Who pointed it out.
    pub noticed_by: String,
    /// The offender.
    pub offender: Option<Color>,
    /// The rules broken, as the engine names them.
    pub violations: Vec<String>,
    /// Moves played after it before the notice.
    pub moves_after: u32,
    /// The remedy applied, in words.
    pub remedy: String,
    /// True while a rewind waits for both players' agreement (BGA).
    pub awaiting_agreement: bool,
}

/// An irregularity and its fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct IrregularityRecord {
    /// The event recording it.
    pub seq: u64,
    /// What went wrong.
    pub kind: IrregularityKind,
    /// The event it concerns.
    pub about_seq: Option<u64>,
    /// What the projection did, in words.
    pub outcome: String,
}

/// A dispute and where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Dispute {
    /// The event raising it (the matter's number).
    pub seq: u64,
    /// Who raised it.
    pub raised_by: Color,
    /// What about.
    pub matter: String,
    /// Whether the referee was called.
    pub referee_called: bool,
    /// The rulings on it, by event.
    pub rulings: Vec<u64>,
    /// Open, clarified, judged, or decided by the committee.
    pub status: DisputeStatus,
}

/// Where a dispute stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum DisputeStatus {
    /// Waiting for the referee.
    Open,
    /// The referee clarified the rules; no judgement, the matter ended.
    Clarified,
    /// The referee gave a judgement.
    Judged,
    /// The appeals committee decided; final.
    DecidedFinally,
}

/// A referee ruling and what it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RulingRecord {
    /// The event.
    pub seq: u64,
    /// The dispute it answers, if any.
    pub dispute_seq: Option<u64>,
    /// The ruling as recorded.
    pub ruling: Ruling,
    /// Whether its effects were applied.
    pub applied: bool,
    /// What it changed, or why it changed nothing.
    pub changes: Vec<String>,
}

/// A game declared played under protest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Protest {
    /// The event.
    pub seq: u64,
    /// Who protests.
    pub player: Color,
    /// What about.
    pub statement: String,
    /// The judgement that ordered play to resume, if any.
    pub after_ruling: Option<u64>,
}

/// Whether an appeal may be heard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Admissibility {
    /// It may be heard.
    Admissible,
    /// It is recorded but may not be heard.
    Inadmissible {
        /// Why.
        reason: String,
    },
    /// It depends on what the player writes on the result sheet.
    PendingResultSheet,
}

/// An appeal to the committee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Appeal {
    /// The event.
    pub seq: u64,
    /// Who appeals.
    pub player: Color,
    /// The ruling appealed.
    pub ruling_seq: u64,
    /// Why.
    pub grounds: String,
    /// Whether it may be heard.
    pub admissibility: Admissibility,
    /// Members' signatures on decisions, counted by key.
    pub votes: Vec<Vote>,
    /// The panel sitting on this appeal (while undecided: as it stands;
    /// once decided: as it sat).
    pub panel: Option<Panel>,
    /// The committee's final decision, once a majority signed it.
    pub decision: Option<CommitteeDecisionRecord>,
}

/// One committee member's signature on a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Vote {
    /// The event.
    pub seq: u64,
    /// The member's key (votes are counted by key).
    pub member: PublicKey,
    /// The member's name.
    pub name: String,
    /// What the member signed.
    pub verdict: CommitteeVerdict,
}

/// Why a committee member does not sit on a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum OutReason {
    /// A recusal was recorded.
    Recused,
    /// The member plays in the game in dispute (the record shows it).
    InvolvedByTheRecord,
}

impl std::fmt::Display for OutReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OutReason::Recused => "recused",
            OutReason::InvolvedByTheRecord => "involved in the dispute, by the record",
        })
    }
}

/// A member who does not sit on a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct OutMember {
    /// The member's name.
    pub name: String,
    /// The member's key.
    pub key: PublicKey,
    /// Why.
    pub reason: OutReason,
}

/// The panel on one appeal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Panel {
    /// Who sits, in order.
    pub sitting: Vec<Participant>,
    /// Members out, and why.
    pub out: Vec<OutMember>,
    /// Reserves (or co-opted players) seated in place of members.
    pub seated_reserves: Vec<Participant>,
    /// How many must sit.
    pub size: u32,
}

impl std::fmt::Display for Panel {
    /// `sitting: A, B, C; out: X (recused); reserves seated: D`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |ps: &[Participant]| {
            ps.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(f, "sitting: {}", names(&self.sitting))?;
        if (self.sitting.len() as u32) < self.size {
            write!(
                f,
                " ({} of {}: players to be co-opted)",
                self.sitting.len(),
                self.size
            )?;
        }
        if !self.out.is_empty() {
            let out: Vec<String> = self
                .out
                .iter()
                .map(|o| format!("{} ({})", o.name, o.reason))
                .collect();
            write!(f, "; out: {}", out.join(", "))?;
        }
        if !self.seated_reserves.is_empty() {
            write!(
                f,
                "; seated in their place: {}",
                names(&self.seated_reserves)
            )?;
        }
        Ok(())
    }
}

/// The committee's final decision on an appeal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CommitteeDecisionRecord {
    /// The event whose signature made the majority.
    pub seq: u64,
    /// What was decided.
    pub verdict: CommitteeVerdict,
    /// The members who signed it.
    pub signed_by: Vec<String>,
    /// Whether its effects were applied.
    pub applied: bool,
}

/// The appeals committee as the chain has made it so far: the ledger's
/// (`kifu_ledger::standing::Committee`), which its role checks read too.
pub use kifu_ledger::standing::Committee;

/// The panel for a case in a game between `players`: the `size` who sit
/// (the profile's number, by the ledger's one seating rule), who is out and
/// why, and the reserves seated.
pub fn panel(c: &Committee, players: &[PublicKey], size: usize) -> Panel {
    let sitting: Vec<Participant> = c.seated(players, size).into_iter().cloned().collect();
    let out = c
        .members
        .iter()
        .chain(c.reserves.iter())
        .chain(c.coopted.iter())
        .filter_map(|p| {
            let reason = if c.recused.contains(&p.key) {
                OutReason::Recused
            } else if players.contains(&p.key) {
                OutReason::InvolvedByTheRecord
            } else {
                return None;
            };
            Some(OutMember {
                name: p.name.clone(),
                key: p.key,
                reason,
            })
        })
        .fold(Vec::new(), |mut acc: Vec<OutMember>, m| {
            if !acc.iter().any(|o| o.key == m.key) {
                acc.push(m);
            }
            acc
        });
    let seated_reserves = sitting
        .iter()
        .filter(|p| !c.members.iter().any(|m| m.key == p.key))
        .cloned()
        .collect();
    Panel {
        sitting,
        out,
        seated_reserves,
        size: size as u32,
    }
}

/// A sanction on one player in this game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SanctionRecord {
    /// The event.
    pub seq: u64,
    /// On whom.
    pub player: Color,
    /// What.
    pub kind: SanctionKind,
    /// Why.
    pub reason: String,
    /// Imposed directly, by a ruling, by the committee, or by the rules
    /// themselves (a second warning).
    pub source: String,
}

/// A result that follows from the facts, with the rule behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Decided {
    /// The result.
    pub result: GameResult,
    /// The event that decided it.
    pub at_seq: u64,
    /// The rule.
    pub rule: String,
    /// The rule's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub quote: Option<String>,
}

/// A result declared or written on the result sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Statement {
    /// The event.
    pub seq: u64,
    /// Who signed it (name and role).
    pub signer: String,
    /// The player's seat, when a player signed.
    pub seat: Option<Color>,
    /// The signer's roles.
    pub roles: Vec<kifu_ledger::Role>,
    /// The result stated.
    pub result: GameResult,
    /// "Played under protest" beside a sheet signature.
    pub under_protest: bool,
    /// Whether it agrees with the result the rules give.
    pub matches: Option<bool>,
}

/// The result: what the rules give, beside what was declared and signed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ResultState {
    /// The end on the board or the clock (resignation, time, score, five,
    /// claim, repetition, illegal move, abnormal termination).
    pub by_play: Option<Decided>,
    /// A forfeit (sanction, two warnings, late arrival, disqualification).
    pub forfeit: Option<Decided>,
    /// Set by a referee's judgement or the committee.
    pub ruled: Option<Decided>,
    /// Results declared.
    pub declared: Vec<Statement>,
    /// Signatures on the result sheet.
    pub signatures: Vec<Statement>,
    /// Who still has to sign the sheet.
    pub missing_signatures: Vec<String>,
    /// Every disagreement, in words; never resolved silently.
    pub mismatches: Vec<String>,
    /// The programs' own counts (UEC Cup a) 2 and 3), when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "crate::agreed::ProgramsCount")]
    pub programs_count: Option<crate::agreed::ProgramsCount>,
}

impl ResultState {
    /// The result the rules give: a ruling or committee decision first, then
    /// a forfeit, then the end of play.
    pub fn computed(&self) -> Option<&Decided> {
        self.ruled
            .as_ref()
            .or(self.forfeit.as_ref())
            .or(self.by_play.as_ref())
    }

    /// The result both players signed: each seat's last result sheet,
    /// signed with that seat's own key, states the same result (the later
    /// of the two sheets is returned). A sheet signed by a recorder or the
    /// referee is no player's. The same rule as the ledger's signed result
    /// (`docs/FORMAT.md`, section 6).
    pub fn signed_by_both(&self) -> Option<&Statement> {
        let last = |c: Color| self.signatures.iter().rev().find(|s| s.seat == Some(c));
        let (b, w) = (last(Color::Black)?, last(Color::White)?);
        (b.result == w.result).then_some(if b.seq > w.seq { b } else { w })
    }
}

/// One recorded event, as the story tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct EventNote {
    /// Sequence number.
    pub seq: u64,
    /// Time stated by the signer.
    pub at_ms: u64,
    /// The kind.
    pub kind: String,
    /// Who signed it (name and roles).
    pub signer: String,
    /// What it says.
    pub summary: String,
}
