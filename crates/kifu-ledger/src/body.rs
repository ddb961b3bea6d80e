//! The facts a game chain records.
//!
//! Each variant of [`Body`] is one kind of fact. The postcard encoding of a
//! body starts with the variant's index as a varint, so **variants are only ever
//! appended**: reordering or changing one would change the meaning of recorded
//! archives. `docs/FORMAT.md` lists the index of every kind.

use serde::{Deserialize, Serialize};

use crate::key::PublicKey;
/// A time control, as recorded in a game's genesis event.
///
/// All durations are integer milliseconds. The serde shape of this type is
/// part of the byte format (`docs/FORMAT.md`): variants may be appended,
/// never reordered or changed. The clock that runs it lives in `kifu-clock`;
/// the game projection converts one to the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock.
    Untimed,
    /// Sudden death (absolute): fixed main time, no overtime.
    SuddenDeath {
        /// Main time.
        main_ms: u64,
    },
    /// Fischer: main time plus an increment after every move completed in time.
    Fischer {
        /// Main time.
        main_ms: u64,
        /// Added after each move completed in time, from move 1.
        increment_ms: u64,
        /// Optional cap on the time a player may accumulate.
        max_ms: Option<u64>,
    },
    /// Simple: a fixed time per move, nothing carried over.
    Simple {
        /// Time per move.
        per_move_ms: u64,
    },
    /// Japanese byo-yomi: main time, then `periods` periods of `period_ms`.
    Byoyomi {
        /// Main time.
        main_ms: u64,
        /// Number of periods.
        periods: u32,
        /// Length of one period.
        period_ms: u64,
    },
    /// Canadian: main time, then blocks of `stones` moves in `block_ms`.
    Canadian {
        /// Main time.
        main_ms: u64,
        /// Moves to play in each block.
        stones: u32,
        /// Length of one block.
        block_ms: u64,
    },
}

impl TimeControl {
    /// The main (basic) time, 0 for simple time and no clock.
    pub fn main_ms(&self) -> u64 {
        match *self {
            TimeControl::Untimed | TimeControl::Simple { .. } => 0,
            TimeControl::SuddenDeath { main_ms }
            | TimeControl::Fischer { main_ms, .. }
            | TimeControl::Byoyomi { main_ms, .. }
            | TimeControl::Canadian { main_ms, .. } => main_ms,
        }
    }
}

pub use crate::tournament::{
    AbsenceReason, BoardResult, Checkpoint, DrawRules, DrawSwap, Pairing, PairingSystem,
    Registration, RoundDrawn, TournamentGenesis,
};

