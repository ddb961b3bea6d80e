//! A congress's tournament chain, drawn by the engine and verified: 700
//! players (ranks 20k to 7d, a few clubs and countries), 10 McMahon rounds
//! each drawn with `draw::propose` and signed (`paired`, the bye,
//! `round_drawn`), every board's result entered; then what `kifu tournament
//! verify` does to it, timed: the whole-chain check
//! (`verify_tournament_records`) and every engine round drawn again from
//! the records before it (`draw::engine_rounds`).
//!
//! `cargo run --release -p kifu-tournament --example congress_verify [PLAYERS] [ROUNDS]`
//!
//! Prints one line per step with its time (docs/PERFORMANCE.md, "Pairing").

use std::time::Instant;

use kifu_ledger::{BoardResult, Body, Keypair, PairingSystem, Participant, Registration, Role};
use kifu_tournament::{draw, mcmahon_genesis, verify_tournament_records, Chain};

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(700);
    let rounds: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let director = Keypair::from_seed([0x61; 32]);
    let officials = vec![Participant {
        role: Role::Director,
        name: "Director".into(),
        key: director.public(),
    }];
    let mut genesis = mcmahon_genesis("Congress Open", "congress", rounds, officials);
    genesis.system = PairingSystem::McMahonDrawn(kifu_ledger::DrawRules {
        engine: kifu_pairing::ENGINE.into(),
        overrides: vec![],
    });
    genesis.mm_bar = "5d".into();
    genesis.mm_floor = "20k".into();
    let mut c = Chain::create(&director, 0, genesis).expect("genesis");
    let mut at = 0;
    let mut add = |c: &mut Chain, body: Body| {
        at += 1;
        c.append(&director, at, body).expect("a fact");
    };
    let built = Instant::now();
    for i in 0..players {
        // Ranks spread from 20k to 7d, stronger players fewer.
        let strength = (i * 27 / players) as i32; // 0..26
        let rank = if strength < 20 {
            format!("{}k", 20 - strength)
        } else {
            format!("{}d", strength - 19)
        };
        add(
            &mut c,
            Body::PlayerRegistered(Registration {
                id: format!("P{i}"),
                surname: format!("Player {i}"),
                given: String::new(),
                rank,
                rating: 0,
                country: ["DE", "FR", "CZ", "NL", "UA"][(i % 5) as usize].into(),
                club: format!("C{}", i % 40),
                egd_pin: String::new(),
                aga_id: String::new(),
                smms_correction: 0,
                key: None,
            }),
        );
    }
    let mut draw_ms = Vec::new();
    for round in 1..=rounds {
        let t = Instant::now();
        let proposal = draw::propose(&c.projection, round, &[]).expect("the engine draws");
        draw_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let facts = draw::facts(&proposal);
        let boards: Vec<u32> = facts
            .iter()
            .filter_map(|f| match f {
                Body::Paired(p) => Some(p.board),
                _ => None,
            })
            .collect();
        for f in facts {
            add(&mut c, f);
        }
        for (n, board) in boards.into_iter().enumerate() {
            // Results that vary: White wins two boards in three.
            let result = if (n as u32 + round).is_multiple_of(3) {
                BoardResult::BlackWins
            } else {
                BoardResult::WhiteWins
            };
            add(
                &mut c,
                Body::BoardResultEntered {
                    round,
                    board,
                    result,
                    by_default: false,
                    reason: "result sheet".into(),
                },
            );
        }
    }
    let events = c.records.len();
    println!(
        "built: {players} players, {rounds} rounds, {events} events in {:.1} s (the engine's draws: {} ms)",
        built.elapsed().as_secs_f64(),
        draw_ms.iter().map(|m| format!("{m:.0}")).collect::<Vec<_>>().join(", ")
    );
    let t = Instant::now();
    let report = verify_tournament_records(&c.records);
    let verify = t.elapsed();
    assert!(report.ok(), "the chain verifies");
    let t = Instant::now();
    let p = Chain::open(c.records.clone()).expect("opens").projection;
    let open = t.elapsed();
    let t = Instant::now();
    let checks = draw::engine_rounds(&p);
    let rederive = t.elapsed();
    let departures: usize = checks
        .iter()
        .map(|r| r.departures.as_ref().map(|d| d.len()).unwrap_or(usize::MAX))
        .sum();
    assert_eq!(checks.len(), rounds as usize);
    assert_eq!(departures, 0, "every round is the engine's");
    println!(
        "verify: whole chain {:.0} ms; projection {:.0} ms; {rounds} rounds drawn again {:.0} ms ({:.0} ms a round), no departure; in all {:.2} s",
        verify.as_secs_f64() * 1e3,
        open.as_secs_f64() * 1e3,
        rederive.as_secs_f64() * 1e3,
        rederive.as_secs_f64() * 1e3 / rounds as f64,
        (verify + open + rederive).as_secs_f64()
    );
}
