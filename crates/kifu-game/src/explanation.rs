//! The game as a story in plain text: what `kifu explain GAME` prints and
//! what the replay page offers as a download, one text for both.

use std::fmt::Write as _;

use kifu_clock::{format_time, Resolution};
use kifu_ledger::{Event, Hash};

use crate::state::GameState;
use crate::text::result_text;

/// Every event with its time from the first, its signer and wording, each
/// consequence with its rule and the clause quoted, then the result the
/// rules give and any disagreement with the signed sheets. Lines end with
/// `\n`.
pub fn explanation_text(game: &Hash, events: &[Event], verified: bool) -> String {
    let state = GameState::replay(events);
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "game {}{}",
        hex::encode(game),
        if verified {
            ", every link and signature verified"
        } else {
            "  [the chain does NOT verify: run kifu verify]"
        }
    );
    let t0 = state.events.first().map(|e| e.at_ms).unwrap_or(0);
    for e in &state.events {
        let _ = writeln!(
            out,
            "{:>4}  +{:<9} {}: {}",
            e.seq,
            format_time(e.at_ms.saturating_sub(t0), Resolution::Seconds),
            e.signer,
            e.summary
        );
        for c in state.consequences_of(e.seq) {
            let _ = writeln!(out, "        -> {}  [{}]", c.what, c.rule);
            if let Some(q) = &c.quote {
                let _ = writeln!(out, "           \"{q}\"");
            }
        }
    }
    match state.result.computed() {
        Some(d) => {
            let _ = writeln!(
                out,
                "result by the rules: {} ({})",
                result_text(&d.result),
                d.rule
            );
        }
        None => out.push_str("result by the rules: none yet\n"),
    }
    for m in &state.result.mismatches {
        let _ = writeln!(out, "MISMATCH: {m}");
    }
    out
}
