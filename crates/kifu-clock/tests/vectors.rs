//! The clock vectors (`fixtures/clocks/vectors.json`), reproduced exactly.

use kifu_clock::{replay_scenario, Scenario};
use serde_json::Value;

fn vectors() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/clocks/vectors.json"
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("clock vectors missing at {path}: {e}; this test needs them"));
    let doc: Value = serde_json::from_str(&text).expect("vectors.json is not JSON");
    let vectors = doc["vectors"]
        .as_array()
        .expect("vectors.json has no \"vectors\" array")
        .clone();
    assert!(
        !vectors.is_empty(),
        "vectors.json has an empty \"vectors\" array"
    );
    vectors
}

#[test]
fn every_vector_reproduces_its_expected_states_and_result() {
    let mut failures = Vec::new();
    let vectors = vectors();
    for vector in &vectors {
        let id = vector["id"].as_str().unwrap_or("?");
        let scenario: Scenario = serde_json::from_value(vector.clone())
            .unwrap_or_else(|e| panic!("vector {id} does not parse as a Scenario: {e}"));
        let output = replay_scenario(&scenario).unwrap_or_else(|e| panic!("vector {id}: {e}"));
        let got = serde_json::to_value(&output).expect("output serializes");
        if got != vector["expected"] {
            failures.push(format!(
                "{id}:\n  expected {}\n  got      {got}",
                vector["expected"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
    assert!(
        vectors.len() >= 20,
        "expected at least the 20 published vectors, found {}",
        vectors.len()
    );
}

#[test]
fn expected_output_deserializes_into_the_output_type_and_back() {
    for vector in vectors() {
        let expected: kifu_clock::ScenarioOutput =
            serde_json::from_value(vector["expected"].clone()).expect("expected parses");
        assert_eq!(serde_json::to_value(&expected).unwrap(), vector["expected"]);
    }
}
