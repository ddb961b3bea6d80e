// Creating every game of a round through the server, as the director's desk
// does it ("Create the round's games" in web/director.js): one draft
// (`POST /director/draft {"do": "games"}`: the server builds and checks
// one genesis per board), one Ed25519 signature per game with the record
// library (Web Crypto, as in the page), and one `POST /records` with every
// genesis. Prints the time of each part and of the whole, in ms.
//
//   node benches/round_games.mjs URL TOURNAMENT ROUND director.key
//
// docs/PERFORMANCE.md ("The director's desk: a round of 200 games") says
// how to set the tournament up.

import { readFileSync } from "node:fs";
import * as rec from "../crates/kifu-server/web/record.js";

const [url, tournament, roundArg, pem] = process.argv.slice(2);
if (!pem) {
  console.error("usage: node benches/round_games.mjs URL TOURNAMENT ROUND director.key");
  process.exit(2);
}
const priv = await rec.importPkcs8Pem(readFileSync(pem, "utf8"), true);
const jwk = await (await rec.subtle()).exportKey("jwk", priv);
const me = rec.toHex(Buffer.from(jwk.x, "base64url"));
const post = async (path, body) => {
  const r = await fetch(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
  return j;
};
const t0 = performance.now();
const draft = await post("/director/draft", { do: "games", tournament, round: Number(roundArg), exclude: [] });
const t1 = performance.now();
const at = Date.now();
const signed = [];
for (const g of draft.games) signed.push(await rec.signEvent(priv, { seq: 0, at_ms: at, signer: me, body: g.body }));
const t2 = performance.now();
const answer = await post("/records", { records: signed.map((s) => s.hex) });
const t3 = performance.now();
const created = answer.results.filter((r) => r.ok).length;
if (created !== draft.games.length) throw new Error(`created ${created} of ${draft.games.length}: ${JSON.stringify(answer.results.find((r) => !r.ok))}`);
console.log(JSON.stringify({
  games: created, skipped: draft.skipped.length,
  draft_ms: Math.round(t1 - t0), sign_ms: Math.round(t2 - t1), submit_ms: Math.round(t3 - t2), total_ms: Math.round(t3 - t0),
}));
