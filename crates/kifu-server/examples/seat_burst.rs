//! A round's tablets asking for their seats at once: 700 devices'
//! requests sent together to a list already holding 3,000
//! (`kifu_server::device::Devices::add`), each on a thread of its own;
//! prints how long the last waited and the p50 / p99.
//!
//! `cargo run --release -p kifu-server --example seat_burst`
use kifu_game::seat::{SeatRequest, SignedRequest};
use kifu_ledger::{Keypair, Role};
use std::sync::Arc;
fn signed(i: u32) -> SignedRequest {
    let mut seed = [7u8; 32];
    seed[..4].copy_from_slice(&i.to_le_bytes());
    SignedRequest {
        seat: SeatRequest {
            key: Keypair::from_seed(seed).public(),
            role: Role::Black,
            name: format!("device {i}"),
            tournament: None,
            round: Some(1),
            board: Some(i + 1),
        },
        signed_at_ms: 1,
        withdraw: false,
    }
}
fn main() {
    let dir = tempfile::tempdir().unwrap();
    let d = Arc::new(
        kifu_server::device::Devices::open(dir.path())
            .unwrap()
            .per_client(100_000),
    );
    let t0 = 1_800_000_000_000u64;
    for i in 0..3000 {
        d.add(signed(i), t0, None).unwrap();
    }
    let start = std::time::Instant::now();
    let ts: Vec<_> = (3000..3700)
        .map(|i| {
            let d = d.clone();
            std::thread::spawn(move || {
                let s = std::time::Instant::now();
                d.add(signed(i), t0, None).unwrap();
                s.elapsed()
            })
        })
        .collect();
    let mut lat: Vec<_> = ts.into_iter().map(|t| t.join().unwrap()).collect();
    lat.sort();
    println!(
        "700 at once: all in {:?}, p50 {:?} p99 {:?}",
        start.elapsed(),
        lat[350],
        lat[693]
    );
}
