//! What a rehearsal measured, reconciled and concluded: latencies by what
//! was asked (p50, p99, max), records lost and duplicated (the devices'
//! acknowledgements held against the store), the server's CPU per record
//! and peak memory, the standings after each round, and the verdict.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use kifu_ledger::Hash;
use serde::Serialize;

use super::crowd::Followed;
use super::desk::{Outcome, RoundFigures};
use super::http::Http;
use super::plan::{Plan, Table};
use super::server::Usage;
use super::Venue;

/// Latency samples (µs) by series, and counters.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    series: HashMap<String, Vec<u64>>,
    counts: BTreeMap<String, u64>,
    /// The tournament, once created (the hall screens read it).
    pub tournament: Option<String>,
}

impl Samples {
    /// Adds a sample.
    pub fn add(&mut self, what: &str, took: Duration) {
        self.series
            .entry(what.to_string())
            .or_default()
            .push(took.as_micros() as u64);
    }

    /// Counts.
    pub fn count(&mut self, what: &str, n: u64) {
        *self.counts.entry(what.to_string()).or_default() += n;
    }
}

/// p50, p99 and max of a series, in ms.
#[derive(Debug, Clone, Serialize)]
pub struct Spread {
    /// Samples.
    pub n: usize,
    /// Median, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Largest, ms.
    pub max_ms: f64,
}

fn spread(v: &[u64]) -> Spread {
    let mut v = v.to_vec();
    v.sort_unstable();
    let at = |q: f64| {
        if v.is_empty() {
            0.0
        } else {
            let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1;
            v[i] as f64 / 1000.0
        }
    };
    Spread {
        n: v.len(),
        p50_ms: at(0.50),
        p99_ms: at(0.99),
        max_ms: v.last().map(|x| *x as f64 / 1000.0).unwrap_or(0.0),
    }
}

/// The store's records held against what the devices were told.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Reconciled {
    /// Records signed into the games (the desk's geneses and clock starts,
    /// the tablets', the referees').
    pub signed: u64,
    /// Records the server acknowledged.
    pub acknowledged: u64,
    /// Records in the store's game chains.
    pub stored: u64,
    /// Acknowledged, but not in the store.
    pub lost: u64,
    /// In the store twice, or in the store though no one here signed them.
    pub duplicated: u64,
    /// Signed but never acknowledged (a game stopped by an error).
    pub unacknowledged: u64,
}

/// One game's reconciliation: `signed` in order, `acknowledged`, and the
/// chain as the store holds it.
pub fn reconcile_game(signed: &[Hash], acknowledged: &[Hash], chain: &[Hash]) -> Reconciled {
    let in_chain: HashSet<&Hash> = chain.iter().collect();
    let ours: HashSet<&Hash> = signed.iter().collect();
    let acked: HashSet<&Hash> = acknowledged.iter().collect();
    Reconciled {
        signed: signed.len() as u64,
        acknowledged: acked.len() as u64,
        stored: chain.len() as u64,
        lost: acked.iter().filter(|h| !in_chain.contains(*h)).count() as u64,
        duplicated: (chain.len() - in_chain.len()) as u64
            + chain.iter().filter(|h| !ours.contains(h)).count() as u64,
        unacknowledged: ours
            .iter()
            .filter(|h| !acked.contains(*h) && !in_chain.contains(*h))
            .count() as u64,
    }
}

/// Every game of the rehearsal read back from the server: its record
/// hashes in the order of its chain.
pub fn chains(venue: &Venue, outcome: &Outcome) -> Result<HashMap<Hash, Vec<Hash>>, String> {
    let http = Http::new(&venue.url);
    let mut chains = HashMap::new();
    for g in &outcome.games {
        let id = hex::encode(g.game);
        let v = http
            .get(&format!("/games/{id}/records"))
            .map_err(|e| format!("reading game {id} back: {e}"))?;
        let chain: Vec<Hash> = v["records"]
            .as_array()
            .map(|rs| {
                rs.iter()
                    .filter_map(|r| hex::decode(r["hash"].as_str()?).ok()?.try_into().ok())
                    .collect()
            })
            .unwrap_or_default();
        chains.insert(g.game, chain);
    }
    Ok(chains)
}

