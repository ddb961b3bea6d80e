//! `kifu demo`: a short, complete game recorded and verified.

use clap::Args;
use std::path::Path;

use kifu_game::GameState;
use kifu_ledger::{
    verify_records, Body, Color, CommitteeVerdict, Event, GameKind, Genesis, Keypair, Participant,
    PauseReason, Point, Role, Ruling, RulingEffect, RulingKind, Sanction, SanctionKind,
    SanctionTarget, TimeControl, TournamentRef,
};
use serde_json::json;

use crate::game_cmd::{append_body, create_game};
use crate::keys::{generate, read_private, write_pair};
use crate::remote::open;
use crate::render::{count, describe};
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

struct Cast {
    black: Keypair,
    white: Keypair,
    referee: Keypair,
    director: Keypair,
    /// Appeals committee: three members and a reserve.
    committee: Vec<Keypair>,
}

fn cast(keys: &Path) -> Result<Cast, Failure> {
    // Keys of an earlier demo in the same directory are kept and reused, so
    // that the games it recorded can still be signed for.
    let make = |name: &str| -> Result<Keypair, Failure> {
        let base = keys.join(name);
        let existing = base.with_extension("key");
        if existing.exists() {
            return read_private(&existing);
        }
        let k = generate()?;
        write_pair(&base, &k, false)?;
        Ok(k)
    };
    Ok(Cast {
        black: make("black")?,
        white: make("white")?,
        referee: make("referee")?,
        director: make("director")?,
        committee: vec![
            make("committee-1")?,
            make("committee-2")?,
            make("committee-3")?,
            make("committee-reserve")?,
        ],
    })
}

fn pt(s: &str) -> Point {
    let b = s.as_bytes();
    Point {
        x: b[0] - b'a',
        y: b[1] - b'a',
    }
}

fn roster(c: &Cast) -> Vec<Participant> {
    let p = |role, name: &str, key: &Keypair| Participant {
        role,
        name: name.into(),
        key: key.public(),
    };
    let mut r = vec![
        p(Role::Black, "Black player", &c.black),
        p(Role::White, "White player", &c.white),
        p(Role::Referee, "Referee", &c.referee),
        p(Role::Director, "Tournament director", &c.director),
    ];
    for (i, k) in c.committee.iter().enumerate() {
        let name = if i < 3 {
            format!("Committee member {}", i + 1)
        } else {
            "Committee reserve".into()
        };
        r.push(p(Role::Committee, &name, k));
    }
    r
}

