//! Stores on read-only media (an archived USB stick, a read-only mount, a
//! directory without write permission).
//!
//! sled 0.34 opens its files for writing and writes on opening (recovery,
//! its configuration, snapshots), so a read-only store cannot be opened in
//! place. [`read_only_reason`] decides whether a store is read-only, without
//! writing anything; [`Store::open_copy`] copies it to a private temporary
//! directory and opens the copy, which is removed when the store is dropped.
//! The original is only ever read.

use std::path::{Path, PathBuf};

use crate::{Store, StoreError};

/// Why the store in `dir` must not be opened for writing, or `None` when it
/// may be. Nothing is written. A store is read-only when:
///
/// - the process may not write the directory or sled's data file
///   (`access(2)` with `W_OK`: a read-only mount refuses even root), or
/// - the directory or the data file has no write permission bit at all
///   (`chmod -R a-w`), which is taken as the owner's statement that the
///   store is read-only, also for root, who could write it anyway.
pub fn read_only_reason(dir: &Path) -> Option<String> {
    for p in [dir.to_path_buf(), dir.join("db")] {
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        if meta.permissions().readonly() {
            return Some(format!("{} has no write permission", p.display()));
        }
        if let Err(e) = may_write(&p) {
            return Some(format!("{}: {e}", p.display()));
        }
    }
    None
}

#[cfg(unix)]
fn may_write(p: &Path) -> std::io::Result<()> {
    rustix::fs::access(p, rustix::fs::Access::WRITE_OK).map_err(std::io::Error::from)
}

#[cfg(not(unix))]
fn may_write(_p: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Removes the temporary copy when the store that uses it is dropped.
pub(crate) struct CopyGuard {
    /// The temporary copy.
    copy: PathBuf,
    /// The read-only store it was copied from.
    origin: PathBuf,
}

impl Drop for CopyGuard {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.copy);
    }
}

/// Copies the directory tree `from` into `to` (created), returning the bytes
/// copied. Only reads `from`.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<u64> {
    std::fs::create_dir_all(to)?;
    let mut bytes = 0;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            bytes += copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            bytes += std::fs::copy(entry.path(), &target)?;
            // The copy is ours to write, whatever the original's mode.
            let mut perm = std::fs::metadata(&target)?.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perm.set_readonly(false);
            std::fs::set_permissions(&target, perm)?;
        }
    }
    Ok(bytes)
}

impl Store {
    /// Opens a copy of the store in `dir`, made in a new private directory
    /// under `tmp` (removed when the store is dropped), and returns it with
    /// the bytes copied. The store in `dir` is only read; the copy is what
    /// [`Store::path`] names.
    ///
    /// # Errors
    ///
    /// [`StoreError::Damaged`] when `dir` holds no store; I/O errors while
    /// copying; as [`Store::open`].
    pub fn open_copy(dir: &Path, tmp: &Path) -> Result<(Store, u64), StoreError> {
        if !dir.join("db").is_file() {
            return Err(StoreError::Damaged(format!(
                "no kifu store in {}",
                dir.display()
            )));
        }
        std::fs::create_dir_all(tmp)?;
        let copy = unique_dir(tmp)?;
        let guard = CopyGuard {
            copy: copy.clone(),
            origin: dir.to_path_buf(),
        };
        let bytes = copy_tree(dir, &copy)?;
        let mut store = Store::open_inner(&copy, false)?;
        store.copy = Some(guard);
        Ok((store, bytes))
    }

    /// The read-only store this is a temporary copy of
    /// ([`Store::open_copy`]), if it is one.
    pub fn copy_of(&self) -> Option<&Path> {
        self.copy.as_ref().map(|g| g.origin.as_path())
    }

    /// Refuses every write to a copy of a read-only store: what is written
    /// there would vanish with the copy.
    pub(crate) fn writable(&self) -> Result<(), StoreError> {
        match &self.copy {
            Some(g) => Err(StoreError::ReadOnly(g.origin.display().to_string())),
            None => Ok(()),
        }
    }
}

/// A new directory under `tmp` that nobody else uses.
fn unique_dir(tmp: &Path) -> std::io::Result<PathBuf> {
    let pid = std::process::id();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    for i in 0..1000u32 {
        let p = tmp.join(format!("kifu-ro-{pid}-{nanos:x}-{i}"));
        match std::fs::create_dir(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free temporary directory name"))
}
