//! Test vectors: RFC 6962's reference tree, the C2SP signed-note example,
//! and kifu's own vectors in `fixtures/tlog/vectors.json` (regenerate with
//! `KIFU_WRITE_VECTORS=1 cargo test -p kifu-tlog --test vectors`; Go's
//! `sumdb` packages check the same file in `tests/peers/`).

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::cosign::{witness, Cosigner, WitnessError, WitnessState};
use kifu_tlog::note::{Note, NoteError, NoteSigner, NoteVerifier};
use kifu_tlog::proof::{ConsistencyProof, InclusionProof};
use kifu_tlog::{tiles, verify_consistency, verify_inclusion, MemTree};
use serde_json::{json, Value};

/// The leaves of the reference tree used by RFC 6962 implementations
/// (Certificate Transparency's `merkle_tree_test`), as hex.
const RFC_LEAVES: [&str; 8] = [
    "",
    "00",
    "10",
    "2021",
    "3031",
    "40414243",
    "5051525354555657",
    "606162636465666768696a6b6c6d6e6f",
];

/// Roots of its first 1 to 8 leaves.
const RFC_ROOTS: [&str; 8] = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

fn rfc_tree() -> MemTree {
    let mut t = MemTree::new();
    for l in RFC_LEAVES {
        t.push(&hex::decode(l).unwrap());
    }
    t
}

