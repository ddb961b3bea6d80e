// BLAKE3-256 (the default 32-byte hash), as specified in "BLAKE3: one
// function, fast everywhere" (O'Connor, Aumasson, Neves, Wilcox-O'Hearn,
// 2020), sections 2.1 to 2.6. kifu's records are hashed with it
// (docs/FORMAT.md, section 1); Web Crypto has no BLAKE3, so the pages and
// the record library carry this module. Plain hash mode only (no keyed
// hash, no key derivation, no extended output): that is all the format uses.
//
// Checked by crates/kifu-server/web/test/record.test.mjs against the
// reference implementation's outputs on the inputs of the official test
// vectors (lengths 0 to 102,400, bytes i mod 251), and against every record
// hash of fixtures/format/vectors.json.

const IV = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
// The message word permutation applied between rounds (section 2.2).
const PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const CHUNK_START = 1;
const CHUNK_END = 2;
const PARENT = 4;
const ROOT = 8;
const BLOCK_LEN = 64;
const CHUNK_LEN = 1024;

function g(s, a, b, c, d, x, y) {
  s[a] = s[a] + s[b] + x;
  let t = s[d] ^ s[a];
  s[d] = (t >>> 16) | (t << 16);
  s[c] = s[c] + s[d];
  t = s[b] ^ s[c];
  s[b] = (t >>> 12) | (t << 20);
  s[a] = s[a] + s[b] + y;
  t = s[d] ^ s[a];
  s[d] = (t >>> 8) | (t << 24);
  s[c] = s[c] + s[d];
  t = s[b] ^ s[c];
  s[b] = (t >>> 7) | (t << 25);
}

/**
 * The compression function (section 2.2): 16 output words.
 * @param {Uint32Array} cv 8 words
 * @param {Uint32Array} block 16 words (little-endian message words)
 * @param {number} counter chunk counter (below 2^53)
 * @param {number} blockLen bytes of the block actually used
 * @param {number} flags
 */
function compress(cv, block, counter, blockLen, flags) {
  const s = new Uint32Array(16);
  s.set(cv, 0);
  s.set(IV.subarray(0, 4), 8);
  s[12] = counter % 0x100000000;
  s[13] = Math.floor(counter / 0x100000000);
  s[14] = blockLen;
  s[15] = flags;
  let m = Uint32Array.from(block);
  for (let round = 0; round < 7; round++) {
    g(s, 0, 4, 8, 12, m[0], m[1]);
    g(s, 1, 5, 9, 13, m[2], m[3]);
    g(s, 2, 6, 10, 14, m[4], m[5]);
    g(s, 3, 7, 11, 15, m[6], m[7]);
    g(s, 0, 5, 10, 15, m[8], m[9]);
    g(s, 1, 6, 11, 12, m[10], m[11]);
    g(s, 2, 7, 8, 13, m[12], m[13]);
    g(s, 3, 4, 9, 14, m[14], m[15]);
    if (round < 6) {
      const p = new Uint32Array(16);
      for (let i = 0; i < 16; i++) p[i] = m[PERMUTATION[i]];
      m = p;
    }
  }
  for (let i = 0; i < 8; i++) {
    s[i] ^= s[i + 8];
    s[i + 8] ^= cv[i];
  }
  return s;
}

function words(bytes, offset, len) {
  const w = new Uint32Array(16);
  for (let i = 0; i < len; i++) {
    w[i >> 2] |= bytes[offset + i] << ((i & 3) * 8);
  }
  return w;
}

// An output node: what is compressed last, either into a chaining value or,
// with ROOT, into the hash.
function chunkOutput(input, start, end, counter) {
  let cv = IV;
  const len = end - start;
  const blocks = Math.max(1, Math.ceil(len / BLOCK_LEN));
  for (let b = 0; b < blocks; b++) {
    const off = start + b * BLOCK_LEN;
    const blen = Math.min(BLOCK_LEN, end - off);
    let flags = b === 0 ? CHUNK_START : 0;
    const block = words(input, off, blen);
    if (b === blocks - 1) {
      return { cv, block, counter, blen, flags: flags | CHUNK_END };
    }
    cv = compress(cv, block, counter, BLOCK_LEN, flags).subarray(0, 8);
  }
  throw new Error("unreachable");
}

function chainingValue(o) {
  return compress(o.cv, o.block, o.counter, o.blen, o.flags).subarray(0, 8);
}

function parentOutput(left, right) {
  const block = new Uint32Array(16);
  block.set(left, 0);
  block.set(right, 8);
  return { cv: IV, block, counter: 0, blen: BLOCK_LEN, flags: PARENT };
}

/** The concatenation of byte arrays (the one given, when there is one). */
export function concat(parts) {
  if (parts.length === 1) return parts[0];
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * BLAKE3-256 of the concatenation of the given byte arrays.
 * @param {...Uint8Array} parts
 * @returns {Uint8Array} 32 bytes
 */
export function blake3(...parts) {
  for (const p of parts) {
    if (!(p instanceof Uint8Array)) throw new TypeError("blake3 hashes Uint8Arrays");
  }
  const input = concat(parts);
  const chunks = Math.max(1, Math.ceil(input.length / CHUNK_LEN));
  const stack = [];
  for (let i = 0; i < chunks - 1; i++) {
    let cv = chainingValue(chunkOutput(input, i * CHUNK_LEN, (i + 1) * CHUNK_LEN, i));
    // Merge completed subtrees: one merge per trailing zero bit of the
    // number of chunks so far (section 5.1.2 of the paper's reference).
    let total = i + 1;
    while ((total & 1) === 0) {
      cv = chainingValue(parentOutput(stack.pop(), cv));
      total >>>= 1;
    }
    stack.push(cv);
  }
  let out = chunkOutput(input, (chunks - 1) * CHUNK_LEN, input.length, chunks - 1);
  while (stack.length > 0) {
    out = parentOutput(stack.pop(), chainingValue(out));
  }
  const root = compress(out.cv, out.block, out.counter, out.blen, out.flags | ROOT);
  const hash = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    hash[i * 4] = root[i];
    hash[i * 4 + 1] = root[i] >>> 8;
    hash[i * 4 + 2] = root[i] >>> 16;
    hash[i * 4 + 3] = root[i] >>> 24;
  }
  return hash;
}
