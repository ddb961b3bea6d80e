//! Appeal bundles and map proofs made from a store (`docs/TRANSPARENCY.md`
//! sections 7 and 10): what `kifu bundle` writes and what the server
//! answers at `GET /games/{id}/bundle` and `GET /proof/map`, from one code
//! path. The format and its verifier are `kifu_bundle`'s.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_bundle::{Bundle, BundleHead, BundleRecord, BundleTail};
use kifu_ledger::Hash;
use kifu_tlog::checkpoint::Checkpoint;
use serde_json::{json, Value};

use kifu_bundle::RotationProof;

use kifu_store::operator::{check_root, first_log_key, last_checkpoint, rotation_proof, LogError};
use kifu_store::Store;

/// How a bundle proves that it ends at the game's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `kifu-bundle/2`: the head's map proof (the checkpoint must name a map root).
    Map,
    /// `kifu-bundle/1`: the log's tail after the game's last event.
    Tail,
}

impl Form {
    /// The form a checkpoint allows by default: the map when it names a
    /// map root, else the tail.
    pub fn for_checkpoint(cp: &Checkpoint) -> Form {
        match kifu_tlog::map::root_in(&cp.extensions) {
            Ok(Some(_)) => Form::Map,
            _ => Form::Tail,
        }
    }
}

fn b64s(hashes: &[Hash]) -> Vec<String> {
    hashes.iter().map(|h| B64.encode(h)).collect()
}

/// What a bundle is made of besides the store's records and proofs.
#[derive(Debug, Clone)]
pub struct BundleParts {
    /// The signed (co-signed) checkpoint note.
    pub text: String,
    /// Its tree head (its root already checked against the store).
    pub checkpoint: Checkpoint,
    /// The log key the rotations start from.
    pub log_key: String,
    /// The rotations from `log_key` to the checkpoint's signer.
    pub rotations: Vec<RotationProof>,
    /// Witness keys whose cosignatures the checkpoint carries.
    pub witness_keys: Vec<String>,
    /// A tournament chain's checkpoint of the game (`kifu_bundle::TournamentPart`).
    pub tournament: Option<Value>,
    /// Map or tail.
    pub form: Form,
}

/// A bundle of `game` at the checkpoint in `parts`. Refuses when an event
/// of the game was logged after the checkpoint.
pub fn build(store: &Store, game: &Hash, parts: BundleParts) -> Result<Bundle, LogError> {
    let cp = &parts.checkpoint;
    let records = store.read(game, 0, None)?;
    let mut out = Vec::with_capacity(records.len());
    let mut last_index = 0;
    for r in &records {
        let seq = r.header()?.seq;
        let index = store
            .leaf_index(game, seq)?
            .ok_or_else(|| LogError::Checkpoint(format!("event {seq} has no leaf in the log")))?;
        if index >= cp.size {
            return Err(LogError::AfterSize {
                seq,
                index,
                size: cp.size,
            });
        }
        last_index = index;
        let (leaf_index, inclusion) = match parts.form {
            Form::Tail => (Some(index), b64s(&store.inclusion_proof(index, cp.size)?)),
            Form::Map => (None, Vec::new()),
        };
        out.push(BundleRecord {
            seq,
            leaf_index,
            record: B64.encode(r.to_stored()),
            inclusion,
        });
    }
    if out.is_empty() {
        return Err(LogError::NoEvent {
            game: hex::encode(&game[..6]),
            seq: 0,
        });
    }
    let (format, tail, head) = match parts.form {
        Form::Tail => (
            kifu_bundle::BUNDLE_FORMAT,
            Some(BundleTail {
                start: last_index,
                leaves: store
                    .leaves(last_index, cp.size)?
                    .iter()
                    .map(|l| hex::encode(l.to_bytes()))
                    .collect(),
                proof: b64s(&store.range_proof(last_index, cp.size)?),
            }),
            None,
        ),
        Form::Map => {
            let named = kifu_tlog::map::root_in(&cp.extensions)
                .map_err(|e| LogError::Checkpoint(e.to_string()))?
                .ok_or_else(|| {
                    LogError::Checkpoint(
                        "the checkpoint names no map root: sign a newer one, or bundle with the log's tail".into(),
                    )
                })?;
            let (root, proof) = store.map_proof(game, cp.size)?;
            if root != named {
                return Err(LogError::Checkpoint(format!(
                    "the checkpoint's map root is not the map of this store's log at size {}",
                    cp.size
                )));
            }
            (
                kifu_bundle::BUNDLE_FORMAT_MAP,
                None,
                Some(BundleHead {
                    leaf_index: last_index,
                    inclusion: b64s(&store.inclusion_proof(last_index, cp.size)?),
                    map: proof.to_json(),
                }),
            )
        }
    };
    Ok(Bundle {
        format: format.into(),
        game: hex::encode(game),
        log_key: parts.log_key,
        witness_keys: parts.witness_keys,
        checkpoint: parts.text,
        records: out,
        tail,
        head,
        tournament_checkpoint: parts.tournament,
        log_key_rotations: parts.rotations,
    })
}

