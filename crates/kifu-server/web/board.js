// The board device: one page per seat (a player's own tablet, or one shared
// device at the board holding a recorder key). It keeps its own Ed25519 key
// (Web Crypto, not extractable) in IndexedDB, asks the server for a seat,
// and signs every fact the player states as one record (record.js). It holds
// no rule: whose turn it is, the clocks, what a move brings about and why a
// move is illegal come from the server's projection (GET /games/{id}/state,
// POST /games/{id}/preview), with the clause. The clocks tick here, from the
// projection, so they keep running while the network is away.

import * as rec from "/web/record.js";
import * as clock from "/web/board-clock.js";
import { stream } from "/web/live.js";
import { ownKey } from "/web/keystore.js";
import { follower } from "/web/follow.js";
import { place as placeGo } from "/web/board-go.js";
import { $, api, post, askSeat, messageLog, watchPolicy, seatRequestForm } from "/web/page.js";
import { open as openDb, BOARD } from "/web/db.js";
const { clockFrom, face, shows, standing } = clock;

const main = document.getElementById("main");
const net = document.getElementById("net");
const say = messageLog();
watchPolicy((words) => say(words, false));

// ---------------------------------------------------------------- storage

// The key pair, the request and game this device sits at, each game as
// last drawn, and the outbox of signed records not yet acknowledged (db.js).
const db = openDb(BOARD);
const kv = db.keyValue("kv");
const kvGet = kv.get;
const kvSet = kv.set;
const outbox = db.records("outbox");
const outboxAll = outbox.all;
const outboxAdd = outbox.add;
const outboxDelete = outbox.delete;
const outboxPut = outbox.put;

// ---------------------------------------------------------------- the device's key

let keys = null; // {privateKey, publicKey}
let myKey = null; // hex
async function deviceKey() {
  ({ keys, hex: myKey } = await ownKey(kv));
  document.getElementById("fingerprint").textContent = rec.fingerprint(myKey);
}

function setOnline(online, queued) {
  net.textContent = online ? (queued ? `sending ${queued} record(s)…` : "online") : `offline: ${queued} record(s) kept on this device`;
  net.classList.toggle("offline", !online);
  net.dataset.online = online ? "1" : "0";
  net.dataset.queued = String(queued);
}

// ---------------------------------------------------------------- enrolment

// The seat form. A device that sat at a game already (its request kept by
// the server) offers its next seat: the same key, the same seat and board,
// the next round, each editable; sending it updates the request (a later
// `signed_at_ms`) and the device waits for that round's game.
async function enrolPage(next) {
  const requestId = await kvGet("request");
  let before = null;
  if (requestId) {
    try {
      const r = await api("/devices/" + encodeURIComponent(requestId));
      if (!next) return waitForGame(r);
      before = r;
    } catch (e) {
      if (e.status !== 404) throw e;
    }
  }
  const was = before || {};
  // The tournaments the server keeps, to pick from: a tablet cannot ask
  // under a misspelt name. Free text only when the server keeps none.
  let kept = [];
  try { kept = (await api("/tournaments")).tournaments || []; } catch { kept = []; }
  const named = (t) => !!was.tournament && [t.short_name, t.name, t.id].some((n) => n && n.trim().toLowerCase() === was.tournament.trim().toLowerCase());
  const tournament = kept.length
    ? $("label", {}, "Tournament ", $("select", { name: "tournament", id: "tournament" },
      ...kept.map((t) => $("option", { value: t.short_name, selected: named(t) }, t.name && t.name !== t.short_name ? `${t.name} (${t.short_name})` : t.short_name)),
      $("option", { value: "", selected: !!before && !was.tournament }, "None: a free-standing game")))
    : $("label", {}, "Tournament (empty for a free-standing game) ", $("input", { name: "tournament", id: "tournament", maxlength: 120, value: was.tournament || null }));
  const option = (value, label) => $("option", { value, selected: was.role === value }, label);
  const seatSel = $("select", { name: "role", id: "role" },
    option("black", "Black (my own device)"),
    option("white", "White (my own device)"),
    option("recorder", "Board recorder (one device for both players)"));
  const form = seatRequestForm({
    title: before ? "Ask for the next seat" : "Ask for a seat",
    intro: "The referee enrols this device after comparing its key's fingerprint with the one shown here:",
    key: myKey,
    privateKey: keys.privateKey,
    fields: [
      $("label", {}, "Seat ", seatSel),
      $("label", {}, "Name ", $("input", { name: "name", id: "name", required: true, maxlength: 120, autocomplete: "name", value: was.name || null })),
      tournament,
      $("label", {}, "Round ", $("input", { name: "round", id: "round", type: "number", min: 1, inputmode: "numeric", value: was.round ? was.round + 1 : null })),
      $("label", {}, "Board ", $("input", { name: "board", id: "board", type: "number", min: 1, inputmode: "numeric", value: was.board || null })),
    ],
    button: "Ask for this seat",
    request: (f) => {
      const num = (k) => (f.get(k) ? Number(f.get(k)) : null);
      return {
        key: myKey, role: f.get("role"), name: String(f.get("name") || ""),
        tournament: f.get("tournament") ? String(f.get("tournament")) : null, round: num("round"), board: num("board"),
      };
    },
    sent: async (r) => {
      await kvSet("request", r.id);
      await kvSet("game", null);
      history.replaceState(null, "", "/play");
      waitForGame(r);
    },
    say,
  });
  main.replaceChildren(form);
}

async function waitForGame(r) {
  const show = (r) => main.replaceChildren($("section", { id: "waiting" },
    $("h2", {}, `Request ${r.id}: ${r.seat}`),
    $("p", {}, "Show this fingerprint to the referee, who enrols the device:"),
    $("p", { class: "fp" }, r.fingerprint),
    $("p", { class: "muted", role: "status" }, r.status === "enrolled" ? "Enrolled." : "Waiting for the referee…")));
  for (;;) {
    show(r);
    // The games at the place the request asks for (a game of an earlier
    // round that names this key is not this request's).
    const games = (r.games || []).filter((g) => g.asked !== false);
    if (games.length) {
      const g = games[games.length - 1];
      await kvSet("game", g.game);
      history.replaceState(null, "", "/play/" + g.game);
      return gamePage(g.game);
    }
    await new Promise((res) => setTimeout(res, 2000));
    try { r = await api("/devices/" + encodeURIComponent(r.id)); } catch (e) { setOnline(false, 0); }
  }
}

// ---------------------------------------------------------------- the game

