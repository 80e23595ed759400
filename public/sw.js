/*
 * すぐ予約's service worker. It keeps only what is the same for everyone: the build's hashed
 * assets (/_astro/*), the icons, the manifest and the offline page, fetched without cookies. Pages,
 * bookings, the account and the API always go to the network and are never stored, so nothing
 * personal stays on the device; a page that cannot be reached offline shows the offline page in
 * the language of the last page the diner opened.
 *
 * The worker's address is the same in every language: each page tells the worker its language
 * (a message, src/scripts/serviceWorker.ts), and the worker keeps that language's offline page. A
 * change of language therefore installs nothing; a worker whose address changed with the language
 * was replaced on each change, and a navigation under way while it was could be aborted.
 *
 * Pushes (src/server/push/worker.ts) carry { title, body, url, tag }: shown as a notification that
 * opens `url` (a path on this site) when tapped.
 */
const VERSION = 'v2';
const CACHE = `sugu-shell-${VERSION}`;
const SHELL = ['/manifest.webmanifest', '/favicon.svg', '/icons/icon.svg', '/icons/icon-192.png'];
/** Where the language the pages last named is kept (a cache entry: a worker has no other lasting store that every browser offers). */
const LANG_KEY = '/sw-lang';
const DEFAULT_LANG = 'ja';
const offlinePath = (lang) => `/offline?lang=${encodeURIComponent(lang)}`;
const validLang = (lang) => typeof lang === 'string' && /^[a-z]{2}$/.test(lang);

/** The language last named by a page, or Japanese. */
async function currentLang() {
  const kept = await caches.open(CACHE).then((cache) => cache.match(LANG_KEY));
  const lang = kept ? await kept.text() : '';
  return validLang(lang) ? lang : DEFAULT_LANG;
}

/** Keeps `lang` and its offline page, and lets the other languages' offline pages go. */
async function useLang(lang) {
  const cache = await caches.open(CACHE);
  const wanted = offlinePath(lang);
  if (!(await cache.match(wanted))) await cache.add(new Request(wanted, { credentials: 'omit', cache: 'reload' }));
  await cache.put(LANG_KEY, new Response(lang));
  const requests = await cache.keys();
  await Promise.all(requests.filter((r) => new URL(r.url).pathname === '/offline' && !r.url.endsWith(wanted)).map((r) => cache.delete(r)));
}

/** What may be kept: files that are the same for every visitor. */
const cacheable = (url) =>
  url.origin === self.location.origin && (url.pathname.startsWith('/_astro/') || url.pathname.startsWith('/icons/') || url.pathname === '/favicon.svg' || url.pathname === '/manifest.webmanifest');

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { credentials: 'omit', cache: 'reload' }))))
      // Japanese until a page names its language, so that there is always an offline page.
      .then(() => useLang(DEFAULT_LANG).catch(() => undefined))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (request.mode === 'navigate') {
    // Pages always from the network (they may hold a booking or an account); offline, the offline page.
    event.respondWith(
      fetch(request).catch(() =>
        currentLang()
          .then((lang) => caches.match(offlinePath(lang)))
          .then((page) => page || caches.match('/offline', { ignoreSearch: true }))
          .then((page) => page || Response.error()),
      ),
    );
    return;
  }
  if (!cacheable(url)) return;
  event.respondWith(
    caches.match(request).then(
      (hit) =>
        hit ||
        fetch(request).then((response) => {
          if (response.ok && response.type === 'basic') {
            const copy = response.clone();
            event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
          }
          return response;
        }),
    ),
  );
});

self.addEventListener('message', (event) => {
  const lang = event.data && event.data.lang;
  if (validLang(lang)) event.waitUntil(useLang(lang).catch(() => undefined));
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'すぐ予約';
  const url = typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//') ? data.url : '/home';
  event.waitUntil(
    currentLang().then((lang) =>
      self.registration.showNotification(title, {
        body: typeof data.body === 'string' ? data.body : '',
        tag: typeof data.tag === 'string' ? data.tag : undefined,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        lang,
        data: { url },
      }),
    ),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/home', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
