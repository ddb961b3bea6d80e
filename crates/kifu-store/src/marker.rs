//! The note a running server leaves in its data directory, so that a command
//! run on the same directory can say who holds it and where to go instead.

use std::path::{Path, PathBuf};

/// The note's file name inside the data directory.
pub const FILE: &str = "kifu-serve.url";

fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Writes the server's URL into the data directory.
pub fn write(dir: &Path, url: &str) -> std::io::Result<()> {
    std::fs::write(path(dir), format!("{url}\n"))
}

/// The URL a server left, if any. A note left by a server that was killed
/// stays until the next server starts or stops; callers check that the
/// store is really held before they believe it.
pub fn read(dir: &Path) -> Option<String> {
    let s = std::fs::read_to_string(path(dir)).ok()?;
    let url = s.lines().next()?.trim().to_string();
    (!url.is_empty()).then_some(url)
}

/// Removes the note.
pub fn remove(dir: &Path) {
    let _ = std::fs::remove_file(path(dir));
}
