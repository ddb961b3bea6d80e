//! The archive file: self-contained, verifiable offline.
//!
//! ```text
//! archive v1 = "KIFUARC1" || record*
//! archive v2 = "KIFUARC2" || u32 LE length of manifest_bytes || manifest_bytes
//!              || signature (64 bytes, only when the manifest names a signer)
//!              || record*
//! record     = u32 LE length of event_bytes || event_bytes || signature (64 bytes)
//! ```
//!
//! The manifest (v2, from format 0.2.0) states each game's head, so that a
//! copy missing a game's last events, or a whole game, fails verification;
//! signed by an operator key, it cannot be rewritten to match a truncation.
//! Records appear chain by chain, each chain in sequence order, genesis
//! first; a reader must not depend on that order (verification groups by
//! game, and its verdict does not depend on the order).

use serde::{Deserialize, Serialize};

use crate::chain::{verify_records, Head, Problem, VerifyReport};
use crate::event::{Hash, Record, ZERO_HASH};
use crate::key::{Keypair, PublicKey};
use crate::LedgerError;

/// The first eight bytes of a version 1 archive (no manifest).
pub const MAGIC: &[u8; 8] = b"KIFUARC1";

/// The first eight bytes of a version 2 archive (with a manifest).
pub const MAGIC_V2: &[u8; 8] = b"KIFUARC2";

/// Prefix of the bytes a manifest signature covers.
pub const MANIFEST_DOMAIN: &[u8] = b"kifu/v1/archive-manifest\n";

/// One game's head as the manifest states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// The game id.
    pub game: Hash,
    /// Seq of its last record in the archive.
    pub head_seq: u64,
    /// Hash of that record.
    pub head_hash: Hash,
}

/// What an archive says it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Manifest format version (1).
    pub version: u16,
    /// When the archive was written, in ms since the Unix epoch.
    pub at_ms: u64,
    /// The operator key that signs the manifest, if any.
    pub signer: Option<PublicKey>,
    /// Every game in the archive, in id order.
    pub games: Vec<ManifestEntry>,
}

/// What the manifest of an archive showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestCheck {
    /// The manifest.
    pub manifest: Manifest,
    /// True when it names a signer and the signature verifies.
    pub signed: bool,
}

/// An archive's records, its manifest and the verdict on both. Only this
/// crate makes one, so a store can trust that its report is the verdict on
/// its records.
#[derive(Debug, Clone)]
pub struct ArchiveVerdict {
    records: Vec<Record>,
    manifest: Option<ManifestCheck>,
    report: VerifyReport,
    signatures_checked: bool,
}

impl ArchiveVerdict {
    /// The verdict on records that come without a manifest (from a store, a
    /// feed, a test).
    pub fn of_records(records: Vec<Record>) -> ArchiveVerdict {
        let report = verify_records(&records);
        ArchiveVerdict {
            records,
            manifest: None,
            report,
            signatures_checked: true,
        }
    }

    /// The verdict on records a first reading verified (the second reading
    /// of [`crate::stream::Reread`]): `report` is that reading's report on
    /// these records' games, and every record was found on a chain it
    /// verified.
    pub(crate) fn of_checked(records: Vec<Record>, report: VerifyReport) -> ArchiveVerdict {
        ArchiveVerdict {
            records,
            manifest: None,
            report,
            signatures_checked: true,
        }
    }

    /// False for a verdict of [`verify_archive_unsigned`]: its report took
    /// every event's signature as good.
    pub fn signatures_checked(&self) -> bool {
        self.signatures_checked
    }

    /// The records, as read.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The manifest, when the archive has one (v2).
    pub fn manifest(&self) -> Option<&ManifestCheck> {
        self.manifest.as_ref()
    }

    /// The verdict: the records' ([`verify_records`]) and the manifest's.
    pub fn report(&self) -> &VerifyReport {
        &self.report
    }
}

/// On whose word an archive's completeness rests (`docs/FORMAT.md`
/// section 7, "Whom a verdict trusts").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authority {
    /// The manifest is signed, and its signer is a key the reader trusts.
    Trusted(PublicKey),
    /// The manifest is signed by a key the reader did not name: it shows
    /// the archive matches what that key states, not who holds the key.
    Unauthenticated(PublicKey),
    /// The manifest names no signer: it catches accidents only.
    Unsigned,
    /// No manifest (a `KIFUARC1` archive, or records without an archive):
    /// completeness cannot be shown.
    NoManifest,
}

