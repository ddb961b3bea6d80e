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
            self.at_ms + 1000,
            signer.public(),
            body,
        )
        .sign(signer)
        .expect("the signer is the event's signer")
    }

    /// Adds a record built elsewhere as the next one.
    pub fn push_record(&mut self, rec: Record) -> &Record {
        self.at_ms += 1000;
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
            at_ms: self.at_ms + 1000,
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
        self.at_ms += 1000;
        self.head = Head {
            seq: self.head.seq + 1,
            hash: rec.hash(),
        };
        self.records.push(rec);
        self.records.last().expect("just pushed")
    }
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
