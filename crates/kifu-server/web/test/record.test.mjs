// The record library against every vector of fixtures/format/: byte-identical
// bodies, envelopes, signatures and hashes. Run with `node --test
// crates/kifu-server/web/test/` (the Rust test crates/kifu-server/tests/web_modules.rs runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as rec from "../record.js";
import { blake3 } from "../blake3.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
// Integers beyond 2^53 in the vectors are kept exact: read as strings.
const bigSafe = (text) => text.replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"');
const vectors = JSON.parse(bigSafe(readFileSync(`${root}fixtures/format/vectors.json`, "utf8")));
const hex = rec.toHex;
const unhex = rec.fromHex;

// serde's JSON and the library's decoded values, compared with sorted keys
// and integers as decimal strings.
function canon(v) {
  if (typeof v === "bigint" || typeof v === "number") return String(v);
  if (v instanceof Uint8Array) return Array.from(v).map(String);
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canon(v[k]);
    return out;
  }
  return v;
}

const seedOf = new Map(vectors.keys.map((k) => [k.public_key, k.seed]));
const seedByName = new Map(vectors.keys.map((k) => [k.name, k.seed]));

test("blake3 matches the reference on the official test-vector inputs", () => {
  const v = JSON.parse(readFileSync(`${root}fixtures/format/blake3_vectors.json`, "utf8"));
  assert.ok(v.cases.length >= 20);
  for (const c of v.cases) {
    const input = new Uint8Array(c.input_len);
    for (let i = 0; i < input.length; i++) input[i] = i % 251;
    assert.equal(hex(blake3(input)), c.hash, `input_len ${c.input_len}`);
  }
  // Hashing parts is hashing their concatenation.
  const x = new Uint8Array(3000).map((_, i) => i % 251);
  assert.equal(hex(blake3(x.subarray(0, 1000), x.subarray(1000))), hex(blake3(x)));
});

test("the domains are the format's", () => {
  assert.equal(hex(rec.SIGN_DOMAIN), hex(new TextEncoder().encode(vectors.sign_domain)));
  assert.equal(hex(rec.HASH_DOMAIN), hex(new TextEncoder().encode(vectors.hash_domain)));
});

function chains() {
  return [
    { id: vectors.game_id, events: vectors.events },
    { id: vectors.tournament_id, events: vectors.tournament_events },
  ];
}

test("every body kind encodes to the vector's bytes and decodes to its JSON", () => {
  const seen = new Set();
  for (const { events } of chains()) {
    for (const e of events) {
      const bytes = rec.encodeBody(e.body_json);
      assert.equal(hex(bytes), e.body_bytes, `kind ${e.kind}`);
      assert.deepEqual(canon(rec.decodeBody(unhex(e.body_bytes))), canon(e.body_json), `kind ${e.kind}`);
      assert.equal(rec.kindOf(bytes), e.kind);
      assert.equal(rec.KINDS[e.kind_index], e.kind);
      seen.add(e.kind_index);
    }
  }
  // Every kind but the log operator's (its vectors are the tlog fixtures').
  for (let k = 0; k < rec.KINDS.length; k++) {
    if (rec.KINDS[k] !== "log_key_rotated") assert.ok(seen.has(k), `no vector checked kind ${k}`);
  }
});

test("every event's envelope, signed message, signature and hash are the vector's", async () => {
  for (const { id, events } of chains()) {
    let prev = null;
    for (const e of events) {
      const event = {
        chain: e.seq === 0 ? undefined : id,
        seq: e.seq,
        prev_hash: prev ?? undefined,
        at_ms: e.at_ms,
        signer: e.signer,
        body: e.body_json,
      };
      const bytes = rec.encodeEvent(event);
      assert.equal(hex(bytes), e.event_bytes, `seq ${e.seq}`);
      assert.equal(hex(rec.signedMessage(bytes)), e.signed_message);
      const key = await rec.importSeed(seedOf.get(e.signer));
      const signed = await rec.signEvent(key, event);
      assert.equal(hex(signed.signature), e.signature, `signature of seq ${e.seq}`);
      assert.equal(hex(signed.hash), e.hash, `hash of seq ${e.seq}`);
      assert.equal(hex(rec.recordHash(unhex(e.event_bytes), unhex(e.signature))), e.hash);
      assert.ok(await rec.verify(e.signer, bytes, signed.signature));
      const d = rec.decodeEvent(bytes);
      assert.equal(d.seq, e.seq);
      assert.equal(d.signer, e.signer);
      assert.deepEqual(canon(d.body), canon(e.body_json));
      prev = e.hash;
    }
  }
  assert.equal(vectors.events[0].hash, vectors.game_id);
});

test("the stored records make the vectors' archives", () => {
  // A v1 archive: "KIFUARC1" then u32 LE length || event || signature, each.
  for (const [archive, events] of [
    [vectors.archive, vectors.events],
    [vectors.tournament_archive, vectors.tournament_events],
  ]) {
    const parts = [new TextEncoder().encode("KIFUARC1")];
    for (const e of events) parts.push(rec.storedRecord(unhex(e.event_bytes), unhex(e.signature)));
    assert.equal(parts.map(hex).join(""), archive);
  }
});

