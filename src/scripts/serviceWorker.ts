/**
 * Registers the service worker (public/sw.js) with the page's language, so its offline page is
 * in that language; a change of language registers it again with the new one.
 */
export const workerUrl = () => `/sw.js?lang=${encodeURIComponent(document.documentElement.lang || 'ja')}`;

if ('serviceWorker' in navigator && window.isSecureContext) {
  const register = () => navigator.serviceWorker.register(workerUrl(), { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
