//! One game refereed as the UEC Cup server: the clock, the board, and every
//! fact written to the game chain as it happens.
//!
//! Rules applied, all from `uec-cup-computer-go-rules.txt`:
//! - "3:Time limit": the server measures each `genmove` from the command sent
//!   to the answer received and counts in tenths of a second
//!   ([`TenthsCounter`]); `time_left` is sent before each move.
//! - a) two consecutive passes: both programs are asked for their dead stones
//!   (`final_status_list dead`) and count (`final_score`); a match is the
//!   result (a) 2), a difference goes to the referee (a) 3).
//! - b) resignation; d) loss on time when the clock runs out, the program
//!   being stopped at that instant; e) the 400th move (passes count) goes to
//!   the referee's count; f) the first illegal move loses, pointed out by the
//!   server as referee; g) a repeated position is a draw; h) abnormal
//!   termination (exit, crash, hang, broken GTP) with its replay procedure.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kifu_game::convert::{go_color, ledger_color, ledger_point};
use kifu_go::{EndingPhase, Game, GameEnd, Ruleset, Setup};
use kifu_ledger::{
    Body, Color, GameKind, GameResult, Genesis, Hash, Keypair, Outcome, Participant, PauseReason,
    Point, Resignation, ResultBy, TimeControl, TournamentRef,
};

use crate::clock::{ServerClock, TenthsCounter};
use crate::engine::{Engine, EngineFailure};
use crate::gtp::{self, GenMove, Reply};
use crate::ledger::GameLedger;
use crate::MatchError;

/// UEC Cup: "Time limit for each player is 30 minutes." The time of a
/// first game, per player.
pub const MAIN_MS: u64 = 30 * 60_000;
/// UEC Cup "h) 1/2": the threshold on the sum of remaining times in a first game.
pub const REPLAY_THRESHOLD_MS: u64 = 40 * 60_000;
/// UEC Cup "h) 3": the threshold in a new game after an abnormal termination.
pub const SECOND_REPLAY_THRESHOLD_MS: u64 = 20 * 60_000;
/// UEC Cup "h) 2": the time control of a new game, per player.
pub const REPLAY_MAIN_MS: u64 = 20 * 60_000;

/// The rule document's name as cited in statements.
const UEC: &str = "UEC Cup (uec-cup-computer-go-rules.txt)";

/// Everything that fixes one game.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// Board size.
    pub size: u8,
    /// Komi in half points (UEC Cup: 6.5, so 13).
    pub komi_half_points: i32,
    /// Time per player, in ms (a multiple of 100).
    pub main_ms: u64,
    /// The limit on every exchange that is not a `genmove`.
    pub gtp_timeout: Duration,
    /// The game's title in its genesis.
    pub title: String,
    /// The game's place in a tournament.
    pub tournament: Option<TournamentRef>,
    /// Who may sign: the server (recorder), the operators or the programs'
    /// seats, the referee and the director.
    pub roster: Vec<Participant>,
    /// Stated departures and links (`replay_of`, `abnormal_terminations`).
    pub overrides: Vec<(String, String)>,
    /// Programs that already terminated abnormally in this match (by the
    /// colour they hold, which a new game keeps).
    pub earlier_abnormal: Vec<Color>,
    /// Whether this is a new game after an abnormal termination.
    pub is_replay: bool,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A result the server declared, with the clause it rests on.
    Decided {
        /// The result.
        result: GameResult,
        /// The clause.
        clause: String,
    },
    /// The result is the referee's: the programs' counts differ (a) 3) or
    /// cannot be read.
    Referee {
        /// Why, in words.
        why: String,
    },
    /// A program terminated abnormally and a new game is to be played
    /// (h) 2 or h) 3).
    Replay {
        /// Whose program.
        player: Color,
        /// What happened.
        statement: String,
    },
    /// The server was stopped (Ctrl-C); the game is recorded as interrupted.
    Interrupted,
}

