//! A table's tablets in a rehearsal: they ask for their seat, find their
//! game, and play it as `web/board.js` does: each stone and press signed by
//! the tablet of the player who made it (or by the shared recorder tablet),
//! sent to `POST /records`, and after each acknowledgement the other tablet
//! reads the game as a tablet does. A table offline keeps signing and sends
//! what it kept, in one request, when the network returns.
//!
//! At a shared recorder tablet the players' own keys are made on the
//! tablet and a referee binds them to the players' seats, as the page's
//! "Players' own keys on this device" and the referee's "Replace a lost
//! device's key" do; what only a player may state (a call, a resignation,
//! the result sheet) is then signed with the player's own key, as the
//! page's `signerFor` does.

use std::time::{Duration, Instant};

use kifu_go::{Color as GoColor, Game, Ruleset, Setup};
use kifu_ledger::{
    Body, Color, Event, GameResult, Hash, Head, Keypair, Outcome as Won, PauseReason, Point,
    PublicKey, Record, Resignation, ResultBy, Ruling, RulingKind,
};
use serde_json::json;

use super::desk::now_ms;
use super::http::Http;
use super::plan::{Dice, Plan};
use super::Venue;

/// One tablet: its own key, kept round after round, and the seat it asks
/// for.
pub struct Tablet {
    /// The tablet's key.
    pub key: Keypair,
    /// `black`, `white` or `recorder`.
    pub role: &'static str,
}

impl Tablet {
    /// A tablet with a new key.
    pub fn new(dice: &mut Dice, role: &'static str) -> Tablet {
        Tablet {
            key: Keypair::from_seed(dice.seed()),
            role,
        }
    }

    /// Asks for the seat at `board` in `round` (`POST /devices`, signed by
    /// the tablet's key); the request's id.
    pub fn ask_seat(
        &self,
        http: &Http,
        venue: &Venue,
        tournament: &str,
        round: u32,
        board: u32,
        name: &str,
    ) -> Result<String, String> {
        let seat = Seat {
            role: self.role,
            name,
            tournament,
            round,
            board,
        };
        ask_seat(http, venue, &self.key, &seat).map_err(|e| {
            format!(
                "board {board}'s {} tablet asking for its seat: {e}",
                self.role
            )
        })
    }
}

/// A seat a key asks for.
pub struct Seat<'a> {
    /// `black`, `white` or `recorder`.
    pub role: &'a str,
    /// The person (or the board) as the roster will name them.
    pub name: &'a str,
    /// The tournament, as its genesis names it.
    pub tournament: &'a str,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
}

