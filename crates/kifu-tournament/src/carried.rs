//! The tournament chain an archive carries (`docs/FORMAT.md` section 7,
//! "An archive that carries its tournament chain"), and the organiser's
//! keys a tournament chain names: the keys of its genesis's `director`
//! officials (LGC 2023, "Tournament Director": the head of local
//! organisation), which a reader who names no key checks the archive
//! against. The carried records are verified as a chain file is
//! ([`verify_tournament_records`], section 10).

use kifu_ledger::report::CarriedDocument;
use kifu_ledger::{GameSummary, Hash, PublicKey, Record, Role, VerifyReport};

use crate::{verify_tournament_records, Chain};

/// What a carried tournament chain says about whom to trust.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    /// The chain's id.
    pub id: Hash,
    /// The tournament's name.
    pub name: String,
    /// The organiser's keys: the `director` officials of its genesis (empty
    /// when the chain does not verify: it then vouches for nothing).
    pub directors: Vec<PublicKey>,
}

impl Carried {
    /// The keys an archive is checked against: the reader's `given` keys,
    /// or when the reader named none, the organiser's keys this chain names.
    pub fn trusted(carried: Option<&Carried>, given: &[PublicKey]) -> Vec<PublicKey> {
        match carried {
            Some(c) if given.is_empty() => c.directors.clone(),
            _ => given.to_vec(),
        }
    }

    /// The carried chain's id, for passing over its records (a store holds
    /// games, not the tournament chain an archive carries).
    pub fn ids(carried: Option<&Carried>) -> Vec<Hash> {
        carried.map(|c| vec![c.id]).unwrap_or_default()
    }

