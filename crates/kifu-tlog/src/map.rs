//! The map of game heads committed with each checkpoint
//! (`docs/TRANSPARENCY.md` section 10).
//!
//! For a log of `n` leaves, the map holds one entry per game that has a
//! leaf among them: the game's **last** leaf (its head seq and record hash)
//! and that leaf's index. It is a sparse Merkle tree of depth 256 keyed by
//! the game id's bits (most significant bit of byte 0 first), in which an
//! empty subtree is [`EMPTY`] (32 zero bytes) and a subtree holding exactly
//! one entry is that entry's leaf hash, wherever it stands; only a subtree
//! of two or more entries is an interior node. The tree is therefore as deep
//! as the entries' longest common prefixes, about `log2(games)`: a proof is
//! that many hashes, an update writes that many nodes.
//!
//! ```text
//! map leaf  = game id (32) || head seq (u64 BE) || head record hash (32) || leaf index (u64 BE)
//! leaf hash = SHA-256(0x02 || map leaf)
//! node hash = SHA-256(0x03 || left || right)
//! ```
//!
//! The first 72 bytes of a map leaf are the head's log leaf (section 1).
//! Nodes are kept by their hash ([`NodeReader`] / [`NodeWriter`]): they never
//! change, so the maps of every checkpoint share what they have in common,
//! and the nodes of an older root stay readable.

use std::collections::HashMap;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::hash::Hash;
use crate::leaf::Leaf;
use crate::proof::parse_b64_hash;

/// The hash of an empty subtree, and the root of the empty map.
pub const EMPTY: Hash = [0u8; 32];
/// Byte before a map leaf.
pub const LEAF_PREFIX: u8 = 0x02;
/// Byte before two child hashes.
pub const NODE_PREFIX: u8 = 0x03;
/// Bytes of a map leaf.
pub const MAP_LEAF_LEN: usize = 80;
/// The checkpoint extension line carrying the map root: this prefix, then
/// the root in standard base64.
pub const MAP_LINE_PREFIX: &str = "kifu-map/1 ";
/// Depth of the tree: one level per bit of a game id.
pub const DEPTH: usize = 256;

/// One entry of the map: a game's head and the leaf that logged it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapLeaf {
    /// The head's log leaf (game id, head seq, head record hash).
    pub head: Leaf,
    /// The head's leaf index in the log.
    pub leaf_index: u64,
}

impl MapLeaf {
    /// The game id (the entry's key).
    pub fn game(&self) -> &Hash {
        &self.head.game
    }

    /// The 80 bytes hashed into the map.
    pub fn to_bytes(&self) -> [u8; MAP_LEAF_LEN] {
        let mut b = [0u8; MAP_LEAF_LEN];
        b[..72].copy_from_slice(&self.head.to_bytes());
        b[72..].copy_from_slice(&self.leaf_index.to_be_bytes());
        b
    }

    /// Parses the 80 bytes.
    pub fn from_bytes(b: &[u8]) -> Option<MapLeaf> {
        if b.len() != MAP_LEAF_LEN {
            return None;
        }
        let head = Leaf::from_bytes(&b[..72])?;
        let leaf_index = u64::from_be_bytes(b[72..].try_into().ok()?);
        Some(MapLeaf { head, leaf_index })
    }

    /// `SHA-256(0x02 || map leaf)`.
    pub fn hash(&self) -> Hash {
        let mut h = Sha256::new();
        h.update([LEAF_PREFIX]);
        h.update(self.to_bytes());
        h.finalize().into()
    }
}

/// `SHA-256(0x03 || left || right)`.
pub fn map_node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update([NODE_PREFIX]);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// Bit `depth` of a key, most significant bit of byte 0 first.
pub fn bit(key: &Hash, depth: usize) -> bool {
    key[depth / 8] >> (7 - depth % 8) & 1 == 1
}

