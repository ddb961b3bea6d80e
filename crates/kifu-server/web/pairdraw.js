// "Pair round N" at the director's desk: the pairing engine's draw of the
// round shown, with why each board is paired as it is (the two players'
// scores and their difference, their colours so far, the handicap and how
// it came), and the bye with why. The director may swap two players (of
// two boards, a board and the bye, or one board's colours), each swap with
// a reason in words, then sign. The page holds no rule: every draw, swap
// and explanation is the server's answer to POST /director/draft
// {"do": "pair_auto", "tournament", "round", "swaps"}, drawn by the
// library the command line uses (`kifu tournament pair --auto --swap
// FIRST:SECOND --reason WORDS`); the swaps and their reasons are signed
// into the chain with the round (`round_drawn`).

import { $ } from "/web/page.js";

/**
 * Mounts the section before `#pair-form`. `act(intent, what)` drafts,
 * signs and submits (the desk's own); `post(path, body)` asks the server;
 * `say(text, ok)` writes to the desk's messages; `tournament()` and
 * `round()` are the tournament and round the desk shows.
 */
export function pairDraw({ act, post, say, tournament, round }) {
  const ids = (s) => `pair-draw-${s}`;
  const button = $("button", { type: "button", id: ids("show"), class: "sign" });
  const table = $("table", { id: ids("table") },
    $("thead", {}, $("tr", {},
      $("th", { scope: "col" }, "Table"), $("th", { scope: "col" }, "White"), $("th", { scope: "col" }, "Black"),
      $("th", { scope: "col" }, "Hc"), $("th", { scope: "col" }, $("span", { class: "visually-hidden" }, "Colours")))),
    $("tbody", { id: ids("rows") }));
  const bye = $("p", { id: ids("bye") });
  const first = $("select", { name: "first", required: true });
  const second = $("select", { name: "second", required: true });
  const reason = $("input", { name: "reason", required: true, placeholder: "why, in words: it is signed into the chain", autocomplete: "off" });
  const swapForm = $("form", { id: ids("swap"), class: "grid" },
    $("label", {}, "Swap", first), $("label", {}, "with", second), $("label", { class: "reason" }, "Reason", reason),
    $("button", { type: "submit", id: ids("swap-add") }, "Swap"));
  const swapList = $("ul", { id: ids("swaps") });
  const sign = $("button", { type: "button", id: ids("sign"), class: "sign" });
  const discard = $("button", { type: "button", id: ids("discard") }, "Discard");
  const result = $("div", { id: ids("result"), hidden: true },
    $("p", { id: ids("head"), class: "muted" }), table, bye,
    $("p", { class: "muted" }, "Tap two players (or a board's colours) to swap them; the reason is signed with the round."),
    swapForm, swapList, $("p", {}, sign, " ", discard));
  const section = $("section", { id: "pair-draw", class: "pair-draw", "aria-labelledby": ids("title") },
    $("h4", { id: ids("title") }, "Pair with the engine"),
    $("p", {}, button, " ", $("span", { class: "muted" }, "the draw OpenGotha 3.51.02's rules give, with why, before anything is signed")),
    result);
  const anchor = document.getElementById("pair-form");
  anchor.parentNode.insertBefore(section, anchor);

  // What is shown: the draft for (tournament, round, swaps).
  let state = null;
  let pick = 0; // the next tap fills `first` (0) or `second` (1)

  const label = () => {
    button.textContent = `Pair round ${round()}`;
    sign.textContent = `Sign round ${state ? state.round : round()}`;
  };
  const close = () => {
    state = null;
    result.hidden = true;
    label();
  };

  let scoreName = ""; // MMS, or NBW in Swiss
  const who = (p) => `${p.name} (${p.id}) ${p.rank} · ${scoreName} ${p.score}`;
  const colours = (p) => (p.colours.length ? p.colours.join(" ") : "none yet");
  const choose = (id) => {
    (pick === 0 ? first : second).value = id;
    pick = 1 - pick;
    if (pick === 0) reason.focus();
  };
  const player = (p, seat) => $("button", { type: "button", class: "player", "data-player": p.id, "aria-label": `${seat} ${who(p)}: choose for a swap`, onclick: () => choose(p.id) }, who(p));

  function render(draft) {
    const d = draft.draw;
    const score = d.score;
    scoreName = score;
    document.getElementById(ids("head")).textContent =
      `Round ${d.round} drawn by ${d.engine}${d.swaps.length ? `, with ${d.swaps.length} ${d.swaps.length === 1 ? "swap" : "swaps"}` : ""}; ${d.boards.length} ${d.boards.length === 1 ? "board" : "boards"}. Nothing is signed yet.`;
    const rows = [];
    for (const b of d.boards) {
      const cls = b.changed ? "changed" : "";
      rows.push($("tr", { class: cls, "data-table": b.table },
        $("td", {}, b.table), $("td", {}, player(b.white, "White")), $("td", {}, player(b.black, "Black")), $("td", {}, b.handicap || ""),
        $("td", {}, b.handicap ? "" : $("button", { type: "button", class: "colours", "data-table": b.table, "aria-label": `swap the colours of table ${b.table}`,
          onclick: () => { first.value = b.white.id; second.value = b.black.id; pick = 0; reason.focus(); } }, "⇄"))));
      rows.push($("tr", { class: `why ${cls}`, "data-why": b.table },
        $("td", { colspan: 5 },
          $("span", {}, `${score} ${b.white.score} against ${b.black.score}: difference ${b.score_difference}`),
          b.met_before ? $("span", {}, ` · met ${b.met_before} ${b.met_before === 1 ? "time" : "times"} before`) : "",
          $("br"), $("span", {}, `colours so far: ${b.white.id} ${colours(b.white)} · ${b.black.id} ${colours(b.black)}`),
          $("br"), $("span", {}, `handicap: ${b.handicap_why}`),
          b.reasons.length ? [$("br"), $("strong", { class: "reason" }, `changed: ${b.reasons.join("; ")}`)] : "")));
    }
    document.getElementById(ids("rows")).replaceChildren(...rows);
    bye.replaceChildren(...(d.bye_why
      ? [$("strong", {}, "Bye: "), player(d.bye_why.player, "Bye"), ` — ${d.bye_why.why}`,
        d.bye_changed ? $("strong", { class: "reason" }, " (changed by a swap)") : ""]
      : ["No bye: an even number to pair."]));
    const seats = [];
    for (const b of d.boards) seats.push([b.white.id, `table ${b.table} White: ${b.white.id}`], [b.black.id, `table ${b.table} Black: ${b.black.id}`]);
    if (d.bye) seats.push([d.bye, `bye: ${d.bye}`]);
    for (const sel of [first, second]) {
      const was = sel.value;
      sel.replaceChildren($("option", { value: "" }, "—"), ...seats.map(([id, text]) => $("option", { value: id }, text)));
      sel.value = seats.some(([id]) => id === was) ? was : "";
    }
    swapList.replaceChildren(...d.swaps.map((s, i) => $("li", {},
      `${s.first} and ${s.second}: ${s.reason} `,
      $("button", { type: "button", class: "undo", "aria-label": `undo the swap of ${s.first} and ${s.second}`, onclick: () => draw(d.swaps.filter((_, k) => k !== i)) }, "Undo"))));
    result.hidden = false;
    label();
  }

  /** Asks for the draw of the round shown with `swaps`. */
  async function draw(swaps) {
    const t = tournament();
    const r = state && state.tournament === t ? state.round : round();
    let draft;
    try {
      draft = await post("/director/draft", { do: "pair_auto", tournament: t, round: r, swaps });
    } catch (e) {
      say(`pairing round ${r}: ${e.message}`, false);
      return false;
    }
    // Another tournament was chosen meanwhile.
    if (t !== tournament()) return false;
    state = { tournament: t, round: r, swaps };
    render(draft);
    return true;
  }

  button.addEventListener("click", () => { state = null; pick = 0; draw([]); });
  swapForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!state) return;
    const s = { first: first.value, second: second.value, reason: reason.value.trim() };
    if (await draw([...state.swaps, s])) {
      say(`round ${state.round}: ${s.first} and ${s.second} swapped (${s.reason}); not signed yet`, true);
      reason.value = "";
      first.value = "";
      second.value = "";
      pick = 0;
    }
  });
  sign.addEventListener("click", async () => {
    if (!state) return;
    sign.disabled = true;
    try {
      const r = await act({ do: "pair_auto", tournament: state.tournament, round: state.round, swaps: state.swaps }, `round ${state.round} drawn by the engine`);
      if (r) close();
    } finally {
      sign.disabled = false;
    }
  });
  discard.addEventListener("click", close);
  // Another round or tournament shown: the draw of the one before goes.
  document.getElementById("round").addEventListener("change", close);
  document.getElementById("tournament").addEventListener("change", close);
  // The desk marks each redraw on the body (`data-seq`): the button names
  // the round it shows.
  new MutationObserver(label).observe(document.body, { attributes: true, attributeFilter: ["data-seq"] });
  label();
}
