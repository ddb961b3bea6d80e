// What the shared feed worker keeps (`feed-worker.js`), apart from the
// stream itself, so that it can be tested without a browser: the pages
// subscribed, the records seen lately, which page gets which record, and
// whether the stream is connected.
//
// `open(after)` opens the stream after the feed cursor `after` (-1: from
// the start) and gives a function that closes it; the stream calls
// `record(r)` with each record ({cursor, game, seq, kind}), and
// `status(connected)` when it opens or is lost.

export class Hub {
  constructor(open, keep = 1024) {
    this.open = open;
    this.keep = keep;
    this.ports = new Set();
    this.close = null;
    // Every record after `floor` is in `recent`.
    this.floor = -1;
    this.recent = [];
    // Whether the stream is connected, once it has said (null before).
    this.connected = null;
  }

  // A page follows from `after`: it gets every record after it, from the
  // records kept, and `{type: "gap"}` first when some are no longer kept.
  follow(port, after) {
    this.ports.add(port);
    if (!this.close) {
      this.floor = after;
      this.recent = [];
      this.connected = null;
      this.close = this.open(after);
      return;
    }
    if (this.connected !== null) port.postMessage({ type: "status", connected: this.connected });
    if (after < this.floor) port.postMessage({ type: "gap" });
    for (const r of this.recent) if (r.cursor > after) port.postMessage({ type: "record", record: r });
  }

  // A page no longer follows; the stream closes with the last one.
  bye(port) {
    this.ports.delete(port);
    if (!this.ports.size && this.close) {
      this.close();
      this.close = null;
    }
  }

  // The stream opened (`true`) or was lost (`false`): said to every page
  // following, and to a page that follows later.
  status(connected) {
    this.connected = connected;
    for (const p of this.ports) p.postMessage({ type: "status", connected });
  }

  // A record from the stream, to every page following.
  record(r) {
    if (this.recent.length && r.cursor <= this.recent[this.recent.length - 1].cursor) return;
    this.recent.push(r);
    if (this.recent.length > this.keep) this.floor = this.recent.shift().cursor;
    for (const p of this.ports) p.postMessage({ type: "record", record: r });
  }
}
