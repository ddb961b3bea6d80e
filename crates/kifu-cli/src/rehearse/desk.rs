//! The director's desk of a rehearsal: the calls `web/director.js` makes,
//! in the order a director makes them: create the tournament, register
//! the players, and for each round pair it with the engine, create its
//! games for the tablets waiting, start the clocks, enter paper boards'
//! results, confirm each finished game into the chain, and read the
//! standings.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use kifu_ledger::{Body, Event, Hash, Head, Keypair, Record, FORMAT_VERSION, ZERO_HASH};
use serde_json::{json, Value};

use super::board::{self, BoardJob, BoardRun, PlayersAtTablet, Tablet};
use super::http::Http;
use super::plan::{Plan, Table};
use super::Venue;

/// The tournament's name, as tablets ask for it.
pub const TOURNAMENT: &str = "Rehearsal Open";

/// What the event left behind, for the report and the reconciliation.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The tournament chain, hex.
    pub tournament: String,
    /// Players registered.
    pub players: u32,
    /// Every tablet game played.
    pub games: Vec<BoardRun>,
    /// Each round's figures.
    pub rounds: Vec<RoundFigures>,
    /// The tournament records the desk signed and got acknowledged.
    pub desk_records: u64,
}

/// One round at the desk.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RoundFigures {
    /// The round.
    pub round: u32,
    /// Boards paired.
    pub boards: u32,
    /// Tablet games created.
    pub games: u32,
    /// Paper results entered at the desk.
    pub paper: u32,
    /// Drawing the round (draft, sign, submit), ms.
    pub pairing_ms: u64,
    /// Creating the round's games (draft, sign, submit), ms.
    pub creation_ms: u64,
    /// From the round's start until every board's result was in the
    /// chain, ms.
    pub play_ms: u64,
    /// The longest confirmation of a finished game (draft, sign,
    /// submit), ms.
    pub longest_confirmation_ms: u64,
    /// Boards whose result never reached the chain, with why.
    pub unfinished: Vec<String>,
    /// The standings after the round, as `GET /tournaments/{t}/standings`
    /// gives them.
    pub standings: Value,
}

/// Now, in ms since 1970.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The referees' keys (the consoles sign with them).
pub fn referee_keys(plan: &Plan) -> Vec<Keypair> {
    (0..plan.args.referees)
        .map(|i| Keypair::from_seed(plan.rng(1_000 + u64::from(i)).seed()))
        .collect()
}

fn hex_hash(s: &str) -> Result<Hash, String> {
    let v = hex::decode(s).map_err(|e| format!("not a hash: {s}: {e}"))?;
    v.try_into().map_err(|_| format!("not a hash: {s}"))
}

fn head_of(v: &Value) -> Result<Head, String> {
    Ok(Head {
        seq: v["seq"].as_u64().ok_or("a head without seq")?,
        hash: hex_hash(v["hash"].as_str().ok_or("a head without hash")?)?,
    })
}

/// Signs `bodies` (JSON, as a draft gives them) one after another on the
/// chain `chain` from `head`.
pub fn sign_chained(
    key: &Keypair,
    chain: Hash,
    head: Head,
    bodies: &[Value],
) -> Result<Vec<Record>, String> {
    let mut head = head;
    let mut out = Vec::with_capacity(bodies.len());
    let at = now_ms();
    for b in bodies {
        let body: Body =
            serde_json::from_value(b.clone()).map_err(|e| format!("a drafted body: {e}"))?;
        let r = Event::next(chain, head, at, key.public(), body)
            .sign(key)
            .map_err(|e| e.to_string())?;
        head = Head {
            seq: head.seq + 1,
            hash: r.hash(),
        };
        out.push(r);
    }
    Ok(out)
}

