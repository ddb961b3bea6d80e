// kifu's records, built and signed in a browser or in Node: every body kind
// and the envelope in the postcard bytes of docs/FORMAT.md (sections 2 to
// 4, 10), the record hash (BLAKE3-256, section 1) and the Ed25519 signature
// over the domain-separated bytes, made with Web Crypto so that a device's
// private key can stay non-extractable. Served by `kifu serve` at
// /web/record.js; documented for integrators in docs/API.md ("Building
// records in a browser or in Node").
//
// Values are given in the JSON form of docs/FORMAT.md section 4 (serde's
// external tagging: `{"stone_placed": {"player": "black", ...}}`, keys as
// hex, game ids and hashes as hex, arrays of 32 numbers or Uint8Arrays,
// integers as numbers, BigInts or decimal strings). Encoding refuses with an
// Error naming the field for anything the format cannot carry; decoding is
// strict (shortest varints, no trailing bytes), as section 2 requires.

import { blake3, concat as concatParts } from "./blake3.js";

const te = new TextEncoder();
const td = new TextDecoder("utf-8", { fatal: true });

/** "kifu/v1/event-signature\n": what precedes the event bytes when signing. */
export const SIGN_DOMAIN = te.encode("kifu/v1/event-signature\n");
/** "kifu/v1/event-hash\n": what precedes event bytes and signature when hashing. */
export const HASH_DOMAIN = te.encode("kifu/v1/event-hash\n");
/** "kifu/v1/key-fingerprint\n": what precedes a public key in its fingerprint. */
export const FINGERPRINT_DOMAIN = te.encode("kifu/v1/key-fingerprint\n");
/** The envelope version this module writes and reads. */
export const VERSION = 1;

// ---------------------------------------------------------------- schema

const unit = null;
const struct = (...fields) => ({ struct: fields });
const variants = (...vs) => ({ enumeration: vs });
const vec = (t) => ({ vec: t });
const option = (t) => ({ option: t });
const tuple = (...ts) => ({ tuple: ts });

