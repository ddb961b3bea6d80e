//! Staged appends (`staged.rs`): the batch writer's records are found by
//! every read while staged, after a settle, after reopening, and in a
//! read-only copy; settles merge with what a window holds; retries of a
//! staged record are recognised.

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Hash, Record};
use kifu_store::Store;

mod common;
use common::{check_reads, reopen};

fn press(c: &mut ChainBuilder, cast: &Cast, i: usize) -> Record {
    let player = if i.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    c.push(&cast.recorder, Body::ClockPressed { player })
        .clone()
}

/// Everything a reader can ask of the store about `games`.
#[derive(Debug, PartialEq)]
struct View {
    games: Vec<Hash>,
    heads: Vec<Option<kifu_ledger::Head>>,
    whole: Vec<Vec<Record>>,
    middles: Vec<Vec<Record>>,
    each: Vec<Vec<(Option<Record>, u64)>>,
    all: Vec<Record>,
    feed: Vec<(u64, Hash, u64, Record)>,
    feed_from_middle: Vec<u64>,
    len: usize,
}

fn view(s: &Store, games: &[Hash]) -> View {
    let each = games
        .iter()
        .map(|g| {
            let head = s.head(g).unwrap().map_or(0, |h| h.seq);
            (0..=head + 1)
                .map(|seq| {
                    let r = s.get(g, seq).unwrap();
                    let c = if r.is_some() {
                        s.cursor_of(g, seq).unwrap()
                    } else {
                        u64::MAX
                    };
                    (r, c)
                })
                .collect()
        })
        .collect();
    View {
        games: s.games().unwrap(),
        heads: games.iter().map(|g| s.head(g).unwrap()).collect(),
        whole: games.iter().map(|g| s.read(g, 0, None).unwrap()).collect(),
        middles: games
            .iter()
            .map(|g| s.read(g, 5, Some(37)).unwrap())
            .collect(),
        each,
        all: s.all_records().unwrap(),
        feed: s
            .feed(None, usize::MAX)
            .unwrap()
            .into_iter()
            .map(|f| (f.cursor, f.game, f.seq, f.record))
            .collect(),
        feed_from_middle: s
            .feed(Some(17), 40)
            .unwrap()
            .into_iter()
            .map(|f| f.cursor)
            .collect(),
        len: s.len(),
    }
}

/// Four games: two with records written by single appends first (so the
/// settle meets windows that already hold records), two begun in batches;
/// then batches mixing records of all four.
fn staged_store(dir: &std::path::Path) -> (Store, Vec<ChainBuilder>) {
    let store = Store::open(dir).unwrap();
    let cast = Cast::new();
    let mut chains: Vec<ChainBuilder> = (0..4)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("board {i}")), 0))
        .collect();
    for c in chains.iter_mut().take(2) {
        store.append(c.records[0].clone()).unwrap();
        for i in 0..7 {
            let r = press(c, &cast, i);
            store.append(r).unwrap();
        }
    }
    let first: Vec<Record> = chains[2..].iter().map(|c| c.records[0].clone()).collect();
    let out = store.append_each(first);
    assert!(out.results.iter().all(|r| r.as_ref().unwrap().new));
    for round in 0..40 {
        let mut batch = Vec::new();
        for (k, c) in chains.iter_mut().enumerate() {
            // Uneven: some games get several records a batch.
            for _ in 0..=(round + k) % 3 {
                batch.push(press(c, &cast, round));
            }
        }
        let out = store.append_each(batch);
        assert!(out.results.iter().all(|r| r.as_ref().unwrap().new));
    }
    (store, chains)
}

#[test]
fn every_read_agrees_staged_settled_reopened_and_copied() {
    let dir = tempfile::tempdir().unwrap();
    let (store, chains) = staged_store(dir.path());
    let games: Vec<Hash> = chains.iter().map(|c| c.game).collect();
    assert!(store.staged_records() > 200, "the batches are staged");
    let staged = view(&store, &games);
    // What the chains hold, read back in order.
    for (c, got) in chains.iter().zip(&staged.whole) {
        assert_eq!(got, &c.records);
    }
    assert_eq!(
        staged.len,
        chains.iter().map(|c| c.records.len()).sum::<usize>()
    );
    assert_eq!(staged.feed.len(), staged.len);
    assert!(staged.feed.iter().enumerate().all(|(i, f)| f.0 == i as u64));
    assert!(kifu_ledger::verify_records(&staged.all).ok());

    // Left staged on disk: a read-only copy reads them as staged.
    drop(store);
    let tmp = tempfile::tempdir().unwrap();
    let (copy, _) = Store::open_copy(dir.path(), tmp.path()).unwrap();
    assert!(copy.staged_records() > 200);
    assert_eq!(view(&copy, &games), staged);
    drop(copy);

    // Opening for writing settles them.
    let store = reopen(dir.path());
    assert_eq!(store.staged_records(), 0);
    assert_eq!(view(&store, &games), staged);
    let usage = store.usage().unwrap();
    let tree = |n: &str| usage.trees.iter().find(|t| t.name == n).map(|t| t.keys);
    assert_eq!(tree("staged"), Some(0), "no staged value is left");
    // Settled into runs: far fewer keys than records.
    let events = tree("events").unwrap();
    assert!(
        (events as usize) * 4 < staged.len,
        "{events} keys for {} records",
        staged.len
    );
    drop(store);
    assert_eq!(view(&reopen(dir.path()), &games), staged);
}

