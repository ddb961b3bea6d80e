// The replay page: the games of the store (`/`) and one game at any event
// (`/games/ID`, `/games/ID/at/SEQ`, `/games/ID#seq=SEQ`). It reads only the
// JSON API (docs/API.md) and computes no rule: the board, the state hash,
// the words of the state and the case at each event all come from the
// server's `kifu_game::document`.
import { follow, feedCursor } from "/web/feed.js";
import { $, api, coalesce, watchPolicy } from "/web/page.js";

const main = document.getElementById("main");

// A notice at the top of the page, read out by screen readers.
function notice(text, ...more) {
  return $("p", { class: "notice", role: "alert" }, text, ...more);
}

async function listPage() {
  document.title = "kifu: games";
  document.getElementById("where").textContent = "Games";
  const q = new URLSearchParams(location.search);
  const after = await feedCursor();
  const form = $("form", { class: "filters", role: "search" },
    $("label", {}, "Tournament ", $("input", { name: "tournament", value: q.get("tournament") || "" })),
    $("label", {}, "Round ", $("input", { name: "round", size: 3, inputmode: "numeric", value: q.get("round") || "" })),
    $("label", {}, "Player ", $("input", { name: "player", value: q.get("player") || "" })),
    $("button", { type: "submit" }, "Filter"));
  const params = new URLSearchParams([...q].filter(([k, v]) => v && k !== "live"));
  const tbody = $("tbody", { id: "games" });
  const HEAD = ["Tournament", "Round", "Board", "Players", "Ruleset", "Phase", "Result"];
  // Each cell names its column (`data-label`): on a phone the rows stack
  // and the labels stand beside the values.
  const cell = (i, ...kids) => $("td", { "data-label": HEAD[i] }, ...kids);
  const refresh = async () => {
    const { games } = await api("/games?" + params);
    tbody.replaceChildren(...games.map(g => $("tr", { "data-game": g.game },
      cell(0, g.tournament ? g.tournament.tournament : ""),
      cell(1, g.tournament ? g.tournament.round : ""),
      cell(2, g.tournament ? g.tournament.board : ""),
      cell(3, $("a", { href: "/games/" + g.game }, (g.black || "?") + " – " + (g.white || "?"))),
      cell(4, g.ruleset || ""),
      cell(5, shortenCitations(g.phase_text || phaseText(g.phase))),
      cell(6, g.result || ""))));
  };
  await refresh();
  main.replaceChildren(form, $("table", { class: "games" },
    $("caption", { class: "muted" }, "Games in this store; new games and moves appear as they are recorded."),
    $("thead", {}, $("tr", {}, ...HEAD.map(h => $("th", { scope: "col" }, h)))),
    tbody));
  // Live: any new record may add a game or change a phase or result; a
  // burst of records gives one refresh.
  if (q.get("live") === "0") return;
  follow(after, coalesce(refresh, liveFailed));
}

watchPolicy((words) => main.prepend(notice(words)));

// A live update that failed, said at the top of the page.
const liveFailed = (e) => main.prepend(notice("Live update failed: " + e.message));

// A value of the API in words: `CALL_REFEREE` as "call referee".
function words(v) {
  if (typeof v === "string") return (/^[A-Z][A-Z_]*$/.test(v) ? v.toLowerCase() : v).replace(/_/g, " ");
  return JSON.stringify(v);
}

function phaseText(p) {
  if (typeof p === "string") return words(p);
  if (p && typeof p === "object") {
    const rest = Object.entries(p).filter(([k]) => k !== "phase").map(([, v]) => typeof v === "object" ? JSON.stringify(v) : words(String(v)));
    return String(p.phase || "").replace(/_/g, " ") + (rest.length ? ": " + rest.join("; ") : "");
  }
  return "";
}

// A citation without the rule file's path: `LGC 2023
// (docs/rules/lgc-tournament-rules-2023.txt), "Warning"` as `LGC 2023,
// "Warning"` (the document's title names it; the downloads keep the path).
function shortenCitations(text) {
  return String(text || "").replace(/ \((?:[\w.-]+\/)*[\w.-]+\.(?:txt|md)\)/g, "");
}

