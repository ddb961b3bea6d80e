//! Verifying an archive a piece at a time, in memory bounded by the games in
//! flight rather than by the events.
//!
//! A caller reads the file (this crate does no I/O) and gives each record
//! with the byte range it came from ([`StreamVerifier::push`]). Records are
//! grouped in **runs**: consecutive records of one game. Once enough records
//! wait, every run but the last is verified together ([`verify_records`], on
//! every core) and only a small report per game is kept. An archive written
//! game by game (as `kifu export` writes it) is thus verified holding one
//! batch of records at a time.
//!
//! The verdict does not depend on the order of the records
//! (`docs/FORMAT.md` section 6), so a game met again after another game's
//! records (a shuffled or concatenated archive) is **split**: its early
//! report is dropped, and at the end [`StreamVerifier::finish`] asks the
//! caller for the records of the split games' runs, by byte range, a group
//! of games of about a batch of records at a time, and verifies each such
//! game whole. Records whose envelope does not decode
//! belong to no game: only their hash, their copies and the failure are
//! kept, so a damaged file costs no more than its count of distinct
//! damaged records.
//! The report is the one [`verify_records`] gives for all the records at
//! once: a test checks it on shuffled, duplicated and damaged archives.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use crate::archive::{ArchiveHead, ArchiveVerdict, ManifestCheck};
use crate::chain::{verify_records, GameSummary, VerifyReport};
use crate::event::{Hash, Record, ZERO_HASH};
use crate::LedgerError;

/// Records held before the complete runs among them are verified.
pub const STREAM_BATCH: usize = 32_768;

/// At most this many readings of the file for the games met in more than
/// one place.
const SPLIT_READINGS: u64 = 8;

/// What is kept of one game between its runs and the end.
#[derive(Default)]
struct GameState {
    /// Byte ranges of its runs, in file order.
    runs: Vec<Range<u64>>,
    /// Records pushed.
    records: u64,
    /// Its report so far (`None` until its first run is verified, and for a
    /// split game): its summary, and what failed or was noted in it, boxed
    /// and trimmed to its length ([`compact`]), so that a game verified
    /// keeps a few hundred bytes here.
    report: Option<Box<VerifyReport>>,
    /// Met again after another game's records: verified whole at the end.
    split: bool,
}

/// Verifies an archive's records as they are read; see the module docs.
pub struct StreamVerifier {
    head: ArchiveHead,
    games: HashMap<Hash, GameState>,
    /// Records waiting: complete runs, then the current run.
    waiting: Vec<Record>,
    /// The game of each record waiting.
    waiting_games: Vec<Hash>,
    /// Where the current run starts in `waiting`, and its game.
    current: Option<(usize, Hash)>,
    /// Records whose envelope does not decode, by hash: how many copies,
    /// and why (the record itself is not kept: it belongs to no game, and
    /// the verdict on it is that failure).
    bad: BTreeMap<Hash, (u64, String)>,
    /// With [`StreamVerifier::carrying`]: the tournament chains met (by
    /// the id of their genesis) and their records, set aside for the
    /// caller's check (`docs/FORMAT.md` section 7).
    carrying: bool,
    carried_ids: Vec<Hash>,
    carried: Vec<Record>,
    records: u64,
    batch: usize,
}

use crate::body::TOURNAMENT_CREATED_KIND as TOURNAMENT_CREATED;

impl StreamVerifier {
    /// A verifier for the records that follow `head` ([`crate::archive::parse_head`]).
    pub fn new(head: ArchiveHead) -> StreamVerifier {
        StreamVerifier::with_batch(head, STREAM_BATCH)
    }

    /// [`StreamVerifier::new`] verifying every `batch` records (for tests).
    pub fn with_batch(head: ArchiveHead, batch: usize) -> StreamVerifier {
        StreamVerifier {
            head,
            games: HashMap::new(),
            waiting: Vec::new(),
            waiting_games: Vec::new(),
            current: None,
            bad: BTreeMap::new(),
            carrying: false,
            carried_ids: Vec::new(),
            carried: Vec::new(),
            records: 0,
            batch: batch.max(1),
        }
    }

    /// Sets aside the records of a tournament chain the archive carries
    /// (`docs/FORMAT.md` section 7), for [`StreamVerifier::finish_carrying`]
    /// to give to the caller's check: the tournament's facts are checked
    /// outside this crate (`kifu-tournament`). Without it, such a chain is
    /// verified as a game chain, and fails.
    pub fn carrying(mut self) -> StreamVerifier {
        self.carrying = true;
        self
    }

