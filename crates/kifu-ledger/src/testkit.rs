//! Building blocks for tests and examples: fixed keys and a sample game.
//!
//! Deterministic (keys from fixed seeds), so tests and the format vectors in
//! `fixtures/format/` can be reproduced byte for byte.

use crate::body::*;
use crate::chain::Head;
use crate::event::{Event, Hash, Record};
use crate::key::Keypair;

/// The cast of a sample game, with keys from fixed seeds.
pub struct Cast {
    /// Black player (seed 0x01 repeated).
    pub black: Keypair,
    /// White player (seed 0x02 repeated).
    pub white: Keypair,
    /// Referee (seed 0x03 repeated).
    pub referee: Keypair,
    /// Recorder (seed 0x04 repeated).
    pub recorder: Keypair,
    /// Tournament director (seed 0x05 repeated).
    pub director: Keypair,
    /// A key in nobody's roster (seed 0x09 repeated).
    pub stranger: Keypair,
    /// Black's replacement key, in no genesis roster (seed 0x0a repeated):
    /// see [`Body::KeyReplaced`].
    pub black_new: Keypair,
}

impl Cast {
    /// The fixed cast.
    pub fn new() -> Cast {
        Cast {
            black: Keypair::from_seed([1; 32]),
            white: Keypair::from_seed([2; 32]),
            referee: Keypair::from_seed([3; 32]),
            recorder: Keypair::from_seed([4; 32]),
            director: Keypair::from_seed([5; 32]),
            stranger: Keypair::from_seed([9; 32]),
            black_new: Keypair::from_seed([10; 32]),
        }
    }

    /// A 9x9 `lgc-2023` genesis naming the whole cast but the stranger.
    pub fn genesis(&self, title: &str) -> Genesis {
        let p = |role, name: &str, k: &Keypair| Participant {
            role,
            name: name.into(),
            key: k.public(),
        };
        Genesis {
            game: GameKind::Go,
            // The sample game's profile, by name: the ledger knows no rules.
            ruleset: "lgc-2023".into(),
            overrides: vec![],
            board_size: 9,
            handicap: 0,
            komi_half_points: 15,
            time_control: TimeControl::Fischer {
                main_ms: 600_000,
                increment_ms: 10_000,
                max_ms: None,
            },
            roster: vec![
                p(Role::Black, "Black", &self.black),
                p(Role::White, "White", &self.white),
                p(Role::Referee, "Referee", &self.referee),
                p(Role::Recorder, "Board recorder", &self.recorder),
                p(Role::Director, "Director", &self.director),
            ],
            tournament: Some(TournamentRef {
                tournament: "Sample Open".into(),
                round: 1,
                board: 1,
            }),
            title: title.into(),
            auto_declare: false,
        }
    }
}

impl Default for Cast {
    fn default() -> Self {
        Cast::new()
    }
}

/// A chain under construction.
#[derive(Clone)]
pub struct ChainBuilder {
    /// The game id.
    pub game: Hash,
    /// The last record.
    pub head: Head,
    /// Every record so far.
    pub records: Vec<Record>,
    /// Timestamp of the next event.
    pub at_ms: u64,
}

impl ChainBuilder {
    /// Starts a chain with a genesis signed by `signer`.
    pub fn start(signer: &Keypair, genesis: Genesis, at_ms: u64) -> ChainBuilder {
        let rec = Event::genesis(at_ms, signer.public(), genesis)
            .sign(signer)
            .expect("the signer is the event's signer");
        let game = rec.hash();
        ChainBuilder {
            game,
            head: Head { seq: 0, hash: game },
            records: vec![rec],
            at_ms,
        }
    }

    /// The standing at the head (who may sign what next).
    pub fn standing(&self) -> crate::standing::Standing {
        let events: Vec<Event> = self
            .records
            .iter()
            .map(|r| r.decode().expect("the builder writes known kinds"))
            .collect();
        crate::standing::Standing::replay(&events).expect("the chain starts with its genesis")
    }

    /// The next event, signed, without adding it.
    pub fn next(&self, signer: &Keypair, body: Body) -> Record {
        Event::next(
            self.game,
            self.head,
            self.at_ms.saturating_add(1000),
            signer.public(),
            body,
        )
        .sign(signer)
        .expect("the signer is the event's signer")
    }

    /// Adds a record built elsewhere as the next one.
    pub fn push_record(&mut self, rec: Record) -> &Record {
        self.at_ms = self.at_ms.saturating_add(1000);
        self.head = Head {
            seq: self.head.seq + 1,
            hash: rec.hash(),
        };
        self.records.push(rec);
        self.records.last().expect("just pushed")
    }

