//! A game in progress: the position, whose turn it is, prisoners, the history
//! of positions, and a verdict for every move applied.
//!
//! [`Game`] never refuses a move. Each call returns a [`Verdict`] saying which
//! rules (if any) the move broke under the game's [`Ruleset`], and the game
//! moves on to a defined position:
//!
//! - **occupied point**: the board is unchanged, the turn passes to the
//!   opponent (BGA, "Irregular Moves" iv: "remove the stone from the board and
//!   it is then the opponent's turn to play");
//! - **self-capture** (legal or not): the string is removed and credited to the
//!   opponent as prisoners (BGA, "Illegal Moves": "the relevant stones should be
//!   removed from the board and handed to the opponent as prisoners"; GNU Go
//!   counts them the same way);
//! - **ko, superko**: the stone stays and its captures happen (LGC 2023,
//!   "Illegal move": noticed after three moves, "the game just continues as it
//!   is"); unwinding is for the game projection, which keeps earlier positions;
//! - **out of turn, wrong colour**: the stone is placed as played and the turn
//!   passes to the opponent of the player who moved.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::ending::{Ending, EndingError, EndingEvent, EndingInput, EndingPhase, GameEnd};
use crate::handicap::fixed_handicap_points;
use crate::ruleset::{KoRule, RepetitionRule, Ruleset, SuicideRule};
use crate::score::{score_position, Score};
use crate::zobrist::{CREATED_BY_BLACK, CREATED_BY_WHITE, TO_MOVE_WHITE};
use crate::{Color, Error, Komi, Point};

/// Zobrist keys are already uniformly mixed: hash them as they are.
#[derive(Default, Clone)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) ^ (*b as u64) ^ (self.0 >> 56);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type PositionSet = HashSet<u64, BuildHasherDefault<ZobristHasher>>;

/// Which superko rule a move broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuperkoKind {
    /// The board position occurred before.
    Positional,
    /// The board position occurred before with the same player to move.
    Situational,
    /// The board position was created before by a play with the same player
    /// to move next.
    NaturalSituational,
}

/// A rule broken by a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Violation {
    /// It was the other player's turn (a failure of alternation).
    OutOfTurn {
        /// Who should have moved.
        expected: Color,
    },
    /// The player placed a stone of the opponent's colour.
    WrongColour,
    /// The point already held a stone.
    OccupiedPoint,
    /// The point is not on the board.
    OffBoard,
    /// The play removed its own string and the ruleset forbids that.
    Suicide,
    /// Immediate recapture of a basic ko.
    Ko,
    /// The play recreated an earlier position the ruleset forbids.
    Superko(SuperkoKind),
    /// The move came while play was paused for status assessment.
    DuringStatusAssessment,
    /// The move came after the game ended.
    AfterEndOfGame,
}

impl Violation {
    /// The topic of the rule broken, to look up the profile's clause with
    /// [`Ruleset::clause`].
    pub fn topic(self) -> crate::Topic {
        use crate::Topic;
        match self {
            Violation::OutOfTurn { .. } => Topic::Alternation,
            Violation::WrongColour | Violation::OccupiedPoint | Violation::OffBoard => {
                Topic::IllegalMove
            }
            Violation::Suicide => Topic::Suicide,
            Violation::Ko | Violation::Superko(_) => Topic::Ko,
            Violation::DuringStatusAssessment | Violation::AfterEndOfGame => Topic::EndOfGame,
        }
    }

    /// Short stable name, as used in reports: `occupied`, `suicide`, `ko`,
    /// `off_board`, `positional_superko`, `situational_superko`,
    /// `natural_situational_superko`, `out_of_turn`, `wrong_colour`,
    /// `during_status_assessment`, `after_end_of_game`.
    pub fn reason(self) -> &'static str {
        match self {
            Violation::OutOfTurn { .. } => "out_of_turn",
            Violation::WrongColour => "wrong_colour",
            Violation::OccupiedPoint => "occupied",
            Violation::OffBoard => "off_board",
            Violation::Suicide => "suicide",
            Violation::Ko => "ko",
            Violation::Superko(SuperkoKind::Positional) => "positional_superko",
            Violation::Superko(SuperkoKind::Situational) => "situational_superko",
            Violation::Superko(SuperkoKind::NaturalSituational) => "natural_situational_superko",
            Violation::DuringStatusAssessment => "during_status_assessment",
            Violation::AfterEndOfGame => "after_end_of_game",
        }
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// A stone played on this point.
    Play(Point),
    /// A pass (a pass stone handed to the opponent where the ruleset says so).
    Pass,
}

