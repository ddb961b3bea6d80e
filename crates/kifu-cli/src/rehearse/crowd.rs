//! Everyone at the venue who reads and does not sign: referees' consoles
//! following the feed and reading their overview as the console's page
//! does, hall screens reading the standings, and spectators following the
//! feed.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::http::Http;
use super::plan::Plan;
use super::Venue;

/// The readers' threads.
pub struct Crowd {
    pollers: Vec<JoinHandle<()>>,
    spectators: Vec<JoinHandle<Followed>>,
}

/// What the spectators received.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct Followed {
    /// Spectators.
    pub spectators: u32,
    /// The fewest feed events one spectator received.
    pub fewest: u64,
    /// The most.
    pub most: u64,
    /// Times a spectator's stream ended and it came back with its cursor.
    pub reconnects: u64,
    /// The last cursor any spectator saw.
    pub last_cursor: u64,
    /// Spectators that ended at `last_cursor`.
    pub at_the_end: u32,
}

impl Crowd {
    /// Starts the consoles, hall screens and spectators of `plan`.
    pub fn start(venue: &Arc<Venue>, plan: &Plan) -> Crowd {
        let mut pollers = Vec::new();
        for key in super::desk::referee_keys(plan) {
            let heard = Arc::new(Heard::default());
            let (v, h) = (venue.clone(), heard.clone());
            // Not waited for at the end: it stops at its stream's next line
            // or keep-alive, and holds nothing the report needs.
            std::thread::spawn(move || listen(&v, &h));
            let venue = venue.clone();
            let me = key.public().to_hex();
            pollers.push(std::thread::spawn(move || console(&venue, &me, &heard)));
        }
        for _ in 0..plan.args.hall {
            let venue = venue.clone();
            pollers.push(std::thread::spawn(move || {
                poll(&venue, Duration::from_secs(5), "hall screen", |v| {
                    let t = v.samples.lock().ok()?.tournament.clone()?;
                    Some(format!("/tournaments/{t}/standings"))
                })
            }));
        }
        let spectators = (0..plan.args.spectators)
            .map(|_| {
                let venue = venue.clone();
                std::thread::spawn(move || follow(&venue))
            })
            .collect();
        Crowd {
            pollers,
            spectators,
        }
    }

    /// Waits for every reader to stop (the venue's stop flag is set), the
    /// spectators after they caught up.
    pub fn finish(self) -> Followed {
        for p in self.pollers {
            let _ = p.join();
        }
        let mut f = Followed {
            fewest: u64::MAX,
            ..Followed::default()
        };
        let mut each = Vec::new();
        for s in self.spectators {
            if let Ok(one) = s.join() {
                f.spectators += 1;
                f.fewest = f.fewest.min(one.fewest);
                f.most = f.most.max(one.most);
                f.reconnects += one.reconnects;
                f.last_cursor = f.last_cursor.max(one.last_cursor);
                each.push(one.last_cursor);
            }
        }
        if f.spectators == 0 {
            f.fewest = 0;
        }
        f.at_the_end = each.iter().filter(|c| **c == f.last_cursor).count() as u32;
        f
    }
}

