//! A small game builder for the scenario tests: fixed keys, every event
//! signed and checked against the role table, times under the test's control.
#![allow(dead_code)]

#[path = "../../../../tests/common/fixtures.rs"]
pub mod fixtures;

use kifu_game::GameState;
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;

pub const MIN: u64 = 60_000;
pub const T0: u64 = 1_767_225_600_000;

pub struct G {
    pub cast: Cast,
    /// Committee members and reserves: m[0..3] members, m[3], m[4] reserves.
    pub m: Vec<Keypair>,
    pub chain: ChainBuilder,
    pub events: Vec<Event>,
}

pub fn p(s: &str) -> Point {
    let b = s.as_bytes();
    Point {
        x: b[0] - b'a',
        y: b[1] - b'a',
    }
}

/// A Renju point written as RenjuNet writes it (`h8`), as a ledger point.
pub fn rp(s: &str) -> Point {
    let col = s.as_bytes()[0] - b'a';
    let row: u8 = s[1..].parse().unwrap();
    Point {
        x: col,
        y: 15 - row,
    }
}

pub fn genesis(
    cast: &Cast,
    m: &[Keypair],
    kind: GameKind,
    ruleset: &str,
    size: u8,
    tc: TimeControl,
) -> Genesis {
    let mut g = cast.genesis("scenario");
    g.game = kind;
    g.ruleset = ruleset.into();
    g.board_size = size;
    g.time_control = tc;
    g.komi_half_points = match ruleset {
        "uec-cup" => 13,
        _ => 15,
    };
    for (i, k) in m.iter().enumerate() {
        g.roster.push(Participant {
            role: Role::Committee,
            name: format!("Member {}", i + 1),
            key: k.public(),
        });
    }
    g
}

pub fn fischer() -> TimeControl {
    TimeControl::Fischer {
        main_ms: 60 * MIN,
        increment_ms: 30_000,
        max_ms: None,
    }
}

impl G {
    pub fn go(ruleset: &str) -> G {
        G::with(GameKind::Go, ruleset, 9, fischer(), |_| {})
    }

    pub fn renju() -> G {
        G::with(GameKind::Renju, "rif-renju", 15, fischer(), |_| {})
    }

    pub fn with(
        kind: GameKind,
        ruleset: &str,
        size: u8,
        tc: TimeControl,
        edit: impl FnOnce(&mut Genesis),
    ) -> G {
        let cast = Cast::new();
        let m: Vec<Keypair> = (11..16).map(|s| Keypair::from_seed([s; 32])).collect();
        let mut g = genesis(&cast, &m, kind, ruleset, size, tc);
        edit(&mut g);
        let chain = ChainBuilder::start(&cast.referee, g, T0);
        let events = vec![chain.records[0].decode().unwrap()];
        G {
            cast,
            m,
            chain,
            events,
        }
    }

    /// Signs and appends `body` by `key`, checking the role table first.
    pub fn push_by(&mut self, key: &Keypair, body: Body) -> u64 {
        let genesis = match &self.events[0].body {
            Body::GameCreated(g) => g.clone(),
            _ => unreachable!(),
        };
        let roles = genesis.roles_of(&key.public());
        let seq = self.chain.head.seq + 1;
        roles::check(&roles, &body, seq).unwrap_or_else(|e| panic!("{e}"));
        let rec = self.chain.push(key, body).clone();
        self.events.push(rec.decode().unwrap());
        seq
    }

    pub fn key(&self, c: Color) -> &Keypair {
        match c {
            Color::Black => &self.cast.black,
            Color::White => &self.cast.white,
        }
    }

    pub fn push(&mut self, c: Color, body: Body) -> u64 {
        let k = Keypair::from_seed(match c {
            Color::Black => [1; 32],
            Color::White => [2; 32],
        });
        self.push_by(&k, body)
    }

    pub fn referee(&mut self, body: Body) -> u64 {
        let k = Keypair::from_seed([3; 32]);
        self.push_by(&k, body)
    }

    pub fn recorder(&mut self, body: Body) -> u64 {
        let k = Keypair::from_seed([4; 32]);
        self.push_by(&k, body)
    }

    pub fn director(&mut self, body: Body) -> u64 {
        let k = Keypair::from_seed([5; 32]);
        self.push_by(&k, body)
    }

    pub fn member(&mut self, i: usize, body: Body) -> u64 {
        let k = Keypair::from_seed([11 + i as u8; 32]);
        self.push_by(&k, body)
    }

    /// The next event happens at `T0 + ms`.
    pub fn at(&mut self, ms: u64) {
        self.chain.at_ms = T0 + ms - 1000;
    }

    pub fn start_clock(&mut self) -> u64 {
        self.referee(Body::ClockStarted {
            running: Color::Black,
        })
    }

    /// A stone of the player's own colour.
    pub fn play(&mut self, c: Color, at: &str) -> u64 {
        self.push(
            c,
            Body::StonePlaced {
                player: c,
                stone: c,
                point: p(at),
            },
        )
    }

    /// A stone and the clock press that completes it.
    pub fn mv(&mut self, c: Color, at: &str) -> u64 {
        let s = self.play(c, at);
        self.push(c, Body::ClockPressed { player: c });
        s
    }