test("every role case re-signs to the same signature and re-encodes to the same bytes", async () => {
  const keys = new Map();
  for (const [name, seed] of seedByName) keys.set(name, await rec.importSeed(seed));
  const sets = [...vectors.role_cases, ...vectors.tournament_role_cases];
  assert.ok(sets.length > 300);
  for (const c of sets) {
    const bytes = unhex(c.event_bytes);
    const d = rec.decodeEvent(bytes);
    assert.equal(hex(rec.encodeEvent({ ...d, body: d.body_bytes })), c.event_bytes);
    if (d.body !== null) assert.equal(hex(rec.encodeBody(d.body)), hex(d.body_bytes));
    const name = c.signer.replace(/ \(.*\)$/, "");
    assert.ok(keys.has(name), `no key named ${c.signer}`);
    assert.equal(hex(await rec.sign(keys.get(name), bytes)), c.signature);
  }
});

test("every value variant encodes to its bytes and back", () => {
  assert.ok(vectors.values.length > 100);
  for (const v of vectors.values) {
    const bytes = rec.encodeValue(v.type, v.json);
    assert.equal(hex(bytes), v.bytes, `${v.type} ${JSON.stringify(v.json)}`);
    assert.deepEqual(canon(rec.decodeValue(v.type, bytes)), canon(v.json));
  }
});

test("records refused for their bytes are refused", () => {
  for (const bad of vectors.invalid) {
    assert.throws(() => rec.decodeEvent(unhex(bad.event_bytes)), /overlong|wider|trailing|truncated/, bad.why);
  }
  const good = unhex(vectors.events[2].event_bytes);
  const trailing = new Uint8Array([...good, 0]);
  assert.throws(() => rec.decodeEvent(trailing), /trailing/);
  assert.throws(() => rec.decodeValue("u64", unhex("8500")), /overlong/);
  assert.throws(() => rec.decodeValue("u16", unhex("808004")), /wider/);
  assert.throws(() => rec.decodeValue("bool", unhex("02")), /bool/);
});

test("bad values are refused with the field named, nothing encoded", () => {
  const cases = [
    [{ stone_placed: { player: "black", stone: "black", point: { x: 256, y: 0 } } }, /point\.x: 256 is outside u8/],
    [{ stone_placed: { player: "blue", stone: "black", point: { x: 1, y: 0 } } }, /unknown variant "blue"/],
    [{ stone_placed: { player: "black", point: { x: 1, y: 0 } } }, /missing field "stone"/],
    [{ clock_pressed: { player: "black", extra: 1 } }, /unknown field "extra"/],
    [{ no_such_kind: {} }, /unknown variant "no_such_kind"/],
    [{ clock_adjusted: { player: "white", delta_ms: 1.5, reason: "" } }, /delta_ms: expected an integer/],
    [{ key_revoked: { key: "00", reason: "" } }, /key: expected a public key/],
  ];
  for (const [body, why] of cases) assert.throws(() => rec.encodeBody(body), why);
});

test("fingerprints are kifu's", () => {
  const f = JSON.parse(readFileSync(`${root}fixtures/format/fingerprints.json`, "utf8"));
  assert.equal(hex(rec.FINGERPRINT_DOMAIN), hex(new TextEncoder().encode(f.domain)));
  for (const k of f.keys) {
    assert.equal(rec.fingerprint(k.public_key), k.fingerprint, k.name);
    assert.match(k.fingerprint, /^[0-9a-f]{4}( [0-9a-f]{4}){4}$/);
  }
});

test("a generated key is not extractable and signs what verifies", async () => {
  const pair = await rec.generateKey();
  assert.equal(pair.privateKey.extractable, false);
  const s = await rec.subtle();
  await assert.rejects(s.exportKey("pkcs8", pair.privateKey));
  const pub = await rec.publicKeyBytes(pair.publicKey);
  assert.equal(pub.length, 32);
  const event = {
    chain: vectors.game_id,
    seq: 5,
    prev_hash: vectors.events[4].hash,
    at_ms: 1767225605000,
    signer: pub,
    body: { clock_pressed: { player: "white" } },
  };
  const signed = await rec.signEvent(pair.privateKey, event);
  assert.ok(await rec.verify(pub, signed.event_bytes, signed.signature));
  const tampered = signed.event_bytes.slice();
  tampered[tampered.length - 1] ^= 1;
  assert.equal(await rec.verify(pub, tampered, signed.signature), false);
});

test("a kifu key file's PEM imports and signs as its seed does", async () => {
  const k = vectors.keys[0];
  const fromPem = await rec.importPkcs8Pem(k.pkcs8_pem);
  const e = vectors.events[2];
  assert.equal(hex(await rec.sign(fromPem, unhex(e.event_bytes))), e.signature);
  await assert.rejects(rec.importPkcs8Pem(k.spki_pem), /not a PKCS#8/);
});
