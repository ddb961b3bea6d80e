// The live feed for a page: `follow(after, onRecord, { connected })` calls
// `onRecord` with each record stored after the feed cursor `after` (the one
// the page's first load saw, so nothing appended between that load and the
// subscription is missed), or with `null` when records may have been missed
// and the page should reload what it shows; and `connected(true|false)`
// (when given) each time the stream opens or is lost, so that a page can
// say whether what it shows is live.
//
// Every page of the browser shares one stream through a SharedWorker
// (`feed-worker.js`); where the browser has none, the page holds its own
// stream. Either way the subscription ends when the page is hidden for
// good or put in the back/forward cache (`pagehide`), and resumes from the
// last record seen when it comes back (`pageshow`).

import { stream } from "/web/live.js";
import { api } from "/web/page.js";

const slim = (r) => ({ cursor: r.cursor, game: r.game, seq: r.seq, kind: r.kind });

export function follow(after, onRecord, { connected = () => {} } = {}) {
  let last = Number.isInteger(after) ? after : -1;
  let stop = null;
  const seen = (r) => {
    if (r.cursor <= last) return;
    last = r.cursor;
    onRecord(r);
  };
  const shared = () => {
    const w = new SharedWorker("/web/feed-worker.js", { name: "kifu-feed", type: "module" });
    // A worker that cannot start: this page holds its own stream.
    w.onerror = () => { if (stop) { stop = own(); } };
    w.port.onmessage = (m) => {
      if (m.data.type === "record") seen(m.data.record);
      else if (m.data.type === "gap") onRecord(null);
      else if (m.data.type === "status") connected(m.data.connected);
    };
    w.port.start();
    w.port.postMessage({ type: "follow", after: last });
    return () => { w.port.postMessage({ type: "bye" }); w.port.close(); };
  };
  const own = () => {
    return stream(() => "/feed/stream" + (last >= 0 ? "?after=" + last : ""), {
      message: (m) => seen(slim(JSON.parse(m.data))),
      open: () => connected(true),
      error: () => connected(false),
    });
  };
  const start = () => {
    if (stop) return;
    try { stop = typeof SharedWorker === "function" ? shared() : own(); }
    catch { stop = own(); }
  };
  addEventListener("pagehide", () => { if (stop) { stop(); stop = null; } });
  addEventListener("pageshow", (e) => { if (e.persisted) start(); });
  start();
  return { stop: () => { if (stop) { stop(); stop = null; } } };
}

// The feed cursor to follow from: what `/healthz` says now, taken before a
// page's first load (every record stored later has a larger cursor).
export async function feedCursor() {
  const h = await api("/healthz");
  return (h.next_cursor || 0) - 1;
}
