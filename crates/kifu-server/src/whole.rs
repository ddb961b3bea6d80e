//! The whole store, a chunk at a time: the archive of every game streamed
//! as it is read, and the verification of every chain, so that neither
//! holds the store in memory.
//!
//! The archive is the one `kifu export` writes (`docs/FORMAT.md` section 7,
//! version 2): its manifest comes first and states each game's head, so
//! the heads are read first (a few dozen bytes a game), and each game's
//! records are then read up to the head the manifest states, however many
//! were appended meanwhile. The bytes are those of `kifu export` with the
//! same time stamp.
//!
//! Verification groups records by game and checks each group on its own
//! (`docs/FORMAT.md` section 6): verifying a run of whole games at a time
//! and adding the reports up gives the very report of verifying everything
//! at once.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use kifu_ledger::report::{self, VerifyDocument, VerifyLine};
use kifu_ledger::{archive, verify_records, Hash, Head, Record, VerifyReport, ZERO_HASH};
use kifu_store::{Store, StoreError};
use tokio::sync::mpsc;

/// Records gathered before they are verified or sent together.
pub const CHUNK_RECORDS: usize = 4096;

/// Bytes gathered before a piece of the archive is sent.
const CHUNK_BYTES: usize = 256 << 10;

/// Every game and its head, in id order.
///
/// # Errors
///
/// Storage errors.
pub fn heads(store: &Store) -> Result<Vec<(Hash, Head)>, StoreError> {
    let mut out = Vec::new();
    for g in store.games()? {
        if let Some(h) = store.head(&g)? {
            out.push((g, h));
        }
    }
    Ok(out)
}

/// The first bytes of the store's archive: magic and the unsigned manifest
/// stating `heads`, written at `at_ms`.
///
/// # Errors
///
/// The manifest cannot be encoded.
pub fn archive_start(
    heads: &[(Hash, Head)],
    at_ms: u64,
) -> Result<Vec<u8>, kifu_ledger::LedgerError> {
    archive::write_with_manifest(&[], heads, at_ms, None)
}

/// Writes the records of every game of `heads`, each up to its stated
/// head, to `out` a piece at a time; stops early, without error, when `out`
/// answers false (the reader went away).
///
/// # Errors
///
/// Storage errors.
pub fn archive_records(
    store: &Store,
    heads: &[(Hash, Head)],
    out: &mut dyn FnMut(Vec<u8>) -> bool,
) -> Result<(), StoreError> {
    let mut piece = Vec::with_capacity(CHUNK_BYTES);
    for (g, h) in heads {
        let mut from = 0u64;
        while from <= h.seq {
            let to = h.seq.min(from.saturating_add(CHUNK_RECORDS as u64 - 1));
            for r in store.read(g, from, Some(to))? {
                piece.extend_from_slice(&r.to_stored());
            }
            if piece.len() >= CHUNK_BYTES
                && !out(std::mem::replace(
                    &mut piece,
                    Vec::with_capacity(CHUNK_BYTES),
                ))
            {
                return Ok(());
            }
            from = to.saturating_add(1);
            if to == u64::MAX {
                break;
            }
        }
    }
    if !piece.is_empty() {
        out(piece);
    }
    Ok(())
}

