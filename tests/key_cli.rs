//! End to end: a player's tablet is lost mid-game, the referee replaces its
//! key with `kifu key replace`, play continues with the new key; the old key
//! is refused; a key revoked by its holder signs nothing more; a replacement
//! signed without the power is refused; the whole game verifies in the
//! store, in an archive and in an appeal bundle.

mod common;

use std::path::Path;

use common::{err, ok, run, run_stdin};
use serde_json::{json, Value};

fn stone(color: &str, x: u8, y: u8) -> String {
    json!({"stone_placed": {"player": color, "stone": color, "point": {"x": x, "y": y}}})
        .to_string()
}

/// Appends a move signed with `key`; returns the output.
fn play(data: &Path, game: &str, key: &str, color: &str, x: u8, y: u8) -> std::process::Output {
    run_stdin(data, &["append", game, "--key", key], &stone(color, x, y))
}

#[test]
fn a_lost_tablet_is_replaced_by_the_referee_and_the_game_verifies_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let k = |n: &str| dir.path().join(n).display().to_string();
    for n in ["ann", "ann2", "bob", "bob2", "ref", "dir", "op"] {
        ok(&run(&data, &["keygen", &k(n)]));
    }
    let game = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &k("ref.key"),
            "--size",
            "9",
            "--black",
            &format!("Ann={}", k("ann.pub")),
            "--white",
            &format!("Bob={}", k("bob.pub")),
            "--referee",
            &format!("Ref={}", k("ref.pub")),
            "--director",
            &format!("Dir={}", k("dir.pub")),
            "--title",
            "key rotation",
        ],
    ))
    .trim()
    .to_string();
    ok(&play(&data, &game, &k("ann.key"), "black", 2, 2));
    ok(&play(&data, &game, &k("bob.key"), "white", 6, 6));

    // Bob may not replace Ann's key.
    let o = run(
        &data,
        &[
            "key",
            "replace",
            &game,
            "--participant",
            "Ann",
            "--new-key",
            &k("bob2.pub"),
            "--key",
            &k("bob.key"),
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("a referee or the director"), "{}", err(&o));

    // Ann's tablet is lost: the referee gives her seat a new key at seq 3.
    let o = ok(&run(
        &data,
        &[
            "key",
            "replace",
            &game,
            "--participant",
            "Ann",
            "--new-key",
            &k("ann2.pub"),
            "--key",
            &k("ref.key"),
            "--reason",
            "tablet lost",
        ],
    ));
    assert!(
        o.contains("appended seq 3") && o.contains("Ann (black)"),
        "{o}"
    );
    ok(&play(&data, &game, &k("ann2.key"), "black", 2, 6));
    // The lost tablet's key is refused from then on.
    let o = play(&data, &game, &k("ann.key"), "black", 4, 4);
    assert!(!o.status.success());
    assert!(err(&o).contains("replaced at seq 3"), "{}", err(&o));
    ok(&play(&data, &game, &k("bob.key"), "white", 6, 2));

    // Bob's key is compromised: he revokes it himself at seq 6.
    ok(&run(
        &data,
        &[
            "key",
            "revoke",
            &game,
            "--participant",
            "white",
            "--key",
            &k("bob.key"),
        ],
    ));
    ok(&play(&data, &game, &k("ann2.key"), "black", 4, 4));
    let o = play(&data, &game, &k("bob.key"), "white", 4, 2);
    assert!(!o.status.success());
    assert!(err(&o).contains("revoked at seq 6"), "{}", err(&o));
    // Only the director replaces the referee's key, not the referee for
    // someone else; the referee gives Bob a new key.
    let o = run(
        &data,
        &[
            "key",
            "replace",
            &game,
            "--participant",
            "Bob",
            "--new-key",
            &k("bob2.pub"),
            "--key",
            &k("ref.key"),
        ],
    );
    ok(&o);
    ok(&play(&data, &game, &k("bob2.key"), "white", 4, 2));

    // The store verifies, Bob's moves signed before the revocation included.
    let v = ok(&run(&data, &["verify"]));
    assert!(
        v.starts_with("ok: ")
            && v.contains("1 game, 10 events; every link, signature and role checks"),
        "{v}"
    );
    // The log names the new key as the participant it speaks for.
    let log = ok(&run(&data, &["log", &game]));
    let seq4 = log
        .lines()
        .find(|l| l.trim_start().starts_with("4 "))
        .unwrap();
    assert!(seq4.contains("Ann (Black)"), "{log}");
    let explain = ok(&run(&data, &["explain", &game]));
    assert!(explain.contains("is replaced by the key"), "{explain}");
    assert!(explain.contains("is revoked"), "{explain}");

    // In an archive.
    ok(&run(
        &data,
        &["export", "--out", &k("game.kifu"), "--game", &game],
    ));
    let o = run(&data, &["verify", &k("game.kifu")]);
    assert!(o.status.success(), "{}", err(&o));

    // In an appeal bundle.
    ok(&run(
        &data,
        &["checkpoint", "--key", &k("op.key"), "--out", &k("cp")],
    ));
    ok(&run(
        &data,
        &[
            "bundle",
            &game,
            "--out",
            &k("appeal.kifu-bundle"),
            "--checkpoint",
            &k("cp"),
        ],
    ));
    let o = run(&data, &["verify", &k("appeal.kifu-bundle")]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        common::out(&o).contains("these 10 events are exactly the game"),
        "{}",
        common::out(&o)
    );
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(k("appeal.kifu-bundle")).unwrap()).unwrap();
    assert_eq!(b["records"].as_array().unwrap().len(), 10);
}

#[test]
fn an_archive_with_a_move_signed_by_a_replaced_key_fails_verification_and_import() {
    use kifu_ledger::testkit::{Cast, ChainBuilder};
    use kifu_ledger::{archive, Body, Color, Point};
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("old key"), 1_767_225_600_000);
    let stone = |x| Body::StonePlaced {
        player: Color::Black,
        stone: Color::Black,
        point: Point { x, y: 2 },
    };
    c.push(&cast.black, stone(2));
    c.push(
        &cast.referee,
        Body::KeyReplaced {
            participant: cast.black.public(),
            new_key: cast.black_new.public(),
            reason: "tablet lost".into(),
        },
    );
    // The lost tablet signs a move after its replacement.
    c.push(&cast.black, stone(4));
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("old-key.kifu");
    std::fs::write(&file, archive::write(&c.records)).unwrap();
    let o = run(&data, &["verify", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", common::out(&o));
    let all = format!("{}{}", common::out(&o), err(&o));
    assert!(
        all.contains("seq 3") && all.contains("replaced at seq 2"),
        "{all}"
    );
    let o = run(&data, &["import", file.to_str().unwrap()]);
    assert!(!o.status.success());
}