    /// What a reader is told of the chain: verified as a chain file, and,
    /// when `by_default` (the reader named no key), the organiser's keys the
    /// archive is checked against.
    pub fn sentence(&self, by_default: bool) -> String {
        let keys = if by_default && !self.directors.is_empty() {
            format!(
                "; the archive is checked against the organiser's key it names: {}",
                self.directors
                    .iter()
                    .map(|k| format!("{} ({})", k.to_hex(), k.sha256_fingerprint()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        };
        format!(
            "tournament chain {} ({}) carried in the archive, verified as a chain file{keys}",
            hex::encode(&self.id[..6]),
            self.name
        )
    }

    /// The chain as the verification report names it; `trusted_by_default`
    /// when the reader named no key, so that the organiser's keys are the
    /// ones the archive was checked against.
    pub fn document(&self, trusted_by_default: bool) -> CarriedDocument {
        CarriedDocument {
            id: hex::encode(self.id),
            name: self.name.clone(),
            organiser_keys: self.directors.iter().map(|k| k.to_hex()).collect(),
            trusted_by_default,
        }
    }
}

/// The organiser's keys of a verified chain: its genesis's `director`
/// officials.
pub fn directors(chain: &Chain) -> Vec<PublicKey> {
    chain
        .projection
        .genesis
        .officials
        .iter()
        .filter(|p| p.role == Role::Director)
        .map(|p| p.key)
        .collect()
}

/// Why a tournament chain vouches for no key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrganiserError {
    /// The chain does not verify (its first problem, or no genesis).
    #[error("the tournament chain does not verify: {0}")]
    NotVerified(String),
    /// The chain's genesis names no director.
    #[error("the tournament names no director")]
    NoDirector,
}

/// The organiser's keys a tournament chain file's `records` name; the
/// chain must verify and name at least one director.
///
/// # Errors
///
/// [`OrganiserError`].
pub fn organiser_keys(records: &[Record]) -> Result<Vec<PublicKey>, OrganiserError> {
    let report = verify_tournament_records(records);
    let first = report.problems.first().map(|p| p.to_string());
    let (Some(chain), None) = (&report.chain, first.clone()) else {
        return Err(OrganiserError::NotVerified(
            first.unwrap_or_else(|| "no tournament genesis".into()),
        ));
    };
    let keys = directors(chain);
    if keys.is_empty() {
        return Err(OrganiserError::NoDirector);
    }
    Ok(keys)
}

/// Why a tournament chain cannot be carried in an archive.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the tournament chain does not verify ({0})")]
pub struct CarryError(pub String);

/// The verified branch of a tournament chain file's `records`, to carry in
/// an archive (`docs/FORMAT.md` section 7), listed in its manifest like a
/// game: the chain's id and its records from the genesis to the head.
///
/// # Errors
///
/// [`CarryError`] when the chain does not verify (its first problem).
pub fn carry(records: &[Record]) -> Result<(Hash, Vec<Record>), CarryError> {
    let t = verify_tournament_records(records);
    let (Some(chain), true) = (t.chain, t.problems.is_empty()) else {
        return Err(CarryError(
            t.problems
                .first()
                .map(|p| p.to_string())
                .unwrap_or_default(),
        ));
    };
    Ok((chain.id(), chain.records))
}

/// The verdict on the carried records, in a game report's shape (the
/// chain's summary in `games`), and what the chain names.
pub fn check(records: &[Record]) -> (VerifyReport, Option<Carried>) {
    let t = verify_tournament_records(records);
    let carried = t.chain.as_ref().map(|c| Carried {
        id: c.id(),
        name: c.projection.genesis.name.clone(),
        directors: if t.ok() { directors(c) } else { Vec::new() },
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

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};

    #[test]
    fn a_reader_s_keys_come_first_and_the_organiser_s_keys_stand_in_for_none() {
        let mine = kifu_ledger::Keypair::from_seed([3; 32]).public();
        let organiser = kifu_ledger::Keypair::from_seed([4; 32]).public();
        let c = Carried {
            id: [9; 32],
            name: "cup".into(),
            directors: vec![organiser],
        };
        assert_eq!(Carried::trusted(Some(&c), &[]), vec![organiser]);
        assert_eq!(Carried::trusted(Some(&c), &[mine]), vec![mine]);
        assert_eq!(Carried::trusted(None, &[]), Vec::<PublicKey>::new());
        assert_eq!(Carried::ids(Some(&c)), vec![[9; 32]]);
        assert!(Carried::ids(None).is_empty());
        let d = c.document(true);
        assert_eq!(d.id, hex::encode([9u8; 32]));
        assert_eq!(d.organiser_keys, vec![organiser.to_hex()]);
        assert!(d.trusted_by_default);
    }

    #[test]
    fn a_verified_chain_names_its_directors_and_a_broken_one_vouches_for_none() {
        use kifu_ledger::{Keypair, Participant};
        let director = Keypair::from_seed([0x41; 32]);
        let referee = Keypair::from_seed([0x42; 32]);
        let officials = vec![
            Participant {
                role: Role::Director,
                name: "Director".into(),
                key: director.public(),
            },
            Participant {
                role: Role::Referee,
                name: "Referee".into(),
                key: referee.public(),
            },
        ];
        let chain = Chain::create(
            &director,
            1_000,
            crate::mcmahon_genesis("Carried Open", "co", 3, officials),
        )
        .unwrap();
        assert_eq!(organiser_keys(&chain.records), Ok(vec![director.public()]));
        let (report, carried) = check(&chain.records);
        assert!(report.ok());
        assert_eq!(report.games.len(), 1);
        assert_eq!(report.games[0].game, chain.id());
        let c = carried.unwrap();
        assert_eq!((c.id, c.name.as_str()), (chain.id(), "Carried Open"));
        assert_eq!(c.directors, vec![director.public()]);
        let said = c.sentence(true);
        assert!(said.contains("carried in the archive, verified as a chain file; the archive is checked against the organiser's key it names: "), "{said}");
        assert!(said.contains(&director.public().to_hex()));
        assert!(!c.sentence(false).contains("organiser"));
        let (id, carried) = carry(&chain.records).unwrap();
        assert_eq!((id, carried.len()), (chain.id(), 1));
        assert_eq!(carried.last().map(Record::hash), Some(chain.head().hash));
        // A record altered: the chain still names itself, vouches for no key.
        let mut records = chain.records.clone();
        records[0].signature[0] ^= 1;
        let (report, carried) = check(&records);
        assert!(!report.ok());
        assert!(carried.is_none_or(|c| c.directors.is_empty()));
        assert!(organiser_keys(&records).is_err());
        assert!(carry(&records).is_err());
    }

    #[test]
    fn game_records_carry_no_tournament_and_vouch_for_no_organiser() {
        let cast = Cast::new();
        let g = sample_game(&cast, "not a tournament");
        let (report, carried) = check(&g.records);
        assert!(carried.is_none());
        assert!(!report.ok(), "a game chain is no tournament chain");
        assert!(matches!(
            organiser_keys(&g.records),
            Err(OrganiserError::NotVerified(_))
        ));
        assert!(matches!(
            organiser_keys(&[]),
            Err(OrganiserError::NotVerified(w)) if w == "no tournament genesis"
        ));
    }
}