#[test]
fn an_explicit_settle_changes_no_read() {
    let dir = tempfile::tempdir().unwrap();
    let (store, chains) = staged_store(dir.path());
    let games: Vec<Hash> = chains.iter().map(|c| c.game).collect();
    let before = view(&store, &games);
    store.settle().unwrap();
    assert_eq!(store.staged_records(), 0);
    assert_eq!(view(&store, &games), before);
}

#[test]
fn the_writer_settles_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    store.set_settle_at(50);
    let cast = Cast::new();
    let mut chains: Vec<ChainBuilder> = (0..3)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("g{i}")), 0))
        .collect();
    store.append_each(chains.iter().map(|c| c.records[0].clone()).collect());
    let mut peak = 0;
    for round in 0..100 {
        let batch: Vec<Record> = chains.iter_mut().map(|c| press(c, &cast, round)).collect();
        assert!(store.append_each(batch).results.iter().all(|r| r.is_ok()));
        peak = peak.max(store.staged_records());
    }
    assert!(peak < 50, "settled at 50 staged records (peak {peak})");
    for c in &chains {
        assert_eq!(store.read(&c.game, 0, None).unwrap(), c.records);
    }
    assert!(kifu_ledger::verify_records(&store.all_records().unwrap()).ok());
}

#[test]
fn a_single_append_after_staged_records_merges_into_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("merge"), 0);
    store.append(c.records[0].clone()).unwrap();
    for i in 0..3 {
        store.append(press(&mut c, &cast, i)).unwrap();
    }
    let batch: Vec<Record> = (3..10).map(|i| press(&mut c, &cast, i)).collect();
    store.append_each(batch);
    assert_eq!(store.staged_records(), 7);
    // The single append settles first: one window, one run.
    let last = press(&mut c, &cast, 10);
    let a = store.append(last).unwrap();
    assert_eq!(a.seq, 11);
    assert_eq!(store.staged_records(), 0);
    assert_eq!(store.read(&c.game, 0, None).unwrap(), c.records);
    let usage = store.usage().unwrap();
    let events = usage.trees.iter().find(|t| t.name == "events").unwrap();
    // Seqs 0 to 10 in the run of window 0, seq 11 on its own.
    assert_eq!(events.keys, 2);
    for seq in 0..=11 {
        assert_eq!(store.cursor_of(&c.game, seq).unwrap(), seq);
    }
}

#[test]
fn a_retried_staged_record_is_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("retry"), 0);
    store.append_each(vec![c.records[0].clone()]);
    let r = press(&mut c, &cast, 0);
    let first = store.append_each(vec![r.clone()]);
    let first = *first.results[0].as_ref().unwrap();
    assert!(first.new);
    assert!(store.staged_records() > 0);
    let again = store.append_each(vec![r]);
    let again = again.results[0].as_ref().unwrap();
    assert!(!again.new);
    assert_eq!((again.seq, again.cursor), (first.seq, first.cursor));
    // A different record at the same place is a conflict.
    let mut other = ChainBuilder::start(&cast.referee, cast.genesis("retry"), 0);
    assert_eq!(other.game, c.game);
    let conflicting = other.push(
        &cast.recorder,
        Body::ClockPressed {
            player: Color::White,
        },
    );
    let out = store.append_each(vec![conflicting.clone()]);
    assert!(out.results[0].is_err());
    assert_eq!(store.head(&c.game).unwrap(), Some(c.head));
}

/// The child of [`acknowledged_staged_records_survive_sigkill`]: appends
/// batches to six games through the batch writer's path, settling every 97
/// staged records, and prints `acked GAME SEQ HASH` for each record once
/// its batch is durable, until it is killed.
#[test]
fn staged_crash_child() {
    let Some(dir) = std::env::var_os("KIFU_STAGED_CRASH_CHILD") else {
        return;
    };
    let cast = Cast::new();
    let store = Store::open(std::path::Path::new(&dir)).unwrap();
    store.set_settle_at(97);
    let mut chains: Vec<ChainBuilder> = Vec::new();
    let mut geneses = Vec::new();
    for i in 0..6 {
        let fresh = ChainBuilder::start(&cast.referee, cast.genesis(&format!("crash {i}")), 0);
        match store.head(&fresh.game).unwrap() {
            Some(head) => chains.push(ChainBuilder {
                game: fresh.game,
                head,
                records: store.read(&fresh.game, 0, None).unwrap(),
                at_ms: head.seq * 1000,
            }),
            None => {
                geneses.push(fresh.records[0].clone());
                chains.push(fresh);
            }
        }
    }
    if !geneses.is_empty() {
        assert!(store.append_each(geneses).results.iter().all(|r| r.is_ok()));
    }
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for round in 0.. {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut batch = Vec::new();
        for (k, c) in chains.iter_mut().enumerate() {
            for _ in 0..(x >> (k * 3)) % 4 {
                batch.push(press(c, &cast, round));
            }
        }
        let out = store.append_each(batch);
        let mut lines = String::new();
        for r in &out.results {
            let a = r.as_ref().unwrap();
            lines.push_str(&format!(
                "acked {} {} {}\n",
                hex::encode(a.game),
                a.seq,
                hex::encode(a.hash)
            ));
        }
        use std::io::Write;
        let mut so = std::io::stdout().lock();
        so.write_all(lines.as_bytes()).unwrap();
        so.flush().unwrap();
    }
}