/// What one game came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameReport {
    /// The game id.
    pub game: Hash,
    /// How it ended.
    pub ending: Ending,
    /// Programs that terminated abnormally in this game.
    pub abnormal: Vec<Color>,
    /// Moves (genmove answers) per colour, Black first.
    pub moves: [u32; 2],
    /// Time charged per colour, in ms (whole tenths).
    pub charged_ms: [u64; 2],
    /// Time measured per colour, in ms.
    pub measured_ms: [u64; 2],
}

/// Starts the programs of one game.
pub trait EngineStarter {
    /// Starts the program that plays `color` in `game`.
    fn start(&mut self, color: Color, game: &Hash) -> Result<Box<dyn Engine>, EngineFailure>;
}

fn idx(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn secs(ms: u64) -> String {
    tenths_text(ms)
}

/// Milliseconds as seconds to the tenth, truncated (`12.3`).
pub fn tenths_text(ms: u64) -> String {
    format!("{}.{}", ms / 1000, (ms % 1000) / 100)
}

/// The keys the server signs with.
pub struct Signers<'k> {
    /// The server's key (recorder; referee and director unless others are named).
    pub server: &'k Keypair,
    /// The operators' keys by colour in this game, when the operators sign.
    pub operators: [Option<&'k Keypair>; 2],
}

/// One game in progress.
struct Table<'a, C: ServerClock, L: GameLedger> {
    game: Hash,
    settings: &'a GameSettings,
    clock: &'a C,
    ledger: &'a mut L,
    keys: &'a Signers<'a>,
    engines: [Option<Box<dyn Engine>>; 2],
    board: Game,
    counters: [TenthsCounter; 2],
    moves: [u32; 2],
    abnormal: Vec<Color>,
    /// While the facts of one answer are written: the instant it was
    /// received, which is when the move (and the clock press) happened.
    answered_at: Option<u64>,
}

/// Plays one game: creates its chain, starts both programs, referees to the
/// end, and records every fact. A ledger failure ends it with an error; the
/// programs' failures are facts of the game.
pub fn play_game<C: ServerClock, L: GameLedger>(
    settings: &GameSettings,
    starter: &mut dyn EngineStarter,
    clock: &C,
    ledger: &mut L,
    keys: &Signers<'_>,
    interrupt: &AtomicBool,
) -> Result<GameReport, MatchError> {
    let ruleset = Ruleset::uec_cup();
    let profile = ruleset.name.clone();
    let board = Game::new(ruleset, &Setup::even(settings.size))
        .map_err(|e| MatchError::Settings(e.to_string()))?;
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: profile,
        overrides: settings.overrides.clone(),
        board_size: settings.size,
        handicap: 0,
        komi_half_points: settings.komi_half_points,
        time_control: TimeControl::SuddenDeath {
            main_ms: settings.main_ms,
        },
        roster: settings.roster.clone(),
        tournament: settings.tournament.clone(),
        title: settings.title.clone(),
        auto_declare: false,
    };
    let game = ledger.create(keys.server, genesis, clock.wall_ms())?;
    let mut t = Table {
        game,
        settings,
        clock,
        ledger,
        keys,
        engines: [None, None],
        board,
        counters: [TenthsCounter::default(); 2],
        moves: [0; 2],
        abnormal: Vec::new(),
        answered_at: None,
    };
    let ending = t.run(starter, interrupt);
    for e in t.engines.iter_mut().flatten() {
        e.quit(Duration::from_secs(2));
    }
    let ending = ending?;
    if let Ending::Decided { result, .. } = &ending {
        // UEC Cup "5:Result sheet": the operators sign the sheet.
        for k in keys.operators.iter().flatten() {
            t.ledger.append(
                &game,
                k,
                Body::ResultSheetSigned {
                    result: result.clone(),
                    under_protest: false,
                },
                clock.wall_ms(),
            )?;
        }
    }
    Ok(GameReport {
        game,
        ending,
        abnormal: t.abnormal.clone(),
        moves: t.moves,
        charged_ms: [t.counters[0].charged_ms(), t.counters[1].charged_ms()],
        measured_ms: [t.counters[0].exact_ms(), t.counters[1].exact_ms()],
    })
}

