//! The log as a static C2SP tlog-tiles site (`docs/TRANSPARENCY.md`
//! section 5): every hash tile and entry bundle of a tree size, and the
//! signed checkpoint, each with the path it is served at. A full tile never
//! changes; a partial one and the checkpoint are replaced as the log grows.

use kifu_tlog::tiles::{entries_path, tile_path, tiles_for_size, TileRequest, TILE_WIDTH};

use crate::{Store, StoreError};

/// One file of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    /// Its path under the site's root (`checkpoint`, `tile/...`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// True for a full tile or entry bundle: a copy already written is the
    /// same and is kept.
    pub immutable: bool,
}

/// The site of the last kept checkpoint: its size, and its files (the
/// checkpoint last). `None` when no checkpoint was kept yet.
///
/// # Errors
///
/// The store cannot be read.
pub fn site(store: &Store) -> Result<Option<(u64, Vec<SiteFile>)>, StoreError> {
    let Some((size, text)) = store.latest_checkpoint()? else {
        return Ok(None);
    };
    let mut files = Vec::new();
    let mut add = |path: String, bytes: Vec<u8>| {
        let immutable = !path.contains(".p/");
        files.push(SiteFile {
            path,
            bytes,
            immutable,
        });
    };
    for (level, index, _) in tiles_for_size(size) {
        if let Some((w, bytes)) = store.tile(level, index, size)? {
            add(tile_path(level, index, w), bytes);
        }
        if level == 0 {
            if let Some((w, bytes)) = store.entry_bundle(index, size)? {
                add(entries_path(index, w), bytes);
            }
        }
    }
    files.push(SiteFile {
        path: "checkpoint".into(),
        bytes: text.into_bytes(),
        immutable: false,
    });
    Ok(Some((size, files)))
}

/// The bytes of a tile, or `None` when the tree does not have it yet.
pub fn read_tile(store: &Store, t: TileRequest) -> Result<Option<Vec<u8>>, StoreError> {
    let shift = 8 * u32::from(t.level.unwrap_or(0));
    // The smallest tree holding this tile at this width.
    let needed = t
        .index
        .checked_mul(TILE_WIDTH)
        .and_then(|s| s.checked_add(t.width))
        .and_then(|n| n.checked_shl(shift).filter(|v| v >> shift == n));
    let Some(needed) = needed else {
        return Ok(None);
    };
    if needed > store.tree_size()? {
        return Ok(None);
    }
    let got = match t.level {
        Some(l) => store.tile(l, t.index, needed)?,
        None => store.entry_bundle(t.index, needed)?,
    };
    Ok(got.filter(|(w, _)| *w == t.width).map(|(_, b)| b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};
    use kifu_tlog::note::NoteSigner;

    #[test]
    fn the_site_holds_every_tile_of_the_kept_checkpoint_and_the_checkpoint_last() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert!(site(&store).unwrap().is_none());
        let cast = Cast::new();
        for i in 0..30 {
            let g = sample_game(&cast, &format!("site {i}"));
            store.append_batch(g.records).unwrap();
        }
        let signer = NoteSigner::new("site.example/log", [9; 32]).unwrap();
        let signed = crate::operator::sign_checkpoint(&store, &signer).unwrap();
        let (size, files) = site(&store).unwrap().unwrap();
        assert_eq!(size, signed.checkpoint.size);
        assert!(size > 256, "a full tile and a partial one: {size}");
        let last = files.last().unwrap();
        assert_eq!((last.path.as_str(), last.immutable), ("checkpoint", false));
        assert_eq!(last.bytes, signed.text.as_bytes());
        // Every tile the size needs, each with the bytes the store serves.
        for (level, index, width) in tiles_for_size(size) {
            let path = tile_path(level, index, width);
            let f = files.iter().find(|f| f.path == path).unwrap();
            assert_eq!(f.immutable, width == 256, "{path}");
            assert_eq!(
                Some((width, f.bytes.clone())),
                store.tile(level, index, size).unwrap()
            );
        }
        assert!(files.iter().any(|f| f.path.starts_with("tile/entries/")));
    }

    #[test]
    fn tiles_exist_only_once_the_tree_holds_them() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let c = sample_game(&Cast::new(), "game 0");
        store.append_batch(c.records.clone()).unwrap();
        let size = store.tree_size().unwrap();
        let t = |level, index, width| TileRequest {
            level,
            index,
            width,
        };
        let tile = read_tile(&store, t(Some(0), 0, size)).unwrap().unwrap();
        assert_eq!(tile.len() as u64, 32 * size);
        // A narrower partial tile is a prefix of the wider one.
        let narrow = read_tile(&store, t(Some(0), 0, 2)).unwrap().unwrap();
        assert_eq!(&tile[..64], &narrow[..]);
        assert!(read_tile(&store, t(Some(0), 0, size + 1))
            .unwrap()
            .is_none());
        assert!(read_tile(&store, t(Some(0), 0, 256)).unwrap().is_none());
        assert!(read_tile(&store, t(Some(7), u64::MAX, 256))
            .unwrap()
            .is_none());
        let entries = read_tile(&store, t(None, 0, size)).unwrap().unwrap();
        assert_eq!(entries.len() as u64, 74 * size);
    }
}
