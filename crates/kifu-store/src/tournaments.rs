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

/// Which of `tournaments` (each its id in hex and its short name, `None`
/// when it is not known) `spec` names: the one whose short name is `spec`,
/// else the one whose id starts with `spec` (hex, any case). A short name
/// wins over an id prefix, so a short name that happens to be hex (`d`,
/// `cafe`) still names its tournament; a full id never collides with a
/// short name in practice. The index in `tournaments`.
pub fn choose(spec: &str, tournaments: &[(String, Option<String>)]) -> Result<usize, FindError> {
    let named: Vec<usize> = (0..tournaments.len())
        .filter(|i| tournaments[*i].1.as_deref() == Some(spec))
        .collect();
    match named.as_slice() {
        [one] => return Ok(*one),
        [] => {}
        _ => return Err(FindError::Ambiguous(spec.to_string())),
    }
    let want = spec.trim().to_ascii_lowercase();
    let by_id: Vec<usize> = (0..tournaments.len())
        .filter(|i| !want.is_empty() && tournaments[*i].0.starts_with(&want))
        .collect();
    match by_id.as_slice() {
        [one] => Ok(*one),
        [] => Err(FindError::NotFound {
            spec: spec.to_string(),
            unreadable: 0,
        }),
        _ => Err(FindError::Ambiguous(spec.to_string())),
    }
}

/// The tournament `spec` names in `data` ([`choose`], the id being the
/// file's name). The file is found whether or not its chain verifies (a
/// file that is not an archive names no tournament by its short name);
/// the caller verifies the records.
pub fn find(data: &Path, spec: &str) -> Result<(PathBuf, Vec<Record>), FindError> {
    let paths = files(data).ok_or_else(|| FindError::NoTournaments(dir(data)))?;
    // Each file is read once for its short name; only the records of the
    // files `spec` names by short name are kept, the others dropped as read.
    let mut known = Vec::with_capacity(paths.len());
    let mut named = std::collections::HashMap::new();
    let mut unreadable = 0;
    for (i, p) in paths.iter().enumerate() {
        let stem = p.file_stem().unwrap_or_default().to_string_lossy();
        let short = match read(p) {
            Ok(records) => {
                let short = short_name(&records);
                if short.as_deref() == Some(spec) {
                    named.insert(i, records);
                }
                short
            }
            Err(_) => {
                unreadable += 1;
                None
            }
        };
        known.push((stem.into_owned(), short));
    }
    let i = choose(spec, &known).map_err(|e| match e {
        FindError::NotFound { spec, .. } => FindError::NotFound { spec, unreadable },
        e => e,
    })?;
    let path = paths[i].clone();
    match named.remove(&i) {
        Some(records) => Ok((path, records)),
        None => match read(&path) {
            Ok(records) => Ok((path, records)),
            Err(error) => Err(FindError::Read { path, error }),
        },
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

/// The one writer of a data directory's tournament chain files inside a
/// process (a `kifu serve`): writes to one tournament are serialised (a
/// lock per tournament, so two directors' records are checked against the
/// head each other left), creations are serialised among themselves (so a
/// short name names one tournament), and every file is replaced whole and
/// durably by [`write()`].
#[derive(Debug)]
pub struct Keeper {
    data: PathBuf,
    create: std::sync::Mutex<()>,
    locks: std::sync::Mutex<std::collections::HashMap<Hash, std::sync::Arc<std::sync::Mutex<()>>>>,
}

/// Why [`Keeper::create`] wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// Another tournament of the data directory has the short name.
    #[error("the short name '{name}' is already the tournament {other}'s; choose another")]
    ShortNameTaken {
        /// The short name.
        name: String,
        /// The other tournament's id (hex).
        other: String,
    },
    /// A tournament with this id exists.
    #[error("the tournament {0} exists already")]
    Exists(String),
    /// Writing failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Keeper {
    /// The keeper of the chains of the data directory `data`.
    pub fn new(data: &Path) -> Keeper {
        Keeper {
            data: data.to_path_buf(),
            create: std::sync::Mutex::new(()),
            locks: std::sync::Mutex::new(std::collections::HashMap::new()),
        }
    }

    /// The data directory.
    pub fn data(&self) -> &Path {
        &self.data
    }

    fn lock_of(&self, id: &Hash) -> std::sync::Arc<std::sync::Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        locks.entry(*id).or_default().clone()
    }

    /// Writes the first file of tournament `id` (its genesis and any
    /// records after it), unless its short name or its id is taken.
    pub fn create(
        &self,
        id: &Hash,
        short_name: &str,
        records: &[Record],
    ) -> Result<PathBuf, CreateError> {
        let _one = self.create.lock().unwrap_or_else(|p| p.into_inner());
        let path = file_of(&self.data, id);
        if path.exists() {
            return Err(CreateError::Exists(hex::encode(id)));
        }
        if let Some(p) = short_name_taken(&self.data, short_name) {
            return Err(CreateError::ShortNameTaken {
                name: short_name.to_string(),
                other: p
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
            });
        }
        let lock = self.lock_of(id);
        let _held = lock.lock().unwrap_or_else(|p| p.into_inner());
        write(&path, records)?;
        Ok(path)
    }

    /// Reads tournament `id`'s records, lets `change` decide the records
    /// to keep (and what to answer), and writes them when they differ;
    /// no other [`Keeper::update`] of the same tournament runs meanwhile.
    /// A refusal from `change` writes nothing.
    pub fn update<T, E: From<StoreError>>(
        &self,
        id: &Hash,
        change: impl FnOnce(Vec<Record>) -> Result<(Vec<Record>, T), E>,
    ) -> Result<T, E> {
        let lock = self.lock_of(id);
        let _held = lock.lock().unwrap_or_else(|p| p.into_inner());
        let path = file_of(&self.data, id);
        let before = read(&path)?;
        let (after, answer) = change(before.clone())?;
        if after != before {
            write(&path, &after)?;
        }
        Ok(answer)
    }
}