/// On whose word the completeness of an archive with `manifest` rests, for
/// a reader trusting `trusted` (see [`ArchiveVerdict::authority`]).
pub fn authority(manifest: Option<&ManifestCheck>, trusted: &[PublicKey]) -> Authority {
    match manifest {
        None => Authority::NoManifest,
        Some(m) => match m.manifest.signer {
            Some(k) if m.signed && trusted.contains(&k) => Authority::Trusted(k),
            Some(k) if m.signed => Authority::Unauthenticated(k),
            _ => Authority::Unsigned,
        },
    }
}

impl ArchiveVerdict {
    /// On whose word the archive's completeness rests, for a reader trusting
    /// `trusted`. A manifest whose signature fails is [`Authority::Unsigned`]
    /// (its failure is in the report).
    pub fn authority(&self, trusted: &[PublicKey]) -> Authority {
        authority(self.manifest.as_ref(), trusted)
    }

    /// Holds the archive to the keys a reader trusts: unless its manifest
    /// is signed by one of `trusted`, the report gains a failure (an
    /// archive without a manifest, with an unsigned one, or signed by
    /// another key is never complete for such a reader). Nothing changes
    /// when `trusted` is empty. The manifest's own checks (every game
    /// listed, each ending at its stated head) are in the report already.
    pub fn require_trusted(&mut self, trusted: &[PublicKey]) {
        require_trusted(&mut self.report, self.manifest.as_ref(), trusted);
    }
}

/// [`ArchiveVerdict::require_trusted`] for a report and manifest reached
/// another way (the streaming verifier, [`crate::stream`]).
pub fn require_trusted(
    report: &mut VerifyReport,
    manifest: Option<&ManifestCheck>,
    trusted: &[PublicKey],
) {
    {
        if trusted.is_empty() {
            return;
        }
        let what = match authority(manifest, trusted) {
            Authority::Trusted(_) => return,
            Authority::Unauthenticated(k) => format!(
                "untrusted: the manifest is signed by key {} ({}), which is not a trusted key",
                k.to_hex(),
                k.sha256_fingerprint()
            ),
            Authority::Unsigned => {
                "untrusted: the manifest is not signed (or its signature fails), so nothing shows the archive is complete against a trusted key".into()
            }
            Authority::NoManifest => {
                "untrusted: the archive has no manifest (a KIFUARC1 archive, or one whose manifest was stripped), so nothing shows it is complete against a trusted key".into()
            }
        };
        report.problems.push(Problem {
            game: ZERO_HASH,
            seq: None,
            what,
        });
        report.problems.sort();
    }
}

/// Writes records as a version 1 archive (no manifest).
pub fn write(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for r in records {
        out.extend_from_slice(&r.to_stored());
    }
    out
}

/// Writes records as a version 2 archive whose manifest states `heads`,
/// signed by `key` when one is given.
///
/// # Errors
///
/// [`LedgerError::Encode`] if the manifest cannot be encoded.
///
/// ```
/// use kifu_ledger::testkit::{sample_game, Cast};
/// use kifu_ledger::archive;
/// let cast = Cast::new();
/// let c = sample_game(&cast, "doc");
/// let bytes = archive::write_with_manifest(&c.records, &[(c.game, c.head)], 0, Some(&cast.director)).unwrap();
/// let v = archive::verify_archive(&bytes).unwrap();
/// assert!(v.report().ok() && v.manifest().unwrap().signed);
/// // Without its last event, the copy fails.
/// let cut = archive::write_with_manifest(&c.records[..c.records.len() - 1], &[(c.game, c.head)], 0, Some(&cast.director)).unwrap();
/// assert!(!archive::verify_archive(&cut).unwrap().report().ok());
/// ```
pub fn write_with_manifest(
    records: &[Record],
    heads: &[(Hash, Head)],
    at_ms: u64,
    key: Option<&Keypair>,
) -> Result<Vec<u8>, LedgerError> {
    write_manifest_and(records.iter(), heads, at_ms, key)
}

