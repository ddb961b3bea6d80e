//! A match: one or more games between two programs, colours alternating,
//! each game carried through the UEC Cup's abnormal-termination procedure
//! (new games linked to the first), and the summary.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kifu_ledger::{Color, Hash, Keypair, Outcome, Participant, PublicKey, Role, TournamentRef};

use crate::clock::ServerClock;
use crate::engine::{Engine, EngineFailure};
use crate::ledger::GameLedger;
use crate::referee::{
    play_game, Ending, EngineStarter, GameReport, GameSettings, Signers, REPLAY_MAIN_MS,
};
use crate::MatchError;

/// Why a match cannot be played as planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The referee knows the UEC Cup's rules only.
    #[error("kifu match referees the {ruleset} ruleset only, not '{0}'", ruleset = RULESET)]
    Ruleset(String),
    /// A board size no Go game is played on here.
    #[error("board size {0} is outside {min}..{max}", min = kifu_go::MIN_SIZE, max = kifu_go::MAX_SIZE)]
    BoardSize(u8),
    /// A match of no game.
    #[error("--games must be at least 1")]
    NoGame,
    /// The server counts by tenths of a second (UEC Cup rules).
    #[error("time '{0}' must be a positive number of whole tenths of a second (UEC Cup: the server counts by 0.1 s)")]
    Time(String),
}

/// The one ruleset profile a match is played under: the UEC Cup's.
pub const RULESET: &str = kifu_go::profile::UEC_CUP;

/// The komi of a match's games: the UEC Cup profile's ("The handicap
/// (komi) is 6.5 points."; every game is even).
pub fn komi() -> kifu_go::Komi {
    kifu_go::Ruleset::uec_cup().komi(0)
}

/// Checks the ruleset a match is to be played under: the UEC Cup's.
///
/// # Errors
///
/// [`PlanError::Ruleset`] for any other.
pub fn check_ruleset(name: &str) -> Result<(), PlanError> {
    if name == RULESET {
        Ok(())
    } else {
        Err(PlanError::Ruleset(name.to_string()))
    }
}

/// One of the two programs of a match.
pub struct Program {
    /// Its name in the roster and the summary.
    pub name: String,
    /// The key of its seat in the roster: its operator's key when the
    /// operator signs, otherwise a key nobody uses (the server records the
    /// program's moves as recorder).
    pub seat_key: PublicKey,
    /// The operator's signing key, when the operator signs the result sheet.
    pub operator: Option<Keypair>,
}

/// Who the server is and who else is named in every genesis.
pub struct Officials {
    /// The server's name.
    pub server_name: String,
    /// The server's key: it signs every fact (recorder).
    pub server: Keypair,
    /// The referee (name, key); the server holds the role when absent.
    pub referee: Option<(String, PublicKey)>,
    /// The director (name, key); the server holds the role when absent.
    pub director: Option<(String, PublicKey)>,
}

/// What the match is.
#[derive(Debug, Clone)]
pub struct MatchPlan {
    /// Board size.
    pub size: u8,
    /// Komi in half points.
    pub komi_half_points: i32,
    /// Time per player in a first game, ms.
    pub main_ms: u64,
    /// Limit on every exchange other than `genmove`.
    pub gtp_timeout: Duration,
    /// Number of games.
    pub games: u32,
    /// Which program (0 or 1) has Black in the first game, as the nigiri
    /// decided.
    pub first_black: usize,
    /// The event's name (tournament field and titles).
    pub event: String,
}

impl MatchPlan {
    /// Checks what a plan asks before anything is started: a Go board size
    /// (`kifu_go::MIN_SIZE` to `kifu_go::MAX_SIZE`, the rule every genesis
    /// is checked by), at least one game, and a main time in whole tenths
    /// of a second (`time` is how the user wrote it, for the message).
    ///
    /// # Errors
    ///
    /// The first thing refused.
    pub fn check(&self, time: &str) -> Result<(), PlanError> {
        if !(kifu_go::MIN_SIZE..=kifu_go::MAX_SIZE).contains(&self.size) {
            return Err(PlanError::BoardSize(self.size));
        }
        if self.games == 0 {
            return Err(PlanError::NoGame);
        }
        if self.main_ms == 0 || !self.main_ms.is_multiple_of(100) {
            return Err(PlanError::Time(time.to_string()));
        }
        Ok(())
    }
}

/// Starts a program of the match.
pub trait ProgramStarter {
    /// Starts program `program` (0 or 1), to play `color` in `game`.
    fn start(
        &mut self,
        program: usize,
        color: Color,
        game: &Hash,
    ) -> Result<Box<dyn Engine>, EngineFailure>;
}

struct Seated<'a> {
    starter: &'a mut dyn ProgramStarter,
    black: usize,
}

impl EngineStarter for Seated<'_> {
    fn start(&mut self, color: Color, game: &Hash) -> Result<Box<dyn Engine>, EngineFailure> {
        let program = match color {
            Color::Black => self.black,
            Color::White => 1 - self.black,
        };
        self.starter.start(program, color, game)
    }
}

