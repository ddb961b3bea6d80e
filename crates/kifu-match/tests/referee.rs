//! The referee driven by scripted programs and a hand-moved clock: one
//! scenario per clause of the UEC Cup rules
//! (`uec-cup-computer-go-rules.txt`).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kifu_game::GameState;
use kifu_ledger::{
    verify_records, Body, Color, Event, GameResult, Hash, Keypair, Outcome, ResultBy,
};
use kifu_match::gtp::Reply;
use kifu_match::{
    run_match, Ending, Engine, EngineFailure, MatchPlan, MatchReport, MemoryLedger, Officials,
    Program, ProgramStarter, ServerClock,
};

const WALL0: u64 = 1_800_000_000_000;

#[derive(Clone, Default)]
struct HandClock(Rc<Cell<u64>>);

impl HandClock {
    fn advance(&self, ms: u64) {
        self.0.set(self.0.get() + ms);
    }
}

impl ServerClock for HandClock {
    fn monotonic_ms(&self) -> u64 {
        self.0.get()
    }
    fn wall_ms(&self) -> u64 {
        WALL0 + self.0.get()
    }
}

/// What a scripted program does when asked `genmove`.
#[derive(Clone, Debug)]
enum Act {
    /// Answers this after thinking this long (ms).
    Answer(&'static str, u64),
    /// Exits.
    Crash,
    /// Prints text that is not GTP.
    Garbage,
    /// The operator presses Ctrl-C on the server while it thinks.
    Interrupt,
}

/// A scripted program: `genmove` follows the script; the count commands
/// give the configured answers; `play` hangs when told to.
struct Scripted {
    clock: HandClock,
    acts: VecDeque<Act>,
    dead: &'static str,
    score: &'static str,
    hang_on_play: bool,
    interrupt: Arc<AtomicBool>,
    log: Rc<RefCell<Vec<String>>>,
    stopped: bool,
}

impl Engine for Scripted {
    fn exchange(&mut self, command: &str, limit: Duration) -> Result<Reply, EngineFailure> {
        if self.stopped {
            return Err(EngineFailure::Exited("stopped".into()));
        }
        self.log.borrow_mut().push(command.to_string());
        let limit_ms = limit.as_millis() as u64;
        let word = command.split_whitespace().next().unwrap_or("");
        match word {
            "genmove" => match self.acts.pop_front().unwrap_or(Act::Answer("pass", 10)) {
                Act::Answer(text, think) => {
                    if think >= limit_ms {
                        self.clock.advance(limit_ms);
                        Err(EngineFailure::TimedOut(limit))
                    } else {
                        self.clock.advance(think);
                        Ok(Reply::Success(text.to_string()))
                    }
                }
                Act::Crash => {
                    self.clock.advance(50);
                    Err(EngineFailure::Exited("exit status 3".into()))
                }
                Act::Garbage => Err(EngineFailure::Broken(
                    "an answer must start with '=' or '?'".into(),
                )),
                Act::Interrupt => {
                    self.clock.advance(700);
                    self.interrupt.store(true, Ordering::SeqCst);
                    Err(EngineFailure::Interrupted)
                }
            },
            "play" if self.hang_on_play => {
                self.clock.advance(limit_ms);
                Err(EngineFailure::TimedOut(limit))
            }
            "final_status_list" => Ok(Reply::Success(self.dead.to_string())),
            "final_score" => Ok(Reply::Success(self.score.to_string())),
            _ => Ok(Reply::Success(String::new())),
        }
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}

#[derive(Clone)]
struct Script {
    acts: Vec<Act>,
    dead: &'static str,
    score: &'static str,
    hang_on_play: bool,
}

fn script(acts: &[Act]) -> Script {
    Script {
        acts: acts.to_vec(),
        dead: "",
        score: "W+6.5",
        hang_on_play: false,
    }
}

/// Program `p`'s scripts, one per game started (the last one repeats).
struct Starter {
    clock: HandClock,
    scripts: [Vec<Script>; 2],
    started: [usize; 2],
    interrupt: Arc<AtomicBool>,
    log: Rc<RefCell<Vec<String>>>,
}

impl ProgramStarter for Starter {
    fn start(
        &mut self,
        program: usize,
        _color: Color,
        _game: &Hash,
    ) -> Result<Box<dyn Engine>, EngineFailure> {
        let list = &self.scripts[program];
        let s = list[self.started[program].min(list.len() - 1)].clone();
        self.started[program] += 1;
        Ok(Box::new(Scripted {
            clock: self.clock.clone(),
            acts: s.acts.into(),
            dead: s.dead,
            score: s.score,
            hang_on_play: s.hang_on_play,
            interrupt: self.interrupt.clone(),
            log: self.log.clone(),
            stopped: false,
        }))
    }
}

struct Run {
    report: MatchReport,
    ledger: MemoryLedger,
    log: Vec<String>,
}

fn key(n: u8) -> Keypair {
    Keypair::from_seed([n; 32])
}

/// Plays `games` games between program A (Black first) and B on 9x9.
fn play(main_ms: u64, games: u32, a: Vec<Script>, b: Vec<Script>) -> Run {
    play_on(9, main_ms, games, a, b)
}

/// One game on a board of `size`.
fn play_sized(size: u8, main_ms: u64, a: Vec<Script>, b: Vec<Script>) -> Run {
    play_on(size, main_ms, 1, a, b)
}

fn play_on(size: u8, main_ms: u64, games: u32, a: Vec<Script>, b: Vec<Script>) -> Run {
    let clock = HandClock::default();
    let interrupt = Arc::new(AtomicBool::new(false));
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut starter = Starter {
        clock: clock.clone(),
        scripts: [a, b],
        started: [0, 0],
        interrupt: interrupt.clone(),
        log: log.clone(),
    };
    let programs = [
        Program {
            name: "alpha".into(),
            seat_key: key(1).public(),
            operator: Some(key(1)),
        },
        Program {
            name: "beta".into(),
            seat_key: key(2).public(),
            operator: None,
        },
    ];
    let officials = Officials {
        server_name: "kifu match server".into(),
        server: key(9),
        referee: None,
        director: None,
    };
    let plan = MatchPlan {
        size,
        komi_half_points: 13,
        main_ms,
        gtp_timeout: Duration::from_secs(5),
        games,
        first_black: 0,
        event: "test cup".into(),
    };
    let mut ledger = MemoryLedger::new();
    let report = run_match(
        &plan,
        &programs,
        &officials,
        &mut starter,
        &clock,
        &mut ledger,
        &interrupt,
        |_, _| {},
    )
    .expect("the match runs");
    let log = log.borrow().clone();
    Run {
        report,
        ledger,
        log,
    }
}

impl Run {
    fn games(&self) -> Vec<Hash> {
        self.ledger.games().to_vec()
    }
    fn events(&self, i: usize) -> Vec<Event> {
        let g = self.games()[i];
        let report = verify_records(self.ledger.records(&g));
        assert!(report.ok(), "the chain verifies: {:?}", report.problems);
        self.ledger.events(&g)
    }
    fn bodies(&self, i: usize) -> Vec<Body> {
        self.events(i).into_iter().map(|e| e.body).collect()
    }
    fn declared(&self, i: usize) -> Vec<GameResult> {
        self.bodies(i)
            .into_iter()
            .filter_map(|b| match b {
                Body::ResultDeclared(r) => Some(r),
                _ => None,
            })
            .collect()
    }
    fn state(&self, i: usize) -> GameState {
        GameState::replay(&self.events(i))
    }
    fn ending(&self, bout: usize) -> Ending {
        self.report.bouts[bout]
            .ending()
            .cloned()
            .expect("an ending")
    }
}

fn win(c: Color, by: ResultBy) -> GameResult {
    GameResult {
        outcome: Outcome::Win(c),
        by,
    }
}

fn a(text: &'static str, ms: u64) -> Act {
    Act::Answer(text, ms)
}

#[test]
fn a_two_pass_ending_with_matching_counts_is_the_result_and_the_operator_signs() {
    let r = play(
        60_000,
        1,
        vec![script(&[a("C3", 1234), a("pass", 100)])],
        vec![script(&[a("G7", 2345), a("pass", 100)])],
    );
    let want = win(
        Color::White,
        ResultBy::Score {
            margin_half_points: 13,
        },
    );
    assert_eq!(r.declared(0), vec![want.clone()]);
    let bodies = r.bodies(0);
    let answered: Vec<(Color, String, String)> = bodies
        .iter()
        .filter_map(|b| match b {
            Body::ProgramAnswered {
                player,
                command,
                answer,
            } => Some((*player, command.clone(), answer.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(answered.len(), 4, "both programs' dead stones and counts");
    assert!(bodies.contains(&Body::ResultSheetSigned {
        result: want.clone(),
        under_protest: false
    }));
    // The projection counts the same from the facts.
    let s = r.state(0);
    assert_eq!(s.result.computed().map(|d| d.result.clone()), Some(want));
    // Time is charged in tenths: 1234 ms is 1.2 s, 2345 ms is 2.3 s.
    assert_eq!(s.clock.server_used_ms, [1300, 2400]);
    // time_left came before every genmove.
    let genmoves: Vec<usize> = r
        .log
        .iter()
        .enumerate()
        .filter(|(_, c)| c.starts_with("genmove"))
        .map(|(i, _)| i)
        .collect();
    for i in genmoves {
        assert!(r.log[i - 1].starts_with("time_left"), "{:?}", &r.log[i - 1]);
    }
    assert!(
        r.log.contains(&"time_left w 57 0".to_string()),
        "{:?}",
        r.log
    );
}

#[test]
fn f_an_illegal_move_is_recorded_pointed_out_by_the_server_and_loses() {
    let r = play(
        60_000,
        1,
        vec![script(&[a("C3", 10), a("D4", 10)])],
        vec![script(&[a("C3", 10)])],
    );
    assert_eq!(
        r.declared(0),
        vec![win(Color::Black, ResultBy::IllegalMove)]
    );
    let bodies = r.bodies(0);
    let placed = bodies
        .iter()
        .filter(|b| {
            matches!(
                b,
                Body::StonePlaced {
                    player: Color::White,
                    ..
                }
            )
        })
        .count();
    assert_eq!(placed, 1, "the illegal move itself is a fact of the record");
    assert!(bodies.iter().any(|b| matches!(b,
        Body::IllegalMoveNoticed { statement, .. } if statement.contains("occupied"))));
    match r.ending(0) {
        Ending::Decided { clause, .. } => assert!(clause.contains("f) When illegal moves")),
        e => panic!("{e:?}"),
    }
}

#[test]
fn d_the_flag_falls_at_the_limit_and_no_answer_is_taken_after_it() {
    // 10 s each; Black thinks 3 s a move, so the fourth move runs out.
    let r = play(
        10_000,
        1,
        vec![script(&[
            a("C3", 3000),
            a("D4", 3000),
            a("E5", 3000),
            a("F6", 3000),
        ])],
        vec![script(&[a("G7", 100), a("G6", 100), a("G5", 100)])],
    );
    assert_eq!(r.declared(0), vec![win(Color::White, ResultBy::Time)]);
    let black_used: u64 = r
        .bodies(0)
        .iter()
        .filter_map(|b| match b {
            Body::ServerTimeUsed {
                player: Color::Black,
                used_ms,
            } => Some(*used_ms),
            _ => None,
        })
        .sum();
    assert_eq!(black_used, 10_000, "the whole limit and no more");
    let black_stones = r
        .bodies(0)
        .iter()
        .filter(|b| {
            matches!(
                b,
                Body::StonePlaced {
                    player: Color::Black,
                    ..
                }
            )
        })
        .count();
    assert_eq!(black_stones, 3, "the late fourth move is not recorded");
    let s = r.state(0);
    assert_eq!(
        s.result.computed().map(|d| d.result.clone()),
        Some(win(Color::White, ResultBy::Time))
    );
}

#[test]
fn h2_h4_a_crash_with_time_to_spare_gives_a_new_game_and_a_second_crash_loses() {
    // 30 minutes each: the sum is about 60 minutes, at least 40.
    let crash = script(&[a("C3", 500), Act::Crash]);
    let r = play(30 * 60_000, 1, vec![crash], vec![script(&[a("G7", 500)])]);
    let games = r.games();
    assert_eq!(games.len(), 2, "the first game and one new game");
    assert_eq!(
        r.declared(0),
        vec![GameResult {
            outcome: Outcome::NoResult,
            by: ResultBy::AbnormalTermination
        }]
    );
    assert!(r
        .bodies(0)
        .iter()
        .any(|b| matches!(b, Body::ProgramTerminated { player: Color::Black, statement } if statement.contains("exit status 3"))));
    let g2 = match &r.events(1)[0].body {
        Body::GameCreated(g) => g.clone(),
        b => panic!("{b:?}"),
    };
    assert!(g2
        .overrides
        .contains(&("replay_of".to_string(), hex::encode(games[0]))));
    assert!(g2
        .overrides
        .contains(&("abnormal_terminations".to_string(), "black".to_string())));
    assert_eq!(
        g2.time_control.main_ms(),
        20 * 60_000,
        "h) 2: 20 minutes each"
    );
    assert_eq!(
        r.declared(1),
        vec![win(Color::White, ResultBy::AbnormalTermination)]
    );
    match r.ending(0) {
        Ending::Decided { clause, .. } => assert!(clause.contains("4: the second"), "{clause}"),
        e => panic!("{e:?}"),
    }
    // The projection agrees on both chains.
    assert_eq!(
        r.state(1).result.computed().map(|d| d.result.clone()),
        Some(win(Color::White, ResultBy::AbnormalTermination))
    );
    assert_eq!(r.report.summary()[0].abnormal, 2);
}

#[test]
fn h1_a_crash_when_the_remaining_times_sum_under_40_minutes_loses() {
    // 19 minutes each: the sum is under 38 minutes.
    let r = play(
        19 * 60_000,
        1,
        vec![script(&[a("C3", 500)])],
        vec![script(&[a("G7", 500), Act::Crash])],
    );
    assert_eq!(r.games().len(), 1);
    assert_eq!(
        r.declared(0),
        vec![win(Color::Black, ResultBy::AbnormalTermination)]
    );
    assert_eq!(
        r.state(0).result.computed().map(|d| d.result.clone()),
        Some(win(Color::Black, ResultBy::AbnormalTermination))
    );
}

#[test]
fn h3_the_other_program_crashing_in_the_new_game_gives_another_new_game() {
    let a_scripts = vec![
        script(&[a("C3", 100), Act::Crash]),
        script(&[a("C3", 100), a("pass", 100)]),
    ];
    let b_scripts = vec![
        script(&[a("G7", 100), a("pass", 100)]),
        script(&[Act::Crash]),
        script(&[a("G7", 100), a("pass", 100)]),
    ];
    let r = play(30 * 60_000, 1, a_scripts, b_scripts);
    assert_eq!(r.games().len(), 3);
    let g3 = match &r.events(2)[0].body {
        Body::GameCreated(g) => g.clone(),
        b => panic!("{b:?}"),
    };
    assert!(g3.overrides.contains(&(
        "abnormal_terminations".to_string(),
        "black,white".to_string()
    )));
    assert!(g3
        .overrides
        .contains(&("replay_of".to_string(), hex::encode(r.games()[0]))));
    assert_eq!(
        r.declared(2),
        vec![win(
            Color::White,
            ResultBy::Score {
                margin_half_points: 13
            }
        )]
    );
}

#[test]
fn h_malformed_gtp_is_an_abnormal_termination() {
    let r = play(
        10 * 60_000,
        1,
        vec![script(&[a("C3", 100)])],
        vec![script(&[Act::Garbage])],
    );
    assert!(r.bodies(0).iter().any(|b| matches!(b,
        Body::ProgramTerminated { player: Color::White, statement } if statement.contains("broken GTP"))));
    assert_eq!(
        r.declared(0),
        vec![win(Color::Black, ResultBy::AbnormalTermination)]
    );
}

#[test]
fn h_a_move_not_on_the_board_is_broken_gtp() {
    let r = play(
        10 * 60_000,
        1,
        vec![script(&[a("Z99", 100)])],
        vec![script(&[])],
    );
    assert!(r.bodies(0).iter().any(|b| matches!(b,
        Body::ProgramTerminated { player: Color::Black, statement } if statement.contains("not a move"))));
}

#[test]
fn h_a_program_that_never_answers_is_stopped_after_the_exchange_limit() {
    let mut hang = script(&[a("G7", 100)]);
    hang.hang_on_play = true;
    let r = play(10 * 60_000, 1, vec![script(&[a("C3", 100)])], vec![hang]);
    assert!(r.bodies(0).iter().any(|b| matches!(b,
        Body::ProgramTerminated { player: Color::White, statement } if statement.contains("no answer within 5.0 s"))));
}

#[test]
fn a3_different_dead_stones_leave_the_result_to_the_referee() {
    let mut b = script(&[a("G7", 100), a("pass", 100)]);
    b.dead = "C3";
    b.score = "W+8.5";
    let r = play(
        60_000,
        1,
        vec![script(&[a("C3", 100), a("pass", 100)])],
        vec![b],
    );
    assert!(r.declared(0).is_empty(), "the server declares nothing");
    match r.ending(0) {
        Ending::Referee { why } => {
            assert!(why.contains("dead stones differ"), "{why}");
            assert!(why.contains("W+6.5") && why.contains("W+8.5"), "{why}");
        }
        e => panic!("{e:?}"),
    }
    let s = r.state(0);
    assert!(
        s.disputes
            .iter()
            .any(|d| d.matter.contains("a) Both programs pass consecutively, 3")),
        "the disagreement is shown"
    );
    assert!(
        s.result.computed().is_none(),
        "no result by the rules until the referee corrects"
    );
}

#[test]
fn ctrl_c_records_the_game_as_interrupted_and_ends_the_match() {
    let r = play(
        60_000,
        3,
        vec![script(&[a("C3", 100), Act::Interrupt])],
        vec![script(&[a("G7", 100)])],
    );
    assert!(r.report.interrupted);
    assert_eq!(r.report.bouts.len(), 1, "no further game is started");
    assert_eq!(r.ending(0), Ending::Interrupted);
    let last = r.bodies(0).pop().unwrap();
    assert!(
        matches!(&last, Body::ClockPaused { reason: kifu_ledger::PauseReason::Other(w) } if w.contains("interrupted")),
        "{last:?}"
    );
}

#[test]
fn a_series_alternates_colours_and_sums_up_per_program() {
    let r = play(
        60_000,
        2,
        vec![script(&[a("C3", 1000), a("pass", 1000)])],
        vec![script(&[a("G7", 500), a("pass", 500)])],
    );
    assert_eq!(r.report.bouts[0].black, 0);
    assert_eq!(r.report.bouts[1].black, 1);
    // White wins by komi in both games: each program wins once.
    let s = r.report.summary();
    assert_eq!((s[0].wins, s[0].losses), (1, 1));
    assert_eq!((s[1].wins, s[1].losses), (1, 1));
    assert_eq!(s[0].moves, 4);
    assert_eq!(s[0].average_ms(), 1000);
    assert_eq!(s[1].average_ms(), 500);
    let table = r.report.table(["alpha", "beta"]);
    assert!(table.contains("alpha") && table.contains("1.00"), "{table}");
}

/// A GTP vertex on 9x9 from SGF letters (`ce` is C5).
fn sgf9(p: &str) -> &'static str {
    let b = p.as_bytes();
    let col = b"ABCDEFGHJ"[(b[0] - b'a') as usize] as char;
    let row = 9 - (b[1] - b'a');
    Box::leak(format!("{col}{row}").into_boxed_str())
}

#[test]
fn g_a_repeated_position_stops_the_game_as_a_draw() {
    // GNU Go's regression position threeko1 (a triple ko), built move by
    // move from an empty board, then the cycle of its six moves.
    let white = "ce de ee af bf cf ef ff bg dg fg ah fh gh gi";
    let black = "bd cd dd ed fd ae be fe ge gf cg eg gg hg bh ch dh eh hh ai bi di fi hi";
    let mut b_acts: Vec<Act> = black.split(' ').map(|p| a(sgf9(p), 10)).collect();
    let mut w_acts: Vec<Act> = white.split(' ').map(|p| a(sgf9(p), 10)).collect();
    while w_acts.len() < b_acts.len() {
        w_acts.push(a("pass", 10));
    }
    for (i, v) in ["A3", "E1", "D4", "A2", "F1", "D3"].into_iter().enumerate() {
        if i % 2 == 0 {
            b_acts.push(a(v, 10));
        } else {
            w_acts.push(a(v, 10));
        }
    }
    let r = play(60_000, 1, vec![script(&b_acts)], vec![script(&w_acts)]);
    assert_eq!(
        r.declared(0),
        vec![GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Repetition
        }]
    );
    match r.ending(0) {
        Ending::Decided { clause, .. } => assert!(clause.contains("g) Repetition")),
        e => panic!("{e:?}"),
    }
    assert_eq!(
        r.state(0).result.computed().map(|d| d.result.clone()),
        Some(GameResult {
            outcome: Outcome::Draw,
            by: ResultBy::Repetition
        })
    );
}

#[test]
fn e_the_400th_move_stops_play_and_passes_count_as_moves() {
    // On 19x19 Black fills the first 200 points row by row (its group keeps
    // liberties below) while White passes: move 400 is White's 200th pass.
    let letters = "ABCDEFGHJKLMNOPQRST".as_bytes();
    let b_acts: Vec<Act> = (0..200)
        .map(|i| {
            let v = format!("{}{}", letters[i % 19] as char, 19 - i / 19);
            a(Box::leak(v.into_boxed_str()), 1)
        })
        .collect();
    let w_acts: Vec<Act> = (0..200).map(|_| a("pass", 1)).collect();
    let mut b = script(&b_acts);
    b.score = "B+100";
    let mut w = script(&w_acts);
    w.score = "B+100";
    let r = play_sized(19, 60_000, vec![b], vec![w]);
    let moves: usize = r
        .bodies(0)
        .iter()
        .filter(|b| matches!(b, Body::StonePlaced { .. } | Body::Pass { .. }))
        .count();
    assert_eq!(moves, 400);
    match r.ending(0) {
        Ending::Decided { clause, .. } => {
            assert!(
                clause.contains("e) When the game has progressed the 400th moves"),
                "{clause}"
            )
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn b_a_program_that_resigns_loses() {
    let r = play(
        60_000,
        1,
        vec![script(&[a("C3", 100)])],
        vec![script(&[a("resign", 100)])],
    );
    assert_eq!(
        r.declared(0),
        vec![win(Color::Black, ResultBy::Resignation)]
    );
    assert!(r.bodies(0).contains(&Body::Resigned {
        player: Color::White,
        manner: kifu_ledger::Resignation::Program
    }));
    assert_eq!(
        r.state(0).result.computed().map(|d| d.result.clone()),
        Some(win(Color::Black, ResultBy::Resignation))
    );
}