/// `kifu demo`: a game with an illegal move unwound, a dispute, a referee's
/// judgement resumed under protest, a warning, an appeal and the appeals
/// committee's decision.
///
/// The participants' keys are kept in `DATA/demo-keys`; through a server
/// with no `--data` named, in a new directory under the system's temporary
/// directory (the working directory is left alone), printed at the end.
pub fn demo(data: &Path, data_named: bool, a: DemoArgs) -> CmdResult {
    let keys = match crate::endpoint::server() {
        Some(_) if !data_named => fresh_key_dir()?,
        _ => data.join("demo-keys"),
    };
    let c = cast(&keys)?;
    let store = open(data)?;
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: kifu_game::default_ruleset(GameKind::Go).into(),
        overrides: vec![],
        board_size: 9,
        handicap: 0,
        komi_half_points: kifu_game::profile_komi(
            GameKind::Go,
            kifu_game::default_ruleset(GameKind::Go),
            0,
        )
        .map_err(|e| Failure::new(e.to_string()))?,
        time_control: TimeControl::Fischer {
            main_ms: 10 * 60_000,
            increment_ms: 10_000,
            max_ms: None,
        },
        roster: roster(&c),
        tournament: Some(TournamentRef {
            tournament: "kifu demonstration open".into(),
            round: 1,
            board: 1,
        }),
        title: "kifu demonstration game".into(),
        auto_declare: false,
    };
    let mut t = now_ms();
    let notation = kifu_game::Notation::of(&genesis);
    let game = create_game(&store, &c.referee, genesis, t)?;
    let mut log: Vec<String> = vec![format!("created game {}", hex::encode(game))];
    let mut events: Vec<Event> = Vec::new();
    let mut step = |key: &Keypair, dt: u64, body: Body| -> Result<u64, Failure> {
        t += dt;
        let line = describe(&body, &notation);
        let done = append_body(&store, &game, key, t, body)?;
        log.push(format!("seq {:>2}: {line}", done.seq));
        Ok(done.seq)
    };
    let member = |i: usize, name: &str| Participant {
        role: Role::Committee,
        name: name.into(),
        key: c.committee[i].public(),
    };
    // The appeals committee, formed before the first round (LGC 2023,
    // "Appeals committee").
    step(
        &c.director,
        500,
        Body::CommitteeFormed {
            members: vec![
                member(0, "Committee member 1"),
                member(1, "Committee member 2"),
                member(2, "Committee member 3"),
            ],
            reserves: vec![member(3, "Committee reserve")],
            formed_before_round: 1,
        },
    )?;
    step(
        &c.referee,
        1_000,
        Body::ClockStarted {
            running: Color::Black,
        },
    )?;
    let key = |color: Color| {
        if color == Color::Black {
            &c.black
        } else {
            &c.white
        }
    };
    let play = |color: Color,
                at: &str,
                step: &mut dyn FnMut(&Keypair, u64, Body) -> Result<u64, Failure>|
     -> Result<u64, Failure> {
        let s = step(
            key(color),
            7_000,
            Body::StonePlaced {
                player: color,
                stone: color,
                point: pt(at),
            },
        )?;
        step(key(color), 500, Body::ClockPressed { player: color })?;
        Ok(s)
    };
    // Opening moves; Black takes a ko at cb.
    let mut color = Color::Black;
    for m in [
        "ba", "ca", "ab", "db", "bc", "cc", "ee", "bb", "cb", "dd", "gc",
    ] {
        play(color, m, &mut step)?;
        color = color.opponent();
    }
    // Black, thinking White had answered, puts down another stone: a failure
    // of alternation, an illegal move (LGC 2023, "Alternation").
    let illegal = step(
        &c.black,
        6_000,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: pt("gg"),
        },
    )?;
    // White points it out at once: under LGC 2023, "Illegal move", the game
    // is unwound to the position just before it.
    step(
        &c.white,
        3_000,
        Body::IllegalMoveNoticed {
            move_seq: illegal,
            statement: "Black played twice in a row".into(),
        },
    )?;
    let mut color = Color::White;
    for m in ["cg", "ge", "eg", "hh", "fe", "ef"] {
        play(color, m, &mut step)?;
        color = color.opponent();
    }
    // A dispute: White says Black pressed the clock with the other hand.
    step(
        &c.white,
        2_000,
        Body::DisputeRaised {
            player: Color::White,
            matter: "Black pressed the clock with the other hand".into(),
        },
    )?;
    step(
        &c.white,
        1_000,
        Body::RefereeCalled {
            player: Color::White,
        },
    )?;
    let judgement = step(
        &c.referee,
        60_000,
        Body::RefereeRuling(Ruling {
            kind: RulingKind::Judgement,
            decision: "Play resumes. Black is warned; White is given one minute.".into(),
            reasons: "Black completed two moves by pressing the clock with the other hand; \
                      the game itself is not affected."
                .into(),
            rules_cited: vec![
                "LGC 2023, \"Making a move\"".into(),
                "LGC 2023, \"Warning\"".into(),
            ],
            effects: vec![
                RulingEffect::Sanction(Sanction {
                    target: SanctionTarget::Player(Color::Black),
                    kind: SanctionKind::Warning,
                    reason: "pressing the clock with the other hand".into(),
                }),
                RulingEffect::AdjustClock {
                    player: Color::White,
                    delta_ms: 60_000,
                },
                RulingEffect::Resume,
            ],
        }),
    )?;
    // Black wants to appeal: he declares the game played under protest.
    step(
        &c.black,
        5_000,
        Body::ProtestDeclared {
            player: Color::Black,
            statement: "the warning is unfounded: one hand held the stone and pressed".into(),
        },
    )?;
    step(
        &c.referee,
        1_000,
        Body::ClockResumed {
            running: Color::White,
        },
    )?;
    play(Color::White, "fg", &mut step)?;
    play(Color::Black, "gf", &mut step)?;
    for color in [Color::White, Color::Black, Color::White] {
        step(
            key(color),
            4_000,
            Body::Pass {
                player: color,
                pass_stone: true,
            },
        )?;
        step(key(color), 300, Body::ClockPressed { player: color })?;
    }
    step(
        &c.white,
        2_000,
        Body::ClockPaused {
            reason: PauseReason::StatusAssessment,
        },
    )?;
    step(&c.black, 20_000, Body::StatusAgreed { dead: vec![] })?;
    step(&c.white, 5_000, Body::StatusAgreed { dead: vec![] })?;
    // The result the rules give, from the record so far.
    let records = store.read(&game, 0, None)?;
    for r in &records {
        events.push(r.decode()?);
    }
    let result = GameState::replay(&events)
        .result
        .computed()
        .map(|d| d.result.clone())
        .ok_or_else(|| Failure::new("the demo game did not end"))?;
    step(&c.referee, 60_000, Body::ResultDeclared(result.clone()))?;
    step(
        &c.black,
        10_000,
        Body::ResultSheetSigned {
            result: result.clone(),
            under_protest: true,
        },
    )?;
    step(
        &c.white,
        10_000,
        Body::ResultSheetSigned {
            result,
            under_protest: false,
        },
    )?;
    let appeal = step(
        &c.black,
        60_000,
        Body::AppealLodged {
            player: Color::Black,
            ruling_seq: judgement,
            grounds: "the warning is unfounded".into(),
        },
    )?;
    for i in [0, 2] {
        step(
            &c.committee[i],
            600_000,
            Body::CommitteeDecision {
                appeal_seq: appeal,
                verdict: CommitteeVerdict::Rejected,
                reasons: "The referee saw the press himself; his judgement and reasons are obviously right."
                    .into(),
            },
        )?;
    }
    let records = store.all_records()?;
    let report = verify_records(&records);
    if !report.ok() {
        return Err(Failure::new(format!(
            "the demo store does not verify: {}",
            report.problems[0]
        )));
    }
    if a.json {
        say!(
            "{}",
            json!({"game": hex::encode(game), "events": log.len(), "store_events": records.len(), "verified": true, "keys": keys.display().to_string()})
        );
    } else {
        for l in &log {
            say!("{l}");
        }
        say!(
            "verified the store in {}: {}, {}, every link, signature and role checks",
            crate::endpoint::server()
                .map(str::to_string)
                .unwrap_or_else(|| data.display().to_string()),
            count(report.games.len(), "game"),
            count(records.len(), "event")
        );
        let data_arg = match crate::endpoint::server() {
            Some(url) => format!(" --server {}", shell_word(url)),
            None if data == Path::new("./kifu-data") || data == Path::new("kifu-data") => {
                String::new()
            }
            None => format!(" --data {}", shell_word(&data.display().to_string())),
        };
        say!(
            "keys are in {}; try: kifu{data_arg} log {}",
            keys.display(),
            &hex::encode(game)[..12]
        );
    }
    // Tournament chains are files of the data directory: through a server
    // the demo records the game only.
    if let crate::remote::Backend::Local(store) = &store {
        crate::tournament_cmd::demo_tournament(data, store, game, &c.director, &c.referee, a.json)?;
    }
    Ok(())
}

/// A new directory for the demo's keys under the system's temporary
/// directory, kept after the command.
fn fresh_key_dir() -> Result<std::path::PathBuf, Failure> {
    let base = std::env::temp_dir();
    for attempt in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = base.join(format!(
            "kifu-demo-keys-{}-{nanos:08x}{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Failure::new(format!("{}: {e}", dir.display()))),
        }
    }
    Err(Failure::new(format!(
        "cannot make a directory for the demo's keys in {}",
        base.display()
    )))
}

/// A word as a POSIX shell reads it: quoted when it holds anything but
/// letters, digits and `/._-+:,=`.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `kifu demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Print what was done as JSON.
    #[arg(long)]
    pub json: bool,
}
