/**
 * The opt-in to notifications on this device (`[data-push-optin]`: a button with its status line,
 * on the 空席通知 page, the account page and a guest's 順番待ち page). Asked only when the diner taps it, after the reason
 * is shown; the browser's subscription is sent to the server as the account's or the guest
 * device's. Pages without support or permission say so instead of offering a button that fails.
 */
import { api } from '../lib/api/client';
import { WORKER_URL } from './serviceWorker';

/** The server key as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A short name for the device list: the browser and the system, from the user agent. */
function deviceLabel(): string {
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : '';
  const system = /iPhone|iPad/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return [browser, system].filter(Boolean).join(' / ');
}

async function optIn(box: HTMLElement, status: HTMLElement): Promise<void> {
  const say = (key: string) => (status.textContent = box.dataset[key] ?? '');
  try {
    if ((await Notification.requestPermission()) !== 'granted') return void say('denied');
    const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: '/' }).then(() => navigator.serviceWorker.ready);
    const key = await api.GET('/api/push/key');
    if (!key.data) return void say('failed');
    let subscription = await registration.pushManager.getSubscription();
    try {
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.data.public_key) });
    } catch (error) {
      // The browser has the API but no push service to register with (Chromium without its
      // vendor's service, a blocked network: AbortError): trying again here will not help.
      if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'NotSupportedError')) return void say('noService');
      throw error;
    }
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    const body = { endpoint: json.endpoint, keys: json.keys, label: deviceLabel() };
    // A guest's 順番待ち page: the device follows that entry (the entry's cookie proves it is theirs).
    const entry = Number(box.dataset.queueEntry);
    const saved = entry
      ? await api.POST('/api/queue/{id}/push', { params: { path: { id: entry } }, body })
      : await api.POST('/api/push/subscriptions', { body });
    if (!saved.data) return void say('failed');
    say('done');
    box.querySelector('button')?.setAttribute('hidden', '');
  } catch {
    say('failed');
  }
}

for (const box of document.querySelectorAll<HTMLElement>('[data-push-optin]')) {
  const button = box.querySelector('button');
  const status = box.querySelector<HTMLElement>('[data-push-status]');
  if (!button || !status) continue;
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window) || !window.isSecureContext) {
    status.textContent = box.dataset.unsupported ?? '';
    continue;
  }
  if (Notification.permission === 'denied') status.textContent = box.dataset.denied ?? '';
  button.hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    void optIn(box, status).finally(() => (button.disabled = false));
  });
}