const G = {
  game: null, st: null, head: null, roles: [], colours: [], queued: 0, online: true, playerKeys: {},
  mode: null, marked: new Set(), cursor: { x: 0, y: 0 }, clock: null, busy: false,
};

function rolesOf(genesis, key) {
  return (genesis.roster || []).filter((p) => p.key === key).map((p) => p.role);
}
// This device's roles in the game, and the colours it signs for (both, for
// a shared recorder tablet).
function seatFrom(st) {
  G.roles = rolesOf(st.state.genesis || {}, myKey);
  G.colours = G.roles.includes("recorder") ? ["black", "white"] : G.roles.filter((r) => r === "black" || r === "white");
}

// A press made while the server cannot be reached: the clocks go on here as
// the time control says, until the projection takes over again.
function pressLocally(colour, now) {
  G.clock = clock.press(G.clock, colour, now);
}
function tick() {
  const k = G.clock;
  for (const colour of ["black", "white"]) {
    const el = document.getElementById("clock-" + colour);
    if (!el) continue;
    let text = "–", left = Infinity;
    if (k) {
      // Clocks that stand show what the projection counted.
      if (standing(k) && k.remaining) {
        text = face(k.remaining[colour === "black" ? 0 : 1]);
      } else {
        const elapsed = k.running === colour && k.turnStart != null ? Date.now() - k.turnStart : 0;
        ({ text, left } = shows(k.pcs[colour], Math.max(0, elapsed)));
      }
    }
    el.querySelector(".face").textContent = text;
    el.classList.toggle("running", !!k && !k.paused && k.running === colour);
    el.classList.toggle("low", left < 30000);
    el.dataset.running = k && !k.paused && k.running === colour ? "1" : "0";
  }
  const p = document.getElementById("paused");
  if (p) p.textContent = G.over ? "Clocks stopped: the game is over" : k && k.paused ? "Clocks stopped " + k.paused : "";
}
setInterval(tick, 200);

// ---------------------------------------------------------------- signing and sending

const isShared = () => G.roles.includes("recorder");

// Signs one record at the head this device knows and keeps it in the
// outbox before sending it: a crash or a reload loses nothing signed. The
// head is the server's, or this device's own last record still on its way:
// a press tapped before the stone is acknowledged follows the stone, and
// both are sent in order. A device never signs two records at one place;
// when the other seat's record took the place first, its own are dropped
// and it says so (flush).
async function sign(body, as) {
  G.queued = (await outboxAll()).filter((i) => i.game === G.game).length;
  const head = G.head;
  const k = signerFor(body, as);
  const event = { chain: G.game, seq: head.seq + 1, prev_hash: head.hash, at_ms: Date.now(), signer: k.pub, body };
  const signed = await rec.signEvent(k.privateKey, event);
  timing("signed", event.seq);
  const item = { game: G.game, seq: event.seq, hex: signed.hex, hash: rec.toHex(signed.hash), kind: rec.kindOf(body), words: describe(body), body, as };
  await outboxAdd(item);
  G.head = { seq: event.seq, hash: item.hash };
  G.queued++;
  // The player who moved last in this device's own sequence: the next press
  // is his (a shared device's clock model may be older than its records).
  if (body.stone_placed || body.pass) G.lastMover = G.ownMover = (body.stone_placed || body.pass).player;
  if (body.clock_pressed) G.lastMover = null;
  flush();
  return item;
}

// A shared board device may also hold the players' own keys (each made
// here and enrolled like a device's): what only a player may state (a
// protest, a status dispute, declining a rewind or a draw), and the
// player's own result sheet and claims, are signed with the player's key
// when the roster names it; the rest with the recorder's.
const PLAYER_FIRST = ["protest_declared", "status_disputed", "status_agreed", "rewind_agreed", "rewind_declined",
  "draw_declined", "draw_accepted", "draw_offered", "result_sheet_signed", "appeal_lodged", "dispute_raised",
  "referee_called", "resigned"];
function signerFor(body, as) {
  const kind = rec.kindOf(body);
  const f = body[kind] || {};
  if (isShared() && PLAYER_FIRST.includes(kind)) {
    const colour = f.player || as || actor();
    const pk = G.playerKeys[colour];
    if (pk && rolesOf(G.st.state.genesis || {}, pk.pub).includes(colour)) return pk;
  }
  return { privateKey: keys.privateKey, pub: myKey };
}
// A player's key on a shared device belongs to one game: the board's next
// game seats other players, who make keys of their own.
const playerKeyName = (colour) => `keypair:${colour}:${G.game}`;
async function loadPlayerKeys() {
  G.playerKeys = {};
  for (const colour of ["black", "white"]) {
    const pair = await kvGet(playerKeyName(colour));
    if (pair) G.playerKeys[colour] = { privateKey: pair.privateKey, pub: rec.toHex(await rec.publicKeyBytes(pair.publicKey)) };
  }
}
// Makes a player's key on this shared device (or takes the one made
// already for this game) and asks for the player's seat with it; the
// referee enrols it (`--device-request`, or `kifu key replace` in a
// running game) after comparing the fingerprint shown. Until then the
// request can be sent again.
async function addPlayerKey(colour) {
  let pair = await kvGet(playerKeyName(colour));
  if (!pair) {
    pair = await rec.generateKey();
    await kvSet(playerKeyName(colour), pair);
  }
  await loadPlayerKeys();
  const pub = G.playerKeys[colour].pub;
  const t = (G.st.state.genesis && G.st.state.genesis.tournament) || null;
  const roster = (G.st.state.genesis.roster || []).find((p) => p.role === colour);
  try {
    const r = await askSeat(pair.privateKey, {
      key: pub, role: colour, name: roster ? roster.name : colourWord(colour),
      tournament: t ? t.tournament : null, round: t ? t.round : null, board: t ? t.board : null,
    });
    say(`${colourWord(colour)}'s key on this device: request ${r.id}, fingerprint ${r.fingerprint}; the referee enrols it`, true);
  } catch (e) {
    say(`${colourWord(colour)}'s key: the server refused the request: ${e.message}`, false);
  }
  draw();
}

// What a tablet signs again, after the other seat's record, when that
// record took its place first: statements that hold whatever the board
// shows. A stone, a pass or a press is never signed again by itself: the
// board it answered has changed.
const REBASED = ["result_sheet_signed", "referee_called", "protest_declared", "dispute_raised", "appeal_lodged"];

