// The referee's overview with many live games: the time from a record being
// acknowledged to the overview showing it, as the console (web/referee.js)
// shows it: the page asks `GET /referee/games?key=KEY` every 1.5 s and
// redraws from the answer, so a record is shown once an answer carries its
// game's new head. Boards append at a realistic pace (each game a move, a
// stone and a press, every 10 to 30 s) while this polls at the page's
// interval; prints p50/p99 of acknowledged-to-shown, of the answer's own
// time, and the answers' size.
//
//   node benches/referee_overview.mjs URL ref.key black.key white.key SECONDS
//
// Every game whose roster names the referee's key is played (set up with
// `kifu --server URL new-game ... --referee R=ref.pub --black B=black.pub
// --white W=white.pub`; docs/PERFORMANCE.md, "The referee's console").

import { readFileSync } from "node:fs";
import * as rec from "../crates/kifu-server/web/record.js";

const [url, refPem, blackPem, whitePem, secondsArg] = process.argv.slice(2);
if (!whitePem) {
  console.error("usage: node benches/referee_overview.mjs URL ref.key black.key white.key SECONDS");
  process.exit(2);
}
const seconds = Number(secondsArg || 120);
const load = async (file) => {
  const priv = await rec.importPkcs8Pem(readFileSync(file, "utf8"), true);
  const jwk = await (await rec.subtle()).exportKey("jwk", priv);
  return { priv, pub: rec.toHex(Buffer.from(jwk.x, "base64url")) };
};
const keys = { ref: await load(refPem), black: await load(blackPem), white: await load(whitePem) };
const get = async (path) => (await fetch(`${url}${path}`, { headers: { Accept: "application/json" } })).json();
const heads = new Map();
async function append(game, who, body) {
  const h = heads.get(game);
  const s = await rec.signEvent(keys[who].priv, { chain: game, seq: h.seq + 1, prev_hash: h.hash, at_ms: Date.now(), signer: keys[who].pub, body });
  const r = await (await fetch(`${url}/records`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ records: [s.hex] }) })).json();
  const res = r.results && r.results[0];
  if (!res || !res.ok) throw new Error(`refused: ${JSON.stringify(r)}`);
  heads.set(game, { seq: res.seq, hash: res.hash });
  return res.seq;
}

const overview = await get(`/referee/games?key=${keys.ref.pub}`);
const games = overview.games.map((g) => g.game);
if (!games.length) throw new Error("no game names the referee's key");
for (const g of games) {
  const h = await get(`/games/${g}/head`);
  heads.set(g, { seq: h.seq, hash: h.hash });
  if (h.seq === 0) await append(g, "ref", { clock_started: { running: "black" } });
}

const acked = []; // {game, seq, at}
const shownAfter = [];
const answerMs = [];
let bytes = 0, answers = 0, stop = false;
const pending = new Map(); // game -> [{seq, at}]
const t0 = performance.now();
let seed = 7;
const rand = (lo, hi) => { seed = (seed * 1103515245 + 12345) % 2147483648; return lo + (seed % (hi - lo + 1)); };

// The boards: each game moves every 10 to 30 s, the first within 10 s.
const boards = games.map(async (g, i) => {
  let n = 0;
  let next = t0 + rand(0, 10_000);
  while (!stop) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, 500)));
    if (stop) break;
    if (performance.now() < next) continue;
    const who = n % 2 === 0 ? "black" : "white";
    await append(g, who, { stone_placed: { player: who, stone: who, point: { x: (n + i) % 19, y: Math.floor(n / 19) % 19 } } });
    const seq = await append(g, who, { clock_pressed: { player: who } });
    const at = performance.now();
    acked.push({ game: g, seq, at });
    if (!pending.has(g)) pending.set(g, []);
    pending.get(g).push({ seq, at });
    n++;
    next = performance.now() + rand(10_000, 30_000);
  }
});

// The page: one answer every 1.5 s.
const poller = (async () => {
  while (!stop) {
    const started = performance.now();
    const r = await fetch(`${url}/referee/games?key=${keys.ref.pub}`, { headers: { Accept: "application/json" } });
    const text = await r.text();
    const now = performance.now();
    answerMs.push(now - started);
    bytes += text.length;
    answers++;
    for (const g of JSON.parse(text).games) {
      const list = pending.get(g.game);
      if (!list) continue;
      while (list.length && list[0].seq <= g.head.seq) shownAfter.push(now - list.shift().at);
    }
    const wait = 1500 - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
})();

await new Promise((r) => setTimeout(r, seconds * 1000));
stop = true;
await Promise.all([...boards, poller]);
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]) : null; };
console.log(JSON.stringify({
  games: games.length, seconds, moves: acked.length, shown: shownAfter.length,
  ack_to_shown_p50_ms: q(shownAfter, 0.5), ack_to_shown_p99_ms: q(shownAfter, 0.99),
  answer_p50_ms: q(answerMs, 0.5), answer_p99_ms: q(answerMs, 0.99), answers, answer_bytes: Math.round(bytes / Math.max(1, answers)),
}));
