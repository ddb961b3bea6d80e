//! The floors of the workspace: each crate stands on a floor, and a crate
//! may depend (its `[dependencies]`, the code it ships with) only on crates
//! of its own floor or below. The store is on the ground floor, right above
//! the ledger and the log, so that everything above can write through it
//! and it knows nothing of games' rules, tournaments or bundles; the faces
//! (server, command line) are on top. Tests and benches (`[dev-dependencies]`)
//! may reach up: they are not shipped.
//!
//! A crate added to `crates/` must be given its floor here.

use std::collections::BTreeMap;
use std::path::Path;

/// The floors, from the ground up: a crate may depend on crates of its own
/// floor or of a floor below.
const FLOORS: &[&[&str]] = &[
    // Records and their proofs: signed chains, the transparency log.
    &["kifu-ledger", "kifu-tlog"],
    // Storage: chains and the log on disk.
    &["kifu-store"],
    // The rules of the games and of the clock.
    &["kifu-go", "kifu-renju", "kifu-clock"],
    // A game's state from its events.
    &["kifu-game"],
    // Tournament arithmetic: standings, then pairings from them.
    &["kifu-standings", "kifu-pairing"],
    // A tournament's chain and what it decides.
    &["kifu-tournament"],
    // Appeal bundles and their offline verifier.
    &["kifu-bundle"],
    // A data directory's documents: bundles made from the store, archives
    // verified with their tournament chain.
    &["kifu-archive"],
    // One interface over a local store or a server.
    &["kifu-client"],
    // Programs that write through the client, or mirror the store.
    &["kifu-match", "kifu-nats"],
    // The faces.
    &["kifu-server"],
    &["kifu-cli"],
];

/// Each crate's floor.
fn floor_of() -> BTreeMap<&'static str, usize> {
    FLOORS
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (*n, i)))
        .collect()
}

/// Every `(crate, dependency)` pair that breaks the floors: a dependency
/// on a higher floor, or a crate of the workspace with no floor.
fn violations(deps: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let floor = floor_of();
    let mut out = Vec::new();
    for (name, on) in deps {
        let Some(&mine) = floor.get(name.as_str()) else {
            out.push(format!("{name} has no floor in tests/floors.rs"));
            continue;
        };
        for d in on {
            match floor.get(d.as_str()) {
                Some(&theirs) if theirs > mine => out.push(format!(
                    "{name} (floor {mine}) depends on {d} (floor {theirs}, higher)"
                )),
                Some(_) => {}
                None => out.push(format!("{name} depends on {d}, which has no floor")),
            }
        }
    }
    out
}

/// The workspace crates each crate of `crates/` depends on in its
/// `[dependencies]` (and its target-specific ones), from its Cargo.toml.
fn normal_dependencies(root: &Path) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let dirs = std::fs::read_dir(root.join("crates")).expect("crates/");
    for dir in dirs {
        let manifest = dir.expect("entry").path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let v: toml::Value = toml::from_str(&text).expect("a Cargo.toml parses");
        let name = v["package"]["name"].as_str().expect("package.name");
        let mut tables: Vec<&toml::Value> = v.get("dependencies").into_iter().collect();
        if let Some(targets) = v.get("target").and_then(|t| t.as_table()) {
            tables.extend(targets.values().filter_map(|t| t.get("dependencies")));
        }
        let mut on: Vec<String> = tables
            .iter()
            .filter_map(|t| t.as_table())
            .flat_map(|t| t.keys())
            .filter(|k| k.starts_with("kifu-"))
            .cloned()
            .collect();
        on.sort();
        on.dedup();
        out.insert(name.to_string(), on);
    }
    out
}

#[test]
fn no_crate_depends_on_a_crate_of_a_higher_floor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let deps = normal_dependencies(&root);
    assert!(deps.len() >= 16, "the crates were not found: {deps:?}");
    let wrong = violations(&deps);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_store_stands_on_the_ledger_and_the_log_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let deps = normal_dependencies(&root);
    assert_eq!(deps["kifu-store"], ["kifu-ledger", "kifu-tlog"]);
}

#[test]
fn a_store_that_reached_up_to_the_game_would_be_refused() {
    let mut deps = BTreeMap::new();
    deps.insert(
        "kifu-store".to_string(),
        vec!["kifu-ledger".to_string(), "kifu-game".to_string()],
    );
    deps.insert("kifu-spare".to_string(), Vec::new());
    assert_eq!(
        violations(&deps),
        [
            "kifu-spare has no floor in tests/floors.rs",
            "kifu-store (floor 1) depends on kifu-game (floor 3, higher)",
        ]
    );
}
