//! Checking records against a chain: one append at a time, or whole chains.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::body::{Body, Genesis, Participant};
use crate::event::{signed_message, Event, Hash, Header, Record, ZERO_HASH};
use crate::key::PublicKey;
use crate::roles;
use crate::sig;
use crate::standing::{irregularities, Standing};
use crate::LedgerError;

/// The last record of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    /// Its sequence number.
    pub seq: u64,
    /// Its hash.
    pub hash: Hash,
}

/// The game id of a chain whose genesis record is `genesis`.
pub fn game_id(genesis: &Record) -> Hash {
    genesis.hash()
}

/// Checks a genesis record completely and returns its event and genesis.
///
/// # Errors
///
/// The record is malformed, not a `game_created` at seq 0 with zero chain id
/// and previous hash, badly signed, or signed by a key its own roster does not
/// name as director, referee or recorder.
///
/// ```
/// use kifu_ledger::testkit::{sample_game, Cast};
/// let c = sample_game(&Cast::new(), "doc");
/// let (event, genesis) = kifu_ledger::check_genesis(&c.records[0]).unwrap();
/// assert_eq!(event.seq, 0);
/// assert_eq!(genesis.board_size, 9);
/// assert!(kifu_ledger::check_genesis(&c.records[1]).is_err());
/// ```
pub fn check_genesis(record: &Record) -> Result<(Event, Genesis), LedgerError> {
    let event = record.decode()?;
    let genesis = match &event.body {
        Body::GameCreated(g) => g.clone(),
        _ => {
            return Err(LedgerError::Refused(roles::Refusal {
                kind: event.body.kind_name(),
                rule: "the first event of a chain must create the game".into(),
            }))
        }
    };
    if event.seq != 0 || event.chain != ZERO_HASH || event.prev_hash != ZERO_HASH {
        return Err(LedgerError::Link(
            "a genesis has seq 0 and zero chain id and previous hash".into(),
        ));
    }
    record.verify_signature(&event.signer)?;
    let roles_held = genesis.roles_of(&event.signer);
    roles::check(&roles_held, &event.body, 0).map_err(LedgerError::Refused)?;
    check_roster_keys(event.body.kind_name(), &genesis.roster)?;
    Ok((event, genesis))
}

/// Refuses a roster (a game's, a tournament's officials) naming a key that
/// is not an acceptable Ed25519 public key (`docs/FORMAT.md` section 1,
/// rule 1: canonical, not of small order, torsion-free): such a key can
/// sign nothing, so a seat given to it is held by nobody.
///
/// # Errors
///
/// [`LedgerError::Refused`], naming the participant.
pub fn check_roster_keys(kind: &'static str, roster: &[Participant]) -> Result<(), LedgerError> {
    match roster
        .iter()
        .find(|p| crate::sig::check_key(&p.key.0).is_err())
    {
        Some(p) => Err(LedgerError::Refused(roles::Refusal {
            kind,
            rule: format!(
                "the {} {:?} is named with a key that is not an acceptable Ed25519 public key (docs/FORMAT.md section 1, rule 1): it could sign nothing",
                p.role.word(),
                p.name
            ),
        })),
        None => Ok(()),
    }
}

