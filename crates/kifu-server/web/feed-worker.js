// One feed stream for every page of this server open in the browser (a
// SharedWorker): a browser allows six connections per host over HTTP/1.1,
// and a stream held by each open tab, or by each page kept in the
// back/forward cache, would take them all and leave none for the pages'
// own requests.
//
// A page says {type: "follow", after: CURSOR} (the feed cursor its first
// load saw, -1 for none) and gets {type: "record", record} for every record
// after it, from the stream or from the records the worker keeps, and
// {type: "gap"} when some of those are no longer kept (the page then reloads
// what it shows). {type: "bye"} ends its subscription; the stream closes
// with the last one.
"use strict";

// Records kept for pages that subscribe after the stream opened.
const KEEP = 1024;
const ports = new Set();
let stream = null;
// Every record after `floor` is in `recent`.
let floor = -1;
let recent = [];

function open(after) {
  floor = after;
  recent = [];
  stream = new EventSource("/feed/stream" + (after >= 0 ? "?after=" + after : ""));
  stream.onmessage = (m) => {
    const r = JSON.parse(m.data);
    const slim = { cursor: r.cursor, game: r.game, seq: r.seq, kind: r.kind };
    recent.push(slim);
    if (recent.length > KEEP) floor = recent.shift().cursor;
    for (const p of ports) p.postMessage({ type: "record", record: slim });
  };
}

function follow(port, after) {
  ports.add(port);
  if (!stream) { open(after); return; }
  if (after < floor) port.postMessage({ type: "gap" });
  for (const r of recent) if (r.cursor > after) port.postMessage({ type: "record", record: r });
}

function bye(port) {
  ports.delete(port);
  if (!ports.size && stream) { stream.close(); stream = null; }
}

self.addEventListener("connect", (e) => {
  const port = e.ports[0];
  port.onmessage = (m) => {
    const d = m.data || {};
    if (d.type === "follow") follow(port, Number.isInteger(d.after) ? d.after : -1);
    else if (d.type === "bye") bye(port);
  };
  port.start();
});
