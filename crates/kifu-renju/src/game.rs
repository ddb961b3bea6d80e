//! The game state machine: inputs from the players (and the referee) in, outcomes out.
//!
//! Stones are facts; fives and forbidden moves are verdicts computed when a stone is played
//! and looked up when somebody claims. The game ends only on an explicit input: a declared
//! five, a forbidden move pointed out by White, a resignation, an expired clock, an accepted
//! draw, two passes, or a full board nobody claims on.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::Board;
use crate::forbidden::{verdict, Verdict};
use crate::opening::{
    symmetric_pair, taraguchi_after_offer, taraguchi_after_stone, Actor, FifthCount, OpeningRule,
    Step,
};
use crate::point::{Move, Point, Stone};
use crate::result::{PlayerId, RenjuResult, ResultReason};
use crate::rule::Rule;

/// Settings fixed for the whole game.
#[derive(
    Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
pub struct GameSettings {
    /// Which rows win and whether Black has forbidden moves.
    pub rule: Rule,
    /// The opening procedure.
    pub opening: OpeningRule,
    /// Declare every five as soon as it is made (online play). Off over the board, where
    /// the player must notice and declare it himself.
    pub auto_declare: bool,
    /// Claim every forbidden move of Black as soon as it is made (online play). Off over the
    /// board, where White must point it out.
    pub auto_claim_forbidden: bool,
}

/// The genesis override keys [`GameSettings::apply_override`] knows.
pub const OVERRIDE_KEYS: &[&str] = &["opening"];

impl GameSettings {
    /// Applies one genesis override, the same rule as for Go rulesets:
    /// applied in the order recorded (a later one replaces an earlier one),
    /// unknown keys refused.
    ///
    /// # Errors
    ///
    /// [`crate::Error::UnknownOverride`] for a key not in [`OVERRIDE_KEYS`];
    /// [`crate::Error::UnknownOpening`] for an opening rule not known. The settings
    /// are unchanged on error.
    pub fn apply_override(&mut self, key: &str, value: &str) -> Result<(), crate::Error> {
        match key {
            "opening" => self.opening = value.parse()?,
            other => {
                return Err(crate::Error::UnknownOverride {
                    key: other.to_string(),
                })
            }
        }
        Ok(())
    }
}

/// One input to the game: something a player or the referee did.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "input")]
pub enum GameInput {
    /// Put a stone: an opening stone, Taraguchi's 5th inside 9x9, or a normal move.
    Play {
        /// Who puts the stone.
        by: PlayerId,
        /// Where.
        point: Point,
    },
    /// Give up the move (RIF 5). Not allowed during the opening.
    Pass {
        /// Who passes.
        by: PlayerId,
    },
    /// The swap option of the opening: `swap: true` exchanges the colours of the players.
    Swap {
        /// Who decides.
        by: PlayerId,
        /// Whether the colours are exchanged.
        swap: bool,
    },
    /// Declares how many fifth-move alternatives Black will offer (Yamaguchi, Soosõrv-N).
    DeclareFifthCount {
        /// Who declares.
        by: PlayerId,
        /// The number of alternatives.
        count: u8,
    },
    /// Black offers fifth-move alternatives; no two may give symmetric positions.
    ProposeFifths {
        /// Who offers (the Black player).
        by: PlayerId,
        /// The offered points.
        points: Vec<Point>,
    },
    /// White chooses one of the offered fifth moves; it becomes Black's 5th stone.
    ChooseFifth {
        /// Who chooses (the White player).
        by: PlayerId,
        /// The chosen point.
        point: Point,
    },
    /// The player declares his five ("five", or pointing at the line).
    DeclareFive {
        /// Who declares.
        by: PlayerId,
    },
    /// White points out a forbidden move of Black. `point: None` means Black's last stone.
    ClaimForbidden {
        /// Who claims (must hold White).
        by: PlayerId,
        /// The Black stone claimed to be forbidden.
        point: Option<Point>,
    },
    /// A player disagrees with how the last claim was decided and calls the referee.
    Dispute {
        /// Who disputes.
        by: PlayerId,
    },
    /// The referee decides the disputed claim. The decision is final.
    RefereeRuling {
        /// True when the claim holds.
        upheld: bool,
    },
    /// The player offers a draw, right after his own move.
    OfferDraw {
        /// Who offers.
        by: PlayerId,
    },
    /// The opponent accepts the pending draw offer.
    AcceptDraw {
        /// Who accepts.
        by: PlayerId,
    },
    /// The player resigns.
    Resign {
        /// Who resigns.
        by: PlayerId,
    },
    /// The player's time has run out (as pointed out or shown by the clock).
    TimeExpired {
        /// Whose time ran out.
        player: PlayerId,
    },
}

