//! After the result: nobody is to move, no clock runs, and the device view
//! says so as the replay does (a resignation, a count, the result sheets
//! both players signed).

mod support;
use support::*;

use kifu_game::document::device_json;
use kifu_game::Phase;
use kifu_ledger::*;
use serde_json::Value;

fn device(g: &G) -> Value {
    device_json(&g.chain.game, &g.events, true, None)
}

#[test]
fn lgc_2023_resignation_nobody_is_to_move_and_the_clocks_stop() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(10_000);
    g.mv(B, "ee");
    g.at(20_000);
    g.mv(W, "cc");
    g.at(30_000);
    g.push(
        B,
        Body::Resigned {
            player: B,
            manner: Resignation::Spoken,
        },
    );
    let st = g.state();
    assert_eq!(st.to_move, None);
    assert_eq!(st.clock.running, None);
    assert_eq!(st.clock.paused, None);
    assert_eq!(st.clock.flag_at_ms, None);
    let black = st.clock_faces().unwrap()[0];
    let dev = device(&g);
    assert_eq!(dev["state"]["to_move"], Value::Null);
    assert_eq!(dev["state"]["clock"]["running"], Value::Null);
    assert_eq!(dev["text"]["to_move"], Value::Null);
    assert_eq!(dev["text"]["result"], "W+R");
    // Ten minutes later the sheets: Black's clock shows what it showed.
    g.at(10 * MIN);
    g.push(
        W,
        Body::ResultSheetSigned {
            result: win(W, ResultBy::Resignation),
            under_protest: false,
        },
    );
    let st = g.state();
    assert_eq!(st.clock_faces().unwrap()[0], black);
    assert_eq!(st.to_move, None);
    // A press after the result starts no clock.
    g.push(B, Body::ClockPressed { player: B });
    assert_eq!(g.state().clock.running, None);
}

#[test]
fn lgc_2023_player_responsibility_both_sheets_signed_alike_end_the_game() {
    let mut g = G::go("lgc-2023");
    g.at(0);
    g.start_clock();
    g.at(10_000);
    g.mv(B, "ee");
    // The players count on the board and sign the same result.
    let result = win(
        B,
        ResultBy::Score {
            margin_half_points: 7,
        },
    );
    g.at(60_000);
    g.push(
        B,
        Body::ResultSheetSigned {
            result: result.clone(),
            under_protest: false,
        },
    );
    let st = g.state();
    assert_eq!(st.to_move, Some(W), "one sheet ends nothing");
    assert_eq!(st.clock.running, Some(W));
    g.at(70_000);
    g.push(
        W,
        Body::ResultSheetSigned {
            result: result.clone(),
            under_protest: false,
        },
    );
    let st = g.state();
    assert!(st.is_over());
    assert_eq!(st.to_move, None);
    assert_eq!(st.clock.running, None);
    assert!(
        matches!(st.phase, Phase::Finished { ref how } if how.contains("signed by both players"))
    );
    let dev = device(&g);
    assert_eq!(dev["state"]["to_move"], Value::Null);
    assert_eq!(dev["state"]["clock"]["running"], Value::Null);
    assert!(dev["text"]["result"]
        .as_str()
        .unwrap()
        .contains("signed by both players"));
    assert_eq!(
        dev["state"]["result"]["missing_signatures"],
        Value::Array(vec![])
    );
}

#[test]
fn sheets_that_differ_end_nothing() {
    let mut g = G::go("lgc-2023");
    g.start_clock();
    g.mv(B, "ee");
    g.push(
        B,
        Body::ResultSheetSigned {
            result: win(B, ResultBy::Resignation),
            under_protest: false,
        },
    );
    g.push(
        W,
        Body::ResultSheetSigned {
            result: win(W, ResultBy::Resignation),
            under_protest: false,
        },
    );
    let st = g.state();
    assert!(!st.is_over());
    assert_eq!(st.to_move, Some(W));
}
