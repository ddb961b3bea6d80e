//! Auditing a log's checkpoints from its leaves (`docs/TRANSPARENCY.md`
//! section 10, "Auditing"): anyone who reads the leaves recomputes the
//! tree's root and the map of game heads at each checkpoint's size and
//! compares them with what the checkpoint names. A log operator who
//! publishes a wrong map root (to hide a game's later events from a bundle)
//! is caught by the first auditor who replays the log.

use std::fmt;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;

use crate::checkpoint::Checkpoint;
use crate::hash::Hash;
use crate::leaf::Leaf;
use crate::map::{self, MemMap};
use crate::tree::MemTree;

/// What an audit found about one checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The tree root and the map root are the log's.
    Good {
        /// The map root (the same as recomputed).
        map_root: Hash,
    },
    /// The tree root is the log's; the checkpoint names no map root (a
    /// checkpoint signed before the map existed).
    NoMap,
    /// The tree root is not the root of the leaves read.
    WrongTreeRoot {
        /// The root recomputed from the leaves.
        recomputed: Hash,
    },
    /// The map root is not the map of the leaves read.
    WrongMapRoot {
        /// The root the checkpoint names.
        named: Hash,
        /// The root recomputed from the leaves.
        recomputed: Hash,
    },
    /// The map root line does not parse.
    BadMapLine(String),
}

impl Finding {
    /// True when nothing is wrong.
    pub fn is_good(&self) -> bool {
        matches!(self, Finding::Good { .. } | Finding::NoMap)
    }
}

/// In words, for a report.
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Good { map_root } => write!(
                f,
                "the tree root and the map root ({}) are the leaves'",
                B64.encode(map_root)
            ),
            Finding::NoMap => f.write_str(
                "the tree root is the leaves'; it names no map root (signed before the map)",
            ),
            Finding::WrongTreeRoot { recomputed } => write!(
                f,
                "the tree root is not the leaves' ({}): another log, or a fork",
                B64.encode(recomputed)
            ),
            Finding::WrongMapRoot { named, recomputed } => write!(
                f,
                "the map root {} is not the map of the log's leaves ({}): the map lies about the games' heads",
                B64.encode(named),
                B64.encode(recomputed)
            ),
            Finding::BadMapLine(e) => write!(f, "the map root line: {e}"),
        }
    }
}

/// A checkpoint to audit: where it came from (a name for the report), the
/// checkpoint, and whether its signature verified under the log key the
/// auditor trusts (`true` when no key is given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Where it came from.
    pub name: String,
    /// The checkpoint.
    pub checkpoint: Checkpoint,
    /// Signed by the log key the auditor trusts.
    pub signed: bool,
}

/// One checkpoint audited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audited {
    /// The checkpoint as shown.
    pub shown: Shown,
    /// What its roots are, against the leaves.
    pub finding: Finding,
}

impl Audited {
    /// True when its roots are the leaves' and it is signed.
    pub fn ok(&self) -> bool {
        self.finding.is_good() && self.shown.signed
    }

    /// What was found, in words.
    pub fn words(&self) -> String {
        let mut s = self.finding.to_string();
        if !self.shown.signed {
            s.push_str("; not signed by the log key given");
        }
        s
    }
}

/// The log read now no longer holds the tree the last audit saw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forked {
    /// Fewer leaves than last time.
    #[error("the log shrank: the last audit saw {was} leaves, the log now has {now}")]
    Shrank {
        /// Leaves the last audit saw.
        was: u64,
        /// Leaves read now.
        now: u64,
    },
    /// Another tree at the size last seen.
    #[error("the log's tree at size {size} is not the one the last audit saw: the log forked or was rewritten")]
    Rewritten {
        /// The size the last audit saw.
        size: u64,
    },
}

/// What an audit of a log's checkpoints found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditReport {
    /// Every checkpoint, in increasing size.
    pub audited: Vec<Audited>,
    /// The tree remembered from the last audit, when the log read now no
    /// longer holds it.
    pub forked: Option<Forked>,
    /// Leaves read.
    pub leaves_read: u64,
}

impl AuditReport {
    /// Checkpoints found wrong, and the remembered tree when it is lost.
    pub fn wrong(&self) -> usize {
        self.audited.iter().filter(|a| !a.ok()).count() + usize::from(self.forked.is_some())
    }

    /// The largest checkpoint audited, to remember for the next audit,
    /// when nothing was wrong.
    pub fn to_remember(&self) -> Option<Checkpoint> {
        if self.wrong() > 0 {
            return None;
        }
        self.audited.last().map(|a| Checkpoint {
            extensions: Vec::new(),
            ..a.shown.checkpoint.clone()
        })
    }
}