/// A stored node: an entry, or an interior node's two children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// A subtree holding one entry.
    Leaf(MapLeaf),
    /// A subtree of two or more entries: its children's hashes.
    Inner(Hash, Hash),
}

impl Node {
    /// Its hash.
    pub fn hash(&self) -> Hash {
        match self {
            Node::Leaf(l) => l.hash(),
            Node::Inner(a, b) => map_node_hash(a, b),
        }
    }

    /// Stored form: `0x02 || map leaf` or `0x03 || left || right`.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Node::Leaf(l) => {
                let mut v = vec![LEAF_PREFIX];
                v.extend_from_slice(&l.to_bytes());
                v
            }
            Node::Inner(a, b) => {
                let mut v = vec![NODE_PREFIX];
                v.extend_from_slice(a);
                v.extend_from_slice(b);
                v
            }
        }
    }

    /// Parses the stored form.
    pub fn from_bytes(b: &[u8]) -> Option<Node> {
        match b.split_first()? {
            (&LEAF_PREFIX, rest) => MapLeaf::from_bytes(rest).map(Node::Leaf),
            (&NODE_PREFIX, rest) if rest.len() == 64 => Some(Node::Inner(
                rest[..32].try_into().ok()?,
                rest[32..].try_into().ok()?,
            )),
            _ => None,
        }
    }
}

/// Reads nodes by their hash.
pub trait NodeReader {
    /// The storage's own error.
    type Error: std::fmt::Display;
    /// The node whose hash is `hash`, if stored.
    fn node(&self, hash: &Hash) -> Result<Option<Node>, Self::Error>;
}

/// Stores nodes by their hash.
pub trait NodeWriter: NodeReader {
    /// Stores `node` (whose hash is `hash`).
    fn put_node(&mut self, hash: Hash, node: Node) -> Result<(), Self::Error>;
}

/// What can go wrong reading or updating a stored map.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MapError<E> {
    /// The storage failed.
    #[error("map storage: {0}")]
    Store(E),
    /// A node the root leads to is not stored.
    #[error("map storage is missing node {0}")]
    Missing(String),
    /// The updates are not sorted by game id, or name a game twice.
    #[error("map updates must be sorted by game id, each game once")]
    Unsorted,
}

fn read<R: NodeReader>(r: &R, h: &Hash) -> Result<Node, MapError<R::Error>> {
    r.node(h)
        .map_err(MapError::Store)?
        .ok_or_else(|| MapError::Missing(B64.encode(h)))
}

fn put<W: NodeWriter>(w: &mut W, node: Node) -> Result<Hash, MapError<W::Error>> {
    let h = node.hash();
    w.put_node(h, node).map_err(MapError::Store)?;
    Ok(h)
}

/// The subtree at `depth` holding exactly `leaves` (sorted, distinct, all
/// sharing the first `depth` bits).
fn build<W: NodeWriter>(
    w: &mut W,
    depth: usize,
    leaves: &[MapLeaf],
) -> Result<Hash, MapError<W::Error>> {
    match leaves {
        [] => Ok(EMPTY),
        [one] => put(w, Node::Leaf(*one)),
        _ => {
            let split = leaves.partition_point(|l| !bit(l.game(), depth));
            let left = build(w, depth + 1, &leaves[..split])?;
            let right = build(w, depth + 1, &leaves[split..])?;
            put(w, Node::Inner(left, right))
        }
    }
}

fn update_at<W: NodeWriter>(
    w: &mut W,
    node: Hash,
    depth: usize,
    updates: &[MapLeaf],
) -> Result<Hash, MapError<W::Error>> {
    if updates.is_empty() {
        return Ok(node);
    }
    if node == EMPTY {
        return build(w, depth, updates);
    }
    match read(w, &node)? {
        Node::Leaf(old) => {
            // The old entry joins the updates unless one replaces it.
            let mut all = updates.to_vec();
            if let Err(at) = all.binary_search_by(|l| l.game().cmp(old.game())) {
                all.insert(at, old);
            }
            build(w, depth, &all)
        }
        Node::Inner(left, right) => {
            let split = updates.partition_point(|l| !bit(l.game(), depth));
            let left = update_at(w, left, depth + 1, &updates[..split])?;
            let right = update_at(w, right, depth + 1, &updates[split..])?;
            put(w, Node::Inner(left, right))
        }
    }
}

