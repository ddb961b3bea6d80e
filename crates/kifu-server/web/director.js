// The director's desk: a tournament's players, rounds, results and
// standings, every fact signed in this browser with the desk's own Ed25519
// key (Web Crypto, not extractable, kept in IndexedDB as a board device and
// the referee's console keep theirs). It holds no rule: what the director
// types goes to POST /director/draft, which reads it with the libraries the
// command line uses and checks it against the tournament, answering the
// facts to sign or a refusal in words; the signed records go to
// POST /tournaments[/{t}/records], where the server checks them again.

import * as rec from "/web/record.js";
import { ownKey } from "/web/keystore.js";
import { pairDraw } from "/web/pairdraw.js";
import { stream } from "/web/live.js";
import { $, api, post, coalesce, messageLog, watchPolicy } from "/web/page.js";
import { open as openDb, DIRECTOR } from "/web/db.js";

const byId = (id) => document.getElementById(id);
const say = messageLog();
watchPolicy((words) => say(words, false));

// ---------------------------------------------------------------- storage and key

const store = openDb(DIRECTOR).keyValue("kv");
const kvGet = store.get;
const kvSet = store.set;

let keys = null;
let myKey = null;
async function deskKey() {
  ({ keys, hex: myKey } = await ownKey(store));
  const fp = byId("fingerprint");
  fp.textContent = rec.fingerprint(myKey);
  fp.dataset.key = myKey;
}

// ---------------------------------------------------------------- drafting, signing, submitting

let current = null; // the tournament's id, hex
let shown = null; // the desk document last shown

/** Drafts `intent`, signs the facts the server answers, submits them. */
async function act(intent, what) {
  // Nothing is signed into a tournament the page is not showing.
  const into = intent.tournament;
  if (into && (!shown || shown.id !== into)) {
    say(`${what}: the desk is not showing this tournament yet; nothing signed`, false);
    return null;
  }
  let draft;
  try {
    draft = await post("/director/draft", intent);
  } catch (e) {
    say(`${what}: ${e.message}`, false);
    return null;
  }
  try {
    const at = Date.now();
    if (intent.do === "create" || intent.do === "import_opengotha") {
      // The genesis, then the facts after it, chained from its hash (the
      // tournament's id).
      const genesis = await rec.signEvent(keys.privateKey, { seq: 0, at_ms: at, signer: myKey, body: draft.bodies[0] });
      const id = rec.toHex(genesis.hash);
      const hexes = [genesis.hex];
      let prev = id;
      for (const [i, body] of draft.bodies.slice(1).entries()) {
        const signed = await rec.signEvent(keys.privateKey, { chain: id, seq: i + 1, prev_hash: prev, at_ms: at, signer: myKey, body });
        hexes.push(signed.hex);
        prev = rec.toHex(signed.hash);
      }
      const r = await post("/tournaments", { records: hexes });
      say(`${what}: tournament ${r.short_name} created (${r.tournament.slice(0, 16)}), ${r.written} ${r.written === 1 ? "fact" : "facts"}`, true);
      return r;
    }
    let seq = draft.head.seq + 1;
    let prev = draft.head.hash;
    const hexes = [];
    for (const body of draft.bodies) {
      const signed = await rec.signEvent(keys.privateKey, { chain: draft.tournament, seq, prev_hash: prev, at_ms: at, signer: myKey, body });
      hexes.push(signed.hex);
      prev = rec.toHex(signed.hash);
      seq += 1;
    }
    const r = await post(`/tournaments/${draft.tournament}/records`, { records: hexes });
    say(`${what}: ${r.written} ${r.written === 1 ? "fact" : "facts"} written, the tournament at seq ${r.seq}`, true);
    return r;
  } catch (e) {
    say(`${what}: ${e.message}`, false);
    return null;
  } finally {
    if (current) await refresh();
  }
}

/**
 * The round's games, step 1: the server drafts each genesis (its seats held
 * by the devices waiting at the board); the desk lists every device with
 * its fingerprint, to compare with the one the device shows, ticked.
 */
