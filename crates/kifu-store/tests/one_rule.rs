//! One acceptance rule for every way into a store: a record of a kind this
//! library does not know, signed by a roster key, is refused by
//! `Store::append`, by a batch (`append_each`, the server's path) and by
//! both imports alike, with nothing written; verification reports it as
//! not interpreted (`docs/FORMAT.md` section 6, "Unknown kinds").

use kifu_ledger::archive::{self, verify_archive, verify_archive_unsigned};
use kifu_ledger::testkit::{sample_game, Cast};
use kifu_store::{Store, StoreError};

fn unknown_kind_archive(cast: &Cast) -> (Vec<kifu_ledger::Record>, kifu_ledger::Record) {
    let c = sample_game(cast, "one rule");
    let newer = c.next_raw(&cast.referee, vec![0xc8, 0x01, 0x07]);
    (c.records, newer)
}

#[test]
fn a_roster_signed_record_of_an_unknown_kind_is_refused_by_append_batch_and_import_alike() {
    let cast = Cast::new();
    let (records, newer) = unknown_kind_archive(&cast);
    let mut all = records.clone();
    all.push(newer.clone());
    let bytes = archive::write(&all);
    // Verification reports it, without failing.
    let v = verify_archive(&bytes).unwrap();
    assert!(v.report().ok());
    assert_eq!(v.report().uninterpreted.len(), 1);

    // Append, one at a time.
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    s.append_batch(records.clone()).unwrap();
    let before = s.len();
    let e = s.append(newer.clone()).expect_err("append refuses");
    assert!(
        matches!(
            e,
            StoreError::Ledger(kifu_ledger::LedgerError::UnknownKind(200))
        ),
        "{e}"
    );
    // A batch (the server's path).
    let out = s.append_each(vec![newer.clone()]);
    let e = out.results[0].as_ref().expect_err("a batch refuses");
    assert!(e.to_string().contains("unknown event kind 200"), "{e}");
    assert_eq!(s.len(), before);

    // Both imports, into an empty store: nothing written.
    for checking in [false, true] {
        let d = tempfile::tempdir().unwrap();
        let s = Store::open(d.path()).unwrap();
        let r = if checking {
            s.import_checking(&verify_archive_unsigned(&bytes).unwrap(), &mut |_, _| {})
        } else {
            s.import(&verify_archive(&bytes).unwrap(), &mut |_, _| {})
        };
        match r {
            Err(StoreError::Unknown { seq, kind, .. }) => {
                assert_eq!((seq, kind), (records.len() as u64, 200));
            }
            other => panic!("import (checking: {checking}) gave {other:?}"),
        }
        assert_eq!(s.len(), 0, "nothing imported");
    }
}
