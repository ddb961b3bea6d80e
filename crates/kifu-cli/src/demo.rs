//! `kifu demo`: a short, complete game recorded and verified.

use std::path::Path;

use kifu_ledger::{
    verify_records, Body, Color, GameKind, GameResult, Genesis, Keypair, Outcome, Participant,
    PauseReason, Point, ResultBy, Role, Ruling, RulingEffect, RulingKind, TimeControl,
};
use serde_json::json;

use crate::cli::DemoArgs;
use crate::game_cmd::{append_body, create_game};
use crate::keys::{generate, write_pair};
use crate::render::describe;
use crate::store_open::{now_ms, open};
use crate::{CmdResult, Failure};

struct Cast {
    black: Keypair,
    white: Keypair,
    referee: Keypair,
}

fn cast(dir: &Path) -> Result<Cast, Failure> {
    let keys = dir.join("demo-keys");
    let make = |name: &str| -> Result<Keypair, Failure> {
        let k = generate()?;
        write_pair(&keys.join(name), &k, true)?;
        Ok(k)
    };
    Ok(Cast {
        black: make("black")?,
        white: make("white")?,
        referee: make("referee")?,
    })
}

fn pt(s: &str) -> Point {
    let b = s.as_bytes();
    Point {
        x: b[0] - b'a',
        y: b[1] - b'a',
    }
}

/// `kifu demo`.
pub fn demo(data: &Path, a: DemoArgs) -> CmdResult {
    let c = cast(data)?;
    let store = open(data)?;
    let genesis = Genesis {
        game: GameKind::Go,
        ruleset: "lgc-2023".into(),
        overrides: vec![],
        board_size: 9,
        handicap: 0,
        komi_half_points: 15,
        time_control: TimeControl::Fischer {
            main_ms: 10 * 60_000,
            increment_ms: 10_000,
            max_ms: None,
        },
        roster: vec![
            Participant {
                role: Role::Black,
                name: "Black player".into(),
                key: c.black.public(),
            },
            Participant {
                role: Role::White,
                name: "White player".into(),
                key: c.white.public(),
            },
            Participant {
                role: Role::Referee,
                name: "Referee".into(),
                key: c.referee.public(),
            },
        ],
        tournament: None,
        title: "kifu demonstration game".into(),
        auto_declare: false,
    };
    let mut t = now_ms();
    let game = create_game(&store, &c.referee, genesis, t)?;
    let mut log: Vec<String> = vec![format!("created game {}", hex::encode(game))];
    let mut step = |key: &Keypair, dt: u64, body: Body| -> Result<(), Failure> {
        t += dt;
        let line = describe(&body);
        let done = append_body(&store, &game, key, t, body)?;
        log.push(format!("seq {:>2}: {line}", done.seq));
        Ok(())
    };
    step(
        &c.referee,
        1_000,
        Body::ClockStarted {
            running: Color::Black,
        },
    )?;
    let moves = [
        "ee", "cc", "gc", "cg", "ge", "ce", "eg", "dd", "fd", "ff", "gg", "fe", "ef", "fg", "gf",
        "ed",
    ];
    let mut color = Color::Black;
    for m in moves {
        let key = if color == Color::Black {
            &c.black
        } else {
            &c.white
        };
        step(
            key,
            7_000,
            Body::StonePlaced {
                player: color,
                stone: color,
                point: pt(m),
            },
        )?;
        step(key, 500, Body::ClockPressed { player: color })?;
        color = color.opponent();
    }
    step(
        &c.white,
        30_000,
        Body::ClockPaused {
            reason: PauseReason::CallReferee,
        },
    )?;
    step(
        &c.referee,
        60_000,
        Body::RefereeRuling(Ruling {
            kind: RulingKind::Clarification,
            decision: "Play resumes; a pass hands one pass stone to the opponent.".into(),
            reasons: "White asked whether a pass costs a prisoner under these rules.".into(),
            rules_cited: vec!["LGC 2023, \"Passing\"".into()],
            effects: vec![RulingEffect::Resume],
        }),
    )?;
    step(
        &c.referee,
        1_000,
        Body::ClockResumed {
            running: Color::Black,
        },
    )?;
    step(
        &c.black,
        4_000,
        Body::Pass {
            player: Color::Black,
            pass_stone: true,
        },
    )?;
    step(
        &c.black,
        300,
        Body::ClockPressed {
            player: Color::Black,
        },
    )?;
    step(
        &c.white,
        5_000,
        Body::Pass {
            player: Color::White,
            pass_stone: true,
        },
    )?;
    step(
        &c.white,
        300,
        Body::ClockPressed {
            player: Color::White,
        },
    )?;
    let result = GameResult {
        outcome: Outcome::Win(Color::White),
        by: ResultBy::Score {
            margin_half_points: 15,
        },
    };
    step(&c.referee, 90_000, Body::ResultDeclared(result.clone()))?;
    for (key, _) in [(&c.black, Color::Black), (&c.white, Color::White)] {
        step(
            key,
            10_000,
            Body::ResultSheetSigned {
                result: result.clone(),
                under_protest: false,
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
        println!(
            "{}",
            json!({"game": hex::encode(game), "events": log.len(), "store_events": records.len(), "verified": true, "keys": data.join("demo-keys").display().to_string()})
        );
    } else {
        for l in &log {
            println!("{l}");
        }
        println!(
            "verified the store in {}: {} games, {} events, every link, signature and role checks",
            data.display(),
            report.games.len(),
            records.len()
        );
        println!(
            "keys are in {}; try: kifu log {}",
            data.join("demo-keys").display(),
            &hex::encode(game)[..12]
        );
    }
    Ok(())
}
