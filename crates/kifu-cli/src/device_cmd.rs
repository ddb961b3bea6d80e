//! Board devices' requests for seats, as `kifu serve` keeps them: `kifu
//! devices` lists them with their fingerprints, and `kifu new-game
//! --device-request ID` names their keys in a genesis. What a request may
//! hold and how it enrols a key is `kifu_game::seat`'s.

use std::path::Path;

use clap::Args;
use kifu_game::seat::SeatRequest;
use kifu_store::devices::DeviceRequest;
use serde_json::Value;

use crate::endpoint::{held_by_server, server};
use crate::remote::Client;
use crate::{CmdResult, Failure};

/// `kifu devices`.
#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Only the requests no game names yet.
    #[arg(long)]
    pub pending: bool,
    /// Print the list as JSON (as `GET /devices` answers).
    #[arg(long)]
    pub json: bool,
}

fn kept(data: &Path) -> Result<Vec<DeviceRequest<SeatRequest>>, Failure> {
    if let Some(line) = held_by_server(data) {
        return Err(Failure::new(line));
    }
    kifu_store::devices::read::<SeatRequest>(data)
        .map(|k| k.requests)
        .map_err(|e| Failure::new(e.to_string()))
}

/// The requests numbered `ids`, from the server (`--server`) or the data
/// directory, in the order given.
pub fn requests(data: &Path, ids: &[String]) -> Result<Vec<SeatRequest>, Failure> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(url) = server() {
        let c = Client::new(url);
        return ids
            .iter()
            .map(|id| {
                let v = c.get_json(&format!("/devices/{}", id.trim()))?;
                serde_json::from_value::<SeatRequest>(v)
                    .map_err(|e| Failure::new(format!("device request {id}: {e}")))
            })
            .collect();
    }
    let all = kept(data)?;
    ids.iter()
        .map(|id| {
            all.iter()
                .find(|r| r.id == id.trim())
                .map(|r| r.seat.clone())
                .ok_or_else(|| {
                    Failure::new(format!(
                        "no device request numbered {id:?} in {} (`kifu devices` lists them)",
                        data.display()
                    ))
                })
        })
        .collect()
}

/// `kifu devices`.
pub fn run(data: &Path, a: DevicesArgs) -> CmdResult {
    let list: Vec<Value> = match server() {
        Some(url) => {
            let path = if a.pending {
                "/devices?pending=1"
            } else {
                "/devices"
            };
            let v = Client::new(url).get_json(path)?;
            v["requests"].as_array().cloned().unwrap_or_default()
        }
        None => {
            let kept = kifu_game::seat::KeptRequests {
                requests: kept(data)?
                    .into_iter()
                    .map(|r| kifu_game::seat::KeptRequest {
                        fingerprint: r.seat.fingerprint(),
                        seat: r.seat.seat_text(),
                        id: r.id,
                        at_ms: r.at_ms,
                        signed_at_ms: r.signed_at_ms,
                        request: r.seat,
                    })
                    .collect(),
            };
            // Through a JSON value, as before: keys in alphabetical order.
            let v = serde_json::to_value(&kept).unwrap_or(Value::Null);
            v["requests"].as_array().cloned().unwrap_or_default()
        }
    };
    if a.json {
        say!("{}", serde_json::json!({ "requests": list }));
        return Ok(());
    }
    if list.is_empty() {
        say!("no device has asked for a seat");
    }
    for r in &list {
        say!(
            "{:>4}  {}  {}  ({}){}",
            r["id"].as_str().unwrap_or("?"),
            r["fingerprint"].as_str().unwrap_or("?"),
            r["seat"].as_str().unwrap_or("?"),
            r["name"].as_str().unwrap_or("?"),
            match r["status"].as_str() {
                Some("enrolled") => "  enrolled",
                _ => "",
            }
        );
    }
    Ok(())
}
