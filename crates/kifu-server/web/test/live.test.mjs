// web/live.js under Node's own test runner, with a stand-in EventSource
// that records what was opened and lets the test play the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const source = await readFile(new URL("../live.js", import.meta.url), "utf8");
const { stream } = await import("data:text/javascript," + encodeURIComponent(source));

class FakeSource {
  static CONNECTING = 0; static OPEN = 1; static CLOSED = 2;
  static opened = [];
  constructor(url) { this.url = url; this.readyState = 0; this.listeners = {}; this.closed = false; FakeSource.opened.push(this); }
  addEventListener(name, f) { (this.listeners[name] ||= []).push(f); }
  close() { this.closed = true; this.readyState = 2; }
  // The server's side.
  accept() { this.readyState = 1; this.onopen && this.onopen({}); }
  send(id, data, name) {
    const m = { lastEventId: id, data };
    if (name) (this.listeners[name] || []).forEach((f) => f(m)); else this.onmessage(m);
  }
  drop() { this.readyState = 0; this.onerror({}); }      // the browser retries by itself
  refuse() { this.readyState = 2; this.onerror({}); }    // an HTTP error: it does not
}
const clock = () => {
  const due = [];
  return { due, setTimeout: (f, ms) => { due.push({ f, ms }); return due.length; }, clearTimeout: (n) => { if (due[n - 1]) due[n - 1].f = null; }, run() { const d = due.splice(0); d.forEach((t) => t.f && t.f()); return d.map((t) => t.ms); } };
};

test("a refused stream is opened again after a pause, resuming after the last event seen", () => {
  globalThis.EventSource = FakeSource;
  FakeSource.opened = [];
  const timers = clock(), got = [], errors = [];
  const stop = stream((last) => "/feed/stream" + (last ? "?after=" + last : ""), {
    message: (m) => got.push(m.data), error: () => errors.push(1),
  }, { timers, random: () => 0.5 });
  assert.deepEqual(FakeSource.opened.map((s) => s.url), ["/feed/stream"]);
  const first = FakeSource.opened[0];
  first.accept();
  first.send("41", "a");
  first.send("42", "b");
  // A dropped connection: the browser reconnects, nothing is scheduled.
  first.drop();
  assert.deepEqual(timers.due, []);
  // Refused (429 or 503): closed for good by the browser, so opened again
  // after 5 s, then 10 s, then 20 s..., from the last id seen.
  first.refuse();
  assert.equal(first.closed, true);
  assert.deepEqual(timers.run(), [5000]);
  assert.deepEqual(FakeSource.opened.map((s) => s.url), ["/feed/stream", "/feed/stream?after=42"]);
  FakeSource.opened[1].refuse();
  assert.deepEqual(timers.run(), [10000]);
  FakeSource.opened[2].refuse();
  assert.deepEqual(timers.run(), [20000]);
  // Once open again, the pause starts from 5 s anew.
  const fourth = FakeSource.opened[3];
  fourth.accept();
  fourth.send("43", "c");
  fourth.refuse();
  assert.deepEqual(timers.run(), [5000]);
  assert.equal(FakeSource.opened[4].url, "/feed/stream?after=43");
  assert.deepEqual(got, ["a", "b", "c"]);
  assert.equal(errors.length, 5);
  stop();
  assert.equal(FakeSource.opened[4].closed, true);
});

test("named events are delivered and a stopped stream is never opened again", () => {
  globalThis.EventSource = FakeSource;
  FakeSource.opened = [];
  const timers = clock(), changes = [];
  const stop = stream(() => "/tournaments/t/events", { change: (m) => changes.push(m.data) }, { events: ["change"], timers, random: () => 0 });
  FakeSource.opened[0].accept();
  FakeSource.opened[0].send("1", "round 2", "change");
  FakeSource.opened[0].refuse();
  stop();
  timers.run();
  assert.equal(FakeSource.opened.length, 1);
  assert.deepEqual(changes, ["round 2"]);
});

test("the pause never exceeds the most given, with jitter either side", () => {
  globalThis.EventSource = FakeSource;
  FakeSource.opened = [];
  const timers = clock();
  stream(() => "/x", {}, { timers, random: () => 1, maxDelayMs: 60000 });
  const waits = [];
  for (let i = 0; i < 8; i++) { FakeSource.opened.at(-1).refuse(); waits.push(...timers.run()); }
  assert.deepEqual(waits, [6250, 12500, 25000, 50000, 75000, 75000, 75000, 75000]);
});