/// The store's archive as a response body that is read from the store as
/// the client takes it. The heads are read before the first byte; a
/// storage error after it ends the body abruptly (the client sees a
/// truncated transfer, and a truncated archive fails its manifest).
///
/// # Errors
///
/// Storage errors reading the heads; the manifest cannot be encoded.
pub fn archive_body(store: Arc<Store>, at_ms: u64) -> Result<Body, crate::ApiError> {
    let heads = heads(&store)?;
    let start = archive_start(&heads, at_ms).map_err(|e| {
        crate::ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            e.to_string(),
        )
    })?;
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    tokio::task::spawn_blocking(move || {
        if tx.blocking_send(Ok(Bytes::from(start))).is_err() {
            return;
        }
        let r = archive_records(&store, &heads, &mut |piece| {
            tx.blocking_send(Ok(Bytes::from(piece))).is_ok()
        });
        if let Err(e) = r {
            let _ = tx.blocking_send(Err(std::io::Error::other(e.to_string())));
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    Ok(Body::from_stream(stream))
}

/// The game a record belongs to, as verification groups it.
fn game_of(r: &Record) -> Hash {
    match r.header() {
        Ok(h) if h.seq == 0 && h.chain == ZERO_HASH => r.hash(),
        Ok(h) => h.chain,
        Err(_) => ZERO_HASH,
    }
}

/// Adds the report of a disjoint set of games to `total`.
fn add(total: &mut VerifyReport, mut r: VerifyReport) {
    total.games.append(&mut r.games);
    total.records += r.records;
    total.add_findings(r);
}

/// Verifies every chain of the store and its fork evidence (what `kifu
/// verify` reads), a run of whole games at a time: memory holds about
/// [`CHUNK_RECORDS`] records (or one game, if longer) and the evidence.
/// The report equals `verify_records(&store.records_for_verification()?)`.
///
/// # Errors
///
/// Storage errors.
pub fn verify_store(store: &Store) -> Result<VerifyReport, StoreError> {
    Ok(verify_store_showing(store, &mut |_| true)?.unwrap_or_default())
}

/// How far a store's verification has gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyProgress {
    /// Games verified so far.
    pub games_done: usize,
    /// Games in the store.
    pub games: usize,
    /// Records verified so far (evidence of forks included).
    pub records_done: u64,
}

/// [`verify_store`], telling `progress` after each run of games it
/// verified (about [`CHUNK_RECORDS`] records); stops early, with `None`,
/// when `progress` answers false (the reader went away).
///
/// # Errors
///
/// Storage errors.
pub fn verify_store_showing(
    store: &Store,
    progress: &mut dyn FnMut(VerifyProgress) -> bool,
) -> Result<Option<VerifyReport>, StoreError> {
    // Evidence of forks is rare and small: grouped by game up front.
    let mut evidence: BTreeMap<Hash, Vec<Record>> = BTreeMap::new();
    for r in store.evidence()? {
        evidence.entry(game_of(&r)).or_default().push(r);
    }
    let mut total = VerifyReport::default();
    let mut run: Vec<Record> = Vec::new();
    let games = store.games()?;
    let mut at = VerifyProgress {
        games_done: 0,
        games: games.len(),
        records_done: 0,
    };
    for (i, g) in games.iter().enumerate() {
        run.extend(store.read(g, 0, None)?);
        if let Some(ev) = evidence.remove(g) {
            run.extend(ev);
        }
        if run.len() >= CHUNK_RECORDS {
            at.records_done += run.len() as u64;
            add(&mut total, verify_records(&std::mem::take(&mut run)));
            at.games_done = i + 1;
            if !progress(at) {
                return Ok(None);
            }
        }
    }
    // Evidence of games with no chain in the store.
    run.extend(evidence.into_values().flatten());
    if !run.is_empty() || total.games.is_empty() && total.records == 0 {
        at.records_done += run.len() as u64;
        add(&mut total, verify_records(&run));
    }
    at.games_done = at.games;
    if !progress(at) {
        return Ok(None);
    }
    // The order verify_records gives (games come in id order already).
    total.games.sort_by_key(|g| g.game);
    total.problems.sort();
    total.warnings.sort();
    total.duplicates.sort_by_key(|d| (d.game, d.seq, d.hash));
    total.forks.sort_by_key(|f| (f.game, f.seq));
    total.uninterpreted.sort();
    Ok(Some(total))
}

/// The store's verification as NDJSON read as the client takes it: a line
/// `{"progress": {"games_done", "games", "records_done"}}` after each run
/// of games verified, then `{"report": REPORT}` (the document of `kifu
/// verify --json`), or `{"error": {"code", "message"}}` when the store
/// cannot be read. The lines keep a long verification's connection busy
/// (a proxy does not time it out) and let the client show how far it is.
pub fn verify_body(store: Arc<Store>) -> Body {
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    tokio::task::spawn_blocking(move || {
        let line = |v: VerifyLine| {
            // A line is strings and numbers: it always serialises (through
            // a value, so that its keys are in order).
            let text = serde_json::to_value(&v)
                .map(|v| v.to_string())
                .unwrap_or_default();
            Ok(Bytes::from(format!("{text}\n")))
        };
        let r = verify_store_showing(&store, &mut |p| {
            tx.blocking_send(line(VerifyLine::Progress(report::Progress {
                games_done: p.games_done as u64,
                games: p.games as u64,
                records_done: p.records_done,
            })))
            .is_ok()
        });
        let last = match r {
            Ok(Some(report)) => VerifyLine::Report(VerifyDocument::from(&report)),
            Ok(None) => return,
            Err(e) => VerifyLine::Error(report::Stopped {
                code: "storage".into(),
                message: e.to_string(),
            }),
        };
        let _ = tx.blocking_send(line(last));
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    Body::from_stream(stream)
}
