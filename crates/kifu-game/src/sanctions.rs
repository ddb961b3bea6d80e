//! Sanctions in one game, and the history of each player's sanctions
//! across games.

use kifu_ledger::{Color, PublicKey, Sanction, SanctionKind, SanctionTarget};
use serde::Serialize;

use kifu_go::Topic;

use crate::record::SanctionRecord;
use crate::state::{name, GameState};

impl GameState {
    /// Warnings given to `c` in this game so far.
    pub fn warnings(&self, c: Color) -> usize {
        self.sanctions
            .iter()
            .filter(|s| s.player == c && s.kind == SanctionKind::Warning)
            .count()
    }

    pub(crate) fn sanction(&mut self, seq: u64, s: &Sanction, source: &str) {
        let targets = match s.target {
            SanctionTarget::Player(c) => vec![c],
            SanctionTarget::Both => vec![Color::Black, Color::White],
        };
        for c in targets {
            self.sanctions.push(SanctionRecord {
                seq,
                player: c,
                kind: s.kind.clone(),
                reason: s.reason.clone(),
                source: source.to_string(),
            });
            let who = name(c);
            match &s.kind {
                SanctionKind::Advice => self.note_on(
                    format!(
                        "advice to {who}: {}; thereafter it must be respected",
                        s.reason
                    ),
                    Topic::Advice,
                ),
                SanctionKind::Warning => {
                    let n = self.warnings(c);
                    self.note_on(
                        format!("warning to {who} ({n} in this game)"),
                        Topic::Warning,
                    );
                    // LGC 2023, "Warning": "If a player receives two warnings
                    // in the same game, then the referee imposes the game
                    // forfeit sanction."
                    if self.conduct.warnings_to_forfeit == Some(n as u32) {
                        self.sanctions.push(SanctionRecord {
                            seq,
                            player: c,
                            kind: SanctionKind::GameForfeit,
                            reason: "second warning in the same game".into(),
                            source: "the rules (two warnings)".into(),
                        });
                        let cw = self.cite(Topic::Warning);
                        self.forfeit(c, "second warning in the same game", cw);
                    }
                }
                SanctionKind::GameForfeit => {
                    let cf = self.cite(Topic::GameForfeit);
                    self.forfeit(c, &s.reason, cf)
                }
                SanctionKind::TimeModified { delta_ms } => {
                    let at_ms = self.at_ms.unwrap_or(0);
                    self.clock_event(kifu_clock::ClockEvent::Adjusted {
                        at_ms,
                        player: crate::state::player(c),
                        delta_ms: *delta_ms,
                        reason: s.reason.clone(),
                    });
                    self.note_on(
                        format!(
                            "{who}'s time limit modified by {}",
                            crate::words::signed_duration(*delta_ms)
                        ),
                        Topic::OtherSanctions,
                    );
                }
                SanctionKind::RemovedFromRounds { rounds } => self.note_on(
                    format!(
                        "{who} is removed from {}",
                        crate::words::rounds_text(rounds)
                    ),
                    Topic::OtherSanctions,
                ),
                SanctionKind::RemovedFromTournament => self.note_on(
                    format!("{who} is removed from the tournament"),
                    Topic::OtherSanctions,
                ),
                SanctionKind::Debarment => self.note_on(
                    format!("{who} is debarred from a supergroup in a future tournament"),
                    Topic::Hindrance,
                ),
                SanctionKind::Disqualification => {
                    let rule = self.cite(Topic::Cheating);
                    self.forfeit(c, "disqualified", rule);
                }
            }
        }
    }
}

/// One sanction in a player's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct HistoryEntry {
    /// The game, by its title.
    pub game: String,
    /// The game's round; null for a game outside a tournament.
    pub round: Option<u32>,
    /// The event in that game.
    pub seq: u64,
    /// What.
    pub kind: SanctionKind,
    /// Why.
    pub reason: String,
    /// Imposed, by ruling, by the committee, or by the rules.
    pub source: String,
}

/// A player's sanctions across games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlayerHistory {
    /// The player's key.
    pub key: PublicKey,
    /// The player's name.
    pub name: String,
    /// Every sanction, games in round order.
    pub entries: Vec<HistoryEntry>,
    /// Games in later rounds lost to a disqualification in an earlier
    /// round, by their titles (UEC Cup, "j) Cheating": "disqualified from
    /// all the following games").
    pub lost_to_disqualification: Vec<String>,
}

/// Every player's sanctions across the games (`kifu sanctions --json`),
/// games in round order, with the games a disqualification loses: what
/// [`sanction_history`] gives, as one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct SanctionHistory(pub Vec<PlayerHistory>);

/// The sanction history of every player across `games`, a projection over
/// several games' states. Games are taken in round order (games outside a
/// tournament last, in the order given).
pub fn sanction_history(games: &[GameState]) -> Vec<PlayerHistory> {
    let round = |g: &GameState| {
        g.genesis
            .as_ref()
            .and_then(|x| x.tournament.as_ref())
            .map(|t| t.round)
    };
    let title = |g: &GameState| {
        g.genesis
            .as_ref()
            .map(|x| x.title.clone())
            .unwrap_or_default()
    };
    let mut order: Vec<&GameState> = games.iter().collect();
    order.sort_by_key(|g| round(g).unwrap_or(u32::MAX));
    let mut out: Vec<PlayerHistory> = Vec::new();
    let mut disqualified: Vec<(PublicKey, u32)> = Vec::new();
    for g in &order {
        for c in [Color::Black, Color::White] {
            let Some(p) = g.player_participant(c) else {
                continue;
            };
            let pos = match out.iter().position(|h| h.key == p.key) {
                Some(i) => i,
                None => {
                    out.push(PlayerHistory {
                        key: p.key,
                        name: p.name.clone(),
                        entries: Vec::new(),
                        lost_to_disqualification: Vec::new(),
                    });
                    out.len() - 1
                }
            };
            if let (Some(r), Some((_, from))) =
                (round(g), disqualified.iter().find(|(k, _)| *k == p.key))
            {
                if r > *from {
                    out[pos].lost_to_disqualification.push(title(g));
                }
            }
            for s in g.sanctions.iter().filter(|s| s.player == c) {
                out[pos].entries.push(HistoryEntry {
                    game: title(g),
                    round: round(g),
                    seq: s.seq,
                    kind: s.kind.clone(),
                    reason: s.reason.clone(),
                    source: s.source.clone(),
                });
                if s.kind == SanctionKind::Disqualification {
                    if let Some(r) = round(g) {
                        disqualified.push((p.key, r));
                    }
                }
            }
        }
    }
    out
}
