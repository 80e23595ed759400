import { useState } from 'react';
import { showToast } from '../stores/toasts';

interface Props {
  storeId: number;
  storeName: string;
  initial: boolean;
  signedIn: boolean;
  /** Larger, labelled button on the detail page; an icon on cards. */
  variant?: 'icon' | 'full';
  labels: { add: string; remove: string; added: string; removed: string; failed: string; signIn: string };
}

/** Heart toggle: PUT/DELETE /api/favourites/{id}; guests are sent to sign in and come back. */
export default function FavouriteButton({ storeId, storeName, initial, signedIn, variant = 'icon', labels }: Props) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);

  async function toggle() {
    if (!signedIn) {
      window.location.href = `/auth/signin?next=${encodeURIComponent(location.pathname + location.search)}`;
      return;
    }
    const next = !on;
    setOn(next);
    setBusy(true);
    try {
      const res = await fetch(`/api/favourites/${storeId}`, { method: next ? 'PUT' : 'DELETE', headers: { accept: 'application/json' } });
      if (res.status === 401) {
        window.location.href = `/auth/signin?next=${encodeURIComponent(location.pathname + location.search)}`;
        return;
      }
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? String(res.status));
      }
      showToast({ kind: 'success', message: next ? labels.added : labels.removed });
    } catch (error) {
      setOn(!next);
      showToast({ kind: 'error', message: labels.failed, error });
    } finally {
      setBusy(false);
    }
  }

  const label = `${on ? labels.remove : labels.add}: ${storeName}`;
  const heart = (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={`h-5 w-5 ${on ? 'fill-error' : 'fill-none stroke-current'}`} strokeWidth={2}>
      <path d="M12 21s-7.5-4.6-9.5-9.3C1.2 8.4 3.3 5 6.8 5c2 0 3.4 1 4.2 2.3h2C13.8 6 15.2 5 17.2 5c3.5 0 5.6 3.4 4.3 6.7C19.5 16.4 12 21 12 21z" />
    </svg>
  );
  return (
    <button
      type="button"
      onClick={toggle}
      disabled={busy}
      aria-pressed={on}
      aria-label={variant === 'icon' ? label : undefined}
      title={signedIn ? undefined : labels.signIn}
      data-favourite={storeId}
      className={variant === 'icon' ? 'btn btn-circle btn-sm btn-ghost bg-base-100/90' : 'btn btn-outline btn-sm'}
    >
      {heart}
      {variant === 'full' && <span>{on ? labels.remove : labels.add}</span>}
    </button>
  );
}
