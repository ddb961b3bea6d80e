//! Reading a submission: stored records as bytes, or JSON with each record
//! in hex or base64.

use base64::Engine as _;
use kifu_ledger::archive::MAGIC;
use kifu_ledger::Record;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::ApiError;

/// One record in a JSON submission: its stored bytes (`u32 LE length ||
/// event_bytes || signature`) in hex, alone or as `{"hex": ...}`, or in
/// base64 as `{"base64": ...}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum JsonRecord {
    /// The stored bytes in hex.
    Hex(String),
    /// `{"hex": ...}` or `{"base64": ...}`.
    Tagged {
        /// The stored bytes in hex.
        #[serde(default)]
        hex: Option<String>,
        /// The stored bytes in base64 (standard alphabet, padded).
        #[serde(default)]
        base64: Option<String>,
    },
}

/// The JSON body of `POST /records` (`Content-Type: application/json`):
/// `{"records": [...]}`, or one record alone.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum JsonSubmission {
    /// Many records, in order.
    Many {
        /// The records.
        records: Vec<JsonRecord>,
    },
    /// One record.
    One(JsonRecord),
}

/// Reads concatenated stored records (`u32 LE length || event_bytes ||
/// signature`, as in an archive; the archive's magic may lead).
pub fn records_from_bytes(bytes: &[u8], max: usize) -> Result<Vec<Record>, ApiError> {
    let mut rest = bytes.strip_prefix(MAGIC.as_slice()).unwrap_or(bytes);
    let mut out = Vec::new();
    while !rest.is_empty() {
        if out.len() >= max {
            return Err(too_many(max));
        }
        let offset = bytes.len() - rest.len();
        let (r, more) = Record::from_stored_prefix(rest).map_err(|e| {
            ApiError::bad_request(
                "malformed",
                format!("record #{} at byte {offset}: {e}", out.len()),
            )
        })?;
        out.push(r);
        rest = more;
    }
    Ok(out)
}

fn too_many(max: usize) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::PAYLOAD_TOO_LARGE,
        "too_many_records",
        format!("more than {max} records in one request"),
    )
}

/// Reads a JSON submission.
pub fn records_from_json(bytes: &[u8], max: usize) -> Result<Vec<Record>, ApiError> {
    let sub: JsonSubmission = serde_json::from_slice(bytes).map_err(|e| {
        ApiError::bad_request(
            "bad_json",
            format!("the body is not a submission ({{\"records\": [\"HEX\" | {{\"hex\": ..}} | {{\"base64\": ..}}]}}): {e}"),
        )
    })?;
    let list = match sub {
        JsonSubmission::Many { records } => records,
        JsonSubmission::One(r) => vec![r],
    };
    if list.len() > max {
        return Err(too_many(max));
    }
    list.into_iter()
        .enumerate()
        .map(|(i, r)| {
            let bytes = match r {
                JsonRecord::Hex(h) | JsonRecord::Tagged { hex: Some(h), .. } => {
                    hex::decode(h.trim()).map_err(|e| {
                        ApiError::bad_request("bad_encoding", format!("record #{i}: not hex: {e}"))
                    })?
                }
                JsonRecord::Tagged {
                    base64: Some(b), ..
                } => base64::engine::general_purpose::STANDARD
                    .decode(b.trim())
                    .map_err(|e| {
                        ApiError::bad_request(
                            "bad_encoding",
                            format!("record #{i}: not base64: {e}"),
                        )
                    })?,
                JsonRecord::Tagged { .. } => {
                    return Err(ApiError::bad_request(
                        "bad_json",
                        format!("record #{i} has neither \"hex\" nor \"base64\""),
                    ))
                }
            };
            Record::from_stored(&bytes)
                .map_err(|e| ApiError::bad_request("malformed", format!("record #{i}: {e}")))
        })
        .collect()
}