/// What a step of play came to.
enum Step {
    Go,
    End(Ending),
}

impl<C: ServerClock, L: GameLedger> Table<'_, C, L> {
    fn record(&mut self, body: Body) -> Result<u64, MatchError> {
        let at = self.answered_at.unwrap_or_else(|| self.clock.wall_ms());
        self.ledger.append(&self.game, self.keys.server, body, at)
    }

    fn remaining(&self, c: Color) -> u64 {
        self.settings
            .main_ms
            .saturating_sub(self.counters[idx(c)].charged_ms())
    }

    fn run(
        &mut self,
        starter: &mut dyn EngineStarter,
        stop: &AtomicBool,
    ) -> Result<Ending, MatchError> {
        for c in [Color::Black, Color::White] {
            match starter.start(c, &self.game) {
                Ok(e) => self.engines[idx(c)] = Some(e),
                Err(f) => {
                    return self.abnormal_termination(c, format!("could not be started: {f}"))
                }
            }
        }
        for c in [Color::Black, Color::White] {
            if let Step::End(e) = self.setup(c)? {
                return Ok(e);
            }
        }
        self.record(Body::ClockStarted {
            running: Color::Black,
        })?;
        // Bounded: every turn is a move, and the game stops at the 400th.
        loop {
            if stop.load(Ordering::SeqCst) {
                return self.interrupted("between moves");
            }
            if let Step::End(e) = self.turn(stop)? {
                return Ok(e);
            }
        }
    }

    /// One exchange that is not a genmove: bounded by the GTP timeout; a
    /// failure of the program is its abnormal termination.
    fn ask(&mut self, c: Color, command: &str) -> Result<Result<Reply, String>, MatchError> {
        let limit = self.settings.gtp_timeout;
        let Some(e) = self.engines[idx(c)].as_mut() else {
            return Ok(Err("the program is not running".into()));
        };
        Ok(e.exchange(command, limit).map_err(|f| match f {
            EngineFailure::Interrupted => "interrupted".to_string(),
            f => format!("{f} (asked `{command}`)"),
        }))
    }

    fn setup(&mut self, c: Color) -> Result<Step, MatchError> {
        let komi = self.settings.komi_half_points as f64 / 2.0;
        let commands = [
            (format!("boardsize {}", self.settings.size), true),
            ("clear_board".to_string(), true),
            (format!("komi {komi}"), false),
            // Sudden death: byo-yomi time 0 (GTP 2, "time_settings").
            (
                format!("time_settings {} 0 0", self.settings.main_ms / 1000),
                false,
            ),
        ];
        for (cmd, required) in commands {
            match self.ask(c, &cmd)? {
                Ok(Reply::Success(_)) => {}
                Ok(Reply::Failure(why)) if required => {
                    return self
                        .abnormal_termination(c, format!("refused `{cmd}`: {why}"))
                        .map(Step::End)
                }
                Ok(Reply::Failure(_)) => {}
                Err(why) if why == "interrupted" => {
                    return self.interrupted("while setting up").map(Step::End)
                }
                Err(why) => return self.abnormal_termination(c, why).map(Step::End),
            }
        }
        Ok(Step::Go)
    }

    fn turn(&mut self, stop: &AtomicBool) -> Result<Step, MatchError> {
        self.answered_at = None;
        let c = ledger_color(self.board.to_move());
        let i = idx(c);
        let remaining = self.remaining(c);
        // GTP 2, "time_left": seconds left and 0 stones (no byo-yomi).
        let cmd = format!("time_left {} {} 0", gtp::color_arg(c), remaining / 1000);
        match self.ask(c, &cmd)? {
            Ok(_) => {}
            Err(why) if why == "interrupted" => {
                return self.interrupted("between moves").map(Step::End)
            }
            Err(why) => return self.abnormal_termination(c, why).map(Step::End),
        }
        if stop.load(Ordering::SeqCst) {
            return self.interrupted("between moves").map(Step::End);
        }
        // The flag falls when the exact time used reaches the limit.
        let left_exact = self
            .settings
            .main_ms
            .saturating_sub(self.counters[i].exact_ms());
        let command = format!("genmove {}", gtp::color_arg(c));
        let t0 = self.clock.monotonic_ms();
        let answer = match self.engines[i].as_mut() {
            Some(e) => e.exchange(&command, Duration::from_millis(left_exact)),
            None => Err(EngineFailure::Exited("not running".into())),
        };
        let elapsed = self.clock.monotonic_ms().saturating_sub(t0);
        // The facts of the answer are dated when it was received.
        self.answered_at = Some(self.clock.wall_ms());
        let text = match answer {
            Err(EngineFailure::Interrupted) => {
                return self
                    .interrupted(&format!(
                        "while {} was thinking ({} s into its move, not charged)",
                        name(c),
                        secs(elapsed)
                    ))
                    .map(Step::End)
            }
            Err(EngineFailure::TimedOut(_)) => return self.flag(c).map(Step::End),
            Err(f) => {
                self.charge(c, elapsed)?;
                return self
                    .abnormal_termination(c, format!("{f} (asked `{command}`)"))
                    .map(Step::End);
            }
            Ok(Reply::Failure(why)) => {
                self.charge(c, elapsed)?;
                return self
                    .abnormal_termination(c, format!("refused `{command}`: {why}"))
                    .map(Step::End);
            }
            Ok(Reply::Success(text)) => text,
        };
        self.charge(c, elapsed)?;
        if self.remaining(c) == 0 {
            return self.flag(c).map(Step::End);
        }
        let mv = match gtp::parse_genmove(&text, self.settings.size) {
            Ok(m) => m,
            Err(e) => {
                return self
                    .abnormal_termination(c, format!("broken GTP: {e} (asked `{command}`)"))
                    .map(Step::End)
            }
        };
        self.moves[i] += 1;
        let (verdict, seq, gtp_move) = match mv {
            GenMove::Resign => {
                self.record(Body::Resigned {
                    player: c,
                    manner: Resignation::Program,
                })?;
                return self
                    .decide(
                        Outcome::Win(c.opponent()),
                        ResultBy::Resignation,
                        "b) One of the programs resigns",
                    )
                    .map(Step::End);
            }
            GenMove::Pass => {
                let seq = self.record(Body::Pass {
                    player: c,
                    pass_stone: false,
                })?;
                (self.board.pass(go_color(c)), seq, "pass".to_string())
            }
            GenMove::Play(p) => {
                let seq = self.record(Body::StonePlaced {
                    player: c,
                    stone: c,
                    point: ledger_point(p),
                })?;
                (
                    self.board.play(go_color(c), p),
                    seq,
                    p.to_gtp(self.settings.size),
                )
            }
        };
        self.record(Body::ClockPressed { player: c })?;
        self.answered_at = None;
        if !verdict.is_legal() {
            // f) "The illegal move must be pointed out by the opponent or the
            // referee": the server points it out as referee.
            let reasons: Vec<&str> = verdict.violations.iter().map(|v| v.reason()).collect();
            self.record(Body::IllegalMoveNoticed {
                move_seq: seq,
                statement: format!(
                    "the server points out {}'s move {} ({gtp_move}) as illegal: {}; {UEC}, f) When illegal moves are played: the first illegal move loses",
                    name(c),
                    verdict.move_number,
                    reasons.join(", ")
                ),
            })?;
            return self
                .decide(
                    Outcome::Win(c.opponent()),
                    ResultBy::IllegalMove,
                    "f) When illegal moves are played",
                )
                .map(Step::End);
        }
        // The opponent hears the move.
        let o = c.opponent();
        let play = format!("play {} {gtp_move}", gtp::color_arg(c));
        match self.ask(o, &play)? {
            Ok(Reply::Success(_)) => {}
            Ok(Reply::Failure(why)) => {
                return self
                    .abnormal_termination(o, format!("refused the legal move `{play}`: {why}"))
                    .map(Step::End)
            }
            Err(why) if why == "interrupted" => {
                return self.interrupted("between moves").map(Step::End)
            }
            Err(why) => return self.abnormal_termination(o, why).map(Step::End),
        }
        match self.board.ending().phase().clone() {
            EndingPhase::Over(GameEnd::Repetition) => {
                self.pause(PauseReason::Arbitration)?;
                self.decide(
                    Outcome::Draw,
                    ResultBy::Repetition,
                    "g) Repetition of a position",
                )
                .map(Step::End)
            }
            EndingPhase::Over(GameEnd::MoveLimit) => self
                .count("e) When the game has progressed the 400th moves")
                .map(Step::End),
            EndingPhase::StatusAssessment | EndingPhase::Over(_) => self
                .count("a) Both programs pass consecutively")
                .map(Step::End),
            _ => Ok(Step::Go),
        }
    }

    fn charge(&mut self, c: Color, elapsed: u64) -> Result<(), MatchError> {
        let charge = self.counters[idx(c)].charge(elapsed);
        self.record(Body::ServerTimeUsed {
            player: c,
            used_ms: charge,
        })?;
        Ok(())
    }

    /// d) The clock ran out: the program is stopped at once, so no answer
    /// after the flag can be taken.
    fn flag(&mut self, c: Color) -> Result<Ending, MatchError> {
        if let Some(e) = self.engines[idx(c)].as_mut() {
            e.stop();
        }
        let left = self.remaining(c);
        if left > 0 {
            // Charge the rest of the limit: the flag fell at the limit.
            let limit = self.settings.main_ms;
            let counter = &mut self.counters[idx(c)];
            counter.charge(limit.saturating_sub(counter.exact_ms()));
            self.record(Body::ServerTimeUsed {
                player: c,
                used_ms: left,
            })?;
        }
        self.decide(
            Outcome::Win(c.opponent()),
            ResultBy::Time,
            "d) One player exceed the time limit",
        )
    }

    fn pause(&mut self, reason: PauseReason) -> Result<(), MatchError> {
        self.record(Body::ClockPaused { reason }).map(|_| ())
    }

    fn decide(
        &mut self,
        outcome: Outcome,
        by: ResultBy,
        clause: &str,
    ) -> Result<Ending, MatchError> {
        let result = GameResult { outcome, by };
        self.record(Body::ResultDeclared(result.clone()))?;
        Ok(Ending::Decided {
            result,
            clause: format!("{UEC}, {clause}"),
        })
    }

    fn interrupted(&mut self, when: &str) -> Result<Ending, MatchError> {
        for e in self.engines.iter_mut().flatten() {
            e.stop();
        }
        self.pause(PauseReason::Other(format!(
            "interrupted: the server was stopped {when}; the game is in the referee's hands ({UEC}, i) Other accidents which causes termination of a game)"
        )))?;
        Ok(Ending::Interrupted)
    }

    /// h) Abnormal termination of programs.
    fn abnormal_termination(&mut self, c: Color, statement: String) -> Result<Ending, MatchError> {
        if let Some(e) = self.engines[idx(c)].as_mut() {
            e.stop();
        }
        self.abnormal.push(c);
        self.record(Body::ProgramTerminated {
            player: c,
            statement: statement.clone(),
        })?;
        let loss = |t: &mut Self, clause: &str| {
            t.decide(
                Outcome::Win(c.opponent()),
                ResultBy::AbnormalTermination,
                clause,
            )
        };
        if self.settings.earlier_abnormal.contains(&c) {
            return loss(
                self,
                "h) Abnormal termination of programs, 4: the second abnormal termination of the same program in a match loses",
            );
        }
        let sum = self.remaining(Color::Black) + self.remaining(Color::White);
        let (threshold, clause_lose, clause_new) = if self.settings.is_replay {
            (SECOND_REPLAY_THRESHOLD_MS, "3", "3")
        } else {
            (REPLAY_THRESHOLD_MS, "1", "2")
        };
        if sum < threshold {
            return loss(
                self,
                &format!(
                    "h) Abnormal termination of programs, {clause_lose}: remaining times sum to {} s, under {} min",
                    secs(sum),
                    threshold / 60_000
                ),
            );
        }
        self.decide(
            Outcome::NoResult,
            ResultBy::AbnormalTermination,
            &format!(
                "h) Abnormal termination of programs, {clause_new}: remaining times sum to {} s, at least {} min: a new game with 20 minutes each",
                secs(sum),
                threshold / 60_000
            ),
        )?;
        Ok(Ending::Replay {
            player: c,
            statement,
        })
    }

    /// a) 1-3 (and e), where the referee counts): both programs display
    /// their dead stones and count; the answers are recorded word for word.
    fn count(&mut self, clause: &str) -> Result<Ending, MatchError> {
        self.pause(PauseReason::Counting)?;
        let size = self.settings.size;
        let mut dead: [Option<Vec<Point>>; 2] = [None, None];
        let mut scores: [Option<Option<(Color, i32)>>; 2] = [None, None];
        let mut problems = Vec::new();
        for c in [Color::Black, Color::White] {
            for cmd in ["final_status_list dead", "final_score"] {
                let answer = match self.ask(c, cmd)? {
                    Ok(Reply::Success(text)) => text,
                    Ok(Reply::Failure(why)) => {
                        problems.push(format!("{} refused `{cmd}`: {why}", name(c)));
                        continue;
                    }
                    Err(why) => {
                        problems.push(format!("{} gave no answer to `{cmd}`: {why}", name(c)));
                        continue;
                    }
                };
                self.record(Body::ProgramAnswered {
                    player: c,
                    command: cmd.to_string(),
                    answer: answer.clone(),
                })?;
                if cmd == "final_score" {
                    match gtp::parse_score(&answer) {
                        Some(s) => scores[idx(c)] = Some(s),
                        None => {
                            problems.push(format!("{}'s count {answer:?} cannot be read", name(c)))
                        }
                    }
                } else {
                    match gtp::parse_vertices(&answer, size) {
                        Some(d) => {
                            self.record(Body::DeadStonesMarked {
                                player: c,
                                dead: d.clone(),
                            })?;
                            dead[idx(c)] = Some(d);
                        }
                        None => problems.push(format!(
                            "{}'s dead stones {answer:?} cannot be read",
                            name(c)
                        )),
                    }
                }
            }
        }
        if dead[0] != dead[1] {
            problems.push("the programs' dead stones differ".into());
        }
        if scores[0] != scores[1] {
            problems.push(format!(
                "the programs' counts differ (Black's program: {}, White's program: {})",
                score_text(&scores[0]),
                score_text(&scores[1])
            ));
        }
        if !problems.is_empty() {
            let why = format!(
                "{}: the referee corrects the mismatching parts under the witness of both operators ({UEC}, a) Both programs pass consecutively, 3)",
                problems.join("; ")
            );
            // The dispute is raised on behalf of the side the programs'
            // counts do not agree for; Black when that cannot be said.
            self.record(Body::DisputeRaised {
                player: Color::Black,
                matter: why.clone(),
            })?;
            return Ok(Ending::Referee { why });
        }
        let (outcome, margin) = match scores[0].flatten() {
            Some((c, m)) => (Outcome::Win(c), m),
            None => (Outcome::Draw, 0),
        };
        // a) 2: "If the dead stones and the size of the territory by both
        // programs match, this is used as the result of the game."
        let clause = if clause.starts_with("a)") {
            format!("{clause}, 2")
        } else {
            clause.to_string()
        };
        self.decide(
            outcome,
            ResultBy::Score {
                margin_half_points: margin,
            },
            &clause,
        )
    }
}

fn score_text(s: &Option<Option<(Color, i32)>>) -> String {
    match s {
        None => "none".into(),
        Some(None) => "0 (jigo)".into(),
        Some(Some((c, m))) => format!(
            "{}+{}",
            c.letter(),
            kifu_ledger::text::half_points_text(i64::from(*m))
        ),
    }
}
