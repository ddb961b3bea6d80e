//! A tournament chain verified whole (`docs/FORMAT.md` sections 6 and 10):
//! every problem is reported, forks are kept as evidence, duplicates are
//! counted once, and the order of the records does not matter.

use kifu_ledger::{
    Body, Event, Head, Keypair, Participant, Record, Registration, Role, SanctionKind,
};
use kifu_tournament::{
    mcmahon_genesis, verify_tournament_records, Chain, ChainError, MORE_THAN_ONE,
};
use proptest::prelude::*;

fn director() -> Keypair {
    Keypair::from_seed([0x41; 32])
}
fn referee() -> Keypair {
    Keypair::from_seed([0x42; 32])
}
fn outsider() -> Keypair {
    Keypair::from_seed([0x43; 32])
}

fn officials() -> Vec<Participant> {
    vec![
        Participant {
            role: Role::Director,
            name: "Director".into(),
            key: director().public(),
        },
        Participant {
            role: Role::Referee,
            name: "Referee".into(),
            key: referee().public(),
        },
    ]
}

fn reg(id: &str, rank: &str) -> Body {
    Body::PlayerRegistered(Registration {
        surname: format!("Surname {id}"),
        rank: rank.into(),
        ..kifu_ledger::testkit::registration(id)
    })
}

fn bye(round: u32, player: &str) -> Body {
    Body::ByeGiven {
        round,
        player: player.into(),
    }
}

/// A genesis and four registrations: seq 0 to 4.
fn chain() -> Chain {
    let mut c = Chain::create(
        &director(),
        1_000,
        mcmahon_genesis("Verify Open", "vo", 3, officials()),
    )
    .expect("genesis");
    for (i, (id, rank)) in [("P1", "2d"), ("P2", "1d"), ("P3", "1k"), ("P4", "3k")]
        .into_iter()
        .enumerate()
    {
        c.append(&director(), 10_000 + i as u64, reg(id, rank))
            .expect("register");
    }
    c
}

/// A record signed by `key` after `head` in `chain`.
fn after(c: &Chain, head: Head, key: &Keypair, at_ms: u64, body: Body) -> Record {
    Event::next(c.id(), head, at_ms, key.public(), body)
        .sign(key)
        .expect("signs")
}

#[test]
fn records_in_any_order_give_the_same_chain() {
    let c = chain();
    let mut shuffled = c.records.clone();
    shuffled.reverse();
    shuffled.swap(0, 2);
    let report = verify_tournament_records(&shuffled);
    assert!(report.ok(), "{:?}", report.problems);
    assert_eq!(report.chains.len(), 1);
    assert_eq!(report.chains[0].head, c.head());
    assert_eq!(report.chains[0].events, 5);
    let read = Chain::open(shuffled).expect("verifies in any order");
    assert_eq!(read.records, c.records, "read back in seq order");
    assert_eq!(read.projection, c.projection);
}

#[test]
fn a_duplicate_is_reported_once_and_is_not_a_failure() {
    let c = chain();
    let mut records = c.records.clone();
    records.push(c.records[2].clone());
    records.push(c.records[2].clone());
    let report = verify_tournament_records(&records);
    assert!(report.ok(), "{:?}", report.problems);
    assert_eq!(report.records, 7);
    assert_eq!(report.distinct, 5);
    assert_eq!(report.duplicates.len(), 1);
    assert_eq!(report.duplicates[0].seq, 2);
    assert_eq!(report.duplicates[0].copies, 3);
    assert_eq!(report.duplicates[0].hash, c.records[2].hash());
}

#[test]
fn a_fork_is_one_failure_with_both_records_as_evidence() {
    let c = chain();
    let head = c.head();
    let one = after(&c, head, &director(), 30_000, bye(1, "P1"));
    let two = after(&c, head, &director(), 30_000, bye(1, "P2"));
    let mut records = c.records.clone();
    records.push(two.clone());
    records.push(one.clone());
    let report = verify_tournament_records(&records);
    assert!(!report.ok());
    assert_eq!(report.forks.len(), 1, "{:?}", report.problems);
    let fork = &report.forks[0];
    assert_eq!(fork.seq, 5);
    let mut both = vec![one.hash(), two.hash()];
    both.sort();
    assert_eq!(fork.all, both);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(report.problems[0]
        .what
        .starts_with("fork: 2 validly signed"));
    // Each branch verifies on its own; the reported end is the lower hash.
    assert_eq!(report.chains[0].head.seq, 5);
    assert_eq!(report.chains[0].head.hash, both[0]);
    // The same report whatever the order.
    records.reverse();
    let again = verify_tournament_records(&records);
    assert_eq!(again.problems, report.problems);
    assert_eq!(again.chains, report.chains);
    assert!(matches!(
        Chain::open(records),
        Err(ChainError::NotVerified { count: 1, .. })
    ));
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let c = chain();
    let head = c.head();
    // seq 5 by the outsider: refused; seq 6 after it: not on the chain.
    let stranger = after(&c, head, &outsider(), 30_000, bye(1, "P1"));
    let after_stranger = after(
        &c,
        Head {
            seq: 5,
            hash: stranger.hash(),
        },
        &director(),
        30_001,
        bye(1, "P2"),
    );
    // Also at seq 5 (a fork with the outsider's record): a bye for a
    // player nobody registered, not a fact of the tournament.
    let unregistered = after(&c, head, &director(), 30_002, bye(1, "P9"));
    // A gap: seq 9 follows a record that is not there.
    let orphan = after(
        &c,
        Head {
            seq: 8,
            hash: [7; 32],
        },
        &director(),
        30_003,
        bye(2, "P3"),
    );
    let mut records = c.records.clone();
    records.extend([stranger, after_stranger, unregistered, orphan]);
    let report = verify_tournament_records(&records);
    let whats: Vec<&str> = report.problems.iter().map(|p| p.what.as_str()).collect();
    assert_eq!(report.problems.len(), 5, "{whats:#?}");
    assert_eq!(report.forks.len(), 1);
    assert_eq!(report.forks[0].seq, 5);
    assert!(whats
        .iter()
        .any(|w| w.contains("only the tournament director")));
    assert!(whats
        .iter()
        .any(|w| w.contains("not on the verified chain")));
    assert!(whats
        .iter()
        .any(|w| w.contains("not a fact of this tournament") && w.contains("P9")));
    assert!(whats.iter().any(|w| w.contains("gap")));
    // The longest verified branch still ends at the last registration.
    assert_eq!(report.chains[0].head, c.head());
}

