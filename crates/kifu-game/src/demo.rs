//! The demonstration game of `kifu demo`: a short 9x9 game under the LGC
//! 2023 rules with an illegal move unwound, a dispute, the referee's
//! judgement resumed under protest, a warning, an appeal and the appeals
//! committee's decision. The script is here, beside the rules it shows;
//! whoever records it signs each fact with the seat's key and says when.

use kifu_ledger::{
    Body, Color, CommitteeVerdict, Event, GameKind, Genesis, Participant, PauseReason, Point,
    PublicKey, Role, Ruling, RulingEffect, RulingKind, Sanction, SanctionKind, SanctionTarget,
    TimeControl, TournamentRef,
};

use crate::GameState;

/// Who signs a fact of the demonstration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signer {
    /// The Black player.
    Black,
    /// The White player.
    White,
    /// The referee (who also creates the game).
    Referee,
    /// The tournament director.
    Director,
    /// A committee member: 0 to 2, and 3 the reserve.
    Committee(usize),
}

/// The public keys of the demonstration's cast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cast {
    /// Black.
    pub black: PublicKey,
    /// White.
    pub white: PublicKey,
    /// The referee.
    pub referee: PublicKey,
    /// The tournament director.
    pub director: PublicKey,
    /// The appeals committee: three members and a reserve.
    pub committee: [PublicKey; 4],
}

/// The tournament the demonstration game is board 1 of, round 1.
pub const TOURNAMENT: &str = "kifu demonstration open";

/// How the demonstration is recorded: the genesis signed, each fact signed
/// by its signer `after_ms` after the one before, and the record read back
/// (for the result the rules give).
pub trait Recorder {
    /// Why recording failed.
    type Error;
    /// Records one fact; its seq.
    fn record(&mut self, signer: Signer, after_ms: u64, body: Body) -> Result<u64, Self::Error>;
    /// The game's events so far.
    fn events(&mut self) -> Result<Vec<Event>, Self::Error>;
}

/// Why the demonstration cannot be recorded.
#[derive(Debug, thiserror::Error)]
pub enum DemoError<E> {
    /// The recorder's failure.
    #[error("{0}")]
    Recorder(E),
    /// The game recorded did not end (a recorder that lost facts).
    #[error("the demo game did not end")]
    NotEnded,
}

fn name(role: Role) -> &'static str {
    match role {
        Role::Black => "Black player",
        Role::White => "White player",
        Role::Referee => "Referee",
        _ => "Tournament director",
    }
}

fn member(cast: &Cast, i: usize) -> Participant {
    Participant {
        role: Role::Committee,
        name: if i < 3 {
            format!("Committee member {}", i + 1)
        } else {
            "Committee reserve".into()
        },
        key: cast.committee[i],
    }
}

/// The demonstration game's genesis: 9x9, the default Go profile and its
/// komi, Fischer 10 minutes plus 10 seconds, the whole cast in the roster.
///
/// # Errors
///
/// None while the default Go profile is a profile ([`crate::profile_komi`]).
pub fn genesis(cast: &Cast) -> Result<Genesis, crate::GenesisError> {
    let p = |role, key| Participant {
        role,
        name: name(role).into(),
        key,
    };
    let mut roster = vec![
        p(Role::Black, cast.black),
        p(Role::White, cast.white),
        p(Role::Referee, cast.referee),
        p(Role::Director, cast.director),
    ];
    roster.extend((0..4).map(|i| member(cast, i)));
    let ruleset = crate::default_ruleset(GameKind::Go);
    Ok(Genesis {
        game: GameKind::Go,
        ruleset: ruleset.into(),
        overrides: vec![],
        board_size: 9,
        handicap: 0,
        komi_half_points: crate::profile_komi(GameKind::Go, ruleset, 0)?,
        time_control: TimeControl::Fischer {
            main_ms: 10 * 60_000,
            increment_ms: 10_000,
            max_ms: None,
        },
        roster,
        tournament: Some(TournamentRef {
            tournament: TOURNAMENT.into(),
            round: 1,
            board: 1,
        }),
        title: "kifu demonstration game".into(),
        auto_declare: false,
    })
}

