//! The signature acceptance rule, and the fast paths that must agree with it.
//!
//! A signature `(R, S)` by key `A` on message `M` is accepted when (from
//! format 0.2.0, `docs/FORMAT.md` section 1):
//!
//! 1. `A` is the canonical encoding of a point of the prime-order subgroup
//!    (not small order, no torsion component);
//! 2. `verify_strict` accepts it: `S < L`, `R` not of small order, and the
//!    encoding of `[S]B - [k]A` equals the 32 bytes of `R` exactly, with
//!    `k = SHA-512(R || A || M) mod L`.
//!
//! Given 1, rule 2 can only hold when `R` is canonical and itself torsion-free
//! (`[S]B - [k]A` lies in the prime-order subgroup), so the rule also refuses
//! small-order and mixed-order `R`. A batch equation is sound only for such
//! points: it has no cofactor step, and a torsion component of `R` vanishes
//! from a random linear combination with probability 1/2 to 1/8. So
//! [`verify_batch_exact`] refuses non-canonical, small-order and
//! torsion-carrying `R` before it batches, and checks again one by one any
//! batch that fails. [`verify_one`] is the rule itself.

use std::collections::HashMap;

use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::IsIdentity;
use ed25519_dalek::{Signature, VerifyingKey};
use sha2::{Digest, Sha512};

/// Why a key or a signature is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SigError {
    /// The 32 bytes are not the canonical encoding of a curve point.
    #[error("not a canonical point encoding")]
    NonCanonical,
    /// The point has small order (it lies in the 8-torsion).
    #[error("a point of small order")]
    SmallOrder,
    /// The point has a torsion component (mixed order).
    #[error("a point with a torsion component")]
    MixedOrder,
    /// The equation does not hold.
    #[error("the signature does not verify")]
    Invalid,
}

/// Decodes a point and refuses non-canonical encodings, small-order points
/// and points with a torsion component.
pub fn check_point(bytes: &[u8; 32]) -> Result<EdwardsPoint, SigError> {
    let p = CompressedEdwardsY(*bytes)
        .decompress()
        .ok_or(SigError::NonCanonical)?;
    if p.compress().as_bytes() != bytes {
        return Err(SigError::NonCanonical);
    }
    if p.is_small_order() {
        return Err(SigError::SmallOrder);
    }
    if !torsion_free(&p) {
        return Err(SigError::MixedOrder);
    }
    Ok(p)
}

/// `[L]P == 0`, computed in variable time (the points are public) as
/// `[L - 1]P + P`.
fn torsion_free(p: &EdwardsPoint) -> bool {
    let l_minus_1 = -Scalar::ONE;
    let q = EdwardsPoint::vartime_double_scalar_mul_basepoint(&l_minus_1, p, &Scalar::ZERO);
    (q + p).is_identity()
}

/// A public key that passed [`check_point`].
pub fn check_key(bytes: &[u8; 32]) -> Result<VerifyingKey, SigError> {
    check_point(bytes)?;
    VerifyingKey::from_bytes(bytes).map_err(|_| SigError::NonCanonical)
}

/// The acceptance rule for one signature (see the module docs).
pub fn verify_one(key: &[u8; 32], message: &[u8], signature: &[u8; 64]) -> Result<(), SigError> {
    let vk = cached_key(key)?;
    verify_with(&vk, message, signature)
}

/// [`check_key`], remembered for the process (keys are few: a roster's).
fn cached_key(key: &[u8; 32]) -> Result<VerifyingKey, SigError> {
    use std::sync::{Mutex, OnceLock};
    type Keys = Mutex<HashMap<[u8; 32], Result<VerifyingKey, SigError>>>;
    static KEYS: OnceLock<Keys> = OnceLock::new();
    let keys = KEYS.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(r) = keys.lock().ok().and_then(|m| m.get(key).copied()) {
        return r;
    }
    let r = check_key(key);
    if let Ok(mut m) = keys.lock() {
        if m.len() > 4096 {
            m.clear();
        }
        m.insert(*key, r);
    }
    r
}

/// The encoding of the identity point (`y = 1`, `x = 0`).
const IDENTITY: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 1;
    b
};