const Color = variants(["black", unit], ["white", unit]);
const Point = struct(["x", "u8"], ["y", "u8"]);
const GameKind = variants(["go", unit], ["renju", unit], ["gomoku_freestyle", unit], ["gomoku_standard", unit]);
const Role = variants(
  ["black", unit], ["white", unit], ["referee", unit], ["recorder", unit], ["director", unit], ["committee", unit],
);
const Participant = struct(["role", Role], ["name", "string"], ["key", "key"]);
const TournamentRef = struct(["tournament", "string"], ["round", "u32"], ["board", "u32"]);
const TimeControl = variants(
  ["untimed", unit],
  ["sudden_death", struct(["main_ms", "u64"])],
  ["fischer", struct(["main_ms", "u64"], ["increment_ms", "u64"], ["max_ms", option("u64")])],
  ["simple", struct(["per_move_ms", "u64"])],
  ["byoyomi", struct(["main_ms", "u64"], ["periods", "u32"], ["period_ms", "u64"])],
  ["canadian", struct(["main_ms", "u64"], ["stones", "u32"], ["block_ms", "u64"])],
);
const Genesis = struct(
  ["game", GameKind], ["ruleset", "string"], ["overrides", vec(tuple("string", "string"))],
  ["board_size", "u8"], ["handicap", "u8"], ["komi_half_points", "i32"], ["time_control", TimeControl],
  ["roster", vec(Participant)], ["tournament", option(TournamentRef)], ["title", "string"],
  ["auto_declare", "bool"],
);
const PauseReason = variants(
  ["status_assessment", unit], ["counting", unit], ["reset_clock", unit], ["toilet", unit],
  ["remove_stones", unit], ["clock_malfunction", unit], ["adjournment", unit], ["sealing", unit],
  ["call_referee", unit], ["arbitration", unit], ["announcement", unit], ["other", "string"],
);
const Resignation = variants(["spoken", unit], ["two_stones", unit], ["program", unit]);
const Outcome = variants(["win", Color], ["draw", unit], ["both_lose", unit], ["no_result", unit]);
const ResultBy = variants(
  ["resignation", unit], ["time", unit], ["forfeit", unit], ["score", struct(["margin_half_points", "i32"])],
  ["five", unit], ["forbidden_move", unit], ["illegal_move", unit], ["agreement", unit],
  ["repetition", unit], ["abnormal_termination", unit], ["other", "string"],
);
const GameResult = struct(["outcome", Outcome], ["by", ResultBy]);
const RulingKind = variants(["clarification", unit], ["judgement", unit]);
const SanctionTarget = variants(["player", Color], ["both", unit]);
const SanctionKind = variants(
  ["advice", unit], ["warning", unit], ["game_forfeit", unit], ["time_modified", struct(["delta_ms", "i64"])],
  ["removed_from_rounds", struct(["rounds", vec("u32")])], ["removed_from_tournament", unit],
  ["debarment", unit], ["disqualification", unit],
);
const Sanction = struct(["target", SanctionTarget], ["kind", SanctionKind], ["reason", "string"]);
const RulingEffect = variants(
  ["unwind_to", struct(["seq", "u64"])],
  ["adjust_clock", struct(["player", Color], ["delta_ms", "i64"])],
  ["resume", unit],
  ["sanction", Sanction],
  ["set_result", GameResult],
);
const Ruling = struct(
  ["kind", RulingKind], ["decision", "string"], ["reasons", "string"], ["rules_cited", vec("string")],
  ["effects", vec(RulingEffect)],
);
const IrregularityKind = variants(
  ["captured_stones_not_removed", unit], ["live_stones_removed", unit], ["handicap_stones_misplaced", unit],
  ["stone_on_occupied_point", unit], ["ambiguous_placement", unit], ["wrong_colour", unit],
  ["colour_or_handicap_error", unit], ["position_disturbed", unit],
);
const BoardFix = struct(["remove", vec(Point)], ["as_prisoners", "bool"], ["place", vec(tuple(Color, Point))]);
const CommitteeVerdict = variants(["rejected", unit], ["upheld", unit], ["replaced", vec(RulingEffect)]);
const DrawRules = struct(["engine", "string"], ["overrides", vec(tuple("string", "string"))]);
const PairingSystem = variants(
  ["mc_mahon", unit], ["swiss", unit], ["round_robin", unit], ["knockout", unit],
  ["mc_mahon_drawn", DrawRules], ["swiss_drawn", DrawRules],
);
const AbsenceReason = variants(["late_arrival", unit], ["round_skipped", unit], ["withdrawal", unit], ["sanction", unit]);
const BoardResult = variants(
  ["unknown", unit], ["white_wins", unit], ["black_wins", unit], ["jigo", unit], ["both_lose", unit], ["both_win", unit],
);
const TournamentGenesis = struct(
  ["name", "string"], ["short_name", "string"], ["city", "string"], ["country", "string"],
  ["start", "string"], ["finish", "string"], ["game", GameKind], ["ruleset", "string"],
  ["time_control", TimeControl], ["komi_half_points", "i32"], ["system", PairingSystem],
  ["rounds", "u32"], ["mm_bar", "string"], ["mm_floor", "string"],
  ["nbw2_bye", "u8"], ["mms2_bye", "u8"], ["nbw2_absent", "u8"], ["mms2_absent", "u8"],
  ["round_down_bye_absent", "bool"], ["unplayed_as_half", "bool"],
  ["criteria", vec("string")], ["egf_class", "string"], ["adjusted_time_minutes", "u32"],
  ["handicap_reduction", "u32"], ["officials", vec(Participant)],
);
const Registration = struct(
  ["id", "string"], ["surname", "string"], ["given", "string"], ["rank", "string"], ["rating", "i32"],
  ["country", "string"], ["club", "string"], ["egd_pin", "string"], ["aga_id", "string"],
  ["smms_correction", "i32"], ["key", option("key")],
);
const Pairing = struct(
  ["round", "u32"], ["board", "u32"], ["white", "string"], ["black", "string"], ["handicap", "u8"],
  ["game", option("hash")],
);
const Checkpoint = struct(
  ["round", "u32"], ["board", "u32"], ["game", "hash"], ["head_seq", "u64"], ["head_hash", "hash"],
  ["result", option(GameResult)],
);
const player = ["player", Color];

