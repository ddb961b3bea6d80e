//! A blocking HTTP client of `kifu serve` (docs/API.md).

use std::io::Read as _;
use std::time::Duration;

use kifu_ledger::{Hash, Head, Record};
use kifu_store::{Appended, FeedItem};
use kifu_tlog::tiles::{entries_path, parse_entry_bundle, TILE_WIDTH};
use kifu_tlog::Leaf;
use serde_json::Value;

use crate::trust::{agent_builder, venue_ca};
use crate::{ClientError, PAGE};

/// A blocking HTTP client of `kifu serve`.
pub struct Client {
    base: String,
    agent: ureq::Agent,
}

fn hash_field(v: &Value, field: &str) -> Result<Hash, ClientError> {
    v[field]
        .as_str()
        .and_then(|s| hex::decode(s).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| ClientError::Answer(format!("the server's answer has no valid '{field}'")))
}

fn u64_field(v: &Value, field: &str) -> Result<u64, ClientError> {
    v[field]
        .as_u64()
        .ok_or_else(|| ClientError::Answer(format!("the server's answer has no valid '{field}'")))
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
    fn failure(&self, e: ureq::Error) -> ClientError {
        match e {
            ureq::Error::Status(code, resp) => {
                let body = resp.into_string().unwrap_or_default();
                let msg = serde_json::from_str::<Value>(&body)
                    .ok()
                    .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
                    .unwrap_or_else(|| format!("HTTP {code}"));
                ClientError::Refused(msg)
            }
            ureq::Error::Transport(t) => match venue_ca() {
                Err(ca) => ClientError::Unreachable {
                    base: self.base.clone(),
                    reason: format!("{t} ({ca})"),
                },
                Ok(_) => ClientError::Unreachable {
                    base: self.base.clone(),
                    reason: t.to_string(),
                },
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

    /// GETs `path` (refusals for load tried again) and reads its JSON.
    pub fn get_json(&self, path: &str) -> Result<Value, ClientError> {
        let r = self.get_retrying(path).map_err(|e| self.failure(*e))?;
        r.into_json()
            .map_err(|e| ClientError::Answer(format!("the server's answer is not JSON: {e}")))
    }

    /// GETs `path` and reads its JSON body whatever the status (`/healthz`
    /// answers 503 with its body while the server is degraded).
    pub fn get_json_any_status(&self, path: &str) -> Result<Value, ClientError> {
        let r = match self.agent.get(&self.url(path)).call() {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return Err(self.failure(e)),
        };
        r.into_json()
            .map_err(|e| ClientError::Answer(format!("the server's answer is not JSON: {e}")))
    }

    /// POSTs an empty body; the answer's status and bytes.
    pub fn post_empty(&self, path: &str) -> Result<(u16, Vec<u8>), ClientError> {
        let r = self
            .agent
            .post(&self.url(path))
            .call()
            .map_err(|e| self.failure(e))?;
        let status = r.status();
        let mut out = Vec::new();
        r.into_reader()
            .read_to_end(&mut out)
            .map_err(|e| ClientError::Answer(format!("reading the server's answer: {e}")))?;
        Ok((status, out))
    }

    /// POSTs stored records one after another (`POST /tournaments...`);
    /// the answer's JSON, or the server's refusal in its words.
    pub fn post_records(&self, path: &str, records: &[Record]) -> Result<Value, ClientError> {
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
            .map_err(|e| ClientError::Answer(format!("the server's answer is not JSON: {e}")))
    }

    /// GETs `path`; the answer's body, read as it arrives.
    pub fn get_reader(
        &self,
        path: &str,
    ) -> Result<Box<dyn std::io::Read + Send + Sync + 'static>, ClientError> {
        let r = self.get_retrying(path).map_err(|e| self.failure(*e))?;
        Ok(r.into_reader())
    }

    /// GETs `path` (refusals for load tried again); the whole body.
    pub fn get_bytes(&self, path: &str) -> Result<Vec<u8>, ClientError> {
        let r = self.get_retrying(path).map_err(|e| self.failure(*e))?;
        let mut out = Vec::new();
        r.into_reader()
            .read_to_end(&mut out)
            .map_err(|e| ClientError::Answer(format!("reading the server's answer: {e}")))?;
        Ok(out)
    }

    /// The head of the game `id` (or unique prefix); `None` when the server
    /// knows no such game.
    pub fn head(&self, id: &str) -> Result<Option<Head>, ClientError> {
        match self
            .get_retrying(&format!("/games/{id}/head"))
            .map_err(|e| *e)
        {
            Ok(r) => {
                let v: Value = r.into_json().map_err(|e| {
                    ClientError::Answer(format!("the server's answer is not JSON: {e}"))
                })?;
                Ok(Some(Head {
                    seq: u64_field(&v, "seq")?,
                    hash: hash_field(&v, "hash")?,
                }))
            }
            Err(ureq::Error::Status(404, _)) => Ok(None),
            Err(e) => Err(self.failure(e)),
        }
    }

    /// The game whose id starts with `prefix`.
    pub fn game_of(&self, prefix: &str) -> Result<Hash, ClientError> {
        hash_field(&self.get_json(&format!("/games/{prefix}/head"))?, "game")
    }

    /// Every game id the server holds.
    pub fn games(&self) -> Result<Vec<Hash>, ClientError> {
        let v = self.get_json("/games")?;
        v["games"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| hash_field(g, "game"))
            .collect()
    }

    /// The records of a game from `from` to `to` inclusive, read a page
    /// at a time and decoded.
    pub fn read(
        &self,
        game: &Hash,
        from: u64,
        to: Option<u64>,
    ) -> Result<Vec<Record>, ClientError> {
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
    pub fn submit(
        &self,
        records: &[Record],
    ) -> Result<Vec<Result<Appended, ClientError>>, ClientError> {
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
        .map_err(|e| ClientError::Answer(format!("the server's answer is not JSON: {e}")))?;
        let Some(results) = v["results"].as_array() else {
            let msg = v["error"]["message"]
                .as_str()
                .unwrap_or("no answer per record");
            return Err(ClientError::Refused(msg.to_string()));
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
                    Err(ClientError::Rejected(
                        r["error"]["message"]
                            .as_str()
                            .unwrap_or("refused")
                            .to_string(),
                    ))
                }
            })
            .collect())
    }

    /// Up to `limit` feed items after the cursor `after`.
    pub fn feed(&self, after: Option<u64>, limit: usize) -> Result<Vec<FeedItem>, ClientError> {
        let after = after.map(|a| format!("&after={a}")).unwrap_or_default();
        let bytes = self.get_bytes(&format!("/feed?limit={limit}{after}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let mut out = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line)
                .map_err(|e| ClientError::Answer(format!("a feed line is not JSON: {e}")))?;
            let event_bytes = v["event_bytes"]
                .as_str()
                .and_then(|s| hex::decode(s).ok())
                .ok_or_else(|| ClientError::answer("a feed line has no event_bytes"))?;
            let signature: [u8; 64] = v["signature"]
                .as_str()
                .and_then(|s| hex::decode(s).ok())
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| ClientError::answer("a feed line has no signature"))?;
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

    /// The leaves `from..to` of the server's transparency log, read from
    /// its entry bundles (`docs/TRANSPARENCY.md`, tiles) at the tiles of a
    /// tree of `at` leaves (at least `to`).
    ///
    /// # Errors
    ///
    /// [`ClientError::Log`] when a bundle does not parse or holds another
    /// count of entries than its tile's width, or an entry is not a leaf.
    pub fn leaves(&self, from: u64, to: u64, at: u64) -> Result<Vec<Leaf>, ClientError> {
        let mut out = Vec::new();
        let mut tile = from / TILE_WIDTH;
        while tile * TILE_WIDTH < to {
            let width = (at - tile * TILE_WIDTH).min(TILE_WIDTH);
            let bytes = self.get_bytes(&format!("/{}", entries_path(tile, width)))?;
            let entries = parse_entry_bundle(&bytes)
                .ok_or_else(|| ClientError::Log(format!("entry bundle {tile} does not parse")))?;
            if entries.len() as u64 != width {
                return Err(ClientError::Log(format!(
                    "entry bundle {tile} holds {} entries, not {width}",
                    entries.len()
                )));
            }
            for (i, e) in entries.iter().enumerate() {
                let index = tile * TILE_WIDTH + i as u64;
                if index < from || index >= to {
                    continue;
                }
                out.push(Leaf::from_bytes(e).ok_or_else(|| {
                    ClientError::Log(format!("leaf {index} is not a 72-byte kifu leaf"))
                })?);
            }
            tile += 1;
        }
        Ok(out)
    }

    /// The id of the server's tournament `spec` names (an id prefix, else
    /// a short name), chosen from its list as a chain file is in a data
    /// directory (`kifu_store::tournaments::choose`).
    ///
    /// # Errors
    ///
    /// [`ClientError::Named`] when `spec` names none, or several.
    pub fn tournament_id(&self, spec: &str) -> Result<Hash, ClientError> {
        use kifu_store::tournaments::{choose, FindError};
        let list = self.get_json("/tournaments")?;
        let all: Vec<(String, Option<String>)> = list["tournaments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                let text = |k: &str| t[k].as_str().unwrap_or_default().to_string();
                (text("id"), Some(text("short_name")))
            })
            .collect();
        let i = choose(spec, &all).map_err(|e| match e {
            FindError::NotFound { .. } => ClientError::Named(format!(
                "no tournament '{spec}' on the server {}",
                self.base
            )),
            e => ClientError::Named(e.to_string()),
        })?;
        hex::decode(&all[i].0)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| {
                ClientError::answer("the server's tournament list has an id that is not hex")
            })
    }

    /// The records of the server's tournament `id`, unverified (a verifier
    /// reports every problem).
    pub fn tournament_records(&self, id: &Hash) -> Result<Vec<Record>, ClientError> {
        let bytes = self.get_bytes(&format!("/tournaments/{}/records", hex::encode(id)))?;
        Ok(kifu_ledger::archive::read(&bytes)?)
    }

    /// Where the server keeps the records of its tournament `id`.
    pub fn tournament_address(&self, id: &Hash) -> String {
        format!("{}/tournaments/{}/records", self.base, hex::encode(id))
    }
}
