#!/usr/bin/env python3
"""Writes small archives at the places docs/FORMAT.md had to clarify (forks
whose second record is refused, records after a refused one, gaps, broken
links, warnings, signed results, committee keys, unknown kinds, tournament
kinds in a game chain), signed with the keys of fixtures/format/vectors.json.

Usage: format_cases.py VECTORS.json OUT_DIR   (writes OUT_DIR/*.kifu)

tests/format_verifier_cli.rs checks that format_verifier.py and `kifu verify`
reach the same verdict on each.
"""
import json
import os
import sys

sys.dont_write_bytecode = True
import format_verifier as fv  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

with open(sys.argv[1]) as f:
    V = json.load(f)
OUT = sys.argv[2]
SK = {k["name"]: Ed25519PrivateKey.from_private_bytes(bytes.fromhex(k["seed"]))
      for k in V["keys"]}
PK = {k["name"]: bytes.fromhex(k["public_key"]) for k in V["keys"]}
# The genesis of the vectors' chain: a 9x9 game whose roster is black,
# white, referee, recorder and director.
GEN_BODY = bytes.fromhex(V["events"][0]["body_bytes"])
BLACK, WHITE = b"\x00", b"\x01"


def varint(n):
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        if not n:
            return out + bytes([b])
        out += bytes([b | 0x80])


def s(text):
    text = text.encode()
    return varint(len(text)) + text


def k(index):
    return varint(index)


def pt(x, y):
    return bytes([x, y])


class Chain:
    """A game chain being written: records (event_bytes, signature, hash)."""

    def __init__(self, genesis_body=GEN_BODY, signer="director", at=1767225600000):
        self.recs = []
        self.at = at
        self.gid = None
        self.add(0, genesis_body, signer, prev=bytes(32), chain=bytes(32))
        self.gid = self.recs[0][2]

    def make(self, seq, body, signer, prev, chain, at=None):
        at = self.at if at is None else at
        eb = (varint(1) + chain + varint(seq) + prev + varint(at) + PK[signer]
              + varint(len(body)) + body)
        sig = SK[signer].sign(fv.SIGN_DOMAIN + eb)
        return (eb, sig, fv.record_hash(eb, sig))

    def add(self, seq, body, signer, prev=None, chain=None, at=None):
        prev = self.recs[-1][2] if prev is None else prev
        chain = self.gid if chain is None else chain
        self.at += 1000
        r = self.make(seq, body, signer, prev, chain, at)
        self.recs.append(r)
        return r

    def next(self, body, signer, at=None):
        return self.add(len(self.recs), body, signer, at=at)


def write(name, recs):
    """A v1 archive (FORMAT.md section 7) of these records."""
    out = b"KIFUARC1"
    for eb, sig, _ in recs:
        out += len(eb).to_bytes(4, "little") + eb + sig
    with open(os.path.join(OUT, "%s.kifu" % name), "wb") as f:
        f.write(out)


