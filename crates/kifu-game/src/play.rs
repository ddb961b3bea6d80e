//! Moves, passes, resignations, illegal moves and their remedies,
//! irregularities and their fixes, and the ending procedure.

use kifu_go::{
    EndingEvent, GameEnd, IllegalMoveAction, IllegalMoveRemedy, Topic, Verdict, Violation,
};
use kifu_ledger::{
    BoardFix, Color, GameResult, IrregularityKind, Outcome, Point, PublicKey, ResultBy, Role,
};
use kifu_renju::{GameInput, Outcome as ROutcome, ResultReason};

use crate::cite::{bga, illegal_move_clause, lgc, london, rif, uec};
use crate::go::{Applied, GoBoard, Op};
use crate::record::{IllegalMoveNotice, IrregularityRecord};
use crate::renju::{player_id, renju_point, seat};
use crate::state::{idx, name, BoardState, GameState};

fn sgf(p: Point) -> String {
    let c = |n: u8| (b'a'.wrapping_add(n)) as char;
    format!("{}{}", c(p.x), c(p.y))
}

fn violation_words(v: &Violation) -> &'static str {
    match v {
        Violation::OutOfTurn { .. } => "a failure of alternation",
        Violation::WrongColour => "a stone of the wrong colour",
        Violation::OccupiedPoint => "a stone on an occupied point",
        Violation::OffBoard => "a stone off the board",
        Violation::Suicide => "self-capture",
        Violation::Ko => "ko",
        Violation::Superko(_) => "superko",
        Violation::DuringStatusAssessment => "a move while play is paused for status assessment",
        Violation::AfterEndOfGame => "a move after the end of the game",
    }
}

impl GameState {
    fn go(&mut self) -> Option<&mut GoBoard> {
        match &mut self.board {
            BoardState::Go(b) => Some(b),
            _ => None,
        }
    }

    /// The clause that a violation found by the engine breaks.
    fn violation_rule(&self, v: &Violation) -> String {
        match v {
            Violation::WrongColour => bga("Irregular Moves, vi"),
            Violation::OccupiedPoint => bga("Irregular Moves, IV"),
            Violation::OffBoard => lgc("Ambiguous stone placement"),
            Violation::DuringStatusAssessment => lgc("Ending the game"),
            Violation::AfterEndOfGame => lgc("Ending the game"),
            Violation::Suicide | Violation::OutOfTurn { .. } if self.profile == "bga-aga" => {
                bga("Rule Violation")
            }
            Violation::OutOfTurn { .. } => lgc("Alternation"),
            _ => illegal_move_clause(&self.profile),
        }
    }

    pub(crate) fn stone_placed(&mut self, seq: u64, p: Color, stone: Color, point: Point) {
        match &mut self.board {
            BoardState::Go(_) => self.go_move(seq, p, stone, Some(point)),
            BoardState::Renju(_) => {
                if stone != p {
                    self.note(
                        format!(
                            "the stone's colour is recorded as {}; in Renju the colour follows the opening",
                            name(stone)
                        ),
                        rif("The Rules for World Championship"),
                    );
                }
                match renju_point(point) {
                    Some(rp) => self.renju_input(
                        seq,
                        GameInput::Play {
                            by: player_id(p),
                            point: rp,
                        },
                    ),
                    None => self.note(
                        format!("{} placed a stone off the 15x15 board", name(p)),
                        rif("The Rules for World Championship"),
                    ),
                }
            }
            BoardState::None => {}
        }
    }

    pub(crate) fn pass(&mut self, seq: u64, p: Color, pass_stone: bool) {
        match &self.board {
            BoardState::Go(b) => {
                let expected = b.ruleset().pass_stones;
                if expected != pass_stone {
                    let rule = match self.profile.as_str() {
                        "london-open" => london("2"),
                        "bga-aga" => bga("Pass"),
                        "uec-cup" => uec("Game Rules"),
                        _ => lgc("Ending the game"),
                    };
                    self.note(
                        if expected {
                            format!("{} passed without handing over a pass stone; the profile gives one to the opponent", name(p))
                        } else {
                            format!("{} handed over a pass stone the profile does not use; it is not counted", name(p))
                        },
                        rule,
                    );
                }
                self.go_move(seq, p, p, None);
            }
            BoardState::Renju(_) => self.renju_input(seq, GameInput::Pass { by: player_id(p) }),
            BoardState::None => {}
        }
    }

