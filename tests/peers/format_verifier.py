#!/usr/bin/env python3
"""An independent verifier of kifu archives, written from docs/FORMAT.md alone.

Usage:
    format_verifier.py ARCHIVE.kifu            verdict of one archive, as JSON
                                               (a tournament chain file too)
    format_verifier.py BUNDLE.kifu-bundle      verdict of the tournament chain an
                                               appeal bundle carries (its log
                                               proofs are not checked here), of
                                               the JSON forms or the compact one
                                               (kifu-bundle/3: its game's records
                                               are checked as a chain too)
    format_verifier.py --vectors VECTORS.json  check every vector of the file
    format_verifier.py --trust HEX ARCHIVE     the verdict of a reader who trusts
                                               the key HEX (repeatable): the
                                               archive is complete only when a
                                               trusted key signs its manifest

Needs Python 3, `blake3` and `cryptography` (pip install blake3 cryptography).
The Ed25519 acceptance rule of FORMAT.md section 1 is applied with pure-Python
Edwards arithmetic for what OpenSSL does not check (rules 1 and 3), and with
OpenSSL (through `cryptography`) for the cofactorless equation (rule 4);
without `cryptography` the equation is computed in Python as well.

Exit code: 0 when the archive verifies (or every vector agrees), 1 when it
does not, 2 when the input cannot be read.
"""

import base64
import hashlib
import json
import sys

import blake3

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # the equation is then checked in Python
    Ed25519PublicKey = None

SIGN_DOMAIN = b"kifu/v1/event-signature\n"
HASH_DOMAIN = b"kifu/v1/event-hash\n"
MANIFEST_DOMAIN = b"kifu/v1/archive-manifest\n"
ZERO32 = bytes(32)

# --------------------------------------------------------------------------
# Section 1: Ed25519 under the strict acceptance rule.

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENTITY = (0, 1, 1, 0)


def _add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * t1 * t2 * D % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(k, pt):
    acc = IDENTITY
    while k > 0:
        if k & 1:
            acc = _add(acc, pt)
        pt = _add(pt, pt)
        k >>= 1
    return acc


def _is_identity(pt):
    x, y, z, _ = pt
    return x % P == 0 and (y - z) % P == 0


def _encode(pt):
    x, y, z, _ = pt
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _decode(s):
    """The point of 32 bytes, or None when they are not a canonical encoding."""
    if len(s) != 32:
        return None
    n = int.from_bytes(s, "little")
    sign = n >> 255
    y = n & ((1 << 255) - 1)
    if y >= P:
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P != 0:
        x = x * SQRT_M1 % P
        if (v * x * x - u) % P != 0:
            return None
    if x == 0 and sign == 1:
        return None  # "negative zero"
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


BASE = _decode((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))

_KEY_CACHE = {}


def key_acceptable(a):
    """Rule 1: canonical, not of small order, torsion-free."""
    if a not in _KEY_CACHE:
        pt = _decode(a)
        ok = pt is not None and not _is_identity(_mul(8, pt)) and _is_identity(_mul(L, pt))
        _KEY_CACHE[a] = ok
    return _KEY_CACHE[a]


def verify_strict(a, msg, sig):
    if len(sig) != 64 or not key_acceptable(a):
        return False
    r_bytes, s = sig[:32], int.from_bytes(sig[32:], "little")
    if s >= L:  # rule 2
        return False
    r = _decode(r_bytes)
    if r is None or _is_identity(_mul(8, r)):  # rule 3
        return False
    if Ed25519PublicKey is not None:  # rule 4 by OpenSSL (cofactorless)
        try:
            Ed25519PublicKey.from_public_bytes(a).verify(sig, msg)
            return True
        except InvalidSignature:
            return False
    k = int.from_bytes(hashlib.sha512(r_bytes + a + msg).digest(), "little") % L
    neg_a = _mul(L - k, _decode(a))
    return _encode(_add(_mul(s, BASE), neg_a)) == r_bytes


def record_hash(event_bytes, sig):
    return blake3.blake3(HASH_DOMAIN + event_bytes + sig).digest()


# --------------------------------------------------------------------------
# Section 2: postcard, strictly.