/// A claim a player made.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "claim")]
pub enum Claim {
    /// A declared five.
    Five {
        /// The claimant.
        by: PlayerId,
    },
    /// A forbidden move pointed out by White.
    Forbidden {
        /// The claimant.
        by: PlayerId,
        /// The claimed point, or `None` for Black's last stone.
        point: Option<Point>,
    },
}

/// Why a claim does not hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "rejection")]
pub enum ClaimRejection {
    /// The claimant has made no five or, for White, no overline.
    NoFive,
    /// The five was not declared before the opponent's next move; the game went on.
    FiveLapsed {
        /// The move that made the five.
        move_number: u16,
    },
    /// There is no Black stone to point at (at that point).
    NoBlackStone {
        /// The point named in the claim.
        point: Option<Point>,
    },
    /// The claimed move was not forbidden when it was played.
    NotForbidden {
        /// The claimed move.
        move_number: u16,
        /// What it actually made.
        verdict: Verdict,
    },
    /// RIF 9.8: White played on after a double-three or double-four and lost the right to
    /// claim it.
    RightLost {
        /// The forbidden move.
        move_number: u16,
        /// Its kind.
        kind: Verdict,
    },
    /// The rule has no forbidden moves (gomoku).
    NoForbiddenMoves,
}

/// What an accepted input did.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    /// A stone was put on the board.
    Placed {
        /// Move number (1 = first stone).
        move_number: u16,
        /// Its colour.
        colour: Stone,
        /// Where.
        point: Point,
        /// What it made, computed now and kept for claims.
        verdict: Verdict,
        /// True when this move rejected the opponent's draw offer.
        draw_offer_rejected: bool,
    },
    /// The player to move passed.
    Passed {
        /// Move number.
        move_number: u16,
        /// The colour that passed.
        colour: Stone,
        /// True when this pass rejected the opponent's draw offer.
        draw_offer_rejected: bool,
    },
    /// A swap decision; `black` holds Black from now on.
    Swapped {
        /// Whether colours were exchanged.
        swapped: bool,
        /// The player holding Black after the decision.
        black: PlayerId,
    },
    /// The number of fifth-move alternatives was declared.
    FifthCountDeclared {
        /// The declared number.
        count: u8,
    },
    /// Fifth-move alternatives are on offer.
    FifthsProposed {
        /// The offered points.
        points: Vec<Point>,
    },
    /// A draw offer is pending until the opponent accepts or moves.
    DrawOffered {
        /// The offering player.
        by: PlayerId,
    },
    /// The claim does not hold; play goes on.
    ClaimRejected {
        /// The claim.
        claim: Claim,
        /// Why.
        reason: ClaimRejection,
    },
    /// The last claim is disputed; only a [`GameInput::RefereeRuling`] is accepted now.
    NeedsReferee {
        /// The disputed claim.
        claim: Claim,
    },
    /// The referee did not uphold the claim; play goes on.
    ClaimOverruled {
        /// The claim.
        claim: Claim,
    },
    /// The game is over.
    Ended(RenjuResult),
}

/// What was wrong with an input. The game is unchanged after an error.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum GameError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A disputed claim waits for the referee.
    #[error("a disputed claim waits for the referee's ruling")]
    AwaitingReferee,
    /// Another player must act.
    #[error("it is {expected}'s turn to act")]
    NotYourTurn {
        /// The player who must act.
        expected: PlayerId,
    },
    /// This kind of input does not fit the game's current stage.
    #[error("{input} is not expected now: {waiting}")]
    OutOfOrder {
        /// The input kind.
        input: &'static str,
        /// What the game waits for.
        waiting: String,
    },
    /// The point already holds a stone.
    #[error("point {point} is occupied")]
    Occupied {
        /// The point.
        point: Point,
    },
    /// An opening stone outside its central square.
    #[error("stone {number} must be inside the central {size}x{size} square; {point} is not")]
    OutsideRegion {
        /// Stone number.
        number: u8,
        /// Side of the central square.
        size: u8,
        /// The point given.
        point: Point,
    },
    /// A declared number of fifth moves out of range.
    #[error("fifth-move count {count} is outside 1 to {max}")]
    BadFifthCount {
        /// The count given.
        count: u8,
        /// The largest allowed.
        max: u8,
    },
    /// The wrong number of fifth moves offered.
    #[error("{given} fifth moves offered; {required} required")]
    WrongFifthCount {
        /// How many were offered.
        given: usize,
        /// How many the rule or declaration requires.
        required: u8,
    },
    /// Two offered fifth moves are the same point.
    #[error("fifth move {point} offered twice")]
    DuplicateFifth {
        /// The point.
        point: Point,
    },
    /// Two offered fifth moves give symmetric positions.
    #[error("offered fifth moves {first} and {second} are symmetric")]
    SymmetricFifths {
        /// One point.
        first: Point,
        /// The point equivalent to it.
        second: Point,
    },
    /// The chosen fifth move was not offered.
    #[error("{point} is not among the offered fifth moves")]
    NotOffered {
        /// The point.
        point: Point,
    },
    /// RIF: no pass during the opening.
    #[error("no pass is allowed during the opening")]
    PassInOpening,
    /// A forbidden move can only be claimed by the White player.
    #[error("only the White player ({white}) may point out a forbidden move")]
    NotWhite {
        /// The White player.
        white: PlayerId,
    },
    /// A draw may be offered only right after one's own move, once per move.
    #[error("a draw may be offered only right after one's own move")]
    DrawOfferNotAllowed,
    /// No draw offer of the opponent is pending.
    #[error("no draw offer from the opponent is pending")]
    NoDrawOffer,
    /// There is no decided claim to dispute.
    #[error("there is no claim to dispute")]
    NothingToDispute,
    /// A ruling arrived with no disputed claim.
    #[error("no claim waits for a ruling")]
    NoPendingRuling,
    /// The referee upheld a claim that names no stone to base a result on.
    #[error("the upheld claim names no stone; no result can follow from it")]
    NothingToUphold,
}

