import { test } from "node:test";
import assert from "node:assert/strict";
import { follower } from "../follow.js";

// A server whose head moves as events are recorded, and a page that draws
// the head it fetched, each fetch taking a while.
function venue() {
  const v = { head: 0, shown: null, fetches: 0, inFlight: 0, most: 0 };
  v.refresh = async () => {
    v.fetches++;
    v.inFlight++;
    v.most = Math.max(v.most, v.inFlight);
    const head = v.head; // the state read at the start of the fetch
    await new Promise((r) => setTimeout(r, 5));
    v.inFlight--;
    v.shown = head;
  };
  return v;
}

test("an event that arrives while a fetch is under way is drawn, not dropped", async () => {
  const v = venue();
  const f = follower(v.refresh, () => v.shown);
  v.head = 1;
  const first = f.event(1);
  // The opponent's press is recorded while the first fetch is on its way.
  v.head = 2;
  const second = f.event(2);
  await first;
  await second;
  assert.equal(v.shown, 2);
  assert.equal(v.most, 1, "one fetch at a time");
});

test("a burst of events is drawn to its last event, with fewer fetches than events", async () => {
  const v = venue();
  const f = follower(v.refresh, () => v.shown);
  const all = [];
  for (let seq = 1; seq <= 10; seq++) {
    v.head = seq;
    all.push(f.event(seq));
  }
  await Promise.all(all);
  assert.equal(v.shown, 10);
  assert.ok(v.fetches < 10, `${v.fetches} fetches`);
  assert.equal(f.behind(), false);
});

test("a gap is covered: an event named beyond the one drawn fetches the head", async () => {
  const v = venue();
  v.shown = 3;
  const f = follower(v.refresh, () => v.shown);
  v.head = 7;
  await f.event(7);
  assert.equal(v.shown, 7);
});

test("a fetch that fails is tried again on the next event or on again()", async () => {
  const v = venue();
  let fail = true;
  const refresh = async () => { if (fail) throw new Error("offline"); return v.refresh(); };
  const f = follower(refresh, () => v.shown);
  v.head = 1;
  assert.equal(await f.event(1), false);
  assert.equal(f.behind(), true);
  fail = false;
  assert.equal(await f.again(), true);
  assert.equal(v.shown, 1);
});

test("the server behind the feed: the page waits for the next event instead of spinning", async () => {
  const v = venue();
  const f = follower(v.refresh, () => v.shown);
  v.head = 1;
  await f.event(1);
  // Event 2 named, but the state still ends at 1.
  await f.event(2);
  assert.ok(v.fetches <= 3, `${v.fetches} fetches`);
  v.head = 2;
  await f.again();
  assert.equal(v.shown, 2);
});