/// Audits `shown` checkpoints (in any order: they are audited in increasing
/// size) against the log's leaves, read as needed by `leaves(from, to,
/// top)` (the leaves `from..to` of a log of at least `top` leaves); each
/// checkpoint is handed to `each` as soon as it is audited. With
/// `remembered`, the largest checkpoint of the last audit, the log read now
/// must still hold that tree (`docs/TRANSPARENCY.md` section 10).
///
/// # Errors
///
/// The first error of `leaves`; [`AuditError::NotAtSize`] when `leaves`
/// gave fewer leaves than a checkpoint's size.
pub fn audit<E: From<AuditError>>(
    mut shown: Vec<Shown>,
    remembered: Option<&Checkpoint>,
    mut leaves: impl FnMut(u64, u64, u64) -> Result<Vec<Leaf>, E>,
    mut each: impl FnMut(&Audited),
) -> Result<AuditReport, E> {
    shown.sort_by_key(|s| s.checkpoint.size);
    let top = shown.last().map(|s| s.checkpoint.size).unwrap_or(0);
    let mut auditor = Auditor::new();
    let mut audited = Vec::with_capacity(shown.len());
    for s in shown {
        if s.checkpoint.size > auditor.size() {
            let read = leaves(auditor.size(), s.checkpoint.size, top)?;
            auditor.read(&read);
        }
        let finding = auditor.check(&s.checkpoint)?;
        let a = Audited { shown: s, finding };
        each(&a);
        audited.push(a);
    }
    let forked = remembered.and_then(|old| {
        if old.size > auditor.size() {
            Some(Forked::Shrank {
                was: old.size,
                now: auditor.size(),
            })
        } else if auditor.tree_root_at(old.size) != Some(old.root) {
            Some(Forked::Rewritten { size: old.size })
        } else {
            None
        }
    });
    Ok(AuditReport {
        audited,
        forked,
        leaves_read: auditor.size(),
    })
}

/// Why an audit step cannot be taken.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum AuditError {
    /// The checkpoint is not at the size the auditor has read to.
    #[error("the auditor has read {read} leaves; the checkpoint is of {size}")]
    NotAtSize {
        /// Leaves read.
        read: u64,
        /// The checkpoint's size.
        size: u64,
    },
}

/// Reads a log's leaves in order and recomputes its tree and its map.
/// Checkpoints are checked in increasing size, each once the leaves up to
/// its size are read.
#[derive(Debug, Default)]
pub struct Auditor {
    tree: MemTree,
    map: MemMap,
}

impl Auditor {
    /// An auditor that has read nothing.
    pub fn new() -> Self {
        Auditor {
            tree: MemTree::new(),
            map: MemMap::new(),
        }
    }

    /// Leaves read so far.
    pub fn size(&self) -> u64 {
        self.tree.size()
    }

    /// Reads the next leaves of the log.
    pub fn read(&mut self, leaves: &[Leaf]) {
        for l in leaves {
            self.tree.push(&l.to_bytes());
        }
        self.map.extend(leaves);
    }

    /// The RFC 6962 root of the leaves read.
    pub fn tree_root(&self) -> Hash {
        self.tree.root()
    }

    /// The RFC 6962 root of the first `size` leaves read (`None` beyond).
    pub fn tree_root_at(&self, size: u64) -> Option<Hash> {
        self.tree.root_at(size).ok()
    }

    /// The map root of the leaves read.
    pub fn map_root(&self) -> Hash {
        self.map.root()
    }