/// Sets the entries `updates` (sorted by game id, each game once) in the
/// map of root `root`, writing the new nodes, and returns the new root.
/// Entries are only set, never removed: a game, once logged, keeps a head.
pub fn update<W: NodeWriter>(
    w: &mut W,
    root: Hash,
    updates: &[MapLeaf],
) -> Result<Hash, MapError<W::Error>> {
    if updates.windows(2).any(|p| p[0].game() >= p[1].game()) {
        return Err(MapError::Unsorted);
    }
    update_at(w, root, 0, updates)
}

/// The map's update from the log leaves appended after it: each game's
/// last leaf among `leaves` (which start at leaf index `first`), sorted by
/// game id, ready for [`update`].
pub fn heads_of(first: u64, leaves: &[Leaf]) -> Vec<MapLeaf> {
    let mut last: HashMap<Hash, MapLeaf> = HashMap::new();
    for (i, l) in leaves.iter().enumerate() {
        last.insert(
            l.game,
            MapLeaf {
                head: *l,
                leaf_index: first + i as u64,
            },
        );
    }
    let mut v: Vec<MapLeaf> = last.into_values().collect();
    v.sort_by(|a, b| a.game().cmp(b.game()));
    v
}

/// A proof of a game's entry in the map, or of its absence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapProof {
    /// The entry at the end of the game's path: the game's own (inclusion),
    /// another game's sharing the path (absence), or none (an empty
    /// subtree: absence).
    pub leaf: Option<MapLeaf>,
    /// The siblings along the path, nearest first (the last is a child of
    /// the root); as many as the depth where the path ends.
    pub siblings: Vec<Hash>,
}

impl MapProof {
    /// JSON form: `{"leaf": <80-byte map leaf, hex> | null, "siblings": [<base64>...]}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "leaf": self.leaf.map(|l| hex_of(&l.to_bytes())),
            "siblings": self.siblings.iter().map(|h| B64.encode(h)).collect::<Vec<_>>(),
        })
    }

    /// Reads the JSON form.
    pub fn from_json(v: &serde_json::Value) -> Result<MapProof, MapProofError> {
        let leaf = match v.get("leaf") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) => Some(
                unhex(s)
                    .and_then(|b| MapLeaf::from_bytes(&b))
                    .ok_or_else(|| {
                        MapProofError::Malformed("the map leaf is not 80 bytes of hex".into())
                    })?,
            ),
            Some(_) => {
                return Err(MapProofError::Malformed(
                    "the map leaf is not a string".into(),
                ))
            }
        };
        let siblings = v
            .get("siblings")
            .and_then(|s| s.as_array())
            .ok_or_else(|| MapProofError::Malformed("no siblings list".into()))?
            .iter()
            .map(|h| {
                h.as_str()
                    .ok_or_else(|| MapProofError::Malformed("a sibling is not a string".into()))
                    .and_then(|s| {
                        parse_b64_hash(s).map_err(|e| MapProofError::Malformed(e.to_string()))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MapProof { leaf, siblings })
    }
}

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// Proves `game`'s entry (or its absence) in the map of root `root`.
pub fn prove<R: NodeReader>(
    r: &R,
    root: Hash,
    game: &Hash,
) -> Result<MapProof, MapError<R::Error>> {
    let mut siblings = Vec::new();
    let mut at = root;
    let mut depth = 0;
    let leaf = loop {
        if at == EMPTY {
            break None;
        }
        match read(r, &at)? {
            Node::Leaf(l) => break Some(l),
            Node::Inner(left, right) => {
                if depth >= DEPTH {
                    return Err(MapError::Missing("a path deeper than 256 levels".into()));
                }
                if bit(game, depth) {
                    siblings.push(left);
                    at = right;
                } else {
                    siblings.push(right);
                    at = left;
                }
                depth += 1;
            }
        }
    };
    siblings.reverse();
    Ok(MapProof { leaf, siblings })
}

/// Why a map proof fails.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum MapProofError {
    /// The proof cannot be read.
    #[error("malformed map proof: {0}")]
    Malformed(String),
    /// More siblings than the tree has levels.
    #[error("the map proof has {0} siblings, more than the map's 256 levels")]
    TooDeep(usize),
    /// The entry at the end of the path does not stand on the game's path.
    #[error("the map proof's entry (game {0}) does not lie on the game's path")]
    OffPath(String),
    /// The proof does not lead to the root.
    #[error("the map proof does not lead to the map root")]
    RootMismatch,
}

