//! Property tests: for random logs and sizes every proof verifies, and a
//! changed leaf, size, index or root makes it fail.

use kifu_tlog::proof::{root_from_inclusion, verify_consistency, verify_inclusion};
use kifu_tlog::range::{prove_range, root_from_range};
use kifu_tlog::{leaf_hash, node_hash, MemTree};
use proptest::prelude::*;

fn build(leaves: &[Vec<u8>]) -> MemTree {
    let mut t = MemTree::new();
    for l in leaves {
        t.push(l);
    }
    t
}

/// Random leaf data, each leaf starting with its index so that no two are
/// equal (a log of identical leaves would make some wrong sizes look right
/// only because the data repeats).
fn leaves_strategy() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 1..300).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, mut d)| {
                let mut l = (i as u32).to_be_bytes().to_vec();
                l.append(&mut d);
                l
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_inclusion_proof_verifies_and_a_changed_leaf_or_size_fails(
        leaves in leaves_strategy(),
        a in any::<u64>(),
        b in any::<u64>(),
    ) {
        let t = build(&leaves);
        let n = t.size();
        let size = 1 + a % n;
        let index = b % size;
        let root = t.root_at(size).unwrap();
        let proof = t.prove_inclusion(index, size).unwrap();
        let leaf = leaf_hash(&leaves[index as usize]);
        prop_assert!(verify_inclusion(index, size, &leaf, &proof, &root).is_ok());

        let mut changed = leaves[index as usize].clone();
        changed.push(0x5a);
        prop_assert!(verify_inclusion(index, size, &leaf_hash(&changed), &proof, &root).is_err());
        // The same proof checked against the signed root of another size.
        if size - 1 > index {
            let r = t.root_at(size - 1).unwrap();
            prop_assert!(verify_inclusion(index, size - 1, &leaf, &proof, &r).is_err());
        }
        if size < n {
            let r = t.root_at(size + 1).unwrap();
            prop_assert!(verify_inclusion(index, size + 1, &leaf, &proof, &r).is_err());
        }
        // Another index.
        if size > 1 {
            let other = (index + 1) % size;
            if leaves[other as usize] != leaves[index as usize] {
                prop_assert!(verify_inclusion(other, size, &leaf, &proof, &root).is_err());
            }
        }
        // A changed proof hash.
        if let Some(first) = proof.first() {
            let mut p = proof.clone();
            p[0] = node_hash(first, first);
            prop_assert!(verify_inclusion(index, size, &leaf, &p, &root).is_err());
        }
        // Truncated or extended proofs.
        if !proof.is_empty() {
            prop_assert!(root_from_inclusion(index, size, &leaf, &proof[..proof.len() - 1]).ok() != Some(root));
        }
        let mut longer = proof.clone();
        longer.push(root);
        prop_assert!(verify_inclusion(index, size, &leaf, &longer, &root).is_err());
    }

    #[test]
    fn every_consistency_proof_verifies_and_a_changed_size_or_root_fails(
        leaves in leaves_strategy(),
        a in any::<u64>(),
        b in any::<u64>(),
    ) {
        let t = build(&leaves);
        let n = t.size();
        let new = 1 + a % n;
        let old = 1 + b % new;
        let (old_root, new_root) = (t.root_at(old).unwrap(), t.root_at(new).unwrap());
        let proof = t.prove_consistency(old, new).unwrap();
        prop_assert!(verify_consistency(old, new, &old_root, &new_root, &proof).is_ok());

        if old < new {
            let r = t.root_at(old + 1).unwrap();
            prop_assert!(verify_consistency(old + 1, new, &r, &new_root, &proof).is_err());
            if new < n {
                let r = t.root_at(new + 1).unwrap();
                prop_assert!(verify_consistency(old, new + 1, &old_root, &r, &proof).is_err());
            }
            let forked = node_hash(&old_root, &new_root);
            prop_assert!(verify_consistency(old, new, &forked, &new_root, &proof).is_err());
            prop_assert!(verify_consistency(old, new, &old_root, &forked, &proof).is_err());
        }
        if old > 1 {
            let r = t.root_at(old - 1).unwrap();
            prop_assert!(verify_consistency(old - 1, new, &r, &new_root, &proof).is_err());
        }
        // A log that changed one old leaf is not consistent with the first.
        let i = (a % old) as usize;
        let mut forked_leaves = leaves[..new as usize].to_vec();
        forked_leaves[i].push(0xa5);
        let f = build(&forked_leaves);
        let fproof = f.prove_consistency(old, new).unwrap();
        prop_assert!(verify_consistency(old, new, &old_root, &f.root(), &fproof).is_err());
    }

    #[test]
    fn every_range_proof_leads_to_the_root_and_a_dropped_tail_leaf_does_not(
        leaves in leaves_strategy(),
        a in any::<u64>(),
    ) {
        let t = build(&leaves);
        let n = t.size();
        let start = a % n;
        let hashes: Vec<_> = leaves.iter().map(|l| leaf_hash(l)).collect();
        let proof = prove_range(t.store(), start, n).unwrap();
        prop_assert_eq!(root_from_range(start, &hashes[start as usize..], &proof).unwrap(), t.root());
        if n - start > 1 {
            let mut fewer = hashes[start as usize..].to_vec();
            fewer.remove(fewer.len() / 2);
            prop_assert!(root_from_range(start, &fewer, &proof).ok() != Some(t.root()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Parsers of outside text never panic, whatever they are given.
    #[test]
    fn parsers_never_panic_on_arbitrary_text(s in "(?s).{0,300}", t in "[a-z0-9/+=\u{2014} \n.]{0,200}") {
        for input in [&s, &t] {
            let _ = kifu_tlog::Note::parse(input);
            let _ = kifu_tlog::Checkpoint::parse(input);
            let _ = kifu_tlog::NoteVerifier::parse(input);
            let _ = kifu_tlog::proof::InclusionProof::from_text(input, 10);
            let _ = kifu_tlog::proof::ConsistencyProof::from_text(input, 3, 10);
            let _ = kifu_tlog::tiles::parse_entry_bundle(input.as_bytes());
        }
    }

    /// Any signed note survives printing and parsing, and still verifies.
    #[test]
    fn signed_notes_round_trip(lines in prop::collection::vec("[ -~]{1,40}", 1..6), seed in any::<[u8; 32]>()) {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let signer = kifu_tlog::NoteSigner::new("log.example/x", seed).unwrap();
        let mut n = kifu_tlog::Note::new(text).unwrap();
        signer.sign(&mut n);
        let parsed = kifu_tlog::Note::parse(&n.to_text()).unwrap();
        prop_assert_eq!(&parsed, &n);
        prop_assert!(parsed.verify(&[signer.verifier()]).is_ok());
    }
}
