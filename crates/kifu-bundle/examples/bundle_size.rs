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

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_bundle::{check_bundle, Bundle, BundleHead, BundleRecord, BundleTail};
use kifu_ledger::testkit::{sample_game, Cast};
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::map::{self, MemMap};
use kifu_tlog::note::{Note, NoteSigner};
use kifu_tlog::{Leaf, MemTree};

fn b64s(h: &[kifu_tlog::Hash]) -> Vec<String> {
    h.iter().map(|x| B64.encode(x)).collect()
}

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
    let signer = NoteSigner::new("kifu.example/bench", [0x11; 32]).expect("signer");
    println!("| later leaves | form | bundle bytes | check (best of 5) |");
    println!("| --- | --- | --- | --- |");
    for later in sizes {
        let mut tree = MemTree::new();
        let mut leaves = Vec::new();
        for r in &game.records {
            let h = r.header().expect("header");
            leaves.push(Leaf {
                game: game.game,
                seq: h.seq,
                record_hash: r.hash(),
            });
        }
        let own = leaves.len() as u64;
        for i in 0..later {
            let board = i % 350;
            leaves.push(Leaf {
                game: kifu_tlog::leaf_hash(&board.to_be_bytes()),
                seq: i / 350,
                record_hash: kifu_tlog::leaf_hash(&i.to_be_bytes()),
            });
        }
        for l in &leaves {
            tree.push(&l.to_bytes());
        }
        let mut mem = MemMap::new();
        mem.extend(&leaves);
        let size = tree.size();
        let mut cp = Checkpoint::new("kifu.example/bench", size, tree.root());
        cp.extensions.push(map::map_line(&mem.root));
        let mut note = Note::new(cp.to_text()).expect("note");
        signer.sign(&mut note);
        let last = own - 1;
        let base = |records: Vec<BundleRecord>| Bundle {
            format: String::new(),
            game: hex::encode(game.game),
            log_key: signer.verifier().to_vkey(),
            witness_keys: Vec::new(),
            checkpoint: note.to_text(),
            records,
            tail: None,
            head: None,
            tournament_checkpoint: None,
            log_key_rotations: Vec::new(),
        };
        let mut tail = base(
            game.records
                .iter()
                .enumerate()
                .map(|(i, r)| BundleRecord {
                    seq: i as u64,
                    leaf_index: Some(i as u64),
                    record: B64.encode(r.to_stored()),
                    inclusion: b64s(&tree.prove_inclusion(i as u64, size).expect("proof")),
                })
                .collect(),
        );
        tail.format = kifu_bundle::BUNDLE_FORMAT.into();
        tail.tail = Some(BundleTail {
            start: last,
            leaves: leaves[last as usize..]
                .iter()
                .map(|l| hex::encode(l.to_bytes()))
                .collect(),
            proof: b64s(&kifu_tlog::range::prove_range(tree.store(), last, size).expect("range")),
        });
        let mut with_map = base(
            game.records
                .iter()
                .enumerate()
                .map(|(i, r)| BundleRecord {
                    seq: i as u64,
                    leaf_index: None,
                    record: B64.encode(r.to_stored()),
                    inclusion: Vec::new(),
                })
                .collect(),
        );
        with_map.format = kifu_bundle::BUNDLE_FORMAT_MAP.into();
        with_map.head = Some(BundleHead {
            leaf_index: last,
            inclusion: b64s(&tree.prove_inclusion(last, size).expect("proof")),
            map: mem.prove(&game.game).to_json(),
        });
        for (form, b) in [
            ("kifu-bundle/1 (tail)", &tail),
            ("kifu-bundle/2 (map)", &with_map),
        ] {
            let json = serde_json::to_vec_pretty(b).expect("json");
            let took = time_check(&json);
            println!(
                "| {later} | {form} | {} | {:.2} ms |",
                json.len(),
                took.as_secs_f64() * 1000.0
            );
        }
    }
}
