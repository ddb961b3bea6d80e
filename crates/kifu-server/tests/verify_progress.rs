//! The store's verification tells how far it has gone after each run of
//! games, ends with the very report of the plain verification, and stops
//! when its reader goes away.

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{Body, Color};
use kifu_server::whole::{self, VerifyProgress};
use kifu_store::Store;

/// Seven games of 1,500 clock presses: runs of three games at a time.
fn filled(dir: &std::path::Path) -> (Store, u64) {
    let store = Store::open(dir).unwrap();
    let cast = Cast::new();
    let mut total = 0;
    for i in 0..7 {
        let mut c = ChainBuilder::start(&cast.referee, cast.genesis(&format!("board {i}")), 0);
        for j in 0..1_500 {
            let player = if j % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            c.push(&cast.recorder, Body::ClockPressed { player });
        }
        total += c.records.len() as u64;
        store.append_batch(c.records.clone()).unwrap();
    }
    (store, total)
}

#[test]
fn progress_is_told_after_each_run_and_the_report_is_the_whole_one() {
    let dir = tempfile::tempdir().unwrap();
    let (store, total) = filled(dir.path());
    let mut seen: Vec<VerifyProgress> = Vec::new();
    let report = whole::verify_store_showing(&store, &mut |p| {
        seen.push(p);
        true
    })
    .unwrap()
    .expect("not stopped");
    assert_eq!(report, whole::verify_store(&store).unwrap());
    assert!(report.ok());
    assert!(seen.len() >= 3, "{seen:?}");
    assert!(seen.iter().all(|p| p.games == 7));
    assert!(seen
        .windows(2)
        .all(|w| w[0].games_done <= w[1].games_done && w[0].records_done < w[1].records_done));
    let last = seen.last().unwrap();
    assert_eq!((last.games_done, last.records_done), (7, total));
    // The first run is told before the last game is read.
    assert!(seen[0].games_done < 7 && seen[0].records_done >= whole::CHUNK_RECORDS as u64);
}

#[test]
fn the_verification_stops_when_its_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = filled(dir.path());
    let mut told = 0;
    let r = whole::verify_store_showing(&store, &mut |_| {
        told += 1;
        false
    })
    .unwrap();
    assert!(r.is_none());
    assert_eq!(told, 1);
}
