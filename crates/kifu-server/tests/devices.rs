//! A device request is proof of possession (`POST /devices`): signed by the
//! device's own key, changed or withdrawn only by it, never made younger by
//! sending it again, and bounded per address.

use kifu_game::seat::SignedRequest;
use kifu_ledger::Keypair;
use kifu_server::ConnLimits;
use serde_json::{json, Value};

mod common;

fn post(url: &str, body: &[u8], signature: Option<&str>) -> (u16, Value) {
    let mut r = ureq::post(&format!("{url}/devices")).set("Content-Type", "application/json");
    if let Some(s) = signature {
        r = r.set("Kifu-Device-Signature", s);
    }
    match r.send_bytes(body) {
        Ok(r) => (r.status(), r.into_json().unwrap()),
        Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap()),
        Err(e) => panic!("{e}"),
    }
}

fn request(key: &Keypair, board: u32, at: u64) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "key": key.public(), "role": "black", "name": "Ann",
        "tournament": "Open", "round": 1, "board": board, "signed_at_ms": at,
    }))
    .unwrap()
}

fn ask(url: &str, key: &Keypair, body: &[u8]) -> (u16, Value) {
    post(url, body, Some(&SignedRequest::sign(key, body)))
}

#[test]
fn only_the_device_holding_the_key_asks_changes_or_withdraws_its_request() {
    let server = common::start(None, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let device = Keypair::from_seed([3; 32]);
    let outsider = Keypair::from_seed([4; 32]);
    // Unsigned, or signed by another key: refused, nothing kept.
    let body = request(&device, 1, 10);
    let (s, e) = post(&url, &body, None);
    assert_eq!(s, 403, "{e}");
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("signed by the device's own key"));
    let (s, e) = post(&url, &body, Some(&SignedRequest::sign(&outsider, &body)));
    assert_eq!(s, 403, "{e}");
    let listed: Value = ureq::get(&format!("{url}/devices"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(listed["requests"], json!([]));
    // Signed, but not sent as JSON: refused for its type.
    let r = ureq::post(&format!("{url}/devices"))
        .set("Content-Type", "text/plain")
        .set(
            "Kifu-Device-Signature",
            &SignedRequest::sign(&device, &body),
        )
        .send_bytes(&body);
    assert!(matches!(r, Err(ureq::Error::Status(415, _))), "{r:?}");
    // Signed by the device: kept.
    let (s, first) = ask(&url, &device, &body);
    assert_eq!(s, 201, "{first}");
    // Anyone who reads its public key from `GET /devices` cannot move it
    // to another board: the signature is the key's.
    let moved = request(&device, 2, 11);
    let (s, _) = post(&url, &moved, Some(&SignedRequest::sign(&outsider, &moved)));
    assert_eq!(s, 403);
    // Sent again, the same request is the same, as old as it was.
    let (s, again) = ask(&url, &device, &body);
    assert_eq!((s, &again["at_ms"]), (200, &first["at_ms"]));
    // The device moves itself to board 2: the same request, the same age.
    let (s, now) = ask(&url, &device, &moved);
    assert_eq!(s, 200, "{now}");
    assert_eq!(
        (&now["id"], &now["at_ms"], &now["board"]),
        (&first["id"], &first["at_ms"], &json!(2))
    );
    // The board-1 request replayed: refused, the seat stays at board 2.
    let (s, e) = ask(&url, &device, &body);
    assert_eq!(s, 409, "{e}");
    // Withdrawn by another key: refused; by the device: gone.
    let withdraw = serde_json::to_vec(&json!({
        "key": device.public(), "role": "black", "name": "Ann", "signed_at_ms": 12, "withdraw": true,
    }))
    .unwrap();
    let (s, _) = post(
        &url,
        &withdraw,
        Some(&SignedRequest::sign(&outsider, &withdraw)),
    );
    assert_eq!(s, 403);
    let (s, gone) = ask(&url, &device, &withdraw);
    assert_eq!((s, &gone["id"]), (200, &first["id"]));
    let listed: Value = ureq::get(&format!("{url}/devices"))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(listed["requests"], json!([]));
}

#[test]
fn one_address_cannot_fill_the_list_every_board_needs() {
    let server = common::start(None, ConnLimits::default());
    let url = format!("http://{}", server.addr);
    let mut refused = 0;
    for i in 0..(kifu_server::device::MAX_REQUESTS_PER_CLIENT as u32 + 10) {
        let mut seed = [9u8; 32];
        seed[..4].copy_from_slice(&i.to_le_bytes());
        let k = Keypair::from_seed(seed);
        let (s, _) = ask(&url, &k, &request(&k, i + 1, 1));
        if s == 429 {
            refused += 1;
        }
    }
    assert_eq!(refused, 10);
}
