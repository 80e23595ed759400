/**
 * A 順番待ち page stays true without a reload: it listens to its store's availability stream, whose
 * `rev` moves on every change at the store (a party joining, leaving or called, a booking), and then
 * fetches itself and puts the fresh live part in place. A place that has ended reloads the whole
 * page, so the leave button goes with it. Without JavaScript a reload does the same.
 */
import { startCountdowns } from './countdown';
export function followQueue(): void {
  const live = () => document.querySelector<HTMLElement>('[data-queue-live]');
  const root = live();
  if (!root || typeof EventSource === 'undefined') return;
  const { store, party, state } = root.dataset;
  if (state !== 'waiting' && state !== 'called') return;
  let rev: number | undefined;
  let busy = false;
  let again = false;

  const refresh = async (): Promise<void> => {
    if (leaving) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const res = await fetch(location.pathname, { headers: { accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
      if (!res.ok) return;
      const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector<HTMLElement>('[data-queue-live]');
      const current = live();
      if (!fresh || !current) return;
      if (leaving) return;
      if (fresh.dataset.state !== current.dataset.state) {
        location.reload();
        return;
      }
      current.replaceChildren(...fresh.childNodes);
      startCountdowns(current);
      current.dataset.updated = String(Date.now());
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };

  const source = new EventSource(`/api/availability/stream?stores=${store}&party=${party}`);
  // A form on its way (confirming, leaving) changes the entry itself: a reload for that change must
  // not cancel the form's own navigation (to the booking's page).
  let leaving = false;
  document.addEventListener('submit', () => {
    leaving = true;
    source.close();
  });
  source.addEventListener('availability', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as { rev?: number };
    // The first answer is the state the page was drawn from; each later change redraws.
    if (rev !== undefined && data.rev !== rev) void refresh();
    rev = data.rev;
  });
  // A stream that reconnects may have missed a change.
  source.addEventListener('open', () => {
    if (rev !== undefined) void refresh();
  });
  root.dataset.following = 'true';
}