    pub fn pass(&mut self, c: Color) -> u64 {
        self.push(
            c,
            Body::Pass {
                player: c,
                pass_stone: true,
            },
        )
    }

    /// Renju stone, by seat.
    pub fn rplay(&mut self, c: Color, at: &str) -> u64 {
        self.push(
            c,
            Body::StonePlaced {
                player: c,
                stone: c,
                point: rp(at),
            },
        )
    }

    pub fn notice(&mut self, by: Color, move_seq: u64) -> u64 {
        self.push(
            by,
            Body::IllegalMoveNoticed {
                move_seq,
                statement: "that move is illegal".into(),
            },
        )
    }

    /// The state after every event, checked against the incremental one at
    /// every prefix, every consequence's quote checked against its document.
    pub fn state(&self) -> GameState {
        let mut inc = GameState::new();
        for (i, e) in self.events.iter().enumerate() {
            inc.apply(e);
            assert_eq!(inc, GameState::replay(&self.events[..=i]), "prefix {i}");
        }
        check_citations(&inc);
        inc
    }

    pub fn rows(&self) -> Vec<String> {
        match &self.state().board {
            kifu_game::BoardState::Go(b) => b.view().rows,
            kifu_game::BoardState::Renju(r) => r.view().rows,
            kifu_game::BoardState::None => vec![],
        }
    }
}

pub fn win(c: Color, by: ResultBy) -> GameResult {
    GameResult {
        outcome: Outcome::Win(c),
        by,
    }
}

pub fn cell(rows: &[String], at: &str) -> char {
    let q = p(at);
    rows[q.y as usize].as_bytes()[q.x as usize] as char
}

pub fn has_rule(s: &GameState, seq: u64, needle: &str) -> bool {
    s.consequences_of(seq).any(|c| c.rule.contains(needle))
}

pub const B: Color = Color::Black;
pub const W: Color = Color::White;

/// The ko shape of the scenarios: after `ko_game`, White's recapture at `bb`
/// (the returned seq) breaks ko. Black took the ko at `cb`.
pub fn ko_game(g: &mut G) -> u64 {
    g.start_clock();
    for (c, at) in [
        (B, "ba"),
        (W, "ca"),
        (B, "ab"),
        (W, "db"),
        (B, "bc"),
        (W, "cc"),
        (B, "ii"),
        (W, "bb"),
        (B, "cb"),
    ] {
        g.mv(c, at);
    }
    let s = g.play(W, "bb");
    g.push(W, Body::ClockPressed { player: W });
    s
}

/// Where the rule documents are read from, relative to this crate.
pub const RULES_DIR: &str = "../../docs/rules";

/// The documents' text with quotes and spacing made uniform (and the BGA
/// summary's misspelt heading "lllegal" read as "Illegal").
pub fn normalise(text: &str) -> String {
    text.replace(['\u{2019}', '\u{2018}'], "'")
        .replace(['\u{201c}', '\u{201d}'], "\"")
        .replace("lllegal", "Illegal")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every consequence citing a rule document: the quote is there, word for
/// word, under the clause named (each part of the section found after the
/// one before, the quote after the last).
pub fn check_citations(st: &GameState) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RULES_DIR);
    let found = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("rule documents {} are missing: {e}", dir.display()));
    let files: Vec<String> = found
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".txt"))
        .collect();
    // Words, not debug output.
    for line in st
        .consequences
        .iter()
        .map(|c| &c.what)
        .chain(st.events.iter().map(|e| &e.summary))
    {
        assert!(
            !line.contains(" { ") && !line.contains("Some(") && !line.contains("[\""),
            "debug formatting in {line:?}"
        );
    }
    let decided = [&st.result.by_play, &st.result.forfeit, &st.result.ruled];
    let mut cited: Vec<(String, Option<String>, String)> = st
        .consequences
        .iter()
        .map(|c| (c.rule.clone(), c.quote.clone(), c.what.clone()))
        .collect();
    for d in decided.into_iter().flatten() {
        cited.push((d.rule.clone(), d.quote.clone(), "the decided result".into()));
    }
    for (rule, quote, what) in cited {
        let Some(file) = files
            .iter()
            .find(|f| rule.contains(&format!("docs/rules/{f})")))
        else {
            continue;
        };
        let quote = quote.unwrap_or_else(|| panic!("no quote for {rule:?} ({what})"));
        let text = std::fs::read_to_string(dir.join(file)).expect("rule document");
        let doc = normalise(&text);
        let section = rule
            .split_once(&format!("docs/rules/{file}), \""))
            .and_then(|(_, s)| s.strip_suffix('"'))
            .unwrap_or_else(|| panic!("rule {rule:?} names no clause"));
        let mut at = 0;
        for part in section.split(", ") {
            let part = normalise(part);
            match doc[at..].find(&part) {
                Some(i) => at += i,
                None => panic!("{file}: clause {section:?} not found ({what})"),
            }
        }
        assert!(
            doc[at..].contains(&normalise(&quote)),
            "{file}: under {section:?} the words {quote:?} are not found ({what})"
        );
    }
}
