//! The board device's view (`document::device_json`): the whole replay
//! document at the head, less what grows with every move and a device never
//! reads, so that following a game costs about the same at move 250 as at
//! move 10.

use kifu_game::document::{device_json, replay_json};
use kifu_ledger::testkit::{moves_game, sample_game, Cast};
use kifu_ledger::Event;
use serde_json::{json, Value};

fn decoded(c: &kifu_ledger::testkit::ChainBuilder) -> Vec<Event> {
    c.records.iter().map(|r| r.decode().unwrap()).collect()
}

#[test]
fn the_device_view_is_the_whole_document_less_the_history() {
    let cast = Cast::new();
    let c = sample_game(&cast, "device view");
    let events = decoded(&c);
    let last = events.last().unwrap().seq;
    let whole = replay_json(&c.game, &events, last, true);
    let dev = device_json(&c.game, &events, true, None);
    // Everything a device reads is the same.
    for k in [
        "game",
        "verified",
        "last_seq",
        "board_view",
        "result_computed",
        "view",
        "text",
    ] {
        assert_eq!(dev[k], whole[k], "{k}");
    }
    for k in [
        "genesis",
        "clock",
        "to_move",
        "phase",
        "result",
        "disputes",
        "dead_marks",
        "consequences",
    ] {
        assert_eq!(dev["state"][k], whole["state"][k], "state.{k}");
    }
    assert_eq!(dev["state"]["events"], Value::Null);
    assert_eq!(dev["state"]["move_clocks"], Value::Null);
    assert!(dev["state"]["board"].get("verdicts").is_none());
    // The last move of each player, in their order, and nothing else.
    let ops = whole["state"]["board"]["ops"].as_array().unwrap();
    let last_of = |who: &str| {
        ops.iter()
            .rev()
            .find(|o| o["op"] == json!("move") && o["player"] == json!(who))
            .cloned()
    };
    let mut want: Vec<Value> = [last_of("black"), last_of("white")]
        .into_iter()
        .flatten()
        .collect();
    want.sort_by_key(|o| o["seq"].as_u64());
    assert!(!want.is_empty());
    assert_eq!(dev["state"]["board"]["ops"], json!(want));
}

#[test]
fn only_the_consequences_after_since_are_sent() {
    let cast = Cast::new();
    let c = sample_game(&cast, "device since");
    let events = decoded(&c);
    let all = device_json(&c.game, &events, true, None)["state"]["consequences"]
        .as_array()
        .unwrap()
        .clone();
    assert!(all.len() >= 2, "{all:?}");
    let cut = all[all.len() / 2]["at_seq"].as_u64().unwrap();
    let after = device_json(&c.game, &events, true, Some(cut))["state"]["consequences"]
        .as_array()
        .unwrap()
        .clone();
    let want: Vec<Value> = all
        .iter()
        .filter(|c| c["at_seq"].as_u64().unwrap() > cut)
        .cloned()
        .collect();
    assert_eq!(after, want);
    assert!(after.len() < all.len());
    let last = events.last().unwrap().seq;
    let none = device_json(&c.game, &events, true, Some(last));
    assert_eq!(none["state"]["consequences"], json!([]));
}

#[test]
fn the_device_view_does_not_grow_with_the_game() {
    let cast = Cast::new();
    let size = |moves: u16| {
        let c = moves_game(&cast, "device size", moves);
        let events = decoded(&c);
        let last = events.last().unwrap().seq;
        let dev = device_json(&c.game, &events, true, Some(last))
            .to_string()
            .len();
        let whole = replay_json(&c.game, &events, last, true).to_string().len();
        (dev, whole)
    };
    let (dev10, _) = size(10);
    let (dev250, whole250) = size(250);
    // The board's picture is the same size at any move; what differs is a
    // few counts and clock figures.
    assert!(
        dev250 < dev10 + 2_000,
        "{dev10} bytes at move 10, {dev250} at move 250"
    );
    assert!(dev250 * 10 < whole250, "{dev250} against {whole250}");
}

/// A server keeps each game's state at its head and builds the documents
/// from it (`device_view_of`, `replay_json_of`): the same bytes as from the
/// events, at every head of a game.
#[test]
fn the_views_of_a_kept_state_equal_those_replayed_from_the_events() {
    use kifu_game::document::{device_view, device_view_of, replay_json_of};
    use kifu_game::GameState;
    let cast = Cast::new();
    let c = sample_game(&cast, "kept state");
    let events = decoded(&c);
    let mut kept = GameState::new();
    for (i, e) in events.iter().enumerate() {
        kept.apply(e);
        let upto = &events[..=i];
        let since = e.seq.checked_sub(2);
        assert_eq!(
            device_view_of(&c.game, &kept, e.seq, true, since),
            device_view(&c.game, upto, true, since),
            "device view at {}",
            e.seq
        );
        assert_eq!(
            replay_json_of(&c.game, &kept, e.seq, true),
            replay_json(&c.game, upto, e.seq, true),
            "replay document at {}",
            e.seq
        );
    }
}

/// The summary of a kept state (`game_summary_of`) is the summary replayed
/// from the events, at every head.
#[test]
fn the_summary_of_a_kept_state_equals_the_one_replayed() {
    use kifu_game::document::{game_summary, game_summary_of, GameHead};
    use kifu_game::GameState;
    let cast = Cast::new();
    let c = sample_game(&cast, "kept summary");
    let events = decoded(&c);
    let mut kept = GameState::new();
    for (i, e) in events.iter().enumerate() {
        kept.apply(e);
        let head = || GameHead {
            seq: e.seq,
            hash: "h".into(),
        };
        assert_eq!(
            game_summary_of(&c.game, &kept, &events[..=i], head()),
            game_summary(&c.game, &events[..=i], head()),
            "at {}",
            e.seq
        );
    }
}
