//! Games as someone holds them: their heads, geneses and records, read
//! through [`Games`]. A store holds games, and so does a server in front of
//! one; whatever reads games whole (a tournament's checkpoints, its
//! verdict on its boards' games) reads them through this trait, so that it
//! needs neither the store nor the client, only this crate.

use std::sync::Arc;

use crate::{Genesis, Hash, Head, PublicKey, Record};

/// The games held by a store, or by a server.
pub trait Games {
    /// Why a game could not be read.
    type Error;
    /// The game's head, `None` when there is no such game.
    fn head(&self, game: &Hash) -> Result<Option<Head>, Self::Error>;
    /// The game's genesis.
    fn genesis(&self, game: &Hash) -> Result<Arc<Genesis>, Self::Error>;
    /// The key that signed the game's genesis (who created it: whether a
    /// game is a tournament board's game depends on it).
    fn creator(&self, game: &Hash) -> Result<PublicKey, Self::Error>;
    /// The game's records, from its genesis.
    fn read(&self, game: &Hash) -> Result<Vec<Record>, Self::Error>;
    /// Every game held.
    fn games(&self) -> Result<Vec<Hash>, Self::Error>;
}
