//! The store keeps the transparency log in the same commit as each record.

use kifu_ledger::testkit::{sample_game, Cast};
use kifu_store::tlog::Leaf;
use kifu_store::Store;
use kifu_tlog::{verify_consistency, verify_inclusion, MemTree};

fn two_games(store: &Store) -> Vec<Leaf> {
    let cast = Cast::new();
    let a = sample_game(&cast, "a");
    let b = sample_game(&cast, "b");
    let mut leaves = Vec::new();
    // Interleave the two games, some appends batched.
    let n = a.records.len().max(b.records.len());
    for i in 0..n {
        let mut batch = Vec::new();
        for c in [&a, &b] {
            if let Some(r) = c.records.get(i) {
                batch.push(r.clone());
            }
        }
        for ap in store.append_batch(batch).unwrap() {
            leaves.push(Leaf {
                game: ap.game,
                seq: ap.seq,
                record_hash: ap.hash,
            });
        }
    }
    leaves
}

fn mem(leaves: &[Leaf]) -> MemTree {
    let mut t = MemTree::new();
    for l in leaves {
        t.push(&l.to_bytes());
    }
    t
}

#[test]
fn every_record_is_a_leaf_in_feed_order_and_proofs_verify() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.tree_size().unwrap(), 0);
    let leaves = two_games(&store);
    let n = leaves.len() as u64;
    assert_eq!(store.tree_size().unwrap(), n);
    assert_eq!(store.leaves(0, n).unwrap(), leaves);
    let t = mem(&leaves);
    for size in 1..=n {
        assert_eq!(store.tree_root(size).unwrap(), t.root_at(size).unwrap());
    }
    for (i, l) in leaves.iter().enumerate() {
        let i = i as u64;
        assert_eq!(store.leaf_index(&l.game, l.seq).unwrap(), Some(i));
        let p = store.inclusion_proof(i, n).unwrap();
        verify_inclusion(i, n, &l.hash(), &p, &t.root()).unwrap();
    }
    for old in 1..=n {
        let p = store.consistency_proof(old, n).unwrap();
        verify_consistency(old, n, &t.root_at(old).unwrap(), &t.root(), &p).unwrap();
    }
    // A size beyond the log is refused, not invented.
    assert!(store.tree_root(n + 1).is_err());
    assert!(store.inclusion_proof(0, n + 1).is_err());
    // An idempotent retry adds no leaf.
    let again = store.feed(None, 1).unwrap();
    let ap = store.append(again[0].record.clone()).unwrap();
    assert!(!ap.new);
    assert_eq!(store.tree_size().unwrap(), n);
}

#[test]
fn the_log_survives_reopening_and_is_rebuilt_for_an_older_store() {
    let dir = tempfile::tempdir().unwrap();
    let (leaves, root) = {
        let store = Store::open(dir.path()).unwrap();
        let leaves = two_games(&store);
        let root = store.tree_root(leaves.len() as u64).unwrap();
        (leaves, root)
    };
    {
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.tree_size().unwrap(), leaves.len() as u64);
        assert_eq!(store.tree_root(leaves.len() as u64).unwrap(), root);
    }
    // A store written before the log existed: the same data without the
    // `tlog` tree. Opening it builds the log from the feed.
    {
        let db = sled::open(dir.path()).unwrap();
        assert!(db.drop_tree("tlog").unwrap());
        db.flush().unwrap();
    }
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.tree_size().unwrap(), leaves.len() as u64);
    assert_eq!(store.tree_root(leaves.len() as u64).unwrap(), root);
    assert_eq!(
        store.leaf_index(&leaves[3].game, leaves[3].seq).unwrap(),
        Some(3)
    );
}

#[test]
fn tiles_and_entry_bundles_match_the_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let leaves = two_games(&store);
    let n = leaves.len() as u64;
    let (w, tile) = store.tile(0, 0, n).unwrap().unwrap();
    assert_eq!(w, n.min(256));
    for (i, l) in leaves.iter().take(w as usize).enumerate() {
        assert_eq!(&tile[i * 32..i * 32 + 32], &l.hash()[..]);
    }
    let (_, bundle) = store.entry_bundle(0, n).unwrap().unwrap();
    let entries = kifu_tlog::tiles::parse_entry_bundle(&bundle).unwrap();
    assert_eq!(entries.len() as u64, w);
    assert_eq!(Leaf::from_bytes(entries[1]), Some(leaves[1]));
    assert!(store.tile(0, 1, n).unwrap().is_none());
}

#[test]
fn checkpoints_are_kept_by_size() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert!(store.latest_checkpoint().unwrap().is_none());
    store.save_checkpoint(3, "three").unwrap();
    store.save_checkpoint(300, "three hundred").unwrap();
    store.save_checkpoint(20, "twenty").unwrap();
    assert_eq!(
        store.latest_checkpoint().unwrap(),
        Some((300, "three hundred".to_string()))
    );
    assert_eq!(store.checkpoint_at(20).unwrap().as_deref(), Some("twenty"));
    // Checkpoints do not disturb the tree.
    assert_eq!(store.tree_size().unwrap(), 0);
}

/// Batches of every size up to 37 records, several games mixed, through
/// both write paths (`append_batch` and the pipeline's `append_each`): after
/// each batch the stored tree equals one built in memory, at every size.
#[test]
fn batches_of_every_size_keep_the_tree_exact() {
    let cast = Cast::new();
    let games: Vec<_> = (0..5)
        .map(|i| sample_game(&cast, &format!("g{i}")))
        .collect();
    // All records, round robin over the games, so a batch mixes games.
    let longest = games.iter().map(|g| g.records.len()).max().unwrap();
    let mut all = Vec::new();
    for i in 0..longest {
        for g in &games {
            if let Some(r) = g.records.get(i) {
                all.push(r.clone());
            }
        }
    }
    for each in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let mut leaves = Vec::new();
        let mut rest = all.as_slice();
        let mut size = 1;
        while !rest.is_empty() {
            let take = size.min(rest.len());
            let batch = rest[..take].to_vec();
            rest = &rest[take..];
            size = size % 37 + 1;
            let appended: Vec<_> = if each {
                store
                    .append_each(batch)
                    .results
                    .into_iter()
                    .map(|r| r.unwrap())
                    .collect()
            } else {
                store.append_batch(batch).unwrap()
            };
            for ap in appended {
                leaves.push(Leaf {
                    game: ap.game,
                    seq: ap.seq,
                    record_hash: ap.hash,
                });
            }
            let n = leaves.len() as u64;
            assert_eq!(store.tree_size().unwrap(), n);
            assert_eq!(store.tree_root(n).unwrap(), mem(&leaves).root());
        }
        let t = mem(&leaves);
        let n = leaves.len() as u64;
        for s in 1..=n {
            assert_eq!(store.tree_root(s).unwrap(), t.root_at(s).unwrap());
        }
    }
}
