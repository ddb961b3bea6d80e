//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

use kifu_ledger::Record;
use kifu_store::{Store, RUN};

/// Reopens a store just dropped: sled's flusher thread may hold its lock for
/// a moment after the handle is gone.
pub fn reopen(dir: &std::path::Path) -> Store {
    for _ in 0..200 {
        if let Ok(s) = Store::open(dir) {
            return s;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Store::open(dir).unwrap()
}

/// Every way a reader reaches a game's records gives `records`.
pub fn check_reads(s: &Store, game: &[u8; 32], records: &[Record]) {
    let n = records.len() as u64;
    assert_eq!(s.read(game, 0, None).unwrap(), records);
    let head = s.head(game).unwrap().unwrap();
    assert_eq!(
        (head.seq, head.hash),
        (n - 1, records.last().unwrap().hash())
    );
    for (i, r) in records.iter().enumerate() {
        assert_eq!(s.get(game, i as u64).unwrap().as_ref(), Some(r), "seq {i}");
    }
    assert_eq!(s.get(game, n).unwrap(), None);
    // Ranges that begin and end inside runs, at their edges, and across.
    for from in [0, 1, RUN - 1, RUN, RUN + 1, 2 * RUN + 5, n - 1] {
        for to in [from, from + 1, RUN, 2 * RUN - 1, 3 * RUN + 2, n + 3] {
            if to < from {
                continue;
            }
            let want: Vec<Record> = records
                .iter()
                .skip(from as usize)
                .take((to - from + 1) as usize)
                .cloned()
                .collect();
            assert_eq!(s.read(game, from, Some(to)).unwrap(), want, "{from}..={to}");
        }
    }
    // Each record's cursor is the feed's.
    let feed = s.feed(None, usize::MAX).unwrap();
    for f in feed.iter().filter(|f| &f.game == game) {
        assert_eq!(s.cursor_of(game, f.seq).unwrap(), f.cursor);
        assert_eq!(&f.record, &records[f.seq as usize]);
    }
}