/** The body kinds, in kind-index order (docs/FORMAT.md, section 4). */
const Body = variants(
  ["game_created", Genesis],
  ["clock_started", struct(["running", Color])],
  ["stone_placed", struct(player, ["stone", Color], ["point", Point])],
  ["pass", struct(player, ["pass_stone", "bool"])],
  ["clock_pressed", struct(player)],
  ["clock_paused", struct(["reason", PauseReason])],
  ["clock_resumed", struct(["running", Color])],
  ["resigned", struct(player, ["manner", Resignation])],
  ["referee_ruling", Ruling],
  ["sanction_imposed", Sanction],
  ["protest_declared", struct(player, ["statement", "string"])],
  ["result_declared", GameResult],
  ["result_sheet_signed", struct(["result", GameResult], ["under_protest", "bool"])],
  ["clock_adjusted", struct(player, ["delta_ms", "i64"], ["reason", "string"])],
  ["clock_reading", struct(
    ["black_ms", "u64"], ["white_ms", "u64"], ["black_overtime", option("u32")],
    ["white_overtime", option("u32")], ["read_by", "string"],
  )],
  ["illegal_move_noticed", struct(["move_seq", "u64"], ["statement", "string"])],
  ["rewind_agreed", struct(player, ["move_seq", "u64"])],
  ["irregularity_recorded", struct(
    ["kind", IrregularityKind], ["about_seq", option("u64")], ["fix", BoardFix], ["statement", "string"],
  )],
  ["dead_stones_marked", struct(player, ["dead", vec(Point)])],
  ["status_agreed", struct(["dead", vec(Point)])],
  ["status_disputed", struct(player, ["statement", "string"])],
  ["dispute_raised", struct(player, ["matter", "string"])],
  ["referee_called", struct(player)],
  ["appeal_lodged", struct(player, ["ruling_seq", "u64"], ["grounds", "string"])],
  ["committee_formed", struct(
    ["members", vec(Participant)], ["reserves", vec(Participant)], ["formed_before_round", "u32"],
  )],
  ["member_recused", struct(["member", "key"], ["reason", "string"])],
  ["member_coopted", struct(["member", Participant])],
  ["committee_decision", struct(["appeal_seq", "u64"], ["verdict", CommitteeVerdict], ["reasons", "string"])],
  ["five_declared", struct(player)],
  ["forbidden_move_pointed_out", struct(player, ["point", option(Point)])],
  ["draw_offered", struct(player)],
  ["draw_accepted", struct(player)],
  ["draw_declined", struct(player)],
  ["opening_swap", struct(player, ["swap", "bool"])],
  ["fifth_count_declared", struct(player, ["count", "u8"])],
  ["fifths_offered", struct(player, ["points", vec(Point)])],
  ["fifth_chosen", struct(player, ["point", Point])],
  ["player_arrived", struct(player)],
  ["program_terminated", struct(player, ["statement", "string"])],
  ["server_time_used", struct(player, ["used_ms", "u64"])],
  ["program_answered", struct(player, ["command", "string"], ["answer", "string"])],
  ["rewind_declined", struct(player, ["move_seq", "u64"])],
  ["key_replaced", struct(["participant", "key"], ["new_key", "key"], ["reason", "string"])],
  ["key_revoked", struct(["key", "key"], ["reason", "string"])],
  ["tournament_created", TournamentGenesis],
  ["player_registered", Registration],
  ["registration_corrected", Registration],
  ["paired", Pairing],
  ["bye_given", struct(["round", "u32"], ["player", "string"])],
  ["player_absent", struct(["round", "u32"], ["player", "string"], ["reason", AbsenceReason])],
  ["board_result_entered", struct(
    ["round", "u32"], ["board", "u32"], ["result", BoardResult], ["by_default", "bool"], ["reason", "string"],
  )],
  ["game_checkpointed", Checkpoint],
  ["tournament_sanction", struct(
    ["player", "string"], ["kind", SanctionKind], ["from_round", "u32"], ["reason", "string"],
  )],
  ["pairing_modified", struct(
    ["swap_colours", "bool"], ["handicap", option("u8")], ["komi_half_points", option("i32")], ["reason", "string"],
  )],
  ["log_key_rotated", struct(["origin", "string"], ["new_key", "key"])],
  ["paired_colours_unknown", Pairing],
  ["round_drawn", struct(
    ["round", "u32"], ["engine", "string"], ["swaps", vec(struct(["first", "string"], ["second", "string"], ["reason", "string"]))],
  )],
  ["time_zone_stated", struct(["zone", "string"])],
);

