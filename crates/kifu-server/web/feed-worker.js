// One feed stream for every page of this server open in the browser (a
// SharedWorker, a module): a browser allows six connections per host over
// HTTP/1.1, and a stream held by each open tab, or by each page kept in the
// back/forward cache, would take them all and leave none for the pages'
// own requests.
//
// A page says {type: "follow", after: CURSOR} (the feed cursor its first
// load saw, -1 for none) and gets {type: "record", record} for every record
// after it, from the stream or from the records kept ([`Hub`]), and
// {type: "gap"} when some of those are no longer kept (the page then
// reloads what it shows), and {type: "status", connected} when the stream
// opens or is lost. {type: "bye"} ends its subscription; the stream closes
// with the last one.
import { Hub } from "/web/feed-hub.js";
import { stream } from "/web/live.js";

const hub = new Hub((after) => {
  return stream((last) => "/feed/stream" + (last ? "?after=" + last : after >= 0 ? "?after=" + after : ""), {
    message: (m) => {
      const r = JSON.parse(m.data);
      hub.record({ cursor: r.cursor, game: r.game, seq: r.seq, kind: r.kind });
    },
    open: () => hub.status(true),
    error: () => hub.status(false),
  });
});

self.addEventListener("connect", (e) => {
  const port = e.ports[0];
  port.onmessage = (m) => {
    const d = m.data || {};
    if (d.type === "follow") hub.follow(port, Number.isInteger(d.after) ? d.after : -1);
    else if (d.type === "bye") hub.bye(port);
  };
  port.start();
});
