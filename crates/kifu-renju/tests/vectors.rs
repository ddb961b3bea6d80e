//! Every forbidden-move and five vector of `fixtures/renju/vectors.json`, and the
//! RenjuNet advanced-tutorial positions, answered by `check`.

use std::path::PathBuf;

use kifu_renju::{check, parse_moves, stones_from_moves, Point, Rule, Stone};
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/renju")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "renju fixture missing: cannot read {} ({e}); the vectors are required, not optional",
            path.display()
        )
    });
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("fixture {} is not JSON: {e}", path.display()))
}

fn points(v: &Value, field: &str, id: &str) -> Vec<Point> {
    v[field]
        .as_array()
        .unwrap_or_else(|| panic!("{id}: field {field} missing"))
        .iter()
        .map(|s| {
            let s = s
                .as_str()
                .unwrap_or_else(|| panic!("{id}: {field} not strings"));
            s.parse()
                .unwrap_or_else(|e| panic!("{id}: {field} has bad point {s}: {e}"))
        })
        .collect()
}

fn sorted(mut v: Vec<Point>) -> Vec<Point> {
    v.sort();
    v
}

#[test]
fn every_vector_in_vectors_json_is_answered_correctly() {
    let data = fixture("vectors.json");
    let vectors = data["vectors"].as_array().expect("vectors array");
    let mut failures = Vec::new();
    let mut passed = 0;
    for v in vectors {
        let id = v["id"].as_str().expect("id");
        let black = points(v, "black", id);
        let white = points(v, "white", id);
        let query: Point = v["query"]
            .as_str()
            .expect("query")
            .parse()
            .expect("query point");
        let colour: Stone = v["query_color"]
            .as_str()
            .expect("colour")
            .parse()
            .expect("colour");
        let expected = v["expected"].as_str().expect("expected");
        let expected_forbidden = v["forbidden"].as_bool().expect("forbidden");

        // The replayable move order gives the same position.
        let moves = v["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("move"))
            .collect::<Vec<_>>()
            .join(",");
        let moves = parse_moves(&moves).expect("moves parse");
        let (mb, mw, _) = stones_from_moves(&moves).expect("moves replay");
        assert_eq!(
            sorted(mb),
            sorted(black.clone()),
            "{id}: moves give other black stones"
        );
        assert_eq!(
            sorted(mw),
            sorted(white.clone()),
            "{id}: moves give other white stones"
        );

        let out = check(&black, &white, query, colour, Rule::RifRenju).expect("check");
        let json = serde_json::to_value(out).expect("serialise");
        if json["verdict"] != expected || json["forbidden"] != expected_forbidden {
            failures.push(format!("{id}: expected {expected}, got {json}"));
        } else {
            passed += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "failed vectors:\n{}",
        failures.join("\n")
    );
    println!("renju vectors passed: {passed} of {}", vectors.len());
    assert_eq!(passed, 54, "vectors.json should hold 54 vectors");
}

#[test]
fn the_interpretation_vector_follows_the_literal_rif_three() {
    let data = fixture("vectors.json");
    let v = data["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .find(|v| v["group"] == "interpretation")
        .expect("the interpretation vector");
    let id = v["id"].as_str().expect("id");
    let out = check(
        &points(v, "black", id),
        &points(v, "white", id),
        "h8".parse().expect("h8"),
        Stone::Black,
        Rule::RifRenju,
    )
    .expect("check");
    // RIF 3, "three": "without at the same time a five in a row is made".
    assert_eq!(out.verdict.name(), "legal");
}

/// The tutorial's labels mapped to the verdict vocabulary.
fn label_verdict(label: &str) -> &'static str {
    if label.starts_with("not forbidden") {
        "legal"
    } else if label.starts_with("6 ") {
        "overline"
    } else if label.starts_with("4x4") {
        // 4x4, 4x4x4, 4x4x3: double-four is checked before double-three.
        "double_four"
    } else if label.starts_with("3x3") || label.starts_with("4x3x3") {
        "double_three"
    } else {
        panic!("unknown tutorial label {label}")
    }
}

#[test]
fn renjunet_advanced_tutorial_positions_match_their_labels() {
    let data = fixture("renjunet-advanced-fixtures.json");
    let cases = data.as_array().expect("array of positions");
    let mut passed = 0;
    for c in cases {
        let id = c["id"].as_str().expect("id");
        let black = points(c, "black", id);
        let white = points(c, "white", id);
        let probe: Point = c["probe"].as_str().expect("probe").parse().expect("probe");
        // The stone lists are the position after the tutorial's edits; cross-check them
        // against the diagram (row 15 first).
        let board = c["board"].as_array().expect("board");
        for (r, line) in board.iter().enumerate() {
            for (col, ch) in line.as_str().expect("row").chars().enumerate() {
                let p = Point::new(col as u8, 14 - r as u8).expect("on board");
                match ch {
                    'B' => assert!(black.contains(&p), "{id}: diagram black {p}"),
                    'W' => assert!(white.contains(&p), "{id}: diagram white {p}"),
                    _ => assert!(!black.contains(&p) && !white.contains(&p), "{id}: {p}"),
                }
            }
        }
        let expected = label_verdict(c["expected"].as_str().expect("label"));
        let out = check(&black, &white, probe, Stone::Black, Rule::RifRenju).expect("check");
        assert_eq!(out.verdict.name(), expected, "{id}");
        passed += 1;
    }
    assert_eq!(passed, 23);
}