async function prepareGames() {
  const r = round();
  let draft;
  try {
    draft = await post("/director/draft", { do: "games", tournament: current, round: r });
  } catch (e) {
    say(`games of round ${r}: ${e.message}`, false);
    return;
  }
  for (const s of draft.skipped) say(`games of round ${r}: ${s.reason}`, !!s.paper);
  const box = byId("games-confirm");
  const devices = [...draft.games, ...draft.skipped.filter((g) => g.devices)]
    .flatMap((g) => g.devices.map((d) => ({ ...d, board: g.board })))
    .sort((x, y) => x.board - y.board);
  box.replaceChildren(
    $("p", {}, `${draft.games.length} ${draft.games.length === 1 ? "game" : "games"} ready. Compare each device's fingerprint with the one its screen shows; untick a player's device that does not match (and all but one where two ask for a seat). A board recorder signs for both players: tick it only when its fingerprint matches the board's tablet.`),
    devices.length ? $("ul", { class: "devices" }, ...devices.map((d) => $("li", {},
      $("label", { class: "check" }, $("input", {
        type: "checkbox", checked: d.role === "recorder" ? false : d.enrolled !== false, disabled: d.role !== "recorder" && d.enrolled === false,
        name: d.role === "recorder" ? "recorder" : "device", value: d.request, "data-board": d.board,
      }),
        ` Board ${d.board}, ${d.role}: ${d.name} — `, $("span", { class: "fp" }, d.fingerprint),
        d.role !== "recorder" && d.enrolled === false ? " (the registration's key holds this seat)" : "")))) : $("p", { class: "muted" }, "No device is waiting: the seats are held by the players' registered keys."),
    $("button", { type: "button", class: "sign", id: "sign-games", onclick: () => createGames() }, "Sign and create the games"),
    $("button", { type: "button", id: "cancel-games", onclick: () => { box.hidden = true; } }, "Cancel"));
  box.hidden = false;
  byId("sign-games").focus();
}

/**
 * Step 2: the games drafted again without the devices left unticked, signed
 * by this desk and submitted together to POST /records.
 */
async function createGames() {
  const r = round();
  const what = `games of round ${r}`;
  const box = byId("games-confirm");
  const exclude = [...box.querySelectorAll("input[name=device]")].filter((i) => !i.checked).map((i) => i.value);
  const recorders = [...box.querySelectorAll("input[name=recorder]")].filter((i) => i.checked).map((i) => i.value);
  box.hidden = true;
  // The whole action, for `performance.getEntriesByName("create-games")`
  // (docs/PERFORMANCE.md, "The director's desk").
  const started = performance.now();
  let draft;
  try {
    draft = await post("/director/draft", { do: "games", tournament: current, round: r, exclude, recorders });
  } catch (e) {
    say(`${what}: ${e.message}`, false);
    return;
  }
  const list = byId("games-created");
  for (const s of draft.skipped) if (!s.paper) say(`${what}: ${s.reason}`, false);
  try {
    const at = Date.now();
    const signed = [];
    for (const g of draft.games) signed.push(await rec.signEvent(keys.privateKey, { seq: 0, at_ms: at, signer: myKey, body: g.body }));
    const answer = await post("/records", { records: signed.map((s) => s.hex) });
    answer.results.forEach((res, i) => {
      const g = draft.games[i];
      if (res.ok) {
        const who = g.devices.filter((d) => d.enrolled !== false).map((d) => `${d.role} ${d.name} (${d.fingerprint})`).join(", ") || "the players' registered keys";
        list.append($("li", { "data-round": r, "data-board": g.board, "data-game": res.game }, `Round ${r}, board ${g.board}: game `, $("a", { href: `/games/${res.game}` }, res.game.slice(0, 12)), `, enrolled: ${who}`));
        say(`board ${g.board}: game ${res.game.slice(0, 12)} created`, true);
      } else {
        say(`board ${g.board}: ${res.error ? res.error.message : "refused"}`, false);
      }
    });
  } catch (e) {
    say(`${what}: ${e.message}`, false);
  }
  performance.measure("create-games", { start: started });
  await refresh();
}

/**
 * The start of the round (LGC 2023, "Start": at the time the director
 * determines, Black's clock is started): every game of the round not yet
 * started gets Black's clock started, signed by this desk at its head, all
 * submitted together.
 */