/// The bundle of `game` at the store's latest checkpoint, in the form it
/// allows, without witness keys or tournament part (what the server serves).
pub fn latest_bundle(store: &Store, game: &Hash) -> Result<Bundle, LogError> {
    let last = last_checkpoint(store)?.ok_or(LogError::NoCheckpoint)?;
    let cp = last.checkpoint;
    check_root(store, &cp)?;
    let (first, rotations) = rotation_proof(store, &cp)?;
    let log_key = first_log_key(store, first)?;
    let form = Form::for_checkpoint(&cp);
    build(
        store,
        game,
        BundleParts {
            text: last.text,
            checkpoint: cp,
            log_key,
            rotations,
            witness_keys: Vec::new(),
            tournament: None,
            form,
        },
    )
}

/// The JSON document of a map proof: `game`, `tree_size`, `map_root`, and
/// the proof's `leaf` and `siblings`.
pub fn map_proof_json(store: &Store, game: &Hash, size: u64) -> Result<Value, LogError> {
    let (root, proof) = store.map_proof(game, size)?;
    let mut v = proof.to_json();
    v["game"] = json!(hex::encode(game));
    v["tree_size"] = json!(size);
    v["map_root"] = json!(B64.encode(root));
    Ok(v)
}

/// What a bundle is asked for with, beside the game (`kifu bundle`).
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The signed (co-signed) checkpoint note to prove against; `None`: the
    /// last one kept.
    pub checkpoint: Option<String>,
    /// Verifier keys of witnesses whose cosignatures the note must carry.
    pub witness_keys: Vec<String>,
    /// Prove the head with the log's tail (`kifu-bundle/1`) even when the
    /// checkpoint names a map root.
    pub tail: bool,
    /// The tournament chain's checkpoint of the game
    /// (`kifu_bundle::TournamentPart`), found by the caller.
    pub tournament: Option<Value>,
}

