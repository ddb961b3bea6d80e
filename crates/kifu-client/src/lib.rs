//! kifu-client: a blocking client of `kifu serve` ([`Client`], the routes of
//! `docs/API.md`), and [`Backend`], one interface over a local store or a
//! server in front of one, so that a program reads and appends records the
//! same way whichever it was given.
//!
//! # The one design decision: the server is only a store at a distance
//!
//! Through a server, keys never leave the caller: records are signed before
//! they are sent, and every record read back is checked (its hash chain and
//! signature) by the same library calls as a local store's records. So a
//! command, or a match referee, trusts a server no more than a disk: it
//! gets the same answers, retries and refusals from either
//! (`tests/backends.rs` requires it), and the server holds no player's or
//! official's key. The client blocks (ureq, no runtime), because its callers are
//! command-line programs and a referee's loop that wait for each answer
//! anyway.
//!
//! ```
//! use kifu_client::Backend;
//! use kifu_ledger::testkit::{sample_game, Cast};
//!
//! let dir = tempfile::tempdir()?;
//! // A local store here; `Backend::Remote(Client::new(URL))` is a server.
//! let backend = Backend::Local(kifu_store::Store::open(dir.path())?);
//! let game = sample_game(&Cast::new(), "a game");
//! for record in &game.records {
//!     backend.append(record.clone())?;
//! }
//! let head = backend.head(&game.game)?.expect("the game is stored");
//! assert_eq!(head, game.head);
//! assert_eq!(backend.read(&game.game, 0, None)?.len(), game.records.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! An `https://` server is checked against the usual roots, or against the
//! PEM certificates named by the environment variable `KIFU_CACERT` when it
//! is set (a venue's self-signed `kifu serve` certificate,
//! `DATA/tls/self-signed.pem`).

mod backend;
mod client;
mod trust;

use std::path::Path;
use std::time::Duration;

pub use backend::Backend;
pub use client::Client;
/// What a [`Backend`] answers an append with: the store's acknowledgement,
/// named here so that whoever writes through the client needs no store.
pub use kifu_store::Appended;

/// Records asked for per request when reading through a server.
const PAGE: u64 = 10_000;

/// Records sent per request when importing through a server.
const SEND: usize = 1_000;

/// What went wrong talking to a server (or to the local store behind a
/// [`Backend`]). Each reads as one line for the user.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server refused the request, in its own words.
    #[error("server: {0}")]
    Refused(String),
    /// The server refused one record of a submission, in its own words.
    #[error("{0}")]
    Rejected(String),
    /// No connection to the server.
    #[error("cannot reach the server at {base}: {reason}")]
    Unreachable {
        /// The server's address.
        base: String,
        /// Why, including a `KIFU_CACERT` that cannot be used.
        reason: String,
    },
    /// The server's answer is not what `docs/API.md` documents.
    #[error("{0}")]
    Answer(String),
    /// What the server serves of its transparency log does not hold
    /// together (an entry bundle that does not parse, a leaf that is not
    /// one): a verification failure, not a failure to talk.
    #[error("{0}")]
    Log(String),
    /// What the caller named is none of what the server holds, or several.
    #[error("{0}")]
    Named(String),
    /// A record read back does not verify, or does not decode.
    #[error(transparent)]
    Ledger(#[from] kifu_ledger::LedgerError),
    /// The local store's error.
    #[error(transparent)]
    Store(#[from] kifu_store::StoreError),
}

impl ClientError {
    fn answer(what: &str) -> ClientError {
        ClientError::Answer(what.to_string())
    }
}

/// The address of the `kifu serve` holding the data directory `dir`, when
/// one does and answers. The note a server leaves in its data directory
/// ([`kifu_store::marker`]) outlives a server that was killed: such a note
/// names a server that no longer answers, and is ignored.
pub fn held_by(dir: &Path) -> Option<String> {
    let url = kifu_store::marker::read(dir)?;
    let alive = match url.strip_prefix("https://") {
        // A certificate this client may not trust (a self-signed one): the
        // server answers if its port takes a connection.
        Some(addr) => addr
            .parse::<std::net::SocketAddr>()
            .ok()
            .and_then(|a| std::net::TcpStream::connect_timeout(&a, Duration::from_secs(2)).ok())
            .is_some(),
        // Any answer is a server alive (a degraded one answers 503).
        None => matches!(
            trust::agent_builder()
                .timeout(Duration::from_secs(2))
                .build()
                .get(&format!("{url}/healthz"))
                .call(),
            Ok(_) | Err(ureq::Error::Status(..))
        ),
    };
    alive.then_some(url)
}
