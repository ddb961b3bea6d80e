#!/usr/bin/env python3
"""An integrator's program: records and follows a game through a client
that openapi-python-client generated from docs/openapi.json, signing with
Python's own Ed25519 (`cryptography`), never with kifu.

Usage: openapi_client.py URL VECTORS.json   (the generated package
`kifu_client` on PYTHONPATH)

It creates a game (the genesis of fixtures/format/vectors.json, signed by
its director), appends a clock start and two moves signed by the referee
and the players, is refused a move signed by the wrong player, reads the
head, the state, the records and the appeal bundle, reads the feed and
follows its event stream, and parses every answer with the generated
models (`from_dict` refuses a document that lacks a required field). It
prints `ok GAME SEQ STATE_HASH CURSORS` for tests/openapi_client_cli.rs.
"""
import json
import sys
import time

import blake3
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kifu_client import Client
from kifu_client.api.feed import read_feed
from kifu_client.api.games import get_head, get_records, get_state
from kifu_client.api.operations import liveness
from kifu_client.api.records import submit_records
from kifu_client.api.transparency import get_bundle, sign_checkpoint
from kifu_client.models import (
    ApiError,
    ApiHead,
    ApiRecords,
    ApiSubmissionType0,
    ApiSubmit,
    Checkpoint,
    FeedLine,
    Replay,
)

SIGN_DOMAIN = b"kifu/v1/event-signature\n"
HASH_DOMAIN = b"kifu/v1/event-hash\n"
BLACK, WHITE = b"\x00", b"\x01"


def fail(what):
    print("FAIL " + what)
    sys.exit(1)


def varint(n):
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        if not n:
            return out + bytes([b])
        out += bytes([b | 0x80])


def envelope(chain, seq, prev, at_ms, signer, body):
    """FORMAT.md section 2: version 1, chain, seq, prev_hash, at_ms, signer,
    body (postcard: varints and length-prefixed bytes)."""
    return (varint(1) + chain + varint(seq) + prev + varint(at_ms) + signer
            + varint(len(body)) + body)


def stored(event_bytes, signature):
    return (len(event_bytes).to_bytes(4, "little") + event_bytes + signature).hex()


URL, VECTORS = sys.argv[1], sys.argv[2]
with open(VECTORS) as f:
    V = json.load(f)
SK = {k["name"]: Ed25519PrivateKey.from_private_bytes(bytes.fromhex(k["seed"]))
      for k in V["keys"]}
PK = {k["name"]: bytes.fromhex(k["public_key"]) for k in V["keys"]}
client = Client(base_url=URL, raise_on_unexpected_status=True)

alive = liveness.sync_detailed(client=client)
if alive.status_code != 200 or alive.headers.get("kifu-api-version") is None:
    fail("livez: %s %s" % (alive.status_code, dict(alive.headers)))


def sign(signer, chain, seq, prev, at_ms, body):
    eb = envelope(chain, seq, prev, at_ms, PK[signer], body)
    sig = SK[signer].sign(SIGN_DOMAIN + eb)
    return eb, sig, blake3.blake3(HASH_DOMAIN + eb + sig).digest()


def submit(records):
    body = ApiSubmissionType0(records=[stored(eb, sig) for eb, sig, _ in records])
    r = submit_records.sync_detailed(client=client, body=body)
    return r.status_code, r.parsed


# The genesis: the vectors' game, signed now by its director.
at = 1767225600000
genesis_body = bytes.fromhex(V["events"][0]["body_bytes"])
g = sign("director", bytes(32), 0, bytes(32), at, genesis_body)
status, answer = submit([g])
if status != 200 or not isinstance(answer, ApiSubmit) or answer.accepted != 1:
    fail("genesis: %s %s" % (status, answer))
game = answer.results[0].game
if bytes.fromhex(game) != g[2] or answer.results[0].hash_ != g[2].hex():
    fail("the game's id is not the genesis hash computed here")
chain = g[2]

# kind 1 clock_started{running}, kind 2 stone_placed{player, stone, point}.
head = get_head.sync(game, client=client)
if not isinstance(head, ApiHead) or (head.seq, head.hash_) != (0, chain.hex()):
    fail("head after the genesis: %s" % head)
records = []
prev = bytes.fromhex(head.hash_)
for seq, (signer, body) in enumerate([
        ("referee", varint(1) + BLACK),
        ("black", varint(2) + BLACK + BLACK + bytes([2, 2])),
        ("white", varint(2) + WHITE + WHITE + bytes([6, 6]))], start=1):
    r = sign(signer, chain, seq, prev, at + 1000 * seq, body)
    records.append(r)
    prev = r[2]