/// A move as recorded: number, colour, the stone or pass, and the verdict computed when it
/// was played (None for a pass).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MoveRecord {
    /// Move number, 1 = first stone.
    pub number: u16,
    /// The colour that moved.
    pub colour: Stone,
    /// The stone or the pass.
    pub mv: Move,
    /// What the stone made, under the game's rule, on the board before it.
    pub verdict: Option<Verdict>,
}

/// What the game waits for next.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case", tag = "expected")]
pub enum Expected {
    /// An opening stone inside the central `region` x `region` square (15 = anywhere).
    OpeningStone {
        /// Stone number.
        number: u8,
        /// Who places it.
        by: PlayerId,
        /// Side of the central square.
        region: u8,
    },
    /// A swap decision.
    SwapDecision {
        /// Who decides.
        by: PlayerId,
    },
    /// A declared number of fifth-move alternatives.
    FifthCount {
        /// Who declares.
        by: PlayerId,
        /// Largest allowed count.
        max: u8,
    },
    /// Fifth-move alternatives.
    FifthProposals {
        /// Who offers.
        by: PlayerId,
        /// How many.
        count: u8,
    },
    /// Taraguchi: the 5th stone inside the central square, or `count` alternatives.
    FifthStoneOrProposals {
        /// Who decides.
        by: PlayerId,
        /// Side of the central square for the stone.
        region: u8,
        /// Number of alternatives for the offer.
        count: u8,
    },
    /// White's choice among the offered fifth moves.
    FifthChoice {
        /// Who chooses.
        by: PlayerId,
        /// The offered points.
        offered: Vec<Point>,
    },
    /// A normal move (or a claim, a draw offer, a resignation).
    Move {
        /// Who moves.
        by: PlayerId,
        /// With which colour.
        colour: Stone,
    },
    /// The referee's ruling on a disputed claim.
    RefereeRuling,
    /// Nothing: the game is over.
    Nothing,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Opening,
    Play,
    AwaitingReferee,
    Ended,
}

/// A decided claim, open to dispute until the next move.
#[derive(Clone, PartialEq, Eq, Debug)]
struct DecidedClaim {
    claim: Claim,
    /// The result the claim asks for, when it names a stone.
    if_upheld: Option<RenjuResult>,
    /// Whether the claim ended the game.
    ended_game: bool,
}

/// A renju or gomoku game, driven by [`GameInput`]s.
///
/// ```
/// use kifu_renju::{GameInput, GameSettings, Outcome, PlayerId, RenjuGame, ResultReason};
/// let mut game = RenjuGame::new(GameSettings::default());
/// let p = |s: &str| s.parse().unwrap();
/// let (b, w) = (PlayerId::First, PlayerId::Second);
/// for (by, at) in [(b, "h8"), (w, "a1"), (b, "i8"), (w, "a2"), (b, "j8"), (w, "a3"), (b, "k8"), (w, "a4"), (b, "l8")] {
///     game.apply(GameInput::Play { by, point: p(at) }).unwrap();
/// }
/// // Five on the board, but the game is not over until Black declares it.
/// assert!(game.result().is_none());
/// let out = game.apply(GameInput::DeclareFive { by: b }).unwrap();
/// assert!(matches!(out, Outcome::Ended(r) if matches!(r.reason, ResultReason::Five { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenjuGame {
    settings: GameSettings,
    board: Board,
    moves: Vec<MoveRecord>,
    black: PlayerId,
    phase: Phase,
    script: Vec<Step>,
    step: usize,
    last_placer: PlayerId,
    declared: Option<u8>,
    offered: Vec<Point>,
    draw_offer: Option<PlayerId>,
    passes: u8,
    decided_claim: Option<DecidedClaim>,
    result: Option<RenjuResult>,
}

