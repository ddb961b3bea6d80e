// The referee's console: a live overview of every game whose roster names
// this console's key, and one game opened with the forms of the powers the
// rules give the referee there. The console keeps its own Ed25519 key (Web
// Crypto, not extractable) in IndexedDB, as a board device does, and asks
// for a referee's seat the same way (POST /devices): the official who signs
// a genesis enrols it by fingerprint (`kifu new-game --device-request ID`).
// It holds no rule: which forms are offered comes from
// GET /games/{id}/powers, what a draft brings about from
// POST /games/{id}/preview, each with its clause; the referee signs only
// what the preview showed.

import * as rec from "/web/record.js";
import { clockFrom, face, shows } from "/web/board-clock.js";
import { ownKey } from "/web/keystore.js";
import { follow, feedCursor } from "/web/feed.js";
import { $, api, post, coalesce, messageLog, watchPolicy, seatRequestForm } from "/web/page.js";
import { open as openDb, REFEREE } from "/web/db.js";

const net = document.getElementById("net");
const say = messageLog();
watchPolicy((words) => say(words, false));

// ---------------------------------------------------------------- storage and key

const store = openDb(REFEREE).keyValue("kv");
const kvGet = store.get;
const kvSet = store.set;

let keys = null;
let myKey = null;
async function consoleKey() {
  ({ keys, hex: myKey } = await ownKey(store));
  const fp = document.getElementById("fingerprint");
  fp.textContent = rec.fingerprint(myKey);
  fp.dataset.key = myKey;
}

function setOnline(online) {
  net.textContent = online ? "online" : "offline: the overview is as last seen";
  net.classList.toggle("offline", !online);
}

// ---------------------------------------------------------------- enrolment

async function enrolment() {
  const section = document.getElementById("enrol");
  const id = await kvGet("request");
  if (id) {
    try {
      const r = await api("/devices/" + encodeURIComponent(id));
      section.replaceChildren($("p", { id: "request" }, `Request ${r.id}: ${r.seat}. Key fingerprint `, $("span", { class: "fp" }, r.fingerprint),
        r.status === "enrolled" ? " (enrolled)" : " (waiting: the official who signs a game's genesis enrols this console by its request number)"));
      section.dataset.request = r.id;
      section.hidden = false;
      return;
    } catch (e) {
      if (e.status !== 404) { setOnline(false); return; }
    }
  }
  const form = seatRequestForm({
    title: "Enrol this console",
    titleId: "enrol-title",
    intro: "The director enrols this console after comparing its key's fingerprint with the one shown here:",
    key: myKey,
    privateKey: keys.privateKey,
    fields: [
      $("label", {}, "Name ", $("input", { name: "name", id: "name", required: true, maxlength: 120, autocomplete: "name" })),
      $("label", {}, "Tournament (empty: free-standing games) ", $("input", { name: "tournament", id: "tournament", maxlength: 120 })),
    ],
    button: "Ask to referee",
    request: (f) => ({ key: myKey, role: "referee", name: String(f.get("name") || ""), tournament: f.get("tournament") ? String(f.get("tournament")) : null, round: null, board: null }),
    sent: async (r) => {
      await kvSet("request", r.id);
      enrolment();
    },
    say,
  });
  section.replaceChildren(form);
  section.hidden = false;
}

// ---------------------------------------------------------------- the overview

const O = { games: [], seen: new Set(), first: true };
const colourWord = (c) => (c === "black" ? "Black" : "White");

function clockOf(g) {
  return clockFrom({ state: { clock: g.clock, genesis: { time_control: g.time_control } } });
}
function clockText(k, colour) {
  if (!k) return { text: "–", running: false };
  if (k.paused && k.remaining) return { text: face(k.remaining[colour === "black" ? 0 : 1]), running: false };
  const running = k.running === colour && k.turnStart != null;
  const elapsed = running ? Date.now() - k.turnStart : 0;
  return { text: shows(k.pcs[colour], Math.max(0, elapsed)).text, running };
}
function place(g) {
  const t = g.tournament;
  return t ? `${t.tournament} r${t.round} b${t.board}` : (g.title || g.game.slice(0, 8));
}
function attention(g) {
  const out = [];
  for (const f of g.flags || []) out.push(`flag fallen: ${colourWord(f.player)}`);
  if (g.called) out.push("referee called");
  for (const d of g.disputes || []) out.push(`dispute (${colourWord(d.raised_by)}): ${d.matter}`);
  if (g.clock && g.clock.paused) out.push(`clocks stopped (${String(g.clock.paused).toLowerCase().replace(/_/g, " ")})`);
  return out;
}
function beep() {
  if (!document.getElementById("sound").checked) return;
  try {
    const a = new AudioContext();
    const o = a.createOscillator();
    o.frequency.value = 880;
    o.connect(a.destination);
    o.start();
    o.stop(a.currentTime + 0.25);
  } catch { /* no sound device */ }
}

