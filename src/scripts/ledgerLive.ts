/**
 * The ledger stays true without a reload: the store stream (`/api/store/stream`) announces every
 * booking made, changed or marked at the store, every walk-in seated or freed and every change in its 順番待ち, on any instance, and the page then fetches itself
 * and puts the fresh ledger in place of the old. While staff are writing in one of its forms the
 * swap waits, so nothing typed or chosen is lost. Once a minute it redraws anyway, for "now" to move on.
 */
const MINUTE_MS = 60_000;

const ledger = () => document.querySelector<HTMLElement>('[data-ledger]');
const root = ledger();

if (root?.dataset.stream) {
  let online = false;
  let busy = false;
  let again = false;

  const showStatus = () => {
    const status = ledger()?.querySelector<HTMLElement>('[data-live-status]');
    if (status) status.textContent = (online ? status.dataset.online : status.dataset.offline) ?? '';
  };

  /** Staff are in the middle of something: an open form (a reason, a phone booking, a booking's change), or focus in a field of the page's forms. */
  const editing = () => {
    const current = ledger();
    const focus = document.activeElement;
    const typing = focus instanceof HTMLTextAreaElement || focus instanceof HTMLInputElement || focus instanceof HTMLSelectElement;
    return Boolean(current?.querySelector('details[open], [data-editing]') || (typing && current?.contains(focus)));
  };

  // A form sent: the page is on its way to the answer (its flash is read once, by the first GET of the
  // ledger that follows), so it fetches itself no more and lets that navigation take the flash.
  let leaving = false;
  document.addEventListener('submit', (e) => {
    if (!e.defaultPrevented) leaving = true;
  });

  const refresh = async (): Promise<void> => {
    if (leaving) return;
    if (busy || editing()) {
      again = true;
      return;
    }
    busy = true;
    try {
      const res = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
      // Signed out elsewhere, or the store taken off the account: the next navigation says so.
      if (!res.ok) return;
      const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector<HTMLElement>('[data-ledger]');
      const current = ledger();
      if (leaving) return;
      if (fresh && current && !editing()) {
        current.replaceChildren(...fresh.childNodes);
        current.dataset.updated = String(Date.now());
        showStatus();
      } else again = true;
    } catch {
      again = true;
    } finally {
      busy = false;
    }
  };

  /** A refresh that had to wait runs once the way is clear. */
  const retry = () => {
    if (!again || editing()) return;
    again = false;
    void refresh();
  };
  document.addEventListener('toggle', retry, true);
  document.addEventListener('focusout', () => setTimeout(retry, 0));

  const source = new EventSource(root.dataset.stream, { withCredentials: true });
  source.addEventListener('open', () => {
    online = true;
    showStatus();
  });
  source.addEventListener('error', () => {
    online = false;
    showStatus();
  });
  source.addEventListener('booking', () => void refresh());
  source.addEventListener('walk_in', () => void refresh());
  source.addEventListener('queue', () => void refresh());
  setInterval(() => void refresh(), MINUTE_MS);
  // Leaving the page: the server's stream slot is freed at once.
  addEventListener('pagehide', () => source.close());
}