# kind 1 clock_started{running}, 2 stone_placed{player,stone,point}, 4 clock_pressed{player}
def stone(c, x, y): return k(2) + c + c + pt(x, y)
# A: a refused record at seq 3 and two more after it
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(stone(BLACK,2,2), 'black')
c.next(stone(WHITE,3,3), 'black')  # refused: black signs white's move
c.next(stone(BLACK,4,4), 'black'); c.next(stone(WHITE,5,5), 'white')
write('A_refused_then_more', c.recs)
# B: fork at seq 3 whose second branch is a stranger's record
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(stone(BLACK,2,2), 'black')
r3 = c.next(stone(WHITE,3,3), 'white')
s3 = c.make(3, stone(WHITE,4,4), 'stranger', c.recs[2][2], c.gid)
write('B_fork_stranger', c.recs + [s3])
# B2: fork at seq 3 where the second branch is role-refused (black signs white's move)
s3b = c.make(3, stone(WHITE,4,4), 'black', c.recs[2][2], c.gid)
write('B2_fork_role_refused', c.recs + [s3b])
# B3: fork with two valid branches of different lengths
c2 = Chain(); c2.next(k(1)+BLACK, 'referee'); c2.next(stone(BLACK,2,2), 'black')
a3 = c2.next(stone(WHITE,3,3), 'white'); a4 = c2.next(stone(BLACK,6,6), 'black')
b3 = c2.make(3, stone(WHITE,4,4), 'white', c2.recs[2][2], c2.gid)
write('B3_fork_two_branches', c2.recs + [b3])
# C: a record whose prev_hash names nothing (gap), and one with seq skipping
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(stone(BLACK,2,2), 'black')
g = c.make(4, stone(BLACK,3,3), 'black', b'\x11'*32, c.gid)
write('C_gap', c.recs + [g])
g2 = c.make(5, stone(BLACK,3,3), 'black', c.recs[2][2], c.gid)
write('C2_seq_skips', c.recs + [g2])
# D: two warnings in one record (two off-board points), dead stones
c = Chain(); c.next(k(1)+BLACK, 'referee');
c.next(k(18) + BLACK + varint(2) + pt(9,0) + pt(0,10), 'black')
write('D_two_points_one_record', c.recs)
# E: time back exactly 5000 and 5001
c = Chain(); c.next(k(1)+BLACK, 'referee')
c.next(stone(BLACK,2,2), 'black', at=c.at - 5000)
write('E_time_5000', c.recs)
c = Chain(); c.next(k(1)+BLACK, 'referee')
c.next(stone(BLACK,2,2), 'black', at=c.at - 5001)
write('E2_time_5001', c.recs)
# F: genesis signed by black only (not an official)
c = Chain(signer='black'); write('F_genesis_by_black', c.recs)
# G: referee ruling with a game_forfeit sanction effect (finished?)
ruling = k(8) + k(1) + s('forfeit') + s('r') + varint(0) + varint(1) + k(3) + (k(0)+BLACK) + k(2) + s('x')
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(ruling, 'referee')
write('G_forfeit_ruling', c.recs)
# G2: result declared then appeal lodged, no committee
res = k(11) + k(0) + WHITE + k(0)
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(res, 'referee')
c.next(k(23) + BLACK + varint(2) + s('unfair'), 'black')
write('G2_result_then_appeal', c.recs)
# G3: sanction imposed game_forfeit (kind 9) finished?
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(k(9) + (k(0)+BLACK) + k(2) + s('x'), 'referee')
write('G3_sanction_forfeit', c.recs)
# G4: resigned only
c = Chain(); c.next(k(1)+BLACK, 'referee'); c.next(k(7) + BLACK + k(0), 'black')
write('G4_resigned', c.recs)
# H: committee: formed with members c1,c2,c3 reserves c4; recused signed by reserve c4 (not sitting), by c1 (sitting)
def part(role, name, key): return k(role) + s(name) + PK[key]
formed = k(24) + varint(3) + part(5,'C1','committee-1') + part(5,'C2','committee-2') + part(5,'C3','committee-3') + varint(1) + part(5,'C4','committee-4') + varint(1)
c = Chain(); c.next(formed, 'director'); c.next(k(25) + PK['committee-1'] + s('conflict'), 'committee-4')
write('H_recused_by_reserve', c.recs)
c = Chain(); c.next(formed, 'director'); c.next(k(25) + PK['committee-2'] + s('conflict'), 'committee-1')
write('H2_recused_by_member', c.recs)
# H3: unknown kind signed by a reserve (named by committee events)
c = Chain(); c.next(formed, 'director'); c.next(k(200) + b'xyz', 'committee-4')
write('H3_unknown_by_reserve', c.recs)
# H4: clock_started signed by a reserve (committee-named, no roles)
c = Chain(); c.next(formed, 'director'); c.next(k(1)+BLACK, 'committee-4')
write('H4_clock_by_reserve', c.recs)
# I: unknown kind with trailing garbage, and unknown kind 53
c = Chain(); c.next(k(53) + b'\x00\x01', 'referee'); write('I_kind53', c.recs)
# J: known kind with trailing bytes in body
c = Chain(); c.next(k(1)+BLACK+b'\x00', 'referee'); write('J_trailing_body', c.recs)
# K: tournament kind in a game chain
c = Chain(); c.next(k(48) + varint(1) + s('P1'), 'director'); write('K_bye_in_game', c.recs)
# L: duplicate genesis only
c = Chain(); write('L_dup', c.recs + c.recs)
# M: two games in one v1 archive, the second missing genesis
c = Chain(); c.next(k(1)+BLACK, 'referee'); d = Chain(at=1767225700000); d.next(k(1)+BLACK, 'referee')
write('M_two_games_one_without_genesis', c.recs + d.recs[1:])
# N: empty archive
write('N_empty', [])

