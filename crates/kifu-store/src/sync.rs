//! Group commit: one sync for every append that committed before it.
//!
//! A sync is: sled's `flush()` (which writes its log with `sync_file_range`),
//! then `fsync` of every blob file sled wrote since the last sync and of the
//! `blobs` directory, then `fdatasync` of sled's data file. sled 0.34 writes
//! pages larger than about a quarter of a segment to `blobs/<lsn>` with plain
//! `write(2)` and never syncs them; the log only points at them, so the blobs
//! must reach the device before the log does.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

struct State {
    /// Appends committed to sled so far (a ticket counter).
    written: u64,
    /// Tickets known to be on stable storage.
    synced: u64,
    /// A sync is running.
    syncing: bool,
}

pub(crate) struct GroupSync {
    state: Mutex<State>,
    done: Condvar,
    file: File,
    dir: PathBuf,
    /// Blob files already synced (only the syncing thread touches it).
    blobs_synced: Mutex<HashSet<OsString>>,
    /// `KIFU_STORE_SYNC_TRACE`: a file that gets one line per blob file
    /// synced, so that a power-loss emulation knows what reached the device.
    trace: Option<PathBuf>,
}

impl GroupSync {
    pub(crate) fn new(file: File, dir: &Path) -> Self {
        GroupSync {
            state: Mutex::new(State {
                written: 0,
                synced: 0,
                syncing: false,
            }),
            done: Condvar::new(),
            file,
            dir: dir.to_path_buf(),
            blobs_synced: Mutex::new(HashSet::new()),
            trace: std::env::var_os("KIFU_STORE_SYNC_TRACE").map(PathBuf::from),
        }
    }

    /// Takes a ticket for something just committed.
    pub(crate) fn note_written(&self) -> u64 {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.written += 1;
        s.written
    }

    /// Syncs the blob files not synced yet, and their directory.
    fn sync_blobs(&self) -> std::io::Result<()> {
        let blobs = self.dir.join("blobs");
        let entries = match std::fs::read_dir(&blobs) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        let mut synced = self.blobs_synced.lock().unwrap_or_else(|p| p.into_inner());
        let mut present = HashSet::new();
        let mut new = Vec::new();
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            if !synced.contains(&name) {
                match File::open(entry.path()) {
                    Ok(f) => f.sync_all()?,
                    // Removed by sled's collection meanwhile.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(e),
                }
                new.push(name.clone());
            }
            present.insert(name);
        }
        if !new.is_empty() {
            File::open(&blobs)?.sync_all()?;
            if synced.is_empty() {
                // The blobs directory itself may be new.
                File::open(&self.dir)?.sync_all()?;
            }
            if let Some(t) = &self.trace {
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(t)?;
                for n in &new {
                    writeln!(f, "{}", n.to_string_lossy())?;
                }
            }
        }
        synced.retain(|n| present.contains(n));
        synced.extend(new);
        Ok(())
    }

    /// Waits until ticket `t` is durable, syncing if nobody else is.
    pub(crate) fn wait_durable_ticket(&self, db: &sled::Db, t: u64) -> std::io::Result<()> {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if s.synced >= t {
                return Ok(());
            }
            if !s.syncing {
                s.syncing = true;
                let target = s.written;
                drop(s);
                // sled's flush writes its log with sync_file_range; the blob
                // files, then fdatasync on the data file, reach the device.
                let r = db
                    .flush()
                    .map(|_| ())
                    .map_err(std::io::Error::other)
                    .and_then(|_| self.sync_blobs())
                    .and_then(|_| self.file.sync_data());
                s = self.state.lock().unwrap_or_else(|p| p.into_inner());
                s.syncing = false;
                if r.is_ok() && target > s.synced {
                    s.synced = target;
                }
                self.done.notify_all();
                r?;
            } else {
                s = self.done.wait(s).unwrap_or_else(|p| p.into_inner());
            }
        }
    }
}
