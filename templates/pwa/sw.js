/* The site's service worker (served at /sw.js by series.views_pwa, scope "/").
 *
 * It keeps the last copy of the pages that must survive a dropped network, the TV clock (and
 * its JSON) and a player's night page, with the static files and the JavaScript catalog they
 * load. Those are fetched from the network first, as always; the kept copy answers only when
 * the network fails (or says the server is away, 5xx, or is silent for WAIT_MS). Everything
 * else (forms and their POSTs, sockets, the admin, every other page) goes to the network
 * untouched and is never kept.
 *
 * A kept page's clock counts down from the stored end time (static/tournaments/clock.js) and
 * takes the difference between the server's "now_ms" in the page and the device's clock
 * when it loads. So a copy read later says the server's now at that later time: "now_ms"
 * plus the time the copy has been kept, and the countdown is right offline too.
 */
"use strict";

const CONFIG = {{ config|safe }};
const CACHE = CONFIG.cache;
// Each version's cache name starts so; older ones are deleted when this worker takes over.
const CACHE_FAMILY = CACHE.replace(/\d+$/, "");
// When a kept copy was fetched (epoch ms), a header of the copy only.
const STORED_AT = "x-stored-at";
// How long a page waits for a silent network before the kept copy answers.
const WAIT_MS = 4000;

const PAGES = CONFIG.pages.map((pattern) => new RegExp(pattern));
const ASSETS = CONFIG.assets.map((pattern) => new RegExp(pattern));
const PERSONAL = CONFIG.personal.map((pattern) => new RegExp(pattern));
const FORGET = CONFIG.forget.map((pattern) => new RegExp(pattern));
const matches = (patterns, path) => patterns.some((pattern) => pattern.test(path));

/* Whether a same-origin address is one the worker keeps: "page", "asset" or "". */
function kind(url) {
  if (url.origin !== self.location.origin) return "";
  if (matches(PAGES, url.pathname)) return "page";
  if (matches(ASSETS, url.pathname)) return "asset";
  return "";
}

/* Fetch from the network and keep a good answer (200, this site's, not a redirect: a night
 * page that sends a signed-out visitor to log in is not kept). Resolves to the network's
 * answer whatever it is; rejects when the network fails. */
async function fetchAndKeep(cache, request) {
  const response = await fetch(request);
  if (response.ok && response.type === "basic" && !response.redirected) {
    const headers = new Headers(response.headers);
    headers.set(STORED_AT, String(Date.now()));
    const body = await response.clone().blob();
    const copy = new Response(body, { status: response.status, statusText: response.statusText, headers });
    try {
      await cache.put(typeof request === "string" ? request : request.url, copy);
    } catch (error) {
      /* storage full or gone: the answer still goes to the page, only not kept */
    }
  }
  return response;
}

/* A kept page or JSON as if the server had made it now: its "now_ms" moved on by the time
 * the copy has been kept (see the top of this file). */
async function aged(response) {
  const storedAt = Number(response.headers.get(STORED_AT));
  const type = response.headers.get("content-type") || "";
  if (!storedAt || !/html|json/.test(type)) return response;
  const kept = Math.max(0, Date.now() - storedAt);
  const text = (await response.text()).replace(
    /("now_ms"\s*:\s*)(\d+)/g,
    (match, key, ms) => key + String(Number(ms) + kept),
  );
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/* Network first; the kept copy when the network fails, the server is away, or the network
 * says nothing for WAIT_MS (a Wi-Fi that has gone without saying so). ``refreshing`` is the
 * network's answer, started (and kept alive by the event) before anything is awaited. */
async function networkFirst(request, refreshing, page) {
  let kept;
  try {
    // By address alone: the pages vary on Accept-Language and Cookie, which a request made
    // here and the browser's own do not carry alike. In every cache of this worker's family
    // (a copy kept by an older worker still beats the browser's error page).
    kept = await caches.match(request.url, { ignoreVary: true });
  } catch (error) {
    kept = undefined; /* storage unreadable: the network alone answers */
  }
  if (!kept) return refreshing;
  let timer;
  const silence = new Promise((resolve) => {
    timer = setTimeout(resolve, WAIT_MS, null);
  });
  const answer = await Promise.race([refreshing.catch(() => null), silence]);
  clearTimeout(timer);
  if (answer && answer.status < 500) return answer;
  try {
    return page ? await aged(kept) : kept;
  } catch (error) {
    return kept;
  }
}

/* Fetch and keep (the copy is refreshed even when the kept one has already answered). */
function refresh(event, request) {
  const refreshing = caches.open(CACHE).then((cache) => fetchAndKeep(cache, request));
  event.waitUntil(refreshing.catch(() => null));
  return refreshing;
}

/* A player's night belongs to whoever was signed in: a log-in or log-out forgets it (the TV
 * clock, the same for everyone with its link, stays). */
async function forgetPages() {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (kind(url) === "page" && matches(PERSONAL, url.pathname)) await cache.delete(request);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Best effort: a file missing must not stop the worker from installing.
      await Promise.all(
        [...CONFIG.precache, CONFIG.catalog].map((url) => fetchAndKeep(cache, url).catch(() => null)),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE && name.startsWith(CACHE_FAMILY)) await caches.delete(name);
      }
      // The pages open now (the one that installed the worker) are served from now on.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET") {
    if (url.origin === self.location.origin && matches(FORGET, url.pathname)) {
      event.waitUntil(forgetPages());
    }
    return;
  }
  const what = kind(url);
  if (!what) return;
  if (what === "page") {
    event.respondWith(networkFirst(request, refresh(event, request), true));
    return;
  }
  // A static file or the catalog is kept only for the pages that are kept: any other page
  // (a live table, the console) gets it from the network as if there were no worker.
  event.respondWith(
    (async () => {
      const client = event.clientId ? await self.clients.get(event.clientId) : null;
      if (!client || kind(new URL(client.url)) !== "page") return fetch(request);
      return networkFirst(request, refresh(event, request), false);
    })(),
  );
});

/* A page the worker did not see load (the visit that installed it) sends the addresses it
 * loaded: the worker keeps those its rules keep (static/js/pwa.js). */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "forget") {
    // Another person now uses this browser: the pages kept for the one before go.
    event.waitUntil(forgetPages());
    return;
  }
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  // Only a kept page's files are kept (the page itself comes first in the list).
  let first;
  try {
    first = new URL(String(data.urls[0]), self.location.origin);
  } catch (error) {
    return;
  }
  if (kind(first) !== "page") return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const address of data.urls.slice(0, 100)) {
        let url;
        try {
          url = new URL(String(address), self.location.origin);
        } catch (error) {
          continue;
        }
        url.hash = "";
        const what = kind(url);
        if (!what || (what === "asset" && (await cache.match(url.href, { ignoreVary: true })))) continue;
        await fetchAndKeep(cache, url.href).catch(() => null);
      }
    })(),
  );
});
