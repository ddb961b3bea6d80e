// Confirming every result of a round through the server, as the director's
// desk does it ("Checkpoint the round's finished games" in
// web/director.js): one draft (`POST /director/draft {"do": "checkpoint",
// "board": null}`: the server reads each finished game's head and result and
// builds and checks one `game_checkpointed` per board), one Ed25519
// signature per fact with the record library (Web Crypto, as in the page),
// and one `POST /tournaments/T/records` with every fact. Before it, and not
// timed, each game of the round is ended: White resigns, signed with
// White's key (KEYS/pN.key for player PN, as docs/PERFORMANCE.md sets the
// tournament up). Prints the time of each part and of the whole, in ms.
//
//   node benches/round_results.mjs URL TOURNAMENT ROUND director.key KEYS
//
// docs/PERFORMANCE.md ("The director's desk: a round of 350 games") says
// how to set the tournament up and create the round's games.

import { readFileSync } from "node:fs";
import * as rec from "../crates/kifu-server/web/record.js";

const [url, tournament, roundArg, pem, keys] = process.argv.slice(2);
if (!keys) {
  console.error("usage: node benches/round_results.mjs URL TOURNAMENT ROUND director.key KEYS");
  process.exit(2);
}
const round = Number(roundArg);
const keyOf = async (file) => {
  const priv = await rec.importPkcs8Pem(readFileSync(file, "utf8"), true);
  const jwk = await (await rec.subtle()).exportKey("jwk", priv);
  return { priv, pub: rec.toHex(Buffer.from(jwk.x, "base64url")) };
};
const api = async (path, body) => {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(`${url}${path}`, { ...init, headers: { Accept: "application/json", ...(init.headers || {}) } });
  const j = await r.json();
  if (!r.ok && r.status !== 207) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
  return j;
};

// Not timed: every game of the round ends, White resigning.
const desk = await api(`/tournaments/${encodeURIComponent(tournament)}/desk?round=${round}`);
const resignations = [];
for (const b of desk.boards) {
  if (!b.game) continue;
  const white = await keyOf(`${keys}/${b.white.id.toLowerCase()}.key`);
  const head = await api(`/games/${b.game}/head`);
  const s = await rec.signEvent(white.priv, { chain: b.game, seq: head.seq + 1, prev_hash: head.hash, at_ms: Date.now(), signer: white.pub, body: { resigned: { player: "white", manner: "spoken" } } });
  resignations.push(s.hex);
}
const ended = await api("/records", { records: resignations });
const refused = ended.results.filter((r) => !r.ok);
if (refused.length) throw new Error(`${refused.length} resignations refused: ${JSON.stringify(refused[0])}`);

// Timed: the desk's action.
const director = await keyOf(pem);
const t0 = performance.now();
const draft = await api("/director/draft", { do: "checkpoint", tournament, round, board: null });
const t1 = performance.now();
const at = Date.now();
const hexes = [];
let seq = draft.head.seq + 1;
let prev = draft.head.hash;
for (const body of draft.bodies) {
  const s = await rec.signEvent(director.priv, { chain: draft.tournament, seq, prev_hash: prev, at_ms: at, signer: director.pub, body });
  hexes.push(s.hex);
  prev = rec.toHex(s.hash);
  seq += 1;
}
const t2 = performance.now();
const answer = await api(`/tournaments/${draft.tournament}/records`, { records: hexes });
const t3 = performance.now();
if (answer.written !== draft.bodies.length) throw new Error(`wrote ${answer.written} of ${draft.bodies.length}`);
console.log(JSON.stringify({
  results: answer.written, draft_ms: Math.round(t1 - t0), sign_ms: Math.round(t2 - t1), submit_ms: Math.round(t3 - t2), total_ms: Math.round(t3 - t0),
}));