    fn go_move(&mut self, seq: u64, p: Color, stone: Color, point: Option<Point>) {
        if self.is_over() {
            self.note(
                format!("{} moved after the result was decided; the move is recorded, it changes no result", name(p)),
                lgc("Ending the game"),
            );
        }
        let Some(b) = self.go() else { return };
        let applied = b.apply(Op::Move {
            seq,
            player: p,
            stone,
            point,
            remedy: false,
        });
        match applied {
            Applied::Moved(v) => self.after_go_move(&v, point),
            Applied::Handicap { placed, left } => self.note(
                format!(
                    "handicap stone {placed} placed at {} (free placement); {left} to place before White's first move",
                    point.map(sgf).unwrap_or_default()
                ),
                handicap_rule(&self.profile),
            ),
            _ => {}
        }
    }

    fn after_go_move(&mut self, v: &Verdict, point: Option<Point>) {
        let at = point.map(sgf).unwrap_or_else(|| "pass".into());
        for violation in &v.violations {
            let rule = self.violation_rule(violation);
            self.note_topic(
                format!(
                    "move {} ({} {}) is {}: recorded, not refused; the remedy applies when it is pointed out",
                    v.move_number,
                    name(crate::go::ledger_color(v.player)),
                    at,
                    violation_words(violation)
                ),
                rule,
                violation.topic(),
            );
        }
        if !v.suicided.is_empty() {
            self.note(
                format!(
                    "{} self-captured stones removed and handed to the opponent as prisoners",
                    v.suicided.len()
                ),
                bga("Illegal Moves"),
            );
        }
        self.ending_events_after(&v.events, GoBoard::is_illegal(v));
    }

    fn ending_events(&mut self, events: &[EndingEvent]) {
        self.ending_events_after(events, false);
    }

    /// The ending machine's announcements; `illegal` when the move that
    /// caused them is itself an illegal move.
    fn ending_events_after(&mut self, events: &[EndingEvent], illegal: bool) {
        for e in events {
            let (what, rule) = match (e, self.profile.as_str()) {
                (EndingEvent::Paused, "uec-cup") => (
                    "both programs passed: play stops; the dead stones are displayed and the territory counted".to_string(),
                    uec("a) Both programs pass consecutively"),
                ),
                (EndingEvent::Paused, "london-open") => (
                    "two consecutive passes: play pauses to agree on the status of every group".to_string(),
                    london("5"),
                ),
                (EndingEvent::Paused, "bga-aga") => (
                    "both players passed in succession: play pauses to agree on dead stones".to_string(),
                    bga("Game End"),
                ),
                (EndingEvent::Paused, _) => (
                    "play pauses after consecutive passes with White passing last; the clock is paused and the players assess the status of every group".to_string(),
                    lgc("Ending the game"),
                ),
                (EndingEvent::Resumed { first }, p) => (
                    format!(
                        "play resumes on the clock, {} first",
                        name(crate::go::ledger_color(*first))
                    ),
                    match p {
                        "london-open" => london("6"),
                        "bga-aga" => bga("Game End"),
                        _ => lgc("Ending the game"),
                    },
                ),
                (EndingEvent::ExtraWhitePassRequired, p) => (
                    "Black passed last: White must pass once more, handing over a pass stone".to_string(),
                    if p == "london-open" { london("5") } else { bga("White passes last") },
                ),
                (EndingEvent::Ended(GameEnd::Repetition), _) if illegal => (
                    "the position repeats only through an illegal move: the illegal-move rule applies, not the repetition rule".to_string(),
                    illegal_move_clause(&self.profile),
                ),
                (EndingEvent::Ended(end), _) => {
                    self.go_ended(end);
                    continue;
                }
            };
            let topic = match e {
                EndingEvent::Resumed { .. } => Topic::Resumption,
                _ => Topic::EndOfGame,
            };
            self.note_topic(what, rule, topic);
        }
    }