let flushing = false;
async function flush() {
  if (flushing) return;
  flushing = true;
  try {
    for (let round = 0; round < 100; round++) {
      const items = (await outboxAll()).filter((i) => i.game === G.game);
      G.queued = items.length;
      setOnline(G.online, items.length);
      if (!items.length) break;
      // Statements the other seat's record displaced (kept, marked, in the
      // outbox until then): signed again at the server's head, in order.
      const displaced = items.filter((i) => i.displaced);
      if (displaced.length) {
        let head;
        try { head = await api(`/games/${G.game}/head`); } catch (e) {
          if (e.status) throw e;
          G.online = false;
          setOnline(false, items.length);
          break;
        }
        G.head = { seq: head.seq, hash: head.hash };
        for (const it of displaced) {
          await outboxDelete(it.n);
          await sign(it.body, it.as);
        }
        continue;
      }
      let answer;
      try {
        answer = await post("/records", { records: items.map((i) => i.hex) });
      } catch (e) {
        // Every record refused for one reason: the answer still says each
        // record's (page.js, `api`); a refusal of the request itself is
        // each record's.
        if (e.status) answer = e.body && Array.isArray(e.body.results) ? e.body : { results: items.map(() => ({ ok: false, error: { code: e.code, message: e.message, status: e.status } })) };
        else {
          G.online = false;
          setOnline(false, items.length);
          break;
        }
      }
      G.online = true;
      let stale = false, answered = 0;
      for (let i = 0; i < items.length; i++) {
        const r = answer.results[i] || { ok: false, error: { message: "no answer for this record" } };
        const it = items[i];
        if (r.ok) {
          answered++;
          await outboxDelete(it.n);
          say(`${it.words}: recorded at event ${r.seq}` + (r.new ? "" : " (already recorded)"), true);
          timing("acknowledged", r.seq);
        } else if (r.error && r.error.status === 503) {
          break; // busy: tried again shortly, in order
        } else if (r.error.code === "conflict" && it.body && REBASED.includes(it.kind)) {
          // A statement that does not depend on the board (a result sheet,
          // a call, a protest): kept, and signed again after the other
          // seat's record at the next round (even if the network drops
          // what comes between), and said so.
          answered++;
          stale = true;
          await outboxPut({ ...it, displaced: true });
          say(`${it.words}: the other seat's record came first (event ${it.seq}); signed again after it`, true);
        } else {
          answered++;
          await outboxDelete(it.n);
          stale = stale || r.error.code === "conflict";
          if (r.error.code === "conflict") {
            say(`${it.words}: not recorded: another record was accepted at that place first (event ${it.seq}, the other seat's or an official's); the board is redrawn from the game as recorded: check it and act again`, false);
          } else {
            say(`${it.words}: refused: ${r.error.message}`, false);
          }
        }
      }
      const left = (await outboxAll()).filter((i) => i.game === G.game);
      G.queued = left.length;
      setOnline(G.online, left.length);
      // Every record answered and more signed meanwhile (a press tapped
      // while its stone was on the way): they go at once, chained on the
      // ones just recorded; the state is read once the outbox is empty.
      if (!stale && answered === items.length && left.length) continue;
      // Records after a refused one link to it and cannot be accepted:
      // they are dropped, and said so.
      // An answer lost on the way (the network dropped it) is asked again
      // at the next round; the records stay in the outbox until then.
      try {
        if (stale || left.length) {
          const accepted = await api(`/games/${G.game}/head`);
          for (const it of left) {
            if (!it.displaced && it.seq <= accepted.seq) { await outboxDelete(it.n); say(`${it.words}: dropped: the game moved on without it`, false); }
          }
        }
        await refresh();
      } catch (e) {
        if (e.status) throw e;
        G.online = false;
        setOnline(false, left.length);
        break;
      }
      if ((await outboxAll()).some((i) => i.game === G.game && i.displaced)) continue;
      // Nothing answered (the server is busy): a pause before trying again.
      // Records signed meanwhile go at once.
      if (!answered && left.length) {
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  } catch (e) {
    // The server answered a read with an error: said, and tried again by
    // the timer; the records stay in the outbox.
    say(`sending the records: ${e.message}`, false);
  } finally {
    flushing = false;
  }
}
setInterval(() => {
  if (G.game && G.queued) flush();
  if (G.follow) G.follow.again();
}, 2000);

// ---------------------------------------------------------------- words

const colourWord = (c) => (c === "black" ? "Black" : "White");
function pointName(p) {
  if (!p) return "";
  const n = G.st ? boardSize() : 19;
  if (isRenju()) return "abcdefghijklmno"[p.x] + (15 - p.y);
  return "ABCDEFGHJKLMNOPQRSTUVWXYZ"[p.x] + (n - p.y);
}
function describe(body) {
  const kind = rec.kindOf(body);
  const f = body[kind] || {};
  switch (kind) {
    case "stone_placed": return `${colourWord(f.stone)} stone at ${pointName(f.point)}`;
    case "clock_pressed": return `${colourWord(f.player)} pressed the clock`;
    case "pass": return `${colourWord(f.player)} passes` + (f.pass_stone ? ", handing over a pass stone" : "");
    default: return kind.replace(/_/g, " ") + (f.player ? ` (${colourWord(f.player)})` : "");
  }
}

// When each record of the game was signed here, acknowledged by the server
// and first drawn, as User Timing marks (`kifu:signed:12`, …): a venue's
// rehearsal reads them to measure the tablets' latency (docs/PERFORMANCE.md).
function timing(what, seq) {
  try { performance.mark(`kifu:${what}:${seq}`); } catch { /* no User Timing: nothing measured */ }
}

// ---------------------------------------------------------------- the page

const isRenju = () => G.st && G.st.state.genesis && G.st.state.genesis.game !== "go";
const boardSize = () => (isRenju() ? 15 : G.st.state.genesis.board_size);

async function refresh() {
  // The device's view: the projection at the head without its history,
  // and only the consequences not yet said (a few kilobytes at any move).
  const since = G.shownSeq ?? Number.MAX_SAFE_INTEGER;
  // Both at once: one round trip of the venue's network, not two.
  const [st, head] = await Promise.all([
    api(`/games/${G.game}/state?device=1&since=${since}` + (isRenju() ? "&forbidden=1" : "")),
    api(`/games/${G.game}/head`),
  ]);
  // Fetches may overlap (the outbox's and the feed's): an older state
  // never replaces a newer one.
  if (G.shownSeq != null && G.st && st.last_seq < G.shownSeq) return;
  G.st = st;
  // What the rules make of each event recorded since the last refresh, by
  // this device or another, in words with the clause.
  const from = G.shownSeq ?? st.last_seq;
  for (const c of st.state.consequences || []) {
    if (c.at_seq > from && c.at_seq <= st.last_seq) say(`event ${c.at_seq}: ${c.what}`, true, c.rule, c.quote);
  }
  if (G.shownSeq == null || st.last_seq > G.shownSeq) timing("drawn", st.last_seq);
  G.shownSeq = st.last_seq;
  // The head to sign against: the server's, unless this device has records
  // of its own still waiting beyond it (a device chains on them). A record
  // still in the outbox at or below the server's head (its answer was lost
  // on the way) is recorded already or can no longer be: the next record
  // follows the server's head, never it.
  const mine = (await outboxAll()).filter((i) => i.game === G.game);
  const last = mine[mine.length - 1];
  G.head = last && last.seq > head.seq ? { seq: last.seq, hash: last.hash } : { seq: head.seq, hash: head.hash };
  if (!mine.length || G.online) G.clock = clockFrom(st);
  G.over = !!st.result_computed || (st.state.phase && st.state.phase.phase === "finished");
  seatFrom(st);
  G.serverHead = { seq: head.seq, hash: head.hash };
  draw();
  keep();
}

// What the tablet last drew of its game, kept in IndexedDB beside the
// outbox: a tablet reloaded while the server cannot be reached (the page
// itself comes from the service worker, sw.js) draws it again, clocks
// running from the same instants, and goes on signing on its own records.
function keep() {
  if (!G.game || !G.st) return;
  kvSet("shown:" + G.game, { st: G.st, clock: G.clock, shownSeq: G.shownSeq, head: G.serverHead || null, over: G.over,
    lastMover: G.lastMover ?? null, ownMover: G.ownMover ?? null })
    .catch(() => { /* storage full or closed: the next drawing tries again */ });
}
async function restore() {
  const kept = await kvGet("shown:" + G.game);
  if (!kept || !kept.st) return false;
  G.st = kept.st;
  G.clock = kept.clock;
  G.shownSeq = kept.shownSeq;
  G.over = kept.over;
  G.serverHead = kept.head;
  const mine = (await outboxAll()).filter((i) => i.game === G.game);
  const last = mine[mine.length - 1];
  G.head = last && (!kept.head || last.seq > kept.head.seq) ? { seq: last.seq, hash: last.hash } : kept.head;
  G.queued = mine.length;
  // The player who moved last in the device's own records: the next press
  // is his (`sign` keeps it as the records are made).
  G.lastMover = kept.lastMover ?? null;
  G.ownMover = kept.ownMover ?? null;
  seatFrom(G.st);
  G.online = false;
  setOnline(false, G.queued);
  say(`the server cannot be reached: the game as this tablet last drew it, with ${G.queued} record(s) of its own waiting to be sent`, false);
  draw();
  return true;
}

function toMove() {
  const s = G.st.state;
  if (isRenju()) return s.to_move;
  return s.to_move;
}
// The colour a shared device signs a pass, a resignation or a claim for:
// while its own records are ahead of the state drawn, the player after the
// last one who moved in them (the drawn state is older); else actor().
function actorNow() {
  if (G.colours.length === 1) return G.colours[0];
  const ahead = G.head && G.shownSeq != null && G.head.seq > G.shownSeq;
  if (ahead && G.ownMover) return G.ownMover === "black" ? "white" : "black";
  return actor();
}
// The colour this device acts for now: its seat, or (a shared device) the
// player to move.
function actor() {
  if (G.colours.length === 1) return G.colours[0];
  return toMove() || (G.clock && G.clock.running) || "black";
}
function stoneColour() {
  if (!isRenju()) return toMove();
  const v = G.st.board_view;
  const stones = v ? v.rows.join("").replace(/[^XO]/g, "").length : 0;
  return stones % 2 === 0 ? "black" : "white";
}
function lastMoveOf(colour) {
  const b = G.st.state.board || {};
  const ops = (b.ops || []).filter((o) => o.op === "move" && (!colour || o.player === colour));
  return ops.length ? ops[ops.length - 1] : null;
}
function lastRenjuStone() {
  const b = G.st.state.board || {};
  const p = (b.inputs || []).map((i) => i[1]).filter((i) => i && i.input === "play" && i.point).pop();
  const m = p && p.point.match(/^([a-o])(\d+)$/);
  return m ? { x: m[1].charCodeAt(0) - 97, y: 15 - Number(m[2]) } : null;
}

function boardSvg() {
  const v = G.st.board_view;
  const n = boardSize(), cell = 30, pad = 36, size = pad * 2 + cell * (n - 1);
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val); return e; };
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "board", role: "application", tabindex: 0, id: "board",
    "aria-roledescription": isRenju() ? "Renju board" : "Go board",
    "aria-describedby": "cursor-status",
    "aria-label": `Board, ${n} by ${n}. Arrow keys move the cursor, Enter places a stone.` });
  const letters = isRenju() ? "abcdefghijklmno" : "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  for (let i = 0; i < n; i++) {
    const p = pad + i * cell;
    svg.append(el("line", { x1: pad, y1: p, x2: pad + cell * (n - 1), y2: p, stroke: "#333" }));
    svg.append(el("line", { x1: p, y1: pad, x2: p, y2: pad + cell * (n - 1), stroke: "#333" }));
    const top = el("text", { x: p, y: 16, "text-anchor": "middle", "font-size": 12 }); top.textContent = letters[i]; svg.append(top);
    const left = el("text", { x: 12, y: p + 4, "text-anchor": "middle", "font-size": 12 }); left.textContent = String(n - i); svg.append(left);
  }
  const rows = v ? v.rows : [];
  rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch !== "X" && ch !== "O") return;
    const black = ch === "X", cx = pad + x * cell, cy = pad + y * cell;
    const g = el("g", { "data-stone": black ? "black" : "white", "data-x": x, "data-y": y });
    g.append(el("circle", { cx, cy, r: cell * 0.46, fill: black ? "#111" : "#fafafa", stroke: "#111" }));
    if (!black) { const r = cell * 0.24; g.append(el("circle", { cx, cy, r, fill: "none", stroke: "#111", "stroke-width": 1.5 })); }
    svg.append(g);
  }));
  const last = isRenju() ? lastRenjuStone() : (lastMoveOf() || {}).point;
  if (last) svg.append(el("rect", { class: "last-move", x: pad + last.x * cell - 5, y: pad + last.y * cell - 5, width: 10, height: 10, fill: "none", stroke: "#b00020", "stroke-width": 2 }));
  for (const f of G.st.forbidden || []) {
    const m = f.point.match(/^([a-o])(\d+)$/);
    if (!m) continue;
    const x = m[1].charCodeAt(0) - 97, y = 15 - Number(m[2]), cx = pad + x * cell, cy = pad + y * cell, d = cell * 0.2;
    const g = el("g", { class: "forbidden", "data-point": f.point });
    g.append(el("path", { d: `M ${cx - d} ${cy - d} L ${cx + d} ${cy + d} M ${cx - d} ${cy + d} L ${cx + d} ${cy - d}`, stroke: "#b00020", "stroke-width": 2 }));
    const t = el("title", {}); t.textContent = `forbidden to Black: ${f.reason.replace(/_/g, " ")}`; g.append(t);
    svg.append(g);
  }
  for (const key of G.marked) {
    const [x, y] = key.split(",").map(Number);
    svg.append(el("rect", { class: "marked", "data-x": x, "data-y": y, x: pad + x * cell - 11, y: pad + y * cell - 11, width: 22, height: 22 }));
  }
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const hit = el("rect", { class: "hit", "data-x": x, "data-y": y, "data-point": pointName({ x, y }), x: pad + x * cell - cell / 2, y: pad + y * cell - cell / 2, width: cell, height: cell });
    hit.addEventListener("click", () => { G.cursor = { x, y }; tap({ x, y }); });
    svg.append(hit);
  }
  const c = G.cursor;
  svg.append(el("circle", { class: "cursor", cx: pad + c.x * cell, cy: pad + c.y * cell, r: cell * 0.5 }));
  svg.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (d) {
      e.preventDefault();
      G.cursor = { x: Math.min(n - 1, Math.max(0, G.cursor.x + d[0])), y: Math.min(n - 1, Math.max(0, G.cursor.y + d[1])) };
      draw(true);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      tap({ ...G.cursor });
    }
  });
  return svg;
}

