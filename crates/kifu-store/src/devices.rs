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

/// Most requests kept; a further one is refused until some expire.
pub const MAX_REQUESTS: usize = 4096;

/// How long a request is kept: a tournament day. A device still waiting
/// after that asks again (the same key gets a new number); a list filled
/// by a flood of requests empties itself.
pub const REQUEST_TTL_MS: u64 = 12 * 60 * 60 * 1000;

/// One device's request, as kept and listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceRequest<S> {
    /// Short number given by the server, what `--device-request` takes.
    pub id: String,
    /// When the server first received it (ms since the Unix epoch, server's
    /// clock). A change of seat keeps it: a request's age never resets.
    pub at_ms: u64,
    /// The device's own clock when it signed the request now kept; a
    /// request of the same device signed no later changes nothing.
    #[serde(default)]
    pub signed_at_ms: u64,
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

/// Why a request is not kept.
#[derive(Debug, thiserror::Error)]
pub enum AddError {
    /// The list holds as many requests as it may, none expired.
    #[error("{max} device requests are kept already, none older than {} hours; ask the referee", ttl_ms / 3_600_000)]
    Full {
        /// Most requests kept.
        max: usize,
        /// How long a request is kept, ms.
        ttl_ms: u64,
    },
    /// The device asked for another seat in a request signed no later
    /// than the one kept: an old request sent again.
    #[error("this device's request of {kept} ms is newer than this one ({given} ms): an old request sent again changes nothing")]
    Stale {
        /// The device's time of the request kept.
        kept: u64,
        /// The device's time of this one.
        given: u64,
    },
    /// The list could not be written (it is as it was).
    #[error("the device requests could not be written: {0}")]
    Io(#[from] std::io::Error),
}

impl<S: Clone + PartialEq + Serialize> Kept<S> {
    /// The requests not expired at `now_ms` (kept less than `ttl_ms`),
    /// oldest first.
    pub fn unexpired(&self, now_ms: u64, ttl_ms: u64) -> Vec<DeviceRequest<S>> {
        self.requests
            .iter()
            .filter(|r| now_ms.saturating_sub(r.at_ms) < ttl_ms)
            .cloned()
            .collect()
    }

    /// Keeps `seat`, asked for at `now_ms` and signed by the device at
    /// `signed_at_ms`, in the list (in memory: the caller writes it,
    /// [`write()`], when it changed): requests kept `ttl_ms` or longer are
    /// forgotten first (a device still waiting asks again and gets a new
    /// number, and a list filled by a flood empties itself); a device that
    /// asked already (`same_device`, its key) gets its request back, with
    /// the seat it now asks for when this request is signed later than the
    /// one kept, and the same age (sending a request again never makes it
    /// younger); a new one is numbered, unless `max` requests are kept. The
    /// flags: a new request; the list changed.
    ///
    /// # Errors
    ///
    /// A full list, an older request of the same device.
    pub fn add(
        &mut self,
        seat: S,
        now_ms: u64,
        signed_at_ms: u64,
        max: usize,
        ttl_ms: u64,
        same_device: impl Fn(&S, &S) -> bool,
    ) -> Result<(DeviceRequest<S>, bool, bool), AddError> {
        self.requests
            .retain(|r| now_ms.saturating_sub(r.at_ms) < ttl_ms);
        if let Some(i) = self
            .requests
            .iter()
            .position(|r| same_device(&r.seat, &seat))
        {
            let kept = &self.requests[i];
            if kept.seat == seat && signed_at_ms <= kept.signed_at_ms {
                return Ok((kept.clone(), false, false));
            }
            if signed_at_ms <= kept.signed_at_ms {
                return Err(AddError::Stale {
                    kept: kept.signed_at_ms,
                    given: signed_at_ms,
                });
            }
            self.requests[i].seat = seat;
            self.requests[i].signed_at_ms = signed_at_ms;
            return Ok((self.requests[i].clone(), false, true));
        }
        if self.requests.len() >= max {
            return Err(AddError::Full { max, ttl_ms });
        }
        let r = DeviceRequest {
            id: (self.next + 1).to_string(),
            at_ms: now_ms,
            signed_at_ms,
            seat,
        };
        self.next += 1;
        self.requests.push(r.clone());
        Ok((r, true, true))
    }

