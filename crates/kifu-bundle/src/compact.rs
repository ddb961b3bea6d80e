//! The compact form of a map bundle, `kifu-bundle/3`
//! (`docs/TRANSPARENCY.md` section 7): the same bundle as
//! `kifu-bundle/2`, in about a third of the bytes, for a game that must
//! travel by mail or fit on a phone.
//!
//! A JSON bundle spends most of its bytes on its records, each in base64
//! and each repeating two hashes the reader can rebuild: the envelope's
//! `chain` (the game id) and `prev_hash` (the hash of the record before).
//! The compact form leaves both out, keeps every other byte the signer
//! signed, and compresses the whole with zlib (RFC 1950):
//!
//! ```text
//! "kifu-bundle/3\n"                           14 bytes of ASCII
//! zlib( u32 LE n || header (n bytes of JSON)
//!       || record_0 || record_1 || ... )      to the end of the file
//! record_i = u32 LE m || event_i' (m bytes) || signature_i (64 bytes)
//! ```
//!
//! The header is the `kifu-bundle/2` object with `"format":
//! "kifu-bundle/3"` and `"records": []`. `event_i'` is record `i`'s
//! `event_bytes` without the 32 bytes of `chain` and the 32 of `prev_hash`
//! (`docs/FORMAT.md` section 3: they follow the `version` and the `seq`
//! varints). A reader puts them back, zeros in record 0 (the genesis), the
//! game id and the hash of record `i - 1` after it, and has the
//! `kifu-bundle/2` bundle, which it checks as any other
//! ([`crate::check_bundle`]). Nothing is taken on trust by leaving the
//! hashes out: the signature of every record covers the bytes with them put
//! back, so a record moved, dropped or from another game fails its
//! signature or its seq.

use std::io::{Read, Write};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_ledger::{Hash, Record, ZERO_HASH};

use crate::{Bundle, BundleRecord, BUNDLE_FORMAT_MAP};

/// The compact form's format name, in its header.
pub const BUNDLE_FORMAT_COMPACT: &str = "kifu-bundle/3";

/// The first bytes of a compact bundle.
pub const MAGIC: &[u8; 14] = b"kifu-bundle/3\n";

/// The most bytes a compact bundle may unpack to (a bundle of a game of
/// 100,000 records and a large tournament's chain is some 40 MB).
pub const MAX_UNPACKED: u64 = 256 << 20;

/// Why a bundle cannot be written in, or read from, the compact form.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CompactError {
    /// Only a map bundle (`kifu-bundle/2`) has a compact form.
    #[error("only a {BUNDLE_FORMAT_MAP} bundle has a compact form, not {0}")]
    NotMap(String),
    /// The file does not start with [`MAGIC`].
    #[error("not a {BUNDLE_FORMAT_COMPACT} file")]
    Magic,
    /// The zlib stream does not unpack.
    #[error("the compressed part does not unpack: {0}")]
    Unpack(String),
    /// It unpacks to more than [`MAX_UNPACKED`] bytes.
    #[error("the compressed part unpacks to more than {MAX_UNPACKED} bytes")]
    TooLarge,
    /// The header is not the JSON of a bundle.
    #[error("header: {0}")]
    Header(String),
    /// The header names another format.
    #[error("the header names {0}, not {BUNDLE_FORMAT_COMPACT}")]
    HeaderFormat(String),
    /// The game id does not parse.
    #[error("the game id is not 64 hex digits")]
    GameId,
    /// A record is cut short or its envelope does not start as
    /// `docs/FORMAT.md` section 3 says.
    #[error("record {0}: {1}")]
    Record(usize, String),
    /// A record of the bundle does not link to the one before it, or names
    /// another game, so leaving the hashes out would change it.
    #[error("record {0} is not the game's next record: its chain or previous hash differs")]
    Link(usize),
}

/// Where the `chain` and `prev_hash` of an envelope sit: `version` (a
/// varint), `chain` (32), `seq` (a varint), `prev_hash` (32).
struct Layout {
    chain: usize,
    prev: usize,
}

fn layout(event_without_hashes: &[u8], with_hashes: bool) -> Result<Layout, String> {
    let rest = postcard::take_from_bytes::<u16>(event_without_hashes)
        .map_err(|e| format!("version: {e}"))?
        .1;
    let chain = event_without_hashes.len() - rest.len();
    let after_chain = if with_hashes {
        rest.get(32..).ok_or("cut short in its chain")?
    } else {
        rest
    };
    let rest2 = postcard::take_from_bytes::<u64>(after_chain)
        .map_err(|e| format!("seq: {e}"))?
        .1;
    let seq_len = after_chain.len() - rest2.len();
    let prev = chain + if with_hashes { 32 } else { 0 } + seq_len;
    if with_hashes && rest2.len() < 32 {
        return Err("cut short in its previous hash".into());
    }
    Ok(Layout { chain, prev })
}