// The dialog: resolves true when the player confirms.
function confirmDialog(title, body, okText) {
  const d = document.getElementById("confirm");
  document.getElementById("confirm-title").textContent = title;
  document.getElementById("confirm-body").replaceChildren(...body);
  document.getElementById("confirm-ok").textContent = okText;
  d.returnValue = "";
  return new Promise((resolve) => {
    d.addEventListener("close", () => resolve(d.returnValue === "ok"), { once: true });
    d.showModal();
    document.getElementById("confirm-cancel").focus();
  });
}
async function askText(title, label) {
  const input = $("input", { id: "confirm-text", maxlength: 500, "aria-label": label });
  const ok = await confirmDialog(title, [$("label", {}, label, " ", input)], "Sign and send");
  return ok ? input.value : null;
}

// A point tapped: a stone, or a point marked in a marking mode.
async function tap(p) {
  if (G.mode) {
    const k = `${p.x},${p.y}`;
    if (G.mode === "choose-fifth") {
      G.mode = null;
      return act({ fifth_chosen: { player: actor(), point: p } });
    }
    if (G.marked.has(k)) G.marked.delete(k); else G.marked.add(k);
    return draw(true);
  }
  return act(() => {
    const colour = actor();
    return { stone_placed: { player: colour, stone: stoneColour() || colour, point: p } };
  }, { preview: true });
}

