//! `kifu log`'s columns: a signer's name longer than its column is cut
//! (its role kept) so that the descriptions stay aligned.

mod common;
use common::*;

#[test]
fn a_sixty_character_name_keeps_the_columns_aligned() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let k = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    for n in ["b", "w", "r"] {
        ok(&run(&data, &["keygen", &k(n)]));
    }
    let long = "Maximilian Alexander Bartholomew of Hohenzollern-Sigmaringen";
    assert_eq!(long.chars().count(), 60);
    let game = ok(&run(
        &data,
        &[
            "new-game",
            "--key",
            &(k("r") + ".key"),
            "--size",
            "9",
            "--black",
            &format!("{long}={}.pub", k("b")),
            "--white",
            &format!("Bob={}.pub", k("w")),
            "--referee",
            &format!("Ref={}.pub", k("r")),
        ],
    ))
    .trim()
    .to_string();
    let mv = r#"{"stone_placed":{"player":"black","stone":"black","point":{"x":2,"y":2}}}"#;
    ok(&run_stdin(
        &data,
        &["append", &game, "--key", &(k("b") + ".key")],
        mv,
    ));
    let mv = r#"{"stone_placed":{"player":"white","stone":"white","point":{"x":6,"y":6}}}"#;
    ok(&run_stdin(
        &data,
        &["append", &game, "--key", &(k("w") + ".key")],
        mv,
    ));
    let log = ok(&run(&data, &["log", &game]));
    // Event lines: seq, timestamp, signer column, description.
    let events: Vec<&str> = log
        .lines()
        .filter(|l| l.len() > 5 && l[..4].trim().parse::<u64>().is_ok())
        .collect();
    assert_eq!(events.len(), 3, "{log}");
    let mut starts = Vec::new();
    let mut signers = Vec::new();
    for l in &events {
        // The signer column starts after the timestamp and its two spaces.
        let after_time = l[6..].find("  ").expect("timestamp") + 6 + 2;
        let rest: Vec<char> = l[after_time..].chars().collect();
        assert!(rest.len() > 29, "{l}");
        assert_eq!(rest[28], ' ', "the column is 28 wide: {l}");
        assert_ne!(rest[29], ' ', "the description follows at once: {l}");
        signers.push(rest[..28].iter().collect::<String>());
        starts.push(l[..after_time].chars().count() + 29);
    }
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{log}");
    assert_eq!(signers[0].trim_end(), "Ref (referee)");
    assert!(signers[1].ends_with("… (Black)"), "{:?}", signers[1]);
    assert!(
        signers[1].starts_with("Maximilian Alex"),
        "{:?}",
        signers[1]
    );
    assert_eq!(signers[2].trim_end(), "Bob (White)");
    // The JSON keeps the whole name.
    let j = ok(&run(&data, &["log", &game, "--json"]));
    assert!(j.contains(long), "{j}");
}