impl std::fmt::Display for Expected {
    /// In words: `the second player to move with White`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::OpeningStone { number, by, region } => write!(
                f,
                "the {by} player to place opening stone {number} within the central {region}x{region} square"
            ),
            Expected::SwapDecision { by } => write!(f, "the {by} player to decide whether to swap"),
            Expected::FifthCount { by, max } => write!(
                f,
                "the {by} player to declare how many fifth moves he offers (at most {max})"
            ),
            Expected::FifthProposals { by, count } => {
                write!(f, "the {by} player to offer {count} fifth move(s)")
            }
            Expected::FifthStoneOrProposals { by, region, count } => write!(
                f,
                "the {by} player to place the fifth stone within the central {region}x{region} square or offer {count} alternatives"
            ),
            Expected::FifthChoice { by, offered } => write!(
                f,
                "the {by} player to choose one of the {} fifth moves offered",
                offered.len()
            ),
            Expected::Move { by, colour } => {
                write!(f, "the {by} player to move, with {colour}")
            }
            Expected::RefereeRuling => f.write_str("the referee's ruling on the disputed claim"),
            Expected::Nothing => f.write_str("nothing: the game is over"),
        }
    }
}

impl RenjuGame {
    /// A new game with an empty board. The first player holds Black until a swap says otherwise.
    pub fn new(settings: GameSettings) -> RenjuGame {
        let script = settings.opening.script();
        let phase = if script.is_empty() {
            Phase::Play
        } else {
            Phase::Opening
        };
        RenjuGame {
            settings,
            board: Board::new(),
            moves: Vec::new(),
            black: PlayerId::First,
            phase,
            script,
            step: 0,
            last_placer: PlayerId::First,
            declared: None,
            offered: Vec::new(),
            draw_offer: None,
            passes: 0,
            decided_claim: None,
            result: None,
        }
    }