// One action: one signed record. A stone is previewed first: when the
// projection calls it illegal (or forbidden), the page says why, with the
// clause, and records it only when the player confirms.
// Actions run one after the other, in the order they were asked for; a
// body given as a function is made when its turn comes (a tap made while
// the previous move is being signed gets the colour that follows it).
let actions = Promise.resolve();
function act(bodyOrMake, opts = {}) {
  // `opts.as`: the colour a shared device signs for (a player's sheet).
  actions = actions.then(async () => {
    // A move is previewed at the game's head: while this device's own
    // records are on their way, the server's head is not yet the place the
    // move takes, nor its state the one the move follows. Online, the move
    // waits for them (a press never waits: it chains at once).
    if (opts.preview && G.online) await ownRecordsDrawn();
    return actNow(typeof bodyOrMake === "function" ? await bodyOrMake() : bodyOrMake, opts);
  });
  return actions;
}
// Resolves once this device's records are recorded and the state drawn
// includes them (bounded: on a network that gives no answer, the move goes
// on with what the device knows, as offline).
async function ownRecordsDrawn(limitMs = 5000) {
  const until = Date.now() + limitMs;
  while (Date.now() < until && G.online) {
    const mine = (await outboxAll()).filter((i) => i.game === G.game);
    if (!mine.length && G.head && G.shownSeq != null && G.shownSeq >= G.head.seq) return;
    if (mine.length) flush();
    else if (G.follow) G.follow.event(G.head.seq);
    await new Promise((r) => setTimeout(r, 50));
  }
}
async function actNow(body, opts) {
  if (!body) return;
  G.busy = true;
  try {
    if (body.pass) {
      await learnPassStones();
      body = { pass: { ...body.pass, pass_stone: !!G.passStones } };
    }
    if (opts.preview && G.online) {
      let p = null;
      try { p = await post(`/games/${G.game}/preview`, { body, signer: myKey, at_ms: Date.now() }); } catch (e) { if (e.status) throw e; }
      if (p && p.refused) { say(`${describe(body)}: ${p.refused}`, false); return; }
      if (p && (p.illegal_move || p.irregular_move || p.forbidden)) {
        const why = p.consequences.map((c) => $("p", { class: "why" }, c.what, c.rule ? ` [${c.rule}]` : "", c.quote ? $("q", {}, c.quote) : ""));
        if (p.forbidden) why.unshift($("p", { class: "why" }, `${p.forbidden.point}: ${p.forbidden.reason.replace(/_/g, " ")}, forbidden to Black [RIF rules of Renju 9.2, 9.3]`));
        const ok = await confirmDialog(p.forbidden ? "This move is forbidden" : p.illegal_move ? "This move is illegal" : "This move is irregular", [
          ...why, $("p", {}, "It is recorded as played only if you confirm; the opponent may then point it out."),
        ], "Play it anyway");
        if (!ok) { say(`${describe(body)}: not played`, false); return; }
      }
    }
    const item = await sign(body, opts.as);
    if (item && !G.online) { pressOfflineEffects(body); draw(); keep(); }
  } catch (e) {
    say(`${describe(body)}: ${e.message}`, false);
  } finally {
    G.busy = false;
  }
}
// What a shared device draws of its own records while the server cannot
// project them: the stone on the board and the clocks switched.
function pressOfflineEffects(body) {
  if (body.clock_pressed) pressLocally(body.clock_pressed.player, Date.now());
  const s = body.stone_placed;
  if (s && G.st.board_view) {
    let rows = G.st.board_view.rows.slice();
    if (isRenju()) {
      const row = [...rows[s.point.y]];
      row[s.point.x] = s.stone === "black" ? "X" : "O";
      rows[s.point.y] = row.join("");
    } else {
      // Go: the opponent's stones the play takes go too (display only).
      rows = placeGo(rows, s.point, s.stone).rows;
    }
    G.st.board_view = { ...G.st.board_view, rows };
    G.st.state.to_move = s.player === "black" ? "white" : "black";
  }
}

