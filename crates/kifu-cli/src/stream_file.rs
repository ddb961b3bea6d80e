//! `kifu verify FILE` reads an archive a record at a time and hands each to
//! the ledger's streaming verifier (`kifu_ledger::stream`), so that memory
//! follows the games in flight, not the size of the file. A game met again
//! later in the file is read a second time, by byte range, at the end.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

use kifu_ledger::archive::{self, HeadParse, ManifestCheck};
use kifu_ledger::stream::StreamVerifier;
use kifu_ledger::{LedgerError, Record, VerifyReport};

use crate::carried::Carried;

/// Reading buffer: large reads, few system calls.
const BUF: usize = 1 << 20;

/// Fills `buf` from `r`; the number of bytes read (short only at the end).
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Why a file is refused as a whole (the words of `kifu_ledger::archive::read`).
fn framing(at: u64, why: String) -> LedgerError {
    LedgerError::Archive(format!("at byte {at}: {}", LedgerError::Malformed(why)))
}

/// One record at `at` (`u32 LE length || event bytes || signature`), or
/// `None` at the end of the file; `len` is the file's size, so that a length
/// beyond the end is refused before anything is allocated.
fn next_record(r: &mut impl Read, at: u64, len: u64) -> Result<Option<(Record, u64)>, LedgerError> {
    let mut n = [0u8; 4];
    let got = read_full(r, &mut n).map_err(|e| LedgerError::Archive(e.to_string()))?;
    if got == 0 {
        return Ok(None);
    }
    if got < 4 {
        return Err(framing(at, "truncated record length".into()));
    }
    let body = u64::from(u32::from_le_bytes(n));
    let end = at + 4 + body + 64;
    if end > len {
        return Err(framing(
            at,
            format!(
                "truncated record: needs {} bytes, {} left",
                4 + body + 64,
                len - at
            ),
        ));
    }
    let mut event_bytes = vec![0u8; body as usize];
    let mut signature = [0u8; 64];
    let a = read_full(r, &mut event_bytes).map_err(|e| LedgerError::Archive(e.to_string()))?;
    let b = read_full(r, &mut signature).map_err(|e| LedgerError::Archive(e.to_string()))?;
    if a < event_bytes.len() || b < 64 {
        return Err(framing(at, "the file ended while it was read".into()));
    }
    Ok(Some((
        Record {
            event_bytes,
            signature,
        },
        end,
    )))
}

/// An archive file read a record at a time: its head, then each record
/// with the byte range it came from.
pub struct RecordFile {
    r: BufReader<File>,
    at: u64,
    len: u64,
}

impl RecordFile {
    /// Opens `file` and reads its head (the magic, and a v2 archive's
    /// manifest).
    ///
    /// # Errors
    ///
    /// The file cannot be read, or its head is not an archive's (in the
    /// words of `kifu_ledger::archive::read`).
    pub fn open(file: &Path) -> Result<(RecordFile, archive::ArchiveHead), LedgerError> {
        let f = File::open(file).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        let mut r = BufReader::with_capacity(BUF, f);
        let mut head = Vec::new();
        let (head, used) = loop {
            match archive::parse_head(&head)? {
                HeadParse::Done(h, used) => break (h, used),
                HeadParse::NeedMore(n) => {
                    let before = head.len();
                    if n as u64 > len {
                        // Let the whole-file reader word the truncation.
                        head.resize(len as usize, 0);
                        read_full(&mut r, &mut head[before..]).map_err(io)?;
                        return Err(archive::read(&head).err().unwrap_or_else(|| {
                            LedgerError::Archive("truncated archive head".into())
                        }));
                    }
                    head.resize(n, 0);
                    read_full(&mut r, &mut head[before..]).map_err(io)?;
                }
            }
        };
        // `parse_head` may have been given more bytes than the head: step back.
        let at = used as u64;
        r.seek(SeekFrom::Start(at)).map_err(io)?;
        Ok((RecordFile { r, at, len }, head))
    }

    /// The next record and its byte range; `None` at the end of the file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or its framing is broken there.
    pub fn next_record(&mut self) -> Result<Option<(Record, Range<u64>)>, LedgerError> {
        let at = self.at;
        Ok(next_record(&mut self.r, at, self.len)?.map(|(rec, end)| {
            self.at = end;
            (rec, at..end)
        }))
    }

    /// The records in `ranges` (whole records, as [`RecordFile::next_record`]
    /// gave them), in the order given.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or its framing is broken there.
    pub fn reread(&mut self, ranges: &[Range<u64>]) -> Result<Vec<Record>, LedgerError> {
        let mut out = Vec::new();
        let mut pos: Option<u64> = None;
        for range in ranges {
            // Forward within the buffer: no new read (an interleaved
            // archive asks for many short ranges).
            match pos {
                Some(p) if range.start >= p && range.start - p < BUF as u64 => {
                    self.r.seek_relative((range.start - p) as i64).map_err(io)?;
                }
                _ => {
                    self.r.seek(SeekFrom::Start(range.start)).map_err(io)?;
                }
            }
            let mut at = range.start;
            while at < range.end {
                match next_record(&mut self.r, at, self.len)? {
                    Some((rec, end)) => {
                        out.push(rec);
                        at = end;
                    }
                    None => break,
                }
            }
            pos = Some(at);
        }
        Ok(out)
    }
}

fn io(e: std::io::Error) -> LedgerError {
    LedgerError::Archive(e.to_string())
}

/// Verifies the archive `file` streaming it: the report and the manifest's
/// check, as `kifu_ledger::archive::verify_archive` gives them for the whole
/// file. `each`: called with the count of records read so far, every
/// 65,536 records.
///
/// # Errors
///
/// The file cannot be read, or its framing is broken (the whole file is
/// refused, as by `verify_archive`).
///
/// The tournament chain the archive carries, if any, is verified as a chain
/// file is (`crate::carried`), and returned with the organiser's keys it
/// names.
pub fn verify(
    file: &Path,
    each: &mut dyn FnMut(u64),
) -> Result<(VerifyReport, Option<ManifestCheck>, Option<Carried>), LedgerError> {
    let (mut f, head) = RecordFile::open(file)?;
    let mut v = StreamVerifier::new(head).carrying();
    while let Some((record, at)) = f.next_record()? {
        v.push(record, at);
        if v.records().is_multiple_of(65_536) {
            each(v.records());
        }
    }
    let mut carried = None;
    let (report, manifest) = v.finish_carrying(
        |ranges: &[Range<u64>]| f.reread(ranges),
        |records| {
            let (report, c) = crate::carried::check(records);
            carried = c;
            report
        },
    )?;
    Ok((report, manifest, carried))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};

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
        let (report, manifest, _) = verify(&p, &mut |_| {}).unwrap();
        assert!(report.ok());
        assert_eq!(&report, whole.report());
        assert_eq!(manifest.as_ref(), whole.manifest());
        // Cut inside a record, inside the manifest, and a bad magic.
        for cut in [bytes.len() - 10, 20, 3] {
            std::fs::write(&p, &bytes[..cut]).unwrap();
            let want = archive::verify_archive(&bytes[..cut])
                .unwrap_err()
                .to_string();
            let got = verify(&p, &mut |_| {}).unwrap_err().to_string();
            assert_eq!(got, want, "cut at {cut}");
        }
        std::fs::write(&p, b"NOTKIFU!rest").unwrap();
        assert!(verify(&p, &mut |_| {}).is_err());
    }
}
