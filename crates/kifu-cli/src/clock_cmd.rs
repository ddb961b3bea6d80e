//! `kifu clock replay`.

use clap::{Args, Subcommand};
use std::io::Read;
use std::path::PathBuf;

use kifu_clock::{format_time, replay_scenario, Resolution, Scenario, VectorCheck, VectorVerdict};

use crate::{CmdResult, Failure};

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &std::path::Path) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

/// `kifu clock replay FILE [--json]`.
///
/// FILE holds one scenario, or a set of them (`{"vectors": [...]}`, as in
/// the shared clock vectors), in which case each is replayed and compared
/// with its `expected` answer.
pub fn replay(a: ClockReplayArgs) -> CmdResult {
    let text = read_input(&a.file)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Failure::new(format!("{}: not JSON: {e}", a.file.display())))?;
    if let Some(vectors) = value.get("vectors").and_then(|v| v.as_array()) {
        return replay_set(&a, vectors);
    }
    let scenario: Scenario = serde_json::from_value(value)
        .map_err(|e| Failure::new(format!("{}: not a clock scenario: {e}", a.file.display())))?;
    let out = replay_scenario(&scenario).map_err(|e| Failure::new(e.to_string()))?;
    if a.json {
        say!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    // Clock faces, from the typed state: main time, then what overtime holds.
    let face = |ms: u64| format_time(ms, Resolution::Tenths);
    let side = |p: &kifu_clock::PlayerState| {
        let mut parts = vec![p.main_ms.map(face).unwrap_or_else(|| "-".into())];
        if let Some(n) = p.periods_left {
            parts.push(format!("{n} period(s)"));
        }
        if let Some(ms) = p.period_ms_left.or(p.period_ms) {
            parts.push(format!("period {}", face(ms)));
        }
        if let Some(n) = p.moves_left {
            parts.push(format!("{n} stone(s) to play"));
        }
        if let Some(ms) = p.block_ms_left {
            parts.push(format!("block {}", face(ms)));
        }
        parts.join(", ")
    };
    for s in &out.states_after_each_event {
        say!(
            "at +{:<9} {} to move; Black {:<34} White {:<34} flag at {}",
            face(s.after_event_t),
            s.to_move,
            side(&s.black),
            side(&s.white),
            s.flag_at_ms
                .map(|f| format!("+{}", face(f)))
                .unwrap_or_else(|| "none".into())
        );
    }
    match &out.result {
        Some(r) => say!(
            "result: {} loses on time at +{}",
            r.loss_on_time,
            face(r.at_ms)
        ),
        None => say!("result: no flag fell"),
    }
    Ok(())
}

/// Replays every scenario of a vector set and compares each with its
/// `expected` answer; any difference (or a vector that cannot be replayed)
/// makes the command fail after all have been reported.
fn replay_set(a: &ClockReplayArgs, vectors: &[serde_json::Value]) -> CmdResult {
    let mut rows = Vec::new();
    let mut differing = 0usize;
    for (i, v) in vectors.iter().enumerate() {
        let id = v["id"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("#{}", i + 1));
        let got = serde_json::from_value::<Scenario>(v.clone())
            .map_err(|e| format!("not a clock scenario: {e}"))
            .and_then(|s| replay_scenario(&s).map_err(|e| e.to_string()));
        let got_json = got
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|out| serde_json::to_value(out).map_err(|e| e.to_string()));
        let verdict = match (&got_json, v.get("expected")) {
            (Err(e), _) => Err(e.clone()),
            (Ok(_), None) => Ok("replayed (no expected answer to compare)"),
            (Ok(g), Some(x)) if g == x => Ok("reproduced"),
            (Ok(g), Some(x)) => Err(first_difference(x, g)),
        };
        if verdict.is_err() {
            differing += 1;
        }
        if !a.json {
            match &verdict {
                Ok(w) => say!("{id}: {w}"),
                Err(e) => say!("{id}: DIFFERS: {e}"),
            }
        }
        rows.push(VectorVerdict {
            got: got.ok(),
            id,
            ok: verdict.is_ok(),
            problem: verdict.err(),
        });
    }
    if a.json {
        say!(
            "{}",
            serde_json::to_string(&VectorCheck {
                checked: vectors.len() as u64,
                differing: differing as u64,
                vectors: rows,
            })
            .unwrap_or_default()
        );
    } else {
        say!(
            "{} of {} vectors reproduced",
            vectors.len() - differing,
            vectors.len()
        );
    }
    if differing > 0 {
        return Err(Failure::new(format!(
            "{differing} of {} clock vectors differ from their expected answer",
            vectors.len()
        )));
    }
    Ok(())
}

/// Where two JSON values first differ, as a path and both values.
fn first_difference(expected: &serde_json::Value, got: &serde_json::Value) -> String {
    fn walk(x: &serde_json::Value, g: &serde_json::Value, path: String) -> Option<String> {
        use serde_json::Value::{Array, Object};
        match (x, g) {
            (Object(xm), Object(gm)) => {
                let mut keys: Vec<&String> = xm.keys().chain(gm.keys()).collect();
                keys.sort();
                keys.dedup();
                keys.into_iter().find_map(|k| {
                    let n = serde_json::Value::Null;
                    walk(
                        xm.get(k).unwrap_or(&n),
                        gm.get(k).unwrap_or(&n),
                        format!("{path}.{k}"),
                    )
                })
            }
            (Array(xa), Array(ga)) if xa.len() == ga.len() => xa
                .iter()
                .zip(ga)
                .enumerate()
                .find_map(|(i, (x, g))| walk(x, g, format!("{path}[{i}]"))),
            _ if x == g => None,
            _ => Some(format!("at {path}: expected {x}, got {g}")),
        }
    }
    walk(expected, got, "expected".into()).unwrap_or_else(|| "values differ".into())
}

/// `kifu clock ...`.
#[derive(Debug, Subcommand)]
pub enum ClockCommand {
    /// Replay one clock scenario (JSON: system, params, start_ms, events, end_ms)
    /// and print the state after each event and the result.
    ///
    /// Time controls in short form: sudden:30m, fischer:90m+30s, byoyomi:60m+5x30s,
    /// canadian:60m+25/10m, simple:30s.
    Replay(ClockReplayArgs),
}

/// `kifu clock replay`.
#[derive(Debug, Args)]
pub struct ClockReplayArgs {
    /// The scenario file (`-` for standard input).
    pub file: PathBuf,
    /// Print `{"states_after_each_event": [...], "result": ...}`.
    #[arg(long)]
    pub json: bool,
}
