// What one move costs a board device on the network, at move 10 and at
// move 250 of a 19x19 game: the requests `web/board.js` makes for a stone
// and its clock press, counted in bytes on the wire (HTTP/1.1 with
// keep-alive, uncompressed, request and answer, headers included) on one
// socket, as a device's browser keeps one.
//
// Per move, as the page does it: the player's device previews the stone
// (`POST /games/{id}/preview`) and posts the stone and the press
// (`POST /records`, one each); after each of its own records it refreshes
// (`GET /games/{id}/state?device=1&since=N` and `/head`), and each event
// the feed names (`/feed/stream?game=ID`, its SSE frame counted too)
// refreshes both devices once more. The same with the whole projection
// (`GET /games/{id}/state`, what the page read before `device=1`) for
// comparison.
//
//   node benches/board_bytes.mjs URL GAME black.key white.key
//
// docs/PERFORMANCE.md ("Board devices") says how to set the game up.

import { readFileSync } from "node:fs";
import http from "node:http";
import * as rec from "../crates/kifu-server/web/record.js";

const [url, game, blackPem, whitePem] = process.argv.slice(2);
if (!whitePem) {
  console.error("usage: node benches/board_bytes.mjs URL GAME black.key white.key");
  process.exit(2);
}
const keys = {};
for (const [colour, file] of [["black", blackPem], ["white", whitePem]]) {
  const priv = await rec.importPkcs8Pem(readFileSync(file, "utf8"), true);
  const jwk = await (await rec.subtle()).exportKey("jwk", priv);
  keys[colour] = { priv, pub: rec.toHex(Buffer.from(jwk.x, "base64url")) };
}
const base = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
// One request on the kept socket: its answer, and the bytes both ways.
function request(method, path, body) {
  return new Promise((resolve, reject) => {
    const data = body == null ? null : Buffer.from(JSON.stringify(body));
    const req = http.request({
      host: base.hostname, port: base.port, path, method, agent,
      headers: { Accept: "application/json", ...(data ? { "Content-Type": "application/json", "Content-Length": data.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const s = req.socket;
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode, json: text ? JSON.parse(text) : null, read: s.bytesRead - r0, written: s.bytesWritten - w0 });
      });
    });
    let r0 = 0, w0 = 0;
    req.on("socket", (s) => { r0 = s.bytesRead; w0 = s.bytesWritten; });
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}
let head = (await request("GET", `/games/${game}/head`)).json;
let shown = head.seq;

// The SSE frame the feed sent for the newest event (`id: N\ndata: LINE\n\n`
// in a chunk of the streamed answer), from the store's feed line for it.
async function lastFrameBytes() {
  const h = (await request("GET", "/healthz")).json;
  const c = h.next_cursor - 1;
  const r = await fetch(`${url}/feed?after=${c - 1}&limit=1`);
  const line = (await r.text()).trim();
  const frame = Buffer.byteLength(`id: ${c}\ndata: ${line}\n\n`);
  return frame + frame.toString(16).length + 4;
}

async function sign(colour, body) {
  return rec.signEvent(keys[colour].priv, {
    chain: game, seq: head.seq + 1, prev_hash: head.hash, at_ms: Date.now(), signer: keys[colour].pub, body,
  });
}

// One refresh of a device: the state document and the head.
async function refresh(whole) {
  const path = whole ? `/games/${game}/state` : `/games/${game}/state?device=1&since=${shown}`;
  const a = await request("GET", path);
  const b = await request("GET", `/games/${game}/head`);
  shown = a.json.last_seq;
  return a.read + a.written + b.read + b.written;
}

async function move(colour, i, whole) {
  let bytes = 0, frames = 0;
  const point = { x: i % 19, y: Math.floor(i / 19) % 19 };
  const stone = { stone_placed: { player: colour, stone: colour, point } };
  const p = await request("POST", `/games/${game}/preview`, { body: stone, signer: keys[colour].pub, at_ms: Date.now() });
  bytes += p.read + p.written;
  for (const body of [stone, { clock_pressed: { player: colour } }]) {
    const signed = await sign(colour, body);
    const r = await request("POST", "/records", { records: [signed.hex] });
    if (!r.json.results[0].ok) throw new Error(JSON.stringify(r.json));
    head = { seq: r.json.results[0].seq, hash: r.json.results[0].hash };
    bytes += r.read + r.written;
    // The signer's own refresh after its flush.
    bytes += await refresh(whole);
    // The feed's frame for this event, to each device, and each device's refresh.
    const frame = await lastFrameBytes();
    frames += 2;
    bytes += 2 * frame + 2 * (await refresh(whole));
  }
  return { bytes, frames };
}

const out = {};
let i = 0;
for (const at of [10, 250]) {
  // Play up to the move to measure, then measure one move of each player.
  while (i < at - 1) {
    const colour = i % 2 === 0 ? "black" : "white";
    for (const body of [{ stone_placed: { player: colour, stone: colour, point: { x: i % 19, y: Math.floor(i / 19) % 19 } } }, { clock_pressed: { player: colour } }]) {
      const signed = await sign(colour, body);
      const r = await request("POST", "/records", { records: [signed.hex] });
      head = { seq: r.json.results[0].seq, hash: r.json.results[0].hash };
    }
    i++;
  }
  shown = head.seq;
  const colour = i % 2 === 0 ? "black" : "white";
  const device = await move(colour, i, false);
  i++;
  shown = head.seq;
  const colour2 = i % 2 === 0 ? "black" : "white";
  const whole = await move(colour2, i, true);
  i++;
  out[`move_${at}`] = { bytes_per_move: device.bytes, with_whole_state: whole.bytes, sse_frames: device.frames };
}
console.log(JSON.stringify(out));
agent.destroy();