// The point under the keyboard cursor, in words, for a screen reader.
function cursorWords() {
  const { x, y } = G.cursor;
  const v = G.st && G.st.board_view;
  const ch = v && v.rows[y] ? v.rows[y][x] : ".";
  const what = ch === "X" ? "black stone" : ch === "O" ? "white stone" : "empty";
  const marked = G.marked.has(`${x},${y}`) ? ", marked" : "";
  return `${pointName(G.cursor)}: ${what}${marked}`;
}

// The label of the button that ends a marking mode, with the count marked.
function markLabel(mode) {
  if (mode === "fifths") return G.mode === "fifths" ? `Offer these ${G.marked.size} points` : "Mark fifth-move points";
  return G.mode === "dead" ? `Agree: these ${G.marked.size} stones are dead` : "Mark dead stones";
}

function draw(boardOnly) {
  const st = G.st;
  if (!st) return;
  const boardBox = document.getElementById("board-box");
  if (boardBox) boardBox.replaceChildren(boardSvg());
  const cs = document.getElementById("cursor-status");
  if (cs) cs.textContent = cursorWords();
  if (boardOnly && boardBox) {
    // A point marked or unmarked: the count on the button follows.
    for (const mode of ["fifths", "dead"]) {
      const b = document.getElementById(mode);
      if (b) b.textContent = markLabel(mode);
    }
    document.getElementById("board").focus();
    return;
  }
  const t = st.text || {};
  const s = st.state;
  const renju = isRenju();
  const me = actor();
  const other = me === "black" ? "white" : "black";
  // Whom a pass, a resignation or a claim is for: asked when it is signed,
  // from this device's own records (actorNow).
  const who = actorNow;
  const can = (colour) => G.colours.includes(colour);
  // In Renju the seats keep their names after the opening's swap: say
  // which colour the seat to move holds.
  const blackSeat = st.board_view && st.board_view.black_seat;
  const holds = renju && blackSeat && blackSeat !== "black" && s.to_move ? ` (holding ${s.to_move === blackSeat ? "Black" : "White"})` : "";
  const turnText = G.over ? `Game over: ${t.result || "the result is signed"}`
    : s.to_move
    ? (G.colours.length === 1 && G.colours[0] === s.to_move ? `Your move: ${colourWord(s.to_move)} to play${holds}` : `${colourWord(s.to_move)} to play${holds}`)
    : (t.phase || "");
  document.getElementById("seat").textContent = G.roles.length
    ? `Signing as ${G.roles.join(", ")}` + (st.state.genesis.title ? ` · ${st.state.genesis.title}` : "")
    : "";
  if (!G.roles.length) {
    main.replaceChildren($("p", { class: "bad", role: "alert", id: "not-on-roster" },
      "This device's key is not on this game's roster: it cannot sign here. Ask the referee to enrol it (fingerprint ",
      rec.fingerprint(myKey), ")."));
    return;
  }
  const btn = (label, id, f, enabled = true, cls) => $("button", { type: "button", id, class: cls, disabled: !enabled, onclick: f }, label);
  // The result the rules give so far, as the sheet states it.
  const result = st.result_computed ? st.result_computed.result : null;
  const go = !renju;
  const running = G.clock && G.clock.running;
  const passStone = go && G.passStones;
  const lastOpp = go ? lastMoveOf(other) : null;
  const started = !!(s.clock && s.clock.started_at_ms);
  const groups = [
    // LGC 2023, "Start": "Black's clock is started either by the referee
    // or by the players themselves": a shared board device, or a player's
    // own, starts it before the first move (Black's, or White's after
    // handicap stones, as the projection says); the ledger's roles decide.
    !started && !lastMoveOf() ? $("fieldset", {}, $("legend", {}, "Clock"),
      $("div", { class: "actions" }, btn("Start the clocks", "start-clock", () => act({ clock_started: { running: s.to_move || "black" } })))) : "",
    $("fieldset", {}, $("legend", {}, "Play"),
      $("div", { class: "actions" },
        btn(passStone ? "Pass (hand over a pass stone)" : "Pass", "pass", () => act(() => ({ pass: { player: who(), pass_stone: !!passStone } }))),
        btn("Resign", "resign", async () => {
          // Asked once this device's earlier taps are signed, for the
          // player its own records say.
          act(async () => {
            const loser = who();
            return (await confirmDialog("Resign?", [$("p", {}, `${colourWord(loser)} resigns the game.`)], "Resign")) ? { resigned: { player: loser, manner: "spoken" } } : null;
          });
        }, true, "danger"))),
    $("fieldset", {}, $("legend", {}, "Arbitration"),
      $("div", { class: "actions" },
        btn("Call the referee", "call-referee", () => act(() => ({ referee_called: { player: who() } }))),
        btn("Raise a dispute…", "dispute", async () => { const m = await askText("Raise a dispute", "What is disputed"); if (m !== null) act(() => ({ dispute_raised: { player: who(), matter: m } })); }),
        btn("Declare play under protest…", "protest", async () => { const m = await askText("Play under protest", "Statement"); if (m !== null) act(() => ({ protest_declared: { player: who(), statement: m } })); }),
        go ? btn("Point out an illegal move", "illegal", () => act({ illegal_move_noticed: { move_seq: lastOpp.seq, statement: `${colourWord(me)} points out ${colourWord(other)}'s move at ${pointName(lastOpp.point) || "pass"}` } }), !!lastOpp) : "",
        renju ? btn("Point out a forbidden move", "forbidden", () => act(() => ({ forbidden_move_pointed_out: { player: who(), point: lastRenjuStone() } })), !!lastRenjuStone()) : "",
        renju ? btn("Declare five", "five", () => act(() => ({ five_declared: { player: who() } }))) : "")),
    $("fieldset", {}, $("legend", {}, "Draw"),
      $("div", { class: "actions" },
        btn("Offer a draw", "draw-offer", () => act(() => ({ draw_offered: { player: who() } }))),
        btn("Accept the draw", "draw-accept", () => act(() => ({ draw_accepted: { player: who() } }))),
        btn("Decline the draw", "draw-decline", () => act(() => ({ draw_declined: { player: who() } }))))),
    renju ? $("fieldset", {}, $("legend", {}, "Opening (RIF)"),
      $("div", { class: "actions" },
        btn("Swap", "swap", () => act(() => ({ opening_swap: { player: who(), swap: true } }))),
        btn("Keep colours", "no-swap", () => act(() => ({ opening_swap: { player: who(), swap: false } }))),
        btn("Declare fifth-move offers…", "fifth-count", async () => { const m = await askText("Fifth move", "How many fifth-move points"); if (m !== null && /^\d+$/.test(m)) act(() => ({ fifth_count_declared: { player: who(), count: Number(m) } })); }),
        btn(markLabel("fifths"), "fifths", () => {
          if (G.mode === "fifths") { const pts = [...G.marked].map((k) => { const [x, y] = k.split(",").map(Number); return { x, y }; }); G.mode = null; G.marked.clear(); act(() => ({ fifths_offered: { player: who(), points: pts } })); }
          else { G.mode = "fifths"; G.marked.clear(); draw(); }
        }),
        btn("Choose the fifth move (tap it)", "fifth-choose", () => { G.mode = "choose-fifth"; say("tap the offered point you choose", true); }))) : "",
    go ? $("fieldset", {}, $("legend", {}, "End of the game"),
      $("div", { class: "actions" },
        btn(markLabel("dead"), "dead", () => {
          if (G.mode === "dead") { const dead = [...G.marked].map((k) => { const [x, y] = k.split(",").map(Number); return { x, y }; }); G.mode = null; G.marked.clear(); act({ status_agreed: { dead } }); }
          else { G.mode = "dead"; G.marked.clear(); draw(); }
        }),
        btn("Dispute the status…", "status-dispute", async () => { const m = await askText("Dispute the status", "Which stones, and why"); if (m !== null) act(() => ({ status_disputed: { player: who(), statement: m } })); }))) : "",
    isShared() ? $("fieldset", {}, $("legend", {}, "Players' own keys on this device"),
      ...["black", "white"].map((c) => {
        const pk = G.playerKeys[c];
        const on = pk && rolesOf(st.state.genesis || {}, pk.pub).includes(c);
        return $("p", { id: `player-key-${c}`, "data-enrolled": on ? "1" : "0" },
          pk ? `${colourWord(c)}: ${rec.fingerprint(pk.pub)} ${on ? "(on the roster: signs " + colourWord(c) + "'s claims and result sheet)" : "(waiting for the referee)"}` : "",
          on ? "" : btn(pk ? `Ask again for ${colourWord(c)}'s seat` : `Add ${colourWord(c)}'s key`, `add-key-${c}`, () => addPlayerKey(c)));
      })) : "",
    $("fieldset", {}, $("legend", {}, "Result sheet"),
      $("p", { id: "result" }, "Result by the rules: ", t.result || "none yet"),
      $("div", { class: "actions" },
        btn("Sign the result sheet", "sign-sheet", () => act({ result_sheet_signed: { result, under_protest: false } }), !!result),
        btn("Sign under protest", "sign-sheet-protest", () => act({ result_sheet_signed: { result, under_protest: true } }), !!result))),
  ];
  // The clock button belongs to the player whose clock runs; a player's
  // own device presses for its seat only. A shared device presses for the
  // player who moved last in its own records (its clock model may be older).
  const presser = isShared() ? G.lastMover || running || me : me;
  const press = btn(`${colourWord(presser)}: press the clock`, "press",
    () => act(() => ({ clock_pressed: { player: isShared() ? G.lastMover || (G.clock && G.clock.running) || actor() : me } })),
    can(presser) && (running === presser || !running || (isShared() && !!G.lastMover)), "press");
  if (G.over) {
    // After the result: no clock, no move; what the rules allow after a
    // game (the sheets not yet signed, a protest, an appeal of a ruling).
    groups.splice(0, groups.length, ...afterTheGame(st, btn));
  }
  main.replaceChildren($("div", { class: "play" + (G.over ? " over" : "") },
    $("section", { "aria-label": "Board" }, $("div", { id: "board-box" }, boardSvg()),
      $("p", { id: "cursor-status", class: "muted", "aria-live": "polite" }, cursorWords()),
      $("p", { class: "muted" }, G.over ? "The game is over: the board shows the final position." : G.mode === "dead" ? "Tap the dead stones, then agree." : G.mode === "fifths" ? "Tap the points offered for the fifth move." : "Tap a point to place a stone, then press the clock.")),
    $("section", { "aria-label": "Clocks and actions" },
      $("p", { class: "turn", id: "turn", "aria-live": "polite" }, turnText),
      $("div", { class: "clocks" },
        $("div", { class: "clock", id: "clock-black", "aria-label": "Black's clock" }, $("div", {}, "● Black"), $("div", { class: "face" }, t.black_clock || "–")),
        $("div", { class: "clock", id: "clock-white", "aria-label": "White's clock" }, $("div", {}, "○ White"), $("div", { class: "face" }, t.white_clock || "–"))),
      $("p", { id: "paused", class: "muted", role: "status" }),
      G.over ? "" : press,
      ...groups)));
  document.getElementById("turn").dataset.toMove = s.to_move || "";
  document.getElementById("main").dataset.lastSeq = String(st.last_seq);
  tick();
}

