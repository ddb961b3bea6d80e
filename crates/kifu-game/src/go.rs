//! The Go board inside the game projection: an adapter over `kifu-go`.
//!
//! `kifu_go::Game` applies moves and never refuses one, but it cannot go
//! back and it cannot take an arbitrary correction of the board. Both are
//! what arbitration needs (an illegal move unwound, a stone put right), so
//! this adapter keeps the list of board operations that stand ([`Op`]) and
//! rebuilds the engine's game from the setup whenever an operation is taken
//! back. A board correction (an irregularity's fix) restarts the engine from
//! the corrected position; the prisoners and the move count are carried over
//! here, and the position history used for superko starts again from the
//! corrected position.
//!
//! Freely placed handicap stones are operations too ([`Op::Handicap`]): the
//! setup the engine starts from is the genesis's (`GoBoard::new`) plus the
//! handicap stones that stand, and the count still to place is derived from
//! the operations on every rebuild, never carried across it.

use kifu_go::{
    score_position, Color as GoColor, EndingEvent, EndingPhase, Game, GameEnd, Komi, Move,
    Point as GoPoint, Ruleset, Score, Setup, Verdict,
};
use kifu_ledger::{BoardFix, Color, Point};
use serde::Serialize;

pub(crate) use crate::convert::{go_color, go_point, ledger_color, ledger_point};

/// An operation on the board that stands in the current position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum Op {
    /// A stone placed or a pass, recorded at `seq`.
    Move {
        /// The recorded event (for a remedy's pass, the notice).
        seq: u64,
        /// Who moved.
        player: Color,
        /// The stone's colour.
        stone: Color,
        /// Where, or `None` for a pass.
        point: Option<Point>,
        /// True for a pass the projection adds as a remedy (BGA, "Illegal
        /// Moves": "unwind ... and pass, handing a pass stone").
        remedy: bool,
    },
    /// A correction of the board.
    Fix {
        /// The event recording it.
        seq: u64,
        /// The correction.
        fix: BoardFix,
    },
    /// The players agreed on the status of every group.
    Agree {
        /// The event that completed the agreement.
        seq: u64,
        /// The stones agreed dead.
        dead: Vec<Point>,
    },
    /// A dispute about status: play resumes.
    Dispute {
        /// The event recording it.
        seq: u64,
    },
    /// The referee's count at the move limit: the stones he settles dead
    /// (UEC Cup, "e)": the game ends at the limit and the referee counts).
    Counted {
        /// The event recording it.
        seq: u64,
        /// The stones settled dead.
        dead: Vec<Point>,
    },
    /// A handicap stone Black placed freely, before White's first move.
    Handicap {
        /// The event recording it.
        seq: u64,
        /// Where.
        point: Point,
    },
}

impl Op {
    /// The event behind the operation.
    pub fn seq(&self) -> u64 {
        match self {
            Op::Move { seq, .. }
            | Op::Fix { seq, .. }
            | Op::Agree { seq, .. }
            | Op::Handicap { seq, .. }
            | Op::Counted { seq, .. }
            | Op::Dispute { seq } => *seq,
        }
    }

    /// True for a stone or a pass (a handicap stone placed freely is not a
    /// move: no move is played before White's first).
    pub fn is_move(&self) -> bool {
        matches!(self, Op::Move { .. })
    }
}

/// What applying one operation produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Applied {
    /// A move and the engine's verdict on it.
    Moved(Verdict),
    /// The ending machine's announcements (agreement, dispute).
    Ending(Vec<EndingEvent>),
    /// The ending machine refused the input (wrong phase); nothing changed.
    Refused(String),
    /// A handicap stone placed by Black (free placement).
    Handicap {
        /// Stones placed so far.
        placed: u32,
        /// Stones still to place.
        left: u32,
    },
    /// The referee's count at the move limit.
    Counted(Score),
    /// A correction: stones taken off and put on.
    Fixed {
        /// Stones actually taken off.
        removed: u32,
        /// Stones actually put on.
        placed: u32,
    },
}