async function startRound() {
  const r = round();
  const what = `start of round ${r}`;
  if (!shown || shown.id !== current) { say(`${what}: the desk is not showing this tournament yet; nothing signed`, false); return; }
  try {
    const draft = await post("/director/draft", { do: "start_round", tournament: current, round: r });
    const at = Date.now();
    const signed = [];
    for (const g of draft.games) signed.push(await rec.signEvent(keys.privateKey, { chain: g.game, seq: g.head.seq + 1, prev_hash: g.head.hash, at_ms: at, signer: myKey, body: g.body }));
    const answer = await post("/records", { records: signed.map((x) => x.hex) });
    const started = answer.results.filter((x) => x.ok).length;
    say(`${what}: Black's clock started on ${started} of ${draft.games.length} ${draft.games.length === 1 ? "board" : "boards"} (${draft.games.map((g) => g.board).join(", ")})`, started === draft.games.length);
    answer.results.forEach((x, i) => { if (!x.ok) say(`board ${draft.games[i].board}: ${x.error ? x.error.message : "refused"}`, false); });
  } catch (e) {
    say(`${what}: ${e.message}`, false);
  }
  await refresh();
}

/** The game on board `board` of the round shown, or a refusal in words. */
function gameOn(board) {
  const b = shown && shown.boards.find((x) => x.board === board);
  if (!b || !b.game) throw new Error(`board ${board} of round ${shown ? shown.round : "?"} has no game in the store`);
  return b.game;
}

/** Drafts a game's fact, signs it at the game's head, submits it. */
async function actOnGame(intent, what) {
  let draft;
  try {
    draft = await post("/director/draft", { ...intent, signer: myKey });
    const signed = await rec.signEvent(keys.privateKey, { chain: draft.game, seq: draft.head.seq + 1, prev_hash: draft.head.hash, at_ms: Date.now(), signer: myKey, body: draft.bodies[0] });
    const answer = await post("/records", { records: [signed.hex] });
    const r = answer.results[0];
    if (!r.ok) throw new Error(r.error ? r.error.message : "refused");
    say(`${what}: recorded at event ${r.seq} of game ${draft.game.slice(0, 12)}`, true);
  } catch (e) {
    say(`${what}: ${e.message}`, false);
  }
  await refresh();
}

function committeeText(c) {
  if (!c) return "not formed";
  const name = (k) => [...c.members, ...c.reserves, ...c.coopted].find((p) => p.key === k)?.name || k.slice(0, 8);
  return `sitting: ${c.sitting.map(name).join(", ")}${c.recused.length ? `; recused: ${c.recused.map(name).join(", ")}` : ""}`;
}

const form = (id) => byId(id);
const fields = (f) => Object.fromEntries(new FormData(f).entries());
const num = (v) => Number.parseInt(String(v || "0"), 10);
function people(text) {
  return String(text || "").split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
    const i = l.lastIndexOf("=");
    return { name: l.slice(0, i).trim(), key: l.slice(i + 1).trim() };
  });
}


/**
 * The defaults the settings take when left empty, shown in their fields:
 * the genesis the library drafts for a tournament given nothing else (so
 * the page states no default of its own).
 */
async function showDefaults() {
  let g;
  try {
    g = (await post("/director/draft", { do: "create", director_key: myKey, name: "defaults", rounds: 1 })).bodies[0].tournament_created;
  } catch { return; }
  for (const el of byId("settings").querySelectorAll("[data-default]")) {
    const v = g[el.dataset.default];
    el.placeholder = Array.isArray(v) ? v.join(",") : el.dataset.halves ? String(v / 2) : String(v);
  }
  const tc = byId("create-form").elements.time;
  if (g.komi_half_points !== undefined) byId("create-form").elements.komi.placeholder = String(g.komi_half_points / 2);
  tc.title = "as kifu new-game --time reads it";
}

