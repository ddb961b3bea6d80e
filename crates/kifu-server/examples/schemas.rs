//! Writes the schemas generated from the Rust types to `docs/schema/` and
//! the OpenAPI document to `docs/openapi.json`:
//!
//! ```sh
//! cargo run -p kifu-server --example schemas
//! ```
//!
//! `crates/kifu-server/tests/openapi.rs` fails while a file there is not
//! what this writes.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    for d in kifu_server::schemas::generated() {
        let path = docs.join("schema").join(format!("{}.schema.json", d.name));
        std::fs::write(&path, kifu_server::schemas::file_text(&d))?;
        println!("wrote {}", path.display());
    }
    let path = docs.join("openapi.json");
    std::fs::write(&path, kifu_server::openapi::document_text())?;
    println!("wrote {}", path.display());
    Ok(())
}