/// The archive of whole chains (`kifu export`): each chain's records from
/// its genesis, in order, the last its head, which the manifest states.
/// A tournament chain carried along is listed like a game
/// (`docs/FORMAT.md` section 7).
///
/// # Errors
///
/// The manifest cannot be encoded.
pub fn write_chains(
    chains: &[(Hash, Vec<Record>)],
    at_ms: u64,
    key: Option<&Keypair>,
) -> Result<Vec<u8>, LedgerError> {
    let heads: Vec<(Hash, Head)> = chains
        .iter()
        .filter_map(|(id, records)| {
            records.last().map(|last| {
                (
                    *id,
                    Head {
                        seq: records.len() as u64 - 1,
                        hash: last.hash(),
                    },
                )
            })
        })
        .collect();
    write_manifest_and(
        chains.iter().flat_map(|(_, records)| records.iter()),
        &heads,
        at_ms,
        key,
    )
}

fn write_manifest_and<'a>(
    records: impl Iterator<Item = &'a Record>,
    heads: &[(Hash, Head)],
    at_ms: u64,
    key: Option<&Keypair>,
) -> Result<Vec<u8>, LedgerError> {
    let mut games: Vec<ManifestEntry> = heads
        .iter()
        .map(|(g, h)| ManifestEntry {
            game: *g,
            head_seq: h.seq,
            head_hash: h.hash,
        })
        .collect();
    games.sort_by_key(|e| e.game);
    let manifest = Manifest {
        version: 1,
        at_ms,
        signer: key.map(|k| k.public()),
        games,
    };
    let mbytes =
        postcard::to_allocvec(&manifest).map_err(|e| LedgerError::Encode(e.to_string()))?;
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC_V2);
    out.extend_from_slice(&(mbytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&mbytes);
    if let Some(k) = key {
        out.extend_from_slice(&k.sign_raw(&manifest_message(&mbytes)));
    }
    for r in records {
        out.extend_from_slice(&r.to_stored());
    }
    Ok(out)
}

fn manifest_message(mbytes: &[u8]) -> Vec<u8> {
    let mut m = MANIFEST_DOMAIN.to_vec();
    m.extend_from_slice(mbytes);
    m
}

/// A manifest as read, before its checks.
pub(crate) struct RawManifest {
    manifest: Manifest,
    bytes: Vec<u8>,
    signature: Option<[u8; 64]>,
}

/// The head of an archive (its magic, and a v2 archive's manifest and
/// manifest signature), read before its records: see [`parse_head`].
pub struct ArchiveHead {
    raw: Option<RawManifest>,
}

impl ArchiveHead {
    /// The manifest as read, before its checks.
    pub(crate) fn into_raw(self) -> Option<RawManifest> {
        self.raw
    }

    /// True for a v2 archive's head (with a manifest).
    pub fn has_manifest(&self) -> bool {
        self.raw.is_some()
    }
}

/// [`check_manifest`] for the streaming verifier.
pub(crate) fn check_manifest_of(raw: RawManifest, report: &mut VerifyReport) -> ManifestCheck {
    check_manifest(raw, report)
}

/// What [`parse_head`] found in the first bytes of an archive.
pub enum HeadParse {
    /// The head is complete: it and how many bytes it took.
    Done(ArchiveHead, usize),
    /// At least this many bytes (from the start) are needed to read the head.
    NeedMore(usize),
}

/// Reads an archive's head from its first bytes, for a caller that reads the
/// file a piece at a time (`kifu verify FILE` streams it): give it the bytes
/// so far, and more when it asks.
///
/// # Errors
///
/// [`LedgerError::Archive`] when the magic is not an archive's, or the
/// manifest does not decode strictly (the same refusals as [`read`]); a head
/// cut short by the end of the file is the caller's to report ("truncated").
pub fn parse_head(bytes: &[u8]) -> Result<HeadParse, LedgerError> {
    if bytes.len() < 8 {
        return Ok(HeadParse::NeedMore(8));
    }
    if bytes.starts_with(MAGIC.as_slice()) {
        return Ok(HeadParse::Done(ArchiveHead { raw: None }, 8));
    }
    if !bytes.starts_with(MAGIC_V2.as_slice()) {
        return Err(LedgerError::Archive(
            "not a kifu archive (bad magic)".into(),
        ));
    }
    let rest = &bytes[8..];
    let Some(len_bytes) = rest.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()) else {
        return Ok(HeadParse::NeedMore(12));
    };
    let len = u32::from_le_bytes(len_bytes) as usize;
    let Some(mbytes) = rest.get(4..4 + len) else {
        return Ok(HeadParse::NeedMore(12 + len));
    };
    let manifest: Manifest =
        postcard::from_bytes(mbytes).map_err(|e| LedgerError::Archive(format!("manifest: {e}")))?;
    let again = postcard::to_allocvec(&manifest).map_err(|e| LedgerError::Encode(e.to_string()))?;
    if again != mbytes || manifest.version != 1 {
        return Err(LedgerError::Archive(
            "manifest bytes are not canonical, or of an unknown version".into(),
        ));
    }
    let mut used = 12 + len;
    let signature = if manifest.signer.is_some() {
        let Some(s) = bytes
            .get(used..used + 64)
            .and_then(|b| <[u8; 64]>::try_from(b).ok())
        else {
            return Ok(HeadParse::NeedMore(used + 64));
        };
        used += 64;
        Some(s)
    } else {
        None
    };
    Ok(HeadParse::Done(
        ArchiveHead {
            raw: Some(RawManifest {
                manifest,
                bytes: mbytes.to_vec(),
                signature,
            }),
        },
        used,
    ))
}

