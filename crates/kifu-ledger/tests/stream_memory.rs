//! What the streaming verifier keeps of a game once its records are
//! verified: a few hundred bytes (its summary, boxed and trimmed), not its
//! records, board, clocks or projection. Measured in this process with a
//! counting global allocator over an archive of 1,200 games: the heap in
//! use after the last record, against the heap in use after the 200th
//! game, divided by the 1,000 games between: about 520 bytes a game, under
//! a bound of 768. A verifier that kept each game's records (about 4 KB a
//! game here), its projection, or its report untrimmed (1,090 bytes) fails.
//! The import's second reading (`Reread`) keeps nothing of a game it gave
//! back: its growth over the same 1,000 games stays within one batch.

use kifu_ledger::archive::{self, parse_head, HeadParse};
use kifu_ledger::stream::{Reread, StreamVerifier};
use kifu_ledger::testkit::{finished_game, Cast};
use kifu_ledger::Record;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// One measurement at a time: the allocator counts the whole process.
static MEASURING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    MEASURING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Games in the archive, and the game after which the first reading is
/// taken.
const GAMES: usize = 1_200;
const FIRST: usize = 200;
/// Records verified together.
const BATCH: usize = 512;
/// Bytes a verified game may keep.
const PER_GAME: usize = 768;

#[test]
fn a_verified_game_keeps_a_few_hundred_bytes() {
    let _alone = alone();
    let cast = Cast::new();
    let mut records = Vec::new();
    let mut heads = Vec::new();
    let mut ends = Vec::new();
    for g in 0..GAMES {
        let c = finished_game(&cast, &format!("memory {g}"), 8);
        heads.push((c.game, c.head));
        records.extend(c.records);
        ends.push(records.len());
    }
    let bytes = archive::write_with_manifest(&records, &heads, 0, Some(&cast.director)).unwrap();
    drop(records);
    let HeadParse::Done(head, used) = parse_head(&bytes).unwrap() else {
        panic!("the head is whole")
    };
    let mut v = StreamVerifier::with_batch(head, BATCH);
    let mut rest = &bytes[used..];
    let mut pushed = 0;
    let mut first = None;
    while !rest.is_empty() {
        let at = (bytes.len() - rest.len()) as u64;
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        let end = (bytes.len() - more.len()) as u64;
        v.push(r, at..end);
        rest = more;
        pushed += 1;
        if pushed == ends[FIRST - 1] {
            first = Some((ALLOC.current_usage(), v.held()));
        }
    }
    let (first, held_first) = first.unwrap();
    let last = ALLOC.current_usage();
    let held_last = v.held();
    // Records waiting may differ between the two readings (not here: the
    // batches fall alike); each costs about 300 bytes with its place in the
    // lists. And room for a hash map's growth.
    let slack = held_first.abs_diff(held_last) * 512 + (64 << 10);
    let bound = (GAMES - FIRST) * PER_GAME + slack;
    let grew = last.saturating_sub(first);
    assert!(
        grew <= bound,
        "{grew} bytes more after {} more games ({} a game; records held {held_first} then {held_last}), bound {bound}",
        GAMES - FIRST,
        grew / (GAMES - FIRST)
    );
    let (report, manifest) = v
        .finish(|_| -> Result<Vec<Record>, ()> { panic!("no game is split") })
        .unwrap();
    assert!(report.ok(), "{:?}", report.problems);
    assert_eq!(report.games.len(), GAMES);
    assert!(report.games.iter().all(|g| g.finished()));
    assert!(manifest.unwrap().signed);

    // The second reading of an import: it keeps nothing of a game it gave
    // back (the first reading's summaries shrink as games are given).
    let mut again = Reread::new(&report, BATCH).unwrap();
    let mut rest = &bytes[used..];
    let mut pushed = 0;
    let mut given = 0;
    let mut first = None;
    while !rest.is_empty() {
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        if let Some(verdict) = again.push(r).unwrap() {
            given += verdict.records().len();
        }
        rest = more;
        pushed += 1;
        if pushed == ends[FIRST - 1] {
            first = Some(ALLOC.current_usage());
        }
    }
    // Up to a batch of whole games' records wait to be given back.
    let grew = ALLOC.current_usage().saturating_sub(first.unwrap());
    assert!(
        grew <= BATCH * 512 + (64 << 10),
        "the second reading grew by {grew} bytes over {} games",
        GAMES - FIRST
    );
    given += again.finish().unwrap().map_or(0, |v| v.records().len());
    assert_eq!(given, ends[GAMES - 1]);
}

/// A damaged file: records whose envelope does not decode are not kept,
/// only their hash, copies and failure. 300 distinct damaged records of
/// 64 KiB each (19 MB) leave well under a megabyte behind, and the verdict
/// names each once.
#[test]
fn damaged_records_are_not_kept() {
    let _alone = alone();
    let cast = Cast::new();
    let g = finished_game(&cast, "damaged", 4);
    let mut records = g.records.clone();
    for i in 0..300u32 {
        let mut event_bytes = vec![0xff; 64 << 10];
        event_bytes[..4].copy_from_slice(&i.to_le_bytes());
        records.push(Record {
            event_bytes,
            signature: [7; 64],
        });
    }
    // One of them twice.
    records.push(records[records.len() - 1].clone());
    let bytes = archive::write(&records);
    drop(records);
    let HeadParse::Done(head, used) = parse_head(&bytes).unwrap() else {
        panic!("the head is whole")
    };
    let before = ALLOC.current_usage();
    let mut v = StreamVerifier::with_batch(head, BATCH);
    let mut rest = &bytes[used..];
    while !rest.is_empty() {
        let at = (bytes.len() - rest.len()) as u64;
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        let end = (bytes.len() - more.len()) as u64;
        v.push(r, at..end);
        rest = more;
    }
    let grew = ALLOC.current_usage().saturating_sub(before);
    assert!(grew < 1 << 20, "{grew} bytes kept for 300 damaged records");
    let (report, _) = v
        .finish(|_| -> Result<Vec<Record>, ()> { panic!("no game is split") })
        .unwrap();
    assert_eq!(report.problems.len(), 300, "{:?}", &report.problems[..2]);
    assert_eq!(report.duplicates.len(), 1);
    assert_eq!(
        report,
        archive::verify_archive(&bytes).unwrap().report().clone()
    );
}
