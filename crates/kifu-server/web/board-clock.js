// The board device's clocks, counted on the device from the projection
// (GET /games/{id}/state): each player's clock at the start of his turn, and
// the instant the running player's turn began, taken from the instant his
// flag falls (that instant less all the time he has). No rule is decided
// here: a press made while the server cannot be reached is applied as the
// time control states it (Fischer's increment and cap, byo-yomi periods used
// up, a Canadian block's time), until the projection takes over again.
// Pure functions, tested by web/test/board-clock.test.mjs.

/** All the time a player has at the start of his turn, in ms. */
export function totalMs(pc) {
  const o = pc.overtime || "none";
  let extra = 0;
  if (o.byo_yomi) extra = o.byo_yomi.periods_left * o.byo_yomi.period_ms;
  else if (o.canadian) extra = o.canadian.block_ms_left;
  else if (o.per_move) extra = o.per_move.per_move_ms;
  return pc.main_ms + extra;
}

/** The device's clock model from a state document, or null (no clock yet). */
export function clockFrom(st) {
  const c = st.state.clock;
  if (!c || !c.black || !c.white) return null;
  const pcs = { black: c.black, white: c.white };
  let turnStart = null;
  if (c.running && c.flag_at_ms != null) turnStart = c.flag_at_ms - totalMs(pcs[c.running]);
  // Why the clocks stand, in the projection's words ("to call the
  // referee"), never its code.
  const paused = c.paused ? (st.text && st.text.paused) || "stopped" : null;
  return { pcs, running: c.running, turnStart, paused, remaining: c.remaining_ms, control: st.state.genesis && st.state.genesis.time_control };
}

/** True when no clock runs in the model: both faces are what they show. */
export function standing(k) {
  return !!k && (!!k.paused || !k.running);
}

/** A time as a clock face, rounded up to the second: `9:41`, `1:02:03`. */
export function face(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** What a player's clock shows `elapsed` ms into his turn: `{text, left}`. */
export function shows(pc, elapsed) {
  const o = pc.overtime || "none";
  const main = pc.main_ms - elapsed;
  if (main > 0 && !o.per_move) {
    let s = face(main);
    if (o.byo_yomi) s += ` + ${o.byo_yomi.periods_left} × ${face(o.byo_yomi.period_ms)}`;
    if (o.canadian) s += ` + ${o.canadian.moves_left} in ${face(o.canadian.block_ms_left)}`;
    return { text: s, left: main };
  }
  const over = Math.max(0, elapsed - pc.main_ms);
  if (o.byo_yomi) {
    const used = Math.floor(over / o.byo_yomi.period_ms);
    const left = o.byo_yomi.periods_left - used;
    if (left <= 0) return { text: "0:00 (flag)", left: 0 };
    return { text: `${face(o.byo_yomi.period_ms - (over % o.byo_yomi.period_ms))} (${left} period${left > 1 ? "s" : ""})`, left: 1 };
  }
  if (o.canadian) {
    const left = o.canadian.block_ms_left - over;
    return { text: `${face(left)} for ${o.canadian.moves_left} stone(s)`, left };
  }
  if (o.per_move) {
    const left = o.per_move.per_move_ms + pc.main_ms - elapsed;
    return { text: face(left), left };
  }
  return { text: "0:00 (flag)", left: 0 };
}

/**
 * The clock model after `colour` presses at `now` (ms), when his clock
 * runs: his time used, the control's due added, the other clock started.
 * Returns a new model; the given one is unchanged.
 */
export function press(k, colour, now) {
  if (!k) return k;
  const other = colour === "black" ? "white" : "black";
  // The model did not know `colour`'s clock ran (it was drawn before the
  // move this press completes): the press still starts the other clock,
  // charging nothing the model cannot count.
  if (k.running !== colour || k.turnStart == null) return { ...k, running: other, turnStart: now, paused: null };
  const pc = { ...k.pcs[colour] };
  const elapsed = now - k.turnStart;
  const tc = k.control || "untimed";
  const o = pc.overtime || "none";
  if (pc.main_ms > elapsed) pc.main_ms -= elapsed;
  else {
    const over = elapsed - pc.main_ms;
    pc.main_ms = 0;
    if (o.byo_yomi) {
      pc.overtime = { byo_yomi: { ...o.byo_yomi, periods_left: Math.max(0, o.byo_yomi.periods_left - Math.floor(over / o.byo_yomi.period_ms)) } };
    }
    if (o.canadian) {
      const block = { ...o.canadian, block_ms_left: Math.max(0, o.canadian.block_ms_left - over), moves_left: o.canadian.moves_left - 1 };
      // A block completed: the next one starts full (Canadian overtime).
      if (block.moves_left <= 0 && tc.canadian) {
        block.moves_left = tc.canadian.stones;
        block.block_ms_left = tc.canadian.block_ms;
      }
      pc.overtime = { canadian: block };
    }
  }
  if (tc.fischer) {
    pc.main_ms += tc.fischer.increment_ms;
    if (tc.fischer.max_ms != null) pc.main_ms = Math.min(pc.main_ms, tc.fischer.max_ms);
  }
  return { ...k, pcs: { ...k.pcs, [colour]: pc }, running: other, turnStart: now };
}