/// Every game's records, as signed and acknowledged here, held against
/// its chain as the store holds it ([`chains`]).
pub fn reconcile(outcome: &Outcome, chains: &HashMap<Hash, Vec<Hash>>) -> Reconciled {
    let mut total = Reconciled::default();
    for g in &outcome.games {
        let chain = chains.get(&g.game).map(Vec::as_slice).unwrap_or_default();
        // The genesis and the clock's start are the desk's, acknowledged
        // when the round started.
        let mut acked = g.acknowledged.clone();
        acked.extend(g.signed.iter().take(2));
        let r = reconcile_game(&g.signed, &acked, chain);
        total.signed += r.signed;
        total.acknowledged += r.acknowledged;
        total.stored += r.stored;
        total.lost += r.lost;
        total.duplicated += r.duplicated;
        total.unacknowledged += r.unacknowledged;
    }
    total
}

/// Every game's appeal bundle, as `GET /games/{id}/bundle` gives it at a
/// checkpoint signed after the last round.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Bundles {
    /// Bundles read.
    pub read: u64,
    /// Bundles whose proofs check (`kifu_bundle::check_bundle`).
    pub verified: u64,
    /// The largest, in bytes.
    pub largest_bytes: u64,
    /// Compact bundles (`?form=compact`, `kifu-bundle/3`) that read back as
    /// the JSON bundle and verify.
    pub compact_verified: u64,
    /// The largest compact bundle, in bytes.
    pub largest_compact_bytes: u64,
    /// Why none could be read, if so.
    pub unavailable: Option<String>,
}

/// Asks the server for a checkpoint, then reads and checks every game's
/// bundle.
pub fn bundles(venue: &Venue, outcome: &Outcome) -> Bundles {
    let http = Http::new(&venue.url);
    let mut b = Bundles::default();
    if let Err(e) = http.post("/checkpoint?format=json", &serde_json::json!({})) {
        b.unavailable = Some(format!("the server signed no checkpoint: {e}"));
        return b;
    }
    for g in &outcome.games {
        let Ok(bytes) = http.get_bytes(&format!("/games/{}/bundle", hex::encode(g.game))) else {
            continue;
        };
        b.read += 1;
        b.largest_bytes = b.largest_bytes.max(bytes.len() as u64);
        let json = serde_json::from_slice::<kifu_bundle::Bundle>(&bytes).ok();
        if json
            .as_ref()
            .is_some_and(|x| kifu_bundle::check_bundle(x).is_ok())
        {
            b.verified += 1;
        }
        let path = format!("/games/{}/bundle?form=compact", hex::encode(g.game));
        let Ok(compact) = http.get_bytes(&path) else {
            continue;
        };
        b.largest_compact_bytes = b.largest_compact_bytes.max(compact.len() as u64);
        let same = kifu_bundle::compact::decode(&compact)
            .ok()
            .is_some_and(|c| {
                kifu_bundle::check_bundle(&c).is_ok()
                    && json.as_ref().is_some_and(|j| {
                        serde_json::to_value(j).ok() == serde_json::to_value(&c).ok()
                    })
            });
        if same {
            b.compact_verified += 1;
        }
    }
    b
}

/// The progress bar: one step a board's game.
pub fn progress(plan: &Plan) -> indicatif::ProgressBar {
    let bar =
        indicatif::ProgressBar::new(u64::from(plan.args.boards) * u64::from(plan.args.rounds));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Boards.
    pub boards: u32,
    /// Tables with two tablets, one, none.
    pub tables: [u32; 3],
    /// Rounds.
    pub rounds: u32,
    /// Players.
    pub players: u32,
    /// The pace asked, as a multiple of real time.
    pub pace: f64,
    /// The tournament chain.
    pub tournament: String,
    /// Wall time of the whole rehearsal, s.
    pub seconds: f64,
    /// Store and devices held against each other.
    pub records: Reconciled,
    /// Tournament records the desk signed.
    pub desk_records: u64,
    /// Latencies by what was asked.
    pub latency: BTreeMap<String, Spread>,
    /// Counters.
    pub counts: BTreeMap<String, u64>,
    /// Each round at the desk.
    pub rounds_at_the_desk: Vec<RoundFigures>,
    /// What the spectators received.
    pub spectators: Followed,
    /// The games' appeal bundles.
    pub bundles: Bundles,
    /// The server's cost, when this rehearsal started it.
    pub server: Option<Usage>,
    /// The NATS stream read back and reconciled with the store, when the
    /// server published to a cluster this rehearsal started.
    pub stream: Option<super::nats::StreamCheck>,
    /// Server CPU per acknowledged record, ms.
    pub server_cpu_ms_per_record: Option<f64>,
    /// The data directory, when kept.
    pub data: Option<PathBuf>,
    /// The verdict in words.
    pub verdict: String,
}

