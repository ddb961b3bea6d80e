//! Group commit: one `fdatasync` for every append that committed before it.

use std::fs::File;
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
}

impl GroupSync {
    pub(crate) fn new(file: File) -> Self {
        GroupSync {
            state: Mutex::new(State {
                written: 0,
                synced: 0,
                syncing: false,
            }),
            done: Condvar::new(),
            file,
        }
    }

    /// Takes a ticket for something just committed.
    pub(crate) fn note_written(&self) -> u64 {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.written += 1;
        s.written
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
                // sled's flush writes its log with sync_file_range; fdatasync
                // on the data file then reaches the device.
                let r = db
                    .flush()
                    .map(|_| ())
                    .map_err(std::io::Error::other)
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