status, answer = submit(records)
if status != 200 or answer.accepted != 3 or answer.refused != 0:
    fail("three records: %s %s" % (status, answer))
if [a.seq for a in answer.results] != [1, 2, 3] or not all(a.new for a in answer.results):
    fail("places: %s" % answer)
if [a.hash_ for a in answer.results] != [r[2].hex() for r in records]:
    fail("the hashes computed here differ from the server's")
cursors = [a.cursor for a in answer.results]

# A move signed by the wrong player: refused with the one error shape.
wrong = sign("black", chain, 4, prev, at + 5000, varint(2) + WHITE + WHITE + bytes([4, 4]))
status, answer = submit([wrong])
if status != 403 or not isinstance(answer, ApiError) or answer.error.code != "role_refused":
    fail("a move signed by the wrong player: %s %s" % (status, answer))
if answer.error.status != 403 or not answer.error.message:
    fail("the refusal: %s" % answer)

head = get_head.sync(game, client=client)
if (head.seq, head.hash_) != (3, prev.hex()):
    fail("head: %s" % head)
state = get_state.sync(game, client=client)
if not isinstance(state, Replay) or state.game != game or state.last_seq != 3:
    fail("state: %s" % state)
if not state.verified or state.state.to_move != "black":
    fail("state: verified %s, to move %s" % (state.verified, state.state.to_move))
at_one = get_state.sync(game, client=client, at=1)
if at_one.view.state_hash == state.view.state_hash:
    fail("the state at event 1 is the state at the head")
missing = get_state.sync_detailed(game, client=client, at=9)
if missing.status_code != 404 or missing.parsed.error.code != "no_such_event":
    fail("an event past the head: %s" % missing)

recs = get_records.sync(game, client=client)
if not isinstance(recs, ApiRecords) or [r.seq for r in recs.records] != [0, 1, 2, 3]:
    fail("records: %s" % recs)
if [r.kind_index for r in recs.records] != [0, 1, 2, 2]:
    fail("kinds: %s" % [r.kind_index for r in recs.records])
if recs.records[2].signature != records[1][1].hex():
    fail("a record's signature is not the one made here")

# The appeal bundle needs a checkpoint of the log that holds the game's
# four records; the server signs at most once a second (`Retry-After`).
for _ in range(20):
    signed = sign_checkpoint.sync_detailed(client=client, format_="json")
    if signed.status_code not in (200, 201) or not isinstance(signed.parsed, Checkpoint):
        fail("checkpoint: %s" % signed.status_code)
    if signed.parsed.size >= 4:
        break
    time.sleep(float(signed.headers.get("retry-after", "1")))
else:
    fail("no checkpoint of the game's records was signed")
bundle = get_bundle.sync_detailed(game, client=client)
if bundle.status_code != 200:
    fail("bundle: %s %s" % (bundle.status_code, bundle.content[:200]))
b = json.loads(bundle.content)
if not isinstance(b, dict) or game not in bundle.content.decode():
    fail("the bundle does not name the game")

# The feed: a page of NDJSON, each line a FeedLine (the generator leaves
# the parsing of a media type other than JSON to the caller).
lenient = Client(base_url=URL)
page = read_feed.sync_detailed(client=lenient)
if page.status_code != 200 or page.headers["content-type"] != "application/x-ndjson":
    fail("feed: %s %s" % (page.status_code, page.headers["content-type"]))
lines = [FeedLine.from_dict(json.loads(x)) for x in page.content.decode().splitlines() if x]
ours = [x for x in lines if x.game == game]
if [x.seq for x in ours] != [0, 1, 2, 3] or [x.cursor for x in ours][1:] != cursors:
    fail("feed: %s" % [(x.seq, x.cursor) for x in ours])

# The stream: events whose data is a FeedLine, followed until the last
# record, with the generated client's own HTTP connection.
seen = []
with client.get_httpx_client().stream(
        "GET", "/feed/stream", params={"game": game, "after": 0}, timeout=10) as s:
    if not s.headers["content-type"].startswith("text/event-stream"):
        fail("stream: %s" % s.headers["content-type"])
    for line in s.iter_lines():
        if line.startswith("data:"):
            x = FeedLine.from_dict(json.loads(line[5:]))
            seen.append((x.seq, x.kind_index))
            if x.seq == 3:
                break
if seen != [(1, 1), (2, 2), (3, 2)]:
    fail("stream: %s" % seen)

print("ok %s %d %s %s" % (game, head.seq, state.view.state_hash, ",".join(map(str, cursors))))