function wire() {
  showDefaults();
  // The venue's zone is most often this computer's.
  try { byId("time-zone").value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch { /* no Intl zone: left empty */ }
  form("create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    const flag = (x) => (x === "true" ? true : x === "false" ? false : null);
    const count = (x) => (String(x || "").trim() ? num(x) : null);
    const r = await act({
      do: "create", director_key: myKey, director_name: v.director_name || "", name: v.name, short_name: v.short_name || "",
      rounds: num(v.rounds), system: v.system || "", time: v.time || "", komi: v.komi || "", city: v.city || "",
      country: v.country || "", start: v.start || "", finish: v.finish || "", referees: people(v.referees), committee: people(v.committee),
      bar: v.bar || "", floor: v.floor || "", criteria: v.criteria || "", bye_nbw: v.bye_nbw || "", bye_mms: v.bye_mms || "",
      absent_nbw: v.absent_nbw || "", absent_mms: v.absent_mms || "", round_down: flag(v.round_down), unplayed_as_half: flag(v.unplayed_as_half),
      game: v.game || "", ruleset: v.ruleset || "", egf_class: v.egf_class || "", adjusted_time: count(v.adjusted_time),
      handicap_reduction: count(v.handicap_reduction), time_zone: v.time_zone || "",
    }, "new tournament");
    if (r) { choose(r.tournament); await tournaments(); }
  });
  form("import-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = ev.target.elements.file.files[0];
    if (!file) return;
    const xml = await file.text();
    const r = await act({ do: "import_opengotha", director_key: myKey, director_name: String(fields(ev.target).director_name || ""), xml }, `import of ${file.name}`);
    if (r) { choose(r.tournament); await tournaments(); }
  });
  form("pair-opengotha-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = ev.target.elements.file.files[0];
    if (!file) return;
    const xml = await file.text();
    const r = await act({ do: "pair_opengotha", tournament: current, round: round(), xml }, `round ${round()} from ${file.name}`);
    if (r) ev.target.reset();
  });
  form("register-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    const player = { id: v.id, surname: v.surname, given: v.given || "", rank: v.rank, rating: num(v.rating), country: v.country || "",
      club: v.club || "", egd_pin: v.egd_pin || "", aga_id: "", smms_correction: 0, key: (v.key || "").trim().toLowerCase() || null };
    const correct = v.correct === "on";
    const r = await act({ do: "register", tournament: current, correct, player }, `${correct ? "correction of" : "registration of"} ${v.id}`);
    if (r) { ev.target.reset(); ev.target.elements.id.focus(); }
  });
  form("absent-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    await act({ do: "absent", tournament: current, round: num(v.round), player: v.player, reason: v.reason }, `absence of ${v.player}`);
  });
  form("pair-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    const r = await act({ do: "pair", tournament: current, round: round(), text: v.text, colours_unknown: v.colours_unknown === "on" }, `pairing of round ${round()}`);
    if (r) ev.target.reset();
  });
  form("bye-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    await act({ do: "bye", tournament: current, round: round(), player: v.player }, `bye for ${v.player}`);
  });
  form("result-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    await act({ do: "result", tournament: current, round: round(), board: num(v.board), result: v.result, by_default: v.by_default === "on", reason: v.reason || "" },
      `result of board ${v.board}`);
  });
  pairDraw({ act, post, say, tournament: () => current, round });
  byId("create-games").addEventListener("click", () => prepareGames());
  form("committee-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const board = num(fields(ev.target).board);
    try {
      await actOnGame({ do: "committee", game: gameOn(board) }, `committee of board ${board}`);
    } catch (e) { say(e.message, false); }
  });
  form("recuse-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    try {
      await actOnGame({ do: "recuse", game: gameOn(num(v.board)), member: v.member, reason: v.reason }, `recusal on board ${v.board}`);
    } catch (e) { say(e.message, false); }
  });
  form("coopt-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = fields(ev.target);
    try {
      await actOnGame({ do: "coopt", game: gameOn(num(v.board)), name: v.name, key: v.key.trim().toLowerCase() }, `co-option on board ${v.board}`);
    } catch (e) { say(e.message, false); }
  });
  form("recuse-form").elements.board.addEventListener("change", () => committeeShown());
  byId("start-round").addEventListener("click", () => startRound());
  byId("checkpoint-all").addEventListener("click", () => act({ do: "checkpoint", tournament: current, round: round(), board: null }, `checkpoints of round ${round()}`));
  byId("round").addEventListener("change", () => refresh());
  byId("tournament").addEventListener("change", (ev) => { choose(ev.target.value || null); kvSet("tournament", current); show(); });
}

