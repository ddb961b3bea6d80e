//! C2SP `tlog-tiles`: tile and entry-bundle paths and contents.
//!
//! A tile at level `L`, index `N` holds up to 256 consecutive hashes of
//! stored level `8 * L`: the roots of the complete subtrees of `256^L` leaves
//! numbered `N * 256 ..`. A full tile is 8,192 bytes; the rightmost tile of a
//! level may be partial (`.p/<W>`). Entry bundles hold the leaf data, each
//! entry prefixed by its length as a big-endian `u16`.

use crate::hash::Hash;
use crate::tree::{HashReader, TreeError};

/// Hashes per full tile (tile height 8).
pub const TILE_WIDTH: u64 = 256;

/// A tile index as path elements: `1234067` is `x001/x234/067`.
pub fn index_path(n: u64) -> String {
    let digits = n.to_string();
    let pad = (3 - digits.len() % 3) % 3;
    let digits = format!("{}{digits}", "0".repeat(pad));
    let groups: Vec<&str> = digits
        .as_bytes()
        .chunks(3)
        .map(|c| std::str::from_utf8(c).unwrap_or("000"))
        .collect();
    let last = groups.len() - 1;
    groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            if i < last {
                format!("x{g}")
            } else {
                g.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn suffix(width: u64) -> String {
    if width == TILE_WIDTH {
        String::new()
    } else {
        format!(".p/{width}")
    }
}

/// `tile/<L>/<N>[.p/<W>]`.
pub fn tile_path(level: u8, index: u64, width: u64) -> String {
    format!("tile/{level}/{}{}", index_path(index), suffix(width))
}

/// `tile/entries/<N>[.p/<W>]`.
pub fn entries_path(index: u64, width: u64) -> String {
    format!("tile/entries/{}{}", index_path(index), suffix(width))
}

/// The width of tile `index` at `level` in a tree of `size` leaves: 256 when
/// full, 1 to 255 when partial, 0 when it does not exist.
pub fn tile_width(level: u8, index: u64, size: u64) -> u64 {
    let shift = 8 * level as u32;
    if shift >= 64 {
        return 0;
    }
    let hashes = size >> shift; // complete subtrees of 256^level leaves
    let start = index.saturating_mul(TILE_WIDTH);
    if start >= hashes {
        0
    } else {
        (hashes - start).min(TILE_WIDTH)
    }
}

/// Every tile path (and its width) of a tree of `size` leaves, level by level.
pub fn tiles_for_size(size: u64) -> Vec<(u8, u64, u64)> {
    let mut out = Vec::new();
    for level in 0u8..8 {
        let shift = 8 * level as u32;
        let hashes = size >> shift;
        if hashes == 0 {
            break;
        }
        for index in 0..hashes.div_ceil(TILE_WIDTH) {
            out.push((level, index, tile_width(level, index, size)));
        }
    }
    out
}

/// A tile's width (1 to 256 hashes) and its bytes.
pub type Tile = (u64, Vec<u8>);

/// The bytes of tile `(level, index)` in a tree of `size` leaves, with its
/// width; `None` when the tile does not exist at that size.
pub fn tile<R: HashReader>(
    r: &R,
    level: u8,
    index: u64,
    size: u64,
) -> Result<Option<Tile>, TreeError<R::Error>> {
    let width = tile_width(level, index, size);
    if width == 0 {
        return Ok(None);
    }
    let stored_level = 8 * level;
    let mut out = Vec::with_capacity(width as usize * 32);
    for i in 0..width {
        let at = index * TILE_WIDTH + i;
        let h: Hash =
            r.get(stored_level, at)
                .map_err(TreeError::Store)?
                .ok_or(TreeError::Missing {
                    level: stored_level,
                    index: at,
                })?;
        out.extend_from_slice(&h);
    }
    Ok(Some((width, out)))
}

/// An entry bundle: each entry as a big-endian `u16` length and its bytes.
/// `None` when an entry is longer than 65,535 bytes.
pub fn entry_bundle<'a>(entries: impl IntoIterator<Item = &'a [u8]>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for e in entries {
        let len = u16::try_from(e.len()).ok()?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(e);
    }
    Some(out)
}

/// Splits an entry bundle into its entries.
pub fn parse_entry_bundle(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        if rest.len() < 2 {
            return None;
        }
        let len = u16::from_be_bytes([rest[0], rest[1]]) as usize;
        let (e, r) = rest[2..].split_at_checked(len)?;
        out.push(e);
        rest = r;
    }
    Some(out)
}

