//! Prints where a store's bytes go, tree by tree.
//!
//! `cargo run --release -p kifu-store --example store_usage -- DATA_DIR`

fn main() {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: store_usage DATA_DIR");
        std::process::exit(2);
    };
    let store = match kifu_store::Store::open(std::path::Path::new(&dir)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let u = match store.usage() {
        Ok(u) => u,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!("| tree | keys | key bytes | value bytes |");
    println!("| --- | ---: | ---: | ---: |");
    for t in &u.trees {
        println!(
            "| {} | {} | {} | {} |",
            t.name, t.keys, t.key_bytes, t.value_bytes
        );
    }
    println!("payload (keys + values): {} bytes", u.payload());
    println!("sled size_on_disk: {} bytes", u.on_disk);
}