const Envelope = struct(
  ["version", "u16"], ["chain", "hash"], ["seq", "u64"], ["prev_hash", "hash"], ["at_ms", "u64"],
  ["signer", "key"], ["body", "bytes"],
);

/**
 * The value types by their names in docs/FORMAT.md, for `encodeValue` and
 * `decodeValue` (and "u16", "u32", "u64", "i32", "i64", ...).
 */
export const TYPES = Object.freeze({
  Color, Point, GameKind, Role, Participant, TournamentRef, TimeControl, Genesis, PauseReason,
  Resignation, Outcome, ResultBy, GameResult, RulingKind, RulingEffect, Ruling, SanctionTarget,
  SanctionKind, Sanction, IrregularityKind, BoardFix, CommitteeVerdict, PairingSystem, AbsenceReason,
  BoardResult, TournamentGenesis, Registration, Pairing, Checkpoint, Body, Envelope,
});

/** Every body kind's name, by kind index. */
export const KINDS = Object.freeze(Body.enumeration.map(([name]) => name));

// ---------------------------------------------------------------- writing

const RANGES = {
  u8: [0n, 0xffn],
  u16: [0n, 0xffffn],
  u32: [0n, 0xffffffffn],
  u64: [0n, 0xffffffffffffffffn],
  i32: [-(1n << 31n), (1n << 31n) - 1n],
  i64: [-(1n << 63n), (1n << 63n) - 1n],
};

function fail(path, what) {
  throw new Error(`${path || "value"}: ${what}`);
}

function integer(v, type, path) {
  let n;
  if (typeof v === "bigint") n = v;
  else if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === "string" && /^-?[0-9]+$/.test(v)) n = BigInt(v);
  else fail(path, `expected an integer (${type}), got ${JSON.stringify(typeof v === "bigint" ? String(v) : v)}`);
  const [lo, hi] = RANGES[type];
  if (n < lo || n > hi) fail(path, `${n} is outside ${type}`);
  return n;
}

