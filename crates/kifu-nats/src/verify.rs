//! Checking records as they arrive from the stream, one game chain at a time.
//!
//! The checks are kifu-ledger's own (`check_genesis`, `check_append`:
//! canonical bytes, chain id, sequence, link, `verify_strict` signature and
//! the signer's role, FORMAT.md sections 5 and 6); this module only keeps, per
//! game, the genesis and the hashes seen so far, so that it can tell the next
//! record from a repeat or a fork.

use std::collections::HashMap;

use kifu_ledger::standing::Standing;
use kifu_ledger::{check_append, check_genesis, Hash, Head, LedgerError, Record};

/// What a record turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The next record of its game, verified.
    Next {
        /// The game.
        game: Hash,
        /// Its place in the game.
        seq: u64,
    },
    /// The very record already verified at that place (a redelivery).
    Repeat {
        /// The game.
        game: Hash,
        /// Its place in the game.
        seq: u64,
    },
    /// A record of a game whose earlier records have not been seen: the
    /// caller must offer those first (from the stream's history).
    NeedHistory {
        /// The game.
        game: Hash,
        /// The record's place.
        seq: u64,
    },
}

/// Why a record is refused.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// kifu-ledger refused it (bytes, link, signature, role).
    #[error("game {game} seq {seq}: {source}")]
    Ledger {
        /// Game id (hex).
        game: String,
        /// Sequence number.
        seq: u64,
        /// The ledger's reason.
        source: LedgerError,
    },
    /// The record leaves a hole in its chain.
    #[error("game {game}: seq {got} arrived, {expected} was expected next")]
    Gap {
        /// Game id (hex).
        game: String,
        /// The next seq the chain expects.
        expected: u64,
        /// The seq that arrived.
        got: u64,
    },
    /// A different record at a place already taken.
    #[error("fork: game {game} seq {seq}: {first} was verified there, {second} arrived")]
    Fork {
        /// Game id (hex).
        game: String,
        /// Sequence number.
        seq: u64,
        /// Hash of the record verified first (hex).
        first: String,
        /// Hash of the record that arrived (hex).
        second: String,
    },
}

struct Chain {
    /// Who may sign what at the chain's head (the roster as the chain has
    /// made it so far).
    standing: Standing,
    hashes: Vec<Hash>,
}

/// The chains verified so far.
#[derive(Default)]
pub struct Verifier {
    chains: HashMap<Hash, Chain>,
}

impl Verifier {
    /// An empty verifier.
    pub fn new() -> Self {
        Self::default()
    }

    /// The game a record belongs to, and its seq, from its envelope alone.
    pub fn place(record: &Record) -> Result<(Hash, u64), LedgerError> {
        let h = record.header()?;
        Ok((if h.seq == 0 { record.hash() } else { h.chain }, h.seq))
    }

    /// Number of records verified in `game` (0 when unknown).
    pub fn len_of(&self, game: &Hash) -> u64 {
        self.chains
            .get(game)
            .map(|c| c.hashes.len() as u64)
            .unwrap_or(0)
    }

    /// Checks `record` against what was verified before it.
    pub fn offer(&mut self, record: &Record) -> Result<Verdict, Refused> {
        let (game, seq) = Self::place(record).map_err(|e| Refused::Ledger {
            game: hex::encode(record.hash()),
            seq: 0,
            source: e,
        })?;
        let ledger = |source| Refused::Ledger {
            game: hex::encode(game),
            seq,
            source,
        };
        let Some(chain) = self.chains.get_mut(&game) else {
            if seq > 0 {
                return Ok(Verdict::NeedHistory { game, seq });
            }
            let (event, genesis) = check_genesis(record).map_err(ledger)?;
            self.chains.insert(
                game,
                Chain {
                    standing: Standing::new(&genesis, event.at_ms),
                    hashes: vec![game],
                },
            );
            return Ok(Verdict::Next { game, seq });
        };
        let next = chain.hashes.len() as u64;
        if seq < next {
            let hash = record.hash();
            let known = chain.hashes[seq as usize];
            if known == hash {
                return Ok(Verdict::Repeat { game, seq });
            }
            // A different record claiming a verified place: refuse it as a
            // fork only when it is validly signed; otherwise its own defect.
            if seq > 0 {
                let prev = Head {
                    seq: seq - 1,
                    hash: chain.hashes[seq as usize - 1],
                };
                check_append(&game, &chain.standing, prev, record).map_err(ledger)?;
            }
            return Err(Refused::Fork {
                game: hex::encode(game),
                seq,
                first: hex::encode(known),
                second: hex::encode(hash),
            });
        }
        if seq > next {
            return Err(Refused::Gap {
                game: hex::encode(game),
                expected: next,
                got: seq,
            });
        }
        let head = Head {
            seq: next - 1,
            hash: chain.hashes[next as usize - 1],
        };
        let event = check_append(&game, &chain.standing, head, record).map_err(ledger)?;
        chain.standing.apply(&event);
        chain.hashes.push(record.hash());
        Ok(Verdict::Next { game, seq })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};
    use kifu_ledger::{Body, Color};

    #[test]
    fn verifies_in_order_and_spots_repeats_gaps_forks_and_bad_records() {
        let cast = Cast::new();
        let c = sample_game(&cast, "v");
        let mut v = Verifier::new();
        // A record before its genesis needs the game's history.
        assert!(matches!(
            v.offer(&c.records[2]).unwrap(),
            Verdict::NeedHistory { seq: 2, .. }
        ));
        for (i, r) in c.records.iter().enumerate() {
            assert_eq!(
                v.offer(r).unwrap(),
                Verdict::Next {
                    game: c.game,
                    seq: i as u64
                }
            );
        }
        assert_eq!(v.len_of(&c.game), c.records.len() as u64);
        assert_eq!(
            v.offer(&c.records[1]).unwrap(),
            Verdict::Repeat {
                game: c.game,
                seq: 1
            }
        );
        // A validly signed different record at a taken place: a fork.
        let mut short = kifu_ledger::testkit::ChainBuilder::start(
            &cast.referee,
            cast.genesis("v"),
            c.records[0].decode().unwrap().at_ms,
        );
        assert_eq!(short.game, c.game);
        let other = short
            .push(
                &cast.black,
                Body::Pass {
                    player: Color::Black,
                    pass_stone: false,
                },
            )
            .clone();
        if other != c.records[1] {
            assert!(matches!(v.offer(&other), Err(Refused::Fork { seq: 1, .. })));
        }
        // A record past the head leaves a gap.
        let mut v2 = Verifier::new();
        v2.offer(&c.records[0]).unwrap();
        assert!(matches!(
            v2.offer(&c.records[2]),
            Err(Refused::Gap {
                expected: 1,
                got: 2,
                ..
            })
        ));
        // A tampered signature is refused by the ledger's check.
        let mut bad = c.records[1].clone();
        bad.signature[0] ^= 1;
        assert!(matches!(v2.offer(&bad), Err(Refused::Ledger { .. })));
        // A stranger may sign nothing.
        let mut c3 = kifu_ledger::testkit::ChainBuilder::start(&cast.referee, cast.genesis("s"), 0);
        let stranger = c3.next(
            &cast.stranger,
            Body::ClockStarted {
                running: Color::Black,
            },
        );
        let mut v3 = Verifier::new();
        v3.offer(&c3.records[0]).unwrap();
        assert!(matches!(v3.offer(&stranger), Err(Refused::Ledger { .. })));
        c3.push(
            &cast.referee,
            Body::ClockStarted {
                running: Color::Black,
            },
        );
        assert!(v3.offer(&c3.records[1]).is_ok());
    }
}
