#!/usr/bin/env python3
"""Independent check of kifu's map of game heads (docs/TRANSPARENCY.md,
section 10), written from that document alone with Python's standard
library: no kifu code.

Usage: python3 tests/peers/map_check.py fixtures/tlog/map.json

For the vectors file it recomputes: the leaf hash and node hash examples;
the map after every prefix of the log (entries and root) from the 72-byte
log leaves; every proof's verdict (present / absent / invalid); and the
checkpoint's RFC 6962 tree root and its kifu-map/1 line. It prints one line
per kind of check and exits 1 at the first disagreement.
"""

import base64
import hashlib
import json
import sys

EMPTY = bytes(32)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def sha256(b):
    return hashlib.sha256(b).digest()


def map_leaf_hash(map_leaf):
    return sha256(b"\x02" + map_leaf)


def map_node_hash(left, right):
    return sha256(b"\x03" + left + right)


def bit(key, i):
    return (key[i // 8] >> (7 - i % 8)) & 1


def subtree_hash(entries, depth):
    """H(S, d): entries are 80-byte map leaves sharing `depth` bits."""
    if not entries:
        return EMPTY
    if len(entries) == 1:
        return map_leaf_hash(entries[0])
    left = [e for e in entries if bit(e[:32], depth) == 0]
    right = [e for e in entries if bit(e[:32], depth) == 1]
    return map_node_hash(subtree_hash(left, depth + 1), subtree_hash(right, depth + 1))


def heads(leaves):
    """Map leaves of a log prefix: each game's last leaf and its index."""
    last = {}
    for index, leaf in enumerate(leaves):
        if len(leaf) != 72:
            fail("a log leaf is not 72 bytes")
        last[leaf[:32]] = leaf + index.to_bytes(8, "big")
    return [last[k] for k in sorted(last)]


def verify(root, key, leaf, siblings):
    """The verifier of section 10: 'present', 'absent' or None (fails)."""
    d = len(siblings)
    if d > 256:
        return None
    if leaf is None:
        h = EMPTY
    else:
        if len(leaf) != 80:
            return None
        if any(bit(leaf[:32], i) != bit(key, i) for i in range(d)):
            return None
        h = map_leaf_hash(leaf)
    for i, s in enumerate(siblings):
        b = bit(key, d - 1 - i)
        h = map_node_hash(s, h) if b == 1 else map_node_hash(h, s)
    if h != root:
        return None
    if leaf is not None and leaf[:32] == key:
        return "present"
    return "absent"


def rfc6962_root(leaves):
    """RFC 9162 section 2.1.1 MTH over the leaf data."""
    if not leaves:
        return sha256(b"")
    if len(leaves) == 1:
        return sha256(b"\x00" + leaves[0])
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return sha256(b"\x01" + rfc6962_root(leaves[:k]) + rfc6962_root(leaves[k:]))


def b64(s):
    return base64.b64decode(s, validate=True)


def main():
    if len(sys.argv) != 2:
        fail("usage: map_check.py FILE.json")
    with open(sys.argv[1]) as f:
        v = json.load(f)
    if bytes.fromhex(v["empty"]) != EMPTY:
        fail("EMPTY is not 32 zero bytes")
    lh = v["leaf_hash"]
    if map_leaf_hash(bytes.fromhex(lh["map_leaf"])).hex() != lh["hash"]:
        fail("the map leaf hash example")
    nh = v["node_hash"]
    if map_node_hash(bytes.fromhex(nh["left"]), bytes.fromhex(nh["right"])).hex() != nh["hash"]:
        fail("the node hash example")
    print("ok: map leaf and node hashes")

    leaves = [bytes.fromhex(l) for l in v["leaves"]]
    for m in v["maps"]:
        size = m["size"]
        entries = heads(leaves[:size])
        if [e.hex() for e in entries] != m["entries"]:
            fail("the entries of the map of size %d" % size)
        root = subtree_hash(entries, 0)
        if root != b64(m["root"]):
            fail("the map root of size %d: recomputed %s, the vectors say %s"
                 % (size, base64.b64encode(root).decode(), m["root"]))
    print("ok: every map root of %d log prefixes recomputed from the leaves" % len(v["maps"]))

    root = subtree_hash(heads(leaves), 0)
    counts = {}
    for p in v["proofs"]:
        key = bytes.fromhex(p["game"])
        leaf = None if p["leaf"] is None else bytes.fromhex(p["leaf"])
        siblings = [b64(s) for s in p["siblings"]]
        got = verify(root, key, leaf, siblings) or "invalid"
        if got != p["expect"]:
            fail("proof for %s: %s, the vectors say %s" % (p["game"], got, p["expect"]))
        counts[got] = counts.get(got, 0) + 1
    print("ok: every proof's verdict (%s)" % ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items())))

    text = v["checkpoint"].split("\n\n")[0] + "\n"
    lines = text.rstrip("\n").split("\n")
    if len(lines) != 4:
        fail("the checkpoint has %d lines, not origin, size, root and the map line" % len(lines))
    if int(lines[1]) != len(leaves) or b64(lines[2]) != rfc6962_root(leaves):
        fail("the checkpoint's size or tree root")
    if lines[3] != "kifu-map/1 " + base64.b64encode(root).decode():
        fail("the checkpoint's map line %r" % lines[3])
    print("ok: the checkpoint names the tree root and the map root of the leaves")


if __name__ == "__main__":
    main()
