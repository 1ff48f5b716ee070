/**
 * sw — the service worker, served as /sw.js (app/pwa.py puts `self.NOOK` before this:
 * {cache, prefix, version, lang, offline, icon, shell}).
 *
 * - install: the shell (the build's files of its version, static/dist/manifest.json, with
 *   the catalogs of the player's language only, and the offline page) goes into one cache
 *   named after the build's version, all or nothing.
 * - activate: every other cache of ours is deleted, so two versions never meet.
 *   A new worker waits until a page of its own version asks it to take over
 *   ({type: "activate", version}), so a page loaded from the old files keeps them.
 * - fetch: /static/dist/… cache first (a file's name carries its content's hash); pages network
 *   first, kept in the version's cache, the kept copy when the network fails, else the
 *   offline page; /api/ and /ws/ never touch the cache. A transfer link's page
 *   (/me?code=…: a code, and the name of the player it would make this browser) is
 *   never kept, nor answered from the cache: offline, it is the offline page; nor is a
 *   private arena's link (/arenas/{id}?key=…).
 * - push: shows the notice; a tap focuses a tab of that game or opens its url.
 */

/**
 * @typedef {{cache: string, prefix: string, version: string, lang: string, offline: string,
 *   icon: string, shell: string[]}} WorkerConfig
 */
// `self` as this worker's scope: the type check (tsconfig.workers.json) reads it otherwise as
// any worker's.
const sw = /** @type {ServiceWorkerGlobalScope & {NOOK: WorkerConfig}} */ (/** @type {unknown} */ (self));
const CONFIG = sw.NOOK;
const HASHED = '/static/dist/';
const SHELL = new Set(CONFIG.shell);
const PAGES_KEPT = 60; // pages kept for offline use, the oldest dropped first

/** A page that must never be kept: what it shows is a secret for a moment (a transfer
 *  code), or its address is one (a private arena's key). */
const privatePage = (url) =>
  (url.pathname === '/me' && url.searchParams.has('code'))
  || (url.pathname.startsWith('/arenas/') && url.searchParams.has('key'));

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CONFIG.cache).then((cache) =>
      cache.addAll(CONFIG.shell.map((url) => new Request(url, { cache: 'reload', credentials: 'same-origin' }))),
    ),
  );
});

sw.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'activate' && data.version === CONFIG.version) sw.skipWaiting();
  if (data.type === 'keep' && typeof data.url === 'string') event.waitUntil(keep(data.url));
});

/** A page's new address (history.replaceState) kept like a visited page. */
async function keep(address) {
  const url = new URL(address);
  if (url.origin !== sw.location.origin || url.pathname.startsWith('/api/') || privatePage(url)) return;
  try {
    const response = await fetch(url.href, { credentials: 'same-origin' });
    if (response.ok && response.headers.get('content-type')?.startsWith('text/html')) {
      await (await caches.open(CONFIG.cache)).put(url.href, response);
    }
  } catch {
    /* offline: kept on the next visit */
  }
}

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(CONFIG.prefix) && name !== CONFIG.cache).map((name) => caches.delete(name)),
      );
      await sw.clients.claim();
      // The pages open now are of this version (one asked for it): keep them for offline.
      const cache = await caches.open(CONFIG.cache);
      const tabs = await sw.clients.matchAll({ type: 'window' });
      const kept = tabs.filter((tab) => !privatePage(new URL(tab.url)));
      await Promise.all(kept.map((tab) => cache.add(tab.url).catch(() => undefined)));
    })(),
  );
});

async function cacheFirst(request) {
  const cache = await caches.open(CONFIG.cache);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  // Only this version's files: an older page's leftovers would mix two versions later.
  if (response.ok && SHELL.has(new URL(request.url).pathname)) {
    await cache.put(request, response.clone());
  }
  return response;
}

async function trimPages(cache) {
  const pages = (await cache.keys()).filter((request) => !new URL(request.url).pathname.startsWith('/static/'));
  const extra = pages.length - PAGES_KEPT;
  for (const request of pages.slice(0, Math.max(0, extra))) {
    if (request.url !== new URL(CONFIG.offline, sw.location.origin).href) await cache.delete(request);
  }
}

async function networkFirst(request) {
  const cache = await caches.open(CONFIG.cache);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(request, response.clone());
      await trimPages(cache);
    }
    return response;
  } catch (error) {
    const kept = (await cache.match(request, { ignoreVary: true })) || (await cache.match(CONFIG.offline));
    if (kept) return kept;
    throw error;
  }
}

/** The network only; without it, the offline page (never a kept copy). */
async function networkOnly(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await (await caches.open(CONFIG.cache)).match(CONFIG.offline);
    if (offline) return offline;
    throw error;
  }
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return;
  if (url.pathname.startsWith(HASHED)) event.respondWith(cacheFirst(request));
  else if (request.mode === 'navigate') event.respondWith(privatePage(url) ? networkOnly(request) : networkFirst(request));
});

/* ------------------------------------------------------------------ push --------- */

sw.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    return;
  }
  event.waitUntil(
    // `renotify` (a notice of the same tag still alerts) is Chromium's; lib.dom lacks it
    sw.registration.showNotification(notice.title || '', /** @type {NotificationOptions} */ ({
      body: notice.body || '',
      tag: notice.game_id || notice.type,
      renotify: true,
      icon: CONFIG.icon,
      data: { url: notice.url || '/', game_id: notice.game_id },
    })),
  );
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { url } = event.notification.data || {};
  event.waitUntil(
    (async () => {
      const target = new URL(url || '/', sw.location.origin);
      const tabs = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = tabs.find((tab) => new URL(tab.url).pathname === target.pathname);
      if (open) return open.focus();
      return sw.clients.openWindow(target.href);
    })(),
  );
});
