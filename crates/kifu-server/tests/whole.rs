//! The whole store's archive is streamed game by game and equals what
//! `kifu export` writes; the whole store's verification, a run of games at
//! a time, equals verifying everything at once.

use std::sync::Arc;

use kifu_ledger::testkit::{Cast, ChainBuilder};
use kifu_ledger::{archive, verify_records, Body, Color, Head, Record};
use kifu_server::{whole, ConnLimits};
use kifu_store::Store;

mod common;

/// Games of different lengths: more records than one verification run
/// holds, and one game longer than a run by itself.
fn filled() -> (tempfile::TempDir, Arc<Store>) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let cast = Cast::new();
    let mut lengths: Vec<usize> = (0..240).map(|i| 1 + (i * 7) % 29).collect();
    lengths.push(whole::CHUNK_RECORDS + 10);
    for (i, n) in lengths.into_iter().enumerate() {
        let mut c = ChainBuilder::start(&cast.referee, cast.genesis(&format!("board {i}")), 0);
        for j in 0..n {
            let player = if j % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            c.push(&cast.recorder, Body::ClockPressed { player });
        }
        store.append_batch(c.records.clone()).unwrap();
    }
    (dir, store)
}

/// The archive as `kifu export` builds it (crates/kifu-cli/src/archive_cmd.rs).
fn as_export(store: &Store, at_ms: u64) -> Vec<u8> {
    let mut records: Vec<Record> = Vec::new();
    let mut heads = Vec::new();
    for g in store.games().unwrap() {
        let chain = store.read(&g, 0, None).unwrap();
        let last = chain.last().unwrap();
        heads.push((
            g,
            Head {
                seq: chain.len() as u64 - 1,
                hash: last.hash(),
            },
        ));
        records.extend(chain);
    }
    archive::write_with_manifest(&records, &heads, at_ms, None).unwrap()
}

#[test]
fn the_streamed_archive_and_verification_equal_the_whole_ones() {
    let (dir, store) = filled();
    let all = store.records_for_verification().unwrap();
    assert!(all.len() > whole::CHUNK_RECORDS + 3000);
    let at_once = verify_records(&all);
    assert!(at_once.ok());
    assert_eq!(whole::verify_store(&store).unwrap(), at_once);

    let server = common::start(Some((dir, store.clone())), ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut ureq::get(&format!("{url}/archive"))
            .call()
            .unwrap()
            .into_reader(),
        &mut bytes,
    )
    .unwrap();
    let verdict = archive::verify_archive(&bytes).unwrap();
    assert!(verdict.report().ok(), "{:?}", verdict.report().problems);
    let manifest = verdict.manifest().expect("a manifest").manifest.clone();
    assert_eq!(manifest.games.len(), 241);
    assert_eq!(bytes, as_export(&store, manifest.at_ms));

    let report: serde_json::Value = ureq::get(&format!("{url}/verify"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(report, kifu_game::document::verify_report_json(&at_once));
    assert_eq!(report["games"].as_array().unwrap().len(), 241);
}

#[test]
fn an_empty_store_streams_an_empty_archive_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(whole::verify_store(&store).unwrap(), verify_records(&[]));
    let heads = whole::heads(&store).unwrap();
    let start = whole::archive_start(&heads, 5).unwrap();
    let mut rest = Vec::new();
    whole::archive_records(&store, &heads, &mut |p| {
        rest.push(p);
        true
    })
    .unwrap();
    assert!(rest.is_empty());
    assert_eq!(start, as_export(&store, 5));
}
