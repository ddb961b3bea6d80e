//! Acting on a store directly, or through a `kifu serve` with `--server URL`
//! (or `KIFU_SERVER`).
//!
//! [`Backend`] has the store's reading and appending calls; commands use it
//! and do not care which one they got. Through a server, signing stays here:
//! the client signs with its own key and sends the signed record, and records
//! read back are checked here by the same library calls as a local store's.

use std::io::Read as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use kifu_ledger::{archive, check_genesis, Genesis, Hash, Head, Record};
use kifu_store::{Appended, FeedItem, ImportReport, Store};
use serde_json::Value;

use crate::endpoint::{agent_builder, venue_ca};
pub use crate::endpoint::{held_by_server, server, set_server};
use crate::Failure;

/// Records asked for per request when reading through a server.
const PAGE: u64 = 10_000;

/// Records sent per request when importing through a server.
const SEND: usize = 1_000;

/// A store, or a server in front of one.
// One per command: the size of the local variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Backend {
    /// The store in the data directory.
    Local(Store),
    /// A `kifu serve`.
    Remote(Client),
}

/// Opens the store (creating it), or connects to the server.
pub fn open(data: &Path) -> Result<Backend, Failure> {
    match server() {
        Some(url) => Ok(Backend::Remote(Client::new(url))),
        None => Ok(Backend::Local(crate::store_open::open(data)?)),
    }
}

/// Opens an existing store, or connects to the server.
pub fn open_existing(data: &Path) -> Result<Backend, Failure> {
    match server() {
        Some(url) => Ok(Backend::Remote(Client::new(url))),
        None => Ok(Backend::Local(crate::store_open::open_existing(data)?)),
    }
}

impl Backend {
    /// The head of a game, if it exists.
    pub fn head(&self, game: &Hash) -> Result<Option<Head>, Failure> {
        match self {
            Backend::Local(s) => Ok(s.head(game)?),
            Backend::Remote(c) => c.head(&hex::encode(game)),
        }
    }

    /// The game whose id starts with `prefix`.
    pub fn resolve(&self, prefix: &str) -> Result<Hash, Failure> {
        match self {
            Backend::Local(s) => Ok(s.resolve(prefix)?),
            Backend::Remote(c) => c.game_of(prefix),
        }
    }

    /// Every game id.
    pub fn games(&self) -> Result<Vec<Hash>, Failure> {
        match self {
            Backend::Local(s) => Ok(s.games()?),
            Backend::Remote(c) => c.games(),
        }
    }

    /// The genesis of a game.
    pub fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, Failure> {
        match self {
            Backend::Local(s) => Ok(s.genesis(game)?),
            Backend::Remote(_) => {
                let first = self.read(game, 0, Some(0))?;
                let rec = first
                    .first()
                    .ok_or_else(|| Failure::new("the server sent no genesis"))?;
                Ok(Arc::new(check_genesis(rec)?.1))
            }
        }
    }

    /// The records of a game from `from` to `to` inclusive.
    pub fn read(&self, game: &Hash, from: u64, to: Option<u64>) -> Result<Vec<Record>, Failure> {
        match self {
            Backend::Local(s) => Ok(s.read(game, from, to)?),
            Backend::Remote(c) => c.read(game, from, to),
        }
    }

    /// Every record of every game.
    pub fn all_records(&self) -> Result<Vec<Record>, Failure> {
        match self {
            Backend::Local(s) => Ok(s.all_records()?),
            Backend::Remote(c) => {
                let bytes = c.get_bytes("/archive")?;
                Ok(archive::read(&bytes)?)
            }
        }
    }

    /// Appends one record durably.
    pub fn append(&self, record: Record) -> Result<Appended, Failure> {
        match self {
            Backend::Local(s) => Ok(s.append(record)?),
            Backend::Remote(c) => c
                .submit(&[record])?
                .pop()
                .ok_or_else(|| Failure::new("the server answered nothing"))?,
        }
    }

    /// Appends records in order, all or nothing locally; through a server
    /// each is answered on its own and the first refusal is reported.
    pub fn append_batch(&self, records: Vec<Record>) -> Result<Vec<Appended>, Failure> {
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
        let through = |f: Failure| StoreError::Io(std::io::Error::other(f.message));
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
    ) -> Result<(Head, Arc<kifu_ledger::standing::Standing>), Failure> {
        match self {
            Backend::Local(s) => Ok(s.standing(game)?),
            Backend::Remote(_) => {
                let records = self.read(game, 0, None)?;
                let last = records
                    .last()
                    .ok_or_else(|| Failure::new("the server sent no records"))?;
                let head = Head {
                    seq: records.len() as u64 - 1,
                    hash: last.hash(),
                };
                let events = records
                    .iter()
                    .map(|r| r.decode())
                    .collect::<Result<Vec<_>, _>>()?;
                let standing = kifu_ledger::standing::Standing::replay(&events)
                    .ok_or_else(|| Failure::new("the server sent a game without its genesis"))?;
                Ok((head, Arc::new(standing)))
            }
        }
    }

