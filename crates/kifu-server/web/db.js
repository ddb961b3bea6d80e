// What the pages keep in the browser (IndexedDB), in one place: each page
// kind has its database, named and laid out here, and every page reads and
// writes through this module.
//
// - `kifu-board`, the board tablet: `kv` (its key pair, `keypair:black` and
//   `keypair:white` on a shared tablet, its seat request, the game it sits
//   at, each game as last drawn, `shown:ID`, for a reload while the server
//   is away, and the game's pass-stone rule, `pass-stones:ID`) and
//   `outbox` (the records it signed and the server has not yet
//   acknowledged, in the order signed).
// - `kifu-referee`, the referee's console: `kv` (its key pair, its request).
// - `kifu-director`, the director's desk: `kv` (its key pair, the
//   tournament shown).
//
// The names, versions and stores are the ones the pages have always used,
// so what a browser kept opens as it is. A store added later is listed
// under a higher version: opening creates the stores missing, and leaves
// the others (and what they hold) alone.
//
//   const db = open(BOARD);
//   const kv = db.keyValue("kv");       await kv.set("game", id); await kv.get("game");
//   const outbox = db.records("outbox"); await outbox.add(item); await outbox.all();
//
// A key pair is kept as Web Crypto's CryptoKey objects: the private half is
// not extractable, IndexedDB keeps it and nothing can read it out.
// Tested by web/test/db.test.mjs.

/** The board tablet's database. */
export const BOARD = Object.freeze({
  name: "kifu-board",
  version: 1,
  stores: { kv: {}, outbox: { keyPath: "n", autoIncrement: true } },
});
/** The referee's console's database. */
export const REFEREE = Object.freeze({ name: "kifu-referee", version: 1, stores: { kv: {} } });
/** The director's desk's database. */
export const DIRECTOR = Object.freeze({ name: "kifu-director", version: 1, stores: { kv: {} } });

const answer = (r) => new Promise((resolve, reject) => {
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => reject(r.error);
});

/**
 * The database `schema` (one of the above), opened once: `keyValue(store)`
 * gives `{get, set}` over a store of values by key, `records(store)` gives
 * `{all, add, put, delete}` over a store whose values carry their key.
 * `idb` is the browser's IndexedDB unless given (tests).
 */
export function open(schema, idb = globalThis.indexedDB) {
  const dbp = new Promise((resolve, reject) => {
    const r = idb.open(schema.name, schema.version);
    r.onupgradeneeded = () => {
      const d = r.result;
      for (const [store, options] of Object.entries(schema.stores)) {
        if (!d.objectStoreNames.contains(store)) d.createObjectStore(store, options);
      }
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  // One transaction: `f(store)` makes its requests; the value is the one
  // `f` resolves to, given once the transaction has completed (a write is
  // kept only then).
  const tx = async (store, mode, f) => {
    if (!(store in schema.stores)) throw new Error(`${schema.name} has no store ${store}`);
    const d = await dbp;
    return new Promise((resolve, reject) => {
      const t = d.transaction(store, mode);
      let out;
      Promise.resolve(f(t.objectStore(store))).then((v) => { out = v; }, () => {});
      t.oncomplete = () => resolve(out);
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error);
    });
  };
  return {
    keyValue: (store) => ({
      get: (k) => tx(store, "readonly", (s) => answer(s.get(k))),
      set: (k, v) => tx(store, "readwrite", (s) => { s.put(v, k); }),
    }),
    records: (store) => ({
      all: () => tx(store, "readonly", (s) => answer(s.getAll())),
      add: (v) => tx(store, "readwrite", (s) => answer(s.add(v))),
      put: (v) => tx(store, "readwrite", (s) => { s.put(v); }),
      delete: (k) => tx(store, "readwrite", (s) => { s.delete(k); }),
    }),
  };
}
