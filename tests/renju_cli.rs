//! `kifu renju check` answers every Renju vector.

mod common;
use common::*;

#[test]
fn every_renju_vector_is_answered_by_kifu_renju_check() {
    let path = project("renju/vectors.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: the project's fixtures", path.display()));
    let all: serde_json::Value = serde_json::from_str(&text).unwrap();
    let t = tempfile::tempdir().unwrap();
    let mut n = 0;
    for v in all["vectors"].as_array().unwrap() {
        let list = |k: &str| {
            v[k].as_array()
                .map(|a| {
                    a.iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_default()
        };
        let color = v["query_color"].as_str().unwrap().to_string();
        let query = v["query"].as_str().unwrap().to_string();
        let (b, w) = (list("black"), list("white"));
        let o = ok(&run(
            t.path(),
            &[
                "renju", "check", "--black", &b, "--white", &w, "--query", &query, "--color",
                &color, "--json",
            ],
        ));
        let got: serde_json::Value = serde_json::from_str(&o).unwrap();
        assert_eq!(got["verdict"], v["expected"], "vector {}", v["id"]);
        assert_eq!(got["forbidden"], v["forbidden"], "vector {}", v["id"]);
        // The same position given as a move list.
        if v["moves"].is_array() {
            let o = ok(&run(
                t.path(),
                &[
                    "renju",
                    "check",
                    "--moves",
                    &list("moves"),
                    "--query",
                    &query,
                    "--color",
                    &color,
                    "--json",
                ],
            ));
            let got: serde_json::Value = serde_json::from_str(&o).unwrap();
            assert_eq!(
                got["verdict"], v["expected"],
                "vector {} via --moves",
                v["id"]
            );
        }
        n += 1;
    }
    assert_eq!(n, 54);
}

#[test]
fn a_bad_coordinate_is_one_clear_error() {
    let t = tempfile::tempdir().unwrap();
    let o = run(
        t.path(),
        &[
            "renju", "check", "--black", "h8,z99", "--query", "h9", "--json",
        ],
    );
    assert!(!o.status.success());
    // Asked for JSON, the one error is a JSON object on standard error.
    let e: serde_json::Value = serde_json::from_str(&err(&o)).expect("a JSON error");
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("z99")),
        "{e}"
    );
}

#[test]
fn the_rules_offered_are_kifu_renju_s() {
    let t = tempfile::tempdir().unwrap();
    let help = ok(&run(t.path(), &["renju", "check", "--help"]));
    assert!(help.contains("[default: rif-renju]"), "{help}");
    assert!(help.contains("gomoku-freestyle"), "{help}");
    // Any case, as the rule's own reading takes it.
    let o = ok(&run(
        t.path(),
        &[
            "renju",
            "check",
            "--black",
            "h8",
            "--query",
            "h9",
            "--rule",
            "Gomoku-Freestyle",
            "--json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["forbidden"], false, "{v}");
    let o = run(
        t.path(),
        &[
            "renju",
            "check",
            "--black",
            "h8",
            "--query",
            "h9",
            "--rule",
            "renju-2000",
        ],
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("rif-renju"), "{}", err(&o));
}