/// The rule for a key that already passed [`check_key`].
///
/// Given such a key, `verify_strict`'s verdict is reached without decoding
/// `R`: `[S]B - [k]A` lies in the prime-order subgroup, so its encoding
/// equals the 32 bytes of `R` only when `R` is canonical and torsion-free,
/// and the only small-order point it can be is the identity. So the
/// cofactorless check of `verify` (which also requires `S < L`) plus a
/// refusal of the identity's encoding is the rule, and costs one point
/// decompression less (`tests/hardening.rs` checks the two agree).
fn verify_with(vk: &VerifyingKey, message: &[u8], signature: &[u8; 64]) -> Result<(), SigError> {
    if signature[..32] == IDENTITY {
        return Err(SigError::SmallOrder);
    }
    ed25519_dalek::Verifier::verify(vk, message, &Signature::from_bytes(signature))
        .map_err(|_| SigError::Invalid)
}

/// One signature to check: key, message, signature.
pub type Item<'a> = (&'a [u8; 32], &'a [u8], &'a [u8; 64]);

/// Checks each item with the acceptance rule; true where accepted.
///
/// Each item is checked on its own (no batch equation), but the last step
/// of the check, encoding `[S]B - [k]A` to compare it with `R`, needs a
/// field inversion; the items are taken in groups of 64 whose
/// inversions are done together (one inversion and three multiplications
/// per point instead of one inversion per point). The verdict is exactly
/// [`verify_one`]'s for every item (`tests/hardening.rs` checks it against
/// ed25519-dalek's `verify_strict`).
pub fn verify_each(items: &[Item<'_>]) -> Vec<bool> {
    let mut keys = KeyCache::default();
    let mut ok = vec![false; items.len()];
    let mut at = Vec::with_capacity(GROUP);
    let mut points = Vec::with_capacity(GROUP);
    for (g, group) in items.chunks(GROUP).enumerate() {
        at.clear();
        points.clear();
        for (j, (k, m, s)) in group.iter().enumerate() {
            let Some(key) = keys.point(k) else { continue };
            if let Some(p) = expected_r(&key, k, m, s) {
                at.push(g * GROUP + j);
                points.push(p);
            }
        }
        for (i, e) in at.iter().zip(EdwardsPoint::compress_batch_alloc(&points)) {
            ok[*i] = e.as_bytes()[..] == items[*i].2[..32];
        }
    }
    ok
}

/// Items whose encodings are done together in [`verify_each`].
const GROUP: usize = 64;

/// `[S]B - [k]A` with `k = SHA-512(R || A || M) mod L` (RFC 8032, section
/// 5.1.7), for a key that passed [`check_key`]: the point whose encoding
/// must equal `R`. `None` when the signature fails before that comparison:
/// `S` not below `L`, or `R` the identity's encoding (see [`verify_with`]).
fn expected_r(
    minus_a: &EdwardsPoint,
    key: &[u8; 32],
    message: &[u8],
    signature: &[u8; 64],
) -> Option<EdwardsPoint> {
    if signature[..32] == IDENTITY {
        return None;
    }
    let mut s = [0u8; 32];
    s.copy_from_slice(&signature[32..]);
    let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(s))?;
    let mut h = Sha512::new();
    h.update(&signature[..32]);
    h.update(key);
    h.update(message);
    let k = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
    Some(EdwardsPoint::vartime_double_scalar_mul_basepoint(
        &k, minus_a, &s,
    ))
}

