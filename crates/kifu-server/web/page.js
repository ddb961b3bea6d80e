// What every page of the venue is made of, once: the element builder, the
// one way to ask the JSON API, the message log, what the page says of
// anything its security policy blocks, a refresh that folds a burst of
// changes into one, and the form with which a board device or the
// referee's console asks for a seat. A page keeps only what is its own.
// Tested by web/test/page.test.mjs.

// Relative, as record.js imports blake3.js: the browser resolves it to
// /web/record.js (one module for the page and this), and Node to the file.
import * as rec from "./record.js";

// ---------------------------------------------------------------- elements

/**
 * An element: `$("p", { class: "ok", onclick: f, hidden: true }, "text", child)`.
 * An attribute given `undefined`, `null` or `false` is left out, `true`
 * sets it empty; `on…` with a function adds that listener. Children are
 * nodes or text (arrays are flattened; `""`, `null`, `undefined` and
 * `false` add nothing, so `cond ? x : ""` reads naturally).
 */
export function $(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const k of kids.flat(Infinity)) {
    if (k === "" || k === null || k === undefined || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

// ---------------------------------------------------------------- the API

/**
 * Whatever kept an answer from being a value: the server's refusal
 * (`status` its HTTP status, `code` and `message` from its JSON error,
 * `body` the whole answer), or no answer at all (`status` 0, `code`
 * `"unreachable"`: the network or the server is away). A page tells the
 * two apart by `status`: a record kept for later is sent again only when
 * there was no answer.
 */
export class ApiError extends Error {
  constructor(status, code, message, body = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * The JSON answer to `path` (docs/API.md). Every 2xx answer is a value,
 * 207 included: the server answers 207 only to `POST /records` when some
 * of the records were accepted and some refused (crates/kifu-server/src/
 * api.rs, `submit`), and its body says, record by record, which; the
 * caller reads each answer in `results`. Any other answer throws an
 * [`ApiError`]; when every record of a `POST /records` was refused for one
 * reason the status is that refusal's, and `body.results` still holds each
 * record's answer. (The server marks every answer of the API `no-store`, so
 * nothing here is read from the browser's cache.)
 */
export async function api(path, init = {}) {
  let r;
  try {
    r = await fetch(path, { ...init, headers: { Accept: "application/json", ...(init.headers || {}) } });
  } catch (e) {
    throw new ApiError(0, "unreachable", `the server cannot be reached (${e && e.message ? e.message : e})`);
  }
  let v = null;
  try { v = await r.json(); } catch { v = null; }
  if (!r.ok) {
    const err = v && v.error;
    throw new ApiError(r.status, (err && err.code) || "", err && err.message ? err.message : `${r.status} ${r.statusText}`.trim(), v);
  }
  return v;
}

/** `POST path` with the JSON `body` (more `headers` if given). */
export function post(path, body, headers = {}) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
}

// ---------------------------------------------------------------- refreshing

/**
 * `work` run one at a time: a call while it runs asks for one more run
 * after it, so a burst of changes gives at most two, the last seeing them
 * all. The returned function gives the promise of the run that covers the
 * call. A run that throws ends the burst and goes to `failed` (when given;
 * else the promise rejects). With `spacingMs`, a run starts at least that
 * long after the one before it started: a page told of every change of
 * many games reads them at that pace at most, each read seeing all the
 * changes told meanwhile.
 */
export function coalesce(work, failed, { spacingMs = 0 } = {}) {
  let running = null;
  let again = false;
  let started = -Infinity;
  return function trigger() {
    if (running) { again = true; return running; }
    running = (async () => {
      try {
        do {
          const wait = started + spacingMs - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          again = false;
          started = Date.now();
          await work();
        } while (again);
      } catch (e) {
        if (failed) failed(e); else throw e;
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

// ---------------------------------------------------------------- messages

/**
 * The page's message log (`#messages`): `say(text, ok, rule, quote)` adds
 * a line (a clause and its words when the server gave them), the latest
 * 30 kept. Where the page has the folding log (`#log` with `#log-toggle`),
 * the log stays at the foot of the window and the page keeps room for it
 * (a button scrolled to, or reached by Tab, stops above it), so it covers
 * nothing; it folds away to its toggle.
 */
export function messageLog(doc = document) {
  const messages = doc.getElementById("messages");
  const log = doc.getElementById("log");
  const toggle = doc.getElementById("log-toggle");
  if (log && toggle) {
    const room = () => {
      doc.body.style.paddingBottom = `${log.offsetHeight + 8}px`;
      doc.documentElement.style.scrollPaddingBottom = `${log.offsetHeight + 8}px`;
    };
    new ResizeObserver(room).observe(log);
    toggle.addEventListener("click", () => {
      const open = messages.hidden;
      messages.hidden = !open;
      toggle.textContent = open ? "Hide messages" : `Show messages (${messages.children.length})`;
      toggle.setAttribute("aria-expanded", String(open));
    });
    room();
  }
  return function say(text, ok, rule, quote) {
    messages.append($("p", { class: ok ? "ok" : "bad" }, (ok ? "✔ " : "✘ ") + text, rule ? ` [${rule}]` : "", quote ? $("q", {}, quote) : ""));
    while (messages.children.length > 30) messages.firstChild.remove();
    messages.scrollTop = messages.scrollHeight;
  };
}

/**
 * Every page runs under the server's Content-Security-Policy (`default-src
 * 'self'`, crates/kifu-server/src/headers.rs); anything it blocks is said
 * with `report(words)`, so that a page broken by it says why.
 */
export function watchPolicy(report) {
  document.addEventListener("securitypolicyviolation", (e) => {
    report(`blocked by the page's security policy: ${e.violatedDirective} ${e.blockedURI}`);
  });
}

// ---------------------------------------------------------------- seats

/** A seat request signed by `privateKey`, the device's own key (`POST /devices`). */
export async function askSeat(privateKey, request) {
  const { body, signature } = await rec.signDeviceRequest(privateKey, request);
  return api("/devices", { method: "POST", headers: { "Content-Type": "application/json", "Kifu-Device-Signature": signature }, body });
}

/**
 * The form with which a device (a board tablet, the referee's console)
 * asks for a seat: its key's fingerprint, to be compared by the official
 * who enrols it, the page's own `fields`, and `#ask`. On submit the
 * request `request(formData)` is signed with `privateKey` and sent; the
 * server's answer goes to `sent(answer)`, a refusal to `say`.
 */
export function seatRequestForm({ title, titleId, intro, key, privateKey, fields, button, request, sent, say }) {
  const form = $("form", { class: "enrol" },
    $("h2", { id: titleId }, title),
    $("p", {}, intro),
    $("p", { class: "fp" }, rec.fingerprint(key)),
    ...fields,
    $("button", { type: "submit", id: "ask" }, button));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let answer;
    try {
      answer = await askSeat(privateKey, request(new FormData(form)));
    } catch (e) {
      say("the server refused the request: " + e.message, false);
      return;
    }
    say(`request ${answer.id} sent: ${answer.seat}`, true);
    await sent(answer);
  });
  return form;
}
