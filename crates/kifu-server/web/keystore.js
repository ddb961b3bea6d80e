// A page's own signing key, kept in the browser (IndexedDB, through
// db.js): made once with Web Crypto, its private half not extractable, so
// nothing can read it out; the same key comes back on every visit. Used by
// the board, the referee's console and the director's desk.

import * as rec from "/web/record.js";

/**
 * The page's key pair from `store` (`{get, set}`, db.js's `keyValue`),
 * made and kept on first use: `{keys, hex}`, `hex` the public key as the
 * format writes it.
 */
export async function ownKey(store) {
  let keys = await store.get("keypair");
  if (!keys) {
    keys = await rec.generateKey();
    await store.set("keypair", keys);
  }
  return { keys, hex: rec.toHex(await rec.publicKeyBytes(keys.publicKey)) };
}