/// Why a bundle cannot be made as asked.
#[derive(Debug, thiserror::Error)]
pub enum MakeError {
    /// The store or its log cannot answer.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The checkpoint does not open under the log's first key and its
    /// rotations.
    #[error(transparent)]
    Open(#[from] kifu_bundle::rotation::OpenError),
    /// A key given is not a verifier key.
    #[error(transparent)]
    Key(kifu_tlog::note::NoteError),
    /// The checkpoint lacks a witness's valid cosignature.
    #[error("witness {name}: {error}")]
    Witness {
        /// The witness's name.
        name: String,
        /// What the check said.
        error: kifu_tlog::note::NoteError,
    },
    /// The game has no event.
    #[error("the game has no events")]
    Empty,
}

impl MakeError {
    /// True when a check failed (the checkpoint, its root, a witness), as
    /// opposed to something missing or unreadable.
    pub fn is_check(&self) -> bool {
        matches!(
            self,
            MakeError::Open(_)
                | MakeError::Witness { .. }
                | MakeError::Log(LogError::ForeignCheckpoint)
        )
    }
}

/// The appeal bundle of `game` as `kifu bundle` writes it: the checkpoint
/// asked for (or the last kept) opened under the log's first key by the
/// rotations this store proves, its root checked against this store's
/// tree, every witness key's cosignature checked, in the form the
/// checkpoint allows (the map of game heads when it names a root, unless
/// the tail is asked for).
///
/// # Errors
///
/// [`MakeError`]; [`MakeError::is_check`] tells a failed check.
pub fn make(store: &Store, game: &Hash, req: Request) -> Result<Bundle, MakeError> {
    let text = match req.checkpoint {
        Some(t) => t,
        None => {
            store
                .latest_checkpoint()
                .map_err(LogError::from)?
                .ok_or(LogError::NoCheckpoint)?
                .1
        }
    };
    let note =
        kifu_tlog::note::Note::parse(&text).map_err(kifu_bundle::rotation::OpenError::from)?;
    let parsed = Checkpoint::parse(&note.text).map_err(kifu_bundle::rotation::OpenError::from)?;
    let (first, rotations) = rotation_proof(store, &parsed)?;
    let log_key = first_log_key(store, first)?;
    let log = kifu_tlog::note::NoteVerifier::parse(&log_key).map_err(MakeError::Key)?;
    let (note, cp, _, _) = kifu_bundle::rotation::open_with(&text, &log, &rotations)?;
    check_root(store, &cp)?;
    let mut witness_keys = Vec::new();
    for w in &req.witness_keys {
        let v = kifu_tlog::note::NoteVerifier::parse(w).map_err(MakeError::Key)?;
        note.verify(std::slice::from_ref(&v))
            .map_err(|error| MakeError::Witness {
                name: v.name.clone(),
                error,
            })?;
        witness_keys.push(v.to_vkey());
    }
    let form = if req.tail {
        Form::Tail
    } else {
        Form::for_checkpoint(&cp)
    };
    if store.head(game).map_err(LogError::from)?.is_none() {
        return Err(MakeError::Empty);
    }
    Ok(build(
        store,
        game,
        BundleParts {
            text,
            checkpoint: cp,
            log_key,
            rotations,
            witness_keys,
            tournament: req.tournament,
            form,
        },
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_store::operator::sign_checkpoint;
    use kifu_tlog::note::NoteSigner;

    /// A store holding the sample game, its cast, the game, and the log's
    /// signer; `checkpoint`: with a checkpoint signed.
    fn sample_store(
        checkpoint: bool,
    ) -> (
        tempfile::TempDir,
        Store,
        kifu_ledger::testkit::Cast,
        kifu_ledger::testkit::ChainBuilder,
        NoteSigner,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let cast = kifu_ledger::testkit::Cast::new();
        let c = kifu_ledger::testkit::sample_game(&cast, "game");
        store.append_batch(c.records.clone()).unwrap();
        let signer = NoteSigner::new("kifu.example/unit", [1; 32]).unwrap();
        if checkpoint {
            sign_checkpoint(&store, &signer).unwrap();
        }
        (dir, store, cast, c, signer)
    }

    #[test]
    fn a_bundle_made_from_the_store_verifies_and_each_failed_check_is_told_apart() {
        let (_dir, store, cast, c, signer) = sample_store(false);
        let e = make(&store, &c.game, Request::default()).unwrap_err();
        assert!(matches!(e, MakeError::Log(LogError::NoCheckpoint)) && !e.is_check());
        sign_checkpoint(&store, &signer).unwrap();
        let b = make(&store, &c.game, Request::default()).unwrap();
        assert_eq!(b.format, kifu_bundle::BUNDLE_FORMAT_MAP);
        let report = kifu_bundle::check_bundle(&b).unwrap();
        assert_eq!(report.events, c.records.len());
        let tail = make(
            &store,
            &c.game,
            Request {
                tail: true,
                ..Request::default()
            },
        )
        .unwrap();
        assert_eq!(tail.format, kifu_bundle::BUNDLE_FORMAT);
        kifu_bundle::check_bundle(&tail).unwrap();
        // A witness whose cosignature the checkpoint lacks.
        let witness = NoteSigner::new("witness.example", [2; 32]).unwrap();
        let e = make(
            &store,
            &c.game,
            Request {
                witness_keys: vec![witness.verifier().to_vkey()],
                ..Request::default()
            },
        )
        .unwrap_err();
        assert!(
            matches!(e, MakeError::Witness { .. }) && e.is_check(),
            "{e}"
        );
        // A checkpoint of another store's tree.
        let other_dir = tempfile::tempdir().unwrap();
        let other = Store::open(other_dir.path()).unwrap();
        other
            .append_batch(kifu_ledger::testkit::sample_game(&cast, "other").records)
            .unwrap();
        let foreign = sign_checkpoint(&other, &signer).unwrap();
        let e = make(
            &store,
            &c.game,
            Request {
                checkpoint: Some(foreign.text),
                ..Request::default()
            },
        )
        .unwrap_err();
        assert!(e.is_check(), "{e}");
    }

    #[test]
    fn the_compact_form_reads_back_as_the_same_bundle_and_a_changed_byte_fails() {
        use kifu_bundle::compact::{decode, encode, CompactError};
        let (_dir, store, _cast, c, _signer) = sample_store(true);
        let b = make(&store, &c.game, Request::default()).unwrap();
        let json = serde_json::to_vec_pretty(&b).unwrap();
        let small = encode(&b).unwrap();
        assert!(
            small.len() * 2 < json.len(),
            "{} vs {}",
            small.len(),
            json.len()
        );
        let back = decode(&small).unwrap();
        assert_eq!(
            serde_json::to_value(&back).unwrap(),
            serde_json::to_value(&b).unwrap()
        );
        assert_eq!(
            kifu_bundle::check_bundle(&back).unwrap().events,
            c.records.len()
        );

        // A record's last byte changed inside the compressed part: the
        // bundle reads, and its check names the record.
        let mut plain = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::ZlibDecoder::new(&small[kifu_bundle::compact::MAGIC.len()..]),
            &mut plain,
        )
        .unwrap();
        let repack = |plain: &[u8]| {
            let mut z = flate2::write::ZlibEncoder::new(
                kifu_bundle::compact::MAGIC.to_vec(),
                flate2::Compression::fast(),
            );
            std::io::Write::write_all(&mut z, plain).unwrap();
            z.finish().unwrap()
        };
        let mut bad = plain.clone();
        let n = bad.len();
        bad[n - 1] ^= 1;
        let e = kifu_bundle::check_bundle(&decode(&repack(&bad)).unwrap()).unwrap_err();
        assert!(e.to_string().contains("record"), "{e}");
        // The last record dropped: the head is no longer the map's.
        let last = b.records.len() - 1;
        let mut short = b.clone();
        short.records.truncate(last);
        let cut = decode(&encode(&short).unwrap()).unwrap();
        assert!(kifu_bundle::check_bundle(&cut).is_err());
        // A record taken out of the middle cannot be written compactly: the
        // next one does not link to the one before it.
        let mut gap = b.clone();
        gap.records.remove(1);
        assert_eq!(encode(&gap).unwrap_err(), CompactError::Link(1));
        // A tail bundle has no compact form.
        let tail = make(
            &store,
            &c.game,
            Request {
                tail: true,
                ..Request::default()
            },
        )
        .unwrap();
        assert!(matches!(
            encode(&tail).unwrap_err(),
            CompactError::NotMap(_)
        ));
    }
}