/// One scheduled game and the new games its abnormal terminations led to.
#[derive(Debug, Clone)]
pub struct Bout {
    /// 1-based number in the series.
    pub number: u32,
    /// The program (0 or 1) holding Black.
    pub black: usize,
    /// The chains played, the first one first.
    pub games: Vec<GameReport>,
}

impl Bout {
    /// The program that won, if one did.
    pub fn winner(&self) -> Option<usize> {
        match self.games.last().map(|g| &g.ending) {
            Some(Ending::Decided { result, .. }) => match result.outcome {
                Outcome::Win(Color::Black) => Some(self.black),
                Outcome::Win(Color::White) => Some(1 - self.black),
                _ => None,
            },
            _ => None,
        }
    }

    /// The final ending.
    pub fn ending(&self) -> Option<&Ending> {
        self.games.last().map(|g| &g.ending)
    }
}

/// What a match came to.
#[derive(Debug, Clone, Default)]
pub struct MatchReport {
    /// The games, in order.
    pub bouts: Vec<Bout>,
    /// Whether the server was stopped before the end.
    pub interrupted: bool,
}

/// One program's line of the summary table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProgramSummary {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Draws (jigo, repetition).
    pub draws: u32,
    /// Games with no result yet (the referee's, interrupted).
    pub open: u32,
    /// Moves played (genmove answers), all chains.
    pub moves: u32,
    /// Time charged, ms.
    pub charged_ms: u64,
    /// Abnormal terminations.
    pub abnormal: u32,
}

impl ProgramSummary {
    /// Average time charged per move, in ms.
    pub fn average_ms(&self) -> u64 {
        self.charged_ms.checked_div(self.moves as u64).unwrap_or(0)
    }
}

impl MatchReport {
    /// The summary of both programs.
    pub fn summary(&self) -> [ProgramSummary; 2] {
        let mut s: [ProgramSummary; 2] = Default::default();
        for b in &self.bouts {
            for g in &b.games {
                for (ci, c) in [Color::Black, Color::White].into_iter().enumerate() {
                    let p = if c == Color::Black {
                        b.black
                    } else {
                        1 - b.black
                    };
                    s[p].moves += g.moves[ci];
                    s[p].charged_ms += g.charged_ms[ci];
                    s[p].abnormal += g.abnormal.iter().filter(|&&a| a == c).count() as u32;
                }
            }
            match (b.winner(), b.ending()) {
                (Some(w), _) => {
                    s[w].wins += 1;
                    s[1 - w].losses += 1;
                }
                (None, Some(Ending::Decided { result, .. })) if result.outcome == Outcome::Draw => {
                    s[0].draws += 1;
                    s[1].draws += 1;
                }
                _ => {
                    s[0].open += 1;
                    s[1].open += 1;
                }
            }
        }
        s
    }

    /// The summary as a text table.
    pub fn table(&self, names: [&str; 2]) -> String {
        let s = self.summary();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(7).max(7);
        let mut out = format!(
            "{:<width$}  {:>4}  {:>6}  {:>5}  {:>4}  {:>5}  {:>12}  {:>8}\n",
            "program", "wins", "losses", "draws", "open", "moves", "avg s/move", "abnormal"
        );
        for (n, p) in names.iter().zip(&s) {
            out.push_str(&format!(
                "{:<width$}  {:>4}  {:>6}  {:>5}  {:>4}  {:>5}  {:>12.2}  {:>8}\n",
                n,
                p.wins,
                p.losses,
                p.draws,
                p.open,
                p.moves,
                p.average_ms() as f64 / 1000.0,
                p.abnormal
            ));
        }
        out
    }
}

fn roster(officials: &Officials, programs: &[Program; 2], black: usize) -> Vec<Participant> {
    let server = officials.server.public();
    let mut r = vec![
        Participant {
            role: Role::Black,
            name: programs[black].name.clone(),
            key: programs[black].seat_key,
        },
        Participant {
            role: Role::White,
            name: programs[1 - black].name.clone(),
            key: programs[1 - black].seat_key,
        },
        Participant {
            role: Role::Recorder,
            name: officials.server_name.clone(),
            key: server,
        },
    ];
    let (rn, rk) = officials
        .referee
        .clone()
        .unwrap_or_else(|| (format!("{} (referee)", officials.server_name), server));
    r.push(Participant {
        role: Role::Referee,
        name: rn,
        key: rk,
    });
    let (dn, dk) = officials
        .director
        .clone()
        .unwrap_or_else(|| (format!("{} (director)", officials.server_name), server));
    r.push(Participant {
        role: Role::Director,
        name: dn,
        key: dk,
    });
    r
}