    /// Every record to verify: the chains and, locally, the evidence of
    /// forks kept beside them.
    pub fn records_for_verification(&self) -> Result<Vec<Record>, Failure> {
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
                let through =
                    |f: Failure| kifu_store::StoreError::Io(std::io::Error::other(f.message));
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
    pub fn feed(&self, after: Option<u64>, limit: usize) -> Result<Vec<FeedItem>, Failure> {
        match self {
            Backend::Local(s) => Ok(s.feed(after, limit)?),
            Backend::Remote(c) => c.feed(after, limit),
        }
    }
}

/// A blocking HTTP client of `kifu serve`.
pub struct Client {
    base: String,
    agent: ureq::Agent,
}

fn hash_field(v: &Value, field: &str) -> Result<Hash, Failure> {
    v[field]
        .as_str()
        .and_then(|s| hex::decode(s).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| Failure::new(format!("the server's answer has no valid '{field}'")))
}

fn u64_field(v: &Value, field: &str) -> Result<u64, Failure> {
    v[field]
        .as_u64()
        .ok_or_else(|| Failure::new(format!("the server's answer has no valid '{field}'")))
}

impl Client {
    /// A client of the server at `base` (`http://host:port`).
    ///
    /// A server that stops answering is given up after two minutes without
    /// a byte; a long answer that keeps coming (a whole store's archive,
    /// `GET /archive`) is read to its end however long it takes.
    pub fn new(base: &str) -> Client {
        Client {
            base: base.to_string(),
            agent: agent_builder()
                .timeout_connect(Duration::from_secs(10))
                .timeout_read(Duration::from_secs(120))
                .timeout_write(Duration::from_secs(120))
                .build(),
        }
    }

    /// A client of the server at `base` whose requests may take up to
    /// `wait` (a whole-store verification answers when it is done).
    pub fn with_timeout(base: &str, wait: Duration) -> Client {
        Client {
            base: base.to_string(),
            agent: agent_builder()
                .timeout_connect(Duration::from_secs(10))
                .timeout(wait)
                .build(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Turns a failed request into one line: the server's own message when
    /// it sent one.
    fn failure(&self, e: ureq::Error) -> Failure {
        match e {
            ureq::Error::Status(code, resp) => {
                let body = resp.into_string().unwrap_or_default();
                let msg = serde_json::from_str::<Value>(&body)
                    .ok()
                    .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
                    .unwrap_or_else(|| format!("HTTP {code}"));
                Failure::new(format!("server: {msg}"))
            }
            ureq::Error::Transport(t) => match venue_ca() {
                Err(ca) => Failure::new(format!(
                    "cannot reach the server at {}: {t} ({ca})",
                    self.base
                )),
                Ok(_) => Failure::new(format!("cannot reach the server at {}: {t}", self.base)),
            },
        }
    }

    /// GETs `path`; a refusal for load (`429`, `503`) is tried again after
    /// the `Retry-After` the server gave (at most 10 s, at most 5 times):
    /// reading is always safe to repeat.
    fn get_retrying(&self, path: &str) -> Result<ureq::Response, Box<ureq::Error>> {
        let mut tries = 0;
        loop {
            match self.agent.get(&self.url(path)).call() {
                Err(ureq::Error::Status(429 | 503, r)) if tries < 5 => {
                    tries += 1;
                    let wait = r
                        .header("Retry-After")
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        .unwrap_or(1)
                        .clamp(1, 10);
                    std::thread::sleep(Duration::from_secs(wait));
                }
                other => return other.map_err(Box::new),
            }
        }
    }

    pub(crate) fn get_json(&self, path: &str) -> Result<Value, Failure> {
        let r = self.get_retrying(path).map_err(|e| self.failure(*e))?;
        r.into_json()
            .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))
    }

    /// GETs `path` and reads its JSON body whatever the status (`/healthz`
    /// answers 503 with its body while the server is degraded).
    pub(crate) fn get_json_any_status(&self, path: &str) -> Result<Value, Failure> {
        let r = match self.agent.get(&self.url(path)).call() {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return Err(self.failure(e)),
        };
        r.into_json()
            .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))
    }

    /// POSTs an empty body; the answer's status and bytes.
    pub(crate) fn post_empty(&self, path: &str) -> Result<(u16, Vec<u8>), Failure> {
        let r = self
            .agent
            .post(&self.url(path))
            .call()
            .map_err(|e| self.failure(e))?;
        let status = r.status();
        let mut out = Vec::new();
        r.into_reader()
            .read_to_end(&mut out)
            .map_err(|e| Failure::new(format!("reading the server's answer: {e}")))?;
        Ok((status, out))
    }