// A time as a clock face: `1:05`, `1:02:03`.
function clockFace(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// The time of day of a signed event: in the time zone of the game's
// tournament when its chain states one (docs/FORMAT.md section 10,
// `time_zone_stated`), else in the browser's zone; the page says which.
let ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
let ZONE_WHY = "the browser's zone: the record names none";
let timeOfDay = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
let dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
async function tournamentZone(tournament) {
  if (!tournament) return;
  let t;
  try { t = await api("/tournaments/" + encodeURIComponent(tournament.tournament)); } catch { return; }
  if (!t || !t.time_zone) return;
  try {
    timeOfDay = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZone: t.time_zone });
    dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium", timeZone: t.time_zone });
    ZONE = t.time_zone;
    ZONE_WHY = `the zone of ${t.name || tournament.tournament}`;
  } catch { /* a zone this browser does not know: its own zone, said so */ }
}

function boardSvg(view, last, renju, forbidden, names) {
  const n = renju ? 15 : view.size, cell = 30, pad = 36, size = pad * 2 + cell * (n - 1);
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "board", role: "img" });
  for (let i = 0; i < n; i++) {
    const p = pad + i * cell;
    svg.append(el("line", { x1: pad, y1: p, x2: pad + cell * (n - 1), y2: p, stroke: "#333" }));
    svg.append(el("line", { x1: p, y1: pad, x2: p, y2: pad + cell * (n - 1), stroke: "#333" }));
    const top = el("text", { x: p, y: 16, "text-anchor": "middle", "font-size": 12 }); top.textContent = names.letters[i]; svg.append(top);
    const left = el("text", { x: 12, y: p + 4, "text-anchor": "middle", "font-size": 12 }); left.textContent = String(n - i); svg.append(left);
  }
  let stones = 0;
  view.rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch !== "X" && ch !== "O") return;
    stones++;
    const black = ch === "X";
    const cx = pad + x * cell, cy = pad + y * cell, name = names.point(x, y);
    // Colour is not the only signal: a Black stone is a solid disc, a White
    // stone a disc with an inner ring, and each is named in its title.
    const g = el("g", { "data-stone": black ? "black" : "white", "data-x": x, "data-y": y, "data-point": name });
    const c = el("circle", { cx, cy, r: cell * 0.46, fill: black ? "#111" : "#fafafa", stroke: "#111" });
    const t = el("title", {}); t.textContent = (black ? "Black" : "White") + " stone at " + name; c.append(t);
    g.append(c);
    if (!black) { const r = cell * 0.24; g.append(el("path", { d: `M ${cx - r} ${cy} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0`, fill: "none", stroke: "#111", "stroke-width": 1.5 })); }
    svg.append(g);
  }));
  if (last) {
    const ch = view.rows[last.y] && view.rows[last.y][last.x];
    svg.append(el("rect", { class: "last-move", "data-x": last.x, "data-y": last.y, x: pad + last.x * cell - 5, y: pad + last.y * cell - 5, width: 10, height: 10, fill: "none", stroke: ch === "X" ? "#fff" : "#b00020", "stroke-width": 2 }));
  }
  // Points forbidden to Black, as the server listed them: a cross and a
  // short label (3-3, 4-4, 6+), never colour alone.
  const LABEL = { double_three: "3-3", double_four: "4-4", overline: "6+" };
  for (const f of forbidden || []) {
    const m = f.point.match(/^([a-o])(\d+)$/);
    if (!m) continue;
    const x = names.letters.indexOf(m[1]), y = 15 - Number(m[2]), cx = pad + x * cell, cy = pad + y * cell, d = cell * 0.22;
    const g = el("g", { class: "forbidden", "data-point": f.point, "data-reason": f.reason });
    g.append(el("path", { d: `M ${cx - d} ${cy - d} L ${cx + d} ${cy + d} M ${cx - d} ${cy + d} L ${cx + d} ${cy - d}`, stroke: "#b00020", "stroke-width": 2.5 }));
    const lt = el("text", { x: cx, y: cy + cell * 0.5, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#7a0016", stroke: "#e3c07b", "stroke-width": 3, "paint-order": "stroke" }); lt.textContent = LABEL[f.reason] || f.reason;
    const t = el("title", {}); t.textContent = `Forbidden to Black at ${f.point}: ${f.reason.replace(/_/g, " ")}`;
    g.append(t, lt);
    svg.append(g);
  }
  const lastText = last && view.rows[last.y] ? `; last move: ${view.rows[last.y][last.x] === "X" ? "Black" : "White"} at ${names.point(last.x, last.y)}` : "";
  svg.setAttribute("aria-label", `Board, ${n} by ${n}, ${stones} stones${lastText}` + (forbidden ? `, ${forbidden.length} points forbidden to Black` : "") + "; the stones are listed under “Board as text”");
  return svg;
}

// Points named as the board shows them: Go as printed and in GTP (A-T
// without I, row 1 at the bottom), Renju as the RIF writes them (a-o, 1-15
// from the bottom).
function pointNames(n, renju) {
  const letters = renju ? "abcdefghijklmno" : "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  return { letters, point: (x, y) => letters[x] + (n - y) };
}

// The board in words, for a screen reader and for anyone reading it out:
// the last move, then each colour's stones, row by row from the top.
function boardText(view, last, names) {
  const n = view.rows.length;
  const of = (ch) => {
    const out = [];
    view.rows.forEach((row, y) => [...row].forEach((c, x) => { if (c === ch) out.push(names.point(x, y)); }));
    return out;
  };
  const list = (label, pts) => $("li", {}, `${label} (${pts.length}): `, pts.length ? pts.join(", ") : "none");
  const lastCh = last && view.rows[last.y] ? view.rows[last.y][last.x] : null;
  return $("div", { class: "board-text" },
    $("p", {}, last && lastCh ? `Last move: ${lastCh === "X" ? "Black" : "White"} at ${names.point(last.x, last.y)}.` : "No stone played yet."),
    $("ul", {}, list("Black stones", of("X")), list("White stones", of("O"))),
    $("p", { class: "muted" }, `Rows from ${n} (top) to 1 (bottom):`),
    $("ol", { class: "rows", reversed: "" }, ...view.rows.map((row, y) => $("li", { value: n - y },
      `Row ${n - y}: ` + ([...row].map((c, x) => c === "X" ? `${names.point(x, y)} black` : c === "O" ? `${names.point(x, y)} white` : null).filter(Boolean).join(", ") || "empty")))));
}

// Where a game page was asked to start: an event number, or a notice
// about the address.
function parseStart() {
  const m = location.pathname.match(/^\/games\/([^/]+)(?:\/at\/([^/]*))?\/?$/);
  if (!m) return null;
  const h = location.hash.match(/seq=([^&]*)/);
  return { id: decodeURIComponent(m[1]), at: m[2] !== undefined ? decodeURIComponent(m[2]) : h ? decodeURIComponent(h[1]) : undefined };
}

async function gamePage(id, atText) {
  const after = await feedCursor();
  let summary;
  try { summary = await api("/games/" + encodeURIComponent(id)); }
  catch (e) {
    if (e.status !== 404 && e.status !== 400) throw e;
    document.title = "kifu: no such game";
    document.getElementById("where").textContent = "No such game";
    main.replaceChildren(notice(`No game “${id}” in this store: ${e.message}. `, $("a", { href: "/" }, "See the games it holds.")));
    return;
  }
  const game = summary.game;
  await tournamentZone(summary.tournament);
  let story = await api("/games/" + game + "/explain");
  const place = summary.tournament ? `${summary.tournament.tournament} round ${summary.tournament.round} board ${summary.tournament.board}` : "";
  const named = [place, summary.title && summary.title !== summary.tournament?.tournament ? summary.title : ""].filter(Boolean).join(" · ");
  document.title = `kifu: ${summary.black} – ${summary.white}` + (place ? `, ${place}` : summary.title ? `, ${summary.title}` : "");
  document.getElementById("where").textContent = `${summary.black} – ${summary.white}` + (named ? `, ${named}` : "");
  const lastOf = () => story.events.length ? story.events[story.events.length - 1].seq : 0;
  let last = lastOf();
  // The event asked for: a number of the game, else the last event and a
  // notice saying why.
  let seq = last, startNotice = null;
  if (atText !== undefined && atText !== "") {
    const n = /^\d+$/.test(atText) ? Number(atText) : NaN;
    if (Number.isSafeInteger(n) && n <= last) seq = n;
    else if (/^\d+$/.test(atText)) startNotice = `There is no event ${atText}: the game has events 0 to ${last}. Showing event ${last}, the last.`;
    else startNotice = `“${atText}” is not an event number: the game has events 0 to ${last}. Showing event ${last}, the last.`;
  }
  const board = $("div", { id: "board" });
  const boardAsText = $("details", { id: "board-text" }, $("summary", {}, "Board as text"));
  const info = $("div", {});
  const casePanel = $("section", { id: "case", class: "case", "aria-labelledby": "case-h" });
  const timeline = $("ol", { class: "timeline", "aria-label": "Events", id: "timeline" });
  const status = $("p", { class: "status" });
  const notices = $("div", { id: "notices" }, startNotice ? notice(startNotice) : "");
  // The address follows the steps, keeping the page's options
  // (`?forbidden=1`, `?live=0`).
  const params = new URLSearchParams(location.search);
  const address = () => `/games/${game}${params.toString() ? "?" + params : ""}#seq=${seq}`;
  const step = (s) => {
    seq = Math.max(0, Math.min(last, s));
    notices.replaceChildren();
    history.replaceState(null, "", address());
    show();
  };
  const controls = $("div", { class: "controls" },
    $("button", { type: "button", onclick: () => step(0), "aria-label": "First event" }, "« First"),
    $("button", { type: "button", onclick: () => step(seq - 1), "aria-label": "Previous event" }, "‹ Previous"),
    $("button", { type: "button", onclick: () => step(seq + 1), "aria-label": "Next event" }, "Next ›"),
    $("button", { type: "button", onclick: () => step(last), "aria-label": "Last event" }, "Last »"),
    $("span", { id: "at" }),
    // What a screen reader says after each step: the event and its words.
    $("span", { id: "announce", class: "sr-only", "aria-live": "polite" }));
  const downloads = $("p", { class: "downloads" }, "Download: ",
    $("a", { href: `/games/${game}/archive`, download: game.slice(0, 12) + ".kifu", id: "archive-link" }, "archive"), " · ",
    $("a", { href: `/games/${game}/bundle`, download: game.slice(0, 12) + ".bundle", id: "bundle-link", hidden: "" }, "bundle (with the latest checkpoint)"), $("span", { id: "bundle-sep", hidden: "" }, " · "),
    $("a", { href: `/games/${game}/sgf`, download: game.slice(0, 12) + ".sgf" }, "SGF"), " · ",
    $("a", { href: `/games/${game}/explain.txt`, download: game.slice(0, 12) + "-explain.txt", id: "explain-txt" }, "explanation (text)"), " · ",
    $("a", { href: `/games/${game}/explain`, download: game.slice(0, 12) + "-explain.json" }, "explanation (JSON)"));
  const hashCode = $("code", { id: "state-hash" });
  const copied = $("span", { class: "muted", "aria-live": "polite" });
  const hash = $("p", { class: "hash" }, $("span", { id: "state-hash-label" }, "State hash at this event: "), hashCode, " ",
    $("button", { type: "button", id: "copy-hash", "aria-describedby": "state-hash-label", onclick: async () => {
      // The clipboard needs a secure context; selecting the text is the
      // fallback (Ctrl+C then copies it).
      try { await navigator.clipboard.writeText(hashCode.textContent); copied.textContent = "copied"; }
      catch { const r = document.createRange(); r.selectNodeContents(hashCode); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r); copied.textContent = "selected: press Ctrl+C"; }
    } }, "Copy"), " ", copied);
  const renjuGame = summary.kind === "renju";
  let showForbidden = params.get("forbidden") === "1";
  const toggle = renjuGame ? $("p", {}, $("label", {}, $("input", { type: "checkbox", id: "forbidden-toggle", ...(showForbidden ? { checked: "" } : {}),
    onchange: (e) => {
      showForbidden = e.target.checked;
      if (showForbidden) params.set("forbidden", "1"); else params.delete("forbidden");
      history.replaceState(null, "", address());
      show();
    } }), " show forbidden points for Black"),
    $("span", { class: "legend muted" }, " (✕ marked 3‑3: double-three, 4‑4: double-four, 6+: overline; RIF 9.2, 9.3)")) : "";
  main.replaceChildren(notices, $("div", { class: "replay" },
    $("section", { "aria-label": "Board", class: "board-side" }, board, controls, status, info, casePanel, hash, toggle, boardAsText, downloads),
    $("section", { "aria-labelledby": "timeline-h", class: "timeline-side" },
      $("h2", { id: "timeline-h" }, "Events"),
      $("p", { class: "muted zone", id: "zone" }, story.events.length
        ? `Times: from the first event (+m:ss), and the time of day in ${ZONE} (${ZONE_WHY}). The first event: ${dayAndTime.format(new Date(story.events[0].at_ms))}.`
        : ""),
      timeline)));
  // The bundle (the game with the latest checkpoint and its proof) needs
  // a server that signs checkpoints.
  const bundle = document.getElementById("bundle-link");
  // (The server says whether it signs them: no request is made to be refused.)
  api("/healthz").then(h => h.checkpoints ? api("/checkpoint").then(() => true) : false).then(signs => {
    if (!signs) return;
    bundle.hidden = false;
    document.getElementById("bundle-sep").hidden = false;
  }).catch(() => {}).finally(() => { bundle.dataset.asked = "checkpoint"; });

  // An event quotes each clause it rests on once; a second consequence
  // under the same words names the clause and points back.
  function renderTimeline() {
    const t0 = story.events.length ? story.events[0].at_ms : 0;
    const notable = new Map();
    for (const n of story.notable || []) notable.set(n.seq, [...(notable.get(n.seq) || []), n.why]);
    timeline.replaceChildren(...story.events.map(e => {
      const quoted = new Set();
      const why = notable.get(e.seq);
      const li = $("li", { "data-seq": e.seq, tabindex: 0, class: why ? "notable" : "", onclick: () => step(e.seq), onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); step(e.seq); } } },
        ...(why ? why.map(w => $("span", { class: "tag" }, w)) : []),
        $("b", {}, e.seq), " ",
        $("span", { class: "muted when" }, "+" + clockFace(e.at_ms - t0) + " · ", $("time", { datetime: new Date(e.at_ms).toISOString() }, timeOfDay.format(new Date(e.at_ms))), " "),
        e.signer, ": ", e.summary);
      for (const c of e.consequences || []) {
        const d = $("div", { class: "cons" }, "→ " + c.what + " [" + shortenCitations(c.rule) + "]");
        if (c.quote && !quoted.has(c.quote)) { quoted.add(c.quote); d.append($("q", {}, c.quote)); }
        else if (c.quote) d.append($("span", { class: "muted again" }, " (quoted above)"));
        li.append(d);
      }
      return li;
    }));
  }
  // The current event in view inside the timeline: the timeline scrolls,
  // never the page (on a phone the board and the buttons stay put).
  function keepInView(li) {
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    // An entry taller than the box shows its beginning.
    if (top < timeline.scrollTop || li.offsetHeight > timeline.clientHeight) timeline.scrollTop = top;
    else if (bottom > timeline.scrollTop + timeline.clientHeight) timeline.scrollTop = bottom - timeline.clientHeight;
  }
  async function show() {
    const want = seq, withForbidden = showForbidden;
    const st = await api(`/games/${game}/state?at=${want}&compact=1` + (withForbidden ? "&forbidden=1" : ""));
    // Stepping faster than the server answers: only the latest step draws.
    if (want !== seq || withForbidden !== showForbidden) return;
    const v = st.board;
    const renju = summary.kind !== "go";
    const names = v ? pointNames(renju ? 15 : v.size || v.rows.length, renju) : null;
    board.replaceChildren(v ? boardSvg(v, st.last_move, renju, withForbidden ? st.forbidden : null, names) : $("p", {}, "No board yet."));
    boardAsText.replaceChildren(boardAsText.firstChild, v ? boardText(v, st.last_move, names) : $("p", {}, "No board yet."));
    hashCode.textContent = st.state_hash || "–";
    copied.textContent = "";
    board.dataset.seq = want;
    board.dataset.forbidden = withForbidden ? "shown" : "hidden";
    document.getElementById("at").textContent = `event ${seq} of ${last}`;
    const ev = story.events.find(e => e.seq === want);
    document.getElementById("announce").textContent = `Event ${want} of ${last}` + (ev ? `: ${ev.signer}: ${ev.summary}` : "");
    const t = st.text || {};
    info.replaceChildren(
      $("p", {}, "Phase: ", shortenCitations(t.phase), t.to_move ? ` · to move: ${t.to_move}` : ""),
      v && v.black_prisoners !== undefined ? $("p", {}, `Prisoners: Black ${v.black_prisoners} (pass stones ${v.black_pass_stones}), White ${v.white_prisoners} (pass stones ${v.white_pass_stones})`) : "",
      $("p", { class: "clocks" },
        $("span", {}, "● Black " + (t.black_clock || "–") + (t.running === "Black" ? " (running)" : "")),
        $("span", {}, "○ White " + (t.white_clock || "–") + (t.running === "White" ? " (running)" : "")),
        t.paused ? $("span", {}, "paused " + t.paused) : ""),
      $("p", {}, "Result by the rules: ", t.result || "none yet"));
    casePanel.replaceChildren($("h2", { id: "case-h" }, `The case at event ${want}`),
      (st.case || []).length
        ? $("ul", { class: "case-lines" }, ...st.case.map(l => $("li", { class: /^(illegal|dispute|ruling|appeal|sanction|MISMATCH)/.test(l) ? "fact" : "" }, l)))
        : $("p", { class: "muted" }, "Nothing pointed out, disputed, ruled or sanctioned so far; no result yet."));
    status.replaceChildren(st.verified
      ? $("span", { class: "ok" }, "✔ verified: every link, signature and role checked by the server")
      : $("span", { class: "bad" }, "✘ the chain does NOT verify"));
    for (const li of timeline.children) li.setAttribute("aria-current", li.dataset.seq == seq ? "true" : "false");
    const cur = timeline.querySelector('[aria-current="true"]');
    if (cur) keepInView(cur);
  }
  // The arrow keys step, except while typing in a text field (a checkbox
  // or a button keeps them).
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && t.matches && t.matches("textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])")) return;
    if (e.key === "ArrowLeft") step(seq - 1); else if (e.key === "ArrowRight") step(seq + 1);
    else if (e.key === "Home") step(0); else if (e.key === "End") step(last);
    else return;
    e.preventDefault();
  });
  renderTimeline();
  await show();
  // Live: new records of this game add their events (only those: the
  // explanation of the events already shown is not fetched again). The
  // subscription starts from the feed cursor taken before the first load,
  // so a record stored meanwhile is not missed. (`?live=0` shows a still
  // page, for printing and screenshots.)
  if (params.get("live") === "0") return;
  const refresh = coalesce(async () => {
    const atEnd = seq === last;
    const more = await api(`/games/${game}/explain?after=${last}`);
    if (more.events.length) {
      story = { ...more, events: [...story.events, ...more.events] };
      last = lastOf();
      renderTimeline();
    }
    if (atEnd) seq = last;
    await show();
  }, liveFailed);
  const reload = coalesce(async () => {
    story = await api("/games/" + game + "/explain");
    last = lastOf();
    renderTimeline();
    await show();
  }, liveFailed);
  follow(after, (rec) => { if (rec === null) reload(); else if (rec.game === game) refresh(); });
}

(async () => {
  try {
    const start = parseStart();
    if (start) await gamePage(start.id, start.at);
    else await listPage();
  } catch (e) {
    main.replaceChildren(notice("Error: " + e.message));
  }
})();