fn read_parts(bytes: &[u8]) -> Result<(Option<RawManifest>, Vec<Record>), LedgerError> {
    let (manifest, mut rest) = match parse_head(bytes)? {
        HeadParse::Done(head, used) => (head.raw, &bytes[used..]),
        HeadParse::NeedMore(n) => {
            return Err(LedgerError::Archive(
                match n {
                    8 => "not a kifu archive (bad magic)",
                    12 => "truncated manifest length",
                    _ if bytes.len() >= 12
                        && n == 12
                            + u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]])
                                as usize =>
                    {
                        "truncated manifest"
                    }
                    _ => "truncated manifest signature",
                }
                .into(),
            ))
        }
    };
    let mut out = Vec::new();
    while !rest.is_empty() {
        let offset = bytes.len() - rest.len();
        let (r, more) = Record::from_stored_prefix(rest)
            .map_err(|e| LedgerError::Archive(format!("at byte {offset}: {e}")))?;
        out.push(r);
        rest = more;
    }
    Ok((manifest, out))
}

/// Reads an archive's records (either version), without checking them.
///
/// # Errors
///
/// [`LedgerError::Archive`] when the framing is broken (bad magic,
/// truncation, a manifest that does not decode).
pub fn read(bytes: &[u8]) -> Result<Vec<Record>, LedgerError> {
    read_parts(bytes).map(|(_, r)| r)
}

/// Reads and verifies an archive: every record ([`verify_records`]) and the
/// manifest (its signature, and that every game it lists ends exactly at the
/// stated head, and that it lists every game). `kifu verify FILE` and
/// `kifu import FILE` reach the same verdict streaming the file
/// ([`crate::stream::StreamVerifier`]). A tournament chain carried among the
/// games (`docs/FORMAT.md` section 7) is verified here as a game chain, and
/// fails: its facts are checked outside this crate, so `kifu verify` sets
/// it apart ([`crate::stream::StreamVerifier::carrying`]) and checks it as
/// a tournament chain file.
///
/// # Errors
///
/// [`LedgerError::Archive`] when the framing is broken; everything else is in
/// the report.
pub fn verify_archive(bytes: &[u8]) -> Result<ArchiveVerdict, LedgerError> {
    verify_archive_with(bytes, verify_records)
}

/// [`verify_archive`] with every event's signature taken as good (the
/// manifest's is checked): see [`crate::chain::verify_records_unsigned`].
/// The verdict says so ([`ArchiveVerdict::signatures_checked`]).
///
/// # Errors
///
/// As [`verify_archive`].
pub fn verify_archive_unsigned(bytes: &[u8]) -> Result<ArchiveVerdict, LedgerError> {
    let mut v = verify_archive_with(bytes, crate::chain::verify_records_unsigned)?;
    v.signatures_checked = false;
    Ok(v)
}

fn verify_archive_with(
    bytes: &[u8],
    verify: fn(&[Record]) -> VerifyReport,
) -> Result<ArchiveVerdict, LedgerError> {
    let (raw, records) = read_parts(bytes)?;
    let mut report = verify(&records);
    let manifest = raw.map(|raw| check_manifest(raw, &mut report));
    Ok(ArchiveVerdict {
        records,
        manifest,
        report,
        signatures_checked: true,
    })
}