/// What the engine says about one applied move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// 1-based number of the move in the game (handicap stones excluded).
    pub move_number: u32,
    /// The player who moved.
    pub player: Color,
    /// The colour of the stone played (differs from `player` for a wrong-colour play).
    pub stone: Color,
    /// The move.
    pub mv: Move,
    /// Rules broken, most fundamental first; empty for a legal move.
    pub violations: Vec<Violation>,
    /// Opponent stones removed by the play.
    pub captured: Vec<Point>,
    /// Own stones removed by self-capture (credited to the opponent).
    pub suicided: Vec<Point>,
    /// Whether a pass stone was handed to the opponent.
    pub pass_stone: bool,
    /// Whether the resulting whole-board position repeats an earlier one with
    /// the same player to move (a cycle such as triple ko), whatever the ko rule.
    pub repetition: bool,
    /// What the ending procedure announced after this move.
    pub events: Vec<EndingEvent>,
}

impl Verdict {
    /// Whether the move broke no rule.
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty()
    }
}

/// The starting position of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Board size.
    pub size: u8,
    /// Black stones on the board before the first move (handicap stones).
    pub black: Vec<Point>,
    /// White stones on the board before the first move.
    pub white: Vec<Point>,
    /// Who moves first.
    pub to_move: Color,
    /// Number of handicap stones (0 for an even game).
    pub handicap: u32,
    /// Komi; `None` means the ruleset's komi for this handicap.
    pub komi: Option<Komi>,
}

impl Setup {
    /// An even game on an empty board, Black to move.
    pub fn even(size: u8) -> Setup {
        Setup {
            size,
            black: Vec::new(),
            white: Vec::new(),
            to_move: Color::Black,
            handicap: 0,
            komi: None,
        }
    }

    /// A handicap game with `stones` on the standard points; White moves first.
    pub fn fixed_handicap(size: u8, stones: u32) -> Result<Setup, Error> {
        Ok(Setup {
            size,
            black: fixed_handicap_points(size, stones)?,
            white: Vec::new(),
            to_move: if stones >= 2 {
                Color::White
            } else {
                Color::Black
            },
            handicap: stones,
            komi: None,
        })
    }

    /// A handicap game with Black's stones placed freely; White moves first.
    pub fn free_handicap(size: u8, stones: Vec<Point>) -> Setup {
        let handicap = stones.len() as u32;
        Setup {
            size,
            black: stones,
            white: Vec::new(),
            to_move: if handicap >= 2 {
                Color::White
            } else {
                Color::Black
            },
            handicap,
            komi: None,
        }
    }
}

/// A game in progress under one ruleset.
#[derive(Debug, Clone)]
pub struct Game {
    ruleset: Ruleset,
    board: Board,
    to_move: Color,
    handicap: u32,
    komi: Komi,
    /// Stones captured by play (index = capturer), self-captures included for the opponent.
    captures: [u32; 2],
    /// Pass stones received (index = receiver).
    pass_stones: [u32; 2],
    moves: u32,
    /// A basic-ko ban: this colour may not play on this point next.
    ko_ban: Option<(Point, Color)>,
    track_history: bool,
    positional: PositionSet,
    situational: PositionSet,
    natural: PositionSet,
    ending: Ending,
}

fn situational_key(board_hash: u64, to_move: Color) -> u64 {
    match to_move {
        Color::Black => board_hash,
        Color::White => board_hash ^ TO_MOVE_WHITE,
    }
}

fn natural_key(board_hash: u64, created_by: Color) -> u64 {
    match created_by {
        Color::Black => board_hash ^ CREATED_BY_BLACK,
        Color::White => board_hash ^ CREATED_BY_WHITE,
    }
}