/// The board of a Go game and how it got there.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GoBoard {
    /// The ruleset profile in force.
    #[serde(skip)]
    ruleset: Ruleset,
    /// The position before any operation: the genesis's (fixed handicap
    /// stones), under the terms in force. Every rebuild starts from it.
    #[serde(skip)]
    initial: Setup,
    /// Whether Black places the handicap stones himself.
    #[serde(skip)]
    free: bool,
    /// The handicap stones Black places before White's first move, counted
    /// from the start (free placement; 0 otherwise).
    #[serde(skip)]
    to_place: u32,
    /// The position the engine starts from: the genesis's, plus the
    /// handicap stones placed freely that stand.
    #[serde(skip)]
    setup: Setup,
    #[serde(skip)]
    game: Game,
    /// The operations that stand, in order.
    pub ops: Vec<Op>,
    /// The engine's verdict on each standing move, by the move's event
    /// (the rules engine's own record: not in the JSON views, whose
    /// consequences and illegal moves say the same in words).
    #[serde(skip)]
    pub verdicts: Vec<(u64, Verdict)>,
    /// Captures carried over a board correction (by capturer), plus stones a
    /// correction removed as prisoners.
    #[serde(skip)]
    carried_captures: [u32; 2],
    /// Pass stones carried over a board correction (by receiver).
    #[serde(skip)]
    carried_pass_stones: [u32; 2],
    /// Moves carried over a board correction.
    #[serde(skip)]
    carried_moves: u32,
    /// Handicap stones Black has still to place (free placement): the
    /// handicap less the stones placed while only handicap stones stand; 0
    /// once any other operation stands.
    pub pending_handicap: u32,
    /// The count frozen when the game ended on the board.
    pub final_score: Option<Score>,
}

impl PartialEq for GoBoard {
    fn eq(&self, other: &GoBoard) -> bool {
        // The engine's game is a function of the setup and the operations.
        self.ruleset == other.ruleset
            && self.initial == other.initial
            && self.free == other.free
            && self.to_place == other.to_place
            && self.setup == other.setup
            && self.ops == other.ops
            && self.verdicts == other.verdicts
            && self.carried_captures == other.carried_captures
            && self.carried_pass_stones == other.carried_pass_stones
            && self.carried_moves == other.carried_moves
            && self.pending_handicap == other.pending_handicap
            && self.final_score == other.final_score
            && self.game.board() == other.game.board()
    }
}

/// Whether handicap stones are placed freely: where the ruleset (after the
/// genesis overrides, `handicap_placement`) says free; fixed where it says
/// fixed or leaves the choice to the tournament.
pub fn free_placement(ruleset: &Ruleset) -> bool {
    matches!(ruleset.handicap_placement, kifu_go::HandicapPlacement::Free)
}

/// A serializable picture of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GoView {
    /// Lines of the board.
    pub size: u8,
    /// Rows, top first: `X` black, `O` white, `.` empty.
    pub rows: Vec<String>,
    /// Whose turn it is.
    pub to_move: Color,
    /// Prisoners held by Black (captures and pass stones received).
    pub black_prisoners: u32,
    /// Prisoners held by White.
    pub white_prisoners: u32,
    /// Pass stones received by Black.
    pub black_pass_stones: u32,
    /// Pass stones received by White.
    pub white_pass_stones: u32,
    /// Moves played (passes included).
    pub moves: u32,
    /// The point where a basic-ko recapture is banned next, in SGF letters.
    pub ko_ban: Option<String>,
    /// The ending procedure's phase.
    pub ending: EndingPhase,
}

impl GoBoard {
    /// A board for `ruleset`, `size` lines, `handicap` stones and `komi`.
    ///
    /// With `free` placement the board starts empty and Black's first
    /// `handicap` stones, placed before White's first move, are the handicap
    /// (docs/RULESETS.md, "Genesis overrides", `handicap_placement`: "`free`:
    /// Black places the handicap stones as his first moves"); otherwise they
    /// stand on the standard points from the start.
    pub(crate) fn new(
        ruleset: Ruleset,
        size: u8,
        handicap: u8,
        komi: i32,
        free: bool,
    ) -> Result<GoBoard, kifu_go::Error> {
        let mut setup = if handicap >= 2 && !free {
            Setup::fixed_handicap(size, u32::from(handicap))?
        } else {
            let mut s = Setup::even(size);
            s.handicap = u32::from(handicap);
            s
        };
        setup.komi = Some(Komi(komi));
        let game = Game::new(ruleset.clone(), &setup)?;
        let to_place = if free && handicap >= 2 {
            u32::from(handicap)
        } else {
            0
        };
        Ok(GoBoard {
            ruleset,
            initial: setup.clone(),
            free,
            to_place,
            setup,
            game,
            ops: Vec::new(),
            verdicts: Vec::new(),
            carried_captures: [0; 2],
            carried_pass_stones: [0; 2],
            carried_moves: 0,
            pending_handicap: to_place,
            final_score: None,
        })
    }

