//! Figures for docs/PERFORMANCE.md (ignored: run by hand, release build):
//!
//! ```sh
//! cargo test -p kifu-nats --release --test perf -- --ignored --nocapture --test-threads 1
//! ```
//!
//! On a three-node JetStream cluster on loopback, stream replicas 3:
//! publish throughput of a backlog, append-to-consumer latency at a steady
//! rate, and durable append throughput with and without a publisher running.
//! Nothing is asserted about time; the figures are printed.
//! `KIFU_PERF_ONLY=history|publish|latency|cost` runs one part;
//! `KIFU_PERF_NATS_DIR=/dev/shm` keeps the cluster's data off the disk.

mod support;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Hash, Record};
use kifu_nats::{
    run_publisher_with_status, ConsumerConfig, FeedConsumer, Filter, PublisherConfig,
    PublisherStatus, Start,
};
use kifu_store::Store;

/// `games` chains of `per_game` clock presses each, signed in advance.
fn chains(cast: &Cast, tag: &str, games: usize, per_game: usize) -> Vec<Vec<Record>> {
    (0..games)
        .map(|i| {
            let mut c = ChainBuilder::start(&cast.referee, cast.genesis(&format!("{tag} {i}")), 0);
            for k in 0..per_game {
                let player = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                c.push(&cast.recorder, Body::ClockPressed { player });
            }
            c.records
        })
        .collect()
}

fn start_publisher(
    store: Arc<Store>,
    url: &str,
    stream: &str,
) -> (
    Arc<PublisherStatus>,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let mut cfg = PublisherConfig::new(url);
    cfg.replicas = 3;
    cfg.stream = stream.into();
    let status = Arc::new(PublisherStatus::default());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let st = status.clone();
    let h = tokio::spawn(async move {
        run_publisher_with_status(store, cfg, st, async {
            let _ = rx.await;
        })
        .await
        .expect("publisher");
    });
    (status, tx, h)
}

/// CPU seconds used so far by process `pid`, or by those of its threads
/// whose name starts with `thread_prefix`.
fn cpu_seconds(pid: u32, thread_prefix: Option<&str>) -> f64 {
    let ticks = |stat: &str| -> u64 {
        // Fields after the command name in parentheses; utime and stime are
        // the 14th and 15th fields of the line.
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
            + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
    };
    let total = match thread_prefix {
        None => std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| ticks(&s))
            .unwrap_or(0),
        Some(prefix) => std::fs::read_dir(format!("/proc/{pid}/task"))
            .map(|d| {
                d.flatten()
                    .filter(|e| {
                        std::fs::read_to_string(e.path().join("comm"))
                            .map(|c| c.starts_with(prefix))
                            .unwrap_or(false)
                    })
                    .map(|e| {
                        std::fs::read_to_string(e.path().join("stat"))
                            .map(|s| ticks(&s))
                            .unwrap_or(0)
                    })
                    .sum()
            })
            .unwrap_or(0),
    };
    total as f64 / 100.0
}

/// Appends at `rate` events/s round-robin over `chains` (genesis already
/// stored); returns each durable append's latency, sorted.
fn paced_latencies(store: &Store, chains: &[Vec<Record>], rate: f64) -> Vec<Duration> {
    let per = chains.iter().map(|c| c.len()).min().unwrap_or(1);
    let start = Instant::now();
    let mut i = 0u64;
    let mut out = Vec::new();
    for k in 1..per {
        for c in chains {
            let due = start + Duration::from_secs_f64(i as f64 / rate);
            if let Some(d) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            let t0 = Instant::now();
            store.append(c[k].clone()).expect("append");
            out.push(t0.elapsed());
            i += 1;
        }
    }
    out.sort();
    out
}

/// Deletes a stream (streams may not share subjects, and every figure here
/// uses kifu's).
async fn delete_stream(url: &str, name: &str) {
    let client = kifu_nats::connect(url, "perf").await.unwrap();
    let js = async_nats::jetstream::new(client);
    js.delete_stream(name).await.unwrap();
}

