//! Writes a large archive for measuring verification and import:
//! `cargo run --release -p kifu-ledger --features testkit --example make_archive -- OUT EVENTS`
//! (games of about 330 events each: moves with clock presses, a result and
//! its signatures).

use kifu_ledger::testkit::{moves_game, Cast};
use kifu_ledger::{archive, Body, Color, GameResult, Outcome, ResultBy};

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
        let mut c = moves_game(&cast, &format!("game {g}"), 163);
        let result = GameResult {
            outcome: Outcome::Win(Color::White),
            by: ResultBy::Resignation,
        };
        c.push(
            &cast.black,
            Body::Resigned {
                player: Color::Black,
                manner: kifu_ledger::Resignation::Spoken,
            },
        );
        c.push(&cast.referee, Body::ResultDeclared(result));
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