/// The store's games, as whatever reads games whole reads them (a
/// tournament's checkpoints): their heads, geneses and records.
impl kifu_ledger::Games for crate::Store {
    type Error = StoreError;

    fn head(&self, game: &Hash) -> Result<Option<kifu_ledger::Head>, StoreError> {
        crate::Store::head(self, game)
    }

    fn genesis(&self, game: &Hash) -> Result<std::sync::Arc<kifu_ledger::Genesis>, StoreError> {
        crate::Store::genesis(self, game)
    }

    fn creator(&self, game: &Hash) -> Result<kifu_ledger::PublicKey, StoreError> {
        crate::Store::creator(self, game)
    }

    fn read(&self, game: &Hash) -> Result<Vec<Record>, StoreError> {
        crate::Store::read(self, game, 0, None)
    }

    fn games(&self) -> Result<Vec<Hash>, StoreError> {
        crate::Store::games(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_s_games_are_read_whole_for_a_checkpoint() {
        use kifu_ledger::testkit::{sample_game, Cast};
        use kifu_ledger::Games;
        let d = tempfile::tempdir().expect("tempdir");
        let store = crate::Store::open(d.path()).expect("store");
        let g: &dyn Games<Error = StoreError> = &store;
        assert_eq!(g.games().expect("games"), Vec::<Hash>::new());
        let c = sample_game(&Cast::new(), "checkpointed");
        store.append_batch(c.records.clone()).expect("append");
        assert_eq!(g.games().expect("games"), vec![c.game]);
        assert_eq!(g.head(&c.game).expect("head"), Some(c.head));
        assert_eq!(g.read(&c.game).expect("records"), c.records);
        assert_eq!(g.genesis(&c.game).expect("genesis").title, "checkpointed");
        assert_eq!(g.head(&[0; 32]).expect("head"), None);
    }

    #[test]
    fn a_short_name_wins_over_an_id_prefix_and_two_matches_are_refused() {
        let t = |id: &str, name: Option<&str>| (id.to_string(), name.map(String::from));
        let list = [
            t("cafe01", Some("spring")),
            t("d00d02", Some("cafe")),
            t("cafe03", None),
        ];
        assert_eq!(choose("cafe", &list).expect("named"), 1);
        assert_eq!(choose("spring", &list).expect("named"), 0);
        assert_eq!(choose("CAFE03", &list).expect("by id"), 2);
        assert_eq!(choose("d00", &list).expect("by id"), 1);
        assert!(matches!(choose("caf", &list), Err(FindError::Ambiguous(_))));
        assert!(matches!(choose("", &list), Err(FindError::NotFound { .. })));
        assert!(matches!(
            choose("autumn", &list),
            Err(FindError::NotFound { .. })
        ));
        let twice = [t("aa", Some("open")), t("bb", Some("open"))];
        assert!(matches!(
            choose("open", &twice),
            Err(FindError::Ambiguous(_))
        ));
    }

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

    #[test]
    fn the_keeper_creates_once_per_short_name_and_updates_all_or_nothing() {
        use kifu_ledger::testkit;
        let d = tempfile::tempdir().expect("tempdir");
        let cast = testkit::Cast::new();
        let records = testkit::moves_game(&cast, "t", 3).records;
        let keeper = Keeper::new(d.path());
        let id = [9u8; 32];
        keeper.create(&id, "cup", &records[..1]).expect("created");
        assert!(matches!(
            keeper.create(&id, "other", &records[..1]),
            Err(CreateError::Exists(_))
        ));
        // Not a tournament genesis: no short name to collide with.
        assert!(keeper.create(&[8u8; 32], "cup", &records[..1]).is_ok());
        let refused: Result<(), StoreError> = keeper.update(&id, |mut r| {
            r.push(records[1].clone());
            Err(StoreError::NotVerified("refused".into()))
        });
        assert!(refused.is_err());
        assert_eq!(read(&file_of(d.path(), &id)).expect("read"), records[..1]);
        let n: Result<usize, StoreError> = keeper.update(&id, |mut r| {
            r.extend_from_slice(&records[1..]);
            let n = r.len();
            Ok((r, n))
        });
        assert_eq!(n.expect("updated"), records.len());
        assert_eq!(read(&file_of(d.path(), &id)).expect("read"), records);
    }

    #[test]
    fn updates_of_one_tournament_are_serialised() {
        use kifu_ledger::testkit;
        let d = tempfile::tempdir().expect("tempdir");
        let cast = testkit::Cast::new();
        let records = testkit::moves_game(&cast, "t", 20).records;
        let keeper = std::sync::Arc::new(Keeper::new(d.path()));
        let id = [5u8; 32];
        keeper.create(&id, "cup", &records[..1]).expect("created");
        // Each writer appends the record after the ones it read: without
        // the lock two would read the same length and one append be lost.
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let keeper = keeper.clone();
                let records = records.clone();
                std::thread::spawn(move || {
                    for _ in 0..2 {
                        let r: Result<(), StoreError> = keeper.update(&id, |mut held| {
                            let next = records[held.len()].clone();
                            std::thread::yield_now();
                            held.push(next);
                            Ok((held, ()))
                        });
                        r.expect("updated");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("thread");
        }
        assert_eq!(read(&file_of(d.path(), &id)).expect("read"), records[..17]);
    }
}