// The boards a record was heard of since the overview was last read (with
// the games created and the keys handed over, either of which may change
// whether a game names this console), and whether the whole overview must
// be read (at the start, and after the feed was lost).
const changed = new Set();
let whole = true;

async function readOverview() {
  const full = whole || O.games.length === 0;
  const asked = full ? [] : [...changed];
  whole = false;
  changed.clear();
  if (!full && asked.length === 0) return;
  try {
    const only = full ? "" : `&games=${asked.join(",")}`;
    const v = await api(`/referee/games?key=${myKey}${only}`);
    setOnline(true);
    if (full) {
      O.games = v.games;
    } else {
      // The rows read replace theirs and the others stand as they were; a
      // game asked for and not answered no longer names this console, one
      // answered and not shown yet is new to it.
      const fresh = new Map(v.games.map((g) => [g.game, g]));
      const gone = new Set(asked.filter((id) => !fresh.has(id)));
      O.games = O.games.filter((g) => !gone.has(g.game)).map((g) => fresh.get(g.game) || g);
      const shown = new Set(O.games.map((g) => g.game));
      O.games.push(...v.games.filter((g) => !shown.has(g.game)));
      O.games.sort((a, b) => (b.last_at_ms || 0) - (a.last_at_ms || 0));
    }
    // Enrolled since the request was made: said once.
    const en = document.getElementById("enrol");
    if (O.games.length && en.dataset.request && !en.dataset.enrolled) { en.dataset.enrolled = "1"; enrolment(); }
    let fresh = false;
    for (const g of O.games) {
      for (const d of g.disputes || []) {
        const id = `${g.game}:${d.seq}`;
        if (!O.seen.has(id)) { O.seen.add(id); fresh = !O.first; }
      }
    }
    if (fresh) beep();
    O.first = false;
    drawOverview();
  } catch (e) {
    // Read again in full when the server is back.
    whole = true;
    setOnline(false);
  }
}

function drawOverview() {
  const body = document.getElementById("board-rows");
  document.getElementById("overview-empty").hidden = O.games.length > 0;
  body.replaceChildren(...O.games.map((g) => {
    const k = clockOf(g);
    const att = attention(g);
    const tr = $("tr", { id: "row-" + g.game, "data-game": g.game, class: [g.called || (g.disputes || []).length ? "alert" : "", (g.flags || []).length ? "flag" : ""].join(" ").trim() || null },
      $("td", {}, place(g)), $("td", {}, g.black || "–"), $("td", {}, g.white || "–"), $("td", {}, g.phase_text || ""),
      ...["black", "white"].map((c) => { const t = clockText(k, c); return $("td", { class: "clock" + (t.running ? " running" : ""), "data-colour": c }, t.text); }),
      $("td", { class: "attention" }, att.join("; ") || "–"),
      $("td", {}, $("button", { type: "button", class: "open", "data-game": g.game, "aria-label": `Open ${place(g)}`, onclick: () => openGame(g.game) }, "Open")));
    return tr;
  }));
}
function tickOverview() {
  for (const g of O.games) {
    const row = document.getElementById("row-" + g.game);
    if (!row) continue;
    const k = clockOf(g);
    for (const td of row.querySelectorAll("td.clock")) {
      const t = clockText(k, td.dataset.colour);
      td.textContent = t.text;
      td.classList.toggle("running", t.running);
    }
  }
  tickGame();
}

// ---------------------------------------------------------------- one game

const G = { game: null, st: null, powers: [], records: [], clock: null, drafts: {} };