/// Checks that `record` may be appended after `head` in the game `game`
/// whose state at `head` is `standing`: canonical bytes, chain id, sequence,
/// link, signature (section 1 of `docs/FORMAT.md`) and the signer's right
/// to state it at this point (section 5). Returns the decoded event.
///
/// # Errors
///
/// [`LedgerError::Conflict`] when the record is not at `head.seq + 1` or
/// does not link to `head`; [`LedgerError::Link`] for another chain;
/// [`LedgerError::BadSignature`], [`LedgerError::Refused`], or a decoding
/// error otherwise. A kind this library does not know is refused
/// ([`LedgerError::UnknownKind`]): a store writes only what it understands.
///
/// ```
/// use kifu_ledger::testkit::{sample_game, Cast};
/// use kifu_ledger::{check_append, Body, Color, Head, Standing};
/// let cast = Cast::new();
/// let c = sample_game(&cast, "doc");
/// let events: Vec<_> = c.records.iter().map(|r| r.decode().unwrap()).collect();
/// let standing = Standing::replay(&events).unwrap();
/// let next = c.next(&cast.black, Body::ClockPressed { player: Color::Black });
/// assert!(check_append(&c.game, &standing, c.head, &next).is_ok());
/// // The stranger is in nobody's roster.
/// let bad = c.next(&cast.stranger, Body::ClockPressed { player: Color::Black });
/// assert!(check_append(&c.game, &standing, c.head, &bad).is_err());
/// ```
pub fn check_append(
    game: &Hash,
    standing: &Standing,
    head: Head,
    record: &Record,
) -> Result<Event, LedgerError> {
    let event = record.decode()?;
    if &event.chain != game {
        return Err(LedgerError::Link(format!(
            "event names chain {} but is appended to {}",
            hex::encode(&event.chain[..8]),
            hex::encode(&game[..8])
        )));
    }
    // A head at the last u64 has no next place (checked: `head` is the
    // caller's, any value may come).
    let want = head.seq.saturating_add(1);
    if head.seq == u64::MAX || event.seq != want || event.prev_hash != head.hash {
        return Err(LedgerError::Conflict {
            expected_seq: want,
            got_seq: event.seq,
        });
    }
    record.verify_signature(&event.signer)?;
    standing.check(&event).map_err(LedgerError::Refused)?;
    Ok(event)
}

/// What is wrong (or worth a word) at one place of a chain.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The game (zeros when unknown).
    pub game: Hash,
    /// The sequence number, when the problem is at one event.
    pub seq: Option<u64>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.game != ZERO_HASH {
            write!(f, "game {}", hex::encode(&self.game[..8]))?;
        } else {
            write!(f, "input")?;
        }
        if let Some(s) = self.seq {
            write!(f, " seq {s}")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// Several validly signed, different records at the same place of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork {
    /// The game.
    pub game: Hash,
    /// The sequence number they claim.
    pub seq: u64,
    /// Hash of the first record (the lowest hash).
    pub first: Hash,
    /// Hash of the second record.
    pub second: Hash,
    /// Every record's hash, in ascending order.
    pub all: Vec<Hash>,
}

impl Fork {
    /// The fork as a verification reports it.
    pub fn problem(&self) -> Problem {
        Problem {
            game: self.game,
            seq: Some(self.seq),
            what: format!(
                "fork: {} validly signed records claim this place: {}",
                self.all.len(),
                self.all
                    .iter()
                    .map(hex::encode)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// The forks of one chain: each place claimed by more than one record that
/// is validly signed and well formed (a statement its signer made; an
/// unknown kind counts). `records`: each record of the chain as its header,
/// its hash and whether its signature was accepted. Forks in seq order.
pub fn forks_of<'a>(
    chain: &Hash,
    records: impl IntoIterator<Item = (&'a Header, Hash, bool)>,
) -> Vec<Fork> {
    let mut at: BTreeMap<u64, Vec<Hash>> = BTreeMap::new();
    for (header, hash, signed) in records {
        let stated = signed
            && matches!(
                header.clone().into_event(),
                Ok(_) | Err(LedgerError::UnknownKind(_))
            );
        let place = at.entry(header.seq).or_default();
        if stated {
            place.push(hash);
        }
    }
    at.into_iter()
        .filter(|(_, valid)| valid.len() > 1)
        .map(|(seq, mut valid)| {
            valid.sort_unstable();
            Fork {
                game: *chain,
                seq,
                first: valid[0],
                second: valid[1],
                all: valid,
            }
        })
        .collect()
}

/// A record present more than once in the input (identical bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The game (zeros when the record does not parse).
    pub game: Hash,
    /// Its seq (0 when it does not parse).
    pub seq: u64,
    /// Its hash.
    pub hash: Hash,
    /// How many times it appears.
    pub copies: u64,
}

/// Where one game's chain ends, and whether it reached its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// The game id.
    pub game: Hash,
    /// Events on the verified chain, genesis included.
    pub events: u64,
    /// The last verified record.
    pub head: Head,
    /// Its timestamp.
    pub head_at_ms: u64,
    /// The last event that set a result (a `result_declared`, a ruling or a
    /// committee decision setting one), if any.
    pub result_seq: Option<u64>,
    /// Appeals lodged and not decided by a majority of the committee.
    pub pending_appeals: Vec<u64>,
    /// Appeals decided, with the seq of the decision that made the majority.
    pub decided_appeals: Vec<(u64, u64)>,
}

impl GameSummary {
    /// True when the chain reached a signed result and no appeal is pending.
    pub fn finished(&self) -> bool {
        self.result_seq.is_some() && self.pending_appeals.is_empty()
    }
}

/// The outcome of verifying a set of records. It does not depend on the order
/// of the records given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Games checked, in id order.
    pub games: Vec<GameSummary>,
    /// Records given (duplicates included).
    pub records: u64,
    /// Distinct records given.
    pub distinct: u64,
    /// Everything that failed, sorted.
    pub problems: Vec<Problem>,
    /// Forks found (also counted as problems).
    pub forks: Vec<Fork>,
    /// Records given more than once (not a failure).
    pub duplicates: Vec<Duplicate>,
    /// Events of kinds this library does not know, from roster keys: checked
    /// for link and signature only.
    pub uninterpreted: Vec<(Hash, u64, u32)>,
    /// Facts recorded as stated that the board or the clock cannot have been
    /// (off-board points, time going backwards): reported, not failures.
    pub warnings: Vec<Problem>,
}

impl VerifyReport {
    /// Takes in what the report of another, disjoint set of records found
    /// (distinct records, problems, forks, duplicates, kinds not
    /// interpreted, warnings); its games and record count stay the
    /// caller's to add.
    pub fn add_findings(&mut self, other: VerifyReport) {
        self.distinct += other.distinct;
        self.problems.extend(other.problems);
        self.forks.extend(other.forks);
        self.duplicates.extend(other.duplicates);
        self.uninterpreted.extend(other.uninterpreted);
        self.warnings.extend(other.warnings);
    }

