//! What sled costs per record in the shape of the server's batch writer:
//! batches of 88 records, each of another of 256 games (random-looking
//! game ids, so the records land all over the tree), a feed entry, the
//! log's hashes, its size and the feed counter per batch, flushed every
//! four batches. Three ways of writing a batch:
//!
//! - `transaction`: one transaction over four trees (what the store does);
//! - `transaction + a read a record`: the same with one more point read a
//!   record (as a check of the record's place would cost);
//! - `apply_batch`: everything as keys of one tree, written with sled's
//!   `apply_batch` (atomic for one tree, reads nothing).
//!
//! `cargo run --release -p kifu-store --example writer_shape -- 3000 [MODE]`
//! (the number of batches; MODE 0, 1 or 2 runs one way alone). The figures behind
//! `docs/PERFORMANCE.md`, "Where a record's write goes".

use std::time::Instant;

use sled::transaction::ConflictableTransactionError;
use sled::Transactional;

type TxResult = Result<(), ConflictableTransactionError<()>>;

const PER: usize = 88;
const GAMES: usize = 256;

/// Game ids spread over the key space (xorshift).
fn game_ids() -> Vec<[u8; 32]> {
    (0..GAMES as u64)
        .map(|g| {
            let mut x = g.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678;
            let mut id = [0u8; 32];
            for c in id.chunks_mut(8) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                c.copy_from_slice(&x.to_le_bytes());
            }
            id
        })
        .collect()
}

fn main() {
    let batches: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3000);
    let only: Option<usize> = std::env::args().nth(2).and_then(|a| a.parse().ok());
    let value = vec![7u8; 200];
    let ids = game_ids();
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, mode) in [
        ("transaction", 0),
        ("transaction + a read a record", 1),
        ("apply_batch", 2),
    ] {
        if only.is_some_and(|m| m != mode) {
            continue;
        }
        let db = sled::Config::new()
            .path(dir.path().join(format!("{mode}")))
            .flush_every_ms(None)
            .open()
            .expect("sled");
        let trees: Vec<sled::Tree> = ["e", "f", "m", "t"]
            .iter()
            .map(|t| db.open_tree(t).expect("tree"))
            .collect();
        let mut seqs = [0u64; GAMES];
        let (mut next, mut g0) = (0u64, 0usize);
        let t0 = Instant::now();
        for b in 0..batches {
            let keys: Vec<Vec<u8>> = (0..PER)
                .map(|i| {
                    let g = (g0 + i * 3) % GAMES;
                    let mut k = ids[g].to_vec();
                    k.extend_from_slice(&seqs[g].to_be_bytes());
                    seqs[g] += 1;
                    k
                })
                .collect();
            g0 = (g0 + 89) % GAMES;
            let feed = vec![1u8; 40 * PER];
            let hashes = vec![2u8; 82 * PER];
            if mode == 2 {
                let mut batch = sled::Batch::default();
                for k in &keys {
                    batch.insert([&b"e"[..], k].concat(), value.as_slice());
                }
                batch.insert([&b"f"[..], &next.to_be_bytes()].concat(), feed);
                batch.insert([&b"t"[..], &next.to_be_bytes()].concat(), hashes);
                batch.insert(&b"msize"[..], &next.to_be_bytes()[..]);
                trees[0].apply_batch(batch).expect("batch");
            } else {
                (&trees[0], &trees[1], &trees[2], &trees[3])
                    .transaction(|(ev, fd, mt, tl)| -> TxResult {
                        mt.get(b"next")?;
                        tl.get(b"size")?;
                        for k in &keys {
                            ev.insert(k.as_slice(), value.as_slice())?;
                            if mode == 1 {
                                ev.get([&k[..32], &0u64.to_be_bytes()].concat())?;
                            }
                        }
                        fd.insert(&next.to_be_bytes()[..], feed.as_slice())?;
                        tl.insert(&next.to_be_bytes()[..], hashes.as_slice())?;
                        tl.insert(b"size", &next.to_be_bytes()[..])?;
                        mt.insert(b"next", &next.to_be_bytes()[..])?;
                        Ok(())
                    })
                    .expect("commit");
            }
            next += PER as u64;
            if b % 4 == 3 {
                db.flush().expect("flush");
            }
        }
        db.flush().expect("flush");
        let records = (batches * PER) as f64;
        println!(
            "{name}: {:.1} µs a record over {records} records",
            t0.elapsed().as_secs_f64() * 1e6 / records
        );
    }
}