// The board with its coordinates, as the players and the record name the
// points: Go's letters without I and rows counted from the bottom (`D4`),
// Renju's `a`–`o` and rows 1–15 (`h8`). Each stone is named in its title.
function boardSvg(view, renju) {
  const rows = (view && view.board && view.board.rows) || [];
  const n = rows.length;
  if (!n) return $("p", { class: "muted" }, "No board yet.");
  const NS = "http://www.w3.org/2000/svg";
  const s = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; return e; };
  const letters = renju ? "abcdefghijklmno" : LETTERS;
  const cell = 30, pad = 32, size = pad * 2 + cell * (n - 1);
  const stones = rows.join("").replace(/[^XO]/g, "").length;
  const svg = s("svg", { class: "board", viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": `The board, ${n} by ${n}, ${stones} stone${stones === 1 ? "" : "s"}` });
  for (let i = 0; i < n; i++) {
    const p = pad + i * cell;
    svg.append(s("line", { x1: pad, y1: p, x2: pad + (n - 1) * cell, y2: p, stroke: "#333" }));
    svg.append(s("line", { x1: p, y1: pad, x2: p, y2: pad + (n - 1) * cell, stroke: "#333" }));
    for (const y of [12, size - 6]) svg.append(s("text", { class: "coord", x: p, y, "text-anchor": "middle", "font-size": 12, "aria-hidden": "true" }, letters[i]));
    for (const x of [12, size - 12]) svg.append(s("text", { class: "coord", x, y: p + 4, "text-anchor": "middle", "font-size": 12, "aria-hidden": "true" }, String(n - i)));
  }
  rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch === "X" || ch === "O") {
      const c = s("circle", { cx: pad + x * cell, cy: pad + y * cell, r: cell * 0.46, fill: ch === "X" ? "#111" : "#fafafa", stroke: "#111", class: "stone", "data-x": x, "data-y": y, "data-point": letters[x] + (n - y), "data-colour": ch === "X" ? "black" : "white" });
      c.append(s("title", {}, `${ch === "X" ? "Black" : "White"} stone at ${letters[x]}${n - y}`));
      svg.append(c);
    }
  }));
  return svg;
}

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
// A point as the referee types it: `D4` (Go letters, no I; rows from the
// bottom) or `x,y` (from the top left, from 0).
function pointFrom(text, n) {
  const t = String(text || "").trim().toUpperCase();
  let m = t.match(/^(\d+)\s*,\s*(\d+)$/);
  if (m) return { x: Number(m[1]), y: Number(m[2]) };
  m = t.match(/^([A-Z])(\d+)$/);
  if (m && LETTERS.indexOf(m[1]) >= 0) return { x: LETTERS.indexOf(m[1]), y: n - Number(m[2]) };
  throw new Error(`${text} is not a point (D4, or x,y from the top left)`);
}
const points = (text, n) => String(text || "").split(/[\s;]+/).filter(Boolean).map((p) => pointFrom(p, n));

async function openGame(game) {
  G.game = game;
  G.drafts = {};
  await loadGame(true);
  const h = document.getElementById("game-title");
  if (h) h.focus();
}

async function loadGame(redraw) {
  if (!G.game) return;
  const game = G.game;
  const [st, story, pw, pending] = await Promise.all([
    api(`/games/${game}/state`), api(`/games/${game}/explain`), api(`/games/${game}/powers?key=${myKey}`),
    api("/devices?pending=1").catch(() => ({ requests: [] })),
  ]);
  G.pending = pending.requests || [];
  const changed = !G.st || G.st.last_seq !== st.last_seq || game !== (G.st && G.st.game);
  G.zone = await zoneOf(st.state.genesis && st.state.genesis.tournament);
  timeOfDay = timeOfDayIn(G.zone);
  G.st = st; G.events = story.events; G.powers = pw.powers; G.roles = pw.roles;
  G.clock = clockFrom(st);
  if (redraw || changed) drawGame();
}

function tickGame() {
  if (!G.clock) return;
  for (const c of ["black", "white"]) {
    const el = document.getElementById("gclock-" + c);
    if (!el) continue;
    const t = clockText(G.clock, c);
    el.querySelector(".face").textContent = t.text;
    el.classList.toggle("running", t.running);
  }
}

// A sanction of the projection in words: "#12 Black: warning, for …".
function sanctionWords(x) {
  const k = x.kind;
  let what = typeof k === "string" ? k.replace(/_/g, " ") : "";
  if (k && k.time_modified) what = `${k.time_modified.delta_ms >= 0 ? "time added" : "time removed"}: ${Math.abs(k.time_modified.delta_ms) / 1000} s`;
  if (k && k.removed_from_rounds) what = `removed from round${k.removed_from_rounds.rounds.length === 1 ? "" : "s"} ${k.removed_from_rounds.rounds.join(", ")}`;
  return `#${x.seq} ${colourWord(x.player)}: ${what}, for ${x.reason} (${String(x.source).replace(/_/g, " ")})`;
}

