import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $toasts, dismissToast, showToast, type Toast } from '../state/toasts';
import { listenWatchAlerts } from '../state/watchAlerts';
import { formatTime } from '../lib/datetime';
import { fromDictionary } from '../lib/contract/messages';
import type { Flash } from '../lib/flash';

interface Props {
  /** A one-time message left by the previous request (a redirect's flash). */
  flash: Flash | null;
  /** The diner (or this device) has watches: their alerts come in as toasts with a booking link. */
  watching?: boolean;
  /** `watchFreed` takes {{store}}, {{time}} and {{party}}; `watchHeld` {{store}}, {{time}} and {{deadline}} (a start held for this diner). */
  labels: { region: string; close: string; failed: string; watchFreed: string; watchBook: string; watchHeld: string; watchHold: string; nextDay: string };
}

const STYLES: Record<Toast['kind'], string> = {
  normal: 'bg-black text-white ring-1 ring-white/20',
  success: 'bg-success text-success-content',
  error: 'bg-error text-error-content',
};

function ToastItem({ toast, closeLabel }: { toast: Toast; closeLabel: string }) {
  useEffect(() => {
    if (toast.timeout <= 0) return;
    const timer = setTimeout(() => dismissToast(toast.id), toast.timeout);
    return () => clearTimeout(timer);
  }, [toast.id, toast.timeout]);

  return (
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-kind={toast.kind}
      data-timeout={toast.timeout}
      className={`pointer-events-auto flex items-center gap-3 rounded-box px-4 py-3 text-sm shadow-lg ${STYLES[toast.kind]}`}
    >
      <p className="flex-1 whitespace-pre-line">{toast.message}</p>
      {toast.link && (
        <a className="btn bg-white text-black" href={toast.link.href} data-testid="toast-link">
          {toast.link.label}
        </a>
      )}
      {toast.timeout === 0 && (
        <button type="button" className="btn btn-ghost text-current" onClick={() => dismissToast(toast.id)}>
          {closeLabel}
        </button>
      )}
    </div>
  );
}

export default function ToastBar({ flash, watching: watchingAtFirst = false, labels }: Props) {
  const toasts = useStore($toasts);
  // A watch made on this page (src/scripts/watchAsk.ts) starts the listening without a reload.
  const [watching, setWatching] = useState(watchingAtFirst);
  useEffect(() => {
    const on = () => setWatching(true);
    window.addEventListener('sugu:watching', on);
    return () => window.removeEventListener('sugu:watching', on);
  }, []);

  useEffect(() => {
    if (flash) showToast({ kind: flash.kind, message: flash.message }, labels.failed);
    const w = window as { __suguPendingToasts?: { kind: Toast['kind']; message: string; timeout?: number }[]; __suguToastsListening?: boolean };
    const onToast = (e: Event) => showToast((e as CustomEvent).detail, labels.failed);
    window.addEventListener('sugu:toast', onToast);
    // Listening now: chunkWatchdog dispatches from here on, and what it queued before (with the plain
    // alert it showed meanwhile) becomes toasts.
    w.__suguToastsListening = true;
    const pending = (w.__suguPendingToasts ??= []);
    for (const p of pending.splice(0)) showToast(p, labels.failed);
    document.getElementById('chunk-error')?.remove();
    return () => {
      w.__suguToastsListening = false;
      window.removeEventListener('sugu:toast', onToast);
    };
  }, [flash, labels.failed]);

  // Marked on the region once the alert stream is connected: from then on no alert passes this page by.
  const [listening, setListening] = useState(false);
  useEffect(() => {
    if (!watching) return;
    const time = (iso: string) => formatTime(new Date(iso), fromDictionary({ 'time.nextDay': labels.nextDay }));
    return listenWatchAlerts(
      (a) =>
        showToast({
          kind: 'success',
          message: a.deadline
            ? fromDictionary(labels)('watchHeld', { store: a.store_name, time: time(a.start), deadline: time(a.deadline) })
            : fromDictionary(labels)('watchFreed', { store: a.store_name, time: time(a.start), party: a.party_size }),
          // It stays until used or closed: the diner may be looking elsewhere when it comes.
          timeout: 0,
          link: { href: a.href, label: a.deadline ? labels.watchHold : labels.watchBook },
        }),
      () => setListening(true),
    );
  }, [watching, labels]);

  return (
    <section
      aria-label={labels.region}
      className="pointer-events-none fixed inset-x-0 bottom-20 z-50 mx-auto flex max-w-md flex-col gap-2 px-3"
      data-hydrated="true"
      data-watch-listening={listening ? 'true' : undefined}
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} closeLabel={labels.close} />
      ))}
    </section>
  );
}
