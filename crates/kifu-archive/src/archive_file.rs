//! An archive file verified streaming, with the tournament chain it
//! carries checked as a chain file is (`kifu_tournament::carried`): the
//! store reads the file a record at a time and sets the carried records
//! aside (`kifu_store::archive_file`); what they are is a tournament's
//! business, checked here.

use std::path::Path;

use kifu_ledger::archive::ManifestCheck;
use kifu_ledger::{LedgerError, VerifyReport};
use kifu_store::archive_file::verify_file_carrying;
use kifu_tournament::carried::{self, Carried};

/// What streaming an archive file gives: the report, the manifest's check
/// (as `kifu_ledger::archive::verify_archive` gives them for the whole
/// file), and the tournament chain the archive carries, if any.
pub type FileVerdict = (VerifyReport, Option<ManifestCheck>, Option<Carried>);

/// Verifies the archive `file` streaming it
/// (`kifu_store::archive_file::verify_file_carrying`). `each`: called with
/// the count of records read so far, every 65,536 records. The tournament
/// chain the archive carries, if any, is verified as a chain file is, and
/// returned with the organiser's keys it names.
///
/// # Errors
///
/// The file cannot be read, or its framing is broken (the whole file is
/// refused, as by `verify_archive`).
pub fn verify_file(file: &Path, each: &mut dyn FnMut(u64)) -> Result<FileVerdict, LedgerError> {
    let mut found = None;
    let (report, manifest) = verify_file_carrying(file, each, |records| {
        let (report, c) = carried::check(records);
        found = c;
        report
    })?;
    Ok((report, manifest, found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::archive;
    use kifu_ledger::testkit::{sample_game, Cast};
    use kifu_ledger::{Hash, Head, Record};
    use kifu_store::archive_file::{agrees_with_store, reread_file};
    use kifu_store::Store;

    #[test]
    fn a_file_streamed_gets_the_whole_files_verdict_and_broken_framing_its_words() {
        let cast = Cast::new();
        let dir = tempfile::tempdir().unwrap();
        let a = sample_game(&cast, "stream a");
        let b = sample_game(&cast, "stream b");
        // b's records inside a's: a is met twice.
        let mut records = a.records[..5].to_vec();
        records.extend(b.records.iter().cloned());
        records.extend(a.records[5..].iter().cloned());
        let bytes = archive::write_with_manifest(
            &records,
            &[(a.game, a.head), (b.game, b.head)],
            1,
            Some(&cast.director),
        )
        .unwrap();
        let p = dir.path().join("a.kifu");
        std::fs::write(&p, &bytes).unwrap();
        let whole = archive::verify_archive(&bytes).unwrap();
        let (report, manifest, _) = verify_file(&p, &mut |_| {}).unwrap();
        assert!(report.ok());
        assert_eq!(&report, whole.report());
        assert_eq!(manifest.as_ref(), whole.manifest());
        // Cut inside a record, inside the manifest, and a bad magic.
        for cut in [bytes.len() - 10, 20, 3] {
            std::fs::write(&p, &bytes[..cut]).unwrap();
            let want = archive::verify_archive(&bytes[..cut])
                .unwrap_err()
                .to_string();
            let got = verify_file(&p, &mut |_| {}).unwrap_err().to_string();
            assert_eq!(got, want, "cut at {cut}");
        }
        std::fs::write(&p, b"NOTKIFU!rest").unwrap();
        assert!(verify_file(&p, &mut |_| {}).is_err());
    }

    #[test]
    fn an_archive_read_again_gives_every_verified_record_once_and_nothing_else() {
        let cast = Cast::new();
        let dir = tempfile::tempdir().unwrap();
        let a = sample_game(&cast, "again a");
        let b = sample_game(&cast, "again b");
        let mut records = a.records.clone();
        records.extend(b.records.iter().cloned());
        let p = dir.path().join("again.kifu");
        std::fs::write(&p, archive::write(&records)).unwrap();
        let (report, _, _) = verify_file(&p, &mut |_| {}).unwrap();
        let mut got = Vec::new();
        reread_file::<LedgerError>(&p, &report, &[], &mut |v| {
            assert!(v.report().ok());
            got.extend(v.records().iter().map(Record::hash));
            Ok(())
        })
        .unwrap();
        let mut want: Vec<Hash> = records.iter().map(Record::hash).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want);
        // A file changed after it was verified is refused, not imported.
        let c = sample_game(&cast, "again c");
        std::fs::write(&p, archive::write(&c.records)).unwrap();
        let e = reread_file::<LedgerError>(&p, &report, &[], &mut |_| Ok(())).unwrap_err();
        assert!(
            e.to_string()
                .contains("the file changed after it was verified"),
            "{e}"
        );
        // A chain set aside by the first reading (a carried tournament
        // chain, absent from the report) is passed over when named.
        let (report_a, _, _) = {
            std::fs::write(&p, archive::write(&a.records)).unwrap();
            verify_file(&p, &mut |_| {}).unwrap()
        };
        let mut both = a.records.clone();
        both.extend(c.records.iter().cloned());
        std::fs::write(&p, archive::write(&both)).unwrap();
        let mut only_a = Vec::new();
        reread_file::<LedgerError>(&p, &report_a, &[c.game], &mut |v| {
            only_a.extend(v.records().iter().map(Record::hash));
            Ok(())
        })
        .unwrap();
        assert_eq!(only_a.len(), a.records.len());
    }

    #[test]
    fn a_store_agrees_with_an_archive_only_where_it_holds_the_same_records() {
        let cast = Cast::new();
        let dir = tempfile::tempdir().unwrap();
        let g = sample_game(&cast, "agrees");
        let p = dir.path().join("g.kifu");
        std::fs::write(&p, archive::write(&g.records)).unwrap();
        let (report, _, _) = verify_file(&p, &mut |_| {}).unwrap();
        // An empty store, and one holding a prefix of the same chain.
        let store = Store::open(&dir.path().join("store")).unwrap();
        assert!(agrees_with_store(&store, &p, &report, &[]).unwrap());
        store.append_batch(g.records[..3].to_vec()).unwrap();
        assert!(agrees_with_store(&store, &p, &report, &[]).unwrap());
        // A store whose chain went another way at seq 3.
        let other = Store::open(&dir.path().join("other")).unwrap();
        let mut prefix = g.clone();
        prefix.records.truncate(3);
        prefix.head = Head {
            seq: 2,
            hash: prefix.records[2].hash(),
        };
        let fork = prefix.next(
            &cast.black,
            kifu_ledger::Body::StonePlaced {
                player: kifu_ledger::Color::Black,
                stone: kifu_ledger::Color::Black,
                point: kifu_ledger::Point { x: 0, y: 0 },
            },
        );
        assert_ne!(fork.hash(), g.records[3].hash());
        other.append_batch(prefix.records.clone()).unwrap();
        other.append(fork).unwrap();
        assert!(!agrees_with_store(&other, &p, &report, &[]).unwrap());
    }
}