// One event of the timeline in the rules' words (the game's story, as
// `kifu explain` tells it): when, who signed it, what it states, and what
// the rules make of it, with the clause.
// Times of day in the tournament's zone when its chain states one
// (docs/FORMAT.md section 10), else the browser's; the timeline says which.
const zones = new Map();
async function zoneOf(tournament) {
  if (!tournament) return null;
  if (!zones.has(tournament.tournament)) {
    let z = null;
    try { z = (await api("/tournaments/" + encodeURIComponent(tournament.tournament))).time_zone || null; } catch { z = null; }
    zones.set(tournament.tournament, z);
  }
  return zones.get(tournament.tournament);
}
function timeOfDayIn(zone) {
  try { return new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZone: zone || undefined }); }
  catch { return new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }); }
}
let timeOfDay = timeOfDayIn(null);
function eventItem(e) {
  const li = $("li", { "data-seq": String(e.seq) },
    $("b", {}, String(e.seq)), " ",
    $("time", { class: "muted", datetime: new Date(e.at_ms).toISOString() }, timeOfDay.format(new Date(e.at_ms))), " ",
    `${e.signer}: ${e.summary}`);
  for (const c of e.consequences || []) li.append($("div", { class: "cons" }, `→ ${c.what}`, c.rule ? ` [${c.rule}]` : ""));
  return li;
}

function drawGame() {
  const st = G.st;
  const v = st.view;
  const section = document.getElementById("game");
  const held = G.powers.filter((p) => p.allowed);
  const notHeld = G.powers.filter((p) => !p.allowed);
  const names = st.state.genesis ? st.state.genesis.roster.filter((p) => p.role === "black" || p.role === "white") : [];
  const who = (c) => (names.find((p) => p.role === c) || {}).name || colourWord(c);
  section.replaceChildren(
    $("h2", { id: "game-title", tabindex: "-1" }, `${who("black")} – ${who("white")}`, $("span", { class: "muted" }, ` (game ${G.game.slice(0, 12)}…, event ${st.last_seq})`)),
    $("p", {}, $("a", { href: `/games/${G.game}` }, "Replay page"), " · ", $("button", { type: "button", id: "close-game", onclick: () => { G.game = null; section.hidden = true; } }, "Close")),
    $("div", { class: "game", id: "game-main", "data-last-seq": String(st.last_seq), "data-game": G.game },
      $("div", {},
        boardSvg(v, st.state.genesis && st.state.genesis.game !== "go"),
        $("div", { class: "clocks" }, ...["black", "white"].map((c) => $("div", { id: "gclock-" + c }, `${colourWord(c)} (${who(c)})`, $("span", { class: "face" }, "–")))),
        $("p", { id: "phase" }, st.text && st.text.phase ? st.text.phase : (v.phase ? JSON.stringify(v.phase) : "")),
        $("h3", {}, "Timeline"),
        $("p", { class: "muted", id: "timeline-zone" }, `Times of day in ${G.zone || Intl.DateTimeFormat().resolvedOptions().timeZone || "this device's zone"} (${G.zone ? "the tournament's zone" : "this device's zone: the tournament states none"}).`),
        $("ol", { class: "timeline", start: "0", id: "timeline" }, ...G.events.map(eventItem)),
        (v.disputes || []).length ? $("div", {}, $("h3", {}, "Disputes"), $("ul", {}, ...v.disputes.map((d) => $("li", {}, `#${d.seq} ${colourWord(d.raised_by)}: ${d.matter} (${d.status.replace(/_/g, " ")})`)))) : "",
        (v.sanctions || []).length ? $("div", {}, $("h3", {}, "Sanctions"), $("ul", { id: "sanctions" }, ...v.sanctions.map((s) => $("li", {}, sanctionWords(s))))) : ""),
      $("div", { id: "forms" },
        $("h3", {}, "What you may sign here"),
        G.roles.length ? $("p", { class: "muted" }, "Your roles in this game: " + G.roles.join(", ")) : $("p", { class: "bad" }, "This console's key holds no role in this game."),
        ...held.map(powerForm).filter(Boolean),
        notHeld.length ? $("details", { id: "not-yours" }, $("summary", {}, `Not yours to sign here (${notHeld.length})`),
          $("ul", {}, ...notHeld.map((p) => $("li", { "data-action": p.action }, `${p.action.replace(/_/g, " ")}: ${p.refused}`, p.rule ? $("span", { class: "clause" }, ` [${p.rule}]`, p.quote ? $("q", {}, p.quote) : "") : "")))) : "")));
  section.hidden = false;
  tickGame();
}

