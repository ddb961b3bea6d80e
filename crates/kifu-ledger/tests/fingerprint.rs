//! Key fingerprints (`docs/FORMAT.md`, section 8) are those of
//! `fixtures/format/fingerprints.json`, computed with the reference BLAKE3
//! and checked by the browser's record library too.

use kifu_ledger::PublicKey;

#[test]
fn fingerprints_are_the_fixture_s() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/format/fingerprints.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    assert_eq!(
        v["domain"].as_str().unwrap().as_bytes(),
        kifu_ledger::key::FINGERPRINT_DOMAIN
    );
    let keys = v["keys"].as_array().unwrap();
    assert!(keys.len() >= 10);
    for k in keys {
        let key = PublicKey::from_hex(k["public_key"].as_str().unwrap()).unwrap();
        assert_eq!(
            key.fingerprint(),
            k["fingerprint"].as_str().unwrap(),
            "{}",
            k["name"]
        );
    }
}

#[test]
fn different_keys_have_different_fingerprints() {
    let a = PublicKey([1; 32]).fingerprint();
    let b = PublicKey([2; 32]).fingerprint();
    assert_ne!(a, b);
    assert!(a.chars().all(|c| c == ' ' || c.is_ascii_hexdigit()));
}
