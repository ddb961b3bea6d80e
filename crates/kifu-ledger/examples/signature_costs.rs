//! What one signature check costs, by method, on this machine: the
//! figures behind the signature paragraphs of `docs/PERFORMANCE.md`.
//!
//! `cargo run --release -p kifu-ledger --example signature_costs`

use std::time::Instant;

use curve25519_dalek::edwards::CompressedEdwardsY;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::IsIdentity;
use curve25519_dalek::EdwardsPoint;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier};

/// Microseconds per item of `n` items taking `t`.
fn per(t: Instant, n: usize) -> f64 {
    t.elapsed().as_secs_f64() * 1e6 / n as f64
}

fn main() {
    let key = SigningKey::from_bytes(&[7u8; 32]);
    let vk = key.verifying_key();
    let n = 4096;
    let msgs: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            format!("event {i}, about as long as a clock press record's signed bytes ......")
                .into_bytes()
        })
        .collect();
    let sigs: Vec<Signature> = msgs.iter().map(|m| key.sign(m)).collect();

    let t = Instant::now();
    for (m, s) in msgs.iter().zip(&sigs) {
        assert!(vk.verify_strict(m, s).is_ok());
    }
    println!("verify_strict: {:.1} µs per signature", per(t, n));
    let t = Instant::now();
    for (m, s) in msgs.iter().zip(&sigs) {
        assert!(vk.verify(m, s).is_ok());
    }
    println!("verify: {:.1} µs", per(t, n));
    let pk = vk.to_bytes();
    let raw: Vec<[u8; 64]> = sigs.iter().map(|s| s.to_bytes()).collect();
    let items: Vec<kifu_ledger::sig::Item<'_>> = msgs
        .iter()
        .zip(&raw)
        .map(|(m, s)| (&pk, m.as_slice(), s))
        .collect();
    let t = Instant::now();
    let accepted = kifu_ledger::sig::verify_each(&items);
    assert!(accepted.iter().all(|a| *a));
    println!(
        "kifu's rule on one core (verify_each, 64 encodings at a time): {:.1} µs",
        per(t, n)
    );
    for b in [64usize, 256, 1024] {
        let keys = vec![vk; b];
        let t = Instant::now();
        for c in 0..n / b {
            let ms: Vec<&[u8]> = msgs[c * b..(c + 1) * b]
                .iter()
                .map(|m| m.as_slice())
                .collect();
            assert!(ed25519_dalek::verify_batch(&ms, &sigs[c * b..(c + 1) * b], &keys).is_ok());
        }
        println!("batches of {b}: {:.1} µs per signature", per(t, n));
    }
    let points: Vec<EdwardsPoint> = sigs
        .iter()
        .filter_map(|s| CompressedEdwardsY(*s.r_bytes()).decompress())
        .collect();
    let t = Instant::now();
    let l_minus_1 = -Scalar::ONE;
    let free = points
        .iter()
        .filter(|p| {
            let q = EdwardsPoint::vartime_double_scalar_mul_basepoint(&l_minus_1, p, &Scalar::ZERO);
            (q + *p).is_identity()
        })
        .count();
    println!(
        "torsion check of R by [L]R (variable time): {:.1} µs per point ({free} of {} torsion-free)",
        per(t, points.len()),
        points.len()
    );
}
