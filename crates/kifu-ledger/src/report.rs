//! A verification report as people and programs read it: the document of
//! `kifu verify --json` and of the server's `GET /verify` ([`VerifyDocument`],
//! read back by [`VerifyDocument::into_report`]), the same report with an
//! archive's manifest and whom it trusts ([`ArchiveDocument`]), and the
//! same report in words ([`ReportText`]). Every face prints these; none
//! words a verdict of its own.

use serde::{Deserialize, Serialize};

use crate::archive::{authority, Authority, ManifestCheck};
use crate::chain::{Duplicate, Fork, GameSummary, Head, Problem, VerifyReport};
use crate::{Hash, PublicKey};

/// Up to this many games, the words give one line per game; above, one
/// line per game that has not reached a signed result (the document has
/// all).
pub const PER_GAME_LINES: usize = 20;

/// One game's chain in a [`VerifyDocument`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GameLine {
    /// The game id, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// Events on the verified chain, genesis included.
    pub events: u64,
    /// Hash of the chain's last record, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub head: String,
    /// Seq of the chain's last record.
    pub head_seq: u64,
    /// Time of the chain's last record, ms.
    pub head_at_ms: u64,
    /// Seq of the signed result, when one was reached.
    pub result_seq: Option<u64>,
    /// Seqs of appeals not decided by a majority.
    pub pending_appeals: Vec<u64>,
    /// A signed result and no appeal pending.
    #[serde(default)]
    pub finished: bool,
}

/// A failure or a warning at one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ProblemLine {
    /// The game id, hex (zeros when unknown).
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// The seq, when the problem is at one event.
    pub seq: Option<u64>,
    /// What is wrong.
    pub what: String,
}

/// A fork: two (or more) validly signed records at one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ForkLine {
    /// The game id, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// The seq they claim.
    pub seq: u64,
    /// The first record's hash, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub first: String,
    /// The second record's hash, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub second: String,
    /// Every record of the fork, hex hashes.
    pub records: Vec<String>,
}

/// A record given more than once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DuplicateLine {
    /// The game id, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// Its seq.
    pub seq: u64,
    /// Its hash, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub hash: String,
    /// How many times it was given.
    pub copies: u64,
}

/// An event of a kind newer than this library.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct UninterpretedLine {
    /// The game id, hex.
    #[schemars(pattern("^[0-9a-f]{64}$"))]
    pub game: String,
    /// Its seq.
    pub seq: u64,
    /// Its kind index.
    pub kind_index: u64,
}

/// The document of a [`VerifyReport`] (`kifu verify --json`, `GET
/// /verify`). It does not state decided appeals, which no rendering of the
/// report shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct VerifyDocument {
    /// True when nothing failed.
    #[serde(default)]
    pub ok: bool,
    /// Records given, duplicates included.
    pub records: u64,
    /// Distinct records given.
    pub distinct: u64,
    /// Each chain, in id order.
    pub games: Vec<GameLine>,
    /// Everything that failed.
    pub problems: Vec<ProblemLine>,
    /// Forks found (each also a problem).
    pub forks: Vec<ForkLine>,
    /// Records given more than once.
    pub duplicates: Vec<DuplicateLine>,
    /// Events of kinds newer than this library.
    pub uninterpreted: Vec<UninterpretedLine>,
    /// Facts the board or the clock cannot have been, reported.
    pub warnings: Vec<ProblemLine>,
}

/// Why a [`VerifyDocument`] does not state a report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("verification report is malformed: {0}")]
pub struct DocumentError(pub String);

impl From<&Problem> for ProblemLine {
    fn from(p: &Problem) -> ProblemLine {
        ProblemLine {
            game: hex::encode(p.game),
            seq: p.seq,
            what: p.what.clone(),
        }
    }
}

