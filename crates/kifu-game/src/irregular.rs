//! Irregularities and their fixes (BGA, "Irregular Moves"; LGC 2023's
//! irregularities: colour or handicap error, ambiguous stone placement,
//! position disturbance).

use kifu_go::{ColourOrHandicapErrorAction as Action, Topic};
use kifu_ledger::{BoardFix, Color, IrregularityKind};

use crate::go::{Applied, Op};
use crate::record::IrregularityRecord;
use crate::state::{BoardState, GameState};

fn fixed(a: &Applied) -> String {
    match a {
        Applied::Fixed { removed, placed } => {
            format!("{removed} stone(s) taken off, {placed} put on")
        }
        _ => "no change".into(),
    }
}

impl GameState {
    /// Moves completed: a stone or pass counts once its player pressed the
    /// clock (LGC 2023, "Making a move": "Playing a stone or passing a stone
    /// is completed by pressing the clock"), where a clock is in use.
    pub(crate) fn moves_completed(&self) -> u32 {
        let BoardState::Go(b) = &self.board else {
            return 0;
        };
        let moves = b.moves();
        let pending = self.clock.started_at_ms.is_some()
            && self
                .unpressed
                .is_some_and(|(s, _, _)| b.ops().iter().any(|o| o.is_move() && o.seq() == s));
        moves.saturating_sub(u32::from(pending))
    }

