// The board page's service worker: the page shell (`/play` and the files it
// is made of) is kept on the tablet, so that a tablet reloaded while the
// server cannot be reached still opens its game: the board and clocks as
// last drawn, and the records waiting in IndexedDB, sent once the server
// answers again. Registered by board.js with the scope `/play` (the server
// allows it with `Service-Worker-Allowed`).
//
// Network first: while the server answers, every file is the server's
// (the binary may have been replaced: a new page is never mixed with an old
// one), and each answer refreshes the copy kept. Only when the server
// cannot be reached, or gives no answer within a few seconds, is the kept
// copy served. Nothing else is touched: the game's records, states and
// feed go to the server as if there were no worker, and the page says when
// they cannot.

const CACHE = "kifu-play-shell";
const SHELL = "/play";
const FILES = [
  "/web/board.css",
  "/web/board.js",
  "/web/board-clock.js",
  "/web/board-go.js",
  "/web/record.js",
  "/web/blake3.js",
  "/web/live.js",
  "/web/follow.js",
  "/web/keystore.js",
  "/web/page.js",
  "/web/db.js",
  "/web/favicon.svg",
];
// How long a request may go unanswered before the kept copy is served.
const PATIENCE_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll([SHELL, ...FILES]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

// The key a request is kept under: every page of `/play` is the same shell
// (the script reads the game from the address).
function keptAs(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return null;
  if (request.mode === "navigate" && (url.pathname === "/play" || url.pathname.startsWith("/play/"))) return SHELL;
  if (FILES.includes(url.pathname)) return url.pathname;
  return null;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), PATIENCE_MS); });
  const fresh = fetch(request).then(
    (answer) => {
      if (answer.ok) cache.put(key, answer.clone());
      return answer;
    },
    () => null,
  );
  const first = await Promise.race([fresh, late]);
  clearTimeout(timer);
  if (first) return first;
  const kept = await cache.match(key);
  if (kept) return kept;
  // Nothing kept (the page was never opened while the server answered):
  // wait for the network's own answer or failure.
  const answer = await fresh;
  return answer || Response.error();
}

self.addEventListener("fetch", (event) => {
  const key = keptAs(event.request);
  if (key) event.respondWith(networkFirst(event.request, key));
});
