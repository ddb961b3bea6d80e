//! The rehearsal's HTTP calls, as the pages make them: JSON in, JSON out,
//! and when the server does not answer (it was killed, the table is
//! offline) the same request again, as a tablet's outbox sends it again,
//! until it answers or a minute has passed.

use std::time::{Duration, Instant};

use kifu_ledger::Record;
use serde_json::{json, Value};

/// How long an actor keeps asking a server that does not answer.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// One actor's connection to the server.
pub struct Http {
    agent: ureq::Agent,
    base: String,
}

/// What went wrong with a call.
#[derive(Debug)]
pub enum CallError {
    /// The server answered with an error: status, code and message.
    Refused(u16, String),
    /// No answer within [`PATIENCE`].
    Unreachable(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Refused(s, m) => write!(f, "refused ({s}): {m}"),
            CallError::Unreachable(m) => write!(f, "no answer: {m}"),
        }
    }
}

impl Http {
    /// A connection to `base`.
    pub fn new(base: &str) -> Http {
        Http {
            agent: ureq::AgentBuilder::new()
                .timeout_connect(Duration::from_secs(5))
                .timeout(Duration::from_secs(30))
                .build(),
            base: base.to_string(),
        }
    }

    /// `GET path`, read as `T` (what a caller does not name is skipped,
    /// not kept).
    pub fn get_as<T: serde::de::DeserializeOwned>(&self, path: &str) -> Result<T, CallError> {
        self.call(|| {
            self.agent
                .get(&format!("{}{path}", self.base))
                .call()
                .map_err(Box::new)
        })
    }

    /// `GET path`, as JSON.
    pub fn get(&self, path: &str) -> Result<Value, CallError> {
        self.get_as(path)
    }

    /// `GET path`, the body's bytes as they are.
    pub fn get_bytes(&self, path: &str) -> Result<Vec<u8>, CallError> {
        let r = self
            .agent
            .get(&format!("{}{path}", self.base))
            .call()
            .map_err(|e| match e {
                ureq::Error::Status(s, _) => CallError::Refused(s, path.to_string()),
                e => CallError::Unreachable(e.to_string()),
            })?;
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut r.into_reader(), &mut out)
            .map_err(|e| CallError::Unreachable(e.to_string()))?;
        Ok(out)
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> Result<Value, CallError> {
        self.call(|| {
            self.agent
                .post(&format!("{}{path}", self.base))
                .send_json(body.clone())
                .map_err(Box::new)
        })
    }

    /// `POST path` with `body` as it is, and a header.
    pub fn post_raw(
        &self,
        path: &str,
        body: &str,
        header: (&str, &str),
    ) -> Result<Value, CallError> {
        self.call(|| {
            self.agent
                .post(&format!("{}{path}", self.base))
                .set("Content-Type", "application/json")
                .set(header.0, header.1)
                .send_string(body)
                .map_err(Box::new)
        })
    }

    /// `POST /records` (or a tournament's records) with `records` in hex,
    /// as a page sends them; the answer's results, one per record.
    pub fn submit(&self, path: &str, records: &[Record]) -> Result<Vec<Value>, CallError> {
        let hex: Vec<String> = records.iter().map(|r| hex::encode(r.to_stored())).collect();
        let answer = self.post(path, &json!({ "records": hex }))?;
        let results = answer["results"].as_array().cloned().unwrap_or_default();
        if results.len() != records.len() {
            return Err(CallError::Refused(
                200,
                format!("{} results for {} records", results.len(), records.len()),
            ));
        }
        Ok(results)
    }

    fn call<T: serde::de::DeserializeOwned>(
        &self,
        f: impl Fn() -> Result<ureq::Response, Box<ureq::Error>>,
    ) -> Result<T, CallError> {
        let began = Instant::now();
        let mut wait = Duration::from_millis(50);
        loop {
            match f().map_err(|e| *e) {
                Ok(r) => {
                    return r
                        .into_json()
                        .map_err(|e| CallError::Refused(200, format!("not JSON: {e}")))
                }
                // 207: some records refused; the results say which.
                Err(ureq::Error::Status(207, r)) => {
                    return r
                        .into_json()
                        .map_err(|e| CallError::Refused(207, format!("not JSON: {e}")))
                }
                // Too busy, or not yet up: ask again after the wait it names.
                Err(ureq::Error::Status(s @ (429 | 502 | 503), r))
                    if began.elapsed() < PATIENCE =>
                {
                    let after = r
                        .header("retry-after")
                        .and_then(|v| v.parse::<u64>().ok())
                        .map(Duration::from_secs)
                        .unwrap_or(wait);
                    let _ = s;
                    std::thread::sleep(after.min(Duration::from_secs(2)));
                }
                Err(ureq::Error::Status(s, r)) => {
                    let v: Value = r.into_json().unwrap_or(Value::Null);
                    let m = v["error"]["message"]
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string());
                    return Err(CallError::Refused(s, m));
                }
                Err(e) if began.elapsed() < PATIENCE => {
                    let _ = e;
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(1));
                }
                Err(e) => return Err(CallError::Unreachable(e.to_string())),
            }
        }
    }
}
