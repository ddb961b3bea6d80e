//! `kifu clock replay` reproduces every shared clock vector exactly.

mod common;
use common::*;

#[test]
fn every_clock_vector_is_reproduced_by_kifu_clock_replay() {
    let path = shared().join("fixtures/clocks/vectors.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the shared fixtures must sit beside the project",
            path.display()
        )
    });
    let all: serde_json::Value = serde_json::from_str(&text).unwrap();
    let vectors = all["vectors"].as_array().unwrap();
    let t = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for v in vectors {
        let f = t.path().join("v.json");
        std::fs::write(&f, v.to_string()).unwrap();
        let o = ok(&run(
            t.path(),
            &["clock", "replay", f.to_str().unwrap(), "--json"],
        ));
        let got: serde_json::Value = serde_json::from_str(&o).unwrap();
        assert_eq!(got, v["expected"], "vector {}", v["id"]);
        checked += 1;
    }
    assert_eq!(checked, 20);
}

#[test]
fn a_bad_scenario_is_one_clear_error() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("bad.json");
    std::fs::write(&f, r#"{"system":"hourglass"}"#).unwrap();
    let o = run(
        t.path(),
        &["clock", "replay", f.to_str().unwrap(), "--json"],
    );
    assert!(!o.status.success());
    assert!(err(&o).starts_with("kifu: error:"), "{}", err(&o));
    assert!(out(&o).is_empty());
}