// ---------------------------------------------------------------- forms

const sel = (name, options, value) => $("select", { name }, ...options.map(([v, t]) => $("option", { value: v, selected: v === value }, t)));
const colourSel = (name, both) => sel(name, [["black", "Black"], ["white", "White"], ...(both ? [["both", "Both"]] : [])], "black");
const target = (v) => (v === "both" ? "both" : { player: v });
const toMove = () => (G.st && G.st.state.to_move) || "black";
const TITLES = {
  start: "Start the clocks", pause: "Stop the clocks", resume: "Restart the clocks", judgement: "Judgement", clarification: "Clarification of the rules",
  clock_adjusted: "Adjust a clock", sanction: "Sanction", irregularity: "Irregularity and its fix", result: "Result by ruling",
  status: "Settle the status of the stones", key_replaced: "Replace a lost device's key", key_revoked: "Revoke a key", committee_decision: "Committee decision",
};

// Each form's fields and the body they make. The page builds bodies only;
// whether they may be signed, and what they bring about, the server says.
function fields(action) {
  const n = (G.st.view.board && G.st.view.board.size) || 19;
  const players = (G.st.state.genesis ? G.st.state.genesis.roster : []).filter((p) => p.key !== myKey);
  switch (action) {
    case "start": return [[$("label", {}, "Whose clock runs ", sel("running", [["black", "Black (LGC 2023, \"Start\")"], ["white", "White"]], "black"))],
      (f) => ({ clock_started: { running: f.running } })];
    case "pause": return [
      [$("label", {}, "Reason ", sel("reason", [["arbitration", "arbitration (the referee at the board)"], ["call_referee", "the referee was called"], ["clock_malfunction", "clock malfunction"], ["announcement", "announcement"], ["other", "other (in words)"]], "arbitration")),
        $("label", {}, "In words (other) ", $("input", { name: "words", maxlength: 200 }))],
      (f) => ({ clock_paused: { reason: f.reason === "other" ? { other: f.words || "other" } : f.reason } })];
    case "resume": return [[$("label", {}, "Whose clock runs ", sel("running", [["black", "Black"], ["white", "White"]], toMove()))],
      (f) => ({ clock_resumed: { running: f.running } })];
    case "judgement": return [[
      $("label", {}, "Decision ", $("textarea", { name: "decision", required: true })),
      $("label", {}, "Reasons ", $("textarea", { name: "reasons" })),
      $("label", {}, "Rules relied on (one a line: LGC 2023, \"Warning\") ", $("textarea", { name: "rules" })),
      $("fieldset", { class: "effects" }, $("legend", {}, "Effects"),
        $("label", {}, $("input", { type: "checkbox", name: "warn" }), " Warning to ", colourSel("warn_to", true)),
        $("label", {}, $("input", { type: "checkbox", name: "time" }), " Time on ", colourSel("time_of"), "'s clock, seconds (negative removes) ", $("input", { type: "number", name: "seconds", value: "60", step: "1" })),
        $("label", {}, $("input", { type: "checkbox", name: "unwind" }), " Unwind to the position after event ", $("input", { type: "number", name: "unwind_seq", min: "0" })),
        $("label", {}, $("input", { type: "checkbox", name: "forfeit" }), " Game forfeit for ", colourSel("forfeit_of", true)),
        $("label", {}, "Result ", sel("set_result", [["", "none"], ["black", "Black wins"], ["white", "White wins"], ["draw", "drawn"], ["no_result", "annulled (no result)"]], ""), " by ", sel("result_by", [["forfeit", "forfeit"], ["other", "ruling (in words: the decision)"]], "other")),
        $("label", {}, $("input", { type: "checkbox", name: "resume" }), " Play resumes"),
        $("p", { class: "muted" }, "A stone removed or placed: the irregularity form below."))],
      (f) => {
        const effects = [];
        const reason = f.decision || "";
        if (f.unwind) effects.push({ unwind_to: { seq: Number(f.unwind_seq) } });
        if (f.warn) effects.push({ sanction: { target: target(f.warn_to), kind: "warning", reason } });
        if (f.time) effects.push({ adjust_clock: { player: f.time_of, delta_ms: Math.round(Number(f.seconds) * 1000) } });
        if (f.forfeit) effects.push({ sanction: { target: target(f.forfeit_of), kind: "game_forfeit", reason } });
        if (f.set_result) {
          const outcome = f.set_result === "black" || f.set_result === "white" ? { win: f.set_result } : f.set_result;
          effects.push({ set_result: { outcome, by: f.result_by === "forfeit" ? "forfeit" : { other: reason || "ruling" } } });
        }
        if (f.resume) effects.push("resume");
        return { referee_ruling: { kind: "judgement", decision: f.decision || "", reasons: f.reasons || "", rules_cited: String(f.rules || "").split("\n").map((s) => s.trim()).filter(Boolean), effects } };
      }];
    case "clarification": return [[$("label", {}, "The rule explained ", $("textarea", { name: "decision" })), $("label", {}, "Rules (one a line) ", $("textarea", { name: "rules" }))],
      (f) => ({ referee_ruling: { kind: "clarification", decision: f.decision || "", reasons: "", rules_cited: String(f.rules || "").split("\n").map((s) => s.trim()).filter(Boolean), effects: [] } })];
    case "clock_adjusted": return [[$("label", {}, "Clock of ", colourSel("player")), $("label", {}, "Seconds (negative removes) ", $("input", { type: "number", name: "seconds", value: "60" })), $("label", {}, "Why ", $("input", { name: "reason", required: true }))],
      (f) => ({ clock_adjusted: { player: f.player, delta_ms: Math.round(Number(f.seconds) * 1000), reason: f.reason || "" } })];
    case "sanction": return [[$("label", {}, "On ", colourSel("who", true)),
      $("label", {}, "Sanction ", sel("kind", [["advice", "advice"], ["warning", "warning"], ["game_forfeit", "game forfeit"], ["time_modified", "time limits modified"], ["removed_from_tournament", "removal from the tournament"], ["disqualification", "disqualification"]], "warning")),
      $("label", {}, "Seconds (time limits modified) ", $("input", { type: "number", name: "seconds", value: "-60" })),
      $("label", {}, "Why ", $("input", { name: "reason", required: true }))],
      (f) => ({ sanction_imposed: { target: target(f.who), kind: f.kind === "time_modified" ? { time_modified: { delta_ms: Math.round(Number(f.seconds) * 1000) } } : f.kind, reason: f.reason || "" } })];
    case "irregularity": return [[
      $("label", {}, "What went wrong ", sel("kind", [["position_disturbed", "position disturbed"], ["captured_stones_not_removed", "captured stones not removed"], ["live_stones_removed", "live stones removed"], ["stone_on_occupied_point", "stone on an occupied point"], ["ambiguous_placement", "ambiguous placement"], ["wrong_colour", "stone of the wrong colour"], ["handicap_stones_misplaced", "handicap stones misplaced"], ["colour_or_handicap_error", "wrong colours or handicap"]], "position_disturbed")),
      $("label", {}, "About event (optional) ", $("input", { type: "number", name: "about", min: "0" })),
      $("label", {}, "Stones removed (D4 E5 …) ", $("input", { name: "remove" })),
      $("label", {}, $("input", { type: "checkbox", name: "prisoners" }), " The stones removed are prisoners"),
      $("label", {}, "Black stones placed ", $("input", { name: "place_black" })),
      $("label", {}, "White stones placed ", $("input", { name: "place_white" })),
      $("label", {}, "In words ", $("input", { name: "statement", required: true }))],
      (f) => ({ irregularity_recorded: { kind: f.kind, about_seq: f.about === "" || f.about == null ? null : Number(f.about), fix: { remove: points(f.remove, n), as_prisoners: !!f.prisoners, place: [...points(f.place_black, n).map((p) => ["black", p]), ...points(f.place_white, n).map((p) => ["white", p])] }, statement: f.statement || "" } })];
    case "result": return [[$("label", {}, "Result ", sel("outcome", [["black", "Black wins"], ["white", "White wins"], ["draw", "drawn"], ["no_result", "no result"]], "black")), $("label", {}, "How (in words) ", $("input", { name: "how", required: true }))],
      (f) => ({ result_declared: { outcome: f.outcome === "black" || f.outcome === "white" ? { win: f.outcome } : f.outcome, by: { other: f.how || "ruling" } } })];
    case "status": return [[$("label", {}, "Dead stones (D4 E5 …) ", $("input", { name: "dead" }))], (f) => ({ status_agreed: { dead: points(f.dead, n) } })];
    case "key_replaced": return [[$("label", {}, "Whose key ", sel("who", players.map((p) => [p.key, `${p.name} (${p.role}, ${rec.fingerprint(p.key)})`]), players[0] && players[0].key)),
      $("label", {}, "The new device (its request; compare the fingerprint with the one it shows) ", sel("request", requestOptions(), "")),
      $("label", {}, "or its key in hex ", $("input", { name: "new_key", size: 66 })), $("label", {}, "Why ", $("input", { name: "reason", value: "device lost" }))],
      (f) => {
        const key = String(f.new_key || "").trim() || f.request;
        if (!key) throw new Error("choose the new device's request, or type its key");
        return { key_replaced: { participant: f.who, new_key: key, reason: f.reason || "" } };
      }];
    case "key_revoked": return [[$("label", {}, "Whose key ", sel("who", players.map((p) => [p.key, `${p.name} (${p.role}, ${rec.fingerprint(p.key)})`]), players[0] && players[0].key)), $("label", {}, "Why ", $("input", { name: "reason", value: "device lost" }))],
      (f) => ({ key_revoked: { key: f.who, reason: f.reason || "" } })];
    default: return null;
  }
}