    /// Records given so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Records held now, waiting to be verified: at most the batch size plus
    /// the current run.
    pub fn held(&self) -> usize {
        self.waiting.len()
    }

    /// Takes the next record of the file, read from bytes `at`.
    pub fn push(&mut self, record: Record, at: Range<u64>) {
        self.records += 1;
        let game = match record.header() {
            Ok(h)
                if self.carrying
                    && h.seq == 0
                    && h.chain == ZERO_HASH
                    && h.kind == TOURNAMENT_CREATED =>
            {
                let id = record.hash();
                if !self.carried_ids.contains(&id) {
                    self.carried_ids.push(id);
                }
                self.carried.push(record);
                return;
            }
            Ok(h) if self.carrying && self.carried_ids.contains(&h.chain) => {
                self.carried.push(record);
                return;
            }
            Ok(h) if h.seq == 0 && h.chain == ZERO_HASH => record.hash(),
            Ok(h) => h.chain,
            Err(e) => {
                // As `verify_records` words it (section 6, step 2).
                let hash = record.hash();
                self.bad
                    .entry(hash)
                    .or_insert_with(|| (0, format!("record {}: {e}", hex::encode(&hash[..8]))))
                    .0 += 1;
                return;
            }
        };
        let same_run = matches!(self.current, Some((_, g)) if g == game);
        let state = self.games.entry(game).or_default();
        state.records += 1;
        if same_run {
            if let Some(last) = state.runs.last_mut() {
                last.end = at.end;
            }
        } else {
            if !state.runs.is_empty() {
                state.split = true;
                state.report = None;
            }
            state.runs.push(at);
            self.current = Some((self.waiting.len(), game));
        }
        self.waiting.push(record);
        self.waiting_games.push(game);
        if self.waiting.len() >= self.batch {
            self.verify_waiting(false);
        }
    }

    /// Verifies the complete runs waiting (all of them with `all`), keeping
    /// one report per game.
    fn verify_waiting(&mut self, all: bool) {
        let upto = match (all, self.current) {
            (false, Some((start, _))) => start,
            _ => self.waiting.len(),
        };
        if upto == 0 {
            return;
        }
        let rest = self.waiting.split_off(upto);
        let done = std::mem::replace(&mut self.waiting, rest);
        let rest_games = self.waiting_games.split_off(upto);
        let done_games = std::mem::replace(&mut self.waiting_games, rest_games);
        self.current = if all {
            None
        } else {
            self.current
                .map(|(start, g)| (start.saturating_sub(upto), g))
        };
        let mut counts: HashMap<Hash, u64> = HashMap::new();
        for g in done_games {
            *counts.entry(g).or_default() += 1;
        }
        let report = verify_records(&done);
        let parts = split_by_game(report, &counts, &done);
        drop(done);
        for (game, part) in parts {
            if let Some(state) = self.games.get_mut(&game) {
                if !state.split {
                    state.report = Some(match state.report.take() {
                        // A game's runs are all in one batch unless it was
                        // split (then it is verified whole at the end).
                        Some(mut before) => {
                            merge(&mut before, part);
                            compact(before)
                        }
                        None => compact(Box::new(part)),
                    });
                }
            }
        }
    }

    /// The verdict: the records' report with the manifest's checks. `reread`
    /// gives the records in the byte ranges asked (the runs of a group of
    /// the games met in more than one place), in file order; it is asked
    /// once per group.
    ///
    /// # Errors
    ///
    /// Whatever `reread` fails with.
    pub fn finish<E>(
        self,
        reread: impl FnMut(&[Range<u64>]) -> Result<Vec<Record>, E>,
    ) -> Result<(VerifyReport, Option<ManifestCheck>), E> {
        self.finish_carrying(reread, verify_records)
    }

