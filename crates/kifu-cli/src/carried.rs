//! The tournament chain an archive carries (`docs/FORMAT.md` section 7,
//! "An archive that carries its tournament chain"): verified as a chain
//! file is (`kifu_tournament::verify_tournament_records`, section 10), and
//! naming the organiser's keys (its genesis's `director` officials) that
//! the archive is checked against when the reader names no key.

use kifu_ledger::{GameSummary, Hash, PublicKey, Record, Role, VerifyReport};

/// What a carried tournament chain says about whom to trust.
#[derive(Debug, Clone)]
pub struct Carried {
    /// The chain's id.
    pub id: Hash,
    /// The tournament's name.
    pub name: String,
    /// The organiser's keys: the `director` officials of its genesis (empty
    /// when the chain does not verify: it then vouches for nothing).
    pub directors: Vec<PublicKey>,
}

/// The verdict on the carried records, in a game report's shape (the
/// chain's summary in `games`), and what the chain names.
pub fn check(records: &[Record]) -> (VerifyReport, Option<Carried>) {
    let t = kifu_tournament::verify_tournament_records(records);
    let carried = t.chain.as_ref().map(|c| Carried {
        id: c.id(),
        name: c.projection.genesis.name.clone(),
        directors: if t.ok() {
            c.projection
                .genesis
                .officials
                .iter()
                .filter(|p| p.role == Role::Director)
                .map(|p| p.key)
                .collect()
        } else {
            Vec::new()
        },
    });
    let report = VerifyReport {
        games: t
            .chains
            .iter()
            .map(|c| GameSummary {
                game: c.id,
                events: c.events,
                head: c.head,
                head_at_ms: c.head_at_ms,
                result_seq: None,
                pending_appeals: Vec::new(),
                decided_appeals: Vec::new(),
            })
            .collect(),
        records: t.records,
        distinct: t.distinct,
        problems: t.problems,
        forks: t.forks,
        duplicates: t.duplicates,
        uninterpreted: Vec::new(),
        warnings: t.warnings,
    };
    (report, carried)
}

/// The keys an archive is checked against: the reader's (`--trust`), or
/// when it named none, the organiser's keys its carried tournament chain
/// names.
pub fn trusted(given: &[PublicKey], carried: Option<&Carried>) -> Vec<PublicKey> {
    match carried {
        Some(c) if given.is_empty() => c.directors.clone(),
        _ => given.to_vec(),
    }
}

/// The carried chain's id, for passing over its records.
pub fn ids(carried: Option<&Carried>) -> Vec<Hash> {
    carried.map(|c| vec![c.id]).unwrap_or_default()
}
