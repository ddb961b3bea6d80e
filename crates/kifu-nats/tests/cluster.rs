//! End to end on a three-node JetStream cluster (stream replicas 3): two
//! venues publish their games, a federation mirror consumes; one NATS node is
//! SIGKILLed mid-stream and restarted later; one venue's publisher is killed
//! (its task dropped mid-flight, its store closed) and restarted; the mirror
//! is killed and restarted as well. The mirror
//! ends up holding every record of both venues exactly once, verified, and
//! the stream holds each record once.

mod support;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{verify_records, Body, Color, TournamentRef};
use kifu_nats::{
    run_mirror, run_publisher_with_status, ConsumerConfig, FeedConsumer, Filter, MirrorConfig,
    MirrorStatus, PublisherConfig, PublisherStatus, Start,
};
use kifu_store::Store;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The two tests each run a NATS cluster and kill nodes on purpose; run
/// one at a time so that neither's timing depends on the other's load.
static ONE_CLUSTER_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct Venue {
    dir: std::path::PathBuf,
    store: Arc<Store>,
    games: Vec<ChainBuilder>,
    publisher: Option<(oneshot::Sender<()>, JoinHandle<()>)>,
    status: Arc<PublisherStatus>,
}

fn start_publisher(v: &mut Venue, url: &str) {
    let mut cfg = PublisherConfig::new(url);
    cfg.replicas = 3;
    let (tx, rx) = oneshot::channel::<()>();
    let store = v.store.clone();
    let status = v.status.clone();
    let h = tokio::spawn(async move {
        let r = run_publisher_with_status(store, cfg, status, async {
            let _ = rx.await;
        })
        .await;
        if let Err(e) = r {
            panic!("publisher failed: {e}");
        }
    });
    v.publisher = Some((tx, h));
}

fn venue(dir: std::path::PathBuf, cast: &Cast, tournament: &str, n_games: usize) -> Venue {
    let store = Arc::new(Store::open(&dir).unwrap());
    let mut games = Vec::new();
    for i in 0..n_games {
        let mut g = cast.genesis(&format!("{tournament} board {i}"));
        g.tournament = Some(TournamentRef {
            tournament: tournament.into(),
            round: 1,
            board: i as u32 + 1,
        });
        let c = ChainBuilder::start(&cast.referee, g, 1_767_225_600_000);
        store.append(c.records[0].clone()).unwrap();
        games.push(c);
    }
    Venue {
        dir,
        store,
        games,
        publisher: None,
        status: Arc::new(PublisherStatus::default()),
    }
}