# T: tournament chains (section 10), written with the genesis and facts of
# the vectors' tournament chain (officials: director and referee).
TEV = V["tournament_events"]
TGEN = bytes.fromhex(TEV[0]["body_bytes"])
TFACTS = [(bytes.fromhex(e["body_bytes"]), e["signer"]) for e in TEV[1:]]
SIGNER = {PK[n].hex(): n for n in PK}


def tournament(n=len(TFACTS)):
    t = Chain(genesis_body=TGEN, signer="director")
    for body, signer in TFACTS[:n]:
        t.next(body, SIGNER[signer])
    return t


t = tournament()
write('T_tournament', t.recs)
# the same records in another order, one of them twice: a duplicate, no failure
write('T1_tournament_shuffled_duplicate', t.recs[::-1] + [t.recs[3]])
# two registrations by the director at seq 2: a fork, each branch valid
t = tournament(1)
f2 = t.make(2, TFACTS[2][0], 'director', t.recs[1][2], t.gid)
t.next(TFACTS[1][0], 'director')
write('T2_tournament_fork', t.recs + [f2])
# the second record at seq 2 signed by a stranger: still a fork, and refused
f2s = t.make(2, TFACTS[2][0], 'stranger', t.recs[1][2], t.gid)
write('T3_tournament_fork_stranger', t.recs + [f2s])
# a bye signed by the referee (the director's), then a registration after it
t = tournament(3)
t.next(k(48) + varint(1) + s('P3'), 'referee')
t.next(TFACTS[3][0], 'director')
write('T4_tournament_bye_by_referee_then_more', t.recs)
# a kind beyond the table in a tournament chain: a failure, not uninterpreted
t = tournament(2); t.next(k(200) + b'xyz', 'director')
write('T5_tournament_unknown_kind', t.recs)
# a game kind in a tournament chain
t = tournament(2); t.next(stone(BLACK, 2, 2), 'director')
write('T6_tournament_stone', t.recs)
# a gap: seq 4 names a record that is not there
t = tournament(2)
g = t.make(4, TFACTS[3][0], 'director', b'\x22' * 32, t.gid)
write('T7_tournament_gap', t.recs + [g])
# time going backwards by 5001 ms: a warning
t = tournament(1); t.next(TFACTS[1][0], 'director', at=t.at - 5001)
write('T8_tournament_time_backwards', t.recs)
# the chain without its genesis
t = tournament(3)
write('T9_tournament_without_genesis', t.recs[1:])
# two tournament chains in one file, each valid on its own: the file fails
t = tournament(2)
u = Chain(genesis_body=TGEN, signer="director", at=t.at + 60000)
for body, signer in TFACTS[:1]:
    u.next(body, SIGNER[signer])
write('T10_two_tournaments_in_one_file', t.recs + u.recs)
# a tournament chain beside a game chain: an archive of games, where the
# tournament's genesis is refused (kind 44 is not a game genesis)
t = tournament(2)
c = Chain(); c.next(k(1) + BLACK, 'referee')
write('T11_tournament_beside_a_game', t.recs + c.recs)