class Writer {
  constructor() {
    this.buf = new Uint8Array(64);
    this.len = 0;
  }
  room(n) {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
  }
  byte(b) {
    this.room(1);
    this.buf[this.len++] = b;
  }
  bytes(bs) {
    this.room(bs.length);
    this.buf.set(bs, this.len);
    this.len += bs.length;
  }
  varint(n) {
    // n: a non-negative BigInt; unsigned LEB128, shortest form.
    while (n >= 0x80n) {
      this.byte(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.byte(Number(n));
  }
  done() {
    return this.buf.slice(0, this.len);
  }
}

function bytes32(v, path, what) {
  let b;
  if (v instanceof Uint8Array) b = v;
  else if (typeof v === "string" && /^[0-9a-fA-F]{64}$/.test(v)) b = fromHex(v);
  else if (Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)) b = Uint8Array.from(v);
  else fail(path, `expected ${what}: 64 hex digits, 32 numbers or a Uint8Array`);
  if (b.length !== 32) fail(path, `expected ${what} of 32 bytes, got ${b.length}`);
  return b;
}

function write(w, type, v, path) {
  if (typeof type === "string") {
    switch (type) {
      case "u8":
        w.byte(Number(integer(v, "u8", path)));
        return;
      case "bool":
        if (typeof v !== "boolean") fail(path, "expected true or false");
        w.byte(v ? 1 : 0);
        return;
      case "u16":
      case "u32":
      case "u64":
        w.varint(integer(v, type, path));
        return;
      case "i32":
      case "i64": {
        const n = integer(v, type, path);
        const bits = type === "i32" ? 32n : 64n;
        // zigzag: (n << 1) ^ (n >> (bits - 1)), as an unsigned value.
        const z = ((n << 1n) ^ (n >> (bits - 1n))) & ((1n << bits) - 1n);
        w.varint(z);
        return;
      }
      case "string": {
        if (typeof v !== "string") fail(path, "expected a string");
        const b = te.encode(v);
        w.varint(BigInt(b.length));
        w.bytes(b);
        return;
      }
      case "bytes": {
        if (!(v instanceof Uint8Array)) fail(path, "expected a Uint8Array");
        w.varint(BigInt(v.length));
        w.bytes(v);
        return;
      }
      case "key":
        w.bytes(bytes32(v, path, "a public key"));
        return;
      case "hash":
        w.bytes(bytes32(v, path, "a hash"));
        return;
      default:
        throw new Error(`unknown type ${type}`);
    }
  }
  if (type.struct) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) fail(path, "expected an object");
    const names = new Set(type.struct.map(([n]) => n));
    for (const k of Object.keys(v)) {
      if (!names.has(k)) fail(path, `unknown field "${k}"`);
    }
    for (const [name, t] of type.struct) {
      if (!(name in v)) {
        if (t.option) {
          w.byte(0);
          continue;
        }
        fail(path, `missing field "${name}"`);
      }
      write(w, t, v[name], path ? `${path}.${name}` : name);
    }
    return;
  }
  if (type.vec) {
    if (!Array.isArray(v)) fail(path, "expected an array");
    w.varint(BigInt(v.length));
    v.forEach((x, i) => write(w, type.vec, x, `${path}[${i}]`));
    return;
  }
  if (type.option) {
    if (v === null || v === undefined) {
      w.byte(0);
    } else {
      w.byte(1);
      write(w, type.option, v, path);
    }
    return;
  }
  if (type.tuple) {
    if (!Array.isArray(v) || v.length !== type.tuple.length) {
      fail(path, `expected an array of ${type.tuple.length}`);
    }
    type.tuple.forEach((t, i) => write(w, t, v[i], `${path}[${i}]`));
    return;
  }
  if (type.enumeration) {
    let name;
    let payload;
    if (typeof v === "string") {
      name = v;
    } else if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1) {
      name = Object.keys(v)[0];
      payload = v[name];
    } else {
      fail(path, "expected a variant: a name, or an object with one member");
    }
    const index = type.enumeration.findIndex(([n]) => n === name);
    if (index < 0) {
      fail(path, `unknown variant "${name}" (one of ${type.enumeration.map(([n]) => n).join(", ")})`);
    }
    const inner = type.enumeration[index][1];
    w.varint(BigInt(index));
    if (inner === unit) {
      if (payload !== undefined && payload !== null) fail(path, `"${name}" carries no value`);
      return;
    }
    if (payload === undefined) fail(path, `"${name}" carries a value`);
    write(w, inner, payload, path ? `${path}.${name}` : name);
    return;
  }
  throw new Error("bad schema");
}

// ---------------------------------------------------------------- reading

class Reader {
  constructor(bytes) {
    this.b = bytes;
    this.at = 0;
  }
  byte() {
    if (this.at >= this.b.length) throw new Error(`truncated at byte ${this.at}`);
    return this.b[this.at++];
  }
  take(n) {
    if (this.at + n > this.b.length) throw new Error(`truncated at byte ${this.at}`);
    const out = this.b.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
  varint(max) {
    const start = this.at;
    let n = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      n |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) {
        if (b === 0 && this.at - start > 1) throw new Error(`overlong varint at byte ${start}`);
        break;
      }
      shift += 7n;
      if (shift > 63n) throw new Error(`varint too long at byte ${start}`);
    }
    if (n > max) throw new Error(`varint at byte ${start} is wider than its type`);
    return n;
  }
}

