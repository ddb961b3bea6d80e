//! Writing and reading a tournament chain: every fact is checked by the
//! projection and the role table before it is signed.

use kifu_ledger::tournament::{check_tournament_genesis, tournament_id};
use kifu_ledger::{
    Body, Event, GameKind, Hash, Head, Keypair, LedgerError, PairingSystem, Participant, Problem,
    Record, TournamentGenesis,
};

use crate::projection::{Projection, TournamentError};
use crate::verify::verify_tournament_records;

/// Why a fact could not be written or a chain read.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// Signatures, links or roles.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The fact contradicts the tournament so far.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// Records read back do not make one verified tournament chain; the
    /// first of the problems found
    /// ([`crate::verify_tournament_records`] reports them all).
    #[error("{}", not_verified(first, *count))]
    NotVerified {
        /// The first problem, in the report's order.
        first: Problem,
        /// How many problems there are.
        count: usize,
    },
    /// The records hold no chain, or more than one.
    #[error("the records hold {0} chains, not one tournament chain")]
    NotOneChain(usize),
    /// The same fact is on the chain already (a double click, a retry
    /// after a lost answer): nothing more to sign.
    #[error("already recorded at seq {seq}: {what}")]
    AlreadyRecorded {
        /// Where the chain holds it.
        seq: u64,
        /// The fact, in words.
        what: String,
    },
}

/// One of several facts refused: which (its kind, and its place when it is
/// not the first) and why. `kind refused: why`, `kind #3 refused: why`.
#[derive(Debug, thiserror::Error)]
#[error("{kind}{} refused: {error}", nth(*.index))]
pub struct Refused<E> {
    /// Its place among the facts, from 0.
    pub index: usize,
    /// Its kind (`Body::kind_name`).
    pub kind: &'static str,
    /// Why.
    pub error: E,
}

fn nth(index: usize) -> String {
    if index == 0 {
        String::new()
    } else {
        format!(" #{}", index + 1)
    }
}

impl Projection {
    /// Applies `bodies` in order, each checked against the tournament as
    /// the ones before it leave it; stops at the first refused.
    pub fn apply_all(&mut self, bodies: &[Body]) -> Result<(), Refused<TournamentError>> {
        for (index, body) in bodies.iter().enumerate() {
            self.apply(body).map_err(|error| Refused {
                index,
                kind: body.kind_name(),
                error,
            })?;
        }
        Ok(())
    }
}

/// `seq N: what (and M more problems)`.
fn not_verified(first: &Problem, count: usize) -> String {
    let at = first.seq.map(|s| format!("seq {s}: ")).unwrap_or_default();
    let more = match count {
        0 | 1 => String::new(),
        2 => " (and 1 more problem)".to_string(),
        n => format!(" (and {} more problems)", n - 1),
    };
    format!("{at}{}{more}", first.what)
}

/// A tournament chain in memory: its records and their projection.
#[derive(Debug, Clone)]
pub struct Chain {
    /// The signed records, genesis first.
    pub records: Vec<Record>,
    /// What they say.
    pub projection: Projection,
}

/// A genesis with OpenGotha's McMahon defaults
/// ([`crate::settings::scoring_defaults`]: bar 4d, floor 20k, bye 1/1,
/// absent 0/½ rounded down, criteria MMS, SOSM, SOSOSM), the default time
/// control, EGF class A and the given officials.
pub fn mcmahon_genesis(
    name: &str,
    short_name: &str,
    rounds: u32,
    officials: Vec<Participant>,
) -> TournamentGenesis {
    let d = crate::settings::scoring_defaults(&PairingSystem::McMahon, rounds);
    TournamentGenesis {
        name: name.into(),
        short_name: short_name.into(),
        city: String::new(),
        country: String::new(),
        start: String::new(),
        finish: String::new(),
        game: GameKind::Go,
        ruleset: kifu_game::default_ruleset(GameKind::Go).into(),
        time_control: crate::settings::DEFAULT_TIME_CONTROL,
        komi_half_points: 15,
        system: PairingSystem::McMahon,
        rounds,
        mm_bar: d.mm_bar.to_string(),
        mm_floor: d.mm_floor.to_string(),
        nbw2_bye: d.nbw2_bye,
        mms2_bye: d.mms2_bye,
        nbw2_absent: d.nbw2_absent,
        mms2_absent: d.mms2_absent,
        round_down_bye_absent: d.round_down_bye_absent,
        unplayed_as_half: d.unplayed_as_half,
        criteria: d.criteria.iter().map(|c| c.name().to_string()).collect(),
        egf_class: "A".into(),
        adjusted_time_minutes: 75,
        handicap_reduction: 0,
        officials,
    }
}