/// Asks for `seat` with `key` (`POST /devices`, signed by that key, as
/// `askSeat` in `web/page.js` does); the request's id.
pub fn ask_seat(http: &Http, venue: &Venue, key: &Keypair, seat: &Seat) -> Result<String, String> {
    let body = json!({"key": key.public().to_hex(), "role": seat.role, "name": seat.name,
                      "tournament": seat.tournament, "round": seat.round, "board": seat.board,
                      "signed_at_ms": now_ms()})
    .to_string();
    let signature = kifu_game::seat::SignedRequest::sign(key, body.as_bytes());
    let began = Instant::now();
    let answer = http
        .post_raw("/devices", &body, ("Kifu-Device-Signature", &signature))
        .map_err(|e| e.to_string())?;
    venue.sample("seat request", began.elapsed());
    answer["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| "the seat request's answer has no id".to_string())
}

/// Asks `GET /devices/{id}` until the request is answered by a game, as a
/// waiting tablet does.
pub fn find_game(http: &Http, venue: &Venue, id: &str, board: u32) -> Result<String, String> {
    let began = Instant::now();
    for _ in 0..200 {
        let r = http
            .get(&format!("/devices/{id}"))
            .map_err(|e| format!("board {board}: its tablet's request {id}: {e}"))?;
        if r["status"] == json!("enrolled") {
            if let Some(g) = r["games"]
                .as_array()
                .and_then(|gs| gs.iter().find(|g| g["asked"] == json!(true)))
            {
                venue.sample("tablet finds its game", began.elapsed());
                return Ok(g["game"].as_str().unwrap_or("").to_string());
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!(
        "board {board}: its tablet's request {id} found no game"
    ))
}

/// What a board's thread is given.
pub struct BoardJob {
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The game.
    pub game: Hash,
    /// Its head once the clock started.
    pub head: Head,
    /// The records of the game signed so far (genesis, clock start).
    pub signed: Vec<Hash>,
    /// The tablets' keys: Black's then White's, or the recorder's.
    pub tablets: Vec<Keypair>,
    /// One shared tablet signs for both players.
    pub recorder: bool,
    /// At a shared tablet: the players' own keys on it, and the referee who
    /// binds them to the players' seats.
    pub players: Option<PlayersAtTablet>,
    /// The referee called to this game, if one is.
    pub referee: Option<Keypair>,
    /// Moves before the game ends.
    pub moves: u32,
    /// Handicap stones.
    pub handicap: u32,
    /// The game ends by counting (otherwise by resignation).
    pub counted: bool,
    /// The table loses the network before this move, for this long.
    pub offline: Option<(u32, Duration)>,
    /// When the game stops where it stands (`--minutes`), if it does.
    pub stop_at: Option<Instant>,
    /// The board's random choices.
    pub dice: Dice,
}

/// Why a game ended before its end: the rehearsal's time ran out
/// (`--minutes`), not a failure.
pub const STOPPED: &str = "stopped at the rehearsal's time limit (--minutes)";

/// The players' own keys on a shared tablet, for one game.
pub struct PlayersAtTablet {
    /// Black's key, then White's, as the tablet keeps them.
    pub keys: [Keypair; 2],
    /// The referee whose console binds them (`key_replaced`).
    pub referee: Keypair,
}

/// What a board's game left: every record its tablets (and the desk and
/// the referee) signed, which the server acknowledged, and any error.
#[derive(Debug, Clone)]
pub struct BoardRun {
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The game.
    pub game: Hash,
    /// Every record signed into the game, in order.
    pub signed: Vec<Hash>,
    /// The records the server acknowledged.
    pub acknowledged: Vec<Hash>,
    /// Why the game stopped early, if it did.
    pub error: Option<String>,
}

struct Player<'a> {
    http: Http,
    venue: &'a Venue,
    job: BoardJob,
    head: Head,
    outbox: Vec<(Record, &'static str, Instant)>,
    offline_until: Option<Instant>,
    acked: Vec<Hash>,
    /// The last seq each tablet has read.
    read: u64,
    /// The players' own keys are on the game's roster (a shared tablet).
    players_enrolled: bool,
}

impl Player<'_> {
    fn key(&self, who: Color) -> &Keypair {
        match (self.job.recorder, who) {
            (true, _) | (false, Color::Black) => &self.job.tablets[0],
            (false, Color::White) => &self.job.tablets[1],
        }
    }

    /// The key that signs what only a player may state (a call, a
    /// resignation, the result sheet): at a shared tablet, the player's own
    /// key once the roster names it (`signerFor` in `web/board.js`), else
    /// the tablet's.
    fn players_key(&self, who: Color) -> &Keypair {
        match (&self.job.players, self.players_enrolled) {
            (Some(p), true) => &p.keys[usize::from(who == Color::White)],
            _ => self.key(who),
        }
    }

    /// `who` states `body` with the key [`Self::players_key`] names.
    fn by_player(&mut self, who: Color, body: Body, what: &'static str) -> Result<(), String> {
        let key = copy(self.players_key(who));
        self.record(&key, body, what)
    }

    /// Signs `body` with `key` at the game's head, and sends it (or keeps
    /// it while offline).
    fn record(&mut self, key: &Keypair, body: Body, what: &'static str) -> Result<(), String> {
        let tap = Instant::now();
        let r = Event::next(self.job.game, self.head, now_ms(), key.public(), body)
            .sign(key)
            .map_err(|e| e.to_string())?;
        self.head = Head {
            seq: self.head.seq + 1,
            hash: r.hash(),
        };
        self.job.signed.push(r.hash());
        self.outbox.push((r, what, tap));
        if self.offline_until.is_some_and(|t| Instant::now() < t) {
            return Ok(());
        }
        self.offline_until = None;
        self.send()
    }

    /// `who`'s tablet (or the shared one) signs `body` and sends it.
    fn by(&mut self, who: Color, body: Body, what: &'static str) -> Result<(), String> {
        let key = copy(self.key(who));
        self.record(&key, body, what)
    }

    /// `who` passes, handing over a pass stone, and presses the clock.
    fn pass_and_press(&mut self, who: Color) -> Result<(), String> {
        self.by(
            who,
            Body::Pass {
                player: who,
                pass_stone: true,
            },
            "pass",
        )?;
        self.by(who, Body::ClockPressed { player: who }, "press")
    }

    /// Sends what the outbox holds, in one request, as the tablet does.
    fn send(&mut self) -> Result<(), String> {
        if self.outbox.is_empty() {
            return Ok(());
        }
        let records: Vec<Record> = self.outbox.iter().map(|(r, _, _)| r.clone()).collect();
        let results = self
            .http
            .submit("/records", &records)
            .map_err(|e| format!("sending {} record(s): {e}", records.len()))?;
        let now = Instant::now();
        let queued = self.outbox.len() > 1;
        for ((r, what, tap), answer) in self.outbox.drain(..).zip(&results) {
            if answer["ok"] != json!(true) {
                return Err(format!(
                    "record {} ({what}) refused: {}",
                    r.decode().map(|e| e.seq).unwrap_or(0),
                    answer["error"]["message"]
                ));
            }
            self.acked.push(r.hash());
            self.venue.sample(
                if queued { "ack after offline" } else { what },
                now.duration_since(tap),
            );
        }
        self.venue
            .count("records acknowledged", results.len() as u64);
        Ok(())
    }

    /// The other tablet (or the shared one) reads the game as a tablet
    /// does after a record.
    fn read(&mut self) -> Result<(), String> {
        if !self.outbox.is_empty() {
            return Ok(());
        }
        let began = Instant::now();
        let path = format!(
            "/games/{}/state?device=1&since={}",
            hex::encode(self.job.game),
            self.read
        );
        // The whole answer is read, as a tablet reads it; only its head is
        // kept.
        #[derive(serde::Deserialize)]
        struct Head {
            last_seq: u64,
        }
        let v: Head = self
            .http
            .get_as(&path)
            .map_err(|e| format!("reading the game: {e}"))?;
        self.venue.sample("tablet read", began.elapsed());
        self.read = v.last_seq;
        Ok(())
    }

    /// At a shared tablet, before the first move: the players' own keys
    /// reach the game's roster as the pages bring them there. The tablet
    /// asks for each player's seat with the key it made for them (Black's,
    /// then White's: `addPlayerKey` in `web/board.js`); a referee's console
    /// opens the game and binds each key to its player's seat, offered the
    /// devices waiting, previewed, then signed at the head and sent
    /// (`key_replaced`: `signDraft` in `web/referee.js`); and the tablet
    /// reads the game, the keys now on its roster.
    fn enrol_players(&mut self) -> Result<(), String> {
        let Some(players) = &self.job.players else {
            return Ok(());
        };
        let keys = [copy(&players.keys[0]), copy(&players.keys[1])];
        let referee = copy(&players.referee);
        let game = hex::encode(self.job.game);
        let seats = ["black", "white"];
        {
            let st = self
                .http
                .get(&format!("/games/{game}/state?device=1"))
                .map_err(|e| format!("the shared tablet reading its game: {e}"))?;
            let genesis = &st["state"]["genesis"];
            let place = &genesis["tournament"];
            for (role, key) in seats.iter().zip(&keys) {
                let seat = Seat {
                    role,
                    name: participant(genesis, role)["name"].as_str().unwrap_or(role),
                    tournament: place["tournament"].as_str().unwrap_or(""),
                    round: place["round"].as_u64().unwrap_or(0) as u32,
                    board: place["board"].as_u64().unwrap_or(0) as u32,
                };
                ask_seat(&self.http, self.venue, key, &seat).map_err(|e| {
                    format!("{role}'s key on the shared tablet asking for its seat: {e}")
                })?;
            }
        }
        let st = self
            .http
            .get(&format!("/games/{game}/state"))
            .map_err(|e| format!("the referee opening the game: {e}"))?;
        let me = referee.public().to_hex();
        for (role, key) in seats.iter().zip(&keys) {
            let held = participant(&st["state"]["genesis"], role)["key"]
                .as_str()
                .and_then(|k| PublicKey::from_hex(k).ok())
                .ok_or_else(|| format!("the game's roster names no {role}"))?;
            let pending = self
                .http
                .get("/devices?pending=1")
                .map_err(|e| format!("the referee reading the devices waiting: {e}"))?;
            let mine = key.public().to_hex();
            let asking = pending["requests"]
                .as_array()
                .and_then(|rs| rs.iter().find(|r| r["key"] == json!(mine)))
                .and_then(|r| r["key"].as_str())
                .unwrap_or(&mine);
            let new_key = PublicKey::from_hex(asking).map_err(|e| e.to_string())?;
            let body = Body::KeyReplaced {
                participant: held,
                new_key,
                reason: format!("{role}'s own key on the board's shared tablet"),
            };
            let seen = self
                .http
                .post(
                    &format!("/games/{game}/preview"),
                    &json!({"body": body, "signer": me, "at_ms": now_ms()}),
                )
                .map_err(|e| format!("the referee previewing {role}'s key: {e}"))?;
            if let Some(why) = seen["refused"].as_str() {
                return Err(format!("{role}'s key refused: {why}"));
            }
            self.http
                .get(&format!("/games/{game}/head"))
                .map_err(|e| format!("the referee reading the head: {e}"))?;
            self.record(&referee, body, "player's key enrolled")?;
        }
        self.players_enrolled = true;
        self.venue.count("players' keys enrolled", 2);
        self.read()
    }

    fn play(&mut self, progress: &indicatif::ProgressBar, plan: &Plan) -> Result<(), String> {
        self.enrol_players()?;
        let ruleset = Ruleset::fallback();
        let setup = if self.job.handicap >= 2 {
            Setup::fixed_handicap(19, self.job.handicap).map_err(|e| e.to_string())?
        } else {
            Setup::even(19)
        };
        let mut go = Game::new(ruleset, &setup).map_err(|e| e.to_string())?;
        let judged_at = self.job.dice.below(u64::from(self.job.moves)) as u32;
        for i in 0..self.job.moves {
            let think = plan.think(&mut self.job.dice);
            if let Some(stop) = self.job.stop_at {
                let now = Instant::now();
                if now + think >= stop {
                    std::thread::sleep(stop.saturating_duration_since(now));
                    // What was signed is sent, as at a game's end.
                    if let Some(t) = self.offline_until.take() {
                        std::thread::sleep(t.saturating_duration_since(Instant::now()));
                    }
                    self.send()?;
                    self.venue.count("games stopped at the time limit", 1);
                    return Err(STOPPED.to_string());
                }
            }
            std::thread::sleep(think);
            if let Some((at, long)) = self.job.offline {
                if i == at {
                    self.offline_until = Some(Instant::now() + long);
                    self.venue.count("tables offline", 1);
                }
            }
            let color = go.to_move();
            let who = ledger_color(color);
            if let (Some(referee), true) = (self.job.referee.as_ref().map(copy), i == judged_at) {
                self.referee_called(who, &referee)?;
            }
            let key = copy(self.key(who));
            match pick(&go, color, &mut self.job.dice) {
                Some(p) => {
                    go.play(color, p);
                    self.record(
                        &key,
                        Body::StonePlaced {
                            player: who,
                            stone: who,
                            point: Point { x: p.x, y: p.y },
                        },
                        "stone",
                    )?;
                }
                None => {
                    go.pass(color);
                    self.pass_and_press(who)?;
                    self.read()?;
                    continue;
                }
            }
            self.record(&key, Body::ClockPressed { player: who }, "press")?;
            self.read()?;
        }
        self.end(&mut go)?;
        // Back online at the end of the game at the latest.
        if let Some(t) = self.offline_until.take() {
            std::thread::sleep(t.saturating_duration_since(Instant::now()));
        }
        self.send()?;
        progress.inc(1);
        Ok(())
    }

    /// A player calls the referee, who stops the clocks, explains the rule
    /// and starts them again: four records, the last three the referee's.
    fn referee_called(&mut self, who: Color, referee: &Keypair) -> Result<(), String> {
        self.by_player(who, Body::RefereeCalled { player: who }, "call")?;
        self.record(
            referee,
            Body::ClockPaused {
                reason: PauseReason::CallReferee,
            },
            "referee",
        )?;
        self.record(
            referee,
            Body::RefereeRuling(Ruling {
                kind: RulingKind::Clarification,
                decision: "Play on.".into(),
                reasons: "The rules were explained to both players.".into(),
                rules_cited: vec![],
                effects: vec![],
            }),
            "referee",
        )?;
        self.record(referee, Body::ClockResumed { running: who }, "referee")?;
        self.venue.count("referee calls", 1);
        Ok(())
    }

    /// The end: a resignation by the player to move, or two passes and the
    /// status agreed; then both players sign the result sheet, each on their
    /// own tablet or with their own key on the shared one.
    fn end(&mut self, go: &mut Game) -> Result<(), String> {
        let to_move = ledger_color(go.to_move());
        let other = opposite(to_move);
        let result = if self.job.counted {
            // LGC 2023, "Ending the game" 3: "Play pauses after the
            // minimum number of consecutive passes in which White passes
            // last", so a game where White is to move takes three.
            let passes: &[Color] = match to_move {
                Color::Black => &[Color::Black, Color::White],
                Color::White => &[Color::White, Color::Black, Color::White],
            };
            for &who in passes {
                self.pass_and_press(who)?;
            }
            for who in [Color::Black, Color::White] {
                self.by_player(who, Body::StatusAgreed { dead: vec![] }, "status")?;
            }
            self.send()?;
            let v = self
                .http
                .get(&format!(
                    "/games/{}/state?device=1",
                    hex::encode(self.job.game)
                ))
                .map_err(|e| format!("reading the count: {e}"))?;
            // `result_computed`: the result with the rule it follows from.
            let computed: Option<GameResult> =
                serde_json::from_value(v["result_computed"]["result"].clone()).unwrap_or(None);
            computed.ok_or_else(|| {
                format!(
                    "no result after the status was agreed (phase {}, at event {})",
                    v["state"]["phase"], v["last_seq"]
                )
            })?
        } else {
            self.by_player(
                to_move,
                Body::Resigned {
                    player: to_move,
                    manner: Resignation::Spoken,
                },
                "resignation",
            )?;
            GameResult {
                outcome: Won::Win(other),
                by: ResultBy::Resignation,
            }
        };
        // At a shared tablet each player signs their own sheet with their
        // own key (`afterTheGame`, `{ as: c }`); with no key of theirs on the
        // roster, nothing signs it there.
        if !self.job.recorder || self.players_enrolled {
            for who in [Color::Black, Color::White] {
                self.by_player(
                    who,
                    Body::ResultSheetSigned {
                        result: result.clone(),
                        under_protest: false,
                    },
                    "result sheet",
                )?;
            }
        }
        Ok(())
    }
}

/// A second handle on `k` (a key pair is not `Clone`, so that copies are
/// made on purpose).
pub fn copy(k: &Keypair) -> Keypair {
    Keypair::from_seed(k.seed())
}

/// The roster's participant in `role` (`black`, `white`) of a game's
/// genesis as the server gives it (its keys as they stand now).
fn participant<'a>(genesis: &'a serde_json::Value, role: &str) -> &'a serde_json::Value {
    static NOBODY: serde_json::Value = serde_json::Value::Null;
    genesis["roster"]
        .as_array()
        .and_then(|r| r.iter().find(|p| p["role"] == json!(role)))
        .unwrap_or(&NOBODY)
}