    /// Applies the inputs in order; on the first error returns its index and the error.
    pub fn replay<I>(settings: GameSettings, inputs: I) -> Result<RenjuGame, (usize, GameError)>
    where
        I: IntoIterator<Item = GameInput>,
    {
        let mut game = RenjuGame::new(settings);
        for (i, input) in inputs.into_iter().enumerate() {
            game.apply(input).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// The settings.
    pub fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// All moves so far, opening stones included.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// The player holding Black now.
    pub fn black_player(&self) -> PlayerId {
        self.black
    }

    /// The player holding `colour` now.
    pub fn player_of(&self, colour: Stone) -> PlayerId {
        match colour {
            Stone::Black => self.black,
            Stone::White => self.black.opponent(),
        }
    }

    /// The colour `player` holds now.
    pub fn colour_of(&self, player: PlayerId) -> Stone {
        if player == self.black {
            Stone::Black
        } else {
            Stone::White
        }
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<&RenjuResult> {
        self.result.as_ref()
    }

    /// The player whose draw offer is pending, if any.
    pub fn draw_offer(&self) -> Option<PlayerId> {
        self.draw_offer
    }

    /// The colour to make the next normal move.
    fn colour_to_move(&self) -> Stone {
        self.moves
            .last()
            .map_or(Stone::Black, |m| m.colour.opponent())
    }

    fn resolve(&self, actor: Actor) -> PlayerId {
        match actor {
            Actor::First => PlayerId::First,
            Actor::Holder(c) => self.player_of(c),
            Actor::Other => self.last_placer.opponent(),
        }
    }

    fn required_fifths(&self, count: FifthCount) -> u8 {
        match count {
            FifthCount::Fixed(n) => n,
            FifthCount::Declared => self.declared.unwrap_or(1),
        }
    }

    /// What the game waits for next.
    pub fn expected(&self) -> Expected {
        match self.phase {
            Phase::Ended => Expected::Nothing,
            Phase::AwaitingReferee => Expected::RefereeRuling,
            Phase::Play => {
                let colour = self.colour_to_move();
                Expected::Move {
                    by: self.player_of(colour),
                    colour,
                }
            }
            Phase::Opening => match self.script.get(self.step) {
                None => Expected::Nothing,
                Some(&step) => match step {
                    Step::Place { number, by, region } => Expected::OpeningStone {
                        number,
                        by: self.resolve(by),
                        region,
                    },
                    Step::Swap { by } => Expected::SwapDecision {
                        by: self.resolve(by),
                    },
                    Step::DeclareCount { by, max } => Expected::FifthCount {
                        by: self.resolve(by),
                        max,
                    },
                    Step::Propose { by, count } => Expected::FifthProposals {
                        by: self.resolve(by),
                        count: self.required_fifths(count),
                    },
                    Step::Choose { by } => Expected::FifthChoice {
                        by: self.resolve(by),
                        offered: self.offered.clone(),
                    },
                    Step::FifthOrOffer { by, region, count } => Expected::FifthStoneOrProposals {
                        by: self.resolve(by),
                        region,
                        count,
                    },
                },
            },
        }
    }

    fn out_of_order(&self, input: &'static str) -> GameError {
        GameError::OutOfOrder {
            input,
            waiting: self.expected().to_string(),
        }
    }

    /// Applies one input. On error nothing changes.
    pub fn apply(&mut self, input: GameInput) -> Result<Outcome, GameError> {
        match self.phase {
            Phase::Ended => {
                // Only a game ended by a claim can be reopened, by disputing that claim.
                let by_claim = self.decided_claim.as_ref().is_some_and(|d| d.ended_game);
                return match input {
                    GameInput::Dispute { by } if by_claim => self.dispute(by),
                    _ => Err(GameError::GameOver),
                };
            }
            Phase::AwaitingReferee => {
                return match input {
                    GameInput::RefereeRuling { upheld } => self.ruling(upheld),
                    _ => Err(GameError::AwaitingReferee),
                }
            }
            Phase::Opening | Phase::Play => {}
        }
        match input {
            GameInput::Resign { by } => Ok(self.end(RenjuResult::win(
                by.opponent(),
                self.colour_of(by.opponent()),
                ResultReason::Resignation,
            ))),
            GameInput::TimeExpired { player } => Ok(self.end(RenjuResult::win(
                player.opponent(),
                self.colour_of(player.opponent()),
                ResultReason::TimeExpired,
            ))),
            GameInput::RefereeRuling { .. } => Err(GameError::NoPendingRuling),
            GameInput::Dispute { by } => self.dispute(by),
            input if self.phase == Phase::Opening => self.apply_opening(input),
            GameInput::Play { by, point } => self.play(by, Move::Stone(point)),
            GameInput::Pass { by } => self.play(by, Move::Pass),
            GameInput::DeclareFive { by } => Ok(self.declare_five(by)),
            GameInput::ClaimForbidden { by, point } => self.claim_forbidden(by, point),
            GameInput::OfferDraw { by } => self.offer_draw(by),
            GameInput::AcceptDraw { by } => {
                if self.draw_offer != Some(by.opponent()) {
                    return Err(GameError::NoDrawOffer);
                }
                // RIF 10.2: a draw by agreement.
                Ok(self.end(RenjuResult::draw(ResultReason::DrawAgreed)))
            }
            GameInput::Swap { .. } => Err(self.out_of_order("swap")),
            GameInput::DeclareFifthCount { .. } => Err(self.out_of_order("declare_fifth_count")),
            GameInput::ProposeFifths { .. } => Err(self.out_of_order("propose_fifths")),
            GameInput::ChooseFifth { .. } => Err(self.out_of_order("choose_fifth")),
        }
    }

    fn end(&mut self, result: RenjuResult) -> Outcome {
        self.phase = Phase::Ended;
        self.draw_offer = None;
        self.result = Some(result.clone());
        Outcome::Ended(result)
    }

    /// Puts a stone of `colour` on `point`, recording the verdict computed before it.
    fn put(&mut self, point: Point, colour: Stone) -> Result<(u16, Verdict), GameError> {
        let v = verdict(&self.board, point, colour, self.settings.rule)
            .map_err(|_| GameError::Occupied { point })?;
        self.board
            .place(point, colour)
            .map_err(|_| GameError::Occupied { point })?;
        let number = self.next_number();
        self.moves.push(MoveRecord {
            number,
            colour,
            mv: Move::Stone(point),
            verdict: Some(v),
        });
        Ok((number, v))
    }

    fn next_number(&self) -> u16 {
        // At most 225 stones plus passes; two passes in a row end the game, so this stays
        // far below u16::MAX.
        u16::try_from(self.moves.len() + 1).unwrap_or(u16::MAX)
    }

    fn advance_opening(&mut self) {
        self.step += 1;
        if self.step >= self.script.len() {
            self.phase = Phase::Play;
        }
    }

    fn apply_opening(&mut self, input: GameInput) -> Result<Outcome, GameError> {
        let Some(&step) = self.script.get(self.step) else {
            return Err(self.out_of_order("opening input"));
        };
        match (input, step) {
            (
                GameInput::Play { by, point },
                Step::Place {
                    by: actor, region, ..
                },
            )
            | (
                GameInput::Play { by, point },
                Step::FifthOrOffer {
                    by: actor, region, ..
                },
            ) => {
                let expected = self.resolve(actor);
                if by != expected {
                    return Err(GameError::NotYourTurn { expected });
                }
                let number = match step {
                    Step::Place { number, .. } => number,
                    _ => 5,
                };
                if !self.board.is_empty_at(point) {
                    return Err(GameError::Occupied { point });
                }
                // RIF opening: 1st at the centre, 2nd adjacent, 3rd in the central 5x5;
                // Taraguchi: 4th in 7x7, 5th in 9x9.
                if !point.in_central_square(region) {
                    return Err(GameError::OutsideRegion {
                        number,
                        size: region,
                        point,
                    });
                }
                let colour = if number % 2 == 1 {
                    Stone::Black
                } else {
                    Stone::White
                };
                let (move_number, verdict) = self.put(point, colour)?;
                self.last_placer = by;
                if matches!(step, Step::FifthOrOffer { .. }) {
                    self.script.truncate(self.step + 1);
                    self.script.extend(taraguchi_after_stone());
                }
                self.advance_opening();
                Ok(Outcome::Placed {
                    move_number,
                    colour,
                    point,
                    verdict,
                    draw_offer_rejected: false,
                })
            }
            (GameInput::Swap { by, swap }, Step::Swap { by: actor }) => {
                let expected = self.resolve(actor);
                if by != expected {
                    return Err(GameError::NotYourTurn { expected });
                }
                if swap {
                    self.black = self.black.opponent();
                }
                self.advance_opening();
                Ok(Outcome::Swapped {
                    swapped: swap,
                    black: self.black,
                })
            }
            (GameInput::DeclareFifthCount { by, count }, Step::DeclareCount { by: actor, max }) => {
                let expected = self.resolve(actor);
                if by != expected {
                    return Err(GameError::NotYourTurn { expected });
                }
                if !(1..=max).contains(&count) {
                    return Err(GameError::BadFifthCount { count, max });
                }
                self.declared = Some(count);
                self.advance_opening();
                Ok(Outcome::FifthCountDeclared { count })
            }
            (GameInput::ProposeFifths { by, points }, Step::Propose { by: actor, .. })
            | (GameInput::ProposeFifths { by, points }, Step::FifthOrOffer { by: actor, .. }) => {
                let expected = self.resolve(actor);
                if by != expected {
                    return Err(GameError::NotYourTurn { expected });
                }
                let required = match step {
                    Step::Propose { count, .. } => self.required_fifths(count),
                    Step::FifthOrOffer { count, .. } => count,
                    _ => 0,
                };
                self.check_proposals(&points, required)?;
                if matches!(step, Step::FifthOrOffer { .. }) {
                    self.script.truncate(self.step + 1);
                    self.script.extend(taraguchi_after_offer());
                }
                self.offered = points.clone();
                self.last_placer = by;
                self.advance_opening();
                Ok(Outcome::FifthsProposed { points })
            }
            (GameInput::ChooseFifth { by, point }, Step::Choose { by: actor }) => {
                let expected = self.resolve(actor);
                if by != expected {
                    return Err(GameError::NotYourTurn { expected });
                }
                if !self.offered.contains(&point) {
                    return Err(GameError::NotOffered { point });
                }
                let (move_number, verdict) = self.put(point, Stone::Black)?;
                self.offered.clear();
                self.advance_opening();
                Ok(Outcome::Placed {
                    move_number,
                    colour: Stone::Black,
                    point,
                    verdict,
                    draw_offer_rejected: false,
                })
            }
            (GameInput::Pass { .. }, _) => Err(GameError::PassInOpening),
            (input, _) => Err(self.out_of_order(input_name(&input))),
        }
    }

    fn check_proposals(&self, points: &[Point], required: u8) -> Result<(), GameError> {
        if points.len() != usize::from(required) {
            return Err(GameError::WrongFifthCount {
                given: points.len(),
                required,
            });
        }
        for (i, &p) in points.iter().enumerate() {
            if !self.board.is_empty_at(p) {
                return Err(GameError::Occupied { point: p });
            }
            if points[..i].contains(&p) {
                return Err(GameError::DuplicateFifth { point: p });
            }
        }
        // RIF opening: "symmetrical moves are not allowed" among the offered fifth moves.
        if let Some((first, second)) = symmetric_pair(&self.board, points) {
            return Err(GameError::SymmetricFifths { first, second });
        }
        Ok(())
    }

    fn play(&mut self, by: PlayerId, mv: Move) -> Result<Outcome, GameError> {
        let colour = self.colour_to_move();
        let expected = self.player_of(colour);
        if by != expected {
            return Err(GameError::NotYourTurn { expected });
        }
        // RIF tournament rules: the draw offer "is rejected" when the opponent plays his
        // next move instead of accepting.
        let draw_offer_rejected = self.draw_offer == Some(by.opponent());
        let outcome = match mv {
            Move::Stone(point) => {
                let (move_number, verdict) = self.put(point, colour)?;
                self.passes = 0;
                Outcome::Placed {
                    move_number,
                    colour,
                    point,
                    verdict,
                    draw_offer_rejected,
                }
            }
            Move::Pass => {
                let move_number = self.next_number();
                self.moves.push(MoveRecord {
                    number: move_number,
                    colour,
                    mv: Move::Pass,
                    verdict: None,
                });
                self.passes += 1;
                Outcome::Passed {
                    move_number,
                    colour,
                    draw_offer_rejected,
                }
            }
        };
        self.draw_offer = None;
        self.decided_claim = None;

        if let Outcome::Placed {
            move_number,
            point,
            verdict,
            ..
        } = outcome
        {
            if verdict.is_win() && self.settings.auto_declare {
                return Ok(self.end(RenjuResult::win(
                    by,
                    colour,
                    ResultReason::Five { move_number, point },
                )));
            }
            if verdict.is_forbidden() && self.settings.auto_claim_forbidden {
                return Ok(self.end(RenjuResult::win(
                    by.opponent(),
                    Stone::White,
                    ResultReason::ForbiddenMove {
                        move_number,
                        point,
                        kind: verdict,
                    },
                )));
            }
            // RIF 10.1: a full board is a draw when nobody claims victory; when no claim
            // could hold, nobody can claim and the draw is immediate.
            if self.board.is_full() && !self.claim_possible() {
                return Ok(self.end(RenjuResult::draw(ResultReason::FullBoard)));
            }
        } else {
            // RIF 10.3: two passes in succession.
            if self.passes >= 2 {
                return Ok(self.end(RenjuResult::draw(ResultReason::TwoPasses)));
            }
            // On a full board the only move is a pass: the player played on without a claim.
            if self.board.is_full() {
                return Ok(self.end(RenjuResult::draw(ResultReason::FullBoard)));
            }
        }
        Ok(outcome)
    }

    /// Whether any claim would hold now: a five of the last mover, the last Black move
    /// forbidden, or an overline of Black earlier in the game.
    fn claim_possible(&self) -> bool {
        let last_win = self
            .moves
            .last()
            .and_then(|m| m.verdict)
            .is_some_and(Verdict::is_win);
        let last_forbidden = self
            .moves
            .last()
            .and_then(|m| m.verdict)
            .is_some_and(Verdict::is_forbidden);
        let overline = self
            .moves
            .iter()
            .any(|m| m.verdict == Some(Verdict::Overline));
        last_win || last_forbidden || overline
    }

    fn decide(
        &mut self,
        claim: Claim,
        if_upheld: Option<RenjuResult>,
        holds: Result<(), ClaimRejection>,
    ) -> Outcome {
        match (holds, if_upheld.clone()) {
            (Ok(()), Some(result)) => {
                self.decided_claim = Some(DecidedClaim {
                    claim,
                    if_upheld,
                    ended_game: true,
                });
                self.end(result)
            }
            (Err(reason), _) => {
                self.decided_claim = Some(DecidedClaim {
                    claim,
                    if_upheld,
                    ended_game: false,
                });
                Outcome::ClaimRejected { claim, reason }
            }
            (Ok(()), None) => {
                self.decided_claim = Some(DecidedClaim {
                    claim,
                    if_upheld: None,
                    ended_game: false,
                });
                Outcome::ClaimRejected {
                    claim,
                    reason: ClaimRejection::NoFive,
                }
            }
        }
    }

    fn declare_five(&mut self, by: PlayerId) -> Outcome {
        let colour = self.colour_of(by);
        let claim = Claim::Five { by };
        let latest_win = self
            .moves
            .iter()
            .rposition(|m| m.colour == colour && m.verdict.is_some_and(Verdict::is_win));
        let Some(index) = latest_win else {
            return self.decide(claim, None, Err(ClaimRejection::NoFive));
        };
        let record = self.moves[index];
        let Move::Stone(point) = record.mv else {
            return self.decide(claim, None, Err(ClaimRejection::NoFive));
        };
        let result = RenjuResult::win(
            by,
            colour,
            ResultReason::Five {
                move_number: record.number,
                point,
            },
        );
        // RIF tournament rules: "If the player does not notice his winning five, the game
        // continues": once the opponent has moved, that five no longer wins.
        let holds = if index + 1 == self.moves.len() {
            Ok(())
        } else {
            Err(ClaimRejection::FiveLapsed {
                move_number: record.number,
            })
        };
        self.decide(claim, Some(result), holds)
    }

    fn claim_forbidden(
        &mut self,
        by: PlayerId,
        point: Option<Point>,
    ) -> Result<Outcome, GameError> {
        let white = self.player_of(Stone::White);
        if by != white {
            return Err(GameError::NotWhite { white });
        }
        let claim = Claim::Forbidden { by, point };
        let target = self.moves.iter().rposition(|m| {
            m.colour == Stone::Black
                && match (m.mv, point) {
                    (Move::Stone(at), Some(p)) => at == p,
                    (Move::Stone(_), None) => true,
                    (Move::Pass, _) => false,
                }
        });
        let Some(index) = target else {
            return Ok(self.decide(claim, None, Err(ClaimRejection::NoBlackStone { point })));
        };
        let record = self.moves[index];
        let (Move::Stone(at), Some(kind)) = (record.mv, record.verdict) else {
            return Ok(self.decide(claim, None, Err(ClaimRejection::NoBlackStone { point })));
        };
        let result = RenjuResult::win(
            by,
            Stone::White,
            ResultReason::ForbiddenMove {
                move_number: record.number,
                point: at,
                kind,
            },
        );
        let holds = if !self.settings.rule.has_forbidden_moves(Stone::Black) {
            Err(ClaimRejection::NoForbiddenMoves)
        } else if !kind.is_forbidden() {
            // RIF 9.2: a five made at the same time is never forbidden.
            Err(ClaimRejection::NotForbidden {
                move_number: record.number,
                verdict: kind,
            })
        } else if kind != Verdict::Overline && index + 1 != self.moves.len() {
            // RIF 9.8: White played on after a double-three or double-four; the right to
            // claim it is lost. An overline stays claimable while the game goes on.
            Err(ClaimRejection::RightLost {
                move_number: record.number,
                kind,
            })
        } else {
            Ok(())
        };
        Ok(self.decide(claim, Some(result), holds))
    }

    fn offer_draw(&mut self, by: PlayerId) -> Result<Outcome, GameError> {
        // RIF tournament rules: "The player has the right to offer a draw only after his
        // move (while opponent's clock is running)".
        let after_own_move = self
            .moves
            .last()
            .is_some_and(|m| m.colour == self.colour_of(by));
        if !after_own_move || self.draw_offer.is_some() {
            return Err(GameError::DrawOfferNotAllowed);
        }
        self.draw_offer = Some(by);
        Ok(Outcome::DrawOffered { by })
    }

    fn dispute(&mut self, _by: PlayerId) -> Result<Outcome, GameError> {
        let Some(decided) = self.decided_claim.clone() else {
            return Err(GameError::NothingToDispute);
        };
        if decided.ended_game {
            self.result = None;
        }
        self.phase = Phase::AwaitingReferee;
        Ok(Outcome::NeedsReferee {
            claim: decided.claim,
        })
    }

    fn ruling(&mut self, upheld: bool) -> Result<Outcome, GameError> {
        let Some(decided) = self.decided_claim.clone() else {
            return Err(GameError::NoPendingRuling);
        };
        if upheld {
            let Some(mut result) = decided.if_upheld else {
                return Err(GameError::NothingToUphold);
            };
            result.ruled_by_referee = true;
            // The referee's decisions are final: no further dispute.
            self.decided_claim = None;
            Ok(self.end(result))
        } else {
            self.decided_claim = None;
            self.phase = Phase::Play;
            Ok(Outcome::ClaimOverruled {
                claim: decided.claim,
            })
        }
    }
}

fn input_name(input: &GameInput) -> &'static str {
    match input {
        GameInput::Play { .. } => "play",
        GameInput::Pass { .. } => "pass",
        GameInput::Swap { .. } => "swap",
        GameInput::DeclareFifthCount { .. } => "declare_fifth_count",
        GameInput::ProposeFifths { .. } => "propose_fifths",
        GameInput::ChooseFifth { .. } => "choose_fifth",
        GameInput::DeclareFive { .. } => "declare_five",
        GameInput::ClaimForbidden { .. } => "claim_forbidden",
        GameInput::Dispute { .. } => "dispute",
        GameInput::RefereeRuling { .. } => "referee_ruling",
        GameInput::OfferDraw { .. } => "offer_draw",
        GameInput::AcceptDraw { .. } => "accept_draw",
        GameInput::Resign { .. } => "resign",
        GameInput::TimeExpired { .. } => "time_expired",
    }
}