    fn go_ended(&mut self, end: &GameEnd) {
        let profile = self.profile.clone();
        let Some(b) = self.go() else { return };
        let score = b.score_for_end(end);
        b.final_score = score.clone();
        match (end, score) {
            (GameEnd::Repetition, _) => {
                let (result, rule) = if profile == "uec-cup" {
                    (
                        GameResult {
                            outcome: Outcome::Draw,
                            by: ResultBy::Repetition,
                        },
                        uec("g) Repetition of a position"),
                    )
                } else {
                    (
                        GameResult {
                            outcome: Outcome::NoResult,
                            by: ResultBy::Repetition,
                        },
                        format!("{profile}: a repeated position stops the game"),
                    )
                };
                self.end_by_play(result, rule);
            }
            (end, Some(score)) => {
                let rule = match (end, profile.as_str()) {
                    (GameEnd::MoveLimit, _) => {
                        uec("e) When the game has progressed the 400th moves")
                    }
                    (GameEnd::AllStonesAlive, "london-open") => london("7"),
                    (GameEnd::AllStonesAlive, "bga-aga") => bga("Game End"),
                    (GameEnd::AllStonesAlive, _) => lgc("Ending the game"),
                    (_, "uec-cup") => uec("a) Both programs pass consecutively"),
                    (_, "london-open") => london("8"),
                    (_, "bga-aga") => bga("The score"),
                    _ => lgc("Scoring"),
                };
                let how = match end {
                    GameEnd::MoveLimit => "move 400 reached: the referee counts the territory",
                    GameEnd::AllStonesAlive => {
                        "the game stops with all stones remaining on the board"
                    }
                    _ => "the status of every group is agreed: the game is counted",
                };
                let topic = match end {
                    GameEnd::MoveLimit => Topic::MoveLimit,
                    _ => Topic::Scoring,
                };
                self.note_topic(
                    format!(
                        "{how}: Black {} and White {} (half points), {}",
                        score.black.points, score.white.points, score.result
                    ),
                    rule.clone(),
                    topic,
                );
                let result = match score.result {
                    kifu_go::GameResult::Black(h) => GameResult {
                        outcome: Outcome::Win(Color::Black),
                        by: ResultBy::Score {
                            margin_half_points: h as i32,
                        },
                    },
                    kifu_go::GameResult::White(h) => GameResult {
                        outcome: Outcome::Win(Color::White),
                        by: ResultBy::Score {
                            margin_half_points: h as i32,
                        },
                    },
                    kifu_go::GameResult::Draw => GameResult {
                        outcome: Outcome::Draw,
                        by: ResultBy::Score {
                            margin_half_points: 0,
                        },
                    },
                };
                self.end_by_play(result, rule);
            }
            (_, None) => {}
        }
    }

    pub(crate) fn resigned(&mut self, seq: u64, p: Color) {
        if let BoardState::Renju(_) = self.board {
            self.renju_input(seq, GameInput::Resign { by: player_id(p) });
            return;
        }
        let rule = match self.profile.as_str() {
            "uec-cup" => uec("b) One of the programs resigns"),
            _ => lgc("Resignation"),
        };
        self.end_by_play(
            GameResult {
                outcome: Outcome::Win(p.opponent()),
                by: ResultBy::Resignation,
            },
            rule,
        );
    }

