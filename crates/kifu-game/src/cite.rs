//! Citations: which document and clause a consequence comes from.
//!
//! Every [`Consequence`] takes its clause and the clause's words from one
//! entry of the clause table of the rules in force (`kifu_go::Ruleset::clause`
//! for Go, with the tournament's [`kifu_go::Conduct`]; the RIF tournament
//! rules for Renju and Gomoku), so the clause named and the words quoted
//! always come from the same place in the same document. The rule reads
//! `document (file), "section"`, the file being one of the project's rule
//! documents (`docs/rules/`).

use kifu_go::{Clause, Topic};
use serde::Serialize;

/// One thing the rules say follows from the recorded facts, with the rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Consequence {
    /// The event that brought it about.
    pub at_seq: u64,
    /// What follows, in plain words.
    pub what: String,
    /// The rule: document and clause.
    pub rule: String,
    /// The clause's words, exactly as the document has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
}

/// A clause as cited: its name and its words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cited {
    /// `document (file), "section"`.
    pub rule: String,
    /// The words, when the rules in force quote them.
    pub quote: Option<String>,
}

impl Cited {
    /// A rule outside the rule documents (the format, an engine), unquoted.
    pub(crate) fn other(rule: impl Into<String>) -> Cited {
        Cited {
            rule: rule.into(),
            quote: None,
        }
    }
}

/// The title a rule document is cited by.
pub fn document_title(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    match name {
        "lgc-tournament-rules-2023.txt" => "LGC 2023",
        "london-open-rules.txt" => "London Open",
        "bga-aga-style-rules-summary.txt" => "BGA AGA-style rules",
        "uec-cup-computer-go-rules.txt" => "UEC Cup",
        "rif-renju-world-championship-rules.txt" => "RIF World Championship rules",
        _ => file,
    }
}

/// A clause of the table, cited.
pub(crate) fn cited(c: &Clause) -> Cited {
    Cited {
        rule: format!(
            "{} ({}), \"{}\"",
            document_title(&c.document),
            c.document,
            c.section
        ),
        quote: Some(c.text.clone()),
    }
}

/// What a topic is about, in words (for a profile that quotes no clause).
pub(crate) fn topic_words(t: Topic) -> &'static str {
    t.words()
}
