//! The replay page's stepping view (`document::step_json`): the same board,
//! state hash and words as the whole replay document at every event, the
//! case as `kifu replay` words it, and a fraction of the size.

use kifu_game::document::{explain_json, replay_json, step_json};
use kifu_ledger::testkit::{sample_game, Cast, ChainBuilder};
use kifu_ledger::{Body, Color, Event, Resignation};
use serde_json::{json, Value};

fn events() -> (kifu_ledger::Hash, Vec<Event>) {
    let cast = Cast::new();
    let c = sample_game(&cast, "step view");
    let events = c.records.iter().map(|r| r.decode().unwrap()).collect();
    (c.game, events)
}

#[test]
fn every_step_shows_what_the_whole_document_shows_in_a_fraction_of_it() {
    let (game, events) = events();
    let last = events.last().unwrap().seq;
    for at in 0..=last {
        let whole = replay_json(&game, &events, at, true);
        let step = step_json(&game, &events, at, true);
        assert_eq!(step["at"], json!(at));
        assert_eq!(step["last_seq"], json!(last));
        assert_eq!(step["verified"], json!(true));
        assert_eq!(step["board"], whole["board_view"], "event {at}");
        assert_eq!(
            step["state_hash"], whole["view"]["state_hash"],
            "event {at}"
        );
        assert_eq!(step["text"]["phase"], whole["text"]["phase"], "event {at}");
        // The last stone placed so far (no stone of this game is taken).
        let placed = events[..=at as usize]
            .iter()
            .rev()
            .find_map(|e| match &e.body {
                Body::StonePlaced { point, .. } => Some(json!({"x": point.x, "y": point.y})),
                _ => None,
            });
        assert_eq!(
            step["last_move"],
            placed.unwrap_or(Value::Null),
            "event {at}"
        );
        let (small, big) = (step.to_string().len(), whole.to_string().len());
        assert!(
            small * 3 < big || at < 3,
            "event {at}: {small} bytes against {big}"
        );
    }
}

#[test]
fn the_case_is_worded_as_kifu_replay_words_it_and_the_game_over_has_nobody_to_move() {
    let (game, events) = events();
    let ruling = events
        .iter()
        .find(|e| matches!(e.body, Body::RefereeRuling(_)))
        .unwrap()
        .seq;
    let step = step_json(&game, &events, ruling, true);
    let case: Vec<&str> = step["case"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        case.contains(
            &format!("ruling at event {ruling} (clarification): play on -> the referee clarifies the rules: no judgement is made and the matter is ended").as_str()
        ),
        "{case:?}"
    );
    assert!(case.contains(&"result by the rules: none yet"), "{case:?}");

    // A game that ends: White resigns with Black's clock running.
    let cast = Cast::new();
    let mut c = ChainBuilder::start(&cast.referee, cast.genesis("resigned"), 1_767_225_600_000);
    c.push(
        &cast.referee,
        Body::ClockStarted {
            running: Color::Black,
        },
    );
    c.push(
        &cast.white,
        Body::Resigned {
            player: Color::White,
            manner: Resignation::Spoken,
        },
    );
    let (game, events): (_, Vec<Event>) = (
        c.game,
        c.records.iter().map(|r| r.decode().unwrap()).collect(),
    );
    let last = events.last().unwrap().seq;
    let whole = replay_json(&game, &events, last, true);
    let step = step_json(&game, &events, last, true);
    assert!(
        !whole["result_computed"].is_null(),
        "the rules give a result"
    );
    // Every view agrees: after the result nobody is to move and no clock
    // runs.
    assert_eq!(whole["text"]["to_move"], Value::Null);
    assert_eq!(whole["state"]["to_move"], Value::Null);
    assert_eq!(whole["state"]["clock"]["running"], Value::Null);
    assert_eq!(step["text"]["to_move"], Value::Null);
    assert_eq!(step["text"]["paused"], Value::Null);
    assert!(step["text"]["result"].is_string());
}

#[test]
fn the_story_names_its_notable_events_in_order() {
    let (game, events) = events();
    let story = explain_json(&game, &events, true);
    let notable = story["notable"].as_array().unwrap();
    let ruling = events
        .iter()
        .find(|e| matches!(e.body, Body::RefereeRuling(_)))
        .unwrap()
        .seq;
    assert!(
        notable.contains(&json!({"seq": ruling, "why": "ruling"})),
        "{notable:?}"
    );
    let seqs: Vec<u64> = notable.iter().map(|n| n["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] <= w[1]), "{seqs:?}");
    // Moves and clock presses are routine.
    for n in notable {
        let e = &events[n["seq"].as_u64().unwrap() as usize];
        assert!(!matches!(e.body, Body::ClockPressed { .. }), "{n}");
    }
}