impl Chain {
    /// Signs the genesis of a new tournament.
    pub fn create(
        key: &Keypair,
        at_ms: u64,
        genesis: TournamentGenesis,
    ) -> Result<Chain, ChainError> {
        let event = Event {
            version: kifu_ledger::FORMAT_VERSION,
            chain: kifu_ledger::ZERO_HASH,
            seq: 0,
            prev_hash: kifu_ledger::ZERO_HASH,
            at_ms,
            signer: key.public(),
            body: Body::TournamentCreated(genesis.clone()),
        };
        let record = event.sign(key)?;
        check_tournament_genesis(&record)?;
        let projection = Projection::new(tournament_id(&record), genesis)?;
        Ok(Chain {
            records: vec![record],
            projection,
        })
    }

    /// Verifies records (in any order, duplicates counted once) and
    /// projects them; the records of the chain come back in seq order.
    /// Refuses them when anything fails (`docs/FORMAT.md` section 10).
    pub fn open(records: Vec<Record>) -> Result<Chain, ChainError> {
        let report = verify_tournament_records(&records);
        if let Some(first) = report.problems.first() {
            return Err(ChainError::NotVerified {
                first: first.clone(),
                count: report.problems.len(),
            });
        }
        match report.chain {
            Some(chain) if report.chains.len() == 1 => Ok(chain),
            _ => Err(ChainError::NotOneChain(report.chains.len())),
        }
    }

    /// The keys that may create the tournament's games: its director and
    /// referees, as its genesis names them (`kifu serve --creators-from`).
    pub fn game_creators(&self) -> Vec<kifu_ledger::PublicKey> {
        self.projection
            .genesis
            .officials
            .iter()
            .filter(|p| {
                matches!(
                    p.role,
                    kifu_ledger::Role::Director | kifu_ledger::Role::Referee
                )
            })
            .map(|p| p.key)
            .collect()
    }

    /// The tournament id.
    pub fn id(&self) -> Hash {
        self.projection.id
    }

    /// The head of the chain.
    pub fn head(&self) -> Head {
        let last = self.records.last().map(Record::hash).unwrap_or_default();
        Head {
            seq: self.records.len() as u64 - 1,
            hash: last,
        }
    }

    /// Checks `body` against the tournament and the role table, signs it
    /// and appends it. On refusal nothing changes.
    pub fn append(&mut self, key: &Keypair, at_ms: u64, body: Body) -> Result<&Record, ChainError> {
        let mut next = self.projection.clone();
        next.apply(&body)?;
        let event = Event::next(self.id(), self.head(), at_ms, key.public(), body);
        let record = event.sign(key)?;
        kifu_ledger::tournament::check_tournament_append(
            &self.id(),
            &self.projection.genesis,
            self.head(),
            &record,
        )?;
        self.projection = next;
        self.records.push(record);
        Ok(&self.records[self.records.len() - 1])
    }

    /// Checks a record signed elsewhere (a director's command line or
    /// browser) exactly as [`Chain::append`] checks a fact before signing
    /// it: its link to the head, its signature, the signer's role
    /// (`docs/TOURNAMENTS.md`, "Who signs what") and what it says against
    /// the tournament so far; then appends it. On refusal nothing changes.
    pub fn append_record(&mut self, record: Record) -> Result<&Record, ChainError> {
        let event = match kifu_ledger::tournament::check_tournament_append(
            &self.id(),
            &self.projection.genesis,
            self.head(),
            &record,
        ) {
            Ok(e) => e,
            Err(LedgerError::Conflict {
                expected_seq,
                got_seq,
            }) => {
                // Signed at a head the chain has passed: when that is
                // because the same fact was recorded since, say so.
                let stated = record.decode().ok().map(|e| e.body);
                let since = self.records.iter().skip(got_seq as usize).find_map(|r| {
                    let e = r.decode().ok()?;
                    (Some(&e.body) == stated.as_ref()).then_some(e)
                });
                return Err(match since {
                    Some(e) => ChainError::AlreadyRecorded {
                        seq: e.seq,
                        what: kifu_ledger::tournament::describe(&e.body),
                    },
                    None => LedgerError::Conflict {
                        expected_seq,
                        got_seq,
                    }
                    .into(),
                });
            }
            Err(e) => return Err(e.into()),
        };
        let mut next = self.projection.clone();
        next.apply(&event.body)?;
        self.projection = next;
        self.records.push(record);
        Ok(&self.records[self.records.len() - 1])
    }

    /// Checks, signs and appends `bodies` in order, all signed by `key` at
    /// `at_ms`: all of them, or, when one is refused, none (the chain is
    /// left as it was).
    pub fn append_all(
        &mut self,
        key: &Keypair,
        at_ms: u64,
        bodies: Vec<Body>,
    ) -> Result<(), Refused<ChainError>> {
        let (from, before) = (self.records.len(), self.projection.clone());
        for (index, body) in bodies.into_iter().enumerate() {
            let kind = body.kind_name();
            if let Err(error) = self.append(key, at_ms, body) {
                self.records.truncate(from);
                self.projection = before;
                return Err(Refused { index, kind, error });
            }
        }
        Ok(())
    }

    /// The decoded events, genesis first.
    pub fn events(&self) -> Result<Vec<Event>, ChainError> {
        Ok(self
            .records
            .iter()
            .map(Record::decode)
            .collect::<Result<Vec<_>, _>>()?)
    }
}