/// A record starting a chain (a genesis): seq 0, no chain yet.
fn sign_genesis(key: &Keypair, body: &Value) -> Result<Record, String> {
    let body: Body =
        serde_json::from_value(body.clone()).map_err(|e| format!("a drafted genesis: {e}"))?;
    Event {
        version: FORMAT_VERSION,
        chain: ZERO_HASH,
        seq: 0,
        prev_hash: ZERO_HASH,
        at_ms: now_ms(),
        signer: key.public(),
        body,
    }
    .sign(key)
    .map_err(|e| e.to_string())
}

/// Submits `records`, at most `chunk` a request; the results in order.
fn submit_all(http: &Http, path: &str, records: &[Record]) -> Result<Vec<Value>, String> {
    if path.starts_with("/tournaments") {
        // A tournament chain's write is whole or nothing (`written` and
        // `already_present` count it), and is never split: each part
        // would need the head the one before it made.
        let hex: Vec<String> = records.iter().map(|r| hex::encode(r.to_stored())).collect();
        let v = http
            .post(path, &json!({ "records": hex }))
            .map_err(|e| format!("{path}: {e}"))?;
        let n = v["written"].as_u64().unwrap_or(0) + v["already_present"].as_u64().unwrap_or(0);
        if n != records.len() as u64 {
            return Err(format!(
                "{path}: {n} of {} records written: {v}",
                records.len()
            ));
        }
        return Ok(vec![v]);
    }
    let mut out = Vec::with_capacity(records.len());
    for part in records.chunks(100) {
        out.extend(
            http.submit(path, part)
                .map_err(|e| format!("{path}: {e}"))?,
        );
    }
    if let Some(bad) = out.iter().find(|r| r["ok"] != json!(true)) {
        return Err(format!(
            "{path}: a record refused: {}",
            bad["error"]["message"]
        ));
    }
    Ok(out)
}

struct Desk<'a> {
    http: Http,
    key: Keypair,
    plan: &'a Plan,
    venue: &'a Arc<Venue>,
    tournament: String,
    short_name: String,
    records: u64,
}

impl Desk<'_> {
    /// One intent drafted, signed into the tournament chain and submitted.
    fn act(&mut self, intent: Value) -> Result<usize, String> {
        let draft = self.draft(intent)?;
        let bodies = draft["bodies"].as_array().cloned().unwrap_or_default();
        let head = head_of(&draft["head"])?;
        let chain = hex_hash(&self.tournament)?;
        let signed = sign_chained(&self.key, chain, head, &bodies)?;
        submit_all(
            &self.http,
            &format!("/tournaments/{}/records", self.tournament),
            &signed,
        )?;
        self.records += signed.len() as u64;
        Ok(signed.len())
    }

    fn draft(&self, intent: Value) -> Result<Value, String> {
        self.http
            .post("/director/draft", &intent)
            .map_err(|e| format!("draft {}: {e}", intent["do"]))
    }
}

