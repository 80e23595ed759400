/**
 * Spec section 8: a chunk that fails to load, or is still loading after 120 s, is a load error the
 * diner is told about. Islands are Astro <astro-island> elements that keep their `ssr` attribute
 * until their code has run; a failed import is announced as `astro:hydration-error`.
 */
export const CHUNK_TIMEOUT_MS = 120_000;

type Pending = { kind: 'error'; message: string; timeout: number };
/** Set by the toast bar (src/islands/ToastBar.tsx) once it listens; until then messages wait in the queue it drains. */
type ToastWindow = { __suguPendingToasts?: Pending[]; __suguToastsListening?: boolean };

function report(): void {
  // The controls kept for pages without JavaScript come back (src/styles/product.css, .nojs-only).
  document.documentElement.classList.add('islands-failed');
  const message = document.body.dataset.chunkError ?? 'Failed!';
  const toast: Pending = { kind: 'error', message, timeout: 0 };
  const w = window as ToastWindow;
  // Some island hydrating says nothing of the toast bar: only its own word that it listens does.
  if (w.__suguToastsListening) {
    window.dispatchEvent(new CustomEvent('sugu:toast', { detail: toast }));
    return;
  }
  (w.__suguPendingToasts ??= []).push(toast);
  // Meanwhile (or for good, when the toast bar itself is what failed) a plain alert says it; the
  // toast bar replaces it with its toast when it takes the queue.
  if (!document.getElementById('chunk-error')) {
    const box = document.createElement('div');
    box.id = 'chunk-error';
    box.setAttribute('role', 'alert');
    box.className = 'fixed inset-x-3 bottom-20 z-50 mx-auto max-w-md rounded-box bg-error px-4 py-3 text-sm text-error-content shadow-lg';
    box.textContent = message;
    document.body.append(box);
  }
}

let reported = false;
function reportOnce(): void {
  if (reported) return;
  reported = true;
  report();
}

// Astro's island loader retries a failed import once, then announces it with this event.
document.addEventListener('astro:hydration-error', reportOnce);

window.addEventListener('unhandledrejection', (event) => {
  const text = String((event.reason as Error)?.message ?? event.reason);
  if (/dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i.test(text)) reportOnce();
});

// An island loaded at once (client:load) may have failed before this module script ran, its event
// gone unheard: ask for the code of each such island not yet hydrated once more. The browser's module
// map answers at once for code already loaded; code that cannot load fails again, and is reported.
for (const island of document.querySelectorAll('astro-island[ssr][client="load"]')) {
  for (const url of [island.getAttribute('component-url'), island.getAttribute('renderer-url')]) {
    if (url) import(/* @vite-ignore */ url).catch(reportOnce);
  }
}

setTimeout(() => {
  if (document.querySelector('astro-island[ssr]')) reportOnce();
}, CHUNK_TIMEOUT_MS);