    /// [`StreamVerifier::finish`] for a verifier [`StreamVerifier::carrying`]:
    /// `check` gives the verdict on the records of the tournament chain the
    /// archive carries (its chains' summaries in `games`), which joins the
    /// report; the manifest's checks count that chain as one of the
    /// archive's chains, and the report's `games` are the game chains only.
    ///
    /// # Errors
    ///
    /// Whatever `reread` fails with.
    pub fn finish_carrying<E>(
        mut self,
        mut reread: impl FnMut(&[Range<u64>]) -> Result<Vec<Record>, E>,
        check: impl FnOnce(&[Record]) -> VerifyReport,
    ) -> Result<(VerifyReport, Option<ManifestCheck>), E> {
        self.verify_waiting(true);
        // Records of a carried chain met before its genesis were taken for
        // a game's: they are read again and set aside with the others.
        for id in self.carried_ids.clone() {
            if let Some(state) = self.games.remove(&id) {
                self.carried.extend(reread(&state.runs)?);
            }
        }
        let mut total = VerifyReport {
            records: self.records,
            ..Default::default()
        };
        // The games met in more than one place, verified whole: read again
        // a group of games at a time, each group about a batch of records,
        // so that memory stays near a batch (at most eight readings of the
        // file: an archive whose games are all interleaved holds an eighth
        // of it at a time).
        let mut split: Vec<(Hash, u64)> = self
            .games
            .iter()
            .filter(|(_, s)| s.split)
            .map(|(g, s)| (*g, s.records))
            .collect();
        split.sort_by_key(|(g, _)| *g);
        let all: u64 = split.iter().map(|(_, n)| n).sum();
        let limit = (self.batch as u64).max(all.div_ceil(SPLIT_READINGS));
        let mut group: Vec<Hash> = Vec::new();
        let mut in_group = 0u64;
        for (i, (game, n)) in split.iter().enumerate() {
            group.push(*game);
            in_group += n;
            if in_group < limit && i + 1 < split.len() {
                continue;
            }
            let mut ranges: Vec<Range<u64>> = group
                .iter()
                .filter_map(|g| self.games.get(g))
                .flat_map(|s| s.runs.iter().cloned())
                .collect();
            ranges.sort_by_key(|r| r.start);
            let batch = reread(&ranges)?;
            let counts = count_by_game(&batch);
            let report = verify_records(&batch);
            for (game, part) in split_by_game(report, &counts, &batch) {
                if let Some(state) = self.games.get_mut(&game) {
                    state.report = Some(compact(Box::new(part)));
                }
            }
            group.clear();
            in_group = 0;
        }
        let mut games: Vec<(Hash, GameState)> = self.games.into_iter().collect();
        games.sort_by_key(|(g, _)| *g);
        for (_, state) in games {
            if let Some(part) = state.report {
                merge(&mut total, *part);
            }
        }
        for (hash, (copies, what)) in std::mem::take(&mut self.bad) {
            total.distinct += 1;
            if copies > 1 {
                total.duplicates.push(crate::chain::Duplicate {
                    game: ZERO_HASH,
                    seq: 0,
                    hash,
                    copies,
                });
            }
            total.problems.push(crate::chain::Problem {
                game: ZERO_HASH,
                seq: None,
                what,
            });
        }
        let mut carried_games = Vec::new();
        if !self.carried.is_empty() {
            let mut part = check(&self.carried);
            carried_games = std::mem::take(&mut part.games);
            total.add_findings(part);
        }
        total.problems.sort();
        total.warnings.sort();
        total.duplicates.sort_by_key(|d| (d.game, d.seq, d.hash));
        total.forks.sort_by_key(|f| (f.game, f.seq));
        total.uninterpreted.sort();
        // The manifest lists every chain of the archive, a carried
        // tournament chain too.
        let games = total.games.len();
        total.games.extend(carried_games);
        total.games.sort_by_key(|g| g.game);
        let manifest = self
            .head
            .into_raw()
            .map(|raw| crate::archive::check_manifest_of(raw, &mut total));
        if total.games.len() > games {
            let carried = &self.carried_ids;
            total.games.retain(|g| !carried.contains(&g.game));
        }
        Ok((total, manifest))
    }
}

/// Records of each game in `records` (all decode).
fn count_by_game(records: &[Record]) -> HashMap<Hash, u64> {
    let mut out: HashMap<Hash, u64> = HashMap::new();
    for g in records.iter().filter_map(game_of) {
        *out.entry(g).or_default() += 1;
    }
    out
}

/// The game a record is grouped under (`docs/FORMAT.md` section 6, step 3).
fn game_of(r: &Record) -> Option<Hash> {
    let h = r.header().ok()?;
    Some(if h.seq == 0 && h.chain == ZERO_HASH {
        r.hash()
    } else {
        h.chain
    })
}