    /// True while nothing but handicap stones placed freely stands.
    fn before_play(&self) -> bool {
        self.ops.iter().all(|o| matches!(o, Op::Handicap { .. }))
    }

    /// True while Black's stones are handicap stones: some are still to
    /// place and nothing but handicap stones stands. The count applies to
    /// Black's first moves only (docs/RULESETS.md, "Genesis overrides",
    /// `handicap_placement`: "`free`: Black places the handicap stones as his
    /// first moves"), so it closes with the first other operation; a
    /// handicap left short is then a colour or handicap error (LGC 2023,
    /// "Colour or handicap error"; BGA, "Irregular Moves" iii).
    fn placing_handicap(&self) -> bool {
        self.pending_handicap > 0 && self.before_play()
    }

    /// Places a Black stone as a freely placed handicap stone, if the point
    /// is on the board and free, and keeps the placement as an operation.
    fn place_handicap(&mut self, seq: u64, point: Point) -> Option<Applied> {
        let p = go_point(point);
        if !p.on_board(self.setup.size) || self.setup.black.contains(&p) {
            return None;
        }
        self.setup.black.push(p);
        self.pending_handicap = self.pending_handicap.saturating_sub(1);
        self.setup.to_move = if self.pending_handicap == 0 {
            GoColor::White
        } else {
            GoColor::Black
        };
        // Nothing but handicap stones stands, so the engine restarts from
        // the setup.
        self.restart_engine();
        self.ops.push(Op::Handicap { seq, point });
        let placed = self
            .ops
            .iter()
            .filter(|o| matches!(o, Op::Handicap { .. }))
            .count() as u32;
        Some(Applied::Handicap {
            placed,
            left: self.pending_handicap,
        })
    }

    /// The engine's game started again from the setup (accepted once when
    /// the board was made, so accepted again).
    fn restart_engine(&mut self) {
        if let Ok(game) = Game::new(self.ruleset.clone(), &self.setup) {
            self.game = game;
        }
    }

    /// The handicap stones standing from the start (fixed points, or those
    /// Black placed freely).
    pub fn handicap_stones(&self) -> Vec<Point> {
        self.setup.black.iter().map(|p| ledger_point(*p)).collect()
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        ledger_color(self.game.to_move())
    }

    /// Moves played, passes included, corrections carried over.
    pub fn moves(&self) -> u32 {
        self.carried_moves + self.game.move_count()
    }

    /// The ending procedure's phase.
    pub fn ending_phase(&self) -> &EndingPhase {
        self.game.ending().phase()
    }

    /// Resumptions after a status dispute since the last correction.
    pub fn resumptions(&self) -> u32 {
        self.game.ending().resumptions()
    }

    fn captures(&self, c: GoColor) -> u32 {
        self.carried_captures[c.index()] + self.game.captures(c)
    }

    fn pass_stones(&self, c: GoColor) -> u32 {
        self.carried_pass_stones[c.index()] + self.game.pass_stones_received(c)
    }

    /// The picture.
    pub fn view(&self) -> GoView {
        let b = GoColor::Black;
        let w = GoColor::White;
        GoView {
            size: self.game.board().size(),
            rows: self.game.board().to_rows(),
            to_move: self.to_move(),
            black_prisoners: self.captures(b) + self.pass_stones(b),
            white_prisoners: self.captures(w) + self.pass_stones(w),
            black_pass_stones: self.pass_stones(b),
            white_pass_stones: self.pass_stones(w),
            moves: self.moves(),
            ko_ban: self.game.ko_ban().map(|(p, _)| p.to_sgf()),
            ending: self.ending_phase().clone(),
        }
    }

