//! What one follower of `GET /feed/stream` receives, read off the wire and
//! checked as it arrives: the HTTP/1.1 chunked body undone ([`Dechunk`]),
//! cut into lines ([`Lines`]), each line read as the Server-Sent Events
//! field it is ([`Field`]), and the venue cursors of the records tallied
//! ([`Tally`]) against the records the follower should receive: each one
//! once, in the venue's order.
//!
//! Pure: bytes in, values out, so the checks are tested without a server
//! (`tests/replica_crowd_check.rs`). Nothing is kept per record: 5,000
//! followers of thousands of records each would otherwise hold hundreds of
//! megabytes of cursors in the process that measures them.
#![allow(dead_code)]

use std::fmt;

/// The venue cursors one follower received, checked against the next one
/// it should receive.
///
/// The venue's cursors are its store's order, without gaps, and a replica
/// stores the records in the order the stream delivers them, which is the
/// order the venue published them: so a complete follower receives
/// `start, start + 1, ..., end - 1`, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// The venue cursor of the next record due.
    next: u64,
    /// Records received.
    received: u64,
    /// Records due that never came before a later one did.
    skipped: u64,
    /// Records received at or below one already received: a record
    /// received twice, or one out of order.
    backwards: u64,
}

/// What a follower's tally lacks for the records it should have received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fault {
    /// Records due that it did not receive.
    pub missing: u64,
    /// Records received twice or out of order.
    pub backwards: u64,
    /// Records received past the last one due.
    pub beyond: u64,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} missing, {} repeated or out of order, {} past the end",
            self.missing, self.backwards, self.beyond
        )
    }
}

impl Tally {
    /// A follower whose first record due has venue cursor `start`.
    pub fn new(start: u64) -> Tally {
        Tally {
            next: start,
            received: 0,
            skipped: 0,
            backwards: 0,
        }
    }

    /// One record received, by its venue cursor.
    pub fn see(&mut self, venue_cursor: u64) {
        self.received += 1;
        if venue_cursor < self.next {
            self.backwards += 1;
        } else {
            self.skipped += venue_cursor - self.next;
            self.next = venue_cursor + 1;
        }
    }

    /// The venue cursor of the next record due: every one below it was
    /// received or skipped.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Records received.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Whether the follower received every record below `end` from its
    /// start, each once and in order, and none past it.
    pub fn verdict(&self, end: u64) -> Result<(), Fault> {
        // A gap past `end` counts as missing too: it never happens unless
        // records past the end came, which is a fault anyway.
        let fault = Fault {
            missing: self.skipped + end.saturating_sub(self.next),
            backwards: self.backwards,
            beyond: self.next.saturating_sub(end),
        };
        if fault == Fault::default() {
            Ok(())
        } else {
            Err(fault)
        }
    }
}

/// The body of an HTTP/1.1 response in chunked transfer coding, undone a
/// piece at a time as the bytes arrive (RFC 9112, section 7.1).
#[derive(Debug, Clone, Default)]
pub struct Dechunk {
    state: ChunkState,
    size_line: Vec<u8>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum ChunkState {
    /// Reading a chunk's size line.
    #[default]
    Size,
    /// Inside a chunk: this many bytes of data left.
    Data(u64),
    /// After a chunk's data: up to the end of its line.
    DataEnd,
    /// After the last chunk: the body is over.
    Done,
}

/// A chunked body that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadChunk(pub String);

impl fmt::Display for BadChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad chunk size line {:?}", self.0)
    }
}

/// The longest chunk size line taken (hex digits and extensions).
const MAX_SIZE_LINE: usize = 256;

impl Dechunk {
    /// Appends to `out` the body's data in `input`.
    pub fn push(&mut self, mut input: &[u8], out: &mut Vec<u8>) -> Result<(), BadChunk> {
        while !input.is_empty() {
            match self.state {
                ChunkState::Size => match input.iter().position(|b| *b == b'\n') {
                    None => {
                        self.size_line.extend_from_slice(input);
                        input = &[];
                        if self.size_line.len() > MAX_SIZE_LINE {
                            return Err(self.bad());
                        }
                    }
                    Some(i) => {
                        self.size_line.extend_from_slice(&input[..i]);
                        input = &input[i + 1..];
                        let line = String::from_utf8_lossy(&self.size_line);
                        let hex = line.split(';').next().unwrap_or("").trim();
                        let size = u64::from_str_radix(hex, 16).map_err(|_| self.bad())?;
                        self.size_line.clear();
                        self.state = if size == 0 {
                            ChunkState::Done
                        } else {
                            ChunkState::Data(size)
                        };
                    }
                },
                ChunkState::Data(left) => {
                    let take = usize::try_from(left).unwrap_or(usize::MAX).min(input.len());
                    out.extend_from_slice(&input[..take]);
                    input = &input[take..];
                    let left = left - take as u64;
                    self.state = if left == 0 {
                        ChunkState::DataEnd
                    } else {
                        ChunkState::Data(left)
                    };
                }
                ChunkState::DataEnd => match input.iter().position(|b| *b == b'\n') {
                    None => input = &[],
                    Some(i) => {
                        input = &input[i + 1..];
                        self.state = ChunkState::Size;
                    }
                },
                // Trailers and anything after them are not the body.
                ChunkState::Done => input = &[],
            }
        }
        Ok(())
    }

