//! Citations: which document and clause a consequence comes from.
//!
//! Every [`Consequence`] names its rule as `document (file), "clause"`, the
//! file being one of the project's rule documents (`docs/rules/`), so that a
//! reader can open the text and find the words.

use serde::Serialize;

/// One thing the rules say follows from the recorded facts, with the rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Consequence {
    /// The event that brought it about.
    pub at_seq: u64,
    /// What follows, in plain words.
    pub what: String,
    /// The rule: profile, document and clause.
    pub rule: String,
    /// The clause's words, where the ruleset profile carries them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
}

/// The documents, as cited.
pub(crate) const LGC: &str = "LGC 2023 (docs/rules/lgc-tournament-rules-2023.txt)";
pub(crate) const LONDON: &str = "London Open (docs/rules/london-open-rules.txt)";
pub(crate) const BGA: &str = "BGA AGA-style rules (docs/rules/bga-aga-style-rules-summary.txt)";
pub(crate) const UEC: &str = "UEC Cup (docs/rules/uec-cup-computer-go-rules.txt)";
pub(crate) const RIF: &str =
    "RIF World Championship rules (docs/rules/rif-renju-world-championship-rules.txt)";

/// `document, "clause"`.
pub(crate) fn cite(document: &str, clause: &str) -> String {
    format!("{document}, \"{clause}\"")
}

/// LGC 2023, by clause heading.
pub(crate) fn lgc(clause: &str) -> String {
    cite(LGC, clause)
}

/// BGA summary, by section.
pub(crate) fn bga(clause: &str) -> String {
    cite(BGA, clause)
}

/// UEC Cup, by item.
pub(crate) fn uec(clause: &str) -> String {
    cite(UEC, clause)
}

/// London Open, by rule.
pub(crate) fn london(clause: &str) -> String {
    cite(LONDON, clause)
}

/// RIF example tournament rules, by section.
pub(crate) fn rif(clause: &str) -> String {
    cite(RIF, clause)
}

/// The document that governs arbitration, sanctions and attendance under a
/// profile. The Go profiles other than the UEC Cup are played at tournaments
/// run under the LGC rules of arbitration; the UEC Cup and the RIF have their
/// own.
pub(crate) fn arbitration_document(profile: &str) -> &'static str {
    match profile {
        "uec-cup" => UEC,
        "rif-renju" | "gomoku-freestyle" | "gomoku-standard" => RIF,
        _ => LGC,
    }
}

/// The illegal-move clause of a Go profile.
pub(crate) fn illegal_move_clause(profile: &str) -> String {
    match profile {
        "london-open" => london("4 (the EGF illegal-move rule)"),
        "bga-aga" => bga("Illegal Moves"),
        "uec-cup" => uec("f) When illegal moves are played"),
        _ => lgc("Illegal move"),
    }
}
