//! `Store::append_each`: many appends in one commit, each accepted or refused
//! on its own.

use kifu_ledger::testkit::{sample_game, Cast, ChainBuilder};
use kifu_ledger::*;
use kifu_store::{Store, StoreError};

mod common;
use common::reopen;

fn fresh() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    (dir, store)
}

fn press(c: &ChainBuilder, k: &Keypair, color: Color) -> Record {
    c.next(k, Body::ClockPressed { player: color })
}

#[test]
fn a_bad_record_fails_alone_and_the_others_commit() {
    let (dir, store) = fresh();
    let cast = Cast::new();
    let a = sample_game(&cast, "a");
    let b = sample_game(&cast, "b");
    // Genesis and events of two games mixed, plus four bad records.
    let mut batch = Vec::new();
    let mut tampered = press(&a, &cast.black, Color::Black);
    tampered.signature[5] ^= 1;
    let stranger = press(&b, &cast.stranger, Color::Black);
    let mut malformed = b.records[1].clone();
    malformed.event_bytes.push(0);
    let unknown_game = {
        let other = sample_game(&cast, "never stored");
        press(&other, &cast.black, Color::Black)
    };
    batch.extend(a.records.iter().cloned());
    batch.push(tampered);
    batch.extend(b.records.iter().cloned());
    batch.push(stranger);
    batch.push(malformed);
    batch.push(unknown_game);
    let out = store.append_each(batch);
    let na = a.records.len();
    let nb = b.records.len();
    assert_eq!(out.results.len(), na + nb + 4);
    assert_eq!(out.written, na + nb);
    for r in &out.results[..na] {
        assert!(r.as_ref().unwrap().new);
    }
    assert!(matches!(
        out.results[na],
        Err(StoreError::Ledger(LedgerError::BadSignature))
    ));
    assert!(matches!(
        out.results[na + 1 + nb],
        Err(StoreError::Ledger(LedgerError::Refused(_)))
    ));
    assert!(matches!(
        out.results[na + 2 + nb],
        Err(StoreError::Ledger(LedgerError::Malformed(_)))
    ));
    assert!(matches!(
        out.results[na + 3 + nb],
        Err(StoreError::NoSuchGame(_))
    ));
    // Cursors follow the order of the batch, without gaps.
    let cursors: Vec<u64> = out
        .results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|a| a.cursor)
        .collect();
    assert_eq!(cursors, (0..(na + nb) as u64).collect::<Vec<_>>());
    assert_eq!(store.next_cursor().unwrap(), (na + nb) as u64);
    drop(store);
    let store = reopen(dir.path());
    assert_eq!(store.read(&a.game, 0, None).unwrap(), a.records);
    assert_eq!(store.read(&b.game, 0, None).unwrap(), b.records);
    assert!(verify_records(&store.all_records().unwrap()).ok());
}

#[test]
fn two_appends_at_one_place_get_one_winner_and_one_conflict() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let a = sample_game(&cast, "a");
    store.append_batch(a.records.clone()).unwrap();
    let first = press(&a, &cast.black, Color::Black);
    let second = press(&a, &cast.white, Color::White);
    let out = store.append_each(vec![first.clone(), second, first.clone()]);
    let won = out.results[0].as_ref().unwrap();
    assert!(won.new);
    assert!(matches!(
        out.results[1],
        Err(StoreError::Ledger(LedgerError::Conflict { .. }))
    ));
    // The very same record again is a retry, not a conflict.
    let again = out.results[2].as_ref().unwrap();
    assert!(!again.new);
    assert_eq!(again.cursor, won.cursor);
    assert_eq!(out.written, 1);
    // And a retry in a later batch finds the stored one.
    let out = store.append_each(vec![first]);
    let later = out.results[0].as_ref().unwrap();
    assert!(!later.new);
    assert_eq!(later.cursor, won.cursor);
    assert_eq!(out.written, 0);
    assert!(verify_records(&store.all_records().unwrap()).ok());
}

#[test]
fn a_record_after_a_refused_one_of_its_game_does_not_link() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let mut a = sample_game(&cast, "a");
    store.append_batch(a.records.clone()).unwrap();
    let mut bad = a
        .push(
            &cast.black,
            Body::ClockPressed {
                player: Color::Black,
            },
        )
        .clone();
    bad.signature[0] ^= 1;
    let next = a
        .push(
            &cast.white,
            Body::ClockPressed {
                player: Color::White,
            },
        )
        .clone();
    let out = store.append_each(vec![bad, next]);
    assert!(out.results[0].is_err());
    assert!(matches!(
        out.results[1],
        Err(StoreError::Ledger(LedgerError::Conflict { .. }))
    ));
    assert_eq!(out.written, 0);
    assert_eq!(store.len(), a.records.len() - 2);
}

