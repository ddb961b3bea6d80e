// The hall's screen: a tournament's pairings, results grid and standings,
// read from the server's JSON (docs/API.md, "Tournaments") and reloaded
// whenever /tournaments/{t}/events says the tournament changed. Every
// number comes from the server; this page only lays them out.

import { stream } from "/web/live.js";
import { $, api, coalesce, watchPolicy } from "/web/page.js";

// 95.5 → "95½", 0.25 → "¼": how the EGD table and OpenGotha print them.
export const glyphs = (n) => {
  const neg = n < 0;
  const q = Math.round(Math.abs(n) * 4);
  const whole = Math.floor(q / 4);
  const frac = ["", "¼", "½", "¾"][q % 4];
  const text = (whole === 0 && frac ? "" : String(whole)) + frac;
  return (neg ? "−" : "") + text;
};

const main = document.getElementById("main");
const title = document.getElementById("title");
const sub = document.getElementById("sub");
const nav = document.getElementById("views");
const roundSelect = document.getElementById("round");
const live = document.getElementById("live");

const path = location.pathname.replace(/\/+$/, "").split("/");
const tournament = path[1] === "hall" && path[2] ? decodeURIComponent(path[2]) : null;

const VIEWS = ["pairings", "crosstable", "standings"];
const state = { view: "pairings", round: null, summary: null, open: new Set() };

function readAddress() {
  const q = new URLSearchParams(location.search);
  state.view = VIEWS.includes(q.get("view")) ? q.get("view") : "pairings";
  const r = parseInt(q.get("round") || "", 10);
  state.round = Number.isInteger(r) && r > 0 ? r : null;
}

function address(view, round) {
  const q = new URLSearchParams();
  q.set("view", view);
  if (round) q.set("round", String(round));
  return "?" + q.toString();
}

function go(view, round) {
  history.pushState(null, "", address(view, round));
  readAddress();
  render().catch(showError);
}

function showError(e) {
  main.replaceChildren($("p", { class: "error", role: "alert" }, e.message || String(e)));
}
watchPolicy((words) => main.prepend($("p", { class: "error", role: "alert" }, words)));

function playerCell(p) {
  return [p.name || p.id, $("span", { class: "rank" }, p.rank || "")];
}

async function listPage() {
  document.title = "kifu: tournaments";
  const { tournaments } = await api("/tournaments");
  if (!tournaments.length) {
    main.replaceChildren($("p", {}, "No tournament is kept here yet."));
    return;
  }
  main.replaceChildren(
    $("h2", {}, "Tournaments"),
    $("ul", { class: "list" }, ...tournaments.map((t) =>
      $("li", {},
        $("a", { href: "/hall/" + encodeURIComponent(t.short_name) }, t.name),
        " ",
        $("span", { class: "muted" },
          [t.city, t.start].filter(Boolean).join(", ") +
          ` · ${t.players} players · round ${t.last_round || 0} of ${t.rounds}`)))));
}

