//! Which server the commands act through (`--server URL` or
//! `KIFU_SERVER`), and whether one holds a data directory.

use std::path::Path;
use std::sync::OnceLock;

static SERVER: OnceLock<Option<String>> = OnceLock::new();

/// Sets the server the commands act through (from `--server` or
/// `KIFU_SERVER`); `None` or empty for the local store.
pub fn set_server(url: Option<String>) {
    let url = url
        .map(|u| u.trim().trim_end_matches('/').to_string())
        .filter(|u| !u.is_empty());
    let _ = SERVER.set(url);
}

/// The server the commands act through, if any.
pub fn server() -> Option<&'static str> {
    SERVER.get().and_then(|s| s.as_deref())
}

/// When a running `kifu serve` holds `dir`, the line to tell the user. A
/// note left by a server that was killed names a server that no longer
/// answers, and is ignored.
pub fn held_by_server(dir: &Path) -> Option<String> {
    kifu_client::held_by(dir).map(|url| {
        format!(
            "the store in {} is held by `kifu serve` at {url}; run the command with --server {url} (or KIFU_SERVER={url})",
            dir.display()
        )
    })
}