/// Plays the whole event.
pub fn run_event(venue: &Arc<Venue>, plan: &Plan) -> Result<Outcome, String> {
    let mut dice = plan.rng(1);
    let key = Keypair::from_seed(dice.seed());
    let me = key.public().to_hex();
    let http = Http::new(&venue.url);
    let referees: Vec<Value> = referee_keys(plan)
        .iter()
        .enumerate()
        .map(|(i, k)| json!({"name": format!("Referee {}", i + 1), "key": k.public().to_hex()}))
        .collect();
    // The tournament: its genesis, drafted from the desk's form.
    let created = http
        .post(
            "/director/draft",
            &json!({"do": "create", "director_key": me, "director_name": "Rehearsal Director",
                    "name": TOURNAMENT, "rounds": plan.args.rounds, "system": "mcmahon",
                    "referees": referees}),
        )
        .map_err(|e| format!("draft create: {e}"))?;
    let bodies = created["bodies"].as_array().cloned().unwrap_or_default();
    let Some(first) = bodies.first() else {
        return Err("the draft of the tournament has no genesis".into());
    };
    let genesis = sign_genesis(&key, first)?;
    let t = genesis.hash();
    let mut all = vec![genesis.clone()];
    all.extend(sign_chained(
        &key,
        t,
        Head {
            seq: 0,
            hash: genesis.hash(),
        },
        &bodies[1..],
    )?);
    let written = submit_all(&http, "/tournaments", &all)?;
    let short_name = written[0]["short_name"]
        .as_str()
        .unwrap_or(TOURNAMENT)
        .to_string();
    let tournament = hex::encode(t);
    if let Ok(mut s) = venue.samples.lock() {
        s.tournament = Some(tournament.clone());
    }
    let mut desk = Desk {
        http,
        key,
        plan,
        venue,
        tournament: tournament.clone(),
        short_name,
        records: all.len() as u64,
    };
    // The players: two a board, ranks from 5 dan to 10 kyu.
    let players = plan.args.boards * 2;
    let mut registrations = Vec::new();
    let mut head = None;
    for i in 1..=players {
        let rank = match dice.below(15) {
            r @ 0..=4 => format!("{}d", 5 - r),
            r => format!("{}k", r - 4),
        };
        let draft = desk.draft(json!({"do": "register", "tournament": tournament, "player": {
            "id": format!("P{i}"), "surname": format!("Player{i}"), "given": "Rehearsal", "rank": rank,
            "rating": 0, "country": "EU", "club": "Kifu", "egd_pin": "", "aga_id": "", "smms_correction": 0, "key": null}}))?;
        head.get_or_insert(head_of(&draft["head"])?);
        registrations.extend(draft["bodies"].as_array().cloned().unwrap_or_default());
    }
    if let Some(h) = head {
        let signed = sign_chained(&desk.key, t, h, &registrations)?;
        submit_all(
            &desk.http,
            &format!("/tournaments/{tournament}/records"),
            &signed,
        )?;
        desk.records += signed.len() as u64;
    }
    // The tablets of each table, kept round after round.
    let mut tablets: Vec<Vec<Tablet>> = plan
        .tables
        .iter()
        .enumerate()
        .map(|(i, table)| {
            let mut d = plan.rng(10_000 + i as u64);
            match table {
                Table::TwoTablets => {
                    vec![Tablet::new(&mut d, "black"), Tablet::new(&mut d, "white")]
                }
                Table::Recorder => vec![Tablet::new(&mut d, "recorder")],
                Table::Paper => vec![],
            }
        })
        .collect();
    let mut outcome = Outcome {
        tournament: tournament.clone(),
        players,
        ..Outcome::default()
    };
    let referee_keys = referee_keys(plan);
    let progress = super::report::progress(plan);
    for round in 1..=plan.args.rounds {
        let figures = play_round(
            &mut desk,
            &mut tablets,
            &referee_keys,
            round,
            &mut outcome,
            &progress,
        )?;
        outcome.rounds.push(figures);
    }
    progress.finish_and_clear();
    outcome.desk_records = desk.records;
    Ok(outcome)
}

/// The players' own keys on the shared tablet at board `n` in `round`:
/// made on the tablet for this game, as the page makes them (a key belongs
/// to one game: the board's next game seats other players); the board's
/// referee (the referees take the boards in turn) binds them to the
/// players' seats.
fn players_at(plan: &Plan, round: u32, n: u32, referees: &[Keypair]) -> PlayersAtTablet {
    let mut d = plan.rng(20_000 + (u64::from(round) << 32 | u64::from(n)));
    PlayersAtTablet {
        keys: [Keypair::from_seed(d.seed()), Keypair::from_seed(d.seed())],
        referee: board::copy(&referees[(n as usize - 1) % referees.len()]),
    }
}