    /// Checks a checkpoint of exactly the size read.
    pub fn check(&self, cp: &Checkpoint) -> Result<Finding, AuditError> {
        if cp.size != self.size() {
            return Err(AuditError::NotAtSize {
                read: self.size(),
                size: cp.size,
            });
        }
        let recomputed = self.tree.root();
        if recomputed != cp.root {
            return Ok(Finding::WrongTreeRoot { recomputed });
        }
        Ok(match map::root_in(&cp.extensions) {
            Err(e) => Finding::BadMapLine(e.to_string()),
            Ok(None) => Finding::NoMap,
            Ok(Some(named)) if named == self.map.root() => Finding::Good { map_root: named },
            Ok(Some(named)) => Finding::WrongMapRoot {
                named,
                recomputed: self.map.root(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_map_root_is_found_and_a_right_one_passes() {
        let leaves: Vec<Leaf> = (0..5u8)
            .map(|i| Leaf {
                game: [i % 2; 32],
                seq: u64::from(i / 2),
                record_hash: [i; 32],
            })
            .collect();
        let mut a = Auditor::new();
        a.read(&leaves[..3]);
        let mut cp = Checkpoint::new("o", 3, a.tree.root());
        assert_eq!(a.check(&cp), Ok(Finding::NoMap));
        cp.extensions.push(map::map_line(&a.map_root()));
        assert!(a.check(&cp).unwrap().is_good());
        a.read(&leaves[3..]);
        assert!(matches!(a.check(&cp), Err(AuditError::NotAtSize { .. })));
        // A checkpoint of 5 leaves naming the map of 3 (a stale head).
        let mut stale = Checkpoint::new("o", 5, a.tree.root());
        stale.extensions = cp.extensions.clone();
        assert!(matches!(a.check(&stale), Ok(Finding::WrongMapRoot { .. })));
        let wrong_tree = Checkpoint::new("o", 5, [7; 32]);
        assert!(matches!(
            a.check(&wrong_tree),
            Ok(Finding::WrongTreeRoot { .. })
        ));
    }

    fn five() -> Vec<Leaf> {
        (0..5u8)
            .map(|i| Leaf {
                game: [i % 2; 32],
                seq: u64::from(i / 2),
                record_hash: [i; 32],
            })
            .collect()
    }

    fn shown(name: &str, cp: Checkpoint, signed: bool) -> Shown {
        Shown {
            name: name.into(),
            checkpoint: cp,
            signed,
        }
    }

    #[test]
    fn an_audit_reads_each_leaf_once_in_size_order_and_words_what_is_wrong() {
        let leaves = five();
        let mut a = Auditor::new();
        a.read(&leaves[..2]);
        let mut small = Checkpoint::new("o", 2, a.tree_root());
        small.extensions.push(map::map_line(&a.map_root()));
        a.read(&leaves[2..]);
        let big = Checkpoint::new("o", 5, a.tree_root());
        let forged = Checkpoint::new("o", 5, [9; 32]);
        let mut asked = Vec::new();
        let mut heard = Vec::new();
        let report = audit::<AuditError>(
            vec![
                shown("big", big.clone(), true),
                shown("forged", forged, true),
                shown("small", small.clone(), false),
            ],
            None,
            |from, to, top| {
                asked.push((from, to, top));
                Ok(leaves[from as usize..to as usize].to_vec())
            },
            |x| heard.push(x.shown.name.clone()),
        )
        .unwrap();
        assert_eq!(asked, vec![(0, 2, 5), (2, 5, 5)]);
        assert_eq!(heard, ["small", "big", "forged"]);
        assert_eq!(report.leaves_read, 5);
        assert_eq!(report.wrong(), 2);
        assert!(report.audited[0]
            .words()
            .ends_with("; not signed by the log key given"));
        assert!(report.audited[0]
            .words()
            .starts_with("the tree root and the map root ("));
        assert_eq!(report.audited[1].words(), Finding::NoMap.to_string());
        assert!(report.audited[2].words().contains("another log, or a fork"));
        assert_eq!(report.to_remember(), None);
    }

    #[test]
    fn a_log_that_shrank_or_was_rewritten_since_the_last_audit_is_found() {
        let leaves = five();
        let mut a = Auditor::new();
        a.read(&leaves[..3]);
        let three = Checkpoint::new("o", 3, a.tree_root());
        let run = |remembered: &Checkpoint, upto: usize| {
            let mut b = Auditor::new();
            b.read(&leaves[..upto]);
            let cp = Checkpoint::new("o", upto as u64, b.tree_root());
            audit::<AuditError>(
                vec![shown("now", cp, true)],
                Some(remembered),
                |from, to, _| Ok(leaves[from as usize..to as usize].to_vec()),
                |_| {},
            )
            .unwrap()
        };
        let clean = run(&three, 5);
        assert_eq!(clean.forked, None);
        assert_eq!(clean.to_remember().map(|c| c.size), Some(5));
        assert_eq!(
            run(&three, 2).forked,
            Some(Forked::Shrank { was: 3, now: 2 })
        );
        let other = Checkpoint::new("o", 3, [1; 32]);
        let rewritten = run(&other, 5);
        assert_eq!(rewritten.forked, Some(Forked::Rewritten { size: 3 }));
        assert_eq!(rewritten.wrong(), 1);
        assert_eq!(rewritten.to_remember(), None);
    }
}
