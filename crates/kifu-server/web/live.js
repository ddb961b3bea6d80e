// A Server-Sent Events stream that stays open. The browser's EventSource
// reconnects by itself when a connection drops, but not when the server
// answers with an error: a stream refused because the server is full
// (`429 too_many_streams`, `503`, each with `Retry-After`) or down behind a
// proxy is closed for good, and a page following it would never hear of the
// game again. Here a closed stream is opened again after a pause (5 s,
// doubling to a minute, each with some jitter so that a room of tablets
// does not come back at once), resuming after the last event id it saw.
//
//   const stop = stream((last) => "/feed/stream" + (last ? "?after=" + last : ""),
//     { message: (m) => ..., open: () => ..., error: () => ... }, { events: ["change"] });
//
// `url(last)` gives the address to open, `last` being the id of the last
// event seen (a string, "" before any). Handlers: `message` for unnamed
// events, one per name in `events` (called with the event), `open`,
// `error` (each time the stream is lost or refused). Returns `stop()`.
// Tested by web/test/live.test.mjs.

export function stream(url, on = {}, { events = [], minDelayMs = 5000, maxDelayMs = 60000, random = Math.random, timers = globalThis } = {}) {
  const Source = globalThis.EventSource;
  let es = null, last = "", stopped = false, timer = null, delay = minDelayMs;
  const seen = (m) => { if (m && m.lastEventId) last = m.lastEventId; };
  const open = () => {
    timer = null;
    if (stopped) return;
    es = new Source(url(last));
    es.onmessage = (m) => { seen(m); if (on.message) on.message(m); };
    for (const name of events) es.addEventListener(name, (m) => { seen(m); if (on[name]) on[name](m); });
    es.onopen = (e) => { delay = minDelayMs; if (on.open) on.open(e); };
    es.onerror = (e) => {
      if (on.error) on.error(e);
      // CONNECTING: the browser is already trying again. CLOSED: it gave up.
      if (es.readyState === Source.CLOSED && !stopped && !timer) {
        es.close();
        timer = timers.setTimeout(open, Math.round(delay * (0.75 + random() / 2)));
        delay = Math.min(delay * 2, maxDelayMs);
      }
    };
  };
  open();
  return () => {
    stopped = true;
    if (timer) timers.clearTimeout(timer);
    if (es) es.close();
  };
}
