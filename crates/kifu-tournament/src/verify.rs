//! Verifying a tournament chain from any set of its records: every problem
//! is reported, in any order of the records (`docs/FORMAT.md` section 10:
//! section 6 for one chain, with the genesis check of kind 44 and the
//! tournament's role table).
//!
//! The walk is kifu-ledger's whole-chain verification
//! ([`kifu_ledger::verify_records`]) with a tournament's state instead of a
//! game's: the genesis `officials` decide who may sign what, and each fact
//! is applied to the [`Projection`] of its branch, which refuses what
//! cannot be a fact of the tournament. Identical copies are duplicates (not
//! a failure); two validly signed records at one seq are a fork (a failure,
//! both kept as evidence); every other record is on a verified branch or
//! reported on its own.

use std::collections::{BTreeMap, HashMap};

use kifu_ledger::tournament::{check_role, check_tournament_genesis, tournament_id};
use kifu_ledger::{
    children_of, forks_of, unreached, walk_chain, ChainWalk, Duplicate, Event, Fork, Hash, Head,
    Header, LedgerError, Problem, Record, ZERO_HASH,
};

use crate::chain::Chain;
use crate::projection::Projection;

/// The words of the failure of records holding two or more geneses.
pub const MORE_THAN_ONE: &str = "more than one tournament chain in one file";

/// One chain found among the records: where its longest verified branch
/// ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainSummary {
    /// The chain id (the hash of its genesis record).
    pub id: Hash,
    /// Events on the verified branch, genesis included.
    pub events: u64,
    /// The last verified record of that branch.
    pub head: Head,
    /// Its timestamp.
    pub head_at_ms: u64,
}

/// The outcome of verifying a tournament chain's records. It does not
/// depend on the order of the records given.
#[derive(Debug, Clone, Default)]
pub struct TournamentReport {
    /// Records given (duplicates included).
    pub records: u64,
    /// Distinct records given.
    pub distinct: u64,
    /// Chains whose genesis is accepted, in id order (one, for a
    /// tournament chain file: more than one genesis is a failure,
    /// [`MORE_THAN_ONE`]).
    pub chains: Vec<ChainSummary>,
    /// Everything that failed, sorted.
    pub problems: Vec<Problem>,
    /// Forks found (each also a problem).
    pub forks: Vec<Fork>,
    /// Records given more than once (not a failure).
    pub duplicates: Vec<Duplicate>,
    /// Timestamps going backwards: reported, not failures.
    pub warnings: Vec<Problem>,
    /// The tournament along its longest verified branch (highest seq, then
    /// lowest head hash), records in seq order: the first chain above whose
    /// genesis creates a tournament.
    pub chain: Option<Chain>,
}

impl TournamentReport {
    /// True when nothing failed.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

struct Parsed<'a> {
    record: &'a Record,
    hash: Hash,
    header: Header,
    sig_ok: bool,
}

fn short(h: &Hash) -> String {
    hex::encode(&h[..8])
}