    /// True when nothing failed.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks signatures of records against the signers of their headers; true
/// where accepted. The answer is the acceptance rule's ([`sig`]), on every
/// core.
/// The followers of each record of one chain, by the previous hash they
/// name: every member (an index that `record` maps to its hash and header)
/// but the genesis `genesis`, each list in hash order, so that a walk is
/// the same whatever the order of the records (`docs/FORMAT.md` section 6).
/// Game chains and tournament chains are walked over it.
pub fn children_of<'a>(
    members: &[usize],
    genesis: usize,
    record: impl Fn(usize) -> (Hash, &'a Header),
) -> HashMap<Hash, Vec<usize>> {
    let mut children: HashMap<Hash, Vec<(Hash, usize)>> = HashMap::new();
    for &i in members {
        if i != genesis {
            let (hash, header) = record(i);
            children
                .entry(header.prev_hash)
                .or_default()
                .push((hash, i));
        }
    }
    children
        .into_iter()
        .map(|(prev, mut list)| {
            list.sort_unstable();
            (prev, list.into_iter().map(|(_, i)| i).collect())
        })
        .collect()
}

/// What one kind of chain (a game's, a tournament's) brings to the walk of
/// its records from the genesis ([`walk_chain`], `docs/FORMAT.md` section
/// 6): the state a branch carries and how a record is admitted into it and
/// applied. The walk itself (links, signatures, branches, leaves) is the
/// same for every chain.
pub trait ChainWalk {
    /// The state along one branch (cloned only where the chain forks).
    type State: Clone;
    /// What an admitted record brings to [`ChainWalk::apply`].
    type Admitted;
    /// Record `i`'s hash.
    fn hash(&self, i: usize) -> Hash;
    /// Record `i`'s seq.
    fn seq(&self, i: usize) -> u64;
    /// Whether record `i`'s signature checked.
    fn signed(&self, i: usize) -> bool;
    /// Notes a problem at `seq` of the chain.
    fn problem(&mut self, seq: u64, what: String);
    /// Checks record `i`, whose link and signature checked, against the
    /// branch's state; `None` when it is refused (the walker noted why).
    fn admit(&mut self, state: &Self::State, i: usize) -> Option<Self::Admitted>;
    /// Applies admitted record `i`, which follows `parent`; false ends the
    /// branch there (the walker noted why).
    fn apply(
        &mut self,
        state: &mut Self::State,
        parent: usize,
        i: usize,
        admitted: Self::Admitted,
    ) -> bool;
    /// A branch ends at record `i`, the `count`th of the branch.
    fn leaf(&mut self, state: Self::State, i: usize, count: u64);
}

/// Walks a chain from its genesis record `genesis` along every branch
/// (`children`, from [`children_of`]): a follower must say the next seq and
/// carry a good signature, then be admitted by the walker's state; each
/// branch ends in [`ChainWalk::leaf`]. Every follower looked at is marked
/// in `reached` (for [`unreached`]).
pub fn walk_chain<W: ChainWalk>(
    walker: &mut W,
    genesis: usize,
    state: W::State,
    children: &HashMap<Hash, Vec<usize>>,
    reached: &mut [bool],
) {
    let mut stack = vec![(genesis, 1u64, state)];
    while let Some((i, count, state)) = stack.pop() {
        let (here, here_seq) = (walker.hash(i), walker.seq(i));
        let mut next = Vec::new();
        for &c in children.get(&here).map(|v| v.as_slice()).unwrap_or(&[]) {
            if let Some(r) = reached.get_mut(c) {
                *r = true;
            }
            let seq = walker.seq(c);
            if seq != here_seq.saturating_add(1) {
                let what = format!(
                    "record {} links to seq {here_seq} but says seq {seq}",
                    short(&walker.hash(c))
                );
                walker.problem(seq, what);
                continue;
            }
            if !walker.signed(c) {
                let what = format!("record {}: bad signature", short(&walker.hash(c)));
                walker.problem(seq, what);
                continue;
            }
            if let Some(a) = walker.admit(&state, c) {
                next.push((c, a));
            }
        }
        let Some(last) = next.pop() else {
            walker.leaf(state, i, count);
            continue;
        };
        for (c, a) in next {
            let mut s = state.clone();
            if walker.apply(&mut s, i, c, a) {
                stack.push((c, count + 1, s));
            }
        }
        let mut s = state;
        if walker.apply(&mut s, i, last.0, last.1) {
            stack.push((last.0, count + 1, s));
        }
    }
}

/// Why each member of a chain that no walk from its genesis reached is not
/// on the verified chain (`docs/FORMAT.md` section 6: every record is on
/// the chain or reported on its own): the seq to report it at, and the
/// words. `reached` is indexed like the members.
pub fn unreached<'a>(
    members: &[usize],
    reached: &[bool],
    record: impl Fn(usize) -> (Hash, &'a Header),
) -> Vec<(u64, String)> {
    let by_hash: HashMap<Hash, usize> = members.iter().map(|&i| (record(i).0, i)).collect();
    let seqs: std::collections::HashSet<u64> = members.iter().map(|&i| record(i).1.seq).collect();
    let mut out = Vec::new();
    for &i in members {
        if reached.get(i).copied().unwrap_or(false) {
            continue;
        }
        let (hash, header) = record(i);
        let seq = header.seq;
        out.push(if seq == 0 {
            (
                0,
                format!(
                    "record {}: a second record at seq 0 in this chain",
                    short(&hash)
                ),
            )
        } else if let Some(&parent) = by_hash.get(&header.prev_hash) {
            let (parent_hash, parent_header) = record(parent);
            (
                seq,
                format!(
                    "record {}: not on the verified chain: it follows record {} (seq {}), which is not on it",
                    short(&hash),
                    short(&parent_hash),
                    parent_header.seq
                ),
            )
        } else if seqs.contains(&(seq - 1)) {
            (
                seq,
                format!(
                    "record {}: broken link: its previous hash matches no record at seq {}",
                    short(&hash),
                    seq - 1
                ),
            )
        } else {
            (
                seq - 1,
                format!(
                    "missing: the chain has a gap here (record {} at seq {seq} follows it)",
                    short(&hash)
                ),
            )
        });
    }
    out
}

fn check_signatures(parsed: &[Parsed<'_>]) -> Vec<bool> {
    let signed: Vec<(&Header, &Record)> = parsed.iter().map(|p| (&p.header, p.record)).collect();
    verify_signatures(&signed)
}

/// Checks each record's signature against the signer its header names
/// (the acceptance rule, [`sig`], on every core); true where accepted.
pub fn verify_signatures(signed: &[(&Header, &Record)]) -> Vec<bool> {
    let by_key: Vec<(&PublicKey, &Record)> = signed.iter().map(|(h, r)| (&h.signer, *r)).collect();
    with_items(&by_key, |items| {
        sig::verify_parallel(items, sig::DEFAULT_METHOD)
    })
}

/// Checks each record's signature against the key given with it, on the
/// calling thread alone, for a caller that runs its own threads (the same
/// rule and verdicts as [`verify_signatures`]).
pub fn verify_signatures_here(signed: &[(&PublicKey, &Record)]) -> Vec<bool> {
    with_items(signed, |items| match sig::DEFAULT_METHOD {
        sig::Method::OneByOne => sig::verify_each(items),
        sig::Method::Batch => sig::verify_batch_exact(items),
    })
}

/// Gives `f` the (key, signed message, signature) of each record.
fn with_items<R>(signed: &[(&PublicKey, &Record)], f: impl FnOnce(&[sig::Item<'_>]) -> R) -> R {
    let msgs: Vec<Vec<u8>> = signed
        .iter()
        .map(|(_, r)| signed_message(&r.event_bytes))
        .collect();
    let items: Vec<sig::Item<'_>> = signed
        .iter()
        .zip(msgs.iter())
        .map(|((k, r), m)| (&k.0, m.as_slice(), &r.signature))
        .collect();
    f(&items)
}

struct Parsed<'a> {
    record: &'a Record,
    hash: Hash,
    header: Header,
}

fn short(h: &Hash) -> String {
    hex::encode(&h[..8])
}

/// Maps `f` over chunks of `items` on every core, keeping the order.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use rayon::prelude::*;
    let threads = crate::sig::cores();
    let per = items.len().div_ceil(threads).max(256);
    let Some(pool) = crate::sig::pool().filter(|_| items.len() > per) else {
        return items.iter().map(f).collect();
    };
    let f = &f;
    // On the checkers' threads, which live as long as the process: what a
    // worker allocates and the caller keeps (a game's summary) then sits in
    // a heap that goes on serving, not in the abandoned heap of a thread
    // started for one batch (which held about 110 KB a game resident while
    // `kifu verify FILE` streamed an archive).
    let parts: Vec<Vec<R>> = pool.install(|| {
        items
            .par_chunks(per)
            .map(|c| c.iter().map(f).collect::<Vec<R>>())
            .collect()
    });
    parts.into_iter().flatten().collect()
}

/// Verifies any set of records (a store's content, its fork evidence, or an
/// archive): groups them by game, follows each chain from its genesis, and
/// checks sequence, links, canonical bytes, signatures and roles
/// (`docs/FORMAT.md` section 6). Every record is either on a verified chain
/// or reported; two validly signed records at the same place of a game are
/// a fork; identical copies are reported as duplicates. The report is the
/// same whatever the order of `records`.
///
/// ```
/// use kifu_ledger::testkit::{sample_game, Cast};
/// let c = sample_game(&Cast::new(), "doc");
/// let mut records = c.records.clone();
/// records.reverse();
/// let report = kifu_ledger::verify_records(&records);
/// assert!(report.ok());
/// assert_eq!(report.games[0].head, c.head);
/// assert!(report.games[0].finished());
/// ```
pub fn verify_records(records: &[Record]) -> VerifyReport {
    verify_records_with(records, check_signatures)
}

/// [`verify_records`] with every signature taken as good: links, roles,
/// duplicates and forks only. For a caller that checks every signature
/// itself before it relies on a record (an import checks each chunk's
/// signatures while it writes the chunk before), and that asks
/// [`verify_records`] for the report when anything fails.
pub fn verify_records_unsigned(records: &[Record]) -> VerifyReport {
    verify_records_with(records, |parsed| vec![true; parsed.len()])
}

fn verify_records_with(
    records: &[Record],
    signatures: fn(&[Parsed<'_>]) -> Vec<bool>,
) -> VerifyReport {
    let mut report = VerifyReport {
        records: records.len() as u64,
        ..Default::default()
    };
    // 1. Distinct records, by hash.
    let hashes = par_map(records, Record::hash);
    let mut seen: HashMap<Hash, (usize, u64)> = HashMap::with_capacity(records.len());
    for (i, h) in hashes.iter().enumerate() {
        seen.entry(*h).or_insert((i, 0)).1 += 1;
    }
    let mut unique: Vec<(Hash, usize, u64)> =
        seen.into_iter().map(|(h, (i, n))| (h, i, n)).collect();
    unique.sort_unstable_by_key(|(h, _, _)| *h);
    report.distinct = unique.len() as u64;
    // 2. Envelopes, on every core.
    let headers = par_map(&unique, |(_, i, _)| records[*i].header());
    let mut parsed = Vec::with_capacity(unique.len());
    for ((hash, i, copies), header) in unique.iter().zip(headers) {
        let r = &records[*i];
        match header {
            Ok(header) => {
                if *copies > 1 {
                    report.duplicates.push(Duplicate {
                        game: if header.seq == 0 { *hash } else { header.chain },
                        seq: header.seq,
                        hash: *hash,
                        copies: *copies,
                    });
                }
                parsed.push(Parsed {
                    record: r,
                    hash: *hash,
                    header,
                })
            }
            Err(e) => {
                if *copies > 1 {
                    report.duplicates.push(Duplicate {
                        game: ZERO_HASH,
                        seq: 0,
                        hash: *hash,
                        copies: *copies,
                    });
                }
                report.problems.push(Problem {
                    game: ZERO_HASH,
                    seq: None,
                    what: format!("record {}: {e}", short(hash)),
                })
            }
        }
    }
    // 3. Signatures, all at once, on every core.
    let sig_ok = signatures(&parsed);
    // 4. Group by game.
    let mut by_game: BTreeMap<Hash, Vec<usize>> = BTreeMap::new();
    for (i, p) in parsed.iter().enumerate() {
        let game = if p.header.seq == 0 && p.header.chain == ZERO_HASH {
            p.hash
        } else {
            p.header.chain
        };
        by_game.entry(game).or_default().push(i);
    }
    // 5. Each game, games on every core.
    let games: Vec<(Hash, Vec<usize>)> = by_game.into_iter().collect();
    let per_game = par_map(&games, |(game, members)| {
        let mut r = VerifyReport::default();
        verify_game(game, members, &parsed, &sig_ok, &mut r);
        r
    });
    for r in per_game {
        report.games.extend(r.games);
        report.problems.extend(r.problems);
        report.forks.extend(r.forks);
        report.uninterpreted.extend(r.uninterpreted);
        report.warnings.extend(r.warnings);
    }
    report.problems.sort();
    report.warnings.sort();
    report.duplicates.sort_by_key(|d| (d.game, d.seq, d.hash));
    report.forks.sort_by_key(|f| (f.game, f.seq));
    report.uninterpreted.sort();
    report
}

/// A game chain's part of the walk: the standing decides who may sign
/// next; the best leaf (highest seq, then lowest hash) is the game.
struct GameWalk<'a, 'p> {
    game: &'a Hash,
    parsed: &'a [Parsed<'p>],
    sig_ok: &'a [bool],
    size: u8,
    report: &'a mut VerifyReport,
    best: Option<(u64, std::cmp::Reverse<Hash>, GameSummary)>,
}

impl ChainWalk for GameWalk<'_, '_> {
    type State = Standing;
    /// The event, or `None` for a kind newer than this verifier.
    type Admitted = Option<Event>;

    fn hash(&self, i: usize) -> Hash {
        self.parsed[i].hash
    }

    fn seq(&self, i: usize) -> u64 {
        self.parsed[i].header.seq
    }

    fn signed(&self, i: usize) -> bool {
        self.sig_ok[i]
    }

    fn problem(&mut self, seq: u64, what: String) {
        self.report.problems.push(Problem {
            game: *self.game,
            seq: Some(seq),
            what,
        });
    }

    fn admit(&mut self, standing: &Standing, i: usize) -> Option<Option<Event>> {
        let p = &self.parsed[i];
        let seq = p.header.seq;
        match p.header.clone().into_event() {
            Ok(event) => match standing.check(&event) {
                Ok(()) => Some(Some(event)),
                Err(r) => {
                    self.problem(seq, format!("record {}: {r}", short(&p.hash)));
                    None
                }
            },
            Err(LedgerError::UnknownKind(k)) => match standing.check_unknown(&p.header.signer, k) {
                Ok(()) => {
                    self.report.uninterpreted.push((*self.game, seq, k));
                    Some(None)
                }
                Err(r) => {
                    let what = format!("record {} of unknown kind {k}: {r}", short(&p.hash));
                    self.problem(seq, what);
                    None
                }
            },
            Err(e) => {
                self.problem(seq, format!("record {}: {e}", short(&p.hash)));
                None
            }
        }
    }

    fn apply(&mut self, standing: &mut Standing, _: usize, i: usize, event: Option<Event>) -> bool {
        step(
            standing,
            event.as_ref(),
            &self.parsed[i],
            self.size,
            self.game,
            self.report,
        );
        true
    }

    fn leaf(&mut self, standing: Standing, i: usize, count: u64) {
        let here = &self.parsed[i];
        let key = (here.header.seq, std::cmp::Reverse(here.hash));
        if self.best.as_ref().is_some_and(|(s, h, _)| key <= (*s, *h)) {
            return;
        }
        let summary = GameSummary {
            game: *self.game,
            events: count,
            head: Head {
                seq: here.header.seq,
                hash: here.hash,
            },
            head_at_ms: here.header.at_ms,
            result_seq: standing.result_seq,
            pending_appeals: standing.pending_appeals(),
            decided_appeals: standing
                .appeals
                .values()
                .filter_map(|a| a.decided_at.map(|d| (a.seq, d)))
                .collect(),
        };
        self.best = Some((key.0, key.1, summary));
    }
}

fn verify_game(
    game: &Hash,
    members: &[usize],
    parsed: &[Parsed<'_>],
    sig_ok: &[bool],
    report: &mut VerifyReport,
) {
    let problem = |seq: Option<u64>, what: String| Problem {
        game: *game,
        seq,
        what,
    };
    // Forks: several validly signed records claiming the same place.
    let members_at = members
        .iter()
        .map(|&i| (&parsed[i].header, parsed[i].hash, sig_ok[i]));
    for fork in forks_of(game, members_at) {
        report.problems.push(fork.problem());
        report.forks.push(fork);
    }
    // The genesis is the record whose hash is the game id.
    let Some(&gi) = members.iter().find(|&&i| parsed[i].hash == *game) else {
        report.problems.push(problem(
            None,
            format!(
                "no genesis record for this chain ({} records name it)",
                members.len()
            ),
        ));
        return;
    };
    let (genesis_event, genesis): (Event, Genesis) = match check_genesis(parsed[gi].record) {
        Ok(x) => x,
        Err(e) => {
            report
                .problems
                .push(problem(Some(0), format!("genesis: {e}")));
            return;
        }
    };
    // Children of each record, by the previous hash they name.
    let children = children_of(members, gi, |i| (parsed[i].hash, &parsed[i].header));
    let mut reached = vec![false; parsed.len()];
    reached[gi] = true;
    let mut walk = GameWalk {
        game,
        parsed,
        sig_ok,
        size: genesis.board_size,
        report,
        best: None,
    };
    walk_chain(
        &mut walk,
        gi,
        Standing::new(&genesis, genesis_event.at_ms),
        &children,
        &mut reached,
    );
    let best = walk.best;
    // Records no walk reached: their previous record is missing or invalid.
    for (at_seq, what) in unreached(members, &reached, |i| (parsed[i].hash, &parsed[i].header)) {
        report.problems.push(problem(Some(at_seq), what));
    }
    if let Some((_, _, s)) = best {
        report.games.push(s);
    }
}

/// Applies an accepted event to a branch's standing, noting irregularities.
fn step(
    s: &mut Standing,
    event: Option<&Event>,
    p: &Parsed<'_>,
    size: u8,
    game: &Hash,
    report: &mut VerifyReport,
) {
    match event {
        Some(e) => {
            for irr in irregularities(size, Some(s.last_at_ms), e) {
                report.warnings.push(Problem {
                    game: *game,
                    seq: Some(e.seq),
                    what: irr.to_string(),
                });
            }
            s.apply(e);
        }
        None => s.last_at_ms = p.header.at_ms,
    }
}