// The devices waiting for a seat, offered as a lost device's replacement.
// Their requests are not ledger records and the feed does not name them:
// they are read when the game is read, and again each time the form that
// offers them is opened (the new tablet may ask while the game is open).
function requestOptions() {
  return [["", "—"], ...(G.pending || []).map((r) => [r.key, `request ${r.id}: ${r.name}, ${r.seat}, ${r.fingerprint}`])];
}
async function offerRequests(select) {
  try { G.pending = (await api("/devices?pending=1")).requests || []; } catch { return; }
  const chosen = select.value;
  select.replaceChildren(...requestOptions().map(([v, t]) => $("option", { value: v, selected: v === chosen }, t)));
}

function values(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    out[el.name] = el.type === "checkbox" ? el.checked : el.value;
  }
  return out;
}

function powerForm(p) {
  const f = fields(p.action);
  if (!f) return null;
  const [inputs, make] = f;
  const out = $("div", { class: "consequences", id: "consequence-" + p.action, "aria-live": "polite" });
  const signBtn = $("button", { type: "button", class: "sign", id: "sign-" + p.action, disabled: true }, "Sign");
  const form = $("form", { id: "form-" + p.action, "data-kind": p.kind },
    $("p", { class: "clause" }, `Under ${p.rule}`, p.quote ? $("q", {}, p.quote) : ""),
    ...inputs,
    $("p", {}, $("button", { type: "submit", id: "preview-" + p.action }, "Preview the consequence"), " ", signBtn),
    out);
  const invalidate = () => { delete G.drafts[p.action]; signBtn.disabled = true; };
  form.addEventListener("input", invalidate);
  form.addEventListener("change", invalidate);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let body;
    try { body = make(values(form)); } catch (e) { out.replaceChildren($("p", { class: "consequence refused" }, e.message)); return; }
    const at_ms = Math.max(Date.now(), (G.st.state.at_ms || 0));
    try {
      const v = await post(`/games/${G.game}/preview`, { body, signer: myKey, at_ms });
      out.replaceChildren(...previewWords(v));
      if (!v.refused) { G.drafts[p.action] = { body, at_ms, seq: v.seq, prev_hash: v.prev_hash }; signBtn.disabled = false; }
    } catch (e) {
      out.replaceChildren($("p", { class: "consequence refused" }, "The server cannot preview it: " + e.message));
    }
  });
  signBtn.addEventListener("click", () => signDraft(p.action, form));
  const details = $("details", { class: "power", id: "power-" + p.action, open: p.action === "judgement" || null }, $("summary", {}, TITLES[p.action] || p.action), form);
  if (p.action === "key_replaced") details.addEventListener("toggle", () => { if (details.open) offerRequests(form.elements.request); });
  return details;
}