/// Verifies a tournament chain given as any set of records (a tournament
/// chain file, or the part of one an appeal bundle carries).
///
/// ```
/// # use kifu_ledger::{Keypair, Participant, Role};
/// use kifu_tournament::{mcmahon_genesis, verify_tournament_records, Chain};
/// let director = Keypair::from_seed([7; 32]);
/// let officials = vec![Participant { role: Role::Director, name: "D".into(), key: director.public() }];
/// let chain = Chain::create(&director, 0, mcmahon_genesis("Open", "open", 3, officials)).unwrap();
/// let mut records = chain.records.clone();
/// records.push(records[0].clone());
/// let report = verify_tournament_records(&records);
/// assert!(report.ok());
/// assert_eq!(report.duplicates.len(), 1);
/// assert_eq!(report.chain.unwrap().id(), chain.id());
/// ```
pub fn verify_tournament_records(records: &[Record]) -> TournamentReport {
    let mut report = TournamentReport {
        records: records.len() as u64,
        ..Default::default()
    };
    // Section 6, step 1: identical records count once.
    let mut seen: HashMap<Hash, (usize, u64)> = HashMap::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        seen.entry(r.hash()).or_insert((i, 0)).1 += 1;
    }
    let mut unique: Vec<(Hash, usize, u64)> =
        seen.into_iter().map(|(h, (i, n))| (h, i, n)).collect();
    unique.sort_unstable_by_key(|(h, _, _)| *h);
    report.distinct = unique.len() as u64;
    // Step 2: envelopes.
    let mut parsed = Vec::with_capacity(unique.len());
    for (hash, i, copies) in unique {
        let record = &records[i];
        match record.header() {
            Ok(header) => {
                if copies > 1 {
                    report.duplicates.push(Duplicate {
                        game: chain_of(&hash, &header),
                        seq: header.seq,
                        hash,
                        copies,
                    });
                }
                let sig_ok = record.verify_signature(&header.signer).is_ok();
                parsed.push(Parsed {
                    record,
                    hash,
                    header,
                    sig_ok,
                });
            }
            Err(e) => {
                if copies > 1 {
                    report.duplicates.push(Duplicate {
                        game: ZERO_HASH,
                        seq: 0,
                        hash,
                        copies,
                    });
                }
                report.problems.push(Problem {
                    game: ZERO_HASH,
                    seq: None,
                    what: format!("record {}: {e}", short(&hash)),
                });
            }
        }
    }
    // Step 3: group by chain.
    let mut by_chain: BTreeMap<Hash, Vec<usize>> = BTreeMap::new();
    for (i, p) in parsed.iter().enumerate() {
        by_chain
            .entry(chain_of(&p.hash, &p.header))
            .or_default()
            .push(i);
    }
    for (id, members) in &by_chain {
        if let Some(chain) = verify_chain(id, members, &parsed, &mut report) {
            if report.chain.is_none() {
                report.chain = Some(chain);
            }
        }
    }
    // A tournament chain file is one tournament (`docs/FORMAT.md` section
    // 10: a file of "its own records"): a second genesis, however valid,
    // is a second tournament, and the file fails. Each chain is verified
    // above as well, so its own problems are reported too.
    let geneses: Vec<&Hash> = by_chain
        .iter()
        .filter(|(id, members)| members.iter().any(|&i| parsed[i].hash == **id))
        .map(|(id, _)| id)
        .collect();
    if geneses.len() > 1 {
        report.problems.push(Problem {
            game: ZERO_HASH,
            seq: None,
            what: format!(
                "{MORE_THAN_ONE}: {} geneses, chains {}",
                geneses.len(),
                geneses
                    .iter()
                    .map(hex::encode)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    report.problems.sort();
    report.warnings.sort();
    report.duplicates.sort_by_key(|d| (d.game, d.seq, d.hash));
    report.forks.sort_by_key(|f| (f.game, f.seq));
    report
}

/// The chain a record belongs to: its own hash for a genesis.
fn chain_of(hash: &Hash, h: &Header) -> Hash {
    if h.seq == 0 && h.chain == ZERO_HASH {
        *hash
    } else {
        h.chain
    }
}

/// A branch being followed: its last record and the tournament there.
/// A tournament chain's part of the walk: the projection refuses what is
/// not a fact of this tournament; the best leaf (highest seq, then lowest
/// hash) is the tournament, read back through `parent`.
struct TournamentWalk<'a, 'p> {
    id: &'a Hash,
    parsed: &'a [Parsed<'p>],
    report: &'a mut TournamentReport,
    /// The record each accepted record follows.
    parent: HashMap<usize, usize>,
    /// The best leaf: (seq, lowest hash), head time, record, events, state.
    best: Option<(u64, std::cmp::Reverse<Hash>, u64, usize, u64, Projection)>,
}

/// A branch's state: the projection and the time of its last event.
type Along = (Projection, u64);

impl TournamentWalk<'_, '_> {
    fn refuse(&mut self, i: usize, what: String) {
        let p = &self.parsed[i];
        let what = format!("record {}: {what}", short(&p.hash));
        self.problem(p.header.seq, what);
    }
}

impl ChainWalk for TournamentWalk<'_, '_> {
    type State = Along;
    type Admitted = Event;

    fn hash(&self, i: usize) -> Hash {
        self.parsed[i].hash
    }

    fn seq(&self, i: usize) -> u64 {
        self.parsed[i].header.seq
    }

    fn signed(&self, i: usize) -> bool {
        self.parsed[i].sig_ok
    }

    fn problem(&mut self, seq: u64, what: String) {
        self.report.problems.push(Problem {
            game: *self.id,
            seq: Some(seq),
            what,
        });
    }

    fn admit(&mut self, (projection, _): &Along, i: usize) -> Option<Event> {
        let p = &self.parsed[i];
        let event = match p.header.clone().into_event() {
            Ok(e) => e,
            // FORMAT.md section 10 (clarified): a kind beyond the table
            // is a failure in a tournament chain.
            Err(LedgerError::UnknownKind(k)) => {
                self.refuse(i, format!("unknown kind {k} in a tournament chain"));
                return None;
            }
            Err(e) => {
                self.refuse(i, e.to_string());
                return None;
            }
        };
        let roles = projection.genesis.roles_of(&event.signer);
        if let Err(r) = check_role(&roles, &event.body, event.seq) {
            self.refuse(i, r.to_string());
            return None;
        }
        if let Err(e) = projection.check(&event.body) {
            self.refuse(i, format!("not a fact of this tournament: {e}"));
            return None;
        }
        Some(event)
    }

    fn apply(&mut self, state: &mut Along, parent: usize, i: usize, event: Event) -> bool {
        // Checked by `admit` against the same projection.
        if let Err(e) = state.0.apply(&event.body) {
            self.problem(event.seq, format!("not a fact of this tournament: {e}"));
            return false;
        }
        // Both times come from records: compared without overflow.
        if let Some(by) = kifu_ledger::standing::time_backwards(state.1, event.at_ms) {
            self.report.warnings.push(Problem {
                game: *self.id,
                seq: Some(event.seq),
                what: format!("time goes backwards: {by} ms before the previous event"),
            });
        }
        state.1 = event.at_ms;
        self.parent.insert(i, parent);
        true
    }

    fn leaf(&mut self, (projection, _): Along, i: usize, count: u64) {
        let here = &self.parsed[i];
        let key = (here.header.seq, std::cmp::Reverse(here.hash));
        if self.best.as_ref().is_none_or(|(s, h, ..)| key > (*s, *h)) {
            self.best = Some((key.0, key.1, here.header.at_ms, i, count, projection));
        }
    }
}

/// Section 6, steps 4 to 7, for one chain; gives the tournament along its
/// best verified branch.
fn verify_chain(
    id: &Hash,
    members: &[usize],
    parsed: &[Parsed<'_>],
    report: &mut TournamentReport,
) -> Option<Chain> {
    let problem = |seq: Option<u64>, what: String| Problem {
        game: *id,
        seq,
        what,
    };
    // Step 7: forks, whatever becomes of the chain.
    let members_at = members
        .iter()
        .map(|&i| (&parsed[i].header, parsed[i].hash, parsed[i].sig_ok));
    for fork in forks_of(id, members_at) {
        report.problems.push(fork.problem());
        report.forks.push(fork);
    }
    // Step 4: the genesis is the record whose hash is the chain id.
    let Some(&gi) = members.iter().find(|&&i| parsed[i].hash == *id) else {
        report.problems.push(problem(
            None,
            format!(
                "no genesis record for this chain ({} records name it)",
                members.len()
            ),
        ));
        return None;
    };
    let genesis = check_tournament_genesis(parsed[gi].record)
        .map_err(|e| e.to_string())
        .and_then(|(event, g)| {
            Projection::new(tournament_id(parsed[gi].record), g)
                .map(|p| (event, p))
                .map_err(|e| e.to_string())
        });
    let (genesis_event, projection) = match genesis {
        Ok(x) => x,
        Err(e) => {
            report
                .problems
                .push(problem(Some(0), format!("genesis: {e}")));
            return None;
        }
    };
    let children = children_of(members, gi, |i| (parsed[i].hash, &parsed[i].header));
    let mut reached = vec![false; parsed.len()];
    reached[gi] = true;
    let mut walk = TournamentWalk {
        id,
        parsed,
        report,
        parent: HashMap::new(),
        best: None,
    };
    walk_chain(
        &mut walk,
        gi,
        (projection, genesis_event.at_ms),
        &children,
        &mut reached,
    );
    let (best, parent) = (walk.best, walk.parent);
    // Step 6: records no walk reached.
    for (at_seq, what) in unreached(members, &reached, |i| (parsed[i].hash, &parsed[i].header)) {
        report.problems.push(problem(Some(at_seq), what));
    }
    let (_, _, head_at_ms, head, events, projection) = best?;
    report.chains.push(ChainSummary {
        id: *id,
        events,
        head: Head {
            seq: parsed[head].header.seq,
            hash: parsed[head].hash,
        },
        head_at_ms,
    });
    // The best branch, genesis first.
    let mut path = vec![head];
    while let Some(&p) = parent.get(path.last().unwrap_or(&gi)) {
        path.push(p);
    }
    path.reverse();
    Some(Chain {
        records: path.iter().map(|&i| parsed[i].record.clone()).collect(),
        projection,
    })
}