/// A report of whole games cut into one report per game; `counts`: the
/// records of each game in it (for its distinct count); `records`: them.
fn split_by_game(
    report: VerifyReport,
    counts: &HashMap<Hash, u64>,
    records: &[Record],
) -> Vec<(Hash, VerifyReport)> {
    let mut out: BTreeMap<Hash, VerifyReport> = counts
        .iter()
        .map(|(g, n)| {
            (
                *g,
                VerifyReport {
                    distinct: *n,
                    ..Default::default()
                },
            )
        })
        .collect();
    for g in report.games {
        if let Some(r) = out.get_mut(&g.game) {
            r.games.push(g);
        }
    }
    for p in report.problems {
        if let Some(r) = out.get_mut(&p.game) {
            r.problems.push(p);
        }
    }
    for f in report.forks {
        if let Some(r) = out.get_mut(&f.game) {
            r.forks.push(f);
        }
    }
    for d in report.duplicates {
        // A duplicate names its record's chain, or its own hash at seq 0:
        // a seq 0 record with a chain is grouped under the chain.
        let group = if out.contains_key(&d.game) {
            Some(d.game)
        } else {
            records
                .iter()
                .find(|r| r.hash() == d.hash)
                .and_then(game_of)
        };
        if let Some(r) = group.and_then(|g| out.get_mut(&g)) {
            r.distinct = r.distinct.saturating_sub(d.copies.saturating_sub(1));
            r.duplicates.push(d);
        }
    }
    for u in report.uninterpreted {
        if let Some(r) = out.get_mut(&u.0) {
            r.uninterpreted.push(u);
        }
    }
    for w in report.warnings {
        if let Some(r) = out.get_mut(&w.game) {
            r.warnings.push(w);
        }
    }
    out.into_iter().collect()
}

/// `report` with every list trimmed to its length: what a game keeps until
/// the end.
fn compact(mut report: Box<VerifyReport>) -> Box<VerifyReport> {
    report.games.shrink_to_fit();
    for g in &mut report.games {
        g.pending_appeals.shrink_to_fit();
        g.decided_appeals.shrink_to_fit();
    }
    report.problems.shrink_to_fit();
    report.forks.shrink_to_fit();
    report.duplicates.shrink_to_fit();
    report.uninterpreted.shrink_to_fit();
    report.warnings.shrink_to_fit();
    report
}

/// Adds `part` to `total` (not the record count: the stream counts those).
fn merge(total: &mut VerifyReport, mut part: VerifyReport) {
    total.games.append(&mut part.games);
    total.add_findings(part);
}

/// Reads an archive a second time, after [`StreamVerifier`] found it clean,
/// and gives its records back as verdicts of whole games, for a store to
/// import (`kifu import FILE` streams the file twice rather than hold it).
///
/// No signature is checked again: each game's records are gathered until
/// the game has as many as the first reading verified, then they must form
/// its chain exactly, from its genesis (whose hash is the game's id) to the
/// head the first reading reached, each record naming the hash of the one
/// before. A record's hash covers its event bytes and its signature, so
/// these are the records the first reading verified, byte for byte. A
/// record on no such chain (the file changed between the readings) is an
/// error. Memory follows the games whose records are not all read yet: one
/// for an archive written game by game.
pub struct Reread {
    /// Games verified and not yet given back: their summary.
    expect: HashMap<Hash, GameSummary>,
    /// Records met more than once by the first reading (skipped when met
    /// again after their game was given back).
    duplicates: HashSet<Hash>,
    /// Records of games not complete yet, by hash.
    pending: HashMap<Hash, HashMap<Hash, Record>>,
    /// Whole games checked, waiting to be given back.
    ready: Vec<Record>,
    ready_games: Vec<GameSummary>,
    /// Chains the first reading set aside (a carried tournament chain):
    /// their records are passed over.
    skip: HashSet<Hash>,
    batch: usize,
}

impl Reread {
    /// Passes over the records of the chains `ids` (the tournament chain an
    /// archive carries, which a store of games does not keep).
    pub fn skipping(mut self, ids: &[Hash]) -> Reread {
        self.skip.extend(ids.iter().copied());
        self
    }