// The result, who signed what and who has still to sign, and what the
// players may still state: their own sheets not yet signed, a protest, an
// appeal of a referee's judgement. The projection says what stands; the
// ledger's roles decide who may sign it.
function afterTheGame(st, btn) {
  const s = st.state, t = st.text || {};
  const r = s.result || {};
  const sigs = r.signatures || [];
  const signedBy = (c) => sigs.some((x) => x.seat === c);
  // The result to sign: the rules', or (when the rules give none) the one
  // the other player signed.
  const stated = (c) => {
    if (st.result_computed) return st.result_computed.result;
    const other = [...sigs].reverse().find((x) => x.seat && x.seat !== c);
    return other ? other.result : null;
  };
  const judgements = (s.rulings || []).filter((x) => x.applied && x.ruling && x.ruling.kind === "judgement");
  const shared = G.colours.length > 1;
  const sheets = G.colours.filter((c) => !signedBy(c)).flatMap((c) => {
    const res = stated(c), id = shared ? `-${c}` : "";
    const who = shared ? `${colourWord(c)}: ` : "";
    return [
      btn(`${who}Sign the result sheet`, "sign-sheet" + id, () => act({ result_sheet_signed: { result: res, under_protest: false } }, { as: c }), !!res),
      btn(`${who}Sign under protest`, "sign-sheet-protest" + id, () => act({ result_sheet_signed: { result: res, under_protest: true } }, { as: c }), !!res),
    ];
  });
  const me = G.colours[0];
  // The same tablet, the same key, its next game: once this game's records
  // are all sent, the seat form again, for the next round.
  const next = $("fieldset", {}, $("legend", {}, "Next game"),
    $("div", { class: "actions" },
      btn("Next game", "next-game", () => { location.assign("/play?new=1"); }, !G.queued)),
    G.queued ? $("p", { class: "muted" }, "Offered once this game's records are all sent.") : "");
  return [
    $("fieldset", {}, $("legend", {}, "Result sheet"),
      $("p", { id: "result" }, "Result: ", t.result || "none by the rules"),
      $("ul", { id: "signatures" }, ...sigs.map((x) => $("li", { "data-seat": x.seat || "" },
        `${x.signer} signed ${x.result ? resultWords(x.result) : ""} at event ${x.seq}` + (x.under_protest ? ", under protest" : "")))),
      (r.missing_signatures || []).length ? $("p", { id: "missing" }, "Still to sign: ", r.missing_signatures.join(", ")) : "",
      ...(r.mismatches || []).map((m) => $("p", { class: "bad" }, m)),
      sheets.length ? $("div", { class: "actions" }, ...sheets) : ""),
    me ? $("fieldset", {}, $("legend", {}, "Protest and appeal"),
      $("div", { class: "actions" },
        btn("Declare play under protest…", "protest", async () => { const m = await askText("Play under protest", "Statement"); if (m !== null) act({ protest_declared: { player: me, statement: m } }); }),
        ...judgements.map((j) => btn(`Appeal the judgement at event ${j.seq}…`, `appeal-${j.seq}`, async () => {
          const m = await askText("Appeal", "Grounds");
          if (m !== null) act({ appeal_lodged: { player: me, ruling_seq: j.seq, grounds: m } });
        })))) : "",
    next,
  ];
}
function resultWords(res) {
  const o = res.outcome, by = res.by;
  const how = typeof by === "string" ? by.replace(/_/g, " ") : by && by.score ? `${by.score.margin_half_points / 2} points` : by && by.other ? by.other : "";
  if (o && o.win) return `${colourWord(o.win)} wins` + (how ? ` (${how})` : "");
  return String(o).replace(/_/g, " ") + (how ? ` (${how})` : "");
}

