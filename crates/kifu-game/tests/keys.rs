//! The projection follows the chain's roster when a key is replaced
//! (`docs/FORMAT.md`, "Keys along the chain").

use kifu_game::GameState;
use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::*;

#[test]
fn a_replaced_key_is_projected_as_the_same_player() {
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("keys"), 1_767_225_600_000);
    let stone = |c: Color, x, y| Body::StonePlaced {
        player: c,
        stone: c,
        point: Point { x, y },
    };
    c.push(&cast.black, stone(Color::Black, 4, 4));
    c.push(
        &cast.referee,
        Body::KeyReplaced {
            participant: cast.black.public(),
            new_key: cast.black_new.public(),
            reason: "tablet lost".into(),
        },
    );
    c.push(&cast.white, stone(Color::White, 2, 2));
    c.push(&cast.black_new, stone(Color::Black, 6, 6));
    c.push(
        &cast.referee,
        Body::KeyRevoked {
            key: cast.white.public(),
            reason: "compromised".into(),
        },
    );
    let events: Vec<Event> = c.records.iter().map(|r| r.decode().unwrap()).collect();
    let g = GameState::replay(&events);
    assert_eq!(g.roles_of(&cast.black_new.public()), vec![Role::Black]);
    assert!(g.roles_of(&cast.black.public()).is_empty());
    assert_eq!(g.events[4].signer, "Black (black)");
    assert!(g.events[2].summary.contains("replaced by the key"));
    assert!(g
        .consequences_of(2)
        .any(|n| n.what.starts_with("Black (black): a new key")));
    assert!(g
        .consequences_of(5)
        .any(|n| n.what.contains("revoked") && n.what.starts_with("White")));
    // The new key's move is a move like any other: no consequence flags it.
    assert!(g.consequences_of(4).all(|n| !n.what.contains("roster")));
}