    /// Whether the last chunk has come.
    pub fn done(&self) -> bool {
        self.state == ChunkState::Done
    }

    fn bad(&self) -> BadChunk {
        BadChunk(String::from_utf8_lossy(&self.size_line).into_owned())
    }
}

/// Bytes cut into lines, a line held back until its newline comes.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    partial: Vec<u8>,
}

impl Lines {
    /// Calls `each` with every line `input` completes (without its `\n`
    /// or `\r\n`).
    pub fn push(&mut self, mut input: &[u8], mut each: impl FnMut(&[u8])) {
        while let Some(i) = input.iter().position(|b| *b == b'\n') {
            let line = if self.partial.is_empty() {
                &input[..i]
            } else {
                self.partial.extend_from_slice(&input[..i]);
                &self.partial[..]
            };
            each(line.strip_suffix(b"\r").unwrap_or(line));
            self.partial.clear();
            input = &input[i + 1..];
        }
        self.partial.extend_from_slice(input);
    }
}

/// One line of an event stream, as far as a follower needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `id: N`: the replica's cursor of the record that follows (or, in a
    /// resume event, the one to resume after).
    Id(u64),
    /// `data: {...}` of a record, with its `venue_cursor`.
    Record {
        /// The record's cursor at the venue.
        venue_cursor: u64,
    },
    /// `data:` without a venue cursor (a line of a server that is not a
    /// replica, or of the resume event).
    DataWithoutVenueCursor,
    /// `event: resume`: the server asks the follower to come back with
    /// `Last-Event-ID`.
    Resume,
    /// Anything else (`retry:`, comments, the blank line ending an event).
    Other,
}

/// Reads one line of an event stream.
pub fn field(line: &[u8]) -> Field {
    if let Some(v) = line.strip_prefix(b"id:") {
        return match number(trim_start(v)) {
            Some(n) => Field::Id(n),
            None => Field::Other,
        };
    }
    if let Some(v) = line.strip_prefix(b"data:") {
        const KEY: &[u8] = b"\"venue_cursor\":";
        return match memchr::memmem::find(v, KEY) {
            Some(i) => match number(trim_start(&v[i + KEY.len()..])) {
                Some(n) => Field::Record { venue_cursor: n },
                None => Field::DataWithoutVenueCursor,
            },
            None => Field::DataWithoutVenueCursor,
        };
    }
    if let Some(v) = line.strip_prefix(b"event:") {
        if trim_start(v) == b"resume" {
            return Field::Resume;
        }
    }
    Field::Other
}

fn trim_start(v: &[u8]) -> &[u8] {
    let n = v.iter().take_while(|b| **b == b' ').count();
    &v[n..]
}

/// The decimal number at the start of `v` (digits up to the first other
/// byte).
fn number(v: &[u8]) -> Option<u64> {
    let digits = v.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&v[..digits]).ok()?.parse().ok()
}

/// An event stream's body as it arrives: undone from chunks when it is
/// chunked, cut into lines, each line read as its [`Field`].
#[derive(Debug, Clone, Default)]
pub struct EventBody {
    chunked: bool,
    dechunk: Dechunk,
    lines: Lines,
    data: Vec<u8>,
}

impl EventBody {
    /// A body in chunked transfer coding, or not (then it ends when the
    /// connection does).
    pub fn new(chunked: bool) -> EventBody {
        EventBody {
            chunked,
            ..EventBody::default()
        }
    }

    /// Calls `each` with every field `bytes` completes.
    pub fn push(&mut self, bytes: &[u8], mut each: impl FnMut(Field)) -> Result<(), BadChunk> {
        if self.chunked {
            self.data.clear();
            self.dechunk.push(bytes, &mut self.data)?;
            self.lines.push(&self.data, |l| each(field(l)));
        } else {
            self.lines.push(bytes, |l| each(field(l)));
        }
        Ok(())
    }

    /// Whether the body is over (its last chunk came).
    pub fn ended(&self) -> bool {
        self.chunked && self.dechunk.done()
    }
}