/// Plays the match. Each game's chain is written as it is played; a new
/// game after an abnormal termination names the first game's id in its
/// genesis (`replay_of`) and the programs that terminated
/// (`abnormal_terminations`).
#[allow(clippy::too_many_arguments)]
pub fn run_match<C: ServerClock, L: GameLedger>(
    plan: &MatchPlan,
    programs: &[Program; 2],
    officials: &Officials,
    starter: &mut dyn ProgramStarter,
    clock: &C,
    ledger: &mut L,
    interrupt: &AtomicBool,
    mut progress: impl FnMut(&Bout, &GameReport),
) -> Result<MatchReport, MatchError> {
    let mut report = MatchReport::default();
    for number in 1..=plan.games {
        // UEC Cup "Game Rules": the initiative by nigiri for the first game;
        // a series alternates colours.
        let black = (plan.first_black + number as usize - 1) % 2;
        let mut bout = Bout {
            number,
            black,
            games: Vec::new(),
        };
        let mut earlier: Vec<Color> = Vec::new();
        let mut first: Option<Hash> = None;
        // At most three chains: after two abnormal terminations the next one
        // is some program's second, which loses (h) 4).
        for attempt in 0..3u32 {
            let mut overrides = Vec::new();
            if let Some(f) = first {
                overrides.push(("replay_of".to_string(), hex::encode(f)));
                // The override's words are the Go profile's (`kifu_go::Color::name`).
                let names: Vec<&str> = earlier
                    .iter()
                    .map(|c| kifu_game::convert::go_color(*c).name())
                    .collect();
                overrides.push(("abnormal_terminations".to_string(), names.join(",")));
            }
            let settings = GameSettings {
                size: plan.size,
                komi_half_points: plan.komi_half_points,
                main_ms: if attempt == 0 {
                    plan.main_ms
                } else {
                    REPLAY_MAIN_MS
                },
                gtp_timeout: plan.gtp_timeout,
                title: format!(
                    "{}: {} (B) vs {} (W), game {number}{}",
                    plan.event,
                    programs[black].name,
                    programs[1 - black].name,
                    if attempt == 0 {
                        String::new()
                    } else {
                        format!(", new game {attempt} after abnormal termination")
                    }
                ),
                tournament: Some(TournamentRef {
                    tournament: plan.event.clone(),
                    round: number,
                    board: 1,
                }),
                roster: roster(officials, programs, black),
                overrides,
                earlier_abnormal: earlier.clone(),
                is_replay: attempt > 0,
            };
            let operators = [
                programs[black].operator.as_ref(),
                programs[1 - black].operator.as_ref(),
            ];
            let keys = Signers {
                server: &officials.server,
                operators,
            };
            let mut seated = Seated { starter, black };
            let g = play_game(&settings, &mut seated, clock, ledger, &keys, interrupt)?;
            first.get_or_insert(g.game);
            earlier.extend(g.abnormal.iter().copied());
            let again = matches!(g.ending, Ending::Replay { .. });
            // Stopped during the game, or while its ending was being
            // recorded: no further game starts.
            let stopped = g.ending == Ending::Interrupted
                || interrupt.load(std::sync::atomic::Ordering::SeqCst);
            bout.games.push(g);
            if let Some(last) = bout.games.last() {
                progress(&bout, last);
            }
            if stopped {
                report.interrupted = true;
            }
            if !again || stopped {
                break;
            }
        }
        report.bouts.push(bout);
        if report.interrupted {
            break;
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> MatchPlan {
        MatchPlan {
            size: 19,
            komi_half_points: 13,
            main_ms: 1_800_000,
            gtp_timeout: Duration::from_secs(10),
            games: 1,
            first_black: 0,
            event: "unit".into(),
        }
    }

    #[test]
    fn a_plan_is_checked_before_anything_starts() {
        assert_eq!(plan().check("30m"), Ok(()));
        for size in [1, 26] {
            let p = MatchPlan { size, ..plan() };
            assert_eq!(p.check("30m"), Err(PlanError::BoardSize(size)));
        }
        assert_eq!(
            MatchPlan { games: 0, ..plan() }.check("30m"),
            Err(PlanError::NoGame)
        );
        for main_ms in [0, 1_050] {
            let e = MatchPlan { main_ms, ..plan() }.check("1.05s").unwrap_err();
            assert_eq!(e, PlanError::Time("1.05s".into()));
            assert!(e.to_string().contains("whole tenths"), "{e}");
        }
        assert_eq!(check_ruleset("uec-cup"), Ok(()));
        assert_eq!(
            check_ruleset("japanese"),
            Err(PlanError::Ruleset("japanese".into()))
        );
    }

    #[test]
    fn a_match_s_defaults_are_the_uec_cup_s() {
        // "The handicap (komi) is 6.5 points." "Time limit for each player
        // is 30 minutes."
        assert_eq!(komi().half_points(), 13);
        assert_eq!(komi().to_string(), "6.5");
        assert_eq!(crate::MAIN_MS, 30 * 60 * 1000);
        assert_eq!(RULESET, "uec-cup");
        assert_eq!(
            PlanError::Ruleset("japanese".into()).to_string(),
            "kifu match referees the uec-cup ruleset only, not 'japanese'"
        );
    }
}
