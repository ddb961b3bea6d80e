// web/page.js under Node's own test runner: the element builder on a
// stand-in document, the one way the pages ask the API (what is a value,
// what is a refusal, what is no answer), and the refresh that folds a
// burst into one more run.
import { test } from "node:test";
import assert from "node:assert/strict";

// The least of a DOM the builder uses.
class Node {}
class Text extends Node { constructor(t) { super(); this.text = t; } }
class Element extends Node {
  constructor(tag) { super(); this.tag = tag; this.attrs = {}; this.kids = []; this.listeners = {}; this.className = ""; }
  setAttribute(k, v) { this.attrs[k] = v; }
  addEventListener(name, f) { (this.listeners[name] ||= []).push(f); }
  append(k) { this.kids.push(k); }
}
globalThis.Node = Node;
globalThis.document = { createElement: (t) => new Element(t), createTextNode: (t) => new Text(t) };

const { $, api, post, ApiError, coalesce } = await import("../page.js");

test("the builder leaves out absent attributes and empty children, and wires listeners", () => {
  const f = () => {};
  const e = $("button", { class: "sign", id: "sign", disabled: false, hidden: true, title: null, value: 0, onclick: f }, "Sign", "", null, false, [" now", [$("b", {}, 1)]]);
  assert.equal(e.className, "sign");
  assert.deepEqual(e.attrs, { id: "sign", hidden: "", value: "0" });
  assert.deepEqual(e.listeners, { click: [f] });
  assert.deepEqual(e.kids.map((k) => (k instanceof Text ? k.text : k.tag)), ["Sign", " now", "b"]);
  assert.equal(e.kids[2].kids[0].text, "1");
});

// A stand-in fetch answering `status` with `body` (JSON unless a string).
function answering(status, body) {
  const asked = [];
  globalThis.fetch = async (path, init) => {
    asked.push({ path, init });
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return { status, ok: status >= 200 && status < 300, statusText: "Status", json: async () => JSON.parse(text) };
  };
  return asked;
}

test("every 2xx answer is a value, 207 included: the caller reads each record's answer", async () => {
  const mixed = { accepted: 1, refused: 1, results: [{ ok: true, seq: 3 }, { ok: false, error: { code: "conflict", status: 409, message: "taken" } }] };
  const asked = answering(207, mixed);
  assert.deepEqual(await post("/records", { records: ["00", "01"] }), mixed);
  assert.equal(asked[0].init.method, "POST");
  assert.equal(asked[0].init.headers["Content-Type"], "application/json");
  assert.equal(asked[0].init.headers.Accept, "application/json");
  assert.equal(asked[0].init.body, JSON.stringify({ records: ["00", "01"] }));
  answering(200, "not json");
  assert.equal(await api("/healthz"), null);
});

test("a refusal throws the server's status, code and words, and the whole answer", async () => {
  const all = { accepted: 0, refused: 1, results: [{ ok: false, error: { code: "conflict", status: 409, message: "taken" } }], error: { code: "conflict", status: 409, message: "taken" } };
  answering(409, all);
  await assert.rejects(post("/records", { records: ["00"] }), (e) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 409);
    assert.equal(e.code, "conflict");
    assert.equal(e.message, "taken");
    assert.deepEqual(e.body.results, all.results);
    return true;
  });
  answering(502, "<html>proxy</html>");
  await assert.rejects(api("/games"), (e) => e instanceof ApiError && e.status === 502 && e.code === "" && e.message === "502 Status");
});

test("no answer at all is an ApiError of status 0, told apart from a refusal", async () => {
  globalThis.fetch = async () => { throw new TypeError("Failed to fetch"); };
  await assert.rejects(api("/games"), (e) => e instanceof ApiError && e.status === 0 && e.code === "unreachable" && /cannot be reached/.test(e.message));
});

test("a burst of refreshes gives one more run after the running one, and every caller waits for the run covering it", async () => {
  let runs = 0;
  let release;
  const work = () => { runs++; return new Promise((r) => { release = r; }); };
  const refresh = coalesce(work);
  const first = refresh();
  const second = refresh();
  const third = refresh();
  assert.equal(runs, 1);
  assert.equal(second, first);
  assert.equal(third, first);
  release();
  await new Promise((r) => setImmediate(r));
  assert.equal(runs, 2, "one more run for the burst");
  release();
  await first;
  assert.equal(runs, 2);
  const failed = [];
  const broken = coalesce(async () => { throw new Error("down"); }, (e) => failed.push(e.message));
  await broken();
  assert.deepEqual(failed, ["down"]);
  await assert.rejects(coalesce(async () => { throw new Error("down"); })(), /down/);
});

test("with a spacing, runs start no closer than it, and calls meanwhile are covered by the next", async () => {
  const starts = [];
  const refresh = coalesce(async () => { starts.push(Date.now()); }, undefined, { spacingMs: 40 });
  await refresh();
  const second = refresh();
  refresh();
  await second;
  assert.equal(starts.length, 2, "the calls made while waiting are one run");
  assert.ok(starts[1] - starts[0] >= 39, `${starts[1] - starts[0]} ms apart`);
});
