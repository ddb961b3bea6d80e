//! Properties of the map of game heads: built in any number of steps it
//! equals the recursive definition of `docs/TRANSPARENCY.md` section 10;
//! every entry's proof verifies with its entry, every other id's proof
//! proves it absent, and no proof proves a held game absent.

use kifu_tlog::map::{self, MapLeaf, MemMap, EMPTY};
use kifu_tlog::Leaf;
use proptest::prelude::*;

fn reference(entries: &[MapLeaf], depth: usize) -> [u8; 32] {
    match entries {
        [] => EMPTY,
        [one] => one.hash(),
        _ => {
            let (l, r): (Vec<MapLeaf>, Vec<MapLeaf>) =
                entries.iter().partition(|e| !map::bit(e.game(), depth));
            map::map_node_hash(&reference(&l, depth + 1), &reference(&r, depth + 1))
        }
    }
}

/// Game ids from a small alphabet of prefixes, so that paths share long
/// prefixes and part deep.
fn id(seed: u8) -> [u8; 32] {
    let mut g = [0u8; 32];
    g[0] = seed & 0xc0;
    g[31] = seed & 0x0f;
    g[16] = seed & 0x30;
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn the_map_is_its_definition_and_its_proofs_hold(
        log in prop::collection::vec(any::<u8>(), 0..60),
        cuts in prop::collection::vec(0usize..60, 0..5),
        probes in prop::collection::vec(any::<u8>(), 1..10),
    ) {
        let mut seqs = std::collections::HashMap::new();
        let leaves: Vec<Leaf> = log.iter().map(|&s| {
            let seq = seqs.entry(id(s)).or_insert(0u64);
            let l = Leaf { game: id(s), seq: *seq, record_hash: [s; 32] };
            *seq += 1;
            l
        }).collect();
        let mut cuts: Vec<usize> = cuts.into_iter().filter(|c| *c <= leaves.len()).collect();
        cuts.push(leaves.len());
        cuts.sort_unstable();
        let mut m = MemMap::new();
        for c in cuts {
            let from = m.size() as usize;
            m.extend(&leaves[from..c]);
            let want = map::heads_of(0, &leaves[..c]);
            prop_assert_eq!(m.root(), reference(&want, 0));
        }
        let entries = map::heads_of(0, &leaves);
        for e in &entries {
            let p = m.prove(e.game());
            prop_assert_eq!(map::verify(&m.root(), e.game(), &p), Ok(Some(*e)));
        }
        for s in probes {
            let g = id(s);
            let p = m.prove(&g);
            let held = entries.iter().find(|e| e.game() == &g).copied();
            prop_assert_eq!(map::verify(&m.root(), &g, &p), Ok(held));
            // The same proof, claimed for each held game, never proves it absent.
            for e in &entries {
                prop_assert_ne!(map::verify(&m.root(), e.game(), &p), Ok(None));
            }
        }
    }
}