function num(n) {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

function read(r, type) {
  if (typeof type === "string") {
    switch (type) {
      case "u8":
        return r.byte();
      case "bool": {
        const b = r.byte();
        if (b > 1) throw new Error(`a bool of ${b} at byte ${r.at - 1}`);
        return b === 1;
      }
      case "u16":
      case "u32":
      case "u64":
        return num(r.varint(RANGES[type][1]));
      case "i32":
      case "i64": {
        const bits = type === "i32" ? 32n : 64n;
        const z = r.varint((1n << bits) - 1n);
        return num((z >> 1n) ^ -(z & 1n));
      }
      case "string": {
        const n = r.varint(RANGES.u64[1]);
        return td.decode(r.take(Number(n)));
      }
      case "bytes":
        return r.take(Number(r.varint(RANGES.u64[1])));
      case "key":
        return toHex(r.take(32));
      case "hash":
        return Array.from(r.take(32));
      default:
        throw new Error(`unknown type ${type}`);
    }
  }
  if (type.struct) {
    const out = {};
    for (const [name, t] of type.struct) out[name] = read(r, t);
    return out;
  }
  if (type.vec) {
    const n = Number(r.varint(RANGES.u64[1]));
    if (n > r.b.length - r.at) throw new Error(`a list of ${n} cannot fit in what remains`);
    const out = [];
    for (let i = 0; i < n; i++) out.push(read(r, type.vec));
    return out;
  }
  if (type.option) {
    const tag = r.byte();
    if (tag === 0) return null;
    if (tag !== 1) throw new Error(`an option tag of ${tag} at byte ${r.at - 1}`);
    return read(r, type.option);
  }
  if (type.tuple) return type.tuple.map((t) => read(r, t));
  if (type.enumeration) {
    const index = Number(r.varint(RANGES.u32[1]));
    if (index >= type.enumeration.length) throw new Error(`unknown variant ${index}`);
    const [name, inner] = type.enumeration[index];
    return inner === unit ? name : { [name]: read(r, inner) };
  }
  throw new Error("bad schema");
}

function resolve(type) {
  if (typeof type === "string" && TYPES[type]) return TYPES[type];
  return type;
}

/**
 * The postcard bytes of a value of a named type ("Color", "TimeControl",
 * "i64", ...).
 * @returns {Uint8Array}
 */
export function encodeValue(type, value) {
  const w = new Writer();
  write(w, resolve(type), value, "");
  return w.done();
}

/** Decodes a value of a named type; strict: the bytes must be exactly one value. */
export function decodeValue(type, bytes) {
  const r = new Reader(bytes);
  const v = read(r, resolve(type));
  if (r.at !== bytes.length) throw new Error(`${bytes.length - r.at} trailing bytes`);
  return v;
}

/**
 * A body's bytes: `{"kind": {...fields}}` as in docs/FORMAT.md section 4.
 * @returns {Uint8Array}
 */
export function encodeBody(body) {
  return encodeValue(Body, body);
}

/** A body from its bytes (throws for a kind this module does not know). */
export function decodeBody(bytes) {
  return decodeValue(Body, bytes);
}

/** The kind name of a body given as JSON or as bytes. */
export function kindOf(body) {
  if (body instanceof Uint8Array) {
    const r = new Reader(body);
    const i = Number(r.varint(RANGES.u32[1]));
    return KINDS[i] ?? `unknown kind ${i}`;
  }
  return typeof body === "string" ? body : Object.keys(body)[0];
}

const ZERO32 = new Uint8Array(32);

/**
 * The event bytes of the envelope (section 3).
 * @param {{chain?: *, seq: *, prev_hash?: *, at_ms: *, signer: *, body: Uint8Array|object}} e
 *   `chain` and `prev_hash` default to 32 zero bytes (a genesis); `body` as
 *   JSON or as its bytes.
 * @returns {Uint8Array}
 */
export function encodeEvent(e) {
  const body = e.body instanceof Uint8Array ? e.body : encodeBody(e.body);
  return encodeValue(Envelope, {
    version: e.version ?? VERSION,
    chain: e.chain ?? ZERO32,
    seq: e.seq,
    prev_hash: e.prev_hash ?? ZERO32,
    at_ms: e.at_ms,
    signer: e.signer,
    body,
  });
}

/**
 * The envelope of event bytes, strictly decoded; `body` is the decoded body
 * (null for a kind this module does not know) and `body_bytes` its bytes.
 */
export function decodeEvent(bytes) {
  const e = decodeValue(Envelope, bytes);
  if (e.version !== VERSION) throw new Error(`envelope version ${e.version}; this module reads ${VERSION}`);
  const out = { ...e, body_bytes: e.body, body: null };
  try {
    out.body = decodeBody(e.body);
  } catch (err) {
    if (!/unknown variant/.test(String(err.message))) throw err;
  }
  return out;
}

// ---------------------------------------------------------------- hashes and signatures

const concat = (...parts) => concatParts(parts);

/** SIGN_DOMAIN || event_bytes: the message Ed25519 signs. */
export function signedMessage(eventBytes) {
  return concat(SIGN_DOMAIN, eventBytes);
}

/** The record hash: BLAKE3-256(HASH_DOMAIN || event_bytes || signature). */
export function recordHash(eventBytes, signature) {
  return blake3(HASH_DOMAIN, eventBytes, signature);
}

/** A record as stored and submitted: u32 LE length || event_bytes || signature. */
export function storedRecord(eventBytes, signature) {
  if (signature.length !== 64) throw new Error("a signature is 64 bytes");
  const out = new Uint8Array(4 + eventBytes.length + 64);
  new DataView(out.buffer).setUint32(0, eventBytes.length, true);
  out.set(eventBytes, 4);
  out.set(signature, 4 + eventBytes.length);
  return out;
}

/**
 * A key's fingerprint, the form people compare aloud: the first 10 bytes of
 * BLAKE3-256(FINGERPRINT_DOMAIN || key), in hex, in five groups of four
 * ("3f2a 91c0 77de 0b1e 52aa"). `kifu` prints the same for a key file
 * (docs/FORMAT.md, section 8).
 */
export function fingerprint(publicKey) {
  const h = toHex(blake3(FINGERPRINT_DOMAIN, bytes32(publicKey, "key", "a public key")).slice(0, 10));
  return h.match(/.{4}/g).join(" ");
}

let subtlePromise = null;

/** Web Crypto's `subtle`: the global one, or Node's from node:crypto. */
export function subtle() {
  if (!subtlePromise) {
    subtlePromise = (async () => {
      if (globalThis.crypto && globalThis.crypto.subtle) return globalThis.crypto.subtle;
      if (typeof process !== "undefined" && process.versions && process.versions.node) {
        const m = await import("node:crypto");
        return m.webcrypto.subtle;
      }
      throw new Error(
        "Web Crypto is not available here: the page must be opened over HTTPS (or from 127.0.0.1 or localhost)",
      );
    })();
  }
  return subtlePromise;
}

const ED25519 = { name: "Ed25519" };

/**
 * A new Ed25519 key pair whose private key cannot be exported
 * (`extractable: false`): it signs on this device only.
 * @returns {Promise<CryptoKeyPair>}
 */
export async function generateKey() {
  const s = await subtle();
  return s.generateKey(ED25519, false, ["sign", "verify"]);
}

/** The 32 bytes of a public CryptoKey. */
export async function publicKeyBytes(publicKey) {
  const s = await subtle();
  return new Uint8Array(await s.exportKey("raw", publicKey));
}

const PKCS8_PREFIX = fromHex("302e020100300506032b657004220420");

/**
 * A private CryptoKey from a 32-byte seed (RFC 8032), as in a kifu
 * PKCS#8 key file.
 */
export async function importSeed(seed, extractable = false) {
  const s = await subtle();
  const der = concat(PKCS8_PREFIX, bytes32(seed, "seed", "a seed"));
  return s.importKey("pkcs8", der, ED25519, extractable, ["sign"]);
}

/** A private CryptoKey from a kifu key file's text (PKCS#8 PEM, `kifu keygen`). */
export async function importPkcs8Pem(pem, extractable = false) {
  const m = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(pem);
  if (!m) throw new Error("not a PKCS#8 PEM private key");
  const der = Uint8Array.from(atob(m[1].replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  if (der.length !== 48 || toHex(der.slice(0, 16)) !== toHex(PKCS8_PREFIX)) {
    throw new Error("not an Ed25519 private key in the RFC 8410 form kifu writes");
  }
  const s = await subtle();
  return s.importKey("pkcs8", der, ED25519, extractable, ["sign"]);
}

/** The public CryptoKey for 32 key bytes. */
export async function importPublicKey(bytes) {
  const s = await subtle();
  return s.importKey("raw", bytes32(bytes, "key", "a public key"), ED25519, true, ["verify"]);
}

/** Ed25519 over SIGN_DOMAIN || event_bytes: 64 bytes. */
export async function sign(privateKey, eventBytes) {
  const s = await subtle();
  return new Uint8Array(await s.sign(ED25519, privateKey, signedMessage(eventBytes)));
}

/** The domain of a device request's signature (kifu_game::seat::REQUEST_DOMAIN). */
export const DEVICE_REQUEST_DOMAIN = te.encode("kifu/v1/device-request\n");

/**
 * A device's request for a seat, signed by the device's own key
 * (`POST /devices`): `{body, signature}`, the JSON body exactly as sent and
 * the hex signature of DEVICE_REQUEST_DOMAIN || body for the
 * `Kifu-Device-Signature` header. `signed_at_ms` is the device's clock, so
 * that an old request sent again changes nothing.
 * @param {CryptoKey} privateKey
 * @param {object} request `{key, role, name, tournament, round, board}`, or `{key, withdraw: true}` fields
 */
export async function signDeviceRequest(privateKey, request, signedAtMs = Date.now()) {
  const body = JSON.stringify({ ...request, signed_at_ms: signedAtMs });
  const bytes = te.encode(body);
  const message = new Uint8Array(DEVICE_REQUEST_DOMAIN.length + bytes.length);
  message.set(DEVICE_REQUEST_DOMAIN, 0);
  message.set(bytes, DEVICE_REQUEST_DOMAIN.length);
  const s = await subtle();
  const signature = new Uint8Array(await s.sign(ED25519, privateKey, message));
  return { body, signature: toHex(signature) };
}

/**
 * Checks an honest signature with Web Crypto. Web Crypto's Ed25519 does not
 * apply kifu's acceptance rule (docs/FORMAT.md, section 1: small-order and
 * torsion points): use it to check what a device signed, not to judge
 * adversarial records; the server and `kifu verify` apply the rule.
 */
export async function verify(publicKey, eventBytes, signature) {
  const s = await subtle();
  const k = publicKey instanceof Uint8Array || typeof publicKey === "string" ? await importPublicKey(publicKey) : publicKey;
  return s.verify(ED25519, k, signature, signedMessage(eventBytes));
}

/**
 * Builds, signs and hashes one record.
 * @param {CryptoKey} privateKey
 * @param {object} event as for `encodeEvent`; `signer` is the public key's 32 bytes or hex
 * @returns {Promise<{event_bytes: Uint8Array, signature: Uint8Array, hash: Uint8Array, stored: Uint8Array, hex: string}>}
 *   `hex` is the stored record in hex, as `POST /records` takes it in JSON.
 */
export async function signEvent(privateKey, event) {
  const eventBytes = encodeEvent(event);
  const signature = await sign(privateKey, eventBytes);
  const stored = storedRecord(eventBytes, signature);
  return { event_bytes: eventBytes, signature, hash: recordHash(eventBytes, signature), stored, hex: toHex(stored) };
}

// ---------------------------------------------------------------- hex

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Bytes of an even-length hex string. */
export function fromHex(s) {
  if (typeof s !== "string" || s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) {
    throw new Error("not hex");
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export { blake3 };