/**
 * Another tournament chosen (or created): everything shown of the one
 * before is cleared at once, and the round shown becomes the new one's
 * last (the desk asks without a round), so nothing can be signed into a
 * tournament the page is not showing.
 */
function choose(id) {
  current = id;
  shown = null;
  byId("round").value = "";
  byId("desk-title").textContent = "";
  byId("desk-head").textContent = "";
  for (const rows of ["player-rows", "board-rows", "standings-rows", "games-created"]) byId(rows).replaceChildren();
}

/** The round shown; 1 before any is. */
const round = () => Math.max(1, num(byId("round").value));

/** The committee of the board named in the recusal form, and its members to recuse. */
function committeeShown() {
  const board = num(form("recuse-form").elements.board.value);
  const b = shown && shown.boards.find((x) => x.board === board);
  const c = b ? b.committee : null;
  byId("committee-state").textContent = b && b.game ? `Board ${board}: ${committeeText(c)}` : "";
  const sel = byId("recuse-member");
  const people = c ? [...c.members, ...c.reserves, ...c.coopted].filter((p) => !c.recused.includes(p.key)) : [];
  sel.replaceChildren(...people.map((p) => $("option", { value: p.key }, `${p.name} (${rec.fingerprint(p.key)})`)));
}

// ---------------------------------------------------------------- showing

async function tournaments() {
  const sel = byId("tournament");
  let list = [];
  try {
    list = (await api(`/director/tournaments?key=${myKey}`)).tournaments;
  } catch (e) {
    say(`tournaments: ${e.message}`, false);
  }
  const want = new URLSearchParams(location.search).get("t");
  if (!current) current = (await kvGet("tournament")) || null;
  const found = list.find((t) => t.id === current || t.short_name === want || t.id.startsWith(want || "-"));
  const chosen = found ? found.id : (list[0] ? list[0].id : null);
  if (chosen !== (shown && shown.id)) choose(chosen);
  sel.replaceChildren($("option", { value: "" }, "— new tournament —"), ...list.map((t) => $("option", { value: t.id, selected: t.id === current }, `${t.short_name}: ${t.name}`)));
  await show();
}

let follow = null;
async function show() {
  byId("create").hidden = !!current;
  byId("desk").hidden = !current;
  if (follow) { follow(); follow = null; }
  if (!current) return;
  // Through live.js: a stream the server refused or lost (a restart, a full
  // server) is opened again, and the desk drawn afresh when it is.
  const t = current;
  follow = stream(() => `/tournaments/${t}/events`, { change: () => refresh(), open: () => refresh() }, { events: ["change"] });
}

// One refresh at a time: changes that arrive meanwhile (every append of a
// live game changes the store) are folded into one more.
const refresh = coalesce(() => draw(), (e) => say(`the tournament: ${e.message}`, false));

