//! Every text field of every kind, filled with arbitrary Unicode, is read
//! as characters: signed, verified and projected (the state, the device
//! view, the explanation), accepted or refused, never a panic.

use kifu_ledger::testkit::{committee_keys, every_kind, Cast, ChainBuilder};
use kifu_ledger::{verify_records, Body, Event};
use proptest::prelude::*;
use serde_json::Value;

/// Replaces, one after another, every string of `v` that can be replaced
/// (a free text, not a variant's name) by the next of `texts`; how many
/// were.
fn fill(v: &mut Value, texts: &mut impl Iterator<Item = String>) -> usize {
    let mut replaced = 0;
    let mut path = Vec::new();
    let mut places = Vec::new();
    collect(v, &mut path, &mut places);
    for place in places {
        let Some(text) = texts.next() else {
            return replaced;
        };
        let mut tried = v.clone();
        *pointer(&mut tried, &place) = Value::String(text);
        // A variant's name replaced no longer reads as a body: kept as it was.
        if serde_json::from_value::<Body>(tried.clone()).is_ok() {
            *v = tried;
            replaced += 1;
        }
    }
    replaced
}

fn collect(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::String(_) => out.push(path.clone()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Value::from(i));
                collect(x, path, out);
                path.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                path.push(Value::String(k.clone()));
                collect(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn pointer<'a>(v: &'a mut Value, place: &[Value]) -> &'a mut Value {
    place.iter().fold(v, |v, step| match step {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap_or(0) as usize],
        _ => v,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn any_text_in_any_field_of_any_kind_is_read_as_characters(
        texts in proptest::collection::vec("\\PC{0,12}", 400),
    ) {
        let cast = Cast::new();
        let committee = committee_keys();
        let mut texts = texts.into_iter().cycle();
        let mut genesis = serde_json::to_value(Body::GameCreated(cast.genesis("any text"))).unwrap();
        let mut replaced = fill(&mut genesis, &mut texts);
        let Ok(Body::GameCreated(genesis)) = serde_json::from_value::<Body>(genesis) else {
            panic!("each text was put in only where the genesis still reads");
        };
        let mut chain = ChainBuilder::start(&cast.referee, genesis, 1_767_225_600_000);
        for (key, body) in every_kind(&cast, &committee) {
            let mut v = serde_json::to_value(&body).unwrap();
            replaced += fill(&mut v, &mut texts);
            let body: Body = serde_json::from_value(v).unwrap_or(body);
            chain.push(key, body);
        }
        // The genesis's title and names, the reasons, decisions, grounds
        // and statements: dozens of free texts in all.
        prop_assert!(replaced >= 20, "only {replaced} texts replaced");
        let report = verify_records(&chain.records);
        let events: Vec<Event> = chain.records.iter().filter_map(|r| r.decode().ok()).collect();
        let state = kifu_game::GameState::replay(&events);
        let _ = serde_json::to_string(&state);
        let _ = kifu_game::document::device_json(&chain.game, &events, report.ok(), None);
        let _ = kifu_game::explanation::explanation_text(&chain.game, &events, report.ok());
    }
}