impl Game {
    /// A new game from `setup` under `ruleset`. Setup stones must be on the
    /// board and not overlap.
    pub fn new(ruleset: Ruleset, setup: &Setup) -> Result<Game, Error> {
        let mut board = Board::new(setup.size as u32)?;
        for (stones, color) in [(&setup.black, Color::Black), (&setup.white, Color::White)] {
            for &p in stones {
                if board.get(p).is_some() {
                    return Err(Error::SetupOverlap(p));
                }
                board.set(p, Some(color))?;
            }
        }
        let komi = setup.komi.unwrap_or_else(|| ruleset.komi(setup.handicap));
        let track_history = ruleset.needs_position_history();
        let ending = Ending::new(&ruleset);
        let mut game = Game {
            ruleset,
            board,
            to_move: setup.to_move,
            handicap: setup.handicap,
            komi,
            captures: [0; 2],
            pass_stones: [0; 2],
            moves: 0,
            ko_ban: None,
            track_history,
            positional: PositionSet::default(),
            situational: PositionSet::default(),
            natural: PositionSet::default(),
            ending,
        };
        game.remember_start();
        Ok(game)
    }

    fn remember_start(&mut self) {
        if !self.track_history {
            return;
        }
        let h = self.board.hash();
        self.positional.insert(h);
        self.situational.insert(situational_key(h, self.to_move));
        // LGC 2023, "Illegal move": "recreate a previous board position with
        // the same person to play" -- the starting position counts, with the
        // first player to move (as if created by the other player).
        self.natural.insert(natural_key(h, self.to_move.opponent()));
    }

    /// Turns the position history on or off (on by default when the ruleset
    /// needs it). Without it superko and repetition are not detected; the
    /// replay bench measures the difference.
    pub fn set_history_tracking(&mut self, on: bool) {
        self.track_history = on;
        if on && self.positional.is_empty() {
            self.remember_start();
        }
    }

    /// The ruleset the game is played under.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Number of handicap stones.
    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// Komi in force.
    pub fn komi(&self) -> Komi {
        self.komi
    }

    /// Moves applied so far (passes count; handicap stones do not).
    pub fn move_count(&self) -> u32 {
        self.moves
    }

    /// Stones `color` has captured by play (self-captured stones of the
    /// opponent included; pass stones and dead stones not).
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// Pass stones `color` has received from the opponent.
    pub fn pass_stones_received(&self, color: Color) -> u32 {
        self.pass_stones[color.index()]
    }