fn ledger_color(c: GoColor) -> Color {
    match c {
        GoColor::Black => Color::Black,
        GoColor::White => Color::White,
    }
}

fn opposite(c: Color) -> Color {
    match c {
        Color::Black => Color::White,
        Color::White => Color::Black,
    }
}

/// A random legal stone for `color`, never filling its own eye: a point
/// whose neighbours are all its own is left alone, so that groups live and
/// games reach a count. `None`: pass.
fn pick(go: &Game, color: GoColor, dice: &mut Dice) -> Option<kifu_go::Point> {
    let board = go.board();
    let empty: Vec<kifu_go::Point> = board.points().filter(|p| board.get(*p).is_none()).collect();
    for _ in 0..30 {
        let p = *empty.get(dice.below(empty.len() as u64) as usize)?;
        let own_eye = board
            .adjacent(p)
            .iter()
            .all(|q| board.get(*q) == Some(color));
        if own_eye {
            continue;
        }
        if go.check(color, kifu_go::Move::Play(p)).is_legal() {
            return Some(p);
        }
    }
    None
}

/// Plays a board's game to its end; what it left, with the error that
/// stopped it if one did.
pub fn play(
    venue: &Venue,
    plan: &Plan,
    job: BoardJob,
    progress: &indicatif::ProgressBar,
) -> BoardRun {
    let mut p = Player {
        http: Http::new(&venue.url),
        venue,
        head: job.head,
        read: job.head.seq,
        job,
        outbox: Vec::new(),
        offline_until: None,
        acked: Vec::new(),
        players_enrolled: false,
    };
    let error = p.play(progress, plan).err();
    if error.is_some() {
        progress.inc(1);
    }
    BoardRun {
        round: p.job.round,
        board: p.job.board,
        game: p.job.game,
        signed: p.job.signed.clone(),
        acknowledged: p.acked.clone(),
        error,
    }
}
