//! The format's bounds (`kifu_ledger::bounds`, `docs/FORMAT.md` section
//! 10, "Bounds") and text read as characters: a tournament past a bound is
//! refused in words, and no text in any field makes a reader panic.

use kifu_ledger::{Body, Keypair, Participant, Registration, Role, SanctionKind};
use kifu_tournament::{mcmahon_genesis, verify_tournament_records, Chain};
use proptest::prelude::*;

fn director() -> Keypair {
    Keypair::from_seed([0x41; 32])
}

fn officials() -> Vec<Participant> {
    vec![Participant {
        role: Role::Director,
        name: "Director".into(),
        key: director().public(),
    }]
}

fn reg(id: &str, rank: &str) -> Registration {
    Registration {
        rank: rank.into(),
        ..kifu_ledger::testkit::registration(id)
    }
}

#[test]
fn a_tournament_of_four_billion_rounds_is_refused_in_words() {
    for rounds in [u32::MAX, 20_000_000, kifu_ledger::bounds::MAX_ROUNDS + 1] {
        let e = Chain::create(
            &director(),
            1,
            mcmahon_genesis("Big", "big", rounds, officials()),
        )
        .expect_err("refused");
        assert!(
            e.to_string().contains(&format!(
                "the number of rounds is {rounds}; it must be from 1 to 200"
            )),
            "{e}"
        );
    }
    let most = kifu_ledger::bounds::MAX_ROUNDS;
    assert!(Chain::create(
        &director(),
        1,
        mcmahon_genesis("Big", "big", most, officials())
    )
    .is_ok());
}

#[test]
fn a_ten_thousand_character_name_is_refused() {
    let name = "N".repeat(10_000);
    let e = Chain::create(&director(), 1, mcmahon_genesis(&name, "n", 3, officials()))
        .expect_err("refused");
    assert!(
        e.to_string()
            .contains("the tournament's name is 10000 characters long; the most is 200"),
        "{e}"
    );
    let mut chain = Chain::create(
        &director(),
        1,
        mcmahon_genesis("Open", "open", 3, officials()),
    )
    .unwrap();
    let mut long = reg("A", "2d");
    long.surname = "é".repeat(201);
    let e = chain
        .append(&director(), 2, Body::PlayerRegistered(long))
        .unwrap_err();
    assert!(e.to_string().contains("surname is 201 characters"), "{e}");
    assert_eq!(chain.records.len(), 1, "nothing written");
}

#[test]
fn a_sanction_naming_rounds_outside_the_tournament_is_refused() {
    let mut chain = Chain::create(
        &director(),
        1,
        mcmahon_genesis("Open", "open", 3, officials()),
    )
    .unwrap();
    chain
        .append(&director(), 2, Body::PlayerRegistered(reg("A", "2d")))
        .unwrap();
    for rounds in [vec![4], vec![1, 2, 3, 1]] {
        let e = chain
            .append(
                &director(),
                3,
                Body::TournamentSanction {
                    player: "A".into(),
                    kind: SanctionKind::RemovedFromRounds { rounds },
                    from_round: 1,
                    reason: "r".into(),
                },
            )
            .unwrap_err();
        assert!(e.to_string().contains("round"), "{e}");
    }
    assert_eq!(chain.records.len(), 2);
}

#[test]
fn a_rank_ending_in_a_multi_byte_character_is_refused_not_a_panic() {
    let mut chain = Chain::create(
        &director(),
        1,
        mcmahon_genesis("Open", "open", 3, officials()),
    )
    .unwrap();
    for rank in ["2\u{e9}", "2\u{212a}", "\u{e9}", "+2d"] {
        let e = chain
            .append(&director(), 2, Body::PlayerRegistered(reg("A", rank)))
            .unwrap_err();
        assert!(e.to_string().contains("is not a Go rank"), "{rank:?}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Arbitrary Unicode in every text field of a registration, signed and
    /// verified: refused or accepted, never a panic.
    #[test]
    fn any_text_in_a_registration_is_read_as_characters(
        id in "\\PC{0,6}",
        surname in "\\PC{0,6}",
        given in "\\PC{0,6}",
        rank in "\\PC{0,4}",
        country in "\\PC{0,4}",
        club in "\\PC{0,4}",
        pin in "\\PC{0,4}",
    ) {
        let mut chain =
            Chain::create(&director(), 1, mcmahon_genesis("Open", "open", 3, officials())).unwrap();
        let mut r = reg(&id, &rank);
        r.surname = surname;
        r.given = given;
        r.country = country;
        r.club = club;
        r.egd_pin = pin;
        // Forced into a file as a forger would, then verified.
        let d = director();
        let event = kifu_ledger::Event::next(
            chain.id(),
            chain.head(),
            2,
            d.public(),
            Body::PlayerRegistered(r.clone()),
        );
        let forged = event.sign(&d).unwrap();
        let mut records = chain.records.clone();
        records.push(forged);
        let report = verify_tournament_records(&records);
        let accepted = chain.append(&d, 2, Body::PlayerRegistered(r)).is_ok();
        prop_assert_eq!(report.ok(), accepted);
    }
}

#[test]
fn a_time_zone_is_an_iana_name_the_database_holds_and_the_last_one_stated_holds() {
    let mut c = Chain::create(
        &director(),
        1,
        mcmahon_genesis("Zoned", "zoned", 3, officials()),
    )
    .unwrap();
    assert_eq!(c.projection.time_zone, None);
    for (zone, words) in [
        (
            "Mars/Olympus_Mons",
            "is not one of the IANA time zone database",
        ),
        ("../etc/passwd", "is not an IANA name"),
        ("Europe/Berlin\u{202e}", "is not an IANA name"),
        (&"A/".repeat(40), "characters long"),
    ] {
        let e = c
            .append(
                &director(),
                2,
                Body::TimeZoneStated {
                    zone: zone.to_string(),
                },
            )
            .expect_err("refused");
        assert!(e.to_string().contains(words), "{zone:?}: {e}");
    }
    assert_eq!(c.head().seq, 0, "nothing written");
    for zone in [
        "Asia/Tokyo",
        "Europe/Berlin",
        "UTC",
        "America/Argentina/Salta",
    ] {
        c.append(&director(), 3, Body::TimeZoneStated { zone: zone.into() })
            .unwrap();
        assert_eq!(c.projection.time_zone.as_deref(), Some(zone));
    }
    // Only the director states it.
    let stranger = Keypair::from_seed([0x42; 32]);
    assert!(c
        .append(&stranger, 4, Body::TimeZoneStated { zone: "UTC".into() })
        .is_err());
    assert!(verify_tournament_records(&c.records).ok());
}