#[test]
fn a_referee_may_sanction_and_a_time_going_backwards_is_a_warning() {
    let c = chain();
    let sanction = after(
        &c,
        c.head(),
        &referee(),
        1_000,
        Body::TournamentSanction {
            player: "P4".into(),
            kind: SanctionKind::RemovedFromTournament,
            from_round: 2,
            reason: "hindrance".into(),
        },
    );
    let mut records = c.records.clone();
    records.push(sanction);
    let report = verify_tournament_records(&records);
    assert!(report.ok(), "{:?}", report.problems);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert_eq!(report.warnings[0].seq, Some(5));
    let chain = report.chain.expect("the chain");
    assert_eq!(chain.projection.sanctions.len(), 1);
}

#[test]
fn two_valid_tournaments_in_one_file_are_a_failure_naming_both() {
    let one = chain();
    let two = Chain::create(
        &director(),
        2_000,
        mcmahon_genesis("Another Open", "ao", 2, officials()),
    )
    .expect("genesis");
    let mut records = one.records.clone();
    records.extend(two.records.clone());
    let report = verify_tournament_records(&records);
    assert!(!report.ok());
    // Each chain verifies on its own; the file holds both.
    assert_eq!(report.chains.len(), 2);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    let what = &report.problems[0].what;
    assert!(what.starts_with(MORE_THAN_ONE), "{what}");
    assert!(what.contains(&hex::encode(one.id())), "{what}");
    assert!(what.contains(&hex::encode(two.id())), "{what}");
    assert!(matches!(
        Chain::open(records),
        Err(ChainError::NotVerified { .. })
    ));
    // One chain alone is not such a failure.
    assert!(verify_tournament_records(&one.records).ok());
}

#[test]
fn a_game_chain_is_not_a_tournament_chain() {
    let cast = kifu_ledger::testkit::Cast::new();
    let g = kifu_ledger::testkit::sample_game(&cast, "not a tournament");
    let report = verify_tournament_records(&g.records);
    assert!(!report.ok());
    assert!(report.problems[0].what.starts_with("genesis:"));
    assert!(report.chain.is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn the_report_does_not_depend_on_the_order(seed in any::<u64>()) {
        let c = chain();
        let head = c.head();
        let mut records = c.records.clone();
        records.push(after(&c, head, &director(), 30_000, bye(1, "P1")));
        records.push(after(&c, head, &director(), 30_000, bye(1, "P2")));
        records.push(c.records[1].clone());
        let base = verify_tournament_records(&records);
        // A Fisher-Yates shuffle driven by the seed.
        let mut s = seed;
        for i in (1..records.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            records.swap(i, (s >> 33) as usize % (i + 1));
        }
        let got = verify_tournament_records(&records);
        prop_assert_eq!(&got.problems, &base.problems);
        prop_assert_eq!(&got.chains, &base.chains);
        prop_assert_eq!(&got.forks, &base.forks);
        prop_assert_eq!(&got.duplicates, &base.duplicates);
        prop_assert_eq!(got.chain.map(|c| c.records), base.chain.map(|c| c.records));
    }
}

/// The tournament chain of `fixtures/format/vectors.json` (kinds 44 to 52)
/// is a tournament as the projection reads it, not only a signed chain.
#[test]
fn the_format_vectors_tournament_chain_is_a_tournament() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/format/vectors.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("vectors")).expect("JSON");
    let hexed = |e: &serde_json::Value, k: &str| hex::decode(e[k].as_str().unwrap()).unwrap();
    let records: Vec<Record> = v["tournament_events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Record {
            event_bytes: hexed(e, "event_bytes"),
            signature: hexed(e, "signature").try_into().unwrap(),
        })
        .collect();
    let chain = Chain::open(records.clone()).expect("a tournament");
    assert_eq!(
        hex::encode(chain.id()),
        v["tournament_id"].as_str().unwrap()
    );
    let p = &chain.projection;
    assert_eq!(p.players.len(), 3);
    assert_eq!(p.player("P3").map(|r| r.rank.as_str()), Some("2k"));
    // Round 1 board 1, and round 3 board 1 whose colours were not noted.
    assert_eq!(p.boards.len(), 2);
    assert!(p.boards[&(1, 1)].colours_known);
    assert!(!p.boards[&(3, 1)].colours_known);
    assert_eq!(p.byes.len(), 1);
    assert_eq!(p.sanctions.len(), 1);
    let board = &p.boards[&(1, 1)];
    let cp = board.checkpoint.as_ref().expect("checkpointed");
    assert_eq!(hex::encode(cp.game), v["game_id"].as_str().unwrap());
    let report = verify_tournament_records(&records);
    assert!(report.ok() && report.warnings.is_empty(), "{:?}", report);
}