fn poll(venue: &Venue, every: Duration, what: &str, path: impl Fn(&Venue) -> Option<String>) {
    let http = Http::new(&venue.url);
    while !venue.stop.load(Ordering::SeqCst) {
        if let Some(p) = path(venue) {
            let began = Instant::now();
            if http.get(&p).is_ok() {
                venue.sample(what, began.elapsed());
            } else {
                venue.count(&format!("{what} failures"), 1);
            }
        }
        let until = Instant::now() + every;
        while Instant::now() < until && !venue.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// What a console heard from the feed since its last read: the games
/// records named, the games created or whose keys were handed over (which
/// may now name the console, or no longer), and whether to read the whole
/// overview (the feed lost).
#[derive(Default)]
struct Heard {
    games: Mutex<HashSet<String>>,
    roster_changed: Mutex<HashSet<String>>,
    whole: std::sync::atomic::AtomicBool,
}

/// A referee's console as `web/referee.js` runs it: the whole overview
/// once, then, at most twice a second, only the boards the feed named
/// since (`GET /referee/games?key=K&games=ID,...`) with the games created
/// or whose keys were handed over, or the whole overview again when the
/// feed was lost.
fn console(venue: &Venue, me: &str, heard: &Heard) {
    let http = Http::new(&venue.url);
    let mut mine: HashSet<String> = HashSet::new();
    heard.whole.store(true, Ordering::SeqCst);
    while !venue.stop.load(Ordering::SeqCst) {
        let whole = heard.whole.swap(false, Ordering::SeqCst);
        let changed: Vec<String> = heard
            .roster_changed
            .lock()
            .map(|mut g| g.drain().collect())
            .unwrap_or_default();
        let mut named: Vec<String> = heard
            .games
            .lock()
            .map(|mut g| {
                g.drain()
                    .filter(|id| mine.contains(id) && !changed.contains(id))
                    .collect()
            })
            .unwrap_or_default();
        named.extend(changed.iter().cloned());
        let (path, what) = if whole {
            (format!("/referee/games?key={me}"), "referee overview")
        } else if !named.is_empty() {
            (
                format!("/referee/games?key={me}&games={}", named.join(",")),
                "referee boards heard of",
            )
        } else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        let began = Instant::now();
        match http.get(&path) {
            Ok(v) => {
                venue.sample(what, began.elapsed());
                let answered: HashSet<String> = v["games"]
                    .as_array()
                    .map(|gs| {
                        gs.iter()
                            .filter_map(|g| Some(g["game"].as_str()?.to_string()))
                            .collect()
                    })
                    .unwrap_or_default();
                if whole {
                    mine = answered;
                } else {
                    // A game asked for and not answered no longer names
                    // this console; one answered is its own.
                    for id in &changed {
                        if !answered.contains(id) {
                            mine.remove(id);
                        }
                    }
                    mine.extend(answered);
                }
            }
            Err(_) => {
                venue.count("referee overview failures", 1);
                heard.whole.store(true, Ordering::SeqCst);
            }
        }
        let until = began + Duration::from_millis(500);
        while Instant::now() < until && !venue.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A console's feed: from the live end (`/healthz`'s `next_cursor`), the
/// games each record names, coming back with `Last-Event-ID` whenever the
/// stream ends (and then reading the whole overview again).
fn listen(venue: &Venue, heard: &Heard) {
    // Longer than the stream's keep-alive (15 s): a quiet hall is not a
    // lost feed.
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(5))
        .timeout_read(Duration::from_secs(20))
        .build();
    let http = Http::new(&venue.url);
    let mut cursor = http
        .get("/healthz")
        .ok()
        .and_then(|h| h["next_cursor"].as_u64())
        .unwrap_or(1)
        .saturating_sub(1);
    while !venue.stop.load(Ordering::SeqCst) {
        let req = agent
            .get(&format!("{}/feed/stream", venue.url))
            .set("Last-Event-ID", &cursor.to_string());
        if let Ok(r) = req.call() {
            let mut lines = BufReader::new(r.into_reader()).lines();
            while let Some(Ok(line)) = lines.next() {
                if venue.stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(id) = line.strip_prefix("id:") {
                    cursor = id.trim().parse().unwrap_or(cursor);
                } else if let Some(data) = line.strip_prefix("data:") {
                    let Ok(v) = serde_json::from_str::<serde_json::Value>(data) else {
                        continue;
                    };
                    let (Some(game), seq) = (v["game"].as_str(), v["seq"].as_u64()) else {
                        continue;
                    };
                    if seq == Some(0) || v["kind"] == "key replaced" {
                        if let Ok(mut g) = heard.roster_changed.lock() {
                            g.insert(game.to_string());
                        }
                    } else if let Ok(mut g) = heard.games.lock() {
                        g.insert(game.to_string());
                    }
                }
            }
        }
        heard.whole.store(true, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Follows `GET /feed/stream` as the hall's page does, coming back with
/// `Last-Event-ID` whenever the stream ends; once the venue stops, reads
/// on until its stream has been quiet for two seconds.
fn follow(venue: &Venue) -> Followed {
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(5))
        .timeout_read(Duration::from_secs(3))
        .build();
    let mut got = 0u64;
    let mut cursor = 0u64;
    let mut reconnects = 0u64;
    let mut quiet_since: Option<Instant> = None;
    loop {
        let mut req = agent.get(&format!("{}/feed/stream", venue.url));
        if cursor > 0 {
            req = req.set("Last-Event-ID", &cursor.to_string());
        }
        let before = got;
        if let Ok(r) = req.call() {
            let mut lines = BufReader::new(r.into_reader()).lines();
            while let Some(Ok(line)) = lines.next() {
                if let Some(id) = line.strip_prefix("id:") {
                    if let Ok(c) = id.trim().parse::<u64>() {
                        if c > cursor {
                            cursor = c;
                            got += 1;
                        }
                    }
                }
            }
        }
        if venue.stop.load(Ordering::SeqCst) {
            if got > before {
                quiet_since = None;
            }
            let q = quiet_since.get_or_insert_with(Instant::now);
            if q.elapsed() > Duration::from_secs(2) {
                break;
            }
        } else {
            std::thread::sleep(Duration::from_millis(100));
        }
        reconnects += 1;
    }
    Followed {
        spectators: 1,
        fewest: got,
        most: got,
        reconnects,
        last_cursor: cursor,
        at_the_end: 0,
    }
}
