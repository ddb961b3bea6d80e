//! The streaming verifier (`kifu_ledger::stream`) reaches exactly the
//! verdict of verifying every record at once, whatever the order of the
//! records, the batch size, duplicates, forks, damaged records or a
//! manifest.

use kifu_ledger::archive::ArchiveVerdict;
use kifu_ledger::archive::{self, parse_head, HeadParse};
use kifu_ledger::stream::{Reread, StreamVerifier};
use kifu_ledger::testkit::{moves_game, sample_game, Cast};
use kifu_ledger::*;
use proptest::prelude::*;

/// The streamed verdict of an archive held in memory, verifying every
/// `batch` records.
fn streamed(bytes: &[u8], batch: usize) -> (VerifyReport, Option<archive::ManifestCheck>) {
    let HeadParse::Done(head, used) = parse_head(bytes).unwrap() else {
        panic!("the head is whole")
    };
    let mut v = StreamVerifier::with_batch(head, batch);
    let mut rest = &bytes[used..];
    while !rest.is_empty() {
        let at = (bytes.len() - rest.len()) as u64;
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        let end = (bytes.len() - more.len()) as u64;
        v.push(r, at..end);
        rest = more;
    }
    v.finish(|ranges| -> Result<Vec<Record>, ()> {
        let mut out = Vec::new();
        for r in ranges {
            let mut part = &bytes[r.start as usize..r.end as usize];
            while !part.is_empty() {
                let (rec, more) = Record::from_stored_prefix(part).unwrap();
                out.push(rec);
                part = more;
            }
        }
        Ok(out)
    })
    .unwrap()
}

fn whole(bytes: &[u8]) -> (VerifyReport, Option<archive::ManifestCheck>) {
    let v = archive::verify_archive(bytes).unwrap();
    (v.report().clone(), v.manifest().cloned())
}

/// Records of several games, with a fork, a duplicate, an unknown kind,
/// a record that does not decode and a record whose previous one is missing.
fn messy(cast: &Cast) -> (Vec<Record>, Vec<(Hash, Head)>) {
    let mut records = Vec::new();
    let mut heads = Vec::new();
    for i in 0..4 {
        let c = moves_game(cast, &format!("stream {i}"), 5 + i);
        heads.push((c.game, c.head));
        records.extend(c.records.iter().cloned());
    }
    let s = sample_game(cast, "stream sample");
    heads.push((s.game, s.head));
    records.extend(s.records.iter().cloned());
    // A fork at the sample's head, a duplicate, an unknown kind.
    records.push(s.next(
        &cast.black,
        Body::ClockPressed {
            player: Color::Black,
        },
    ));
    records.push(s.next(
        &cast.white,
        Body::ClockPressed {
            player: Color::White,
        },
    ));
    records.push(s.records[3].clone());
    let g = moves_game(cast, "stream unknown", 2);
    records.extend(g.records.iter().cloned());
    records.push(g.next_raw(&cast.referee, vec![0xc8, 0x01, 0x07]));
    // Not decodable, twice; and a gap.
    let broken = Record {
        event_bytes: vec![1, 2, 3],
        signature: [7; 64],
    };
    records.push(broken.clone());
    records.push(broken);
    let mut gap = moves_game(cast, "stream gap", 3);
    let last = gap.records.pop().unwrap();
    gap.records.pop();
    records.extend(gap.records.iter().cloned());
    records.push(last);
    (records, heads)
}