    /// An illegal move pointed out: the remedy of the profile.
    pub(crate) fn illegal_move_noticed(
        &mut self,
        seq: u64,
        move_seq: u64,
        signer: &PublicKey,
        roles: &[Role],
    ) {
        let noticed_by = self.signer_name(signer);
        let profile = self.profile.clone();
        let rule = illegal_move_clause(&profile);
        let sheet_signed = !self.result.signatures.is_empty();
        let Some(b) = self.go() else {
            self.note(
                "an illegal move is pointed out in a game without a Go board; in Renju a forbidden move is pointed out by White",
                rif("The game is won by a player when..."),
            );
            return;
        };
        let Some(index) = b.move_index(move_seq) else {
            self.note(
                format!("no move recorded at event {move_seq} stands in the position: nothing to remedy"),
                rule,
            );
            return;
        };
        let Some(v) = b.verdict(move_seq).cloned() else {
            return;
        };
        let offender = crate::go::ledger_color(v.player);
        let mut notice = IllegalMoveNotice {
            move_seq,
            noticed_seq: seq,
            noticed_by,
            offender: Some(offender),
            violations: v
                .violations
                .iter()
                .map(|x| x.reason().to_string())
                .collect(),
            moves_after: b.moves_after(index),
            remedy: String::new(),
            awaiting_agreement: false,
        };
        if !GoBoard::is_illegal(&v) {
            notice.remedy = if v.violations.is_empty() {
                "none: the move broke no rule".into()
            } else {
                "none under the illegal-move rule: an irregularity, fixed as such".into()
            };
            self.note(
                format!("the move at event {move_seq} is not an illegal move: play continues"),
                rule,
            );
            self.illegal_moves.push(notice);
            return;
        }
        // BGA, "Illegal Moves": "In the case of a failure of alternation, the
        // phrase 'illegal move' ... refers to the whole sequence of two or
        // more moves played consecutively by the offending player."
        let mut start = index;
        if profile == "bga-aga"
            && v.violations
                .iter()
                .any(|x| matches!(x, Violation::OutOfTurn { .. }))
        {
            while start > 0 {
                match &b.ops()[start - 1] {
                    Op::Move { player, .. } if *player == offender => start -= 1,
                    _ => break,
                }
            }
        }
        let action = b.ruleset().illegal_move.remedy(notice.moves_after);
        let remedy_kind = b.ruleset().illegal_move;
        match action {
            IllegalMoveAction::Unwind => {
                b.truncate(start);
                notice.remedy = format!(
                    "noticed {} move(s) later, within three: the game is unwound to the position just before the illegal move",
                    notice.moves_after
                );
            }
            IllegalMoveAction::UnwindAndPass => {
                b.truncate(start);
                b.apply(Op::Move {
                    seq,
                    player: offender,
                    stone: offender,
                    point: None,
                    remedy: true,
                });
                notice.remedy = "noticed at once: unwound, and the offender passes, handing a pass stone to the opponent".into();
            }
            IllegalMoveAction::RewindByAgreement => {
                notice.awaiting_agreement = true;
                notice.remedy = format!(
                    "noticed after {} intervening move(s): rewound only if both players agree; otherwise play continues as is, self-capture stones removed and handed to the opponent",
                    notice.moves_after
                );
            }
            IllegalMoveAction::Continue => {
                notice.remedy = if remedy_kind == IllegalMoveRemedy::UnwindWithinThreeMoves {
                    format!(
                        "noticed {} moves later, after three: the game just continues as it is",
                        notice.moves_after
                    )
                } else {
                    "the ruleset states no remedy: the game continues as it is".into()
                };
            }
            IllegalMoveAction::Loss => {
                let by_offender = roles.contains(&match offender {
                    Color::Black => Role::Black,
                    Color::White => Role::White,
                }) && !roles.contains(&Role::Referee);
                if by_offender {
                    notice.remedy = "pointed out by the offender: the rule needs the opponent or the referee; no loss".into();
                } else if sheet_signed {
                    notice.remedy =
                        "pointed out after the game scores were submitted: too late, no loss"
                            .into();
                } else {
                    notice.remedy =
                        format!("the first illegal move loses: {} loses", name(offender));
                    let earlier = b
                        .verdicts
                        .iter()
                        .find(|(_, v)| GoBoard::is_illegal(v))
                        .map(|(s, _)| *s)
                        .filter(|s| *s != move_seq);
                    if let Some(e) = earlier {
                        notice.remedy.push_str(&format!(
                            " (an earlier illegal move, at event {e}, was not pointed out)"
                        ));
                    }
                }
            }
        }
        let words = notice.remedy.clone();
        self.note_topic(
            format!("illegal move at event {move_seq} pointed out: {words}"),
            rule.clone(),
            Topic::IllegalMove,
        );
        let loses = action == IllegalMoveAction::Loss && words.starts_with("the first");
        self.illegal_moves.push(notice);
        if loses {
            self.end_by_play(
                GameResult {
                    outcome: Outcome::Win(offender.opponent()),
                    by: ResultBy::IllegalMove,
                },
                rule,
            );
        }
        if action == IllegalMoveAction::Unwind && profile != "uec-cup" {
            self.note(
                "the referee may allow an adjustment of the time",
                lgc("Illegal move"),
            );
        }
    }