    /// The next event with `body_bytes` as its body, whatever they are (an
    /// unknown kind, a non-canonical body), signed by `signer`.
    pub fn next_raw(&self, signer: &Keypair, body_bytes: Vec<u8>) -> Record {
        let header = crate::event::Header {
            version: crate::event::FORMAT_VERSION,
            chain: self.game,
            seq: self.head.seq + 1,
            prev_hash: self.head.hash,
            at_ms: self.at_ms.saturating_add(1000),
            signer: signer.public(),
            kind: 0,
            body_bytes,
        };
        let event_bytes = header.to_event_bytes().expect("encodes");
        let signature = signer.sign_raw(&crate::event::signed_message(&event_bytes));
        Record {
            event_bytes,
            signature,
        }
    }

    /// Signs and adds the next event.
    pub fn push(&mut self, signer: &Keypair, body: Body) -> &Record {
        let rec = self.next(signer, body);
        self.at_ms = self.at_ms.saturating_add(1000);
        self.head = Head {
            seq: self.head.seq + 1,
            hash: rec.hash(),
        };
        self.records.push(rec);
        self.records.last().expect("just pushed")
    }
}

/// A player's registration with id, surname `id`, rank 1d and nothing
/// else, for tournament chains in tests.
pub fn registration(id: &str) -> Registration {
    Registration {
        id: id.into(),
        surname: id.into(),
        given: String::new(),
        rank: "1d".into(),
        rating: 0,
        country: String::new(),
        club: String::new(),
        egd_pin: String::new(),
        aga_id: String::new(),
        smms_correction: 0,
        key: None,
    }
}

/// A game of `moves` moves (at most 361), each followed by its clock press,
/// after the genesis and the clock's start: `2 + 2 * moves` records, the
/// stones placed row by row from the board's corner, Black first.
pub fn moves_game(cast: &Cast, title: &str, moves: u16) -> ChainBuilder {
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis(title), 1_767_225_600_000);
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    let mut color = Color::Black;
    for i in 0..moves.min(361) {
        let k = if color == Color::Black {
            &cast.black
        } else {
            &cast.white
        };
        let point = Point {
            x: (i % 19) as u8,
            y: (i / 19) as u8,
        };
        c.push(
            k,
            Body::StonePlaced {
                player: color,
                stone: color,
                point,
            },
        );
        c.push(k, Body::ClockPressed { player: color });
        color = color.opponent();
    }
    c
}

/// A 19x19 game ended by resignation and the referee's result: the clock
/// started, then `moves` moves (at most 361, each on a point of its own)
/// with their clock presses. No irregularity: an archive of such games is
/// what a season's archive looks like to a verifier.
pub fn finished_game(cast: &Cast, title: &str, moves: u16) -> ChainBuilder {
    let mut genesis = cast.genesis(title);
    genesis.board_size = 19;
    let mut c = ChainBuilder::start(&cast.referee, genesis, 1_767_225_600_000);
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    let mut color = Color::Black;
    for i in 0..moves.min(361) {
        let k = if color == Color::Black {
            &cast.black
        } else {
            &cast.white
        };
        let point = Point {
            x: (i % 19) as u8,
            y: (i / 19) as u8,
        };
        c.push(
            k,
            Body::StonePlaced {
                player: color,
                stone: color,
                point,
            },
        );
        c.push(k, Body::ClockPressed { player: color });
        color = color.opponent();
    }
    let resigning = if color == Color::Black {
        &cast.black
    } else {
        &cast.white
    };
    c.push(
        resigning,
        Body::Resigned {
            player: color,
            manner: Resignation::Spoken,
        },
    );
    c.push(
        &cast.referee,
        Body::ResultDeclared(GameResult {
            outcome: Outcome::Win(color.opponent()),
            by: ResultBy::Resignation,
        }),
    );
    c
}

