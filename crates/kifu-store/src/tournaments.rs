//! Where the tournament chains are kept: one archive file per tournament
//! beside the game store, `<data>/tournaments/<tournament id>.kifu` (the
//! archive framing of `docs/FORMAT.md`). The command line and the server
//! both find them here; reading a chain back (verifying it, projecting it)
//! is `kifu-tournament`'s.

use std::io::Write;
use std::path::{Path, PathBuf};

use kifu_ledger::{archive, Body, Hash, Record};

use crate::StoreError;

/// The folder of the tournament chains of the data directory `data`.
pub fn dir(data: &Path) -> PathBuf {
    data.join("tournaments")
}

/// The file of tournament `id`.
pub fn file_of(data: &Path, id: &Hash) -> PathBuf {
    dir(data).join(format!("{}.kifu", hex::encode(id)))
}

/// The tournament chain files of `data`, in name order; `None` when the
/// data directory has no tournament folder.
pub fn files(data: &Path) -> Option<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir(data)).ok()?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "kifu"))
        .collect();
    paths.sort();
    Some(paths)
}

/// The records of one tournament chain file, framing checked (the chain
/// itself is not verified here).
pub fn read(path: &Path) -> Result<Vec<Record>, StoreError> {
    let bytes = std::fs::read(path)?;
    Ok(archive::read(&bytes)?)
}

/// Replaces the file at `path` with `records`, durably: a temporary file
/// beside it is written and synced, then renamed over it, and the folder
/// is synced, so a crash leaves the old file or the new one, never a part.
pub fn write(path: &Path, records: &[Record]) -> Result<(), StoreError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let tmp = path.with_extension("kifu.tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&archive::write(records))?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    if let Some(parent) = path.parent() {
        if let Ok(d) = std::fs::File::open(parent) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Why [`find`] found no single tournament.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// The data directory has no tournament folder.
    #[error("no tournaments in {} (create one with `kifu tournament new`)", .0.display())]
    NoTournaments(PathBuf),
    /// Nothing matches.
    #[error("no tournament '{spec}'{}", unreadable_note(.unreadable))]
    NotFound {
        /// What was asked for.
        spec: String,
        /// Files of the folder that are not archives (they may be the one).
        unreadable: usize,
    },
    /// More than one tournament matches.
    #[error("'{0}' names more than one tournament; give more of the id")]
    Ambiguous(String),
    /// The file matched by its id cannot be read.
    #[error("{}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: StoreError,
    },
}

fn unreadable_note(unreadable: &usize) -> String {
    if *unreadable == 0 {
        return String::new();
    }
    format!(
        " among the files that read as archives ({unreadable} that do not: `kifu tournament verify ID` says why)"
    )
}

/// The short name of the tournament whose genesis is the first record of
/// `records` (`None` when it is not a tournament genesis).
pub fn short_name(records: &[Record]) -> Option<String> {
    let e = records.first()?.decode().ok()?;
    match e.body {
        Body::TournamentCreated(g) if e.seq == 0 => Some(g.short_name),
        _ => None,
    }
}

/// The tournament `spec` names in `data`: the one file whose genesis has
/// `spec` as its short name, else the one file whose id starts with `spec`
/// (hex, any case). A short name wins over an id prefix, so a short name
/// that happens to be hex (`d`, `cafe`) still names its tournament; a full
/// id never collides with a short name in practice. The file is found
/// whether or not its chain verifies (a file that is not an archive names
/// no tournament by its short name); the caller verifies the records.
pub fn find(data: &Path, spec: &str) -> Result<(PathBuf, Vec<Record>), FindError> {
    let paths = files(data).ok_or_else(|| FindError::NoTournaments(dir(data)))?;
    let mut named = Vec::new();
    let mut unreadable = 0;
    for p in &paths {
        let Ok(records) = read(p) else {
            unreadable += 1;
            continue;
        };
        if short_name(&records).as_deref() == Some(spec) {
            named.push((p.clone(), records));
        }
    }
    match named.len() {
        1 => return Ok(named.remove(0)),
        0 => {}
        _ => return Err(FindError::Ambiguous(spec.to_string())),
    }
    let want = spec.trim().to_ascii_lowercase();
    let by_id: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| {
            !want.is_empty()
                && p.file_stem()
                    .is_some_and(|s| s.to_string_lossy().starts_with(&want))
        })
        .collect();
    match by_id.as_slice() {
        [one] => {
            let records = read(one).map_err(|error| FindError::Read {
                path: (*one).clone(),
                error,
            })?;
            Ok(((*one).clone(), records))
        }
        [] => Err(FindError::NotFound {
            spec: spec.to_string(),
            unreadable,
        }),
        _ => Err(FindError::Ambiguous(spec.to_string())),
    }
}

/// The file of the tournament of `data` whose short name is `name`, if
/// one has it: a short name names one tournament of a data directory, so
/// a new tournament may not take one already used.
pub fn short_name_taken(data: &Path, name: &str) -> Option<PathBuf> {
    files(data)?
        .into_iter()
        .find(|p| read(p).is_ok_and(|r| short_name(&r).as_deref() == Some(name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_folder_is_no_list_and_files_are_sorted_kifu_only() {
        let d = tempfile::tempdir().expect("tempdir");
        assert_eq!(files(d.path()), None);
        std::fs::create_dir_all(dir(d.path())).expect("mkdir");
        for name in ["b.kifu", "a.kifu", "c.kifu.tmp", "notes.txt"] {
            std::fs::write(dir(d.path()).join(name), b"").expect("write");
        }
        let got: Vec<String> = files(d.path())
            .expect("folder")
            .iter()
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(got, ["a.kifu", "b.kifu"]);
    }

    #[test]
    fn written_records_read_back() {
        use kifu_ledger::testkit;
        let d = tempfile::tempdir().expect("tempdir");
        let cast = testkit::Cast::new();
        let records = testkit::moves_game(&cast, "t", 2).records;
        let path = file_of(d.path(), &[7u8; 32]);
        write(&path, &records).expect("write");
        assert_eq!(read(&path).expect("read"), records);
        assert!(!path.with_extension("kifu.tmp").exists());
    }
}