async function draw() {
  if (!current) return;
  let d;
  const asked = current;
  const typed = byId("round").value;
  const r = typed ? `?round=${round()}` : "";
  try {
    d = await api(`/tournaments/${asked}/desk${r}`);
  } catch (e) {
    say(`the tournament: ${e.message}`, false);
    return;
  }
  // Another tournament or another round was chosen meanwhile: this answer
  // is not shown (the refresh that follows the choice shows the new one).
  if (asked !== current || byId("round").value !== typed) return;
  shown = d;
  byId("round").value = String(d.round);
  const s = d.summary;
  byId("desk-title").textContent = `${s.name} (${s.short_name})`;
  const many = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  byId("desk-head").textContent = `${many(s.players, "player")}, ${many(s.rounds, "round")}; ${s.last_round ? `round ${s.last_round} paired last` : "no round paired yet"}; chain at seq ${d.head.seq}; ${s.time_zone ? `times of day in ${s.time_zone}` : "no time zone stated (each page shows times of day in its own zone)"}`;
  byId("round").max = String(s.rounds);
  byId("player-rows").replaceChildren(...d.players.map((p) => $("tr", { "data-player": p.id },
    $("td", {}, p.id), $("td", {}, `${p.surname} ${p.given}`.trim()), $("td", {}, p.rank), $("td", {}, p.rating), $("td", {}, p.club), $("td", {}, p.country), $("td", {}, p.egd_pin))));
  const absent = new Map(d.absent.map((a) => [a.player, a.reason]));
  for (const tr of byId("player-rows").children) {
    const why = absent.get(tr.dataset.player);
    if (why) tr.cells[1].append($("span", { class: "muted" }, ` (${why} in round ${d.round})`));
  }
  byId("board-rows").replaceChildren(...d.boards.map((b) => {
    const confirm = b.checkpoint_due
      ? $("button", { type: "button", class: "sign", "data-board": b.board, onclick: (ev) => { ev.currentTarget.disabled = true; act({ do: "checkpoint", tournament: current, round: d.round, board: b.board }, `checkpoint of board ${b.board}`); } }, `Confirm ${b.game_result}`)
      : "";
    return $("tr", { class: b.checkpoint_due ? "due" : "", "data-board": b.board },
      $("td", {}, b.board), $("td", {}, `${b.white.name} (${b.white.id})`), $("td", {}, `${b.black.name} (${b.black.id})`), $("td", {}, b.handicap || ""),
      $("td", { class: "result" }, b.result && !b.from_game_record ? `${b.result}${b.by_default ? " by default" : ""}` : "—"),
      $("td", { class: "record" }, b.game ? $("a", { href: `/games/${b.game}` }, b.game_result || "playing") : "",
        (b.result_sheets || []).length ? $("span", { class: "sheets" }, ` · result sheets signed: ${b.result_sheets.map((x) => `${x.roles.join("/") || "?"}${x.under_protest ? " (under protest)" : ""}`).join(", ")}`) : ""),
      $("td", {}, confirm));
  }));
  committeeShown();
  const where = {
    board: (x) => `asks for board ${x.board}`,
    other_round: (x) => `asks for round ${x.round}, not round ${d.round}`,
    no_board: (x) => `asks for ${x.board ? `board ${x.board}` : "no board"}${x.round ? ` of round ${x.round}` : ""}, which is not paired`,
    other_tournament: (x) => (x.tournament ? `names the tournament "${x.tournament}", which is not this one` : "names no tournament"),
  };
  const waiting = d.devices || [];
  byId("waiting-title").textContent = `Devices waiting (${waiting.length}; ${waiting.filter((x) => x.matches !== "board").length} match no board of round ${d.round})`;
  byId("waiting-devices").replaceChildren(...waiting.map((x) => $("li", { "data-request": x.request, "data-matches": x.matches },
    `${x.role} ${x.name} — `, $("span", { class: "fp" }, x.fingerprint), ` — ${where[x.matches](x)}`)));
  byId("byes").textContent = d.byes.length ? `Bye: ${d.byes.map((p) => `${p.name} (${p.id})`).join(", ")}` : "";
  byId("h9").href = `/tournaments/${current}/export?format=h9&round=${d.round}`;
  byId("aga").href = `/tournaments/${current}/export?format=aga&round=${d.round}`;
  byId("hall").href = `/hall/${current}?view=standings&round=${d.round}`;
  try {
    const st = await api(`/tournaments/${current}/standings?round=${d.round}`);
    byId("standings-head").replaceChildren($("tr", {}, $("th", { scope: "col" }, "Place"), $("th", { scope: "col" }, "Player"), ...st.criteria.map((c) => $("th", { scope: "col" }, c))));
    byId("standings-rows").replaceChildren(...st.table.map((r) => $("tr", { "data-player": r.player },
      $("td", {}, r.place), $("td", {}, `${(st.players[r.player] || {}).name || ""} (${r.player})`), ...st.criteria.map((c) => $("td", {}, r.values[c])))));
  } catch (e) {
    byId("standings-rows").replaceChildren($("tr", {}, $("td", {}, e.message)));
  }
  document.body.dataset.seq = String(d.head.seq);
}

// ---------------------------------------------------------------- start

(async () => {
  try {
    await deskKey();
  } catch (e) {
    say(`this browser cannot keep a signing key here: ${e.message} (Web Crypto needs HTTPS or localhost)`, false);
    return;
  }
  wire();
  await tournaments();
  document.body.dataset.ready = "1";
})();