impl From<&Fork> for ForkLine {
    fn from(f: &Fork) -> ForkLine {
        ForkLine {
            game: hex::encode(f.game),
            seq: f.seq,
            first: hex::encode(f.first),
            second: hex::encode(f.second),
            records: f.all.iter().map(hex::encode).collect(),
        }
    }
}

impl From<&Duplicate> for DuplicateLine {
    fn from(d: &Duplicate) -> DuplicateLine {
        DuplicateLine {
            game: hex::encode(d.game),
            seq: d.seq,
            hash: hex::encode(d.hash),
            copies: d.copies,
        }
    }
}

fn hash_of(s: &str, field: &str) -> Result<Hash, DocumentError> {
    hex::decode(s)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| DocumentError(format!("'{field}' is not a 64-digit hex hash")))
}

fn problem_of(p: ProblemLine) -> Result<Problem, DocumentError> {
    Ok(Problem {
        game: hash_of(&p.game, "game")?,
        seq: p.seq,
        what: p.what,
    })
}

impl From<&VerifyReport> for VerifyDocument {
    fn from(r: &VerifyReport) -> VerifyDocument {
        VerifyDocument {
            ok: r.ok(),
            records: r.records,
            distinct: r.distinct,
            games: r
                .games
                .iter()
                .map(|g| GameLine {
                    game: hex::encode(g.game),
                    events: g.events,
                    head: hex::encode(g.head.hash),
                    head_seq: g.head.seq,
                    head_at_ms: g.head_at_ms,
                    result_seq: g.result_seq,
                    pending_appeals: g.pending_appeals.clone(),
                    finished: g.finished(),
                })
                .collect(),
            problems: r.problems.iter().map(ProblemLine::from).collect(),
            forks: r.forks.iter().map(ForkLine::from).collect(),
            duplicates: r.duplicates.iter().map(DuplicateLine::from).collect(),
            uninterpreted: r
                .uninterpreted
                .iter()
                .map(|(g, s, k)| UninterpretedLine {
                    game: hex::encode(g),
                    seq: *s,
                    kind_index: u64::from(*k),
                })
                .collect(),
            warnings: r.warnings.iter().map(ProblemLine::from).collect(),
        }
    }
}

impl VerifyDocument {
    /// The report this document states (decided appeals, which it does not
    /// state, empty).
    ///
    /// # Errors
    ///
    /// A hash that is not 64 hex digits, a kind index beyond 32 bits, or a
    /// document saying it failed with no problem listed (which must not
    /// read as a success).
    pub fn into_report(self) -> Result<VerifyReport, DocumentError> {
        if !self.ok && self.problems.is_empty() {
            return Err(DocumentError(
                "'ok' is false but no problem is listed".into(),
            ));
        }
        let mut r = VerifyReport {
            records: self.records,
            distinct: self.distinct,
            ..VerifyReport::default()
        };
        for g in self.games {
            r.games.push(GameSummary {
                game: hash_of(&g.game, "game")?,
                events: g.events,
                head: Head {
                    seq: g.head_seq,
                    hash: hash_of(&g.head, "head")?,
                },
                head_at_ms: g.head_at_ms,
                result_seq: g.result_seq,
                pending_appeals: g.pending_appeals,
                decided_appeals: Vec::new(),
            });
        }
        for p in self.problems {
            r.problems.push(problem_of(p)?);
        }
        for w in self.warnings {
            r.warnings.push(problem_of(w)?);
        }
        for f in self.forks {
            let mut all = Vec::new();
            for h in &f.records {
                all.push(hash_of(h, "records")?);
            }
            r.forks.push(Fork {
                game: hash_of(&f.game, "game")?,
                seq: f.seq,
                first: hash_of(&f.first, "first")?,
                second: hash_of(&f.second, "second")?,
                all,
            });
        }
        for d in self.duplicates {
            r.duplicates.push(Duplicate {
                game: hash_of(&d.game, "game")?,
                seq: d.seq,
                hash: hash_of(&d.hash, "hash")?,
                copies: d.copies,
            });
        }
        for u in self.uninterpreted {
            let kind = u32::try_from(u.kind_index)
                .map_err(|_| DocumentError("a kind index beyond 32 bits".into()))?;
            r.uninterpreted
                .push((hash_of(&u.game, "game")?, u.seq, kind));
        }
        Ok(r)
    }
}