function fillRounds(s) {
  const shown = state.round || Math.max(1, s.last_round);
  roundSelect.replaceChildren(...Array.from({ length: s.rounds }, (_, i) =>
    $("option", { value: i + 1, selected: i + 1 === shown }, `${i + 1}`)));
  for (const a of nav.querySelectorAll("a[data-view]")) {
    a.setAttribute("href", address(a.dataset.view, state.round));
    if (a.dataset.view === state.view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function pairingsView(doc) {
  const rows = doc.boards.map((b) => {
    const pending = !b.result;
    return $("tr", { "data-board": b.board },
      $("td", { class: "num" }, b.board),
      $("td", { "data-player": b.white.id }, ...playerCell(b.white)),
      $("td", { "data-player": b.black.id }, ...playerCell(b.black)),
      $("td", { class: "num" }, b.handicap || ""),
      $("td", {
        class: "result" + (pending ? " pending" : "") + (b.from_game_record ? " provisional" : ""),
        "data-result": b.result,
        "data-from-game-record": b.from_game_record ? "true" : "false",
      },
        pending ? "playing" : b.result + (b.by_default ? " (by default)" : ""),
        b.from_game_record ? $("span", { class: "note" }, " game record, not yet counted") : null),
      $("td", { class: "note" }, b.colours_known ? "" : "colours not noted"));
  });
  const extra = [];
  if (doc.byes.length) extra.push($("p", {}, "Bye: " + doc.byes.map((p) => p.name).join(", ")));
  if (doc.absent.length) extra.push($("p", {}, "Absent: " + doc.absent.map((p) => p.name).join(", ")));
  return [
    $("h2", {}, `Round ${doc.round}: pairings`),
    doc.boards.length
      ? $("div", { class: "wide" }, $("table", { id: "pairings" },
          $("thead", {}, $("tr", {},
            $("th", { class: "num", scope: "col" }, "Board"),
            $("th", { scope: "col" }, "White"),
            $("th", { scope: "col" }, "Black"),
            $("th", { class: "num", scope: "col" }, "Handicap"),
            $("th", { scope: "col" }, "Result"),
            $("th", { scope: "col" }, "Note"))),
          $("tbody", {}, ...rows)))
      : $("p", {}, "This round is not paired yet."),
    ...extra,
  ];
}

function crossView(doc) {
  const rounds = doc.rows.length ? doc.rows[0].rounds.length : doc.round;
  const head = $("tr", {},
    $("th", { class: "num", scope: "col" }, "#"),
    $("th", { class: "num", scope: "col" }, "Pl"),
    $("th", { scope: "col" }, "Name"),
    $("th", { scope: "col", class: "opt" }, "Club"),
    ...Array.from({ length: rounds }, (_, i) => $("th", { scope: "col" }, `R${i + 1}`)),
    ...doc.criteria.map((c) => $("th", { class: "num", scope: "col" }, c)));
  const body = doc.rows.map((r, k) => {
    const shared = k > 0 && doc.rows[k - 1].place === r.place;
    return $("tr", { "data-player": r.player.id },
      $("td", { class: "num" }, k + 1),
      $("td", { class: "num" }, shared ? "" : r.place),
      $("td", {}, ...playerCell(r.player)),
      $("td", { class: "opt" }, r.player.club || ""),
      ...r.rounds.map((c) => $("td", {
        class: "cell" + (c.outcome === "win" || c.outcome === "both win" ? " win" : ""),
        title: c.opponent ? `round ${c.round}: ${c.outcome} against row ${c.opponent_row}` : `round ${c.round}: ${c.outcome}`,
      }, c.entry)),
      ...r.values.map((v, i) => $("td", { class: "num", "data-criterion": doc.criteria[i], "data-value": v }, glyphs(v))));
  });
  return [
    $("h2", {}, `Results after round ${doc.round}`),
    $("div", { class: "wide" }, $("table", { id: "crosstable" }, $("thead", {}, head), $("tbody", {}, ...body))),
    $("p", { class: "note" }, "Each round: the opponent's row, + win, − loss, = jigo, ? no result yet; / over the board, ! by default; w White, b Black, ? colours not noted; the handicap. 0+, 0=, 0− a round without a game."),
  ];
}

function breakdownBox(player, b, names) {
  const rows = b.parts.map((p) => $("tr", { class: p.counted ? "" : "dropped" },
    $("td", { class: "num" }, p.round),
    $("td", {}, p.opponent ? (names[p.opponent] || p.opponent) : "—"),
    $("td", {}, p.colour || ""),
    $("td", { class: "num" }, p.handicap || ""),
    $("td", {}, p.outcome + (p.by_default ? " (by default)" : "")),
    $("td", { class: "num", "data-part": p.value }, glyphs(p.value) + (p.counted ? "" : " (not counted)"))));
  const sum = [];
  if (b.base) sum.push(`start ${glyphs(b.base)}`);
  if (b.adjustment) sum.push(`rounded ${glyphs(b.adjustment)}`);
  return $("div", { class: "breakdown" },
    $("p", {}, $("strong", {}, `${b.criterion} ${glyphs(b.value)}`), ": ", b.rule,
      sum.length ? ` (${sum.join(", ")})` : ""),
    $("table", {},
      $("thead", {}, $("tr", {},
        ...["Round", "Opponent", "Colour", "Handicap", "Result", "Counts"].map((h) => $("th", { scope: "col" }, h)))),
      $("tbody", {}, ...rows)));
}

function standingsView(doc) {
  const names = Object.fromEntries(Object.entries(doc.players).map(([id, p]) => [id, p.name]));
  const cols = doc.criteria.length + 4;
  const body = [];
  doc.table.forEach((r, k) => {
    const p = doc.players[r.player];
    const shared = k > 0 && doc.table[k - 1].place === r.place;
    const detailRow = $("tr", { class: "detail", hidden: true },
      $("td", { colspan: cols, id: `bd-${k}` }));
    const cells = doc.criteria.map((c, i) => {
      const v = r.values[c];
      const key = r.player + "\u0000" + c;
      const id = `bd-${k}`;
      const button = $("button", {
        type: "button", class: "val", "aria-expanded": "false", "aria-controls": id,
        "aria-label": `${c} ${glyphs(v)} of ${p ? p.name : r.player}: how it was computed`,
      }, glyphs(v));
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") === "true";
        const row = button.closest("tr");
        for (const other of row.querySelectorAll("button.val")) other.setAttribute("aria-expanded", "false");
        if (open) {
          detailRow.hidden = true;
          state.open.delete(key);
        } else {
          const bd = (doc.breakdown[r.player] || [])[i];
          detailRow.firstChild.replaceChildren(bd ? breakdownBox(r.player, bd, names) : "");
          detailRow.hidden = false;
          button.setAttribute("aria-expanded", "true");
          for (const k2 of [...state.open]) if (k2.startsWith(r.player + "\u0000")) state.open.delete(k2);
          state.open.add(key);
        }
      });
      if (state.open.has(key)) queueMicrotask(() => button.click());
      return $("td", { class: "num", "data-criterion": c, "data-value": v }, button);
    });
    body.push($("tr", { "data-player": r.player, "data-place": r.place },
      $("td", { class: "num" }, shared ? "" : r.place),
      $("td", {}, p ? p.name : r.player),
      $("td", {}, p ? p.rank : ""),
      $("td", { class: "opt" }, p ? [p.country, p.club].filter(Boolean).join(" ") : ""),
      ...cells));
    body.push(detailRow);
  });
  return [
    $("h2", {}, `Standings after round ${doc.round}`),
    $("div", { class: "wide" }, $("table", { id: "standings" },
      $("thead", {}, $("tr", {},
        $("th", { class: "num", scope: "col" }, "Pl"),
        $("th", { scope: "col" }, "Name"),
        $("th", { scope: "col" }, "Rank"),
        $("th", { scope: "col", class: "opt" }, "Country, club"),
        ...doc.criteria.map((c) => $("th", { class: "num", scope: "col" }, c)))),
      $("tbody", {}, ...body))),
    $("p", { class: "note" }, "Select a value to see the opponents and results it was computed from."),
  ];
}

async function render() {
  const s = await api("/tournaments/" + encodeURIComponent(tournament));
  state.summary = s;
  title.textContent = s.name;
  sub.textContent = [s.city, [s.start, s.finish].filter(Boolean).join(" – ")].filter(Boolean).join(", ");
  document.title = `${s.name}: ${state.view === "crosstable" ? "results" : state.view}`;
  fillRounds(s);
  nav.hidden = false;
  if (s.last_round === 0) {
    main.replaceChildren($("p", {}, "No round is paired yet."));
    return;
  }
  const round = state.round || s.last_round;
  const q = "?round=" + round;
  const base = "/tournaments/" + encodeURIComponent(tournament);
  let kids;
  if (state.view === "crosstable") kids = crossView(await api(base + "/crosstable" + q));
  else if (state.view === "standings") kids = standingsView(await api(base + "/standings" + q));
  else kids = pairingsView(await api(base + "/pairings" + q));
  main.replaceChildren(...kids);
  main.dataset.round = String(round);
  main.dataset.view = state.view;
  main.dataset.seq = String(s.seq);
}

// One reload at a time; a change during a reload asks for one more.
const refresh = coalesce(render, showError);

function follow() {
  stream(() => "/tournaments/" + encodeURIComponent(tournament) + "/events", {
    change: () => { live.textContent = "Live"; refresh(); },
    open: () => { live.textContent = "Live"; },
    error: () => { live.textContent = "Reconnecting…"; },
  }, { events: ["change"] });
}

if (tournament) {
  readAddress();
  roundSelect.addEventListener("change", () => go(state.view, parseInt(roundSelect.value, 10)));
  nav.addEventListener("click", (e) => {
    const a = e.target.closest("a[data-view]");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    go(a.dataset.view, state.round);
  });
  document.getElementById("print").addEventListener("click", () => window.print());
  window.addEventListener("popstate", () => { readAddress(); refresh(); });
  refresh();
  follow();
} else {
  listPage().catch(showError);
}