/// A tile asked for by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileRequest {
    /// `None` for an entry bundle, else the tile level.
    pub level: Option<u8>,
    /// Tile index.
    pub index: u64,
    /// Width: 256 for a full tile, 1 to 255 for a partial one.
    pub width: u64,
}

/// Parses `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]` (the part after
/// `tile/`), accepting only the canonical spelling C2SP tlog-tiles gives.
pub fn parse_tile_path(path: &str) -> Option<TileRequest> {
    let (first, rest) = path.split_once('/')?;
    let level = if first == "entries" {
        None
    } else {
        let l: u8 = first.parse().ok()?;
        // Level 7 holds hashes of 2^56 leaves; no higher level fits u64 sizes.
        if l > 7 || l.to_string() != first {
            return None;
        }
        Some(l)
    };
    let (index_part, width) = match rest.split_once(".p/") {
        Some((i, w)) => {
            let w: u64 = w.parse().ok()?;
            if !(1..TILE_WIDTH).contains(&w) {
                return None;
            }
            (i, w)
        }
        None => (rest, TILE_WIDTH),
    };
    let digits: String = index_part
        .split('/')
        .map(|g| g.strip_prefix('x').unwrap_or(g))
        .collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let index: u64 = digits.parse().ok()?;
    let canonical = index_path(index);
    if canonical != index_part {
        return None;
    }
    let expected = match level {
        Some(l) => tile_path(l, index, width),
        None => entries_path(index, width),
    };
    (expected == format!("tile/{path}")).then_some(TileRequest {
        level,
        index,
        width,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_spec_examples() {
        assert_eq!(index_path(1234067), "x001/x234/067");
        assert_eq!(index_path(0), "000");
        assert_eq!(index_path(999), "999");
        assert_eq!(index_path(1000), "x001/000");
        assert_eq!(tile_path(0, 1234067, 256), "tile/0/x001/x234/067");
        assert_eq!(tile_path(1, 3, 17), "tile/1/003.p/17");
        assert_eq!(entries_path(0, 5), "tile/entries/000.p/5");
    }

    #[test]
    fn a_tree_of_70000_has_the_tiles_the_spec_lists() {
        // C2SP tlog-tiles: 273 full level-0 tiles, a partial one of width
        // 112, one full level-1 tile, a partial one of 17, a level-2 tile of 1.
        let t = tiles_for_size(70_000);
        let l0: Vec<_> = t.iter().filter(|x| x.0 == 0).collect();
        assert_eq!(l0.len(), 274);
        assert_eq!(l0.iter().filter(|x| x.2 == 256).count(), 273);
        assert_eq!(l0.last().map(|x| x.2), Some(112));
        let l1: Vec<_> = t.iter().filter(|x| x.0 == 1).map(|x| x.2).collect();
        assert_eq!(l1, vec![256, 17]);
        let l2: Vec<_> = t.iter().filter(|x| x.0 == 2).map(|x| x.2).collect();
        assert_eq!(l2, vec![1]);
        assert_eq!(t.len(), 277);
        let t256 = tiles_for_size(256);
        assert_eq!(t256, vec![(0, 0, 256), (1, 0, 1)]);
    }

    #[test]
    fn entry_bundles_round_trip() {
        let b = entry_bundle([&b"ab"[..], &b""[..], &[7u8; 300][..]]).unwrap();
        assert_eq!(&b[..4], &[0, 2, b'a', b'b']);
        let e = parse_entry_bundle(&b).unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(e[2].len(), 300);
        assert!(parse_entry_bundle(&[0, 5, 1]).is_none());
        assert!(entry_bundle([&vec![0u8; 70_000][..]]).is_none());
    }

    #[test]
    fn tile_paths_parse_only_in_their_canonical_form() {
        let t = |p| parse_tile_path(p);
        assert_eq!(
            t("0/x001/x234/067"),
            Some(TileRequest {
                level: Some(0),
                index: 1234067,
                width: 256
            })
        );
        assert_eq!(
            t("entries/000.p/17"),
            Some(TileRequest {
                level: None,
                index: 0,
                width: 17
            })
        );
        assert_eq!(t("2/001.p/255").map(|r| r.width), Some(255));
        for bad in [
            "0/1",
            "0/0001",
            "0/x000/001",
            "00/000",
            "8/000",
            "0/000.p/0",
            "0/000.p/256",
            "0/000.p/07",
            "0/000.p/",
            "entries/abc",
            "0/-01",
            "0/x1000/000",
            "0",
        ] {
            assert_eq!(t(bad), None, "{bad}");
        }
    }
}
