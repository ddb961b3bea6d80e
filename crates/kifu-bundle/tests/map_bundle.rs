//! The verifier's verdicts on bundles built in memory: both forms verify,
//! and each way of hiding the game's later events fails with its typed
//! error.

mod common {
    pub mod mem_log;
}

use common::mem_log::MemLog;
use kifu_bundle::{check_bundle, BundleError, Completeness};
use kifu_ledger::testkit::{sample_game, Cast};
use kifu_tlog::map::MapProofError;

#[test]
fn both_forms_verify_and_the_map_form_does_not_grow_with_the_log() {
    let cast = Cast::new();
    let game = sample_game(&cast, "appeal");
    let n = game.records.len();
    let small = MemLog::around(&game, 10);
    let big = MemLog::around(&game, 5_000);
    for log in [&small, &big] {
        let r = check_bundle(&log.map_bundle(&game, n)).unwrap();
        assert_eq!(r.completeness, Completeness::Map);
        assert_eq!(r.head_seq, n as u64 - 1);
        assert!(r.map_root.is_some());
        let r = check_bundle(&log.tail_bundle(&game, n)).unwrap();
        assert_eq!(r.completeness, Completeness::Tail);
    }
    let len = |b| serde_json::to_vec(&b).unwrap().len();
    let (m_small, m_big) = (
        len(small.map_bundle(&game, n)),
        len(big.map_bundle(&game, n)),
    );
    // The head's inclusion proof grows by a few hashes; nothing else does.
    assert!(m_big < m_small + 20 * 45, "{m_small} -> {m_big}");
    let t_big = len(big.tail_bundle(&game, n));
    assert!(t_big > m_big + 5_000 * 144, "{t_big}");
}

#[test]
fn a_bundle_that_stops_before_the_head_fails_in_both_forms() {
    let cast = Cast::new();
    let game = sample_game(&cast, "appeal");
    let n = game.records.len();
    let log = MemLog::around(&game, 40);
    // The map's true proof names the later head.
    let e = check_bundle(&log.map_bundle(&game, n - 2)).unwrap_err();
    assert_eq!(
        e,
        BundleError::Truncated {
            seq: n as u64 - 1,
            leaf: n as u64 - 1,
            last: n as u64 - 3
        }
    );
    assert!(e.to_string().contains("the bundle is truncated"), "{e}");
    // A map proof of the stale head, taken from a log that stopped there.
    let stale_log = MemLog::new(common::mem_log::game_leaves(&game)[..n - 2].to_vec());
    let mut b = log.map_bundle(&game, n - 2);
    if let (Some(h), Some(s)) = (b.head.as_mut(), stale_log.map_bundle(&game, n - 2).head) {
        h.map = s.map;
    }
    assert_eq!(
        check_bundle(&b).unwrap_err(),
        BundleError::MapProof(MapProofError::RootMismatch)
    );
    // The tail form says the same from the tail.
    assert!(matches!(
        check_bundle(&log.tail_bundle(&game, n - 2)).unwrap_err(),
        BundleError::Truncated { .. }
    ));
    // A head's leaf index that is not the map's.
    let mut b = log.map_bundle(&game, n);
    if let Some(h) = b.head.as_mut() {
        h.leaf_index += 1;
    }
    assert!(matches!(
        check_bundle(&b).unwrap_err(),
        BundleError::NotInLog { .. }
    ));
    // A map form without its head part, and an unknown format.
    let mut b = log.map_bundle(&game, n);
    b.head = None;
    assert_eq!(check_bundle(&b).unwrap_err(), BundleError::NoPart("head"));
    b.format = "kifu-bundle/9".into();
    assert_eq!(check_bundle(&b).unwrap_err(), BundleError::Format);
}