class Invalid(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise Invalid("unexpected end of bytes")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def varint(self, bits, what="varint"):
        maxlen = (bits + 6) // 7
        value = 0
        for i in range(maxlen):
            b = self.take(1)[0]
            value |= (b & 0x7F) << (7 * i)
            if b & 0x80 == 0:
                if i > 0 and b == 0:
                    raise Invalid("overlong %s: not canonical" % what)
                if value >> bits:
                    raise Invalid("%s too wide for its type" % what)
                return value
        raise Invalid("%s longer than its type allows" % what)

    def end(self):
        if self.pos != len(self.data):
            raise Invalid("trailing bytes")


def u8(r):
    return r.take(1)[0]


def boolean(r):
    b = r.take(1)[0]
    if b > 1:
        raise Invalid("bool neither 0 nor 1")
    return b == 1


def u16(r):
    return r.varint(16, "u16")


def u32(r):
    return r.varint(32, "u32")


def u64(r):
    return r.varint(64, "u64")


def i32(r):
    n = r.varint(32, "i32")
    return (n >> 1) ^ -(n & 1)


def i64(r):
    n = r.varint(64, "i64")
    return (n >> 1) ^ -(n & 1)


def b32(r):
    return r.take(32).hex()


def string(r):
    n = r.varint(64, "length")
    try:
        return r.take(n).decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("string not UTF-8")


def byte_string(r):
    return r.take(r.varint(64, "length"))


def vec(f):
    def dec(r):
        return [f(r) for _ in range(r.varint(64, "count"))]
    return dec


def option(f):
    def dec(r):
        tag = r.take(1)[0]
        if tag == 0:
            return None
        if tag == 1:
            return f(r)
        raise Invalid("option tag neither 0 nor 1")
    return dec


def tup(*fs):
    return lambda r: [f(r) for f in fs]


def struct(*fields):
    return lambda r: {name: f(r) for name, f in fields}


def enum(name, *variants):
    """variants: (name, None) unit; (name, decoder) newtype or struct."""
    def dec(r):
        i = r.varint(32, name + " variant index")
        if i >= len(variants):
            raise Invalid("unknown %s variant %d" % (name, i))
        vname, f = variants[i]
        if f is None:
            return vname
        return {vname: f(r)}
    return dec


def units(name, *names):
    return enum(name, *[(n, None) for n in names])


color = units("Color", "black", "white")
point = struct(("x", u8), ("y", u8))
game_kind = units("GameKind", "go", "renju", "gomoku_freestyle", "gomoku_standard")
role = units("Role", "black", "white", "referee", "recorder", "director", "committee")
participant = struct(("role", role), ("name", string), ("key", b32))
tournament_ref = struct(("tournament", string), ("round", u32), ("board", u32))
time_control = enum(
    "TimeControl",
    ("untimed", None),
    ("sudden_death", struct(("main_ms", u64))),
    ("fischer", struct(("main_ms", u64), ("increment_ms", u64), ("max_ms", option(u64)))),
    ("simple", struct(("per_move_ms", u64))),
    ("byoyomi", struct(("main_ms", u64), ("periods", u32), ("period_ms", u64))),
    ("canadian", struct(("main_ms", u64), ("stones", u32), ("block_ms", u64))),
)
genesis = struct(
    ("game", game_kind), ("ruleset", string), ("overrides", vec(tup(string, string))),
    ("board_size", u8), ("handicap", u8), ("komi_half_points", i32),
    ("time_control", time_control), ("roster", vec(participant)),
    ("tournament", option(tournament_ref)), ("title", string), ("auto_declare", boolean),
)
pause_reason = enum(
    "PauseReason",
    *[(n, None) for n in (
        "status_assessment", "counting", "reset_clock", "toilet", "remove_stones",
        "clock_malfunction", "adjournment", "sealing", "call_referee", "arbitration",
        "announcement")],
    ("other", string),
)
resignation = units("Resignation", "spoken", "two_stones", "program")
outcome = enum("Outcome", ("win", color), ("draw", None), ("both_lose", None), ("no_result", None))
result_by = enum(
    "ResultBy", ("resignation", None), ("time", None), ("forfeit", None),
    ("score", struct(("margin_half_points", i32))), ("five", None), ("forbidden_move", None),
    ("illegal_move", None), ("agreement", None), ("repetition", None),
    ("abnormal_termination", None), ("other", string),
)
game_result = struct(("outcome", outcome), ("by", result_by))
ruling_kind = units("RulingKind", "clarification", "judgement")
sanction_target = enum("SanctionTarget", ("player", color), ("both", None))
sanction_kind = enum(
    "SanctionKind", ("advice", None), ("warning", None), ("game_forfeit", None),
    ("time_modified", struct(("delta_ms", i64))),
    ("removed_from_rounds", struct(("rounds", vec(u32)))),
    ("removed_from_tournament", None), ("debarment", None), ("disqualification", None),
)
sanction = struct(("target", sanction_target), ("kind", sanction_kind), ("reason", string))
ruling_effect = enum(
    "RulingEffect",
    ("unwind_to", struct(("seq", u64))),
    ("adjust_clock", struct(("player", color), ("delta_ms", i64))),
    ("resume", None), ("sanction", sanction), ("set_result", game_result),
)
ruling = struct(
    ("kind", ruling_kind), ("decision", string), ("reasons", string),
    ("rules_cited", vec(string)), ("effects", vec(ruling_effect)),
)
irregularity_kind = units(
    "IrregularityKind", "captured_stones_not_removed", "live_stones_removed",
    "handicap_stones_misplaced", "stone_on_occupied_point", "ambiguous_placement",
    "wrong_colour", "colour_or_handicap_error", "position_disturbed",
)
board_fix = struct(
    ("remove", vec(point)), ("as_prisoners", boolean), ("place", vec(tup(color, point))),
)
committee_verdict = enum(
    "CommitteeVerdict", ("rejected", None), ("upheld", None), ("replaced", vec(ruling_effect)),
)
draw_rules = struct(("engine", string), ("overrides", vec(tup(string, string))))
pairing_system = enum(
    "PairingSystem",
    ("mc_mahon", None), ("swiss", None), ("round_robin", None), ("knockout", None),
    ("mc_mahon_drawn", draw_rules), ("swiss_drawn", draw_rules),
)
tournament_genesis = struct(
    ("name", string), ("short_name", string), ("city", string), ("country", string),
    ("start", string), ("finish", string), ("game", game_kind), ("ruleset", string),
    ("time_control", time_control), ("komi_half_points", i32), ("system", pairing_system),
    ("rounds", u32), ("mm_bar", string), ("mm_floor", string),
    ("nbw2_bye", u8), ("mms2_bye", u8), ("nbw2_absent", u8), ("mms2_absent", u8),
    ("round_down_bye_absent", boolean), ("unplayed_as_half", boolean),
    ("criteria", vec(string)), ("egf_class", string), ("adjusted_time_minutes", u32),
    ("handicap_reduction", u32), ("officials", vec(participant)),
)
registration = struct(
    ("id", string), ("surname", string), ("given", string), ("rank", string),
    ("rating", i32), ("country", string), ("club", string), ("egd_pin", string),
    ("aga_id", string), ("smms_correction", i32), ("key", option(b32)),
)
pairing = struct(
    ("round", u32), ("board", u32), ("white", string), ("black", string),
    ("handicap", u8), ("game", option(b32)),
)
absence_reason = units("AbsenceReason", "late_arrival", "round_skipped", "withdrawal", "sanction")
board_result = units(
    "BoardResult", "unknown", "white_wins", "black_wins", "jigo", "both_lose", "both_win")
checkpoint = struct(
    ("round", u32), ("board", u32), ("game", b32), ("head_seq", u64), ("head_hash", b32),
    ("result", option(game_result)),
)


def F(*fields):
    return struct(*fields)


# Section 4's table: index -> (kind name, decoder). A struct decoder for a
# variant with named fields; a value decoder for a variant carrying one type.
KINDS = [
    ("game_created", genesis),
    ("clock_started", F(("running", color))),
    ("stone_placed", F(("player", color), ("stone", color), ("point", point))),
    ("pass", F(("player", color), ("pass_stone", boolean))),
    ("clock_pressed", F(("player", color))),
    ("clock_paused", F(("reason", pause_reason))),
    ("clock_resumed", F(("running", color))),
    ("resigned", F(("player", color), ("manner", resignation))),
    ("referee_ruling", ruling),
    ("sanction_imposed", sanction),
    ("protest_declared", F(("player", color), ("statement", string))),
    ("result_declared", game_result),
    ("result_sheet_signed", F(("result", game_result), ("under_protest", boolean))),
    ("clock_adjusted", F(("player", color), ("delta_ms", i64), ("reason", string))),
    ("clock_reading", F(("black_ms", u64), ("white_ms", u64), ("black_overtime", option(u32)),
                        ("white_overtime", option(u32)), ("read_by", string))),
    ("illegal_move_noticed", F(("move_seq", u64), ("statement", string))),
    ("rewind_agreed", F(("player", color), ("move_seq", u64))),
    ("irregularity_recorded", F(("kind", irregularity_kind), ("about_seq", option(u64)),
                                ("fix", board_fix), ("statement", string))),
    ("dead_stones_marked", F(("player", color), ("dead", vec(point)))),
    ("status_agreed", F(("dead", vec(point)))),
    ("status_disputed", F(("player", color), ("statement", string))),
    ("dispute_raised", F(("player", color), ("matter", string))),
    ("referee_called", F(("player", color))),
    ("appeal_lodged", F(("player", color), ("ruling_seq", u64), ("grounds", string))),
    ("committee_formed", F(("members", vec(participant)), ("reserves", vec(participant)),
                           ("formed_before_round", u32))),
    ("member_recused", F(("member", b32), ("reason", string))),
    ("member_coopted", F(("member", participant))),
    ("committee_decision", F(("appeal_seq", u64), ("verdict", committee_verdict),
                             ("reasons", string))),
    ("five_declared", F(("player", color))),
    ("forbidden_move_pointed_out", F(("player", color), ("point", option(point)))),
    ("draw_offered", F(("player", color))),
    ("draw_accepted", F(("player", color))),
    ("draw_declined", F(("player", color))),
    ("opening_swap", F(("player", color), ("swap", boolean))),
    ("fifth_count_declared", F(("player", color), ("count", u8))),
    ("fifths_offered", F(("player", color), ("points", vec(point)))),
    ("fifth_chosen", F(("player", color), ("point", point))),
    ("player_arrived", F(("player", color))),
    ("program_terminated", F(("player", color), ("statement", string))),
    ("server_time_used", F(("player", color), ("used_ms", u64))),
    ("program_answered", F(("player", color), ("command", string), ("answer", string))),
    ("rewind_declined", F(("player", color), ("move_seq", u64))),
    ("key_replaced", F(("participant", b32), ("new_key", b32), ("reason", string))),
    ("key_revoked", F(("key", b32), ("reason", string))),
    ("tournament_created", tournament_genesis),
    ("player_registered", registration),
    ("registration_corrected", registration),
    ("paired", pairing),
    ("bye_given", F(("round", u32), ("player", string))),
    ("player_absent", F(("round", u32), ("player", string), ("reason", absence_reason))),
    ("board_result_entered", F(("round", u32), ("board", u32), ("result", board_result),
                               ("by_default", boolean), ("reason", string))),
    ("game_checkpointed", checkpoint),
    ("tournament_sanction", F(("player", string), ("kind", sanction_kind), ("from_round", u32),
                              ("reason", string))),
    ("pairing_modified", F(("swap_colours", boolean), ("handicap", option(u8)),
                           ("komi_half_points", option(i32)), ("reason", string))),
    ("log_key_rotated", F(("origin", string), ("new_key", b32))),
    ("paired_colours_unknown", pairing),
    ("round_drawn", F(("round", u32), ("engine", string),
                      ("swaps", vec(struct(("first", string), ("second", string),
                                           ("reason", string)))))),
    ("time_zone_stated", F(("zone", string))),
]
TOURNAMENT_KINDS = set(range(44, 53)) | {55, 56, 57}  # section 10

VALUE_TYPES = {
    "Color": color, "Point": point, "GameKind": game_kind, "Role": role,
    "Participant": participant, "TournamentRef": tournament_ref, "TimeControl": time_control,
    "Genesis": genesis, "PauseReason": pause_reason, "Resignation": resignation,
    "Outcome": outcome, "ResultBy": result_by, "GameResult": game_result,
    "RulingKind": ruling_kind, "RulingEffect": ruling_effect, "Ruling": ruling,
    "SanctionTarget": sanction_target, "SanctionKind": sanction_kind, "Sanction": sanction,
    "IrregularityKind": irregularity_kind, "BoardFix": board_fix,
    "CommitteeVerdict": committee_verdict, "PairingSystem": pairing_system,
    "TournamentGenesis": tournament_genesis, "Registration": registration,
    "Pairing": pairing, "AbsenceReason": absence_reason, "BoardResult": board_result,
    "Checkpoint": checkpoint, "i32": i32, "i64": i64, "u32": u32, "u64": u64,
}


class Body:
    def __init__(self, index, name=None, value=None):
        self.index = index
        self.name = name  # None for a kind beyond the table
        self.value = value

    def json(self):
        return {self.name: self.value}


def decode_body(data):
    r = Reader(data)
    try:
        index = r.varint(32, "kind index")
    except Invalid as e:
        raise Invalid("not a canonical kind index (%s)" % e)
    if index >= len(KINDS):
        return Body(index)  # section 6, unknown kinds: not interpreted
    name, dec = KINDS[index]
    value = dec(r)
    r.end()
    return Body(index, name, value)


class Envelope:
    pass


def decode_envelope(data):
    """Section 3, strictly (section 2)."""
    r = Reader(data)
    e = Envelope()
    e.version = u16(r)
    if e.version != 1:
        raise Invalid("envelope version %d, not 1" % e.version)
    e.chain = r.take(32)
    e.seq = u64(r)
    e.prev_hash = r.take(32)
    e.at_ms = u64(r)
    e.signer = r.take(32)
    e.body_bytes = byte_string(r)
    r.end()
    e.body = decode_body(e.body_bytes)
    return e


# --------------------------------------------------------------------------
# Sections 5, 5.1, 5.2: who may sign what, along the chain.

PLAYERS = {"black", "white"}
POWER = {  # section 5.2, rule 3: the official roles that may replace or revoke
    "black": {"referee", "director"}, "white": {"referee", "director"},
    "recorder": {"referee", "director"}, "referee": {"director"},
    "committee": {"director"}, "director": set(),
}


class Refused(Exception):
    pass


class GameState:
    """What a verifier keeps along one branch of a game chain."""

    def __init__(self, genesis_value):
        self.genesis = genesis_value
        self.roster = [dict(p) for p in genesis_value["roster"]]
        self.board_size = genesis_value["board_size"]
        self.formed = False
        self.members, self.reserves, self.coopted, self.recused = [], [], [], []
        self.ended = {}  # key -> ("replaced", seq, new) | ("revoked", seq)
        self.appeals = set()
        self.decisions = {}  # appeal_seq -> list of (signer, verdict)
        self.decided = {}  # appeal_seq -> verdict
        # Section 5: the committee's last decision while no new matter has
        # opened since: no referee ruling may follow it.
        self.final = None
        self.result = False
        self.sheets = {}  # seat -> the result of its last sheet signed with the seat's key
        self.last_at = None

    def copy(self):
        s = GameState.__new__(GameState)
        s.__dict__ = {k: (v.copy() if hasattr(v, "copy") else v) for k, v in self.__dict__.items()}
        s.roster = [dict(p) for p in self.roster]
        s.members = [dict(p) for p in self.members]
        s.reserves = [dict(p) for p in self.reserves]
        s.coopted = [dict(p) for p in self.coopted]
        s.decisions = {k: list(v) for k, v in self.decisions.items()}
        return s

    def committee_keys(self):
        return {p["key"] for p in self.members + self.reserves + self.coopted} | set(self.recused)

    def roles_in_roster(self, key):
        return {p["role"] for p in self.roster if p["key"] == key}

    def seat_of(self, key):
        """Section 6: the seat a key holds, Black's first."""
        roles = self.roles_in_roster(key)
        return "black" if "black" in roles else "white" if "white" in roles else None

    def sitting(self):
        """Section 5.1: the sitting members at this point."""
        players = {p["key"] for p in self.roster if p["role"] in PLAYERS}
        out = []
        for p in self.members + self.reserves + self.coopted:
            k = p["key"]
            if k in self.recused or k in players or k in out:
                continue
            out.append(k)
            if len(out) == 3:
                break
        return out

    def roles(self, key):
        roles = self.roles_in_roster(key)
        if key in self.sitting():
            roles.add("committee")
        return roles

    def check(self, e):
        """Raise Refused when the signer may not state this record here."""
        k = e.signer.hex()
        if e.seq == 0:
            raise Refused("only the genesis may be at seq 0")
        if k in self.ended:
            end = self.ended[k]
            if end[0] == "replaced":
                raise Refused("the signer's key was replaced at seq %d" % end[1])
            raise Refused("the signer's key was revoked at seq %d" % end[1])
        if not self.roles_in_roster(k) and k not in self.committee_keys():
            raise Refused("the signer's key is not in the game's roster")
        b = e.body
        if b.name is None:
            return
        if b.index in TOURNAMENT_KINDS:
            raise Refused("kind %s appears only in tournament chains" % b.name)
        roles = self.roles(k)
        v = b.value
        name = b.name
        if not roles:
            # Section 5: a key named only by the committee's events that does
            # not sit holds no role: it signs only the change of its own key.
            own_change = ((name == "key_replaced" and v["participant"] == k)
                          or (name == "key_revoked" and v["key"] == k))
            if not own_change:
                raise Refused("%s refused: the signer's key holds no role" % name)

        def need(allowed, why):
            if not roles & set(allowed):
                raise Refused("%s refused: %s" % (name, why))

        player = v.get("player") if isinstance(v, dict) else None
        own = {player} if player else set()
        if name == "game_created":
            raise Refused("a genesis after seq 0")
        elif name in ("stone_placed", "pass", "clock_pressed", "resigned"):
            need(own | {"recorder"}, "only the player concerned, or the recorder")
        elif name in ("clock_started", "clock_resumed"):
            need({"black", "white", "referee", "recorder", "director"}, "not a player or official")
        elif name == "clock_paused":
            reason = v["reason"]
            if reason in ("arbitration", "adjournment"):
                need({"referee", "recorder"}, "only a referee or recorder")
            elif reason == "announcement":
                need({"referee", "director", "recorder"}, "only a referee, director or recorder")
            else:
                need({"black", "white", "referee", "recorder"}, "players, referees, recorders")
        elif name in ("clock_adjusted", "referee_ruling"):
            need({"referee"}, "a referee only")
            if name == "referee_ruling" and self.final is not None:
                raise Refused("referee_ruling refused: the appeals committee decided the appeal "
                              "of seq %d at seq %d, and its decision is final" % self.final)
        elif name == "clock_reading":
            need({"referee", "recorder"}, "a referee or recorder")
        elif name == "sanction_imposed":
            need({"referee", "director"}, "a referee or the director")
        elif name in ("protest_declared", "rewind_agreed", "status_disputed", "appeal_lodged",
                      "draw_declined", "rewind_declined"):
            need(own, "only the player concerned")
        elif name == "result_declared":
            need({"black", "white", "referee", "recorder", "director"}, "not a player or official")
        elif name in ("result_sheet_signed", "illegal_move_noticed", "irregularity_recorded"):
            need({"black", "white", "referee", "recorder"}, "a player, referee or recorder")
        elif name in ("dead_stones_marked", "five_declared", "forbidden_move_pointed_out",
                      "draw_offered", "draw_accepted", "opening_swap", "fifth_count_declared",
                      "fifths_offered", "fifth_chosen"):
            need(own | {"recorder"}, "only the player concerned, or the recorder")
        elif name == "status_agreed":
            need({"black", "white", "referee"}, "a player or a referee")
        elif name in ("dispute_raised", "referee_called"):
            need(own | {"referee", "recorder"}, "the player concerned, a referee or a recorder")
        elif name == "committee_formed":
            need({"director"}, "the director only")
            if self.formed:
                raise Refused("committee_formed refused: the committee is already formed")
        elif name in ("member_recused", "member_coopted"):
            need({"director", "referee", "committee"}, "the director, a referee or a member")
            if not self.formed:
                raise Refused("%s refused: no committee formed" % name)
            if name == "member_recused":
                m = v["member"]
                if m not in {p["key"] for p in self.members + self.reserves + self.coopted}:
                    raise Refused("member_recused refused: not a member, reserve or co-opted")
                if m in self.recused:
                    raise Refused("member_recused refused: already recused")
            else:
                m = v["member"]["key"]
                players = {p["key"] for p in self.roster if p["role"] in PLAYERS}
                if m in {p["key"] for p in self.coopted}:
                    raise Refused("member_coopted refused: already co-opted")
                if m in self.sitting():
                    raise Refused("member_coopted refused: already sits")
                if m in {p["key"] for p in self.members + self.reserves}:
                    raise Refused("member_coopted refused: already a member or reserve")
                if m in self.ended:
                    raise Refused("member_coopted refused: the key has ended")
                if m in players:
                    raise Refused("member_coopted refused: a player of this game")
        elif name == "committee_decision":
            if k not in self.sitting():
                raise Refused("committee_decision refused: the signer does not sit")
            a = v["appeal_seq"]
            if a not in self.appeals:
                raise Refused("committee_decision refused: no appeal lodged at seq %d" % a)
            if any(s == k for s, _ in self.decisions.get(a, [])):
                raise Refused("committee_decision refused: the seat has already signed a decision on this appeal")
        elif name == "player_arrived":
            need({"referee", "recorder", "director"}, "a referee, recorder or director")
        elif name == "program_terminated":
            need({"referee", "recorder"}, "a referee or recorder")
        elif name in ("server_time_used", "program_answered"):
            need({"recorder"}, "a recorder only")
        elif name == "log_key_rotated":
            need({"recorder"}, "a recorder only")
            # Section 9: only in the log operator's own chain, for its origin.
            g = self.genesis
            ok = (g["game"] == "go" and g["ruleset"] == "lgc-2023" and g["overrides"] == []
                  and g["board_size"] == 19 and g["handicap"] == 0
                  and g["komi_half_points"] == 0 and g["time_control"] == "untimed"
                  and g["tournament"] is None and g["auto_declare"] is False
                  and g["title"] == "kifu log operator " + v["origin"]
                  and len(g["roster"]) == 1 and g["roster"][0]["role"] == "recorder"
                  and g["roster"][0]["name"] == "log operator" and g["roster"][0]["key"] == k)
            if not ok:
                raise Refused("log_key_rotated refused: not the log operator's own chain")
        elif name == "pairing_modified":
            need({"referee", "director"}, "a referee or the director")
        elif name in ("key_replaced", "key_revoked"):
            self.check_key_event(k, name, v)

    def check_key_event(self, signer, name, v):
        target = v["participant"] if name == "key_replaced" else v["key"]
        target_roles = self.roles_in_roster(target)
        if not target_roles and target in self.committee_keys():
            target_roles.add("committee")  # named only by the committee's events
        if not target_roles:
            raise Refused("%s refused: the key is not in the roster" % name)
        end = self.ended.get(target)
        if name == "key_replaced":
            if end is not None and end[0] == "replaced":
                raise Refused("key_replaced refused: the key was already replaced")
            new = v["new_key"]
            if (new == target or self.roles_in_roster(new) or new in self.ended
                    or new in self.committee_keys()):
                raise Refused("key_replaced refused: the new key is already used in the game")
        elif end is not None:
            raise Refused("key_revoked refused: the key has already ended")
        if signer == target:
            return
        own = self.roles_in_roster(signer)
        for r in target_roles:
            if not own & POWER[r]:
                raise Refused("%s refused: the signer has no power over a %s" % (name, r))

    def apply(self, e):
        b = e.body
        v = b.value
        if b.name == "committee_formed":
            self.formed = True
            self.members = [dict(p) for p in v["members"]]
            self.reserves = [dict(p) for p in v["reserves"]]
        elif b.name == "member_recused":
            self.recused.append(v["member"])
        elif b.name == "member_coopted":
            self.coopted.append(dict(v["member"]))
        elif b.name in ("referee_called", "dispute_raised", "status_disputed"):
            self.final = None
        elif b.name == "appeal_lodged":
            self.final = None
            self.appeals.add(e.seq)
        elif b.name == "committee_decision":
            a = v["appeal_seq"]
            self.decisions.setdefault(a, []).append((e.signer.hex(), v["verdict"]))
            if a not in self.decided:
                votes = [vd for _, vd in self.decisions[a] if vd == v["verdict"]]
                if len(votes) >= 2:
                    self.decided[a] = v["verdict"]
                    self.final = (a, e.seq)
                    if isinstance(v["verdict"], dict) and sets_result(v["verdict"]["replaced"]):
                        self.result = True
        elif b.name == "result_declared":
            self.result = True
        elif b.name == "resigned":
            # Section 6: a resignation signed by the resigning seat's key.
            if self.seat_of(e.signer.hex()) == v["player"]:
                self.result = True
        elif b.name == "result_sheet_signed":
            # Section 6: each seat's last sheet states the same result.
            seat = self.seat_of(e.signer.hex())
            if seat is not None:
                self.sheets[seat] = v["result"]
                if "black" in self.sheets and self.sheets.get("black") == self.sheets.get("white"):
                    self.result = True
        elif b.name == "referee_ruling" and sets_result(v["effects"]):
            self.result = True
        elif b.name == "key_replaced":
            old, new = v["participant"], v["new_key"]
            for p in self.roster + self.members + self.reserves + self.coopted:
                if p["key"] == old:
                    p["key"] = new
            self.recused = [new if r == old else r for r in self.recused]
            # Section 5.1: a vote belongs to the seat, whatever key signed it.
            self.decisions = {a: [(new if s == old else s, vd) for s, vd in votes]
                              for a, votes in self.decisions.items()}
            self.ended.setdefault(old, ("replaced", e.seq, new))
        elif b.name == "key_revoked":
            self.ended.setdefault(v["key"], ("revoked", e.seq))

    def finished(self):
        return self.result and all(a in self.decided for a in self.appeals)

    def warnings(self, e):
        """Section 6, facts that cannot be: one warning per point off the board,
        one for a timestamp more than 5 s before the previous event's."""
        out = []
        if e.body.name is None:  # not interpreted: no warning, the time moves on
            self.last_at = e.at_ms
            return out
        for p in points_in(e.body.value):
            if p["x"] >= self.board_size or p["y"] >= self.board_size:
                out.append("irregularity at seq %d: point (%d, %d) off the %dx%d board"
                           % (e.seq, p["x"], p["y"], self.board_size, self.board_size))
        if self.last_at is not None and e.at_ms + 5000 < self.last_at:
            out.append("time goes backwards at seq %d" % e.seq)
        self.last_at = e.at_ms
        return out


def sets_result(effects):
    for eff in effects:
        if isinstance(eff, dict):
            if "set_result" in eff:
                return True
            if "sanction" in eff and eff["sanction"]["kind"] in ("game_forfeit",
                                                                 "disqualification"):
                return True
    return False


def points_in(v):
    if isinstance(v, dict):
        if set(v) == {"x", "y"}:
            yield v
            return
        for x in v.values():
            yield from points_in(x)
    elif isinstance(v, list):
        for x in v:
            yield from points_in(x)


TOURNAMENT_ROLES = {  # section 10
    "player_registered": {"director"}, "registration_corrected": {"director"},
    "paired": {"director"}, "paired_colours_unknown": {"director"},
    "bye_given": {"director"}, "game_checkpointed": {"director"},
    "player_absent": {"director"}, "board_result_entered": {"director"},
    "tournament_sanction": {"director", "referee"}, "round_drawn": {"director"},
    "time_zone_stated": {"director"},
}


# Unicode's White_Space property (section 10: "a whitespace character").
WHITE_SPACE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                  "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def ws_strip(t):
    return t.strip("".join(WHITE_SPACE))


def rank_ok(rank):
    """Section 10, "A Go rank": one or two ASCII digits, no leading zero,
    then k, d or p (ASCII, either case), after trimming White_Space."""
    t = ws_strip(rank)
    if len(t) < 2 or len(t) > 3 or t[-1] not in "kdpKDP":
        return False
    num = t[:-1]
    if not all(c in "0123456789" for c in num) or num.startswith("0"):
        return False
    n = int(num)
    return (1 <= n <= 30) if t[-1] in "kK" else (1 <= n <= 9)


# Section 10, "Bounds".
MAX_ROUNDS, MAX_PLAYERS, MAX_BOARD = 200, 10_000, 10_000
MAX_NAME, MAX_ID, MAX_TEXT = 200, 64, 2_000
MAX_OFFICIALS, MAX_CRITERIA, MAX_TIME_MS, MAX_PERIODS = 200, 32, 7 * 24 * 3_600_000, 1_000


# Section 10, "Bounds": characters a name may not hold besides control
# characters (the bidirectional controls and the invisible ones).
FORMAT_CHARS = set("\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                   "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff")


def is_control(c):
    """Unicode's general category Cc."""
    o = ord(c)
    return o < 0x20 or 0x7f <= o <= 0x9f


def tournament_genesis_bounds(g):
    """Section 10, "Bounds", for a tournament's genesis: the reason, or None."""
    names = [g["name"], g["short_name"], g["city"]] + [o["name"] for o in g["officials"]]
    if any(is_control(c) or c in FORMAT_CHARS for n in names for c in n):
        return "a name holds a control or format character"
    if not 1 <= g["rounds"] <= MAX_ROUNDS:
        return "the number of rounds is %d; it must be from 1 to %d" % (g["rounds"], MAX_ROUNDS)
    for field, most in (("name", MAX_NAME), ("city", MAX_NAME), ("short_name", MAX_ID),
                        ("country", MAX_TEXT), ("start", MAX_TEXT), ("finish", MAX_TEXT),
                        ("ruleset", MAX_TEXT), ("mm_bar", MAX_TEXT), ("mm_floor", MAX_TEXT),
                        ("egf_class", MAX_TEXT)):
        if len(g[field]) > most:
            return "the %s is %d characters long" % (field, len(g[field]))
    if len(g["officials"]) > MAX_OFFICIALS or len(g["criteria"]) > MAX_CRITERIA:
        return "too many officials or criteria"
    if any(len(o["name"]) > MAX_NAME for o in g["officials"]):
        return "an official's name is too long"
    tc = g["time_control"]
    if isinstance(tc, dict):
        (_, fields), = tc.items()
        for k, val in fields.items():
            if k in ("periods", "stones"):
                if val > MAX_PERIODS:
                    return "%s is past its bound" % k
            elif val is not None and val > MAX_TIME_MS:
                return "%s is past its bound" % k
    return None


class TournamentState:
    def __init__(self, genesis_value):
        self.officials = genesis_value["officials"]
        self.rounds = genesis_value["rounds"]
        self.players = {}   # id -> registration
        self.boards = {}    # (round, board) -> {"white", "black", "game"}
        self.byes = set()   # (round, player)
        self.absent = set()  # (round, player)
        self.last_at = None

    def copy(self):
        s = TournamentState.__new__(TournamentState)
        s.__dict__ = dict(self.__dict__)
        s.players = dict(self.players)
        s.boards = {k: dict(v) for k, v in self.boards.items()}
        s.byes = set(self.byes)
        s.absent = set(self.absent)
        return s

    # Section 10, "The facts a tournament can have".
    def busy(self, rnd, player, except_board):
        for (r, b), p in self.boards.items():
            if r == rnd and b != except_board and player in (p["white"], p["black"]):
                return "paired on board %d" % b
        if (rnd, player) in self.byes:
            return "given the bye"
        return None

    def unavailable(self, rnd, player, except_board):
        if self.busy(rnd, player, except_board):
            return self.busy(rnd, player, except_board)
        return "absent" if (rnd, player) in self.absent else None

    def facts(self, name, v):
        def no(why):
            raise Refused("%s refused: not a fact of this tournament: %s" % (name, why))

        def round_ok(r):
            if r == 0 or r > self.rounds:
                no("round %d is outside rounds 1 to %d" % (r, self.rounds))

        def registered(pid):
            if pid not in self.players:
                no("player %r is not registered" % pid)

        def valid(reg):
            pid = reg["id"]
            if ws_strip(pid) == "" or any(c in WHITE_SPACE for c in pid):
                no("the id is empty or contains blanks")
            if ws_strip(reg["surname"]) == "":
                no("the surname is empty")
            for field, most in (("id", MAX_ID), ("surname", MAX_NAME), ("given", MAX_NAME),
                                ("club", MAX_NAME), ("country", MAX_TEXT), ("rank", MAX_TEXT),
                                ("egd_pin", MAX_TEXT), ("aga_id", MAX_TEXT)):
                if len(reg[field]) > most:
                    no("the %s is %d characters long" % (field, len(reg[field])))
            if not rank_ok(reg["rank"]):
                no("%r is not a Go rank" % reg["rank"])
            for field in ("id", "surname", "given", "club"):
                if any(is_control(c) or c in FORMAT_CHARS for c in reg[field]):
                    no("the %s holds a control or format character" % field)
            if reg["key"] is not None and not key_acceptable(bytes.fromhex(reg["key"])):
                no("the key is not an acceptable Ed25519 public key")

        if name == "player_registered":
            valid(v)
            if v["id"] in self.players:
                no("%r is already registered" % v["id"])
            if len(self.players) >= MAX_PLAYERS:
                no("the number of players is past its bound")
        elif name == "registration_corrected":
            valid(v)
            registered(v["id"])
        elif name in ("paired", "paired_colours_unknown"):
            round_ok(v["round"])
            if v["board"] == 0 or v["board"] > MAX_BOARD:
                no("board %d" % v["board"])
            registered(v["white"])
            registered(v["black"])
            if v["white"] == v["black"]:
                no("a player paired with themself")
            for who in (v["white"], v["black"]):
                if self.unavailable(v["round"], who, v["board"]):
                    no("%r is %s" % (who, self.unavailable(v["round"], who, v["board"])))
        elif name == "bye_given":
            round_ok(v["round"])
            registered(v["player"])
            if self.unavailable(v["round"], v["player"], None):
                no("%r is %s" % (v["player"], self.unavailable(v["round"], v["player"], None)))
        elif name == "player_absent":
            round_ok(v["round"])
            registered(v["player"])
            last = self.rounds if v["reason"] == "withdrawal" else v["round"]
            for r in range(v["round"], last + 1):
                if self.busy(r, v["player"], None):
                    no("%r is %s in round %d" % (v["player"], self.busy(r, v["player"], None), r))
        elif name == "board_result_entered":
            if len(v["reason"]) > MAX_TEXT:
                no("the reason is past its bound")
            if (v["round"], v["board"]) not in self.boards:
                no("board %d of round %d was never paired" % (v["board"], v["round"]))
        elif name == "game_checkpointed":
            b = self.boards.get((v["round"], v["board"]))
            if b is None:
                no("board %d of round %d was never paired" % (v["board"], v["round"]))
            if b["game"] is not None and b["game"] != v["game"]:
                no("the checkpoint names another game than the board's")
        elif name == "tournament_sanction":
            registered(v["player"])
            round_ok(v["from_round"])
            if len(v["reason"]) > MAX_TEXT:
                no("the reason is past its bound")
            kind = v["kind"]
            if isinstance(kind, dict) and "removed_from_rounds" in kind:
                rounds = kind["removed_from_rounds"]["rounds"]
                if len(rounds) > self.rounds:
                    no("it names more rounds than the tournament has")
                for r in rounds:
                    round_ok(r)
        elif name == "time_zone_stated":
            z = v["zone"]
            parts = z.split("/")
            if len(z) > 64 or not all(p and all(c.isascii() and (c.isalnum() or c in "_+-") for c in p) for p in parts):
                no("the time zone is not written as an IANA name")
        elif name == "round_drawn":
            round_ok(v["round"])
            if len(v["engine"]) > MAX_TEXT:
                no("the engine's name is past its bound")
            if len(v["swaps"]) > MAX_PLAYERS:
                no("the number of swaps is past its bound")
            for sw in v["swaps"]:
                if len(sw["reason"]) > MAX_TEXT:
                    no("the reason is past its bound")
                if sw["first"] == sw["second"]:
                    no("a player swapped with themself")
                if ws_strip(sw["reason"]) == "":
                    no("a swap without a reason")
                for who in (sw["first"], sw["second"]):
                    registered(who)
                    if not self.busy(v["round"], who, None):
                        no("%r has no place in round %d" % (who, v["round"]))

    def check(self, e):
        if e.seq == 0:
            raise Refused("only the genesis may be at seq 0")
        k = e.signer.hex()
        roles = {p["role"] for p in self.officials if p["key"] == k}
        if not roles:
            raise Refused("the signer's key is not among the tournament's officials")
        b = e.body
        if b.name is None:
            # kifu refuses a kind it does not know in a tournament chain
            # (section 10, clarified): only section 10's kinds are accepted.
            raise Refused("unknown kind %d in a tournament chain" % b.index)
        if b.index not in TOURNAMENT_KINDS or b.name == "tournament_created":
            raise Refused("kind %s is refused in a tournament chain" % b.name)
        allowed = set(TOURNAMENT_ROLES[b.name])
        if b.name == "player_absent" and b.value["reason"] == "sanction":
            allowed.add("referee")
        if b.name == "board_result_entered" and b.value["by_default"]:
            allowed.add("referee")
        if not roles & allowed:
            raise Refused("%s refused for roles %s" % (b.name, sorted(roles)))
        self.facts(b.name, b.value)

    def apply(self, e):
        name, v = e.body.name, e.body.value
        if name in ("player_registered", "registration_corrected"):
            self.players[v["id"]] = v
        elif name in ("paired", "paired_colours_unknown"):
            # A pairing of a board, of either kind, replaces the one before
            # (its game too).
            self.boards[(v["round"], v["board"])] = {"white": v["white"], "black": v["black"],
                                                     "game": v["game"]}
        elif name == "bye_given":
            self.byes.add((v["round"], v["player"]))
        elif name == "player_absent":
            last = self.rounds if v["reason"] == "withdrawal" else v["round"]
            for r in range(v["round"], last + 1):
                self.absent.add((r, v["player"]))
        elif name == "game_checkpointed":
            self.boards[(v["round"], v["board"])]["game"] = v["game"]

    def finished(self):
        return False

    def warnings(self, e):
        out = []
        if self.last_at is not None and e.at_ms + 5000 < self.last_at:
            out.append("time goes backwards at seq %d" % e.seq)
        self.last_at = e.at_ms
        return out


def roster_keys_acceptable(roster):
    """Section 5: every key a genesis names passes rule 1 of section 1."""
    for p in roster:
        if not key_acceptable(bytes.fromhex(p["key"])):
            raise Refused("the roster names a key that is not an acceptable Ed25519 public key")


def genesis_state(e, tournament_file=True):
    """Section 6 step 4 (and section 10): the state after a genesis, or Refused.

    Outside a tournament chain file only kind 0 is a genesis (section 10:
    a file with a game genesis among its records is an archive of games).
    """
    if not tournament_file and e.body.name == "tournament_created":
        raise Refused("a tournament genesis in an archive of game chains (kind 44, not 0)")
    if e.seq != 0 or e.chain != ZERO32 or e.prev_hash != ZERO32:
        raise Refused("a genesis must be at seq 0 with zero chain and prev_hash")
    k = e.signer.hex()
    if e.body.name == "game_created":
        roles = {p["role"] for p in e.body.value["roster"] if p["key"] == k}
        if not roles & {"director", "referee", "recorder"}:
            raise Refused("the genesis signer is not a director, referee or recorder of its roster")
        roster_keys_acceptable(e.body.value["roster"])
        return GameState(e.body.value)
    if e.body.name == "tournament_created":
        roles = {p["role"] for p in e.body.value["officials"] if p["key"] == k}
        if "director" not in roles:
            raise Refused("the tournament genesis signer is not a director of its officials")
        roster_keys_acceptable(e.body.value["officials"])
        past = tournament_genesis_bounds(e.body.value)
        if past:
            raise Refused("tournament_created refused: %s" % past)
        return TournamentState(e.body.value)
    raise Refused("seq 0 is not a genesis kind")


# --------------------------------------------------------------------------
# Section 6: verifying the chains of a set of records.


class Rec:
    def __init__(self, event_bytes, sig):
        self.event_bytes = event_bytes
        self.sig = sig
        self.hash = record_hash(event_bytes, sig)
        self.env = None
        self.error = None
        try:
            self.env = decode_envelope(event_bytes)
        except Invalid as e:
            self.error = str(e)
        self.sig_ok = None

    def signature_ok(self):
        if self.sig_ok is None:
            self.sig_ok = self.env is not None and verify_strict(
                self.env.signer, SIGN_DOMAIN + self.event_bytes, self.sig)
        return self.sig_ok


def verify_records(records):
    report = {"events": 0, "duplicates": 0, "forks": 0, "uninterpreted": 0,
              "warnings": [], "problems": [], "games": []}
    seen = {}
    for r in records:
        rec = Rec(*r)
        if rec.hash in seen:
            report["duplicates"] += 1
            continue
        seen[rec.hash] = rec
    recs = list(seen.values())
    report["events"] = len(recs)
    games = {}
    for rec in recs:
        if rec.env is None:
            report["problems"].append("record %s does not decode: %s" % (rec.hash.hex(), rec.error))
            continue
        e = rec.env
        gid = rec.hash if (e.seq == 0 and e.chain == ZERO32) else e.chain
        games.setdefault(gid, []).append(rec)
    # Section 10: a tournament chain file has a tournament genesis among its
    # records and no game genesis, and holds one tournament chain.
    genesis_names = [r.env.body.name for r in recs
                     if r.env is not None and r.env.seq == 0 and r.env.chain == ZERO32]
    tournament_file = ("tournament_created" in genesis_names
                       and "game_created" not in genesis_names)
    for gid in sorted(games):
        g = verify_game(gid, games[gid], report, tournament_file)
        if g is not None:
            report["games"].append(g)
    if tournament_file:
        ids = sorted(gid.hex() for gid in games if any(r.hash == gid for r in games[gid]))
        if len(ids) > 1:
            report["problems"].append(
                "more than one tournament chain in one file: %d geneses, chains %s"
                % (len(ids), ", ".join(ids)))
    report["ok"] = not report["problems"]
    return report


def verify_game(gid, recs, report, tournament_file=True):
    problems = report["problems"]
    g = {"game": gid.hex(), "chain": "game", "head": None, "head_seq": None,
         "finished": False, "events": len(recs), "problems": []}

    def problem(msg):
        g["problems"].append(msg)
        problems.append("game %s: %s" % (gid.hex()[:16], msg))

    by_hash = {r.hash: r for r in recs}
    genesis = by_hash.get(gid)
    # Forks first: they are reported whatever becomes of the chain.
    by_seq = {}
    for r in recs:
        if r.signature_ok():
            by_seq.setdefault(r.env.seq, []).append(r)
    for seq in sorted(by_seq):
        if len(by_seq[seq]) > 1:
            report["forks"] += 1
            hashes = sorted(x.hash.hex() for x in by_seq[seq])
            problem("fork at seq %d: %s" % (seq, ", ".join(hashes)))
    # Without a valid genesis there is no chain: one failure for the game.
    if genesis is None:
        problem("no genesis record for this chain (%d records name it)" % len(recs))
        return None
    try:
        if not genesis.signature_ok():
            raise Refused("bad signature")
        state = genesis_state(genesis.env, tournament_file)
    except Refused as e:
        problem("genesis %s refused: %s" % (gid.hex(), e))
        return None
    if isinstance(state, TournamentState):
        g["chain"] = "tournament"
    children = {}
    for r in recs:
        if r is not genesis:
            children.setdefault(r.env.prev_hash, []).append(r)
    on_chain = {gid: genesis}  # hash -> record, verified
    reached = {gid}  # records the walk looked at (on the chain or reported)
    state.warnings(genesis.env)
    stack = [(genesis, state)]
    while stack:
        parent, st = stack.pop()
        kids = children.get(parent.hash, [])
        for r in kids:
            e = r.env
            reached.add(r.hash)
            if e.seq != parent.env.seq + 1:
                problem("record %s at seq %d: broken link (its prev_hash names seq %d)"
                        % (r.hash.hex(), e.seq, parent.env.seq))
                continue
            if not r.signature_ok():
                problem("record %s at seq %d: bad signature" % (r.hash.hex(), e.seq))
                continue
            nst = st.copy() if len(kids) > 1 else st
            try:
                nst.check(e)
            except Refused as x:
                problem("record %s at seq %d refused: %s" % (r.hash.hex(), e.seq, x))
                continue
            nst.apply(e)
            for w in nst.warnings(e):
                report["warnings"].append("game %s: %s" % (gid.hex()[:16], w))
            if e.body.name is None:
                report["uninterpreted"] += 1
            on_chain[r.hash] = r
            stack.append((r, nst))
    linked = {r.env.prev_hash for r in on_chain.values() if r is not genesis}
    heads = [r for h, r in on_chain.items() if h not in linked]
    # Every record is on the chain or reported.
    for r in sorted(recs, key=lambda r: (r.env.seq, r.hash)):
        if r.hash in reached:
            continue
        prev = by_hash.get(r.env.prev_hash)
        if r.env.seq == 0:
            problem("record %s: a second record at seq 0 in this chain" % r.hash.hex())
        elif prev is None:
            if any(x.env.seq == r.env.seq - 1 for x in recs):
                problem("record %s at seq %d: broken link" % (r.hash.hex(), r.env.seq))
            else:
                problem("record %s at seq %d: gap (its previous record is missing)"
                        % (r.hash.hex(), r.env.seq))
        else:
            problem("record %s at seq %d follows a record not on the chain"
                    % (r.hash.hex(), r.env.seq))
    if heads:
        best = sorted(heads, key=lambda r: (-r.env.seq, r.hash))[0]
        g["head"] = best.hash.hex()
        g["head_seq"] = best.env.seq
        # the state at the head: replay along the branch
        g["finished"] = finished_at(best, by_hash, genesis)
    g["ok"] = not g["problems"]
    return g


def finished_at(head, by_hash, genesis):
    path = []
    r = head
    while r is not genesis:
        path.append(r)
        r = by_hash[r.env.prev_hash]
    st = genesis_state(genesis.env)
    for r in reversed(path):
        st.apply(r.env)
    return st.finished()


# --------------------------------------------------------------------------
# Section 7: the archive file.

manifest_decoder = struct(
    ("version", u16), ("at_ms", u64), ("signer", option(b32)),
    ("games", vec(struct(("game", b32), ("head_seq", u64), ("head_hash", b32)))),
)


def read_records(data, pos):
    out = []
    while pos < len(data):
        if pos + 4 > len(data):
            raise Invalid("truncated record length at byte %d" % pos)
        n = int.from_bytes(data[pos:pos + 4], "little")
        pos += 4
        if pos + n + 64 > len(data):
            raise Invalid("truncated record at byte %d" % pos)
        out.append((data[pos:pos + n], data[pos + n:pos + n + 64]))
        pos += n + 64
    return out


def split_carried(records):
    """Section 7, "An archive that carries its tournament chain": the records
    of the tournament chain(s) an archive of games carries, apart from the
    games'. An archive with no game genesis is a tournament chain file."""
    recs = [Rec(*r) for r in records]
    geneses = [r for r in recs
               if r.env is not None and r.env.seq == 0 and r.env.chain == ZERO32]
    names = {r.env.body.name for r in geneses}
    if "game_created" not in names or "tournament_created" not in names:
        return records, []
    ids = {r.hash for r in geneses if r.env.body.name == "tournament_created"}
    games, carried = [], []
    for raw, rec in zip(records, recs):
        if rec.env is not None and (rec.hash in ids or rec.env.chain in ids):
            carried.append(raw)
        else:
            games.append(raw)
    return games, carried


def organiser_keys(carried):
    """The `director` officials' keys (hex) of a carried chain's genesis."""
    for raw in carried:
        rec = Rec(*raw)
        if rec.env is not None and rec.env.seq == 0 and rec.env.body.name == "tournament_created":
            return [p["key"].hex() if isinstance(p["key"], (bytes, bytearray)) else p["key"]
                    for p in rec.env.body.value["officials"] if p["role"] == "director"]
    return []


def verify_archive(data, trusted=()):
    """Section 7. `trusted`: the keys (hex) the reader trusts; when some are
    given, the archive is complete only when one of them signs its manifest.
    When none are given and the archive carries a tournament chain that
    verifies, the organiser's keys it names are the ones trusted."""
    manifest = None
    signature_ok = False
    manifest_problems = []
    if data[:8] == b"KIFUARC1":
        records = read_records(data, 8)
        version = 1
    elif data[:8] == b"KIFUARC2":
        version = 2
        if len(data) < 12:
            raise Invalid("truncated manifest length")
        n = int.from_bytes(data[8:12], "little")
        mbytes = data[12:12 + n]
        if len(mbytes) != n:
            raise Invalid("truncated manifest")
        r = Reader(mbytes)
        manifest = manifest_decoder(r)
        r.end()
        pos = 12 + n
        if manifest["version"] != 1:
            raise Invalid("manifest version %d, not 1" % manifest["version"])
        if manifest["signer"] is not None:
            sig = data[pos:pos + 64]
            if len(sig) != 64:
                raise Invalid("truncated manifest signature")
            pos += 64
            if not verify_strict(bytes.fromhex(manifest["signer"]), MANIFEST_DOMAIN + mbytes, sig):
                manifest_problems.append("the manifest's signature is not accepted")
            else:
                signature_ok = True
        records = read_records(data, pos)
    else:
        raise Invalid("not a kifu archive (no KIFUARC1 or KIFUARC2 magic)")
    games_raw, carried_raw = split_carried(records)
    report = verify_records(games_raw)
    carried = None
    if carried_raw:
        # Verified as a tournament chain file is (section 10).
        carried = verify_records(carried_raw)
        for k in ("events", "duplicates", "forks", "uninterpreted"):
            report[k] += carried[k]
        report["warnings"].extend(carried["warnings"])
        report["problems"].extend(carried["problems"])
        report["ok"] = not report["problems"]
        if not trusted and carried["ok"]:
            trusted = tuple(organiser_keys(carried_raw))
    report["archive_version"] = version
    if manifest is None:
        report["completeness"] = "cannot be shown (v1 archive, no manifest)"
    else:
        report["manifest_signer"] = manifest["signer"]
        listed = {g["game"]: g for g in manifest["games"]}
        for gid in sorted(listed):
            n = sum(1 for g in manifest["games"] if g["game"] == gid)
            if n > 1:
                manifest_problems.append("game %s: the manifest lists this game %d times" % (gid, n))
        found = {g["game"]: g for g in report["games"] + (carried["games"] if carried else [])}
        for gid, m in sorted(listed.items()):
            g = found.get(gid)
            if g is None:
                manifest_problems.append("incomplete: game %s listed but absent" % gid)
            elif g["head_seq"] != m["head_seq"] or g["head"] != m["head_hash"]:
                manifest_problems.append(
                    "incomplete: game %s ends at seq %s, the manifest states seq %d"
                    % (gid, g["head_seq"], m["head_seq"]))
        for gid in sorted(found):
            if gid not in listed:
                manifest_problems.append("incomplete: game %s is not in the manifest" % gid)
        report["completeness"] = "shown by the manifest" if not manifest_problems else "failed"
        report["problems"].extend(manifest_problems)
        report["ok"] = not report["problems"]
    if trusted:
        signer = manifest["signer"] if manifest is not None else None
        if manifest is None:
            report["problems"].append("untrusted: no manifest")
        elif signer is None or not signature_ok:
            report["problems"].append("untrusted: the manifest is not signed")
        elif signer not in trusted:
            report["problems"].append("untrusted: the manifest's signer %s is not trusted" % signer)
        report["trusted"] = not any(p.startswith("untrusted") for p in report["problems"])
        report["ok"] = not report["problems"]
    return report


def summary(report):
    """The small JSON verdict."""
    return {
        "ok": report["ok"],
        "archive_version": report.get("archive_version"),
        "completeness": report.get("completeness"),
        "manifest_signer": report.get("manifest_signer"),
        "events": report["events"],
        "duplicates": report["duplicates"],
        "forks": report["forks"],
        "uninterpreted": report["uninterpreted"],
        "warnings": report["warnings"],
        "problems": report["problems"],
        "games": [{k: g[k] for k in ("game", "chain", "ok", "head_seq", "head", "finished",
                                     "problems")}
                  for g in report["games"]],
    }


# --------------------------------------------------------------------------
# The tournament chain in an appeal bundle (docs/TRANSPARENCY.md section 7,
# "Tournament checkpoint"; FORMAT.md section 10).


def stored_record(b64):
    """A stored record: u32 LE length || event_bytes || signature (section 7)."""
    data = base64.b64decode(b64)
    records = read_records(data, 0)
    if len(records) != 1:
        raise Invalid("a stored record holds %d records" % len(records))
    return records[0]


COMPACT_MAGIC = b"kifu-bundle/3\n"


def read_compact_bundle(data):
    """A compact bundle (docs/TRANSPARENCY.md section 7, kifu-bundle/3): the
    magic line, then zlib of (u32 LE n, n bytes of JSON header, records);
    each record is u32 LE m, the event bytes without `chain` and
    `prev_hash`, the signature. Gives the kifu-bundle/2 object it holds and
    the game's records as (event_bytes, signature) pairs."""
    import zlib
    if not data.startswith(COMPACT_MAGIC):
        raise Invalid("not a kifu-bundle/3 file")
    try:
        plain = zlib.decompress(data[len(COMPACT_MAGIC):])
    except zlib.error as e:
        raise Invalid("the compressed part does not unpack: %s" % e)
    n = int.from_bytes(plain[:4], "little")
    if len(plain) < 4 + n:
        raise Invalid("the header is cut short")
    bundle = json.loads(plain[4:4 + n])
    if bundle.get("format") != "kifu-bundle/3":
        raise Invalid("the header names %r" % bundle.get("format"))
    game = bytes.fromhex(bundle["game"])
    records, pos, prev = [], 4 + n, None
    while pos < len(plain):
        if pos + 4 > len(plain):
            raise Invalid("record %d is cut short" % len(records))
        m = int.from_bytes(plain[pos:pos + 4], "little")
        short, sig = plain[pos + 4:pos + 4 + m], plain[pos + 4 + m:pos + 4 + m + 64]
        if len(short) != m or len(sig) != 64:
            raise Invalid("record %d is cut short" % len(records))
        pos += 4 + m + 64
        # The envelope (FORMAT.md section 3): version (varint), chain (32),
        # seq (varint), prev_hash (32); the compact record lacks the two
        # hashes, which are zeros in the genesis and otherwise the game id
        # and the hash of the record before.
        r = Reader(short)
        r.varint(16, "version")
        at_chain = r.pos
        r.varint(64, "seq")
        at_prev = r.pos
        chain, prev_hash = (game, prev) if records else (bytes(32), bytes(32))
        event = short[:at_chain] + chain + short[at_chain:at_prev] + prev_hash + short[at_prev:]
        records.append((event, sig))
        prev = blake3.blake3(HASH_DOMAIN + event + sig).digest()
    bundle["format"] = "kifu-bundle/2"
    bundle["records"] = [
        {"seq": i, "record": base64.b64encode(len(e).to_bytes(4, "little") + e + s).decode()}
        for i, (e, s) in enumerate(records)]
    return bundle, records


def verify_compact_bundle(data):
    """A compact bundle: its game's records verify as one chain (section 6),
    and its tournament part as any bundle's."""
    bundle, records = read_compact_bundle(data)
    game = verify_records(records)
    report = verify_bundle_tournament(bundle)
    games = [g for g in game["games"] if g["game"] == bundle["game"]]
    problems = list(game["problems"])
    if len(games) != 1 or len(game["games"]) != 1:
        problems.append("the records are not one chain of game %s" % bundle["game"])
    report["problems"] = problems + report["problems"]
    report["games"] = game["games"] + report["games"]
    report["events"] += game["events"]
    report["ok"] = not report["problems"]
    return report


def verify_bundle_tournament(bundle):
    """The tournament part of a bundle: the chain verifies (section 6 for one
    chain, section 10's roles), its last record is a `game_checkpointed` of
    the bundle's game, and the bundle's record at the checkpointed seq has
    the checkpointed hash."""
    # The tournament part is the same in both forms (docs/TRANSPARENCY.md
    # section 7): the tail form and the map form.
    if bundle.get("format") not in ("kifu-bundle/1", "kifu-bundle/2"):
        raise Invalid("not a kifu-bundle/1 or kifu-bundle/2")
    part = bundle.get("tournament_checkpoint")
    if part is None:
        return {"ok": True, "bundle": True, "tournament_checkpoint": None, "problems": [],
                "warnings": [], "games": [], "events": 0, "duplicates": 0, "forks": 0,
                "uninterpreted": 0}
    report = verify_records([stored_record(x) for x in part["records"]])
    problems = report["problems"]
    chains = [g for g in report["games"] if g["chain"] == "tournament"]
    if len(chains) != 1 or chains[0]["game"] != part["tournament"]:
        problems.append("the part is not the chain of tournament %s" % part["tournament"])
    else:
        head = bytes.fromhex(chains[0]["head"])
        last = next(Rec(*stored_record(x)) for x in part["records"]
                    if Rec(*stored_record(x)).hash == head)
        b = last.env.body
        if b.name != "game_checkpointed" or b.value["game"] != bundle["game"]:
            problems.append("its last record is not a checkpoint of game %s" % bundle["game"])
        else:
            cp = b.value
            held = {r["seq"]: Rec(*stored_record(r["record"])) for r in bundle["records"]}
            rec = held.get(cp["head_seq"])
            if rec is None:
                problems.append("the checkpointed seq %d is not in the bundle" % cp["head_seq"])
            elif rec.hash.hex() != cp["head_hash"]:
                problems.append("the checkpoint and the bundle's record at seq %d disagree"
                                % cp["head_seq"])
            report["tournament_checkpoint"] = {
                "tournament": part["tournament"], "checkpoint_event": last.env.seq,
                "round": cp["round"], "board": cp["board"], "head_seq": cp["head_seq"],
                "head_hash": cp["head_hash"]}
    report["bundle"] = True
    report["ok"] = not problems
    return report


# --------------------------------------------------------------------------
# The vectors of fixtures/format/vectors.json.


def hashes_as_hex(j):
    """The vectors' body JSON writes a 32-byte hash as 32 numbers (a key as
    hex); this verifier writes both as hex."""
    if isinstance(j, list) and len(j) == 32 and all(isinstance(x, int) for x in j):
        return bytes(j).hex()
    if isinstance(j, list):
        return [hashes_as_hex(x) for x in j]
    if isinstance(j, dict):
        return {k: hashes_as_hex(x) for k, x in j.items()}
    return j


def check_vectors(path):
    v = json.load(open(path))
    fails = []
    counts = {}

    def fail(where, msg):
        fails.append("%s: %s" % (where, msg))

    def count(what):
        counts[what] = counts.get(what, 0) + 1

    if v["sign_domain"].encode() != SIGN_DOMAIN or v["hash_domain"].encode() != HASH_DOMAIN \
            or v["manifest_domain"].encode() != MANIFEST_DOMAIN:
        fail("domains", "differ from the document")
    keys = {k["name"]: bytes.fromhex(k["public_key"]) for k in v["keys"]}
    for k in v["keys"]:
        seed = bytes.fromhex(k["seed"])
        if Ed25519PublicKey is not None:
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
            from cryptography.hazmat.primitives import serialization
            sk = Ed25519PrivateKey.from_private_bytes(seed)
            pub = sk.public_key().public_bytes(serialization.Encoding.Raw,
                                               serialization.PublicFormat.Raw)
            if pub != keys[k["name"]]:
                fail("key " + k["name"], "public key does not follow from the seed")
        count("keys")
    for val in v["values"]:
        where = "value %s %s" % (val["type"], json.dumps(val["json"]))
        try:
            r = Reader(bytes.fromhex(val["bytes"]))
            got = VALUE_TYPES[val["type"]](r)
            r.end()
            if got != val["json"]:
                fail(where, "decoded as %s" % json.dumps(got))
        except (Invalid, KeyError) as e:
            fail(where, "does not decode: %r" % e)
        count("values")
    def check_event(ev, where):
        """One event vector: its bytes, body, signed message, signature, hash."""
        eb, sig = bytes.fromhex(ev["event_bytes"]), bytes.fromhex(ev["signature"])
        try:
            e = decode_envelope(eb)
        except Invalid as x:
            fail(where, "does not decode: %s" % x)
            return None
        if e.body_bytes.hex() != ev["body_bytes"]:
            fail(where, "body bytes differ")
        if e.body.index != ev["kind_index"] or e.body.name != ev["kind"]:
            fail(where, "kind %s/%s" % (e.body.index, e.body.name))
        if e.body.json() != hashes_as_hex(ev["body_json"]):
            fail(where, "body decoded as %s" % json.dumps(e.body.json()))
        if e.seq != ev["seq"] or e.at_ms != ev["at_ms"] or e.signer.hex() != ev["signer"]:
            fail(where, "envelope fields differ")
        if (SIGN_DOMAIN + eb).hex() != ev["signed_message"]:
            fail(where, "signed message differs")
        if not verify_strict(e.signer, SIGN_DOMAIN + eb, sig):
            fail(where, "signature not accepted")
        if record_hash(eb, sig).hex() != ev["hash"]:
            fail(where, "hash differs")
        return e

    chain = []
    for ev in v["events"]:
        where = "event seq %d (%s)" % (ev["seq"], ev["kind"])
        if check_event(ev, where) is None:
            continue
        chain.append(ev)
        count("events")
    if chain and chain[0]["hash"] != v["game_id"]:
        fail("game_id", "is not the genesis hash")
    # role cases: the event at after_seq + 1 on the chain of `events`
    envs = [decode_envelope(bytes.fromhex(ev["event_bytes"])) for ev in v["events"]]
    states = []
    state = genesis_state(envs[0])
    states.append(state.copy())
    for e in envs[1:]:
        state.check(e)
        state.apply(e)
        states.append(state.copy())
    for rc in v["role_cases"]:
        where = "role case kind %d by %s after seq %d" % (rc["kind_index"], rc["signer"],
                                                           rc["after_seq"])
        eb, sig = bytes.fromhex(rc["event_bytes"]), bytes.fromhex(rc["signature"])
        try:
            e = decode_envelope(eb)
            if not verify_strict(e.signer, SIGN_DOMAIN + eb, sig):
                raise Refused("bad signature")
            states[rc["after_seq"]].copy().check(e)
            got, why = True, None
        except (Refused, Invalid) as x:
            got, why = False, str(x)
        if got != rc["accepted"]:
            fail(where, "expected %s (%s), got %s (%s)" % (rc["accepted"], rc["refusal"], got, why))
        count("role_cases")
    # The tournament chain (section 10): every kind 44 to 52 and 55, linked from
    # its genesis, each accepted by the role table where it stands.
    tid = bytes.fromhex(v["tournament_id"])
    prev, tstates, tstate = ZERO32, [], None
    for ev in v["tournament_events"]:
        where = "tournament event seq %d (%s)" % (ev["seq"], ev["kind"])
        e = check_event(ev, where)
        count("tournament_events")
        if e is None:
            continue
        if e.prev_hash != prev or e.chain != (ZERO32 if e.seq == 0 else tid):
            fail(where, "does not link to the previous event of the tournament chain")
        prev = bytes.fromhex(ev["hash"])
        try:
            if e.seq == 0:
                if prev != tid:
                    fail(where, "the tournament id is not the genesis hash")
                tstate = genesis_state(e)
                if not isinstance(tstate, TournamentState):
                    fail(where, "not a tournament genesis")
            else:
                tstate.check(e)
                tstate.apply(e)
        except Refused as x:
            fail(where, "refused: %s" % x)
        tstates.append(tstate.copy() if tstate is not None else None)
    kinds = sorted({ev["kind_index"] for ev in v["tournament_events"]})
    if kinds != sorted(TOURNAMENT_KINDS):
        fail("tournament events", "kinds %s, not 44 to 52, 55 and 56" % kinds)
    for rc in v["tournament_role_cases"]:
        where = "tournament role case kind %d by %s after seq %d" % (
            rc["kind_index"], rc["signer"], rc["after_seq"])
        eb, sig = bytes.fromhex(rc["event_bytes"]), bytes.fromhex(rc["signature"])
        try:
            e = decode_envelope(eb)
            if not verify_strict(e.signer, SIGN_DOMAIN + eb, sig):
                raise Refused("bad signature")
            tstates[rc["after_seq"]].copy().check(e)
            got, why = True, None
        except (Refused, Invalid) as x:
            got, why = False, str(x)
        if got != rc["accepted"]:
            fail(where, "expected %s (%s), got %s (%s)" % (rc["accepted"], rc["refusal"], got, why))
        count("tournament_role_cases")
    rep = verify_archive(bytes.fromhex(v["tournament_archive"]))
    count("cases")
    last = v["tournament_events"][-1]
    if not rep["ok"] or [(g["chain"], g["game"], g["head"]) for g in rep["games"]] != [
            ("tournament", v["tournament_id"], last["hash"])]:
        fail("tournament archive", "expected its chain to end at seq %d: %s"
             % (last["seq"], rep["problems"] or rep["games"]))
    for inv in v["invalid"]:
        try:
            decode_envelope(bytes.fromhex(inv["event_bytes"]))
            fail("invalid record", "decoded although %s" % inv["why"])
        except Invalid:
            pass
        count("invalid")
    cases = []
    for case in v["cases"]:
        cases.append((case, case["expect"], ()))
        if "expect_trusted" in case:
            cases.append((dict(case, name=case["name"] + " (trusting " + v["trusted_key"][:12] + ")"),
                          case["expect_trusted"], (v["trusted_key"],)))
    cases.append(({"name": "archive", "archive": v["archive"]}, None, ()))
    for case, exp, trusted in cases:
        where = "case " + case["name"]
        rep = verify_archive(bytes.fromhex(case["archive"]), trusted)
        count("cases")
        if exp is None:
            if not rep["ok"]:
                fail(where, "does not verify: %s" % rep["problems"])
            continue
        got = {
            "ok": rep["ok"], "duplicates": rep["duplicates"], "forks": rep["forks"],
            "problems": len(rep["problems"]), "uninterpreted": rep["uninterpreted"],
            "warnings": len(rep["warnings"]),
            "games": [{"finished": g["finished"], "game": g["game"], "head": g["head"],
                       "head_seq": g["head_seq"]} for g in rep["games"]],
        }
        for k in got:
            if got[k] != exp[k]:
                fail(where, "%s: expected %s, got %s (problems: %s)"
                     % (k, exp[k], got[k], rep["problems"]))
        if exp["problem_contains"] and not any(exp["problem_contains"] in p
                                               for p in rep["problems"]):
            fail(where, "no problem mentions %r: %s" % (exp["problem_contains"], rep["problems"]))
    for case in v.get("tournament_cases", []):
        where = "tournament case " + case["name"]
        rep = verify_archive(bytes.fromhex(case["archive"]))
        exp = case["expect"]
        count("tournament_cases")
        if rep["ok"] != exp["ok"]:
            fail(where, "expected ok=%s, got %s (problems: %s)" % (exp["ok"], rep["ok"], rep["problems"]))
        elif exp["problem_contains"] and not any(exp["problem_contains"] in p
                                                 for p in rep["problems"]):
            fail(where, "no problem mentions %r: %s" % (exp["problem_contains"], rep["problems"]))
    for case in v.get("carried_cases", []):
        for exp, trusted, suffix in ((case["expect"], (), ""),
                                     (case["expect_trusted"], (v["trusted_key"],), " (trusting)")):
            where = "carried case " + case["name"] + suffix
            rep = verify_archive(bytes.fromhex(case["archive"]), trusted)
            count("carried_cases")
            if rep["ok"] != exp["ok"]:
                fail(where, "expected ok=%s, got %s (problems: %s)" % (exp["ok"], rep["ok"], rep["problems"]))
            elif exp["problem_contains"] and not any(exp["problem_contains"] in p
                                                     for p in rep["problems"]):
                fail(where, "no problem mentions %r: %s" % (exp["problem_contains"], rep["problems"]))
    return {"ok": not fails, "checked": counts, "disagreements": fails}


def main(argv):
    trusted = []
    while len(argv) >= 3 and argv[1] == "--trust":
        trusted.append(argv[2].strip().lower())
        argv = argv[:1] + argv[3:]
    if len(argv) == 3 and argv[1] == "--vectors":
        out = check_vectors(argv[2])
        print(json.dumps(out, indent=1))
        return 0 if out["ok"] else 1
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        data = open(argv[1], "rb").read()
        if data[:1] == b"{":
            report = verify_bundle_tournament(json.loads(data))
        elif data.startswith(COMPACT_MAGIC):
            report = verify_compact_bundle(data)
        else:
            report = verify_archive(data, trusted)
    except OSError as e:
        print(json.dumps({"ok": False, "error": str(e)}))
        return 2
    except (Invalid, ValueError, KeyError) as e:
        print(json.dumps({"ok": False, "error": "unreadable archive: %s" % e}))
        return 1
    out = summary(report)
    if report.get("bundle"):
        out["tournament_checkpoint"] = report.get("tournament_checkpoint")
    print(json.dumps(out, indent=1))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