impl Report {
    /// The report of a finished rehearsal.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        plan: &Plan,
        outcome: &Outcome,
        records: &Reconciled,
        samples: &Samples,
        spectators: Followed,
        bundles: Bundles,
        server: Option<Usage>,
        took: Duration,
        data: Option<PathBuf>,
    ) -> Report {
        let count = |t| plan.tables.iter().filter(|x| **x == t).count() as u32;
        let latency: BTreeMap<String, Spread> = samples
            .series
            .iter()
            .map(|(k, v)| (k.clone(), spread(v)))
            .collect();
        let per_record = server
            .filter(|_| records.acknowledged > 0)
            .map(|u| u.cpu_s * 1000.0 / records.acknowledged as f64);
        let unfinished: Vec<&String> = outcome.rounds.iter().flat_map(|r| &r.unfinished).collect();
        let verdict = verdict(plan, records, &latency, &unfinished);
        Report {
            boards: plan.args.boards,
            tables: [
                count(Table::TwoTablets),
                count(Table::Recorder),
                count(Table::Paper),
            ],
            rounds: plan.args.rounds,
            players: outcome.players,
            pace: plan.args.pace,
            tournament: outcome.tournament.clone(),
            seconds: took.as_secs_f64(),
            records: records.clone(),
            desk_records: outcome.desk_records,
            latency,
            counts: samples.counts.clone(),
            rounds_at_the_desk: outcome.rounds.clone(),
            spectators,
            bundles,
            server,
            stream: None,
            server_cpu_ms_per_record: per_record,
            data,
            verdict,
        }
    }

    /// The report as a table for a person.
    pub fn table(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "kifu rehearse: {} boards ({} with two tablets, {} with one, {} on paper), {} players, {} rounds at {}× real pace, in {:.1} s",
            self.boards, self.tables[0], self.tables[1], self.tables[2], self.players, self.rounds, self.pace, self.seconds
        );
        let r = &self.records;
        let _ = writeln!(
            o,
            "records: {} signed, {} acknowledged, {} in the store; lost {}, duplicated {}, never acknowledged {}; {} tournament records from the desk",
            r.signed, r.acknowledged, r.stored, r.lost, r.duplicated, r.unacknowledged, self.desk_records
        );
        let _ = writeln!(
            o,
            "\n{:<24} {:>8} {:>9} {:>9} {:>9}",
            "latency (ms)", "n", "p50", "p99", "max"
        );
        for (k, s) in &self.latency {
            let _ = writeln!(
                o,
                "{:<24} {:>8} {:>9.1} {:>9.1} {:>9.1}",
                k, s.n, s.p50_ms, s.p99_ms, s.max_ms
            );
        }
        let _ = writeln!(
            o,
            "\n{:<6} {:>7} {:>6} {:>6} {:>11} {:>12} {:>9} {:>14}  leader",
            "round",
            "boards",
            "games",
            "paper",
            "pairing ms",
            "creation ms",
            "play s",
            "confirm max ms"
        );
        for f in &self.rounds_at_the_desk {
            let leader = f.standings["table"]
                .get(0)
                .map(|row| {
                    let id = row["player"].as_str().unwrap_or("");
                    let name = f.standings["players"][id]["name"].as_str().unwrap_or("");
                    let first = f.standings["criteria"][0].as_str().unwrap_or("");
                    format!("{name} ({id}), {first} {}", row["values"][first])
                })
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "{:<6} {:>7} {:>6} {:>6} {:>11} {:>12} {:>9.1} {:>14}  {}",
                f.round,
                f.boards,
                f.games,
                f.paper,
                f.pairing_ms,
                f.creation_ms,
                f.play_ms as f64 / 1000.0,
                f.longest_confirmation_ms,
                leader.trim()
            );
            for u in &f.unfinished {
                let _ = writeln!(o, "  unfinished: {u}");
            }
        }
        for (k, n) in &self.counts {
            let _ = writeln!(o, "{k}: {n}");
        }
        let s = &self.spectators;
        let _ = writeln!(
            o,
            "spectators: {} following the feed received {} to {} events; {} ended at the last cursor {}; streams reopened {} times",
            s.spectators, s.fewest, s.most, s.at_the_end, s.last_cursor, s.reconnects
        );
        if let Some(n) = &self.stream {
            let _ = writeln!(
                o,
                "NATS stream: {} messages, {} records read back and verified; lost {}, duplicated {}; a node stopped {} times",
                n.messages, n.read, n.lost, n.duplicated, n.node_stops
            );
        }
        let b = &self.bundles;
        match &b.unavailable {
            Some(why) => {
                let _ = writeln!(o, "bundles: none read: {why}");
            }
            None => {
                let _ = writeln!(
                    o,
                    "bundles: {} of {} games' appeal bundles verify; the largest is {:.1} KB \
                     ({} compact bundles read back the same and verify; the largest is {:.1} KB)",
                    b.verified,
                    b.read,
                    b.largest_bytes as f64 / 1024.0,
                    b.compact_verified,
                    b.largest_compact_bytes as f64 / 1024.0
                );
            }
        }
        match (&self.server, self.server_cpu_ms_per_record) {
            (Some(u), Some(per)) => {
                let _ = writeln!(
                    o,
                    "server: {:.1} s of CPU ({per:.2} ms a record), peak RSS {:.0} MiB, killed {} times (longest restart {} ms)",
                    u.cpu_s, u.peak_rss_mib, u.kills, u.longest_restart_ms
                );
            }
            _ => {
                let _ = writeln!(o, "server: not started by this rehearsal; its CPU and memory are not measured here");
            }
        }
        if let Some(d) = &self.data {
            let _ = writeln!(
                o,
                "data: {} (kifu --data {} verify)",
                d.display(),
                d.display()
            );
        }
        let _ = writeln!(o, "\n{}", self.verdict);
        o
    }
}

