// web/db.js under Node's own test runner, on a stand-in IndexedDB (the
// little of it db.js uses): the databases the pages have always opened
// open as they are, and each store keeps what the pages put in it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, BOARD, REFEREE, DIRECTOR } from "../db.js";

// An IndexedDB in memory: databases by name, each with a version and its
// stores; a request answers on a microtask, a transaction completes once
// the requests made in it have answered.
function fakeIndexedDB() {
  const dbs = new Map();
  const request = (f) => {
    const r = {};
    queueMicrotask(() => {
      try { r.result = f(); r.onsuccess && r.onsuccess(); } catch (e) { r.error = e; r.onerror && r.onerror(); }
    });
    return r;
  };
  const handle = (d) => ({
    objectStoreNames: { contains: (n) => d.stores.has(n) },
    createObjectStore: (n, options = {}) => { d.stores.set(n, { options, data: new Map(), next: 1 }); },
    transaction(name, mode) {
      const st = d.stores.get(name);
      if (!st) throw new Error(`NotFoundError: ${name}`);
      const t = {};
      const write = (f) => { if (mode !== "readwrite") throw new Error("ReadOnlyError"); return request(f); };
      const keyOf = (v, k) => {
        if (k !== undefined) return k;
        if (!st.options.keyPath) throw new Error("DataError: no key");
        if (v[st.options.keyPath] === undefined && st.options.autoIncrement) v[st.options.keyPath] = st.next++;
        return v[st.options.keyPath];
      };
      t.objectStore = () => ({
        get: (k) => request(() => structuredClone(st.data.get(k))),
        getAll: () => request(() => [...st.data.keys()].sort((a, b) => a - b).map((k) => structuredClone(st.data.get(k)))),
        put: (v, k) => write(() => { const c = structuredClone(v); const key = keyOf(c, k); st.data.set(key, c); return key; }),
        add: (v, k) => write(() => {
          const c = structuredClone(v);
          const key = keyOf(c, k);
          if (st.data.has(key)) throw new Error("ConstraintError");
          st.data.set(key, c);
          return key;
        }),
        delete: (k) => write(() => { st.data.delete(k); }),
      });
      setTimeout(() => t.oncomplete && t.oncomplete(), 0);
      return t;
    },
  });
  return {
    dbs,
    open(name, version) {
      const r = {};
      setTimeout(() => {
        let d = dbs.get(name);
        const fresh = !d;
        if (fresh) { d = { version: 0, stores: new Map() }; dbs.set(name, d); }
        if (version < d.version) { r.error = new Error("VersionError"); r.onerror && r.onerror(); return; }
        r.result = handle(d);
        if (version > d.version) { d.version = version; r.onupgradeneeded && r.onupgradeneeded(); }
        r.onsuccess && r.onsuccess();
      }, 0);
      return r;
    },
  };
}

test("the pages' databases keep their names, versions and stores", () => {
  assert.deepEqual([BOARD.name, BOARD.version, Object.keys(BOARD.stores)], ["kifu-board", 1, ["kv", "outbox"]]);
  assert.deepEqual(BOARD.stores.outbox, { keyPath: "n", autoIncrement: true });
  assert.deepEqual([REFEREE.name, REFEREE.version, Object.keys(REFEREE.stores)], ["kifu-referee", 1, ["kv"]]);
  assert.deepEqual([DIRECTOR.name, DIRECTOR.version, Object.keys(DIRECTOR.stores)], ["kifu-director", 1, ["kv"]]);
});

test("a key-value store gives back what was set, and nothing for a key never set", async () => {
  const idb = fakeIndexedDB();
  const kv = open(REFEREE, idb).keyValue("kv");
  assert.equal(await kv.get("request"), undefined);
  await kv.set("request", "r-7");
  assert.equal(await kv.get("request"), "r-7");
  await kv.set("request", null);
  assert.equal(await kv.get("request"), null);
});

test("the outbox keeps records in the order signed, numbered, until deleted", async () => {
  const idb = fakeIndexedDB();
  const outbox = open(BOARD, idb).records("outbox");
  const a = await outbox.add({ game: "g", seq: 4 });
  const b = await outbox.add({ game: "g", seq: 5 });
  assert.ok(b > a);
  assert.deepEqual((await outbox.all()).map((i) => i.seq), [4, 5]);
  await outbox.put({ n: a, game: "g", seq: 4, displaced: true });
  await outbox.delete(b);
  assert.deepEqual(await outbox.all(), [{ n: a, game: "g", seq: 4, displaced: true }]);
});

test("what a browser kept before opens as it is", async () => {
  const idb = fakeIndexedDB();
  // A tablet's database as the board page used to make it.
  await new Promise((ok) => {
    const r = idb.open("kifu-board", 1);
    r.onupgradeneeded = () => { r.result.createObjectStore("kv"); r.result.createObjectStore("outbox", { keyPath: "n", autoIncrement: true }); };
    r.onsuccess = () => {
      const t = r.result.transaction("kv", "readwrite");
      t.objectStore("kv").put("0e3b", "game");
      t.oncomplete = ok;
    };
  });
  const db = open(BOARD, idb);
  assert.equal(await db.keyValue("kv").get("game"), "0e3b");
  assert.deepEqual(await db.records("outbox").all(), []);
});

test("a store the database does not have is refused by name", async () => {
  const db = open(DIRECTOR, fakeIndexedDB());
  await assert.rejects(db.records("outbox").all(), /kifu-director has no store outbox/);
});