/// Checks items with batch verification, giving exactly [`verify_each`]'s
/// answer: `R` is checked to be canonical and torsion-free first, keys are
/// checked once each, and a failing batch is checked again one by one.
pub fn verify_batch_exact(items: &[Item<'_>]) -> Vec<bool> {
    let mut keys = KeyCache::default();
    let mut ok = vec![false; items.len()];
    let mut candidates = Vec::with_capacity(items.len());
    for (i, (k, _, s)) in items.iter().enumerate() {
        let Some(vk) = keys.get(k) else { continue };
        let mut r = [0u8; 32];
        r.copy_from_slice(&s[..32]);
        if check_point(&r).is_err() {
            continue;
        }
        candidates.push((i, vk));
    }
    for chunk in candidates.chunks(BATCH) {
        let msgs: Vec<&[u8]> = chunk.iter().map(|(i, _)| items[*i].1).collect();
        let sigs: Vec<Signature> = chunk
            .iter()
            .map(|(i, _)| Signature::from_bytes(items[*i].2))
            .collect();
        let vks: Vec<VerifyingKey> = chunk.iter().map(|(_, vk)| *vk).collect();
        if ed25519_dalek::verify_batch(&msgs, &sigs, &vks).is_ok() {
            for (i, _) in chunk {
                ok[*i] = true;
            }
        } else {
            for (i, vk) in chunk {
                ok[*i] = verify_with(vk, items[*i].1, items[*i].2).is_ok();
            }
        }
    }
    ok
}

/// Signatures per batch.
const BATCH: usize = 64;

/// Keys checked once per call: the verifying key, and `-A` for
/// [`expected_r`].
#[derive(Default)]
struct KeyCache(HashMap<[u8; 32], Option<(VerifyingKey, EdwardsPoint)>>);

impl KeyCache {
    fn entry(&mut self, k: &[u8; 32]) -> Option<(VerifyingKey, EdwardsPoint)> {
        *self.0.entry(*k).or_insert_with(|| {
            let vk = cached_key(k).ok()?;
            Some((vk, -vk.to_edwards()))
        })
    }

    fn get(&mut self, k: &[u8; 32]) -> Option<VerifyingKey> {
        self.entry(k).map(|(vk, _)| vk)
    }

    fn point(&mut self, k: &[u8; 32]) -> Option<EdwardsPoint> {
        self.entry(k).map(|(_, minus_a)| minus_a)
    }
}

/// Which method [`verify_parallel`] uses on each core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// [`verify_each`].
    OneByOne,
    /// [`verify_batch_exact`].
    Batch,
}

/// The method the library uses (the faster on the machines measured; see
/// `docs/PERFORMANCE.md`). Both give the same answer.
pub const DEFAULT_METHOD: Method = Method::OneByOne;

/// The cores to use, asked once: `available_parallelism` reads the cgroup
/// files on every call, which costs about as much as a signature check.
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// Checks items on every core with `method`; true where accepted.
///
/// The work runs on kifu's own rayon pool of checker threads (`kifu-sig-N`,
/// one per core), whose threads live as long as the process: a batch of the server's writer or a chunk of an import costs no
/// thread start, and each worker keeps its allocator's warm heap (starting
/// two threads a batch cost a fifth of the batch's checking time in page
/// faults of fresh heaps; `docs/PERFORMANCE.md`).
pub fn verify_parallel(items: &[Item<'_>], method: Method) -> Vec<bool> {
    use rayon::prelude::*;
    // A batch of more than [`SPLIT_FROM`] items is split across the cores:
    // one more field inversion (about 3 µs) for half the batch's wait.
    let threads = cores().min(items.len().div_ceil(SPLIT_FROM).max(1));
    let Some(pool) = pool().filter(|_| threads > 1) else {
        return guarded(items, method);
    };
    let per = items.len().div_ceil(threads).max(1);
    let parts: Vec<Vec<bool>> =
        pool.install(|| items.par_chunks(per).map(|c| guarded(c, method)).collect());
    parts.concat()
}

/// The signature checkers: one thread per core, named `kifu-sig-N` (so a
/// profile or `top -H` tells their time from the rest), started on first
/// use. `None` if the threads could not be started: the caller then checks
/// on its own thread.
pub(crate) fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores())
            .thread_name(|i| format!("kifu-sig-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// A batch of more items than this is split (see [`verify_parallel`]).
const SPLIT_FROM: usize = 16;

/// `method` over `items`; a panic inside it accepts nothing.
fn guarded(items: &[Item<'_>], method: Method) -> Vec<bool> {
    let f = match method {
        Method::OneByOne => verify_each,
        Method::Batch => verify_batch_exact,
    };
    std::panic::catch_unwind(|| f(items)).unwrap_or_else(|_| vec![false; items.len()])
}