    /// Counts the board with `dead` stones removed, prisoners carried over
    /// corrections included.
    pub fn score(&self, dead: &[Point]) -> Score {
        let dead: Vec<GoPoint> = dead.iter().map(|p| go_point(*p)).collect();
        score_position(
            self.game.board(),
            &dead,
            [self.captures(GoColor::Black), self.captures(GoColor::White)],
            [
                self.pass_stones(GoColor::Black),
                self.pass_stones(GoColor::White),
            ],
            self.game.komi(),
            self.game.handicap(),
            &self.ruleset,
        )
    }

    /// The count for the way the game ended on the board, if it did.
    pub(crate) fn score_for_end(&self, end: &GameEnd) -> Option<Score> {
        match end {
            GameEnd::Agreed { dead } => {
                let dead: Vec<Point> = dead.iter().map(|p| ledger_point(*p)).collect();
                Some(self.score(&dead))
            }
            GameEnd::AllStonesAlive | GameEnd::MoveLimit => Some(self.score(&[])),
            GameEnd::Repetition => None,
        }
    }

    /// Applies `op` and keeps it in the list of standing operations.
    pub(crate) fn apply(&mut self, op: Op) -> Applied {
        match &op {
            Op::Move {
                seq,
                player: Color::Black,
                stone: Color::Black,
                point: Some(point),
                remedy: false,
            } if self.placing_handicap() => {
                if let Some(done) = self.place_handicap(*seq, *point) {
                    return done;
                }
            }
            // Replayed: the stone stands as placed, whatever the count says
            // (a modified pairing may have lowered the handicap: "the stones
            // standing as placed").
            Op::Handicap { seq, point } => {
                return self.place_handicap(*seq, *point).unwrap_or_else(|| {
                    Applied::Refused("the handicap point is taken or off the board".into())
                });
            }
            _ => {}
        }
        let applied = match &op {
            Op::Move {
                seq,
                player,
                stone,
                point,
                ..
            } => {
                let mv = match point {
                    Some(p) => Move::Play(go_point(*p)),
                    None => Move::Pass,
                };
                let v = self.game.apply(go_color(*player), go_color(*stone), mv);
                self.verdicts.push((*seq, v.clone()));
                Applied::Moved(v)
            }
            Op::Fix { fix, .. } => self.correct(fix),
            Op::Agree { dead, .. } => {
                let dead = dead.iter().map(|p| go_point(*p)).collect();
                match self.game.agree(dead) {
                    Ok(events) => Applied::Ending(events),
                    Err(e) => Applied::Refused(e.to_string()),
                }
            }
            Op::Dispute { .. } => match self.game.dispute() {
                Ok(events) => Applied::Ending(events),
                Err(e) => Applied::Refused(e.to_string()),
            },
            Op::Handicap { .. } => Applied::Refused("a handicap stone out of place".into()),
            Op::Counted { dead, .. } => match self.game.ending().phase() {
                EndingPhase::Over(GameEnd::MoveLimit) => {
                    let score = self.score(dead);
                    self.final_score = Some(score.clone());
                    Applied::Counted(score)
                }
                _ => Applied::Refused("the game did not end at the move limit".into()),
            },
        };
        // The count is frozen where the operations end the game, so a
        // rebuild that keeps the end keeps the count.
        let events = match &applied {
            Applied::Moved(v) => v.events.as_slice(),
            Applied::Ending(events) => events.as_slice(),
            _ => &[],
        };
        let end = events.iter().find_map(|e| match e {
            EndingEvent::Ended(end) => Some(end.clone()),
            _ => None,
        });
        if let Some(end) = end {
            self.final_score = self.score_for_end(&end);
        }
        if !matches!(applied, Applied::Refused(_)) {
            self.ops.push(op);
            // Play began: no more handicap stones to place.
            self.pending_handicap = 0;
        }
        applied
    }

    /// Takes back every operation from index `from` on and rebuilds the
    /// position from the setup.
    pub(crate) fn truncate(&mut self, from: usize) {
        let mut ops = std::mem::take(&mut self.ops);
        ops.truncate(from);
        self.rebuild(ops);
    }

    /// Replaces the standing operations by `ops` and rebuilds.
    ///
    /// Everything derived from the operations starts again from the initial
    /// position: the handicap stones placed freely (they are operations
    /// too) and the count still to place, so a board rebuilt in the middle
    /// of the placement is the board a replay from the genesis gives.
    pub(crate) fn rebuild(&mut self, ops: Vec<Op>) {
        self.setup = self.initial.clone();
        self.pending_handicap = self.to_place;
        self.restart_engine();
        self.ops.clear();
        self.verdicts.clear();
        self.carried_captures = [0; 2];
        self.carried_pass_stones = [0; 2];
        self.carried_moves = 0;
        self.final_score = None;
        for op in ops {
            self.apply(op);
        }
    }