/// How far a verification run a batch of games at a time has gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Progress {
    /// Games verified so far.
    pub games_done: u64,
    /// Games in all.
    pub games: u64,
    /// Records verified so far.
    pub records_done: u64,
}

/// A failure that stopped a verification before its report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Stopped {
    /// A word for the kind of failure (`storage`).
    pub code: String,
    /// What went wrong.
    pub message: String,
}

/// One line of a verification streamed as NDJSON (the server's `GET
/// /verify?progress=1`, `docs/API.md`): `{"progress": {...}}` after each
/// run of games, then `{"report": REPORT}` or `{"error": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerifyLine {
    /// How far it has gone.
    Progress(Progress),
    /// The report, last.
    Report(VerifyDocument),
    /// Why it stopped, last.
    Error(Stopped),
}

/// An archive's manifest in a report: who signed it, whether the reader
/// trusts that key, and on whose word completeness rests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct ManifestDocument {
    /// True when it names a signer and the signature verifies.
    pub signed: bool,
    /// The signer's key, hex.
    pub signer: Option<String>,
    /// The signer's SHA-256 fingerprint.
    pub fingerprint: Option<String>,
    /// The signer is a key the reader trusts.
    pub trusted: bool,
    /// [`Authority::word`].
    pub completeness: String,
    /// When the archive was written, ms.
    pub at_ms: u64,
    /// Games the manifest lists.
    pub games: usize,
}

impl ManifestDocument {
    /// The manifest `m` as a reader trusting `trusted` sees it.
    pub fn new(m: &ManifestCheck, trusted: &[PublicKey]) -> ManifestDocument {
        let a = authority(Some(m), trusted);
        ManifestDocument {
            signed: m.signed,
            signer: m.manifest.signer.map(|k| k.to_hex()),
            fingerprint: m.manifest.signer.map(|k| k.sha256_fingerprint()),
            trusted: matches!(a, Authority::Trusted(_)),
            completeness: a.word().to_string(),
            at_ms: m.manifest.at_ms,
            games: m.manifest.games.len(),
        }
    }
}

/// A tournament chain an archive carries, as a report names it (made by
/// `kifu_tournament::carried::Carried::document`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
// The schema is closed; reading stays as lenient as before.
#[schemars(deny_unknown_fields)]
pub struct CarriedDocument {
    /// The chain's id, hex.
    pub id: String,
    /// The tournament's name.
    pub name: String,
    /// The organiser's keys it names, hex.
    pub organiser_keys: Vec<String>,
    /// The reader named no key, so the archive was checked against these.
    pub trusted_by_default: bool,
}

/// The document of `kifu verify FILE --json` (and of a store, with no
/// manifest): the report, the manifest as the reader sees it, the keys the
/// reader trusts, and a tournament chain the archive carries.
// Closed like every document: serde cannot refuse unknown fields beside a
// flattened one, so the schema says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ArchiveDocument {
    /// The report.
    #[serde(flatten)]
    pub report: VerifyDocument,
    /// The manifest (`null` when there is none).
    #[serde(default)]
    pub manifest: Option<ManifestDocument>,
    /// The keys the reader trusts (`--trust`), hex (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<crate::PublicKey>")]
    pub trusted_keys: Vec<String>,
    /// The tournament chain the archive carries (absent when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<CarriedDocument>,
}

impl ArchiveDocument {
    /// The document of `r`, with `manifest` as a reader trusting `trusted`
    /// sees it.
    pub fn new(
        r: &VerifyReport,
        manifest: Option<&ManifestCheck>,
        trusted: &[PublicKey],
    ) -> ArchiveDocument {
        ArchiveDocument {
            report: r.into(),
            manifest: manifest.map(|m| ManifestDocument::new(m, trusted)),
            trusted_keys: trusted.iter().map(|k| k.to_hex()).collect(),
            tournament: None,
        }
    }
}

