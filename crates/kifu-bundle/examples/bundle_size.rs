//! Appeal bundle size and verification time against the number of leaves
//! logged after the game, for both forms: `kifu-bundle/1` (the log's tail,
//! the form before the map of game heads) and `kifu-bundle/2` (the map).
//!
//! ```text
//! cargo run --release -p kifu-bundle --example bundle_size [LATER_LEAVES...]
//! ```
//!
//! Default: 0, 10,000, 100,000 and 1,000,000 later leaves, spread over 350
//! other games (a congress of 350 boards). The log is built in memory; the
//! bundle is the one `kifu bundle` writes (same fields, same proofs), and
//! the time is `kifu_bundle::check_bundle`'s, best of 5, on the parsed
//! bundle plus the JSON parse itself. Prints one Markdown table row per size
//! and form (`docs/PERFORMANCE.md`, "Appeal bundles").

use std::time::{Duration, Instant};

#[path = "../tests/common/mem_log.rs"]
#[allow(dead_code)]
mod mem_log;

use kifu_bundle::{check_bundle, Bundle};
use kifu_ledger::testkit::{sample_game, Cast};
use mem_log::MemLog;

fn time_check(json: &[u8]) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let b: Bundle = serde_json::from_slice(json).expect("parse");
        let r = check_bundle(&b);
        let took = t.elapsed();
        assert!(r.is_ok(), "{r:?}");
        best = best.min(took);
    }
    best
}

fn main() {
    let sizes: Vec<u64> = {
        let args: Vec<u64> = std::env::args()
            .skip(1)
            .map(|a| a.replace(',', "").parse().expect("a number of leaves"))
            .collect();
        if args.is_empty() {
            vec![0, 10_000, 100_000, 1_000_000]
        } else {
            args
        }
    };
    let cast = Cast::new();
    let game = sample_game(&cast, "appeal");
    let n = game.records.len();
    println!("| later leaves | form | bundle bytes | check (best of 5) |");
    println!("| --- | --- | --- | --- |");
    for later in sizes {
        let log = MemLog::around(&game, later);
        for (form, b) in [
            ("kifu-bundle/1 (tail)", log.tail_bundle(&game, n)),
            ("kifu-bundle/2 (map)", log.map_bundle(&game, n)),
        ] {
            let json = serde_json::to_vec_pretty(&b).expect("json");
            let took = time_check(&json);
            println!(
                "| {later} | {form} | {} | {:.2} ms |",
                json.len(),
                took.as_secs_f64() * 1000.0
            );
        }
    }
}
