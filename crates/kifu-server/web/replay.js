"use strict";
const $ = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
};
const api = async (path) => {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  const v = await r.json();
  if (!r.ok) throw new Error(v.error ? v.error.message : r.statusText);
  return v;
};
const main = document.getElementById("main");
const NOTABLE = ["illegal", "irregular", "dispute", "referee", "ruling", "judgement", "protest", "appeal", "committee", "sanction", "warning", "forfeit"];

async function listPage() {
  document.title = "kifu: games";
  const q = new URLSearchParams(location.search);
  const form = $("form", { class: "filters", role: "search" },
    $("label", {}, "Tournament ", $("input", { name: "tournament", value: q.get("tournament") || "" })),
    $("label", {}, "Round ", $("input", { name: "round", size: 3, value: q.get("round") || "" })),
    $("label", {}, "Player ", $("input", { name: "player", value: q.get("player") || "" })),
    $("button", { type: "submit" }, "Filter"));
  const params = new URLSearchParams([...q].filter(([, v]) => v));
  const tbody = $("tbody", { id: "games" });
  const refresh = async () => {
    const { games } = await api("/games?" + params);
    tbody.replaceChildren(...games.map(g => $("tr", { "data-game": g.game },
      $("td", {}, g.tournament ? g.tournament.tournament : ""),
      $("td", {}, g.tournament ? g.tournament.round : ""),
      $("td", {}, g.tournament ? g.tournament.board : ""),
      $("td", {}, $("a", { href: "/games/" + g.game }, (g.black || "?") + " – " + (g.white || "?"))),
      $("td", {}, g.ruleset || ""),
      $("td", {}, g.phase_text || phaseText(g.phase)),
      $("td", {}, g.result || ""))));
  };
  await refresh();
  main.replaceChildren(form, $("table", {},
    $("caption", { class: "muted" }, "Games in this store; new games and moves appear as they are recorded."),
    $("thead", {}, $("tr", {}, ...["Tournament", "Round", "Board", "Players", "Ruleset", "Phase", "Result"].map(h => $("th", { scope: "col" }, h)))),
    tbody));
  // Live: any new record may add a game or change a phase or result; a
  // burst of records gives one refresh.
  if (q.get("live") === "0") return;
  await follow(coalesce(refresh));
}

// One run of `work` at a time, and one more after it if anything asked
// meanwhile: a burst of records gives at most two fetches, the last one
// seeing them all.
function coalesce(work) {
  let busy = false, again = false;
  return async function trigger() {
    if (busy) { again = true; return; }
    busy = true;
    try { do { again = false; await work(); } while (again); }
    catch (e) { main.prepend($("p", { class: "bad", role: "alert" }, "Live update failed: " + e.message)); }
    finally { busy = false; }
  };
}

// Follows the feed from its current end; `onRecord` gets each new record.
async function follow(onRecord) {
  const h = await api("/healthz");
  const es = new EventSource("/feed/stream" + (h.next_cursor > 0 ? "?after=" + (h.next_cursor - 1) : ""));
  es.onmessage = (m) => onRecord(JSON.parse(m.data));
  return es;
}

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