function previewWords(v) {
  if (v.refused) {
    const c = v.refused_clause;
    return [$("p", { class: "consequence refused", "data-refused": "1" }, "Refused: " + v.refused, c ? ` [${c.rule}]` : "", c && c.quote ? $("q", {}, c.quote) : "")];
  }
  const list = v.consequences.length
    ? v.consequences.map((c) => $("p", { class: "consequence", "data-what": c.what }, c.what, c.rule ? ` [${c.rule}]` : "", c.quote ? $("q", {}, c.quote) : ""))
    : [$("p", { class: "consequence" }, "Recorded; the projection draws no further consequence from it.")];
  const cl = v.view && v.view.clocks;
  if (cl) {
    const t = (c) => face(c.time_left_ms) + (c.overtime_left != null ? ` (+${c.overtime_left})` : "");
    list.push($("p", { class: "consequence clocks-after", "data-black-ms": String(cl.black.time_left_ms), "data-white-ms": String(cl.white.time_left_ms) }, `Clocks after: Black ${t(cl.black)}, White ${t(cl.white)}${cl.paused ? ` (stopped: ${cl.paused})` : ""}`));
  }
  return [$("p", {}, `At event ${v.seq}, the record would bring about:`), ...list];
}

async function signDraft(action, form) {
  const d = G.drafts[action];
  const btn = document.getElementById("sign-" + action);
  if (!d) return;
  btn.disabled = true;
  try {
    const head = await api(`/games/${G.game}/head`);
    if (head.seq + 1 !== d.seq || head.hash !== d.prev_hash) {
      say(`${TITLES[action]}: the game moved on since the preview (now at event ${head.seq}); preview again`, false);
      delete G.drafts[action];
      await loadGame(true);
      return;
    }
    const signed = await rec.signEvent(keys.privateKey, { chain: G.game, seq: d.seq, prev_hash: d.prev_hash, at_ms: d.at_ms, signer: myKey, body: d.body });
    const answer = await post("/records", { records: [signed.hex] });
    const r = answer.results[0];
    if (r.ok) say(`${TITLES[action]}: recorded at event ${r.seq}`, true);
    else say(`${TITLES[action]}: refused: ${r.error.message}`, false);
    delete G.drafts[action];
    form.reset();
    await loadGame(true);
    overview();
  } catch (e) {
    say(`${TITLES[action]}: ${e.message}`, false);
  }
}

