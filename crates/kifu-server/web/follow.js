// A page that follows one game draws the projection at the game's head, so
// applying a feed event is fetching the state again. Every event of the
// game counts: one that arrives while a fetch is under way is not dropped,
// the page fetches again once that fetch ends, and goes on until it has
// drawn the last event the feed named (a gap, an event the page never saw,
// is covered by the same fetch). Nothing is fetched twice at once.
//
//   const f = follower(refresh, () => G.shownSeq);
//   f.event(line.seq);      // for every feed line of the game
//
// `refresh()` fetches and draws the state; `shown()` is the last event the
// page has drawn. A fetch that fails (the network is away) is left to the
// next event, or to `f.again()`. Tested by web/test/follow.test.mjs.

export function follower(refresh, shown) {
  let wanted = -1;
  // One fetch at a time: the fetches run one after the other on `chain`,
  // and at most one waits behind the one under way (it reads the head
  // when it starts, so it covers every event named until then).
  let chain = Promise.resolve(true);
  let queued = false;
  const behind = () => {
    const s = shown();
    return s === null || s === undefined || s < wanted;
  };
  const run = async () => {
    try {
      for (;;) {
        const before = shown();
        await refresh();
        if (!behind()) return true;
        // The server has not yet shown the event the feed named: the next
        // event (or `again`) fetches once more.
        if (shown() === before) return false;
      }
    } catch {
      return false;
    }
  };
  const start = () => {
    if (queued) return chain;
    queued = true;
    chain = chain.then(() => {
      queued = false;
      return behind() ? run() : true;
    });
    return chain;
  };
  return {
    /** The feed named event `seq` of the game. */
    event(seq) {
      if (typeof seq === "number" && seq > wanted) wanted = seq;
      return start();
    },
    /** Fetches again if an event named is not drawn yet. */
    again() {
      return behind() ? start() : Promise.resolve(true);
    },
    /** True while an event named is not drawn yet. */
    behind,
  };
}
