// A page's own signing key, kept in the browser (IndexedDB): made once
// with Web Crypto, its private half not extractable, so nothing can read
// it out; the same key comes back on every visit. Used by the board,
// the referee's console and the director's desk.

import * as rec from "/web/record.js";

/** A key-value store of one IndexedDB database `name`: `{get, set}`. */
export function keyValueStore(name) {
  const dbp = new Promise((resolve, reject) => {
    const r = indexedDB.open(name, 1);
    r.onupgradeneeded = () => r.result.createObjectStore("kv");
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const kv = async (mode, f) => {
    const d = await dbp;
    return new Promise((resolve, reject) => {
      const t = d.transaction("kv", mode);
      const r = f(t.objectStore("kv"));
      t.oncomplete = () => resolve(r && r.result);
      t.onerror = () => reject(t.error);
    });
  };
  return {
    get: (k) => kv("readonly", (s) => s.get(k)),
    set: (k, v) => kv("readwrite", (s) => s.put(v, k)),
  };
}

/**
 * The page's key pair from `store` (`{get, set}`), made and kept on first
 * use: `{keys, hex}`, `hex` the public key as the format writes it.
 */
export async function ownKey(store) {
  let keys = await store.get("keypair");
  if (!keys) {
    keys = await rec.generateKey();
    await store.set("keypair", keys);
  }
  return { keys, hex: rec.toHex(await rec.publicKeyBytes(keys.publicKey)) };
}
