//! The public JSON view: its fields, in words and numbers.

mod support;
use support::*;

#[test]
fn the_view_is_the_documented_contract() {
    let mut g = G::go("uec-cup");
    g.start_clock();
    g.mv(B, "ee");
    let s = g.mv(W, "ee");
    g.notice(B, s);
    let v = g.state().view();
    let j = serde_json::to_value(&v).unwrap();
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    for k in [
        "view_version",
        "game",
        "profile",
        "at_seq",
        "state_hash",
        "phase",
        "to_move",
        "board",
        "clocks",
        "consequences",
        "illegal_moves",
        "disputes",
        "appeals",
        "sanctions",
        "result",
    ] {
        assert!(keys.contains(&k), "missing {k}");
    }
    assert_eq!(j["view_version"], 1);
    assert_eq!(j["game"], "go");
    assert_eq!(j["result"]["by_rules"], "B+");
    assert_eq!(j["result"]["by_rules_words"], "B+ (illegal move)");
    assert!(j["result"]["rule"]
        .as_str()
        .unwrap()
        .contains("f) When illegal moves are played."));
    assert_eq!(j["board"]["rows"].as_array().unwrap().len(), 9);
    assert_eq!(j["clocks"]["resolution_ms"], 100);
    assert_eq!(j["state_hash"].as_str().unwrap().len(), 64);
    assert!(j["consequences"][0]["quote"].is_string());
}