    /// POSTs stored records one after another (`POST /tournaments...`);
    /// the answer's JSON, or the server's refusal in its words.
    pub(crate) fn post_records(&self, path: &str, records: &[Record]) -> Result<Value, Failure> {
        let mut body = Vec::new();
        for r in records {
            body.extend_from_slice(&r.to_stored());
        }
        let r = self
            .agent
            .post(&self.url(path))
            .set("Content-Type", "application/octet-stream")
            .send_bytes(&body)
            .map_err(|e| self.failure(e))?;
        r.into_json()
            .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))
    }

    /// GETs `path`; the answer's body, read as it arrives.
    pub(crate) fn get_reader(
        &self,
        path: &str,
    ) -> Result<Box<dyn std::io::Read + Send + Sync + 'static>, Failure> {
        let r = self.get_retrying(path).map_err(|e| self.failure(*e))?;
        Ok(r.into_reader())
    }

    pub(crate) fn get_bytes(&self, path: &str) -> Result<Vec<u8>, Failure> {
        let r = self.get_retrying(path).map_err(|e| self.failure(*e))?;
        let mut out = Vec::new();
        r.into_reader()
            .read_to_end(&mut out)
            .map_err(|e| Failure::new(format!("reading the server's answer: {e}")))?;
        Ok(out)
    }

    /// The head of the game `id` (or unique prefix); `None` when the server
    /// knows no such game.
    pub fn head(&self, id: &str) -> Result<Option<Head>, Failure> {
        match self
            .get_retrying(&format!("/games/{id}/head"))
            .map_err(|e| *e)
        {
            Ok(r) => {
                let v: Value = r
                    .into_json()
                    .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))?;
                Ok(Some(Head {
                    seq: u64_field(&v, "seq")?,
                    hash: hash_field(&v, "hash")?,
                }))
            }
            Err(ureq::Error::Status(404, _)) => Ok(None),
            Err(e) => Err(self.failure(e)),
        }
    }

    fn game_of(&self, prefix: &str) -> Result<Hash, Failure> {
        hash_field(&self.get_json(&format!("/games/{prefix}/head"))?, "game")
    }

    fn games(&self) -> Result<Vec<Hash>, Failure> {
        let v = self.get_json("/games")?;
        v["games"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| hash_field(g, "game"))
            .collect()
    }

    fn read(&self, game: &Hash, from: u64, to: Option<u64>) -> Result<Vec<Record>, Failure> {
        let mut out = Vec::new();
        let mut from = from;
        loop {
            let upto = to.unwrap_or(u64::MAX).min(from.saturating_add(PAGE - 1));
            let bytes = self.get_bytes(&format!(
                "/games/{}/records?from={from}&to={upto}&format=bytes",
                hex::encode(game)
            ))?;
            let mut rest = bytes.as_slice();
            let mut n = 0u64;
            while !rest.is_empty() {
                let (r, more) = Record::from_stored_prefix(rest)?;
                out.push(r);
                rest = more;
                n += 1;
            }
            if n < PAGE || to.is_some_and(|t| upto >= t) {
                return Ok(out);
            }
            from = upto + 1;
        }
    }

    /// Sends records; one answer per record.
    pub fn submit(&self, records: &[Record]) -> Result<Vec<Result<Appended, Failure>>, Failure> {
        let mut body = Vec::new();
        for r in records {
            body.extend_from_slice(&r.to_stored());
        }
        let resp = self
            .agent
            .post(&self.url("/records"))
            .set("Content-Type", "application/octet-stream")
            .send_bytes(&body);
        let v: Value = match resp {
            Ok(r) => r.into_json(),
            Err(ureq::Error::Status(code, r)) if (400..500).contains(&code) => r.into_json(),
            Err(e) => return Err(self.failure(e)),
        }
        .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))?;
        let Some(results) = v["results"].as_array() else {
            let msg = v["error"]["message"]
                .as_str()
                .unwrap_or("no answer per record");
            return Err(Failure::new(format!("server: {msg}")));
        };
        Ok(results
            .iter()
            .map(|r| {
                if r["ok"].as_bool() == Some(true) {
                    Ok(Appended {
                        game: hash_field(r, "game")?,
                        seq: u64_field(r, "seq")?,
                        hash: hash_field(r, "hash")?,
                        cursor: u64_field(r, "cursor")?,
                        new: r["new"].as_bool().unwrap_or(true),
                    })
                } else {
                    Err(Failure::new(
                        r["error"]["message"]
                            .as_str()
                            .unwrap_or("refused")
                            .to_string(),
                    ))
                }
            })
            .collect())
    }

    fn feed(&self, after: Option<u64>, limit: usize) -> Result<Vec<FeedItem>, Failure> {
        let after = after.map(|a| format!("&after={a}")).unwrap_or_default();
        let bytes = self.get_bytes(&format!("/feed?limit={limit}{after}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let mut out = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line)
                .map_err(|e| Failure::new(format!("a feed line is not JSON: {e}")))?;
            let event_bytes = v["event_bytes"]
                .as_str()
                .and_then(|s| hex::decode(s).ok())
                .ok_or_else(|| Failure::new("a feed line has no event_bytes"))?;
            let signature: [u8; 64] = v["signature"]
                .as_str()
                .and_then(|s| hex::decode(s).ok())
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| Failure::new("a feed line has no signature"))?;
            out.push(FeedItem {
                cursor: u64_field(&v, "cursor")?,
                game: hash_field(&v, "game")?,
                seq: u64_field(&v, "seq")?,
                record: Record {
                    event_bytes,
                    signature,
                },
            });
        }
        Ok(out)
    }
}