    /// All prisoners `color` holds: captures plus pass stones received.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.captures(color) + self.pass_stones_received(color)
    }

    /// The point where a basic-ko recapture is banned next, and for whom.
    pub fn ko_ban(&self) -> Option<(Point, Color)> {
        self.ko_ban
    }

    /// A digest of the position history the ko and repetition rules consult
    /// (the positional, situational and natural-situational sets): equal
    /// histories give equal digests, whatever order the positions arose in.
    /// Deterministic across builds (the Zobrist keys are fixed).
    pub fn history_digest(&self) -> u64 {
        fn mix(mut z: u64) -> u64 {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        let set = |s: &PositionSet, tag: u64| {
            s.iter()
                .fold(tag, |acc, h| acc.wrapping_add(mix(h ^ tag)))
                .wrapping_add(s.len() as u64)
        };
        mix(set(&self.positional, 1)
            ^ mix(set(&self.situational, 2))
            ^ mix(mix(set(&self.natural, 3))))
    }

    /// The ending procedure's state.
    pub fn ending(&self) -> &Ending {
        &self.ending
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.ending.is_over()
    }

    /// `player` plays a stone of their own colour on `point`.
    pub fn play(&mut self, player: Color, point: Point) -> Verdict {
        self.apply(player, player, Move::Play(point))
    }

    /// `player` passes.
    pub fn pass(&mut self, player: Color) -> Verdict {
        self.apply(player, player, Move::Pass)
    }

    /// What the verdict on `player` playing `mv` would be, without applying it.
    pub fn check(&self, player: Color, mv: Move) -> Verdict {
        self.clone().apply(player, player, mv)
    }

    /// Applies a move by `player` with a stone of colour `stone` (the two differ
    /// only for a wrong-colour play) and returns the verdict. The move is always
    /// applied; see the module documentation for the resulting position.
    pub fn apply(&mut self, player: Color, stone: Color, mv: Move) -> Verdict {
        self.moves += 1;
        let mut verdict = Verdict {
            move_number: self.moves,
            player,
            stone,
            mv,
            violations: Vec::new(),
            captured: Vec::new(),
            suicided: Vec::new(),
            pass_stone: false,
            repetition: false,
            events: Vec::new(),
        };
        // BGA, "Rule Violation": "A move which violates the rules of ko,
        // superko, self-capture, or alternation is an illegal move."
        if player != self.to_move {
            verdict.violations.push(Violation::OutOfTurn {
                expected: self.to_move,
            });
        }
        if stone != player {
            // BGA, "Irregular Moves" vi: a stone of the wrong colour.
            verdict.violations.push(Violation::WrongColour);
        }
        match mv {
            Move::Pass => self.apply_pass(player, &mut verdict),
            Move::Play(point) => self.apply_play(player, stone, point, &mut verdict),
        }
        self.to_move = player.opponent();
        self.record_history(player, mv, &mut verdict);
        self.feed_ending(player, mv, &mut verdict);
        verdict
    }

    fn apply_pass(&mut self, player: Color, verdict: &mut Verdict) {
        // LGC 2023, "Ending the game" 1: "A player passes by handing a stone to
        // the opponent (who adds it to any existing prisoners)".
        if self.ruleset.pass_stones {
            self.pass_stones[player.opponent().index()] += 1;
            verdict.pass_stone = true;
        }
        // A pass lifts a basic-ko ban.
        self.ko_ban = None;
    }

    fn apply_play(&mut self, player: Color, stone: Color, point: Point, verdict: &mut Verdict) {
        if !point.on_board(self.board.size()) {
            // Treated like an occupied point: nothing is placed.
            verdict.violations.push(Violation::OffBoard);
            self.ko_ban = None;
            return;
        }
        if self.board.get(point).is_some() {
            // BGA, "Irregular Moves" iv: the stone is removed, the opponent plays.
            verdict.violations.push(Violation::OccupiedPoint);
            self.ko_ban = None;
            return;
        }
        let ko_violation = self.ko_ban == Some((point, player));
        let placement = match self.board.place(stone, point) {
            Ok(p) => p,
            Err(_) => {
                verdict.violations.push(Violation::OccupiedPoint);
                self.ko_ban = None;
                return;
            }
        };
        self.captures[stone.index()] += placement.captured.len() as u32;
        // Self-captured stones go to the opponent as prisoners (BGA, "Illegal
        // Moves"; GNU Go's `captures` counts them the same way).
        self.captures[stone.opponent().index()] += placement.suicided.len() as u32;
        if !placement.suicided.is_empty() {
            let forbidden = match self.ruleset.suicide {
                SuicideRule::Forbidden => true,
                SuicideRule::MultiStoneOnly => placement.suicided.len() < 2,
                SuicideRule::Allowed => false,
            };
            if forbidden {
                verdict.violations.push(Violation::Suicide);
            }
        }
        if ko_violation {
            verdict.violations.push(Violation::Ko);
        }
        // A basic ko: a single stone captured a single stone and stands alone
        // with that one liberty.
        self.ko_ban = None;
        if placement.captured.len() == 1
            && placement.suicided.is_empty()
            && self.board.is_lone_stone_in_atari(point)
        {
            self.ko_ban = Some((placement.captured[0], stone.opponent()));
        }
        verdict.captured = placement.captured;
        verdict.suicided = placement.suicided;
    }

    fn record_history(&mut self, player: Color, mv: Move, verdict: &mut Verdict) {
        if !self.track_history {
            return;
        }
        let h = self.board.hash();
        let is_play =
            matches!(mv, Move::Play(_)) && !verdict.violations.contains(&Violation::OccupiedPoint);
        let sit = situational_key(h, self.to_move);
        let nat = natural_key(h, player);
        let repeated_situation = !self.situational.insert(sit);
        verdict.repetition = repeated_situation && is_play;
        if is_play {
            // Only the set the ko rule needs is kept (the situational one is
            // always kept: it also detects repetitions).
            let repeated_board =
                self.ruleset.ko == KoRule::PositionalSuperko && !self.positional.insert(h);
            let repeated_natural =
                self.ruleset.ko == KoRule::NaturalSituationalSuperko && !self.natural.insert(nat);
            let kind = match self.ruleset.ko {
                KoRule::Simple => None,
                KoRule::PositionalSuperko if repeated_board => Some(SuperkoKind::Positional),
                KoRule::SituationalSuperko if repeated_situation => Some(SuperkoKind::Situational),
                KoRule::NaturalSituationalSuperko if repeated_natural => {
                    Some(SuperkoKind::NaturalSituational)
                }
                _ => None,
            };
            // A basic-ko recapture is reported as ko, not also as superko.
            if let Some(kind) = kind {
                if !verdict.violations.contains(&Violation::Ko) {
                    verdict.violations.push(Violation::Superko(kind));
                }
            }
        }
    }

    fn feed_ending(&mut self, player: Color, mv: Move, verdict: &mut Verdict) {
        let input = match mv {
            Move::Play(_) => EndingInput::Play(player),
            Move::Pass => EndingInput::Pass(player),
        };
        match self.ending.step(input) {
            Ok(events) => verdict.events.extend(events),
            Err(EndingError::Paused) => verdict.violations.push(Violation::DuringStatusAssessment),
            Err(EndingError::GameOver) => verdict.violations.push(Violation::AfterEndOfGame),
            Err(EndingError::WhitePassExpected) => {
                let v = Violation::OutOfTurn {
                    expected: Color::White,
                };
                if !verdict.violations.contains(&v) {
                    verdict.violations.push(v);
                }
            }
            Err(_) => {}
        }
        // UEC Cup, "g) Repetition of a position": "the referee stops the game
        // and declares a draw"; Japanese rules: no result.
        // A position repeated only through an illegal move (a ko retake
        // nobody pointed out) is not a repetition: the illegal-move rule
        // governs it, and play goes on until it is pointed out.
        let through_illegal_move = verdict.violations.iter().any(|v| {
            matches!(
                v,
                Violation::Ko | Violation::Superko(_) | Violation::Suicide
            )
        });
        if verdict.repetition
            && !through_illegal_move
            && matches!(
                self.ruleset.repetition,
                RepetitionRule::Draw | RepetitionRule::NoResult
            )
        {
            verdict
                .events
                .extend(self.ending.declare(GameEnd::Repetition));
        }
        if let Some(EndingEvent::Resumed { first }) = verdict.events.last() {
            self.to_move = *first;
        }
        if matches!(self.ending.phase(), EndingPhase::WhiteToPassLast(_)) {
            self.to_move = Color::White;
        }
    }

    /// The players agree on the status of every group: `dead` stones are dead.
    pub fn agree(&mut self, dead: Vec<Point>) -> Result<Vec<EndingEvent>, EndingError> {
        let events = self.ending.step(EndingInput::Agree(dead))?;
        if matches!(self.ending.phase(), EndingPhase::WhiteToPassLast(_)) {
            self.to_move = Color::White;
        }
        Ok(events)
    }

    /// The players dispute a group's status; play resumes per the ruleset.
    pub fn dispute(&mut self) -> Result<Vec<EndingEvent>, EndingError> {
        let events = self.ending.step(EndingInput::Dispute)?;
        if let Some(EndingEvent::Resumed { first }) = events.last() {
            self.to_move = *first;
        }
        Ok(events)
    }

    /// Counts the position with `dead` stones removed, under the ruleset's
    /// scoring, komi and jigo rule. Dead points that hold no stone are ignored.
    pub fn score(&self, dead: &[Point]) -> Score {
        score_position(
            &self.board,
            dead,
            [self.captures[0], self.captures[1]],
            [self.pass_stones[0], self.pass_stones[1]],
            self.komi,
            self.handicap,
            &self.ruleset,
        )
    }

    /// Counts the game as it ended: agreed dead stones removed, or every stone
    /// alive (also at the move limit, where a referee's list of dead stones can
    /// be given to [`Game::score`] instead). `None` while the game is not over
    /// or when it ended by repetition.
    pub fn final_score(&self) -> Option<Score> {
        match self.ending.phase() {
            EndingPhase::Over(GameEnd::Agreed { dead }) => Some(self.score(dead)),
            EndingPhase::Over(GameEnd::AllStonesAlive | GameEnd::MoveLimit) => {
                Some(self.score(&[]))
            }
            _ => None,
        }
    }
}