// Whether a pass hands over a pass stone is the profile's: the server says
// it with any preview (kept for the game, and for a device offline).
async function learnPassStones() {
  if (G.passStones !== undefined && G.passStones !== null) return;
  const known = await kvGet("pass-stones:" + G.game);
  if (known !== undefined) { G.passStones = known; return; }
  try {
    const p = await post(`/games/${G.game}/preview`, { body: { pass: { player: actor(), pass_stone: false } }, signer: myKey });
    G.passStones = p.pass_stones;
    await kvSet("pass-stones:" + G.game, p.pass_stones);
  } catch { /* offline: a pass without a pass stone, as the body says */ }
}

async function gamePage(game) {
  G.game = game;
  await kvSet("game", game);
  try {
    await loadPlayerKeys();
    await refresh();
    await learnPassStones();
    draw();
  } catch (e) {
    if (e.status === 404) { main.replaceChildren($("p", { class: "bad", role: "alert" }, "No such game on this server: " + e.message)); return; }
    // No answer at all: the server is away. The game as last drawn here.
    if (e.status || !(await restore())) throw e;
  }
  flush();
  // Live: the feed names every new record of this game; every one is
  // drawn, in order (an event arriving while the page fetches is fetched
  // after it, never dropped).
  const f = follower(refresh, () => G.shownSeq);
  G.follow = f;
  const follow = async () => {
    // The feed's place now; while the server is away, asked again until it
    // answers (the outbox is sent meanwhile by its own timer).
    let h = null;
    for (let tries = 0; !h; tries++) {
      try { h = await api("/healthz"); } catch (e) {
        G.online = false;
        setOnline(false, G.queued);
        await new Promise((r) => setTimeout(r, Math.min(2000 * (tries + 1), 10000)));
      }
    }
    G.online = true;
    setOnline(true, G.queued);
    refresh().catch(() => { /* drawn at the next event */ });
    const from = h.next_cursor > 0 ? String(h.next_cursor - 1) : "";
    stream((last) => `/feed/stream?game=${G.game}` + ((last || from) ? "&after=" + (last || from) : ""), {
      message: (m) => {
        const r = JSON.parse(m.data);
        if (r.game !== G.game) return;
        f.event(typeof r.seq === "number" ? r.seq : Number.MAX_SAFE_INTEGER);
      },
      error: () => { G.online = false; setOnline(false, G.queued); },
      open: () => { G.online = true; setOnline(true, G.queued); flush(); },
    });
  };
  follow().catch(() => setOnline(false, G.queued));
}

(async () => {
  try {
    if (!globalThis.crypto || !globalThis.crypto.subtle) {
      throw new Error("this page must be opened over HTTPS (or on 127.0.0.1): the browser gives no Web Crypto to signing pages elsewhere");
    }
    await deviceKey();
    setOnline(true, 0);
    // The page shell kept on the tablet for a reload while the server is
    // away (sw.js). A browser that refuses it (an untrusted certificate)
    // still plays; only such a reload fails.
    if (navigator.serviceWorker) {
      navigator.serviceWorker.register("/web/sw.js", { scope: "/play" })
        .catch((e) => say(`this tablet cannot keep the page for a reload while the server is away: ${e.message}`, false));
    }
    const m = location.pathname.match(/^\/play\/([0-9a-fA-F]{64})\/?$/);
    if (m) return gamePage(m[1].toLowerCase());
    const stored = await kvGet("game");
    const next = new URLSearchParams(location.search).get("new") === "1";
    if (stored && !next) {
      history.replaceState(null, "", "/play/" + stored);
      return gamePage(stored);
    }
    await enrolPage(next);
  } catch (e) {
    main.replaceChildren($("p", { class: "bad", role: "alert" }, "Error: " + e.message));
  }
})();