#[test]
fn a_streamed_verdict_is_the_whole_verdict_in_file_order_and_shuffled() {
    let cast = Cast::new();
    let (records, heads) = messy(&cast);
    let v1 = archive::write(&records);
    let v2 = archive::write_with_manifest(&records, &heads, 1, Some(&cast.director)).unwrap();
    let mut reversed = records.clone();
    reversed.reverse();
    let shuffled = archive::write_with_manifest(&reversed, &heads[1..], 1, None).unwrap();
    for bytes in [&v1, &v2, &shuffled] {
        let want = whole(bytes);
        assert!(!want.0.ok(), "the archive holds failures to keep");
        assert!(!want.0.duplicates.is_empty() && !want.0.forks.is_empty());
        for batch in [1, 2, 7, 64, 100_000] {
            assert_eq!(streamed(bytes, batch), want, "batch {batch}");
        }
    }
    // A clean archive, too.
    let s = sample_game(&cast, "clean");
    let clean =
        archive::write_with_manifest(&s.records, &[(s.game, s.head)], 1, Some(&cast.director))
            .unwrap();
    let want = whole(&clean);
    assert!(want.0.ok());
    assert_eq!(streamed(&clean, 3), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any order of the records, any batch size: the same verdict.
    #[test]
    fn any_order_any_batch_gives_the_whole_verdict(
        seed in any::<u64>(),
        batch in 1usize..50,
    ) {
        let cast = Cast::new();
        let (mut records, heads) = messy(&cast);
        // A deterministic shuffle from the seed.
        let mut x = seed | 1;
        for i in (1..records.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            records.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let bytes = archive::write_with_manifest(&records, &heads, 1, Some(&cast.director)).unwrap();
        prop_assert_eq!(streamed(&bytes, batch), whole(&bytes));
    }
}

#[test]
fn an_archive_written_game_by_game_is_held_a_batch_at_a_time() {
    let cast = Cast::new();
    let mut records = Vec::new();
    let mut heads = Vec::new();
    for i in 0..30 {
        let c = moves_game(&cast, &format!("held {i}"), 10);
        heads.push((c.game, c.head));
        records.extend(c.records);
    }
    let game_len = records.len() / 30;
    let bytes = archive::write_with_manifest(&records, &heads, 1, Some(&cast.director)).unwrap();
    let HeadParse::Done(head, used) = parse_head(&bytes).unwrap() else {
        panic!("the head is whole")
    };
    let batch = 50;
    let mut v = StreamVerifier::with_batch(head, batch);
    let mut rest = &bytes[used..];
    let mut most = 0;
    while !rest.is_empty() {
        let at = (bytes.len() - rest.len()) as u64;
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        v.push(r, at..(bytes.len() - more.len()) as u64);
        most = most.max(v.held());
        rest = more;
    }
    assert!(
        most < batch + game_len,
        "held {most} records; a batch is {batch}, a game {game_len}"
    );
    let (report, manifest) = v
        .finish(|_| -> Result<Vec<Record>, ()> { panic!("no game is met twice") })
        .unwrap();
    assert!(report.ok());
    assert_eq!(report.distinct, records.len() as u64);
    assert!(manifest.unwrap().signed);
}

/// The records of an archive read a second time ([`Reread`]): each
/// verdict holds whole games, signatures counted as checked, and together
/// they hold every distinct record once.
fn reread(
    records: &[Record],
    report: &VerifyReport,
    batch: usize,
) -> Result<Vec<ArchiveVerdict>, LedgerError> {
    let mut again = Reread::new(report, batch)?;
    let mut out = Vec::new();
    for r in records {
        if let Some(v) = again.push(r.clone())? {
            out.push(v);
        }
    }
    out.extend(again.finish()?);
    Ok(out)
}

#[test]
fn a_second_reading_gives_back_the_verified_games_whole_and_refuses_any_other_record() {
    let cast = Cast::new();
    let mut records = Vec::new();
    let mut games = Vec::new();
    for i in 0..5 {
        let c = moves_game(&cast, &format!("reread {i}"), 3 + i);
        games.push(c.records.clone());
        records.extend(c.records.iter().cloned());
    }
    // A duplicate, and two games interleaved.
    records.push(records[2].clone());
    let mut interleaved = records.clone();
    let tail = interleaved.split_off(games[0].len() + 2);
    interleaved.splice(1..1, tail);
    let report = verify_records(&records);
    assert!(report.ok() && !report.duplicates.is_empty());
    for order in [&records, &interleaved] {
        for batch in [1, 4, 1_000] {
            let verdicts = reread(order, &report, batch).unwrap();
            let mut got: Vec<Hash> = Vec::new();
            for v in &verdicts {
                assert!(v.signatures_checked() && v.report().ok());
                // Whole games: each starts at its genesis, in seq order.
                assert_eq!(
                    v.report().games.iter().map(|g| g.events).sum::<u64>(),
                    v.records().len() as u64
                );
                assert_eq!(
                    v.report(),
                    &verify_records(v.records()),
                    "the first reading's words"
                );
                got.extend(v.records().iter().map(Record::hash));
            }
            let mut want: Vec<Hash> = games.iter().flatten().map(Record::hash).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "batch {batch}");
        }
    }
    // The file changed between the readings: a record verified by nobody
    // (another signature on the same event is another record), a record
    // missing, or a report that is not clean.
    let mut forged = records.clone();
    forged[3].signature[0] ^= 1;
    let e = reread(&forged, &report, 4).unwrap_err().to_string();
    assert!(e.contains("the file changed after it was verified"), "{e}");
    let mut short = records.clone();
    short.remove(3);
    let e = reread(&short, &report, 4).unwrap_err().to_string();
    assert!(e.contains("no longer whole"), "{e}");
    let mut extra = records.clone();
    extra.push(moves_game(&cast, "reread other", 1).records[0].clone());
    let e = reread(&extra, &report, 4).unwrap_err().to_string();
    assert!(e.contains("on no chain that was verified"), "{e}");
    let bad = verify_records(&short);
    assert!(Reread::new(&bad, 4).is_err());
}

/// An archive whose every game is met twice (two exports one after the
/// other) is read again a group of games at a time, not whole: each
/// reading holds about a batch of records (or an eighth of the split
/// games' records), and the verdict is the whole file's.
#[test]
fn games_met_twice_are_read_again_a_group_at_a_time() {
    let cast = Cast::new();
    let mut records = Vec::new();
    let mut heads = Vec::new();
    for i in 0..40 {
        let c = moves_game(&cast, &format!("twice {i}"), 10);
        heads.push((c.game, c.head));
        records.extend(c.records.iter().cloned());
    }
    let once = records.len();
    records.extend(records.clone());
    let bytes = archive::write_with_manifest(&records, &heads, 1, None).unwrap();
    let HeadParse::Done(head, used) = parse_head(&bytes).unwrap() else {
        panic!("the head is whole")
    };
    let batch = 50;
    let mut v = StreamVerifier::with_batch(head, batch);
    let mut rest = &bytes[used..];
    while !rest.is_empty() {
        let at = (bytes.len() - rest.len()) as u64;
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        let end = (bytes.len() - more.len()) as u64;
        v.push(r, at..end);
        rest = more;
    }
    let mut readings = Vec::new();
    let got = v
        .finish(|ranges| -> Result<Vec<Record>, ()> {
            let mut out = Vec::new();
            for r in ranges {
                let mut part = &bytes[r.start as usize..r.end as usize];
                while !part.is_empty() {
                    let (rec, more) = Record::from_stored_prefix(part).unwrap();
                    out.push(rec);
                    part = more;
                }
            }
            readings.push(out.len());
            Ok(out)
        })
        .unwrap();
    assert_eq!(got, whole(&bytes));
    assert!(got.0.ok(), "{:?}", got.0.problems);
    assert_eq!(
        readings.iter().sum::<usize>(),
        2 * once,
        "every split record read once more"
    );
    // A group closes at the batch or at an eighth of the split records
    // (the larger), plus the game that crossed it (twice 22 records).
    let limit = batch.max((2 * once).div_ceil(8)) + 44;
    assert!(readings.len() > 1, "{readings:?}");
    assert!(
        readings.iter().all(|&n| n <= limit),
        "{readings:?} over {limit}"
    );
}

/// An archive carrying its tournament chain (`docs/FORMAT.md` section 7):
/// with [`StreamVerifier::carrying`], the chain's records are set apart for
/// the caller's check, even those met before its genesis (read again), the
/// manifest counts the chain, and the report's games are the games; without
/// it, the chain is verified as a game chain and fails.
#[test]
fn a_carried_tournament_chain_is_set_apart_for_the_callers_check() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/format/vectors.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = v["carried_cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "carried, signed by the organiser")
        .unwrap();
    let bytes = hex::decode(case["archive"].as_str().unwrap()).unwrap();
    let HeadParse::Done(_, used) = parse_head(&bytes).unwrap() else {
        panic!("the head is whole")
    };
    let mut records = Vec::new();
    let mut rest = &bytes[used..];
    while !rest.is_empty() {
        let (r, more) = Record::from_stored_prefix(rest).unwrap();
        records.push(r);
        rest = more;
    }
    let tournament_id = hex::decode(v["tournament_id"].as_str().unwrap()).unwrap();
    let in_tournament = |r: &Record| {
        r.hash()[..] == tournament_id[..] || r.header().unwrap().chain[..] == tournament_id[..]
    };
    let carried_count = records.iter().filter(|r| in_tournament(r)).count();
    assert!(carried_count > 2);
    // The tournament chain's records last first: met before their genesis.
    records.reverse();
    let mut heads: Vec<(Hash, Head)> = Vec::new();
    let manifest = archive::verify_archive(&bytes)
        .unwrap()
        .manifest()
        .cloned()
        .unwrap();
    for g in &manifest.manifest.games {
        heads.push((
            g.game,
            Head {
                seq: g.head_seq,
                hash: g.head_hash,
            },
        ));
    }
    let reversed = archive::write_with_manifest(&records, &heads, 1, None).unwrap();
    for batch in [3, 1_000] {
        let HeadParse::Done(head, used) = parse_head(&reversed).unwrap() else {
            panic!("the head is whole")
        };
        let mut s = StreamVerifier::with_batch(head, batch).carrying();
        let mut rest = &reversed[used..];
        while !rest.is_empty() {
            let at = (reversed.len() - rest.len()) as u64;
            let (r, more) = Record::from_stored_prefix(rest).unwrap();
            let end = (reversed.len() - more.len()) as u64;
            s.push(r, at..end);
            rest = more;
        }
        let mut given = Vec::new();
        let (report, manifest) = s
            .finish_carrying(
                |ranges| -> Result<Vec<Record>, ()> {
                    let mut out = Vec::new();
                    for r in ranges {
                        let mut part = &reversed[r.start as usize..r.end as usize];
                        while !part.is_empty() {
                            let (rec, more) = Record::from_stored_prefix(part).unwrap();
                            out.push(rec);
                            part = more;
                        }
                    }
                    Ok(out)
                },
                |carried| {
                    given = carried.to_vec();
                    let last = carried
                        .iter()
                        .max_by_key(|r| r.header().unwrap().seq)
                        .unwrap();
                    let mut id = [0u8; 32];
                    id.copy_from_slice(&tournament_id);
                    VerifyReport {
                        games: vec![GameSummary {
                            game: id,
                            events: carried.len() as u64,
                            head: Head {
                                seq: last.header().unwrap().seq,
                                hash: last.hash(),
                            },
                            head_at_ms: 0,
                            result_seq: None,
                            pending_appeals: vec![],
                            decided_appeals: vec![],
                        }],
                        distinct: carried.len() as u64,
                        ..Default::default()
                    }
                },
            )
            .unwrap();
        assert_eq!(given.len(), carried_count, "batch {batch}");
        assert!(given.iter().all(in_tournament));
        assert!(report.ok(), "batch {batch}: {:?}", report.problems);
        assert_eq!(report.games.len(), 1, "the games only");
        assert_eq!(report.distinct, records.len() as u64);
        assert!(manifest.is_some());
    }
    // Not carrying: the tournament chain is taken for a game chain.
    let (report, _) = streamed(&reversed, 1_000);
    assert!(!report.ok());
}
