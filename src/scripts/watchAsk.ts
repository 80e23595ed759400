/**
 * The 「空席が出たら知らせる」 forms (`data-watch-ask`), with JavaScript: sent to the API in place,
 * so the diner stays on the page; on success the page's toasts start listening for the alert
 * (`sugu:watching`), and a refusal is said next to the button. Without JavaScript the form posts
 * to /watches and comes back.
 */
import { watchPaths } from '../lib/contract/paths';

const FIELDS = ['store_id', 'area_id', 'party_size'] as const;

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
  const body: Record<string, unknown> = {};
  for (const k of FIELDS) if (data.get(k)) body[k] = Number(data.get(k));
  for (const k of ['genre', 'keyword', 'email'] as const) if (data.get(k)) body[k] = String(data.get(k));
  button.disabled = true;
  error.hidden = true;
  try {
    const res = await fetch('/api/watches', { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.ok) {
      done.hidden = false;
      for (const el of form.querySelectorAll<HTMLElement>('input:not([type=hidden]), button')) el.hidden = true;
      window.dispatchEvent(new CustomEvent('sugu:watching'));
      return;
    }
    const json = (await res.json().catch(() => null)) as { error?: { message?: string; fields?: Record<string, string> } } | null;
    error.textContent = [json?.error?.message, ...Object.values(json?.error?.fields ?? {})].filter(Boolean).join(' ') || res.statusText;
    error.hidden = false;
  } catch {
    // Offline or cut off: the plain form still works.
    form.action = watchPaths.list;
    form.submit();
  } finally {
    button.disabled = false;
  }
}