    /// The terms of the game corrected (a modified pairing): the handicap
    /// counted and the komi, the stones standing as placed; the standing
    /// operations are replayed under the new terms.
    ///
    /// Under free placement the handicap stones still to place follow the
    /// new handicap while Black is placing them; once play has begun the
    /// placement stands as it happened (LGC 2023, "Colour or handicap
    /// error": "the game continues and the pairing is modified to reflect the
    /// actual colours or handicap used"), only the count uses the new terms.
    pub(crate) fn set_terms(&mut self, handicap: Option<u8>, komi: Option<i32>) {
        if let Some(h) = handicap {
            self.initial.handicap = u32::from(h);
            if self.free && self.before_play() {
                self.to_place = if h >= 2 { u32::from(h) } else { 0 };
            }
        }
        if let Some(k) = komi {
            self.initial.komi = Some(Komi(k));
        }
        let ops = std::mem::take(&mut self.ops);
        self.rebuild(ops);
    }

    /// The standing operations.
    pub(crate) fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// Index of the standing move recorded at `seq` (remedy passes excluded).
    pub(crate) fn move_index(&self, seq: u64) -> Option<usize> {
        self.ops
            .iter()
            .position(|o| matches!(o, Op::Move { seq: s, remedy: false, .. } if *s == seq))
    }

    /// Index of the standing stone recorded at `seq`: a move's (remedy
    /// passes excluded) or a freely placed handicap stone's.
    pub(crate) fn stone_index(&self, seq: u64) -> Option<usize> {
        self.ops.iter().position(|o| match o {
            Op::Move {
                seq: s,
                remedy: false,
                point: Some(_),
                ..
            }
            | Op::Handicap { seq: s, .. } => *s == seq,
            _ => false,
        })
    }

    /// The verdict on the standing move recorded at `seq`.
    pub(crate) fn verdict(&self, seq: u64) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|(s, _)| *s == seq)
            .map(|(_, v)| v)
    }

    /// Moves standing after the operation at `index`.
    pub(crate) fn moves_after(&self, index: usize) -> u32 {
        self.ops
            .iter()
            .skip(index + 1)
            .filter(|o| o.is_move())
            .count() as u32
    }

    /// Applies a correction: restarts the engine from the corrected position,
    /// carrying prisoners and the move count.
    fn correct(&mut self, fix: &BoardFix) -> Applied {
        let board = self.game.board();
        let size = board.size();
        let mut black: Vec<GoPoint> = board.stones(GoColor::Black);
        let mut white: Vec<GoPoint> = board.stones(GoColor::White);
        let mut removed = 0;
        let mut prisoners = [0u32; 2];
        for p in &fix.remove {
            let gp = go_point(*p);
            for (stones, colour) in [(&mut black, GoColor::Black), (&mut white, GoColor::White)] {
                if let Some(i) = stones.iter().position(|q| *q == gp) {
                    stones.remove(i);
                    removed += 1;
                    if fix.as_prisoners {
                        prisoners[colour.opponent().index()] += 1;
                    }
                }
            }
        }
        let mut placed = 0;
        for (c, p) in &fix.place {
            let gp = go_point(*p);
            if !gp.on_board(size) || black.contains(&gp) || white.contains(&gp) {
                continue;
            }
            placed += 1;
            match c {
                Color::Black => black.push(gp),
                Color::White => white.push(gp),
            }
        }
        let setup = Setup {
            size,
            black,
            white,
            to_move: self.game.to_move(),
            handicap: self.game.handicap(),
            komi: Some(self.game.komi()),
        };
        if let Ok(game) = Game::new(self.ruleset.clone(), &setup) {
            for c in [GoColor::Black, GoColor::White] {
                self.carried_captures[c.index()] += self.game.captures(c) + prisoners[c.index()];
                self.carried_pass_stones[c.index()] += self.game.pass_stones_received(c);
            }
            self.carried_moves += self.game.move_count();
            self.game = game;
        }
        Applied::Fixed { removed, placed }
    }
}