#[test]
fn the_rfc_6962_reference_tree_has_its_published_roots() {
    let t = rfc_tree();
    for (i, r) in RFC_ROOTS.iter().enumerate() {
        assert_eq!(
            hex::encode(t.root_at(i as u64 + 1).unwrap()),
            *r,
            "size {}",
            i + 1
        );
    }
    assert_eq!(
        hex::encode(t.root_at(0).unwrap()),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

#[test]
fn the_signed_note_example_of_the_c2sp_spec_verifies() {
    // C2SP signed-note.md, "Verifier keys", "Example".
    let v = NoteVerifier::parse(
        "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
    )
    .unwrap();
    let msg = "This is an example message.\n\n\u{2014} example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
    let note = Note::parse(msg).unwrap();
    assert_eq!(note.text, "This is an example message.\n");
    assert_eq!(note.verify(std::slice::from_ref(&v)).unwrap().len(), 1);
    assert_eq!(note.to_text(), msg);
    // One changed letter in the text.
    let bad = Note::parse(&msg.replace("example message", "example massage")).unwrap();
    assert!(matches!(
        bad.verify(std::slice::from_ref(&v)),
        Err(NoteError::BadSignature { .. })
    ));
    // A key ID that does not match its key is refused.
    assert!(NoteVerifier::parse(
        "example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
    )
    .is_err());
    // Signatures by other keys are ignored, and alone they do not suffice.
    let other = NoteSigner::new("example.com/foo", [9; 32])
        .unwrap()
        .verifier();
    assert!(matches!(
        note.verify(&[other]),
        Err(NoteError::NoKnownSignature(_))
    ));
}

#[test]
fn notes_refuse_what_the_spec_forbids() {
    let s = NoteSigner::new("kifu.example/log", [1; 32]).unwrap();
    let mut n = Note::new("a\nb\n").unwrap();
    s.sign(&mut n);
    let text = n.to_text();
    assert!(Note::parse(&text).unwrap().verify(&[s.verifier()]).is_ok());
    assert!(Note::parse(&text.replace("a\n", "a\r\n")).is_err());
    assert!(Note::parse(text.trim_end()).is_err());
    assert!(Note::parse("a\nb\n").is_err());
    assert!(Note::new("no newline").is_err());
    assert!(NoteSigner::new("has space", [1; 32]).is_err());
    assert!(NoteSigner::new("a+b", [1; 32]).is_err());
}

const ORIGIN: &str = "kifu.example/vectors";
const LOG_SEED: [u8; 32] = [0x11; 32];
const WITNESS_SEED: [u8; 32] = [0x22; 32];
const WITNESS_NAME: &str = "witness.kifu.example/w1";
const TIME: u64 = 1_700_000_000;

fn b64s(v: &[[u8; 32]]) -> Vec<String> {
    v.iter().map(|h| B64.encode(h)).collect()
}

/// Everything in `fixtures/tlog/vectors.json`, computed.
fn vectors() -> Value {
    let t = rfc_tree();
    let n = t.size();
    let log = NoteSigner::new(ORIGIN, LOG_SEED).unwrap();
    let wit = Cosigner::new(WITNESS_NAME, WITNESS_SEED).unwrap();
    let mut roots = Vec::new();
    let mut inclusion = Vec::new();
    let mut consistency = Vec::new();
    for size in 1..=n {
        roots.push(json!({"size": size, "root": B64.encode(t.root_at(size).unwrap())}));
        for index in 0..size {
            let p = InclusionProof {
                leaf_index: index,
                tree_size: size,
                hashes: t.prove_inclusion(index, size).unwrap(),
            };
            inclusion.push(serde_json::to_value(&p).unwrap());
        }
        for old in 1..=size {
            let p = ConsistencyProof {
                old_size: old,
                new_size: size,
                hashes: t.prove_consistency(old, size).unwrap(),
            };
            consistency.push(serde_json::to_value(&p).unwrap());
        }
    }
    let mut note = Note::new(Checkpoint::new(ORIGIN, n, t.root()).to_text()).unwrap();
    log.sign(&mut note);
    let signed = note.to_text();
    let state = witness(&wit, &log.verifier(), &mut note, None, &[], TIME).unwrap();
    assert_eq!(state.size, n);
    // A bigger tree for tiles: 300 leaves, leaf data = index as u32 BE.
    let mut big = MemTree::new();
    for i in 0..300u32 {
        big.push(&i.to_be_bytes());
    }
    let tiles: Vec<Value> = tiles::tiles_for_size(300)
        .into_iter()
        .map(|(l, i, w)| {
            let (width, data) = tiles::tile(big.store(), l, i, 300).unwrap().unwrap();
            assert_eq!(width, w);
            json!({"path": tiles::tile_path(l, i, w), "level": l, "index": i, "width": w, "data": hex::encode(data)})
        })
        .collect();
    json!({
        "about": "kifu transparency log vectors: RFC 6962 tree of the 8 reference leaves, every inclusion and consistency proof, a signed and cosigned checkpoint, and the tiles of a 300-leaf tree (leaf i = u32 big-endian i). See docs/TRANSPARENCY.md.",
        "leaves": RFC_LEAVES,
        "roots": roots,
        "inclusion": inclusion,
        "consistency": consistency,
        "log_seed": hex::encode(LOG_SEED),
        "log_vkey": log.verifier().to_vkey(),
        "checkpoint": signed,
        "witness_seed": hex::encode(WITNESS_SEED),
        "witness_vkey": wit.verifier().to_vkey(),
        "cosigned_checkpoint": note.to_text(),
        "tiles_tree_size": 300,
        "tiles_tree_root": B64.encode(big.root()),
        "tiles": tiles,
        "range_proofs": [
            {"start": 5, "tree_size": 8, "hashes": b64s(&kifu_tlog::range::prove_range(t.store(), 5, 8).unwrap())},
            {"start": 0, "tree_size": 8, "hashes": b64s(&kifu_tlog::range::prove_range(t.store(), 0, 8).unwrap())},
            {"start": 7, "tree_size": 8, "hashes": b64s(&kifu_tlog::range::prove_range(t.store(), 7, 8).unwrap())}
        ]
    })
}

fn fixture_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tlog/vectors.json")
}

#[test]
fn the_fixture_file_matches_the_code() {
    let v = vectors();
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    if std::env::var_os("KIFU_WRITE_VECTORS").is_some() {
        std::fs::write(fixture_path(), &text).unwrap();
    }
    let stored = std::fs::read_to_string(fixture_path()).expect("fixtures/tlog/vectors.json");
    assert_eq!(
        stored, text,
        "regenerate with KIFU_WRITE_VECTORS=1 and review the diff"
    );
}

#[test]
fn the_fixture_proofs_verify_from_their_text_alone() {
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture_path()).unwrap()).unwrap();
    let roots: Vec<[u8; 32]> = stored["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| kifu_tlog::proof::parse_b64_hash(r["root"].as_str().unwrap()).unwrap())
        .collect();
    let leaves: Vec<[u8; 32]> = stored["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| kifu_tlog::leaf_hash(&hex::decode(l.as_str().unwrap()).unwrap()))
        .collect();
    for p in stored["inclusion"].as_array().unwrap() {
        let p: InclusionProof = serde_json::from_value(p.clone()).unwrap();
        let root = roots[p.tree_size as usize - 1];
        p.verify(&leaves[p.leaf_index as usize], &root).unwrap();
        let again = InclusionProof::from_text(&p.to_text(), p.tree_size).unwrap();
        assert_eq!(again, p);
    }
    for p in stored["consistency"].as_array().unwrap() {
        let p: ConsistencyProof = serde_json::from_value(p.clone()).unwrap();
        p.verify(
            &roots[p.old_size as usize - 1],
            &roots[p.new_size as usize - 1],
        )
        .unwrap();
        assert_eq!(
            ConsistencyProof::from_text(&p.to_text(), p.old_size, p.new_size).unwrap(),
            p
        );
    }
    let log = NoteVerifier::parse(stored["log_vkey"].as_str().unwrap()).unwrap();
    let wit = NoteVerifier::parse(stored["witness_vkey"].as_str().unwrap()).unwrap();
    let note = Note::parse(stored["cosigned_checkpoint"].as_str().unwrap()).unwrap();
    let ok = note.verify(&[log, wit]).unwrap();
    assert_eq!(ok.len(), 2);
    assert_eq!(ok[1].timestamp, Some(TIME));
    let cp = Checkpoint::parse(&note.text).unwrap();
    assert_eq!((cp.size, cp.root), (8, roots[7]));
}

#[test]
fn a_witness_cosigns_growth_and_refuses_a_fork_or_a_rollback() {
    let log = NoteSigner::new(ORIGIN, LOG_SEED).unwrap();
    let wit = Cosigner::new(WITNESS_NAME, WITNESS_SEED).unwrap();
    let t = rfc_tree();
    let sign = |size: u64, root: [u8; 32]| {
        let mut n = Note::new(Checkpoint::new(ORIGIN, size, root).to_text()).unwrap();
        log.sign(&mut n);
        n
    };
    let mut n3 = sign(3, t.root_at(3).unwrap());
    let s3 = witness(&wit, &log.verifier(), &mut n3, None, &[], TIME).unwrap();
    let mut n8 = sign(8, t.root());
    let p = t.prove_consistency(3, 8).unwrap();
    let s8 = witness(&wit, &log.verifier(), &mut n8, Some(&s3), &p, TIME + 60).unwrap();
    assert_eq!(
        s8,
        WitnessState {
            origin: ORIGIN.into(),
            size: 8,
            root: t.root()
        }
    );
    // Both signatures verify on the note.
    assert_eq!(
        n8.verify(&[log.verifier(), wit.verifier()]).unwrap().len(),
        2
    );

    // A fork: the same log key signs another tree of 8 leaves.
    let mut f = MemTree::new();
    for l in &RFC_LEAVES[..3] {
        f.push(&hex::decode(l).unwrap());
    }
    for _ in 3..8 {
        f.push(b"forged");
    }
    let mut nf = sign(8, f.root());
    let pf = f.prove_consistency(3, 8).unwrap();
    // The forked log is consistent with size 3 (it shares those leaves)...
    assert!(witness(&wit, &log.verifier(), &mut nf.clone(), Some(&s3), &pf, TIME).is_ok());
    // ...but not with the size-8 head the witness already cosigned.
    let e = witness(&wit, &log.verifier(), &mut nf, Some(&s8), &[], TIME).unwrap_err();
    assert!(
        matches!(e, WitnessError::Inconsistent { old: 8, .. }),
        "{e}"
    );
    // A rollback.
    let mut n5 = sign(5, t.root_at(5).unwrap());
    let e = witness(&wit, &log.verifier(), &mut n5, Some(&s8), &[], TIME).unwrap_err();
    assert!(matches!(e, WitnessError::Shrank { old: 8, new: 5 }));
    // A note not signed by the log.
    let other = NoteSigner::new(ORIGIN, [0x33; 32]).unwrap();
    let mut n = Note::new(Checkpoint::new(ORIGIN, 8, t.root()).to_text()).unwrap();
    other.sign(&mut n);
    assert!(matches!(
        witness(&wit, &log.verifier(), &mut n, Some(&s3), &p, TIME),
        Err(WitnessError::Note(_))
    ));
}

#[test]
fn proofs_of_the_reference_tree_verify_and_fail_when_altered() {
    let t = rfc_tree();
    let leaf = kifu_tlog::leaf_hash(&hex::decode(RFC_LEAVES[5]).unwrap());
    let p = t.prove_inclusion(5, 8).unwrap();
    assert_eq!(p.len(), 3);
    verify_inclusion(5, 8, &leaf, &p, &t.root()).unwrap();
    assert!(verify_inclusion(4, 8, &leaf, &p, &t.root()).is_err());
    let c = t.prove_consistency(6, 8).unwrap();
    verify_consistency(6, 8, &t.root_at(6).unwrap(), &t.root(), &c).unwrap();
    assert!(verify_consistency(6, 8, &t.root_at(5).unwrap(), &t.root(), &c).is_err());
}
