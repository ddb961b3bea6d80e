//! One interface over a local store or a `kifu serve` in front of one:
//! commands use [`Backend`] and do not care which one they got. Through a
//! server, signing stays with the caller: records are signed here and sent
//! signed, and records read back are checked by the same library calls as
//! a local store's.
//!
//! The local side is here, over `kifu_store::Store`, rather than in a crate
//! of its own: the client stands above the store (`tests/floors.rs`), so a
//! program above the client (a match) writes through [`Backend`] alone,
//! locally or through a server, and needs no store of its own.

use std::sync::Arc;

use kifu_ledger::{archive, check_genesis, Genesis, Hash, Head, PublicKey, Record};
use kifu_store::{Appended, FeedItem, ImportReport, Store};

use crate::{Client, ClientError, SEND};

/// A store, or a server in front of one.
// One per command: the size of the local variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Backend {
    /// The store in the data directory.
    Local(Store),
    /// A `kifu serve`.
    Remote(Client),
}

impl Backend {
    /// The head of a game, if it exists.
    pub fn head(&self, game: &Hash) -> Result<Option<Head>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.head(game)?),
            Backend::Remote(c) => c.head(&hex::encode(game)),
        }
    }

    /// The game whose id starts with `prefix`.
    pub fn resolve(&self, prefix: &str) -> Result<Hash, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.resolve(prefix)?),
            Backend::Remote(c) => c.game_of(prefix),
        }
    }

    /// Every game id.
    pub fn games(&self) -> Result<Vec<Hash>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.games()?),
            Backend::Remote(c) => c.games(),
        }
    }

    /// The genesis of a game.
    pub fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.genesis(game)?),
            Backend::Remote(_) => {
                let first = self.read(game, 0, Some(0))?;
                let rec = first
                    .first()
                    .ok_or_else(|| ClientError::answer("the server sent no genesis"))?;
                Ok(Arc::new(check_genesis(rec)?.1))
            }
        }
    }

    /// The key that signed a game's genesis: who created the game.
    pub fn creator(&self, game: &Hash) -> Result<PublicKey, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.creator(game)?),
            Backend::Remote(_) => {
                let first = self.read(game, 0, Some(0))?;
                let rec = first
                    .first()
                    .ok_or_else(|| ClientError::answer("the server sent no genesis"))?;
                Ok(check_genesis(rec)?.0.signer)
            }
        }
    }

    /// The records of a game from `from` to `to` inclusive.
    pub fn read(
        &self,
        game: &Hash,
        from: u64,
        to: Option<u64>,
    ) -> Result<Vec<Record>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.read(game, from, to)?),
            Backend::Remote(c) => c.read(game, from, to),
        }
    }

    /// Every record of every game.
    pub fn all_records(&self) -> Result<Vec<Record>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.all_records()?),
            Backend::Remote(c) => {
                let bytes = c.get_bytes("/archive")?;
                Ok(archive::read(&bytes)?)
            }
        }
    }

    /// Appends one record durably.
    pub fn append(&self, record: Record) -> Result<Appended, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.append(record)?),
            Backend::Remote(c) => c
                .submit(&[record])?
                .pop()
                .ok_or_else(|| ClientError::answer("the server answered nothing"))?,
        }
    }

    /// Appends records in order, all or nothing locally; through a server
    /// each is answered on its own and the first refusal is reported.
    pub fn append_batch(&self, records: Vec<Record>) -> Result<Vec<Appended>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.append_batch(records)?),
            Backend::Remote(c) => {
                let mut out = Vec::with_capacity(records.len());
                for chunk in records.chunks(SEND) {
                    for r in c.submit(chunk)? {
                        out.push(r?);
                    }
                }
                Ok(out)
            }
        }
    }

    /// Appends `body` signed by `signer` where the client expects it
    /// (`kifu append --expect-seq` / `--after`): a retry of an event already
    /// written there returns its place with `new: false`; anything else at
    /// that place is [`kifu_store::StoreError::Stale`].
    pub fn append_expecting(
        &self,
        game: &Hash,
        expect: kifu_store::Expect,
        signer: &kifu_ledger::Keypair,
        at_ms: u64,
        body: kifu_ledger::Body,
    ) -> Result<Appended, kifu_store::StoreError> {
        use kifu_store::{Expect, StoreError};
        let c = match self {
            Backend::Local(s) => return s.append_expecting(game, expect, signer, at_ms, body),
            Backend::Remote(c) => c,
        };
        let through = |e: ClientError| StoreError::Io(std::io::Error::other(e.to_string()));
        let head = c
            .head(&hex::encode(game))
            .map_err(through)?
            .ok_or_else(|| StoreError::NoSuchGame(hex::encode(game)))?;
        let target = match expect {
            Expect::Seq(n) => n,
            Expect::After(h) if h == head.hash => head.seq.saturating_add(1),
            // As a local store does (`Store::append_expecting`): the place
            // after the record with that hash, wherever it is in the game,
            // so that a retry after a lost answer is recognised below.
            Expect::After(h) => {
                let records = c.read(game, 0, Some(head.seq)).map_err(through)?;
                match records.iter().position(|r| r.hash() == h) {
                    Some(i) => (i as u64).saturating_add(1),
                    None => {
                        return Err(StoreError::Stale {
                            expected_seq: 0,
                            found: format!(
                                "no record {} in this game (the chain ends at seq {} with hash {})",
                                hex::encode(&h[..8]),
                                head.seq,
                                hex::encode(&head.hash[..8]),
                            ),
                        })
                    }
                }
            }
        };
        if target == head.seq + 1 {
            let record =
                kifu_ledger::Event::next(*game, head, at_ms, signer.public(), body).sign(signer)?;
            return self.append(record).map_err(through);
        }
        if target == 0 || target > head.seq + 1 {
            return Err(StoreError::Stale {
                expected_seq: target,
                found: format!("the chain ends at seq {}", head.seq),
            });
        }
        // Already written? The same signer stated the same fact there.
        let stored = c.read(game, target, Some(target)).map_err(through)?;
        let same = stored
            .first()
            .and_then(|r| r.decode().ok())
            .map(|e| e.signer == signer.public() && e.body == body);
        match (same, stored.into_iter().next()) {
            (Some(true), Some(r)) => self.append(r).map_err(through),
            _ => Err(StoreError::Stale {
                expected_seq: target,
                found: format!("another event is at seq {target}"),
            }),
        }
    }

    /// The game's head and who may sign what there (the roster as the chain
    /// has made it so far).
    pub fn standing(
        &self,
        game: &Hash,
    ) -> Result<(Head, Arc<kifu_ledger::standing::Standing>), ClientError> {
        match self {
            Backend::Local(s) => Ok(s.standing(game)?),
            Backend::Remote(_) => {
                let records = self.read(game, 0, None)?;
                let last = records
                    .last()
                    .ok_or_else(|| ClientError::answer("the server sent no records"))?;
                let head = Head {
                    seq: records.len() as u64 - 1,
                    hash: last.hash(),
                };
                let events = records
                    .iter()
                    .map(|r| r.decode())
                    .collect::<Result<Vec<_>, _>>()?;
                let standing =
                    kifu_ledger::standing::Standing::replay(&events).ok_or_else(|| {
                        ClientError::answer("the server sent a game without its genesis")
                    })?;
                Ok((head, Arc::new(standing)))
            }
        }
    }

    /// Every record to verify: the chains and, locally, the evidence of
    /// forks kept beside them.
    pub fn records_for_verification(&self) -> Result<Vec<Record>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.records_for_verification()?),
            Backend::Remote(_) => self.all_records(),
        }
    }

    /// Imports the records of a verified archive: what is missing is
    /// written, what is identical is skipped; `progress` hears of the
    /// records done and the total.
    pub fn import(
        &self,
        verdict: &kifu_ledger::archive::ArchiveVerdict,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<ImportReport, kifu_store::StoreError> {
        match self {
            Backend::Local(s) => s.import(verdict, progress),
            Backend::Remote(c) => {
                // As a local import: an archive that does not verify writes
                // nothing. Nothing is sent (the server has no place for a
                // fork's evidence: import the archive locally to keep it).
                let checked = verdict.report();
                if !checked.ok() {
                    let problem = checked
                        .problems
                        .first()
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    return Err(kifu_store::StoreError::NotVerified(problem));
                }
                let records = verdict.records();
                let mut report = ImportReport::default();
                let mut games = std::collections::BTreeSet::new();
                let total = records.len() as u64;
                let mut done = 0u64;
                let through = |e: ClientError| {
                    kifu_store::StoreError::Io(std::io::Error::other(e.to_string()))
                };
                for chunk in records.chunks(SEND) {
                    for r in c.submit(chunk).map_err(through)? {
                        let a = r.map_err(through)?;
                        if a.new {
                            report.written += 1;
                            games.insert(a.game);
                        } else {
                            report.already_present += 1;
                        }
                    }
                    done += chunk.len() as u64;
                    progress(done, total);
                }
                report.games = games.len();
                Ok(report)
            }
        }
    }

    /// Up to `limit` feed items after `after`.
    pub fn feed(&self, after: Option<u64>, limit: usize) -> Result<Vec<FeedItem>, ClientError> {
        match self {
            Backend::Local(s) => Ok(s.feed(after, limit)?),
            Backend::Remote(c) => c.feed(after, limit),
        }
    }
}

/// The store's or the server's games, as whatever reads games whole reads
/// them (a tournament's checkpoints).
impl kifu_ledger::Games for Backend {
    type Error = ClientError;

    fn head(&self, game: &Hash) -> Result<Option<Head>, ClientError> {
        Backend::head(self, game)
    }
    fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, ClientError> {
        Backend::genesis(self, game)
    }
    fn creator(&self, game: &Hash) -> Result<kifu_ledger::PublicKey, ClientError> {
        Backend::creator(self, game)
    }
    fn read(&self, game: &Hash) -> Result<Vec<Record>, ClientError> {
        Backend::read(self, game, 0, None)
    }
    fn games(&self) -> Result<Vec<Hash>, ClientError> {
        Backend::games(self)
    }
}