impl Authority {
    /// The authority in one word, as documents state it.
    pub fn word(&self) -> &'static str {
        match self {
            Authority::Trusted(_) => "trusted",
            Authority::Unauthenticated(_) => "unauthenticated",
            Authority::Unsigned => "unsigned",
            Authority::NoManifest => "none",
        }
    }

    /// On whose word an archive's completeness rests, in a sentence: the
    /// manifest states `heads` heads, and `matches` when the archive
    /// matches them.
    pub fn sentence(&self, heads: usize, matches: bool) -> String {
        let states = count(heads as u64, "head");
        let tail = if matches {
            "the archive matches it"
        } else {
            "see the 'incomplete' lines above"
        };
        match self {
            Authority::Trusted(k) => format!(
                "manifest: signed by trusted key {} ({}); it states {states} and {tail}",
                k.to_hex(),
                k.sha256_fingerprint()
            ),
            Authority::Unauthenticated(k) => format!(
                "manifest: signed by key {}; it states {states} and {tail}, but completeness rests on an unauthenticated key (fingerprint {}): nothing shows who holds it. Give the organiser's key with --trust KEY to check the archive against it",
                k.to_hex(),
                k.sha256_fingerprint()
            ),
            Authority::Unsigned => format!(
                "manifest: unsigned; it states {states} (export with --key to sign it): completeness rests on no key at all"
            ),
            Authority::NoManifest => {
                "note: no manifest (a KIFUARC1 archive): completeness cannot be shown".into()
            }
        }
    }
}

/// `n` with its noun, singular or plural.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A short id: the first 12 hex digits.
fn short(h: &Hash) -> String {
    hex::encode(&h[..6])
}

/// A report in words: the failures (one line each, for standard error) and
/// the lines of the verdict (for standard output).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportText {
    /// `FAIL` lines, one per problem.
    pub failures: Vec<String>,
    /// The verdict: a summary, each game's end, whom completeness rests
    /// on, and notes.
    pub lines: Vec<String>,
}

/// Where the records verified come from: a file (whose manifest is
/// spoken of, present or not), or a store (which has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An archive file.
    File,
    /// A store, local or a server's.
    Store,
}

impl ReportText {
    /// The report `r` of records from `what` (named in the words), with
    /// `manifest` as a reader trusting `trusted` sees it.
    pub fn new(
        r: &VerifyReport,
        manifest: Option<&ManifestCheck>,
        trusted: &[PublicKey],
        what: &str,
        source: Source,
    ) -> ReportText {
        let mut t = ReportText::default();
        if r.ok() {
            t.lines.push(format!(
                "ok: {what}: {}, {}; every link, signature and role checks",
                count(r.games.len() as u64, "game"),
                count(r.distinct, "event")
            ));
        } else {
            t.failures = r.problems.iter().map(|p| format!("FAIL {p}")).collect();
        }
        let many = r.games.len() > PER_GAME_LINES;
        if many {
            t.lines.push(format!(
                "{} of {} reached a signed result and have no appeal pending; the others are listed",
                r.games.iter().filter(|g| g.finished()).count(),
                count(r.games.len() as u64, "game")
            ));
        }
        for g in r.games.iter().filter(|g| !many || !g.finished()) {
            t.lines.push(game_line(g));
        }
        if manifest.is_some() || source == Source::File {
            let matches = !r
                .problems
                .iter()
                .any(|p| p.what.starts_with("incomplete") || p.what.starts_with("the manifest"));
            t.lines.push(
                authority(manifest, trusted)
                    .sentence(manifest.map_or(0, |m| m.manifest.games.len()), matches),
            );
        }
        for d in &r.duplicates {
            t.lines.push(format!(
                "note: game {} seq {}: record {} appears {} times; counted once",
                short(&d.game),
                d.seq,
                short(&d.hash),
                d.copies
            ));
        }
        for (g, s, k) in &r.uninterpreted {
            t.lines.push(format!(
                "note: game {} seq {s}: event kind {k} is newer than this program; link, signature and signer checked",
                short(g)
            ));
        }
        t.lines.extend(r.warnings.iter().map(|w| w.to_string()));
        t
    }
}

