//! A log built in memory around one game, and the two forms of its bundle,
//! as `kifu bundle` writes them (shared by the tests and the
//! `bundle_size` example).

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use kifu_bundle::{Bundle, BundleHead, BundleRecord, BundleTail};
use kifu_ledger::testkit::ChainBuilder;
use kifu_tlog::checkpoint::Checkpoint;
use kifu_tlog::map::{self, MemMap};
use kifu_tlog::note::{Note, NoteSigner};
use kifu_tlog::{Leaf, MemTree};

/// The log: the game's records first, then `later` leaves of 350 other
/// games; its tree, its map and a signed checkpoint of it.
pub struct MemLog {
    pub leaves: Vec<Leaf>,
    pub tree: MemTree,
    pub map: MemMap,
    pub signer: NoteSigner,
    pub note: String,
}

fn b64s(h: &[kifu_tlog::Hash]) -> Vec<String> {
    h.iter().map(|x| B64.encode(x)).collect()
}

pub fn game_leaves(game: &ChainBuilder) -> Vec<Leaf> {
    game.records
        .iter()
        .map(|r| Leaf {
            game: game.game,
            seq: r.header().expect("header").seq,
            record_hash: r.hash(),
        })
        .collect()
}

impl MemLog {
    /// `leaves`, signed by the key of seed `0x11 × 32` as
    /// `kifu.example/bench`, with the map line.
    pub fn new(leaves: Vec<Leaf>) -> MemLog {
        let mut tree = MemTree::new();
        for l in &leaves {
            tree.push(&l.to_bytes());
        }
        let mut m = MemMap::new();
        m.extend(&leaves);
        let signer = NoteSigner::new("kifu.example/bench", [0x11; 32]).expect("signer");
        let mut cp = Checkpoint::new("kifu.example/bench", tree.size(), tree.root());
        cp.extensions.push(map::map_line(&m.root()));
        let mut note = Note::new(cp.to_text()).expect("note");
        signer.sign(&mut note);
        MemLog {
            leaves,
            tree,
            map: m,
            signer,
            note: note.to_text(),
        }
    }

    /// The game's records followed by `later` leaves of other games.
    pub fn around(game: &ChainBuilder, later: u64) -> MemLog {
        let mut leaves = game_leaves(game);
        for i in 0..later {
            let board = i % 350;
            leaves.push(Leaf {
                game: kifu_tlog::leaf_hash(&board.to_be_bytes()),
                seq: i / 350,
                record_hash: kifu_tlog::leaf_hash(&i.to_be_bytes()),
            });
        }
        MemLog::new(leaves)
    }

    fn base(&self, game: &ChainBuilder, records: Vec<BundleRecord>) -> Bundle {
        Bundle {
            format: String::new(),
            game: hex::encode(game.game),
            log_key: self.signer.verifier().to_vkey(),
            witness_keys: Vec::new(),
            checkpoint: self.note.clone(),
            records,
            tail: None,
            head: None,
            tournament_checkpoint: None,
            log_key_rotations: Vec::new(),
        }
    }

    /// The leaf index of the game's record `seq`.
    fn index_of(&self, game: &ChainBuilder, seq: u64) -> u64 {
        self.leaves
            .iter()
            .position(|l| l.game == game.game && l.seq == seq)
            .expect("logged") as u64
    }

    /// `kifu-bundle/1` of the game's first `n` records.
    pub fn tail_bundle(&self, game: &ChainBuilder, n: usize) -> Bundle {
        let size = self.tree.size();
        let records = game.records[..n]
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let index = self.index_of(game, i as u64);
                BundleRecord {
                    seq: i as u64,
                    leaf_index: Some(index),
                    record: B64.encode(r.to_stored()),
                    inclusion: b64s(&self.tree.prove_inclusion(index, size).expect("proof")),
                }
            })
            .collect();
        let last = self.index_of(game, n as u64 - 1);
        let mut b = self.base(game, records);
        b.format = kifu_bundle::BUNDLE_FORMAT.into();
        b.tail = Some(BundleTail {
            start: last,
            leaves: self.leaves[last as usize..]
                .iter()
                .map(|l| hex::encode(l.to_bytes()))
                .collect(),
            proof: b64s(
                &kifu_tlog::range::prove_range(self.tree.store(), last, size).expect("range"),
            ),
        });
        b
    }

    /// `kifu-bundle/2` of the game's first `n` records, with the map proof
    /// the log's map gives for the game.
    pub fn map_bundle(&self, game: &ChainBuilder, n: usize) -> Bundle {
        let size = self.tree.size();
        let records = game.records[..n]
            .iter()
            .enumerate()
            .map(|(i, r)| BundleRecord {
                seq: i as u64,
                leaf_index: None,
                record: B64.encode(r.to_stored()),
                inclusion: Vec::new(),
            })
            .collect();
        let last = self.index_of(game, n as u64 - 1);
        let mut b = self.base(game, records);
        b.format = kifu_bundle::BUNDLE_FORMAT_MAP.into();
        b.head = Some(BundleHead {
            leaf_index: last,
            inclusion: b64s(&self.tree.prove_inclusion(last, size).expect("proof")),
            map: self.map.prove(&game.game).to_json(),
        });
        b
    }
}