fn pt(s: &str) -> Point {
    let b = s.as_bytes();
    Point {
        x: b[0] - b'a',
        y: b[1] - b'a',
    }
}

fn seat(c: Color) -> Signer {
    if c == Color::Black {
        Signer::Black
    } else {
        Signer::White
    }
}

/// Records the demonstration game after its genesis, fact by fact.
///
/// # Errors
///
/// The recorder's first failure; [`DemoError::NotEnded`] when the record
/// read back does not end where the script ends it.
pub fn play<R: Recorder>(cast: &Cast, r: &mut R) -> Result<(), DemoError<R::Error>> {
    let mut step = |s: Signer, dt: u64, body: Body| r.record(s, dt, body);
    let e = DemoError::Recorder;
    let play = |color: Color,
                at: &str,
                step: &mut dyn FnMut(Signer, u64, Body) -> Result<u64, R::Error>|
     -> Result<u64, R::Error> {
        let s = step(
            seat(color),
            7_000,
            Body::StonePlaced {
                player: color,
                stone: color,
                point: pt(at),
            },
        )?;
        step(seat(color), 500, Body::ClockPressed { player: color })?;
        Ok(s)
    };
    // The appeals committee, formed before the first round (LGC 2023,
    // "Appeals committee").
    step(
        Signer::Director,
        500,
        Body::CommitteeFormed {
            members: (0..3).map(|i| member(cast, i)).collect(),
            reserves: vec![member(cast, 3)],
            formed_before_round: 1,
        },
    )
    .map_err(e)?;
    step(
        Signer::Referee,
        1_000,
        Body::ClockStarted {
            running: Color::Black,
        },
    )
    .map_err(e)?;
    // Opening moves; Black takes a ko at cb.
    let mut color = Color::Black;
    for m in [
        "ba", "ca", "ab", "db", "bc", "cc", "ee", "bb", "cb", "dd", "gc",
    ] {
        play(color, m, &mut step).map_err(e)?;
        color = color.opponent();
    }
    // Black, thinking White had answered, puts down another stone: a failure
    // of alternation, an illegal move (LGC 2023, "Alternation").
    let illegal = step(
        Signer::Black,
        6_000,
        Body::StonePlaced {
            player: Color::Black,
            stone: Color::Black,
            point: pt("gg"),
        },
    )
    .map_err(e)?;
    // White points it out at once: under LGC 2023, "Illegal move", the game
    // is unwound to the position just before it.
    step(
        Signer::White,
        3_000,
        Body::IllegalMoveNoticed {
            move_seq: illegal,
            statement: "Black played twice in a row".into(),
        },
    )
    .map_err(e)?;
    let mut color = Color::White;
    for m in ["cg", "ge", "eg", "hh", "fe", "ef"] {
        play(color, m, &mut step).map_err(e)?;
        color = color.opponent();
    }
    // A dispute: White says Black pressed the clock with the other hand.
    step(
        Signer::White,
        2_000,
        Body::DisputeRaised {
            player: Color::White,
            matter: "Black pressed the clock with the other hand".into(),
        },
    )
    .map_err(e)?;
    step(
        Signer::White,
        1_000,
        Body::RefereeCalled {
            player: Color::White,
        },
    )
    .map_err(e)?;
    let judgement = step(
        Signer::Referee,
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
    )
    .map_err(e)?;
    // Black wants to appeal: he declares the game played under protest.
    step(
        Signer::Black,
        5_000,
        Body::ProtestDeclared {
            player: Color::Black,
            statement: "the warning is unfounded: one hand held the stone and pressed".into(),
        },
    )
    .map_err(e)?;
    step(
        Signer::Referee,
        1_000,
        Body::ClockResumed {
            running: Color::White,
        },
    )
    .map_err(e)?;
    play(Color::White, "fg", &mut step).map_err(e)?;
    play(Color::Black, "gf", &mut step).map_err(e)?;
    for color in [Color::White, Color::Black, Color::White] {
        step(
            seat(color),
            4_000,
            Body::Pass {
                player: color,
                pass_stone: true,
            },
        )
        .map_err(e)?;
        step(seat(color), 300, Body::ClockPressed { player: color }).map_err(e)?;
    }
    step(
        Signer::White,
        2_000,
        Body::ClockPaused {
            reason: PauseReason::StatusAssessment,
        },
    )
    .map_err(e)?;
    step(Signer::Black, 20_000, Body::StatusAgreed { dead: vec![] }).map_err(e)?;
    step(Signer::White, 5_000, Body::StatusAgreed { dead: vec![] }).map_err(e)?;
    // The result the rules give, from the record so far.
    let events = r.events().map_err(e)?;
    let result = GameState::replay(&events)
        .result
        .computed()
        .map(|d| d.result.clone())
        .ok_or(DemoError::NotEnded)?;
    let mut step = |s: Signer, dt: u64, body: Body| r.record(s, dt, body);
    step(
        Signer::Referee,
        60_000,
        Body::ResultDeclared(result.clone()),
    )
    .map_err(e)?;
    step(
        Signer::Black,
        10_000,
        Body::ResultSheetSigned {
            result: result.clone(),
            under_protest: true,
        },
    )
    .map_err(e)?;
    step(
        Signer::White,
        10_000,
        Body::ResultSheetSigned {
            result,
            under_protest: false,
        },
    )
    .map_err(e)?;
    let appeal = step(
        Signer::Black,
        60_000,
        Body::AppealLodged {
            player: Color::Black,
            ruling_seq: judgement,
            grounds: "the warning is unfounded".into(),
        },
    )
    .map_err(e)?;
    for i in [0, 2] {
        step(
            Signer::Committee(i),
            600_000,
            Body::CommitteeDecision {
                appeal_seq: appeal,
                verdict: CommitteeVerdict::Rejected,
                reasons:
                    "The referee saw the press himself; his judgement and reasons are obviously right."
                        .into(),
            },
        )
        .map_err(e)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::Keypair;

    /// Records into memory, signed with fixed keys.
    struct Memory {
        keys: Vec<Keypair>,
        records: Vec<kifu_ledger::Record>,
        at: u64,
    }

    impl Memory {
        fn key(&self, s: Signer) -> &Keypair {
            &self.keys[match s {
                Signer::Black => 0,
                Signer::White => 1,
                Signer::Referee => 2,
                Signer::Director => 3,
                Signer::Committee(i) => 4 + i,
            }]
        }
    }

    impl Recorder for Memory {
        type Error = kifu_ledger::LedgerError;
        fn record(&mut self, s: Signer, dt: u64, body: Body) -> Result<u64, Self::Error> {
            self.at += dt;
            let last = self.records.last().expect("genesis");
            let head = kifu_ledger::Head {
                seq: self.records.len() as u64 - 1,
                hash: last.hash(),
            };
            let game = self.records[0].hash();
            let key = self.key(s);
            let rec = Event::next(game, head, self.at, key.public(), body).sign(key)?;
            self.records.push(rec);
            Ok(self.records.len() as u64 - 1)
        }
        fn events(&mut self) -> Result<Vec<Event>, Self::Error> {
            self.records.iter().map(|r| r.decode()).collect()
        }
    }

    #[test]
    fn the_demonstration_verifies_and_ends_as_the_committee_decides() {
        let keys: Vec<Keypair> = (1..=8u8).map(|i| Keypair::from_seed([i; 32])).collect();
        let cast = Cast {
            black: keys[0].public(),
            white: keys[1].public(),
            referee: keys[2].public(),
            director: keys[3].public(),
            committee: [
                keys[4].public(),
                keys[5].public(),
                keys[6].public(),
                keys[7].public(),
            ],
        };
        let g = genesis(&cast).unwrap();
        assert_eq!(
            g.komi_half_points,
            crate::profile_komi(GameKind::Go, &g.ruleset, 0).unwrap()
        );
        crate::check_genesis_values(&g).unwrap();
        let first = Event::genesis(1_000, cast.referee, g)
            .sign(&keys[2])
            .unwrap();
        let mut m = Memory {
            keys,
            records: vec![first],
            at: 1_000,
        };
        play(&cast, &mut m).unwrap();
        assert!(kifu_ledger::verify_records(&m.records).ok());
        assert_eq!(m.records.len(), 63);
        let state = GameState::replay(&m.events().unwrap());
        assert!(state.result.computed().is_some());
        assert_eq!(state.appeals.len(), 1);
    }
}