/// A writer staging batches and settling them is killed with SIGKILL at
/// eight moments: each time the store reopens (settling what was staged),
/// verifies, and holds every record whose batch was acknowledged.
#[test]
fn acknowledged_staged_records_survive_sigkill() {
    use std::io::{BufRead, BufReader};
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut total = 0;
    for round in 0..8 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let delay = std::time::Duration::from_millis(150 + x % 400);
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "staged_crash_child",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("KIFU_STAGED_CRASH_CHILD", &data)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut acked = Vec::new();
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let Some(i) = line.find("acked ") else {
                    continue;
                };
                let parts: Vec<String> = line[i..].split_whitespace().map(str::to_string).collect();
                if parts.len() == 4 && parts[3].len() == 64 {
                    acked.push((
                        parts[1].clone(),
                        parts[2].parse::<u64>().unwrap(),
                        parts[3].clone(),
                    ));
                }
            }
            acked
        });
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let acked = reader.join().unwrap();
        total += acked.len();
        let store = reopen(&data);
        assert_eq!(
            store.staged_records(),
            0,
            "round {round}: settled on opening"
        );
        let report = kifu_ledger::verify_records(&store.all_records().unwrap());
        assert!(report.ok(), "round {round}: {:?}", report.problems);
        for (game, seq, hash) in &acked {
            let game: Hash = hex::decode(game).unwrap().try_into().unwrap();
            let r = store
                .get(&game, *seq)
                .unwrap()
                .unwrap_or_else(|| panic!("round {round}: acknowledged seq {seq} lost"));
            assert_eq!(&hex::encode(r.hash()), hash, "round {round}: seq {seq}");
        }
        assert_eq!(store.feed(None, usize::MAX).unwrap().len(), store.len());
    }
    assert!(total > 500, "the child acknowledged records ({total})");
    eprintln!("8 kills, {total} acknowledged staged records, none lost");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// A game written in parts, each by single appends, the batch writer
    /// (staged, beside a second game's records) or an import, with settles
    /// at any threshold and reopenings between parts, reads record by record
    /// as it was built, after every part.
    #[test]
    fn any_mix_of_staged_single_and_imported_parts_reads_the_same(
        moves in 20u16..120,
        parts in proptest::collection::vec((0u8..3, 1usize..40, 0u8..4), 1..8),
        settle_at in 1usize..80,
    ) {
        let cast = Cast::new();
        let g = kifu_ledger::testkit::moves_game(&cast, "mix", moves);
        let mut other = ChainBuilder::start(&cast.referee, cast.genesis("beside"), 0);
        let d = tempfile::tempdir().unwrap();
        let mut s = Store::open(d.path()).unwrap();
        s.set_settle_at(settle_at);
        s.append_each(vec![other.records[0].clone()]);
        let n = g.records.len();
        let mut done = 0;
        for (k, (how, len, then)) in parts.iter().enumerate() {
            if done == n {
                break;
            }
            let part = &g.records[done..(done + len).min(n)];
            match how {
                0 => {
                    s.append_batch(part.to_vec()).unwrap();
                }
                1 => {
                    let mut batch = part.to_vec();
                    batch.insert(batch.len() / 2, press(&mut other, &cast, k));
                    let out = s.append_each(batch);
                    proptest::prop_assert!(out.results.iter().all(|r| r.is_ok()), "{:?}", out.results);
                }
                _ => {
                    let bytes = kifu_ledger::archive::write(&g.records[..done + part.len()]);
                    let v = kifu_ledger::archive::verify_archive_unsigned(&bytes).unwrap();
                    s.import_checking(&v, &mut |_, _| {}).unwrap();
                }
            }
            done += part.len();
            match then {
                0 => s.settle().unwrap(),
                1 => {
                    drop(s);
                    s = reopen(d.path());
                    s.set_settle_at(settle_at);
                }
                _ => {}
            }
            check_reads(&s, &g.game, &g.records[..done]);
            check_reads(&s, &other.game, &other.records);
            proptest::prop_assert!(s.games().unwrap().contains(&g.game), "part {k}");
        }
        proptest::prop_assert!(kifu_ledger::verify_records(&s.all_records().unwrap()).ok());
    }
}
