//! Acting on a store directly, or through a `kifu serve` with `--server URL`
//! (or `KIFU_SERVER`): which one a command gets. The store interface and the
//! server's client are kifu-client's ([`Backend`], [`Client`]).

use std::path::Path;

use crate::endpoint::server;
use crate::Failure;
pub use kifu_client::{Backend, Client};

/// Opens the store (creating it), or connects to the server.
pub fn open(data: &Path) -> Result<Backend, Failure> {
    match server() {
        Some(url) => Ok(Backend::Remote(Client::new(url))),
        None => Ok(Backend::Local(crate::store_open::open(data)?)),
    }
}

/// Opens an existing store, or connects to the server.
pub fn open_existing(data: &Path) -> Result<Backend, Failure> {
    match server() {
        Some(url) => Ok(Backend::Remote(Client::new(url))),
        None => Ok(Backend::Local(crate::store_open::open_existing(data)?)),
    }
}
