/**
 * Registers the service worker (public/sw.js) and tells it the page's language, so that its
 * offline page is in the language the diner reads. The worker's address stays the same in every
 * language: a change of language is a message, not a new worker.
 */
export const WORKER_URL = '/sw.js';

if ('serviceWorker' in navigator && window.isSecureContext) {
  const register = () =>
    navigator.serviceWorker
      .register(WORKER_URL, { scope: '/' })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => registration.active?.postMessage({ lang: document.documentElement.lang || 'ja' }))
      .catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