/// A stone colour, and also the name of a player's seat in the genesis roster.
///
/// In Renju the colours may change hands during the opening (swaps); there
/// `Black` names the tentative first player as registered, and the projection
/// says who holds which colour at each moment.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// Black.
    Black,
    /// White.
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"B"` or `"W"`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

/// A board point: `x` is the column from the left, `y` the row from the top,
/// both starting at 0 (the SGF convention; `aa` is `{x: 0, y: 0}`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
pub struct Point {
    /// Column, 0 = left.
    pub x: u8,
    /// Row, 0 = top.
    pub y: u8,
}

/// What game is played on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Go.
    Go,
    /// Renju (RIF rules).
    Renju,
    /// Gomoku, five or more wins.
    GomokuFreestyle,
    /// Gomoku, exactly five wins.
    GomokuStandard,
}

/// A role a key may hold in a game.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The player registered as Black.
    Black,
    /// The player registered as White.
    White,
    /// A referee of the game.
    Referee,
    /// A recording device, or the server that referees an engine game.
    Recorder,
    /// The tournament director.
    Director,
    /// A member (or reserve) of the appeals committee.
    Committee,
}

impl Role {
    /// The player's colour for `Black` and `White`.
    pub fn player_color(self) -> Option<Color> {
        match self {
            Role::Black => Some(Color::Black),
            Role::White => Some(Color::White),
            _ => None,
        }
    }
}

/// One entry of the roster: a name, a role and the key that signs for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Participant {
    /// What the key may sign for.
    pub role: Role,
    /// The person's, program's or device's name.
    pub name: String,
    /// The ed25519 key.
    pub key: PublicKey,
}

/// Where the game stands in a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TournamentRef {
    /// The tournament's id or name.
    pub tournament: String,
    /// Round number, from 1.
    pub round: u32,
    /// Board number, from 1.
    pub board: u32,
}

/// The first event of a game chain: everything that fixes the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Genesis {
    /// Go, Renju or Gomoku.
    pub game: GameKind,
    /// Ruleset profile name (`lgc-2023`, `london-open`, `bga-aga`, `uec-cup`,
    /// `rif-renju`, ...).
    pub ruleset: String,
    /// Stated departures from the profile, as `(field, value)` pairs.
    pub overrides: Vec<(String, String)>,
    /// Board size (lines).
    pub board_size: u8,
    /// Number of handicap stones (0 for an even game).
    pub handicap: u8,
    /// Komi in half points (15 means 7.5).
    pub komi_half_points: i32,
    /// Time control.
    pub time_control: TimeControl,
    /// Everybody who may sign in this game, with their role.
    pub roster: Vec<Participant>,
    /// The game's place in a tournament, if any.
    pub tournament: Option<TournamentRef>,
    /// Free text naming the game (event, date), so that two otherwise equal
    /// games get different ids.
    pub title: String,
    /// Renju online play: fives are declared automatically.
    pub auto_declare: bool,
}

impl Genesis {
    /// The roles `key` holds in this game (empty when it is not in the roster).
    pub fn roles_of(&self, key: &PublicKey) -> Vec<Role> {
        self.roster
            .iter()
            .filter(|p| &p.key == key)
            .map(|p| p.role)
            .collect()
    }

    /// The participant holding `role` first in the roster.
    pub fn holder(&self, role: Role) -> Option<&Participant> {
        self.roster.iter().find(|p| p.role == role)
    }

    /// True when this is the genesis of the log operator's own chain for
    /// `origin`, held by `operator` (`docs/FORMAT.md` section 9,
    /// `docs/TRANSPARENCY.md` section 8): go, `lgc-2023`, 19 lines, no
    /// handicap, komi 0, untimed, no tournament, title
    /// [`LOG_OPERATOR_TITLE`] followed by the origin, and a roster of the
    /// operator's key alone as `recorder`, named `log operator`.
    pub fn is_log_operator_chain(&self, origin: &str, operator: &PublicKey) -> bool {
        self.game == GameKind::Go
            && self.ruleset == LOG_OPERATOR_RULESET
            && self.overrides.is_empty()
            && self.board_size == 19
            && self.handicap == 0
            && self.komi_half_points == 0
            && self.time_control == TimeControl::Untimed
            && self.tournament.is_none()
            && !self.auto_declare
            && self.title.strip_prefix(LOG_OPERATOR_TITLE) == Some(origin)
            && matches!(self.roster.as_slice(), [p] if p.role == Role::Recorder
                && p.name == LOG_OPERATOR_NAME
                && &p.key == operator)
    }
}

/// The ruleset named in the genesis of the log operator's own chain: the
/// format fixes it (`docs/FORMAT.md` section 9: go, `lgc-2023`, 19 lines, no
/// handicap, komi 0, untimed). It is part of what identifies that chain and
/// does not follow any default profile of the rules.
pub const LOG_OPERATOR_RULESET: &str = "lgc-2023";

/// The kind index of `game_created`, a game chain's genesis
/// (`docs/FORMAT.md` section 4).
pub const GAME_CREATED_KIND: u32 = 0;

/// The kind index of `tournament_created`, a tournament chain's genesis
/// (`docs/FORMAT.md` section 10).
pub const TOURNAMENT_CREATED_KIND: u32 = 44;

/// The title of a log operator's chain is this, followed by the log's
/// origin (`docs/TRANSPARENCY.md` section 8).
pub const LOG_OPERATOR_TITLE: &str = "kifu log operator ";

/// The name of the log operator's roster entry in its own chain.
pub const LOG_OPERATOR_NAME: &str = "log operator";

/// Why both clocks were stopped (LGC 2023, "Pausing the clocks").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// After successive passes, at each assessment of the status of groups.
    StatusAssessment,
    /// At the start of counting.
    Counting,
    /// To reset the clock or count overtime stones.
    ResetClock,
    /// A toilet visit shortly before or during overtime.
    Toilet,
    /// To remove three or more stones without liberties.
    RemoveStones,
    /// The clock malfunctions.
    ClockMalfunction,
    /// Formal adjournment.
    Adjournment,
    /// Fetching and completing a sealing form.
    Sealing,
    /// Calling an absent referee.
    CallReferee,
    /// The referee's arbitration or rule clarification.
    Arbitration,
    /// An urgent announcement.
    Announcement,
    /// Anything else, in words.
    Other(String),
}

/// How a player resigned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Resignation {
    /// Said so, or stopped the clocks and offered the hand.
    Spoken,
    /// Placed two or more stones on the board at once (LGC 2023, "End of the game").
    TwoStones,
    /// A program or its operator resigned.
    Program,
}

/// What a finished game came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// One colour won.
    Win(Color),
    /// Drawn (jigo in Go).
    Draw,
    /// Both players lost (double forfeit).
    BothLose,
    /// No result (void game).
    NoResult,
}

/// How a result came about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum ResultBy {
    /// The loser resigned.
    Resignation,
    /// Loss on time.
    Time,
    /// Forfeit (absence, sanction, late arrival).
    Forfeit,
    /// Counting; the margin in half points.
    Score {
        /// Winner's margin in half points (0 for a jigo).
        margin_half_points: i32,
    },
    /// A Renju/Gomoku five.
    Five,
    /// A forbidden move of Black, pointed out.
    ForbiddenMove,
    /// An illegal move that loses (UEC Cup).
    IllegalMove,
    /// By agreement (Renju draw).
    Agreement,
    /// A repeated position (UEC Cup, basic ko).
    Repetition,
    /// A program terminated abnormally.
    AbnormalTermination,
    /// Anything else, in words.
    Other(String),
}

/// A game result: outcome and manner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GameResult {
    /// Who won, or draw, or no result.
    pub outcome: Outcome,
    /// How.
    pub by: ResultBy,
}

/// Whether a referee only explained the rules or decided something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum RulingKind {
    /// A rule clarification: no judgement.
    Clarification,
    /// A judgement with consequences.
    Judgement,
}

/// One consequence of a referee's judgement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum RulingEffect {
    /// Unwind the game to the position just after event `seq`.
    UnwindTo {
        /// The last event whose position stands.
        seq: u64,
    },
    /// Add (positive) or remove (negative) time on a player's clock.
    AdjustClock {
        /// Whose clock.
        player: Color,
        /// Milliseconds added; negative removes.
        delta_ms: i64,
    },
    /// Play resumes.
    Resume,
    /// A sanction is imposed (recorded in full here).
    Sanction(Sanction),
    /// The result is set.
    SetResult(GameResult),
}

/// A referee's ruling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Ruling {
    /// Clarification or judgement.
    pub kind: RulingKind,
    /// The decision, in plain words.
    pub decision: String,
    /// The reasons, in plain words.
    pub reasons: String,
    /// The rules relied on (document and clause).
    pub rules_cited: Vec<String>,
    /// What the judgement changes.
    pub effects: Vec<RulingEffect>,
}

/// Who a sanction falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum SanctionTarget {
    /// One player.
    Player(Color),
    /// Both players.
    Both,
}

/// The kinds of sanction in the rule documents (LGC 2023, "Sanctions").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum SanctionKind {
    /// Advice.
    Advice,
    /// A warning; two in one game make a game forfeit.
    Warning,
    /// Forfeit of this game.
    GameForfeit,
    /// Modification of time limits, in milliseconds (negative removes time).
    TimeModified {
        /// Milliseconds added.
        delta_ms: i64,
    },
    /// Removal from the given rounds.
    RemovedFromRounds {
        /// Round numbers.
        rounds: Vec<u32>,
    },
    /// Removal from the tournament.
    RemovedFromTournament,
    /// Debarment from a future supergroup.
    Debarment,
    /// Disqualification (UEC Cup: cheating loses this and all following games).
    Disqualification,
}

/// A sanction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Sanction {
    /// Who.
    pub target: SanctionTarget,
    /// What.
    pub kind: SanctionKind,
    /// Why, in plain words.
    pub reason: String,
}

/// What kind of irregularity a board fix corrects (BGA, "Irregular Moves";
/// LGC 2023, "Colour or handicap error", "Ambiguous stone placement",
/// "Position disturbance").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum IrregularityKind {
    /// i. Captured stones were not all removed.
    CapturedStonesNotRemoved,
    /// ii. Stones that still had liberties were removed.
    LiveStonesRemoved,
    /// iii. Handicap stones were placed in the wrong position.
    HandicapStonesMisplaced,
    /// iv. A stone was placed on an occupied intersection.
    StoneOnOccupiedPoint,
    /// v. A stone was placed ambiguously between intersections (or off the board).
    AmbiguousPlacement,
    /// vi. A stone of the wrong colour was played.
    WrongColour,
    /// The game started with the wrong colours or handicap.
    ColourOrHandicapError,
    /// The position was disturbed accidentally.
    PositionDisturbed,
}

/// A correction of the board: stones taken off and stones put on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BoardFix {
    /// Stones taken off the board.
    pub remove: Vec<Point>,
    /// Whether the stones taken off go to the opponent of their colour as
    /// prisoners (otherwise they go back to the owner's bowl).
    pub as_prisoners: bool,
    /// Stones put on the board.
    pub place: Vec<(Color, Point)>,
}

/// What the appeals committee decided on an appeal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(rename_all = "snake_case")]
pub enum CommitteeVerdict {
    /// The case is rejected: the referee's judgement is obviously right.
    Rejected,
    /// The referee's judgement is upheld.
    Upheld,
    /// The judgement is replaced by these effects.
    Replaced(Vec<RulingEffect>),
}

/// One fact in a game chain. See the module docs on adding kinds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// Kind 0: The genesis: the game's fixed facts.
    GameCreated(Genesis),
    /// Kind 1: A clock was started, `running` being the side whose time runs.
    ClockStarted {
        /// Whose clock runs.
        running: Color,
    },
    /// Kind 2: A stone was put on the board. `player` is who did it, `stone` the
    ///    colour of the stone (different from the player's colour only as an
    ///    irregularity).
    StonePlaced {
        /// Who placed it.
        player: Color,
        /// The stone's colour.
        stone: Color,
        /// Where.
        point: Point,
    },
    /// Kind 3: A pass, with or without a pass stone handed to the opponent.
    Pass {
        /// Who passed.
        player: Color,
        /// Whether a pass stone was handed over.
        pass_stone: bool,
    },
    /// Kind 4: A player pressed the clock.
    ClockPressed {
        /// Who pressed.
        player: Color,
    },
    /// Kind 5: Both clocks stopped.
    ClockPaused {
        /// Why.
        reason: PauseReason,
    },
    /// Kind 6: Clocks resumed, `running` being the side whose time runs.
    ClockResumed {
        /// Whose clock runs.
        running: Color,
    },
    /// Kind 7: A player resigned.
    Resigned {
        /// Who.
        player: Color,
        /// How.
        manner: Resignation,
    },
    /// Kind 8: A referee's ruling.
    RefereeRuling(Ruling),
    /// Kind 9: A sanction imposed.
    SanctionImposed(Sanction),
    /// Kind 10: A player declared the game played under protest.
    ProtestDeclared {
        /// Who protests.
        player: Color,
        /// What about.
        statement: String,
    },
    /// Kind 11: A result was declared.
    ResultDeclared(GameResult),
    /// Kind 12: The signer signed the result sheet.
    ResultSheetSigned {
        /// The result as written on the sheet.
        result: GameResult,
        /// "Played under protest" written beside the signature.
        under_protest: bool,
    },
    /// Kind 13: The referee added or removed time.
    ClockAdjusted {
        /// Whose clock.
        player: Color,
        /// Milliseconds added; negative removes.
        delta_ms: i64,
        /// Why.
        reason: String,
    },
    /// Kind 14: What a physical clock showed when read.
    ClockReading {
        /// Black's main or period time shown, in ms.
        black_ms: u64,
        /// White's time shown, in ms.
        white_ms: u64,
        /// Black's periods or stones left in overtime, if shown.
        black_overtime: Option<u32>,
        /// White's periods or stones left in overtime, if shown.
        white_overtime: Option<u32>,
        /// Who read it.
        read_by: String,
    },
    /// Kind 15: Someone pointed out an illegal move.
    IllegalMoveNoticed {
        /// The sequence number of the move (a stone placed or a pass).
        move_seq: u64,
        /// What was said, in words.
        statement: String,
    },
    /// Kind 16: A player agrees to rewind the game to just before an illegal move
    ///     (BGA, "Illegal Moves": by mutual agreement, so both players sign one).
    RewindAgreed {
        /// Who agrees.
        player: Color,
        /// The sequence number of the illegal move.
        move_seq: u64,
    },
    /// Kind 17: An irregularity and the fix applied to the board.
    IrregularityRecorded {
        /// What went wrong.
        kind: IrregularityKind,
        /// The event it concerns, if one.
        about_seq: Option<u64>,
        /// The correction made to the board.
        fix: BoardFix,
        /// In words.
        statement: String,
    },
    /// Kind 18: A player (or the operator of a program) marks the stones he holds dead.
    DeadStonesMarked {
        /// Whose marking.
        player: Color,
        /// The stones marked dead.
        dead: Vec<Point>,
    },
    /// Kind 19: The signer agrees on the status of every group: these stones are
    ///     dead. Both players sign one; a referee signing it settles the status.
    StatusAgreed {
        /// The stones agreed dead.
        dead: Vec<Point>,
    },
    /// Kind 20: A player disputes the status of a group.
    StatusDisputed {
        /// Who disputes.
        player: Color,
        /// Which group, in words.
        statement: String,
    },
    /// Kind 21: A dispute is raised.
    DisputeRaised {
        /// Who raises it.
        player: Color,
        /// What it is about.
        matter: String,
    },
    /// Kind 22: The referee is called to the board.
    RefereeCalled {
        /// Who called.
        player: Color,
    },
    /// Kind 23: A player appeals a referee's judgement to the appeals committee.
    AppealLodged {
        /// Who appeals.
        player: Color,
        /// The sequence number of the ruling appealed.
        ruling_seq: u64,
        /// Why, in words.
        grounds: String,
    },
    /// Kind 24: The appeals committee, formed before the first round.
    CommitteeFormed {
        /// The three members.
        members: Vec<Participant>,
        /// The reserves, in order.
        reserves: Vec<Participant>,
        /// The round before which it was formed (1 = before the first round).
        formed_before_round: u32,
    },
    /// Kind 25: A committee member is recused for a conflict of interest.
    MemberRecused {
        /// The member's key.
        member: PublicKey,
        /// Why.
        reason: String,
    },
    /// Kind 26: A player is co-opted to the committee to make up three.
    MemberCoopted {
        /// Who.
        member: Participant,
    },
    /// Kind 27: A committee member signs the committee's decision on an appeal.
    CommitteeDecision {
        /// The sequence number of the appeal.
        appeal_seq: u64,
        /// What was decided.
        verdict: CommitteeVerdict,
        /// The reasons, in plain words.
        reasons: String,
    },
    /// Kind 28: A player declares a five (Renju: "five", or pointing at the line).
    FiveDeclared {
        /// Who declares.
        player: Color,
    },
    /// Kind 29: White points out a forbidden move of Black (Renju).
    ForbiddenMovePointedOut {
        /// Who points it out.
        player: Color,
        /// The stone, or `None` for Black's last stone.
        point: Option<Point>,
    },
    /// Kind 30: A player offers a draw.
    DrawOffered {
        /// Who offers.
        player: Color,
    },
    /// Kind 31: A player accepts the opponent's draw offer.
    DrawAccepted {
        /// Who accepts.
        player: Color,
    },
    /// Kind 32: A player declines the opponent's draw offer in words.
    DrawDeclined {
        /// Who declines.
        player: Color,
    },
    /// Kind 33: Renju opening: the swap decision (`player` names the seat, Black
    ///     being the tentative first player).
    OpeningSwap {
        /// Who decides.
        player: Color,
        /// Whether the colours are exchanged.
        swap: bool,
    },
    /// Kind 34: Renju opening: the number of fifth-move alternatives declared.
    FifthCountDeclared {
        /// Who declares.
        player: Color,
        /// How many.
        count: u8,
    },
    /// Kind 35: Renju opening: fifth-move alternatives offered.
    FifthsOffered {
        /// Who offers.
        player: Color,
        /// The points offered.
        points: Vec<Point>,
    },
    /// Kind 36: Renju opening: the fifth move chosen among those offered.
    FifthChosen {
        /// Who chooses.
        player: Color,
        /// The point chosen.
        point: Point,
    },
    /// Kind 37: A player arrived at the board (after the clock was started).
    PlayerArrived {
        /// Who.
        player: Color,
    },
    /// Kind 38: A program terminated abnormally (computer events).
    ProgramTerminated {
        /// Whose program.
        player: Color,
        /// What happened.
        statement: String,
    },
    /// Kind 39: Time a program used for one move, as measured by the server.
    ServerTimeUsed {
        /// Whose move.
        player: Color,
        /// Milliseconds used.
        used_ms: u64,
    },
    /// Kind 40: What a program answered the server when asked, word for word
    ///     (computer events: `final_score`, `final_status_list dead`).
    ProgramAnswered {
        /// Whose program.
        player: Color,
        /// The command asked.
        command: String,
        /// The answer, without the GTP status mark.
        answer: String,
    },
    /// Kind 41: A player declines to rewind the game to just before an
    ///     illegal move (BGA, "Illegal Moves": the offer then closes and play
    ///     continues as is).
    RewindDeclined {
        /// Who declines.
        player: Color,
        /// The sequence number of the illegal move.
        move_seq: u64,
    },
    /// Kind 42: From this event on, `new_key` speaks for the roster
    ///     participant whose current key is `participant`; the old key signs
    ///     nothing more (`docs/FORMAT.md`, "Keys along the chain").
    KeyReplaced {
        /// The participant's current key.
        participant: PublicKey,
        /// The key that speaks for them from this event on.
        new_key: PublicKey,
        /// Why, in plain words ("tablet lost").
        reason: String,
    },
    /// Kind 43: A roster key is revoked (compromised): nothing it signs after
    ///     this event is accepted; what it signed before stays valid.
    KeyRevoked {
        /// The revoked key (a participant's current key).
        key: PublicKey,
        /// Why, in plain words.
        reason: String,
    },
    /// Kind 44: The genesis of a tournament chain (`tournament.rs`).
    TournamentCreated(TournamentGenesis),
    /// Kind 45: A player is registered in the tournament.
    PlayerRegistered(Registration),
    /// Kind 46: A registration is corrected (same id; every field replaced).
    RegistrationCorrected(Registration),
    /// Kind 47: One board of a round is paired (a later pairing of the same round and
    /// board replaces it, e.g. to add the game id).
    Paired(Pairing),
    /// Kind 48: A player has the bye in a round.
    ByeGiven {
        /// Round, from 1.
        round: u32,
        /// Registration id.
        player: String,
    },
    /// Kind 49: A player misses a round.
    PlayerAbsent {
        /// Round, from 1 (for a withdrawal, the first round missed).
        round: u32,
        /// Registration id.
        player: String,
        /// Why.
        reason: AbsenceReason,
    },
    /// Kind 50: An official enters the result of a board (by default, both lose,
    /// both win, a game played off the record, a correction).
    BoardResultEntered {
        /// Round, from 1.
        round: u32,
        /// Board, from 1.
        board: u32,
        /// The result.
        result: BoardResult,
        /// Decided by default (forfeit), not over the board.
        by_default: bool,
        /// Why, in words.
        reason: String,
    },
    /// Kind 51: A game chain's head and result tied into the tournament.
    GameCheckpointed(Checkpoint),
    /// Kind 52: A sanction that reaches beyond one game (LGC 2023, "Hindrance").
    TournamentSanction {
        /// Registration id.
        player: String,
        /// Removal from rounds, from the tournament, debarment...
        kind: SanctionKind,
        /// First round it affects (removal from the tournament).
        from_round: u32,
        /// Why, in words.
        reason: String,
    },
    /// Kind 53: The pairing of this game is corrected to the colours,
    ///     handicap or komi actually used (LGC 2023, "Colour or handicap
    ///     error": "the game continues and the pairing is modified to reflect
    ///     the actual colours or handicap used"). From this event on the
    ///     projection applies it: with `swap_colours`, the Black seat plays
    ///     White and the White seat plays Black (the stones already played
    ///     are counted for the colour they are); a handicap or komi stated
    ///     replaces the genesis's for the count.
    PairingModified {
        /// The seats exchange colours.
        swap_colours: bool,
        /// The handicap actually used, if it differs from the genesis's.
        handicap: Option<u8>,
        /// The komi actually used, in half points, if it differs.
        komi_half_points: Option<i32>,
        /// Why, in words.
        reason: String,
    },
    /// Kind 54: The transparency log's operator names the key that signs
    ///     the log's checkpoints from now on: every checkpoint of a tree
    ///     that includes this event is signed by `new_key`
    ///     (`docs/TRANSPARENCY.md` section 8). Signed by the key it
    ///     replaces, in the log operator's own chain.
    LogKeyRotated {
        /// The log's origin (the checkpoints' first line and note key name).
        origin: String,
        /// The log's next checkpoint key (Ed25519).
        new_key: PublicKey,
    },
    /// Kind 55: One board of a round is paired, and the colours the two
    ///     players had were not noted (OpenGotha's `knownColor="false"`,
    ///     `?` in the EGD results): `white` and `black` name the two
    ///     players in no particular colour. Otherwise as `paired` (kind 47):
    ///     a later pairing of the same round and board, of either kind,
    ///     replaces it. A tournament-chain kind.
    PairedColoursUnknown(Pairing),
    /// Kind 56: The round's pairing, signed before this fact, is the
    ///     draw of the named pairing engine from the chain before the
    ///     round, changed by the director's swaps, each with its reason
    ///     (`docs/TOURNAMENTS.md`, "Pairing"). A later one for the same
    ///     round replaces it. A tournament-chain kind.
    RoundDrawn(RoundDrawn),
    /// Kind 57: The tournament's time zone, an IANA name (`Europe/Berlin`):
    ///     the times of day of the tournament and its games are shown in
    ///     it. A later one replaces it. A tournament-chain kind.
    TimeZoneStated {
        /// The zone's IANA name, or `UTC`.
        zone: String,
    },
}

impl Body {
    /// The stable numeric kind (the postcard variant index, that is the
    /// variant's place in this enum's declaration).
    pub fn kind_index(&self) -> u32 {
        crate::kinds::kind_index_of(self)
    }

    /// A short human name of the kind, as used in errors and logs (the
    /// snake_case name with spaces).
    pub fn kind_name(&self) -> &'static str {
        human_kind_name(self.kind_index())
    }
}

/// The human name of kind `index` ("stone placed"), or "unknown".
pub fn human_kind_name(index: u32) -> &'static str {
    use std::sync::OnceLock;
    static HUMAN: OnceLock<Vec<&'static str>> = OnceLock::new();
    HUMAN
        .get_or_init(|| {
            crate::kinds::kind_names()
                .iter()
                .map(|n| &*Box::leak(n.replace('_', " ").into_boxed_str()))
                .collect()
        })
        .get(index as usize)
        .copied()
        .unwrap_or("unknown")
}