/// A short sample game: clock start, moves with clock presses, a pause, a
/// ruling, passes, a result and its signatures.
pub fn sample_game(cast: &Cast, title: &str) -> ChainBuilder {
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis(title), 1_767_225_600_000);
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    let moves = [(4, 4), (2, 2), (6, 2), (2, 6), (6, 6), (4, 2)];
    let mut color = Color::Black;
    for (x, y) in moves {
        let k = if color == Color::Black {
            &cast.black
        } else {
            &cast.white
        };
        c.push(
            k,
            Body::StonePlaced {
                player: color,
                stone: color,
                point: Point { x, y },
            },
        );
        c.push(k, Body::ClockPressed { player: color });
        color = color.opponent();
    }
    c.push(
        &cast.white,
        Body::ClockPaused {
            reason: PauseReason::CallReferee,
        },
    );
    c.push(
        &cast.referee,
        Body::RefereeRuling(Ruling {
            kind: RulingKind::Clarification,
            decision: "play on".into(),
            reasons: "asked about pass stones".into(),
            rules_cited: vec!["LGC 2023, Passing".into()],
            effects: vec![RulingEffect::Resume],
        }),
    );
    c.push(
        &cast.referee,
        Body::ClockResumed {
            running: Color::Black,
        },
    );
    c.push(
        &cast.black,
        Body::Pass {
            player: Color::Black,
            pass_stone: true,
        },
    );
    c.push(
        &cast.white,
        Body::Pass {
            player: Color::White,
            pass_stone: true,
        },
    );
    let result = GameResult {
        outcome: Outcome::Win(Color::White),
        by: ResultBy::Score {
            margin_half_points: 9,
        },
    };
    c.push(&cast.referee, Body::ResultDeclared(result.clone()));
    c.push(
        &cast.black,
        Body::ResultSheetSigned {
            result: result.clone(),
            under_protest: false,
        },
    );
    c.push(
        &cast.white,
        Body::ResultSheetSigned {
            result,
            under_protest: false,
        },
    );
    c
}

/// Five committee keys (seeds 20 to 24): three members, a reserve, and one
/// to co-opt.
pub fn committee_keys() -> Vec<Keypair> {
    (20..25u8).map(|i| Keypair::from_seed([i; 32])).collect()
}

