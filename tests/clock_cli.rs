//! `kifu clock replay` reproduces every clock vector exactly.

mod common;
use common::*;

#[test]
fn every_clock_vector_is_reproduced_by_kifu_clock_replay() {
    let path = project("clocks/vectors.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: the project's fixtures", path.display()));
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
    // Asked for JSON, the one error is a JSON object on standard error.
    let e: serde_json::Value = serde_json::from_str(&err(&o)).expect("a JSON error");
    assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    assert!(out(&o).is_empty());
}

#[test]
fn the_whole_vector_file_is_checked_at_once_and_a_wrong_answer_is_named() {
    let path = project("clocks/vectors.json");
    let t = tempfile::tempdir().unwrap();
    let o = ok(&run(
        t.path(),
        &["clock", "replay", path.to_str().unwrap(), "--json"],
    ));
    let report: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(report["checked"], 20);
    assert_eq!(report["differing"], 0);

    // One expected remaining time off by a second: that vector, and only it,
    // is reported, with where it differs, and the command fails.
    let mut all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let id = all["vectors"][0]["id"].as_str().unwrap().to_string();
    let states = &mut all["vectors"][0]["expected"]["states_after_each_event"][0]["B"]["main_ms"];
    *states = serde_json::json!(states.as_u64().unwrap() + 1000);
    let f = t.path().join("altered.json");
    std::fs::write(&f, all.to_string()).unwrap();
    let o = run(t.path(), &["clock", "replay", f.to_str().unwrap()]);
    assert!(!o.status.success());
    let text = out(&o);
    assert!(
        text.contains(&format!(
            "{id}: DIFFERS: at expected.states_after_each_event[0].B.main_ms"
        )),
        "{text}"
    );
    assert_eq!(text.matches("DIFFERS").count(), 1, "{text}");
    assert!(text.contains("19 of 20 vectors reproduced"), "{text}");
    assert!(
        err(&o).starts_with("kifu: error: 1 of 20 clock vectors differ"),
        "{}",
        err(&o)
    );
}