/// Where one game's chain ends, in words.
fn game_line(g: &GameSummary) -> String {
    let end = if g.finished() {
        format!(
            "reached a signed result at seq {}",
            g.result_seq.unwrap_or_default()
        )
    } else if !g.pending_appeals.is_empty() {
        format!(
            "no final result: appeal(s) at seq {} not decided by a majority",
            g.pending_appeals
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        "no signed result yet".to_string()
    };
    format!(
        "game {}: chain ends at seq {} ({}); {end}",
        short(&g.game),
        g.head.seq,
        short(&g.head.hash)
    )
}

/// Why a verification fails, in one line naming `what` was verified and
/// its first problem; `None` when nothing failed.
pub fn failure_line(r: &VerifyReport, what: &str) -> Option<String> {
    (!r.ok()).then(|| {
        format!(
            "verification failed: {} problem(s) in {what}; first: {}",
            r.problems.len(),
            r.problems
                .first()
                .map(|p| p.to_string())
                .unwrap_or_default()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{sample_game, Cast};
    use crate::{verify_records, Body, Color, Point};

    fn read(v: serde_json::Value) -> Result<VerifyReport, String> {
        serde_json::from_value::<VerifyDocument>(v)
            .map_err(|e| e.to_string())?
            .into_report()
            .map_err(|e| e.to_string())
    }

    /// The document read back is the report it was written from (bar the
    /// decided appeals it does not state), a fork included.
    #[test]
    fn a_report_survives_its_json() {
        let cast = Cast::new();
        let game = sample_game(&cast, "round trip");
        let mut records = game.records.clone();
        let mut short = game.clone();
        short.records.truncate(2);
        short.head = Head {
            seq: 1,
            hash: short.records[1].hash(),
        };
        records.push(short.next(
            &cast.black,
            Body::StonePlaced {
                player: Color::Black,
                stone: Color::Black,
                point: Point { x: 3, y: 3 },
            },
        ));
        records.push(records[3].clone());
        let mut report = verify_records(&records);
        assert!(!report.forks.is_empty() && !report.duplicates.is_empty());
        let doc = serde_json::to_value(VerifyDocument::from(&report)).unwrap();
        let back = read(doc.clone()).unwrap();
        for g in &mut report.games {
            g.decided_appeals.clear();
        }
        assert_eq!(back, report);
        assert_eq!(
            serde_json::to_value(VerifyDocument::from(&back)).unwrap(),
            doc
        );
    }

    #[test]
    fn a_malformed_document_is_refused() {
        let e = read(serde_json::json!({"records": 1})).unwrap_err();
        assert!(e.contains("distinct"), "{e}");
        let e = read(serde_json::json!({
            "ok": false, "records": 0, "distinct": 0, "games": [], "problems": [],
            "warnings": [], "forks": [], "duplicates": [], "uninterpreted": []
        }))
        .unwrap_err();
        assert!(e.contains("'ok' is false"), "{e}");
        let e = read(serde_json::json!({
            "ok": true, "records": 0, "distinct": 0, "problems": [], "warnings": [],
            "forks": [], "duplicates": [], "uninterpreted": [],
            "games": [{"game": "zz", "events": 1, "head": "00", "head_seq": 0,
                       "head_at_ms": 0, "result_seq": null, "pending_appeals": []}]
        }))
        .unwrap_err();
        assert!(e.contains("'game' is not a 64-digit hex hash"), "{e}");
    }

    #[test]
    fn the_words_name_each_game_whom_completeness_rests_on_and_the_first_failure() {
        let cast = Cast::new();
        let game = sample_game(&cast, "words");
        let report = verify_records(&game.records);
        let t = ReportText::new(&report, None, &[], "store d", Source::Store);
        assert!(t.failures.is_empty());
        assert!(
            t.lines[0].starts_with("ok: store d: 1 game, "),
            "{:?}",
            t.lines
        );
        assert!(t.lines[1].starts_with(&format!(
            "game {}: chain ends at seq {}",
            short(&game.game),
            game.head.seq
        )));
        assert_eq!(t.lines.len(), 2, "a store has no manifest to speak of");
        let t = ReportText::new(&report, None, &[], "f.kifu", Source::File);
        assert_eq!(
            t.lines.last().unwrap(),
            "note: no manifest (a KIFUARC1 archive): completeness cannot be shown"
        );
        assert_eq!(failure_line(&report, "f.kifu"), None);
        let cut = verify_records(&game.records[1..]);
        let t = ReportText::new(&cut, None, &[], "f.kifu", Source::File);
        assert_eq!(t.failures.len(), cut.problems.len());
        assert!(t.failures.iter().all(|f| f.starts_with("FAIL ")));
        let line = failure_line(&cut, "f.kifu").unwrap();
        assert!(
            line.starts_with(&format!(
                "verification failed: {} problem(s) in f.kifu; first: ",
                cut.problems.len()
            )),
            "{line}"
        );
        let key = cast.director.public();
        assert_eq!(Authority::Trusted(key).word(), "trusted");
        assert!(Authority::Unauthenticated(key).sentence(2, true).contains("it states 2 heads and the archive matches it, but completeness rests on an unauthenticated key"));
        assert!(Authority::Unsigned
            .sentence(1, false)
            .contains("it states 1 head (export"));
    }

    #[test]
    fn the_lines_of_a_streamed_verification_read_back_as_written() {
        let p = VerifyLine::Progress(Progress {
            games_done: 1,
            games: 2,
            records_done: 30,
        });
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"progress": {"games_done": 1, "games": 2, "records_done": 30}})
        );
        assert_eq!(serde_json::from_value::<VerifyLine>(v).unwrap(), p);
        let e = VerifyLine::Error(Stopped {
            code: "storage".into(),
            message: "disk".into(),
        });
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["error"]["message"], "disk");
        let doc = VerifyDocument::from(&VerifyReport::default());
        let r = serde_json::to_value(VerifyLine::Report(doc.clone())).unwrap();
        assert_eq!(r["report"], serde_json::to_value(&doc).unwrap());
        assert!(serde_json::from_value::<VerifyLine>(serde_json::to_value(&doc).unwrap()).is_err());
    }

    #[test]
    fn an_archive_document_names_its_manifest_and_the_keys_trusted() {
        let cast = Cast::new();
        let game = sample_game(&cast, "doc");
        let bytes = crate::archive::write_with_manifest(
            &game.records,
            &[(game.game, game.head)],
            9,
            Some(&cast.director),
        )
        .unwrap();
        let v = crate::archive::verify_archive(&bytes).unwrap();
        let key = cast.director.public();
        let doc =
            serde_json::to_value(ArchiveDocument::new(v.report(), v.manifest(), &[key])).unwrap();
        assert_eq!(doc["ok"], true);
        assert_eq!(doc["manifest"]["completeness"], "trusted");
        assert_eq!(doc["manifest"]["trusted"], true);
        assert_eq!(doc["manifest"]["at_ms"], 9);
        assert_eq!(doc["trusted_keys"][0], key.to_hex());
        assert!(doc.get("tournament").is_none());
        let bare = serde_json::to_value(ArchiveDocument::new(v.report(), None, &[])).unwrap();
        assert!(bare["manifest"].is_null() && bare.get("trusted_keys").is_none());
        let back: ArchiveDocument = serde_json::from_value(doc).unwrap();
        assert_eq!(back.report, VerifyDocument::from(v.report()));
    }
}