/// Checks `proof` for `game` against the map root `root`: `Some(entry)`
/// when the map holds the game (its entry), `None` when it proves the
/// game absent.
pub fn verify(
    root: &Hash,
    game: &Hash,
    proof: &MapProof,
) -> Result<Option<MapLeaf>, MapProofError> {
    let depth = proof.siblings.len();
    if depth > DEPTH {
        return Err(MapProofError::TooDeep(depth));
    }
    let mut h = match &proof.leaf {
        None => EMPTY,
        Some(l) => {
            if (0..depth).any(|d| bit(l.game(), d) != bit(game, d)) {
                return Err(MapProofError::OffPath(hex_of(l.game())));
            }
            l.hash()
        }
    };
    for (i, s) in proof.siblings.iter().enumerate() {
        let d = depth - 1 - i;
        h = if bit(game, d) {
            map_node_hash(s, &h)
        } else {
            map_node_hash(&h, s)
        };
    }
    if &h != root {
        return Err(MapProofError::RootMismatch);
    }
    Ok(proof.leaf.filter(|l| l.game() == game))
}

/// The map root named by a checkpoint's extension lines: `None` when it
/// carries none (a checkpoint signed before the map existed).
pub fn root_in(extensions: &[String]) -> Result<Option<Hash>, MapProofError> {
    let mut found = None;
    for e in extensions {
        if let Some(rest) = e.strip_prefix(MAP_LINE_PREFIX) {
            if found.is_some() {
                return Err(MapProofError::Malformed(
                    "the checkpoint names two map roots".into(),
                ));
            }
            found = Some(
                parse_b64_hash(rest)
                    .map_err(|e| MapProofError::Malformed(format!("map root: {e}")))?,
            );
        }
    }
    Ok(found)
}

/// The extension line naming `root`.
pub fn map_line(root: &Hash) -> String {
    format!("{MAP_LINE_PREFIX}{}", B64.encode(root))
}

/// A whole map in memory: nodes by hash, and the current root. For tests,
/// benches and auditors that rebuild a map from a log's leaves.
///
/// Its methods do not fail and do not panic: every node it reads it wrote
/// itself under the root it keeps, neither of which can be set from
/// outside, and its updates come sorted from [`heads_of`].
#[derive(Debug, Clone, Default)]
pub struct MemMap {
    nodes: HashMap<Hash, Node>,
    root: Hash,
    size: u64,
}

impl NodeReader for MemMap {
    type Error = std::convert::Infallible;
    fn node(&self, hash: &Hash) -> Result<Option<Node>, Self::Error> {
        Ok(self.nodes.get(hash).copied())
    }
}

impl NodeWriter for MemMap {
    fn put_node(&mut self, hash: Hash, node: Node) -> Result<(), Self::Error> {
        self.nodes.insert(hash, node);
        Ok(())
    }
}