/// Appends `n` clock presses to every game of the venue, interleaved.
async fn play(v: &mut Venue, cast: &Cast, n: usize) {
    for _ in 0..n {
        for g in v.games.iter_mut() {
            let player = if g.head.seq % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let r = g
                .push(&cast.recorder, Body::ClockPressed { player })
                .clone();
            let s = v.store.clone();
            tokio::task::spawn_blocking(move || s.append(r))
                .await
                .unwrap()
                .unwrap();
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

async fn wait_until(what: &str, limit: Duration, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_venues_a_mirror_a_lost_node_and_a_restarted_publisher() {
    let _one = ONE_CLUSTER_AT_A_TIME.lock().await;
    let Some(bin) = support::nats_server("cluster test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut cluster = support::Cluster::start(&bin, &t.path().join("nats"), 3);
    let urls = cluster.urls();
    let cast = Cast::new();

    let mut a = venue(t.path().join("venue-a"), &cast, "Venue A Open", 3);
    let mut b = venue(t.path().join("venue-b"), &cast, "Venue B Cup", 3);
    start_publisher(&mut a, &urls);
    start_publisher(&mut b, &urls);

    let mirror_store = Arc::new(Store::open(&t.path().join("archive")).unwrap());
    let first_mirror_status = Arc::new(MirrorStatus::default());
    let first_mirror = start_mirror(&mirror_store, &first_mirror_status, &urls);

    // Everything published so far reaches the stream (the cluster elects its
    // leaders meanwhile; the publishers wait).
    play(&mut a, &cast, 10).await;
    play(&mut b, &cast, 10).await;
    wait_until("first publications", Duration::from_secs(60), || {
        a.status.next_cursor.load(Ordering::Relaxed) == a.store.len() as u64
            && b.status.next_cursor.load(Ordering::Relaxed) == b.store.len() as u64
    })
    .await;

    // Mid-stream: one node is SIGKILLed while both venues keep appending.
    let (pa, pb) = (
        tokio::spawn({
            let mut a = clone_venue(&a);
            let cast = Cast::new();
            async move {
                play(&mut a, &cast, 30).await;
                a.games
            }
        }),
        tokio::spawn({
            let mut b = clone_venue(&b);
            let cast = Cast::new();
            async move {
                play(&mut b, &cast, 30).await;
                b.games
            }
        }),
    );
    tokio::time::sleep(Duration::from_millis(30)).await;
    cluster.kill(1);
    a.games = pa.await.unwrap();
    b.games = pb.await.unwrap();

    // Venue A's publisher dies mid-flight: its task is dropped wherever it
    // was, and its store is closed and opened again, as after a crash.
    play(&mut a, &cast, 5).await;
    let (tx, h) = a.publisher.take().unwrap();
    h.abort();
    let _ = h.await;
    drop(tx);
    let acked_before_restart = kifu_nats::published_up_to(&a.store, "KIFU").unwrap();
    play(&mut a, &cast, 10).await;
    let games = std::mem::take(&mut a.games);
    let dir = a.dir.clone();
    drop(a);
    let store = Arc::new(Store::open(&dir).unwrap());
    // As if the crash had come before the kept cursor reached the disk: the
    // restarted publisher goes back 20 records and publishes them again;
    // the stream drops the repeats by their Nats-Msg-Id.
    let kept = kifu_nats::published_up_to(&store, "KIFU").unwrap();
    assert!(kept >= 20);
    store
        .put_value_durable(
            &kifu_nats::publisher::progress_key("KIFU"),
            &(kept - 20).to_be_bytes(),
        )
        .unwrap();
    let mut a = Venue {
        dir,
        store,
        games,
        publisher: None,
        status: Arc::new(PublisherStatus::default()),
    };
    // The restarted publisher resumes from the cursor kept in the store.
    let resume = kifu_nats::published_up_to(&a.store, "KIFU").unwrap();
    assert_eq!(resume + 20, kept);
    assert!(kept >= acked_before_restart);
    assert!(
        resume < a.store.len() as u64,
        "records appended while it was down wait"
    );
    start_publisher(&mut a, &urls);
    play(&mut a, &cast, 10).await;
    play(&mut b, &cast, 10).await;

    // The mirror dies too, wherever it was (messages it had received but
    // not acknowledged come again only after the ack wait; later records of
    // the same games arrive first and the mirror fetches what it lacks).
    first_mirror.1.abort();
    let _ = first_mirror.1.await;
    drop(first_mirror.0);
    play(&mut a, &cast, 5).await;
    play(&mut b, &cast, 5).await;
    let mirror_status = Arc::new(MirrorStatus::default());
    let (mirror_stop, mut mirror) = start_mirror(&mirror_store, &mirror_status, &urls);

    // The lost node comes back and catches up.
    cluster.restart(1);
    play(&mut a, &cast, 10).await;
    play(&mut b, &cast, 10).await;

    let total = (a.store.len() + b.store.len()) as u64;
    wait_until(
        "the publishers to catch up",
        Duration::from_secs(90),
        || {
            a.status.next_cursor.load(Ordering::Relaxed) == a.store.len() as u64
                && b.status.next_cursor.load(Ordering::Relaxed) == b.store.len() as u64
        },
    )
    .await;
    // Records delivered to the mirror that was killed come again only after
    // JetStream's ack wait (30 s), possibly more than once. Should they not,
    // the failure says what each mirror did.
    let started = Instant::now();
    while (mirror_store.len() as u64) < total {
        // A mirror waits NATS's failures out; ending is a failure of its own.
        if mirror.is_finished() {
            let r = (&mut mirror).await;
            panic!("the mirror stopped with {r:?}");
        }
        let say = |s: &MirrorStatus| {
            format!(
                "written {}, already present {}, refused {} (last: {:?}), acknowledged up to stream seq {}, NATS failures {} (now: {:?})",
                s.written.load(Ordering::Relaxed),
                s.already_present.load(Ordering::Relaxed),
                s.refused.load(Ordering::Relaxed),
                s.last_refusal.lock().map(|l| l.clone()).unwrap_or_default(),
                s.acked_stream_seq.load(Ordering::Relaxed),
                s.failures.count(),
                s.failures.now(),
            )
        };
        assert!(
            started.elapsed() < Duration::from_secs(150),
            "timed out waiting for the mirror to hold everything: {} of {total}; first mirror: {}; second mirror: {}",
            mirror_store.len(),
            say(&first_mirror_status),
            say(&mirror_status),
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    println!(
        "venue A: {} new, {} repeats dropped; venue B: {} new, {} repeats dropped; mirror: {} written, {} already present",
        a.status.published.load(Ordering::Relaxed),
        a.status.duplicates.load(Ordering::Relaxed),
        b.status.published.load(Ordering::Relaxed),
        b.status.duplicates.load(Ordering::Relaxed),
        mirror_status.written.load(Ordering::Relaxed),
        mirror_status.already_present.load(Ordering::Relaxed),
    );
    // At least the 20 it went back over; a publication whose acknowledgement
    // was lost while the node came back is sent again and dropped as well.
    assert!(a.status.duplicates.load(Ordering::Relaxed) >= 20);
    // Exactly once, byte for byte, verified.
    assert_eq!(mirror_store.len() as u64, total);
    assert_eq!(mirror_status.refused.load(Ordering::Relaxed), 0);
    assert_eq!(first_mirror_status.refused.load(Ordering::Relaxed), 0);
    for v in [&a, &b] {
        for g in &v.games {
            let here = v.store.read(&g.game, 0, None).unwrap();
            assert_eq!(here, g.records, "venue store holds what was appended");
            let there = mirror_store.read(&g.game, 0, None).unwrap();
            assert_eq!(there, g.records, "the mirror holds the game exactly");
        }
    }
    let report = verify_records(&mirror_store.all_records().unwrap());
    assert!(report.ok(), "{:?}", report.problems);
    assert_eq!(report.games.len(), 6);

    // The stream holds each record once: repeats after the publisher's
    // restart were dropped by Nats-Msg-Id.
    let node0 = cluster.url(0);
    let info = support::retry(
        "reading the stream's state",
        20,
        Duration::from_secs(90),
        || async {
            let client = kifu_nats::connect(&node0, "test")
                .await
                .map_err(|e| e.to_string())?;
            let js = async_nats::jetstream::new(client);
            let mut stream = js.get_stream("KIFU").await.map_err(|e| e.to_string())?;
            stream.info().await.cloned().map_err(|e| e.to_string())
        },
    )
    .await;
    assert_eq!(info.state.messages, total);
    assert_eq!(info.config.num_replicas, 3);

    // A consumer of one tournament sees exactly its games, verified.
    let config = ConsumerConfig {
        url: urls.clone(),
        stream: "KIFU".into(),
        filter: Filter::Tournament("Venue B Cup".into()),
        start: Start::FromStart,
    };
    let mut c = support::retry("connecting a consumer", 20, Duration::from_secs(90), || {
        FeedConsumer::connect(&config)
    })
    .await;
    let want = b.store.len() as u64;
    assert_eq!(c.pending_at_start(), want);
    let mut seen = 0u64;
    while seen < want {
        let d = tokio::time::timeout(Duration::from_secs(20), c.next())
            .await
            .expect("records arrive")
            .unwrap();
        assert!(b.games.iter().any(|g| g.game == d.game));
        seen += 1;
    }

    let _ = mirror_stop.send(());
    mirror.await.unwrap().unwrap();
    for v in [&mut a, &mut b] {
        let (tx, h) = v.publisher.take().unwrap();
        let _ = tx.send(());
        h.await.unwrap();
    }
}

type Running = (
    oneshot::Sender<()>,
    JoinHandle<Result<(), kifu_nats::NatsError>>,
);

fn start_mirror(store: &Arc<Store>, status: &Arc<MirrorStatus>, urls: &str) -> Running {
    let (tx, rx) = oneshot::channel::<()>();
    let store = store.clone();
    let status = status.clone();
    let cfg = MirrorConfig::new(urls);
    let h = tokio::spawn(async move {
        run_mirror(store, cfg, status, async {
            let _ = rx.await;
        })
        .await
    });
    (tx, h)
}

fn clone_venue(v: &Venue) -> Venue {
    Venue {
        dir: v.dir.clone(),
        store: v.store.clone(),
        games: v
            .games
            .iter()
            .map(|g| ChainBuilder {
                game: g.game,
                head: g.head,
                records: g.records.clone(),
                at_ms: g.at_ms,
            })
            .collect(),
        publisher: None,
        status: v.status.clone(),
    }
}

/// NATS entirely away: appends go on; once it is back everything is
/// published, in order, nothing skipped and nothing twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn appends_go_on_while_nats_is_down_and_are_published_when_it_is_back() {
    let _one = ONE_CLUSTER_AT_A_TIME.lock().await;
    let Some(bin) = support::nats_server("nats down test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut server = support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = server.url(0);
    let cast = Cast::new();
    let mut v = venue(t.path().join("venue"), &cast, "Offline Cup", 2);
    let mut cfg = PublisherConfig::new(url.clone());
    cfg.retry_after = Duration::from_millis(200);
    let (tx, rx) = oneshot::channel::<()>();
    let (store, status) = (v.store.clone(), v.status.clone());
    let h = tokio::spawn(async move {
        run_publisher_with_status(store, cfg, status, async {
            let _ = rx.await;
        })
        .await
    });
    play(&mut v, &cast, 10).await;
    wait_until("first publications", Duration::from_secs(60), || {
        v.status.next_cursor.load(Ordering::Relaxed) == v.store.len() as u64
    })
    .await;

    server.kill(0);
    let before = v.status.next_cursor.load(Ordering::Relaxed);
    play(&mut v, &cast, 30).await;
    assert_eq!(v.store.len() as u64, before + 60, "appends went on");
    wait_until(
        "the publisher to report the failure",
        Duration::from_secs(30),
        || v.status.failures.now().is_some(),
    )
    .await;
    assert_eq!(v.status.next_cursor.load(Ordering::Relaxed), before);
    // A mirror started while NATS is away says so, and keeps trying.
    let mirror_store = Arc::new(Store::open(&t.path().join("archive")).unwrap());
    let mirror_status = Arc::new(MirrorStatus::default());
    let (mirror_stop, mirror) = start_mirror(&mirror_store, &mirror_status, &url);
    wait_until(
        "the mirror to report the failure",
        Duration::from_secs(30),
        || mirror_status.failures.now().is_some(),
    )
    .await;
    assert_eq!(mirror_store.len(), 0);

    server.restart(0);
    wait_until(
        "publication after NATS is back",
        Duration::from_secs(60),
        || v.status.next_cursor.load(Ordering::Relaxed) == v.store.len() as u64,
    )
    .await;
    wait_until(
        "the mirror to hold everything",
        Duration::from_secs(60),
        || mirror_store.len() == v.store.len(),
    )
    .await;
    assert!(mirror_status.failures.count() >= 1);
    // The failure is cleared once a batch is stored. A history read that
    // timed out while the last batch was being imported is counted as a
    // failure of its own, and cleared when that batch's import completes:
    // the store can hold everything a moment before that.
    wait_until(
        "the mirror's failure to be cleared once a batch is stored",
        Duration::from_secs(30),
        || mirror_status.failures.now().is_none(),
    )
    .await;
    for g in &v.games {
        assert_eq!(mirror_store.read(&g.game, 0, None).unwrap(), g.records);
    }
    let _ = mirror_stop.send(());
    mirror.await.unwrap().unwrap();

    // The stream reads back as the store's chains, each record once.
    let config = ConsumerConfig {
        url,
        stream: "KIFU".into(),
        filter: Filter::All,
        start: Start::FromStart,
    };
    let mut c = support::retry("connecting a consumer", 20, Duration::from_secs(90), || {
        FeedConsumer::connect(&config)
    })
    .await;
    assert_eq!(c.pending_at_start(), v.store.len() as u64);
    let mut per_game: std::collections::HashMap<kifu_ledger::Hash, Vec<kifu_ledger::Record>> =
        Default::default();
    while let Some(d) = tokio::time::timeout(Duration::from_secs(20), c.next_until_caught_up())
        .await
        .expect("records arrive")
        .unwrap()
    {
        per_game.entry(d.game).or_default().push(d.record);
    }
    for g in &v.games {
        assert_eq!(per_game.get(&g.game), Some(&g.records));
    }
    let _ = tx.send(());
    h.await.unwrap().unwrap();
}

/// A game's history is read from the stream's leader, message by message
/// on the game's subjects (no consumer): exactly the game's records before
/// the given stream sequence, in chain order, with games interleaved in the
/// stream; each retry is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_games_history_is_read_without_a_consumer() {
    let _one = ONE_CLUSTER_AT_A_TIME.lock().await;
    let Some(bin) = support::nats_server("history test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let server = support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = server.url(0);
    let cast = Cast::new();
    let mut v = venue(t.path().join("venue"), &cast, "History Cup", 3);
    let (tx, rx) = oneshot::channel::<()>();
    let (store, status) = (v.store.clone(), v.status.clone());
    let h = tokio::spawn(run_publisher_with_status(
        store,
        PublisherConfig::new(url.clone()),
        status,
        async {
            let _ = rx.await;
        },
    ));
    play(&mut v, &cast, 12).await;
    wait_until("publication", Duration::from_secs(60), || {
        v.status.next_cursor.load(Ordering::Relaxed) == v.store.len() as u64
    })
    .await;
    let client = kifu_nats::connect(&url, "test").await.unwrap();
    let js = async_nats::jetstream::new(client);
    let stream = js.get_stream("KIFU").await.unwrap();
    let retries = std::sync::atomic::AtomicU32::new(0);
    let told = |_: &kifu_nats::Retry<'_>| {
        retries.fetch_add(1, Ordering::Relaxed);
    };
    let total = v.store.len() as u64;
    for g in &v.games {
        // Everything of the game.
        let all = kifu_nats::consumer::game_history(&stream, &g.game, total + 1, &told)
            .await
            .unwrap();
        let records: Vec<_> = all.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(records, g.records);
        assert!(all.windows(2).all(|w| w[0].0 < w[1].0));
        // Only what comes before a stream sequence in the middle of it.
        let cut = all[6].0;
        let before = kifu_nats::consumer::game_history(&stream, &g.game, cut, &told)
            .await
            .unwrap();
        assert_eq!(before.len(), 6);
        assert_eq!(before, all[..6].to_vec());
    }
    assert_eq!(retries.load(Ordering::Relaxed), 0);
    let _ = tx.send(());
    h.await.unwrap().unwrap();
}

/// A reader whose consumer's node is SIGKILLed mid-read goes on: its pulls
/// fail, each failure is told, and a fresh consumer takes over after the
/// last record it read; every record is read once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reader_whose_consumer_node_is_lost_goes_on_after_the_last_record_it_read() {
    let _one = ONE_CLUSTER_AT_A_TIME.lock().await;
    let Some(bin) = support::nats_server("lost consumer node test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut cluster = support::Cluster::start(&bin, &t.path().join("nats"), 3);
    let urls = cluster.urls();
    let cast = Cast::new();
    let mut v = venue(t.path().join("venue"), &cast, "Lost Node Cup", 3);
    start_publisher(&mut v, &urls);
    // More than one pull's worth (256), so that reading needs the consumer
    // after its node is gone.
    play(&mut v, &cast, 200).await;
    let total = v.store.len() as u64;
    wait_until("publication", Duration::from_secs(120), || {
        v.status.next_cursor.load(Ordering::Relaxed) == total
    })
    .await;
    let config = ConsumerConfig {
        url: urls.clone(),
        stream: "KIFU".into(),
        filter: Filter::All,
        start: Start::FromStart,
    };
    let told = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = told.clone();
    let mut c = FeedConsumer::connect_reporting(
        &config,
        Arc::new(move |r: &kifu_nats::Retry<'_>| sink.lock().unwrap().push(r.to_string())),
    )
    .await
    .unwrap();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..10 {
        let d = c.next_until_caught_up().await.unwrap().unwrap();
        assert!(seen.insert(d.record.hash()));
    }
    let mut node = None;
    for _ in 0..20 {
        match tokio::time::timeout(Duration::from_secs(10), c.placement()).await {
            Ok(Ok(Some(n))) => {
                node = Some(n);
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
    let node = node.expect("a consumer of a cluster has a leader");
    let i: usize = node.trim_start_matches('n').parse().unwrap();
    cluster.kill(i);
    let deadline = Instant::now() + Duration::from_secs(150);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let next = tokio::time::timeout(left, c.next_until_caught_up())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "read {} of {total} after losing {node}; told: {:?}",
                    seen.len(),
                    told.lock().unwrap()
                )
            })
            .unwrap();
        match next {
            Some(d) => assert!(seen.insert(d.record.hash()), "read twice"),
            None => break,
        }
    }
    assert_eq!(seen.len() as u64, total, "told: {:?}", told.lock().unwrap());
    assert!(
        !told.lock().unwrap().is_empty(),
        "the lost node was noticed and told"
    );
    let (tx, h) = v.publisher.take().unwrap();
    let _ = tx.send(());
    let _ = tokio::time::timeout(Duration::from_secs(30), h).await;
}

/// Woken by the writer (as `kifu serve` wakes it, with the signal its feed
/// follows): a record made durable is published at once, not at the next
/// poll, here one every 30 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_woken_publisher_publishes_at_once_not_at_its_next_poll() {
    let _one = ONE_CLUSTER_AT_A_TIME.lock().await;
    let Some(bin) = support::nats_server("wake test") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let server = support::Cluster::start(&bin, &t.path().join("nats"), 1);
    let url = server.url(0);
    let cast = Cast::new();
    let mut v = venue(t.path().join("venue"), &cast, "Wake Cup", 2);
    let (wake_tx, wake_rx) = tokio::sync::watch::channel(v.store.durable_cursor());
    let mut cfg = PublisherConfig::new(url.clone());
    cfg.idle_poll = Duration::from_secs(30);
    cfg.wake = Some(wake_rx);
    let (tx, rx) = oneshot::channel::<()>();
    let (store, status) = (v.store.clone(), v.status.clone());
    let h = tokio::spawn(run_publisher_with_status(store, cfg, status, async {
        let _ = rx.await;
    }));
    // The geneses go on the publisher's first look.
    wait_until("the geneses", Duration::from_secs(60), || {
        v.status.next_cursor.load(Ordering::Relaxed) == v.store.len() as u64
    })
    .await;
    // Now idle, waiting on the signal or its 30 s poll: one record each
    // made durable, and the writer's word.
    tokio::time::sleep(Duration::from_millis(300)).await;
    play(&mut v, &cast, 1).await;
    wake_tx.send(v.store.durable_cursor()).unwrap();
    wait_until("the woken publication", Duration::from_secs(10), || {
        v.status.next_cursor.load(Ordering::Relaxed) == v.store.len() as u64
    })
    .await;
    let _ = tx.send(());
    h.await.unwrap().unwrap();
}
