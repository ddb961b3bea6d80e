//! Who may create games on this server.
//!
//! Every other write needs a key on the game's roster, checked by the
//! ledger; a genesis names its own roster, so without this list any device
//! that reaches the server could fill the store with games. `kifu serve`
//! takes the keys that may sign a genesis (`--creator`), and the tournament
//! chains whose officials may (`--creators-from`); on a loopback address
//! without such a list creation stays open, and on any other address the
//! server starts only with a list or with `--open-creation` (`docs/API.md`,
//! "Who may create games").

use std::collections::BTreeSet;

use axum::http::StatusCode;
use kifu_ledger::{PublicKey, Record, ZERO_HASH};

use crate::error::ApiError;

/// Who may sign a genesis on this server.
#[derive(Debug, Clone, Default)]
pub enum Creation {
    /// Anyone: a genesis needs no listed key (loopback use, or a server
    /// told `--open-creation`).
    #[default]
    Open,
    /// Only these keys.
    Listed {
        /// The keys that may sign a genesis.
        keys: BTreeSet<PublicKey>,
        /// Where they come from, for the refusal's words.
        sources: Vec<String>,
    },
}

impl Creation {
    /// The policy for these keys (named by `sources` in refusals); open when
    /// there are none.
    pub fn listed(keys: impl IntoIterator<Item = PublicKey>, sources: Vec<String>) -> Creation {
        Creation::Listed {
            keys: keys.into_iter().collect(),
            sources,
        }
    }

    /// The policy of a server listening on `listen` given the keys listed
    /// (`None`: no list): the list when there is one; without one, open on a
    /// loopback address, and refused anywhere else, where any device on the
    /// network could create games.
    ///
    /// # Errors
    ///
    /// The refusal in words, naming the flags that would allow a start.
    pub fn for_address(
        listen: std::net::SocketAddr,
        listed: Option<(Vec<PublicKey>, Vec<String>)>,
    ) -> Result<Creation, String> {
        match listed {
            Some((keys, sources)) => Ok(Creation::listed(keys, sources)),
            None if listen.ip().is_loopback() => Ok(Creation::Open),
            None => Err(format!(
                "kifu serve: listening on {listen} (not a loopback address) would let any device on the network create games; name who may with --creator KEY or --creators-from TOURNAMENT.kifu, or allow anyone with --open-creation"
            )),
        }
    }

    /// True when anyone may create a game.
    pub fn is_open(&self) -> bool {
        matches!(self, Creation::Open)
    }

    /// Checks a record before it is queued: a genesis (seq 0, zero chain)
    /// must be signed by a listed key. Other records pass (the ledger
    /// checks them against their game's roster); so does a record whose
    /// envelope does not parse (the writer refuses it with the reason).
    ///
    /// # Errors
    ///
    /// 403 `creation_refused`, naming the signer and why it may not create.
    pub fn check(&self, record: &Record) -> Result<(), ApiError> {
        self.check_as(record, "games")
    }

    /// [`Creation::check`], saying `what` the server creates (`games`,
    /// `tournaments`) in the refusal: the same keys may create both.
    pub fn check_as(&self, record: &Record, what: &str) -> Result<(), ApiError> {
        let Creation::Listed { keys, sources } = self else {
            return Ok(());
        };
        let Ok(h) = record.header() else {
            return Ok(());
        };
        if h.seq != 0 || h.chain != ZERO_HASH || keys.contains(&h.signer) {
            return Ok(());
        }
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "creation_refused",
            format!(
                "this server creates {what} only for the keys it was given ({}); the genesis is signed by key {} ({}), which is not one of them: ask the organiser to create it, or to add the key",
                if sources.is_empty() {
                    "none".to_string()
                } else {
                    sources.join(", ")
                },
                h.signer.to_hex(),
                h.signer.sha256_fingerprint()
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::testkit::{sample_game, Cast};

    #[test]
    fn only_a_listed_key_signs_a_genesis_and_other_records_pass() {
        let cast = Cast::new();
        let g = sample_game(&cast, "creation");
        // The sample game's genesis is signed by the referee.
        let genesis = &g.records[0];
        assert!(Creation::Open.check(genesis).is_ok());
        let listed = Creation::listed([cast.referee.public()], vec!["--creator".into()]);
        assert!(listed.check(genesis).is_ok());
        let other = Creation::listed([cast.director.public()], vec!["--creator".into()]);
        let e = other.check(genesis).expect_err("refused");
        assert_eq!(e.status, StatusCode::FORBIDDEN);
        assert_eq!(e.code, "creation_refused");
        assert!(
            e.message.contains(&cast.referee.public().to_hex()),
            "{}",
            e.message
        );
        assert!(other.check(&g.records[1]).is_ok(), "not a genesis");
        // An empty list opens nothing.
        assert!(Creation::listed([], vec![]).check(genesis).is_err());
    }

    #[test]
    fn without_a_list_a_server_is_open_on_loopback_only() {
        let local: std::net::SocketAddr = "127.0.0.1:7447".parse().unwrap();
        let venue: std::net::SocketAddr = "0.0.0.0:7447".parse().unwrap();
        assert!(Creation::for_address(local, None).unwrap().is_open());
        let refused = Creation::for_address(venue, None).unwrap_err();
        assert!(refused.contains("--creators-from"), "{refused}");
        let key = kifu_ledger::Keypair::from_seed([7; 32]).public();
        let listed = Creation::for_address(venue, Some((vec![key], vec!["one key".into()])));
        assert!(!listed.unwrap().is_open());
    }
}
