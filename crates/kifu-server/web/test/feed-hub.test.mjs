// The shared feed worker's bookkeeping (web/feed-hub.js), under Node's own
// test runner: `node --test crates/kifu-server/web/test/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

// The page file as the browser gets it (an ES module under /web/).
const source = await readFile(new URL("../feed-hub.js", import.meta.url), "utf8");
const { Hub } = await import("data:text/javascript," + encodeURIComponent(source));

// A page's end of the channel: what it was sent.
const page = () => {
  const got = [];
  return { got, postMessage: (m) => got.push(m), cursors: () => got.filter((m) => m.type === "record").map((m) => m.record.cursor) };
};
const rec = (cursor, game = "g") => ({ cursor, game, seq: cursor, kind: "stone placed" });

test("one stream for every page, opened after the first page's cursor and closed with the last page", () => {
  const opened = [];
  let closed = 0;
  const hub = new Hub((after) => { opened.push(after); return () => closed++; });
  const a = page(), b = page();
  hub.follow(a, 9);
  hub.follow(b, 9);
  assert.deepEqual(opened, [9], "one stream");
  hub.record(rec(10));
  assert.deepEqual(a.cursors(), [10]);
  assert.deepEqual(b.cursors(), [10]);
  hub.bye(a);
  assert.equal(closed, 0, "still followed by b");
  hub.bye(b);
  assert.equal(closed, 1, "closed with the last page");
  hub.follow(a, 10);
  assert.deepEqual(opened, [9, 10], "a new stream after the page's cursor");
});

test("a page that subscribes late gets what it has not seen, from the records kept", () => {
  const hub = new Hub(() => () => {});
  const a = page(), b = page();
  hub.follow(a, 4);
  for (const c of [5, 6, 7]) hub.record(rec(c));
  // b loaded when the feed ended at 5: it gets 6 and 7, nothing twice.
  hub.follow(b, 5);
  assert.deepEqual(b.cursors(), [6, 7]);
  assert.ok(!b.got.some((m) => m.type === "gap"));
  hub.record(rec(8));
  assert.deepEqual(b.cursors(), [6, 7, 8]);
  assert.deepEqual(a.cursors(), [5, 6, 7, 8]);
});

test("a page whose cursor is older than what is kept is told to reload", () => {
  const hub = new Hub(() => () => {}, 2);
  const a = page(), b = page(), c = page();
  hub.follow(a, 10);
  for (const x of [11, 12, 13]) hub.record(rec(x));
  // 11 is no longer kept: a page at 10 may have missed it.
  hub.follow(b, 10);
  assert.deepEqual(b.got[0], { type: "gap" });
  assert.deepEqual(b.cursors(), [12, 13]);
  // A page older than the stream itself, likewise.
  const d = page();
  hub.follow(d, 3);
  assert.deepEqual(d.got[0], { type: "gap" });
  // A page at 11 missed nothing.
  hub.follow(c, 11);
  assert.ok(!c.got.some((m) => m.type === "gap"));
  assert.deepEqual(c.cursors(), [12, 13]);
});

test("a record seen again (a reconnecting stream) is passed on once", () => {
  const hub = new Hub(() => () => {});
  const a = page();
  hub.follow(a, -1);
  hub.record(rec(0));
  hub.record(rec(1));
  hub.record(rec(1));
  assert.deepEqual(a.cursors(), [0, 1]);
});

test("whether the stream is connected is said to every page, and to a page that follows later", () => {
  const hub = new Hub(() => () => {});
  const a = page(), b = page();
  hub.follow(a, 0);
  assert.deepEqual(a.got, [], "nothing said before the stream says");
  hub.status(true);
  hub.status(false);
  assert.deepEqual(a.got, [{ type: "status", connected: true }, { type: "status", connected: false }]);
  hub.follow(b, 0);
  assert.deepEqual(b.got, [{ type: "status", connected: false }], "the latest, at once");
  hub.bye(a);
  hub.bye(b);
  const c = page();
  hub.follow(c, 0);
  assert.deepEqual(c.got, [], "a new stream has said nothing yet");
});
