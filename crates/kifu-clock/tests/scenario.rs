//! Scripted queries beyond the shared vectors: the extra event types, the
//! stop at the first flag, and errors.

use kifu_clock::{replay_scenario, ClockError, Player, Scenario};
use serde_json::{json, Value};

fn replay(scenario: Value) -> Result<Value, ClockError> {
    // The way the command line uses it: text in, text out.
    let scenario: Scenario = serde_json::from_str(&scenario.to_string()).expect("scenario parses");
    let output = replay_scenario(&scenario)?;
    Ok(serde_json::from_str(&serde_json::to_string(&output).unwrap()).unwrap())
}

#[test]
fn events_after_the_first_flag_are_not_applied() {
    let out = replay(json!({
        "system": "absolute", "params": {"main_ms": 10000}, "start_ms": 0,
        "events": [
            {"t": 12000, "type": "pause", "reason": "TOILET"},
            {"t": 13000, "type": "resume"},
            {"t": 14000, "type": "press", "player": "B"}
        ],
        "end_ms": null
    }))
    .unwrap();
    assert_eq!(
        out,
        json!({"states_after_each_event": [], "result": {"loss_on_time": "B", "at_ms": 10000}})
    );
}

#[test]
fn referee_adjustment_and_resume_with_a_side_are_scriptable() {
    let out = replay(json!({
        "system": "fischer", "params": {"main_ms": 60000, "increment_ms": 30000}, "start_ms": 0,
        "events": [
            {"t": 10000, "type": "press", "player": "B"},
            {"t": 12000, "type": "pause", "reason": "CALL_REFEREE"},
            {"t": 20000, "type": "adjust", "player": "B", "delta_ms": -30000, "reason": "press by mistake"},
            {"t": 20000, "type": "adjust", "player": "W", "delta_ms": 2000},
            {"t": 21000, "type": "resume", "player": "B"}
        ],
        "end_ms": 100000
    }))
    .unwrap();
    let states = out["states_after_each_event"].as_array().unwrap();
    assert_eq!(states.len(), 5);
    assert_eq!(
        states[4],
        json!({
            "after_event_t": 21000, "to_move": "B",
            "B": {"main_ms": 50000}, "W": {"main_ms": 60000}, "flag_at_ms": 71000
        })
    );
    assert_eq!(out["result"], json!({"loss_on_time": "B", "at_ms": 71000}));
}

#[test]
fn a_press_out_of_turn_is_an_error_not_a_result() {
    let err = replay(json!({
        "system": "simple", "params": {"per_move_ms": 30000}, "start_ms": 0,
        "events": [{"t": 1000, "type": "press", "player": "W"}], "end_ms": null
    }))
    .unwrap_err();
    assert_eq!(
        err,
        ClockError::NotOnMove {
            player: Player::White,
            to_move: Player::Black,
            at_ms: 1000
        }
    );
}

#[test]
fn a_missing_parameter_is_named() {
    let err = replay(json!({
        "system": "byoyomi", "params": {"main_ms": 1000, "periods": 3}, "start_ms": 0,
        "events": [], "end_ms": null
    }))
    .unwrap_err();
    assert_eq!(
        err,
        ClockError::MissingParameter {
            system: "byoyomi",
            param: "period_ms"
        }
    );
}

#[test]
fn end_ms_before_the_flag_gives_no_result() {
    let out = replay(json!({
        "system": "canadian", "params": {"main_ms": 0, "stones": 2, "block_ms": 20000}, "start_ms": 5000,
        "events": [], "end_ms": 24999
    }))
    .unwrap();
    assert_eq!(out, json!({"states_after_each_event": [], "result": null}));
}