#[test]
fn bad_signatures_anywhere_in_a_large_batch_are_named_exactly() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    // 150 games, each with its genesis stored, then one event per game in one batch.
    let games: Vec<ChainBuilder> = (0..150)
        .map(|i| ChainBuilder::start(&cast.referee, cast.genesis(&format!("g{i}")), 0))
        .collect();
    store
        .append_batch(games.iter().map(|c| c.records[0].clone()).collect())
        .unwrap();
    let bad_at = [0usize, 74, 75, 76, 149];
    let batch: Vec<Record> = games
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut r = press(c, &cast.recorder, Color::Black);
            if bad_at.contains(&i) {
                r.signature[10] ^= 0x01;
            }
            r
        })
        .collect();
    let out = store.append_each(batch);
    for (i, r) in out.results.iter().enumerate() {
        if bad_at.contains(&i) {
            assert!(
                matches!(r, Err(StoreError::Ledger(LedgerError::BadSignature))),
                "{i}: {r:?}"
            );
        } else {
            assert!(r.as_ref().unwrap().new, "{i}");
        }
    }
    assert_eq!(out.written, 150 - bad_at.len());
    assert!(verify_records(&store.all_records().unwrap()).ok());
}

/// A writer takes a game's head from the standings cache when the store
/// shows it is still the last record. Records written by another path (an
/// import, which does not keep standings) move the head: the next batch
/// must link to the new head and refuse a record made for the old one.
#[test]
fn a_batch_after_an_import_into_the_same_game_links_to_the_new_head() {
    let (_dir, store) = fresh();
    let cast = Cast::new();
    let mut g = sample_game(&cast, "moved head");
    let n0 = g.records.len();
    let out = store.append_each(g.records.clone());
    assert!(out.results.iter().all(|r| r.is_ok()));
    // One more through the batch path: the cache now holds this head.
    let rec = g
        .push(
            &cast.recorder,
            Body::ClockPressed {
                player: Color::Black,
            },
        )
        .clone();
    let old_head_next = press(&g, &cast.recorder, Color::Black);
    let out = store.append_each(vec![rec]);
    assert!(out.results[0].as_ref().unwrap().new);
    // Three more through an import.
    for color in [Color::White, Color::Black, Color::White] {
        g.push(&cast.recorder, Body::ClockPressed { player: color });
    }
    let bytes = kifu_ledger::archive::write(&g.records);
    let verdict = kifu_ledger::archive::verify_archive(&bytes).unwrap();
    let report = store.import(&verdict, &mut |_, _| {}).unwrap();
    assert_eq!(report.written, 3);
    // A record made for the head before the import conflicts; the next
    // record after the imported ones is accepted.
    let next = press(&g, &cast.recorder, Color::Black);
    let out = store.append_each(vec![old_head_next, next]);
    assert!(
        matches!(
            out.results[0],
            Err(StoreError::Ledger(LedgerError::Conflict { .. }))
        ),
        "{:?}",
        out.results[0]
    );
    let placed = out.results[1].as_ref().unwrap();
    assert!(placed.new);
    assert_eq!(placed.seq, (n0 + 4) as u64);
    assert_eq!(store.head(&g.game).unwrap().unwrap().seq, (n0 + 4) as u64);
    assert!(kifu_ledger::verify_records(&store.records_for_verification().unwrap()).ok());
}

#[test]
fn a_prefix_is_resolved_by_seeking_as_listing_every_game_would() {
    use kifu_ledger::testkit::{Cast, ChainBuilder};
    let d = tempfile::tempdir().expect("tempdir");
    let store = kifu_store::Store::open(d.path()).expect("store");
    let cast = Cast::new();
    for i in 0..150 {
        let g = ChainBuilder::start(&cast.referee, cast.genesis(&format!("game {i}")), 1_000);
        store.append_batch(g.records.clone()).expect("append");
    }
    let games = store.games().expect("games");
    // What listing every game gives, for every prefix of one to three
    // digits and each game's own 12.
    let listed = |p: &str| -> Vec<[u8; 32]> {
        games
            .iter()
            .filter(|g| hex::encode(g).starts_with(p))
            .copied()
            .collect()
    };
    let mut prefixes: Vec<String> = (0..16u32)
        .flat_map(|a| (0..16u32).map(move |b| format!("{a:x}{b:x}")))
        .collect();
    prefixes.extend((0..16u32).map(|a| format!("{a:x}")));
    prefixes.extend(games.iter().map(|g| hex::encode(g)[..12].to_string()));
    prefixes.extend(games.iter().map(|g| hex::encode(g)[..3].to_uppercase()));
    for p in &prefixes {
        let want = listed(&p.to_ascii_lowercase());
        match (store.resolve(p), want.len()) {
            (Ok(g), 1) => assert_eq!(g, want[0], "{p}"),
            (Err(kifu_store::StoreError::NoSuchGame(_)), 0) => {}
            (Err(kifu_store::StoreError::Ambiguous(_, n)), m) if m > 1 => assert_eq!(n, m, "{p}"),
            (r, m) => panic!("{p}: {r:?} where listing finds {m}"),
        }
    }
    assert!(store.resolve(&"0".repeat(65)).is_err());
    assert!(store.resolve("xyz").is_err());
}