/// One example of every kind but the genesis, in kind-index order, each with
/// a signer allowed to sign it when the events are appended in this order
/// right after a genesis from [`Cast::genesis`] (kind `k` then sits at seq
/// `k`). The format vectors are generated from this table; a test checks it
/// covers every kind, so a kind cannot be added without its example.
pub fn every_kind<'a>(cast: &'a Cast, committee: &'a [Keypair]) -> Vec<(&'a Keypair, Body)> {
    let c = |i: usize| Participant {
        role: Role::Committee,
        name: format!("Committee {}", i + 1),
        key: committee[i].public(),
    };
    let p = |x, y| Point { x, y };
    let white_wins = GameResult {
        outcome: Outcome::Win(Color::White),
        by: ResultBy::Resignation,
    };
    let warning = Sanction {
        target: SanctionTarget::Player(Color::Black),
        kind: SanctionKind::Warning,
        reason: "pressed the clock with the other hand".into(),
    };
    vec![
        (
            &cast.referee,
            Body::ClockStarted {
                running: Color::Black,
            },
        ),
        (
            &cast.black,
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: p(2, 3),
            },
        ),
        (
            &cast.white,
            Body::Pass {
                player: Color::White,
                pass_stone: true,
            },
        ),
        (
            &cast.black,
            Body::ClockPressed {
                player: Color::Black,
            },
        ),
        (
            &cast.white,
            Body::ClockPaused {
                reason: PauseReason::Toilet,
            },
        ),
        (
            &cast.referee,
            Body::ClockResumed {
                running: Color::White,
            },
        ),
        (
            &cast.black,
            Body::Resigned {
                player: Color::Black,
                manner: Resignation::Spoken,
            },
        ),
        (
            &cast.referee,
            Body::RefereeRuling(Ruling {
                kind: RulingKind::Judgement,
                decision: "warning; two minutes off".into(),
                reasons: "seen by the referee".into(),
                rules_cited: vec!["LGC 2023, Clock".into()],
                effects: vec![
                    RulingEffect::UnwindTo { seq: 2 },
                    RulingEffect::AdjustClock {
                        player: Color::Black,
                        delta_ms: -120_000,
                    },
                    RulingEffect::Resume,
                    RulingEffect::Sanction(warning.clone()),
                    RulingEffect::SetResult(white_wins.clone()),
                ],
            }),
        ),
        (
            &cast.referee,
            Body::SanctionImposed(Sanction {
                target: SanctionTarget::Both,
                kind: SanctionKind::TimeModified { delta_ms: -60_000 },
                reason: "talking".into(),
            }),
        ),
        (
            &cast.black,
            Body::ProtestDeclared {
                player: Color::Black,
                statement: "under protest".into(),
            },
        ),
        (&cast.referee, Body::ResultDeclared(white_wins.clone())),
        (
            &cast.white,
            Body::ResultSheetSigned {
                result: white_wins.clone(),
                under_protest: false,
            },
        ),
        (
            &cast.referee,
            Body::ClockAdjusted {
                player: Color::White,
                delta_ms: -1000,
                reason: "timing error".into(),
            },
        ),
        (
            &cast.recorder,
            Body::ClockReading {
                black_ms: 300_000,
                white_ms: 12_345,
                black_overtime: None,
                white_overtime: Some(3),
                read_by: "camera".into(),
            },
        ),
        (
            &cast.white,
            Body::IllegalMoveNoticed {
                move_seq: 2,
                statement: "ko".into(),
            },
        ),
        (
            &cast.black,
            Body::RewindAgreed {
                player: Color::Black,
                move_seq: 2,
            },
        ),
        (
            &cast.referee,
            Body::IrregularityRecorded {
                kind: IrregularityKind::CapturedStonesNotRemoved,
                about_seq: Some(2),
                fix: BoardFix {
                    remove: vec![p(2, 3)],
                    as_prisoners: true,
                    place: vec![(Color::White, p(4, 4))],
                },
                statement: "fixed".into(),
            },
        ),
        (
            &cast.black,
            Body::DeadStonesMarked {
                player: Color::Black,
                dead: vec![p(0, 0), p(8, 8)],
            },
        ),
        (
            &cast.referee,
            Body::StatusAgreed {
                dead: vec![p(0, 0)],
            },
        ),
        (
            &cast.white,
            Body::StatusDisputed {
                player: Color::White,
                statement: "alive".into(),
            },
        ),
        (
            &cast.black,
            Body::DisputeRaised {
                player: Color::Black,
                matter: "the status".into(),
            },
        ),
        (
            &cast.white,
            Body::RefereeCalled {
                player: Color::White,
            },
        ),
        (
            &cast.black,
            Body::AppealLodged {
                player: Color::Black,
                ruling_seq: 8,
                grounds: "unfounded".into(),
            },
        ),
        (
            &cast.director,
            Body::CommitteeFormed {
                members: vec![c(0), c(1), c(2)],
                reserves: vec![c(3)],
                formed_before_round: 1,
            },
        ),
        (
            &cast.director,
            Body::MemberRecused {
                member: committee[0].public(),
                reason: "coach of Black".into(),
            },
        ),
        (&cast.director, Body::MemberCoopted { member: c(4) }),
        (
            &committee[1],
            Body::CommitteeDecision {
                appeal_seq: 23,
                verdict: CommitteeVerdict::Replaced(vec![RulingEffect::SetResult(GameResult {
                    outcome: Outcome::Win(Color::Black),
                    by: ResultBy::Score {
                        margin_half_points: -3,
                    },
                })]),
                reasons: "the referee misread the clock".into(),
            },
        ),
        (
            &cast.black,
            Body::FiveDeclared {
                player: Color::Black,
            },
        ),
        (
            &cast.white,
            Body::ForbiddenMovePointedOut {
                player: Color::White,
                point: Some(p(7, 7)),
            },
        ),
        (
            &cast.black,
            Body::DrawOffered {
                player: Color::Black,
            },
        ),
        (
            &cast.white,
            Body::DrawAccepted {
                player: Color::White,
            },
        ),
        (
            &cast.black,
            Body::DrawDeclined {
                player: Color::Black,
            },
        ),
        (
            &cast.white,
            Body::OpeningSwap {
                player: Color::White,
                swap: true,
            },
        ),
        (
            &cast.black,
            Body::FifthCountDeclared {
                player: Color::Black,
                count: 2,
            },
        ),
        (
            &cast.black,
            Body::FifthsOffered {
                player: Color::Black,
                points: vec![p(5, 5), p(6, 3)],
            },
        ),
        (
            &cast.white,
            Body::FifthChosen {
                player: Color::White,
                point: p(5, 5),
            },
        ),
        (
            &cast.referee,
            Body::PlayerArrived {
                player: Color::White,
            },
        ),
        (
            &cast.recorder,
            Body::ProgramTerminated {
                player: Color::Black,
                statement: "crashed".into(),
            },
        ),
        (
            &cast.recorder,
            Body::ServerTimeUsed {
                player: Color::White,
                used_ms: 1_234,
            },
        ),
        (
            &cast.recorder,
            Body::ProgramAnswered {
                player: Color::Black,
                command: "final_score".into(),
                answer: "W+2.5".into(),
            },
        ),
        (
            &cast.black,
            Body::RewindDeclined {
                player: Color::Black,
                move_seq: 3,
            },
        ),
        (
            &cast.referee,
            Body::KeyReplaced {
                participant: cast.black.public(),
                new_key: cast.black_new.public(),
                reason: "tablet lost".into(),
            },
        ),
        (
            &cast.director,
            Body::KeyRevoked {
                key: cast.recorder.public(),
                reason: "recorder compromised".into(),
            },
        ),
        (
            &cast.referee,
            Body::PairingModified {
                swap_colours: true,
                handicap: None,
                komi_half_points: Some(13),
                reason: "colours swapped, noticed after the third move".into(),
            },
        ),
    ]
}