/// Durable appends from `writers` threads for `secs`: events per second.
fn append_rate(store: &Arc<Store>, chains: Vec<Vec<Record>>, writers: usize, secs: f64) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let per = chains.len() / writers;
    let mut handles = Vec::new();
    let mut chains = chains.into_iter();
    for _ in 0..writers {
        let mine: Vec<Vec<Record>> = chains.by_ref().take(per).collect();
        let (store, stop, done) = (store.clone(), stop.clone(), done.clone());
        handles.push(std::thread::spawn(move || {
            for chain in mine {
                for r in chain {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    store.append(r).expect("append");
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs_f64(secs));
    stop.store(true, Ordering::Relaxed);
    let n = done.load(Ordering::Relaxed);
    let el = start.elapsed().as_secs_f64();
    for h in handles {
        let _ = h.join();
    }
    n as f64 / el
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore]
async fn nats_figures() {
    let Some(bin) = support::nats_server("nats figures") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    // KIFU_PERF_NATS_DIR puts the cluster's data elsewhere (e.g. /dev/shm, to
    // tell the disk's share of the cost from the processors').
    let nats_dir = match std::env::var_os("KIFU_PERF_NATS_DIR") {
        Some(d) => tempfile::tempdir_in(d).unwrap(),
        None => tempfile::tempdir_in(t.path()).unwrap(),
    };
    let cluster = support::Cluster::start(&bin, nats_dir.path(), 3);
    let url = cluster.urls();
    let cast = Cast::new();
    let only = std::env::var("KIFU_PERF_ONLY").ok();
    let run = |part: &str| only.as_deref().is_none_or(|o| o == part);

    // 0. A game's history read from the stream's leader, one request per
    //    record (what the mirror and a consumer do for a record whose
    //    predecessors they did not read): a classical game of 550 events.
    if run("history") {
        let store = Arc::new(Store::open(&t.path().join("history")).unwrap());
        let game = chains(&cast, "history", 1, 549).remove(0);
        store.append_batch(game.clone()).unwrap();
        let (status, stop, h) = start_publisher(store.clone(), &url, "PERF0");
        while status.next_cursor.load(Ordering::Relaxed) < game.len() as u64 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let client = kifu_nats::connect(&url, "perf").await.unwrap();
        let js = async_nats::jetstream::new(client);
        let stream = js.get_stream("PERF0").await.unwrap();
        let id = game[0].hash();
        for round in 1..=3 {
            let start = Instant::now();
            let got = kifu_nats::consumer::game_history(&stream, &id, u64::MAX, &|_| {})
                .await
                .unwrap();
            let el = start.elapsed();
            assert_eq!(got.len(), game.len());
            println!(
                "game history from the stream leader (round {round}): {} records in {:.1} ms = {:.0} records/s (3 nodes, R3)",
                got.len(),
                el.as_secs_f64() * 1e3,
                got.len() as f64 / el.as_secs_f64()
            );
        }
        let _ = stop.send(());
        h.await.unwrap();
        delete_stream(&url, "PERF0").await;
    }

    // 1. Publish throughput of a backlog of 200 games x 100 events: as a
    //    venue's feed interleaves its boards, and game after game (an
    //    imported archive), where only one record per game is in flight.
    for (name, interleaved) in [("interleaved", true), ("game after game", false)] {
        if !run("publish") {
            break;
        }
        let store =
            Arc::new(Store::open(&t.path().join(format!("backlog-{interleaved}"))).unwrap());
        let backlog = chains(&cast, &format!("backlog {interleaved}"), 200, 99);
        let total: usize = backlog.iter().map(|c| c.len()).sum();
        let all: Vec<Record> = if interleaved {
            (0..100)
                .flat_map(|k| backlog.iter().map(move |c| c[k].clone()))
                .collect()
        } else {
            backlog.into_iter().flatten().collect()
        };
        for chunk in all.chunks(1000) {
            store.append_batch(chunk.to_vec()).unwrap();
        }
        let stream = if interleaved { "PERF1A" } else { "PERF1B" };
        let (status, stop, h) = start_publisher(store.clone(), &url, stream);
        let start = Instant::now();
        let deadline = start + Duration::from_secs(300);
        while status.next_cursor.load(Ordering::Relaxed) < total as u64 {
            assert!(Instant::now() < deadline, "publisher too slow");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let el = start.elapsed().as_secs_f64();
        println!(
            "publish, {name}: {total} events in {el:.2} s = {:.0} events/s (3 nodes, R3, including stream creation)",
            total as f64 / el
        );
        let _ = stop.send(());
        h.await.unwrap();
        delete_stream(&url, stream).await;
    }

    if run("latency") {
        // 2. Append-to-consumer latency at a steady 500 events/s over 20 games.
        let store = Arc::new(Store::open(&t.path().join("latency")).unwrap());
        let lat_chains = chains(&cast, "latency", 20, 200);
        for c in &lat_chains {
            store.append(c[0].clone()).unwrap();
        }
        let (status, stop, h) = start_publisher(store.clone(), &url, "PERF2");
        while status.next_cursor.load(Ordering::Relaxed) < 20 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let mut consumer = FeedConsumer::connect(&ConsumerConfig {
            url: url.clone(),
            stream: "PERF2".into(),
            filter: Filter::All,
            start: Start::FromStart,
        })
        .await
        .unwrap();
        let acked: Arc<Mutex<HashMap<Hash, Instant>>> = Arc::default();
        let n_events = 20 * 200;
        let writer = {
            let (store, acked) = (store.clone(), acked.clone());
            std::thread::spawn(move || {
                let start = Instant::now();
                let mut i = 0u64;
                for k in 1..=200 {
                    for c in &lat_chains {
                        // 500 events per second.
                        let due = start + Duration::from_micros(2000 * i);
                        if let Some(d) = due.checked_duration_since(Instant::now()) {
                            std::thread::sleep(d);
                        }
                        let r = c[k].clone();
                        let hash = r.hash();
                        store.append(r).unwrap();
                        acked.lock().unwrap().insert(hash, Instant::now());
                        i += 1;
                    }
                }
            })
        };
        let mut lat = Vec::with_capacity(n_events);
        while lat.len() < n_events {
            let d = tokio::time::timeout(Duration::from_secs(30), consumer.next())
                .await
                .expect("delivery")
                .unwrap();
            let now = Instant::now();
            if d.seq == 0 {
                continue;
            }
            // The append may be acknowledged a hair after delivery starts;
            // wait for its timestamp.
            let mut t0 = None;
            for _ in 0..1000 {
                if let Some(t) = acked.lock().unwrap().get(&d.record.hash()) {
                    t0 = Some(*t);
                    break;
                }
                std::thread::sleep(Duration::from_micros(50));
            }
            let t0 = t0.expect("delivered record was appended");
            lat.push(now.saturating_duration_since(t0));
        }
        writer.join().unwrap();
        lat.sort();
        let p = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
        println!(
        "append-acknowledged to verified delivery, 500 events/s: p50 {:?} p99 {:?} max {:?} ({} events)",
        p(0.50),
        p(0.99),
        lat[lat.len() - 1],
        lat.len()
    );
        let _ = stop.send(());
        h.await.unwrap();
        delete_stream(&url, "PERF2").await;
    }

    if run("cost") {
        // 3. The publisher's cost on durable appends: 8 writers, 6 s each way,
        //    alternated four times.
        let store = Arc::new(Store::open(&t.path().join("cost")).unwrap());
        let mut rates_without = Vec::new();
        let mut rates_with = Vec::new();
        for round in 0..4 {
            let c = chains(&cast, &format!("cost-off-{round}"), 64, 700);
            let s2 = store.clone();
            rates_without.push(
                tokio::task::spawn_blocking(move || append_rate(&s2, c, 8, 6.0))
                    .await
                    .unwrap(),
            );
            let (_status, stop, h) = start_publisher(store.clone(), &url, "PERF3");
            tokio::time::sleep(Duration::from_secs(2)).await;
            let nats_pids: Vec<u32> = cluster
                .nodes
                .iter()
                .filter_map(|n| n.child.as_ref().map(|c| c.id()))
                .collect();
            let me = std::process::id();
            let nats_cpu0: f64 = nats_pids.iter().map(|p| cpu_seconds(*p, None)).sum();
            let pub_cpu0 = cpu_seconds(me, Some("tokio"));
            let wall0 = Instant::now();
            let c = chains(&cast, &format!("cost-on-{round}"), 64, 700);
            let s2 = store.clone();
            rates_with.push(
                tokio::task::spawn_blocking(move || append_rate(&s2, c, 8, 6.0))
                    .await
                    .unwrap(),
            );
            let wall = wall0.elapsed().as_secs_f64();
            let nats_cpu: f64 =
                nats_pids.iter().map(|p| cpu_seconds(*p, None)).sum::<f64>() - nats_cpu0;
            let pub_cpu = cpu_seconds(me, Some("tokio")) - pub_cpu0;
            println!(
                "  round {round}: publisher threads {:.0} % of a core, the 3 nats-server processes {:.0} % of a core",
                pub_cpu / wall * 100.0,
                nats_cpu / wall * 100.0
            );
            let _ = stop.send(());
            h.await.unwrap();
        }
        let avg = |v: &[f64]| {
            let mut v = v.to_vec();
            v.sort_by(|a, b| a.total_cmp(b));
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        println!(
        "durable appends, 8 writers: without publisher {:?} -> median {:.0}/s; with publisher {:?} -> median {:.0}/s; change {:+.1} %",
        rates_without.iter().map(|r| r.round()).collect::<Vec<_>>(),
        avg(&rates_without),
        rates_with.iter().map(|r| r.round()).collect::<Vec<_>>(),
        avg(&rates_with),
        (avg(&rates_with) / avg(&rates_without) - 1.0) * 100.0
    );

        // At a venue's pace instead of flat out: one writer, 500 events/s
        // over 20 games, 2,980 appends each way, twice.
        let q = |v: &[Duration], x: f64| v[((v.len() as f64 * x) as usize).min(v.len() - 1)];
        for round in 0..2 {
            for with in [false, true] {
                let c = chains(&cast, &format!("paced-{round}-{with}"), 20, 149);
                for g in &c {
                    store.append(g[0].clone()).unwrap();
                }
                let publisher = if with {
                    let p = start_publisher(store.clone(), &url, "PERF3");
                    tokio::time::sleep(Duration::from_secs(2)).await;
                    Some(p)
                } else {
                    None
                };
                let s2 = store.clone();
                let lat = tokio::task::spawn_blocking(move || paced_latencies(&s2, &c, 500.0))
                    .await
                    .unwrap();
                println!(
                    "durable append latency at 500 events/s, {} publisher (round {round}): p50 {:?} p99 {:?} ({} appends)",
                    if with { "with" } else { "without" },
                    q(&lat, 0.5),
                    q(&lat, 0.99),
                    lat.len()
                );
                if let Some((_st, stop, h)) = publisher {
                    let _ = stop.send(());
                    h.await.unwrap();
                }
            }
        }
    }
}
