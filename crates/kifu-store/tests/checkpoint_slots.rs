//! Checkpoints of one tree size that are not the same checkpoint (signed
//! after an operator key rotation, or for another origin) are both kept;
//! the one saved last is read as the latest.

use kifu_store::Store;
use kifu_tlog::{Note, NoteSigner};

const ROOT: &str = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";

fn signed(origin: &str, size: u64, signers: &[&NoteSigner]) -> String {
    let mut note = Note::new(format!("{origin}\n{size}\n{ROOT}\n")).unwrap();
    for s in signers {
        s.sign(&mut note);
    }
    note.to_text()
}

#[test]
fn a_checkpoint_signed_after_a_key_rotation_is_kept_beside_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let old = NoteSigner::new("kifu.example/log", [1; 32]).unwrap();
    let new = NoteSigner::new("kifu.example/log", [2; 32]).unwrap();
    let before = signed("kifu.example/log", 7, &[&old]);
    let after = signed("kifu.example/log", 7, &[&new]);
    assert_ne!(before, after);
    store.save_checkpoint(7, &before).unwrap();
    store.save_checkpoint(7, &after).unwrap();
    let mut kept = store.checkpoints_at(7).unwrap();
    kept.sort();
    let mut both = vec![before.clone(), after.clone()];
    both.sort();
    assert_eq!(kept, both, "neither overwrites the other");
    assert_eq!(store.latest_checkpoint().unwrap(), Some((7, after.clone())));
    assert_eq!(store.checkpoint_at(7).unwrap(), Some(after.clone()));
    // The latest is the one saved last, whichever slot it sits in.
    store.save_checkpoint(7, &before).unwrap();
    assert_eq!(
        store.latest_checkpoint().unwrap(),
        Some((7, before.clone()))
    );
    assert_eq!(store.checkpoints_at(7).unwrap().len(), 2);
    // A larger tree is the latest, however the smaller ones were saved.
    let bigger = signed("kifu.example/log", 9, &[&new]);
    store.save_checkpoint(9, &bigger).unwrap();
    store.save_checkpoint(7, &after).unwrap();
    assert_eq!(store.latest_checkpoint().unwrap(), Some((9, bigger)));
}

#[test]
fn checkpoints_of_two_origins_at_one_size_are_both_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let key = NoteSigner::new("kifu.example/log", [3; 32]).unwrap();
    let a = signed("kifu.example/log", 4, &[&key]);
    let b = signed("kifu.example/other", 4, &[&key]);
    store.save_checkpoint(4, &a).unwrap();
    store.save_checkpoint(4, &b).unwrap();
    assert_eq!(store.checkpoints_at(4).unwrap().len(), 2);
    assert_eq!(store.latest_checkpoint().unwrap(), Some((4, b.clone())));
    assert_eq!(store.checkpoint_at(4).unwrap(), Some(b));
}

#[test]
fn the_same_checkpoint_cosigned_replaces_its_copy() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let operator = NoteSigner::new("kifu.example/log", [4; 32]).unwrap();
    let witness = NoteSigner::new("witness.example", [5; 32]).unwrap();
    let alone = signed("kifu.example/log", 5, &[&operator]);
    let cosigned = signed("kifu.example/log", 5, &[&operator, &witness]);
    store.save_checkpoint(5, &alone).unwrap();
    store.save_checkpoint(5, &cosigned).unwrap();
    assert_eq!(store.checkpoints_at(5).unwrap(), vec![cosigned.clone()]);
    // Saving the identical note again keeps one copy.
    store.save_checkpoint(5, &cosigned).unwrap();
    assert_eq!(store.checkpoints_at(5).unwrap(), vec![cosigned.clone()]);
    assert_eq!(store.latest_checkpoint().unwrap(), Some((5, cosigned)));
}

#[test]
fn checkpoints_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let old = NoteSigner::new("kifu.example/log", [6; 32]).unwrap();
    let new = NoteSigner::new("kifu.example/log", [7; 32]).unwrap();
    let (a, b) = (
        signed("kifu.example/log", 3, &[&old]),
        signed("kifu.example/log", 3, &[&new]),
    );
    {
        let store = Store::open(dir.path()).unwrap();
        store.save_checkpoint(3, &a).unwrap();
        store.save_checkpoint(3, &b).unwrap();
    }
    // sled's flusher thread may hold the lock a moment after the handle is
    // gone: a bounded retry.
    let store = (0..200)
        .find_map(|_| {
            Store::open(dir.path()).ok().or_else(|| {
                std::thread::sleep(std::time::Duration::from_millis(10));
                None
            })
        })
        .unwrap_or_else(|| Store::open(dir.path()).unwrap());
    assert_eq!(store.checkpoints_at(3).unwrap().len(), 2);
    assert_eq!(store.latest_checkpoint().unwrap(), Some((3, b)));
}