/// The manifest's checks (`docs/FORMAT.md` section 7): its signature, each
/// listed game ending at its stated head, every game listed, and listed
/// once. Its failures go into `report`.
fn check_manifest(raw: RawManifest, report: &mut VerifyReport) -> ManifestCheck {
    let problem = |what: String| Problem {
        game: ZERO_HASH,
        seq: None,
        what,
    };
    let signed = match (&raw.manifest.signer, &raw.signature) {
        (Some(k), Some(s)) => {
            let ok = crate::sig::verify_one(&k.0, &manifest_message(&raw.bytes), s).is_ok();
            if !ok {
                report
                    .problems
                    .push(problem("manifest: bad signature".into()));
            }
            ok
        }
        _ => false,
    };
    let found: std::collections::HashMap<Hash, &crate::chain::GameSummary> =
        report.games.iter().map(|g| (g.game, g)).collect();
    let mut missing = Vec::new();
    for e in &raw.manifest.games {
        match found.get(&e.game) {
            None => missing.push(Problem {
                game: e.game,
                seq: None,
                what: format!(
                    "incomplete: the manifest lists this game (head seq {}), the archive holds no chain of it",
                    e.head_seq
                ),
            }),
            Some(g) if g.head.seq != e.head_seq || g.head.hash != e.head_hash => {
                missing.push(Problem {
                    game: e.game,
                    seq: Some(g.head.seq),
                    what: format!(
                        "incomplete: the manifest states the chain ends at seq {} ({}); the archive's chain ends at seq {} ({})",
                        e.head_seq,
                        hex::encode(&e.head_hash[..8]),
                        g.head.seq,
                        hex::encode(&g.head.hash[..8])
                    ),
                })
            }
            Some(_) => {}
        }
    }
    report.problems.extend(missing);
    // A game listed twice: the manifest states two heads, or one head
    // twice; either way it is not a list of the archive's games
    // (`docs/FORMAT.md` section 7).
    let mut listed: std::collections::BTreeMap<Hash, usize> = std::collections::BTreeMap::new();
    for e in &raw.manifest.games {
        *listed.entry(e.game).or_default() += 1;
    }
    for g in &report.games {
        if !listed.contains_key(&g.game) {
            report.problems.push(Problem {
                game: g.game,
                seq: None,
                what: "the manifest does not list this game".into(),
            });
        }
    }
    for (game, n) in listed.into_iter().filter(|(_, n)| *n > 1) {
        report.problems.push(Problem {
            game,
            seq: None,
            what: format!("the manifest lists this game {n} times; each game is listed once"),
        });
    }
    report.problems.sort();
    ManifestCheck {
        manifest: raw.manifest,
        signed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{sample_game, Cast};

    #[test]
    fn whole_chains_are_written_with_a_manifest_naming_each_head() {
        let cast = Cast::new();
        let a = sample_game(&cast, "chains a");
        let b = sample_game(&cast, "chains b");
        let chains = vec![
            (a.game, a.records.clone()),
            (b.game, b.records.clone()),
            ([7; 32], Vec::new()),
        ];
        let bytes = write_chains(&chains, 5, Some(&cast.director)).unwrap();
        let v = verify_archive(&bytes).unwrap();
        assert!(v.report().ok(), "{:?}", v.report().problems);
        assert_eq!(v.records().len(), a.records.len() + b.records.len());
        let m = v.manifest().unwrap();
        assert!(m.signed);
        assert_eq!(m.manifest.at_ms, 5);
        let mut heads: Vec<(Hash, u64, Hash)> = m
            .manifest
            .games
            .iter()
            .map(|e| (e.game, e.head_seq, e.head_hash))
            .collect();
        heads.sort();
        let mut want = vec![
            (a.game, a.head.seq, a.head.hash),
            (b.game, b.head.seq, b.head.hash),
        ];
        want.sort();
        assert_eq!(heads, want);
        // The same bytes as naming the heads by hand.
        let mut records = a.records.clone();
        records.extend(b.records.iter().cloned());
        let by_hand = write_with_manifest(
            &records,
            &[(a.game, a.head), (b.game, b.head)],
            5,
            Some(&cast.director),
        )
        .unwrap();
        assert_eq!(bytes, by_hand);
    }
}