fn play_round(
    desk: &mut Desk,
    tablets: &mut [Vec<Tablet>],
    referees: &[Keypair],
    round: u32,
    outcome: &mut Outcome,
    progress: &indicatif::ProgressBar,
) -> Result<RoundFigures, String> {
    let plan = desk.plan;
    let venue = desk.venue;
    let t = desk.tournament.clone();
    progress.set_message(format!("round {round}: pairing"));
    let began = Instant::now();
    desk.act(json!({"do": "pair_auto", "tournament": t, "round": round, "swaps": []}))?;
    let pairing_ms = began.elapsed().as_millis() as u64;
    let pairings = desk
        .http
        .get(&format!("/tournaments/{t}/pairings?round={round}"))
        .map_err(|e| format!("pairings of round {round}: {e}"))?;
    let boards: Vec<Value> = pairings["boards"].as_array().cloned().unwrap_or_default();
    // Each tablet of a paired table asks for its seat.
    let mut requests: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut recorders = Vec::new();
    for b in &boards {
        let n = b["board"].as_u64().unwrap_or(0) as u32;
        let Some(table) = tablets.get(n.saturating_sub(1) as usize) else {
            continue;
        };
        for tab in table {
            let name = match tab.role {
                "black" => b["black"]["name"].as_str().unwrap_or("Black").to_string(),
                "white" => b["white"]["name"].as_str().unwrap_or("White").to_string(),
                _ => format!("Board {n} recorder"),
            };
            let id = tab.ask_seat(&desk.http, venue, &desk.short_name, round, n, &name)?;
            if tab.role == "recorder" {
                recorders.push(id.clone());
            }
            requests.entry(n).or_default().push(id);
        }
    }
    // The games, as "Create the round's games" does: drafted with the
    // recorders ticked, each genesis signed by the desk, one submission.
    progress.set_message(format!("round {round}: creating games"));
    let began = Instant::now();
    let draft = desk.draft(json!({"do": "games", "tournament": t, "round": round, "exclude": [], "recorders": recorders}))?;
    let drafted = draft["games"].as_array().cloned().unwrap_or_default();
    let geneses: Vec<Record> = drafted
        .iter()
        .map(|g| sign_genesis(&desk.key, &g["body"]))
        .collect::<Result<_, _>>()?;
    let created = submit_all(&desk.http, "/records", &geneses)?;
    let creation_ms = began.elapsed().as_millis() as u64;
    let mut game_of: BTreeMap<u32, (Hash, Head, Record)> = BTreeMap::new();
    for ((g, r), rec) in drafted.iter().zip(&created).zip(&geneses) {
        let board = g["board"].as_u64().unwrap_or(0) as u32;
        let game = hex_hash(r["game"].as_str().unwrap_or(""))?;
        game_of.insert(
            board,
            (
                game,
                Head {
                    seq: 0,
                    hash: rec.hash(),
                },
                rec.clone(),
            ),
        );
    }
    // Each tablet finds its game as the board page does.
    for (board, ids) in &requests {
        for id in ids {
            board::find_game(&desk.http, venue, id, *board)?;
        }
    }
    // Black's clock started on every board at once.
    let start = desk.draft(json!({"do": "start_round", "tournament": t, "round": round}))?;
    let mut starts = Vec::new();
    let mut start_boards = Vec::new();
    for g in start["games"].as_array().cloned().unwrap_or_default() {
        let game = hex_hash(g["game"].as_str().unwrap_or(""))?;
        let head = head_of(&g["head"])?;
        starts.extend(sign_chained(
            &desk.key,
            game,
            head,
            std::slice::from_ref(&g["body"]),
        )?);
        start_boards.push(g["board"].as_u64().unwrap_or(0) as u32);
    }
    submit_all(&desk.http, "/records", &starts)?;
    for (board, r) in start_boards.iter().zip(&starts) {
        if let Some(e) = game_of.get_mut(board) {
            e.1 = Head {
                seq: r.decode().map(|e| e.seq).unwrap_or(1),
                hash: r.hash(),
            };
        }
    }
    // The boards play.
    progress.set_message(format!("round {round}: playing"));
    let play_began = Instant::now();
    let stop_at = plan
        .args
        .minutes
        .map(|m| play_began + Duration::from_secs_f64(m.max(0.0) * 60.0));
    let mut handles = Vec::new();
    let mut paper = Vec::new();
    let mut longest_game = Duration::ZERO;
    for b in &boards {
        let n = b["board"].as_u64().unwrap_or(0) as u32;
        let mut dice = plan.rng(u64::from(round) << 32 | u64::from(n));
        let moves = 120 + dice.below(141) as u32;
        longest_game = longest_game.max(plan.game_time(moves));
        let handicap = b["handicap"].as_u64().unwrap_or(0) as u32;
        match (tablets.get_mut(n as usize - 1), game_of.get(&n)) {
            (Some(tabs), Some((game, head, genesis))) if !tabs.is_empty() => {
                let players = match &mut tabs[..] {
                    [_] if !referees.is_empty() => Some(players_at(plan, round, n, referees)),
                    _ => None,
                };
                let job = BoardJob {
                    round,
                    board: n,
                    game: *game,
                    head: *head,
                    signed: vec![genesis.hash(), head.hash],
                    tablets: tabs.iter().map(|t| board::copy(&t.key)).collect(),
                    recorder: tabs.len() == 1,
                    players,
                    referee: (!referees.is_empty() && dice.percent(plan.args.judged)).then(|| {
                        board::copy(&referees[dice.below(referees.len() as u64) as usize])
                    }),
                    moves,
                    handicap,
                    counted: tabs.len() == 2 && dice.percent(25),
                    offline: dice.percent(plan.args.offline).then(|| {
                        (
                            dice.below(u64::from(moves)) as u32,
                            Duration::from_secs(plan.args.offline_secs),
                        )
                    }),
                    stop_at,
                    dice,
                };
                let venue = venue.clone();
                let plan = plan.clone();
                let progress = progress.clone();
                handles.push(std::thread::spawn(move || {
                    board::play(&venue, &plan, job, &progress)
                }));
            }
            _ => {
                let winner = if dice.percent(50) { "B+" } else { "W+" };
                paper.push((play_began + plan.game_time(moves), n, winner));
            }
        }
    }
    paper.sort();
    // The desk's loop: enter paper results as their sheets arrive, confirm
    // each finished game, kill the server once if asked, until every board
    // has its result in the chain or the round has run far too long.
    // With `--minutes`, the round's play is that long at most: the faults
    // come within it, and the paper boards' sheets by its end.
    if let Some(stop) = stop_at {
        for p in paper.iter_mut() {
            p.0 = p.0.min(stop);
        }
        paper.sort();
        longest_game = longest_game.min(stop - play_began);
    }
    let kill_at = plan
        .args
        .kill_server
        .then(|| play_began + longest_game.mul_f64(0.4));
    let mut killed = false;
    let stop_nats_at = plan
        .args
        .kill_nats
        .then(|| play_began + longest_game.mul_f64(0.6));
    let mut nats_stopped = false;
    let deadline =
        play_began + longest_game * 3 + Duration::from_secs(120 + plan.args.offline_secs * 2);
    let mut longest_confirmation = Duration::ZERO;
    let mut paper_entered = 0;
    let mut unfinished = Vec::new();
    let mut handles: Vec<Option<std::thread::JoinHandle<BoardRun>>> =
        handles.into_iter().map(Some).collect();
    let mut runs = Vec::new();
    loop {
        // A game that stopped on an error gets its result from the desk,
        // as a referee's decision reaches it, so that the round goes on.
        for slot in handles.iter_mut() {
            if slot.as_ref().is_some_and(|h| h.is_finished()) {
                let Some(h) = slot.take() else { continue };
                match h.join() {
                    Ok(run) => {
                        if let Some(e) = &run.error {
                            if e != board::STOPPED {
                                unfinished
                                    .push(format!("round {} board {}: {e}", run.round, run.board));
                            }
                            desk.act(json!({"do": "result", "tournament": t, "round": round, "board": run.board,
                                            "result": "B+", "by_default": false,
                                            "reason": "the referee's decision: the game's record stopped"}))?;
                        }
                        runs.push(run);
                    }
                    Err(_) => unfinished.push(format!("round {round}: a board's thread failed")),
                }
            }
        }
        if let (Some(at), false) = (kill_at, killed) {
            if Instant::now() >= at {
                if let Some(s) = &venue.server {
                    if let Ok(mut s) = s.lock() {
                        progress.set_message(format!("round {round}: server killed"));
                        s.kill_and_restart()?;
                        progress.set_message(format!("round {round}: playing"));
                    }
                }
                killed = true;
            }
        }
        if let (Some(at), false) = (stop_nats_at, nats_stopped) {
            if Instant::now() >= at {
                if let Some(c) = &venue.nats {
                    if let Ok(mut c) = c.lock() {
                        if let Some(node) = c.stop_leader() {
                            progress
                                .set_message(format!("round {round}: NATS node {node} stopped"));
                        }
                    }
                }
                nats_stopped = true;
            }
        }
        while let Some((at, n, result)) = paper.first().copied() {
            if Instant::now() < at {
                break;
            }
            desk.act(
                json!({"do": "result", "tournament": t, "round": round, "board": n,
                            "result": result, "by_default": false, "reason": "result sheet"}),
            )?;
            paper_entered += 1;
            progress.inc(1);
            paper.remove(0);
        }
        let began = Instant::now();
        let view = desk
            .http
            .get(&format!("/tournaments/{t}/desk?round={round}"))
            .map_err(|e| format!("the desk of round {round}: {e}"))?;
        venue.sample("desk read", began.elapsed());
        let rows = view["boards"].as_array().cloned().unwrap_or_default();
        for row in &rows {
            if row["checkpoint_due"] == json!(true) {
                let began = Instant::now();
                desk.act(json!({"do": "checkpoint", "tournament": t, "round": round, "board": row["board"]}))?;
                longest_confirmation = longest_confirmation.max(began.elapsed());
                venue.sample("confirmation", began.elapsed());
            }
        }
        let done = rows.iter().all(|r| {
            !r["result"].as_str().unwrap_or("").is_empty() && r["from_game_record"] != json!(true)
        });
        let playing = handles.iter().filter(|h| h.is_some()).count();
        if done && paper.is_empty() && playing == 0 && kill_at.is_none_or(|_| killed) {
            break;
        }
        if Instant::now() > deadline {
            for r in rows
                .iter()
                .filter(|r| r["result"].as_str().unwrap_or("").is_empty())
            {
                unfinished.push(format!(
                    "board {}: no result after {} s",
                    r["board"],
                    deadline.duration_since(play_began).as_secs()
                ));
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let play_ms = play_began.elapsed().as_millis() as u64;
    // The NATS node stopped midway comes back for the next round.
    if let Some(c) = &venue.nats {
        if let Ok(mut c) = c.lock() {
            c.restart()?;
        }
    }
    // Past the deadline, the games still playing are waited for (each
    // gives up after its own patience).
    for h in handles.into_iter().flatten() {
        match h.join() {
            Ok(run) => {
                if let Some(e) = &run.error {
                    unfinished.push(format!("round {} board {}: {e}", run.round, run.board));
                }
                runs.push(run);
            }
            Err(_) => unfinished.push(format!("round {round}: a board's thread failed")),
        }
    }
    let games = runs.len() as u32;
    outcome.games.extend(runs);
    let standings = desk
        .http
        .get(&format!("/tournaments/{t}/standings?round={round}"))
        .map_err(|e| format!("the standings after round {round}: {e}"))?;
    Ok(RoundFigures {
        round,
        boards: boards.len() as u32,
        games,
        paper: paper_entered,
        pairing_ms,
        creation_ms,
        play_ms,
        longest_confirmation_ms: longest_confirmation.as_millis() as u64,
        unfinished,
        standings,
    })
}
