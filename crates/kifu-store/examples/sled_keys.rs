//! What sled costs per key as a store grows: records of 190 bytes written in
//! commits of 1,000, flushed every ten commits, with seven keys a record in
//! one transaction over five trees (the layout before 3), and with one key
//! a record plus a few a commit (layout 3's shape). The figures behind
//! "sled's cost is per key" in `docs/PERFORMANCE.md`.
//!
//! `cargo run --release -p kifu-store --example sled_keys -- 330`
//! (the number of commits).

use std::time::Instant;

use sled::transaction::ConflictableTransactionError;
use sled::Transactional;

type TxResult = Result<(), ConflictableTransactionError<()>>;

fn main() {
    let commits: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(330);
    let per = 1000usize;
    let value = vec![7u8; 190];
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, keys_per_record) in [("seven keys a record", 7), ("one key a record", 1)] {
        let db = sled::open(dir.path().join(name)).expect("sled");
        let trees: Vec<sled::Tree> = ["e", "h", "f", "m", "t"]
            .iter()
            .map(|t| db.open_tree(t).expect("tree"))
            .collect();
        let t0 = Instant::now();
        let mut next = 0u64;
        for c in 0..commits {
            (&trees[0], &trees[1], &trees[2], &trees[3], &trees[4])
                .transaction(|(ev, hd, fd, mt, tl)| -> TxResult {
                    let mut places = Vec::new();
                    for i in 0..per as u64 {
                        let cursor = next + i;
                        let mut key = i.to_be_bytes().to_vec();
                        key.extend_from_slice(&(c as u64).to_be_bytes());
                        ev.insert(key.clone(), value.clone())?;
                        if keys_per_record == 7 {
                            hd.insert(&i.to_be_bytes()[..], &[1u8; 40][..])?;
                            fd.insert(&cursor.to_be_bytes()[..], key)?;
                            tl.insert(&cursor.to_be_bytes()[..], &[2u8; 32][..])?;
                            tl.insert(&(cursor | 1 << 63).to_be_bytes()[..], &[2u8; 32][..])?;
                            tl.insert(b"size", &cursor.to_be_bytes()[..])?;
                            mt.insert(b"next", &cursor.to_be_bytes()[..])?;
                        } else {
                            places.extend_from_slice(&key);
                        }
                    }
                    if keys_per_record == 1 {
                        fd.insert(&next.to_be_bytes()[..], places)?;
                        tl.insert(&next.to_be_bytes()[..], vec![2u8; 41 * per])?;
                        tl.insert(b"size", &next.to_be_bytes()[..])?;
                        mt.insert(b"next", &next.to_be_bytes()[..])?;
                    }
                    Ok(())
                })
                .expect("commit");
            next += per as u64;
            if c % 10 == 9 {
                db.flush().expect("flush");
            }
        }
        db.flush().expect("flush");
        let secs = t0.elapsed().as_secs_f64();
        let records = (commits * per) as f64;
        println!(
            "{name}: {:.0} records/s, {:.1} µs a record",
            records / secs,
            secs * 1e6 / records
        );
    }
}