    /// Withdraws the request of the device `same_device` names, when it was
    /// signed before `signed_at_ms`; the request withdrawn, if any (in
    /// memory: the caller writes the list when one was).
    ///
    /// # Errors
    ///
    /// An older withdrawal than the request kept.
    pub fn withdraw(
        &mut self,
        signed_at_ms: u64,
        same_device: impl Fn(&S) -> bool,
    ) -> Result<Option<DeviceRequest<S>>, AddError> {
        let Some(i) = self.requests.iter().position(|r| same_device(&r.seat)) else {
            return Ok(None);
        };
        if signed_at_ms <= self.requests[i].signed_at_ms {
            return Err(AddError::Stale {
                kept: self.requests[i].signed_at_ms,
                given: signed_at_ms,
            });
        }
        Ok(Some(self.requests.remove(i)))
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
    write_bytes(dir, &to_bytes(kept)?)
}

/// The list as [`write()`] writes it.
///
/// # Errors
///
/// A seat that does not serialise.
pub fn to_bytes<S: Serialize>(kept: &Kept<S>) -> Result<Vec<u8>, std::io::Error> {
    serde_json::to_vec_pretty(kept).map_err(std::io::Error::other)
}

/// Writes a list [`to_bytes`] made, as [`write()`] does.
///
/// # Errors
///
/// The file not written.
pub fn write_bytes(dir: &Path, bytes: &[u8]) -> Result<(), std::io::Error> {
    use std::io::Write as _;
    let path = dir.join(FILE);
    let tmp = path.with_extension("json.tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
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
                signed_at_ms: 4,
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

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Asked {
        key: String,
        seat: u8,
    }

    const DAY: u64 = 86_400_000;

    fn asked(key: &str, seat: u8) -> Asked {
        Asked {
            key: key.into(),
            seat,
        }
    }

    #[test]
    fn a_device_asks_once_and_the_list_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let mut kept: Kept<Asked> = Kept::default();
        let same = |a: &Asked, b: &Asked| a.key == b.key;
        let (r, new, _) = kept.add(asked("k1", 1), 10, 100, 2, DAY, same).unwrap();
        assert!(new);
        assert_eq!(r.id, "1");
        // The same request again, even signed later: its request, as old
        // as it was.
        let (again, new, changed) = kept.add(asked("k1", 1), 20, 100, 2, DAY, same).unwrap();
        assert!(!new && !changed);
        assert_eq!((again.id.as_str(), again.at_ms), ("1", 10));
        // Another seat asked by the same device, signed later: the request
        // is updated, and keeps its age.
        let (moved, new, changed) = kept.add(asked("k1", 2), 30, 101, 2, DAY, same).unwrap();
        assert!(!new && changed);
        assert_eq!(
            (moved.seat.seat, moved.at_ms, moved.signed_at_ms),
            (2, 10, 101)
        );
        // The first request sent again (a replay): refused, nothing changes.
        assert!(matches!(
            kept.add(asked("k1", 1), 35, 100, 2, DAY, same),
            Err(AddError::Stale {
                kept: 101,
                given: 100
            })
        ));
        // Its age is the first request's: a day after it, it is forgotten.
        assert!(kept.unexpired(10 + DAY, DAY).is_empty());
        kept.add(asked("k2", 1), 40, 1, 2, DAY, same).unwrap();
        assert!(matches!(
            kept.add(asked("k3", 1), 50, 1, 2, DAY, same),
            Err(AddError::Full { max: 2, .. })
        ));
        write(dir.path(), &kept).unwrap();
        let back: Kept<Asked> = read(dir.path()).unwrap();
        assert_eq!(back.requests, kept.requests);
        assert_eq!(back.next, 2);
        // A list that cannot be written: the error says so.
        assert!(write(&dir.path().join("gone"), &kept).is_err());
    }

    #[test]
    fn only_a_later_withdrawal_removes_a_request() {
        let mut kept: Kept<Asked> = Kept::default();
        let same = |a: &Asked, b: &Asked| a.key == b.key;
        kept.add(asked("k1", 1), 10, 100, 9, DAY, same).unwrap();
        assert!(matches!(
            kept.withdraw(100, |a| a.key == "k1"),
            Err(AddError::Stale { .. })
        ));
        assert_eq!(kept.requests.len(), 1);
        let gone = kept.withdraw(101, |a| a.key == "k1").unwrap().unwrap();
        assert_eq!(gone.id, "1");
        assert!(kept.requests.is_empty());
        assert!(kept.withdraw(102, |a| a.key == "k1").unwrap().is_none());
    }
}