// A time as a clock face: `1:05`, `1:02:03` (the replay JSON's `text`
// object carries the clocks themselves, worded as `kifu replay` words them).
function clockFace(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// The last stone played that still stands, as {x, y} from the top left:
// from the Go board's operations, or the Renju engine's inputs (points in
// RIF notation, row 1 at the bottom).
function lastMove(b) {
  if (b.game === "renju") {
    const p = (b.inputs || []).map(i => i[1]).filter(i => i && i.input === "play" && i.point).pop();
    const m = p && p.point.match(/^([a-o])(\d+)$/);
    return m ? { x: m[1].charCodeAt(0) - 97, y: 15 - Number(m[2]) } : null;
  }
  const o = (b.ops || []).filter(o => o.op === "move" && o.point).pop();
  return o ? o.point : null;
}

function boardSvg(view, last, renju, forbidden) {
  const n = renju ? 15 : view.size, cell = 30, pad = 36, size = pad * 2 + cell * (n - 1);
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "board", role: "img" });
  // As the board shows them: Go as printed and in GTP (A-T without I, row 1
  // at the bottom), Renju as the RIF writes them (a-o, 1-15 from the bottom).
  const letters = renju ? "abcdefghijklmno" : "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  const label = (x, y) => letters[x] + (n - y);
  for (let i = 0; i < n; i++) {
    const p = pad + i * cell;
    svg.append(el("line", { x1: pad, y1: p, x2: pad + cell * (n - 1), y2: p, stroke: "#333" }));
    svg.append(el("line", { x1: p, y1: pad, x2: p, y2: pad + cell * (n - 1), stroke: "#333" }));
    const top = el("text", { x: p, y: 16, "text-anchor": "middle", "font-size": 12 }); top.textContent = letters[i]; svg.append(top);
    const left = el("text", { x: 12, y: p + 4, "text-anchor": "middle", "font-size": 12 }); left.textContent = String(n - i); svg.append(left);
  }
  let stones = 0;
  view.rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch !== "X" && ch !== "O") return;
    stones++;
    const black = ch === "X";
    const cx = pad + x * cell, cy = pad + y * cell, name = label(x, y);
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
    const x = letters.indexOf(m[1]), y = 15 - Number(m[2]), cx = pad + x * cell, cy = pad + y * cell, d = cell * 0.22;
    const g = el("g", { class: "forbidden", "data-point": f.point, "data-reason": f.reason });
    g.append(el("path", { d: `M ${cx - d} ${cy - d} L ${cx + d} ${cy + d} M ${cx - d} ${cy + d} L ${cx + d} ${cy - d}`, stroke: "#b00020", "stroke-width": 2.5 }));
    const lt = el("text", { x: cx, y: cy + cell * 0.5, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#7a0016", stroke: "#e3c07b", "stroke-width": 3, "paint-order": "stroke" }); lt.textContent = LABEL[f.reason] || f.reason;
    const t = el("title", {}); t.textContent = `Forbidden to Black at ${f.point}: ${f.reason.replace(/_/g, " ")}`;
    g.append(t, lt);
    svg.append(g);
  }
  svg.setAttribute("aria-label", `Board, ${n} by ${n}, ${stones} stones` + (forbidden ? `, ${forbidden.length} points forbidden to Black` : ""));
  return svg;
}

