//! An import keeps a game's records in runs (several records under one
//! key, `layout.rs`): every read of the store gives what one value per
//! record gave, and appends after the import go on from the run's end.

use kifu_ledger::archive::{self, verify_archive, verify_archive_unsigned};
use kifu_ledger::testkit::{moves_game, sample_game, Cast};
use kifu_ledger::{Body, Color, Record};
use kifu_store::{Expect, Store, RUN};

mod common;
use common::check_reads;

#[test]
fn an_imported_game_in_runs_reads_as_record_by_record() {
    let cast = Cast::new();
    let long = moves_game(&cast, "runs", 60);
    let short = sample_game(&cast, "short");
    assert!(long.records.len() as u64 > 3 * RUN);
    let mut all = long.records.clone();
    all.extend(short.records.iter().cloned());
    let bytes = archive::write(&all);
    let d = tempfile::tempdir().unwrap();
    let s = Store::open(d.path()).unwrap();
    s.import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {})
        .unwrap();
    check_reads(&s, &long.game, &long.records);
    check_reads(&s, &short.game, &short.records);
    // Far fewer keys than records: the import wrote runs.
    let usage = s.usage().unwrap();
    let events = usage.trees.iter().find(|t| t.name == "events").unwrap();
    let per_run = all.len() as u64 / events.keys;
    assert!(
        per_run >= 8,
        "{} keys for {} records",
        events.keys,
        all.len()
    );
    // The feed walks every record once, in cursor order.
    let feed = s.feed(None, usize::MAX).unwrap();
    assert_eq!(feed.len(), all.len());
    assert!(feed.windows(2).all(|w| w[0].cursor + 1 == w[1].cursor));
    // Read again after reopening.
    drop(s);
    let s = Store::open(d.path()).unwrap();
    check_reads(&s, &long.game, &long.records);
    assert!(kifu_ledger::verify_records(&s.records_for_verification().unwrap()).ok());
}

#[test]
fn appends_after_an_import_go_on_from_the_runs_end() {
    let cast = Cast::new();
    let mut long = moves_game(&cast, "go on", 40);
    let bytes = archive::write(&long.records);
    let d = tempfile::tempdir().unwrap();
    let s = Store::open(d.path()).unwrap();
    s.import(&verify_archive(&bytes).unwrap(), &mut |_, _| {})
        .unwrap();
    let n = long.records.len() as u64;
    assert_ne!(n % RUN, 0, "the last run ends inside its window");
    // A record already in a run, sent again, is recognised, not rewritten.
    let again = s.append(long.records[(n - 2) as usize].clone()).unwrap();
    assert_eq!((again.seq, again.cursor, again.new), (n - 2, n - 2, false));
    // One by one, then a batch, then through the batch writer.
    let b = long
        .push(
            &cast.white,
            Body::ClockPressed {
                player: Color::White,
            },
        )
        .clone();
    let a = s.append(b).unwrap();
    assert_eq!((a.seq, a.cursor, a.new), (n, n, true));
    let more: Vec<Record> = (0..3)
        .map(|i| {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let key = if color == Color::Black {
                &cast.black
            } else {
                &cast.white
            };
            long.push(key, Body::ClockPressed { player: color }).clone()
        })
        .collect();
    s.append_batch(more).unwrap();
    let last = long
        .push(
            &cast.black,
            Body::ClockPressed {
                player: Color::Black,
            },
        )
        .clone();
    let each = s.append_each(vec![last]);
    assert_eq!(each.written, 1);
    assert!(each.results.iter().all(|o| o.is_ok()), "{:?}", each.results);
    check_reads(&s, &long.game, &long.records);
    // The head seen by a client is the last record, and a retry by hash of
    // a record inside a run finds its place.
    let inside = long.records[5].hash();
    let r = s.append_expecting(
        &long.game,
        Expect::After(inside),
        &cast.black,
        1,
        Body::ClockPressed {
            player: Color::Black,
        },
    );
    assert!(
        matches!(
            r,
            Err(kifu_store::StoreError::Stale {
                expected_seq: 6,
                ..
            })
        ),
        "{r:?}"
    );
}

#[test]
fn an_import_that_extends_a_stored_game_begins_its_runs_at_the_next_window() {
    let cast = Cast::new();
    let long = moves_game(&cast, "extend", 50);
    let d = tempfile::tempdir().unwrap();
    let s = Store::open(d.path()).unwrap();
    // The first records appended one by one, ending inside a window.
    let first = (RUN + 7) as usize;
    s.append_batch(long.records[..first].to_vec()).unwrap();
    let bytes = archive::write(&long.records);
    let report = s
        .import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {})
        .unwrap();
    assert_eq!(report.written as usize, long.records.len() - first);
    assert_eq!(report.already_present as usize, first);
    check_reads(&s, &long.game, &long.records);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// A game stored in any two parts, the first appended and the rest
    /// imported (runs from the next window on), then appended to through
    /// the server's writer, reads record by record as the archive holds it.
    #[test]
    fn any_split_between_appends_and_an_import_reads_the_same(
        moves in 1u16..90,
        stored_per_mille in 0usize..1000,
        tail in 0usize..4,
    ) {
        let cast = Cast::new();
        let mut g = moves_game(&cast, "split", moves);
        let n = g.records.len();
        let stored = n * stored_per_mille / 1000;
        let d = tempfile::tempdir().unwrap();
        let s = Store::open(d.path()).unwrap();
        if stored > 0 {
            s.append_batch(g.records[..stored].to_vec()).unwrap();
        }
        let bytes = archive::write(&g.records);
        let report = s
            .import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {})
            .unwrap();
        proptest::prop_assert_eq!(report.written as usize, n - stored);
        for i in 0..tail {
            let (color, key) = if i % 2 == 0 {
                (Color::Black, &cast.black)
            } else {
                (Color::White, &cast.white)
            };
            let r = g.push(key, Body::ClockPressed { player: color }).clone();
            let each = s.append_each(vec![r]);
            proptest::prop_assert!(each.results[0].is_ok(), "{:?}", each.results);
        }
        check_reads(&s, &g.game, &g.records);
    }
}