/// Writes a `kifu-bundle/2` bundle in the compact form.
///
/// # Errors
///
/// [`CompactError::NotMap`] for a bundle of another form;
/// [`CompactError::Record`] or [`CompactError::Link`] when its records are
/// not one game's chain from its genesis.
pub fn encode(b: &Bundle) -> Result<Vec<u8>, CompactError> {
    if b.format != BUNDLE_FORMAT_MAP {
        return Err(CompactError::NotMap(b.format.clone()));
    }
    let game = game_id(&b.game)?;
    let mut header = b.clone();
    header.format = BUNDLE_FORMAT_COMPACT.into();
    header.records = Vec::new();
    let header = serde_json::to_vec(&header).map_err(|e| CompactError::Header(e.to_string()))?;
    let mut plain = Vec::with_capacity(header.len() + 128 * b.records.len());
    plain.extend_from_slice(&len32(header.len()));
    plain.extend_from_slice(&header);
    let mut prev: Option<Hash> = None;
    for (i, r) in b.records.iter().enumerate() {
        let rec = B64
            .decode(&r.record)
            .map_err(|e| CompactError::Record(i, e.to_string()))
            .and_then(|bytes| {
                Record::from_stored(&bytes).map_err(|e| CompactError::Record(i, e.to_string()))
            })?;
        let at = layout(&rec.event_bytes, true).map_err(|e| CompactError::Record(i, e))?;
        let e = &rec.event_bytes;
        let (chain, prev_hash) = expected(i, &game, prev);
        if e[at.chain..at.chain + 32] != chain || e[at.prev..at.prev + 32] != prev_hash {
            return Err(CompactError::Link(i));
        }
        let mut short = Vec::with_capacity(e.len() - 64);
        short.extend_from_slice(&e[..at.chain]);
        short.extend_from_slice(&e[at.chain + 32..at.prev]);
        short.extend_from_slice(&e[at.prev + 32..]);
        plain.extend_from_slice(&len32(short.len()));
        plain.extend_from_slice(&short);
        plain.extend_from_slice(&rec.signature);
        prev = Some(rec.hash());
    }
    let mut z = flate2::write::ZlibEncoder::new(MAGIC.to_vec(), flate2::Compression::best());
    z.write_all(&plain)
        .and_then(|()| z.finish())
        .map_err(|e| CompactError::Unpack(e.to_string()))
}

/// Reads a compact bundle: the `kifu-bundle/2` bundle it holds, to be
/// checked with [`crate::check_bundle`].
///
/// # Errors
///
/// [`CompactError`] for a file that is not a compact bundle or is cut
/// short; nothing here checks a signature or a proof.
pub fn decode(file: &[u8]) -> Result<Bundle, CompactError> {
    let packed = file
        .strip_prefix(MAGIC.as_slice())
        .ok_or(CompactError::Magic)?;
    let mut plain = Vec::new();
    flate2::read::ZlibDecoder::new(packed)
        .take(MAX_UNPACKED + 1)
        .read_to_end(&mut plain)
        .map_err(|e| CompactError::Unpack(e.to_string()))?;
    if plain.len() as u64 > MAX_UNPACKED {
        return Err(CompactError::TooLarge);
    }
    let (header, mut rest) =
        take_len32(&plain).ok_or_else(|| CompactError::Header("cut short".into()))?;
    let mut b: Bundle =
        serde_json::from_slice(header).map_err(|e| CompactError::Header(e.to_string()))?;
    if b.format != BUNDLE_FORMAT_COMPACT {
        return Err(CompactError::HeaderFormat(b.format));
    }
    let game = game_id(&b.game)?;
    let mut records = Vec::new();
    let mut prev: Option<Hash> = None;
    while !rest.is_empty() {
        let i = records.len();
        let (short, after) =
            take_len32(rest).ok_or_else(|| CompactError::Record(i, "cut short".into()))?;
        let signature: [u8; 64] = after
            .get(..64)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| CompactError::Record(i, "cut short in its signature".into()))?;
        rest = &after[64..];
        let at = layout(short, false).map_err(|e| CompactError::Record(i, e))?;
        let (chain, prev_hash) = expected(i, &game, prev);
        let mut event_bytes = Vec::with_capacity(short.len() + 64);
        event_bytes.extend_from_slice(&short[..at.chain]);
        event_bytes.extend_from_slice(&chain);
        event_bytes.extend_from_slice(&short[at.chain..at.prev]);
        event_bytes.extend_from_slice(&prev_hash);
        event_bytes.extend_from_slice(&short[at.prev..]);
        let rec = Record {
            event_bytes,
            signature,
        };
        let seq = rec
            .link()
            .map_err(|e| CompactError::Record(i, e.to_string()))?
            .seq;
        prev = Some(rec.hash());
        records.push(BundleRecord {
            seq,
            leaf_index: None,
            record: B64.encode(rec.to_stored()),
            inclusion: Vec::new(),
        });
    }
    b.format = BUNDLE_FORMAT_MAP.into();
    b.records = records;
    Ok(b)
}

/// True when `head` (a file's first bytes) starts a compact bundle.
pub fn is_compact(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// The chain and previous hash record `i` of the game has.
fn expected(i: usize, game: &Hash, prev: Option<Hash>) -> (Hash, Hash) {
    match prev {
        Some(p) if i > 0 => (*game, p),
        _ => (ZERO_HASH, ZERO_HASH),
    }
}

fn game_id(hex_id: &str) -> Result<Hash, CompactError> {
    hex::decode(hex_id)
        .ok()
        .and_then(|g| g.try_into().ok())
        .ok_or(CompactError::GameId)
}

fn len32(n: usize) -> [u8; 4] {
    u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes()
}

fn take_len32(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let n = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
    let end = 4usize.checked_add(n)?;
    Some((bytes.get(4..end)?, bytes.get(end..)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_the_magic_or_cut_short_is_refused_by_name() {
        assert_eq!(decode(b"{\"format\":1}").unwrap_err(), CompactError::Magic);
        let mut cut = MAGIC.to_vec();
        cut.extend_from_slice(&[0x78, 0xda, 0x01]);
        assert!(matches!(decode(&cut).unwrap_err(), CompactError::Unpack(_)));
        assert!(is_compact(b"kifu-bundle/3\nxyz"));
        assert!(!is_compact(b"{\"format\": \"kifu-bundle/3\"}"));
    }
}
