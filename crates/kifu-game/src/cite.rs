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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Consequence {
    /// The event that brought it about.
    pub at_seq: u64,
    /// What follows, in plain words.
    pub what: String,
    /// The rule: document and clause.
    pub rule: String,
    /// The clause's words, exactly as the document has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub quote: Option<String>,
}

/// A clause as cited: its name and its words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
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

/// The rule documents a referee or a committee may name, embedded: the
/// file as cited and its text.
const DOCUMENTS: &[(&str, &str)] = &[
    (
        "docs/rules/lgc-tournament-rules-2023.txt",
        include_str!("../../../docs/rules/lgc-tournament-rules-2023.txt"),
    ),
    (
        "docs/rules/london-open-rules.txt",
        include_str!("../../../docs/rules/london-open-rules.txt"),
    ),
    (
        "docs/rules/bga-aga-style-rules-summary.txt",
        include_str!("../../../docs/rules/bga-aga-style-rules-summary.txt"),
    ),
    (
        "docs/rules/uec-cup-computer-go-rules.txt",
        include_str!("../../../docs/rules/uec-cup-computer-go-rules.txt"),
    ),
    (
        "docs/rules/rif-renju-world-championship-rules.txt",
        include_str!("../../../docs/rules/rif-renju-world-championship-rules.txt"),
    ),
];

/// A clause named as a ruling names it, `LGC 2023, "Making a move"` (the
/// title the document is cited by, then the section, in quotes or not),
/// with the section's words as the document has them: the paragraph that
/// opens with the section's name. `None` when no rule document has that
/// title, or no paragraph opens with that name.
///
/// ```
/// let c = kifu_game::cite::cited_by_name("LGC 2023, \"Making a move\"").unwrap();
/// assert!(c.quote.unwrap().contains("pressing the clock with the same hand"));
/// assert!(kifu_game::cite::cited_by_name("LGC 2023, \"No such section\"").is_none());
/// ```
pub fn cited_by_name(name: &str) -> Option<Cited> {
    let (title, section) = name.split_once(',')?;
    let (title, section) = (title.trim(), section.trim().trim_matches('"').trim());
    if section.is_empty() {
        return None;
    }
    let (file, text) = DOCUMENTS.iter().find(|(f, _)| document_title(f) == title)?;
    let words = text.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix(section)?;
        let rest = rest.strip_prefix(": ").or_else(|| rest.strip_prefix(' '))?;
        let rest = rest.trim();
        (!rest.is_empty()).then_some(rest)
    })?;
    Some(Cited {
        rule: format!("{title} ({file}), \"{section}\""),
        quote: Some(words.to_string()),
    })
}
