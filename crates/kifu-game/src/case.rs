//! The case at an event, in the lines `kifu replay` prints below the board
//! and the clocks and the replay page shows in its case panel: illegal moves
//! pointed out, irregularities, each dispute and where it stands, rulings,
//! protests, the appeals committee, each appeal with its panel and decision,
//! the sanctions, the result the rules give with the count behind it, the
//! results declared and signed, and what is still missing. One wording for
//! both faces, so the terminal and the browser say the same thing.

use crate::state::GameState;
use crate::{result_text, Admissibility};

/// A value of the projection in words: its serde name, `_` as spaces.
fn word<T: serde::Serialize>(v: &T) -> String {
    let name = match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(serde_json::Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    name.replace('_', " ")
}

/// The case at the state's event, a line each, as `kifu replay` prints it.
pub fn case_lines(s: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    for n in &s.illegal_moves {
        out.push(format!(
            "illegal move at event {} ({}) pointed out by {} at event {}: {}",
            n.move_seq,
            n.violations
                .iter()
                .map(|v| crate::words::violation_code(v))
                .collect::<Vec<_>>()
                .join(", "),
            n.noticed_by,
            n.noticed_seq,
            n.remedy
        ));
    }
    for i in &s.irregularities {
        out.push(format!(
            "irregularity at event {}: {}: {}",
            i.seq,
            word(&i.kind),
            i.outcome
        ));
    }
    for d in &s.disputes {
        out.push(format!(
            "dispute at event {} by {}: {}; {}{}",
            d.seq,
            d.raised_by,
            d.matter,
            word(&d.status),
            if d.rulings.is_empty() {
                String::new()
            } else {
                format!(
                    ", rulings at event {}",
                    d.rulings
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ));
    }
    for r in &s.rulings {
        out.push(format!(
            "ruling at event {} ({}): {}{}",
            r.seq,
            word(&r.ruling.kind),
            r.ruling.decision,
            if r.changes.is_empty() {
                String::new()
            } else {
                format!(" -> {}", r.changes.join("; "))
            }
        ));
    }
    for p in &s.protests {
        out.push(format!(
            "protest at event {} by {}: {}",
            p.seq, p.player, p.statement
        ));
    }
    if let Some(c) = &s.committee {
        let names: Vec<&str> = c.members.iter().map(|m| m.name.as_str()).collect();
        let reserves: Vec<&str> = c.reserves.iter().map(|m| m.name.as_str()).collect();
        out.push(format!(
            "appeals committee: {}; reserves: {}",
            names.join(", "),
            reserves.join(", ")
        ));
    }
    for a in &s.appeals {
        let adm = match &a.admissibility {
            Admissibility::Admissible => "admissible".to_string(),
            Admissibility::Inadmissible { reason } => format!("inadmissible: {reason}"),
            Admissibility::PendingResultSheet => "pending the result sheet".into(),
        };
        out.push(format!(
            "appeal at event {} by {} against the ruling at event {}: {adm}{}",
            a.seq,
            a.player,
            a.ruling_seq,
            a.decision
                .as_ref()
                .map(|d| format!(
                    "; decided at event {} by {}: {}",
                    d.seq,
                    d.signed_by.join(", "),
                    word(&d.verdict)
                ))
                .unwrap_or_default()
        ));
        if let Some(panel) = &a.panel {
            out.push(format!("  panel: {panel}"));
        }
    }
    for x in &s.sanctions {
        out.push(format!(
            "sanction at event {} on {}: {} ({}; {})",
            x.seq,
            x.player,
            crate::words::sanction(&x.kind),
            x.reason,
            x.source
        ));
    }
    match s.result.computed() {
        Some(d) => out.push(format!(
            "result by the rules: {} (event {}; {})",
            result_text(&d.result),
            d.at_seq,
            d.rule
        )),
        None => out.push("result by the rules: none yet".into()),
    }
    if let Some(count) = s.count_text() {
        out.push(format!("count: {count}"));
    }
    for st in &s.result.declared {
        out.push(format!(
            "declared at event {} by {}: {}",
            st.seq,
            st.signer,
            result_text(&st.result)
        ));
    }
    for st in &s.result.signatures {
        out.push(format!(
            "sheet signed at event {} by {}: {}{}",
            st.seq,
            st.signer,
            result_text(&st.result),
            if st.under_protest {
                ", under protest"
            } else {
                ""
            }
        ));
    }
    for m in &s.result.mismatches {
        out.push(format!("MISMATCH: {m}"));
    }
    if !s.result.missing_signatures.is_empty() {
        out.push(format!(
            "still to sign the sheet: {}",
            s.result.missing_signatures.join(", ")
        ));
    }
    out
}
