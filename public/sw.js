/*
 * すぐ予約's service worker. It keeps only what is the same for everyone: the build's hashed
 * assets (/_astro/*), the icons, the manifest and the offline page, fetched without cookies. Pages,
 * bookings, the account and the API always go to the network and are never stored, so nothing
 * personal stays on the device; a page that cannot be reached offline shows the offline page in
 * the language the worker was registered with (`?lang=`).
 *
 * Pushes (src/server/push/worker.ts) carry { title, body, url, tag }: shown as a notification that
 * opens `url` (a path on this site) when tapped.
 */
const VERSION = 'v1';
const CACHE = `sugu-shell-${VERSION}`;
const LANG = new URL(self.location.href).searchParams.get('lang') || 'ja';
const OFFLINE = `/offline?lang=${encodeURIComponent(LANG)}`;
const SHELL = [OFFLINE, '/manifest.webmanifest', '/favicon.svg', '/icons/icon.svg', '/icons/icon-192.png'];

/** What may be kept: files that are the same for every visitor. */
const cacheable = (url) =>
  url.origin === self.location.origin && (url.pathname.startsWith('/_astro/') || url.pathname.startsWith('/icons/') || url.pathname === '/favicon.svg' || url.pathname === '/manifest.webmanifest');

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { credentials: 'omit', cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => caches.open(CACHE))
      // An offline page of another language, from an earlier registration, goes.
      .then((cache) => cache.keys().then((requests) => Promise.all(requests.filter((r) => new URL(r.url).pathname === '/offline' && !r.url.endsWith(OFFLINE)).map((r) => cache.delete(r)))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (request.mode === 'navigate') {
    // Pages always from the network (they may hold a booking or an account); offline, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE).then((page) => page || Response.error())));
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
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: LANG,
      data: { url },
    }),
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