async function gamePage(id, startSeq) {
  const summary = await api("/games/" + id);
  let story = await api("/games/" + id + "/explain");
  const game = summary.game;
  document.title = `kifu: ${summary.black} – ${summary.white}` + (summary.tournament ? `, ${summary.tournament.tournament} round ${summary.tournament.round} board ${summary.tournament.board}` : summary.title ? `, ${summary.title}` : "");
  document.getElementById("where").textContent = document.title.slice(6);
  let last = story.events.length ? story.events[story.events.length - 1].seq : 0;
  let seq = Math.min(startSeq ?? last, last);
  const board = $("div", { id: "board" });
  const info = $("div", {});
  const timeline = $("ol", { class: "timeline", "aria-label": "Events" });
  const status = $("p", { class: "status" });
  const step = (s) => { seq = Math.max(0, Math.min(last, s)); history.replaceState(null, "", `/games/${game}#seq=${seq}`); show(); };
  const controls = $("div", { class: "controls" },
    $("button", { onclick: () => step(0), "aria-label": "First event" }, "« First"),
    $("button", { onclick: () => step(seq - 1), "aria-label": "Previous event" }, "‹ Prev"),
    $("button", { onclick: () => step(seq + 1), "aria-label": "Next event" }, "Next ›"),
    $("button", { onclick: () => step(last), "aria-label": "Last event" }, "Last »"),
    $("span", { id: "at", "aria-live": "polite" }));
  const downloads = $("p", {}, "Download: ",
    $("a", { href: `/games/${game}/archive`, download: game.slice(0, 12) + ".kifu" }, "archive"), " · ",
    $("a", { href: `/games/${game}/sgf`, download: game.slice(0, 12) + ".sgf" }, "SGF"), " · ",
    $("a", { href: `/games/${game}/explain.txt`, download: game.slice(0, 12) + "-explain.txt", id: "explain-txt" }, "explanation (text)"), " · ",
    $("a", { href: `/games/${game}/explain`, download: game.slice(0, 12) + "-explain.json" }, "explanation (JSON)"));
  const hashCode = $("code", { id: "state-hash" });
  const copied = $("span", { class: "muted", "aria-live": "polite" });
  const hash = $("p", { class: "hash" }, $("label", { for: "state-hash" }, "State hash at this event: "), hashCode, " ",
    $("button", { type: "button", id: "copy-hash", onclick: async () => {
      // The clipboard needs a secure context; selecting the text is the
      // fallback (Ctrl+C then copies it).
      try { await navigator.clipboard.writeText(hashCode.textContent); copied.textContent = "copied"; }
      catch { const r = document.createRange(); r.selectNodeContents(hashCode); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r); copied.textContent = "selected: press Ctrl+C"; }
    } }, "Copy"), " ", copied);
  const renjuGame = summary.kind === "renju";
  let showForbidden = new URLSearchParams(location.search).get("forbidden") === "1";
  const toggle = renjuGame ? $("p", {}, $("label", {}, $("input", { type: "checkbox", id: "forbidden-toggle", ...(showForbidden ? { checked: "" } : {}),
    onchange: (e) => { showForbidden = e.target.checked; show(); } }), " show forbidden points for Black"),
    $("span", { class: "legend muted" }, " (✕ marked 3‑3: double-three, 4‑4: double-four, 6+: overline; RIF 9.2, 9.3)")) : "";
  main.replaceChildren($("div", { class: "replay" },
    $("section", { "aria-label": "Board" }, board, controls, status, hash, toggle, info, downloads),
    $("section", { "aria-label": "Timeline" }, timeline)));
  function renderTimeline() {
    const t0 = story.events.length ? story.events[0].at_ms : 0;
    timeline.replaceChildren(...story.events.map(e => {
      const notable = NOTABLE.some(w => (e.kind + " " + e.summary).toLowerCase().includes(w));
      const li = $("li", { "data-seq": e.seq, tabindex: 0, class: notable ? "notable" : "", onclick: () => step(e.seq), onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); step(e.seq); } } },
        notable ? $("span", { class: "tag" }, e.kind.replace(/_/g, " ")) : "",
        $("b", {}, e.seq), " ", $("span", { class: "muted" }, "+" + clockFace(e.at_ms - t0) + " "),
        e.signer, ": ", e.summary);
      for (const c of e.consequences || []) {
        const d = $("div", { class: "cons" }, "→ " + c.what + " [" + c.rule + "]");
        if (c.quote) d.append($("q", {}, c.quote));
        li.append(d);
      }
      return li;
    }));
  }
  async function show() {
    const want = seq, withForbidden = showForbidden;
    const st = await api(`/games/${game}/state?at=${want}` + (withForbidden ? "&forbidden=1" : ""));
    // Stepping faster than the server answers: only the latest step draws.
    if (want !== seq || withForbidden !== showForbidden) return;
    const s = st.state, v = st.board_view;
    const b = s.board || {}, renju = b.game === "renju";
    board.replaceChildren(v ? boardSvg(v, lastMove(b), renju, withForbidden ? st.forbidden : null) : $("p", {}, "No board yet."));
    hashCode.textContent = st.view && st.view.state_hash ? st.view.state_hash : "–";
    copied.textContent = "";
    board.dataset.seq = want;
    board.dataset.forbidden = withForbidden ? "shown" : "hidden";
    document.getElementById("at").textContent = `event ${seq} of ${last}`;
    const t = st.text || {};
    info.replaceChildren(
      $("p", {}, "Phase: ", t.phase, t.to_move ? ` · to move: ${t.to_move}` : ""),
      v && v.black_prisoners !== undefined ? $("p", {}, `Prisoners: Black ${v.black_prisoners} (pass stones ${v.black_pass_stones}), White ${v.white_prisoners} (pass stones ${v.white_pass_stones})`) : "",
      $("p", { class: "clocks" },
        $("span", {}, "● Black " + (t.black_clock || "–") + (t.running === "Black" ? " (running)" : "")),
        $("span", {}, "○ White " + (t.white_clock || "–") + (t.running === "White" ? " (running)" : "")),
        t.paused ? $("span", {}, "paused " + t.paused) : ""),
      $("p", {}, "Result by the rules: ", t.result || "none yet"));
    status.replaceChildren(st.verified
      ? $("span", { class: "ok" }, "✔ verified: every link, signature and role checked by the server")
      : $("span", { class: "bad" }, "✘ the chain does NOT verify"));
    for (const li of timeline.children) li.setAttribute("aria-current", li.dataset.seq == seq ? "true" : "false");
    const cur = timeline.querySelector('[aria-current="true"]');
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") step(seq - 1); else if (e.key === "ArrowRight") step(seq + 1);
    else if (e.key === "Home") step(0); else if (e.key === "End") step(last);
  });
  renderTimeline();
  await show();
  // Live: the feed stream names every new record; refresh when it is this
  // game's. (`?live=0` shows a still page, for printing and screenshots.)
  if (new URLSearchParams(location.search).get("live") === "0") return;
  const refresh = coalesce(async () => {
    const atEnd = seq === last;
    story = await api("/games/" + game + "/explain");
    last = story.events.length ? story.events[story.events.length - 1].seq : 0;
    renderTimeline();
    if (atEnd) seq = last;
    await show();
  });
  await follow((rec) => { if (rec.game === game) refresh(); });
}

(async () => {
  try {
    const m = location.pathname.match(/^\/games\/([0-9a-fA-F]+)(?:\/at\/(\d+))?\/?$/);
    const h = location.hash.match(/seq=(\d+)/);
    if (m) await gamePage(m[1], m[2] ? Number(m[2]) : h ? Number(h[1]) : undefined);
    else await listPage();
  } catch (e) {
    main.replaceChildren($("p", { class: "bad", role: "alert" }, "Error: " + e.message));
  }
})();
