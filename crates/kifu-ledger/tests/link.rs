//! `Record::link` reads the envelope's chain, seq, previous hash and signer
//! without the strict check: wherever the strict header reads, the two
//! agree, and on any bytes it returns an error rather than panicking.

use kifu_ledger::testkit::{committee_keys, every_kind, sample_game, Cast, ChainBuilder};
use kifu_ledger::Record;
use proptest::prelude::*;

fn every_kind_chain() -> ChainBuilder {
    let cast = Cast::new();
    let committee = committee_keys();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("link"), 1_767_225_600_000);
    for (k, body) in every_kind(&cast, &committee) {
        c.push(k, body);
    }
    c
}

fn agrees(r: &Record) {
    let h = r.header().unwrap();
    let l = r.link().unwrap();
    assert_eq!(
        (l.chain, l.seq, l.prev_hash, l.signer),
        (h.chain, h.seq, h.prev_hash, h.signer)
    );
}

#[test]
fn the_link_is_the_strict_headers_fields_for_every_kind() {
    let c = every_kind_chain();
    assert!(c.records.len() > 40, "{}", c.records.len());
    for r in &c.records {
        agrees(r);
    }
    let cast = Cast::new();
    for r in &sample_game(&cast, "link").records {
        agrees(r);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn changed_bytes_give_the_same_fields_or_an_error(
        which in 0usize..60,
        at in 0usize..400,
        byte in any::<u8>(),
        cut in 0usize..400,
    ) {
        let c = every_kind_chain();
        let mut r = c.records[which % c.records.len()].clone();
        let n = r.event_bytes.len();
        r.event_bytes[at % n] = byte;
        r.event_bytes.truncate(cut.max(n / 2));
        let link = r.link();
        if let Ok(h) = r.header() {
            let l = link.unwrap();
            prop_assert_eq!((l.chain, l.seq, l.prev_hash, l.signer), (h.chain, h.seq, h.prev_hash, h.signer));
        }
    }
}
