//! Opening the store, waiting briefly when another kifu process holds it.

use std::path::Path;
use std::time::{Duration, Instant};

use kifu_store::{Store, StoreError};

use crate::Failure;

/// How long to wait for another process to release the store.
const LOCK_WAIT: Duration = Duration::from_secs(15);

/// Opens the store in `dir`. sled allows one process at a time; when the
/// store is locked by another kifu process this retries for a while.
///
/// A store on read-only media is refused in one line: the commands that
/// call this write.
pub fn open(dir: &Path) -> Result<Store, Failure> {
    not_through_a_server()?;
    if dir.join("db").exists() {
        if let Some(why) = kifu_store::read_only_reason(dir) {
            return Err(Failure::new(format!(
                "the store in {} is read-only ({why}); this command writes to it. Read commands (verify, log, feed, games, replay, export) work on it",
                dir.display()
            )));
        }
    }
    let started = Instant::now();
    loop {
        match Store::open(dir) {
            Ok(s) => return Ok(s),
            Err(StoreError::Locked(_)) => {
                if let Some(line) = crate::endpoint::held_by_server(dir) {
                    return Err(Failure::new(line));
                }
                if started.elapsed() > LOCK_WAIT {
                    return Err(Failure::new(format!(
                        "the store in {} is in use by another process",
                        dir.display()
                    )));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(Failure::new(format!("{}: {e}", dir.display()))),
        }
    }
}

/// Opens the store only if it exists (for read-only commands).
///
/// A store on read-only media (a read-only mount, a directory without
/// write permission) cannot be opened in place, as sled writes on opening:
/// it is copied to a temporary directory (`TMPDIR`), with a one-line note
/// on stderr, and the copy is read; the copy refuses writes and is removed
/// when the command ends. The original is never written.
pub fn open_existing(dir: &Path) -> Result<Store, Failure> {
    not_through_a_server()?;
    if !dir.join("db").exists() {
        return Err(Failure::new(format!(
            "no kifu store in {} (create one with `kifu new-game` or `kifu demo`, or pass --data)",
            dir.display()
        )));
    }
    match kifu_store::read_only_reason(dir) {
        None => open(dir),
        Some(why) => {
            let tmp = std::env::temp_dir();
            let (store, bytes) = Store::open_copy(dir, &tmp)
                .map_err(|e| Failure::new(format!("{}: {e}", dir.display())))?;
            eprintln!(
                "note: the store in {} is read-only ({why}); reading a copy of it ({:.1} MB) in {}",
                dir.display(),
                bytes as f64 / 1e6,
                tmp.display()
            );
            Ok(store)
        }
    }
}

/// With a server named, no data directory is opened, let alone created:
/// the commands that act through a server do so without coming here
/// ([`crate::through`]), and this refuses any other way in.
fn not_through_a_server() -> Result<(), Failure> {
    match crate::endpoint::server() {
        Some(url) => Err(Failure::new(format!(
            "this command reads a data directory and cannot act through the server at {url}: run it with --data DIR without --server (unset KIFU_SERVER)"
        ))),
        None => Ok(()),
    }
}

/// Milliseconds since the Unix epoch, from the wall clock (the edge of the system).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