    /// A second reading after `report`, the first reading's report (clean:
    /// no problem), giving verdicts of at least `batch` records (but the
    /// last).
    ///
    /// # Errors
    ///
    /// [`LedgerError::Archive`] when `report` is not clean.
    pub fn new(report: &VerifyReport, batch: usize) -> Result<Reread, LedgerError> {
        if !report.ok() {
            return Err(LedgerError::Archive(
                "the archive did not verify; it is not read again for import".into(),
            ));
        }
        Ok(Reread {
            expect: report.games.iter().map(|g| (g.game, g.clone())).collect(),
            duplicates: report.duplicates.iter().map(|d| d.hash).collect(),
            pending: HashMap::new(),
            ready: Vec::new(),
            ready_games: Vec::new(),
            skip: HashSet::new(),
            batch: batch.max(1),
        })
    }

    /// Takes the next record read; a verdict once `batch` records of whole
    /// games are ready.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Archive`] for a record on no chain the first reading
    /// verified.
    pub fn push(&mut self, record: Record) -> Result<Option<ArchiveVerdict>, LedgerError> {
        let hash = record.hash();
        let changed = |why: &str| {
            LedgerError::Archive(format!(
                "the file changed after it was verified: record {} {why}",
                hex::encode(&hash[..8])
            ))
        };
        let link = record.link().map_err(|_| changed("does not decode"))?;
        let game = if link.seq == 0 && link.chain == ZERO_HASH {
            hash
        } else {
            link.chain
        };
        let Some(want) = self.expect.get(&game).map(|g| g.events) else {
            if self.duplicates.contains(&hash) || self.skip.contains(&game) {
                return Ok(None);
            }
            return Err(changed("is on no chain that was verified"));
        };
        let records = self.pending.entry(game).or_default();
        records.insert(hash, record);
        if (records.len() as u64) < want {
            return Ok(None);
        }
        let records = self.pending.remove(&game).unwrap_or_default();
        let Some(summary) = self.expect.remove(&game) else {
            return Err(changed("is on no chain that was verified"));
        };
        let chain = chain_to(records, &summary).map_err(|why| changed(&why))?;
        self.ready.extend(chain);
        self.ready_games.push(summary);
        if self.ready.len() >= self.batch {
            return Ok(Some(self.take()));
        }
        Ok(None)
    }

    /// The verdict on the games still ready, at the end of the file.
    ///
    /// # Errors
    ///
    /// [`LedgerError::Archive`] when a game verified by the first reading
    /// was not read whole the second time.
    pub fn finish(mut self) -> Result<Option<ArchiveVerdict>, LedgerError> {
        if let Some(g) = self.expect.keys().min() {
            return Err(LedgerError::Archive(format!(
                "the file changed after it was verified: game {} is no longer whole",
                hex::encode(&g[..8])
            )));
        }
        Ok((!self.ready.is_empty()).then(|| self.take()))
    }

    fn take(&mut self) -> ArchiveVerdict {
        let records = std::mem::take(&mut self.ready);
        let mut games = std::mem::take(&mut self.ready_games);
        games.sort_by_key(|g| g.game);
        let n = records.len() as u64;
        ArchiveVerdict::of_checked(
            records,
            VerifyReport {
                games,
                records: n,
                distinct: n,
                ..Default::default()
            },
        )
    }
}

/// `records` (by hash) in seq order, when they are exactly the chain from
/// the genesis `summary.game` to `summary.head`; why not otherwise.
fn chain_to(records: HashMap<Hash, Record>, summary: &GameSummary) -> Result<Vec<Record>, String> {
    let mut by_prev: HashMap<Hash, (Hash, Record)> = HashMap::with_capacity(records.len());
    let mut genesis = None;
    for (hash, r) in records {
        let link = r.link().map_err(|e| e.to_string())?;
        if hash == summary.game {
            genesis = Some(r);
        } else if by_prev.insert(link.prev_hash, (hash, r)).is_some() {
            return Err("is one of two records after the same one".into());
        }
    }
    let Some(genesis) = genesis else {
        return Err("belongs to a game whose genesis is missing".into());
    };
    let mut out = Vec::with_capacity(by_prev.len() + 1);
    out.push(genesis);
    let mut at = summary.game;
    while let Some((hash, r)) = by_prev.remove(&at) {
        out.push(r);
        at = hash;
    }
    if at != summary.head.hash || !by_prev.is_empty() {
        return Err("belongs to a game that no longer ends at its verified head".into());
    }
    Ok(out)
}
