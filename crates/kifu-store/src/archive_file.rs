//! An archive file read a record at a time (`docs/FORMAT.md` section 7),
//! so that memory follows the games in flight, not the size of the file:
//! [`verify_file_carrying`] hands each record to the ledger's streaming
//! verifier (`kifu_ledger::stream`), reading a game met again later in the
//! file a second time, by byte range, at the end; [`reread_file`] reads a
//! verified archive again as verdicts of whole games for an import, and
//! [`agrees_with_store`] says whether the store holds another record where
//! the archive holds one (then the whole-file import keeps it as
//! evidence). The tournament chain an archive carries is set aside and
//! handed to the caller's check (a store knows games, not tournaments:
//! `kifu_archive::archive_file::verify_file` checks it as a chain file).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;

use kifu_ledger::archive::{self, ArchiveVerdict, HeadParse, ManifestCheck};
use kifu_ledger::stream::{Reread, StreamVerifier};
use kifu_ledger::{Hash, Head, LedgerError, Record, VerifyReport};

use crate::{Store, StoreError};

/// Reading buffer: large reads, few system calls.
const BUF: usize = 1 << 20;

/// Records in each verdict an import is given by [`reread_file`].
pub const IMPORT_BATCH: usize = 32_768;

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

fn io(e: std::io::Error) -> LedgerError {
    LedgerError::Archive(e.to_string())
}

/// One record at `at` (`u32 LE length || event bytes || signature`), or
/// `None` at the end of the file; `len` is the file's size, so that a length
/// beyond the end is refused before anything is allocated.
fn next_record(r: &mut impl Read, at: u64, len: u64) -> Result<Option<(Record, u64)>, LedgerError> {
    let mut n = [0u8; 4];
    let got = read_full(r, &mut n).map_err(io)?;
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
    let a = read_full(r, &mut event_bytes).map_err(io)?;
    let b = read_full(r, &mut signature).map_err(io)?;
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

/// Verifies the archive `file` streaming it. `each`: called with the count
/// of records read so far, every 65,536 records. The records of the
/// tournament chain the archive carries, if any, are set aside and given to
/// `carried`, whose report joins the archive's. The report and the
/// manifest's check, as `kifu_ledger::archive::verify_archive` gives them
/// for the whole file.
///
/// # Errors
///
/// The file cannot be read, or its framing is broken (the whole file is
/// refused, as by `verify_archive`).
pub fn verify_file_carrying(
    file: &Path,
    each: &mut dyn FnMut(u64),
    carried: impl FnOnce(&[Record]) -> VerifyReport,
) -> Result<(VerifyReport, Option<ManifestCheck>), LedgerError> {
    let (mut f, head) = RecordFile::open(file)?;
    let mut v = StreamVerifier::new(head).carrying();
    while let Some((record, at)) = f.next_record()? {
        v.push(record, at);
        if v.records().is_multiple_of(65_536) {
            each(v.records());
        }
    }
    v.finish_carrying(|ranges: &[Range<u64>]| f.reread(ranges), carried)
}

/// Reads the verified archive `file` again (the records `report` verified,
/// but the chains `skip` names) and gives `put` verdicts of whole games, up
/// to [`IMPORT_BATCH`] records each: each record is found on a verified
/// chain by its hash (`kifu_ledger::stream::Reread`), so what `put` gets is
/// exactly what was verified.
///
/// # Errors
///
/// What `put` returns, or the file read again is not the one verified.
pub fn reread_file<E: From<LedgerError>>(
    file: &Path,
    report: &VerifyReport,
    skip: &[Hash],
    put: &mut dyn FnMut(ArchiveVerdict) -> Result<(), E>,
) -> Result<(), E> {
    let mut again = Reread::new(report, IMPORT_BATCH)?.skipping(skip);
    let (mut f, _) = RecordFile::open(file)?;
    while let Some((record, _)) = f.next_record()? {
        if let Some(v) = again.push(record)? {
            put(v)?;
        }
    }
    if let Some(v) = again.finish()? {
        put(v)?;
    }
    Ok(())
}

/// True when every game of the verified archive `file` that the store
/// holds too agrees with it: the archive's chain and the stored one hold
/// the same record at the lower of their heads (hashes chain, so the same
/// records below it). Where the store's head is below the archive's, the
/// archive's record at that place is found by reading the archive once
/// more.
///
/// # Errors
///
/// The store or the file cannot be read.
pub fn agrees_with_store(
    store: &Store,
    file: &Path,
    report: &VerifyReport,
    skip: &[Hash],
) -> Result<bool, StoreError> {
    let mut below: HashMap<Hash, Head> = HashMap::new();
    for g in &report.games {
        let Some(h) = store.head(&g.game)? else {
            continue;
        };
        if h.seq >= g.head.seq {
            let stored = store.get(&g.game, g.head.seq)?;
            if stored.map(|r| r.hash()) != Some(g.head.hash) {
                return Ok(false);
            }
        } else {
            below.insert(g.game, h);
        }
    }
    if below.is_empty() {
        return Ok(true);
    }
    let mut agree = true;
    reread_file::<StoreError>(file, report, skip, &mut |v| {
        for r in v.records() {
            let Ok(link) = r.link() else { continue };
            let game = if link.seq == 0 { r.hash() } else { link.chain };
            if let Some(h) = below.get(&game) {
                if h.seq == link.seq && h.hash != r.hash() {
                    agree = false;
                }
            }
        }
        Ok(())
    })?;
    Ok(agree)
}

/// Writes `bytes` to `path` atomically: a temporary file beside it
/// (`PATH.partial`), synced, renamed over it, and the folder synced, so
/// that a crash leaves the old file or the new one, never a part.
///
/// # Errors
///
/// The file cannot be written, synced or renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    let mut f = File::create(&tmp)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", tmp.display())))?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_partial_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.bin");
        write_atomically(&p, b"first").unwrap();
        write_atomically(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        assert!(!dir.path().join("out.bin.partial").exists());
        assert!(write_atomically(&dir.path().join("no/such/dir/f"), b"x").is_err());
    }
}
