/**
 * The 「空席が出たら知らせる」 forms (`data-watch-ask`), with JavaScript: sent to the API in place,
 * so the diner stays on the page; on success the page's toasts start listening for the alert
 * (`sugu:watching`), and a refusal is said next to the button. Without JavaScript the form posts
 * to /watches and comes back.
 */
import { watchPaths } from '../lib/contract/paths';
import type { Genre } from '../lib/contract/enums';
import { api } from '../lib/api/client';

export function enhanceWatchForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-watch-ask]:not([data-watch-ask="on"])')) {
    form.dataset.watchAsk = 'on';
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void send(form);
    });
  }
}

async function send(form: HTMLFormElement) {
  const data = new FormData(form);
  const error = form.querySelector<HTMLElement>('[data-watch-error]')!;
  const done = form.querySelector<HTMLElement>('[data-watch-done]')!;
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  const number = (k: string) => (data.get(k) ? Number(data.get(k)) : undefined);
  const text = (k: string) => (data.get(k) ? String(data.get(k)) : undefined);
  // A field left empty is left out, and the server names it in its answer.
  const body = {
    store_id: number('store_id'),
    area_id: number('area_id'),
    party_size: number('party_size') as number,
    genre: text('genre') as Genre | undefined,
    keyword: text('keyword'),
    email: text('email'),
  };
  button.disabled = true;
  error.hidden = true;
  try {
    const { response: res, error: refused } = await api.POST('/api/watches', { body });
    if (res.ok) {
      done.hidden = false;
      for (const el of form.querySelectorAll<HTMLElement>('input:not([type=hidden]), button')) el.hidden = true;
      window.dispatchEvent(new CustomEvent('sugu:watching'));
      return;
    }
    const answer = typeof refused === 'object' ? refused?.error : undefined;
    error.textContent = [answer?.message, ...Object.values(answer?.fields ?? {})].filter(Boolean).join(' ') || res.statusText;
    error.hidden = false;
  } catch {
    // Offline or cut off: the plain form still works.
    form.action = watchPaths.list;
    form.submit();
  } finally {
    button.disabled = false;
  }
}
