/**
 * The hearts' one delegated script (src/server/render/heart.ts): a heart's form sends PUT/DELETE
 * /api/favourites/{id} instead of posting, with a toast. A guest's heart posts, and is sent to sign
 * in and back.
 */
import { showToast } from '../state/toasts';
import { api } from '../lib/api/client';

// Delegated: also serves hearts that arrive later (the listing re-sorted by position).
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches('[data-favourite-form]')) return;
  const button = form.querySelector<HTMLButtonElement>('button[data-favourite]');
  const field = form.querySelector<HTMLInputElement>('input[name="favourite"]');
  if (!button || !field || button.disabled) return;
  event.preventDefault();
  const show = (on: boolean) => {
    button.setAttribute('aria-pressed', String(on));
    const label = (on ? button.dataset.labelOn : button.dataset.labelOff) ?? '';
    const text = button.querySelector('[data-favourite-text]');
    if (text) text.textContent = label;
    else button.setAttribute('aria-label', label);
    field.value = on ? '0' : '1';
  };
  const next = field.value === '1';
  show(next);
  button.disabled = true;
  try {
    // keepalive: the heart shows the new state at once, so a diner may leave the page before the answer; the change must still arrive.
    const call = { params: { path: { storeId: Number(button.dataset.favourite) } }, keepalive: true };
    const { response: res, error: refused } = next ? await api.PUT('/api/favourites/{storeId}', call) : await api.DELETE('/api/favourites/{storeId}', call);
    // The session ended meanwhile: the form itself sends the diner to sign in and back.
    if (res.status === 401) {
      show(!next);
      form.submit();
      return;
    }
    if (!res.ok) {
      const message = typeof refused === 'object' ? refused?.error?.message : undefined;
      throw new Error(message ?? String(res.status));
    }
    showToast({ kind: 'success', message: next ? form.dataset.added : form.dataset.removed });
  } catch (error) {
    show(!next);
    showToast({ kind: 'error', message: form.dataset.failed, error });
  } finally {
    button.disabled = false;
  }
});
