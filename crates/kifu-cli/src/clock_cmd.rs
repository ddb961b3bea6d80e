//! `kifu clock replay`.

use std::io::Read;

use kifu_clock::{format_time, replay_scenario, Resolution, Scenario};

use crate::cli::ClockReplayArgs;
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
pub fn replay(a: ClockReplayArgs) -> CmdResult {
    let text = read_input(&a.file)?;
    let scenario: Scenario = serde_json::from_str(&text)
        .map_err(|e| Failure::new(format!("{}: not a clock scenario: {e}", a.file.display())))?;
    let out = replay_scenario(&scenario).map_err(|e| Failure::new(e.to_string()))?;
    if a.json {
        say!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    let v = serde_json::to_value(&out)?;
    for s in v["states_after_each_event"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let side = |k: &str| {
            let p = &s[k];
            let main = p["main_ms"]
                .as_u64()
                .map(|m| format_time(m, Resolution::Tenths))
                .unwrap_or_default();
            let extra: Vec<String> = p
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| k.as_str() != "main_ms")
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{main} {}", extra.join(" "))
        };
        say!(
            "t={:>8}  to move {}  B {:<28} W {:<28} flag at {}",
            s["after_event_t"],
            s["to_move"].as_str().unwrap_or("-"),
            side("B"),
            side("W"),
            s["flag_at_ms"]
        );
    }
    match &out.result {
        Some(_) => say!("result: {}", v["result"]),
        None => say!("result: no flag fell"),
    }
    Ok(())
}