    /// An irregularity and its fix.
    pub(crate) fn irregularity(
        &mut self,
        seq: u64,
        kind: IrregularityKind,
        about_seq: Option<u64>,
        fix: &BoardFix,
        statement: &str,
    ) {
        if !matches!(self.board, BoardState::Go(_)) {
            self.irregularities.push(IrregularityRecord {
                seq,
                kind,
                about_seq,
                outcome: format!("recorded ({statement}); no board correction outside Go"),
            });
            return;
        }
        let moves = self.moves_completed();
        let notation = self.notation();
        let Some(b) = self.go() else { return };
        let last_move = b.ops().iter().rev().find(|o| o.is_move()).map(|o| o.seq());
        let mut swap = false;
        let (outcome, topic) = match kind {
            IrregularityKind::CapturedStonesNotRemoved => {
                let applied = b.apply(Op::Fix {
                    seq,
                    fix: fix.clone(),
                });
                (
                    format!(
                        "captured stones removed and given to the opponent as prisoners ({})",
                        fixed(&applied)
                    ),
                    Topic::CapturedStonesNotRemoved,
                )
            }
            IrregularityKind::LiveStonesRemoved => {
                let applied = b.apply(Op::Fix {
                    seq,
                    fix: fix.clone(),
                });
                (
                    format!(
                        "the removed stones are replaced; the capturing stone stays ({})",
                        fixed(&applied)
                    ),
                    Topic::LiveStonesRemoved,
                )
            }
            IrregularityKind::StoneOnOccupiedPoint => {
                let at_once = about_seq.is_some() && about_seq == last_move;
                (
                    if at_once {
                        "noticed immediately: the stone is removed and it is the opponent's turn (the position never held it)".into()
                    } else {
                        "noticed later: the stone is removed and returned to its owner's bowl (the position never held it)".into()
                    },
                    Topic::OccupiedPoint,
                )
            }
            IrregularityKind::AmbiguousPlacement => {
                let intended = fix.place.first().map(|(_, p)| *p);
                // The stone may be a move or a handicap stone placed freely.
                match (about_seq.and_then(|s| b.stone_index(s)), intended) {
                    (Some(i), Some(p)) => {
                        let mut ops = b.ops().to_vec();
                        match &mut ops[i] {
                            Op::Move { point, .. } => *point = Some(p),
                            Op::Handicap { point, .. } => *point = p,
                            _ => {}
                        }
                        b.rebuild(ops);
                        (
                            format!(
                                "the owner positions the stone on its intended point {}",
                                notation.point(p)
                            ),
                            Topic::AmbiguousPlacement,
                        )
                    }
                    _ => (
                        "recorded; no standing move or intended point named, the position is unchanged".into(),
                        Topic::AmbiguousPlacement,
                    ),
                }
            }
            IrregularityKind::WrongColour => {
                let at_once = about_seq.is_some() && about_seq == last_move;
                if at_once {
                    // The stone named, which is the last move though other
                    // operations (a correction) may stand after it.
                    let mut ops = b.ops().to_vec();
                    let index = about_seq.and_then(|s| b.move_index(s));
                    if let Some(Op::Move { player, stone, .. }) = index.and_then(|i| ops.get_mut(i))
                    {
                        *stone = *player;
                    }
                    b.rebuild(ops);
                    (
                        "noticed immediately: the stone is replaced by one of the right colour and any consequent captures completed".into(),
                        Topic::WrongColour,
                    )
                } else {
                    let applied = b.apply(Op::Fix {
                        seq,
                        fix: fix.clone(),
                    });
                    (
                        format!(
                            "noticed later: the position is fixed as best the players can ({})",
                            fixed(&applied)
                        ),
                        Topic::WrongColour,
                    )
                }
            }
            IrregularityKind::HandicapStonesMisplaced | IrregularityKind::ColourOrHandicapError => {
                let topic = if kind == IrregularityKind::HandicapStonesMisplaced {
                    Topic::HandicapMisplaced
                } else {
                    Topic::ColourOrHandicapError
                };
                match b.ruleset().colour_or_handicap_error.remedy(moves) {
                    Action::Restart => {
                        b.truncate(0);
                        (
                            format!("noticed before the third move was completed ({moves} completed): the game is restarted"),
                            topic,
                        )
                    }
                    Action::Correct => {
                        let applied = b.apply(Op::Fix {
                            seq,
                            fix: fix.clone(),
                        });
                        (
                            format!(
                                "noticed before White's first move: the stones are set correctly ({})",
                                fixed(&applied)
                            ),
                            topic,
                        )
                    }
                    Action::ContinueWithColoursUsed => {
                        // The pairing is modified to the colours actually
                        // used: where the seats played each other's colours,
                        // each seat now plays the colour of its stones. The
                        // exchange is inferred here for chains that state it
                        // by no `pairing_modified` (`pairing.rs`), which a
                        // referee records to state it explicitly.
                        let moves: Vec<(Color, Color)> = b
                            .ops()
                            .iter()
                            .filter_map(|o| match o {
                                Op::Move {
                                    player,
                                    stone,
                                    point: Some(_),
                                    remedy: false,
                                    ..
                                } => Some((*player, *stone)),
                                _ => None,
                            })
                            .collect();
                        let swapped_stones = moves.iter().filter(|(p, s)| p != s).count();
                        swap = kind == IrregularityKind::ColourOrHandicapError
                            && !moves.is_empty()
                            && swapped_stones * 2 > moves.len();
                        if swap {
                            crate::pairing::swap_seats(b);
                        }
                        (
                            if swap {
                                "noticed later: the game continues and the pairing is modified to reflect the colours actually used: each seat now plays the colour of the stones it played".into()
                            } else {
                                "noticed later: the game continues with the stones as placed and the pairing is modified to reflect the colours or handicap actually used".into()
                            },
                            topic,
                        )
                    }
                    Action::Referee => ("the rules leave it to the referee".into(), topic),
                }
            }
            IrregularityKind::PositionDisturbed => {
                let applied = b.apply(Op::Fix {
                    seq,
                    fix: fix.clone(),
                });
                (
                    format!("the position is corrected ({})", fixed(&applied)),
                    Topic::PositionDisturbance,
                )
            }
            #[allow(unreachable_patterns)]
            _ => (
                "recorded; the position is unchanged".into(),
                Topic::OtherIrregularity,
            ),
        };
        if swap {
            self.colours_swapped = !self.colours_swapped;
        }
        // Where the rules in force do not list this irregularity (LGC 2023:
        // "Any situations not listed here must be discussed with the
        // referee"), the fix recorded is the referee's matter.
        let cited = self.cite(topic);
        let unlisted = cited
            .quote
            .as_deref()
            .is_some_and(|q| q.contains("not listed here"));
        let outcome = if unlisted {
            format!("not an irregularity the rules list, so a matter for the referee; as recorded: {outcome}")
        } else {
            outcome
        };
        self.note_cited(outcome.clone(), cited);
        self.irregularities.push(IrregularityRecord {
            seq,
            kind,
            about_seq,
            outcome,
        });
    }
}