    /// A player agrees to rewind (BGA); both must agree.
    pub(crate) fn rewind_agreed(&mut self, _seq: u64, p: Color, move_seq: u64) {
        if !self.rewind_agreements.contains(&(move_seq, p)) {
            self.rewind_agreements.push((move_seq, p));
        }
        let both = [Color::Black, Color::White]
            .iter()
            .all(|c| self.rewind_agreements.contains(&(move_seq, *c)));
        let pending = self
            .illegal_moves
            .iter()
            .rposition(|n| n.move_seq == move_seq && n.awaiting_agreement);
        let rule = bga("Illegal Moves");
        match (both, pending) {
            (_, None) => self.note(
                format!("no rewind of the move at event {move_seq} awaits agreement"),
                rule,
            ),
            (false, Some(_)) => self.note(
                format!(
                    "{} agrees to rewind; the opponent's agreement is needed",
                    name(p)
                ),
                rule,
            ),
            (true, Some(i)) => {
                let offender = self.illegal_moves[i].offender;
                let Some(b) = self.go() else { return };
                let Some(mut start) = b.move_index(move_seq) else {
                    self.note("the move no longer stands: nothing to rewind", rule);
                    return;
                };
                let out_of_turn = b.verdict(move_seq).is_some_and(|v| {
                    v.violations
                        .iter()
                        .any(|x| matches!(x, Violation::OutOfTurn { .. }))
                });
                if out_of_turn {
                    while start > 0 {
                        match &b.ops()[start - 1] {
                            Op::Move { player, .. } if Some(*player) == offender => start -= 1,
                            _ => break,
                        }
                    }
                }
                b.truncate(start);
                self.illegal_moves[i].awaiting_agreement = false;
                self.illegal_moves[i].remedy = "rewound by mutual agreement: the offender plays a legal move without handing over a pass stone".into();
                self.note(
                    format!("both players agree: the game is rewound to just before the move at event {move_seq}; the offender plays again, without a pass stone"),
                    rule,
                );
            }
        }
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
        let profile = self.profile.clone();
        let Some(b) = self.go() else {
            self.irregularities.push(IrregularityRecord {
                seq,
                kind,
                about_seq,
                outcome: format!("recorded ({statement}); no board correction outside Go"),
            });
            return;
        };
        let last_move = b.ops().iter().rev().find(|o| o.is_move()).map(|o| o.seq());
        let moves = b.moves();
        let (outcome, rule) = match kind {
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
                    bga("Irregular Moves, I"),
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
                    bga("Irregular Moves, ii"),
                )
            }
            IrregularityKind::HandicapStonesMisplaced => {
                let action = b.ruleset().colour_or_handicap_error.remedy(moves);
                match action {
                    kifu_go::ColourOrHandicapErrorAction::Correct => {
                        let applied = b.apply(Op::Fix {
                            seq,
                            fix: fix.clone(),
                        });
                        (
                            format!("noticed before White's first move: the stones are set correctly ({})", fixed(&applied)),
                            bga("Irregular Moves, iii"),
                        )
                    }
                    kifu_go::ColourOrHandicapErrorAction::Restart => {
                        b.truncate(0);
                        (
                            "noticed before the third move was completed: the game is restarted"
                                .into(),
                            lgc("Colour or handicap error"),
                        )
                    }
                    _ => (
                        "noticed later: play just carries on with the stones as placed".into(),
                        if profile == "lgc-2023" {
                            lgc("Colour or handicap error")
                        } else {
                            bga("Irregular Moves, iii")
                        },
                    ),
                }
            }
            IrregularityKind::StoneOnOccupiedPoint => {
                let at_once = about_seq.is_some() && about_seq == last_move;
                (
                    if at_once {
                        "noticed immediately: the stone is removed and it is the opponent's turn (the position never held it)".into()
                    } else {
                        "noticed later: the stone is removed and returned to its owner's bowl (the position never held it)".into()
                    },
                    bga("Irregular Moves, IV"),
                )
            }
            IrregularityKind::AmbiguousPlacement => {
                let intended = fix.place.first().map(|(_, p)| *p);
                match (about_seq.and_then(|s| b.move_index(s)), intended) {
                    (Some(i), Some(p)) => {
                        let mut ops = b.ops().to_vec();
                        if let Op::Move { point, .. } = &mut ops[i] {
                            *point = Some(p);
                        }
                        b.rebuild(ops);
                        (
                            format!("the owner positions the stone on its intended point {}", sgf(p)),
                            lgc("Ambiguous stone placement"),
                        )
                    }
                    _ => (
                        "recorded; no standing move or intended point named, the position is unchanged".into(),
                        bga("Irregular Moves, V"),
                    ),
                }
            }
            IrregularityKind::WrongColour => {
                let at_once = about_seq.is_some() && about_seq == last_move;
                if at_once {
                    let mut ops = b.ops().to_vec();
                    if let Some(Op::Move { player, stone, .. }) = ops.last_mut() {
                        *stone = *player;
                    }
                    b.rebuild(ops);
                    (
                        "noticed immediately: the stone is replaced by one of the right colour and any consequent captures completed".into(),
                        bga("Irregular Moves, vi"),
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
                        bga("Irregular Moves, vi"),
                    )
                }
            }
            IrregularityKind::ColourOrHandicapError => {
                let action = b.ruleset().colour_or_handicap_error.remedy(moves);
                match action {
                    kifu_go::ColourOrHandicapErrorAction::Restart => {
                        b.truncate(0);
                        (
                            "noticed before the third move was completed: the game is restarted".into(),
                            lgc("Colour or handicap error"),
                        )
                    }
                    kifu_go::ColourOrHandicapErrorAction::Correct => {
                        let applied = b.apply(Op::Fix { seq, fix: fix.clone() });
                        (
                            format!("noticed before White's first move: corrected ({})", fixed(&applied)),
                            bga("Irregular Moves, iii"),
                        )
                    }
                    kifu_go::ColourOrHandicapErrorAction::ContinueWithColoursUsed => (
                        "noticed later: the game continues and the pairing is modified to reflect the colours or handicap actually used".into(),
                        lgc("Colour or handicap error"),
                    ),
                    kifu_go::ColourOrHandicapErrorAction::Referee => (
                        "the rules leave it to the referee".into(),
                        uec("k) Others"),
                    ),
                }
            }
            IrregularityKind::PositionDisturbed => {
                let applied = b.apply(Op::Fix {
                    seq,
                    fix: fix.clone(),
                });
                (
                    format!("the position is corrected ({})", fixed(&applied)),
                    lgc("Position disturbance"),
                )
            }
        };
        self.note(outcome.clone(), rule);
        self.irregularities.push(IrregularityRecord {
            seq,
            kind,
            about_seq,
            outcome,
        });
    }

    /// Dead stones as one side marks them (UEC Cup: both programs display
    /// them; if they match, that is the result).
    pub(crate) fn dead_marked(&mut self, seq: u64, p: Color, dead: &[Point]) {
        let mut d = dead.to_vec();
        d.sort();
        self.dead_marks[idx(p)] = Some(d);
        if self.profile != "uec-cup" {
            self.note(
                format!(
                    "{} marks {} stone(s) dead; the players must agree on every group",
                    name(p),
                    dead.len()
                ),
                lgc("Ending the game"),
            );
            return;
        }
        if let [Some(a), Some(b)] = &self.dead_marks {
            if a == b {
                let dead = a.clone();
                self.note(
                    "both programs display the same dead stones: this is used as the result",
                    uec("a) Both programs pass consecutively"),
                );
                self.agree(seq, dead);
            } else {
                self.note(
                    "the programs' dead stones do not match: the referee corrects the mismatching parts under the witness of both operators",
                    uec("a) Both programs pass consecutively"),
                );
            }
        }
    }

    /// One signer's agreement on the status of every group.
    pub(crate) fn status_agreed(&mut self, seq: u64, dead: &[Point], roles: &[Role]) {
        let mut d = dead.to_vec();
        d.sort();
        if roles.contains(&Role::Referee) {
            self.note(
                "the referee settles the status of the groups",
                if self.profile == "uec-cup" {
                    uec("a) Both programs pass consecutively")
                } else {
                    lgc("Referee responsibilities")
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
            [Some(_), Some(_)] => self.note(
                "the players name different dead stones: no agreement",
                lgc("Ending the game"),
            ),
            _ => {}
        }
    }

    fn agree(&mut self, seq: u64, dead: Vec<Point>) {
        self.status_agreements = [None, None];
        let Some(b) = self.go() else { return };
        // UEC Cup e): at move 400 the referee counts; the dead stones he
        // settles replace the count with every stone alive.
        if let kifu_go::EndingPhase::Over(GameEnd::MoveLimit) = b.ending_phase() {
            let score = b.score(&dead);
            b.final_score = Some(score.clone());
            if let Some(d) = self.result.by_play.as_mut() {
                d.result.outcome = match score.result {
                    kifu_go::GameResult::Black(_) => Outcome::Win(Color::Black),
                    kifu_go::GameResult::White(_) => Outcome::Win(Color::White),
                    kifu_go::GameResult::Draw => Outcome::Draw,
                };
                d.result.by = ResultBy::Score {
                    margin_half_points: score.margin.abs(),
                };
            }
            self.note(
                format!(
                    "the referee counts with {} dead stone(s): {}",
                    dead.len(),
                    score.result
                ),
                uec("e) When the game has progressed the 400th moves"),
            );
            return;
        }
        match b.apply(Op::Agree { seq, dead }) {
            Applied::Ending(events) => self.ending_events(&events),
            Applied::Refused(why) => self.note(
                format!("agreement on status not applicable: {why}"),
                lgc("Ending the game"),
            ),
            _ => {}
        }
    }

    pub(crate) fn status_disputed(&mut self, seq: u64, p: Color) {
        self.status_agreements = [None, None];
        let profile = self.profile.clone();
        let Some(b) = self.go() else { return };
        match b.apply(Op::Dispute { seq }) {
            Applied::Ending(events) => {
                self.note(
                    format!("{} disputes the status of a group", name(p)),
                    lgc("Ending the game"),
                );
                self.ending_events(&events);
            }
            Applied::Refused(why) => {
                let rule = if profile == "uec-cup" {
                    uec("a) Both programs pass consecutively")
                } else {
                    lgc("Ending the game")
                };
                self.note(format!("the dispute cannot resume play: {why}"), rule);
            }
            _ => {}
        }
    }

    /// Feeds one input to the Renju engine and records what it did.
    pub(crate) fn renju_input(&mut self, seq: u64, input: GameInput) {
        let BoardState::Renju(r) = &mut self.board else {
            self.note(
                "a Renju fact in a game without a Renju board: recorded, no effect",
                rif("The Rules for World Championship"),
            );
            return;
        };
        let rule_name = r.rule.clone();
        match r.apply(seq, input) {
            Err(why) => self.note(
                format!("not applicable in the game as it stands: {why}"),
                rif("The Rules for World Championship"),
            ),
            Ok(ROutcome::Ended(res)) => {
                let rule = format!("{rule_name}: {}", res.rule_ref());
                let outcome = match res.winner {
                    Some(p) => Outcome::Win(seat(p)),
                    None => Outcome::Draw,
                };
                let by = match res.reason {
                    ResultReason::Five { .. } => ResultBy::Five,
                    ResultReason::ForbiddenMove { .. } => ResultBy::ForbiddenMove,
                    ResultReason::Resignation => ResultBy::Resignation,
                    ResultReason::TimeExpired => ResultBy::Time,
                    ResultReason::DrawAgreed => ResultBy::Agreement,
                    ResultReason::FullBoard => ResultBy::Other("full board".into()),
                    ResultReason::TwoPasses => ResultBy::Other("two consecutive passes".into()),
                };
                if res.ruled_by_referee {
                    self.result.by_play = None;
                }
                self.end_by_play(GameResult { outcome, by }, rule);
            }
            Ok(ROutcome::ClaimRejected { reason, .. }) => self.note(
                format!("the claim does not hold ({reason:?}); play goes on"),
                rif("The game is won by a player when..."),
            ),
            Ok(ROutcome::Placed {
                verdict,
                draw_offer_rejected,
                move_number,
                ..
            }) => {
                if draw_offer_rejected {
                    self.note(
                        "playing the next move rejects the draw offer",
                        rif("The game ends with draw when..."),
                    );
                }
                if !matches!(verdict, kifu_renju::Verdict::Legal) {
                    self.note(
                        format!("move {move_number} makes {verdict:?}: it counts only when declared or pointed out"),
                        rif("The game is won by a player when..."),
                    );
                }
            }
            Ok(ROutcome::NeedsReferee { .. }) => self.note(
                "the claim is disputed: the referee decides",
                rif("Referees"),
            ),
            Ok(ROutcome::ClaimOverruled { .. }) => self.note(
                "the referee does not uphold the claim; play goes on",
                rif("Referees"),
            ),
            Ok(ROutcome::Swapped { swapped, black }) => self.note(
                format!(
                    "{}: the {} seat holds Black",
                    if swapped {
                        "colours swapped"
                    } else {
                        "no swap"
                    },
                    name(seat(black))
                ),
                format!("{rule_name}: opening rule"),
            ),
            Ok(_) => {}
        }
    }
}

fn fixed(a: &Applied) -> String {
    match a {
        Applied::Fixed { removed, placed } => {
            format!("{removed} stone(s) taken off, {placed} put on")
        }
        _ => "no change".into(),
    }
}

/// The clause that lets Black place handicap stones freely.
fn handicap_rule(profile: &str) -> String {
    match profile {
        "london-open" => london("Handicaps"),
        "bga-aga" => bga("Handicaps"),
        _ => lgc("Handicap"),
    }
}
