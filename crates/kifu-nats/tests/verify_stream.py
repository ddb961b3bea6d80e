#!/usr/bin/env python3
"""Reads a kifu JetStream stream and checks every record from docs/FORMAT.md
alone: no kifu code, only nats-py, blake3 and an ed25519 library.

For each message: the stored framing (section 7), the envelope (sections 2
and 3), the signature over SIGN_DOMAIN || event_bytes (section 1), the hash
over HASH_DOMAIN || event_bytes || signature, the header Nats-Msg-Id equal to
that hash, the chain (section 6: genesis first, seq +1, prev_hash links,
chain id = genesis hash), the subject kifu.<game id>.<tournament>, and that
every signer is in the genesis roster (section 5: "a key not in the roster
can sign nothing"; the genesis signer a director, referee or recorder).

Usage: verify_stream.py NATS_URL STREAM [--expect N]
Prints one JSON line {"records": N, "games": G};
exits 1 with a message on the first problem.
"""

import asyncio
import json
import sys

import blake3
import nats
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

SIGN_DOMAIN = b"kifu/v1/event-signature\n"
HASH_DOMAIN = b"kifu/v1/event-hash\n"
ZERO = bytes(32)


class Reader:
    """postcard 1.x, as FORMAT.md section 2 describes it."""

    def __init__(self, b):
        self.b, self.i = b, 0

    def byte(self):
        if self.i >= len(self.b):
            raise ValueError("truncated")
        v = self.b[self.i]
        self.i += 1
        return v

    def fixed(self, n):
        if self.i + n > len(self.b):
            raise ValueError("truncated")
        v = self.b[self.i : self.i + n]
        self.i += n
        return v

    def varint(self):
        shift, v = 0, 0
        while True:
            x = self.byte()
            v |= (x & 0x7F) << shift
            if not x & 0x80:
                return v
            shift += 7
            if shift > 63:
                raise ValueError("varint too long")

    def zigzag(self):
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def string(self):
        return self.fixed(self.varint()).decode("utf-8")

    def bytes_(self):
        return self.fixed(self.varint())

    def opt(self, f):
        return f() if self.byte() == 1 else None


def envelope(event_bytes):
    r = Reader(event_bytes)
    env = {
        "version": r.varint(),
        "chain": r.fixed(32),
        "seq": r.varint(),
        "prev_hash": r.fixed(32),
        "at_ms": r.varint(),
        "signer": r.fixed(32),
        "body": r.bytes_(),
    }
    if r.i != len(event_bytes):
        raise ValueError("trailing bytes after the envelope")
    return env


def genesis(body):
    """Genesis up to its roster and tournament (FORMAT.md section 4)."""
    r = Reader(body)
    if r.varint() != 0:
        raise ValueError("the first record is not game_created")
    r.varint()  # GameKind
    r.string()  # ruleset
    for _ in range(r.varint()):  # overrides
        r.string()
        r.string()
    r.byte()  # board_size
    r.byte()  # handicap
    r.zigzag()  # komi_half_points
    tc = r.varint()
    fields = {0: 0, 1: 1, 2: 2, 3: 1, 4: 3, 5: 3}[tc]
    for _ in range(fields):
        r.varint()
    if tc == 2:
        r.opt(r.varint)  # fischer max_ms
    roster = []
    for _ in range(r.varint()):
        role = r.varint()
        r.string()
        roster.append((role, r.fixed(32)))
    tournament = r.opt(lambda: (r.string(), r.varint(), r.varint()))
    return roster, tournament


def token(name):
    out = ""
    for b in name.encode("utf-8"):
        c = chr(b)
        out += c if (c.isascii() and c.isalnum()) or c in "-_" else "~%02x" % b
    return out or "~~"


def fail(msg):
    print("verify_stream: " + msg, file=sys.stderr)
    sys.exit(1)


async def main():
    args = sys.argv[1:]
    if len(args) < 2:
        fail("usage: verify_stream.py NATS_URL STREAM [--expect N]")
    url, stream = args[0], args[1]
    expect = int(args[3]) if len(args) >= 4 and args[2] == "--expect" else None
    nc = await nats.connect(servers=url.split(","), connect_timeout=5)
    js = nc.jetstream()
    info = await js.stream_info(stream)
    first, last = info.state.first_seq, info.state.last_seq
    games = {}  # game id -> {"next": seq, "head": hash, "roster": set}
    count = 0
    for sseq in range(first, last + 1):
        m = await js.get_msg(stream, sseq)
        data = m.data
        if len(data) < 4:
            fail(f"message {sseq}: too short")
        n = int.from_bytes(data[:4], "little")
        if len(data) != 4 + n + 64:
            fail(f"message {sseq}: framing length")
        eb, sig = data[4 : 4 + n], data[4 + n :]
        env = envelope(eb)
        if env["version"] != 1:
            fail(f"message {sseq}: version {env['version']}")
        try:
            Ed25519PublicKey.from_public_bytes(env["signer"]).verify(sig, SIGN_DOMAIN + eb)
        except InvalidSignature:
            fail(f"message {sseq}: bad signature")
        h = blake3.blake3(HASH_DOMAIN + eb + sig).digest()
        if (m.headers or {}).get("Nats-Msg-Id") != h.hex():
            fail(f"message {sseq}: Nats-Msg-Id is not the record hash")
        if env["seq"] == 0:
            if env["chain"] != ZERO or env["prev_hash"] != ZERO:
                fail(f"message {sseq}: genesis with a chain or link")
            roster, t = genesis(env["body"])
            if not any(k == env["signer"] and role in (2, 3, 4) for role, k in roster):
                fail(f"message {sseq}: genesis not signed by its director, referee or recorder")
            game = h
            if game in games:
                fail(f"message {sseq}: a second genesis of one game")
            games[game] = {"next": 1, "head": h, "roster": {k for _, k in roster}}
            tok = token(t[0]) if t else "~"
        else:
            game = env["chain"]
            g = games.get(game)
            if g is None:
                fail(f"message {sseq}: a record of a game whose genesis is not before it")
            if env["seq"] != g["next"]:
                fail(f"message {sseq}: seq {env['seq']}, expected {g['next']}")
            if env["prev_hash"] != g["head"]:
                fail(f"message {sseq}: broken link")
            if env["signer"] not in g["roster"]:
                fail(f"message {sseq}: signer not in the roster")
            g["next"] += 1
            g["head"] = h
            tok = None
        subj = m.subject.split(".")
        if len(subj) != 3 or subj[0] != "kifu" or subj[1] != game.hex():
            fail(f"message {sseq}: subject {m.subject}")
        if tok is not None and subj[2] != tok:
            fail(f"message {sseq}: tournament token {subj[2]}, expected {tok}")
        count += 1
    await nc.close()
    if expect is not None and count != expect:
        fail(f"{count} records, expected {expect}")
    print(json.dumps({"records": count, "games": len(games)}))


if __name__ == "__main__":
    asyncio.run(main())