// ---------------------------------------------------------------- following the feed

// What the console shows is read again when the feed says it changed: the
// overview when a record of one of its games arrives, or a game is created
// or a key handed to another device (either may name this console now),
// the open game when a record of it arrives, both when the feed may have
// missed records or comes back after being lost. Nothing else changes what
// they show (the clocks tick here, from the projection; the devices waiting
// for a seat are read when the form offering them opens), so there is no
// poll. The overview is read at most twice a second, and then only the
// boards heard of: a console following a hall of games hears of a record
// every few milliseconds, and one read covers every record heard meanwhile.
const overview = coalesce(readOverview, undefined, { spacingMs: 500 });
const shownGame = coalesce(async () => { if (G.game) await loadGame(false); }, () => { /* the overview says when the server is away */ });
function heard(r) {
  if (r === null) { whole = true; overview(); shownGame(); return; }
  if (r.game === G.game) shownGame();
  // A game created, or a key handed over, may add this console to the
  // game's roster or take it away: that game is read, not the whole hall.
  if (r.seq === 0 || r.kind === "key replaced" || O.games.some((g) => g.game === r.game)) {
    changed.add(r.game);
    overview();
  }
}
let lost = false;
function connected(c) {
  if (!c) { lost = true; setOnline(false); return; }
  if (lost) { lost = false; whole = true; overview(); shownGame(); }
}

// The feed's place before the first reads (a record stored meanwhile is
// still heard of).
async function feedPlace() {
  for (let pause = 2000; ; pause = Math.min(pause * 2, 30000)) {
    try { return await feedCursor(); } catch { setOnline(false); }
    await new Promise((r) => setTimeout(r, pause));
  }
}

// ---------------------------------------------------------------- start

await consoleKey();
const after = await feedPlace();
await enrolment();
await overview();
const start = new URLSearchParams(location.search).get("game");
if (start) openGame(start);
follow(after, heard, { connected });
setInterval(tickOverview, 250);
