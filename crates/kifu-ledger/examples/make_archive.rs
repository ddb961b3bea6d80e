//! Writes a large archive for measuring verification and import:
//! `cargo run --release -p kifu-ledger --features testkit --example make_archive -- OUT EVENTS`
//! (19x19 games of 330 events each: moves with clock presses, a
//! resignation and the referee's result; no irregularity).

use kifu_ledger::archive;
use kifu_ledger::testkit::{finished_game, Cast};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(out), Some(n)) = (args.next(), args.next()) else {
        eprintln!("usage: make_archive OUT EVENTS");
        std::process::exit(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("EVENTS must be a number");
        std::process::exit(2);
    };
    let cast = Cast::new();
    let mut records = Vec::with_capacity(n);
    let mut heads = Vec::new();
    let mut g = 0;
    while records.len() < n {
        let c = finished_game(&cast, &format!("game {g}"), 163);
        heads.push((c.game, c.head));
        records.extend(c.records);
        g += 1;
    }
    let bytes =
        archive::write_with_manifest(&records, &heads, 0, Some(&cast.director)).expect("encodes");
    std::fs::write(&out, &bytes).expect("writes");
    eprintln!(
        "{out}: {g} games, {} events, {} bytes",
        records.len(),
        bytes.len()
    );
}
