//! The board devices' requests for seats kept in a data directory
//! (`device-requests.json`), as `kifu serve` takes them at `POST /devices`
//! and `kifu devices` lists them. What a request holds (`S`, the seat) and
//! how it enrols a key is the rules side's (`kifu_game::seat`); this module
//! keeps the list.
//!
//! The file is written whole to a temporary file, synced and renamed, so
//! that a crash leaves the old list or the new one.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The file the requests are kept in, in the data directory.
pub const FILE: &str = "device-requests.json";

/// One device's request, as kept and listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceRequest<S> {
    /// Short number given by the server, what `--device-request` takes.
    pub id: String,
    /// When the server received it (ms since the Unix epoch, server's clock).
    pub at_ms: u64,
    /// The key and the seat.
    #[serde(flatten)]
    pub seat: S,
}

/// The kept list: the requests and the last number given.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Kept<S> {
    /// The last number given to a request.
    pub next: u64,
    /// The requests, oldest first.
    pub requests: Vec<DeviceRequest<S>>,
}

impl<S> Default for Kept<S> {
    fn default() -> Self {
        Kept {
            next: 0,
            requests: Vec::new(),
        }
    }
}

/// Reads the list kept in the data directory `dir` (empty when the file is
/// absent).
///
/// # Errors
///
/// A file that cannot be read or is not a list of requests.
pub fn read<S: DeserializeOwned>(dir: &Path) -> Result<Kept<S>, std::io::Error> {
    let path = dir.join(FILE);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}: {e}", path.display()),
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Kept::default()),
        Err(e) => Err(e),
    }
}

/// Writes the list into the data directory `dir`: a temporary file, synced,
/// renamed over the old one, and the directory synced.
///
/// # Errors
///
/// The file not written.
pub fn write<S: Serialize>(dir: &Path, kept: &Kept<S>) -> Result<(), std::io::Error> {
    use std::io::Write as _;
    let path = dir.join(FILE);
    let tmp = path.with_extension("json.tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&serde_json::to_vec_pretty(kept).map_err(std::io::Error::other)?)?;
    f.sync_all()?;
    std::fs::rename(&tmp, &path)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Seat {
        key: String,
    }

    #[test]
    fn a_missing_file_is_an_empty_list_and_a_written_one_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let none: Kept<Seat> = read(dir.path()).unwrap();
        assert!(none.requests.is_empty());
        let kept = Kept {
            next: 1,
            requests: vec![DeviceRequest {
                id: "1".into(),
                at_ms: 5,
                seat: Seat { key: "k".into() },
            }],
        };
        write(dir.path(), &kept).unwrap();
        let back: Kept<Seat> = read(dir.path()).unwrap();
        assert_eq!(back.next, 1);
        assert_eq!(back.requests, kept.requests);
        std::fs::write(dir.path().join(FILE), b"not json").unwrap();
        assert!(read::<Seat>(dir.path()).is_err());
    }
}