/// The tap-to-acknowledgement and read bound a tablet needs (issue-free
/// play at the table: a stone shows as recorded before the hand is back).
pub const TABLET_BOUND_MS: f64 = 50.0;

fn verdict(
    plan: &Plan,
    r: &Reconciled,
    latency: &BTreeMap<String, Spread>,
    unfinished: &[&String],
) -> String {
    let what = match plan.args.minutes {
        Some(m) => format!(
            "{} boards at {}× real pace for {m} minutes of each round",
            plan.args.boards, plan.args.pace
        ),
        None => format!(
            "{} boards at {}× real pace",
            plan.args.boards, plan.args.pace
        ),
    };
    if r.lost > 0 || r.duplicated > 0 {
        return format!(
            "this server did not carry {what}: {} records lost, {} duplicated",
            r.lost, r.duplicated
        );
    }
    if let Some(u) = unfinished.first() {
        return format!("this server did not carry {what}: {u}");
    }
    for k in ["stone", "press", "tablet read"] {
        if let Some(s) = latency.get(k) {
            if s.p99_ms > TABLET_BOUND_MS {
                return format!(
                    "this server carried {what} with nothing lost, but the first limit it met: {k} p99 {:.1} ms, above {TABLET_BOUND_MS} ms",
                    s.p99_ms
                );
            }
        }
    }
    format!("this server carried {what}: nothing lost, nothing duplicated, a tablet's p99 within {TABLET_BOUND_MS} ms")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(i: u8) -> Hash {
        [i; 32]
    }

    #[test]
    fn a_game_held_whole_reconciles_to_nothing_lost() {
        let signed = [h(1), h(2), h(3)];
        let r = reconcile_game(&signed, &signed, &signed);
        assert_eq!(
            (r.lost, r.duplicated, r.unacknowledged, r.stored),
            (0, 0, 0, 3)
        );
    }

    #[test]
    fn an_acknowledged_record_missing_from_the_store_is_lost() {
        let signed = [h(1), h(2), h(3)];
        let r = reconcile_game(&signed, &signed, &[h(1), h(3)]);
        assert_eq!((r.lost, r.duplicated), (1, 0));
    }

    #[test]
    fn a_record_stored_twice_or_signed_by_no_one_here_is_duplicated() {
        let signed = [h(1), h(2)];
        let r = reconcile_game(&signed, &signed, &[h(1), h(2), h(2)]);
        assert_eq!((r.lost, r.duplicated), (0, 1));
        let r = reconcile_game(&signed, &signed, &[h(1), h(2), h(9)]);
        assert_eq!((r.lost, r.duplicated), (0, 1));
    }

    #[test]
    fn a_record_never_acknowledged_nor_stored_is_counted_apart() {
        let r = reconcile_game(&[h(1), h(2)], &[h(1)], &[h(1)]);
        assert_eq!((r.lost, r.duplicated, r.unacknowledged), (0, 0, 1));
    }

    #[test]
    fn percentiles_take_the_sample_at_or_above_the_rank() {
        let v: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        let s = spread(&v);
        assert_eq!((s.p50_ms, s.p99_ms, s.max_ms), (50.0, 99.0, 100.0));
        assert_eq!(spread(&[]).n, 0);
    }
}