fn infallible<T>(r: Result<T, MapError<std::convert::Infallible>>) -> T {
    match r {
        Ok(t) => t,
        Err(MapError::Store(e)) => match e {},
        // Every node a MemMap reads it wrote itself, under the root it
        // keeps (neither can be set from outside): a missing node cannot
        // occur, and `update` is given sorted updates (`heads_of`).
        Err(other) => unreachable!("{other}"),
    }
}

impl MemMap {
    /// The empty map.
    pub fn new() -> Self {
        MemMap {
            nodes: HashMap::new(),
            root: EMPTY,
            size: 0,
        }
    }

    /// Takes in the log leaves appended after the `size` already taken.
    pub fn extend(&mut self, leaves: &[Leaf]) -> Hash {
        let updates = heads_of(self.size, leaves);
        let root = self.root;
        self.root = infallible(update(self, root, &updates));
        self.size += leaves.len() as u64;
        self.root
    }

    /// Proves `game`'s entry, or its absence, at the current root.
    pub fn prove(&self, game: &Hash) -> MapProof {
        infallible(prove(self, self.root, game))
    }

    /// The current root.
    pub fn root(&self) -> Hash {
        self.root
    }

    /// The log leaves the map has taken in.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of stored nodes.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(game: u8, seq: u64) -> Leaf {
        let mut g = [0u8; 32];
        g[0] = game;
        Leaf {
            game: g,
            seq,
            record_hash: [seq as u8; 32],
        }
    }

    /// The root recomputed from scratch by the recursive definition.
    fn reference(entries: &[MapLeaf], depth: usize) -> Hash {
        match entries {
            [] => EMPTY,
            [one] => one.hash(),
            _ => {
                let (l, r): (Vec<MapLeaf>, Vec<MapLeaf>) =
                    entries.iter().partition(|e| !bit(e.game(), depth));
                map_node_hash(&reference(&l, depth + 1), &reference(&r, depth + 1))
            }
        }
    }

    #[test]
    fn incremental_updates_equal_the_recursive_definition_and_proofs_verify() {
        let mut m = MemMap::new();
        assert_eq!(m.root(), EMPTY);
        let log: Vec<Leaf> = [
            (0x80, 0),
            (0x40, 0),
            (0x80, 1),
            (0x41, 0),
            (0x41, 1),
            (0xc0, 0),
            (0x40, 1),
        ]
        .iter()
        .map(|&(g, s)| leaf(g, s))
        .collect();
        for cut in [1, 3, 4, 7] {
            let from = m.size() as usize;
            m.extend(&log[from..cut]);
            let want = heads_of(0, &log[..cut]);
            assert_eq!(m.root(), reference(&want, 0), "size {cut}");
            for e in &want {
                let p = m.prove(e.game());
                assert_eq!(verify(&m.root(), e.game(), &p), Ok(Some(*e)));
            }
        }
        // Absence: a game sharing a prefix with one entry, and one on an
        // empty branch.
        for g in [0x42u8, 0x00] {
            let game = leaf(g, 0).game;
            let p = m.prove(&game);
            assert_eq!(verify(&m.root(), &game, &p), Ok(None), "{g:x}");
        }
        // A stale entry for 0x40 (seq 0, before seq 1 was logged) fails.
        let g40 = leaf(0x40, 0).game;
        let mut p = m.prove(&g40);
        p.leaf = Some(MapLeaf {
            head: leaf(0x40, 0),
            leaf_index: 1,
        });
        assert_eq!(
            verify(&m.root(), &g40, &p),
            Err(MapProofError::RootMismatch)
        );
    }

    #[test]
    fn a_proof_round_trips_through_json() {
        let mut m = MemMap::new();
        m.extend(&[leaf(1, 0), leaf(2, 0), leaf(3, 0)]);
        let p = m.prove(&leaf(2, 0).game);
        assert_eq!(MapProof::from_json(&p.to_json()).unwrap(), p);
        assert!(root_in(&[map_line(&m.root())]).unwrap() == Some(m.root()));
        assert!(root_in(&["other".into()]).unwrap().is_none());
    }
}
