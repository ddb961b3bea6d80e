// The board device's clock against the server's projection over a
// 30-minute game in simulated time: the presses carry the instants of a
// simulated game (each record's `at_ms`), signed with the record library and
// posted one at a time, as a device does.
//
// Two clocks are compared with the projection (`GET /games/{id}/state`)
// after every press and at seven instants within every turn:
// - online: the page's model taken afresh from each state document
//   (`clockFrom`), as a device that reaches the server shows it;
// - offline: the model of the game's start, advanced by the device's own
//   `press()` for the whole game and never corrected, as a shared device
//   cut off from the server for the whole 30 minutes shows it.
// Prints the largest difference in ms of the time left (`left`) and of
// each clock's stored time, and how many clock faces differed in text.
//
//   node benches/board_clock_drift.mjs URL GAME black.key white.key [MINUTES]
//
// docs/PERFORMANCE.md ("Board devices") says how to set the game up.

import { readFileSync } from "node:fs";
import * as rec from "../crates/kifu-server/web/record.js";
import { clockFrom, press, shows, totalMs } from "../crates/kifu-server/web/board-clock.js";

const [url, game, blackPem, whitePem, minutesArg] = process.argv.slice(2);
if (!whitePem) {
  console.error("usage: node benches/board_clock_drift.mjs URL GAME black.key white.key [MINUTES]");
  process.exit(2);
}
const minutes = Number(minutesArg || 30);
const keys = {};
for (const [colour, file] of [["black", blackPem], ["white", whitePem]]) {
  const priv = await rec.importPkcs8Pem(readFileSync(file, "utf8"), true);
  const jwk = await (await rec.subtle()).exportKey("jwk", priv);
  keys[colour] = { priv, pub: rec.toHex(Buffer.from(jwk.x, "base64url")) };
}
const get = async (path) => {
  const r = await fetch(`${url}${path}`, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};
let head = await get(`/games/${game}/head`);
async function send(colour, body, at) {
  const signed = await rec.signEvent(keys[colour].priv, {
    chain: game, seq: head.seq + 1, prev_hash: head.hash, at_ms: at, signer: keys[colour].pub, body,
  });
  const r = await fetch(`${url}/records`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ records: [signed.hex] }),
  });
  const a = await r.json();
  if (!a.results || !a.results[0].ok) throw new Error(`refused: ${JSON.stringify(a)}`);
  head = { seq: a.results[0].seq, hash: a.results[0].hash };
}

const first = await get(`/games/${game}/state`);
let offline = clockFrom(first);
if (!offline || !offline.running) throw new Error("the game's clock must be running (append clock_started first)");
const start = offline.turnStart;
const control = JSON.stringify(offline.control);
// A deterministic sequence of thinking times: 3 to 40 s in main time; in
// overtime mostly within a byo-yomi period, now and then one spent.
let seed = 12345;
const rand = (lo, hi) => { seed = (seed * 1103515245 + 12345) % 2147483648; return lo + (seed % (hi - lo + 1)); };
function think(pc, o, moveNo) {
  if (pc.main_ms > 40_000) return rand(3_000, 40_000);
  if (o.byo_yomi) return moveNo % 17 === 0 ? o.byo_yomi.period_ms + rand(500, 3_000) : rand(2_000, o.byo_yomi.period_ms - 1_500);
  if (o.canadian) return Math.max(1_000, Math.floor(o.canadian.block_ms_left / Math.max(1, o.canadian.moves_left)) - rand(500, 3_000));
  return rand(2_000, Math.max(2_500, Math.min(40_000, pc.main_ms - 2_000)));
}

let now = start, moves = 0, faces = 0, facesDiffer = 0, maxLeft = 0, maxStored = 0;
const stored = (pc) => totalMs(pc);
while (now - start < minutes * 60_000) {
  const colour = offline.running;
  const pc = offline.pcs[colour];
  const used = think(pc, pc.overtime || {}, moves);
  // What each model shows at seven instants of this turn.
  const online = clockFrom(await get(`/games/${game}/state`));
  for (let i = 1; i <= 7; i++) {
    const t = offline.turnStart + Math.floor((used * i) / 8);
    const off = shows(offline.pcs[colour], t - offline.turnStart);
    const on = shows(online.pcs[colour], t - online.turnStart);
    faces++;
    if (off.text !== on.text) facesDiffer++;
    maxLeft = Math.max(maxLeft, Math.abs(off.left - on.left));
  }
  now = offline.turnStart + used;
  const point = { x: moves % 19, y: Math.floor(moves / 19) % 19 };
  await send(colour, { stone_placed: { player: colour, stone: colour, point } }, now - 100);
  await send(colour, { clock_pressed: { player: colour } }, now);
  offline = press(offline, colour, now);
  moves++;
  const proj = clockFrom(await get(`/games/${game}/state`));
  for (const c of ["black", "white"]) maxStored = Math.max(maxStored, Math.abs(stored(offline.pcs[c]) - stored(proj.pcs[c])));
  maxStored = Math.max(maxStored, Math.abs(offline.turnStart - proj.turnStart));
  if (proj.running !== offline.running) throw new Error(`move ${moves}: the projection runs ${proj.running}'s clock, the device ${offline.running}'s`);
}
console.log(JSON.stringify({
  control: JSON.parse(control), minutes: (now - start) / 60_000, moves,
  faces_compared: faces, faces_differing: facesDiffer, max_left_diff_ms: maxLeft, max_stored_diff_ms: maxStored,
}));
