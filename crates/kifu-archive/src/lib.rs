//! A data directory's documents: what leaves it and what enters it. Appeal
//! bundles and map proofs are made from its store ([`bundle`]: what `kifu
//! bundle` writes and the server answers at `GET /games/{id}/bundle`), and
//! archive files are verified streaming, with the tournament chain they
//! carry checked as a chain file is ([`archive_file`]).
//!
//! The one decision a reader must know: **this crate joins the store to the
//! verifiers, never the other way round.** The store sits on the ground
//! floor: it knows ledger records and the transparency log, nothing of
//! bundles or tournaments, so that everything above can write through it.
//! The formats' verifiers (`kifu-bundle`, `kifu-tournament`) need no store,
//! so that a stranger's verifier is the one kifu runs. The documents that
//! need both meet here, one floor above the store, and a bundle made here
//! is checked by the same code a stranger runs on it.
//!
//! It is named for the archive a data directory is: its records and the
//! proofs that they are the log's, as they are handed out and taken in.
//!
//! What `kifu` prints with `--json` of what it did to a data directory (a
//! game created, an event appended, an archive written or imported, ...),
//! and the command line's other documents no library owns (a key written,
//! an error), are types here ([`printed`]): below the server, so that
//! `kifu_server::schemas` generates their schemas with every other one,
//! and the command line prints them by serialising the type.
//!
//! A game's appeal bundle, made from a store once the log's operator has
//! signed a checkpoint, checks as a stranger's verifier checks it:
//!
//! ```
//! use kifu_ledger::testkit::{sample_game, Cast};
//! use kifu_store::{operator::sign_checkpoint, Store};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let store = Store::open(dir.path()).unwrap();
//! let game = sample_game(&Cast::new(), "appeal");
//! store.append_batch(game.records.clone()).unwrap();
//! let operator = kifu_tlog::note::NoteSigner::new("venue.example/log", [7; 32]).unwrap();
//! sign_checkpoint(&store, &operator).unwrap();
//!
//! let bundle = kifu_archive::bundle::latest_bundle(&store, &game.game).unwrap();
//! let report = kifu_bundle::check_bundle(&bundle).unwrap();
//! assert_eq!(report.head_seq, game.head.seq);
//! assert_eq!(report.events, game.records.len());
//! ```
#![deny(missing_docs)]

pub mod archive_file;
pub mod bundle;
pub mod printed;
