// Tap to acknowledged, as a board device does it: sign a record with the
// record library (Web Crypto Ed25519, BLAKE3) and POST it to `kifu serve`,
// one at a time, each chained on the last acknowledged head; 1,000 moves
// (a stone and a clock press each, alternately by Black and White).
// Prints p50 and p99 of the time from signing to the server's answer.
//
//   node benches/board_latency.mjs URL GAME black.key white.key [MOVES]
//
// docs/PERFORMANCE.md ("Board devices") says how to set the game up.

import { readFileSync } from "node:fs";
import * as rec from "../crates/kifu-server/web/record.js";

const [url, game, blackPem, whitePem, movesArg] = process.argv.slice(2);
if (!whitePem) {
  console.error("usage: node benches/board_latency.mjs URL GAME black.key white.key [MOVES]");
  process.exit(2);
}
const moves = Number(movesArg || 1000);
const keys = {};
for (const [colour, file] of [["black", blackPem], ["white", whitePem]]) {
  const pem = readFileSync(file, "utf8");
  // The public key of the seed: signing once and reading the signer back
  // would do, but the PEM's seed gives it directly through an extractable import.
  const priv = await rec.importPkcs8Pem(pem, true);
  const s = await rec.subtle();
  const jwk = await s.exportKey("jwk", priv);
  keys[colour] = { priv, pub: rec.toHex(Buffer.from(jwk.x, "base64url")) };
}
let head = await (await fetch(`${url}/games/${game}/head`)).json();
const times = [];
async function send(colour, body) {
  const t0 = performance.now();
  const signed = await rec.signEvent(keys[colour].priv, {
    chain: game, seq: head.seq + 1, prev_hash: head.hash, at_ms: Date.now(), signer: keys[colour].pub, body,
  });
  const r = await fetch(`${url}/records`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ records: [signed.hex] }),
  });
  const a = await r.json();
  times.push(performance.now() - t0);
  if (!a.results || !a.results[0].ok) throw new Error(`refused: ${JSON.stringify(a)}`);
  head = { seq: a.results[0].seq, hash: a.results[0].hash };
}
for (let i = 0; i < moves; i++) {
  const colour = i % 2 === 0 ? "black" : "white";
  const point = { x: i % 19, y: Math.floor(i / 19) % 19 };
  await send(colour, { stone_placed: { player: colour, stone: colour, point } });
  await send(colour, { clock_pressed: { player: colour } });
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
console.log(JSON.stringify({ records: times.length, p50_ms: Number(q(0.5)), p99_ms: Number(q(0.99)) }));
